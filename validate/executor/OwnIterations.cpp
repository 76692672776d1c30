//===- validate/executor/OwnIterations.cpp - A rank walks its own block ---===//
//
// Owner-computes runs an instance on the holders of the element it writes,
// and every rank used to walk every iteration asking (runs()), so a rank's
// time grew with the whole iteration space rather than with its share: on
// real ranks the measured time did not scale with P, and under SimGrid the
// P interpreters in one process walked P times the program. Where a loop's
// body is statements only, each run by the holders of an element named by
// affine subscripts -- the lhs's (owner-computes), or a reduction's operand's
// (its executor is one of them) -- the iterations t in which this rank runs
// a statement lie among those where it holds that element, which follow
// from the owner function (Zima's delta) of each dimension, the subscript
// a t + b in the loop's iteration number:
//   - collapsed or replicated: every t whose a t + b is inside the array;
//   - BLOCK, GENERAL_BLOCK: the t whose a t + b lies in the rank's segment;
//   - CYCLIC(B) (CYCLIC: B = 1) over N processors, a = +-1: runs of B
//     iterations every N B (Eq. 2.1); for other a, a superset (all t);
// their intersection over the dimensions (one periodic pattern at most: a
// second leaves a superset), and over the statements the hull (the common
// pattern where they share it). Nothing else changes: the same instances
// run in the same order, runs() still decides each, and what is charged and
// sent is the same.
//
// A loop is walked whole where its body holds a loop, a communication
// action, a statement whose index elements are broadcast per instance, a
// scalar assignment run on every rank, an indirect or unknown subscript in
// those references, or their array distributed by an indirection; and on
// rank 0 where one of them leaves its array (rank 0 runs such instances,
// which write() reports).
//
//===----------------------------------------------------------------------===//
#include "validate/executor/Distributed.h"

#include <algorithm>

namespace dlayout::exec {

namespace {

/// Narrows [first, last] to the t with lo <= a t + b <= hi; false: none.
bool within(int64_t a, int64_t b, int64_t lo, int64_t hi, int64_t &first, int64_t &last) {
  if (a == 0) return lo <= b && b <= hi;
  auto ceilDiv = [](int64_t x, int64_t y) { return -rt::floorDiv(-x, y); };
  // a t >= lo - b and a t <= hi - b, the sides swapping where a < 0.
  const int64_t from = a > 0 ? ceilDiv(lo - b, a) : ceilDiv(hi - b, a);
  const int64_t to = a > 0 ? rt::floorDiv(hi - b, a) : rt::floorDiv(lo - b, a);
  first = std::max(first, from);
  last = std::min(last, to);
  return first <= last;
}

/// Narrows `its` to the t whose index a t + b coordinate c of d holds;
/// false: none.
bool heldBy(const rt::Distribution &d, int64_t c, int64_t a, int64_t b, Iterations &its) {
  if (!within(a, b, d.lower(), d.lower() + d.extent() - 1, its.first, its.last)) return false;
  if (d.everywhere()) return true;
  if (d.contiguous()) {
    const auto [from, end] = d.segment(c);
    return within(a, b, from, end - 1, its.first, its.last);
  }
  // Block-cyclic: position x = a t + b - lower - offset is c's where
  // floor(x / B) mod N = c (Eq. 2.1).
  const int64_t B = d.blockSize(), N = d.procs(), x0 = b - d.lower() - d.offset();
  if (a == 0) return rt::floorMod(rt::floorDiv(x0, B), N) == c;
  if ((a != 1 && a != -1) || its.stride != 1) return true; // a superset
  // Runs of B every N B from the t where x enters c's block: its start
  // (a = 1) or its end (a = -1).
  its.run = B;
  its.stride = N * B;
  its.phase = a == 1 ? c * B - x0 : x0 - c * B - (B - 1);
  return true;
}

/// The reference whose holders run statement s: its lhs (owner-computes),
/// or for a reduction its operand (the executor is one of the operand's
/// holders, DistributedReduction.cpp), nullptr for a scalar assignment.
const CRef *runnerOf(const CStmt &st, bool reduction) {
  if (reduction) return &st.refs[static_cast<size_t>(st.operand)];
  return st.lhs >= 0 ? &st.refs[static_cast<size_t>(st.lhs)] : nullptr;
}

/// Subscript `sub` at iteration t of loop `slot` (index lo + t * step, the
/// other loops at iv): a t + b.
std::pair<int64_t, int64_t> alongLoop(const CSub &sub, int slot, const int64_t *iv, int64_t lo,
                                      int64_t step) {
  int64_t c = 0, b = sub.affine.constant;
  for (const auto &[at, coeff] : sub.affine.terms) {
    if (at == slot) c += coeff;
    else b += coeff * iv[at];
  }
  return {c * step, b + c * lo};
}

} // namespace

bool DistributedMemory::narrowable(int n) const {
  const Node &node = x_.nodes[static_cast<size_t>(n)];
  if (!node.isLoop || node.split || node.children.empty()) return false;
  std::vector<int> siblings;
  for (int c : node.children) {
    const Node &child = x_.nodes[static_cast<size_t>(c)];
    if (child.isLoop || !child.actions.empty()) return false;
    siblings.push_back(child.index);
  }
  auto affine = [](const CRef &r) {
    return std::none_of(r.subs.begin(), r.subs.end(),
                        [](const CSub &sub) { return sub.indirect || !sub.expr.empty(); });
  };
  for (int s : siblings) {
    const CStmt &st = x_.stmts[static_cast<size_t>(s)];
    if (!st.replicated.empty()) return false;
    const CRef *runner = runnerOf(st, activeReduce_[static_cast<size_t>(s)]);
    if (!runner) { // a private scalar runs where its readers do
      if (st.consumers.empty()) return false;
      for (int c : st.consumers)
        if (std::find(siblings.begin(), siblings.end(), c) == siblings.end()) return false;
      continue;
    }
    const rt::ArrayDistribution &d = *arrays_[static_cast<size_t>(runner->array)].dist;
    for (int k = 0; k < d.rank(); ++k)
      if (d.dim(k).kind() == DistKind::Indirect) return false;
    if (!affine(*runner) || (st.lhs >= 0 && !affine(st.refs[static_cast<size_t>(st.lhs)])))
      return false;
  }
  return true;
}

bool DistributedMemory::ownedIterations(int s, int slot, const int64_t *iv, int64_t lo,
                                        int64_t step, Iterations &its) const {
  const CStmt &st = x_.stmts[static_cast<size_t>(s)];
  const CRef &r = *runnerOf(st, activeReduce_[static_cast<size_t>(s)]);
  // Rank 0 also runs the instances whose elements (the runner's, a
  // reduction's lhs) are outside their arrays: where there are any, all.
  if (me_ == 0)
    for (const CRef *ref : {&r, st.lhs >= 0 ? &st.refs[static_cast<size_t>(st.lhs)] : &r}) {
      const CArray &ca = x_.arrays[static_cast<size_t>(ref->array)];
      for (size_t k = 0; k < ref->subs.size(); ++k) {
        const auto [a, b] = alongLoop(ref->subs[k], slot, iv, lo, step);
        int64_t f = its.first, l = its.last;
        if (!within(a, b, ca.lowers[k], ca.lowers[k] + ca.extents[k] - 1, f, l) ||
            f != its.first || l != its.last)
          return true;
      }
    }
  const ArrayState &as = arrays_[static_cast<size_t>(r.array)];
  for (size_t k = 0; k < r.subs.size(); ++k) {
    const auto [a, b] = alongLoop(r.subs[k], slot, iv, lo, step);
    const int m = as.dist->meshDimOf(static_cast<int>(k));
    if (!heldBy(as.dist->dim(static_cast<int>(k)), m < 0 ? 0 : as.coords[static_cast<size_t>(m)],
                a, b, its))
      return false;
  }
  return true;
}

bool DistributedMemory::ownIterations(int n, const int64_t *iv, int64_t lo, int64_t step,
                                      Iterations &its) {
  signed char &known = narrowable_[static_cast<size_t>(n)];
  if (known < 0) known = narrowable(n) ? 1 : 0;
  if (!known) return true;
  const Node &node = x_.nodes[static_cast<size_t>(n)];
  // The hull of the statements' iterations (a private scalar's lie in its
  // readers'), their common pattern where they share one.
  std::optional<Iterations> hull;
  for (int c : node.children) {
    const int s = x_.nodes[static_cast<size_t>(c)].index;
    if (!runnerOf(x_.stmts[static_cast<size_t>(s)], activeReduce_[static_cast<size_t>(s)]))
      continue;
    Iterations one{its.first, its.last};
    if (!ownedIterations(s, node.index, iv, lo, step, one)) continue;
    if (!hull) {
      hull = one;
      continue;
    }
    const bool alike = one.run == hull->run && one.stride == hull->stride &&
                       rt::floorMod(one.phase - hull->phase, one.stride) == 0;
    hull->first = std::min(hull->first, one.first);
    hull->last = std::max(hull->last, one.last);
    if (!alike) hull->run = hull->stride = 1, hull->phase = 0;
  }
  if (!hull) return false;
  its = *hull;
  return true;
}

} // namespace dlayout::exec
