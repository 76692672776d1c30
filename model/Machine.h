//===- model/Machine.h - A machine model ------------------------*- C++ -*-===//
//
// What the cost models need to know about a distributed-memory machine: the
// time of each local operation, the time of a point-to-point message of m
// bytes (piecewise linear, as the iPSC/2's Transfer of thesis §6.1), how each
// collective primitive is built from messages (thesis Table 6.1), and the
// network topology with the embedding of processor meshes into it. All times
// are in seconds. JSON form: "dlayout-machine/1".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlayout {

/// One piece of the message cost: for messages of fewer than `belowBytes`
/// bytes (the last piece has belowBytes = 0, meaning "any size"), a message
/// costs startup + perByte * m.
struct MessageCostPiece {
  double belowBytes = 0;
  double startup = 0;
  double perByte = 0;
  bool operator==(const MessageCostPiece &) const = default;
};

/// How a collective primitive is carried out, in terms of Transfer(m):
///   tree    ceil(log2 p) * Transfer(m)       (Reduction, OneToManyMulticast)
///   ring    (p - 1) * Shift(m)               (ManyToManyMulticast)
///   linear  (p - 1) * Transfer(m)            (Scatter, Gather)
///   exchange 2 * Transfer(m)                 (Shift)
enum class CollectiveAlgorithm { Tree, Ring, Linear, Exchange };

/// ceil(log2 p) for p >= 1, 0 below: the steps of a tree over p processors.
inline int64_t ceilLog2(int64_t p) {
  int64_t steps = 0;
  for (int64_t reach = 1; reach < p; reach *= 2)
    ++steps;
  return steps;
}
const char *toString(CollectiveAlgorithm a);
std::optional<CollectiveAlgorithm>
collectiveAlgorithmFromString(const std::string &s);

enum class Topology { Hypercube, Mesh, Torus, FullyConnected };
const char *toString(Topology t);
std::optional<Topology> topologyFromString(const std::string &s);

struct Machine {
  std::string name;
  std::string description;
  // Local operations (seconds per operation).
  double load = 0, store = 0, add = 0, mul = 0, div = 0, intrinsic = 0,
         compare = 0;
  std::vector<MessageCostPiece> message;
  // Keyed by primitive: "transfer" is implicit; "shift", "reduction",
  // "one_to_many_multicast", "many_to_many_multicast", "scatter", "gather".
  std::map<std::string, CollectiveAlgorithm> collectives;
  Topology topology = Topology::FullyConnected;
  bool grayCodeEmbedding = false;
  double perHop = 0;               // extra seconds per network hop
  double flops = 0;                // flop/s of one processor (for SimGrid)
  std::vector<std::string> sources; // where the numbers come from

  /// Transfer(m): one message of m bytes.
  double transfer(double bytes) const;
  /// Whether a processor's messages take turns: a message occupies its
  /// sender and its receiver for its whole Transfer(m), so a Shift (send one
  /// way, receive from the other) costs 2 * Transfer(m) (thesis Table 6.1;
  /// "shift": "exchange", the default). Otherwise a node sends and receives
  /// at once and a Shift costs one Transfer(m).
  bool halfDuplex() const;
  bool operator==(const Machine &) const = default;
};

/// The primitives `Machine::collectives` may name.
const std::vector<std::string> &collectivePrimitives();

/// Checks that every time is finite and >= 0, and that the message pieces
/// are well formed: at least one, belowBytes increasing, the last one (and
/// only it) 0. The message names the JSON path: "message[0].startup: ...".
Status verify(const Machine &m);

} // namespace dlayout
