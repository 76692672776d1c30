//===- analyzer/Guards.cpp - When a statement runs ------------------------===//
//
// A statement's guards are the conditions under which its block runs, in an
// iteration of its loops (or in the function, outside them); all must hold.
//
//   - A conditional branch that dominates the block through one of its
//     edges only adds that edge's condition (IF (c) THEN ...: c).
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
//     is taken whole, entered through its header and left through its one
//     exit. Where that cannot be formed (a switch, a loop with several
//     exits, irreducible flow, a condition of more than kMaxTerms terms) the
//     block is taken to run whenever D does, with a warning.
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

#include <functional>
#include <map>
#include <optional>

using namespace llvm;
using dlayout::exprs::leaf;
using dlayout::exprs::op;

namespace dlayout {

/// A condition on the edges a run takes: true, false, one edge of a branch,
/// or an and / or of conditions.
struct ReachCondition {
  enum class Kind { True, False, Edge, And, Or };
  Kind kind = Kind::True;
  BasicBlock *branch = nullptr; // Edge: the branch's block
  bool onFalse = false;         // Edge: its false edge
  std::vector<ReachCondition> ops;

  static ReachCondition of(bool v) {
    ReachCondition r;
    r.kind = v ? Kind::True : Kind::False;
    return r;
  }
  static ReachCondition edge(BasicBlock *B, bool onFalse) {
    ReachCondition r;
    r.kind = Kind::Edge;
    r.branch = B;
    r.onFalse = onFalse;
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
  /// This condition where edge (B, onFalse) is known taken: that edge true,
  /// the other false.
  ReachCondition given(BasicBlock *B, bool onFalse) const {
    if (kind == Kind::Edge && branch == B) return of(this->onFalse == onFalse);
    if (kind != Kind::And && kind != Kind::Or) return *this;
    ReachCondition r = of(kind == Kind::And);
    for (auto &o : ops) r = join(kind, std::move(r), o.given(B, onFalse));
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
/// branch, not a loop's exit test, and not a test of pointers (C's
/// `if (!a) return` says nothing about values).
bool mayGuard(BasicBlock *D, llvm::LoopInfo &LI) {
  auto *Br = dyn_cast<BranchInst>(D->getTerminator());
  if (!Br || !Br->isConditional()) return false;
  if (llvm::Loop *L = LI.getLoopFor(D); L && L->isLoopExiting(D)) return false;
  auto pointerTest = [](Value *C) {
    auto *Cmp = dyn_cast<CmpInst>(C);
    return Cmp && Cmp->getOperand(0)->getType()->isPointerTy();
  };
  if (pointerTest(Br->getCondition())) return false;
  if (auto *Or = dyn_cast<BinaryOperator>(Br->getCondition()))
    if (pointerTest(Or->getOperand(0))) return false;
  return true;
}

} // namespace

/// The conditions that decide whether a block runs (see the file header).
void FunctionBuilder::addGuards(BasicBlock *BB) {
  auto edgeExpr = [&](BasicBlock *D, bool onFalse) {
    auto *Br = cast<BranchInst>(D->getTerminator());
    auto pred = Predicates.find(D);
    Expr c = pred != Predicates.end() ? leaf(Expr::Kind::Scalar, pred->second)
                                      : expr(Br->getCondition());
    return onFalse ? op("not", {c}) : c;
  };
  auto edges = guardBranches(BB);
  for (auto [D, viaFalse] : edges) {
    Guard G;
    G.condition = edgeExpr(D, viaFalse);
    Cur->guards.push_back(G);
  }
  BasicBlock *D = partialJoin(BB);
  if (!D) return;
  auto R = reachingCondition(D, BB);
  if (R) // what the guards above say already
    for (auto [B, viaFalse] : edges) R = R->given(B, viaFalse);
  if (R && R->kind == ReachCondition::Kind::True) return;
  if (!R) {
    warnOnce("control", "a statement reached along several paths of GO TOs or "
             "short-circuit conditions whose conditions could not be combined "
             "is taken to run whenever the test above them does", Cur->loc);
    return;
  }
  std::function<Expr(const ReachCondition &)> build = [&](const ReachCondition &r) -> Expr {
    switch (r.kind) {
    case ReachCondition::Kind::True: return exprs::constant(1);
    case ReachCondition::Kind::False: return exprs::constant(0);
    case ReachCondition::Kind::Edge: return edgeExpr(r.branch, r.onFalse);
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
    auto *Br = cast<BranchInst>(D->getTerminator());
    if (PDT.dominates(BB, D)) continue;
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
    auto *Br = cast<BranchInst>(D->getTerminator());
    if (llvm::Loop *L = LI.getLoopFor(D); L && !L->contains(BB)) continue;
    if (Br->getSuccessor(0) == Br->getSuccessor(1) || Sym.pdt().dominates(BB, D)) continue;
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
      // Leaving loops X is outside: from the outermost one's header, if X
      // is its only exit.
      llvm::Loop *Left = nullptr;
      for (llvm::Loop *L = LI.getLoopFor(P); L && !L->contains(X); L = L->getParentLoop())
        Left = L;
      BasicBlock *From = P;
      ReachCondition cond = ReachCondition::of(true);
      if (Left) {
        if (Left->contains(D) || !Left->getUniqueExitBlock()) return std::nullopt;
        From = Left->getHeader();
      } else if (auto *Br = dyn_cast<BranchInst>(P->getTerminator())) {
        if (Br->isConditional() && Br->getSuccessor(0) != Br->getSuccessor(1) &&
            mayGuard(P, LI))
          cond = ReachCondition::edge(P, Br->getSuccessor(1) == X);
      } else {
        return std::nullopt; // a switch, ...
      }
      auto from = at(From);
      if (!from) return std::nullopt;
      r = ReachCondition::join(ReachCondition::Kind::Or, std::move(r),
                               ReachCondition::join(ReachCondition::Kind::And, *from, cond));
      if (r.terms() > kMaxTerms) return std::nullopt;
    }
    return r;
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
      auto *Br = cast<BranchInst>(D->getTerminator());
      if (Predicates.count(D) || !readsArray(Br->getCondition(), Sym)) continue;
      // A name no source variable can have; "if@LINE", made unique.
      std::string base = "if@" + std::to_string(Sym.locOf(Br).line), name = base;
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
    auto *Br = cast<BranchInst>(D->getTerminator());
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
    Cur->expr = expr(Br->getCondition(), /*root=*/true);
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
