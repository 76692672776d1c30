//===- validate/executor/ExecProgram.h - A ProgramModel made executable -*- C++ -*-===//
//
// compile(program, plan) turns a ProgramModel into what the executor walks:
//   - two loop trees per phase: the nest as written (a loop's children its
//     statements and inner loops in program order), which the sequential
//     reference runs, and the distributed nest the estimator assumes (the
//     plan's paths, costmodels/LoopDistribution.h: each loop split over the
//     strongly connected components of its body), which the distributed run
//     walks, with the doall loops outside a statement's recurrence brought
//     inside it as the estimator prices them (the plan's orders,
//     Interchange.h); the comparison of the two runs checks both;
//   - every subscript and bound as an affine form over loop slots, every
//     expression with its operator resolved, every reference an index into
//     the array table;
//   - unknown subscripts and non-affine bounds the model gives as
//     expressions (Subscript::expr, Bound::expr) are evaluated at run time;
//     their elements are broadcast to every rank by their home (CStmt::
//     replicated, CBound::refs), and so are the index values of an indirect
//     left-hand side (owner-computes with an inspector);
//   - per phase, whether it can be executed at all: a phase is skipped (with
//     the reason) when one of its statements has a subscript the model keeps
//     only as text (class "unknown" without an expression), a nested
//     indirection, or a loop bound that is not affine and has no expression.
//     Skipped phases leave their arrays as the seeded fill.
//   - per read reference, where its communication happens
//     (validate/executor/CommPlacement.h).
//
// A scalar assigned in a loop body and read only later in the same body is
// private (the thesis's privatised temporaries): it is computed where its
// readers run, not on every rank (CStmt::consumers).
//
// Reductions into scalars run on the owner of their first distributed operand
// with a partial result per rank, combined (a Reduction, Table 6.1) after the
// outermost loop around the statement in which no other statement touches the
// scalar. Reductions into array elements run on the owner of their home
// operand, with partial results per element combined onto its holders after
// their region (model/Reduction.h). Library code: nothing printed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Program.h"
#include "model/Result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dlayout::exec {

/// sum(coeff * iv[slot]) + constant.
struct Affine {
  std::vector<std::pair<int, int64_t>> terms;
  int64_t constant = 0;
  int64_t eval(const int64_t *iv) const {
    int64_t v = constant;
    for (const auto &[s, c] : terms) v += c * iv[s];
    return v;
  }
  bool usesSlotBelow(const std::vector<int> &outer) const;
};

struct CRef;
struct CExpr;

struct CBound {
  Bound::Kind kind = Bound::Kind::Affine; // Affine, Max, Min, or NonAffine
  std::vector<Affine> terms;
  /// NonAffine: the model's expression (Interpreter::bound evaluates it);
  /// its Ref nodes (table 2) index refs, fetched to every rank on entry.
  std::vector<CExpr> expr; // 0 or 1
  std::vector<CRef> refs;
  int64_t eval(const int64_t *iv) const; // affine kinds only
};

enum class Op {
  Add, Sub, Mul, Div, Neg, Min, Max, Abs, Sqrt, Sign, Exp, Log, Sin, Cos, Pow,
  Mod, Lt, Le, Gt, Ge, Eq, Ne, And, Or, Not, Select, Cast
};

struct CExpr {
  Expr::Kind kind = Expr::Kind::Const;
  double value = 0; // Const; Param (bound)
  int index = -1;   // Ref: statement ref; Scalar: scalar id; Iv: loop slot
  int table = 0;    // Ref: 0 statement refs, 1 indexRefs, 2 the bound's refs
  Op op = Op::Add;
  std::vector<CExpr> args;
};

struct CSub {
  bool indirect = false;
  Affine affine;     // the subscript, or the additive part of an indirect one
  int indexRef = -1; // indirect: index into CStmt::indexRefs
  /// An unknown subscript the model gives as an expression (its Ref nodes
  /// index CStmt::indexRefs, fetched to every rank before the instance).
  std::vector<CExpr> expr; // 0 or 1
};

struct CRef {
  int array = -1;
  std::vector<CSub> subs;
  bool write = false;
  int estimatorLevel = 0; // where the estimator places its communication
  int level = 0;          // where the executor places it (>= estimatorLevel)
  bool indirect() const {
    for (auto &s : subs) if (s.indirect) return true;
    return false;
  }
};

enum class Reduce { None, Sum, Prod, Max, Min, And, Or, Xor };

struct CStmt {
  std::string id;
  int phase = -1;
  std::vector<int> loops; // slots, outermost first (as run: Interchange.h)
  int lhs = -1;           // refs index of the written element, -1: scalar
  int scalar = -1;        // the written scalar
  Reduce reduce = Reduce::None;
  /// Reductions: the read ref whose owner runs an instance (-1: every rank
  /// runs every instance of a scalar reduction, the scalar staying
  /// replicated; the lhs's holders run a reduction into an array element),
  /// and the slot of the loop after which the partial results are combined.
  int operand = -1;
  int regionLoop = -1;
  /// A reduction into an array element: the ref reading the element it
  /// writes (its partial result where that rank does not hold it), or -1.
  int selfRead = -1;
  /// A private scalar (model/PrivateScalars.h): the statements of the same
  /// loop body that read it; an instance runs where theirs run. Empty: a
  /// scalar assignment runs on every rank.
  std::vector<int> consumers;
  std::vector<CRef> refs;
  std::vector<CRef> indexRefs; // the index references of indirect subscripts
                               // and the references in subscript expressions
  /// indexRefs every rank needs before an instance runs (one element each,
  /// broadcast by its home): those in subscript expressions, and those of an
  /// indirect left-hand side (owner-computes with an inspector) unless a
  /// replicating CommAction gathers them for a whole loop.
  std::vector<int> replicated;
  /// The outermost loop level from which the instances can be enumerated
  /// ahead of running them, and so the outermost level its communication can
  /// be placed at: 0 for affine subscripts and bounds; inside the loops that
  /// assign a scalar its subscript or bound expressions read; for an
  /// indirect left-hand side, inside the loops that write its index array;
  /// depth() (per instance) when a subscript expression reads an element.
  int aheadLevel = 0;
  /// The level at which a replicating CommAction gathers the indirect
  /// left-hand side's index values for every rank (-1: per instance).
  int gatheredAt = -1;
  CExpr expr;
  std::vector<CExpr> guards;
  OpCounts ops;
  int depth() const { return static_cast<int>(loops.size()); }
};

/// The scalars an expression reads, added to `out`.
void scalarsOf(const CExpr &e, std::set<int> &out);

struct CLoop {
  std::string id, var;
  int depth = 1;          // 1 = outermost
  CBound lower, upper;
  int64_t step = 1;
};

struct CArray {
  std::string name, type;
  std::vector<int64_t> extents, lowers;
  unsigned elementBytes = 8;
  bool columnMajor = true;
  bool isIndex = false;     // holds indices (an indirect subscript's, a loop bound's)
  int64_t indexLow = 0, indexHigh = 0; // valid index values for the fill
  bool subscripts = false;  // an indirect subscript's index array
  /// Row pointers: one loop runs from element j to element j + 1 minus one
  /// (DO K = R(I), R(I+1) - 1); filled non-decreasing (Fill.h).
  bool segments = false;
};

/// One read (or index) reference whose communication happens at a node.
struct CommItem {
  int stmt = -1;
  int ref = -1;
  bool index = false; // refs[ref] is indexRefs[ref]
  /// >= 0: the item is the ref-th element reference of the bounds (lower's,
  /// then upper's) of the statement's loop at this position; its instances
  /// are those of the loops outside that loop.
  int boundLoop = -1;
};

/// The communication for one array before a node: every item's elements
/// needed in the node's subtree (one iteration of the enclosing loops).
struct CommAction {
  int array = -1;
  int level = 0; // items' placement level: the node is at depth level + 1
  /// Before a split loop node (Node::split): 1 for the iterations up to and
  /// including the source iteration, run before the node; 2 for those after
  /// it, run between the two. 0: every iteration, before the node.
  int part = 0;
  bool indirect = false;  // inspector/executor (Schedule) instead of a
                          // schedule every rank computes
  bool invariant = false; // same elements in every execution: reuse
  bool replicate = false; // every rank gets the items' elements: an all-
                          // gather by their homes (an indirect left-hand
                          // side's index values, a loop's bound elements,
                          // for a whole loop)
  std::vector<CommItem> items;
};

/// Section 3.3.1 of the thesis (A(I) = F(A(K)) in loop I): the iteration
/// numerator(iv) / divisor of a loop, the only one that writes what a read
/// in its body fetches; none where the division leaves a remainder.
struct SourceIteration {
  Affine numerator;
  int64_t divisor = 1;
  bool operator==(const SourceIteration &o) const {
    return numerator.terms == o.numerator.terms && numerator.constant == o.numerator.constant &&
           divisor == o.divisor;
  }
};

struct Node {
  bool isLoop = false;
  int index = -1; // loop slot or statement index
  std::vector<int> children;
  std::vector<int> actions;    // CommAction indices run before the node
  std::vector<int> reductions; // statements whose region is this loop
  /// A loop whose bounds read elements (DO J = 1, COUNT(I)): the level of
  /// the enclosing node whose replicating CommAction gathers them for every
  /// entry (-1: broadcast by their home on each entry).
  int boundsGatheredAt = -1;
  /// A loop whose fetches of what one iteration writes are split there
  /// (CommAction::part): the values read before it are fetched before the
  /// loop, those read after it once the source iteration has run.
  std::optional<SourceIteration> split = std::nullopt;
};

struct CPhase {
  std::string id;
  bool executable = true;
  std::string reason;
  std::vector<int> roots;        // top-level nodes of the distributed nest
  std::vector<int> programRoots; // top-level nodes of the nest as written
  bool distributed = false;      // roots follow the plan's paths
};

struct Placement {
  std::string statement;
  int ref = -1;
  std::string array;
  int estimator = 0, used = 0;
};

struct ExecProgram {
  std::vector<CArray> arrays;
  std::vector<std::string> scalars, scalarTypes;
  std::vector<CLoop> loops; // by slot
  std::vector<CStmt> stmts;
  std::vector<Node> nodes;
  std::vector<CommAction> actions;
  std::vector<CPhase> phases;
  std::vector<Placement> placements;
  int refinements = 0;
  int arrayIndex(const std::string &name) const;
};

/// levels[statement id][ref index] = the estimator's placement level of that
/// (read) reference; missing entries are placed per instance.
using PlacementLevels = std::map<std::string, std::vector<int>>;

/// What validate/PlacementPlan.h writes: the placement levels, and per
/// statement id its path in the distributed nest (a phase with a statement
/// missing runs as written).
struct Plan {
  PlacementLevels levels;
  /// indexLevels[statement id][ref][subscript]: the estimator's level of an
  /// indirect subscript's index reference; -1 where none.
  std::map<std::string, std::vector<std::vector<int>>> indexLevels;
  std::map<std::string, std::vector<int>> paths;
  /// orders[statement id]: its loops' levels as written (from 1) in the
  /// order the estimator prices them (Fig. 4.8; validate/PlacementPlan.h);
  /// missing: as written. The executor interchanges them so where it can
  /// (Interchange.h).
  std::map<std::string, std::vector<int>> orders;
};

Result<ExecProgram> compile(const Program &p, const Plan &plan);

} // namespace dlayout::exec
