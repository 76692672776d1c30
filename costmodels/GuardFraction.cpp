//===- costmodels/GuardFraction.cpp - How often a statement's guards hold -===//
#include "costmodels/GuardFraction.h"

#include <cmath>
#include <functional>
#include <optional>

namespace dlayout::cost {

namespace {

/// e's value with the loop at position p at index[p]; nullopt where it
/// reads anything but loop indices, parameters and numbers.
std::optional<double> value(const Expr &e, const std::map<std::string, int> &position,
                            const std::vector<int64_t> &index,
                            const std::map<std::string, int64_t> &params) {
  switch (e.kind) {
  case Expr::Kind::Const:
    return e.value;
  case Expr::Kind::Iv: {
    auto p = position.find(e.name);
    if (p == position.end())
      return std::nullopt;
    return double(index[size_t(p->second)]);
  }
  case Expr::Kind::Param: {
    auto v = params.find(e.name);
    if (v == params.end())
      return std::nullopt;
    return double(v->second);
  }
  case Expr::Kind::Op:
    break;
  default:
    return std::nullopt;
  }
  std::vector<double> a;
  for (const Expr &x : e.args) {
    auto v = value(x, position, index, params);
    if (!v)
      return std::nullopt;
    a.push_back(*v);
  }
  const std::string &o = e.name;
  auto fold = [&](auto f) {
    double v = a.at(0);
    for (size_t k = 1; k < a.size(); ++k)
      v = f(v, a[k]);
    return v;
  };
  if (a.empty())
    return std::nullopt;
  if (o == "+") return fold([](double x, double y) { return x + y; });
  if (o == "*") return fold([](double x, double y) { return x * y; });
  if (o == "min") return fold([](double x, double y) { return std::min(x, y); });
  if (o == "max") return fold([](double x, double y) { return std::max(x, y); });
  if (o == "and") return fold([](double x, double y) { return double(x != 0 && y != 0); });
  if (o == "or") return fold([](double x, double y) { return double(x != 0 || y != 0); });
  if (o == "neg") return -a[0];
  if (o == "abs") return std::fabs(a[0]);
  if (o == "not") return double(a[0] == 0);
  if (a.size() < 2)
    return std::nullopt;
  if (o == "-") return a[0] - a[1];
  if (o == "/") return a[1] == 0 ? std::nullopt : std::optional<double>(a[0] / a[1]);
  if (o == "mod") return a[1] == 0 ? std::nullopt : std::optional<double>(std::fmod(a[0], a[1]));
  if (o == "lt") return double(a[0] < a[1]);
  if (o == "le") return double(a[0] <= a[1]);
  if (o == "gt") return double(a[0] > a[1]);
  if (o == "ge") return double(a[0] >= a[1]);
  if (o == "eq") return double(a[0] == a[1]);
  if (o == "ne") return double(a[0] != a[1]);
  if (o == "select" && a.size() == 3) return a[0] != 0 ? a[1] : a[2];
  return std::nullopt;
}

} // namespace

double guardFraction(const Statement &st, const std::vector<LoopFacts> &loops,
                     const std::map<std::string, int64_t> &params) {
  if (st.guards.empty())
    return 1;
  const size_t m = loops.size();
  std::map<std::string, int> position;
  for (size_t l = 0; l < m; ++l)
    if (loops[l].loop)
      position[loops[l].loop->id] = int(l);
  // The guards that read only indices and parameters: those that evaluate
  // at the loops' first indices.
  std::vector<int64_t> index(m, 0);
  std::vector<const Expr *> counted;
  {
    std::vector<int64_t> first(m, 0);
    for (size_t l = 0; l < m; ++l)
      first[l] = int64_t(loops[l].first);
    for (const Guard &g : st.guards)
      if (value(g.condition, position, first, params))
        counted.push_back(&g.condition);
  }
  if (counted.empty())
    return 1;
  double all = 1;
  for (const LoopFacts &lf : loops)
    all *= std::max(lf.trips, 1.0);
  // Per loop, the iterations visited: all, or both ends and evenly between.
  const int64_t perLoop =
      all <= double(kGuardCountAll)
          ? kGuardCountAll
          : std::max<int64_t>(3, int64_t(std::pow(double(kGuardCountAll), 1.0 / double(m))));
  std::vector<LoopFacts> at = loops;
  double held = 0, total = 0;
  bool affine = true;
  std::function<void(size_t, double)> walk = [&](size_t l, double weight) {
    if (!affine)
      return;
    if (l == m) {
      total += weight;
      for (const Expr *c : counted) {
        auto v = value(*c, position, index, params);
        if (!v || *v == 0)
          return;
      }
      held += weight;
      return;
    }
    LoopFacts &lf = at[l];
    if (!lf.lower.empty() && !lf.moveTo(index)) {
      affine = false;
      return;
    }
    if (lf.trips <= 0)
      return;
    if (lf.trips != std::floor(lf.trips) || lf.first != std::floor(lf.first)) {
      affine = false;
      return;
    }
    const int64_t trips = int64_t(lf.trips), first = int64_t(lf.first), step = lf.signedStep();
    auto visit = [&](int64_t t, double share) {
      index[l] = first + t * step;
      walk(l + 1, weight * share);
    };
    if (trips <= perLoop) {
      for (int64_t t = 0; t < trips; ++t)
        visit(t, 1);
      return;
    }
    visit(0, 1);
    const int64_t inner = trips - 2, samples = perLoop - 2;
    const int64_t stride = (inner + samples - 1) / samples;
    for (int64_t t0 = 0; t0 < inner; t0 += stride) {
      const int64_t share = std::min(stride, inner - t0);
      visit(1 + t0 + share / 2, double(share));
    }
    visit(trips - 1, 1);
  };
  walk(0, 1);
  if (!affine || total <= 0)
    return 1;
  return held / total;
}

} // namespace dlayout::cost
