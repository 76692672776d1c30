//===- costmodels/CountedFetch.cpp - A vectorised fetch counted as it runs ===//

#include "costmodels/CountedFetch.h"
#include "costmodels/InstanceWalk.h"
#include "costmodels/SubReference.h"
#include "model/FillOrder.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <span>
#include <tuple>

namespace dlayout::cost {

namespace {

using detail::countable;
using detail::elementsOf;
using detail::InstanceWalk;
using detail::Read;

/// The most places (Places::count) for which the instances of a fetch that
/// reads no element twice are tabled by where their elements lie.
constexpr int64_t kMostTabledPlaces = 256;
/// The most (element, lhs place) pairs a walk marks as it reads them.
constexpr int64_t kMostMarks = int64_t(1) << 22;

/// The most processors for which each element's receivers are kept as a
/// bit set (Scratch::receivers).
constexpr int64_t kMostMaskedProcessors = 64;

/// An element read and where it lies, in the order first read.
struct Touched {
  int64_t element, rhsAt;
};

/// What a walk writes, kept by each thread from one walk to the next: the
/// reads, a second buffer to group them into, and a mark per (element,
/// lhs place), stamped with the walk's number so that none is cleared; or,
/// on a mesh of at most kMostMaskedProcessors, each element's receivers as
/// a bit set (all zero between walks) and the elements with some.
struct Scratch {
  std::vector<Read> reads, grouped;
  std::vector<uint32_t> start, mark;
  uint32_t walk = 0;
  std::vector<uint64_t> receivers;
  std::vector<Touched> touched;
  // countedFetch's tables, refilled by each fetch (allocated once): the
  // processors' coordinates (processor p's D at p * D) of the mesh
  // `coordsOf`; per (sender, receiver) the elements; per processor a stamp,
  // what it sends now and what it sends to all; the runners per place
  // (runnerFirst: where they start in `runnerList`, -1 not yet listed).
  std::vector<int64_t> coordsOf, coords, pairs, seen, sentNow, sending, runnerFirst, runnerList;
  std::vector<uint32_t> runnerCount;
  std::vector<uint64_t> runnerMask; // per place, its runners as a bit set (0: not yet found)
  std::vector<double> toAll;

  /// Starts a walk keeping the receivers of `elements` elements.
  void beginMasking(size_t elements) {
    if (receivers.size() < elements)
      receivers.resize(elements, 0);
    touched.clear();
  }
  /// Adds `to` to element e's receivers, which lies at rhsAt.
  void receive(int64_t e, int64_t rhsAt, uint64_t to) {
    uint64_t &m = receivers[size_t(e)];
    if (m == 0)
      touched.push_back({e, rhsAt});
    m |= to;
  }
  /// Clears every receiver set the walk wrote.
  void endMasking() {
    for (const Touched &t : touched)
      receivers[size_t(t.element)] = 0;
  }

  /// Starts a walk marking `marks` pairs.
  void beginMarking(size_t marks) {
    if (mark.size() < marks)
      mark.resize(marks, 0);
    if (++walk == 0) { // wrapped: every old stamp could match
      std::fill(mark.begin(), mark.end(), 0);
      walk = 1;
    }
  }
  /// False where `key` is marked in this walk already; marks it.
  bool markOnce(size_t key) {
    if (mark[key] == walk)
      return false;
    mark[key] = walk;
    return true;
  }
};

Scratch &scratch() {
  thread_local Scratch s;
  return s;
}

/// Reorders `s.reads` so that those of one element are adjacent, a repeated
/// (element, lhs holder) dropped where it follows itself: a counting sort
/// by element where the operand has few elements beside the reads, else a
/// comparison sort (each pair once).
void groupByElement(Scratch &s, double elements) {
  std::vector<Read> &reads = s.reads;
  if (elements > double(16 * reads.size() + 4096)) {
    std::sort(reads.begin(), reads.end());
    reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
    return;
  }
  std::vector<uint32_t> &start = s.start;
  start.assign(size_t(elements) + 1, 0);
  for (const Read &r : reads)
    ++start[size_t(r.element) + 1];
  for (size_t e = 1; e < start.size(); ++e)
    start[e] += start[e - 1];
  std::vector<Read> &grouped = s.grouped;
  grouped.resize(reads.size());
  for (const Read &r : reads)
    grouped[start[size_t(r.element)]++] = r;
  grouped.erase(std::unique(grouped.begin(), grouped.end()), grouped.end());
  std::swap(reads, grouped);
}

/// A processor's linear id, the first mesh dimension fastest
/// (meshCoordinates()'s order).
int64_t idOf(const std::vector<int64_t> &at, const std::vector<int64_t> &mesh) {
  int64_t id = 0, stride = 1;
  for (size_t d = 0; d < mesh.size(); ++d) {
    id += at[d] * stride;
    stride *= mesh[d];
  }
  return id;
}

/// Each processor's words over `most`, the busiest's (Senders::Joint).
Senders jointOf(const std::vector<int64_t> &mesh, std::vector<double> words, double most) {
  for (double &w : words)
    w = most > 0 ? w / most : 0;
  Senders s;
  s.joint = Senders::Joint::overMesh(mesh, std::move(words));
  return s;
}

ComposedTerm termOf(Primitive p, double words, int64_t group, double count, int meshDim,
                    int64_t span, Senders senders, const char *rule) {
  ComposedTerm t;
  t.prim = p;
  t.words = words;
  t.group = group;
  t.count = count;
  t.meshDim = meshDim;
  t.span = span;
  t.senders = std::move(senders);
  t.rule = rule;
  return t;
}

/// The elements several senders each send to every other processor, one
/// mesh dimension at a time (the executor's gatherByDimension): a term per
/// dimension filled.
void fillByDimension(const std::vector<std::vector<int64_t>> &from, const std::vector<double> &size,
                     const std::vector<int64_t> &mesh,
                     const std::vector<std::vector<int64_t>> &coordinates,
                     std::vector<ComposedTerm> &out) {
  std::vector<FillStage> stages;
  for (size_t m = 0; m < mesh.size(); ++m) {
    if (mesh[m] <= 1)
      continue;
    std::vector<int64_t> along;
    for (const auto &c : from)
      along.push_back(c[m]);
    std::sort(along.begin(), along.end());
    const int64_t holders = int64_t(std::unique(along.begin(), along.end()) - along.begin());
    stages.push_back({holders, mesh[m], int(m)});
  }
  sortFillStages(stages);
  std::vector<char> done(mesh.size(), 0);
  for (const FillStage &s : stages) {
    const size_t m = size_t(s.dim);
    // What each processor holds of the senders' elements once the
    // dimensions before are filled: those of the senders agreeing with it
    // on every dimension not yet filled, this one included.
    std::vector<double> held(coordinates.size(), 0.0);
    for (size_t p = 0; p < coordinates.size(); ++p)
      for (size_t b = 0; b < from.size(); ++b) {
        bool agrees = true;
        for (size_t k = 0; k < mesh.size() && agrees; ++k)
          agrees = done[k] || from[b][k] == coordinates[p][k];
        if (agrees)
          held[p] += size[b];
      }
    done[m] = 1;
    const double most = *std::max_element(held.begin(), held.end());
    if (most <= 0)
      continue;
    if (s.holders >= s.size) {
      out.push_back(termOf(Primitive::ManyToManyMulticast, most, s.size, 1, s.dim, s.size,
                           jointOf(mesh, held, most),
                           "counted as it runs: filled one mesh dimension at a time, every "
                           "coordinate a holder: ManyToManyMulticast along it"));
      continue;
    }
    // The holders of a line multicast in turn: h times the line's mean.
    double lineMost = 0;
    int64_t holdersMost = 1;
    for (size_t p = 0; p < coordinates.size(); ++p) {
      if (coordinates[p][m] != 0)
        continue; // each line once, by its first processor
      double line = 0;
      int64_t holders = 0;
      std::vector<int64_t> at = coordinates[p];
      for (int64_t c = 0; c < mesh[m]; ++c) {
        at[m] = c;
        const double h = held[size_t(idOf(at, mesh))];
        line += h;
        holders += h > 0;
      }
      lineMost = std::max(lineMost, line);
      holdersMost = std::max(holdersMost, holders);
    }
    const double words = lineMost / double(holdersMost);
    out.push_back(termOf(Primitive::OneToManyMulticast, words, s.size, double(holdersMost), s.dim,
                         s.size, jointOf(mesh, held, words * double(holdersMost)),
                         "counted as it runs: filled one mesh dimension at a time, each holder "
                         "of a line in turn: h OneToManyMulticast along it"));
  }
}

} // namespace

std::optional<std::vector<ComposedTerm>> countedFetch(std::span<const CountedRead> reads,
                                                      const LayoutView &lv, int placement) {
  if (reads.empty() || lv.procs > kMostCountedProcessors)
    return std::nullopt;
  const int array = reads.front().rf->ref.array;
  if (array < 0 || !countable(lv.arrays[size_t(array)]))
    return std::nullopt;
  const ArrayDist &rhsDist = lv.arrays[size_t(array)];
  const std::vector<int64_t> &mesh = lv.mesh;
  const Places places(mesh);
  std::vector<InstanceWalk> walks;
  walks.reserve(reads.size());
  for (const CountedRead &r : reads) {
    if (r.rf->ref.array != array || !walks.emplace_back(r, lv, places, placement).known())
      return std::nullopt;
  }
  const size_t D = mesh.size();
  Scratch &sc = scratch();
  if (sc.coordsOf != mesh) { // meshCoordinates()'s, flat
    sc.coordsOf = mesh;
    sc.coords.clear();
    for (const std::vector<int64_t> &c : meshCoordinates(mesh))
      sc.coords.insert(sc.coords.end(), c.begin(), c.end());
  }
  const int64_t *coords = sc.coords.data();
  int64_t P = 1;
  for (int64_t n : mesh)
    P *= n;
  // Each element once per receiver (the holders of its lhs elements) from
  // the operand's holder nearest it: per sender and receiver the elements,
  // and per sender those it sends to every other processor. `count` takes
  // `weight` elements that lie at place rhsPlace and are read by instances
  // whose lhs elements lie at lhsPlaces.
  std::vector<int64_t> &pairs = sc.pairs, &seen = sc.seen, &sentNow = sc.sentNow,
                       &touched = sc.sending;
  std::vector<double> &toAll = sc.toAll;
  pairs.assign(size_t(P * P), 0);
  seen.assign(size_t(P), -1);
  sentNow.assign(size_t(P), 0);
  toAll.assign(size_t(P), 0.0);
  std::vector<int64_t> lhsAt(D), rhsAt(D), source(D);
  sc.runnerFirst.assign(size_t(places.count()), -1);
  sc.runnerCount.assign(size_t(places.count()), 0);
  sc.runnerList.clear();
  // The processors that run an instance whose lhs element lies at `at`
  // (its holders), listed the first time they are asked for; the span holds
  // until the next call.
  auto runners = [&](int64_t at) -> std::span<const int64_t> {
    int64_t &first = sc.runnerFirst[size_t(at)];
    if (first < 0) {
      first = int64_t(sc.runnerList.size());
      places.decode(at, lhsAt);
      for (int64_t p = 0; p < P; ++p) {
        bool holds = true;
        for (size_t d = 0; d < D && holds; ++d)
          holds = lhsAt[d] < 0 || coords[size_t(p) * D + d] == lhsAt[d];
        if (holds)
          sc.runnerList.push_back(p);
      }
      sc.runnerCount[size_t(at)] = uint32_t(sc.runnerList.size() - size_t(first));
    }
    return {sc.runnerList.data() + first, sc.runnerCount[size_t(at)]};
  };
  int64_t lastRhsAt = -1, fixed = -1, serial = 0;
  bool placed = false;
  // Elements lying at rhsPlace (`lieAt`) are sent to receivers (`deliver`),
  // each once, `weight` of them (`delivered`).
  auto lieAt = [&](int64_t rhsPlace) {
    touched.clear();
    if (rhsPlace != lastRhsAt) {
      lastRhsAt = rhsPlace;
      places.decode(lastRhsAt, rhsAt);
      placed = std::none_of(rhsAt.begin(), rhsAt.end(), [](int64_t c) { return c < 0; });
      fixed = placed ? idOf(rhsAt, mesh) : -1;
    }
  };
  auto deliver = [&](int64_t to, int64_t weight) {
    int64_t from = fixed;
    if (!placed) { // the operand's copy on the receiver's line
      for (size_t d = 0; d < D; ++d)
        source[d] = rhsAt[d] >= 0 ? rhsAt[d] : coords[size_t(to) * D + d];
      from = idOf(source, mesh);
    }
    if (from != to) {
      pairs[size_t(from * P + to)] += weight;
      if (sentNow[size_t(from)]++ == 0)
        touched.push_back(from);
    }
  };
  auto delivered = [&](int64_t weight) {
    for (int64_t from : touched) {
      if (sentNow[size_t(from)] == P - 1)
        toAll[size_t(from)] += double(weight);
      sentNow[size_t(from)] = 0;
    }
  };
  // `weight` elements at rhsPlace read by instances whose lhs elements lie
  // at lhsPlaces.
  auto count = [&](int64_t rhsPlace, const int64_t *lhsPlaces, size_t n, int64_t weight) {
    lieAt(rhsPlace);
    for (size_t i = 0; i < n; ++i)
      for (int64_t to : runners(lhsPlaces[i]))
        if (seen[size_t(to)] != serial) {
          seen[size_t(to)] = serial;
          deliver(to, weight);
        }
    delivered(weight);
    ++serial;
  };

  const int64_t nPlaces = places.count();
  if (walks.size() == 1 && walks.front().distinct() && nPlaces <= kMostTabledPlaces) {
    // No element is read twice: the instances count by where their operand
    // and lhs elements lie, each such pair once with its number.
    std::vector<int64_t> alike(size_t(nPlaces * nPlaces), 0);
    if (!walks.front().run([&](const Read &r, int64_t, int64_t n) {
          if (r.element >= 0) // outside the array: not fetched
            alike[size_t(r.rhsAt * nPlaces + r.lhsAt)] += n;
        }))
      return std::nullopt;
    for (int64_t at = 0; at < nPlaces; ++at)
      for (int64_t lhsPlace = 0; lhsPlace < nPlaces; ++lhsPlace)
        if (const int64_t n = alike[size_t(at * nPlaces + lhsPlace)]; n > 0)
          count(at, &lhsPlace, 1, n);
  } else if (const double marks = elementsOf(rhsDist) * double(nPlaces);
             P <= kMostMaskedProcessors && marks <= double(kMostMarks)) {
    // Each element's receivers gathered as a bit set, then each element
    // counted once.
    const uint64_t everyone = P == 64 ? ~uint64_t(0) : (uint64_t(1) << P) - 1;
    std::vector<uint64_t> &runnerMask = sc.runnerMask;
    runnerMask.assign(size_t(nPlaces), 0);
    auto maskOf = [&](int64_t at) {
      uint64_t &mask = runnerMask[size_t(at)];
      if (mask == 0) // not yet found: every place has some runner
        for (int64_t p : runners(at))
          mask |= uint64_t(1) << p;
      return mask;
    };
    sc.beginMasking(size_t(elementsOf(rhsDist)));
    for (InstanceWalk &w : walks)
      if (!w.run([&](const Read &r, int64_t step, int64_t n) {
            if (r.element < 0) // outside the array: not fetched
              return;
            const uint64_t to = maskOf(r.lhsAt);
            for (int64_t t = 0, element = r.element; t < n && to; ++t, element += step)
              sc.receive(element, r.rhsAt, to);
          })) {
        sc.endMasking();
        return std::nullopt;
      }
    for (const Touched &t : sc.touched) {
      lieAt(t.rhsAt);
      uint64_t m = sc.receivers[size_t(t.element)];
      if (!placed) {
        for (; m; m &= m - 1)
          deliver(int64_t(std::countr_zero(m)), 1);
        delivered(1);
        continue;
      }
      // One sender: deliver() and delivered() at once.
      m &= ~(uint64_t(1) << fixed);
      if (m == (everyone & ~(uint64_t(1) << fixed)))
        toAll[size_t(fixed)] += 1;
      for (int64_t *to = &pairs[size_t(fixed * P)]; m; m &= m - 1)
        ++to[std::countr_zero(m)];
    }
    sc.endMasking();
  } else {
    // A read of an element for an lhs place already seen (by this read or
    // another) adds nothing: it is dropped as it comes where elements times
    // places are few enough to mark, and when grouped otherwise.
    const bool marking = marks <= double(kMostMarks);
    if (marking)
      sc.beginMarking(size_t(marks));
    sc.reads.clear();
    for (InstanceWalk &w : walks)
      if (!w.run([&](const Read &r, int64_t step, int64_t n) {
            if (r.element < 0) // outside the array: not fetched
              return;
            for (int64_t t = 0, element = r.element; t < n; ++t, element += step)
              if (!marking || sc.markOnce(size_t(element * nPlaces + r.lhsAt)))
                sc.reads.push_back({element, r.rhsAt, r.lhsAt});
          }))
        return std::nullopt;
    groupByElement(sc, elementsOf(rhsDist));
    std::vector<int64_t> lhsPlaces;
    for (size_t i = 0; i < sc.reads.size();) {
      lhsPlaces.clear();
      const size_t first = i;
      for (; i < sc.reads.size() && sc.reads[i].element == sc.reads[first].element; ++i)
        lhsPlaces.push_back(sc.reads[i].lhsAt);
      count(sc.reads[first].rhsAt, lhsPlaces.data(), lhsPlaces.size(), 1);
    }
  }
  std::vector<int64_t> receivers(size_t(P), 0);
  std::vector<double> words(size_t(P), 0.0);
  for (int64_t from = 0; from < P; ++from)
    for (int64_t to = 0; to < P; ++to)
      if (const int64_t n = pairs[size_t(from * P + to)]; n > 0) {
        words[size_t(from)] += double(n);
        ++receivers[size_t(from)];
      }
  // Every processor sending to all the others is an all-gather, its
  // messages direct; else (more than two processors) the senders to all
  // fill the mesh with those elements.
  const bool allGather = std::all_of(receivers.begin(), receivers.end(),
                                     [&](int64_t r) { return r == P - 1; });
  std::vector<std::vector<int64_t>> from;
  std::vector<double> size;
  for (int64_t p = 0; p < P; ++p) {
    if (allGather || P <= 2 || receivers[size_t(p)] < P - 1)
      toAll[size_t(p)] = 0;
    if (toAll[size_t(p)] > 0) {
      from.emplace_back(coords + size_t(p) * D, coords + size_t(p + 1) * D);
      size.push_back(toAll[size_t(p)]);
      words[size_t(p)] -= double(P - 1) * toAll[size_t(p)];
    }
  }
  // Direct messages: each sender's other elements to the receivers that
  // get some.
  std::vector<ComposedTerm> out;
  std::vector<int64_t> left(size_t(P), 0);
  for (int64_t p = 0; p < P; ++p)
    for (int64_t to = 0; to < P; ++to)
      left[size_t(p)] += pairs[size_t(p * P + to)] > toAll[size_t(p)];
  const size_t busiest = size_t(std::max_element(words.begin(), words.end()) - words.begin());
  if (words[busiest] > 0) {
    const double S = double(std::max<int64_t>(left[busiest], 1));
    out.push_back(termOf(Primitive::Transfer, words[busiest] / S, 1, S, -1, 1,
                         jointOf(mesh, words, words[busiest]),
                         "counted as it runs: each sender's elements to each receiver, "
                         "S Transfer(W/S)"));
  }
  if (from.size() == 1) {
    std::vector<double> one(size_t(P), 0.0);
    one[size_t(idOf(from.front(), mesh))] = 1;
    out.push_back(termOf(Primitive::OneToManyMulticast, size.front(), P, 1, -1, P,
                         jointOf(mesh, std::move(one), 1),
                         "counted as it runs: one sender's elements to every processor, "
                         "OneToManyMulticast over the mesh"));
  } else if (!from.empty()) {
    fillByDimension(from, size, mesh, meshCoordinates(mesh), out);
  }
  return out;
}

} // namespace dlayout::cost
