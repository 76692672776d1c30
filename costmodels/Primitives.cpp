//===- costmodels/Primitives.cpp - Communication primitives ---------------===//
//
// Table 6.1 of the thesis, with the algorithm of each collective taken from
// the machine model, and the optional hop term.
//
//===----------------------------------------------------------------------===//

#include "costmodels/Primitives.h"

#include <algorithm>
#include <cmath>

namespace dlayout {

const char *toString(Primitive p) {
  switch (p) {
  case Primitive::Transfer:
    return "Transfer";
  case Primitive::Shift:
    return "Shift";
  case Primitive::OneToManyMulticast:
    return "OneToManyMulticast";
  case Primitive::ManyToManyMulticast:
    return "ManyToManyMulticast";
  case Primitive::Scatter:
    return "Scatter";
  case Primitive::Gather:
    return "Gather";
  case Primitive::Reduction:
    return "Reduction";
  case Primitive::DScatter:
    return "D-Scatter";
  case Primitive::DGather:
    return "D-Gather";
  case Primitive::IDM:
    return "IDM";
  }
  return "Transfer";
}

double messagesPerRepetition(std::string_view primitive, int64_t group) {
  const double g = double(std::max<int64_t>(group, 1));
  if (primitive == "Transfer" || primitive == "Shift")
    return 1;
  if (g < 2)
    return 0;
  const bool rooted = primitive == toString(Primitive::OneToManyMulticast) ||
                      primitive == toString(Primitive::ManyToManyMulticast) ||
                      primitive == toString(Primitive::Scatter);
  return rooted ? g - 1 : 1;
}

Sent sentAt(std::string_view primitive, int64_t group, double repetitions, double messageBytes,
            const Senders &senders, const std::vector<int64_t> &coords) {
  const double part = senders.partAt(coords);
  if (!senders.includes(coords) || part <= 0)
    return {};
  const double messages = messagesPerRepetition(primitive, group) * repetitions * senders.share;
  return {messages, messages * messageBytes * part};
}

std::vector<std::vector<int64_t>> meshCoordinates(const std::vector<int64_t> &mesh) {
  std::vector<std::vector<int64_t>> all;
  std::vector<int64_t> at(mesh.size(), 0);
  for (bool more = !mesh.empty(); more;) {
    all.push_back(at);
    more = false;
    for (size_t d = 0; d < mesh.size() && !more; ++d) {
      if (++at[d] < mesh[d])
        more = true;
      else
        at[d] = 0;
    }
  }
  return all;
}

int compositionRank(Primitive p) {
  switch (p) { // Table 4.6
  case Primitive::Reduction:
    return 1;
  case Primitive::Scatter:
  case Primitive::DScatter:
    return 2;
  case Primitive::Shift:
  case Primitive::Transfer:
    return 3;
  case Primitive::OneToManyMulticast:
    return 4;
  case Primitive::Gather:
  case Primitive::DGather:
    return 5;
  case Primitive::ManyToManyMulticast:
    return 6;
  case Primitive::IDM:
    return 0;
  }
  return 3;
}

PrimitiveCosts::PrimitiveCosts(const Machine &m, bool topologyHops)
    : m_(&m), hops_(topologyHops && m.perHop > 0) {}

/// Average number of network hops one message of a pattern crosses when the
/// communicating processors lie along a mesh dimension of `span` processors.
double PrimitiveCosts::hopsOf(Pattern pat, int64_t span) const {
  double n = double(std::max<int64_t>(span, 2));
  switch (m_->topology) {
  case Topology::FullyConnected:
    return 1;
  case Topology::Hypercube:
    if (pat == TreeStep)
      return 1; // binomial trees follow cube dimensions
    if (pat == Neighbour)
      return m_->grayCodeEmbedding
                 ? 1
                 : 2; // binary labels: i, i+1 differ in ~2 bits
    return std::max(1.0, std::log2(n) / 2); // random pair: half the bits differ
  case Topology::Mesh:
    if (pat == Neighbour)
      return 1;
    if (pat == TreeStep)
      return std::max(1.0, (n - 1) / std::max(1.0, std::ceil(std::log2(n))));
    return std::max(1.0, n / 3); // mean |i - j| on a line
  case Topology::Torus:
    if (pat == Neighbour)
      return 1;
    if (pat == TreeStep)
      return std::max(1.0, (n / 2) / std::max(1.0, std::ceil(std::log2(n))));
    return std::max(1.0, n / 4); // mean ring distance
  }
  return 1;
}

double PrimitiveCosts::message(double bytes, Pattern pat, int64_t span) const {
  if (bytes <= 0)
    return 0; // nothing to send: no message at all
  double t = m_->transfer(bytes);
  if (hops_)
    t += m_->perHop * hopsOf(pat, span);
  return t;
}

double PrimitiveCosts::transfer(double bytes, int64_t span) const {
  return message(bytes, Arbitrary, span);
}

double PrimitiveCosts::shiftFromOne(double bytes, int64_t span) const {
  return message(bytes, Neighbour, span);
}

double PrimitiveCosts::shift(double bytes, int64_t span) const {
  // "A Shift operation involves each processor sending data to its
  // neighbouring processor, and receiving data from another neighbouring
  // processor in the other direction" (section 6.1.2): 2 * Transfer(m).
  double steps = m_->halfDuplex() ? 2 : 1; // a full-duplex machine overlaps the two
  return steps * message(bytes, Neighbour, span);
}

double PrimitiveCosts::collective(const char *name,
                                  CollectiveAlgorithm fallback, double bytes,
                                  int64_t p) const {
  if (p <= 1 || bytes <= 0)
    return 0;
  auto it = m_->collectives.find(name);
  CollectiveAlgorithm a = it == m_->collectives.end() ? fallback : it->second;
  switch (a) {
  case CollectiveAlgorithm::Tree: // ceil(log2 p) * Transfer(m)
    return double(ceilLog2(p)) * message(bytes, TreeStep, p);
  case CollectiveAlgorithm::Linear: // (p - 1) * Transfer(m)
    return double(p - 1) * message(bytes, Arbitrary, p);
  case CollectiveAlgorithm::Ring: // (p - 1) * Shift(m)
    return double(p - 1) * shift(bytes, p);
  case CollectiveAlgorithm::Exchange: // recursive doubling: log2 p exchanges
    return double(ceilLog2(p)) * 2 * message(bytes, TreeStep, p);
  }
  return 0;
}

double PrimitiveCosts::oneToManyMulticast(double bytes, int64_t p) const {
  return collective("one_to_many_multicast", CollectiveAlgorithm::Tree, bytes,
                    p);
}
double PrimitiveCosts::manyToManyMulticast(double bytes, int64_t p) const {
  return collective("many_to_many_multicast", CollectiveAlgorithm::Ring, bytes,
                    p);
}
double PrimitiveCosts::scatter(double bytes, int64_t p) const {
  return collective("scatter", CollectiveAlgorithm::Linear, bytes, p);
}
double PrimitiveCosts::gather(double bytes, int64_t p) const {
  return collective("gather", CollectiveAlgorithm::Linear, bytes, p);
}
double PrimitiveCosts::reduction(double bytes, int64_t p) const {
  return collective("reduction", CollectiveAlgorithm::Tree, bytes, p);
}
double PrimitiveCosts::allReduction(double bytes, int64_t p) const {
  if (p <= 1 || bytes <= 0)
    return 0;
  const double steps = m_->halfDuplex() ? 2 : 1;
  return double(ceilLog2(p)) * steps * message(bytes, TreeStep, p);
}

// D-Scatter(m, p) = (N_I > 1) Transfer(m) + (N_I > 1) Scatter(m, p): the
// source is outside the group, so the data reach p processors, not p - 1
// (section 4.4.3). The (N_I > 1) factor is applied by the caller.
double PrimitiveCosts::dScatter(double bytes, int64_t p) const {
  if (p < 1)
    return 0;
  return transfer(bytes, p) + scatter(bytes, p);
}
double PrimitiveCosts::dGather(double bytes, int64_t p) const {
  if (p < 1)
    return 0;
  return transfer(bytes, p) + gather(bytes, p);
}

double PrimitiveCosts::cost(Primitive prim, double bytes, int64_t p,
                            int64_t span) const {
  switch (prim) {
  case Primitive::Transfer:
    return transfer(bytes, span ? span : p);
  case Primitive::Shift:
    return shift(bytes, span ? span : p);
  case Primitive::OneToManyMulticast:
    return oneToManyMulticast(bytes, p);
  case Primitive::ManyToManyMulticast:
    return manyToManyMulticast(bytes, p);
  case Primitive::Scatter:
    return scatter(bytes, p);
  case Primitive::Gather:
    return gather(bytes, p);
  case Primitive::Reduction:
    return reduction(bytes, p);
  case Primitive::DScatter:
    return dScatter(bytes, p);
  case Primitive::DGather:
    return dGather(bytes, p);
  case Primitive::IDM:
    return 0;
  }
  return 0;
}

} // namespace dlayout
