//===- tests/costmodels/TransposeTest.cpp - An operand held the lhs's way round -===//
//
// tred2's first nest (samples/paradigm/tred2.F, DO 5 I / DO 3 J:
// Z(J,I) = A(J,I)) under a layout that lays Z out the other way round from
// A: A's rows on the first mesh dimension and its columns on the second, Z's
// rows on the second and columns on the first. Each element moves from the
// processor at (r, c) to the one at (c, r); those on the diagonal hold what
// their own part of Z needs (ReferenceTerms::selfServed).
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

namespace dlayout::test {
namespace {

constexpr int64_t n = 16, N = 4;

TEST(Senders, ATransposesDiagonalSendsNothing) {
  ModelBuilder b;
  b.array("A", {n, n});
  b.array("Z", {n, n});
  auto i = b.loop("I", b.c(1), b.c(n), "", 1, true);
  auto j = b.loop("J", b.c(1), b.c(n), i, 1, true);
  auto s = b.stmt({i, j}, b.ref("Z", {b.iv(j), b.iv(i)}), {b.ref("A", {b.iv(j), b.iv(i)})},
                  {.loads = 1, .stores = 1});
  const Program p = b.build();
  const double part = double(n / N * (n / N)) * 8; // one processor's part, in bytes
  for (bool swapped : {true, false}) {
    // Swapped, or both the same way but for Z's columns, cyclic: then
    // every processor sends some of its part.
    const Layout l = layout({N, N}, {{"A", {block(0), block(1)}},
                                     {"Z", swapped ? std::vector<DimLayout>{block(1), block(0)}
                                                   : std::vector<DimLayout>{block(0), cyclic(1)}}});
    std::vector<EstimateTerm> c = comm(run(p, l), s, "A");
    ASSERT_FALSE(c.empty());
    for (int64_t r = 0; r < N; ++r)
      for (int64_t q = 0; q < N; ++q) {
        double sent = 0;
        for (const EstimateTerm &t : c)
          sent += sentAt(t.primitive, t.groupSize, t.repetitions, t.messageBytes, t.senders, {r, q}).bytes;
        if (swapped)
          EXPECT_DOUBLE_EQ(sent, r == q ? 0 : part) << "processor (" << r << "," << q << ")";
        else
          EXPECT_GT(sent, 0) << "processor (" << r << "," << q << ")";
      }
  }
}

} // namespace
} // namespace dlayout::test
