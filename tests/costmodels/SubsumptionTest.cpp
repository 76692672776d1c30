//===- tests/costmodels/SubsumptionTest.cpp - Fetches a scalar's already bring ===//
//
// Subsumption.h's test where the covering statement is an assignment to a
// scalar, run on every processor: what it fetches reaches every processor,
// so a deeper statement of the same loop copy that reads elements within
// it adds no message. tred2's DO 61 (samples/paradigm/tred2.F, lines
// 154-161), reduced. (Subsumption between two array assignments:
// MessagesTest.cpp.)
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

namespace dlayout::test {
namespace {

constexpr int64_t n = 16, N = 4;

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
  // D(K + 1) reaches D(L + 1), which F's fetch does not bring.
  const Update beyond = update(1);
  EXPECT_FALSE(comm(run(beyond.p, columns()), beyond.update, "D").empty());
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
