//===- validate/executor/Interpreter.h - Walks an ExecProgram ---*- C++ -*-===//
//
// The interpreter runs a loop tree of an ExecProgram in its order,
// evaluating guards and expressions for real, on a Memory that decides where
// array elements live and who runs a statement instance. The sequential
// reference (Sequential.h) and the distributed executor (Distributed.h) are
// two Memories under the same interpreter, so the same arithmetic in the same
// order gives bitwise-equal values wherever the order is the program's.
//
// Hooks, called on every rank in the same order (the control flow is
// replicated: loop bounds depend only on parameters and outer indices):
//   beforeNode   before a node runs: the communication placed there;
//   beforePart   before the iterations up to a split loop's source
//                iteration, and before those after it (section 3.3.1);
//   ownIterations  the part of a loop's iterations this processor runs
//                anything in (the rest are skipped: a rank walks its own
//                block, not every instance);
//   beginRegion / endRegion   around a loop holding scalar reductions;
//   runs         whether this processor runs the statement instance;
//   executed     after an instance ran (charge its operations).
// Library code: nothing printed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "validate/executor/ExecProgram.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace dlayout::exec {

/// Iterations t of a loop: those in [first, last] with (t - phase) mod
/// stride < run -- runs of `run` every `stride` (run == stride: all of them).
struct Iterations {
  int64_t first = 0, last = -1;
  int64_t run = 1, stride = 1, phase = 0;
};

class Memory {
public:
  virtual ~Memory() = default;
  virtual double read(int array, const int64_t *idx) = 0;
  virtual void write(int array, const int64_t *idx, double v) = 0;
  virtual bool runs(int stmt, const int64_t *iv) { return true; }
  virtual void beforeNode(int node, const int64_t *iv) {}
  /// Before part `part` of a split loop node (Node::split): its iterations
  /// [first, last] in the loop's order, the communication placed for them
  /// (CommAction::part).
  virtual void beforePart(int node, const int64_t *iv, int part, int64_t first, int64_t last) {}
  /// Before a loop whose bounds are expressions: their elements (every rank
  /// evaluates every bound).
  virtual void beforeLoop(int slot, const int64_t *iv) {}
  /// Before a statement instance with replicated index references
  /// (CStmt::replicated), on every rank, before the node's communication.
  virtual void beforeStatement(int stmt, const int64_t *iv) {}
  /// Before loop node `node`'s iterations lo + t * step, t = its.first ..
  /// its.last (first 0, last the loop's last), at iv: the memory may narrow
  /// them (Iterations) to those outside which this processor runs no
  /// statement instance and no hook is due (owner-computes on its own
  /// elements), and answers false where it runs none. Not asked for a split
  /// loop.
  virtual bool ownIterations(int node, const int64_t *iv, int64_t lo, int64_t step,
                             Iterations &its) {
    return true;
  }
  virtual void beginRegion(int node) {}
  virtual void endRegion(int node) {}
  virtual void executed(int stmt) {}
};

/// A value as the array's element type stores it (f32 rounded, integers
/// truncated toward zero).
double storeAs(const std::string &type, double v);
/// The identity of a reduction operator.
double identity(Reduce r);
double combine(Reduce r, double a, double b);

class Interpreter {
public:
  Interpreter(const ExecProgram &x, Memory &m, std::vector<double> scalars);

  enum class Nest { Distributed, AsWritten };
  /// Runs phase k's distributed nest, or the nest as written (nothing for a
  /// skipped phase).
  void runPhase(int k, Nest nest = Nest::Distributed);

  /// The multi-index statement `s`'s reference `r` (an index reference when
  /// `index`) names at loop indices iv; reads index values through memory.
  void refIndex(int s, const CRef &r, const int64_t *iv, int64_t *out);
  /// Evaluates an expression of statement s (s < 0: of a bound, whose Ref
  /// nodes index `boundRefs`).
  double eval(int s, const CExpr &e, const int64_t *iv,
              const std::vector<CRef> *boundRefs = nullptr);
  /// A loop bound's value at iv.
  int64_t bound(const CBound &b, const int64_t *iv);

  std::vector<double> &scalars() { return scalars_; }
  std::vector<int64_t> &ivs() { return iv_; }

private:
  void runNode(int n);
  /// The source iteration of a split loop when it is one of [lo, hi]'s.
  std::optional<int64_t> sourceIteration(const SourceIteration &split, const CLoop &l,
                                         int64_t lo, int64_t hi) const;
  void runStatement(int s);

  const ExecProgram &x_;
  Memory &m_;
  std::vector<double> scalars_;
  std::vector<int64_t> iv_;
};

/// Column-major or row-major linear id of idx in [0, prod extents).
int64_t linearId(const CArray &a, const int64_t *idx);
int64_t elementCount(const CArray &a);

} // namespace dlayout::exec
