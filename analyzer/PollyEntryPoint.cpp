//===- analyzer/PollyEntryPoint.cpp - Polly's entry point, with no passes -===//
//
// Debian builds LLVM 19 with Polly linked into its tools, and so clang's
// CodeGen library (libclangCodeGen.a) registers Polly's passes through
// getPollyPluginInfo() whenever it builds a pass pipeline. dlayout links
// that library statically (ClangInProcess.h) without Polly, whose static
// library is in another package (libpolly-19-dev) and which dlayout never
// asks for: this is the entry point clang calls, registering no passes.
// Only the statically linked programs get it (analyzer/CMakeLists.txt); with
// libclang-cpp.so, Polly comes with libLLVM.so.
//
//===----------------------------------------------------------------------===//
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

llvm::PassPluginLibraryInfo getPollyPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Polly", LLVM_VERSION_STRING, [](llvm::PassBuilder &) {}};
}
