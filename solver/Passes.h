//===- solver/Passes.h - block-cyclic, block-size, num-procs, replication -*- C++ -*-===//
//
// The passes after align (thesis sections 5.2-5.4), each detector -> driver
// -> solver, on a Plan whose alignment is decided:
//   parallelClasses  - setup's "dimensions that exhibit parallelism": an lhs
//                      single-index subscript in a loop the statement is
//                      parallel in (Fig. 3.3); a class has parallelism when
//                      one of its dimensions has.
//   crSets           - CR sets by union-find: A assigned from B or B from A.
//   blockCyclicPass  - per statement, the estimator's computation and
//                      communication terms with the group (mesh dimension x
//                      CR set) blocked and cyclic under the default mesh; a
//                      term cheaper cyclic is a cyclic constraint of quality
//                      t_blocked - t_cyclic (load balance), one cheaper blocked
//                      a blocked constraint (boundary communication); the
//                      summed qualities decide, ties go to blocked (5.2.3).
//   (blockSizePass   - section 5.3, the block-size constraint graph: in
//                      BlockSizeGraph.h.)
//   numProcsPass     - classes without parallelism collapse; every ordered
//                      factorisation of P over the kept classes (at most
//                      three) is estimated, the fastest wins (5.4); a
//                      processor count P' < P estimated faster is reported,
//                      and its layout offered on the P processors, the
//                      blocks kept and the others idle ("fewer-processors").
//   replicationPass  - read-only (or tiny) arrays are replicated when that
//                      is estimated faster: a choice, not an assumption.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "solver/Plan.h"

#include <vector>

namespace dlayout::solver {

/// Per array, per dimension: whether it exhibits parallelism.
std::vector<std::vector<bool>> dimensionParallelism(const SolverContext &ctx);
std::vector<int> parallelClasses(const SolverContext &ctx, const Plan &plan);
/// CR set id per array.
std::vector<int> crSets(const SolverContext &ctx);
/// The default mesh of the early passes over `plan.kept`.
void setDefaultMesh(const SolverContext &ctx, Plan &plan);

struct BlockCyclicDecision {
  int cls = -1, crSet = -1;
  double blockedQuality = 0, cyclicQuality = 0;
  bool cyclic = false;
};

Result<std::vector<BlockCyclicDecision>> blockCyclicPass(SolverContext &ctx, Plan &plan);
/// Sets plan.mesh; returns every shape's layout with its seconds.
Result<std::vector<RankedLayout>> numProcsPass(SolverContext &ctx, Plan &plan);
Status replicationPass(SolverContext &ctx, Plan &plan);
/// Arrays the replication choice is offered for.
std::vector<bool> replicationCandidates(const SolverContext &ctx);

} // namespace dlayout::solver
