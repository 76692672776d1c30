//===- validate/runtime/Distribution.cpp - One dimension's delta and lambda ------===//
//
// Formulas and their sources are in the header.
//
//===----------------------------------------------------------------------===//
#include "validate/runtime/Distribution.h"

#include <algorithm>
#include <cassert>
#include <string>

namespace dlayout::rt {

namespace {
const char *kindName(DistKind k) {
  // Local on purpose: the runtime needs only model/ headers (it is also
  // compiled by smpicxx without the model library).
  switch (k) {
  case DistKind::Block: return "block";
  case DistKind::Cyclic: return "cyclic";
  case DistKind::BlockCyclic: return "block_cyclic";
  case DistKind::GeneralBlock: return "general_block";
  case DistKind::Indirect: return "indirect";
  case DistKind::Replicated: return "replicated";
  case DistKind::Collapsed: return "collapsed";
  }
  return "?";
}
} // namespace

Result<Distribution> Distribution::make(const DimLayout &L, int64_t extent,
                                        int64_t lower, int64_t procs,
                                        const std::string &what) {
  auto fail = [&](const std::string &msg) -> Result<Distribution> {
    return makeError(what + " (" + kindName(L.kind) + "): " + msg);
  };
  if (extent < 0) return fail("negative extent " + std::to_string(extent));
  if (procs < 1)
    return fail("needs at least one processor, the mesh dimension has " +
                std::to_string(procs));
  if (L.overlapLeft < 0 || L.overlapRight < 0)
    return fail("negative overlap width [" + std::to_string(L.overlapLeft) +
                ", " + std::to_string(L.overlapRight) + "]");

  Distribution d;
  d.kind_ = L.kind;
  d.extent_ = extent;
  d.lower_ = lower;
  d.procs_ = procs;
  d.offset_ = L.offset;
  d.ovl_ = L.overlapLeft;
  d.ovr_ = L.overlapRight;

  const bool wantsOverlap = L.overlapLeft > 0 || L.overlapRight > 0;
  switch (L.kind) {
  case DistKind::Block:
    d.block_ = std::max<int64_t>(1, (extent + procs - 1) / procs);
    break;
  case DistKind::Cyclic:
    d.block_ = 1;
    break;
  case DistKind::BlockCyclic:
    if (L.block <= 0)
      return fail("block size must be positive, got " + std::to_string(L.block));
    d.block_ = L.block;
    break;
  case DistKind::GeneralBlock: {
    const auto &b = L.begins;
    if (static_cast<int64_t>(b.size()) != procs)
      return fail("needs one begin per processor (" + std::to_string(procs) +
                  "), got " + std::to_string(b.size()));
    if (b[0] != lower)
      return fail("begins[0] must be the lower bound " + std::to_string(lower) +
                  ", got " + std::to_string(b[0]));
    for (size_t k = 1; k < b.size(); ++k)
      if (b[k] <= b[k - 1])
        return fail("begins must be strictly increasing, but begins[" +
                    std::to_string(k) + "] = " + std::to_string(b[k]) +
                    " follows begins[" + std::to_string(k - 1) +
                    "] = " + std::to_string(b[k - 1]));
    d.begins_.reserve(b.size());
    for (auto v : b) d.begins_.push_back(v - lower);
    break;
  }
  case DistKind::Indirect: {
    if (L.offset != 0) return fail("an offset is not defined for indirect");
    if (static_cast<int64_t>(L.map.size()) != extent)
      return fail("map has " + std::to_string(L.map.size()) +
                  " entries for an extent of " + std::to_string(extent));
    auto t = std::make_shared<IndirectTable>();
    t->owner = L.map;
    t->local.resize(extent);
    t->counts.assign(procs, 0);
    for (int64_t k = 0; k < extent; ++k) {
      int64_t p = L.map[k];
      if (p < 0 || p >= procs)
        return fail("map names processor " + std::to_string(p) + " for index " +
                    std::to_string(lower + k) + ", but the mesh dimension has " +
                    std::to_string(procs) + " processors (0.." +
                    std::to_string(procs - 1) + ")");
      t->local[k] = t->counts[p]++;
    }
    t->ptr.assign(procs + 1, 0);
    for (int64_t p = 0; p < procs; ++p) t->ptr[p + 1] = t->ptr[p] + t->counts[p];
    t->elems.resize(extent);
    for (int64_t k = 0; k < extent; ++k)
      t->elems[t->ptr[L.map[k]] + t->local[k]] = lower + k;
    d.ind_ = std::move(t);
    break;
  }
  case DistKind::Replicated:
  case DistKind::Collapsed:
    // Every element is local: offset and overlap have nothing to do.
    if (L.kind == DistKind::Collapsed) d.procs_ = 1;
    d.offset_ = d.ovl_ = d.ovr_ = 0;
    break;
  }
  if (wantsOverlap && !d.contiguous())
    return fail("overlap is only defined for block and general_block");
  return d;
}

/// The factories below are for layouts known to be valid (tests, the
/// runtime's own arrays): make() cannot fail on them.
static Distribution known(DistKind kind, int64_t extent, int64_t procs, int64_t lower,
                          int64_t offset, int64_t block = 0) {
  DimLayout L;
  L.kind = kind;
  L.offset = offset;
  L.block = block;
  auto r = Distribution::make(L, extent, lower, procs);
  assert(r.ok());
  return std::move(r).value();
}

Distribution Distribution::block(int64_t extent, int64_t procs, int64_t lower,
                                 int64_t offset) {
  return known(DistKind::Block, extent, procs, lower, offset);
}

Distribution Distribution::cyclic(int64_t extent, int64_t procs, int64_t lower,
                                  int64_t offset) {
  return known(DistKind::Cyclic, extent, procs, lower, offset);
}

Distribution Distribution::blockCyclic(int64_t extent, int64_t procs, int64_t k,
                                       int64_t lower, int64_t offset) {
  return known(DistKind::BlockCyclic, extent, procs, lower, offset, k);
}

Distribution Distribution::collapsed(int64_t extent, int64_t lower) {
  return known(DistKind::Collapsed, extent, 1, lower, 0);
}

Distribution Distribution::indirectDeferred(int64_t extent, int64_t lower,
                                            std::vector<int64_t> localExtents) {
  Distribution d;
  d.kind_ = DistKind::Indirect;
  d.extent_ = extent;
  d.lower_ = lower;
  d.procs_ = std::max<int64_t>(1, static_cast<int64_t>(localExtents.size()));
  auto t = std::make_shared<IndirectTable>();
  t->counts = std::move(localExtents);
  t->counts.resize(d.procs_, 0);
  d.ind_ = std::move(t);
  return d;
}

bool Distribution::contiguous() const {
  return kind_ == DistKind::Block || kind_ == DistKind::GeneralBlock ||
         everywhere();
}

int64_t Distribution::segStart(int64_t p) const {
  if (p == 0) return qlo();
  int64_t b = kind_ == DistKind::Block ? p * block_ : begins_[p];
  return std::clamp(b, qlo(), qhi());
}

int64_t Distribution::countBelow(int64_t p, int64_t x) const {
  const int64_t k = block_;
  int64_t B = floorDiv(x, k);
  int64_t r = x - B * k;
  int64_t c = floorDiv(B, procs_);
  int64_t j = B - c * procs_;
  return c * k + (j > p ? k : j == p ? r : 0);
}

int64_t Distribution::owner(int64_t i) const {
  assert(inRange(i));
  switch (kind_) {
  case DistKind::Block:
    return std::clamp<int64_t>(floorDiv(pos(i), block_), 0, procs_ - 1);
  case DistKind::Cyclic:
  case DistKind::BlockCyclic:
    return floorMod(floorDiv(pos(i), block_), procs_);
  case DistKind::GeneralBlock: {
    // Largest p with b_p ≤ q (Zima Def. 5 as corrected in the digest).
    auto it = std::upper_bound(begins_.begin(), begins_.end(), pos(i));
    return std::max<int64_t>(0, (it - begins_.begin()) - 1);
  }
  case DistKind::Indirect:
    assert(hasMap());
    return ind_->owner[i - lower_];
  case DistKind::Replicated:
  case DistKind::Collapsed:
    return 0;
  }
  return 0;
}

int64_t Distribution::localIndex(int64_t i) const {
  assert(inRange(i));
  switch (kind_) {
  case DistKind::Block:
  case DistKind::GeneralBlock:
    return pos(i) - segStart(owner(i));
  case DistKind::Cyclic:
  case DistKind::BlockCyclic: {
    int64_t p = owner(i);
    return countBelow(p, pos(i)) - countBelow(p, qlo());
  }
  case DistKind::Indirect:
    assert(hasMap());
    return ind_->local[i - lower_];
  case DistKind::Replicated:
  case DistKind::Collapsed:
    return i - lower_;
  }
  return 0;
}

int64_t Distribution::globalIndex(int64_t p, int64_t l) const {
  assert(p >= 0 && p < procs_ && l >= 0 && l < localExtent(p));
  switch (kind_) {
  case DistKind::Block:
  case DistKind::GeneralBlock:
    return segStart(p) + l + lower_ + offset_;
  case DistKind::Cyclic:
  case DistKind::BlockCyclic: {
    const int64_t k = block_;
    int64_t T = l + countBelow(p, qlo());
    int64_t c = floorDiv(T, k);
    int64_t q = (c * procs_ + p) * k + (T - c * k);
    return q + lower_ + offset_;
  }
  case DistKind::Indirect:
    assert(hasMap());
    return ind_->elems[ind_->ptr[p] + l];
  case DistKind::Replicated:
  case DistKind::Collapsed:
    return lower_ + l;
  }
  return 0;
}

int64_t Distribution::localExtent(int64_t p) const {
  assert(p >= 0 && p < procs_);
  switch (kind_) {
  case DistKind::Block:
  case DistKind::GeneralBlock:
    return segEnd(p) - segStart(p);
  case DistKind::Cyclic:
  case DistKind::BlockCyclic:
    return countBelow(p, qhi()) - countBelow(p, qlo());
  case DistKind::Indirect:
    return ind_->counts[p];
  case DistKind::Replicated:
  case DistKind::Collapsed:
    return extent_;
  }
  return 0;
}

std::vector<int64_t> Distribution::indices(int64_t p) const {
  int64_t n = localExtent(p);
  std::vector<int64_t> out;
  out.reserve(n);
  for (int64_t l = 0; l < n; ++l) out.push_back(globalIndex(p, l));
  return out;
}

std::pair<int64_t, int64_t> Distribution::segment(int64_t p) const {
  assert(contiguous());
  if (everywhere()) return {lower_, lower_ + extent_};
  const int64_t base = lower_ + offset_;
  return {segStart(p) + base, segEnd(p) + base};
}

int64_t Distribution::storageIndex(int64_t p, int64_t i) const {
  if (!inRange(i)) return -1;
  switch (kind_) {
  case DistKind::Block:
  case DistKind::GeneralBlock: {
    int64_t s = segStart(p), e = segEnd(p), q = pos(i);
    if (s == e || q < s - ovl_ || q >= e + ovr_) return -1;
    return ovl_ + (q - s);
  }
  case DistKind::Cyclic:
  case DistKind::BlockCyclic:
  case DistKind::Indirect:
    return owner(i) == p ? localIndex(i) : -1;
  case DistKind::Replicated:
  case DistKind::Collapsed:
    return i - lower_;
  }
  return -1;
}

} // namespace dlayout::rt
