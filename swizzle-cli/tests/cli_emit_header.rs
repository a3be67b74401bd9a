//! `swz emit-header` through the real binary: the same text as the library API, to stdout or `-o FILE`, with named
//! specs; bad input is one line and exit 2.
mod common;
use common::swz;
use swizzle_core::cuda::Header;
use swizzle_core::raster::Raster;
use swizzle_core::Swizzle;

#[test]
fn stdout_and_file_match_the_library() {
    let out = swz("emit-header");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        swizzle_core::cuda::header()
    );

    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_emit_header.cuh");
    let args = [
        "emit-header",
        "-o",
        path.to_str().unwrap(),
        "--swizzle",
        "SmemA=3,3,3",
        "--swizzle",
        "SmemB=SW64",
        "--unit",
        "bytes",
        "--raster",
        "GemmOrder=strip:4",
        "--raster",
        "Tr=diagonal",
        "--raster",
        "Cut=cutlass(log_tile=2)",
    ];
    let out = swz(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    let expected = Header::new()
        .swizzle("SmemA", Swizzle::new(3, 3, 3))
        .swizzle("SmemB", Swizzle::new(2, 4, 3))
        .raster("GemmOrder", Raster::Strip { tile: 4 })
        .raster("Tr", Raster::Diagonal)
        .raster("Cut", Raster::Cutlass { log_tile: 2 })
        .render();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected);
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let cases: [(&[&str], &str); 12] = [
        (
            &["--swizzle", "uint32_t=3,3,3"],
            "already defined by the header",
        ),
        (
            &["--swizzle", "gridDim=3,3,3"],
            "already defined by the header",
        ),
        (&["--swizzle", "_Foo=3,3,3"], "reserved for the compiler"),
        (&["--raster", "__x=morton"], "reserved for the compiler"),
        (&["--swizzle", "while=3,3,3"], "keyword"),
        (
            &["--swizzle", "A=3,3,3", "--guard", "SWZ_CUH_LIBRARY"],
            "--guard",
        ),
        (&["--swizzle", "A=3,3,2"], "|S| must be >= B"),
        (&["--swizzle", "A"], "expected NAME=VALUE"),
        (
            &["--swizzle", "Tile=3,3,3"],
            "already defined by the header",
        ),
        (&["--raster", "G=strip"], "needs a parameter"),
        (&["--raster", "G=zigzag:2"], "unknown raster order"),
        (
            &["--swizzle", "G=3,3,3", "--raster", "G=morton"],
            "named twice",
        ),
    ];
    for (args, needle) in cases {
        common::refused(&[&["emit-header"], args].concat(), needle);
    }
}

#[test]
fn guard_option_names_the_spec_guard() {
    let out = swz("emit-header --swizzle SmemA=3,3,3 --guard GEMM_SWZ_CUH");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("#ifndef SWZ_CUH_LIBRARY\n"));
    assert!(text.contains("#ifndef GEMM_SWZ_CUH\n#define GEMM_SWZ_CUH\n"));
    assert!(text.ends_with("#endif  // GEMM_SWZ_CUH\n"));
    assert!(!text.contains("SWZ_SPECS_"));
}
