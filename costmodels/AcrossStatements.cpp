//===- costmodels/AcrossStatements.cpp - Messages that carry several statements' reads -===//

#include "costmodels/AcrossStatements.h"
#include "costmodels/Coalescing.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace dlayout::cost {

namespace {

/// The loop copy, in the distributed nest, that a term's fetch runs before:
/// the statement's phase and its path up to the loop inside the term's
/// placement; none where the fetch runs inside the innermost loop, before
/// the statement, or the statement is in no phase.
using FetchNode = std::pair<std::string, std::vector<int>>;
std::optional<FetchNode> fetchNodeOf(const StatementFacts &sf, const CommCost &c) {
  const size_t next = size_t(c.placement + 1);
  if (next >= sf.loops.size() || sf.path.size() <= next)
    return std::nullopt;
  return FetchNode{sf.phase, std::vector<int>(sf.path.begin(), sf.path.begin() + long(next) + 1)};
}

/// Removes from each statement's terms those `merged` marks (by statement,
/// then term), keeping the others' order.
void removeMerged(std::vector<StatementComm> &comm, const std::vector<std::vector<char>> &merged) {
  for (size_t k = 0; k < comm.size(); ++k) {
    std::vector<CommCost> &list = comm[k].costs;
    size_t w = 0;
    for (size_t n = 0; n < list.size(); ++n)
      if (!merged[k][n]) {
        if (w != n)
          list[w] = std::move(list[n]);
        ++w;
      }
    list.resize(w);
  }
}

/// References whose Shifts along mesh dimension `meshDim` towards the same
/// neighbour are edges of one section, the wider holding the narrower: one
/// array, the same subscripts but in the dimension on `meshDim`, where each
/// is the same single index plus a constant no larger than the blocks
/// there (DP(I+1,J) beside DP(I+2,J), rows in blocks of 2 or more: the next
/// block's first row, and its first two). Cyclic, DP(I+2,J) comes from the
/// processor after the next.
bool oneEdge(const std::vector<const RhsFacts *> &a, const std::vector<const RhsFacts *> &b,
             const LayoutView &lv, int meshDim) {
  if (a.empty() || b.empty() || meshDim < 0)
    return false;
  const RhsFacts &first = *a.front();
  if (!first.ref.ref)
    return false;
  const ArrayDist &ad = lv.arrays[size_t(first.ref.array)];
  if (size_t(meshDim) >= ad.dimOnMesh.size())
    return false;
  const int shifted = ad.dimOnMesh[size_t(meshDim)];
  const auto &subs = first.ref.ref->subscripts;
  int differ = -1;
  for (const auto *list : {&a, &b})
    for (const RhsFacts *r : *list) {
      if (!r->ref.ref || r->ref.array != first.ref.array || r->ref.ref->subscripts.size() != subs.size() ||
          r->ref.subs.size() != subs.size())
        return false;
      for (size_t k = 0; k < subs.size(); ++k) {
        if (r->ref.ref->subscripts[k] == subs[k])
          continue;
        if (int(k) != shifted)
          return false;
        differ = int(k);
      }
    }
  if (differ < 0)
    return true; // the same reference
  const DimDist &dd = ad.dims[size_t(differ)];
  if (dd.kind != DistKind::Block && dd.kind != DistKind::Cyclic && dd.kind != DistKind::BlockCyclic)
    return false;
  const SubscriptForm &g = first.ref.subs[size_t(differ)];
  for (const auto *list : {&a, &b})
    for (const RhsFacts *r : *list) {
      const SubscriptForm &f = r->ref.subs[size_t(differ)];
      if (f.cls != SubscriptClass::Single || f.terms != g.terms || f.terms.size() != 1 ||
          std::llabs(f.terms[0].second) != 1 || std::llabs(f.constant) > dd.block)
        return false;
    }
  return true;
}


/// Both statements run each instance of the node's loops on the same
/// processors: the same loops, and the same lhs and other runners (or both
/// on every processor), neither a reduction.
bool sameRunners(const StatementFacts &a, const StatementFacts &b) {
  auto same = [](const RefFacts &x, const RefFacts &y) {
    return x.ref && y.ref && x.array == y.array && x.ref->subscripts == y.ref->subscripts;
  };
  // The same copy of every loop around them (LoopDistribution.h: path[q]
  // the unit at depth q, the last the statement's own place).
  const size_t m = a.loops.size();
  if (a.phase != b.phase || m != b.loops.size() || a.path.size() != m + 1 ||
      b.path.size() != m + 1 || !std::equal(a.path.begin(), a.path.begin() + long(m), b.path.begin()) ||
      a.hasLhs != b.hasLhs || a.hasHome || b.hasHome || a.scalarReduction ||
      b.scalarReduction || a.rho != b.rho || a.alsoRunBy.size() != b.alsoRunBy.size())
    return false;
  if (a.hasLhs && !same(a.lhs, b.lhs))
    return false;
  for (size_t k = 0; k < a.alsoRunBy.size(); ++k)
    if (!same(a.alsoRunBy[k], b.alsoRunBy[k]))
      return false;
  return true;
}

/// The same messages between the same processors, as often.
bool sameMessage(const CommCost &e, const CommCost &c) {
  return e.prim == c.prim && std::strcmp(e.primitive, c.primitive) == 0 && e.group == c.group &&
         e.span == c.span && e.meshDim == c.meshDim && e.repetitions == c.repetitions &&
         e.tiles == c.tiles && e.placement == c.placement && e.section == c.section &&
         e.senders.share == c.senders.share && detail::sameSource(e.senders, c.senders);
}

/// A reference whose fetch's term may carry other statements' sections
/// (a plain read: not a reduction's, not split, not on every processor).
bool joinable(const CommCost &c, const RhsFacts &rf) {
  return c.shiftDim < 0 && c.rhs >= 0 && !c.pipelined && !c.allGather && !rf.toHome &&
         !rf.home && !rf.everyProcessor && !rf.reductionOperand && rf.splitLoop < 0;
}

/// The union along array dimension `dim` can grow the term's message: the
/// dimension on no mesh dimension, or blocked on one other than the term's
/// own and its senders'.
bool growsAlong(const CommCost &e, const RhsFacts &rf, const LayoutView &lv, int dim) {
  const DimDist &dd = lv.arrays[size_t(rf.ref.array)].dims[size_t(dim)];
  if (!dd.onMesh())
    return true;
  return dd.blocked() && e.meshDim >= 0 && dd.meshDim != e.meshDim &&
         dd.meshDim != e.senders.meshDim;
}

/// The words of term e of statement sf (first composed as `words`) with
/// its reference's section grown to `across`; nullopt where e is not the
/// plain composition of its reference's terms.
std::optional<double> grownWords(const StatementFacts &sf, const CommCost &e, double words,
                                 const SectionUnion &across, const LayoutView &lv,
                                 const CommunicationOptions &opts) {
  const RhsFacts &rf = sf.rhs[size_t(e.rhs)];
  ReferenceTerms rt = referenceTerms(sf, rf, lv, opts.terms);
  if (rt.irregular || rt.localExtent.size() != rf.ref.subs.size())
    return std::nullopt;
  if (e.section.dim >= 0)
    detail::widen(rt, rf, lv, e.section);
  const std::vector<ComposedTerm> before = compose(rt, lv.mesh);
  auto it = std::find_if(before.begin(), before.end(), [&](const ComposedTerm &t) {
    return t.prim == e.prim && t.group == e.group && t.meshDim == e.meshDim &&
           std::abs(t.words - words) <= 1e-9 * std::max(1.0, words);
  });
  if (it == before.end())
    return std::nullopt;
  const size_t t = size_t(it - before.begin());
  detail::widen(rt, rf, lv, across);
  const std::vector<ComposedTerm> after = compose(rt, lv.mesh);
  if (after.size() != before.size() || after[t].prim != e.prim || after[t].group != e.group)
    return std::nullopt;
  return after[t].words;
}

} // namespace

void coalesceAcrossStatements(std::vector<StatementComm> &comm, const LayoutView &lv,
                              const PrimitiveCosts &costs) {
  auto carries = [](const CommCost &c, const RhsFacts *r) {
    return std::any_of(c.carried.begin(), c.carried.end(),
                       [&](const RhsFacts *q) { return detail::sameReference(*q, *r); });
  };
  struct Kept {
    size_t statement, term;
  };
  // By the loop the fetch runs before and the array: only those can join.
  std::map<std::pair<FetchNode, int>, std::vector<Kept>> kept;
  std::vector<std::vector<char>> merged(comm.size()); // removed once all are seen
  for (size_t k = 0; k < comm.size(); ++k) {
    StatementComm &sc = comm[k];
    merged[k].assign(sc.costs.size(), 0);
    for (size_t n = 0; n < sc.costs.size(); ++n) {
      CommCost &c = sc.costs[n];
      if (c.shiftDim < 0 || c.carried.empty() || c.pipelined || c.rhs < 0)
        continue;
      std::optional<FetchNode> before = fetchNodeOf(*sc.sf, c);
      if (!before)
        continue;
      std::vector<Kept> &same = kept[{std::move(*before), sc.sf->rhs[size_t(c.rhs)].ref.array}];
      auto into = std::find_if(same.begin(), same.end(), [&](const Kept &q) {
        const CommCost &e = comm[q.statement].costs[q.term];
        return e.shiftDim == c.shiftDim &&
               e.direction == c.direction && e.group == c.group && e.span == c.span &&
               e.repetitions == c.repetitions && e.tiles == c.tiles && e.senders == c.senders;
      });
      if (into == same.end()) {
        same.push_back({k, n});
        continue;
      }
      CommCost &e = comm[into->statement].costs[into->term];
      const bool nested = oneEdge(e.carried, c.carried, lv, c.shiftDim);
      size_t fresh = 0; // references e does not carry yet
      for (const RhsFacts *r : c.carried)
        if (!carries(e, r)) {
          e.carried.push_back(r);
          ++fresh;
        }
      const double part = double(fresh) / double(c.carried.size());
      if (nested) { // the wider edge holds the narrower
        e.words = std::max(e.words, c.words);
        e.bytes = std::max(e.bytes, c.bytes);
      } else {
        e.words += part * c.words;
        e.bytes += part * c.bytes;
      }
      e.sharedBy += c.sharedBy;
      e.seconds = e.repetitions * costs.cost(Primitive::Shift, e.bytes, e.group, e.span);
      merged[k][n] = 1;
    }
  }
  removeMerged(comm, merged);
}

void joinSectionsAcrossStatements(std::vector<StatementComm> &comm, const LayoutView &lv,
                                  const PrimitiveCosts &costs, const CommunicationOptions &opts) {
  struct Kept {
    size_t statement, term;
    double words;                    // as composed, before any join
    SectionUnion across;             // the sections it carries (dim -1: its own)
    std::vector<int64_t> constants;  // theirs along across.dim, each once
  };
  // By the loop node the fetch runs before and the array: only those join.
  std::map<std::pair<FetchNode, int>, std::vector<Kept>> kept;
  std::vector<std::vector<char>> merged(comm.size());
  for (size_t k = 0; k < comm.size(); ++k) {
    const StatementFacts &sf = *comm[k].sf;
    merged[k].assign(comm[k].costs.size(), 0);
    for (size_t n = 0; n < comm[k].costs.size(); ++n) {
      const CommCost &c = comm[k].costs[n];
      if (c.rhs < 0 || !joinable(c, sf.rhs[size_t(c.rhs)]))
        continue;
      const RhsFacts &rf = sf.rhs[size_t(c.rhs)];
      std::optional<FetchNode> before = fetchNodeOf(sf, c);
      if (!before)
        continue;
      std::vector<Kept> &same = kept[{std::move(*before), rf.ref.array}];
      bool joined = false;
      for (Kept &q : same) {
        CommCost &e = comm[q.statement].costs[q.term];
        const StatementFacts &a = *comm[q.statement].sf;
        if (q.statement == k || !sameMessage(e, c) || !sameRunners(a, sf))
          continue;
        const RhsFacts &head = a.rhs[size_t(e.rhs)];
        const int dim = detail::sectionDim(head, rf);
        if (dim < 0 || dim == e.section.dim || (q.across.dim >= 0 && q.across.dim != dim) ||
            !growsAlong(e, head, lv, dim))
          continue;
        SectionUnion across = q.across;
        std::vector<int64_t> constants = q.constants;
        for (int64_t v : {head.ref.subs[size_t(dim)].constant, rf.ref.subs[size_t(dim)].constant})
          if (std::find(constants.begin(), constants.end(), v) == constants.end())
            constants.push_back(v);
        across.dim = dim;
        across.lo = *std::min_element(constants.begin(), constants.end());
        across.hi = *std::max_element(constants.begin(), constants.end());
        across.count = int(constants.size());
        std::optional<double> words = grownWords(a, e, q.words, across, lv, opts);
        if (!words)
          continue;
        if (e.words > 0)
          e.bytes *= *words / e.words;
        e.words = *words;
        e.sections += 1 + c.sections;
        e.seconds = e.repetitions * messageSeconds(e, a, costs, opts);
        q.across = across;
        q.constants = std::move(constants);
        merged[k][n] = joined = true;
        break;
      }
      if (!joined)
        same.push_back({k, n, c.words, {}, {}});
    }
  }
  removeMerged(comm, merged);
}

void joinCountedFetches(std::vector<StatementComm> &comm, const JointCount &count) {
  // Each statement's reads by the loop node their fetch runs before and the
  // array, each read once, in program order; whether one is counted.
  struct Reads {
    std::vector<StatementRead> reads;
    std::vector<size_t> statements;
    bool counted = false;
  };
  std::map<std::pair<FetchNode, int>, Reads> before;
  for (size_t k = 0; k < comm.size(); ++k) {
    const StatementFacts &sf = *comm[k].sf;
    for (const CommCost &c : comm[k].costs) {
      if (c.rhs < 0)
        continue;
      std::optional<FetchNode> node = fetchNodeOf(sf, c);
      if (!node)
        continue;
      Reads &r = before[{std::move(*node), sf.rhs[size_t(c.rhs)].ref.array}];
      r.counted |= c.counted;
      if (r.reads.empty() || r.statements.back() != k || r.reads.back().rhs != c.rhs) {
        r.reads.push_back({&sf, c.rhs});
        r.statements.push_back(k);
      }
    }
  }
  // A term whose message is only its reference's: not one that carries
  // others' elements (coalescing) or is pipelined or tiled. Each read's
  // terms all before the group's loop (none split over two).
  auto plain = [](const CommCost &c) {
    return c.sharedBy == 1 && c.section.dim < 0 && c.sections == 0 && !c.pipelined &&
           c.tiles == 1 && c.shiftDim < 0 && !c.allGather && c.carried.empty();
  };
  std::vector<std::vector<char>> merged(comm.size());
  for (size_t k = 0; k < comm.size(); ++k)
    merged[k].assign(comm[k].costs.size(), 0);
  std::vector<std::pair<size_t, std::vector<CommCost>>> joints; // by the first read's statement
  for (auto &[key, r] : before) {
    if (!r.counted || r.statements.front() == r.statements.back())
      continue; // nothing counted, or one statement's reads (Coalescing.h)
    bool each = true;
    for (size_t j = 0; j < r.reads.size() && each; ++j)
      for (const CommCost &c : comm[r.statements[j]].costs)
        if (c.rhs == r.reads[j].rhs)
          each = each && plain(c) && fetchNodeOf(*r.reads[j].sf, c) == key.first;
    if (!each)
      continue;
    std::optional<std::vector<CommCost>> joint = count(r.reads);
    if (!joint)
      continue;
    for (size_t j = 0; j < r.reads.size(); ++j) {
      const std::vector<CommCost> &list = comm[r.statements[j]].costs;
      for (size_t n = 0; n < list.size(); ++n)
        if (list[n].rhs == r.reads[j].rhs)
          merged[r.statements[j]][n] = 1;
    }
    joints.emplace_back(r.statements.front(), std::move(*joint));
  }
  removeMerged(comm, merged);
  for (auto &[k, joint] : joints) {
    std::vector<CommCost> &list = comm[k].costs;
    const int rhs = joint.empty() ? 0 : joint.front().rhs;
    // Where the first read's own terms were, in rhs order.
    auto at = std::find_if(list.begin(), list.end(), [&](const CommCost &c) { return c.rhs > rhs; });
    list.insert(at, std::make_move_iterator(joint.begin()), std::make_move_iterator(joint.end()));
  }
}

} // namespace dlayout::cost
