//===- tests/model/DataFilesTest.cpp - The checked-in example documents ---===//
//
// data/*.json are hand-written documents of each kind: the C++ readers
// accept them (and they survive a round trip); data/bad/*.json are broken
// ones, which the readers reject, as the schemas do (schema_rejects_broken).
//
//===----------------------------------------------------------------------===//

#include "JsonTestUtil.h"
#include "model/Json.h"
#include "model/LayoutJson.h"
#include "model/MachineJson.h"
#include "model/ProgramJson.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace dlayout;
using dlayout::testing::expectError;

namespace {

std::string data(const std::string &name) {
  return std::string(DLAYOUT_MODEL_TEST_DATA) + "/" + name;
}

std::string text(const std::string &name) {
  auto t = readFile(data(name));
  EXPECT_TRUE(t.ok()) << t.error().message;
  return t.ok() ? *t : "";
}

/// Reads a document with the reader its file name names.
std::string readAs(const std::string &path) {
  auto t = readFile(path);
  if (!t)
    return t.error().message;
  auto name = std::filesystem::path(path).filename().string();
  auto message = [](const auto &r) { return r ? "" : r.error().message; };
  if (name.find("layout") != std::string::npos)
    return message(parseLayout(*t));
  if (name.find("machine") != std::string::npos)
    return message(parseMachine(*t));
  return message(parseProgram(*t));
}

} // namespace

TEST(DataFiles, TheJacobiModelReadsAsWritten) {
  auto p = parseProgram(text("jacobi-model.json"));
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->params.at("N"), 64);
  ASSERT_EQ(p->statements.size(), 1u);
  const Statement &s = p->statements[0];
  EXPECT_EQ(s.refs.size(), 5u);
  EXPECT_EQ(s.ops.fadd, 3u);
  EXPECT_EQ(s.expr.args[1].args.size(), 4u);
  EXPECT_EQ(render(p->loops[0].upper.terms[0], *p), "N - 1");
  EXPECT_EQ(*evaluate(p->loops[0].upper.terms[0], p->params), 63);
  auto back = programFromJson(toJson(*p));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, *p);
}

TEST(DataFiles, TheJacobiLayoutFitsTheModel) {
  auto l = parseLayout(text("jacobi-layout.json"));
  ASSERT_TRUE(l.ok()) << l.error().message;
  auto p = parseProgram(text("jacobi-model.json"));
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(verify(*l, *p).ok());
  EXPECT_EQ(l->procs(), 16);
  EXPECT_EQ(l->arrays.at("A").dims[1].overlapRight, 1);
}

TEST(DataFiles, TheIpsc2MachineIsTheThesisOne) {
  auto m = parseMachine(text("ipsc2-machine.json"));
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_NEAR(m->transfer(8), 351.2e-6, 1e-12);
  EXPECT_NEAR(m->transfer(800), 700e-6 + 0.36e-6 * 800, 1e-12);
  EXPECT_EQ(m->collectives.at("scatter"), CollectiveAlgorithm::Linear);
}

TEST(DataFiles, EveryBrokenDocumentIsRejected) {
  int seen = 0;
  for (const auto &entry : std::filesystem::directory_iterator(data("bad"))) {
    if (entry.path().extension() != ".json")
      continue;
    ++seen;
    EXPECT_NE(readAs(entry.path().string()), "") << entry.path();
  }
  EXPECT_GE(seen, 10);
}

TEST(DataFiles, ReadersNameTheBrokenPart) {
  expectError(parseProgram(text("bad/model-wrong-version.json")),
              "expected schema dlayout-model/1, got dlayout-model/2");
  expectError(parseProgram(text("bad/model-missing-extent.json")),
              "arrays[1].dims[0].extent: required field is missing");
  expectError(parseProgram(text("bad/model-step-zero.json")),
              "loops[1].step: must not be zero");
  expectError(parseProgram(text("bad/model-two-kinds-of-expr.json")),
              "statements[0].expr.args[0]: an expression has only one");
  expectError(parseLayout(text("bad/layout-block-cyclic-without-block.json")),
              "arrays.A.dims[0].block: required field is missing");
  expectError(parseMachine(text("bad/machine-negative-startup.json")),
              "message[0].startup: must not be negative");
}
