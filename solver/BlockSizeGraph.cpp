//===- solver/BlockSizeGraph.cpp - BCG, maximum spanning tree, Theorem 5.1 -===//
#include "solver/BlockSizeGraph.h"

#include "solver/Passes.h"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>
#include <set>

namespace dlayout::solver {

void BlockSizeGraph::addConstraint(BcgNode x, int64_t wx, BcgNode y, int64_t wy,
                                   double weight, const SourceLoc &loc,
                                   const std::string &statement) {
  if (y < x) std::swap(x, y), std::swap(wx, wy);
  for (auto &e : edges) {
    if (e.x != x || e.y != y || e.wx * wy != e.wy * wx) continue;
    // Same ratio (section 5.3.2): coefficients lcm(w1°, w1ⁿ) and
    // w2° * lcm / w1°, weights added.
    int64_t l = std::lcm(e.wx, wx);
    e.wy = e.wy * (l / e.wx);
    e.wx = l;
    if (weight > e.weight || !e.loc.known()) e.loc = loc, e.statement = statement;
    e.weight += weight;
    return;
  }
  edges.push_back({x, y, wx, wy, weight, loc, statement}); // another ratio: parallel
}

std::vector<BcgNode> BlockSizeGraph::nodes() const {
  std::set<BcgNode> s;
  for (auto &e : edges) s.insert(e.x), s.insert(e.y);
  return {s.begin(), s.end()};
}

bool honours(const BcgEdge &e, int64_t bx, int64_t by) {
  return bx > 0 && by > 0 && bx % e.wx == 0 && by % e.wy == 0 && bx / e.wx == by / e.wy;
}

BlockSizeSolution solveBlockSizes(const BlockSizeGraph &g) {
  BlockSizeSolution sol;
  // Parallel edges (direct conflicts): only the heaviest stays.
  std::map<std::pair<BcgNode, BcgNode>, size_t> heaviest;
  for (size_t i = 0; i < g.edges.size(); ++i) {
    auto key = std::make_pair(g.edges[i].x, g.edges[i].y);
    auto it = heaviest.find(key);
    if (it == heaviest.end()) heaviest[key] = i;
    else if (g.edges[i].weight > g.edges[it->second].weight) {
      sol.dropped.push_back(it->second);
      it->second = i;
    } else {
      sol.dropped.push_back(i);
    }
  }
  std::vector<size_t> kept;
  for (auto &[key, i] : heaviest) kept.push_back(i);
  auto nodes = g.nodes();
  std::set<BcgNode> inTree;
  std::set<size_t> used;
  for (const BcgNode &start : nodes) {
    if (inTree.count(start)) continue;
    // Prim's algorithm with the comparison reversed: a maximum-weight
    // spanning tree of start's component (section 5.3.3).
    inTree.insert(start);
    std::vector<size_t> order; // tree edges of this component, Prim's order
    while (true) {
      long best = -1;
      for (size_t i : kept) {
        const auto &e = g.edges[i];
        if (used.count(i) || inTree.count(e.x) == inTree.count(e.y)) continue;
        if (best < 0 || e.weight > g.edges[size_t(best)].weight) best = long(i);
      }
      if (best < 0) break;
      const auto &e = g.edges[size_t(best)];
      inTree.insert(e.x), inTree.insert(e.y);
      used.insert(size_t(best));
      order.push_back(size_t(best));
    }
    // Theorem 5.1's construction: the root takes its coefficient on its first
    // edge; each later node v, reached from its tree parent p (block b1;
    // coefficients w1 of p and w2 of v on the edge), gets b1 * w2 / w1 when
    // w1 divides b1, else every node placed so far is scaled by
    // lcm(b1, w1) / b1 first (see the header for this reading).
    sol.block[start] = 1;
    if (!order.empty()) {
      const auto &first = g.edges[order.front()];
      sol.block[start] = first.x == start ? first.wx : first.wy;
    }
    std::vector<BcgNode> placed = {start};
    for (size_t i : order) {
      const auto &e = g.edges[i];
      bool xPlaced = std::find(placed.begin(), placed.end(), e.x) != placed.end();
      BcgNode p = xPlaced ? e.x : e.y, v = xPlaced ? e.y : e.x;
      int64_t w1 = xPlaced ? e.wx : e.wy, w2 = xPlaced ? e.wy : e.wx;
      int64_t b1 = sol.block[p];
      if (b1 % w1 != 0) {
        int64_t scale = std::lcm(b1, w1) / b1;
        for (const BcgNode &q : placed) sol.block[q] *= scale;
        b1 = sol.block[p];
      }
      sol.block[v] = b1 / w1 * w2;
      placed.push_back(v);
    }
    sol.tree.insert(sol.tree.end(), order.begin(), order.end());
  }
  for (size_t i : kept)
    if (!used.count(i)) sol.dropped.push_back(i); // off the tree: in a cycle
  std::sort(sol.dropped.begin(), sol.dropped.end());
  return sol;
}

namespace {

bool distributedCyclic(const Plan &plan, int a, int c) {
  if (c < 0) return false;
  for (size_t k = 0; k < plan.kept.size(); ++k)
    if (plan.kept[k] == c) return plan.mesh[k] > 1 && plan.kind[a][c] == DistKind::Cyclic;
  return false;
}

/// Cyclic(b): block-cyclic with blocks of b, cyclic when b is 1.
void setBlock(DimLayout &d, int64_t b) {
  d.kind = b > 1 ? DistKind::BlockCyclic : DistKind::Cyclic;
  d.block = b > 1 ? b : 0;
}
void setBlock(Plan &plan, int a, int c, int64_t b) {
  plan.kind[a][c] = b > 1 ? DistKind::BlockCyclic : DistKind::Cyclic;
  plan.block[a][c] = b > 1 ? b : 1;
}

} // namespace

Result<BlockSizeGraph> buildBlockSizeGraph(SolverContext &ctx, const Plan &plan) {
  const Program &p = ctx.program;
  BlockSizeGraph g;
  Plan base = plan;
  setDefaultMesh(ctx, base);
  for (const auto &sf : ctx.facts.statements) {
    if (!sf.hasLhs) continue;
    // The statement's arrays under the base plan; each constraint changes
    // two of their dimensions' blocks.
    const Layout local = toLayout(p, base, ctx.statementArrays(sf));
    int A = arrayIndex(p, ctx.facts.arrays[sf.lhs.array]);
    for (const auto &rf : sf.rhs) {
      int B = arrayIndex(p, ctx.facts.arrays[rf.ref.array]);
      if (A < 0 || B < 0 || A == B) continue; // different arrays only (5.3.1)
      const SourceLoc loc = rf.ref.ref && rf.ref.ref->loc.known() ? rf.ref.ref->loc
                                                                 : sf.stmt->loc;
      for (size_t i = 0; i < sf.lhs.subs.size() && i < base.align[A].size(); ++i) {
        int c = base.align[A][i];
        if (!distributedCyclic(base, A, c)) continue;
        for (size_t j = 0; j < rf.ref.subs.size() && j < base.align[B].size(); ++j) {
          if (base.align[B][j] != c || !distributedCyclic(base, B, c)) continue;
          const auto &si = sf.lhs.subs[i], &sj = rf.ref.subs[j];
          if (si.cls != SubscriptClass::Single || sj.cls != SubscriptClass::Single ||
              si.varLevel != sj.varLevel || si.varLevel <= 0)
            continue;
          int64_t w1 = std::abs(si.alphaAt(si.innermost()));
          int64_t w2 = std::abs(sj.alphaAt(sj.innermost()));
          if (w1 == 0 || w2 == 0) continue;
          // Driver: honoured (w1, w2) against not honoured (5.3.2).
          const std::string &aname = p.arrays[A].name, &bname = p.arrays[B].name;
          auto blocks = [&](int64_t bA, int64_t bB) {
            Layout l = local;
            setBlock(l.arrays.at(aname).dims.at(i), bA);
            setBlock(l.arrays.at(bname).dims.at(j), bB);
            return l;
          };
          auto t1 = ctx.statementSeconds(blocks(w1, w2), sf.stmt->id, bname);
          if (!t1) return t1.error();
          auto t2 = ctx.statementSeconds(blocks(1, w1 == 1 && w2 == 1 ? 2 : 1), sf.stmt->id, bname);
          if (!t2) return t2.error();
          double q = *t2 - *t1;
          if (q > 0) g.addConstraint({A, int(i)}, w1, {B, int(j)}, w2, q, loc, sf.stmt->id);
        }
      }
    }
  }
  return g;
}

Status blockSizePass(SolverContext &ctx, Plan &plan, BlockSizeGraph *graph,
                     BlockSizeSolution *solution) {
  const Program &p = ctx.program;
  auto g = buildBlockSizeGraph(ctx, plan);
  if (!g) return g.error();
  auto sol = solveBlockSizes(*g);
  for (auto &[node, b] : sol.block)
    if (plan.align[node.array][node.dim] >= 0)
      setBlock(plan, node.array, plan.align[node.array][node.dim], b);
  auto name = [&](const BcgNode &n) {
    return p.arrays[n.array].name + std::to_string(n.dim + 1);
  };
  // Decisive: tree edges that made a block larger than 1, and constraints
  // lost to a conflict (a dropped edge the blocks do not satisfy anyway).
  for (size_t i : sol.tree) {
    const auto &e = g->edges[i];
    int64_t bx = sol.block[e.x], by = sol.block[e.y];
    if (bx == 1 && by == 1) continue;
    ctx.constraints.push_back(
        {"block-size",
         {p.arrays[e.x.array].name, p.arrays[e.y.array].name},
         e.weight,
         e.loc,
         fmt::format("blocks {}:{} = {}:{} (Theorem 5.1), {} block {}, {} block {}", e.wx,
                     e.wy, name(e.x), name(e.y), name(e.x), bx, name(e.y), by)});
  }
  for (size_t i : sol.dropped) {
    const auto &e = g->edges[i];
    if (honours(e, sol.block[e.x], sol.block[e.y])) continue;
    ctx.constraints.push_back(
        {"block-size",
         {p.arrays[e.x.array].name, p.arrays[e.y.array].name},
         e.weight,
         e.loc,
         fmt::format("blocks {}:{} = {}:{} not honoured (conflict lost to heavier constraints)",
                     name(e.x), name(e.y), e.wx, e.wy)});
  }
  if (graph) *graph = std::move(*g);
  if (solution) *solution = std::move(sol);
  return success();
}

} // namespace dlayout::solver
