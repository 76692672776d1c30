//===- analyzer/ValueExprs.cpp - Evaluable subscripts, bounds, int scalars ===//
//
// What the validator needs to run a program whose subscripts or loop bounds
// are not affine (the estimator keeps using their class and affine part):
//   - an unknown subscript's value, from the address the IR computes (not
//     from its SCEV, which rewrites a counter such as IE = IE + 1 in terms of
//     its value on loop entry): the element offset, as an expression over the
//     values the address uses, minus the known dimensions' part;
//   - a non-affine bound's value, from its polynomial, each opaque symbol
//     replaced by the expression of the IR value behind it (COUNT(I), R(I+1));
//   - the assignments of the integer and logical scalars those expressions
//     (and guards and statements) read, which mem2reg left as phis: L = 1,
//     L = I, IE = IE + 1; each becomes a statement writing the scalar, placed
//     and guarded where the assignment happens.
// A value that cannot be expressed leaves the expression unset (the
// validator then skips the phase and says why).
//
//===----------------------------------------------------------------------===//
#include "analyzer/ExprMake.h"
#include "analyzer/FunctionBuilder.h"

#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"

#include <functional>

using namespace llvm;
using dlayout::exprs::constant;
using dlayout::exprs::op;

namespace dlayout {

namespace {

const char *icmpName(CmpInst::Predicate p) {
  switch (ICmpInst::getSignedPredicate(p)) {
  case CmpInst::ICMP_EQ: return "eq";
  case CmpInst::ICMP_NE: return "ne";
  case CmpInst::ICMP_SLT: return "lt";
  case CmpInst::ICMP_SLE: return "le";
  case CmpInst::ICMP_SGT: return "gt";
  case CmpInst::ICMP_SGE: return "ge";
  default: return nullptr;
  }
}

/// Whether every loop the expression (and its references) names is one of
/// `loops`: what verify() demands; anything else is dropped.
bool within(const Expr &e, const std::vector<Reference> &refs,
            const std::vector<std::string> &loops) {
  std::function<bool(const Expr &)> ok = [&](const Expr &x) {
    if (x.kind == Expr::Kind::Iv && std::find(loops.begin(), loops.end(), x.name) == loops.end())
      return false;
    if (x.kind == Expr::Kind::Ref && (x.refIndex < 0 || x.refIndex >= (int)refs.size()))
      return false;
    return std::all_of(x.args.begin(), x.args.end(), ok);
  };
  for (auto &r : refs)
    for (auto &sub : r.subscripts) {
      if (sub.cls == SubscriptClass::Unknown || sub.cls == SubscriptClass::Indirect) return false;
      for (auto &[l, c] : sub.affine.coeffs)
        if (std::find(loops.begin(), loops.end(), l) == loops.end()) return false;
      if (sub.variationLevel > loops.size()) return false;
    }
  return ok(e);
}

void scalarsRead(const Expr &e, std::set<std::string> &out) {
  if (e.kind == Expr::Kind::Scalar) out.insert(e.name);
  for (auto &a : e.args) scalarsRead(a, out);
}

} // namespace

/// The integer value V as an expression; Ref nodes index `refs`.
std::optional<Expr> FunctionBuilder::valueExpr(Value *V, std::vector<Reference> &refs,
                                               int depth) {
  if (depth > 24) return std::nullopt;
  if (auto *CI = dyn_cast<ConstantInt>(V)) return constant((double)CI->getSExtValue());
  if (auto *R = enclosingIv(V)) {
    Expr e;
    e.kind = Expr::Kind::Iv;
    e.name = R->id;
    return e;
  }
  if (auto p = Sym.parameterOf(V)) {
    Expr e;
    e.kind = Expr::Kind::Param;
    e.name = *p;
    return e;
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I) return std::nullopt;
  if (I->getType()->isIntegerTy() && Sym.se().isSCEVable(I->getType()) && !isa<LoadInst>(I)) {
    Poly p = Sym.toPolyAt(Sym.se().getSCEV(I), useScope(I));
    if (p.isAffine()) return polyExpr(p);
  }
  if (auto *Ld = dyn_cast<LoadInst>(I)) {
    MemoryObject *O = Sym.objectOf(Ld->getPointerOperand());
    if (!O) return std::nullopt;
    if (O->kind == MemoryObject::Kind::Scalar) return scalarRead(O->name, Ld->getType());
    refs.push_back(makeReference(accessOf(Ld, Ld->getPointerOperand(), O)));
    refs.back().access = Reference::Access::Read;
    Expr e;
    e.kind = Expr::Kind::Ref;
    e.refIndex = (int)refs.size() - 1;
    return e;
  }
  // A named integer variable: its current value (its assignments become
  // statements, addScalarDefinitions).
  if (auto Var = Sym.variableOf(I); Var && I->getType()->isIntegerTy())
    return scalarRead(Sym.spell(Var->name), I->getType());
  if (auto *C = dyn_cast<CastInst>(I)) return valueExpr(C->getOperand(0), refs, depth + 1);
  auto two = [&](const char *name) -> std::optional<Expr> {
    auto a = valueExpr(I->getOperand(0), refs, depth + 1);
    auto b = a ? valueExpr(I->getOperand(1), refs, depth + 1) : std::nullopt;
    if (!b) return std::nullopt;
    return op(name, {*a, *b});
  };
  switch (I->getOpcode()) {
  case Instruction::Add: return two("+");
  case Instruction::Sub: return two("-");
  case Instruction::Mul: return two("*");
  case Instruction::SRem: return two("mod");
  case Instruction::And:
    // X & (2^k - 1) with X >= 0 is MOD(X, 2^k) (instcombine's form of it).
    if (auto m = lowMaskModulus(I)) {
      auto a = valueExpr(I->getOperand(0), refs, depth + 1);
      if (!a) return std::nullopt;
      return op("mod", {*a, constant((double)*m)});
    }
    break;
  case Instruction::SDiv: {
    // Fortran integer division truncates toward zero.
    auto q = two("/");
    if (!q) return std::nullopt;
    return op("-", {*q, op("mod", {*q, constant(1)})});
  }
  default: break;
  }
  if (auto *Cmp = dyn_cast<ICmpInst>(I))
    if (const char *n = icmpName(Cmp->getPredicate())) return two(n);
  if (auto *Sel = dyn_cast<SelectInst>(I)) {
    auto c = valueExpr(Sel->getCondition(), refs, depth + 1);
    auto t = c ? valueExpr(Sel->getTrueValue(), refs, depth + 1) : std::nullopt;
    auto f = t ? valueExpr(Sel->getFalseValue(), refs, depth + 1) : std::nullopt;
    if (!f) return std::nullopt;
    return op("select", {*c, *t, *f});
  }
  if (auto *Call = dyn_cast<IntrinsicInst>(I)) {
    const char *n = nullptr;
    switch (Call->getIntrinsicID()) {
    case Intrinsic::smin: n = "min"; break;
    case Intrinsic::smax: n = "max"; break;
    case Intrinsic::abs: n = "abs"; break;
    default: return std::nullopt;
    }
    auto a = valueExpr(Call->getArgOperand(0), refs, depth + 1);
    if (!a) return std::nullopt;
    if (std::string(n) == "abs") return op(n, {*a});
    auto b = valueExpr(Call->getArgOperand(1), refs, depth + 1);
    if (!b) return std::nullopt;
    return op(n, {*a, *b});
  }
  return std::nullopt;
}

/// A polynomial with opaque symbols, each replaced by its value's expression.
std::optional<Expr> FunctionBuilder::polyValueExpr(const Poly &p, std::vector<Reference> &refs) {
  std::vector<Expr> terms;
  for (auto &[m, c] : p.terms()) {
    std::vector<Expr> factors;
    if (c != 1 || m.empty()) factors.push_back(constant((double)c));
    for (auto &s : m) {
      if (s.rfind("?:", 0) == 0) {
        Value *V = Sym.opaqueValue(s);
        auto e = V ? valueExpr(V, refs, 0) : std::nullopt;
        if (!e) return std::nullopt;
        factors.push_back(*e);
      } else {
        factors.push_back(polyExpr(Poly::symbol(s)));
      }
    }
    Expr prod = factors[0];
    for (size_t k = 1; k < factors.size(); ++k) prod = op("*", {prod, factors[k]});
    terms.push_back(prod);
  }
  if (terms.empty()) return constant(0);
  Expr sum = terms[0];
  for (size_t k = 1; k < terms.size(); ++k) sum = op("+", {sum, terms[k]});
  return sum;
}

/// The element offset of Ptr from the object's base, from the GEPs the IR
/// computes it with.
std::optional<Expr> FunctionBuilder::offsetExpr(Value *Ptr, const MemoryObject &O,
                                                std::vector<Reference> &refs) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  std::vector<Expr> bytes;
  Value *V = Ptr;
  for (int guard = 0; V != O.base && guard < 16; ++guard) {
    auto *G = dyn_cast<GEPOperator>(V);
    if (!G) return std::nullopt;
    for (auto GTI = gep_type_begin(G); GTI != gep_type_end(G); ++GTI) {
      Value *Idx = GTI.getOperand();
      if (StructType *ST = GTI.getStructTypeOrNull()) {
        auto *CI = dyn_cast<ConstantInt>(Idx);
        if (!CI) return std::nullopt;
        bytes.push_back(constant((double)DL.getStructLayout(ST)->getElementOffset(CI->getZExtValue())));
        continue;
      }
      int64_t stride = (int64_t)GTI.getSequentialElementStride(DL);
      if (auto *CI = dyn_cast<ConstantInt>(Idx)) {
        if (!CI->isZero()) bytes.push_back(constant((double)(CI->getSExtValue() * stride)));
        continue;
      }
      auto e = valueExpr(Idx, refs, 0);
      if (!e) return std::nullopt;
      bytes.push_back(stride == 1 ? *e : op("*", {*e, constant((double)stride)}));
    }
    V = G->getPointerOperand()->stripPointerCasts();
  }
  if (V != O.base) return std::nullopt;
  Expr sum = bytes.empty() ? constant(0) : bytes[0];
  for (size_t k = 1; k < bytes.size(); ++k) sum = op("+", {sum, bytes[k]});
  return op("/", {sum, constant((double)O.elementBytes)});
}

/// Unknown subscripts of references with one unknown dimension, the others
/// affine: that dimension's value from the element offset.
void FunctionBuilder::addSubscriptExprs() {
  for (auto &Pd : PendingRefs) {
    Reference &R = P.statements[Pd.stmt].refs[Pd.ref];
    int unknown = -1;
    bool ok = true;
    for (size_t d = 0; d < R.subscripts.size(); ++d) {
      auto cls = R.subscripts[d].cls;
      if (cls == SubscriptClass::Indirect) ok = false;
      if (cls == SubscriptClass::Unknown) {
        if (unknown >= 0 || R.subscripts[d].expr) ok = false;
        unknown = (int)d;
      }
    }
    if (!ok || unknown < 0) continue;
    const MemoryObject &O = *Pd.access.object;
    Value *Ptr = isa<StoreInst>(Pd.access.inst)
                     ? cast<StoreInst>(Pd.access.inst)->getPointerOperand()
                     : cast<LoadInst>(Pd.access.inst)->getPointerOperand();
    std::vector<Reference> refs;
    auto off = offsetExpr(Ptr, O, refs);
    if (!off) continue;
    // offset = sum_d (s_d - lower_d) * stride_d
    size_t rank = R.subscripts.size();
    std::vector<Poly> strides(rank, Poly::constant(1));
    bool strideKnown = true;
    for (size_t k = 0; k < rank; ++k)
      for (size_t j = 0; j < rank; ++j) {
        bool inner = O.columnMajor ? j < k : j > k;
        if (!inner) continue;
        if (!O.extents[j]) strideKnown = false;
        else strides[k] = strides[k] * *O.extents[j];
      }
    if (!strideKnown) continue;
    Expr rest = *off;
    for (size_t k = 0; k < rank; ++k) {
      if ((int)k == unknown) continue;
      Poly part = (Poly::fromAffine(R.subscripts[k].affine) - Poly::constant(O.lowers[k])) *
                  strides[k];
      rest = op("-", {rest, polyExpr(part)});
    }
    if (!strides[unknown].asConstant() || *strides[unknown].asConstant() != 1)
      rest = op("/", {rest, polyExpr(strides[unknown])});
    Expr value = op("+", {rest, constant((double)O.lowers[unknown])});
    if (!within(value, refs, P.statements[Pd.stmt].loops)) continue;
    Subscript &S = R.subscripts[unknown];
    S.expr = std::move(value);
    S.exprRefs = std::move(refs);
  }
}

/// A SCEV as an expression (min/max kept as operators); nullopt where an
/// opaque value cannot be expressed.
std::optional<Expr> FunctionBuilder::scevExpr(const SCEV *S, std::vector<Reference> &refs,
                                              int depth) {
  if (depth > 24) return std::nullopt;
  if (auto *C = dyn_cast<SCEVConstant>(S)) {
    if (C->getAPInt().getSignificantBits() > 53) return std::nullopt;
    return constant((double)C->getAPInt().getSExtValue());
  }
  if (auto *C = dyn_cast<SCEVCastExpr>(S))
    return isNarrowCast(C) ? std::nullopt : scevExpr(C->getOperand(0), refs, depth + 1);
  auto nary = [&](const SCEVNAryExpr *N, const char *name) -> std::optional<Expr> {
    std::vector<Expr> args;
    for (auto *Op : N->operands()) {
      auto e = scevExpr(Op, refs, depth + 1);
      if (!e) return std::nullopt;
      args.push_back(*e);
    }
    Expr acc = args[0];
    for (size_t k = 1; k < args.size(); ++k) acc = op(name, {acc, args[k]});
    return acc;
  };
  if (auto *A = dyn_cast<SCEVAddExpr>(S)) return nary(A, "+");
  if (auto *M = dyn_cast<SCEVMulExpr>(S)) return nary(M, "*");
  if (auto *MM = dyn_cast<SCEVMinMaxExpr>(S))
    return nary(MM, isa<SCEVSMaxExpr>(MM) || isa<SCEVUMaxExpr>(MM) ? "max" : "min");
  if (auto *D = dyn_cast<SCEVUDivExpr>(S)) {
    auto a = scevExpr(D->getLHS(), refs, depth + 1);
    auto b = a ? scevExpr(D->getRHS(), refs, depth + 1) : std::nullopt;
    if (!b) return std::nullopt;
    return op("/", {op("-", {*a, op("mod", {*a, *b})}), *b});
  }
  if (auto *U = dyn_cast<SCEVUnknown>(S)) return valueExpr(U->getValue(), refs, depth + 1);
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S); AR && AR->isAffine()) {
    // start + step * n, n the iteration number of the loop's source variable
    // (a recurrence other than the variable, e.g. MRS beside MRSIJ).
    const LoopRecord *R = Sym.record(AR->getLoop());
    if (!R || !R->iv || R->step == 0) return std::nullopt;
    auto start = scevExpr(AR->getStart(), refs, depth + 1);
    auto step = start ? scevExpr(AR->getStepRecurrence(Sym.se()), refs, depth + 1)
                      : std::nullopt;
    auto from = step && !R->counter ? scevExpr(R->start, refs, depth + 1) : std::nullopt;
    if (!step || (!R->counter && !from)) return std::nullopt;
    Expr iv;
    iv.kind = Expr::Kind::Iv;
    iv.name = R->id;
    Expr n = R->counter ? op("-", {iv, constant(1)})
                        : op("/", {op("-", {iv, *from}), constant((double)R->step)});
    return op("+", {*start, op("*", {*step, n})});
  }
  Poly p = Sym.toPoly(S);
  if (p.isAffine()) return polyExpr(p);
  return std::nullopt;
}

void FunctionBuilder::addBoundExprs() {
  for (auto &R : Sym.loops()) {
    auto &M = P.loops[LoopIndex[R.loop]];
    // The upper bound from the exit count, where its polynomial lost a min
    // or max (olda's DO MIJ = 1, MAX with MAX = MIN(MRS, NIJ)).
    auto fromExitCount = [&](std::vector<Reference> &refs) -> std::optional<Expr> {
      BasicBlock *Exiting = exitingBlock(R.loop);
      if (!R.iv || !Exiting || IterationDivisor.count(M.id) || exitTestBound(R))
        return std::nullopt;
      const SCEV *EC = Sym.se().getExitCount(R.loop, Exiting);
      if (isa<SCEVCouldNotCompute>(EC)) return std::nullopt;
      auto lo = polyValueExpr(Lower[M.id], refs);
      auto n = lo ? scevExpr(EC, refs, 0) : std::nullopt;
      if (!n) return std::nullopt;
      int64_t adj = Exiting == R.loop->getLoopLatch() ? 0 : -1;
      return op("+", {*lo, op("*", {op("+", {*n, constant((double)adj)}), constant((double)M.step)})});
    };
    for (auto [b, poly] : {std::pair{&M.lower, &Lower[M.id]}, std::pair{&M.upper, &Upper[M.id]}}) {
      if (b->kind != Bound::Kind::NonAffine || b->expr) continue;
      std::vector<Reference> refs;
      std::vector<std::string> outer;
      for (auto parent = M.parent; parent;) {
        outer.insert(outer.begin(), *parent);
        const dlayout::Loop *pl = P.findLoop(*parent);
        parent = pl ? pl->parent : std::nullopt;
      }
      auto e = polyValueExpr(*poly, refs);
      if (!e && b == &M.upper) {
        refs.clear();
        e = fromExitCount(refs);
      }
      if (e && within(*e, refs, outer)) {
        b->expr = *e;
        b->exprRefs = std::move(refs);
      }
    }
  }
}

/// Statements for the assignments of the integer scalars the model reads
/// but no statement writes; then statement ids and phases in program order.
void FunctionBuilder::addScalarDefinitions() {
  for (int round = 0; round < 3; ++round) {
    std::set<std::string> read, written;
    std::function<void(const Reference &)> visitRef = [&](const Reference &r) {
      for (auto &s : r.subscripts) {
        if (s.expr) scalarsRead(*s.expr, read);
        for (auto &x : s.exprRefs) visitRef(x);
        for (auto &x : s.index) visitRef(x);
      }
    };
    for (auto &L : P.loops)
      for (auto *b : {&L.lower, &L.upper})
        if (b->expr) scalarsRead(*b->expr, read);
    for (size_t s = FirstStatement; s < P.statements.size(); ++s) {
      auto &St = P.statements[s];
      scalarsRead(St.expr, read);
      for (auto &g : St.guards) scalarsRead(g.condition, read);
      for (auto &r : St.refs) visitRef(r);
      if (!St.scalarWrite.empty()) written.insert(St.scalarWrite);
    }
    std::set<std::string> wanted;
    for (auto &n : read) {
      if (written.count(n) || Defined.count(n)) continue;
      auto it = std::find_if(P.scalars.begin(), P.scalars.end(),
                             [&](auto &s) { return s.name == n; });
      if (it != P.scalars.end() && !it->type.empty() && it->type[0] == 'i') wanted.insert(n);
    }
    if (wanted.empty()) break;
    size_t before = P.statements.size();
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        auto Var = Sym.variableOf(&I);
        if (!Var || !I.getType()->isIntegerTy() || Sym.recordForIv(&I)) continue;
        std::string name = Sym.spell(Var->name);
        if (!wanted.count(name)) continue;
        if (auto *Phi = dyn_cast<PHINode>(&I)) {
          // Values merged in from outside the variable's web: assigned at the
          // end of the incoming block, on the edge to the phi.
          for (unsigned k = 0; k < Phi->getNumIncomingValues(); ++k) {
            Value *In = Phi->getIncomingValue(k);
            if (isa<UndefValue>(In)) continue; // not assigned on that path
            auto InVar = Sym.variableOf(In);
            if (isa<Instruction>(In) && !Sym.recordForIv(In) && InVar &&
                Sym.spell(InVar->name) == name)
              continue;
            addDefinition(name, In, Phi->getIncomingBlock(k), Phi->getParent());
          }
        } else if (!isa<LoadInst>(I) && !isa<CastInst>(I)) {
          addDefinition(name, &I, nullptr, nullptr);
        }
      }
    for (auto &n : wanted) Defined.insert(n);
    addSubscriptExprs();
    if (P.statements.size() == before) break;
  }
  // Program order: by the position of each statement's instruction.
  std::map<const Instruction *, size_t> position;
  size_t pos = 0;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) position[&I] = pos++;
  std::vector<size_t> order;
  for (size_t s = FirstStatement; s < P.statements.size(); ++s) order.push_back(s);
  // A definition on an edge into a block sits just before that block (its
  // first instruction), unless the edge is a loop's backedge: then at the
  // end of the latch. Blocks are not laid out in program order everywhere
  // (a loop's exit block may come early), so the target's place is used.
  auto key = [&](size_t s) {
    size_t k = s - FirstStatement;
    const Instruction *I = StmtAt[k];
    if (k < StmtBefore.size() && StmtBefore[k]) return 2 * position[I];
    return 2 * position[I] + 1;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return key(a) < key(b); });
  bool moved = false;
  for (size_t k = 0; k < order.size(); ++k) moved = moved || order[k] != FirstStatement + k;
  // The definitions came after the phases were made: make them again, in
  // the new order where there is one.
  if (moved) reorderStatements(order);
  P.phases.resize(FirstPhase);
  buildPhases();
}

void FunctionBuilder::reorderStatements(const std::vector<size_t> &order) {
  std::vector<Statement> sorted;
  std::vector<Instruction *> at;
  std::vector<char> before;
  std::map<size_t, size_t> newIndex;
  for (size_t k = 0; k < order.size(); ++k) {
    sorted.push_back(P.statements[order[k]]);
    at.push_back(StmtAt[order[k] - FirstStatement]);
    size_t k0 = order[k] - FirstStatement;
    before.push_back(k0 < StmtBefore.size() ? StmtBefore[k0] : 0);
    newIndex[order[k]] = FirstStatement + k;
  }
  for (size_t k = 0; k < sorted.size(); ++k) {
    sorted[k].id = "S" + std::to_string(FirstStatement + k + 1);
    P.statements[FirstStatement + k] = std::move(sorted[k]);
  }
  StmtAt = std::move(at);
  StmtBefore = std::move(before);
  for (auto &Pd : PendingRefs) Pd.stmt = newIndex[Pd.stmt];
}

/// `Name = V` where V flows into the variable: at V's definition, or (From
/// set) at the end of block From on its edge to block To.
void FunctionBuilder::addDefinition(const std::string &name, Value *V, BasicBlock *From,
                                    BasicBlock *To) {
  Instruction *At = From ? From->getTerminator() : cast<Instruction>(V);
  Statement S;
  S.id = "S" + std::to_string(++StmtCounter);
  S.loc = Sym.locOf(At);
  for (llvm::Loop *L = Sym.loopInfo().getLoopFor(At->getParent()); L; L = L->getParentLoop())
    if (auto *R = Sym.record(L)) S.loops.insert(S.loops.begin(), R->id);
  S.scalarWrite = name;
  P.statements.push_back(S);
  size_t index = P.statements.size() - 1;
  StmtBefore.resize(StmtAt.size(), 0);
  llvm::Loop *ToLoop = To ? Sym.loopInfo().getLoopFor(To) : nullptr;
  bool backedge = To && ToLoop && ToLoop->getHeader() == To && ToLoop->contains(From);
  if (To && !backedge) {
    StmtAt.push_back(&To->front());
    StmtBefore.push_back(1);
  } else {
    StmtAt.push_back(At);
    StmtBefore.push_back(0);
  }
  Cur = &P.statements[index];
  CurAccesses.clear();
  Cur->expr = From ? expr(V) : expr(V, /*root=*/true);
  addGuards(At->getParent());
  if (From && To) // the edge itself, when the block branches elsewhere too
    if (auto *Br = dyn_cast<BranchInst>(From->getTerminator()); Br && Br->isConditional()) {
      bool t = Br->getSuccessor(0) == To, f = Br->getSuccessor(1) == To;
      if (t != f) {
        Guard G;
        G.condition = expr(Br->getCondition());
        if (f) G.condition = op("not", {G.condition});
        Cur->guards.push_back(G);
      }
    }
  for (auto &[ref, access] : CurAccesses) {
    Reference full = makeReference(access);
    Cur->refs[ref].array = full.array;
    Cur->refs[ref].subscripts = full.subscripts;
    PendingRefs.push_back({index, ref, access});
  }
  // A register move: nothing to charge (the guard's test is charged to the
  // statements around it), so the estimator's computation terms stay.
  Cur->ops = {};
  Cur = nullptr;
}

} // namespace dlayout
