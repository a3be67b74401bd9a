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
