//! The planner and the L2 model take problems within one stated bound (each of M, N, K and of `l2`'s tile sides
//! at most 2^20), refuse anything beyond it in one line before any work, and plan anything within it in well
//! under a second: one `MxNxK` parser for `plan`, `l2`, `l2-study`, `bench --shapes` and `tune --shapes`.
mod common;
use common::{swz, Argv};
use std::time::{Duration, Instant};

/// Exit 2 with exactly one `swz:` line on stderr containing `needle`, nothing on stdout, within a second.
fn refused_at_once(args: &(impl Argv + ?Sized), needle: &str) {
    let start = Instant::now();
    common::refused(args, needle);
    let took = start.elapsed();
    assert!(took < Duration::from_secs(2), "{:?}: {took:?}", args.argv());
}

#[test]
fn shapes_beyond_the_bound_are_refused_before_any_work() {
    for shape in [
        "4096x4294967295x2048",
        "1x1x4294967288",
        "4294967295x4294967295x4294967288",
        "1048577x8x8",
        "8x8x99999999999999999999999",
    ] {
        refused_at_once(&["plan", "gemm", shape], "above 1048576 (2^20)");
        // The same parser, the same message, wherever a shape is named; without a GPU, before looking for one.
        refused_at_once(
            &["bench", "gemm", "--shapes", shape, "--list"],
            "above 1048576",
        );
        refused_at_once(&["bench", "hopper", "--shapes", shape], "above 1048576");
        refused_at_once(
            &["tune", "hopper", "shapes", "--shapes", shape],
            "above 1048576",
        );
        refused_at_once(
            &["l2", "--gemm", shape, "--order", "strip:4"],
            "above 1048576",
        );
        refused_at_once(&["l2-study", "--shapes", shape], "above 1048576");
    }
    refused_at_once("l2 --gemm 4294967295x4294967295x4294967295 --tile 4294967295x4294967295x4294967295 --order strip:4",
        "above 1048576",
    );
    refused_at_once(
        "l2 --gemm 4096x4096x4096 --tile 32x2000000x32 --order strip:4",
        "--tile: BN = 2000000 is above 1048576",
    );
    // The model's machine is bounded too: an L2 beyond any GPU's is refused, not wrapped.
    for bytes in ["16000000000GiB", "18446744073709551615", "2TiB"] {
        refused_at_once(
            &[
                "l2",
                "--gemm",
                "4096x4096x4096",
                "--order",
                "strip:4",
                "--l2-bytes",
                bytes,
            ],
            "--l2-bytes",
        );
    }
    // One rule for every spelling of a side: zero, signs, junk and a fourth side are refused alike.
    for (shape, says) in [
        ("0x8x8", "M must be >= 1"),
        ("8x0x8", "N must be >= 1"),
        ("8x+1x8", "MxNxK"),
        ("8x-1x8", "MxNxK"),
        ("8x8x8x8", "MxNxK"),
        ("8x8", "MxNxK"),
        ("", "MxNxK"),
    ] {
        refused_at_once(&["plan", "gemm", shape], says);
        refused_at_once(&["l2", "--gemm", shape, "--order", "strip:4"], says);
        refused_at_once(&["bench", "gemm", "--shapes", shape, "--list"], says);
    }
}

/// The largest accepted problems plan in well under a second each (0.2-0.7 s on the build machine's debug build)
/// and print figures a device can reach: no rate above the H100's peak, no wrapped byte count.
#[test]
fn the_largest_accepted_problems_plan_quickly_with_real_figures() {
    for shape in [
        "1048576x1048576x1048576",
        "16x1048576x1048576",
        "1048576x1048576x8",
        "1x1x1048576",
        "4096x1048576x2048",
    ] {
        let start = Instant::now();
        let out = swz(&["plan", "gemm", shape, "--json"]);
        let took = start.elapsed();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{shape}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // A loaded 2-core CI runner gets room; unbounded, these took minutes and gigabytes.
        assert!(took < Duration::from_secs(5), "{shape}: {took:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let dims: Vec<f64> = shape.split('x').map(|d| d.parse().unwrap()).collect();
        let (m, n, k) = (dims[0], dims[1], dims[2]);
        for e in [&v["best"], &v["shipped"]] {
            let tflops = e["tflops"].as_f64().unwrap();
            assert!(tflops > 0.0 && tflops <= 868.0, "{shape}: {tflops} TFLOP/s");
            let read = e["dram_read_bytes"].as_f64().unwrap();
            let written = e["dram_write_bytes"].as_f64().unwrap();
            assert!(read >= (m + n) * k * 2.0, "{shape}: read {read}");
            assert!(read < 1e16, "{shape}: read {read}");
            assert_eq!(written, m * n * 2.0, "{shape}");
        }
    }
}

/// A shape named many times is planned once: 10,000 copies cost what one does.
#[test]
fn repeated_shapes_are_planned_once() {
    let many = vec!["16x4096x4096"; 10_000].join(",");
    let start = Instant::now();
    let out = swz(&["bench", "hopper", "--shapes", &many, "--list"]);
    let took = start.elapsed();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let planned = text
        .lines()
        .filter(|l| l.contains("at 16x4096x4096:"))
        .count();
    let once = swz("bench hopper --shapes 16x4096x4096 --list");
    let once = String::from_utf8(once.stdout).unwrap();
    assert_eq!(
        planned,
        once.lines()
            .filter(|l| l.contains("at 16x4096x4096:"))
            .count(),
        "{text}"
    );
    assert!(!text.contains("16x4096x4096, 16x4096x4096"), "{text}");
    assert!(took < Duration::from_secs(5), "{took:?}");
}
