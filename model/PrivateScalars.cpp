//===- model/PrivateScalars.cpp - Scalars private to a loop body ----------===//
#include "model/PrivateScalars.h"

#include <set>
#include <string>

namespace dlayout {

namespace {

void scalarsOf(const Expr &e, std::set<std::string> &out) {
  if (e.kind == Expr::Kind::Scalar) out.insert(e.name);
  for (const Expr &a : e.args) scalarsOf(a, out);
}

void scalarsOfSubscripts(const std::vector<Reference> &refs, std::set<std::string> &out) {
  for (const Reference &r : refs)
    for (const Subscript &s : r.subscripts)
      if (s.expr) {
        scalarsOf(*s.expr, out);
        scalarsOfSubscripts(s.exprRefs, out);
      }
}

} // namespace

void scalarsRead(const Statement &s, std::set<std::string> &out) {
  scalarsOf(s.expr, out);
  for (const Guard &g : s.guards) scalarsOf(g.condition, out);
  scalarsOfSubscripts(s.refs, out);
}

void scalarsRead(const Bound &b, std::set<std::string> &out) {
  if (b.expr) scalarsOf(*b.expr, out);
  scalarsOfSubscripts(b.exprRefs, out);
}

std::vector<std::vector<size_t>> privateScalarReaders(const Program &p) {
  const size_t n = p.statements.size();
  std::vector<std::set<std::string>> reads(n);
  std::set<std::string> everywhere; // read by bounds and subscripts, or reduced
  for (size_t i = 0; i < n; ++i) {
    const Statement &s = p.statements[i];
    scalarsOf(s.expr, reads[i]);
    for (const Guard &g : s.guards) scalarsOf(g.condition, reads[i]);
    scalarsOfSubscripts(s.refs, everywhere);
    if (s.write < 0 && !s.reduction.empty()) everywhere.insert(s.scalarWrite);
  }
  for (const Loop &l : p.loops)
    for (const Bound *b : {&l.lower, &l.upper}) scalarsRead(*b, everywhere);
  auto assigns = [&](size_t w, const std::string &v) {
    const Statement &s = p.statements[w];
    return s.write < 0 && s.scalarWrite == v;
  };
  // The unconditional assignment of v in j's own loop body that j reads:
  // the last assignment of v before j there (-1 when there is none, or when
  // it is guarded).
  auto reaching = [&](size_t j, const std::string &v) -> long {
    for (size_t w = j; w-- > 0;)
      if (assigns(w, v) && p.statements[w].loops == p.statements[j].loops)
        return p.statements[w].guards.empty() ? long(w) : -1;
    return -1;
  };
  std::vector<std::vector<size_t>> out(n);
  for (size_t i = 0; i < n; ++i) {
    const Statement &s = p.statements[i];
    const std::string &v = s.scalarWrite;
    if (s.write >= 0 || v.empty() || !s.reduction.empty() || s.loops.empty() ||
        !s.guards.empty() || everywhere.count(v))
      continue;
    std::vector<size_t> readers;
    bool isPrivate = true;
    for (size_t j = 0; j < n && isPrivate; ++j) {
      if (j == i || !reads[j].count(v)) continue;
      long w = reaching(j, v);
      if (w == long(i)) readers.push_back(j);
      else isPrivate = w >= 0; // another assignment of j's body feeds j
    }
    if (isPrivate) out[i] = std::move(readers);
  }
  return out;
}

int privateScalarStandIn(const std::vector<std::vector<size_t>> &readers, const Program &p,
                         size_t s) {
  if (p.statements[s].write >= 0) return int(s);
  // Readers come later in program order, so the walk ends.
  for (size_t r : readers[s])
    if (int stand = privateScalarStandIn(readers, p, r); stand >= 0) return stand;
  return -1;
}

} // namespace dlayout
