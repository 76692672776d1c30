//===- costmodels/Irregular.h - Inspector/executor cost ---------*- C++ -*-===//
//
// Beyond the thesis (which always assumes collective communication for
// irregular references, section 4.3.2 and Table 4.4): the run-time
// alternative of Kali and PARTI for a reference whose owners are only known
// at run time (an indirect subscript x(col(k)), or an indirect
// distribution). Per processor, with R references in the combined loops and
// N processors along the mesh dimension the data is spread over:
//   inspector  a locality pass over its R references (a load, a compare and
//              an add each), a global combine of the request counts in
//              ceil(log2 P) steps, and the request lists sent to the owners;
//              run once, and again only per iteration of the loops that
//              rewrite the index array (the saved schedule is reused);
//   executor   the gathers: R (1 - 1/N) nonlocal elements received from up to
//              N - 1 owners, each time the communication runs.
// (Koelbel, Mehrotra, Van Rosendale 1990, section 3.3; Saltz et al., PARTI;
// shared/docs/digest-kali-parti-dino-zima.md.)
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/CommTerms.h"

namespace dlayout::cost {

struct InspectorExecutor {
  double inspector = 0;     // seconds of one inspector run
  double inspectorRuns = 0; // how many times it runs
  double executor = 0;      // seconds of one executor gather
  double nonlocalWords = 0; // words one processor fetches per gather
  int64_t sources = 0;      // owners it fetches them from
};

InspectorExecutor
inspectorExecutor(const StatementFacts &sf, const RhsFacts &rf,
                  const ReferenceTerms &rt, const LayoutView &lv,
                  const PrimitiveCosts &costs, double elementBytes);

} // namespace dlayout::cost
