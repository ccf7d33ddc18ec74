#!/bin/sh
# Builds Box2D v3 (the C sources vendored by the crate boxdd-sys 0.6.0, unpatched upstream
# revision 56edae79f2949d86142b03450d5d60f63bcf5a6f) the way its CMake Release build does on
# x86-64 Linux (static library; SSE2 with the default options, or AVX2 with BOX2D_AVX2 on),
# builds our benches against it (large_pyramid.c: impact2d's benchmark scenes; joint_grid.c and
# ragdoll_rain.c: the joint scenes of impact's command), and runs them. Everything built goes to
# $OUT (default /tmp/b2bench).
#
#   benches/box2d/run.sh [scene ...] [--steps N]      # every scene when none is named
#   benches/box2d/run.sh large_pyramid --no-recycle   # contact recycling off (large_pyramid.c)
#   benches/box2d/run.sh joint_grid --warm-up 10      # untimed steps first (joint scenes; 10)
#   benches/box2d/run.sh ragdoll_rain --cpu-time      # timed by thread CPU time (joint scenes)
#   SIMD=avx2 benches/box2d/run.sh joint_grid         # the AVX2 build (BOX2D_AVX2, -mavx2 -mfma)
#   OPT=-O2 benches/box2d/run.sh large_pyramid        # another optimization level
#   BUILD_ONLY=1 benches/box2d/run.sh                 # build, print the binaries' paths
#
# Scenes: large_pyramid, many_pyramids, tumbler, smash (large_pyramid.c), joint_grid,
# ragdoll_rain (one program each). SIMD=avx2 needs a processor with AVX2 and FMA (checked in
# /proc/cpuinfo); its binaries get the suffix -avx2.
#
# The crate's sources are found in cargo's registry; if they are not there, a throwaway project
# in $OUT fetches them with `cargo fetch`.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
OPT=${OPT:--O3}
OUT=${OUT:-/tmp/b2bench}
CC=${CC:-gcc}
CRATE=boxdd-sys-0.6.0
REGISTRY="${CARGO_HOME:-$HOME/.cargo}/registry/src"

find_crate() {
    for d in "$REGISTRY"/*/"$CRATE"; do
        if [ -d "$d/third-party/box2d/src" ]; then
            echo "$d"
            return 0
        fi
    done
    return 1
}

mkdir -p "$OUT"
if ! CRATE_DIR=$(find_crate); then
    echo "fetching $CRATE with a throwaway cargo project in $OUT/fetch" >&2
    mkdir -p "$OUT/fetch/src"
    printf '[package]\nname = "fetch-boxdd"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\nboxdd-sys = "=0.6.0"\n' \
        >"$OUT/fetch/Cargo.toml"
    echo 'fn main() {}' >"$OUT/fetch/src/main.rs"
    (cd "$OUT/fetch" && cargo fetch)
    CRATE_DIR=$(find_crate)
fi
B2="$CRATE_DIR/third-party/box2d"

# The crate applies its patches (patches/*.patch) at build time; the vendored files are upstream's.
# Check that: each patched file's SHA-256 against the upstream one the crate records.
awk -F' = ' '/^path = /{gsub(/"/,"",$2); p=$2} /^upstream_sha256 = /{gsub(/"/,"",$2); print $2 "  " p}' \
    "$CRATE_DIR/effective-source.toml" >"$OUT/upstream.sha256"
(cd "$B2" && sha256sum --quiet -c "$OUT/upstream.sha256") || {
    echo "the vendored sources are not upstream's" >&2
    exit 1
}
REVISION=$(sed -n 's/^upstream_sha = "\(.*\)"/\1/p' "$CRATE_DIR/effective-source.toml")

# Box2D's CMake Release build on Linux x86-64: CMAKE_BUILD_TYPE=Release (-O3 -DNDEBUG),
# C_STANDARD 17 with C_EXTENSIONS (-std=gnu17), hidden visibility, and -ffp-contract=off (what the
# boxdd-sys build passes; it keeps the AVX2 build from fusing multiplies and adds that the source
# does not ask for). With the default options (BOX2D_AVX2 off) there is no -mavx/-mavx2/-march:
# core.h then defines B2_SIMD_SSE2, width 4. With BOX2D_AVX2 on, Box2D's CMake defines BOX2D_AVX2
# and compiles with -mavx2 -mfma: core.h defines B2_SIMD_AVX2, width 8. The benches are compiled
# with the same flags.
SIMD=${SIMD:-sse2}
case "$SIMD" in
sse2)
    CFLAGS="$OPT -DNDEBUG -std=gnu17 -fvisibility=hidden -ffp-contract=off"
    SUFFIX=""
    WANT=B2_SIMD_SSE2
    ;;
avx2)
    for flag in avx2 fma; do
        if ! grep -qw "$flag" /proc/cpuinfo; then
            echo "SIMD=avx2: this processor has no $flag" >&2
            exit 1
        fi
    done
    CFLAGS="$OPT -DNDEBUG -std=gnu17 -fvisibility=hidden -ffp-contract=off -DBOX2D_AVX2 -mavx2 -mfma"
    SUFFIX="-avx2"
    WANT=B2_SIMD_AVX2
    ;;
*)
    echo "SIMD must be sse2 or avx2, not $SIMD" >&2
    exit 2
    ;;
esac
OBJ="$OUT/obj$OPT$SUFFIX"
LIB="$OUT/libbox2d$OPT$SUFFIX.a"
PROGRAMS="large_pyramid joint_grid ragdoll_rain"

# The SIMD path the build takes, from Box2D's own macros.
MACROS=$(echo '#include "core.h"' | $CC $CFLAGS -I"$B2/include" -I"$B2/src" -E -dM -x c - | grep -o 'B2_SIMD_[A-Z0-9]*' | sort -u | tr '\n' ' ')
case "$MACROS" in
*"$WANT "*) ;;
*) echo "SIMD=$SIMD: Box2D chose $MACROS, not $WANT" >&2; exit 1 ;;
esac

rm -rf "$OBJ" && mkdir -p "$OBJ"
for c in "$B2"/src/*.c; do
    $CC $CFLAGS -I"$B2/include" -I"$B2/src" -c "$c" -o "$OBJ/$(basename "$c" .c).o"
done
rm -f "$LIB"
ar rcs "$LIB" "$OBJ"/*.o
BINS=""
for program in $PROGRAMS; do
    $CC $CFLAGS -I"$B2/include" "$HERE/$program.c" "$LIB" -lm -o "$OUT/$program$OPT$SUFFIX"
    BINS="$BINS $OUT/$program$OPT$SUFFIX"
done

# VEX-encoded instructions (AVX, AVX2, FMA all use ymm or v-prefixed mnemonics): none in the
# SSE2 build; the AVX2 build uses ymm registers (its eight-wide contact solver).
VEX='%ymm|\bv(add|sub|mul|div|mov|fmadd|fmsub|fnmadd|broadcast|perm|shuf|unpck|and|or|xor|max|min|cmp|sqrt|rsqrt|cvt|blend|insert|extract|zeroupper)[a-z0-9]*\s'
# shellcheck disable=SC2086
if [ "$SIMD" = sse2 ] && objdump -d --no-show-raw-insn "$LIB" $BINS | grep -Eq "$VEX"; then
    echo "VEX instructions found in the build" >&2
    exit 1
fi
if [ "$SIMD" = avx2 ] && ! objdump -d --no-show-raw-insn "$LIB" | grep -q '%ymm'; then
    echo "no ymm register in the AVX2 build" >&2
    exit 1
fi

echo "Box2D $REVISION from $B2" >&2
echo "$CC $($CC -dumpfullversion): $CFLAGS; SIMD macros: $MACROS" >&2
if [ -n "${BUILD_ONLY:-}" ]; then
    for bin in $BINS; do
        echo "$bin"
    done
    exit 0
fi

# Each scene to its program; --steps to every program run, --no-recycle to large_pyramid,
# --warm-up and --cpu-time to the joint programs.
PYRAMID_SCENES="" RUN_GRID="" RUN_RAIN="" STEPS="" NO_RECYCLE="" WARM_UP="" CPU_TIME=""
while [ $# -gt 0 ]; do
    case "$1" in
    large_pyramid | many_pyramids | tumbler | smash) PYRAMID_SCENES="$PYRAMID_SCENES $1" ;;
    joint_grid) RUN_GRID=1 ;;
    ragdoll_rain) RUN_RAIN=1 ;;
    --steps | --warm-up)
        [ $# -ge 2 ] || { echo "$1 needs a value" >&2; exit 2; }
        if [ "$1" = --steps ]; then STEPS="--steps $2"; else WARM_UP="--warm-up $2"; fi
        shift
        ;;
    --no-recycle) NO_RECYCLE=--no-recycle ;;
    --cpu-time) CPU_TIME=--cpu-time ;;
    *)
        echo "unknown scene or option \"$1\"; the scenes are large_pyramid, many_pyramids, tumbler, smash, joint_grid, ragdoll_rain" >&2
        exit 2
        ;;
    esac
    shift
done
if [ -z "$PYRAMID_SCENES$RUN_GRID$RUN_RAIN" ]; then
    PYRAMID_SCENES=all RUN_GRID=1 RUN_RAIN=1
fi
# shellcheck disable=SC2086
if [ -n "$PYRAMID_SCENES" ]; then
    [ "$PYRAMID_SCENES" = all ] && PYRAMID_SCENES=""
    "$OUT/large_pyramid$OPT$SUFFIX" $PYRAMID_SCENES $STEPS $NO_RECYCLE
fi
# shellcheck disable=SC2086
[ -z "$RUN_GRID" ] || "$OUT/joint_grid$OPT$SUFFIX" $STEPS $WARM_UP $CPU_TIME
# shellcheck disable=SC2086
[ -z "$RUN_RAIN" ] || "$OUT/ragdoll_rain$OPT$SUFFIX" $STEPS $WARM_UP $CPU_TIME
