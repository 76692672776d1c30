//===- costmodels/MessageSum.cpp - Samples of a triangular nest added up --===//

#include "costmodels/MessageSum.h"

#include <algorithm>

namespace dlayout::cost {

namespace {

/// The mesh dimension along which c's senders or parts vary; -1: none. -2:
/// more than one (not summed).
int variesAlong(const CommCost &c) {
  if (c.senders.joint)
    return -2;
  const auto &parts = c.senders.parts;
  if (parts && !parts->empty()) {
    if (parts->size() > 1 ||
        (c.senders.meshDim >= 0 && c.senders.meshDim != parts->front().first))
      return -2;
    return parts->front().first;
  }
  return c.senders.meshDim;
}

} // namespace

void addRepeated(std::vector<CommCost> &one, std::vector<CommCost> &into) {
  for (CommCost &c : one) {
    auto same = std::find_if(into.begin(), into.end(), [&](const CommCost &d) {
      return d.primitive == c.primitive && d.group == c.group && d.rule == c.rule &&
             d.shiftDim == c.shiftDim && d.direction == c.direction &&
             d.pipelined == c.pipelined && d.tiles == c.tiles && d.senders == c.senders;
    });
    if (same == into.end()) {
      into.push_back(std::move(c));
      continue;
    }
    double reps = same->repetitions + c.repetitions;
    if (reps > 0) {
      same->words = (same->words * same->repetitions + c.words * c.repetitions) / reps;
      same->bytes = (same->bytes * same->repetitions + c.bytes * c.repetitions) / reps;
    }
    same->repetitions = reps;
    same->seconds += c.seconds;
  }
}

bool MessageSum::pairs(const std::vector<CommCost> &terms) const {
  if (terms.size() != sums_.size())
    return false;
  for (size_t i = 0; i < terms.size(); ++i) {
    const CommCost &c = terms[i];
    const Sum &s = sums_[i];
    const int d = variesAlong(c);
    if (d == -2 || s.dim == -2) {
      // Per processor: the same multicast, over the same mesh dimensions.
      if (c.meshDim != s.form.meshDim || c.prim != s.form.prim)
        return false;
    } else if (d >= 0 && s.dim >= 0 && d != s.dim) {
      return false;
    }
  }
  return true;
}

bool MessageSum::joinable(const std::vector<CommCost> &terms) const {
  auto rooted = [](const CommCost &c) { return c.prim == Primitive::OneToManyMulticast; };
  const int dim = terms.empty() ? -1 : terms.front().meshDim;
  auto along = [&](const CommCost &c) { return dim >= 0 && c.meshDim == dim; };
  return (std::all_of(terms.begin(), terms.end(), rooted) &&
          std::all_of(sums_.begin(), sums_.end(),
                      [&](const Sum &s) { return s.width < 0 || rooted(s.form); })) ||
         (std::all_of(terms.begin(), terms.end(), along) &&
          std::all_of(sums_.begin(), sums_.end(),
                      [&](const Sum &s) { return s.width < 0 || along(s.form); }));
}

bool MessageSum::add(const std::vector<CommCost> &terms, double weight) {
  // Check every term before changing any sum.
  for (const CommCost &c : terms) {
    const int d = variesAlong(c);
    const bool multicast =
        c.prim == Primitive::OneToManyMulticast || c.prim == Primitive::ManyToManyMulticast;
    if (!multicast || c.tiles > 1 || (d >= 0 && size_t(d) >= mesh_.size()) ||
        (d == -2 && processors() > kMaxSummedProcessors) ||
        (started_ && !sums_.empty() && c.rhs != sums_.front().form.rhs))
      return false;
  }
  if (started_ && !collapsed_ && !pairs(terms)) {
    if (processors() > kMaxSummedProcessors || !joinable(terms))
      return false;
    collapse();
  }
  if (collapsed_) {
    for (const CommCost &c : terms)
      addSent(sums_.front(), c, weight);
    return true;
  }
  if (!started_) {
    sums_.resize(terms.size());
    started_ = true;
  }
  for (size_t i = 0; i < terms.size(); ++i) {
    const CommCost &c = terms[i];
    Sum &s = sums_[i];
    const int d = variesAlong(c);
    if (d == -2 && s.dim != -2)
      perProcessor(s);
    if (d >= 0 && s.dim == -1) {
      s.dim = d;
      s.byCoordinate.assign(size_t(mesh_[size_t(d)]), 0.0);
    }
    const double words = weight * c.words;
    int64_t width = 0;
    if (s.dim == -2) {
      for (size_t p = 0; p < coordinates_.size(); ++p)
        if (c.senders.includes(coordinates_[p])) {
          const double part = c.senders.partAt(coordinates_[p]);
          s.byProcessor[p] += words * part;
          width += part > 0;
        }
    } else if (d < 0) { // from every processor: as wide as any
      s.everywhere += words;
      width = processors();
    } else {
      std::vector<int64_t> at(mesh_.size(), 0);
      const int64_t lo = c.senders.meshDim >= 0 ? c.senders.first : 0;
      const int64_t hi = c.senders.meshDim >= 0 ? c.senders.last : mesh_[size_t(d)] - 1;
      for (int64_t k = std::max<int64_t>(lo, 0); k <= hi && k < mesh_[size_t(d)]; ++k) {
        at[size_t(d)] = k;
        s.byCoordinate[size_t(k)] += words * c.senders.partAt(at);
        ++width;
      }
      width *= processors() / mesh_[size_t(d)];
    }
    if (width > s.width) {
      s.width = width;
      s.form = c;
    }
  }
  return true;
}

int64_t MessageSum::processors() const {
  int64_t p = 1;
  for (int64_t n : mesh_)
    p *= n;
  return p;
}

void MessageSum::perProcessor(Sum &s) {
  if (coordinates_.empty())
    coordinates_ = meshCoordinates(mesh_);
  s.byProcessor.assign(coordinates_.size(), s.everywhere);
  if (s.dim >= 0)
    for (size_t p = 0; p < coordinates_.size(); ++p)
      s.byProcessor[p] += s.byCoordinate[size_t(coordinates_[p][size_t(s.dim)])];
  s.everywhere = 0;
  s.byCoordinate.clear();
  s.dim = -2;
}

void MessageSum::collapse() {
  Sum all;
  all.dim = -2;
  if (coordinates_.empty())
    coordinates_ = meshCoordinates(mesh_);
  all.byProcessor.assign(coordinates_.size(), 0.0);
  for (Sum &s : sums_) {
    if (s.width < 0)
      continue;
    if (s.dim != -2)
      perProcessor(s);
    const double m = messagesPerRepetition(s.form.primitive, s.form.group) * s.form.senders.share;
    for (size_t p = 0; p < coordinates_.size(); ++p)
      all.byProcessor[p] += m * s.byProcessor[p];
    widest(all, s.form, s.width);
  }
  sums_.assign(1, std::move(all));
  collapsed_ = true;
}

void MessageSum::addSent(Sum &all, const CommCost &c, double weight) {
  int64_t width = 0;
  for (size_t p = 0; p < coordinates_.size(); ++p) {
    const Sent sent = sentAt(c.primitive, c.group, 1, weight * c.words, c.senders, coordinates_[p]);
    all.byProcessor[p] += sent.bytes;
    width += sent.bytes > 0;
  }
  widest(all, c, width);
}

void MessageSum::widest(Sum &all, const CommCost &c, int64_t width) {
  // The form whose messages reach the most processors, then the widest.
  if (all.width < 0 || c.group > all.form.group || (c.group == all.form.group && width > all.width)) {
    all.form = c;
    all.width = width;
  }
}

std::vector<CommCost> MessageSum::result() const {
  std::vector<CommCost> out;
  for (const Sum &s : sums_) {
    CommCost c = s.form;
    c.senders.parts = nullptr;
    c.senders.joint = nullptr;
    if (collapsed_) { // message-words per processor: the form's messages carry them
      c.senders.share = 1;
      c = perProcessorResult(s, std::move(c));
      const double m = messagesPerRepetition(c.primitive, c.group);
      c.words = m > 0 ? c.words / m : 0;
      out.push_back(std::move(c));
      continue;
    }
    if (s.dim == -2) {
      out.push_back(perProcessorResult(s, std::move(c)));
      continue;
    }
    if (s.dim < 0) {
      c.words = s.everywhere;
      out.push_back(std::move(c));
      continue;
    }
    std::vector<double> each(s.byCoordinate.size());
    for (size_t k = 0; k < each.size(); ++k)
      each[k] = s.everywhere + s.byCoordinate[k];
    c.words = *std::max_element(each.begin(), each.end());
    // The senders: every coordinate that sends something (the samples'
    // roots, where each has one).
    if (s.everywhere == 0) {
      auto sends = [](double w) { return w > 0; };
      auto first = std::find_if(each.begin(), each.end(), sends);
      auto last = std::find_if(each.rbegin(), each.rend(), sends);
      if (first != each.end())
        c.senders = {s.dim, int64_t(first - each.begin()),
                     int64_t(each.rend() - last) - 1, c.senders.share};
    }
    if (c.words > 0 && std::any_of(each.begin(), each.end(), [&](double w) { return w != c.words; })) {
      for (double &w : each)
        w /= c.words;
      c.senders.parts =
          std::make_shared<const Senders::Parts>(Senders::Parts{{s.dim, std::move(each)}});
    }
    out.push_back(std::move(c));
  }
  // A sum of nothing (every sample's section empty) is no message.
  std::erase_if(out, [](const CommCost &c) { return c.words <= 0; });
  return out;
}

CommCost MessageSum::perProcessorResult(const Sum &s, CommCost c) const {
  c.words = *std::max_element(s.byProcessor.begin(), s.byProcessor.end());
  c.senders = Senders(-1, 0, 0, c.senders.share);
  if (c.words <= 0)
    return c;
  // Each processor's sum over the busiest's: a table over the whole mesh
  // (Senders::Joint), exact at every processor.
  std::vector<double> each(s.byProcessor.size());
  for (size_t p = 0; p < each.size(); ++p)
    each[p] = s.byProcessor[p] / c.words;
  if (std::any_of(each.begin(), each.end(), [](double a) { return a != 1; })) {
    c.senders.joint = Senders::Joint::overMesh(mesh_, std::move(each));
  }
  return c;
}

} // namespace dlayout::cost
