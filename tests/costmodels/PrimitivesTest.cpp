//===- tests/costmodels/PrimitivesTest.cpp - Table 6.1 and the presets ----===//
//
// Expected values come from the thesis's formulas (section 6.1.2, Table 6.1)
// evaluated here, not from the code.
//
//===----------------------------------------------------------------------===//

#include "costmodels/Primitives.h"
#include "costmodels/MachinePresets.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

namespace dlayout {
namespace {

// Section 6.1.2, in seconds: Transfer(m bytes) = 350 + 0.15 m us (m < 100),
// 700 + 0.36 m us otherwise.
double thesisTransfer(double m) {
  return (m < 100 ? 350 + 0.15 * m : 700 + 0.36 * m) * 1e-6;
}

Machine ipsc2() {
  auto m = machinePreset("ipsc2");
  EXPECT_TRUE(m.ok()) << (m ? "" : m.error().message);
  return *m;
}

TEST(Primitives, TransferIsThePiecewiseFunctionOfSection612) {
  Machine m = ipsc2();
  PrimitiveCosts c(m);
  EXPECT_NEAR(c.transfer(8), 351.2e-6, 1e-12); // one double
  EXPECT_NEAR(c.transfer(99), thesisTransfer(99), 1e-12);
  EXPECT_NEAR(c.transfer(100), 736e-6, 1e-12); // the jump at 100 bytes
  EXPECT_NEAR(c.transfer(8192), thesisTransfer(8192), 1e-12);
  EXPECT_EQ(c.transfer(0), 0); // no data, no message
}

TEST(Primitives, CollectivesFollowTable61) {
  Machine m = ipsc2();
  PrimitiveCosts c(m);
  for (double bytes : {8.0, 512.0}) {
    double T = thesisTransfer(bytes);
    EXPECT_NEAR(c.shift(bytes), 2 * T, 1e-12);
    EXPECT_NEAR(c.reduction(bytes, 16), 4 * T, 1e-12); // ceil(log2 16)
    EXPECT_NEAR(c.oneToManyMulticast(bytes, 16), 4 * T, 1e-12);
    EXPECT_NEAR(c.manyToManyMulticast(bytes, 16), 15 * 2 * T, 1e-12);
    EXPECT_NEAR(c.scatter(bytes, 16), 15 * T, 1e-12);
    EXPECT_NEAR(c.gather(bytes, 16), 15 * T, 1e-12);
    // D-Scatter / D-Gather: the source is outside the group (Table 4.2).
    EXPECT_NEAR(c.dScatter(bytes, 2), T + T, 1e-12);
    EXPECT_NEAR(c.dGather(bytes, 4), T + 3 * T, 1e-12);
  }
}

TEST(Primitives, AnyGroupSizeNotOnlyPowersOfTwo) {
  Machine m = ipsc2();
  PrimitiveCosts c(m);
  double T = thesisTransfer(8);
  EXPECT_NEAR(c.oneToManyMulticast(8, 5), 3 * T, 1e-12); // ceil(log2 5) = 3
  EXPECT_NEAR(c.reduction(8, 12), 4 * T, 1e-12);         // ceil(log2 12) = 4
  EXPECT_NEAR(c.scatter(8, 7), 6 * T, 1e-12);
  EXPECT_NEAR(c.manyToManyMulticast(8, 3), 2 * 2 * T, 1e-12);
  // A group of one processor communicates nothing.
  EXPECT_EQ(c.reduction(8, 1), 0);
  EXPECT_EQ(c.gather(8, 1), 0);
  EXPECT_EQ(c.manyToManyMulticast(8, 1), 0);
  EXPECT_EQ(ceilLog2(1), 0);
  EXPECT_EQ(ceilLog2(2), 1);
  EXPECT_EQ(ceilLog2(1000), 10);
}

TEST(Primitives, MachineChoosesTheAlgorithm) {
  Machine m = ipsc2();
  m.collectives["gather"] = CollectiveAlgorithm::Tree;
  m.collectives["many_to_many_multicast"] = CollectiveAlgorithm::Linear;
  PrimitiveCosts c(m);
  double T = thesisTransfer(8);
  EXPECT_NEAR(c.gather(8, 16), 4 * T, 1e-12);
  EXPECT_NEAR(c.manyToManyMulticast(8, 16), 15 * T, 1e-12);
}

TEST(Primitives, TopologyHopsAreOffUnlessAsked) {
  auto cl = machinePreset("cluster");
  ASSERT_TRUE(cl.ok());
  ASSERT_GT(cl->perHop, 0);
  PrimitiveCosts plain(*cl), hops(*cl, true);
  EXPECT_NEAR(plain.transfer(1000), cl->transfer(1000), 1e-15);
  // Fully connected: one hop per message.
  EXPECT_NEAR(hops.transfer(1000) - plain.transfer(1000), cl->perHop, 1e-15);
  // A tree of 8 has 3 steps, each one hop further.
  EXPECT_NEAR(hops.oneToManyMulticast(1000, 8) -
                  plain.oneToManyMulticast(1000, 8),
              3 * cl->perHop, 1e-15);
  // The iPSC/2 preset has no hop cost: the extension changes nothing there.
  Machine ip = ipsc2();
  PrimitiveCosts a(ip), b(ip, true);
  EXPECT_EQ(a.transfer(800), b.transfer(800));
  // A hypercube without Gray code: neighbours are about 2 hops apart.
  Machine cube = ip;
  cube.perHop = 1e-6;
  cube.grayCodeEmbedding = false;
  PrimitiveCosts g(cube, true);
  EXPECT_NEAR(g.shift(8) - a.shift(8), 2 * 2 * 1e-6, 1e-15);
  cube.grayCodeEmbedding = true;
  PrimitiveCosts h(cube, true);
  EXPECT_NEAR(h.shift(8) - a.shift(8), 2 * 1 * 1e-6, 1e-15);
}

TEST(MachinePresets, Ipsc2IsSection612Exactly) {
  Machine m = ipsc2();
  EXPECT_EQ(m.name, "ipsc2");
  EXPECT_DOUBLE_EQ(m.add, 5e-6);
  EXPECT_DOUBLE_EQ(m.mul, 5e-6);
  EXPECT_DOUBLE_EQ(m.div, 15e-6); // three times an add
  EXPECT_DOUBLE_EQ(m.load, 0.5e-6);
  EXPECT_DOUBLE_EQ(m.store, 0.5e-6);
  EXPECT_EQ(m.compare, 0); // control overhead ignored
  ASSERT_EQ(m.message.size(), 2u);
  EXPECT_DOUBLE_EQ(m.message[0].belowBytes, 100);
  EXPECT_DOUBLE_EQ(m.message[0].startup, 350e-6);
  EXPECT_DOUBLE_EQ(m.message[0].perByte, 0.15e-6);
  EXPECT_DOUBLE_EQ(m.message[1].startup, 700e-6);
  EXPECT_DOUBLE_EQ(m.message[1].perByte, 0.36e-6);
  EXPECT_EQ(m.topology, Topology::Hypercube);
  EXPECT_EQ(m.perHop, 0);
  EXPECT_EQ(m.collectives.at("many_to_many_multicast"),
            CollectiveAlgorithm::Ring);
  EXPECT_EQ(m.collectives.at("shift"), CollectiveAlgorithm::Exchange);
  EXPECT_FALSE(m.sources.empty());
}

TEST(MachinePresets, EveryPresetLoadsAndCitesSources) {
  auto names = machinePresetNames();
  ASSERT_EQ(names, (std::vector<std::string>{"ipsc2", "ncube7", "cluster"}));
  for (const auto &n : names) {
    auto m = machinePreset(n);
    ASSERT_TRUE(m.ok()) << n << ": " << m.error().message;
    EXPECT_EQ(m->name, n);
    EXPECT_GE(m->sources.size(), 2u) << n;
    EXPECT_GT(m->transfer(1024), m->transfer(8)) << n;
  }
  // Case-insensitive, and the NCUBE/7 node is 4x slower than the iPSC/2's.
  auto nc = machinePreset("NCUBE7");
  ASSERT_TRUE(nc.ok());
  EXPECT_DOUBLE_EQ(nc->add, 4 * ipsc2().add);
}

TEST(MachinePresets, UnknownNameAndFiles) {
  auto bad = machinePreset("cray1");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("ipsc2"), std::string::npos);
  auto none = loadMachine("/no/such/machine.json");
  ASSERT_FALSE(none.ok());
  auto file = loadMachine(std::string(DLAYOUT_MACHINES_DIR) + "/ncube7.json");
  ASSERT_TRUE(file.ok()) << file.error().message;
  EXPECT_EQ(*file, *machinePreset("ncube7")); // the embedded copy is the file
  auto byName = loadMachine("ipsc2");
  ASSERT_TRUE(byName.ok());
  EXPECT_EQ(byName->name, "ipsc2");
}

} // namespace
} // namespace dlayout
