use gpu_kernels::gemm::spec::*;
use swizzle_core::layout::ldmatrix_swizzle;
use swizzle_core::pattern::Smem;
use swizzle_core::{Elem, Size, Swizzle};

use swizzle_core::pattern::Pattern;
use swizzle_core::swizzle;

/// The derivation gives the standard swizzle for 64-element fp16 K-rows (128-byte rows) and CUTLASS's 64-byte one.
#[test]
fn derived_swizzles_are_the_known_ones() {
    assert_eq!(
        DEFAULT.a_smem().layout(),
        Smem::row_major(128, 32, IN)
            .with_swizzle(swizzle!(B = 2, M = 3, S = 3))
            .layout()
    );
    assert_eq!(
        T128X256K64.a_smem(),
        Smem::row_major(128, 64, IN).with_swizzle(swizzle!(B = 3, M = 3, S = 3))
    );
    assert_eq!(ldmatrix_swizzle(256, Elem::F16), Swizzle::new(3, 3, 4));
}

/// Exhaustively over row widths 64..1024 bytes and both input widths: the derived swizzle is conflict-free for
/// every ldmatrix/stmatrix lane order and for the 16-byte fills; the accumulator swizzle for mma.acc + lds128.
#[test]
fn derived_swizzles_are_conflict_free_for_every_row_width() {
    for rows in [16u32, 32, 64] {
        for row_bytes in [64u32, 128, 256, 512, 1024] {
            let cols = row_bytes / 2;
            let s = Smem::row_major(rows, cols, Elem::F16)
                .with_swizzle(ldmatrix_swizzle(row_bytes, Elem::F16));
            for p in [
                Pattern::ROW16,
                Pattern::LDMATRIX_X4,
                Pattern::LDMATRIX_X4_B,
                Pattern::LDMATRIX_X4_TRANS,
                Pattern::STMATRIX_X4,
            ] {
                let r = p.report(&s);
                assert!(r.instructions > 0, "{p} {s}");
                assert_eq!(r.conflicts(), 0, "{p} on {s}");
            }
            if row_bytes >= 128 {
                let c = Smem::row_major(rows, row_bytes / 4, Elem::F32)
                    .with_swizzle(acc_swizzle(row_bytes));
                for p in [Pattern::MMA_ACC, Pattern::ROW16] {
                    assert_eq!(p.report(&c).conflicts(), 0, "{p} on {c}");
                }
            }
        }
    }
}

/// A swizzle one bit narrower than derived conflicts: the derivation is the smallest that works.
#[test]
fn narrower_swizzles_conflict() {
    let s = Smem::row_major(64, 64, Elem::F16).with_swizzle(Swizzle::new(2, 3, 3));
    assert!(Pattern::LDMATRIX_X4.report(&s).conflicts() > 0);
    let s = Smem::row_major(64, 32, Elem::F16).with_swizzle(Swizzle::new(1, 3, 3));
    assert!(Pattern::LDMATRIX_X4.report(&s).conflicts() > 0);
    let c = Smem::row_major(16, 64, Elem::F32).with_swizzle(Swizzle::new(1, 3, 3));
    assert!(Pattern::MMA_ACC.report(&c).conflicts() > 0);
}

/// The first message of the frame's compile-time check on `spec`'s accesses, over every B layout and output
/// width (what `assert_specs_conflict_free!` would fail the build with).
fn first_conflict(spec: GemmSpec) -> Option<String> {
    Checked::every_layout(spec).iter().find_map(|c| {
        let list = c.accesses();
        (0..list.len()).find_map(|i| {
            let a = list.get(i);
            let m = swizzle_core::verify::check_warp(&a.smem, &a.access);
            m.as_str().map(str::to_string)
        })
    })
}

/// The compile-time check is not vacuous: the unswizzled baseline fails it, with swizzle-core's message
/// naming the ldmatrix read; ldmatrix.x4 costs 16 wavefronts on 64-byte rows and 32 on 128-byte rows (ideal 4).
#[test]
fn the_unswizzled_baseline_fails_the_check() {
    let text = first_conflict(UNSWIZZLED).expect("unswizzled conflicts");
    assert!(
        text.contains("ldmatrix.x4 on 128x32 f16 row-major, unswizzled: instruction 0 of 16 costs 16 wavefronts (ideal 4)"),
        "{text}"
    );
    for s in SHIPPED {
        assert_eq!(first_conflict(s), None, "{s}");
    }
}

/// Padding fixes the ldmatrix reads (the baseline that costs smem instead of a swizzle).
#[test]
fn padded_ldmatrix_is_conflict_free() {
    for b in BLayout::BOTH {
        let acc = PADDED.accesses(b, OutWidth::B16);
        for (what, smem, p) in &acc[2..5] {
            assert_eq!(p.report(smem).conflicts(), 0, "{what} {b:?}");
        }
    }
}

/// Each spec's layouts can be expressed as `gemm.cu` computes offsets, `Sw::apply(row * pitch + col)` on element
/// offsets (swizzle-core's `cuda::pitched`, what the header emits), and fit the device.
#[test]
fn layouts_are_expressible_and_fit() {
    for s in all() {
        for b in BLayout::BOTH {
            for o in OutWidth::BOTH {
                for smem in [s.a_smem(), s.b_smem(b), s.c_smem(o)] {
                    let (sw, pitch) =
                        swizzle_core::cuda::pitched(&smem).unwrap_or_else(|| panic!("{s}: {smem}"));
                    for r in 0..smem.tile().rows {
                        for c in (0..smem.tile().cols).step_by(8) {
                            assert_eq!(
                                sw.apply(r * pitch + c) * smem.tile().elem.bytes(),
                                smem.byte_addr(r, c),
                                "{s} {smem}"
                            );
                        }
                    }
                }
                assert!(s.smem_bytes(b, o) <= 227 * 1024, "{s}");
            }
        }
    }
}

/// The measured choices (BENCHMARKS.md, GEMM block order) on an H100's 50 MiB L2.
#[test]
fn order_per_shape_follows_the_measurement() {
    let l2 = 50 << 20;
    for (m, n, k, want) in [
        (4096, 4096, 4096, ORDER_GM16.name),
        (8192, 8192, 8192, ORDER_GM16.name),
        (16384, 16384, 1024, ORDER_GM16.name),
        (4096, 4096, 1024, DEFAULT.name),
    ] {
        assert_eq!(
            for_problem(Size::mnk(m, n, k), l2).name,
            want,
            "{m}x{n}x{k}"
        );
    }
    // Only the order differs from the default.
    let s = for_problem(Size::mnk(8192, 8192, 8192), l2);
    assert_eq!(s.with_raster(DEFAULT.name, DEFAULT.raster), DEFAULT);
}

#[test]
fn names_are_unique() {
    let all = all();
    for (i, s) in all.iter().enumerate() {
        assert!(all[i + 1..].iter().all(|t| t.name != s.name), "{s}");
    }
}
