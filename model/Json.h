//===- model/Json.h - Reading and writing dlayout's JSON --------*- C++ -*-===//
//
// Shared by the readers and writers of every "dlayout-<kind>/<version>"
// document (ProgramJson.h, LayoutJson.h, MachineJson.h, and later estimates,
// advice and validation reports):
//
//  - dump() renders a document the one way dlayout writes files: 2-space
//    indent, keys in sorted order, a trailing newline.
//  - readFile() reads a whole file, with a clear error for a missing,
//    unreadable or directory path.
//  - jsonio::Node is a JSON value together with its path from the document root
//    ("arrays[2].dims[0].extent"). Its typed accessors throw jsonio::ReadError
//    naming that path; jsonio::read() runs a reader, catches ReadError and
//    every nlohmann exception, and returns them as an Error. So readers are
//    written top-down without error plumbing, yet never throw to the caller.
//
// Error messages have the form "PATH: what is wrong", e.g.
// "arrays[2].dims[0].extent: must be positive".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <exception>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlayout {

/// The text of a document: 2-space indent, trailing newline. Never throws
/// (invalid UTF-8 in strings is replaced).
std::string dump(const nlohmann::json &doc);

/// Inputs larger than this are refused (they are untrusted, and every
/// reader holds a whole document in memory).
inline constexpr uint64_t kMaxInputBytes = uint64_t(1) << 30;

/// The whole contents of the regular file at `path`: a clear error for a
/// missing, unreadable or directory path, a pipe or device (which is never
/// waited on), or a file over kMaxInputBytes.
Result<std::string> readFile(const std::string &path);

namespace jsonio {

/// What a Node accessor throws; message is "PATH: what is wrong".
struct ReadError {
  std::string message;
};

/// "PATH: what" ("document: what" at the root).
std::string at(const std::string &path, const std::string &what);

/// A value inside a document being read, and where it is.
class Node {
public:
  explicit Node(const nlohmann::json &value, std::string path = {})
      : v_(&value), path_(std::move(path)) {}

  const nlohmann::json &value() const { return *v_; }
  const std::string &path() const { return path_; }
  [[noreturn]] void fail(const std::string &what) const;

  // Objects.
  /// A required member; fails when this is not an object or it is absent.
  Node get(std::string_view key) const;
  /// An optional member; nullopt when absent. A null value is returned
  /// like any other (and fails the typed accessors): only members documented
  /// as nullable, read with optStr(), take null for "none".
  std::optional<Node> find(std::string_view key) const;
  /// Fails on the first member whose key is not in `keys`.
  void allowOnly(std::initializer_list<std::string_view> keys) const;
  std::vector<std::pair<std::string, Node>> members() const;

  // Arrays.
  std::vector<Node> elements() const;

  // Scalars; each fails on a value of another type.
  std::string str() const;
  int64_t integer() const; // also accepts numbers like 2.0
  unsigned count() const;  // a non-negative integer that fits `unsigned`
  double number() const;   // any finite number
  bool boolean() const;

  // Members with a default for when they are absent.
  std::string str(std::string_view key, std::string dflt) const;
  int64_t integer(std::string_view key, int64_t dflt) const;
  unsigned count(std::string_view key, unsigned dflt) const;
  double number(std::string_view key, double dflt) const;
  bool boolean(std::string_view key, bool dflt) const;
  /// A nullable string member: nullopt when absent or null.
  std::optional<std::string> optStr(std::string_view key) const;

private:
  void require(nlohmann::json::value_t t, const char *what) const;
  std::string child(std::string_view key) const;

  const nlohmann::json *v_;
  std::string path_;
};

/// The deepest nesting of arrays and objects parse() accepts.
inline constexpr int kMaxJsonDepth = 4096;

/// Parses JSON text; a syntax error (including truncated text) becomes
/// "invalid JSON: ... at line L, column C", and a document nested deeper
/// than kMaxJsonDepth "invalid JSON: nested too deeply".
Result<nlohmann::json> parse(std::string_view text);

/// Fails unless doc["schema"] is `expected`: "expected schema
/// dlayout-model/1, got dlayout-model/2". Call it first, before any field.
void expectSchema(const Node &doc, std::string_view expected);

/// Runs read() (which returns a T) and returns its value, or the ReadError
/// or exception it threw as an Error.
template <class F> auto read(F &&read) -> Result<decltype(read())> {
  try {
    return read();
  } catch (const ReadError &e) {
    return makeError(e.message);
  } catch (const nlohmann::json::exception &e) {
    return makeError(std::string("malformed document: ") + e.what());
  } catch (const std::exception &e) {
    return makeError(std::string("cannot read document: ") + e.what());
  }
}

} // namespace jsonio
} // namespace dlayout
