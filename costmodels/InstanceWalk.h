//===- costmodels/InstanceWalk.h - A read's instances, walked -*- C++ -*-===//
//
// Beyond the thesis: the walk a counted fetch (CountedFetch.h) takes over
// one read's instances, in the order the validate executor enumerates them
// -- every instance of the loops inside the fetch's placement, those
// around it at one index each (a sample's, OuterSamples.h) -- a run of the
// innermost loop at a time along which the operand's element and the lhs
// element keep their places (Locator::steady, ElementPlaces.h). Where the
// places along a row repeat every T instances and runs are shorter (cyclic
// owners), a run is instead a residue of the row modulo T: its instances
// T apart, T runs a row rather than one per instance. Each run is given
// as its first instance (a Read: the operand's element, where it lies,
// where the lhs element lies), the step of the operand's element from one
// of its instances to the next, and its length.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/CountedFetch.h"
#include "costmodels/ElementPlaces.h"
#include "costmodels/OuterSamples.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <tuple>
#include <vector>

namespace dlayout::cost::detail {

/// The most elements an array counted may have (their linear ids).
inline constexpr int64_t kMostElements = int64_t(1) << 40;

/// An array's elements, as a double (the product of its extents).
inline double elementsOf(const ArrayDist &ad) {
  double elements = 1;
  for (const DimDist &dd : ad.dims)
    elements *= double(std::max<int64_t>(dd.extent, 1));
  return elements;
}

/// Not more than kMostElements elements.
inline bool countable(const ArrayDist &ad) { return elementsOf(ad) <= double(kMostElements); }

/// Whether no two instances of the loops at positions [from, to) read one
/// element through `r`: its subscripts, affine, as a map of those loops'
/// indices, have full column rank (such a map is one to one).
bool readsDistinct(const RefFacts &r, int from, int to);

/// One instance of a counted fetch: the operand's element (its linear id),
/// where it lies and where the lhs element lies (Places).
struct Read {
  int64_t element, rhsAt, lhsAt;
  bool operator<(const Read &o) const {
    return std::tie(element, lhsAt) < std::tie(o.element, o.lhsAt);
  }
  bool operator==(const Read &o) const { return element == o.element && lhsAt == o.lhsAt; }
};

/// One read's instances as the executor enumerates them: every instance of
/// the loops inside the placement, those around it at one index each, a run
/// of the innermost loop at a time. known() is false where the read is not
/// counted (CountedFetch.h).
class InstanceWalk {
public:
  InstanceWalk(const CountedRead &r, const LayoutView &lv, const Places &places, int placement)
      : sf_(*r.sf), rf_(*r.rf), places_(places), placement_(placement),
        m_(int(sf_.loops.size())), index_(size_t(m_), 0),
        rhs_(rf_.ref, lv.arrays[size_t(rf_.ref.array)], lv.mesh, places) {
    const StatementFacts &sf = sf_;
    const RhsFacts &rf = rf_;
    // An array element's owners run each instance; a replicated scalar's,
    // every processor.
    if ((!sf.hasLhs && !sf.replicatedScalar()) || sf.hasHome || !sf.alsoRunBy.empty() ||
        rf.toHome || rf.everyProcessor || rf.splitLoop >= 0 || (sf.hasLhs && sf.lhs.array < 0) ||
        !rhs_.known())
      return;
    if (sf.hasLhs) {
      const ArrayDist &lhsDist = lv.arrays[size_t(sf.lhs.array)];
      if (!countable(lhsDist) || !lhs_.emplace(sf.lhs, lhsDist, lv.mesh, places).known())
        return;
    }
    // The loops around the placement at one index each: a sample's, or any
    // that neither a subscript nor an inner bound reads.
    for (int q = 0; q <= placement && q < m_; ++q) {
      if (auto at = sf.loops[size_t(q)].onlyIndex()) {
        index_[size_t(q)] = *at;
        continue;
      }
      auto readsIndex = [&](const RefFacts &ref) {
        return std::any_of(ref.subs.begin(), ref.subs.end(),
                           [&](const SubscriptForm &f) { return f.alphaAt(q) != 0; });
      };
      bool used = readsIndex(sf.lhs) || readsIndex(rf.ref);
      for (int l = placement + 1; l < m_ && !used; ++l)
        used = sf.loops[size_t(l)].boundsVaryWith(q);
      if (used)
        return;
    }
    // Not walked where Fig. 3.2's trips already say there are too many (nor
    // past as many instances counted as it runs: a triangle can hold more
    // than its mean row times its rows).
    double expected = 1;
    for (int l = placement + 1; l < m_; ++l)
      expected *= std::max(sf.loops[size_t(l)].trips, 1.0);
    known_ = expected <= double(kMostCountedInstances);
  }

  bool known() const { return known_; }
  /// No two instances read one element.
  bool distinct() const { return readsDistinct(rf_.ref, placement_ + 1, m_); }

  /// Calls take(first, step, n) for each run of n instances at which both
  /// elements keep their places (Locator::steady; or a row's residue, its
  /// instances a period apart), the operand's element moving by `step`
  /// from one to the next: the first instance's operand element, where it lies
  /// and where its lhs element lies (its holders run the instance; processor
  /// 0 where the lhs element is outside the array; every processor for a
  /// replicated scalar). False where a subscript or bound is not affine,
  /// or the instances are more than kMostCountedInstances (having taken
  /// some).
  template <typename Take> bool run(Take &&take) {
    Read r;
    if (placement_ + 1 >= m_) // one instance
      return locate(r) && (take(r, 0, 1), true);
    const int q = m_ - 1;
    const int64_t s = sf_.loops[size_t(q)].signedStep();
    int64_t instances = 0;
    return forEachRow(sf_.loops, size_t(placement_ + 1), index_, [&](int64_t left) {
      if ((instances += left) > kMostCountedInstances || !locate(r))
        return false;
      if (lhs_)
        lhs_->start(q, s);
      rhs_.start(q, s);
      if (periodic(left)) {
        // Places repeating every T instances (cyclic owners) on a row that
        // crosses no bound: the instances of each of its first T at once,
        // T apart.
        const int64_t T = period(), step = rhs_.elementStep();
        for (int64_t k = 0; k < T; ++k) {
          r.element = rhs_.element(), r.rhsAt = rhs_.at(), r.lhsAt = lhsPlace();
          take(r, step * T, (left - k + T - 1) / T);
          if (k + 1 < T) {
            if (lhs_)
              lhs_->advance(1);
            rhs_.advance(1);
          }
        }
        return true;
      }
      for (;;) {
        const int64_t n = std::min({lhs_ ? lhs_->steady() : left, rhs_.steady(), left});
        r.element = rhs_.element(), r.rhsAt = rhs_.at(), r.lhsAt = lhsPlace();
        take(r, rhs_.elementStep(), n);
        if ((left -= n) <= 0)
          return true;
        if (lhs_)
          lhs_->advance(n);
        rhs_.advance(n);
      }
    });
  }

private:
  /// The instances of a row after which both elements' places repeat (the
  /// same on every row: the steps and distributions are), at most
  /// kMostCountedInstances + 1; found at the first row.
  int64_t period() {
    constexpr int64_t most = kMostCountedInstances;
    if (period_ == 0) {
      const int64_t t = rhs_.period(most);
      period_ = lhs_ && t <= most ? std::min(std::lcm(t, lhs_->period(most)), most + 1) : t;
    }
    return period_;
  }
  /// A row of `left` instances, from the current one, is taken a period at
  /// a time (T takes, not one per run): its places repeat at least twice,
  /// more times than a run has instances, and none of its elements crosses
  /// a bound of its array.
  bool periodic(int64_t left) {
    const int64_t T = period();
    if (T <= 1 || T > left / 2)
      return false;
    const int64_t run = std::min(lhs_ ? lhs_->steady() : left, rhs_.steady());
    return run < left / T && rhs_.withinBounds() >= left &&
           (!lhs_ || lhs_->withinBounds() >= left);
  }
  bool locate(Read &r) {
    int64_t lhsElement = 0;
    if (!rhs_.locate(index_, r.element, r.rhsAt) ||
        (lhs_ && !lhs_->locate(index_, lhsElement, r.lhsAt)))
      return false;
    if (!lhs_)
      r.lhsAt = Places::everywhere();
    else if (lhsElement < 0)
      r.lhsAt = places_.origin();
    return true;
  }
  int64_t lhsPlace() const {
    if (!lhs_)
      return Places::everywhere();
    return lhs_->element() < 0 ? places_.origin() : lhs_->at();
  }

  const StatementFacts &sf_;
  const RhsFacts &rf_;
  const Places &places_;
  const int placement_, m_;
  std::vector<int64_t> index_;
  Locator rhs_;
  std::optional<Locator> lhs_; // none: a replicated scalar's
  bool known_ = false;
  int64_t period_ = 0; // period(): 0 until the first row
};

} // namespace dlayout::cost::detail
