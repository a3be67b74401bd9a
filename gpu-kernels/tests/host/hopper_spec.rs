use gpu_kernels::hopper::spec::*;
use gpu_kernels::Elem;

#[test]
fn shipped_spec_fits_an_h100() {
    // 227 KiB opt-in on sm_90.
    SHIPPED.validate(232_448).unwrap();
    BASE.validate(232_448).unwrap();
    // Ring, barriers, 8 warps' 2 KiB epilogue scratch + its 128-byte alignment, the ring's 1 KiB alignment.
    assert_eq!(
        SHIPPED.smem_bytes(),
        4 * (16384 + 32768) + 64 + 8 * 2048 + 128 + 1024
    );
    assert_eq!(CLUSTER2.smem_bytes(), 4 * (16384 + 32768) + 64 + 1024);
    assert_eq!(SHIPPED.threads(), 384);
    // Each CTA of the pair loads (and multicasts) half of B: a 128-row box.
    assert_eq!(SHIPPED.b_slice().params().box_outer, 128);
    assert_eq!(BASE.b_slice(), BASE.b_tile());
    let trio = HopperSpec {
        cluster: 3,
        ..SHIPPED
    };
    assert!(trio.validate(232_448).is_err());
    let five = HopperSpec {
        stages: 5,
        ..SHIPPED
    };
    assert!(five
        .validate(232_448)
        .unwrap_err()
        .to_string()
        .contains("shared memory"));
    let greedy = HopperSpec {
        consumer_regs: 248,
        ..SHIPPED
    };
    assert!(greedy.validate(232_448).is_err());
    // 384 threads launch with 168 registers each: 24/240 and 40/232 fill those 64512 exactly, 32/240 would
    // wait in setmaxnreg.inc forever.
    for (p, c, ok) in [(24, 240, true), (40, 232, true), (32, 240, false)] {
        let s = HopperSpec {
            producer_regs: p,
            consumer_regs: c,
            ..SHIPPED
        };
        assert_eq!(s.validate(232_448).is_ok(), ok, "{p}/{c}");
    }
}

#[test]
fn spec_header_wgmma_has_one_operand_per_accumulator() {
    let h = SHIPPED.spec_header();
    assert!(h.contains("m64n256k16.f32.bf16.bf16"));
    assert!(h.contains("\"+f\"(d[127])") && !h.contains("d[128]"));
    assert!(h.contains("%128, %129, p, 1, 1, 0, 0;"));
    assert!(h.contains("setp.ne.b32 p, %130, 0;"));
    let f16 = SHIPPED.with_ty(Elem::F16).spec_header();
    assert!(f16.contains(".f32.f16.f16") && f16.contains("IN_BF16 = 0"));
    assert!(h.contains("IN_BF16 = 1"));
}

#[test]
fn source_carries_the_descriptor_constants() {
    let src = SHIPPED.source();
    let swz = &src.headers[0].text;
    assert!(swz.contains("struct GemmA") && swz.contains("struct GemmB"));
    assert!(swz.contains("struct TileOrder"));
    // No .cu types a descriptor number: the kernel has no LBO / SBO / 1024 literal.
    for lit in ["1024", "<< 62", "<< 16", "LBO =", "SBO ="] {
        assert!(!src.text.contains(lit), "hopper.cu types {lit}");
    }
}

#[test]
fn pingpong_takes_whole_tiles_in_turns_where_its_registers_fit() {
    use gpu_kernels::fp8::ScaleMode;
    let e4m3 = HopperSpec {
        bn: 128,
        stages: 6,
        pingpong: true,
        ..SHIPPED.with_ty(Elem::E4M3)
    };
    // Both 16-bit and e4m3, clustered or not, N up to 160 (the accumulators of both 64-row slices: N registers
    // a thread, beside PINGPONG_REG_RESERVE).
    for s in [
        e4m3,
        HopperSpec { cluster: 1, ..e4m3 },
        HopperSpec {
            bn: 160,
            stages: 5,
            ..e4m3
        },
        e4m3.with_scale(ScaleMode::Row),
        HopperSpec {
            pingpong: true,
            bn: 128,
            ..SHIPPED
        },
    ] {
        s.validate(232_448).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert!(s.to_string().ends_with(" pingpong"), "{s}");
        assert!(s.spec_header().contains("#define SPEC_PINGPONG 1"), "{s}");
        // Two more barriers after the ring's: 16 bytes beside the cooperative layout.
        let coop = HopperSpec {
            pingpong: false,
            ..s
        };
        assert_eq!(s.smem_bytes(), coop.smem_bytes() + 16, "{s}");
        assert!(!coop.spec_header().contains("SPEC_PINGPONG"));
    }
    // Refused in one line each: too wide for the registers, one consumer, split K, the tail split, block scaling.
    for (bad, why) in [
        (
            HopperSpec {
                bn: 192,
                stages: 5,
                ..e4m3
            },
            "registers",
        ),
        (
            HopperSpec {
                bn: 256,
                stages: 4,
                ..e4m3
            },
            "registers",
        ),
        (
            HopperSpec {
                consumers: 1,
                ..e4m3
            },
            "two consumer warpgroups",
        ),
        (
            HopperSpec {
                split: 2,
                cluster: 1,
                ..e4m3
            },
            "no split K",
        ),
        (
            HopperSpec {
                tail: true,
                cluster: 1,
                ..e4m3
            },
            "tail split",
        ),
        (e4m3.with_scale(ScaleMode::Block), "no block scaling"),
    ] {
        let e = bad.validate(232_448).unwrap_err().to_string();
        assert!(e.contains(why) && !e.contains('\n'), "{bad}: {e}");
    }
}
