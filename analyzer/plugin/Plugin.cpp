//===- analyzer/plugin/Plugin.cpp - dlayout-extract for opt -----*- C++ -*-===//
//
// Registers the `dlayout-extract` pass with opt's pass builder. The model is
// written as JSON to -dlayout-output (default: standard output); an analysis
// error is reported on standard error as "dlayout: error: ..." and makes opt
// exit non-zero.
//
//===----------------------------------------------------------------------===//
#include "analyzer/ExtractPass.h"
#include "model/Json.h"
#include "model/ProgramJson.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::opt<std::string> Output("dlayout-output",
                                   cl::desc("Where dlayout-extract writes the model"),
                                   cl::value_desc("file"), cl::init("-"));

static void writeModel(const dlayout::Result<dlayout::Program> &P) {
  if (!P) {
    report_fatal_error(Twine("dlayout: error: ") + P.error().str(), false);
  }
  std::error_code EC;
  raw_fd_ostream os(Output, EC, sys::fs::OF_Text);
  if (EC) report_fatal_error(Twine("dlayout: error: cannot write ") + Output + ": " + EC.message(), false);
  os << dlayout::dump(dlayout::toJson(*P));
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "dlayout", "0.1", [](PassBuilder &PB) {
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name != "dlayout-extract") return false;
                  MPM.addPass(dlayout::ExtractPass({}, writeModel));
                  return true;
                });
          }};
}
