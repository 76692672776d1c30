//===- costmodels/Subsumption.cpp - Fetches another statement's already bring -===//

#include "costmodels/Subsumption.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

namespace dlayout::cost {

namespace {

/// An affine form over the statement's loop positions.
struct Form {
  std::map<int, double> terms; // loop position -> coefficient
  double constant = 0;

  void add(const Form &o, double times) {
    for (const auto &[p, a] : o.terms)
      if ((terms[p] += times * a) == 0)
        terms.erase(p);
    constant += times * o.constant;
  }
};

bool affine(const SubscriptForm &s) {
  return !s.knownPart && (s.cls == SubscriptClass::Constant || s.cls == SubscriptClass::Single ||
                          s.cls == SubscriptClass::Multiple);
}

Form formOf(const SubscriptForm &s) {
  Form f;
  for (const auto &[p, a] : s.terms)
    if (a != 0)
      f.terms[p] = double(a);
  f.constant = double(s.constant);
  return f;
}

Form formOf(const BoundForm &b) {
  Form f;
  for (const auto &[p, a] : b.terms)
    if (a != 0)
      f.terms[p] = double(a);
  f.constant = b.constant;
  return f;
}

bool same(const SubscriptForm &a, const SubscriptForm &b) {
  return affine(a) && affine(b) && a.terms == b.terms && a.constant == b.constant;
}

/// A lower bound of e over the iterations of `loops` (positive steps, affine
/// bounds): each index, innermost first, replaced by the bound that
/// minimises its term. Nullopt where a bound is not one affine form that
/// bounds every iteration so (the max of lower forms and the min of upper
/// forms: any of them).
std::optional<double> minimum(Form e, const std::vector<LoopFacts> &loops) {
  while (!e.terms.empty()) {
    const auto [q, a] = *e.terms.rbegin();
    e.terms.erase(q);
    if (q < 0 || size_t(q) >= loops.size())
      return std::nullopt;
    const LoopFacts &l = loops[size_t(q)];
    const bool low = a > 0;
    const std::vector<BoundForm> &forms = low ? l.lower : l.upper;
    if (l.signedStep() <= 0 || forms.empty() ||
        (forms.size() > 1 && (low ? !l.lowerMax : l.upperMax)))
      return std::nullopt;
    e.add(formOf(forms.front()), a);
  }
  return e.constant;
}

/// Whether every value of `w` over a's iterations lies within loop f's
/// bounds (all of them: sound for a max or a min of forms alike).
bool within(const Form &w, const LoopFacts &f, const std::vector<LoopFacts> &loops) {
  for (const BoundForm &b : f.lower) {
    Form e = w;
    e.add(formOf(b), -1);
    if (auto m = minimum(e, loops); !m || *m < 0)
      return false;
  }
  for (const BoundForm &b : f.upper) {
    Form e = formOf(b);
    e.add(w, -1);
    if (auto m = minimum(e, loops); !m || *m < 0)
      return false;
  }
  return !f.lower.empty() && !f.upper.empty();
}

/// The statement runs on its lhs's owners alone, with no guard.
bool ownerComputes(const StatementFacts &s) {
  return s.hasLhs && !s.hasHome && s.alsoRunBy.empty() && s.rho == 1 && s.lhs.ref;
}

/// The statement runs on every processor, with no guard: a replicated
/// scalar (StatementFacts::replicatedScalar), whose operands every
/// processor fetches.
bool everyProcessor(const StatementFacts &s) {
  return s.replicatedScalar() && !s.hasHome && s.alsoRunBy.empty() && s.rho == 1;
}

/// Whether b's reference rb, fetched in each iteration of loop position p
/// (vectorised over the deeper ones), brings every element a's ra needs to
/// every processor that needs it (the header's test).
bool subsumes(const StatementFacts &a, size_t ra, const StatementFacts &b, size_t rb, int p,
              const LayoutView &lv) {
  const RhsFacts &x = a.rhs[ra], &y = b.rhs[rb];
  auto plain = [](const RhsFacts &r) {
    return !r.home && !r.toHome && !r.everyProcessor && !r.reductionOperand;
  };
  const bool toAll = everyProcessor(b);
  if (!(ownerComputes(a) || everyProcessor(a)) || !(ownerComputes(b) || toAll) || !plain(x) ||
      !plain(y) || x.ref.array != y.ref.array || x.ref.subs.size() != y.ref.subs.size() ||
      b.loops.size() > a.loops.size() || size_t(p + 1) >= b.loops.size())
    return false;
  // b's loops enclose a (the same loops, outermost first).
  for (size_t q = 0; q < b.loops.size(); ++q)
    if (a.loops[q].loop != b.loops[q].loop)
      return false;
  // The owners: the lhs's subscripts along its distributed dimensions.
  // Where b runs on every processor, every processor receives what it
  // fetches.
  std::set<int> tied;
  if (!toAll) {
    if (!ownerComputes(a) || a.lhs.array != b.lhs.array || a.loops.size() != b.loops.size())
      return false;
    const ArrayDist &lhs = lv.arrays[size_t(a.lhs.array)];
    for (size_t k = 0; k < a.lhs.subs.size() && k < lhs.dims.size(); ++k) {
      if (!lhs.dims[k].onMesh() || lhs.dims[k].procs <= 1)
        continue;
      if (!same(a.lhs.subs[k], b.lhs.subs[k]))
        return false;
      for (const auto &[q, alpha] : a.lhs.subs[k].terms)
        tied.insert(q);
    }
  }
  auto isFree = [&](int q) { return q > p && size_t(q) < b.loops.size() && !tied.count(q); };
  // Per dimension: equal subscripts, or one free loop of y's matched to
  // the value x's takes. y's iteration keeps a's indices elsewhere.
  std::map<int, Form> matched; // free loop -> the index it takes
  for (size_t k = 0; k < x.ref.subs.size(); ++k) {
    const SubscriptForm &sx = x.ref.subs[k], &sy = y.ref.subs[k];
    if (!affine(sx) || !affine(sy))
      return false;
    std::vector<std::pair<int, int64_t>> free;
    for (const auto &[q, alpha] : sy.terms)
      if (alpha != 0 && isFree(q))
        free.emplace_back(q, alpha);
    if (free.empty()) {
      if (!same(sx, sy))
        return false;
      continue;
    }
    const auto [f, alpha] = free.front();
    if (free.size() > 1 || (alpha != 1 && alpha != -1) || matched.count(f))
      return false;
    // y's loop f takes the value alpha * (x's subscript - y's others).
    Form w = formOf(sx), rest = formOf(sy);
    rest.terms.erase(f);
    w.add(rest, -1);
    matched[f].add(w, double(alpha));
  }
  // No loop of b's moves its bounds with a matched one's index, and each
  // matched index lies within its loop's bounds over a's iterations.
  for (size_t q = 0; q < b.loops.size(); ++q)
    for (const auto *forms : {&b.loops[q].lower, &b.loops[q].upper})
      for (const BoundForm &bf : *forms)
        for (const auto &[r, beta] : bf.terms)
          if (beta != 0 && matched.count(r))
            return false;
  for (const auto &[f, value] : matched)
    if (b.loops[size_t(f)].signedStep() != 1 || !within(value, b.loops[size_t(f)], a.loops))
      return false;
  return true;
}

} // namespace

void dropSubsumedFetches(std::vector<StatementComm> &comm, const LayoutView &lv) {
  // Per statement and rhs reference: the one placement of its terms, where
  // they can be dropped whole (none pipelined or carrying others).
  auto placementOf = [](const StatementComm &sc, int r) -> std::optional<int> {
    std::optional<int> at;
    for (const CommCost &c : sc.costs) {
      if (c.rhs != r)
        continue;
      if (c.pipelined || c.sharedBy > 1 || c.carried.size() > 1 || (at && *at != c.placement))
        return std::nullopt;
      at = c.placement;
    }
    return at;
  };
  // The fetches by the loop copy they run before (the path up to p + 1),
  // placement and array: only those can cover one another.
  struct Fetch {
    size_t statement;
    int rhs;
  };
  std::map<std::tuple<std::string, std::vector<int>, int, int>, std::vector<Fetch>> before;
  for (size_t k = 0; k < comm.size(); ++k) {
    const StatementFacts &a = *comm[k].sf;
    for (size_t r = 0; r < a.rhs.size(); ++r) {
      const auto p = placementOf(comm[k], int(r));
      if (!p || a.path.size() < size_t(*p + 2))
        continue;
      std::vector<int> node(a.path.begin(), a.path.begin() + long(*p + 2));
      before[{a.phase, std::move(node), *p, a.rhs[r].ref.array}].push_back({k, int(r)});
    }
  }
  std::set<std::pair<size_t, int>> dropped;
  for (const auto &[key, fetches] : before) {
    const int p = std::get<2>(key);
    for (const Fetch &x : fetches)
      for (const Fetch &y : fetches)
        if (x.statement != y.statement && !dropped.count({y.statement, y.rhs}) &&
            subsumes(*comm[x.statement].sf, size_t(x.rhs), *comm[y.statement].sf,
                     size_t(y.rhs), p, lv)) {
          dropped.insert({x.statement, x.rhs});
          break;
        }
  }
  for (const auto &[k, r] : dropped)
    std::erase_if(comm[k].costs, [r = r](const CommCost &c) { return c.rhs == r; });
}

} // namespace dlayout::cost
