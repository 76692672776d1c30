//===- validate/runtime/Inspector.h - Kali's inspector/executor -*- C++ -*-===//
//
// For a forall loop whose references are known only at run time (Koelbel,
// Mehrotra & Van Rosendale, digest §1.3–1.4, Figs. 3 and 6):
//
//   inspect()  the INSPECTOR, run once: for each iteration this rank
//              executes (exec(p)), test every reference for locality; the
//              non-local elements form the receive list (each element once),
//              their owners learn what to send through one Schedule
//              (PARTI's scheduler in place of Kali's crystal router), and the
//              iterations split into local_list (exec ∩ ref: all references
//              local) and nonlocal_list (exec − ref). The result, a
//              ForallPlan, is saved and reused while the references do not
//              change (Kali's `first_time`).
//   execute()  the EXECUTOR, run every sweep: send (post the schedule's
//              gather), run the local iterations, receive, run the non-local
//              iterations. A reference reads either local storage or its slot
//              in the receive buffer — an index saved by the inspector, so no
//              search (PARTI's buffers, where Kali binary-searched msg_list).
//
// The iterations are numbered 0..n−1 in the order the caller lists them (its
// exec(p)); iteration k references refs[refPtr[k] .. refPtr[k+1]) — each a
// multi-index of the distributed array (rank() entries). An indirect
// dimension whose map is distributed is translated through a TranslationTable
// (the extra communication step of Zima Def. 6). Inspector time and its
// messages count as Scheduling; the executor's loop bodies as Computation.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Result.h"
#include "validate/runtime/ArrayDistribution.h"
#include "validate/runtime/ProcessorMesh.h"
#include "validate/runtime/Schedule.h"

#include <cstdint>
#include <span>
#include <vector>

namespace dlayout::rt {

class TranslationTable;

struct ForallPlan {
  std::vector<int64_t> localIters;    // exec(p) ∩ ref(p)
  std::vector<int64_t> nonlocalIters; // exec(p) − ref(p)
  std::vector<int64_t> refPtr;        // references of iteration k: [refPtr[k], refPtr[k+1])
  std::vector<int64_t> refSrc;        // ≥ 0: offset in local storage; < 0: −1 − buffer slot
  Schedule schedule;                  // fetches the non-local elements into the buffer
  int64_t bufferSize = 0;             // distinct non-local elements
};

/// The values of one iteration's references, in the order they were listed.
template <class T> class RefValues {
public:
  RefValues(const int64_t *src, int64_t n, const T *local, const T *buffer)
      : src_(src), n_(n), local_(local), buf_(buffer) {}
  int64_t size() const { return n_; }
  T operator[](int64_t j) const {
    int64_t s = src_[j];
    return s >= 0 ? local_[s] : buf_[-1 - s];
  }

private:
  const int64_t *src_;
  int64_t n_;
  const T *local_, *buf_;
};

/// Collective. Errors (an index out of range, a refPtr that is not a valid
/// CSR) reach every rank, the precise one on the rank that found it.
Result<ForallPlan> inspect(ProcessorMesh &mesh, const ArrayDistribution &dist,
                           std::span<const int64_t> refPtr,
                           std::span<const int64_t> refs,
                           const TranslationTable *table = nullptr);

/// Collective. Runs body(k, RefValues<T>) for every iteration k of the plan:
/// the local ones while the messages travel, then the non-local ones.
/// `local` is this rank's storage of the array the plan was built for;
/// `buffer` is resized to the plan's receive buffer.
template <class T, class Body>
void execute(ProcessorMesh &mesh, const ForallPlan &plan, const T *local,
             std::vector<T> &buffer, Body &&body) {
  buffer.resize(plan.bufferSize);
  auto pending = plan.schedule.startGather(mesh, local, buffer.data());
  auto run = [&](const std::vector<int64_t> &iters) {
    PhaseTimer t(mesh.counters(), Phase::Computation);
    for (int64_t k : iters) {
      const int64_t b = plan.refPtr[k];
      body(k, RefValues<T>(plan.refSrc.data() + b, plan.refPtr[k + 1] - b, local,
                           buffer.data()));
    }
  };
  run(plan.localIters);
  pending.finish();
  run(plan.nonlocalIters);
}

} // namespace dlayout::rt
