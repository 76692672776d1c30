//===- costmodels/CommTables.cpp - Type-1 loops: Tables 4.2-4.4 -----------===//
//
// The terms of the pairs that vary in a type-1 loop (thesis section 4.4.3):
// one pair (Table 4.2), several pairs (Table 4.3, generalised by the
// faster-varying sub-references), unknown subscripts and replication
// (Table 4.4), and the speed-ratio fallback (Eq. 4.3).
//
//===----------------------------------------------------------------------===//

#include "costmodels/ElementPlaces.h"
#include "costmodels/TermWalk.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>

namespace dlayout::cost::detail {

namespace {

/// DimResult::shiftParts: each coordinate's elements over the edge's bd;
/// empty where every sender sends a whole edge.
std::vector<double> edgeParts(const std::vector<double> &sent, double bd) {
  if (bd <= 0 || std::all_of(sent.begin(), sent.end(), [&](double e) { return e >= bd; }))
    return {};
  std::vector<double> parts(sent.size());
  for (size_t c = 0; c < sent.size(); ++c)
    parts[c] = std::min(sent[c] / bd, 1.0);
  return parts;
}

/// Beyond shiftSenders' neighbours of the receiving blocks (exactOwners):
/// the coordinates that send something where the crossings were counted
/// (Crossings::sent, by sender). A loop whose range ends inside a block
/// leaves the block past it nothing to send: jacobi_vla's a[i+1][j] over
/// rows 1..30 of 100 in blocks of 25 reaches block 1's own rows alone, and
/// block 1 sends to block 0 without receiving from block 2, one Transfer,
/// not a Shift's two.
Senders sendingOnly(Senders s, const std::vector<double> &sent) {
  if (s.meshDim < 0 || s.first > s.last)
    return s;
  int64_t lo = s.last + 1, hi = s.first - 1;
  for (int64_t c = s.first; c <= s.last && c < int64_t(sent.size()); ++c)
    if (sent[size_t(c)] > 0) {
      lo = std::min(lo, c);
      hi = std::max(hi, c);
    }
  s.first = lo <= hi ? lo : 0;
  s.last = lo <= hi ? hi : -1;
  return s;
}

} // namespace

/// Returns a loop to freeze, or -1.
int TermWalk::type1Loop(const std::vector<int> &pairs, int l) {
  LoopRange lr = rangeOf(sf_, l);
  std::vector<TileRequest> tiles;
  std::vector<int> group;
  auto &at = at_;
  for (int d : pairs) {
    SubRef L = atLoop(base_[d].first, l, d, true, &tiles);
    SubRef R = atLoop(base_[d].second, l, d, true, &tiles);
    at[d] = {L, R};
    if (L.kind == SubRef::Unknown || R.kind == SubRef::Unknown ||
        L.kind == SubRef::Replicated || R.kind == SubRef::Replicated) {
      table44(d, L, R, lr);
      continue;
    }
    if (!regular(L, lr) || !regular(R, lr)) {
      // Fig. 5.11: no regularity detected, repeated Transfers in the loop.
      CommTerm t = chance(d,
                          "irregular cyclic traversal: n * (1 - 1/N) "
                          "Transfer(1)",
                          procsOf(d));
      t.count = lr.trips;
      out.dims[d].terms.push_back(t);
      continue;
    }
    if (L.kind == SubRef::Single || R.kind == SubRef::Single)
      group.push_back(d);
  }
  if (group.size() == 1)
    table42(group[0], l, at[group[0]].first, at[group[0]].second, lr);
  else if (group.size() > 1)
    table43(group, at, l, lr);
  return applyTiling(tiles);
}

/// Table 4.4: collective communication when a subscript is unknown (and
/// the replicated cases).
void TermWalk::table44(int d, const SubRef &L, const SubRef &R,
                       const LoopRange &lr) {
  DimResult &dim = out.dims[d];
  int64_t N = procsOf(d);
  double n = R.dist ? double(R.dist->extent) : 1;
  double share = std::ceil(n / double(N));
  if (R.kind == SubRef::Replicated)
    return;
  if (L.kind == SubRef::Replicated) {
    N = copiesOf(d); // the copies the operand reaches
    if (R.kind == SubRef::Single) {
      dim.size = mlis(R, lr);
      int64_t holders = int64_t(les(R, lr));
      if (auto perLine = opts_.exactOwners ? holdersPerLine(d, R, lr) : std::nullopt)
        holders = *perLine;
      // One processor holds the whole range (a block as wide as the
      // extent): it sends it to every other copy of the lhs.
      if (holders <= 1) {
        dim.terms.push_back(term(Primitive::OneToManyMulticast, d,
                                 "replicated lhs, one holder: OneToManyMulticast(mlis, N)", N));
        if (auto owners = ownersOver(R, lr); opts_.exactOwners && owners &&
                                             owners->first == owners->second) {
          dim.terms.back().senders = {d, owners->first, owners->first};
          dim.terms.back().group += outsideCopies(d, owners->first);
        }
      } else if (holders < N && opts_.exactOwners) {
        // Beyond the thesis, whose ManyToManyMulticast among the les holders
        // leaves the other N - les copies without the data: each holder
        // multicasts its part to every copy, as the executor does -- one of
        // the les multicasts each.
        CommTerm t = term(Primitive::OneToManyMulticast, d,
                          "replicated lhs, les < N holders: les * OneToManyMulticast(mlis, N)", N,
                          double(holders));
        if (auto owners = ownersOver(R, lr))
          t.senders = {d, owners->first, owners->second};
        t.share = 1 / double(holders);
        dim.terms.push_back(t);
      } else
        dim.terms.push_back(term(Primitive::ManyToManyMulticast, d,
                                 "replicated lhs: ManyToManyMulticast(mlis, les)", holders));
    } else if (R.kind == SubRef::Unknown) {
      dim.size = share;
      dim.terms.push_back(term(Primitive::ManyToManyMulticast, d,
                               "replicated lhs, unknown rhs", N));
    } else {
      dim.terms.push_back(term(Primitive::OneToManyMulticast, d,
                               "replicated lhs, constant rhs", N));
    }
    // Beyond the thesis: the holders along the other dimensions exchange
    // their parts first, as the executor does (CommTerm::afterExchange).
    if (CommTerm &t = dim.terms.back(); t.prim == Primitive::OneToManyMulticast)
      t.afterExchange = opts_.exactOwners;
    dim.terms.back().fill = true;
    // Each holder sends the part it holds (exactOwners).
    if (R.kind == SubRef::Single && R.loop >= 0 && opts_.exactOwners)
      dim.terms.back().ownParts = partsOf(R);
    return;
  }
  bool lConst = L.kind == SubRef::Constant || L.kind == SubRef::Missing;
  bool rConst = R.kind == SubRef::Constant || R.kind == SubRef::Missing;
  if (L.kind == SubRef::Unknown && rConst) {
    dim.terms.push_back(term(Primitive::OneToManyMulticast, d,
                             "Table 4.4: unknown / constant", N));
  } else if (lConst && R.kind == SubRef::Unknown) {
    dim.size = share;
    dim.terms.push_back(
        term(Primitive::Gather, d, "Table 4.4: constant / unknown", N));
  } else {
    dim.size = share;
    dim.terms.push_back(term(Primitive::ManyToManyMulticast, d,
                             "Table 4.4: ManyToManyMulticast(ceil(n/N), N)",
                             N));
  }
}

std::optional<int64_t> TermWalk::holdersPerLine(int d, const SubRef &R, const LoopRange &lr) const {
  constexpr int64_t kMostWalked = 1 << 16;
  if (R.kind != SubRef::Single || R.loop < 0 || !R.dist || !ownerCoordinate(*R.dist, 0) ||
      !R.beta.terms.empty() || R.beta.opaque || lr.first != std::floor(lr.first) ||
      std::fabs(lr.first) > 0x1p62 || lr.trips != std::floor(lr.trips) || lr.trips < 1 ||
      lr.trips > double(kMostWalked))
    return std::nullopt;
  // The lhs's sub-references on the other mesh dimensions that vary in R's
  // loop alone, and where along them they are.
  std::vector<std::pair<const SubRef *, int64_t>> lines; // (sub-reference, alpha)
  for (int e = 0; e < D_; ++e) {
    const SubRef &L = base_[size_t(e)].first;
    if (e == d || procsOf(e) <= 1 || L.kind != SubRef::Single || !L.form || !L.dist ||
        !ownerCoordinate(*L.dist, 0))
      continue;
    const SubscriptForm &f = *L.form;
    if (f.terms.size() == 1 && f.terms[0].first == R.loop)
      lines.push_back({&L, f.terms[0].second});
  }
  if (lines.empty())
    return std::nullopt;
  // Each sub-reference's value alpha * j + beta along the loop, j its
  // first and last index (a value overflowing 64 bits at some j does at
  // one of them), and its owner followed run by run (OwnerCursor).
  const int64_t step = lr.ascending ? lr.step : -lr.step, trips = int64_t(lr.trips);
  int64_t last;
  if (__builtin_mul_overflow(step, trips - 1, &last) ||
      __builtin_add_overflow(last, int64_t(lr.first), &last))
    return std::nullopt;
  // The owners' pattern repeats every lcm of their periods in iterations
  // (Eq. 2.1's owner of v repeats every b N values of v; v moves by
  // alpha * step an iteration): no pair is new past it.
  int64_t walked = 1;
  std::vector<std::pair<int64_t, OwnerCursor>> cursors; // (its mesh dimension's processors, owner)
  auto follow = [&](const DimDist &dd, int64_t alpha, int64_t beta) {
    int64_t v0, v1, d;
    if (__builtin_mul_overflow(alpha, int64_t(lr.first), &v0) ||
        __builtin_add_overflow(v0, beta, &v0) || __builtin_mul_overflow(alpha, last, &v1) ||
        __builtin_add_overflow(v1, beta, &v1) || __builtin_mul_overflow(alpha, step, &d))
      return false;
    // b N / gcd(d, b N) iterations (gcd(d mod b N, b N), the same, where d
    // is too large for gcd); one owner where b N divides d.
    int64_t period;
    if (__builtin_mul_overflow(dd.block, std::max<int64_t>(dd.procs, 1), &period))
      period = trips;
    else
      period /= std::gcd(d % period, period);
    walked = std::min(trips, std::lcm(walked, std::min(period, trips)));
    cursors.push_back({std::max(procsOf(dd.meshDim), std::max<int64_t>(dd.procs, 1)),
                       OwnerCursor(dd, v0, d)});
    return true;
  };
  for (const auto &[L, alpha] : lines)
    if (!follow(*L->dist, alpha, L->form->constant))
      return std::nullopt;
  if (!follow(*R.dist, R.alpha, R.beta.constant))
    return std::nullopt;
  // Each (line, coordinate along d) as one key, line * along + coordinate,
  // a run's where it is not the run before's; then each once, in order.
  const int64_t along = cursors.back().first;
  std::vector<int64_t> held;
  for (int64_t t = 0; t < walked;) {
    int64_t key = 0, n = walked - t;
    for (auto &c : cursors)
      key = key * c.first + c.second.coordinate();
    if (held.empty() || held.back() != key)
      held.push_back(key);
    for (auto &c : cursors)
      n = std::min(n, c.second.left());
    for (auto &c : cursors)
      c.second.advance(n);
    t += n;
  }
  std::sort(held.begin(), held.end());
  held.erase(std::unique(held.begin(), held.end()), held.end());
  // Per line, the coordinates that hold some of what it needs.
  int64_t most = 0, run = 0;
  for (size_t i = 0; i < held.size(); ++i) {
    run = i > 0 && held[i - 1] / along == held[i] / along ? run + 1 : 1;
    most = std::max(most, run);
  }
  return most;
}

/// Who sends a boundary Shift along mesh dimension d (Senders): over blocks
/// that do not wrap round, the neighbours (towards -direction) of the
/// blocks holding the lhs elements of the loop's range, where L's subscript
/// is known there; otherwise every processor.
Senders TermWalk::shiftSenders(int d, const SubRef &L, const SubRef &R, const LoopRange &lr,
                               int direction) const {
  if (!R.dist || !R.dist->blocked() || !L.dist || L.dist->meshDim != R.dist->meshDim ||
      L.dist->procs != R.dist->procs)
    return {};
  auto owners = blockOwners(L, lr);
  if (!owners)
    return {};
  const auto [lo, hi] = *owners;
  const int64_t N = procsOf(d);
  // direction +1: each block receives from the one below it.
  Senders s{d, direction > 0 ? std::max<int64_t>(lo, 1) - 1 : lo + 1,
            direction > 0 ? hi - 1 : std::min(hi, N - 2) + 1};
  return s.first <= s.last ? s : Senders{d, 0, -1};
}

bool TermWalk::variesOffMesh(int l) const {
  const ArrayDist &ad = lv_.arrays[rf_.ref.array];
  for (size_t k = 0; k < rf_.ref.subs.size(); ++k)
    if (std::find(ad.dimOnMesh.begin(), ad.dimOnMesh.end(), int(k)) == ad.dimOnMesh.end() &&
        rf_.ref.subs[k].alphaAt(l) != 0)
      return true;
  return false;
}

std::vector<LoopRange> TermWalk::sourceParts(int l, const LoopRange &lr) const {
  auto source = opts_.exactOwners && rf_.splitLoop == l && lr.step > 0
                    ? oneWritingIteration(sf_, rf_.ref, l) // at this sample's outer indices
                    : std::nullopt;
  if (!source)
    return {lr};
  const double step = double(lr.step);
  const double before = (lr.ascending ? *source - lr.first : lr.first - *source) / step;
  if (before < 0 || before != std::floor(before) || before + 1 >= lr.trips)
    return {lr}; // no iteration of the loop, or its last: one part
  LoopRange upTo = lr, after = lr;
  upTo.trips = before + 1;
  upTo.range = upTo.trips * step;
  after.trips = lr.trips - upTo.trips;
  after.range = after.trips * step;
  after.first = lr.first + (lr.ascending ? 1 : -1) * upTo.trips * step;
  return {upTo, after};
}

/// Table 4.2: one pair varying in the type-1 loop.
void TermWalk::table42(int d, int l, const SubRef &L, const SubRef &R,
                       const LoopRange &lr) {
  DimResult &dim = out.dims[d];
  int64_t N = procsOf(d);
  if (L.kind == SubRef::Single && R.kind != SubRef::Single) {
    // Beyond the thesis (exactOwners): where the operand varies in l in a
    // dimension on no mesh dimension, each owner of the lhs needs its own
    // iterations' elements, not the root's one: a Scatter of mlis of them
    // to each (fig5_2's A(I,J) = B(J,3*I), rows of both blocked: row J's
    // owner sends each processor the B(J,3*I) of its rows I). The thesis's
    // multicast carried one element.
    const bool scatter = opts_.exactOwners && variesOffMesh(l);
    if (scatter)
      dim.size = mlis(L, lr);
    // Beyond the thesis (exactOwners): a loop split at its source iteration
    // (section 3.3.1) multicasts before each part to that part's owners
    // (none where they are the root alone).
    const std::vector<LoopRange> parts = scatter ? std::vector{lr} : sourceParts(l, lr);
    for (const LoopRange &part : parts) {
      CommTerm t = term(scatter ? Primitive::Scatter : Primitive::OneToManyMulticast, d,
                        scatter ? "Table 4.2: single / constant, the operand varying off the mesh"
                                : "Table 4.2: single / constant",
                        int64_t(les(L, part)));
      // Beyond the thesis (exactOwners): where the element's owner is known
      // it is the root, and a member too where the lhs's owners over the
      // loop do not include it (lu's column k to the owners of columns > k).
      // So too where the operand is tiled over another loop (section 4.4.3,
      // dflux's DIS2(I,J) to FS(I,J,N)'s planes, a column at a time): each
      // tile's root is its elements' owner, and one outside the lhs's owners
      // sends to every member.
      // The lhs's owners over the loop; where unknown, no root lies beyond.
      const auto [first, last] =
          (L.dist ? ownersOver(L, part) : std::nullopt)
              .value_or(std::pair{std::numeric_limits<int64_t>::min(),
                                  std::numeric_limits<int64_t>::max()});
      const SubRef &B = base_[d].second;
      if (auto o = numberOwner(R); o && L.dist && L.dist->meshDim == R.dist->meshDim) {
        t.senders = {d, *o, *o};
        t.share = sampleShare(R, *o);
        if (*o < first || *o > last)
          t.group += 1;
      } else if (opts_.exactOwners && L.dist && spread(B) && B.loop != l &&
                 B.dist->meshDim == L.dist->meshDim) {
        if (auto roots = ownersOver(B, rangeOf(sf_, B.loop));
            roots && (roots->first < first || roots->second > last))
          t.group += 1;
      }
      if (parts.size() == 1 || t.group > 1)
        dim.terms.push_back(t);
    }
    return;
  }
  if (L.kind != SubRef::Single && R.kind == SubRef::Single) {
    if (reductionOperand(l)) {
      dim.terms.push_back(term(Primitive::Reduction, d,
                               "Table 4.2: constant / single, reduction",
                               reductionGroup(d, les(R, lr))));
    } else {
      dim.size = mlis(R, lr);
      CommTerm t = term(Primitive::Gather, d, "Table 4.2: constant / single", int64_t(les(R, lr)));
      if (auto members = opts_.exactOwners ? ownersOver(R, lr) : std::nullopt)
        t.senders = {d, members->first, members->second};
      dim.terms.push_back(t);
    }
    return;
  }
  double mR = mlis(R, lr);
  dim.size = mR;
  if (synchronous(L, R)) // 1: IDM(mlis)
    return;
  auto k = kSynchronous(L, R);
  if (k && k->one()) { // 2: (N > 1) Transfer(mlis)
    // Not strictly synchronous, so each processor's data lies l != 0 blocks
    // away. On one mesh dimension every processor then sends to the one l
    // blocks before it and receives from the one l blocks after it (all of
    // them when the distribution wraps round, all but the ends when N > 2):
    // the pattern Table 6.1 costs as Shift = 2 Transfers. The thesis prints
    // Transfer here, which made a cyclic neighbour exchange of the whole
    // local data cheaper than the blocked Shift of one boundary (jacobi), the
    // opposite of its measurements (Table 6.3); dlayout keeps the costs
    // consistent. Across mesh dimensions it stays one Transfer.
    bool sameDim = L.dist->meshDim == R.dist->meshDim;
    bool shift = sameDim && (!R.dist->blocked() || N > 2);
    CommTerm t = shift ? term(Primitive::Shift, d,
                              "Table 4.2 (2): 1-synchronous, a Shift of the local data "
                              "(Table 6.1)",
                              1, indicator(N))
                       : term(Primitive::Transfer, d, "Table 4.2 (2): 1-synchronous", 1,
                              indicator(N));
    if (shift) { // as a boundary's (case 3), sent by the same blocks
      t.direction = shiftDirection(L, R);
      if (opts_.exactOwners) {
        t.senders = shiftSenders(d, L, R, lr, t.direction);
        // Each sends the elements it holds: a range that does not fill the
        // last round of a cyclic distribution leaves some a block short.
        if (R.loop >= 0)
          t.ownParts = partsOf(R);
      }
    }
    dim.terms.push_back(t);
    return;
  }
  if (boundaryCommunication(L, R)) { // 3: (N > 1) Shift(bd) + IDM(mlis - bd)
    // Eq. 4.4, or the boundaries the owners really cross (TermOptions).
    std::optional<Crossings> exact;
    if (opts_.exactOwners)
      exact = boundaryDataExact(L, R, lr);
    double bd = std::min(exact ? exact->elements : boundaryData(L, R, lr), mR);
    dim.boundary = true;
    dim.shift = bd;
    dim.shiftDirection = shiftDirection(L, R);
    dim.shiftSenders = shiftSenders(d, L, R, lr, dim.shiftDirection);
    if (exact) {
      dim.shiftParts = edgeParts(exact->sent, bd);
      dim.shiftSenders = sendingOnly(dim.shiftSenders, exact->sent);
    }
    CommTerm t = term(Primitive::Shift, d,
                      "Table 4.2 (3): boundary communication", 1, indicator(N));
    dim.terms.push_back(t);
    return;
  }
  if (k) { // 4, 5
    scatterOrGather(d, *k, L, R, lr, indicator(N), indicator(N),
                    "Table 4.2 (4): k-synchronous, k > 1",
                    "Table 4.2 (5): k-synchronous, k < 1");
    return;
  }
  if (opts_.exactOwners) // beyond the thesis: a neighbour's few elements
    if (auto nb = neighbourDataExact(L, R, lr)) {
      if (nb->elements == 0) // nothing crosses over this range
        return;
      dim.boundary = true;
      dim.shift = std::min(nb->elements, mR);
      dim.shiftDirection = nb->direction;
      dim.shiftSenders = sendingOnly(shiftSenders(d, L, R, lr, dim.shiftDirection), nb->sent);
      dim.shiftParts = edgeParts(nb->sent, dim.shift);
      dim.terms.push_back(term(Primitive::Shift, d,
                               "exact owners: only the next (or only the previous) "
                               "processor's elements cross",
                               1, indicator(N)));
      return;
    }
  // Beyond the thesis: each processor's elements, wherever they go -- where
  // the reference moves along d alone (stillBesides; elsewhere the elements
  // staying on d still travel along the other mesh dimensions).
  //
  // Where the lhs is also replicated along another dimension e and filled
  // from the one holder of the operand's element there (fig4_5's
  // D(I) = A(I,N), D(0:N) by rows replicated over the mesh columns, A by
  // rows and columns): that holder sends each element to every copy of its
  // lhs, the multicast along e (constantPair) carrying all it holds and
  // this exchange, from the same holder (DimResult::holder), the elements
  // that cross d.
  if (opts_.exactOwners && stillBesides(d))
    if (auto x = exchangeDataExact(L, R, lr)) {
      if (x->elements == 0) // nothing crosses over this range
        return;
      // Every processor sends its elements to each of the (at most) peers
      // owners that need them, all at once: peers Shifts of an even share.
      const double each = x->elements / double(x->peers);
      CommTerm t = term(Primitive::Shift, d,
                        "exact owners: each processor's elements to their owners", 1,
                        indicator(N));
      if (mR > 0) // dim.size stays mR, what the multicast along e carries
        t.sizeShare = each / mR;
      else
        dim.size = each;
      t.count = double(x->peers);
      t.ownParts = edgeParts(x->sent, x->elements);
      dim.terms.push_back(t);
      return;
    }
  speedRatioTerm(d, L, R, lr, indicator(N), indicator(N));
}

/// D-Scatter(mlis/k, k) for k > 1, (N > 1) Transfer(mlis) for k = 1,
/// D-Gather(mlis, 1/k) for k < 1; the size lands on dimension d.
void TermWalk::scatterOrGather(int d, const SyncRatio &k, const SubRef &fvL,
                               const SubRef &fvR, const LoopRange &lr,
                               double scatterIndicator, double gatherIndicator,
                               const char *ruleScatter, const char *ruleGather,
                               double contention) {
  DimResult &dim = out.dims[d];
  double mR = mlis(fvR, lr);
  if (k.greater()) {
    int64_t p =
        std::min<int64_t>(k.num, std::max<int64_t>(1, int64_t(les(fvL, lr))));
    dim.size = std::ceil(mR / double(p));
    dim.terms.push_back(term(Primitive::DScatter, d, ruleScatter, p,
                             scatterIndicator * contention));
  } else if (k.one()) {
    dim.size = mR;
    dim.terms.push_back(term(Primitive::Transfer, d, ruleScatter, 1,
                             gatherIndicator * contention));
  } else {
    int64_t q =
        std::min<int64_t>(k.den, std::max<int64_t>(1, int64_t(les(fvR, lr))));
    dim.size = mR;
    dim.terms.push_back(term(Primitive::DGather, d, ruleGather, q,
                             gatherIndicator * contention));
  }
}

/// None of the tests holds: the speed-ratio (Eq. 4.3) picks D-Scatter or
/// D-Gather, doubled for the contention of overlapping groups.
void TermWalk::speedRatioTerm(int d, const SubRef &L, const SubRef &R,
                              const LoopRange &lr, double scatterInd,
                              double gatherInd) {
  double r = speedRatio(L, R);
  SyncRatio k;
  if (r > 1 + 1e-9)
    k = {int64_t(std::ceil(r - 1e-9)), 1};
  else if (r < 1 - 1e-9)
    k = {1, int64_t(std::ceil(1 / r - 1e-9))};
  scatterOrGather(d, k, L, R, lr, scatterInd, gatherInd,
                  "speed-ratio (Eq. 4.3), x2 for overlapping groups",
                  "speed-ratio (Eq. 4.3), x2 for overlapping groups", 2);
}

/// Table 4.3, generalised: the faster-varying lhs sub-reference against
/// the faster-varying rhs one.
void TermWalk::table43(const std::vector<int> &pairs,
                       const std::vector<std::pair<SubRef, SubRef>> &at,
                       int l, const LoopRange &lr) {
  int fvL = -1, fvR = -1;
  for (int d : pairs) {
    const auto &[L, R] = at[d];
    if (L.kind == SubRef::Single &&
        (fvL < 0 || speed(L) > speed(at[fvL].first)))
      fvL = d;
    if (R.kind == SubRef::Single &&
        (fvR < 0 || speed(R) > speed(at[fvR].second)))
      fvR = d;
  }
  if (fvR < 0) { // row 4: every rhs sub-reference constant
    for (int d : pairs) {
      if (d == fvL)
        out.dims[d].terms.push_back(
            term(Primitive::OneToManyMulticast, d,
                 "Table 4.3 (row 4): OneToManyMulticast(1, les(fv))",
                 int64_t(les(at[d].first, lr))));
      else
        out.dims[d].terms.push_back(chance(
            d, "Table 4.3 (row 4): (1 - 1/N_s) Transfer(1)", procsOf(d)));
    }
    return;
  }
  if (fvL < 0) { // row 6: every lhs sub-reference constant
    const SubRef &R = at[fvR].second;
    for (int d : pairs) {
      if (d != fvR) {
        out.dims[d].terms.push_back(
            chance(d, "Table 4.3 (row 6): (1 - 1/N_s) Transfer", procsOf(d)));
        continue;
      }
      if (reductionOperand(l)) {
        out.dims[d].terms.push_back(term(
            Primitive::Reduction, d, "Table 4.3 (row 6): Reduction(1, les(fv))",
            reductionGroup(d, les(R, lr))));
      } else {
        out.dims[d].size = mlis(R, lr);
        out.dims[d].terms.push_back(
            term(Primitive::DGather, d,
                 "Table 4.3 (row 6): D-Gather(mlis(fv), les(fv))",
                 int64_t(les(R, lr)), indicator(procsOf(d))));
      }
    }
    return;
  }
  const SubRef &L = at[fvL].first, &R = at[fvR].second;
  bool allStrict = true, allSync = true;
  for (int d : pairs) {
    const auto &[Ld, Rd] = at[d];
    if (!(Ld.kind == SubRef::Single && Rd.kind == SubRef::Single &&
          synchronous(Ld, Rd)))
      allStrict = false;
    // The unnumbered conditions: the processors split into disjoint
    // groups when every sub-reference moves in step with the faster one.
    if (Ld.kind == SubRef::Single && d != fvL && !kSynchronous(L, Ld) &&
        !kSynchronous(Ld, L))
      allSync = false;
    if (Rd.kind == SubRef::Single && d != fvR && !kSynchronous(R, Rd) &&
        !kSynchronous(Rd, R))
      allSync = false;
  }
  if (allStrict) { // IDM(mlis(fv(s2, s4)))
    out.dims[fvR].size = mlis(R, lr);
    return;
  }
  auto k = kSynchronous(L, R);
  double Nf = indicator(procsOf(fvR)), Nl = indicator(procsOf(fvL));
  if (k && allSync) {
    scatterOrGather(fvR, *k, L, R, lr, Nl, Nf,
                    k->greater() ? "Table 4.3: D-Scatter(mlis(fv)/k, k)"
                                 : "Table 4.3: (N_f > 1) Transfer(mlis(fv))",
                    "Table 4.3: D-Gather(mlis(fv), 1/k)");
    return;
  }
  speedRatioTerm(fvR, L, R, lr, Nl, Nf);
}

} // namespace dlayout::cost::detail
