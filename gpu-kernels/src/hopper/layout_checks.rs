//! The Hopper GEMM's own descriptors and tensor maps, decoded and cross-checked against its operand tiles the
//! way `swz check desc` / `swz check tma` check a user's: the shipped spec at compile time, here, and every kernel
//! variant in the host tests (`tests/host/hopper_layouts.rs`). A kernel change that made a descriptor or a map
//! disagree with the tile TMA writes fails these checks, not as wrong numbers on the GPU.

use super::spec::SHIPPED;
use swizzle_core::descriptor::Arch;
use swizzle_core::wgmma::OperandTile;

/// One `wgmma` operand as the kernel reads it: A's 64 rows (one consumer warpgroup), or all of B.
const fn a_operand(a: OperandTile) -> OperandTile {
    OperandTile { mn: 64, ..a }
}

/// The shipped spec's descriptors, as the kernel builds them (`GemmA::desc(base + k_step_bytes(j))`), at a
/// 1024-aligned base and a later K step, each with the operand it reads.
const SHIPPED_DESCRIPTORS: [(u64, OperandTile); 3] = {
    let (a, b) = (SHIPPED.a_tile(), SHIPPED.b_tile());
    [
        (a.descriptor(0x400), a_operand(a)),
        (a.descriptor(0x400 + a.k_step_bytes(3)), a_operand(a)),
        (b.descriptor(0x8400 + b.k_step_bytes(1)), b),
    ]
};

// Decoded and checked at compile time (what `assert_descriptor!` does for one).
const _: () = {
    let mut i = 0;
    while i < SHIPPED_DESCRIPTORS.len() {
        let (bits, tile) = SHIPPED_DESCRIPTORS[i];
        if let Some(why) = swizzle_core::descriptor::check_bits(bits, Arch::Sm90, &tile) {
            panic!("{}", why);
        }
        i += 1;
    }
};
