//! The GPU subcommands (`bench`, `tune`, `verify`, `profile`, `ptxas`) without a GPU: listings and the ncu
//! commands work, argument mistakes are one line and exit 2 before any GPU is touched, and a machine without a
//! driver gets "no CUDA driver found" (one line, exit 2).
mod common;
use common::{swz, Argv};
use std::process::Output;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Exit 2 with one stderr line `swz: ...` containing `needle`.
fn refused(args: &(impl Argv + ?Sized), needle: &str) {
    common::fails(2, args, needle);
}

#[test]
fn verify_list_names_every_registered_family_without_a_gpu() {
    let o = swz("verify all --list");
    assert!(o.status.success());
    let text = stdout(&o);
    let names: Vec<&str> = text.lines().filter_map(|l| l.split(':').next()).collect();
    let want: Vec<&str> = gpu_kernels::registry::FAMILIES
        .iter()
        .map(|f| f.name())
        .collect();
    assert_eq!(names, want);
    for name in ["transpose", "fragments", "stencil", "gemm", "hopper"] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
}

#[test]
fn bench_list_takes_gemm_shapes_and_refuses_them_for_a_2d_family() {
    let text = common::accepted("bench gemm --shapes 4096x4096x1024 --list");
    // The GEMM and its companion, the Hopper GEMM, both at the shape given.
    assert!(
        text.lines()
            .any(|l| l.starts_with("gemm: ") && l.contains("4096x4096x1024")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("hopper: ") && l.contains("4096x4096x1024")),
        "{text}"
    );
    refused("bench transpose --shapes 64x64x64 --list", "not MxNxK");
    refused("bench gemm --shapes 64x64 --list", "MxNxK");
}

/// At a named shape the Hopper GEMM runs the spec swizzle-core's planner picks; `--list` shows it with the
/// prediction, without a GPU, and the default sizes still list the shipped spec.
#[test]
fn bench_list_shows_the_planned_hopper_spec_per_shape() {
    let text = common::accepted("bench hopper --shapes 16x4096x4096,8192x8192x8192 --list");
    let planned: Vec<&str> = text.lines().filter(|l| l.starts_with("  at ")).collect();
    assert_eq!(planned.len(), 4, "{text}");
    // 16 tokens: 16 tiles of 128x256 would idle most SMs; the plan takes 64-row tiles (split along K when the
    // tiles alone are too few).
    let small = planned
        .iter()
        .find(|l| l.starts_with("  at 16x4096x4096: ") && l.contains(" bf16 "))
        .expect("bf16 at 16x4096x4096");
    assert!(
        small.contains("hopper-64x") && small.contains("planned for h100: "),
        "{small}"
    );
    assert!(small.contains(" us predicted, bound: "), "{small}");
    // Only the planned specs run at named shapes: no unplanned spec line.
    assert!(!text.lines().any(|l| l.starts_with("  hopper-")), "{text}");
    let o = swz("bench hopper --list");
    assert_eq!(
        stdout(&o).lines().skip(1).collect::<Vec<_>>(),
        [
            "  hopper-128x256x64-s4-SW128-c2-stsm bf16",
            "  hopper-128x256x64-s4-SW128-c2-stsm f16"
        ]
    );
    refused(
        "bench hopper --shapes 16x4096x4095 --list",
        "K must be a multiple of 8",
    );
    let o = swz("bench gemm --shapes 128x4096x4096 --list --elem f16");
    let text = stdout(&o);
    assert!(
        text.lines()
            .any(|l| l.starts_with("  at 128x4096x4096: hopper-") && l.contains(" f16 ")),
        "{text}"
    );
    assert!(
        !text
            .lines()
            .any(|l| l.starts_with("  ") && l.contains(" bf16")),
        "{text}"
    );
}

#[test]
fn tune_hopper_shapes_argument_mistakes_are_one_line() {
    refused("tune hopper shapes", "--shapes MxNxK,... or --llm");
    refused(
        "tune hopper shapes --shapes 16x4096x4095",
        "not a multiple of 8",
    );
    refused("tune hopper shapes --shapes 16x4096", "MxNxK");
    refused("tune hopper shapes --llm --dtypes fp32", "bf16 or fp16");
    refused("tune hopper shapes --llm --rounds 0", "--rounds");
    refused("tune hopper headline --llm", "--llm is for");
    refused("tune hopper sweep --json x.json", "--json is for");
    refused("tune hopper shapes --llm --out d", "not --out");
}

#[test]
fn profile_helpers_print_what_ncu_needs_without_a_gpu() {
    let o = swz("profile transpose entries");
    assert!(o.status.success());
    let regex = stdout(&o);
    assert!(
        regex.starts_with("^(") && regex.trim_end().ends_with(")$"),
        "{regex}"
    );
    let metrics = stdout(&swz("profile transpose metrics"));
    assert!(
        metrics.contains("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
        "{metrics}"
    );
    assert!(
        !metrics.trim_end().contains(char::is_whitespace),
        "{metrics:?}"
    );
    assert_eq!(
        stdout(&swz("profile transpose builds")).trim(),
        "shipped smem-only one-block"
    );
    // The fragment problems are compared per problem, with their own metrics (ldmatrix instructions included).
    assert_eq!(stdout(&swz("profile fragments builds")).trim(), "shipped");
    assert!(stdout(&swz("profile fragments metrics")).contains("smsp__inst_executed_op_ldsm.sum"));
}

#[test]
fn profile_compare_reads_csvs_without_a_gpu_and_refuses_bad_ones() {
    refused("profile nope entries", "unknown kernel family \"nope\"");
    refused(
        "profile transpose compare /nonexistent/kernel.csv",
        "/nonexistent/kernel.csv",
    );
    let dir = common::scratch("gpu-tools");
    let csv = dir.join("empty.csv");
    std::fs::write(&csv, "==PROF== nothing profiled\n").unwrap();
    refused(
        &common::cmd("profile transpose compare", &[csv.to_str().unwrap()]),
        "no ncu CSV header",
    );
    // A CSV with one launch where the family profiles several.
    std::fs::write(
        &csv,
        "\"ID\",\"Kernel Name\",\"Block Size\",\"Metric Name\",\"Metric Value\"\n\
         \"0\",\"k\",\"(32, 8, 1)\",\"smsp__inst_executed_op_shared_ld.sum\",\"1\"\n",
    )
    .unwrap();
    refused(
        &common::cmd("profile transpose compare", &[csv.to_str().unwrap()]),
        "profiled launches, expected",
    );
    let _ = std::fs::remove_dir_all(&dir);
    refused(
        "profile fragments run --build smem-only",
        "fragments has no smem-only build (it has: shipped)",
    );
}

#[test]
fn profile_lists_and_runs_only_the_builds_a_family_has() {
    // Only the transpose has a shared-memory-only build; the others are profiled as shipped.
    for f in gpu_kernels::registry::FAMILIES {
        let name = f.name();
        let want = if name == "transpose" {
            "shipped smem-only one-block"
        } else {
            "shipped"
        };
        assert_eq!(
            stdout(&swz(&format!("profile {name} builds"))).trim(),
            want,
            "{name}"
        );
        if name != "transpose" {
            // Refused before any GPU is opened: the same one line with or without a driver.
            for build in ["smem-only", "one-block"] {
                refused(
                    &format!("profile {name} run --build {build}"),
                    &format!("{name} has no {build} build (it has: shipped)"),
                );
            }
        }
    }
}

#[test]
fn tune_argument_mistakes_are_one_line_before_any_gpu_work() {
    refused("tune", "");
    refused("tune gemm rounds --shapes 8192x8192", "MxNxK");
    refused("tune gemm rounds --specs t1x1", "no GEMM spec \"t1x1\"");
    refused("tune gemm bench --b nt", "nn or tn");
    refused("tune gemm bench --dtypes fp32", "fp16 or bf16");
    refused("tune gemm diag 4096x4096x4096", "SPECS");
    refused(
        "tune gemm burst 4096x4096x4096 --no-peers",
        "--no-peers needs",
    );
    refused(
        "tune gemm check --filter no-such-variant",
        "no GEMM variant",
    );
    refused("tune hopper fastest", "fastest");
    refused("tune stencil --types fp64", "unknown value type");
    refused("tune stencil --only nope", "no stencil variant");
    refused("tune stencil --k 0", "radius");
    refused("verify nope", "unknown kernel family");
    refused("ptxas nope", "unknown kernel family");
    refused("ptxas gemm --filter no-such-variant", "no gemm variant");
}

/// Without a driver every GPU subcommand says so in one line and exits 2; with one, the cheap ones run.
#[test]
fn without_a_driver_each_gpu_subcommand_says_so_in_one_line() {
    if gpu_kernels::gpu_available() {
        let o = swz("verify transpose --first-size");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(stdout(&o).contains("specs verified on"));
        return;
    }
    for args in [
        "verify transpose",
        "verify all --first-size",
        "profile transpose run",
        "profile fragments run",
        "bench gemm --shapes 256x256x256",
        "tune gemm rounds",
        "tune gemm check",
        "tune hopper headline --rounds 1",
        "tune hopper shapes --llm",
        "bench hopper --shapes 16x4096x4096",
        "tune stencil",
    ] {
        refused(args, "no CUDA driver found");
    }
}
