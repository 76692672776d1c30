// Ping-pong between ranks 0 and 1 under smpirun: prints "bytes one-way-seconds"
// per message size (half the round trip), for tests/validate/pingpong.py to
// compare with the machine model's Transfer(m).
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int sizes[] = {8, 64, 99, 100, 512, 4096, 65536, 1 << 20};
  int peer = argc > 1 ? std::atoi(argv[1]) : 1;
  std::vector<char> buf(1 << 20);
  for (int m : sizes) {
    // One untimed round trip first: afterwards rank 0's clock starts when
    // the peer is already waiting (a barrier would leave them skewed).
    if (rank == 0) {
      MPI_Send(buf.data(), m, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
      MPI_Recv(buf.data(), m, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == peer) {
      MPI_Recv(buf.data(), m, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf.data(), m, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
    double t0 = MPI_Wtime();
    const int reps = 4;
    for (int k = 0; k < reps; ++k) {
      if (rank == 0) {
        MPI_Send(buf.data(), m, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
        MPI_Recv(buf.data(), m, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == peer) {
        MPI_Recv(buf.data(), m, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf.data(), m, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
      }
    }
    double t = (MPI_Wtime() - t0) / (2 * reps);
    if (rank == 0) std::printf("%d %.9g\n", m, t);
  }
  MPI_Finalize();
  return 0;
}
