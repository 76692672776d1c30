//===- model/Program.h - The program model ----------------------*- C++ -*-===//
//
// The ProgramModel is the contract between dlayout's stages: the analyzer
// fills it from LLVM IR, every later stage (costs, solver, validation) reads it
// and nothing else. Its JSON form is "dlayout-model/1" (docs/schema/model.json,
// written and read by model/ProgramJson.h).
//
// The vocabulary is Gupta's (thesis ch. 3): a statement sits in a nest of
// loops, writes one reference and reads others; each subscript of a reference
// is classified as
//   constant  - no loop index appears                 A(3), A(N)
//   single    - alpha*i + beta, one loop index        A(I-1)
//   multiple  - alpha1*i1 + ... + alphak*ik + beta    A(I+J)
//   unknown   - anything else; the affine part is kept where there is one
//   indirect  - the value of another reference        X(COL(K))
// and carries a variation level: the nesting level (1 = outermost) of the
// innermost loop in which it changes, 0 for a loop-invariant subscript.
//
// Identifiers: loops are "L1", "L2", ... and statements "S1", "S2", ... in
// program order; arrays, scalars and parameters keep their source names
// (Fortran names are upper-cased, C names kept as written).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/IdIndex.h"

#include "model/Result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlayout {

/// sum(coeffs[loop] * iv(loop)) + sum(params[p] * p) + constant.
/// Keys of `coeffs` are loop ids, keys of `params` parameter names; zero
/// coefficients are never stored.
struct AffineExpr {
  std::map<std::string, int64_t> coeffs;
  std::map<std::string, int64_t> params;
  int64_t constant = 0;

  bool isConstant() const { return coeffs.empty() && params.empty(); }
  bool operator==(const AffineExpr &) const = default;
};

/// The value a statement computes, as a tree the validator can evaluate.
struct Expr {
  enum class Kind {
    Const,   // value
    Ref,     // refIndex: statement.refs[refIndex] (a read); in a subscript's
             // or a bound's expr: its exprRefs[refIndex]
    Scalar,  // name
    Iv,      // name = loop id
    Param,   // name
    Op,      // name in { + - * / neg min max abs sqrt sign exp log sin cos
             //           pow mod lt le gt ge eq ne and or not select cast }
    Call     // name: an intrinsic or external function
  };
  Kind kind = Kind::Const;
  double value = 0;
  int refIndex = -1;
  std::string name;
  std::vector<Expr> args;
  bool operator==(const Expr &) const = default;
};

struct Reference; // below

/// A loop bound: one affine expression, the max (lower bounds) or min (upper
/// bounds) of several, or a bound that is not affine, kept as text and, where
/// the analyzer could tell how to compute it, as an expression.
struct Bound {
  enum class Kind { Affine, Max, Min, NonAffine };
  Kind kind = Kind::Affine;
  std::vector<AffineExpr> terms; // 1 for Affine, >= 2 for Max/Min, 0 otherwise
  std::string text;              // source-like rendering, always filled
  /// NonAffine only, optional: the bound's value (evaluated on entry to the
  /// loop) over the enclosing loops' ivs, scalars, parameters and the
  /// elements exprRefs name (COUNT(I), R(I+1)); its Ref nodes index exprRefs.
  std::optional<Expr> expr;
  std::vector<Reference> exprRefs;
  bool operator==(const Bound &) const;
};

struct ArrayDim {
  int64_t extent = 0;             // number of elements, parameters bound
  int64_t lower = 0;              // lower bound: 1 in Fortran, 0 in C
  std::optional<AffineExpr> extentExpr; // symbolic extent (e.g. N) when known
  bool operator==(const ArrayDim &) const = default;
};

struct Array {
  std::string name;
  unsigned elementBytes = 8;
  std::string elementType = "f64"; // f32 f64 i32 i64 ...
  std::vector<ArrayDim> dims;      // in source order: Fortran column-major
                                   // (dims[0] varies fastest), C row-major
  bool columnMajor = true;
  std::string origin;              // "global", "local", "argument", "heap"
  SourceLoc loc;
  bool operator==(const Array &) const = default;
};

struct Scalar {
  std::string name;
  std::string type = "f64";
  SourceLoc loc;
  bool operator==(const Scalar &) const = default;
};

struct Loop {
  std::string id;
  std::string var;                 // induction variable as in the source
  std::optional<std::string> parent;
  unsigned level = 1;              // 1 = outermost
  Bound lower, upper;
  int64_t step = 1;                // may be negative
  double tripCount = 0;            // expected iterations (mean over the
                                   // enclosing iterations for triangular nests)
  bool parallel = false;
  std::vector<std::string> carries; // ids of the dependences it carries
  SourceLoc loc;
  /// A loop over the segments of a compressed layout (DO K = R(I), R(I+1) -
  /// 1 inside DO I, row pointers R): at the iterations of the enclosing loop
  /// `over` its runs follow one another through the `count` index values
  /// from `first` (those its index may subscript), so tripCount is count /
  /// over's tripCount on average. Set by the analyzer where the bounds are
  /// such a pair (analyzer/TripBounds.cpp).
  struct Segments {
    std::string over;
    int64_t first = 0;
    double count = 0;
    bool operator==(const Segments &) const = default;
  };
  std::optional<Segments> segments;
  bool operator==(const Loop &) const = default;
};

enum class SubscriptClass { Constant, Single, Multiple, Unknown, Indirect };

struct Subscript {
  SubscriptClass cls = SubscriptClass::Unknown;
  /// The subscript for constant/single/multiple; the known affine part for
  /// unknown (e.g. MJ in MJ + x) and the additive part for indirect.
  AffineExpr affine;
  unsigned variationLevel = 0;
  /// For indirect: the reference whose value is the index (one element).
  std::vector<Reference> index;
  /// For unknown: what could not be analysed, as text.
  std::string text;
  /// For unknown, optional: the whole subscript's value as an expression over
  /// the statement's loops' ivs, scalars, parameters and the elements
  /// exprRefs name (reads); its Ref nodes index exprRefs. The validator
  /// evaluates it; the estimator keeps using cls/affine/variationLevel.
  std::optional<Expr> expr;
  std::vector<Reference> exprRefs;
  bool operator==(const Subscript &) const;
};

struct Reference {
  enum class Access { Read, Write };
  std::string array;
  Access access = Access::Read;
  std::vector<Subscript> subscripts; // one per dimension, source order
  SourceLoc loc;
  bool operator==(const Reference &) const = default;
  /// Some subscript is an element of another array (x(col(k))).
  bool indirect() const {
    for (const Subscript &x : subscripts)
      if (x.cls == SubscriptClass::Indirect) return true;
    return false;
  }
};
inline bool Subscript::operator==(const Subscript &o) const {
  return cls == o.cls && affine == o.affine &&
         variationLevel == o.variationLevel && index == o.index &&
         text == o.text && expr == o.expr && exprRefs == o.exprRefs;
}
inline bool Bound::operator==(const Bound &o) const {
  return kind == o.kind && terms == o.terms && text == o.text &&
         expr == o.expr && exprRefs == o.exprRefs;
}

/// Operation counts of one execution of a statement: t(S) of thesis §3.2.
struct OpCounts {
  unsigned loads = 0, stores = 0;
  unsigned fadd = 0, fmul = 0, fdiv = 0; // floating point (sub counts as add)
  unsigned iadd = 0, imul = 0, idiv = 0; // integer arithmetic on values
  unsigned intrinsics = 0;               // sqrt, abs, sign, min, max, ...
  unsigned compares = 0;
  bool operator==(const OpCounts &) const = default;
};

struct Guard {
  Expr condition;          // the statement runs when this is non-zero
  std::string text;
  bool operator==(const Guard &) const = default;
};

struct Statement {
  std::string id;
  std::vector<std::string> loops; // enclosing loops, outermost first
  SourceLoc loc;
  OpCounts ops;
  /// "sum", "prod", "max", "min", "and", "or", "xor" when the statement is a
  /// reduction into a scalar or an array element; empty otherwise.
  std::string reduction;
  /// The written reference is refs[write] (an array element); -1 when the
  /// statement writes the scalar `scalarWrite` instead.
  int write = -1;
  std::string scalarWrite;
  std::vector<Reference> refs;
  Expr expr;
  std::vector<Guard> guards;       // all must hold
  double probability = 1.0;        // reaching probability rho(S)
  bool operator==(const Statement &) const = default;
};

struct Dependence {
  enum class Kind { Flow, Anti, Output };
  std::string id;                 // "D1", ...
  std::string from, to;           // statement ids (source, sink)
  Kind kind = Kind::Flow;
  std::string variable;           // array or scalar name
  std::optional<std::string> carriedBy; // loop id; none = loop-independent
  std::vector<std::string> direction;   // "<" "=" ">" "*" per common loop
  std::vector<std::optional<int64_t>> distance; // per common loop
  bool operator==(const Dependence &) const = default;
};

/// A top-level loop nest, or a run of statements outside any loop, in
/// program order.
struct Phase {
  std::string id;                 // "P1", ...
  std::optional<std::string> loop;
  std::vector<std::string> statements;
  bool operator==(const Phase &) const = default;
};

struct Warning {
  std::string kind;               // "aliasing", "unknown-call", "non-affine",
                                  // "irreducible", "trip-count", ...
  std::string message;            // names the assumption made
  SourceLoc loc;
  bool operator==(const Warning &) const = default;
};

struct Program {
  std::vector<std::string> sources;
  std::string language;           // "fortran", "c", "c++", "ir"
  std::vector<std::string> functions;
  std::map<std::string, int64_t> params;
  std::vector<Array> arrays;
  std::vector<Scalar> scalars;
  std::vector<Loop> loops;
  std::vector<Statement> statements;
  std::vector<Dependence> dependences;
  std::vector<Phase> phases;
  std::vector<Warning> warnings;

  const Array *findArray(const std::string &name) const;
  const Loop *findLoop(const std::string &id) const;
  const Statement *findStatement(const std::string &id) const;
  bool operator==(const Program &) const = default;

  // Caches for the find* above (IdIndex.h); not part of the value.
  IdIndex arrayIndex, loopIndex, statementIndex;
};

const char *toString(SubscriptClass c);
std::optional<SubscriptClass> subscriptClassFromString(const std::string &s);
const char *toString(Dependence::Kind k);
std::optional<Dependence::Kind> dependenceKindFromString(const std::string &s);

/// Evaluates an affine expression; the value of a loop's induction variable is
/// taken from `ivs` (missing = 0), parameters from `params`. Fails on a
/// parameter that has no value.
Result<int64_t> evaluate(const AffineExpr &e,
                         const std::map<std::string, int64_t> &params,
                         const std::map<std::string, int64_t> &ivs = {});

/// Renders an affine expression in source form, naming loops by their
/// induction variables ("I - 1", "2*J + N").
std::string render(const AffineExpr &e, const Program &p);

/// Checks what the JSON reader cannot check field by field: values in range
/// (positive extents, non-zero steps, probabilities in [0, 1], ...) and that
/// every id, name and index refers to something that exists and agrees with
/// it (subscript classes and variation levels, loop nesting, which loops carry
/// which dependences, phases). The message names the JSON path of the first
/// problem: "statements[3].refs[1].array: no array named Q".
Status verify(const Program &p);

} // namespace dlayout
