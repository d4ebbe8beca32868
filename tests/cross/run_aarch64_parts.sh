#!/bin/sh
# run_aarch64_parts.sh - build tests/cross/aarch64_parts_check.c for aarch64
# and run it under qemu-aarch64 on several CPU models; then prove that it
# catches planted faults: each mutant is a copy of asm/ with one line of a
# routine changed (sed), built and run the same way, and must fail.
#
# Needs: qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross (Debian).
# Prints "N passed, M failed" per run and a last line over all of them,
# where every run and every caught mutant counts as one.  Exit 0 when all
# passed.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CC=${CC:-aarch64-linux-gnu-gcc}
QEMU=${QEMU:-qemu-aarch64}
CPUS=${CPUS:-"max cortex-a53 cortex-a35 cortex-a72 neoverse-n1"}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

for tool in "$CC" "$QEMU"; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "missing $tool (apt-get install -y qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross)"
        echo "0 passed, 1 failed"
        exit 1
    }
done

# build ASMDIR OUT: the check against the .S files of ASMDIR
build() {
    "$CC" -static -O2 -march=armv8-a+crypto -DUSE_AARCH64 -Wall -Werror \
        -I"$ROOT/gcrylike/_native" -I"$ROOT/ciphers/aes" \
        -I"$ROOT/ciphers/nhpoly1305" -I"$ROOT/ciphers/poly1305" -I"$1" \
        "$ROOT/tests/cross/aarch64_parts_check.c" \
        "$ROOT/tests/cross/aarch64_call_check.S" \
        "$1/aes-aarch64-ce.S" "$1/nh-aarch64-neon.S" \
        "$1/poly1305-aarch64-scalar.S" \
        "$ROOT/ciphers/aes/aes_generic.c" \
        "$ROOT/ciphers/nhpoly1305/nh_generic.c" \
        "$ROOT/ciphers/poly1305/poly1305_generic.c" \
        "$ROOT/gcrylike/_native/burn.c" -o "$2"
}

ok=0
bad=0

build "$ROOT/asm" "$WORK/check" || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
for cpu in $CPUS; do
    "$QEMU" -cpu "$cpu" "$WORK/check" > "$WORK/out" 2>&1
    rc=$?
    grep FAIL "$WORK/out" | head -n 5
    printf 'aarch64 -cpu %s: %s\n' "$cpu" "$(tail -n 1 "$WORK/out")"
    if [ "$rc" -eq 0 ] && tail -n 1 "$WORK/out" | grep -q ' 0 failed$'; then
        ok=$((ok + 1))
    else
        bad=$((bad + 1))
    fi
done

# Mutants: FILE|sed expression|what the check must notice.  Each sed must
# change its file (else the mutant is stale and counts as a failure).
MUTANTS='poly1305-aarch64-scalar.S|s/^\tadc\tx9, x9, xzr$/\tadd\tx9, x9, xzr/|top carry of the fold dropped
poly1305-aarch64-scalar.S|s/^\tadc\tx9, x9, x1$/\tadc\tx9, x9, xzr/|no 2^128 bit
poly1305-aarch64-scalar.S|s/^\tcbz\tx3, .Lps_ret$/\tmov\tx19, x3\n\tcbz\tx3, .Lps_ret/|x19 clobbered
nh-aarch64-neon.S|0,/^\ttbz\tx2, #4, .Lnh_fold$/s//\tb\t.Lnh_fold/|single group after a pair skipped
nh-aarch64-neon.S|s/^\tlsr\tx6, x2, #6$/\tstr\txzr, [sp, #-16]\n\tlsr\tx6, x2, #6/|stack written, burn 0 returned
nh-aarch64-neon.S|s/^\tldp\td\\a3, d\\b3, \[x5, #16\]$/\tldp\td\\a3, d\\b3, [x5, #32]/|key read past len + 48
aes-aarch64-ce.S|s/^\tGCRY_ZERO_V 16, 30$/\tGCRY_ZERO_V 16, 27/|round keys 12-14 left in v28-v30
aes-aarch64-ce.S|s/^\tcmp\tx3, #4$/\tcmp\tx3, #5/|a group of four mishandled
aes-aarch64-ce.S|s/^\tmovi\tv0.16b, #0$/\tmovi\tv0.16b, #0\n\tmovi\tv9.16b, #0/|d9 clobbered'

n=0
# (printf, not echo: dash's echo would turn the seds' \n into newlines)
: > "$WORK/mutants"
printf '%s\n' "$MUTANTS" | while IFS='|' read -r file expr what; do
    n=$((n + 1))
    dir="$WORK/m$n"
    mkdir -p "$dir"
    cp "$ROOT"/asm/*.S "$ROOT"/asm/*.h "$dir"/
    sed -i "$expr" "$dir/$file"
    printf 'mutant %d (%s: %s): ' "$n" "$file" "$what"
    if cmp -s "$ROOT/asm/$file" "$dir/$file"; then
        echo "STALE (sed changed nothing)"; echo bad >> "$WORK/mutants"; continue
    fi
    if ! build "$dir" "$dir/check" 2>"$dir/err"; then
        echo "STALE (does not build)"; echo bad >> "$WORK/mutants"; continue
    fi
    # a crash (guard page) counts as caught as well as failed checks
    if "$QEMU" -cpu max "$dir/check" > "$dir/out" 2>&1; then
        echo "NOT CAUGHT"; echo bad >> "$WORK/mutants"
    else
        echo "caught ($(grep -c FAIL "$dir/out") failures shown, $(tail -n 1 "$dir/out"))"
        echo ok >> "$WORK/mutants"
    fi
done
ok=$((ok + $(grep -c '^ok$' "$WORK/mutants")))
bad=$((bad + $(grep -c '^bad$' "$WORK/mutants")))
echo "$ok passed, $bad failed"
[ "$bad" -eq 0 ]
