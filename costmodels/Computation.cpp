//===- costmodels/Computation.cpp - The computational estimator -----------===//

#include "costmodels/Computation.h"
#include "costmodels/SubReference.h"

#include <algorithm>
#include <cmath>
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

/// C_l for one subscript varying in loop l (section 3.2.2, case 2).
double contribution(const SubscriptForm &g, const DimDist &d,
                    const LoopFacts &lf, int l, const ComputationOptions &opts) {
  int64_t N = procsOf(d);
  if (N <= 1)
    return lf.trips;
  bool unknown =
      d.kind == DistKind::Indirect || ((g.cls == SubscriptClass::Unknown ||
                                        g.cls == SubscriptClass::Indirect) &&
                                       !g.knownPart);
  if (unknown) // C_l = ceil(n_l / max(N_k / imb, 1))
    return std::ceil(lf.trips / std::max(double(N) / opts.imbalance, 1.0));
  if (opts.exactOwners && g.cls == SubscriptClass::Single)
    if (auto e = iterationsPerProcessorExact(g.alphaAt(l), g.constant,
                                             rangeOf(lf), d))
      return *e;
  return iterationsPerProcessor(g.alphaAt(l), rangeOf(lf), N, d.block);
}

/// Beyond the thesis (exactOwners): the iterations of all the loops a
/// multiple-index subscript sum alpha_k j_k + beta uses, together, on the
/// processor owning the most of the indices they reach (relax's
/// A((IY-1)*NX + IX) blocked: a row of the grid per processor, where Eq. 3.2
/// on IX alone, IY frozen, divides nothing). Counted by enumeration where
/// the loops have constant bounds and at most 2^16 iterations together.
std::optional<double> jointIterations(const SubscriptForm &g, const DimDist &d,
                                      const StatementFacts &sf) {
  if (!ownerCoordinate(d, 0))
    return std::nullopt;
  double total = 1;
  for (const auto &[pos, alpha] : g.terms) {
    const LoopFacts &lf = sf.loops[size_t(pos)];
    if (!lf.loop || lf.trips != std::floor(lf.trips) || lf.first != std::floor(lf.first))
      return std::nullopt;
    for (const Bound *b : {&lf.loop->lower, &lf.loop->upper})
      if (b->kind != Bound::Kind::Affine || b->terms.size() != 1 || !b->terms[0].coeffs.empty())
        return std::nullopt; // not a constant range
    total *= lf.trips;
  }
  if (total > double(1 << 16))
    return std::nullopt;
  std::vector<int64_t> per(size_t(std::max<int64_t>(d.procs, 1)), 0);
  auto walk = [&](auto &self, size_t t, int64_t index) -> void {
    if (t == g.terms.size()) {
      ++per[size_t(*ownerCoordinate(d, index))];
      return;
    }
    const auto &[pos, alpha] = g.terms[t];
    const LoopFacts &lf = sf.loops[size_t(pos)];
    int64_t step = lf.loop->step >= 0 ? lf.step : -lf.step, j = int64_t(lf.first);
    for (int64_t n = 0; n < int64_t(lf.trips); ++n, j += step)
      self(self, t + 1, index + alpha * j);
  };
  walk(walk, 0, g.constant);
  return double(*std::max_element(per.begin(), per.end()));
}

/// Section 3.3.1: A(i) = F(A(k)); the loop splits at the source iteration.
double oneToMany(const OverlapFacts &o, const SubscriptForm &g,
                 const DimDist &d, const LoopFacts &lf) {
  int64_t signedStep = lf.loop && lf.loop->step < 0 ? -lf.step : lf.step;
  double before = (o.source - lf.first) / double(signedStep);
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

} // namespace

ComputationCost statementComputation(const StatementFacts &sf,
                                     const LayoutView &lv, const Machine &m,
                                     const ComputationOptions &opts) {
  ComputationCost c;
  c.instance = instanceTime(sf.stmt->ops, m);
  int loops = int(sf.loops.size());
  std::vector<char> frozen(loops, 0); // 1: sequential (C = n), 2: counted with an inner loop (C = 1)
  const ArrayDist *lhs = sf.hasLhs ? &lv.arrays[sf.lhs.array] : nullptr;
  double product = 1;
  for (int l = loops - 1; l >= 0; --l) {
    const LoopFacts &lf = sf.loops[l];
    double C = lf.trips;
    // A loop sequential only through arrays the statement references
    // (StatementFacts::sequentialThrough) is divided over a mesh dimension
    // along which none of them is distributed: the processors there hold the
    // same part of them and each runs its writes itself.
    const std::vector<int> &through = sf.sequentialThrough[size_t(l)];
    bool whole = false;
    for (size_t k = 0; lhs && !sf.parallel[l] && !through.empty() && k < sf.lhs.subs.size(); ++k)
      whole = whole || (sf.lhs.subs[k].varLevel == l + 1 && lhs->dims[k].onMesh() &&
                        wholeAlong(through, lhs->dims[k].meshDim, lv));
    if (frozen[l] == 2) {
      C = 1; // counted in the inner loop's jointIterations
    } else if (!frozen[l] && (sf.parallel[l] || whole)) {
      double best = -1;
      const SubscriptForm *bestJoint = nullptr; // best counted by jointIterations
      auto consider = [&](const RefFacts &ref, const ArrayDist &ad) {
        for (size_t k = 0; k < ref.subs.size(); ++k) {
          const SubscriptForm &g = ref.subs[k];
          if (g.varLevel != l + 1)
            continue;
          if (!sf.parallel[l] && !wholeAlong(through, ad.dims[k].meshDim, lv))
            continue;
          std::optional<double> joint;
          if (g.cls == SubscriptClass::Multiple && opts.exactOwners && ad.dims[k].procs > 1)
            joint = jointIterations(g, ad.dims[k], sf);
          if (g.cls == SubscriptClass::Multiple) // freeze the outer indices
            for (const auto &[pos, alpha] : g.terms)
              if (pos < l)
                frozen[pos] = std::max<char>(frozen[pos], 1);
          double ck = joint ? *joint : contribution(g, ad.dims[k], lf, l, opts);
          if (best < 0 || ck < best) {
            best = ck;
            bestJoint = joint ? &g : nullptr;
          }
        }
      };
      // A reduction into an array element forms its instances where its home
      // operand lives (model/Reduction.h): its distribution divides them.
      const RefFacts *home = sf.hasHome ? &sf.home : nullptr;
      if (home && lv.arrays[home->array].distributed())
        consider(*home, lv.arrays[home->array]);
      else if (lhs)
        consider(sf.lhs, *lhs);
      else if (sf.scalarReduction && opts.parallelReductions)
        for (const auto &r : sf.rhs)
          consider(r.ref, lv.arrays[r.ref.array]);
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
      double parallel = contribution(g, d, lf, l, opts);
      if (sf.overlap.kind == OverlapFacts::OneToMany) {
        double split = oneToMany(sf.overlap, g, d, lf);
        C = split < 0 ? parallel : std::min(C, split);
      } else if (procsOf(d) > 1) {
        C = std::max(parallel,
                     lf.trips - constantOverlap(sf.overlap, g, d, lf));
      }
    }
    product *= C;
  }
  c.iterations = sf.rho * product;
  c.seconds = c.iterations * c.instance;
  return c;
}

} // namespace dlayout::cost
