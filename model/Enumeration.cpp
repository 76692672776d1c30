//===- model/Enumeration.cpp - Where a statement's instances are known ----===//
#include "model/Enumeration.h"

#include "model/PrivateScalars.h"

#include <algorithm>
#include <set>
#include <string>

namespace dlayout {

namespace {

bool subscriptReadsElement(const Statement &s) {
  for (const Reference &r : s.refs)
    for (const Subscript &sub : r.subscripts)
      if (sub.expr && readsElement(*sub.expr)) return true;
  return false;
}

} // namespace

int enumerationLevel(const Program &p, size_t s, const std::vector<size_t> &readers, int from) {
  const Statement &st = p.statements[s];
  const int depth = int(st.loops.size());
  std::set<std::string> scalars;
  std::vector<size_t> evaluated{s}; // with the readers of its private scalar
  evaluated.insert(evaluated.end(), readers.begin(), readers.end());
  for (size_t t : evaluated) {
    if (subscriptReadsElement(p.statements[t])) return depth;
    scalarsReadBySubscripts(p.statements[t], scalars);
  }
  for (const std::string &id : st.loops)
    if (const Loop *l = p.findLoop(id))
      for (const Bound *b : {&l->lower, &l->upper}) scalarsRead(*b, scalars);
  std::vector<const Statement *> assigners; // of those scalars
  for (const Statement &o : p.statements)
    if (o.write < 0 && scalars.count(o.scalarWrite)) assigners.push_back(&o);
  auto assignedIn = [&](const std::string &loop) {
    return std::any_of(assigners.begin(), assigners.end(), [&](const Statement *o) {
      return std::find(o->loops.begin(), o->loops.end(), loop) != o->loops.end();
    });
  };
  int level = std::max(from, 0);
  while (level < depth && assignedIn(st.loops[size_t(level)])) ++level;
  return level;
}

} // namespace dlayout
