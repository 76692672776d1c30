//===- costmodels/Computation.h - The computational estimator ---*- C++ -*-===//
//
// Thesis chapter 3. The time of all instances of a statement S nested in
// loops L_1..L_m, on the processor with the most work, communication
// excluded:
//
//   T(S) = rho(S) * (prod_l C_l(S)) * t(S)                        (Eq. 3.1)
//
// rho(S) is the user's, else (beyond the thesis, with exactOwners) the
// fraction of S's iterations at which its guards on loop indices hold
// (GuardFraction.h).
// t(S) is one instance's time from its operation counts and the machine.
// C_l(S) is found from the innermost loop outwards (section 3.2.2):
//   - S sequential w.r.t. L_l (Fig. 3.3), or no lhs subscript with
//     variation-level l: C_l = n_l; beyond the thesis, a loop sequential
//     only through arrays that no lhs subscript's mesh dimension distributes
//     is divided over that dimension (StatementFacts::sequentialThrough),
//     and so is one sequential only through dependences between the
//     instances of one owner (StatementFacts::ownerLocal);
//   - else, for each lhs subscript g_k varying in L_l, on N_k processors with
//     block b_k:
//       single-index alpha*j + beta: Eq. 3.2 (floor in the first product,
//         the reading that reproduces section 5.2.2's numbers),
//       multiple-index: the outer loops whose indices it uses are frozen
//         (sequential), then Eq. 3.2 on the innermost index; beyond the
//         thesis (exactOwners), where those loops have constant bounds, the
//         iterations of all of them together on the busiest owner, counted
//         (a grid row per processor divides the outer loop),
//       unknown: C_l = ceil(n_l / max(N_k / imb, 1)),
//       beyond the thesis, a loop over row-pointer segments (Loop::Segments,
//         DO K = R(I), R(I+1) - 1) whose lhs runs S and does not vary with
//         the outer loop: the busiest owner's share of the segments' whole
//         run, per outer iteration (segmentShare, Computation.cpp),
//     and C_l is the minimum over those subscripts (Fig. 3.5).
// Triangular bounds use the mean of the outer index (ProgramAnalysis, Fig.
// 3.2); beyond the thesis (exactOwners), where the loops the bounds vary
// with divide nothing, the nest is counted at each of their iterations and
// the busiest processor's counts summed, each range then exact (a
// multiple-index subscript k + i with k fixed is single-index in i;
// OuterSamples.h). At most 64 evenly spaced samples are counted, several
// such loops sharing them: tred2's estimates at n = 512 are those of 256,
// and advise runs twice as fast.
// Section 3.3, when S's only flow dependence is on itself and L_l is
// sequential: a OneToMany dependence splits the loop (C_l = C_l^i + 1 +
// C_l^f); a constant distance d overlaps min(d-1, floor(b/(|alpha| s))) *
// (ceil(|alpha| r / b) - 1) iterations, which dlayout subtracts from n_l (the
// thesis leaves how O_l combines with C_l open) but never below Eq. 3.2.
// Beyond the thesis, where L_l's recurrence is pipelined across a sequential
// L_{l-1} (section 4.5.3's conditions, lhs blocked along L_l), the two loops
// together take n_l + (n_{l-1} - 1) * Eq. 3.2's iterations: the chain at the
// first outer iteration, a block of it at each later one (fig4_20's A(I) =
// 0.5 A(I-1) + 1 inside DO J = 2, 32 over I = 2, 32 on 4 processors: 271
// iterations on the critical path, not 961).
//
// A reduction into a scalar has no lhs subscript; with parallelReductions
// (the default) its loops are partitioned like its distributed operands (the
// partial results meet in the Reduction that the communication estimate
// charges), else it runs sequentially as Eq. 3.1 literally reads.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/LayoutView.h"
#include "model/Machine.h"

namespace dlayout::cost {

struct ComputationOptions {
  double imbalance = 1.5; // imb of section 3.2.2 (the thesis gives no value)
  bool overlap = true;    // section 3.3
  bool parallelReductions = true;
  /// Beyond Eq. 3.2: a loop's iterations on the busiest processor counted
  /// from the owner function where the subscript is alpha * j + a number
  /// (iterationsPerProcessorExact, SubReference.h).
  bool exactOwners = true;
  /// Beyond section 3.3: a recurrence's loop whose boundary-Transfers are
  /// pipelined (section 4.5.3) is pipelined in its computation too: n_l
  /// iterations at the first iteration of the sequential loop around it, a
  /// block's at each later one (pipelinedIterations, Computation.cpp).
  bool pipelining = true;
};

struct ComputationCost {
  double seconds = 0;    // T(S)
  double instance = 0;   // t(S)
  double iterations = 0; // rho(S) * prod C_l(S)
  /// Beyond the thesis (exactOwners): rho(S)'s share of S's instances on
  /// each processor of the mesh dimensions `spreadDims` (coordinates
  /// row-major, in the order of spreadDims), where they are counted
  /// processor by processor: each distributed dimension of the reference
  /// that divides them subscripted by a single index of its own loop, every
  /// other loop whole, each outer iteration's (perOuterIteration) so counted
  /// where inner bounds vary. Its largest is at most `iterations` (less
  /// where the busiest processor moves with the outer iterations). Empty
  /// where not counted so, and for a statement BodyBusiest.h, its only
  /// reader, leaves as it is (sharesBusiest).
  std::vector<int> spreadDims;
  std::vector<double> spread;
};

/// t(S): one execution of a statement with these operation counts.
double instanceTime(const OpCounts &ops, const Machine &m);

ComputationCost statementComputation(const StatementFacts &sf,
                                     const LayoutView &lv, const Machine &m,
                                     const ComputationOptions &opts = {});

} // namespace dlayout::cost
