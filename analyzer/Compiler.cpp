//===- analyzer/Compiler.cpp ----------------------------------------------===//
#include "analyzer/Compiler.h"

#include "analyzer/ClangInProcess.h"
#include "analyzer/FlangInProcess.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>
#include <regex>

#include "FlangFrontend.inc" // kFlangFrontend, from FlangFrontend.cmake

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

/// A private temporary directory (mode 0700, a fresh unique name under
/// $TMPDIR) for the compiler's output and diagnostics, removed with
/// everything in it when it goes out of scope. Nothing dlayout writes there
/// is visible to other users, even while the compiler writes it with its
/// own permissions, and no name in it can be planted in advance.
struct TempDir {
  llvm::SmallString<128> path;
  bool made = false;
  TempDir() {
    made = !llvm::sys::fs::createUniqueDirectory("dlayout", path) &&
           !llvm::sys::fs::setPermissions(path, llvm::sys::fs::owner_all);
    if (!made && !path.empty()) llvm::sys::fs::remove_directories(path);
  }
  ~TempDir() {
    if (!made) return;
    llvm::sys::fs::remove_directories(path);
    for (auto &f : files) llvm::sys::DontRemoveFileOnSignal(f);
  }
  /// A file in the directory; removed also if dlayout dies of a signal.
  std::string file(const char *name) {
    llvm::SmallString<128> p(path);
    llvm::sys::path::append(p, name);
    llvm::sys::RemoveFileOnSignal(p);
    files.push_back(std::string(p));
    return files.back();
  }
  std::vector<std::string> files;
};

std::string readFile(llvm::StringRef path) {
  auto buf = llvm::MemoryBuffer::getFile(path);
  return buf ? (*buf)->getBuffer().str() : std::string();
}

/// The compiler's first error, with its location, as an Error.
Error compilerError(const std::string &compiler, const std::string &diag,
                    int rc) {
  // Both clang and flang print "file:line:col: error: message" (clang's
  // "fatal error:" for a missing header, too).
  std::regex re(R"(^(.*?):(\d+):(\d+): (?:fatal )?error: (.*)$)");
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

/// Runs a tool on `args` (argv[0] first) through execve: no shell sees
/// them. It reads nothing from dlayout's standard input ("" is /dev/null)
/// and writes its messages to `errPath`. Returns its exit status, < 0 when
/// it could not run or was killed (`execErr` says why).
int runTool(llvm::StringRef exe, const std::vector<std::string> &args,
            const std::string &errPath, unsigned seconds,
            std::string &execErr) {
  std::vector<llvm::StringRef> argv(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(errPath), llvm::StringRef(errPath)};
  return llvm::sys::ExecuteAndWait(exe, argv, std::nullopt, redirects, seconds,
                                   0, &execErr);
}

/// flang's frontend command for the request (kFlangFrontend, with its
/// markers filled in and the macro definitions after `-fc1`), or nothing
/// where the driver must run: no command recorded, its executable gone, or
/// extra flags that only the driver understands.
std::optional<std::vector<std::string>>
frontendCommand(const CompileRequest &req, const std::string &outPath,
                const std::string &source) {
  if (req.language != SourceLanguage::Fortran || req.viaDriver ||
      !req.flags.empty() || !kFlangFrontend[0] ||
      !llvm::sys::fs::can_execute(kFlangFrontend[0]))
    return std::nullopt;
  std::vector<std::string> args;
  for (const char *const *arg = kFlangFrontend; *arg; ++arg) {
    llvm::StringRef a(*arg);
    args.push_back(a == "<output>" ? outPath : a == "<source>" ? source : a.str());
    if (args.size() == 2) // after "-fc1"
      for (auto &[name, value] : req.defines)
        args.insert(args.end(), {"-D", name + "=" + value});
  }
  return args;
}

/// The compiler driver's arguments after argv[0], for `outPath`.
std::vector<std::string> driverArgs(const CompileRequest &req, const std::string &outPath,
                                    const std::string &source) {
  std::vector<std::string> args = {"-c", "-emit-llvm", "-g", "-O0"};
  if (req.language != SourceLanguage::Fortran) {
    // Keep clang from marking functions optnone, so that dlayout's own
    // canonicalisation can run on them.
    args.insert(args.end(), {"-Xclang", "-disable-O0-optnone"});
  }
  for (auto &[name, value] : req.defines) args.push_back("-D" + name + "=" + value);
  args.insert(args.end(), req.flags.begin(), req.flags.end());
  args.insert(args.end(), {"-o", outPath, source});
  return args;
}

/// Compiles in a child process (flang's frontend, else the driver) to
/// bitcode.
Result<std::string> compileToBitcode(const CompileRequest &req, const std::string &exe,
                                     const std::string &source) {
  std::string compiler = compilerFor(req.language);
  TempDir tmp;
  if (!tmp.made)
    return makeError("cannot create a temporary directory (is $TMPDIR writable?)");
  std::string outPath = tmp.file("out.bc"), errPath = tmp.file("diagnostics.txt");
  std::string execErr;
  int rc = -1;
  if (auto frontend = frontendCommand(req, outPath, source)) {
    // In this process where it can run here (FlangInProcess.h), else in a
    // flang-new process.
    std::string messages = tmp.file("frontend.txt");
    switch (runFlangFrontendInProcess(*frontend, messages)) {
    case FrontendRun::Succeeded: rc = 0; break;
    case FrontendRun::Failed: rc = 1; break;
    case FrontendRun::NotInProcess:
      rc = runTool(frontend->front(), *frontend, messages, /*seconds=*/600, execErr);
    }
  }
  // The driver where there is no frontend command, or where the frontend
  // could not start or failed (-2, killed or timed out, stands).
  if (rc == -1 || rc > 0) {
    std::vector<std::string> args = {exe};
    for (std::string &a : driverArgs(req, outPath, source)) args.push_back(std::move(a));
    rc = runTool(exe, args, errPath, /*seconds=*/600, execErr);
  }
  if (rc != 0) {
    if (rc < 0) return makeError(compiler + ": " + execErr);
    return compilerError(compiler, readFile(errPath), rc);
  }
  std::string ir = readFile(outPath);
  if (ir.empty()) return makeError(compiler + " produced no output");
  return ir;
}

} // namespace

Result<std::unique_ptr<llvm::Module>> compile(const CompileRequest &req,
                                              llvm::LLVMContext &ctx) {
  std::string compiler = compilerFor(req.language);
  auto exe = llvm::sys::findProgramByName(compiler);
  if (!exe)
    return makeError("cannot find " + compiler +
                     " (install it: scripts/setup.sh)");
  // A source whose name starts with '-' would be read as an option.
  std::string source = req.source;
  if (!source.empty() && source[0] == '-') source = "./" + source;

  if (req.language != SourceLanguage::Fortran && !req.viaDriver) {
    // -o names a file no in-process compile writes.
    auto done = compileInProcess(*exe, driverArgs(req, "-", source), ctx);
    if (done.outcome == InProcessCompile::Compiled) return std::move(done.module);
    if (done.outcome == InProcessCompile::Rejected)
      return compilerError(compiler, done.diagnostics, 1);
  }
  auto bitcode = compileToBitcode(req, *exe, source);
  if (!bitcode) return bitcode.error();
  llvm::SMDiagnostic diag;
  auto module = llvm::parseIR(llvm::MemoryBufferRef(*bitcode, req.source), diag, ctx);
  if (!module)
    return makeError(compiler + " wrote IR that LLVM cannot read: " + diag.getMessage().str());
  return module;
}

Result<std::string> disassembleBitcode(const std::string &path) {
  // LLVM 19's bitcode reader can crash on a corrupt file (found by
  // tests/fuzz): read it in a child process, so a crash there is an error
  // here, then parse the text it prints.
  std::string tool = "llvm-dis-19";
  auto exe = llvm::sys::findProgramByName(tool);
  if (!exe) exe = llvm::sys::findProgramByName(tool, {"/usr/lib/llvm-19/bin"});
  if (!exe) return makeError("cannot find " + tool + " to read bitcode (install llvm-19)");
  TempDir tmp;
  if (!tmp.made)
    return makeError("cannot create a temporary directory (is $TMPDIR writable?)");
  std::string outPath = tmp.file("out.ll"), errPath = tmp.file("diagnostics.txt");
  std::string source = !path.empty() && path[0] == '-' ? "./" + path : path;
  std::vector<std::string> args = {*exe, "-o", outPath, source};
  std::string execErr;
  int rc = runTool(*exe, args, errPath, /*seconds=*/300, execErr);
  if (rc != 0) {
    std::string diag = readFile(errPath);
    // "llvm-dis-19: error: FILE: Invalid record" -> what follows "error: ".
    auto at = diag.find("error: ");
    std::string first = at == std::string::npos ? "" : diag.substr(at + 7);
    first = first.substr(0, first.find('\n'));
    if (first.rfind(source + ": ", 0) == 0) first = first.substr(source.size() + 2);
    if (first.empty())
      first = rc < 0 ? "the bitcode reader failed on it (" + execErr + ")"
                     : "the bitcode reader failed on it (status " + std::to_string(rc) + ")";
    return makeError("invalid LLVM IR (bitcode): " + first, SourceLoc{path, 0, 0});
  }
  std::string ir = readFile(outPath);
  if (ir.empty()) // llvm-dis succeeds on a file that holds no module
    return makeError("invalid LLVM IR (bitcode): the file holds no module", SourceLoc{path, 0, 0});
  return ir;
}

} // namespace dlayout
