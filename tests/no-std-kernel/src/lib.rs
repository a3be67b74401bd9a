//! The index code of a GEMM kernel written in Rust, `#![no_std]` and without an allocator, as a kernel crate for
//! `nvptx64-nvidia-cuda` would be: the shared-memory layout from `swizzle!`, the block order from `#[raster]`,
//! and the wgmma descriptor of a TMA-filled operand tile, all from `swizzle-core` without its `std` feature.
//! Everything is a `const fn` of plain integers, checked while this crate compiles.
#![no_std]
#![forbid(unsafe_code)]

use swizzle_core::raster::Grid;
use swizzle_core::units::{ByteMode, Elem};
use swizzle_core::wgmma::{decode_descriptor, layout_type, Major, OperandTile};
use swizzle_core::{raster, swizzle, Smem, Swizzle};

/// The A tile's swizzle: 64 f16 per row (128 bytes), the 16-byte chunk index XORed with the row.
pub const SMEM_A: Swizzle = swizzle!(SW128, unit = f16);

/// The A tile: 64x64 f16, row-major, swizzled.
pub const TILE_A: Smem = Smem::row_major(64, 64, Elem::F16).with_swizzle(SMEM_A);

/// The kernel's block order: strips of 4 tile columns.
#[raster(tile = 4)]
pub struct Gemm;

/// The B operand as TMA writes it and wgmma reads it: bf16, K-major, 128x64, SW128.
pub const OPERAND_B: OperandTile = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);

/// Element offset in shared memory of `(row, col)` of the A tile: what a thread indexes its `*mut f16` with.
pub const fn smem_offset(row: u32, col: u32) -> u32 {
    SMEM_A.apply(row * 64 + col)
}

/// The output tile `(x, y)` the block launched `bid`-th computes on a `gx x gy` tile grid, or `None` for a
/// padding block.
pub const fn block_tile(bid: u32, gx: u32, gy: u32) -> Option<(u32, u32)> {
    Gemm::tile_of(bid, Grid::new(gx, gy))
}

/// The wgmma descriptor of the B tile at shared-memory byte address `addr`, k16 slice `j`.
pub const fn descriptor_b(addr: u32, j: u32) -> u64 {
    OPERAND_B.descriptor(addr + OPERAND_B.k_step_bytes(j))
}

// Checked while this crate compiles: the layout, the order and the descriptor agree with what the kernel expects.
const _: () = assert!(smem_offset(1, 0) == 72);
const _: () = assert!(TILE_A.offset(1, 0) == smem_offset(1, 0));
const _: () = assert!(matches!(block_tile(12, 5, 3), Some((4, 0))));
const _: () = assert!(OPERAND_B.validate().is_ok());
const _: () = {
    let (addr, _lbo, sbo, base, layout) = decode_descriptor(descriptor_b(1024, 0));
    assert!(addr == 1024 && sbo == 1024 && base == 0 && layout == layout_type(ByteMode::Sw128));
};

/// The same B operand read by Blackwell's `tcgen05.mma`, and the instruction that reads it: bf16 x bf16 -> f32,
/// 128 x 128, both K-major, one CTA.
pub const fn umma_descriptor_b(addr: u32) -> u64 {
    swizzle_core::descriptor::Descriptor::of_tile(
        swizzle_core::descriptor::Arch::Sm100,
        &OPERAND_B,
        addr,
    )
    .encode()
}
pub const IDESC: u32 = swizzle_core::tcgen05::InstrDesc::new(
    swizzle_core::tcgen05::MmaType::BF16,
    swizzle_core::tcgen05::MmaType::BF16,
    true,
    128,
    128,
    Major::K,
    Major::K,
)
.encode();

// Both descriptors, decoded and checked against the operand while this crate compiles, without std.
swizzle_core::assert_descriptor!(
    descriptor_b(0x2000, 1),
    swizzle_core::descriptor::Arch::Sm90,
    OPERAND_B
);
swizzle_core::assert_descriptor!(
    umma_descriptor_b(0x2000),
    swizzle_core::descriptor::Arch::Sm100,
    OPERAND_B
);
const _: () = assert!(matches!(
    swizzle_core::tcgen05::InstrDesc::decode(IDESC, swizzle_core::tcgen05::Kind::F16, 1),
    Ok(d) if d.n == 128 && d.tmem_alloc_columns() == 128
));
