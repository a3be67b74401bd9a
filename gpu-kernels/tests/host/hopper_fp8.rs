use gpu_kernels::fp8::ScaleMode;
use gpu_kernels::frame::Size;
use gpu_kernels::hopper::fp8::*;
use gpu_kernels::hopper::*;
use gpu_kernels::Elem;
use swizzle_core::plan::Device;

#[test]
fn e4m3_specs_keep_the_row_bytes_and_name_their_scaling() {
    let s = SHIPPED.with_ty(Elem::E4M3);
    assert_eq!((s.bk, s.a_tile().params().tile_bytes), (128, 128 * 128));
    assert_eq!(s.smem_bytes(), SHIPPED.smem_bytes());
    assert_eq!(s.with_ty(Elem::BF16), SHIPPED);
    let h = s.with_scale(ScaleMode::Row).spec_header();
    assert!(h.contains("m64n256k32.f32.e4m3.e4m3"), "{h}");
    assert!(h.contains("SCALE = 2") && h.contains("OUT_BF16 = 1"), "{h}");
    assert!(h.contains("const float* __restrict__ sa"), "{h}");
    assert!(s
        .with_scale(ScaleMode::Row)
        .to_string()
        .starts_with("e4m3 per-row 128x256x128"));
    // 16-bit specs take no scales and keep their header.
    assert!(SHIPPED.spec_header().contains("SCALE = 0"));
    let bad = SHIPPED.with_scale(ScaleMode::Row).validate(232_448);
    assert!(bad.unwrap_err().to_string().contains("take no row scales"));
}

#[test]
fn block_constants_and_output_types_reach_only_their_headers() {
    let p = BLOCK_PIPELINED.spec_header();
    assert!(
        p.contains("BLOCK_ACCS = 2") && p.contains("SCALE_SLOT_BYTES = 528"),
        "{p}"
    );
    assert!(p.contains("#define SPEC_BLOCK_SCALED 1"), "{p}");
    // Each stage keeps a scale slot beside its tiles: 128 A rows and one B segment, 16-byte rounded.
    assert_eq!(
        BLOCK_PIPELINED.smem_bytes(),
        BLOCK_PIPELINED.with_scale(ScaleMode::Tensor).smem_bytes() + BLOCK_PIPELINED.stages * 528
    );
    assert!(BLOCK_BASE.spec_header().contains("BLOCK_ACCS = 1"));
    // 16-bit, per-tensor and per-row headers carry none of block scaling's constants.
    for s in [
        SHIPPED,
        SHIPPED.with_ty(Elem::E4M3),
        BLOCK_PIPELINED.with_scale(ScaleMode::Row),
    ] {
        let h = s.spec_header();
        assert!(
            !h.contains("BLOCK_ACCS") && !h.contains("SPEC_BLOCK_SCALED"),
            "{s}"
        );
    }
    let f32_out = BLOCK_PIPELINED.with_out(Elem::F32);
    assert_eq!(f32_out.out_ty(), Elem::F32);
    assert!(f32_out.spec_header().contains("OUT_BYTES = 4"));
    // An fp32 C skips the 16-bit epilogue scratch.
    assert!(f32_out.smem_bytes() < BLOCK_PIPELINED.smem_bytes());
    assert!(
        f32_out.to_string().ends_with("stmatrix-epilogue")
            && f32_out.to_string().contains("out-f32")
    );
    for bad in [
        BLOCK_PIPELINED.with_out(Elem::E4M3),
        SHIPPED.with_out(Elem::F32),
        HopperSpec {
            block_accs: 3,
            ..BLOCK_PIPELINED
        },
    ] {
        let e = bad.validate(232_448).unwrap_err().to_string();
        assert!(!e.contains('\n'), "{e}");
    }
    for (label, s) in block_variants() {
        s.validate(232_448)
            .unwrap_or_else(|e| panic!("{label}: {e}"));
    }
}

/// Block-scaled tiles wider than a scale block: the header names the offsets and blocks a tile spans, the
/// registers decide which tiles and accumulator counts are taken, each refusal one line.
#[test]
fn wide_block_tiles_fit_the_registers_and_name_their_scale_blocks() {
    let h = BLOCK_WIDE.spec_header();
    for c in [
        "BN = 192",
        "B_SCALE_STEP = 64",
        "B_SCALE_OFFSETS = 2",
        "B_SCALE_SEGMENTS = 3",
        "m64n192k32.f32.e4m3.e4m3",
    ] {
        assert!(h.contains(c), "{c}: {h}");
    }
    assert!(BLOCK_PIPELINED
        .spec_header()
        .contains("B_SCALE_SEGMENTS = 1"));
    // Block-scaled headers add the half-width instruction (promotion in N halves), by its accumulator length.
    let halves = HopperSpec {
        promote_halves: true,
        ..BLOCK_WIDE
    };
    let hh = halves.spec_header();
    assert!(
        hh.contains("PROMOTE_HALVES = 1") && hh.contains("m64n96k32") && hh.contains("m64n192k32"),
        "{hh}"
    );
    assert!(h.contains("PROMOTE_HALVES = 0"));
    assert!(!BLOCK_WIDE
        .with_scale(gpu_kernels::fp8::ScaleMode::Row)
        .spec_header()
        .contains("m64n96k32"));
    halves.validate(232_448).unwrap();
    for bad in [
        HopperSpec {
            block_accs: 2,
            bn: 128,
            ..halves
        },
        halves.with_scale(gpu_kernels::fp8::ScaleMode::Row),
    ] {
        let e = bad.validate(232_448).unwrap_err().to_string();
        assert!(e.contains("halves") && !e.contains('\n'), "{e}");
    }
    BLOCK_WIDE.validate(232_448).unwrap();
    let at = |bn, block_accs| HopperSpec {
        bn,
        block_accs,
        ..BLOCK_WIDE
    };
    for (bn, accs, ok) in [
        (160, 1, true),
        (192, 1, true),
        (128, 2, true),
        (160, 2, false),
        (192, 2, false),
        (224, 1, false),
        (256, 1, false),
    ] {
        let r = at(bn, accs).validate(232_448);
        assert_eq!(r.is_ok(), ok, "{bn} {accs}: {r:?}");
        if let Err(e) = r {
            let e = e.to_string();
            assert!(e.contains("registers") && !e.contains('\n'), "{e}");
        }
    }
    // In halves an accumulator of half the width fits up to 256 columns, a second one nowhere past 128.
    for (bn, accs, ok) in [
        (224, 1, true),
        (256, 1, true),
        (160, 2, false),
        (256, 2, false),
    ] {
        let r = HopperSpec {
            promote_halves: true,
            stages: 4,
            ..at(bn, accs)
        }
        .validate(232_448);
        assert_eq!(r.is_ok(), ok, "{bn} {accs}: {r:?}");
    }
    // The planner's specs take two accumulators where they fit, else one, else one of half the width.
    let wide = at(192, 2).with_block_promotion();
    assert_eq!((wide.block_accs, wide.promote_halves), (1, false));
    let narrow = at(128, 1).with_block_promotion();
    assert_eq!((narrow.block_accs, narrow.promote_halves), (2, false));
    for bn in [224, 256] {
        let widest = HopperSpec {
            stages: 4,
            ..at(bn, 2)
        }
        .with_block_promotion();
        assert_eq!(
            (widest.block_accs, widest.promote_halves),
            (1, true),
            "{bn}"
        );
        widest.validate(232_448).unwrap();
    }
    // Every tile of every width: each segment's columns lie in the one B block the kernel picks for it,
    // nb0 + (offset step + q) / offsets.
    for bn in (32..=256).step_by(32) {
        let (step, offsets, segments) = at(bn, 1).b_scale_segments();
        assert_eq!((step * offsets, step * segments), (128, bn), "{bn}");
        for x in 0..64u32 {
            let first = x * bn;
            let (nb0, off) = (first / 128, first % 128 / step);
            assert_eq!(first % 128 % step, 0, "{bn} {x}");
            for q in 0..segments {
                let block = nb0 + (off + q) / offsets;
                let cols = first + q * step..first + (q + 1) * step;
                assert!(cols.clone().all(|c| c / 128 == block), "{bn} {x} {q}");
            }
        }
    }
}

#[test]
fn plans_fit_the_mode() {
    let dev = Device::H100;
    for mode in ScaleMode::ALL {
        for size in [
            Size::mnk(16, 4096, 4096),
            Size::mnk(8192, 8192, 8192),
            Size::mnk(3, 1000, 272),
        ] {
            let p = plan(size, mode, &dev).unwrap();
            assert_eq!((p.spec.scale, p.spec.bk), (mode, 128), "{size}");
            p.spec.validate(dev.smem_per_block as usize).unwrap();
            if mode == ScaleMode::Block {
                assert!(
                    p.spec.block_regs() <= p.spec.consumer_reg_budget(),
                    "{}",
                    p.spec
                );
            }
        }
    }
    let e = plan(Size::mnk(16, 16, 40), ScaleMode::Tensor, &dev).unwrap_err();
    assert!(e.to_string().contains("multiple of 16"), "{e}");
}

/// The spec the kernel runs promotes in N halves exactly where the planner's model says it does: every block-scaled
/// candidate of a square and a decode layer, through `spec_of` and `with_block_promotion`.
#[test]
fn block_promotion_in_halves_is_the_planners() {
    use swizzle_core::plan::{candidates, Problem};
    for size in [Size::mnk(8192, 8192, 8192), Size::mnk(16, 4096, 4096)] {
        let p = Problem::new(size, Elem::E4M3).with_scale(ScaleMode::Block);
        let c = candidates(&p, &Device::H100);
        assert!(c.iter().any(|v| v.block_scaling_halves()));
        for v in c {
            let spec = planned::spec_of(&v, Elem::E4M3)
                .unwrap()
                .with_scale(ScaleMode::Block)
                .with_block_promotion();
            assert_eq!(spec.promote_halves, v.block_scaling_halves(), "{v}");
            assert!(spec.block_regs() <= spec.consumer_reg_budget(), "{spec}");
        }
    }
}

/// The tail split reaches only its own headers and launches: its parameters and `SPEC_TAIL` in a tail spec's
/// header alone, the counters, partials, tiles and parts at the end of the launch's arguments when the problem
/// has a tail to split (none otherwise), and one-line refusals for the specs that cannot take it (clusters,
/// split-K).
#[test]
fn the_tail_split_reaches_only_tail_headers_and_launches() {
    use gpu_kernels::frame::Arg;
    let whole = HopperSpec {
        cluster: 1,
        ..BLOCK_WIDE
    };
    let tail = HopperSpec {
        tail: true,
        ..whole
    };
    let (h, w) = (tail.spec_header(), whole.spec_header());
    assert!(
        h.contains("#define SPEC_TAIL 1") && h.contains("tail_partials"),
        "{h}"
    );
    assert!(
        !w.contains("#define SPEC_TAIL ") && !w.contains("tail_count"),
        "{w}"
    );
    assert!(tail.to_string().ends_with(" tail"), "{tail}");
    // 4096x7168x16384 in 128x192 tiles on 132 SMs: 1216 tiles, the last 28 in 4 parts.
    let size = Size::mnk(4096, 7168, 16384);
    let t = tail.tail_split(size, 132);
    assert_eq!((t.tiles, t.parts), (28, 4));
    let args = tail.launch(size, 132).unwrap().args;
    let n = args.len();
    assert!(
        matches!(
            args[n - 4..],
            [Arg::Buf(5), Arg::Buf(6), Arg::U32(28), Arg::U32(4)]
        ),
        "{args:?}"
    );
    assert_eq!(whole.launch(size, 132).unwrap().args.len(), n - 4);
    // Whole waves (8 x 132 tiles): the launch passes no split.
    let even = Size::mnk(4096, 6336, 16384);
    assert_eq!(tail.tail_split(even, 132).parts, 1);
    let args = tail.launch(even, 132).unwrap().args;
    assert!(matches!(args[args.len() - 2..], [Arg::U32(0), Arg::U32(1)]));
    assert_eq!(whole.tail_split(size, 132).parts, 1);
    for bad in [
        HopperSpec { cluster: 2, ..tail },
        HopperSpec {
            split: 2,
            stages: 4,
            ..tail
        },
    ] {
        let e = bad.validate(232_448).unwrap_err().to_string();
        assert!(e.contains("tail split") && !e.contains('\n'), "{e}");
    }
    assert!(tail.validate(232_448).is_ok());
    // The 16-bit kernel takes it too.
    let bf16 = HopperSpec {
        tail: true,
        cluster: 1,
        ..SHIPPED
    };
    assert!(bf16.validate(232_448).is_ok() && bf16.spec_header().contains("#define SPEC_TAIL 1"));
}
