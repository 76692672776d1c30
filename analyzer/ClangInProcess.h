//===- analyzer/ClangInProcess.h - clang's frontend in this process -*- C++ -*-===//
//
// A C or C++ source compiled to an llvm::Module by clang's own libraries,
// linked into dlayout, instead of a clang-19 process: starting clang-19
// (mapping libclang-cpp and libLLVM, their relocations and static
// constructors) takes some 90 ms, four times the compile of a small sample.
//
// The driver is clang's (clang::driver::Driver), given the clang-19
// executable's real path, so that it finds the same resource directory,
// system headers and target as `clang-19` run with the same arguments; its
// plan must be one clang -cc1 job, which runs here with
// EmitLLVMOnlyAction into the caller's context. Anything else the
// arguments ask for (several jobs, a job for another tool, plugins, -mllvm
// options) is left to a clang-19 process, as is a compile that crashes here
// (caught by llvm::CrashRecoveryContext): that process then has the last
// word. Nothing is printed: clang's messages come back as text.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace dlayout {

struct InProcessCompile {
  enum Outcome {
    Compiled,    // `module` holds the source's IR
    Rejected,    // clang reported errors: `diagnostics` holds its messages
    NotInProcess // not for this process (see above), or clang crashed: run
                 // clang-19 instead
  } outcome = NotInProcess;
  std::unique_ptr<llvm::Module> module;
  std::string diagnostics;
};

/// Runs `clang args...` (the arguments after argv[0], as a clang-19
/// process would get them; its -o is ignored) in this process.
InProcessCompile compileInProcess(llvm::StringRef clangExecutable,
                                  llvm::ArrayRef<std::string> args,
                                  llvm::LLVMContext &ctx);

} // namespace dlayout
