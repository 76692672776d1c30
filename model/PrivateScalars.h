//===- model/PrivateScalars.h - Scalars private to a loop body -*- C++ -*-===//
//
// The thesis keeps scalars "either replicated on all processors, or
// privatized" (Gupta, ch. 1 and §2.1). A scalar is a private temporary of a
// loop body when an unconditional assignment to it in that body is read
// only by later statements of the same body -- or by statements whose own
// body assigns it first:
//
//     DO I ...                    QSP = (YY*W(I+1,J,2) - ...)/W(I+1,J,1)
//       XY = X(I,J,1) - X(I,J-1,1)
//       FS(I,J,1) = QSP*W(I+1,J,1) + ...
//
// Each iteration's value is then needed only where the statements reading
// it run, so the assignment is carried out there (its computation divided
// like theirs, its operands fetched for them) rather than on every
// processor. A reduction into the scalar inside an inner loop of the same
// body, between the assignment and its readers, belongs to it (edge's
// FLUX = 0, FLUX = FLUX + EDGEDATA(I,K) * (VB - VA) over K, then
// Y(NODE(I,1)) = Y(NODE(I,1)) + FLUX): it too runs where the readers run,
// whole, with no partial results to combine. An assignment under a guard
// (an IF) is private when every reader it reaches is under that guard too,
// and nothing between them can change the guard's value: dgefa's
// T = A(L,J) ... A(K,J) = T below IF (A(L,K) .EQ. 0) GO TO 40. Not private:
// a scalar reduced anywhere else, read by a loop bound or a subscript (every
// processor evaluates those), assigned under a guard some reader is not
// under, or read where no assignment of the same body reaches it (its value
// flows out of the loop or into the next iteration).
//
// The estimator (costmodels/ProgramAnalysis) and the executor
// (validate/executor/ExecProgram) both use this one rule.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Program.h"

#include <set>
#include <string>
#include <vector>

namespace dlayout {

/// Whether e reads an array element.
bool readsElement(const Expr &e);
/// Adds the scalars statement s reads to `out`: in its expression, its
/// guards and its subscript expressions (not its loops' bounds).
void scalarsRead(const Statement &s, std::set<std::string> &out);
/// Adds the scalars statement s's subscript expressions read to `out`.
void scalarsReadBySubscripts(const Statement &s, std::set<std::string> &out);
/// Adds the scalars a loop bound's expression reads to `out`.
void scalarsRead(const Bound &b, std::set<std::string> &out);

/// Per statement (index into p.statements): the statements that read the
/// private scalar it assigns (or reduces into, for a reduction that belongs
/// to a private assignment), in program order; empty when it assigns an
/// array element or a scalar that is not private. Statements are in program
/// order in p.statements. `guarded` false: no assignment under a guard is
/// private (as Parafrase-2 saw programs, for the thesis's placement).
std::vector<std::vector<size_t>> privateScalarReaders(const Program &p, bool guarded = true);

/// The array assignments whose owners run statement s: s itself when it
/// writes an array element, else, for a private scalar, every array
/// assignment among its readers (through readers that are private scalars
/// themselves), in program order, each once; empty when there is none.
std::vector<size_t> privateScalarStandIns(const std::vector<std::vector<size_t>> &readers,
                                          const Program &p, size_t s);
/// The one whose owner stands for statement s: s itself, or the first
/// array assignment met walking its readers in program order, depth first;
/// -1 when there is none.
int privateScalarStandIn(const std::vector<std::vector<size_t>> &readers, const Program &p,
                         size_t s);

/// The region of a reduction into a scalar: the outermost of statement s's
/// loops under which no other statement reads or writes the scalar. Its
/// partial results are combined once per execution of that loop, after it
/// ends. tred2's G = G + Z(K,J)*D(K) reduces over K only: G = E(J) + ...
/// before it and E(J) = G after it, in loop J, start and use a fresh sum
/// every J, so the sums are combined once per J, not once after loop J.
/// Returns the position of that loop in s.loops; -1 when s is no reduction
/// into a scalar or another statement touches the scalar in its innermost
/// loop.
int reductionRegion(const Program &p, size_t s);
/// reductionRegion of every statement, in one pass over the program.
std::vector<int> reductionRegions(const Program &p);

} // namespace dlayout
