//===- tests/costmodels/Helpers.h - Shared test helpers ---------*- C++ -*-===//
#pragma once

#include "ModelBuilder.h"
#include "costmodels/Estimate.h"
#include "costmodels/MachinePresets.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dlayout::test {

/// Section 6.1.2, in seconds: Transfer(m bytes) on the iPSC/2.
inline double T(double bytes) {
  if (bytes <= 0)
    return 0;
  return (bytes < 100 ? 350 + 0.15 * bytes : 700 + 0.36 * bytes) * 1e-6;
}
inline double ceilLog2(double p) { return std::ceil(std::log2(p)); }
inline double ceilDiv(double a, double b) { return std::ceil(a / b); }

inline Machine ipsc2() { return *machinePreset("ipsc2"); }

inline Estimate run(const Program &p, const Layout &l, EstimateOptions o = {}) {
  auto e = estimate(p, l, ipsc2(), o);
  EXPECT_TRUE(e.ok()) << (e ? "" : e.error().str());
  return e ? *e : Estimate{};
}

/// The communication terms of one statement (and rhs array, if given).
inline std::vector<EstimateTerm> comm(const Estimate &e,
                                      const std::string &stmt,
                                      const std::string &array = "") {
  std::vector<EstimateTerm> out;
  for (const auto &t : e.terms)
    if (t.kind == EstimateTerm::Kind::Communication && t.statement == stmt &&
        (array.empty() || t.array == array))
      out.push_back(t);
  return out;
}

inline double commSeconds(const Estimate &e, const std::string &stmt,
                          const std::string &array = "") {
  double s = 0;
  for (const auto &t : comm(e, stmt, array))
    s += t.seconds;
  return s;
}

inline const EstimateTerm *computation(const Estimate &e,
                                       const std::string &stmt) {
  for (const auto &t : e.terms)
    if (t.kind == EstimateTerm::Kind::Computation && t.statement == stmt)
      return &t;
  return nullptr;
}

/// DO I = lo, hi (parallel): A(I) = B(I + offset) over arrays of n; the
/// program and the statement's id.
inline std::pair<Program, std::string> copy(int64_t n, int64_t offset = 0, int64_t lo = 1,
                                            int64_t hi = 0) {
  ModelBuilder b;
  b.array("A", {n});
  b.array("B", {n});
  auto i = b.loop("I", b.c(lo), b.c(hi > 0 ? hi : n), "", 1, true);
  auto s = b.stmt({i}, b.ref("A", {b.iv(i)}), {b.ref("B", {b.iv(i, 1, offset)})},
                  {.loads = 1, .stores = 1});
  return {b.build(), s};
}

/// An operand X(first, second) of sumOverK, its subscripts loop names.
struct Operand {
  std::string array, first, second;
};

/// DO I, J (doall) / DO K: C(I,J) = C(I,J) + the product of the operands
/// (n x n arrays), a sum over K. The program and the statement's id.
inline std::pair<Program, std::string> sumOverK(int64_t n, const std::vector<Operand> &operands) {
  ModelBuilder b;
  b.param("N", n);
  b.array("C", {n, n});
  for (const Operand &o : operands)
    b.array(o.array, {n, n});
  auto i = b.loop("I", b.c(1), b.p("N"), "", 1, true);
  auto j = b.loop("J", b.c(1), b.p("N"), "I", 1, true);
  auto k = b.loop("K", b.c(1), b.p("N"), "J");
  std::map<std::string, std::string> loop{{"I", i}, {"J", j}, {"K", k}};
  std::vector<Reference> rhs{b.ref("C", {b.iv(i), b.iv(j)})};
  for (const Operand &o : operands)
    rhs.push_back(b.ref(o.array, {b.iv(loop[o.first]), b.iv(loop[o.second])}));
  const unsigned reads = unsigned(rhs.size());
  auto s = b.stmt({i, j, k}, b.ref("C", {b.iv(i), b.iv(j)}), std::move(rhs),
                  {.loads = reads, .stores = 1, .fadd = 1, .fmul = reads - 2}, "sum");
  b.dep(s, s, Dependence::Kind::Flow, "C", k, {"=", "=", "<"}, {0, 0, 1});
  return {b.build(), s};
}

/// fig2_2 (samples/paradigm/fig2_2.F), reduced to its first nest over
/// n x n arrays: DO MP / DO MQ = 1, MP / DO MI: X(MI,MQ) += V(MP,MI);
/// X(MI,MP) += V(MQ,MI). The program and its two statements. With
/// `asExtracted`, every dependence the extractor finds in it (each kind;
/// S6 at MQ < MP writes the column S5 updates at MQ = MP, carried by MQ).
/// With `crossed`, S6 reads X(MI,MQ) for V(MQ,MI): another processor's
/// column.
struct Fig2_2 {
  Program p;
  std::string s5, s6;
};
inline Fig2_2 fig2_2(int64_t n, bool asExtracted = false, bool crossed = false) {
  ModelBuilder b;
  b.param("N", n);
  b.array("X", {n, n});
  b.array("V", {n, n});
  auto mp = b.loop("MP", b.c(1), b.p("N"));
  auto mq = b.loop("MQ", b.c(1), b.iv(mp), mp);
  auto mi = b.loop("MI", b.c(1), b.p("N"), mq, 1, true);
  auto s5 = b.stmt({mp, mq, mi}, b.ref("X", {b.iv(mi), b.iv(mq)}),
                   {b.ref("X", {b.iv(mi), b.iv(mq)}), b.ref("V", {b.iv(mp), b.iv(mi)})},
                   {.loads = 2, .stores = 1, .fadd = 1});
  auto s6 = b.stmt({mp, mq, mi}, b.ref("X", {b.iv(mi), b.iv(mp)}),
                   {b.ref("X", {b.iv(mi), b.iv(mp)}),
                    crossed ? b.ref("X", {b.iv(mi), b.iv(mq)}) : b.ref("V", {b.iv(mq), b.iv(mi)})},
                   {.loads = 2, .stores = 1, .fadd = 1});
  // X(MI,MQ) and X(MI,MP) meet where MQ = MP: one loop copy holds both.
  b.dep(s5, s6, Dependence::Kind::Flow, "X", "", {"=", "=", "="}, {0, 0, 0});
  b.dep(s6, s5, Dependence::Kind::Flow, "X", mp, {"<", "*", "="}, {1, 0, 0});
  if (asExtracted) {
    using K = Dependence::Kind;
    const std::vector<std::optional<int64_t>> atMp{std::nullopt, 0, 0}, atMq{0, std::nullopt, 0};
    for (K kind : {K::Flow, K::Anti, K::Output}) {
      b.dep(s5, s5, kind, "X", mp, {"<", "=", "="}, atMp);
      if (kind != K::Flow) {
        b.dep(s5, s6, kind, "X", "", {"=", "=", "="}, {0, 0, 0});
        b.dep(s6, s5, kind, "X", mp, {"<", "*", "="}, {std::nullopt, std::nullopt, 0});
      }
      b.dep(s6, s5, kind, "X", mq, {"=", "<", "="}, atMq);
      b.dep(s6, s6, kind, "X", mq, {"=", "<", "="}, atMq);
    }
  }
  return {b.build(), s5, s6};
}

} // namespace dlayout::test
