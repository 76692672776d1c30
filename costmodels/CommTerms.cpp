//===- costmodels/CommTerms.cpp - Communication terms per mesh dim --------===//
//
// referenceTerms() pairs the sub-references, then TermWalk visits the loops
// from the innermost outwards (section 4.4.1), restarting when a loop has to
// be re-designated type-2.
//
//===----------------------------------------------------------------------===//

#include "costmodels/CommTerms.h"
#include "costmodels/TermWalk.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <set>

namespace dlayout::cost {

using namespace detail;

namespace detail {

SubRef baseSub(const RefFacts *ref, const ArrayDist *ad, int d, bool lhs,
               bool exactOwners) {
  SubRef s;
  s.lhs = lhs;
  if (!ref || !ad)
    return s; // a scalar lhs: missing everywhere
  int k = ad->dimOnMesh[d];
  if (k < 0) {
    if (ad->replicatedOn[d] || exactOwners)
      s.kind = SubRef::Replicated;
    return s;
  }
  s.dist = &ad->dims[k];
  s.form = &ref->subs[k];
  const SubscriptForm &f = *s.form;
  s.beta.constant = f.constant;
  if (s.dist->kind == DistKind::Indirect) { // owners known only at run time
    s.kind = SubRef::Unknown;
    s.loop = f.varLevel - 1;
    return s;
  }
  switch (f.cls) {
  case SubscriptClass::Constant:
    s.kind = SubRef::Constant;
    break;
  case SubscriptClass::Single:
  case SubscriptClass::Multiple:
    s.kind = SubRef::Single;
    s.loop = f.terms.back().first;
    s.alpha = f.terms.back().second;
    s.beta.terms = LoopTerms(f.terms.begin(), f.terms.end() - 1);
    break;
  case SubscriptClass::Unknown:
  case SubscriptClass::Indirect:
    if (f.knownPart) { // alpha * j + x: single-index in j (section 3.1)
      s.kind = SubRef::Single;
      s.loop = f.terms[0].first;
      s.alpha = f.terms[0].second;
      s.beta.opaque = f.source;
    } else {
      s.kind = SubRef::Unknown;
      s.loop = f.varLevel - 1;
    }
    break;
  }
  return s;
}

/// Runs the walk; returns the loop to freeze (make type-2), or -1.
int TermWalk::run() {
  // Where the instances run: the lhs's owners, or for an operand brought to
  // the home of a reduction into an array element, the home's.
  const RefFacts *target = sf_.hasLhs ? &sf_.lhs : nullptr;
  if (rf_.toHome && sf_.hasHome && lv_.arrays[sf_.home.array].distributed())
    target = &sf_.home;
  const ArrayDist *lhsDist = target ? &lv_.arrays[target->array] : nullptr;
  const ArrayDist &rhsDist = lv_.arrays[rf_.ref.array];
  base_.resize(D_);
  level_.resize(D_);
  runners_.assign(size_t(D_), {});
  for (int d = 0; d < D_; ++d) {
    base_[d].first = baseSub(target, lhsDist, d, true, opts_.exactOwners);
    // Beyond the thesis: a replicated scalar's operands reach every
    // processor (StatementFacts::replicatedScalar). So too an operand of a
    // reduction into a scalar whose home every processor holds: every
    // processor runs every instance.
    if ((sf_.replicatedScalar() && opts_.exactOwners) || rf_.everyProcessor ||
        (!sf_.hasLhs && rf_.toHome && !target))
      base_[d].first.kind = SubRef::Replicated;
    // A private scalar that other array assignments read too runs on their
    // owners as well: on every processor of d where theirs cover it
    // (beyond the thesis, whose stand-in is one reader's).
    if (target == &sf_.lhs)
      if (std::vector<int64_t> runners = runnersOwners(d); runners.size() > 1) {
        base_[d].first.kind = SubRef::Replicated;
        runners_[size_t(d)] = std::move(runners);
      }
    base_[d].second = baseSub(&rf_.ref, &rhsDist, d, false, opts_.exactOwners);
    level_[d] = std::max(rawLevel(base_[d].first), rawLevel(base_[d].second));
    noteIrregular(d);
  }
  for (int l = m_ - 1; l >= 0; --l) {
    std::vector<int> pairs;
    for (int d = 0; d < D_; ++d)
      if (level_[d] == l + 1)
        pairs.push_back(d);
    if (pairs.empty())
      continue;
    if (out.type2[l]) {
      for (int d : pairs)
        type2Pair(d, l);
    } else if (tiled_[l] >= 0) {
      if (!absorbed(pairs, l))
        return l; // not k-synchronous with the tiles: freeze instead
    } else if (int freeze = type1Loop(pairs, l); freeze >= 0) {
      return freeze;
    }
  }
  for (int d = 0; d < D_; ++d) {
    out.dims[size_t(d)].holder = holderAlong(d);
    out.dims[size_t(d)].holderShares = holderShares(d);
    if (level_[d] == 0)
      constantPair(d);
    if (const SubRef &R = base_[d].second; opts_.exactOwners && spread(R) && R.loop >= 0) {
      out.dims[d].loop = R.loop;
      out.dims[d].iterations = mlis(R, rangeOf(sf_, R.loop));
    }
  }
  // The parts, where a term along another dimension carries them.
  for (int d = 0; d < D_ && opts_.exactOwners; ++d) {
    const DimResult &r = out.dims[d];
    const bool carried = std::any_of(out.dims.begin(), out.dims.end(), [&](const DimResult &o) {
      return &o != &r && !o.terms.empty();
    });
    if (r.loop >= 0 && r.terms.empty() && !r.boundary && carried)
      out.dims[d].parts = partsOf(base_[d].second);
  }
  jointParts();
  selfServedParts();
  localSize(rhsDist);
  partialsExchange();
  ownerTurns();
  return -1;
}

/// base as seen from loop l: Single in l, or Constant if it varies only
/// outside l (its indices then belong to beta). For a type-1 analysis, a
/// type-1 outer index asks for tiling; two make the subscript unknown.
SubRef TermWalk::atLoop(const SubRef &base, int l, int dim, bool type1,
                        std::vector<TileRequest> *tiles) {
  if (base.kind == SubRef::Unknown && base.loop < l && base.dist &&
      base.dist->kind != DistKind::Indirect) {
    // An unknown subscript that varies only outside loop l (A(L,J) with L
    // set before the loop) names one element throughout l: a constant
    // sub-reference of unknown value, identical only to the same subscript.
    SubRef s = base;
    s.kind = SubRef::Constant;
    s.loop = -1;
    s.alpha = 0;
    s.beta.opaque = base.form ? base.form->source : nullptr;
    return s;
  }
  if (base.kind != SubRef::Single)
    return base;
  const SubscriptForm &f = *base.form;
  SubRef s = base;
  const auto &all = f.terms;
  if (base.loop < l) { // varies in an outer loop only
    s.kind = SubRef::Constant;
    s.loop = -1;
    s.alpha = 0;
    s.beta.terms = LoopTerms(all.begin(), all.end());
    if (type1 && tiles && !out.type2[base.loop])
      tiles->push_back({base.loop, base, dim, !base.lhs});
    return fixedOuter(s);
  }
  int outerType1 = 0, outerLoop = -1;
  int64_t outerAlpha = 0;
  for (const auto &[p, a] : s.beta.terms)
    if (p < l && !out.type2[p]) {
      ++outerType1;
      outerLoop = p;
      outerAlpha = a;
    }
  if (type1 && outerType1 > 1) { // more than two type-1 indices: unknown
    s.kind = SubRef::Unknown;
    return s;
  }
  if (type1 && outerType1 == 1 && tiles) {
    SubRef driver = base;
    driver.loop = outerLoop;
    driver.alpha = outerAlpha;
    driver.beta.terms.clear();
    for (const auto &[p, a] : all)
      if (p != outerLoop)
        driver.beta.terms.push_back({p, a});
    tiles->push_back({outerLoop, driver, dim, !base.lhs});
  }
  return fixedOuter(s);
}

void TermWalk::noteIrregular(int d) {
  const SubRef &r = base_[d].second;
  if (!r.dist || !r.dist->onMesh() || r.dist->procs <= 1)
    return;
  bool indirect = r.dist->kind == DistKind::Indirect ||
                  (r.form && r.form->cls == SubscriptClass::Indirect);
  if (indirect && r.loop >= 0) {
    out.irregular = true;
    out.irregularMeshDim = d;
  }
}

void TermWalk::type2Pair(int d, int l) {
  SubRef L = atLoop(base_[d].first, l, d, false, nullptr);
  SubRef R = atLoop(base_[d].second, l, d, false, nullptr);
  DimResult &dim = out.dims[d];
  if (R.kind == SubRef::Replicated)
    return;
  if (L.kind == SubRef::Replicated) {
    dim.terms.push_back(term(Primitive::OneToManyMulticast, d,
                             "type-2 loop: replicated lhs", copiesOf(d)));
    dim.terms.back().loop = l;
    // The holders along the other dimensions exchange their parts first
    // (CommTerm::afterExchange), as for a replicated lhs of one iteration.
    dim.terms.back().afterExchange = opts_.exactOwners;
    dim.terms.back().fill = true;
    // exactOwners: at one iteration of l (a sample of a triangular nest,
    // OuterSamples.h) the operand's element has one owner, the root.
    const auto index = sf_.loops[size_t(l)].onlyIndex();
    if (R.kind == SubRef::Single && R.loop == l && index) {
      SubRef at = R;
      at.kind = SubRef::Constant;
      at.beta.constant += R.alpha * *index;
      if (auto o = numberOwner(at)) {
        dim.terms.back().senders = {d, *o, *o};
        dim.terms.back().share = sampleShare(at, *o);
        dim.terms.back().group += outsideCopies(d, *o);
      }
    }
    return;
  }
  if (scalarCombine()) {
    dim.terms.push_back(term(Primitive::Reduction, d,
                             "type-2 loop: a scalar's partial result combined",
                             procsOf(d)));
    dim.terms.back().loop = l;
    return;
  }
  LoopRange lr = rangeOf(sf_, l);
  if (L.kind == SubRef::Single && R.kind == SubRef::Single) {
    if (synchronous(L, R)) // case 1
      return;
    if (boundaryCommunication(L, R)) { // case 2: boundary-Transfer
      double bd = boundaryData(L, R, lr), eta = les(R, lr);
      CommTerm t = term(Primitive::Transfer, d,
                        "type-2 loop, case 2: boundary-Transfer "
                        "bd * (les - 1) * Transfer(1)");
      t.count = bd * std::max(eta - 1, 0.0);
      t.boundaryTransfer = true;
      if (eta > 1)
        t.share = 1 / (eta - 1);
      t.senders = shiftSenders(d, L, R, lr, shiftDirection(L, R));
      t.loop = l;
      dim.terms.push_back(t);
      if (out.boundary.loop < 0) {
        BoundaryFacts &b = out.boundary;
        b.loop = l;
        b.delta = bd;
        b.eta = eta;
        b.alpha2 = std::llabs(R.alpha);
        b.b2 = R.dist->block;
        b.blocked = R.dist->blocked();
        b.onlyVarying = true;
        for (int e = 0; e < D_; ++e)
          if (e != d && rawLevel(base_[e].second) == l + 1)
            b.onlyVarying = false;
      }
      return;
    }
  }
  if (identical(L, R)) // case 3
    return;
  CommTerm t =
      chance(d, "type-2 loop: (1 - 1/N) Transfer(1) per iteration", procsOf(d));
  t.loop = l;
  // Beyond the thesis (exactOwners), where the reference moves along d
  // alone: the iterations whose element crosses, counted with the owner
  // function, a Transfer each (fig3_7's A(I) = A(I-3), blocks of 2 over
  // 16: all 29 cross, where (1 - 1/N) counts 27.2; each block sends its
  // share, ReferenceTerms::sourceShareIn, two).
  if (opts_.exactOwners && stillBesides(d))
    if (auto x = boundaryDataExact(L, R, lr); x && lr.trips > 0) {
      const double crossing = std::accumulate(x->sent.begin(), x->sent.end(), 0.0);
      if (crossing == 0)
        return;
      t.probabilistic = false;
      t.factor = crossing / lr.trips;
      t.rule = "type-2 loop: a Transfer(1) per iteration whose element crosses";
    }
  dim.terms.push_back(t);
}

void TermWalk::constantPair(int d) {
  const SubRef &L = base_[d].first, &R = base_[d].second;
  if (identical(L, R) || R.kind == SubRef::Replicated)
    return;
  DimResult &dim = out.dims[d];
  if (L.kind == SubRef::Replicated) {
    dim.terms.push_back(term(Primitive::OneToManyMulticast, d,
                             "invariant pair: replicated lhs", copiesOf(d)));
    dim.terms.back().afterExchange = opts_.exactOwners; // as type2Pair's
    dim.terms.back().fill = true;
    if (auto o = numberOwner(R)) { // exactOwners: the element's owner is the root
      dim.terms.back().senders = {d, *o, *o};
      dim.terms.back().share = sampleShare(R, *o);
      dim.terms.back().group += outsideCopies(d, *o);
    }
    return;
  }
  if (scalarCombine()) {
    dim.terms.push_back(term(Primitive::Reduction, d,
                             "invariant pair: a scalar's partial result combined",
                             procsOf(d)));
    return;
  }
  // Beyond the thesis (TermOptions): two numbers in one mesh dimension have
  // known owners, f(A_k, c) of Eq. 2.1, instead of the probability 1/N_k.
  auto o1 = numberOwner(L), o2 = numberOwner(R);
  if (o1 && o2 && L.dist->meshDim == R.dist->meshDim && L.dist->procs == R.dist->procs) {
    if (*o1 == *o2)
      return;
    CommTerm t = term(Primitive::Transfer, d,
                      "invariant pair: owners differ (Eq. 2.1), Transfer(1)");
    t.certain = true;
    t.senders = {d, *o2, *o2};
    t.share = sampleShare(R, *o2);
    dim.terms.push_back(t);
    return;
  }
  dim.terms.push_back(
      chance(d, "invariant pair: (1 - 1/N) Transfer(1)", procsOf(d)));
}

int TermWalk::applyTiling(const std::vector<TileRequest> &tiles) {
  for (const TileRequest &t : tiles) {
    if (tiled_[t.loop] >= 0)
      continue;
    // The fastest-varying sub-reference of that loop sets the tile size:
    // the requests', and those of the other pairs that vary in it and are
    // not strictly synchronous (section 4.4.3, "tiling requires k-synchrony
    // of sr2 with them; the fastest-varying one sets the tile size"), so
    // that within a tile every sub-reference whose data moves stays on one
    // processor.
    SubRef driver = t.driver;
    for (const TileRequest &u : tiles)
      if (u.loop == t.loop && speed(u.driver) > speed(driver))
        driver = u.driver;
    for (int d = 0; d < D_; ++d) {
      const SubRef &L = base_[d].first, &R = base_[d].second;
      if (L.kind == SubRef::Single && R.kind == SubRef::Single && L.loop == t.loop &&
          R.loop == t.loop && synchronous(atLoop(L, t.loop, d, false, nullptr),
                                          atLoop(R, t.loop, d, false, nullptr)))
        continue; // moving together: their data stays inside (IDM)
      for (const SubRef *s : {&L, &R})
        if (spread(*s) && s->loop == t.loop) {
          SubRef x = atLoop(*s, t.loop, d, false, nullptr);
          if (speed(x) > speed(driver) &&
              (kSynchronous(driver, x) || kSynchronous(x, driver)))
            driver = x;
        }
    }
    tiled_[t.loop] = int(drivers_.size());
    drivers_.push_back(driver);
    LoopRange lr = rangeOf(sf_, t.loop);
    const double T = std::max(1.0, les(driver, lr));
    out.tiles *= T;
    double sources = 1; // processors the operand's tiles come from
    const SubRef *source = nullptr; // their sub-reference along sourceDim
    if (opts_.exactOwners)
      for (const TileRequest &u : tiles) {
        if (u.loop != t.loop)
          continue;
        if (u.rhs) { // each tile's operand from another processor
          const double s = std::min(les(u.driver, lr), T);
          if (s > sources)
            sources = s, out.sourceDim = u.dim, out.sourceLoop = t.loop, out.sourceTiles = T,
            source = &u.driver;
        }
        else { // each tile's lhs on another processor
          DimResult &dim = out.dims[u.dim];
          dim.receiverOwners = dim.receivers == 1 ? ownersOver(u.driver, lr) : std::nullopt;
          dim.receivers *= std::max(1.0, std::min(les(u.driver, lr), out.tiles));
        }
      }
    out.sourceShare *= std::ceil(T / sources) / T;
    // Where the lhs moves with the tiled loop along other mesh dimensions
    // too, a line of processors along them takes part only in the tiles
    // whose operand it holds some of, and the lines' tiles run at once:
    // Fig. 4.16's B(J,J) on a 4 x 4 mesh is multicast by each diagonal
    // block down its own mesh column, once per column, not four times one
    // after another (ReferenceTerms::lineShare).
    if (source)
      if (auto perLine = holdersPerLine(out.sourceDim, *source, lr);
          perLine && *perLine >= 1 && double(*perLine) < T)
        out.lineShare *= double(*perLine) / T;
    for (const TileRequest &u : tiles)
      if (u.loop == t.loop && u.rhs) // rhs: data size times the tile
        out.dims[u.dim].size *= mlis(driver, lr);
  }
  return -1;
}

/// Pairs varying in a tiled loop: each side k-synchronous with the driver,
/// the fastest sub-reference varying in the loop (applyTiling), stays on one
/// processor within a tile. A pair whose sides are strictly synchronous
/// needs nothing; any other is a pair of constants within the tile, (1 -
/// 1/N) Transfer(1) (section 4.4.1), repeated per tile with the rest. Before,
/// such a pair had no term: matmul's C(I,J) += A(I,K) * B(K,J) with C's J
/// and B's J on different mesh dimensions moved B's columns for nothing.
bool TermWalk::absorbed(const std::vector<int> &pairs, int l) {
  const SubRef &driver = drivers_[size_t(tiled_[l])];
  std::vector<int> moving;
  for (int d : pairs) {
    SubRef at[2];
    int i = 0;
    for (const SubRef *s : {&base_[d].first, &base_[d].second}) {
      if (s->kind == SubRef::Unknown)
        return false;
      at[i] = atLoop(*s, l, d, false, nullptr);
      if (s->kind == SubRef::Single && s->loop == l &&
          !kSynchronous(driver, at[i]) && !kSynchronous(at[i], driver))
        return false;
      ++i;
    }
    const SubRef &L = at[0], &R = at[1];
    bool still = (L.kind == SubRef::Single && R.kind == SubRef::Single &&
                  synchronous(L, R)) ||
                 identical(L, R) || R.kind == SubRef::Replicated;
    if (!still)
      moving.push_back(d);
  }
  // A driver that wraps round the processors (cyclic) groups each
  // processor's iterations into one tile, not a contiguous run: within it
  // a moving pair's sides do not stay put.
  if (!moving.empty()) {
    LoopRange lr = rangeOf(sf_, l);
    double blocks = std::ceil(double(std::llabs(driver.alpha)) * lr.range /
                              double(std::max<int64_t>(driver.dist->block, 1)));
    if (blocks > double(driver.dist->procs))
      return false;
  }
  for (int d : moving)
    out.dims[d].terms.push_back(
        chance(d, "tiled loop: a pair constant within a tile, (1 - 1/N) Transfer(1)",
               procsOf(d)));
  return true;
}

void TermWalk::localSize(const ArrayDist &rhsDist) {
  double size = 1;
  out.localExtent.assign(rf_.ref.subs.size(), 1.0);
  for (size_t k = 0; k < rf_.ref.subs.size(); ++k) {
    bool onMesh = false;
    for (int d = 0; d < D_; ++d)
      onMesh = onMesh || rhsDist.dimOnMesh[d] == int(k);
    if (onMesh)
      continue;
    const SubscriptForm &f = rf_.ref.subs[k];
    double extent = double(rhsDist.dims[k].extent), dimSize = 1;
    auto counts = [&](int pos) {
      if (pos < 0 || out.type2[pos] || tiled_[pos] >= 0)
        return false;
      for (int d = 0; d < D_; ++d)
        if (level_[d] == pos + 1)
          return false; // accounted for by that mesh dimension's pair
      return !reductionOperand(pos); // a reduction over it is combined locally
    };
    bool unknown = (f.cls == SubscriptClass::Unknown ||
                    f.cls == SubscriptClass::Indirect) &&
                   !f.knownPart;
    if (unknown) {
      if (counts(f.varLevel - 1))
        dimSize = extent;
    } else {
      for (const auto &[pos, alpha] : f.terms)
        if (counts(pos))
          dimSize *= sf_.loops[pos].trips;
        else if (tiledOffMesh(pos))
          dimSize *= std::max(mlis(drivers_[size_t(tiled_[pos])], rangeOf(sf_, pos)), 1.0);
    }
    out.localExtent[k] = std::min(std::max(dimSize, 1.0), extent);
    size *= out.localExtent[k];
  }
  out.localSize = size;
  // The partials: the vectorised loops in which some lhs subscript varies
  // and no subscript of the operand does -- their iterations, or a tiled
  // loop's within one tile. (Such a loop paired on a mesh dimension is
  // Table 4.2's single / constant: the thesis multicasts the operand along
  // it, which holds no data; the partials it forms are what moves.)
  if (!opts_.exactOwners || !sf_.hasLhs || !rf_.reductionOperand)
    return;
  for (int pos = 0; pos < m_; ++pos) {
    if (!variesIn(sf_.lhs, pos) || variesIn(rf_.ref, pos))
      continue;
    if (tiled_[pos] >= 0)
      out.partials *= std::max(mlis(drivers_[size_t(tiled_[pos])], rangeOf(sf_, pos)), 1.0);
    else if (!out.type2[pos])
      out.partials *= std::max(sf_.loops[pos].trips, 1.0);
  }
}

bool TermWalk::tiledOffMesh(int pos) const {
  if (!opts_.exactOwners || pos < 0 || tiled_[size_t(pos)] < 0 || out.type2[size_t(pos)])
    return false;
  const ArrayDist &ad = lv_.arrays[rf_.ref.array];
  for (int d = 0; d < D_; ++d)
    if (ad.dimOnMesh[d] >= 0 && rf_.ref.subs[size_t(ad.dimOnMesh[d])].alphaAt(pos) != 0)
      return false; // the tile is counted along that mesh dimension (applyTiling)
  return true;
}

double TermWalk::mlis(const SubRef &s, const LoopRange &l) const {
  if (opts_.exactOwners && s.kind == SubRef::Single && s.dist &&
      s.dist->onMesh() && s.beta.terms.empty() && !s.beta.opaque)
    if (auto e = iterationsPerProcessorExact(s.alpha, s.beta.constant, l, *s.dist))
      return *e;
  return cost::mlis(s, l);
}

} // namespace detail

ReferenceTerms referenceTerms(const StatementFacts &sf, const RhsFacts &rf,
                              const LayoutView &lv, const TermOptions &opts) {
  std::vector<char> type2(rf.type2.begin(), rf.type2.end());
  // "alpha * j + x": communication stays inside the loops where x varies,
  // when the dimension is really partitioned (section 6.2.4, olda).
  auto force = [&](const RefFacts &ref, const ArrayDist &ad) {
    for (size_t k = 0; k < ref.subs.size(); ++k) {
      const SubscriptForm &f = ref.subs[k];
      if (!f.knownPart || !ad.dims[k].onMesh() || ad.dims[k].procs <= 1)
        continue;
      for (int l = std::max(f.unknownLevel, 1); l < f.varLevel; ++l)
        type2[l - 1] = 1;
    }
  };
  force(rf.ref, lv.arrays[rf.ref.array]);
  if (sf.hasLhs)
    force(sf.lhs, lv.arrays[sf.lhs.array]);

  for (size_t attempt = 0; attempt <= sf.loops.size(); ++attempt) {
    TermWalk walk(sf, rf, lv, type2, opts);
    int freeze = walk.run();
    if (freeze < 0 || type2[freeze])
      return std::move(walk.out);
    type2[freeze] = 1;
  }
  TermWalk walk(sf, rf, lv, type2, opts);
  walk.run();
  return std::move(walk.out);
}

} // namespace dlayout::cost
