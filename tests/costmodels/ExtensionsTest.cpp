//===- tests/costmodels/ExtensionsTest.cpp - Beyond the thesis ------------===//
//
// Inspector/executor, redistribution, the placement modes, topology hops,
// other machines. Expected values follow the formulas stated in the headers
// (Irregular.h, Redistribution.h), evaluated here.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"
#include "costmodels/Redistribution.h"

namespace dlayout::test {
namespace {

using K = Dependence::Kind;

/// DO T = 1, NT: A(I) = B(IDX(I)); B(I) = A(I)  (I a doall)
Program irregular(int64_t n, int64_t nt, bool rewriteIndex) {
  ModelBuilder b;
  b.param("N", n);
  b.param("NT", nt);
  b.array("A", {n});
  b.array("B", {n});
  b.array("IDX", {n}, 4);
  auto t = b.loop("T", b.c(1), b.p("NT"));
  auto i = b.loop("I", b.c(1), b.p("N"), t, 1, true);
  auto i2 = b.loop("I", b.c(1), b.p("N"), t, 1, true);
  Reference idx = b.ref("IDX", {b.iv(i)});
  auto s1 =
      b.stmt({t, i}, b.ref("A", {b.iv(i)}),
             {b.refOf("B", {b.indirect(idx)}), idx}, {.loads = 2, .stores = 1});
  auto s2 = b.stmt({t, i2}, b.ref("B", {b.iv(i2)}), {b.ref("A", {b.iv(i2)})},
                   {.loads = 1, .stores = 1});
  b.dep(s1, s2, K::Flow, "A", "", {"="}, {0});
  b.dep(s2, s1, K::Flow, "B", t, {"<"}, {1});
  if (rewriteIndex) {
    auto i3 = b.loop("I", b.c(1), b.p("N"), t, 1, true);
    b.stmt({t, i3}, b.ref("IDX", {b.iv(i3)}), {}, {.stores = 1});
  }
  return b.build();
}

Layout irregularLayout(int64_t N) {
  return layout({N},
                {{"A", {block(0)}}, {"B", {block(0)}}, {"IDX", {block(0)}}});
}

TEST(InspectorExecutor, AmortisedInspectorBeatsTheCollective) {
  const int64_t n = 64, nt = 10, N = 4;
  Program p = irregular(n, nt, false);
  Layout l = irregularLayout(N);
  // The thesis: ManyToManyMulticast(ceil(n/N), N) every T iteration.
  EstimateOptions o;
  o.irregular = IrregularStrategy::Collective;
  double collective = nt * (N - 1) * 2 * T(8 * ceilDiv(n, N));
  EXPECT_NEAR(commSeconds(run(p, l, o), "S1", "B"), collective, 1e-9);

  // Inspector/executor (Irregular.h): R = ceil(n/N) references per
  // processor, R (1 - 1/N) of them remote, from N - 1 owners.
  double R = ceilDiv(n, N), remote = std::ceil(R * (1 - 1.0 / N));
  double sources = std::min<double>(N - 1, remote), each = remote / sources;
  double executor = sources * T(each * 8);
  double inspector = R * (0.5e-6 + 0 + 5e-6) + ceilLog2(N) * T(8.0 * N) +
                     sources * T(each * 8);
  o.irregular = IrregularStrategy::InspectorExecutor;
  Estimate e = run(p, l, o);
  auto t = comm(e, "S1", "B");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].primitive, "Inspector");
  EXPECT_EQ(t[0].repetitions, 1); // IDX never changes: the schedule is reused
  EXPECT_NEAR(t[0].seconds, inspector, 1e-9);
  EXPECT_EQ(t[1].primitive, "Executor");
  EXPECT_EQ(t[1].repetitions, nt);
  EXPECT_NEAR(t[1].seconds, nt * executor, 1e-9);
  // The default, and Cheapest picks it here too.
  EXPECT_NEAR(commSeconds(run(p, l), "S1", "B"), inspector + nt * executor, 1e-9);
  o.irregular = IrregularStrategy::Cheapest;
  EXPECT_NEAR(commSeconds(run(p, l, o), "S1", "B"), inspector + nt * executor, 1e-9);
}

TEST(InspectorExecutor, IsTheDefaultWhereTheCollectiveIsCheaper) {
  // A(I) = B(IDX(I)) over 1024 I, B of 16 elements, IDX rewritten every
  // T: the inspector runs again each time over 256 references per
  // processor, where the collective moves B's 4 elements per processor.
  // The default still prices the inspector/executor, the plan validate's
  // executor runs (a validation measures what was priced); Cheapest takes
  // the collective; the thesis's placement always does (Table 4.4).
  const int64_t n = 1024, nb = 16, nt = 10, N = 4;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n});
  b.array("B", {nb});
  b.array("IDX", {n}, 4);
  auto t = b.loop("T", b.c(1), b.c(nt));
  auto i = b.loop("I", b.c(1), b.p("N"), t, 1, true);
  auto i3 = b.loop("I", b.c(1), b.p("N"), t, 1, true);
  Reference idx = b.ref("IDX", {b.iv(i)});
  b.stmt({t, i}, b.ref("A", {b.iv(i)}), {b.refOf("B", {b.indirect(idx)}), idx},
         {.loads = 2, .stores = 1});
  b.stmt({t, i3}, b.ref("IDX", {b.iv(i3)}), {}, {.stores = 1});
  Program p = b.build();
  Layout l = irregularLayout(N);
  EstimateOptions o;
  o.irregular = IrregularStrategy::Collective;
  const double collective = commSeconds(run(p, l, o), "S1", "B");
  o.irregular = IrregularStrategy::InspectorExecutor;
  const double ie = commSeconds(run(p, l, o), "S1", "B");
  ASSERT_LT(collective, ie);
  EXPECT_NEAR(commSeconds(run(p, l), "S1", "B"), ie, 1e-12);
  o.irregular = IrregularStrategy::Cheapest;
  EXPECT_NEAR(commSeconds(run(p, l, o), "S1", "B"), collective, 1e-12);
  EstimateOptions thesis;
  thesis.placement = PlacementSource::SequentialLoops;
  for (const auto &t : comm(run(p, l, thesis), "S1", "B"))
    EXPECT_NE(t.primitive, "Inspector") << t.rule;
}

TEST(InspectorExecutor, RewrittenIndexRerunsTheInspector) {
  const int64_t n = 64, nt = 10, N = 4;
  EstimateOptions o;
  o.irregular = IrregularStrategy::InspectorExecutor;
  Estimate e = run(irregular(n, nt, true), irregularLayout(N), o);
  auto t = comm(e, "S1", "B");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].primitive, "Inspector");
  EXPECT_EQ(t[0].repetitions, nt);
}

/// DO T = 1, NT: DO I: lhs = rhs, over arrays of n elements; IDX is written
/// before the loops only.
Program indexed(int64_t n, bool indirectLhs) {
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n});
  b.array("B", {n});
  b.array("IDX", {n}, 4);
  auto t = b.loop("T", b.c(1), b.c(10));
  auto i = b.loop("I", b.c(1), b.p("N"), t, 1, true);
  Reference idx = b.ref("IDX", {b.iv(i)});
  if (indirectLhs) // A(IDX(I)) = A(IDX(I)) + B(I)
    b.stmt({t, i}, b.refOf("A", {b.indirect(idx)}),
           {b.refOf("A", {b.indirect(idx)}), b.ref("B", {b.iv(i)})}, {.loads = 2, .stores = 1});
  else // A(I) = B(IDX(I))
    b.stmt({t, i}, b.ref("A", {b.iv(i)}), {b.refOf("B", {b.indirect(idx)})},
           {.loads = 1, .stores = 1});
  return b.build();
}

TEST(IndexValues, AreReadWhereTheInstancesRun) {
  // B whole on every processor: only the index values move. IDX(I) by
  // cycles while A(I) is blocked: they must come to A's owners, once (IDX
  // is not written in T).
  const int64_t n = 64, N = 4;
  Program p = indexed(n, false);
  Estimate apart = run(p, layout({N}, {{"A", {block(0)}}, {"B", {collapsed()}},
                                       {"IDX", {cyclic(0)}}}));
  auto t = comm(apart, "S1", "IDX");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_GT(t[0].seconds, 0);
  EXPECT_EQ(t[0].repetitions, 1);
  EXPECT_EQ(commSeconds(apart, "S1", "B"), 0);
  // Aligned with A: nothing moves.
  Estimate aligned = run(p, layout({N}, {{"A", {block(0)}}, {"B", {collapsed()}},
                                         {"IDX", {block(0)}}}));
  EXPECT_EQ(commSeconds(aligned, "S1"), 0);
  // The thesis prices only the data (Table 4.4).
  EstimateOptions thesis;
  thesis.placement = PlacementSource::SequentialLoops;
  Estimate th = run(p, layout({N}, {{"A", {block(0)}}, {"B", {collapsed()}},
                                    {"IDX", {cyclic(0)}}}), thesis);
  EXPECT_TRUE(comm(th, "S1", "IDX").empty());
}

TEST(IndexValues, OfAnIndirectLeftHandSideReachEveryProcessor) {
  // Each processor must learn whether it owns A(IDX(I)): all the index
  // values reach all N processors, aligned or not, once.
  const int64_t n = 64, N = 4;
  Estimate e = run(indexed(n, true), layout({N}, {{"A", {block(0)}}, {"B", {block(0)}},
                                                 {"IDX", {block(0)}}}));
  auto t = comm(e, "S1", "IDX");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].primitive, "ManyToManyMulticast");
  EXPECT_EQ(t[0].groupSize, N);
  EXPECT_EQ(t[0].repetitions, 1);
  // ManyToManyMulticast(m, N) = (N - 1) Shift(m), Shift = 2 Transfer
  // (Table 6.1), m = the n/N index values each processor holds.
  EXPECT_NEAR(t[0].seconds, (N - 1) * 2 * T(4.0 * n / N), 1e-9);
}

TEST(Redistribution, RowsToColumns) {
  const int64_t n = 64, N = 4;
  Array a;
  a.name = "A";
  a.dims = {{n, 1, std::nullopt}, {n, 1, std::nullopt}};
  ArrayLayout rows{{block(0), collapsed()}}, cols{{collapsed(), block(0)}};
  auto c = redistributionCost(a, rows, {N}, cols, {N}, ipsc2());
  ASSERT_TRUE(c.ok()) << c.error().message;
  // Each processor keeps a (n/N)^2 square and sends one to each other one.
  double bytes = (n / N) * (n / N) * 8.0;
  EXPECT_NEAR(c->seconds, (N - 1) * T(bytes), 1e-12);
  EXPECT_EQ(c->maxMessages, N - 1);
  EXPECT_DOUBLE_EQ(c->bytesMoved, N * (N - 1) * bytes);
  // Nothing moves when nothing changes.
  auto same = redistributionCost(a, rows, {N}, rows, {N}, ipsc2());
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->seconds, 0);
  EXPECT_EQ(same->bytesMoved, 0);
}

TEST(Redistribution, BlockToCyclicAndToReplicated) {
  const int64_t n = 64, N = 4;
  Array a;
  a.name = "D";
  a.dims = {{n, 1, std::nullopt}};
  ArrayLayout blk{{block(0)}}, cyc{{cyclic(0)}}, rep{{replicated(0)}};
  auto c = redistributionCost(a, blk, {N}, cyc, {N}, ipsc2());
  ASSERT_TRUE(c.ok());
  // A block of 16 holds 4 elements for each of the 4 processors.
  EXPECT_NEAR(c->seconds, (N - 1) * T(4 * 8), 1e-12);
  auto r = redistributionCost(a, blk, {N}, rep, {N}, ipsc2());
  ASSERT_TRUE(r.ok());
  EXPECT_NEAR(r->seconds, (N - 1) * T(16 * 8), 1e-12);
  // A mistaken layout is an Error.
  ArrayLayout bad{{blockCyclic(0, 0)}};
  EXPECT_FALSE(redistributionCost(a, blk, {N}, bad, {N}, ipsc2()).ok());
}

TEST(Placement, SequentialLoopsKeepCommunicationInside) {
  // Fig. 4.5 with the i loop not marked parallel: the conservative mode
  // (Parafrase-2's view, PlacementSource::SequentialLoops) keeps B's
  // boundary Transfer inside i as well, pipelined over i.
  const int64_t n = 64, N = 4;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n, n});
  b.array("B", {n, n});
  auto i = b.loop("I", b.c(1), b.p("N"));
  auto j = b.loop("J", b.c(2), b.p("N"), i);
  auto s1 = b.stmt({i, j}, b.ref("A", {b.iv(i), b.iv(j)}),
                   {b.ref("B", {b.iv(i), b.iv(j, 1, -1)})},
                   {.loads = 1, .stores = 1, .fadd = 1});
  auto s2 = b.stmt({i, j}, b.ref("B", {b.iv(i), b.iv(j)}),
                   {b.ref("A", {b.iv(i), b.iv(j)})}, {.loads = 1, .stores = 1});
  b.dep(s2, s1, K::Flow, "B", j, {"=", "<"}, {0, 1});
  b.dep(s1, s2, K::Flow, "A", "", {"=", "="}, {0, 0});
  Program p = b.build();
  Layout l = layout(
      {N}, {{"A", {collapsed(), block(0)}}, {"B", {collapsed(), block(0)}}});
  auto precise = comm(run(p, l), s1, "B");
  ASSERT_EQ(precise.size(), 1u);
  EXPECT_EQ(precise[0].messageWords, n); // vectorised over the doall i
  EXPECT_EQ(precise[0].repetitions, N - 1);
  EstimateOptions o;
  o.placement = PlacementSource::SequentialLoops;
  auto conservative = comm(run(p, l, o), s1, "B");
  ASSERT_EQ(conservative.size(), 1u);
  EXPECT_EQ(conservative[0].messageWords, 1);
  EXPECT_EQ(conservative[0].placement, j);
  // Pipelined over i (section 4.5.3): (N - 1) + (n_i - 1) Transfer(1).
  EXPECT_EQ(conservative[0].repetitions, (N - 1) + (n - 1));
  // And S1 is sequential in i: with A by rows its computation is not
  // divided over the N processors any more (C_i = n instead of n/N).
  Layout rows = layout(
      {N}, {{"A", {block(0), collapsed()}}, {"B", {block(0), collapsed()}}});
  EXPECT_NEAR(computation(run(p, rows, o), s1)->repetitions,
              N * computation(run(p, rows), s1)->repetitions, 1e-9);
}

TEST(Placement, NoFurtherOutThanTheInstancesCanBeEnumerated) {
  // olda's DO 290 MK / DO 260 ML = LMIN, LMAX: X(J) = V(J) for J = 1, LMAX,
  // with LMAX assigned in the enclosing I loop. Nothing depends on V, but
  // which V(J) the instances read is known only inside I, so V is fetched
  // there, once per I (model/Enumeration.h), as the executor does; with
  // LMAX assigned before the nest, once outside it.
  const int64_t n = 64, N = 4;
  for (bool inside : {true, false}) {
    ModelBuilder b;
    b.array("V", {n});
    b.array("X", {n});
    auto i = b.loop("I", b.c(1), b.c(8));
    auto j = b.loop("J", b.c(1), b.c(8), i, 1, true);
    if (inside)
      b.scalarStmt({i}, "LMAX", {}, {}, "");
    auto s = b.stmt({i, j}, b.ref("X", {b.iv(j)}), {b.ref("V", {b.iv(j)})},
                    {.loads = 1, .stores = 1});
    Program p = b.build();
    Loop &lj = p.loops[1];
    ASSERT_EQ(lj.id, j);
    lj.upper.kind = Bound::Kind::NonAffine;
    lj.upper.terms.clear();
    Expr lmax;
    lmax.kind = Expr::Kind::Scalar;
    lmax.name = "LMAX";
    lj.upper.expr = lmax;
    auto c = comm(run(p, layout({N}, {{"X", {block(0)}}, {"V", {cyclic(0)}}})), s, "V");
    ASSERT_FALSE(c.empty());
    EXPECT_EQ(c[0].placement, inside ? i : "") << inside;
  }
}

TEST(Placement, SequentialLoopsSplitAOneToManyRecurrence) {
  // DGEFA's loop 15 (thesis Appendix I.1): A(I,K) = F(A(K,K)) for I = K..N.
  // Under the conservative placement the I loop is a recurrence, but S's
  // only dependence is one-to-many (section 3.3.1): the loop is split at its
  // source iteration and A(K,K) is multicast once per K, not once per I.
  const int64_t n = 64, N = 4;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n, n});
  auto k = b.loop("K", b.c(1), b.p("N", 1, -1));
  auto i = b.loop("I", b.iv(k), b.p("N"), k);
  auto s = b.stmt({k, i}, b.ref("A", {b.iv(i), b.iv(k)}),
                  {b.ref("A", {b.iv(k), b.iv(k)}), b.ref("A", {b.iv(i), b.iv(k)})},
                  {.loads = 2, .stores = 1, .fmul = 1});
  b.dep(s, s, K::Flow, "A", i, {"=", "<"}, {0, std::nullopt});
  Program p = b.build();
  Layout l = layout({N}, {{"A", {block(0), collapsed()}}});
  EstimateOptions o;
  o.placement = PlacementSource::SequentialLoops;
  auto terms = comm(run(p, l, o), s, "A");
  ASSERT_EQ(terms.size(), 1u);
  EXPECT_EQ(terms[0].primitive, "OneToManyMulticast");
  EXPECT_EQ(terms[0].placement, k);
  EXPECT_EQ(terms[0].repetitions, n - 1);
}

TEST(Placement, AGuardCostsNothingUnderTheThesisPlacement) {
  // A(I) = B(I) under IF (C(1) .NE. 0): C(1) is the guard's, read where the
  // IF stands, and its home multicasts it. The thesis saw no control
  // dependences (section 3.1; conditionals enter only through rho(S)), so
  // under its placement the guard costs nothing; B, aligned, costs nothing
  // either way.
  const int64_t n = 64, N = 4;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n});
  b.array("B", {n});
  b.array("C", {n});
  auto i = b.loop("I", b.c(1), b.p("N"), "", 1, /*parallel=*/true);
  auto s = b.stmt({i}, b.ref("A", {b.iv(i)}), {b.ref("B", {b.iv(i)}), b.ref("C", {b.c(1)})},
                  {.loads = 1, .stores = 1});
  Program p = b.build();
  Statement &st = p.statements[0];
  Expr value, guard;
  value.kind = guard.kind = Expr::Kind::Ref;
  value.refIndex = 1;
  guard.refIndex = 2;
  st.expr = value;
  Expr ne;
  ne.kind = Expr::Kind::Op;
  ne.name = "ne";
  ne.args = {guard, Expr{}}; // Expr{}: the constant 0
  st.guards.push_back({ne, "C(1) .NE. 0"});
  Layout l = layout({N}, {{"A", {block(0)}}, {"B", {block(0)}}, {"C", {block(0)}}});
  auto guarded = comm(run(p, l), s, "C");
  ASSERT_EQ(guarded.size(), 1u);
  EXPECT_EQ(guarded[0].primitive, "OneToManyMulticast");
  EXPECT_TRUE(comm(run(p, l), s, "B").empty());
  EstimateOptions o;
  o.placement = PlacementSource::SequentialLoops;
  EXPECT_TRUE(comm(run(p, l, o), s, "C").empty());
  EXPECT_TRUE(comm(run(p, l, o), s, "B").empty());
}

/// DO I = 1, n; DO J = 1, n: A(I,J) = 0 on the boundary (I .EQ. 1 .OR.
/// I .EQ. n .OR. J .EQ. 1 .OR. J .EQ. n), A(I,J) = 1 inside (its .NOT.),
/// A(I,J) = 2 where a scalar X is not 0: relax's initialisation.
Program boundaryNest(int64_t n) {
  ModelBuilder b;
  b.array("A", {n, n});
  auto i = b.loop("I", b.c(1), b.c(n), "", 1, true);
  auto j = b.loop("J", b.c(1), b.c(n), i, 1, true);
  for (int k = 0; k < 3; ++k)
    b.stmt({i, j}, b.ref("A", {b.iv(i), b.iv(j)}), {}, {.stores = 1});
  Program p = b.build();
  auto leaf = [](Expr::Kind kind, std::string name, double v = 0) {
    Expr e;
    e.kind = kind;
    e.name = std::move(name);
    e.value = v;
    return e;
  };
  auto op = [](std::string name, std::vector<Expr> args) {
    Expr e;
    e.kind = Expr::Kind::Op;
    e.name = std::move(name);
    e.args = std::move(args);
    return e;
  };
  std::vector<Expr> edges;
  for (auto &loop : {i, j})
    for (double at : {1.0, double(n)})
      edges.push_back(op("eq", {leaf(Expr::Kind::Iv, loop), leaf(Expr::Kind::Const, "", at)}));
  Expr boundary = op("or", edges);
  p.statements[0].guards.push_back({boundary, "boundary"});
  p.statements[1].guards.push_back({op("not", {boundary}), "interior"});
  p.statements[2].guards.push_back(
      {op("ne", {leaf(Expr::Kind::Scalar, "X"), leaf(Expr::Kind::Const, "")}), "X .NE. 0"});
  p.scalars.push_back(Scalar{"X", "f64", {}});
  return p;
}

TEST(Computation, GuardsOnLoopIndicesAreCountedIntoRho) {
  // rho(S) = num(S) / prod n_l (thesis section 3.2.1), counted where the
  // guards read only indices: 4n - 4 boundary points, (n - 2)^2 inside; a
  // guard on a scalar holds (rho's default). n = 100 is sampled, both ends
  // of each loop included. One processor runs them all.
  for (int64_t n : {16, 100}) {
    Program p = boundaryNest(n);
    Layout l = layout({1}, {{"A", {block(0), collapsed()}}});
    Estimate e = run(p, l);
    ASSERT_NE(computation(e, "S1"), nullptr);
    EXPECT_DOUBLE_EQ(computation(e, "S1")->repetitions, double(4 * n - 4)) << n;
    EXPECT_DOUBLE_EQ(computation(e, "S2")->repetitions, double((n - 2) * (n - 2))) << n;
    EXPECT_DOUBLE_EQ(computation(e, "S3")->repetitions, double(n * n)) << n;
    // A probability the user gives is rho; the thesis's placement counts
    // nothing (its formulas).
    p.statements[0].probability = 0.5;
    EXPECT_DOUBLE_EQ(computation(run(p, l), "S1")->repetitions, 0.5 * double(n * n)) << n;
    EstimateOptions o;
    o.placement = PlacementSource::SequentialLoops;
    EXPECT_DOUBLE_EQ(computation(run(p, l, o), "S2")->repetitions, double(n * n)) << n;
  }
}

TEST(ExactOwners, AnArrayOnNoMeshDimensionIsReplicatedAlongIt) {
  // A(I,J,K) = P(I,J) on a 2x1x2 mesh, A on mesh dimensions 0 and 2, P on 0
  // only. A layout leaves P replicated along mesh dimension 2 (Eq. 2.1's X,
  // as the runtime keeps it): every owner of A(I,J,K) holds P(I,J). The
  // thesis's symbolic reading puts P at one position there, which moves.
  const int64_t n = 16;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n, n, 4});
  b.array("P", {n, n});
  auto k = b.loop("K", b.c(1), b.c(4));
  auto j = b.loop("J", b.c(1), b.p("N"), k);
  auto i = b.loop("I", b.c(1), b.p("N"), j);
  auto s = b.stmt({k, j, i}, b.ref("A", {b.iv(i), b.iv(j), b.iv(k)}),
                  {b.ref("P", {b.iv(i), b.iv(j)})}, {.loads = 1, .stores = 1});
  Program p = b.build();
  Layout l = layout({2, 1, 2}, {{"A", {block(0), collapsed(), block(2)}},
                                {"P", {block(0), collapsed()}}});
  EXPECT_TRUE(comm(run(p, l), s, "P").empty());
  EstimateOptions thesis;
  thesis.exactOwners = false;
  EXPECT_FALSE(comm(run(p, l, thesis), s, "P").empty());
}

TEST(ExactOwners, BlocksOfNearlyTheSameSizeExchangeWithANeighbour) {
  // DO I = 2, 193: DP(I) = P(I+1) + P(I), DP(1:195) and P(1:194) blocked
  // over two (blocks of 98 and 97, as in dflux): processor 0 needs P(98) and
  // P(99) from processor 1, and nothing else crosses. The thesis's speed
  // ratio (Eq. 4.3) prices a D-Scatter or D-Gather of the local data.
  ModelBuilder b;
  b.array("DP", {195});
  b.array("P", {194});
  auto i = b.loop("I", b.c(2), b.c(193), "", 1, true);
  auto s = b.stmt({i}, b.ref("DP", {b.iv(i)}),
                  {b.ref("P", {b.iv(i, 1, 1)}), b.ref("P", {b.iv(i)})},
                  {.loads = 2, .stores = 1, .fadd = 1});
  Program p = b.build();
  Layout l = layout({2}, {{"DP", {block(0)}}, {"P", {block(0)}}});
  // P(I) crosses too (P(98) for DP(98)); P(I+1)'s message carries it.
  auto terms = comm(run(p, l), s, "P");
  ASSERT_EQ(terms.size(), 1u);
  EXPECT_EQ(terms[0].primitive, "Shift");
  EXPECT_DOUBLE_EQ(terms[0].messageBytes, 2 * 8);
  EstimateOptions thesis;
  thesis.exactOwners = false;
  thesis.coalescing = false;
  for (const auto &t : comm(run(p, l, thesis), s, "P"))
    EXPECT_NE(t.primitive, "Shift") << t.rule;
}

TEST(ExactOwners, AnOperandVaryingOffTheMeshCarriesEachReceiversOwnElements) {
  // Fig. 5.2: DO J / DO I: A(I,J) = B(J,3*I), the rows of A and B blocked
  // over 4, B's columns on every processor. Row J's owner sends each
  // processor the B(J,3*I) of its 8 rows I, for its 8 rows J at once (the
  // tiles of J): 64 elements to each of the 3 others. The thesis's
  // multicast (Table 4.2, single / constant) carried one element per J.
  const int64_t n = 32, N = 4;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n, n});
  b.array("B", {n, 3 * n});
  auto j = b.loop("J", b.c(1), b.p("N"), "", 1, true);
  auto i = b.loop("I", b.c(1), b.p("N"), j, 1, true);
  auto s = b.stmt({j, i}, b.ref("A", {b.iv(i), b.iv(j)}), {b.ref("B", {b.iv(j), b.iv(i, 3)})},
                  {.loads = 1, .stores = 1});
  Program p = b.build();
  Layout l = layout({N}, {{"A", {block(0), collapsed()}}, {"B", {block(0), collapsed()}}});
  auto terms = comm(run(p, l), s, "B");
  ASSERT_EQ(terms.size(), 1u);
  EXPECT_EQ(terms[0].primitive, "Scatter") << terms[0].rule;
  EXPECT_EQ(terms[0].groupSize, N);
  EXPECT_DOUBLE_EQ(terms[0].messageBytes, (n / N) * (n / N) * 8.0);
  // Each processor sends one tile: its share of the N tiles. The tiles'
  // Scatters run at once: its own N - 1 messages, and on the half-duplex
  // iPSC/2 one of each other tile taken in turn.
  EXPECT_DOUBLE_EQ(terms[0].repetitions * terms[0].senders.share, 1.0);
  const double m = (n / N) * (n / N) * 8.0;
  EXPECT_NEAR(terms[0].seconds, (N - 1) * T(m) + (N - 1) * T(m), 1e-12);
  EstimateOptions thesis;
  thesis.exactOwners = false;
  for (const auto &t : comm(run(p, l, thesis), s, "B"))
    EXPECT_EQ(t.primitive, "OneToManyMulticast") << t.rule;
  // The columns blocked instead: the owner of A's column J gathers B(J,3*I)
  // from the owners of B's columns 3*I, for its 8 columns J at once (the
  // tiles of J, B's rows on every processor): 8 x 8 elements from each.
  Layout cols = layout({N}, {{"A", {collapsed(), block(0)}}, {"B", {collapsed(), block(0)}}});
  auto gathered = comm(run(p, cols), s, "B");
  ASSERT_FALSE(gathered.empty());
  for (const auto &t : gathered)
    EXPECT_DOUBLE_EQ(t.messageBytes, (n / N) * (n / N) * 8.0) << t.rule;
}

TEST(ExactOwners, BlocksOfOtherSizesSendEachOwnerItsElements) {
  // Fig. 4.5's D(I) = A(I,N), reduced: DO I = 1, 32: D(I+1) = A(I), D(1:33)
  // in blocks of 3 and A(1:32) in blocks of 2 over 16. A processor's rows
  // go to one or two of the blocks below, a few elements each: counted
  // with the owner function, where the thesis's speed ratio (Eq. 4.3)
  // prices a D-Gather of a whole block, doubled.
  const int64_t P = 16;
  ModelBuilder b;
  b.array("D", {33});
  b.array("A", {32});
  auto i = b.loop("I", b.c(1), b.c(32), "", 1, true);
  auto s = b.stmt({i}, b.ref("D", {b.iv(i, 1, 1)}), {b.ref("A", {b.iv(i)})},
                  {.loads = 1, .stores = 1});
  Program p = b.build();
  Layout l = layout({P}, {{"D", {block(0)}}, {"A", {block(0)}}});
  auto terms = comm(run(p, l), s, "A");
  ASSERT_EQ(terms.size(), 1u);
  EXPECT_EQ(terms[0].primitive, "Shift") << terms[0].rule;
  std::vector<double> exact(P, 0.0);
  for (int64_t ii = 1; ii <= 32; ++ii)
    if (int64_t from = (ii - 1) / 2, to = ii / 3; from != to)
      exact[size_t(from)] += 8;
  for (int64_t q = 0; q < P; ++q)
    EXPECT_DOUBLE_EQ(terms[0].repetitions * terms[0].messageBytes * terms[0].senders.partAt({q}),
                     exact[size_t(q)])
        << "processor " << q;
  EstimateOptions thesis;
  thesis.exactOwners = false;
  for (const auto &t : comm(run(p, l, thesis), s, "A"))
    EXPECT_NE(t.primitive, "Shift") << t.rule;

  // Where D is replicated over two mesh columns and the operand is
  // B(I,32), held by mesh column 1 alone -- D(I+1) = B(I,32) -- that
  // column sends each element to both copies of its D: along the columns
  // all it holds, along the rows the elements that cross; column 0 sends
  // nothing. The thesis's D-Gather charges both columns a whole block,
  // doubled.
  ModelBuilder b2;
  b2.array("D", {33});
  b2.array("B", {32, 32});
  auto i2 = b2.loop("I", b2.c(1), b2.c(32), "", 1, true);
  auto s2 = b2.stmt({i2}, b2.ref("D", {b2.iv(i2, 1, 1)}), {b2.ref("B", {b2.iv(i2), b2.c(32)})},
                    {.loads = 1, .stores = 1});
  Program p2 = b2.build();
  Layout l2 = layout({8, 2}, {{"D", {block(0)}}, {"B", {block(0), block(1)}}});
  auto moved = comm(run(p2, l2), s2, "B");
  ASSERT_FALSE(moved.empty());
  for (int64_t q = 0; q < 8; ++q)
    for (int64_t c = 0; c < 2; ++c) {
      double expected = 0;
      for (int64_t ii = 1; ii <= 32; ++ii)
        if (c == 1 && (ii - 1) / 4 == q)
          expected += 8 * (ii / 5 == q ? 1 : 2); // D(ii+1) in blocks of 5
      double sent = 0;
      for (const auto &t : moved)
        sent += sentAt(t.primitive, t.groupSize, t.repetitions, t.messageBytes, t.senders, {q, c})
                    .bytes;
      EXPECT_DOUBLE_EQ(sent, expected) << "processor (" << q << ", " << c << ")";
    }
}

TEST(ExactOwners, APerIterationTransferCountsTheIterationsThatCross) {
  // Fig. 3.7's A(I) = F(A(I - D)), a recurrence: the element crosses at
  // the iterations whose owners differ, a Transfer each, where the thesis
  // charges (1 - 1/N) of the iterations. Over 16, blocks of 2 with D = 3:
  // all 29 cross; cyclic with D = 16: none.
  const int64_t n = 32, P = 16;
  struct Case {
    int64_t dist;
    DimLayout spec;
    double crossing;
  };
  for (const Case &c : {Case{3, block(0), 29}, Case{16, cyclic(0), 0}}) {
    ModelBuilder b;
    b.array("A", {n});
    auto i = b.loop("I", b.c(c.dist + 1), b.c(n));
    auto s = b.stmt({i}, b.ref("A", {b.iv(i)}), {b.ref("A", {b.iv(i, 1, -c.dist)})},
                    {.loads = 1, .stores = 1});
    b.dep(s, s, Dependence::Kind::Flow, "A", i, {"<"}, {c.dist});
    Program p = b.build();
    Layout l = layout({P}, {{"A", {c.spec}}});
    auto terms = comm(run(p, l), s, "A");
    double repetitions = 0;
    for (const auto &t : terms) {
      EXPECT_EQ(t.primitive, "Transfer") << t.rule;
      repetitions += t.repetitions;
    }
    EXPECT_DOUBLE_EQ(repetitions, c.crossing) << "D = " << c.dist;
    EstimateOptions thesis;
    thesis.exactOwners = false;
    auto printed = comm(run(p, l, thesis), s, "A");
    ASSERT_EQ(printed.size(), 1u);
    EXPECT_DOUBLE_EQ(printed[0].repetitions, double(n - c.dist) * (1 - 1.0 / P))
        << printed[0].rule;
  }
}

TEST(Coalescing, ShiftsOnTwoMeshDimensionsRideOnTheWidest) {
  // dflux's DP(I,J) = f(P(I,J+1), P(I,J), P(I,J-1)) on a 2x2 mesh, DP(1:195,
  // 1:35) and P(1:194, 1:34) blocked in both dimensions: every reference
  // crosses a row boundary, and P(I,J+1) also the widest column boundary
  // towards the same neighbours, so its messages carry the others.
  auto program = [](bool all) {
    ModelBuilder b;
    b.array("DP", {195, 35});
    b.array("P", {194, 34});
    auto j = b.loop("J", b.c(3), b.c(33), "", 1, true);
    auto i = b.loop("I", b.c(2), b.c(193), j, 1, true);
    std::vector<Reference> rhs = {b.ref("P", {b.iv(i), b.iv(j, 1, 1)})};
    if (all) {
      rhs.push_back(b.ref("P", {b.iv(i), b.iv(j)}));
      rhs.push_back(b.ref("P", {b.iv(i), b.iv(j, 1, -1)}));
    }
    b.stmt({j, i}, b.ref("DP", {b.iv(i), b.iv(j)}), rhs, {.loads = 3, .stores = 1});
    return b.build();
  };
  Layout l = layout({2, 2}, {{"DP", {block(0), block(1)}}, {"P", {block(0), block(1)}}});
  auto widest = comm(run(program(false), l), "S1", "P");
  auto all = comm(run(program(true), l), "S1", "P");
  ASSERT_FALSE(widest.empty());
  ASSERT_EQ(all.size(), widest.size());
  for (size_t k = 0; k < all.size(); ++k)
    EXPECT_DOUBLE_EQ(all[k].messageBytes, widest[k].messageBytes);
  EstimateOptions separate;
  separate.coalescing = false;
  EXPECT_GT(comm(run(program(true), l, separate), "S1", "P").size(), widest.size());
}

TEST(Computation, ARecurrenceThroughAnArrayHeldWholeAlongTheMeshIsNoRecurrence) {
  // Fig. 4.20: DO J / DO I: A(I) = F(A(I-1)); C(I,J) = F(B(I,J), A(I)). The
  // J loop carries A's dependences, so C's columns follow one another -- on
  // processors that exchange A. Where no processor along C's column
  // dimension holds a different part of A (A on no mesh dimension), each
  // runs A's writes itself and the columns are divided like a doall's.
  const int64_t n = 32, N = 4;
  ModelBuilder b;
  b.array("A", {n});
  b.array("B", {n, n});
  b.array("C", {n, n});
  auto j = b.loop("J", b.c(2), b.c(n));
  auto i = b.loop("I", b.c(2), b.c(n), j);
  auto s1 = b.stmt({j, i}, b.ref("A", {b.iv(i)}), {b.ref("A", {b.iv(i, 1, -1)})},
                   {.loads = 1, .stores = 1, .fadd = 1, .fmul = 1});
  auto s2 = b.stmt({j, i}, b.ref("C", {b.iv(i), b.iv(j)}),
                   {b.ref("B", {b.iv(i), b.iv(j)}), b.ref("A", {b.iv(i)})},
                   {.loads = 2, .stores = 1, .fadd = 1, .fmul = 2});
  b.dep(s1, s1, K::Flow, "A", i, {"=", "<"}, {0, 1});
  b.dep(s1, s1, K::Output, "A", j, {"<", "="}, {1, 0});
  b.dep(s1, s2, K::Flow, "A", "", {"=", "="}, {0, 0});
  b.dep(s1, s2, K::Flow, "A", j, {"<", "="}, {1, 0}); // as the analyzer keeps it
  b.dep(s2, s1, K::Anti, "A", j, {"<", "="}, {1, 0});
  Program p = b.build();
  auto columns = [&](DimLayout a) {
    return layout({N}, {{"A", {a}}, {"B", {collapsed(), block(0)}}, {"C", {collapsed(), block(0)}}});
  };
  // J = 2..32 over blocks of 8: the busiest processor has 8 columns.
  EXPECT_DOUBLE_EQ(computation(run(p, columns(collapsed())), s2)->repetitions, 31.0 * 8);
  // A distributed along the same mesh dimension: the columns wait for A.
  EXPECT_DOUBLE_EQ(computation(run(p, columns(block(0))), s2)->repetitions, 31.0 * 31);
}

TEST(Replication, OneHolderMulticastsToEveryCopyOfTheLhs) {
  // A(I) = B(I), A replicated, B in one block as wide as its extent: the one
  // processor holding B sends it to every copy of A (a ManyToManyMulticast
  // among the holders alone would cost nothing).
  const int64_t n = 16, N = 4;
  const auto [p, s] = copy(n);
  Layout l = layout({N}, {{"A", {replicated(0)}}, {"B", {blockCyclic(0, n)}}});
  auto terms = comm(run(p, l), s, "B");
  ASSERT_EQ(terms.size(), 1u);
  EXPECT_EQ(terms[0].primitive, "OneToManyMulticast");
  EXPECT_EQ(terms[0].groupSize, N);
  EXPECT_GT(terms[0].seconds, 0);
}

TEST(Machines, TopologyHopsAndOtherPresets) {
  const int64_t n = 64;
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n});
  b.array("B", {n});
  auto i = b.loop("I", b.c(2), b.p("N"), "", 1, true);
  b.stmt({i}, b.ref("A", {b.iv(i)}), {b.ref("B", {b.iv(i, 1, -1)})},
         {.loads = 1, .stores = 1, .fadd = 1});
  Program p = b.build();
  Layout l = layout({8}, {{"A", {block(0)}}, {"B", {block(0)}}});
  Machine hop = ipsc2();
  hop.perHop = 10e-6;
  hop.grayCodeEmbedding = false;
  auto plain = estimate(p, l, hop);
  EstimateOptions o;
  o.topologyHops = true;
  auto hops = estimate(p, l, hop, o);
  ASSERT_TRUE(plain.ok() && hops.ok());
  // One boundary Shift of 1 element: 2 messages, each 2 hops away (binary
  // labels) at 10 us a hop.
  EXPECT_NEAR(hops->communicationSeconds - plain->communicationSeconds,
              2 * 2 * 10e-6, 1e-12);
  for (const char *m : {"ncube7", "cluster"}) {
    auto e = estimate(p, l, *machinePreset(m));
    ASSERT_TRUE(e.ok());
    EXPECT_GT(e->computationSeconds, 0);
    EXPECT_GT(e->communicationSeconds, 0);
  }
  // The cluster computes far faster than the iPSC/2.
  EXPECT_LT(estimate(p, l, *machinePreset("cluster"))->computationSeconds,
            1e-3 * estimate(p, l, ipsc2())->computationSeconds);
}

TEST(Tiling, APairConstantWithinATileOfItsLoopGetsItsOwnTerm) {
  // C(I,J) = B(K,J) on 2x8: C's J on mesh dimension 0 (blocks of 8), B's K
  // there too; C's I and B's J on dimension 1 (blocks of 2). Loop J is
  // tiled for C's J (section 4.4.3). Within one of its tiles B's J crosses
  // four processors of dimension 1 while C's I stays on one: B's columns
  // move. The fastest sub-reference, B's J, sets the tile (eight of them),
  // and the pair constant within a tile gets (1 - 1/N) Transfer(1). It had
  // no term: "absorbed" by the tile.
  const int64_t n = 16;
  ModelBuilder b;
  b.array("C", {n, n});
  b.array("B", {n, n});
  auto i = b.loop("I", b.c(1), b.c(n), "", 1, true);
  auto j = b.loop("J", b.c(1), b.c(n), i, 2, true);
  auto k = b.loop("K", b.c(1), b.c(n), j, 3, true);
  auto s = b.stmt({i, j, k}, b.ref("C", {b.iv(i), b.iv(j)}), {b.ref("B", {b.iv(k), b.iv(j)})},
                  {.loads = 1, .stores = 1});
  Layout l = layout({2, 8}, {{"C", {block(1), block(0)}}, {"B", {block(0), block(1)}}});
  auto terms = comm(run(b.build(), l), s, "B");
  bool transfer = false;
  for (const auto &t : terms) {
    // The eight tiles of B's J; the Transfer's in 7/8 of them.
    bool isTransfer = t.primitive == "Transfer";
    EXPECT_DOUBLE_EQ(t.repetitions, isTransfer ? 7 : 8) << t.primitive;
    transfer = transfer || isTransfer;
  }
  EXPECT_TRUE(transfer);
}

} // namespace
} // namespace dlayout::test
