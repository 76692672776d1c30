//===- analyzer/FlangInProcess.cpp ----------------------------------------===//
#include "analyzer/FlangInProcess.h"

#if DLAYOUT_FLANG_IN_PROCESS
#include "flang/Frontend/CompilerInstance.h"
#include "flang/Frontend/CompilerInvocation.h"
#include "flang/Frontend/FrontendActions.h"
#include "flang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/MLIRContext.h"

#include <cstdio>
#include <fcntl.h>
#include <mutex>
#include <unistd.h>
#include <vector>
#endif

namespace dlayout {

#if !DLAYOUT_FLANG_IN_PROCESS

FrontendRun runFlangFrontendInProcess(llvm::ArrayRef<std::string>, const std::string &) {
  return FrontendRun::NotInProcess;
}

#else

namespace {

/// flang's action for bitcode, which also frees the MLIR module it lowered
/// the source to: flang's own CodeGenAction leaves that to the end of its
/// process (a flang-new process compiles one file).
class BitcodeAction : public Fortran::frontend::EmitLLVMBitcodeAction {
public:
  ~BitcodeAction() override {
    if (mlirModule && *mlirModule) mlirModule->erase();
  }
};

/// Standard error (file descriptor 2) written to a file while it lives.
class StderrToFile {
public:
  explicit StderrToFile(const std::string &path) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return;
    flush();
    saved_ = ::fcntl(2, F_DUPFD_CLOEXEC, 3);
    if (saved_ >= 0 && ::dup2(fd, 2) < 0) ::close(saved_), saved_ = -1;
    ::close(fd);
  }
  ~StderrToFile() {
    if (saved_ < 0) return;
    flush();
    ::dup2(saved_, 2);
    ::close(saved_);
  }
  bool redirected() const { return saved_ >= 0; }

private:
  static void flush() {
    llvm::errs().flush();
    std::fflush(stderr);
  }
  int saved_ = -1;
};

} // namespace

#if defined(__SANITIZE_ADDRESS__)
/// LeakSanitizer's built-in suppressions: flang's CodeGenAction allocates a
/// TargetLibraryInfoImpl for its pass pipeline on every compile and never
/// frees it (208 bytes).
extern "C" const char *__lsan_default_suppressions() {
  return "leak:llvm::driver::createTLII\n";
}
#endif

FrontendRun runFlangFrontendInProcess(llvm::ArrayRef<std::string> command,
                                      const std::string &diagnosticsPath) {
  if (command.size() < 3 || command[1] != "-fc1") return FrontendRun::NotInProcess;
  std::vector<const char *> args;
  for (const std::string &a : command.drop_front(2)) args.push_back(a.c_str());
  // flang looks for its intrinsic modules (__fortran_builtins.mod, ...) in
  // ../include/flang beside the running executable, dlayout here: they are
  // beside flang-new. (The modules it reads by itself, like the type
  // descriptions' __fortran_type_info, come from that list alone, and a
  // module it does not find there is silently left out of the IR.)
  llvm::SmallString<256> modules(llvm::sys::path::parent_path(command[0]));
  llvm::sys::path::append(modules, "..", "include", "flang");

  // Code generation asks for the target machine of the host's triple. The
  // MLIR context flang makes runs its passes on one thread: a file's
  // few functions leave a thread pool waiting more than working (tred2's
  // advise 2-4 % faster; flang-new's --mlir-disable-threading, which as an
  // -mmlir option would send the compile to a flang-new process).
  static std::once_flag target;
  std::call_once(target, [] {
    llvm::InitializeNativeTarget();
    mlir::registerMLIRContextCLOptions();
    if (llvm::cl::Option *o = llvm::cl::getRegisteredOptions().lookup("mlir-disable-threading"))
      o->addOccurrence(0, o->ArgStr, "true");
  });

  StderrToFile toFile(diagnosticsPath);
  if (!toFile.redirected()) return FrontendRun::NotInProcess;
  FrontendRun result = FrontendRun::NotInProcess;
  // Everything the frontend builds lives inside the recovery context: after
  // a crash it is abandoned, not destroyed.
  auto runFC1 = [&] {
    namespace ff = Fortran::frontend;
    auto flang = std::make_unique<ff::CompilerInstance>();
    flang->createDiagnostics(); // prints to standard error
    if (!flang->hasDiagnostics()) return;
    // The arguments' messages are buffered, then replayed through flang's
    // diagnostics (as flang-new -fc1 does).
    auto *buffer = new ff::TextDiagnosticBuffer; // owned by `diags`
    clang::DiagnosticsEngine diags(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(),
                                   llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>(), buffer);
    bool parsed = ff::CompilerInvocation::createFromArgs(flang->getInvocation(), args, diags,
                                                         command[0].c_str());
    buffer->flushDiagnostics(flang->getDiagnostics());
    if (!parsed || flang->getDiagnostics().hasErrorOccurred()) {
      result = FrontendRun::Failed;
      return;
    }
    // Ahead of the running executable's, which flang adds when it runs.
    flang->getInvocation().getFortranOpts().intrinsicModuleDirectories.push_back(
        modules.str().str());
    const ff::FrontendOptions &opts = flang->getFrontendOpts();
    if (opts.programAction != ff::EmitLLVMBitcode || !opts.plugins.empty() ||
        !opts.llvmArgs.empty() || !opts.mlirArgs.empty())
      return; // a flang-new process's
    BitcodeAction action;
    bool ok = flang->executeAction(action) && !flang->getDiagnostics().hasErrorOccurred();
    flang->clearOutputFiles(/*eraseFiles=*/!ok);
    result = ok ? FrontendRun::Succeeded : FrontendRun::Failed;
  };
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  if (!recovery.RunSafely(runFC1)) result = FrontendRun::NotInProcess;
  llvm::CrashRecoveryContext::Disable();
  return result;
}

#endif

} // namespace dlayout
