// Unit tests of validate/runtime/Distribution (one dimension's δ and λ), no MPI.
#include "validate/runtime/Distribution.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

using namespace dlayout;
using namespace dlayout::rt;

namespace {

DimLayout dimOf(DistKind k, int64_t offset = 0, int64_t block = 0) {
  DimLayout L;
  L.kind = k;
  L.meshDim = 0;
  L.offset = offset;
  L.block = block;
  return L;
}

Distribution mustMake(const DimLayout &L, int64_t n, int64_t lower, int64_t P) {
  auto r = Distribution::make(L, n, lower, P);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().str());
  return std::move(r).value();
}

/// The invariants every kind must satisfy: δ total and in range, local/global
/// round trip both ways, the λ(p) partition the index space, are increasing,
/// and agree with the contiguous segment where there is one.
void checkPartition(const Distribution &d, const std::string &what) {
  SCOPED_TRACE(what);
  const int64_t n = d.extent(), lo = d.lower(), P = d.procs();
  int64_t total = 0;
  std::vector<int> seen(n, 0);
  for (int64_t p = 0; p < P; ++p) {
    auto idx = d.indices(p);
    ASSERT_EQ(static_cast<int64_t>(idx.size()), d.localExtent(p));
    total += d.localExtent(p);
    for (size_t l = 0; l < idx.size(); ++l) {
      int64_t i = idx[l];
      ASSERT_TRUE(d.inRange(i)) << i;
      if (l) {
        ASSERT_LT(idx[l - 1], i);
      }
      ASSERT_EQ(d.owner(i), p) << "i=" << i;
      ASSERT_EQ(d.localIndex(i), static_cast<int64_t>(l)) << "i=" << i;
      ASSERT_EQ(d.globalIndex(p, static_cast<int64_t>(l)), i);
      ++seen[i - lo];
    }
    if (d.contiguous() && !idx.empty()) {
      auto [a, b] = d.segment(p);
      EXPECT_EQ(a, idx.front());
      EXPECT_EQ(b, idx.back() + 1);
    }
  }
  EXPECT_EQ(total, n);
  for (int64_t i = lo; i < lo + n; ++i) {
    ASSERT_EQ(seen[i - lo], 1) << "index " << i << " owned " << seen[i - lo] << " times";
    int64_t p = d.owner(i);
    ASSERT_GE(p, 0);
    ASSERT_LT(p, P);
    ASSERT_LT(d.localIndex(i), d.localExtent(p));
    ASSERT_EQ(d.globalIndex(p, d.localIndex(i)), i);
    ASSERT_EQ(d.storageIndex(p, i), d.overlapLeft() + d.localIndex(i));
  }
}

const int64_t kSizes[] = {0, 1, 2, 3, 5, 7, 8, 9, 16, 17, 31, 32, 33, 100};
const int64_t kProcs[] = {1, 2, 3, 4, 5, 7, 8};

} // namespace

// Zima Example 1 (digest §4.2): n = 32, m = 4, BLOCK: λ(p) = [8(p−1)+1 : 8p].
TEST(Distribution, ZimaExample1BlockSegments) {
  auto d = Distribution::block(32, 4, /*lower=*/1);
  EXPECT_EQ(d.blockSize(), 8);
  for (int64_t p = 1; p <= 4; ++p) {
    auto [a, b] = d.segment(p - 1);
    EXPECT_EQ(a, 8 * (p - 1) + 1);
    EXPECT_EQ(b - 1, 8 * p);
    for (int64_t l = 1; l <= 8; ++l) EXPECT_EQ(d.owner(8 * (p - 1) + l), p - 1);
  }
}

// Kali §1.2: local_A(p) = {(p−1)⌈N/P⌉+1 ≤ i ≤ p⌈N/P⌉} (1-based), the last
// processors possibly short or empty.
TEST(Distribution, KaliBlockSets) {
  for (int64_t N : kSizes)
    for (int64_t P : kProcs) {
      auto d = Distribution::block(N, P, 1);
      const int64_t b = std::max<int64_t>(1, (N + P - 1) / P);
      for (int64_t p = 1; p <= P; ++p) {
        std::vector<int64_t> want;
        for (int64_t i = (p - 1) * b + 1; i <= std::min(N, p * b); ++i) want.push_back(i);
        EXPECT_EQ(d.indices(p - 1), want) << "N=" << N << " P=" << P << " p=" << p;
      }
    }
  // The example: N = 10 on 4 gives 3, 3, 3, 1.
  auto d = Distribution::block(10, 4, 1);
  EXPECT_EQ(d.indices(3), std::vector<int64_t>{10});
  EXPECT_EQ(d.localExtent(0), 3);
}

// Kali §1.2: cyclic, local_B(p) = {i | i ≡ p (mod P)}; with P = 10 processor 1
// holds rows 1, 11, 21, … and processor 10 the multiples of 10.
TEST(Distribution, KaliCyclicSets) {
  auto d = Distribution::cyclic(35, 10, 1);
  EXPECT_EQ(d.indices(0), (std::vector<int64_t>{1, 11, 21, 31}));
  EXPECT_EQ(d.indices(9), (std::vector<int64_t>{10, 20, 30}));
  for (int64_t N : kSizes)
    for (int64_t P : kProcs) {
      auto c = Distribution::cyclic(N, P, 1);
      for (int64_t i = 1; i <= N; ++i) {
        ASSERT_EQ((c.owner(i) + 1) % P, i % P) << "N=" << N << " P=" << P << " i=" << i;
        ASSERT_EQ(c.localIndex(i), (i - 1) / P); // Kali [derived]: ⌈i/P⌉ − 1
      }
    }
}

TEST(Distribution, EveryRegularKindPartitionsForManySizes) {
  for (int64_t lower : {0, 1, -3})
    for (int64_t N : kSizes)
      for (int64_t P : kProcs)
        for (int64_t off : {0, 1, -2, 5}) {
          std::string tag = "N=" + std::to_string(N) + " P=" + std::to_string(P) +
                            " lower=" + std::to_string(lower) + " off=" + std::to_string(off);
          checkPartition(mustMake(dimOf(DistKind::Block, off), N, lower, P), "block " + tag);
          checkPartition(mustMake(dimOf(DistKind::Cyclic, off), N, lower, P), "cyclic " + tag);
          for (int64_t k : {1, 2, 3, 5})
            checkPartition(mustMake(dimOf(DistKind::BlockCyclic, off, k), N, lower, P),
                           "block_cyclic(" + std::to_string(k) + ") " + tag);
        }
}

TEST(Distribution, BlockCyclicAgreesWithGuptaFormula) {
  // Gupta Eq. 2.1: f(i) = floor((i − offset)/block) mod N, lower bound out.
  for (int64_t N : {7, 17, 33})
    for (int64_t P : {2, 3, 4})
      for (int64_t k : {1, 2, 3, 4})
        for (int64_t off : {0, 1, 3, -1}) {
          auto d = mustMake(dimOf(DistKind::BlockCyclic, off, k), N, 1, P);
          std::vector<int64_t> seen(P, 0);
          for (int64_t i = 1; i <= N; ++i) {
            int64_t q = i - 1 - off;
            int64_t want = floorMod(floorDiv(q, k), P);
            ASSERT_EQ(d.owner(i), want);
            ASSERT_EQ(d.localIndex(i), seen[want]++); // brute force: rank in λ(p)
          }
        }
}

TEST(Distribution, BlockWithOffsetClampsOverhangToEndProcessors) {
  // Offset 2: positions −2, −1 precede processor 0's block; they stay on 0.
  auto d = mustMake(dimOf(DistKind::Block, 2), 12, 0, 4); // b = 3
  EXPECT_EQ(d.owner(0), 0);
  EXPECT_EQ(d.owner(1), 0);
  EXPECT_EQ(d.owner(4), 0); // position 2
  EXPECT_EQ(d.owner(5), 1); // position 3
  EXPECT_EQ(d.localExtent(0), 5);
  EXPECT_EQ(d.localExtent(3), 1); // positions 9 only (10, 11 are out of the array)
}

// Zima Def. 5 as corrected: owner = the LARGEST p with b_p ≤ i.
TEST(Distribution, GeneralBlockAgainstBruteForce) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 300; ++trial) {
    const int64_t P = 1 + rng() % 8, lower = rng() % 2, N = rng() % 60;
    std::set<int64_t> b{lower};
    while (static_cast<int64_t>(b.size()) < P)
      b.insert(lower + 1 + static_cast<int64_t>(rng() % (N + P + 3)));
    DimLayout L = dimOf(DistKind::GeneralBlock);
    L.begins.assign(b.begin(), b.end());
    auto d = mustMake(L, N, lower, P);
    for (int64_t i = lower; i < lower + N; ++i) {
      int64_t want = -1;
      for (int64_t p = 0; p < P; ++p)
        if (L.begins[p] <= i) want = p;
      ASSERT_EQ(d.owner(i), want) << "trial " << trial << " i=" << i;
    }
    checkPartition(d, "general_block trial " + std::to_string(trial));
    for (int64_t p = 0; p < P; ++p) {
      // λ(p) = [b_p, b_{p+1} − 1], λ(m) = [b_m, n]
      int64_t a = L.begins[p], e = p + 1 < P ? L.begins[p + 1] : lower + N;
      a = std::min(a, lower + N);
      e = std::min(e, lower + N);
      EXPECT_EQ(d.localExtent(p), std::max<int64_t>(0, e - a));
    }
  }
}

TEST(Distribution, GeneralBlockPrintedDefinitionWouldBeWrong) {
  // begins (1, 5, 9): index 3 belongs to R(1). The printed "smallest p with
  // b_p ≥ i" would give R(2).
  DimLayout L = dimOf(DistKind::GeneralBlock);
  L.begins = {1, 5, 9};
  auto d = mustMake(L, 12, 1, 3);
  EXPECT_EQ(d.owner(3), 0);
  EXPECT_EQ(d.owner(5), 1);
  EXPECT_EQ(d.owner(12), 2);
  EXPECT_EQ(d.segment(1), (std::pair<int64_t, int64_t>{5, 9}));
}

TEST(Distribution, IndirectAgainstBruteForce) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int64_t P = 1 + rng() % 7, N = rng() % 50, lower = rng() % 2;
    DimLayout L = dimOf(DistKind::Indirect);
    for (int64_t k = 0; k < N; ++k) L.map.push_back(rng() % P);
    auto d = mustMake(L, N, lower, P);
    std::vector<int64_t> count(P, 0);
    for (int64_t k = 0; k < N; ++k) {
      ASSERT_EQ(d.owner(lower + k), L.map[k]);
      ASSERT_EQ(d.localIndex(lower + k), count[L.map[k]]++);
    }
    for (int64_t p = 0; p < P; ++p) EXPECT_EQ(d.localExtent(p), count[p]);
    checkPartition(d, "indirect trial " + std::to_string(trial));
  }
}

TEST(Distribution, ReplicatedAndCollapsedHoldEverything) {
  auto c = Distribution::collapsed(9, 1);
  EXPECT_EQ(c.procs(), 1);
  EXPECT_TRUE(c.everywhere());
  EXPECT_EQ(c.localExtent(0), 9);
  EXPECT_EQ(c.storageIndex(0, 5), 4);
  auto r = mustMake(dimOf(DistKind::Replicated), 9, 1, 4);
  EXPECT_EQ(r.procs(), 4);
  for (int64_t p = 0; p < 4; ++p) {
    EXPECT_EQ(r.localExtent(p), 9);
    EXPECT_TRUE(r.holds(p, 7));
    EXPECT_EQ(r.indices(p).front(), 1);
  }
  EXPECT_EQ(r.owner(7), 0); // the home copy (DINO)
}

// DINO [block overlap 1,1] of [x0 x1 x2 x3] on 4 processors: proc 0 holds
// x0 x1, proc 1 x0 x1 x2, proc 2 x1 x2 x3, proc 3 x2 x3 (digest §3.2).
TEST(Distribution, OverlapCellsAsDino) {
  DimLayout L = dimOf(DistKind::Block);
  L.overlapLeft = L.overlapRight = 1;
  auto d = mustMake(L, 4, 0, 4);
  const std::vector<std::vector<int64_t>> holds = {{0, 1}, {0, 1, 2}, {1, 2, 3}, {2, 3}};
  for (int64_t p = 0; p < 4; ++p) {
    EXPECT_EQ(d.storageExtent(p), 3);
    for (int64_t i = 0; i < 4; ++i) {
      bool h = std::count(holds[p].begin(), holds[p].end(), i) > 0;
      EXPECT_EQ(d.storageIndex(p, i) >= 0, h) << "p=" << p << " i=" << i;
      EXPECT_EQ(d.isGhost(p, i), h && i != p);
    }
    EXPECT_EQ(d.owner(p), p); // the home is the owner under the partition
    EXPECT_EQ(d.storageIndex(p, p), 1);
  }
  // [compress][block overlap 2,0]: two copies to the left only.
  DimLayout R = dimOf(DistKind::Block);
  R.overlapLeft = 2;
  auto e = mustMake(R, 8, 0, 4);
  EXPECT_EQ(e.storageIndex(2, 2), 0);
  EXPECT_EQ(e.storageIndex(2, 3), 1);
  EXPECT_EQ(e.storageIndex(2, 4), 2);
  EXPECT_EQ(e.storageIndex(2, 6), -1);
  EXPECT_EQ(e.storageIndex(0, 0), 2);
}

TEST(Distribution, BadLayoutsAreErrors) {
  auto msg = [](const DimLayout &L, int64_t n, int64_t lower, int64_t P) {
    auto r = Distribution::make(L, n, lower, P, "array A, dimension 1");
    return r.ok() ? std::string("OK") : r.error().message;
  };
  DimLayout g = dimOf(DistKind::GeneralBlock);
  g.begins = {1, 5, 5, 9};
  EXPECT_NE(msg(g, 12, 1, 4).find("strictly increasing"), std::string::npos) << msg(g, 12, 1, 4);
  EXPECT_NE(msg(g, 12, 1, 4).find("array A, dimension 1"), std::string::npos);
  g.begins = {1, 5, 3, 9};
  EXPECT_NE(msg(g, 12, 1, 4).find("strictly increasing"), std::string::npos);
  g.begins = {1, 5, 9};
  EXPECT_NE(msg(g, 12, 1, 4).find("one begin per processor"), std::string::npos);
  g.begins = {2, 5, 7, 9};
  EXPECT_NE(msg(g, 12, 1, 4).find("lower bound"), std::string::npos);

  DimLayout ind = dimOf(DistKind::Indirect);
  ind.map = {0, 1, 4, 2};
  EXPECT_NE(msg(ind, 4, 0, 4).find("names processor 4"), std::string::npos) << msg(ind, 4, 0, 4);
  ind.map = {0, 1, -1, 2};
  EXPECT_NE(msg(ind, 4, 0, 4).find("names processor -1"), std::string::npos);
  ind.map = {0, 1};
  EXPECT_NE(msg(ind, 4, 0, 4).find("entries"), std::string::npos);
  ind.map = {0, 1, 2, 3};
  ind.offset = 1;
  EXPECT_NE(msg(ind, 4, 0, 4).find("offset"), std::string::npos);

  EXPECT_NE(msg(dimOf(DistKind::BlockCyclic, 0, 0), 8, 0, 2).find("block size"),
            std::string::npos);
  DimLayout cyc = dimOf(DistKind::Cyclic);
  cyc.overlapLeft = 1;
  EXPECT_NE(msg(cyc, 8, 0, 2).find("overlap"), std::string::npos);
  DimLayout neg = dimOf(DistKind::Block);
  neg.overlapRight = -1;
  EXPECT_NE(msg(neg, 8, 0, 2).find("negative overlap"), std::string::npos);
  EXPECT_NE(msg(dimOf(DistKind::Block), 8, 0, 0).find("processor"), std::string::npos);
  EXPECT_EQ(msg(dimOf(DistKind::Block), 8, 0, 2), "OK");
}

TEST(Distribution, DeferredIndirectKnowsOnlyExtents) {
  auto d = Distribution::indirectDeferred(10, 1, {3, 0, 7});
  EXPECT_FALSE(d.hasMap());
  EXPECT_EQ(d.procs(), 3);
  EXPECT_EQ(d.localExtent(2), 7);
  EXPECT_EQ(d.storageExtent(1), 0);
  EXPECT_TRUE(Distribution::block(4, 2).hasMap());
}
