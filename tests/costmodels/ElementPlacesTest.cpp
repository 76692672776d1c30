// A Locator walking a loop (start, steady, advance) names, at every
// instance, the element and place that locate() gives there: over block,
// cyclic and block-cyclic dimensions with offsets, subscripts of several
// strides and signs that leave the array on either side, and loop steps of
// either sign.
#include "costmodels/ElementPlaces.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

using namespace dlayout;
using namespace dlayout::cost;

namespace {

DimDist dim(DistKind kind, int meshDim, int64_t procs, int64_t block, int64_t offset,
            int64_t extent, int64_t lower) {
  DimDist d;
  d.kind = kind;
  d.meshDim = meshDim;
  d.procs = procs;
  d.block = block;
  d.offset = offset;
  d.extent = extent;
  d.lower = lower;
  return d;
}

SubscriptForm sub(std::vector<std::pair<int, int64_t>> terms, int64_t constant) {
  SubscriptForm f;
  f.cls = terms.size() > 1 ? SubscriptClass::Multiple : SubscriptClass::Single;
  f.terms = std::move(terms);
  f.constant = constant;
  return f;
}

/// A distribution of one array dimension: its kind and block.
struct Kind {
  DistKind kind;
  int64_t block;
};
const Kind kKinds[] = {{DistKind::Block, 5}, {DistKind::Cyclic, 1}, {DistKind::BlockCyclic, 2},
                       {DistKind::BlockCyclic, 3}};

/// A(20, 0:14) on a 4 x 3 mesh: dimension 1 by k1 on mesh dimension 0 with
/// offset o1, dimension 2 by k2 on mesh dimension 1 with offset o2.
ArrayDist onMesh(const Kind &k1, int64_t o1, const Kind &k2, int64_t o2) {
  ArrayDist ad;
  ad.dims = {dim(k1.kind, 0, 4, k1.block, o1, 20, 1), dim(k2.kind, 1, 3, k2.block, o2, 15, 0)};
  ad.dimOnMesh = {0, 1};
  ad.replicatedOn = {0, 0};
  return ad;
}

} // namespace

TEST(ElementPlaces, SteppingAgreesWithLocatingEveryInstance) {
  // A(20, 0:14): dimension 1 on mesh dimension 0 (4 processors), dimension
  // 2 on mesh dimension 1 (3), each distribution in turn; loop 0 an outer
  // index at a fixed value, loop 1 the walked one.
  const std::vector<int64_t> mesh{4, 3};
  const Places places(mesh);
  const std::pair<int64_t, int64_t> alphas[] = {{1, 0}, {-1, 1}, {2, -1}, {3, 2}, {0, 1}, {1, 1}};
  int walks = 0, instances = 0;
  for (const Kind &k1 : kKinds)
    for (const Kind &k2 : kKinds)
      for (const auto &[a1, a2] : alphas)
        for (int64_t step : {1, -1, 2, -3}) {
          const ArrayDist ad = onMesh(k1, 1 + (k1.block > 1), k2, -1);
          RefFacts r;
          // A(a1 * J + I - 4, a2 * J + 2): out of the array at both ends of J.
          r.subs = {sub({{0, 1}, {1, a1}}, -4), sub({{1, a2}}, 2)};
          Locator walked(r, ad, mesh, places), located(r, ad, mesh, places);
          ASSERT_TRUE(walked.known());
          std::vector<int64_t> index{3, 0};
          const int64_t first = step > 0 ? -12 : 25, trips = 40 / (step > 0 ? step : -step);
          index[1] = first;
          int64_t element, at;
          ASSERT_TRUE(walked.locate(index, element, at));
          walked.start(1, step);
          const std::string where = "alphas " + std::to_string(a1) + "," + std::to_string(a2) +
                                    " step " + std::to_string(step);
          for (int64_t t = 0; t < trips;) {
            const int64_t n = std::min(walked.steady(), trips - t);
            ASSERT_GE(n, 1) << where;
            for (int64_t u = 0; u < n; ++u) { // each instance of the run
              index[1] = first + (t + u) * step;
              ASSERT_TRUE(located.locate(index, element, at));
              const int64_t expected =
                  walked.element() < 0 ? -1 : walked.element() + u * walked.elementStep();
              EXPECT_EQ(element, expected) << where << " J " << index[1];
              EXPECT_EQ(at, walked.at()) << where << " J " << index[1];
              ++instances;
            }
            t += n;
            if (t < trips)
              walked.advance(n);
          }
          ++walks;
        }
  EXPECT_EQ(walks, 4 * 4 * 6 * 4);
  EXPECT_GT(instances, walks * 10);
}

TEST(ElementPlaces, PlacesRepeatEveryPeriodWithinBounds) {
  // From a walk's start, the place period() instances on is the place now
  // (what lets a counted walk take a cyclic row a period at a time,
  // InstanceWalk.h), and for withinBounds() instances the element keeps
  // its side of the array's bounds: A(a1 * J + 3, a2 * J - 5) on a 4 x 3
  // mesh, over every pair of distributions and steps of either sign.
  const std::vector<int64_t> mesh{4, 3};
  const Places places(mesh);
  int periodic = 0;
  for (const Kind &k1 : kKinds)
    for (const Kind &k2 : kKinds)
      for (const auto &[a1, a2] : {std::pair<int64_t, int64_t>{1, 0}, {-1, 1}, {2, 3}, {0, -2}})
        for (int64_t step : {1, -1, 2, -3}) {
          const ArrayDist ad = onMesh(k1, 1, k2, 0);
          RefFacts r;
          r.subs = {sub({{0, a1}}, 3), sub({{0, a2}}, -5)};
          const std::string where = "kinds " + std::to_string(int(k1.kind)) + "," +
                                    std::to_string(int(k2.kind)) + " alphas " +
                                    std::to_string(a1) + "," + std::to_string(a2) + " step " +
                                    std::to_string(step);
          Locator walked(r, ad, mesh, places), located(r, ad, mesh, places);
          std::vector<int64_t> index{step > 0 ? -8 : 30};
          int64_t element, at, firstAt;
          ASSERT_TRUE(walked.locate(index, element, firstAt));
          walked.start(0, step);
          const int64_t T = walked.period(1000), trips = 60, inBounds = walked.withinBounds();
          ASSERT_GE(T, 1) << where;
          ASSERT_LE(T, 1000) << where;
          periodic += T > 1;
          std::vector<int64_t> places0;
          for (int64_t t = 0; t < trips; ++t) {
            index[0] = (step > 0 ? -8 : 30) + t * step;
            ASSERT_TRUE(located.locate(index, element, at));
            places0.push_back(at);
            if (t >= T)
              EXPECT_EQ(at, places0[size_t(t - T)]) << where << " instance " << t;
            if (t < inBounds)
              EXPECT_EQ(element < 0, walked.element() < 0) << where << " instance " << t;
          }
          EXPECT_EQ(places0.front(), firstAt) << where;
        }
  EXPECT_GT(periodic, 100);
}

TEST(ElementPlaces, OwnerCursorAgreesWithOwnerCoordinate) {
  // An owner coordinate carried along a walk (advanced by runs of at most
  // left() instances, and by single steps) equals Eq. 2.1's at every
  // instance, for blocks of several sizes, offsets and value steps of
  // either sign, the start on either side of the extent.
  int walks = 0;
  for (DistKind kind : {DistKind::Block, DistKind::Cyclic, DistKind::BlockCyclic})
    for (int64_t block : {1, 2, 3, 7})
      for (int64_t offset : {-2, 0, 1})
        for (int64_t d : {1, -1, 2, -3, 5, 8})
          for (int64_t v0 : {-9, 0, 4, 13}) {
            if ((kind == DistKind::Cyclic) != (block == 1))
              continue;
            const DimDist dd = dim(kind, 0, 3, block, offset, 20, 1);
            for (bool byRuns : {true, false}) {
              OwnerCursor c(dd, v0, d);
              int64_t v = v0;
              for (int u = 0; u < 40;) {
                SCOPED_TRACE(std::to_string(int(kind)) + " b=" + std::to_string(block) + " o=" +
                             std::to_string(offset) + " d=" + std::to_string(d) + " v=" +
                             std::to_string(v));
                ASSERT_EQ(c.coordinate(), *ownerCoordinate(dd, v));
                ASSERT_GE(c.left(), 1);
                // Along left() instances the coordinate holds.
                const int64_t n = byRuns ? std::min<int64_t>(c.left(), 40 - u) : 1;
                for (int64_t k = 1; k < n; ++k)
                  ASSERT_EQ(*ownerCoordinate(dd, v + k * d), c.coordinate());
                const int64_t was = c.coordinate(), change = c.advance(n);
                v += n * d, u += int(n);
                EXPECT_EQ(was + change, c.coordinate());
              }
            }
            ++walks;
          }
  EXPECT_GT(walks, 300);
  // A value that does not move stays in its block for ever.
  EXPECT_EQ(OwnerCursor(dim(DistKind::Block, 0, 3, 7, 1, 20, 1), 5, 0).left(),
            std::numeric_limits<int64_t>::max());
}

TEST(ElementPlaces, InstancesWithinCountsUntilTheValueLeaves) {
  // instancesWithin(v, d, lo, hi): from v on, by d, how many instances
  // before v crosses a bound of [lo, hi], checked by stepping.
  for (int64_t v = -6; v <= 16; ++v)
    for (int64_t d : {1, -1, 2, -3, 4}) {
      const int64_t lo = 0, hi = 9, got = instancesWithin(v, d, lo, hi);
      const bool in = v >= lo && v <= hi;
      int64_t n = 0;
      for (int64_t w = v; n < 100 && (w >= lo && w <= hi) == in; w += d)
        ++n;
      if (n == 100)
        EXPECT_EQ(got, std::numeric_limits<int64_t>::max()) << v << " " << d;
      else
        EXPECT_EQ(got, n) << v << " " << d;
    }
}
