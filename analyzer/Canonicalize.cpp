//===- analyzer/Canonicalize.cpp ------------------------------------------===//
#include "analyzer/Canonicalize.h"

#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"

namespace dlayout {

Status canonicalize(llvm::Module &M) {
  std::string err;
  llvm::raw_string_ostream os(err);
  if (llvm::verifyModule(M, &os)) return makeError("invalid LLVM IR: " + os.str());

  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  llvm::PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  llvm::ModulePassManager MPM;
  if (auto E = PB.parsePassPipeline(
          MPM, "function(sroa,mem2reg,instcombine<no-verify-fixpoint>,"
               "simplifycfg,loop-simplify,lcssa)")) {
    return makeError("internal error: " + llvm::toString(std::move(E)));
  }
  // Functions the front end marked optnone are left alone by the passes.
  for (llvm::Function &F : M) F.removeFnAttr(llvm::Attribute::OptimizeNone);
  MPM.run(M, MAM);
  return success();
}

} // namespace dlayout
