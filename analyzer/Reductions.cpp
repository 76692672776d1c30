//===- analyzer/Reductions.cpp - Scalar recurrences and array reductions --===//
//
// A loop-carried scalar (a header phi that is not an induction) is a
// reduction when every update applies one associative operator to it --
// sum, product, min, max, and, or, xor -- and a scalar dependence that makes
// the loop sequential otherwise. A statement A(s) = A(s) op x is a
// reduction into an array element when some loop around it does not appear
// in s.
//
//===----------------------------------------------------------------------===//
#include "analyzer/FunctionBuilder.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace dlayout {

/// Is V an update of the recurrence Phi by an associative operator?
/// Returns the reduction kind, or "".
static std::string updateKind(Value *V, PHINode *Phi, int depth = 0) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || depth > 8) return "";
  auto uses = [&](Value *X) { return X == Phi; };
  if (auto *B = dyn_cast<BinaryOperator>(I)) {
    Value *A = B->getOperand(0), *C = B->getOperand(1);
    switch (B->getOpcode()) {
    case Instruction::FAdd: case Instruction::Add:
      if (uses(A) || uses(C)) return "sum";
      break;
    case Instruction::FSub: case Instruction::Sub:
      if (uses(A)) return "sum";
      break;
    case Instruction::FMul: case Instruction::Mul:
      if (uses(A) || uses(C)) return "prod";
      break;
    case Instruction::And: if (uses(A) || uses(C)) return "and"; break;
    case Instruction::Or: if (uses(A) || uses(C)) return "or"; break;
    case Instruction::Xor: if (uses(A) || uses(C)) return "xor"; break;
    default: break;
    }
    return "";
  }
  if (auto *Call = dyn_cast<IntrinsicInst>(I)) {
    const char *n = intrinsicName(Call->getIntrinsicID());
    if (n && (std::string(n) == "max" || std::string(n) == "min") &&
        (uses(Call->getArgOperand(0)) || uses(Call->getArgOperand(1))))
      return n;
    if (Call->getIntrinsicID() == Intrinsic::fmuladd && uses(Call->getArgOperand(2)))
      return "sum";
    return "";
  }
  if (auto *Sel = dyn_cast<SelectInst>(I)) {
    auto *Cmp = dyn_cast<CmpInst>(Sel->getCondition());
    if (Cmp && (uses(Sel->getTrueValue()) || uses(Sel->getFalseValue())) &&
        (uses(Cmp->getOperand(0)) || uses(Cmp->getOperand(1)))) {
      bool greater = Cmp->isFPPredicate() ? (Cmp->getPredicate() == CmpInst::FCMP_OGT ||
                                             Cmp->getPredicate() == CmpInst::FCMP_OGE ||
                                             Cmp->getPredicate() == CmpInst::FCMP_UGT ||
                                             Cmp->getPredicate() == CmpInst::FCMP_UGE)
                                          : Cmp->isRelational() && ICmpInst::isGT(Cmp->getPredicate());
      bool phiFirst = uses(Cmp->getOperand(0));
      bool keepsPhiWhenTrue = uses(Sel->getTrueValue());
      // select(phi > x, phi, x) is a max; the other spellings follow.
      bool isMax = greater == phiFirst ? keepsPhiWhenTrue : !keepsPhiWhenTrue;
      return isMax ? "max" : "min";
    }
    return "";
  }
  if (auto *Merge = dyn_cast<PHINode>(I)) {
    // A conditional update: every incoming value is the phi or an update.
    std::string kind;
    for (Value *In : Merge->incoming_values()) {
      if (In == Phi) continue;
      std::string k = updateKind(In, Phi, depth + 1);
      if (k.empty() || (!kind.empty() && k != kind)) return "";
      kind = k;
    }
    return kind;
  }
  return "";
}

/// Header phis other than inductions are values carried from one iteration
/// to the next: a reduction when updated by an associative operator,
/// otherwise a scalar dependence that makes the loop sequential.
void FunctionBuilder::findScalarRecurrences() {
  for (auto &R : Sym.loops()) {
    llvm::Loop *L = R.loop;
    BasicBlock *Latch = L->getLoopLatch();
    for (PHINode &Phi : L->getHeader()->phis()) {
      if (isa<SCEVAddRecExpr>(Sym.se().getSCEV(&Phi))) continue;
      if (!Latch || Phi.getBasicBlockIndex(Latch) < 0) continue;
      Value *Update = Phi.getIncomingValueForBlock(Latch);
      std::string kind = updateKind(Update, &Phi);
      Recurrences[&Phi] = kind;
      auto Var = recurrenceVariable(&Phi);
      std::string name = Var ? Sym.spell(Var->name) : Sym.nameOf(&Phi);
      if (!kind.empty()) {
        // The statement that updates it: the update, or the updates merged.
        std::vector<Value *> work = {Update};
        while (!work.empty()) {
          Value *V = work.back();
          work.pop_back();
          if (auto *M = dyn_cast<PHINode>(V)) {
            for (Value *In : M->incoming_values())
              if (In != &Phi) work.push_back(In);
          } else if (auto *I = dyn_cast<Instruction>(V)) {
            ReductionUpdates[I] = kind;
          }
        }
        continue;
      }
      Dependence D;
      D.kind = Dependence::Kind::Flow;
      D.variable = name;
      D.carriedBy = R.id;
      P.dependences.push_back(D); // numbered and attached by Dependences
    }
  }
}

/// A statement A(s) = A(s) op x is a reduction into an array element when
/// some loop around it does not appear in s: the element accumulates over
/// that loop's iterations.
void FunctionBuilder::markArrayReductions() {
  for (size_t s = FirstStatement; s < P.statements.size(); ++s) {
    Statement &St = P.statements[s];
    if (St.write < 0 || !St.reduction.empty() || St.expr.kind != Expr::Kind::Op) continue;
    static const std::map<std::string, std::string> kinds = {
        {"+", "sum"}, {"-", "sum"}, {"*", "prod"}, {"max", "max"}, {"min", "min"}};
    auto k = kinds.find(St.expr.name);
    if (k == kinds.end()) continue;
    const Reference &W = St.refs[St.write];
    bool self = false;
    for (size_t a = 0; a < St.expr.args.size(); ++a) {
      auto &arg = St.expr.args[a];
      if (arg.kind != Expr::Kind::Ref || (St.expr.name == "-" && a != 0)) continue;
      const Reference &R = St.refs[arg.refIndex];
      if (R.array == W.array && R.subscripts == W.subscripts) self = true;
    }
    if (!self) continue;
    // The innermost such loop, provided no other statement in it touches
    // the array (an element reset or read in between is no reduction).
    for (auto l = St.loops.rbegin(); l != St.loops.rend(); ++l) {
      bool appears = false;
      for (auto &sub : W.subscripts)
        if (sub.affine.coeffs.count(*l) || sub.cls == SubscriptClass::Unknown ||
            sub.cls == SubscriptClass::Indirect)
          appears = true;
      if (appears) continue;
      bool alone = true;
      for (size_t o = FirstStatement; o < P.statements.size(); ++o) {
        const Statement &Other = P.statements[o];
        if (o == s || std::find(Other.loops.begin(), Other.loops.end(), *l) == Other.loops.end())
          continue;
        for (auto &r : Other.refs)
          if (r.array == W.array) alone = false;
      }
      if (alone) St.reduction = k->second;
      break;
    }
  }
}

} // namespace dlayout
