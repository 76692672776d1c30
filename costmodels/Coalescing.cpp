//===- costmodels/Coalescing.cpp - Messages that carry several references -===//

#include "costmodels/Coalescing.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace dlayout::cost {

namespace {

/// The reference's only communication is one boundary Shift: (mesh dim,
/// direction, width), for the ghost-region merge.
bool soleShift(const ReferenceTerms &rt, int &dim, int &dir, double &width) {
  dim = -1;
  for (size_t d = 0; d < rt.dims.size(); ++d) {
    const DimResult &r = rt.dims[d];
    for (const CommTerm &t : r.terms)
      if (t.factor != 0 && !(r.boundary && t.prim == Primitive::Shift))
        return false;
    if (r.boundary) {
      if (dim >= 0)
        return false;
      dim = int(d);
      dir = r.shiftDirection;
      width = r.shift;
    }
  }
  return dim >= 0;
}

/// The mesh dimension of the reference's only communication, one Shift of
/// the local data (Table 4.2 case 2); -1 where it has other terms.
int soleLocalShift(const ReferenceTerms &rt) {
  int dim = -1;
  for (size_t d = 0; d < rt.dims.size(); ++d) {
    if (rt.dims[d].boundary)
      return -1;
    for (const CommTerm &t : rt.dims[d].terms) {
      if (t.factor == 0)
        continue;
      if (t.prim != Primitive::Shift || t.direction == 0 || dim >= 0)
        return -1;
      dim = int(d);
    }
  }
  return dim;
}

/// The direction of the Shift of the local data (Table 4.2 case 2) among
/// a dimension's terms; 0 where it has none.
int localShiftDirection(const DimResult &r) {
  for (const CommTerm &t : r.terms)
    if (t.factor != 0 && t.prim == Primitive::Shift && t.direction != 0)
      return t.direction;
  return 0;
}

/// The reference's only communication is boundary Shifts (on one mesh
/// dimension or several), or where `local`, Shifts of the local data too.
bool onlyShifts(const ReferenceTerms &rt, bool local = false) {
  bool any = false;
  for (const DimResult &r : rt.dims) {
    const bool localShift = local && !r.boundary && localShiftDirection(r) != 0;
    for (const CommTerm &t : r.terms)
      if (t.factor != 0 && !((r.boundary || localShift) && t.prim == Primitive::Shift))
        return false;
    any = any || r.boundary || localShift;
  }
  return any;
}

/// Both sides of a coalesced pair move between the same processors: the
/// same primitives, groups, sizes and counts, Shifts along the same mesh
/// dimension and the same way, not each from one known coordinate but
/// different ones (W(I,J,2) and W(I,J,3) multicast from the holders of two
/// planes are two messages).
bool sameMessages(const std::vector<ComposedTerm> &a, const std::vector<ComposedTerm> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t k = 0; k < a.size(); ++k)
    if (a[k].prim != b[k].prim || a[k].words != b[k].words || a[k].shiftDim != b[k].shiftDim ||
        a[k].direction != b[k].direction ||
        a[k].group != b[k].group || a[k].count != b[k].count || a[k].factor != b[k].factor ||
        a[k].boundaryTransfer != b[k].boundaryTransfer ||
        !detail::sameSource(a[k].senders, b[k].senders))
      return false;
  return true;
}

/// Two references to one array that name disjoint sections along a
/// dimension on no mesh dimension: different constants there (W(I+1,J,2)
/// beside W(I+1,J,3), the third dimension collapsed). The message that
/// carries one to a neighbour carries the other's elements too.
bool disjointOffMesh(const RhsFacts &a, const RhsFacts &b, const LayoutView &lv) {
  if (a.ref.array != b.ref.array || a.ref.subs.size() != b.ref.subs.size())
    return false;
  const ArrayDist &ad = lv.arrays[size_t(a.ref.array)];
  for (size_t k = 0; k < a.ref.subs.size() && k < ad.dims.size(); ++k) {
    const SubscriptForm &fa = a.ref.subs[k], &fb = b.ref.subs[k];
    if (!ad.dims[k].onMesh() && fa.cls == SubscriptClass::Constant &&
        fb.cls == SubscriptClass::Constant && fa.constant != fb.constant)
      return true;
  }
  return false;
}

/// Beyond the thesis (message coalescing over sections, Fortran D): two
/// references to one array whose subscripts differ only by a constant in one
/// dimension (P(I+1,J) beside P(I,J)), placed alike and moving between the
/// same processors, are fetched together, one message per pair of
/// processors carrying the union of their sections -- as the validate
/// executor sends. The dimension they differ in, or -1 where the pair does
/// not qualify (an affine subscript alpha * i + c or a constant there; the
/// other dimensions alike; no inspector).
int sectionPair(const RhsFacts &a, const RhsFacts &b, const ReferenceTerms &ta,
                const ReferenceTerms &tb, const LayoutView &lv) {
  if (ta.type2 != tb.type2 || ta.irregular || tb.irregular ||
      ta.localExtent.size() != a.ref.subs.size()) // a walk that stopped short
    return -1;
  const int differ = detail::sectionDim(a, b);
  if (differ < 0)
    return -1;
  const std::vector<ComposedTerm> ca = compose(ta, lv.mesh);
  if (!sameMessages(ca, compose(tb, lv.mesh)))
    return -1;
  // Shifts join where the sections differ off their mesh dimension (edges
  // of two planes); along it, the ghost-region rules below decide.
  const DimDist &dd = lv.arrays[size_t(a.ref.array)].dims[size_t(differ)];
  for (const ComposedTerm &t : ca)
    if (t.prim == Primitive::Shift && (t.shiftDim < 0 || (dd.onMesh() && dd.meshDim == t.shiftDim)))
      return -1;
  return differ;
}

/// Reference b differs from a only by an edge across the mesh dimension m
/// a blocked dimension lies on: its subscript there a constant off a's, no
/// further than a block; a boundary Shift along m that a lacks; and along
/// the other mesh dimensions the same messages from the same senders (the
/// parts of their sections each processor holds, which differ by rows at
/// the ends of the range). One message carries both parts, the larger:
/// Carrier::A where b's part is no larger (b keeps its edge alone,
/// Coalesced::edgeOnly), Carrier::B where a's is no larger (a rides on b's).
enum class Carrier { None, A, B };
Carrier edgeApart(const RhsFacts &b, const RhsFacts &a, const ReferenceTerms &tb,
                  const ReferenceTerms &ta, const LayoutView &lv) {
  if (ta.type2 != tb.type2 || ta.irregular || tb.irregular || ta.dims.size() != tb.dims.size())
    return Carrier::None;
  const int k = detail::sectionDim(a, b);
  if (k < 0)
    return Carrier::None;
  const DimDist &dd = lv.arrays[size_t(a.ref.array)].dims[size_t(k)];
  const SubscriptForm &fa = a.ref.subs[size_t(k)], &fb = b.ref.subs[size_t(k)];
  if (!dd.onMesh() || !dd.blocked() || dd.meshDim < 0 || size_t(dd.meshDim) >= ta.dims.size() ||
      fa.cls != SubscriptClass::Single || std::llabs(fa.constant - fb.constant) > dd.block)
    return Carrier::None;
  const size_t m = size_t(dd.meshDim);
  if (!tb.dims[m].boundary || ta.dims[m].boundary || !ta.dims[m].terms.empty())
    return Carrier::None;
  std::vector<ComposedTerm> rest;
  for (ComposedTerm &t : compose(tb, lv.mesh))
    if (t.prim != Primitive::Shift)
      rest.push_back(std::move(t));
  const std::vector<ComposedTerm> own = compose(ta, lv.mesh);
  if (rest.empty() || rest.size() != own.size())
    return Carrier::None;
  bool aLarger = true, bLarger = true;
  for (size_t q = 0; q < own.size(); ++q) {
    if (rest[q].prim != own[q].prim || rest[q].group != own[q].group ||
        rest[q].count != own[q].count || rest[q].factor != own[q].factor ||
        rest[q].meshDim != own[q].meshDim || !detail::sameSource(rest[q].senders, own[q].senders))
      return Carrier::None;
    aLarger = aLarger && rest[q].words <= own[q].words;
    bLarger = bLarger && rest[q].words >= own[q].words;
  }
  return aLarger ? Carrier::A : bLarger ? Carrier::B : Carrier::None;
}

/// The edges of a boundary's two directions sent in one exchange over two
/// processors: each coordinate's part of the wider edge, `keep`'s, is what
/// it sends in either direction (DimResult::shiftParts); empty where each
/// sends a whole one.
std::vector<double> twoWayParts(const DimResult &keep, const DimResult &drop, size_t dim) {
  auto edge = [dim](const DimResult &r, size_t c) {
    std::vector<int64_t> at(dim + 1, 0);
    at[dim] = int64_t(c);
    double part = r.shiftParts.size() == 2 ? r.shiftParts[c]
                  : r.shiftSenders.includes(at) ? 1.0
                                                : 0.0;
    return part * r.shift;
  };
  if (keep.shift <= 0)
    return {};
  std::vector<double> parts(2);
  for (size_t c = 0; c < 2; ++c)
    parts[c] = std::min((edge(keep, c) + edge(drop, c)) / keep.shift, 1.0);
  return parts[0] == 1 && parts[1] == 1 ? std::vector<double>{} : parts;
}

} // namespace

namespace detail {

bool sameReference(const RhsFacts &a, const RhsFacts &b) {
  return a.ref.ref && b.ref.ref && a.ref.array == b.ref.array &&
         a.ref.ref->subscripts == b.ref.ref->subscripts &&
         a.reductionOperand == b.reductionOperand;
}

bool sameSource(const Senders &x, const Senders &y) {
  const bool one = x.meshDim >= 0 && x.first == x.last;
  const bool other = y.meshDim >= 0 && y.first == y.last;
  return !one || !other || (x.meshDim == y.meshDim && x.first == y.first);
}

int sectionDim(const RhsFacts &a, const RhsFacts &b) {
  if (!a.ref.ref || !b.ref.ref || a.ref.array != b.ref.array ||
      a.reductionOperand != b.reductionOperand || a.ref.subs.size() != b.ref.subs.size() ||
      a.ref.ref->subscripts.size() != a.ref.subs.size() ||
      b.ref.ref->subscripts.size() != b.ref.subs.size())
    return -1;
  int differ = -1;
  for (size_t k = 0; k < a.ref.subs.size(); ++k)
    if (!(a.ref.ref->subscripts[k] == b.ref.ref->subscripts[k])) {
      if (differ >= 0)
        return -1;
      differ = int(k);
    }
  if (differ < 0)
    return -1;
  const SubscriptForm &fa = a.ref.subs[size_t(differ)], &fb = b.ref.subs[size_t(differ)];
  const bool affine = fa.cls == SubscriptClass::Constant || fa.cls == SubscriptClass::Single;
  if (!affine || fb.cls != fa.cls || fa.terms != fb.terms || fa.terms.size() > 1)
    return -1;
  return differ;
}

/// Widens a reference's data to the union's: (hi - lo) / |alpha| more
/// elements along the dimension where alpha divides it, else as many again
/// per reference joined;
/// along a mesh dimension distributed in blocks, no more than a block per
/// processor (the busiest sender's part of the union).
void widen(ReferenceTerms &rt, const RhsFacts &rf, const LayoutView &lv, const SectionUnion &u) {
  const SubscriptForm &f = rf.ref.subs[size_t(u.dim)];
  const int64_t delta = u.hi - u.lo;
  const int64_t alpha = f.terms.empty() ? 0 : std::llabs(f.terms[0].second);
  auto widened = [&](double size) {
    double others = size * double(u.count - 1);
    double more = alpha > 0 && delta % alpha == 0 ? double(delta / alpha) : others;
    return size + std::min(more, others);
  };
  const DimDist &dd = lv.arrays[size_t(rf.ref.array)].dims[size_t(u.dim)];
  if (!dd.onMesh()) {
    double &e = rt.localExtent[size_t(u.dim)];
    double grown = std::min(widened(e), double(dd.extent));
    rt.localSize *= grown / e;
    e = grown;
  } else if (dd.blocked() && dd.meshDim >= 0 && size_t(dd.meshDim) < rt.dims.size()) {
    double &size = rt.dims[size_t(dd.meshDim)].size;
    size = std::min(widened(size), std::max(size, double(dd.block)));
  }
}

Coalesced coalesce(const StatementFacts &sf, const LayoutView &lv,
                   const CommunicationOptions &opts, int array) {
  const size_t n = sf.rhs.size();
  Coalesced co;
  std::vector<ReferenceTerms> &all = co.terms;
  std::vector<char> &skip = co.skip;
  all.reserve(n);
  skip.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const RhsFacts &rf = sf.rhs[i];
    if (array >= 0 && rf.ref.array != array) {
      all.emplace_back();
      skip[i] = 1;
      continue;
    }
    all.push_back(referenceTerms(sf, rf, lv, opts.terms));
  }
  std::vector<int> &sharedBy = co.sharedBy, &twoWay = co.twoWay;
  std::vector<double> &grown = co.grown;
  std::vector<std::vector<const RhsFacts *>> &carried = co.carried;
  std::vector<SectionUnion> &unions = co.unions;
  sharedBy.assign(n, 1);
  twoWay.assign(n, -1);
  grown.assign(n, 1);
  carried.assign(n, {});
  unions.assign(n, {});
  co.edgeOnly.assign(n, 0);
  // Reference `drop`'s Shifts are carried by `keep`'s messages.
  auto carry = [&](size_t keep, size_t drop) {
    skip[drop] = 1;
    sharedBy[keep] += sharedBy[drop];
    carried[keep].push_back(&sf.rhs[drop]);
    carried[keep].insert(carried[keep].end(), carried[drop].begin(), carried[drop].end());
    if (disjointOffMesh(sf.rhs[keep], sf.rhs[drop], lv) && all[keep].localSize > 0) {
      double more = (all[keep].localSize + all[drop].localSize) / all[keep].localSize;
      all[keep].localSize *= more;
      grown[keep] *= more;
    }
  };
  // Message coalescing: an identical reference is fetched once.
  for (size_t i = 0; opts.coalescing && i < sf.rhs.size(); ++i)
    for (size_t j = 0; j < i && !skip[i]; ++j)
      if (!skip[j] && detail::sameReference(sf.rhs[i], sf.rhs[j]) &&
          all[i].type2 == all[j].type2) {
        skip[i] = 1;
        ++sharedBy[j];
      }
  // Message coalescing over sections: P(I+1,J) with P(I,J).
  for (size_t i = 0; opts.coalescing && i < sf.rhs.size(); ++i)
    for (size_t j = 0; j < i && !skip[i]; ++j) {
      if (skip[j])
        continue;
      int dim = sectionPair(sf.rhs[j], sf.rhs[i], all[j], all[i], lv);
      SectionUnion &u = unions[j];
      if (dim < 0 || (u.dim >= 0 && u.dim != dim))
        continue;
      int64_t cj = sf.rhs[j].ref.subs[size_t(dim)].constant;
      int64_t ci = sf.rhs[i].ref.subs[size_t(dim)].constant;
      u = {dim, std::min(u.dim < 0 ? cj : u.lo, ci), std::max(u.dim < 0 ? cj : u.hi, ci),
           u.count + 1};
      skip[i] = 1;
      sharedBy[j] += sharedBy[i];
      carried[j].push_back(&sf.rhs[i]); // its edges too, where it has a Shift
    }
  for (size_t j = 0; j < sf.rhs.size(); ++j)
    if (unions[j].dim >= 0)
      widen(all[j], sf.rhs[j], lv, unions[j]);
  // A reference a constant off another along a dimension blocked on mesh
  // dimension m, no further than a block (X(I-1,J,1) beside X(I,J,1), the
  // rows blocked), reaches the same receivers from the same senders but
  // for its edge across m (edgeApart): one message carries both's elements
  // but the edge, which its boundary Shift brings.
  for (size_t i = 0; opts.coalescing && i < n; ++i)
    for (size_t j = 0; j < n && !skip[i] && !co.edgeOnly[i]; ++j) {
      if (j == i || skip[j] || co.edgeOnly[j])
        continue;
      const Carrier c = edgeApart(sf.rhs[i], sf.rhs[j], all[i], all[j], lv);
      if (c == Carrier::A) {
        co.edgeOnly[i] = 1;
        sharedBy[j] += sharedBy[i];
      } else if (c == Carrier::B) {
        skip[j] = 1;
        sharedBy[i] += sharedBy[j];
      }
    }
  // Ghost-region exchange: the widest Shift per (array, mesh dimension,
  // direction, placement) stands for the others when the overlap covers it.
  if ((opts.ghostExchange && lv.anyOverlap) || opts.coalescing) {
    struct Keeper {
      int array, dim, dir, index;
    };
    std::vector<Keeper> widest;
    for (size_t i = 0; i < all.size(); ++i) {
      int dim = -1, dir = 0;
      double width = 0;
      if (skip[i] || !soleShift(all[i], dim, dir, width))
        continue;
      const ArrayDist &ad = lv.arrays[sf.rhs[i].ref.array];
      const DimDist &dd = ad.dims[ad.dimOnMesh[dim]];
      double ghost = dir > 0 ? double(dd.overlapLeft) : double(dd.overlapRight);
      bool covered = opts.ghostExchange && ghost > 0 && ghost >= width;
      if (!covered && !opts.coalescing)
        continue;
      int array = sf.rhs[i].ref.array;
      auto it =
          std::find_if(widest.begin(), widest.end(), [&](const Keeper &k) {
            return k.array == array && k.dim == dim && k.dir == dir &&
                   all[size_t(k.index)].type2 == all[i].type2;
          });
      if (it == widest.end()) {
        widest.push_back({array, dim, dir, int(i)});
        continue;
      }
      int j = it->index;
      int keep = all[i].dims[dim].shift > all[j].dims[dim].shift ? int(i) : j;
      int drop = keep == int(i) ? j : int(i);
      carry(size_t(keep), size_t(drop));
      it->index = keep;
    }
    // Beyond the thesis (coalescing): on a mesh dimension of two processors
    // that the array does not wrap round, each processor has one neighbour,
    // so the Shifts of the two directions are one exchange -- processor 0
    // sends its upper boundary, processor 1 its lower, each one message --
    // which Table 6.1 costs as one Shift; the wider carries the narrower.
    for (size_t a = 0; opts.coalescing && a < widest.size(); ++a)
      for (size_t b = a + 1; b < widest.size(); ++b) {
        const Keeper &x = widest[a], &y = widest[b];
        int i = x.index, j = y.index;
        if (skip[size_t(i)] || skip[size_t(j)] || x.array != y.array ||
            x.dim != y.dim || x.dir == y.dir || all[size_t(i)].type2 != all[size_t(j)].type2)
          continue;
        const ArrayDist &ad = lv.arrays[size_t(x.array)];
        const DimDist &dd = ad.dims[size_t(ad.dimOnMesh[size_t(x.dim)])];
        if (dd.procs != 2 || !dd.blocked())
          continue;
        int keep = all[size_t(i)].dims[size_t(x.dim)].shift >= all[size_t(j)].dims[size_t(x.dim)].shift ? i : j;
        int drop = keep == i ? j : i;
        carry(size_t(keep), size_t(drop));
        DimResult &kept = all[size_t(keep)].dims[size_t(x.dim)];
        kept.shiftParts = twoWayParts(kept, all[size_t(drop)].dims[size_t(x.dim)], size_t(x.dim));
        kept.shiftSenders = {}; // both processors send
        twoWay[size_t(keep)] = x.dim;
      }
  }

  // Beyond the thesis (coalescing): on a mesh dimension of two processors
  // over which the array is cyclic, the Shifts of the local data (Table 4.2
  // case 2) of both directions reach the other processor: one message
  // carries both, the union of their elements -- the neighbours at an odd
  // distance d1 and d2 of every other index, |d1 - d2| / 2 more than either
  // (jacobi's a[i-1][j] with a[i+1][j], rows cyclic over 2: one row more).
  for (size_t i = 0; opts.coalescing && i < all.size(); ++i)
    for (size_t j = 0; j < i && !skip[i]; ++j) {
      const int d = soleLocalShift(all[i]);
      if (skip[j] || d < 0 || soleLocalShift(all[j]) != d ||
          sf.rhs[i].ref.array != sf.rhs[j].ref.array || all[i].type2 != all[j].type2)
        continue;
      const ArrayDist &ad = lv.arrays[size_t(sf.rhs[i].ref.array)];
      const int k = ad.dimOnMesh[size_t(d)];
      const SubscriptForm &gi = sf.rhs[i].ref.subs[size_t(k)], &gj = sf.rhs[j].ref.subs[size_t(k)];
      const DimDist &dd = ad.dims[size_t(k)];
      if (dd.procs != 2 || dd.kind != DistKind::Cyclic || gi.cls != SubscriptClass::Single ||
          gi.terms != gj.terms || gi.terms.size() != 1 || std::llabs(gi.terms[0].second) != 1 ||
          (gi.constant - gj.constant) % 2 != 0 || gi.constant == gj.constant)
        continue;
      DimResult &kept = all[j].dims[size_t(d)];
      kept.size += std::min(kept.size, double(std::llabs(gi.constant - gj.constant) / 2));
      carry(j, i);
    }

  // Beyond the thesis (coalescing), across mesh dimensions: a reference
  // whose only communication is boundary Shifts, each matched by a Shift of
  // another reference to the array (same placement) on the same mesh
  // dimension, at least as wide, towards the same neighbour (either
  // direction where the dimension has two processors and does not wrap),
  // needs a subset of that one's neighbours and elements: its messages carry
  // it (P(I,J) beside P(I,J+1) when the rows' blocks differ by one). So
  // does, on a blocked dimension, a Shift of the local data towards the
  // same neighbour, whose message holds the whole block the edge is part of
  // (dflux's DP(I+2,J) beside DP(I+1,J), rows in blocks of two).
  auto covers = [&](size_t j, size_t i) {
    for (size_t d = 0; d < all[i].dims.size(); ++d) {
      const DimResult &di = all[i].dims[d], &dj = all[j].dims[d];
      if (!di.boundary)
        continue;
      const ArrayDist &ad = lv.arrays[sf.rhs[i].ref.array];
      if (ad.dimOnMesh[d] < 0)
        return false;
      const DimDist &dd = ad.dims[size_t(ad.dimOnMesh[d])];
      if (!dj.boundary) {
        if (!dd.blocked() || localShiftDirection(dj) != di.shiftDirection)
          return false;
        continue;
      }
      bool oneNeighbour = dd.procs == 2 && dd.blocked();
      if (dj.shift < di.shift || (dj.shiftDirection != di.shiftDirection && !oneNeighbour))
        return false;
    }
    return true;
  };
  for (size_t i = 0; opts.coalescing && i < all.size(); ++i) {
    if (skip[i] || !onlyShifts(all[i]))
      continue;
    for (size_t j = 0; j < all.size(); ++j)
      if (j != i && !skip[j] && sf.rhs[j].ref.array == sf.rhs[i].ref.array &&
          all[j].type2 == all[i].type2 && onlyShifts(all[j], true) && covers(j, i)) {
        carry(j, i);
        // Towards the other neighbour of two: one exchange, each sending
        // its own edge (as the two directions' Shifts above).
        for (size_t d = 0; d < all[i].dims.size(); ++d) {
          DimResult &kept = all[j].dims[d];
          const DimResult &other = all[i].dims[d];
          if (!other.boundary || !kept.boundary || other.shiftDirection == kept.shiftDirection)
            continue;
          kept.shiftParts = twoWayParts(kept, other, d);
          kept.shiftSenders = {};
          twoWay[j] = int(d);
        }
        break;
      }
  }
  return co;
}

} // namespace detail

} // namespace dlayout::cost
