//===- costmodels/InstanceWalk.cpp - A read's instances, walked -----------===//

#include "costmodels/InstanceWalk.h"

#include <cmath>

namespace dlayout::cost::detail {

/// Whether no two instances of the loops at positions [from, to) read one
/// element through `r`: its subscripts, affine, as a map of those loops'
/// indices, have full column rank (such a map is one to one).
bool readsDistinct(const RefFacts &r, int from, int to) {
  const size_t rows = r.subs.size(), cols = size_t(std::max(to - from, 0));
  if (cols > rows)
    return false;
  std::vector<std::vector<double>> a(rows, std::vector<double>(cols, 0.0));
  for (size_t i = 0; i < rows; ++i) {
    const SubscriptForm &f = r.subs[i];
    if (f.cls != SubscriptClass::Constant && f.cls != SubscriptClass::Single &&
        f.cls != SubscriptClass::Multiple)
      return false;
    for (size_t j = 0; j < cols; ++j)
      a[i][j] = double(f.alphaAt(from + int(j)));
  }
  // Gaussian elimination, a pivot per column.
  for (size_t j = 0, top = 0; j < cols; ++j, ++top) {
    size_t pivot = top;
    for (size_t i = top; i < rows; ++i)
      if (std::abs(a[i][j]) > std::abs(a[pivot][j]))
        pivot = i;
    if (std::abs(a[pivot][j]) < 1e-9)
      return false;
    std::swap(a[pivot], a[top]);
    for (size_t i = top + 1; i < rows; ++i) {
      const double f = a[i][j] / a[top][j];
      for (size_t k = j; k < cols; ++k)
        a[i][k] -= f * a[top][k];
    }
  }
  return true;
}

} // namespace dlayout::cost::detail
