//===- costmodels/PartialsExchange.cpp - Partial results to their owners --===//
//
// Beyond the thesis (exactOwners). A reduction into array elements runs at
// its home operand's owners (model/Reduction.h: matmul's C(I,J) = C(I,J) +
// A(I,K) * B(K,J) at A(I,K)'s); each forms W partial results per execution
// of the placement, for lhs elements that D processors own, and each lhs
// owner takes partials from C homes. Where D > 1, the per-mesh-dimension
// terms of Tables 4.2-4.3 do not describe it: they pair the lhs with the
// operand one mesh dimension at a time, so partials whose owners differ in
// two mesh dimensions (C's I and A's I on different ones) come out as a
// Reduction along one and a multicast of the operand -- which holds no
// data -- along the other. What runs is an exchange: every home sends W / D
// partials to each of the D owners, every owner takes C - 1 of them,
//
//   Gather(W / D, C) + (D - 1) Transfer(W / D),
//
// the form of Composition.h's concurrent Gathers (for D = C = p, Table
// 6.1's ManyToManyMulticast(W / D, p)). D = 1 keeps the thesis's Reduction.
// Where the lhs is replicated along mesh dimensions the home is spread
// over, each of the R copies of an element takes every partial for it:
// every home sends W / D partials to each of D R holders,
//
//   Gather(W / D, C) + (D R - 1) Transfer(W / D),
//
// where the thesis's replicated-lhs terms multicast the operand to every
// copy, which the executor does not run (matmul's C held by all). Along a
// dimension the home is replicated over too, the instances run at the
// home's copy 0 alone (as below), and it sends; where each element has
// that one home (C = 1) its copies take the results from it, D R - 1
// Transfers (fig2_2's XIJ(MJ) on 2 x 2, V's columns on the second
// dimension).
//
// Where the lhs and the home are both replicated along some mesh
// dimensions and aligned along the others, the home distributed along
// some, every copy of the home could form the sum; the executor forms it
// at one, the lhs's home copy (coordinate 0 along those dimensions), and
// sends its W results to each of the R - 1 other copies when the region
// ends: (R - 1) Transfer(W) from that copy, where the per-dimension terms,
// which see replicated operands, move nothing (fig2_2's XIJ(MJ) = XIJ(MJ)
// + VAL * V(MQ,MJ), both replicated along 32 of 32 x 2). A home on every
// processor leaves each copy of the lhs to form its own sum.
//
//===----------------------------------------------------------------------===//

#include "costmodels/TermWalk.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace dlayout::cost::detail {


/// The iterations of type-1 loop l one processor of `side` (the lhs or the
/// home) runs: mlis of them where the side is spread over a mesh dimension
/// along l, within a block's range where it is blocked there, over the
/// whole range otherwise (a cyclic side's iterations cover it).
LoopRange TermWalk::sideRange(bool lhs, int l) const {
  LoopRange lr = rangeOf(sf_, l);
  for (int e = 0; e < D_; ++e) {
    const SubRef &s = lhs ? base_[e].first : base_[e].second;
    if (!spread(s) || s.loop != l)
      continue;
    double its = mlis(s, rangeOf(sf_, l));
    lr.trips = std::min(lr.trips, its);
    if (s.dist->blocked())
      lr.range = std::min(lr.range, its * double(lr.step));
  }
  return lr;
}

/// The coordinates along its mesh dimension that sub-reference s takes over
/// the iterations of its loop one processor of the other side runs (the
/// most over those processors): counted with the owner function (Eq. 2.1)
/// where the loop is short enough and every position a number, the other
/// side's sub-references varying in the same loop fixing the processor;
/// else les over sideRange.
double TermWalk::reach(const SubRef &s, bool otherIsLhs) const {
  if (!spread(s) || s.loop < 0 || out.type2[s.loop])
    return 1;
  const int l = s.loop;
  const LoopFacts &f = sf_.loops[l];
  std::vector<const SubRef *> fixing;
  bool numeric = s.beta.terms.empty() && !s.beta.opaque;
  for (int e = 0; e < D_; ++e) {
    const SubRef &o = otherIsLhs ? base_[e].first : base_[e].second;
    if (spread(o) && o.loop == l) {
      fixing.push_back(&o);
      numeric = numeric && o.beta.terms.empty() && !o.beta.opaque;
    }
  }
  const bool exact = numeric && f.trips == std::floor(f.trips) && f.trips <= 65536 &&
                     f.first == std::floor(f.first);
  if (!exact) {
    const RefFacts &other = otherIsLhs ? sf_.lhs : rf_.ref;
    LoopRange lr = variesIn(other, l) ? sideRange(otherIsLhs, l) : rangeOf(sf_, l);
    return std::max(1.0, std::min(les(s, lr), lr.trips));
  }
  const int64_t step = f.signedStep();
  std::map<std::vector<int64_t>, std::set<int64_t>> owners; // other's processor -> s's
  std::vector<int64_t> key(fixing.size());
  for (int64_t t = 0; t < int64_t(f.trips); ++t) {
    const int64_t v = int64_t(f.first) + t * step;
    auto own = ownerCoordinate(*s.dist, s.alpha * v + s.beta.constant);
    if (!own)
      return 1;
    for (size_t k = 0; k < fixing.size(); ++k) {
      auto c = ownerCoordinate(*fixing[k]->dist, fixing[k]->alpha * v + fixing[k]->beta.constant);
      if (!c)
        return 1;
      key[k] = *c;
    }
    owners[key].insert(*own);
  }
  size_t most = 1;
  for (const auto &[k, set] : owners)
    most = std::max(most, set.size());
  return double(most);
}

/// Loop l's range at its widest over the values of the loops around it
/// (all at their first, or all at their last, values): the lhs elements a
/// region's iterations reach, MJ = 1 .. MQ's at MQ's last.
LoopRange TermWalk::widest(int l) const {
  LoopRange lr = rangeOf(sf_, l);
  std::vector<int64_t> firsts(size_t(l) + 1, 0), lasts(size_t(l) + 1, 0);
  for (int q = 0; q < l; ++q) {
    const LoopFacts &f = sf_.loops[q];
    firsts[size_t(q)] = int64_t(f.first);
    lasts[size_t(q)] = int64_t(f.first + std::max(f.trips - 1, 0.0) * double(f.signedStep()));
  }
  for (const auto *index : {&firsts, &lasts})
    if (LoopFacts at = sf_.loops[l]; at.moveTo(*index) && at.trips > lr.trips) {
      lr.trips = at.trips;
      lr.range = at.range;
      lr.first = at.first;
    }
  return lr;
}

void TermWalk::clearTerms(double messageSize) {
  for (DimResult &r : out.dims)
    r = DimResult{};
  out.localSize = messageSize;
  std::fill(out.localExtent.begin(), out.localExtent.end(), 1.0);
  out.partials = 1;
  out.tiles = 1;
  out.boundary = BoundaryFacts{};
}

bool TermWalk::copiesFilled() {
  // A home on every processor: every copy of the lhs forms its own sum.
  if (!lv_.arrays[rf_.ref.array].distributed())
    return false;
  double R = 1;
  int first = -1; // the first mesh dimension both are replicated along
  for (int d = 0; d < D_; ++d) {
    if (procsOf(d) <= 1)
      continue;
    const bool lhsCopies = base_[d].first.kind == SubRef::Replicated;
    if (lhsCopies != (base_[d].second.kind == SubRef::Replicated))
      return false;
    if (!lhsCopies && (!out.dims[d].terms.empty() || out.dims[d].boundary))
      return false; // partials that move along another dimension too
    if (lhsCopies) {
      R *= double(procsOf(d));
      first = first < 0 ? d : first;
    }
  }
  if (first < 0)
    return false;
  // W: over the type-1 loops in which the lhs varies, the iterations one
  // processor of the lhs runs over the region's.
  double W = 1;
  for (int l = 0; l < m_; ++l) {
    if (out.type2[l] || !variesIn(sf_.lhs, l))
      continue;
    LoopRange lr = widest(l);
    double its = lr.trips;
    for (int e = 0; e < D_; ++e)
      if (const SubRef &L = base_[e].first; spread(L) && L.loop == l)
        its = std::min(its, mlis(L, lr));
    W *= std::max(1.0, its);
  }
  clearTerms(W);
  CommTerm each = term(Primitive::Transfer, first,
                       "a replicated lhs's copies filled from its home copy: (R - 1) Transfer(W)");
  each.count = R - 1;
  each.senders = {first, 0, 0};
  out.dims[size_t(first)].terms.push_back(each);
  return true;
}

void TermWalk::partialsExchange() {
  if (!opts_.exactOwners || !sf_.hasLhs || !rf_.reductionOperand || !rf_.home)
    return;
  if (copiesFilled() || !lv_.arrays[rf_.ref.array].distributed())
    return;
  bool moves = std::any_of(out.dims.begin(), out.dims.end(), [](const DimResult &r) {
    return !r.terms.empty() || r.boundary;
  });
  if (!moves)
    return; // the partials stay where they are formed
  // D and C: per mesh dimension, the coordinates one side's sub-reference
  // reaches over the iterations one processor of the other side runs. R:
  // the copies of each lhs element along the dimensions the lhs is
  // replicated over, every one of which takes every partial.
  double D = 1, C = 1, R = 1;
  int homeFirst = -1; // the first dimension both are replicated along
  for (int d = 0; d < D_; ++d) {
    const SubRef &L = base_[d].first, &H = base_[d].second;
    if (procsOf(d) <= 1)
      continue;
    if (L.kind == SubRef::Unknown || H.kind == SubRef::Unknown)
      return; // Table 4.4's cases stay the thesis's
    if (L.kind == SubRef::Replicated) {
      R *= double(procsOf(d));
      C *= reach(H, true);
      if (H.kind == SubRef::Replicated && homeFirst < 0)
        homeFirst = d;
      continue;
    }
    if (H.kind == SubRef::Replicated)
      return;
    D *= reach(L, false);
    C *= reach(H, true);
  }
  if (D * R <= 1)
    return;
  // W: over the type-1 loops in which the lhs varies, the home's
  // iterations (all of them where the home does not vary).
  double W = 1;
  for (int l = 0; l < m_; ++l) {
    if (out.type2[l] || !variesIn(sf_.lhs, l))
      continue;
    W *= std::max(1.0, sideRange(false, l).trips);
  }
  clearTerms(W / D);
  // The Transfers a home sends, the Gather's one aside: DR - 2 of their
  // DR - 1 where it holds lhs elements of its own (Senders::share). A home
  // whose copies hold the lhs's copies sends to them too, all DR - 1, where
  // each element has that one home (C = 1: no Gather).
  const double to = D * R;
  if (homeFirst < 0 || C > 1)
    out.sourceShare = (to - 2) / (to - 1);
  // Along a dimension both are replicated over, the executor runs the
  // instances at the home's copy 0 alone (as copiesFilled): only it sends.
  // (Along a second such dimension the copies are still counted as
  // senders: Senders names one dimension's range.)
  Senders homes;
  if (homeFirst >= 0)
    homes = Senders(homeFirst, 0, 0);
  DimResult &r = out.dims[0];
  CommTerm gather = term(Primitive::Gather, 0,
                         "partial results to their D owners (R copies each) at once: Gather(W/D, C)",
                         int64_t(C));
  gather.senders = homes;
  r.terms.push_back(gather);
  CommTerm each = term(Primitive::Transfer, 0,
                       "partial results to their D owners (R copies each) at once: (DR - 1) Transfer(W/D)");
  each.count = to - 1;
  each.senders = homes;
  r.terms.push_back(each);
}

} // namespace dlayout::cost::detail
