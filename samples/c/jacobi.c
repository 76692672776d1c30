/* jacobi.c -- C version of the Jacobi relaxation of Gupta, "Automatic
 * Data Partitioning on Distributed Memory Multicomputers" (PhD thesis,
 * UIUC 1992), Figure 6.4 (see samples/paradigm/jacobi.F), with
 * fixed-size global arrays double A[N][N], B[N][N].  Subscripts are
 * written A[i][j] with i outer and j inner as in the thesis, but
 * 0-based (i, j = 1..N-2) and row-major, so here j is the contiguous
 * dimension.  N counts the boundary, like the thesis's np2.
 *
 * Parameters (preprocessor macros, override with -DNAME=VALUE, i.e.
 * dlayout --param NAME=VALUE):
 *   N        array extent (N-2 interior points)        default 64
 *   NCYCLES  relaxation cycles                          default 10
 *
 * One of three spellings of the same kernel that must compute the same
 * result: jacobi.c (global fixed-size arrays), jacobi_vla.c (a function
 * taking variably modified parameters double a[n][n]) and jacobi_heap.c
 * (one malloc'ed block addressed a[i*n+j]).  Each prints the same
 * checksum (sum of all elements of A, printed with %.17g).
 */
#include <stdio.h>

#ifndef N
#define N 64
#endif
#ifndef NCYCLES
#define NCYCLES 10
#endif

double A[N][N], B[N][N];

int main(void)
{
    int i, j, k;

    /* Added initialisation: boundary of A is 1, interior 0; B zero. */
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            A[i][j] = (i == 0 || i == N - 1 || j == 0 || j == N - 1) ? 1.0 : 0.0;
            B[i][j] = 0.0;
        }

    /* Kernel (thesis Figure 6.4, 0-based). */
    for (k = 0; k < NCYCLES; k++) {
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                B[i][j] = 0.5 * A[i][j] +
                          0.125 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                A[i][j] = B[i][j];
    }

    /* Checksum (not part of the kernel). */
    double sum = 0.0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            sum += A[i][j];
    printf("jacobi checksum %.17g\n", sum);
    return 0;
}
