//===- costmodels/Composition.cpp - Composing the terms, sec. 4.5 ---------===//

#include "costmodels/Composition.h"
#include "model/FillOrder.h"

#include <algorithm>
#include <bit>

namespace dlayout::cost {

namespace {

bool mergeable(Primitive p) {
  return p == Primitive::Gather || p == Primitive::Reduction ||
         p == Primitive::ManyToManyMulticast ||
         p == Primitive::OneToManyMulticast;
}

/// The share of a one-source term's repetitions one processor sends: the
/// tiles' (ReferenceTerms::sourceShare) times each type-2 loop's it is
/// repeated in (a boundary-Transfer is not repeated in its own loop).
double sourceShare(const ReferenceTerms &rt, const CommTerm &c) {
  double share = rt.sourceShare;
  for (size_t l = 0; l < rt.sourceShareIn.size(); ++l)
    if (rt.type2[l] && !(c.boundaryTransfer && int(l) == c.loop))
      share *= rt.sourceShareIn[l];
  return share;
}

/// Whether a term's senders are one coordinate of its mesh dimension.
bool oneSource(const ComposedTerm &t) {
  return t.senders.meshDim >= 0 && t.senders.first == t.senders.last;
}

/// A one-source term's sender as Senders::Parts along its mesh dimension:
/// 1 at its coordinate, 0 at the others.
std::pair<int, std::vector<double>> atItsSource(const ComposedTerm &t) {
  std::vector<double> at(size_t(std::max<int64_t>(t.span, t.senders.first + 1)), 0.0);
  at[size_t(t.senders.first)] = 1;
  return {t.senders.meshDim, std::move(at)};
}

/// Table 4.5: one term per primitive over the product of the groups. A
/// collective merged over every mesh dimension of `joint` (an operand held
/// jointly along them, ReferenceTerms::joint) is sent in those parts.
void mergeIdentical(std::vector<ComposedTerm> &terms,
                    const std::shared_ptr<const Senders::Joint> &joint) {
  std::vector<ComposedTerm> out;
  std::vector<std::vector<int>> merged; // per term of out: the mesh dimensions merged into it
  for (const ComposedTerm &t : terms) {
    auto same =
        std::find_if(out.begin(), out.end(), [&](const ComposedTerm &o) {
          if (o.prim != t.prim || o.count != 1 || t.count != 1 || o.staged || t.staged ||
              o.loop != t.loop || (o.meshDim >= 0 && o.meshDim == t.meshDim))
            return false;
          // Beyond the thesis (exactOwners): a replicated lhs's holders,
          // unless one processor holds it all, multicast along one mesh
          // dimension at a time what they hold so far
          // (CommTerm::afterExchange, the executor's gatherByDimension),
          // not each its part to the whole mesh at once.
          if ((o.afterExchange || t.afterExchange) && !(oneSource(o) && oneSource(t)))
            return false;
          if (mergeable(t.prim))
            return o.factor == 1 && t.factor == 1;
          // (1 - 1/p1) Transfer(m1) + (1 - 1/p2) Transfer(m2)
          //   -> (1 - 1/(p1 p2)) Transfer(m1 m2)
          return t.prim == Primitive::Transfer && o.group < 0 && t.group < 0;
        });
    if (same == out.end()) {
      out.push_back(t);
      merged.push_back({t.meshDim});
      continue;
    }
    std::vector<int> &dims = merged[size_t(same - out.begin())];
    dims.push_back(t.meshDim);
    if (t.prim == Primitive::Transfer) {
      int64_t p = (-same->group) * (-t.group);
      same->group = -p;
      // Owners known to differ in one mesh dimension: the element moves.
      same->certain = same->certain || t.certain;
      same->factor = same->certain ? 1 : 1 - 1 / double(p);
      same->senders = Senders{}; // over two dimensions: not tracked
    } else if (oneSource(*same) && oneSource(t)) {
      // One processor's multicast over both groups: it stays the sender,
      // as often as its coordinates along both dimensions own the source.
      Senders::Parts parts = same->senders.parts ? *same->senders.parts : Senders::Parts{};
      for (const auto &p : t.senders.parts ? *t.senders.parts : Senders::Parts{})
        if (std::none_of(parts.begin(), parts.end(), [&](const auto &q) { return q.first == p.first; }))
          parts.push_back(p);
      std::erase_if(parts, [&](const auto &q) { return q.first == t.senders.meshDim; });
      parts.push_back(atItsSource(t));
      same->senders.parts = std::make_shared<const Senders::Parts>(std::move(parts));
      same->senders.share *= t.ownShare;
      same->group *= t.group;
    } else {
      same->group *= t.group;
      same->senders = Senders{}; // over two dimensions: not tracked, unless joint
      if (joint && std::all_of(joint->dims.begin(), joint->dims.end(), [&](int d) {
            return std::find(dims.begin(), dims.end(), d) != dims.end();
          }))
        same->senders.joint = joint;
    }
    same->span = std::max(same->span, t.span);
    same->meshDim = -1;
    same->rule = "Table 4.5: identical primitives combined over both groups";
  }
  terms.swap(out);
}

/// Per coordinate along its mesh dimension, the part of a full message a
/// term with known senders sends: 0 outside first..last, within it the
/// holder's part (Senders::parts along that dimension), else 1.
std::vector<double> partsAlongOwnDim(const ComposedTerm &t, int64_t n) {
  std::vector<double> at(size_t(std::max<int64_t>(n, t.senders.last + 1)), 0.0);
  for (int64_t c = t.senders.first; c <= t.senders.last; ++c)
    at[size_t(c)] = 1;
  for (const auto &[d, byCoordinate] : t.senders.parts ? *t.senders.parts : Senders::Parts{})
    if (d == t.senders.meshDim)
      for (size_t c = 0; c < at.size() && c < byCoordinate.size(); ++c)
        at[c] *= byCoordinate[c];
  return at;
}

/// Beyond the thesis (exactOwners): a replicated lhs filled along several
/// mesh dimensions, each from some of its coordinates (the multicasts
/// mergeIdentical leaves apart), is filled one dimension at a time in
/// model/FillOrder.h's order, as the executor's gatherByDimension does: each
/// dimension's holders multicast what they hold so far -- their own part and what the
/// earlier dimensions brought them, those dimensions' holders' parts summed
/// -- and along the dimensions still to come only the holders send.
/// fig2_2's XRSIQ(MI,MQ) to the replicated VAL on 4x16 with both
/// dimensions on two holders: the 16-wide lines multicast two blocks, not
/// one, from all four rows, not the two that hold it.
void fillInStages(std::vector<ComposedTerm> &terms, const std::vector<int64_t> &mesh) {
  std::vector<ComposedTerm *> stages;
  for (ComposedTerm &t : terms)
    if (t.prim == Primitive::OneToManyMulticast && t.afterExchange && t.meshDim >= 0 && !t.staged) {
      if (t.senders.meshDim != t.meshDim || size_t(t.meshDim) >= mesh.size())
        return; // its holders unknown
      stages.push_back(&t);
    }
  std::sort(stages.begin(), stages.end(),
            [](const ComposedTerm *a, const ComposedTerm *b) { return a->meshDim < b->meshDim; });
  for (size_t k = 1; k < stages.size(); ++k)
    if (stages[k]->meshDim == stages[k - 1]->meshDim)
      return; // a split loop's two multicasts along one dimension
  if (stages.size() < 2)
    return;
  // In model/FillOrder.h's order, by each dimension's holders.
  struct Stage {
    FillStage fill;
    ComposedTerm *term;
    std::vector<double> held; // per coordinate, the part of a full message
  };
  std::vector<Stage> order;
  for (ComposedTerm *s : stages) {
    const int64_t n = mesh[size_t(s->meshDim)];
    std::vector<double> held = partsAlongOwnDim(*s, n);
    const int64_t holders = std::count_if(held.begin(), held.end(), [](double h) { return h > 0; });
    order.push_back({{holders, n, s->meshDim}, s, std::move(held)});
  }
  std::sort(order.begin(), order.end(),
            [](const Stage &a, const Stage &b) { return fillsBefore(a.fill, b.fill); });
  for (size_t k = 0; k < order.size(); ++k) {
    ComposedTerm &t = *order[k].term;
    Senders::Parts parts = t.senders.parts ? *t.senders.parts : Senders::Parts{};
    for (size_t j = 0; j < order.size(); ++j) {
      if (j == k)
        continue;
      const int dim = order[j].fill.dim;
      std::erase_if(parts, [&](const auto &q) { return q.first == dim; });
      if (j < k) { // what it brought: its holders' parts summed
        double brought = 0;
        for (double h : order[j].held)
          brought += h;
        t.words *= brought;
      } else { // only its holders send
        parts.emplace_back(dim, order[j].held);
      }
    }
    t.senders.parts = parts.empty() ? nullptr : std::make_shared<const Senders::Parts>(std::move(parts));
  }
}

/// Mesh dimensions d and e whose operand varies in one loop (DimResult::loop).
bool sharesLoop(const ReferenceTerms &rt, size_t d, size_t e) {
  return rt.dims[d].loop >= 0 && rt.dims[e].loop == rt.dims[d].loop;
}

/// The data a processor's messages carry: local size times the mesh
/// dimensions' sizes, where the dimensions whose operand varies in one loop
/// (DimResult::loop) hold no more than the fewest of its iterations any of
/// them keeps on one processor (A(I,I): a block's share of the diagonal),
/// or where they were counted together (ReferenceTerms::jointMost), the
/// most any combination of their coordinates holds.
double dataSize(const ReferenceTerms &rt) {
  const size_t D = rt.dims.size();
  double total = rt.localSize;
  for (size_t d = 0; d < D; ++d) {
    bool counted = false; // with an earlier dimension of its loop
    for (size_t e = 0; e < d; ++e)
      counted = counted || sharesLoop(rt, d, e);
    if (counted)
      continue;
    double sizes = rt.dims[d].size, fewest = rt.dims[d].iterations;
    bool several = false;
    for (size_t e = d + 1; e < D; ++e)
      if (sharesLoop(rt, d, e)) {
        several = true;
        sizes *= rt.dims[e].size;
        fewest = std::min(fewest, rt.dims[e].iterations);
      }
    if (several && rt.jointMost > 0 && rt.dims[d].loop == rt.jointLoop)
      fewest = std::min(fewest, rt.jointMost);
    total *= several ? std::min(sizes, fewest) : sizes;
  }
  return total;
}

/// Senders::parts of a term along mesh dimension d: those of the other
/// dimensions whose data size is the operand's own there -- no term of
/// their own, and their loop no other dimension's unless one element of
/// it lies on a processor (a sample of a driving loop: lu's pivot A(K,K)
/// leaves from column K's owners) -- and `own`, d's (a boundary's edge,
/// DimResult::shiftParts). Along a dimension with a holder
/// (DimResult::holder), that coordinate alone; with holders in turn
/// (DimResult::holderShares), each in its share. Where the dimensions that
/// share a loop were counted together (ReferenceTerms::joint) and those
/// besides d have no term of their own, their Senders::joint in place of
/// their parts (and d's own, where d is one of them).
void partsBesides(const ReferenceTerms &rt, size_t d, const std::vector<int64_t> &mesh,
                  Senders &senders, const std::vector<double> *own = nullptr) {
  auto inJoint = [&](size_t e) { return rt.joint && rt.joint->covers(int(e)); };
  bool joint = rt.joint != nullptr;
  for (size_t e = 0; e < rt.dims.size() && joint; ++e)
    if (e != d && inJoint(e))
      joint = rt.dims[e].terms.empty() && !rt.dims[e].boundary && !rt.dims[e].holder;
  Senders::Parts parts;
  if (own && !own->empty() && !(joint && inJoint(d)))
    parts.emplace_back(int(d), *own);
  for (size_t e = 0; e < rt.dims.size(); ++e) {
    const DimResult &r = rt.dims[e];
    if (e != d && r.holder && e < mesh.size() && *r.holder < mesh[e]) {
      std::vector<double> only(size_t(mesh[e]), 0.0);
      only[size_t(*r.holder)] = 1;
      parts.emplace_back(int(e), std::move(only));
      continue;
    }
    if (e != d && e < mesh.size() && r.holderShares.size() == size_t(mesh[e])) {
      parts.emplace_back(int(e), r.holderShares);
      continue;
    }
    if (e == d || r.parts.empty() || !r.terms.empty() || r.boundary || (joint && inJoint(e)))
      continue;
    bool shared = false;
    for (size_t f = 0; f < rt.dims.size() && r.iterations > 1; ++f)
      shared = shared || (f != e && sharesLoop(rt, e, f));
    if (!shared)
      parts.emplace_back(int(e), r.parts);
  }
  senders.parts = parts.empty() ? nullptr : std::make_shared<const Senders::Parts>(std::move(parts));
  senders.joint = joint ? rt.joint : nullptr;
}

/// Beyond the thesis (exactOwners): a replicated lhs filled, along every
/// mesh dimension of an operand held jointly (ReferenceTerms::joint), one
/// dimension at a time as the executor's gatherByDimension does (those
/// every coordinate of which holds some first), counted per processor: each
/// processor starts with what it holds (the joint table, times the parts
/// of the other dimensions) and, at each stage, multicasts along its
/// dimension what it holds so far -- the sum of what the processors that
/// differ from it only along the earlier stages' dimensions held. tred2's
/// Z(J,J) for the replicated G on 4 x 4 blocks: the diagonal blocks send
/// along the first dimension, then each processor the diagonal block of
/// its line along the second. Replaces the fill terms in place (their
/// sizes the busiest stage's, their senders each processor's part); false
/// where some term of the reference is not such a fill, or a joint
/// dimension has none.
bool jointFill(std::vector<ComposedTerm> &terms, const ReferenceTerms &rt,
               const std::vector<int64_t> &mesh) {
  constexpr size_t kMostProcessors = 1 << 12;
  const Senders::Joint *joint = rt.joint.get();
  if (!joint || terms.empty())
    return false;
  std::vector<ComposedTerm *> stage(mesh.size(), nullptr);
  for (ComposedTerm &t : terms) {
    if (!t.fill || t.meshDim < 0 || !joint->covers(t.meshDim) || stage[size_t(t.meshDim)])
      return false;
    stage[size_t(t.meshDim)] = &t;
  }
  for (int d : joint->dims)
    if (size_t(d) >= mesh.size() || !stage[size_t(d)] || rt.dims[size_t(d)].boundary)
      return false;
  const std::vector<std::vector<int64_t>> coords = meshCoordinates(mesh);
  if (coords.size() > kMostProcessors)
    return false;
  // What each processor holds at the start, of a full message.
  std::vector<double> held(coords.size());
  for (size_t p = 0; p < coords.size(); ++p) {
    held[p] = joint->at(coords[p]);
    for (size_t e = 0; e < rt.dims.size() && e < mesh.size(); ++e) {
      const DimResult &r = rt.dims[e];
      const size_t c = size_t(coords[p][e]);
      if (joint->covers(int(e)))
        continue;
      if (r.holder)
        held[p] *= int64_t(c) == *r.holder ? 1 : 0;
      else if (c < r.holderShares.size())
        held[p] *= r.holderShares[c];
      else if (c < r.parts.size())
        held[p] *= r.parts[c];
    }
  }
  // One source at a time -- one processor holds it all, or a sample of a
  // type-2 loop whose iterations each read one element (jointMost 0) --
  // multicasts over the whole mesh (the executor's broadcast), each
  // processor in the share of the iterations it holds the element.
  const bool single =
      rt.jointMost <= 0 || std::count_if(held.begin(), held.end(), [](double h) { return h > 0; }) == 1;
  if (single) {
    ComposedTerm &t = *stage[size_t(joint->dims.front())];
    for (int d : joint->dims)
      if (d != joint->dims.front())
        t.group *= stage[size_t(d)]->group;
    t.prim = Primitive::OneToManyMulticast;
    t.factor = 1;
    t.meshDim = -1;
    t.span = *std::max_element(mesh.begin(), mesh.end());
    t.senders = Senders(-1, 0, 0, 1);
    t.senders.joint = Senders::Joint::overMesh(mesh, std::move(held));
    t.staged = true;
    t.rule = "replicated lhs from a jointly held operand, one holder at a time: "
             "OneToManyMulticast over the mesh";
    std::erase_if(terms, [&](const ComposedTerm &o) { return o.fill && !o.staged; });
    return true;
  }
  // The stages as the executor's gatherByDimension takes them: the
  // dimensions every coordinate of which holds some first, then the others,
  // each kind in model/FillOrder.h's order.
  std::vector<FillStage> order;
  for (int d : joint->dims) {
    std::vector<char> holds(size_t(mesh[size_t(d)]), 0);
    for (size_t p = 0; p < coords.size(); ++p)
      holds[size_t(coords[p][size_t(d)])] |= held[p] > 0;
    order.push_back({std::count(holds.begin(), holds.end(), 1), mesh[size_t(d)], d});
  }
  sortFillStages(order);
  std::vector<char> summed(mesh.size(), 0); // the dimensions filled so far
  for (const FillStage &f : order) {
    // Per processor, the sum over its line along the dimensions filled.
    std::vector<double> line(coords.size(), 0.0), now(coords.size());
    auto lineOf = [&](size_t p) {
      size_t index = 0, stride = 1;
      for (size_t e = 0; e < mesh.size(); ++e) {
        index += summed[e] ? 0 : size_t(coords[p][e]) * stride;
        stride *= size_t(mesh[e]);
      }
      return index;
    };
    for (size_t p = 0; p < coords.size(); ++p)
      line[lineOf(p)] += held[p];
    for (size_t p = 0; p < coords.size(); ++p)
      now[p] = line[lineOf(p)];
    const double most = *std::max_element(now.begin(), now.end());
    ComposedTerm &t = *stage[size_t(f.dim)];
    t.words *= most;
    t.senders = Senders(-1, 0, 0, t.senders.share);
    if (most > 0 && std::any_of(now.begin(), now.end(), [&](double h) { return h != most; })) {
      for (double &h : now)
        h /= most;
      t.senders.joint = Senders::Joint::overMesh(mesh, std::move(now));
    }
    t.staged = true;
    t.rule = "replicated lhs from a jointly held operand: filled one mesh dimension at a time";
    summed[size_t(f.dim)] = 1;
  }
  return true;
}

/// `parts` with those along mesh dimension d multiplied by the share of
/// the iterations in which each coordinate is not the moving root
/// (ReferenceTerms::rootTurns): a Gather's root sends nothing.
std::shared_ptr<const Senders::Parts> withRootTurns(std::shared_ptr<const Senders::Parts> parts,
                                                    int d, const std::vector<double> &turns) {
  Senders::Parts out = parts ? *parts : Senders::Parts{};
  auto own = std::find_if(out.begin(), out.end(), [&](const auto &p) { return p.first == d; });
  if (own == out.end()) {
    out.emplace_back(d, turns);
  } else {
    for (size_t c = 0; c < own->second.size() && c < turns.size(); ++c)
      own->second[c] *= turns[c];
  }
  return std::make_shared<const Senders::Parts>(std::move(out));
}

} // namespace

std::vector<ComposedTerm> compose(const ReferenceTerms &rt,
                                  const std::vector<int64_t> &mesh) {
  std::vector<ComposedTerm> terms;
  size_t D = rt.dims.size();
  const double total = dataSize(rt);

  // Boundary Shifts (Table 4.5, row 3), one per non-empty subset T of the
  // boundary dimensions: the edges of T times the interiors of the others.
  std::vector<size_t> B;
  for (size_t d = 0; d < D; ++d)
    if (rt.dims[d].boundary)
      B.push_back(d);
  for (unsigned mask = 1; B.size() < 16 && mask < (1u << B.size()); ++mask) {
    double words = rt.localSize, factor = 1;
    int64_t span = 1;
    for (size_t d = 0; d < D; ++d) {
      auto at = std::find(B.begin(), B.end(), d);
      if (at == B.end()) {
        words *= rt.dims[d].size;
        continue;
      }
      bool inT = mask & (1u << (at - B.begin()));
      if (inT) {
        words *= rt.dims[d].shift;
        factor *= mesh[d] > 1 ? 1 : 0;
        span = std::max(span, mesh[d]);
      } else {
        words *= std::max(rt.dims[d].size - rt.dims[d].shift, 0.0);
      }
    }
    if (factor == 0 || words <= 0)
      continue;
    ComposedTerm t;
    t.prim = Primitive::Shift;
    t.words = words;
    t.factor = factor;
    t.span = span;
    if (!(mask & (mask - 1))) { // one dimension's boundary
      const size_t d = B[size_t(std::countr_zero(mask))];
      t.senders = rt.dims[d].shiftSenders;
      partsBesides(rt, d, mesh, t.senders, &rt.dims[d].shiftParts);
      t.shiftDim = int(d);
      t.direction = rt.dims[d].shiftDirection;
    }
    t.rule = (mask & (mask - 1)) ? "Table 4.5 (row 3): corner Shift(c1*c2)"
                                 : "Table 4.2 (3): boundary Shift(bd)";
    terms.push_back(t);
  }

  for (size_t d = 0; d < D; ++d)
    for (const CommTerm &c : rt.dims[d].terms) {
      if (c.prim == Primitive::Shift && rt.dims[d].boundary)
        continue; // composed above
      if (c.factor == 0)
        continue; // an indicator (N > 1) that is 0
      ComposedTerm t;
      t.prim = c.prim;
      t.words = total * c.sizeShare;
      t.group = c.probabilistic ? -c.probabilityN : c.certain ? -1 : c.group;
      t.certain = c.certain;
      t.factor = c.factor;
      t.count = c.count;
      t.span = mesh[d];
      t.meshDim = int(d);
      t.boundaryTransfer = c.boundaryTransfer;
      t.loop = c.boundaryTransfer ? c.loop : -1;
      t.senders = c.senders;
      t.ownShare = c.share;
      partsBesides(rt, d, mesh, t.senders, &c.ownParts);
      if (t.prim == Primitive::Gather && d < rt.rootTurns.size() && !rt.rootTurns[d].empty())
        t.senders.parts = withRootTurns(t.senders.parts, int(d), rt.rootTurns[d]);
      t.afterExchange = c.afterExchange;
      t.fill = c.fill;
      if (c.prim == Primitive::Shift && c.direction != 0) {
        t.shiftDim = int(d);
        t.direction = c.direction;
      }
      if (t.prim == Primitive::OneToManyMulticast || t.prim == Primitive::Scatter ||
          t.prim == Primitive::Transfer) // one source, moving with the operand
        t.senders.share = sourceShare(rt, c) * c.share;
      t.rule = c.rule;
      // Beyond the thesis: R Gathers (or Reductions) along this mesh
      // dimension, each to the next tile's lhs owner (DimResult::receivers),
      // run at once: every member sends its part to each receiver, each
      // receiver takes its collective's, Gather(m, p) + (R - 1) Transfer(m)
      // for the R, where the tiles repeat Gather(m, p) R times. For a Gather,
      // R = p is Table 6.1's ManyToManyMulticast(m, p) = (p - 1) Shift(m):
      // matmul's B(K,J) to C(I,J)'s rows, blocked alike.
      const double R = rt.dims[d].receivers;
      if ((t.prim == Primitive::Gather || t.prim == Primitive::Reduction) && R > 1) {
        t.count = c.count / R;
        ComposedTerm each = t;
        each.prim = Primitive::Transfer;
        each.group = 1;
        each.count = c.count * (R - 1) / R;
        // Where every member receives too (every processor along the
        // dimension does, or the receivers' blocks hold the members'), a
        // member sends to the R - 1 others: the Gather carries one, these
        // R - 2.
        const auto &to = rt.dims[d].receiverOwners;
        const Senders &from = c.senders;
        bool membersReceive = R >= double(mesh[d]) ||
                              (to && from.meshDim == int(d) && to->first <= from.first &&
                               from.last <= to->second);
        each.senders.share = membersReceive ? (R - 2) / (R - 1) : 1;
        if (t.prim == Primitive::Reduction)
          each.words *= rt.partials; // what the Reduction carries (below)
        each.rule = t.prim == Primitive::Gather
                        ? "Gathers to the tiles' receivers at once: (R - 1) Transfer(m) more"
                        : "Reductions to the tiles' receivers at once: (R - 1) Transfer(m) more";
        terms.push_back(t);
        terms.push_back(each);
        continue;
      }
      terms.push_back(t);
    }
  jointFill(terms, rt, mesh);
  mergeIdentical(terms, rt.joint);

  // After a Gather, a ManyToManyMulticast moves the gathered data.
  // A replicated lhs's holders exchange their parts (ManyToManyMulticast)
  // before multicasting them (CommTerm::afterExchange).
  int64_t gathered = 1, exchanged = 1;
  int gatherDim = -1; // a Gather's mesh dimension, where its members are known
  for (const auto &t : terms) {
    if (t.staged)
      continue;
    if (t.prim == Primitive::Gather || t.prim == Primitive::DGather) {
      gathered = std::max(gathered, t.group);
      if (t.prim == Primitive::Gather && t.group > 1)
        gatherDim = t.senders.meshDim;
    }
    if (t.prim == Primitive::ManyToManyMulticast)
      exchanged *= t.group;
  }
  // The exchange runs on the lines of the mesh that hold the operand: where
  // the multicast after it leaves from one coordinate of its dimension (a
  // type-2 loop's root), only processors at that coordinate exchange (the
  // executor's gatherByDimension: the dimensions every coordinate holds
  // first, and a line that holds none sends nothing). tred2's D(J) = Z(L,J)
  // with Z's rows on 8 and its columns on 2: row L's two holders swap
  // halves, not all 16 processors.
  for (const auto &o : terms)
    if (o.prim == Primitive::OneToManyMulticast && o.afterExchange && oneSource(o) && !o.staged)
      for (auto &t : terms) {
        if (t.prim != Primitive::ManyToManyMulticast || t.staged || t.meshDim == o.senders.meshDim ||
            t.senders.meshDim >= 0)
          continue;
        Senders::Parts parts = t.senders.parts ? *t.senders.parts : Senders::Parts{};
        if (std::any_of(parts.begin(), parts.end(),
                        [&](const auto &q) { return q.first == o.senders.meshDim; }))
          continue;
        parts.push_back(atItsSource(o));
        t.senders.parts = std::make_shared<const Senders::Parts>(std::move(parts));
      }
  fillInStages(terms, mesh);
  for (auto &t : terms) {
    if (t.prim == Primitive::ManyToManyMulticast && !t.staged)
      t.words *= double(gathered);
    if (t.prim == Primitive::OneToManyMulticast && t.afterExchange && !t.staged)
      t.words *= double(exchanged);
    // Table 4.6 composes a Gather along one mesh dimension with a Transfer
    // along another as two steps, the Gather's root passing the pieces on;
    // each member sends its piece straight to the lhs's owner (the
    // validate executor), so the Transfer's time stays but no processor
    // sends more messages for it (fig4_17's A(N,N) = B(I,1)).
    if (t.prim == Primitive::Transfer && gatherDim >= 0 && t.senders.meshDim >= 0 &&
        t.senders.meshDim != gatherDim)
      t.senders.share = 0;
    if (t.prim == Primitive::Reduction)
      t.words *= rt.partials;
    if (t.group < 0) // probabilistic Transfer: a point-to-point message
      t.group = 1;
    if (rt.selfServed && !t.senders.joint) // a transpose's diagonal sends nothing
      t.senders.joint = rt.selfServed;
  }
  std::stable_sort(terms.begin(), terms.end(),
                   [](const ComposedTerm &a, const ComposedTerm &b) {
                     return compositionRank(a.prim) < compositionRank(b.prim);
                   });
  return terms;
}

} // namespace dlayout::cost
