//===- costmodels/StronglyConnected.cpp - Tarjan's SCCs -------------------===//
#include "costmodels/StronglyConnected.h"

#include <algorithm>
#include <utility>

namespace dlayout::cost {

std::vector<int> stronglyConnected(const std::vector<std::vector<int>> &succ,
                                   const std::vector<bool> &present, int *count) {
  const int n = static_cast<int>(succ.size());
  std::vector<int> comp(n, -1), num(n, 0), low(n, 0), stack;
  std::vector<bool> onStack(n, false);
  int counter = 0, comps = 0;
  // The depth-first search's own stack: (vertex, next successor to look at).
  std::vector<std::pair<int, size_t>> dfs;
  for (int root = 0; root < n; ++root) {
    if (!present[root] || num[root]) continue;
    dfs.push_back({root, 0});
    num[root] = low[root] = ++counter;
    stack.push_back(root);
    onStack[root] = true;
    while (!dfs.empty()) {
      auto &[v, next] = dfs.back();
      if (next < succ[v].size()) {
        int w = succ[v][next++];
        if (w < 0 || w >= n || !present[w]) continue;
        if (!num[w]) {
          num[w] = low[w] = ++counter;
          stack.push_back(w);
          onStack[w] = true;
          dfs.push_back({w, 0});
        } else if (onStack[w]) {
          low[v] = std::min(low[v], num[w]);
        }
        continue;
      }
      int done = v;
      dfs.pop_back();
      if (!dfs.empty()) low[dfs.back().first] = std::min(low[dfs.back().first], low[done]);
      if (low[done] != num[done]) continue;
      int w;
      do {
        w = stack.back();
        stack.pop_back();
        onStack[w] = false;
        comp[w] = comps;
      } while (w != done);
      ++comps;
    }
  }
  if (count) *count = comps;
  return comp;
}

} // namespace dlayout::cost
