//===- costmodels/CommTerms.h - Communication terms per mesh dim -*- C++
//-*-===//
//
// Section 4.4 of the thesis for one rhs reference B(h) of a statement
// A(g) = F(..., B(h), ...) under a layout: pair the lhs and rhs
// sub-references of every mesh dimension (a dimension an array does not
// occupy is a "missing", constant, sub-reference), then walk the loops from
// the innermost outwards and, for the pairs that vary in each loop, obtain
// the term(s) of that mesh dimension:
//   - type-2 loop (section 4.4.2): per iteration, Transfer(1) with
//     probability 1 - 1/N, nothing when strictly synchronous or identical,
//     or a boundary-Transfer bd * (les - 1) * Transfer(1) for all iterations;
//   - type-1 loop, one varying pair: Table 4.2; several: Table 4.3,
//     generalised by comparing the faster-varying lhs and rhs
//     sub-references; an unknown subscript: Table 4.4; a cyclic dimension
//     whose block is not a multiple of |alpha| s: repeated Transfers
//     (Fig. 5.11);
//   - subscripts in different loops, or multiple-index ones: the outer
//     type-1 loop is tiled at the transition points of the faster-varying
//     sub-reference (data times mlis, term times les), or frozen (made
//     type-2) when the pairs varying in it are not k-synchronous with it;
//   - pairs that vary in no loop: (1 - 1/N) Transfer(1) unless identical.
// Loops re-designated type-2 restart the walk. The result is one data size
// per mesh dimension plus the terms; Composition.h turns them into
// messages.
//
// Beyond the thesis: exact owners (TermOptions); replicated arrays (a replicated rhs needs nothing in
// that mesh dimension; a replicated lhs needs every copy filled:
// multicasts), and the array dimensions that lie on no mesh dimension, whose
// traversal in the combined loops scales the messages ("local size").
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/Primitives.h"
#include "costmodels/SubReference.h"

#include <optional>
#include <vector>

namespace dlayout::cost {

/// One primitive in one mesh dimension.
struct CommTerm {
  Primitive prim = Primitive::Transfer;
  int64_t group = 1;          // p
  double factor = 1;          // (N > 1) indicators, x2 for overlapping groups
  bool probabilistic = false; // (1 - 1/N) Transfer: factor holds 1 - 1/N
  int64_t probabilityN = 1;
  /// An invariant pair whose owners the layout decides (TermOptions::
  /// exactOwners): a Transfer that certainly happens (factor 1).
  bool certain = false;
  double count = 1;              // Transfers repeated: bd (les - 1), or n_l
  bool boundaryTransfer = false; // type-2 case 2, covers its loop
  /// Who sends it along this mesh dimension, where known (exactOwners): an
  /// element's owner, for a term whose source is one element; a
  /// boundary-Transfer's chain, all but the last block (as a boundary
  /// Shift's senders); a Gather's members, the operand's owners over the
  /// loop; the les holders that fill a replicated lhs, each with its part.
  /// Everyone else.
  Senders senders;
  /// The share of its repetitions one sender sends: a boundary-Transfer's
  /// les - 1 processors (les <= N) each send bd of its bd (les - 1),
  /// 1 / (les - 1); each of the les holders filling a replicated lhs one
  /// of its les multicasts, 1 / les; a known source's, where the sample of
  /// the outer loops it was found at stands for iterations whose element
  /// another processor owns (TermWalk::sampleShare); 1 else.
  double share = 1;
  /// A multicast filling a replicated lhs from the holders along this
  /// dimension: where the holders along other dimensions exchange their
  /// parts (a ManyToManyMulticast), they do so first and this carries what
  /// they exchanged (the executor's gatherByDimension).
  bool afterExchange = false;
  /// A multicast filling the copies of a replicated lhs along this
  /// dimension from the holders of the operand (either form).
  bool fill = false;
  /// Its holders' parts along this dimension, each coordinate's of the
  /// busiest's (Senders::parts): an edge block holds less of the operand
  /// it multicasts; empty: a full message from every sender.
  std::vector<double> ownParts;
  /// The part of its dimension's data size (DimResult::size) its message
  /// carries, where the dimension's other terms carry the whole: an exact
  /// exchange of the elements that cross (TermWalk::table42) beside the
  /// multicast of all of them along another dimension.
  double sizeShare = 1;
  int loop = -1; // the loop of a boundary-Transfer / per-iteration term
  int meshDim = -1;
  int direction = 0; // a Shift of the local data: +1 towards higher coordinates
  const char *rule = "";
};

struct DimResult {
  double size = 1; // data size along this mesh dimension
  /// Beyond the thesis (exactOwners): the loop the rhs sub-reference varies in where it
  /// is a single index spread over this mesh dimension (-1 else), and the
  /// iterations of it whose elements lie in one processor's block (mlis).
  /// Dimensions varying in one loop are not independent: A(I,I) on a 2-D
  /// mesh holds a block's share of the diagonal, no more than the fewest
  /// of these, not its rows times its columns (Composition.cpp).
  int loop = -1;
  double iterations = 1;
  /// Beyond the thesis (exactOwners), where `loop` is vectorised and the
  /// sub-reference's beta a number: per coordinate along this dimension,
  /// the iterations whose elements it holds over `iterations`
  /// (Senders::parts); where `loop` is a type-2 loop at one sample, the
  /// share of the iterations the sample stands for whose element it holds;
  /// empty else.
  std::vector<double> parts;
  bool boundary = false;
  double shift = 0; // boundary: bd, the edge that crosses
  int shiftDirection = 0;
  Senders shiftSenders;   // boundary: who sends the Shift
  /// boundary, counted with the owner function: per coordinate, the part
  /// of the edge (shift) it sends (Senders::parts); empty: every sender
  /// sends the whole edge (or nothing).
  std::vector<double> shiftParts;
  /// Beyond the thesis (exactOwners): the one coordinate along this mesh
  /// dimension holding the operand, where its sub-reference is a number
  /// whose owner is known (at a sample standing for iterations of that
  /// owner alone) and the lhs is not on every processor
  /// (TermWalk::holderAlong): the terms along the other dimensions leave
  /// from there, the executor sending each element from its holder straight
  /// to its lhs's owners (Composition.cpp).
  std::optional<int64_t> holder;
  /// Where no one coordinate holds it for all the iterations the sample
  /// stands for: per coordinate, the share of them in which it holds the
  /// element (TermWalk::sampleShare; tred2's row L at a sample of II
  /// standing for L on two row blocks); its terms along the other
  /// dimensions leave from each in that share. Empty else.
  std::vector<double> holderShares;
  /// Beyond the thesis (exactOwners): the processors along this mesh
  /// dimension that the tiles of an lhs sub-reference reach one after
  /// another (section 4.4.3, "sr2 on the lhs": the term times les). Their
  /// Gathers run at once (Composition.cpp); 1 where no such tile.
  double receivers = 1;
  /// The coordinates of those receivers, first to last, where one tile
  /// request set them and its lhs is blocked (ownersOver).
  std::optional<std::pair<int64_t, int64_t>> receiverOwners;
  std::vector<CommTerm> terms;
};

/// The boundary-Transfer facts pipelining detection needs (section 4.5.3).
struct BoundaryFacts {
  int loop = -1;    // L_k
  double delta = 0; // bd(sr1, sr2, L)
  double eta = 0;   // les(sr2, L)
  int64_t alpha2 = 1;
  int64_t b2 = 1;
  bool blocked = false;     // the rhs dimension is distributed in blocks
  bool onlyVarying = false; // sr2 is the only rhs sub-reference varying in L_k
};

struct ReferenceTerms {
  std::vector<DimResult> dims; // per mesh dimension
  double localSize = 1;        // data along dimensions on no mesh dimension
  std::vector<double> localExtent; // per array dimension: its share of localSize (1 on the mesh)
  /// Beyond the thesis: the partial results a Reduction into an array
  /// element carries at once -- one per element of the lhs the processor
  /// forms, over the loops vectorised in which the lhs varies and the
  /// operand does not (matmul's C(I,J) over J for A(I,K)); 1 for a scalar.
  double partials = 1;
  double tiles = 1;            // repetitions from tiling
  /// Beyond the thesis (exactOwners): where the tiles of the operand come
  /// from S processors one after another (section 4.4.3, sr2 of a type-1
  /// loop outside the pair's, on the rhs), the share of the tiles one of
  /// them sends, ceil(T / S) / T; 1 where no such tile (Senders::share).
  double sourceShare = 1;
  /// The mesh dimension those S processors lie along, the tiled loop's
  /// position (-1 where no such tile) and its tiles.
  int sourceDim = -1, sourceLoop = -1;
  double sourceTiles = 1;
  /// Beyond the thesis (exactOwners): where the lhs also moves with that
  /// loop along other mesh dimensions, the share of the tiles one line of
  /// processors along them takes part in (the most over the lines, the
  /// loop walked: TermWalk::holdersPerLine); the lines' tiles run at once,
  /// so the terms along sourceDim take that share of the tiles' time. 1
  /// where every line takes part in every tile.
  double lineShare = 1;
  /// Beyond the thesis (exactOwners), per loop position: where the
  /// operand's sub-reference varies on a mesh dimension in a type-2 loop
  /// (dgefa's column K multicast at each K), its owner moves with the
  /// iterations; the share of them in which one processor holds it,
  /// mlis / n (1 where it stays).
  std::vector<double> sourceShareIn;
  /// Beyond the thesis (exactOwners), per mesh dimension: where the lhs's
  /// sub-reference on it varies in a type-2 loop (fig4_20's C(I,J) at each
  /// J, with A(I) gathered to column J's owner), the root of a collective
  /// towards the lhs moves with the iterations; per coordinate, the share
  /// of them in which it is not the root, and so sends. Empty where the
  /// root stays or is not counted.
  std::vector<std::vector<double>> rootTurns;
  /// Beyond the thesis (exactOwners): where the operand's sub-references
  /// on several mesh dimensions vary in one loop (DimResult::loop), what a
  /// processor holds of it is joint, not a product of one part per
  /// dimension: A(J,J)'s diagonal lies on a 2-D mesh's diagonal blocks
  /// alone. Per combination of their coordinates, the iterations whose
  /// elements it holds over the busiest's (Senders::Joint) -- where the
  /// loop is a type-2 loop at one sample, its share of the iterations the
  /// sample stands for -- and `jointMost`, the busiest's iterations (0 at
  /// a sample, or not counted), the loop being `jointLoop`: Composition.cpp's
  /// data size over those dimensions and its terms' senders. `joint` is
  /// null where not counted or the same everywhere.
  std::shared_ptr<const Senders::Joint> joint;
  double jointMost = 0;
  int jointLoop = -1;
  /// Beyond the thesis (exactOwners): where the operand's owners along two
  /// mesh dimensions are the lhs's swapped (tred2's Z(J,I) = A(J,I), A by
  /// rows on the first and Z on the second), a processor whose coordinates
  /// along them are equal holds just the elements its own lhs elements
  /// need, and sends none: per combination of the two coordinates, 0 on
  /// the diagonal and 1 off it (Senders::Joint), Composition.cpp's
  /// terms' senders. Null where the owners are not so swapped.
  std::shared_ptr<const Senders::Joint> selfServed;
  std::vector<char> type2;     // final: loops that contain the communication
  BoundaryFacts boundary;
  /// An indirect subscript (or an indirect distribution) moves data in a
  /// type-1 loop: the inspector/executor alternative applies.
  bool irregular = false;
  int irregularMeshDim = -1;
};

/// Beyond the thesis. The thesis keeps its estimates symbolic in the mesh,
/// so it takes two invariant elements as co-located with probability 1/N_k
/// and counts Eq. 4.4's boundary data in blocks per processor. With a
/// concrete layout the owner function (Eq. 2.1) answers both exactly where
/// every position is a number (block, cyclic, block-cyclic; SubReference.h:
/// ownerCoordinate, boundaryDataExact); that is what a program run under the
/// layout moves (validate/). Off: the thesis's formulas.
struct TermOptions {
  bool exactOwners = true;
};

ReferenceTerms referenceTerms(const StatementFacts &sf, const RhsFacts &rf,
                              const LayoutView &lv,
                              const TermOptions &opts = {});

} // namespace dlayout::cost
