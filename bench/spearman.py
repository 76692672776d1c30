"""Spearman's rank correlation for the benchmarks (bench/validate/figures.py,
bench/calibrate/compare.py): the same definition as `dlayout validate`'s
(validate/Validate.cpp): ties share their mean rank; None when there are
fewer than two values or either series is constant."""


def spearman(a, b):
    n = len(a)
    if n < 2:
        return None

    def ranks(v):
        idx = sorted(range(n), key=lambda i: v[i])
        r = [0.0] * n
        i = 0
        while i < n:
            j = i
            while j + 1 < n and v[idx[j + 1]] == v[idx[i]]:
                j += 1
            for k in range(i, j + 1):
                r[idx[k]] = (i + j) / 2.0 + 1
            i = j + 1
        return r

    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / n, sum(rb) / n
    sab = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    saa = sum((x - ma) ** 2 for x in ra)
    sbb = sum((y - mb) ** 2 for y in rb)
    if saa == 0 or sbb == 0:
        return None
    return sab / (saa * sbb) ** 0.5
