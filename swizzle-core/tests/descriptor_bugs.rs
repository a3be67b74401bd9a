//! The layout bugs kernels shipped, each as a test: the bad value is caught with a one-line reason naming what
//! is wrong, and the fixed value passes. And no false alarm on CUTLASS's standard atoms (the CuTe oracle table's
//! descriptors, each checked against the tile it was built from).
use swizzle_core::descriptor::{Arch, DescMismatch, Descriptor, SmemLayout};
use swizzle_core::tcgen05::{IdescError, InstrDesc, Kind, MmaType};
use swizzle_core::tma::{TmaMap, TmaMismatch, TmaSwizzle};
use swizzle_core::wgmma::{Major, OperandTile};
use swizzle_core::{ByteMode, Elem};

const A: OperandTile = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 64, 64);

/// The one line a check prints for `bits`, or "matches".
fn desc_line(bits: u64, arch: Arch, tile: &OperandTile) -> String {
    match Descriptor::decode(bits, arch) {
        Err(e) => e.to_string(),
        Ok(d) => match d.mismatches(tile).as_slice() {
            [] => "matches".to_string(),
            [one] => one.to_string(),
            many => panic!("expected one mismatch, got {many:?}"),
        },
    }
}

fn good(arch: Arch) -> Descriptor {
    Descriptor::of_tile(arch, &A, 0x400)
}

/// A kernel that assumes a 128-byte swizzle while its TMA map was encoded with 32 or 64 bytes.
#[test]
fn tma_swizzle_narrower_than_the_kernel_assumes() {
    let fixed = TmaMap::of_tile(&A, [4096, 4096], 8192, 0x400);
    assert_eq!(fixed.check(&A), Ok(()));
    for sw in [TmaSwizzle::B32, TmaSwizzle::B64] {
        // The box is as wide as the narrower span allows.
        let bad = TmaMap {
            swizzle: sw,
            boxes: [sw.span() / 2, 64, 1, 1, 1],
            ..fixed
        };
        let all = bad.mismatches(&A);
        assert!(matches!(all[0], TmaMismatch::Swizzle { .. }), "{all:?}");
        let line = all[0].to_string();
        assert!(
            line.starts_with("mode: the map swizzles") && line.contains("128B"),
            "{line}"
        );
        // And the descriptor side of the same mistake.
        let d = Descriptor {
            layout: SmemLayout::of_mode(if sw == TmaSwizzle::B32 {
                ByteMode::Sw32
            } else {
                ByteMode::Sw64
            }),
            ..good(Arch::Sm90)
        };
        assert!(desc_line(d.encode(), Arch::Sm90, &A).starts_with("mode: the descriptor says"));
    }
}

/// A 128-byte-swizzle TMA destination aligned to 128 bytes instead of 1024.
#[test]
fn destination_aligned_to_128_not_1024() {
    let bad = TmaMap::of_tile(&A, [4096, 4096], 8192, 0x480);
    let line = bad.check(&A).unwrap_err().to_string();
    assert!(
        line.starts_with("alignment:") && line.contains("1024"),
        "{line}"
    );
    assert_eq!(
        TmaMap::of_tile(&A, [4096, 4096], 8192, 0x800).check(&A),
        Ok(())
    );
    // The descriptor of that tile starts off the pattern's period with base offset 0.
    for arch in [Arch::Sm90, Arch::Sm100] {
        let d = Descriptor {
            start: 0x480,
            ..good(arch)
        };
        let line = desc_line(d.encode(), arch, &A);
        assert!(
            line.starts_with("alignment:") && line.contains("base offset 1"),
            "{line}"
        );
        // Fixed: a 1024-aligned start, or the base offset the ISA prescribes for that start.
        assert_eq!(desc_line(good(arch).encode(), arch, &A), "matches");
        assert_eq!(
            desc_line(
                Descriptor {
                    base_offset: 1,
                    ..d
                }
                .encode(),
                arch,
                &A
            ),
            "matches"
        );
    }
}

/// The swizzle XOR computed on buffer-relative addresses: the buffer starts 0x200 into the 1024-byte pattern,
/// so the hardware (absolute addresses) and the kernel (relative ones) disagree; the descriptor's start says so.
#[test]
fn swizzle_on_relative_instead_of_absolute_addresses() {
    let buffer = 0x2200; // a 512-byte-aligned buffer: relative 0 is absolute row 4 of the pattern
    let d = Descriptor {
        start: buffer,
        ..good(Arch::Sm90)
    };
    let line = desc_line(d.encode(), Arch::Sm90, &A);
    assert!(line.contains("row 4 of the swizzle pattern"), "{line}");
    assert_eq!(
        desc_line(Descriptor { start: 0x2400, ..d }.encode(), Arch::Sm90, &A),
        "matches"
    );
}

/// The K-panel stride of an operand taken from the operand's extent instead of its layout: right for the first
/// K atom, wrong after it.
#[test]
fn k_panel_stride_from_the_extent() {
    // MN-major bf16, 128 wide (two 64-element swizzle atoms) by 64 of K: the next MN atom is one box of 64 K
    // rows x 128 bytes = 8192 bytes away; from the MN extent (128 x 2 bytes) a kernel wrote 256.
    let b = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::MN, 128, 64);
    let fixed = Descriptor::of_tile(Arch::Sm90, &b, 0x400);
    assert_eq!(fixed.lbo, 8192);
    assert_eq!(desc_line(fixed.encode(), Arch::Sm90, &b), "matches");
    let line = desc_line(Descriptor { lbo: 256, ..fixed }.encode(), Arch::Sm90, &b);
    assert!(
        line.starts_with("stride: LBO is 256 B, the tile's is 8192 B")
            && line.contains("not the extent"),
        "{line}"
    );
    // K-major, no swizzle: the next K chunk is one box of MN rows away (64 x 16 bytes), not K's extent.
    let n = OperandTile::new(ByteMode::None, Elem::BF16, Major::K, 64, 64);
    let fixed = Descriptor::of_tile(Arch::Sm100, &n, 0x400);
    assert_eq!(desc_line(fixed.encode(), Arch::Sm100, &n), "matches");
    let line = desc_line(
        Descriptor {
            lbo: 64 * 2,
            ..fixed
        }
        .encode(),
        Arch::Sm100,
        &n,
    );
    assert!(line.starts_with("stride: LBO"), "{line}");
}

/// LBO / SBO written in bytes instead of 16-byte units.
#[test]
fn strides_in_bytes_not_16_byte_units() {
    let g = good(Arch::Sm90).encode();
    let bad = g & !(0x3FFF << 32) | (1024 << 32);
    let line = desc_line(bad, Arch::Sm90, &A);
    assert_eq!(
        line,
        "units: SBO reads as 16384 B, 16 times the tile's 1024 B: the field holds the byte count; write 1024 >> 4 = 64"
    );
    assert_eq!(desc_line(g, Arch::Sm90, &A), "matches");
    // LBO, where it is used (no swizzle, K-major: LBO = 64 rows x 16 bytes).
    let n = OperandTile::new(ByteMode::None, Elem::BF16, Major::K, 64, 64);
    let g = Descriptor::of_tile(Arch::Sm90, &n, 0).encode();
    let bad = g & !(0x3FFF << 16) | (1024 << 16);
    assert!(desc_line(bad, Arch::Sm90, &n).starts_with("units: LBO"));
    // The LBO 0 vs 16 question: for swizzled K-major operands LBO is unused, either passes.
    for lbo in [0, 16, 4096] {
        let d = Descriptor {
            lbo,
            ..good(Arch::Sm90)
        };
        assert_eq!(
            desc_line(d.encode(), Arch::Sm90, &A),
            "matches",
            "LBO {lbo}"
        );
    }
}

/// An instruction-descriptor field overlapping another: M shifted by one bit lands in reserved bit 23 (or N's
/// top bits); a tcgen05 descriptor without its version bits; a Hopper one with them.
#[test]
fn overlapping_instruction_fields_and_version_bits() {
    let d = swizzle_core::operand::parse_instr("bf16:bf16:f32:128x256:K:K").unwrap();
    let fixed = d.encode();
    assert_eq!(InstrDesc::decode(fixed, Kind::F16, 1), Ok(d));
    // M >> 4 written one bit low (at bit 23, overlapping the reserved bit and N's neighbour): for M = 64 the
    // field reads M = 32, which no instruction has.
    let m64 = InstrDesc { m: 64, ..d };
    let bad = (m64.encode() & !(0x1F << 24)) | ((64 >> 4) << 23);
    let e = InstrDesc::decode(bad, Kind::F16, 1).unwrap_err();
    assert_eq!(
        e.to_string(),
        "M = 32 with cta_group::1: one CTA takes M = 64 or 128 (M = 256 needs cta_group::2)"
    );
    // For M = 128 it reads M = 64, a legal shape: compared with what the kernel meant, the field is named.
    let bad = (fixed & !(0x1F << 24)) | ((128 >> 4) << 23);
    let read = InstrDesc::decode(bad, Kind::F16, 1).unwrap();
    assert_eq!(read.first_difference(&d), Some("M (bits 24-28)"));
    assert_eq!(
        InstrDesc::decode(fixed, Kind::F16, 1)
            .unwrap()
            .first_difference(&d),
        None
    );
    // A set reserved bit is named.
    assert_eq!(
        InstrDesc::decode(fixed | (1 << 23), Kind::F16, 1)
            .unwrap_err()
            .to_string(),
        "bit 23 is reserved and must be 0 (a field overlaps it)"
    );
    // A Hopper descriptor handed to tcgen05, and back.
    let line = desc_line(good(Arch::Sm90).encode(), Arch::Sm100, &A);
    assert!(line.contains("bits 46-48 (version) are 0"), "{line}");
    let line = desc_line(good(Arch::Sm100).encode(), Arch::Sm90, &A);
    assert_eq!(line, "bits 46-48 are reserved and must be 0");
}

/// cta_group mismatches: M = 256 issued with cta_group::1, M = 64 with cta_group::2, N not a multiple of 16 for a
/// pair (illegal instruction on the GPU).
#[test]
fn cta_group_mismatches() {
    let m256 = InstrDesc::new(
        MmaType::F16,
        MmaType::F16,
        true,
        256,
        128,
        Major::K,
        Major::K,
    )
    .encode();
    let e = InstrDesc::decode(m256, Kind::F16, 1).unwrap_err();
    assert_eq!(
        e.to_string(),
        "M = 256 with cta_group::1: one CTA takes M = 64 or 128 (M = 256 needs cta_group::2)"
    );
    assert!(InstrDesc::decode(m256, Kind::F16, 2).is_ok());
    let m64 = InstrDesc::new(
        MmaType::F16,
        MmaType::F16,
        true,
        64,
        128,
        Major::K,
        Major::K,
    )
    .encode();
    assert!(matches!(
        InstrDesc::decode(m64, Kind::F16, 2),
        Err(IdescError::M { .. })
    ));
    let n24 = InstrDesc::new(
        MmaType::F16,
        MmaType::F16,
        true,
        128,
        24,
        Major::K,
        Major::K,
    )
    .encode();
    assert!(InstrDesc::decode(n24, Kind::F16, 1).is_ok());
    assert!(matches!(
        InstrDesc::decode(n24, Kind::F16, 2),
        Err(IdescError::N { .. })
    ));
}

/// Major-ness: a K-major tile read with MN-major strides is named as such.
#[test]
fn the_other_majors_strides() {
    let t = OperandTile::new(ByteMode::None, Elem::F16, Major::K, 64, 64);
    let mn = OperandTile {
        major: Major::MN,
        ..t
    };
    let d = Descriptor::of_tile(Arch::Sm90, &mn, 0x800);
    let line = desc_line(d.encode(), Arch::Sm90, &t);
    assert!(line.starts_with("major-ness:"), "{line}");
    assert_eq!(
        desc_line(
            Descriptor::of_tile(Arch::Sm90, &t, 0x800).encode(),
            Arch::Sm90,
            &t
        ),
        "matches"
    );
}

/// TMA box wider than the swizzle span (the driver refuses it) and narrower than a swizzled row (the descriptor
/// reads rows TMA did not fill).
#[test]
fn box_vs_swizzle_span() {
    let fixed = TmaMap::of_tile(&A, [4096, 4096], 8192, 0x400);
    let wide = TmaMap {
        boxes: [128, 64, 1, 1, 1],
        ..fixed
    };
    assert!(wide
        .mismatches(&A)
        .iter()
        .any(|m| matches!(m, TmaMismatch::BoxOverSpan(256, 128))));
    let narrow = TmaMap {
        boxes: [32, 64, 1, 1, 1],
        ..fixed
    };
    let line = narrow.check(&A).unwrap_err().to_string();
    assert_eq!(
        line,
        "box vs swizzle span: the inner box is 32 elements, the tile's swizzled row is 64"
    );
    let stride = TmaMap {
        strides: [8200, 0, 0, 0],
        ..fixed
    };
    assert!(stride
        .check(&A)
        .unwrap_err()
        .to_string()
        .starts_with("stride:"));
}

/// No false alarm on CUTLASS's standard atoms: every descriptor in the CuTe oracle table checks clean against the
/// tile it was built from, read the instruction's MN slice at a time.
#[test]
fn cutlass_descriptors_check_clean() {
    let table = include_str!("data/cute_descriptors.txt");
    let mut n = 0;
    for line in table
        .lines()
        .filter(|l| l.starts_with("g ") && !l.contains("SW128A32"))
    {
        let (head, descs) = line.split_once(" : ").unwrap();
        let f: Vec<&str> = head.split(' ').collect();
        let arch = if f[1] == "90" {
            Arch::Sm90
        } else {
            Arch::Sm100
        };
        let major = if f[2] == "K" { Major::K } else { Major::MN };
        let elem = match f[4] {
            "8" => Elem::E4M3,
            "16" => Elem::F16,
            _ => Elem::TF32,
        };
        let mn: u32 = f[5].parse().unwrap();
        let k: u32 = f[6].parse().unwrap();
        let slice: u32 = f[7].parse().unwrap();
        let tile = OperandTile::new(ByteMode::from_name(f[3]).unwrap(), elem, major, mn, k);
        for c in descs.split(' ') {
            let d = Descriptor::decode(u64::from_str_radix(c, 16).unwrap(), arch).unwrap();
            assert_eq!(
                d.mismatches_slice(&tile, slice),
                Vec::<DescMismatch>::new(),
                "{line}: {c}"
            );
            n += 1;
        }
    }
    assert!(n > 10_000, "{n}");
}

/// Blackwell's 128-byte swizzle with 32-byte atoms, end to end: its descriptor and its map check clean against
/// the operand; the 16-byte-atom mode in either is named; Hopper and K-major refuse the layout.
#[test]
fn blackwell_32_byte_atoms() {
    use swizzle_core::descriptor::Operand;
    let op = Operand::atom32(Elem::BF16, 128, 64);
    let d = op.descriptor(Arch::Sm100, 64, 0x2400);
    assert_eq!(Descriptor::decode(d.encode(), Arch::Sm100), Ok(d));
    assert_eq!(d.mismatches_operand(&op, 64), vec![]);
    assert_eq!(d.sbo, 512);
    let sw128 = Descriptor {
        layout: SmemLayout::Sw128,
        ..d
    };
    assert!(sw128.mismatches_operand(&op, 64)[0]
        .to_string()
        .starts_with("mode:"));
    // SBO of the 16-byte-atom layout (8 rows of 128 bytes) where the 32-byte atoms group 4 rows.
    let sbo = Descriptor { sbo: 1024, ..d };
    assert!(sbo.mismatches_operand(&op, 64)[0]
        .to_string()
        .starts_with("stride: SBO is 1024 B, the tile's is 512 B"));
    let map = TmaMap {
        swizzle: TmaSwizzle::B128Atom32,
        ..TmaMap::of_tile(&op.tile, [4096, 4096], 8192, 0x2400)
    };
    assert_eq!(map.check_operand(&op), Ok(()));
    let bad = TmaMap {
        swizzle: TmaSwizzle::B128,
        ..map
    };
    assert!(matches!(
        bad.check_operand(&op),
        Err(TmaMismatch::Swizzle { .. })
    ));
    assert!(op.validate(Arch::Sm90).is_err());
    let k_major = Operand {
        tile: OperandTile {
            major: Major::K,
            ..op.tile
        },
        ..op
    };
    assert!(k_major.validate(Arch::Sm100).is_err());
}
