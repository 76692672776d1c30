/* matmul.c -- dense matrix product C = A * B, i-j-k order, with
 * fixed-size global arrays double A[N][N], B[N][N], C[N][N].
 * Not from a seed paper: a standard C sample for the analyser
 * (a 3-deep nest, a sum reduction over k into C[i][j], the
 * classic row-of-A times column-of-B access pattern whose
 * communication under a 2-D layout is a multicast along each mesh
 * dimension, as in the thesis's DGEFA update, Section 6.2.3).
 *
 * Parameters (preprocessor macros, override with -DNAME=VALUE, i.e.
 * dlayout --param NAME=VALUE):
 *   N   matrix order                                   default 64
 *
 * Prints a checksum (sum of C) after the kernel.
 */
#include <stdio.h>

#ifndef N
#define N 64
#endif

double A[N][N], B[N][N], C[N][N];

int main(void)
{
    int i, j, k;

    /* Added initialisation (deterministic). */
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            A[i][j] = (double)((i + 2 * j) % 7) / 7.0;
            B[i][j] = (double)((3 * i + j) % 5) / 5.0;
            C[i][j] = 0.0;
        }

    /* Kernel. */
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            for (k = 0; k < N; k++)
                C[i][j] = C[i][j] + A[i][k] * B[k][j];

    /* Checksum (not part of the kernel). */
    double sum = 0.0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            sum += C[i][j];
    printf("matmul checksum %.17g\n", sum);
    return 0;
}
