//===- analyzer/ProgramBuilder.cpp - The model of a module ----------------===//
#include "analyzer/ProgramBuilder.h"
#include "analyzer/FunctionBuilder.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/CallGraph.h"
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

/// The functions on a cycle of the call graph (direct or mutual recursion).
std::set<const Function *> recursiveFunctions(Module &M) {
  CallGraph CG(M);
  std::set<const Function *> out;
  for (auto I = scc_begin(&CG); !I.isAtEnd(); ++I)
    if (I.hasCycle())
      for (auto *N : *I)
        if (auto *F = N->getFunction()) out.insert(F);
  return out;
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
  std::set<std::string> seen, matched;
  auto recursive = recursiveFunctions(M);
  for (Function &F : M) {
    if (F.isDeclaration()) continue;
    std::string name = F.getName().str();
    std::string source = F.getSubprogram() ? F.getSubprogram()->getName().str() : name;
    if (!opts.functions.empty() && !opts.functions.count(name) &&
        !opts.functions.count(source) &&
        !opts.functions.count(StringRef(source).upper()))
      continue;
    for (auto *n : {&name, &source}) matched.insert(*n);
    matched.insert(StringRef(source).upper());
    seen.insert(name);
    if (recursive.count(&F)) {
      SourceLoc loc;
      if (auto *SP = F.getSubprogram()) loc = {SP->getFilename().str(), SP->getLine(), 0};
      P.warnings.push_back(Warning{"recursion", "function " + source +
          " is recursive; its statements are counted as if it ran once (the "
          "depth of the recursion is not known)", loc});
    }
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
  // Every --function must name one (a name that matches nothing is a typo,
  // not a request for less).
  for (auto &f : opts.functions)
    if (!matched.count(f))
      return makeError("no function named '" + f + "' in the program");
  if (seen.empty()) return makeError("the program defines no function to analyse");
  placeScalarDependences(P);
  return P;
}

} // namespace dlayout
