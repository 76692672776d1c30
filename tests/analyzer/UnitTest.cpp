//===- tests/analyzer/UnitTest.cpp - Polynomials, delinearisation, compiles -===//
#include "analyzer/Compiler.h"
#include "analyzer/Delinearize.h"
#include "analyzer/Polynomial.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace dlayout;

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

// flang's frontend started directly (Compiler.h) compiles what its driver
// does, macro definitions included, and a source it rejects still comes
// back as the compiler's located error.
TEST(Compiler, FlangFrontendCompilesWhatTheDriverDoes) {
  CompileRequest req;
  req.source = std::string(DLAYOUT_SOURCE_DIR) + "/samples/paradigm/jacobi.F";
  req.language = SourceLanguage::Fortran;
  req.defines = {{"NP2", "34"}};
  auto direct = compileToIR(req);
  req.viaDriver = true;
  auto driven = compileToIR(req);
  ASSERT_TRUE(direct.ok()) << direct.error().str();
  ASSERT_TRUE(driven.ok()) << driven.error().str();
  EXPECT_EQ(*direct, *driven);
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic diag;
  auto module = llvm::parseIR(llvm::MemoryBufferRef(*direct, req.source), diag, ctx);
  ASSERT_NE(module, nullptr) << diag.getMessage().str();
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, nullptr);
  EXPECT_NE(os.str().find("[34 x [34 x double]]"), std::string::npos);

  std::string bad = ::testing::TempDir() + "dlayout_bad.f90";
  FILE *f = fopen(bad.c_str(), "w");
  ASSERT_NE(f, nullptr);
  fputs("program p\n  x = = 1\nend program\n", f);
  fclose(f);
  req = {};
  req.source = bad;
  req.language = SourceLanguage::Fortran;
  auto rejected = compileToIR(req);
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.error().loc.line, 2u) << rejected.error().str();
  std::remove(bad.c_str());
}

} // namespace
