//===- cli/ModelText.cpp --------------------------------------------------===//
#include "cli/ModelText.h"

#include <fmt/format.h>

#include <set>

namespace dlayout::cli {

static std::string renderSubscript(const Subscript &s, const Program &p) {
  switch (s.cls) {
  case SubscriptClass::Indirect: {
    std::string idx = s.index.empty() ? "?" : renderReference(s.index[0], p);
    AffineExpr rest = s.affine;
    if (rest == AffineExpr{}) return idx;
    return idx + " + " + render(rest, p);
  }
  case SubscriptClass::Unknown:
    return s.text.empty() ? "?" : s.text;
  default:
    return render(s.affine, p);
  }
}

std::string renderReference(const Reference &r, const Program &p) {
  std::string s = r.array + "(";
  for (size_t d = 0; d < r.subscripts.size(); ++d)
    s += (d ? ", " : "") + renderSubscript(r.subscripts[d], p);
  return s + ")";
}

std::string renderExpr(const Expr &e, const Statement &s, const Program &p) {
  auto arg = [&](size_t k) { return k < e.args.size() ? renderExpr(e.args[k], s, p) : "?"; };
  switch (e.kind) {
  case Expr::Kind::Const: return fmt::format("{}", e.value);
  case Expr::Kind::Ref:
    return e.refIndex >= 0 && (size_t)e.refIndex < s.refs.size()
               ? renderReference(s.refs[e.refIndex], p) : "?";
  case Expr::Kind::Scalar:
  case Expr::Kind::Param: return e.name;
  case Expr::Kind::Iv: {
    const Loop *l = p.findLoop(e.name);
    return l ? l->var : e.name;
  }
  case Expr::Kind::Op: {
    static const std::set<std::string> infix = {"+", "-", "*", "/", "lt", "le", "gt",
                                                "ge", "eq", "ne", "and", "or", "mod"};
    static const std::map<std::string, std::string> spelled = {
        {"lt", "<"}, {"le", "<="}, {"gt", ">"}, {"ge", ">="}, {"eq", "=="},
        {"ne", "/="}, {"and", ".and."}, {"or", ".or."}};
    if (e.name == "neg") return "-" + arg(0);
    if (e.name == "not") return ".not.(" + arg(0) + ")";
    // Infix, the n-ary + * and or too: (a .or. b .or. c).
    if (infix.count(e.name) && (e.args.size() == 2 || (e.args.size() > 2 && (
        e.name == "+" || e.name == "*" || e.name == "and" || e.name == "or")))) {
      auto it = spelled.find(e.name);
      const std::string sep = " " + (it == spelled.end() ? e.name : it->second) + " ";
      std::string out = "(" + arg(0);
      for (size_t k = 1; k < e.args.size(); ++k) out += sep + arg(k);
      return out + ")";
    }
    [[fallthrough]];
  }
  case Expr::Kind::Call: {
    std::string out = e.name + "(";
    for (size_t k = 0; k < e.args.size(); ++k) out += (k ? ", " : "") + arg(k);
    return out + ")";
  }
  }
  return "?";
}

static const char *className(SubscriptClass c) { return toString(c); }

std::string renderModel(const Program &p) {
  std::string out;
  out += fmt::format("program {} ({}), functions: {}\n",
                     p.sources.empty() ? "?" : p.sources[0], p.language,
                     fmt::format("{}", fmt::join(p.functions, ", ")));
  if (!p.params.empty()) {
    out += "parameters:";
    for (auto &[n, v] : p.params) out += fmt::format(" {}={}", n, v);
    out += "\n";
  }
  out += "\narrays:\n";
  for (auto &a : p.arrays) {
    std::string dims;
    for (auto &d : a.dims)
      dims += fmt::format("{}{}:{}", dims.empty() ? "" : ", ", d.lower, d.lower + d.extent - 1);
    out += fmt::format("  {:<10} {}({})  {} bytes/element, {}  {}\n", a.name, a.elementType,
                       dims, a.elementBytes, a.origin, a.loc.str());
  }
  // Loop tree with statements in program order.
  out += "\nloops and statements:\n";
  std::vector<std::string> open;
  for (auto &s : p.statements) {
    size_t common = 0;
    while (common < open.size() && common < s.loops.size() && open[common] == s.loops[common])
      ++common;
    open.resize(common);
    for (size_t k = common; k < s.loops.size(); ++k) {
      const Loop *l = p.findLoop(s.loops[k]);
      if (!l) continue;
      out += fmt::format("{}{} do {} = {}, {}{}  trip {:.6g}  {}  line {}\n",
                         std::string(2 + 2 * k, ' '), l->id, l->var, l->lower.text,
                         l->upper.text, l->step == 1 ? "" : fmt::format(", {}", l->step),
                         l->tripCount, l->parallel ? "parallel" : "sequential", l->loc.line);
      open.push_back(l->id);
    }
    std::string indent(4 + 2 * s.loops.size(), ' ');
    std::string lhs = s.write >= 0 ? renderReference(s.refs[s.write], p) : s.scalarWrite;
    out += fmt::format("{}{}: {} = {}{}  line {}\n", indent, s.id, lhs,
                       renderExpr(s.expr, s, p),
                       s.reduction.empty() ? "" : "  [" + s.reduction + " reduction]",
                       s.loc.line);
    for (auto &g : s.guards)
      out += fmt::format("{}  if {}\n", indent, renderExpr(g.condition, s, p));
    for (auto &r : s.refs) {
      std::string classes;
      for (auto &sub : r.subscripts)
        classes += fmt::format("{}{}@{}", classes.empty() ? "" : ", ", className(sub.cls),
                               sub.variationLevel);
      out += fmt::format("{}  {} {:<24} [{}]\n", indent,
                         r.access == Reference::Access::Write ? "write" : "read ",
                         renderReference(r, p), classes);
    }
  }
  if (!p.dependences.empty()) {
    out += "\ndependences:\n";
    for (auto &d : p.dependences) {
      std::string dist;
      for (auto &x : d.distance) dist += (dist.empty() ? "" : ",") + (x ? std::to_string(*x) : "*");
      out += fmt::format("  {} {} {} -> {} on {}, {} ({}) distance ({})\n", d.id,
                         toString(d.kind), d.from, d.to, d.variable,
                         d.carriedBy ? "carried by " + *d.carriedBy : "loop-independent",
                         fmt::format("{}", fmt::join(d.direction, ",")), dist);
    }
  }
  return out;
}

} // namespace dlayout::cli
