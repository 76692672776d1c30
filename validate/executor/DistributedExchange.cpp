//===- validate/executor/DistributedExchange.cpp - Moving elements -------===//
//
// DistributedMemory's communication (Distributed.h): the regular exchanges
// placed before a node -- every rank's plan from the node's instances -- and
// the multicasts, all-gathers and point-to-point messages they are made of.
// The indirect and replicating ones are in DistributedInspector.cpp.
//
//===----------------------------------------------------------------------===//
#include "validate/executor/Distributed.h"

#include "model/FillOrder.h"
#include "validate/executor/Messages.h"

#include <algorithm>
#include <map>
#include <set>

namespace dlayout::exec {

void DistributedMemory::beforeNode(int node, const int64_t *) { runActions(node, 0); }

void DistributedMemory::beforePart(int node, const int64_t *, int part, int64_t first,
                                   int64_t last) {
  part_ = Part{x_.nodes[node].index, first, last};
  runActions(node, part);
  part_.reset();
}

void DistributedMemory::runActions(int node, int part) {
  flushCompute();
  double t0 = MPI_Wtime();
  for (int a : x_.nodes[node].actions) {
    if (x_.actions[a].part != part) continue;
    countedAs(
        static_cast<size_t>(x_.actions[a].array),
        [&] {
          if (x_.actions[a].replicate) runReplicate(a);
          else if (x_.actions[a].indirect) runIndirect(a);
          else runDirect(a);
        },
        a);
  }
  stats[phase_].communicationSeconds += MPI_Wtime() - t0;
}

namespace {

/// Whether a source sends every receiver the same elements.
template <class Receivers> bool sendsAlike(const Receivers &receivers) {
  const auto &first = receivers.begin()->second;
  return std::all_of(receivers.begin(), receivers.end(), [&](const auto &r) {
    return r.second.size() == first.size() &&
           std::equal(r.second.begin(), r.second.end(), first.begin(),
                      [](const auto &x, const auto &y) { return x.first == y.first; });
  });
}

/// An all-gather among the n positions of `comm` (`ranks[c]` position c's
/// rank there), this rank at `self` with its block in `in[self]`; the
/// others' come in, each sized `bytes[c]`. Blocks of one size go round
/// Table 6.1's ring, ManyToManyMulticast(m, p): at step s each position
/// sends the next the block of the position s places before it (its own at
/// step 0) and receives from the one before the block s + 1 places before;
/// on a Gray-coded hypercube a mesh line's neighbours, the last and the
/// first included, are the cube's, so no two messages share a link, where
/// every member sending to every other at once contends (fig2_2's XRSIQ on
/// 2 x 8 of the iPSC/2: 28.8 ms against 24.8). Blocks of several sizes are
/// each sent to every other position at once (sendPartsToAll; a ring would
/// have the member before the smallest block forward the most, where the
/// model's one m has each send its own p - 1 times). Returns the bytes sent.
int64_t allGather(MPI_Comm comm, const std::vector<int> &ranks, size_t self,
                  std::vector<std::vector<char>> &in, const std::vector<size_t> &bytes) {
  const size_t n = in.size();
  int64_t sent = 0;
  if (std::equal(bytes.begin() + 1, bytes.end(), bytes.begin())) {
    const int next = ranks[(self + 1) % n], prev = ranks[(self + n - 1) % n];
    for (size_t s = 0; s + 1 < n; ++s) {
      const size_t out = (self + n - s) % n, from = (self + n - s - 1) % n;
      in[from].resize(bytes[from]);
      MPI_Sendrecv(in[out].data(), static_cast<int>(in[out].size()), MPI_BYTE, next,
                   kExchangeTag, in[from].data(), static_cast<int>(in[from].size()), MPI_BYTE,
                   prev, kExchangeTag, comm, MPI_STATUS_IGNORE);
      sent += static_cast<int64_t>(in[out].size());
    }
    return sent;
  }
  std::vector<std::span<char>> parts(n);
  for (size_t c = 0; c < n; ++c) {
    if (c != self) in[c].resize(bytes[c]);
    parts[c] = in[c];
  }
  return sendPartsToAll(comm, ranks, self, parts);
}

} // namespace

int64_t sendPartsToAll(MPI_Comm comm, const std::vector<int> &ranks, size_t self,
                       const std::vector<std::span<char>> &parts) {
  const size_t n = parts.size();
  std::vector<MPI_Request> reqs;
  for (size_t c = 0; c < n; ++c)
    if (c != self && !parts[c].empty())
      MPI_Irecv(parts[c].data(), static_cast<int>(parts[c].size()), MPI_BYTE, ranks[c],
                kExchangeTag, comm, &reqs.emplace_back());
  int64_t sent = 0;
  if (!parts[self].empty())
    for (size_t k = 1; k < n; ++k) {
      MPI_Isend(parts[self].data(), static_cast<int>(parts[self].size()), MPI_BYTE,
                ranks[(self + k) % n], kExchangeTag, comm, &reqs.emplace_back());
      sent += static_cast<int64_t>(parts[self].size());
    }
  MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
  return sent;
}

/// An all-gather's members in the order of their mesh coordinates, so that
/// along a mesh line each member's neighbours round allGather()'s ring are
/// the line's (the cube's, where the mesh is Gray-coded onto a hypercube).
std::vector<int> DistributedMemory::ringOrder(const std::set<int64_t> &group) const {
  std::vector<int> members(group.begin(), group.end());
  std::sort(members.begin(), members.end(),
            [&](int x, int y) { return mesh_.coordsOf(x) < mesh_.coordsOf(y); });
  return members;
}

void DistributedMemory::runDirect(int action) {
  const CommAction &act = x_.actions[action];
  Plan &plan = plans_[action];
  if (!plan.built || !act.invariant) {
    plan = Plan{};
    const CArray &ca = x_.arrays[act.array];
    rt::ArrayDistribution &dist = *arrays_[act.array].dist;
    // The whole pattern, every rank's: source -> receiver -> element ->
    // the source's local offset (known on the source only).
    std::map<int64_t, std::map<int64_t, std::map<int64_t, int64_t>>> pattern;
    std::vector<int64_t> execs;
    int64_t idx[8];
    for (const CommItem &it : act.items) {
      if (readsOwnPartial(it)) continue;
      const CStmt &st = x_.stmts[it.stmt];
      const CRef &r = it.index ? st.indexRefs[it.ref] : st.refs[it.ref];
      const size_t rank = r.subs.size();
      instances(it, act.level, [&](const int64_t *iv) {
        executors(it.stmt, iv, execs);
        in_->refIndex(it.stmt, r, iv, idx);
        if (!inRange(r.array, idx)) return;
        std::span<const int64_t> sp(idx, rank);
        for (int64_t e : execs) {
          int64_t src = dist.holderNear(sp, e);
          if (src == e) continue;
          auto &elements = pattern[src][e];
          int64_t g = linearId(ca, idx);
          if (!elements.count(g)) elements[g] = src == me_ ? dist.localOffset(me_, sp) : -1;
        }
      });
    }
    // A source multicasts the elements it sends alike to two or more
    // receivers (lu's column k to its mesh row and row k to its mesh column
    // are two multicasts from the diagonal block's owner, as the estimate
    // prices them), unless every member of its group sends to all the
    // others (an all-gather; over the whole mesh it is Table 4.5's
    // ManyToManyMulticast over p1 * p2): allGather() where each member
    // sends all the others the same elements, else one message per peer.
    // Several sources, not every processor, sending to every rank are
    // gathered one mesh dimension at a time (gatherByDimension).
    std::map<int64_t, std::set<int64_t>> groups; // each source with its receivers
    for (const auto &[src, receivers] : pattern) {
      std::set<int64_t> &g = groups[src];
      g.insert(src);
      for (const auto &[e, elements] : receivers) g.insert(e);
    }
    std::vector<Multicast> all; // every rank's, in the same order on all
    std::map<std::set<int64_t>, AllGather> allGathers;
    for (const auto &[src, receivers] : pattern) {
      const std::set<int64_t> &group = groups[src];
      const bool allGather = std::all_of(group.begin(), group.end(), [&](int64_t p) {
        auto it = groups.find(p);
        return it != groups.end() && it->second == group;
      });
      if (allGather && sendsAlike(receivers)) {
        AllGather &ag = allGathers[group];
        if (ag.members.empty()) ag.members = ringOrder(group);
        const auto at = std::find(ag.members.begin(), ag.members.end(), src) - ag.members.begin();
        ag.blocks.resize(ag.members.size());
        for (const auto &[g, offset] : receivers.begin()->second) {
          ag.blocks[static_cast<size_t>(at)].push_back(g);
          if (src == me_) ag.offsets.push_back(offset);
        }
        continue;
      }
      // The elements every other rank gets (a replicated left-hand side's)
      // go to the whole mesh, gathered one mesh dimension at a time with
      // the other sources' (below), however else the source's receivers
      // differ: tred2's diagonal Z(J,J) for the replicated G, fetched with
      // the column below it that the diagonal block's mesh row also gets.
      std::map<int64_t, int64_t> everyone; // element -> the source's offset
      if (!allGather && procs_ > 2 && static_cast<int>(receivers.size()) == procs_ - 1)
        for (const auto &[g, offset] : receivers.begin()->second)
          if (std::all_of(receivers.begin(), receivers.end(),
                          [&](const auto &r) { return r.second.count(g) > 0; }))
            everyone[g] = offset;
      std::map<int64_t, std::map<int64_t, int64_t>> others; // the rest, per receiver
      if (!everyone.empty())
        for (const auto &[e, elements] : receivers)
          for (const auto &[g, offset] : elements)
            if (!everyone.count(g)) others[e][g] = offset;
      const auto &rest = everyone.empty() ? receivers : others;
      if (!everyone.empty()) {
        Multicast &mc = all.emplace_back();
        mc.members.push_back(static_cast<int>(src));
        for (int p = 0; p < procs_; ++p)
          if (p != src) mc.members.push_back(p);
        mc.line = multicastLine(mc.members);
        for (const auto &[g, offset] : everyone) {
          mc.linear.push_back(g);
          if (src == me_) mc.offsets.push_back(offset);
        }
      }
      // The receivers grouped by the elements they get.
      std::map<std::vector<int64_t>, std::vector<int64_t>> alike;
      for (const auto &[e, elements] : rest) {
        std::vector<int64_t> key;
        for (const auto &[g, offset] : elements) key.push_back(g);
        alike[std::move(key)].push_back(e);
      }
      for (const auto &[key, members] : alike) {
        if (members.size() >= 2 && !allGather) {
          Multicast &mc = all.emplace_back();
          mc.members.push_back(static_cast<int>(src));
          for (int64_t e : members) mc.members.push_back(static_cast<int>(e));
          mc.line = multicastLine(mc.members);
          // Every rank needs every multicast's members and line (below);
          // only its own multicasts' elements.
          if (src == me_ || std::find(members.begin(), members.end(), me_) != members.end())
            mc.linear = key;
          if (src == me_)
            for (const auto &[g, offset] : rest.at(members.front()))
              mc.offsets.push_back(offset);
          continue;
        }
        for (int64_t e : members) {
          if (src == me_) {
            plan.sendPeers.push_back(static_cast<int>(e));
            plan.sendOffsets.emplace_back();
            for (const auto &[g, offset] : rest.at(e))
              plan.sendOffsets.back().push_back(offset);
          } else if (e == me_) {
            plan.recvPeers.push_back(static_cast<int>(src));
            plan.recvLinear.emplace_back();
            for (const auto &[g, offset] : rest.at(e)) plan.recvLinear.back().push_back(g);
          }
        }
      }
    }
    // MPI_Bcast on a line blocks until the line's members reach it, in the
    // same order on all: where lines cross (lu's row and column multicasts),
    // each processor would wait for the bcasts before its own in that order.
    // Then every line's multicast is a tree relayed as its data arrives.
    std::map<int, int> lines; // processor -> line multicasts it is in
    bool crossing = false;
    for (const Multicast &mc : all)
      if (mc.line >= 0)
        for (int p : mc.members) crossing |= ++lines[p] > 1;
    for (Multicast &mc : all) {
      if (std::find(mc.members.begin(), mc.members.end(), me_) == mc.members.end()) continue;
      if (crossing && mc.line >= 0) mc.line = -2;
      if (mc.line == -2) treeOrder(mc.members);
      (mc.line == -1 ? plan.gathered : mc.line >= 0 ? plan.broadcasts : plan.multicasts)
          .push_back(std::move(mc));
    }
    // Blocks of several sizes stay one message per peer, with the rest
    // (allGather()).
    for (auto &[group, ag] : allGathers) {
      if (!group.count(me_)) continue;
      const size_t size = ag.blocks.front().size();
      if (std::all_of(ag.blocks.begin(), ag.blocks.end(),
                      [&](const auto &b) { return b.size() == size; })) {
        plan.allGathers.push_back(std::move(ag));
        continue;
      }
      for (size_t c = 0; c < ag.members.size(); ++c) {
        if (ag.members[c] == me_) continue;
        plan.sendPeers.push_back(ag.members[c]);
        plan.sendOffsets.push_back(ag.offsets);
        plan.recvPeers.push_back(ag.members[c]);
        plan.recvLinear.push_back(ag.blocks[c]);
      }
    }
    // One source to every rank is a broadcast; several are gathered.
    if (plan.gathered.size() == 1) {
      plan.broadcasts.push_back(std::move(plan.gathered.front()));
      plan.gathered.clear();
    }
    plan.built = true;
  }
  for (const Multicast &mc : plan.broadcasts) broadcast(act.array, mc);
  if (!plan.gathered.empty()) gatherByDimension(act.array, plan.gathered);
  for (const AllGather &ag : plan.allGathers) allGatherBlocks(act.array, ag);
  exchange(act.array, plan);
}

/// The communicator a multicast over `members` (the source first) can use:
/// -1 when they are every processor, m when they are the source's line along
/// mesh dimension m, -2 when neither.
int DistributedMemory::multicastLine(const std::vector<int> &members) const {
  if (static_cast<int>(members.size()) == procs_) return -1;
  const std::vector<int64_t> at = mesh_.coordsOf(members.front());
  for (int m = 0; m < mesh_.dims(); ++m) {
    if (static_cast<int64_t>(members.size()) != mesh_.shape()[m]) continue;
    bool onLine = std::all_of(members.begin(), members.end(), [&](int p) {
      std::vector<int64_t> c = mesh_.coordsOf(p);
      for (int k = 0; k < mesh_.dims(); ++k)
        if (k != m && c[k] != at[k]) return false;
      return true;
    });
    if (onLine) return m;
  }
  return -2;
}

/// A multicast over the mesh or a line: MPI_Bcast on its communicator.
void DistributedMemory::broadcast(int a, const Multicast &mc) {
  const CArray &ca = x_.arrays[a];
  ArrayState &st = arrays_[a];
  const size_t wb = wireBytes(ca);
  const int root = mc.members.front();
  std::vector<char> buf(mc.linear.size() * wb);
  if (root == me_)
    for (size_t j = 0; j < mc.offsets.size(); ++j)
      pack(ca, st.local[mc.offsets[j]], buf.data() + j * wb);
  const int rootIn = mc.line < 0 ? root
                                 : static_cast<int>(mesh_.coordsOf(root)[static_cast<size_t>(mc.line)]);
  bcast(buf.data(), static_cast<int>(buf.size()), rootIn, mc.line);
  PhaseStats &ps = stats[phase_];
  const int64_t n = static_cast<int64_t>(mc.members.size());
  if (root == me_) { // counted as the messages it replaces
    ps.messagesSent += n - 1;
    ps.bytesSent += (n - 1) * static_cast<int64_t>(buf.size());
  } else {
    for (size_t j = 0; j < mc.linear.size(); ++j)
      st.cache[mc.linear[j]] = unpack(ca, buf.data() + j * wb);
    ps.messagesReceived += 1;
    ps.bytesReceived += static_cast<int64_t>(buf.size());
  }
  if (n > 1) ++ps.exchanges;
}

/// One MPI_Bcast from `root` on the mesh's communicator (line < 0) or on
/// line `line`'s, its rank there. On a hypercube MPI's binomial tree, which
/// numbers the ranks from the root, joins nodes several links apart from any
/// root but the first. A tree down the cube's dimensions instead was tried
/// and not kept: spmv's row pointers 10 % faster on 64 simulated iPSC/2
/// nodes, but fig2_2's multicasts faster than Table 6.1 prices them and its
/// advice worse (1.034 from the best, not 1.000).
void DistributedMemory::bcast(char *buf, int bytes, int root, int line) {
  MPI_Bcast(buf, bytes, MPI_BYTE, root, line < 0 ? mesh_.comm() : mesh_.lineComm(line));
}

/// Several sources each sending their own elements to every rank (a
/// replicated left-hand side reading a distributed array), one mesh
/// dimension at a time, as the estimate composes Table 4.4's replicated lhs:
/// along a dimension where only some members of a line hold data, each of
/// them multicasts what it has so far (les * OneToManyMulticast, MPI_Bcast
/// on the line); where every member does, they all-gather it along the
/// line (ManyToManyMulticast, allGather()). Dimensions of the second kind go
/// first: the holders complete their data among themselves, then multicast it to the
/// lines that hold none. In the other order a multicast's relays contend
/// with the exchanges that follow it (fig2_2's XRSIQ on 4x4: 22 ms against
/// 12 ms). Those of the first kind go in model/FillOrder.h's order, by
/// their holders and sizes, not by their numbers. A processor holds, before
/// dimension m, the blocks of the sources that agree with it on every
/// dimension not yet done.
void DistributedMemory::gatherByDimension(int a, const std::vector<Multicast> &blocks) {
  const CArray &ca = x_.arrays[a];
  ArrayState &st = arrays_[a];
  const size_t wb = wireBytes(ca);
  const std::vector<int64_t> &shape = mesh_.shape();
  std::vector<std::vector<int64_t>> at;
  for (const Multicast &b : blocks) at.push_back(mesh_.coordsOf(b.members.front()));
  // The dimensions every coordinate holds first, then the others, each
  // kind in model/FillOrder.h's order (not by number: where the sources
  // are not every combination of their coordinates -- a diagonal's blocks
  // -- the order changes the bytes).
  std::vector<FillStage> stages;
  for (size_t m = 0; m < shape.size(); ++m) {
    if (shape[m] <= 1) continue;
    std::set<int64_t> along;
    for (const auto &c : at) along.insert(c[m]);
    stages.push_back({static_cast<int64_t>(along.size()), shape[m], static_cast<int>(m)});
  }
  sortFillStages(stages);
  std::vector<size_t> order;
  for (const FillStage &s : stages) order.push_back(static_cast<size_t>(s.dim));
  std::vector<char> done(shape.size(), 0);
  std::vector<std::vector<char>> data(blocks.size()); // the blocks this rank has, packed
  for (size_t b = 0; b < blocks.size(); ++b)
    if (blocks[b].members.front() == me_) {
      data[b].resize(blocks[b].offsets.size() * wb);
      for (size_t j = 0; j < blocks[b].offsets.size(); ++j)
        pack(ca, st.local[blocks[b].offsets[j]], data[b].data() + j * wb);
    }
  PhaseStats &ps = stats[phase_];
  const std::vector<int64_t> mine = mesh_.coordsOf(me_);
  for (size_t m : order) {
    const size_t n = static_cast<size_t>(shape[m]), self = static_cast<size_t>(mine[m]);
    std::vector<std::vector<size_t>> held(n); // per position on my line
    std::vector<int64_t> p = mine;
    for (size_t c = 0; c < n; ++c) {
      p[m] = static_cast<int64_t>(c);
      for (size_t b = 0; b < blocks.size(); ++b) {
        bool agrees = true;
        for (size_t k = 0; k < shape.size(); ++k)
          agrees = agrees && (done[k] || at[b][k] == p[k]);
        if (agrees) held[c].push_back(b);
      }
    }
    auto bytesOf = [&](size_t c) {
      size_t total = 0;
      for (size_t b : held[c]) total += blocks[b].linear.size() * wb;
      return total;
    };
    auto packed = [&](size_t c) {
      std::vector<char> buf;
      for (size_t b : held[c]) buf.insert(buf.end(), data[b].begin(), data[b].end());
      return buf;
    };
    auto take = [&](size_t c, const std::vector<char> &buf) {
      size_t from = 0;
      for (size_t b : held[c]) {
        const size_t len = blocks[b].linear.size() * wb;
        data[b].assign(buf.begin() + static_cast<std::ptrdiff_t>(from),
                       buf.begin() + static_cast<std::ptrdiff_t>(from + len));
        from += len;
      }
      ps.messagesReceived += 1;
      ps.bytesReceived += static_cast<int64_t>(buf.size());
    };
    auto sent = [&](size_t bytes) { // counted as the messages it replaces
      ps.messagesSent += static_cast<int64_t>(n - 1);
      ps.bytesSent += static_cast<int64_t>((n - 1) * bytes);
    };
    MPI_Comm line = mesh_.lineComm(static_cast<int>(m));
    const bool every = std::all_of(held.begin(), held.end(), [](const auto &h) { return !h.empty(); });
    if (every) { // allGather() along the line
      std::vector<std::vector<char>> in(n);
      in[self] = packed(self);
      std::vector<size_t> bytes(n);
      std::vector<int> ranks(n);
      for (size_t c = 0; c < n; ++c) bytes[c] = bytesOf(c), ranks[c] = static_cast<int>(c);
      ps.bytesSent += allGather(line, ranks, self, in, bytes);
      ps.messagesSent += static_cast<int64_t>(n - 1);
      for (size_t c = 0; c < n; ++c)
        if (c != self) take(c, in[c]);
    } else {
      for (size_t c = 0; c < n; ++c) {
        if (held[c].empty()) continue;
        std::vector<char> buf = c == self ? packed(c) : std::vector<char>(bytesOf(c));
        bcast(buf.data(), static_cast<int>(buf.size()), static_cast<int>(c), static_cast<int>(m));
        if (c == self) sent(buf.size());
        else take(c, buf);
      }
    }
    done[m] = 1;
  }
  for (size_t b = 0; b < blocks.size(); ++b)
    if (blocks[b].members.front() != me_)
      for (size_t j = 0; j < blocks[b].linear.size(); ++j)
        st.cache[blocks[b].linear[j]] = unpack(ca, data[b].data() + j * wb);
  ++ps.exchanges;
}

/// An all-gather whose members each send all the others the same elements
/// (AllGather), over the whole communicator (allGather()).
void DistributedMemory::allGatherBlocks(int a, const AllGather &ag) {
  const CArray &ca = x_.arrays[a];
  ArrayState &st = arrays_[a];
  const size_t wb = wireBytes(ca), n = ag.members.size();
  const size_t self = static_cast<size_t>(
      std::find(ag.members.begin(), ag.members.end(), me_) - ag.members.begin());
  std::vector<std::vector<char>> in(n);
  in[self].resize(ag.offsets.size() * wb);
  for (size_t j = 0; j < ag.offsets.size(); ++j)
    pack(ca, st.local[ag.offsets[j]], in[self].data() + j * wb);
  std::vector<size_t> bytes(n);
  for (size_t c = 0; c < n; ++c) bytes[c] = ag.blocks[c].size() * wb;
  PhaseStats &ps = stats[phase_];
  ps.bytesSent += allGather(mesh_.comm(), ag.members, self, in, bytes);
  ps.messagesSent += static_cast<int64_t>(n - 1);
  for (size_t c = 0; c < n; ++c) {
    if (c == self) continue;
    for (size_t j = 0; j < ag.blocks[c].size(); ++j)
      st.cache[ag.blocks[c][j]] = unpack(ca, in[c].data() + j * wb);
    ps.messagesReceived += 1, ps.bytesReceived += static_cast<int64_t>(in[c].size());
  }
  if (n > 1) ++ps.exchanges;
}

/// Runs a plan: posts every receive and every send this rank can start,
/// then takes the messages as they arrive, relaying each multicast on down
/// its tree as soon as its data is in. Nothing waits on anything but its
/// own data, so no order among multicasts is needed.
void DistributedMemory::exchange(int a, const Plan &plan) {
  const CArray &ca = x_.arrays[a];
  ArrayState &st = arrays_[a];
  const size_t wb = wireBytes(ca);
  MPI_Comm comm = mesh_.comm();
  PhaseStats &ps = stats[phase_];
  const size_t nm = plan.multicasts.size(), np = plan.recvPeers.size();
  // Receive buffers: the multicasts' (the source's own holds what it sends),
  // then the point-to-point ones.
  std::vector<std::vector<char>> in(nm + np), out(plan.sendPeers.size());
  std::vector<MPI_Request> recvs(nm + np, MPI_REQUEST_NULL), sends;
  std::vector<size_t> position(nm);
  auto relay = [&](size_t k) {
    const Multicast &mc = plan.multicasts[k];
    for (size_t c : treeChildren(position[k], mc.members.size()))
      MPI_Isend(in[k].data(), static_cast<int>(in[k].size()), MPI_BYTE, mc.members[c],
                kMulticastTag + mc.members[0], comm, &sends.emplace_back());
  };
  for (size_t k = 0; k < nm; ++k) {
    const Multicast &mc = plan.multicasts[k];
    position[k] = static_cast<size_t>(
        std::find(mc.members.begin(), mc.members.end(), me_) - mc.members.begin());
    in[k].resize(mc.linear.size() * wb);
    if (position[k] == 0) {
      for (size_t j = 0; j < mc.offsets.size(); ++j)
        pack(ca, st.local[mc.offsets[j]], in[k].data() + j * wb);
      relay(k);
      // Counted as the messages it replaces.
      ps.messagesSent += static_cast<int64_t>(mc.members.size() - 1);
      ps.bytesSent += static_cast<int64_t>((mc.members.size() - 1) * in[k].size());
    } else {
      MPI_Irecv(in[k].data(), static_cast<int>(in[k].size()), MPI_BYTE,
                mc.members[treeParent(position[k])], kMulticastTag + mc.members[0], comm,
                &recvs[k]);
    }
  }
  for (size_t k = 0; k < np; ++k) {
    in[nm + k].resize(plan.recvLinear[k].size() * wb);
    MPI_Irecv(in[nm + k].data(), static_cast<int>(in[nm + k].size()), MPI_BYTE,
              plan.recvPeers[k], kExchangeTag, comm, &recvs[nm + k]);
  }
  for (size_t k = 0; k < plan.sendPeers.size(); ++k) {
    out[k].resize(plan.sendOffsets[k].size() * wb);
    for (size_t j = 0; j < plan.sendOffsets[k].size(); ++j)
      pack(ca, st.local[plan.sendOffsets[k][j]], out[k].data() + j * wb);
    MPI_Isend(out[k].data(), static_cast<int>(out[k].size()), MPI_BYTE, plan.sendPeers[k],
              kExchangeTag, comm, &sends.emplace_back());
    ps.messagesSent += 1;
    ps.bytesSent += static_cast<int64_t>(out[k].size());
  }
  for (;;) {
    int done = MPI_UNDEFINED;
    MPI_Waitany(static_cast<int>(recvs.size()), recvs.data(), &done, MPI_STATUS_IGNORE);
    if (done == MPI_UNDEFINED) break;
    const size_t k = static_cast<size_t>(done);
    const std::vector<int64_t> &linear =
        k < nm ? plan.multicasts[k].linear : plan.recvLinear[k - nm];
    for (size_t j = 0; j < linear.size(); ++j)
      st.cache[linear[j]] = unpack(ca, in[k].data() + j * wb);
    if (k < nm) relay(k);
    ps.messagesReceived += 1;
    ps.bytesReceived += static_cast<int64_t>(in[k].size());
  }
  MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
  if (procs_ > 1) ++ps.exchanges;
}

} // namespace dlayout::exec
