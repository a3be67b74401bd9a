//! `swz report` and `swz bench` through the real binary. Runs everywhere: the layout report needs no GPU, and on a
//! machine without a driver (CI) the commands must say so instead of failing obscurely.
mod common;
use common::{accepted, swz};

#[test]
fn layout_report_shows_every_shipped_spec_with_its_verdicts() {
    let text = accepted("report --layout-only --bank-maps");
    assert!(text.starts_with("mode: layout report only"), "{text}");
    for spec in [
        "smem-padded-t32 f32",
        "smem-swizzled-t64v4 f32",
        "smem-swizzled-t64v4-colmajor f32",
        "smem-swizzled-t128v8 f16",
    ] {
        assert!(text.contains(&format!("### {spec}")), "{spec} missing");
    }
    assert!(text.contains(
        "header: using Smem = swz::Layout<64, 64, 4, false, swz::Swizzle<3, 2, 6>, 4, 0>;"
    ));
    // The unpadded baseline conflicts (32-way), the swizzled tile does not.
    assert!(text
        .contains("smem-unpadded-t32 f32 smem write: 32 instructions, 1024 wavefronts (ideal 32"));
    assert!(text.contains("smem-swizzled-t64v4 f32 smem write: 32 instructions, 128 wavefronts (ideal 128, 0 conflicts"));
    assert!(text.contains("bank map, first write instruction"));
}

#[test]
fn without_a_driver_report_says_layout_only_and_bench_fails_cleanly() {
    let report = swz("report --sizes 256 --iters 2");
    let text = String::from_utf8_lossy(&report.stdout);
    if text.starts_with("mode: GPU") {
        return; // a GPU machine: the full report ran (covered by scripts/device.sh there)
    }
    assert!(report.status.success());
    assert!(
        text.starts_with("mode: no CUDA driver found — layout report only"),
        "{text}"
    );
    assert!(text
        .trim_end()
        .ends_with("no CUDA driver found — layout report only"));
    let bench = swz("bench transpose --sizes 64");
    assert_eq!(bench.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bench.stderr);
    assert!(err.starts_with("swz: no CUDA driver found"), "{err}");
}

/// The report opens with one summary table (one row per shipped spec of every registered family, the baselines
/// marked as conflicting by design); the 32-row bank maps only come with `--verbose`.
#[test]
fn report_starts_with_a_summary_and_keeps_bank_maps_for_verbose() {
    let out = swz("report --layout-only");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("mode: layout report only"));
    assert_eq!(lines.next(), Some(""));
    assert_eq!(lines.next(), Some("## Summary"));
    assert_eq!(lines.next(), Some(""));
    assert_eq!(
        lines.next(),
        Some("| family | kernel | layout | worst smem access | verdict |")
    );
    assert!(text.contains(
        "| transpose | smem-unpadded-t32 f32 | 32x32 f32 row-major, unswizzled | write 32.00x | conflicts by design |"
    ));
    assert!(text.contains(
        "| transpose | smem-swizzled-t64v4 f32 | 64x64 f32 row-major, Sw<3,2,6> on f32 | read 1.00x | conflict-free |"
    ));
    // Every registered family is listed, not only the transpose.
    assert!(text.contains(
        "| fragments | 2.1-two-modes f16 | 16x256 f16 row-major, Sw<1,6,-2> then Sw<3,3,5> on f16 | mode 2 B 1.00x | conflict-free |"
    ));
    assert!(text.contains(
        "| fragments | 2.1-two-modes.unswizzled f16 | 16x256 f16 row-major, unswizzled | mode 1 B 8.00x | conflicts by design |"
    ));
    assert!(text.contains(" 0 unexpected conflicts"));
    assert!(!text.contains("| CONFLICTS |"));
    // The summary comes before any detail.
    assert!(text.find("## Summary").unwrap() < text.find("### smem-").unwrap());
    assert!(!text.contains("bank map, "), "bank maps without --verbose");
    let verbose = String::from_utf8(swz("report --layout-only --verbose").stdout).unwrap();
    assert!(verbose.contains("bank map, worst write instruction (0):"));
    assert!(verbose.lines().count() > 3 * text.lines().count());
}

/// `--json FILE` without a GPU writes the layout report (never a silent exit 0 with no file).
#[test]
fn json_without_a_gpu_writes_the_layout_report() {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-layouts.json");
    let _ = std::fs::remove_file(&path);
    let text = accepted(&["report", "--layout-only", "--json", path.to_str().unwrap()]);
    assert!(
        text.contains(&format!("wrote {}", path.display())),
        "{text}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(v["mode"], "layout-only");
    assert!(v["benchmark"].is_null());
    let layouts = v["layouts"].as_array().unwrap();
    assert!(layouts.len() >= 20);
    let unpadded = layouts
        .iter()
        .find(|l| l["kernel"] == "smem-unpadded-t32 f32")
        .unwrap();
    assert_eq!(unpadded["verdict"], "conflicts by design");
    assert_eq!(unpadded["accesses"][0]["access"], "write");
    assert_eq!(unpadded["accesses"][0]["wavefronts"], 1024);
    assert_eq!(unpadded["accesses"][0]["ideal"], 32);
    // Every row is either conflict-free or a declared baseline.
    assert!(layouts
        .iter()
        .all(|l| l["verdict"] == "conflict-free" || l["verdict"] == "conflicts by design"));
    assert!(layouts
        .iter()
        .filter(|l| l["verdict"] == "conflicts by design")
        .all(|l| {
            let layout = l["layout"].as_str().unwrap();
            layout.contains("unswizzled") || layout.contains("padded")
        }));
    // A path that cannot be written is an error, exit 2.
    let bad = swz("report --layout-only --json /nonexistent/dir/r.json");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr)
        .starts_with("swz: --json: cannot write /nonexistent/dir/r.json"));
}

/// `swz bench gemm` runs the mma.sync GEMM family and then the Hopper (TMA + wgmma) GEMM: `--list` shows the
/// plan without a GPU, with the sizes `--sizes N` means for each (cubes) and the filters applied.
#[test]
fn bench_gemm_plan_includes_the_hopper_rows() {
    let text = accepted("bench gemm --list --sizes 4096,8192");
    let gemm = text
        .find("\ngemm: ")
        .or(text.starts_with("gemm: ").then_some(0));
    let hopper = text.find("\nhopper: ");
    assert!(
        matches!((gemm, hopper), (Some(g), Some(h)) if g < h),
        "{text}"
    );
    let hopper_part = &text[hopper.unwrap()..];
    assert!(
        hopper_part.contains("at 4096x4096x4096, 8192x8192x8192"),
        "{text}"
    );
    for row in [
        "hopper-128x256x64-s4-SW128-c2-stsm bf16",
        "hopper-128x256x64-s4-SW128-c2-stsm f16",
    ] {
        assert!(hopper_part.contains(row), "{row} missing:\n{text}");
    }
    // The element filter applies to both families; `swz bench hopper` alone has no gemm rows.
    let bf16 = String::from_utf8(swz("bench gemm --list --elem bf16").stdout).unwrap();
    assert!(
        bf16.contains("SW128-c2-stsm bf16") && !bf16.contains("SW128-c2-stsm f16"),
        "{bf16}"
    );
    let alone = String::from_utf8(swz("bench hopper --list").stdout).unwrap();
    assert!(
        alone.starts_with("hopper: ") && !alone.contains("\ngemm: "),
        "{alone}"
    );
}

/// `--sizes` is a length for the 1D stencil family: the benchmark's 2^27 is accepted (it was refused as > 65536).
#[test]
fn bench_sizes_reach_1d_lengths() {
    let out = swz("bench stencil --sizes 134217728 --elem f32 --list");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(
        text.starts_with("stencil: ") && text.contains("at 1x134217728"),
        "{text}"
    );
    let zero = swz("bench stencil --sizes 0 --list");
    assert_eq!(zero.status.code(), Some(2));
}
