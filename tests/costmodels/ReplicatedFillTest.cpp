//===- tests/costmodels/ReplicatedFillTest.cpp - Filling a replicated lhs -===//
//
// A replicated left-hand side reading a distributed array needs every copy
// filled (Table 4.4's replicated lhs, beyond the thesis with exact owners):
// who multicasts what, as the validate executor's broadcasts and
// gatherByDimension send it -- one holder over the whole mesh, each of
// several holders its own part, the holders' exchange before the
// multicast, and one mesh dimension at a time.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

namespace dlayout::test {
namespace {

constexpr int64_t n = 16, N = 4;

/// DO J = 1, cols / DO I = 1, rows: R(I,J) = Z(I,J), R replicated on a 4 x 4
/// mesh, Z distributed as `z` (blocked on both dimensions): the copies of R
/// are filled from Z's holders of the section.
std::vector<EstimateTerm> fillReplicated(int64_t rows, int64_t cols,
                                         std::vector<DimLayout> z = {block(0), block(1)}) {
  ModelBuilder b;
  b.param("N", n);
  b.array("R", {n, n});
  b.array("Z", {n, n});
  auto j = b.loop("J", b.c(1), b.c(cols), "", 1, true);
  auto i = b.loop("I", b.c(1), b.c(rows), j, 1, true);
  auto s = b.stmt({j, i}, b.ref("R", {b.iv(i), b.iv(j)}), {b.ref("Z", {b.iv(i), b.iv(j)})},
                  {.loads = 1, .stores = 1});
  Layout l = layout({N, N}, {{"R", {replicated(), replicated()}}, {"Z", std::move(z)}});
  return comm(run(b.build(), l), s, "Z");
}

TEST(Senders, OneHoldersMulticastOverTheMeshStaysItsOwn) {
  // A quarter of the rows and columns: processor (0,0) holds the whole
  // section. It multicasts it to all 16 at once (Table 4.5), and it alone
  // sends.
  auto c = fillReplicated(n / N, n / N);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].primitive, "OneToManyMulticast");
  EXPECT_EQ(c[0].groupSize, N * N);
  EXPECT_EQ(c[0].messageWords, double(n / N * n / N));
  for (int64_t p = 0; p < N; ++p)
    for (int64_t q = 0; q < N; ++q)
      EXPECT_DOUBLE_EQ(c[0].senders.includes({p, q}) ? c[0].senders.partAt({p, q}) : 0.0,
                       p == 0 && q == 0 ? 1.0 : 0.0)
          << "processor (" << p << "," << q << ")";
}

TEST(Senders, AReplicatedLhsIsFilledFromTheElementsOwner) {
  // DO I: A(I) = B(64), A replicated, B blocked over 4: every copy of A
  // needs B(64), multicast from its owner, the last block; no other
  // processor sends.
  constexpr int64_t m = 64;
  ModelBuilder b;
  b.array("A", {m});
  b.array("B", {m});
  auto i = b.loop("I", b.c(1), b.c(m), "", 1, true);
  auto s = b.stmt({i}, b.ref("A", {b.iv(i)}), {b.ref("B", {b.c(m)})}, {.loads = 1, .stores = 1});
  auto c = comm(run(b.build(), layout({N}, {{"A", {replicated(0)}}, {"B", {block(0)}}})), s, "B");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].primitive, "OneToManyMulticast") << c[0].rule;
  EXPECT_EQ(c[0].senders.meshDim, 0);
  EXPECT_EQ(c[0].senders.first, N - 1);
  EXPECT_EQ(c[0].senders.last, N - 1);
}

TEST(Senders, EachHolderFillsAReplicatedLhsWithItsOwnPart) {
  // DO I = 1, 4: A(I) = B(I), A replicated over 8 processors, B blocked
  // over them: a block of one element each, so 4 of the 8 hold B. Each
  // holder multicasts its element to every copy once -- one of the term's
  // 4 repetitions each (fig2_2's VAL = XRSIQ(MI,MQ) on 64 processors), not
  // all 4 from the busiest.
  constexpr int64_t m = 4, P = 8;
  const auto [p, s] = copy(m);
  auto c = comm(run(p, layout({P}, {{"A", {replicated(0)}}, {"B", {block(0)}}})), s, "B");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].primitive, "OneToManyMulticast") << c[0].rule;
  EXPECT_EQ(c[0].groupSize, P);
  EXPECT_EQ(c[0].repetitions, double(m));
  EXPECT_EQ(c[0].senders.meshDim, 0);
  EXPECT_EQ(c[0].senders.first, 0);
  EXPECT_EQ(c[0].senders.last, m - 1);
  EXPECT_DOUBLE_EQ(c[0].senders.share, 1.0 / double(m));
}

TEST(Senders, AReplicatedLhsIsFilledAfterItsHoldersExchange) {
  // DO I = 1, 16 / DO J = 1, 2: B(I,J) = A(I,J), B replicated, A blocked on
  // a 4 x 4 mesh: every processor along the first dimension holds 4 of A's
  // rows, 2 of 4 along the second one of its columns. The holders exchange
  // their rows (ManyToManyMulticast over 4), then each multicasts all 16
  // rows of its column along the second dimension, as the executor's
  // gatherByDimension does -- not the 4 it held (fig2_2's XRSIQ on 2 x 32).
  ModelBuilder b;
  b.array("A", {16, 2});
  b.array("B", {16, 2});
  auto i = b.loop("I", b.c(1), b.c(16), "", 1, true);
  auto j = b.loop("J", b.c(1), b.c(2), i, 1, true);
  auto s = b.stmt({i, j}, b.ref("B", {b.iv(i), b.iv(j)}), {b.ref("A", {b.iv(i), b.iv(j)})},
                  {.loads = 1, .stores = 1});
  auto c = comm(run(b.build(), layout({4, 4}, {{"A", {block(0), block(1)}},
                                               {"B", {collapsed(), collapsed()}}})),
                s, "A");
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].primitive, "OneToManyMulticast") << c[0].rule;
  EXPECT_EQ(c[0].messageWords, 16);
  EXPECT_EQ(c[1].primitive, "ManyToManyMulticast") << c[1].rule;
  EXPECT_EQ(c[1].messageWords, 4);
}

TEST(Senders, OnlyTheLineThatHoldsARowExchangesIt) {
  // DO J = 1, 16: D(J) = Z(3,J), D replicated, Z's rows on 4 processors and
  // its columns on 2 (a 2 x 4 mesh): row 3 lies on the processors at
  // coordinate 0 of the rows' dimension, each with half of it. Those two
  // swap halves (ManyToManyMulticast over 2), then each multicasts the whole
  // row along the rows' dimension, as the executor's gatherByDimension does;
  // the lines that hold none of row 3 exchange nothing (tred2's
  // D(J) = Z(L,J) on 2 x 8: 2,828 bytes charged to each of twelve
  // processors that sent none).
  ModelBuilder b;
  b.array("D", {16});
  b.array("Z", {16, 16});
  auto j = b.loop("J", b.c(1), b.c(16), "", 1, true);
  auto s = b.stmt({j}, b.ref("D", {b.iv(j)}), {b.ref("Z", {b.c(3), b.iv(j)})},
                  {.loads = 1, .stores = 1});
  auto c = comm(run(b.build(), layout({2, 4}, {{"D", {collapsed()}},
                                               {"Z", {block(1), block(0)}}})),
                s, "Z");
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].primitive, "OneToManyMulticast") << c[0].rule;
  EXPECT_EQ(c[0].messageWords, 16); // the whole row, after the exchange
  EXPECT_EQ(c[0].senders.meshDim, 1);
  EXPECT_EQ(c[0].senders.first, 0);
  EXPECT_EQ(c[0].senders.last, 0);
  EXPECT_EQ(c[1].primitive, "ManyToManyMulticast") << c[1].rule;
  EXPECT_EQ(c[1].messageWords, 8);
  for (int64_t col : {0, 1}) {
    EXPECT_DOUBLE_EQ(c[1].senders.partAt({col, 0}), 1.0);
    for (int64_t row : {1, 2, 3})
      EXPECT_DOUBLE_EQ(c[1].senders.partAt({col, row}), 0.0) << col << "," << row;
  }
}

TEST(Senders, AReplicatedLhsIsFilledOneMeshDimensionAtATime) {
  // DO J = 1, 16 / DO I = 1, 16: R(I,J) = Z(I,J), R replicated on a 4 x 4
  // mesh, Z in blocks of 8 on both dimensions: two of the four coordinates
  // along each hold Z. As the executor's gatherByDimension: the holders
  // along the first dimension multicast their blocks down it (only the
  // lines that hold Z, columns 0 and 1), then every processor of those
  // columns multicasts the two blocks it now has along the second --
  // fig2_2's XRSIQ(MI,MQ) to its replicated VAL on 4 x 16, 9,920 bytes
  // predicted against 17,600 sent before.
  auto c = fillReplicated(n, n, {blockCyclic(0, 8), blockCyclic(1, 8)});
  ASSERT_EQ(c.size(), 2u);
  const double block = 8 * 8;
  for (const EstimateTerm &t : c) {
    EXPECT_EQ(t.primitive, "OneToManyMulticast") << t.rule;
    ASSERT_TRUE(t.senders.meshDim == 0 || t.senders.meshDim == 1) << t.rule;
    EXPECT_EQ(t.senders.first, 0);
    EXPECT_EQ(t.senders.last, 1);
    const bool first = t.senders.meshDim == 0;
    EXPECT_EQ(t.messageWords, first ? block : 2 * block) << t.rule;
    for (int64_t p = 0; p < N; ++p)
      for (int64_t q = 0; q < N; ++q) {
        const bool holds = first ? p < 2 && q < 2 : q < 2;
        EXPECT_DOUBLE_EQ(t.senders.includes({p, q}) ? t.senders.partAt({p, q}) : 0.0,
                         holds ? 1.0 : 0.0)
            << (first ? "first" : "second") << " stage, processor (" << p << "," << q << ")";
      }
  }
}

} // namespace
} // namespace dlayout::test
