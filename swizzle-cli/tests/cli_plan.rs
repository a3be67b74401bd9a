//! `swz plan gemm` through the real binary: the plan is printed with its time and bound, the JSON carries the
//! model's numbers, every variant offered is one the kernel runs, the device and dtype flags work, and bad shapes
//! are one `swz:` line with exit 2.
mod common;
use common::{cmd, json, swz};

#[test]
fn prints_the_plan_its_bound_and_the_runners_up() {
    let out = swz("plan gemm 16x4096x4096 --top 3");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("gemm 16x4096x4096 bf16 on h100\nplan: "),
        "{text}"
    );
    assert!(text.contains("bound: HBM bytes"), "{text}");
    assert!(
        text.contains("shipped kernel (128x256x64 4st cluster2"),
        "{text}"
    );
    let runners = text.split("runners-up:\n").nth(1).unwrap();
    assert_eq!(runners.lines().count(), 3, "{text}");
    assert!(
        runners
            .lines()
            .all(|l| l.contains('%') && l.contains("bound: ")),
        "{text}"
    );
}

/// A decode shape: the plan is HBM-bound and over twice as fast as the shipped kernel (which leaves most SMs
/// idle); a big square plans the shipped tile without the multicast pair.
#[test]
fn json_compares_the_plan_with_the_shipped_kernel() {
    let v = json("plan gemm 16x4096x4096 --json");
    let best = &v["best"];
    assert_eq!(best["bound"], "HBM bytes");
    let (t, shipped) = (
        best["time_s"].as_f64().unwrap(),
        v["shipped"]["time_s"].as_f64().unwrap(),
    );
    assert!(t > 0.0 && 2.0 * t < shipped, "{t} vs {shipped}");
    assert!(t >= v["hbm_floor_s"].as_f64().unwrap() * 0.999);
    assert_eq!(v["runners_up"].as_array().unwrap().len(), 5);
    // A big square: the shipped tile without the multicast pair (a lone CTA does not wait for a partner SM).
    let sq = json("plan gemm 8192x8192x8192 --json");
    assert_eq!(
        sq["best"]["variant"],
        "128x256x64 4st cluster1 split1 group-m(group=16)"
    );
}

/// The planner offers only what the kernel runs: no stream-K, no swapped (`Cᵀ = W·Xᵀ`) variant, no split over
/// 8 parts or with the multicast pair, nothing marked unbuilt, and `--implemented` (once the filter) is gone.
#[test]
fn every_variant_offered_runs() {
    for shape in [
        "16x4096x4096",
        "1x8x4096",
        "128x6144x4096",
        "8192x8192x8192",
    ] {
        let out = swz(&["plan", "gemm", shape, "--top", "1000"]);
        assert!(out.status.success(), "{shape}");
        let text = String::from_utf8(out.stdout).unwrap();
        for gone in ["not implemented", "stream-k", "swap", "split16", "split32"] {
            assert!(!text.contains(gone), "{shape}: {gone}\n{text}");
        }
        assert!(!text.contains("cluster2 split2"), "{shape}\n{text}");
        let v = json(&["plan", "gemm", shape, "--top", "1000", "--json"]);
        for e in std::iter::once(&v["best"]).chain(v["runners_up"].as_array().unwrap()) {
            assert!(
                e.get("swap").is_none() && e.get("stream_k").is_none(),
                "{e}"
            );
            let (cluster, split) = (e["cluster"].as_u64().unwrap(), e["split"].as_u64().unwrap());
            assert!(split <= 8 && (split == 1 || cluster == 1), "{e}");
        }
    }
    let out = swz("plan gemm 16x4096x4096 --implemented");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn device_and_dtype_flags() {
    let h100 = json("plan gemm 16x8192x28672 --json");
    let h200 = json("plan gemm 16x8192x28672 --device h200 --dtype f16 --json");
    assert_eq!(h200["device"], "h200");
    assert_eq!(h200["dtype"], "f16");
    // Memory-bound: the H200's faster HBM plans faster.
    assert!(h200["best"]["time_s"].as_f64().unwrap() < h100["best"]["time_s"].as_f64().unwrap());
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for (args, says) in [
        ("plan gemm 0x4096x4096", "M must be >= 1"),
        ("plan gemm 16x4096x4100", "K must be a multiple of 8"),
        ("plan gemm 16x4096", "MxNxK"),
        ("plan gemm banana", "MxNxK"),
        ("plan gemm 99999999999x8x8", "above 1048576 (2^20)"),
        ("plan gemm 16x16x16 --dtype f32", "--dtype"),
        ("plan gemm 16x16x16 --device a100", "--device"),
        ("plan gemm", "MxNxK"),
        ("plan", "subcommand"),
    ] {
        common::refused(args, says);
    }
}

/// e4m3: the K step is 128 (one 128-byte row), a tensor-bound square takes about half the bf16 time (twice the
/// rate), an HBM-bound decode shape a bit over half (half the operand bytes, the same bf16 C), and per-row or
/// per-block scaling adds its fp32 scale bytes to the read.
#[test]
fn e4m3_plans_at_twice_the_rate_with_half_the_bytes_and_counts_scales() {
    let bf = json("plan gemm 8192x8192x8192 --json");
    let fp8 = json("plan gemm 8192x8192x8192 --dtype e4m3 --json");
    assert_eq!(
        (fp8["dtype"].clone(), fp8["scale"].clone()),
        ("e4m3".into(), "tensor".into())
    );
    assert_eq!(fp8["best"]["bk"], 128);
    assert_eq!(fp8["shipped"]["bk"], 128);
    let (t8, t16) = (
        fp8["best"]["time_s"].as_f64().unwrap(),
        bf["best"]["time_s"].as_f64().unwrap(),
    );
    assert!(t8 > 0.45 * t16 && t8 < 0.55 * t16, "{t8} vs {t16}");
    let decode = |scale: &str| {
        json(&cmd(
            "plan gemm 16x4096x14336 --dtype e4m3 --json --scale",
            &[scale],
        ))
    };
    let bf_dec = json("plan gemm 16x4096x14336 --json");
    let (tensor, row, block) = (decode("tensor"), decode("row"), decode("block"));
    let floor = |v: &serde_json::Value| v["hbm_floor_s"].as_f64().unwrap();
    assert!(floor(&tensor) < 0.55 * floor(&bf_dec) && floor(&tensor) > 0.45 * floor(&bf_dec));
    // Row: 4 (M + N) bytes more; block: 4 (M K/128 + N/128 K/128) bytes more, both over the floor's bytes.
    let rate = 2.97e12;
    let extra = |v: &serde_json::Value| (floor(v) - floor(&tensor)) * rate;
    assert!(
        (extra(&row) - 4.0 * (16.0 + 4096.0)).abs() < 64.0,
        "{}",
        extra(&row)
    );
    assert!(
        (extra(&block) - 4.0 * (16.0 * 112.0 + 32.0 * 112.0)).abs() < 64.0,
        "{}",
        extra(&block)
    );
    let out = swz("plan gemm 16x4096x14336 --dtype e4m3 --scale row");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(
            "gemm 16x4096x14336 e4m3 (per-row scaling, 16.4 KB of scales, bf16 out) on h100\n"
        ),
        "{text}"
    );
}

#[test]
fn e4m3_bad_input_is_one_line_and_exit_2() {
    for (line, says) in [
        (
            "plan gemm 16x4096x4104 --dtype e4m3",
            "K must be a multiple of 16 for e4m3",
        ),
        (
            "plan gemm 16x4096x4096 --dtype e4m3 --scale col",
            "--scale: expected tensor, row or block",
        ),
        (
            "plan gemm 16x4096x4096 --scale row",
            "--scale applies to --dtype e4m3 only",
        ),
        // The FP8 bench checks its problems before it opens the GPU: no GPU is needed to be refused.
        (
            "bench gemm --dtype e4m3 --shapes 16x4096x4104",
            "K must be a multiple of 16 for e4m3",
        ),
        (
            "bench gemm --dtype e4m3 --shapes 16x4096x4096 --scale col",
            "--scale",
        ),
        ("bench gemm --dtype e4m3", "--shapes MxNxK or --llm"),
        ("bench gemm --llm", "--llm goes with --dtype e4m3"),
        ("bench gemm --dtype bf16 --llm", "--dtype: expected e4m3"),
        (
            "bench gemm --chain",
            "--chain takes its layers as --shapes MxNxK",
        ),
        (
            "bench gemm --chain --shapes 16x4096x4100",
            "K = 4100 is not a multiple of 8",
        ),
        (
            "bench gemm --chain --elem f32 --shapes 16x4096x4096",
            "expected bf16 or fp16",
        ),
        (
            "bench gemm --chain --elem bf16,f16 --shapes 16x4096x4096",
            "one element type",
        ),
        (
            "bench stencil --chain --shapes 16x4096x4096",
            "only the gemm and hopper families",
        ),
        ("bench gemm --dtype e4m3 --chain --llm", "not --llm"),
        (
            "bench gemm --dtype e4m3 --chain --shapes 16x4096x4096,16x4096x4104",
            "K must be a multiple of 16 for e4m3",
        ),
        (
            "bench gemm --candidates 2 --sizes 64",
            "--candidates goes with --dtype e4m3",
        ),
        (
            "bench gemm --dtype e4m3 --shapes 16x4096x4096 --candidates 9",
            "not in 0..=8",
        ),
        (
            "bench gemm --dtype e4m3 --chain --shapes 16x4096x4096 --candidates 1",
            "not --chain",
        ),
        (
            "bench gemm --l2-resident --sizes 64",
            "--l2-resident goes with --dtype e4m3",
        ),
        (
            "bench gemm --dtype e4m3 --chain --shapes 16x4096x4096 --l2-resident",
            "not --chain",
        ),
        (
            "bench gemm --back-to-back --sizes 64",
            "--back-to-back goes with --dtype e4m3",
        ),
        (
            "bench gemm --dtype e4m3 --chain --shapes 16x4096x4096 --back-to-back",
            "not --chain",
        ),
        (
            "bench gemm --sustained 2000 --sizes 64",
            "--sustained goes with --dtype e4m3",
        ),
        (
            "bench gemm --dtype e4m3 --shapes 8192x8192x8192 --passes 3",
            "--passes goes with --sustained",
        ),
        (
            "bench gemm --dtype e4m3 --shapes 8192x8192x8192 --sustained 2000 --back-to-back",
            "not interleaved rounds: drop --back-to-back",
        ),
        (
            "bench gemm --dtype e4m3 --shapes 8192x8192x8192 --sustained 50",
            "not in 100..=60000",
        ),
        (
            "bench gemm --dtype e4m3 --shapes 8192x8192x8192 --sustained 2000 --passes 21",
            "not in 1..=20",
        ),
    ] {
        common::refused(line, says);
    }
}

/// `--candidates N --list` names the plan and the next N kernel shapes by the model, one line each, without a
/// GPU; at 8192³ the plan is the 128x192 tile (five stages), which cuts the last partial wave of 128x256 and
/// ran faster than it on an H100.
#[test]
fn e4m3_runners_up_are_listed_after_the_plan() {
    let out = swz("bench gemm --dtype e4m3 --shapes 8192x8192x8192 --candidates 3 --list");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(
        lines[0].starts_with("at 8192x8192x8192 per-tensor: plan e4m3 per-tensor 128x192x128 5st"),
        "{text}"
    );
    assert!(lines[1..]
        .iter()
        .all(|l| l.starts_with("at 8192x8192x8192 per-tensor: runner-up e4m3 per-tensor ")));
    assert!(
        lines[1..].iter().any(|l| l.contains(" 128x256x128 4st ")),
        "{text}"
    );
}
