//===- tests/fuzz/FuzzIR.cpp - The analyzer on arbitrary LLVM IR ----------===//
#include "tests/fuzz/FuzzTargets.h"

#include "analyzer/Extract.h"
#include "model/ProgramJson.h"

#include "llvm/IR/LLVMContext.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace dlayout::fuzz {

int ir(const uint8_t *data, size_t size) {
  llvm::LLVMContext Ctx;
  auto M = parseModule(std::string_view(reinterpret_cast<const char *>(data), size),
                       "fuzz.ll", Ctx);
  if (!M) return 0;
  ExtractOptions opts;
  opts.input = "fuzz.ll";
  auto P = extractModule(**M, opts);
  if (!P) return 0;
  // What the analyzer builds is a model the rest of the tool can read.
  if (auto ok = verify(*P); !ok) {
    std::fprintf(stderr, "fuzz: property violated: ir: the extracted model does not verify: %s\n",
                 ok.error().message.c_str());
    std::abort();
  }
  return 0;
}

} // namespace dlayout::fuzz
