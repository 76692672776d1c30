//===- costmodels/Communication.h - The communication estimator -*- C++ -*-===//
//
// Thesis chapter 4 for one statement: for each rhs array reference, its terms
// (CommTerms.h) composed into primitives (Composition.h), each multiplied by
// its number of repetitions (section 4.5.3):
//   rho(S) * prod(n_l over the type-2 loops) * tiles,
// a boundary-Transfer without its own loop's count, and, when pipelining is
// detected (a boundary-Transfer in type-2 loop L_k inside type-2 L_{k-1}, a
// blocked rhs dimension, its sub-reference the only one varying in L_k, and
// every dependence on the array into S from inside L_{k-1} with "=" or a known
// distance at level k):
//   boundary term   delta (eta - 1) T + max(delta, floor(delta (bdist+1)
//                   |alpha2| s_k / b2)) (n_{k-1} - 1) T
//   the other terms n_k T + max(floor(b2 / (|alpha2| s_k)), bdist + 1)
//                   (n_{k-1} - 1) T
// (the thesis prints the second as (n_k + max(...)) (n_{k-1} - 1) T; its own
// explanation - the first iteration of L_{k-1} sees n_k T, each later one
// max(...) T - gives the form used here).
//
// Beyond the thesis:
//   - on a half-duplex machine (Shift = 2 Transfers), a pipeline whose range
//     crosses three blocks or more (eta >= 3) costs twice the thesis's
//     max(...) T per later iteration of L_{k-1}: its inner processors
//     receive an edge and then send theirs on, one after the other (SimGrid:
//     fig4_20's recurrence on 4 to 16 processors takes twice the thesis's
//     figure; on 2 it takes the thesis's, and so it does on any number
//     where a processor sends and receives at once);
//   - inspector/executor for irregular references (Irregular.h), instead of
//     or against the collective estimate (IrregularStrategy);
//   - ghost-region exchange: references to one array in one statement whose
//     only communication is a boundary Shift in the same mesh dimension and
//     direction share one exchange when the layout gives that dimension an
//     overlap at least as wide (DINO / HPF shadow widths);
//   - message coalescing (Fortran D): a reference identical to an earlier
//     one of the statement (same array and subscripts, same placement: the
//     MAX/MIN a front end expands into selects reads each operand twice) is
//     fetched with it, once; and with `coalescing` the widest boundary Shift
//     per array, mesh dimension, direction and placement carries the
//     narrower ones whatever the overlap (their elements are a subset of its
//     own: one message per neighbour, as the validate executor sends); on
//     a mesh dimension of two processors the array does not wrap round,
//     the two directions' Shifts are one exchange (each processor has one
//     neighbour), costed as one Shift of the wider; over two processors
//     the array is cyclic on, the two directions' Shifts of the local data
//     reach the other processor, one message with the union of their
//     elements; and a reference whose
//     Shifts on several mesh dimensions are each matched by a Shift at least
//     as wide of another reference to the array, or on a blocked dimension
//     by a Shift of the local data towards the same neighbour, is carried
//     by its messages (towards the other neighbour of two, the exchange then
//     runs both ways, each side sending its own edge);
//   - message coalescing over sections: references to one array whose
//     subscripts differ by a constant in one dimension (P(I+1,J) beside
//     P(I,J)), placed alike and moving between the same processors (the
//     same primitives, not from two different known senders, boundary
//     Shifts only where the dimension they differ in is not the Shift's),
//     are one message carrying the union of their sections: (hi - lo) /
//     |alpha| more elements along that dimension, no more than a block per
//     processor along a blocked mesh dimension; and where they differ
//     along a blocked dimension by no more than a block and one has a
//     boundary Shift there that the other lacks (X(I-1,J,1) beside
//     X(I,J,1)), their other messages are one, the larger, the Shift
//     bringing the edge alone (Coalesced::edgeOnly);
//   - message coalescing across statements: Shifts, and neighbouring
//     sections read by statements run on the same processors
//     (AcrossStatements.h); a fetch another statement's covers adds nothing
//     (Subsumption.h);
//   - tiled multicasts whose roots are every member of their group in
//     equal turns, the group fixed, are one all-gather (ManyToManyMulticast,
//     CommCost::allGather); tiles whose lhs moves along other mesh
//     dimensions too run at once in the lines along them, each line its
//     own (CommCost::lineShare: Fig. 4.16's diagonal on a 2-D mesh);
//   - exact owners (CommTerms.h, TermOptions); with them, a reference whose
//     communication is repeated in each loop that inner bounds vary with
//     (lu's column k multicast at every k of its triangular update) is
//     costed at each of their iterations (OuterSamples.h; at most
//     kCommSamples evenly spaced ones), its terms summed
//     per primitive, group and sender: the group a shrinking range reaches,
//     and the owner that sends, change with k, and a multicast's root whose
//     element lies outside the receivers' range is one more member; a
//     fetch vectorised over such a loop (tred2's Z(K,J) in J = 1, L /
//     K = J+1, L, once per I) is counted as the executor forms it
//     (CountedFetch.h), or else is the sum of that loop's samples, per
//     coordinate (MessageSum.h); one that is tiled (fig2_2's V(MP,MI), its
//     root moving with MP), or whose driver no subscript reads (V(MQ,MI)
//     under MQ = 1, MP: overlapping sections, the message their union), is
//     counted so or else priced by Fig. 3.2's means.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/Composition.h"
#include "costmodels/Primitives.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dlayout {

enum class IrregularStrategy {
  Collective,        // the thesis: collective communication (Table 4.4)
  InspectorExecutor, // Kali / PARTI run-time resolution
  Cheapest           // whichever the model finds cheaper
};

namespace cost {

struct CommunicationOptions {
  bool pipelining = true;
  /// Beyond section 4.5.3, for a half-duplex machine: a pipeline's inner
  /// processors receive, then send, a Transfer each per step
  /// (repetitions(), Communication.cpp).
  bool relayedPipeline = true;
  IrregularStrategy irregular = IrregularStrategy::Collective;
  bool ghostExchange = true;
  bool coalescing = true; // message coalescing (above)
  TermOptions terms;
};

/// One primitive (or inspector/executor phase) charged to a statement.
/// The references a section union joins (Coalescing.h): `count` of them,
/// differing in dimension `dim`, their constants from lo to hi there.
struct SectionUnion {
  int dim = -1;
  int64_t lo = 0, hi = 0;
  int count = 1;
  bool operator==(const SectionUnion &) const = default;
};

struct CommCost {
  const char *primitive = "";
  Primitive prim = Primitive::Transfer; // what `primitive` names, for a term of Table 6.1
  int rhs = -1;     // index into StatementFacts::rhs
  double words = 0; // message size in elements
  double bytes = 0;
  int64_t group = 1;
  double repetitions = 0; // expected executions (probabilities included)
  double seconds = 0;
  int placement = -1; // innermost loop containing it; -1: outside all
  const char *rule = "";
  bool pipelined = false; // section 4.5.3 applied
  int sharedBy = 1;       // ghost exchange / coalescing: references it serves
  double tiles = 1;       // tiling repetitions included
  int64_t span = 1;       // processors along the mesh dimension it runs in
  int shiftDim = -1;      // a Shift's mesh dimension and direction (ComposedTerm)
  int direction = 0;
  int meshDim = -1;       // the mesh dimension whose term it is; -1: several (ComposedTerm)
  /// OneToManyMulticasts of tiles whose roots are the members of their
  /// group in equal turns: one all-gather (messageSeconds).
  bool allGather = false;
  /// Tiles spread over lines of processors that run theirs at once: the
  /// share of the tiles' time one line takes (ReferenceTerms::lineShare).
  double lineShare = 1;
  Senders senders;
  /// A Shift under coalescing: the references whose elements its messages
  /// carry (its own among them).
  std::vector<const RhsFacts *> carried;
  /// The section union its reference heads in its statement (dim -1: none).
  SectionUnion section;
  /// Other statements' neighbouring sections its message carries
  /// (joinSectionsAcrossStatements).
  int sections = 0;
  /// Counted as the executor forms it (CountedFetch.h); `joined` the other
  /// statements' reads of the array counted with it (joinCountedFetches).
  bool counted = false;
  int joined = 0;

  /// The rule with its qualifiers, for the breakdown.
  std::string describe() const;
};

/// Appends statement sf's communication to `out`, by rhs index; where
/// `array` is given (a ProgramFacts index), that of its references to that
/// array alone, which is the same as theirs among all (the coalescing rules
/// join references to one array).
void statementCommunication(const StatementFacts &sf, const LayoutView &lv,
                            const ProgramFacts &pf, const PrimitiveCosts &costs,
                            const CommunicationOptions &opts,
                            std::vector<CommCost> &out, int array = -1);

/// One read: a statement and the index of its rhs reference.
struct StatementRead {
  const StatementFacts *sf = nullptr;
  int rhs = -1;
};

/// The fetch of what `reads` read (references to one array, fetched before
/// the same loop copy: the executor's one action), counted as it runs
/// (CountedFetch.h) at each sample of the loops it is repeated in, charged
/// to the first read; nullopt where it is not counted: a read not costed
/// per outer iteration (exactOwners), the reads at different placements,
/// probabilities or samples, or one the count refuses.
std::optional<std::vector<CommCost>> jointFetch(std::span<const StatementRead> reads,
                                                const LayoutView &lv, const ProgramFacts &pf,
                                                const PrimitiveCosts &costs,
                                                const CommunicationOptions &opts);

/// The seconds of one message of c, a term of statement sf (Table 6.1's
/// primitive cost, with the exact-owner cases of Communication.cpp).
double messageSeconds(const CommCost &c, const StatementFacts &sf, const PrimitiveCosts &costs,
                      const CommunicationOptions &opts);

/// One statement's communication, as statementCommunication gives it.
struct StatementComm {
  const StatementFacts *sf = nullptr;
  std::vector<CommCost> costs;
};


} // namespace cost
} // namespace dlayout
