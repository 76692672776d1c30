//===- tests/costmodels/MessagesTest.cpp - What one processor sends -------===//
//
// The message-level rules beyond the thesis that make the busiest
// processor's predicted bytes those a run sends (validate/): references
// fetched together in the union of their sections, the share of a tiled
// operand's terms one owner sends, the concurrent Gathers' receivers that
// send only to the others. dflux's FS(I,J,N) against its J-blocked 2-D
// arrays (samples/paradigm/dflux.F, loops 18-30 and 47-60), reduced.
// (Fetches another statement's bring: SubsumptionTest.cpp; a reduction's
// partial results: PartialsExchangeTest.cpp.)
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"
#include "costmodels/LayoutView.h"

#include <algorithm>

namespace dlayout::test {
namespace {

constexpr int64_t n = 16, N = 4;

/// FS(n, n, 4) spread over its planes (N), the 2-D arrays over their
/// columns (J): dflux's 1-D BLOCK on its third dimension.
Layout planesAndColumns() {
  return layout({N}, {{"FS", {collapsed(), collapsed(), block(0)}},
                      {"P", {collapsed(), block(0)}},
                      {"DIS2", {collapsed(), block(0)}}});
}

ModelBuilder arrays() {
  ModelBuilder b;
  b.param("N", n);
  b.array("FS", {n, n, 4});
  b.array("P", {n, n});
  b.array("DIS2", {n, n});
  return b;
}

TEST(SectionUnion, NeighbouringReferencesTravelInOneMessage) {
  // FS(I,J,4) = P(I+1,J) - P(I,J): plane 4's owner gathers P's columns
  // from the others. The two references differ by one in I, a dimension on
  // no mesh dimension: one message per sender with the union of their
  // sections, I = 1 .. n (n elements), not two of n - 1.
  ModelBuilder b = arrays();
  auto j = b.loop("J", b.c(1), b.p("N"), "", 1, true);
  auto i = b.loop("I", b.c(1), b.p("N", 1, -1), j, 1, true);
  auto s = b.stmt({j, i}, b.ref("FS", {b.iv(i), b.iv(j), b.c(4)}),
                  {b.ref("P", {b.iv(i, 1, 1), b.iv(j)}), b.ref("P", {b.iv(i), b.iv(j)})},
                  {.loads = 2, .stores = 1, .fadd = 1});
  Program p = b.build();
  auto c = comm(run(p, planesAndColumns()), s, "P");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].primitive, "Gather");
  EXPECT_EQ(c[0].messageWords, double(n * (n / N)));
  EXPECT_NE(c[0].rule.find("serves 2 references"), std::string::npos) << c[0].rule;
  // The union along the distributed dimension: P(I,J+1) and P(I,J) hold no
  // more than a block of columns per sender.
  ModelBuilder b2 = arrays();
  auto j2 = b2.loop("J", b2.c(1), b2.p("N", 1, -1), "", 1, true);
  auto i2 = b2.loop("I", b2.c(1), b2.p("N"), j2, 1, true);
  auto s2 = b2.stmt({j2, i2}, b2.ref("FS", {b2.iv(i2), b2.iv(j2), b2.c(4)}),
                    {b2.ref("P", {b2.iv(i2), b2.iv(j2, 1, 1)}), b2.ref("P", {b2.iv(i2), b2.iv(j2)})},
                    {.loads = 2, .stores = 1, .fadd = 1});
  auto c2 = comm(run(b2.build(), planesAndColumns()), s2, "P");
  ASSERT_EQ(c2.size(), 1u);
  EXPECT_EQ(c2[0].messageWords, double(n * (n / N)));
  // Without coalescing, each reference is a Gather of its own.
  EstimateOptions separate;
  separate.coalescing = false;
  EXPECT_EQ(comm(run(p, planesAndColumns(), separate), s, "P").size(), 2u);
}

/// eflux's flux nest, reduced: DO J / DO I, Q = W(I+1,J,1) (a private
/// scalar, as eflux's QSP) and FS(I,J,2) = Q * W(I+1,J,2) (+ W(I+1,J,1)
/// where `both`), the rows blocked over N, the planes collapsed. The scalar
/// keeps the two statements in one loop when it is distributed
/// (LoopDistribution.h), as eflux's keep its; `tied` false makes the first
/// FS(I,J,1) = W(I+1,J,1) instead, and the loop splits in two.
std::pair<Program, std::vector<std::string>> fluxes(bool both, bool tied = true) {
  ModelBuilder b;
  b.param("N", n);
  b.array("FS", {n, n, 4});
  b.array("W", {n, n, 4});
  auto j = b.loop("J", b.c(1), b.p("N"), "", 1, true);
  auto i = b.loop("I", b.c(1), b.p("N", 1, -1), j, 1, true);
  auto w = [&](int64_t plane) { return b.ref("W", {b.iv(i, 1, 1), b.iv(j), b.c(plane)}); };
  auto s1 = tied ? b.scalarStmt({j, i}, "Q", {w(1)}, {.loads = 1}, "")
                 : b.stmt({j, i}, b.ref("FS", {b.iv(i), b.iv(j), b.c(1)}), {w(1)},
                          {.loads = 1, .stores = 1});
  std::vector<Reference> rhs{w(2)};
  if (both)
    rhs.push_back(w(1));
  auto s2 = b.stmt({j, i}, b.ref("FS", {b.iv(i), b.iv(j), b.c(2)}), std::move(rhs),
                   {.loads = unsigned(both ? 2 : 1), .stores = 1, .fadd = unsigned(both), .fmul = 1});
  Program p = b.build();
  if (tied) {
    Expr q;
    q.kind = Expr::Kind::Scalar;
    q.name = "Q";
    p.statements[1].expr = q; // reads Q
  }
  return {p, {s1, s2}};
}

Layout rows() {
  return layout({N}, {{"FS", {block(0), collapsed(), collapsed()}},
                      {"W", {block(0), collapsed(), collapsed()}}});
}

TEST(Coalescing, ShiftsOfOneArrayBeforeOneLoopAreOneMessage) {
  // W(I+1,J,1) in the first statement and W(I+1,J,2) in the second are
  // fetched before the J loop, from the next block: one message per
  // neighbour with both planes' boundary rows, as the executor's one
  // action per array and loop sends it.
  auto [p, s] = fluxes(false);
  const Estimate e = run(p, rows());
  auto first = comm(e, s[0], "W");
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].primitive, "Shift");
  EXPECT_EQ(first[0].messageWords, double(2 * n)); // a row of J per plane
  EXPECT_TRUE(comm(e, s[1], "W").empty());
  // Without coalescing, a Shift each of one plane.
  EstimateOptions separate;
  separate.coalescing = false;
  const Estimate apart = run(p, rows(), separate);
  ASSERT_EQ(comm(apart, s[1], "W").size(), 1u);
  EXPECT_EQ(comm(apart, s[1], "W")[0].messageWords, double(n));
  EXPECT_LT(e.communicationSeconds, apart.communicationSeconds);
  // Two statements nothing ties run in two copies of the loop, one after
  // the other (loop distribution): a message each.
  auto [q, t] = fluxes(false, false);
  const Estimate split = run(q, rows());
  ASSERT_EQ(comm(split, t[1], "W").size(), 1u);
  EXPECT_EQ(comm(split, t[0], "W")[0].messageWords, double(n));
}

/// B(I,J) = the sum of A(I+c,J) over `offsets`, I = first .. n - last,
/// J = 1 .. n, both loops parallel.
std::pair<Program, std::string> rowStencil(const std::vector<int64_t> &offsets, int64_t first,
                                           int64_t last) {
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n, n});
  b.array("B", {n, n});
  auto j = b.loop("J", b.c(1), b.p("N"), "", 1, true);
  auto i = b.loop("I", b.c(first), b.p("N", 1, -last), j, 1, true);
  std::vector<Reference> rhs;
  for (int64_t c : offsets)
    rhs.push_back(b.ref("A", {b.iv(i, 1, c), b.iv(j)}));
  auto s = b.stmt({j, i}, b.ref("B", {b.iv(i), b.iv(j)}), rhs,
                  {.loads = unsigned(offsets.size()), .stores = 1, .fadd = 1});
  return {b.build(), s};
}

TEST(Coalescing, BothNeighboursOverTwoCyclicProcessorsAreOneMessage) {
  // Jacobi's B(I,J) = A(I-1,J) + A(I+1,J), I = 2 .. n-1, the rows cyclic
  // over 2: a processor's rows' neighbours on both sides are the other's
  // rows, and one message carries them -- n/2 - 1 rows of each reference,
  // n/2 of the union (the executor's one action per array and loop).
  auto [p, s] = rowStencil({-1, 1}, 2, 1);
  Layout l = layout({2}, {{"A", {cyclic(0), collapsed()}}, {"B", {cyclic(0), collapsed()}}});
  auto c = comm(run(p, l), s, "A");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].primitive, "Shift");
  EXPECT_EQ(c[0].messageWords, double((n / 2) * n)) << c[0].rule;
  EstimateOptions separate;
  separate.coalescing = false;
  auto apart = comm(run(p, l, separate), s, "A");
  ASSERT_EQ(apart.size(), 2u);
  for (const auto &t : apart)
    EXPECT_EQ(t.messageWords, double((n / 2 - 1) * n)) << t.rule;
}

TEST(Coalescing, EdgesOfOneSectionFromOneNeighbourAreTheWider) {
  // B(I,J) = A(I+1,J) + A(I+2,J), the rows in blocks of 2: both come from
  // the next block, its first row and its first two, and one message
  // carries the wider edge (dflux's EP(I,J) = MAX(DP(I-1,J), .., DP(I+2,J))
  // took the sum, 448 bytes from the busiest against 416 sent). Cyclic,
  // A(I+2,J) comes from the processor after the next: the sum stands.
  auto words = [](std::vector<int64_t> offsets, DimLayout rowsOf) {
    auto [p, s] = rowStencil(offsets, 1, 2);
    Layout l = layout({N}, {{"A", {rowsOf, collapsed()}}, {"B", {rowsOf, collapsed()}}});
    double sum = 0;
    for (const auto &t : comm(run(p, l), s, "A")) {
      EXPECT_EQ(t.primitive, "Shift") << t.rule;
      sum += t.messageWords;
    }
    return sum;
  };
  EXPECT_EQ(words({1, 2}, blockCyclic(0, 2)), words({2}, blockCyclic(0, 2)));
  EXPECT_GT(words({2}, blockCyclic(0, 2)), words({1}, blockCyclic(0, 2)));
  EXPECT_EQ(words({1, 2}, cyclic(0)), words({1}, cyclic(0)) + words({2}, cyclic(0)));
  // dflux's four, BLOCK over 2N processors, blocks of two rows: A(I+2,J) is
  // the next block's whole local data (Table 4.2 case 2), not an edge, and
  // its message carries A(I+1,J)'s edge too (dflux at P = 64, rows of 34 in
  // blocks of two: 608 bytes from the busiest against 576 sent).
  auto blocksOfTwo = [](std::vector<int64_t> offsets) {
    auto [p, s] = rowStencil(offsets, 2, 2);
    Layout l = layout({2 * N}, {{"A", {block(0), collapsed()}}, {"B", {block(0), collapsed()}}});
    double sum = 0;
    for (const auto &t : comm(run(p, l), s, "A")) {
      EXPECT_EQ(t.primitive, "Shift") << t.rule;
      sum += t.messageWords;
    }
    return sum;
  };
  EXPECT_EQ(blocksOfTwo({-1, 0, 1, 2}), blocksOfTwo({-1, 0, 2}));
  EXPECT_GT(blocksOfTwo({-1, 0, 2}), blocksOfTwo({-1, 0, 1}));
}

TEST(Senders, EachCyclicNeighbourSendsTheElementsItHolds) {
  // B(I,J) = A(I,J-1) + A(I,J+1), J = 2 .. n-1, the columns cyclic over N:
  // a Shift of the local data each way. The columns J-1 (1 .. n-2) leave
  // the first two processors n/N each and the others one fewer; J+1 (3 ..
  // n) the other way round: every processor sends n/N + n/N - 1 columns,
  // not two full ones.
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n, n});
  b.array("B", {n, n});
  auto j = b.loop("J", b.c(2), b.p("N", 1, -1), "", 1, true);
  auto i = b.loop("I", b.c(1), b.p("N"), j, 1, true);
  auto s = b.stmt({j, i}, b.ref("B", {b.iv(i), b.iv(j)}),
                  {b.ref("A", {b.iv(i), b.iv(j, 1, -1)}), b.ref("A", {b.iv(i), b.iv(j, 1, 1)})},
                  {.loads = 2, .stores = 1, .fadd = 1});
  Layout l = layout({N}, {{"A", {collapsed(), cyclic(0)}}, {"B", {collapsed(), cyclic(0)}}});
  auto c = comm(run(b.build(), l), s, "A");
  ASSERT_EQ(c.size(), 2u);
  for (int64_t q = 0; q < N; ++q) {
    double sent = 0;
    for (const auto &t : c) {
      EXPECT_EQ(t.primitive, "Shift") << t.rule;
      sent += t.messageWords * t.senders.partAt({q});
    }
    EXPECT_DOUBLE_EQ(sent, double((2 * (n / N) - 1) * n)) << "processor " << q;
  }
}

TEST(Senders, ABlockPastTheLoopsRangeSendsNothing) {
  // B(I) = A(I-1) + A(I+1), I = 2 .. 31, A and B (100) in blocks of 25 over
  // 4: the lhs lies on blocks 0 and 1, A(I-1) crosses from block 0 to 1
  // (row 25), A(I+1) from block 1 to 0 (row 26), and block 1's reads end
  // at row 32, inside it: block 2 sends nothing. Each Shift has one sender,
  // one Transfer (jacobi_vla's rows on 4 processors, two of them idle: a
  // Shift's two Transfers priced on A(I+1), 1.34 times the communication
  // simulated).
  constexpr int64_t rows = 100;
  ModelBuilder b;
  b.array("A", {rows});
  b.array("B", {rows});
  auto i = b.loop("I", b.c(2), b.c(31), "", 1, true);
  auto s = b.stmt({i}, b.ref("B", {b.iv(i)}),
                  {b.ref("A", {b.iv(i, 1, -1)}), b.ref("A", {b.iv(i, 1, 1)})},
                  {.loads = 2, .stores = 1, .fadd = 1});
  Layout l = layout({N}, {{"A", {block(0)}}, {"B", {block(0)}}});
  auto c = comm(run(b.build(), l), s, "A");
  ASSERT_EQ(c.size(), 2u);
  std::vector<int64_t> from;
  for (const auto &t : c) {
    EXPECT_EQ(t.primitive, "Shift") << t.rule;
    EXPECT_EQ(t.senders.first, t.senders.last) << t.rule;
    EXPECT_DOUBLE_EQ(t.seconds, t.repetitions * T(t.messageBytes)) << t.rule;
    from.push_back(t.senders.first);
  }
  std::sort(from.begin(), from.end());
  EXPECT_EQ(from, (std::vector<int64_t>{0, 1}));
}

TEST(Coalescing, ACarriedReferenceTowardsTheOtherOfTwoNeighboursSendsItsEdge) {
  // dflux's EP(I,J) = MAX(DP(I,J-1), ..., DP(I,J+2)), its DP two columns
  // wider than EP, reduced: B(I,J) = A(I+1,J-1) + A(I+1,J+3) on a 2x2 mesh
  // of blocks, A(n, n+3) in columns of (n+4)/2, B(n, n) of n/2. Both
  // references cross the row boundary and a column boundary, A(I+1,J-1)
  // from the left column block (its columns n/2 .. (n+4)/2 for the right's
  // first), A(I+1,J+3) from the right (column (n+4)/2 + 1 for the left's
  // last). The first's messages carry the second -- along a mesh
  // dimension of two each processor has one neighbour -- but then the
  // right column block sends its edge too: column (n+4)/2 + 1, rows 2 ..
  // n/2, n/2 - 1 elements; priced as its share of the wider edge's message
  // (twoWayParts), at most a corner's two more; 3 before this rule.
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n, n + 3});
  b.array("B", {n, n});
  auto j = b.loop("J", b.c(2), b.p("N", 1, -1), "", 1, true);
  auto i = b.loop("I", b.c(1), b.p("N", 1, -1), j, 1, true);
  auto s = b.stmt({j, i}, b.ref("B", {b.iv(i), b.iv(j)}),
                  {b.ref("A", {b.iv(i, 1, 1), b.iv(j, 1, -1)}),
                   b.ref("A", {b.iv(i, 1, 1), b.iv(j, 1, 3)})},
                  {.loads = 2, .stores = 1, .fadd = 1});
  Layout l = layout({2, 2}, {{"A", {block(0), block(1)}}, {"B", {block(0), block(1)}}});
  auto c = comm(run(b.build(), l), s, "A");
  ASSERT_FALSE(c.empty());
  auto sentBy = [&](std::vector<int64_t> at) {
    double words = 0;
    for (const auto &t : c)
      if (t.senders.includes(at))
        words += t.repetitions * t.senders.share * t.messageWords * t.senders.partAt(at);
    return words;
  };
  EXPECT_GE(sentBy({0, 1}), double(n / 2 - 1));
  EXPECT_LE(sentBy({0, 1}), double(n / 2 + 2));
}

/// eflux's QSP, reduced: DO J / DO I, Q = W(I,J,read), a private scalar
/// read by FS(I,J,K) = Q for each plane K in `planes`, the planes of FS and
/// W blocked over N; the terms of W in the assignment of Q.
std::vector<EstimateTerm> privateScalarOperand(const std::vector<int64_t> &planes,
                                               int64_t read = 2) {
  ModelBuilder b;
  b.param("N", n);
  b.array("FS", {n, n, N});
  b.array("W", {n, n, N});
  auto j = b.loop("J", b.c(1), b.p("N"), "", 1, true);
  auto i = b.loop("I", b.c(1), b.p("N"), j, 1, true);
  auto q = b.scalarStmt({j, i}, "Q", {b.ref("W", {b.iv(i), b.iv(j), b.c(read)})}, {.loads = 1}, "");
  for (int64_t k : planes)
    b.stmt({j, i}, b.ref("FS", {b.iv(i), b.iv(j), b.c(k)}), {}, {.stores = 1});
  Program p = b.build();
  Expr use;
  use.kind = Expr::Kind::Scalar;
  use.name = "Q";
  for (size_t k = 1; k <= planes.size(); ++k)
    p.statements[k].expr = use;
  Layout l = layout({N}, {{"FS", {collapsed(), collapsed(), block(0)}},
                          {"W", {collapsed(), collapsed(), block(0)}}});
  return comm(run(p, l), q, "W");
}

TEST(PrivateScalar, RunsOnEveryReadersOwnersAndItsOperandReachesThemAll) {
  // Every plane's owner runs the assignment (the executor runs it where
  // its readers run), so plane 2 goes from its owner to all the others: a
  // multicast over N, where the first reader's owner alone took one
  // Transfer.
  auto all = privateScalarOperand({1, 2, 3, 4});
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].primitive, "OneToManyMulticast") << all[0].rule;
  EXPECT_EQ(all[0].groupSize, N);
  EXPECT_EQ(all[0].messageWords, double(n * n));
  // Read in planes 1 and 3 only: their owners, and plane 2's owner sends
  // to both (a group of 3).
  auto some = privateScalarOperand({1, 3});
  ASSERT_EQ(some.size(), 1u);
  EXPECT_EQ(some[0].primitive, "OneToManyMulticast") << some[0].rule;
  EXPECT_EQ(some[0].groupSize, 3);
  // Plane 1, the first reader's own: its owner still sends it to the
  // other three (the stand-in FS(I,J,1) and W(I,J,1) have one owner, but
  // the assignment runs on four).
  auto own = privateScalarOperand({1, 2, 3, 4}, 1);
  ASSERT_EQ(own.size(), 1u);
  EXPECT_EQ(own[0].primitive, "OneToManyMulticast") << own[0].rule;
  EXPECT_EQ(own[0].groupSize, N);
  EXPECT_EQ(own[0].messageWords, double(n * n));
}

TEST(Coalescing, AReferenceAlreadyCarriedAddsNothing) {
  // The second statement reads W(I+1,J,1) again beside W(I+1,J,2): one of
  // its two references is in the first statement's message already, and a
  // statement's own Shifts of different planes carry both planes.
  auto [p, s] = fluxes(true);
  const Estimate e = run(p, rows());
  auto first = comm(e, s[0], "W");
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].messageWords, double(2 * n));
  EXPECT_TRUE(comm(e, s[1], "W").empty());
  EstimateOptions separate;
  separate.coalescing = false;
  auto own = comm(run(p, rows(), separate), s[1], "W");
  ASSERT_EQ(own.size(), 2u); // without coalescing, a Shift per reference
}

/// DO I = 1, m: D(I) = A(I,I) (Fig. 5.3), m = 32; and the statement.
constexpr int64_t kDiagonal = 32;
std::pair<Program, std::string> diagonal() {
  ModelBuilder b;
  b.array("A", {kDiagonal, kDiagonal});
  b.array("D", {kDiagonal});
  auto i = b.loop("I", b.c(1), b.c(kDiagonal), "", 1, true);
  auto s = b.stmt({i}, b.ref("D", {b.iv(i)}), {b.ref("A", {b.iv(i), b.iv(i)})},
                  {.loads = 1, .stores = 1});
  return {b.build(), s};
}

TEST(Diagonal, ABlocksShareOfTheDiagonalMoves) {
  // DO I: D(I) = A(I,I), A blocked over a 2 x 2 mesh, D over its first
  // dimension (Fig. 5.3): the copies of D(I) along the second need A(I,I)
  // from the diagonal blocks, which hold n/2 of its elements each -- not
  // their n/2 rows times n/2 columns. Over 2 x 8 (blocks of n/2 rows and
  // n/8 columns) a diagonal block holds n/8.
  constexpr int64_t m = kDiagonal;
  auto [p, s] = diagonal();
  for (int64_t cols : {2, 8}) {
    auto c = comm(run(p, layout({2, cols}, {{"A", {block(0), block(1)}}, {"D", {block(0)}}})), s,
                  "A");
    ASSERT_EQ(c.size(), 1u) << cols;
    EXPECT_EQ(c[0].messageWords, double(m / cols)) << c[0].rule;
  }
}

TEST(Diagonal, EachLineOfTheCopiesTakesItFromItsOwnHolders) {
  // DO I: D(I) = A(I,I), D over the mesh's first dimension and so copied
  // along the second (Fig. 5.3). A line of D's copies (a coordinate along
  // the first) needs A(I,I) for its own I alone: with A by blocks (or
  // cyclic over both dimensions) one processor of the line holds them and
  // multicasts them, where over the whole loop every column holds some (a
  // ManyToManyMulticast, Table 4.4); with A cyclic by rows and blocked by
  // columns each line's I reach every column, and the holders exchange.
  constexpr int64_t m = kDiagonal;
  auto [p, s] = diagonal();
  struct Case {
    DimLayout rows, cols, d;
    const char *primitive;
    int64_t holders; // of a line's share of the diagonal
  };
  for (int64_t n : {2, 4})
    for (const Case &c : {Case{block(0), block(1), block(0), "OneToManyMulticast", 1},
                          Case{cyclic(0), cyclic(1), cyclic(0), "OneToManyMulticast", 1},
                          Case{cyclic(0), block(1), cyclic(0), "ManyToManyMulticast", n}}) {
      auto t = comm(run(p, layout({n, n}, {{"A", {c.rows, c.cols}}, {"D", {c.d}}})), s, "A");
      ASSERT_EQ(t.size(), 1u) << n;
      EXPECT_EQ(t[0].primitive, c.primitive) << n << " " << t[0].rule;
      EXPECT_EQ(t[0].groupSize, n) << t[0].rule;
      EXPECT_EQ(t[0].repetitions, 1) << t[0].rule;
      // A line's share of the diagonal (m / n elements) from each holder.
      EXPECT_EQ(t[0].messageWords, double(m / (n * c.holders))) << n << " " << t[0].rule;
    }
}

TEST(Senders, TiledOperandIsSentByEachOwnerInTurn) {
  // DO J / DO N / DO I: FS(I,J,N) = DIS2(I,J) * FS(I,J,N). Every plane
  // needs column J of DIS2: a multicast from its owner, tiled over J
  // (section 4.4.3), one tile per block of columns. Each tile comes from
  // another processor, so one processor sends 1 in 4 of them.
  ModelBuilder b = arrays();
  auto j = b.loop("J", b.c(1), b.p("N"), "", 1, true);
  auto k = b.loop("N", b.c(1), b.c(4), j, 1, true);
  auto i = b.loop("I", b.c(1), b.p("N"), k, 1, true);
  auto s = b.stmt({j, k, i}, b.ref("FS", {b.iv(i), b.iv(j), b.iv(k)}),
                  {b.ref("DIS2", {b.iv(i), b.iv(j)}), b.ref("FS", {b.iv(i), b.iv(j), b.iv(k)})},
                  {.loads = 2, .stores = 1, .fmul = 1});
  auto c = comm(run(b.build(), planesAndColumns()), s, "DIS2");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].primitive, "OneToManyMulticast");
  EXPECT_EQ(c[0].repetitions, N);
  EXPECT_EQ(c[0].senders.share, 1.0 / N);
  // On 8 processors the 4 planes lie on the first 4 and the columns on all
  // 8: a tile's root among the last 4 is no member, and sends to all 4.
  Layout wider = layout({2 * N}, {{"FS", {collapsed(), collapsed(), block(0)}},
                                  {"P", {collapsed(), block(0)}},
                                  {"DIS2", {collapsed(), block(0)}}});
  auto w = comm(run(b.build(), wider), s, "DIS2");
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].groupSize, N + 1) << w[0].rule;
  // Under the thesis's formulas the senders are not tracked.
  EstimateOptions thesis;
  thesis.exactOwners = false;
  for (const auto &t : comm(run(b.build(), planesAndColumns(), thesis), s, "DIS2"))
    EXPECT_EQ(t.senders.share, 1.0) << t.rule;
}

TEST(Senders, OwnerMovesWithASequentialLoop) {
  // DO K / DO J / DO I: A(I,J) = A(I,J) - A(I,K), K carrying the
  // recurrence (type-2): at each K, column K, written at the step before,
  // is multicast from its owner to every column (dgefa's update). Columns
  // cyclic over 4: each processor owns 1 in 4 of the K, so it sends 1 in 4
  // of the multicasts.
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n, n});
  auto k = b.loop("K", b.c(1), b.p("N"));
  auto j = b.loop("J", b.c(1), b.p("N"), k, 1, true);
  auto i = b.loop("I", b.c(1), b.p("N"), j, 1, true);
  auto s = b.stmt({k, j, i}, b.ref("A", {b.iv(i), b.iv(j)}),
                  {b.ref("A", {b.iv(i), b.iv(j)}), b.ref("A", {b.iv(i), b.iv(k)})},
                  {.loads = 2, .stores = 1, .fadd = 1});
  b.dep(s, s, Dependence::Kind::Flow, "A", k, {"<", "*", "="});
  Layout l = layout({N}, {{"A", {collapsed(), cyclic(0)}}});
  auto c = comm(run(b.build(), l), s, "A");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].primitive, "OneToManyMulticast");
  EXPECT_EQ(c[0].repetitions, n) << c[0].rule;
  EXPECT_DOUBLE_EQ(c[0].senders.share, 1.0 / N) << c[0].rule;
}

TEST(Senders, AGathersMovingRootSendsNothing) {
  // Fig. 4.20: DO J / DO I: A(I) = A(I-1) + 1; C(I,J) = B(I,J) + A(I). A
  // changes at every J, so column J's owner gathers A(2:n) at each J (a
  // type-2 loop). Columns blocked over N, A blocked: a processor is the
  // root in the iterations J of its own columns, and sends its block in
  // the others only: the first block, root for J = 2 .. n/N, in n - n/N of
  // the n - 1; every other in n - 1 - n/N.
  ModelBuilder b;
  b.param("N", n);
  b.array("A", {n});
  b.array("C", {n, n});
  auto j = b.loop("J", b.c(2), b.p("N"));
  auto i1 = b.loop("I", b.c(2), b.p("N"), j);
  auto i2 = b.loop("I2", b.c(2), b.p("N"), j, 1, true);
  auto s1 = b.stmt({j, i1}, b.ref("A", {b.iv(i1)}), {b.ref("A", {b.iv(i1, 1, -1)})},
                   {.loads = 1, .stores = 1, .fadd = 1});
  auto s2 = b.stmt({j, i2}, b.ref("C", {b.iv(i2), b.iv(j)}), {b.ref("A", {b.iv(i2)})},
                   {.loads = 1, .stores = 1, .fadd = 1});
  b.dep(s1, s1, Dependence::Kind::Flow, "A", i1, {"=", "<"}, {0, 1});
  b.dep(s1, s2, Dependence::Kind::Flow, "A", "", {"="}, {0});
  b.dep(s2, s1, Dependence::Kind::Anti, "A", j, {"<"}, {1});
  Layout l = layout({N}, {{"A", {block(0)}}, {"C", {collapsed(), block(0)}}});
  auto c = comm(run(b.build(), l), s2, "A");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].primitive, "Gather") << c[0].rule;
  EXPECT_DOUBLE_EQ(c[0].repetitions, double(n - 1)) << c[0].rule;
  for (int64_t q = 0; q < N; ++q)
    EXPECT_DOUBLE_EQ(c[0].repetitions * c[0].senders.partAt({q}),
                     double(q == 0 ? n - n / N : n - 1 - n / N))
        << "processor " << q;
}

TEST(Senders, ConcurrentGathersReceiversSendOnlyToTheOthers) {
  // DO N / DO J / DO I: the same statement with the planes outermost: each
  // plane's owner gathers all of DIS2, the four Gathers at once,
  // Gather(m, 4) + 3 Transfer(m) (Gather.ToEachTilesReceiverAtOnce). Every
  // processor receives one of them, and sends its columns to the three
  // others: the Gather carries one, the Transfers two of their three.
  ModelBuilder b = arrays();
  auto k = b.loop("N", b.c(1), b.c(4), "", 1, true);
  auto j = b.loop("J", b.c(1), b.p("N"), k, 1, true);
  auto i = b.loop("I", b.c(1), b.p("N"), j, 1, true);
  auto s = b.stmt({k, j, i}, b.ref("FS", {b.iv(i), b.iv(j), b.iv(k)}),
                  {b.ref("DIS2", {b.iv(i), b.iv(j)}), b.ref("FS", {b.iv(i), b.iv(j), b.iv(k)})},
                  {.loads = 2, .stores = 1, .fmul = 1});
  auto c = comm(run(b.build(), planesAndColumns()), s, "DIS2");
  auto of = [&](const char *prim) {
    auto t = std::find_if(c.begin(), c.end(),
                          [&](const EstimateTerm &x) { return x.primitive == prim; });
    EXPECT_NE(t, c.end()) << prim;
    return t == c.end() ? EstimateTerm{} : *t;
  };
  EstimateTerm gather = of("Gather"), more = of("Transfer");
  EXPECT_EQ(gather.groupSize, N);
  EXPECT_EQ(gather.senders.share, 1.0);
  EXPECT_EQ(more.repetitions, N - 1);
  EXPECT_DOUBLE_EQ(more.senders.share, double(N - 2) / double(N - 1));

  // On 8 processors with the planes and the columns in blocks of 4 (the
  // CYCLIC(8) layouts the advisor offers matmul at N = 16), the same 4 hold
  // both, the others none: those 4 send as before, and no one else.
  Layout half = layout({2 * N}, {{"FS", {collapsed(), collapsed(), block(0)}},
                                 {"P", {collapsed(), blockCyclic(0, 4)}},
                                 {"DIS2", {collapsed(), blockCyclic(0, 4)}}});
  auto h = comm(run(b.build(), half), s, "DIS2");
  ASSERT_EQ(h.size(), 2u); // the Gather and its Transfers
  for (const EstimateTerm &t : h) {
    EXPECT_EQ(t.senders.meshDim, 0) << t.rule;
    EXPECT_EQ(t.senders.last, N - 1) << t.rule;
    if (t.primitive == "Transfer") {
      EXPECT_DOUBLE_EQ(t.senders.share, double(N - 2) / double(N - 1));
    }
  }
}

TEST(Senders, AGatherAcrossTwoMeshDimensionsGoesStraightToTheOwner) {
  // DO I: A(m,m) = B(I,1), both blocked over 2 x 2 (Fig. 4.17): column 1
  // of B lies on the two processors of mesh column 0, A(m,m) on (1,1).
  // Table 4.6 costs a Gather along the first mesh dimension and a Transfer
  // along the second; each holder sends its half straight to (1,1), one
  // message, and no processor sends the Transfer.
  constexpr int64_t m = 32;
  ModelBuilder b;
  b.array("A", {m, m});
  b.array("B", {m, m});
  auto i = b.loop("I", b.c(1), b.c(m));
  auto s = b.stmt({i}, b.ref("A", {b.c(m), b.c(m)}), {b.ref("B", {b.iv(i), b.c(1)})},
                  {.loads = 1, .stores = 1});
  b.dep(s, s, Dependence::Kind::Output, "A", i, {"<"}, {1});
  auto c = comm(run(b.build(), layout({2, 2}, {{"A", {block(0), block(1)}},
                                               {"B", {block(0), block(1)}}})), s, "B");
  ASSERT_EQ(c.size(), 2u);
  for (const EstimateTerm &t : c) {
    if (t.primitive == "Gather") {
      EXPECT_EQ(t.senders.meshDim, 0);
      EXPECT_EQ(t.senders.share * t.repetitions, 1.0);
    } else {
      EXPECT_EQ(t.primitive, "Transfer");
      EXPECT_GT(t.seconds, 0);
      EXPECT_EQ(t.senders.share, 0) << t.rule;
    }
  }
}

TEST(Senders, ABoundaryTransferChainLeavesEachBlockButTheLastOnce) {
  // DO I: A(I) = A(I-1) + B(I), A blocked over 4: the recurrence crosses
  // each block boundary once, les - 1 = 3 Transfers along the chain, and
  // each comes from another block: one processor sends one of them, and
  // the last block none. Cyclic, every step crosses: A(1:63) are sent,
  // 16 of them by the processor holding A(1), A(5), ...
  constexpr int64_t m = 64;
  ModelBuilder b;
  b.array("A", {m});
  b.array("B", {m});
  auto i = b.loop("I", b.c(2), b.c(m));
  auto s = b.stmt({i}, b.ref("A", {b.iv(i)}), {b.ref("A", {b.iv(i, 1, -1)}), b.ref("B", {b.iv(i)})},
                  {.loads = 2, .stores = 1, .fadd = 1});
  b.dep(s, s, Dependence::Kind::Flow, "A", i, {"<"}, {1});
  Program p = b.build();
  auto c = comm(run(p, layout({N}, {{"A", {block(0)}}, {"B", {block(0)}}})), s, "A");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].primitive, "Transfer") << c[0].rule;
  EXPECT_DOUBLE_EQ(c[0].repetitions, N - 1) << c[0].rule;
  EXPECT_DOUBLE_EQ(c[0].repetitions * c[0].senders.share, 1.0);
  EXPECT_EQ(c[0].senders.meshDim, 0);
  EXPECT_TRUE(c[0].senders.includes({0}));
  EXPECT_FALSE(c[0].senders.includes({N - 1}));
  auto wraps = comm(run(p, layout({N}, {{"A", {cyclic(0)}}, {"B", {cyclic(0)}}})), s, "A");
  ASSERT_EQ(wraps.size(), 1u);
  EXPECT_DOUBLE_EQ(wraps[0].repetitions * wraps[0].senders.share, 16.0);
}

TEST(Senders, EachRowBlockMulticastsItsOwnPart) {
  // DO J = 1, 16 / DO I = lo, 16: C(I,J) = B(I,1) on 4 x 4 blocks: column 1
  // lies on the first column of processors, each of whose row blocks
  // multicasts its part of B(lo:16,1) along its row, as lu's multipliers
  // A(I,K), I > K. The message size is the busiest's, 4 words;
  // Senders::parts says what each sends.
  auto fromColumn = [](int64_t lo) {
    ModelBuilder b;
    b.array("B", {16, 16});
    b.array("C", {16, 16});
    auto j = b.loop("J", b.c(1), b.c(16), "", 1, true);
    auto i = b.loop("I", b.c(lo), b.c(16), j, 1, true);
    auto s = b.stmt({j, i}, b.ref("C", {b.iv(i), b.iv(j)}), {b.ref("B", {b.iv(i), b.c(1)})},
                    {.loads = 1, .stores = 1});
    auto c = comm(run(b.build(), layout({4, 4}, {{"B", {block(0), block(1)}},
                                                 {"C", {block(0), block(1)}}})),
                  s, "B");
    EXPECT_EQ(c.size(), 1u);
    return c.empty() ? EstimateTerm{} : c[0];
  };
  // Rows 3..16: 2 elements from row block 0 (rows 3 and 4), 4 from the others.
  EstimateTerm t = fromColumn(3);
  EXPECT_EQ(t.primitive, "OneToManyMulticast") << t.rule;
  EXPECT_EQ(t.messageWords, 4);
  EXPECT_EQ(t.senders.meshDim, 1);
  EXPECT_DOUBLE_EQ(t.senders.partAt({0, 0}), 0.5);
  EXPECT_DOUBLE_EQ(t.senders.partAt({3, 0}), 1.0);
  // Rows 9..16: the first two row blocks send nothing.
  t = fromColumn(9);
  EXPECT_DOUBLE_EQ(t.senders.partAt({1, 0}), 0.0);
  EXPECT_DOUBLE_EQ(t.senders.partAt({2, 0}), 1.0);
}

} // namespace
} // namespace dlayout::test
