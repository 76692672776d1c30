//===- validate/executor/CommPlacement.cpp - Where the executor communicates ===//
#include "validate/executor/CommPlacement.h"

#include "model/Enumeration.h"

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

namespace dlayout::exec {

namespace {

/// The outermost loop level of s from which its instances can be enumerated
/// ahead of running them (CStmt::aheadLevel; model/Enumeration.h): an
/// element read by a bound is there from where it is gathered
/// (Node::boundsGatheredAt), or else broadcast on entry to that loop: inside
/// it. `nodes`: s's loop nodes.
int aheadLevel(const Program &p, const ExecProgram &x, size_t i, const std::vector<int> &nodes) {
  const CStmt &s = x.stmts[i];
  int level = 0;
  for (int k = 0; k < s.depth(); ++k) {
    const CLoop &l = x.loops[s.loops[k]];
    int gathered = x.nodes[nodes[k]].boundsGatheredAt;
    if (!l.lower.refs.empty() || !l.upper.refs.empty())
      level = std::max(level, gathered >= 0 ? gathered : k + 1);
  }
  std::vector<size_t> readers(s.consumers.begin(), s.consumers.end());
  return enumerationLevel(p, i, readers, level);
}

/// Whether a statement inside `node` writes one of `arrays`.
bool writesAny(const ExecProgram &x, int node, const std::set<int> &arrays) {
  const Node &n = x.nodes[node];
  if (!n.isLoop) {
    const CStmt &t = x.stmts[n.index];
    return t.lhs >= 0 && arrays.count(t.refs[t.lhs].array);
  }
  for (int c : n.children)
    if (writesAny(x, c, arrays)) return true;
  return false;
}

/// Elements a loop's bounds read (relax's DO J = 1, COUNT(I)): rather than
/// broadcast by their home on every entry to the loop, all-gathered for
/// every entry at once before the outermost enclosing loop node in which no
/// statement writes the bound's arrays, the loops in between enumerable
/// there (their own bound elements already gathered, their bounds reading
/// no scalar assigned inside). Sets Node::boundsGatheredAt and adds the
/// replicating CommActions.
void gatherBounds(ExecProgram &x, const DistributedNest &nest,
                  const std::vector<std::set<int>> &assignedIn) {
  std::set<int> done; // loop nodes
  for (size_t i = 0; i < x.stmts.size(); ++i) {
    const std::vector<int> &nodes = nest.stmtLoops[i];
    const CStmt &s = x.stmts[i];
    for (size_t k = 0; k < nodes.size(); ++k) {
      const CLoop &l = x.loops[s.loops[k]];
      if ((l.lower.refs.empty() && l.upper.refs.empty()) || !done.insert(nodes[k]).second)
        continue;
      std::set<int> arrays;
      for (const CBound *b : {&l.lower, &l.upper})
        for (const CRef &r : b->refs) arrays.insert(r.array);
      // Outward from loop k while the loop at `at - 1` can be enumerated
      // from outside it and writes none of the arrays.
      int at = static_cast<int>(k);
      while (at > 0) {
        int m = at - 1;
        if (writesAny(x, nodes[m], arrays)) break;
        bool enumerable = true;
        for (int j = m; j < static_cast<int>(k) && enumerable; ++j) {
          const CLoop &lj = x.loops[s.loops[j]];
          if (j > m && (!lj.lower.refs.empty() || !lj.upper.refs.empty()) &&
              !(x.nodes[nodes[j]].boundsGatheredAt >= 0 &&
                x.nodes[nodes[j]].boundsGatheredAt <= m))
            enumerable = false;
          std::set<int> read;
          for (const CBound *b : {&lj.lower, &lj.upper})
            for (const auto &e : b->expr) scalarsOf(e, read);
          for (int v : read)
            if (assignedIn[s.loops[m]].count(v)) enumerable = false;
        }
        if (!enumerable) break;
        at = m;
      }
      if (at == static_cast<int>(k)) continue; // broadcast on entry (beforeLoop)
      x.nodes[nodes[k]].boundsGatheredAt = at;
      for (int array : arrays) {
        CommAction act;
        act.level = at;
        act.replicate = true;
        act.array = array;
        int bound = 0;
        for (const CBound *b : {&l.lower, &l.upper})
          for (const CRef &r : b->refs) {
            if (r.array == array) act.items.push_back({static_cast<int>(i), bound, false,
                                                       static_cast<int>(k)});
            ++bound;
          }
        x.nodes[nodes[at]].actions.push_back(static_cast<int>(x.actions.size()));
        x.actions.push_back(std::move(act));
      }
    }
  }
}

/// The outermost level, from `from` in, at which the index values of s's
/// indirect left-hand side can be gathered for all the instances inside:
/// their own subscripts plain (affine), and no statement inside that loop
/// (`loops`: s's loop nodes) writing an index array. s.depth() when none.
int vectorisedIndexLevel(const ExecProgram &x, const CStmt &s, const std::vector<int> &loops,
                         int from) {
  std::set<int> indexArrays;
  for (const CSub &sub : s.refs[s.lhs].subs) {
    if (!sub.indirect) continue;
    const CRef &ir = s.indexRefs[sub.indexRef];
    for (const CSub &is : ir.subs)
      if (is.indirect || !is.expr.empty()) return s.depth();
    indexArrays.insert(ir.array);
  }
  int level = from;
  while (level < s.depth() && writesAny(x, loops[level], indexArrays)) ++level;
  return level;
}

/// Whether every rank already has the elements of index reference `ir` at
/// `level`: the same reference as an index of s's indirect left-hand side,
/// gathered at that level or outside (Y(NODE(I,1)) = Y(NODE(I,1)) + F).
bool gathered(const CStmt &s, const CRef &ir, int level) {
  if (s.gatheredAt < 0 || s.gatheredAt > level) return false;
  auto same = [&](const CRef &a) {
    if (a.array != ir.array || a.subs.size() != ir.subs.size()) return false;
    for (size_t k = 0; k < a.subs.size(); ++k)
      if (a.subs[k].indirect || ir.subs[k].indirect || !a.subs[k].expr.empty() ||
          !ir.subs[k].expr.empty() || a.subs[k].affine.terms != ir.subs[k].affine.terms ||
          a.subs[k].affine.constant != ir.subs[k].affine.constant)
        return false;
    return true;
  };
  for (const CSub &sub : s.refs[s.lhs].subs)
    if (sub.indirect && same(s.indexRefs[sub.indexRef])) return true;
  return false;
}

/// Section 3.3.1 of the thesis: the source iteration of statement si's loop
/// at position c when it alone writes what read reference r fetches and
/// `stale` (the flow dependences that make a fetch before that loop stale)
/// are all si's own, carried by that loop. A(I) = F(A(K)): the left-hand
/// side's subscript along some dimension is alpha * I + c0, the read's is
/// fixed inside loop I; only iteration (value - c0) / alpha writes the
/// elements read, so the iterations up to it read what was there before
/// the loop, those after it what it wrote. None where a dependence is
/// carried deeper (A(I,J) = F(A(K,J-1)) reads within the source iteration
/// what it writes) or comes from another statement.
std::optional<SourceIteration> oneToManySource(const ExecProgram &x, int si, int r, int c,
                                               const std::vector<const Dependence *> &stale) {
  const CStmt &s = x.stmts[si];
  const CLoop &loop = x.loops[s.loops[c]];
  if (stale.empty() || s.lhs < 0 || s.refs[s.lhs].array != s.refs[r].array ||
      s.refs[s.lhs].indirect())
    return std::nullopt;
  for (const Dependence *d : stale)
    if (d->from != s.id || d->carriedBy != loop.id) return std::nullopt;
  const std::vector<int> outer(s.loops.begin(), s.loops.begin() + c);
  const CRef &lhs = s.refs[s.lhs], &read = s.refs[r];
  for (size_t k = 0; k < lhs.subs.size(); ++k) {
    const CSub &g = lhs.subs[k], &h = read.subs[k];
    if (!g.expr.empty() || !h.expr.empty() || g.affine.terms.size() != 1 ||
        g.affine.terms[0].first != s.loops[c] || g.affine.terms[0].second == 0)
      continue;
    // h fixed inside the loop: it reads only the slots of loops outside it.
    bool fixed = std::all_of(h.affine.terms.begin(), h.affine.terms.end(), [&](const auto &t) {
      return std::find(outer.begin(), outer.end(), t.first) != outer.end();
    });
    if (!fixed) continue;
    SourceIteration src;
    src.numerator = h.affine;
    src.numerator.constant -= g.affine.constant;
    src.divisor = g.affine.terms[0].second;
    return src;
  }
  return std::nullopt;
}

} // namespace

void placeCommunication(const Program &p, const Plan &plan, const DistributedNest &nest,
                        ExecProgram &x) {
  const PlacementLevels &levels = plan.levels;
  // How far out each statement's instances can be enumerated.
  std::vector<std::set<int>> assignedIn(x.loops.size());
  for (const auto &s : x.stmts)
    if (s.lhs < 0 && s.scalar >= 0)
      for (int slot : s.loops) assignedIn[slot].insert(s.scalar);
  gatherBounds(x, nest, assignedIn);
  for (size_t i = 0; i < x.stmts.size(); ++i) {
    if (nest.stmtNode[i] < 0) continue;
    CStmt &s = x.stmts[i];
    int ahead = aheadLevel(p, x, i, nest.stmtLoops[i]);
    // An indirect left-hand side's index values, for every instance of the
    // loops from some level in at once: an all-gather by their homes before
    // the outermost loop the instances can be enumerated from in which no
    // statement writes the index array (edge's NODE(I,1) once per sweep,
    // not once per edge). Its other communication can then be placed there
    // too.
    if (s.lhs >= 0 && s.refs[s.lhs].indirect()) {
      int at = vectorisedIndexLevel(x, s, nest.stmtLoops[i], std::max(ahead, 0));
      if (at < s.depth()) {
        CommAction act;
        act.level = at;
        act.replicate = true;
        for (const CSub &sub : s.refs[s.lhs].subs) {
          if (!sub.indirect) continue;
          act.array = s.indexRefs[sub.indexRef].array;
          act.items = {{static_cast<int>(i), sub.indexRef, true}};
          x.nodes[nest.stmtLoops[i][at]].actions.push_back(static_cast<int>(x.actions.size()));
          x.actions.push_back(act);
          std::erase(s.replicated, sub.indexRef);
        }
        s.aheadLevel = at;
        s.gatheredAt = at;
      }
    }
    s.aheadLevel = std::max(s.aheadLevel, ahead);
  }

  // Communication placement, refined where the fetched values would be stale.
  // A dependence into statement si carried by a loop: that loop's level in
  // si's nest as it runs (its loops may be interchanged, Interchange.h).
  auto nestingLevel = [&](const Dependence &d, int si) {
    if (d.carriedBy) {
      const std::vector<int> &run = x.stmts[si].loops;
      for (size_t k = 0; k < run.size(); ++k)
        if (x.loops[run[k]].id == *d.carriedBy) return static_cast<int>(k + 1);
      const Loop *l = p.findLoop(*d.carriedBy);
      return l ? static_cast<int>(l->level) : 1000;
    }
    const Statement *a = p.findStatement(d.from), *b = p.findStatement(d.to);
    if (!a || !b) return 1000;
    int c = 0;
    while (c < static_cast<int>(std::min(a->loops.size(), b->loops.size())) &&
           a->loops[c] == b->loops[c])
      ++c;
    return c;
  };
  // Stale: a flow dependence within one iteration of the c outer loops whose
  // source runs inside the node the fetch would precede. Those of array
  // into statement si at level c.
  auto staleDeps = [&](int si, const std::string &array, int c) {
    std::vector<const Dependence *> out;
    for (const auto &d : p.dependences) {
      if (d.kind != Dependence::Kind::Flow || d.to != x.stmts[si].id || d.variable != array ||
          nestingLevel(d, si) <= c)
        continue;
      const Statement *from = p.findStatement(d.from);
      int t = from ? static_cast<int>(from - p.statements.data()) : -1;
      if (t < 0 || static_cast<int>(nest.stmtLoops[t].size()) <= c ||
          nest.stmtLoops[t][c] == nest.stmtLoops[si][c])
        out.push_back(&d);
    }
    return out;
  };
  auto refine = [&](int si, const std::string &array, int c) {
    int moves = 0;
    while (c < x.stmts[si].depth() && !staleDeps(si, array, c).empty()) {
      ++c;
      ++moves;
    }
    return std::pair{c, moves};
  };
  std::map<std::tuple<int, int, bool, bool, int>, int> actionOf; // node, array, indirect, index, part
  auto addItem = [&](int si, int r, bool index, int level, int part = 0) {
    CStmt &s = x.stmts[si];
    const CRef &ref = index ? s.indexRefs[r] : s.refs[r];
    bool ind = ref.indirect();
    int node = level >= s.depth() ? nest.stmtNode[si] : nest.stmtLoops[si][level];
    auto key = std::make_tuple(node, ref.array, ind, index, part);
    auto it = actionOf.find(key);
    int a;
    if (it == actionOf.end()) {
      a = static_cast<int>(x.actions.size());
      CommAction act;
      act.array = ref.array;
      act.level = level;
      act.part = part;
      act.indirect = ind;
      act.invariant = true;
      x.actions.push_back(act);
      actionOf[key] = a;
      x.nodes[node].actions.push_back(a);
    } else {
      a = it->second;
    }
    CommAction &act = x.actions[a];
    act.items.push_back({si, r, index});
    // Invariant when nothing the enumeration evaluates depends on the loops
    // outside the node.
    std::vector<int> outer(s.loops.begin(), s.loops.begin() + std::min(level, s.depth()));
    // A subscript whose value may change between visits of the node.
    auto moves = [&](const auto &sub) {
      return sub.indirect || !sub.expr.empty() || sub.affine.usesSlotBelow(outer);
    };
    auto dep = [&](const CRef &cr) { return std::any_of(cr.subs.begin(), cr.subs.end(), moves); };
    // An indirect action's enumeration also reads the index values and the
    // bounds' elements: unchanged while no statement in a loop around the
    // node writes their arrays (Kali/PARTI reuse the saved schedule; the
    // estimator runs the inspector again only where the index array is
    // rewritten, costmodels/Irregular.h).
    std::set<int> reads;
    auto depInd = [&](const CStmt &in, const CRef &cr) {
      for (auto &sub : cr.subs) {
        if (!sub.expr.empty() || sub.affine.usesSlotBelow(outer)) return true;
        if (!sub.indirect) continue;
        const CRef &ir = in.indexRefs[sub.indexRef];
        reads.insert(ir.array);
        if (dep(ir)) return true;
      }
      return false;
    };
    auto varying = [&](const CStmt &in, const CRef &cr) {
      return ind ? depInd(in, cr) : dep(cr);
    };
    bool varies = varying(s, ref);
    // Who runs an instance (executors()): the lhs's holders, a reduction's
    // operand's, or a private scalar's consumers'.
    if (s.lhs >= 0 && varying(s, s.refs[s.lhs])) varies = true;
    if (s.operand >= 0 && varying(s, s.refs[s.operand])) varies = true;
    for (int c : s.consumers) {
      const CStmt &cs = x.stmts[c];
      if (!ind || cs.lhs < 0 || !cs.consumers.empty() || varying(cs, cs.refs[cs.lhs]))
        varies = true;
    }
    for (int k = level; k < s.depth(); ++k) {
      const CLoop &l = x.loops[s.loops[k]];
      for (auto *b : {&l.lower, &l.upper}) {
        for (auto &t : b->terms)
          if (t.usesSlotBelow(outer)) varies = true;
        for (auto &r : b->refs) {
          reads.insert(r.array);
          if (ind && dep(r)) varies = true; // a bound's element: affine subscripts within the node
        }
        // A bound's expression (DO J = 1, COUNT(I)): its elements' values,
        // unchanged as above, and no scalar, which a loop around may set.
        std::set<int> scalars;
        for (auto &e : b->expr) scalarsOf(e, scalars);
        if (ind && !scalars.empty()) varies = true;
      }
    }
    for (const CStmt &w : x.stmts) {
      if (varies || w.lhs < 0 || !reads.count(w.refs[w.lhs].array)) continue;
      for (int slot : outer)
        if (std::find(w.loops.begin(), w.loops.end(), slot) != w.loops.end()) varies = true;
    }
    if (varies) act.invariant = false;
  };
  // The estimator's level counts the loops as written. Where doall loops
  // were brought inside the recurrence L (Interchange.h: they run deeper
  // than written, L and the sequential loops before it further out), a
  // placement at L's level or outside it is combined over them: inside its
  // outer loops that were not brought in, which run outermost; one inside a
  // loop deeper than L, inside the same loops as written.
  auto asRun = [&](size_t i, int est) {
    const std::vector<int> &written = nest.writtenLoops[i], &run = x.stmts[i].loops;
    if (written == run) return est;
    const int m = static_cast<int>(written.size());
    std::vector<char> inward(static_cast<size_t>(m));
    int recurrence = 0; // L's level as written, from 1
    for (int k = 0; k < m; ++k) {
      const auto at = std::find(run.begin(), run.end(), written[k]) - run.begin();
      inward[k] = at > k;
      if (at < k) recurrence = k + 1;
    }
    if (est > recurrence) return est;
    std::set<int> outside;
    for (int k = 0; k < est; ++k)
      if (!inward[k]) outside.insert(written[k]);
    int c = 0;
    while (c < static_cast<int>(run.size()) && outside.count(run[c])) ++c;
    return c;
  };
  for (size_t i = 0; i < x.stmts.size(); ++i) {
    if (nest.stmtNode[i] < 0) continue;
    CStmt &s = x.stmts[i];
    const Statement &ps = p.statements[i];
    auto lv = levels.find(s.id);
    auto il = plan.indexLevels.find(s.id);
    for (size_t r = 0; r < s.refs.size(); ++r) {
      if (s.refs[r].write) continue;
      int est = s.depth();
      if (lv != levels.end() && r < lv->second.size() && lv->second[r] >= 0)
        est = asRun(i, std::min(lv->second[r], s.depth()));
      auto [used, moves] = refine(static_cast<int>(i), ps.refs[r].array, est);
      if (used < s.aheadLevel) {
        moves += s.aheadLevel - used;
        used = s.aheadLevel;
      }
      // An indirect reference's index values must be there first: at their
      // own level, and the data at that level or deeper.
      std::vector<int> indexUsed(s.refs[r].subs.size(), used);
      for (size_t k = 0; k < s.refs[r].subs.size(); ++k) {
        const CSub &sub = s.refs[r].subs[k];
        if (!sub.indirect) continue;
        int iest = est;
        if (il != plan.indexLevels.end() && r < il->second.size() &&
            k < il->second[r].size() && il->second[r][k] >= 0)
          iest = asRun(i, std::min(il->second[r][k], s.depth()));
        auto [iu, im] = refine(static_cast<int>(i), x.arrays[s.indexRefs[sub.indexRef].array].name,
                               std::max(iest, s.aheadLevel));
        x.refinements += im;
        indexUsed[k] = iu;
        moves += std::max(0, iu - used);
        used = std::max(used, iu);
      }
      // Section 3.3.1: a fetch made stale at the estimator's level only by
      // one iteration of the loop there is split at that iteration.
      int part = 0;
      if (moves > 0 && est < s.depth() && est >= s.aheadLevel && !s.refs[r].indirect()) {
        auto stale = staleDeps(static_cast<int>(i), ps.refs[r].array, est);
        Node &loop = x.nodes[nest.stmtLoops[i][est]];
        auto src = oneToManySource(x, static_cast<int>(i), static_cast<int>(r), est, stale);
        if (src && (!loop.split || *loop.split == *src)) {
          loop.split = *src;
          part = 1;
          used = est;
          moves = 0;
        }
      }
      s.refs[r].estimatorLevel = est;
      s.refs[r].level = used;
      x.refinements += moves;
      x.placements.push_back({s.id, static_cast<int>(r), ps.refs[r].array, est, used});
      for (size_t k = 0; k < s.refs[r].subs.size(); ++k) {
        const CSub &sub = s.refs[r].subs[k];
        if (!sub.indirect) continue;
        s.indexRefs[sub.indexRef].level = indexUsed[k];
        if (!gathered(s, s.indexRefs[sub.indexRef], indexUsed[k])) // every rank has them
          addItem(static_cast<int>(i), sub.indexRef, true, indexUsed[k]);
      }
      if (part == 0) {
        addItem(static_cast<int>(i), static_cast<int>(r), false, used);
      } else {
        addItem(static_cast<int>(i), static_cast<int>(r), false, used, 1);
        addItem(static_cast<int>(i), static_cast<int>(r), false, used, 2);
      }
    }
  }
  // Replicated index values first (the others' executors read them), index
  // fetches before the inspector that needs them.
  auto order = [&](int a) { return x.actions[a].replicate ? 0 : x.actions[a].indirect ? 2 : 1; };
  for (auto &n : x.nodes)
    std::stable_sort(n.actions.begin(), n.actions.end(),
                     [&](int a, int b) { return order(a) < order(b); });
}

} // namespace dlayout::exec
