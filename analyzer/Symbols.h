//===- analyzer/Symbols.h - What an IR value means in the source -*- C++ -*-===//
//
// The analyzer speaks in the source's terms: loops with induction variables,
// parameters, arrays, scalars. Symbols is the per-function dictionary that
// translates IR into those terms:
//   - the loops of the function (LoopInfo), each with its induction variable
//     (the header phi that debug info names, else the first affine one);
//   - the memory objects: arrays with their shape (from debug info, or
//     inferred from the address arithmetic), scalar variables in memory;
//   - parameters: integer function arguments and integer scalars that are
//     only read (Fortran dummies such as N, C arguments such as n);
//   - toPoly(): a SCEV as a polynomial over "iv:", "p:" and "?:" symbols.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analyzer/Polynomial.h"
#include "model/Program.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace dlayout {

/// A cast to or from fewer than 32 bits: modular arithmetic, not a program
/// integer widened or narrowed (ScalarEvolution writes MOD(7*I, 32) as
/// zext i5 {7,+,7} to i32).
bool isNarrowCast(const llvm::SCEVCastExpr *C);

/// For I = X & (2^k - 1) with X known non-negative, 2^k: I is MOD(X, 2^k),
/// the form instcombine gives a MOD by a power of two.
std::optional<int64_t> lowMaskModulus(const llvm::Instruction *I);

/// A block that is only `unreachable` (a switch's impossible default; not a
/// STOP, exit() or abort(), which call out first): no run takes an edge into
/// it.
bool deadEnd(const llvm::BasicBlock *B);

/// L's exiting block, exits into dead ends aside (a C switch over every
/// value of i % 3 leaves its loop only through the test of i), and exits
/// that end the program too (an assert, a STOP) where the loop has another;
/// null where there are several.
llvm::BasicBlock *exitingBlock(const llvm::Loop *L);

/// Whether B leaves L other than into a dead end.
bool leavesLoop(const llvm::BasicBlock *B, const llvm::Loop *L);

/// The names of the loop variables of the module's functions, keyed by
/// function and the source line of the loop, read from IR before
/// optimisation (when a variable is never read, its phi does not survive).
std::map<std::string, std::map<unsigned, std::string>>
loopVariablesByLine(llvm::Module &M);

/// A named variable of the source as debug info describes it.
struct SourceVariable {
  std::string name;
  llvm::DIType *type = nullptr;
  SourceLoc loc;
};

/// A memory object that loads and stores address: an array or a scalar.
struct MemoryObject {
  enum class Kind { Array, Scalar };
  Kind kind = Kind::Array;
  llvm::Value *base = nullptr;
  std::string name;
  SourceLoc loc;
  std::string origin;          // global, local, argument, heap
  unsigned elementBytes = 8;
  std::string elementType = "f64";
  bool columnMajor = true;
  /// Per dimension in source order: extent (nullopt = not known from the
  /// declaration) and lower bound.
  std::vector<std::optional<Poly>> extents;
  std::vector<int64_t> lowers;
  bool restrictQualified = false; // C restrict / Fortran dummy (no alias)
  bool shapeInferred = false;     // rank or extents recovered from accesses
  bool sharedStorage = false;     // several source variables in one global
};

struct LoopRecord {
  std::string id;
  llvm::Loop *loop = nullptr;
  llvm::PHINode *iv = nullptr;
  std::string var;
  const llvm::SCEV *start = nullptr; // of the induction variable
  int64_t step = 0;
  bool counter = false; // iv is a trip counter, not the source's variable
};

class Symbols {
public:
  /// `loopVars` names the loop variables by the line of their DO/for, as
  /// the unoptimised IR had them (see loopVariablesByLine).
  Symbols(llvm::Function &F, bool fortran, unsigned &loopCounter,
          const std::map<unsigned, std::string> &loopVars);

  llvm::Function &function() { return F; }
  llvm::DominatorTree &dt() { return DT; }
  llvm::PostDominatorTree &pdt() { return PDT; }
  llvm::LoopInfo &loopInfo() { return LI; }
  llvm::ScalarEvolution &se() { return *SE; }
  bool fortran() const { return Fortran; }

  /// Loops in preorder, siblings in program order.
  const std::vector<LoopRecord> &loops() const { return Loops; }
  const LoopRecord *record(const llvm::Loop *L) const;
  const LoopRecord *recordForIv(const llvm::Value *V) const;

  /// The source variable a value or a memory location holds, if debug info
  /// names one.
  std::optional<SourceVariable> variableOf(const llvm::Value *V, int depth = 0) const;
  /// Source name as the model spells it (Fortran upper-cased).
  std::string spell(llvm::StringRef name) const;
  /// The name a scalar value goes by in the model: its source variable's,
  /// else its IR name, else "t.<slot>" for an unnamed value (never empty).
  std::string nameOf(const llvm::Value *V) const;

  /// The memory object a pointer addresses (through GEPs and casts), or
  /// null when it cannot be told.
  MemoryObject *objectOf(llvm::Value *Ptr);
  std::vector<MemoryObject *> objects();

  /// If V is a program parameter, its name.
  std::optional<std::string> parameterOf(const llvm::Value *V);

  /// The polynomial of a SCEV. Values the analysis cannot see through become
  /// opaque symbols "?:<name>", remembered in opaqueValue().
  Poly toPoly(const llvm::SCEV *S);
  /// The polynomial of S where it is used, inside Scope (null: outside every
  /// loop): a recurrence of a loop that does not enclose the use is that
  /// loop's exit value (I after DO I = 1, N is N + 1), or opaque when
  /// ScalarEvolution cannot tell it -- never the other loop's index.
  Poly toPolyAt(const llvm::SCEV *S, const llvm::Loop *Scope);
  llvm::Value *opaqueValue(const std::string &symbol) const;

  SourceLoc locOf(const llvm::Instruction *I) const;
  SourceLoc locOf(const llvm::DebugLoc &DL) const;

private:
  /// toPoly of an add that is a clamped trip count x - smin(c, x); nullopt
  /// where it is not one.
  std::optional<Poly> clampedCount(const llvm::SCEVAddExpr *A);
  Poly opaqueScev(const llvm::SCEV *S, const std::string &what);
  std::map<const llvm::SCEV *, std::string> ScevSymbols;
  std::map<std::string, int> ScevKinds;
  void findLoops(unsigned &loopCounter);
  MemoryObject describe(llvm::Value *Base);
  std::string opaque(llvm::Value *V);

  llvm::Function &F;
  bool Fortran;
  std::map<unsigned, std::string> LoopVars;
  llvm::DominatorTree DT;
  llvm::PostDominatorTree PDT;
  llvm::LoopInfo LI;
  llvm::TargetLibraryInfoImpl TLII;
  llvm::TargetLibraryInfo TLI;
  llvm::AssumptionCache AC;
  std::unique_ptr<llvm::ScalarEvolution> SE;
  std::vector<LoopRecord> Loops;
  std::map<const llvm::Loop *, size_t> LoopByIR;  // positions in Loops
  std::map<const llvm::Value *, size_t> LoopByIv;
  std::map<const llvm::Value *, std::unique_ptr<MemoryObject>> Objects;
  std::vector<MemoryObject *> ObjectOrder;
  std::map<std::string, llvm::Value *> Opaque;
  /// While toPolyAt runs: the loop of the use (Scoped), see toPolyAt.
  bool Scoped = false;
  const llvm::Loop *ScopeLoop = nullptr;
};

} // namespace dlayout
