//===- model/ProgramJson.cpp - The "dlayout-model/1" document -------------===//
//
// Writer first, then the reader. The reader checks each field's type and
// presence as it goes (jsonio::Node), then the whole program with verify().
// Required fields are the ones docs/schema/model.Json lists as required;
// every other field has the default of the struct in Program.h.
//
//===----------------------------------------------------------------------===//

#include "model/ProgramJson.h"
#include "model/Json.h"

namespace dlayout {

using Json = nlohmann::json;
using jsonio::Node;

namespace {

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

const char *boundKindName(Bound::Kind k) {
  switch (k) {
  case Bound::Kind::Affine:
    return "affine";
  case Bound::Kind::Max:
    return "max";
  case Bound::Kind::Min:
    return "min";
  case Bound::Kind::NonAffine:
    return "nonaffine";
  }
  return "affine";
}

Json locJson(const SourceLoc &l) {
  return {{"file", l.file}, {"line", l.line}, {"col", l.col}};
}

Json optJson(const std::optional<std::string> &s) {
  return s ? Json(*s) : Json(nullptr);
}

Json nonEmptyOrNull(const std::string &s) {
  return s.empty() ? Json(nullptr) : Json(s);
}

template <class T> Json mapJson(const std::map<std::string, T> &m) {
  Json out = Json::object();
  for (const auto &[k, v] : m)
    out[k] = v;
  return out;
}

template <class T, class F> Json listJson(const std::vector<T> &items, F f) {
  Json out = Json::array();
  for (const auto &item : items)
    out.push_back(f(item));
  return out;
}

void putAffine(Json &out, const AffineExpr &e) {
  out["coeffs"] = mapJson(e.coeffs);
  out["params"] = mapJson(e.params);
  out["const"] = e.constant;
}

Json affineJson(const AffineExpr &e) {
  Json out = Json::object();
  putAffine(out, e);
  return out;
}

Json exprJson(const Expr &e);
Json refJson(const Reference &r);

/// "expr" and "expr_refs" of a subscript or a bound, written only when set.
void putExpr(Json &out, const std::optional<Expr> &e,
             const std::vector<Reference> &refs) {
  if (e)
    out["expr"] = exprJson(*e);
  if (!refs.empty())
    out["expr_refs"] = listJson(refs, refJson);
}

Json boundJson(const Bound &b) {
  Json out = {{"kind", boundKindName(b.kind)},
              {"terms", listJson(b.terms, affineJson)},
              {"text", b.text}};
  putExpr(out, b.expr, b.exprRefs);
  return out;
}

Json exprJson(const Expr &e) {
  switch (e.kind) {
  case Expr::Kind::Const:
    return {{"const", e.value}};
  case Expr::Kind::Ref:
    return {{"ref", e.refIndex}};
  case Expr::Kind::Scalar:
    return {{"scalar", e.name}};
  case Expr::Kind::Iv:
    return {{"iv", e.name}};
  case Expr::Kind::Param:
    return {{"param", e.name}};
  case Expr::Kind::Op:
  case Expr::Kind::Call:
    return {{e.kind == Expr::Kind::Op ? "op" : "call", e.name},
            {"args", listJson(e.args, exprJson)}};
  }
  return {{"const", 0}};
}

Json subscriptJson(const Subscript &s) {
  Json out = {{"class", toString(s.cls)},
              {"variation_level", s.variationLevel}};
  putAffine(out, s.affine);
  if (!s.index.empty())
    out["index"] = refJson(s.index.front());
  if (!s.text.empty())
    out["text"] = s.text;
  putExpr(out, s.expr, s.exprRefs);
  return out;
}

Json refJson(const Reference &r) {
  return {{"array", r.array},
          {"access", r.access == Reference::Access::Write ? "write" : "read"},
          {"subscripts", listJson(r.subscripts, subscriptJson)},
          {"loc", locJson(r.loc)}};
}

Json arrayJson(const Array &a) {
  auto dim = [](const ArrayDim &d) {
    Json out = {{"extent", d.extent}, {"lower", d.lower}};
    if (d.extentExpr)
      out["extent_expr"] = affineJson(*d.extentExpr);
    return out;
  };
  return {{"name", a.name},
          {"element_bytes", a.elementBytes},
          {"element_type", a.elementType},
          {"column_major", a.columnMajor},
          {"origin", a.origin},
          {"dims", listJson(a.dims, dim)},
          {"loc", locJson(a.loc)}};
}

Json loopJson(const Loop &l) {
  Json j = {{"id", l.id},
          {"var", l.var},
          {"parent", optJson(l.parent)},
          {"level", l.level},
          {"lower", boundJson(l.lower)},
          {"upper", boundJson(l.upper)},
          {"step", l.step},
          {"trip_count", l.tripCount},
          {"parallel", l.parallel},
          {"carries", l.carries},
          {"loc", locJson(l.loc)}};
  if (l.segments)
    j["segments"] = {{"over", l.segments->over},
                     {"first", l.segments->first},
                     {"count", l.segments->count}};
  return j;
}

Json statementJson(const Statement &s) {
  const OpCounts &o = s.ops;
  Json ops = {{"loads", o.loads},
              {"stores", o.stores},
              {"fadd", o.fadd},
              {"fmul", o.fmul},
              {"fdiv", o.fdiv},
              {"iadd", o.iadd},
              {"imul", o.imul},
              {"idiv", o.idiv},
              {"intrinsics", o.intrinsics},
              {"compares", o.compares}};
  auto guard = [](const Guard &g) {
    return Json{{"condition", exprJson(g.condition)}, {"text", g.text}};
  };
  return {{"id", s.id},
          {"loops", s.loops},
          {"loc", locJson(s.loc)},
          {"ops", ops},
          {"reduction", nonEmptyOrNull(s.reduction)},
          {"write", s.write},
          {"scalar_write", nonEmptyOrNull(s.scalarWrite)},
          {"refs", listJson(s.refs, refJson)},
          {"expr", exprJson(s.expr)},
          {"guards", listJson(s.guards, guard)},
          {"probability", s.probability}};
}

Json dependenceJson(const Dependence &d) {
  auto distance = [](const std::optional<int64_t> &v) {
    return v ? Json(*v) : Json(nullptr);
  };
  return {{"id", d.id},
          {"from", d.from},
          {"to", d.to},
          {"kind", toString(d.kind)},
          {"variable", d.variable},
          {"carried_by", optJson(d.carriedBy)},
          {"direction", d.direction},
          {"distance", listJson(d.distance, distance)}};
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

template <class F>
auto readList(const Node &n, F f) -> std::vector<decltype(f(n))> {
  std::vector<decltype(f(n))> out;
  for (const Node &e : n.elements())
    out.push_back(f(e));
  return out;
}

/// An optional list member; empty when absent.
template <class F>
auto readList(const Node &n, std::string_view key, F f)
    -> std::vector<decltype(f(n))> {
  auto m = n.find(key);
  return m ? readList(*m, f) : std::vector<decltype(f(n))>{};
}

std::string readString(const Node &n) { return n.str(); }

/// An optional name: absent or null for none, never "".
std::optional<std::string> readOptString(const Node &n, std::string_view key) {
  auto s = n.optStr(key);
  if (s && s->empty())
    n.get(key).fail("must be null or a non-empty string");
  return s;
}

SourceLoc readLoc(const Node &n, std::string_view key = "loc") {
  auto m = n.find(key);
  if (!m)
    return {};
  m->allowOnly({"file", "line", "col"});
  return {m->str("file", ""), m->count("line", 0), m->count("col", 0)};
}

/// A name -> integer object. Coefficients of value zero are dropped (they
/// are never stored); parameters keep theirs.
std::map<std::string, int64_t> readIntMap(const Node &n, std::string_view key,
                                          bool dropZeros = true) {
  std::map<std::string, int64_t> out;
  if (auto m = n.find(key))
    for (const auto &[name, value] : m->members()) {
      if (name.empty())
        value.fail("a name must not be empty");
      int64_t v = value.integer();
      if (v != 0 || !dropZeros)
        out[name] = v;
    }
  return out;
}

/// coeffs / params / const, which may sit in a larger object.
AffineExpr readAffineFields(const Node &n) {
  return {readIntMap(n, "coeffs"), readIntMap(n, "params"),
          n.integer("const", 0)};
}

AffineExpr readAffine(const Node &n) {
  n.allowOnly({"coeffs", "params", "const"});
  return readAffineFields(n);
}

Expr readExpr(const Node &n);
Reference readRef(const Node &n);

Bound readBound(const Node &n) {
  n.allowOnly({"kind", "terms", "text", "expr", "expr_refs"});
  Bound b;
  Node kind = n.get("kind");
  std::string k = kind.str();
  if (k == "affine")
    b.kind = Bound::Kind::Affine;
  else if (k == "max")
    b.kind = Bound::Kind::Max;
  else if (k == "min")
    b.kind = Bound::Kind::Min;
  else if (k == "nonaffine")
    b.kind = Bound::Kind::NonAffine;
  else
    kind.fail("unknown bound kind " + k);
  b.terms = readList(n, "terms", readAffine);
  b.text = n.str("text", "");
  if (auto e = n.find("expr"))
    b.expr = readExpr(*e);
  b.exprRefs = readList(n, "expr_refs", readRef);
  return b;
}

Expr readExpr(const Node &n) {
  static constexpr std::string_view kKinds[] = {"const", "ref", "scalar", "iv",
                                                "param", "op",  "call"};
  Expr e;
  std::string_view key;
  for (size_t i = 0; i < std::size(kKinds); ++i)
    if (n.find(kKinds[i])) {
      if (!key.empty())
        n.fail("an expression has only one of const, ref, scalar, iv, param, "
               "op, call");
      key = kKinds[i];
      e.kind = Expr::Kind(i); // kKinds is in the order of Expr::Kind
    }
  if (key.empty())
    n.fail("an expression needs one of const, ref, scalar, iv, param, op, "
           "call");
  bool hasArgs = e.kind == Expr::Kind::Op || e.kind == Expr::Kind::Call;
  if (hasArgs)
    n.allowOnly({key, "args"});
  else
    n.allowOnly({key});
  Node v = n.get(key);
  if (e.kind == Expr::Kind::Const)
    e.value = v.number();
  else if (e.kind == Expr::Kind::Ref) {
    int64_t i = v.integer();
    if (i < 0 || i > INT32_MAX)
      v.fail("not an index of the statement's refs");
    e.refIndex = int(i);
  } else
    e.name = v.str();
  if (hasArgs)
    e.args = readList(n.get("args"), readExpr);
  return e;
}

Subscript readSubscript(const Node &n) {
  n.allowOnly({"class", "coeffs", "params", "const", "variation_level", "index",
               "text", "expr", "expr_refs"});
  Subscript s;
  Node cls = n.get("class");
  auto c = subscriptClassFromString(cls.str());
  if (!c)
    cls.fail("unknown subscript class " + cls.str());
  s.cls = *c;
  s.affine = readAffineFields(n);
  s.variationLevel = n.count("variation_level", 0);
  if (auto index = n.find("index"))
    s.index.push_back(readRef(*index));
  s.text = n.str("text", "");
  if (auto e = n.find("expr"))
    s.expr = readExpr(*e);
  s.exprRefs = readList(n, "expr_refs", readRef);
  return s;
}

Reference readRef(const Node &n) {
  n.allowOnly({"array", "access", "subscripts", "loc"});
  Reference r;
  r.array = n.get("array").str();
  Node access = n.get("access");
  if (access.str() == "write")
    r.access = Reference::Access::Write;
  else if (access.str() != "read")
    access.fail("must be read or write");
  r.subscripts = readList(n.get("subscripts"), readSubscript);
  r.loc = readLoc(n);
  return r;
}

ArrayDim readDim(const Node &n) {
  n.allowOnly({"extent", "lower", "extent_expr"});
  ArrayDim d;
  d.extent = n.get("extent").integer();
  d.lower = n.get("lower").integer();
  if (auto e = n.find("extent_expr"))
    d.extentExpr = readAffine(*e);
  return d;
}

Array readArray(const Node &n) {
  n.allowOnly({"name", "element_bytes", "element_type", "column_major",
               "origin", "dims", "loc"});
  Array a;
  a.name = n.get("name").str();
  a.elementBytes = n.count("element_bytes", a.elementBytes);
  a.elementType = n.str("element_type", a.elementType);
  a.columnMajor = n.boolean("column_major", a.columnMajor);
  a.origin = n.str("origin", "");
  a.dims = readList(n.get("dims"), readDim);
  a.loc = readLoc(n);
  return a;
}

Scalar readScalar(const Node &n) {
  n.allowOnly({"name", "type", "loc"});
  Scalar s;
  s.name = n.get("name").str();
  s.type = n.str("type", s.type);
  s.loc = readLoc(n);
  return s;
}

Loop readLoop(const Node &n) {
  n.allowOnly({"id", "var", "parent", "level", "lower", "upper", "step",
               "trip_count", "parallel", "carries", "segments", "loc"});
  Loop l;
  l.id = n.get("id").str();
  l.var = n.get("var").str();
  l.parent = readOptString(n, "parent");
  l.level = n.count("level", 1);
  l.lower = readBound(n.get("lower"));
  l.upper = readBound(n.get("upper"));
  l.step = n.integer("step", 1);
  l.tripCount = n.number("trip_count", 0);
  l.parallel = n.boolean("parallel", false);
  l.carries = readList(n, "carries", readString);
  if (auto g = n.find("segments")) {
    g->allowOnly({"over", "first", "count"});
    l.segments = Loop::Segments{g->get("over").str(), g->integer("first", 0), g->get("count").number()};
  }
  l.loc = readLoc(n);
  return l;
}

OpCounts readOps(const Node &n) {
  n.allowOnly({"loads", "stores", "fadd", "fmul", "fdiv", "iadd", "imul",
               "idiv", "intrinsics", "compares"});
  OpCounts o;
  o.loads = n.count("loads", 0);
  o.stores = n.count("stores", 0);
  o.fadd = n.count("fadd", 0);
  o.fmul = n.count("fmul", 0);
  o.fdiv = n.count("fdiv", 0);
  o.iadd = n.count("iadd", 0);
  o.imul = n.count("imul", 0);
  o.idiv = n.count("idiv", 0);
  o.intrinsics = n.count("intrinsics", 0);
  o.compares = n.count("compares", 0);
  return o;
}

Guard readGuard(const Node &n) {
  n.allowOnly({"condition", "text"});
  return {readExpr(n.get("condition")), n.str("text", "")};
}

Statement readStatement(const Node &n) {
  n.allowOnly({"id", "loops", "loc", "ops", "reduction", "write",
               "scalar_write", "refs", "expr", "guards", "probability"});
  Statement s;
  s.id = n.get("id").str();
  s.loops = readList(n.get("loops"), readString);
  s.loc = readLoc(n);
  if (auto ops = n.find("ops"))
    s.ops = readOps(*ops);
  s.reduction = readOptString(n, "reduction").value_or("");
  if (auto w = n.find("write")) {
    int64_t i = w->integer();
    if (i < -1 || i > INT32_MAX)
      w->fail("must be -1 or an index of refs");
    s.write = int(i);
  }
  s.scalarWrite = readOptString(n, "scalar_write").value_or("");
  s.refs = readList(n.get("refs"), readRef);
  s.expr = readExpr(n.get("expr"));
  s.guards = readList(n, "guards", readGuard);
  s.probability = n.number("probability", 1.0);
  return s;
}

Dependence readDependence(const Node &n) {
  n.allowOnly({"id", "from", "to", "kind", "variable", "carried_by",
               "direction", "distance"});
  Dependence d;
  d.id = n.get("id").str();
  d.from = n.get("from").str();
  d.to = n.get("to").str();
  Node kind = n.get("kind");
  auto k = dependenceKindFromString(kind.str());
  if (!k)
    kind.fail("must be flow, anti or output");
  d.kind = *k;
  d.variable = n.get("variable").str();
  d.carriedBy = readOptString(n, "carried_by");
  d.direction = readList(n, "direction", readString);
  d.distance = readList(n, "distance", [](const Node &e) {
    return e.value().is_null() ? std::nullopt
                               : std::optional<int64_t>(e.integer());
  });
  return d;
}

Phase readPhase(const Node &n) {
  n.allowOnly({"id", "loop", "statements"});
  return {n.get("id").str(), readOptString(n, "loop"),
          readList(n.get("statements"), readString)};
}

Warning readWarning(const Node &n) {
  n.allowOnly({"kind", "message", "loc"});
  return {n.get("kind").str(), n.get("message").str(), readLoc(n)};
}

Program readProgram(const Node &doc) {
  jsonio::expectSchema(doc, kModelSchema);
  doc.allowOnly({"schema", "language", "sources", "functions", "params",
                 "arrays", "scalars", "loops", "statements", "dependences",
                 "phases", "warnings"});
  Program p;
  Node language = doc.get("language");
  p.language = language.str();
  if (p.language != "fortran" && p.language != "c" && p.language != "c++" &&
      p.language != "ir")
    language.fail("must be fortran, c, c++ or ir");
  p.sources = readList(doc, "sources", readString);
  p.functions = readList(doc, "functions", readString);
  p.params = readIntMap(doc, "params", /*dropZeros=*/false);
  p.arrays = readList(doc.get("arrays"), readArray);
  p.scalars = readList(doc, "scalars", readScalar);
  p.loops = readList(doc.get("loops"), readLoop);
  p.statements = readList(doc.get("statements"), readStatement);
  p.dependences = readList(doc, "dependences", readDependence);
  p.phases = readList(doc, "phases", readPhase);
  p.warnings = readList(doc, "warnings", readWarning);
  if (auto ok = verify(p); !ok)
    throw jsonio::ReadError{ok.error().message};
  return p;
}

} // namespace

nlohmann::json toJson(const Program &p) {
  Json params = Json::object();
  for (const auto &[name, value] : p.params)
    params[name] = value; // zeros included: a parameter's value may be 0
  auto scalar = [](const Scalar &s) {
    return Json{{"name", s.name}, {"type", s.type}, {"loc", locJson(s.loc)}};
  };
  auto phase = [](const Phase &ph) {
    return Json{{"id", ph.id},
                {"loop", optJson(ph.loop)},
                {"statements", ph.statements}};
  };
  auto warning = [](const Warning &w) {
    return Json{
        {"kind", w.kind}, {"message", w.message}, {"loc", locJson(w.loc)}};
  };
  return {{"schema", kModelSchema},
          {"language", p.language},
          {"sources", p.sources},
          {"functions", p.functions},
          {"params", params},
          {"arrays", listJson(p.arrays, arrayJson)},
          {"scalars", listJson(p.scalars, scalar)},
          {"loops", listJson(p.loops, loopJson)},
          {"statements", listJson(p.statements, statementJson)},
          {"dependences", listJson(p.dependences, dependenceJson)},
          {"phases", listJson(p.phases, phase)},
          {"warnings", listJson(p.warnings, warning)}};
}

Result<Program> programFromJson(const nlohmann::json &doc) {
  return jsonio::read([&] { return readProgram(Node(doc)); });
}

Result<Program> parseProgram(std::string_view text) {
  auto doc = jsonio::parse(text);
  if (!doc)
    return doc.error();
  return programFromJson(*doc);
}

} // namespace dlayout
