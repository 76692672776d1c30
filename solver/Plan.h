//===- solver/Plan.h - A partial distribution decision, as the passes see it -*- C++ -*-===//
//
// The passes decide one parameter of Eq. 2.1 at a time (thesis section 2.1):
// a Plan holds what is decided so far -- the alignment classes (each array
// dimension's class, i.e. its virtual mesh dimension), per class blocked /
// cyclic / block-cyclic(k), which classes stay on the mesh and how many
// processors each gets, and which arrays are replicated -- and turns into a
// dlayout-layout/1 Layout that the estimator can cost. Dimensions of a class
// with one processor are written as collapsed (f(A_k, i) = 0).
//
// SolverContext wraps the estimator for the passes' drivers: estimates are
// cached by layout, so the same default layout is costed once.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/Estimate.h"
#include "costmodels/ProgramAnalysis.h"
#include "solver/Advice.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace dlayout::solver {

struct Plan {
  int classes = 0;                     // D: alignment classes
  std::vector<std::vector<int>> align; // per array (program order), per dim: class or -1
  /// Per array, per class: Block, Cyclic or BlockCyclic (decided per mesh
  /// dimension and CR set, so arrays of one class may differ).
  std::vector<std::vector<DistKind>> kind;
  std::vector<std::vector<int64_t>> block; // per array, per class: BlockCyclic's block
  std::vector<int> kept;               // classes on the mesh, in mesh order
  std::vector<int64_t> mesh;           // processors per kept class
  std::vector<bool> replicated;        // per array

  int64_t procs() const {
    int64_t p = 1;
    for (auto n : mesh) p *= n;
    return p;
  }
};

Layout toLayout(const Program &p, const Plan &plan);
/// The layout of the listed arrays alone (indices into p.arrays): enough to
/// cost a statement that reads and writes no other (statementSeconds).
Layout toLayout(const Program &p, const Plan &plan, const std::vector<int> &arrays);
/// A plan with `classes` classes, every array dimension d in class d (when
/// d < classes), everything blocked, nothing replicated, no mesh.
Plan identityPlan(const Program &p, int classes);
/// Index of `a` in p.arrays.
int arrayIndex(const Program &p, const Array *a);

/// Every ordered factorisation of P into `parts` factors >= 1 (thesis
/// section 5.4 tries only powers of two; here any P).
std::vector<std::vector<int64_t>> factorisations(int64_t P, int parts);
/// The most nearly square factorisation (the thesis's default N1 = sqrt(N)).
std::vector<int64_t> balancedShape(int64_t P, int parts);
std::string meshString(const std::vector<int64_t> &mesh);

class SolverContext {
public:
  SolverContext(const Program &p, const Machine &m, const Estimator &est,
                const cost::ProgramFacts &facts, int64_t procs)
      : program(p), machine(m), estimator(est), facts(facts), procs(procs) {}

  /// The arrays statement sf reads or writes, as indices into program.arrays.
  std::vector<int> statementArrays(const cost::StatementFacts &sf) const;
  /// Full estimate (with terms), cached.
  Result<const Estimate *> evaluate(const Layout &l);
  /// Seconds only, cached.
  Result<double> seconds(const Layout &l);
  /// seconds() of each layout, those not yet cached estimated side by side
  /// (parallelFor): the passes' candidate meshes.
  Result<std::vector<double>> seconds(const std::vector<Layout> &ls);
  /// Sum of the terms of statement `stmt` (optionally only communication on
  /// rhs array `array`) in the estimate of `l`: that statement alone is
  /// costed (and cached), so a pass's quality measures cost O(statement).
  /// `l` needs only the statement's arrays (statementArrays).
  Result<double> statementSeconds(const Layout &l, const std::string &stmt,
                                  const std::string &array = "");
  /// The terms of statement `stmt` alone under `l` (cached; as above),
  /// with their keys and seconds alone (Breakdown::Keys).
  Result<const std::vector<EstimateTerm> *> statementTerms(const Layout &l,
                                                          const std::string &stmt);

  const Program &program;
  const Machine &machine;
  const Estimator &estimator;
  const cost::ProgramFacts &facts;
  int64_t procs;
  std::vector<DecisiveConstraint> constraints;
  std::vector<Warning> warnings;
  size_t evaluations = 0;

private:
  std::map<std::string, std::unique_ptr<Estimate>> full_;
  std::map<std::string, double> secs_;
  std::map<std::string, std::vector<EstimateTerm>> statementTerms_; // layout + statement
};

std::string layoutKey(const Layout &l);
/// layoutKey up to a renumbering of the mesh dimensions: 2x8 with A's rows
/// on dimension 1 and 8x2 with them on dimension 2 are the same layout.
std::string equivalenceKey(const Layout &l);

} // namespace dlayout::solver
