//===- analyzer/FunctionBuilder.h - One function's part of the model -*- C++ -*-===//
//
// Private to the analyzer: the state of building one function's loops,
// statements and references into a Program (see ProgramBuilder.h for the
// steps). Loops and arrays are in FunctionBuilder.cpp, statements and their
// expressions in Statements.cpp, their guards in Guards.cpp, scalar
// recurrences and reductions in Reductions.cpp, assumed trip counts in
// TripBounds.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analyzer/Polynomial.h"
#include "analyzer/ProgramBuilder.h"
#include "analyzer/Symbols.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"

#include <map>
#include <optional>
#include <set>
#include <vector>

namespace dlayout {

/// The model's operator for an LLVM intrinsic (abs, sqrt, min, max, ...),
/// or null where it has none.
const char *intrinsicName(llvm::Intrinsic::ID id);

/// Does the value read an array, through unnamed instructions?
bool readsArray(llvm::Value *V, Symbols &Sym, int depth = 0);

struct ReachCondition; // Guards.cpp

/// A load or store of an array element, before its subscripts are known.
struct Access {
  llvm::Instruction *inst = nullptr;
  MemoryObject *object = nullptr;
  Poly offset;          // in elements from the base
  bool exactOffset = true;
};

class FunctionBuilder {
public:
  FunctionBuilder(llvm::Function &F, const BuildOptions &opts, Program &P,
                  unsigned &loopCounter, unsigned &stmtCounter);
  void build();

private:
  // FunctionBuilder.cpp: loops, arrays, references.
  void buildLoops();
  void evaluateLoops();
  int64_t parameterValue(const std::string &name);
  void bindParameters(const std::vector<Poly> &polys);
  std::vector<Poly> declaredExtents();
  std::optional<Poly> exitTestBound(const LoopRecord &R);
  llvm::Value *loneOpaque(const Poly &p) const;
  std::string renderPoly(const Poly &p) const;
  Bound boundOf(const Poly &p) const;
  std::optional<double> valueOf(const Poly &p) const; // outer ivs at means
  Access accessOf(llvm::Instruction *I, llvm::Value *Ptr, MemoryObject *O);
  void completeShapes();
  Subscript classify(const Poly &sub, llvm::Instruction *at);
  unsigned changeLevel(llvm::Instruction *def, llvm::Instruction *at);
  Reference makeReference(const Access &A);
  void finishReferences();
  std::string arrayName(const MemoryObject *O);
  // TripBounds.cpp: assumed trip counts lowered to the extents they index.
  void boundAssumedTripCounts();
  const Loop *segmentsOver(const Loop &L);
  std::vector<size_t> AssumedTrips; // P.loops indices of counts not given by the user

  // Statements.cpp: statements, expressions, guards; Reductions.cpp:
  // scalar recurrences and reductions into array elements.
  void buildStatements();
  void addStatement(llvm::Instruction *Root, llvm::Instruction *At);
  Expr expr(llvm::Value *V, bool root = false);
  Expr polyExpr(const Poly &p);
  std::optional<Expr> diamond(llvm::PHINode *Phi);
  Expr scalarRead(const std::string &name, llvm::Type *T);
  // Guards.cpp: when a block runs.
  void addGuards(llvm::BasicBlock *BB);
  /// The branches that guard BB (outermost first), each with whether BB
  /// runs on its false edge.
  std::vector<std::pair<llvm::BasicBlock *, bool>> guardBranches(llvm::BasicBlock *BB);
  /// The outermost branch in BB's loop or outside it both of whose edges
  /// lead to BB, though not every path from it does (a join of paths), or
  /// switch that BB does not post-dominate, or null; and BB's reaching
  /// condition from it, nullopt where it cannot be formed.
  llvm::BasicBlock *partialJoin(llvm::BasicBlock *BB);
  std::optional<ReachCondition> reachingCondition(llvm::BasicBlock *D, llvm::BasicBlock *BB);
  std::vector<llvm::BasicBlock *> Rpo; // the function's blocks in reverse post-order
  std::map<const llvm::BasicBlock *, size_t> RpoIndex;
  /// An IF whose condition reads array elements (dgefa's IF (A(L,K) .EQ. 0)
  /// GO TO 40 above DO 15) is evaluated once, where it stands, not again by
  /// every statement instance it guards (those may change what it read): it
  /// becomes a predicate, a logical scalar assigned at the IF, and the
  /// statements it guards test that scalar. Predicates: branch block ->
  /// scalar name.
  void findPredicates();
  void addPredicates();
  std::map<const llvm::BasicBlock *, std::string> Predicates;
  std::vector<llvm::BasicBlock *> PredicateBlocks; // function order
  /// The nearest strict dominator of BB whose branch may guard what it
  /// dominates (a conditional branch that leaves no loop and tests no
  /// pointer), or null: addGuards walks these only, so a function of many
  /// loops in sequence costs a step per enclosing test, not per block.
  llvm::BasicBlock *guardAbove(llvm::BasicBlock *BB);
  std::map<const llvm::BasicBlock *, llvm::BasicBlock *> GuardAbove;
  bool interestingScalar(llvm::Instruction *I);
  std::optional<SourceVariable> recurrenceVariable(llvm::PHINode *Phi);
  void addReductionStarts(llvm::BasicBlock &BB);
  void findScalarRecurrences();
  void markArrayReductions();
  void warnPossibleAliasing();
  void bindExpressionParameters();
  void warnOnce(const std::string &kind, const std::string &message,
                SourceLoc loc = {});
  void buildPhases();

  // ValueExprs.cpp: what the validator evaluates where the model is not
  // affine, and the integer scalar assignments it reads.
  std::optional<Expr> valueExpr(llvm::Value *V, std::vector<Reference> &refs, int depth);
  std::optional<Expr> polyValueExpr(const Poly &p, std::vector<Reference> &refs);
  std::optional<Expr> scevExpr(const llvm::SCEV *S, std::vector<Reference> &refs, int depth);
  std::optional<Expr> offsetExpr(llvm::Value *Ptr, const MemoryObject &O,
                                 std::vector<Reference> &refs);
  void addSubscriptExprs();
  void addBoundExprs();
  void addScalarDefinitions();
  void addDefinition(const std::string &name, llvm::Value *V, llvm::BasicBlock *From,
                     llvm::BasicBlock *To);

  llvm::Function &F;
  const BuildOptions &Opts;
  Program &P;
  Symbols Sym;
  unsigned &StmtCounter;

  // Loops: model index by IR loop, levels, value ranges of the ivs.
  std::map<const llvm::Loop *, size_t> LoopIndex;
  std::map<std::string, Poly> Lower, Upper, Iterations; // by loop id
  std::map<std::string, int64_t> IterationDivisor; // count = Iterations / d
  std::map<std::string, std::pair<double, double>> Ranges; // symbol -> [lo,hi]
  std::map<std::string, double> ParamValues;
  // What valueOf evaluates at: the parameters, and each loop's induction
  // variable at its mean (kept as they are found, not rebuilt per call).
  std::map<std::string, double> Values; // symbol -> value

  // The statement being built.
  Statement *Cur = nullptr;
  /// The loop a value is used in: the current statement's, else I's own.
  const llvm::Loop *useScope(llvm::Instruction *I);
  /// Statements from FirstStatement on in `order` (their indices), renamed.
  void reorderStatements(const std::vector<size_t> &order);
  /// V's loop if V is the index of a loop enclosing that use, else null.
  const LoopRecord *enclosingIv(llvm::Value *V);
  std::vector<std::pair<size_t, Access>> CurAccesses; // ref index, access
  // All references waiting for their subscripts: (statement, ref, access).
  struct Pending { size_t stmt; size_t ref; Access access; };
  std::vector<Pending> PendingRefs;
  std::map<const MemoryObject *, std::vector<Access>> AccessesOf;
  std::map<const MemoryObject *, std::string> ArrayNames;
  // Scalar recurrences: header phi -> reduction kind ("" = not a reduction).
  std::map<const llvm::PHINode *, std::string> Recurrences;
  std::map<const llvm::Instruction *, std::string> ReductionUpdates;
  std::set<std::string> Warned;
  size_t FirstStatement = 0, FirstPhase = 0;
  std::vector<llvm::Instruction *> StmtAt; // per statement from FirstStatement
  std::vector<char> StmtBefore;            // placed just before StmtAt
  std::set<std::string> Defined;           // scalars given their assignments
  unsigned Temporaries = 0;
};

} // namespace dlayout
