/* controlflow.c -- a switch with a case falling through and a
 * short-circuit || over an array test inside a loop, for tests/validate's
 * semantics case: the model's run must give the arrays the compiled
 * program gives. */
#include <stdio.h>

#ifndef N
#define N 16
#endif

double A[N], B[N], C[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        A[i] = (double)((i * 7) % 5) - 2.0;
        B[i] = 0.0;
        C[i] = 0.0;
    }
    for (int i = 0; i < N; i++) {
        switch (i % 3) {
        case 0: B[i] = A[i] + 1.0; break;
        case 1: B[i] = A[i] * 2.0; /* falls through */
        case 2: B[i] -= 1.0; break;
        }
        if (i < 2 || A[i] + A[i - 1] == 0.0)
            C[i] = B[i] + i;
    }
    printf("controlflow done\n");
    return 0;
}
