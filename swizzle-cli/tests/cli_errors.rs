//! Bad input and hostile environments: every failure is one stderr line and exit code 2, never a panic; a closed
//! stdout pipe (`swz ... | head`) ends the program quietly.
mod common;
use common::{command, run, Argv};
use std::io::{BufRead, BufReader};
use std::process::Stdio;

fn assert_one_line_error(args: &(impl Argv + ?Sized), needle: &str) {
    common::fails(2, args, needle);
}

#[test]
fn usage_errors_are_one_line() {
    assert_one_line_error("", "a subcommand is required");
    assert_one_line_error("apply", "--swizzle <SPEC> --range <A..B>");
    assert_one_line_error("apply --swizzle 3,3,3 --range -1..4", "--range");
    assert_one_line_error("bench foo", "unknown kernel family \"foo\"");
    assert_one_line_error(
        &common::cmd("show --swizzle 3,3,3 --tile 8x64 --elem f16 --svg", &[""]),
        "--svg",
    );
    assert_one_line_error("check --tile 64x64 --elem f16 --swizzle 3,3,3", "--pattern");
    assert_one_line_error("frobnicate", "unrecognized subcommand");
}

#[test]
fn huge_tiles_are_refused_not_overflowed() {
    for (args, needle) in [
        (
            "show --swizzle 3,3,3 --tile 4294967295x4294967295 --elem f16",
            "--tile",
        ),
        (
            "check --swizzle 3,3,3 --tile 4294967295x4294967295 --elem f16 --pattern row16",
            "--tile",
        ),
        // rows * cols * 8 wraps around u64 here: it must still be refused.
        (
            "show --swizzle 0,0,0 --tile 3037000500x3037000500 --elem f64",
            "--tile",
        ),
        // Legal offsets but no block's shared memory is this large: refused at once instead of searched for
        // minutes.
        (
            "synth --tile 16384x16384 --elem f16 --pattern row16 --pattern ldmatrix.x4",
            "shared memory",
        ),
    ] {
        assert_one_line_error(args, needle);
    }
}

#[test]
fn closed_stdout_ends_quietly() {
    for args in [
        "apply --swizzle 3,3,3 --range 0..1048576",
        "raster --order strip --tile 4 --grid 4096x4096 --all",
        "report --layout-only --bank-maps",
    ] {
        let mut child = command(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn swz");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty(), "{args:?}: no output");
        // The reader is dropped here: the pipe is closed while swz is still writing.
        let out = child.wait_with_output().expect("wait");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: stderr {err:?}");
        assert!(err.is_empty(), "{args:?}: {err:?}");
    }
}

/// The messages a new user hit, each now naming what is wrong.
#[test]
fn messages_name_what_is_wrong() {
    let check = |extra: &str| format!("check --tile 64x64 --elem f16 {extra}");
    assert_one_line_error(
        &check("--pad -16 --pattern row16"),
        "expected a byte count >= 0, got -16",
    );
    assert_one_line_error(
        &check("--pattern row16@0"),
        "@COLS is the row width (in elements) to view the tile's memory as, a whole number >= 1; got \"0\"",
    );
    assert_one_line_error(&check("--pattern row17"), "unknown pattern \"row17\"");
    let apply = |sw: &str| {
        let (code, _, err) = run(&["apply", "--swizzle", sw, "--range", "0..4"]);
        assert_eq!(code, 2, "{sw}: {err}");
        assert_eq!(err.lines().count(), 1, "{sw}: {err}");
        err
    };
    assert!(apply("SW256")
        .contains("unknown byte mode \"SW256\": expected one of NONE, SW32, SW64, SW128"));
    assert!(apply("sw128").contains("byte modes are upper-case, did you mean SW128?"));
    assert!(apply("-3,3,3").contains("--swizzle: B must be >= 0, got -3"));
    assert!(apply("99999999999999999999,3,3")
        .contains("B = 99999999999999999999 is out of range: B + M + |S| must be <= 32"));
    assert!(apply("3,40,3").contains("M = 40 is out of range"));
    assert!(apply("3,3,x").contains("S = \"x\" is not an integer"));
    assert!(apply("3,3,2").contains("|S| must be >= B"));
    // --svg into a missing directory names the user's path, not a temporary file.
    let (code, _, err) = run("show --swizzle 3,3,3 --tile 8x64 --svg /nonexistent/x.svg");
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        "swz: --svg: cannot write /nonexistent/x.svg: No such file or directory (os error 2)"
    );
    assert!(!err.contains("tmp"));
}

/// Limits: a padded tile over 227 KiB, a launch grid CUDA cannot launch, and a grid too long to print.
#[test]
fn limits_are_refused_with_the_limit() {
    assert_one_line_error(
        "check --tile 64x64 --elem f16 --pad 1000000 --pattern row16",
        "--pad: 64x64 f16 row-major, padded +1000000 B per row occupies 64008192 bytes; one block's shared \
         memory holds at most 232448",
    );
    // 64x64 f16 (8 KiB) + 64 rows x 3200 B of padding = 212992 B: still under 227 KiB, accepted.
    let (code, _, err) = run("check --tile 64x64 --elem f16 --pad 3200 --pattern row16");
    assert!(code == 0 || code == 1, "{err}");
    assert_one_line_error(
        "raster --order identity --grid 1x100000",
        "gridDim.y = 100000 > 65535",
    );
    assert_one_line_error(
        "raster --order identity --grid 65535x65535",
        "4294836225 blocks, more than 1048576 lines; add --limit N for the first N, or --all",
    );
    let (code, out, _) = run("raster --order identity --grid 65535x65535 --limit 3");
    assert_eq!(code, 0);
    assert_eq!(out, "0 0 0\n1 1 0\n2 2 0\n");
    // The largest launchable height is fine.
    let (code, out, _) = run("raster --order identity --grid 1x65535");
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 65535);
}
