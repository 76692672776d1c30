//===- analyzer/Compiler.h - Source files to LLVM IR ------------*- C++ -*-===//
//
// dlayout reads LLVM IR. Sources are compiled to it, with debug
// information, at -O0, by clang 19 (C, C++) or flang-new-19 (Fortran).
// clang runs in dlayout's own process, from its libraries
// (ClangInProcess.h), with the arguments a clang-19 process would get.
// flang-new's driver would start itself again as its frontend (`-fc1`);
// dlayout runs that frontend directly, with the command the driver gave at
// configure time (FlangFrontend.cmake): in its own process, from flang's
// libraries, where it was built with them (FlangInProcess.h), else as a
// flang-new process. Either writes bitcode into a private temporary file
// that is removed afterwards. It falls back to the driver, as a child
// process with its arguments passed as a vector -- never through a shell --
// where no command was recorded, the request has flags only the driver
// knows, or the frontend fails: the driver then has the last word and its
// diagnostics. A compiler error comes back as an Error carrying the
// compiler's first diagnostic with its file:line:col. clang-19 runs as a
// process likewise where clang's driver plans more than one frontend job
// for the arguments, or clang crashed in process; flang-new -fc1 where
// flang crashed in process.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Result.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace dlayout {

enum class SourceLanguage { C, Cxx, Fortran, LLVMIR, LLVMBitcode, ModelJson };

/// By file extension: .c; .cc .cpp .cxx .C; .f .f90 .f95 .f03 .f08 (and
/// upper-case, preprocessed variants); .ll; .bc; .json.
Result<SourceLanguage> languageOf(const std::string &path);
const char *toString(SourceLanguage l);

struct CompileRequest {
  std::string source;
  SourceLanguage language = SourceLanguage::C;
  /// Macro definitions (-DNAME=VALUE), from --param.
  std::map<std::string, std::string> defines;
  /// Extra flags for the compiler (after `--` on the command line).
  std::vector<std::string> flags;
  /// Run the compiler's driver as a process of its own even where flang's
  /// frontend command is known or clang could run in process.
  bool viaDriver = false;
};

/// Compiles to LLVM IR, a module in `ctx`.
Result<std::unique_ptr<llvm::Module>> compile(const CompileRequest &req,
                                              llvm::LLVMContext &ctx);

/// LLVM bitcode as IR text, read by llvm-dis-19 in a child process (LLVM's
/// bitcode reader can crash on a corrupt file; a crash there is an Error).
Result<std::string> disassembleBitcode(const std::string &path);

/// The compiler executable used for a language (for messages and benches).
std::string compilerFor(SourceLanguage l);

} // namespace dlayout
