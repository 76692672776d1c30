//===- costmodels/SubReference.cpp - Traversal and synchrony --------------===//

#include "costmodels/SubReference.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

namespace dlayout::cost {

namespace {

/// x * terms(a) == y * terms(b), as maps from loop position to coefficient.
bool scaledTermsEqual(const Beta &a, int64_t x, const Beta &b, int64_t y) {
  if (a.terms.overflow() || b.terms.overflow())
    return false;
  if (a.opaque || b.opaque) {
    if (!a.opaque || !b.opaque || !(*a.opaque == *b.opaque) || x != y)
      return false;
  }
  size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    int pa = i < a.terms.size() ? a.terms[i].first : INT32_MAX;
    int pb = j < b.terms.size() ? b.terms[j].first : INT32_MAX;
    int64_t ca = 0, cb = 0;
    if (pa <= pb)
      ca = a.terms[i++].second;
    if (pb <= pa)
      cb = b.terms[j++].second;
    if (x * ca != y * cb)
      return false;
  }
  return true;
}

/// terms(b) / alpha has integer coefficients (so floor() passes through it).
bool termsDivisible(const Beta &b, int64_t alpha) {
  for (const auto &[p, c] : b.terms)
    if (c % alpha != 0)
      return false;
  return true;
}

bool singles(const SubRef &a, const SubRef &b) {
  return a.kind == SubRef::Single && b.kind == SubRef::Single && a.dist &&
         b.dist && a.alpha != 0 && b.alpha != 0;
}

} // namespace

double iterationsPerProcessor(int64_t alpha, const LoopRange &l, int64_t N,
                              int64_t b) {
  if (l.trips <= 0)
    return 0;
  if (N <= 1)
    return l.trips;
  double a = double(std::llabs(alpha));
  double s = double(l.step);
  double perBlock = std::floor(double(b) / (a * s)); // iterations per block
  double ar = a * l.range;
  if (perBlock < 1) {
    // Stride longer than a block (the thesis's regularity condition fails):
    // each iteration lands in a new block. With b dividing the stride the
    // owners cycle through N / gcd(N, stride / b) processors.
    int64_t stride = std::llabs(alpha) * l.step;
    double visited = double(std::min<int64_t>(N, int64_t(std::ceil(l.trips))));
    if (b > 0 && stride % b == 0)
      visited =
          std::min(visited, double(N / std::gcd(N, (stride / b) % N == 0
                                                       ? N
                                                       : (stride / b) % N)));
    return std::ceil(l.trips / std::max(1.0, visited));
  }
  double cycle = double(N) * double(b);
  double full = std::floor(ar / cycle); // region P, per processor
  double rest = std::fmod(ar, cycle);   // region Q
  return perBlock * full + std::min(perBlock, std::ceil(rest / (a * s)));
}

namespace {

/// The indices alpha * j + beta a loop takes, ascending (x0, x0 + dx, ...,
/// trips of them), and the blocks of the distribution they cross.
struct Crossing {
  int64_t trips = 0, dx = 0, x0 = 0, first = 0, last = 0;
  const DimDist *d = nullptr;
  int64_t procs() const { return std::max<int64_t>(d->procs, 1); }
  /// Iterations whose index lies in block k: [lo, lo + b - 1].
  int64_t inBlock(int64_t k) const {
    int64_t lo = d->offset + k * d->block;
    int64_t t1 = std::max<int64_t>(0, -floorDiv(x0 - lo, dx));
    int64_t t2 = std::min(trips - 1, floorDiv(lo + d->block - 1 - x0, dx));
    return std::max<int64_t>(0, t2 - t1 + 1);
  }
  size_t processorOf(int64_t k) const { return size_t(((k % procs()) + procs()) % procs()); }
};

/// nullopt for kinds other than block, cyclic and block-cyclic, or a
/// fractional first index or trip count.
std::optional<Crossing> crossing(int64_t alpha, int64_t beta, const LoopRange &l,
                                 const DimDist &d) {
  if (!ownerCoordinate(d, 0) || l.trips != std::floor(l.trips) ||
      l.first != std::floor(l.first) || l.trips > double(int64_t(1) << 40))
    return std::nullopt;
  Crossing c;
  c.d = &d;
  c.trips = std::max<int64_t>(int64_t(l.trips), 0);
  c.dx = alpha * (l.ascending ? l.step : -l.step);
  c.x0 = alpha * int64_t(l.first) + beta; // index of the first iteration
  if (c.dx < 0) // the same indices, ascending
    c.x0 += (c.trips - 1) * c.dx, c.dx = -c.dx;
  if (c.dx != 0 && c.trips > 0) {
    c.first = floorDiv(c.x0 - d.offset, d.block);
    c.last = floorDiv(c.x0 + (c.trips - 1) * c.dx - d.offset, d.block);
  }
  return c;
}

} // namespace

std::optional<std::vector<int64_t>> iterationsOnEachProcessor(int64_t alpha, int64_t beta,
                                                              const LoopRange &l,
                                                              const DimDist &d) {
  auto c = crossing(alpha, beta, l, d);
  if (!c)
    return std::nullopt;
  const int64_t N = c->procs(), b = d.block;
  std::vector<int64_t> per(size_t(N), 0);
  if (c->trips == 0)
    return per;
  if (c->dx == 0) { // one index: one owner
    per[size_t(*ownerCoordinate(d, c->x0))] = c->trips;
    return per;
  }
  if (c->last - c->first < N) { // at most N blocks: each on its own processor
    for (int64_t k = c->first; k <= c->last; ++k)
      per[c->processorOf(k)] = c->inBlock(k);
    return per;
  }
  if (c->dx == 1) {
    // Consecutive indices: processor p owns, among the indices below y
    // (offset 0), floor(y / Nb) whole rounds of b plus what of its block
    // the last round reaches.
    int64_t period = N * b;
    auto below = [&](int64_t y, int64_t p) {
      return floorDiv(y, period) * b +
             std::clamp(y - floorDiv(y, period) * period - p * b, int64_t(0), b);
    };
    int64_t lo = c->x0 - d.offset, hi = lo + c->trips;
    for (int64_t p = 0; p < N; ++p)
      per[size_t(p)] = below(hi, p) - below(lo, p);
    return per;
  }
  if (c->last - c->first > (1 << 12))
    return std::nullopt;
  // The owners repeat every Nb / gcd(dx, Nb) iterations: where one period
  // is shorter than the blocks crossed (a stride of several blocks), count
  // it once; iteration t stands for the ceil((trips - t) / period) that
  // share its owner.
  int64_t period = N * b / std::gcd(c->dx, N * b);
  if (std::min(period, c->trips) < c->last - c->first + 1) {
    for (int64_t t = 0; t < std::min(period, c->trips); ++t)
      per[c->processorOf(floorDiv(c->x0 + t * c->dx - d.offset, b))] +=
          (c->trips - t + period - 1) / period;
    return per;
  }
  for (int64_t k = c->first; k <= c->last; ++k)
    per[c->processorOf(k)] += c->inBlock(k);
  return per;
}

std::optional<double> iterationsPerProcessorExact(int64_t alpha, int64_t beta,
                                                  const LoopRange &l,
                                                  const DimDist &d) {
  auto c = crossing(alpha, beta, l, d);
  if (!c)
    return std::nullopt;
  if (c->trips == 0 || c->dx == 0)
    return double(c->trips); // no index, or one: one owner
  if (c->last - c->first < c->procs()) { // each block on its own processor
    int64_t most = 0;
    for (int64_t k = c->first; k <= c->last; ++k)
      most = std::max(most, c->inBlock(k));
    return double(most);
  }
  auto per = iterationsOnEachProcessor(alpha, beta, l, d);
  if (!per)
    return std::nullopt;
  return double(*std::max_element(per->begin(), per->end()));
}

double les(const SubRef &s, const LoopRange &l) {
  if (s.kind != SubRef::Single || !s.dist)
    return 1;
  if (!s.dist->onMesh())
    return 1;
  double a = double(std::llabs(s.alpha));
  return std::min(double(s.dist->procs),
                  std::ceil(a * l.range / double(s.dist->block)));
}

double mlis(const SubRef &s, const LoopRange &l) {
  if (s.kind != SubRef::Single || !s.dist)
    return 1;
  int64_t N = s.dist->onMesh() ? s.dist->procs : 1;
  return iterationsPerProcessor(s.alpha, l, N, s.dist->block);
}

bool strictlySynchronous(const SubRef &sr1, const SubRef &sr2) {
  if (!singles(sr1, sr2))
    return false;
  const DimDist &d1 = *sr1.dist, &d2 = *sr2.dist;
  if (d1.meshDim != d2.meshDim || d1.procs != d2.procs)
    return false; // the same processor numbers need the same mesh dimension
  int64_t a1 = sr1.alpha, a2 = sr2.alpha, b1 = d1.block, b2 = d2.block;
  int64_t c1 = sr1.beta.constant - d1.offset,
          c2 = sr2.beta.constant - d2.offset;
  // Set 1: alpha1/b1 = alpha2/b2 and (beta1 - o1)/b1 = (beta2 - o2)/b2.
  if (a1 * b2 == a2 * b1 && scaledTermsEqual(sr1.beta, b2, sr2.beta, b1) &&
      b2 * c1 == b1 * c2)
    return true;
  // Set 2: b1 = m alpha1, b2 = m alpha2, floor((beta1 - o1)/alpha1) =
  // floor((beta2 - o2)/alpha2).
  if (b1 % a1 == 0 && b2 % a2 == 0 && b1 / a1 == b2 / a2 && b1 / a1 > 0 &&
      termsDivisible(sr1.beta, a1) && termsDivisible(sr2.beta, a2) &&
      scaledTermsEqual(sr1.beta, a2, sr2.beta, a1) &&
      floorDiv(c1, a1) == floorDiv(c2, a2))
    return true;
  return false;
}

bool wholeRoundsApart(const SubRef &sr1, const SubRef &sr2) {
  if (!singles(sr1, sr2))
    return false;
  const DimDist &d1 = *sr1.dist, &d2 = *sr2.dist;
  auto wraps = [](const DimDist &d) {
    return (d.kind == DistKind::Cyclic || d.kind == DistKind::BlockCyclic) && !d.blocked();
  };
  if (!wraps(d1) || !wraps(d2) || d1.meshDim != d2.meshDim || d1.procs != d2.procs ||
      d1.procs < 2 || d1.block != d2.block || sr1.alpha != sr2.alpha ||
      !scaledTermsEqual(sr1.beta, 1, sr2.beta, 1))
    return false;
  const int64_t c1 = sr1.beta.constant - d1.offset, c2 = sr2.beta.constant - d2.offset;
  return (c1 - c2) % (d1.block * d1.procs) == 0;
}

namespace {
/// Theorem 4.2 for an integer k >= 1.
bool kSyncInteger(const SubRef &sr1, const SubRef &sr2, int64_t k) {
  const DimDist &d1 = *sr1.dist, &d2 = *sr2.dist;
  int64_t a1 = sr1.alpha, a2 = sr2.alpha, b1 = d1.block, b2 = d2.block;
  int64_t c1 = sr1.beta.constant - d1.offset,
          c2 = sr2.beta.constant - d2.offset;
  // Set 1: alpha1/b1 = k alpha2/b2 and (beta1 - o1)/b1 = k (beta2 - o2)/b2 + l.
  if (a1 * b2 == k * a2 * b1 &&
      scaledTermsEqual(sr1.beta, b2, sr2.beta, k * b1)) {
    int64_t diff = b2 * c1 - k * b1 * c2;
    if (diff % (b1 * b2) == 0)
      return true;
  }
  // Set 2: b1 = m alpha1, b2 = k m alpha2, floor((beta1 - o1)/alpha1) =
  // floor((beta2 - o2)/alpha2) + m l.
  if (b1 % a1 == 0 && b1 / a1 > 0) {
    int64_t m = b1 / a1;
    if (b2 == k * m * a2 && termsDivisible(sr1.beta, a1) &&
        termsDivisible(sr2.beta, a2) &&
        scaledTermsEqual(sr1.beta, a2, sr2.beta, a1) &&
        (floorDiv(c1, a1) - floorDiv(c2, a2)) % m == 0)
      return true;
  }
  return false;
}
} // namespace

std::optional<SyncRatio> kSynchronous(const SubRef &sr1, const SubRef &sr2) {
  if (!singles(sr1, sr2))
    return std::nullopt;
  // k = (alpha1 b2) / (alpha2 b1) must be a positive integer or 1/integer.
  int64_t num = sr1.alpha * sr2.dist->block;
  int64_t den = sr2.alpha * sr1.dist->block;
  if ((num > 0) != (den > 0))
    return std::nullopt; // opposite directions
  num = std::llabs(num);
  den = std::llabs(den);
  if (num % den == 0) {
    int64_t k = num / den;
    if (kSyncInteger(sr1, sr2, k))
      return SyncRatio{k, 1};
  } else if (den % num == 0) {
    int64_t q = den / num; // sr2 is q-synchronous with sr1
    if (kSyncInteger(sr2, sr1, q))
      return SyncRatio{1, q};
  }
  return std::nullopt;
}

double speedRatio(const SubRef &sr1, const SubRef &sr2) {
  if (!singles(sr1, sr2))
    return 1;
  return double(std::llabs(sr1.alpha) * sr2.dist->block) /
         double(std::llabs(sr2.alpha) * sr1.dist->block);
}

bool boundaryCommunication(const SubRef &sr1, const SubRef &sr2) {
  if (!singles(sr1, sr2) || sr1.dist->meshDim != sr2.dist->meshDim)
    return false;
  const DimDist &d1 = *sr1.dist, &d2 = *sr2.dist;
  int64_t b1 = d1.block, b2 = d2.block;
  // 1. alpha1/b1 = alpha2/b2.
  if (sr1.alpha * b2 != sr2.alpha * b1)
    return false;
  // 2. |(beta1 - o1)/b1 - (beta2 - o2)/b2| <= 1.
  if (!scaledTermsEqual(sr1.beta, b2, sr2.beta, b1))
    return false;
  int64_t c1 = sr1.beta.constant - d1.offset,
          c2 = sr2.beta.constant - d2.offset;
  return std::llabs(b2 * c1 - b1 * c2) <= b1 * b2;
}

double boundaryData(const SubRef &sr1, const SubRef &sr2, const LoopRange &l) {
  const DimDist &d1 = *sr1.dist, &d2 = *sr2.dist;
  double s = double(l.step);
  double c1 = double(sr1.beta.constant - d1.offset) / (double(sr1.alpha) * s);
  double c2 = double(sr2.beta.constant - d2.offset) / (double(sr2.alpha) * s);
  double perBoundary = std::ceil(std::fabs(c1 - c2) - 1e-12);
  int64_t N = d2.onMesh() ? d2.procs : 1;
  double blocks = std::ceil(double(std::llabs(sr2.alpha)) * l.range /
                            (double(N) * double(d2.block)));
  return perBoundary * blocks; // Eq. 4.4
}

namespace {
/// The owners (p1 of sr1's element, p2 of sr2's) at every index the loop
/// takes, handed to `visit`; false where they cannot be counted (the
/// conditions of boundaryDataExact).
template <class Visit>
bool forEachOwnerPair(const SubRef &sr1, const SubRef &sr2, const LoopRange &l, Visit visit) {
  // Enumerating more indices than this is left to Eq. 4.4 (the solver
  // evaluates many layouts).
  constexpr double kMaxTrips = 1 << 16;
  if (!singles(sr1, sr2) || sr1.loop != sr2.loop || !sr1.beta.terms.empty() ||
      !sr2.beta.terms.empty() || sr1.beta.opaque || sr2.beta.opaque)
    return false;
  const DimDist &d1 = *sr1.dist, &d2 = *sr2.dist;
  if (d1.meshDim != d2.meshDim || d1.procs != d2.procs || d1.procs <= 1 ||
      l.trips <= 0 || l.trips > kMaxTrips || l.first != std::floor(l.first))
    return false;
  if (!ownerCoordinate(d1, 0) || !ownerCoordinate(d2, 0))
    return false;
  int64_t j = int64_t(l.first), trips = int64_t(l.trips);
  int64_t step = l.ascending ? l.step : -l.step;
  for (int64_t t = 0; t < trips; ++t, j += step)
    visit(*ownerCoordinate(d1, sr1.alpha * j + sr1.beta.constant),
          *ownerCoordinate(d2, sr2.alpha * j + sr2.beta.constant));
  return true;
}

/// The most elements one processor sends or receives.
struct Busiest {
  std::vector<double> sent, received;
  explicit Busiest(int64_t procs)
      : sent(size_t(std::max<int64_t>(procs, 1)), 0),
        received(size_t(std::max<int64_t>(procs, 1)), 0) {}
  void add(int64_t p1, int64_t p2) {
    sent[size_t(p2)] += 1;
    received[size_t(p1)] += 1;
  }
  double max() const {
    return std::max(*std::max_element(sent.begin(), sent.end()),
                    *std::max_element(received.begin(), received.end()));
  }
};
} // namespace

std::optional<Crossings> boundaryDataExact(const SubRef &sr1, const SubRef &sr2,
                                           const LoopRange &l) {
  if (!singles(sr1, sr2)) return std::nullopt;
  Busiest busiest(sr1.dist->procs);
  if (!forEachOwnerPair(sr1, sr2, l, [&](int64_t p1, int64_t p2) {
        if (p1 != p2) busiest.add(p1, p2);
      }))
    return std::nullopt;
  return Crossings{busiest.max(), std::move(busiest.sent)};
}

std::optional<NeighbourData> neighbourDataExact(const SubRef &sr1, const SubRef &sr2,
                                                const LoopRange &l) {
  if (!singles(sr1, sr2)) return std::nullopt;
  Busiest busiest(sr1.dist->procs);
  bool next = false, previous = false, far = false;
  if (!forEachOwnerPair(sr1, sr2, l, [&](int64_t p1, int64_t p2) {
        if (p1 == p2) return;
        busiest.add(p1, p2);
        next = next || p2 == p1 + 1;
        previous = previous || p2 == p1 - 1;
        far = far || std::llabs(p2 - p1) != 1;
      }))
    return std::nullopt;
  if (far || (next && previous)) return std::nullopt;
  return NeighbourData{busiest.max(), next ? -1 : previous ? 1 : 0, std::move(busiest.sent)};
}

std::optional<ExchangeData> exchangeDataExact(const SubRef &sr1, const SubRef &sr2,
                                              const LoopRange &l) {
  if (!singles(sr1, sr2)) return std::nullopt;
  Busiest busiest(sr1.dist->procs);
  std::set<std::pair<int64_t, int64_t>> pairs; // (sender, receiver)
  if (!forEachOwnerPair(sr1, sr2, l, [&](int64_t p1, int64_t p2) {
        if (p1 == p2) return;
        busiest.add(p1, p2);
        pairs.insert({p2, p1});
      }))
    return std::nullopt;
  std::map<int64_t, int64_t> peers;
  int64_t most = 0;
  for (const auto &[from, to] : pairs) most = std::max(most, ++peers[from]);
  return ExchangeData{busiest.max(), most, std::move(busiest.sent)};
}

bool regular(const SubRef &s, const LoopRange &l) {
  if (s.kind != SubRef::Single || !s.dist || !s.dist->onMesh() ||
      s.dist->procs <= 1 || s.dist->blocked())
    return true;
  return s.dist->block % (std::llabs(s.alpha) * l.step) == 0;
}

bool identical(const SubRef &sr1, const SubRef &sr2) {
  if (sr1.kind == SubRef::Missing && sr2.kind == SubRef::Missing)
    return true;
  if (!sr1.dist || !sr2.dist || !sr1.form || !sr2.form ||
      (sr1.kind == SubRef::Replicated) != (sr2.kind == SubRef::Replicated))
    return false;
  const DimDist &d1 = *sr1.dist, &d2 = *sr2.dist;
  if (d1.block != d2.block || d1.offset != d2.offset || d1.procs != d2.procs ||
      d1.meshDim != d2.meshDim || d1.kind != d2.kind)
    return false;
  const SubscriptForm &f1 = *sr1.form, &f2 = *sr2.form;
  if (f1.cls == SubscriptClass::Unknown || f1.cls == SubscriptClass::Indirect)
    return f1.source && f2.source && *f1.source == *f2.source;
  return f1.cls == f2.cls && f1.terms == f2.terms && f1.constant == f2.constant;
}

} // namespace dlayout::cost
