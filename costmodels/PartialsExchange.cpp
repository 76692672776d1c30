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
// Where D R > 1 and the instances of one execution of the reduction's
// region can be enumerated (affine subscripts and bounds, at most 2^12
// instances, 2^12 processors, 2^40 elements of the lhs), the exchange is
// counted instead, as the executor runs it (partialsCounted; the loops
// inside the region are then not sampled, Communication.cpp, and those
// outside it are: at each sample, one count; olda's advice at its default
// size takes some 0.2 s more): each instance forms its partial result at
// its home operand's owner (along a dimension the home is replicated
// over, the copy beside the lhs's home); when the region ends each
// processor sends one message to each holder of an element it formed a
// partial for, every such element's partial in it. Once per execution
// of the region, not of the operand's placement: the partials of E(K) =
// E(K) + Z(K,J) * F over J and II, II the region, leave once, where the
// formula's placement repeated them at every II
// (tests/validate/programs/partials.F on 4 x 4 with E on every processor:
// 7,200 bytes from every processor estimated, 480 from the busiest now,
// as sent). The terms keep the formula's form,
//
//   Gather(W / S, C) + S Transfer(W / S),
//
// W the busiest home's partials over its S holders, C - 1 the most homes
// one holder takes partials from, the Transfers' share (S - 1) / S (the
// Gather's message one of the S), each processor's own partials its part
// (Senders::Joint over the mesh).
//
//===----------------------------------------------------------------------===//

#include "costmodels/ElementPlaces.h"
#include "costmodels/OuterSamples.h"
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

bool TermWalk::partialsCounted() {
  constexpr int64_t kMostInstances = 1 << 12, kMostProcessors = 1 << 12;
  const int region = sf_.reductionRegion;
  if (region < 0 || region >= m_ || lv_.procs > kMostProcessors)
    return false;
  const ArrayDist &lhsDist = lv_.arrays[sf_.lhs.array];
  // The mesh dimensions each side is spread over (the other side's
  // sub-references aside: replicated).
  for (int d = 0; d < D_; ++d)
    for (const SubRef *s : {&base_[d].first, &base_[d].second})
      if (s->kind != SubRef::Replicated && (!s->form || !s->dist || s->beta.opaque))
        return false;
  // The loops around the region at one index each: a sample's, or any
  // where nothing inside depends on it.
  std::vector<int64_t> index(size_t(m_), 0);
  for (int q = 0; q < region; ++q) {
    const LoopFacts &f = sf_.loops[size_t(q)];
    if (auto at = f.onlyIndex()) {
      index[size_t(q)] = *at;
      continue;
    }
    bool used = std::any_of(sf_.lhs.subs.begin(), sf_.lhs.subs.end(),
                            [&](const SubscriptForm &g) { return g.alphaAt(q) != 0; }) ||
                std::any_of(rf_.ref.subs.begin(), rf_.ref.subs.end(),
                            [&](const SubscriptForm &g) { return g.alphaAt(q) != 0; });
    for (int l = region; l < m_ && !used; ++l)
      used = sf_.loops[size_t(l)].boundsVaryWith(q);
    if (used)
      return false;
  }
  // Not walked where Fig. 3.2's trips already say there are too many.
  double expected = 1;
  for (int l = region; l < m_; ++l)
    expected *= std::max(sf_.loops[size_t(l)].trips, 1.0);
  if (expected > double(kMostInstances))
    return false;
  // Each instance of one execution of the region: the element it forms a
  // partial result for (its linear id in the lhs array), at the processor
  // that forms it (linear over the mesh, its first dimension fastest).
  constexpr int64_t kMostElements = int64_t(1) << 40, kMostVisits = 1 << 22;
  const std::vector<int64_t> &mesh = lv_.mesh;
  int64_t elements = 1;
  for (const DimDist &dd : lhsDist.dims) {
    if (double(elements) * double(dd.extent) > double(kMostElements))
      return false;
    elements *= dd.extent;
  }
  // Per partial formed: (processor * elements + element, its position),
  // and the element's coordinate along each mesh dimension (-1: every
  // one). Where processors times elements are few, each pair is kept once
  // as it is formed (most instances repeat one: the reduction's own loop);
  // else every instance's is, and the repeats dropped below.
  std::vector<std::pair<int64_t, size_t>> formed;
  std::vector<int64_t> lhsAtOf, lhsAt(static_cast<size_t>(D_), -1);
  constexpr int64_t kMostMarked = 1 << 16;
  std::vector<char> marked;
  if (double(lv_.procs) * double(elements) <= double(kMostMarked))
    marked.assign(size_t(lv_.procs * elements), 0);
  // The region's loops, the innermost a run of instances at a time: along a
  // run no owner changes (OwnerCursor) and the lhs element moves by a fixed
  // step.
  const int q = m_ - 1;
  const int64_t s = sf_.loops[size_t(q)].signedStep();
  const size_t K = sf_.lhs.subs.size();
  std::vector<int64_t> value(K), delta(K);
  int64_t lhsStep = 0;
  for (size_t k = 0, stride = 1; k < K; stride *= size_t(lhsDist.dims[k].extent), ++k) {
    delta[k] = sf_.lhs.subs[k].alphaAt(q) * s;
    lhsStep += delta[k] * int64_t(stride);
  }
  std::vector<std::optional<OwnerCursor>> lhsOwner(static_cast<size_t>(D_)),
      homeOwner(static_cast<size_t>(D_));
  // A subscript's owner along the row from this instance, or false.
  auto cursor = [&](const SubRef &sr, std::optional<OwnerCursor> &out) {
    auto v = valueAt(*sr.form, index);
    if (!v || !ownerCoordinate(*sr.dist, *v))
      return false;
    out.emplace(*sr.dist, *v, sr.form->alphaAt(q) * s);
    return true;
  };
  int64_t instances = 0;
  auto row = [&](int64_t left) {
    for (size_t k = 0; k < K; ++k) {
      auto v = valueAt(sf_.lhs.subs[k], index);
      if (!v)
        return false;
      value[k] = *v;
    }
    for (int d = 0; d < D_; ++d) {
      const SubRef &L = base_[size_t(d)].first, &H = base_[size_t(d)].second;
      lhsOwner[size_t(d)].reset(), homeOwner[size_t(d)].reset();
      if ((L.kind != SubRef::Replicated && !cursor(L, lhsOwner[size_t(d)])) ||
          (H.kind != SubRef::Replicated && !cursor(H, homeOwner[size_t(d)])))
        return false;
    }
    while (left > 0) {
      int64_t n = left, element = 0, stride = 1;
      for (size_t k = 0; k < K; ++k) {
        const DimDist &dd = lhsDist.dims[k];
        if (value[k] < dd.lower || value[k] >= dd.lower + dd.extent)
          return false;
        element += (value[k] - dd.lower) * stride;
        stride *= dd.extent;
        if (delta[k] != 0)
          n = std::min(n, instancesWithin(value[k], delta[k], dd.lower, dd.lower + dd.extent - 1));
      }
      int64_t at = 0, place = 1;
      for (int d = 0; d < D_; ++d) {
        const std::optional<OwnerCursor> &L = lhsOwner[size_t(d)], &H = homeOwner[size_t(d)];
        const int64_t c = L ? L->coordinate() : -1;
        // Along a dimension the home is replicated over, the copy beside the
        // lhs's home (its coordinate 0 where the lhs is replicated too).
        const int64_t h = H ? H->coordinate() : std::max<int64_t>(c, 0);
        if (h >= mesh[size_t(d)] || c >= mesh[size_t(d)])
          return false;
        at += h * place;
        lhsAt[size_t(d)] = c;
        place *= mesh[size_t(d)];
        n = std::min({n, L ? L->left() : n, H ? H->left() : n});
      }
      if ((instances += n) > kMostInstances)
        return false;
      for (int64_t u = 0; u < n; ++u) {
        const int64_t key = at * elements + element + u * lhsStep;
        if (!marked.empty()) {
          if (marked[size_t(key)])
            continue;
          marked[size_t(key)] = 1;
        }
        formed.emplace_back(key, formed.size());
        lhsAtOf.insert(lhsAtOf.end(), lhsAt.begin(), lhsAt.end());
      }
      left -= n;
      for (size_t k = 0; k < K; ++k)
        value[k] += n * delta[k];
      for (int d = 0; d < D_; ++d)
        for (std::optional<OwnerCursor> *o : {&lhsOwner[size_t(d)], &homeOwner[size_t(d)]})
          if (*o)
            (*o)->advance(n);
    }
    return true;
  };
  if (!forEachRow(sf_.loops, size_t(region), index, row))
    return false;
  std::sort(formed.begin(), formed.end());
  formed.erase(std::unique(formed.begin(), formed.end(),
                           [](const auto &a, const auto &b) { return a.first == b.first; }),
               formed.end());
  // What each processor sends: each element's partial to each of its
  // holders but itself, one message per holder.
  std::vector<double> words(size_t(lv_.procs), 0.0);
  std::vector<int64_t> messages(words.size(), 0), received(words.size(), 0), stamp(words.size(), -1);
  std::vector<int64_t> holders;
  int64_t visits = 0;
  for (const auto &[key, instance] : formed) {
    const int64_t p = key / elements;
    holders.assign(1, 0); // the element's holders: its coordinate along each dimension, or all
    int64_t place = 1;
    for (int d = 0; d < D_; ++d) {
      const int64_t c = lhsAtOf[instance * size_t(D_) + size_t(d)], n = mesh[size_t(d)];
      const size_t before = holders.size();
      if (c >= 0) {
        for (int64_t &id : holders)
          id += c * place;
      } else {
        for (int64_t k = 1; k < n; ++k)
          for (size_t i = 0; i < before; ++i)
            holders.push_back(holders[i] + k * place);
      }
      place *= n;
    }
    if ((visits += int64_t(holders.size())) > kMostVisits)
      return false;
    for (int64_t q : holders) {
      if (q == p)
        continue;
      words[size_t(p)] += 1;
      if (stamp[size_t(q)] != p) {
        stamp[size_t(q)] = p;
        ++messages[size_t(p)];
        ++received[size_t(q)];
      }
    }
  }
  const size_t busiest = size_t(std::max_element(words.begin(), words.end()) - words.begin());
  const double most = words[busiest];
  // The partials move once per execution of the region.
  for (int l = 0; l < m_; ++l)
    out.type2[size_t(l)] = l < region;
  if (most <= 0) { // every partial formed where it is kept
    clearTerms(1);
    return true;
  }
  // As the formula's terms below: each holder takes its partials one
  // message after another, a Gather from the most homes any holder has;
  // each home sends one message to each holder, S Transfers, S the
  // busiest home's holders, the Gather's message one of them (the
  // Transfers' share (S - 1) / S of the bytes).
  const double S = double(std::max<int64_t>(messages[busiest], 1));
  const int64_t C = *std::max_element(received.begin(), received.end()) + 1;
  clearTerms(most / S);
  for (double &w : words)
    w /= most;
  out.joint = Senders::Joint::overMesh(mesh, std::move(words));
  out.jointMost = 0;
  out.jointLoop = -1;
  out.dims[0].terms.push_back(term(
      Primitive::Gather, 0, "partial results to their holders when the region ends, counted: Gather(W/S, C)", C));
  CommTerm each = term(Primitive::Transfer, 0,
                       "partial results to their holders when the region ends, counted: S Transfer(W/S)");
  each.count = S;
  out.dims[0].terms.push_back(each);
  out.sourceShare = (S - 1) / S;
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
  if (D * R <= 1 || partialsCounted())
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
