//===- tests/analyzer/Helpers.h - Finding things in extracted models -*- C++ -*-===//
#pragma once

#include "analyzer/Extract.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace dlayout::test {

inline std::string sample(const std::string &rel) {
  return std::string(DLAYOUT_SOURCE_DIR) + "/samples/" + rel;
}

/// Extracts a sample; fails the test (and returns an empty model) on error.
inline Program extractSample(const std::string &rel,
                             std::map<std::string, int64_t> params = {},
                             std::vector<std::string> functions = {}) {
  ExtractOptions o;
  o.input = sample(rel);
  o.params = std::move(params);
  o.functions = std::move(functions);
  auto P = extract(o);
  EXPECT_TRUE(P.ok()) << rel << ": " << (P.ok() ? "" : P.error().str());
  return P.ok() ? *P : Program{};
}

/// Writes `text` to a file NAME under the test's temporary directory and
/// returns its path; fails the test where it cannot.
inline std::string writeTemp(const std::string &name, const char *text) {
  std::string path = ::testing::TempDir() + name;
  FILE *f = fopen(path.c_str(), "w");
  if (!f) {
    ADD_FAILURE() << "cannot write " << path;
    return path;
  }
  fputs(text, f);
  fclose(f);
  return path;
}

/// The statements on a source line.
inline std::vector<const Statement *> onLine(const Program &P, unsigned line) {
  std::vector<const Statement *> out;
  for (auto &s : P.statements)
    if (s.loc.line == line) out.push_back(&s);
  return out;
}

/// The one statement that writes `lhs` (an array or scalar name) on `line`.
inline const Statement *writing(const Program &P, const std::string &lhs, unsigned line) {
  for (auto *s : onLine(P, line))
    if ((s->write >= 0 && s->refs[s->write].array == lhs) || s->scalarWrite == lhs) return s;
  ADD_FAILURE() << "no statement writing " << lhs << " on line " << line;
  return nullptr;
}

/// The statement writing `lhs` inside the innermost loop whose variable is
/// `var` ... the first in program order.
inline const Statement *firstWriting(const Program &P, const std::string &lhs) {
  for (auto &s : P.statements)
    if ((s.write >= 0 && s.refs[s.write].array == lhs) || s.scalarWrite == lhs) return &s;
  ADD_FAILURE() << "no statement writing " << lhs;
  return nullptr;
}

inline std::vector<const Reference *> reads(const Statement &s, const std::string &array) {
  std::vector<const Reference *> out;
  for (auto &r : s.refs)
    if (r.array == array && r.access == Reference::Access::Read) out.push_back(&r);
  return out;
}

/// The loop variable of an affine subscript with one index, "" otherwise.
inline std::string indexVar(const Program &P, const Subscript &s) {
  if (s.affine.coeffs.size() != 1) return "";
  const Loop *l = P.findLoop(s.affine.coeffs.begin()->first);
  return l ? l->var : "";
}

/// The loops around a statement, outermost first.
inline std::vector<const Loop *> loopsOf(const Program &P, const Statement &s) {
  std::vector<const Loop *> out;
  for (auto &id : s.loops) out.push_back(P.findLoop(id));
  return out;
}

} // namespace dlayout::test
