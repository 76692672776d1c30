//===- analyzer/TripBounds.cpp - Trip counts the array extents bound -----===//
//
// A loop whose bounds are not affine (DO J = 1, COUNT(I)) has no trip count
// the analysis can compute; one is assumed (--trip-count LINE=N, else
// BuildOptions::defaultTripCount). Where the loop's index subscripts an array
// dimension as alpha * j + c (COEF(I,J), ADJ(I,J) with J in 1..4), a run
// that stays within the array's bounds takes at most
// (extent - 1) / (|alpha| |step|) + 1 iterations: the assumed count is
// lowered to that, the smallest such bound over the function's references,
// and the warning says so. A count the user gave is kept.
//
// A loop over the segments of a compressed layout, DO K = R(I), R(I+1) - 1
// inside DO I (compressed rows: Zima's sparse matrix-vector product, Fig.
// 5; Kali's and PARTI's row pointers), counts R(I+1) - R(I): two elements of
// one array, one element apart, whose index advances by one element with
// the enclosing loop (segmentsOver). Its counts over that loop's n
// iterations add up to R(last + 1) - R(first), the span K covers where the
// segments follow one another: at most the bound above, so K's run takes
// that bound / n iterations on average (Q / N for a matrix of N rows and Q
// nonzeros), which is the count assumed where it is lower.
//
//===----------------------------------------------------------------------===//
#include "analyzer/FunctionBuilder.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace dlayout {

namespace {

/// The iterations of loop `id` (step `step`) that keep `ref` within its
/// array's bounds, and the dimension that gives the fewest; nullopt where no
/// subscript is alpha * j + c in that loop alone.
std::optional<std::pair<double, size_t>> withinBounds(const Reference &ref, const Array &a,
                                                      const std::string &id, int64_t step) {
  std::optional<std::pair<double, size_t>> best;
  for (size_t k = 0; k < ref.subscripts.size() && k < a.dims.size(); ++k) {
    const Subscript &s = ref.subscripts[k];
    if (s.cls != SubscriptClass::Single || s.affine.coeffs.size() != 1 ||
        s.affine.coeffs.begin()->first != id || a.dims[k].extent <= 0)
      continue;
    const double stride =
        double(std::llabs(s.affine.coeffs.begin()->second)) * double(std::llabs(step ? step : 1));
    const double trips = std::floor(double(a.dims[k].extent - 1) / stride) + 1;
    if (!best || trips < best->first)
      best = std::make_pair(trips, k);
  }
  return best;
}

std::string number(double v) {
  std::ostringstream o;
  o.precision(3);
  o << v;
  return o.str();
}

} // namespace

/// The loop whose iterations L's runs are the segments of (DO K = R(I),
/// R(I+1) - 1 inside DO I: L's count is exactly R(I+1) - R(I), loads of one
/// array one element apart, the first's address advancing by that element
/// with the loop), or null.
const Loop *FunctionBuilder::segmentsOver(const Loop &L) {
  auto it = Iterations.find(L.id);
  if (it == Iterations.end())
    return nullptr;
  llvm::LoadInst *from = nullptr, *to = nullptr;
  for (const auto &[m, c] : it->second.terms()) {
    if (m.empty() || m.size() != 1 || m[0].rfind("?:", 0) != 0 || (c != 1 && c != -1))
      return nullptr; // a constant, or a term other than +-R(.)
    auto *V = llvm::dyn_cast_or_null<llvm::LoadInst>(Sym.opaqueValue(m[0]));
    if (!V || (c == 1 ? to : from))
      return nullptr;
    (c == 1 ? to : from) = V;
  }
  if (!from || !to || from->getType() != to->getType() || !from->getType()->isIntegerTy())
    return nullptr;
  llvm::ScalarEvolution &SE = Sym.se();
  const int64_t bytes = int64_t(from->getType()->getIntegerBitWidth() / 8);
  const auto *apart = llvm::dyn_cast<llvm::SCEVConstant>(
      SE.getMinusSCEV(SE.getSCEV(to->getPointerOperand()), SE.getSCEV(from->getPointerOperand())));
  const auto *walk = llvm::dyn_cast<llvm::SCEVAddRecExpr>(SE.getSCEV(from->getPointerOperand()));
  if (!apart || apart->getAPInt().getSExtValue() != bytes || !walk || !walk->isAffine())
    return nullptr;
  const auto *step = llvm::dyn_cast<llvm::SCEVConstant>(walk->getStepRecurrence(SE));
  if (!step || step->getAPInt().getSExtValue() != bytes)
    return nullptr;
  auto outer = LoopIndex.find(walk->getLoop());
  if (outer == LoopIndex.end() || P.loops[outer->second].id == L.id)
    return nullptr;
  const Loop &O = P.loops[outer->second];
  for (const Loop *q = &L; q && q->parent;) { // O must enclose L
    if (*q->parent == O.id)
      return O.tripCount >= 1 ? &O : nullptr;
    q = P.findLoop(*q->parent);
  }
  return nullptr;
}

void FunctionBuilder::boundAssumedTripCounts() {
  for (size_t index : AssumedTrips) {
    Loop &L = P.loops[index];
    const Loop *over = segmentsOver(L);
    L.segments.reset();
    std::string because;
    for (size_t s = FirstStatement; s < P.statements.size(); ++s) {
      const Statement &st = P.statements[s];
      if (std::find(st.loops.begin(), st.loops.end(), L.id) == st.loops.end())
        continue;
      for (const Reference &ref : st.refs)
        if (const Array *a = P.findArray(ref.array))
          if (auto b = withinBounds(ref, *a, L.id, L.step)) {
            const std::string dim = "dimension " + std::to_string(b->second + 1) + " of " + ref.array;
            const Subscript &sub = ref.subscripts[b->second];
            if (over && b->first / over->tripCount < L.tripCount &&
                sub.affine.coeffs.begin()->second == 1 && sub.affine.params.empty() && L.step == 1) {
              L.tripCount = b->first / over->tripCount;
              L.segments = Loop::Segments{over->id, a->dims[b->second].lower - sub.affine.constant,
                                          b->first};
              because = "at each of the " + number(over->tripCount) + " iterations of loop " +
                        over->id + " (" + over->var + ") it runs over the next segment of " + dim +
                        ", which its index subscripts: " + number(b->first) + " elements / " +
                        number(over->tripCount) + " segments; ";
            } else if (b->first < L.tripCount) {
              L.tripCount = b->first;
              L.segments.reset();
              because = "no more than " + dim + ", which its index subscripts, holds; ";
            }
          }
    }
    warnOnce("trip-count", "loop " + L.id + " (" + L.var + ") has bounds that are "
             "not affine; its trip count is assumed to be " + number(L.tripCount) + " (" +
             because + "give --trip-count " + std::to_string(L.loc.line) + "=VALUE)", L.loc);
  }
}

} // namespace dlayout
