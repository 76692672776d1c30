// Unit tests of validate/runtime/ArrayDistribution and the Gray code, no MPI.
#include "validate/runtime/ArrayDistribution.h"
#include "validate/runtime/ProcessorMesh.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <map>
#include <set>

using namespace dlayout;
using namespace dlayout::rt;

namespace {

DimLayout dl(DistKind k, int meshDim = 0, int64_t block = 0) {
  DimLayout L;
  L.kind = k;
  L.meshDim = meshDim;
  L.block = block;
  return L;
}

ArrayDistribution mustMake(std::vector<int64_t> ext, std::vector<int64_t> low,
                           std::vector<DimLayout> dims, std::vector<int64_t> mesh,
                           bool colMajor = true) {
  ArrayLayout L;
  L.dims = std::move(dims);
  auto r = ArrayDistribution::make("A", std::move(ext), std::move(low), L, std::move(mesh),
                                   colMajor);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().str());
  return std::move(r).value();
}

std::string makeError(std::vector<int64_t> ext, std::vector<DimLayout> dims,
                      std::vector<int64_t> mesh) {
  ArrayLayout L;
  L.dims = std::move(dims);
  std::vector<int64_t> low(ext.size(), 1);
  auto r = ArrayDistribution::make("A", ext, low, L, mesh);
  return r.ok() ? "OK" : r.error().message;
}

/// Every element: each holder stores it at a distinct in-range offset,
/// forEachOwned visits exactly the held elements at those offsets, the
/// storage order is increasing, and the copies add up.
void checkStorage(const ArrayDistribution &a, const std::string &what) {
  SCOPED_TRACE(what);
  std::vector<std::map<int64_t, int64_t>> offsetsOf(a.procs()); // proc → offset → linear
  for (int64_t g = 0; g < a.size(); ++g) {
    auto idx = a.delinear(g);
    ASSERT_EQ(a.linear(idx), g);
    ASSERT_TRUE(a.checkIndex(idx).ok());
    auto hs = a.holders(idx);
    ASSERT_EQ(static_cast<int64_t>(hs.size()), a.copies());
    ASSERT_TRUE(std::count(hs.begin(), hs.end(), a.home(idx)) == 1);
    for (int64_t p = 0; p < a.procs(); ++p) {
      bool held = std::count(hs.begin(), hs.end(), p) > 0;
      ASSERT_EQ(a.holds(p, idx), held);
      ASSERT_EQ(a.holderNear(idx, p) == p, held);
      if (!held) continue;
      int64_t off = a.localOffset(p, idx);
      ASSERT_GE(off, 0);
      ASSERT_LT(off, a.storageSize(p));
      ASSERT_TRUE(offsetsOf[p].emplace(off, g).second) << "offset reused on " << p;
    }
  }
  int64_t total = 0;
  for (int64_t p = 0; p < a.procs(); ++p) {
    total += a.ownedCount(p);
    int64_t visited = 0, last = -1;
    a.forEachOwned(p, [&](std::span<const int64_t> idx, int64_t off) {
      ASSERT_TRUE(a.holds(p, idx));
      ASSERT_EQ(a.localOffset(p, idx), off);
      ASSERT_GT(off, last); // storage order
      last = off;
      ++visited;
    });
    EXPECT_EQ(visited, a.ownedCount(p));
    EXPECT_EQ(static_cast<int64_t>(offsetsOf[p].size()), visited);
  }
  EXPECT_EQ(total, a.size() * a.copies());
}

} // namespace

// Zima Example 2 (digest §4.2): A(32,16) on R(4,4), (BLOCK, CYCLIC): A(17,7) is
// on R(3,3), and generally δ(8k+l, j) = R(k+1, MOD(j−1,4)+1).
TEST(ArrayDistribution, ZimaExample2) {
  auto a = mustMake({32, 16}, {1, 1}, {dl(DistKind::Block, 0), dl(DistKind::Cyclic, 1)},
                    {4, 4});
  auto c = a.coordsOf(a.home(std::array<int64_t, 2>{17, 7}));
  EXPECT_EQ(c[0] + 1, 3);
  EXPECT_EQ(c[1] + 1, 3);
  for (int64_t k = 0; k <= 3; ++k)
    for (int64_t l = 1; l <= 8; ++l)
      for (int64_t j = 1; j <= 16; ++j) {
        auto cc = a.coordsOf(a.home(std::array<int64_t, 2>{8 * k + l, j}));
        ASSERT_EQ(cc[0], k);
        ASSERT_EQ(cc[1], (j - 1) % 4);
      }
  EXPECT_EQ(a.copies(), 1);
  checkStorage(a, "Zima example 2");
}

TEST(ArrayDistribution, UnmappedMeshDimensionReplicates) {
  // A 1-D array on mesh dimension 0 of a 2×3 mesh: three copies of each
  // element, one per coordinate along mesh dimension 1; home at coordinate 0.
  auto a = mustMake({10}, {0}, {dl(DistKind::Block, 0)}, {2, 3});
  EXPECT_EQ(a.copies(), 3);
  EXPECT_EQ(a.dimOnMesh(1), -1);
  std::array<int64_t, 1> i{7}; // block 5: owner 1 along mesh dimension 0
  EXPECT_EQ(a.holders(i), (std::vector<int64_t>{3, 4, 5}));
  EXPECT_EQ(a.home(i), 3);
  EXPECT_EQ(a.holderNear(i, 1), 4); // same coordinate along the replicated dimension
  checkStorage(a, "replicated along mesh 1");
  // Explicitly replicated dimension claims its mesh dimension.
  auto b = mustMake({4, 6}, {1, 1}, {dl(DistKind::Replicated, 1), dl(DistKind::Cyclic, 0)},
                    {2, 2});
  EXPECT_EQ(b.copies(), 2);
  checkStorage(b, "replicated dimension");
}

TEST(ArrayDistribution, EveryKindComposesOverMeshes) {
  DimLayout gb = dl(DistKind::GeneralBlock, 1);
  gb.begins = {1, 2, 6};
  DimLayout ind = dl(DistKind::Indirect, 0);
  ind.map = {1, 0, 0, 1, 1, 0, 1};
  DimLayout ovl = dl(DistKind::Block, 0);
  ovl.overlapLeft = 1;
  ovl.overlapRight = 2;
  DimLayout off = dl(DistKind::BlockCyclic, 1, 2);
  off.offset = 1;
  checkStorage(mustMake({7, 9}, {1, 1}, {ind, gb}, {2, 3}), "indirect x general_block");
  checkStorage(mustMake({7, 9}, {1, 1}, {ind, gb}, {2, 3}, false), "row-major");
  checkStorage(mustMake({9, 7}, {0, 0}, {ovl, off}, {3, 2}), "overlap x offset bc");
  checkStorage(mustMake({5, 6, 4}, {1, 0, 1},
                        {dl(DistKind::Cyclic, 2), dl(DistKind::Collapsed, -1),
                         dl(DistKind::BlockCyclic, 0, 3)},
                        {2, 1, 3}),
               "3-D");
  checkStorage(mustMake({6, 5}, {1, 1}, {dl(DistKind::Cyclic, 1), dl(DistKind::Block, 0)},
                        {2, 3}),
               "transposed alignment");
  checkStorage(mustMake({13}, {1}, {dl(DistKind::Collapsed, -1)}, {4}), "all replicated");
}

TEST(ArrayDistribution, OverlapStorageHasGhostCellsAndCorners) {
  DimLayout b0 = dl(DistKind::Block, 0), b1 = dl(DistKind::Block, 1);
  b0.overlapLeft = b0.overlapRight = 1;
  b1.overlapLeft = b1.overlapRight = 1;
  auto a = mustMake({8, 8}, {1, 1}, {b0, b1}, {2, 2});
  EXPECT_EQ(a.storageExtents(0), (std::vector<int64_t>{6, 6}));
  // proc (0,0) owns (1..4, 1..4); (5,5) is its corner cell, (5,2) a face cell.
  EXPECT_GE(a.localOffset(0, std::array<int64_t, 2>{5, 5}), 0);
  EXPECT_GE(a.localOffset(0, std::array<int64_t, 2>{5, 2}), 0);
  EXPECT_EQ(a.localOffset(0, std::array<int64_t, 2>{6, 2}), -1);
  EXPECT_FALSE(a.holds(0, std::array<int64_t, 2>{5, 2}));
  EXPECT_EQ(a.localOffset(0, std::array<int64_t, 2>{1, 1}), 1 + 6);
}

TEST(ArrayDistribution, BadLayoutsAreErrors) {
  auto has = [](const std::string &m, const char *s) {
    return m.find(s) != std::string::npos;
  };
  std::string m = makeError({4, 4}, {dl(DistKind::Block, 0), dl(DistKind::Cyclic, 0)}, {2, 2});
  EXPECT_TRUE(has(m, "both mapped to mesh dimension 0")) << m;
  m = makeError({4}, {dl(DistKind::Block, 2)}, {2, 2});
  EXPECT_TRUE(has(m, "mesh_dim 2")) << m;
  m = makeError({4}, {dl(DistKind::Block, -1)}, {4});
  EXPECT_TRUE(has(m, "mesh_dim -1")) << m;
  m = makeError({4, 4}, {dl(DistKind::Block, 0)}, {4});
  EXPECT_TRUE(has(m, "the layout gives 1 dimensions, the array has 2")) << m;
  m = makeError({4}, {dl(DistKind::Block, 0)}, {0});
  EXPECT_TRUE(has(m, "has 0 processors")) << m;
  DimLayout gb = dl(DistKind::GeneralBlock, 0);
  gb.begins = {1, 3, 2};
  m = makeError({8}, {gb}, {3});
  EXPECT_TRUE(has(m, "array A, dimension 1 (general_block)")) << m;
  EXPECT_TRUE(has(m, "strictly increasing")) << m;
}

TEST(ArrayDistribution, CheckIndexNamesArrayIndexAndBounds) {
  auto a = mustMake({32, 16}, {1, 1}, {dl(DistKind::Block, 0), dl(DistKind::Cyclic, 1)},
                    {4, 4});
  auto st = a.checkIndex(std::array<int64_t, 2>{33, 2});
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message, "array A: index (33,2) out of range (1:32,1:16)");
  EXPECT_FALSE(a.checkIndex(std::array<int64_t, 2>{1, 0}).ok());
  EXPECT_FALSE(a.checkIndex(std::array<int64_t, 1>{1}).ok());
  EXPECT_TRUE(a.checkIndex(std::array<int64_t, 2>{32, 16}).ok());
  EXPECT_FALSE(a.checkLinear(32 * 16).ok());
}

TEST(GrayCode, SequenceAndInverse) {
  const uint64_t want[] = {0, 1, 3, 2, 6, 7, 5, 4};
  for (uint64_t i = 0; i < 8; ++i) EXPECT_EQ(grayCode(i), want[i]);
  for (uint64_t i = 0; i < 4096; ++i) {
    ASSERT_EQ(grayDecode(grayCode(i)), i);
    ASSERT_EQ(std::popcount(grayCode(i) ^ grayCode(i + 1)), 1);
  }
}

// PARTI's Gray-coded grid: mesh neighbours are hypercube neighbours.
TEST(GrayCode, MeshNeighboursAreHypercubeNeighbours) {
  for (std::vector<int64_t> shape : {std::vector<int64_t>{16}, {4, 4}, {2, 8}, {4, 2, 8},
                                     {1, 4}, {8, 8}}) {
    int64_t P = 1;
    for (auto n : shape) P *= n;
    std::set<int64_t> nodes;
    std::vector<int64_t> c(shape.size());
    for (int64_t proc = 0; proc < P; ++proc) {
      int64_t rest = proc;
      for (size_t j = shape.size(); j-- > 0;) {
        c[j] = rest % shape[j];
        rest /= shape[j];
      }
      auto node = grayNode(shape, c);
      ASSERT_TRUE(node.ok());
      ASSERT_GE(*node, 0);
      ASSERT_LT(*node, P);
      nodes.insert(*node);
      ASSERT_EQ(*grayCoords(shape, *node), c);
      for (size_t m = 0; m < shape.size(); ++m) {
        if (c[m] + 1 >= shape[m]) continue;
        auto d = c;
        ++d[m];
        auto nb = grayNode(shape, d);
        ASSERT_EQ(std::popcount(static_cast<uint64_t>(*node ^ *nb)), 1)
            << "mesh neighbours not hypercube neighbours";
      }
    }
    EXPECT_EQ(static_cast<int64_t>(nodes.size()), P); // a bijection
  }
  auto bad = grayNode(std::vector<int64_t>{3, 4}, std::vector<int64_t>{0, 0});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("powers of two"), std::string::npos);
}

TEST(ArrayDistribution, OwnedBoxAgreesWithHoldsAndLocalOffset) {
  // The executor's fast path: where every dimension is contiguous, a
  // processor's held elements are a box and its storage offsets affine in
  // the index -- the same answers as holds() and localOffset() for every
  // element (ghost cells not held); no box where a dimension is cyclic.
  DimLayout b0 = dl(DistKind::Block, 0), b1 = dl(DistKind::Block, 1);
  b0.overlapLeft = 1, b0.overlapRight = 2;
  b1.overlapLeft = b1.overlapRight = 1;
  DimLayout gb = dl(DistKind::GeneralBlock, 1);
  gb.begins = {1, 2, 6};
  const std::vector<std::pair<std::string, ArrayDistribution>> boxed = {
      {"block x block, overlaps", mustMake({8, 9}, {1, 0}, {b0, b1}, {2, 3})},
      {"row-major", mustMake({8, 9}, {1, 0}, {b0, b1}, {2, 3}, false)},
      {"collapsed x general_block", mustMake({5, 9}, {1, 1}, {dl(DistKind::Collapsed, -1), gb}, {2, 3})},
      {"replicated", mustMake({13}, {1}, {dl(DistKind::Collapsed, -1)}, {4})}};
  for (const auto &[what, a] : boxed) {
    SCOPED_TRACE(what);
    for (int64_t p = 0; p < a.procs(); ++p) {
      auto box = a.ownedBox(p);
      ASSERT_TRUE(box.has_value());
      for (int64_t g = 0; g < a.size(); ++g) {
        auto idx = a.delinear(g);
        bool inBox = true;
        int64_t off = box->base;
        for (size_t k = 0; k < idx.size(); ++k) {
          inBox = inBox && box->first[k] <= idx[k] && idx[k] < box->end[k];
          off += idx[k] * box->stride[k];
        }
        ASSERT_EQ(inBox, a.holds(p, idx)) << "processor " << p << ", element " << g;
        if (inBox) {
          ASSERT_EQ(off, a.localOffset(p, idx)) << "processor " << p << ", element " << g;
        }
      }
    }
  }
  EXPECT_FALSE(mustMake({6, 5}, {1, 1}, {dl(DistKind::Cyclic, 1), dl(DistKind::Block, 0)}, {2, 3})
                   .ownedBox(0)
                   .has_value());
}
