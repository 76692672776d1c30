//===- solver/AlignmentCut.h - The component alignment problem, exactly -*- C++ -*-===//
//
// Thesis section 5.1 (digest section 6.1): partition the nodes of the
// component affinity graph (one per array dimension, one column per array)
// into D classes -- the mesh dimensions -- with no two dimensions of one
// array in the same class, minimising the total weight of the edges between
// classes. The problem is NP-complete (Li and Chen [48]); PARADIGM solves it
// with Li and Chen's column merging (AffinityGraph.h, liChenPartition).
//
// exactPartition solves the same problem exactly on Z3: per node an integer
// class in [0, D), the nodes of one array pairwise distinct, and per edge a
// soft constraint "same class" of the edge's weight (weighted MaxSAT on
// z3::optimize), within a time limit; when Z3 stops at the limit, its best
// partition so far is returned, not proved -- or none, when what it holds
// then breaks the hard constraints.
//
// chooseAlignment runs both, reports both cuts and keeps the lower cut
// (a tie keeps Li-Chen's, the thesis's choice).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "solver/AffinityGraph.h"

#include <string>
#include <vector>

namespace dlayout::solver {

struct PartitionResult {
  std::vector<std::vector<int>> align; // per array, per dimension: class
  double cut = 0;                      // cutWeight of align
  bool solved = false;                 // Z3 returned a partition
  bool proved = false;                 // ... and proved it minimal
};

/// The minimum-cut partition of `g` into `classes` classes on Z3, within
/// `timeLimitSeconds`. Arrays with more dimensions than classes keep their
/// extra dimensions out of every class (-1), as liChenPartition does. Z3
/// works in `solver` where given (AlignOptions::solver), else in a context
/// of its own.
PartitionResult exactPartition(const AffinityGraph &g, int classes, double timeLimitSeconds,
                               z3::context *solver = nullptr);

struct AlignmentChoice {
  std::vector<std::vector<int>> align; // the one used
  double liChenCut = 0, exactCut = 0;
  bool exactSolved = false, exactProved = false;
  std::string method; // "li-chen" or "exact"
  double exactSeconds = 0; // time on Z3
};

/// Both partitions; the lower cut wins, a tie goes to Li-Chen.
AlignmentChoice chooseAlignment(const AffinityGraph &g, int classes, double timeLimitSeconds,
                                bool exact = true, z3::context *solver = nullptr);

} // namespace dlayout::solver
