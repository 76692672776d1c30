//===- costmodels/ProgramAnalysis.cpp - Layout-independent facts ----------===//
//
// Top-down: analyzeProgram() binds parameters, evaluates every loop's
// expected bounds (LoopTable, ExpectedBounds.h), puts each subscript in
// canonical form, and asks DependenceLevels for Figs. 3.3 and 4.4.
//
//===----------------------------------------------------------------------===//

#include "costmodels/ProgramAnalysis.h"
#include "costmodels/ExpectedBounds.h"
#include "costmodels/GuardFraction.h"
#include "costmodels/DependenceLevels.h"
#include "costmodels/LoopDistribution.h"
#include "model/Enumeration.h"
#include "model/PrivateScalars.h"
#include "model/Reduction.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <set>

namespace dlayout::cost {

using detail::boundForms;
using detail::LoopTable;

namespace {

std::string upper(std::string s) {
  for (auto &c : s)
    c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

//===----------------------------------------------------------------------===//
// Subscripts in canonical form (section 3.1)
//===----------------------------------------------------------------------===//

Result<SubscriptForm> canonical(const Subscript &s, const Statement &st,
                                const Program &p, const SourceLoc &loc) {
  SubscriptForm f;
  f.source = &s;
  f.cls = s.cls;
  for (const auto &[loop, alpha] : s.affine.coeffs) {
    auto it = std::find(st.loops.begin(), st.loops.end(), loop);
    if (it == st.loops.end())
      return makeError("subscript uses the index of loop " + loop +
                           ", which does not enclose statement " + st.id,
                       loc);
    f.terms.push_back({int(it - st.loops.begin()), alpha});
  }
  std::sort(f.terms.begin(), f.terms.end());
  f.constant = s.affine.constant;
  for (const auto &[name, c] : s.affine.params) {
    auto it = p.params.find(name);
    if (it == p.params.end())
      return detail::unboundParameter(name, loc);
    f.constant += c * it->second;
  }
  int innermost = f.terms.empty() ? 0 : f.terms.back().first + 1;
  switch (s.cls) {
  case SubscriptClass::Constant:
  case SubscriptClass::Single:
  case SubscriptClass::Multiple:
    // The class follows from the canonical form.
    f.cls = f.terms.empty()       ? SubscriptClass::Constant
            : f.terms.size() == 1 ? SubscriptClass::Single
                                  : SubscriptClass::Multiple;
    f.varLevel = innermost;
    break;
  case SubscriptClass::Indirect:
    if (!s.index.empty())
      f.indexArray = s.index.front().array;
    [[fallthrough]];
  case SubscriptClass::Unknown:
    f.varLevel = std::min<int>(int(s.variationLevel), int(st.loops.size()));
    // "alpha1 * i1 + x", x varying less deeply: regular in the i1 loop.
    if (f.terms.size() == 1 && f.terms[0].first + 1 >= f.varLevel) {
      f.knownPart = true;
      int known = f.terms[0].first + 1;
      // Where x varies: the recorded level when it is outside the known
      // part's loop, else (not recorded) the loop just outside it.
      f.unknownLevel = f.varLevel < known ? f.varLevel : known - 1;
      f.varLevel = known;
    } else {
      f.varLevel = std::max(f.varLevel, innermost);
    }
    break;
  }
  return f;
}

Result<RefFacts> referenceFacts(const Reference &r, const Statement &st,
                                const Program &p, const ProgramFacts &pf) {
  RefFacts rf;
  rf.ref = &r;
  rf.array = pf.findArray(r.array);
  if (rf.array < 0)
    return makeError("statement " + st.id + " refers to an unknown array " +
                         r.array,
                     r.loc.known() ? r.loc : st.loc);
  if (pf.arrays[rf.array]->dims.size() != r.subscripts.size())
    return makeError(
        "statement " + st.id + ": reference to " + r.array + " has " +
            std::to_string(r.subscripts.size()) + " subscripts for " +
            std::to_string(pf.arrays[rf.array]->dims.size()) + " dimensions",
        r.loc.known() ? r.loc : st.loc);
  for (const auto &s : r.subscripts) {
    auto f = canonical(s, st, p, r.loc.known() ? r.loc : st.loc);
    if (!f)
      return f.error();
    rf.subs.push_back(std::move(*f));
  }
  return rf;
}

bool sameReference(const Reference &a, const Reference &b) {
  return a.array == b.array && a.subscripts == b.subscripts;
}

bool writesArrayInside(const Program &p, const std::string &array,
                       const std::string &loop) {
  for (const auto &s : p.statements) {
    if (s.write < 0 || size_t(s.write) >= s.refs.size() ||
        s.refs[s.write].array != array)
      continue;
    if (std::find(s.loops.begin(), s.loops.end(), loop) != s.loops.end())
      return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Per-statement facts
//===----------------------------------------------------------------------===//

} // namespace

double expectedValue(const StatementFacts &sf, const SubscriptForm &h) {
  double value = double(h.constant);
  for (const auto &[q, a] : h.terms) {
    const LoopFacts &lq = sf.loops[size_t(q)];
    value += double(a) * (lq.first + double(lq.signedStep()) * (lq.trips - 1) / 2);
  }
  return value;
}

std::optional<double> oneWritingIteration(const StatementFacts &sf, const RefFacts &r, int pos) {
  if (!sf.hasLhs || sf.lhs.array != r.array)
    return std::nullopt;
  for (size_t k = 0; k < r.subs.size() && k < sf.lhs.subs.size(); ++k) {
    const auto &g = sf.lhs.subs[k], &h = r.subs[k];
    bool lhsInjective = g.cls == SubscriptClass::Single &&
                        g.terms.size() == 1 && g.terms[0].first == pos;
    bool rhsFixed = (h.cls == SubscriptClass::Constant ||
                     h.cls == SubscriptClass::Single ||
                     h.cls == SubscriptClass::Multiple) &&
                    h.alphaAt(pos) == 0 && h.varLevel - 1 < pos;
    if (lhsInjective && rhsFixed)
      return (expectedValue(sf, h) - double(g.constant)) / double(g.terms[0].second);
  }
  return std::nullopt;
}

namespace {

/// Section 3.3: the overlap cases, when S's only flow dependences are on
/// itself. Only the dependences that can constrain S's innermost sequential
/// loop count: those carried by it or by a loop inside it, or
/// loop-independent within it (one carried by an outer loop is satisfied
/// before the loop starts).
OverlapFacts overlapFacts(const StatementFacts &sf, const DependenceLevels &dl,
                          int s) {
  OverlapFacts o;
  const auto &in = dl.into(s);
  int rec = 0; // 1-based level of the innermost sequential loop
  for (size_t l = 0; l < sf.parallel.size(); ++l)
    if (!sf.parallel[l])
      rec = int(l) + 1;
  bool onlySelf = false;
  for (const Dependence *d : in) {
    if (d->kind != Dependence::Kind::Flow || dl.nestingLevel(*d) < rec)
      continue;
    if (d->from != d->to)
      return o;
    onlySelf = true;
  }
  if (!onlySelf || !sf.hasLhs)
    return o;
  for (const Dependence *d : in) {
    if (d->kind != Dependence::Kind::Flow || !d->carriedBy)
      continue;
    int level = dl.nestingLevel(*d);
    int pos = level - 1;
    if (pos < 0 || sf.parallel[pos])
      continue;
    for (size_t k = 0; k < sf.lhs.subs.size(); ++k) {
      const auto &g = sf.lhs.subs[k];
      if (g.cls != SubscriptClass::Single || g.terms[0].first != pos)
        continue;
      if (size_t(pos) < d->distance.size() && d->distance[pos] &&
          *d->distance[pos] != 0) {
        o.kind = OverlapFacts::Constant;
        o.loop = pos;
        o.dim = int(k);
        o.distance = std::llabs(*d->distance[pos]);
        return o;
      }
      // A(i) = F(A(k)): a constant subscript in the same dimension of a
      // read of the same array names the source iteration.
      for (const auto &r : sf.rhs) {
        if (r.ref.array != sf.lhs.array)
          continue;
        // The read's subscript must not vary in the loop; when it varies
        // in an outer one (A(I,K) = F(A(K,K)) in loop I), the source is
        // taken at the outer indices' expected values, as inner bounds are.
        const auto &h = r.ref.subs[k];
        bool invariant = h.cls == SubscriptClass::Constant ||
                         ((h.cls == SubscriptClass::Single ||
                           h.cls == SubscriptClass::Multiple) &&
                          h.alphaAt(pos) == 0 && h.varLevel - 1 < pos);
        if (!invariant)
          continue;
        double value = expectedValue(sf, h);
        int64_t alpha = g.terms[0].second;
        double src = (value - double(g.constant)) / double(alpha);
        if (alpha != 0 && (!h.terms.empty() || src == std::floor(src))) {
          o.kind = OverlapFacts::OneToMany;
          o.loop = pos;
          o.dim = int(k);
          o.source = src; // the index value j_l = d_l
          o.symbolicSource = !h.terms.empty();
          return o;
        }
      }
    }
  }
  return o;
}

void collectRefs(const Expr &e, std::set<int> &out) {
  if (e.kind == Expr::Kind::Ref)
    out.insert(e.refIndex);
  for (const Expr &a : e.args)
    collectRefs(a, out);
}

/// The innermost level (1-based) at which any subscript of `r` varies.
int variationLevel(const RefFacts &r) {
  int v = 0;
  for (const auto &f : r.subs)
    v = std::max({v, f.varLevel, f.unknownLevel});
  return v;
}


/// The thesis's placement (PlacementSource::SequentialLoops) with section
/// 3.3.1: a loop whose only recurrence for S is a one-to-many dependence is
/// split into a parallelizable initial part, the source iteration and a
/// parallelizable final part, so the communication of the element the
/// source iteration writes is combined over the parts: placed in the next
/// sequential loop out, not once per iteration.
void peelOneToMany(StatementFacts &sf, const std::vector<char> &doall) {
  if (sf.overlap.kind != OverlapFacts::OneToMany)
    return;
  int pos = sf.overlap.loop;
  int outer = 0; // the innermost sequential loop outside `pos`, 1-based
  for (int l = 0; l < pos; ++l)
    if (!doall[l])
      outer = l + 1;
  for (auto &rh : sf.rhs) {
    if (rh.commLevel != pos + 1 || !oneWritingIteration(sf, rh.ref, pos))
      continue;
    rh.commLevel = outer;
    rh.splitLoop = pos;
    for (size_t l = 0; l < rh.type2.size(); ++l)
      rh.type2[l] = int(l) + 1 == outer ||
                    (int(l) + 1 < outer && !doall[l]);
  }
}

/// Whether dependence d joins instances that one processor runs under any
/// layout (StatementFacts::ownerLocal): each of its statements writes d's
/// array at its lhs, references it nowhere else, and runs at that element's
/// owner (not a reduction formed at a home operand, model/Reduction.h).
/// `atHome`: by statement, whether it is such a reduction.
bool ownerLocal(const Program &p, const DependenceLevels &dl, const std::vector<char> &atHome,
                const Dependence &d) {
  for (const std::string &id : {d.from, d.to}) {
    const int t = dl.statementIndex(id);
    if (t < 0)
      return false;
    const Statement &st = p.statements[size_t(t)];
    if (st.write < 0 || size_t(st.write) >= st.refs.size())
      return false;
    const Reference &lhs = st.refs[size_t(st.write)];
    if (lhs.array != d.variable || lhs.indirect() || atHome[size_t(t)])
      return false;
    for (const Reference &r : st.refs)
      if (r.array == d.variable && r.subscripts != lhs.subscripts)
        return false;
  }
  return true;
}

/// The innermost loop position inside which some communication of the
/// statement may be placed under some layout, -1 where none: its
/// references' Fig. 4.4 placement (RhsFacts::type2) and the loops an
/// unknown part of a subscript varies in (referenceTerms keeps the
/// communication inside them where the dimension is distributed). A read of
/// the element the statement writes needs none; a reduction's partial
/// results may meet inside any of its loops.
int innermostCommunication(const StatementFacts &sf) {
  const int m = int(sf.loops.size());
  if (sf.scalarReduction || sf.hasHome || !sf.alsoRunBy.empty())
    return m - 1;
  int innermost = -1;
  auto unknownPart = [&](const RefFacts &ref) {
    for (const SubscriptForm &f : ref.subs)
      if (f.knownPart)
        for (int l = std::max(f.unknownLevel, 1); l < f.varLevel; ++l)
          innermost = std::max(innermost, l - 1);
  };
  bool reads = false;
  for (const RhsFacts &rf : sf.rhs) {
    if (sf.hasLhs && rf.ref.array == sf.lhs.array && rf.ref.ref && sf.lhs.ref &&
        rf.ref.ref->subscripts == sf.lhs.ref->subscripts)
      continue; // the written element: its owner holds it
    reads = true;
    for (size_t l = 0; l < rf.type2.size(); ++l)
      if (rf.type2[l])
        innermost = std::max(innermost, int(l));
    unknownPart(rf.ref);
  }
  if (reads && sf.hasLhs)
    unknownPart(sf.lhs);
  return std::min(innermost, m - 1);
}

Result<StatementFacts> statementFacts(const Program &p, int s,
                                      const ProgramFacts &pf, LoopTable &lt,
                                      const DependenceLevels &dl,
                                      const AnalysisOptions &opts,
                                      const std::vector<std::vector<size_t>> &privateReaders,
                                      const std::vector<int> &scalarRegions,
                                      const std::vector<char> &atHome,
                                      std::set<std::string> &guardsSeen) {
  const Statement &st = p.statements[s];
  StatementFacts sf;
  sf.stmt = &st;
  sf.rho = st.probability;
  std::map<std::string, int> positions; // the loops enclosing the next one
  for (const auto &id : st.loops) {
    auto v = lt.get(id);
    if (!v)
      return v.error();
    LoopFacts lf;
    lf.loop = p.findLoop(id);
    lf.trips = v->trips;
    lf.range = v->range;
    lf.step = v->step;
    lf.first = v->first;
    lf.doall = lf.loop->parallel;
    lf.lower = boundForms(lf.loop->lower, p, positions);
    lf.upper = boundForms(lf.loop->upper, p, positions);
    if (lf.lower.empty() || lf.upper.empty())
      lf.lower.clear(), lf.upper.clear();
    lf.lowerMax = lf.loop->lower.kind == Bound::Kind::Max;
    lf.upperMax = lf.loop->upper.kind == Bound::Kind::Max;
    positions[id] = int(sf.loops.size());
    sf.loops.push_back(lf);
  }
  int m = int(sf.loops.size());
  if (sf.rho == 1)
    sf.guardsHold = guardFraction(st, sf.loops, p.params);

  // The element whose owner carries S out: its own lhs, or for a private
  // scalar (model/PrivateScalars.h) the lhs of the array assignment that
  // reads it in the same iteration -- its computation is divided like that
  // statement's and its operands are fetched for that statement's owners.
  int owner = privateScalarStandIn(privateReaders, p, size_t(s));
  if (owner >= 0) {
    const Statement &os = p.statements[owner];
    if (size_t(os.write) >= os.refs.size())
      return makeError("statement " + os.id + ": write index out of range",
                       os.loc);
    auto lhs = referenceFacts(os.refs[os.write], st, p, pf);
    if (!lhs)
      return lhs.error();
    sf.lhs = std::move(*lhs);
    sf.hasLhs = true;
    // The other array assignments that read it: their owners run it too.
    for (size_t o : privateScalarStandIns(privateReaders, p, size_t(s))) {
      const Statement &other = p.statements[o];
      if (int(o) == owner || size_t(other.write) >= other.refs.size())
        continue;
      auto also = referenceFacts(other.refs[other.write], st, p, pf);
      if (!also)
        return also.error();
      sf.alsoRunBy.push_back(std::move(*also));
    }
  }
  // A private scalar read by a reduction into an array element runs where
  // that reduction's instances run: at its home operand's owners.
  bool standInHome = false;
  if (owner >= 0 && owner != s && opts.placement != PlacementSource::SequentialLoops) {
    const ArrayReduction ar = arrayReduction(p, size_t(owner));
    if (ar.planned()) {
      auto home = referenceFacts(p.statements[owner].refs[size_t(ar.home)], st, p, pf);
      if (!home)
        return home.error();
      sf.home = std::move(*home);
      sf.hasHome = standInHome = true;
    }
  }
  // A reduction that belongs to a private scalar runs whole where its
  // readers run: no partial results, no Reduction (model/PrivateScalars.h).
  const bool privateReduction = owner >= 0 && owner != s;
  sf.scalarReduction = st.write < 0 && !st.reduction.empty() && !privateReduction;
  // Beyond the thesis (not under its placement): the reduction's region.
  const bool conservative = opts.placement == PlacementSource::SequentialLoops;
  // A reduction into an array element forms its instances at its home
  // operand's owners (model/Reduction.h), not under the thesis's placement.
  const ArrayReduction arrayPlan =
      sf.hasLhs && !conservative ? arrayReduction(p, size_t(s)) : ArrayReduction{};
  const int region = arrayPlan.planned() ? arrayPlan.region
                     : sf.scalarReduction && !conservative ? scalarRegions[size_t(s)]
                                                           : -1;
  sf.reductionRegion = region;

  // Fig. 3.3: parallel with respect to the loops deeper than lmax, and to
  // the doall loops outside it (brought inward by interchange).
  int lmax = dl.recurrenceLevel(s, opts.parallelReductions);
  int deepestSequential = 0; // SequentialLoops: every such loop recurs
  std::vector<char> doall(m);
  for (int l = 0; l < m; ++l) {
    doall[l] = sf.loops[l].doall ||
               (!conservative && dl.doallAfterDistribution(s, l + 1));
    if (!sf.loops[l].doall)
      deepestSequential = l + 1;
  }
  for (int l = 0; l < m; ++l)
    sf.parallel.push_back(conservative ? bool(doall[l])
                                       : l + 1 > lmax || doall[l]);

  // References read only by a guard (an IF around the statement) are the
  // condition's, not the statement's: the condition is evaluated where the
  // IF stands, once per iteration of the loops its data vary in, however
  // many statements it guards. Their communication is placed at that
  // level and costed once per guard and loop nest (with the first statement
  // it guards there, whose owners stand for the others'). The thesis saw no
  // control dependences (Parafrase-2 had none, section 3.1; conditionals
  // enter only through rho(S)), so under its placement guards cost nothing.
  std::set<int> valueRefs;
  collectRefs(st.expr, valueRefs);
  bool costComm = !sf.replicatedScalar() || opts.scalarCommunication;
  const int enumerable =
      conservative ? 0 : enumerationLevel(p, size_t(s), privateReaders[size_t(s)]);
  bool homeTaken = false;
  for (size_t i = 0; i < st.refs.size() && costComm; ++i) {
    const Reference &r = st.refs[i];
    if (int(i) == st.write || r.access != Reference::Access::Read)
      continue;
    const bool guardOnly = !st.guards.empty() && !valueRefs.count(int(i));
    if (guardOnly && conservative)
      continue;
    auto rf = referenceFacts(r, st, p, pf);
    if (!rf)
      return rf.error();
    RhsFacts rh;
    rh.ref = std::move(*rf);
    // Fig. 4.4 and Fig. 4.8: loops 1..lmax are type-2, except the doall
    // loops outside L_lmax, which are brought inside and combined over.
    rh.commLevel = std::min(dl.communicationLevel(s, r.array), m);
    if (conservative)
      rh.commLevel = std::max(rh.commLevel, deepestSequential);
    // Section 3.3's one-to-many recurrence (A(I,K) = F(A(K,K)) in loop I):
    // when the only dependence that keeps the communication inside loop l is
    // S's own, through an element one iteration of l writes, peeling that
    // iteration leaves l free of it; the element is multicast once after the
    // peeled iteration, outside l, instead of once per iteration.
    if (!conservative) {
      int self = dl.communicationLevelFromSelf(s, r.array);
      int others = dl.communicationLevelFromOthers(s, r.array);
      if (self > others && rh.commLevel == self &&
          oneWritingIteration(sf, rh.ref, self - 1)) {
        rh.commLevel = std::max(others, self - 1);
        rh.splitLoop = self - 1;
      }
    }
    // No further out than the instances can be enumerated
    // (model/Enumeration.h): olda's V(MS,ML) in DO ML = LMIN, LMAX is
    // fetched inside the loop that assigns LMIN and LMAX.
    rh.commLevel = std::max(rh.commLevel, std::min(enumerable, m));
    if (guardOnly) {
      int v = variationLevel(rh.ref);
      std::string key = r.loc.file + ":" + std::to_string(r.loc.line) + ":" +
                        std::to_string(r.loc.col) + ":" + r.array;
      for (const auto &l : st.loops)
        key += "/" + l;
      if (!guardsSeen.insert(key).second)
        continue; // costed with an earlier statement of the same loops
      rh.commLevel = std::min(rh.commLevel, v);
    }
    const bool arrayHome = arrayPlan.planned() && int(i) == arrayPlan.home;
    if (arrayHome || (sf.scalarReduction && !conservative && !homeTaken && !r.indirect())) {
      rh.home = true;
      homeTaken = true;
      sf.hasHome = true;
      sf.home = rh.ref;
      // The partial results are combined once per execution of the
      // reduction's region (model/PrivateScalars.h), as in the executor:
      // the loops around it are type-2 for the home operand (doall or not),
      // whatever the dependences allow. tred2's G = G + Z(K,J)*D(K) is a
      // fresh sum every J: one Reduction per J, not one for the whole loop.
      if (region >= 0)
        rh.commLevel = std::max(rh.commLevel, region);
    }
    for (int l = 0; l < m; ++l)
      rh.type2.push_back(l + 1 == rh.commLevel ||
                         (l + 1 < rh.commLevel && !doall[l]) ||
                         (rh.home && l < region));
    // Tables 4.2/4.3's "reduction op": the operand's partial results are
    // combined by a Reduction. Beyond the thesis, a reduction into an array
    // element combines only its home operand's: the thesis prices every
    // operand as if the instances were formed at its own owner, which for
    // two distributed operands (matmul's A(I,K) and B(K,J)) no execution
    // does at once. The other operands are brought to the home; without a
    // home (model/Reduction.h), the statement runs owner-computes.
    // (hasLhs also holds for a private scalar, whose stand-in's lhs it is.)
    const bool selfRead = st.write >= 0 && size_t(st.write) < st.refs.size() &&
                          sameReference(r, st.refs[size_t(st.write)]);
    // Into a scalar, likewise: the instances run at the home's owners, the
    // other operands brought there, one Reduction combining the partial
    // results (the executor's MPI_Allreduce per region), not one per
    // operand.
    const bool scalarOther = sf.scalarReduction && !conservative && homeTaken && !rh.home;
    rh.reductionOperand = !st.reduction.empty() && !privateReduction && !selfRead &&
                          !scalarOther && (conservative || !sf.hasLhs || arrayHome);
    rh.toHome = (arrayPlan.planned() && !arrayHome && !selfRead) || standInHome || scalarOther;

    // Section 4.5.3, step 1 and 2, for every candidate level k.
    rh.pipelineOk.assign(m, false);
    rh.bdist.assign(m, 0);
    for (int k = 1; k < m; ++k) {
      bool ok = true;
      int64_t bdist = 0;
      for (const Dependence *d : dl.into(s)) {
        if (d->variable != r.array)
          continue;
        const Statement *src = p.findStatement(d->from);
        if (!src || std::find(src->loops.begin(), src->loops.end(),
                              st.loops[k - 1]) == src->loops.end())
          continue;
        if (size_t(k) >= d->direction.size())
          continue; // the source is not inside L_k: nothing at level k
        auto dir = normaliseDirection(d->direction[k]);
        bool known = size_t(k) < d->distance.size() && d->distance[k];
        if (dir != "=" && !known)
          ok = false;
        if (d->kind == Dependence::Kind::Flow && dir == ">" && known)
          bdist = std::max<int64_t>(bdist, std::llabs(*d->distance[k]));
      }
      rh.pipelineOk[k] = ok;
      rh.bdist[k] = bdist;
    }

    for (const auto &f : rh.ref.subs)
      if (!f.indexArray.empty())
        for (int l = 0; l < m && rh.indexWrittenIn < 0; ++l)
          if (writesArrayInside(p, f.indexArray, st.loops[l]))
            rh.indexWrittenIn = l;
    sf.rhs.push_back(std::move(rh));
  }

  // Beyond the thesis, which prices only the data an indirect reference
  // reads (Table 4.4): its index values are read too. X(IA(I)) needs IA(I)
  // where the instance runs, and an indirect left-hand side Y(IA(I)) needs
  // IA(I) on every processor, each of which must learn whether it owns the
  // element written (the executor's inspector). Likewise the elements a
  // loop bound reads (spmv's DO K = R(I), R(I+1)-1) reach every processor,
  // each of which enumerates the instances to learn which are its own (the
  // thesis took such counts from the user, section 3.2.1). Each distinct
  // reference is priced as a read of its own, placed by the dependences on
  // its array (edge's NODE(I,1), written before the sweeps: once).
  std::vector<const Reference *> extraReads;
  auto addRead = [&](const Reference &ir, bool everyProcessor) -> Status {
    auto same = [&](const Reference *o) { return sameReference(*o, ir); };
    bool readAsData = false; // priced above already
    for (size_t i = 0; i < st.refs.size(); ++i)
      readAsData = readAsData || (int(i) != st.write && same(&st.refs[i]));
    if (readAsData || std::any_of(extraReads.begin(), extraReads.end(), same))
      return success();
    extraReads.push_back(&ir);
    auto rf = referenceFacts(ir, st, p, pf);
    if (!rf)
      return rf.error();
    RhsFacts rh;
    rh.ref = std::move(*rf);
    rh.everyProcessor = everyProcessor;
    rh.toHome = !everyProcessor && (arrayPlan.planned() || standInHome);
    rh.commLevel = std::max(std::min(dl.communicationLevel(s, ir.array), m),
                            std::min(enumerable, m));
    for (int l = 0; l < m; ++l)
      rh.type2.push_back(l + 1 == rh.commLevel || (l + 1 < rh.commLevel && !doall[l]));
    rh.pipelineOk.assign(m, false);
    rh.bdist.assign(m, 0);
    sf.rhs.push_back(std::move(rh));
    return success();
  };
  auto addIndexRefs = [&](const Reference &r, bool everyProcessor) -> Status {
    for (const Subscript &sub : r.subscripts)
      if (sub.cls == SubscriptClass::Indirect && !sub.index.empty())
        if (auto e = addRead(sub.index.front(), everyProcessor); !e)
          return e;
    return success();
  };
  if (!conservative && costComm) {
    if (st.write >= 0 && size_t(st.write) < st.refs.size())
      if (auto e = addIndexRefs(st.refs[size_t(st.write)], true); !e)
        return e.error();
    for (size_t i = 0; i < st.refs.size(); ++i)
      if (int(i) != st.write && st.refs[i].access == Reference::Access::Read)
        if (auto e = addIndexRefs(st.refs[i], false); !e)
          return e.error();
    for (const LoopFacts &lf : sf.loops)
      for (const Bound *b : {&lf.loop->lower, &lf.loop->upper})
        for (const Reference &br : b->exprRefs)
          if (auto e = addRead(br, true); !e)
            return e.error();
  }

  // Loops sequential only through arrays the statement itself references:
  // a layout that holds those arrays whole on every processor makes them
  // parallel (StatementFacts::sequentialThrough).
  sf.sequentialThrough.assign(size_t(m), {});
  for (int l = 0; l < m && !conservative; ++l) {
    if (sf.parallel[l])
      continue;
    std::vector<int> through;
    for (const std::string &v : dl.sequentialThrough(s, l + 1, opts.parallelReductions)) {
      int a = -1;
      if (sf.hasLhs && pf.arrays[size_t(sf.lhs.array)]->name == v)
        a = sf.lhs.array;
      for (const RhsFacts &rf : sf.rhs)
        if (pf.arrays[size_t(rf.ref.array)]->name == v)
          a = rf.ref.array;
      if (a < 0) { // a scalar, or an array the statement does not reference
        through.clear();
        break;
      }
      through.push_back(a);
    }
    sf.sequentialThrough[size_t(l)] = std::move(through);
  }

  sf.ownerLocal.assign(size_t(m), 0);
  for (int l = 0; l < m && !conservative; ++l) {
    if (sf.parallel[l])
      continue;
    const auto deps = dl.recurrenceDependences(s, l + 1, opts.parallelReductions);
    sf.ownerLocal[size_t(l)] =
        !deps.empty() && std::all_of(deps.begin(), deps.end(), [&](const Dependence *d) {
          return ownerLocal(p, dl, atHome, *d);
        });
  }

  sf.overlap = overlapFacts(sf, dl, s);
  if (conservative)
    peelOneToMany(sf, doall);
  return sf;
}

} // namespace

const StatementFacts *ProgramFacts::findStatement(const std::string &id) const {
  auto it = statementIndex.find(id);
  return it == statementIndex.end() ? nullptr : &statements[size_t(it->second)];
}

std::vector<int> StatementFacts::arraysCosted() const {
  std::vector<int> out;
  if (hasLhs)
    out.push_back(lhs.array);
  if (hasHome)
    out.push_back(home.array);
  for (const RefFacts &also : alsoRunBy)
    out.push_back(also.array);
  for (const RhsFacts &rf : rhs)
    out.push_back(rf.ref.array);
  return out;
}

int ProgramFacts::findArray(const std::string &name) const {
  if (auto it = arrayIndex.find(name); it != arrayIndex.end())
    return it->second;
  if (caseInsensitive)
    if (auto it = arrayIndexFold.find(upper(name)); it != arrayIndexFold.end())
      return it->second;
  return -1;
}

Result<ProgramFacts> analyzeProgram(const Program &p,
                                    const AnalysisOptions &opts) {
  ProgramFacts pf;
  pf.program = &p;
  pf.caseInsensitive = p.language == "fortran";
  for (const auto &a : p.arrays) {
    pf.arrayIndex[a.name] = int(pf.arrays.size());
    pf.arrayIndexFold[upper(a.name)] = int(pf.arrays.size());
    pf.arrays.push_back(&a);
  }
  for (const auto &s : p.statements)
    for (const auto &id : s.loops)
      if (!p.findLoop(id))
        return makeError("statement " + s.id + " is in an unknown loop " + id,
                         s.loc);

  LoopTable lt(p);
  DependenceLevels dl(p);
  std::set<std::string> guardsSeen;
  // Scalars as the thesis treats them (its placement, or section 5.4.1's
  // uncosted scalar assignments): privatized only where assigned
  // unconditionally, as Parafrase-2 did.
  const bool thesisScalars =
      opts.placement == PlacementSource::SequentialLoops || !opts.scalarCommunication;
  const auto privateReaders = privateScalarReaders(p, !thesisScalars);
  const auto scalarRegions = reductionRegions(p);
  const auto paths = distributeLoops(p, dl);
  std::vector<char> atHome(p.statements.size()); // reductions formed at a home operand
  for (size_t s = 0; s < p.statements.size(); ++s)
    atHome[s] = arrayReduction(p, s).planned();
  std::map<std::string, std::string> phaseOf; // the last phase listing a statement
  for (const auto &ph : p.phases)
    for (const auto &id : ph.statements)
      phaseOf[id] = ph.id;
  for (int s = 0; s < int(p.statements.size()); ++s) {
    auto sf = statementFacts(p, s, pf, lt, dl, opts, privateReaders, scalarRegions, atHome,
                             guardsSeen);
    if (!sf)
      return sf.error();
    if (auto it = phaseOf.find(p.statements[s].id); it != phaseOf.end())
      sf->phase = it->second;
    sf->path = paths[size_t(s)];
    pf.statementIndex[p.statements[s].id] = int(pf.statements.size());
    pf.statements.push_back(std::move(*sf));
  }
  // The loops some communication may run inside (StatementFacts::quietLoops).
  std::set<const Loop *> noisy;
  for (const StatementFacts &sf : pf.statements)
    for (int l = 0, q = innermostCommunication(sf); l <= q; ++l)
      noisy.insert(sf.loops[size_t(l)].loop);
  for (StatementFacts &sf : pf.statements)
    sf.quietLoops = std::none_of(sf.loops.begin(), sf.loops.end(),
                                 [&](const LoopFacts &lf) { return noisy.count(lf.loop) > 0; });
  pf.warnings = std::move(lt.warnings);
  return pf;
}

} // namespace dlayout::cost
