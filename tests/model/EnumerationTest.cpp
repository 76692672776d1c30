//===- tests/model/EnumerationTest.cpp - Where instances are known -------===//
//
// enumerationLevel (model/Enumeration.h) on olda's DO 290 MK / DO 260
// ML = LMIN, LMAX: the bounds' scalars are assigned in MK, so XIJ(ML) =
// XIJ(ML) + VAL * V(MS,ML) knows its instances only inside MK; assigned
// before the nest, outside every loop; a subscript that reads an element,
// per instance.
//
//===----------------------------------------------------------------------===//
#include "model/Enumeration.h"

#include "Fixtures.h"

#include <gtest/gtest.h>

using namespace dlayout;

namespace {

Expr scalar(const std::string &name) { return dlayout::testing::scalarRead(name); }

Statement assign(const std::string &id, std::vector<std::string> loops, const std::string &v) {
  Statement s;
  s.id = id;
  s.loops = std::move(loops);
  s.scalarWrite = v;
  s.expr.kind = Expr::Kind::Const;
  return s;
}

/// DO L1 MK: [LMAX = MK]; DO L2 ML = 1, LMAX: V(ML) = 0
Program olda(bool assignedInside) {
  Program p;
  Loop mk;
  mk.id = "L1";
  mk.var = "MK";
  Loop ml;
  ml.id = "L2";
  ml.var = "ML";
  ml.parent = "L1";
  ml.level = 2;
  ml.upper.kind = Bound::Kind::NonAffine;
  ml.upper.expr = scalar("LMAX");
  p.loops = {mk, ml};
  p.statements.push_back(assign("S0", assignedInside ? std::vector<std::string>{"L1"}
                                                     : std::vector<std::string>{},
                                "LMAX"));
  Statement v;
  v.id = "S1";
  v.loops = {"L1", "L2"};
  v.write = 0;
  Reference r;
  r.array = "V";
  r.access = Reference::Access::Write;
  r.subscripts.resize(1);
  v.refs = {r};
  p.statements.push_back(v);
  return p;
}

} // namespace

TEST(Enumeration, InsideTheLoopsThatAssignABoundsScalar) {
  EXPECT_EQ(enumerationLevel(olda(true), 1, {}), 1);
  EXPECT_EQ(enumerationLevel(olda(false), 1, {}), 0);
  EXPECT_EQ(enumerationLevel(olda(false), 1, {}, 2), 2); // the caller's floor
}

TEST(Enumeration, ASubscriptReadingAnElementIsKnownPerInstance) {
  Program p = olda(false);
  Subscript &sub = p.statements[1].refs[0].subscripts[0];
  sub.cls = SubscriptClass::Unknown;
  Expr e;
  e.kind = Expr::Kind::Ref;
  e.refIndex = 0;
  sub.expr = e;
  Reference node;
  node.array = "NODE";
  node.subscripts.resize(1);
  sub.exprRefs = {node};
  EXPECT_EQ(enumerationLevel(p, 1, {}), 2);
}

TEST(Enumeration, TheReadersOfItsPrivateScalarCount) {
  // S2 reads a private scalar S1 assigns; S2's subscript reads LMAX, which
  // S0 assigns in L1: S1's operands are fetched for S2's instances.
  Program q = olda(true);
  q.loops[1].upper = Bound{};
  Statement reader = q.statements[1];
  reader.id = "S2";
  reader.refs[0].subscripts[0].expr = scalar("LMAX");
  Statement t = assign("S1", {"L1", "L2"}, "T");
  q.statements = {q.statements[0], t, reader};
  EXPECT_EQ(enumerationLevel(q, 1, {}), 0);
  EXPECT_EQ(enumerationLevel(q, 1, {2}), 1);
}
