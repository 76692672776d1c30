//===- solver/TableSum.cpp - Bound, enumeration, MaxSAT on z3::optimize ----===//
#include "solver/TableSum.h"
#include "solver/Z3Deadline.h"

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>
#include <string>

namespace dlayout::solver {

namespace {

using Clock = std::chrono::steady_clock;

constexpr double kEnumerate = 65536;       // assignments enumerated outright
constexpr double kEnumerateWork = 4e6;     // ... times tables
constexpr double kOuterKinds = 625;        // multi-valued assignments enumerated outside Z3
constexpr double kEliminateRows = 1024;    // largest table bucket elimination may create

bool close(double a, double b) { return a <= b + 1e-12 * std::max(1e-12, std::abs(b)); }

void decode(const TableSum &ts, const TableSum::Table &t, size_t k, std::vector<int> &digits) {
  digits.assign(t.vars.size(), 0);
  for (size_t i = t.vars.size(); i-- > 0;) {
    size_t n = size_t(ts.options[t.vars[i]]);
    digits[i] = int(k % n);
    k /= n;
  }
}

/// Weighted MaxSAT over the variables not fixed (fixed[v] >= 0); fills sel.
/// Returns whether Z3 proved it optimal.
bool maxsat(z3::context &z, const TableSum &ts, const std::vector<int> &fixed, double seconds,
            std::vector<int> &sel) {
  z3::optimize opt(z);
  std::map<int, std::vector<z3::expr>> lit;
  auto literal = [&](int v, int o) -> z3::expr {
    auto it = lit.find(v);
    if (it == lit.end()) {
      std::vector<z3::expr> ls;
      std::string n = "v" + std::to_string(v);
      if (ts.options[v] == 2) {
        auto b = z.bool_const(n.c_str());
        ls = {!b, b};
      } else {
        z3::expr_vector one(z);
        for (int k = 0; k < ts.options[v]; ++k) {
          ls.push_back(z.bool_const((n + "_" + std::to_string(k)).c_str()));
          one.push_back(ls.back());
        }
        opt.add(z3::atmost(one, 1) && z3::atleast(one, 1));
      }
      it = lit.emplace(v, std::move(ls)).first;
    }
    return it->second[size_t(o)];
  };
  std::vector<int> digits;
  // Tables over two-way variables only (the others fixed) are written as
  // their Moebius expansion f(x) = sum over S of h_S * prod_{i in S} x_i, a
  // soft clause per nonzero h_S (merged across tables); this is much easier
  // for Z3's MaxSAT than one soft per row. Others: a soft per row.
  std::map<std::vector<int>, double> terms; // sorted S (v*2 + polarity) -> weight
  for (const auto &t : ts.tables) {
    std::vector<size_t> rows;
    double lo = INFINITY;
    for (size_t k = 0; k < t.values.size(); ++k) {
      decode(ts, t, k, digits);
      bool fits = true;
      for (size_t i = 0; i < digits.size() && fits; ++i)
        fits = fixed[t.vars[i]] < 0 || fixed[t.vars[i]] == digits[i];
      if (fits) rows.push_back(k), lo = std::min(lo, t.values[k]);
    }
    std::vector<int> freeVars;
    bool binary = true;
    for (int v : t.vars)
      if (fixed[v] < 0) freeVars.push_back(v), binary &= ts.options[v] == 2;
    if (freeVars.empty()) continue;
    if (binary && freeVars.size() <= 8) {
      // f over the free variables, indexed by their bits.
      size_t m = freeVars.size(), nr = size_t(1) << m;
      std::vector<double> f(nr, 0);
      for (size_t k : rows) {
        decode(ts, t, k, digits);
        size_t idx = 0;
        for (size_t i = 0, j = 0; i < digits.size(); ++i)
          if (fixed[t.vars[i]] < 0) idx |= size_t(digits[i]) << j++;
        f[idx] = t.values[k] - lo;
      }
      for (size_t i = 0; i < m; ++i) // Moebius transform
        for (size_t S = 0; S < nr; ++S)
          if (S & (size_t(1) << i)) f[S] -= f[S ^ (size_t(1) << i)];
      for (size_t S = 1; S < nr; ++S) {
        if (f[S] == 0) continue;
        std::vector<int> key;
        for (size_t i = 0; i < m; ++i)
          if (S & (size_t(1) << i)) key.push_back(freeVars[i] * 2 + (f[S] > 0 ? 1 : 0));
        // h > 0: cost h when every x_i is 1; h < 0: cost -h unless every x_i is 1.
        terms[key] += std::abs(f[S]);
      }
      continue;
    }
    for (size_t k : rows) {
      int64_t w = std::llround((t.values[k] - lo) * 1e12);
      if (w <= 0) continue;
      decode(ts, t, k, digits);
      z3::expr row = z.bool_val(true);
      for (size_t i = 0; i < digits.size(); ++i)
        if (fixed[t.vars[i]] < 0) row = row && literal(t.vars[i], digits[i]);
      opt.add_soft(!row, std::to_string(w).c_str());
    }
  }
  for (auto &[key, w] : terms) {
    int64_t iw = std::llround(w * 1e12);
    if (iw <= 0) continue;
    z3::expr all = z.bool_val(true);
    for (int k : key) all = all && literal(k / 2, 1);
    // key's polarity bit: 1 = "all ones costs w", 0 = "not all ones costs w".
    opt.add_soft((key[0] & 1) ? !all : all, std::to_string(iw).c_str());
  }
  auto r = checkWithin(z, opt, seconds);
  if (r == z3::unsat) return false;
  z3::model m = opt.get_model(); // at the limit: the best so far
  for (auto &[v, ls] : lit)
    for (size_t k = 0; k < ls.size(); ++k)
      if (m.eval(ls[k], true).is_true()) sel[v] = int(k);
  for (size_t v = 0; v < fixed.size(); ++v)
    if (fixed[v] >= 0) sel[v] = fixed[v];
  return r == z3::sat;
}

} // namespace

size_t TableSum::row(const Table &t, const std::vector<int> &sel) const {
  size_t k = 0;
  for (int v : t.vars) k = k * size_t(options[v]) + size_t(sel[v]);
  return k;
}

double TableSum::value(const std::vector<int> &sel) const {
  double s = 0;
  for (const auto &t : tables) s += t.values[row(t, sel)];
  return s;
}

namespace {

/// One eliminated variable: the tables it was summed out of (its bucket),
/// over itself and variables eliminated after it or never.
struct Bucket {
  int var = -1;
  std::vector<TableSum::Table> tables;
};

/// Min-sum bucket elimination of the variables whose buckets span few rows.
struct Elimination {
  std::vector<Bucket> order;  // in elimination order
  std::vector<int> remaining; // variables left, ascending
  TableSum reduced;           // over `remaining`, re-indexed 0..
};

Elimination eliminate(const TableSum &ts) {
  const size_t n = ts.options.size();
  std::vector<TableSum::Table> work = ts.tables;
  std::vector<char> alive(work.size(), 1), gone(n, 0);
  std::vector<std::vector<size_t>> tablesOf(n);
  for (size_t i = 0; i < work.size(); ++i)
    for (int v : work[i].vars) tablesOf[v].push_back(i);
  // The variables v's tables mention besides v, and their rows.
  auto scope = [&](int v, double &rows) {
    std::vector<int> sc;
    for (size_t i : tablesOf[v])
      if (alive[i])
        for (int u : work[i].vars)
          if (u != v && std::find(sc.begin(), sc.end(), u) == sc.end()) sc.push_back(u);
    std::sort(sc.begin(), sc.end());
    rows = 1;
    for (int u : sc) rows *= ts.options[u];
    return sc;
  };
  Elimination e;
  std::vector<int> cur(n, 0);
  while (true) {
    int pick = -1;
    double best = kEliminateRows + 1;
    for (size_t v = 0; v < n; ++v) {
      if (gone[v]) continue;
      double rows;
      scope(int(v), rows);
      if (rows < best) best = rows, pick = int(v);
    }
    if (pick < 0) break;
    double rows;
    std::vector<int> sc = scope(pick, rows);
    Bucket b;
    b.var = pick;
    for (size_t i : tablesOf[pick])
      if (alive[i]) b.tables.push_back(work[i]), alive[i] = 0;
    // The new table: per assignment of the scope, the bucket's minimum over
    // the eliminated variable's options.
    TableSum::Table t;
    t.vars = sc;
    t.values.assign(size_t(rows), INFINITY);
    for (size_t k = 0; k < t.values.size(); ++k) {
      size_t x = k;
      for (size_t i = sc.size(); i-- > 0;) {
        cur[sc[i]] = int(x % size_t(ts.options[sc[i]]));
        x /= size_t(ts.options[sc[i]]);
      }
      for (int o = 0; o < ts.options[pick]; ++o) {
        cur[pick] = o;
        double s = 0;
        for (const auto &bt : b.tables) s += bt.values[ts.row(bt, cur)];
        t.values[k] = std::min(t.values[k], s);
      }
    }
    gone[pick] = 1;
    alive.push_back(1);
    for (int u : t.vars) tablesOf[u].push_back(work.size());
    work.push_back(std::move(t));
    e.order.push_back(std::move(b));
  }
  std::vector<int> index(n, -1);
  for (size_t v = 0; v < n; ++v)
    if (!gone[v]) index[v] = int(e.remaining.size()), e.remaining.push_back(int(v)),
                  e.reduced.options.push_back(ts.options[v]);
  for (size_t i = 0; i < work.size(); ++i) {
    if (!alive[i]) continue;
    TableSum::Table t = std::move(work[i]);
    for (int &v : t.vars) v = index[v];
    e.reduced.tables.push_back(std::move(t));
  }
  return e;
}

TableSumResult solve(const TableSum &ts, const std::vector<int> &start,
                     double timeLimitSeconds);

} // namespace

TableSumResult minimiseTableSum(const TableSum &ts, const std::vector<int> &start,
                                double timeLimitSeconds, bool eliminateFirst) {
  if (!eliminateFirst) return solve(ts, start, timeLimitSeconds);
  Elimination e = eliminate(ts);
  if (e.order.empty()) return solve(ts, start, timeLimitSeconds);
  std::vector<int> reducedStart;
  for (int v : e.remaining) reducedStart.push_back(start[v]);
  TableSumResult r = solve(e.reduced, reducedStart, timeLimitSeconds);
  // Back-substitution, last eliminated first: each bucket then mentions
  // only variables already chosen.
  std::vector<int> sel(ts.options.size(), 0);
  for (size_t i = 0; i < e.remaining.size(); ++i) sel[e.remaining[i]] = r.sel[i];
  for (auto b = e.order.rbegin(); b != e.order.rend(); ++b) {
    double best = INFINITY;
    int bestO = 0;
    for (int o = 0; o < ts.options[b->var]; ++o) {
      sel[b->var] = o;
      double s = 0;
      for (const auto &t : b->tables) s += t.values[ts.row(t, sel)];
      if (s < best) best = s, bestO = o;
    }
    sel[b->var] = bestO;
  }
  r.sel = std::move(sel);
  r.value = ts.value(r.sel);
  r.eliminated = e.order.size();
  if (double s = ts.value(start); s < r.value) r.sel = start, r.value = s; // not proved: keep the better
  return r;
}

namespace {

TableSumResult solve(const TableSum &ts, const std::vector<int> &start,
                     double timeLimitSeconds) {
  auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  const size_t n = ts.options.size();
  TableSumResult res;
  res.sel = start;
  res.value = ts.value(start);
  double lower = 0;
  for (const auto &t : ts.tables) lower += *std::min_element(t.values.begin(), t.values.end());
  // 1. Coordinate descent from the start; the bound may prove it optimal.
  std::vector<std::vector<size_t>> tablesOf(n);
  for (size_t i = 0; i < ts.tables.size(); ++i)
    for (int v : ts.tables[i].vars) tablesOf[v].push_back(i);
  for (bool improved = true; improved && !close(res.value, lower);) {
    improved = false;
    for (size_t v = 0; v < n; ++v) {
      auto part = [&](const std::vector<int> &s) {
        double x = 0;
        for (size_t i : tablesOf[v]) x += ts.tables[i].values[ts.row(ts.tables[i], s)];
        return x;
      };
      int keep = res.sel[v];
      double base = part(res.sel), best = base;
      int bestO = keep;
      for (int o = 0; o < ts.options[v]; ++o) {
        if (o == keep) continue;
        res.sel[v] = o;
        double x = part(res.sel);
        if (x < best - 1e-12 * std::max(1e-12, std::abs(best))) best = x, bestO = o;
      }
      res.sel[v] = bestO;
      if (bestO != keep) res.value += best - base, improved = true;
    }
  }
  res.value = ts.value(res.sel);
  if (close(res.value, lower)) return res.proved = true, res;

  // 2. Small spaces: every assignment.
  double space = 1;
  for (int o : ts.options) space *= o;
  if (space <= kEnumerate && space * double(ts.tables.size()) <= kEnumerateWork) {
    std::vector<int> cur(n, 0);
    for (size_t k = 0; k < size_t(space); ++k) {
      double x = ts.value(cur);
      if (x < res.value - 1e-12 * std::max(1e-12, std::abs(res.value))) res.value = x, res.sel = cur;
      for (size_t v = 0; v < n; ++v) {
        if (++cur[v] < ts.options[v]) break;
        cur[v] = 0;
      }
    }
    res.proved = true;
    return res;
  }

  // 3. Z3: the multi-valued variables outside when few, pruned by the bound.
  res.usedZ3 = true;
  auto tz = Clock::now();
  bool proved = true;
  try {
    z3::context z;
    std::vector<int> multi;
    double outer = 1;
    for (size_t v = 0; v < n; ++v)
      if (ts.options[v] > 2) multi.push_back(int(v)), outer *= ts.options[v];
    std::vector<int> fixed(n, -1);
    if (multi.empty() || outer > kOuterKinds) {
      auto sel = res.sel;
      proved = maxsat(z, ts, fixed, timeLimitSeconds - elapsed(), sel);
      double x = ts.value(sel);
      if (x < res.value) res.value = x, res.sel = sel;
    } else {
      // Lower bound per outer assignment: each table's minimum over the rows
      // that agree with it.
      std::vector<std::pair<double, std::vector<int>>> cases;
      std::vector<int> cur(multi.size(), 0), digits;
      for (size_t k = 0; k < size_t(outer); ++k) {
        std::fill(fixed.begin(), fixed.end(), -1);
        for (size_t i = 0; i < multi.size(); ++i) fixed[multi[i]] = cur[i];
        double lb = 0;
        for (const auto &t : ts.tables) {
          double lo = INFINITY;
          for (size_t r = 0; r < t.values.size(); ++r) {
            decode(ts, t, r, digits);
            bool fits = true;
            for (size_t i = 0; i < digits.size() && fits; ++i)
              fits = fixed[t.vars[i]] < 0 || fixed[t.vars[i]] == digits[i];
            if (fits) lo = std::min(lo, t.values[r]);
          }
          lb += lo;
        }
        cases.push_back({lb, fixed});
        for (size_t i = 0; i < multi.size(); ++i) {
          if (++cur[i] < ts.options[multi[i]]) break;
          cur[i] = 0;
        }
      }
      std::stable_sort(cases.begin(), cases.end(),
                       [](auto &a, auto &b) { return a.first < b.first; });
      for (auto &[lb, fx] : cases) {
        if (close(res.value, lb)) break; // no case left can be better
        double left = timeLimitSeconds - elapsed();
        if (left <= 0.005) { proved = false; break; }
        auto sel = res.sel;
        if (!maxsat(z, ts, fx, left, sel)) proved = false;
        double x = ts.value(sel);
        if (x < res.value) res.value = x, res.sel = sel;
      }
    }
  } catch (const z3::exception &) {
    proved = false; // no model: the best assignment so far stands
  }
  res.z3Seconds = std::chrono::duration<double>(Clock::now() - tz).count();
  res.proved = proved;
  return res;
}

} // namespace

} // namespace dlayout::solver
