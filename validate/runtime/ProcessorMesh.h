//===- validate/runtime/ProcessorMesh.h - Processors as a Cartesian mesh -*- C++ -*-===//
//
// A ProcessorMesh is the processor array of Kali ("processors Procs : array
// [1..P]"), Zima's R(N_0, …) and PARTI's processor grid G: an MPI Cartesian
// communicator (non-periodic) of shape [N_0, …, N_{d−1}] over a parent
// communicator of exactly N_0·…·N_{d−1} ranks. Its rank is the processor id
// ArrayDistribution uses: the row-major linear index of the coordinates.
//
// Embedding. Natural keeps the parent's rank order. GrayCode is PARTI's
// Gray-coded grid (digest §2.2): on a hypercube whose node numbers are the
// parent ranks, the processor at coordinates (c_0, …, c_{d−1}) sits on node
//
//     gray(c_0) · 2^(b_1+…+b_{d−1}) + … + gray(c_{d−1}),   b_m = log2 N_m,
//
// gray(c) = c XOR (c >> 1), so mesh neighbours (one coordinate ±1) are
// hypercube neighbours (node numbers differing in one bit). It needs every
// N_m to be a power of two.
//
// The mesh owns the communicators it creates (freed by the destructor,
// which must run before MPI_Finalize) and the rank's Counters; they get the
// parent's error handler (as MPI specifies; SMPI needs it done). Creating a
// mesh is collective over the parent; an Error is returned identically on
// every rank (the checks use only the shape and the parent's size).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Result.h"
#include "validate/runtime/Counters.h"

#include <mpi.h>

#include <cstdint>
#include <span>
#include <vector>

namespace dlayout::rt {

enum class Embedding { Natural, GrayCode };

/// Binary reflected Gray code and its inverse.
inline uint64_t grayCode(uint64_t x) { return x ^ (x >> 1); }
inline uint64_t grayDecode(uint64_t g) {
  for (uint64_t s = 1; s < 64; s <<= 1) g ^= g >> s;
  return g;
}

/// Hypercube node of mesh coordinates under the Gray-code embedding; an
/// Error when a mesh dimension is not a power of two.
Result<int64_t> grayNode(std::span<const int64_t> shape,
                         std::span<const int64_t> coords);
/// The inverse: mesh coordinates of hypercube node `node`.
Result<std::vector<int64_t>> grayCoords(std::span<const int64_t> shape,
                                        int64_t node);

class ProcessorMesh {
public:
  /// Collective over `parent`. `shape` entries of 0 are chosen by
  /// MPI_Dims_create; an empty shape is the 1-D mesh [size]. Errors: a shape
  /// whose product is not the communicator's size, a negative extent, Gray
  /// code on a dimension that is not a power of two.
  static Result<ProcessorMesh> create(MPI_Comm parent, std::vector<int64_t> shape,
                                      Embedding embedding = Embedding::Natural);

  ProcessorMesh(ProcessorMesh &&o) noexcept;
  ProcessorMesh &operator=(ProcessorMesh &&o) noexcept;
  ProcessorMesh(const ProcessorMesh &) = delete;
  ProcessorMesh &operator=(const ProcessorMesh &) = delete;
  ~ProcessorMesh();

  /// The Cartesian communicator; its rank is this processor's id.
  MPI_Comm comm() const { return cart_; }
  /// The processors that differ from this one only along mesh dimension m
  /// (MPI_Cart_sub); its rank is the coordinate along m.
  MPI_Comm lineComm(int m) const { return lines_[m]; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  int dims() const { return static_cast<int>(shape_.size()); }
  const std::vector<int64_t> &shape() const { return shape_; }
  const std::vector<int64_t> &coords() const { return coords_; }
  std::vector<int64_t> coordsOf(int64_t proc) const;
  int64_t procOf(std::span<const int64_t> coords) const;
  /// The processor `disp` steps along mesh dimension m, −1 past an edge.
  int64_t neighbour(int m, int64_t disp) const;
  /// Rank in the parent communicator (the hypercube node) of processor proc.
  int64_t parentRank(int64_t proc) const;
  Embedding embedding() const { return embedding_; }

  Counters &counters() { return counters_; }
  const Counters &counters() const { return counters_; }

  /// A fresh message tag. Operations that take tags are built collectively,
  /// in the same order on every rank, so the tags agree.
  int nextTag() {
    int t = 100 + tagSeq_;
    tagSeq_ = (tagSeq_ + 1) % 30000;
    return t;
  }

private:
  ProcessorMesh() = default;
  void release();

  MPI_Comm cart_ = MPI_COMM_NULL;
  std::vector<MPI_Comm> lines_;
  int rank_ = 0, size_ = 1;
  std::vector<int64_t> shape_, coords_;
  Embedding embedding_ = Embedding::Natural;
  Counters counters_;
  int tagSeq_ = 0;
};

} // namespace dlayout::rt
