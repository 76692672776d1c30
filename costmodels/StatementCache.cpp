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

StatementCache::StatementCache(const ProgramFacts &pf) {
  for (const StatementFacts &sf : pf.statements) {
    std::vector<int> arrays = sf.arraysCosted();
    std::sort(arrays.begin(), arrays.end());
    arrays.erase(std::unique(arrays.begin(), arrays.end()), arrays.end());
    arrays_.push_back(std::move(arrays));
  }
}

std::string StatementCache::key(size_t statement, const Layout &l,
                                const std::vector<std::string> &arrayKeys) const {
  std::string k;
  put(k, int64_t(statement));
  put(k, int64_t(l.mesh.size()));
  for (int64_t n : l.mesh)
    put(k, n);
  for (int a : arrays_[statement]) {
    put(k, a);
    if (a >= 0 && size_t(a) < arrayKeys.size())
      k += arrayKeys[size_t(a)];
  }
  return k;
}

uint64_t StatementCache::use(const Machine &m) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!machine_ || !(*machine_ == m)) {
    entries_.clear();
    machine_ = m;
    ++generation_;
  }
  return generation_;
}

std::optional<StatementCosts> StatementCache::find(uint64_t machine, const std::string &key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (machine != generation_)
    return std::nullopt;
  auto it = entries_.find(key);
  if (it == entries_.end())
    return std::nullopt;
  ++hits_;
  return it->second;
}

void StatementCache::insert(uint64_t machine, const std::string &key, const StatementCosts &costs) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (machine != generation_)
    return;
  if (entries_.size() >= kMaxEntries)
    entries_.clear();
  entries_.emplace(key, costs);
}

size_t StatementCache::hits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return hits_;
}

} // namespace dlayout::cost
