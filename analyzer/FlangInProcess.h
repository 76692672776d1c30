//===- analyzer/FlangInProcess.h - flang's frontend in this process -*- C++ -*-===//
//
// flang's frontend command (`flang-new -fc1 ...`, recorded by
// FlangFrontend.cmake) run by flang's own libraries, linked into dlayout,
// instead of in a flang-new process: starting flang-new (mapping
// libLLVM.so and libclang-cpp.so and applying their relocations) takes some
// 150 ms, most of what a sample's compile to IR costs.
//
// The command is the one the process would run, its output file included.
// It runs here when it asks for bitcode (-emit-llvm-bc) and for nothing that
// changes the process's global state (plugins, -mllvm, -mmlir); flang
// finds its intrinsic modules beside the flang-new executable named first,
// as that executable does. flang writes its messages to standard error, so
// file descriptor 2 goes to `diagnosticsPath` while it runs, where the
// process's would go. A crash is caught (llvm::CrashRecoveryContext) and
// leaves the command to a flang-new process, as do builds without flang's
// and MLIR's static libraries (DLAYOUT_FLANG_IN_PROCESS unset).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace dlayout {

enum class FrontendRun {
  Succeeded,   // the output file is written
  Failed,      // flang reported errors (in the diagnostics file)
  NotInProcess // not for this process (see above), or flang crashed
};

/// Runs `command` (argv[0] the flang-new executable, then -fc1 and its
/// arguments) in this process.
FrontendRun runFlangFrontendInProcess(llvm::ArrayRef<std::string> command,
                                      const std::string &diagnosticsPath);

} // namespace dlayout
