//===- tests/costmodels/LoopDistributionTest.cpp - The distributed nest ---===//
//
// distributeLoops (costmodels/LoopDistribution.h): components of a loop's
// body run in topological order, ties in program order; a dependence carried
// by an outer loop does not order the units inside it; a scalar assigned in a
// loop keeps its statements together.
//
//===----------------------------------------------------------------------===//
#include "ModelBuilder.h"
#include "costmodels/LoopDistribution.h"

#include <gtest/gtest.h>

using namespace dlayout;
using namespace dlayout::test;
using Kind = Dependence::Kind;
using Paths = std::vector<std::vector<int>>;

namespace {

Paths distribute(const Program &p) {
  cost::DependenceLevels dl(p);
  return cost::distributeLoops(p, dl);
}

ModelBuilder arrays(std::initializer_list<const char *> names) {
  ModelBuilder b;
  for (const char *a : names) b.array(a, {64});
  return b;
}

} // namespace

// Allen and Kennedy's example: S1 and S2 form a recurrence carried by I; S3
// only reads what S1 wrote, so it gets a copy of the loop of its own, after.
TEST(LoopDistribution, RecurrenceStaysTogetherTheRestSplits) {
  ModelBuilder b = arrays({"A", "B", "C"});
  auto i = b.loop("I", b.c(2), b.c(64));
  auto s1 = b.stmt({i}, b.ref("A", {b.iv(i)}), {b.ref("B", {b.iv(i, 1, -1)})});
  auto s2 = b.stmt({i}, b.ref("B", {b.iv(i)}), {b.ref("A", {b.iv(i)})});
  auto s3 = b.stmt({i}, b.ref("C", {b.iv(i)}), {b.ref("A", {b.iv(i, 1, -1)})});
  b.dep(s2, s1, Kind::Flow, "B", i, {"<"}, {1});
  b.dep(s1, s2, Kind::Flow, "A", "", {"="}, {0});
  b.dep(s1, s3, Kind::Flow, "A", i, {"<"}, {1});
  EXPECT_EQ(distribute(b.build()), (Paths{{0, 0}, {0, 1}, {1, 0}}));
}

// A value carried to an earlier statement: the producer's copy runs first,
// against program order (a topological order, not the textual one).
TEST(LoopDistribution, ProducerRunsFirstWhenTheDependenceIsCarried) {
  ModelBuilder b = arrays({"X", "Y", "Z"});
  auto i = b.loop("I", b.c(2), b.c(64));
  auto s1 = b.stmt({i}, b.ref("X", {b.iv(i)}), {b.ref("Y", {b.iv(i, 1, -1)})});
  auto s2 = b.stmt({i}, b.ref("Y", {b.iv(i)}), {b.ref("Z", {b.iv(i)})});
  b.dep(s2, s1, Kind::Flow, "Y", i, {"<"}, {1});
  EXPECT_EQ(distribute(b.build()), (Paths{{1, 0}, {0, 0}}));
}

// Inside a time loop: what the time loop carries does not order the sweeps
// inside one of its iterations (though it keeps them in one copy of it), a statement directly in its body is a unit
// of its own, and an inexact "*" cannot order a later loop before an
// earlier one.
TEST(LoopDistribution, DependencesCarriedOutsideDoNotOrderTheBody) {
  ModelBuilder b = arrays({"A", "B", "C"});
  auto t = b.loop("T", b.c(1), b.c(10));
  auto i1 = b.loop("I", b.c(2), b.c(63), t);
  auto i2 = b.loop("I", b.c(2), b.c(63), t);
  auto s1 = b.stmt({t, i1}, b.ref("A", {b.iv(i1)}), {b.ref("B", {b.iv(i1, 1, 1)})});
  auto s2 = b.stmt({t}, b.ref("C", {b.c(1)}), {b.ref("A", {b.c(2)})});
  auto s3 = b.stmt({t, i2}, b.ref("B", {b.iv(i2)}),
                   {b.ref("A", {b.iv(i2, 1, -1)}), b.ref("C", {b.c(1)})});
  b.dep(s3, s1, Kind::Flow, "B", t, {"<"}); // the next sweep reads it
  b.dep(s3, s1, Kind::Flow, "B", "", {"*"}); // an inexact vector
  b.dep(s1, s3, Kind::Anti, "B", "", {"="});
  b.dep(s1, s2, Kind::Flow, "A", "", {"="});
  b.dep(s1, s3, Kind::Flow, "A", "", {"="});
  b.dep(s2, s3, Kind::Flow, "C", "", {"="});
  // One copy of T (S1 -> S2 -> S3 -> S1 is a recurrence T carries); inside
  // it the program's order.
  EXPECT_EQ(distribute(b.build()), (Paths{{0, 0, 0}, {0, 1}, {0, 2, 0}}));
}

// A scalar assigned in the loop and read by a later statement of it ties
// them into one copy (no scalar expansion); an unrelated statement splits.
TEST(LoopDistribution, AScalarAssignedInTheLoopKeepsItsStatementsTogether) {
  ModelBuilder b = arrays({"A", "B", "C"});
  auto i = b.loop("I", b.c(1), b.c(64));
  b.scalarStmt({i}, "T", {b.ref("A", {b.iv(i)})}, {}, "");
  b.stmt({i}, b.ref("C", {b.iv(i)}), {b.ref("A", {b.iv(i)})});
  b.stmt({i}, b.ref("B", {b.iv(i)}), {});
  Program p = b.build();
  Expr t;
  t.kind = Expr::Kind::Scalar;
  t.name = "T";
  p.statements[2].expr = t; // B(I) = T
  EXPECT_EQ(distribute(p), (Paths{{0, 0}, {1, 0}, {0, 1}}));
}
