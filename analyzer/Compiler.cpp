//===- analyzer/Compiler.cpp ----------------------------------------------===//
#include "analyzer/Compiler.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <optional>
#include <regex>

namespace dlayout {

#ifndef DLAYOUT_CLANG_PATH
#define DLAYOUT_CLANG_PATH "clang-19"
#endif
#ifndef DLAYOUT_FLANG_PATH
#define DLAYOUT_FLANG_PATH "flang-new-19"
#endif

Result<SourceLanguage> languageOf(const std::string &path) {
  std::string ext = llvm::sys::path::extension(path).str();
  if (ext == ".c") return SourceLanguage::C;
  if (ext == ".cc" || ext == ".cpp" || ext == ".cxx" || ext == ".C")
    return SourceLanguage::Cxx;
  std::string lower = llvm::StringRef(ext).lower();
  if (lower == ".f" || lower == ".for" || lower == ".f77" || lower == ".f90" ||
      lower == ".f95" || lower == ".f03" || lower == ".f08")
    return SourceLanguage::Fortran;
  if (ext == ".ll") return SourceLanguage::LLVMIR;
  if (ext == ".bc") return SourceLanguage::LLVMBitcode;
  if (ext == ".json") return SourceLanguage::ModelJson;
  return makeError("unknown file type '" + (ext.empty() ? path : ext) +
                   "' (expected a C, C++ or Fortran source, LLVM IR (.ll, "
                   ".bc) or a dlayout model (.json))");
}

const char *toString(SourceLanguage l) {
  switch (l) {
  case SourceLanguage::C: return "c";
  case SourceLanguage::Cxx: return "c++";
  case SourceLanguage::Fortran: return "fortran";
  case SourceLanguage::LLVMIR:
  case SourceLanguage::LLVMBitcode: return "ir";
  case SourceLanguage::ModelJson: return "model";
  }
  return "?";
}

std::string compilerFor(SourceLanguage l) {
  return l == SourceLanguage::Fortran ? DLAYOUT_FLANG_PATH : DLAYOUT_CLANG_PATH;
}

namespace {

/// A temporary file removed when it goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  bool made = false;
  explicit TempFile(const char *suffix) {
    made = !llvm::sys::fs::createTemporaryFile("dlayout", suffix, path);
  }
  ~TempFile() {
    if (made) llvm::sys::fs::remove(path);
  }
};

std::string readFile(llvm::StringRef path) {
  auto buf = llvm::MemoryBuffer::getFile(path);
  return buf ? (*buf)->getBuffer().str() : std::string();
}

/// The compiler's first error, with its location, as an Error.
Error compilerError(const std::string &compiler, const std::string &diag,
                    int rc) {
  // Both clang and flang print "file:line:col: error: message".
  std::regex re(R"(^(.*?):(\d+):(\d+): error: (.*)$)");
  std::string line;
  size_t start = 0;
  while (start < diag.size()) {
    size_t end = diag.find('\n', start);
    if (end == std::string::npos) end = diag.size();
    line = diag.substr(start, end - start);
    std::smatch m;
    if (std::regex_match(line, m, re))
      return makeError(m[4].str(), SourceLoc{m[1].str(), (unsigned)std::stoul(m[2]),
                                             (unsigned)std::stoul(m[3])});
    start = end + 1;
  }
  // No located error: the first line that says error, else the first line.
  start = diag.find("error");
  std::string first = diag.substr(start == std::string::npos ? 0 : diag.rfind('\n', start) + 1);
  first = first.substr(0, first.find('\n'));
  if (first.empty()) first = "exited with status " + std::to_string(rc);
  return makeError(compiler + ": " + first);
}

} // namespace

Result<std::string> compileToIR(const CompileRequest &req) {
  std::string compiler = compilerFor(req.language);
  auto exe = llvm::sys::findProgramByName(compiler);
  if (!exe)
    return makeError("cannot find " + compiler +
                     " (install it: scripts/setup.sh)");
  TempFile out(".ll"), err(".txt");
  if (!out.made || !err.made)
    return makeError("cannot create a temporary file");

  std::vector<std::string> args = {*exe, "-S", "-emit-llvm", "-g", "-O0"};
  if (req.language != SourceLanguage::Fortran) {
    // Keep clang from marking functions optnone, so that dlayout's own
    // canonicalisation can run on them.
    args.insert(args.end(), {"-Xclang", "-disable-O0-optnone"});
  }
  for (auto &[name, value] : req.defines) args.push_back("-D" + name + "=" + value);
  args.insert(args.end(), req.flags.begin(), req.flags.end());
  args.insert(args.end(), {"-o", out.path.str().str(), req.source});

  std::vector<llvm::StringRef> argv(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(err.path),
                                                llvm::StringRef(err.path)};
  std::string execErr;
  int rc = llvm::sys::ExecuteAndWait(*exe, argv, std::nullopt, redirects,
                                     /*SecondsToWait=*/600, 0, &execErr);
  if (rc != 0) {
    if (rc < 0) return makeError(compiler + ": " + execErr);
    return compilerError(compiler, readFile(err.path), rc);
  }
  std::string ir = readFile(out.path);
  if (ir.empty()) return makeError(compiler + " produced no output");
  return ir;
}

} // namespace dlayout
