//===- analyzer/FunctionBuilder.cpp - Loops, arrays and references --------===//
#include "analyzer/FunctionBuilder.h"
#include "analyzer/Delinearize.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"

#include <algorithm>
#include <cmath>
#include <functional>

using namespace llvm;

namespace dlayout {

FunctionBuilder::FunctionBuilder(Function &F, const BuildOptions &opts,
                                 Program &P, unsigned &loopCounter,
                                 unsigned &stmtCounter)
    : F(F), Opts(opts), P(P),
      Sym(F, opts.fortran, loopCounter, [&] {
        auto It = opts.loopVariables.find(F.getName().str());
        return It == opts.loopVariables.end() ? std::map<unsigned, std::string>{}
                                              : It->second;
      }()),
      StmtCounter(stmtCounter) {}

void FunctionBuilder::build() {
  FirstStatement = P.statements.size();
  FirstPhase = P.phases.size();
  buildLoops();
  findScalarRecurrences();
  buildStatements();
  completeShapes();
  finishReferences();
  boundAssumedTripCounts();
  addSubscriptExprs();
  addBoundExprs();
  addScalarDefinitions();
  markArrayReductions();
  warnPossibleAliasing();
  bindExpressionParameters();
}

/// Parameters that only expressions use (a C argument n read as a value)
/// get a value like those of the bounds.
void FunctionBuilder::bindExpressionParameters() {
  std::function<void(const Expr &)> visit = [&](const Expr &e) {
    if (e.kind == Expr::Kind::Param) parameterValue(e.name);
    for (auto &a : e.args) visit(a);
  };
  for (size_t s = FirstStatement; s < P.statements.size(); ++s) {
    visit(P.statements[s].expr);
    for (auto &g : P.statements[s].guards) visit(g.condition);
  }
}

/// C pointer arguments without `restrict` may overlap; the analysis treats
/// them as distinct arrays and says so.
void FunctionBuilder::warnPossibleAliasing() {
  std::vector<std::string> open;
  for (auto *O : Sym.objects())
    if (O->kind == MemoryObject::Kind::Array && O->origin == "argument" &&
        !O->restrictQualified && ArrayNames.count(O))
      open.push_back(ArrayNames[O]);
  if (open.size() < 2) return;
  std::string names;
  for (auto &n : open) names += (names.empty() ? "" : ", ") + n;
  warnOnce("aliasing", "pointer arguments " + names + " of " + F.getName().str() +
           " are not restrict-qualified and may alias; assumed distinct",
           F.getSubprogram() ? SourceLoc{F.getSubprogram()->getFilename().str(),
                                         F.getSubprogram()->getLine(), 0}
                             : SourceLoc{});
}

void FunctionBuilder::warnOnce(const std::string &kind,
                               const std::string &message, SourceLoc loc) {
  if (Warned.insert(kind + message).second)
    P.warnings.push_back(Warning{kind, message, loc});
}

// ----------------------------------------------------------------------------
// Loops
// ----------------------------------------------------------------------------

std::string FunctionBuilder::renderPoly(const Poly &p) const {
  std::string s = p.str();
  // Poly::str prints symbols without their kind; loop ids become the
  // induction variables' names.
  for (auto &L : P.loops) {
    std::string from = L.id;
    size_t pos = 0;
    while ((pos = s.find(from, pos)) != std::string::npos) {
      bool wordStart = pos == 0 || !std::isalnum((unsigned char)s[pos - 1]);
      size_t end = pos + from.size();
      bool wordEnd = end >= s.size() || !std::isalnum((unsigned char)s[end]);
      if (wordStart && wordEnd) {
        s.replace(pos, from.size(), L.var);
        pos += L.var.size();
      } else {
        pos = end;
      }
    }
  }
  return s;
}

Bound FunctionBuilder::boundOf(const Poly &p) const {
  Bound b;
  b.text = renderPoly(p);
  if (auto a = p.toAffine()) {
    b.kind = Bound::Kind::Affine;
    b.terms = {*a};
  } else {
    b.kind = Bound::Kind::NonAffine;
  }
  return b;
}

std::optional<double> FunctionBuilder::valueOf(const Poly &p) const {
  return p.evaluate(Values);
}

void FunctionBuilder::buildLoops() {
  for (const LoopRecord &R : Sym.loops()) {
    llvm::Loop *L = R.loop;
    dlayout::Loop M;
    M.id = R.id;
    M.var = R.var;
    // No induction variable the analysis can follow (a loop of IR without
    // one): named after the loop, as a model's loops must be.
    if (M.var.empty()) M.var = R.id + ".i";
    M.level = L->getLoopDepth();
    if (L->getParentLoop())
      if (auto *PR = Sym.record(L->getParentLoop())) M.parent = PR->id;
    M.loc = Sym.locOf(L->getStartLoc());
    if (!M.loc.known()) M.loc = Sym.locOf(L->getHeader()->getTerminator());

    // Bounds are evaluated on entry, in the enclosing loop.
    Poly lower = R.iv ? Sym.toPolyAt(R.start, L->getParentLoop()) : Poly::symbol("?:start");
    M.step = R.iv ? R.step : 1;
    if (R.counter) { // only the trip count is the source's
      lower = Poly::constant(1);
      M.step = 1;
    }
    Poly iterations = Poly::symbol("?:trip");
    // A loop that can be left before its bound (EXIT, a GO TO out of it)
    // runs to its bound in the model, and is not parallel: whether an
    // iteration runs depends on the ones before.
    BasicBlock *Exiting = exitingBlock(L);
    M.parallel = true; // unless left early; computeDependences decides the rest
    if (!Exiting) {
      BasicBlock *counted = nullptr;
      int exits = 0;
      for (BasicBlock *B : L->blocks())
        if (leavesLoop(B, L)) {
          ++exits;
          if (!isa<SCEVCouldNotCompute>(Sym.se().getExitCount(L, B)))
            counted = counted ? nullptr : B;
        }
      if (counted && exits > 1) {
        Exiting = counted;
        M.parallel = false;
        warnOnce("early-exit", "loop " + M.id + " (" + M.var + ") can be left before its "
                 "bound (EXIT, or a GO TO out of it): the model runs it to its bound, so "
                 "validate's runs may compute what the program does not; it is not parallel",
                 M.loc);
      }
    }
    if (Exiting) {
      const SCEV *EC = Sym.se().getExitCount(L, Exiting);
      if (!isa<SCEVCouldNotCompute>(EC))
        // A loop tested at the top runs its body once per backedge; one
        // tested at the bottom once more.
        iterations = Sym.toPolyAt(EC, L->getParentLoop()) +
                     Poly::constant(Exiting == L->getLoopLatch() ? 1 : 0);
    }
    if (!R.iv)
      warnOnce("non-affine", "loop " + M.id + " has no induction variable the "
               "analysis recognises; its bounds are unknown", M.loc);
    // flang counts a DO with a step other than +-1 as (ub - lb + s) / s: the
    // bound is then ub, and the count is the quotient, taken numerically.
    if (auto *Div = dyn_cast_or_null<BinaryOperator>(loneOpaque(iterations));
        Div && Div->getOpcode() == Instruction::SDiv)
      if (auto *C = dyn_cast<ConstantInt>(Div->getOperand(1));
          C && C->getSExtValue() == M.step && M.step != 0) {
        iterations = Sym.toPolyAt(Sym.se().getSCEV(Div->getOperand(0)), L->getParentLoop());
        IterationDivisor[M.id] = M.step;
        Poly ub = iterations + lower - Poly::constant(M.step);
        LoopIndex[L] = P.loops.size();
        P.loops.push_back(M);
        Lower[M.id] = lower;
        Upper[M.id] = ub;
        Iterations[M.id] = iterations;
        continue;
      }
    Poly upper = lower + (iterations - Poly::constant(1)) * M.step;
    // Where the exit test compares the variable itself (C's i < n - 1), the
    // bound is the source's, without the clamps of the exit count.
    if (auto bound = exitTestBound(R)) {
      upper = *bound;
      if (M.step == 1) iterations = upper - lower + Poly::constant(1);
      if (M.step == -1) iterations = lower - upper + Poly::constant(1);
    }
    LoopIndex[L] = P.loops.size();
    P.loops.push_back(M);
    Lower[M.id] = lower;
    Upper[M.id] = upper;
    Iterations[M.id] = iterations;
  }
  for (auto &R : Sym.loops()) {
    auto &M = P.loops[LoopIndex[R.loop]];
    M.lower = boundOf(Lower[M.id]);
    M.upper = boundOf(Upper[M.id]);
  }
  evaluateLoops();
}

/// The value behind a polynomial that is one opaque symbol, else null.
Value *FunctionBuilder::loneOpaque(const Poly &p) const {
  if (p.terms().size() != 1) return nullptr;
  auto &[m, c] = *p.terms().begin();
  if (c != 1 || m.size() != 1 || m[0].rfind("?:", 0) != 0) return nullptr;
  return Sym.opaqueValue(m[0]);
}

/// The last value of the induction variable allowed by an exit test
/// `iv + r  pred  Y` (Y invariant in the loop), or nullopt.
std::optional<Poly> FunctionBuilder::exitTestBound(const LoopRecord &R) {
  llvm::Loop *L = R.loop;
  BasicBlock *Exiting = exitingBlock(L);
  if (!R.iv || R.counter || !Exiting || (R.step != 1 && R.step != -1)) return std::nullopt;
  auto *Br = dyn_cast<BranchInst>(Exiting->getTerminator());
  auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
  if (!Cmp) return std::nullopt;
  CmpInst::Predicate Pred = Cmp->getPredicate();
  if (!L->contains(Br->getSuccessor(0))) Pred = CmpInst::getInversePredicate(Pred);
  std::string iv = ivSymbol(R.id);
  Poly X = Sym.toPoly(Sym.se().getSCEV(Cmp->getOperand(0)));
  Poly Y = Sym.toPoly(Sym.se().getSCEV(Cmp->getOperand(1)));
  if (Y.mentions(iv)) {
    std::swap(X, Y);
    Pred = CmpInst::getSwappedPredicate(Pred);
  }
  if (Y.mentions(iv) || !X.mentions(iv)) return std::nullopt;
  Poly r = X - Poly::symbol(iv);
  if (r.mentions(iv)) return std::nullopt; // coefficient other than 1
  Poly last = Y - r; // iv  pred  last
  switch (ICmpInst::getSignedPredicate(Pred)) {
  case CmpInst::ICMP_SLT: return R.step > 0 ? std::optional(last - Poly::constant(1)) : std::nullopt;
  case CmpInst::ICMP_SLE: return R.step > 0 ? std::optional(last) : std::nullopt;
  case CmpInst::ICMP_SGT: return R.step < 0 ? std::optional(last + Poly::constant(1)) : std::nullopt;
  case CmpInst::ICMP_SGE: return R.step < 0 ? std::optional(last) : std::nullopt;
  case CmpInst::ICMP_NE: return last - Poly::constant(R.step);
  default: return std::nullopt;
  }
}

/// Trip counts and value ranges, outer loops first (thesis §3.2 takes the
/// mean for triangular loops: with affine bounds the mean trip count is the
/// trip count at the mean of the enclosing induction variables).
/// A parameter's value: bound by --param, else assumed, with a warning.
int64_t FunctionBuilder::parameterValue(const std::string &name) {
  auto [it, assumed] = P.params.try_emplace(name, Opts.defaultParam);
  if (assumed)
    warnOnce("parameter", "parameter " + name + " has no value; assumed " +
             std::to_string(Opts.defaultParam) + " (give --param " + name + "=VALUE)");
  return it->second;
}

/// The parameters these polynomials name get their values, once each.
void FunctionBuilder::bindParameters(const std::vector<Poly> &polys) {
  for (const Poly &p : polys)
    for (auto &[m, c] : p.terms())
      for (auto &s : m) {
        if (s.rfind("p:", 0) != 0 || ParamValues.count(s.substr(2))) continue;
        const std::string name = s.substr(2);
        const double v = double(parameterValue(name));
        ParamValues[name] = v;
        Ranges[paramSymbol(name)] = {v, v};
        Values[paramSymbol(name)] = v;
      }
}

/// The extents of every object, so that the parameters in them have values.
std::vector<Poly> FunctionBuilder::declaredExtents() {
  std::vector<Poly> out;
  for (auto *O : Sym.objects())
    for (auto &e : O->extents)
      if (e) out.push_back(*e);
  return out;
}

void FunctionBuilder::evaluateLoops() {
  std::vector<Poly> polys = declaredExtents();
  for (auto &[id, p] : Lower) polys.push_back(p);
  for (auto &[id, p] : Upper) polys.push_back(p);
  bindParameters(polys);

  for (auto &R : Sym.loops()) {
    auto &M = P.loops[LoopIndex[R.loop]];
    auto trip = valueOf(Iterations[M.id]);
    if (auto d = IterationDivisor.find(M.id); trip && d != IterationDivisor.end())
      trip = std::trunc(*trip / double(d->second));
    if (!trip) { // bounded by the extents it indexes later (TripBounds.cpp)
      auto given = Opts.tripCounts.find(M.loc.line);
      trip = given != Opts.tripCounts.end() ? given->second : Opts.defaultTripCount;
      if (given == Opts.tripCounts.end()) AssumedTrips.push_back(LoopIndex[R.loop]);
    }
    M.tripCount = std::max(0.0, *trip);
    auto lo = valueOf(Lower[M.id]), hi = valueOf(Upper[M.id]);
    Values[ivSymbol(M.id)] = (lo && hi) ? (*lo + *hi) / 2 : 0;
    auto rl = Lower[M.id].range(Ranges), ru = Upper[M.id].range(Ranges);
    if (rl && ru)
      Ranges[ivSymbol(M.id)] = {std::min(rl->first, ru->first),
                                std::max(rl->second, ru->second)};
  }
}

// ----------------------------------------------------------------------------
// Arrays
// ----------------------------------------------------------------------------

Access FunctionBuilder::accessOf(Instruction *I, Value *Ptr, MemoryObject *O) {
  Access A;
  A.inst = I;
  A.object = O;
  auto &SE = Sym.se();
  const SCEV *Off = SE.getMinusSCEV(SE.getSCEV(Ptr), SE.getSCEV(O->base));
  Poly bytes = Sym.toPolyAt(Off, Sym.loopInfo().getLoopFor(I->getParent()));
  // Bytes to elements: every coefficient must divide.
  Poly elems;
  for (auto &[m, c] : bytes.terms()) {
    if (c % (int64_t)O->elementBytes) A.exactOffset = false;
    Poly t = Poly::constant(c / (int64_t)O->elementBytes);
    for (auto &s : m) t = t * Poly::symbol(s);
    elems = elems + t;
  }
  A.offset = elems;
  AccessesOf[O].push_back(A);
  return A;
}


/// The strides of an array's address arithmetic that are not numbers: for
/// each induction variable (or unknown value) of an offset, the polynomial
/// in the parameters that multiplies it -- NP2 in I + J*NP2, N + 1 in an
/// A(0:N, M) -- ordered by degree.
static std::vector<Poly> symbolicStrides(const std::vector<Access> &accesses) {
  std::map<std::string, Poly> found;
  for (auto &A : accesses) {
    std::set<std::string> vars;
    for (auto &[m, c] : A.offset.terms())
      for (auto &s : m)
        if (s.rfind("p:", 0) != 0) vars.insert(s);
    for (auto &v : vars) {
      Poly coef;
      bool pure = true;
      for (auto &[m, c] : A.offset.terms()) {
        if (std::count(m.begin(), m.end(), v) != 1) continue;
        Poly t = Poly::constant(c);
        for (auto &s : m) {
          if (s == v) continue;
          if (s.rfind("p:", 0) != 0) pure = false;
          t = t * Poly::symbol(s);
        }
        coef = coef + t;
      }
      if (pure && !coef.asConstant()) found.emplace(coef.str(), coef);
    }
  }
  std::vector<Poly> out;
  for (auto &[k, p] : found) out.push_back(p);
  std::stable_sort(out.begin(), out.end(), [](const Poly &a, const Poly &b) {
    return a.degree() != b.degree() ? a.degree() < b.degree()
                                    : a.terms().size() < b.terms().size();
  });
  return out;
}

/// q with q * divisor == p, for a divisor of one term; nullopt otherwise.
static std::optional<Poly> divideExactly(const Poly &p, const Poly &divisor) {
  if (divisor.terms().size() != 1) return std::nullopt;
  auto &[dm, dc] = *divisor.terms().begin();
  Poly q;
  for (auto &[m, c] : p.terms()) {
    Monomial rest = m;
    for (auto &s : dm) {
      auto it = std::find(rest.begin(), rest.end(), s);
      if (it == rest.end()) return std::nullopt;
      rest.erase(it);
    }
    if (c % dc) return std::nullopt;
    Poly t = Poly::constant(c / dc);
    for (auto &s : rest) t = t * Poly::symbol(s);
    q = q + t;
  }
  return q;
}

/// Where the declaration leaves extents open (adjustable Fortran dummies,
/// C pointers), the strides of the address arithmetic give them: the k-th
/// symbolic stride is the product of the extents of the k fastest
/// dimensions.
void FunctionBuilder::completeShapes() {
  for (auto *O : Sym.objects()) {
    if (O->kind != MemoryObject::Kind::Array) continue;
    auto &accesses = AccessesOf[O];
    std::vector<Poly> strides = symbolicStrides(accesses);

    size_t rank = O->extents.size();
    // A C pointer addressed a[i*n + j] is a 2-D array of rows of n.
    if (rank == 1 && !O->columnMajor && !O->extents[0] && strides.size() == 1) {
      O->extents = {std::nullopt, strides[0]};
      O->lowers = {0, 0};
      O->shapeInferred = true;
      rank = 2;
    }
    // ... and so is one addressed a[i*64 + j] once n is a known 64: the one
    // coefficient above 1 of the induction variables is the row length.
    if (rank == 1 && !O->columnMajor && !O->extents[0] && strides.empty()) {
      std::set<int64_t> coeffs;
      bool linear = true;
      for (auto &A : accesses)
        for (auto &[m, c] : A.offset.terms()) {
          if (m.size() > 1) linear = false;
          if (m.size() == 1 && m[0].rfind("iv:", 0) == 0 && std::llabs(c) > 1)
            coeffs.insert(std::llabs(c));
        }
      if (linear && coeffs.size() == 1) {
        O->extents = {std::nullopt, Poly::constant(*coeffs.begin())};
        O->lowers = {0, 0};
        O->shapeInferred = true;
        rank = 2;
      }
    }
    // The open extents other than the slowest dimension's.
    size_t slowest = O->columnMajor ? rank - 1 : 0;
    bool open = false;
    for (size_t d = 0; d < rank; ++d)
      if (d != slowest && !O->extents[d]) open = true;
    if (!open) continue;
    std::vector<Poly> extents;
    if (strides.size() == rank - 1) {
      Poly prev = Poly::constant(1);
      for (auto &stride : strides) {
        auto e = prev.asConstant() == 1 ? std::optional(stride) : divideExactly(stride, prev);
        if (!e) break;
        extents.push_back(*e);
        prev = stride;
      }
    }
    if (extents.size() != rank - 1) {
      warnOnce("shape", "the shape of " + O->name + " is neither declared nor "
               "recoverable from its subscripts; its references are treated "
               "as unknown", O->loc);
      continue;
    }
    for (size_t k = 0; k + 1 < rank; ++k) {
      size_t d = O->columnMajor ? k : rank - 1 - k;
      if (!O->extents[d]) O->extents[d] = extents[k];
    }
    O->shapeInferred = true;
  }
  // A parameter the strides alone give (a dummy A(N,M) whose N no loop
  // bound reads: DO I = 2, MIN(N, 10)) has its value too.
  bindParameters(declaredExtents());
}

std::string FunctionBuilder::arrayName(const MemoryObject *O) {
  auto It = ArrayNames.find(O);
  if (It != ArrayNames.end()) return It->second;
  std::string name = O->name;
  if (P.findArray(name)) name += "@" + F.getName().str();
  ArrayNames[O] = name;
  if (O->sharedStorage)
    warnOnce("common", "the storage of " + name + " holds several variables (a COMMON "
             "block or EQUIVALENCE); it is analysed as one array, not split into them",
             O->loc);

  Array A;
  A.name = name;
  A.elementBytes = O->elementBytes;
  A.elementType = O->elementType;
  A.columnMajor = O->columnMajor;
  A.origin = O->origin;
  A.loc = O->loc;
  size_t rank = O->extents.size();
  for (size_t d = 0; d < rank; ++d) {
    ArrayDim D;
    D.lower = O->lowers[d];
    if (O->extents[d]) {
      if (auto a = O->extents[d]->toAffine(); a && !a->isConstant())
        D.extentExpr = *a;
      D.extent = (int64_t)valueOf(*O->extents[d]).value_or(0);
    }
    A.dims.push_back(D);
  }
  P.arrays.push_back(A);
  return name;
}

/// Thesis §3.1: constant, single-index, multiple-index or unknown (with the
/// affine part kept), and indirect when the subscript is another array's
/// element.
Subscript FunctionBuilder::classify(const Poly &sub, Instruction *at) {
  const unsigned depth = Sym.loopInfo().getLoopDepth(at->getParent());
  Subscript S;
  S.affine = sub.affinePart();
  std::set<std::string> ivs, opaques;
  for (auto &[m, c] : sub.terms())
    for (auto &s : m) {
      if (s.rfind("iv:", 0) == 0) ivs.insert(s.substr(3));
      if (s.rfind("?:", 0) == 0) opaques.insert(s);
    }
  unsigned ivLevel = 0;
  for (auto &id : ivs)
    if (auto *L = P.findLoop(id)) ivLevel = std::max(ivLevel, L->level);

  if (sub.isAffine()) {
    S.cls = S.affine.coeffs.empty() ? SubscriptClass::Constant
            : S.affine.coeffs.size() == 1 ? SubscriptClass::Single
                                          : SubscriptClass::Multiple;
    S.variationLevel = ivLevel;
    return S;
  }
  // Indirect: exactly one opaque symbol, linearly, which is a load of an
  // array element.
  if (opaques.size() == 1) {
    const std::string &sym = *opaques.begin();
    bool linear = true;
    for (auto &[m, c] : sub.terms())
      if (std::find(m.begin(), m.end(), sym) != m.end() && (m.size() != 1 || c != 1))
        linear = false;
    auto *Ld = dyn_cast_or_null<LoadInst>(Sym.opaqueValue(sym));
    MemoryObject *O = Ld ? Sym.objectOf(Ld->getPointerOperand()) : nullptr;
    if (linear && Ld && O && O->kind == MemoryObject::Kind::Array && sub.degree() <= 1) {
      S.cls = SubscriptClass::Indirect;
      Reference idx = makeReference(accessOf(Ld, Ld->getPointerOperand(), O));
      unsigned level = ivLevel;
      for (auto &s : idx.subscripts) level = std::max(level, s.variationLevel);
      S.variationLevel = level;
      S.index = {idx};
      return S;
    }
  }
  // Unknown: it changes where the statements defining its unknown part are
  // (thesis §3.1), and in the loops of its linear part: the innermost of
  // those. (The thesis's "minimum" with the linear part's level is the
  // partially known form x + alpha*i, which `affine` keeps.)
  S.cls = SubscriptClass::Unknown;
  S.text = renderPoly(sub);
  unsigned defLevel = 0;
  for (auto &sym : opaques)
    if (auto *I = dyn_cast_or_null<Instruction>(Sym.opaqueValue(sym)))
      defLevel = std::max(defLevel, changeLevel(I, at));
  // A value defined deeper than the reference changes, as the reference
  // sees it, no deeper than the reference itself.
  S.variationLevel = std::max(std::min(defLevel, depth), ivLevel);
  return S;
}

/// The deepest loop around `at` in which the value `def` computes can
/// change (thesis §3.1: the nesting level of the statements defining it,
/// as the reference sees them), as a depth: the deepest loop that holds
/// both. dgefa's L, assigned in DO 30 I and read in DO 80 J beside it,
/// varies in DO 60 K only. A cast or arithmetic changes where its operands
/// do; a load of a scalar variable kept in memory, where a store to it
/// does, unless its address goes anywhere but loads and stores of this
/// function.
unsigned FunctionBuilder::changeLevel(Instruction *def, Instruction *at) {
  const LoopInfo &LI = Sym.loopInfo();
  auto common = [&](const Instruction *I) {
    const llvm::Loop *L = LI.getLoopFor(I->getParent());
    while (L && !L->contains(at->getParent()))
      L = L->getParentLoop();
    return L ? unsigned(L->getLoopDepth()) : 0u;
  };
  const unsigned here = common(def);
  if (isa<CastInst>(def) || isa<BinaryOperator>(def)) {
    unsigned level = 0;
    for (Value *Op : def->operands())
      if (auto *I = dyn_cast<Instruction>(Op))
        level = std::max(level, changeLevel(I, at));
    return std::min(level, here);
  }
  auto *Ld = dyn_cast<LoadInst>(def);
  Value *Var = Ld ? Ld->getPointerOperand()->stripPointerCasts() : nullptr;
  if (!Var || !(isa<GlobalVariable>(Var) || isa<AllocaInst>(Var)))
    return here;
  unsigned level = 0;
  for (User *U : Var->users()) {
    auto *I = dyn_cast<Instruction>(U);
    if (!I || I->getFunction() != def->getFunction())
      return here;
    if (isa<LoadInst>(I))
      continue;
    auto *St = dyn_cast<StoreInst>(I);
    if (!St || St->getPointerOperand() != Var || St->getValueOperand() == Var)
      return here;
    level = std::max(level, common(St));
  }
  return std::min(level, here);
}

Reference FunctionBuilder::makeReference(const Access &A) {
  Reference R;
  R.array = arrayName(A.object);
  R.access = isa<StoreInst>(A.inst) ? Reference::Access::Write : Reference::Access::Read;
  R.loc = Sym.locOf(A.inst);
  MemoryObject *O = A.object;
  size_t rank = O->extents.size();
  bool known = A.exactOffset;
  for (size_t d = 0; d < rank; ++d)
    if (d != (O->columnMajor ? rank - 1 : 0) && !O->extents[d]) known = false;
  if (!known) {
    for (size_t d = 0; d < rank; ++d) {
      Subscript S;
      S.cls = SubscriptClass::Unknown;
      S.text = "address not analysable";
      R.subscripts.push_back(S);
    }
    return R;
  }
  std::vector<Poly> extents;
  for (auto &e : O->extents) extents.push_back(e.value_or(Poly::constant(1)));
  auto subs = delinearize(A.offset, extents, O->columnMajor, Ranges);
  for (size_t d = 0; d < rank; ++d)
    R.subscripts.push_back(classify(subs[d] + Poly::constant(O->lowers[d]), A.inst));
  return R;
}

/// Subscripts for every reference, once the shapes are complete; then the
/// extents nobody declared, from the largest index used.
void FunctionBuilder::finishReferences() {
  for (auto &Pd : PendingRefs) {
    auto &R = P.statements[Pd.stmt].refs[Pd.ref];
    Reference full = makeReference(Pd.access);
    R.array = full.array;
    R.subscripts = full.subscripts;
  }
  for (auto *O : Sym.objects()) {
    if (O->kind != MemoryObject::Kind::Array) continue;
    auto It = ArrayNames.find(O);
    if (It == ArrayNames.end()) continue;
    Array *A = nullptr;
    for (auto &a : P.arrays)
      if (a.name == It->second) A = &a;
    size_t rank = O->extents.size();
    for (size_t d = 0; d < rank; ++d) {
      if (O->extents[d]) continue;
      double hi = A->dims[d].lower;
      for (auto &Acc : AccessesOf[O]) {
        std::vector<Poly> extents;
        for (auto &e : O->extents) extents.push_back(e.value_or(Poly::constant(1)));
        auto subs = delinearize(Acc.offset, extents, O->columnMajor, Ranges);
        if (auto r = subs[d].range(Ranges)) hi = std::max(hi, r->second + O->lowers[d]);
      }
      A->dims[d].extent = (int64_t)hi - A->dims[d].lower + 1;
      warnOnce("shape", "extent of dimension " + std::to_string(d + 1) + " of " +
               A->name + " is not declared; taken as " +
               std::to_string(A->dims[d].extent) + " from its largest subscript", A->loc);
    }
  }
}

} // namespace dlayout
