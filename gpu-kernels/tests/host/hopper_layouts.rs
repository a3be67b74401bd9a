//! The Hopper GEMM's descriptors and tensor maps for every kernel variant, decoded and cross-checked against its
//! operand tiles (the shipped spec's are checked at compile time, in the library).

use gpu_kernels::hopper::planned::kernel_variants;
use gpu_kernels::hopper::spec::{HopperSpec, SHIPPED};
use gpu_kernels::runtime::tma::k_major_args;
use swizzle_core::descriptor::{Arch, Descriptor};
use swizzle_core::wgmma::OperandTile;
use swizzle_core::Elem;

/// One `wgmma` operand of A as the kernel reads it: 64 rows, one consumer warpgroup's.
fn a_operand(a: OperandTile) -> OperandTile {
    OperandTile { mn: 64, ..a }
}

/// Every variant the kernel is compiled for, both types.
fn specs() -> Vec<HopperSpec> {
    let mut v = kernel_variants(Elem::BF16);
    v.extend(kernel_variants(Elem::F16));
    assert!(v.len() > 10);
    v
}

/// The shared-memory addresses the kernel gives the ring: `base` rounded up to the tiles' alignment, A's
/// stages, then B's (hopper.cu: `a_smem`, `b_smem`).
fn ring(spec: &HopperSpec, base: u32) -> (u32, u32) {
    let (a, b) = (spec.a_tile().params(), spec.b_tile().params());
    let align = a.smem_align.max(b.smem_align);
    let a_smem = base.div_ceil(align) * align;
    (a_smem, a_smem + spec.stages * a.tile_bytes)
}

/// Every descriptor a consumer builds (each stage, consumer warpgroup and K step), decoded and checked
/// against the operand it reads: no mismatch.
#[test]
fn every_descriptor_the_kernel_builds_matches_its_tile() {
    let mut n = 0;
    for spec in specs() {
        let (at, bt) = (spec.a_tile(), spec.b_tile());
        let (a_smem, b_smem) = ring(&spec, 16);
        let steps = spec.bk * at.elem.bytes() / 32;
        for s in 0..spec.stages {
            for j in 0..steps {
                for cw in 0..spec.consumers {
                    let addr = a_smem
                        + s * at.params().tile_bytes
                        + at.mn_offset_bytes(cw * 64)
                        + at.k_step_bytes(j);
                    let d = Descriptor::decode(at.descriptor(addr), Arch::Sm90).unwrap();
                    assert_eq!(
                        d.mismatches(&a_operand(at)),
                        vec![],
                        "{spec:?} A stage {s} step {j} wg {cw}"
                    );
                    n += 1;
                }
                let addr = b_smem + s * bt.params().tile_bytes + bt.k_step_bytes(j);
                let d = Descriptor::decode(bt.descriptor(addr), Arch::Sm90).unwrap();
                assert_eq!(d.mismatches(&bt), vec![], "{spec:?} B stage {s} step {j}");
                n += 1;
            }
        }
    }
    assert!(n > 1000, "{n}");
}

/// Every tensor map the launch encodes (A's box clipped to the problem's rows, B's cluster slice) with the
/// shared-memory destination of each box the producer issues: no mismatch.
#[test]
fn every_tensor_map_the_launch_encodes_matches_its_tile() {
    for spec in specs() {
        let (a_smem, b_smem) = ring(&spec, 16);
        let (at, bt) = (spec.a_tile(), spec.b_tile());
        for (m, n, k) in [
            (1, 8, 64),
            (17, 256, 4096),
            (4096, 4096, 4096),
            (8192, 1024, 192),
        ] {
            let (a_box, b_box) = spec.map_boxes_for(m);
            for s in 0..spec.stages {
                for bx in 0..a_box.params().boxes {
                    let dst = a_smem + s * at.params().tile_bytes + bx * at.params().box_bytes;
                    let map = k_major_args(&a_box, m, k, k, dst);
                    assert_eq!(
                        map.mismatches(&a_box),
                        vec![],
                        "{spec:?} A {m}x{k} stage {s} box {bx}"
                    );
                }
                for rank in 0..spec.cluster {
                    for bx in 0..b_box.params().boxes {
                        let dst = b_smem
                            + s * bt.params().tile_bytes
                            + bt.mn_offset_bytes(rank * b_box.mn)
                            + bx * bt.params().box_bytes;
                        let map = k_major_args(&b_box, n, k, k, dst);
                        assert_eq!(
                            map.mismatches(&b_box),
                            vec![],
                            "{spec:?} B {n}x{k} rank {rank} box {bx}"
                        );
                    }
                }
            }
        }
    }
}

/// The checks can fail: the shipped spec's A map encoded with a 64-byte swizzle, or landing 128 bytes past
/// its 1024-byte boundary, is named.
#[test]
fn a_wrong_map_of_the_shipped_spec_is_named() {
    let a = SHIPPED.a_tile();
    let good = k_major_args(&a, 4096, 4096, 4096, 0x400);
    assert_eq!(good.check(&a), Ok(()));
    let sw64 = swizzle_core::tma::TmaMap {
        swizzle: swizzle_core::tma::TmaSwizzle::B64,
        ..good
    };
    assert!(sw64.check(&a).unwrap_err().to_string().starts_with("mode:"));
    let off = k_major_args(&a, 4096, 4096, 4096, 0x480);
    assert!(off
        .check(&a)
        .unwrap_err()
        .to_string()
        .starts_with("alignment:"));
}
