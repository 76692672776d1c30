//===- solver/Plan.cpp - Plans to layouts, mesh shapes, cached estimates ---===//
#include "solver/Plan.h"

#include "solver/ParallelFor.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

namespace dlayout::solver {

/// Array a's entry in the layout of plan.
static ArrayLayout arrayLayout(const Program &p, const Plan &plan, size_t a) {
  const Array &arr = p.arrays[a];
  ArrayLayout al;
  al.dims.resize(arr.dims.size());
  if (a < plan.replicated.size() && plan.replicated[a]) {
    if (!al.dims.empty()) al.dims[0].kind = DistKind::Replicated;
    return al;
  }
  for (size_t d = 0; d < arr.dims.size(); ++d) {
    int c = a < plan.align.size() && d < plan.align[a].size() ? plan.align[a][d] : -1;
    int pos = -1;
    for (size_t k = 0; k < plan.kept.size(); ++k)
      if (plan.kept[k] == c) pos = int(k);
    if (c < 0 || pos < 0 || plan.mesh[pos] <= 1) continue; // collapsed
    DimLayout &dl = al.dims[d];
    dl.kind = plan.kind[a][c];
    dl.meshDim = pos;
    if (dl.kind == DistKind::BlockCyclic) dl.block = plan.block[a][c];
  }
  return al;
}

Layout toLayout(const Program &p, const Plan &plan) {
  std::vector<int> all(p.arrays.size());
  for (size_t a = 0; a < all.size(); ++a) all[a] = int(a);
  return toLayout(p, plan, all);
}

Layout toLayout(const Program &p, const Plan &plan, const std::vector<int> &arrays) {
  Layout l;
  l.mesh = plan.mesh;
  if (l.mesh.empty()) l.mesh = {1};
  for (int a : arrays)
    if (a >= 0 && size_t(a) < p.arrays.size())
      l.arrays[p.arrays[size_t(a)].name] = arrayLayout(p, plan, size_t(a));
  return l;
}

std::vector<int> SolverContext::statementArrays(const cost::StatementFacts &sf) const {
  std::vector<int> out;
  for (int fact : sf.arraysCosted()) {
    int a = arrayIndex(program, facts.arrays[size_t(fact)]);
    if (a >= 0 && std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
  }
  return out;
}

Plan identityPlan(const Program &p, int classes) {
  Plan plan;
  plan.classes = classes;
  for (const auto &arr : p.arrays) {
    std::vector<int> al(arr.dims.size(), -1);
    for (size_t d = 0; d < arr.dims.size(); ++d)
      if (int(d) < classes) al[d] = int(d);
    plan.align.push_back(al);
    plan.kind.emplace_back(classes, DistKind::Block);
    plan.block.emplace_back(classes, 1);
  }
  plan.replicated.assign(p.arrays.size(), false);
  return plan;
}

int arrayIndex(const Program &p, const Array *a) {
  if (!a) return -1;
  const Array *first = p.arrays.data(), *end = first + p.arrays.size();
  if (std::less_equal<const Array *>()(first, a) && std::less<const Array *>()(a, end))
    return int(a - first);
  const Array *same = p.findArray(a->name); // an array of a copy of p
  return same ? int(same - first) : -1;
}

std::vector<std::vector<int64_t>> factorisations(int64_t P, int parts) {
  std::vector<std::vector<int64_t>> out;
  if (P < 1 || parts < 1) return out;
  if (parts == 1) return {{P}};
  for (int64_t f = 1; f <= P; ++f) {
    if (P % f) continue;
    for (auto rest : factorisations(P / f, parts - 1)) {
      rest.insert(rest.begin(), f);
      out.push_back(std::move(rest));
    }
  }
  return out;
}

std::vector<int64_t> balancedShape(int64_t P, int parts) {
  std::vector<int64_t> best;
  double bestSpread = 0;
  for (auto &s : factorisations(P, parts)) {
    double lo = 1e300, hi = 0;
    for (auto n : s) lo = std::min(lo, double(n)), hi = std::max(hi, double(n));
    double spread = hi / lo;
    // Among equally square shapes, the first has more processors first.
    if (best.empty() || spread < bestSpread - 1e-12 ||
        (std::abs(spread - bestSpread) < 1e-12 && s > best))
      best = s, bestSpread = spread;
  }
  return best;
}

std::string meshString(const std::vector<int64_t> &mesh) {
  std::string s;
  for (auto n : mesh) s += (s.empty() ? "" : "x") + std::to_string(n);
  return s;
}

// A compact key with every field of the layout (the JSON text was half of
// the advisor's time on flo52's routines).
std::string layoutKey(const Layout &l) {
  std::string k;
  k.reserve(16 + 24 * l.arrays.size());
  auto put = [&](int64_t v) { k.append(reinterpret_cast<const char *>(&v), sizeof v); };
  put(int64_t(l.mesh.size()));
  for (auto n : l.mesh) put(n);
  for (const auto &[name, al] : l.arrays) {
    k += name;
    k += '\0';
    put(int64_t(al.dims.size()));
    for (const auto &d : al.dims) {
      put(int64_t(d.kind) | int64_t(d.meshDim + 1) << 8);
      put(d.block);
      if (d.offset || d.overlapLeft || d.overlapRight || !d.begins.empty() || !d.map.empty()) {
        put(-1), put(d.offset), put(d.overlapLeft), put(d.overlapRight);
        put(int64_t(d.begins.size()));
        for (auto b : d.begins) put(b);
        put(int64_t(d.map.size()));
        for (auto m : d.map) put(m);
      }
    }
  }
  return k;
}

std::string equivalenceKey(const Layout &l) {
  std::vector<int> perm(l.mesh.size());
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = int(i);
  std::string best;
  do { // perm[new dimension] = old dimension
    Layout q = l;
    std::vector<int> to(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) {
      q.mesh[i] = l.mesh[size_t(perm[i])];
      to[size_t(perm[i])] = int(i);
    }
    for (auto &[name, al] : q.arrays)
      for (auto &d : al.dims)
        if (d.meshDim >= 0 && size_t(d.meshDim) < to.size()) d.meshDim = to[size_t(d.meshDim)];
    std::string k = layoutKey(q);
    if (best.empty() || k < best) best = std::move(k);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return best;
}

Result<const Estimate *> SolverContext::evaluate(const Layout &l) {
  auto key = layoutKey(l);
  auto it = full_.find(key);
  if (it != full_.end()) return static_cast<const Estimate *>(it->second.get());
  ++evaluations;
  auto e = estimator.evaluate(l, machine);
  if (!e) return e.error();
  auto &slot = full_[key];
  slot = std::make_unique<Estimate>(std::move(*e));
  secs_[key] = slot->predictedSeconds;
  return static_cast<const Estimate *>(slot.get());
}

Result<double> SolverContext::seconds(const Layout &l) {
  auto key = layoutKey(l);
  auto it = secs_.find(key);
  if (it != secs_.end()) return it->second;
  ++evaluations;
  auto s = estimator.seconds(l, machine);
  if (!s) return s.error();
  secs_[key] = *s;
  return *s;
}

Result<std::vector<double>> SolverContext::seconds(const std::vector<Layout> &ls) {
  std::vector<std::string> keys;
  std::vector<size_t> missing; // the first layout of each uncached key
  std::set<std::string> pending;
  for (size_t i = 0; i < ls.size(); ++i) {
    keys.push_back(layoutKey(ls[i]));
    if (!secs_.count(keys[i]) && pending.insert(keys[i]).second) missing.push_back(i);
  }
  std::vector<std::optional<Result<double>>> made(missing.size());
  parallelFor(missing.size(), [&](size_t k, size_t) {
    made[k].emplace(estimator.seconds(ls[missing[k]], machine));
  });
  for (size_t k = 0; k < missing.size(); ++k) {
    if (!*made[k]) return made[k]->error();
    ++evaluations;
    secs_[keys[missing[k]]] = **made[k];
  }
  std::vector<double> out;
  for (const std::string &key : keys) out.push_back(secs_.at(key));
  return out;
}

Result<const std::vector<EstimateTerm> *>
SolverContext::statementTerms(const Layout &l, const std::string &stmt) {
  auto key = layoutKey(l) + "\n" + stmt;
  auto it = statementTerms_.find(key);
  if (it == statementTerms_.end()) {
    auto e = estimator.evaluateStatement(l, machine, stmt, Breakdown::Keys);
    if (!e) return e.error();
    it = statementTerms_.emplace(key, std::move(e->terms)).first;
  }
  return &it->second;
}

Result<double> SolverContext::statementSeconds(const Layout &l, const std::string &stmt,
                                               const std::string &array) {
  auto terms = statementTerms(l, stmt);
  if (!terms) return terms.error();
  double s = 0;
  for (const auto &t : **terms) {
    if (!array.empty() &&
        (t.kind != EstimateTerm::Kind::Communication || t.array != array))
      continue;
    s += t.seconds;
  }
  return s;
}

} // namespace dlayout::solver
