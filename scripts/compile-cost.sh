#!/usr/bin/env bash
# What `assert_conflict_free!` costs at compile time (BENCHMARKS.md, "Compile-time verification cost").
# Builds a one-file crate that depends on swizzle-core three ways — no assert, the assert once, 100 distinct copies
# of it — each checking a 128x64 f16 tile with Sw<3,3,3> for row16 and ldmatrix.x4, and prints the median wall time
# of `cargo build` after touching main.rs (dependencies prebuilt). Usage: scripts/compile-cost.sh [RUNS]
#
# `scripts/compile-cost.sh --from-clean [RUNS]`: what a user pays from an empty target directory (syn, quote,
# the macros, swizzle-spec, swizzle-core and the user's crate) for a crate using `swizzle!`, `#[raster]` and one
# `assert_conflict_free!`; wall time of each `cargo build`. SWIZZLE_ROOT=<checkout> measures another checkout.
set -euo pipefail
if [ "${1:-}" = --from-clean ]; then
  runs=${2:-3}
  root=${SWIZZLE_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/src"
  printf '[package]\nname = "compile-cost"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nswizzle-core = { path = "%s/swizzle-core" }\n[workspace]\n' "$root" >"$work/Cargo.toml"
  cp "$root/rust-toolchain.toml" "$work/"
  cat >"$work/src/main.rs" <<'RS'
use swizzle_core::pattern::{Pattern, Smem};
use swizzle_core::raster::Grid;
use swizzle_core::{raster, swizzle, Elem, Swizzle};
const SW: Swizzle = swizzle!(B = 3, M = 3, S = 3);
#[raster(tile = 4)]
struct Gemm;
swizzle_core::assert_conflict_free!(
    Smem::row_major(128, 64, Elem::F16).with_swizzle(SW),
    Pattern::ROW16,
    Pattern::LDMATRIX_X4
);
fn main() {
    println!("{:?} {}", Gemm::tile_of(12, Grid::new(5, 3)), SW.apply(64));
}
RS
  (cd "$work" && cargo generate-lockfile -q --offline 2>/dev/null || cargo generate-lockfile -q)
  for i in $(seq 1 "$runs"); do
    rm -rf "$work/target"
    load=$(cut -d' ' -f1 /proc/loadavg)
    s=$(date +%s%N); (cd "$work" && cargo build -q); e=$(date +%s%N)
    echo "from clean, run $i: $(((e - s) / 1000000)) ms (load average before: $load)"
  done
  exit 0
fi
# Incremental compilation would reuse the const evaluations between builds of the same source and hide the cost.
export CARGO_INCREMENTAL=0
runs=${1:-7}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
cat >"$work/Cargo.toml" <<TOML
[package]
name = "compile-cost"
version = "0.0.0"
edition = "2021"
[dependencies]
swizzle-core = { path = "$root/swizzle-core" }
[workspace]
TOML
cp "$root/rust-toolchain.toml" "$work/"
variant() { # $1 = number of asserts
  {
    echo '#![allow(unused_imports)]'
    echo 'use swizzle_core::pattern::{Pattern, Smem};'
    echo 'use swizzle_core::{units::Elem, Swizzle};'
    for i in $(seq 1 "$1"); do
      echo "const SMEM_$i: Smem = Smem::row_major(128, 64, Elem::F16).with_swizzle(Swizzle::new(3, 3, 3));"
      echo "swizzle_core::assert_conflict_free!(SMEM_$i, Pattern::ROW16, Pattern::LDMATRIX_X4);"
    done
    echo 'fn main() {}'
  } >"$work/src/main.rs"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
(cd "$work" && variant 0 && cargo build -q 2>/dev/null)   # build the dependencies once
for n in 0 1 100; do
  variant "$n"
  times=$(for _ in $(seq 1 "$runs"); do
    touch "$work/src/main.rs"
    s=$(date +%s%N); (cd "$work" && cargo build -q); e=$(date +%s%N)
    echo $(((e - s) / 1000000))
  done)
  echo "$n asserts: median $(echo "$times" | median) ms over $runs builds ($(echo $times))"
done
