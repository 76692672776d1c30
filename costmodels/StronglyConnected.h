//===- costmodels/StronglyConnected.h - Tarjan's SCCs ------------*- C++ -*-===//
//
// stronglyConnected(succ, present) numbers the strongly connected components
// of the graph whose edges are succ[v] -> w, over the vertices v with
// present[v] (edges to absent vertices are ignored). Tarjan's algorithm,
// iterative: component numbers come out in reverse topological order (a
// component is numbered after every component it reaches). Absent vertices
// get -1.
//
// The level-k dependence graphs (DependenceLevels.h) and loop distribution
// (LoopDistribution.h) both use it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <vector>

namespace dlayout::cost {

/// Per vertex, its component (-1 where !present[v]); `count` receives the
/// number of components when given.
std::vector<int> stronglyConnected(const std::vector<std::vector<int>> &succ,
                                   const std::vector<bool> &present, int *count = nullptr);

} // namespace dlayout::cost
