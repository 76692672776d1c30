//===- costmodels/CountedFetch.cpp - A vectorised fetch counted as it runs ===//

#include "costmodels/CountedFetch.h"
#include "costmodels/OuterSamples.h"
#include "costmodels/SubReference.h"
#include "model/FillOrder.h"

#include <algorithm>
#include <tuple>

namespace dlayout::cost {

namespace {

constexpr int64_t kMostElements = int64_t(1) << 40;
/// The most places (Places::count) a counted mesh may have.
constexpr int64_t kMostPlaces = int64_t(1) << 16;

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

/// Where a reference's elements lie: at loop indices, the element's linear
/// id in its array (-1: outside it), and its holders' place (Places).
class Locator {
public:
  Locator(const RefFacts &r, const ArrayDist &ad, const std::vector<int64_t> &mesh,
          const Places &places)
      : r_(r), ad_(ad), value_(r.subs.size()) {
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

private:
  struct OnMesh {
    size_t dim;     // the array dimension
    int64_t stride; // of its mesh dimension in the place's number
    const DimDist *dist;
  };
  const RefFacts &r_;
  const ArrayDist &ad_;
  std::vector<OnMesh> onMesh_;
  std::vector<int64_t> value_;
  bool known_ = true;
};

double elementsOf(const ArrayDist &ad) {
  double elements = 1;
  for (const DimDist &dd : ad.dims)
    elements *= double(std::max<int64_t>(dd.extent, 1));
  return elements;
}

bool countable(const ArrayDist &ad) { return elementsOf(ad) <= double(kMostElements); }

/// One instance of a counted fetch: the operand's element (its linear id),
/// where it lies and where the lhs element lies (Places).
struct Read {
  int64_t element, rhsAt, lhsAt;
  bool operator<(const Read &o) const {
    return std::tie(element, lhsAt) < std::tie(o.element, o.lhsAt);
  }
  bool operator==(const Read &o) const { return element == o.element && lhsAt == o.lhsAt; }
};

/// Reorders `reads` so that those of one element are adjacent, a repeated
/// (element, lhs holder) dropped where it follows itself: a counting sort
/// by element where the operand has few elements beside the reads, else a
/// comparison sort (each pair once).
void groupByElement(std::vector<Read> &reads, double elements) {
  if (elements > double(16 * reads.size() + 4096)) {
    std::sort(reads.begin(), reads.end());
    reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
    return;
  }
  std::vector<uint32_t> start(size_t(elements) + 1, 0);
  for (const Read &r : reads)
    ++start[size_t(r.element) + 1];
  for (size_t e = 1; e < start.size(); ++e)
    start[e] += start[e - 1];
  std::vector<Read> grouped(reads.size());
  for (const Read &r : reads)
    grouped[start[size_t(r.element)]++] = r;
  grouped.erase(std::unique(grouped.begin(), grouped.end()), grouped.end());
  reads = std::move(grouped);
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

std::optional<std::vector<ComposedTerm>> countedFetch(const StatementFacts &sf,
                                                      const RhsFacts &rf,
                                                      const LayoutView &lv, int placement) {
  if (!sf.hasLhs || sf.hasHome || !sf.alsoRunBy.empty() || rf.toHome || rf.everyProcessor ||
      rf.splitLoop >= 0 || sf.lhs.array < 0 || rf.ref.array < 0)
    return std::nullopt;
  const ArrayDist &lhsDist = lv.arrays[size_t(sf.lhs.array)];
  const ArrayDist &rhsDist = lv.arrays[size_t(rf.ref.array)];
  if (!countable(lhsDist) || !countable(rhsDist))
    return std::nullopt;
  // The loops around the placement at one index each: a sample's, or any
  // that neither a subscript nor an inner bound reads.
  const int m = int(sf.loops.size());
  std::vector<int64_t> index(size_t(m), 0);
  for (int q = 0; q <= placement && q < m; ++q) {
    if (auto at = sf.loops[size_t(q)].onlyIndex()) {
      index[size_t(q)] = *at;
      continue;
    }
    auto readsIndex = [&](const RefFacts &r) {
      return std::any_of(r.subs.begin(), r.subs.end(),
                         [&](const SubscriptForm &f) { return f.alphaAt(q) != 0; });
    };
    bool used = readsIndex(sf.lhs) || readsIndex(rf.ref);
    for (int l = placement + 1; l < m && !used; ++l)
      used = sf.loops[size_t(l)].boundsVaryWith(q);
    if (used)
      return std::nullopt;
  }
  // Not walked where Fig. 3.2's trips already say there are too many, nor
  // where the instances, counted, are (a triangle holds more than its mean
  // row times its rows).
  double expected = 1;
  for (int l = placement + 1; l < m; ++l)
    expected *= std::max(sf.loops[size_t(l)].trips, 1.0);
  const std::vector<int64_t> &mesh = lv.mesh;
  if (expected > double(kMostCountedInstances) || lv.procs > kMostCountedProcessors)
    return std::nullopt;
  const auto instances = countIterations(sf.loops, size_t(placement + 1), index, kMostCountedInstances);
  if (!instances || *instances > kMostCountedInstances)
    return std::nullopt;
  const std::vector<std::vector<int64_t>> coordinates = meshCoordinates(mesh);
  const int64_t P = int64_t(coordinates.size());
  // Each instance: the operand's element, where it lies, and where the
  // lhs element lies (its holders run the instance).
  const size_t D = mesh.size();
  const Places places(mesh);
  Locator lhs(sf.lhs, lhsDist, mesh, places), rhs(rf.ref, rhsDist, mesh, places);
  if (!lhs.known() || !rhs.known())
    return std::nullopt;
  std::vector<Read> reads;
  reads.reserve(size_t(*instances));
  bool ok = true;
  auto visit = [&] {
    Read r;
    int64_t lhsElement;
    if (!lhs.locate(index, lhsElement, r.lhsAt) || !rhs.locate(index, r.element, r.rhsAt))
      return ok = false;
    if (r.element < 0)
      return true; // outside the array: not fetched
    if (lhsElement < 0)
      r.lhsAt = places.origin(); // run by processor 0
    reads.push_back(r);
    return true;
  };
  if (!forEachIteration(sf.loops, size_t(placement + 1), index, visit) || !ok)
    return std::nullopt;
  groupByElement(reads, elementsOf(rhsDist));

  // Each element once per receiver (the holders of its lhs elements) from
  // the operand's holder nearest it: per sender and receiver the elements,
  // and per sender those it sends to every other processor.
  std::vector<int32_t> pairs(size_t(P * P), 0);
  std::vector<int64_t> seen(size_t(P), -1), sentNow(size_t(P), 0), touched;
  std::vector<double> toAll(size_t(P), 0.0);
  std::vector<int64_t> lhsAt(D), rhsAt(D), source(D);
  std::vector<std::optional<std::vector<int64_t>>> runnersOf(size_t(places.count()));
  auto runners = [&](int64_t at) -> const std::vector<int64_t> & {
    std::optional<std::vector<int64_t>> &those = runnersOf[size_t(at)];
    if (!those) {
      those.emplace();
      places.decode(at, lhsAt);
      for (int64_t p = 0; p < P; ++p) {
        bool holds = true;
        for (size_t d = 0; d < D && holds; ++d)
          holds = lhsAt[d] < 0 || coordinates[size_t(p)][d] == lhsAt[d];
        if (holds)
          those->push_back(p);
      }
    }
    return *those;
  };
  int64_t lastRhsAt = -1, fixed = -1;
  bool placed = false;
  for (size_t i = 0, serial = 0; i < reads.size(); ++serial) {
    const int64_t element = reads[i].element;
    touched.clear();
    if (reads[i].rhsAt != lastRhsAt) { // where the element lies
      lastRhsAt = reads[i].rhsAt;
      places.decode(lastRhsAt, rhsAt);
      placed = std::none_of(rhsAt.begin(), rhsAt.end(), [](int64_t c) { return c < 0; });
      fixed = placed ? idOf(rhsAt, mesh) : -1;
    }
    for (; i < reads.size() && reads[i].element == element; ++i) {
      for (int64_t to : runners(reads[i].lhsAt)) {
        if (seen[size_t(to)] == int64_t(serial))
          continue;
        seen[size_t(to)] = int64_t(serial);
        int64_t from = fixed;
        if (!placed) { // the operand's copy on the receiver's line
          for (size_t d = 0; d < D; ++d)
            source[d] = rhsAt[d] >= 0 ? rhsAt[d] : coordinates[size_t(to)][d];
          from = idOf(source, mesh);
        }
        if (from != to) {
          ++pairs[size_t(from * P + to)];
          if (sentNow[size_t(from)]++ == 0)
            touched.push_back(from);
        }
      }
    }
    for (int64_t from : touched) {
      toAll[size_t(from)] += sentNow[size_t(from)] == P - 1;
      sentNow[size_t(from)] = 0;
    }
  }
  std::vector<int64_t> receivers(size_t(P), 0);
  std::vector<double> words(size_t(P), 0.0);
  for (int64_t from = 0; from < P; ++from)
    for (int64_t to = 0; to < P; ++to)
      if (const int32_t n = pairs[size_t(from * P + to)]; n > 0) {
        words[size_t(from)] += n;
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
      from.push_back(coordinates[size_t(p)]);
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
    fillByDimension(from, size, mesh, coordinates, out);
  }
  return out;
}

} // namespace dlayout::cost
