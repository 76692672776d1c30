//===- analyzer/Dependences.cpp -------------------------------------------===//
#include "analyzer/Dependences.h"
#include "analyzer/Polynomial.h"

#include <z3++.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <numeric>
#include <optional>
#include <set>
#include <system_error>
#include <thread>
#include <tuple>

namespace dlayout {

namespace {

/// Builds Z3 terms for the instances of statements.
class Instances {
public:
  Instances(z3::context &C, const Program &P) : C(C), P(P) {}

  /// The induction variables of statement S's loops, for instance `tag`.
  const std::map<std::string, z3::expr> &vars(const Statement &S, const std::string &tag) {
    auto [it, added] = cache.try_emplace(S.id + tag);
    if (!added) return it->second;
    std::map<std::string, z3::expr> &v = it->second;
    // Per statement: asserting an inner loop's bounds would otherwise make
    // its outer variables skip the iterations where it is empty.
    for (auto &l : S.loops) v.emplace(l, C.int_const((l + "@" + S.id + tag).c_str()));
    return v;
  }
  std::map<std::string, std::map<std::string, z3::expr>> cache;

  z3::expr affine(const AffineExpr &e, const std::map<std::string, z3::expr> &ivs) {
    z3::expr r = C.int_val((int64_t)e.constant);
    for (auto &[l, c] : e.coeffs) {
      auto it = ivs.find(l);
      if (it == ivs.end()) return r; // caller checked
      r = r + C.int_val((int64_t)c) * it->second;
    }
    for (auto &[p, c] : e.params) {
      auto it = P.params.find(p);
      r = r + C.int_val((int64_t)c) * C.int_val((int64_t)(it == P.params.end() ? 0 : it->second));
    }
    return r;
  }

  bool covers(const AffineExpr &e, const std::map<std::string, z3::expr> &ivs) {
    for (auto &[l, c] : e.coeffs)
      if (!ivs.count(l)) return false;
    return true;
  }

  /// lower <= iv <= upper (reversed for negative steps), and the stride,
  /// for the loops of St not in `done` (which it extends).
  void bounds(z3::solver &S, const Statement &St, const std::map<std::string, z3::expr> &ivs) {
    for (auto &id : St.loops) {
      const Loop *L = P.findLoop(id);
      if (!L) continue;
      const z3::expr &iv = ivs.at(id);
      auto one = [&](const Bound &b, bool isLower) {
        if (b.kind == Bound::Kind::NonAffine) return;
        bool below = (L->step > 0) == isLower; // iv >= term
        for (auto &t : b.terms) {
          if (!covers(t, ivs)) continue;
          z3::expr v = affine(t, ivs);
          bool all = b.kind == Bound::Kind::Affine ||
                     (b.kind == Bound::Kind::Max) == below;
          if (all) S.add(below ? iv >= v : iv <= v);
        }
      };
      one(L->lower, true);
      one(L->upper, false);
      if ((L->step > 1 || L->step < -1) && L->lower.kind == Bound::Kind::Affine &&
          covers(L->lower.terms[0], ivs)) {
        z3::expr k = C.int_const((id + "k" + std::to_string(counter++)).c_str());
        S.add(iv == affine(L->lower.terms[0], ivs) + C.int_val((int64_t)L->step) * k);
      }
    }
  }

private:
  z3::context &C;
  const Program &P;
  unsigned counter = 0;
};

size_t commonLoops(const Statement &a, const Statement &b) {
  size_t n = 0;
  while (n < a.loops.size() && n < b.loops.size() && a.loops[n] == b.loops[n]) ++n;
  return n;
}

bool affineRef(const Reference &r) {
  return std::all_of(r.subscripts.begin(), r.subscripts.end(), [](auto &s) {
    return s.cls == SubscriptClass::Constant || s.cls == SubscriptClass::Single ||
           s.cls == SubscriptClass::Multiple;
  });
}

/// Value ranges of the induction variables, from the bounds with the
/// parameters bound (interval arithmetic, outer loops first).
std::map<std::string, std::pair<double, double>> ivRanges(const Program &P) {
  std::map<std::string, std::pair<double, double>> r;
  for (auto &[name, v] : P.params) r[paramSymbol(name)] = {double(v), double(v)};
  for (auto &L : P.loops) {
    if (L.lower.kind == Bound::Kind::NonAffine || L.upper.kind == Bound::Kind::NonAffine)
      continue;
    std::optional<std::pair<double, double>> lo, hi;
    for (auto &t : L.lower.terms)
      if (auto x = Poly::fromAffine(t).range(r))
        lo = lo ? std::make_pair(std::min(lo->first, x->first), std::max(lo->second, x->second)) : *x;
    for (auto &t : L.upper.terms)
      if (auto x = Poly::fromAffine(t).range(r))
        hi = hi ? std::make_pair(std::min(hi->first, x->first), std::max(hi->second, x->second)) : *x;
    if (lo && hi)
      r[ivSymbol(L.id)] = {std::min(lo->first, hi->first), std::max(lo->second, hi->second)};
  }
  return r;
}

/// Cheap exact disproofs before Z3, dimension by dimension: the GCD test
/// (a.I - b.J = c has no integer solution unless gcd(a, b) divides c; for two
/// constant subscripts, that they differ) and
/// the range test (the two subscripts' value ranges do not meet).
bool disproved(const Reference &a, const Reference &b, const Program &P,
               const std::map<std::string, std::pair<double, double>> &ranges) {
  for (size_t d = 0; d < a.subscripts.size() && d < b.subscripts.size(); ++d) {
    auto &x = a.subscripts[d], &y = b.subscripts[d];
    auto affine = [](const Subscript &s) {
      return s.cls == SubscriptClass::Constant || s.cls == SubscriptClass::Single ||
             s.cls == SubscriptClass::Multiple;
    };
    if (!affine(x) || !affine(y)) continue;
    int64_t g = 0, c = 0;
    for (auto &[l, k] : x.affine.coeffs) g = std::gcd(g, k);
    for (auto &[l, k] : y.affine.coeffs) g = std::gcd(g, k);
    auto value = [&](const AffineExpr &e) {
      int64_t v = e.constant;
      for (auto &[p, k] : e.params) {
        auto it = P.params.find(p);
        v += k * (it == P.params.end() ? 0 : it->second);
      }
      return v;
    };
    c = value(y.affine) - value(x.affine);
    if (g == 0 ? c != 0 : c % g != 0) return true;
    auto rx = Poly::fromAffine(x.affine).range(ranges);
    auto ry = Poly::fromAffine(y.affine).range(ranges);
    if (rx && ry && (rx->second < ry->first || ry->second < rx->first)) return true;
  }
  return false;
}

/// The loops of a statement as text: equal keys, equal iteration spaces.
std::string loopsKey(const Statement &S) {
  std::string k;
  for (const std::string &l : S.loops) k += l + ",";
  return k;
}

/// The subscripts of a reference as text: equal keys, equal subscripts.
std::string subscriptKey(const Reference &r) {
  std::string k;
  for (auto &s : r.subscripts) {
    k += std::to_string(int(s.cls)) + ":" + std::to_string(s.affine.constant);
    for (auto &[l, c] : s.affine.coeffs) k += "," + l + "*" + std::to_string(c);
    for (auto &[p, c] : s.affine.params) k += ",$" + p + "*" + std::to_string(c);
    k += ";";
  }
  return k;
}

struct Found {
  size_t level; // 1-based carried level; n+1 = loop-independent
  std::vector<std::string> direction;
  std::vector<std::optional<int64_t>> distance;
};

using Ranges = std::map<std::string, std::pair<double, double>>;

/// One thread's share of the tests, in a Z3 context of its own: its solver
/// and the pairs of references it has decided.
///
/// One solver throughout. The iteration spaces of a pair of statements (the
/// source instance's copy "_1", the sink's "_2") are pushed while that pair
/// is tested, so that every check sees two statements' bounds, not the whole
/// phase's (which made the test quadratic in the statements of a phase).
/// The SMT core itself (solver::simple): the default solver would build a
/// tactic preamble first, 20 ms on the first check, for nothing here,
/// where every check after the first push runs in the incremental core.
class PairTests {
public:
  PairTests(z3::context &C, const Program &P, const Ranges &ranges,
            const std::map<std::string, size_t> &order)
      : C(C), P(P), ranges(ranges), order(order), inst(C, P), Z(C, z3::solver::simple()) {}

  /// The dependences from `source` to each statement of its phase
  /// `stmts`, in their order, unnumbered.
  std::vector<Dependence> from(const Statement &source,
                               const std::vector<const Statement *> &stmts);

private:
  struct Scope {
    z3::solver &s;
    bool open = false;
    ~Scope() { if (open) s.pop(); }
  };

  z3::context &C;
  const Program &P;
  const Ranges &ranges;
  const std::map<std::string, size_t> &order;
  Instances inst;
  z3::solver Z;
  // Pairs of references alike in statements of the same loops (whose
  // iteration spaces are alike) are decided once: by the loops, whether
  // the sink follows the source in the text, and the subscripts.
  std::map<std::string, std::vector<Found>> solved;
};

std::vector<Dependence> PairTests::from(const Statement &source,
                                        const std::vector<const Statement *> &stmts) {
  std::vector<Dependence> out;
  const Statement *S1 = &source;
  for (const Statement *S2 : stmts) {
    size_t n = commonLoops(*S1, *S2);
    bool textual = order.at(S1->id) < order.at(S2->id);
    const auto &I = inst.vars(*S1, "_1");
    const auto &J = inst.vars(*S2, "_2");
    Scope pair{Z};
    auto solver = [&]() -> z3::solver & {
      if (!pair.open) {
        Z.push();
        pair.open = true;
        inst.bounds(Z, *S1, I);
        inst.bounds(Z, *S2, J);
      }
      return Z;
    };
    for (size_t r1 = 0; r1 < S1->refs.size(); ++r1)
      for (size_t r2 = 0; r2 < S2->refs.size(); ++r2) {
        const Reference &A = S1->refs[r1], &B = S2->refs[r2];
        bool w1 = A.access == Reference::Access::Write;
        bool w2 = B.access == Reference::Access::Write;
        if (A.array != B.array || (!w1 && !w2)) continue;
        if (disproved(A, B, P, ranges)) continue;
        bool exact = affineRef(A) && affineRef(B);

        std::string key = loopsKey(*S1) + "|" + loopsKey(*S2) + "|" +
                          (textual && S1 != S2 ? "<" : "") + "|" + subscriptKey(A) + "|" +
                          subscriptKey(B);
        auto cached = solved.find(key);
        if (cached == solved.end())
          cached = solved.emplace(key, [&]() -> std::vector<Found> {
            solver().push();
            Scope refs{Z, true};
            if (exact)
              for (size_t d = 0; d < A.subscripts.size() && d < B.subscripts.size(); ++d)
                Z.add(inst.affine(A.subscripts[d].affine, I) ==
                      inst.affine(B.subscripts[d].affine, J));
            if (Z.check() == z3::unsat) return {};

            auto before = [&](size_t k, const std::string &dir) {
              const std::string &id = S1->loops[k];
              int64_t step = P.findLoop(id)->step;
              const z3::expr &i = I.at(id), &j = J.at(id);
              if (dir == "=") return i == j;
              bool lt = (dir == "<") == (step > 0);
              return lt ? i < j : i > j;
            };
            std::vector<Found> found;
            for (size_t l = 1; l <= n + 1; ++l) {
              if (l == n + 1 && (!textual || S1 == S2)) break;
              Z.push();
              for (size_t k = 0; k + 1 < l; ++k) Z.add(before(k, "="));
              if (l <= n) Z.add(before(l - 1, "<"));
              if (Z.check() == z3::sat) {
                Found f{l, {}, {}};
                for (size_t k = 0; k < n; ++k) {
                  std::string dir;
                  if (k + 1 < l) dir = "=";
                  else if (k + 1 == l) dir = "<";
                  else {
                    std::vector<std::string> ok;
                    for (const char *d : {"<", "=", ">"}) {
                      Z.push();
                      Z.add(before(k, d));
                      if (Z.check() == z3::sat) ok.push_back(d);
                      Z.pop();
                    }
                    dir = ok.size() == 1 ? ok[0] : "*";
                  }
                  f.direction.push_back(dir);
                  // A constant distance: the one difference there is, in
                  // the one direction there is (the solver holds the
                  // level's orders, which are satisfiable).
                  std::optional<int64_t> dist;
                  if (dir == "=") dist = 0;
                  else if (exact && dir != "*") {
                    const std::string &id = S1->loops[k];
                    z3::expr diff = J.at(id) - I.at(id);
                    Z.push();
                    if (k + 1 > l) Z.add(before(k, dir));
                    if (Z.check() == z3::sat) {
                      int64_t v = Z.get_model().eval(diff, true).get_numeral_int64();
                      Z.push();
                      Z.add(diff != C.int_val(v));
                      if (Z.check() == z3::unsat) dist = v;
                      Z.pop();
                    }
                    Z.pop();
                  }
                  f.distance.push_back(dist);
                }
                found.push_back(f);
              }
              Z.pop();
              if (!exact) break; // one '*' dependence is all we can say
            }
            return found;
          }()).first;
        for (auto &f : cached->second) {
          Dependence D;
          D.from = S1->id;
          D.to = S2->id;
          D.kind = w1 && w2 ? Dependence::Kind::Output
                   : w1     ? Dependence::Kind::Flow
                            : Dependence::Kind::Anti;
          D.variable = A.array;
          if (f.level <= n) D.carriedBy = S1->loops[f.level - 1];
          D.direction = f.direction;
          D.distance = f.distance;
          if (!exact) {
            std::fill(D.direction.begin(), D.direction.end(), "*");
            std::fill(D.distance.begin(), D.distance.end(), std::nullopt);
            if (n) D.carriedBy = S1->loops[0];
          }
          out.push_back(std::move(D));
        }
      }
  }
  return out;
}

/// How much testing there is: over the reference pairs to test in each
/// phase (one a write, the same array), the levels each has squared (a
/// check per level, and per level the directions and distances of the
/// loops inside it) -- the work a second thread is started for where it is
/// worth more than the context that thread makes.
size_t testWork(const std::vector<std::vector<const Statement *>> &phases) {
  size_t work = 0;
  for (auto &stmts : phases)
    for (const Statement *S1 : stmts)
      for (const Statement *S2 : stmts) {
        const size_t levels = commonLoops(*S1, *S2) + 1;
        for (auto &A : S1->refs)
          for (auto &B : S2->refs)
            if (A.array == B.array && (A.access == Reference::Access::Write ||
                                       B.access == Reference::Access::Write))
              work += levels * levels;
      }
  return work;
}

} // namespace

Status computeDependences(Program &P, z3::context *given, unsigned threads) {
  // Scalar dependences from the builder come first; keep them.
  std::vector<Dependence> deps;
  for (auto &d : P.dependences)
    if (d.from.empty() || P.findStatement(d.from)) deps.push_back(d);

  // Statement order.
  std::map<std::string, size_t> order;
  for (size_t i = 0; i < P.statements.size(); ++i) order[P.statements[i].id] = i;
  const Ranges ranges = ivRanges(P);

  // The rows to test, each a statement against every statement of its
  // phase, taken in turn by this thread and, where there is enough work,
  // one more with a context of its own (kWorkForTwo: some 30 ms of tests,
  // twice what making a context takes); the rows' results are entered in
  // order, so the two find what one would.
  constexpr size_t kWorkForTwo = 1000;
  std::vector<std::vector<const Statement *>> phases;
  std::vector<std::pair<size_t, const Statement *>> rows;
  for (auto &ph : P.phases) {
    auto &stmts = phases.emplace_back();
    for (auto &s : ph.statements) stmts.push_back(P.findStatement(s));
  }
  for (size_t ph = 0; ph < phases.size(); ++ph)
    for (const Statement *S1 : phases[ph]) rows.emplace_back(ph, S1);
  std::vector<std::vector<Dependence>> found(rows.size());
  std::atomic<size_t> next{0};
  auto test = [&](z3::context &C) {
    PairTests tests(C, P, ranges, order);
    for (size_t i; (i = next.fetch_add(1)) < rows.size();)
      found[i] = tests.from(*rows[i].second, phases[rows[i].first]);
  };
  std::exception_ptr helperFailed;
  std::optional<std::thread> helper;
  if (threads > 1 && testWork(phases) >= kWorkForTwo && std::thread::hardware_concurrency() > 1) {
    try {
      helper.emplace([&] {
        try {
          z3::context C2;
          test(C2);
        } catch (...) {
          helperFailed = std::current_exception();
        }
      });
    } catch (const std::system_error &) {
    }
  }
  try {
    std::optional<z3::context> own;
    test(given ? *given : own.emplace());
  } catch (...) {
    next = rows.size(); // the helper stops at its row in hand
    if (helper) helper->join();
    throw;
  }
  if (helper) helper->join();
  if (helperFailed) std::rethrow_exception(helperFailed);

  // Dependences already listed, against duplicates.
  using DepKey = std::tuple<std::string, std::string, int, std::string,
                            std::optional<std::string>, std::vector<std::string>>;
  auto depKey = [](const Dependence &d) {
    return DepKey{d.from, d.to, int(d.kind), d.variable, d.carriedBy, d.direction};
  };
  std::set<DepKey> listed;
  for (auto &d : deps) listed.insert(depKey(d));
  for (auto &row : found)
    for (auto &D : row)
      if (listed.insert(depKey(D)).second) deps.push_back(std::move(D));

  // Number them; attach to loops; decide parallelism.
  for (size_t i = 0; i < deps.size(); ++i) deps[i].id = "D" + std::to_string(i + 1);
  P.dependences = deps;
  // Parallel unless the builder found it left early (FunctionBuilder.cpp)
  // or it carries a dependence other than a reduction's.
  for (auto &L : P.loops) L.carries.clear();
  for (auto &D : P.dependences) {
    if (!D.carriedBy) continue;
    Loop *L = nullptr;
    for (auto &l : P.loops)
      if (l.id == *D.carriedBy) L = &l;
    if (!L) continue;
    L->carries.push_back(D.id);
    const Statement *S = D.from.empty() ? nullptr : P.findStatement(D.from);
    bool reduction = S && D.from == D.to && !S->reduction.empty() &&
                     ((S->write >= 0 && S->refs[S->write].array == D.variable) ||
                      S->scalarWrite == D.variable);
    if (!reduction) L->parallel = false;
  }
  return success();
}

} // namespace dlayout
