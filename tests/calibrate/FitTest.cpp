// Tests of the fits behind `dlayout calibrate` (validate/calibrate/Fit.h,
// CollectiveChoice.h): times generated from a known Transfer(m) must give it
// back; noise must not buy pieces; negative coefficients are refused; each
// collective gets the algorithm whose Table 6.1 cost its times follow.
#include "costmodels/MachinePresets.h"
#include "costmodels/Primitives.h"
#include "validate/calibrate/CollectiveChoice.h"
#include "validate/calibrate/Fit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace dlayout;
using namespace dlayout::calibrate;

namespace {

std::vector<double> sizes(double from, double to) {
  std::vector<double> v;
  for (double p = from; p <= to; p *= 2) {
    v.push_back(p);
    if (p * 1.5 <= to && p >= 2) v.push_back(p * 1.5);
  }
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<SizeTime> timesOf(const Machine &m, const std::vector<double> &bytes,
                              double noise = 0, unsigned seed = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-noise, noise);
  std::vector<SizeTime> pts;
  for (double b : bytes) pts.push_back({b, m.transfer(b) * (1 + u(rng))});
  return pts;
}

Machine ipsc2() { return machinePreset("ipsc2").value(); }

} // namespace

TEST(CalibrateFit, LineThroughExactPoints) {
  std::vector<SizeTime> pts = {{1, 1e-6 + 2e-9}, {10, 1e-6 + 2e-8}, {1000, 1e-6 + 2e-6}};
  LineFit f = fitLine(pts, 0, pts.size());
  EXPECT_NEAR(f.startup, 1e-6, 1e-15);
  EXPECT_NEAR(f.perByte, 2e-9, 1e-18);
  EXPECT_LT(f.sumSquares, 1e-20);
}

TEST(CalibrateFit, NoNegativeCoefficients) {
  // Falling times would need a negative per-byte cost: a constant instead.
  std::vector<SizeTime> falling = {{1, 3e-6}, {100, 2e-6}, {1000, 1e-6}};
  LineFit f = fitLine(falling, 0, falling.size());
  EXPECT_EQ(f.perByte, 0);
  EXPECT_GT(f.startup, 1e-6);
  EXPECT_LT(f.startup, 3e-6);
  // Times through a negative intercept: a line through the origin.
  std::vector<SizeTime> steep = {{100, 1e-7}, {200, 3e-7}, {400, 7e-7}};
  f = fitLine(steep, 0, steep.size());
  EXPECT_EQ(f.startup, 0);
  EXPECT_GT(f.perByte, 0);
}

TEST(CalibrateFit, RecoversTheIpsc2TwoPieces) {
  // Sizes 1, 2, 3, 4, 6, ... 4 MiB and every size from 97 to 127, as the
  // calibration measures them after refining: the break is found at 100.
  auto bytes = sizes(1, 4194304);
  for (double b = 97; b < 128; ++b)
    if (std::find(bytes.begin(), bytes.end(), b) == bytes.end()) bytes.push_back(b);
  std::sort(bytes.begin(), bytes.end());
  PiecewiseFit f = fitPiecewise(timesOf(ipsc2(), bytes));
  ASSERT_EQ(f.pieces.size(), 2u);
  EXPECT_EQ(f.pieces[0].belowBytes, 100);
  EXPECT_EQ(f.pieces[1].belowBytes, 0);
  EXPECT_NEAR(f.pieces[0].startup, 350e-6, 350e-6 * 1e-9);
  EXPECT_NEAR(f.pieces[0].perByte, 0.15e-6, 0.15e-6 * 1e-6);
  EXPECT_NEAR(f.pieces[1].startup, 700e-6, 700e-6 * 1e-9);
  EXPECT_NEAR(f.pieces[1].perByte, 0.36e-6, 0.36e-6 * 1e-9);
  EXPECT_LT(f.rmsRelativeError, 1e-9);
}

TEST(CalibrateFit, RefinementLooksBetweenThePieces) {
  auto pts = timesOf(ipsc2(), sizes(1, 65536)); // ... 64, 96, 128, ...
  PiecewiseFit f = fitPiecewise(pts);
  ASSERT_EQ(f.pieces.size(), 2u);
  EXPECT_EQ(f.pieces[0].belowBytes, 128); // the first measured size above 100
  auto more = refinementSizes(pts, f);
  ASSERT_EQ(more.size(), 31u); // 97 ... 127
  EXPECT_EQ(more.front(), 97);
  EXPECT_EQ(more.back(), 127);
  // A wide gap gets evenly spaced sizes, at most perBreak of them.
  auto wide = refinementSizes(pts, f, 4);
  ASSERT_EQ(wide.size(), 4u);
  EXPECT_GT(wide.front(), 96);
  EXPECT_LT(wide.back(), 128);
}

TEST(CalibrateFit, NoiseDoesNotBuyPieces) {
  // One line (ncube7) with 1 % noise: one piece, within a few percent.
  Machine ncube = machinePreset("ncube7").value();
  PiecewiseFit f = fitPiecewise(timesOf(ncube, sizes(1, 1 << 20), 0.01));
  ASSERT_EQ(f.pieces.size(), 1u);
  EXPECT_NEAR(f.pieces[0].startup, 450e-6, 450e-6 * 0.03);
  EXPECT_NEAR(f.pieces[0].perByte, 2.6e-6, 2.6e-6 * 0.03);
  // The cluster preset's two pieces (break at 8 KiB) survive 1 % noise.
  Machine cluster = machinePreset("cluster").value();
  f = fitPiecewise(timesOf(cluster, sizes(1, 1 << 22), 0.01));
  ASSERT_EQ(f.pieces.size(), 2u);
  EXPECT_EQ(f.pieces[0].belowBytes, 8192);
  EXPECT_NEAR(f.pieces[1].perByte, 0.041e-9, 0.041e-9 * 0.05);
}

TEST(CalibrateFit, CollectivesFollowTheirTimes) {
  // Times generated with known algorithms on 8 ranks come back as those
  // algorithms; on 2 ranks, where tree and linear cost the same, Table 6.1's
  // choice stays.
  Machine truth = ipsc2();
  truth.collectives = {{"shift", CollectiveAlgorithm::Ring},
                       {"reduction", CollectiveAlgorithm::Exchange},
                       {"one_to_many_multicast", CollectiveAlgorithm::Linear},
                       {"many_to_many_multicast", CollectiveAlgorithm::Ring},
                       {"scatter", CollectiveAlgorithm::Tree},
                       {"gather", CollectiveAlgorithm::Linear}};
  const std::pair<const char *, Primitive> prims[] = {
      {"shift", Primitive::Shift},
      {"reduction", Primitive::Reduction},
      {"one_to_many_multicast", Primitive::OneToManyMulticast},
      {"many_to_many_multicast", Primitive::ManyToManyMulticast},
      {"scatter", Primitive::Scatter},
      {"gather", Primitive::Gather}};
  for (int procs : {8, 2}) {
    PrimitiveCosts costs(truth);
    std::vector<CollectivePoint> pts;
    for (auto &[name, prim] : prims)
      for (double b : {8.0, 512.0, 8192.0})
        pts.push_back({name, "MPI_X", b, costs.cost(prim, b, procs)});
    Machine m = ipsc2();
    auto choices = chooseCollectives(m, procs, pts);
    ASSERT_EQ(choices.size(), 6u);
    if (procs == 8) {
      for (auto &[name, alg] : truth.collectives) EXPECT_EQ(m.collectives.at(name), alg) << name;
    } else {
      EXPECT_EQ(m.collectives.at("shift"), CollectiveAlgorithm::Ring); // 1 vs 2 Transfers
      EXPECT_EQ(m.collectives.at("one_to_many_multicast"), CollectiveAlgorithm::Tree);
      EXPECT_EQ(m.collectives.at("scatter"), CollectiveAlgorithm::Linear);
      EXPECT_EQ(m.collectives.at("reduction"), CollectiveAlgorithm::Exchange); // 2 Transfers
    }
    for (auto &c : choices) EXPECT_LT(c.rmsLogError, 1e-9) << c.primitive;
  }
}
