//===- model/Program.cpp - The program model ------------------------------===//
//
// Look-ups, enum names, evaluation and rendering of affine expressions, and
// verify(): the consistency rules of a Program that its JSON schema cannot
// state (ranges, and that ids and indices refer to what exists).
//
//===----------------------------------------------------------------------===//

#include "model/Program.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace dlayout {

const Array *Program::findArray(const std::string &name) const {
  return arrayIndex.find(arrays, name, [](const Array &a) -> const std::string & { return a.name; });
}

const Loop *Program::findLoop(const std::string &id) const {
  return loopIndex.find(loops, id, [](const Loop &l) -> const std::string & { return l.id; });
}

const Statement *Program::findStatement(const std::string &id) const {
  return statementIndex.find(statements, id,
                             [](const Statement &s) -> const std::string & { return s.id; });
}

//===----------------------------------------------------------------------===//
// Enum names
//===----------------------------------------------------------------------===//

const char *toString(SubscriptClass c) {
  switch (c) {
  case SubscriptClass::Constant:
    return "constant";
  case SubscriptClass::Single:
    return "single";
  case SubscriptClass::Multiple:
    return "multiple";
  case SubscriptClass::Unknown:
    return "unknown";
  case SubscriptClass::Indirect:
    return "indirect";
  }
  return "unknown";
}

std::optional<SubscriptClass> subscriptClassFromString(const std::string &s) {
  for (auto c : {SubscriptClass::Constant, SubscriptClass::Single,
                 SubscriptClass::Multiple, SubscriptClass::Unknown,
                 SubscriptClass::Indirect})
    if (s == toString(c))
      return c;
  return std::nullopt;
}

const char *toString(Dependence::Kind k) {
  switch (k) {
  case Dependence::Kind::Flow:
    return "flow";
  case Dependence::Kind::Anti:
    return "anti";
  case Dependence::Kind::Output:
    return "output";
  }
  return "flow";
}

std::optional<Dependence::Kind> dependenceKindFromString(const std::string &s) {
  for (auto k : {Dependence::Kind::Flow, Dependence::Kind::Anti,
                 Dependence::Kind::Output})
    if (s == toString(k))
      return k;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Affine expressions
//===----------------------------------------------------------------------===//

namespace {

/// acc += coeff * value, or false on overflow.
bool addProduct(int64_t &acc, int64_t coeff, int64_t value) {
  int64_t product;
  return !__builtin_mul_overflow(coeff, value, &product) &&
         !__builtin_add_overflow(acc, product, &acc);
}

} // namespace

Result<int64_t> evaluate(const AffineExpr &e,
                         const std::map<std::string, int64_t> &params,
                         const std::map<std::string, int64_t> &ivs) {
  int64_t value = e.constant;
  for (const auto &[loop, coeff] : e.coeffs) {
    auto it = ivs.find(loop);
    if (!addProduct(value, coeff, it == ivs.end() ? 0 : it->second))
      return makeError("integer overflow evaluating an affine expression");
  }
  for (const auto &[name, coeff] : e.params) {
    auto it = params.find(name);
    if (it == params.end())
      return makeError("parameter " + name + " has no value");
    if (!addProduct(value, coeff, it->second))
      return makeError("integer overflow evaluating an affine expression");
  }
  return value;
}

std::string render(const AffineExpr &e, const Program &p) {
  // Loop terms in program order (the order of p.loops), then parameters by
  // name, then the constant.
  std::vector<std::pair<std::string, int64_t>> terms;
  for (const auto &l : p.loops)
    if (auto it = e.coeffs.find(l.id); it != e.coeffs.end())
      terms.emplace_back(l.var.empty() ? l.id : l.var, it->second);
  for (const auto &[id, coeff] : e.coeffs)
    if (!p.findLoop(id))
      terms.emplace_back(id, coeff);
  for (const auto &[name, coeff] : e.params)
    terms.emplace_back(name, coeff);

  std::string out;
  auto append = [&](int64_t coeff, const std::string &name) {
    bool negative = coeff < 0;
    // The magnitude as unsigned, so INT64_MIN renders too.
    uint64_t magnitude = negative ? 0 - uint64_t(coeff) : uint64_t(coeff);
    if (out.empty())
      out = negative ? "-" : "";
    else
      out += negative ? " - " : " + ";
    if (name.empty())
      out += std::to_string(magnitude);
    else
      out += (magnitude == 1 ? "" : std::to_string(magnitude) + "*") + name;
  };
  for (const auto &[name, coeff] : terms)
    if (coeff != 0)
      append(coeff, name);
  if (e.constant != 0 || out.empty())
    append(e.constant, "");
  return out;
}

//===----------------------------------------------------------------------===//
// verify
//===----------------------------------------------------------------------===//

namespace {

struct Failure {
  std::string message;
};

[[noreturn]] void fail(const std::string &path, const std::string &what) {
  throw Failure{path + ": " + what};
}

std::string idx(const std::string &path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

const std::set<std::string> kReductions = {"sum", "prod", "max", "min",
                                           "and", "or",   "xor"};
const std::set<std::string> kUnaryOps = {"neg", "abs", "sqrt", "exp", "log",
                                         "sin", "cos", "not",  "cast"};
const std::set<std::string> kBinaryOps = {"-",  "/",  "pow", "mod", "lt",  "le",
                                          "gt", "ge", "eq",  "ne",  "sign"};
const std::set<std::string> kNaryOps = {"+", "*", "min", "max", "and", "or"};
const std::set<std::string> kDirections = {"<", "=", ">", "*"};

class Verifier {
public:
  explicit Verifier(const Program &p) : p_(p) {}

  void run() {
    checkArrays();
    checkScalars();
    indexIds();
    for (size_t i = 0; i < p_.loops.size(); ++i)
      checkLoop(p_.loops[i], idx("loops", i), i);
    for (size_t i = 0; i < p_.statements.size(); ++i)
      checkStatement(p_.statements[i], idx("statements", i));
    for (size_t i = 0; i < p_.dependences.size(); ++i)
      checkDependence(p_.dependences[i], idx("dependences", i));
    checkPhases();
  }

private:
  void checkArrays() {
    std::set<std::string> seen;
    for (size_t i = 0; i < p_.arrays.size(); ++i) {
      const Array &a = p_.arrays[i];
      std::string path = idx("arrays", i);
      if (a.name.empty())
        fail(path + ".name", "must not be empty");
      if (!seen.insert(a.name).second)
        fail(path + ".name", "duplicate array " + a.name);
      if (a.elementBytes == 0)
        fail(path + ".element_bytes", "must be positive");
      if (a.dims.empty())
        fail(path + ".dims", "must not be empty");
      int64_t bytes = a.elementBytes;
      bool overflows = false;
      for (size_t d = 0; d < a.dims.size(); ++d) {
        std::string dpath = idx(path + ".dims", d);
        if (a.dims[d].extent <= 0)
          fail(dpath + ".extent", "must be positive");
        if (a.dims[d].extentExpr && !a.dims[d].extentExpr->coeffs.empty())
          fail(dpath + ".extent_expr", "must not depend on loop variables");
        overflows = overflows || __builtin_mul_overflow(bytes, a.dims[d].extent, &bytes);
      }
      // Sizes are counted in int64_t bytes everywhere downstream.
      if (overflows)
        fail(path, "the size of " + a.name + " in bytes overflows 64 bits");
    }
  }

  void checkScalars() {
    for (size_t i = 0; i < p_.scalars.size(); ++i) {
      std::string path = idx("scalars", i) + ".name";
      if (p_.scalars[i].name.empty())
        fail(path, "must not be empty");
      if (!scalars_.insert(p_.scalars[i].name).second)
        fail(path, "duplicate scalar " + p_.scalars[i].name);
    }
  }

  /// Ids of loops, statements and dependences: non-empty and unique.
  void indexIds() {
    auto index = [](const auto &items, const char *what, auto &into) {
      for (size_t i = 0; i < items.size(); ++i) {
        std::string path = idx(what, i) + ".id";
        if (items[i].id.empty())
          fail(path, "must not be empty");
        if (!into.emplace(items[i].id, i).second)
          fail(path, "duplicate id " + items[i].id);
      }
    };
    index(p_.loops, "loops", loops_);
    index(p_.statements, "statements", statements_);
    index(p_.dependences, "dependences", dependences_);
  }

  void checkLoop(const Loop &l, const std::string &path, size_t i) {
    if (l.var.empty())
      fail(path + ".var", "must not be empty");
    unsigned expectedLevel = 1;
    if (l.parent) {
      auto it = loops_.find(*l.parent);
      if (it == loops_.end())
        fail(path + ".parent", "no loop " + *l.parent);
      if (it->second >= i)
        fail(path + ".parent",
             "loop " + *l.parent + " must come before the loops it contains");
      expectedLevel = p_.loops[it->second].level + 1;
    }
    if (l.level != expectedLevel)
      fail(path + ".level", "must be " + std::to_string(expectedLevel));
    if (l.step == 0)
      fail(path + ".step", "must not be zero");
    if (!std::isfinite(l.tripCount) || l.tripCount < 0)
      fail(path + ".trip_count", "must be a number >= 0");
    if (l.segments) {
      if (!isAncestor(l.segments->over, l))
        fail(path + ".segments.over", "not a loop enclosing " + l.id);
      if (!std::isfinite(l.segments->count) || l.segments->count <= 0)
        fail(path + ".segments.count", "must be a number > 0");
    }
    checkBound(l, l.lower, path + ".lower");
    checkBound(l, l.upper, path + ".upper");
    for (size_t k = 0; k < l.carries.size(); ++k) {
      std::string cpath = idx(path + ".carries", k);
      auto it = dependences_.find(l.carries[k]);
      if (it == dependences_.end())
        fail(cpath, "no dependence " + l.carries[k]);
      if (p_.dependences[it->second].carriedBy != l.id)
        fail(cpath,
             "dependence " + l.carries[k] + " is not carried by " + l.id);
    }
  }

  void checkBound(const Loop &l, const Bound &b, const std::string &path) {
    size_t n = b.terms.size();
    bool ok = b.kind == Bound::Kind::Affine      ? n == 1
              : b.kind == Bound::Kind::NonAffine ? n == 0
                                                 : n >= 1;
    if (!ok)
      fail(path + ".terms", "wrong number of terms for the bound's kind");
    for (size_t t = 0; t < n; ++t)
      for (const auto &[loop, coeff] : b.terms[t].coeffs)
        if (!isAncestor(loop, l))
          fail(idx(path + ".terms", t) + ".coeffs." + loop,
               "not a loop enclosing " + l.id);
    if ((b.expr || !b.exprRefs.empty()) && b.kind != Bound::Kind::NonAffine)
      fail(path + ".expr", "only a nonaffine bound has an expression");
    if (!b.exprRefs.empty() && !b.expr)
      fail(path + ".expr_refs", "references without an expression");
    std::vector<std::string> outer; // the loops around l, outermost first
    for (auto parent = l.parent; parent;) {
      outer.insert(outer.begin(), *parent);
      const Loop *pl = p_.findLoop(*parent);
      parent = pl ? pl->parent : std::nullopt;
    }
    for (size_t r = 0; r < b.exprRefs.size(); ++r)
      checkRefIn(outer, b.exprRefs[r], idx(path + ".expr_refs", r), false);
    if (b.expr)
      checkExprIn(b.exprRefs, outer, *b.expr, path + ".expr");
  }

  bool isAncestor(const std::string &id, const Loop &l) const {
    for (auto parent = l.parent; parent;) {
      if (*parent == id)
        return true;
      const Loop *p = p_.findLoop(*parent);
      parent = p ? p->parent : std::nullopt;
    }
    return false;
  }

  void checkStatement(const Statement &s, const std::string &path) {
    for (size_t k = 0; k < s.loops.size(); ++k) {
      std::string lpath = idx(path + ".loops", k);
      const Loop *l = p_.findLoop(s.loops[k]);
      if (!l)
        fail(lpath, "no loop " + s.loops[k]);
      std::optional<std::string> outer;
      if (k > 0)
        outer = s.loops[k - 1];
      if (l->parent != outer)
        fail(lpath, "loop " + s.loops[k] + " is not " +
                        (outer ? "directly inside " + *outer
                               : std::string("outermost")));
    }
    if (!std::isfinite(s.probability) || s.probability < 0 || s.probability > 1)
      fail(path + ".probability", "must be between 0 and 1");
    if (!s.reduction.empty() && !kReductions.count(s.reduction))
      fail(path + ".reduction", "unknown reduction " + s.reduction);
    if (s.write < -1 || s.write >= int(s.refs.size()))
      fail(path + ".write", "not an index of refs");
    if (s.write >= 0 && !s.scalarWrite.empty())
      fail(path + ".scalar_write", "a statement writes one reference or one "
                                   "scalar, not both");
    if (s.write < 0 && s.scalarWrite.empty())
      fail(path + ".write", "the statement writes neither a reference nor a "
                            "scalar (scalar_write)");
    if (!s.scalarWrite.empty() && !scalars_.count(s.scalarWrite))
      fail(path + ".scalar_write", "no scalar " + s.scalarWrite);
    for (size_t r = 0; r < s.refs.size(); ++r)
      checkRefIn(s.loops, s.refs[r], idx(path + ".refs", r), int(r) == s.write);
    checkExprIn(s.refs, s.loops, s.expr, path + ".expr");
    for (size_t g = 0; g < s.guards.size(); ++g)
      checkExprIn(s.refs, s.loops, s.guards[g].condition,
                  idx(path + ".guards", g) + ".condition");
  }

  /// A reference inside the loops `loops` (outermost first).
  void checkRefIn(const std::vector<std::string> &loops, const Reference &r,
                  const std::string &path, bool written) {
    const Array *a = p_.findArray(r.array);
    if (!a)
      fail(path + ".array", "no array named " + r.array);
    if ((r.access == Reference::Access::Write) != written)
      fail(path + ".access", written ? "the written reference must be a write"
                                     : "only refs[write] may be a write");
    if (r.subscripts.size() != a->dims.size())
      fail(path + ".subscripts",
           std::to_string(r.subscripts.size()) + " subscripts for the " +
               std::to_string(a->dims.size()) + " dimensions of " + a->name);
    for (size_t k = 0; k < r.subscripts.size(); ++k)
      checkSubscript(loops, r.subscripts[k], idx(path + ".subscripts", k));
  }

  void checkSubscript(const std::vector<std::string> &loops,
                      const Subscript &sub, const std::string &path) {
    unsigned level = 0; // of the innermost loop the affine part varies in
    for (const auto &[loop, coeff] : sub.affine.coeffs) {
      auto it = std::find(loops.begin(), loops.end(), loop);
      if (it == loops.end())
        fail(path + ".coeffs." + loop, "not a loop enclosing the statement");
      level = std::max(level, unsigned(it - loops.begin()) + 1);
    }
    size_t n = sub.affine.coeffs.size();
    switch (sub.cls) {
    case SubscriptClass::Constant:
    case SubscriptClass::Single:
    case SubscriptClass::Multiple: {
      size_t lo = sub.cls == SubscriptClass::Constant ? 0
                  : sub.cls == SubscriptClass::Single ? 1
                                                      : 2;
      size_t hi = sub.cls == SubscriptClass::Multiple ? SIZE_MAX : lo;
      if (n < lo || n > hi)
        fail(path + ".class", std::string(toString(sub.cls)) + " with " +
                                  std::to_string(n) + " loop indices");
      if (sub.variationLevel != level)
        fail(path + ".variation_level", "must be " + std::to_string(level));
      break;
    }
    case SubscriptClass::Unknown:
    case SubscriptClass::Indirect:
      if (sub.variationLevel < level)
        fail(path + ".variation_level",
             "must be at least " + std::to_string(level) +
                 ", the level of the innermost loop in its affine part");
      if (sub.variationLevel > loops.size())
        fail(path + ".variation_level", "must be at most " +
                                            std::to_string(loops.size()) +
                                            ", the depth of the statement");
      break;
    }
    if ((sub.cls == SubscriptClass::Indirect) != (sub.index.size() == 1))
      fail(path + ".index", "an indirect subscript has exactly one index "
                            "reference, and no other has any");
    for (size_t k = 0; k < sub.index.size(); ++k)
      checkRefIn(loops, sub.index[k], idx(path + ".index", k), false);
    if ((sub.expr || !sub.exprRefs.empty()) &&
        sub.cls != SubscriptClass::Unknown)
      fail(path + ".expr", "only an unknown subscript has an expression");
    if (!sub.exprRefs.empty() && !sub.expr)
      fail(path + ".expr_refs", "references without an expression");
    for (size_t k = 0; k < sub.exprRefs.size(); ++k)
      checkRefIn(loops, sub.exprRefs[k], idx(path + ".expr_refs", k), false);
    if (sub.expr)
      checkExprIn(sub.exprRefs, loops, *sub.expr, path + ".expr");
  }

  /// An expression whose Ref nodes index `refs` and whose Iv nodes name one
  /// of `loops`.
  void checkExprIn(const std::vector<Reference> &refs,
                   const std::vector<std::string> &loops, const Expr &e,
                   const std::string &path) {
    switch (e.kind) {
    case Expr::Kind::Const:
      if (!std::isfinite(e.value))
        fail(path + ".const", "must be finite");
      break;
    case Expr::Kind::Ref:
      if (e.refIndex < 0 || e.refIndex >= int(refs.size()))
        fail(path + ".ref", "not an index of the statement's refs");
      if (refs[e.refIndex].access != Reference::Access::Read)
        fail(path + ".ref", "must be a read reference");
      break;
    case Expr::Kind::Scalar:
      if (!scalars_.count(e.name))
        fail(path + ".scalar", "no scalar " + e.name);
      break;
    case Expr::Kind::Iv:
      if (std::find(loops.begin(), loops.end(), e.name) == loops.end())
        fail(path + ".iv", "not a loop enclosing the statement");
      break;
    case Expr::Kind::Param:
      if (e.name.empty())
        fail(path + ".param", "must not be empty");
      break;
    case Expr::Kind::Op: {
      // Arity: n, or -n for "at least n".
      int arity = kUnaryOps.count(e.name)    ? 1
                  : kBinaryOps.count(e.name) ? 2
                  : e.name == "select"       ? 3
                  : kNaryOps.count(e.name)   ? -2
                                             : 0;
      if (arity == 0)
        fail(path + ".op", "unknown operator " + e.name);
      size_t n = e.args.size();
      if (arity > 0 ? n != size_t(arity) : n < size_t(-arity))
        fail(path + ".args",
             std::to_string(n) + " arguments to operator " + e.name);
      break;
    }
    case Expr::Kind::Call:
      if (e.name.empty())
        fail(path + ".call", "must not be empty");
      break;
    }
    bool hasArgs = e.kind == Expr::Kind::Op || e.kind == Expr::Kind::Call;
    if (!hasArgs && !e.args.empty())
      fail(path + ".args", "only operators and calls have arguments");
    for (size_t k = 0; k < e.args.size(); ++k)
      checkExprIn(refs, loops, e.args[k], idx(path + ".args", k));
  }

  void checkDependence(const Dependence &d, const std::string &path) {
    const Statement *from = p_.findStatement(d.from);
    const Statement *to = p_.findStatement(d.to);
    if (!from)
      fail(path + ".from", "no statement " + d.from);
    if (!to)
      fail(path + ".to", "no statement " + d.to);
    if (d.variable.empty())
      fail(path + ".variable", "must not be empty");
    if (d.carriedBy) {
      const Loop *l = p_.findLoop(*d.carriedBy);
      if (!l)
        fail(path + ".carried_by", "no loop " + *d.carriedBy);
      auto encloses = [&](const Statement *s) {
        return std::count(s->loops.begin(), s->loops.end(), l->id) > 0;
      };
      if (!encloses(from) || !encloses(to))
        fail(path + ".carried_by",
             "loop " + l->id + " does not enclose both " + "statements");
      if (!std::count(l->carries.begin(), l->carries.end(), d.id))
        fail(path + ".carried_by",
             "loop " + l->id + " does not list " + d.id + " in carries");
    }
    for (size_t k = 0; k < d.direction.size(); ++k)
      if (!kDirections.count(d.direction[k]))
        fail(idx(path + ".direction", k), "must be one of < = > *");
    if (!d.distance.empty() && d.distance.size() != d.direction.size())
      fail(path + ".distance", "must be empty or as long as direction");
  }

  void checkPhases() {
    std::map<std::string, std::string> phaseOf; // statement id -> phase id
    std::set<std::string> ids;
    for (size_t i = 0; i < p_.phases.size(); ++i) {
      const Phase &ph = p_.phases[i];
      std::string path = idx("phases", i);
      if (ph.id.empty() || !ids.insert(ph.id).second)
        fail(path + ".id", "must be unique and not empty");
      if (ph.loop) {
        const Loop *l = p_.findLoop(*ph.loop);
        if (!l)
          fail(path + ".loop", "no loop " + *ph.loop);
        if (l->parent)
          fail(path + ".loop", "loop " + l->id + " is not outermost");
      }
      for (size_t k = 0; k < ph.statements.size(); ++k) {
        std::string spath = idx(path + ".statements", k);
        const Statement *s = p_.findStatement(ph.statements[k]);
        if (!s)
          fail(spath, "no statement " + ph.statements[k]);
        if (!phaseOf.emplace(s->id, ph.id).second)
          fail(spath,
               "statement " + s->id + " is already in phase " + phaseOf[s->id]);
        bool inside = ph.loop ? !s->loops.empty() && s->loops[0] == *ph.loop
                              : s->loops.empty();
        if (!inside)
          fail(spath, "statement " + s->id +
                          (ph.loop ? " is not in loop " + *ph.loop
                                   : " is inside a loop"));
      }
    }
    if (p_.phases.empty())
      return;
    for (size_t i = 0; i < p_.statements.size(); ++i)
      if (!phaseOf.count(p_.statements[i].id))
        fail(idx("statements", i),
             "statement " + p_.statements[i].id + " is in no phase");
  }

  const Program &p_;
  std::set<std::string> scalars_;
  std::map<std::string, size_t> loops_, statements_, dependences_;
};

} // namespace

Status verify(const Program &p) {
  try {
    Verifier(p).run();
  } catch (const Failure &f) {
    return makeError(f.message);
  }
  return success();
}

} // namespace dlayout
