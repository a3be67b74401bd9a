//! A CUDA install that is there but broken: a `libcuda` and a `libnvrtc` that load and lack every CUDA function
//! (built here with the system C compiler, found first through `LD_LIBRARY_PATH` under every name cudarc tries
//! first). `report` falls back to the layout-only report and says why in one line; every other GPU subcommand
//! exits 2 with one line naming the library and the missing function. Never a panic.
use std::path::PathBuf;
use std::process::{Command, Output};

/// A folder holding `libcuda.so`, `libcuda.so.1`, `libnvrtc.so` and `libnvrtc.so.13`: one shared object with a
/// data symbol and nothing CUDA has, except `cuDeviceGet` (so the check cannot stop at the first lookup that
/// happens to be absent from an empty library).
fn broken_install() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("swz-broken-cuda-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("stub.c");
    std::fs::write(
        &src,
        "int swz_stub_has_no_cuda_functions = 1;\nint cuDeviceGet(void) { return 0; }\n",
    )
    .unwrap();
    let lib = dir.join("libcuda.so.1");
    let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-shared", "-fPIC", "-o"])
        .arg(&lib)
        .arg(&src)
        .status()
        .expect("the system C compiler (cc) builds the stub library");
    assert!(status.success());
    for name in ["libcuda.so", "libnvrtc.so", "libnvrtc.so.13"] {
        std::fs::copy(&lib, dir.join(name)).unwrap();
    }
    dir
}

fn swz_with(libs: &PathBuf, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_swz"))
        .args(args)
        .env("LD_LIBRARY_PATH", libs)
        .current_dir(libs)
        .output()
        .expect("run swz")
}

#[test]
fn a_broken_driver_or_nvrtc_is_one_line_never_a_panic() {
    let libs = broken_install();
    for (args, library, symbol) in [
        (&["bench", "transpose"][..], "libcuda.so", "cuInit"),
        (
            &["bench", "gemm", "--shapes", "256x256x256"],
            "libcuda.so",
            "cuInit",
        ),
        (&["verify", "transpose"], "libcuda.so", "cuInit"),
        (&["l2-study"], "libcuda.so", "cuInit"),
        (&["profile", "transpose", "run"], "libcuda.so", "cuInit"),
        (&["tune", "stencil"], "libcuda.so", "cuInit"),
        (&["tune", "hopper", "headline"], "libcuda.so", "cuInit"),
        (&["ptxas", "transpose"], "libnvrtc.so", "nvrtcVersion"),
        (&["ptxas", "gemm"], "libnvrtc.so", "nvrtcVersion"),
    ] {
        let out = swz_with(&libs, args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("swz: ")
                && err.contains(&format!("{library} loads but lacks {symbol}")),
            "{args:?}: {err}"
        );
    }
    // Nothing was created on the paths the refused commands named.
    for args in [
        &["ptxas", "transpose", "--cubins", "new/a/b"][..],
        &["tune", "hopper", "sweep", "--out", "new/dir"],
        &["tune", "hopper", "headline", "--out", "new/dir"],
    ] {
        let out = swz_with(&libs, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!libs.join("new").exists(), "{args:?} created new/");
    }

    let out = swz_with(&libs, &["report"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let why: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("lacks cuInit"))
        .collect();
    assert_eq!(
        why.len(),
        2,
        "the mode line and the last line say why: {why:?}"
    );
    assert!(
        why[0].starts_with("mode: no usable CUDA driver (libcuda.so loads but lacks cuInit")
            && why[0].ends_with("layout report only"),
        "{}",
        why[0]
    );
    assert!(text.contains("## Summary"));
    let _ = std::fs::remove_dir_all(&libs);
}
