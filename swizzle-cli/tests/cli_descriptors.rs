//! `swz decode desc|idesc` and `swz check desc|tma`: fields in words, "matches" or every mismatch named (exit 1),
//! and bad input (not hex, too long, unknown arch, a bad operand) as one line with exit 2.
use std::process::Command;

fn swz(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_swz"))
        .args(args)
        .output()
        .expect("run swz");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn one_line(code: i32, args: &[&str], needle: &str) {
    let (c, _, err) = swz(args);
    assert_eq!(c, code, "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
    assert!(
        err.starts_with("swz: ") && err.contains(needle),
        "{args:?}: {err:?} lacks {needle:?}"
    );
}

#[test]
fn decode_desc_names_every_field_and_the_element_bytes() {
    let (c, out, _) = swz(&["decode", "desc", "0x4000004000010040"]);
    assert_eq!(c, 0);
    for needle in [
        "start address   0x400",
        "LBO             16 B (1 x 16 B)",
        "SBO             1024 B (64 x 16 B)",
        "base offset     0",
        "layout type     1 = 128-byte swizzle (Sw<3,4,3>, repeats every 1024 B)",
        // Row 1's first chunk lands on chunk 1 of its 128-byte row (XOR with the row): 0x480 + 0x10.
        "  mn   1      0x490      0x480",
    ] {
        assert!(out.contains(needle), "{needle:?} in\n{out}");
    }
    // The same bits on sm_100 lack the version: the fields print, then the reason, exit 1.
    let (c, out, err) = swz(&["decode", "desc", "0x4000004000010040", "--arch", "sm_100"]);
    assert_eq!(c, 1);
    assert!(out.contains("problem: bits 46-48 (version) are 0"), "{out}");
    assert!(err.contains("not a valid sm_100 descriptor"), "{err}");
    let (c, out, _) = swz(&[
        "decode",
        "desc",
        "0x2000402000000000",
        "--arch",
        "sm_100a",
        "--major",
        "MN",
    ]);
    assert_eq!(c, 0);
    assert!(
        out.contains("1 = 128-byte swizzle with 32-byte atoms (Sw<2,5,2>"),
        "{out}"
    );
}

#[test]
fn decode_idesc_in_words() {
    let (c, out, _) = swz(&["decode", "idesc", "0x08400490"]);
    assert_eq!(c, 0);
    for needle in [
        "D type             1 = f32",
        "A type             1 = bf16",
        "N >> 3             32 -> N = 256",
        "M >> 4             8 -> M = 128",
        "m128n256k16",
        "256 columns",
    ] {
        assert!(out.contains(needle), "{needle:?} in\n{out}");
    }
    let (c, out, _) = swz(&["decode", "idesc", "0x08400010", "--kind", "f8f6f4"]);
    assert_eq!(c, 0);
    assert!(
        out.contains("A type             0 = e4m3") && out.contains("k32"),
        "{out}"
    );
    // M = 256 on one CTA.
    one_line(
        1,
        &["decode", "idesc", "0x10200490", "--cta-group", "1"],
        "M = 256 with cta_group::1",
    );
}

#[test]
fn check_desc_matches_or_names_each_mismatch() {
    let (c, out, _) = swz(&[
        "check",
        "desc",
        "0x4000004000010040",
        "--operand",
        "SW128:bf16:K:128x64",
    ]);
    assert_eq!((c, out.as_str()), (0, "matches\n"));
    // A 64-byte layout type and a 128-aligned start at once (SBO in bytes too, not compared under another mode):
    // two lines, exit 1.
    let (c, out, err) = swz(&[
        "check",
        "desc",
        "0x8000040000010048",
        "--operand",
        "SW128:bf16:K:128x64",
    ]);
    assert_eq!(c, 1, "{err}");
    assert!(out.lines().any(|l| l.starts_with("mode: ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("alignment: ")), "{out}");
    assert!(err.contains("2 mismatches"), "{err}");
    let (c, out, _) = swz(&[
        "check",
        "desc",
        "0x4000040000010040",
        "--operand",
        "SW128:bf16:K:128x64",
    ]);
    assert_eq!(c, 1);
    assert!(out.starts_with("units: SBO reads as 16384 B"), "{out}");
    // CuTe's descriptor of an MN-major slice one atom wide (LBO 0) against the whole tile, read 64 at a time.
    let (c, out, _) = swz(&[
        "check",
        "desc",
        "0x4000004000000000",
        "--operand",
        "SW128:bf16:MN:128x128",
        "--mma-mn",
        "64",
    ]);
    assert_eq!((c, out.as_str()), (0, "matches\n"));
}

#[test]
fn check_tma_matches_or_names_each_mismatch() {
    let base = [
        "check",
        "tma",
        "--dtype",
        "bf16",
        "--dims",
        "4096,4096",
        "--strides",
        "8192",
        "--box",
        "64,128",
        "--smem",
        "0x400",
        "--operand",
        "SW128:bf16:K:128x64",
    ];
    let with = |sw: &str| {
        let mut v = base.to_vec();
        v.extend(["--swizzle", sw]);
        swz(&v)
    };
    let (c, out, _) = with("128B");
    assert_eq!((c, out.as_str()), (0, "matches\n"));
    let (c, out, _) = with("CU_TENSOR_MAP_SWIZZLE_64B");
    assert_eq!(c, 1);
    assert!(out.starts_with("mode: the map swizzles 64B"), "{out}");
    let mut v = base.to_vec();
    v.extend(["--swizzle", "128B"]);
    v[11] = "0x480";
    let (c, out, _) = swz(&v);
    assert_eq!(c, 1);
    assert!(
        out.starts_with("alignment: the shared-memory destination 0x480"),
        "{out}"
    );
}

#[test]
fn bad_input_is_one_line_exit_2() {
    for (args, needle) in [
        (vec!["decode", "desc", "0xzz"], "not a hex number"),
        (vec!["decode", "desc", "hello"], "not a hex number"),
        (vec!["decode", "desc", "0x12345678901234567"], "too long"),
        (vec!["decode", "idesc", "0x123456789"], "too long"),
        (
            vec!["decode", "desc", "0x1", "--arch", "sm_80"],
            "unknown architecture",
        ),
        (vec!["decode", "desc", "0x1", "--major", "R"], "--major"),
        (vec!["decode", "idesc", "0x1", "--kind", "f64"], "--kind"),
        (
            vec!["decode", "idesc", "0x1", "--cta-group", "4"],
            "--cta-group",
        ),
        (vec!["check", "desc", "0x1"], "--operand"),
        (
            vec!["check", "desc", "0x1", "--operand", "SW128:bf16:K"],
            "MODE:ELEM:MAJOR:MNxK",
        ),
        (
            vec!["check", "desc", "0x1", "--operand", "SW128:bf16:K:128x48"],
            "whole number",
        ),
        (
            vec!["check", "desc", "0xq", "--operand", "SW128:bf16:K:128x64"],
            "not a hex",
        ),
        (
            vec![
                "check",
                "desc",
                "0x1",
                "--operand",
                "SW128:bf16:K:128x64",
                "--arch",
                "sm_7",
            ],
            "unknown architecture",
        ),
        (
            vec![
                "check",
                "tma",
                "--dtype",
                "bf16",
                "--dims",
                "64,x",
                "--strides",
                "128",
                "--box",
                "64,8",
                "--swizzle",
                "128B",
                "--smem",
                "0",
                "--operand",
                "SW128:bf16:K:8x64",
            ],
            "--dims",
        ),
        (
            vec![
                "check",
                "tma",
                "--dtype",
                "bf16",
                "--dims",
                "64,64",
                "--strides",
                "128",
                "--box",
                "64,8",
                "--swizzle",
                "256B",
                "--smem",
                "0",
                "--operand",
                "SW128:bf16:K:8x64",
            ],
            "--swizzle",
        ),
        (
            vec![
                "check",
                "tma",
                "--dtype",
                "bf16",
                "--dims",
                "64,64",
                "--strides",
                "128,2",
                "--box",
                "64,8",
                "--swizzle",
                "128B",
                "--smem",
                "0",
                "--operand",
                "SW128:bf16:K:8x64",
            ],
            "--strides",
        ),
        (
            vec![
                "check",
                "tma",
                "--dtype",
                "bf17",
                "--dims",
                "64,64",
                "--strides",
                "128",
                "--box",
                "64,8",
                "--swizzle",
                "128B",
                "--smem",
                "0",
                "--operand",
                "SW128:bf16:K:8x64",
            ],
            "--dtype",
        ),
        (vec!["check", "frobnicate"], ""),
        (
            vec![
                "check",
                "desc",
                "0x4000004000010040",
                "--operand",
                "SW128:bf16:K:128x64",
                "--mma-mn",
                "-8",
            ],
            "",
        ),
        (
            vec![
                "check",
                "desc",
                "0x4000004000010040",
                "--operand",
                "SW128:bf16:K:4294967296x64",
            ],
            "out of range",
        ),
    ] {
        one_line(2, &args, needle);
    }
}

/// Extreme numbers are findings or one-line errors, never an overflow.
#[test]
fn extreme_map_arguments() {
    let (c, out, err) = swz(&[
        "check",
        "tma",
        "--dtype",
        "f64",
        "--dims",
        "18446744073709551615,18446744073709551615",
        "--strides",
        "18446744073709551615",
        "--box",
        "4294967295,4294967295",
        "--swizzle",
        "128B",
        "--smem",
        "4294967295",
        "--operand",
        "SW128:bf16:K:128x64",
    ]);
    assert_eq!(c, 1, "{err}");
    assert!(
        !err.contains("panicked") && out.lines().count() >= 4,
        "{out}"
    );
    one_line(
        2,
        &[
            "check",
            "tma",
            "--dtype",
            "bf16",
            "--dims",
            "18446744073709551616,1",
            "--strides",
            "16",
            "--box",
            "64,8",
            "--swizzle",
            "128B",
            "--smem",
            "0",
            "--operand",
            "SW128:bf16:K:8x64",
        ],
        "--dims",
    );
}

#[test]
fn blackwell_32_byte_atoms_on_the_command_line() {
    let (c, out, _) = swz(&[
        "check",
        "desc",
        "0x2000402000000040",
        "--arch",
        "sm_100",
        "--operand",
        "SW128A32:bf16:MN:64x64",
    ]);
    assert_eq!((c, out.as_str()), (0, "matches\n"));
    let (c, out, _) = swz(&[
        "check",
        "desc",
        "0x2000402000000040",
        "--arch",
        "sm_100",
        "--operand",
        "SW128:bf16:MN:64x64",
    ]);
    assert_eq!(c, 1);
    assert!(
        out.starts_with("mode: the descriptor says 128-byte swizzle with 32-byte atoms"),
        "{out}"
    );
    let map = |sw: &str| {
        swz(&[
            "check",
            "tma",
            "--dtype",
            "bf16",
            "--dims",
            "4096,4096",
            "--strides",
            "8192",
            "--box",
            "64,64",
            "--swizzle",
            sw,
            "--smem",
            "0x400",
            "--operand",
            "SW128A32:bf16:MN:64x64",
        ])
    };
    assert_eq!(map("128B_ATOM_32B").0, 0);
    assert_eq!(map("128B").0, 1);
    one_line(
        2,
        &[
            "check",
            "desc",
            "0x1",
            "--operand",
            "SW128A32:bf16:MN:64x64",
        ],
        "sm_100",
    );
}

/// An instruction-descriptor field one bit low reads as a legal but different shape: checked against the
/// instruction the kernel means, the field is named.
#[test]
fn check_idesc_names_the_field() {
    let (c, out, _) = swz(&[
        "check",
        "idesc",
        "0x08400490",
        "--mma",
        "bf16:bf16:f32:128x256:K:K",
    ]);
    assert_eq!((c, out.as_str()), (0, "matches\n"));
    // M >> 4 = 8 written at bit 23: reads M = 64.
    let (c, out, _) = swz(&[
        "check",
        "idesc",
        "0x04400490",
        "--mma",
        "bf16:bf16:f32:128x256:K:K",
    ]);
    assert_eq!(c, 1);
    assert!(
        out.starts_with("M (bits 24-28): the descriptor encodes bf16:bf16:f32:64x256:K:K"),
        "{out}"
    );
    one_line(
        1,
        &[
            "check",
            "idesc",
            "0x10400490",
            "--mma",
            "bf16:bf16:f32:128x256:K:K",
        ],
        "M = 256 with cta_group::1",
    );
    one_line(
        2,
        &[
            "check",
            "idesc",
            "0x08400490",
            "--mma",
            "bf16:bf16:f32:256x256:K:K:1",
        ],
        "--mma",
    );
    one_line(
        2,
        &[
            "check",
            "idesc",
            "0x1ffffffff",
            "--mma",
            "bf16:bf16:f32:128x256:K:K",
        ],
        "too long",
    );
}
