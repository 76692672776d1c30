//===- validate/runtime/Counters.h - Messages, bytes and time per phase -*- C++ -*-===//
//
// Every communicating operation of the runtime charges one rank's Counters
// (held by its ProcessorMesh) under a phase:
//
//   Scheduling     building schedules, inspectors, translation-table look-ups
//                  (PARTI's scheduler, Kali's inspector)
//   Communication  moving data through a schedule, ghost updates, collectives
//   Computation    the user's loop bodies run by the executor
//
// Counting convention. Point-to-point messages are counted exactly: one per
// non-empty message, its payload in bytes. A collective is counted as the
// messages of its flat (linear) algorithm, which is what the estimator's
// primitives cost: a broadcast root sends P−1, every other rank receives 1;
// an all-gather sends and receives P−1; a scatter root sends P−1 (gather:
// receives P−1); an all-to-all sends one message to every peer with a
// non-zero count; a reduction sends and receives one. `collectives` counts
// the calls. Seconds are MPI_Wtime differences (simulated time under SMPI).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>

namespace dlayout::rt {

enum class Phase : int { Scheduling = 0, Communication = 1, Computation = 2 };
inline constexpr int kPhases = 3;

inline const char *phaseName(Phase p) {
  switch (p) {
  case Phase::Scheduling: return "scheduling";
  case Phase::Communication: return "communication";
  case Phase::Computation: return "computation";
  }
  return "?";
}

struct PhaseCounters {
  int64_t messagesSent = 0, messagesReceived = 0;
  int64_t bytesSent = 0, bytesReceived = 0;
  int64_t collectives = 0;
  double seconds = 0;

  PhaseCounters &operator+=(const PhaseCounters &o) {
    messagesSent += o.messagesSent;
    messagesReceived += o.messagesReceived;
    bytesSent += o.bytesSent;
    bytesReceived += o.bytesReceived;
    collectives += o.collectives;
    seconds += o.seconds;
    return *this;
  }
  bool operator==(const PhaseCounters &) const = default;
};

class Counters {
public:
  PhaseCounters &operator[](Phase p) { return c_[static_cast<int>(p)]; }
  const PhaseCounters &operator[](Phase p) const { return c_[static_cast<int>(p)]; }

  void sent(Phase p, int64_t messages, int64_t bytes) {
    (*this)[p].messagesSent += messages;
    (*this)[p].bytesSent += bytes;
  }
  void received(Phase p, int64_t messages, int64_t bytes) {
    (*this)[p].messagesReceived += messages;
    (*this)[p].bytesReceived += bytes;
  }
  void collective(Phase p) { ++(*this)[p].collectives; }

  PhaseCounters total() const {
    PhaseCounters t;
    for (const auto &c : c_) t += c;
    return t;
  }
  void reset() { c_ = {}; }

private:
  std::array<PhaseCounters, kPhases> c_{};
};

/// Adds the wall (or simulated) time of its scope to a phase.
class PhaseTimer {
public:
  PhaseTimer(Counters &c, Phase p) : c_(c), p_(p), t0_(MPI_Wtime()) {}
  ~PhaseTimer() { c_[p_].seconds += MPI_Wtime() - t0_; }
  PhaseTimer(const PhaseTimer &) = delete;
  PhaseTimer &operator=(const PhaseTimer &) = delete;

private:
  Counters &c_;
  Phase p_;
  double t0_;
};

} // namespace dlayout::rt
