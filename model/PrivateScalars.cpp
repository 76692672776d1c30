//===- model/PrivateScalars.cpp - Scalars private to a loop body ----------===//
#include "model/PrivateScalars.h"

#include <algorithm>
#include <map>
#include <optional>
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

bool readsElement(const Expr &e) {
  return e.kind == Expr::Kind::Ref ||
         std::any_of(e.args.begin(), e.args.end(), [](const Expr &a) { return readsElement(a); });
}

void scalarsRead(const Statement &s, std::set<std::string> &out) {
  scalarsOf(s.expr, out);
  for (const Guard &g : s.guards) scalarsOf(g.condition, out);
  scalarsOfSubscripts(s.refs, out);
}

void scalarsReadBySubscripts(const Statement &s, std::set<std::string> &out) {
  scalarsOfSubscripts(s.refs, out);
}

void scalarsRead(const Bound &b, std::set<std::string> &out) {
  if (b.expr) scalarsOf(*b.expr, out);
  scalarsOfSubscripts(b.exprRefs, out);
}

std::vector<std::vector<size_t>> privateScalarReaders(const Program &p, bool guarded) {
  const size_t n = p.statements.size();
  std::vector<std::set<std::string>> reads(n);
  std::set<std::string> control; // read by bounds and subscripts
  for (size_t i = 0; i < n; ++i) {
    const Statement &s = p.statements[i];
    scalarsOf(s.expr, reads[i]);
    for (const Guard &g : s.guards) scalarsOf(g.condition, reads[i]);
    scalarsOfSubscripts(s.refs, control);
  }
  for (const Loop &l : p.loops)
    for (const Bound *b : {&l.lower, &l.upper}) scalarsRead(*b, control);
  // Per scalar, in program order: the statements that assign it and those
  // that read it (the scans below visit these alone, so that the rule takes
  // time linear in the program, not quadratic).
  std::map<std::string, std::vector<size_t>> writersOf, readersOf;
  for (size_t i = 0; i < n; ++i) {
    const Statement &s = p.statements[i];
    if (s.write < 0) writersOf[s.scalarWrite].push_back(i);
    for (const std::string &v : reads[i]) readersOf[v].push_back(i);
  }
  auto reduces = [&](size_t w) { return !p.statements[w].reduction.empty(); };
  // Whether j runs only in iterations where w ran: each guard of w is one of
  // j's, and its value cannot change between them (it reads no array
  // element, and no scalar that w or a statement up to j assigns).
  auto guardsShared = [&](size_t w, size_t j) {
    if (!guarded && !p.statements[w].guards.empty()) return false;
    for (const Guard &g : p.statements[w].guards) {
      const auto &theirs = p.statements[j].guards;
      if (std::find(theirs.begin(), theirs.end(), g) == theirs.end() || readsElement(g.condition))
        return false;
      std::set<std::string> read;
      scalarsOf(g.condition, read);
      for (size_t k = w; k < j; ++k)
        if (p.statements[k].write < 0 && read.count(p.statements[k].scalarWrite)) return false;
    }
    return true;
  };
  // The assignment of v in j's own loop body that j reads: the last
  // assignment of v before j there (-1 when there is none, or when it is
  // guarded by what does not guard j).
  auto reaching = [&](size_t j, const std::vector<size_t> &writers) -> long {
    for (auto w = std::lower_bound(writers.begin(), writers.end(), j); w != writers.begin();)
      if (--w; p.statements[*w].loops == p.statements[j].loops)
        return guardsShared(*w, j) ? long(*w) : -1;
    return -1;
  };
  // The reductions into v that statement i starts: those after it, up to
  // the next other assignment of v, when each is unguarded and inside a loop
  // of i's body (FLUX = 0, then FLUX = FLUX + ... over K); nullopt when one
  // of them is not, or when v is reduced anywhere else.
  auto chainOf = [&](size_t i, const std::vector<size_t> &writers)
      -> std::optional<std::vector<size_t>> {
    const auto &outer = p.statements[i].loops;
    std::vector<size_t> chain;
    for (auto r = std::upper_bound(writers.begin(), writers.end(), i);
         r != writers.end() && reduces(*r); ++r) {
      const Statement &t = p.statements[*r];
      if (!t.guards.empty() || t.loops.size() <= outer.size() ||
          !std::equal(outer.begin(), outer.end(), t.loops.begin()))
        return std::nullopt;
      chain.push_back(*r);
    }
    for (size_t w : writers) // every reduction of v is in the chain
      if (reduces(w) && std::find(chain.begin(), chain.end(), w) == chain.end())
        return std::nullopt;
    return chain;
  };
  std::vector<std::vector<size_t>> out(n);
  for (size_t i = 0; i < n; ++i) {
    const Statement &s = p.statements[i];
    const std::string &v = s.scalarWrite;
    if (s.write >= 0 || v.empty() || !s.reduction.empty() || s.loops.empty() ||
        control.count(v))
      continue;
    const std::vector<size_t> &writers = writersOf[v];
    auto chain = chainOf(i, writers);
    if (!chain || (!s.guards.empty() && !chain->empty())) continue;
    auto inChain = [&](long w) {
      return w >= 0 && std::find(chain->begin(), chain->end(), size_t(w)) != chain->end();
    };
    std::vector<size_t> readers;
    bool isPrivate = true;
    for (size_t j : readersOf[v]) {
      if (!isPrivate) break;
      if (j == i || inChain(long(j))) continue;
      long w = reaching(j, writers);
      if (w == long(i)) readers.push_back(j);
      else isPrivate = w >= 0 && !inChain(w); // another assignment of j's body feeds j
    }
    if (!isPrivate) continue;
    for (size_t r : *chain) out[r] = readers;
    out[i] = std::move(readers);
  }
  return out;
}

std::vector<size_t> privateScalarStandIns(const std::vector<std::vector<size_t>> &readers,
                                          const Program &p, size_t s) {
  // Each statement visited once: chains of private scalars that read one
  // another stay linear.
  std::set<size_t> all, seen;
  std::vector<size_t> todo{s};
  while (!todo.empty()) {
    const size_t t = todo.back();
    todo.pop_back();
    if (!seen.insert(t).second) continue;
    if (p.statements[t].write >= 0) {
      all.insert(t);
      continue;
    }
    todo.insert(todo.end(), readers[t].begin(), readers[t].end());
  }
  return {all.begin(), all.end()};
}

namespace {

/// privateScalarStandIn's depth-first walk; a statement met again found
/// none the first time (else the walk had ended), so it is not walked
/// twice and chains of private scalars stay linear, as in
/// privateScalarStandIns.
int firstStandIn(const std::vector<std::vector<size_t>> &readers, const Program &p, size_t s,
                 std::set<size_t> &seen) {
  if (p.statements[s].write >= 0) return int(s);
  if (!seen.insert(s).second) return -1;
  // Readers come later in program order, so the walk ends.
  for (size_t r : readers[s])
    if (int stand = firstStandIn(readers, p, r, seen); stand >= 0) return stand;
  return -1;
}

} // namespace

int privateScalarStandIn(const std::vector<std::vector<size_t>> &readers, const Program &p,
                         size_t s) {
  std::set<size_t> seen;
  return firstStandIn(readers, p, s, seen);
}

std::vector<int> reductionRegions(const Program &p) {
  const size_t n = p.statements.size();
  // Per scalar: the statements that read or assign it.
  std::map<std::string, std::vector<size_t>> touching;
  for (size_t o = 0; o < n; ++o) {
    const Statement &os = p.statements[o];
    std::set<std::string> touched;
    scalarsRead(os, touched);
    if (os.write < 0) touched.insert(os.scalarWrite);
    for (const std::string &v : touched) touching[v].push_back(o);
  }
  std::vector<int> out(n, -1);
  for (size_t s = 0; s < n; ++s) {
    const Statement &st = p.statements[s];
    if (st.write >= 0 || st.reduction.empty() || st.scalarWrite.empty()) continue;
    const std::vector<size_t> &others = touching[st.scalarWrite];
    for (size_t k = 0; k < st.loops.size() && out[s] < 0; ++k)
      if (std::none_of(others.begin(), others.end(), [&](size_t o) {
            const auto &loops = p.statements[o].loops;
            return o != s && std::find(loops.begin(), loops.end(), st.loops[k]) != loops.end();
          }))
        out[s] = int(k);
  }
  return out;
}

int reductionRegion(const Program &p, size_t s) { return reductionRegions(p)[s]; }

} // namespace dlayout
