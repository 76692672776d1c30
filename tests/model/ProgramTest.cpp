//===- tests/model/ProgramTest.cpp - Program look-ups, affine, verify -----===//

#include "model/Program.h"
#include "Fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>

using namespace dlayout;
using dlayout::testing::richProgram;

namespace {

/// Expects verify(p) to fail with a message containing `text`.
void expectInvalid(const Program &p, const std::string &text) {
  auto s = verify(p);
  ASSERT_FALSE(s.ok()) << "expected an error containing: " << text;
  EXPECT_NE(s.error().message.find(text), std::string::npos)
      << "message: " << s.error().message;
}

} // namespace

TEST(Program, FindsByNameAndId) {
  Program p = richProgram();
  ASSERT_NE(p.findArray("COL"), nullptr);
  EXPECT_EQ(p.findArray("COL")->elementType, "i32");
  EXPECT_EQ(p.findArray("col"), nullptr); // names are case-sensitive
  ASSERT_NE(p.findLoop("L2"), nullptr);
  EXPECT_EQ(p.findLoop("L2")->var, "J");
  EXPECT_EQ(p.findLoop("L9"), nullptr);
  ASSERT_NE(p.findStatement("S3"), nullptr);
  EXPECT_EQ(p.findStatement("S3")->probability, 0.5);
  EXPECT_EQ(p.findStatement(""), nullptr);
}

TEST(Program, FindsAfterTheVectorsAreEdited) {
  // The look-ups cache positions (model/IdIndex.h); editing, reordering or
  // renaming afterwards must never give a wrong or a stale answer.
  Program p = richProgram();
  ASSERT_NE(p.findLoop("L2"), nullptr);
  ASSERT_NE(p.findStatement("S3"), nullptr);
  std::reverse(p.loops.begin(), p.loops.end());
  ASSERT_NE(p.findLoop("L2"), nullptr);
  EXPECT_EQ(p.findLoop("L2")->var, "J");
  p.loops.erase(std::remove_if(p.loops.begin(), p.loops.end(),
                               [](const Loop &l) { return l.id == "L2"; }),
                p.loops.end());
  EXPECT_EQ(p.findLoop("L2"), nullptr);
  std::string renamed = p.statements.front().id;
  p.statements.front().id = "S99";
  EXPECT_EQ(p.findStatement(renamed), nullptr);
  ASSERT_NE(p.findStatement("S99"), nullptr);
  EXPECT_EQ(p.findStatement("S99"), &p.statements.front());
  Program q = p; // a copy finds in its own vectors
  EXPECT_EQ(q.findStatement("S99"), &q.statements.front());
  EXPECT_TRUE(q == p);
}

TEST(Program, EnumNamesRoundTrip) {
  for (auto c : {SubscriptClass::Constant, SubscriptClass::Single,
                 SubscriptClass::Multiple, SubscriptClass::Unknown,
                 SubscriptClass::Indirect})
    EXPECT_EQ(subscriptClassFromString(toString(c)), c);
  EXPECT_STREQ(toString(SubscriptClass::Multiple), "multiple");
  EXPECT_EQ(subscriptClassFromString("Single"), std::nullopt);
  for (auto k : {Dependence::Kind::Flow, Dependence::Kind::Anti,
                 Dependence::Kind::Output})
    EXPECT_EQ(dependenceKindFromString(toString(k)), k);
  EXPECT_STREQ(toString(Dependence::Kind::Anti), "anti");
  EXPECT_EQ(dependenceKindFromString("true"), std::nullopt);
}

TEST(Affine, Evaluates) {
  AffineExpr e{{{"L1", 2}, {"L3", -1}}, {{"N", 3}}, -7};
  auto v = evaluate(e, {{"N", 10}}, {{"L1", 5}, {"L3", 4}});
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_EQ(*v, 2 * 5 - 4 + 30 - 7);
  // A loop without a value counts as 0.
  auto w = evaluate(e, {{"N", 10}});
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(*w, 23);
  EXPECT_EQ(*evaluate(AffineExpr{{}, {}, -4}, {}), -4);
}

TEST(Affine, EvaluateFailsOnUnboundParameterAndOverflow) {
  auto v = evaluate(AffineExpr{{}, {{"M", 1}}, 0}, {{"N", 1}});
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message.find("parameter M"), std::string::npos);
  auto o = evaluate(AffineExpr{{{"L1", INT64_MAX}}, {}, 0}, {}, {{"L1", 2}});
  ASSERT_FALSE(o.ok());
  EXPECT_NE(o.error().message.find("overflow"), std::string::npos);
  auto s = evaluate(AffineExpr{{}, {{"N", 1}}, INT64_MAX}, {{"N", 1}});
  EXPECT_FALSE(s.ok());
}

TEST(Affine, RendersWithLoopVariables) {
  Program p = richProgram(); // L1 = I, L2 = J, L3 = K
  EXPECT_EQ(render(AffineExpr{{{"L1", 1}}, {}, -1}, p), "I - 1");
  EXPECT_EQ(render(AffineExpr{{{"L2", 2}}, {{"N", 1}}, 0}, p), "2*J + N");
  EXPECT_EQ(render(AffineExpr{{{"L1", -1}, {"L2", 1}}, {}, 3}, p),
            "-I + J + 3");
  EXPECT_EQ(render(AffineExpr{{{"L3", -3}}, {{"N", -2}}, 0}, p), "-3*K - 2*N");
  EXPECT_EQ(render(AffineExpr{}, p), "0");
  EXPECT_EQ(render(AffineExpr{{}, {}, -12}, p), "-12");
  EXPECT_EQ(render(AffineExpr{{}, {{"N", 1}}, 1}, p), "N + 1");
  // Loops render in program order, not by id; unknown ids render as ids.
  EXPECT_EQ(render(AffineExpr{{{"L2", 1}, {"L1", 1}}, {}, 0}, p), "I + J");
  EXPECT_EQ(render(AffineExpr{{{"L9", 1}}, {}, 0}, p), "L9");
  EXPECT_EQ(render(AffineExpr{{}, {}, INT64_MIN}, p), "-9223372036854775808");
}

TEST(Verify, AcceptsTheRichProgramAndAnEmptyOne) {
  auto s = verify(richProgram());
  EXPECT_TRUE(s.ok()) << s.error().message;
  EXPECT_TRUE(verify(Program{}).ok());
}

TEST(Verify, RejectsAbsurdValues) {
  Program p = richProgram();
  p.arrays[2].dims[0].extent = -5;
  expectInvalid(p, "arrays[2].dims[0].extent: must be positive");
  p = richProgram();
  p.arrays[0].dims[1].extent = 0;
  expectInvalid(p, "arrays[0].dims[1].extent: must be positive");
  p = richProgram();
  p.arrays[1].elementBytes = 0;
  expectInvalid(p, "arrays[1].element_bytes");
  p = richProgram();
  p.loops[2].step = 0;
  expectInvalid(p, "loops[2].step: must not be zero");
  p = richProgram();
  p.loops[0].tripCount = -1;
  expectInvalid(p, "loops[0].trip_count");
  p = richProgram();
  p.statements[2].probability = 1.5;
  expectInvalid(p, "statements[2].probability");
  p = richProgram();
  p.statements[0].reduction = "average";
  expectInvalid(p, "statements[0].reduction");
}

TEST(Verify, RejectsDanglingNames) {
  Program p = richProgram();
  p.statements[0].refs[2].array = "Q";
  expectInvalid(p, "statements[0].refs[2].array: no array named Q");
  p = richProgram();
  p.loops[1].parent = "L7";
  expectInvalid(p, "loops[1].parent");
  p = richProgram();
  p.statements[1].loops = {"L2"};
  expectInvalid(p, "statements[1].loops[0]");
  p = richProgram();
  p.dependences[0].to = "S9";
  expectInvalid(p, "dependences[0].to");
  p = richProgram();
  p.dependences[2].carriedBy = "L1"; // L1 does not enclose S3
  expectInvalid(p, "dependences[2].carried_by");
  p = richProgram();
  p.loops[0].carries = {"D3"};
  expectInvalid(p, "loops[0].carries[0]");
  p = richProgram();
  p.phases[1].statements.push_back("S1");
  expectInvalid(p, "phases[1].statements[1]");
  p = richProgram();
  p.phases.pop_back();
  expectInvalid(p, "statements[3]: statement S4 is in no phase");
  p = richProgram();
  p.statements[1].scalarWrite = "TOTAL";
  expectInvalid(p, "statements[1].scalar_write: no scalar TOTAL");
  p = richProgram();
  p.loops.push_back(p.loops[0]);
  expectInvalid(p, "loops[3].id: duplicate id L1");
}

TEST(Verify, RejectsInconsistentSubscripts) {
  Program p = richProgram();
  p.statements[0].refs[1].subscripts.pop_back();
  expectInvalid(p, "statements[0].refs[1].subscripts: 1 subscripts");
  p = richProgram();
  p.statements[0].refs[2].subscripts[0].cls = SubscriptClass::Single;
  expectInvalid(p, "statements[0].refs[2].subscripts[0].class");
  p = richProgram();
  p.statements[0].refs[0].subscripts[1].variationLevel = 1;
  expectInvalid(p, "statements[0].refs[0].subscripts[1].variation_level");
  p = richProgram();
  p.statements[2].refs[0].subscripts[0].variationLevel = 2; // unknown, depth 1
  expectInvalid(p, "statements[2].refs[0].subscripts[0].variation_level: "
                   "must be at most 1");
  p = richProgram();
  p.statements[1].refs[0].subscripts[0].affine.coeffs["L1"] = 1;
  p.statements[1].refs[0].subscripts[0].variationLevel = 0; // indirect
  expectInvalid(p, "statements[1].refs[0].subscripts[0].variation_level: "
                   "must be at least 1");
  p = richProgram();
  p.statements[1].refs[0].subscripts[0].index.clear();
  expectInvalid(p, "statements[1].refs[0].subscripts[0].index");
  p = richProgram();
  p.statements[2].refs[1].subscripts[0].affine.coeffs["L1"] = 1;
  expectInvalid(p, "statements[2].refs[1].subscripts[0].coeffs.L1");
  p = richProgram();
  p.statements[3].write = 1;
  expectInvalid(p, "statements[3].write");
  p = richProgram();
  p.statements[0].refs[1].access = Reference::Access::Write;
  expectInvalid(p, "statements[0].refs[1].access");
}

TEST(Verify, RejectsMalformedExpressions) {
  Program p = richProgram();
  p.statements[0].expr.args[0].args[0].refIndex = 7;
  expectInvalid(p, "statements[0].expr.args[0].args[0].ref");
  p = richProgram();
  p.statements[0].expr.args[0].args[0].refIndex = 0; // the written ref
  expectInvalid(p, "must be a read reference");
  p = richProgram();
  p.statements[2].expr.name = "choose";
  expectInvalid(p, "statements[2].expr.op: unknown operator choose");
  p = richProgram();
  p.statements[2].expr.args.pop_back();
  expectInvalid(p, "statements[2].expr.args: 2 arguments to operator select");
  p = richProgram();
  p.statements[2].guards[0].condition.args[0].kind = Expr::Kind::Iv;
  p.statements[2].guards[0].condition.args[0].name = "L1";
  expectInvalid(p, "statements[2].guards[0].condition.args[0].iv");
  p = richProgram();
  p.statements[0].expr.args[1].args[1].name = "G";
  expectInvalid(p, "statements[0].expr.args[1].args[1].scalar: no scalar G");
}
