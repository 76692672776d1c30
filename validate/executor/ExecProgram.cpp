//===- validate/executor/ExecProgram.cpp - A ProgramModel made executable ===//
#include "validate/executor/ExecProgram.h"

#include "validate/executor/CommPlacement.h"
#include "validate/executor/Interchange.h"

#include "model/PrivateScalars.h"
#include "model/Reduction.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <tuple>
#include <set>

namespace dlayout::exec {

bool Affine::usesSlotBelow(const std::vector<int> &outer) const {
  for (const auto &[s, c] : terms)
    if (std::find(outer.begin(), outer.end(), s) != outer.end()) return true;
  return false;
}

int64_t CBound::eval(const int64_t *iv) const {
  int64_t v = terms[0].eval(iv);
  for (size_t k = 1; k < terms.size(); ++k) {
    int64_t t = terms[k].eval(iv);
    v = kind == Bound::Kind::Max ? std::max(v, t) : std::min(v, t);
  }
  return v;
}

int ExecProgram::arrayIndex(const std::string &name) const {
  for (size_t i = 0; i < arrays.size(); ++i)
    if (arrays[i].name == name) return static_cast<int>(i);
  return -1;
}

void scalarsOf(const CExpr &e, std::set<int> &out) {
  if (e.kind == Expr::Kind::Scalar) out.insert(e.index);
  for (auto &a : e.args) scalarsOf(a, out);
}

namespace {

/// Thrown inside compile for a statement that cannot be executed; the phase
/// holding it is skipped with this reason.
struct NotExecutable {
  std::string reason;
};

const std::map<std::string, Op> &opNames() {
  static const std::map<std::string, Op> m = {
      {"+", Op::Add},    {"-", Op::Sub},     {"*", Op::Mul},     {"/", Op::Div},
      {"neg", Op::Neg},  {"min", Op::Min},   {"max", Op::Max},   {"abs", Op::Abs},
      {"sqrt", Op::Sqrt}, {"sign", Op::Sign}, {"exp", Op::Exp},  {"log", Op::Log},
      {"sin", Op::Sin},  {"cos", Op::Cos},   {"pow", Op::Pow},   {"mod", Op::Mod},
      {"lt", Op::Lt},    {"le", Op::Le},     {"gt", Op::Gt},     {"ge", Op::Ge},
      {"eq", Op::Eq},    {"ne", Op::Ne},     {"and", Op::And},   {"or", Op::Or},
      {"not", Op::Not},  {"select", Op::Select}, {"cast", Op::Cast},
      // intrinsic calls under their usual names
      {"dabs", Op::Abs}, {"fabs", Op::Abs},  {"dsqrt", Op::Sqrt}, {"dsign", Op::Sign},
      {"dmax1", Op::Max}, {"dmin1", Op::Min}, {"dble", Op::Cast}, {"fmin", Op::Min},
      {"fmax", Op::Max}, {"dexp", Op::Exp},  {"dlog", Op::Log}};
  return m;
}

Reduce reduceFromString(const std::string &s) {
  if (s == "sum") return Reduce::Sum;
  if (s == "prod") return Reduce::Prod;
  if (s == "max") return Reduce::Max;
  if (s == "min") return Reduce::Min;
  if (s == "and") return Reduce::And;
  if (s == "or") return Reduce::Or;
  if (s == "xor") return Reduce::Xor;
  return Reduce::None;
}

struct Compiler {
  const Program &p;
  const Plan &plan;
  const PlacementLevels &levels;
  ExecProgram x;
  std::map<std::string, int> loopSlot, scalarId;
  std::vector<int> replicatedNow; // indexRefs of subscript expressions

  Affine affine(const AffineExpr &e) {
    Affine a;
    a.constant = e.constant;
    for (const auto &[loop, c] : e.coeffs) {
      auto it = loopSlot.find(loop);
      if (it == loopSlot.end()) throw NotExecutable{"subscript names unknown loop " + loop};
      a.terms.push_back({it->second, c});
    }
    for (const auto &[param, c] : e.params) {
      auto it = p.params.find(param);
      if (it == p.params.end())
        throw NotExecutable{"parameter " + param + " has no value (give it with --param)"};
      a.constant += c * it->second;
    }
    return a;
  }

  CBound bound(const Bound &b, const Loop &l, const char *which) {
    if (b.kind == Bound::Kind::NonAffine && b.expr) {
      CBound c;
      c.kind = b.kind;
      std::vector<CRef> none;
      for (auto &r : b.exprRefs) {
        c.refs.push_back(ref(r, none, true));
        c.refs.back().write = false;
      }
      c.expr.push_back(expr(*b.expr, b.exprRefs.size(), 2));
      return c;
    }
    if (b.kind == Bound::Kind::NonAffine || b.terms.empty())
      throw NotExecutable{"loop " + l.id + " (" + l.var + ") has a " + which +
                          " bound that is not affine (" + b.text +
                          ") and the model gives no expression for it"};
    CBound c;
    c.kind = b.kind;
    for (auto &t : b.terms) c.terms.push_back(affine(t));
    return c;
  }

  int scalar(const std::string &name) {
    auto it = scalarId.find(name);
    if (it != scalarId.end()) return it->second;
    int id = static_cast<int>(x.scalars.size());
    x.scalars.push_back(name);
    x.scalarTypes.push_back("f64");
    scalarId[name] = id;
    return id;
  }

  CRef ref(const Reference &r, std::vector<CRef> &indexRefs, bool nested) {
    CRef c;
    c.array = x.arrayIndex(r.array);
    if (c.array < 0) throw NotExecutable{"no array named " + r.array};
    c.write = r.access == Reference::Access::Write;
    for (const auto &s : r.subscripts) {
      CSub cs;
      switch (s.cls) {
      case SubscriptClass::Constant:
      case SubscriptClass::Single:
      case SubscriptClass::Multiple:
        cs.affine = affine(s.affine);
        break;
      case SubscriptClass::Indirect: {
        if (nested || s.index.size() != 1)
          throw NotExecutable{"reference to " + r.array + " has a nested indirection"};
        cs.indirect = true;
        cs.affine = affine(s.affine);
        std::vector<CRef> none;
        CRef idx = ref(s.index[0], none, true);
        idx.write = false;
        auto &ia = x.arrays[idx.array];
        ia.isIndex = true;
        ia.subscripts = true;
        // Valid values of the index: the indexed dimension's range (the
        // additive part shifts it).
        size_t dim = c.subs.size();
        const auto &target = x.arrays[c.array];
        int64_t lo = target.lowers[dim] - cs.affine.constant;
        int64_t hi = lo + target.extents[dim] - 1;
        if (ia.indexHigh < ia.indexLow || (ia.indexLow == 0 && ia.indexHigh == 0)) {
          ia.indexLow = lo;
          ia.indexHigh = hi;
        } else {
          ia.indexLow = std::max(ia.indexLow, lo);
          ia.indexHigh = std::min(ia.indexHigh, hi);
        }
        cs.indexRef = static_cast<int>(indexRefs.size());
        indexRefs.push_back(std::move(idx));
        break;
      }
      case SubscriptClass::Unknown: {
        if (!s.expr || nested)
          throw NotExecutable{"a subscript of " + r.array + " is known only as '" + s.text +
                              "', which the model does not say how to compute"};
        // Its references join the statement's index references (table 1).
        int base = static_cast<int>(indexRefs.size());
        std::vector<CRef> none;
        for (auto &er : s.exprRefs) {
          CRef ir = ref(er, none, true);
          ir.write = false;
          indexRefs.push_back(std::move(ir));
          replicatedNow.push_back(static_cast<int>(indexRefs.size()) - 1);
        }
        CExpr e = expr(*s.expr, s.exprRefs.size(), 1);
        shiftRefs(e, base);
        cs.expr.push_back(std::move(e));
        break;
      }
      }
      c.subs.push_back(std::move(cs));
    }
    if (c.subs.size() != x.arrays[c.array].extents.size())
      throw NotExecutable{"reference to " + r.array + " has the wrong number of subscripts"};
    return c;
  }

  static void shiftRefs(CExpr &e, int by) {
    if (e.kind == Expr::Kind::Ref && e.table == 1) e.index += by;
    for (auto &a : e.args) shiftRefs(a, by);
  }

  CExpr expr(const Expr &e, size_t nrefs, int table = 0) {
    CExpr c;
    c.kind = e.kind;
    c.table = table;
    switch (e.kind) {
    case Expr::Kind::Const: c.value = e.value; break;
    case Expr::Kind::Ref:
      if (e.refIndex < 0 || static_cast<size_t>(e.refIndex) >= nrefs)
        throw NotExecutable{"expression names reference " + std::to_string(e.refIndex)};
      c.index = e.refIndex;
      break;
    case Expr::Kind::Scalar: c.index = scalar(e.name); break;
    case Expr::Kind::Iv: {
      auto it = loopSlot.find(e.name);
      if (it == loopSlot.end()) throw NotExecutable{"expression names unknown loop " + e.name};
      c.index = it->second;
      break;
    }
    case Expr::Kind::Param: {
      auto it = p.params.find(e.name);
      if (it == p.params.end()) throw NotExecutable{"parameter " + e.name + " has no value"};
      c.kind = Expr::Kind::Const;
      c.value = static_cast<double>(it->second);
      break;
    }
    case Expr::Kind::Op:
    case Expr::Kind::Call: {
      std::string n = e.name;
      std::transform(n.begin(), n.end(), n.begin(), ::tolower);
      auto it = opNames().find(n);
      if (it == opNames().end())
        throw NotExecutable{std::string(e.kind == Expr::Kind::Call ? "call to " : "operator ") +
                            e.name + " cannot be evaluated"};
      c.kind = Expr::Kind::Op;
      c.op = it->second;
      for (auto &a : e.args) c.args.push_back(expr(a, nrefs, table));
      break;
    }
    }
    return c;
  }

  Result<ExecProgram> run();
};

Result<ExecProgram> Compiler::run() {
  for (const auto &a : p.arrays) {
    CArray c;
    c.name = a.name;
    c.type = a.elementType;
    c.elementBytes = a.elementBytes;
    c.columnMajor = a.columnMajor;
    for (auto &d : a.dims) {
      c.extents.push_back(d.extent);
      c.lowers.push_back(d.lower);
    }
    x.arrays.push_back(std::move(c));
  }
  for (const auto &s : p.scalars) {
    scalar(s.name);
    x.scalarTypes.back() = s.type;
  }
  for (size_t i = 0; i < p.loops.size(); ++i) loopSlot[p.loops[i].id] = static_cast<int>(i);
  std::map<std::string, int> stmtPhase;
  for (size_t k = 0; k < p.phases.size(); ++k)
    for (auto &s : p.phases[k].statements) stmtPhase[s] = static_cast<int>(k);

  // Loops: bounds may be unusable; a loop's problem is its statements'.
  std::vector<std::string> loopProblem(p.loops.size());
  for (size_t i = 0; i < p.loops.size(); ++i) {
    const Loop &l = p.loops[i];
    CLoop c;
    c.id = l.id;
    c.var = l.var;
    c.depth = static_cast<int>(l.level);
    c.step = l.step;
    try {
      c.lower = bound(l.lower, l, "lower");
      c.upper = bound(l.upper, l, "upper");
    } catch (const NotExecutable &e) {
      loopProblem[i] = e.reason;
    }
    x.loops.push_back(std::move(c));
  }

  x.phases.resize(p.phases.size());
  for (size_t k = 0; k < p.phases.size(); ++k) x.phases[k].id = p.phases[k].id;

  // Statements.
  std::vector<std::string> stmtProblem(p.statements.size());
  for (size_t i = 0; i < p.statements.size(); ++i) {
    const Statement &s = p.statements[i];
    CStmt c;
    c.id = s.id;
    auto ph = stmtPhase.find(s.id);
    c.phase = ph == stmtPhase.end() ? -1 : ph->second;
    c.ops = s.ops;
    c.lhs = s.write;
    c.reduce = reduceFromString(s.reduction);
    try {
      for (auto &l : s.loops) {
        int slot = loopSlot.at(l);
        if (!loopProblem[slot].empty()) throw NotExecutable{loopProblem[slot]};
        c.loops.push_back(slot);
      }
      replicatedNow.clear();
      for (auto &r : s.refs) c.refs.push_back(ref(r, c.indexRefs, false));
      for (auto &r : c.refs)
        if (r.subs.size() > 8) throw NotExecutable{"an array of rank above 8"};
      if (s.write >= static_cast<int>(c.refs.size()))
        throw NotExecutable{"the written reference does not exist"};
      c.replicated = replicatedNow;
      // An indirect left-hand side (Y(IA(I)) = Y(IA(I)) + ...): owner-
      // computes with an inspector; every rank learns the index value
      // (broadcast by its home) and the holders of Y(IA(I)) run it.
      if (s.write >= 0 && c.refs[s.write].indirect()) {
        c.aheadLevel = c.depth(); // until the index values can come ahead (below)
        for (auto &sub : c.refs[s.write].subs)
          if (sub.indirect) c.replicated.push_back(sub.indexRef);
      }
      if (s.write < 0) {
        if (s.scalarWrite.empty()) throw NotExecutable{"statement writes nothing"};
        c.scalar = scalar(s.scalarWrite);
      }
      c.expr = expr(s.expr, s.refs.size());
      for (auto &g : s.guards) c.guards.push_back(expr(g.condition, s.refs.size()));
    } catch (const NotExecutable &e) {
      stmtProblem[i] = e.reason;
    } catch (const std::out_of_range &) {
      stmtProblem[i] = "statement names an unknown loop";
    }
    x.stmts.push_back(std::move(c));
  }
  for (size_t i = 0; i < p.statements.size(); ++i) {
    int ph = x.stmts[i].phase;
    if (ph < 0) continue;
    if (!stmtProblem[i].empty() && x.phases[ph].executable) {
      x.phases[ph].executable = false;
      x.phases[ph].reason = p.statements[i].id + ": " + stmtProblem[i];
    }
  }

  // Integer arrays read by a loop bound (CSR row pointers: DO K = R(I),
  // R(I+1) - 1) are filled with values the loop's index may take: the range
  // every subscript that is the index plus a constant allows (Fill.h). An
  // array whose elements j and j + 1 bound one loop is its runs' segments
  // (CArray::segments).
  auto adjacent = [](const CRef &from, const CRef &to) {
    return from.array == to.array && from.subs.size() == 1 && to.subs.size() == 1 &&
           !from.subs[0].indirect && !to.subs[0].indirect && from.subs[0].expr.empty() &&
           to.subs[0].expr.empty() && !from.subs[0].affine.terms.empty() &&
           from.subs[0].affine.terms == to.subs[0].affine.terms &&
           to.subs[0].affine.constant == from.subs[0].affine.constant + 1;
  };
  for (size_t slot = 0; slot < x.loops.size(); ++slot) {
    const CLoop &l = x.loops[slot];
    if (l.lower.refs.empty() && l.upper.refs.empty()) continue;
    if (l.step == 1)
      for (const CRef &from : l.lower.refs)
        for (const CRef &to : l.upper.refs)
          if (adjacent(from, to)) x.arrays[from.array].segments = true;
    int64_t lo = INT64_MIN, hi = INT64_MAX;
    for (const CStmt &st : x.stmts)
      for (const auto *refs : {&st.refs, &st.indexRefs})
        for (const CRef &r : *refs)
          for (size_t d = 0; d < r.subs.size(); ++d) {
            const CSub &sub = r.subs[d];
            if (sub.indirect || !sub.expr.empty() || sub.affine.terms.size() != 1 ||
                sub.affine.terms[0] != std::pair<int, int64_t>{static_cast<int>(slot), 1})
              continue;
            const CArray &a = x.arrays[r.array];
            lo = std::max(lo, a.lowers[d] - sub.affine.constant);
            hi = std::min(hi, a.lowers[d] + a.extents[d] - 1 - sub.affine.constant);
          }
    if (lo == INT64_MIN || lo > hi) continue;
    for (const CBound *b : {&l.lower, &l.upper})
      for (const CRef &r : b->refs) {
        CArray &ba = x.arrays[r.array];
        if (ba.type.empty() || (ba.type[0] != 'i' && ba.type[0] != 'u')) continue;
        if (!ba.isIndex || ba.indexHigh < ba.indexLow) {
          ba.indexLow = lo;
          ba.indexHigh = hi;
        } else {
          ba.indexLow = std::max(ba.indexLow, lo);
          ba.indexHigh = std::min(ba.indexHigh, hi);
        }
        ba.isIndex = true;
      }
  }

  // The loop trees, per phase: the distributed nest the plan gives (its
  // paths), which the distributed run walks, and the nest as written, which
  // the sequential reference walks. A loop node is shared by the statements
  // whose paths agree down to it.
  DistributedNest nest;
  auto &stmtLoops = nest.stmtLoops;
  auto &stmtNode = nest.stmtNode;
  stmtLoops.resize(x.stmts.size());
  stmtNode.assign(x.stmts.size(), -1);
  auto buildTree = [&](const Phase &phase, bool distributed, std::vector<int> &roots) {
    std::vector<std::pair<std::vector<int>, int>> order; // (path, statement)
    bool planned = distributed;
    for (auto &sid : phase.statements) {
      const Statement *ps = p.findStatement(sid);
      if (!ps) continue;
      int si = static_cast<int>(ps - p.statements.data());
      auto path = plan.paths.find(sid);
      if (path == plan.paths.end() || path->second.size() != ps->loops.size() + 1)
        planned = false;
      order.push_back({planned ? path->second : std::vector<int>{}, si});
    }
    if (planned)
      std::stable_sort(order.begin(), order.end(),
                       [](const auto &a, const auto &b) { return a.first < b.first; });
    else // as written: one copy of each loop, statements in program order
      for (auto &[path, si] : order) path.assign(x.stmts[si].loops.size() + 1, 0);
    std::map<std::pair<std::vector<int>, int>, int> loopNode; // (path above, slot)
    for (auto &[path, si] : order) {
      int parent = -1;
      for (size_t k = 0; k < x.stmts[si].loops.size(); ++k) {
        int slot = x.stmts[si].loops[k];
        auto key = std::make_pair(std::vector<int>(path.begin(), path.begin() + k + 1), slot);
        auto [it, fresh] = loopNode.try_emplace(key, static_cast<int>(x.nodes.size()));
        if (fresh) {
          x.nodes.push_back({true, slot, {}, {}, {}});
          (parent < 0 ? roots : x.nodes[parent].children).push_back(it->second);
        }
        parent = it->second;
      }
      int n = static_cast<int>(x.nodes.size());
      x.nodes.push_back({false, si, {}, {}, {}});
      (parent < 0 ? roots : x.nodes[parent].children).push_back(n);
    }
    return planned;
  };
  for (size_t k = 0; k < p.phases.size(); ++k) {
    if (!x.phases[k].executable) continue;
    x.phases[k].distributed = buildTree(p.phases[k], true, x.phases[k].roots);
    buildTree(p.phases[k], false, x.phases[k].programRoots);
  }
  // The doall loops outside a statement's recurrence brought inside it, as
  // the estimator prices them (Interchange.h); then each statement's loop
  // nodes in the distributed nest, and its loops in their order.
  nest.writtenLoops.resize(x.stmts.size());
  std::vector<std::vector<int>> order(x.stmts.size());
  for (size_t i = 0; i < x.stmts.size(); ++i) {
    nest.writtenLoops[i] = x.stmts[i].loops;
    auto o = plan.orders.find(x.stmts[i].id);
    if (o == plan.orders.end()) continue;
    std::vector<int> levels = o->second; // a permutation of 1..depth, or ignored
    std::sort(levels.begin(), levels.end());
    bool permutation = static_cast<int>(levels.size()) == x.stmts[i].depth();
    for (size_t k = 0; k < levels.size() && permutation; ++k)
      permutation = levels[k] == static_cast<int>(k + 1);
    if (permutation)
      for (int level : o->second) order[i].push_back(x.stmts[i].loops[size_t(level - 1)]);
  }
  std::function<void(int, std::vector<int> &)> follow = [&](int n, std::vector<int> &chain) {
    const Node &node = x.nodes[n];
    if (!node.isLoop) {
      stmtLoops[node.index] = chain;
      stmtNode[node.index] = n;
      x.stmts[node.index].loops.clear();
      for (int c : chain) x.stmts[node.index].loops.push_back(x.nodes[c].index);
      return;
    }
    chain.push_back(n);
    for (size_t c = 0; c < x.nodes[n].children.size(); ++c) follow(x.nodes[n].children[c], chain);
    chain.pop_back();
  };
  for (auto &phase : x.phases) {
    if (!phase.executable) continue;
    if (phase.distributed) bringDoallsInside(x, order, phase.roots);
    std::vector<int> chain;
    for (int root : phase.roots) follow(root, chain);
  }

  // Private scalars (model/PrivateScalars.h): assigned where they are read;
  // a reduction that belongs to one runs whole there, with no partials.
  // Other reductions into scalars combine their partials once per execution
  // of their region (reductionRegion, the estimator's rule too).
  auto readers = privateScalarReaders(p);
  const auto regions = reductionRegions(p);
  for (size_t i = 0; i < x.stmts.size(); ++i) {
    CStmt &s = x.stmts[i];
    if (stmtNode[i] < 0 || s.scalar < 0 || s.reduce == Reduce::None || !readers[i].empty())
      continue;
    for (size_t r = 0; r < s.refs.size(); ++r)
      if (!s.refs[r].write && !s.refs[r].indirect()) { s.operand = static_cast<int>(r); break; }
    if (s.operand < 0) continue;
    int k = regions[i];
    if (k < 0 || size_t(k) >= stmtLoops[i].size()) {
      s.operand = -1; // replicated: every rank runs it
      continue;
    }
    s.regionLoop = s.loops[k];
    x.nodes[stmtLoops[i][k]].reductions.push_back(static_cast<int>(i));
  }

  // Reductions into array elements run at their home operand's owners,
  // their partial results combined onto the holders after their region
  // (model/Reduction.h, the estimator's rule too).
  for (size_t i = 0; i < x.stmts.size(); ++i) {
    CStmt &s = x.stmts[i];
    if (stmtNode[i] < 0 || s.lhs < 0 || s.reduce == Reduce::None) continue;
    ArrayReduction ar = arrayReduction(p, i);
    if (!ar.planned() || size_t(ar.region) >= stmtLoops[i].size()) continue;
    s.operand = ar.home;
    s.selfRead = ar.selfRead;
    s.regionLoop = s.loops[size_t(ar.region)];
    x.nodes[stmtLoops[i][size_t(ar.region)]].reductions.push_back(static_cast<int>(i));
  }

  for (size_t i = 0; i < x.stmts.size(); ++i)
    if (stmtNode[i] >= 0) x.stmts[i].consumers.assign(readers[i].begin(), readers[i].end());
  placeCommunication(p, plan, nest, x);
  return std::move(x);
}

} // namespace

Result<ExecProgram> compile(const Program &p, const Plan &plan) {
  Compiler c{p, plan, plan.levels, {}, {}, {}, {}};
  return c.run();
}

} // namespace dlayout::exec
