use gpu_kernels::frame::*;
use gpu_kernels::frame::{Arg, DynFamily};
use gpu_kernels::hopper::family::*;
use gpu_kernels::hopper::*;

/// Every planner variant's epilogue accesses, as declared, cover the scratch tile: the stmatrix stores and
/// the 16-byte row reads (loads, LDS128) are conflict-free in the bank model; the 32-column last chunk (BN not
/// a multiple of 64) reads with 2 wavefronts per phase, as declared.
#[test]
fn epilogue_accesses_are_conflict_free_loads_and_stores() {
    for ty in TYPES {
        for spec in gpu_kernels::hopper::planned::kernel_variants(ty) {
            let acc = HOPPER.accesses(&spec);
            assert_eq!(acc.len(), if spec.bn % 64 == 32 { 3 } else { 2 }, "{spec}");
            for a in &acc {
                let r = a.access.report(&a.smem);
                if a.conflict_free {
                    assert_eq!(r.conflicts(), 0, "{spec} {}: {r}", a.label);
                } else {
                    assert_eq!(r.wavefronts, 2 * r.ideal, "{spec} {}: {r}", a.label);
                }
                // 16 rows x 64 (or 32) columns of 16-bit values, 16 bytes per lane: every byte once.
                let bytes = 16 * 32 * r.instructions;
                let want = if a.label.contains("last 32") {
                    16 * 32 * 2
                } else {
                    16 * 64 * 2
                };
                assert_eq!(bytes, want, "{spec} {}", a.label);
            }
            let read = acc[1].access.op(&acc[1].smem);
            assert_eq!(read, swizzle_core::bank::Op::LDS128, "{spec}");
        }
    }
}

/// The frame's host reference is `A * B^T` in f64, rounded to the spec's type, for both types.
#[test]
fn reference_is_a_times_b_transposed() {
    let size = Size::mnk(2, 3, 8);
    for spec in HOPPER.specs() {
        let bufs = HOPPER.buffers(&spec, size);
        let inputs = HOPPER.inputs(&spec, size, &bufs);
        let (a, b) = (inputs[0].to_f64(), inputs[1].to_f64());
        let c = &HOPPER.reference(&spec, size, &inputs)[0];
        assert_eq!(c.elem, spec.ty);
        for r in 0..2 {
            for j in 0..3 {
                let exact: f64 = (0..8).map(|x| a[r * 8 + x] * b[j * 8 + x]).sum();
                let want = HostBuf::from_f64(spec.ty, &[exact]).get(0);
                assert_eq!(c.get(r * 3 + j), want, "{spec} ({r},{j})");
            }
        }
    }
}

/// `--sizes N` means the cube for this GEMM (a square `N x N` would have K = 1, which TMA cannot load).
#[test]
fn a_bench_size_is_a_cube_the_launch_accepts() {
    let s = DynFamily::size_of(&HOPPER, 4096);
    assert_eq!(s, Size::mnk(4096, 4096, 4096));
    for spec in HOPPER.specs() {
        let l = HOPPER.launch(&spec, s).unwrap();
        assert_eq!(l.config.grid_dim.0 % spec.cluster, 0);
    }
    assert!(HOPPER.launch(&SHIPPED, Size::mn(4096, 4096)).is_err());
}

/// The frame's launch encodes the maps `HopperGemm::launch` encodes: with clusters, B's box is the slice one
/// CTA loads and multicasts (bn / cluster rows), not the whole tile.
#[test]
fn the_frame_launch_uses_the_kernels_map_boxes() {
    let specs = HOPPER
        .specs()
        .into_iter()
        .chain(gpu_kernels::hopper::sweep::variants());
    for spec in specs {
        let l = HOPPER.launch(&spec, Size::mnk(300, 520, 136)).unwrap();
        let tiles: Vec<_> = l
            .args
            .iter()
            .filter_map(|a| match *a {
                Arg::TensorMap { tile, .. } => Some(tile),
                _ => None,
            })
            .collect();
        let (a, b) = spec.map_boxes();
        assert_eq!(tiles, [a, b], "{spec}");
        assert_eq!(b.params().box_outer * spec.cluster, spec.bn, "{spec}");
        assert_eq!((a.mn, b.mn * spec.cluster), (spec.bm(), spec.bn), "{spec}");
        assert_eq!(l.args.last(), Some(&Arg::U32(spec.bm())), "{spec}");
        // Fewer rows than the tile: A's box and the kernel's a_rows argument clip to them, rounded up to 8.
        for (m, rows) in [(1, 8), (16, 16), (17, 24), (63, 64)] {
            let l = HOPPER.launch(&spec, Size::mnk(m, 520, 136)).unwrap();
            let a_box = l.args.iter().find_map(|a| match *a {
                Arg::TensorMap { buf: 0, tile, .. } => Some(tile),
                _ => None,
            });
            let rows = rows.min(spec.bm());
            assert_eq!(
                a_box.map(|t| t.params().box_outer),
                Some(rows),
                "{spec} m={m}"
            );
            assert_eq!(l.args.last(), Some(&Arg::U32(rows)), "{spec} m={m}");
        }
    }
}
