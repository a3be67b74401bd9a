//! `swz synth` and `swz check` through the real binary: the known answers come out, and the reports explain.
mod common;
use common::{stdout_exit, swz};
use std::process::Output;

fn stdout(out: &Output) -> String {
    stdout_exit(out, 0)
}

#[test]
fn synth_finds_sw333_for_row_stores_and_ldmatrix() {
    let text = stdout(&swz(
        "synth --tile 64x64 --elem f16 --pattern row16 --pattern ldmatrix.x4",
    ));
    let (first, _) = text.split_once('\n').unwrap();
    assert_eq!(
        first,
        "single swizzle: Sw<3,4,3> on bytes = Sw<3,3,3> on f16"
    );
    assert!(
        text.contains("ldmatrix.x4           512 -> 64     (ideal 64)"),
        "{text}"
    );
}

#[test]
fn synth_needs_two_layers_for_seed_002() {
    let text = stdout(&swz(
        "synth --tile 16x256 --elem f16 --pattern ldmatrix.x4 --pattern ldmatrix.x4@16",
    ));
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
    let dir = common::scratch("check");
    let svg = dir.join("map.svg");
    let text = stdout_exit(
        &swz(&common::cmd(
            "check --tile 64x64 --elem f16 --pattern ldmatrix.x4 --pattern row16 --svg",
            &[svg.to_str().unwrap()],
        )),
        1,
    );
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

    let padded = stdout(&swz(
        "check --tile 32x32 --elem f32 --pad 4 --pattern col.ld --pattern row.st",
    ));
    assert_eq!(
        padded.matches(", 0 conflicts, 1.00x)").count(),
        2,
        "{padded}"
    );
}

#[test]
fn bad_tile_or_pattern_exits_2_with_one_line() {
    for args in [
        "check --tile 64x64 --pattern ldmatrix.x9",
        "synth --tile 8x8 --pattern ldmatrix.x4",
        "check --tile 64by64 --pattern row16",
        "check --tile 64x64 --swizzle 3,3,2 --pattern row16",
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

/// For CI: `check` exits 0 clean, 1 on a conflict (one stderr line naming the patterns), 2 on bad input; `synth`
/// exits 0 with an answer, 1 when no XOR swizzle is conflict-free.
#[test]
fn exit_codes_say_clean_conflict_or_bad_input() {
    let check = |extra: &str| {
        swz(&format!(
            "check --tile 64x64 --elem f16 --pattern row16 --pattern ldmatrix.x4 {extra}"
        ))
    };
    let clean = check("--swizzle 3,3,3");
    assert_eq!(clean.status.code(), Some(0));
    assert!(clean.stderr.is_empty());
    let conflict = check("");
    assert_eq!(conflict.status.code(), Some(1));
    let err = String::from_utf8(conflict.stderr).unwrap();
    assert_eq!(
        err,
        "swz: bank conflicts in 1 of 2 pattern(s): ldmatrix.x4\n"
    );
    assert!(String::from_utf8(conflict.stdout)
        .unwrap()
        .contains("448 conflicts"));
    assert_eq!(check("--swizzle 3,3,2").status.code(), Some(2));
    let help = String::from_utf8(swz("check --help").stdout).unwrap();
    assert!(
        help.contains("Exit status: 0 every pattern is conflict-free, 1 some pattern"),
        "{help}"
    );
    let help = String::from_utf8(swz("synth --help").stdout).unwrap();
    assert!(help.contains("1 no XOR swizzle is conflict-free"), "{help}");
}

/// The no-solution cases a user waited 5 s / 61 s / 152 s for, silently: now answered at once (the pruning
/// bound), with exit 1, the reason, and the best candidate in bytes and in the tile's element unit.
#[test]
fn synth_without_a_solution_is_fast_and_exits_1() {
    for tile in ["64x64", "128x128", "256x224"] {
        let t = std::time::Instant::now();
        let out = swz(&format!(
            "synth --tile {tile} --elem f32 --pattern col.ld --pattern ldmatrix.x4"
        ));
        let elapsed = t.elapsed();
        let text = stdout_exit(&out, 1);
        assert!(
            elapsed < std::time::Duration::from_secs(30),
            "{tile}: {elapsed:?}"
        );
        let first = text.lines().next().unwrap();
        assert!(
            first.starts_with("no XOR swizzle (one or two layers) is conflict-free; best Sw<")
                && first.contains(" on bytes = Sw<")
                && first.contains(" on f32 costs "),
            "{tile}: {first}"
        );
        assert!(
            text.contains("\nwhy: every swizzle that keeps each 16-byte access whole"),
            "{text}"
        );
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.lines()
                .last()
                .unwrap()
                .starts_with("swz: no conflict-free XOR swizzle for "),
            "{err}"
        );
    }
}
