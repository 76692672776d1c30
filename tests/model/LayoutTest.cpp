//===- tests/model/LayoutTest.cpp - Layout, verify, "dlayout-layout/1" ----===//

#include "Fixtures.h"
#include "JsonTestUtil.h"
#include "model/Json.h"
#include "model/LayoutJson.h"

#include <gtest/gtest.h>

using namespace dlayout;
using dlayout::testing::expectError;
using dlayout::testing::richLayout;
using dlayout::testing::richProgram;
using nlohmann::json;

namespace {

json richDoc() { return toJson(richLayout()); }

} // namespace

TEST(Layout, KindNamesRoundTrip) {
  for (auto k : {DistKind::Block, DistKind::Cyclic, DistKind::BlockCyclic,
                 DistKind::GeneralBlock, DistKind::Indirect,
                 DistKind::Replicated, DistKind::Collapsed})
    EXPECT_EQ(distKindFromString(toString(k)), k);
  EXPECT_STREQ(toString(DistKind::BlockCyclic), "block_cyclic");
  EXPECT_EQ(distKindFromString("BLOCK"), std::nullopt);
  EXPECT_EQ(richLayout().procs(), 8);
}

TEST(Layout, RichLayoutIsValidForTheRichProgram) {
  auto s = verify(richLayout(), richProgram());
  EXPECT_TRUE(s.ok()) << s.error().message;
}

TEST(LayoutJson, RoundTrips) {
  Layout l = richLayout();
  std::string text = dump(toJson(l));
  auto back = parseLayout(text);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, l);
  EXPECT_EQ(dump(toJson(*back)), text);
}

TEST(LayoutJson, WritesOnlyMeaningfulFields) {
  json doc = richDoc();
  EXPECT_EQ(doc["schema"], "dlayout-layout/1");
  EXPECT_EQ(doc["mesh"], json({4, 2}));
  json a0 = doc["arrays"]["A"]["dims"][0];
  EXPECT_EQ(a0, json({{"kind", "block_cyclic"},
                      {"mesh_dim", 0},
                      {"block", 4},
                      {"offset", 1},
                      {"overlap", {1, 2}}}));
  EXPECT_EQ(doc["arrays"]["A"]["dims"][1],
            json({{"kind", "cyclic"}, {"mesh_dim", 1}}));
  EXPECT_EQ(doc["arrays"]["COL"]["dims"][0], json({{"kind", "replicated"}}));
  EXPECT_EQ(doc["arrays"]["B"]["dims"][0]["begins"], json({1, 100, 300, 800}));
  EXPECT_EQ(doc["arrays"]["X"]["dims"][0]["map"].size(), 512u);
  EXPECT_EQ(doc["arrays"]["Z"]["dims"][0]["overlap"], json({0, 1}));
}

TEST(LayoutJson, ReadsTheDocumentedForm) {
  auto l = parseLayout(R"({ "schema": "dlayout-layout/1", "mesh": [16, 1],
    "arrays": { "A": { "dims": [ { "kind": "cyclic", "mesh_dim": 0 },
                                 { "kind": "collapsed" } ] },
                "R": { "dims": [ { "kind": "replicated", "mesh_dim": 1 } ] } } })");
  ASSERT_TRUE(l.ok()) << l.error().message;
  EXPECT_EQ(l->mesh, (std::vector<int64_t>{16, 1}));
  EXPECT_EQ(l->arrays.at("A").dims[0].kind, DistKind::Cyclic);
  EXPECT_EQ(l->arrays.at("A").dims[1].meshDim, -1);
  EXPECT_EQ(l->arrays.at("R").dims[0].meshDim, 1);
  EXPECT_EQ(l->procs(), 16);
}

TEST(LayoutJson, RejectsWrongOrMissingSchema) {
  json doc = richDoc();
  doc["schema"] = "dlayout-layout/7";
  expectError(layoutFromJson(doc),
              "expected schema dlayout-layout/1, got dlayout-layout/7");
  doc.erase("schema");
  expectError(layoutFromJson(doc),
              "expected schema dlayout-layout/1, got none");
}

TEST(LayoutJson, RejectsAbsurdValuesWithTheirPath) {
  struct Case {
    const char *pointer;
    json value;
    const char *message;
  };
  const Case cases[] = {
      {"/arrays/A/dims/0/block", 0, "arrays.A.dims[0].block: must be positive"},
      {"/arrays/A/dims/0/block", -3,
       "arrays.A.dims[0].block: must be positive"},
      {"/mesh/1", 0, "mesh[1]: must be at least 1"},
      {"/mesh", json::array(), "mesh: must have at least one dimension"},
      {"/arrays/A/dims/1/mesh_dim", 2,
       "arrays.A.dims[1].mesh_dim: 2 is not a dimension"},
      {"/arrays/A/dims/1/mesh_dim", 0,
       "arrays.A.dims[1].mesh_dim: another dimension of A"},
      {"/arrays/B/dims/0/begins/2", 50,
       "arrays.B.dims[0].begins[2]: must be greater than begins[1]"},
      {"/arrays/B/dims/0/begins/2", 100,
       "arrays.B.dims[0].begins[2]: must be greater than begins[1]"},
      {"/arrays/B/dims/0/begins",
       {1, 2},
       "arrays.B.dims[0].begins: has 2 entries for the 4 processors"},
      {"/arrays/X/dims/0/map/3", 2,
       "arrays.X.dims[0].map[3]: processor 2 is "
       "outside mesh dimension 1"},
      {"/arrays/X/dims/0/map/4", -1, "arrays.X.dims[0].map[4]"},
      {"/arrays/X/dims/0/map", json::array(), "arrays.X.dims[0].map: must not"},
      {"/arrays/Z/dims/0/overlap",
       {-1, 0},
       "arrays.Z.dims[0].overlap: must "
       "not be negative"},
      {"/arrays/Z/dims/0/overlap",
       {1, 2, 3},
       "arrays.Z.dims[0].overlap: must "
       "be [left, right]"},
      {"/arrays/Z/dims/0/kind", "blocky",
       "arrays.Z.dims[0].kind: unknown "
       "distribution kind blocky"},
      {"/arrays/Z/dims/0/block", 4,
       "arrays.Z.dims[0].block: not a field of a "
       "block dimension"},
      {"/arrays/COL/dims/0/offset", 2,
       "arrays.COL.dims[0].offset: only a "
       "distributed dimension"},
      {"/arrays/COL/dims/0/mesh_dim", 5, "arrays.COL.dims[0].mesh_dim"},
      {"/arrays/Z/dims", json::array(), "arrays.Z.dims: must not be empty"},
      {"/arrays/Z/extra", 1, "arrays.Z.extra: unknown field"},
  };
  for (const auto &c : cases) {
    json doc = richDoc();
    doc[json::json_pointer(c.pointer)] = c.value;
    expectError(layoutFromJson(doc), c.message);
  }
}

TEST(LayoutJson, RejectsMissingRequiredFields) {
  const std::pair<const char *, const char *> cases[] = {
      {"/arrays/A/dims/0/block", "arrays.A.dims[0].block: required field"},
      {"/arrays/A/dims/1/mesh_dim", "arrays.A.dims[1].mesh_dim: required"},
      {"/arrays/B/dims/0/begins", "arrays.B.dims[0].begins: required"},
      {"/arrays/X/dims/0/map", "arrays.X.dims[0].map: required"},
      {"/arrays/Z/dims/0/kind", "arrays.Z.dims[0].kind: required"},
      {"/mesh", "mesh: required"},
      {"/arrays", "arrays: required"},
  };
  for (const auto &[pointer, message] : cases) {
    json doc = richDoc();
    json::json_pointer ptr(pointer);
    doc[ptr.parent_pointer()].erase(ptr.back());
    expectError(layoutFromJson(doc), message);
  }
}

TEST(LayoutJson, RejectsBadText) {
  std::string text = dump(richDoc());
  expectError(parseLayout(text.substr(0, text.size() - 3)), "invalid JSON");
  expectError(parseLayout("{ \"schema\": "), "invalid JSON");
}

TEST(LayoutJson, EveryWrongTypeIsAnErrorAtItsPath) {
  // A small layout: the rich one's 512-entry map would only add time.
  Layout l = richLayout();
  l.arrays["X"].dims[0].map.resize(6);
  EXPECT_GT(
      dlayout::testing::expectEveryWrongTypeRejected(toJson(l), layoutFromJson),
      40);
  EXPECT_GT(dlayout::testing::countRejectedWithoutEachMember(toJson(l),
                                                             layoutFromJson),
            10);
}

TEST(LayoutVerify, ChecksAgainstTheProgram) {
  Program p = richProgram();
  Layout l = richLayout();
  l.arrays["Q"].dims = {DimLayout{}};
  expectError(verify(l, p), "arrays.Q: the program has no array Q");
  l = richLayout();
  l.arrays["Z"].dims.push_back(DimLayout{});
  expectError(verify(l, p), "arrays.Z.dims: 2 dimensions, but Z has 1");
  l = richLayout();
  l.arrays["X"].dims[0].map.pop_back();
  expectError(verify(l, p), "arrays.X.dims[0].map: 511 entries for an extent "
                            "of 512");
  l = richLayout();
  l.mesh[0] = 0; // verify(l) comes first
  expectError(verify(l, p), "mesh[0]");
}

TEST(LayoutVerify, RejectsFieldsOfAnotherKind) {
  Layout l = richLayout();
  l.arrays["A"].dims[1].block = 2; // cyclic
  expectError(verify(l), "arrays.A.dims[1].block: only block_cyclic");
  l = richLayout();
  l.arrays["Z"].dims[0].begins = {1};
  expectError(verify(l), "arrays.Z.dims[0].begins: only general_block");
  l = richLayout();
  l.arrays["Z"].dims[0].map = {0};
  expectError(verify(l), "arrays.Z.dims[0].map: only indirect");
  l = richLayout();
  l.arrays["COL"].dims[0].overlapLeft = 1;
  expectError(verify(l), "arrays.COL.dims[0].overlap");
  l = richLayout();
  l.arrays["COL"].dims[0].kind = DistKind::Collapsed;
  l.arrays["COL"].dims[0].meshDim = 0;
  expectError(verify(l), "arrays.COL.dims[0].mesh_dim: a collapsed dimension");
}
