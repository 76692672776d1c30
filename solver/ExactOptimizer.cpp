//===- solver/ExactOptimizer.cpp - Separable estimator tables on z3::optimize -===//
#include "solver/ExactOptimizer.h"

#include "costmodels/FetchBound.h"
#include "solver/ParallelFor.h"
#include "solver/Passes.h"
#include "solver/TableSum.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <unordered_map>

namespace dlayout::solver {

namespace {

using Clock = std::chrono::steady_clock;

// Kind options: block, or cyclic with the block-size pass's blocks times 1,
// 2, 4, 8 (cyclic itself where the product is 1).
constexpr int kKindOptions = 5;
const int64_t kMultiplier[kKindOptions] = {0, 1, 2, 4, 8};

struct Var {
  enum Kind { Orient, Kind_, Replicate } kind;
  int array = -1;           // Orient, Replicate
  int cls = -1, crSet = -1; // Kind_
  int options = 2;
  int heuristic = 0;        // the heuristic's value
};

/// A term group: the computation of a statement, or its communication on
/// one rhs array; `arrays` are the arrays whose layouts it reads. The
/// statements of one nest that fetch the same array share a group where
/// that adds at most one array to what either reads: their fetches are
/// bounded together (costmodels/FetchBound.h), so their terms are a sum of
/// tables only together.
struct Group {
  std::vector<int> arrays;
  std::vector<std::string> statements; // whose terms these are
  std::string array; // the rhs array of its communication; "" = computation
};

struct Problem {
  const Program &p;
  const Plan &heur;
  std::vector<int> cr;
  std::vector<std::vector<int64_t>> baseBlock; // per array, per class
  std::vector<Group> groups;
  std::unordered_map<std::string, int> groupOf; // "stmt\x1f" + array ("" = computation)

  /// Whether variable x decides array a's distribution: a's orientation or
  /// replication, or the kind of a's CR set on a class.
  bool affects(const Var &x, size_t a) const {
    return x.kind == Var::Kind_ ? cr[a] == x.crSet : x.array == int(a);
  }

  /// Array a's row of `out` under the selection: the heuristic's, changed by
  /// the variables `which` (those that affect it).
  void applyArray(Plan &out, const std::vector<Var> &vars, const std::vector<int> &sel,
                  const std::vector<int> &which, size_t a) const {
    out.align[a] = heur.align[a];
    out.kind[a] = heur.kind[a];
    out.block[a] = heur.block[a];
    out.replicated[a] = heur.replicated[a];
    for (int v : which) {
      const Var &x = vars[size_t(v)];
      int s = sel[size_t(v)];
      if (x.kind == Var::Orient && s == 1) {
        int c0 = out.kept[0], c1 = out.kept[1];
        for (int &c : out.align[a]) c = c == c0 ? c1 : c == c1 ? c0 : c;
      } else if (x.kind == Var::Replicate) {
        out.replicated[a] = s == 1;
      } else if (x.kind == Var::Kind_) {
        int64_t b = baseBlock[a][x.cls] * kMultiplier[s];
        out.kind[a][x.cls] = s == 0 ? DistKind::Block
                             : b > 1 ? DistKind::BlockCyclic
                                     : DistKind::Cyclic;
        out.block[a][x.cls] = std::max<int64_t>(b, 1);
      }
    }
  }

  /// Per array, the variables that affect it.
  std::vector<std::vector<int>> affecting(const std::vector<Var> &vars) const {
    std::vector<std::vector<int>> out(heur.align.size());
    for (size_t v = 0; v < vars.size(); ++v)
      for (size_t a = 0; a < out.size(); ++a)
        if (affects(vars[v], a)) out[a].push_back(int(v));
    return out;
  }

  Plan apply(const std::vector<Var> &vars, const std::vector<int> &sel,
             const std::vector<int64_t> &mesh) const {
    Plan out = heur;
    out.mesh = mesh;
    auto which = affecting(vars);
    for (size_t a = 0; a < out.align.size(); ++a) applyArray(out, vars, sel, which[a], a);
    return out;
  }
};

bool onClass(const Plan &plan, int a, int c) {
  return std::find(plan.align[a].begin(), plan.align[a].end(), c) != plan.align[a].end();
}

/// Whether array a has a dimension on one of the kept classes.
bool onKeptClass(const Plan &plan, int a) {
  return std::any_of(plan.kept.begin(), plan.kept.end(),
                     [&](int c) { return onClass(plan, a, c); });
}

/// One mesh shape's variables, the groups' local variables and tables.
struct ShapeTables {
  std::vector<int64_t> mesh;
  std::vector<Var> vars;
  std::vector<std::vector<int>> local;    // per group: variable indices
  std::vector<std::vector<double>> table; // per group: per local combination
  bool complete = false;

  size_t combos(size_t g) const {
    size_t n = 1;
    for (int v : local[g]) n *= size_t(vars[v].options);
    return n;
  }
  size_t encode(size_t g, const std::vector<int> &sel) const {
    size_t k = 0;
    for (int v : local[g]) k = k * size_t(vars[v].options) + size_t(sel[v]);
    return k;
  }
  void decode(size_t g, size_t k, std::vector<int> &digits) const {
    digits.assign(local[g].size(), 0);
    for (size_t i = local[g].size(); i-- > 0;) {
      int n = vars[local[g][i]].options;
      digits[i] = int(k % size_t(n));
      k /= size_t(n);
    }
  }
  double value(size_t g, const std::vector<int> &sel) const { return table[g][encode(g, sel)]; }
};

std::vector<Var> shapeVariables(const Problem &pr, const std::vector<int64_t> &mesh,
                                const std::vector<bool> &replCand) {
  const Plan &h = pr.heur;
  std::vector<Var> vars;
  auto distributed = [&](int c) {
    for (size_t k = 0; k < h.kept.size(); ++k)
      if (h.kept[k] == c) return mesh[k] > 1;
    return false;
  };
  bool orientMatters = h.kept.size() >= 2 && (distributed(h.kept[0]) || distributed(h.kept[1]));
  for (size_t a = 0; a < h.align.size(); ++a)
    if (orientMatters && onKeptClass(h, int(a)) && !h.replicated[a])
      vars.push_back({Var::Orient, int(a), -1, -1, 2, 0});
  for (int c : h.kept) {
    if (!distributed(c)) continue; // collapsed: its kind cannot matter
    std::set<int> sets;
    for (size_t a = 0; a < h.align.size(); ++a)
      if (onKeptClass(h, int(a))) sets.insert(pr.cr[a]);
    for (int r : sets) {
      int first = -1;
      for (size_t a = 0; a < h.align.size() && first < 0; ++a)
        if (pr.cr[a] == r) first = int(a);
      int heurOpt = h.kind[first][c] == DistKind::Block ? 0 : 1;
      vars.push_back({Var::Kind_, -1, c, r, kKindOptions, heurOpt});
    }
  }
  for (size_t a = 0; a < h.align.size(); ++a)
    if (replCand[a]) vars.push_back({Var::Replicate, int(a), -1, -1, 2, h.replicated[a] ? 1 : 0});
  return vars;
}

/// Whether every shape's layouts are the mirrors of those of the shape with
/// its first two dimensions swapped: the orientation variables swap the
/// first two kept classes of every array that can be distributed on them
/// (none replicated by the heuristic may become distributed, lacking one),
/// and a kind's blocks are alike on both classes. The estimator prices a
/// layout and its mirror alike (model/FillOrder.h), so a mirror shape's
/// optimum is its mirror's mirrored (tested in test_advise.py).
bool mirrorsCovered(const Problem &pr, const std::vector<bool> &replCand) {
  const Plan &h = pr.heur;
  if (h.kept.size() < 2) return false;
  const int c0 = h.kept[0], c1 = h.kept[1];
  for (size_t a = 0; a < h.align.size(); ++a) {
    if (onKeptClass(h, int(a)) && h.replicated[a] && replCand[a]) return false;
    if (pr.baseBlock[a][size_t(c0)] != pr.baseBlock[a][size_t(c1)]) return false;
  }
  return true;
}

/// A mesh shape with its first two dimensions swapped.
std::vector<int64_t> mirrored(std::vector<int64_t> mesh) {
  std::swap(mesh[0], mesh[1]);
  return mesh;
}

/// A layout on the mirrored mesh: every array dimension on mesh dimension 0
/// on 1 and on 1 on 0.
Layout mirrored(Layout l) {
  l.mesh = mirrored(std::move(l.mesh));
  for (auto &[name, al] : l.arrays)
    for (DimLayout &d : al.dims)
      if (d.meshDim == 0 || d.meshDim == 1) d.meshDim = 1 - d.meshDim;
  return l;
}

/// Whether a term of gr's statements is one of gr's.
bool inGroup(const Group &gr, const EstimateTerm &t) {
  bool comm = t.kind == EstimateTerm::Kind::Communication;
  return gr.array.empty() ? !comm : comm && t.array == gr.array;
}

std::string groupKey(const std::string &statement, const std::string &array) {
  return statement + '\x1f' + array;
}

/// The sum of each group's terms in a whole-program estimate; false when a
/// term belongs to no group.
bool groupSums(const Problem &pr, const Estimate &e, std::vector<double> &sums) {
  sums.assign(pr.groups.size(), 0);
  bool ok = true;
  std::string key;
  for (const auto &t : e.terms) {
    key = t.statement;
    key += '\x1f';
    if (t.kind == EstimateTerm::Kind::Communication) key += t.array;
    auto it = pr.groupOf.find(key);
    if (it == pr.groupOf.end()) { ok = false; continue; }
    sums[size_t(it->second)] += t.seconds;
  }
  return ok;
}

/// Fills st's tables with whole-program estimates, each covering as many
/// groups' open entries as one selection can: few estimates, each of the
/// whole program -- the cheaper way while their number stays below
/// `maxEstimates`; past it the rest is left to fillByStatements. `covered`
/// marks the entries filled. The selections depend only on what earlier
/// ones covered, not on their estimates: they are chosen first, estimated
/// on every core (parallelFor), and entered in order. False: out of time.
Result<bool> fillByCovering(SolverContext &ctx, const Problem &pr, ShapeTables &st,
                            const std::function<bool()> &late, bool &separable,
                            std::vector<std::vector<char>> &covered, size_t maxEstimates,
                            size_t &estimates) {
  std::vector<int> digits;
  std::vector<size_t> remaining(pr.groups.size());
  size_t left = 0;
  for (size_t g = 0; g < pr.groups.size(); ++g)
    remaining[g] = st.combos(g), left += remaining[g];
  std::vector<size_t> order(pr.groups.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<std::vector<int>> selections;
  std::vector<std::vector<size_t>> firsts; // per selection: the groups whose entry it covers first
  for (size_t made = 0; left > 0 && made < maxEstimates; ++made) {
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) { return remaining[x] > remaining[y]; });
    std::vector<int> sel(st.vars.size(), -1);
    for (size_t g : order) {
      if (!remaining[g]) break;
      for (size_t k = 0; k < covered[g].size(); ++k) {
        if (covered[g][k]) continue;
        st.decode(g, k, digits);
        bool fits = true;
        for (size_t i = 0; i < digits.size() && fits; ++i)
          fits = sel[size_t(st.local[g][i])] < 0 || sel[size_t(st.local[g][i])] == digits[i];
        if (!fits) continue;
        for (size_t i = 0; i < digits.size(); ++i) sel[size_t(st.local[g][i])] = digits[i];
        break;
      }
    }
    for (size_t v = 0; v < sel.size(); ++v)
      if (sel[v] < 0) sel[v] = st.vars[v].heuristic;
    std::vector<size_t> first;
    for (size_t g = 0; g < pr.groups.size(); ++g) {
      size_t k = st.encode(g, sel);
      if (covered[g][k]) continue;
      covered[g][k] = 1, --remaining[g], --left;
      first.push_back(g);
    }
    selections.push_back(std::move(sel));
    firsts.push_back(std::move(first));
  }
  // Each selection's group sums, estimated side by side.
  struct Outcome {
    std::optional<Error> error;
    bool late = false, separable = true;
    std::vector<double> sums;
  };
  std::vector<Outcome> outcomes(selections.size());
  parallelFor(selections.size(), [&](size_t i, size_t) {
    Outcome &o = outcomes[i];
    if ((o.late = late())) return;
    Layout l = toLayout(pr.p, pr.apply(st.vars, selections[i], st.mesh));
    auto e = ctx.estimator.evaluate(l, ctx.machine, Breakdown::Keys);
    if (!e) { o.error = e.error(); return; }
    o.separable = groupSums(pr, *e, o.sums);
  });
  for (size_t i = 0; i < selections.size(); ++i) {
    const Outcome &o = outcomes[i];
    if (o.error) return *o.error;
    if (o.late) return false;
    ++ctx.evaluations, ++estimates;
    if (!o.separable) separable = false;
    for (size_t g : firsts[i]) st.table[g][st.encode(g, selections[i])] = o.sums[g];
  }
  return true;
}

/// Fills st's open table entries (those not `covered`) one by one: each
/// costs its group's statements alone under the combination of its local
/// variables, the others at the heuristic's choice -- work that grows with
/// the program, not with the program times the combinations (the cheaper
/// way for large programs). The entries are estimated on every core, each
/// worker on its own copy of the heuristic's plan. False: out of time.
Result<bool> fillByStatements(SolverContext &ctx, const Problem &pr, ShapeTables &st,
                              const std::function<bool()> &late, bool &separable,
                              const std::vector<std::vector<char>> &covered) {
  std::vector<int> base(st.vars.size());
  for (size_t v = 0; v < base.size(); ++v) base[v] = st.vars[v].heuristic;
  const auto which = pr.affecting(st.vars);
  struct Entry {
    size_t g, k;
  };
  std::vector<Entry> open;
  for (size_t g = 0; g < pr.groups.size(); ++g)
    for (size_t k = 0; k < st.combos(g); ++k)
      if (!covered[g][k]) open.push_back({g, k});
  std::vector<std::vector<int>> arrays(pr.groups.size()); // its statements' arrays
  for (size_t g = 0; g < pr.groups.size(); ++g) {
    for (const std::string &id : pr.groups[g].statements)
      if (const cost::StatementFacts *sf = ctx.facts.findStatement(id))
        for (int a : ctx.statementArrays(*sf))
          if (std::find(arrays[g].begin(), arrays[g].end(), a) == arrays[g].end())
            arrays[g].push_back(a);
    std::sort(arrays[g].begin(), arrays[g].end());
  }
  // `work` is a worker's plan of the heuristic's selection; an entry
  // rewrites only its statement's arrays' rows, and puts them back after.
  const Plan heuristic = pr.apply(st.vars, base, st.mesh);
  std::vector<Plan> work(workers(open.size()), heuristic);
  struct Outcome {
    std::optional<Error> error;
    bool late = false, separable = true;
    double sum = 0;
  };
  std::vector<Outcome> outcomes(open.size());
  parallelFor(open.size(), [&](size_t i, size_t worker) {
    Outcome &o = outcomes[i];
    if ((o.late = late())) return;
    const size_t g = open[i].g;
    const Group &gr = pr.groups[g];
    std::vector<int> digits, entry = base;
    st.decode(g, open[i].k, digits);
    for (size_t d = 0; d < digits.size(); ++d) entry[size_t(st.local[g][d])] = digits[d];
    Plan &plan = work[worker];
    auto rows = [&](const std::vector<int> &s) {
      for (int a : arrays[g]) pr.applyArray(plan, st.vars, s, which[size_t(a)], size_t(a));
    };
    rows(entry);
    auto e = ctx.estimator.evaluateStatements(toLayout(pr.p, plan, arrays[g]), ctx.machine,
                                              gr.statements, Breakdown::Keys);
    rows(base);
    if (!e) { o.error = e.error(); return; }
    for (const EstimateTerm &t : e->terms)
      if (inGroup(gr, t)) o.sum += t.seconds;
      else if (t.kind == EstimateTerm::Kind::Communication &&
               !pr.groupOf.count(groupKey(t.statement, t.array)))
        o.separable = false; // a term of no group: the tables miss it
  });
  for (size_t i = 0; i < open.size(); ++i) {
    const Outcome &o = outcomes[i];
    if (o.error) return *o.error;
    if (o.late) return false;
    if (!o.separable) separable = false;
    st.table[open[i].g][open[i].k] = o.sum;
  }
  return true;
}

/// Drops from each group the local variables its table does not depend on.
void compress(ShapeTables &st) {
  std::vector<int> digits;
  for (size_t g = 0; g < st.local.size(); ++g) {
    for (size_t i = st.local[g].size(); i-- > 0;) {
      size_t n = st.combos(g);
      bool independent = true;
      for (size_t k = 0; k < n && independent; ++k) {
        st.decode(g, k, digits);
        if (digits[i] == 0) continue;
        auto d0 = digits;
        d0[i] = 0;
        size_t k0 = 0;
        for (size_t j = 0; j < d0.size(); ++j)
          k0 = k0 * size_t(st.vars[st.local[g][j]].options) + size_t(d0[j]);
        double a = st.table[g][k], b = st.table[g][k0];
        independent = std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b));
      }
      if (!independent) continue;
      std::vector<double> t;
      for (size_t k = 0; k < n; ++k) {
        st.decode(g, k, digits);
        if (digits[i] == 0) t.push_back(st.table[g][k]);
      }
      st.local[g].erase(st.local[g].begin() + long(i));
      st.table[g] = std::move(t);
    }
  }
}

} // namespace

Result<OptimizerResult> optimiseExactly(SolverContext &ctx, const Plan &heuristic,
                                        const AdviseOptions &opts) {
  auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  const Program &p = ctx.program;
  OptimizerResult res;
  res.method = "separable";
  Problem pr{p, heuristic, crSets(ctx), {}, {}, {}};
  for (size_t a = 0; a < p.arrays.size(); ++a) {
    pr.baseBlock.emplace_back(heuristic.classes, 1);
    for (int c = 0; c < heuristic.classes; ++c)
      if (heuristic.kind[a][c] == DistKind::BlockCyclic) pr.baseBlock[a][c] = heuristic.block[a][c];
  }
  // Term groups from the program's statements.
  std::map<std::pair<std::pair<std::string, int>, int>, int> nestGroups; // (nest, array) -> group
  for (const auto &sf : ctx.facts.statements) {
    const std::string &id = sf.stmt->id;
    int A = sf.hasLhs ? arrayIndex(p, ctx.facts.arrays[sf.lhs.array]) : -1;
    // A reduction into an array element runs at its home operand's owners
    // (model/Reduction.h): its computation and its other operands' terms
    // depend on the home's layout too.
    int H = sf.hasHome ? arrayIndex(p, ctx.facts.arrays[sf.home.array]) : -1;
    Group comp;
    comp.statements = {id};
    if (A >= 0) comp.arrays = {A};
    if (A >= 0 && H >= 0 && H != A) comp.arrays.push_back(H);
    else
      for (const auto &rf : sf.rhs) comp.arrays.push_back(arrayIndex(p, ctx.facts.arrays[rf.ref.array]));
    for (const auto &through : sf.sequentialThrough) // their replication divides loops
      for (int fact : through)
        if (int x = arrayIndex(p, ctx.facts.arrays[size_t(fact)]);
            x >= 0 && std::find(comp.arrays.begin(), comp.arrays.end(), x) == comp.arrays.end())
          comp.arrays.push_back(x);
    pr.groupOf[groupKey(id, "")] = int(pr.groups.size());
    pr.groups.push_back(comp);
    // This statement's communication on each rhs array, and the arrays
    // whose layouts it reads.
    std::map<int, std::vector<int>> fetched; // rhs array -> arrays
    for (const auto &rf : sf.rhs) {
      int B = arrayIndex(p, ctx.facts.arrays[rf.ref.array]);
      auto &arrs = fetched[B];
      auto add = [&](int x) {
        if (x >= 0 && std::find(arrs.begin(), arrs.end(), x) == arrs.end()) arrs.push_back(x);
      };
      add(A), add(B);
      if (rf.toHome) add(H);
      for (const cost::RefFacts *ref : {&rf.ref, sf.hasLhs ? &sf.lhs : nullptr})
        if (ref)
          for (const auto &s : ref->subs)
            if (!s.indexArray.empty())
              if (auto *ia = p.findArray(s.indexArray)) add(arrayIndex(p, ia));
    }
    const auto nest = cost::fetchNest(sf);
    for (auto &[B, arrs] : fetched) {
      std::sort(arrs.begin(), arrs.end());
      // The group of an earlier statement of the nest fetching B, where
      // joined it reads at most one array more than the larger of the two
      // (a table grows with the choices of the arrays it reads).
      int g = -1;
      if (nest)
        if (auto it = nestGroups.find({*nest, B}); it != nestGroups.end()) {
          auto &have = pr.groups[size_t(it->second)].arrays;
          std::vector<int> both;
          std::set_union(have.begin(), have.end(), arrs.begin(), arrs.end(),
                         std::back_inserter(both));
          if (both.size() <= std::max(have.size(), arrs.size()) + 1) {
            g = it->second;
            have = std::move(both);
            pr.groups[size_t(g)].statements.push_back(id);
          }
        }
      if (g < 0) {
        g = int(pr.groups.size());
        pr.groups.push_back({arrs, {id}, p.arrays[B].name});
        if (nest) nestGroups[{*nest, B}] = g;
      }
      pr.groupOf[groupKey(id, p.arrays[B].name)] = g;
    }
  }
  // Shapes: at most two distributed classes (section 5.4), and the heuristic's.
  std::vector<std::vector<int64_t>> shapes;
  for (auto &s : factorisations(ctx.procs, int(heuristic.kept.size())))
    if (std::count_if(s.begin(), s.end(), [](int64_t n) { return n > 1; }) <= 2 ||
        s == heuristic.mesh)
      shapes.push_back(s);
  auto replCand = replicationCandidates(ctx);
  const double budget = opts.timeLimitSeconds;
  const std::function<bool()> late = [&] { return elapsed() > budget; };
  bool separable = true, allSolved = true;

  std::set<std::string> seen;
  auto record = [&](const Layout &l, const char *origin, double tableSeconds) -> Status {
    auto c = ctx.seconds(l);
    if (!c) return c.error();
    if (tableSeconds >= 0 && std::abs(*c - tableSeconds) > 1e-9 * std::max(1e-12, *c))
      separable = false; // the estimate is not the sum of the groups here
    if (!seen.insert(layoutKey(l)).second) return success();
    res.found.push_back({l, *c, origin});
    return success();
  };
  // The heuristic's point (the guarantee).
  if (auto s = record(toLayout(p, heuristic), "heuristic", -1); !s) return s.error();

  std::vector<int> digits;
  const bool mirrors = mirrorsCovered(pr, replCand);
  std::map<std::vector<int64_t>, Layout> optimumOf; // per shape solved
  for (const auto &mesh : shapes) {
    if (elapsed() > budget) { res.timedOut = true; break; }
    // A shape's mirror solved: its optimum mirrored (mirrorsCovered).
    if (mirrors && mesh.size() >= 2)
      if (auto it = optimumOf.find(mirrored(mesh)); it != optimumOf.end()) {
        if (auto r = record(mirrored(it->second), "optimiser", -1); !r) return r.error();
        continue;
      }
    ShapeTables st;
    st.mesh = mesh;
    st.vars = shapeVariables(pr, mesh, replCand);
    double space = 1;
    for (auto &v : st.vars) space *= v.options;
    res.combinations = std::max(res.combinations, size_t(std::min(space, 1e18)));
    // Local variables of each group.
    st.local.resize(pr.groups.size());
    for (size_t g = 0; g < pr.groups.size(); ++g) {
      for (size_t v = 0; v < st.vars.size(); ++v) {
        const Var &x = st.vars[v];
        bool uses = false;
        for (int a : pr.groups[g].arrays)
          uses |= x.kind == Var::Kind_ ? pr.cr[a] == x.crSet
                                       : x.array == a;
        if (uses) st.local[g].push_back(int(v));
      }
      st.table.emplace_back(st.combos(g), 0.0);
    }
    // Whole estimates cover many groups' entries at once but cost every
    // statement; entry by entry costs one statement an entry. Cover while
    // that is the cheaper (fewer estimates than entries over statements),
    // then fill what is left entry by entry.
    size_t entries = 0;
    std::vector<std::vector<char>> covered(pr.groups.size());
    for (size_t g = 0; g < pr.groups.size(); ++g)
      covered[g].assign(st.combos(g), 0), entries += st.combos(g);
    size_t breakEven = entries / std::max<size_t>(1, ctx.facts.statements.size());
    auto filled = fillByCovering(ctx, pr, st, late, separable, covered, breakEven + 1,
                                 res.estimates);
    if (filled && *filled) filled = fillByStatements(ctx, pr, st, late, separable, covered);
    if (!filled) return filled.error();
    if (!*filled) { res.timedOut = true; break; }
    compress(st);

    // Components of the variables linked by a group; Z3 per component.
    std::vector<int> parent(st.vars.size());
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int x) {
      while (parent[x] != x) x = parent[x] = parent[parent[x]];
      return x;
    };
    double constant = 0;
    for (size_t g = 0; g < st.local.size(); ++g) {
      if (st.local[g].empty()) constant += st.table[g][0];
      for (size_t i = 1; i < st.local[g].size(); ++i)
        parent[find(st.local[g][i])] = find(st.local[g][0]);
    }
    std::vector<int> sel(st.vars.size());
    for (size_t v = 0; v < sel.size(); ++v) sel[v] = st.vars[v].heuristic;
    std::map<int, std::vector<size_t>> comps; // root -> groups
    for (size_t g = 0; g < st.local.size(); ++g)
      if (!st.local[g].empty()) comps[find(st.local[g][0])].push_back(g);
    bool solved = true;
    for (auto &[root, gs] : comps) {
      double left_s = budget - elapsed();
      if (left_s <= 0.005) { solved = false; res.timedOut = true; break; }
      // The component as a sum of tables over its own variables.
      TableSum ts;
      std::map<int, int> index; // shape variable -> component variable
      std::vector<int> back, start;
      for (size_t g : gs) {
        TableSum::Table t;
        for (int v : st.local[g]) {
          auto [it, fresh] = index.emplace(v, int(back.size()));
          if (fresh) back.push_back(v), ts.options.push_back(st.vars[v].options),
                     start.push_back(sel[v]);
          t.vars.push_back(it->second);
        }
        t.values = st.table[g];
        ts.tables.push_back(std::move(t));
      }
      auto r = minimiseTableSum(ts, start, left_s);
      for (size_t i = 0; i < back.size(); ++i) sel[back[i]] = r.sel[i];
      if (!r.proved) solved = false, res.timedOut |= elapsed() > budget;
      res.z3Seconds += r.z3Seconds;
      res.variables += ts.options.size();
      res.eliminated += r.eliminated;
    }
    allSolved &= solved;
    double tableSeconds = constant;
    for (size_t g = 0; g < st.local.size(); ++g)
      if (!st.local[g].empty()) tableSeconds += st.value(g, sel);
    Layout best = toLayout(p, pr.apply(st.vars, sel, mesh));
    optimumOf[mesh] = best;
    if (auto s = record(best, "optimiser", tableSeconds); !s) return s.error();
  }
  res.proved = !res.timedOut && allSolved && separable;
  std::stable_sort(res.found.begin(), res.found.end(),
                   [](auto &a, auto &b) { return a.seconds < b.seconds; });
  return res;
}

} // namespace dlayout::solver
