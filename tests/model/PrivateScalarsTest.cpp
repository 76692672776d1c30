//===- tests/model/PrivateScalarsTest.cpp - Scalars private to a loop body ===//
//
// privateScalarReaders (model/PrivateScalars.h) on edge.F's flux: a start
// assigned in the edge loop, a sum over an inner loop, read later in the
// edge loop -- private, the sum with it; read after the loop, or summed
// without a start in the loop, it is not.
//
//===----------------------------------------------------------------------===//
#include "model/PrivateScalars.h"

#include "Fixtures.h"

#include <gtest/gtest.h>

using namespace dlayout;

namespace {

Expr scalar(const std::string &name) { return dlayout::testing::scalarRead(name); }

Expr ref(int index) {
  Expr e;
  e.kind = Expr::Kind::Ref;
  e.refIndex = index;
  return e;
}

Expr plus(Expr a, Expr b) {
  Expr e;
  e.kind = Expr::Kind::Op;
  e.name = "+";
  e.args = {std::move(a), std::move(b)};
  return e;
}

Reference element(const std::string &array, Reference::Access access) {
  Reference r;
  r.array = array;
  r.access = access;
  r.subscripts.resize(1);
  return r;
}

/// DO I: [FLUX = 0]; DO K: FLUX = FLUX + E(I,K); Y(I) = Y(I) + FLUX
Program flux(bool start) {
  Program p;
  p.statements.reserve(3);
  if (start) {
    Statement s;
    s.id = "S0";
    s.loops = {"L1"};
    s.scalarWrite = "FLUX";
    s.expr.kind = Expr::Kind::Const;
    p.statements.push_back(s);
  }
  Statement sum;
  sum.id = "S1";
  sum.loops = {"L1", "L2"};
  sum.scalarWrite = "FLUX";
  sum.reduction = "sum";
  sum.refs = {element("E", Reference::Access::Read)};
  sum.expr = plus(scalar("FLUX"), ref(0));
  p.statements.push_back(sum);
  Statement use;
  use.id = "S2";
  use.loops = {"L1"};
  use.write = 0;
  use.refs = {element("Y", Reference::Access::Write), element("Y", Reference::Access::Read)};
  use.expr = plus(ref(1), scalar("FLUX"));
  p.statements.push_back(use);
  return p;
}

} // namespace

TEST(PrivateScalars, ASumWithItsStartInTheLoopRunsWhereItsReadersRun) {
  auto readers = privateScalarReaders(flux(true));
  ASSERT_EQ(readers.size(), 3u);
  EXPECT_EQ(readers[0], std::vector<size_t>{2}); // FLUX = 0
  EXPECT_EQ(readers[1], std::vector<size_t>{2}); // the sum over K
  EXPECT_TRUE(readers[2].empty());
}

TEST(PrivateScalars, ASumWithoutAStartOrReadAfterTheLoopIsNot) {
  for (auto &r : privateScalarReaders(flux(false))) EXPECT_TRUE(r.empty());
  Program after = flux(true);
  Statement out;
  out.id = "S3";
  out.scalarWrite = "TOTAL";
  out.expr = scalar("FLUX"); // outside the I loop: the last edge's flux
  after.statements.push_back(out);
  for (auto &r : privateScalarReaders(after)) EXPECT_TRUE(r.empty());
}

namespace {

Guard when(const std::string &predicate) { return Guard{scalar(predicate), ""}; }

/// DO J: IF (P) T = X(J); [Q = 0]; IF (P) X(J) = T, with `readerGuarded` the
/// second IF; `reassign` puts Q = 0 between them, Q being the guard's scalar.
Program swap(bool readerGuarded, bool reassign, const std::string &guard = "P") {
  Program p;
  Statement t;
  t.id = "S1";
  t.loops = {"L1"};
  t.scalarWrite = "T";
  t.refs = {element("X", Reference::Access::Read)};
  t.expr = ref(0);
  t.guards = {when(guard)};
  p.statements.push_back(t);
  if (reassign) {
    Statement q;
    q.id = "S2";
    q.loops = {"L1"};
    q.scalarWrite = guard;
    q.expr.kind = Expr::Kind::Const;
    p.statements.push_back(q);
  }
  Statement x;
  x.id = "S3";
  x.loops = {"L1"};
  x.write = 0;
  x.refs = {element("X", Reference::Access::Write)};
  x.expr = scalar("T");
  if (readerGuarded) x.guards = {when(guard)};
  p.statements.push_back(x);
  return p;
}

} // namespace

TEST(PrivateScalars, AGuardedAssignmentIsPrivateToReadersUnderTheSameGuard) {
  // dgefa's row exchange below IF (A(L,K) .EQ. 0): T = A(L,J) is read only
  // by A(K,J) = T, under the same IF.
  auto readers = privateScalarReaders(swap(true, false));
  EXPECT_EQ(readers[0], std::vector<size_t>{1});
  // Not when Parafrase-2's rules are asked for (the thesis's placement).
  EXPECT_TRUE(privateScalarReaders(swap(true, false), false)[0].empty());
}

TEST(PrivateScalars, AGuardedAssignmentIsNotPrivateToAReaderOutsideItsGuard) {
  // The reader may run where the assignment did not: it reads an earlier
  // iteration's T.
  EXPECT_TRUE(privateScalarReaders(swap(false, false))[0].empty());
  // Nor when the guard's scalar changes between them.
  EXPECT_TRUE(privateScalarReaders(swap(true, true))[0].empty());
}


TEST(ReductionRegion, TheOutermostLoopNoOtherStatementTouchesTheScalarIn) {
  // flux(true): FLUX = 0 and Y(I) = Y(I) + FLUX in L1 start and read a fresh
  // sum every I, so the sum over L2 is combined once per I: region L2 (1).
  Program p = flux(true);
  EXPECT_EQ(reductionRegion(p, 1), 1);
  // Alone in L1 as well (no start, nothing reads it there): one sum for the
  // whole nest, region L1 (0).
  Program alone = flux(false);
  alone.statements.pop_back();
  EXPECT_EQ(reductionRegion(alone, 0), 0);
  // A statement reading the scalar in the innermost loop too: no region.
  Program inner = flux(false);
  inner.statements[1].loops = {"L1", "L2"};
  EXPECT_EQ(reductionRegion(inner, 0), -1);
  // Not reductions into scalars.
  EXPECT_EQ(reductionRegion(p, 0), -1); // FLUX = 0
  EXPECT_EQ(reductionRegion(p, 2), -1); // an array assignment
}
