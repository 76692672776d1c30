//===- analyzer/Statements.cpp - Statements and expressions ----------------===//
//
// A statement is a store to an array element or a scalar variable in memory,
// or an assignment to a named scalar temporary that holds a floating-point
// value or one read from an array (mem2reg turned those into SSA values that
// debug info still names). Integer temporaries computed from induction
// variables (L = I - 1) are not statements: they are folded into the
// subscripts and bounds that use them.
//
//===----------------------------------------------------------------------===//
#include "analyzer/ExprMake.h"
#include "analyzer/FunctionBuilder.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;
using dlayout::exprs::leaf;
using dlayout::exprs::op;

namespace dlayout {

namespace {

/// Runtime entry points of flang and the C library that do not touch the
/// program's arrays.
bool harmlessCall(StringRef name) {
  return name.starts_with("_FortranAProgram") || name.starts_with("_FortranAStop") ||
         name.starts_with("_FortranAioOutput") || name.starts_with("_FortranAioBegin") ||
         name.starts_with("_FortranAioEnd") || name == "printf" || name == "puts" ||
         name == "malloc" || name == "calloc" || name == "free" || name == "exit" ||
         name == "abort" || name == "__assert_fail" || name.starts_with("llvm.");
}

const char *cmpName(CmpInst::Predicate p) {
  switch (p) {
  case CmpInst::FCMP_OEQ: case CmpInst::FCMP_UEQ: case CmpInst::ICMP_EQ: return "eq";
  case CmpInst::FCMP_ONE: case CmpInst::FCMP_UNE: case CmpInst::ICMP_NE: return "ne";
  case CmpInst::FCMP_OLT: case CmpInst::FCMP_ULT: case CmpInst::ICMP_SLT:
  case CmpInst::ICMP_ULT: return "lt";
  case CmpInst::FCMP_OLE: case CmpInst::FCMP_ULE: case CmpInst::ICMP_SLE:
  case CmpInst::ICMP_ULE: return "le";
  case CmpInst::FCMP_OGT: case CmpInst::FCMP_UGT: case CmpInst::ICMP_SGT:
  case CmpInst::ICMP_UGT: return "gt";
  case CmpInst::FCMP_OGE: case CmpInst::FCMP_UGE: case CmpInst::ICMP_SGE:
  case CmpInst::ICMP_UGE: return "ge";
  default: return nullptr; // ord, uno, true, false: not in the model's vocabulary
  }
}

/// How many of an intrinsic's arguments its model operator takes: llvm.abs
/// carries an is-int-min-poison flag, llvm.powi and copysign two values.
unsigned intrinsicArity(const char *name) {
  std::string n = name;
  return n == "abs" || n == "sqrt" || n == "exp" || n == "log" || n == "sin" || n == "cos" ? 1
                                                                                            : 2;
}

} // namespace

const char *intrinsicName(Intrinsic::ID id) {
  switch (id) {
  case Intrinsic::fabs: case Intrinsic::abs: return "abs";
  case Intrinsic::sqrt: return "sqrt";
  case Intrinsic::copysign: return "sign";
  case Intrinsic::minnum: case Intrinsic::minimum: case Intrinsic::smin:
  case Intrinsic::umin: return "min";
  case Intrinsic::maxnum: case Intrinsic::maximum: case Intrinsic::smax:
  case Intrinsic::umax: return "max";
  case Intrinsic::pow: case Intrinsic::powi: return "pow";
  case Intrinsic::exp: return "exp";
  case Intrinsic::log: return "log";
  case Intrinsic::sin: return "sin";
  case Intrinsic::cos: return "cos";
  default: return nullptr;
  }
}

// ----------------------------------------------------------------------------
// Finding statements
// ----------------------------------------------------------------------------

/// Does the value read an array, through unnamed instructions?
bool readsArray(Value *V, Symbols &Sym, int depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || depth > 32 || isa<PHINode>(I)) return false;
  if (auto *Ld = dyn_cast<LoadInst>(I)) {
    auto *O = Sym.objectOf(Ld->getPointerOperand());
    return O && O->kind == MemoryObject::Kind::Array;
  }
  for (Value *Op : I->operands())
    if (readsArray(Op, Sym, depth + 1)) return true;
  return false;
}

bool FunctionBuilder::interestingScalar(Instruction *I) {
  if (isa<PHINode>(I) || I->getType()->isVoidTy() || Sym.recordForIv(I)) return false;
  auto Var = Sym.variableOf(I);
  if (!Var) return false;
  for (auto &L : Sym.loops())
    if (L.var == Sym.spell(Var->name)) return false;
  if (I->getType()->isFloatingPointTy()) return true;
  return readsArray(I, Sym);
}

void FunctionBuilder::buildStatements() {
  findPredicates();
  for (BasicBlock &BB : F) {
    for (Instruction &I : BB) {
      if (isa<DbgInfoIntrinsic>(I)) continue;
      if (auto *S = dyn_cast<StoreInst>(&I)) {
        MemoryObject *O = Sym.objectOf(S->getPointerOperand());
        if (!O) {
          warnOnce("pointer", "a store through a pointer the analysis cannot "
                   "follow is ignored", Sym.locOf(&I));
          continue;
        }
        addStatement(S, S);
        continue;
      }
      if (auto *C = dyn_cast<CallInst>(&I)) {
        Function *Callee = C->getCalledFunction();
        if (!Callee) {
          warnOnce("unknown-call", "indirect call: assumed to read and write "
                   "none of the program's arrays", Sym.locOf(&I));
        } else if (Callee->isDeclaration() && !Callee->isIntrinsic() &&
                   !harmlessCall(Callee->getName()) && !C->onlyReadsMemory()) {
          warnOnce("unknown-call", "call to " + Callee->getName().str() +
                   ": not analysed; assumed to read and write none of the "
                   "program's arrays", Sym.locOf(&I));
        }
      }
      if (interestingScalar(&I)) addStatement(&I, &I);
    }
    addReductionStarts(BB);
  }
  addPredicates();
  buildPhases();
}

/// Phases: top-level nests and the straight-line runs between them; the
/// function's first statement starts a phase of its own (a run of scalar
/// statements does not go on into another function).
void FunctionBuilder::buildPhases() {
  for (size_t s = FirstStatement; s < P.statements.size(); ++s) {
    auto &St = P.statements[s];
    std::optional<std::string> top;
    if (!St.loops.empty()) top = St.loops.front();
    if (P.phases.size() == FirstPhase || P.phases.back().loop != top ||
        (!top && !P.phases.back().statements.empty() &&
         P.findStatement(P.phases.back().statements.back())->loops.size())) {
      Phase Ph;
      Ph.id = "P" + std::to_string(P.phases.size() + 1);
      Ph.loop = top;
      P.phases.push_back(Ph);
    }
    P.phases.back().statements.push_back(St.id);
  }
}

const llvm::Loop *FunctionBuilder::useScope(Instruction *I) {
  Instruction *At = Cur && !StmtAt.empty() ? StmtAt.back() : I;
  return Sym.loopInfo().getLoopFor(At->getParent());
}

const LoopRecord *FunctionBuilder::enclosingIv(Value *V) {
  const LoopRecord *R = Sym.recordForIv(V);
  auto *I = dyn_cast<Instruction>(V);
  const llvm::Loop *Scope = I ? useScope(I) : nullptr;
  return R && Scope && R->loop->contains(Scope) ? R : nullptr;
}

/// A reduction's start, set before its loop (FLUX = 0 before DO K: FLUX =
/// FLUX + ...): mem2reg folded the constant into the recurrence's phi, so no
/// instruction assigns it. A statement at the end of the loop's preheader
/// keeps the model's value right (without it the sum would run on over
/// every iteration of the loops outside).
void FunctionBuilder::addReductionStarts(BasicBlock &BB) {
  for (BasicBlock *Header : successors(&BB)) {
    llvm::Loop *L = Sym.loopInfo().getLoopFor(Header);
    if (!L || L->getHeader() != Header || L->getLoopPreheader() != &BB || !Sym.record(L))
      continue;
    for (PHINode &Phi : Header->phis()) {
      auto rec = Recurrences.find(&Phi);
      if (rec == Recurrences.end() || rec->second.empty() || !recurrenceVariable(&Phi)) continue;
      if (isa<Constant>(Phi.getIncomingValueForBlock(&BB)))
        addStatement(&Phi, BB.getTerminator());
    }
  }
}

/// The source variable a recurrence's phi carries: its own, or its update's.
std::optional<SourceVariable> FunctionBuilder::recurrenceVariable(PHINode *Phi) {
  if (auto Var = Sym.variableOf(Phi)) return Var;
  llvm::Loop *L = Sym.loopInfo().getLoopFor(Phi->getParent());
  BasicBlock *Latch = L ? L->getLoopLatch() : nullptr;
  if (!Latch || Phi->getBasicBlockIndex(Latch) < 0) return std::nullopt;
  return Sym.variableOf(Phi->getIncomingValueForBlock(Latch));
}

void FunctionBuilder::addStatement(Instruction *Root, Instruction *At) {
  Statement S;
  S.id = "S" + std::to_string(++StmtCounter);
  S.loc = Sym.locOf(At);
  for (llvm::Loop *L = Sym.loopInfo().getLoopFor(At->getParent()); L; L = L->getParentLoop())
    if (auto *R = Sym.record(L)) S.loops.insert(S.loops.begin(), R->id);
  auto prob = Opts.probabilities.find(S.loc.line);
  if (prob != Opts.probabilities.end()) S.probability = prob->second;

  P.statements.push_back(S);
  size_t index = P.statements.size() - 1;
  StmtAt.push_back(At);
  Cur = &P.statements[index];
  CurAccesses.clear();

  if (auto *St = dyn_cast<StoreInst>(Root)) {
    MemoryObject *O = Sym.objectOf(St->getPointerOperand());
    Cur->ops.stores = 1;
    if (O->kind == MemoryObject::Kind::Array) {
      Reference W;
      W.access = Reference::Access::Write;
      W.loc = Cur->loc;
      Cur->refs.push_back(W);
      Cur->write = 0;
      CurAccesses.push_back({0, accessOf(St, St->getPointerOperand(), O)});
    } else {
      Cur->scalarWrite = O->name;
    }
    Cur->expr = expr(St->getValueOperand());
  } else if (auto *Start = dyn_cast<PHINode>(Root)) { // addReductionStarts
    Cur->scalarWrite = Sym.spell(recurrenceVariable(Start)->name);
    Cur->expr = expr(Start->getIncomingValueForBlock(At->getParent()));
  } else {
    Cur->scalarWrite = Sym.spell(Sym.variableOf(Root)->name);
    Cur->expr = expr(Root, /*root=*/true);
    auto red = ReductionUpdates.find(Root);
    if (red != ReductionUpdates.end()) Cur->reduction = red->second;
  }
  addGuards(At->getParent());

  if (!Cur->scalarWrite.empty() &&
      std::none_of(P.scalars.begin(), P.scalars.end(),
                   [&](auto &s) { return s.name == Cur->scalarWrite; })) {
    Type *T = isa<StoreInst>(Root) ? cast<StoreInst>(Root)->getValueOperand()->getType()
                                   : Root->getType();
    std::string type = T->isDoubleTy() ? "f64" : T->isFloatTy() ? "f32"
                       : "i" + std::to_string(T->getScalarSizeInBits());
    P.scalars.push_back(Scalar{Cur->scalarWrite, type, Cur->loc});
  }
  for (auto &[ref, access] : CurAccesses) PendingRefs.push_back({index, ref, access});
  Cur = nullptr;
}

// ----------------------------------------------------------------------------
// Expressions and operation counts
// ----------------------------------------------------------------------------

Expr FunctionBuilder::polyExpr(const Poly &p) {
  std::vector<Expr> terms;
  for (auto &[m, c] : p.terms()) {
    Expr t = leaf(Expr::Kind::Const, "", (double)c);
    std::vector<Expr> factors;
    if (c != 1 || m.empty()) factors.push_back(t);
    for (auto &s : m) {
      if (s.rfind("iv:", 0) == 0) factors.push_back(leaf(Expr::Kind::Iv, s.substr(3)));
      else factors.push_back(leaf(Expr::Kind::Param, s.substr(2)));
    }
    Expr prod = factors[0];
    for (size_t k = 1; k < factors.size(); ++k) prod = op("*", {prod, factors[k]});
    terms.push_back(prod);
  }
  if (terms.empty()) return leaf(Expr::Kind::Const, "", 0);
  Expr sum = terms[0];
  for (size_t k = 1; k < terms.size(); ++k) sum = op("+", {sum, terms[k]});
  return sum;
}

Expr FunctionBuilder::expr(Value *V, bool root) {
  auto &ops = Cur->ops;
  if (auto *CF = dyn_cast<ConstantFP>(V))
    return leaf(Expr::Kind::Const, "", CF->getValueAPF().convertToDouble());
  if (auto *CI = dyn_cast<ConstantInt>(V))
    return leaf(Expr::Kind::Const, "", (double)CI->getSExtValue());
  if (auto *A = dyn_cast<Argument>(V)) {
    if (auto p = Sym.parameterOf(A)) return leaf(Expr::Kind::Param, *p);
    return scalarRead(Sym.nameOf(A), A->getType());
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I) return leaf(Expr::Kind::Const, "", 0);

  if (!root) {
    if (auto *R = enclosingIv(I)) return leaf(Expr::Kind::Iv, R->id);
    // Integer arithmetic on induction variables and parameters: the
    // affine form, whatever temporaries it went through.
    if (I->getType()->isIntegerTy() && Sym.se().isSCEVable(I->getType()) &&
        !isa<LoadInst>(I)) {
      Poly p = Sym.toPolyAt(Sym.se().getSCEV(I), useScope(I));
      if (p.isAffine()) return polyExpr(p);
    }
    if (auto Var = Sym.variableOf(I)) {
      std::string name = Sym.spell(Var->name);
      if (!isa<PHINode>(I) || !Sym.recordForIv(I)) return scalarRead(name, I->getType());
    }
  }

  if (auto *Ld = dyn_cast<LoadInst>(I)) {
    ops.loads++;
    MemoryObject *O = Sym.objectOf(Ld->getPointerOperand());
    if (!O) return leaf(Expr::Kind::Call, "load");
    if (O->kind == MemoryObject::Kind::Scalar) {
      if (auto p = Sym.parameterOf(Ld)) return leaf(Expr::Kind::Param, *p);
      return scalarRead(O->name, Ld->getType());
    }
    Reference R;
    R.access = Reference::Access::Read;
    R.loc = Sym.locOf(Ld);
    Cur->refs.push_back(R);
    size_t idx = Cur->refs.size() - 1;
    CurAccesses.push_back({idx, accessOf(Ld, Ld->getPointerOperand(), O)});
    Expr e = leaf(Expr::Kind::Ref, "");
    e.refIndex = (int)idx;
    return e;
  }
  if (auto *B = dyn_cast<BinaryOperator>(I)) {
    static const std::map<unsigned, std::pair<const char *, int>> table = {
        {Instruction::FAdd, {"+", 0}}, {Instruction::FSub, {"-", 0}},
        {Instruction::FMul, {"*", 1}}, {Instruction::FDiv, {"/", 2}},
        {Instruction::FRem, {"mod", 2}}, {Instruction::Add, {"+", 3}},
        {Instruction::Sub, {"-", 3}}, {Instruction::Mul, {"*", 4}},
        {Instruction::SDiv, {"/", 5}}, {Instruction::UDiv, {"/", 5}},
        {Instruction::SRem, {"mod", 5}}, {Instruction::URem, {"mod", 5}}};
    // On i1 (Fortran LOGICAL, C's && and ||) and, or and xor are logical;
    // on wider integers they are bitwise, and they and the shifts are
    // opaque temporaries below: the model has no bitwise operators.
    static const std::map<unsigned, std::pair<const char *, int>> logical = {
        {Instruction::And, {"and", 3}}, {Instruction::Or, {"or", 3}},
        {Instruction::Xor, {"ne", 3}}};
    const std::pair<const char *, int> *entry = nullptr;
    if (auto it = table.find(B->getOpcode()); it != table.end())
      entry = &it->second;
    else if (auto lt = logical.find(B->getOpcode());
             lt != logical.end() && B->getType()->isIntegerTy(1))
      entry = &lt->second;
    if (auto m = lowMaskModulus(B)) { // MOD(X, 2^k) as instcombine writes it
      ops.idiv++;
      return op("mod", {expr(B->getOperand(0)), leaf(Expr::Kind::Const, "", (double)*m)});
    }
    if (entry) {
      unsigned *counters[] = {&ops.fadd, &ops.fmul, &ops.fdiv, &ops.iadd, &ops.imul, &ops.idiv};
      ++*counters[entry->second];
      return op(entry->first, {expr(B->getOperand(0)), expr(B->getOperand(1))});
    }
  }
  if (auto *U = dyn_cast<UnaryOperator>(I); U && U->getOpcode() == Instruction::FNeg)
    return op("neg", {expr(U->getOperand(0))});
  if (auto *C = dyn_cast<CastInst>(I)) return expr(C->getOperand(0));
  if (auto *Cmp = dyn_cast<CmpInst>(I))
    if (const char *name = cmpName(Cmp->getPredicate())) {
      ops.compares++;
      return op(name, {expr(Cmp->getOperand(0)), expr(Cmp->getOperand(1))});
    }
  if (auto *Sel = dyn_cast<SelectInst>(I))
    return op("select", {expr(Sel->getCondition()), expr(Sel->getTrueValue()),
                         expr(Sel->getFalseValue())});
  if (auto *Call = dyn_cast<CallInst>(I)) {
    std::vector<Expr> args;
    Function *Callee = Call->getCalledFunction();
    if (Callee && (Callee->getIntrinsicID() == Intrinsic::fmuladd ||
                   Callee->getIntrinsicID() == Intrinsic::fma)) {
      ops.fmul++;
      ops.fadd++;
      return op("+", {op("*", {expr(Call->getArgOperand(0)), expr(Call->getArgOperand(1))}),
                      expr(Call->getArgOperand(2))});
    }
    if (Callee)
      if (const char *name = intrinsicName(Callee->getIntrinsicID());
          name && Call->arg_size() >= intrinsicArity(name)) {
        ops.intrinsics++;
        for (unsigned k = 0; k < intrinsicArity(name); ++k)
          args.push_back(expr(Call->getArgOperand(k)));
        return op(name, std::move(args));
      }
    for (Value *Arg : Call->args()) args.push_back(expr(Arg));
    ops.intrinsics++;
    Expr e = leaf(Expr::Kind::Call, Callee ? Callee->getName().str() : "indirect");
    e.args = std::move(args);
    return e;
  }
  if (auto *Phi = dyn_cast<PHINode>(I))
    if (auto sel = diamond(Phi)) return *sel;
  // Anything else (a merge of more than two values, an instruction dlayout
  // does not model) is an opaque temporary of the statement.
  std::string name = "t." + std::string(I->getOpcodeName()) + "." + std::to_string(++Temporaries);
  return scalarRead(name, I->getType());
}

/// A phi that merges the two arms of an if/else (or a short-circuit
/// `a || b`) is select(condition, then, else).
std::optional<Expr> FunctionBuilder::diamond(PHINode *Phi) {
  if (Phi->getNumIncomingValues() != 2) return std::nullopt;
  auto *Node = Sym.dt().getNode(Phi->getParent());
  if (!Node || !Node->getIDom()) return std::nullopt;
  BasicBlock *D = Node->getIDom()->getBlock();
  auto *Br = dyn_cast<BranchInst>(D->getTerminator());
  if (!Br || !Br->isConditional()) return std::nullopt;
  Value *arm[2] = {nullptr, nullptr};
  for (unsigned k = 0; k < 2; ++k) {
    BasicBlock *In = Phi->getIncomingBlock(k);
    for (unsigned side = 0; side < 2; ++side) {
      BasicBlock *S = Br->getSuccessor(side);
      bool via = In == D ? S == Phi->getParent()
                         : Sym.dt().dominates(BasicBlockEdge(D, S), In);
      if (via) {
        if (arm[side]) return std::nullopt;
        arm[side] = Phi->getIncomingValue(k);
      }
    }
  }
  if (!arm[0] || !arm[1]) return std::nullopt;
  return op("select", {expr(Br->getCondition()), expr(arm[0]), expr(arm[1])});
}

/// A read of a scalar, registered in the program's scalars.
Expr FunctionBuilder::scalarRead(const std::string &name, Type *T) {
  if (std::none_of(P.scalars.begin(), P.scalars.end(),
                   [&](auto &s) { return s.name == name; })) {
    std::string type = T->isDoubleTy() ? "f64" : T->isFloatTy() ? "f32"
                       : T->isIntegerTy() ? "i" + std::to_string(T->getScalarSizeInBits())
                                          : "f64";
    P.scalars.push_back(Scalar{name, type, Cur ? Cur->loc : SourceLoc{}});
  }
  return leaf(Expr::Kind::Scalar, name);
}

} // namespace dlayout
