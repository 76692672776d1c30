//===- tests/model/JsonTest.cpp - dump, readFile, jsonio::Node ------------===//

#include "model/Json.h"
#include "JsonTestUtil.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace dlayout;
using dlayout::testing::expectError;
using nlohmann::json;

namespace {

/// A fresh directory under the system's temporary directory.
std::filesystem::path scratch(const std::string &name) {
  auto dir = std::filesystem::temp_directory_path() /
             ("dlayout-model-tests-" + std::to_string(::getpid())) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

} // namespace

TEST(Json, DumpIndentsTwoSpacesAndEndsWithANewline) {
  json doc = {{"b", {1, 2}}, {"a", "x"}};
  EXPECT_EQ(dump(doc),
            "{\n  \"a\": \"x\",\n  \"b\": [\n    1,\n    2\n  ]\n}\n");
  // Invalid UTF-8 is replaced, not thrown.
  std::string text;
  EXPECT_NO_THROW(text = dump(json(std::string("a\xff"
                                               "b"))));
  EXPECT_EQ(text.back(), '\n');
}

TEST(Json, DumpKeepsDoublesExact) {
  for (double d : {0.1, 351.2e-6, 2.9941, 1e-300, -63.5}) {
    auto back = json::parse(dump(json(d)));
    EXPECT_EQ(back.get<double>(), d);
  }
}

TEST(Json, ReadFileReadsAndReportsClearErrors) {
  auto dir = scratch("read");
  std::ofstream(dir / "doc.json") << "{\"a\": 1}\n";
  auto text = readFile((dir / "doc.json").string());
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(*text, "{\"a\": 1}\n");

  std::ofstream(dir / "empty.json").flush();
  auto empty = readFile((dir / "empty.json").string());
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, "");

  std::string missing = (dir / "missing.json").string();
  expectError(readFile(missing), "cannot read '" + missing + "': no such file");
  expectError(readFile(dir.string()), "is a directory");
  expectError(readFile(""), "no such file");
  std::filesystem::remove_all(dir.parent_path());
}

TEST(Json, ParseReportsWhereTheTextIsBroken) {
  expectError(jsonio::parse("{\n  \"a\": [1,\n"),
              "invalid JSON: parse error at "
              "line 3");
  auto ok = jsonio::parse("[1, 2]");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->size(), 2u);
  // The bracketed exception id is not part of the message.
  auto bad = jsonio::parse("nul");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message.find("[json.exception"), std::string::npos);
}

TEST(Json, NodeNamesPathsAndChecksTypes) {
  json doc = json::parse(R"({"a": [{"b": 1.5, "c": "x", "d": null}],
                              "n": -3, "u": 3, "f": 2.0, "t": true})");
  using dlayout::jsonio::Node;
  auto read = [&](auto f) { return dlayout::jsonio::read(f); };
  Node root(doc);
  auto b = read([&] { return root.get("a").elements()[0].get("b").number(); });
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, 1.5);
  expectError(
      read([&] { return root.get("a").elements()[0].get("b").integer(); }),
      "a[0].b: expected an integer, got 1.5");
  expectError(read([&] { return root.get("a").elements()[0].get("z").str(); }),
              "a[0].z: required field is missing");
  expectError(read([&] { return root.get("n").count(); }),
              "n: must not be negative");
  expectError(read([&] { return root.get("t").str(); }),
              "t: expected a string, got a boolean");
  expectError(read([&] { return root.get("n").get("x").str(); }),
              "n: expected an object, got an integer");
  expectError(read([&] { return root.elements().size(); }),
              "document: expected an array, got an object");
  expectError(read([&] {
                root.allowOnly({"a", "n", "u", "f"});
                return 0;
              }),
              "t: unknown field");
  EXPECT_EQ(*read([&] { return root.get("f").integer(); }), 2);
  EXPECT_EQ(*read([&] { return root.get("u").count(); }), 3u);
  EXPECT_EQ(*read([&] { return root.integer("missing", 9); }), 9);
  // null is "none" only for nullable members; elsewhere it is a wrong type.
  auto d = read([&] { return root.get("a").elements()[0].optStr("d"); });
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(*d, std::nullopt);
  expectError(read([&] { return root.get("a").elements()[0].str("d", "x"); }),
              "a[0].d: expected a string, got null");
  // nlohmann's own exceptions are caught too.
  expectError(read([&] { return doc.at("nope").get<int>(); }),
              "malformed document");
}
