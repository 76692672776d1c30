/* jacobi_vla.c -- the Jacobi kernel of samples/c/jacobi.c (Gupta 1992,
 * thesis Figure 6.4) written as a function over C99 variably modified
 * array parameters, double a[n][n], double b[n][n], called from main
 * as jacobi(N, NCYCLES, a, b) on N x N arrays that main allocates on the
 * heap (double (*a)[N] = malloc(sizeof(double[N][N]))).  Exercises the
 * analyser's VLA form: inside jacobi() the extents are known only
 * through the parameter n, whose value at the call site is the macro N.
 * Same initialisation, same result, same checksum line as jacobi.c and
 * jacobi_heap.c.
 *
 * Parameters (preprocessor macros, override with -DNAME=VALUE, i.e.
 * dlayout --param NAME=VALUE):
 *   N        array extent passed as n                  default 64
 *   NCYCLES  relaxation cycles                          default 10
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 64
#endif
#ifndef NCYCLES
#define NCYCLES 10
#endif

static void jacobi(int n, int ncycles, double a[n][n], double b[n][n])
{
    int i, j, k;
    for (k = 0; k < ncycles; k++) {
        for (i = 1; i < n - 1; i++)
            for (j = 1; j < n - 1; j++)
                b[i][j] = 0.5 * a[i][j] +
                          0.125 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
        for (i = 1; i < n - 1; i++)
            for (j = 1; j < n - 1; j++)
                a[i][j] = b[i][j];
    }
}

int main(void)
{
    int i, j;
    /* Heap storage (so that a large N does not overflow the stack),
     * addressed as N x N arrays through pointers to rows of N. */
    double (*a)[N] = malloc(sizeof(double[N][N]));
    double (*b)[N] = malloc(sizeof(double[N][N]));
    if (!a || !b)
        return 1;

    /* Added initialisation: boundary of a is 1, interior 0; b zero. */
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            a[i][j] = (i == 0 || i == N - 1 || j == 0 || j == N - 1) ? 1.0 : 0.0;
            b[i][j] = 0.0;
        }

    jacobi(N, NCYCLES, a, b);

    /* Checksum (not part of the kernel). */
    double sum = 0.0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            sum += a[i][j];
    printf("jacobi checksum %.17g\n", sum);
    free(a);
    free(b);
    return 0;
}
