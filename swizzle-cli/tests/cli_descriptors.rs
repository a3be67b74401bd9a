//! `swz decode desc|idesc` and `swz check desc|tma`: fields in words, "matches" or every mismatch named (exit 1),
//! and bad input (not hex, too long, unknown arch, a bad operand) as one line with exit 2.
mod common;
use common::{contains_all, fails, run};

/// `check tma` of the 4096x4096 bf16 tensor: a 64x`rows` box into `smem`, swizzled `sw`, against `operand`.
fn tma(rows: u32, sw: &str, smem: &str, operand: &str) -> String {
    format!(
        "check tma --dtype bf16 --dims 4096,4096 --strides 8192 --box 64,{rows} --swizzle {sw} --smem {smem} \
         --operand {operand}"
    )
}

/// `check tma` of a 64-wide tensor into an 8x64 bf16 tile at 0, with one argument replaced by a bad one.
fn bad_tma(dtype: &str, dims: &str, strides: &str, sw: &str) -> String {
    format!(
        "check tma --dtype {dtype} --dims {dims} --strides {strides} --box 64,8 --swizzle {sw} --smem 0 \
         --operand SW128:bf16:K:8x64"
    )
}

/// `swz ARGS` exits 0 and its report contains every one of `needles`.
fn decoded(args: &str, needles: &[&str]) {
    let (c, out, err) = run(args);
    assert_eq!(c, 0, "{args}: {err}");
    contains_all(&out, needles);
}

#[test]
fn decode_desc_names_every_field_and_the_element_bytes() {
    decoded(
        "decode desc 0x4000004000010040",
        &[
            "start address   0x400",
            "LBO             16 B (1 x 16 B)",
            "SBO             1024 B (64 x 16 B)",
            "base offset     0",
            "layout type     1 = 128-byte swizzle (Sw<3,4,3>, repeats every 1024 B)",
            // Row 1's first chunk lands on chunk 1 of its 128-byte row (XOR with the row): 0x480 + 0x10.
            "  mn   1      0x490      0x480",
        ],
    );
    // The same bits on sm_100 lack the version: the fields print, then the reason, exit 1.
    let (c, out, err) = run("decode desc 0x4000004000010040 --arch sm_100");
    assert_eq!(c, 1);
    assert!(out.contains("problem: bits 46-48 (version) are 0"), "{out}");
    assert!(err.contains("not a valid sm_100 descriptor"), "{err}");
    decoded(
        "decode desc 0x2000402000000000 --arch sm_100a --major MN",
        &["1 = 128-byte swizzle with 32-byte atoms (Sw<2,5,2>"],
    );
}

#[test]
fn decode_idesc_in_words() {
    decoded(
        "decode idesc 0x08400490",
        &[
            "D type             1 = f32",
            "A type             1 = bf16",
            "N >> 3             32 -> N = 256",
            "M >> 4             8 -> M = 128",
            "m128n256k16",
            "256 columns",
        ],
    );
    decoded(
        "decode idesc 0x08400010 --kind f8f6f4",
        &["A type             0 = e4m3", "k32"],
    );
    // M = 256 on one CTA.
    fails(
        1,
        "decode idesc 0x10200490 --cta-group 1",
        "M = 256 with cta_group::1",
    );
}

#[test]
fn check_desc_matches_or_names_each_mismatch() {
    let (c, out, _) = run("check desc 0x4000004000010040 --operand SW128:bf16:K:128x64");
    assert_eq!((c, out.as_str()), (0, "matches\n"));
    // A 64-byte layout type and a 128-aligned start at once (SBO in bytes too, not compared under another mode):
    // two lines, exit 1.
    let (c, out, err) = run("check desc 0x8000040000010048 --operand SW128:bf16:K:128x64");
    assert_eq!(c, 1, "{err}");
    assert!(out.lines().any(|l| l.starts_with("mode: ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("alignment: ")), "{out}");
    assert!(err.contains("2 mismatches"), "{err}");
    let (c, out, _) = run("check desc 0x4000040000010040 --operand SW128:bf16:K:128x64");
    assert_eq!(c, 1);
    assert!(out.starts_with("units: SBO reads as 16384 B"), "{out}");
    // CuTe's descriptor of an MN-major slice one atom wide (LBO 0) against the whole tile, read 64 at a time.
    let (c, out, _) =
        run("check desc 0x4000004000000000 --operand SW128:bf16:MN:128x128 --mma-mn 64");
    assert_eq!((c, out.as_str()), (0, "matches\n"));
}

#[test]
fn check_tma_matches_or_names_each_mismatch() {
    let k_major = "SW128:bf16:K:128x64";
    let (c, out, _) = run(&tma(128, "128B", "0x400", k_major));
    assert_eq!((c, out.as_str()), (0, "matches\n"));
    let (c, out, _) = run(&tma(128, "CU_TENSOR_MAP_SWIZZLE_64B", "0x400", k_major));
    assert_eq!(c, 1);
    assert!(out.starts_with("mode: the map swizzles 64B"), "{out}");
    let (c, out, _) = run(&tma(128, "128B", "0x480", k_major));
    assert_eq!(c, 1);
    assert!(
        out.starts_with("alignment: the shared-memory destination 0x480"),
        "{out}"
    );
}

#[test]
fn bad_input_is_one_line_exit_2() {
    for (args, needle) in [
        ("decode desc 0xzz", "not a hex number"),
        ("decode desc hello", "not a hex number"),
        ("decode desc 0x12345678901234567", "too long"),
        ("decode idesc 0x123456789", "too long"),
        ("decode desc 0x1 --arch sm_80", "unknown architecture"),
        ("decode desc 0x1 --major R", "--major"),
        ("decode idesc 0x1 --kind f64", "--kind"),
        ("decode idesc 0x1 --cta-group 4", "--cta-group"),
        ("check desc 0x1", "--operand"),
        (
            "check desc 0x1 --operand SW128:bf16:K",
            "MODE:ELEM:MAJOR:MNxK",
        ),
        (
            "check desc 0x1 --operand SW128:bf16:K:128x48",
            "whole number",
        ),
        ("check desc 0xq --operand SW128:bf16:K:128x64", "not a hex"),
        (
            "check desc 0x1 --operand SW128:bf16:K:128x64 --arch sm_7",
            "unknown architecture",
        ),
        (&bad_tma("bf16", "64,x", "128", "128B"), "--dims"),
        (&bad_tma("bf16", "64,64", "128", "256B"), "--swizzle"),
        (&bad_tma("bf16", "64,64", "128,2", "128B"), "--strides"),
        (&bad_tma("bf17", "64,64", "128", "128B"), "--dtype"),
        ("check frobnicate", ""),
        (
            "check desc 0x4000004000010040 --operand SW128:bf16:K:128x64 --mma-mn -8",
            "",
        ),
        (
            "check desc 0x4000004000010040 --operand SW128:bf16:K:4294967296x64",
            "out of range",
        ),
    ] {
        fails(2, args, needle);
    }
}

/// Extreme numbers are findings or one-line errors, never an overflow.
#[test]
fn extreme_map_arguments() {
    let (c, out, err) = run(concat!(
        "check tma --dtype f64 --dims 18446744073709551615,18446744073709551615 ",
        "--strides 18446744073709551615 --box 4294967295,4294967295 --swizzle 128B --smem 4294967295 ",
        "--operand SW128:bf16:K:128x64"
    ));
    assert_eq!(c, 1, "{err}");
    assert!(
        !err.contains("panicked") && out.lines().count() >= 4,
        "{out}"
    );
    fails(
        2,
        &bad_tma("bf16", "18446744073709551616,1", "16", "128B"),
        "--dims",
    );
}

#[test]
fn blackwell_32_byte_atoms_on_the_command_line() {
    let desc = |operand: &str| run(&cmd_desc("0x2000402000000040 --arch sm_100", operand));
    let (c, out, _) = desc("SW128A32:bf16:MN:64x64");
    assert_eq!((c, out.as_str()), (0, "matches\n"));
    let (c, out, _) = desc("SW128:bf16:MN:64x64");
    assert_eq!(c, 1);
    assert!(
        out.starts_with("mode: the descriptor says 128-byte swizzle with 32-byte atoms"),
        "{out}"
    );
    let map = |sw: &str| run(&tma(64, sw, "0x400", "SW128A32:bf16:MN:64x64"));
    assert_eq!(map("128B_ATOM_32B").0, 0);
    assert_eq!(map("128B").0, 1);
    fails(2, &cmd_desc("0x1", "SW128A32:bf16:MN:64x64"), "sm_100");
}

/// `check desc VALUE... --operand OPERAND`.
fn cmd_desc(value: &str, operand: &str) -> String {
    format!("check desc {value} --operand {operand}")
}

/// An instruction-descriptor field one bit low reads as a legal but different shape: checked against the
/// instruction the kernel means, the field is named.
#[test]
fn check_idesc_names_the_field() {
    let idesc = |value: &str, mma: &str| format!("check idesc {value} --mma {mma}");
    let mma = "bf16:bf16:f32:128x256:K:K";
    let (c, out, _) = run(&idesc("0x08400490", mma));
    assert_eq!((c, out.as_str()), (0, "matches\n"));
    // M >> 4 = 8 written at bit 23: reads M = 64.
    let (c, out, _) = run(&idesc("0x04400490", mma));
    assert_eq!(c, 1);
    assert!(
        out.starts_with("M (bits 24-28): the descriptor encodes bf16:bf16:f32:64x256:K:K"),
        "{out}"
    );
    fails(1, &idesc("0x10400490", mma), "M = 256 with cta_group::1");
    fails(
        2,
        &idesc("0x08400490", "bf16:bf16:f32:256x256:K:K:1"),
        "--mma",
    );
    fails(2, &idesc("0x1ffffffff", mma), "too long");
}
