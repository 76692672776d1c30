// Under smpirun, for tests/validate/test_validate.py to compare with the
// machine model:
//   pingpong_simgrid PEER    ping-pong between ranks 0 and PEER: prints
//                            "bytes one-way-seconds" per message size (half
//                            the round trip), against Transfer(m);
//   pingpong_simgrid shift   every rank exchanges m bytes with k hypercube
//                            neighbours at once (r ^ 1, r ^ 2, ...): prints
//                            "k bytes seconds" (the slowest rank), against
//                            the Shift of Table 6.1.
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

// k sends and k receives at once. The ranks leave a barrier milliseconds
// apart: untimed rounds first bring them into step.
static void exchanges(int rank) {
  std::vector<char> out(1 << 20), in(1 << 20);
  auto round = [&](int k, int m) {
    MPI_Request q[4];
    int n = 0;
    for (int j = 0; j < k; ++j)
      MPI_Irecv(in.data() + j * m, m, MPI_BYTE, rank ^ (1 << j), j, MPI_COMM_WORLD, &q[n++]);
    for (int j = 0; j < k; ++j)
      MPI_Isend(out.data() + j * m, m, MPI_BYTE, rank ^ (1 << j), j, MPI_COMM_WORLD, &q[n++]);
    MPI_Waitall(n, q, MPI_STATUSES_IGNORE);
  };
  for (int m : {8, 4096, 65536})
    for (int k : {1, 2}) {
      MPI_Barrier(MPI_COMM_WORLD);
      for (int rep = 0; rep < 10; ++rep) round(k, m);
      const int reps = 20;
      double t0 = MPI_Wtime();
      for (int rep = 0; rep < reps; ++rep) round(k, m);
      double t = (MPI_Wtime() - t0) / reps, slowest = 0;
      MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      if (rank == 0) std::printf("%d %d %.9g\n", k, m, slowest);
    }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc > 1 && std::string(argv[1]) == "shift") {
    exchanges(rank);
    MPI_Finalize();
    return 0;
  }
  const int sizes[] = {8, 64, 99, 100, 512, 4096, 65536, 1 << 20};
  int peer = argc > 1 ? std::atoi(argv[1]) : 1;
  std::vector<char> buf(1 << 20);
  auto roundTrip = [&](int m) {
    if (rank == 0) {
      MPI_Send(buf.data(), m, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
      MPI_Recv(buf.data(), m, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == peer) {
      MPI_Recv(buf.data(), m, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf.data(), m, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
  };
  for (int m : sizes) {
    // One untimed round trip first: afterwards rank 0's clock starts when
    // the peer is already waiting (a barrier would leave them skewed).
    roundTrip(m);
    double t0 = MPI_Wtime();
    const int reps = 4;
    for (int k = 0; k < reps; ++k) roundTrip(m);
    double t = (MPI_Wtime() - t0) / (2 * reps);
    if (rank == 0) std::printf("%d %.9g\n", m, t);
  }
  MPI_Finalize();
  return 0;
}
