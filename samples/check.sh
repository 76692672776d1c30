#!/usr/bin/env bash
# samples/check.sh -- compile and run checks for every bundled sample.
#
# For every Fortran sample (*.F, *.F90) and C sample (*.c) under samples/:
#   1. flang-new-19 -S -emit-llvm -O0 -g FILE   (clang-19 for C), once with
#      the default macro values and once with the overrides listed below
#      (what `dlayout --param NAME=VALUE` passes as -DNAME=VALUE);
#   2. the emitted IR calls no routine outside the sample itself and a
#      small allow-list (the Fortran runtime's program start/end and STOP,
#      printf/malloc/free in C), i.e. the samples make no external calls
#      an analyser would warn about;
#   3. gfortran -cpp (gcc for C) builds the program, with array-bounds
#      checking and traps on invalid/zero/overflow (plus signalling-NaN
#      initialisation of reals for the default sizes; ASan+UBSan for C
#      where available), and it runs to completion -- with the defaults
#      and with the overrides;
#   4. the three C Jacobi spellings print identical checksums.
# Stops at the first failure with a non-zero exit status.  Exit status 77
# (CTest SKIP_RETURN_CODE) if flang-new-19 or clang-19 is not installed.
#
# Environment: FLANG, CLANG, GFORTRAN, CC override the compilers;
# KEEP=1 keeps the scratch directory.
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FLANG="${FLANG:-flang-new-19}"
CLANG="${CLANG:-clang-19}"
GFORTRAN="${GFORTRAN:-gfortran}"
CC="${CC:-gcc}"

for tool in "$FLANG" "$CLANG"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "check.sh: $tool not found; skipping sample checks" >&2
        exit 77
    fi
done
for tool in "$GFORTRAN" "$CC"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "check.sh: error: $tool not found (needed to run the samples)" >&2
        exit 1
    fi
done

TMP="$(mktemp -d "${TMPDIR:-/tmp}/dlayout-samples.XXXXXX")"
if [ "${KEEP:-0}" = 1 ]; then
    echo "check.sh: scratch directory $TMP"
else
    trap 'rm -rf "$TMP"' EXIT
fi

# Macro overrides per sample (path relative to samples/).  Chosen to change
# every size macro while keeping the gfortran runs short.
overrides() {
    case "$1" in
        paradigm/jacobi.F)  echo "-DNP2=1026 -DNCYCLES=2" ;;
        paradigm/tred2.F)   echo "-DN=200" ;;
        paradigm/dgefa.F)   echo "-DN=300" ;;
        paradigm/olda.F)    echo "-DNUM=16" ;;
        paradigm/dflux.F)   echo "-DI2=386 -DJ2=66 -DIL=385 -DJL=65" ;;
        paradigm/eflux.F)   echo "-DI2=386 -DJ2=66 -DIL=385 -DJL=65" ;;
        paradigm/fig2_2.F)  echo "-DMORB=64 -DNQ=48" ;;
        paradigm/fig3_6.F)  echo "-DN=1000 -DK=17" ;;
        paradigm/fig3_7.F)  echo "-DN=1000 -DD=5" ;;
        paradigm/fig4_5.F)  echo "-DN=1000" ;;
        paradigm/fig4_10.F) echo "-DN=1001" ;;
        paradigm/fig4_13.F) echo "-DN=1000 -DC1=7 -DC2=999" ;;
        paradigm/fig4_16.F) echo "-DN=1000" ;;
        paradigm/fig4_17.F) echo "-DN=1000" ;;
        paradigm/fig4_19.F) echo "-DN=100 -DC1=100 -DC2=50 -DC3=1" ;;
        paradigm/fig4_20.F) echo "-DN1=1000 -DN2=500" ;;
        paradigm/fig5_2.F)  echo "-DN=1000" ;;
        paradigm/fig5_3.F)  echo "-DN=1000" ;;
        paradigm/fig5_4.F)  echo "-DN=1000 -DK=1000" ;;
        paradigm/fig5_9.F)  echo "-DN=1000" ;;
        paradigm/fig5_10.F) echo "-DN=1000" ;;
        paradigm/fig5_11.F) echo "-DN=1000" ;;
        paradigm/fig5_13.F) echo "-DN=100" ;;
        kali/relax.F)       echo "-DNX=1024 -DNY=512 -DNSWEEP=5" ;;
        parti/edge.F)       echo "-DNX=300 -DNY=200 -DSMALL=4 -DNSWEEP=3" ;;
        zima/jacobi.F)      echo "-DN=1000 -DNITER=3" ;;
        zima/spmv.F)        echo "-DN=1000 -DM=500" ;;
        c/jacobi.c|c/jacobi_vla.c|c/jacobi_heap.c)
                            echo "-DN=1026 -DNCYCLES=3" ;;
        c/matmul.c)         echo "-DN=300" ;;
        c/lu.c)             echo "-DN=500" ;;
        *)                  return 1 ;;
    esac
}
# Extra variants compiled and run besides defaults and overrides.
extra_variants() {
    case "$1" in
        zima/jacobi.F) echo "-DARRAY_ASSIGN" ;;
    esac
}

fail() { echo "FAIL: $*" >&2; exit 1; }

# Function definitions and call sites in the emitted IR ($ is literal).
# shellcheck disable=SC2016
DEF_RE='^define [^@]*@[A-Za-z_.$0-9]+'
# shellcheck disable=SC2016
CALL_RE='(call|invoke) [^@]*@[A-Za-z_.$0-9]+'
# Calls allowed in the emitted IR.
ALLOW_F='^(llvm\..*|_FortranAProgramStart|_FortranAProgramEndStatement|_FortranAStopStatement|_QQmain)$'
ALLOW_C='^(llvm\..*|printf|malloc|free)$'

# ASan/UBSan for the C runs if this gcc supports them.
SAN=""
echo 'int main(void){return 0;}' > "$TMP/san.c"
if "$CC" -fsanitize=address,undefined "$TMP/san.c" -o "$TMP/san" >/dev/null 2>&1 && "$TMP/san"; then
    SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
fi

# shellcheck disable=SC2054  # the commas belong to -ffpe-trap=...
GF_FLAGS=(-cpp -O0 -g -fcheck=bounds -ffpe-trap=invalid,zero,overflow
          -Werror=line-truncation)
# Signalling-NaN / poison initialisation catches reads of unset data, but
# gfortran implements it for static arrays as initialised data in the
# executable (tens of MB for the overridden sizes), so it is used for the
# default sizes only.
GF_INIT=(-finit-real=snan -finit-integer=-2147483647)

n=0
cd "$HERE" || exit 1
mapfile -t FILES < <(find . \( -name '*.F' -o -name '*.F90' -o -name '*.c' \) -type f | sed 's|^\./||' | LC_ALL=C sort)
[ "${#FILES[@]}" -gt 0 ] || fail "no samples found under $HERE"

for f in "${FILES[@]}"; do
    ov="$(overrides "$f")" || fail "$f: no macro overrides listed in check.sh (add it to overrides())"
    variants=("" "$ov")
    ex="$(extra_variants "$f")"
    [ -n "$ex" ] && variants+=("$ex")
    base="$TMP/$(echo "$f" | tr '/.' '__')"
    for v in "${variants[@]}"; do
        label="$f${v:+ $v}"
        # shellcheck disable=SC2086
        case "$f" in
            *.c)
                "$CLANG" -S -emit-llvm -O0 -g $v "$f" -o "$base.ll" 2>"$base.err" \
                    || { cat "$base.err" >&2; fail "$label: $CLANG -S -emit-llvm"; }
                allow="$ALLOW_C"
                ;;
            *)
                "$FLANG" -S -emit-llvm -O0 -g $v "$f" -o "$base.ll" 2>"$base.err" \
                    || { cat "$base.err" >&2; fail "$label: $FLANG -S -emit-llvm"; }
                allow="$ALLOW_F"
                ;;
        esac
        # (The ARRAY_ASSIGN variant deliberately uses the runtime assignment.)
        if [ "$v" != "-DARRAY_ASSIGN" ]; then
            # Calls to functions defined in the sample itself are fine.
            defined="$(grep -oE "$DEF_RE" "$base.ll" | sed 's/.*@//' \
                       | sort -u | paste -sd '|' -)"
            bad="$(grep -oE "$CALL_RE" "$base.ll" | sed 's/.*@//' \
                   | grep -vE "$allow" | grep -vxE "${defined:-^$}" | sort -u | tr '\n' ' ')"
            [ -z "$bad" ] || fail "$label: IR calls external routine(s): $bad"
        fi
        # shellcheck disable=SC2086
        case "$f" in
            *.c)
                "$CC" -std=c11 -O0 -g -Wall $SAN $v "$f" -o "$base.exe" 2>"$base.err" \
                    || { cat "$base.err" >&2; fail "$label: $CC build"; }
                ;;
            *)
                init=()
                [ -z "$v" ] && init=("${GF_INIT[@]}")
                "$GFORTRAN" "${GF_FLAGS[@]}" "${init[@]}" $v "$f" -o "$base.exe" 2>"$base.err" \
                    || { cat "$base.err" >&2; fail "$label: $GFORTRAN build"; }
                ;;
        esac
        (cd "$TMP" && "$base.exe") >"$base.out" 2>"$base.err"
        rc=$?
        [ "$rc" -eq 0 ] || { cat "$base.err" >&2; fail "$label: run (exit status $rc)"; }
        case "$f" in
            c/jacobi*.c) cp "$base.out" "$TMP/ck_$(basename "$f" .c)_${v:+ov}" ;;
        esac
        n=$((n + 1))
        echo "ok   $label"
    done
done

for suffix in "" ov; do
    ref="$TMP/ck_jacobi_$suffix"
    [ -f "$ref" ] || fail "C jacobi checksum missing"
    for other in jacobi_vla jacobi_heap; do
        cmp -s "$ref" "$TMP/ck_${other}_$suffix" \
            || fail "c/$other.c checksum differs from c/jacobi.c (${suffix:-defaults}): $(cat "$ref") vs $(cat "$TMP/ck_${other}_$suffix")"
    done
    echo "ok   C jacobi checksums identical (${suffix:-defaults}): $(cat "$ref")"
done
echo "check.sh: all $n sample builds passed"
