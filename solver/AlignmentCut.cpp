//===- solver/AlignmentCut.cpp - Minimum-cut alignment on z3::optimize ----===//
#include "solver/AlignmentCut.h"
#include "solver/Z3Deadline.h"

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>

namespace dlayout::solver {

/// Whether the first count[a] dimensions of each array have classes in
/// [0, classes), no two of one array the same.
static bool isPartition(const std::vector<std::vector<int>> &align,
                        const std::vector<size_t> &count, int classes) {
  for (size_t a = 0; a < align.size(); ++a) {
    std::vector<char> used(size_t(classes), 0);
    for (size_t d = 0; d < count[a]; ++d) {
      int c = align[a][d];
      if (c < 0 || c >= classes || used[size_t(c)]) return false;
      used[size_t(c)] = 1;
    }
  }
  return true;
}

PartitionResult exactPartition(const AffinityGraph &g, int classes, double timeLimitSeconds,
                               z3::context *solver) {
  PartitionResult res;
  const size_t n = g.dims.size();
  res.align.resize(n);
  for (size_t a = 0; a < n; ++a) res.align[a].assign(g.dims[a], -1);
  if (classes < 1) return res;
  try {
    std::optional<z3::context> own;
    z3::context &z = solver ? *solver : own.emplace();
    z3::optimize opt(z);
    std::vector<std::vector<z3::expr>> cls(n);
    int widest = -1; // an array with a dimension in every class
    for (size_t a = 0; a < n; ++a) {
      int nd = std::min(g.dims[a], classes);
      z3::expr_vector row(z);
      for (int d = 0; d < nd; ++d) {
        auto x = z.int_const(("c_" + std::to_string(a) + "_" + std::to_string(d)).c_str());
        opt.add(x >= 0 && x < classes);
        cls[a].push_back(x);
        row.push_back(x);
      }
      // At most one dimension of an array per class (section 5.1).
      if (row.size() > 1) opt.add(z3::distinct(row));
      if (widest < 0 && nd == classes) widest = int(a);
    }
    // Symmetry: classes are interchangeable, so one array that fills every
    // class may be fixed to the identity.
    if (widest >= 0)
      for (int d = 0; d < classes; ++d) opt.add(cls[widest][d] == d);
    // Soft constraints: an edge honoured saves its weight (weighted MaxSAT;
    // weights scaled to integers relative to the heaviest edge).
    double heaviest = 0;
    for (const auto &[key, e] : g.edges) heaviest = std::max(heaviest, e.weight);
    bool anySoft = false;
    for (const auto &[key, e] : g.edges) {
      if (e.weight <= 0 || heaviest <= 0) continue;
      if (e.a.dim >= int(cls[e.a.array].size()) || e.b.dim >= int(cls[e.b.array].size()))
        continue; // a dimension in no class: the edge is cut whatever we do
      int64_t w = std::max<int64_t>(1, std::llround(e.weight / heaviest * 1e9));
      opt.add_soft(cls[e.a.array][e.a.dim] == cls[e.b.array][e.b.dim],
                   std::to_string(w).c_str());
      anySoft = true;
    }
    auto r = checkWithin(z, opt, timeLimitSeconds);
    if (r == z3::unsat) return res; // cannot happen: D classes fit every array
    z3::model m = opt.get_model(); // at the limit: the best model so far
    for (size_t a = 0; a < n; ++a)
      for (size_t d = 0; d < cls[a].size(); ++d)
        res.align[a][d] = m.eval(cls[a][d], true).get_numeral_int();
    // At the limit the model may be partial and break the hard constraints
    // (Z3 completes the missing values with 0): that is no partition.
    std::vector<size_t> count(n);
    for (size_t a = 0; a < n; ++a) count[a] = cls[a].size();
    if (r != z3::sat && !isPartition(res.align, count, classes)) {
      for (size_t a = 0; a < n; ++a) res.align[a].assign(g.dims[a], -1);
      return res;
    }
    res.solved = true;
    res.proved = r == z3::sat || !anySoft;
  } catch (const z3::exception &) {
    res.solved = false; // no model at the time limit: Li-Chen stands alone
    return res;
  }
  res.cut = cutWeight(g, res.align);
  return res;
}

AlignmentChoice chooseAlignment(const AffinityGraph &g, int classes, double timeLimitSeconds,
                                bool exact, z3::context *solver) {
  AlignmentChoice c;
  c.align = liChenPartition(g, classes);
  c.liChenCut = cutWeight(g, c.align);
  c.exactCut = c.liChenCut;
  c.method = "li-chen";
  if (!exact || classes < 2 || g.edges.empty()) return c;
  if (c.liChenCut <= 0) { // no cut can be lower: Li-Chen's is proved minimal
    c.exactSolved = c.exactProved = true;
    return c;
  }
  auto t0 = std::chrono::steady_clock::now();
  auto ex = exactPartition(g, classes, timeLimitSeconds, solver);
  c.exactSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  c.exactSolved = ex.solved;
  c.exactProved = ex.proved;
  if (!ex.solved) return c;
  c.exactCut = ex.cut;
  // The lower cut wins; a tie (within rounding of the scaled weights) keeps
  // the thesis's Li-Chen partition.
  if (ex.cut < c.liChenCut * (1 - 1e-9)) {
    c.align = std::move(ex.align);
    c.method = "exact";
  }
  return c;
}

} // namespace dlayout::solver
