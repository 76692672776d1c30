//===- costmodels/GuardFraction.cpp - How often a statement's guards hold -===//
#include "costmodels/GuardFraction.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

namespace dlayout::cost {

namespace {

/// A guard's condition compiled once, in postfix: loop indices resolved to
/// their positions, parameters to their values, operators to codes, so
/// that the thousands of iterations counted each evaluate it without a
/// lookup or an allocation.
class Condition {
public:
  /// Nullopt where e reads anything but loop indices, parameters and
  /// numbers, or applies an operator to too few operands.
  static std::optional<Condition> compile(const Expr &e,
                                          const std::map<std::string, int> &position,
                                          const std::map<std::string, int64_t> &params) {
    Condition c;
    if (!c.add(e, position, params))
      return std::nullopt;
    return c;
  }

  /// The value with the loop at position p at index[p]; nullopt on a
  /// division by zero.
  std::optional<double> at(const std::vector<int64_t> &index) const {
    stack_.clear();
    for (const Step &s : steps_) {
      if (s.op == Op::Number) {
        stack_.push_back(s.number);
        continue;
      }
      if (s.op == Op::Index) {
        stack_.push_back(double(index[size_t(s.position)]));
        continue;
      }
      double *a = stack_.data() + (stack_.size() - s.operands);
      double v = a[0];
      switch (s.op) {
      case Op::Add: for (int k = 1; k < s.operands; ++k) v += a[k]; break;
      case Op::Mul: for (int k = 1; k < s.operands; ++k) v *= a[k]; break;
      case Op::Min: for (int k = 1; k < s.operands; ++k) v = std::min(v, a[k]); break;
      case Op::Max: for (int k = 1; k < s.operands; ++k) v = std::max(v, a[k]); break;
      case Op::And: for (int k = 1; k < s.operands; ++k) v = double(v != 0 && a[k] != 0); break;
      case Op::Or: for (int k = 1; k < s.operands; ++k) v = double(v != 0 || a[k] != 0); break;
      case Op::Neg: v = -a[0]; break;
      case Op::Abs: v = std::fabs(a[0]); break;
      case Op::Not: v = double(a[0] == 0); break;
      case Op::Sub: v = a[0] - a[1]; break;
      case Op::Div: if (a[1] == 0) return std::nullopt; v = a[0] / a[1]; break;
      case Op::Mod: if (a[1] == 0) return std::nullopt; v = std::fmod(a[0], a[1]); break;
      case Op::Lt: v = double(a[0] < a[1]); break;
      case Op::Le: v = double(a[0] <= a[1]); break;
      case Op::Gt: v = double(a[0] > a[1]); break;
      case Op::Ge: v = double(a[0] >= a[1]); break;
      case Op::Eq: v = double(a[0] == a[1]); break;
      case Op::Ne: v = double(a[0] != a[1]); break;
      case Op::Select: v = a[0] != 0 ? a[1] : a[2]; break;
      default: return std::nullopt;
      }
      stack_.resize(stack_.size() - size_t(s.operands));
      stack_.push_back(v);
    }
    return stack_.back();
  }

private:
  enum class Op { Number, Index, Add, Mul, Min, Max, And, Or, Neg, Abs, Not,
                  Sub, Div, Mod, Lt, Le, Gt, Ge, Eq, Ne, Select };
  struct Step {
    Op op;
    int operands = 0;
    double number = 0;
    int position = 0;
  };

  bool add(const Expr &e, const std::map<std::string, int> &position,
           const std::map<std::string, int64_t> &params) {
    switch (e.kind) {
    case Expr::Kind::Const:
      steps_.push_back({Op::Number, 0, e.value, 0});
      return true;
    case Expr::Kind::Iv: {
      auto p = position.find(e.name);
      if (p == position.end())
        return false;
      steps_.push_back({Op::Index, 0, 0, p->second});
      return true;
    }
    case Expr::Kind::Param: {
      auto v = params.find(e.name);
      if (v == params.end())
        return false;
      steps_.push_back({Op::Number, 0, double(v->second), 0});
      return true;
    }
    case Expr::Kind::Op:
      break;
    default:
      return false;
    }
    // Operators of any number of operands (folded), of one, of two (extra
    // operands ignored), and select's three.
    static const std::map<std::string, std::pair<Op, int>> ops = {
        {"+", {Op::Add, 1}},   {"*", {Op::Mul, 1}},   {"min", {Op::Min, 1}},
        {"max", {Op::Max, 1}}, {"and", {Op::And, 1}}, {"or", {Op::Or, 1}},
        {"neg", {Op::Neg, 1}}, {"abs", {Op::Abs, 1}}, {"not", {Op::Not, 1}},
        {"-", {Op::Sub, 2}},   {"/", {Op::Div, 2}},   {"mod", {Op::Mod, 2}},
        {"lt", {Op::Lt, 2}},   {"le", {Op::Le, 2}},   {"gt", {Op::Gt, 2}},
        {"ge", {Op::Ge, 2}},   {"eq", {Op::Eq, 2}},   {"ne", {Op::Ne, 2}},
        {"select", {Op::Select, 3}}};
    auto o = ops.find(e.name);
    if (o == ops.end() || e.args.size() < size_t(o->second.second) ||
        (o->second.first == Op::Select && e.args.size() != 3))
      return false;
    for (const Expr &x : e.args)
      if (!add(x, position, params))
        return false;
    steps_.push_back({o->second.first, int(e.args.size()), 0, 0});
    return true;
  }

  std::vector<Step> steps_;
  mutable std::vector<double> stack_;
};

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
  std::vector<Condition> counted;
  {
    std::vector<int64_t> first(m, 0);
    for (size_t l = 0; l < m; ++l)
      first[l] = int64_t(loops[l].first);
    for (const Guard &g : st.guards)
      if (auto c = Condition::compile(g.condition, position, params); c && c->at(first))
        counted.push_back(std::move(*c));
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
      for (const Condition &c : counted) {
        auto v = c.at(index);
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
