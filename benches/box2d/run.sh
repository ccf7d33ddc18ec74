#!/bin/sh
# Builds Box2D v3 (the C sources vendored by the crate boxdd-sys 0.6.0, unpatched upstream
# revision 56edae79f2949d86142b03450d5d60f63bcf5a6f) the way its CMake Release build does on
# x86-64 Linux with the default options (static library, SSE2, BOX2D_AVX2 off), builds
# large_pyramid.c against it, and runs it. Everything built goes to $OUT (default /tmp/b2bench).
#
#   benches/box2d/run.sh [scene ...] [--steps N]      # every scene when none is named
#   OPT=-O2 benches/box2d/run.sh large_pyramid        # another optimization level
#   BUILD_ONLY=1 benches/box2d/run.sh                 # build, print the binary's path
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

# Box2D's CMake Release build on Linux x86-64 with default options: CMAKE_BUILD_TYPE=Release
# (-O3 -DNDEBUG), C_STANDARD 17 with C_EXTENSIONS (-std=gnu17), hidden visibility, no
# -mavx/-mavx2/-march (BOX2D_AVX2 off: core.h then defines B2_SIMD_SSE2, width 4), and
# -ffp-contract=off (no effect without FMA instructions, which SSE2 code has none of).
CFLAGS="$OPT -DNDEBUG -std=gnu17 -fvisibility=hidden -ffp-contract=off"
OBJ="$OUT/obj$OPT"
LIB="$OUT/libbox2d$OPT.a"
BIN="$OUT/large_pyramid$OPT"

# The SIMD path the build takes, from Box2D's own macros.
SIMD=$(echo '#include "core.h"' | $CC $CFLAGS -I"$B2/include" -I"$B2/src" -E -dM -x c - | grep -o 'B2_SIMD_[A-Z0-9]*' | sort -u | tr '\n' ' ')
case "$SIMD" in
*B2_SIMD_AVX2*) echo "AVX2 path selected: $SIMD" >&2; exit 1 ;;
*B2_SIMD_SSE2*) ;;
*) echo "no SSE2 path: $SIMD" >&2; exit 1 ;;
esac

rm -rf "$OBJ" && mkdir -p "$OBJ"
for c in "$B2"/src/*.c; do
    $CC $CFLAGS -I"$B2/include" -I"$B2/src" -c "$c" -o "$OBJ/$(basename "$c" .c).o"
done
rm -f "$LIB"
ar rcs "$LIB" "$OBJ"/*.o
$CC $CFLAGS -I"$B2/include" "$HERE/large_pyramid.c" "$LIB" -lm -o "$BIN"

# No VEX-encoded instruction anywhere (AVX, AVX2, FMA all use ymm or v-prefixed mnemonics).
if objdump -d --no-show-raw-insn "$LIB" "$BIN" | grep -Eq '%ymm|\bv(add|sub|mul|div|mov|fmadd|fmsub|fnmadd|broadcast|perm|shuf|unpck|and|or|xor|max|min|cmp|sqrt|rsqrt|cvt|blend|insert|extract|zeroupper)[a-z0-9]*\s'; then
    echo "VEX instructions found in the build" >&2
    exit 1
fi

echo "Box2D $REVISION from $B2" >&2
echo "$CC $($CC -dumpfullversion): $CFLAGS; SIMD macros: $SIMD" >&2
if [ -n "${BUILD_ONLY:-}" ]; then
    echo "$BIN"
    exit 0
fi
exec "$BIN" "$@"
