//===- tests/costmodels/ThesisFiguresTest.cpp - The thesis's examples -----===//
//
// Each test builds the program of a figure of Gupta's thesis as a model,
// estimates it under the layout the thesis discusses, and checks the terms
// against the formula the thesis gives, evaluated here with the iPSC/2
// numbers of section 6.1.2 (8-byte words).
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

namespace dlayout::test {
namespace {

using K = Dependence::Kind;

//===----------------------------------------------------------------------===//
// Fig. 4.13: A(i, c1) = F(B(c2, i)), both blocked on N1 x N2 (Table 4.3)
//===----------------------------------------------------------------------===//

Program fig4_13(int64_t n) {
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n, n});
  b.array("B", {n, n});
  auto i = b.loop("I", b.c(1), b.p("N"), "", 1, true);
  b.stmt({i}, b.ref("A", {b.iv(i), b.c(3)}), {b.ref("B", {b.c(5), b.iv(i)})},
         {.loads = 1, .stores = 1});
  return b.build();
}

Layout blocked2(int64_t n1, int64_t n2) {
  return layout({n1, n2},
                {{"A", {block(0), block(1)}}, {"B", {block(0), block(1)}}});
}

TEST(Fig4_13, FourByTwoIsDScatterOfAQuarterColumnOverTwo) {
  const int64_t n = 64;
  Program p = fig4_13(n);
  Estimate e = run(p, blocked2(4, 2));
  auto t = comm(e, "S1", "B");
  ASSERT_EQ(t.size(), 1u);
  // <A(i,c1),1> is 2-synchronous with <B(c2,i),2>: D-Scatter(ceil(n/4), 2).
  EXPECT_EQ(t[0].primitive, "D-Scatter");
  EXPECT_EQ(t[0].messageWords, ceilDiv(n, 4));
  EXPECT_EQ(t[0].groupSize, 2);
  EXPECT_EQ(t[0].repetitions, 1);
  EXPECT_EQ(t[0].placement, ""); // hoisted out of the doall
  double m = ceilDiv(n, 4) * 8;
  EXPECT_NEAR(t[0].seconds, T(m) + (2 - 1) * T(m), 1e-12); // Transfer + Scatter
}

TEST(Fig4_13, TwoByFourIsDGatherOfAQuarterColumnOverTwo) {
  const int64_t n = 64;
  Estimate e = run(fig4_13(n), blocked2(2, 4));
  auto t = comm(e, "S1", "B");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].primitive, "D-Gather");
  EXPECT_EQ(t[0].messageWords, ceilDiv(n, 4));
  EXPECT_EQ(t[0].groupSize, 2);
  double m = ceilDiv(n, 4) * 8;
  EXPECT_NEAR(t[0].seconds, T(m) + (2 - 1) * T(m), 1e-12);
}

TEST(Fig4_2, AlignedDimensionsInternaliseEverything) {
  // A(i,c1) = B(c2,i) with A1 and B2 on the same mesh dimension, both
  // blocked alike: strictly synchronous (section 4.2.1's example), IDM only.
  const int64_t n = 64;
  Program p = fig4_13(n);
  Layout l = layout(
      {4}, {{"A", {block(0), collapsed()}}, {"B", {collapsed(), block(0)}}});
  Estimate e = run(p, l);
  EXPECT_EQ(e.communicationSeconds, 0);
  EXPECT_TRUE(comm(e, "S1").empty());
  EXPECT_GT(e.computationSeconds, 0);
  // Misaligned (B by rows instead) the same statement must communicate.
  Layout bad = layout(
      {4}, {{"A", {block(0), collapsed()}}, {"B", {block(0), collapsed()}}});
  EXPECT_GT(run(p, bad).communicationSeconds, 0);
}

//===----------------------------------------------------------------------===//
// Fig. 4.16: A(i, j) = B(j, j) on 4 x 2: tiling of the j loop
//===----------------------------------------------------------------------===//

Program fig4_16(int64_t n) {
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n, n});
  b.array("B", {n, n});
  auto j = b.loop("J", b.c(1), b.p("N"), "", 1, true);
  auto i = b.loop("I", b.c(1), b.p("N"), j, 1, true);
  b.stmt({j, i}, b.ref("A", {b.iv(i), b.iv(j)}),
         {b.ref("B", {b.iv(j), b.iv(j)})}, {.loads = 1, .stores = 1});
  return b.build();
}

TEST(Fig4_16, TilingGivesFourOneToManyMulticastsOfAQuarter) {
  const int64_t n = 64;
  EstimateOptions thesis;
  thesis.exactOwners = false;
  Estimate e = run(fig4_16(n), blocked2(4, 2), thesis);
  auto t = comm(e, "S1", "B");
  ASSERT_EQ(t.size(), 1u);
  // OneToManyMulticast(1, 4) in the i loop; tile size mlis(<B(j,j),1>, L1) =
  // ceil(n/4), les = 4 tiles: 4 * OneToManyMulticast(ceil(n/4), 4).
  EXPECT_EQ(t[0].primitive, "OneToManyMulticast");
  EXPECT_EQ(t[0].messageWords, ceilDiv(n, 4));
  EXPECT_EQ(t[0].groupSize, 4);
  EXPECT_EQ(t[0].repetitions, 4);
  EXPECT_NEAR(t[0].seconds, 4 * ceilLog2(4) * T(ceilDiv(n, 4) * 8), 1e-12);
}

// Beyond the thesis (exact owners): the tile of J's rows j multicast down
// the mesh column that holds A(., j); column c holds J's half c, which
// rows 2c and 2c + 1 of B's blocks hold: each column takes part in 2 of
// the 4 tiles, the two columns at once (ReferenceTerms::lineShare). On
// 4 x 4 each column in 1, on 8 x 2 in 4 of 8; on 2 x 8 in 1 of 2. Before,
// the tiles ran one after another: 4, 4, 8 and 2 multicasts.
TEST(Fig4_16, TheTilesOfEachMeshColumnRunBesideTheOthers) {
  const int64_t n = 64;
  struct Case { int64_t n1, n2, tiles, perColumn; };
  for (Case c : {Case{4, 2, 4, 2}, Case{4, 4, 4, 1}, Case{8, 2, 8, 4}, Case{2, 8, 2, 1}}) {
    auto t = comm(run(fig4_16(n), blocked2(c.n1, c.n2)), "S1", "B");
    ASSERT_EQ(t.size(), 1u) << c.n1 << " x " << c.n2;
    // A column's diagonal block: the J's both its column and a row block hold.
    const double m = double(ceilDiv(n, std::max(c.n1, c.n2))) * 8;
    const double tree = double(ceilLog2(c.n1)) * T(m);
    EXPECT_EQ(t[0].primitive, "OneToManyMulticast");
    EXPECT_EQ(t[0].repetitions, double(c.tiles)) << c.n1 << " x " << c.n2;
    EXPECT_NEAR(t[0].seconds, double(c.perColumn) * tree, 1e-12) << c.n1 << " x " << c.n2;
  }
}

// Beyond the thesis (exact owners): with the rows alone on 4 processors the
// tiles' roots are every member of the multicast group in turn, its group
// the same at every tile: one all-gather, Table 6.1's ManyToManyMulticast
// (p - 1) Shift(m) = 3 * 2 Transfer(m) on the half-duplex iPSC/2, where the
// thesis's 4 OneToManyMulticasts take 4 * 2 Transfer(m) -- and the validate
// executor passes the blocks round that ring. On 4 x 2 above the group
// moves with the tile (the mesh column of J): no all-gather.
TEST(Fig4_16, RootsInTurnOverTheirGroupAreAnAllGather) {
  const int64_t n = 64;
  Program prog = fig4_16(n);
  Layout rows = layout({4}, {{"A", {block(0), collapsed()}}, {"B", {block(0), collapsed()}}});
  const double m = ceilDiv(n, 4) * 8;
  auto exact = comm(run(prog, rows), "S1", "B");
  ASSERT_EQ(exact.size(), 1u);
  EXPECT_EQ(exact[0].primitive, "OneToManyMulticast");
  EXPECT_EQ(exact[0].repetitions, 4);
  EXPECT_NEAR(exact[0].seconds, 3 * 2 * T(m), 1e-12);
  EstimateOptions thesis;
  thesis.exactOwners = false;
  auto t = comm(run(prog, rows, thesis), "S1", "B");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_NEAR(t[0].seconds, 4 * ceilLog2(4) * T(m), 1e-12);
}

//===----------------------------------------------------------------------===//
// Fig. 4.19: A(i, j, c1) = F(B(i, c2, c3)) on N1 x N2 x N3 (composition)
//===----------------------------------------------------------------------===//

TEST(Fig4_19, CompositionOfIdmMulticastAndTransfer) {
  const int64_t n = 64, N1 = 4, N2 = 2, N3 = 2;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n, n, 4});
  b.array("B", {n, 4, 4});
  auto j = b.loop("J", b.c(1), b.p("N"), "", 1, true);
  auto i = b.loop("I", b.c(1), b.p("N"), j, 1, true);
  b.stmt({j, i}, b.ref("A", {b.iv(i), b.iv(j), b.c(1)}),
         {b.ref("B", {b.iv(i), b.c(2), b.c(3)})}, {.loads = 1, .stores = 1});
  Layout l = layout({N1, N2, N3}, {{"A", {block(0), block(1), block(2)}},
                                   {"B", {block(0), block(1), block(2)}}});
  // The thesis's probability 1/N3 that B(., ., 3) and A(., ., 1) share a
  // processor; with exact owners (the default) block 2 of 4 on N3 = 2
  // puts them apart: a certain Transfer.
  EstimateOptions thesis;
  thesis.exactOwners = false;
  Program prog = b.build();
  Estimate e = run(prog, l, thesis);
  auto exact = comm(run(prog, l), "S1", "B");
  ASSERT_EQ(exact.size(), 2u);
  EXPECT_EQ(exact[0].primitive, "Transfer");
  EXPECT_NEAR(exact[0].repetitions, 1, 1e-12);
  auto t = comm(e, "S1", "B");
  // IDM(ceil(n/N1)), OneToManyMulticast(1, N2), (1 - 1/N3) Transfer(1)
  // compose to (1 - 1/N3) Transfer(ceil(n/N1)) + OneToManyMulticast(
  // ceil(n/N1), N2), Transfer first (Table 4.6).
  ASSERT_EQ(t.size(), 2u);
  double m = ceilDiv(n, N1);
  EXPECT_EQ(t[0].primitive, "Transfer");
  EXPECT_EQ(t[0].messageWords, m);
  EXPECT_NEAR(t[0].repetitions, 1 - 1.0 / N3, 1e-12);
  EXPECT_NEAR(t[0].seconds, (1 - 1.0 / N3) * T(m * 8), 1e-12);
  EXPECT_EQ(t[1].primitive, "OneToManyMulticast");
  EXPECT_EQ(t[1].messageWords, m);
  EXPECT_EQ(t[1].groupSize, N2);
  EXPECT_NEAR(t[1].seconds, ceilLog2(N2) * T(m * 8), 1e-12);
  EXPECT_NEAR(e.communicationSeconds,
              (1 - 1.0 / N3) * T(m * 8) + ceilLog2(N2) * T(m * 8), 1e-12);
}

//===----------------------------------------------------------------------===//
// Fig. 4.20: pipelining of a boundary-Transfer
//===----------------------------------------------------------------------===//

Program fig4_20(int64_t n1, int64_t n2) {
  ModelBuilder b;
  b.param("N1", n1);
  b.param("N2", n2);
  b.array("A", {n2});
  b.array("B", {n2, n1});
  b.array("C", {n2, n1});
  auto j = b.loop("J", b.c(2), b.p("N1"));
  auto i = b.loop("I", b.c(2), b.p("N2"), j);
  auto s1 =
      b.stmt({j, i}, b.ref("A", {b.iv(i)}), {b.ref("A", {b.iv(i, 1, -1)})},
             {.loads = 1, .stores = 1, .fadd = 1});
  auto s2 = b.stmt({j, i}, b.ref("C", {b.iv(i), b.iv(j)}),
                   {b.ref("B", {b.iv(i), b.iv(j)}), b.ref("A", {b.iv(i)})},
                   {.loads = 2, .stores = 1, .fadd = 1});
  b.dep(s1, s1, K::Flow, "A", i, {"=", "<"}, {0, 1});
  b.dep(s1, s1, K::Anti, "A", j, {"<", ">"}, {1, -1});
  b.dep(s1, s1, K::Output, "A", j, {"<", "="}, {1, 0});
  b.dep(s1, s2, K::Flow, "A", "", {"=", "="}, {0, 0});
  b.dep(s2, s1, K::Anti, "A", j, {"<", "="}, {1, 0});
  return b.build();
}

TEST(Fig4_20, PipelinedBoundaryTransfers) {
  const int64_t n1 = 40, n2 = 64, N1 = 4;
  Program p = fig4_20(n1, n2);
  Layout l = layout({N1}, {{"A", {block(0)}},
                           {"B", {block(0), collapsed()}},
                           {"C", {block(0), collapsed()}}});
  EstimateOptions thesis; // the formula as section 4.5.3 gives it
  thesis.relayedPipeline = false;
  Estimate e = run(p, l, thesis);
  auto t = comm(e, "S1", "A");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].primitive, "Transfer");
  EXPECT_EQ(t[0].messageWords, 1);
  EXPECT_EQ(t[0].placement, "L2"); // inside the i loop: both loops type-2
  // delta = bd = 1, eta = les = N1, b2 = ceil(n2/N1), bdist = 0:
  //   delta (eta - 1) + max(delta, floor(delta * 1 * 1 * 1 / b2)) (n_j - 1)
  // = (N1 - 1) + (n_j - 1), the thesis's (n1 - 1 + N1 - 1) with n1 the
  // j loop's iteration count (here n_j = n1 - 1: J = 2..N1).
  double nj = n1 - 1;
  EXPECT_EQ(t[0].repetitions, (N1 - 1) + (nj - 1));
  EXPECT_NEAR(t[0].seconds, ((N1 - 1) + (nj - 1)) * T(8), 1e-12);
  // By default, on the half-duplex iPSC/2 with N1 = 4 > 2 processors, the
  // two inner ones receive A(i) and then send theirs on at every later j:
  // two Transfers a step.
  auto relayed = comm(run(p, l), "S1", "A");
  ASSERT_EQ(relayed.size(), 1u);
  EXPECT_EQ(relayed[0].repetitions, (N1 - 1) + 2 * (nj - 1));
  EXPECT_DOUBLE_EQ(relayed[0].repetitions * relayed[0].senders.share, nj);
  // A machine that sends and receives at once keeps the thesis's period.
  Machine duplex = ipsc2();
  duplex.collectives["shift"] = CollectiveAlgorithm::Ring;
  ASSERT_FALSE(duplex.halfDuplex());
  auto both = estimate(p, l, duplex);
  ASSERT_TRUE(both.ok());
  auto overlapped = comm(*both, "S1", "A");
  ASSERT_EQ(overlapped.size(), 1u);
  EXPECT_EQ(overlapped[0].repetitions, (N1 - 1) + (nj - 1));
  // On two processors one sends and the other receives: the thesis's.
  Layout two = layout({2}, {{"A", {block(0)}},
                            {"B", {block(0), collapsed()}},
                            {"C", {block(0), collapsed()}}});
  auto pair = comm(run(p, two), "S1", "A");
  ASSERT_EQ(pair.size(), 1u);
  EXPECT_EQ(pair[0].repetitions, 1 + (nj - 1));
  // The pipeline's steps are not its messages: each block but the last
  // sends its edge A(i) at every j, n_j of them.
  EXPECT_DOUBLE_EQ(t[0].repetitions * t[0].senders.share, nj);
  EXPECT_FALSE(t[0].senders.includes({N1 - 1}));
  // A(i) in S2 is strictly synchronous with C(i, j): nothing to send.
  EXPECT_EQ(commSeconds(e, "S2"), 0);

  // S1's recurrence pipelines too: the whole chain of n_i iterations at the
  // first j, a block of b2 at each later one; the thesis's sequential loop
  // (C = n_i) at every j without that extension.
  const double ni = n2 - 1, b2 = n2 / N1;
  const Estimate piped = run(p, l);
  const EstimateTerm *s1 = computation(piped, "S1");
  ASSERT_NE(s1, nullptr);
  EXPECT_DOUBLE_EQ(s1->repetitions, ni + (nj - 1) * b2);
  EstimateOptions sequential;
  sequential.placement = PlacementSource::SequentialLoops;
  const Estimate whole = run(p, l, sequential);
  const EstimateTerm *s1Whole = computation(whole, "S1");
  ASSERT_NE(s1Whole, nullptr);
  EXPECT_DOUBLE_EQ(s1Whole->repetitions, nj * ni);

  // Without pipelining: n_j * (N1 - 1) * Transfer(1).
  EstimateOptions o;
  o.pipelining = false;
  auto u = comm(run(p, l, o), "S1", "A");
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].repetitions, nj * (N1 - 1));
  EXPECT_DOUBLE_EQ(u[0].repetitions * u[0].senders.share, nj);
}

//===----------------------------------------------------------------------===//
// Fig. 5.10: a triangular loop, blocked against cyclic (Eqs. 3.1, 3.2)
//===----------------------------------------------------------------------===//

TEST(Fig5_10, TriangularLoopBlockedVersusCyclic) {
  const int64_t n = 64, N1 = 4;
  ModelBuilder b;
  b.param("N", n);
  b.array("D", {n});
  auto i = b.loop("I", b.c(1), b.p("N"));
  auto j = b.loop("J", b.c(1), b.iv(i), i, 1, true);
  OpCounts ops{.loads = 1, .stores = 1, .fadd = 1};
  b.stmt({i, j}, b.ref("D", {b.iv(j)}), {b.ref("D", {b.iv(j)})}, ops);
  Program p = b.build();
  double t = 0.5e-6 + 0.5e-6 + 5e-6; // t(S): a load, a store, an add
  // The j range is ceil(n/2) (the mean of i); section 5.2.2: blocked costs
  // t * n * ceil(n/N1), cyclic t * n * ceil(n/(2 N1)).
  Estimate blocked = run(p, layout({N1}, {{"D", {block(0)}}}));
  Estimate cyc = run(p, layout({N1}, {{"D", {cyclic(0)}}}));
  EXPECT_NEAR(blocked.computationSeconds, t * n * ceilDiv(n, N1), 1e-12);
  EXPECT_NEAR(cyc.computationSeconds, t * n * ceilDiv(n, 2 * N1), 1e-12);
  // Speedup about N1/2 against N1.
  EXPECT_NEAR(blocked.computationSeconds / cyc.computationSeconds, 2.0, 1e-9);
  EXPECT_EQ(blocked.communicationSeconds, 0);
}

//===----------------------------------------------------------------------===//
// Fig. 5.11: A(i) = F(B(3i)): block sizes (1, 3) versus (1, 1)
//===----------------------------------------------------------------------===//

TEST(Fig5_11, BlockSizesThatHonourTheStrideInternalise) {
  const int64_t n = 64, N1 = 4;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n});
  b.array("B", {3 * n});
  auto i = b.loop("I", b.c(1), b.p("N"), "", 1, true);
  b.stmt({i}, b.ref("A", {b.iv(i)}), {b.ref("B", {b.iv(i, 3)})},
         {.loads = 1, .stores = 1});
  Program p = b.build();
  // (1, 3): strictly synchronous (Theorem 4.1, second set): zero.
  Estimate good =
      run(p, layout({N1}, {{"A", {cyclic(0)}}, {"B", {blockCyclic(0, 3)}}}));
  EXPECT_EQ(good.communicationSeconds, 0);
  // (1, 1): b = 1 is no multiple of 3, no regularity: repeated Transfers
  // inside the loop, n * (1 - 1/N1) * Transfer(1).
  Estimate bad = run(p, layout({N1}, {{"A", {cyclic(0)}}, {"B", {cyclic(0)}}}));
  EXPECT_NEAR(bad.communicationSeconds, n * (1 - 1.0 / N1) * T(8), 1e-12);
}

//===----------------------------------------------------------------------===//
// tred2 statement 16: the blocked constraint's quality (section 6.2.1)
//===----------------------------------------------------------------------===//

TEST(Tred2Statement16, BoundaryTransferQualityIsPoint134Seconds) {
  // E(I) = D(L) with I = N + 2 - II, L = I - 1, inside DO II = 2, N, which
  // must contain the communication (D is redefined later in each II
  // iteration: modelled by S2). Section 6.2.1: the lone blocked constraint
  // is worth 0.134 s for n = 512 on N1 = sqrt(16) = 4.
  const int64_t n = 512, N1 = 4;
  ModelBuilder b;
  b.param("N", n);
  b.array("D", {n});
  b.array("E", {n});
  auto ii = b.loop("II", b.c(2), b.p("N"));
  auto s1 =
      b.stmt({ii}, b.ref("E", {b.iv(ii, -1, n + 2)}),
             {b.ref("D", {b.iv(ii, -1, n + 1)})}, {.loads = 1, .stores = 1});
  auto s2 =
      b.stmt({ii}, b.ref("D", {b.iv(ii, -1, n)}),
             {b.ref("E", {b.iv(ii, -1, n + 2)})}, {.loads = 1, .stores = 1});
  b.dep(s1, s2, K::Flow, "E", "", {"="}, {0});
  b.dep(s2, s1, K::Flow, "D", ii, {"<"}, {1});
  Program p = b.build();
  auto cost = [&](DimLayout d) {
    Layout l = layout({N1}, {{"D", {d}}, {"E", {d}}});
    return commSeconds(run(p, l), "S1", "D");
  };
  double cyclicCost = cost(cyclic(0)), blockedCost = cost(block(0));
  // Eq. 4.4 in a type-2 loop: bd (les - 1) Transfer(1), r = n - 1.
  //   cyclic:  bd = ceil((n-1)/(N1*1)) = 128, les = N1: 128 * 3
  //   blocked: bd = ceil((n-1)/(N1*128)) = 1,   les = N1: 1 * 3
  double r = n - 1;
  EXPECT_NEAR(cyclicCost, ceilDiv(r, N1) * (N1 - 1) * T(8), 1e-9);
  EXPECT_NEAR(blockedCost, ceilDiv(r, N1 * ceilDiv(n, N1)) * (N1 - 1) * T(8),
              1e-9);
  EXPECT_NEAR(cyclicCost - blockedCost, 0.134, 0.0005);
}

} // namespace
} // namespace dlayout::test

namespace dlayout::test {
namespace {

//===----------------------------------------------------------------------===//
// Table 4.3, rows 4 and 6: every rhs (lhs) sub-reference constant
//===----------------------------------------------------------------------===//

Program diagonal(bool lhsDiagonal, const std::string &reduction = "") {
  const int64_t n = 64;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n, n});
  b.array("B", {n, n});
  auto i = b.loop("I", b.c(1), b.p("N"), "", 1, true);
  if (lhsDiagonal) // A(i, i) = B(3, 5)
    b.stmt({i}, b.ref("A", {b.iv(i), b.iv(i)}), {b.ref("B", {b.c(3), b.c(5)})},
           {.loads = 1, .stores = 1});
  else // A(3, 5) = F(B(i, i))
    b.stmt({i}, b.ref("A", {b.c(3), b.c(5)}), {b.ref("B", {b.iv(i), b.iv(i)})},
           {.loads = 1, .stores = 1}, reduction);
  return b.build();
}

TEST(Table4_3, Row4EveryRhsConstant) {
  // (1 - 1/N_s) Transfer(1) + OneToManyMulticast(1, les(fv(s1, s3))).
  Estimate e = run(diagonal(true), blocked2(2, 2));
  auto t = comm(e, "S1", "B");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].primitive, "Transfer");
  EXPECT_NEAR(t[0].seconds, (1 - 1.0 / 2) * T(8), 1e-12);
  EXPECT_EQ(t[1].primitive, "OneToManyMulticast");
  EXPECT_EQ(t[1].groupSize, 2);
  EXPECT_NEAR(t[1].seconds, ceilLog2(2) * T(8), 1e-12);
}

TEST(Table4_3, Row6EveryLhsConstant) {
  // (1 - 1/N_s) Transfer + D-Gather(mlis(fv), les(fv)), or a Reduction.
  const double m = 32; // mlis(<B(i,i),1>) on 2 processors, n = 64
  Estimate e = run(diagonal(false), blocked2(2, 2));
  auto t = comm(e, "S1", "B");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].primitive, "Transfer");
  EXPECT_EQ(t[0].messageWords, m);
  EXPECT_NEAR(t[0].seconds, (1 - 1.0 / 2) * T(8 * m), 1e-12);
  EXPECT_EQ(t[1].primitive, "D-Gather");
  EXPECT_EQ(t[1].groupSize, 2);
  EXPECT_NEAR(t[1].seconds, T(8 * m) + (2 - 1) * T(8 * m), 1e-12);
  auto r = comm(run(diagonal(false, "sum"), blocked2(2, 2)), "S1", "B");
  ASSERT_EQ(r.size(), 2u); // Reduction first (Table 4.6), reduced data
  EXPECT_EQ(r[0].primitive, "Reduction");
  EXPECT_EQ(r[0].messageWords, 1);
  EXPECT_NEAR(r[0].seconds, ceilLog2(2) * T(8), 1e-12);
  EXPECT_EQ(r[1].primitive, "Transfer");
  EXPECT_NEAR(r[1].seconds, (1 - 1.0 / 2) * T(8), 1e-12);
}

} // namespace
} // namespace dlayout::test
