//===- solver/AffinityGraph.cpp - Component affinity graph, Li-Chen merge --===//
#include "solver/AffinityGraph.h"

#include "solver/AlignmentCut.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>

namespace dlayout::solver {

void AffinityGraph::addEdge(CagNode x, CagNode y, double w, const SourceLoc &loc) {
  if (y < x) std::swap(x, y);
  auto &e = edges[{x, y}];
  e.a = x, e.b = y;
  e.weight += w;
  if (w > e.strongest || !e.loc.known()) {
    if (w >= e.strongest) e.strongest = w, e.loc = loc;
  }
}

double AffinityGraph::weight(CagNode x, CagNode y) const {
  if (y < x) std::swap(x, y);
  auto it = edges.find({x, y});
  return it == edges.end() ? 0 : it->second.weight;
}

namespace {

/// An array dimension put on a mesh dimension by the driver, and the stride
/// of its subscript in the loop the pair varies in (0: none is known).
struct Placed {
  int dim, meshDim;
  int64_t stride;
};
using Placement = std::map<int, std::vector<Placed>>; // by array

/// The default layout of section 5.1.2, for `arrays` (what the statement being
/// measured touches), with `placed` dimensions put on mesh dimensions
/// explicitly: every other array has dims 0 and 1 on mesh 0 and 1, blocked.
/// Placed dimensions on one mesh dimension share one distribution function
/// over the iterations of their loop (Eq. 2.1 on a template): iteration t is
/// on the same processor in each, so a dimension of stride s gets blocks of
/// s * ceil(T / N), T the most iterations any of them spans. Where the
/// strides are in the ratio of the extents that is every array's own
/// BLOCK; where they are not (a vector of 8 beside one of 69,696, both with
/// stride 1) the shorter gets the template's blocks, so that being aligned
/// keeps element i of each together.
Layout defaultLayout(const Program &p, const std::vector<int64_t> &mesh,
                     const Placement &placed, const std::vector<int> &arrays) {
  Layout l;
  l.mesh = mesh;
  auto extent = [&](int a, int dim) {
    return std::max<int64_t>(1, p.arrays[size_t(a)].dims[size_t(dim)].extent);
  };
  auto ceilDiv = [](int64_t x, int64_t y) { return (x + y - 1) / y; };
  std::vector<int64_t> span(mesh.size(), 0); // T per mesh dimension
  for (auto &[a, dims] : placed)
    for (const Placed &d : dims)
      if (d.stride > 0)
        span[size_t(d.meshDim)] =
            std::max(span[size_t(d.meshDim)], ceilDiv(extent(a, d.dim), d.stride));
  for (int a : arrays) {
    ArrayLayout al;
    al.dims.resize(p.arrays[size_t(a)].dims.size());
    auto it = placed.find(a);
    if (it == placed.end()) {
      for (size_t d = 0; d < al.dims.size() && d < mesh.size(); ++d)
        al.dims[d].kind = DistKind::Block, al.dims[d].meshDim = int(d);
      l.arrays[p.arrays[size_t(a)].name] = al;
      continue;
    }
    for (const Placed &d : it->second) {
      DimLayout &dl = al.dims[size_t(d.dim)];
      dl.kind = DistKind::Block, dl.meshDim = d.meshDim;
      int64_t n = mesh[size_t(d.meshDim)];
      if (d.stride <= 0 || n <= 1) continue;
      int64_t b = d.stride * ceilDiv(span[size_t(d.meshDim)], n);
      if (b != ceilDiv(extent(a, d.dim), n)) dl.kind = DistKind::BlockCyclic, dl.block = b;
    }
    l.arrays[p.arrays[size_t(a)].name] = al;
  }
  return l;
}

int otherDim(int ndims, std::initializer_list<int> used) {
  for (int d = 0; d < ndims; ++d)
    if (std::find(used.begin(), used.end(), d) == used.end()) return d;
  return -1;
}

} // namespace

Result<AffinityGraph> buildAffinityGraph(SolverContext &ctx, int classes) {
  const Program &p = ctx.program;
  AffinityGraph g;
  for (auto &arr : p.arrays) g.dims.push_back(int(arr.dims.size()));
  if (classes < 2) return g; // one class: nothing to decide
  auto mesh = balancedShape(ctx.procs, 2);

  for (const auto &sf : ctx.facts.statements) {
    if (!sf.hasLhs) continue;
    const std::vector<int> arrays = ctx.statementArrays(sf);
    for (const auto &rf : sf.rhs) {
      // The reference whose owners run the instances: the lhs, or for an
      // operand brought to the home of a reduction into an array element,
      // the home (model/Reduction.h).
      const cost::RefFacts &T =
          rf.toHome && sf.hasHome ? sf.home : sf.lhs;
      int A = arrayIndex(p, ctx.facts.arrays[T.array]);
      int B = arrayIndex(p, ctx.facts.arrays[rf.ref.array]);
      if (A < 0 || B < 0 || A == B) continue;
      // Detector: single-index pairs with the same variation level.
      std::vector<std::pair<int, int>> primary;
      std::vector<bool> usedB(rf.ref.subs.size(), false);
      for (size_t i = 0; i < T.subs.size(); ++i) {
        const auto &si = T.subs[i];
        if (!si.singleIndex()) continue;
        for (size_t j = 0; j < rf.ref.subs.size(); ++j) {
          const auto &sj = rf.ref.subs[j];
          if (usedB[j] || !sj.singleIndex() || sj.varLevel != si.varLevel)
            continue;
          usedB[j] = true;
          primary.push_back({int(i), int(j)});
          break;
        }
      }
      const SourceLoc loc = rf.ref.ref && rf.ref.ref->loc.known() ? rf.ref.ref->loc
                                                                 : sf.stmt->loc;
      // Driver: two primary pairs at a time (section 5.1.2).
      for (size_t k = 0; k < primary.size(); k += 2) {
        int nA = g.dims[A], nB = g.dims[B];
        auto [i1, j1] = primary[k];
        std::vector<std::pair<int, int>> pairs = {primary[k]};
        int i2 = -1, j2 = -1;
        if (k + 1 < primary.size()) {
          std::tie(i2, j2) = primary[k + 1];
          pairs.push_back(primary[k + 1]);
        } else {
          i2 = otherDim(nA, {i1}), j2 = otherDim(nB, {j1}); // secondary pair
        }
        // Strides of the primary pairs' subscripts; a secondary pair has none.
        bool second = pairs.size() > 1;
        auto strideA = [&](int i) {
          return std::abs(T.subs[size_t(i)].alphaAt(T.subs[size_t(i)].innermost()));
        };
        auto strideB = [&](int j) {
          return std::abs(rf.ref.subs[size_t(j)].alphaAt(rf.ref.subs[size_t(j)].innermost()));
        };
        int64_t sA2 = second ? strideA(i2) : 0, sB2 = second ? strideB(j2) : 0;
        Placement t1, t2; // aligned as the pairs say; crossed
        t1[A].push_back({i1, 0, strideA(i1)});
        if (i2 >= 0) t1[A].push_back({i2, 1, sA2});
        t2[A] = t1[A];
        t1[B].push_back({j1, 0, strideB(j1)});
        t2[B].push_back({j1, 1, strideB(j1)});
        if (j2 >= 0) t1[B].push_back({j2, 1, sB2}), t2[B].push_back({j2, 0, sB2});
        const std::string &bname = p.arrays[B].name;
        auto c1 = ctx.statementSeconds(defaultLayout(p, mesh, t1, arrays), sf.stmt->id, bname);
        if (!c1) return c1.error();
        auto c2 = ctx.statementSeconds(defaultLayout(p, mesh, t2, arrays), sf.stmt->id, bname);
        if (!c2) return c2.error();
        double q = std::max(0.0, *c2 - *c1) / double(pairs.size());
        for (auto [i, j] : pairs) g.addEdge({A, i}, {B, j}, q, loc);
      }
    }
  }
  return g;
}

std::vector<std::vector<int>> liChenPartition(const AffinityGraph &g, int classes) {
  size_t n = g.dims.size();
  std::vector<std::vector<int>> align(n);
  for (size_t a = 0; a < n; ++a) align[a].assign(g.dims[a], -1);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return g.dims[x] > g.dims[y]; });
  std::vector<int> classOf(classes);
  std::iota(classOf.begin(), classOf.end(), 0);
  std::vector<int> assigned; // arrays merged so far
  for (int a : order) {
    int nd = std::min(g.dims[a], classes);
    // Exhaustive matching of column a into the merged column.
    std::vector<int> perm(classes), best;
    std::iota(perm.begin(), perm.end(), 0);
    double bestScore = -1;
    do {
      double score = 0;
      for (int d = 0; d < nd; ++d)
        for (int b : assigned)
          for (int e = 0; e < g.dims[b]; ++e)
            if (align[b][e] == perm[d]) score += g.weight({a, d}, {b, e});
      if (score > bestScore + 1e-15) bestScore = score, best = perm;
    } while (std::next_permutation(perm.begin(), perm.end()));
    for (int d = 0; d < nd; ++d) align[a][d] = best[d];
    assigned.push_back(a);
  }
  return align;
}

double cutWeight(const AffinityGraph &g, const std::vector<std::vector<int>> &align) {
  double w = 0;
  for (const auto &[key, e] : g.edges)
    if (align[e.a.array][e.a.dim] != align[e.b.array][e.b.dim]) w += e.weight;
  return w;
}

Status alignPass(SolverContext &ctx, Plan &plan, const AlignOptions &opts,
                 AlignmentChoice *choice, AffinityGraph *out) {
  auto g = buildAffinityGraph(ctx, plan.classes);
  if (!g) return g.error();
  AlignmentChoice ch = chooseAlignment(*g, plan.classes, opts.timeLimitSeconds, opts.exact, opts.solver);
  plan.align = ch.align;
  const Program &p = ctx.program;
  if (ch.method == "exact")
    ctx.constraints.push_back(
        {"alignment", {}, ch.liChenCut - ch.exactCut, {},
         fmt::format("the exact minimum cut of the component affinity graph ({:.4g} s{}) "
                     "is below Li-Chen's ({:.4g} s)",
                     ch.exactCut, ch.exactProved ? ", proved" : "", ch.liChenCut)});
  // The edges that decided: the heaviest honoured and every dishonoured one.
  std::vector<const CagEdge *> edges;
  for (const auto &[key, e] : g->edges)
    if (e.weight > 0) edges.push_back(&e);
  std::sort(edges.begin(), edges.end(),
            [](auto *x, auto *y) { return x->weight > y->weight; });
  int shown = 0;
  for (const CagEdge *e : edges) {
    bool honoured = plan.align[e->a.array][e->a.dim] == plan.align[e->b.array][e->b.dim];
    if (honoured && shown >= 4) continue;
    shown += honoured;
    DecisiveConstraint c;
    c.kind = "alignment";
    c.arrays = {p.arrays[e->a.array].name, p.arrays[e->b.array].name};
    c.qualitySeconds = e->weight;
    c.loc = e->loc;
    c.detail = p.arrays[e->a.array].name + std::to_string(e->a.dim + 1) + " ~ " +
               p.arrays[e->b.array].name + std::to_string(e->b.dim + 1) +
               (honoured ? " aligned" : " not aligned (conflict lost)");
    ctx.constraints.push_back(c);
  }
  if (out) *out = std::move(*g);
  if (choice) *choice = std::move(ch);
  return success();
}

} // namespace dlayout::solver
