//===- validate/runtime/TranslationTable.h - PARTI's distributed translation table -*- C++ -*-===//
//
// An indirect (enumerated) distribution is a map f: index → processor, as big
// as the array (Zima Def. 6: O(n) memory), so it is itself distributed,
// "normally by regular block" (Zima), as PARTI's distributed translation
// tables (digest §2.2). Entry i of the table says where element i lives:
// its owner f(i) (coordinate along the mesh dimension) and its local index
// there (the rank of i among the indices f sends to that owner, the same
// numbering as Distribution's indirect kind).
//
// The table is block-distributed over all mesh.size() ranks: rank r keeps the
// entries of blockOf(r) (Kali block, ⌈n/P⌉). Looking an owner up therefore
// costs a gather through a Schedule — the first of Zima's "two communication
// steps" (the second fetches the data) — charged to the Scheduling phase.
//
// build() is collective: every rank passes the map entries of its own block
// (as a partitioner leaves them); fromFullMap() lets every rank pass the whole
// map (as a layout file gives it) and keeps only its block. A map naming a
// processor outside [0, procs) is an Error on the rank that holds the entry
// and a relayed Error on the others (one MPI_Allreduce carries both the
// per-owner counts and the error flag).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Result.h"
#include "validate/runtime/Distribution.h"
#include "validate/runtime/ProcessorMesh.h"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace dlayout::rt {

class TranslationTable {
public:
  struct Entry {
    int64_t owner = -1;
    int64_t local = -1;
    bool operator==(const Entry &) const = default;
  };

  /// Collective. The table of an indirect dimension of `extent` indices with
  /// lower bound `lower`, distributed over `procs` processors; `myBlock` are
  /// the map values for the indices of blockOf(mesh.rank()).
  static Result<TranslationTable> build(ProcessorMesh &mesh, int64_t extent,
                                        int64_t lower, int64_t procs,
                                        std::span<const int64_t> myBlock);
  /// Collective. Every rank passes the whole map.
  static Result<TranslationTable> fromFullMap(ProcessorMesh &mesh,
                                              std::span<const int64_t> map,
                                              int64_t lower, int64_t procs);

  /// The indices [first, end) of the table that `rank` of `size` keeps.
  static std::pair<int64_t, int64_t> blockOf(int64_t extent, int64_t lower,
                                             int64_t size, int64_t rank);

  /// The indirect Distribution the table describes (its map stays remote:
  /// hasMap() is false, local extents are known).
  const Distribution &distribution() const { return dist_; }
  int64_t extent() const { return extent_; }
  int64_t lower() const { return lower_; }
  /// The entries this rank keeps (its block).
  const std::vector<Entry> &myEntries() const { return mine_; }

  /// Collective. Owner and local index of every index in `indices` (each in
  /// range). `localError`, when set, is reported to every rank instead.
  Result<std::vector<Entry>> lookup(ProcessorMesh &mesh,
                                    std::span<const int64_t> indices,
                                    const Error *localError = nullptr) const;

private:
  TranslationTable() = default;

  int64_t extent_ = 0, lower_ = 0;
  Distribution dist_ = Distribution::collapsed(0);
  Distribution tableDist_ = Distribution::collapsed(0); // block over all ranks
  std::vector<Entry> mine_;
};

} // namespace dlayout::rt
