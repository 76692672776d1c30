//===- analyzer/ClangInProcess.cpp ----------------------------------------===//
#include "analyzer/ClangInProcess.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Job.h"
#include "clang/Driver/Tool.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <vector>

namespace dlayout {

InProcessCompile compileInProcess(llvm::StringRef clangExecutable,
                                  llvm::ArrayRef<std::string> args,
                                  llvm::LLVMContext &ctx) {
  InProcessCompile result;
  // The driver finds its resource directory (stddef.h and the like) next
  // to the executable it is told it is: clang-19's real path, as clang-19
  // itself sees it.
  llvm::SmallString<256> clang;
  if (llvm::sys::fs::real_path(clangExecutable, clang)) return result;

  llvm::raw_string_ostream messages(result.diagnostics);
  auto diagOptions = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  clang::TextDiagnosticPrinter printer(messages, diagOptions.get());
  clang::DiagnosticsEngine diags(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(),
                                 diagOptions.get(), &printer, /*ShouldOwnClient=*/false);

  clang::driver::Driver driver(clang.str(), llvm::sys::getDefaultTargetTriple(), diags);
  std::vector<const char *> argv = {clang.c_str()};
  for (const std::string &a : args) argv.push_back(a.c_str());
  std::unique_ptr<clang::driver::Compilation> plan(driver.BuildCompilation(argv));
  if (!plan || plan->containsError() || diags.hasErrorOccurred()) {
    result.outcome = plan ? InProcessCompile::Rejected : InProcessCompile::NotInProcess;
    return result;
  }
  const clang::driver::JobList &jobs = plan->getJobs();
  if (jobs.size() != 1 || llvm::StringRef(jobs.begin()->getCreator().getName()) != "clang")
    return result;
  const llvm::opt::ArgStringList &cc1 = jobs.begin()->getArguments();
  if (cc1.empty() || llvm::StringRef(cc1.front()) != "-cc1") return result;

  // Everything cc1 builds lives inside the recovery context: after a crash
  // it is abandoned, not destroyed (as clang's driver does with its cc1).
  auto runCC1 = [&] {
    auto invocation = std::make_shared<clang::CompilerInvocation>();
    if (!clang::CompilerInvocation::CreateFromArgs(*invocation, llvm::ArrayRef(cc1).drop_front(),
                                                   diags, clang.c_str())) {
      result.outcome = InProcessCompile::Rejected;
      return;
    }
    // What clang's own cc1 does beyond the action -- load plugins, take
    // -mllvm options into LLVM's command line -- is a clang-19 process's.
    clang::FrontendOptions &frontend = invocation->getFrontendOpts();
    if (!frontend.Plugins.empty() || !frontend.AddPluginActions.empty() ||
        !frontend.ActionName.empty() || !frontend.LLVMArgs.empty())
      return;
    // The driver asks cc1 not to free its memory at exit (-disable-free);
    // here the process goes on.
    frontend.DisableFree = false;
    clang::CompilerInstance compiler;
    compiler.setInvocation(std::move(invocation));
    compiler.createDiagnostics(&printer, /*ShouldOwnClient=*/false);
    compiler.setVerboseOutputStream(messages); // "1 error generated."
    clang::EmitLLVMOnlyAction action(&ctx);
    if (!compiler.ExecuteAction(action)) {
      result.outcome = InProcessCompile::Rejected;
      return;
    }
    result.module = action.takeModule();
    if (result.module) result.outcome = InProcessCompile::Compiled;
  };
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  if (!recovery.RunSafely(runCC1)) { // clang crashed: a clang-19 process says how
    (void)result.module.release(); // the context owns what was built
    result.outcome = InProcessCompile::NotInProcess;
  }
  llvm::CrashRecoveryContext::Disable();
  return result;
}

} // namespace dlayout
