//===- tests/analyzer/UnitTest.cpp - Polynomials, delinearisation, compiles -===//
#include "Helpers.h"

#include "analyzer/Compiler.h"
#include "analyzer/Delinearize.h"
#include "analyzer/FlangInProcess.h"
#include "analyzer/Polynomial.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace dlayout;
using dlayout::test::writeTemp;

namespace {

Poly iv(const char *l) { return Poly::symbol(ivSymbol(l)); }
Poly par(const char *n) { return Poly::symbol(paramSymbol(n)); }
Poly c(int64_t v) { return Poly::constant(v); }

TEST(Poly, ArithmeticAndAffineParts) {
  Poly p = (iv("L1") - c(1)) + (iv("L2") - c(1)) * par("N");
  EXPECT_EQ(p.degree(), 2u);
  EXPECT_FALSE(p.isAffine());
  AffineExpr a = p.affinePart();
  EXPECT_EQ(a.coeffs.at("L1"), 1);
  EXPECT_EQ(a.params.at("N"), -1);
  EXPECT_EQ(a.constant, -1);
  EXPECT_TRUE((p - p).isZero());
  EXPECT_EQ(*(c(3) * c(4)).asConstant(), 12);
  auto r = (iv("L1") * 2 - c(1)).range({{ivSymbol("L1"), {1, 10}}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->first, 1);
  EXPECT_EQ(r->second, 19);
  EXPECT_EQ(Poly::fromAffine(*(iv("L1") + par("N")).toAffine()), iv("L1") + par("N"));
}

/// A(I,J) of an adjustable A(NP2, *): offset I-1 + (J-1)*NP2 splits exactly.
TEST(Delinearize, SymbolicStrideIsExact) {
  Poly offset = (iv("L1") - c(2)) + (iv("L2") - c(1)) * par("NP2"); // A(I-1,J)
  auto subs = delinearize(offset, {par("NP2"), Poly::constant(1)}, true, {});
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_EQ(subs[0], iv("L1") - c(2));
  EXPECT_EQ(subs[1], iv("L2") - c(1));
}

/// Numeric extents: the constant goes where the faster subscript stays in
/// its dimension over the iteration ranges (A(I-33,J) vs A(I+33,J-1)).
TEST(Delinearize, NumericStrideUsesRanges) {
  std::map<std::string, std::pair<double, double>> ranges = {
      {ivSymbol("L1"), {34, 66}}, {ivSymbol("L2"), {2, 65}}};
  // Zero-based offset of A(I-33, J) in a 66-row array: (I-34) + (J-1)*66.
  Poly offset = (iv("L1") - c(34)) + (iv("L2") - c(1)) * 66;
  auto subs = delinearize(offset, {c(66), c(66)}, true, ranges);
  EXPECT_EQ(subs[0], iv("L1") - c(34));
  EXPECT_EQ(subs[1], iv("L2") - c(1));
}

TEST(Delinearize, RowMajorThreeDimensions) {
  // C a[i][j][k] of a[N][M][8]: ((i*M + j)*8 + k).
  Poly offset = (iv("L1") * par("M") + iv("L2")) * 8 + iv("L3");
  auto subs = delinearize(offset, {par("N"), par("M"), c(8)}, false, {
      {ivSymbol("L3"), {0, 7}}, {ivSymbol("L1"), {0, 9}}, {ivSymbol("L2"), {0, 9}},
      {paramSymbol("M"), {10, 10}}});
  EXPECT_EQ(subs[0], iv("L1"));
  EXPECT_EQ(subs[1], iv("L2"));
  EXPECT_EQ(subs[2], iv("L3"));
}

/// The module as text, without its first line (the ModuleID, which names
/// the file it was read from).
std::string moduleText(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  return text.substr(text.find('\n') + 1);
}

// flang's frontend run directly (Compiler.h: in dlayout's process where
// it was built with flang's libraries, FlangInProcess.h, else a flang-new
// -fc1 process) compiles what its driver does, macro definitions and
// intrinsic modules included, and a source it rejects still comes back as
// the compiler's located error, with nothing printed.
TEST(Compiler, FlangFrontendCompilesWhatTheDriverDoes) {
  CompileRequest req;
  req.source = std::string(DLAYOUT_SOURCE_DIR) + "/samples/paradigm/jacobi.F";
  req.language = SourceLanguage::Fortran;
  req.defines = {{"NP2", "34"}};
  llvm::LLVMContext ctx;
  auto direct = compile(req, ctx);
  req.viaDriver = true;
  auto driven = compile(req, ctx);
  ASSERT_TRUE(direct.ok()) << direct.error().str();
  ASSERT_TRUE(driven.ok()) << driven.error().str();
  EXPECT_EQ(moduleText(**direct), moduleText(**driven));
  EXPECT_NE(moduleText(**direct).find("[34 x [34 x double]]"), std::string::npos);

  // An intrinsic module: found beside flang-new, not beside dlayout.
  std::string usesModule = writeTemp(
      "dlayout_module.f90", "program p\n  use iso_c_binding\n  real(c_double) :: a(7)\n"
                            "  a = 1\n  print *, a(3)\nend program\n");
  req = {};
  req.source = usesModule;
  req.language = SourceLanguage::Fortran;
  auto withModule = compile(req, ctx);
  req.viaDriver = true;
  llvm::LLVMContext ctx2; // a context of its own: its struct types keep their names
  auto withModuleDriven = compile(req, ctx2);
  ASSERT_TRUE(withModule.ok()) << withModule.error().str();
  ASSERT_TRUE(withModuleDriven.ok()) << withModuleDriven.error().str();
  EXPECT_EQ(moduleText(**withModule), moduleText(**withModuleDriven));
  std::remove(usesModule.c_str());

  std::string bad = writeTemp("dlayout_bad.f90", "program p\n  x = = 1\nend program\n");
  req = {};
  req.source = bad;
  req.language = SourceLanguage::Fortran;
  ::testing::internal::CaptureStderr();
  auto rejected = compile(req, ctx);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), ""); // the library prints nothing
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.error().loc.line, 2u) << rejected.error().str();
  std::remove(bad.c_str());
}

// Where dlayout is built with flang's libraries, the frontend command runs
// in its process: the output is written, a rejected source is Failed with
// flang's messages in the diagnostics file (not on standard error), and a
// command for another action is left to a process.
TEST(Compiler, FlangFrontendRunsInProcess) {
  llvm::SmallString<256> flang;
  ASSERT_FALSE(llvm::sys::fs::real_path(DLAYOUT_FLANG_PATH, flang));
  std::string good = writeTemp("dlayout_ok.f90", "program p\n  real :: a(5)\n  a = 2\nend program\n");
  std::string bad = writeTemp("dlayout_bad.f90", "program p\n  x = = 1\nend program\n");
  std::string out = writeTemp("dlayout_out.bc", ""), diag = writeTemp("dlayout_diag.txt", "");
  auto run = [&](const char *action, const std::string &source) {
    return runFlangFrontendInProcess(
        {flang.str().str(), "-fc1", action, "-o", out, source}, diag);
  };
  std::remove(out.c_str());
  if (!DLAYOUT_FLANG_IN_PROCESS) { // built without flang's libraries
    EXPECT_EQ(run("-emit-llvm-bc", good), FrontendRun::NotInProcess);
    return;
  }
  EXPECT_EQ(run("-emit-llvm-bc", good), FrontendRun::Succeeded);
  uint64_t size = 0;
  EXPECT_FALSE(llvm::sys::fs::file_size(out, size));
  EXPECT_GT(size, 0u);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run("-emit-llvm-bc", bad), FrontendRun::Failed);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  auto messages = llvm::MemoryBuffer::getFile(diag);
  ASSERT_TRUE(bool(messages));
  EXPECT_NE((*messages)->getBuffer().find("dlayout_bad.f90:2:"), llvm::StringRef::npos)
      << (*messages)->getBuffer().str();
  EXPECT_EQ(run("-emit-obj", good), FrontendRun::NotInProcess);
  for (const std::string &f : {good, bad, out, diag}) std::remove(f.c_str());
}

// clang in dlayout's process (ClangInProcess.h) compiles what a clang-19
// process does, macro definitions and extra flags included, and its
// rejection is clang's located error.
TEST(Compiler, ClangInProcessCompilesWhatAClangProcessDoes) {
  std::string header = writeTemp("dlayout_size.h", "#define N 34\n");
  CompileRequest req;
  req.source = std::string(DLAYOUT_SOURCE_DIR) + "/samples/c/jacobi.c";
  req.language = SourceLanguage::C;
  req.defines = {{"NCYCLES", "3"}};
  req.flags = {"-include", header}; // N's definition
  llvm::LLVMContext ctx;
  auto inProcess = compile(req, ctx);
  req.viaDriver = true;
  auto process = compile(req, ctx);
  ASSERT_TRUE(inProcess.ok()) << inProcess.error().str();
  ASSERT_TRUE(process.ok()) << process.error().str();
  EXPECT_EQ(moduleText(**inProcess), moduleText(**process));
  EXPECT_NE(moduleText(**inProcess).find("[34 x [34 x double]]"), std::string::npos);
  std::remove(header.c_str());

  std::string bad = writeTemp("dlayout_bad.c", "#include <stddef.h>\nint f(void) {\n  return undeclared + (int)sizeof(size_t);\n}\n");
  req = {};
  req.source = bad;
  req.language = SourceLanguage::C;
  ::testing::internal::CaptureStderr();
  auto rejected = compile(req, ctx);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), ""); // the library prints nothing
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.error().loc.line, 3u) << rejected.error().str();
  EXPECT_NE(rejected.error().message.find("undeclared"), std::string::npos) << rejected.error().str();
  std::remove(bad.c_str());

  // A fatal error (a missing header) is located too.
  std::string missing = writeTemp("dlayout_missing.c", "int x;\n#include \"dlayout_no_such.h\"\n");
  req.source = missing;
  auto fatal = compile(req, ctx);
  ASSERT_FALSE(fatal.ok());
  EXPECT_EQ(fatal.error().loc.line, 2u) << fatal.error().str();
  EXPECT_NE(fatal.error().message.find("dlayout_no_such.h"), std::string::npos) << fatal.error().str();
  std::remove(missing.c_str());
}

} // namespace
