//===- costmodels/Computation.cpp - The computational estimator -----------===//

#include "costmodels/Computation.h"
#include "costmodels/BodyBusiest.h"
#include "costmodels/OuterSamples.h"
#include "costmodels/SubReference.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace dlayout::cost {

double instanceTime(const OpCounts &o, const Machine &m) {
  // Loads, stores and arithmetic (section 3.1); integer arithmetic on values
  // is charged like floating point, control overhead is ignored.
  return o.loads * m.load + o.stores * m.store + (o.fadd + o.iadd) * m.add +
         (o.fmul + o.imul) * m.mul + (o.fdiv + o.idiv) * m.div +
         o.intrinsics * m.intrinsic + o.compares * m.compare;
}

namespace {

LoopRange rangeOf(const LoopFacts &lf) {
  return {lf.range, lf.trips, lf.step, lf.first, !lf.loop || lf.loop->step >= 0};
}

int64_t procsOf(const DimDist &d) { return d.onMesh() ? d.procs : 1; }

/// The number a subscript adds to alpha * j_l: its constant, and the terms
/// of loops at one iteration (an outer index fixed, perOuterIteration);
/// nullopt where another loop of more than one iteration varies it.
std::optional<int64_t> offsetIn(const SubscriptForm &g, int l, const std::vector<LoopFacts> &loops) {
  int64_t beta = g.constant;
  for (const auto &[pos, alpha] : g.terms) {
    if (pos == l)
      continue;
    const LoopFacts &q = loops[size_t(pos)];
    if (q.trips != 1 || q.first != std::floor(q.first))
      return std::nullopt;
    beta += alpha * int64_t(q.first);
  }
  return beta;
}

/// C_l for one subscript varying in loop l (section 3.2.2, case 2).
double contribution(const SubscriptForm &g, const DimDist &d, const std::vector<LoopFacts> &loops,
                    int l, const ComputationOptions &opts) {
  const LoopFacts &lf = loops[size_t(l)];
  int64_t N = procsOf(d);
  if (N <= 1)
    return lf.trips;
  bool unknown =
      d.kind == DistKind::Indirect || ((g.cls == SubscriptClass::Unknown ||
                                        g.cls == SubscriptClass::Indirect) &&
                                       !g.knownPart);
  if (unknown) // C_l = ceil(n_l / max(N_k / imb, 1))
    return std::ceil(lf.trips / std::max(double(N) / opts.imbalance, 1.0));
  if (opts.exactOwners && (g.cls == SubscriptClass::Single || g.cls == SubscriptClass::Multiple))
    if (auto beta = offsetIn(g, l, loops))
      if (auto e = iterationsPerProcessorExact(g.alphaAt(l), *beta, rangeOf(lf), d))
        return *e;
  return iterationsPerProcessor(g.alphaAt(l), rangeOf(lf), N, d.block);
}

/// Beyond the thesis (exactOwners): the iterations of all the loops a
/// multiple-index subscript sum alpha_k j_k + beta uses, together, on the
/// processor owning the most of the indices they reach (relax's
/// A((IY-1)*NX + IX) blocked: a row of the grid per processor, where Eq. 3.2
/// on IX alone, IY frozen, divides nothing). Counted where the loops have
/// constant bounds and at most 2^16 iterations together: the loop of the
/// smallest stride through the indices as one arithmetic progression per
/// combination of the others (iterationsOnEachProcessor: a handful of blocks
/// or one period of owners), the indices one by one where that cannot count
/// it.
std::optional<double> jointIterations(const SubscriptForm &g, const DimDist &d,
                                      const std::vector<LoopFacts> &loops) {
  if (!ownerCoordinate(d, 0) || g.terms.empty())
    return std::nullopt;
  double total = 1;
  size_t inner = 0; // the term counted as a progression
  auto stride = [&](size_t t) {
    return std::llabs(g.terms[t].second) * loops[size_t(g.terms[t].first)].step;
  };
  for (size_t t = 0; t < g.terms.size(); ++t) {
    const LoopFacts &lf = loops[size_t(g.terms[t].first)];
    if (!lf.loop || lf.trips != std::floor(lf.trips) || lf.first != std::floor(lf.first))
      return std::nullopt;
    for (const Bound *b : {&lf.loop->lower, &lf.loop->upper})
      if (b->kind != Bound::Kind::Affine || b->terms.size() != 1 || !b->terms[0].coeffs.empty())
        return std::nullopt; // not a constant range
    total *= lf.trips;
    if (stride(t) < stride(inner))
      inner = t;
  }
  if (total > double(1 << 16))
    return std::nullopt;
  std::vector<int64_t> per(size_t(std::max<int64_t>(d.procs, 1)), 0);
  const auto &[innerPos, innerAlpha] = g.terms[inner];
  const LoopFacts &innerLoop = loops[size_t(innerPos)];
  auto count = [&](int64_t beta) { // the inner loop at the others' index sum beta
    if (auto each = iterationsOnEachProcessor(innerAlpha, beta, rangeOf(innerLoop), d)) {
      for (size_t p = 0; p < per.size(); ++p)
        per[p] += (*each)[p];
      return;
    }
    const int64_t step = innerLoop.signedStep();
    int64_t j = int64_t(innerLoop.first);
    for (int64_t n = 0; n < int64_t(innerLoop.trips); ++n, j += step)
      ++per[size_t(*ownerCoordinate(d, beta + innerAlpha * j))];
  };
  auto walk = [&](auto &self, size_t t, int64_t index) -> void {
    if (t == inner)
      return self(self, t + 1, index);
    if (t == g.terms.size())
      return count(index);
    const auto &[pos, alpha] = g.terms[t];
    const LoopFacts &lf = loops[size_t(pos)];
    int64_t step = lf.signedStep(), j = int64_t(lf.first);
    for (int64_t n = 0; n < int64_t(lf.trips); ++n, j += step)
      self(self, t + 1, index + alpha * j);
  };
  walk(walk, 0, g.constant);
  return double(*std::max_element(per.begin(), per.end()));
}

/// Section 3.3.1: A(i) = F(A(k)); the loop splits at the source iteration.
double oneToMany(const OverlapFacts &o, const SubscriptForm &g,
                 const DimDist &d, const LoopFacts &lf) {
  double before = (o.source - lf.first) / double(lf.signedStep());
  if (o.symbolicSource) // an expected position, rounded to an iteration
    before = std::round(before);
  if (before < 0 || before > lf.trips - 1 || before != std::floor(before))
    return -1; // the source is not an iteration of this loop
  double after = lf.trips - 1 - before;
  int64_t N = procsOf(d), alpha = g.alphaAt(o.loop);
  LoopRange initial{before * double(lf.step), before, lf.step};
  LoopRange final{after * double(lf.step), after, lf.step};
  return iterationsPerProcessor(alpha, initial, N, d.block) + 1 +
         iterationsPerProcessor(alpha, final, N, d.block);
}

/// Section 3.3.2: O_l(S) = min(d-1, floor(b/(|a| s))) * (ceil(|a| r/b) - 1).
double constantOverlap(const OverlapFacts &o, const SubscriptForm &g,
                       const DimDist &d, const LoopFacts &lf) {
  double a = double(std::llabs(g.alphaAt(o.loop)));
  double perBlock = std::floor(double(d.block) / (a * double(lf.step)));
  double boundaries = std::ceil(a * lf.range / double(d.block)) - 1;
  return std::min(double(o.distance - 1), perBlock) * std::max(boundaries, 0.0);
}

/// No array of `arrays` is distributed on mesh dimension `meshDim`: each
/// processor along it holds the same part of them.
bool wholeAlong(const std::vector<int> &arrays, int meshDim, const LayoutView &lv) {
  for (int a : arrays) {
    const ArrayDist &ad = lv.arrays[size_t(a)];
    if (ad.dimOnMesh.size() != lv.mesh.size())
      return false; // not resolved
    if (meshDim >= 0 && size_t(meshDim) < ad.dimOnMesh.size() && ad.dimOnMesh[size_t(meshDim)] >= 0)
      return false;
  }
  return true;
}

/// A loop sequential only through arrays the statement references
/// (StatementFacts::sequentialThrough) is divided over a mesh dimension
/// along which none of them is distributed: the processors there hold the
/// same part of them and each runs its writes itself.
bool wholeThrough(const StatementFacts &sf, int l, const LayoutView &lv) {
  const std::vector<int> &through = sf.sequentialThrough[size_t(l)];
  if (!sf.hasLhs || sf.parallel[l] || through.empty())
    return false;
  const ArrayDist &lhs = lv.arrays[sf.lhs.array];
  for (size_t k = 0; k < sf.lhs.subs.size(); ++k)
    if (sf.lhs.subs[k].varLevel == l + 1 && lhs.dims[k].onMesh() &&
        wholeAlong(through, lhs.dims[k].meshDim, lv))
      return true;
  return false;
}

/// Beyond section 3.3: the iterations of a recurrence's loop L_l (S's own
/// flow dependence of constant distance, its lhs blocked along L_l) inside
/// a sequential L_{l-1}, where the processors pipeline the outer loop as
/// section 4.5.3 pipelines its boundary-Transfers (the recurrence's read
/// with "=" or a known distance at l for every dependence from inside
/// L_{l-1}): the first iteration of L_{l-1} runs the whole chain, n_l, each
/// later one a block of it, `parallel`; returned as the C_l that, times
/// C_{l-1} = n_{l-1} (L_{l-1} undivided), gives n_l + (n_{l-1} - 1)
/// parallel. Negative where that does not apply.
double pipelinedIterations(const StatementFacts &sf, const DimDist &d, const LayoutView &lv,
                           const std::vector<LoopFacts> &loops, int l, double parallel) {
  const OverlapFacts &o = sf.overlap;
  if (o.kind != OverlapFacts::Constant || l < 1 || sf.parallel[size_t(l - 1)] ||
      wholeThrough(sf, l - 1, lv) || !d.blocked() || procsOf(d) <= 1)
    return -1;
  const bool pipelines = std::any_of(sf.rhs.begin(), sf.rhs.end(), [&](const RhsFacts &rf) {
    return rf.ref.array == sf.lhs.array && size_t(l) < rf.pipelineOk.size() &&
           rf.pipelineOk[size_t(l)];
  });
  const double outer = loops[size_t(l - 1)].trips, n = loops[size_t(l)].trips;
  if (!pipelines || outer < 1)
    return -1;
  return parallel + (n - parallel) / outer;
}

/// The references whose owners run S's instances: its lhs; for a reduction
/// into an array element or a scalar, its home operand (model/Reduction.h,
/// ProgramAnalysis.h) where that is distributed, and none where every
/// processor holds the home of a reduction into a scalar (every processor
/// runs every instance); under the thesis's placement, for a reduction into
/// a scalar, every operand (their partial results meet in the Reductions
/// the communication estimate charges).
std::vector<const RefFacts *> dividing(const StatementFacts &sf, const LayoutView &lv,
                                       const ComputationOptions &opts) {
  if (sf.hasHome && lv.arrays[sf.home.array].distributed())
    return {&sf.home};
  if (sf.hasLhs)
    return {&sf.lhs};
  if (sf.hasHome)
    return {};
  std::vector<const RefFacts *> out;
  if (sf.scalarReduction && opts.parallelReductions)
    for (const auto &r : sf.rhs)
      out.push_back(&r.ref);
  return out;
}

/// Beyond the thesis: C_l for a subscript alpha * j + beta of a loop over
/// segments (Loop::Segments: DO K = R(I), R(I+1) - 1 inside DO I) where S's
/// lhs, which does not vary with the loop `over`, decides who runs it: the
/// runs at over's iterations are one run through the segments' index
/// values, which the owners divide as they would one loop; C_l is the
/// busiest owner's share of that run per iteration of `over` (whose C is
/// n_over): VAL(K) = 2 * VAL(K) over 16 nonzeros in 10 rows, VAL blocked on
/// 4 processors, 4 instances, not 2 at each row. Not where a home operand
/// runs a reduction into an element (spmv's S(I) = S(I) + D(K) * B(C(K))):
/// the partial sums the owners of a row's segment then make are combined
/// at S(I)'s owner, which the communication estimate does not price for a
/// segment, so the rows' count is kept. nullopt where that does not apply.
/// `ref` is the dividing reference (dividing()) whose subscript g is.
std::optional<double> segmentShare(const StatementFacts &sf, const RefFacts &ref,
                                   const SubscriptForm &g, const DimDist &d, const LayoutView &lv,
                                   const std::vector<LoopFacts> &loops, int l,
                                   const ComputationOptions &opts) {
  const LoopFacts &lf = loops[size_t(l)];
  if (!lf.loop || !lf.loop->segments || g.cls != SubscriptClass::Single || procsOf(d) <= 1 ||
      !sf.hasLhs || &ref != &sf.lhs)
    return std::nullopt;
  const Loop::Segments &seg = *lf.loop->segments;
  int over = -1;
  for (size_t q = 0; q < loops.size(); ++q)
    if (loops[q].loop && loops[q].loop->id == seg.over)
      over = int(q);
  if (over < 0 || loops[size_t(over)].trips < 1)
    return std::nullopt;
  const ArrayDist &lhs = lv.arrays[size_t(sf.lhs.array)]; // over must stay undivided
  for (size_t k = 0; k < sf.lhs.subs.size() && k < lhs.dims.size(); ++k)
    for (const auto &[pos, alpha] : sf.lhs.subs[k].terms)
      if (pos == over && procsOf(lhs.dims[k]) > 1)
        return std::nullopt;
  auto beta = offsetIn(g, l, loops);
  if (!beta)
    return std::nullopt;
  const LoopRange run{seg.count, seg.count, 1, double(seg.first), true};
  std::optional<double> busiest;
  if (opts.exactOwners)
    busiest = iterationsPerProcessorExact(g.alphaAt(l), *beta, run, d);
  if (!busiest)
    busiest = iterationsPerProcessor(g.alphaAt(l), run, procsOf(d), d.block);
  return *busiest / loops[size_t(over)].trips;
}

/// prod_l C_l(S) (section 3.2.2) over `loops`: sf.loops, or sf.loops with
/// some enclosing loops at one iteration (perOuterIteration).
double nestIterations(const StatementFacts &sf, const std::vector<LoopFacts> &loops,
                      const LayoutView &lv, const ComputationOptions &opts) {
  int m = int(loops.size());
  std::vector<char> frozen(m, 0); // 1: sequential (C = n), 2: counted with an inner loop (C = 1)
  const ArrayDist *lhs = sf.hasLhs ? &lv.arrays[sf.lhs.array] : nullptr;
  double product = 1;
  for (int l = m - 1; l >= 0; --l) {
    const LoopFacts &lf = loops[l];
    double C = lf.trips;
    const std::vector<int> &through = sf.sequentialThrough[size_t(l)];
    if (frozen[l] == 2) {
      C = 1; // counted in the inner loop's jointIterations
    } else if (!frozen[l] && (sf.parallel[l] || sf.ownerLocal[size_t(l)] || wholeThrough(sf, l, lv))) {
      double best = -1;
      const SubscriptForm *bestJoint = nullptr; // best counted by jointIterations
      auto consider = [&](const RefFacts &ref, const ArrayDist &ad) {
        for (size_t k = 0; k < ref.subs.size(); ++k) {
          const SubscriptForm &g = ref.subs[k];
          if (g.varLevel != l + 1)
            continue;
          if (!sf.parallel[l] && !sf.ownerLocal[size_t(l)] &&
              !wholeAlong(through, ad.dims[k].meshDim, lv))
            continue;
          std::optional<double> joint;
          if (g.cls == SubscriptClass::Multiple && opts.exactOwners && ad.dims[k].procs > 1)
            joint = jointIterations(g, ad.dims[k], loops);
          if (g.cls == SubscriptClass::Multiple) // freeze the outer indices
            for (const auto &[pos, alpha] : g.terms)
              if (pos < l)
                frozen[pos] = std::max<char>(frozen[pos], 1);
          std::optional<double> share;
          if (!joint)
            share = segmentShare(sf, ref, g, ad.dims[k], lv, loops, l, opts);
          double ck = joint ? *joint : share ? *share : contribution(g, ad.dims[k], loops, l, opts);
          if (best < 0 || ck < best) {
            best = ck;
            bestJoint = joint ? &g : nullptr;
          }
        }
      };
      for (const RefFacts *r : dividing(sf, lv, opts))
        consider(*r, lv.arrays[r->array]);
      if (best >= 0)
        C = best;
      if (bestJoint) // its outer loops are counted in C
        for (const auto &[pos, alpha] : bestJoint->terms)
          if (pos < l)
            frozen[pos] = 2;
    } else if (opts.overlap && lhs && sf.overlap.loop == l &&
               sf.overlap.kind != OverlapFacts::None) {
      const SubscriptForm &g = sf.lhs.subs[sf.overlap.dim];
      const DimDist &d = lhs->dims[sf.overlap.dim];
      double parallel = contribution(g, d, loops, l, opts);
      if (sf.overlap.kind == OverlapFacts::OneToMany) {
        double split = oneToMany(sf.overlap, g, d, lf);
        C = split < 0 ? parallel : std::min(C, split);
      } else if (procsOf(d) > 1) {
        C = std::max(parallel,
                     lf.trips - constantOverlap(sf.overlap, g, d, lf));
        if (opts.pipelining) {
          const double piped = pipelinedIterations(sf, d, lv, loops, l, parallel);
          if (piped >= 0)
            C = std::min(C, piped);
        }
      }
    }
    product *= C;
  }
  return product;
}

/// S's instances on each processor of the mesh dimensions `meshDims`
/// (ComputationCost::spread, before rho(S)).
struct Spread {
  std::vector<int> meshDims;
  std::vector<double> per;
};

/// The spread of S's instances over `loops`, where each dimension of the
/// reference that divides them that is distributed has a single-index
/// subscript alpha_k * j_k + beta_k, each in a loop of its own and on a
/// mesh dimension of its own: j_k's iterations on each owner
/// (iterationsOnEachProcessor), multiplied over k, times every other loop's.
/// `busiest` is nestIterations' count over the same loops: where the
/// spread's largest differs, a rule of section 3.2.2 or 3.3 counted
/// otherwise (a recurrence, an unknown subscript) and there is none. None
/// either over more than kMostSpread processors: a count per processor of
/// a mesh larger than any sample's costs more than it tells.
constexpr int64_t kMostSpread = 4096;
std::optional<Spread> spreadOf(const StatementFacts &sf, const std::vector<LoopFacts> &loops,
                               const LayoutView &lv, const ComputationOptions &opts,
                               double busiest) {
  const std::vector<const RefFacts *> refs = dividing(sf, lv, opts);
  if (refs.size() != 1)
    return std::nullopt;
  const ArrayDist &ad = lv.arrays[size_t(refs[0]->array)];
  struct Along {
    int meshDim, loop;
    std::vector<int64_t> each;
  };
  std::vector<Along> along;
  int64_t processors = 1;
  for (size_t k = 0; k < refs[0]->subs.size() && k < ad.dims.size(); ++k) {
    const DimDist &d = ad.dims[k];
    if (procsOf(d) <= 1)
      continue;
    if ((processors *= procsOf(d)) > kMostSpread)
      return std::nullopt;
    const SubscriptForm &g = refs[0]->subs[k];
    if (g.cls != SubscriptClass::Single || g.terms.size() != 1)
      return std::nullopt;
    const int l = g.terms[0].first;
    for (const Along &o : along)
      if (o.loop == l || o.meshDim == d.meshDim)
        return std::nullopt; // a diagonal, or two dimensions on one
    const auto beta = offsetIn(g, l, loops);
    if (!beta)
      return std::nullopt;
    auto each = iterationsOnEachProcessor(g.alphaAt(l), *beta, rangeOf(loops[size_t(l)]), d);
    if (!each)
      return std::nullopt;
    along.push_back({d.meshDim, l, std::move(*each)});
  }
  if (along.empty())
    return std::nullopt;
  std::sort(along.begin(), along.end(),
            [](const Along &x, const Along &y) { return x.meshDim < y.meshDim; });
  double others = 1;
  for (size_t q = 0; q < loops.size(); ++q)
    if (std::none_of(along.begin(), along.end(), [&](const Along &o) { return o.loop == int(q); }))
      others *= loops[q].trips;
  Spread out;
  out.per.assign(1, others);
  for (const Along &o : along) { // coordinates row-major over meshDims
    out.meshDims.push_back(o.meshDim);
    std::vector<double> next;
    next.reserve(out.per.size() * o.each.size());
    for (double before : out.per)
      for (int64_t n : o.each)
        next.push_back(before * double(n));
    out.per = std::move(next);
  }
  const double most = *std::max_element(out.per.begin(), out.per.end());
  if (std::abs(most - busiest) > 1e-9 * std::max(1.0, busiest))
    return std::nullopt;
  return out;
}

/// The processors that run a sample's instances, where the dividing
/// reference names one element along some mesh dimensions: the owner
/// coordinates (mesh dimension, coordinate) of its subscripts that are
/// functions of the sampled indices alone (lu's A(I,K) = A(I,K) / A(K,K): column K's owner). Empty
/// where there is none, or several dividing references.
std::vector<int64_t> runners(const StatementFacts &sf, const LayoutView &lv,
                             const std::vector<LoopFacts> &loops, const std::vector<int> &drivers,
                             const ComputationOptions &opts) {
  std::vector<const RefFacts *> refs = dividing(sf, lv, opts);
  std::vector<int64_t> out;
  if (refs.size() != 1)
    return out;
  const ArrayDist &ad = lv.arrays[size_t(refs[0]->array)];
  for (size_t k = 0; k < refs[0]->subs.size() && k < ad.dims.size(); ++k) {
    const SubscriptForm &g = refs[0]->subs[k];
    const DimDist &d = ad.dims[k];
    auto driven = [&](const std::pair<int, int64_t> &t) {
      return std::find(drivers.begin(), drivers.end(), t.first) != drivers.end();
    };
    if (procsOf(d) <= 1 ||
        (g.cls != SubscriptClass::Single && g.cls != SubscriptClass::Multiple) ||
        !std::all_of(g.terms.begin(), g.terms.end(), driven))
      continue; // not a function of the sampled indices alone
    if (auto at = offsetIn(g, -1, loops))
      if (auto o = ownerCoordinate(d, *at)) {
        out.push_back(d.meshDim);
        out.push_back(*o);
      }
  }
  return out;
}

/// Beyond the thesis (exactOwners): a nest whose inner bounds vary with
/// enclosing indices (triangular), counted at each iteration of the loops
/// they vary with where those loops do not divide the iterations
/// (OuterSamples.h): the sum over k of the busiest processor's iterations,
/// each k's ranges exact. That is the busiest processor's total where one
/// processor is the busiest at every k, as the one holding the end a
/// shrinking range keeps is (lu's A(k+i, k+j), i, j = 1 .. n-1-k). Where
/// the instances of an iteration k run on the owners of an element k names
/// (lu's column k scaled by its owner), the sums are kept per owner and the
/// largest taken: one processor scales a column in N, not every one. Where
/// the busiest moves with k otherwise, the sum is an upper bound. Fig.
/// 3.2's mean k overcounts the first (lu's update on a 4x4 block grid:
/// 1.18x). With the sum, the spread of the instances where every sample's
/// is counted (spreadOf). nullopt: Fig. 3.2's means.
struct OuterCount {
  double busiest = 0;
  std::optional<Spread> spread;
};
std::optional<OuterCount> perOuterIteration(const StatementFacts &sf, const LayoutView &lv,
                                            const ComputationOptions &opts, bool spread) {
  const std::vector<int> drivers = boundDrivers(sf.loops);
  if (drivers.empty())
    return std::nullopt;
  for (int q : drivers) {
    const LoopFacts &lf = sf.loops[size_t(q)];
    if (sf.parallel[q] || wholeThrough(sf, q, lv) || lf.lower.empty() ||
        (opts.overlap && sf.overlap.loop == q && sf.overlap.kind != OverlapFacts::None))
      return std::nullopt; // it divides the iterations, or is not affine
  }
  std::map<std::vector<int64_t>, double> per; // by the processors running the sample
  OuterCount out;
  if (spread)
    out.spread.emplace();
  if (!forEachOuterSample(sf.loops, drivers, [&](const std::vector<LoopFacts> &loops, double weight) {
        const double n = nestIterations(sf, loops, lv, opts);
        per[runners(sf, lv, loops, drivers, opts)] += weight * n;
        if (!out.spread)
          return;
        auto s = spreadOf(sf, loops, lv, opts, n);
        Spread &sum = *out.spread;
        if (sum.meshDims.empty() && s)
          sum = Spread{s->meshDims, std::vector<double>(s->per.size())};
        if (!s || s->meshDims != sum.meshDims || s->per.size() != sum.per.size()) {
          out.spread.reset();
          return;
        }
        for (size_t p = 0; p < sum.per.size(); ++p)
          sum.per[p] += weight * s->per[p];
      }))
    return std::nullopt;
  for (const auto &[where, iterations] : per)
    out.busiest = std::max(out.busiest, iterations);
  return out;
}

} // namespace

ComputationCost statementComputation(const StatementFacts &sf,
                                     const LayoutView &lv, const Machine &m,
                                     const ComputationOptions &opts) {
  ComputationCost c;
  c.instance = instanceTime(sf.stmt->ops, m);
  std::optional<double> product;
  std::optional<Spread> spread;
  // Only BodyBusiest.h reads the spread, and only of these statements.
  const bool spreads = opts.exactOwners && sharesBusiest(sf);
  if (opts.exactOwners)
    if (auto counted = perOuterIteration(sf, lv, opts, spreads)) {
      product = counted->busiest;
      spread = std::move(counted->spread);
    }
  if (!product) {
    product = nestIterations(sf, sf.loops, lv, opts);
    if (spreads)
      spread = spreadOf(sf, sf.loops, lv, opts, *product);
  }
  const double share = sf.rho * (opts.exactOwners ? sf.guardsHold : 1);
  c.iterations = share * *product;
  c.seconds = c.iterations * c.instance;
  if (spread && !spread->meshDims.empty()) {
    c.spreadDims = std::move(spread->meshDims);
    c.spread = std::move(spread->per);
    for (double &n : c.spread)
      n *= share;
  }
  return c;
}

} // namespace dlayout::cost
