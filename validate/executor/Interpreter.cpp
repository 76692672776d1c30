//===- validate/executor/Interpreter.cpp - Walks an ExecProgram -----------===//
#include "validate/executor/Interpreter.h"

#include "validate/runtime/Distribution.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dlayout::exec {

double storeAs(const std::string &type, double v) {
  if (type == "f32") return static_cast<double>(static_cast<float>(v));
  if (!type.empty() && (type[0] == 'i' || type[0] == 'u')) return std::trunc(v);
  return v;
}

double identity(Reduce r) {
  switch (r) {
  case Reduce::Prod: case Reduce::And: return 1;
  case Reduce::Max: return -std::numeric_limits<double>::infinity();
  case Reduce::Min: return std::numeric_limits<double>::infinity();
  default: return 0;
  }
}

double combine(Reduce r, double a, double b) {
  switch (r) {
  case Reduce::Sum: return a + b;
  case Reduce::Prod: return a * b;
  case Reduce::Max: return std::max(a, b);
  case Reduce::Min: return std::min(a, b);
  case Reduce::And: return (a != 0 && b != 0) ? 1 : 0;
  case Reduce::Or: return (a != 0 || b != 0) ? 1 : 0;
  case Reduce::Xor: return ((a != 0) != (b != 0)) ? 1 : 0;
  case Reduce::None: return b;
  }
  return b;
}

int64_t linearId(const CArray &a, const int64_t *idx) {
  const int r = static_cast<int>(a.extents.size());
  int64_t g = 0;
  if (a.columnMajor)
    for (int k = r - 1; k >= 0; --k) g = g * a.extents[k] + (idx[k] - a.lowers[k]);
  else
    for (int k = 0; k < r; ++k) g = g * a.extents[k] + (idx[k] - a.lowers[k]);
  return g;
}

int64_t elementCount(const CArray &a) {
  int64_t n = 1;
  for (auto e : a.extents) n *= e;
  return n;
}

Interpreter::Interpreter(const ExecProgram &x, Memory &m, std::vector<double> scalars)
    : x_(x), m_(m), scalars_(std::move(scalars)), iv_(x.loops.size() + 1, 0) {}

void Interpreter::runPhase(int k, Nest nest) {
  const CPhase &ph = x_.phases[k];
  if (!ph.executable) return;
  for (int n : nest == Nest::Distributed ? ph.roots : ph.programRoots) runNode(n);
}

void Interpreter::runNode(int n) {
  const Node &node = x_.nodes[n];
  if (node.isLoop) {
    const CLoop &l = x_.loops[node.index];
    if ((!l.lower.refs.empty() || !l.upper.refs.empty()) && node.boundsGatheredAt < 0)
      m_.beforeLoop(node.index, iv_.data());
  } else if (!x_.stmts[node.index].replicated.empty()) {
    m_.beforeStatement(node.index, iv_.data());
  }
  if (!node.actions.empty()) m_.beforeNode(n, iv_.data());
  if (!node.isLoop) {
    runStatement(node.index);
    return;
  }
  if (!node.reductions.empty()) m_.beginRegion(n);
  const CLoop &l = x_.loops[node.index];
  int64_t lo = bound(l.lower, iv_.data()), hi = bound(l.upper, iv_.data());
  int64_t &i = iv_[node.index];
  // A split loop (section 3.3.1): the communication of the iterations up to
  // the source iteration before them, of those after it once it has run.
  std::optional<int64_t> source;
  if (node.split) {
    source = sourceIteration(*node.split, l, lo, hi);
    m_.beforePart(n, iv_.data(), 1, lo, source.value_or(hi));
  }
  auto iteration = [&] {
    for (int c : node.children) runNode(c);
    if (source && i == *source && i != hi) m_.beforePart(n, iv_.data(), 2, i + l.step, hi);
  };
  // Iterations lo + t * step, t = 0..last; the memory may skip those it
  // runs nothing in. The index is left as the whole loop leaves it.
  const int64_t last = l.step > 0 ? (hi >= lo ? (hi - lo) / l.step : -1)
                                  : (hi <= lo ? (lo - hi) / -l.step : -1);
  Iterations its{0, last};
  if (last >= 0 && (node.split || m_.ownIterations(n, iv_.data(), lo, l.step, its))) {
    // From the start of the run its.first falls in (or the gap before it).
    for (int64_t t0 = its.first - rt::floorMod(its.first - its.phase, its.stride);
         t0 <= its.last; t0 += its.stride)
      for (int64_t t = std::max(t0, its.first), end = std::min(its.last, t0 + its.run - 1);
           t <= end; ++t) {
        i = lo + t * l.step;
        iteration();
      }
  }
  i = lo + (last + 1) * l.step;
  if (!node.reductions.empty()) m_.endRegion(n);
}

std::optional<int64_t> Interpreter::sourceIteration(const SourceIteration &split, const CLoop &l,
                                                    int64_t lo, int64_t hi) const {
  const int64_t num = split.numerator.eval(iv_.data());
  if (num % split.divisor != 0) return std::nullopt;
  const int64_t v = num / split.divisor;
  const bool inside = l.step > 0 ? lo <= v && v <= hi : hi <= v && v <= lo;
  if (!inside || (v - lo) % l.step != 0) return std::nullopt;
  return v;
}

int64_t Interpreter::bound(const CBound &b, const int64_t *iv) {
  if (b.expr.empty()) return b.eval(iv);
  return static_cast<int64_t>(std::llround(eval(-1, b.expr[0], iv, &b.refs)));
}

void Interpreter::refIndex(int s, const CRef &r, const int64_t *iv, int64_t *out) {
  for (size_t k = 0; k < r.subs.size(); ++k) {
    const CSub &sub = r.subs[k];
    if (!sub.expr.empty()) {
      out[k] = static_cast<int64_t>(std::llround(eval(s, sub.expr[0], iv)));
      continue;
    }
    int64_t v = sub.affine.eval(iv);
    if (sub.indirect && s >= 0) {
      const CRef &ir = x_.stmts[s].indexRefs[sub.indexRef];
      int64_t ii[8];
      refIndex(s, ir, iv, ii);
      v += static_cast<int64_t>(m_.read(ir.array, ii));
    }
    out[k] = v;
  }
}

void Interpreter::runStatement(int s) {
  const CStmt &st = x_.stmts[s];
  const int64_t *iv = iv_.data();
  if (!m_.runs(s, iv)) return;
  for (auto &g : st.guards)
    if (eval(s, g, iv) == 0) return;
  double v = eval(s, st.expr, iv);
  if (st.lhs >= 0) {
    const CRef &r = st.refs[st.lhs];
    int64_t idx[8];
    refIndex(s, r, iv, idx);
    m_.write(r.array, idx, storeAs(x_.arrays[r.array].type, v));
  } else {
    scalars_[st.scalar] = storeAs(x_.scalarTypes[st.scalar], v);
  }
  m_.executed(s);
}

double Interpreter::eval(int s, const CExpr &e, const int64_t *iv,
                         const std::vector<CRef> *boundRefs) {
  switch (e.kind) {
  case Expr::Kind::Const: return e.value;
  case Expr::Kind::Scalar: return scalars_[e.index];
  case Expr::Kind::Iv: return static_cast<double>(iv[e.index]);
  case Expr::Kind::Ref: {
    const CRef &r = e.table == 2   ? (*boundRefs)[e.index]
                    : e.table == 1 ? x_.stmts[s].indexRefs[e.index]
                                   : x_.stmts[s].refs[e.index];
    int64_t idx[8];
    refIndex(s, r, iv, idx);
    return m_.read(r.array, idx);
  }
  case Expr::Kind::Param: return e.value;
  case Expr::Kind::Op:
  case Expr::Kind::Call: break;
  }
  auto a = [&](size_t k) {
    return k < e.args.size() ? eval(s, e.args[k], iv, boundRefs) : 0.0;
  };
  // + * min max and or take any number of arguments (model/Program.cpp's
  // kNaryOps).
  auto fold = [&](auto f) {
    double v = a(0);
    for (size_t k = 1; k < e.args.size(); ++k) v = f(v, a(k));
    return v;
  };
  switch (e.op) {
  case Op::Add: return fold([](double x, double y) { return x + y; });
  case Op::Sub: return a(0) - a(1);
  case Op::Mul: return fold([](double x, double y) { return x * y; });
  case Op::Div: return a(0) / a(1);
  case Op::Neg: return -a(0);
  case Op::Min: return fold([](double x, double y) { return std::min(x, y); });
  case Op::Max: return fold([](double x, double y) { return std::max(x, y); });
  case Op::Abs: return std::fabs(a(0));
  case Op::Sqrt: return std::sqrt(a(0));
  case Op::Sign: { double x = a(0), y = a(1); return y >= 0 ? std::fabs(x) : -std::fabs(x); }
  case Op::Exp: return std::exp(a(0));
  case Op::Log: return std::log(a(0));
  case Op::Sin: return std::sin(a(0));
  case Op::Cos: return std::cos(a(0));
  case Op::Pow: return std::pow(a(0), a(1));
  case Op::Mod: return std::fmod(a(0), a(1));
  case Op::Lt: return a(0) < a(1);
  case Op::Le: return a(0) <= a(1);
  case Op::Gt: return a(0) > a(1);
  case Op::Ge: return a(0) >= a(1);
  case Op::Eq: return a(0) == a(1);
  case Op::Ne: return a(0) != a(1);
  case Op::And: return fold([](double x, double y) { return double(x != 0 && y != 0); });
  case Op::Or: return fold([](double x, double y) { return double(x != 0 || y != 0); });
  case Op::Not: return a(0) == 0;
  case Op::Select: return a(0) != 0 ? a(1) : a(2);
  case Op::Cast: return a(0);
  }
  return 0;
}

} // namespace dlayout::exec
