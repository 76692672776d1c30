/* jacobi_heap.c -- the Jacobi kernel of samples/c/jacobi.c (Gupta 1992,
 * thesis Figure 6.4) on heap arrays: double *a = malloc(n*n*sizeof *a),
 * element (i,j) addressed a[i*n+j] (manual linearisation; the analyser
 * must delinearise it).  Same initialisation, same result, same
 * checksum line as jacobi.c and jacobi_vla.c.
 *
 * Parameters (preprocessor macros, override with -DNAME=VALUE, i.e.
 * dlayout --param NAME=VALUE):
 *   N        array extent n                            default 64
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

int main(void)
{
    int n = N;
    int i, j, k;
    double *a = malloc((size_t)n * n * sizeof *a);
    double *b = malloc((size_t)n * n * sizeof *b);
    if (!a || !b)
        return 1;

    /* Added initialisation: boundary of a is 1, interior 0; b zero. */
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            a[i * n + j] = (i == 0 || i == n - 1 || j == 0 || j == n - 1) ? 1.0 : 0.0;
            b[i * n + j] = 0.0;
        }

    /* Kernel (thesis Figure 6.4, 0-based, linearised subscripts). */
    for (k = 0; k < NCYCLES; k++) {
        for (i = 1; i < n - 1; i++)
            for (j = 1; j < n - 1; j++)
                b[i * n + j] = 0.5 * a[i * n + j] +
                               0.125 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] +
                                        a[i * n + j - 1] + a[i * n + j + 1]);
        for (i = 1; i < n - 1; i++)
            for (j = 1; j < n - 1; j++)
                a[i * n + j] = b[i * n + j];
    }

    /* Checksum (not part of the kernel). */
    double sum = 0.0;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            sum += a[i * n + j];
    printf("jacobi checksum %.17g\n", sum);
    free(a);
    free(b);
    return 0;
}
