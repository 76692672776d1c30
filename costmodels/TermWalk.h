//===- costmodels/TermWalk.h - Internal: the loop walk of section 4.4 -*- C++
//-*-===//
//
// Internal to costmodels/: the class behind referenceTerms() (CommTerms.h).
// CommTerms.cpp holds the walk itself (pairing, type-2 loops, invariant pairs,
// tiling, local sizes), CommTables.cpp the type-1 cases (Tables 4.2-4.4),
// TermOwners.cpp the exact owners' questions (who holds what, where),
// PartialsExchange.cpp the partial results sent to their owners.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/CommTerms.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <utility>
#include <vector>

namespace dlayout::cost::detail {

inline LoopRange rangeOf(const StatementFacts &sf, int l) {
  const LoopFacts &f = sf.loops[l];
  return {f.range, f.trips, f.step, f.first, !f.loop || f.loop->step >= 0};
}

/// The iterations a sample of a driving loop (OuterSamples.h) stands for.
inline LoopRange standsFor(const LoopFacts &q) {
  return {double(q.stands * q.step), double(q.stands), q.step, double(q.standsFrom),
          q.signedStep() > 0};
}

/// Some subscript of r varies in the loop at position pos.
inline bool variesIn(const RefFacts &r, int pos) {
  for (const SubscriptForm &f : r.subs)
    if (f.alphaAt(pos) != 0 || f.varLevel == pos + 1)
      return true;
  return false;
}

/// A single-index sub-reference spread over more than one processor of its
/// mesh dimension.
inline bool spread(const SubRef &s) {
  return s.kind == SubRef::Single && s.dist && s.dist->onMesh() && s.dist->procs > 1;
}

/// The direction data moves between two single-index sub-references of one
/// mesh dimension whose owners differ by a fixed distance (Table 4.2 cases 2
/// and 3): +1 towards higher coordinates, where L's offset from its
/// distribution's origin leads R's.
inline int shiftDirection(const SubRef &L, const SubRef &R) {
  int64_t c1 = L.beta.constant - L.dist->offset, c2 = R.beta.constant - R.dist->offset;
  return c1 * R.alpha > c2 * L.alpha ? 1 : -1;
}

inline int rawLevel(const SubRef &s) {
  if (s.kind == SubRef::Single || s.kind == SubRef::Unknown)
    return s.loop + 1;
  return 0;
}

/// The sub-reference of one side in mesh dimension d, before a loop is
/// chosen. An array with no dimension on d is replicated along it (Eq.
/// 2.1's X, as a program run under the layout keeps it) when marked so or
/// with exact owners; the thesis's symbolic reading leaves it Missing (a
/// constant position there).
SubRef baseSub(const RefFacts *ref, const ArrayDist *ad, int d, bool lhs, bool exactOwners);

/// A request to tile loop `loop` at the transition points of `driver`.
struct TileRequest {
  int loop = -1;
  SubRef driver;
  int dim = -1;
  bool rhs = false;
};

inline double speed(const SubRef &s) {
  return double(std::llabs(s.alpha)) / double(s.dist ? s.dist->block : 1);
}

class TermWalk {
public:
  TermWalk(const StatementFacts &sf, const RhsFacts &rf, const LayoutView &lv,
           std::vector<char> type2, const TermOptions &opts = {})
      : sf_(sf), rf_(rf), lv_(lv), opts_(opts), D_(int(lv.mesh.size())),
        m_(int(sf.loops.size())) {
    out.type2 = std::move(type2);
    out.dims.assign(D_, DimResult{});
    tiled_.assign(m_, -1);
    at_.resize(D_);
  }

  /// Runs the walk; returns the loop to freeze (make type-2), or -1.
  int run();

  ReferenceTerms out;

private:
  //===--------------------------------------------------------------------===//
  // Sub-references seen from loop l
  //===--------------------------------------------------------------------===//

  /// base as seen from loop l: Single in l, or Constant if it varies only
  /// outside l (its indices then belong to beta). For a type-1 analysis, a
  /// type-1 outer index asks for tiling; two make the subscript unknown.
  SubRef atLoop(const SubRef &base, int l, int dim, bool type1,
                std::vector<TileRequest> *tiles);

  /// Beyond the thesis (exactOwners): s with the indices of loops at one
  /// iteration (a sample of a triangular nest, Communication.h, or a loop
  /// of one trip) folded into beta's number, so that its owner is known.
  SubRef fixedOuter(SubRef s) const;

  /// Beyond the thesis (exactOwners): the coordinate owning a constant
  /// sub-reference whose beta is a number (Eq. 2.1); nullopt otherwise.
  std::optional<int64_t> numberOwner(const SubRef &s) const;
  /// DimResult::holder of mesh dimension d: the owner of the operand's
  /// number there (or its index at a loop's one iteration), where it holds
  /// every iteration the sample stands for and the lhs is not on every
  /// processor (the executor fills such copies one mesh dimension at a
  /// time, each relaying what it received).
  std::optional<int64_t> holderAlong(int d) const;
  /// DimResult::holderShares of mesh dimension d.
  std::vector<double> holderShares(int d) const;
  /// The operand's sub-reference on d where it names one element whose
  /// owner is known (a number, or a loop's index at its one iteration) and
  /// the lhs is not on every processor; nullopt else.
  std::optional<SubRef> heldNumber(int d) const;
  /// Beyond the thesis (OuterSamples.h): the share of the iterations a
  /// sample of an outer loop stands for in which `owner`, the owner of the
  /// element s names at the sample (numberOwner), owns the element they
  /// name: 1 in 2 where lu's column k changes owner with every k sampled
  /// every other. 1 where no sample of a type-2 loop s varies with stands
  /// for more (a loop the message is vectorised over sums its samples'
  /// sizes instead, MessageSum.h).
  double sampleShare(const SubRef &s, int64_t owner) const;
  /// The coordinates a single-index sub-reference whose beta is a number
  /// reaches over the loop, lowest and highest: every one where it spans
  /// them all, else for blocks (contiguous); nullopt otherwise.
  std::optional<std::pair<int64_t, int64_t>> ownersOver(const SubRef &s,
                                                        const LoopRange &lr) const;
  /// Beyond the thesis (exactOwners): where the lhs is replicated along
  /// mesh dimension d and its sub-reference on another mesh dimension varies
  /// in R's loop too, the most coordinates along d holding R's elements for
  /// one line of the lhs's copies (a coordinate along those dimensions), by
  /// walking the loop: D(I) = A(I,I), D by rows and A by blocks, needs along
  /// a row the row block's share of the diagonal, which one processor of
  /// the row holds, where les counts the holders of the whole diagonal.
  /// Nullopt where no such dimension varies in R's loop, or not counted.
  std::optional<int64_t> holdersPerLine(int d, const SubRef &R, const LoopRange &lr) const;
  /// The lowest and highest coordinates a single-index sub-reference whose
  /// beta is a number reaches over the loop in a distribution of blocks
  /// that do not wrap round (contiguous); nullopt otherwise.
  static std::optional<std::pair<int64_t, int64_t>> blockOwners(const SubRef &s,
                                                                const LoopRange &lr);

  void noteIrregular(int d);

  int64_t procsOf(int d) const { return lv_.mesh[d]; }

  /// Table 4.2/4.3's "reduction op": the rhs takes part in a reduction in
  /// loop l, one whose lhs (an array element; a scalar has none) does not
  /// vary in l. matmul's C(I,J) += A(I,K) * B(K,J) reduces over K only; a
  /// scalar, over the loops of its region (model/PrivateScalars.h).
  bool reductionOperand(int l) const {
    if (!rf_.reductionOperand)
      return false;
    if (!sf_.hasLhs)
      return sf_.reductionRegion < 0 || l >= sf_.reductionRegion;
    return !variesIn(sf_.lhs, l);
  }

  /// Beyond the thesis: a reduction into a scalar whose operand stays on one
  /// processor of a mesh dimension while the reduction runs (tred2's
  /// G = G + Z(K,J)*D(K) over K, Z's column J on one processor). That
  /// processor's partial result is the sum, but the scalar is replicated
  /// (section 2.1): it is combined over the whole dimension once per
  /// execution of the reduction's region (model/PrivateScalars.h), where
  /// the thesis's Table 4.3 (row 6) would send one element to one place.
  /// The combine is the home operand's (RhsFacts::home); the other
  /// operands are brought to it.
  bool scalarCombine() const {
    return !sf_.hasLhs && rf_.reductionOperand && rf_.home;
  }

  /// The processors a Reduction along mesh dimension d spans. The thesis
  /// takes les, those holding operands; a reduction into a scalar, which
  /// every processor holds (replicated, section 2.1), must reach them all:
  /// the whole dimension (beyond the thesis: Table 4.2's Reduction(1, les)
  /// leaves the rest without the value).
  int64_t reductionGroup(int d, double les) const {
    return sf_.hasLhs ? int64_t(les) : procsOf(d);
  }

  CommTerm term(Primitive p, int d, const char *rule, int64_t group = 1,
                double factor = 1) const {
    CommTerm t;
    t.prim = p;
    t.group = std::max<int64_t>(group, 1);
    t.factor = factor;
    t.meshDim = d;
    t.rule = rule;
    return t;
  }
  CommTerm chance(int d, const char *rule, int64_t N) const {
    CommTerm t = term(Primitive::Transfer, d, rule);
    t.probabilistic = true;
    t.probabilityN = N;
    t.factor = 1 - 1 / double(std::max<int64_t>(N, 1));
    return t;
  }
  double indicator(int64_t N) const { return N > 1 ? 1 : 0; }

  //===--------------------------------------------------------------------===//
  // Type-2 loops (section 4.4.2) and invariant pairs (section 4.4.1)
  //===--------------------------------------------------------------------===//

  void type2Pair(int d, int l);

  void constantPair(int d);

  //===--------------------------------------------------------------------===//
  // Type-1 loops (section 4.4.3)
  //===--------------------------------------------------------------------===//

  /// Returns a loop to freeze, or -1.
  int type1Loop(const std::vector<int> &pairs, int l);

  /// Table 4.4: collective communication when a subscript is unknown (and
  /// the replicated cases).
  Senders shiftSenders(int d, const SubRef &L, const SubRef &R, const LoopRange &lr,
                       int direction) const;
  void table44(int d, const SubRef &L, const SubRef &R, const LoopRange &lr);

  /// Section 3.3.1: loop l's iterations up to its source iteration and
  /// those after it, where the loop is split there for this read
  /// (RhsFacts::splitLoop); else the whole range.
  std::vector<LoopRange> sourceParts(int l, const LoopRange &lr) const;
  /// Table 4.2: one pair varying in the type-1 loop l.
  void table42(int d, int l, const SubRef &L, const SubRef &R,
               const LoopRange &lr);
  /// The operand varies in loop l in a dimension on no mesh dimension
  /// (fig5_2's B(J,3*I) with B's columns on every processor).
  bool variesOffMesh(int l) const;
  /// Beyond the thesis (exactOwners): the tiled loop at position pos varies
  /// the operand in a dimension on no mesh dimension only, so each tile's
  /// message holds a tile's iterations of it (fig5_2's B(J,3*I) gathered
  /// to the owners of A's columns J, a J-tile at a time).
  bool tiledOffMesh(int pos) const;
  /// Beyond the thesis (exactOwners): where a private scalar's runners --
  /// its stand-in lhs and StatementFacts::alsoRunBy -- lie on different
  /// coordinates of mesh dimension d, those coordinates, ascending (eflux's
  /// QSP, read by FS(I,J,N) for N = 1..4, planes blocked over 4: all 4);
  /// empty where they agree or an owner is unknown (the stand-in's owners
  /// run it, as in the thesis).
  std::vector<int64_t> runnersOwners(int d) const;
  /// The copies of a replicated lhs along d that its operand must reach:
  /// every processor of d, or a private scalar's runners' owners.
  int64_t copiesOf(int d) const {
    const auto &r = runners_[size_t(d)];
    return r.empty() ? procsOf(d) : int64_t(r.size());
  }
  /// A root at coordinate `root` of d lies outside those copies: its
  /// multicast's group has one member more.
  bool outsideCopies(int d, int64_t root) const;
  /// Every mesh dimension but d holds the lhs and operand alike (the same
  /// single subscripts, or a replicated operand), or fills a replicated
  /// lhs from the one holder of the operand's element (constantPair's
  /// multicast, from the processors that send along d too,
  /// DimResult::holder): the elements that cross d are what moves along it.
  bool stillBesides(int d) const;
  /// Theorem 4.1, and beyond the thesis (exactOwners) whole rounds of a
  /// wrapping distribution apart (SubReference.h): L's and R's elements
  /// have one owner at every index.
  bool synchronous(const SubRef &L, const SubRef &R) const;

  /// D-Scatter(mlis/k, k) for k > 1, (N > 1) Transfer(mlis) for k = 1,
  /// D-Gather(mlis, 1/k) for k < 1; the size lands on dimension d.
  void scatterOrGather(int d, const SyncRatio &k, const SubRef &fvL,
                       const SubRef &fvR, const LoopRange &lr,
                       double scatterIndicator, double gatherIndicator,
                       const char *ruleScatter, const char *ruleGather,
                       double contention = 1);

  /// None of the tests holds: the speed-ratio (Eq. 4.3) picks D-Scatter or
  /// D-Gather, doubled for the contention of overlapping groups.
  void speedRatioTerm(int d, const SubRef &L, const SubRef &R,
                      const LoopRange &lr, double scatterInd, double gatherInd);

  /// Table 4.3, generalised: the faster-varying lhs sub-reference against
  /// the faster-varying rhs one.
  void table43(const std::vector<int> &pairs,
               const std::vector<std::pair<SubRef, SubRef>> &at, int l,
               const LoopRange &lr);

  //===--------------------------------------------------------------------===//
  // Tiling (section 4.4.3, "Different/multiple loop indices")
  //===--------------------------------------------------------------------===//

  int applyTiling(const std::vector<TileRequest> &tiles);

  /// Pairs varying in a tiled loop, k-synchronous with its driver: constant
  /// within a tile, a term of their own unless strictly synchronous. False
  /// when one is not k-synchronous (the loop is frozen instead).
  bool absorbed(const std::vector<int> &pairs, int l);

  //===--------------------------------------------------------------------===//
  // Dimensions on no mesh dimension
  //===--------------------------------------------------------------------===//

  void localSize(const ArrayDist &rhsDist);
  /// ReferenceTerms::sourceShareIn and rootTurns.
  void ownerTurns();
  /// DimResult::parts of the rhs sub-reference R, spread over its mesh
  /// dimension and varying in its loop; empty where not counted.
  std::vector<double> partsOf(SubRef R) const;
  /// ReferenceTerms::joint and jointMost, counted over the iterations of
  /// the first loop two mesh dimensions' operand sub-references share.
  void jointParts();
  /// ReferenceTerms::selfServed.
  void selfServedParts();

  //===--------------------------------------------------------------------===//
  // Partial results to their owners (PartialsExchange.cpp)
  //===--------------------------------------------------------------------===//

  /// A reduction into array elements whose partials reach several owners:
  /// the exchange replaces the per-dimension terms.
  void partialsExchange();
  /// The partial results each processor sends when the reduction's region
  /// ends, counted over the region's instances as the executor forms them
  /// (PartialsExchange.cpp); false where they cannot be counted.
  bool partialsCounted();
  /// A reduction whose lhs and home are replicated along the same mesh
  /// dimensions: (R - 1) Transfer(W) from the lhs's home copy to the
  /// others; false (nothing changed) where that is not the case.
  bool copiesFilled();
  /// Loop l's range at its widest over the loops around it.
  LoopRange widest(int l) const;
  /// Drops the per-dimension terms for an exchange's: messages of
  /// `messageSize` elements, no tiles, no boundary.
  void clearTerms(double messageSize);
  /// Loop l's iterations one processor of the lhs (or the home) runs.
  LoopRange sideRange(bool lhs, int l) const;
  /// The coordinates s reaches over those of one processor of the other side.
  double reach(const SubRef &s, bool otherIsLhs) const;

  /// Eq. 4.2, or with exact owners the count from the owner function where
  /// beta is a number (iterationsPerProcessorExact).
  double mlis(const SubRef &s, const LoopRange &l) const;

  const StatementFacts &sf_;
  const RhsFacts &rf_;
  const LayoutView &lv_;
  TermOptions opts_;
  int D_, m_;
  std::vector<std::pair<SubRef, SubRef>> base_;
  std::vector<int> level_;
  std::vector<std::vector<int64_t>> runners_; // per mesh dimension: runnersOwners, or empty
  std::vector<int> tiled_; // per loop: index into drivers_, or -1
  std::vector<SubRef> drivers_;
  std::vector<std::pair<SubRef, SubRef>> at_;
};

} // namespace dlayout::cost::detail
