//===- analyzer/Guards.cpp - When a statement runs ------------------------===//
//
// A statement's guards are the conditions under which its block runs, in an
// iteration of its loops (or in the function, outside them); all must hold.
//
//   - A conditional branch that dominates the block through one of its
//     edges only adds that edge's condition (IF (c) THEN ...: c).
//   - A block below a switch (C's switch, Fortran's SELECT CASE) runs where
//     the switch goes to the cases that lead to it: its reaching condition
//     from the switch, below, each edge the value equal to one of the case
//     values that go there (or, the default, to none of the others).
//   - A block reached through both edges of a dominating branch, but not on
//     every path from it, is a join of paths: tred2's label 16, reached from
//     IF (L .LT. 2) GO TO 16 and, past DO 14, from IF (SCALE .NE. 0) GO TO
//     23 not taken, or C's if (a || b). It runs under a disjunction, its
//     reaching condition from the outermost such branch D:
//
//       R(D) = true,   R(X) = R(idom X)  where X post-dominates idom X,
//       R(X) = or over the edges P -> X of  R(P) and cond(P -> X),
//
//     over the blocks D dominates, in reverse post-order; a loop on the way
//     is taken whole, entered through its header and left to its one exit
//     block; an or of every live edge of one branch is true. Where that
//     cannot be formed (a loop that leaves to several places, irreducible
//     flow, a condition of more than kMaxTerms terms) the block is taken to
//     run whenever D does, with a warning.
//
// Tests that leave a loop guard nothing (the loop's bounds say when it
// runs), nor do pointer tests (C's `if (!a) return`). An IF whose condition
// reads an array element becomes a predicate (findPredicates).
//
//===----------------------------------------------------------------------===//
#include "analyzer/ExprMake.h"
#include "analyzer/FunctionBuilder.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/IR/CFG.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

using namespace llvm;
using dlayout::exprs::leaf;
using dlayout::exprs::op;

namespace dlayout {

/// A condition on the edges a run takes: true, false, one edge of a branch,
/// or an and / or of conditions.
struct ReachCondition {
  enum class Kind { True, False, Edge, And, Or };
  Kind kind = Kind::True;
  BasicBlock *branch = nullptr; // Edge: the branch's (or switch's) block
  BasicBlock *to = nullptr;     // Edge: the successor it goes to
  std::vector<ReachCondition> ops;

  static ReachCondition of(bool v) {
    ReachCondition r;
    r.kind = v ? Kind::True : Kind::False;
    return r;
  }
  static ReachCondition edge(BasicBlock *B, BasicBlock *to) {
    ReachCondition r;
    r.kind = Kind::Edge;
    r.branch = B;
    r.to = to;
    return r;
  }
  /// a and b (k = And) or a or b (k = Or), constants folded, flattened.
  static ReachCondition join(Kind k, ReachCondition a, ReachCondition b) {
    Kind unit = k == Kind::And ? Kind::True : Kind::False;
    Kind zero = k == Kind::And ? Kind::False : Kind::True;
    if (a.kind == zero || b.kind == unit) return a;
    if (b.kind == zero || a.kind == unit) return b;
    ReachCondition r;
    r.kind = k;
    for (ReachCondition *x : {&a, &b})
      if (x->kind == k)
        for (auto &o : x->ops) r.ops.push_back(std::move(o));
      else
        r.ops.push_back(std::move(*x));
    return r;
  }
  /// This condition where B is known to go to `to`: that edge true, B's
  /// others false.
  ReachCondition given(BasicBlock *B, BasicBlock *to) const {
    if (kind == Kind::Edge && branch == B) return of(this->to == to);
    if (kind != Kind::And && kind != Kind::Or) return *this;
    ReachCondition r = of(kind == Kind::And);
    for (auto &o : ops) r = join(kind, std::move(r), o.given(B, to));
    return r;
  }
  size_t terms() const {
    size_t n = 1;
    for (auto &o : ops) n += o.terms();
    return n;
  }
  void branches(std::vector<BasicBlock *> &out) const {
    if (kind == Kind::Edge) out.push_back(branch);
    for (auto &o : ops) o.branches(out);
  }
};

namespace {

constexpr size_t kMaxTerms = 64;

/// Whether D's branch can guard the blocks it dominates: a conditional
/// branch or a switch (SELECT CASE), not a loop's exit test, and not a test
/// of pointers (C's `if (!a) return` says nothing about values).
bool mayGuard(BasicBlock *D, llvm::LoopInfo &LI) {
  if (llvm::Loop *L = LI.getLoopFor(D); L && leavesLoop(D, L)) return false;
  if (isa<SwitchInst>(D->getTerminator())) return true;
  auto *Br = dyn_cast<BranchInst>(D->getTerminator());
  if (!Br || !Br->isConditional()) return false;
  if (deadEnd(Br->getSuccessor(0)) || deadEnd(Br->getSuccessor(1))) return false; // never false
  auto pointerTest = [](Value *C) {
    auto *Cmp = dyn_cast<CmpInst>(C);
    return Cmp && Cmp->getOperand(0)->getType()->isPointerTy();
  };
  if (pointerTest(Br->getCondition())) return false;
  if (auto *Or = dyn_cast<BinaryOperator>(Br->getCondition()))
    if (pointerTest(Or->getOperand(0))) return false;
  return true;
}

/// r with every or of all the live edges of one branch or switch (an
/// if-else or every case, met again after it) made true.
ReachCondition edgesCovered(const ReachCondition &r) {
  using Kind = ReachCondition::Kind;
  if (r.kind != Kind::And && r.kind != Kind::Or) return r;
  std::vector<ReachCondition> ops;
  for (const auto &o : r.ops) ops.push_back(edgesCovered(o));
  if (r.kind == Kind::Or) {
    std::map<BasicBlock *, std::set<BasicBlock *>> reached;
    for (const auto &o : ops)
      if (o.kind == Kind::Edge) reached[o.branch].insert(o.to);
    for (const auto &[branch, tos] : reached)
      if (std::all_of(succ_begin(branch), succ_end(branch),
                      [&](BasicBlock *S) { return deadEnd(S) || tos.count(S); }))
        return ReachCondition::of(true);
  }
  ReachCondition out = ReachCondition::of(r.kind == Kind::And);
  for (auto &o : ops) out = ReachCondition::join(r.kind, std::move(out), std::move(o));
  return out;
}

/// Whether every way out of L (dead ends aside) leads to X.
bool onlyExit(const llvm::Loop *L, const BasicBlock *X) {
  for (const BasicBlock *B : L->blocks())
    for (const BasicBlock *S : successors(B))
      if (!L->contains(S) && !deadEnd(S) && S != X) return false;
  return true;
}

/// The value a branch or switch at the end of D tests.
Value *testedValue(BasicBlock *D) {
  if (auto *Sw = dyn_cast<SwitchInst>(D->getTerminator())) return Sw->getCondition();
  return cast<BranchInst>(D->getTerminator())->getCondition();
}

} // namespace

/// The conditions that decide whether a block runs (see the file header).
void FunctionBuilder::addGuards(BasicBlock *BB) {
  // D going to `to`: a branch's condition or its negation; a switch's
  // value equal to one of the cases that go there, or (its default) to none
  // of the others.
  auto edgeExpr = [&](BasicBlock *D, BasicBlock *to) {
    auto pred = Predicates.find(D);
    Expr c = pred != Predicates.end() ? leaf(Expr::Kind::Scalar, pred->second)
                                      : expr(testedValue(D));
    if (auto *Br = dyn_cast<BranchInst>(D->getTerminator()))
      return Br->getSuccessor(0) == to ? c : op("not", {c});
    auto *Sw = cast<SwitchInst>(D->getTerminator());
    std::vector<Expr> equal, differ;
    for (auto &Case : Sw->cases()) {
      Expr v = exprs::constant(double(Case.getCaseValue()->getSExtValue()));
      (Case.getCaseSuccessor() == to ? equal : differ)
          .push_back(op(Case.getCaseSuccessor() == to ? "eq" : "ne", {c, v}));
    }
    if (Sw->getDefaultDest() == to)
      equal.push_back(differ.empty() ? exprs::constant(1) : differ.size() == 1 ? differ[0]
                                                                               : op("and", differ));
    return equal.size() == 1 ? equal[0] : op("or", equal);
  };
  auto edges = guardBranches(BB);
  for (auto [D, viaFalse] : edges) {
    Guard G;
    G.condition = edgeExpr(D, cast<BranchInst>(D->getTerminator())->getSuccessor(viaFalse));
    Cur->guards.push_back(G);
  }
  BasicBlock *D = partialJoin(BB);
  if (!D) return;
  auto R = reachingCondition(D, BB);
  if (R) // what the guards above say already
    for (auto [B, viaFalse] : edges)
      R = R->given(B, cast<BranchInst>(B->getTerminator())->getSuccessor(viaFalse));
  if (R && R->kind == ReachCondition::Kind::True) return;
  if (!R) {
    warnOnce("control", "a statement reached along several paths (GO TOs, "
             "short-circuit conditions, the cases of a switch) whose conditions "
             "could not be combined is taken to run whenever the test above "
             "them does", Cur->loc);
    return;
  }
  std::function<Expr(const ReachCondition &)> build = [&](const ReachCondition &r) -> Expr {
    switch (r.kind) {
    case ReachCondition::Kind::True: return exprs::constant(1);
    case ReachCondition::Kind::False: return exprs::constant(0);
    case ReachCondition::Kind::Edge: return edgeExpr(r.branch, r.to);
    default: break;
    }
    std::vector<Expr> args;
    for (auto &o : r.ops) args.push_back(build(o));
    return op(r.kind == ReachCondition::Kind::And ? "and" : "or", std::move(args));
  };
  Guard G;
  G.condition = build(*R);
  Cur->guards.push_back(G);
}

std::vector<std::pair<BasicBlock *, bool>> FunctionBuilder::guardBranches(BasicBlock *BB) {
  auto &DT = Sym.dt();
  auto &PDT = Sym.pdt();
  std::vector<std::pair<BasicBlock *, bool>> out;
  for (BasicBlock *D = guardAbove(BB); D; D = guardAbove(D)) {
    auto *Br = dyn_cast<BranchInst>(D->getTerminator());
    if (!Br || PDT.dominates(BB, D)) continue; // a switch: partialJoin's
    bool viaTrue = DT.dominates(BasicBlockEdge(D, Br->getSuccessor(0)), BB);
    bool viaFalse = DT.dominates(BasicBlockEdge(D, Br->getSuccessor(1)), BB);
    if (viaTrue == viaFalse) continue;
    out.insert(out.begin(), {D, viaFalse});
  }
  return out;
}

BasicBlock *FunctionBuilder::partialJoin(BasicBlock *BB) {
  auto &DT = Sym.dt();
  auto &LI = Sym.loopInfo();
  BasicBlock *outermost = nullptr;
  for (BasicBlock *D = guardAbove(BB); D; D = guardAbove(D)) {
    if (llvm::Loop *L = LI.getLoopFor(D); L && !L->contains(BB)) continue;
    if (Sym.pdt().dominates(BB, D)) continue;
    auto *Br = dyn_cast<BranchInst>(D->getTerminator());
    if (!Br) { // a switch: what its cases reach, from it
      outermost = D;
      continue;
    }
    if (Br->getSuccessor(0) == Br->getSuccessor(1)) continue;
    if (!DT.dominates(BasicBlockEdge(D, Br->getSuccessor(0)), BB) &&
        !DT.dominates(BasicBlockEdge(D, Br->getSuccessor(1)), BB))
      outermost = D;
  }
  return outermost;
}

std::optional<ReachCondition> FunctionBuilder::reachingCondition(BasicBlock *D, BasicBlock *BB) {
  auto &DT = Sym.dt();
  auto &PDT = Sym.pdt();
  auto &LI = Sym.loopInfo();
  if (Rpo.empty()) {
    for (BasicBlock *B : ReversePostOrderTraversal<Function *>(&F)) {
      RpoIndex[B] = Rpo.size();
      Rpo.push_back(B);
    }
  }
  size_t first = RpoIndex.at(D), last = RpoIndex.at(BB);
  // R(X) for the blocks D dominates from D to BB; nullopt: not formed.
  std::map<const BasicBlock *, std::optional<ReachCondition>> R;
  R[D] = ReachCondition::of(true);
  auto at = [&](BasicBlock *X) -> std::optional<ReachCondition> {
    auto it = R.find(X);
    return it == R.end() ? std::nullopt : it->second;
  };
  auto reach = [&](BasicBlock *X) -> std::optional<ReachCondition> {
    BasicBlock *I = DT.getNode(X)->getIDom()->getBlock();
    if (PDT.dominates(X, I)) return at(I);
    llvm::Loop *XL = LI.getLoopFor(X);
    ReachCondition r = ReachCondition::of(false);
    for (BasicBlock *P : predecessors(X)) {
      if (!DT.isReachableFromEntry(P) || !DT.dominates(D, P)) continue;
      if (RpoIndex.at(P) >= RpoIndex.at(X)) { // a retreating edge: a loop's back edge only
        if (XL && XL->getHeader() == X && XL->contains(P)) continue;
        return std::nullopt;
      }
      // Leaving loops X is outside: from the outermost one's header, if
      // every way out of it leads to X.
      llvm::Loop *Left = nullptr;
      for (llvm::Loop *L = LI.getLoopFor(P); L && !L->contains(X); L = L->getParentLoop())
        Left = L;
      BasicBlock *From = P;
      ReachCondition cond = ReachCondition::of(true);
      if (Left) {
        if (Left->contains(D) || !onlyExit(Left, X)) return std::nullopt;
        From = Left->getHeader();
      } else if (auto *Br = dyn_cast<BranchInst>(P->getTerminator())) {
        if (Br->isConditional() && Br->getSuccessor(0) != Br->getSuccessor(1) &&
            mayGuard(P, LI))
          cond = ReachCondition::edge(P, X);
      } else if (isa<SwitchInst>(P->getTerminator())) {
        if (mayGuard(P, LI))
          cond = ReachCondition::edge(P, X);
      } else {
        return std::nullopt; // an invoke, an indirect branch
      }
      auto from = at(From);
      if (!from) return std::nullopt;
      r = ReachCondition::join(ReachCondition::Kind::Or, std::move(r),
                               ReachCondition::join(ReachCondition::Kind::And, *from, cond));
      if (r.terms() > kMaxTerms) return std::nullopt;
    }
    return edgesCovered(r);
  };
  for (size_t k = first + 1; k <= last; ++k)
    if (DT.dominates(D, Rpo[k])) R[Rpo[k]] = reach(Rpo[k]);
  return at(BB);
}

void FunctionBuilder::findPredicates() {
  std::set<std::string> names;
  for (auto &s : P.scalars) names.insert(s.name);
  for (BasicBlock &BB : F) {
    std::vector<BasicBlock *> tests;
    for (auto &branch : guardBranches(&BB)) tests.push_back(branch.first);
    if (BasicBlock *D = partialJoin(&BB))
      if (auto R = reachingCondition(D, &BB)) R->branches(tests);
    for (BasicBlock *D : tests) {
      if (Predicates.count(D) || !readsArray(testedValue(D), Sym)) continue;
      // A name no source variable can have; "if@LINE", made unique.
      std::string base = "if@" + std::to_string(Sym.locOf(D->getTerminator()).line), name = base;
      for (int k = 2; names.count(name); ++k) name = base + "." + std::to_string(k);
      names.insert(name);
      Predicates[D] = name;
    }
  }
  for (BasicBlock &BB : F)
    if (Predicates.count(&BB)) PredicateBlocks.push_back(&BB);
}

/// `if@LINE = condition` at the end of the IF's block, under the IF's own
/// guards.
void FunctionBuilder::addPredicates() {
  for (BasicBlock *D : PredicateBlocks) {
    Instruction *Br = D->getTerminator();
    Statement S;
    S.id = "S" + std::to_string(++StmtCounter);
    S.loc = Sym.locOf(Br);
    for (llvm::Loop *L = Sym.loopInfo().getLoopFor(D); L; L = L->getParentLoop())
      if (auto *R = Sym.record(L)) S.loops.insert(S.loops.begin(), R->id);
    S.scalarWrite = Predicates[D];
    P.statements.push_back(S);
    size_t index = P.statements.size() - 1;
    StmtAt.push_back(Br);
    Cur = &P.statements[index];
    CurAccesses.clear();
    Cur->expr = expr(testedValue(D), /*root=*/true);
    addGuards(D);
    P.scalars.push_back(Scalar{Cur->scalarWrite, "i32", Cur->loc});
    for (auto &[ref, access] : CurAccesses) PendingRefs.push_back({index, ref, access});
    Cur = nullptr;
  }
}

BasicBlock *FunctionBuilder::guardAbove(BasicBlock *BB) {
  // Up the dominator tree to a block already answered (or the root), then
  // answer every block passed on the way, top-down.
  std::vector<BasicBlock *> path;
  BasicBlock *known = nullptr;
  for (auto *N = Sym.dt().getNode(BB); N && N->getIDom(); N = N->getIDom()) {
    if (auto it = GuardAbove.find(N->getBlock()); it != GuardAbove.end()) {
      known = it->second;
      break;
    }
    path.push_back(N->getBlock());
  }
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    BasicBlock *D = Sym.dt().getNode(*it)->getIDom()->getBlock();
    known = GuardAbove[*it] = mayGuard(D, Sym.loopInfo()) ? D : known;
  }
  return path.empty() ? known : GuardAbove[BB];
}

} // namespace dlayout
