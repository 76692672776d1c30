//===- analyzer/Extract.cpp -----------------------------------------------===//
#include "analyzer/Extract.h"

#include "analyzer/Canonicalize.h"
#include "analyzer/Compiler.h"
#include "analyzer/Dependences.h"
#include "analyzer/ProgramBuilder.h"
#include "analyzer/Symbols.h"
#include "model/Json.h"
#include "model/ProgramJson.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <regex>
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

/// Every parameter an affine expression of the model mentions.
std::set<std::string> parametersUsed(const Program &P) {
  std::set<std::string> used;
  auto add = [&](const AffineExpr &e) {
    for (auto &[p, c] : e.params) used.insert(p);
  };
  std::function<void(const Reference &)> ref = [&](const Reference &r) {
    for (auto &s : r.subscripts) {
      add(s.affine);
      for (auto &i : s.index) ref(i);
    }
  };
  for (auto &L : P.loops)
    for (auto *b : {&L.lower, &L.upper})
      for (auto &t : b->terms) add(t);
  for (auto &A : P.arrays)
    for (auto &d : A.dims)
      if (d.extentExpr) add(*d.extentExpr);
  for (auto &S : P.statements)
    for (auto &r : S.refs) ref(r);
  return used;
}

/// Macros the source can take from -D: names a preprocessor line mentions.
bool sourceMentionsMacro(const std::string &text, const std::string &name) {
  std::regex re("^[ \\t]*#[ \\t]*(define|undef|ifndef|ifdef|if|elif)\\b[^\\n]*\\b" +
                    name + "\\b",
                std::regex::multiline);
  return std::regex_search(text, re);
}

bool equalsIgnoreCase(const std::string &a, const std::string &b) {
  return llvm::StringRef(a).equals_insensitive(b);
}

Status checkReadable(const std::string &path) {
  if (path.empty()) return makeError("no input file");
  if (!llvm::sys::fs::exists(path)) return makeError("no such file: " + path);
  if (llvm::sys::fs::is_directory(path))
    return makeError(path + " is a directory, not a program file");
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf) return makeError("cannot read " + path + ": " + buf.getError().message());
  return success();
}

} // namespace

Result<Program> extractModule(llvm::Module &M, const ExtractOptions &opts) {
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
  if (auto s = computeDependences(*P); !s) return s.error();
  return P;
}

Result<Program> extract(const ExtractOptions &opts) {
  if (auto s = checkReadable(opts.input); !s) return s.error();
  auto lang = languageOf(opts.input);
  if (!lang) return lang.error();

  if (*lang == SourceLanguage::ModelJson) {
    auto text = readFile(opts.input);
    if (!text) return text.error();
    auto P = parseProgram(*text);
    if (!P) return makeError(opts.input + ": " + P.error().message);
    for (auto &[name, value] : opts.params) {
      bool found = false;
      for (auto &[p, v] : P->params)
        if (equalsIgnoreCase(p, name)) { v = value; found = true; }
      if (!found)
        return makeError("--param " + name + " names no parameter of the model");
    }
    return P;
  }

  llvm::LLVMContext Ctx;
  llvm::SMDiagnostic Diag;
  std::unique_ptr<llvm::Module> M;
  std::string sourceText;
  if (*lang == SourceLanguage::LLVMIR || *lang == SourceLanguage::LLVMBitcode) {
    M = llvm::parseIRFile(opts.input, Diag, Ctx);
  } else {
    auto text = readFile(opts.input);
    if (!text) return text.error();
    sourceText = *text;
    CompileRequest req;
    req.source = opts.input;
    req.language = *lang;
    for (auto &[name, value] : opts.params)
      if (sourceMentionsMacro(sourceText, name)) req.defines[name] = std::to_string(value);
    req.flags = opts.compilerFlags;
    auto ir = compileToIR(req);
    if (!ir) return ir.error();
    M = llvm::parseIR(llvm::MemoryBufferRef(*ir, opts.input), Diag, Ctx);
  }
  if (!M)
    return makeError("invalid LLVM IR: " + Diag.getMessage().str(),
                     SourceLoc{opts.input, (unsigned)std::max(0, Diag.getLineNo()),
                               (unsigned)std::max(0, Diag.getColumnNo() + 1)});

  auto P = extractModule(*M, opts);
  if (!P) return P.error();
  P->sources = {opts.input};
  if (*lang != SourceLanguage::LLVMIR && *lang != SourceLanguage::LLVMBitcode)
    P->language = toString(*lang);

  // Every --param must bind something: a parameter of the model or a macro.
  auto used = parametersUsed(*P);
  for (auto &[name, value] : opts.params) {
    bool binds = sourceMentionsMacro(sourceText, name);
    for (auto &u : used)
      if (u == name || (P->language == "fortran" && equalsIgnoreCase(u, name))) binds = true;
    if (!binds)
      return makeError("--param " + name + " names nothing in " + opts.input +
                       " (no symbolic size and no preprocessor macro of that name)");
    if (!used.count(name) && !used.count(llvm::StringRef(name).upper()))
      P->params.erase(P->language == "fortran" ? llvm::StringRef(name).upper() : name);
    if (sourceMentionsMacro(sourceText, name)) P->params[name] = value;
  }
  if (P->statements.empty())
    return makeError(opts.input + ": no array or scalar assignments to analyse "
                     "(is the program empty?)");
  return P;
}

} // namespace dlayout
