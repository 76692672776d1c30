//===- validate/runtime/Abort.cpp - The one place the runtime ends a job --------===//
#include "validate/runtime/Abort.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace dlayout::rt {

namespace {
constexpr const char *kRelayed = "relayed: ";
}

Error relayedError(int findingRank, const std::string &operation) {
  std::string who = findingRank < 0 ? std::string("another rank")
                                    : "rank " + std::to_string(findingRank);
  return makeError(std::string(kRelayed) + who + " reported an error in " + operation);
}

bool isRelayed(const Error &e) { return e.message.rfind(kRelayed, 0) == 0; }

void abortOnError(const Error &e, MPI_Comm comm) {
  int rank = -1, initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (!isRelayed(e)) {
    std::fprintf(stderr, "dlayout: error: rank %d: %s\n", rank, e.str().c_str());
    std::fflush(stderr);
  }
#ifdef SMPI_H
  // SimGrid: MPI_Abort would end this rank only and smpirun would exit 0.
  // Ending the rank with a non-zero status ends the simulation (the others
  // are left blocked, which SimGrid detects at once) with that status.
  (void)comm;
  std::exit(kAbortCode);
#else
  // Let the rank that found the problem print and abort first.
  if (isRelayed(e)) std::this_thread::sleep_for(std::chrono::seconds(2));
  if (initialized) MPI_Abort(comm, kAbortCode);
  std::exit(kAbortCode);
#endif
}

} // namespace dlayout::rt
