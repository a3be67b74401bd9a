//! `swz synth` and `swz check` through the real binary: the known answers come out, and the reports explain.
use std::process::{Command, Output};

fn swz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_swz"))
        .args(args)
        .output()
        .expect("run swz")
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn synth_finds_sw333_for_row_stores_and_ldmatrix() {
    let text = stdout(&swz(&[
        "synth",
        "--tile",
        "64x64",
        "--elem",
        "f16",
        "--pattern",
        "row16",
        "--pattern",
        "ldmatrix.x4",
    ]));
    assert!(
        text.starts_with("single swizzle: Sw<3,4,3> on bytes = Sw<3,3,3> on f16\n"),
        "{text}"
    );
    assert!(
        text.contains("ldmatrix.x4           512 -> 64     (ideal 64)"),
        "{text}"
    );
}

#[test]
fn synth_needs_two_layers_for_seed_002() {
    let text = stdout(&swz(&[
        "synth",
        "--tile",
        "16x256",
        "--elem",
        "f16",
        "--pattern",
        "ldmatrix.x4",
        "--pattern",
        "ldmatrix.x4@16",
    ]));
    assert!(
        text.starts_with("two layers (no single swizzle works): "),
        "{text}"
    );
    // The printed element-unit layers, fed back to `check`, make both patterns conflict-free.
    let layers = text.lines().next().unwrap().split(" = ").nth(1).unwrap();
    let layers = layers.trim_end_matches(" on f16");
    let (first, second) = layers.split_once(" then ").unwrap();
    let strip = |s: &str| {
        s.trim_start_matches("Sw<")
            .trim_end_matches('>')
            .to_string()
    };
    let check = stdout(&swz(&[
        "check",
        "--tile",
        "16x256",
        "--elem",
        "f16",
        "--swizzle",
        &strip(first),
        "--then",
        &strip(second),
        "--pattern",
        "ldmatrix.x4",
        "--pattern",
        "ldmatrix.x4@16",
    ]));
    assert_eq!(check.matches(", 0 conflicts, 1.00x)").count(), 2, "{check}");
}

#[test]
fn check_reports_and_draws_the_worst_instruction() {
    let dir = std::env::temp_dir().join(format!("swz-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("map.svg");
    let text = stdout(&swz(&[
        "check",
        "--tile",
        "64x64",
        "--elem",
        "f16",
        "--pattern",
        "ldmatrix.x4",
        "--pattern",
        "row16",
        "--svg",
        svg.to_str().unwrap(),
    ]));
    assert!(
        text.contains(
            "ldmatrix.x4: 16 instructions, 512 wavefronts (ideal 64, 448 conflicts, 8.00x)"
        ),
        "{text}"
    );
    assert!(
        text.contains("bank 0 gets 8 distinct words from lanes 0@0 1@128"),
        "{text}"
    );
    assert!(
        text.contains("row16: 16 instructions, 64 wavefronts (ideal 64, 0 conflicts, 1.00x)"),
        "{text}"
    );
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.contains("ldmatrix.x4 on 64x64 f16"));
    std::fs::remove_dir_all(dir).unwrap();

    let padded = stdout(&swz(&[
        "check",
        "--tile",
        "32x32",
        "--elem",
        "f32",
        "--pad",
        "4",
        "--pattern",
        "col.ld",
        "--pattern",
        "row.st",
    ]));
    assert_eq!(
        padded.matches(", 0 conflicts, 1.00x)").count(),
        2,
        "{padded}"
    );
}

#[test]
fn bad_tile_or_pattern_exits_2_with_one_line() {
    for args in [
        &["check", "--tile", "64x64", "--pattern", "ldmatrix.x9"][..],
        &["synth", "--tile", "8x8", "--pattern", "ldmatrix.x4"][..],
        &["check", "--tile", "64by64", "--pattern", "row16"][..],
        &[
            "check",
            "--tile",
            "64x64",
            "--swizzle",
            "3,3,2",
            "--pattern",
            "row16",
        ][..],
    ] {
        let out = swz(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).lines().count(),
            1,
            "{args:?}"
        );
    }
}
