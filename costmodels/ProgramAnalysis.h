//===- costmodels/ProgramAnalysis.h - Layout-independent facts --*- C++ -*-===//
//
// What the estimator needs to know about a program before any layout is
// given, computed once per program (the thesis's `scc` and `setup` passes,
// section 3.1):
//   - per loop around each statement: the expected iteration count n_l and
//     range r_l, with inner bounds that depend on an outer index evaluated at
//     that index's expected value, the (integer) mean of its bounds (Fig. 3.2);
//   - per subscript: its canonical form sum(alpha_l * j_l) + beta over the
//     statement's loops, its class and variation level (section 3.1);
//   - per statement: t(S)'s operation counts, rho(S), the loops it is
//     parallel with respect to (Fig. 3.3), and the self-dependence facts the
//     overlap analysis uses (section 3.3);
//   - per rhs array reference: the outermost legal level for its
//     communication (Fig. 4.4), hence its initial type-1 / type-2 loops, and
//     the dependence facts pipelining detection needs (section 4.5.3);
//     beyond the thesis, also per index reference of an indirect subscript
//     (IA(I) in X(IA(I))), whose values are read too.
// Loop positions are 0-based (position l is the thesis's level l + 1).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Program.h"

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlayout::cost {

/// Where parallelism and communication placement come from.
enum class PlacementSource {
  /// Figs. 3.3 and 4.4 on the model's dependence graph, with loop
  /// distribution (a loop is a doall for S when no dependence inside S's SCC
  /// is carried by it).
  Dependences,
  /// Every loop not marked parallel (Loop::parallel) is a recurrence for
  /// every statement in it and contains the communication of every
  /// reference: Figs. 3.3 and 4.4 on a dependence graph with a carried
  /// dependence in each such loop, as Parafrase-2's conservative tests gave
  /// PARADIGM (the thesis's CAG weights show Transfers repeated in tred2's
  /// J loops, section 6.2.1). Reproduces the thesis's own estimates.
  SequentialLoops
};

struct AnalysisOptions {
  PlacementSource placement = PlacementSource::Dependences;
  /// Reductions (Statement::reduction) do not make their own loop
  /// sequential: their self-dependence through the reduction variable is
  /// dropped from Fig. 3.3, as the partial results are combined by a
  /// Reduction primitive.
  bool parallelReductions = true;
  /// Cost the communication of assignments to scalars that are not
  /// reductions (the thesis analyses only assignments to array elements and
  /// to reduction scalars, section 5.4.1).
  bool scalarCommunication = false;
};

/// A loop bound as constant + sum of alpha * j over the statement's loop
/// positions, parameters bound.
struct BoundForm {
  double constant = 0;
  std::vector<std::pair<int, int64_t>> terms; // (loop position, alpha)
};

/// One loop around a statement.
struct LoopFacts {
  const Loop *loop = nullptr;
  double trips = 0;   // n_l: expected iteration count
  double range = 0;   // r_l = max(f_l - i_l + s_l, 0), for |s_l|
  int64_t step = 1;   // |s_l|
  double first = 0;   // i_l, the first index value (expected)
  bool doall = false; // marked parallel (dotodoall or the user)
  /// A sample of a driving loop (OuterSamples.h) stands for `stands`
  /// iterations from `standsFrom`, trips 1 at one of them; 1 else.
  int64_t stands = 1;
  int64_t standsFrom = 0;
  /// The bounds over the enclosing loops' indices, one form per term of a
  /// max or min; both empty where a bound is not affine in them. trips,
  /// range and first take those indices at their means (Fig. 3.2); at()
  /// takes them at given values (beyond the thesis: a triangular nest
  /// counted per outer iteration, Computation.h).
  std::vector<BoundForm> lower, upper;
  bool lowerMax = false, upperMax = false; // each the max, or the min, of its forms
  /// s_l with its sign: the step between consecutive index values.
  int64_t signedStep() const { return loop && loop->step < 0 ? -step : step; }
  /// The index of a loop at one iteration (a sample's, OuterSamples.h, or
  /// one of a single trip); nullopt for any other.
  std::optional<int64_t> onlyIndex() const {
    if (trips != 1 || first != std::floor(first))
      return std::nullopt;
    return int64_t(first);
  }
  /// Some bound varies with the index of the loop at position `pos`.
  bool boundsVaryWith(int pos) const;
  /// Takes this loop's trips, range and first at the enclosing loops'
  /// indices `index` (by position); false, unchanged, where its bounds are
  /// not affine in them.
  bool moveTo(const std::vector<int64_t> &index);
};

/// A subscript as sum over loop positions of alpha * j + constant.
struct SubscriptForm {
  SubscriptClass cls = SubscriptClass::Unknown;
  std::vector<std::pair<int, int64_t>>
      terms;            // (loop position, alpha), ascending
  int64_t constant = 0; // beta, parameters bound
  int varLevel = 0;     // 1-based; 0 = invariant in every loop
  /// Unknown or indirect whose recorded affine part is alpha * j_l with l
  /// deeper than the unknown part's variation level (thesis section 3.1:
  /// "alpha1 * i1 + x"); `terms` then holds that part.
  bool knownPart = false;
  int unknownLevel = 0;   // knownPart: the level at which x varies (0: none)
  std::string indexArray; // indirect: the array whose value is the index
  const Subscript *source = nullptr;

  /// Single-index in the loop of varLevel: of that class, or "alpha1 * i1
  /// + x" (section 3.1, treated as single-index in the i1 loop; the thesis's
  /// olda, section 6.2.4, aligns XRSPQ(mrsij) with XIJ(mj) so).
  bool singleIndex() const {
    return cls == SubscriptClass::Single || knownPart;
  }
  /// Position of the innermost loop the subscript varies in, -1 if none.
  int innermost() const { return varLevel - 1; }
  int64_t alphaAt(int pos) const {
    for (const auto &[p, a] : terms)
      if (p == pos)
        return a;
    return 0;
  }
};

/// An affine subscript's value at the loop indices `index` (by position);
/// nullopt where it is not affine in them.
inline std::optional<int64_t> valueAt(const SubscriptForm &f, const std::vector<int64_t> &index) {
  if (f.cls != SubscriptClass::Constant && f.cls != SubscriptClass::Single &&
      f.cls != SubscriptClass::Multiple)
    return std::nullopt;
  int64_t v = f.constant;
  for (const auto &[pos, alpha] : f.terms)
    v += alpha * index[size_t(pos)];
  return v;
}

struct RefFacts {
  const Reference *ref = nullptr;
  int array = -1; // index into ProgramFacts::arrays
  std::vector<SubscriptForm> subs;
};

/// A read reference whose communication is estimated.
struct RhsFacts {
  RefFacts ref;
  int commLevel = 0;       // lmax of Fig. 4.4 (0: outside every loop)
  std::vector<bool> type2; // per loop position: must contain the communication
  bool reductionOperand = false;
  /// A reduction into a scalar runs on the owners of its home operand, its
  /// first read reference that is not indirect (as in the executor); the
  /// partial results are combined there (TermWalk::scalarCombine). So does
  /// a reduction into an array element (model/Reduction.h).
  bool home = false;
  /// An operand of a reduction (into an array element or a scalar) other
  /// than its home: brought to the home operand's owner
  /// (StatementFacts::home); also every operand of a private scalar read by
  /// a reduction into an array element.
  bool toHome = false;
  /// The index values of an indirect left-hand side (Y(IA(I)): IA(I)):
  /// read on every processor, as a replicated element's operand is
  /// (ProgramAnalysis.cpp, the index references).
  bool everyProcessor = false;
  /// Pipelining (section 4.5.3), per loop position k >= 1: whether every
  /// dependence on this array into S from inside loop k-1 has "=" or a known
  /// distance at k, and bdist_k.
  std::vector<bool> pipelineOk;
  std::vector<int64_t> bdist;
  /// Positions of loops in which the array of an indirect subscript's index
  /// is written (the inspector must be re-run per iteration of the
  /// outermost of them).
  int indexWrittenIn = -1;
  /// Section 3.3.1: the position of the loop split at its source iteration
  /// for this read (the element it fetches is written by that iteration
  /// alone, oneWritingIteration), fetched before the iterations up to it
  /// and again after it; -1: none.
  int splitLoop = -1;
};

/// Section 3.3: a statement whose only flow dependence is on itself.
struct OverlapFacts {
  enum Kind { None, OneToMany, Constant };
  Kind kind = None;
  int loop = -1;        // position of the loop that carries it
  int dim = -1;         // the lhs dimension whose subscript varies there
  int64_t distance = 0; // Constant: d
  double source = 0;    // OneToMany: the source iteration's index value d_l
  bool symbolicSource = false; // source evaluated at expected outer indices
};

struct StatementFacts {
  const Statement *stmt = nullptr;
  std::string phase;
  std::vector<LoopFacts> loops;
  double rho = 1;
  /// Where rho is the default 1: the fraction of the loops' iterations at
  /// which the guards that read only indices and parameters hold
  /// (GuardFraction.h), for the computation alone.
  double guardsHold = 1;
  bool hasLhs = false; // writes an array element
  bool scalarReduction = false;
  /// Beyond the thesis (whose scalar lhs is one position): an assignment
  /// to a scalar that is neither a reduction nor private runs on every
  /// processor, so its operands reach every one, as a replicated array
  /// element's do (TermWalk, Subsumption.h).
  bool replicatedScalar() const { return !hasLhs && !scalarReduction; }
  /// A reduction's region: the position of the outermost loop it reduces
  /// over (a scalar's, model/PrivateScalars.h; an array element's,
  /// model/Reduction.h); -1 when it has none.
  int reductionRegion = -1;
  /// A reduction into an array element (model/Reduction.h) or a scalar
  /// (not under the thesis's placement), or a private scalar read by a
  /// reduction into an array element: the reduction's home operand, whose
  /// owners run the instances where it is distributed (hasHome false:
  /// owner-computes).
  bool hasHome = false;
  RefFacts home;
  RefFacts lhs;
  /// A private scalar read by several array assignments (model/PrivateScalars.h):
  /// the lhs of each but the one `lhs` stands in for. Their owners run it
  /// too, and its operands reach them all: eflux's QSP, read by FS(I,J,N)
  /// for N = 1..4, on every owner of a plane N.
  std::vector<RefFacts> alsoRunBy;
  std::vector<bool> parallel; // per loop position (Fig. 3.3)
  /// Beyond the thesis, per loop position that is not parallel: the arrays
  /// (ProgramFacts indices) whose dependences alone make it sequential, when
  /// the statement references each of them; empty otherwise. Along a mesh
  /// dimension that distributes none of them, every processor holds the same
  /// part of them and runs their writes itself (owner-computes on a
  /// replicated left-hand side), so the dependences hold on each processor
  /// and the loop's iterations are divided over that dimension like a
  /// doall's (Computation.h). Fig. 4.20's A(I) = F(A(I-1)) with A on no mesh
  /// dimension, or on the rows', and C(I,J) distributed by columns.
  std::vector<std::vector<int>> sequentialThrough;
  /// Beyond the thesis, per loop position that is not parallel: every
  /// dependence of the recurrences that make it sequential
  /// (DependenceLevels::recurrenceDependences) joins instances that one
  /// processor runs, whatever the layout: both statements write the
  /// dependence's array at their lhs, reference it at that element alone
  /// and run at its owner. The recurrence then orders each processor's own
  /// instances only, and the loop is divided like a doall's (Computation.h).
  /// Fig. 2.2's XRSIQ(MI,MQ) and XRSIQ(MI,MP), sequential in MQ through
  /// each other's columns, each column updated by its owner alone.
  std::vector<char> ownerLocal;
  /// Beyond the thesis: no communication of any statement can be placed
  /// inside any of its loops, whatever the layout (every reference of the
  /// statements nested in them placed outside them by Fig. 4.4, or read at
  /// the element its statement writes, which its owner holds). The
  /// processors then run its instances without waiting for one another
  /// (BodyBusiest.h).
  bool quietLoops = false;
  std::vector<RhsFacts> rhs;
  OverlapFacts overlap;
  /// Its place in the distributed nest the estimator assumes
  /// (LoopDistribution.h): statements share the copy of their loop at
  /// position q where their paths agree up to q; empty in no phase.
  std::vector<int> path;

  /// The arrays (ProgramFacts indices) its cost reads the layout of: its
  /// lhs, its home and the others it runs by, then its operands'; with
  /// repeats.
  std::vector<int> arraysCosted() const;
};

struct ProgramFacts {
  const Program *program = nullptr;
  std::vector<const Array *> arrays;
  std::map<std::string, int> arrayIndex;     // exact names
  std::map<std::string, int> arrayIndexFold; // upper-cased (Fortran)
  bool caseInsensitive = false;
  std::vector<StatementFacts> statements;
  std::map<std::string, int> statementIndex; // by statement id
  std::vector<Warning> warnings;

  int findArray(const std::string &name) const;
  /// The facts of the statement with this id, or null.
  const StatementFacts *findStatement(const std::string &id) const;
};

/// A subscript's value at the expected index of each loop it reads (the
/// middle of the loop's range; a loop of one trip, its index).
double expectedValue(const StatementFacts &sf, const SubscriptForm &h);
/// Section 3.3.1: where the element `r` reads is written by at most one
/// iteration of the loop at position `pos` of S's own lhs (in some dimension
/// the lhs subscript varies with that loop alone and r's does not vary in
/// it), the index value of that iteration, at the outer loops' expected
/// indices (not an index of the loop where none writes it); nullopt
/// otherwise.
std::optional<double> oneWritingIteration(const StatementFacts &sf, const RefFacts &r, int pos);

Result<ProgramFacts> analyzeProgram(const Program &p,
                                    const AnalysisOptions &opts = {});

} // namespace dlayout::cost
