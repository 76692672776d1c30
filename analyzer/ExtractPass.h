//===- analyzer/ExtractPass.h - The analysis as an LLVM pass ----*- C++ -*-===//
//
// `dlayout-extract`, a new-pass-manager module pass: builds the program model
// of the module and hands it to a consumer. The dlayout binary runs the same
// analysis through extract(); the opt plugin (plugin/Plugin.cpp) registers
// this pass with a consumer that writes the model as JSON:
//
//   opt-19 -load-pass-plugin=libDlayoutPlugin.so -passes=dlayout-extract
//          -disable-output file.ll [-dlayout-output=model.json]
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analyzer/Extract.h"

#include "llvm/IR/PassManager.h"

#include <functional>

namespace dlayout {

class ExtractPass : public llvm::PassInfoMixin<ExtractPass> {
public:
  using Consumer = std::function<void(const Result<Program> &)>;
  ExtractPass(ExtractOptions opts, Consumer consumer)
      : Opts(std::move(opts)), Consume(std::move(consumer)) {}

  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  ExtractOptions Opts;
  Consumer Consume;
};

} // namespace dlayout
