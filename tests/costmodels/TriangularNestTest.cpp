//===- tests/costmodels/TriangularNestTest.cpp - Nests costed per outer iteration ===//
//
// Beyond the thesis (OuterSamples.h): a nest whose inner bounds vary with
// enclosing indices, counted and its communication costed at samples of
// those indices rather than at Fig. 3.2's means. Expected values are
// counted here by enumerating the iterations or the owners.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

#include <set>
#include <tuple>

namespace dlayout::test {
namespace {

using K = Dependence::Kind;

/// lu's trailing update, DO K = 1, N-1 / DO I = K+1, N / DO J = K+1, N:
/// A(I,J) = A(I,J) - A(I,K) * A(K,J), the dependence carried by K; with
/// `scaling`, lu's first step before it in each K, DO I = K+1, N:
/// A(I,K) = A(I,K) / A(K,K) (then statement S1, the update S2).
Program trailingUpdate(int64_t n, bool scaling = false) {
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n, n});
  auto k = b.loop("K", b.c(1), b.p("N", 1, -1));
  std::string scale;
  if (scaling) {
    auto i = b.loop("I0", b.iv(k, 1, 1), b.p("N"), k, 1, true);
    scale = b.stmt({k, i}, b.ref("A", {b.iv(i), b.iv(k)}),
                   {b.ref("A", {b.iv(i), b.iv(k)}), b.ref("A", {b.iv(k), b.iv(k)})},
                   {.loads = 2, .stores = 1, .fdiv = 1});
  }
  auto i = b.loop("I", b.iv(k, 1, 1), b.p("N"), k, 1, true);
  auto j = b.loop("J", b.iv(k, 1, 1), b.p("N"), i, 1, true);
  auto s = b.stmt({k, i, j}, b.ref("A", {b.iv(i), b.iv(j)}),
                  {b.ref("A", {b.iv(i), b.iv(j)}), b.ref("A", {b.iv(i), b.iv(k)}),
                   b.ref("A", {b.iv(k), b.iv(j)})},
                  {.loads = 3, .stores = 1, .fadd = 1, .fmul = 1});
  b.dep(s, s, K::Flow, "A", k, {"<", "*", "*"}, {1, 0, 0});
  if (scaling) {
    b.dep(scale, s, K::Flow, "A", "", {"="}, {0});
    b.dep(s, scale, K::Flow, "A", k, {"<"}, {1});
  }
  return b.build();
}

TEST(TriangularNest, CountedPerIterationOfTheLoopItsBoundsVaryWith) {
  // Rows blocked over 4: at step K the last block's owner runs
  // min(n/4, n-K) rows of n-K columns, and it is the busiest at every K.
  // Fig. 3.2 takes K at its mean instead: n-1 steps of the mean step's
  // rows and columns, which counts more.
  const int64_t n = 32, N = 4;
  Program p = trailingUpdate(n);
  Layout l = layout({N}, {{"A", {block(0), collapsed()}}});
  double exact = 0;
  for (int64_t k = 1; k <= n - 1; ++k)
    exact += double(std::min(n / N, n - k) * (n - k));
  const Estimate e = run(p, l);
  const EstimateTerm *c = computation(e, "S1");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->repetitions, exact);
  // The thesis's formulas keep Fig. 3.2's mean (K = 16: 16 rows and
  // columns, 8 rows on the busiest).
  EstimateOptions thesis;
  thesis.exactOwners = false;
  const Estimate mean = run(p, l, thesis);
  const EstimateTerm *m = computation(mean, "S1");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->repetitions, double((n - 1) * (n / N) * 16));
  EXPECT_GT(m->repetitions, exact);
}

TEST(TriangularNest, IterationsRunByTheOwnerOfAnElementTheOuterIndexNames) {
  // lu's scaling step, columns blocked over 4. Column K's owner scales it:
  // the busiest is the first block's owner, n-1 + ... + n-8 rows, not the
  // n-1 + ... + 1 of every column together.
  const int64_t n = 32, N = 4, b = n / N;
  const Estimate e = run(trailingUpdate(n, true), layout({N}, {{"A", {collapsed(), block(0)}}}));
  const EstimateTerm *c = computation(e, "S1");
  ASSERT_NE(c, nullptr);
  double first = 0;
  for (int64_t kk = 1; kk <= b; ++kk)
    first += double(n - kk);
  EXPECT_EQ(c->repetitions, first);
}

TEST(TriangularNest, CommunicationCountedPerIterationOfTheLoopItsBoundsVaryWith) {
  // Columns blocked over 4: at step K, A(I,K)'s column K+1..n leaves its
  // owner for the owners of columns K+1..n, the owner among them or not
  // (K = 4: columns 5..16 lie on 1..3, column 4 on 0: a group of 4).
  // Fig. 3.2's mean K = 8 has a group of 2 for every K, from nowhere in
  // particular. (n - 1 <= kCommSamples steps: each is costed.)
  const int64_t n = 16, N = 4, b = n / N;
  Program p = trailingUpdate(n);
  Layout l = layout({N}, {{"A", {collapsed(), block(0)}}});
  double seconds = 0, fromFirst = 0;
  for (int64_t k = 1; k <= n - 1; ++k) {
    const int64_t lo = k / b, source = (k - 1) / b; // owners of columns k+1 and k
    const int64_t g = N - lo + (source < lo ? 1 : 0);
    const double bytes = 8.0 * double(n - k);
    seconds += g > 1 ? ceilLog2(double(g)) * T(bytes) : 0;
    if (source == 0)
      fromFirst += double(g - 1) * bytes;
  }
  const Estimate e = run(p, l);
  auto c = comm(e, "S1");
  ASSERT_FALSE(c.empty());
  double predicted = 0, sentByFirst = 0;
  for (const EstimateTerm &t : c) {
    EXPECT_EQ(t.primitive, "OneToManyMulticast");
    predicted += t.seconds;
    ASSERT_EQ(t.senders.meshDim, 0); // column K's owner, known at each K
    if (t.senders.first == 0)
      sentByFirst += double(t.groupSize - 1) * t.repetitions * t.messageBytes;
  }
  EXPECT_NEAR(predicted, seconds, 1e-9 * seconds);
  EXPECT_NEAR(sentByFirst, fromFirst, 1e-9 * fromFirst); // 3 x 8 x (15 + ... + 12)
  // The thesis's formulas keep the mean: one term, senders untracked.
  EstimateOptions thesis;
  thesis.exactOwners = false;
  auto m = comm(run(p, l, thesis), "S1");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].repetitions, double(n - 1));
  EXPECT_EQ(m[0].senders.meshDim, -1);
}

TEST(TriangularNest, ASampleStandingForStepsOfOtherOwnersCreditsItsOwnerItsShare) {
  // n - 1 = 63 steps, more than kCommSamples: each sample stands for 2
  // consecutive K. Columns cyclic over 4, column K's owner changes with
  // every K, so the sample's owner sends 1 of its 2 multicasts: the
  // busiest processor about (n - 1) / 4 of them, not all n - 1 (the samples
  // fall on one owner: the others' steps are counted in time, not in what
  // they send).
  const int64_t n = 64, N = 4;
  auto c = comm(run(trailingUpdate(n), layout({N}, {{"A", {collapsed(), cyclic(0)}}})), "S1");
  ASSERT_FALSE(c.empty());
  std::vector<double> sent(N, 0.0);
  double all = 0;
  for (const EstimateTerm &t : c) {
    ASSERT_EQ(t.senders.meshDim, 0);
    ASSERT_EQ(t.senders.first, t.senders.last);
    sent[size_t(t.senders.first)] += t.repetitions * t.senders.share;
    all += t.repetitions;
  }
  EXPECT_DOUBLE_EQ(all, double(n - 1));
  EXPECT_NEAR(*std::max_element(sent.begin(), sent.end()), double(n - 1) / N, 1.0);
}

/// What each processor of `mesh` sends in the multicasts and Transfers
/// `terms` (of `array`, if named), as validate/ counts the busiest's
/// prediction: g - 1 messages a multicast, one a Transfer, its share of the
/// repetitions, its part. Indexed by coordinates, the first mesh dimension
/// fastest.
std::vector<double> bytesSentBy(const std::vector<EstimateTerm> &terms,
                                const std::vector<int64_t> &mesh,
                                const std::string &array = "") {
  int64_t P = 1;
  for (int64_t m : mesh)
    P *= m;
  std::vector<double> sent(size_t(P), 0.0);
  for (int64_t q = 0; q < P; ++q) {
    std::vector<int64_t> at;
    for (int64_t rest = q; int64_t m : mesh)
      at.push_back(rest % m), rest /= m;
    for (const EstimateTerm &t : terms)
      if ((array.empty() || t.array == array) && t.senders.includes(at))
        sent[size_t(q)] += double(t.primitive == "Transfer" ? 1 : t.groupSize - 1) *
                           t.repetitions * t.senders.share * t.messageBytes *
                           t.senders.partAt(at);
  }
  return sent;
}

TEST(TriangularNest, APivotLeavesOnlyFromTheMeshColumnHoldingItsColumn) {
  // lu's multipliers, DO K / DO I = K+1, n: A(I,K) = A(I,K) / A(K,K), A
  // blocked on a 2 x 2 mesh: at step K the pivot A(K,K) goes down mesh
  // column K's owner, from row block 0 to 1 while rows of both lie below
  // K (K = 1..4). The other mesh column has no part of column K and sends
  // nothing; once counted as if it sent the pivot too.
  const int64_t n = 8;
  const std::vector<int64_t> mesh{2, 2};
  auto c = comm(run(trailingUpdate(n, true),
                    layout(mesh, {{"A", {block(0), block(1)}}})),
                "S1");
  ASSERT_FALSE(c.empty());
  const std::vector<double> sent = bytesSentBy(c, mesh);
  EXPECT_DOUBLE_EQ(sent[0], 4 * 8.0); // coordinates (0, 0)
  EXPECT_DOUBLE_EQ(sent[1], 0.0);     // (1, 0): the pivots of K > 4 are its own
  EXPECT_DOUBLE_EQ(sent[2], 0.0);     // (0, 1): none of column K
  EXPECT_DOUBLE_EQ(sent[3], 0.0);
}

TEST(TriangularNest, AReplicatedLhsIsFilledByTheOwnerOfTheRowTheOuterIndexNames) {
  // DO K / DO J = K+1, n: D(J) = A(K,J), D on every processor, A's rows
  // blocked over 4, A written in K (tred2's D(J) = Z(L,J)): at step K row
  // K's owner multicasts its n - K elements; the others send nothing then.
  const int64_t n = 16, N = 4, b = n / N;
  ModelBuilder mb;
  mb.param("N", n);
  mb.array("A", {n, n});
  mb.array("D", {n});
  auto k = mb.loop("K", mb.c(1), mb.p("N", 1, -1));
  auto j = mb.loop("J", mb.iv(k, 1, 1), mb.p("N"), k, 1, true);
  auto s1 = mb.stmt({k, j}, mb.ref("D", {mb.iv(j)}), {mb.ref("A", {mb.iv(k), mb.iv(j)})},
                    {.loads = 1, .stores = 1});
  auto j2 = mb.loop("J2", mb.iv(k, 1, 1), mb.p("N"), k, 1, true);
  auto s2 = mb.stmt({k, j2}, mb.ref("A", {mb.iv(k, 1, 1), mb.iv(j2)}),
                    {mb.ref("A", {mb.iv(k, 1, 1), mb.iv(j2)}), mb.ref("D", {mb.iv(j2)})},
                    {.loads = 2, .stores = 1, .fadd = 1});
  mb.dep(s2, s1, K::Flow, "A", k, {"<"}, {1});
  mb.dep(s1, s2, K::Flow, "D", "", {"="}, {0});
  const Estimate e = run(mb.build(), layout({N}, {{"A", {block(0), collapsed()}},
                                                  {"D", {collapsed()}}}));
  auto c = comm(e, s1);
  ASSERT_FALSE(c.empty());
  for (const EstimateTerm &t : c) {
    EXPECT_EQ(t.primitive, "OneToManyMulticast") << t.rule;
    ASSERT_EQ(t.senders.meshDim, 0) << t.rule; // row K's owner, known at each K
    ASSERT_EQ(t.senders.first, t.senders.last);
  }
  const std::vector<double> sent = bytesSentBy(c, {N});
  std::vector<double> exact(N, 0.0);
  for (int64_t kk = 1; kk <= n - 1; ++kk)
    exact[size_t((kk - 1) / b)] += double(N - 1) * 8.0 * double(n - kk);
  for (int64_t q = 0; q < N; ++q)
    EXPECT_NEAR(sent[size_t(q)], exact[size_t(q)], 1e-9 * exact[0]) << "processor " << q;
}

/// DO I = 1, n-1 / DO J = 1, I / DO K = J+1, I: X(K) = X(K) + Z(K,J), Z
/// written in I (tred2's E(K) = E(K) + Z(K,J)*F, its triangle of Z fetched
/// once per I); the program and that statement.
std::pair<Program, std::string> triangleFetch(int64_t n) {
  ModelBuilder mb;
  mb.param("N", n);
  mb.array("Z", {n, n});
  mb.array("X", {n});
  auto i = mb.loop("I", mb.c(1), mb.p("N", 1, -1));
  auto j = mb.loop("J", mb.c(1), mb.iv(i), i);
  auto k = mb.loop("K", mb.iv(j, 1, 1), mb.iv(i), j, 1, true);
  auto s1 = mb.stmt({i, j, k}, mb.ref("X", {mb.iv(k)}),
                    {mb.ref("X", {mb.iv(k)}), mb.ref("Z", {mb.iv(k), mb.iv(j)})},
                    {.loads = 2, .stores = 1, .fadd = 1});
  auto j2 = mb.loop("J2", mb.c(1), mb.p("N"), i, 1, true);
  auto s2 = mb.stmt({i, j2}, mb.ref("Z", {mb.iv(j2), mb.iv(i, 1, 1)}),
                    {mb.ref("X", {mb.iv(j2)})}, {.loads = 1, .stores = 1});
  mb.dep(s2, s1, K::Flow, "Z", i, {"<"}, {1});
  mb.dep(s1, s2, K::Flow, "X", "", {"="}, {0});
  return {mb.build(), s1};
}

TEST(TriangularNest, AMessageOverATriangleHoldsWhatEachOwnerHasOfIt) {
  // DO I / DO J = 1, I / DO K = J+1, I: X(K) = X(K) + Z(K,J), X on every
  // processor, Z's rows blocked over 4 and written in I (tred2's E(K) =
  // E(K) + Z(K,J)*F): Z's triangle is fetched once per I, row K's owner
  // sending its K - 1 elements to the 3 other copies. Fig. 3.2's mean J
  // charged every block the same share; the first row has none of it, the
  // last none before I reaches it. (n - 1 steps, each a sample.)
  const int64_t n = 4, N = 4, b = n / N;
  const auto [p, s1] = triangleFetch(n);
  const Estimate e = run(p, layout({N}, {{"Z", {block(0), collapsed()}}, {"X", {collapsed()}}}));
  const std::vector<double> sent = bytesSentBy(comm(e, s1), {N}, "Z");
  std::vector<double> exact(N, 0.0);
  for (int64_t ii = 1; ii <= n - 1; ++ii)
    for (int64_t kk = 2; kk <= ii; ++kk)
      exact[size_t((kk - 1) / b)] += double(N - 1) * 8.0 * double(kk - 1);
  for (int64_t q = 0; q < N; ++q)
    EXPECT_NEAR(sent[size_t(q)], exact[size_t(q)], 1e-9 * exact[1]) << "processor " << q;
}

TEST(TriangularNest, AFetchOverATriangleIsCountedAsItRuns) {
  // The nest above on a 2 x 2 mesh, Z blocked on both dimensions and X's
  // elements blocked on the second, copies along the first (tred2's E on
  // 2 x 2): the column segment Z(J+1:I, J) lies in one row block at some J
  // and in two at others. Counted as the executor forms it
  // (CountedFetch.h): each element from its owner to each holder of X(K)
  // lacking it, once per I. Summing the samples' terms (MessageSum.h)
  // charged row block 1 80 bytes at I = 9, where it sends its 8 elements
  // to 2 holders (128); Fig. 3.2's means put the whole triangle on row
  // block 0.
  const int64_t n = 16;
  const std::vector<int64_t> mesh{2, 2};
  const auto [p, s1] = triangleFetch(n);
  const Estimate e = run(p, layout(mesh, {{"Z", {block(0), block(1)}}, {"X", {block(1)}}}));
  const std::vector<double> sent = bytesSentBy(comm(e, s1), mesh, "Z");
  // Blocks of 8: Z(K,J)'s owner (K's block, J's), X(K)'s holders (either
  // first coordinate, K's block); processors by coordinates, the first
  // fastest.
  auto block = [&](int64_t x) { return (x - 1) / (n / 2); };
  std::vector<double> exact(4, 0.0);
  for (int64_t ii = 1; ii <= n - 1; ++ii) {
    std::set<std::tuple<int64_t, int64_t, int64_t, int64_t>> sends; // from, to, K, J
    for (int64_t jj = 1; jj <= ii; ++jj)
      for (int64_t kk = jj + 1; kk <= ii; ++kk)
        for (int64_t row = 0; row < 2; ++row) {
          const int64_t from = block(kk) + 2 * block(jj), to = row + 2 * block(kk);
          if (from != to)
            sends.insert({from, to, kk, jj});
        }
    for (const auto &[from, to, kk, jj] : sends)
      exact[size_t(from)] += 8.0;
  }
  for (int64_t q = 0; q < 4; ++q)
    EXPECT_NEAR(sent[size_t(q)], exact[size_t(q)], 1e-9 * exact[1]) << "processor " << q;
  EXPECT_GT(exact[1], 0.0); // row block 1 sends most: twice its part
  EXPECT_GT(sent[1], sent[0]);
}

TEST(TriangularNest, TiledFetchesOverATriangleAreCountedAsTheyRun) {
  // fig2_2's DO MP / DO MQ = 1, MP / DO MI:
  //   S1: X(MI,MQ) = X(MI,MQ) + V(MP,MI),  S2: X(MI,MP) = X(MI,MP) + V(MQ,MI),
  // V's rows and X's columns blocked over 4. S1's fetch is tiled by MP, its
  // root moving with the tile; S2's driver MP bounds MQ but is read by no
  // subscript of V(MQ,MI), its iterations reaching overlapping rows. Each
  // counted as the executor forms it: row block q goes to the processors
  // below q for S1, above q for S2. Fig. 3.2's means gave every root the
  // mean triangle (S1) and only the first half of them anything (S2).
  const int64_t n = 16, N = 4, b = n / N;
  ModelBuilder mb;
  mb.array("V", {n, n});
  mb.array("X", {n, n});
  auto mp = mb.loop("MP", mb.c(1), mb.c(n));
  auto mq = mb.loop("MQ", mb.c(1), mb.iv(mp), mp);
  auto mi = mb.loop("MI", mb.c(1), mb.c(n), mq, 1, true);
  const OpCounts ops{.loads = 2, .stores = 1, .fadd = 1};
  auto s1 = mb.stmt({mp, mq, mi}, mb.ref("X", {mb.iv(mi), mb.iv(mq)}),
                    {mb.ref("X", {mb.iv(mi), mb.iv(mq)}), mb.ref("V", {mb.iv(mp), mb.iv(mi)})}, ops);
  auto s2 = mb.stmt({mp, mq, mi}, mb.ref("X", {mb.iv(mi), mb.iv(mp)}),
                    {mb.ref("X", {mb.iv(mi), mb.iv(mp)}), mb.ref("V", {mb.iv(mq), mb.iv(mi)})}, ops);
  const Estimate e = run(mb.build(), layout({N}, {{"V", {block(0), collapsed()}},
                                                  {"X", {collapsed(), block(0)}}}));
  const std::string stmts[] = {s1, s2};
  for (int which = 0; which < 2; ++which) {
    // Rows of V each processor sends each other one, enumerated.
    std::set<std::tuple<int64_t, int64_t, int64_t>> sends; // from, to, row
    for (int64_t p = 1; p <= n; ++p)
      for (int64_t q = 1; q <= p; ++q) {
        const int64_t row = which == 0 ? p : q, column = which == 0 ? q : p;
        const int64_t from = (row - 1) / b, to = (column - 1) / b;
        if (from != to)
          sends.insert({from, to, row});
      }
    std::vector<double> exact(N, 0.0);
    for (const auto &[from, to, row] : sends)
      exact[size_t(from)] += 8.0 * double(n);
    const std::vector<double> sent = bytesSentBy(comm(e, stmts[which]), {N}, "V");
    for (int64_t q = 0; q < N; ++q)
      EXPECT_NEAR(sent[size_t(q)], exact[size_t(q)], 1e-9 * exact[1])
          << stmts[which] << ", processor " << q;
  }
}

TEST(TriangularNest, AParallelOuterLoopKeepsTheMean) {
  // DO I (parallel) / DO J = 1, I: I divides the iterations, so summing
  // the busiest per I would count every I on one processor: Fig. 3.2.
  const int64_t n = 64, N = 4;
  ModelBuilder b;
  b.param("N", n);
  b.array("D", {n, n});
  auto i = b.loop("I", b.c(1), b.p("N"), "", 1, true);
  auto j = b.loop("J", b.c(1), b.iv(i), i, 1, true);
  b.stmt({i, j}, b.ref("D", {b.iv(i), b.iv(j)}), {}, {.stores = 1});
  const Estimate e = run(b.build(), layout({N}, {{"D", {block(0), collapsed()}}}));
  const EstimateTerm *c = computation(e, "S1");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->repetitions, double(n / N * 32)); // 16 rows of the mean I's 32
}

TEST(TriangularNest, SeveralDriversShareTheSamples) {
  // tred2's E(K) = E(K) + Z(K,J) * F: DO L = 1, N-1 / DO J = 1, L /
  // DO K = J+1, L. Both L and J drive an inner bound, and their
  // iterations together (about N^2 / 2) are far more than kOuterSamples:
  // each is sampled within its share. Fig. 3.2's means (L, then J, then
  // K at their means) count 3/4 of the L^2 / 2 sum on one processor.
  const int64_t n = 64;
  ModelBuilder b;
  b.param("N", n);
  b.array("E", {n});
  b.array("Z", {n, n});
  auto l = b.loop("L", b.c(1), b.p("N", 1, -1));
  auto j = b.loop("J", b.c(1), b.iv(l), l);
  auto k = b.loop("K", b.iv(j, 1, 1), b.iv(l), j);
  auto s = b.stmt({l, j, k}, b.ref("E", {b.iv(k)}),
                  {b.ref("E", {b.iv(k)}), b.ref("Z", {b.iv(k), b.iv(j)})},
                  {.loads = 2, .stores = 1, .fadd = 1, .fmul = 1});
  b.dep(s, s, K::Flow, "E", l, {"<", "*", "*"}, {1, 0, 0});
  b.dep(s, s, K::Flow, "E", j, {"=", "<", "*"}, {0, 1, 0});
  const Program p = b.build();
  double exact = 0;
  for (int64_t L = 1; L <= n - 1; ++L)
    exact += double(L * (L - 1) / 2);
  const Layout one = layout({1}, {{"E", {block(0)}}, {"Z", {collapsed(), block(0)}}});
  const Estimate sampled = run(p, one);
  const EstimateTerm *c = computation(sampled, "S1");
  ASSERT_NE(c, nullptr);
  EXPECT_NEAR(c->repetitions, exact, 0.03 * exact);
  EstimateOptions thesis;
  thesis.exactOwners = false;
  const Estimate means = run(p, one, thesis);
  const EstimateTerm *m = computation(means, "S1");
  ASSERT_NE(m, nullptr);
  EXPECT_LT(m->repetitions, 0.8 * exact);
}

} // namespace
} // namespace dlayout::test
