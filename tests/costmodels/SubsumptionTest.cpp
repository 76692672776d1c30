//===- tests/costmodels/SubsumptionTest.cpp - Fetches another's already bring ===//
//
// What another statement's fetch already brings (Subsumption.h): fig2_2's
// two updates of XRSIQ, and an assignment to a scalar, run on every
// processor, whose fetch reaches every one (tred2's DO 61,
// samples/paradigm/tred2.F lines 154-161, reduced); and the bound on what
// one fetch of an array sends (FetchBound.h).
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

namespace dlayout::test {
namespace {

constexpr int64_t n = 16, N = 4;

TEST(Subsumption, AnotherStatementsFetchCarriesTheElements) {
  // Rows of X and V blocked: V is fetched once before the MP loop for both
  // statements, each owner of X's row MI taking V(:,MI). The second's rows
  // 1 .. MP hold the first's row MP, so the first adds no message. With
  // X's columns blocked instead, the two run on other owners (column MQ's,
  // column MP's), and both fetch: one fetch, each counted as it runs, so
  // counted together (AcrossStatements.h, joinCountedFetches), charged to
  // the first.
  const auto [p, s5, s6] = fig2_2(n);
  Estimate rows = run(p, layout({N}, {{"X", {block(0), collapsed()}}, {"V", {block(0), collapsed()}}}));
  EXPECT_TRUE(comm(rows, s5, "V").empty());
  EXPECT_FALSE(comm(rows, s6, "V").empty());
  Estimate cols = run(p, layout({N}, {{"X", {collapsed(), block(0)}}, {"V", {block(0), collapsed()}}}));
  const std::vector<EstimateTerm> joint = comm(cols, s5, "V");
  ASSERT_FALSE(joint.empty());
  for (const EstimateTerm &t : joint)
    EXPECT_NE(t.rule.find("one fetch with 1 other statement's read"), std::string::npos) << t.rule;
  EXPECT_TRUE(comm(cols, s6, "V").empty());
}

TEST(FetchBound, OneFetchSendsAProcessorsPartOnceToEachOther) {
  // X by columns, V by columns or rows: the two statements run on other
  // owners and both fetch V before the nest; together they need all of V
  // on every processor, where each alone needs most of it. The executor
  // fetches V once, so each processor sends its part of V to each of the
  // N - 1 others at most: the two statements' reads counted as one fetch
  // (joinCountedFetches) send that, as their terms bounded by it
  // (FetchBound.h) did. Their sum was 7/6 of it by columns, 5/3 by rows.
  const auto [p, s5, s6] = fig2_2(n);
  const double bound = double(n * n / N) * 8 * (N - 1);
  for (const auto &v : {std::vector<DimLayout>{collapsed(), block(0)},
                        std::vector<DimLayout>{block(0), collapsed()}}) {
    Estimate e = run(p, layout({N}, {{"X", {collapsed(), block(0)}}, {"V", v}}));
    std::vector<EstimateTerm> terms = comm(e, s5, "V");
    for (const EstimateTerm &t : comm(e, s6, "V"))
      terms.push_back(t);
    ASSERT_FALSE(terms.empty());
    double busiest = 0;
    for (int64_t q = 0; q < N; ++q) {
      double sent = 0;
      for (const EstimateTerm &t : terms)
        sent += sentAt(t.primitive, t.groupSize, t.repetitions, t.messageBytes, t.senders, {q}).bytes;
      EXPECT_LE(sent, bound * (1 + 1e-9)) << "processor " << q;
      busiest = std::max(busiest, sent);
    }
    EXPECT_NEAR(busiest, bound, 1e-6 * bound);
  }
}

TEST(FetchBound, APartGoesOnlyToTheProcessorsThatCanReadIt) {
  // X and V blocked both ways on 2 x 2. Both statements read V(.,MI) for
  // X(MI,.), and V's columns and X's rows have the same owner function:
  // column block c of V is read only on mesh row c of X, two processors,
  // one of them the holder itself where r = c. So the processor at (r, c)
  // sends its part to 2 - [r = c] others at most, where the bound of every
  // processor but the holders would allow 3 (the simulated fig2_2 at 16:
  // 512 and 1,024 bytes).
  const auto [p, s5, s6] = fig2_2(n);
  Estimate e = run(p, layout({2, 2}, {{"X", {block(0), block(1)}}, {"V", {block(0), block(1)}}}));
  std::vector<EstimateTerm> terms = comm(e, s5, "V");
  for (const EstimateTerm &t : comm(e, s6, "V"))
    terms.push_back(t);
  ASSERT_FALSE(terms.empty());
  const double part = double(n / 2 * (n / 2)) * 8;
  double busiest = 0;
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t c = 0; c < 2; ++c) {
      double sent = 0;
      for (const EstimateTerm &t : terms)
        sent += sentAt(t.primitive, t.groupSize, t.repetitions, t.messageBytes, t.senders, {r, c}).bytes;
      busiest = std::max(busiest, sent);
    }
  EXPECT_GT(busiest, 0);
  EXPECT_LE(busiest, 2 * part * (1 + 1e-9));
}

TEST(FetchBound, HeldByCountsEachProcessorsElements) {
  // Ten elements from index 1 on four processors; f(i) = floor((i - o) / b)
  // mod 4 (Eq. 2.1), o the lower bound plus the layout's offset.
  auto held = [](DistKind kind, int64_t block, int64_t offset) {
    cost::DimDist d;
    d.kind = kind;
    d.meshDim = 0;
    d.procs = 4;
    d.block = block;
    d.extent = 10;
    d.lower = 1;
    d.offset = 1 + offset;
    std::vector<int64_t> n;
    for (int64_t c = 0; c < 4; ++c)
      n.push_back(d.heldBy(c));
    return n;
  };
  EXPECT_EQ(held(DistKind::Block, 3, 0), (std::vector<int64_t>{3, 3, 3, 1}));
  EXPECT_EQ(held(DistKind::Cyclic, 1, 0), (std::vector<int64_t>{3, 3, 2, 2}));
  EXPECT_EQ(held(DistKind::BlockCyclic, 2, 0), (std::vector<int64_t>{4, 2, 2, 2}));
  // Offset 1: index 1 is t = -1, on the last processor.
  EXPECT_EQ(held(DistKind::Cyclic, 1, 1), (std::vector<int64_t>{3, 2, 2, 3}));
  EXPECT_EQ(held(DistKind::Collapsed, 10, 0), (std::vector<int64_t>{10, 10, 10, 10}));
}

/// DO L = 1, N-1 / DO J = 1, L: F = D(J) / DO K = J, L:
/// Z(K,J) = Z(K,J) - F * D(K + offset); then D(L) = Z(L,L). The scalar
/// statement reached with
/// probability rho. Returns the program, the scalar statement and the
/// update.
struct Update {
  Program p;
  std::string scalar, update;
};
Update update(int64_t offset, double rho = 1) {
  ModelBuilder b;
  b.param("N", n);
  b.array("Z", {n, n});
  b.array("D", {n + 1});
  auto l = b.loop("L", b.c(1), b.p("N", 1, -1));
  auto j = b.loop("J", b.c(1), b.iv(l), l, 1, true);
  auto k = b.loop("K", b.iv(j), b.iv(l), j, 1, true);
  auto f = b.scalarStmt({l, j}, "F", {b.ref("D", {b.iv(j)})}, {.loads = 1}, "");
  auto s = b.stmt({l, j, k}, b.ref("Z", {b.iv(k), b.iv(j)}),
                  {b.ref("Z", {b.iv(k), b.iv(j)}), b.ref("D", {b.iv(k, 1, offset)})},
                  {.loads = 2, .stores = 1, .fadd = 1, .fmul = 1});
  // D(L) = Z(L,L) after the J loop, as tred2's D(J) = Z(L,J): D changes
  // from one L to the next, so each is fetched in its iteration of L.
  auto d = b.stmt({l}, b.ref("D", {b.iv(l)}), {b.ref("Z", {b.iv(l), b.iv(l)})},
                  {.loads = 1, .stores = 1});
  if (rho != 1)
    b.probability(f, rho);
  using K = Dependence::Kind;
  b.dep(f, s, K::Flow, "F", "", {"=", "="}, {0, 0});
  b.dep(s, f, K::Anti, "F", j, {"=", "<"}, {0, 1}); // one F: the J loop stays whole
  b.dep(s, d, K::Flow, "Z", "", {"="}, {0});
  b.dep(d, f, K::Flow, "D", l, {"<"}, {1});
  b.dep(d, s, K::Flow, "D", l, {"<"}, {1});
  return {b.build(), f, s};
}

Layout columns() {
  return layout({N}, {{"Z", {collapsed(), block(0)}}, {"D", {block(0)}}});
}

TEST(Subsumption, AScalarsFetchReachesEveryProcessor) {
  // F = D(J) brings D(1 .. L) to every processor before the J loop; the
  // update's D(K), K = J .. L, lies within it.
  const Update u = update(0);
  const Estimate e = run(u.p, columns());
  EXPECT_FALSE(comm(e, u.scalar, "D").empty());
  EXPECT_TRUE(comm(e, u.update, "D").empty());
  // D(K + 1) reaches D(L + 1), which F's fetch does not bring: the two
  // reads are one fetch before the J loop, counted together (the update's
  // counted as it runs; joinCountedFetches), charged to F's, and D(L + 1)
  // goes to the owners of Z's columns 1 .. L on top of what F brings.
  const Update beyond = update(1);
  const Estimate b = run(beyond.p, columns());
  EXPECT_TRUE(comm(b, beyond.update, "D").empty());
  auto sent = [](const std::vector<EstimateTerm> &terms) { // the busiest's bytes, and all's
    double busiest = 0, all = 0;
    for (int64_t q = 0; q < N; ++q) {
      double bytes = 0;
      for (const EstimateTerm &t : terms)
        bytes += sentAt(t.primitive, t.groupSize, t.repetitions, t.messageBytes, t.senders, {q}).bytes;
      busiest = std::max(busiest, bytes);
      all += bytes;
    }
    return std::pair{busiest, all};
  };
  const std::vector<EstimateTerm> joint = comm(b, beyond.scalar, "D");
  ASSERT_FALSE(joint.empty());
  EXPECT_NE(joint.front().rule.find("one fetch with 1 other statement's read"), std::string::npos)
      << joint.front().rule;
  const auto [busiest, all] = sent(joint);
  const auto [busiestAlone, allAlone] = sent(comm(e, u.scalar, "D"));
  EXPECT_GE(busiest, busiestAlone);
  EXPECT_GT(all, allAlone);
  // A scalar assignment reached only sometimes brings nothing for sure.
  const Update sometimes = update(0, 0.5);
  EXPECT_FALSE(comm(run(sometimes.p, columns()), sometimes.update, "D").empty());
  // The thesis's formulas fetch for each statement.
  EstimateOptions separate;
  separate.coalescing = false;
  EXPECT_FALSE(comm(run(u.p, columns(), separate), u.update, "D").empty());
}

} // namespace
} // namespace dlayout::test
