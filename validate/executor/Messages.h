//===- validate/executor/Messages.h - Elements on the wire -----*- C++ -*-===//
//
// What DistributedMemory's messages carry and how they travel:
//   - an element's payload is what the model says the element is (f32, i32,
//     i64 or f64; wireBytes), packed and unpacked from the executor's
//     doubles;
//   - message tags on the mesh's communicator: rt::ProcessorMesh::nextTag()
//     hands out 100..30099 (schedules), point-to-point exchanges use
//     kExchangeTag, and a multicast is tagged by its source, so that a relay
//     may pass two multicasts on in either order;
//   - a multicast that is not an MPI_Bcast is relayed down a binomial tree
//     over its members (treeOrder, treeParent, treeChildren);
//   - parts of several sizes, each wanted by every member of a group, go
//     straight from their holders to every member (sendPartsToAll).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "validate/executor/ExecProgram.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace dlayout::exec {

inline constexpr int kExchangeTag = 99;
inline constexpr int kMulticastTag = 30100; // + the source's id

/// Orders a multicast's receivers (after the source, members[0]) by their
/// id XOR the source's: on a hypercube of the whole mesh every edge of the
/// binomial tree then joins neighbours (position i to i + m, m below i's
/// lowest set bit, sets one bit), as Table 6.1's OneToManyMulticast assumes.
inline void treeOrder(std::vector<int> &members) {
  const int root = members.front();
  std::sort(members.begin() + 1, members.end(),
            [root](int a, int b) { return (a ^ root) < (b ^ root); });
}

/// Position i's parent and children in the binomial tree over n positions
/// (the source at 0; MPICH's): i receives from i with its lowest set bit
/// cleared, and sends to i + m for each power of two m below i's lowest set
/// bit, largest first -- i + m's subtree is the m positions from it, so the
/// biggest subtree starts first and a multicast is ceil(log2 n) messages
/// deep (Table 6.1's OneToManyMulticast).
inline size_t treeParent(size_t i) { return i & (i - 1); }
inline std::vector<size_t> treeChildren(size_t i, size_t n) {
  size_t m = 1;
  while (m < n) m *= 2;
  std::vector<size_t> out;
  for (; m >= 1; m /= 2)
    if ((i == 0 || m < (i & -i)) && i + m < n) out.push_back(i + m);
  return out;
}

/// Position c of `comm` (rank ranks[c]) sends parts[c], where it is not
/// empty, to every other position at once, to those after it first so that
/// no one member is everyone's first; this rank is at `self`, and receives
/// the others' parts into theirs, sized alike on every rank. Returns the
/// bytes this rank sent. Defined in DistributedExchange.cpp.
int64_t sendPartsToAll(MPI_Comm comm, const std::vector<int> &ranks, size_t self,
                       const std::vector<std::span<char>> &parts);

/// Payload encoding of one element: what the model says the element is.
inline void pack(const CArray &a, double v, char *out) {
  if (a.elementBytes == 4) {
    if (a.type == "f32") { float f = static_cast<float>(v); std::memcpy(out, &f, 4); }
    else { int32_t i = static_cast<int32_t>(v); std::memcpy(out, &i, 4); }
  } else if (a.elementBytes == 8 && a.type == "i64") {
    int64_t i = static_cast<int64_t>(v); std::memcpy(out, &i, 8);
  } else {
    std::memcpy(out, &v, 8);
  }
}
inline double unpack(const CArray &a, const char *in) {
  if (a.elementBytes == 4) {
    if (a.type == "f32") { float f; std::memcpy(&f, in, 4); return f; }
    int32_t i; std::memcpy(&i, in, 4); return i;
  }
  if (a.elementBytes == 8 && a.type == "i64") { int64_t i; std::memcpy(&i, in, 8); return double(i); }
  double v; std::memcpy(&v, in, 8); return v;
}
inline size_t wireBytes(const CArray &a) { return a.elementBytes == 4 ? 4 : 8; }

} // namespace dlayout::exec
