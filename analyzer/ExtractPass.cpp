//===- analyzer/ExtractPass.cpp -------------------------------------------===//
#include "analyzer/ExtractPass.h"

namespace dlayout {

llvm::PreservedAnalyses ExtractPass::run(llvm::Module &M,
                                         llvm::ModuleAnalysisManager &) {
  // The analysis canonicalises the module it reads.
  Consume(extractModule(M, Opts));
  return llvm::PreservedAnalyses::none();
}

} // namespace dlayout
