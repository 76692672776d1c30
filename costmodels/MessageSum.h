//===- costmodels/MessageSum.h - Samples of a triangular nest added up -*- C++ -*-===//
//
// Beyond the thesis. OuterSamples.h costs a triangular nest's communication
// at samples of the loops its inner bounds vary with; the samples' terms
// are added up in one of two ways.
//
// Samples of a loop the terms are repeated in (lu's column k multicast at
// each k) are that many more messages: addRepeated() sums the repetitions
// of a term alike in both (primitive, group, rule, senders), its size the
// mean weighted by them.
//
// A reference vectorised over loops whose bounds vary with one another
// (tred2's Z(K,J) in DO J = 1, L / DO K = J+1, L, fetched once per I)
// sends one message per placement holding every element of the triangle
// a processor owns. Fig. 3.2 sizes it with each loop's mean
// trips; OuterSamples.h walks the driving loop (J) instead, and a
// MessageSum adds the samples' terms into the one message they make up
// -- where the fetch is not counted as the executor forms it
// (CountedFetch.h, for an array element's operands): a scalar's operands
// (G = G + Z(K,J) * D(K)), an owner without Eq. 2.1.
// Per term, what each coordinate along the senders' mesh dimension sends
// (Senders: first..last, parts) is summed over the samples; the busiest
// coordinate's sum is the message size and the others' its parts. Row K's
// owner sends K - 1 elements of Z for each K it holds: the last block the
// most, not the mean J's share of every block. The term's form -- its
// primitive, group, count and senders -- is the widest sample's, the one
// whose senders cover the most coordinates (J = 1's, where every block
// holds part of the triangle).
//
// Where a sample's senders vary along several mesh dimensions (tred2's
// Z(K,J) multicast over a whole 4 x 4 mesh, the triangle's rows and
// columns on different ones), what each processor sends is summed
// instead; the busiest processor's sum is the message size, and each
// processor's sum over it its part (Senders::Joint over the whole mesh). Its
// terms must be alike in every sample: the same primitive over the same
// mesh dimensions (Composition.h's meshDim), paired in order. Where they
// are not -- tred2's Z(K,J) into a replicated E on 4 x 4, one multicast
// over the whole mesh at some samples, one along each mesh dimension
// (Table 4.5) at others; a column segment of Z(K,J), K = J+1..L, that
// lies in one row block at some J (a OneToManyMulticast from its holder)
// and spans several at others (a ManyToManyMulticast, each holder sending
// its share) -- and every term is a OneToManyMulticast or every term moves
// along one mesh dimension, the samples are joined into one sum of what
// each processor sends, messages times words (Primitives.h sentAt),
// carried by the form whose group is the largest (its messages per
// repetition dividing the busiest's sum). Where the terms mix a
// ManyToManyMulticast along one dimension with multicasts along another
// (a distributed lhs E(K) read from Z(K,J)), the executor gathers the
// holders' shares before it multicasts them on, which a sum of the terms
// apart does not follow: such samples are not summed.
//
// The samples must have as many terms, each a multicast of the same array
// reference along the same mesh dimension (or summed per processor as
// above), not tiled; where they do not (a partial-results exchange, whose
// owners change with the sample; a message per tile), the message is not
// one sum, and add() says so. Meshes of more than kMaxSummedProcessors are
// not summed per processor. A sum of nothing (every sample's section empty:
// tred2's triangle at L = 1) is no message, and no term.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "costmodels/Communication.h"

#include <cstdint>
#include <vector>

namespace dlayout::cost {

inline constexpr int64_t kMaxSummedProcessors = 1 << 14;

/// Adds the terms of one sample of a loop they are repeated in to those of
/// the others: a term moving the same primitive over the same group from
/// the same senders by the same rule is one, its repetitions and seconds
/// summed and its message size their mean weighted by repetitions (the
/// bytes it moves in all kept).
void addRepeated(std::vector<CommCost> &one, std::vector<CommCost> &into);

/// The terms of samples of a loop one message is vectorised over, added
/// into that message.
class MessageSum {
public:
  explicit MessageSum(std::vector<int64_t> mesh) : mesh_(std::move(mesh)) {}
  /// Adds one sample's terms, standing for `weight` iterations of the
  /// loops sampled; false where they cannot be summed with the earlier
  /// samples' (nothing added).
  bool add(const std::vector<CommCost> &terms, double weight);
  /// The summed terms: the widest sample's form, words the busiest
  /// coordinate's sum, parts the others'; bytes and seconds not set.
  std::vector<CommCost> result() const;

private:
  struct Sum {
    CommCost form;                    // the widest sample's term
    int64_t width = -1;               // the processors its senders cover
    int dim = -1;                     // the mesh dimension summed along; -1: none; -2: per processor
    std::vector<double> byCoordinate; // words sent, per coordinate along dim
    double everywhere = 0;            // words every coordinate sends (dim -1)
    std::vector<double> byProcessor;  // dim -2: words sent, per processor (coordinates_)
  };
  int64_t processors() const;
  /// Whether a sample's terms pair with the sums' in order (see above).
  bool pairs(const std::vector<CommCost> &terms) const;
  /// Whether samples that do not pair can be joined per processor: every
  /// term a OneToManyMulticast, or every term along one mesh dimension.
  bool joinable(const std::vector<CommCost> &terms) const;
  /// Turns s into a sum per processor (dim -2).
  void perProcessor(Sum &s);
  /// Joins the sums into one of what each processor sends (collapsed_).
  void collapse();
  void addSent(Sum &all, const CommCost &c, double weight);
  static void widest(Sum &all, const CommCost &c, int64_t width);
  CommCost perProcessorResult(const Sum &s, CommCost c) const;

  std::vector<int64_t> mesh_;
  std::vector<std::vector<int64_t>> coordinates_; // the mesh's, once a sum is per processor
  std::vector<Sum> sums_;
  bool started_ = false;
  /// The samples' terms did not pair: one sum of the message-words
  /// (messages times words) each processor sends, over every term.
  bool collapsed_ = false;
};

} // namespace dlayout::cost
