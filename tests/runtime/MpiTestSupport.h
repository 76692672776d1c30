// Shared pieces of the MPI runtime tests (mpi_runtime_test.cpp,
// mpi_exchange_tests.cpp): the check counter, the layouts every exchange test
// runs over, and the deterministic data and request lists.
#pragma once

#include "validate/runtime/Abort.h"
#include "validate/runtime/ArrayDistribution.h"
#include "validate/runtime/ProcessorMesh.h"

#include <mpi.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace dlayout::rt::test {

struct Checker {
  int rank = 0;
  int64_t checks = 0, failures = 0;
  void operator()(bool ok, const char *file, int line, const std::string &what) {
    ++checks;
    if (ok) return;
    if (++failures <= 20)
      std::fprintf(stderr, "rank %d: FAIL %s:%d: %s\n", rank, file, line, what.c_str());
  }
};
#define CHECK(ck, cond, what)                                                          \
  (ck)((cond), __FILE__, __LINE__, std::string(#cond) + " -- " + (what))

inline const char *toStringKind(DistKind k) {
  switch (k) {
  case DistKind::Block: return "block";
  case DistKind::Cyclic: return "cyclic";
  case DistKind::Indirect: return "indirect";
  default: return "other";
  }
}

/// The value every element holds: a function of its global linear id.
inline double valueOf(int64_t lin) { return 10.0 * lin + 3; }

inline DimLayout dl(DistKind k, int meshDim, int64_t block = 0, int64_t offset = 0) {
  DimLayout L;
  L.kind = k;
  L.meshDim = meshDim;
  L.block = block;
  L.offset = offset;
  return L;
}

struct Case {
  std::string name;
  std::vector<int64_t> extents, lowers;
  std::vector<DimLayout> dims;
  std::vector<int64_t> mesh;
};

inline ArrayDistribution makeDist(const Case &c) {
  ArrayLayout L;
  L.dims = c.dims;
  return orAbort(ArrayDistribution::make(c.name, c.extents, c.lowers, L, c.mesh));
}

inline std::vector<int64_t> dimsCreate(int P, int d) {
  std::vector<int> dims(d, 0);
  MPI_Dims_create(P, d, dims.data());
  return std::vector<int64_t>(dims.begin(), dims.end());
}

/// The layouts every exchange test runs over, for P processes.
inline std::vector<Case> cases(int P) {
  std::vector<Case> cs;
  const int64_t N = 37;
  cs.push_back({"block", {N}, {1}, {dl(DistKind::Block, 0)}, {P}});
  cs.push_back({"cyclic", {N}, {1}, {dl(DistKind::Cyclic, 0)}, {P}});
  cs.push_back({"bc3+1", {N}, {1}, {dl(DistKind::BlockCyclic, 0, 3, 1)}, {P}});
  {
    DimLayout g = dl(DistKind::GeneralBlock, 0);
    std::mt19937_64 rng(11);
    int64_t b = 1;
    for (int p = 0; p < P; ++p) {
      g.begins.push_back(b);
      b += 1 + static_cast<int64_t>(rng() % 9);
    }
    cs.push_back({"general_block", {N}, {1}, {g}, {P}});
  }
  {
    DimLayout m = dl(DistKind::Indirect, 0);
    std::mt19937_64 rng(12);
    for (int64_t k = 0; k < N; ++k) m.map.push_back(static_cast<int64_t>(rng() % P));
    cs.push_back({"indirect", {N}, {1}, {m}, {P}});
  }
  auto m2 = dimsCreate(P, 2);
  cs.push_back({"block x cyclic", {13, 11}, {1, 0},
                {dl(DistKind::Block, 0), dl(DistKind::Cyclic, 1)}, m2});
  cs.push_back({"cyclic@1 x bc2@0", {13, 11}, {1, 0},
                {dl(DistKind::Cyclic, 1), dl(DistKind::BlockCyclic, 0, 2)}, m2});
  cs.push_back({"block x * (replicated along mesh 1)", {13, 11}, {1, 0},
                {dl(DistKind::Block, 0), dl(DistKind::Collapsed, -1)}, m2});
  cs.push_back({"3-D", {5, 4, 6}, {1, 1, 0},
                {dl(DistKind::BlockCyclic, 0, 2), dl(DistKind::Block, 1),
                 dl(DistKind::Cyclic, 2)},
                dimsCreate(P, 3)});
  cs.push_back({"all replicated", {20}, {0}, {dl(DistKind::Collapsed, -1)}, {P}});
  return cs;
}

/// This rank's storage of `d` with every held element set to valueOf and
/// every other cell to `fill`.
inline std::vector<double> storage(const ArrayDistribution &d, int64_t me, double fill = -1) {
  std::vector<double> s(d.storageSize(me), fill);
  d.forEachOwned(me, [&](std::span<const int64_t> idx, int64_t off) {
    s[off] = valueOf(d.linear(idx));
  });
  return s;
}

/// Rank r's random request list for test `salt`: multi-indices of d.
inline std::vector<int64_t> randomIndices(const ArrayDistribution &d, int r, int salt) {
  std::mt19937_64 rng(1000 + 7919 * r + salt);
  int64_t n = (r == 1) ? 0 : static_cast<int64_t>(rng() % 60); // rank 1 asks nothing
  std::vector<int64_t> idx;
  for (int64_t j = 0; j < n; ++j)
    for (int k = 0; k < d.rank(); ++k)
      idx.push_back(d.lower(k) + static_cast<int64_t>(rng() % d.extent(k)));
  return idx;
}

// The exchange tests (mpi_exchange_tests.cpp).
void testGatherScatter(Checker &ck, int P, const Case &c);
void testGhosts(Checker &ck, int P);
void testRedistribution(Checker &ck, int P);

} // namespace dlayout::rt::test
