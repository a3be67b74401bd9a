//! `swz apply` and `swz show` through the real binary.
mod common;
use common::{accepted, refused};

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
                let text = accepted(&format!("apply --swizzle {spec} --range 0..4096"));
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
    assert_eq!(
        accepted("apply --swizzle 3,3,3 --range 62..66"),
        "62\n63\n72\n73\n"
    );
    assert_eq!(accepted("apply --swizzle SW128 --range 128..129"), "144\n");
}

#[test]
fn apply_refuses_bad_input_in_one_line() {
    for (args, needle) in [
        ("apply --swizzle 3,3,2 --range 0..8", "|S| must be >= B"),
        (
            "apply --swizzle 3,3 --range 0..8",
            "expected B,M,S (e.g. 3,3,3), Sw<B,M,S>, two layers B,M,S+B,M,S, or a byte mode",
        ),
        ("apply --swizzle 3,30,3 --range 0..8", "must be <= 32"),
        ("apply --swizzle 3,3,3 --range 8..0", "--range"),
        ("apply --swizzle 3,3,3 --range 0-8", "--range"),
    ] {
        refused(args, needle);
    }
}

#[test]
fn show_prints_stored_offsets_and_writes_svg() {
    let dir = common::scratch("show");
    let svg = dir.join("t.svg");
    let text = accepted(&common::cmd(
        "show --swizzle 3,3,3 --tile 8x64 --elem f16 --svg",
        &[svg.to_str().unwrap()],
    ));
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

    refused("show --swizzle 3,3,3 --tile 8x8", "does not divide");
    refused("show --swizzle 3,3,3 --tile 8x64 --elem f17", "--elem");
}
