//===- validate/executor/Distributed.cpp - Owner-computes over MPI --------===//
#include "validate/executor/Distributed.h"

#include "validate/executor/Fill.h"
#include "validate/executor/Messages.h"

#ifdef DLAYOUT_SIMGRID
#include <smpi/smpi.h>
#endif

#include <algorithm>
#include <map>
#include <set>
#include <cstring>
#include <unordered_set>

namespace dlayout::exec {

namespace {

double instanceSeconds(const OpCounts &o, const Machine &m) {
  // t(S) of thesis §3.2: the operation counts times the machine's times.
  return o.loads * m.load + o.stores * m.store + (o.fadd + o.iadd) * m.add +
         (o.fmul + o.imul) * m.mul + (o.fdiv + o.idiv) * m.div + o.intrinsics * m.intrinsic +
         o.compares * m.compare;
}

} // namespace

Result<std::unique_ptr<DistributedMemory>>
DistributedMemory::make(const ExecProgram &x, const Layout &l, const Machine &m,
                        rt::ProcessorMesh &mesh, DistOptions opts) {
  std::unique_ptr<DistributedMemory> d(new DistributedMemory(x, mesh));
  d->opts_ = opts;
  d->machine_ = m;
  d->me_ = mesh.rank();
  d->procs_ = mesh.size();
  int *tagUpperBound = nullptr, found = 0;
  MPI_Comm_get_attr(mesh.comm(), MPI_TAG_UB, &tagUpperBound, &found);
  if (found && *tagUpperBound < kMulticastTag + d->procs_ - 1)
    return makeError("the executor tags a multicast by its source, and this MPI's largest tag (" +
                     std::to_string(*tagUpperBound) + ") is too small for " +
                     std::to_string(d->procs_) + " processors");
  d->stats.resize(x.phases.size());
  for (PhaseStats &ps : d->stats) ps.bytesByArray.assign(x.arrays.size() + 1, 0);
  d->bytesByFetch.assign(x.actions.size(), 0);
  d->fetchPhase.assign(x.actions.size(), -1);
  d->plans_.resize(x.actions.size());
  d->narrowable_.assign(x.nodes.size(), -1);
  d->saved_.resize(x.stmts.size());
  d->activeReduce_.assign(x.stmts.size(), 0);
  d->viaPartials_.assign(x.stmts.size(), 0);
  d->partial_.resize(x.stmts.size());
  d->scratchIv_.resize(x.loops.size() + 1);
  for (const auto &s : x.stmts) d->cost_.push_back(instanceSeconds(s.ops, m));
  for (const auto &a : x.arrays) {
    auto it = l.arrays.find(a.name);
    ArrayLayout al;
    if (it != l.arrays.end()) al = it->second;
    else al.dims.assign(a.extents.size(), DimLayout{}); // not in the layout: replicated
    auto dist = rt::ArrayDistribution::make(a.name, a.extents, a.lowers, al, l.mesh,
                                            a.columnMajor);
    if (!dist) return dist.error();
    ArrayState st;
    st.dist = std::make_unique<rt::ArrayDistribution>(std::move(*dist));
    st.local.assign(st.dist->storageSize(d->me_), 0.0);
    st.box = st.dist->ownedBox(d->me_);
    st.coords = st.dist->coordsOf(d->me_);
    st.dist->forEachOwned(d->me_, [&](std::span<const int64_t> idx, int64_t off) {
      st.local[off] = fillValue(opts.seed, a, linearId(a, idx.data()));
    });
    d->arrays_.push_back(std::move(st));
  }
  for (size_t s = 0; s < x.stmts.size(); ++s) {
    const CStmt &st = x.stmts[s];
    if (st.operand >= 0 && st.regionLoop >= 0)
      d->activeReduce_[s] =
          d->arrays_[st.refs[st.operand].array].dist->copies() < d->procs_ ? 1 : 0;
    if (d->activeReduce_[s] && st.lhs >= 0)
      d->viaPartials_[s] = d->arrays_[st.refs[st.lhs].array].dist->copies() > 1 ? 1 : 0;
  }
  return d;
}

bool DistributedMemory::inRange(int a, const int64_t *idx) const {
  const CArray &ar = x_.arrays[a];
  for (size_t k = 0; k < ar.extents.size(); ++k)
    if (idx[k] < ar.lowers[k] || idx[k] >= ar.lowers[k] + ar.extents[k]) return false;
  return true;
}

double DistributedMemory::read(int a, const int64_t *idx) {
  if (!inRange(a, idx)) { ++outOfRange; return 0; }
  if (partialElement(a, idx)) {
    auto it = partial_[current_].find(linearId(x_.arrays[a], idx));
    return it == partial_[current_].end() ? identity(x_.stmts[current_].reduce) : it->second;
  }
  ArrayState &st = arrays_[a];
  if (int64_t off = st.ownedOffset(me_, idx, x_.arrays[a].extents.size()); off >= 0)
    return st.local[size_t(off)];
  auto it = st.cache.find(linearId(x_.arrays[a], idx));
  if (it == st.cache.end()) { ++misses; return 0; }
  return it->second;
}

void DistributedMemory::write(int a, const int64_t *idx, double v) {
  if (!inRange(a, idx)) { ++outOfRange; return; }
  if (partialElement(a, idx)) {
    partial_[current_][linearId(x_.arrays[a], idx)] = v;
    return;
  }
  ArrayState &st = arrays_[a];
  int64_t off = st.ownedOffset(me_, idx, x_.arrays[a].extents.size());
  if (off < 0) { ++misses; return; }
  st.local[size_t(off)] = v;
}

bool DistributedMemory::runs(int s, const int64_t *iv) {
  const CStmt &st = x_.stmts[s];
  int64_t idx[8];
  current_ = -1;
  ++stats[phase_].visited;
  if (activeReduce_[s]) { // where its operand lies (DistributedReduction.cpp)
    if (reductionExecutor(s, iv) != me_) return false;
    if (st.lhs >= 0) current_ = s;
    return true;
  }
  if (st.lhs >= 0) {
    const CRef &r = st.refs[st.lhs];
    in_->refIndex(s, r, iv, idx);
    if (!inRange(r.array, idx)) return me_ == 0; // reported by write()
    return arrays_[r.array].ownedOffset(me_, idx, r.subs.size()) >= 0;
  }
  if (!st.consumers.empty()) {
    std::vector<int64_t> execs;
    executors(s, iv, execs);
    return std::find(execs.begin(), execs.end(), me_) != execs.end();
  }
  return true;
}

void DistributedMemory::executors(int s, const int64_t *iv, std::vector<int64_t> &out) {
  const CStmt &st = x_.stmts[s];
  out.clear();
  int64_t idx[8];
  if (activeReduce_[s]) {
    out.push_back(reductionExecutor(s, iv));
    return;
  }
  if (st.lhs >= 0) {
    const CRef &r = st.refs[st.lhs];
    in_->refIndex(s, r, iv, idx);
    if (!inRange(r.array, idx)) { out.push_back(0); return; }
    out = arrays_[r.array].dist->holders(std::span<const int64_t>(idx, r.subs.size()));
    return;
  }
  if (!st.consumers.empty()) { // a private scalar: where its readers run
    std::vector<int64_t> theirs;
    for (int c : st.consumers) {
      executors(c, iv, theirs);
      out.insert(out.end(), theirs.begin(), theirs.end());
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return;
  }
  for (int p = 0; p < procs_; ++p) out.push_back(p);
}

void DistributedMemory::flushCompute() {
  if (pending_ <= 0) return;
#ifdef DLAYOUT_SIMGRID
  if (opts_.simgrid) smpi_execute_flops(pending_ * opts_.speed);
#endif
  stats[phase_].chargedSeconds += pending_;
  pending_ = 0;
}

void DistributedMemory::executed(int s) {
  current_ = -1;
  pending_ += cost_[s];
  ++stats[phase_].instances;
}

std::vector<double> DistributedMemory::heldPairs(int a) const {
  std::vector<double> out;
  const CArray &ca = x_.arrays[a];
  const ArrayState &st = arrays_[a];
  st.dist->forEachOwned(me_, [&](std::span<const int64_t> idx, int64_t off) {
    out.push_back(static_cast<double>(linearId(ca, idx.data())));
    out.push_back(st.local[off]);
  });
  return out;
}

} // namespace dlayout::exec
