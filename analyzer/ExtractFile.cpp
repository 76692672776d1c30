//===- analyzer/ExtractFile.cpp - A program file to its model ------------===//
//
// extract() (Extract.h): reads the file, compiles a source (Compiler.h) or
// reads IR, and builds the model from the module (extractModule). Apart
// from Extract.cpp, which the opt plugin links, because the compiler runs
// clang in process: clang's code must not be loaded into opt beside opt's
// own (both register the same command-line options).
//
//===----------------------------------------------------------------------===//
#include "analyzer/Extract.h"

#include "analyzer/Compiler.h"
#include "model/Json.h"
#include "model/ProgramJson.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/ADT/StringRef.h"

#include <z3++.h>

#include <functional>
#include <future>
#include <regex>
#include <set>
#include <system_error>

namespace dlayout {

namespace {

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

/// Each --probability LINE names a line with a statement, each --trip-count
/// LINE a line with a loop: a value that annotates nothing is a mistake.
Status checkLineOptions(const Program &P, const ExtractOptions &opts) {
  for (auto &[line, value] : opts.probabilities) {
    bool found = false;
    for (auto &S : P.statements) found = found || S.loc.line == line;
    if (!found)
      return makeError("--probability " + std::to_string(line) + ": no statement on line " +
                       std::to_string(line) + " of " + opts.input);
  }
  for (auto &[line, value] : opts.tripCounts) {
    bool found = false;
    for (auto &L : P.loops) found = found || L.loc.line == line;
    if (!found)
      return makeError("--trip-count " + std::to_string(line) + ": no loop on line " +
                       std::to_string(line) + " of " + opts.input);
  }
  return success();
}

} // namespace

Result<Program> extract(const ExtractOptions &opts, std::unique_ptr<z3::context> *solverOut) {
  if (opts.input.empty()) return makeError("no input file");
  // Read first: a missing, unreadable or special file (a FIFO, a device) is
  // refused before anything else looks at it.
  auto text = readFile(opts.input);
  if (!text) return text.error();
  auto lang = languageOf(opts.input);
  if (!lang) return lang.error();

  if (*lang == SourceLanguage::ModelJson) {
    if (!opts.probabilities.empty() || !opts.tripCounts.empty())
      return makeError(std::string(opts.probabilities.empty() ? "--trip-count" : "--probability") +
                       " applies to a program the analyzer reads (a source or LLVM IR), "
                       "not to a model; edit the model instead");
    auto P = parseProgram(*text);
    if (!P) return makeError(opts.input + ": " + P.error().message);
    // Fortran's names are case-blind, C's are not: a C model's n and N are
    // two parameters (jacobi_vla.c's argument n and its macro N).
    const bool fortran = P->language == "fortran";
    for (auto &[name, value] : opts.params) {
      bool found = false;
      for (auto &[p, v] : P->params)
        if (p == name || (fortran && equalsIgnoreCase(p, name))) { v = value; found = true; }
      if (!found)
        return makeError("--param " + name + " names no parameter of the model");
    }
    return P;
  }

  // The dependence tests' Z3 context, made on another thread while the
  // file is compiled or parsed (computeDependences: making it takes longer
  // than a small program's tests; the compiler leaves a core idle).
  // Where no thread can be started the test makes its own.
  std::future<std::unique_ptr<z3::context>> solver;
  try {
    solver = std::async(std::launch::async, [] { return std::make_unique<z3::context>(); });
  } catch (const std::system_error &) {
  }
  llvm::LLVMContext Ctx;
  std::unique_ptr<llvm::Module> M;
  std::string sourceText;
  if (*lang == SourceLanguage::LLVMIR || *lang == SourceLanguage::LLVMBitcode) {
    // Bitcode (by its magic, whatever the extension) is read out of process.
    if (llvm::isBitcode(reinterpret_cast<const unsigned char *>(text->data()),
                        reinterpret_cast<const unsigned char *>(text->data() + text->size()))) {
      auto ir = disassembleBitcode(opts.input);
      if (!ir) return ir.error();
      *text = std::move(*ir);
    }
    auto parsed = parseModule(*text, opts.input, Ctx);
    if (!parsed) return parsed.error();
    M = std::move(*parsed);
  } else {
    sourceText = *text;
    CompileRequest req;
    req.source = opts.input;
    req.language = *lang;
    for (auto &[name, value] : opts.params)
      if (sourceMentionsMacro(sourceText, name)) req.defines[name] = std::to_string(value);
    req.flags = opts.compilerFlags;
    auto compiled = compile(req, Ctx);
    if (!compiled) return compiled.error();
    M = std::move(*compiled);
  }

  std::unique_ptr<z3::context> made;
  try {
    if (solver.valid()) made = solver.get();
  } catch (const z3::exception &) {
  }
  auto P = extractModule(*M, opts, made.get());
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
  if (auto s = checkLineOptions(*P, opts); !s) return s.error();
  if (solverOut) *solverOut = std::move(made);
  return P;
}

} // namespace dlayout
