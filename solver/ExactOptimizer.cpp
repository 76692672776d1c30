//===- solver/ExactOptimizer.cpp - Tabulated estimator terms on z3::optimize -===//
#include "solver/ExactOptimizer.h"

#include "solver/Passes.h"

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

namespace dlayout::solver {

namespace {

struct Variable {
  enum Kind { Orient, Kind_, Replicate } kind;
  int array = -1;          // Orient, Replicate
  int cls = -1, crSet = -1; // Kind_
  int options = 2;
};

const DistKind kKinds[] = {DistKind::Block, DistKind::Cyclic, DistKind::BlockCyclic,
                           DistKind::BlockCyclic, DistKind::BlockCyclic};
const int64_t kBlocks[] = {1, 1, 2, 4, 8};

struct Space {
  std::vector<Variable> vars;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<int> cr;

  Plan apply(const Plan &base, const std::vector<int> &sel, int shape) const {
    Plan p = base;
    p.mesh = shapes[shape];
    for (size_t v = 0; v < vars.size(); ++v) {
      const auto &x = vars[v];
      if (x.kind == Variable::Orient && sel[v] == 1) {
        int c0 = p.kept[0], c1 = p.kept[1];
        for (int &c : p.align[x.array])
          c = c == c0 ? c1 : c == c1 ? c0 : c;
      } else if (x.kind == Variable::Replicate) {
        p.replicated[x.array] = sel[v] == 1;
      }
    }
    for (size_t v = 0; v < vars.size(); ++v) {
      const auto &x = vars[v];
      if (x.kind != Variable::Kind_) continue;
      for (size_t a = 0; a < p.align.size(); ++a)
        if (cr[a] == x.crSet) {
          p.kind[a][x.cls] = kKinds[sel[v]];
          p.block[a][x.cls] = kBlocks[sel[v]];
        }
    }
    return p;
  }
};

int kindOption(DistKind k, int64_t block) {
  if (k == DistKind::Cyclic) return 1;
  if (k == DistKind::BlockCyclic) return block <= 2 ? 2 : block <= 4 ? 3 : 4;
  return 0;
}

} // namespace

Result<OptimizerResult> optimiseExactly(SolverContext &ctx, const Plan &heuristic,
                                        const AdviseOptions &opts) {
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  const Program &p = ctx.program;
  OptimizerResult res;
  Space sp;
  sp.cr = crSets(ctx);
  sp.shapes = factorisations(ctx.procs, int(heuristic.kept.size()));
  auto replCand = replicationCandidates(ctx);
  std::vector<int> heurSel;
  int heurShape = 0;
  for (size_t s = 0; s < sp.shapes.size(); ++s)
    if (sp.shapes[s] == heuristic.mesh) heurShape = int(s);

  auto onKept = [&](int a) {
    for (int c : heuristic.align[a])
      if (std::find(heuristic.kept.begin(), heuristic.kept.end(), c) != heuristic.kept.end())
        return true;
    return false;
  };
  for (size_t a = 0; a < p.arrays.size(); ++a)
    if (heuristic.kept.size() >= 2 && onKept(int(a))) {
      sp.vars.push_back({Variable::Orient, int(a), -1, -1, 2});
      heurSel.push_back(0);
    }
  for (int c : heuristic.kept) {
    std::set<int> sets;
    for (size_t a = 0; a < p.arrays.size(); ++a)
      if (onKept(int(a))) sets.insert(sp.cr[a]);
    for (int r : sets) {
      sp.vars.push_back({Variable::Kind_, -1, c, r, 5});
      int first = -1;
      for (size_t a = 0; a < p.arrays.size() && first < 0; ++a)
        if (sp.cr[a] == r) first = int(a);
      heurSel.push_back(kindOption(heuristic.kind[first][c], heuristic.block[first][c]));
    }
  }
  for (size_t a = 0; a < p.arrays.size(); ++a)
    if (replCand[a]) {
      sp.vars.push_back({Variable::Replicate, int(a), -1, -1, 2});
      heurSel.push_back(heuristic.replicated[a] ? 1 : 0);
    }

  double combos = 1;
  for (auto &v : sp.vars) combos *= v.options;
  res.combinations = size_t(std::min(combos, 1e18));
  bool table = combos * double(sp.shapes.size()) <= double(opts.tableLimit);
  res.method = table ? "table" : "pairwise";

  auto cost = [&](const std::vector<int> &sel, int shape) -> Result<double> {
    return ctx.seconds(toLayout(p, sp.apply(heuristic, sel, shape)));
  };

  z3::context z;
  z3::optimize opt(z);
  std::vector<z3::expr> sel;
  for (size_t v = 0; v < sp.vars.size(); ++v) {
    sel.push_back(z.int_const(("x" + std::to_string(v)).c_str()));
    opt.add(sel.back() >= 0 && sel.back() < sp.vars[v].options);
  }
  z3::expr shape = z.int_const("shape");
  opt.add(shape >= 0 && shape < int(sp.shapes.size()));
  auto ns = [&](double s) { return z.int_val(int64_t(std::llround(s * 1e9))); };
  z3::expr objective = z.int_val(0);

  if (table) {
    z3::expr costVar = z.int_const("cost");
    for (size_t s = 0; s < sp.shapes.size(); ++s) {
      std::vector<int> cur(sp.vars.size(), 0);
      while (true) {
        auto c = cost(cur, int(s));
        if (!c) return c.error();
        z3::expr cond = shape == int(s);
        for (size_t v = 0; v < cur.size(); ++v) cond = cond && sel[v] == cur[v];
        opt.add(z3::implies(cond, costVar == ns(*c)));
        size_t v = 0;
        for (; v < cur.size(); ++v) {
          if (++cur[v] < sp.vars[v].options) break;
          cur[v] = 0;
        }
        if (v == cur.size()) break;
      }
    }
    objective = costVar;
  } else {
    for (size_t s = 0; s < sp.shapes.size(); ++s) {
      std::vector<int> ref(sp.vars.size(), 0);
      auto base = cost(ref, int(s));
      if (!base) return base.error();
      std::vector<std::vector<double>> u(sp.vars.size());
      z3::expr term = ns(*base);
      for (size_t v = 0; v < sp.vars.size(); ++v) {
        u[v].assign(sp.vars[v].options, 0);
        for (int o = 1; o < sp.vars[v].options; ++o) {
          auto t = ref;
          t[v] = o;
          auto c = cost(t, int(s));
          if (!c) return c.error();
          u[v][o] = *c - *base;
          term = term + z3::ite(sel[v] == o, ns(u[v][o]), z.int_val(0));
        }
      }
      for (size_t v = 0; v < sp.vars.size(); ++v)
        for (size_t w = v + 1; w < sp.vars.size(); ++w)
          for (int o = 1; o < sp.vars[v].options; ++o)
            for (int q = 1; q < sp.vars[w].options; ++q) {
              if (elapsed() > opts.timeLimitSeconds) { res.timedOut = true; break; }
              auto t = ref;
              t[v] = o, t[w] = q;
              auto c = cost(t, int(s));
              if (!c) return c.error();
              double pair = *c - *base - u[v][o] - u[w][q];
              if (std::abs(pair) > 1e-12 * std::max(1.0, *base))
                term = term + z3::ite(sel[v] == o && sel[w] == q, ns(pair), z.int_val(0));
            }
      objective = objective + z3::ite(shape == int(s), term, z.int_val(0));
    }
  }
  opt.minimize(objective);

  std::set<std::string> seen;
  auto record = [&](const std::vector<int> &s, int shapeIdx, const char *origin) -> Status {
    Layout l = toLayout(p, sp.apply(heuristic, s, shapeIdx));
    auto key = layoutKey(l);
    if (!seen.insert(key).second) return success();
    auto c = ctx.seconds(l);
    if (!c) return c.error();
    res.found.push_back({l, *c, origin});
    return success();
  };
  // The heuristic's point in this space (warm start and the guarantee).
  if (auto s = record(heurSel, heurShape, "heuristic"); !s) return s.error();

  unsigned wanted = opts.alternatives + 1;
  for (unsigned n = 0; n < wanted; ++n) {
    double left = opts.timeLimitSeconds - elapsed();
    if (left <= 0.01) { res.timedOut = true; break; }
    z3::params prm(z);
    prm.set("timeout", unsigned(left * 1000));
    opt.set(prm);
    auto r = opt.check();
    if (r != z3::sat) {
      if (r == z3::unknown) res.timedOut = true;
      break;
    }
    if (n == 0) res.proved = table;
    z3::model m = opt.get_model();
    std::vector<int> s(sp.vars.size());
    z3::expr differs = m.eval(shape, true) != shape;
    for (size_t v = 0; v < s.size(); ++v) {
      s[v] = m.eval(sel[v], true).get_numeral_int();
      differs = differs || sel[v] != s[v];
    }
    int sh = m.eval(shape, true).get_numeral_int();
    if (auto st = record(s, sh, "optimiser"); !st) return st.error();
    opt.add(differs);
  }
  std::stable_sort(res.found.begin(), res.found.end(),
                   [](auto &a, auto &b) { return a.seconds < b.seconds; });
  return res;
}

} // namespace dlayout::solver
