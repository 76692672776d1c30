//===- solver/Z3Deadline.h - Z3's optimiser under a wall-clock limit -*- C++ -*-===//
//
// checkWithin(context, optimize, seconds) runs optimize.check() and returns
// within about `seconds` (plus what Z3 needs to stop), with the best model
// found so far when it stops at the limit (unknown).
//
// Z3's own "timeout" parameter alone is not enough: its timer cancels the
// context once, and a cancellation that lands before a phase that resets it
// is lost, leaving the search unbounded. On a loaded machine a 1 ms limit
// did so (AlignmentCut's 400-array test ran for 17 minutes in CI). So a
// watchdog thread interrupts the context at the deadline and again every
// 10 ms until check() returns.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <z3++.h>

namespace dlayout {

z3::check_result checkWithin(z3::context &z, z3::optimize &opt, double seconds);

} // namespace dlayout
