//===- costmodels/DependenceLevels.cpp - Level-k graphs, Figs. 3.3/4.4 ----===//

#include "costmodels/DependenceLevels.h"

#include "costmodels/StronglyConnected.h"

#include <algorithm>

namespace dlayout::cost {

std::string normaliseDirection(const std::string &d) {
  if (d == "<" || d == "=" || d == ">" || d == "*")
    return d;
  if (d == "<=" || d == "\xE2\x89\xA4") // <=, U+2264
    return "<=";
  if (d == ">=" || d == "\xE2\x89\xA5")
    return ">=";
  if (d == "!=" || d == "<>" || d == "/=" || d == "\xE2\x89\xA0")
    return "!=";
  return "*";
}

/// The direction of `d` at `level`. A dependence carried by the loop at
/// level c has "=" outside c and "<" at c by definition of carrying, whatever
/// its recorded vector says there (an analysis may record "*" where it could
/// not bound the direction; the split into carried and loop-independent
/// records already says which part is which).
std::string DependenceLevels::directionAt(const Dependence &d,
                                          int level) const {
  if (d.carriedBy) {
    int c = nestingLevel(d);
    if (level < c)
      return "=";
    if (level == c)
      return "<";
  }
  if (level < 1 || size_t(level) > d.direction.size())
    return "*"; // not recorded: assume anything
  return normaliseDirection(d.direction[level - 1]);
}

DependenceLevels::DependenceLevels(const Program &p) : p_(&p) {
  int n = int(p.statements.size());
  for (int i = 0; i < n; ++i)
    index_[p.statements[i].id] = i;
  into_.resize(n);
  for (const auto &d : p.dependences) {
    auto to = index_.find(d.to);
    if (to != index_.end() && index_.count(d.from))
      into_[to->second].push_back(&d);
  }

  // SCCs of DG_k for k = 1..max-level (Tarjan).
  int maxLevel = 0;
  for (const auto &s : p.statements)
    maxLevel = std::max(maxLevel, int(s.loops.size()));
  scc_.assign(maxLevel + 1, std::vector<int>(n, -1));
  sccDeps_.resize(maxLevel + 1);
  // The dependences between statements of the program, with their ends.
  struct Edge {
    const Dependence *d;
    int from, to;
  };
  std::vector<Edge> edges;
  for (const auto &d : p.dependences) {
    auto from = index_.find(d.from), to = index_.find(d.to);
    if (from != index_.end() && to != index_.end())
      edges.push_back({&d, from->second, to->second});
  }
  for (int k = 1; k <= maxLevel; ++k) {
    std::vector<std::vector<int>> succ(n);
    for (const Edge &e : edges)
      if (inGraph(*e.d, k))
        succ[e.from].push_back(e.to);
    std::vector<bool> present(n);
    for (int v = 0; v < n; ++v)
      present[v] = int(p.statements[v].loops.size()) >= k;
    int comp = 0;
    scc_[k] = stronglyConnected(succ, present, &comp);
    sccDeps_[k].resize(size_t(comp));
    for (const Edge &e : edges) {
      int c = scc_[k][e.from];
      if (c >= 0 && c == scc_[k][e.to])
        sccDeps_[k][size_t(c)].push_back(e.d);
    }
  }
}

int DependenceLevels::statementIndex(const std::string &id) const {
  auto it = index_.find(id);
  return it == index_.end() ? -1 : it->second;
}

int DependenceLevels::commonDepth(int s1, int s2) const {
  const auto &a = p_->statements[s1].loops, &b = p_->statements[s2].loops;
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n])
    ++n;
  return int(n);
}

int DependenceLevels::nestingLevel(const Dependence &d) const {
  int from = statementIndex(d.from), to = statementIndex(d.to);
  int common = (from < 0 || to < 0) ? 0 : commonDepth(from, to);
  if (!d.carriedBy)
    return common;
  const auto &loops = p_->statements[to].loops;
  for (size_t i = 0; i < loops.size(); ++i)
    if (loops[i] == *d.carriedBy)
      return std::min(int(i) + 1, std::max(common, 1));
  if (const Loop *l = p_->findLoop(*d.carriedBy))
    return std::min(int(l->level), common);
  return common;
}

/// Section 3.1: an edge belongs to DG_k iff both ends are nested in the same
/// loop at level k, d_k != ">", and for every i < k, d_i is not "<", ">" or
/// "!=" (a dependence satisfied by an outer loop's sequentiality is dropped).
bool DependenceLevels::inGraph(const Dependence &d, int k) const {
  int from = index_.at(d.from), to = index_.at(d.to);
  if (commonDepth(from, to) < k)
    return false;
  return directionAt(d, k) != ">" && withinIteration(d, k - 1);
}

bool DependenceLevels::withinIteration(const Dependence &d, int loops) const {
  for (int i = 1; i <= loops; ++i) {
    auto di = directionAt(d, i);
    if (di == "<" || di == ">" || di == "!=")
      return false;
  }
  return true;
}

bool DependenceLevels::sameScc(int level, int s1, int s2) const {
  if (level < 1 || size_t(level) >= scc_.size())
    return false;
  if (s1 == s2)
    return int(p_->statements[s1].loops.size()) >= level;
  int a = scc_[level][s1], b = scc_[level][s2];
  return a >= 0 && a == b;
}

int DependenceLevels::outermostShared(int k, int s, int src) const {
  int l = k;
  for (; l >= 1; --l)
    if (sameScc(l, s, src))
      break;
  return l;
}

template <class F>
void DependenceLevels::forEachRecurrence(int s, bool dropReductionSelf, F f) const {
  const Statement &st = p_->statements[s];
  std::string accumulator;
  if (!st.reduction.empty())
    accumulator = st.write >= 0 && size_t(st.write) < st.refs.size()
                      ? st.refs[st.write].array
                      : st.scalarWrite;
  for (const Dependence *d : into_[s]) {
    if (d->kind != Dependence::Kind::Flow || !d->carriedBy)
      continue; // Fig. 3.3: loop-carried flow dependences only
    int src = index_.at(d->from);
    if (dropReductionSelf && src == s && !accumulator.empty() &&
        d->variable == accumulator)
      continue;
    f(outermostShared(nestingLevel(*d), s, src), *d);
  }
}

int DependenceLevels::recurrenceLevel(int s, bool dropReductionSelf) const {
  int lmax = 0;
  forEachRecurrence(s, dropReductionSelf,
                    [&](int level, const Dependence &) { lmax = std::max(lmax, level); });
  return lmax;
}

bool DependenceLevels::carriedInScc(const Dependence &d, int level) const {
  if (commonDepth(index_.at(d.from), index_.at(d.to)) < level)
    return false;
  auto dl = directionAt(d, level);
  return (dl == "<" || dl == "<=" || dl == "!=" || dl == "*") && withinIteration(d, level - 1);
}

bool DependenceLevels::doallAfterDistribution(int s, int level) const {
  if (level < 1 || int(p_->statements[s].loops.size()) < level)
    return false;
  // The statements of s's SCC of DG_level; s itself is in it (it has that
  // many loops), so its dependences on itself are among these too.
  for (const Dependence *d : sccDeps_[size_t(level)][size_t(scc_[level][s])])
    if (carriedInScc(*d, level))
      return false;
  return true;
}

std::set<std::string> DependenceLevels::sequentialThrough(int s, int level,
                                                          bool dropReductionSelf) const {
  std::set<std::string> out;
  forEachRecurrence(s, dropReductionSelf, [&](int l, const Dependence &d) {
    if (l >= level) out.insert(d.variable);
  });
  if (level >= 1 && int(p_->statements[s].loops.size()) >= level)
    for (const Dependence *d : sccDeps_[size_t(level)][size_t(scc_[level][s])])
      if (carriedInScc(*d, level)) out.insert(d->variable);
  return out;
}

std::vector<const Dependence *>
DependenceLevels::recurrenceDependences(int s, int level, bool dropReductionSelf) const {
  const int depth = int(p_->statements[s].loops.size());
  std::set<int> levels;
  forEachRecurrence(s, dropReductionSelf, [&](int l, const Dependence &) {
    if (l >= level && l <= depth) levels.insert(l);
  });
  if (level >= 1 && depth >= level)
    for (const Dependence *d : sccDeps_[size_t(level)][size_t(scc_[level][s])])
      if (carriedInScc(*d, level)) levels.insert(level);
  std::set<const Dependence *> out;
  for (int k : levels)
    if (scc_[size_t(k)][size_t(s)] >= 0)
      for (const Dependence *d : sccDeps_[size_t(k)][size_t(scc_[k][s])])
        out.insert(d);
  return {out.begin(), out.end()};
}

int DependenceLevels::placementLevel(int s, const std::string &array,
                                     Sources which) const {
  int lmax = 0;
  for (const Dependence *d : into_[s]) {
    if (d->kind != Dependence::Kind::Flow || d->variable != array)
      continue; // Fig. 4.4: flow dependences due to B
    int src = index_.at(d->from);
    if ((which == Sources::Others && src == s) ||
        (which == Sources::Self && src != s))
      continue;
    lmax = std::max(lmax, outermostShared(nestingLevel(*d), s, src));
  }
  return lmax;
}

int DependenceLevels::communicationLevel(int s,
                                         const std::string &array) const {
  return placementLevel(s, array, Sources::All);
}

int DependenceLevels::communicationLevelFromOthers(
    int s, const std::string &array) const {
  return placementLevel(s, array, Sources::Others);
}

int DependenceLevels::communicationLevelFromSelf(
    int s, const std::string &array) const {
  return placementLevel(s, array, Sources::Self);
}

} // namespace dlayout::cost
