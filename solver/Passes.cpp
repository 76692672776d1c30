//===- solver/Passes.cpp - block-cyclic, block-size, num-procs, replication -===//
#include "solver/Passes.h"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>
#include <set>

namespace dlayout::solver {

std::vector<std::vector<bool>> dimensionParallelism(const SolverContext &ctx) {
  const Program &p = ctx.program;
  std::vector<std::vector<bool>> par(p.arrays.size());
  for (size_t a = 0; a < p.arrays.size(); ++a) par[a].assign(p.arrays[a].dims.size(), false);
  for (const auto &sf : ctx.facts.statements) {
    if (!sf.hasLhs) continue;
    int A = arrayIndex(p, ctx.facts.arrays[sf.lhs.array]);
    if (A < 0) continue;
    for (size_t d = 0; d < sf.lhs.subs.size() && d < par[A].size(); ++d) {
      const auto &s = sf.lhs.subs[d];
      if (s.cls != SubscriptClass::Single || s.terms.empty()) continue;
      int pos = s.terms.front().first;
      if (pos >= 0 && size_t(pos) < sf.parallel.size() && sf.parallel[pos]) par[A][d] = true;
    }
  }
  return par;
}

std::vector<int> parallelClasses(const SolverContext &ctx, const Plan &plan) {
  auto par = dimensionParallelism(ctx);
  std::vector<bool> has(plan.classes, false);
  for (size_t a = 0; a < plan.align.size(); ++a)
    for (size_t d = 0; d < plan.align[a].size(); ++d)
      if (plan.align[a][d] >= 0 && par[a][d]) has[plan.align[a][d]] = true;
  std::vector<int> out;
  for (int c = 0; c < plan.classes; ++c)
    if (has[c]) out.push_back(c);
  return out;
}

std::vector<int> crSets(const SolverContext &ctx) {
  const Program &p = ctx.program;
  std::vector<int> parent(p.arrays.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const auto &sf : ctx.facts.statements) {
    if (!sf.hasLhs) continue;
    int A = arrayIndex(p, ctx.facts.arrays[sf.lhs.array]);
    for (const auto &rf : sf.rhs) {
      int B = arrayIndex(p, ctx.facts.arrays[rf.ref.array]);
      if (A >= 0 && B >= 0) parent[find(A)] = find(B);
    }
  }
  std::vector<int> out(p.arrays.size());
  for (size_t a = 0; a < out.size(); ++a) out[a] = find(int(a));
  return out;
}

void setDefaultMesh(const SolverContext &ctx, Plan &plan) {
  if (plan.kept.empty()) plan.kept = {0};
  // Section 5.1.2: the processors spread evenly over the distributed
  // dimensions (at most two are distributed at a time).
  int parts = std::min<int>(int(plan.kept.size()), 2);
  auto shape = balancedShape(ctx.procs, parts);
  plan.mesh.assign(plan.kept.size(), 1);
  for (int k = 0; k < parts; ++k) plan.mesh[k] = shape[k];
}

namespace {

struct TermSums {
  std::map<std::pair<std::string, int>, double> bySt; // (stmt, kind) -> seconds
  std::map<std::string, SourceLoc> loc;
};

TermSums sums(const Estimate &e) {
  TermSums s;
  for (const auto &t : e.terms) {
    s.bySt[{t.statement, int(t.kind)}] += t.seconds;
    if (!s.loc.count(t.statement)) s.loc[t.statement] = t.loc;
  }
  return s;
}

bool inClass(const Plan &plan, int a, int c) {
  return std::find(plan.align[a].begin(), plan.align[a].end(), c) != plan.align[a].end();
}

} // namespace

Result<std::vector<BlockCyclicDecision>> blockCyclicPass(SolverContext &ctx, Plan &plan) {
  const Program &p = ctx.program;
  auto cr = crSets(ctx);
  std::vector<BlockCyclicDecision> out;
  Plan base = plan;
  setDefaultMesh(ctx, base);
  for (size_t k = 0; k < base.kept.size(); ++k) {
    if (base.mesh[k] <= 1) continue; // not distributed by default: stays blocked
    int c = base.kept[k];
    std::vector<int> sets;
    for (size_t a = 0; a < p.arrays.size(); ++a)
      if (inClass(base, int(a), c) && std::find(sets.begin(), sets.end(), cr[a]) == sets.end())
        sets.push_back(cr[a]);
    for (int r : sets) {
      Plan blk = base, cyc = base;
      for (size_t a = 0; a < p.arrays.size(); ++a)
        if (cr[a] == r && inClass(base, int(a), c))
          blk.kind[a][c] = DistKind::Block, cyc.kind[a][c] = DistKind::Cyclic;
      auto eb = ctx.evaluate(toLayout(p, blk));
      if (!eb) return eb.error();
      auto ec = ctx.evaluate(toLayout(p, cyc));
      if (!ec) return ec.error();
      auto sb = sums(**eb), sc = sums(**ec);
      std::set<std::pair<std::string, int>> keys;
      for (auto &[key, v] : sb.bySt) keys.insert(key);
      for (auto &[key, v] : sc.bySt) keys.insert(key);
      BlockCyclicDecision dec{c, r};
      DecisiveConstraint bestB, bestC;
      for (const auto &key : keys) {
        double diff = sb.bySt[key] - sc.bySt[key]; // > 0: cyclic is cheaper
        SourceLoc loc = sb.loc.count(key.first) ? sb.loc[key.first] : sc.loc[key.first];
        if (diff > 0) {
          dec.cyclicQuality += diff;
          if (diff > bestC.qualitySeconds) bestC.qualitySeconds = diff, bestC.loc = loc,
                                           bestC.detail = key.first;
        } else if (diff < 0) {
          dec.blockedQuality -= diff;
          if (-diff > bestB.qualitySeconds) bestB.qualitySeconds = -diff, bestB.loc = loc,
                                            bestB.detail = key.first;
        }
      }
      // Section 5.2.3: the larger sum wins, ties go to blocked.
      dec.cyclic = dec.cyclicQuality > dec.blockedQuality;
      std::vector<std::string> names;
      for (size_t a = 0; a < p.arrays.size(); ++a)
        if (cr[a] == r && inClass(base, int(a), c)) {
          names.push_back(p.arrays[a].name);
          plan.kind[a][c] = dec.cyclic ? DistKind::Cyclic : DistKind::Block;
        }
      DecisiveConstraint win = dec.cyclic ? bestC : bestB;
      if (win.qualitySeconds > 0) {
        win.kind = dec.cyclic ? "cyclic" : "blocked";
        win.arrays = names;
        win.detail = fmt::format(
            "mesh dimension class {}: {} constraints sum {:.4g} s against {:.4g} s; "
            "strongest in statement {}",
            c + 1, dec.cyclic ? "cyclic" : "blocked",
            dec.cyclic ? dec.cyclicQuality : dec.blockedQuality,
            dec.cyclic ? dec.blockedQuality : dec.cyclicQuality, win.detail);
        ctx.constraints.push_back(win);
      }
      out.push_back(dec);
    }
  }
  return out;
}

/// A layout of q processors on f times as many: one mesh dimension grows by
/// f, and every array dimension blocked on it keeps its blocks (block-cyclic
/// with the blocks of the smaller mesh), so the same q processors hold the
/// data and the others none. nullopt where every mesh dimension holds a
/// dimension that is not blocked (its cycle would change).
static std::optional<Layout> embedOnMore(const Program &p, Layout l, int64_t f) {
  for (size_t m = 0; m < l.mesh.size(); ++m) {
    bool blocked = true;
    for (const auto &[name, al] : l.arrays)
      for (const DimLayout &d : al.dims)
        blocked = blocked && (int(m) != d.meshDim || d.kind == DistKind::Block);
    if (!blocked)
      continue;
    for (auto &[name, al] : l.arrays) {
      const Array *a = p.findArray(name);
      for (size_t k = 0; a && k < al.dims.size() && k < a->dims.size(); ++k)
        if (al.dims[k].meshDim == int(m)) {
          al.dims[k].kind = DistKind::BlockCyclic;
          al.dims[k].block = (std::max<int64_t>(a->dims[k].extent, 1) + l.mesh[m] - 1) / l.mesh[m];
        }
    }
    l.mesh[m] *= f;
    return l;
  }
  return std::nullopt;
}

Result<std::vector<RankedLayout>> numProcsPass(SolverContext &ctx, Plan &plan) {
  const Program &p = ctx.program;
  std::vector<RankedLayout> all;
  // The plan on each of `shapes`.
  auto layoutsOn = [&](const std::vector<std::vector<int64_t>> &shapes) {
    std::vector<Layout> ls;
    for (auto &shape : shapes) {
      Plan t = plan;
      t.mesh = shape;
      ls.push_back(toLayout(p, t));
    }
    return ls;
  };
  // Every shape of P, estimated side by side; the first fastest kept.
  const auto shapes = factorisations(ctx.procs, int(plan.kept.size()));
  std::vector<Layout> candidates = layoutsOn(shapes);
  auto secs = ctx.seconds(candidates);
  if (!secs) return secs.error();
  double best = 0;
  std::vector<int64_t> bestMesh;
  for (size_t i = 0; i < shapes.size(); ++i) {
    all.push_back({candidates[i], (*secs)[i], "num-procs"});
    if (bestMesh.empty() || (*secs)[i] < best) best = (*secs)[i], bestMesh = shapes[i];
  }
  plan.mesh = bestMesh;
  ctx.constraints.push_back({"mesh", {}, 0, {},
                             fmt::format("mesh {} estimated fastest of {} shapes",
                                         meshString(bestMesh), all.size())});
  // Section 5.4's extension: would fewer processors be faster? The shapes
  // of each divisor q of P, at most 400 in all.
  std::vector<std::vector<int64_t>> fewer;
  std::vector<int64_t> fewerOf;
  size_t budget = 400;
  for (int64_t q = 1; q < ctx.procs && budget > 0; ++q) {
    if (ctx.procs % q) continue;
    for (auto &shape : factorisations(q, int(plan.kept.size()))) {
      if (budget-- == 0) break;
      fewer.push_back(shape);
      fewerOf.push_back(q);
    }
  }
  secs = ctx.seconds(layoutsOn(fewer));
  if (!secs) return secs.error();
  double fewerBest = best;
  std::vector<int64_t> fewerMesh;
  int64_t fewerP = 0;
  for (size_t i = 0; i < fewer.size(); ++i)
    if ((*secs)[i] < fewerBest * (1 - 1e-9))
      fewerBest = (*secs)[i], fewerMesh = fewer[i], fewerP = fewerOf[i];
  if (fewerP) {
    ctx.warnings.push_back(
        {"fewer-processors",
         fmt::format("{} processors (mesh {}) are estimated faster than {}: {:.4g} s "
                     "against {:.4g} s",
                     fewerP, meshString(fewerMesh), ctx.procs, fewerBest, best),
         {}});
    // That layout on the P processors, the others idle: a candidate.
    Plan t = plan;
    t.mesh = fewerMesh;
    if (auto l = embedOnMore(p, toLayout(p, t), ctx.procs / fewerP)) {
      auto s = ctx.seconds(*l);
      if (!s) return s.error();
      all.push_back({*l, *s, "fewer-processors"});
    }
  }
  return all;
}

std::vector<bool> replicationCandidates(const SolverContext &ctx) {
  const Program &p = ctx.program;
  std::vector<bool> written(p.arrays.size(), false), cand(p.arrays.size(), false);
  for (const auto &sf : ctx.facts.statements)
    if (sf.hasLhs) {
      int A = arrayIndex(p, ctx.facts.arrays[sf.lhs.array]);
      if (A >= 0) written[A] = true;
    }
  for (size_t a = 0; a < p.arrays.size(); ++a) {
    int64_t elems = 1;
    for (auto &d : p.arrays[a].dims) elems *= std::max<int64_t>(d.extent, 1);
    // Read-only arrays, and arrays with fewer elements than processors.
    cand[a] = !p.arrays[a].dims.empty() && (!written[a] || elems <= ctx.procs);
  }
  return cand;
}

Status replicationPass(SolverContext &ctx, Plan &plan) {
  const Program &p = ctx.program;
  auto cand = replicationCandidates(ctx);
  for (size_t a = 0; a < p.arrays.size(); ++a) {
    if (!cand[a]) continue;
    auto s0 = ctx.seconds(toLayout(p, plan));
    if (!s0) return s0.error();
    Plan t = plan;
    t.replicated[a] = true;
    auto s1 = ctx.seconds(toLayout(p, t));
    if (!s1) return s1.error();
    if (*s1 < *s0 * (1 - 1e-9)) {
      plan.replicated[a] = true;
      ctx.constraints.push_back({"replication", {p.arrays[a].name}, *s0 - *s1,
                                 p.arrays[a].loc, "replicated: read-only or small"});
    }
  }
  return success();
}

} // namespace dlayout::solver
