//===- costmodels/DependenceLevels.h - Level-k graphs, Figs. 3.3/4.4 -*- C++
//-*-===//
//
// The thesis's `scc` pass (section 3.1): for every level k the level-k
// dependence graph DG_k - statements nested at level >= k, and the edges
// whose direction vector has d_k != ">" and no "<", ">" or "!=" outside
// level k - and its strongly connected components. On top of them:
//   - Fig. 3.3: the innermost level lmax at which S is in a recurrence; S is
//     parallel with respect to every loop deeper than lmax (and every doall
//     outside it);
//   - Fig. 4.4: the outermost level at which the communication for a
//     reference to array B in S can legally be placed.
// Levels are 1-based here, as in the thesis; 0 means "outside every loop".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Program.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace dlayout::cost {

class DependenceLevels {
public:
  explicit DependenceLevels(const Program &p);

  int statementIndex(const std::string &id) const;
  /// Number of loops enclosing both statements.
  int commonDepth(int s1, int s2) const;
  /// The nesting level of a dependence: the level of the loop that carries
  /// it, or the common nesting level of its statements if loop-independent.
  int nestingLevel(const Dependence &d) const;
  /// The direction of d at a level (1-based), from its carrying loop where
  /// it has one.
  std::string directionAt(const Dependence &d, int level) const;
  /// Whether d can hold within one iteration of the `loops` outermost loops
  /// around its statements: no "<", ">" or "!=" at those levels.
  bool withinIteration(const Dependence &d, int loops) const;
  /// Whether s1 and s2 are in the same SCC of DG_level.
  bool sameScc(int level, int s1, int s2) const;

  /// Fig. 3.3. With `dropReductionSelf`, a reduction's self-dependence
  /// through its own accumulator is ignored.
  int recurrenceLevel(int s, bool dropReductionSelf) const;
  /// Fig. 4.4 for the references to `array` in statement s.
  int communicationLevel(int s, const std::string &array) const;
  /// Fig. 4.4 over the flow dependences from other statements only, and over
  /// s's dependences on itself only; communicationLevel is their max.
  int communicationLevelFromOthers(int s, const std::string &array) const;
  int communicationLevelFromSelf(int s, const std::string &array) const;
  /// Whether the loop at `level` around s is a doall once it is distributed
  /// over the SCCs of DG_level (the transformations of sections 3.2.1 and
  /// 4.3.1): no dependence between statements of s's SCC is carried by it
  /// (dotodoall's test, section 3.1, restricted to that SCC).
  bool doallAfterDistribution(int s, int level) const;

  /// The variables whose dependences make the loop at `level` around s
  /// sequential: those of the Fig. 3.3 recurrences reaching that level, and
  /// of the dependences of s's SCC of DG_level that it carries (what
  /// doallAfterDistribution finds). Empty when neither holds.
  std::set<std::string> sequentialThrough(int s, int level, bool dropReductionSelf) const;
  /// The dependences of those recurrences: every dependence between the
  /// statements of s's SCC of DG_k, for each level k >= `level` at which
  /// one of them makes the loop sequential. Empty when none does.
  std::vector<const Dependence *> recurrenceDependences(int s, int level,
                                                        bool dropReductionSelf) const;

  /// Dependences whose sink is statement s.
  const std::vector<const Dependence *> &into(int s) const { return into_[s]; }

private:
  /// The Fig. 3.3 / 4.4 loop: from level k down to 1, stop at the first level
  /// where S and S' share an SCC; 0 if none does.
  int outermostShared(int k, int s, int src) const;
  enum class Sources { All, Others, Self };
  /// Fig. 4.4 over the flow dependences on `array` from `which` sources.
  int placementLevel(int s, const std::string &array, Sources which) const;
  bool inGraph(const Dependence &d, int level) const;
  /// Fig. 3.3's loop-carried flow dependences into s, each with the level of
  /// the recurrence it makes (the reduction's self-dependence dropped on
  /// request).
  template <class F> void forEachRecurrence(int s, bool dropReductionSelf, F f) const;
  /// Whether d, a dependence of s's SCC of DG_level, is carried at level.
  bool carriedInScc(const Dependence &d, int level) const;

  const Program *p_;
  std::map<std::string, int> index_;
  std::vector<std::vector<const Dependence *>> into_;
  std::vector<std::vector<int>> scc_; // scc_[level][statement], -1: absent
  /// sccDeps_[level][c]: the dependences between statements of SCC c of
  /// DG_level (what doallAfterDistribution looks at, without a pass over
  /// every dependence of the program per question).
  std::vector<std::vector<std::vector<const Dependence *>>> sccDeps_;
};

/// A direction normalised to one of "<" "=" ">" "<=" ">=" "!=" "*".
std::string normaliseDirection(const std::string &d);

} // namespace dlayout::cost
