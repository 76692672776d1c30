//===- model/IdIndex.h - Look-up by id in a plain vector ----------*- C++ -*-===//
//
// The model keeps its loops, statements and arrays in plain vectors that
// builders and tests edit freely. IdIndex finds an element by its id in
// O(1) without owning the vector: it remembers where each id was last seen
// and trusts that position only when the element there still has the id;
// otherwise it scans (as a plain search would) and remembers the answer. So
// a stale entry costs one scan, never a wrong answer.
//
// It is a cache, not part of the value: copies carry it, and it compares
// equal to any other.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

namespace dlayout {

class IdIndex {
public:
  /// The element of v whose key(element) is id, or null.
  template <class T, class Key>
  const T *find(const std::vector<T> &v, const std::string &id, Key key) const {
    if (auto it = where.find(id); it != where.end() && it->second < v.size() &&
                                  key(v[it->second]) == id)
      return &v[it->second];
    for (size_t i = 0; i < v.size(); ++i)
      if (key(v[i]) == id) {
        where[id] = i;
        return &v[i];
      }
    return nullptr;
  }

  bool operator==(const IdIndex &) const { return true; }

private:
  mutable std::unordered_map<std::string, size_t> where;
};

} // namespace dlayout
