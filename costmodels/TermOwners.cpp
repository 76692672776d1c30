//===- costmodels/TermOwners.cpp - Who holds what during the term walk ---===//
//
// Beyond the thesis (TermOptions::exactOwners): TermWalk's questions about
// owners -- which coordinate owns an element whose position is a number,
// which coordinates a sub-reference reaches over a loop, who runs a private
// scalar's statement, what share of a sampled loop's iterations keeps the
// same owner, and the parts each holder has of an operand. The section 4.4
// walk itself is CommTerms.cpp; the type-1 tables, CommTables.cpp.
//
//===----------------------------------------------------------------------===//

#include "costmodels/TermWalk.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <set>

namespace dlayout::cost::detail {

std::vector<double> TermWalk::partsOf(SubRef R) const {
  const LoopFacts &q = sf_.loops[size_t(R.loop)];
  // A type-2 loop runs its iterations one after another, each on the
  // owners of its index; at one iteration (a sample of a driving loop,
  // standing for `stands` of them) those owners are known: lu's
  // multipliers A(I,K) = A(I,K) / A(K,K), whose pivot leaves only from the
  // mesh column holding column K.
  const bool sampled = out.type2[size_t(R.loop)] && q.onlyIndex();
  if ((out.type2[size_t(R.loop)] && !sampled) || tiled_[size_t(R.loop)] >= 0 ||
      R.dist->procs > 4096)
    return {};
  R = fixedOuter(R);
  if (!R.beta.terms.empty() || R.beta.opaque)
    return {};
  LoopRange lr = rangeOf(sf_, R.loop);
  if (sampled) // the iterations the sample stands for
    lr = standsFor(q);
  auto per = iterationsOnEachProcessor(R.alpha, R.beta.constant, lr, *R.dist);
  if (!per)
    return {};
  // Sampled: each coordinate's share of the iterations the sample stands for.
  const double full =
      sampled ? double(q.stands) : double(*std::max_element(per->begin(), per->end()));
  if (full <= 0 || std::all_of(per->begin(), per->end(), [&](int64_t n) { return n == full; }))
    return {}; // a full message from every coordinate
  std::vector<double> parts(per->size());
  for (size_t c = 0; c < parts.size(); ++c)
    parts[c] = double((*per)[c]) / full;
  return parts;
}

void TermWalk::jointParts() {
  constexpr int64_t kMostIterations = 1 << 16, kMostCells = 1 << 12;
  if (!opts_.exactOwners)
    return;
  int l = -1;
  std::vector<int> dims;
  for (int d = 0; d < D_ && dims.size() < 2; ++d) {
    l = out.dims[size_t(d)].loop;
    dims.clear();
    for (int e = d; e < D_ && l >= 0; ++e)
      if (out.dims[size_t(e)].loop == l)
        dims.push_back(e);
  }
  if (dims.size() < 2 || std::all_of(out.dims.begin(), out.dims.end(), [](const DimResult &r) {
        return r.terms.empty() && !r.boundary;
      }))
    return; // no group, or nothing moves
  const LoopFacts &q = sf_.loops[size_t(l)];
  const bool sampled = out.type2[size_t(l)] && q.onlyIndex();
  if ((out.type2[size_t(l)] && !sampled) || tiled_[size_t(l)] >= 0)
    return;
  const LoopRange lr = sampled ? standsFor(q) : rangeOf(sf_, l);
  if (lr.trips < 1 || lr.trips > kMostIterations || lr.first != std::floor(lr.first))
    return;
  Senders::Joint joint;
  int64_t cells = 1;
  std::vector<SubRef> subs;
  for (int d : dims) {
    subs.push_back(fixedOuter(base_[size_t(d)].second));
    if (!subs.back().beta.terms.empty() || subs.back().beta.opaque)
      return;
    joint.dims.push_back(d);
    joint.extents.push_back(procsOf(d));
    cells *= procsOf(d);
    if (cells > kMostCells)
      return;
  }
  // Each iteration's element, on the combination of owners it names.
  std::vector<double> held(size_t(cells), 0.0);
  const int64_t step = int64_t(lr.step) * (lr.ascending ? 1 : -1);
  for (int64_t k = 0, j = int64_t(lr.first); k < int64_t(lr.trips); ++k, j += step) {
    size_t cell = 0, stride = 1;
    for (size_t n = 0; n < subs.size(); ++n) {
      auto c = ownerCoordinate(*subs[n].dist, subs[n].alpha * j + subs[n].beta.constant);
      if (!c || *c < 0 || *c >= joint.extents[n])
        return;
      cell += size_t(*c) * stride;
      stride *= size_t(joint.extents[n]);
    }
    held[cell] += 1;
  }
  const double most = *std::max_element(held.begin(), held.end());
  const double full = sampled ? double(q.stands) : most;
  out.jointMost = sampled ? 0 : most;
  out.jointLoop = l;
  if (full <= 0 || std::all_of(held.begin(), held.end(), [&](double h) { return h == full; }))
    return; // a full message from every combination
  for (double &h : held)
    h /= full;
  joint.byCoordinates = std::move(held);
  out.joint = std::make_shared<const Senders::Joint>(std::move(joint));
}

void TermWalk::selfServedParts() {
  // The lhs's owners alone run the statement and take the operand.
  if (!opts_.exactOwners || !sf_.hasLhs || sf_.hasHome || !sf_.alsoRunBy.empty() ||
      rf_.reductionOperand || rf_.toHome || rf_.everyProcessor)
    return;
  // Two mesh dimensions of N > 1 processors, every other of one.
  std::vector<int> dims;
  for (int d = 0; d < D_; ++d)
    if (procsOf(d) > 1)
      dims.push_back(d);
  if (dims.size() != 2 || procsOf(dims[0]) != procsOf(dims[1]))
    return;
  const auto [d, e] = std::pair(dims[0], dims[1]);
  // The operand's sub-reference along one is the lhs's along the other:
  // the same index, the same owner function.
  auto same = [](const SubRef &a, const SubRef &b) {
    return a.kind == SubRef::Single && b.kind == SubRef::Single && a.loop == b.loop &&
           a.alpha == b.alpha && a.beta.constant == b.beta.constant &&
           a.beta.terms.empty() && b.beta.terms.empty() && !a.beta.opaque && !b.beta.opaque &&
           a.dist->sameOwners(*b.dist);
  };
  if (!same(base_[size_t(d)].second, base_[size_t(e)].first) ||
      !same(base_[size_t(e)].second, base_[size_t(d)].first))
    return;
  const int64_t N = procsOf(d);
  Senders::Joint joint;
  joint.dims = {d, e};
  joint.extents = {N, N};
  joint.byCoordinates.assign(size_t(N * N), 1.0);
  for (int64_t c = 0; c < N; ++c)
    joint.byCoordinates[size_t(c * N + c)] = 0;
  out.selfServed = std::make_shared<const Senders::Joint>(std::move(joint));
}

void TermWalk::ownerTurns() {
  out.sourceShareIn.assign(size_t(m_), 1.0);
  out.rootTurns.assign(size_t(D_), {});
  if (!opts_.exactOwners)
    return;
  for (int l = 0; l < m_; ++l) {
    LoopRange lr = rangeOf(sf_, l);
    if (!out.type2[l] || lr.trips <= 0)
      continue;
    for (int d = 0; d < D_; ++d) {
      const SubRef &R = base_[d].second;
      if (spread(R) && R.loop == l)
        out.sourceShareIn[l] = std::min(out.sourceShareIn[l], mlis(R, lr) / lr.trips);
    }
  }
  for (int d = 0; d < D_; ++d) {
    SubRef L = base_[d].first;
    if (!spread(L) || L.loop < 0 || !out.type2[size_t(L.loop)])
      continue;
    const LoopFacts &q = sf_.loops[size_t(L.loop)];
    L = fixedOuter(L);
    if (!L.beta.terms.empty() || L.beta.opaque || L.dist->procs > 4096)
      continue;
    LoopRange lr = rangeOf(sf_, L.loop);
    if (q.onlyIndex()) // a sample of a driving loop: the iterations it stands for
      lr = standsFor(q);
    auto roots = iterationsOnEachProcessor(L.alpha, L.beta.constant, lr, *L.dist);
    if (!roots || lr.trips <= 0)
      continue;
    std::vector<double> sends(roots->size());
    for (size_t c = 0; c < sends.size(); ++c)
      sends[c] = 1 - double((*roots)[c]) / lr.trips;
    out.rootTurns[size_t(d)] = std::move(sends);
  }
}

std::optional<int64_t> TermWalk::numberOwner(const SubRef &s) const {
  if (!opts_.exactOwners || s.kind != SubRef::Constant || !s.dist || !s.dist->onMesh() ||
      !s.beta.terms.empty() || s.beta.opaque)
    return std::nullopt;
  return ownerCoordinate(*s.dist, s.beta.constant);
}

std::optional<SubRef> TermWalk::heldNumber(int d) const {
  bool everywhere = true; // the lhs: its copies relay what they receive
  for (int e = 0; e < D_; ++e)
    everywhere = everywhere && (procsOf(e) <= 1 || base_[size_t(e)].first.kind == SubRef::Replicated);
  if (everywhere)
    return std::nullopt;
  // A single index of a loop at one iteration (a sample) names one element.
  SubRef R = base_[size_t(d)].second;
  if (R.kind == SubRef::Single && R.loop >= 0)
    if (auto at = sf_.loops[size_t(R.loop)].onlyIndex()) {
      R.kind = SubRef::Constant;
      R.beta.constant += R.alpha * *at;
    }
  if (!numberOwner(fixedOuter(R)))
    return std::nullopt;
  return R;
}

std::optional<int64_t> TermWalk::holderAlong(int d) const {
  auto R = heldNumber(d);
  auto o = R ? numberOwner(fixedOuter(*R)) : std::nullopt;
  if (o && sampleShare(*R, *o) == 1)
    return o;
  return std::nullopt;
}

std::vector<double> TermWalk::holderShares(int d) const {
  auto R = heldNumber(d);
  if (!R)
    return {};
  std::vector<double> shares(size_t(procsOf(d)));
  double sum = 0;
  for (int64_t c = 0; c < procsOf(d); ++c)
    sum += shares[size_t(c)] = sampleShare(*R, c);
  // Not counted (sampleShare says 1 to every coordinate), or one holder
  // for all of them (holderAlong).
  if (std::abs(sum - 1) > 1e-9 || std::find(shares.begin(), shares.end(), 1.0) != shares.end())
    return {};
  return shares;
}

double TermWalk::sampleShare(const SubRef &s, int64_t owner) const {
  constexpr int64_t kMostCounted = 1 << 12;
  if (!s.form || !s.dist)
    return 1;
  int pos = -1;
  int64_t alpha = 0;
  for (const auto &[p, a] : s.form->terms)
    if (sf_.loops[size_t(p)].stands > 1 && out.type2[size_t(p)]) {
      if (pos >= 0)
        return 1; // two sampled loops: not counted
      pos = p;
      alpha = a;
    }
  if (pos < 0)
    return 1;
  const LoopFacts &q = sf_.loops[size_t(pos)];
  if (q.stands > kMostCounted)
    return 1;
  const int64_t step = q.signedStep();
  const int64_t at = int64_t(q.first); // the sample, folded into s's number
  int64_t owned = 0;
  for (int64_t k = 0; k < q.stands; ++k) {
    auto c = ownerCoordinate(*s.dist, s.beta.constant + alpha * (q.standsFrom + k * step - at));
    owned += c && *c == owner;
  }
  return double(owned) / double(q.stands);
}

std::optional<std::pair<int64_t, int64_t>> TermWalk::blockOwners(const SubRef &s,
                                                                 const LoopRange &lr) {
  if (!s.dist || !s.dist->blocked() || !s.beta.terms.empty() || s.beta.opaque ||
      lr.trips < 1 || lr.first != std::floor(lr.first))
    return std::nullopt;
  double last = lr.first + double(lr.step) * (lr.trips - 1) * (lr.ascending ? 1 : -1);
  auto o1 = ownerCoordinate(*s.dist, s.alpha * int64_t(lr.first) + s.beta.constant);
  auto o2 = ownerCoordinate(*s.dist, s.alpha * int64_t(last) + s.beta.constant);
  if (!o1 || !o2)
    return std::nullopt;
  return std::pair<int64_t, int64_t>{std::min(*o1, *o2), std::max(*o1, *o2)};
}

std::optional<std::pair<int64_t, int64_t>> TermWalk::ownersOver(const SubRef &s,
                                                                const LoopRange &lr) const {
  if (s.kind != SubRef::Single || !s.dist || !s.dist->onMesh() || !s.beta.terms.empty() ||
      s.beta.opaque || lr.trips < 1 || lr.first != std::floor(lr.first))
    return std::nullopt;
  if (les(s, lr) >= double(s.dist->procs))
    return std::pair<int64_t, int64_t>{0, s.dist->procs - 1};
  return blockOwners(s, lr);
}

SubRef TermWalk::fixedOuter(SubRef s) const {
  if (!opts_.exactOwners || s.beta.terms.overflow())
    return s;
  LoopTerms kept;
  for (const auto &[p, a] : s.beta.terms) {
    const LoopFacts &q = sf_.loops[size_t(p)];
    if (auto at = q.onlyIndex())
      s.beta.constant += a * *at;
    else
      kept.push_back({p, a});
  }
  s.beta.terms = kept;
  return s;
}

std::vector<int64_t> TermWalk::runnersOwners(int d) const {
  if (!opts_.exactOwners || sf_.alsoRunBy.empty())
    return {};
  const SubRef &own = base_[d].first;
  std::set<int64_t> owners;
  bool differ = false;
  auto add = [&](const SubRef &s) {
    if (s.kind == SubRef::Replicated) {
      for (int64_t c = 0; c < procsOf(d); ++c)
        owners.insert(c);
      return true;
    }
    auto o = numberOwner(fixedOuter(s));
    if (o)
      owners.insert(*o);
    return o.has_value();
  };
  if (!add(own))
    return {};
  for (const RefFacts &also : sf_.alsoRunBy) {
    SubRef s = baseSub(&also, &lv_.arrays[also.array], d, true, opts_.exactOwners);
    differ = differ || !identical(own, s);
    if (!add(s))
      return {}; // owners unknown: the stand-in's (the thesis's)
  }
  if (!differ)
    return {};
  return {owners.begin(), owners.end()};
}

bool TermWalk::outsideCopies(int d, int64_t root) const {
  const auto &r = runners_[size_t(d)];
  return !r.empty() && !std::binary_search(r.begin(), r.end(), root);
}

bool TermWalk::synchronous(const SubRef &L, const SubRef &R) const {
  return strictlySynchronous(L, R) || (opts_.exactOwners && wholeRoundsApart(L, R));
}

bool TermWalk::stillBesides(int d) const {
  for (int e = 0; e < D_; ++e) {
    const auto &[L, R] = base_[e];
    if (e != d && procsOf(e) > 1 && R.kind != SubRef::Replicated && !identical(L, R) &&
        !(L.kind == SubRef::Replicated && holderAlong(e)))
      return false;
  }
  return true;
}

} // namespace dlayout::cost::detail
