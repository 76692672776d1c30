//===- costmodels/SubReference.h - Traversal and synchrony ------*- C++ -*-===//
//
// A sub-reference <r, d> is the subscript of reference r in a distributed
// dimension d (thesis section 4.2). In the loop L_l under analysis a
// single-index sub-reference reads alpha * j_l + beta, where beta may still
// hold the indices of loops treated as constants (type-2 loops, tiled loops):
// it is kept symbolic, so that A(I+J) and B(I+J) are recognised as moving
// together. This file answers, for the dimension's N_k, b_k, o_k and the
// loop's range r_l and step s_l:
//
//   les   (Eq. 4.1) min(N_k, ceil(|alpha| r_l / b_k)) processors traversed
//   mlis  (Eq. 4.2 = Eq. 3.2) the most iterations (elements) on one of them:
//         floor(b/(|a| s)) * floor(|a| r/(N b)) + min(floor(b/(|a| s)),
//         ceil(((|a| r) mod (N b))/(|a| s)))
//         The thesis prints ceil in the first product of Eq. 4.2 and floor in
//         Eq. 3.2; floor is the one that reproduces its own worked numbers
//         (Fig. 4.16's ceil(n/4), section 5.2.2's blocked/cyclic costs).
//   strictly synchronous (Theorem 4.1), k-synchronous (Theorem 4.2),
//   speed-ratio (Eq. 4.3), the boundary-communication test and bd (Eq. 4.4).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/LayoutView.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace dlayout::cost {

/// floor(a / b), b != 0.
inline int64_t floorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return a % b != 0 && (a < 0) != (b < 0) ? q - 1 : q;
}
/// a mod n in [0, n), n > 0 (Eq. 2.1's mod N).
inline int64_t floorMod(int64_t a, int64_t n) {
  const int64_t m = a % n;
  return m < 0 ? m + n : m;
}

/// (loop position, coefficient) pairs in ascending position, stored inline:
/// the estimator copies sub-references a lot and must not allocate. The
/// storage past size() is neither initialised nor copied (a term walk makes
/// thousands of sub-references an estimate, and zeroing their unused terms
/// took 3 % of an advise).
class LoopTerms {
public:
  static constexpr int kCapacity = 6;
  struct value_type {
    int first;
    int64_t second;
    value_type() = default; // trivial: no zeroing
    value_type(int loop, int64_t coefficient) : first(loop), second(coefficient) {}
    value_type(const std::pair<int, int64_t> &t) : first(t.first), second(t.second) {}
  };
  LoopTerms() = default;
  LoopTerms(const LoopTerms &o) : n_(o.n_), overflow_(o.overflow_) {
    std::copy(o.v_, o.v_ + o.n_, v_);
  }
  LoopTerms &operator=(const LoopTerms &o) {
    n_ = o.n_;
    overflow_ = o.overflow_;
    std::copy(o.v_, o.v_ + o.n_, v_);
    return *this;
  }
  template <class It> LoopTerms(It first, It last) {
    for (; first != last; ++first)
      push_back(*first);
  }
  void push_back(const value_type &v) {
    if (n_ < kCapacity)
      v_[n_++] = v;
    else
      overflow_ = true;
  }
  void clear() {
    n_ = 0;
    overflow_ = false;
  }
  const value_type *begin() const { return v_; }
  const value_type *end() const { return v_ + n_; }
  size_t size() const { return size_t(n_); }
  bool empty() const { return n_ == 0; }
  const value_type &operator[](size_t i) const { return v_[i]; }
  /// More terms than fit (a nest deeper than kCapacity): never equal to
  /// anything, so no synchrony is claimed.
  bool overflow() const { return overflow_; }

private:
  value_type v_[kCapacity]; // only the first n_ are set
  int n_ = 0;
  bool overflow_ = false;
};

/// beta of alpha * j + beta: constant, plus alpha' * j' for loops treated as
/// constant, plus an opaque unknown part (e.g. the x of "MJ + x").
struct Beta {
  LoopTerms terms;
  int64_t constant = 0;
  const Subscript *opaque = nullptr;
};

/// One side of a pair of aligned sub-references, seen from one loop.
struct SubRef {
  /// User-provided, so that a value-initialised SubRef (a vector's resize)
  /// is not zeroed first: its LoopTerms' unused storage stays untouched.
  SubRef() {}
  enum Kind { Missing, Constant, Single, Unknown, Replicated };
  Kind kind = Missing;
  int64_t alpha = 0; // Single: coefficient of the loop's index
  int loop = -1;     // Single/Unknown: position of the loop it varies in
  Beta beta;
  const DimDist *dist = nullptr; // the array dimension (null when Missing)
  const SubscriptForm *form = nullptr;
  bool lhs = false;
};

/// The loop quantities of the formulas.
struct LoopRange {
  double range = 0; // r_l
  double trips = 0; // n_l
  int64_t step = 1; // |s_l|
  double first = 0; // i_l, the first index value (expected)
  bool ascending = true; // s_l > 0
};

/// Eq. 3.2 / 4.2: the most iterations of the loop one processor gets (for a
/// dimension on N processors with block b, traversed with stride |alpha|).
double iterationsPerProcessor(int64_t alpha, const LoopRange &l, int64_t N,
                              int64_t b);
/// Beyond Eq. 3.2 (exact owners): the most iterations of the loop whose
/// index alpha * j + beta one processor owns (Eq. 2.1), beta a number,
/// counted per block the indices cross. Eq. 3.2 assumes the range starts at
/// a block boundary: a loop 2..33 over blocks of 17 gives each of two
/// processors 16 iterations, not 17. nullopt for kinds other than block,
/// cyclic and block-cyclic, a fractional first index or trip count, or (a
/// stride other than 1) more than 2^12 blocks crossed.
std::optional<double> iterationsPerProcessorExact(int64_t alpha, int64_t beta,
                                                  const LoopRange &l,
                                                  const DimDist &d);
/// The same count for each processor of the mesh dimension, by coordinate.
std::optional<std::vector<int64_t>> iterationsOnEachProcessor(int64_t alpha, int64_t beta,
                                                              const LoopRange &l,
                                                              const DimDist &d);
/// Eq. 4.1.
double les(const SubRef &s, const LoopRange &l);
/// Eq. 4.2.
double mlis(const SubRef &s, const LoopRange &l);

/// k as the thesis allows it: a positive integer, or the reciprocal of one.
struct SyncRatio {
  int64_t num = 1, den = 1; // k = num / den, one of them 1
  bool greater() const { return num > den; }
  bool one() const { return num == den; }
  double value() const { return double(num) / double(den); }
};

/// Theorem 4.1 (sufficient conditions): sr1 strictly synchronous with sr2.
bool strictlySynchronous(const SubRef &sr1, const SubRef &sr2);
/// Beyond Theorem 4.1: a distribution that wraps round (cyclic, or
/// block-cyclic over more than one round) puts an index and the one N
/// blocks on on the same processor, so sub-references alike but for
/// offsets whole rounds apart have one owner (dflux's DP(I+2,J) beside
/// EP(I,J), rows cyclic over two processors).
bool wholeRoundsApart(const SubRef &sr1, const SubRef &sr2);
/// Theorem 4.2 (sufficient conditions): the k for which sr1 is
/// k-synchronous with sr2, if any.
std::optional<SyncRatio> kSynchronous(const SubRef &sr1, const SubRef &sr2);
/// Eq. 4.3 without the ceiling: (|alpha1| * b2) / (|alpha2| * b1).
double speedRatio(const SubRef &sr1, const SubRef &sr2);
/// The boundary-communication test of section 4.2.2.
bool boundaryCommunication(const SubRef &sr1, const SubRef &sr2);
/// Eq. 4.4.
double boundaryData(const SubRef &sr1, const SubRef &sr2, const LoopRange &l);
/// Beyond the thesis: the elements the busiest processor sends or receives
/// when sr2's data crosses to sr1's owners over the loop, counted from the
/// owner function (Eq. 2.1) at every index the loop takes, where that is
/// known: both sub-references single-index in the loop alone (beta a
/// number), on one mesh dimension, block, cyclic or block-cyclic, and an
/// integral first index. Eq. 4.4 counts blocks per processor,
/// ceil(|alpha2| r_l / (N b2)), which charges a boundary after the last
/// block of the range too (a block-cyclic range that ends a few elements
/// into a new round); this counts only the boundaries crossed. `sent`: the
/// elements each processor sends, by coordinate.
struct Crossings {
  double elements = 0;
  std::vector<double> sent;
};
std::optional<Crossings> boundaryDataExact(const SubRef &sr1, const SubRef &sr2,
                                           const LoopRange &l);
/// Beyond the thesis, counted as boundaryDataExact does: when every element
/// of sr2 that crosses to sr1's owners over the loop comes from the next
/// processor on the mesh dimension (direction -1), or every one from the
/// previous processor (+1) - blocks of nearly the same size, as DP(I) =
/// P(I+1) with DP(1:195) and P(1:194) blocked over two - the busiest
/// processor's elements and that direction: a Shift, where the thesis's
/// speed ratio (Eq. 4.3) prices a D-Scatter or D-Gather. Zero elements when
/// nothing crosses; nullopt where the count is unknown or the pattern is not
/// one neighbour's.
struct NeighbourData {
  double elements = 0;
  int direction = 0;
  std::vector<double> sent; // by coordinate, as Crossings::sent
};
std::optional<NeighbourData> neighbourDataExact(const SubRef &sr1, const SubRef &sr2,
                                                const LoopRange &l);
/// Beyond the thesis, counted as boundaryDataExact does, for any pattern:
/// the elements of sr2 each processor sends to sr1's owners over the loop
/// (by coordinate), the most any processor sends or receives, and the most
/// processors one sends to (fig4_5's D(I) = A(I,N) with D(0:32) in blocks
/// of 3 and A's rows in blocks of 2 over 16: at most 2 elements, to 1 or 2
/// of the blocks below). nullopt where the count is unknown.
struct ExchangeData {
  double elements = 0;
  int64_t peers = 0;
  std::vector<double> sent;
};
std::optional<ExchangeData> exchangeDataExact(const SubRef &sr1, const SubRef &sr2,
                                              const LoopRange &l);
/// Beyond the thesis: the processor coordinate (f(A_k, i) of Eq. 2.1) of
/// index i in a block, cyclic or block-cyclic dimension; nullopt for other
/// kinds (general_block, indirect) and dimensions on no mesh dimension.
/// (Inline: the counted walks call it per instance.)
inline std::optional<int64_t> ownerCoordinate(const DimDist &d, int64_t i) {
  if (!d.onMesh() || d.block <= 0 ||
      (d.kind != DistKind::Block && d.kind != DistKind::Cyclic &&
       d.kind != DistKind::BlockCyclic))
    return std::nullopt;
  const int64_t N = std::max<int64_t>(d.procs, 1);
  return floorMod(floorDiv(i - d.offset, d.block), N); // Eq. 2.1
}
/// Cyclic regularity (section 4.4.3): b a multiple of |alpha| * s.
bool regular(const SubRef &s, const LoopRange &l);
/// The two sub-references denote the same expression in identically
/// distributed dimensions (type-2 case 3), both held by their owners alone
/// or both on every processor: a private scalar that runs on the owners of
/// several array elements (TermWalk::runnersOwners) needs its operand on
/// each of them, not only on the one its stand-in lhs names.
bool identical(const SubRef &sr1, const SubRef &sr2);

} // namespace dlayout::cost
