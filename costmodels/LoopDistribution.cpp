//===- costmodels/LoopDistribution.cpp - The nest the estimator assumes ---===//
#include "costmodels/LoopDistribution.h"

#include "costmodels/StronglyConnected.h"
#include "model/PrivateScalars.h"

#include <algorithm>
#include <functional>
#include <map>
#include <queue>
#include <set>
#include <string>

namespace dlayout::cost {

namespace {

class Distributor {
public:
  Distributor(const Program &p, const DependenceLevels &dl)
      : p_(p), dl_(dl), paths_(p.statements.size()), inBody_(p.statements.size(), -1),
        touches_(p.statements.size()), writes_(p.statements.size()) {
    for (size_t i = 0; i < p.statements.size(); ++i) {
      const Statement &s = p.statements[i];
      scalarsRead(s, touches_[i]);
      for (const std::string &id : s.loops)
        if (const Loop *l = p.findLoop(id))
          for (const Bound *b : {&l->lower, &l->upper}) scalarsRead(*b, touches_[i]);
      if (s.write < 0 && !s.scalarWrite.empty()) {
        writes_[i] = s.scalarWrite;
        touches_[i].insert(s.scalarWrite);
      }
    }
  }

  std::vector<std::vector<int>> run() {
    for (const Phase &ph : p_.phases) {
      std::vector<int> body;
      for (const std::string &id : ph.statements)
        if (int s = dl_.statementIndex(id); s >= 0) body.push_back(s);
      std::sort(body.begin(), body.end());
      distribute(body, 0);
    }
    return std::move(paths_);
  }

private:
  int depth(int s) const { return int(p_.statements[s].loops.size()); }
  /// The inner loop holding s in a depth-k body ("" when s is directly in it).
  const std::string &innerLoop(int s, int k) const {
    static const std::string none;
    return depth(s) > k ? p_.statements[s].loops[size_t(k)] : none;
  }

  /// The body's graph over positions in `body` (program order).
  std::vector<std::vector<int>> graph(const std::vector<int> &body, int k) {
    const int n = int(body.size());
    for (int v = 0; v < n; ++v) inBody_[body[v]] = v;
    std::vector<std::vector<int>> succ(n);
    for (int v = 0; v < n; ++v)
      for (const Dependence *d : dl_.into(body[v])) {
        int t = dl_.statementIndex(d->from);
        if (t < 0 || inBody_[t] < 0 || t == body[v] || !dl_.withinIteration(*d, k)) continue;
        // Against program order only inside a common inner loop, which
        // carries it; elsewhere an inexact vector's "*" cannot mean that.
        if (inBody_[t] > v && dl_.commonDepth(t, body[v]) <= k) continue;
        succ[inBody_[t]].push_back(v);
      }
    // Scalars assigned in the body.
    std::map<std::string, std::vector<int>> touching;
    std::set<std::string> assigned;
    for (int v = 0; v < n; ++v) {
      for (const std::string &x : touches_[body[v]]) touching[x].push_back(v);
      if (!writes_[body[v]].empty()) assigned.insert(writes_[body[v]]);
    }
    for (const std::string &x : assigned) {
      const std::vector<int> &t = touching[x];
      for (size_t i = 0; i + 1 < t.size(); ++i) succ[t[i]].push_back(t[i + 1]);
      // A run inside one inner loop that assigns x: one component.
      for (size_t b = 0; b < t.size();) {
        const std::string &loop = innerLoop(body[t[b]], k);
        size_t e = b + 1;
        bool assigns = writes_[body[t[b]]] == x;
        for (; !loop.empty() && e < t.size() && innerLoop(body[t[e]], k) == loop; ++e)
          assigns = assigns || writes_[body[t[e]]] == x;
        if (assigns && e - b > 1) succ[t[e - 1]].push_back(t[b]);
        b = e;
      }
    }
    for (int s : body) inBody_[s] = -1;
    return succ;
  }

  void distribute(const std::vector<int> &body, int k) {
    if (body.empty()) return;
    auto succ = graph(body, k);
    const int n = int(body.size());
    int count = 0;
    std::vector<int> comp = stronglyConnected(succ, std::vector<bool>(size_t(n), true), &count);
    // The components' graph, and each one's first statement in program order.
    const size_t m = static_cast<size_t>(count);
    std::vector<std::set<int>> next(m);
    std::vector<int> indegree(m, 0), first(m, n);
    std::vector<std::vector<int>> members(m);
    for (int v = 0; v < n; ++v) {
      first[comp[v]] = std::min(first[comp[v]], v);
      members[comp[v]].push_back(body[v]);
      for (int w : succ[v])
        if (comp[w] != comp[v] && next[comp[v]].insert(comp[w]).second) ++indegree[comp[w]];
    }
    // Kahn's order, ties to the component that comes first in the program.
    using Item = std::pair<int, int>; // (first, component)
    std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
    for (int c = 0; c < count; ++c)
      if (!indegree[c]) ready.push({first[c], c});
    for (int position = 0; !ready.empty(); ++position) {
      int c = ready.top().second;
      ready.pop();
      for (int s : members[c]) paths_[s].push_back(position);
      // A component lies inside one inner loop (every edge against program
      // order does), or is one statement of the body.
      if (depth(members[c][0]) > k) distribute(members[c], k + 1);
      for (int w : next[c])
        if (--indegree[w] == 0) ready.push({first[w], w});
    }
  }

  const Program &p_;
  const DependenceLevels &dl_;
  std::vector<std::vector<int>> paths_;
  std::vector<int> inBody_; // a statement's position in the current body, -1
  std::vector<std::set<std::string>> touches_;
  std::vector<std::string> writes_; // the scalar a statement assigns
};

} // namespace

std::vector<std::vector<int>> distributeLoops(const Program &p, const DependenceLevels &levels) {
  return Distributor(p, levels).run();
}

} // namespace dlayout::cost
