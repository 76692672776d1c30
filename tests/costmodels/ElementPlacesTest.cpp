// A Locator walking a loop (start, steady, advance) names, at every
// instance, the element and place that locate() gives there: over block,
// cyclic and block-cyclic dimensions with offsets, subscripts of several
// strides and signs that leave the array on either side, and loop steps of
// either sign.
#include "costmodels/ElementPlaces.h"

#include <gtest/gtest.h>

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

} // namespace

TEST(ElementPlaces, SteppingAgreesWithLocatingEveryInstance) {
  // A(20, 0:14): dimension 1 on mesh dimension 0 (4 processors), dimension
  // 2 on mesh dimension 1 (3), each distribution in turn; loop 0 an outer
  // index at a fixed value, loop 1 the walked one.
  const std::vector<int64_t> mesh{4, 3};
  const Places places(mesh);
  struct Kind {
    DistKind kind;
    int64_t block;
  };
  const Kind kinds[] = {{DistKind::Block, 5}, {DistKind::Cyclic, 1}, {DistKind::BlockCyclic, 2},
                        {DistKind::BlockCyclic, 3}};
  const std::pair<int64_t, int64_t> alphas[] = {{1, 0}, {-1, 1}, {2, -1}, {3, 2}, {0, 1}, {1, 1}};
  int walks = 0, instances = 0;
  for (const Kind &k1 : kinds)
    for (const Kind &k2 : kinds)
      for (const auto &[a1, a2] : alphas)
        for (int64_t step : {1, -1, 2, -3}) {
          ArrayDist ad;
          ad.dims = {dim(k1.kind, 0, 4, k1.block, 1 + (k1.block > 1), 20, 1),
                     dim(k2.kind, 1, 3, k2.block, -1, 15, 0)};
          ad.dimOnMesh = {0, 1};
          ad.replicatedOn = {0, 0};
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
