//===- costmodels/StatementCache.h - One statement's costs, kept -*- C++ -*-===//
//
// A statement's computation (Computation.h) and communication before any
// coalescing across statements (Communication.h) depend on the layout only
// through the mesh and the distributions of the arrays its cost reads
// (StatementFacts::arraysCosted). The solver estimates hundreds of layouts
// that differ in a few arrays each; the cache keeps every statement's costs
// under the layouts of its own arrays, so that an estimate recomputes only
// the statements whose arrays changed.
//
// A key is the statement's index, the mesh and its arrays' ArrayLayouts,
// written out in full (no hashing: two keys are equal only where the
// layouts are). Entries hold for one machine: an estimate on another drops
// them (use), and so does growing past kMaxEntries. An Estimator's options
// are fixed, so each Estimator has its own cache (copies share it).
// Lookups and insertions may come from several threads.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/Communication.h"
#include "costmodels/Computation.h"
#include "model/Layout.h"
#include "model/Machine.h"

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace dlayout::cost {

struct StatementCosts {
  ComputationCost work;
  std::vector<CommCost> comm;
};

class StatementCache {
public:
  static constexpr size_t kMaxEntries = 1 << 14;

  explicit StatementCache(const ProgramFacts &pf);

  /// Each array's layout written out as a key part, by ProgramFacts index
  /// ("" where `l` names no array of that index); empty where an array is
  /// laid out by an indirect map (those are not kept: their keys would be
  /// as long as the array).
  static std::optional<std::vector<std::string>> arrayKeys(const ProgramFacts &pf,
                                                           const Layout &l);
  /// The key of statement `statement` (an index into ProgramFacts::statements)
  /// under `l`, whose arrays' parts `arrayKeys` gave.
  std::string key(size_t statement, const Layout &l,
                  const std::vector<std::string> &arrayKeys) const;

  /// Where an estimate on machine `m` begins: the entries of another
  /// machine are dropped. The number returned names this machine's entries
  /// for find and insert (those of an earlier machine find nothing).
  uint64_t use(const Machine &m);
  std::optional<StatementCosts> find(uint64_t machine, const std::string &key) const;
  void insert(uint64_t machine, const std::string &key, const StatementCosts &costs);
  /// How many lookups found their statement's costs.
  size_t hits() const;

private:
  std::vector<std::vector<int>> arrays_; // per statement: arraysCosted, each once

  mutable std::mutex mutex_;
  std::optional<Machine> machine_; // whose costs the entries are
  uint64_t generation_ = 0;        // how many machines there have been
  std::unordered_map<std::string, StatementCosts> entries_;
  mutable size_t hits_ = 0;
};

} // namespace dlayout::cost
