//===- model/MachineJson.cpp - The "dlayout-machine/1" document -----------===//
//
// Writer, then reader. The reader checks types and names as it goes
// (jsonio::Node), then the whole machine with verify().
//
//===----------------------------------------------------------------------===//

#include "model/MachineJson.h"
#include "model/Json.h"

namespace dlayout {

using Json = nlohmann::json;
using jsonio::Node;

namespace {

MessageCostPiece readPiece(const Node &n) {
  n.allowOnly({"below_bytes", "startup", "per_byte"});
  return {n.get("below_bytes").number(), n.get("startup").number(),
          n.get("per_byte").number()};
}

Machine readMachine(const Node &doc) {
  jsonio::expectSchema(doc, kMachineSchema);
  doc.allowOnly({"schema", "name", "description", "ops", "message",
                 "collectives", "topology", "gray_code", "per_hop", "flops",
                 "sources"});
  Machine m;
  m.name = doc.get("name").str();
  m.description = doc.str("description", "");

  Node ops = doc.get("ops");
  ops.allowOnly({"load", "store", "add", "mul", "div", "intrinsic", "compare"});
  m.load = ops.get("load").number();
  m.store = ops.get("store").number();
  m.add = ops.get("add").number();
  m.mul = ops.get("mul").number();
  m.div = ops.get("div").number();
  m.intrinsic = ops.number("intrinsic", 0);
  m.compare = ops.number("compare", 0);

  for (const Node &piece : doc.get("message").elements())
    m.message.push_back(readPiece(piece));

  if (auto collectives = doc.find("collectives"))
    for (const auto &[primitive, algorithm] : collectives->members()) {
      auto a = collectiveAlgorithmFromString(algorithm.str());
      if (!a)
        algorithm.fail("unknown algorithm " + algorithm.str() +
                       " (tree, ring, linear, exchange)");
      m.collectives[primitive] = *a;
    }
  if (auto topology = doc.find("topology")) {
    auto t = topologyFromString(topology->str());
    if (!t)
      topology->fail("unknown topology " + topology->str() +
                     " (hypercube, mesh, torus, fully_connected)");
    m.topology = *t;
  }
  m.grayCodeEmbedding = doc.boolean("gray_code", false);
  m.perHop = doc.number("per_hop", 0);
  m.flops = doc.number("flops", 0);
  if (auto sources = doc.find("sources"))
    for (const Node &s : sources->elements())
      m.sources.push_back(s.str());
  if (auto ok = verify(m); !ok)
    throw jsonio::ReadError{ok.error().message};
  return m;
}

} // namespace

nlohmann::json toJson(const Machine &m) {
  Json message = Json::array();
  for (const auto &p : m.message)
    message.push_back({{"below_bytes", p.belowBytes},
                       {"startup", p.startup},
                       {"per_byte", p.perByte}});
  Json collectives = Json::object();
  for (const auto &[primitive, algorithm] : m.collectives)
    collectives[primitive] = toString(algorithm);
  return {{"schema", kMachineSchema},
          {"name", m.name},
          {"description", m.description},
          {"ops",
           {{"load", m.load},
            {"store", m.store},
            {"add", m.add},
            {"mul", m.mul},
            {"div", m.div},
            {"intrinsic", m.intrinsic},
            {"compare", m.compare}}},
          {"message", message},
          {"collectives", collectives},
          {"topology", toString(m.topology)},
          {"gray_code", m.grayCodeEmbedding},
          {"per_hop", m.perHop},
          {"flops", m.flops},
          {"sources", m.sources}};
}

Result<Machine> machineFromJson(const nlohmann::json &doc) {
  return jsonio::read([&] { return readMachine(Node(doc)); });
}

Result<Machine> parseMachine(std::string_view text) {
  auto doc = jsonio::parse(text);
  if (!doc)
    return doc.error();
  return machineFromJson(*doc);
}

} // namespace dlayout
