//===- validate/calibrate/Fit.cpp - Fitting Transfer(m) to ping-pong times ===//
#include "validate/calibrate/Fit.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dlayout::calibrate {

LineFit fitLine(const std::vector<SizeTime> &pts, size_t from, size_t to) {
  LineFit f;
  f.points = to > from ? to - from : 0;
  if (f.points == 0) return f;
  // Weighted means with w = 1 / t^2, then the centred normal equations
  // (better conditioned than the raw sums when m spans 1 B to 4 MiB).
  double sw = 0, mx = 0, my = 0;
  for (size_t i = from; i < to; ++i) {
    double w = 1 / (pts[i].seconds * pts[i].seconds);
    sw += w;
    mx += w * pts[i].bytes;
    my += w * pts[i].seconds;
  }
  mx /= sw;
  my /= sw;
  double sxx = 0, sxy = 0;
  for (size_t i = from; i < to; ++i) {
    double w = 1 / (pts[i].seconds * pts[i].seconds);
    sxx += w * (pts[i].bytes - mx) * (pts[i].bytes - mx);
    sxy += w * (pts[i].bytes - mx) * (pts[i].seconds - my);
  }
  double b = sxx > 0 ? sxy / sxx : 0, a = my - b * mx;
  if (b < 0) { // no negative per-byte cost: the best constant
    b = 0;
    a = my;
  } else if (a < 0) { // no negative startup: the best line through 0
    double smm = 0, smt = 0;
    for (size_t i = from; i < to; ++i) {
      double w = 1 / (pts[i].seconds * pts[i].seconds);
      smm += w * pts[i].bytes * pts[i].bytes;
      smt += w * pts[i].bytes * pts[i].seconds;
    }
    a = 0;
    b = smm > 0 ? smt / smm : 0;
  }
  f.startup = a;
  f.perByte = b;
  for (size_t i = from; i < to; ++i) {
    double r = (a + b * pts[i].bytes - pts[i].seconds) / pts[i].seconds;
    f.sumSquares += r * r;
  }
  return f;
}

namespace {

/// The best split of all points into exactly k pieces (k >= 1), or an empty
/// fit when the points do not allow k pieces of kMinPoints.
PiecewiseFit bestSplit(const std::vector<SizeTime> &pts, size_t k,
                       const std::vector<std::vector<double>> &cost) {
  const size_t n = pts.size();
  const double inf = std::numeric_limits<double>::infinity();
  PiecewiseFit fit;
  if (k == 0 || n < k * kMinPoints) return fit;
  // best[p][j]: least error of the first j points in p pieces; from[p][j]
  // where the last of those pieces starts.
  std::vector<std::vector<double>> best(k + 1, std::vector<double>(n + 1, inf));
  std::vector<std::vector<size_t>> from(k + 1, std::vector<size_t>(n + 1, 0));
  best[0][0] = 0;
  for (size_t p = 1; p <= k; ++p)
    for (size_t j = p * kMinPoints; j <= n; ++j)
      for (size_t i = (p - 1) * kMinPoints; i + kMinPoints <= j; ++i) {
        if (best[p - 1][i] == inf) continue;
        double c = best[p - 1][i] + cost[i][j];
        if (c < best[p][j]) {
          best[p][j] = c;
          from[p][j] = i;
        }
      }
  if (best[k][n] == inf) return fit;
  std::vector<size_t> starts(k);
  for (size_t p = k, j = n; p >= 1; --p) {
    starts[p - 1] = from[p][j];
    j = from[p][j];
  }
  double total = 0;
  for (size_t p = 0; p < k; ++p) {
    size_t end = p + 1 < k ? starts[p + 1] : n;
    LineFit line = fitLine(pts, starts[p], end);
    total += line.sumSquares;
    MessageCostPiece piece;
    piece.belowBytes = p + 1 < k ? pts[end].bytes : 0;
    piece.startup = line.startup;
    piece.perByte = line.perByte;
    fit.pieces.push_back(piece);
    fit.lines.push_back(line);
    fit.firstIndex.push_back(starts[p]);
  }
  fit.rmsRelativeError = std::sqrt(total / double(n));
  return fit;
}

} // namespace

PiecewiseFit fitPiecewise(const std::vector<SizeTime> &pts, size_t pieces) {
  const size_t n = pts.size();
  if (n == 0) return {};
  if (n < kMinPoints) { // too few for pieces: one line through what there is
    PiecewiseFit fit;
    LineFit line = fitLine(pts, 0, n);
    fit.pieces.push_back({0, line.startup, line.perByte});
    fit.lines.push_back(line);
    fit.firstIndex.push_back(0);
    fit.rmsRelativeError = std::sqrt(line.sumSquares / double(n));
    return fit;
  }
  // cost[i][j]: the error of one line through points [i, j).
  std::vector<std::vector<double>> cost(n + 1, std::vector<double>(n + 1, 0));
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + kMinPoints; j <= n; ++j) cost[i][j] = fitLine(pts, i, j).sumSquares;

  size_t most = std::min(kMaxPieces, n / kMinPoints);
  if (pieces > 0) return bestSplit(pts, std::min(pieces, most), cost);
  PiecewiseFit chosen = bestSplit(pts, 1, cost);
  for (size_t k = 2; k <= most; ++k) {
    if (chosen.rmsRelativeError <= kNoiseFloor) break;
    PiecewiseFit next = bestSplit(pts, k, cost);
    if (next.pieces.empty() || next.rmsRelativeError >= kImprovement * chosen.rmsRelativeError)
      break;
    chosen = std::move(next);
  }
  return chosen;
}

std::vector<long> refinementSizes(const std::vector<SizeTime> &pts, const PiecewiseFit &fit,
                                  size_t perBreak) {
  std::vector<long> out;
  for (size_t p = 1; p < fit.firstIndex.size(); ++p) {
    size_t s = fit.firstIndex[p];
    if (s == 0 || s >= pts.size()) continue;
    long lo = long(pts[s - 1].bytes), hi = long(pts[s].bytes);
    long gap = hi - lo - 1;
    if (gap <= 0) continue;
    if (size_t(gap) <= perBreak) {
      for (long m = lo + 1; m < hi; ++m) out.push_back(m);
    } else {
      for (size_t i = 1; i <= perBreak; ++i)
        out.push_back(lo + long(std::llround(double(hi - lo) * double(i) / double(perBreak + 1))));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

} // namespace dlayout::calibrate
