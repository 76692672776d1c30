//===- model/Result.h - Errors returned by library code ---------*- C++ -*-===//
//
// Library code never prints or exits: a function that can fail returns a
// Result<T>, which holds either a value or an Error (a message and, where
// there is one, the source location it refers to). Only cli/ turns an Error
// into the one-line `dlayout: error: ...` diagnostic.
//
// This header links nothing, so model/, costmodels/, solver/ and validate/
// can share it without depending on LLVM.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace dlayout {

/// A place in a source file; line and col are 1-based, 0 when unknown.
struct SourceLoc {
  std::string file;
  unsigned line = 0;
  unsigned col = 0;

  bool known() const { return !file.empty() || line != 0; }
  /// "file:line:col", "file:line", "file" or "" depending on what is known.
  std::string str() const {
    std::string s = file;
    if (line) s += (s.empty() ? "" : ":") + std::to_string(line);
    if (line && col) s += ":" + std::to_string(col);
    return s;
  }
  bool operator==(const SourceLoc &) const = default;
};

struct Error {
  std::string message;
  SourceLoc loc;

  /// "file:line:col: message", or just the message when there is no place.
  std::string str() const {
    auto where = loc.str();
    return where.empty() ? message : where + ": " + message;
  }
};

/// A value or an Error. Test with `ok()` (or `if (r)`), then take `value()`
/// or `error()`.
template <class T> class Result {
public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error e) : v_(std::move(e)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T &value() & { assert(ok()); return std::get<0>(v_); }
  const T &value() const & { assert(ok()); return std::get<0>(v_); }
  T &&value() && { assert(ok()); return std::get<0>(std::move(v_)); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }
  T &operator*() & { return value(); }
  const T &operator*() const & { return value(); }

  const Error &error() const { assert(!ok()); return std::get<1>(v_); }

private:
  std::variant<T, Error> v_;
};

/// Result of an operation that produces nothing but may fail.
struct Unit {};
using Status = Result<Unit>;
inline Status success() { return Unit{}; }

inline Error makeError(std::string message, SourceLoc loc = {}) {
  return Error{std::move(message), std::move(loc)};
}

} // namespace dlayout
