//===- validate/calibrate/Fit.h - Fitting Transfer(m) to ping-pong times -*- C++ -*-===//
//
// The machine model's message cost is piecewise linear in the message size
// (model/Machine.h; thesis section 6.1.2: Transfer(m) = 350 + 0.15 m us below
// 100 bytes, 700 + 0.36 m us from 100 on, for the iPSC/2). Given measured
// one-way times t_i of m_i bytes:
//
//  - fitLine: the startup a and per-byte cost b minimising the squared
//    *relative* error, sum_i ((a + b m_i - t_i) / t_i)^2 - weighted least
//    squares with weights 1 / t_i^2 (so a 1-byte message counts as much as a
//    4 MiB one; plain least squares would fit the large messages only).
//    Closed form on weighted-centred sums; a and b are kept >= 0 (when the
//    unconstrained optimum has one negative, the best fit with it at 0).
//  - fitPiecewise: segmented least squares (R. Bellman, On the approximation
//    of curves by line segments using dynamic programming, CACM 4(6), 1961;
//    J. Kleinberg, E. Tardos, Algorithm Design, section 6.3): for k = 1, 2, 3
//    pieces of at least kMinPoints consecutive sizes each, the split with the
//    least total squared relative error, by dynamic programming over the
//    sorted sizes. k + 1 pieces are taken over k only while the RMS relative
//    error is above kNoiseFloor and falls below kImprovement x that of k, so
//    noise does not buy pieces. A piece's below_bytes is the smallest size of
//    the next piece (Transfer(m) uses the first piece with m < below_bytes).
//  - refinementSizes: the sizes strictly between the last size of one piece
//    and the first of the next (all of them when few, else evenly spaced), to
//    measure so that the break-point is found more exactly on a refit.
//
// Pure arithmetic; no I/O.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Machine.h"

#include <cstddef>
#include <vector>

namespace dlayout::calibrate {

struct SizeTime {
  double bytes = 0, seconds = 0;
};

struct LineFit {
  double startup = 0, perByte = 0;
  double sumSquares = 0; // sum of squared relative errors
  size_t points = 0;
};

struct PiecewiseFit {
  std::vector<MessageCostPiece> pieces;
  std::vector<LineFit> lines;   // one per piece
  std::vector<size_t> firstIndex; // index (into the sorted points) each piece starts at
  double rmsRelativeError = 0;
};

inline constexpr size_t kMinPoints = 3;
inline constexpr size_t kMaxPieces = 3;
inline constexpr double kNoiseFloor = 0.02;  // 2 % RMS: good enough for one piece
inline constexpr double kImprovement = 0.7; // another piece must cut the error by 30 %

/// Weighted least squares over points[from, to) (to > from, sorted or not).
LineFit fitLine(const std::vector<SizeTime> &points, size_t from, size_t to);

/// points must be sorted by size, with positive times and distinct sizes.
/// pieces = 0 chooses the number of pieces (above); otherwise exactly that
/// many (fewer when there are too few points).
PiecewiseFit fitPiecewise(const std::vector<SizeTime> &points, size_t pieces = 0);

/// Sizes to measure between the pieces of `fit` over the sorted `points`:
/// at most `perBreak` for each break-point.
std::vector<long> refinementSizes(const std::vector<SizeTime> &points, const PiecewiseFit &fit,
                                  size_t perBreak = 32);

} // namespace dlayout::calibrate
