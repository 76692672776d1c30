//===- validate/runtime/Abort.h - The one place the runtime ends a job -*- C++ -*-===//
//
// Library code returns Errors. A program running the runtime on many ranks
// turns a bad input (an index out of range, a mesh that does not fit the
// communicator, a non-increasing general_block vector, an indirect map naming
// a processor that does not exist) into a clean end of the whole job with
// orAbort(): never a hang, never a silently wrong element.
//
// Collective operations return the same outcome on every rank: the rank that
// found the problem holds the precise Error, the others a *relayed* one
// (relayedError). abortOnError() therefore
//   - on the rank that found it: prints ONE line to stderr,
//       dlayout: error: rank R: <message>
//     and aborts the job (MPI_Abort; under SimGrid SMPI, whose MPI_Abort ends
//     only the calling rank and exits 0, the rank exits with the code, which
//     smpirun returns);
//   - on a rank holding a relayed error: prints nothing, gives the finding
//     rank a moment (real MPI only) to print and abort, then aborts too.
// This is the only code in the runtime that prints or ends the process.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Result.h"

#include <mpi.h>

#include <string>
#include <utility>

namespace dlayout::rt {

/// Exit status of a job ended by abortOnError.
inline constexpr int kAbortCode = 3;

/// The Error a rank returns when another rank found the problem (−1: unknown rank).
Error relayedError(int findingRank, const std::string &operation);
bool isRelayed(const Error &e);

[[noreturn]] void abortOnError(const Error &e, MPI_Comm comm = MPI_COMM_WORLD);

template <class T> T orAbort(Result<T> r, MPI_Comm comm = MPI_COMM_WORLD) {
  if (!r) abortOnError(r.error(), comm);
  return std::move(r).value();
}

} // namespace dlayout::rt
