//===- tests/model/ProgramJsonTest.cpp - "dlayout-model/1" ----------------===//

#include "model/ProgramJson.h"
#include "Fixtures.h"
#include "JsonTestUtil.h"
#include "model/Json.h"

#include <gtest/gtest.h>

using namespace dlayout;
using dlayout::testing::expectError;
using dlayout::testing::richProgram;
using nlohmann::json;

namespace {

json richDoc() { return toJson(richProgram()); }

} // namespace

TEST(ProgramJson, RoundTripsTheRichProgram) {
  Program p = richProgram();
  std::string text = dump(toJson(p));
  auto back = parseProgram(text);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, p);
  // Writing again gives the same text.
  EXPECT_EQ(dump(toJson(*back)), text);
}

TEST(ProgramJson, RoundTripsAMinimalProgram) {
  Program p;
  p.language = "c";
  auto back = parseProgram(dump(toJson(p)));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, p);
}

TEST(ProgramJson, WritesTheDocumentedFields) {
  json doc = richDoc();
  EXPECT_EQ(doc["schema"], "dlayout-model/1");
  EXPECT_EQ(doc["params"]["N"], 512);
  EXPECT_EQ(doc["arrays"][0]["dims"][0]["extent_expr"]["params"]["N"], 1);
  EXPECT_FALSE(doc["arrays"][4]["dims"][0].contains("extent_expr"));
  EXPECT_TRUE(doc["loops"][0]["parent"].is_null());
  EXPECT_EQ(doc["loops"][1]["lower"]["kind"], "max");
  EXPECT_EQ(doc["loops"][2]["trip_count"], 63.5);
  const json &s2 = doc["statements"][1];
  EXPECT_EQ(s2["reduction"], "sum");
  EXPECT_EQ(s2["write"], -1);
  EXPECT_EQ(s2["scalar_write"], "SCALE");
  const json &x = s2["refs"][0]["subscripts"][0];
  EXPECT_EQ(x["class"], "indirect");
  EXPECT_EQ(x["index"]["array"], "COL"); // one reference, not a list
  EXPECT_EQ(x["const"], 1);
  EXPECT_TRUE(x["coeffs"].is_object()); // always written
  EXPECT_FALSE(x.contains("text"));     // only when non-empty
  EXPECT_EQ(doc["statements"][2]["refs"][0]["subscripts"][0]["text"], "K*K");
  EXPECT_EQ(s2["expr"]["args"][1]["call"], "sqrt");
  EXPECT_EQ(doc["statements"][2]["expr"]["args"][0]["args"][0]["iv"], "L3");
  EXPECT_TRUE(doc["statements"][0]["reduction"].is_null());
  EXPECT_TRUE(doc["dependences"][1]["distance"][0].is_null());
  EXPECT_TRUE(doc["phases"][2]["loop"].is_null());
  std::string text = dump(doc);
  EXPECT_EQ(text.back(), '\n');
  EXPECT_NE(text.find("\n  \"arrays\": ["), std::string::npos); // 2 spaces
}

TEST(ProgramJson, AcceptsOmittedOptionalFieldsAndDropsZeroCoefficients) {
  json doc = json::parse(R"({
    "schema": "dlayout-model/1", "language": "fortran",
    "arrays": [ { "name": "V", "dims": [ { "extent": 10, "lower": 1 } ] } ],
    "loops": [ { "id": "L1", "var": "I",
                 "lower": { "kind": "affine", "terms": [ { "const": 1 } ] },
                 "upper": { "kind": "affine", "terms": [ { "const": 10 } ] } } ],
    "statements": [ { "id": "S1", "loops": ["L1"], "write": 0,
      "refs": [ { "array": "V", "access": "write",
                  "subscripts": [ { "class": "single", "coeffs": { "L1": 1 },
                                    "params": { "N": 0 },
                                    "variation_level": 1 } ] } ],
      "expr": { "iv": "L1" } } ] })");
  auto p = programFromJson(doc);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->arrays[0].elementBytes, 8u);
  EXPECT_EQ(p->loops[0].step, 1);
  EXPECT_EQ(p->statements[0].probability, 1.0);
  EXPECT_TRUE(p->statements[0].refs[0].subscripts[0].affine.params.empty());
  EXPECT_EQ(p->loops[0].lower.terms[0].constant, 1);
}

TEST(ProgramJson, RejectsWrongOrMissingSchema) {
  json doc = richDoc();
  doc["schema"] = "dlayout-model/2";
  expectError(programFromJson(doc),
              "expected schema dlayout-model/1, got dlayout-model/2");
  doc.erase("schema");
  expectError(programFromJson(doc),
              "expected schema dlayout-model/1, got none");
  doc["schema"] = "dlayout-layout/1";
  expectError(programFromJson(doc), "got dlayout-layout/1");
  expectError(parseProgram("[1, 2]"), "expected schema dlayout-model/1");
  expectError(parseProgram("\"dlayout-model/1\""), "expected schema");
}

TEST(ProgramJson, RejectsWrongTypes) {
  json doc = richDoc();
  doc["arrays"][2]["dims"][0]["extent"] = "512";
  expectError(programFromJson(doc),
              "arrays[2].dims[0].extent: expected an integer, got a string");
  doc = richDoc();
  doc["arrays"][2]["dims"][0]["extent"] = 2.5;
  expectError(programFromJson(doc), "arrays[2].dims[0].extent: expected an "
                                    "integer, got 2.5");
  doc = richDoc();
  doc["loops"] = json::object();
  expectError(programFromJson(doc), "loops: expected an array, got an object");
  doc = richDoc();
  doc["statements"][0]["ops"]["loads"] = -1;
  expectError(programFromJson(doc),
              "statements[0].ops.loads: must not be negative");
  doc = richDoc();
  doc["statements"][0]["expr"] = {{"const", 1}, {"ref", 2}};
  expectError(programFromJson(doc),
              "statements[0].expr: an expression has only");
  doc = richDoc();
  doc["statements"][0]["expr"] = json::object();
  expectError(programFromJson(doc), "statements[0].expr: an expression needs");
}

TEST(ProgramJson, IntegralFloatsAreIntegers) {
  json doc = richDoc();
  doc["arrays"][2]["dims"][0]["extent"] = 512.0;
  auto p = programFromJson(doc);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->arrays[2].dims[0].extent, 512);
  doc["arrays"][2]["dims"][0]["extent"] = 1e300;
  expectError(programFromJson(doc), "arrays[2].dims[0].extent");
  doc["arrays"][2]["dims"][0]["extent"] = 18446744073709551615ull;
  expectError(programFromJson(doc), "arrays[2].dims[0].extent: integer out of");
}

TEST(ProgramJson, RejectsMissingRequiredFields) {
  const std::pair<json::json_pointer, std::string> cases[] = {
      {json::json_pointer("/arrays/1/dims/0/lower"),
       "arrays[1].dims[0].lower: required field is missing"},
      {json::json_pointer("/language"), "language: required field is missing"},
      {json::json_pointer("/statements"), "statements: required field"},
      {json::json_pointer("/loops/1/upper"), "loops[1].upper: required"},
      {json::json_pointer("/statements/0/refs/1/subscripts/0/class"),
       "statements[0].refs[1].subscripts[0].class: required"},
      {json::json_pointer("/dependences/0/kind"), "dependences[0].kind: req"},
      {json::json_pointer("/statements/2/guards/0/condition"),
       "statements[2].guards[0].condition: required"},
      {json::json_pointer("/statements/1/expr/args/1/args"),
       "statements[1].expr.args[1].args: required"},
  };
  for (const auto &[ptr, text] : cases) {
    json doc = richDoc();
    doc[ptr.parent_pointer()].erase(ptr.back());
    expectError(programFromJson(doc), text);
  }
}

TEST(ProgramJson, RejectsUnknownFields) {
  json doc = richDoc();
  doc["loops"][0]["stride"] = 1;
  expectError(programFromJson(doc), "loops[0].stride: unknown field");
  doc = richDoc();
  doc["comment"] = "x";
  expectError(programFromJson(doc), "comment: unknown field");
}

TEST(ProgramJson, RejectsAbsurdValuesWithTheirPath) {
  json doc = richDoc();
  doc["arrays"][2]["dims"][0]["extent"] = -4;
  expectError(programFromJson(doc),
              "arrays[2].dims[0].extent: must be positive");
  doc["arrays"][2]["dims"][0]["extent"] = 0;
  expectError(programFromJson(doc),
              "arrays[2].dims[0].extent: must be positive");
  doc = richDoc();
  doc["loops"][2]["step"] = 0;
  expectError(programFromJson(doc), "loops[2].step: must not be zero");
  doc = richDoc();
  doc["loops"][0]["lower"]["kind"] = "maximum";
  expectError(programFromJson(doc), "loops[0].lower.kind: unknown bound kind");
  doc = richDoc();
  doc["statements"][0]["refs"][0]["subscripts"][0]["class"] = "linear";
  expectError(programFromJson(doc),
              "statements[0].refs[0].subscripts[0].class: unknown subscript");
  doc = richDoc();
  doc["statements"][0]["refs"][0]["access"] = "modify";
  expectError(programFromJson(doc), "statements[0].refs[0].access");
  doc = richDoc();
  doc["language"] = "cobol";
  expectError(programFromJson(doc), "language: must be fortran, c, c++ or ir");
  doc = richDoc();
  doc["statements"][3]["write"] = -2;
  expectError(programFromJson(doc), "statements[3].write");
}

TEST(ProgramJson, RejectsBadText) {
  std::string text = dump(richDoc());
  expectError(parseProgram(text.substr(0, text.size() / 2)), "invalid JSON");
  expectError(parseProgram(""), "invalid JSON");
  expectError(parseProgram("{\"schema\": \"dlayout-model/1\",}"),
              "invalid JSON: parse error at line 1");
  // Every cut short of the closing brace is an error, never a crash.
  size_t end = text.rfind('}');
  int rejected = 0;
  for (size_t n = 0; n < end; n += 13) {
    auto r = parseProgram(text.substr(0, n));
    rejected += !r.ok();
  }
  EXPECT_EQ(rejected, int((end + 12) / 13));
}

TEST(ProgramJson, EveryWrongTypeIsAnErrorAtItsPath) {
  int tried = dlayout::testing::expectEveryWrongTypeRejected(richDoc(),
                                                             programFromJson);
  EXPECT_GT(tried, 300);
}

TEST(ProgramJson, DroppingAnyMemberNeverThrows) {
  int rejected = dlayout::testing::countRejectedWithoutEachMember(
      richDoc(), programFromJson);
  EXPECT_GT(rejected, 100);
}

// Evaluable expressions of unknown subscripts and non-affine bounds (the
// validator's): optional, written only when set, checked like a statement's.
TEST(ProgramJson, SubscriptAndBoundExpressions) {
  json doc = richDoc();
  const json &ub = doc["loops"][2]["upper"];
  EXPECT_EQ(ub["expr"]["op"], "+");
  EXPECT_EQ(ub["expr"]["args"][0]["ref"], 0);
  EXPECT_EQ(ub["expr_refs"][0]["array"], "COL");
  EXPECT_FALSE(doc["loops"][0]["upper"].contains("expr"));
  const json &k2 = doc["statements"][2]["refs"][0]["subscripts"][0];
  EXPECT_EQ(k2["expr"]["args"][1]["iv"], "L3");
  EXPECT_FALSE(k2.contains("expr_refs"));
  EXPECT_FALSE(doc["statements"][0]["refs"][0]["subscripts"][0].contains("expr"));

  // Older documents without them still read, as no expression.
  doc.erase("schema");
  doc["schema"] = "dlayout-model/1";
  doc["loops"][2]["upper"].erase("expr");
  doc["loops"][2]["upper"].erase("expr_refs");
  auto back = programFromJson(doc);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_FALSE(back->loops[2].upper.expr);
  EXPECT_TRUE(back->loops[2].upper.exprRefs.empty());

  doc = richDoc();
  doc["loops"][2]["upper"]["expr"]["args"][0]["ref"] = 1;
  expectError(programFromJson(doc), "loops[2].upper.expr.args[0].ref: not an index");
  doc = richDoc();
  doc["loops"][2]["upper"]["expr"] = {{"iv", "L3"}}; // its own iv: not outside it
  expectError(programFromJson(doc), "loops[2].upper.expr.iv: not a loop enclosing");
  doc = richDoc();
  doc["loops"][0]["upper"]["expr"] = {{"const", 3}};
  expectError(programFromJson(doc), "loops[0].upper.expr: only a nonaffine bound");
  doc = richDoc();
  doc["loops"][2]["upper"].erase("expr");
  expectError(programFromJson(doc), "loops[2].upper.expr_refs: references without");
  doc = richDoc();
  doc["statements"][0]["refs"][0]["subscripts"][0]["expr"] = {{"const", 1}};
  expectError(programFromJson(doc),
              "statements[0].refs[0].subscripts[0].expr: only an unknown subscript");
  doc = richDoc();
  doc["statements"][2]["refs"][0]["subscripts"][0]["expr"] = {{"iv", "L1"}};
  expectError(programFromJson(doc),
              "statements[2].refs[0].subscripts[0].expr.iv: not a loop enclosing");
  doc = richDoc();
  doc["statements"][2]["refs"][0]["subscripts"][0]["expr"] = {{"scalar", "NOPE"}};
  expectError(programFromJson(doc),
              "statements[2].refs[0].subscripts[0].expr.scalar: no scalar NOPE");
}
