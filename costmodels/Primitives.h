//===- costmodels/Primitives.h - Communication primitives -------*- C++ -*-===//
//
// The communication primitives PARADIGM recognises (thesis section 4.1,
// Fig. 4.1) and their cost on a Machine (Table 6.1, generalised):
//
//   Transfer(m)                one processor sends m bytes to one other
//   Shift(m)                   circular shift among neighbours   2 *
//   Transfer(m) OneToManyMulticast(m, p)   one sends the same m to p - 1
//   ceil(log2 p) * Transfer(m) ManyToManyMulticast(m, p)  all send m to all
//   others         (p - 1) * Shift(m) Scatter(m, p)              one sends a
//   different m to each  (p - 1) * Transfer(m) Gather(m, p)               all
//   send m to one                (p - 1) * Transfer(m) Reduction(m, p) combine
//   m with an associative op ceil(log2 p) * Transfer(m) D-Scatter(m, p),
//   D-Gather  a Scatter/Gather whose source (sink) lies outside
//                              the group: Transfer(m) + Scatter(m, p)
//                              (Table 4.2)
//   IDM(m)                     internalised data movement: costs nothing, only
//                              scales the message sizes of the other terms
//
// The algorithm behind each collective comes from Machine::collectives (tree,
// ring, linear, exchange); a primitive the machine does not name gets the
// Table 6.1 algorithm above. Group sizes may be any p >= 1 (not only powers of
// two: ceil(log2 p) steps); a group of one costs nothing, and so does a
// message of zero bytes.
//
// Beyond the thesis, and off unless asked for (so that ipsc2 stays exactly
// Table 6.1): topology hops. Each message step then also pays
// Machine::perHop times the number of network hops its pattern needs on the
// machine's topology (hypercube with or without Gray-code embedding, mesh,
// torus, fully connected); `span` is the number of processors along the mesh
// dimension the primitive runs in.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Machine.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlayout {

enum class Primitive {
  Transfer,
  Shift,
  OneToManyMulticast,
  ManyToManyMulticast,
  Scatter,
  Gather,
  Reduction,
  DScatter,
  DGather,
  IDM
};
const char *toString(Primitive p);

/// Which processors send a primitive's messages, where the layout decides
/// it: the coordinates first..last along mesh dimension meshDim (along the
/// others, all). A boundary Shift over blocks that do not wrap round leaves
/// from the neighbours of the blocks that receive (dflux's Shifts along I
/// from every block but the last), and so does a Shift of the local data
/// (Table 4.2 case 2: dflux's P(I,J+1) with 10 columns on 16 processors,
/// from the 9 blocks above a receiver); an invariant pair's Transfer with known
/// owners from its source's coordinate. meshDim -1: every processor may.
/// `share`: the fraction of the term's repetitions one sender sends -- 1 in
/// S where the tiles of the operand come from S processors one after
/// another (dflux's DIS2(I,J) multicast a J-block at a time, each block's
/// from its owner); above 1 for a pipelined boundary-Transfer (section
/// 4.5.3), whose repetitions count the steps of the pipeline, fewer than
/// the messages it sends. Used to predict the busiest processor's bytes
/// (validate/).
struct Senders {
  Senders() = default;
  Senders(int dim, int64_t from, int64_t to, double shareOf = 1)
      : meshDim(dim), first(from), last(to), share(shareOf) {}
  int meshDim = -1;
  int64_t first = 0, last = 0;
  double share = 1;
  /// Along the mesh dimensions the data is spread over, the part of the
  /// busiest sender's message each coordinate sends, per dimension: each
  /// line of the mesh sends what it holds, an edge block less, a block past
  /// the loop's range nothing (lu's multipliers A(I,K), I > K, multicast
  /// along the rows by each row block: none from the blocks above row K);
  /// along a boundary Shift's own dimension, each sender's edge. Null: a
  /// full message from every sender. Shared: terms are copied often, and
  /// most have none.
  using Parts = std::vector<std::pair<int, std::vector<double>>>;
  std::shared_ptr<const Parts> parts;
  /// Where what a processor holds along several mesh dimensions is not a
  /// product of one part per dimension -- an operand whose sub-references
  /// on them vary in one loop: A(J,J)'s diagonal lies on the diagonal
  /// blocks of a 2-D mesh alone -- the part of the busiest sender's message
  /// each combination of coordinates of `dims` sends, the first of `dims`
  /// fastest (`extents` its coordinates per dimension). Null: none.
  struct Joint {
    std::vector<int> dims;
    std::vector<int64_t> extents;
    std::vector<double> byCoordinates;
    bool operator==(const Joint &) const = default;
    /// A table over every dimension of `mesh`, one entry per processor in
    /// meshCoordinates()'s order.
    static std::shared_ptr<const Joint> overMesh(const std::vector<int64_t> &mesh,
                                                 std::vector<double> byProcessor) {
      Joint j;
      for (size_t d = 0; d < mesh.size(); ++d) {
        j.dims.push_back(int(d));
        j.extents.push_back(mesh[d]);
      }
      j.byCoordinates = std::move(byProcessor);
      return std::make_shared<const Joint>(std::move(j));
    }
    /// Whether mesh dimension d is one of the table's.
    bool covers(int d) const { return std::find(dims.begin(), dims.end(), d) != dims.end(); }
    /// The entry for `coords` (one per mesh dimension); 1 where they lie
    /// outside the table.
    double at(const std::vector<int64_t> &coords) const {
      size_t index = 0, stride = 1;
      for (size_t k = 0; k < dims.size(); ++k) {
        const size_t d = size_t(dims[k]);
        if (d >= coords.size() || coords[d] < 0 || coords[d] >= extents[k])
          return 1;
        index += size_t(coords[d]) * stride;
        stride *= size_t(extents[k]);
      }
      return index < byCoordinates.size() ? byCoordinates[index] : 1;
    }
  };
  std::shared_ptr<const Joint> joint;
  bool operator==(const Senders &o) const {
    return meshDim == o.meshDim && first == o.first && last == o.last && share == o.share &&
           (parts == o.parts || (parts && o.parts && *parts == *o.parts)) &&
           (joint == o.joint || (joint && o.joint && *joint == *o.joint));
  }
  /// Whether the processor at `coords` (one per mesh dimension) sends.
  bool includes(const std::vector<int64_t> &coords) const {
    if (meshDim < 0 || size_t(meshDim) >= coords.size()) return true;
    int64_t c = coords[size_t(meshDim)];
    return first <= c && c <= last;
  }
  /// The part of a full message the processor at `coords` sends.
  double partAt(const std::vector<int64_t> &coords) const {
    double part = joint ? joint->at(coords) : 1;
    if (!parts) return part;
    for (const auto &[d, byCoordinate] : *parts)
      if (size_t(d) < coords.size() && size_t(coords[size_t(d)]) < byCoordinate.size())
        part *= byCoordinate[size_t(coords[size_t(d)])];
    return part;
  }
};

/// Messages one sender sends in one repetition of a term of `primitive`
/// (toString's name, or "Inspector" / "Executor") over `group`, counted as
/// the validate runtime's Counters count them (a collective as its flat
/// algorithm): a multicast or scatter root sends group - 1, every other
/// sender one (a Reduction's member, a Gather's source), a collective over
/// one processor none.
double messagesPerRepetition(std::string_view primitive, int64_t group);

/// What the processor at `coords` sends for such a term, repeated
/// `repetitions` times with messages of `messageBytes`: its share of the
/// repetitions and its part of the data (Senders). What validate predicts
/// for the busiest processor, and FetchBound.h bounds.
struct Sent {
  double messages = 0, bytes = 0;
};
Sent sentAt(std::string_view primitive, int64_t group, double repetitions, double messageBytes,
            const Senders &senders, const std::vector<int64_t> &coords);

/// Every coordinate of a mesh, the first dimension fastest.
std::vector<std::vector<int64_t>> meshCoordinates(const std::vector<int64_t> &mesh);

/// Rank in the composition order of Table 4.6 (1 = Reduction ... 6 =
/// ManyToManyMulticast; D-Scatter ranks with Scatter, D-Gather with Gather,
/// IDM 0).
int compositionRank(Primitive p);

class PrimitiveCosts {
public:
  explicit PrimitiveCosts(const Machine &m, bool topologyHops = false);

  /// Seconds for one primitive moving `bytes` per message over a group of
  /// `p` processors.
  double cost(Primitive prim, double bytes, int64_t p, int64_t span = 0) const;

  double transfer(double bytes, int64_t span = 0) const;
  double shift(double bytes, int64_t span = 0) const;
  /// Beyond Table 6.1: a Shift that only one processor along its dimension
  /// sends (a boundary towards the other of two) has no processor that
  /// sends and receives: one Transfer to the neighbour, half-duplex or not.
  double shiftFromOne(double bytes, int64_t span = 0) const;
  double oneToManyMulticast(double bytes, int64_t p) const;
  double manyToManyMulticast(double bytes, int64_t p) const;
  double scatter(double bytes, int64_t p) const;
  double gather(double bytes, int64_t p) const;
  double reduction(double bytes, int64_t p) const;
  /// Beyond Table 6.1: a Reduction whose result every member needs (a
  /// replicated scalar's partial results, section 2.1), by recursive
  /// doubling as MPI_Allreduce runs it: ceil(log2 p) exchanges, each two
  /// Transfers on a half-duplex machine, one on a full-duplex one. Table
  /// 6.1's tree leaves the result at its root.
  double allReduction(double bytes, int64_t p) const;
  double dScatter(double bytes, int64_t p) const;
  double dGather(double bytes, int64_t p) const;

  const Machine &machine() const { return *m_; }
  bool topologyHops() const { return hops_; }

private:
  enum Pattern { Arbitrary, Neighbour, TreeStep };
  double message(double bytes, Pattern pat, int64_t span) const;
  double collective(const char *name, CollectiveAlgorithm fallback,
                    double bytes, int64_t p) const;
  double hopsOf(Pattern pat, int64_t span) const;

  const Machine *m_;
  bool hops_;
};

} // namespace dlayout
