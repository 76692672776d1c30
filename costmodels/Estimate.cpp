//===- costmodels/Estimate.cpp - Predicted run time of a layout -----------===//

#include "costmodels/Estimate.h"
#include "costmodels/Subsumption.h"
#include "costmodels/FetchBound.h"
#include "costmodels/Computation.h"
#include "costmodels/AcrossStatements.h"
#include "costmodels/BodyBusiest.h"
#include "costmodels/LayoutView.h"
#include "costmodels/ProgramAnalysis.h"
#include "costmodels/StatementCache.h"

#include <algorithm>

namespace dlayout {

using namespace cost;

cost::AnalysisOptions analysisOptions(const EstimateOptions &opts) {
  AnalysisOptions ao;
  ao.parallelReductions = opts.parallelReductions;
  ao.scalarCommunication =
      opts.scalarCommunication && opts.placement == PlacementSource::Dependences;
  ao.placement = opts.placement;
  return ao;
}

Result<Estimator> Estimator::build(const Program &p, EstimateOptions opts) {
  auto facts = analyzeProgram(p, analysisOptions(opts));
  if (!facts)
    return facts.error();
  Estimator e;
  e.program_ = &p;
  e.facts_ = std::make_shared<const ProgramFacts>(std::move(*facts));
  e.opts_ = opts;
  e.cache_ = std::make_shared<StatementCache>(*e.facts_);
  return e;
}

Result<Estimate> Estimator::evaluate(const Layout &l, const Machine &m, Breakdown detail) const {
  return run(l, m, detail);
}

Result<double> Estimator::seconds(const Layout &l, const Machine &m) const {
  auto e = run(l, m, std::nullopt);
  if (!e)
    return e.error();
  return e->predictedSeconds;
}

Result<Estimate> Estimator::evaluateStatement(const Layout &l, const Machine &m,
                                             const std::string &statement,
                                             Breakdown detail) const {
  return evaluateStatements(l, m, {statement}, detail);
}

Result<Estimate> Estimator::evaluateStatements(const Layout &l, const Machine &m,
                                              const std::vector<std::string> &statements,
                                              Breakdown detail) const {
  std::vector<const StatementFacts *> only;
  for (const std::string &id : statements) {
    const StatementFacts *sf = facts_->findStatement(id);
    if (!sf) return makeError("no statement " + id + " in the program");
    only.push_back(sf);
  }
  // Program order (ProgramFacts::statements is in it), each once.
  std::sort(only.begin(), only.end());
  only.erase(std::unique(only.begin(), only.end()), only.end());
  return run(l, m, detail, &only);
}

Result<Estimate> Estimator::run(const Layout &l, const Machine &m, std::optional<Breakdown> detail,
                                const std::vector<const StatementFacts *> *only) const {
  const ProgramFacts &pf = *facts_;
  std::vector<int> touched; // what `only` reads
  if (only) {
    for (const StatementFacts *sf : *only) {
      const std::vector<int> a = sf->arraysCosted();
      touched.insert(touched.end(), a.begin(), a.end());
    }
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  }
  auto view = resolveLayout(pf, l, opts_.procs, only ? &touched : nullptr);
  if (!view)
    return view.error();
  const LayoutView &lv = *view;

  Estimate est;
  est.machine = m.name;
  est.mesh = l.mesh;
  est.warnings = pf.warnings;
  PrimitiveCosts costs(m, opts_.topologyHops);
  ComputationOptions co;
  co.imbalance = opts_.imbalance;
  co.overlap = opts_.overlap;
  co.parallelReductions = opts_.parallelReductions;
  // The thesis's placement comes with its formulas (EstimateOptions).
  bool beyond = opts_.placement == PlacementSource::Dependences;
  co.exactOwners = opts_.exactOwners && beyond;
  co.pipelining = opts_.pipelining && beyond;
  CommunicationOptions cmo;
  cmo.pipelining = opts_.pipelining;
  cmo.relayedPipeline = opts_.relayedPipeline && beyond && m.halfDuplex();
  cmo.irregular = beyond ? opts_.irregular : IrregularStrategy::Collective;
  cmo.ghostExchange = opts_.ghostExchange;
  cmo.coalescing = opts_.coalescing && beyond;
  cmo.terms.exactOwners = opts_.exactOwners && beyond;

  std::vector<const StatementFacts *> every;
  if (!only)
    for (const StatementFacts &sf : pf.statements)
      every.push_back(&sf);
  std::vector<ComputationCost> work;
  std::vector<StatementComm> comm;
  // Each statement's own costs, kept across layouts (StatementCache.h).
  const auto arrayKeys = StatementCache::arrayKeys(pf, l);
  const uint64_t kept = arrayKeys ? cache_->use(m) : 0;
  std::string key;
  for (const StatementFacts *it : only ? *only : every) {
    if (!arrayKeys) {
      work.push_back(statementComputation(*it, lv, m, co));
      comm.push_back({it, {}});
      statementCommunication(*it, lv, pf, costs, cmo, comm.back().costs);
      continue;
    }
    // Part by part (StatementCache::Part), the communication put back in
    // rhs order (statementCommunication's) where it comes in several.
    const size_t s = size_t(it - pf.statements.data());
    const std::vector<StatementCache::Part> &parts = cache_->parts(s);
    ComputationCost &cc = work.emplace_back();
    std::vector<CommCost> &costsOf = comm.emplace_back(StatementComm{it, {}}).costs;
    for (size_t k = 0; k < parts.size(); ++k) {
      const StatementCache::Part &part = parts[k];
      cache_->key(s, k, l, *arrayKeys, key);
      std::shared_ptr<const StatementCosts> found = cache_->find(kept, s, k, key);
      if (!found) {
        StatementCosts made;
        if (part.computation)
          made.work = statementComputation(*it, lv, m, co);
        if (part.array >= 0)
          statementCommunication(*it, lv, pf, costs, cmo, made.comm, part.array);
        found = std::make_shared<const StatementCosts>(std::move(made));
        cache_->insert(kept, s, k, key, found);
      }
      if (part.computation)
        cc = found->work;
      costsOf.insert(costsOf.end(), found->comm.begin(), found->comm.end());
    }
    if (parts.size() > 2)
      std::stable_sort(costsOf.begin(), costsOf.end(),
                       [](const CommCost &a, const CommCost &b) { return a.rhs < b.rhs; });
  }
  if (cmo.coalescing) {
    coalesceAcrossStatements(comm, lv, costs);
    dropSubsumedFetches(comm, lv);
    // A joint fetch kept, as a statement's parts are, under its reads'
    // parts' keys.
    joinCountedFetches(comm, [&](std::span<const StatementRead> reads) {
      if (!arrayKeys)
        return jointFetch(reads, lv, pf, costs, cmo);
      cache_->jointKey(reads, pf, l, *arrayKeys, key);
      std::shared_ptr<const StatementCosts> found = cache_->findJoint(kept, key);
      if (!found) {
        StatementCosts made;
        auto terms = jointFetch(reads, lv, pf, costs, cmo);
        made.refused = !terms;
        if (terms)
          made.comm = std::move(*terms);
        found = std::make_shared<const StatementCosts>(std::move(made));
        cache_->insertJoint(kept, key, found);
      }
      return found->refused ? std::nullopt : std::optional(found->comm);
    });
    joinSectionsAcrossStatements(comm, lv, costs, cmo);
    boundFetches(comm, lv, pf, costs, cmo);
  }
  if (co.exactOwners)
    shareBusiestProcessor(work, comm);
  if (detail) {
    size_t terms = comm.size();
    for (const StatementComm &sc : comm)
      terms += sc.costs.size();
    est.terms.reserve(terms);
  }
  const bool full = detail == Breakdown::Full;
  for (size_t k = 0; k < comm.size(); ++k) {
    const StatementFacts &sf = *comm[k].sf;
    const ComputationCost &cc = work[k];
    est.computationSeconds += cc.seconds;
    if (detail) {
      EstimateTerm &t = est.terms.emplace_back();
      t.kind = EstimateTerm::Kind::Computation;
      t.statement = sf.stmt->id;
      t.seconds = cc.seconds;
      if (full) {
        t.phase = sf.phase;
        t.loc = sf.stmt->loc;
        t.primitive = "computation";
        t.repetitions = cc.iterations;
        t.rule = "Eq. 3.1: rho * prod C_l * t";
      }
    }
    for (CommCost &c : comm[k].costs) {
      est.communicationSeconds += c.seconds;
      if (!detail)
        continue;
      const RhsFacts &rf = sf.rhs[c.rhs];
      EstimateTerm &t = est.terms.emplace_back();
      t.kind = EstimateTerm::Kind::Communication;
      t.statement = sf.stmt->id;
      t.array = pf.arrays[rf.ref.array]->name;
      t.seconds = c.seconds;
      if (!full)
        continue;
      t.phase = sf.phase;
      t.loc = rf.ref.ref->loc.known() ? rf.ref.ref->loc : sf.stmt->loc;
      t.primitive = c.primitive;
      t.messageWords = c.words;
      t.messageBytes = c.bytes;
      t.groupSize = c.group;
      t.repetitions = c.repetitions;
      t.placement = c.placement >= 0 ? sf.loops[c.placement].loop->id : "";
      t.rule = c.describe();
      t.senders = c.senders;
    }
  }
  est.predictedSeconds = est.computationSeconds + est.communicationSeconds;
  return est;
}

Result<Estimate> estimate(const Program &p, const Layout &l, const Machine &m,
                          const EstimateOptions &opts) {
  auto e = Estimator::build(p, opts);
  if (!e)
    return e.error();
  return e->evaluate(l, m);
}

Status validateLayout(const Program &p, const Layout &l,
                      std::optional<int64_t> procs) {
  auto facts = analyzeProgram(p);
  if (!facts)
    return facts.error();
  auto view = resolveLayout(*facts, l, procs);
  if (!view)
    return view.error();
  return success();
}

} // namespace dlayout
