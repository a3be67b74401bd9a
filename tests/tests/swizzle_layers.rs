//! Workspace-level checks that the swizzle pieces agree with each other: the macro with the library, byte modes
//! across units and conventions, and fragment problem 2.1's two-layer swizzle on a tile.
use swizzle_core::compose::{then, SwizzleFn};
use swizzle_core::convert::{thunderkittens_apply, TritonShared};
use swizzle_core::layout::Smem;
use swizzle_core::units::{ByteMode, Elem, Unit};
use swizzle_core::{swizzle, Swizzle};

#[test]
fn macro_agrees_with_library() {
    assert_eq!(swizzle!(B = 3, M = 3, S = 3), Swizzle::new(3, 3, 3));
    assert_eq!(swizzle!(B = 2, M = 4), Swizzle::new(2, 4, 2));
    assert_eq!(swizzle!(S = -4, B = 1, M = 0), Swizzle::new(1, 0, -4));
    assert_eq!(swizzle!(B = 0, M = 0, S = 0), Swizzle::IDENTITY);
    assert_eq!(swizzle!(SW32), ByteMode::Sw32.swizzle());
    assert_eq!(swizzle!(SW64), ByteMode::Sw64.swizzle());
    assert_eq!(swizzle!(SW128), ByteMode::Sw128.swizzle());
    assert_eq!(swizzle!(NONE), ByteMode::None.swizzle());
    assert_eq!(
        swizzle!(SW128, unit = bf16),
        ByteMode::Sw128.swizzle().to_elems(Elem::BF16).unwrap()
    );
    assert_eq!(swizzle!(SW64, unit = f64), Swizzle::new(2, 1, 3));
    assert_eq!(swizzle!(SW32, unit = b128), Swizzle::new(1, 0, 3));
    assert_eq!(swizzle!(SW128, unit = bytes), ByteMode::Sw128.swizzle());
}

/// A byte mode on f16 offsets of a 64x64 tile moves exactly the bytes that ThunderKittens' formula moves, and
/// Triton's (8, 1, 8) layout for 64-element f16 rows is the same swizzle.
#[test]
fn sw128_on_an_f16_tile_three_ways() {
    let st = Smem::row_major(64, 64, Elem::F16).with_swizzle_in(ByteMode::Sw128.swizzle_in());
    let sw = ByteMode::Sw128.swizzle().to_elems(Elem::F16).unwrap();
    let triton = TritonShared {
        vec: 8,
        per_phase: 1,
        max_phase: 8,
    };
    assert_eq!(triton.to_swizzle(64), Ok(sw));
    for r in 0..64 {
        for c in 0..64 {
            let byte = (r * 64 + c) * 2;
            assert_eq!(
                st.byte_addr(r, c),
                thunderkittens_apply(byte, 128),
                "({r},{c})"
            );
            assert_eq!(st.offset(r, c), triton.offset(r, c, 64), "({r},{c})");
        }
    }
    assert_eq!(ByteMode::Sw128.swizzle_for(Unit::Elems(Elem::F16)), sw);
}

/// 8 offsets land in 8 different 16-byte chunks of a 128-byte line (ldmatrix's 8 row reads are conflict-free).
fn distinct_chunks(offsets: impl Iterator<Item = u32>) -> bool {
    let mut seen = [false; 8];
    offsets
        .map(|o| ((o / 8) % 8) as usize)
        .all(|c| !std::mem::replace(&mut seen[c], true))
}

/// Fragment problem 2.1: a 16x256 f16 tile read (1) as 16x16 blocks, and (2) with each 256-element row read as a
/// 16x16 block. ldmatrix reads 8 rows of one 16-byte (8-element) chunk; each such read must hit 8 distinct chunks.
/// Layer 1 `Sw<3,3,5>` XORs the tile row (bits 8..11) into the chunk bits (3..6), fixing pattern 1. Pattern 2's
/// rows are 16 elements apart, so chunk = 2r + c and rows r, r+4 collide; layer 2 `Sw<1,3,3>` XORs bit 6 (r / 4)
/// into bit 3, as in problem 1.1. The shifts differ, so the result is two layers; it is still a bijection of the
/// tile, and both patterns are conflict-free.
#[test]
fn the_fragment_article_two_layers() {
    let layers = then(Swizzle::new(3, 3, 5), Swizzle::new(1, 3, 3));
    assert!(matches!(layers, SwizzleFn::Composed(_)), "{layers}");
    assert_eq!(layers.to_string(), "Sw<3,3,5> then Sw<1,3,3>");
    let elems = 16 * 256;
    assert_eq!(elems as u64 % layers.period(), 0);
    let mut seen = vec![false; elems as usize];
    for o in 0..elems {
        let s = layers.apply(o);
        assert!(s < elems && !seen[s as usize]);
        seen[s as usize] = true;
        assert_eq!(layers.inverse().apply(s), o);
    }
    for half in 0..2u32 {
        for chunk in 0..2u32 {
            for block in 0..16u32 {
                // Pattern 1: block `block` of the tile, tile rows half*8 .. half*8+8.
                let p1 =
                    (0..8).map(|r| layers.apply((half * 8 + r) * 256 + block * 16 + chunk * 8));
                assert!(
                    distinct_chunks(p1),
                    "pattern 1, block {block}, half {half}, chunk {chunk}"
                );
                // Pattern 2: tile row `block` as a 16x16 block, its rows half*8 .. half*8+8.
                let p2 =
                    (0..8).map(|r| layers.apply(block * 256 + (half * 8 + r) * 16 + chunk * 8));
                assert!(
                    distinct_chunks(p2),
                    "pattern 2, row {block}, half {half}, chunk {chunk}"
                );
            }
        }
    }
    // Either layer alone leaves the other pattern conflicted.
    let one = Swizzle::new(3, 3, 5);
    assert!(!distinct_chunks((0..8).map(|r| one.apply(r * 16))));
    let two = Swizzle::new(1, 3, 3);
    assert!(!distinct_chunks((0..8).map(|r| two.apply(r * 256))));
}
