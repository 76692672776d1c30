//===- tests/model/JsonTestUtil.h - Helpers for the JSON tests --*- C++ -*-===//
#pragma once

#include "model/Result.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <gtest/gtest.h>
#include <string>

namespace dlayout::testing {

/// Calls visit(path, pointer, value) for every leaf of `doc` (a scalar, or an
/// empty object or array); path is the reader's form, "arrays[0].dims[1]".
inline void
forEachLeaf(const nlohmann::json &doc,
            const std::function<void(const std::string &,
                                     const nlohmann::json::json_pointer &,
                                     const nlohmann::json &)> &visit,
            const std::string &path = "",
            nlohmann::json::json_pointer ptr = nlohmann::json::json_pointer()) {
  if (doc.is_object() && !doc.empty()) {
    for (const auto &[key, value] : doc.items())
      forEachLeaf(value, visit, path.empty() ? key : path + "." + key,
                  ptr / key);
  } else if (doc.is_array() && !doc.empty()) {
    for (size_t i = 0; i < doc.size(); ++i)
      forEachLeaf(doc[i], visit, path + "[" + std::to_string(i) + "]", ptr / i);
  } else {
    visit(path, ptr, doc);
  }
}

/// Expects `r` to be an Error whose message contains `text`.
template <class T>
void expectError(const Result<T> &r, const std::string &text) {
  ASSERT_FALSE(r.ok()) << "expected an error containing: " << text;
  EXPECT_NE(r.error().message.find(text), std::string::npos)
      << "message: " << r.error().message << "\nexpected: " << text;
}

/// Replaces every leaf of `doc` in turn with a value of another JSON type
/// and expects read(mutated) to fail, naming the leaf's path, without
/// throwing. Returns the number of mutations tried.
template <class Read>
int expectEveryWrongTypeRejected(const nlohmann::json &doc, Read read) {
  int tried = 0;
  forEachLeaf(doc, [&](const std::string &path,
                       const nlohmann::json::json_pointer &ptr,
                       const nlohmann::json &value) {
    nlohmann::json wrong;
    if (value.is_string())
      wrong = 7;
    else if (value.is_number() || value.is_boolean() || value.is_null())
      wrong = "7";
    else
      wrong = "a string"; // an empty object or array
    for (const auto &replacement : {wrong, nlohmann::json{{"bogus", 1}}}) {
      if (value.is_object() && replacement.is_object())
        continue; // {"bogus": 1} may be a valid map
      nlohmann::json mutated = doc;
      mutated[ptr] = replacement;
      ++tried;
      auto r = read(mutated);
      ASSERT_FALSE(r.ok()) << path << " = " << replacement.dump();
      const std::string &msg = r.error().message;
      if (path == "schema")
        EXPECT_EQ(msg.rfind("expected schema", 0), 0u) << msg;
      else
        EXPECT_EQ(msg.rfind(path + ":", 0), 0u)
            << "mutated " << path << " = " << replacement.dump()
            << "\nmessage: " << msg;
    }
  });
  return tried;
}

/// Removes every member of every object of `doc` in turn and expects
/// read() not to throw; returns how many of the documents it rejected.
template <class Read>
int countRejectedWithoutEachMember(const nlohmann::json &doc, Read read) {
  int rejected = 0;
  std::function<void(const nlohmann::json &, nlohmann::json::json_pointer)>
      walk = [&](const nlohmann::json &j, nlohmann::json::json_pointer ptr) {
        if (j.is_object())
          for (const auto &[key, value] : j.items()) {
            nlohmann::json mutated = doc;
            mutated[ptr].erase(key);
            auto r = read(mutated);
            if (!r.ok()) {
              ++rejected;
              EXPECT_FALSE(r.error().message.empty());
            }
            walk(value, ptr / key);
          }
        else if (j.is_array())
          for (size_t i = 0; i < j.size(); ++i)
            walk(j[i], ptr / i);
      };
  walk(doc, nlohmann::json::json_pointer());
  return rejected;
}

} // namespace dlayout::testing
