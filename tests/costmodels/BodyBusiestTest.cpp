//===- tests/costmodels/BodyBusiestTest.cpp - One busiest processor per body ===//
//
// Beyond the thesis: a recurrence whose dependences join the instances of
// one owner divides its loop (StatementFacts::ownerLocal), and the
// statements of one quiet loop body are costed on the one processor whose
// instances of all of them take longest (BodyBusiest.h). Fig. 2.2's first
// nest, X by columns; the expected counts are enumerated here, instance by
// instance, from the owners.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

#include "costmodels/ProgramAnalysis.h"

#include <algorithm>
#include <map>

namespace dlayout::test {
namespace {

constexpr int64_t n = 16, N = 4, b = n / N;

/// Instances of S5 (X(MI,MQ)) and S6 (X(MI,MP)) on each processor, X's
/// columns blocked over N.
std::pair<std::vector<double>, std::vector<double>> instancesByProcessor() {
  std::vector<double> s5(N, 0.0), s6(N, 0.0);
  for (int64_t mp = 1; mp <= n; ++mp)
    for (int64_t mq = 1; mq <= mp; ++mq) {
      s5[size_t((mq - 1) / b)] += double(n);
      s6[size_t((mp - 1) / b)] += double(n);
    }
  return {s5, s6};
}

Layout byColumns() {
  return layout({N}, {{"X", {collapsed(), block(0)}}, {"V", {collapsed(), collapsed()}}});
}

TEST(BodyBusiest, ARecurrenceThroughTheWrittenElementsAloneDividesItsLoop) {
  // S6 at MQ < MP writes column MP, which S5 updates at MQ = MP: MQ carries
  // the dependences, but both ends run at column MP's owner.
  const auto [p, s5, s6] = fig2_2(n, /*asExtracted=*/true);
  auto facts = cost::analyzeProgram(p);
  ASSERT_TRUE(facts.ok());
  const cost::StatementFacts &f5 = *facts->findStatement(s5);
  ASSERT_FALSE(f5.parallel[1]);
  EXPECT_TRUE(f5.ownerLocal[1]);
  EXPECT_TRUE(f5.quietLoops); // V is never written, X read where it is written

  auto est = Estimator::build(p, {});
  ASSERT_TRUE(est.ok());
  auto alone = est->evaluateStatement(byColumns(), ipsc2(), s5);
  ASSERT_TRUE(alone.ok());
  const auto [each5, each6] = instancesByProcessor();
  EXPECT_DOUBLE_EQ(computation(*alone, s5)->repetitions,
                   *std::max_element(each5.begin(), each5.end()));

  // Read at another element, X orders the owners' instances: MQ stays
  // sequential, every processor's triangle counted whole.
  const auto [crossed, t5, t6] = fig2_2(n, /*asExtracted=*/true, /*crossed=*/true);
  auto crossedFacts = cost::analyzeProgram(crossed);
  ASSERT_TRUE(crossedFacts.ok());
  EXPECT_FALSE(crossedFacts->findStatement(t5)->ownerLocal[1]);
  const Estimate e = run(crossed, byColumns());
  EXPECT_DOUBLE_EQ(computation(e, t5)->repetitions, double(n * (n + 1) / 2 * n));
}

TEST(BodyBusiest, TheStatementsOfOneLoopBodyShareTheirBusiestProcessor) {
  // S5's busiest processor is the first block (every MP reaches its
  // columns), S6's the last (the longest rows of the triangle); each
  // processor runs both one after the other with nothing to wait for.
  const auto [p, s5, s6] = fig2_2(n, /*asExtracted=*/true);
  const auto [each5, each6] = instancesByProcessor();
  double together = 0;
  size_t busiest = 0;
  for (size_t q = 0; q < size_t(N); ++q)
    if (each5[q] + each6[q] > together)
      together = each5[q] + each6[q], busiest = q;
  const double apart = *std::max_element(each5.begin(), each5.end()) +
                       *std::max_element(each6.begin(), each6.end());
  ASSERT_LT(together, 0.7 * apart); // 68 against 116 rows of n

  const Estimate e = run(p, byColumns());
  const EstimateTerm *c5 = computation(e, s5), *c6 = computation(e, s6);
  ASSERT_TRUE(c5 && c6);
  EXPECT_DOUBLE_EQ(c5->repetitions, each5[busiest]);
  EXPECT_DOUBLE_EQ(c6->repetitions, each6[busiest]);
  EXPECT_DOUBLE_EQ(c5->repetitions + c6->repetitions, together);

  // Each alone is costed on its own busiest processor.
  auto est = Estimator::build(p, {});
  ASSERT_TRUE(est.ok());
  auto alone = est->evaluateStatement(byColumns(), ipsc2(), s6);
  ASSERT_TRUE(alone.ok());
  EXPECT_DOUBLE_EQ(computation(*alone, s6)->repetitions,
                   *std::max_element(each6.begin(), each6.end()));
  // The thesis's formulas: each statement on its own busiest.
  EstimateOptions thesis;
  thesis.exactOwners = false;
  const Estimate t = run(p, byColumns(), thesis);
  EXPECT_GT(computation(t, s5)->repetitions + computation(t, s6)->repetitions, together);
}

TEST(BodyBusiest, CountedOnEveryProcessorOfATwoDimensionalMesh) {
  // X blocked by rows and by columns on 2 x 2: processor (r, c) runs S5 where
  // MI is in row block r and MQ in column block c, S6 where MP is.
  const auto [p, s5, s6] = fig2_2(n, /*asExtracted=*/true);
  const int64_t half = n / 2;
  std::map<std::pair<int64_t, int64_t>, std::pair<double, double>> on; // (S5, S6)
  for (int64_t mp = 1; mp <= n; ++mp)
    for (int64_t mq = 1; mq <= mp; ++mq)
      for (int64_t mi = 1; mi <= n; ++mi) {
        ++on[{(mi - 1) / half, (mq - 1) / half}].first;
        ++on[{(mi - 1) / half, (mp - 1) / half}].second;
      }
  double together = 0, apart5 = 0, apart6 = 0;
  for (const auto &[where, counts] : on) {
    together = std::max(together, counts.first + counts.second);
    apart5 = std::max(apart5, counts.first);
    apart6 = std::max(apart6, counts.second);
  }
  ASSERT_LT(together, apart5 + apart6);
  const Estimate e = run(p, layout({2, 2}, {{"X", {block(0), block(1)}},
                                           {"V", {collapsed(), collapsed()}}}));
  EXPECT_DOUBLE_EQ(computation(e, s5)->repetitions + computation(e, s6)->repetitions, together);
}

} // namespace
} // namespace dlayout::test
