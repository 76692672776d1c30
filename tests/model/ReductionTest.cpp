//===- tests/model/ReductionTest.cpp - Where a reduction into an array runs -===//
//
// arrayReduction (model/Reduction.h) on matmul's C(I,J) = C(I,J) + A(I,K) *
// B(K,J): home A(I,K), the read of C(I,J) its own, the region the I loop
// when nothing else touches C there, the K loop when C(I,J) = 0 precedes it
// in J; no plan when C is read through another element, when the element
// written is indirect, or for an assignment that is no reduction.
//
//===----------------------------------------------------------------------===//
#include "model/Reduction.h"

#include <gtest/gtest.h>

using namespace dlayout;

namespace {

Reference ref(const std::string &array, std::vector<std::string> vars, bool write = false) {
  Reference r;
  r.array = array;
  r.access = write ? Reference::Access::Write : Reference::Access::Read;
  for (auto &v : vars) {
    Subscript s;
    s.cls = SubscriptClass::Single;
    s.affine.coeffs[v] = 1;
    r.subscripts.push_back(s);
  }
  return r;
}

Loop loop(const std::string &id, const std::string &var, const std::string &parent, int level) {
  Loop l;
  l.id = id;
  l.var = var;
  l.parent = parent;
  l.level = level;
  return l;
}

/// DO I; DO J; [C(I,J) = 0;] DO K: C(I,J) = C(I,J) + A(I,K) * B(K,J)
Program matmul(bool zeroInJ, const std::string &selfSub = "J") {
  Program p;
  p.loops = {loop("LI", "I", "", 1), loop("LJ", "J", "LI", 2), loop("LK", "K", "LJ", 3)};
  if (zeroInJ) {
    Statement z;
    z.id = "S0";
    z.loops = {"LI", "LJ"};
    z.write = 0;
    z.refs = {ref("C", {"I", "J"}, true)};
    p.statements.push_back(z);
  }
  Statement s;
  s.id = "S1";
  s.loops = {"LI", "LJ", "LK"};
  s.reduction = "sum";
  s.write = 0;
  s.refs = {ref("C", {"I", "J"}, true), ref("C", {"I", selfSub}), ref("A", {"I", "K"}),
            ref("B", {"K", "J"})};
  p.statements.push_back(s);
  return p;
}

} // namespace

TEST(ArrayReduction, MatmulRunsAtAWithItsPartialsKeptOverTheNest) {
  Program p = matmul(false);
  ArrayReduction r = arrayReduction(p, 0);
  ASSERT_TRUE(r.planned());
  EXPECT_EQ(r.home, 2);     // A(I,K): the first operand not of C
  EXPECT_EQ(r.selfRead, 1); // C(I,J)
  EXPECT_EQ(r.region, 0);   // nothing else touches C inside DO I
}

TEST(ArrayReduction, AFreshSumInEachJIsCombinedPerJ) {
  Program p = matmul(true);
  ArrayReduction r = arrayReduction(p, 1);
  ASSERT_TRUE(r.planned());
  EXPECT_EQ(r.region, 2); // C(I,J) = 0 is in DO J: the region is DO K
}

TEST(ArrayReduction, NoneWhenTheArrayIsReadThroughAnotherElement) {
  Program p = matmul(false, "K"); // C(I,J) = C(I,K) + ...
  EXPECT_FALSE(arrayReduction(p, 0).planned());
}

TEST(ArrayReduction, NoneForAnIndirectElementOrAnAssignment) {
  Program p = matmul(false);
  p.statements[0].refs[0].subscripts[0].cls = SubscriptClass::Indirect;
  EXPECT_FALSE(arrayReduction(p, 0).planned());
  Program q = matmul(false);
  q.statements[0].reduction.clear();
  EXPECT_FALSE(arrayReduction(q, 0).planned());
}
