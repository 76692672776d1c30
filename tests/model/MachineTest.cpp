//===- tests/model/MachineTest.cpp - Transfer(m), "dlayout-machine/1" -----===//

#include "Fixtures.h"
#include "JsonTestUtil.h"
#include "model/Json.h"
#include "model/MachineJson.h"

#include <gtest/gtest.h>

using namespace dlayout;
using dlayout::testing::expectError;
using dlayout::testing::ipsc2;
using nlohmann::json;

TEST(Machine, TransferIsPiecewiseLikeTheIpsc2) {
  Machine m = ipsc2();
  // Thesis section 6.1: 350 + 0.15 m us below 100 bytes, 700 + 0.36 m above.
  EXPECT_NEAR(m.transfer(8), 351.2e-6, 1e-12);
  EXPECT_NEAR(m.transfer(0), 350e-6, 1e-12);
  EXPECT_NEAR(m.transfer(99), 350e-6 + 0.15e-6 * 99, 1e-12);
  EXPECT_NEAR(m.transfer(100), 736e-6, 1e-12); // the discontinuity
  EXPECT_NEAR(m.transfer(800), 700e-6 + 0.36e-6 * 800, 1e-12);
  EXPECT_NEAR(m.transfer(1e6), 700e-6 + 0.36, 1e-9);
}

TEST(Machine, TransferTakesTheFirstPieceThatCoversTheSize) {
  Machine m;
  m.message = {{10, 1, 0}, {1000, 2, 0}, {0, 3, 0}};
  EXPECT_EQ(m.transfer(9.5), 1);
  EXPECT_EQ(m.transfer(10), 2);
  EXPECT_EQ(m.transfer(999), 2);
  EXPECT_EQ(m.transfer(1000), 3);
  m.message = {{0, 5e-6, 1e-9}}; // one piece covers everything
  EXPECT_DOUBLE_EQ(m.transfer(1000), 5e-6 + 1e-6);
  EXPECT_EQ(Machine{}.transfer(100), 0);
}

TEST(Machine, EnumNamesRoundTrip) {
  for (auto a : {CollectiveAlgorithm::Tree, CollectiveAlgorithm::Ring,
                 CollectiveAlgorithm::Linear, CollectiveAlgorithm::Exchange})
    EXPECT_EQ(collectiveAlgorithmFromString(toString(a)), a);
  for (auto t : {Topology::Hypercube, Topology::Mesh, Topology::Torus,
                 Topology::FullyConnected})
    EXPECT_EQ(topologyFromString(toString(t)), t);
  EXPECT_STREQ(toString(Topology::FullyConnected), "fully_connected");
  EXPECT_EQ(topologyFromString("ring"), std::nullopt);
  EXPECT_EQ(collectiveAlgorithmFromString("butterfly"), std::nullopt);
}

TEST(MachineJson, RoundTripsEveryTopologyAndAlgorithm) {
  for (auto t : {Topology::Hypercube, Topology::Mesh, Topology::Torus,
                 Topology::FullyConnected}) {
    Machine m = ipsc2();
    m.topology = t;
    std::string text = dump(toJson(m));
    auto back = parseMachine(text);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(*back, m);
    EXPECT_EQ(dump(toJson(*back)), text);
  }
  json doc = toJson(ipsc2());
  EXPECT_EQ(doc["message"][0]["below_bytes"], 100.0);
  EXPECT_EQ(doc["collectives"]["shift"], "exchange");
  EXPECT_EQ(doc["collectives"]["many_to_many_multicast"], "ring");
  EXPECT_EQ(doc["topology"], "hypercube");
  EXPECT_EQ(doc["gray_code"], true);
}

TEST(MachineJson, DefaultsOptionalFields) {
  auto m = parseMachine(R"({"schema": "dlayout-machine/1", "name": "tiny",
      "ops": {"load": 1e-9, "store": 1e-9, "add": 1e-9, "mul": 1e-9, "div": 4e-9},
      "message": [{"below_bytes": 0, "startup": 1e-6, "per_byte": 1e-9}]})");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->topology, Topology::FullyConnected);
  EXPECT_FALSE(m->grayCodeEmbedding);
  EXPECT_TRUE(m->collectives.empty());
  EXPECT_EQ(m->intrinsic, 0);
  EXPECT_DOUBLE_EQ(m->transfer(1000), 2e-6);
}

TEST(MachineJson, RejectsAbsurdValuesWithTheirPath) {
  struct Case {
    const char *pointer;
    json value;
    const char *message;
  };
  const Case cases[] = {
      {"/message/0/startup", -350e-6,
       "message[0].startup: must not be negative"},
      {"/message/1/per_byte", -1, "message[1].per_byte: must not be negative"},
      {"/message/1/below_bytes", 5000,
       "message[1].below_bytes: the last piece"},
      {"/message/0/below_bytes", 0, "message[0].below_bytes: only the last"},
      {"/message", json::array(), "message: must have at least one piece"},
      {"/ops/div", -15e-6, "ops.div: must be a number >= 0"},
      {"/flops", -1, "flops"},
      {"/topology", "ring", "topology: unknown topology ring"},
      {"/collectives/shift", "butterfly",
       "collectives.shift: unknown algorithm"},
      {"/collectives/broadcast", "tree",
       "collectives.broadcast: unknown "
       "primitive"},
      {"/ops/fma", 1e-6, "ops.fma: unknown field"},
      {"/gray_code", 1, "gray_code: expected a boolean, got an integer"},
      {"/name", nullptr, "name: expected a string, got null"},
  };
  for (const auto &c : cases) {
    json doc = toJson(ipsc2());
    doc[json::json_pointer(c.pointer)] = c.value;
    expectError(machineFromJson(doc), c.message);
  }
  json doc = toJson(ipsc2());
  doc["message"].insert(doc["message"].begin() + 1,
                        json::parse(R"({"below_bytes": 50, "startup": 0,
                                        "per_byte": 0})"));
  expectError(machineFromJson(doc), "message[1].below_bytes: must be greater");
}

TEST(MachineJson, RejectsMissingRequiredFieldsAndWrongSchema) {
  json doc = toJson(ipsc2());
  doc["ops"].erase("div");
  expectError(machineFromJson(doc), "ops.div: required field is missing");
  doc = toJson(ipsc2());
  doc["message"][0].erase("startup");
  expectError(machineFromJson(doc), "message[0].startup: required");
  doc = toJson(ipsc2());
  doc["schema"] = "dlayout-model/1";
  expectError(machineFromJson(doc),
              "expected schema dlayout-machine/1, got dlayout-model/1");
  expectError(parseMachine("{\"schema\": \"dlayout-machine/1\", \"name\""),
              "invalid JSON");
}

TEST(MachineJson, EveryWrongTypeIsAnErrorAtItsPath) {
  json doc = toJson(ipsc2());
  EXPECT_GT(
      dlayout::testing::expectEveryWrongTypeRejected(doc, machineFromJson), 40);
  // Required: schema, name, ops, its load store add mul div, message and
  // the 3 fields of each of its 2 pieces.
  EXPECT_EQ(
      dlayout::testing::countRejectedWithoutEachMember(doc, machineFromJson),
      15);
}
