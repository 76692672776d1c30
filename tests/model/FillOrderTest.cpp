// The order a replicated lhs is filled in (model/FillOrder.h): by the
// dimensions' holders and sizes, the cheaper first, never by their numbers.
#include "model/FillOrder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using dlayout::FillStage;
using dlayout::fillsBefore;

namespace {

std::vector<int> order(std::vector<FillStage> stages) {
  std::sort(stages.begin(), stages.end(), fillsBefore);
  std::vector<int> dims;
  for (const FillStage &s : stages) dims.push_back(s.dim);
  return dims;
}

} // namespace

TEST(FillOrder, OneHolderFirstWhateverItsNumber) {
  // tred2's diagonal Z(J,J): one holder of 2 along one dimension, 4 of 8
  // along the other. The lone holder brings nothing to multiply.
  EXPECT_EQ(order({{4, 8, 0}, {1, 2, 1}}), (std::vector<int>{1, 0}));
  EXPECT_EQ(order({{1, 2, 0}, {4, 8, 1}}), (std::vector<int>{0, 1}));
}

TEST(FillOrder, FewerHoldersPerMulticastStepFirst) {
  // (h - 1) / (h ceil(log2 n)): 2 of 2 gives 1/2, 4 of 8 gives 1/4, so the
  // wider dimension goes first although it has more holders: 4 holders
  // multicast a block over 8 in 3 steps each, then 2 holders their 4
  // blocks over 2 in one -- 4*3 + 2*4*1 = 20 block-steps, against
  // 2*1 + 4*2*3 = 26 the other way.
  EXPECT_EQ(order({{2, 2, 0}, {4, 8, 1}}), (std::vector<int>{1, 0}));
  EXPECT_EQ(order({{4, 8, 0}, {2, 2, 1}}), (std::vector<int>{0, 1}));
}

TEST(FillOrder, TiesGoToTheLongerThenTheLowerNumbered) {
  EXPECT_EQ(order({{1, 2, 0}, {1, 8, 1}}), (std::vector<int>{1, 0}));
  EXPECT_EQ(order({{3, 4, 1}, {3, 4, 0}}), (std::vector<int>{0, 1}));
  EXPECT_FALSE(fillsBefore({3, 4, 0}, {3, 4, 0})); // irreflexive
}
