//! `swz synth` prints, for each tensor-core fragment problem, exactly the layout its kernel ships
//! (`gpu_kernels::fragments`): the answer a user gets from the CLI is the layout the kernel indexes through.
mod common;
use gpu_kernels::fragments;
use swizzle_core::Smem;

/// The element-unit answer of `swz synth` for an f16 `tile` under `patterns` (whitespace-separated).
fn synth(tile: &str, patterns: &str) -> String {
    let mut args = format!("synth --tile {tile} --elem f16");
    for p in patterns.split_whitespace() {
        args += &format!(" --pattern {p}");
    }
    let text = common::accepted(&args);
    // First line: "<what>: <bytes form> on bytes = <element form> on f16".
    let first = text.lines().next().unwrap_or_default();
    first
        .rsplit_once(" = ")
        .and_then(|(_, elems)| elems.strip_suffix(" on f16"))
        .unwrap_or_else(|| panic!("no element-unit answer in {text}"))
        .to_string()
}

fn shipped(smem: Smem) -> String {
    assert_eq!(smem.pad_bytes(), 0, "a padded layout");
    smem.swizzle().to_string()
}

#[test]
fn synth_prints_each_problem_layout() {
    let ld = "ldmatrix.x4 ldmatrix.x4.trans row16";
    assert_eq!(
        synth("16x16", &format!("{ld} stmatrix.x4")),
        shipped(fragments::P1)
    );
    assert_eq!(synth("16x32", ld), shipped(fragments::P2));
    let both = "ldmatrix.x4 ldmatrix.x4.b ldmatrix.x4@16 ldmatrix.x4.b@16 row16";
    assert_eq!(synth("16x256", both), shipped(fragments::P21));
    assert_eq!(synth("16x256", both), "Sw<1,6,-2> then Sw<3,3,5>");
    let mode1 = "ldmatrix.x4 ldmatrix.x4.b stmatrix.x4 row16";
    assert_eq!(synth("16x256", mode1), shipped(fragments::P31_MODE1));
    let mode2 = "ldmatrix.x4@16 ldmatrix.x4.b@16 stmatrix.x4@16 row16";
    assert_eq!(synth("16x256", mode2), shipped(fragments::P31_MODE2));
}
