//===- analyzer/Compiler.h - Source files to LLVM IR ------------*- C++ -*-===//
//
// dlayout reads LLVM IR. Sources are compiled to IR (bitcode, the quicker to
// write and read) with debug information by
// clang-19 (C, C++) or flang-new-19 (Fortran), run as a subprocess with its
// arguments passed as a vector -- never through a shell -- into a private
// temporary file that is removed afterwards. A compiler error comes back as
// an Error carrying the compiler's first diagnostic with its file:line:col.
// flang-new's driver would start itself again as its frontend (`-fc1`);
// dlayout starts that frontend directly, with the command the driver gave at
// configure time (FlangFrontend.cmake), and falls back to the driver where
// there is none, the request has flags only the driver knows, or the
// frontend fails -- the driver then has the last word and its diagnostics.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Result.h"

#include <map>
#include <string>
#include <vector>

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
  /// Run flang-new's driver even where its frontend command is known.
  bool viaDriver = false;
};

/// Compiles to LLVM IR; returns the module as bitcode (llvm::parseIR reads
/// it).
Result<std::string> compileToIR(const CompileRequest &req);

/// LLVM bitcode as IR text, read by llvm-dis-19 in a child process (LLVM's
/// bitcode reader can crash on a corrupt file; a crash there is an Error).
Result<std::string> disassembleBitcode(const std::string &path);

/// The compiler executable used for a language (for messages and benches).
std::string compilerFor(SourceLanguage l);

} // namespace dlayout
