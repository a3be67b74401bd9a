//! `swz apply` and `swz show` through the real binary.
use std::process::Command;

fn swz(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_swz"))
        .args(args)
        .output()
        .expect("run swz")
}

/// CuTe's `Swizzle<B,M,S>::apply`, written independently: take the B bits at the higher field, move them onto the
/// lower field, XOR.
fn cute(b: u32, m: u32, s: i32, o: u64) -> u64 {
    if b == 0 {
        return o;
    }
    let (yyy_lsb, zzz_lsb) = if s >= 0 {
        (m + s as u32, m)
    } else {
        (m, m + s.unsigned_abs())
    };
    let y = (o >> yyy_lsb) & ((1 << b) - 1);
    o ^ (y << zzz_lsb)
}

#[test]
fn apply_matches_cute_for_every_small_spec() {
    let mut specs = 0;
    for b in 0..=3u32 {
        for m in 0..=4u32 {
            for s in -6..=6i32 {
                if s.unsigned_abs() < b {
                    continue;
                }
                specs += 1;
                let spec = format!("{b},{m},{s}");
                let out = swz(&["apply", "--swizzle", &spec, "--range", "0..4096"]);
                assert!(
                    out.status.success(),
                    "{spec}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                let text = String::from_utf8(out.stdout).unwrap();
                let got: Vec<u64> = text.lines().map(|l| l.parse().unwrap()).collect();
                assert_eq!(got.len(), 4096, "{spec}");
                for (o, g) in got.into_iter().enumerate() {
                    assert_eq!(g, cute(b, m, s, o as u64), "{spec} at {o}");
                }
            }
        }
    }
    assert_eq!(specs, 215);
}

#[test]
fn apply_range_is_half_open_and_offset() {
    let out = swz(&["apply", "--swizzle", "3,3,3", "--range", "62..66"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "62\n63\n72\n73\n");
    let out = swz(&["apply", "--swizzle", "SW128", "--range", "128..129"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "144\n");
}

fn refused(args: &[&str], needle: &str) {
    let out = swz(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
}

#[test]
fn apply_refuses_bad_input_in_one_line() {
    refused(
        &["apply", "--swizzle", "3,3,2", "--range", "0..8"],
        "|S| must be >= B",
    );
    refused(
        &["apply", "--swizzle", "3,3", "--range", "0..8"],
        "expected B,M,S (e.g. 3,3,3), Sw<B,M,S>, two layers B,M,S+B,M,S, or a byte mode",
    );
    refused(
        &["apply", "--swizzle", "3,30,3", "--range", "0..8"],
        "must be <= 32",
    );
    refused(
        &["apply", "--swizzle", "3,3,3", "--range", "8..0"],
        "--range",
    );
    refused(
        &["apply", "--swizzle", "3,3,3", "--range", "0-8"],
        "--range",
    );
}

#[test]
fn show_prints_stored_offsets_and_writes_svg() {
    let dir = std::env::temp_dir().join(format!("swz-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("t.svg");
    let out = swz(&[
        "show",
        "--swizzle",
        "3,3,3",
        "--tile",
        "8x64",
        "--elem",
        "f16",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("# Sw<3,3,3> on f16 | tile 8x64 f16 row-major"));
    let row1 = text
        .lines()
        .find(|l| l.trim_start().starts_with("1  |"))
        .unwrap();
    let cells: Vec<u32> = row1
        .split('|')
        .nth(1)
        .unwrap()
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect();
    assert_eq!(&cells[..9], &[72, 73, 74, 75, 76, 77, 78, 79, 64]);
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(
        picture.starts_with("<svg")
            && picture.contains("Sw&lt;3,3,3&gt;")
            && picture.contains("legend")
    );
    std::fs::remove_dir_all(&dir).ok();

    refused(
        &["show", "--swizzle", "3,3,3", "--tile", "8x8"],
        "does not divide",
    );
    refused(
        &[
            "show",
            "--swizzle",
            "3,3,3",
            "--tile",
            "8x64",
            "--elem",
            "f17",
        ],
        "--elem",
    );
}
