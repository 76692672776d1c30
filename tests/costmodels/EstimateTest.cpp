//===- tests/costmodels/EstimateTest.cpp - The estimator's other rules ----===//
//
// Placement (Fig. 4.4), Table 4.4, the computational rules of section 3.2.2
// and 3.3, reductions, replication, validation, the JSON document, and the
// build-once / evaluate-many interface.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"
#include "costmodels/EstimateJson.h"

#include <cstdlib>
#include <fstream>
#include <set>

namespace dlayout::test {
namespace {

using K = Dependence::Kind;

//===----------------------------------------------------------------------===//
// Fig. 4.5: communication placed in the j loop, vectorised over the doall i
//===----------------------------------------------------------------------===//

TEST(Fig4_5, CommunicationIsCombinedOverTheDoallOutsideLmax) {
  const int64_t n = 64, N = 4;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n, n});
  b.array("B", {n, n});
  b.array("D", {n});
  auto i = b.loop("I", b.c(1), b.p("N"));
  auto j = b.loop("J", b.c(2), b.p("N"), i);
  auto s1 = b.stmt({i, j}, b.ref("A", {b.iv(i), b.iv(j)}),
                   {b.ref("A", {b.iv(i), b.iv(j, 1, -1)}),
                    b.ref("B", {b.iv(i), b.iv(j, 1, -1)})},
                   {.loads = 2, .stores = 1, .fadd = 1});
  auto s2 = b.stmt(
      {i, j}, b.ref("B", {b.iv(i), b.iv(j)}),
      {b.ref("A", {b.iv(i), b.iv(j)}), b.ref("A", {b.iv(i), b.iv(j, 1, -1)})},
      {.loads = 2, .stores = 1, .fadd = 1});
  auto s3 =
      b.stmt({i}, b.ref("D", {b.iv(i)}),
             {b.ref("A", {b.iv(i), b.p("N")}), b.ref("D", {b.iv(i, 1, -1)})},
             {.loads = 2, .stores = 1, .fadd = 1});
  b.dep(s1, s1, K::Flow, "A", j, {"=", "<"}, {0, 1});
  b.dep(s2, s1, K::Flow, "B", j, {"=", "<"}, {0, 1});
  b.dep(s1, s2, K::Flow, "A", "", {"=", "="}, {0, 0});
  b.dep(s1, s2, K::Flow, "A", j, {"=", "<"}, {0, 1});
  b.dep(s1, s3, K::Flow, "A", "", {"="}, {0});
  b.dep(s3, s3, K::Flow, "D", i, {"<"}, {1});
  Program p = b.build();
  // Columns of A and B distributed: B(i, j-1) crosses a block boundary in
  // the j loop (type-2, lmax = 2), while i, a doall for S1 and S2 once S3
  // is split off, is combined: (N - 1) boundary Transfers of n elements.
  Layout l = layout({N}, {{"A", {collapsed(), block(0)}},
                          {"B", {collapsed(), block(0)}},
                          {"D", {block(0)}}});
  Estimate e = run(p, l);
  auto t = comm(e, s1, "B");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].primitive, "Transfer");
  EXPECT_EQ(t[0].placement, j);
  EXPECT_EQ(t[0].messageWords, n);
  EXPECT_EQ(t[0].repetitions, N - 1);
  EXPECT_NEAR(t[0].seconds, (N - 1) * T(8 * n), 1e-12);
  // S3 runs sequentially in i (its own recurrence): C_i = n_i.
  EXPECT_NEAR(computation(e, s3)->repetitions, n, 1e-12);
}

//===----------------------------------------------------------------------===//
// Table 4.4 and the imbalance rule: unknown subscripts
//===----------------------------------------------------------------------===//

TEST(Table4_4, UnknownSubscriptsUseCollectiveCommunication) {
  const int64_t n = 64, N = 4;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n});
  b.array("B", {n});
  auto i = b.loop("I", b.c(1), b.p("N"), "", 1, true);
  auto s1 = b.stmt({i}, b.ref("A", {b.iv(i)}), {b.refOf("B", {b.unknown(1)})},
                   {.loads = 1, .stores = 1});
  auto s2 = b.stmt({i}, b.refOf("A", {b.unknown(1)}), {b.ref("B", {b.c(7)})},
                   {.loads = 1, .stores = 1});
  auto s3 = b.stmt({i}, b.ref("A", {b.c(7)}), {b.refOf("B", {b.unknown(1)})},
                   {.loads = 1, .stores = 1});
  Program p = b.build();
  Estimate e = run(p, layout({N}, {{"A", {block(0)}}, {"B", {block(0)}}}));
  double share = ceilDiv(n, N) * 8;
  // single / unknown: ManyToManyMulticast(ceil(n/N), N)
  auto t1 = comm(e, s1);
  ASSERT_EQ(t1.size(), 1u);
  EXPECT_EQ(t1[0].primitive, "ManyToManyMulticast");
  EXPECT_NEAR(t1[0].seconds, (N - 1) * 2 * T(share), 1e-12);
  // unknown / constant: OneToManyMulticast(1, N)
  auto t2 = comm(e, s2);
  ASSERT_EQ(t2.size(), 1u);
  EXPECT_EQ(t2[0].primitive, "OneToManyMulticast");
  EXPECT_NEAR(t2[0].seconds, ceilLog2(N) * T(8), 1e-12);
  // constant / unknown: Gather(ceil(n/N), N)
  auto t3 = comm(e, s3);
  ASSERT_EQ(t3.size(), 1u);
  EXPECT_EQ(t3[0].primitive, "Gather");
  EXPECT_NEAR(t3[0].seconds, (N - 1) * T(share), 1e-12);
  // The unknown lhs of S2 spreads its n iterations with imbalance imb:
  // C = ceil(n / max(N / imb, 1)).
  EstimateOptions o;
  o.imbalance = 1.5;
  double t = 1e-6;
  EXPECT_NEAR(
      computation(
          run(p, layout({N}, {{"A", {block(0)}}, {"B", {block(0)}}}), o), s2)
          ->seconds,
      std::ceil(n / std::max(N / 1.5, 1.0)) * t, 1e-12);
}

TEST(Table4_4, PartlyKnownSubscriptIsRegularInItsLoop) {
  // olda's XRSPQ(MRSIJ) = XIJ(MJ), MRSIJ = MJ + x(MI) (section 6.2.4): the
  // subscript is single-index in MJ; communication stays inside MI and uses
  // Transfers instead of a ManyToManyMulticast.
  const int64_t n = 64, N = 4;
  ModelBuilder b;
  b.param("N", n);
  b.array("X", {n * n});
  b.array("Y", {n});
  auto mi = b.loop("MI", b.c(1), b.p("N"), "", 1, true);
  auto mj = b.loop("MJ", b.c(1), b.p("N"), mi, 1, true);
  b.stmt({mi, mj}, b.refOf("X", {b.unknown(1, b.iv(mj))}),
         {b.ref("Y", {b.iv(mj)})}, {.loads = 1, .stores = 1});
  Estimate e =
      run(b.build(), layout({N}, {{"X", {cyclic(0)}}, {"Y", {cyclic(0)}}}));
  auto t = comm(e, "S1");
  ASSERT_FALSE(t.empty());
  for (const auto &x : t) {
    EXPECT_NE(x.primitive, "ManyToManyMulticast");
    EXPECT_EQ(x.placement, mi);
  }
  // The x part is unknown, so synchrony cannot be proved: a speed-ratio of
  // one gives 2 (N > 1) Transfer(mlis), per MI iteration.
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].primitive, "Transfer");
  EXPECT_EQ(t[0].messageWords, ceilDiv(n, N));
  EXPECT_NEAR(t[0].seconds, n * 2 * T(8 * ceilDiv(n, N)), 1e-12);
}

//===----------------------------------------------------------------------===//
// Section 3.2.2: multiple-index subscripts and several varying subscripts
//===----------------------------------------------------------------------===//

TEST(Computation, MultipleIndexFreezesTheOuterLoop) {
  const int64_t n = 32, N = 4;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {2 * n});
  auto i = b.loop("I", b.c(1), b.p("N"), "", 1, true);
  auto j = b.loop("J", b.c(1), b.p("N"), i, 1, true);
  AffineExpr ij = b.iv(i);
  ij.coeffs[j] = 1;
  b.stmt({i, j}, b.ref("A", {ij}), {}, {.stores = 1});
  EstimateOptions thesis;
  thesis.exactOwners = false;
  Estimate e = run(b.build(), layout({N}, {{"A", {block(0)}}}), thesis);
  // C_j by Eq. 3.2 (b = 2n/N = 16, r = n = 32): 16 * floor(32/64) +
  // min(16, ceil(32)) = 16; C_i = n (frozen).
  EXPECT_NEAR(computation(e, "S1")->repetitions, n * 16.0, 1e-12);

  // Owners counted (exactOwners, the default): the pairs (I, J) with I + J
  // in 33..48, the third block, are the most: sum over x of 65 - x = 392.
  Estimate exact = run(b.build(), layout({N}, {{"A", {block(0)}}}));
  EXPECT_NEAR(computation(exact, "S1")->repetitions, 392.0, 1e-12);
}

TEST(Computation, AGridRowPerProcessorDividesTheOuterLoop) {
  // Relax's A((IY-1)*NX + IX) over NX x NY, blocked on NY processors: each
  // holds one row of the grid, so each runs NX instances. Eq. 3.2 on IX
  // alone (IY frozen) would divide nothing: NX * NY.
  const int64_t nx = 16, ny = 8;
  ModelBuilder b;
  b.array("A", {nx * ny});
  auto iy = b.loop("IY", b.c(1), b.c(ny), "", 1, true);
  auto ix = b.loop("IX", b.c(1), b.c(nx), iy, 1, true);
  AffineExpr sub = b.iv(ix);
  sub.coeffs[iy] = nx;
  sub.constant = -nx;
  b.stmt({iy, ix}, b.ref("A", {sub}), {}, {.stores = 1});
  Estimate e = run(b.build(), layout({ny}, {{"A", {block(0)}}}));
  EXPECT_NEAR(computation(e, "S1")->repetitions, double(nx), 1e-12);
  // Cyclic: consecutive IX on consecutive processors, nx / ny rows' worth.
  Estimate c = run(b.build(), layout({ny}, {{"A", {cyclic(0)}}}));
  EXPECT_NEAR(computation(c, "S1")->repetitions, double(nx), 1e-12);
}

TEST(Computation, SeveralVaryingSubscriptsTakeTheMinimum) {
  // Fig. 3.5: A(i, i) on 2 x 4: the terms n/2 and n/4 give n/4.
  const int64_t n = 64;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n, n});
  auto i = b.loop("I", b.c(1), b.p("N"), "", 1, true);
  b.stmt({i}, b.ref("A", {b.iv(i), b.iv(i)}), {}, {.stores = 1});
  Estimate e = run(b.build(), layout({2, 4}, {{"A", {block(0), block(1)}}}));
  EXPECT_NEAR(computation(e, "S1")->repetitions, n / 4.0, 1e-12);
}

TEST(Computation, ReachingProbabilityScalesBothParts) {
  const int64_t n = 64, N = 4;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n});
  b.array("B", {n});
  auto i = b.loop("I", b.c(1), b.p("N"), "", 1, true);
  auto s = b.stmt({i}, b.ref("A", {b.iv(i)}), {b.ref("B", {b.c(1)})},
                  {.loads = 1, .stores = 1});
  Program p = b.build();
  Layout l = layout({N}, {{"A", {block(0)}}, {"B", {block(0)}}});
  Estimate full = run(p, l);
  b.probability(s, 0.25);
  Estimate quarter = run(b.build(), l);
  EXPECT_NEAR(quarter.computationSeconds, 0.25 * full.computationSeconds,
              1e-15);
  EXPECT_NEAR(quarter.communicationSeconds, 0.25 * full.communicationSeconds,
              1e-15);
  // single / constant (Table 4.2): OneToManyMulticast(1, les = N).
  EXPECT_NEAR(full.communicationSeconds, ceilLog2(N) * T(8), 1e-12);
}

//===----------------------------------------------------------------------===//
// Section 3.3: overlap
//===----------------------------------------------------------------------===//

/// Fig. 3.6: A(i) = F(A(k)) for i = 1..n, a flow dependence from iteration k
/// to the later ones; the program and its statement.
std::pair<Program, std::string> fig3_6(int64_t n, int64_t k) {
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n});
  auto i = b.loop("I", b.c(1), b.p("N"));
  auto s = b.stmt({i}, b.ref("A", {b.iv(i)}), {b.ref("A", {b.c(k)})},
                  {.loads = 1, .stores = 1});
  b.dep(s, s, K::Flow, "A", i, {"<"}, {std::nullopt});
  Program p = b.build();
  return {p, s};
}

TEST(Overlap, OneToManyDependenceSplitsTheLoop) {
  // Fig. 3.6: A(i) = F(A(k)), k = 20: C = C^i + 1 + C^f by Eq. 3.2.
  const int64_t n = 64, N = 4, k = 20;
  const auto [p, s] = fig3_6(n, k);
  Layout l = layout({N}, {{"A", {block(0)}}});
  // Eq. 3.2 with alpha = s = 1 on blocks of b = 16: the initial part
  // (k - 1 iterations) and the final part (n - k) are each spread over N.
  auto C = [](double r, double b, double N) {
    return b * std::floor(r / (N * b)) +
           std::min(b, std::ceil(std::fmod(r, N * b)));
  };
  double expected = C(k - 1, 16, N) + 1 + C(n - k, 16, N);
  EXPECT_NEAR(computation(run(p, l), s)->repetitions, expected, 1e-12);
  EstimateOptions o;
  o.overlap = false;
  EXPECT_NEAR(computation(run(p, l, o), s)->repetitions, n, 1e-12);
}

TEST(Overlap, TheSplitLoopMulticastsToEachPartsOwners) {
  // Fig. 3.6 split at k = 20: A(k) goes to the owners of the iterations up to
  // k before them, and (its new value) to those after k before those; the
  // executor does the same (validate's fig3_6-split-bytes).
  const int64_t n = 64, N = 4, k = 20;
  const auto [p, s] = fig3_6(n, k);
  auto groups = [&](const Layout &l) {
    std::multiset<int64_t> g;
    for (const auto &t : comm(run(p, l), s, "A")) {
      EXPECT_EQ(t.primitive, "OneToManyMulticast") << t.rule;
      g.insert(t.groupSize);
    }
    return g;
  };
  // Blocks of 16: 1..20 on coordinates 0 and 1 (A(20)'s owner), 21..64 on
  // 1, 2 and 3.
  EXPECT_EQ(groups(layout({N}, {{"A", {block(0)}}})), (std::multiset<int64_t>{2, 3}));
  // Cyclic: every coordinate owns iterations on both sides.
  EXPECT_EQ(groups(layout({N}, {{"A", {cyclic(0)}}})), (std::multiset<int64_t>{4, 4}));
}

TEST(Overlap, ConstantDistanceOverlapsWithinABlock) {
  // Fig. 3.7: A(i) = F(A(i - d)), d = 3, blocked on 4:
  // O = min(d - 1, floor(b/(|a| s))) * (ceil(|a| r / b) - 1).
  const int64_t n = 64, N = 4, d = 3;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n});
  auto i = b.loop("I", b.c(d + 1), b.p("N"));
  auto s = b.stmt({i}, b.ref("A", {b.iv(i)}), {b.ref("A", {b.iv(i, 1, -d)})},
                  {.loads = 1, .stores = 1});
  b.dep(s, s, K::Flow, "A", i, {"<"}, {d});
  Layout l = layout({N}, {{"A", {block(0)}}});
  double r = n - d, bsz = 16;
  double O = std::min(double(d - 1), bsz) * (std::ceil(r / bsz) - 1);
  EXPECT_NEAR(computation(run(b.build(), l), s)->repetitions, (n - d) - O,
              1e-12);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

TEST(Reduction, ScalarReductionIsPartitionedAndReduced) {
  const int64_t n = 64, N = 4;
  ModelBuilder b;
  b.param("N", n);
  b.array("X", {n});
  auto i = b.loop("I", b.c(1), b.p("N"));
  auto s = b.scalarStmt({i}, "S", {b.ref("X", {b.iv(i)})},
                        {.loads = 1, .fadd = 1}, "sum");
  b.dep(s, s, K::Flow, "S", i, {"<"}, {1});
  Program p = b.build();
  Layout l = layout({N}, {{"X", {cyclic(0)}}});
  Estimate e = run(p, l);
  double t = 0.5e-6 + 5e-6;
  EXPECT_NEAR(computation(e, s)->seconds, ceilDiv(n, N) * t, 1e-12);
  auto c = comm(e, s);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].primitive, "Reduction"); // Table 4.2: reduction op
  // Every processor needs the sum (the scalar is replicated): recursive
  // doubling, an exchange a step, two Transfers on the half-duplex iPSC/2.
  EXPECT_NEAR(c[0].seconds, 2 * ceilLog2(N) * T(8), 1e-12);
  // The thesis's Table 6.1 tree, which leaves it at the root.
  EstimateOptions thesis;
  thesis.exactOwners = false;
  auto tree = comm(run(p, l, thesis), s);
  ASSERT_EQ(tree.size(), 1u);
  EXPECT_NEAR(tree[0].seconds, ceilLog2(N) * T(8), 1e-12);
  // Read literally, Eq. 3.1 leaves a scalar reduction sequential.
  EstimateOptions o;
  o.parallelReductions = false;
  EXPECT_NEAR(computation(run(p, l, o), s)->seconds, n * t, 1e-12);
}

TEST(Reduction, IntoAScalarReachesEveryProcessorOfTheDimension) {
  // S = S + X(I), I = 1..8, X(64) blocked over 4 (b = 16): the operands lie
  // on one processor (les = 1), but S is replicated: every processor of the
  // dimension needs the sum, so the Reduction spans all 4 (the thesis's
  // Reduction(1, les) would cost nothing).
  const int64_t n = 64, N = 4;
  ModelBuilder b;
  b.array("X", {n});
  auto i = b.loop("I", b.c(1), b.c(8));
  auto s = b.scalarStmt({i}, "S", {b.ref("X", {b.iv(i)})},
                        {.loads = 1, .fadd = 1}, "sum");
  b.dep(s, s, K::Flow, "S", i, {"<"}, {1});
  Estimate e = run(b.build(), layout({N}, {{"X", {block(0)}}}));
  auto c = comm(e, s);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].primitive, "Reduction");
  EXPECT_EQ(c[0].groupSize, N);
  EXPECT_NEAR(c[0].seconds, 2 * ceilLog2(N) * T(8), 1e-12); // an all-reduce
}

TEST(Reduction, IntoAScalarCombinesOnceWhateverItsOperands) {
  // S = S + X(I) * Y(I), X and Y blocked alike over 4: the instances run at
  // X(I)'s owner, the home, which holds Y(I) too, and the partial results
  // meet in one Reduction (the executor's one MPI_Allreduce), not one per
  // operand. Y cyclic instead is brought to X's owners first.
  const int64_t n = 64, N = 4;
  ModelBuilder b;
  b.param("N", n);
  b.array("X", {n});
  b.array("Y", {n});
  auto i = b.loop("I", b.c(1), b.p("N"));
  auto s = b.scalarStmt({i}, "S", {b.ref("X", {b.iv(i)}), b.ref("Y", {b.iv(i)})},
                        {.loads = 2, .fadd = 1, .fmul = 1}, "sum");
  b.dep(s, s, K::Flow, "S", i, {"<"}, {1});
  Program p = b.build();
  auto c = comm(run(p, layout({N}, {{"X", {block(0)}}, {"Y", {block(0)}}})), s);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].primitive, "Reduction");
  EXPECT_EQ(c[0].array, "X");
  c = comm(run(p, layout({N}, {{"X", {block(0)}}, {"Y", {cyclic(0)}}})), s);
  ASSERT_EQ(c.size(), 2u);
  for (const EstimateTerm &t : c)
    EXPECT_EQ(t.primitive == "Reduction", t.array == "X") << t.primitive << " of " << t.array;
}

TEST(Reduction, OnlyOverTheLoopsItReducesOver) {
  // C(I,J) = C(I,J) + B(J,K) reduces over K only. With C's I and B's J on
  // one mesh dimension, B(J,K) varies in J where C(I,J) stays on one
  // processor: Table 4.2's constant / single pair, and "reduction op" asks
  // for a reduction in that loop (J), which there is not: the elements are
  // gathered (every C(I,J) is a different element), not combined.
  const int64_t n = 16, N = 4;
  const auto [p, s] = sumOverK(n, {{"B", "J", "K"}});
  Layout l = layout({N}, {{"C", {block(0), collapsed()}},
                          {"B", {block(0), collapsed()}}});
  auto c = comm(run(p, l), s, "B");
  ASSERT_FALSE(c.empty());
  for (const auto &t : c)
    EXPECT_NE(t.primitive, "Reduction") << t.rule;
  auto gather = std::find_if(c.begin(), c.end(),
                             [](const EstimateTerm &t) { return t.primitive == "Gather"; });
  ASSERT_NE(gather, c.end());
  EXPECT_EQ(gather->groupSize, N);
}

TEST(Gather, ToEachTilesReceiverAtOnce) {
  // C(I,J) = C(I,J) + A(I,K) * B(K,J), every array's rows blocked over 4:
  // the instances run at A(I,K)'s owner, C's; for each block of I (a tile,
  // section 4.4.3) that owner gathers B's rows from all four, and the
  // thesis repeats Gather(m, 4) per tile. The four go to different
  // receivers at once: every processor sends its rows to each receiver,
  // Gather(m, 4) + 3 Transfer(m), which is Table 6.1's
  // ManyToManyMulticast(m, 4) = 3 Shift(m). Under the thesis's formulas,
  // 4 Gathers.
  const int64_t n = 16, N = 4;
  const auto [p, s] = sumOverK(n, {{"A", "I", "K"}, {"B", "K", "J"}});
  Layout l = layout({N}, {{"C", {block(0), collapsed()}}, {"A", {block(0), collapsed()}},
                          {"B", {block(0), collapsed()}}});
  const double m = 8.0 * n * n / N; // B's rows on one processor, every J
  EXPECT_NEAR(commSeconds(run(p, l), s, "B"), (N - 1) * 2 * T(m), 1e-12);
  EstimateOptions thesis;
  thesis.exactOwners = false;
  EXPECT_NEAR(commSeconds(run(p, l, thesis), s, "B"), N * (N - 1) * T(m), 1e-12);
}

TEST(Reduction, IntoArrayElementsCarriesEveryPartialResultFormed) {
  // C(I,J) = C(I,J) + A(I,K) * B(K,J), A's columns (K) and C's columns (J)
  // blocked over 4, I and B's K local: each instance runs at A(I,K)'s owner
  // (model/Reduction.h), which forms a partial result for every C(I,J),
  // I and J alike. The Reduction of A's terms combines them all, not one
  // per I: the thesis's Reduction(1, N) for a scalar, vectorised over the
  // lhs's loops. Under the thesis's own formulas (no exact owners), one per
  // I.
  const int64_t n = 16, N = 4;
  const auto [p, s] = sumOverK(n, {{"A", "I", "K"}, {"B", "K", "J"}});
  Layout l = layout({N}, {{"C", {collapsed(), block(0)}}, {"A", {collapsed(), block(0)}},
                          {"B", {collapsed(), collapsed()}}});
  for (bool exact : {true, false}) {
    EstimateOptions o;
    o.exactOwners = exact;
    const std::vector<EstimateTerm> terms = comm(run(p, l, o), s, "A");
    // With exact owners, the partials of C's N column blocks go to their N
    // owners at once (PartialsExchange.cpp): every home sends n * n / N to
    // each, every owner gathers N - 1, Gather(n * n / N, N) + (N - 1)
    // Transfers; under the thesis's formulas, one Reduction of n partials
    // per I, N of them.
    const char *combine = exact ? "Gather" : "Reduction";
    auto red = std::find_if(terms.begin(), terms.end(),
                            [&](const EstimateTerm &t) { return t.primitive == combine; });
    ASSERT_NE(red, terms.end()) << "exact owners " << exact;
    EXPECT_EQ(red->groupSize, N);
    EXPECT_EQ(red->repetitions, exact ? 1 : N) << red->rule;
    EXPECT_EQ(red->messageWords, exact ? double(n * n / N) : double(n)) << red->rule;
    auto more = std::find_if(terms.begin(), terms.end(),
                             [](const EstimateTerm &t) { return t.primitive == "Transfer"; });
    if (exact) {
      ASSERT_NE(more, terms.end());
      EXPECT_EQ(more->repetitions, N - 1);
      EXPECT_EQ(more->messageWords, red->messageWords);
    }
  }
}

TEST(Reduction, IntoAScalarIsCombinedOncePerExecutionOfItsRegion) {
  // DO I; DO J: G = E(J); DO K: G = G + A(K,J), A's columns blocked over 4.
  // G = E(J) starts a fresh sum every J, so the partial sums are combined
  // once per J (the reduction's region is K, model/PrivateScalars.h), as
  // tred2's G = G + Z(K,J) * D(K) is: I * J Reductions over all 4, though
  // A(*,J) lies on one processor. Without the start, one sum for the whole
  // nest: one Reduction.
  const int64_t n = 64, N = 4, ni = 4, nj = 32;
  for (bool start : {true, false}) {
    ModelBuilder b;
    b.array("A", {n, n});
    b.array("E", {n});
    auto i = b.loop("I", b.c(1), b.c(ni));
    auto j = b.loop("J", b.c(1), b.c(nj), "I");
    auto k = b.loop("K", b.c(1), b.c(8), "J");
    if (start)
      b.scalarStmt({i, j}, "G", {b.ref("E", {b.iv(j)})}, {.loads = 1}, "");
    auto s = b.scalarStmt({i, j, k}, "G", {b.ref("A", {b.iv(k), b.iv(j)})},
                          {.loads = 1, .fadd = 1}, "sum");
    b.dep(s, s, K::Flow, "G", k, {"=", "=", "<"}, {0, 0, 1});
    Layout l = layout({N}, {{"A", {collapsed(), block(0)}}, {"E", {replicated(0)}}});
    auto c = comm(run(b.build(), l), s, "A");
    ASSERT_EQ(c.size(), 1u) << start;
    EXPECT_EQ(c[0].primitive, "Reduction") << c[0].rule;
    EXPECT_EQ(c[0].groupSize, N);
    EXPECT_DOUBLE_EQ(c[0].repetitions, start ? double(ni * nj) : 1.0) << c[0].rule;
  }
}

TEST(Senders, ABoundaryShiftLeavesFromTheBlocksBelowTheReceivers) {
  // A(I) = B(I-1), both blocked over 4: each block but the first receives
  // its left neighbour's last element, so coordinates 0..2 send. Over
  // I = 2..32 (blocks 0 and 1 of 16) only coordinate 0 does. B cyclic
  // wraps round: every processor may send.
  const int64_t n = 64, N = 4;
  for (int64_t hi : {n, int64_t(32)}) {
    auto [p, s] = copy(n, -1, 2, hi);
    auto c = comm(run(p, layout({N}, {{"A", {block(0)}}, {"B", {block(0)}}})), s, "B");
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].primitive, "Shift");
    EXPECT_EQ(c[0].senders.meshDim, 0);
    EXPECT_EQ(c[0].senders.first, 0);
    EXPECT_EQ(c[0].senders.last, hi == n ? 2 : 0);
    EXPECT_TRUE(c[0].senders.includes({0}));
    EXPECT_FALSE(c[0].senders.includes({3}));
    auto wraps = comm(run(p, layout({N}, {{"A", {cyclic(0)}}, {"B", {cyclic(0)}}})), s, "B");
    ASSERT_FALSE(wraps.empty());
    EXPECT_EQ(wraps[0].senders.meshDim, -1);
  }
}

TEST(Senders, AShiftOfTheLocalDataLeavesFromTheBlocksAboveTheReceivers) {
  // DO I = 1, 24: A(I) = B(I+8), both in blocks of 8 over 4: each block
  // of A's 0..2 takes the whole block above it (Table 4.2 case 2), so
  // coordinates 1..3 send -- not 0, whose block no lhs needs (dflux's
  // P(I,J+1) on 16 processors holding 10 columns).
  auto [p, s] = copy(32, 8, 1, 24);
  auto c = comm(run(p, layout({4}, {{"A", {block(0)}}, {"B", {block(0)}}})), s, "B");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].primitive, "Shift") << c[0].rule;
  EXPECT_EQ(c[0].senders.meshDim, 0);
  EXPECT_EQ(c[0].senders.first, 1);
  EXPECT_EQ(c[0].senders.last, 3);
}

TEST(Senders, EachBlockSendsTheEdgeItsNeighbourNeeds) {
  // DO I = 1, 32: D(I) = A(I), D(36) in blocks of 9 and A(32) in blocks of
  // 8 over 4: block p of D needs p + 1 of A's elements from the next block
  // of A (A(9); A(17:18); A(25:27)), so the edge is 3 elements, sent whole
  // by coordinate 3 only (fig4_5's D(0:N) beside A(1:N)).
  ModelBuilder b;
  b.array("A", {32});
  b.array("D", {36});
  auto i = b.loop("I", b.c(1), b.c(32), "", 1, true);
  auto s = b.stmt({i}, b.ref("D", {b.iv(i)}), {b.ref("A", {b.iv(i)})}, {.loads = 1, .stores = 1});
  auto c = comm(run(b.build(), layout({4}, {{"A", {block(0)}}, {"D", {block(0)}}})), s, "A");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].primitive, "Shift") << c[0].rule;
  EXPECT_EQ(c[0].messageWords, 3);
  EXPECT_DOUBLE_EQ(c[0].senders.partAt({1}), 1.0 / 3);
  EXPECT_DOUBLE_EQ(c[0].senders.partAt({2}), 2.0 / 3);
  EXPECT_DOUBLE_EQ(c[0].senders.partAt({3}), 1.0);
}

TEST(Senders, BothDirectionsOnTwoProcessorsAreOneExchangeFromEach) {
  // DO I = 2, 32 - up: D(I) = A(I-1) + A(I+up), blocked over 2: block 0
  // sends its upper edge, block 1 its lower, in one exchange (Table 6.1's
  // Shift); each sends an edge, though each direction alone leaves one
  // block out.
  auto exchange = [](int64_t up) {
    ModelBuilder b;
    b.array("A", {32});
    b.array("D", {32});
    auto i = b.loop("I", b.c(2), b.c(32 - up), "", 1, true);
    auto s = b.stmt({i}, b.ref("D", {b.iv(i)}),
                    {b.ref("A", {b.iv(i, 1, -1)}), b.ref("A", {b.iv(i, 1, up)})},
                    {.loads = 2, .stores = 1, .fadd = 1});
    auto c = comm(run(b.build(), layout({2}, {{"A", {block(0)}}, {"D", {block(0)}}})), s, "A");
    EXPECT_EQ(c.size(), 1u);
    return c.empty() ? EstimateTerm{} : c[0];
  };
  EstimateTerm t = exchange(1);
  EXPECT_EQ(t.primitive, "Shift") << t.rule;
  EXPECT_TRUE(t.senders.includes({0}) && t.senders.includes({1}));
  EXPECT_DOUBLE_EQ(t.senders.partAt({0}), 1.0);
  EXPECT_DOUBLE_EQ(t.senders.partAt({1}), 1.0);
  // A(I+2): block 1 sends two elements down, block 0 one up.
  t = exchange(2);
  EXPECT_EQ(t.messageWords, 2);
  EXPECT_DOUBLE_EQ(t.senders.partAt({0}), 0.5);
  EXPECT_DOUBLE_EQ(t.senders.partAt({1}), 1.0);
}

TEST(Shift, SentByOneProcessorIsOneTransfer) {
  // A(I) = B(I-1), blocked, on the half-duplex iPSC/2: over 4 processors
  // the middle blocks send and receive, Table 6.1's 2 Transfers; over 2,
  // block 0 only sends and block 1 only receives: one Transfer.
  auto [p, s] = copy(64, -1, 2, 64);
  for (int64_t N : {2, 4}) {
    auto c = comm(run(p, layout({N}, {{"A", {block(0)}}, {"B", {block(0)}}})), s, "B");
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].primitive, "Shift");
    EXPECT_DOUBLE_EQ(c[0].seconds, (N == 2 ? 1 : 2) * T(8)) << N;
  }
}

TEST(ScalarAssignment, ItsOperandsReachEveryProcessor) {
  // T = X(K), K = 1..8, X blocked over 4: T is neither a reduction nor
  // private, so every processor runs the assignment (and keeps T): X(1:8)
  // is multicast from its holder to all 4. The thesis's scalar lhs is one
  // position, for which it would be a (1 - 1/N) Transfer.
  const int64_t n = 64, N = 4;
  ModelBuilder b;
  b.array("X", {n});
  auto k = b.loop("K", b.c(1), b.c(8));
  auto s = b.scalarStmt({k}, "T", {b.ref("X", {b.iv(k)})}, {.loads = 1}, "");
  Estimate e = run(b.build(), layout({N}, {{"X", {block(0)}}}));
  auto c = comm(e, s);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].primitive, "OneToManyMulticast");
  EXPECT_EQ(c[0].groupSize, N);
}

//===----------------------------------------------------------------------===//
// Replication
//===----------------------------------------------------------------------===//

TEST(Replication, ReplicatedReadsAreFreeReplicatedWritesMulticast) {
  const int64_t n = 64, N = 4;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n});
  b.array("B", {n});
  auto i = b.loop("I", b.c(1), b.p("N"), "", 1, true);
  b.stmt({i}, b.ref("A", {b.iv(i)}), {b.ref("B", {b.iv(i, 1, 0)})},
         {.loads = 1, .stores = 1});
  Program p = b.build();
  Estimate readRep =
      run(p, layout({N}, {{"A", {block(0)}}, {"B", {replicated(0)}}}));
  EXPECT_EQ(readRep.communicationSeconds, 0);
  Estimate writeRep =
      run(p, layout({N}, {{"A", {replicated(0)}}, {"B", {block(0)}}}));
  auto t = comm(writeRep, "S1");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].primitive, "ManyToManyMulticast");
  EXPECT_NEAR(t[0].seconds, (N - 1) * 2 * T(8 * ceilDiv(n, N)), 1e-12);
  // Every copy computes every element.
  EXPECT_NEAR(computation(writeRep, "S1")->repetitions, n, 1e-12);
}

TEST(Replication, EveryCopyOfAReplicatedLhsGetsTheHoldersParts) {
  // A(I) = B(I), I = 1..32, A replicated, B blocked over 4 (b = 16): two
  // processors hold B(1:32) and all four copies of A need it. The thesis's
  // ManyToManyMulticast among the two holders leaves the other two without
  // it; each holder multicasts its 16 elements to all four instead.
  const int64_t n = 64, N = 4;
  ModelBuilder b;
  b.array("A", {n});
  b.array("B", {n});
  auto i = b.loop("I", b.c(1), b.c(32), "", 1, true);
  b.stmt({i}, b.ref("A", {b.iv(i)}), {b.ref("B", {b.iv(i)})},
         {.loads = 1, .stores = 1});
  auto t = comm(run(b.build(), layout({N}, {{"A", {replicated(0)}}, {"B", {block(0)}}})), "S1");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].primitive, "OneToManyMulticast") << t[0].rule;
  EXPECT_EQ(t[0].groupSize, N);
  EXPECT_NEAR(t[0].seconds, 2 * ceilLog2(N) * T(8 * 16), 1e-12);
}

//===----------------------------------------------------------------------===//
// Validation of a layout against a program
//===----------------------------------------------------------------------===//

class Validation : public ::testing::Test {
protected:
  Validation() {
    ModelBuilder b;
    b.param("N", 16);
    b.array("A", {16, 16});
    b.array("B", {16});
    auto i = b.loop("I", b.c(1), b.p("N"), "", 1, true);
    b.stmt({i}, b.ref("A", {b.iv(i), b.c(1)}), {b.ref("B", {b.iv(i)})});
    p = b.build();
  }
  std::string error(const Layout &l, std::optional<int64_t> procs = 4) {
    EstimateOptions o;
    o.procs = procs;
    auto e = estimate(p, l, ipsc2(), o);
    EXPECT_FALSE(e.ok());
    auto v = validateLayout(p, l, procs);
    EXPECT_FALSE(v.ok());
    return e ? "" : e.error().message;
  }
  Program p;
};

TEST_F(Validation, AGoodLayoutPasses) {
  Layout l = layout({4}, {{"A", {block(0), collapsed()}}, {"B", {block(0)}}});
  EXPECT_TRUE(validateLayout(p, l, 4).ok());
  // Fortran names are matched case-insensitively.
  Layout lower =
      layout({4}, {{"a", {block(0), collapsed()}}, {"b", {block(0)}}});
  EXPECT_TRUE(validateLayout(p, lower, 4).ok());
}

TEST_F(Validation, UnknownArray) {
  auto m = error(layout(
      {4},
      {{"A", {block(0), collapsed()}}, {"B", {block(0)}}, {"Q", {block(0)}}}));
  EXPECT_NE(m.find("no array Q"), std::string::npos) << m;
}

TEST_F(Validation, MissingArray) {
  auto m = error(layout({4}, {{"A", {block(0), collapsed()}}}));
  EXPECT_NE(m.find("array B"), std::string::npos) << m;
}

TEST_F(Validation, MeshProductDiffersFromProcessorCount) {
  auto m =
      error(layout({2, 4}, {{"A", {block(0), block(1)}}, {"B", {block(0)}}}));
  EXPECT_NE(m.find("8 processors"), std::string::npos) << m;
  EXPECT_NE(m.find("4"), std::string::npos) << m;
}

TEST_F(Validation, NonPositiveBlock) {
  for (int64_t bad : {0, -3}) {
    auto m = error(layout(
        {4}, {{"A", {blockCyclic(0, bad), collapsed()}}, {"B", {block(0)}}}));
    EXPECT_NE(m.find("block"), std::string::npos) << m;
    EXPECT_NE(m.find("positive"), std::string::npos) << m;
  }
}

TEST_F(Validation, RankAndMeshDimensionMistakes) {
  auto rank = error(layout({4}, {{"A", {block(0)}}, {"B", {block(0)}}}));
  EXPECT_NE(rank.find("dimensions"), std::string::npos) << rank;
  auto twice =
      error(layout({4}, {{"A", {block(0), block(0)}}, {"B", {block(0)}}}));
  EXPECT_NE(twice.find("already on mesh dimension 0"), std::string::npos);
  auto outside =
      error(layout({4}, {{"A", {block(0), collapsed()}}, {"B", {block(1)}}}));
  EXPECT_NE(outside.find("mesh_dim"), std::string::npos) << outside;
}

//===----------------------------------------------------------------------===//
// Build once, evaluate many; the JSON document
//===----------------------------------------------------------------------===//

TEST(Estimator, EvaluatesManyLayoutsFromOneAnalysis) {
  const int64_t n = 64;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n, n});
  b.array("B", {n, n});
  auto i = b.loop("I", b.c(1), b.p("N"), "", 1, true);
  b.stmt({i}, b.ref("A", {b.iv(i), b.c(3)}), {b.ref("B", {b.c(5), b.iv(i)})},
         {.loads = 1, .stores = 1});
  Program p = b.build();
  EstimateOptions o;
  o.procs = 8;
  auto est = Estimator::build(p, o);
  ASSERT_TRUE(est.ok());
  Machine m = ipsc2();
  for (auto [n1, n2] : std::vector<std::pair<int64_t, int64_t>>{
           {1, 8}, {2, 4}, {4, 2}, {8, 1}}) {
    Layout l = layout(
        {n1, n2}, {{"A", {block(0), block(1)}}, {"B", {block(0), block(1)}}});
    auto full = est->evaluate(l, m);
    auto fast = est->seconds(l, m);
    ASSERT_TRUE(full.ok() && fast.ok());
    EXPECT_DOUBLE_EQ(*fast, full->predictedSeconds);
    EXPECT_DOUBLE_EQ(full->predictedSeconds,
                     full->computationSeconds + full->communicationSeconds);
    auto one = estimate(p, l, m, o);
    ASSERT_TRUE(one.ok());
    EXPECT_DOUBLE_EQ(one->predictedSeconds, full->predictedSeconds);
    double sum = 0;
    for (const auto &t : full->terms)
      sum += t.seconds;
    EXPECT_NEAR(sum, full->predictedSeconds, 1e-12);
    // The solver's breakdown: the same terms, keyed and timed alike, with
    // nothing else filled in.
    auto keys = est->evaluate(l, m, Breakdown::Keys);
    ASSERT_TRUE(keys.ok());
    EXPECT_EQ(keys->predictedSeconds, full->predictedSeconds);
    ASSERT_EQ(keys->terms.size(), full->terms.size());
    for (size_t k = 0; k < keys->terms.size(); ++k) {
      const EstimateTerm &a = keys->terms[k], &f = full->terms[k];
      EXPECT_EQ(a.kind, f.kind);
      EXPECT_EQ(a.statement, f.statement);
      EXPECT_EQ(a.array, f.array);
      EXPECT_EQ(a.seconds, f.seconds);
      EXPECT_TRUE(a.rule.empty() && a.primitive.empty() && !f.rule.empty());
    }
  }
  EXPECT_FALSE(est->seconds(layout({4, 4}, {{"A", {block(0), block(1)}},
                                            {"B", {block(0), block(1)}}}),
                            m)
                   .ok()); // 16 != 8
}

/// An N x N nest over I, J = 2 .. N of arrays A, B and C, N = 32, its
/// statements added by `statements`.
template <class F> Program threeArrayNest(F statements) {
  const int64_t n = 32;
  ModelBuilder b;
  b.param("N", n);
  for (const char *a : {"A", "B", "C"})
    b.array(a, {n, n});
  auto i = b.loop("I", b.c(2), b.p("N"), "", 1, true);
  auto j = b.loop("J", b.c(2), b.p("N"), i, 1, true);
  statements(b, i, j);
  return b.build();
}

/// `kept`, an Estimator's estimate of `l` on `m`, equals a fresh one: the
/// same terms in the same order, with the same seconds.
void expectFresh(const Estimate &kept, const Program &p, const Layout &l, const Machine &m,
                 const EstimateOptions &o) {
  auto fresh = estimate(p, l, m, o);
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ(kept.predictedSeconds, fresh->predictedSeconds);
  ASSERT_EQ(kept.terms.size(), fresh->terms.size());
  for (size_t k = 0; k < kept.terms.size(); ++k) {
    EXPECT_EQ(kept.terms[k].array, fresh->terms[k].array);
    EXPECT_EQ(kept.terms[k].rule, fresh->terms[k].rule);
    EXPECT_EQ(kept.terms[k].seconds, fresh->terms[k].seconds) << kept.terms[k].rule;
  }
}

// StatementCache.h: an Estimator that has costed a statement under its
// arrays' layouts takes those costs again, and what it gives equals a fresh
// estimate whatever changed in between: one array's layout, the mesh, the
// machine.
TEST(Estimator, KeptStatementCostsEqualAFreshEstimate) {
  Program p = threeArrayNest([](ModelBuilder &b, auto i, auto j) {
    b.stmt({i, j}, b.ref("A", {b.iv(i), b.iv(j)}), {b.ref("B", {b.iv(i), b.iv(j, 1, -1)})},
           {.loads = 1, .stores = 1});
    b.stmt({i, j}, b.ref("C", {b.iv(i), b.iv(j)}), {b.ref("A", {b.iv(i, 1, -1), b.iv(j)})},
           {.loads = 1, .stores = 1});
  });
  EstimateOptions o;
  o.procs = 8;
  auto est = Estimator::build(p, o);
  ASSERT_TRUE(est.ok());
  // S2 reads A and C alone: a change of B's layout leaves it as it was.
  auto withB = [](int64_t n1, int64_t n2, DimLayout b0, DimLayout b1) {
    return layout({n1, n2}, {{"A", {block(0), block(1)}},
                             {"B", {b0, b1}},
                             {"C", {block(0), block(1)}}});
  };
  const std::vector<Layout> layouts = {
      withB(2, 4, block(0), block(1)),           // both costed
      withB(2, 4, cyclic(0), block(1)),          // S2 kept
      withB(4, 2, block(0), block(1)),           // another mesh: both costed
      withB(2, 4, block(0), block(1)),           // the first again: both kept
      withB(2, 4, block(0), blockCyclic(1, 2)),  // S2 kept
      withB(8, 1, block(0), collapsed())};       // both costed
  const Machine machines[] = {ipsc2(), *machinePreset("cluster")};
  std::set<double> seen;
  for (const Machine &m : machines)
    for (const Layout &l : layouts) {
      auto kept = est->evaluate(l, m);
      ASSERT_TRUE(kept.ok());
      expectFresh(*kept, p, l, m, o);
      seen.insert(kept->predictedSeconds);
    }
  EXPECT_GE(seen.size(), 8u); // the layouts and machines do differ in cost
  // Four statements kept per machine; none across machines (the cache
  // starts again for another).
  EXPECT_EQ(est->reusedParts(), 2u * 4);
}

// StatementCache.h, part by part: a statement that fetches two arrays keeps
// its computation and its fetch of each under the layouts they read, so
// that a change of one operand's layout costs that operand's fetch alone;
// the terms come in the order and with the seconds of a fresh estimate.
TEST(Estimator, KeptFetchesOfOneOperandEqualAFreshEstimate) {
  // A(I,J) = C(I-1,J) + B(I,J-1) + C(I,J): C's two references coalesce.
  Program p = threeArrayNest([](ModelBuilder &b, auto i, auto j) {
    b.stmt({i, j}, b.ref("A", {b.iv(i), b.iv(j)}),
           {b.ref("C", {b.iv(i, 1, -1), b.iv(j)}), b.ref("B", {b.iv(i), b.iv(j, 1, -1)}),
            b.ref("C", {b.iv(i), b.iv(j)})},
           {.loads = 3, .stores = 1});
  });
  EstimateOptions o;
  o.procs = 8;
  auto est = Estimator::build(p, o);
  ASSERT_TRUE(est.ok());
  auto with = [](DimLayout b0, DimLayout c0) {
    return layout({2, 4}, {{"A", {block(0), block(1)}},
                           {"B", {b0, block(1)}},
                           {"C", {c0, block(1)}}});
  };
  const Machine m = ipsc2();
  const std::vector<std::pair<Layout, size_t>> steps = {
      {with(block(0), block(0)), 0},           // all three parts costed
      {with(cyclic(0), block(0)), 2},          // B's fetch alone costed
      {with(block(0), blockCyclic(0, 4)), 2},  // C's alone (B's from the first)
      {with(cyclic(0), blockCyclic(0, 4)), 3}, // every part kept
  };
  size_t kept = 0;
  std::set<double> seen;
  for (const auto &[l, hits] : steps) {
    auto a = est->evaluate(l, m);
    ASSERT_TRUE(a.ok());
    kept += hits;
    EXPECT_EQ(est->reusedParts(), kept);
    expectFresh(*a, p, l, m, o);
    seen.insert(a->predictedSeconds);
  }
  EXPECT_EQ(seen.size(), steps.size()); // each change does change the cost
}

// StatementCache.h, a joint fetch (AcrossStatements.h, joinCountedFetches):
// fig2_2's DO MP / DO MQ = 1, MP / DO MI: X(MI,MQ) += V(MP,MI);
// X(MI,MP) += V(MQ,MI), X by columns, both reads of V counted as one fetch,
// kept under both statements' parts for V and taken again for a layout
// already estimated; each estimate equals a fresh one.
TEST(Estimator, KeptJointFetchesEqualAFreshEstimate) {
  const auto [p, s1, s2] = fig2_2(16);
  EstimateOptions o;
  o.procs = 4;
  auto est = Estimator::build(p, o);
  ASSERT_TRUE(est.ok());
  auto with = [](DimLayout v0) {
    return layout({4}, {{"X", {collapsed(), block(0)}}, {"V", {v0, collapsed()}}});
  };
  const Machine m = ipsc2();
  // Parts kept at each: none; each statement's computation and fetch of X
  // (V's layout changed); all six and the joint fetch.
  const std::pair<Layout, size_t> steps[] = {
      {with(block(0)), 0}, {with(cyclic(0)), 4}, {with(block(0)), 7}};
  size_t hits = 0;
  for (const auto &[l, kept] : steps) {
    auto e = est->evaluate(l, m);
    ASSERT_TRUE(e.ok());
    expectFresh(*e, p, l, m, o);
    EXPECT_TRUE(std::any_of(e->terms.begin(), e->terms.end(), [&](const EstimateTerm &t) {
      return t.statement == s1 && t.rule.find("one fetch with 1 other") != std::string::npos;
    }));
    EXPECT_TRUE(comm(*e, s2, "V").empty());
    EXPECT_EQ(est->reusedParts() - hits, kept);
    hits = est->reusedParts();
  } // the last: both statements and the joint fetch kept
}

TEST(EstimateJson, DocumentMatchesItsSchema) {
  const int64_t n = 64;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n, n});
  b.array("B", {n, n});
  auto i = b.loop("I", b.c(1), b.p("N"), "", 1, true);
  b.stmt({i}, b.ref("A", {b.iv(i), b.c(3)}), {b.ref("B", {b.c(5), b.iv(i)})},
         {.loads = 1, .stores = 1});
  Estimate e = run(b.build(), layout({4, 2}, {{"A", {block(0), block(1)}},
                                              {"B", {block(0), block(1)}}}));
  auto j = toJson(e);
  EXPECT_EQ(j["schema"], "dlayout-estimate/1");
  EXPECT_DOUBLE_EQ(j["predicted_seconds"].get<double>(), e.predictedSeconds);
  EXPECT_DOUBLE_EQ(j["communication_seconds"].get<double>(),
                   e.communicationSeconds);
  ASSERT_EQ(j["terms"].size(), e.terms.size());
  bool sawComm = false;
  for (const auto &t : j["terms"])
    if (t["kind"] == "communication") {
      sawComm = true;
      EXPECT_EQ(t["primitive"], "D-Scatter");
      EXPECT_EQ(t["message_words"], 16);
      EXPECT_EQ(t["message_bytes"], 128);
      EXPECT_EQ(t["group_size"], 2);
      EXPECT_TRUE(t["placement"].is_null());
      EXPECT_EQ(t["array"], "B");
    }
  EXPECT_TRUE(sawComm);
  ASSERT_EQ(j["phases"].size(), 1u);

  // Against docs/schema/estimate.json, when Python's jsonschema is there.
  if (std::system("python3 -c 'import jsonschema' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "python3-jsonschema is not installed";
  std::string file = ::testing::TempDir() + "dlayout-estimate-test.json";
  std::ofstream(file) << j.dump(2);
  std::string cmd =
      "python3 " DLAYOUT_SCHEMA_DIR "/../../tests/schema/validate.py " + file;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

} // namespace
} // namespace dlayout::test
