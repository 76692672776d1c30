//===- analyzer/Symbols.cpp -----------------------------------------------===//
#include "analyzer/Symbols.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace dlayout {

Symbols::Symbols(Function &F, bool fortran, unsigned &loopCounter,
                 const std::map<unsigned, std::string> &loopVars)
    : F(F), Fortran(fortran), LoopVars(loopVars), DT(F), PDT(F), LI(DT),
      TLII(Triple(F.getParent()->getTargetTriple())), TLI(TLII, &F), AC(F) {
  SE = std::make_unique<ScalarEvolution>(F, TLI, AC, DT, LI);
  findLoops(loopCounter);
}

std::string Symbols::spell(StringRef name) const {
  return Fortran ? name.upper() : name.str();
}

std::string Symbols::nameOf(const Value *V) const {
  if (auto Var = variableOf(V)) return spell(Var->name);
  if (V->hasName()) return V->getName().str();
  std::string slot;
  raw_string_ostream os(slot);
  V->printAsOperand(os, /*PrintType=*/false, F.getParent()); // "%5"
  return "t." + StringRef(os.str()).ltrim('%').str();
}

SourceLoc Symbols::locOf(const DebugLoc &DL) const {
  if (!DL) return {};
  auto *Loc = DL.get();
  return SourceLoc{Loc->getFilename().str(), Loc->getLine(), Loc->getColumn()};
}

SourceLoc Symbols::locOf(const Instruction *I) const {
  return I ? locOf(I->getDebugLoc()) : SourceLoc{};
}

/// The source variable a debug record names; none for a nameless one (the
/// verifier accepts a DIGlobalVariable without a name).
static std::optional<SourceVariable> fromDI(const DIVariable *Var) {
  if (Var->getName().empty()) return std::nullopt;
  SourceVariable v;
  v.name = Var->getName().str();
  v.type = Var->getType();
  v.loc = SourceLoc{Var->getFilename().str(), Var->getLine(), 0};
  return v;
}

std::optional<SourceVariable> Symbols::variableOf(const Value *V, int depth) const {
  if (auto *GV = dyn_cast<GlobalVariable>(V)) {
    SmallVector<DIGlobalVariableExpression *, 1> GVs;
    GV->getDebugInfo(GVs);
    for (auto *E : GVs)
      if (E->getVariable()) return fromDI(E->getVariable());
    return std::nullopt;
  }
  Value *Mut = const_cast<Value *>(V);
  for (auto *D : findDbgDeclares(Mut)) return fromDI(D->getVariable());
  for (auto *D : findDVRDeclares(Mut)) return fromDI(D->getVariable());
  SmallVector<DbgValueInst *, 2> Vals;
  SmallVector<DbgVariableRecord *, 2> Recs;
  findDbgValues(Vals, Mut, &Recs);
  if (Vals.empty() && Recs.empty())
    if (auto *Phi = dyn_cast<PHINode>(V)) {
      // An LCSSA phi, or a merge of one value: that value's variable.
      Value *Same = nullptr;
      for (Value *In : Phi->incoming_values())
        if (In != V && Same && In != Same) return std::nullopt;
        else if (In != V) Same = In;
      if (Same && depth < 4) return variableOf(Same, depth + 1);
      return std::nullopt;
    }
  // A value described by a complex expression (e.g. DW_OP_minus of two
  // values) is not the variable itself.
  for (auto *D : Vals)
    if (D->getExpression()->getNumElements() == 0 && !D->hasArgList())
      return fromDI(D->getVariable());
  for (auto *D : Recs)
    if (D->getExpression()->getNumElements() == 0 && !D->hasArgList())
      return fromDI(D->getVariable());
  return std::nullopt;
}

// ----------------------------------------------------------------------------
// Loops and their induction variables
// ----------------------------------------------------------------------------

void Symbols::findLoops(unsigned &loopCounter) {
  // Program order: a preorder of the loop forest (a loop before the loops
  // it contains, whatever its debug locations say), siblings in source
  // order; a loop without a location comes after its located siblings.
  auto sourceKey = [&](llvm::Loop *L) {
    SourceLoc at = locOf(L->getStartLoc());
    return at.line ? std::make_pair(at.line, at.col) : std::make_pair(~0u, ~0u);
  };
  std::vector<llvm::Loop *> Preorder, Pending; // Pending: a stack, the next loop on top
  auto pushSiblings = [&](std::vector<llvm::Loop *> Siblings) {
    std::stable_sort(Siblings.begin(), Siblings.end(),
                     [&](llvm::Loop *A, llvm::Loop *B) { return sourceKey(A) < sourceKey(B); });
    Pending.insert(Pending.end(), Siblings.rbegin(), Siblings.rend());
  };
  pushSiblings(std::vector<llvm::Loop *>(LI.begin(), LI.end()));
  while (!Pending.empty()) {
    llvm::Loop *L = Pending.back();
    Pending.pop_back();
    Preorder.push_back(L);
    pushSiblings(L->getSubLoops());
  }
  for (llvm::Loop *L : Preorder) {
    LoopRecord R;
    R.id = "L" + std::to_string(++loopCounter);
    R.loop = L;
    // The induction variable: among the affine header phis, the one the
    // DO/for statement names, else the one the exit test compares, else
    // the first named one.
    PHINode *Unnamed = nullptr;
    auto Named = LoopVars.find(locOf(L->getStartLoc()).line);
    auto *Exiting = exitingBlock(L);
    auto *Br = Exiting ? dyn_cast<BranchInst>(Exiting->getTerminator()) : nullptr;
    auto *Test = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
    auto tested = [&](PHINode &Phi) {
      if (!Test) return false;
      for (Value *Op : Test->operands()) {
        if (Op == &Phi) return true;
        if (auto *B = dyn_cast<BinaryOperator>(Op))
          if (B->getOperand(0) == &Phi || B->getOperand(1) == &Phi) return true;
      }
      return false;
    };
    int bestRank = 0;
    for (PHINode &Phi : L->getHeader()->phis()) {
      if (!Phi.getType()->isIntegerTy()) continue;
      auto *AR = dyn_cast<SCEVAddRecExpr>(SE->getSCEV(&Phi));
      if (!AR || AR->getLoop() != L || !AR->isAffine() ||
          !isa<SCEVConstant>(AR->getStepRecurrence(*SE)))
        continue;
      auto Var = variableOf(&Phi);
      if (!Var) {
        if (!Unnamed) Unnamed = &Phi;
        continue;
      }
      int rank = (Named != LoopVars.end() && StringRef(Named->second).equals_insensitive(Var->name))
                     ? 3 : tested(Phi) ? 2 : 1;
      if (rank > bestRank) {
        bestRank = rank;
        R.iv = &Phi;
        R.var = spell(Var->name);
      }
    }
    if (!R.iv && Unnamed) {
      // The source's variable is dead (a DO K whose K is never read):
      // what remains is the compiler's trip counter.
      R.iv = Unnamed;
      R.counter = true;
      auto It = LoopVars.find(locOf(L->getStartLoc()).line);
      R.var = It != LoopVars.end() ? spell(It->second) : R.id + ".i";
    }
    if (R.iv) {
      auto *AR = cast<SCEVAddRecExpr>(SE->getSCEV(R.iv));
      R.start = AR->getStart();
      R.step = cast<SCEVConstant>(AR->getStepRecurrence(*SE))->getAPInt().getSExtValue();
    }
    LoopByIR.emplace(R.loop, Loops.size());
    if (R.iv) LoopByIv.emplace(R.iv, Loops.size());
    Loops.push_back(R);
  }
}

const LoopRecord *Symbols::record(const llvm::Loop *L) const {
  auto it = LoopByIR.find(L);
  return it == LoopByIR.end() ? nullptr : &Loops[it->second];
}

const LoopRecord *Symbols::recordForIv(const Value *V) const {
  auto it = LoopByIv.find(V);
  return it == LoopByIv.end() ? nullptr : &Loops[it->second];
}

std::map<std::string, std::map<unsigned, std::string>>
loopVariablesByLine(Module &M) {
  std::map<std::string, std::map<unsigned, std::string>> out;
  for (Function &F : M) {
    if (F.isDeclaration()) continue;
    DominatorTree DT(F);
    LoopInfo LI(DT);
    for (llvm::Loop *L : LI.getLoopsInPreorder()) {
      DebugLoc DL = L->getStartLoc();
      if (!DL) continue;
      // The variable the loop's phis are stored into (flang at -O0).
      for (PHINode &Phi : L->getHeader()->phis())
        for (User *U : Phi.users())
          if (auto *St = dyn_cast<StoreInst>(U))
            for (auto *D : findDbgDeclares(St->getPointerOperand()))
              out[F.getName().str()][DL.getLine()] = D->getVariable()->getName().str();
      for (PHINode &Phi : L->getHeader()->phis())
        for (User *U : Phi.users())
          if (auto *St = dyn_cast<StoreInst>(U))
            for (auto *D : findDVRDeclares(St->getPointerOperand()))
              out[F.getName().str()][DL.getLine()] = D->getVariable()->getName().str();
    }
  }
  return out;
}

// ----------------------------------------------------------------------------
// Memory objects
// ----------------------------------------------------------------------------

static DIType *stripQualifiers(DIType *T, bool &isRestrict) {
  while (auto *D = dyn_cast_or_null<DIDerivedType>(T)) {
    unsigned Tag = D->getTag();
    if (Tag == dwarf::DW_TAG_restrict_type) isRestrict = true;
    if (Tag == dwarf::DW_TAG_typedef || Tag == dwarf::DW_TAG_const_type ||
        Tag == dwarf::DW_TAG_volatile_type || Tag == dwarf::DW_TAG_restrict_type ||
        Tag == dwarf::DW_TAG_member)
      T = D->getBaseType();
    else
      break;
  }
  return T;
}

static void describeElement(DIType *T, MemoryObject &O) {
  bool ignore = false;
  T = stripQualifiers(T, ignore);
  auto *B = dyn_cast_or_null<DIBasicType>(T);
  if (!B) return;
  O.elementBytes = std::max<unsigned>(1, B->getSizeInBits() / 8);
  bool isFloat = B->getEncoding() == dwarf::DW_ATE_float;
  O.elementType = (isFloat ? "f" : "i") + std::to_string(B->getSizeInBits());
}

MemoryObject Symbols::describe(Value *Base) {
  MemoryObject O;
  O.base = Base;
  O.columnMajor = Fortran;
  if (isa<GlobalVariable>(Base)) O.origin = "global";
  else if (isa<Argument>(Base)) O.origin = "argument";
  else if (isa<AllocaInst>(Base)) O.origin = "local";
  else O.origin = "heap";
  if (auto *A = dyn_cast<Argument>(Base))
    O.restrictQualified = Fortran || A->hasNoAliasAttr();

  if (auto *GV = dyn_cast<GlobalVariable>(Base)) {
    SmallVector<DIGlobalVariableExpression *, 2> GVs;
    GV->getDebugInfo(GVs);
    // A Fortran COMMON block: several variables in one global (flang names
    // the program's own globals _Q..., a common block after itself).
    // EQUIVALENCE: flang declares the other variables (dbg_declare) at the
    // first one's storage, a byte array.
    size_t declared = findDbgDeclares(GV).size() + findDVRDeclares(GV).size();
    O.sharedStorage = GVs.size() + declared > 1 ||
                      (Fortran && GVs.empty() && !GV->getName().starts_with("_Q"));
  }
  auto Var = variableOf(Base);
  if (!Var) {
    O.name = Base->hasName() ? Base->getName().str() : "mem";
    O.extents = {std::nullopt};
    O.lowers = {Fortran ? 1 : 0};
    if (auto *GV = dyn_cast<GlobalVariable>(Base))
      if (!GV->getValueType()->isArrayTy()) O.kind = MemoryObject::Kind::Scalar;
    return O;
  }
  O.name = spell(Var->name);
  O.loc = Var->loc;
  bool isRestrict = false;
  DIType *T = stripQualifiers(Var->type, isRestrict);
  O.restrictQualified |= isRestrict;
  bool viaPointer = false;
  if (auto *D = dyn_cast_or_null<DIDerivedType>(T);
      D && D->getTag() == dwarf::DW_TAG_pointer_type) {
    viaPointer = true;
    T = stripQualifiers(D->getBaseType(), isRestrict);
    O.extents.push_back(std::nullopt); // the pointed-to dimension
    O.lowers.push_back(0);
  }
  auto *CT = dyn_cast_or_null<DICompositeType>(T);
  if (CT && CT->getTag() == dwarf::DW_TAG_array_type) {
    // The raw operands: the verifier accepts an elements tuple whose entries
    // are not DINodes, which getElements() would assert on.
    auto *Elements = dyn_cast_or_null<MDTuple>(CT->getRawElements());
    for (unsigned e = 0, n = Elements ? Elements->getNumOperands() : 0; e < n; ++e) {
      auto *SR = dyn_cast_or_null<DISubrange>(Elements->getOperand(e).get());
      if (!SR) continue;
      std::optional<Poly> extent;
      int64_t lower = Fortran ? 1 : 0;
      if (auto *LB = dyn_cast_if_present<ConstantInt *>(SR->getLowerBound()))
        lower = LB->getSExtValue();
      auto Count = SR->getCount();
      if (auto *C = dyn_cast_if_present<ConstantInt *>(Count)) {
        if (C->getSExtValue() >= 0) // clang says -1 for a VLA parameter
          extent = Poly::constant(C->getSExtValue());
      } else if (auto *DV = dyn_cast_if_present<DIVariable *>(Count)) {
        // A C VLA bound: the value some dbg.value gives the variable.
        for (Instruction &I : instructions(F)) {
          for (DbgVariableRecord &R : filterDbgVars(I.getDbgRecordRange()))
            if (R.getVariable() == DV && R.getNumVariableLocationOps() == 1)
              if (Value *Val = R.getVariableLocationOp(0); Val && SE->isSCEVable(Val->getType()))
                extent = toPoly(SE->getSCEV(Val));
          if (auto *DVI = dyn_cast<DbgValueInst>(&I))
            if (DVI->getVariable() == DV && !DVI->hasArgList())
              if (Value *Val = DVI->getValue(); Val && SE->isSCEVable(Val->getType()))
                extent = toPoly(SE->getSCEV(Val));
          if (extent) break;
        }
      }
      O.extents.push_back(extent);
      O.lowers.push_back(lower);
    }
    if (O.extents.empty()) { // an array type without subranges: one dimension, extent unknown
      O.extents.push_back(std::nullopt);
      O.lowers.push_back(Fortran ? 1 : 0);
    }
    describeElement(CT->getBaseType(), O);
  } else if (viaPointer) {
    describeElement(T, O);
  } else {
    O.kind = MemoryObject::Kind::Scalar;
    describeElement(T, O);
  }
  return O;
}

MemoryObject *Symbols::objectOf(Value *Ptr) {
  Value *Base = getUnderlyingObject(Ptr, /*MaxLookup=*/0);
  if (!Base || isa<ConstantPointerNull>(Base) || isa<UndefValue>(Base))
    return nullptr;
  // A pointer loaded from memory (a Fortran descriptor, a C pointer global)
  // or computed by arithmetic the analysis cannot follow.
  if (isa<LoadInst>(Base) || isa<PHINode>(Base) || isa<SelectInst>(Base) ||
      isa<IntToPtrInst>(Base))
    return nullptr;
  auto It = Objects.find(Base);
  if (It != Objects.end()) return It->second.get();
  auto O = std::make_unique<MemoryObject>(describe(Base));
  auto *Raw = O.get();
  Objects.emplace(Base, std::move(O));
  ObjectOrder.push_back(Raw);
  return Raw;
}

std::vector<MemoryObject *> Symbols::objects() { return ObjectOrder; }

// ----------------------------------------------------------------------------
// Parameters and polynomials
// ----------------------------------------------------------------------------

static bool storedTo(Function &F, const Value *Base) {
  for (Instruction &I : instructions(F))
    if (auto *S = dyn_cast<StoreInst>(&I))
      if (getUnderlyingObject(S->getPointerOperand(), 0) == Base) return true;
  return false;
}

std::optional<std::string> Symbols::parameterOf(const Value *V) {
  if (auto *A = dyn_cast<Argument>(V)) {
    if (!A->getType()->isIntegerTy()) return std::nullopt;
    if (auto Var = variableOf(A)) return spell(Var->name);
    return A->hasName() ? std::optional(spell(A->getName())) : std::nullopt;
  }
  if (auto *Ld = dyn_cast<LoadInst>(V)) {
    if (!Ld->getType()->isIntegerTy()) return std::nullopt;
    MemoryObject *O = objectOf(const_cast<Value *>(Ld->getPointerOperand()));
    if (!O || O->kind != MemoryObject::Kind::Scalar) return std::nullopt;
    if (storedTo(F, O->base)) return std::nullopt;
    return O->name;
  }
  return std::nullopt;
}

std::string Symbols::opaque(Value *V) {
  std::string name;
  if (auto Var = variableOf(V)) name = spell(Var->name);
  else if (V->hasName()) name = V->getName().str();
  else name = "t";
  std::string sym = "?:" + name;
  for (int k = 2; Opaque.count(sym) && Opaque[sym] != V; ++k)
    sym = "?:" + name + "#" + std::to_string(k);
  Opaque[sym] = V;
  return sym;
}

Value *Symbols::opaqueValue(const std::string &symbol) const {
  auto It = Opaque.find(symbol);
  return It == Opaque.end() ? nullptr : It->second;
}

bool isNarrowCast(const SCEVCastExpr *C) {
  return std::min(C->getType()->getScalarSizeInBits(),
                  C->getOperand(0)->getType()->getScalarSizeInBits()) < 32 &&
         !isa<SCEVConstant>(C->getOperand(0));
}

std::optional<int64_t> lowMaskModulus(const Instruction *I) {
  if (I->getOpcode() != Instruction::And || !I->getType()->isIntegerTy()) return std::nullopt;
  auto *C = dyn_cast<ConstantInt>(I->getOperand(1));
  if (!C || C->isNegative() || !(C->getValue() + 1).isPowerOf2() ||
      C->getValue().getActiveBits() > 62)
    return std::nullopt;
  const DataLayout &DL = I->getModule()->getDataLayout();
  if (!isKnownNonNegative(I->getOperand(0), SimplifyQuery(DL, I))) return std::nullopt;
  return C->getSExtValue() + 1;
}

Poly Symbols::toPolyAt(const SCEV *S, const llvm::Loop *Scope) {
  S = SE->getSCEVAtScope(S, const_cast<llvm::Loop *>(Scope));
  bool outerScoped = Scoped;
  const llvm::Loop *outerScope = ScopeLoop;
  Scoped = true;
  ScopeLoop = Scope;
  Poly P = toPoly(S);
  Scoped = outerScoped;
  ScopeLoop = outerScope;
  return P;
}

/// A value toPoly cannot express, one symbol per expression (SCEVs are
/// uniqued): two different mins, or divisions, are two unknowns, which must
/// not cancel (the count smin(N, 10) - smin(1, N) of DO I = 2, MIN(N, 10)
/// came out 0). "?:min", "?:min 2", ...: a space, which no variable's name
/// (opaque()) has.
Poly Symbols::opaqueScev(const SCEV *S, const std::string &what) {
  auto [It, fresh] = ScevSymbols.try_emplace(S);
  if (fresh) {
    const int k = ++ScevKinds[what];
    It->second = "?:" + what + (k > 1 ? " " + std::to_string(k) : "");
  }
  return Poly::symbol(It->second);
}

/// x - smin(c, x) is max(x - c, 0): flang's count of DO I = 2, N, the
/// backedge-taken count N - smin(1, N), which is N - 1 wherever the loop runs
/// at all (as smax(0, y) is y below). Only that form: a MIN(N, 10) of the
/// program, not paired with its own operand, stays a min.
std::optional<Poly> Symbols::clampedCount(const SCEVAddExpr *A) {
  for (size_t k = 0; k < A->getNumOperands(); ++k) {
    auto *M = dyn_cast<SCEVMulExpr>(A->getOperand(k));
    if (!M || M->getNumOperands() != 2) continue;
    auto *MinusOne = dyn_cast<SCEVConstant>(M->getOperand(0));
    auto *Min = dyn_cast<SCEVSMinExpr>(M->getOperand(1));
    if (!MinusOne || !MinusOne->getAPInt().isAllOnes() || !Min || Min->getNumOperands() != 2)
      continue;
    auto *C = dyn_cast<SCEVConstant>(Min->getOperand(0));
    if (!C || C->getAPInt().getSignificantBits() > 63) continue;
    Poly Rest;
    for (size_t j = 0; j < A->getNumOperands(); ++j)
      if (j != k) Rest = Rest + toPoly(A->getOperand(j));
    if (Rest == toPoly(Min->getOperand(1)))
      return Rest - Poly::constant(C->getAPInt().getSExtValue());
  }
  return std::nullopt;
}

Poly Symbols::toPoly(const SCEV *S) {
  if (auto *C = dyn_cast<SCEVConstant>(S)) {
    const APInt &A = C->getAPInt();
    if (A.getSignificantBits() <= 63) return Poly::constant(A.getSExtValue());
    return opaqueScev(S, "huge");
  }
  if (auto *A = dyn_cast<SCEVAddExpr>(S)) {
    if (auto clamped = clampedCount(A)) return *clamped;
    Poly P;
    for (auto *Op : A->operands()) P = P + toPoly(Op);
    return P;
  }
  if (auto *M = dyn_cast<SCEVMulExpr>(S)) {
    Poly P = Poly::constant(1);
    for (auto *Op : M->operands()) P = P * toPoly(Op);
    return P;
  }
  if (auto *C = dyn_cast<SCEVCastExpr>(S)) {
    // Extensions keep the value, and so does narrowing a program integer to
    // 32 bits (induction variables widened to 64); casts through fewer bits
    // are modular arithmetic.
    if (isNarrowCast(C)) return opaqueScev(S, "modular");
    return toPoly(C->getOperand(0));
  }
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
    if (Scoped && (!ScopeLoop || !AR->getLoop()->contains(ScopeLoop)))
      return opaqueScev(S, "exit value");
    const LoopRecord *R = record(AR->getLoop());
    if (!AR->isAffine() || !R || !R->iv) return opaqueScev(S, "recurrence");
    Poly start = toPoly(AR->getStart());
    Poly step = toPoly(AR->getStepRecurrence(*SE));
    // value = start + step * n, where the source variable is
    // iv = ivStart + ivStep * n.
    Poly n = Poly::symbol(ivSymbol(R->id)) - toPoly(R->start);
    if (R->counter) return start + step * (Poly::symbol(ivSymbol(R->id)) - Poly::constant(1));
    if (R->step == 1) return start + step * n;
    if (R->step == -1) return start - step * n;
    Poly q;
    for (auto &[m, c] : step.terms()) {
      if (c % R->step) return opaqueScev(S, "recurrence");
      Poly t = Poly::constant(c / R->step);
      for (auto &s : m) t = t * Poly::symbol(s);
      q = q + t;
    }
    return start + q * n;
  }
  if (auto *MM = dyn_cast<SCEVMinMaxExpr>(S)) {
    // Zero clamps guard empty loops and negative extents: smax(0, x) is x
    // and smin(0, x) is 0 wherever the loop runs at all.
    bool isMax = isa<SCEVSMaxExpr>(MM) || isa<SCEVUMaxExpr>(MM);
    std::vector<const SCEV *> Rest;
    // Likewise smax(n, -1) + 1, flang's extent of A(0:n): a max with a
    // constant is the other operand wherever the array is not empty.
    for (auto *Op : MM->operands()) {
      auto *C = dyn_cast<SCEVConstant>(Op);
      if (C && C->getAPInt().isZero() && !isMax) return Poly::constant(0);
      if (C && isMax) continue;
      Rest.push_back(Op);
    }
    if (Rest.size() == 1) return toPoly(Rest[0]);
    return opaqueScev(S, isMax ? "max" : "min");
  }
  if (auto *D = dyn_cast<SCEVUDivExpr>(S)) {
    Poly L = toPoly(D->getLHS());
    auto R = toPoly(D->getRHS()).asConstant();
    if (R && *R != 0) {
      Poly Q;
      bool exact = true;
      for (auto &[m, c] : L.terms()) {
        if (c % *R) { exact = false; break; }
        Poly t = Poly::constant(c / *R);
        for (auto &s : m) t = t * Poly::symbol(s);
        Q = Q + t;
      }
      if (exact) return Q;
    }
    return opaqueScev(S, "div");
  }
  if (auto *U = dyn_cast<SCEVUnknown>(S)) {
    Value *V = U->getValue();
    if (auto P = parameterOf(V)) return Poly::symbol(paramSymbol(*P));
    if (auto *R = recordForIv(V)) {
      if (Scoped && (!ScopeLoop || !R->loop->contains(ScopeLoop)))
        return opaqueScev(S, "exit value");
      return Poly::symbol(ivSymbol(R->id));
    }
    return Poly::symbol(opaque(V));
  }
  return opaqueScev(S, "unknown");
}

bool deadEnd(const llvm::BasicBlock *B) {
  if (!isa<llvm::UnreachableInst>(B->getTerminator())) return false;
  for (const llvm::Instruction &I : *B) // a STOP, exit() or abort() is a way out
    if (isa<llvm::CallBase>(I) && !isa<llvm::DbgInfoIntrinsic>(I)) return false;
  return true;
}

bool leavesLoop(const llvm::BasicBlock *B, const llvm::Loop *L) {
  for (const llvm::BasicBlock *S : llvm::successors(B))
    if (!L->contains(S) && !deadEnd(S)) return true;
  return false;
}

llvm::BasicBlock *exitingBlock(const llvm::Loop *L) {
  // The one block that leaves for the rest of the program; where the loop
  // only leaves to end it (a STOP after it), the one that does.
  llvm::BasicBlock *found[2] = {nullptr, nullptr}; // [leaves to end the program]
  bool several[2] = {false, false};
  for (llvm::BasicBlock *B : L->blocks())
    for (const llvm::BasicBlock *S : llvm::successors(B))
      if (!L->contains(S) && !deadEnd(S)) {
        const int ends = isa<llvm::UnreachableInst>(S->getTerminator());
        several[ends] = several[ends] || (found[ends] && found[ends] != B);
        found[ends] = B;
      }
  const int use = found[0] ? 0 : 1;
  return several[use] ? nullptr : found[use];
}

} // namespace dlayout
