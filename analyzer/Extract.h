//===- analyzer/Extract.h - From a program file to its model ----*- C++ -*-===//
//
// The analyzer's entry point: a source file (compiled to IR first), an LLVM
// IR file, or a model JSON document (read as it is) becomes a Program.
// Parameters given by the user bind symbolic sizes in the IR and, for
// preprocessed sources, define the macros the source sizes its arrays with;
// one that does neither is an error, as is a program with nothing in it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analyzer/Dependences.h"
#include "model/Program.h"

#include "llvm/IR/Module.h"

#include <map>
#include <memory>
#include <string_view>
#include <string>
#include <vector>

namespace dlayout {

struct ExtractOptions {
  std::string input;
  std::vector<std::string> functions;
  std::map<std::string, int64_t> params;
  std::map<unsigned, double> probabilities; // by source line
  std::map<unsigned, double> tripCounts;    // by source line
  std::vector<std::string> compilerFlags;   // after `--`
};

/// Where `solver` is given, it receives the Z3 context the dependences were
/// decided in (null where none could be made), for the caller's later Z3
/// problems: Z3 4.8 takes some 50 ms to make a context, and extract() makes
/// its own while the compiler runs (Dependences.h).
Result<Program> extract(const ExtractOptions &opts,
                        std::unique_ptr<z3::context> *solver = nullptr);

/// LLVM IR text as a module, checked by the IR verifier: an Error "invalid
/// LLVM IR: ..." with the parser's name:line:col, or the verifier's first
/// complaint (the fuzz target's entry). Bitcode is refused here: extract()
/// reads it through disassembleBitcode() (analyzer/Compiler.h), out of
/// process, because LLVM 19's bitcode reader crashes on some corrupt files.
Result<std::unique_ptr<llvm::Module>> parseModule(std::string_view data, const std::string &name,
                                                 llvm::LLVMContext &Ctx);

/// The model of a module already in memory (used by the opt plugin); the
/// dependences are decided in `solver`, where given (computeDependences).
Result<Program> extractModule(llvm::Module &M, const ExtractOptions &opts,
                              z3::context *solver = nullptr);

} // namespace dlayout
