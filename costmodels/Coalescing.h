//===- costmodels/Coalescing.h - Messages that carry several references -*- C++ -*-===//
//
// Beyond the thesis: message coalescing (Fortran D), the rules
// Communication.h lists, applied to one statement's rhs references before
// their terms are composed and charged. coalesce() takes each reference's
// per-mesh-dimension terms (referenceTerms) and decides which reference's
// messages carry which: a carried reference is skipped, and its carrier's
// terms grow by what it adds (a section union's wider section, sections
// disjoint off the mesh, both directions' edges over two processors).
// AcrossStatements.h joins what statements fetch before the same loop.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/CommTerms.h"
#include "costmodels/Communication.h"

#include <vector>

namespace dlayout::cost::detail {

/// One statement's references after coalescing, each vector by rhs index.
struct Coalesced {
  std::vector<ReferenceTerms> terms; // a carrier's grown by what it carries
  std::vector<char> skip;            // carried by another reference's messages
  std::vector<int> sharedBy;         // the references a carrier's messages serve
  /// The mesh dimension along which both directions' Shifts are one
  /// exchange (each side sending its edge); -1 where none.
  std::vector<int> twoWay;
  std::vector<double> grown; // localSize grown by the sections it carries
  /// The references a Shift's messages carry besides its own (filled only
  /// where a rule joins some: the estimator's hot path).
  std::vector<std::vector<const RhsFacts *>> carried;
  std::vector<SectionUnion> unions; // the union a reference heads (dim -1: none)
  /// Its messages but its boundary Shifts carried by another reference's:
  /// only its edges move on their own.
  std::vector<char> edgeOnly;
};

/// `array` (a ProgramFacts index; -1: every one) restricts it to the
/// references to that array: the others are skipped, unwalked. Every rule
/// joins references to one array only, so that what it gives a reference
/// does not depend on the others.
Coalesced coalesce(const StatementFacts &sf, const LayoutView &lv,
                   const CommunicationOptions &opts, int array = -1);

/// Widens a reference's terms to its section union's (a sample of a
/// triangular nest is costed afresh, and widened again).
void widen(ReferenceTerms &rt, const RhsFacts &rf, const LayoutView &lv, const SectionUnion &u);

/// The same array with the same subscripts (the source locations aside).
bool sameReference(const RhsFacts &a, const RhsFacts &b);

/// Not two terms each sent from one known coordinate (Senders), different
/// ones: W(I,J,2) and W(I,J,3) multicast from the holders of two planes are
/// two messages, however alike.
bool sameSource(const Senders &x, const Senders &y);

/// The array dimension two references to one array differ in, where they
/// differ in one only and there by a constant (an affine subscript
/// alpha * i + c, or a number); -1 else. A section union's candidates.
int sectionDim(const RhsFacts &a, const RhsFacts &b);

} // namespace dlayout::cost::detail
