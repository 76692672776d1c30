//===- validate/PlacementPlan.h - Where the estimator communicates -*- C++ -*-===//
//
// placementPlan(program, options) gives, per statement and reference, the
// level at which the estimator places the reference's communication
// (costmodels/ProgramAnalysis.h: Fig. 4.4 of the thesis, 0 = outside every
// loop, k = inside the level-k loop), as the "dlayout-plan/1" document the
// executor reads:
//   {"schema": "dlayout-plan/1", "levels": {"S4": [null, 1, 1]},
//    "index_levels": {"S4": [[null], [0], [null, null]]},
//    "paths": {"S4": [0, 1, 0]}, "orders": {"S5": [2, 1]}}
// levels: null for the written reference. index_levels: per reference and
// subscript, the level of an indirect subscript's index reference (edge's
// NODE(I,1) in YOLD(NODE(I,1))), null elsewhere. paths: each statement's place in
// the distributed loop nest the estimator assumes (costmodels/
// LoopDistribution.h), which the executor runs. orders: where the estimator
// prices a statement's loops in another order than written (thesis section
// 4.3.1, Fig. 4.8: the doall loops outside its innermost recurrence brought
// inside it, Fig. 4.5 -> 4.7), its loops' levels as written in that order;
// the executor interchanges them so (validate/executor/Interchange.h). The
// levels count the loops as written. The executor moves a
// placement inwards only where it would still read stale values
// (validate/executor/ExecProgram.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/ProgramAnalysis.h"
#include "model/Program.h"
#include "model/Result.h"

#include <nlohmann/json.hpp>

namespace dlayout::validate {

Result<nlohmann::json> placementPlan(const Program &p,
                                     const cost::AnalysisOptions &opts = {});

} // namespace dlayout::validate
