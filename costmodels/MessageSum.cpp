//===- costmodels/MessageSum.cpp - Samples of a triangular nest added up --===//

#include "costmodels/MessageSum.h"

#include <algorithm>

namespace dlayout::cost {

namespace {

/// The mesh dimension along which c's senders or parts vary; -1: none. -2:
/// more than one (not summed).
int variesAlong(const CommCost &c) {
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

bool MessageSum::add(const std::vector<CommCost> &terms, double weight) {
  if (started_ && terms.size() != sums_.size())
    return false;
  if (!started_) {
    sums_.resize(terms.size());
    started_ = true;
  }
  // Check every term before changing any sum.
  for (size_t i = 0; i < terms.size(); ++i) {
    const CommCost &c = terms[i];
    const int d = variesAlong(c);
    const bool multicast =
        c.prim == Primitive::OneToManyMulticast || c.prim == Primitive::ManyToManyMulticast;
    if (!multicast || c.tiles > 1 || d == -2 || (d >= 0 && size_t(d) >= mesh_.size()) ||
        (sums_[i].width >= 0 && c.rhs != sums_[i].form.rhs) ||
        (d >= 0 && sums_[i].dim >= 0 && d != sums_[i].dim))
      return false;
  }
  for (size_t i = 0; i < terms.size(); ++i) {
    const CommCost &c = terms[i];
    Sum &s = sums_[i];
    const int d = variesAlong(c);
    if (d >= 0 && s.dim < 0) {
      s.dim = d;
      s.byCoordinate.assign(size_t(mesh_[size_t(d)]), 0.0);
    }
    const double words = weight * c.words;
    int64_t width = 0;
    if (d < 0) { // from every processor: as wide as any
      s.everywhere += words;
      width = 1;
      for (int64_t n : mesh_)
        width *= n;
    } else {
      std::vector<int64_t> at(mesh_.size(), 0);
      const int64_t lo = c.senders.meshDim >= 0 ? c.senders.first : 0;
      const int64_t hi = c.senders.meshDim >= 0 ? c.senders.last : mesh_[size_t(d)] - 1;
      for (int64_t k = std::max<int64_t>(lo, 0); k <= hi && k < mesh_[size_t(d)]; ++k) {
        at[size_t(d)] = k;
        s.byCoordinate[size_t(k)] += words * c.senders.partAt(at);
        ++width;
      }
    }
    if (width > s.width) {
      s.width = width;
      s.form = c;
    }
  }
  return true;
}

std::vector<CommCost> MessageSum::result() const {
  std::vector<CommCost> out;
  for (const Sum &s : sums_) {
    CommCost c = s.form;
    c.senders.parts = nullptr;
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
  return out;
}

} // namespace dlayout::cost
