//! Predicted wavefronts for the transpose kernels' shared-memory tiles, built the way a kernel author would:
//! either from the named patterns on an `Smem`, or from a `lane -> byte address` closure per instruction. Both
//! routes must agree, and the numbers are the ones the GPU kernels are expected to show under Nsight Compute.
use swizzle_core::bank::{wavefronts, Op};
use swizzle_core::pattern::{custom, Access, Pattern, Smem, TileReport};
use swizzle_core::units::Elem;
use swizzle_core::Swizzle;

/// A 32x32 tile: row `r` is written by lane `c` (coalesced global read), column `c` is read back by lane `r`.
fn transpose(elem: Elem, addr: impl Fn(u32, u32) -> u32 + Copy) -> (TileReport, TileReport) {
    let w = match elem.bytes() {
        2 => Op::STS16,
        _ => Op::STS32,
    };
    let r = match elem.bytes() {
        2 => Op::LDS16,
        _ => Op::LDS32,
    };
    let writes = custom(w, 32, addr);
    let reads = custom(r, 32, move |col, lane| addr(lane, col));
    (
        TileReport::new("row.st", &writes),
        TileReport::new("col.ld", &reads),
    )
}

#[test]
fn f32_tile_plain_padded_swizzled() {
    let e = 4;
    let (w, r) = transpose(Elem::F32, |row, col| (row * 32 + col) * e);
    assert_eq!((w.wavefronts, r.wavefronts), (32, 32 * 32)); // 32-way column reads
    let (w, r) = transpose(Elem::F32, |row, col| row * (32 * e + 4) + col * e);
    assert_eq!((w.wavefronts, r.wavefronts), (32, 32)); // +1 word per row
    let sw = Swizzle::new(5, 0, 5); // on f32 elements: col ^= row
    let (w, r) = transpose(Elem::F32, |row, col| sw.apply(row * 32 + col) * e);
    assert_eq!((w.wavefronts, r.wavefronts), (32, 32));

    // The same through the named patterns.
    let smem = Smem::row_major(32, 32, Elem::F32);
    assert_eq!(Pattern::COL_LD.report(&smem).wavefronts, 32 * 32);
    assert_eq!(Pattern::COL_LD.report(&smem.with_padding(4)).wavefronts, 32);
    assert_eq!(
        Pattern::COL_LD.report(&smem.with_swizzle(sw)).wavefronts,
        32
    );
}

#[test]
fn f16_tile_plain_padded_swizzled() {
    let e = 2;
    // Unswizzled: rows are 16 words apart, so a column's 32 lanes use only 2 banks, 16 distinct words each.
    let (w, r) = transpose(Elem::F16, |row, col| (row * 32 + col) * e);
    assert_eq!((w.wavefronts, r.wavefronts), (32, 32 * 16));
    // +1 word (4 bytes) per row: pitch 17 words, every lane in its own bank.
    let (_, r) = transpose(Elem::F16, |row, col| row * (32 * e + 4) + col * e);
    assert_eq!(r.wavefronts, 32);
    // +2 bytes per row: half the columns still 2-way.
    let (_, r) = transpose(Elem::F16, |row, col| row * (32 * e + 2) + col * e);
    assert_eq!(r.wavefronts, 48);
    // XOR on f16 element offsets: Sw<4,1,5> moves 4-byte words (col bits 1..4 ^= row bits 1..4); row bit 0
    // already picks the bank half (rows are 16 words apart), so all 32 lanes land in distinct banks.
    let sw = Swizzle::new(4, 1, 5);
    let (w, r) = transpose(Elem::F16, |row, col| sw.apply(row * 32 + col) * e);
    assert_eq!((w.wavefronts, r.wavefronts), (32, 32));
    let smem = Smem::row_major(32, 32, Elem::F16).with_swizzle(sw);
    assert_eq!(Pattern::COL_LD.report(&smem).wavefronts, 32);
    assert_eq!(Pattern::ROW_ST.report(&smem).wavefronts, 32);
}

#[test]
fn one_instruction_from_a_closure() {
    // Lane l of a warp reads (l, 0) of a 32x32 f32 tile padded by one word.
    let a = Access::from_fn(Op::LDS32, |lane| lane * 132);
    assert_eq!(a.wavefronts(), 1);
    assert_eq!(wavefronts(Op::LDS32, &a.addrs), 1);
    let r = a.report();
    assert_eq!((r.wavefronts, r.ideal, r.conflicts()), (1, 1, 0));
}
