//===- costmodels/Communication.cpp - The communication estimator ---------===//

#include "costmodels/Communication.h"
#include "costmodels/Coalescing.h"
#include "costmodels/CountedFetch.h"
#include "costmodels/Irregular.h"
#include "costmodels/MessageSum.h"
#include "costmodels/OuterSamples.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>

namespace dlayout::cost {

using detail::Coalesced;
using detail::coalesce;
using detail::widen;

namespace {

struct Repetitions {
  double normal = 0;   // every term but a boundary-Transfer
  double boundary = 0; // a boundary-Transfer (its count included)
  bool pipelined = false;
  /// Pipelined: the boundary-Transfer's messages, one per crossing at every
  /// iteration of the loops it is repeated in, where `boundary` counts the
  /// steps on the critical path.
  double boundaryMessages = 0;
};

/// Section 4.5.3: repetitions of the reference's terms, with pipelining.
Repetitions repetitions(const StatementFacts &sf, const RhsFacts &rf,
                        const ReferenceTerms &rt,
                        const CommunicationOptions &opts) {
  Repetitions r;
  const BoundaryFacts &b = rt.boundary;
  int k = b.loop;
  bool pipeline = opts.pipelining && k >= 1 && rt.type2[k] && rt.type2[k - 1] &&
                  b.blocked && b.onlyVarying && rf.pipelineOk[k];
  double outer = sf.rho * rt.tiles, all = sf.rho * rt.tiles;
  for (size_t l = 0; l < sf.loops.size(); ++l) {
    if (!rt.type2[l])
      continue;
    all *= sf.loops[l].trips;
    if (!pipeline || (int(l) != k && int(l) != k - 1))
      outer *= sf.loops[l].trips;
  }
  double count = b.delta * std::max(b.eta - 1, 0.0); // delta (eta - 1)
  if (!pipeline) {
    r.normal = all;
    r.boundary = k >= 0 ? all / std::max(sf.loops[k].trips, 1.0) : 0;
    return r;
  }
  double nk = sf.loops[k].trips, nk1 = sf.loops[k - 1].trips;
  double s = double(sf.loops[k].step), bdist = double(rf.bdist[k]);
  double perBlock = std::floor(double(b.b2) / (double(b.alpha2) * s));
  r.normal =
      outer * (nk + std::max(perBlock, bdist + 1) * std::max(nk1 - 1, 0.0));
  double extra =
      std::max(b.delta, std::floor(b.delta * (bdist + 1) * double(b.alpha2) *
                                   s / double(b.b2)));
  // Beyond the thesis, on a half-duplex machine (a processor sends or
  // receives, not both at once: Shift = 2 Transfers): where the range
  // crosses three blocks or more, a processor inside the chain receives an
  // edge and then sends its own on in each later iteration of L_{k-1}, one
  // Transfer after the other; the thesis's period holds where each
  // processor only sends or only receives (eta = 2), or both at once.
  if (opts.relayedPipeline && b.eta >= 3)
    extra *= 2;
  // The term's own count is delta (eta - 1); express the pipelined total
  // as repetitions of it.
  double total = count + extra * std::max(nk1 - 1, 0.0);
  r.boundary = count > 0 ? outer * total / count : 0;
  r.boundaryMessages = all / std::max(nk, 1.0);
  r.pipelined = true;
  return r;
}

int placement(const ReferenceTerms &rt) {
  for (int l = int(rt.type2.size()) - 1; l >= 0; --l)
    if (rt.type2[l])
      return l;
  return -1;
}

/// Beyond the thesis (exactOwners): a reference whose communication is
/// repeated in every loop the statement's inner bounds vary with (lu's
/// column k multicast at each k of a triangular update) is costed at each
/// of their iterations (OuterSamples.h): the processors a shrinking range
/// reaches, and so the group and the sender, change with k, and Fig. 3.2's
/// mean k (a group of 1 on lu's 2x2 blocks) says nothing of them. A driving
/// loop the message is vectorised over (tred2's J in Z(K,J), K = J+1, L)
/// is walked too, its samples' sizes summed into the one message
/// (MessageSum.h). Whether that applies; the drivers split into those the
/// terms repeat in (`repeated`) and those they are vectorised over. The
/// samples are not summed (`countedOnly`) where a driver the message is
/// vectorised over bounds the inner loops alone (fig2_2's V(MQ,MI) under DO
/// MP / DO MQ = 1, MP; Z(K,J) fetched once outside DO II, whose L bounds J
/// and K), its iterations reaching sections that overlap, the message their
/// union, or where the message is tiled (section 4.4.3: one per tile, its
/// root moving with the tile, fig2_2's V(MP,MI)): the fetch is then counted
/// as the executor forms it (CountedFetch.h), else priced by Fig. 3.2's
/// means.
bool perOuterIteration(const StatementFacts &sf, const RhsFacts &rf, const ReferenceTerms &rt,
                       const std::vector<int> &drivers, const CommunicationOptions &opts,
                       std::vector<int> &repeated, std::vector<int> &vectorised,
                       bool &countedOnly) {
  countedOnly = false;
  repeated.clear();
  vectorised.clear();
  // The partial results of a reduction into array elements leave once per
  // execution of its region, counted over the loops inside it where they
  // can be (PartialsExchange.cpp): no sample of those loops says more.
  const bool partialsOfRegion =
      sf.hasLhs && rf.reductionOperand && rf.home && sf.reductionRegion >= 0;
  if (drivers.empty() || !opts.terms.exactOwners || rt.irregular ||
      rt.type2.size() != sf.loops.size())
    return false;
  for (int q : drivers) {
    if (sf.loops[size_t(q)].lower.empty())
      return false; // not affine
    if (rt.type2[size_t(q)])
      repeated.push_back(q);
    else if (!partialsOfRegion || q < sf.reductionRegion)
      vectorised.push_back(q);
  }
  countedOnly = !vectorised.empty() && rt.tiles > 1;
  for (int q : vectorised)
    if (std::none_of(rf.ref.subs.begin(), rf.ref.subs.end(),
                     [&](const SubscriptForm &f) { return f.alphaAt(q) != 0; }))
      countedOnly = true;
  return true;
}

/// How many walks forEachOuterSample takes of the repeated drivers and,
/// within each, of the vectorised ones: every iteration of both where they
/// have at most kExactCommWalks together, else the samples. Trips are means:
/// a driver whose bounds follow another has more at some of its samples (a
/// triangle's longest row, twice its mean), so each walk gets the budget
/// the other's mean leaves it.
std::pair<int64_t, int64_t> walkCounts(const StatementFacts &sf, const std::vector<int> &repeated,
                                       const std::vector<int> &vectorised) {
  if (vectorised.empty())
    return {kCommSamples, kVectorisedSamples};
  double outerTrips = 1, innerTrips = 1;
  for (int q : repeated) outerTrips *= std::ceil(std::max(sf.loops[size_t(q)].trips, 1.0));
  for (int q : vectorised) innerTrips *= std::ceil(std::max(sf.loops[size_t(q)].trips, 1.0));
  if (outerTrips * innerTrips > double(kExactCommWalks))
    return {kCommSamples / kVectorisedSamples, kVectorisedSamples};
  return {int64_t(double(kExactCommWalks) / innerTrips),
          int64_t(double(kExactCommWalks) / outerTrips)};
}

/// Whether a reference's subscript on mesh dimension `d` (the array's
/// dimension there, if any) may move with loop position `loop`.
bool movesWith(const RefFacts &r, const LayoutView &lv, size_t d, int loop) {
  if (r.array < 0)
    return false; // a scalar
  const ArrayDist &ad = lv.arrays[size_t(r.array)];
  if (d >= ad.dimOnMesh.size() || ad.dimOnMesh[d] < 0)
    return false;
  const SubscriptForm &f = r.subs[size_t(ad.dimOnMesh[d])];
  return f.cls == SubscriptClass::Unknown || f.cls == SubscriptClass::Indirect ||
         f.alphaAt(loop) != 0;
}

/// Whether a tiled reference's multicasts, whose roots are S processors
/// along its `sourceDim`, reach the same group at every tile: on no other
/// mesh dimension of more than one processor does the lhs or the operand
/// move with the tiled loop (Fig. 4.16's B(J,J) on a 2-D mesh reaches the
/// mesh column of J, a different one every two tiles).
bool groupStays(const StatementFacts &sf, const RhsFacts &rf, const ReferenceTerms &t,
                const LayoutView &lv) {
  for (size_t d = 0; d < lv.mesh.size(); ++d)
    if (int(d) != t.sourceDim && lv.mesh[d] > 1 &&
        (movesWith(sf.lhs, lv, d, t.sourceLoop) || movesWith(rf.ref, lv, d, t.sourceLoop)))
      return false;
  return true;
}

/// A composed term of reference `rhs` (elements of `elem` bytes), placed
/// at loop position `placement`, `times` times (its factor included).
CommCost costOfTerm(const ComposedTerm &ct, int rhs, double elem, double times, int placement) {
  CommCost c;
  c.primitive = toString(ct.prim);
  c.prim = ct.prim;
  c.rhs = rhs;
  c.words = ct.words;
  c.bytes = ct.words * elem;
  c.group = ct.group;
  c.repetitions = times * ct.factor;
  c.placement = placement;
  c.rule = ct.rule;
  c.senders = ct.senders;
  c.span = ct.span;
  c.shiftDim = ct.shiftDim;
  c.direction = ct.direction;
  c.meshDim = ct.meshDim;
  return c;
}

} // namespace

// Beyond Table 6.1 (exactOwners): a Shift that one processor alone sends is one
// Transfer; a Reduction into a scalar reaches every member (the scalar is
// replicated), an all-reduce; the Scatters of tiles whose roots take turns
// (Senders::share) run at once, an all-to-all (fig5_2's B(J,3*I) to A's
// rows): a processor sends its own tiles' p - 1 messages and, on a
// half-duplex machine, takes one of each other tile in turn; the
// OneToManyMulticasts of tiles whose roots are every member of their group
// in equal turns (fig4_16's diagonal B(J,J) from each row block to all) are
// one all-gather, each member's T / p tiles round Table 6.1's ring
// (ManyToManyMulticast), each tile (p - 1) / T of it, as the validate
// executor sends them.
double messageSeconds(const CommCost &c, const StatementFacts &sf, const PrimitiveCosts &costs,
                      const CommunicationOptions &opts) {
  if (!opts.terms.exactOwners)
    return costs.cost(c.prim, c.bytes, c.group, c.span);
  if (c.prim == Primitive::Shift && c.senders.meshDim >= 0 && c.senders.first == c.senders.last)
    return costs.shiftFromOne(c.bytes, c.span);
  if (c.prim == Primitive::Reduction && !sf.hasLhs)
    return costs.allReduction(c.bytes, c.group);
  if (c.allGather)
    return costs.manyToManyMulticast(c.bytes * c.tiles / double(c.group), c.group) / c.tiles;
  if (c.prim == Primitive::Scatter && c.tiles > 1 && c.senders.share < 1) {
    const double own = c.senders.share;
    const double taken = costs.machine().halfDuplex() ? 1 - own : 0;
    return own * costs.scatter(c.bytes, c.group) + taken * costs.transfer(c.bytes, c.span);
  }
  return costs.cost(c.prim, c.bytes, c.group, c.span);
}

std::string CommCost::describe() const {
  std::string s = rule;
  if (tiles > 1)
    s += "; tiled (" + std::to_string(int64_t(tiles)) + " tiles)";
  if (allGather)
    s += "; the tiles' roots in turn: an all-gather (ManyToManyMulticast)";
  if (lineShare < 1)
    s += "; each line of processors takes part in " +
         std::to_string(int64_t(std::llround(lineShare * tiles))) + " of the tiles, the lines at once";
  if (pipelined)
    s += "; pipelined (section 4.5.3)";
  if (sharedBy > 1)
    s += "; one exchange serves " + std::to_string(sharedBy) +
         " references (ghost region / message coalescing)";
  if (joined > 0)
    s += "; one fetch with " + std::to_string(joined) +
         (joined == 1 ? " other statement's read" : " other statements' reads") +
         " of the array before the same loop";
  if (sections > 0)
    s += "; carries the neighbouring sections " + std::to_string(sections) +
         (sections == 1 ? " other statement reads" : " other statements read");
  return s;
}

void statementCommunication(const StatementFacts &sf, const LayoutView &lv,
                            const ProgramFacts &pf, const PrimitiveCosts &costs,
                            const CommunicationOptions &opts,
                            std::vector<CommCost> &out, int array) {
  Coalesced co = coalesce(sf, lv, opts, array);
  const std::vector<char> &skip = co.skip;
  std::vector<ReferenceTerms> &all = co.terms;

  const std::vector<int> drivers = boundDrivers(sf.loops);
  std::optional<StatementFacts> at; // for perOuterIteration
  for (size_t i = 0; i < sf.rhs.size(); ++i) {
    if (skip[i])
      continue;
    const RhsFacts &rf = sf.rhs[i];
    const ReferenceTerms &rt = all[i];
    double elem = double(pf.arrays[rf.ref.array]->elementBytes);
    Repetitions reps = repetitions(sf, rf, rt, opts);
    int where = placement(rt);

    // A composed term of the reference, `times` times (factor included).
    auto costOf = [&](const ComposedTerm &ct, double times) {
      CommCost c = costOfTerm(ct, int(i), elem, times, where);
      c.sharedBy = co.sharedBy[i];
      c.section = co.unions[i];
      return c;
    };
    // The composed terms of the reference as `s` and `t` give them, each
    // `weight` times.
    auto charge = [&](const StatementFacts &s, const ReferenceTerms &t, double weight,
                      std::vector<CommCost> &into) {
      Repetitions r = repetitions(s, rf, t, opts);
      const std::vector<ComposedTerm> composed = compose(t, lv.mesh);
      // The tiles' lines at once (ReferenceTerms::lineShare), where every
      // term is along the dimension the tiles' sources lie along.
      const bool byLines =
          t.lineShare < 1 && std::all_of(composed.begin(), composed.end(), [&](const ComposedTerm &ct) {
            return ct.meshDim == t.sourceDim;
          });
      for (const ComposedTerm &ct : composed) {
        if (co.edgeOnly[i] && ct.prim != Primitive::Shift)
          continue; // carried by another reference's messages
        double times = ct.boundaryTransfer ? r.boundary * ct.count : r.normal * ct.count;
        CommCost c = costOf(ct, weight * times);
        c.pipelined = r.pipelined;
        c.tiles = t.tiles;
        if (ct.boundaryTransfer && r.pipelined && r.boundary > 0)
          c.senders.share *= r.boundaryMessages / r.boundary;
        // The roots in equal turns: S = p sources along the multicast's
        // dimension, p dividing T (ceil(T / S) / T <= 1 / p holds then
        // only), the tiles all that loop's.
        c.allGather = opts.terms.exactOwners && ct.prim == Primitive::OneToManyMulticast &&
                      t.tiles > 1 && t.tiles == t.sourceTiles && c.group > 1 &&
                      t.sourceDim >= 0 &&
                      t.sourceDim == ct.meshDim &&
                      t.sourceShare * double(c.group) <= 1 + 1e-9 && groupStays(s, rf, t, lv);
        if (opts.coalescing && ct.shiftDim >= 0) {
          c.carried = co.carried[i];
          c.carried.push_back(&rf);
        }
        c.seconds = c.repetitions * messageSeconds(c, sf, costs, opts);
        if (byLines && !c.allGather) {
          c.lineShare = t.lineShare;
          c.seconds *= t.lineShare;
        }
        if (c.seconds > 0 || c.repetitions > 0)
          into.push_back(std::move(c));
      }
    };
    std::vector<CommCost> collective, one;
    std::vector<int> repeated, vectorised;
    bool countedOnly = false;
    bool sampled = perOuterIteration(sf, rf, rt, drivers, opts, repeated, vectorised, countedOnly);
    // The terms at the loops of one sample, `weight` times, into `into`;
    // false where a loop they are vectorised over was frozen at it.
    auto chargeAt = [&](const std::vector<LoopFacts> &loops, double weight,
                        std::vector<CommCost> &into) {
      at->loops = loops;
      ReferenceTerms t = referenceTerms(*at, rf, lv, opts.terms);
      if (!vectorised.empty() && t.type2 != rt.type2)
        return false;
      if (co.unions[i].dim >= 0)
        widen(t, rf, lv, co.unions[i]);
      if (co.twoWay[i] >= 0)
        t.dims[size_t(co.twoWay[i])].shiftSenders = {};
      t.localSize *= co.grown[i];
      charge(*at, t, weight, into);
      return true;
    };
    // The fetch at the loops of one sample counted as it runs
    // (CountedFetch.h), `weight` times, into `into`; false where it is not
    // counted (nothing added).
    auto countedAt = [&](const std::vector<LoopFacts> &loops, double weight,
                         std::vector<CommCost> &into) {
      if (co.sharedBy[i] > 1 || co.unions[i].dim >= 0 || co.twoWay[i] >= 0 || co.grown[i] != 1 ||
          co.edgeOnly[i])
        return false;
      at->loops = loops;
      auto terms = countedFetch(*at, rf, lv, where);
      if (!terms)
        return false;
      // Once per iteration of the loops it is repeated in (section 4.5.3).
      double times = weight * at->rho;
      for (size_t l = 0; l < loops.size(); ++l)
        if (rt.type2[l])
          times *= loops[l].trips;
      for (const ComposedTerm &ct : *terms) {
        CommCost c = costOf(ct, times * ct.count);
        c.counted = true;
        c.seconds = c.repetitions * messageSeconds(c, sf, costs, opts);
        into.push_back(std::move(c));
      }
      return true;
    };
    if (sampled) {
      const auto [outerWalks, innerWalks] = walkCounts(sf, repeated, vectorised);
      if (!at)
        at = sf; // the nest at one driving iteration, its loops set per sample
      sampled = forEachOuterSample(sf.loops, repeated, [&](const std::vector<LoopFacts> &loops,
                                                           double weight) {
        one.clear();
        if (vectorised.empty()) {
          sampled = chargeAt(loops, weight, one) && sampled;
        } else if (countedOnly) {
          sampled = countedAt(loops, weight, one) && sampled;
        } else if (!countedAt(loops, weight, one)) {
          // One message, not counted as it runs: the vectorised drivers'
          // samples summed.
          MessageSum sum(lv.mesh);
          bool summed = true;
          summed = forEachOuterSample(loops, vectorised, [&](const std::vector<LoopFacts> &in,
                                                             double share) {
            std::vector<CommCost> part;
            summed = summed && chargeAt(in, weight, part) && sum.add(part, share);
          }, innerWalks) && summed;
          sampled = summed && sampled;
          one = sum.result();
          for (CommCost &c : one) {
            c.bytes = c.words * elem;
            c.seconds = c.repetitions * messageSeconds(c, sf, costs, opts);
          }
        }
        addRepeated(one, collective);
      }, outerWalks) && sampled;
    }
    if (!sampled) { // a bound that is not affine: Fig. 3.2's means
      collective.clear();
      charge(sf, rt, 1, collective);
    }
    double collectiveSeconds = 0;
    for (const CommCost &c : collective)
      collectiveSeconds += c.seconds;

    if (rt.irregular && opts.irregular != IrregularStrategy::Collective) {
      InspectorExecutor ie = inspectorExecutor(sf, rf, rt, lv, costs, elem);
      // One gather per placement: the tiling is the collective's (Table 4.4
      // moves a tile at a time); run-time resolution fetches every nonlocal
      // element of the combined loops at once.
      double execRuns = reps.normal / std::max(rt.tiles, 1.0);
      double ieSeconds =
          ie.inspector * ie.inspectorRuns + ie.executor * execRuns;
      if (opts.irregular == IrregularStrategy::InspectorExecutor ||
          ieSeconds < collectiveSeconds) {
        CommCost insp;
        insp.primitive = "Inspector";
        insp.rhs = int(i);
        insp.words = ie.nonlocalWords;
        insp.bytes = ie.nonlocalWords * 8;
        insp.group = lv.procs;
        insp.repetitions = ie.inspectorRuns;
        insp.seconds = ie.inspector * ie.inspectorRuns;
        insp.placement = -1;
        insp.rule = "inspector: locality pass, global combine, request lists "
                    "(Kali/PARTI)";
        CommCost exec = insp;
        exec.primitive = "Executor";
        exec.bytes = ie.nonlocalWords * elem;
        exec.group = std::max<int64_t>(ie.sources + 1, 1);
        exec.repetitions = execRuns;
        exec.seconds = ie.executor * execRuns;
        exec.placement = where;
        exec.rule = "executor: gather of the nonlocal elements with the saved "
                    "schedule";
        out.push_back(std::move(insp));
        out.push_back(std::move(exec));
        continue;
      }
    }
    for (auto &c : collective)
      out.push_back(std::move(c));
  }
}

std::optional<std::vector<CommCost>> jointFetch(std::span<const StatementRead> reads,
                                                const LayoutView &lv, const ProgramFacts &pf,
                                                const PrimitiveCosts &costs,
                                                const CommunicationOptions &opts) {
  if (reads.empty() || !opts.terms.exactOwners)
    return std::nullopt;
  // Each read sampled as statementCommunication samples it alone: the same
  // placement, loops repeated in and probability for all.
  struct Member {
    const RhsFacts *rf;
    StatementFacts at; // its loops set per sample
    std::vector<std::pair<std::vector<LoopFacts>, double>> samples;
  };
  std::vector<Member> members;
  members.reserve(reads.size());
  const StatementFacts &first = *reads.front().sf;
  int where = -1;
  std::vector<int> repeated0;
  std::vector<bool> type2;
  int64_t walks = kCommSamples;
  for (const StatementRead &read : reads) {
    const StatementFacts &sf = *read.sf;
    const RhsFacts &rf = sf.rhs[size_t(read.rhs)];
    const ReferenceTerms rt = referenceTerms(sf, rf, lv, opts.terms);
    std::vector<int> repeated, vectorised;
    bool countedOnly = false;
    if (!perOuterIteration(sf, rf, rt, boundDrivers(sf.loops), opts, repeated, vectorised,
                           countedOnly))
      return std::nullopt;
    const int w = placement(rt);
    const std::vector<bool> prefix(rt.type2.begin(), rt.type2.begin() + (w + 1));
    if (members.empty()) {
      where = w, repeated0 = repeated, type2 = prefix;
    } else if (w != where || repeated != repeated0 || prefix != type2 || sf.rho != first.rho) {
      return std::nullopt;
    }
    walks = std::min(walks, walkCounts(sf, repeated, vectorised).first);
    members.push_back({&rf, sf, {}});
  }
  for (size_t k = 0; k < members.size(); ++k) {
    Member &mb = members[k];
    if (!forEachOuterSample(reads[k].sf->loops, repeated0, [&](const std::vector<LoopFacts> &loops,
                                                                double weight) {
          mb.samples.emplace_back(loops, weight);
        }, walks))
      return std::nullopt;
    // The same samples: as many, each at the same indices and weight.
    const auto &lead = members.front().samples;
    if (mb.samples.size() != lead.size())
      return std::nullopt;
    for (size_t s = 0; s < lead.size(); ++s) {
      if (mb.samples[s].second != lead[s].second)
        return std::nullopt;
      for (int q : repeated0)
        if (mb.samples[s].first[size_t(q)].onlyIndex() != lead[s].first[size_t(q)].onlyIndex())
          return std::nullopt;
    }
  }
  const double elem = double(pf.arrays[size_t(members.front().rf->ref.array)]->elementBytes);
  std::vector<CountedRead> at(members.size());
  std::vector<CommCost> all, one;
  for (size_t s = 0; s < members.front().samples.size(); ++s) {
    for (size_t k = 0; k < members.size(); ++k) {
      members[k].at.loops = members[k].samples[s].first;
      at[k] = {&members[k].at, members[k].rf};
    }
    auto terms = countedFetch(at, lv, where);
    if (!terms)
      return std::nullopt;
    // Once per iteration of the loops it is repeated in (section 4.5.3).
    const std::vector<LoopFacts> &loops = members.front().samples[s].first;
    double times = members.front().samples[s].second * first.rho;
    for (size_t l = 0; l < type2.size(); ++l)
      if (type2[l])
        times *= loops[l].trips;
    one.clear();
    for (const ComposedTerm &ct : *terms) {
      CommCost c = costOfTerm(ct, reads.front().rhs, elem, times * ct.count, where);
      c.counted = true;
      c.joined = int(reads.size()) - 1;
      c.seconds = c.repetitions * messageSeconds(c, first, costs, opts);
      one.push_back(std::move(c));
    }
    addRepeated(one, all);
  }
  return all;
}

} // namespace dlayout::cost
