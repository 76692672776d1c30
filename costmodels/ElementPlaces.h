//===- costmodels/ElementPlaces.h - Where a reference's elements lie -*- C++ -*-===//
//
// Beyond the thesis: the counted walks (CountedFetch.h) follow each
// instance of a loop nest to the processors holding the elements it names.
// A place is where an element lies on the mesh, as one number (Places); a
// Locator gives, at loop indices, a reference's element (its linear id in
// its array, -1 outside it) and its place, by Eq. 2.1's owner function on
// each distributed dimension. Walking the innermost loop, a Locator steps
// from one instance to the next without dividing (start, advance), and
// says how many instances keep the element's place and its side of the
// array's bounds (steady): a run of a BLOCK dimension is counted at once.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/LayoutView.h"
#include "costmodels/ProgramAnalysis.h"
#include "costmodels/SubReference.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

namespace dlayout::cost {

/// The most places (Places::count) a counted mesh may have.
inline constexpr int64_t kMostPlaces = int64_t(1) << 16;

/// Where an element lies on the mesh, as one number: per mesh dimension its
/// owner's coordinate plus one (0 along a dimension the array is
/// replicated over), mixed radix mesh[d] + 1, the first dimension lowest.
class Places {
public:
  explicit Places(const std::vector<int64_t> &mesh) : mesh_(mesh), stride_(mesh.size()) {
    double count = 1;
    for (size_t d = 0; d < mesh.size(); ++d) {
      stride_[d] = int64_t(count);
      count *= double(mesh[d] + 1);
    }
    count_ = count <= double(kMostPlaces) ? int64_t(count) : -1;
  }
  /// How many numbers there are; -1 where more than kMostPlaces.
  int64_t count() const { return count_; }
  int64_t stride(size_t d) const { return stride_[d]; }
  /// The place of what every processor holds (-1 along every dimension).
  static constexpr int64_t everywhere() { return 0; }
  /// The place of the processor at 0 along every dimension.
  int64_t origin() const {
    int64_t at = 0;
    for (int64_t s : stride_)
      at += s;
    return at;
  }
  /// A coordinate per mesh dimension, -1 for every one.
  void decode(int64_t at, std::vector<int64_t> &out) const {
    for (size_t d = 0; d < out.size(); ++d)
      out[d] = at / stride_[d] % (mesh_[d] + 1) - 1;
  }

private:
  const std::vector<int64_t> &mesh_;
  std::vector<int64_t> stride_;
  int64_t count_ = 0;
};

/// Instances from value v on, moving by d (not 0) an instance, before v
/// crosses a bound of [lo, hi] (the largest number where it never does).
inline int64_t instancesWithin(int64_t v, int64_t d, int64_t lo, int64_t hi) {
  if (v >= lo && v <= hi)
    return d > 0 ? (hi - v) / d + 1 : (v - lo) / -d + 1;
  if (v < lo && d > 0)
    return (lo - v + d - 1) / d;
  if (v > hi && d < 0)
    return (v - hi - d - 1) / -d;
  return std::numeric_limits<int64_t>::max();
}

/// An affine subscript's owner coordinate (Eq. 2.1: block, cyclic,
/// block-cyclic) as its value moves by d an instance along a loop: kept as
/// the value's offset in its block and the block's coordinate, with the
/// instances left in the block, so that a step divides only where it
/// leaves one.
class OwnerCursor {
public:
  /// At value v of dd's dimension (ownerCoordinate(dd, v) has a value).
  OwnerCursor(const DimDist &dd, int64_t v, int64_t d)
      : b_(dd.block), n_(std::max<int64_t>(dd.procs, 1)), d_(d) {
    const int64_t B = floorDiv(v - dd.offset, b_);
    r_ = v - dd.offset - B * b_;
    c_ = floorMod(B, n_);
    left_ = blockLeft();
  }
  int64_t coordinate() const { return c_; }
  /// Instances after which the coordinates repeat: the value crosses b * N
  /// elements, a whole round of the blocks, every (b N) / gcd(|d|, b N).
  int64_t period() const {
    const int64_t round = b_ * n_;
    return d_ == 0 ? 1 : round / std::gcd(d_ < 0 ? -d_ : d_, round);
  }
  /// Instances from this one on in the block (the largest number where d
  /// is 0).
  int64_t left() const { return left_; }
  /// n instances on, at most left(): the coordinate's change.
  int64_t advance(int64_t n) {
    r_ += n * d_;
    if ((left_ -= n) > 0)
      return 0;
    const int64_t B = b_ == 1 ? r_ : floorDiv(r_, b_), was = c_;
    r_ -= B * b_;
    c_ += B;
    if (c_ < 0 || c_ >= n_)
      c_ = floorMod(c_, n_);
    left_ = blockLeft();
    return c_ - was;
  }

private:
  int64_t blockLeft() const {
    if (d_ == 0)
      return std::numeric_limits<int64_t>::max();
    if (d_ >= b_ || -d_ >= b_)
      return 1;
    return d_ > 0 ? (b_ - 1 - r_) / d_ + 1 : r_ / -d_ + 1;
  }
  int64_t b_, n_, d_, r_ = 0, c_ = 0, left_ = 0;
};

/// Where a reference's elements lie: at loop indices, the element's linear
/// id in its array (-1: outside it), and its holders' place (Places).
class Locator {
public:
  Locator(const RefFacts &r, const ArrayDist &ad, const std::vector<int64_t> &mesh,
          const Places &places)
      : r_(r), ad_(ad), value_(r.subs.size()), inside_(r.subs.size()) {
    known_ = r.subs.size() == ad.dims.size() && places.count() > 0;
    for (size_t d = 0; d < mesh.size() && known_; ++d) {
      const int k = d < ad.dimOnMesh.size() ? ad.dimOnMesh[d] : -1;
      if (k < 0 || !ad.dims[size_t(k)].onMesh())
        continue;
      const DimDist &dd = ad.dims[size_t(k)];
      known_ = ownerCoordinate(dd, dd.lower).has_value(); // Eq. 2.1 applies
      onMesh_.push_back({size_t(k), places.stride(d), &dd});
    }
  }
  /// Every owner follows Eq. 2.1 (block, cyclic, block-cyclic).
  bool known() const { return known_; }
  /// False where a subscript is not affine in the indices.
  bool locate(const std::vector<int64_t> &index, int64_t &element, int64_t &at) {
    element = 0;
    int64_t stride = 1;
    bool inside = true;
    for (size_t k = 0; k < value_.size(); ++k) {
      auto v = valueAt(r_.subs[k], index);
      if (!v)
        return false;
      const DimDist &dd = ad_.dims[k];
      value_[k] = *v;
      inside = inside && *v >= dd.lower && *v < dd.lower + dd.extent;
      element += (*v - dd.lower) * stride;
      stride *= dd.extent;
    }
    if (!inside)
      element = -1;
    at = 0;
    for (const OnMesh &o : onMesh_)
      at += (*ownerCoordinate(*o.dist, value_[o.dim]) + 1) * o.stride;
    return true;
  }
  /// Walking the loop at position q, its index stepping by s, from the
  /// instance locate() was last given: start(q, s) there, then steady()
  /// instances from the current one on keep its element inside (or
  /// outside) the array and its place (element(), at()), along them the
  /// element's id moving by elementStep() each; advance(n) moves on n
  /// instances, at most steady(). Each dimension keeps how many instances
  /// are left before its element crosses a bound or a block (Eq. 2.1's), so
  /// that a step divides only where it crosses one.
  void start(int q, int64_t s) {
    moving_.clear(), turning_.clear();
    linear_ = 0, step_ = 0, outside_ = 0, at_ = 0;
    int64_t stride = 1;
    for (size_t k = 0; k < value_.size(); ++k) {
      const DimDist &dd = ad_.dims[k];
      const int64_t v = value_[k], d = r_.subs[k].alphaAt(q) * s;
      linear_ += (v - dd.lower) * stride;
      step_ += d * stride;
      stride *= dd.extent;
      inside_[k] = v >= dd.lower && v < dd.lower + dd.extent;
      outside_ += !inside_[k];
      if (d != 0)
        moving_.push_back({k, d, instancesWithin(v, d, dd.lower, dd.lower + dd.extent - 1)});
    }
    for (const OnMesh &o : onMesh_) {
      const int64_t d = r_.subs[o.dim].alphaAt(q) * s;
      const OwnerCursor owner(*o.dist, value_[o.dim], d);
      at_ += (owner.coordinate() + 1) * o.stride;
      if (d != 0)
        turning_.push_back({o.stride, owner});
    }
  }
  int64_t steady() const {
    int64_t n = std::numeric_limits<int64_t>::max();
    for (const Moving &m : moving_)
      n = std::min(n, m.left);
    for (const Turning &t : turning_)
      n = std::min(n, t.owner.left());
    return n;
  }
  /// Instances from the current one on whose elements all keep its side of
  /// the array's bounds (the largest number where no subscript moves).
  int64_t withinBounds() const {
    int64_t n = std::numeric_limits<int64_t>::max();
    for (const Moving &m : moving_)
      n = std::min(n, m.left);
    return n;
  }
  /// Instances after which the place repeats (OwnerCursor::period, over
  /// the dimensions on the mesh); at most `most`, or `most` + 1 where the
  /// period is longer.
  int64_t period(int64_t most) const {
    int64_t t = 1;
    for (const Turning &tu : turning_)
      if ((t = std::lcm(t, tu.owner.period())) > most)
        return most + 1;
    return t;
  }
  int64_t element() const { return outside_ > 0 ? -1 : linear_; }
  int64_t at() const { return at_; }
  int64_t elementStep() const { return step_; }
  void advance(int64_t n) {
    linear_ += n * step_;
    for (Moving &m : moving_) {
      value_[m.dim] += n * m.d;
      if ((m.left -= n) > 0)
        continue;
      const DimDist &dd = ad_.dims[m.dim];
      const int64_t v = value_[m.dim];
      const bool in = v >= dd.lower && v < dd.lower + dd.extent;
      outside_ += int(inside_[m.dim]) - int(in);
      inside_[m.dim] = in;
      m.left = instancesWithin(v, m.d, dd.lower, dd.lower + dd.extent - 1);
    }
    for (Turning &t : turning_)
      at_ += t.owner.advance(n) * t.stride;
  }

private:
  struct OnMesh {
    size_t dim;     // the array dimension
    int64_t stride; // of its mesh dimension in the place's number
    const DimDist *dist;
  };
  /// A dimension whose subscript moves along the walked loop: by d an
  /// instance, `left` instances before it crosses a bound of the array.
  struct Moving {
    size_t dim;
    int64_t d, left;
  };
  /// A dimension on the mesh whose subscript moves along the walked loop.
  struct Turning {
    int64_t stride; // of its mesh dimension in the place's number
    OwnerCursor owner;
  };

  const RefFacts &r_;
  const ArrayDist &ad_;
  std::vector<OnMesh> onMesh_;
  std::vector<int64_t> value_;
  std::vector<char> inside_;
  std::vector<Moving> moving_;
  std::vector<Turning> turning_;
  int64_t linear_ = 0, step_ = 0, at_ = 0;
  int outside_ = 0;
  bool known_ = true;
};

} // namespace dlayout::cost
