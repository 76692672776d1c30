//===- tests/costmodels/ModelBuilder.cpp - Hand-built program models ------===//

#include "ModelBuilder.h"

#include <algorithm>

namespace dlayout::test {

ModelBuilder::ModelBuilder(std::string language) {
  p_.language = std::move(language);
  p_.sources = {"thesis.F"};
  p_.functions = {"figure"};
}

void ModelBuilder::param(const std::string &name, int64_t value) {
  p_.params[name] = value;
}

void ModelBuilder::array(const std::string &name, std::vector<int64_t> extents,
                         unsigned bytes) {
  Array a;
  a.name = name;
  a.elementBytes = bytes;
  a.origin = "global";
  for (auto e : extents)
    a.dims.push_back({e, 1, std::nullopt});
  p_.arrays.push_back(std::move(a));
}

AffineExpr ModelBuilder::c(int64_t v) const {
  AffineExpr e;
  e.constant = v;
  return e;
}
AffineExpr ModelBuilder::p(const std::string &param, int64_t coeff,
                           int64_t constant) const {
  AffineExpr e;
  e.params[param] = coeff;
  e.constant = constant;
  return e;
}
AffineExpr ModelBuilder::iv(const std::string &loop, int64_t coeff,
                            int64_t constant) const {
  AffineExpr e;
  e.coeffs[loop] = coeff;
  e.constant = constant;
  return e;
}

unsigned ModelBuilder::levelOf(const std::string &loop) const {
  const Loop *l = p_.findLoop(loop);
  return l ? l->level : 0;
}

std::string ModelBuilder::loop(const std::string &var, AffineExpr lower,
                               AffineExpr upper, const std::string &parent,
                               int64_t step, bool parallel) {
  Loop l;
  l.id = "L" + std::to_string(p_.loops.size() + 1);
  l.var = var;
  if (!parent.empty()) {
    l.parent = parent;
    l.level = levelOf(parent) + 1;
  }
  l.lower.terms = {lower};
  l.lower.text = var + ".lo";
  l.upper.terms = {upper};
  l.upper.text = var + ".hi";
  l.step = step;
  l.parallel = parallel;
  l.loc = {"thesis.F", unsigned(p_.loops.size() + 1), 1};
  p_.loops.push_back(l);
  return l.id;
}

Subscript ModelBuilder::sub(const AffineExpr &e) const {
  Subscript s;
  s.affine = e;
  unsigned level = 0;
  for (const auto &[loop, c] : e.coeffs)
    level = std::max(level, levelOf(loop));
  s.variationLevel = level;
  s.cls = e.coeffs.empty()       ? SubscriptClass::Constant
          : e.coeffs.size() == 1 ? SubscriptClass::Single
                                 : SubscriptClass::Multiple;
  return s;
}

Subscript ModelBuilder::unknown(unsigned variationLevel,
                                AffineExpr knownPart) const {
  Subscript s;
  s.cls = SubscriptClass::Unknown;
  s.variationLevel = variationLevel;
  s.affine = knownPart;
  s.text = "x";
  return s;
}

Subscript ModelBuilder::indirect(const Reference &index) const {
  Subscript s;
  s.cls = SubscriptClass::Indirect;
  unsigned level = 0;
  for (const auto &sub : index.subscripts)
    level = std::max(level, sub.variationLevel);
  s.variationLevel = level;
  s.index = {index};
  s.text = index.array + "(...)";
  return s;
}

Reference ModelBuilder::ref(const std::string &array,
                            std::vector<AffineExpr> subs,
                            Reference::Access a) const {
  Reference r;
  r.array = array;
  r.access = a;
  for (const auto &e : subs)
    r.subscripts.push_back(sub(e));
  return r;
}

Reference ModelBuilder::refOf(const std::string &array,
                              std::vector<Subscript> subs) const {
  Reference r;
  r.array = array;
  r.subscripts = std::move(subs);
  return r;
}

std::string ModelBuilder::stmt(std::vector<std::string> loops, Reference lhs,
                               std::vector<Reference> rhs, OpCounts ops,
                               std::string reduction) {
  Statement s;
  s.id = "S" + std::to_string(p_.statements.size() + 1);
  s.loops = std::move(loops);
  s.loc = {"thesis.F", unsigned(100 + p_.statements.size()), 7};
  s.ops = ops;
  s.reduction = std::move(reduction);
  lhs.access = Reference::Access::Write;
  s.refs.push_back(std::move(lhs));
  s.write = 0;
  for (auto &r : rhs) {
    r.access = Reference::Access::Read;
    s.refs.push_back(std::move(r));
  }
  p_.statements.push_back(std::move(s));
  return p_.statements.back().id;
}

std::string ModelBuilder::scalarStmt(std::vector<std::string> loops,
                                     const std::string &scalar,
                                     std::vector<Reference> rhs, OpCounts ops,
                                     std::string reduction) {
  Statement s;
  s.id = "S" + std::to_string(p_.statements.size() + 1);
  s.loops = std::move(loops);
  s.ops = ops;
  s.reduction = std::move(reduction);
  s.scalarWrite = scalar;
  for (auto &r : rhs) {
    r.access = Reference::Access::Read;
    s.refs.push_back(std::move(r));
  }
  if (std::none_of(p_.scalars.begin(), p_.scalars.end(),
                   [&](const Scalar &x) { return x.name == scalar; }))
    p_.scalars.push_back({scalar, "f64", {}});
  p_.statements.push_back(std::move(s));
  return p_.statements.back().id;
}

void ModelBuilder::probability(const std::string &stmt, double rho) {
  for (auto &s : p_.statements)
    if (s.id == stmt)
      s.probability = rho;
}

void ModelBuilder::dep(const std::string &from, const std::string &to,
                       Dependence::Kind k, const std::string &var,
                       const std::string &carriedBy,
                       std::vector<std::string> dirs,
                       std::vector<std::optional<int64_t>> dist) {
  Dependence d;
  d.id = "D" + std::to_string(p_.dependences.size() + 1);
  d.from = from;
  d.to = to;
  d.kind = k;
  d.variable = var;
  if (!carriedBy.empty()) {
    d.carriedBy = carriedBy;
    for (auto &l : p_.loops)
      if (l.id == carriedBy)
        l.carries.push_back(d.id);
  }
  d.direction = std::move(dirs);
  d.distance = std::move(dist);
  d.distance.resize(d.direction.size());
  p_.dependences.push_back(std::move(d));
}

Program ModelBuilder::build() const {
  Program p = p_;
  for (const auto &s : p.statements) {
    std::optional<std::string> top =
        s.loops.empty() ? std::nullopt : std::optional(s.loops.front());
    auto it = std::find_if(p.phases.begin(), p.phases.end(),
                           [&](const Phase &ph) { return ph.loop == top; });
    if (it == p.phases.end() || !top) {
      Phase ph;
      ph.id = "P" + std::to_string(p.phases.size() + 1);
      ph.loop = top;
      p.phases.push_back(ph);
      it = p.phases.end() - 1;
    }
    it->statements.push_back(s.id);
  }
  return p;
}

DimLayout block(int meshDim) {
  DimLayout d;
  d.kind = DistKind::Block;
  d.meshDim = meshDim;
  return d;
}
DimLayout cyclic(int meshDim) {
  DimLayout d;
  d.kind = DistKind::Cyclic;
  d.meshDim = meshDim;
  return d;
}
DimLayout blockCyclic(int meshDim, int64_t b) {
  DimLayout d;
  d.kind = DistKind::BlockCyclic;
  d.meshDim = meshDim;
  d.block = b;
  return d;
}
DimLayout collapsed() { return DimLayout{}; }
DimLayout replicated(int meshDim) {
  DimLayout d;
  d.kind = DistKind::Replicated;
  d.meshDim = meshDim;
  return d;
}

Layout
layout(std::vector<int64_t> mesh,
       std::vector<std::pair<std::string, std::vector<DimLayout>>> arrays) {
  Layout l;
  l.mesh = std::move(mesh);
  for (auto &[name, dims] : arrays)
    l.arrays[name].dims = std::move(dims);
  return l;
}

} // namespace dlayout::test
