//! `swz l2` and `swz raster --svg` through the real binary: the JSON carries the model's numbers, `--order all`
//! ranks every order by DRAM bytes, the flags override the device preset, the pictures are written, and bad input
//! is one line on stderr with exit 2.
mod common;
use common::{accepted, json, swz};

/// A GEMM whose A and B fit in L2 reads each once: DRAM = 2 * 512 * 512 * 4 bytes, whatever the order.
#[test]
fn small_gemm_reads_compulsory_bytes() {
    for order in ["identity", "strip:4", "group-m:8", "cutlass:2"] {
        let v = json(&["l2", "--gemm", "512x512x512", "--order", order, "--json"]);
        assert_eq!(v["dram_read_bytes"], 2 * 512 * 512 * 4, "{order}");
        assert_eq!(v["compulsory_bytes"], 2 * 512 * 512 * 4);
        let hit = v["l2_hit_rate"].as_f64().unwrap();
        assert!(hit > 0.9 && hit < 1.0, "{order}: {hit}");
    }
}

/// The flags reach the model: an L2 of one 4 KiB chunk on one SM misses every load (the store of C then
/// evicts it), so DRAM = L2 requests = 2 chunks per K step per block.
#[test]
fn flags_override_the_device() {
    let v = json(
        "l2 --gemm 64x64x64 --tile 32x32x32 --elem f32 --order identity --sms 1 --resident 1 \
         --l2-bytes 4KiB --partitions 1 --json",
    );
    assert_eq!(v["sms"], 1);
    assert_eq!(v["l2_bytes"], 4096);
    assert_eq!(v["dram_read_bytes"], 4 * 2 * 2 * 4096);
    assert_eq!(v["dram_read_bytes"], v["l2_read_bytes"]);
    let h200 = json("l2 --gemm 64x64x64 --order identity --device h200 --json");
    assert_eq!(h200["l2_bytes"], 60u64 << 20);
    assert_eq!(h200["sms"], 132);
}

/// `--order all` ranks the study's orders (Morton included on a power-of-two grid), fewest DRAM bytes first,
/// and identity is far behind strip 4 on 4096^3 (the article's result).
#[test]
fn order_all_ranks_every_order() {
    let v = json("l2 --gemm 4096x4096x4096 --order all --json");
    let orders = v["orders"].as_array().unwrap();
    assert_eq!(orders.len(), 14);
    let bytes: Vec<u64> = orders
        .iter()
        .map(|o| o["dram_read_bytes"].as_u64().unwrap())
        .collect();
    assert!(bytes.windows(2).all(|w| w[0] <= w[1]), "{bytes:?}");
    let of = |name: &str| {
        orders.iter().find(|o| o["order"] == name).unwrap()["dram_read_bytes"]
            .as_u64()
            .unwrap()
    };
    assert!(of("identity") > 3 * of("strip(tile=4)"));
    // A grid Morton cannot run on: it is left out of `all`, and refused alone.
    let v = json("l2 --gemm 96x96x32 --order all --json");
    assert_eq!(v["orders"].as_array().unwrap().len(), 13);
    let out = swz("l2 --gemm 96x96x32 --order morton");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn pictures_are_written() {
    let dir = common::scratch("l2");
    let bars = dir.join("bars.svg");
    accepted(&common::cmd(
        "l2 --gemm 1024x1024x128 --order all --svg",
        &[bars.to_str().unwrap()],
    ));
    let svg = std::fs::read_to_string(&bars).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("group-m(group=8)") && svg.contains("compulsory")
    );
    let grid = dir.join("grid.svg");
    let text = accepted(&common::cmd(
        "raster --order strip:4 --grid 8x8 --sms 3 --resident 2 --svg",
        &[grid.to_str().unwrap()],
    ));
    assert_eq!(text.lines().count(), 64);
    let svg = std::fs::read_to_string(&grid).unwrap();
    assert!(svg.contains("the first wave (6 blocks)") && svg.contains(">63</text>"));
    std::fs::remove_dir_all(&dir).ok();
}

/// Bad input: one line on stderr naming the flag, exit 2.
#[test]
fn bad_input_is_one_line_and_exit_2() {
    for (args, needle) in [
        (vec!["--gemm", "4096x4096", "--order", "identity"], "--gemm"),
        (
            vec!["--gemm", "64x64x64", "--order", "strip"],
            "needs a parameter",
        ),
        (
            vec!["--gemm", "64x64x64", "--order", "zigzag"],
            "unknown raster order",
        ),
        (
            vec![
                "--gemm", "64x64x64", "--order", "identity", "--device", "a100",
            ],
            "--device",
        ),
        (
            vec![
                "--gemm",
                "64x64x64",
                "--order",
                "identity",
                "--l2-bytes",
                "50MB",
            ],
            "--l2-bytes",
        ),
        (
            vec!["--gemm", "64x64x64", "--order", "identity", "--sms", "0"],
            "SM count",
        ),
        (
            vec![
                "--gemm", "64x64x64", "--order", "identity", "--tile", "32x0x32",
            ],
            "--tile",
        ),
        (
            vec!["--gemm", "64x64x64", "--order", "identity", "--elem", "f17"],
            "--elem",
        ),
        (
            vec![
                "--gemm",
                "64x64x64",
                "--order",
                "identity",
                "--schedule",
                "101",
            ],
            "--schedule",
        ),
    ] {
        let out = swz(&[&["l2"], &args[..]].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
    let out = swz("raster --order identity --grid 4x4 --svg /nonexistent/dir/x.svg");
    assert_eq!(out.status.code(), Some(2));
}
