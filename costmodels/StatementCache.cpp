//===- costmodels/StatementCache.cpp - One statement's costs, kept --------===//

#include "costmodels/StatementCache.h"

#include <algorithm>

namespace dlayout::cost {

namespace {

/// v, zigzagged and in base-128 digits: the small numbers of a layout take
/// a byte each, and no key is a prefix of another's part.
void put(std::string &out, int64_t v) {
  uint64_t z = (uint64_t(v) << 1) ^ uint64_t(v >> 63);
  for (; z >= 0x80; z >>= 7)
    out.push_back(char(0x80 | (z & 0x7f)));
  out.push_back(char(z));
}

} // namespace

std::optional<std::vector<std::string>> StatementCache::arrayKeys(const ProgramFacts &pf,
                                                                  const Layout &l) {
  std::vector<std::string> keys(pf.arrays.size());
  for (const auto &[name, al] : l.arrays) {
    const int a = pf.findArray(name);
    if (a < 0)
      continue; // resolveLayout has refused such a layout already
    std::string &k = keys[size_t(a)];
    put(k, int64_t(al.dims.size()));
    for (const DimLayout &d : al.dims) {
      if (d.kind == DistKind::Indirect)
        return std::nullopt;
      put(k, int64_t(d.kind));
      put(k, d.meshDim);
      put(k, d.block);
      put(k, d.offset);
      put(k, d.overlapLeft);
      put(k, d.overlapRight);
      put(k, int64_t(d.begins.size()));
      for (int64_t b : d.begins)
        put(k, b);
    }
  }
  return keys;
}

namespace {

void sortUnique(std::vector<int> &v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

} // namespace

StatementCache::StatementCache(const ProgramFacts &pf) {
  for (const StatementFacts &sf : pf.statements) {
    // The references whose owners run the statement (Computation.cpp's
    // dividing, TermOwners.h): every part reads their layouts.
    std::vector<int> runners;
    if (sf.hasLhs)
      runners.push_back(sf.lhs.array);
    if (sf.hasHome)
      runners.push_back(sf.home.array);
    for (const RefFacts &also : sf.alsoRunBy)
      runners.push_back(also.array);
    // The computation reads those of the arrays its loops are sequential
    // through, and a reduction into a scalar runs by its operands.
    std::vector<int> computation = runners, fetched;
    for (const std::vector<int> &through : sf.sequentialThrough)
      computation.insert(computation.end(), through.begin(), through.end());
    for (const RhsFacts &rf : sf.rhs) {
      fetched.push_back(rf.ref.array);
      if (!sf.hasLhs)
        computation.push_back(rf.ref.array);
    }
    sortUnique(fetched);

    Statement &st = statements_.emplace_back();
    auto add = [&](Part part, std::vector<int> reads) {
      sortUnique(reads);
      st.parts.push_back(part);
      st.slots.push_back(std::make_unique<Slot>());
      st.slots.back()->reads = std::move(reads);
    };
    if (fetched.size() <= 1) {
      if (!fetched.empty())
        computation.push_back(fetched[0]);
      add({true, fetched.empty() ? -1 : fetched[0]}, std::move(computation));
      continue;
    }
    add({true, -1}, std::move(computation));
    for (int a : fetched) {
      std::vector<int> reads = runners;
      reads.push_back(a);
      add({false, a}, std::move(reads));
    }
  }
}

void StatementCache::key(size_t statement, size_t part, const Layout &l,
                         const std::vector<std::string> &arrayKeys, std::string &out) const {
  out.clear();
  put(out, int64_t(l.mesh.size()));
  for (int64_t n : l.mesh)
    put(out, n);
  for (int a : statements_[statement].slots[part]->reads) {
    put(out, a);
    if (a >= 0 && size_t(a) < arrayKeys.size())
      out += arrayKeys[size_t(a)];
  }
}

uint64_t StatementCache::use(const Machine &m) {
  std::lock_guard<std::mutex> lock(machineMutex_);
  if (!machine_ || !(*machine_ == m)) {
    machine_ = m;
    ++generation_; // the slots drop the earlier machine's entries as they are used
  }
  return generation_;
}

std::shared_ptr<const StatementCosts> StatementCache::find(uint64_t machine, size_t statement,
                                                          size_t part,
                                                          const std::string &key) const {
  return findIn(*statements_[statement].slots[part], machine, key);
}

void StatementCache::insert(uint64_t machine, size_t statement, size_t part,
                            const std::string &key,
                            std::shared_ptr<const StatementCosts> costs) {
  insertIn(*statements_[statement].slots[part], machine, key, std::move(costs));
}

void StatementCache::jointKey(std::span<const StatementRead> reads, const ProgramFacts &pf,
                              const Layout &l, const std::vector<std::string> &arrayKeys,
                              std::string &out) const {
  out.clear();
  std::string part;
  for (const StatementRead &r : reads) {
    const size_t s = size_t(r.sf - pf.statements.data());
    const int array = r.sf->rhs[size_t(r.rhs)].ref.array;
    const std::vector<Part> &parts = statements_[s].parts;
    size_t k = 0;
    while (k + 1 < parts.size() && parts[k].array != array)
      ++k;
    key(s, k, l, arrayKeys, part);
    put(out, int64_t(s));
    put(out, r.rhs);
    put(out, int64_t(part.size()));
    out += part;
  }
}

std::shared_ptr<const StatementCosts> StatementCache::findJoint(uint64_t machine,
                                                               const std::string &key) const {
  return findIn(*joints_, machine, key);
}

void StatementCache::insertJoint(uint64_t machine, const std::string &key,
                                 std::shared_ptr<const StatementCosts> costs) {
  insertIn(*joints_, machine, key, std::move(costs));
}

std::shared_ptr<const StatementCosts> StatementCache::findIn(const Slot &s, uint64_t machine,
                                                            const std::string &key) const {
  std::shared_lock<std::shared_mutex> lock(s.mutex);
  if (machine != s.generation)
    return nullptr;
  auto it = s.entries.find(key);
  if (it == s.entries.end())
    return nullptr;
  ++hits_;
  return it->second;
}

void StatementCache::insertIn(Slot &s, uint64_t machine, const std::string &key,
                              std::shared_ptr<const StatementCosts> costs) {
  if (entries_ >= kMaxEntries)
    clear();
  std::unique_lock<std::shared_mutex> lock(s.mutex);
  if (machine != generation_)
    return; // another machine's estimate has begun
  if (s.generation != machine) {
    entries_ -= s.entries.size();
    s.entries.clear();
    s.generation = machine;
  }
  if (s.entries.emplace(key, std::move(costs)).second)
    ++entries_;
}

void StatementCache::clear() {
  auto drop = [&](Slot &s) {
    std::unique_lock<std::shared_mutex> lock(s.mutex);
    entries_ -= s.entries.size();
    s.entries.clear();
  };
  for (Statement &st : statements_)
    for (std::unique_ptr<Slot> &s : st.slots)
      drop(*s);
  drop(*joints_);
}

} // namespace dlayout::cost
