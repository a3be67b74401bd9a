//! The header's layout types (`swz::Layout<...>`, `swz::Compose<...>`, emitted by `Header::layout` and
//! `swz emit-header --layout`) compute exactly what `swizzle_core::Smem` computes: `byte_offset(row, col)` =
//! [`Smem::byte_addr`] and `offset(row, col)` = [`Smem::offset`] at every (row, col), compiled as host C++17 by g++.
//!
//! The domain, every layout of it that `Smem::validate` accepts:
//! - one layer: every legal `Sw<B,M,S>` with `B <= 2, M <= 2, |S| <= 4`, on element offsets and on bytes, on
//!   8x16 and 4x32 row-major and 16x8 column-major tiles of f16 and f32, unpadded and padded by 4 bytes;
//! - two layers `B,M,S+B,M,S`: every pair of non-identity legal `B <= 1, M <= 1, |S| <= 3` on a 16x16 f16 tile,
//!   on element offsets, unpadded and padded by 16 bytes; and fragment problem 2.1's `1,6,-2+3,3,5` on 16x256 f16.
//!
//! The C++ driver prints one line per layout (its name and an FNV-1a hash over all offsets); Rust computes the
//! same lines. A failing layout is re-printed cell by cell for a readable diff.
#[path = "common/gxx.rs"]
mod gxx;

use std::fmt::Write as _;
use swizzle_core::compose::{Composed, SwizzleFn};
use swizzle_core::cuda::Header;
use swizzle_core::tile::{Order, Tile};
use swizzle_core::units::Unit;
use swizzle_core::{Elem, Smem, Swizzle};

fn layouts() -> Vec<Smem> {
    let mut v = Vec::new();
    let shapes = [
        (8, 16, Order::RowMajor),
        (4, 32, Order::RowMajor),
        (16, 8, Order::ColMajor),
    ];
    for sw in Swizzle::all_legal(2, 2, 4) {
        for (rows, cols, order) in shapes {
            for elem in [Elem::F16, Elem::F32] {
                for unit in [Unit::Elems(elem), Unit::Bytes] {
                    for pad in [0, 4] {
                        let tile = Tile::new(rows, cols, elem, order).unwrap();
                        v.push(
                            Smem::plain(tile)
                                .with_swizzle_fn_in(SwizzleFn::Single(sw), unit)
                                .with_padding(pad),
                        );
                    }
                }
            }
        }
    }
    let small: Vec<Swizzle> = Swizzle::all_legal(1, 1, 3)
        .filter(|s| !s.is_identity())
        .collect();
    for &a in &small {
        for &b in &small {
            for pad in [0, 16] {
                let two = SwizzleFn::Composed(Composed::new(a, b));
                v.push(
                    Smem::row_major(16, 16, Elem::F16)
                        .with_swizzle_fn(two)
                        .with_padding(pad),
                );
            }
        }
    }
    v.push("16x256:f16:1,6,-2+3,3,5".parse().unwrap());
    v.retain(|s| s.validate().is_ok());
    v
}

fn fnv(mut h: u64, v: u32) -> u64 {
    for b in v.to_le_bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

fn line(i: usize, s: &Smem) -> String {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for r in 0..s.rows() {
        for c in 0..s.cols() {
            h = fnv(h, s.byte_addr(r, c));
            h = fnv(h, s.offset(r, c));
        }
    }
    format!("L{i} {h:016x}")
}

const DRIVER: &str = r#"#include <cstdio>
#include <cstdint>
#include "swz.cuh"

template <class L>
static void dump(const char* name) {
    uint64_t h = 0xcbf29ce484222325ull;
    auto mix = [&h](uint32_t v) {
        for (int k = 0; k < 4; ++k) {
            h ^= (v >> (8 * k)) & 0xFFu;
            h *= 0x100000001b3ull;
        }
    };
    for (uint32_t r = 0; r < L::ROWS; ++r)
        for (uint32_t c = 0; c < L::COLS; ++c) {
            mix(L::byte_offset(r, c));
            mix(L::offset(r, c));
        }
    std::printf("%s %016llx\n", name, (unsigned long long)h);
}

int main() {
@CALLS@
    return 0;
}
"#;

#[test]
fn layout_types_match_smem_on_every_small_layout() {
    let all = layouts();
    assert!(all.len() > 1000, "{} layouts", all.len());
    let mut header = Header::new();
    let mut calls = String::new();
    let mut expected = String::new();
    for (i, s) in all.iter().enumerate() {
        header = header.layout(&format!("L{i}"), *s);
        let _ = writeln!(calls, "    dump<swz::L{i}>(\"L{i}\");");
        let _ = writeln!(expected, "{}", line(i, s));
    }
    let dir = gxx::workdir("header_layouts", "every_small_layout");
    std::fs::write(dir.join("swz.cuh"), header.render()).unwrap();
    let exe = gxx::compile(
        &dir,
        "driver.cpp",
        &DRIVER.replace("@CALLS@", &calls),
        &["-O0"],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let got = gxx::run(&exe);
    for ((g, e), s) in got.lines().zip(expected.lines()).zip(&all) {
        assert_eq!(g, e, "layout {s} ({})", swizzle_core::cuda::layout_type(s));
    }
    assert_eq!(got.lines().count(), all.len());
}

/// The hash test can fail: a layout with a different padding hashes differently.
#[test]
fn hash_lines_tell_layouts_apart() {
    let a = Smem::row_major(8, 16, Elem::F16);
    assert_ne!(line(0, &a), line(0, &a.with_padding(4)));
    assert_ne!(line(0, &a), line(0, &a.with_swizzle(Swizzle::new(1, 1, 3))));
}
