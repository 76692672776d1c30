//===- validate/executor/Interchange.cpp - Doall loops brought inside -----===//
#include "validate/executor/Interchange.h"

#include <algorithm>

namespace dlayout::exec {

namespace {

struct Interchange {
  ExecProgram &x;
  const std::vector<std::vector<int>> &order;

  void statementsBelow(int n, std::vector<int> &out) const {
    const Node &node = x.nodes[n];
    if (!node.isLoop) {
      out.push_back(node.index);
      return;
    }
    for (int c : node.children) statementsBelow(c, out);
  }

  /// An affine array assignment: what the swap leaves meaning the same.
  bool plain(const CStmt &s) const {
    if (s.lhs < 0 || s.reduce != Reduce::None || !s.indexRefs.empty() || !s.replicated.empty())
      return false;
    for (const CRef &r : s.refs)
      for (const CSub &sub : r.subs)
        if (sub.indirect || !sub.expr.empty()) return false;
    return true;
  }

  /// Bounds evaluated the same anywhere inside the loops they read.
  bool plainBounds(const CLoop &l, int notSlot) const {
    for (const CBound *b : {&l.lower, &l.upper}) {
      if (b->kind == Bound::Kind::NonAffine || !b->refs.empty() || !b->expr.empty()) return false;
      for (const Affine &t : b->terms)
        for (const auto &[slot, c] : t.terms)
          if (slot == notSlot && c != 0) return false;
    }
    return true;
  }

  /// Whether loop node l and its only child, a loop node, should swap.
  bool swaps(int l) const {
    const Node &outer = x.nodes[l];
    if (!outer.isLoop || outer.children.size() != 1) return false;
    const Node &inner = x.nodes[outer.children[0]];
    if (!inner.isLoop || !plainBounds(x.loops[outer.index], -1) ||
        !plainBounds(x.loops[inner.index], outer.index))
      return false;
    std::vector<int> below;
    statementsBelow(l, below);
    for (int s : below) {
      const std::vector<int> &o = order[static_cast<size_t>(s)];
      auto a = std::find(o.begin(), o.end(), outer.index), b = std::find(o.begin(), o.end(), inner.index);
      if (!plain(x.stmts[static_cast<size_t>(s)]) || a == o.end() || b == o.end() || b > a)
        return false;
    }
    return true;
  }

  /// The subtree at node n rewritten; returns the node now in its place.
  int rewrite(int n) {
    while (swaps(n)) {
      const int inner = x.nodes[n].children[0];
      const std::vector<int> body = x.nodes[inner].children;
      const int slot = x.nodes[n].index;
      std::vector<int> copies;
      for (size_t k = 0; k < body.size(); ++k) {
        int c = n;
        if (k > 0) {
          c = static_cast<int>(x.nodes.size());
          x.nodes.push_back({true, slot, {}, {}, {}});
        }
        x.nodes[c].children = {body[k]};
        copies.push_back(c);
      }
      x.nodes[inner].children = std::move(copies);
      n = inner;
    }
    for (size_t k = 0; k < x.nodes[n].children.size(); ++k) {
      const int c = x.nodes[n].children[k];
      if (x.nodes[c].isLoop) {
        const int r = rewrite(c);
        x.nodes[n].children[k] = r;
      }
    }
    return n;
  }
};

} // namespace

void bringDoallsInside(ExecProgram &x, const std::vector<std::vector<int>> &order,
                       std::vector<int> &roots) {
  Interchange ic{x, order};
  for (int &root : roots)
    if (x.nodes[root].isLoop) root = ic.rewrite(root);
}

} // namespace dlayout::exec
