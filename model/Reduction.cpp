//===- model/Reduction.cpp - Where a reduction into an array runs ---------===//
#include "model/Reduction.h"

#include "model/Enumeration.h"

#include <algorithm>
#include <vector>

namespace dlayout {

namespace {

bool touches(const Statement &st, const std::string &array) {
  return std::any_of(st.refs.begin(), st.refs.end(),
                     [&](const Reference &r) { return r.array == array; });
}

} // namespace

ArrayReduction arrayReduction(const Program &p, size_t s) {
  ArrayReduction none;
  const Statement &st = p.statements[s];
  if (st.reduction.empty() || st.write < 0 || size_t(st.write) >= st.refs.size() ||
      st.loops.empty())
    return none;
  const Reference &lhs = st.refs[size_t(st.write)];
  if (lhs.indirect())
    return none;
  ArrayReduction r;
  for (size_t i = 0; i < st.refs.size(); ++i) {
    const Reference &ref = st.refs[i];
    if (int(i) == st.write || ref.access != Reference::Access::Read)
      continue;
    if (ref.array == lhs.array) {
      if (ref.subscripts != lhs.subscripts || r.selfRead >= 0)
        return none; // C read elsewhere: the partial results would not do
      r.selfRead = int(i);
    } else if (r.home < 0 && !ref.indirect()) {
      r.home = int(i);
    }
  }
  if (r.home < 0)
    return none;
  std::vector<const Statement *> others; // the other statements touching the array
  for (size_t o = 0; o < p.statements.size(); ++o)
    if (o != s && touches(p.statements[o], lhs.array))
      others.push_back(&p.statements[o]);
  const int from = enumerationLevel(p, s, {});
  for (size_t k = size_t(std::max(from, 0)); k < st.loops.size() && r.region < 0; ++k)
    if (std::none_of(others.begin(), others.end(), [&](const Statement *o) {
          return std::find(o->loops.begin(), o->loops.end(), st.loops[k]) != o->loops.end();
        }))
      r.region = int(k);
  return r.region >= 0 ? r : none;
}

} // namespace dlayout
