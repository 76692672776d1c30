/* lu.c -- in-place LU factorisation WITHOUT pivoting (right-looking,
 * Doolittle: unit lower triangle L below the diagonal, U on and above
 * it), with a fixed-size global array double A[N][N].  The C analogue
 * of the thesis's DGEFA (Gupta 1992, Appendix I.1; see
 * samples/paradigm/dgefa.F, which pivots) minus the pivot search and
 * row exchange: a triangular nest (j, i > k) whose shrinking extent
 * favours cyclic distributions, with a column of multipliers and a
 * pivot row used by the whole update.
 *
 * Pivoting is not needed: the initialisation makes A strictly
 * diagonally dominant (A[i][i] = N + 1, off-diagonal entries in
 * [0,1)).
 *
 * Parameters (preprocessor macros, override with -DNAME=VALUE, i.e.
 * dlayout --param NAME=VALUE):
 *   N   matrix order                                   default 64
 *
 * Prints a checksum (sum of the factored A) after the kernel.
 */
#include <stdio.h>

#ifndef N
#define N 64
#endif

double A[N][N];

int main(void)
{
    int i, j, k;

    /* Added initialisation: strictly diagonally dominant A. */
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            A[i][j] = (i == j) ? (double)(N + 1) : (double)((i * 7 + j * 3) % 11) / 11.0;

    /* Kernel. */
    for (k = 0; k < N - 1; k++) {
        for (i = k + 1; i < N; i++)
            A[i][k] = A[i][k] / A[k][k];
        for (i = k + 1; i < N; i++)
            for (j = k + 1; j < N; j++)
                A[i][j] = A[i][j] - A[i][k] * A[k][j];
    }

    /* Checksum (not part of the kernel). */
    double sum = 0.0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            sum += A[i][j];
    printf("lu checksum %.17g\n", sum);
    return 0;
}
