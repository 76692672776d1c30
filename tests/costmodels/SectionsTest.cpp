//===- tests/costmodels/SectionsTest.cpp - Sections fetched together -------===//
//
// eflux's flux nests (samples/paradigm/eflux.F, loops 10 and 30), reduced:
// private scalars read by the four planes' FS(I,J,K), their operands on
// other planes' owners. Neighbouring sections read by two statements before
// one loop are one message (AcrossStatements.h); within one statement, planes of
// two holders are two, and a reference one row off another is the other's
// message but for its edge (Coalescing.h).
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

#include <functional>

namespace dlayout::test {
namespace {

constexpr int64_t n = 16;

/// Each scalar Q_s = its references, read by every plane's FS(I,J,K) =
/// Q_1 + Q_2 + ... (K = 1 .. planes), under DO J = 1, m / DO I = `first`,
/// n; `reads` gives the references from the builder and the I and J loops.
/// The program and the scalars' statements.
using Reads = std::function<std::vector<std::vector<Reference>>(
    const ModelBuilder &, const std::string &i, const std::string &j)>;
std::pair<Program, std::vector<std::string>> fluxes(const Reads &reads, int64_t planes,
                                                    int64_t first, int64_t m,
                                                    const std::string &array) {
  ModelBuilder b;
  b.param("N", n);
  b.array("FS", {n, n, planes});
  b.array(array, {n, n, planes});
  auto j = b.loop("J", b.c(1), b.c(m), "", 1, true);
  auto i = b.loop("I", b.c(first), b.p("N"), j, 1, true);
  std::vector<std::string> scalars, names;
  for (std::vector<Reference> &refs : reads(b, i, j)) {
    names.push_back("Q" + std::to_string(names.size() + 1));
    const unsigned loads = unsigned(refs.size());
    scalars.push_back(b.scalarStmt({j, i}, names.back(), std::move(refs), {.loads = loads}, ""));
  }
  for (int64_t k = 1; k <= planes; ++k)
    b.stmt({j, i}, b.ref("FS", {b.iv(i), b.iv(j), b.c(k)}), {}, {.stores = 1, .fadd = 1});
  Program p = b.build();
  Expr sum;
  sum.kind = Expr::Kind::Op;
  sum.name = "+";
  for (const std::string &q : names) {
    Expr use;
    use.kind = Expr::Kind::Scalar;
    use.name = q;
    sum.args.push_back(use);
  }
  for (size_t k = names.size(); k < p.statements.size(); ++k)
    p.statements[k].expr = sum;
  return {p, scalars};
}

/// P = W(I,J+1,1) and Q = W(I,J,plane), J = 1 .. m (m < n / 2: less than
/// half a plane each, so that FetchBound.h's bound on the sum, which the
/// union is below, does not apply), the planes over 4.
constexpr int64_t m = n / 2 - 1;
std::pair<Program, std::vector<std::string>> columns(int64_t plane) {
  return fluxes(
      [plane](const ModelBuilder &b, const std::string &i, const std::string &j) {
        return std::vector<std::vector<Reference>>{{b.ref("W", {b.iv(i), b.iv(j, 1, 1), b.c(1)})},
                                                   {b.ref("W", {b.iv(i), b.iv(j), b.c(plane)})}};
      },
      4, 1, m, "W");
}

TEST(Sections, NeighbouringSectionsOfTwoStatementsAreOneMessage) {
  // P = W(I,J+1,1), Q = W(I,J,1), the planes over 4: plane 1's owner
  // multicasts columns 2 .. m+1 and 1 .. m to the other three before the J
  // loop, in one message of the m + 1 columns (the executor's one fetch of
  // W there), not two of m.
  const auto [p, s] = columns(1);
  Layout l = layout({4}, {{"FS", {collapsed(), collapsed(), block(0)}},
                          {"W", {collapsed(), collapsed(), block(0)}}});
  const Estimate e = run(p, l);
  auto first = comm(e, s[0], "W");
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].primitive, "OneToManyMulticast") << first[0].rule;
  EXPECT_EQ(first[0].groupSize, 4);
  EXPECT_EQ(first[0].messageWords, double(n * (m + 1)));
  EXPECT_TRUE(comm(e, s[1], "W").empty());
  // Planes 1 and 3, from their two owners: a message each.
  const auto [q, t] = columns(3);
  const Estimate two = run(q, l);
  ASSERT_EQ(comm(two, t[0], "W").size(), 1u);
  ASSERT_EQ(comm(two, t[1], "W").size(), 1u);
  EXPECT_EQ(comm(two, t[1], "W")[0].messageWords, double(n * m));
  // Without coalescing, a multicast each of m columns.
  EstimateOptions separate;
  separate.coalescing = false;
  const Estimate apart = run(p, l, separate);
  for (const std::string &id : s) {
    auto terms = comm(apart, id, "W");
    ASSERT_EQ(terms.size(), 1u);
    EXPECT_EQ(terms[0].messageWords, double(n * m));
  }
  EXPECT_LT(e.communicationSeconds, apart.communicationSeconds);
}

TEST(Sections, PlanesOfTwoHoldersAreTwoMessages) {
  // Q = W(I,J,a) + W(I,J,b), four planes in blocks of two over 2: planes 1
  // and 2 lie on one processor and travel together, planes 2 and 3 on two
  // and each leaves its own (a union of both sent from the first's holder
  // priced the second's as the first's).
  auto planes = [](int64_t a, int64_t b) {
    const auto [p, s] = fluxes(
        [a, b](const ModelBuilder &mb, const std::string &i, const std::string &j) {
          return std::vector<std::vector<Reference>>{{mb.ref("W", {mb.iv(i), mb.iv(j), mb.c(a)}),
                                                      mb.ref("W", {mb.iv(i), mb.iv(j), mb.c(b)})}};
        },
        4, 1, m, "W");
    Layout l = layout({2}, {{"FS", {collapsed(), collapsed(), block(0)}},
                            {"W", {collapsed(), collapsed(), block(0)}}});
    return comm(run(p, l), s[0], "W");
  };
  auto together = planes(1, 2);
  ASSERT_EQ(together.size(), 1u);
  EXPECT_EQ(together[0].messageWords, double(2 * n * m));
  auto apart = planes(2, 3);
  ASSERT_EQ(apart.size(), 2u);
  EXPECT_EQ(apart[0].messageWords, double(n * m));
  EXPECT_EQ(apart[0].senders.first, 0);
  EXPECT_EQ(apart[1].senders.first, 1);
}

TEST(Sections, AReferenceARowOffAnotherAddsItsEdgeAlone) {
  // Q = X(I,J,1) - X(I-1,J,1), I = 2 .. n, the rows over 2, the planes
  // over 2: each row block sends plane 1's rows to the other plane's owner
  // once -- the larger part, n/2 rows (X(I-1,J,1)'s on row block 0) -- and
  // row block 0 its last row to row block 1, X(I-1,J,1)'s edge; not a
  // message per reference.
  const auto [p, s] = fluxes(
      [](const ModelBuilder &b, const std::string &i, const std::string &j) {
        return std::vector<std::vector<Reference>>{{b.ref("X", {b.iv(i), b.iv(j), b.c(1)}),
                                                    b.ref("X", {b.iv(i, 1, -1), b.iv(j), b.c(1)})}};
      },
      2, 2, n - 1, "X");
  Layout l = layout({2, 2}, {{"FS", {block(0), collapsed(), block(1)}},
                             {"X", {block(0), collapsed(), block(1)}}});
  auto terms = comm(run(p, l), s[0], "X");
  int shifts = 0, others = 0;
  for (const auto &t : terms) {
    if (t.primitive == "Shift") {
      ++shifts;
      continue;
    }
    ++others;
    EXPECT_EQ(t.messageWords, double(n / 2 * (n - 1))) << t.rule;
  }
  EXPECT_EQ(others, 1);
  EXPECT_EQ(shifts, 1);
  EstimateOptions separate;
  separate.coalescing = false;
  int apart = 0;
  for (const auto &t : comm(run(p, l, separate), s[0], "X"))
    apart += t.primitive != "Shift";
  EXPECT_EQ(apart, 2);
}

} // namespace
} // namespace dlayout::test
