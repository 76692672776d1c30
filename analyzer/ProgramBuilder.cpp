//===- analyzer/ProgramBuilder.cpp - The model of a module ----------------===//
#include "analyzer/ProgramBuilder.h"
#include "analyzer/FunctionBuilder.h"

#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"

using namespace llvm;

namespace dlayout {

namespace {

bool hasIrreducibleCycle(Function &F) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  ReversePostOrderTraversal<Function *> RPOT(&F);
  return containsIrreducibleCFG<const BasicBlock *>(RPOT, LI);
}

/// The statements that write and read a scalar carried around a loop.
void placeScalarDependences(Program &P) {
  for (auto &D : P.dependences) {
    if (!D.from.empty() || !D.carriedBy) continue;
    auto inLoop = [&](const Statement &S) {
      return std::find(S.loops.begin(), S.loops.end(), *D.carriedBy) != S.loops.end();
    };
    for (auto &S : P.statements)
      if (inLoop(S) && S.scalarWrite == D.variable && D.from.empty()) D.from = S.id;
    for (auto &S : P.statements)
      if (inLoop(S) && D.from.empty()) D.from = S.id;
    D.to = D.from;
    if (const Statement *S = P.findStatement(D.from))
      D.direction.assign(S->loops.size(), "*");
    D.distance.assign(D.direction.size(), std::nullopt);
  }
  std::erase_if(P.dependences, [](auto &D) { return D.from.empty(); });
}

} // namespace

Result<Program> buildProgram(Module &M, const BuildOptions &opts) {
  Program P;
  P.language = opts.fortran ? "fortran" : "c";
  for (auto &[name, value] : opts.params)
    P.params[opts.fortran ? StringRef(name).upper() : name] = value;
  if (auto *CU = M.debug_compile_units().empty() ? nullptr
                                                   : *M.debug_compile_units().begin())
    P.sources.push_back(CU->getFilename().str());

  unsigned loopCounter = 0, stmtCounter = 0;
  std::set<std::string> seen;
  for (Function &F : M) {
    if (F.isDeclaration()) continue;
    std::string name = F.getName().str();
    std::string source = F.getSubprogram() ? F.getSubprogram()->getName().str() : name;
    if (!opts.functions.empty() && !opts.functions.count(name) &&
        !opts.functions.count(source) &&
        !opts.functions.count(StringRef(source).upper()))
      continue;
    seen.insert(name);
    if (hasIrreducibleCycle(F)) {
      P.warnings.push_back(Warning{"irreducible", "function " + source +
          " has irreducible control flow; the loops in it that LoopInfo cannot "
          "see are treated as straight-line code", {}});
    }
    size_t before = P.statements.size();
    FunctionBuilder(F, opts, P, loopCounter, stmtCounter).build();
    if (P.statements.size() > before || !opts.functions.empty())
      P.functions.push_back(opts.fortran ? StringRef(source).upper() : source);
  }
  if (seen.empty()) {
    if (!opts.functions.empty())
      return makeError("no function named " + *opts.functions.begin() +
                       " in the program");
    return makeError("the program defines no function to analyse");
  }
  placeScalarDependences(P);
  return P;
}

} // namespace dlayout
