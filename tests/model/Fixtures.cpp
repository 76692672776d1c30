//===- tests/model/Fixtures.cpp - Rich models for the model tests ---------===//

#include "Fixtures.h"

namespace dlayout::testing {

namespace {

AffineExpr affine(std::map<std::string, int64_t> coeffs,
                  std::map<std::string, int64_t> params = {},
                  int64_t constant = 0) {
  return {std::move(coeffs), std::move(params), constant};
}

Subscript sub(SubscriptClass cls, AffineExpr e, unsigned level) {
  Subscript s;
  s.cls = cls;
  s.affine = std::move(e);
  s.variationLevel = level;
  return s;
}

Reference ref(std::string array, Reference::Access access,
              std::vector<Subscript> subscripts, unsigned line) {
  return {std::move(array), access, std::move(subscripts),
          SourceLoc{"rich.f", line, 7}};
}

Expr constant(double v) {
  Expr e;
  e.value = v;
  return e;
}

Expr leaf(Expr::Kind kind, std::string name, int refIndex = -1) {
  Expr e;
  e.kind = kind;
  e.name = std::move(name);
  e.refIndex = refIndex;
  return e;
}

Expr op(std::string name, std::vector<Expr> args,
        Expr::Kind kind = Expr::Kind::Op) {
  Expr e;
  e.kind = kind;
  e.name = std::move(name);
  e.args = std::move(args);
  return e;
}

Bound bound(Bound::Kind kind, std::vector<AffineExpr> terms, std::string text) {
  Bound b;
  b.kind = kind;
  b.terms = std::move(terms);
  b.text = std::move(text);
  return b;
}

Array array(std::string name, std::vector<ArrayDim> dims, unsigned bytes,
            std::string type, bool columnMajor, std::string origin,
            unsigned line) {
  Array a;
  a.name = std::move(name);
  a.dims = std::move(dims);
  a.elementBytes = bytes;
  a.elementType = std::move(type);
  a.columnMajor = columnMajor;
  a.origin = std::move(origin);
  a.loc = {"rich.f", line, 3};
  return a;
}

} // namespace

Program richProgram() {
  using SC = SubscriptClass;
  using RA = Reference::Access;
  Program p;
  p.sources = {"rich.f", "rich_util.f"};
  p.language = "fortran";
  p.functions = {"RICH"};
  p.params = {{"N", 512}, {"ZERO", 0}};
  ArrayDim n{512, 1, affine({}, {{"N", 1}})};
  p.arrays = {
      array("A", {n, n}, 8, "f64", true, "argument", 2),
      array("B", {{1024, 1, affine({}, {{"N", 2}})}}, 8, "f64", true, "global",
            3),
      array("X", {n}, 4, "f32", true, "local", 4),
      array("COL", {n}, 4, "i32", true, "heap", 5),
      array("Z", {{512, 0, std::nullopt}}, 8, "f64", false, "global", 6)};
  p.scalars = {{"F", "f64", {"rich.f", 7, 3}}, {"SCALE", "f32", {}}};

  Loop l1;
  l1.id = "L1";
  l1.var = "I";
  l1.lower = bound(Bound::Kind::Affine, {affine({}, {}, 2)}, "2");
  l1.upper = bound(Bound::Kind::Affine, {affine({}, {{"N", 1}})}, "N");
  l1.tripCount = 511;
  l1.carries = {"D1"};
  l1.loc = {"rich.f", 10, 7};

  Loop l2;
  l2.id = "L2";
  l2.var = "J";
  l2.parent = "L1";
  l2.level = 2;
  l2.lower =
      bound(Bound::Kind::Max, {affine({}, {}, 1), affine({{"L1", 1}}, {}, -1)},
            "MAX(1, I - 1)");
  l2.upper = bound(Bound::Kind::Min,
                   {affine({}, {{"N", 1}}), affine({{"L1", 1}}, {}, 1)},
                   "MIN(N, I + 1)");
  l2.tripCount = 2.9941;
  l2.parallel = true;
  l2.loc = {"rich.f", 11, 9};

  Loop l3;
  l3.id = "L3";
  l3.var = "K";
  l3.lower = bound(Bound::Kind::Affine, {affine({}, {{"N", 1}})}, "N");
  l3.upper = bound(Bound::Kind::NonAffine, {}, "COL(1) + N");
  // The value, for the validator: COL(1) + N.
  l3.upper.expr = op("+", {leaf(Expr::Kind::Ref, "", 0), leaf(Expr::Kind::Param, "N")});
  l3.upper.exprRefs = {ref("COL", Reference::Access::Read,
                           {sub(SubscriptClass::Constant, affine({}, {}, 1), 0)}, 20)};
  l3.step = -2;
  l3.tripCount = 63.5;
  l3.carries = {"D2"};
  l3.loc = {"rich.f", 20, 7};
  p.loops = {l1, l2, l3};

  // S1: A(I,J) = A(I-1,J) * 0.5 + (B(I+J) + F)
  Statement s1;
  s1.id = "S1";
  s1.loops = {"L1", "L2"};
  s1.loc = {"rich.f", 12, 11};
  s1.ops = {3, 1, 2, 1, 0, 0, 0, 0, 0, 0};
  s1.write = 0;
  s1.refs = {ref("A", RA::Write,
                 {sub(SC::Single, affine({{"L1", 1}}), 1),
                  sub(SC::Single, affine({{"L2", 1}}), 2)},
                 12),
             ref("A", RA::Read,
                 {sub(SC::Single, affine({{"L1", 1}}, {}, -1), 1),
                  sub(SC::Single, affine({{"L2", 1}}), 2)},
                 12),
             ref("B", RA::Read,
                 {sub(SC::Multiple, affine({{"L1", 1}, {"L2", 1}}), 2)}, 12)};
  s1.expr = op("+", {op("*", {leaf(Expr::Kind::Ref, "", 1), constant(0.5)}),
                     op("+", {leaf(Expr::Kind::Ref, "", 2),
                              leaf(Expr::Kind::Scalar, "F")})});

  // S2: SCALE = SCALE + SQRT(X(COL(I) + 1))   (a sum reduction)
  Statement s2;
  s2.id = "S2";
  s2.loops = {"L1"};
  s2.loc = {"rich.f", 14, 9};
  s2.ops = {2, 0, 1, 0, 0, 1, 0, 0, 1, 0};
  s2.reduction = "sum";
  s2.scalarWrite = "SCALE";
  Subscript indirect = sub(SC::Indirect, affine({}, {}, 1), 1);
  indirect.index = {
      ref("COL", RA::Read, {sub(SC::Single, affine({{"L1", 1}}), 1)}, 14)};
  s2.refs = {ref("X", RA::Read, {indirect}, 14)};
  s2.expr =
      op("+", {leaf(Expr::Kind::Scalar, "SCALE"),
               op("sqrt", {leaf(Expr::Kind::Ref, "", 0)}, Expr::Kind::Call)});

  // S3: IF (Z(N) > 0) Z(K*K) = SELECT(K < N, Z(N), -Z(N)) with probability .5
  Statement s3;
  s3.id = "S3";
  s3.loops = {"L3"};
  s3.loc = {"rich.f", 21, 9};
  s3.ops = {1, 1, 0, 0, 1, 0, 1, 1, 0, 2};
  s3.write = 0;
  Subscript unknown = sub(SC::Unknown, {}, 1);
  unknown.text = "K*K";
  unknown.expr = op("*", {leaf(Expr::Kind::Iv, "L3"), leaf(Expr::Kind::Iv, "L3")});
  s3.refs = {
      ref("Z", RA::Write, {unknown}, 21),
      ref("Z", RA::Read, {sub(SC::Constant, affine({}, {{"N", 1}}), 0)}, 21)};
  s3.expr =
      op("select",
         {op("lt", {leaf(Expr::Kind::Iv, "L3"), leaf(Expr::Kind::Param, "N")}),
          leaf(Expr::Kind::Ref, "", 1),
          op("neg", {leaf(Expr::Kind::Ref, "", 1)})});
  s3.guards = {
      {op("gt", {leaf(Expr::Kind::Ref, "", 1), constant(0)}), "Z(N) > 0"}};
  s3.probability = 0.5;

  // S4: Z(1) = -0.25, outside any loop
  Statement s4;
  s4.id = "S4";
  s4.loc = {"rich.f", 30, 7};
  s4.ops.stores = 1;
  s4.write = 0;
  s4.refs = {
      ref("Z", RA::Write, {sub(SC::Constant, affine({}, {}, 1), 0)}, 30)};
  s4.expr = constant(-0.25);
  p.statements = {s1, s2, s3, s4};

  p.dependences = {
      {"D1", "S1", "S1", Dependence::Kind::Flow, "A", "L1", {"<", "="}, {1, 0}},
      {"D2",
       "S3",
       "S3",
       Dependence::Kind::Output,
       "Z",
       "L3",
       {"*"},
       {std::nullopt}},
      {"D3", "S3", "S4", Dependence::Kind::Anti, "Z", std::nullopt, {}, {}}};
  p.phases = {{"P1", "L1", {"S1", "S2"}},
              {"P2", "L3", {"S3"}},
              {"P3", std::nullopt, {"S4"}}};
  p.warnings = {{"non-affine",
                 "assumed Z(K*K) may be any element of Z",
                 {"rich.f", 21, 11}},
                {"trip-count", "assumed NB(1) = 1", {}}};
  return p;
}

Layout richLayout() {
  auto dim = [](DistKind kind, int meshDim) {
    DimLayout d;
    d.kind = kind;
    d.meshDim = meshDim;
    return d;
  };
  Layout l;
  l.mesh = {4, 2};

  DimLayout a0 = dim(DistKind::BlockCyclic, 0);
  a0.block = 4;
  a0.offset = 1;
  a0.overlapLeft = 1;
  a0.overlapRight = 2;
  l.arrays["A"].dims = {a0, dim(DistKind::Cyclic, 1)};

  DimLayout b0 = dim(DistKind::GeneralBlock, 0);
  b0.begins = {1, 100, 300, 800};
  l.arrays["B"].dims = {b0};

  DimLayout x0 = dim(DistKind::Indirect, 1);
  for (int i = 0; i < 512; ++i)
    x0.map.push_back((i * 7) % 3 == 0 ? 1 : 0);
  l.arrays["X"].dims = {x0};

  l.arrays["COL"].dims = {dim(DistKind::Replicated, -1)};

  DimLayout z0 = dim(DistKind::Block, 1);
  z0.offset = -3;
  z0.overlapRight = 1;
  l.arrays["Z"].dims = {z0};
  return l;
}

Machine ipsc2() {
  Machine m;
  m.name = "ipsc2";
  m.description = "Intel iPSC/2 hypercube";
  m.load = m.store = 0.5e-6;
  m.add = m.mul = 5e-6;
  m.div = 15e-6;
  m.intrinsic = 40e-6;
  m.compare = 1e-6;
  m.message = {{100, 350e-6, 0.15e-6}, {0, 700e-6, 0.36e-6}};
  m.collectives = {{"shift", CollectiveAlgorithm::Exchange},
                   {"reduction", CollectiveAlgorithm::Tree},
                   {"one_to_many_multicast", CollectiveAlgorithm::Tree},
                   {"many_to_many_multicast", CollectiveAlgorithm::Ring},
                   {"scatter", CollectiveAlgorithm::Linear},
                   {"gather", CollectiveAlgorithm::Linear}};
  m.topology = Topology::Hypercube;
  m.grayCodeEmbedding = true;
  m.perHop = 1.5e-6;
  m.flops = 2e5;
  m.sources = {"Gupta, PhD thesis, section 6.1 and Table 6.1"};
  return m;
}

} // namespace dlayout::testing
