//! Bad input and hostile environments: every failure is one stderr line and exit code 2, never a panic; a closed
//! stdout pipe (`swz ... | head`) ends the program quietly.
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

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

fn assert_one_line_error(args: &[&str], needle: &str) {
    let (code, _, err) = swz(args);
    assert_eq!(code, 2, "{args:?}: exit code, stderr {err:?}");
    assert_eq!(
        err.lines().count(),
        1,
        "{args:?}: stderr must be one line: {err:?}"
    );
    assert!(err.starts_with("swz: "), "{args:?}: {err:?}");
    assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
    assert!(!err.contains("panicked"), "{args:?}: {err:?}");
}

#[test]
fn usage_errors_are_one_line() {
    assert_one_line_error(&[], "a subcommand is required");
    assert_one_line_error(&["apply"], "--swizzle <SPEC> --range <A..B>");
    assert_one_line_error(
        &["apply", "--swizzle", "3,3,3", "--range", "-1..4"],
        "--range",
    );
    assert_one_line_error(&["bench", "foo"], "unknown kernel family \"foo\"");
    assert_one_line_error(
        &[
            "show",
            "--swizzle",
            "3,3,3",
            "--tile",
            "8x64",
            "--elem",
            "f16",
            "--svg",
            "",
        ],
        "--svg",
    );
    assert_one_line_error(
        &[
            "check",
            "--tile",
            "64x64",
            "--elem",
            "f16",
            "--swizzle",
            "3,3,3",
        ],
        "--pattern",
    );
    assert_one_line_error(&["frobnicate"], "unrecognized subcommand");
}

#[test]
fn huge_tiles_are_refused_not_overflowed() {
    let huge = "4294967295x4294967295";
    assert_one_line_error(
        &[
            "show",
            "--swizzle",
            "3,3,3",
            "--tile",
            huge,
            "--elem",
            "f16",
        ],
        "--tile",
    );
    assert_one_line_error(
        &[
            "check",
            "--swizzle",
            "3,3,3",
            "--tile",
            huge,
            "--elem",
            "f16",
            "--pattern",
            "row16",
        ],
        "--tile",
    );
    // rows * cols * 8 wraps around u64 here: it must still be refused.
    assert_one_line_error(
        &[
            "show",
            "--swizzle",
            "0,0,0",
            "--tile",
            "3037000500x3037000500",
            "--elem",
            "f64",
        ],
        "--tile",
    );
    // Legal offsets but no block's shared memory is this large: refused at once instead of searched for minutes.
    assert_one_line_error(
        &[
            "synth",
            "--tile",
            "16384x16384",
            "--elem",
            "f16",
            "--pattern",
            "row16",
            "--pattern",
            "ldmatrix.x4",
        ],
        "shared memory",
    );
}

#[test]
fn closed_stdout_ends_quietly() {
    for args in [
        &["apply", "--swizzle", "3,3,3", "--range", "0..50000000"][..],
        &[
            "raster",
            "--order",
            "strip",
            "--tile",
            "4",
            "--grid",
            "4096x4096",
        ][..],
        &["report", "--layout-only", "--bank-maps"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_swz"))
            .args(args)
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
