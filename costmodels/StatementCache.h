//===- costmodels/StatementCache.h - One statement's costs, kept -*- C++ -*-===//
//
// A statement's costs come in parts, each of which depends on the layout
// only through the mesh and the distributions of a few arrays: its
// computation (Computation.h) on those of the references whose owners run
// it and of the arrays its loops are sequential through; its communication
// on each rhs array before any coalescing across statements
// (Communication.h: the rules within a statement join references to one
// array) on those of that array and of the references whose owners run it.
// The solver estimates hundreds of layouts that differ in a few arrays
// each; the cache keeps every part under the layouts of its own arrays, so
// that an estimate recomputes only the parts whose arrays changed: a
// statement reading B and C costs its fetch of C once for every layout of
// B.
//
// Each part has a slot of its own, whose keys are the mesh and the part's
// arrays' ArrayLayouts, written out in full (no hashing: two keys are equal
// only where the layouts are). Entries hold for one machine: an estimate on
// another drops them (use), and the cache growing past kMaxEntries drops
// all. An Estimator's options are fixed, so each Estimator has its own cache
// (copies share it). Lookups and insertions may come from several threads;
// each slot has its own lock.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/Communication.h"
#include "costmodels/Computation.h"
#include "model/Layout.h"
#include "model/Machine.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace dlayout::cost {

/// A part's costs: the computation's `work`, one rhs array's `comm`, or
/// both (StatementCache::Part).
struct StatementCosts {
  ComputationCost work;
  std::vector<CommCost> comm;
  /// A joint fetch (findJoint): not counted (jointFetch's nullopt).
  bool refused = false;
};

class StatementCache {
public:
  static constexpr size_t kMaxEntries = 1 << 15;

  /// A part of a statement's costs: its computation, its communication on
  /// one rhs array (a ProgramFacts index), or both. A statement that
  /// fetches one array or none is one part (a lookup less than two would
  /// take); one that fetches several is its computation and a part per
  /// array.
  struct Part {
    bool computation = false;
    int array = -1; // -1: no communication
  };

  explicit StatementCache(const ProgramFacts &pf);

  /// Each array's layout written out as a key part, by ProgramFacts index
  /// ("" where `l` names no array of that index); empty where an array is
  /// laid out by an indirect map (those are not kept: their keys would be
  /// as long as the array).
  static std::optional<std::vector<std::string>> arrayKeys(const ProgramFacts &pf,
                                                           const Layout &l);
  /// The parts of statement `statement` (an index into
  /// ProgramFacts::statements), the computation first, then by array.
  const std::vector<Part> &parts(size_t statement) const {
    return statements_[statement].parts;
  }
  /// The key of the statement's part `part` (an index into parts()) under
  /// `l`, whose arrays' parts `arrayKeys` gave, written into `out`.
  void key(size_t statement, size_t part, const Layout &l,
           const std::vector<std::string> &arrayKeys, std::string &out) const;

  /// Where an estimate on machine `m` begins: the entries of another
  /// machine are dropped. The number returned names this machine's entries
  /// for find and insert (those of an earlier machine find nothing).
  uint64_t use(const Machine &m);
  /// The part's costs kept under `key`; null where none are.
  std::shared_ptr<const StatementCosts> find(uint64_t machine, size_t statement, size_t part,
                                             const std::string &key) const;
  void insert(uint64_t machine, size_t statement, size_t part, const std::string &key,
              std::shared_ptr<const StatementCosts> costs);
  /// A joint fetch of several statements' reads (Communication.h,
  /// jointFetch) depends on the layout through their parts for the array
  /// alone: kept under `jointKey`, the reads and those parts' keys, in a
  /// slot of its own.
  void jointKey(std::span<const StatementRead> reads, const ProgramFacts &pf, const Layout &l,
                const std::vector<std::string> &arrayKeys, std::string &out) const;
  std::shared_ptr<const StatementCosts> findJoint(uint64_t machine, const std::string &key) const;
  void insertJoint(uint64_t machine, const std::string &key,
                   std::shared_ptr<const StatementCosts> costs);
  /// How many lookups found their part's costs.
  size_t hits() const { return hits_; }

private:
  struct Slot {
    std::vector<int> reads; // the arrays whose layouts the part's costs read, each once
    mutable std::shared_mutex mutex; // lookups share it
    uint64_t generation = 0;         // the machine its entries are of
    std::unordered_map<std::string, std::shared_ptr<const StatementCosts>> entries;
  };
  struct Statement {
    std::vector<Part> parts;
    std::vector<std::unique_ptr<Slot>> slots; // by part
  };

  std::shared_ptr<const StatementCosts> findIn(const Slot &s, uint64_t machine,
                                               const std::string &key) const;
  void insertIn(Slot &s, uint64_t machine, const std::string &key,
                std::shared_ptr<const StatementCosts> costs);
  /// Drops every entry (past kMaxEntries).
  void clear();

  std::vector<Statement> statements_;
  std::unique_ptr<Slot> joints_ = std::make_unique<Slot>();
  std::atomic<size_t> entries_ = 0; // in all slots
  std::mutex machineMutex_;
  std::optional<Machine> machine_;       // whose costs the entries are
  std::atomic<uint64_t> generation_ = 0; // how many machines there have been
  mutable std::atomic<size_t> hits_ = 0;
};

} // namespace dlayout::cost
