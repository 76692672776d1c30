//===- analyzer/Extract.cpp -----------------------------------------------===//
#include "analyzer/Extract.h"

#include "analyzer/Canonicalize.h"
#include "analyzer/Dependences.h"
#include "analyzer/Polynomial.h"
#include "analyzer/ProgramBuilder.h"
#include "analyzer/Symbols.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <z3++.h>

#include <optional>
#include <set>

namespace dlayout {

namespace {

bool isFortranModule(llvm::Module &M) {
  for (auto *CU : M.debug_compile_units()) {
    auto lang = CU->getSourceLanguage();
    if (lang == llvm::dwarf::DW_LANG_Fortran77 || lang == llvm::dwarf::DW_LANG_Fortran90 ||
        lang == llvm::dwarf::DW_LANG_Fortran95 || lang == llvm::dwarf::DW_LANG_Fortran03 ||
        lang == llvm::dwarf::DW_LANG_Fortran08)
      return true;
  }
  return M.getModuleIdentifier() == "FIRModule" || M.getSourceFileName() == "FIRModule";
}

/// Every array has a positive extent in each dimension and a size in bytes
/// that fits 64 bits: the cost models and the runtime count elements and
/// bytes in int64_t.
Status checkArrays(const Program &P, const ExtractOptions &opts) {
  std::string hint;
  for (auto &[name, value] : opts.params)
    hint += (hint.empty() ? " (with --param " : ", --param ") + name + "=" +
            std::to_string(value);
  if (!hint.empty()) hint += ")";
  for (auto &A : P.arrays) {
    int64_t bytes = A.elementBytes;
    bool overflows = false;
    std::string shape;
    for (size_t d = 0; d < A.dims.size(); ++d) {
      int64_t extent = A.dims[d].extent;
      if (extent <= 0)
        return makeError("array " + A.name + " has extent " + std::to_string(extent) +
                             " in dimension " + std::to_string(d + 1) + hint +
                             "; dlayout needs arrays with at least one element",
                         A.loc);
      overflows = overflows || __builtin_mul_overflow(bytes, extent, &bytes);
      shape += (d ? " x " : "") + std::to_string(extent);
    }
    if (overflows)
      return makeError("array " + A.name + " (" + shape + " elements of " +
                           std::to_string(A.elementBytes) +
                           " bytes) is too large: its size overflows 64 bits" + hint,
                       A.loc);
  }
  return success();
}

/// Every scope, type, variable and compile unit of the debug information
/// names its file with a DIFile (or none).
bool debugFilesAreFiles(llvm::Module &M) {
  llvm::DebugInfoFinder F;
  F.processModule(M);
  auto ok = [](llvm::Metadata *file) { return !file || llvm::isa<llvm::DIFile>(file); };
  for (auto *S : F.scopes())
    if (!ok(S->getRawFile())) return false;
  for (auto *T : F.types())
    if (!ok(T->getRawFile())) return false;
  for (auto *SP : F.subprograms())
    if (!ok(SP->getRawFile())) return false;
  for (auto *CU : F.compile_units())
    if (!ok(CU->getRawFile())) return false;
  for (auto *GV : F.global_variables())
    if (!ok(GV->getVariable()->getRawFile())) return false;
  return true;
}

/// What in the debug information would crash or hang LLVM 19's verifier,
/// or nothing:
///  - a lexical block that is its own ancestor or a location inlined at
///    itself: the verifier walks those chains to their end
///    (DILocalScope::getSubprogram) and never returns;
///  - a global variable expression whose variable is not a global variable
///    or whose expression is not an expression: the verifier casts them
///    without checking and reads whatever node is there.
std::optional<std::string> debugInfoHazard(llvm::Module &M) {
  std::vector<const llvm::MDNode *> work;
  std::set<const llvm::MDNode *> seen;
  auto add = [&](const llvm::Metadata *MD) {
    if (auto *N = llvm::dyn_cast_or_null<llvm::MDNode>(MD); N && seen.insert(N).second)
      work.push_back(N);
  };
  llvm::SmallVector<std::pair<unsigned, llvm::MDNode *>, 8> attached;
  for (const llvm::NamedMDNode &NMD : M.named_metadata())
    for (const llvm::MDNode *N : NMD.operands()) add(N);
  for (llvm::GlobalVariable &G : M.globals()) {
    G.getAllMetadata(attached);
    for (auto &[kind, N] : attached) add(N);
  }
  for (llvm::Function &F : M) {
    F.getAllMetadata(attached);
    for (auto &[kind, N] : attached) add(N);
    for (llvm::Instruction &I : llvm::instructions(F)) {
      I.getAllMetadata(attached);
      for (auto &[kind, N] : attached) add(N);
      for (llvm::DbgRecord &R : I.getDbgRecordRange()) {
        add(R.getDebugLoc().getAsMDNode());
        if (auto *V = llvm::dyn_cast<llvm::DbgVariableRecord>(&R)) add(V->getRawVariable());
      }
    }
  }
  // Every reachable node; a chain is followed until it leaves the kind.
  auto cycles = [](const llvm::MDNode *N, auto next) {
    std::set<const llvm::MDNode *> path;
    for (; N; N = next(N))
      if (!path.insert(N).second) return true;
    return false;
  };
  const char *cycle = "a debug-information scope is its own ancestor";
  while (!work.empty()) {
    const llvm::MDNode *N = work.back();
    work.pop_back();
    for (const llvm::MDOperand &Op : N->operands()) add(Op.get());
    if (auto *G = llvm::dyn_cast<llvm::DIGlobalVariableExpression>(N)) {
      if (G->getRawVariable() && !llvm::isa<llvm::DIGlobalVariable>(G->getRawVariable()))
        return std::string("a global variable expression's variable is not a global variable");
      if (G->getRawExpression() && !llvm::isa<llvm::DIExpression>(G->getRawExpression()))
        return std::string("a global variable expression's expression is not an expression");
    }
    if (llvm::isa<llvm::DILexicalBlockBase>(N) &&
        cycles(N, [](const llvm::MDNode *X) -> const llvm::MDNode * {
          auto *B = llvm::dyn_cast<llvm::DILexicalBlockBase>(X);
          return B ? llvm::dyn_cast_or_null<llvm::MDNode>(B->getRawScope()) : nullptr;
        }))
      return std::string(cycle);
    if (llvm::isa<llvm::DILocation>(N) &&
        cycles(N, [](const llvm::MDNode *X) -> const llvm::MDNode * {
          auto *L = llvm::dyn_cast<llvm::DILocation>(X);
          return L ? llvm::dyn_cast_or_null<llvm::MDNode>(L->getRawInlinedAt()) : nullptr;
        }))
      return std::string(cycle);
  }
  return std::nullopt;
}

} // namespace

Result<Program> extractModule(llvm::Module &M, const ExtractOptions &opts, z3::context *solver) {
  Poly::clearOverflow();
  BuildOptions b;
  b.loopVariables = loopVariablesByLine(M);
  if (auto s = canonicalize(M); !s) return s.error();
  b.fortran = isFortranModule(M);
  b.functions = std::set<std::string>(opts.functions.begin(), opts.functions.end());
  b.params = opts.params;
  b.probabilities = opts.probabilities;
  b.tripCounts = opts.tripCounts;
  auto P = buildProgram(M, b);
  if (!P) return P.error();
  if (auto s = checkArrays(*P, opts); !s) return s.error();
  if (auto s = computeDependences(*P, solver); !s) return s.error();
  if (Poly::overflowed())
    return makeError("integer overflow in the program's address or bound arithmetic "
                     "(a size or subscript beyond 64 bits); the model would be wrong");
  return P;
}

Result<std::unique_ptr<llvm::Module>> parseModule(std::string_view data, const std::string &name,
                                                 llvm::LLVMContext &Ctx) {
  // LLVM's readers "upgrade" debug information by verifying the module and,
  // when it is broken, calling report_fatal_error: an abort on bad input.
  // Turn that off (as -disable-auto-upgrade-debug-info does) and verify
  // below, where a broken module is an error.
  static const bool upgradeOff = [] {
    auto &options = llvm::cl::getRegisteredOptions();
    auto it = options.find("disable-auto-upgrade-debug-info");
    if (it == options.end()) return false;
    static_cast<llvm::cl::opt<bool> *>(it->second)->setValue(true);
    return true;
  }();
  (void)upgradeOff;
  auto *bytes = reinterpret_cast<const unsigned char *>(data.data());
  // isBitcode reads four bytes whatever the length (LLVM 19): check it first.
  if (data.size() >= 4 && llvm::isBitcode(bytes, bytes + data.size()))
    return makeError("LLVM bitcode is read through disassembleBitcode(), not in process",
                     SourceLoc{name, 0, 0});
  llvm::SMDiagnostic Diag;
  // LLVM's lexer reads up to a terminating NUL: parse a copy that has one
  // (a string_view need not; the fuzzer found the overread).
  std::string text(data);
  auto M = llvm::parseIR(llvm::MemoryBufferRef(text, name), Diag, Ctx);
  if (!M)
    return makeError("invalid LLVM IR: " + Diag.getMessage().str(),
                     SourceLoc{name, (unsigned)std::max(0, Diag.getLineNo()),
                               (unsigned)std::max(0, Diag.getColumnNo() + 1)});
  if (auto hazard = debugInfoHazard(*M))
    return makeError("invalid LLVM IR: " + *hazard, SourceLoc{name, 0, 0});
  // The parser accepts IR the passes must never see (a use that does not
  // follow its definition, a block without a terminator): verify it.
  std::string problems;
  llvm::raw_string_ostream os(problems);
  bool brokenDebugInfo = false;
  if (llvm::verifyModule(*M, &os, &brokenDebugInfo)) {
    os.flush();
    std::string first = problems.substr(0, problems.find('\n'));
    return makeError("invalid LLVM IR: " + (first.empty() ? "the verifier rejects it" : first),
                     SourceLoc{name, 0, 0});
  }
  // LLVM 19's verifier does not check a declaration's !dbg attachment, and
  // everything that reads debug information casts it to a subprogram.
  for (llvm::Function &F : *M)
    if (auto *N = F.getMetadata(llvm::LLVMContext::MD_dbg); N && !llvm::isa<llvm::DISubprogram>(N))
      return makeError("invalid LLVM IR: the !dbg attachment of function @" + F.getName().str() +
                           " is not a DISubprogram",
                       SourceLoc{name, 0, 0});
  // Nor does it check every scope's file (a lexical block's `file:` may be
  // any node), and the analyzer reads them all.
  if (brokenDebugInfo || !debugFilesAreFiles(*M))
    llvm::StripDebugInfo(*M); // usable without its locations
  return M;
}


} // namespace dlayout
