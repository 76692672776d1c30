//===- tests/analyzer/SamplesTest.cpp - Key facts of the bundled samples --===//
//
// Expectations written from reading the samples' sources (and the thesis),
// never from the tool's output: array extents, the class and coefficients of
// named references, which loops are parallel, reductions.
//
//===----------------------------------------------------------------------===//
#include "Helpers.h"

#include "analyzer/Dependences.h"

#include <cmath>
#include <cstdio>
#include <map>

using namespace dlayout;
using namespace dlayout::test;

namespace {

/// A subscript `var + offset` of class single.
void expectSingle(const Program &P, const Subscript &s, const std::string &var,
                  int64_t offset) {
  EXPECT_EQ(s.cls, SubscriptClass::Single);
  EXPECT_EQ(indexVar(P, s), var);
  ASSERT_EQ(s.affine.coeffs.size(), 1u);
  EXPECT_EQ(s.affine.coeffs.begin()->second, 1);
  EXPECT_EQ(s.affine.constant, offset);
}

TEST(Jacobi, FortranStencilIsSingleIndexWithUnitOffsets) {
  Program P = extractSample("paradigm/jacobi.F", {{"NP2", 66}, {"NCYCLES", 10}});
  const Array *A = P.findArray("A");
  ASSERT_NE(A, nullptr);
  ASSERT_EQ(A->dims.size(), 2u);
  EXPECT_EQ(A->dims[0].extent, 66);
  EXPECT_EQ(A->dims[1].extent, 66);
  EXPECT_EQ(A->dims[0].lower, 1);

  const Statement *S = writing(P, "B", 44);
  ASSERT_NE(S, nullptr);
  auto As = reads(*S, "A");
  ASSERT_EQ(As.size(), 5u);
  // A(I,J), A(I-1,J), A(I+1,J), A(I,J-1), A(I,J+1): every subscript
  // single-index, the offsets 0 or +-1, exactly four off-centre.
  int offCentre = 0;
  std::multiset<std::pair<int64_t, int64_t>> offsets;
  for (auto *r : As) {
    ASSERT_EQ(r->subscripts.size(), 2u);
    EXPECT_EQ(indexVar(P, r->subscripts[0]), "I");
    EXPECT_EQ(indexVar(P, r->subscripts[1]), "J");
    for (auto &s : r->subscripts) EXPECT_EQ(s.cls, SubscriptClass::Single);
    offsets.insert({r->subscripts[0].affine.constant, r->subscripts[1].affine.constant});
    if (r->subscripts[0].affine.constant || r->subscripts[1].affine.constant) ++offCentre;
  }
  EXPECT_EQ(offCentre, 4);
  EXPECT_EQ(offsets, (std::multiset<std::pair<int64_t, int64_t>>{
                         {0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}}));

  // NCYCLES loop sequential, the two inner loops parallel.
  auto loops = loopsOf(P, *S);
  ASSERT_EQ(loops.size(), 3u);
  EXPECT_EQ(loops[0]->var, "K");
  EXPECT_FALSE(loops[0]->parallel);
  EXPECT_DOUBLE_EQ(loops[0]->tripCount, 10);
  EXPECT_TRUE(loops[1]->parallel);
  EXPECT_TRUE(loops[2]->parallel);
  EXPECT_DOUBLE_EQ(loops[1]->tripCount, 64);
  // Variation levels: I at level 2, J at level 3.
  EXPECT_EQ(S->refs[S->write].subscripts[0].variationLevel, 2u);
  EXPECT_EQ(S->refs[S->write].subscripts[1].variationLevel, 3u);
}

TEST(Jacobi, ParamOverridesTheMacroSize) {
  Program P = extractSample("paradigm/jacobi.F", {{"NP2", 130}});
  ASSERT_NE(P.findArray("A"), nullptr);
  EXPECT_EQ(P.findArray("A")->dims[0].extent, 130);
  EXPECT_EQ(P.params.at("NP2"), 130);
}

TEST(Jacobi, FlowDependenceOfBIntoACarriedByTheCycleLoop) {
  Program P = extractSample("paradigm/jacobi.F");
  const Statement *update = writing(P, "B", 44), *copy = writing(P, "A", 50);
  ASSERT_TRUE(update && copy);
  bool flowBA = false, flowAB = false;
  for (auto &d : P.dependences) {
    if (d.kind != Dependence::Kind::Flow || !d.carriedBy) continue;
    if (d.from == update->id && d.to == copy->id && d.variable == "B") flowBA = true;
    if (d.from == copy->id && d.to == update->id && d.variable == "A") {
      flowAB = true;
      EXPECT_EQ(*d.carriedBy, update->loops[0]);
    }
  }
  EXPECT_TRUE(flowBA);
  EXPECT_TRUE(flowAB);
}

TEST(Tred2, TriangularUpdateAndReductions) {
  Program P = extractSample("paradigm/tred2.F", {{"N", 64}});
  // Z(K,J) = Z(K,J) - F*E(K) - G*D(K): single-index on K and J inside the
  // triangular DO 58 K = J, L.
  const Statement *S = nullptr;
  for (auto &s : P.statements)
    if (s.write >= 0 && s.refs[s.write].array == "Z" && reads(s, "E").size() == 1 &&
        reads(s, "D").size() == 1 && reads(s, "Z").size() == 1)
      S = &s;
  ASSERT_NE(S, nullptr);
  const Reference &W = S->refs[S->write];
  expectSingle(P, W.subscripts[0], "K", 0);
  expectSingle(P, W.subscripts[1], "J", 0);
  expectSingle(P, reads(*S, "E")[0]->subscripts[0], "K", 0);
  auto loops = loopsOf(P, *S);
  ASSERT_EQ(loops.size(), 3u);
  EXPECT_EQ(loops[0]->var, "II");
  EXPECT_EQ(loops[2]->var, "K");
  // Triangular: the lower bound of K is J.
  ASSERT_EQ(loops[2]->lower.kind, Bound::Kind::Affine);
  EXPECT_EQ(loops[2]->lower.terms[0].coeffs.count(loops[1]->id), 1u);
  EXPECT_TRUE(loops[2]->parallel);

  // SCALE = SCALE + DABS(D(K)) is a sum reduction; its loop stays parallel.
  const Statement *scale = nullptr;
  for (auto &s : P.statements)
    if (s.scalarWrite == "SCALE" && !s.reduction.empty()) scale = &s;
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ(scale->reduction, "sum");
  EXPECT_TRUE(loopsOf(P, *scale).back()->parallel);

  // DO 63 II is sequential.
  EXPECT_FALSE(loops[0]->parallel);
  // Z and A are N x N.
  EXPECT_EQ(P.findArray("Z")->dims[1].extent, 64);
  EXPECT_EQ(P.findArray("D")->dims.size(), 1u);
}

TEST(Tred2, TwoThreadsFindTheDependencesOneFinds) {
  // tred2's tests are many: computeDependences splits them over a second
  // thread. Its array dependences, carried loops and parallel loops, found
  // again by one thread and by two, are the same, in the same order.
  Program P = extractSample("paradigm/tred2.F", {{"N", 16}});
  size_t arrays = 0;
  for (auto &d : P.dependences) arrays += P.findArray(d.variable) != nullptr;
  ASSERT_GT(arrays, 100u);
  auto again = [&](unsigned threads) {
    Program Q = P;
    std::erase_if(Q.dependences, [&](const Dependence &d) { return Q.findArray(d.variable); });
    for (auto &L : Q.loops) L.parallel = true;
    EXPECT_TRUE(computeDependences(Q, nullptr, threads).ok());
    return Q;
  };
  Program one = again(1), two = again(2);
  EXPECT_EQ(one.dependences, P.dependences);
  EXPECT_EQ(one.dependences, two.dependences);
  ASSERT_EQ(one.loops.size(), two.loops.size());
  for (size_t l = 0; l < one.loops.size(); ++l) {
    EXPECT_EQ(one.loops[l].carries, two.loops[l].carries);
    EXPECT_EQ(one.loops[l].parallel, two.loops[l].parallel);
  }
}

TEST(Dgefa, PivotRowReferencesHaveAnUnknownFirstSubscript) {
  Program P = extractSample("paradigm/dgefa.F", {{"N", 128}});
  int seenLK = 0, seenLJ = 0;
  for (auto &s : P.statements)
    for (auto &r : s.refs) {
      if (r.array != "A" || r.subscripts.size() != 2) continue;
      if (r.subscripts[0].cls != SubscriptClass::Unknown) continue;
      std::string second = indexVar(P, r.subscripts[1]);
      if (second == "K") ++seenLK;
      if (second == "J") ++seenLJ;
      // The unknown L is assigned in the pivot search DO 30 I, beside the
      // row exchange DO 80 J that reads it: as every reference sees it, it
      // changes in DO 60 K (level 1) only (thesis section 3.1: the nesting
      // level of the statements defining it), so that A(L,J) is one row
      // throughout DO 80 J.
      EXPECT_EQ(r.subscripts[0].variationLevel, 1u) << s.id;
    }
  EXPECT_GT(seenLK, 0);
  EXPECT_GT(seenLJ, 0);
  // Nothing else is unknown: A(I,J), A(K,J), A(I,K) are single-index.
  for (auto &s : P.statements)
    for (auto &r : s.refs)
      if (r.array == "A") {
        EXPECT_NE(r.subscripts[1].cls, SubscriptClass::Unknown);
      }
}

TEST(Dgefa, UpdateLoopsAreParallel) {
  Program P = extractSample("paradigm/dgefa.F");
  // A(I,J) = A(I,J) + A(K,J)*A(I,K) inside DO 80 J / DO 35 I (CDOALL).
  const Statement *S = nullptr;
  for (auto &s : P.statements)
    if (s.write >= 0 && s.refs[s.write].array == "A" && s.loops.size() == 3) S = &s;
  ASSERT_NE(S, nullptr);
  auto loops = loopsOf(P, *S);
  EXPECT_FALSE(loops[0]->parallel);
  EXPECT_TRUE(loops[1]->parallel);
  EXPECT_TRUE(loops[2]->parallel);
}

/// The same kernel in C and Fortran: equivalent loop structure, parallelism
/// and subscript classes (C's row-major A[i][j] is Fortran's A(I,J) with the
/// same roles).
TEST(Jacobi, CAndFortranModelsAreEquivalent) {
  Program F = extractSample("paradigm/jacobi.F", {{"NP2", 64}});
  Program C = extractSample("c/jacobi.c", {{"N", 64}});
  auto kernel = [](const Program &P, const std::string &b) -> const Statement * {
    for (auto &s : P.statements)
      if (s.write >= 0 && s.refs[s.write].array == b && s.refs.size() == 6) return &s;
    return nullptr;
  };
  const Statement *fs = kernel(F, "B"), *cs = kernel(C, "B");
  ASSERT_TRUE(fs && cs);
  auto fl = loopsOf(F, *fs), cl = loopsOf(C, *cs);
  ASSERT_EQ(fl.size(), cl.size());
  for (size_t k = 0; k < fl.size(); ++k) {
    EXPECT_EQ(fl[k]->parallel, cl[k]->parallel) << k;
    EXPECT_DOUBLE_EQ(fl[k]->tripCount, cl[k]->tripCount) << k;
  }
  EXPECT_EQ(fs->ops, cs->ops);
  for (size_t r = 0; r < fs->refs.size(); ++r)
    for (size_t d = 0; d < 2; ++d) {
      EXPECT_EQ(fs->refs[r].subscripts[d].cls, cs->refs[r].subscripts[d].cls);
      EXPECT_EQ(fs->refs[r].subscripts[d].variationLevel,
                cs->refs[r].subscripts[d].variationLevel);
    }
  EXPECT_EQ(C.findArray("A")->dims[0].lower, 0);
  EXPECT_EQ(C.findArray("A")->dims[0].extent, 64);
}

/// The three C array forms give the same subscripts: fixed-size globals,
/// VLA parameters and heap arrays addressed a[i*n+j] (delinearised).
TEST(CArrays, VlaAndHeapAreRecoveredAsTwoDimensional) {
  for (const char *file : {"c/jacobi_vla.c", "c/jacobi_heap.c"}) {
    Program P = extractSample(file, {{"N", 64}});
    const Statement *S = nullptr;
    for (auto &s : P.statements)
      if (s.write >= 0 && s.refs.size() == 6) S = &s;
    ASSERT_NE(S, nullptr) << file;
    for (auto &r : S->refs) {
      ASSERT_EQ(r.subscripts.size(), 2u) << file;
      EXPECT_EQ(r.subscripts[0].cls, SubscriptClass::Single) << file;
      EXPECT_EQ(r.subscripts[1].cls, SubscriptClass::Single) << file;
      EXPECT_EQ(indexVar(P, r.subscripts[0]), "i") << file;
      EXPECT_EQ(indexVar(P, r.subscripts[1]), "j") << file;
    }
    auto loops = loopsOf(P, *S);
    EXPECT_FALSE(loops[0]->parallel) << file;
    EXPECT_TRUE(loops.back()->parallel) << file;
  }
}

TEST(Matmul, InnerProductIsASumReduction) {
  Program P = extractSample("c/matmul.c", {{"N", 32}});
  bool found = false;
  for (auto &s : P.statements)
    if (s.reduction == "sum" && s.write >= 0 && s.refs[s.write].array == "C") {
      found = true;
      // The reduction reads A[i][k] and B[k][j].
      EXPECT_EQ(reads(s, "A").size() + reads(s, "B").size(), 2u);
    }
  EXPECT_TRUE(found);
}

TEST(Indirect, PartiEdgeLoopHasIndirectSubscripts) {
  Program P = extractSample("parti/edge.F");
  int indirect = 0;
  for (auto &s : P.statements)
    for (auto &r : s.refs)
      for (auto &sub : r.subscripts)
        if (sub.cls == SubscriptClass::Indirect) {
          ++indirect;
          ASSERT_EQ(sub.index.size(), 1u);
          // NODE(I, 1) and NODE(I, 2): the edge list.
          const Reference &idx = sub.index[0];
          EXPECT_EQ(idx.array, "NODE");
          ASSERT_EQ(idx.subscripts.size(), 2u);
          EXPECT_EQ(idx.subscripts[0].cls, SubscriptClass::Single);
          EXPECT_EQ(indexVar(P, idx.subscripts[0]), "I");
          EXPECT_EQ(idx.subscripts[1].cls, SubscriptClass::Constant);
        }
  EXPECT_GE(indirect, 2);
}

TEST(Reductions, AStartTheFrontEndFoldedIsAStatement) {
  // edge.F: FLUX = 0.0D0, then DO K: FLUX = FLUX + EDGEDATA(I,K) * (VB - VA).
  // mem2reg folds the 0 into the K loop's phi; without a statement for it
  // the model's sum would run on over every edge.
  Program P = extractSample("parti/edge.F", {{"NX", 6}, {"NY", 6}});
  const Statement *start = nullptr, *sum = nullptr;
  for (auto &s : P.statements) {
    if (s.scalarWrite != "FLUX") continue;
    if (s.reduction.empty()) start = &s;
    else sum = &s;
  }
  ASSERT_TRUE(start && sum);
  EXPECT_EQ(start->expr.kind, Expr::Kind::Const);
  EXPECT_EQ(start->expr.value, 0.0);
  // In the edge loop, outside the K loop, before the sum.
  ASSERT_EQ(start->loops.size() + 1, sum->loops.size());
  EXPECT_TRUE(std::equal(start->loops.begin(), start->loops.end(), sum->loops.begin()));
  EXPECT_LT(start - P.statements.data(), sum - P.statements.data());
}

} // namespace

// ---------------------------------------------------------------------------
// Evaluable expressions (analyzer/ValueExprs.cpp): what the validator runs.
// ---------------------------------------------------------------------------

namespace {
bool readsScalar(const Expr &e, const std::string &name) {
  if (e.kind == Expr::Kind::Scalar && e.name == name) return true;
  for (auto &a : e.args)
    if (readsScalar(a, name)) return true;
  return false;
}
} // namespace

TEST(ValueExprs, DgefaPivotRowIsComputed) {
  Program P = extractSample("paradigm/dgefa.F", {{"N", 16}});
  // L = 1 before the search, L = I inside it under the search's guard.
  std::vector<const Statement *> defs;
  for (auto &s : P.statements)
    if (s.scalarWrite == "L") defs.push_back(&s);
  ASSERT_EQ(defs.size(), 2u);
  EXPECT_EQ(defs[0]->expr.kind, Expr::Kind::Const);
  EXPECT_EQ(defs[0]->expr.value, 1);
  EXPECT_EQ(defs[1]->expr.kind, Expr::Kind::Iv);
  EXPECT_EQ(defs[1]->loops.size(), 2u);
  EXPECT_EQ(defs[1]->expr.name, defs[1]->loops.back());
  EXPECT_EQ(defs[1]->guards.size(), 1u);
  for (auto *d : defs) EXPECT_EQ(d->ops, OpCounts{}); // nothing charged
  // Every A(L, .) says how to compute L.
  int unknown = 0;
  for (auto &s : P.statements)
    for (auto &r : s.refs)
      for (auto &sub : r.subscripts)
        if (sub.cls == SubscriptClass::Unknown) {
          ++unknown;
          ASSERT_TRUE(sub.expr) << s.id;
          EXPECT_TRUE(readsScalar(*sub.expr, "L")) << s.id;
        }
  EXPECT_GE(unknown, 5); // A(L,K) read, written and swapped; A(L,J) twice
  EXPECT_TRUE(verify(P).ok());
}

TEST(Guards, AnIfAboveALoopIsEvaluatedOnceWhereItStands) {
  // IF (A(L,K) .EQ. 0.0D0) GO TO 40 stands in DO 60 K, above DO 15 and DO 80
  // whose statements it guards (and which change A(L,K)): a predicate
  // assigned at the IF, once per K, that those statements test.
  Program P = extractSample("paradigm/dgefa.F", {{"N", 16}});
  const Statement *pred = nullptr, *search = nullptr;
  for (auto &s : P.statements)
    if (s.scalarWrite.rfind("if@", 0) == 0)
      (s.loops.size() == 1 ? pred : search) = &s;
  ASSERT_NE(pred, nullptr);
  // The pivot search's IF (DABS(A(I,K)) .LE. DMAX) GO TO 30 too, which
  // guards DMAX = DABS(A(I,K)) and then L = I: tested per statement, L = I
  // would see the DMAX just assigned and never run.
  ASSERT_NE(search, nullptr);
  EXPECT_EQ(search->loops.size(), 2u);
  int afterSearch = 0;
  for (auto &s : P.statements)
    for (auto &g : s.guards)
      if (readsScalar(g.condition, search->scalarWrite)) {
        EXPECT_TRUE(s.scalarWrite == "DMAX" || s.scalarWrite == "L") << s.id;
        ++afterSearch;
      }
  EXPECT_EQ(afterSearch, 2);
  ASSERT_EQ(pred->loops.size(), 1u); // DO 60 K
  ASSERT_EQ(pred->refs.size(), 1u);
  EXPECT_EQ(pred->refs[0].array, "A");
  EXPECT_EQ(pred->refs[0].subscripts[0].cls, SubscriptClass::Unknown);
  EXPECT_TRUE(pred->guards.empty());
  size_t at = size_t(pred - P.statements.data());
  int tested = 0;
  for (size_t i = 0; i < P.statements.size(); ++i) {
    const Statement &s = P.statements[i];
    bool readsPred = false;
    for (auto &g : s.guards) readsPred = readsPred || readsScalar(g.condition, pred->scalarWrite);
    if (!readsPred) continue;
    ++tested;
    EXPECT_GT(i, at) << s.id << " tests the predicate before the IF";
    if (s.loops.size() > 1) { // inside DO 15 or DO 80: no A(L,K) of the guard's
      for (auto &r : s.refs)
        EXPECT_FALSE(r.array == "A" && r.subscripts[0].cls == SubscriptClass::Unknown &&
                     r.subscripts[1].affine.coeffs.size() == 1 &&
                     r.subscripts[1].affine.coeffs.count(pred->loops[0]))
            << s.id;
    }
  }
  // The swap (3), the scaling (1), the row exchange (3) and the update (1).
  EXPECT_EQ(tested, 8);
  EXPECT_TRUE(verify(P).ok());
}

namespace {
/// A guard's value with loop indices (by loop id) and scalars bound; the
/// comparisons and logic guards are made of.
double evalGuard(const Expr &e, const std::map<std::string, double> &at) {
  auto arg = [&](size_t k) { return evalGuard(e.args.at(k), at); };
  switch (e.kind) {
  case Expr::Kind::Const: return e.value;
  case Expr::Kind::Iv: case Expr::Kind::Scalar: case Expr::Kind::Param: return at.at(e.name);
  case Expr::Kind::Op: break;
  default: ADD_FAILURE() << "unexpected leaf in a guard"; return 0;
  }
  const std::string &o = e.name;
  if (o == "+" || o == "*" || o == "and" || o == "or") {
    double v = arg(0);
    for (size_t k = 1; k < e.args.size(); ++k) {
      double w = arg(k);
      v = o == "+" ? v + w : o == "*" ? v * w : o == "and" ? double(v != 0 && w != 0)
                                                            : double(v != 0 || w != 0);
    }
    return v;
  }
  if (o == "-") return arg(0) - arg(1);
  if (o == "mod") return std::fmod(arg(0), arg(1));
  if (o == "neg") return -arg(0);
  if (o == "not") return arg(0) == 0;
  if (o == "lt") return arg(0) < arg(1);
  if (o == "le") return arg(0) <= arg(1);
  if (o == "gt") return arg(0) > arg(1);
  if (o == "ge") return arg(0) >= arg(1);
  if (o == "eq") return arg(0) == arg(1);
  if (o == "ne") return arg(0) != arg(1);
  ADD_FAILURE() << "unexpected operator " << o << " in a guard";
  return 0;
}

bool runs(const Statement &s, const std::map<std::string, double> &at) {
  for (auto &g : s.guards)
    if (evalGuard(g.condition, at) == 0) return false;
  return true;
}

/// The source lines of the warnings of one kind, in order.
std::vector<unsigned> warningLines(const Program &P, const std::string &kind) {
  std::vector<unsigned> lines;
  for (auto &w : P.warnings)
    if (w.kind == kind) lines.push_back(w.loc.line);
  return lines;
}

/// Extracts a program written to a temporary file NAME.
Result<Program> extractText(const std::string &name, const char *text) {
  ExtractOptions o;
  o.input = writeTemp(name, text);
  auto P = extract(o);
  std::remove(o.input.c_str());
  return P;
}
} // namespace

TEST(Guards, AJoinOfGoTosRunsUnderEitherPath) {
  // tred2's label 16 (E(I) = D(L), then D(J) = Z(L,J), Z(I,J) = 0, Z(J,I) =
  // 0 in DO 21) is reached from IF (L .LT. 2) GO TO 16 and, past DO 14,
  // from IF (SCALE .NE. 0.0D0) GO TO 23 not taken; label 23 (H = 0 and the
  // Householder step) only from the second test taken. With N = 16, I = 18
  // - II and L = 17 - II: L < 2 at II = 16 only.
  Program P = extractSample("paradigm/tred2.F", {{"N", 16}});
  std::vector<const Statement *> at16;
  for (unsigned line : {116u, 118u, 119u, 120u})
    for (auto *s : onLine(P, line)) at16.push_back(s);
  ASSERT_EQ(at16.size(), 4u);
  const Statement *at23 = writing(P, "H", 123);
  ASSERT_NE(at23, nullptr);
  const std::string ii = at16[0]->loops[0];
  for (double II : {2, 9, 15, 16})
    for (double scale : {0.0, 0.5}) {
      std::map<std::string, double> at = {{ii, II}, {"SCALE", scale}};
      bool expect16 = II == 16 || scale == 0;
      for (auto *s : at16) EXPECT_EQ(runs(*s, at), expect16) << s->id << " II=" << II << " SCALE=" << scale;
      EXPECT_EQ(runs(*at23, at), !expect16) << "II=" << II << " SCALE=" << scale;
    }
  EXPECT_TRUE(verify(P).ok());
}

TEST(Guards, AShortCircuitOrOfAnArrayTestIsAPredicateInTheDisjunction) {
  // if (i < 3 || A[i] * i == 5.0) A[i] = 1: the second test reads A, so it
  // is a predicate assigned where it stands (only when i >= 3), and the
  // store runs under (i < 3) or (not (i < 3) and the predicate).
  auto P = extractText("dlayout_join.c",
                       "double A[10];\nint main(void) {\n  for (int i = 0; i < 10; i++) {\n"
                       "    A[i] = 0;\n    if (i < 3 || A[i] * i == 5.0) A[i] = 1;\n  }\n"
                       "  return 0;\n}\n");
  ASSERT_TRUE(P.ok()) << P.error().str();
  const Statement *pred = nullptr, *store = nullptr;
  for (auto &s : P->statements) {
    if (s.scalarWrite.rfind("if@", 0) == 0) pred = &s;
    if (s.write >= 0 && s.expr.kind == Expr::Kind::Const && s.expr.value == 1) store = &s;
  }
  ASSERT_NE(pred, nullptr);
  ASSERT_NE(store, nullptr);
  ASSERT_EQ(pred->refs.size(), 1u);
  EXPECT_EQ(pred->refs[0].array, "A");
  const std::string i = store->loops[0];
  for (double iv : {0, 2, 3, 7})
    for (double p : {0, 1}) {
      std::map<std::string, double> at = {{i, iv}, {pred->scalarWrite, p}};
      EXPECT_EQ(runs(*pred, at), iv >= 3) << "i=" << iv;
      EXPECT_EQ(runs(*store, at), iv < 3 || p != 0) << "i=" << iv << " predicate " << p;
    }
  EXPECT_TRUE(verify(*P).ok());
}

TEST(Guards, EachCaseOfASwitchRunsForItsValues) {
  // Fortran's SELECT CASE and C's switch (case 1 falling through into case
  // 2): each statement runs for the values of its cases, the default for
  // none of the others; the loop's only real exit is its test (the
  // switch's impossible default is no exit), so its trip count is known.
  auto F = extractText("dlayout_select.f90",
                       "program sel\n  integer :: i\n  double precision :: a(12)\n"
                       "  do i = 1, 12\n    select case (mod(i, 3))\n    case (0)\n"
                       "      a(i) = 1.0d0\n    case (1)\n      a(i) = 2.0d0\n"
                       "    case default\n      a(i) = 3.0d0\n    end select\n  end do\n"
                       "end program\n");
  ASSERT_TRUE(F.ok()) << F.error().str();
  auto C = extractText("dlayout_switch.c",
                       "double A[12];\nint main(void) {\n  for (int i = 0; i < 12; i++) {\n"
                       "    switch (i % 3) {\n    case 0: A[i] = 1; break;\n"
                       "    case 1: A[i] = 2;\n    case 2: A[i] += 3; break;\n    }\n  }\n"
                       "  return 0;\n}\n");
  ASSERT_TRUE(C.ok()) << C.error().str();
  for (const Program *P : {&*F, &*C}) {
    ASSERT_EQ(P->loops.size(), 1u);
    EXPECT_EQ(P->loops[0].tripCount, 12) << P->loops[0].upper.text;
    ASSERT_EQ(P->statements.size(), 3u);
  }
  const std::string fi = F->loops[0].id, ci = C->loops[0].id;
  for (double i = 0; i < 12; ++i) {
    const double m = std::fmod(i + 1, 3); // Fortran's I = i + 1
    EXPECT_EQ(runs(F->statements[0], {{fi, i + 1}}), m == 0) << i + 1;
    EXPECT_EQ(runs(F->statements[1], {{fi, i + 1}}), m == 1) << i + 1;
    EXPECT_EQ(runs(F->statements[2], {{fi, i + 1}}), m == 2) << i + 1;
    const double r = std::fmod(i, 3);
    EXPECT_EQ(runs(C->statements[0], {{ci, i}}), r == 0) << i;
    EXPECT_EQ(runs(C->statements[1], {{ci, i}}), r == 1) << i;
    EXPECT_EQ(runs(C->statements[2], {{ci, i}}), r != 0) << i; // case 1 falls through
  }
}

TEST(Guards, PathsThatCannotBeCombinedAreSaidSo) {
  // A(I) = 1 at `join` is reached from the test of i and past an inner loop
  // that leaves to two places (a goto out of it and its break): no
  // condition is formed; extract says so, on the statement's line.
  auto P = extractText("dlayout_paths.c",
                       "double A[10], B[10];\nint main(void) {\n"
                       "  for (int i = 0; i < 10; i++) {\n    if (i < 3) goto join;\n"
                       "    for (int j = 0; j < 10; j++) {\n      if (B[j] > 1) goto skip;\n"
                       "      if (B[j] < 0) break;\n    }\n    if (A[i] > 0) goto skip;\n"
                       "  join:\n    A[i] = 1;\n  skip:\n    ;\n  }\n  return 0;\n}\n");
  ASSERT_TRUE(P.ok()) << P.error().str();
  EXPECT_EQ(warningLines(*P, "control"), std::vector<unsigned>{11});
}

TEST(Loops, AnAssertIsNoExitOfItsLoop) {
  // assert(B[i] >= 0) leaves the loop only to end the program: the loop's
  // trip count is its test's (it was unknown, 10 assumed), and
  // __assert_fail touches no array (no warning).
  auto P = extractText("dlayout_assert.c",
                       "#include <assert.h>\ndouble A[12], B[12];\nint main(void) {\n"
                       "  for (int i = 0; i < 12; i++) {\n    assert(B[i] >= 0);\n"
                       "    A[i] = B[i] + 1;\n  }\n  return 0;\n}\n");
  ASSERT_TRUE(P.ok()) << P.error().str();
  ASSERT_EQ(P->loops.size(), 1u);
  EXPECT_EQ(P->loops[0].tripCount, 12);
  EXPECT_EQ(P->loops[0].upper.kind, Bound::Kind::Affine);
  for (auto &w : P->warnings) ADD_FAILURE() << w.kind << ": " << w.message;
}

TEST(Loops, ALoopLeftEarlyIsSequentialAndSaysSo) {
  // DO I = 1, 16 with IF (A(I) < 0) EXIT: no dependence is carried, yet
  // whether an iteration runs depends on the ones before. The loop runs to
  // its bound in the model (16, not an assumed 10), is not parallel, and
  // extract warns on its line; the loop before it stays parallel.
  auto P = extractText("dlayout_exit.f90",
                       "program ex\n  integer :: i\n  double precision :: a(16), b(16)\n"
                       "  do i = 1, 16\n    a(i) = 8 - i\n    b(i) = 0\n  end do\n"
                       "  do i = 1, 16\n    if (a(i) < 0) exit\n    b(i) = a(i)\n  end do\n"
                       "end program\n");
  ASSERT_TRUE(P.ok()) << P.error().str();
  ASSERT_EQ(P->loops.size(), 2u);
  EXPECT_TRUE(P->loops[0].parallel);
  EXPECT_FALSE(P->loops[1].parallel);
  EXPECT_EQ(P->loops[1].tripCount, 16);
  EXPECT_EQ(warningLines(*P, "early-exit"), std::vector<unsigned>{8});
}

TEST(ValueExprs, BoundsReadArrays) {
  Program R = extractSample("kali/relax.F", {{"NX", 8}, {"NY", 8}});
  int withExpr = 0;
  for (auto &l : R.loops)
    if (l.upper.kind == Bound::Kind::NonAffine) {
      ASSERT_TRUE(l.upper.expr) << l.id;
      ASSERT_EQ(l.upper.exprRefs.size(), 1u);
      EXPECT_EQ(l.upper.exprRefs[0].array, "COUNT");
      EXPECT_EQ(l.upper.exprRefs[0].subscripts[0].cls, SubscriptClass::Single);
      ++withExpr;
    }
  EXPECT_EQ(withExpr, 1);
  Program S = extractSample("zima/spmv.F", {{"N", 12}});
  for (auto &l : S.loops)
    for (auto *b : {&l.lower, &l.upper})
      if (b->kind == Bound::Kind::NonAffine) {
        ASSERT_TRUE(b->expr) << l.id;
        ASSERT_EQ(b->exprRefs.size(), 1u);
        EXPECT_EQ(b->exprRefs[0].array, "R");
      }
  // olda's DO MIJ = 1, MAX with MAX = MIN(MRS, NIJ): from the exit count.
  Program O = extractSample("paradigm/olda.F", {{"NUM", 4}, {"MORB", 4}});
  for (auto &l : O.loops)
    for (auto *b : {&l.lower, &l.upper})
      if (b->kind == Bound::Kind::NonAffine) {
        EXPECT_TRUE(b->expr) << l.id << " " << b->text;
      }
}

TEST(ValueExprs, CountersBecomeStatements) {
  Program P = extractSample("parti/edge.F", {{"NX", 6}, {"NY", 6}});
  int increments = 0;
  for (auto &s : P.statements)
    if (s.scalarWrite == "IE" && s.expr.kind == Expr::Kind::Op) {
      ++increments;
      EXPECT_EQ(s.loops.size(), 2u);
      EXPECT_TRUE(readsScalar(s.expr, "IE"));
    }
  EXPECT_EQ(increments, 3); // the three edge generators
  for (auto &s : P.statements)
    if (s.write >= 0 && s.refs[s.write].array == "NODE") {
      const Subscript &e = s.refs[s.write].subscripts[0];
      ASSERT_EQ(e.cls, SubscriptClass::Unknown) << s.id;
      ASSERT_TRUE(e.expr) << s.id;
      EXPECT_TRUE(readsScalar(*e.expr, "IE")) << s.id;
      // Written after the increment that precedes it in the source.
      const Statement *inc = nullptr;
      for (auto &o : P.statements) {
        if (&o == &s) break;
        if (o.scalarWrite == "IE") inc = &o;
      }
      ASSERT_NE(inc, nullptr);
      EXPECT_EQ(inc->loops, s.loops);
    }
}
