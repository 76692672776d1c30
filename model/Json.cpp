//===- model/Json.cpp - Reading and writing dlayout's JSON documents ------===//

#include "model/Json.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace dlayout {

std::string dump(const nlohmann::json &doc) {
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";
}

Result<std::string> readFile(const std::string &path) {
  auto cannot = [&](const std::string &why) {
    return makeError("cannot read '" + path + "': " + why);
  };
  if (path.empty())
    return cannot("no such file");
  // Opened without blocking (a FIFO would wait for a writer), then checked
  // on the descriptor itself, so what is read is what was checked.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    if (err == ENOENT || err == ENOTDIR)
      return cannot("no such file");
    return cannot(std::strerror(err));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st;
  if (::fstat(fd, &st) != 0)
    return cannot(std::strerror(errno));
  if (S_ISDIR(st.st_mode))
    return cannot("is a directory");
  if (!S_ISREG(st.st_mode))
    return cannot("not a regular file (a pipe, device or socket)");
  if (uint64_t(st.st_size) > kMaxInputBytes)
    return cannot("too large (" + std::to_string(st.st_size) + " bytes; the limit is " +
                  std::to_string(kMaxInputBytes >> 20) + " MiB)");
  std::string text;
  text.resize(size_t(st.st_size));
  size_t got = 0;
  while (true) {
    if (got == text.size()) {
      // The file may have grown since fstat; read on, within the limit.
      if (text.size() >= kMaxInputBytes + 1)
        break;
      text.resize(std::min<size_t>(std::max<size_t>(text.size() * 2, 4096),
                                   kMaxInputBytes + 1));
    }
    ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return cannot(std::strerror(errno));
    }
    if (n == 0)
      break;
    got += size_t(n);
  }
  if (got > kMaxInputBytes)
    return cannot("too large (the limit is " + std::to_string(kMaxInputBytes >> 20) +
                  " MiB)");
  text.resize(got);
  return text;
}

namespace jsonio {

std::string at(const std::string &path, const std::string &what) {
  return (path.empty() ? std::string("document") : path) + ": " + what;
}

namespace {

/// "a string", "an object", ... for messages.
std::string typeName(const nlohmann::json &v) {
  switch (v.type()) {
  case nlohmann::json::value_t::object:
    return "an object";
  case nlohmann::json::value_t::array:
    return "an array";
  case nlohmann::json::value_t::string:
    return "a string";
  case nlohmann::json::value_t::boolean:
    return "a boolean";
  case nlohmann::json::value_t::null:
    return "null";
  case nlohmann::json::value_t::number_integer:
  case nlohmann::json::value_t::number_unsigned:
    return "an integer";
  case nlohmann::json::value_t::number_float:
    return "a number";
  default:
    return "a value of another kind";
  }
}

} // namespace

void Node::fail(const std::string &what) const {
  throw ReadError{jsonio::at(path_, what)};
}

void Node::require(nlohmann::json::value_t t, const char *what) const {
  if (v_->type() != t)
    fail(std::string("expected ") + what + ", got " + typeName(*v_));
}

std::string Node::child(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

Node Node::get(std::string_view key) const {
  require(nlohmann::json::value_t::object, "an object");
  auto it = v_->find(key);
  if (it == v_->end())
    throw ReadError{jsonio::at(child(key), "required field is missing")};
  return Node(*it, child(key));
}

std::optional<Node> Node::find(std::string_view key) const {
  require(nlohmann::json::value_t::object, "an object");
  auto it = v_->find(key);
  if (it == v_->end())
    return std::nullopt;
  return Node(*it, child(key));
}

void Node::allowOnly(std::initializer_list<std::string_view> keys) const {
  require(nlohmann::json::value_t::object, "an object");
  for (const auto &[key, value] : v_->items()) {
    bool known = false;
    for (auto k : keys)
      known = known || k == key;
    if (!known)
      throw ReadError{jsonio::at(child(key), "unknown field")};
  }
}

std::vector<std::pair<std::string, Node>> Node::members() const {
  require(nlohmann::json::value_t::object, "an object");
  std::vector<std::pair<std::string, Node>> out;
  for (const auto &[key, value] : v_->items())
    out.emplace_back(key, Node(value, child(key)));
  return out;
}

std::vector<Node> Node::elements() const {
  require(nlohmann::json::value_t::array, "an array");
  std::vector<Node> out;
  for (size_t i = 0; i < v_->size(); ++i)
    out.emplace_back((*v_)[i], path_ + "[" + std::to_string(i) + "]");
  return out;
}

std::string Node::str() const {
  require(nlohmann::json::value_t::string, "a string");
  return v_->get<std::string>();
}

int64_t Node::integer() const {
  if (v_->is_number_unsigned()) {
    auto u = v_->get<uint64_t>();
    if (u > uint64_t(std::numeric_limits<int64_t>::max()))
      fail("integer out of range");
    return int64_t(u);
  }
  if (v_->is_number_integer())
    return v_->get<int64_t>();
  if (v_->is_number_float()) {
    double d = v_->get<double>();
    // 2^63 is exactly representable; anything >= it does not fit.
    if (std::isfinite(d) && d == std::trunc(d) && d >= -9223372036854775808.0 &&
        d < 9223372036854775808.0)
      return int64_t(d);
    if (std::isfinite(d) && d == std::trunc(d))
      fail("integer out of range");
    fail("expected an integer, got " + v_->dump());
  }
  fail("expected an integer, got " + typeName(*v_));
}

unsigned Node::count() const {
  int64_t n = integer();
  if (n < 0)
    fail("must not be negative");
  if (n > int64_t(std::numeric_limits<unsigned>::max()))
    fail("integer out of range");
  return unsigned(n);
}

double Node::number() const {
  if (!v_->is_number())
    fail("expected a number, got " + typeName(*v_));
  double d = v_->get<double>();
  if (!std::isfinite(d))
    fail("number out of range");
  return d;
}

bool Node::boolean() const {
  require(nlohmann::json::value_t::boolean, "a boolean");
  return v_->get<bool>();
}

std::string Node::str(std::string_view key, std::string dflt) const {
  auto n = find(key);
  return n ? n->str() : dflt;
}
int64_t Node::integer(std::string_view key, int64_t dflt) const {
  auto n = find(key);
  return n ? n->integer() : dflt;
}
unsigned Node::count(std::string_view key, unsigned dflt) const {
  auto n = find(key);
  return n ? n->count() : dflt;
}
double Node::number(std::string_view key, double dflt) const {
  auto n = find(key);
  return n ? n->number() : dflt;
}
bool Node::boolean(std::string_view key, bool dflt) const {
  auto n = find(key);
  return n ? n->boolean() : dflt;
}
std::optional<std::string> Node::optStr(std::string_view key) const {
  auto n = find(key);
  if (!n || n->value().is_null())
    return std::nullopt;
  return n->str();
}

namespace {
struct TooDeep {};
} // namespace

Result<nlohmann::json> parse(std::string_view text) {
  try {
    // The readers recurse on nested values; bound the depth before they
    // see the document (the parser itself does not recurse).
    return nlohmann::json::parse(
        text, [](int depth, nlohmann::json::parse_event_t event, nlohmann::json &) {
          if (depth > kMaxJsonDepth && (event == nlohmann::json::parse_event_t::object_start ||
                                        event == nlohmann::json::parse_event_t::array_start))
            throw TooDeep{};
          return true;
        });
  } catch (const TooDeep &) {
    return makeError("invalid JSON: nested too deeply (more than " +
                     std::to_string(kMaxJsonDepth) + " levels)");
  } catch (const nlohmann::json::parse_error &e) {
    // e.what() is "[json.exception.parse_error.101] parse error at line 3,
    // column 1: syntax error ..."; keep what follows the bracketed id.
    std::string what = e.what();
    auto close = what.find("] ");
    if (close != std::string::npos)
      what = what.substr(close + 2);
    return makeError("invalid JSON: " + what);
  } catch (const std::exception &e) {
    // e.g. "[json.exception.out_of_range.406] number overflow parsing '1e999'"
    std::string what = e.what();
    auto close = what.find("] ");
    if (what.rfind("[json.exception", 0) == 0 && close != std::string::npos)
      what = what.substr(close + 2);
    return makeError("invalid JSON: " + what);
  }
}

void expectSchema(const Node &doc, std::string_view expected) {
  const auto &v = doc.value();
  std::string got = "none";
  if (v.is_object()) {
    auto it = v.find("schema");
    if (it != v.end())
      got = it->is_string()
                ? it->get<std::string>()
                : it->dump(-1, ' ', false,
                           nlohmann::json::error_handler_t::replace);
  } else {
    got = typeName(v);
  }
  if (got != expected)
    throw ReadError{"expected schema " + std::string(expected) + ", got " +
                    got};
}

} // namespace jsonio
} // namespace dlayout
