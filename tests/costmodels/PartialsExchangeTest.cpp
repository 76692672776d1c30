//===- tests/costmodels/PartialsExchangeTest.cpp - Partials to their owners ===//
//
// A reduction into array elements whose partial results the executor sends
// from its homes to the lhs's owners and copies (PartialsExchange.cpp), on
// sums over K (Helpers.h's sumOverK).
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

namespace dlayout::test {
namespace {

constexpr int64_t n = 16, N = 4;

TEST(PartialsExchange, OwnersDifferingInTwoMeshDimensions) {
  // C(I,J) = C(I,J) + A(I,K) * B(K,J) on a 2 x 8 mesh, A's rows cyclic on
  // the first mesh dimension and its columns blocked on the second, C
  // transposed (rows blocked on the second, columns cyclic on the first):
  // samples/c/matmul.c's recommendation before this rule. A home A(I,K)
  // forms 8 rows x 16 columns of partials (W = 128), for C elements on all
  // 16 processors (D = 16), 8 to each; every owner takes them from all 16
  // homes (C = 16): Gather(8, 16) + 15 Transfer(8). The per-dimension
  // terms priced a Reduction along the second dimension and a multicast of
  // A along the first, 0.41x what the simulator measured.
  const auto [p, s] = sumOverK(n, {{"A", "I", "K"}, {"B", "K", "J"}});
  Layout l = layout({2, 8}, {{"A", {cyclic(0), block(1)}},
                             {"B", {block(1), cyclic(0)}},
                             {"C", {block(1), cyclic(0)}}});
  auto c = comm(run(p, l), s, "A");
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].primitive, "Transfer");
  EXPECT_EQ(c[0].repetitions, 15);
  EXPECT_EQ(c[0].messageWords, 8);
  EXPECT_EQ(c[1].primitive, "Gather");
  EXPECT_EQ(c[1].groupSize, 16);
  EXPECT_EQ(c[1].messageWords, 8);
  // Without exact owners, the thesis's per-dimension terms.
  EstimateOptions thesis;
  thesis.exactOwners = false;
  for (const auto &t : comm(run(p, l, thesis), s, "A"))
    EXPECT_NE(t.primitive, "Gather") << t.rule;
}

TEST(PartialsExchange, ACopyOfAReplicatedLhsFillsTheOthers) {
  // C(I,J) = C(I,J) + A(I,K) on a 4 x 2 mesh, C's and A's rows cyclic on
  // the second dimension, both replicated along the first: the sum runs at
  // one copy of its home A(I,K), the lhs's home (coordinate 0 along the
  // first dimension), and its n/2 x n results go to the 3 other copies of
  // C once the region ends (fig2_2's XIJ(MJ) = XIJ(MJ) + VAL * V(MQ,MJ) on
  // 32 x 2). The per-dimension terms see replicated operands and move
  // nothing.
  const auto [p, s] = sumOverK(n, {{"A", "I", "K"}});
  Layout l = layout({4, 2}, {{"A", {cyclic(1), collapsed()}}, {"C", {cyclic(1), collapsed()}}});
  auto c = comm(run(p, l), s, "A");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].primitive, "Transfer") << c[0].rule;
  EXPECT_EQ(c[0].repetitions, 3);
  EXPECT_EQ(c[0].messageWords, double(n / 2 * n));
  EXPECT_EQ(c[0].senders.meshDim, 0);
  EXPECT_EQ(c[0].senders.first, 0);
  EXPECT_EQ(c[0].senders.last, 0);
  // Without exact owners, the thesis's terms: nothing moves.
  EstimateOptions thesis;
  thesis.exactOwners = false;
  EXPECT_TRUE(comm(run(p, l, thesis), s, "A").empty());
}

TEST(PartialsExchange, TheHomesCopyZeroFillsEveryOtherCopy) {
  // C(I,J) = C(I,J) + A(I,K) on a 2 x 2 mesh, C held by every processor,
  // A's rows blocked on the second dimension and replicated along the
  // first: the sum runs at A's copy 0 along the first dimension alone, each
  // such home forming whole sums for its rows (one home per element), and
  // sends them to the 3 other holders of C -- its own copy along the first
  // dimension among them (fig2_2's XIJ(MJ) = XIJ(MJ) + VAL * V(MQ,MJ) on
  // 2 x 2: 192 bytes from each of ranks 0 and 1, none from 2 and 3).
  const auto [p, s] = sumOverK(n, {{"A", "I", "K"}});
  Layout l = layout({2, 2}, {{"A", {block(1), collapsed()}}, {"C", {collapsed(), collapsed()}}});
  auto c = comm(run(p, l), s, "A");
  ASSERT_FALSE(c.empty());
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t q = 0; q < 2; ++q) {
      double messages = 0, bytes = 0;
      for (const auto &t : c) {
        Sent sent = sentAt(t.primitive, t.groupSize, t.repetitions, t.messageBytes, t.senders, {r, q});
        messages += sent.messages;
        bytes += sent.bytes;
      }
      EXPECT_DOUBLE_EQ(messages, r == 0 ? 3 : 0) << "processor " << r << "," << q;
      EXPECT_DOUBLE_EQ(bytes, r == 0 ? 3.0 * (n / 2 * n) * 8 : 0) << "processor " << r << "," << q;
    }
}

TEST(PartialsExchange, EveryCopyOfAReplicatedLhsTakesEveryHomesPartials) {
  // C(I,J) = C(I,J) + A(I,K) on 4 processors, A's rows blocked, C held by
  // every processor: each home A(I,K) forms its n/4 x n partial results and,
  // when the region ends, sends them to the 3 other copies of C, as every
  // other home does (the executor's partials to every holder): Gather(W, 4)
  // + 3 Transfer(W). The thesis's replicated-lhs terms multicast A instead,
  // which the executor does not run.
  const auto [p, s] = sumOverK(n, {{"A", "I", "K"}});
  Layout l = layout({N}, {{"A", {block(0), collapsed()}}, {"C", {collapsed(), collapsed()}}});
  auto c = comm(run(p, l), s, "A");
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].primitive, "Transfer") << c[0].rule;
  EXPECT_EQ(c[0].repetitions, 3);
  EXPECT_EQ(c[0].messageWords, double(n / N * n));
  EXPECT_EQ(c[1].primitive, "Gather") << c[1].rule;
  EXPECT_EQ(c[1].groupSize, N);
  EXPECT_EQ(c[1].messageWords, double(n / N * n));
  // Without exact owners, the thesis's per-dimension terms.
  EstimateOptions thesis;
  thesis.exactOwners = false;
  for (const auto &t : comm(run(p, l, thesis), s, "A"))
    EXPECT_EQ(t.rule.find("partial results"), std::string::npos) << t.rule;
}

} // namespace
} // namespace dlayout::test
