//===- model/Machine.cpp - A machine model --------------------------------===//
//
// Transfer(m), names of the enums, and verify().
//
//===----------------------------------------------------------------------===//

#include "model/Machine.h"

#include <cmath>

namespace dlayout {

double Machine::transfer(double bytes) const {
  // The first piece that covers m: m below its bound, or no bound (0).
  for (const auto &piece : message)
    if (piece.belowBytes == 0 || bytes < piece.belowBytes)
      return piece.startup + piece.perByte * bytes;
  if (message.empty())
    return 0;
  const auto &last = message.back(); // ill-formed (no open piece): extrapolate
  return last.startup + last.perByte * bytes;
}

bool Machine::halfDuplex() const {
  auto it = collectives.find("shift");
  return it == collectives.end() || it->second == CollectiveAlgorithm::Exchange;
}

const char *toString(CollectiveAlgorithm a) {
  switch (a) {
  case CollectiveAlgorithm::Tree:
    return "tree";
  case CollectiveAlgorithm::Ring:
    return "ring";
  case CollectiveAlgorithm::Linear:
    return "linear";
  case CollectiveAlgorithm::Exchange:
    return "exchange";
  }
  return "tree";
}

std::optional<CollectiveAlgorithm>
collectiveAlgorithmFromString(const std::string &s) {
  for (auto a : {CollectiveAlgorithm::Tree, CollectiveAlgorithm::Ring,
                 CollectiveAlgorithm::Linear, CollectiveAlgorithm::Exchange})
    if (s == toString(a))
      return a;
  return std::nullopt;
}

const char *toString(Topology t) {
  switch (t) {
  case Topology::Hypercube:
    return "hypercube";
  case Topology::Mesh:
    return "mesh";
  case Topology::Torus:
    return "torus";
  case Topology::FullyConnected:
    return "fully_connected";
  }
  return "fully_connected";
}

std::optional<Topology> topologyFromString(const std::string &s) {
  for (auto t : {Topology::Hypercube, Topology::Mesh, Topology::Torus,
                 Topology::FullyConnected})
    if (s == toString(t))
      return t;
  return std::nullopt;
}

const std::vector<std::string> &collectivePrimitives() {
  static const std::vector<std::string> names = {
      "shift",   "reduction", "one_to_many_multicast", "many_to_many_multicast",
      "scatter", "gather"};
  return names;
}

Status verify(const Machine &m) {
  // A cost beyond a million seconds (or a rate beyond 1e30) is no machine:
  // such numbers only make every estimate infinite.
  auto bad = [](double v) { return !std::isfinite(v) || v < 0 || v > 1e6; };
  const std::pair<const char *, double> times[] = {
      {"ops.load", m.load},       {"ops.store", m.store},
      {"ops.add", m.add},         {"ops.mul", m.mul},
      {"ops.div", m.div},         {"ops.intrinsic", m.intrinsic},
      {"ops.compare", m.compare}, {"per_hop", m.perHop}};
  for (const auto &[path, value] : times)
    if (bad(value))
      return makeError(std::string(path) + (value > 1e6 ? ": must be at most 1e6 seconds"
                                                         : ": must be a number >= 0"));
  if (!std::isfinite(m.flops) || m.flops < 0 || m.flops > 1e30)
    return makeError("flops: must be a number from 0 to 1e30");

  if (m.message.empty())
    return makeError("message: must have at least one piece");
  for (size_t i = 0; i < m.message.size(); ++i) {
    const auto &piece = m.message[i];
    std::string path = "message[" + std::to_string(i) + "]";
    if (bad(piece.startup))
      return makeError(path + ".startup: must not be negative" +
                       (piece.startup > 0 ? std::string(" nor above 1e6 seconds") : ""));
    if (bad(piece.perByte))
      return makeError(path + ".per_byte: must not be negative" +
                       (piece.perByte > 0 ? std::string(" nor above 1e6 seconds") : ""));
    if (!std::isfinite(piece.belowBytes) || piece.belowBytes < 0)
      return makeError(path + ".below_bytes: must not be negative");
    bool last = i + 1 == m.message.size();
    if (last && piece.belowBytes != 0)
      return makeError(path + ".below_bytes: the last piece covers every "
                              "size and must be 0");
    if (!last && piece.belowBytes == 0)
      return makeError(path + ".below_bytes: only the last piece may be 0");
    if (!last && i > 0 && piece.belowBytes <= m.message[i - 1].belowBytes)
      return makeError(path + ".below_bytes: must be greater than the "
                              "previous piece's");
  }
  for (const auto &[primitive, algorithm] : m.collectives) {
    bool known = false;
    for (const auto &name : collectivePrimitives())
      known = known || name == primitive;
    if (!known)
      return makeError("collectives." + primitive + ": unknown primitive");
  }
  return success();
}

} // namespace dlayout
