//! The `.cu` sources read every layout and order number from the generated header: no file retypes a layout or
//! order formula (grepped below), and every transpose variant's source with its generated `struct Spec` is
//! well-formed C++ (`g++ -fsyntax-only` with a small CUDA shim; NVRTC builds the real thing on the device).
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

/// Every `.cu` under `gpu-kernels/src`.
fn cu_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "cu") {
                out.push(p);
            }
        }
    }
    let mut v = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut v);
    v.sort();
    v
}

/// Retyped formulas: a padded pitch, a hand-made launch order, a swizzle applied by hand, masks and shifts of a
/// swizzle, a raster reading blockIdx directly. (Comments are stripped first.)
const FORBIDDEN: [&str; 9] = [
    "(TILE + PAD)",
    "TILE + PAD",
    "* (TILE+PAD)",
    "blockIdx.y * gridDim.x + blockIdx.x",
    "blockIdx.y*gridDim.x+blockIdx.x",
    "::apply(",
    "Swizzle<",
    "yyy_msk",
    "raster_strip(blockIdx",
];

fn strip_comments(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn cu_sources_retype_no_formula() {
    let files = cu_files();
    assert!(!files.is_empty(), "no .cu files found");
    for f in &files {
        let code = strip_comments(&std::fs::read_to_string(f).unwrap());
        for bad in FORBIDDEN {
            assert!(
                !code.contains(bad),
                "{}: retypes a layout or order formula ({bad:?}): use the emitted Spec's Smem::offset / Order::here",
                f.display()
            );
        }
    }
    // The check can fire: the pre-frame transpose kernel had two of them.
    let old = "return TileSwz::apply(row * (TILE + PAD) + col);\n\
               return swz::raster_diagonal(blockIdx.y * gridDim.x + blockIdx.x, gridDim.x, gridDim.y);";
    let hits = FORBIDDEN.iter().filter(|b| old.contains(*b)).count();
    assert!(hits >= 2, "{hits}");
}

/// Kernel files hold the kernel's logic: every PTX wrapper and the integer typedefs live in the device headers
/// (`gpu-kernels/cuda/`), written once each.
#[test]
fn kernels_write_no_inline_ptx_and_no_typedefs() {
    let inline = |code: &str| {
        [
            "asm(",
            "asm volatile",
            "typedef unsigned int u32",
            "typedef unsigned long long u64",
        ]
        .into_iter()
        .filter(|bad| code.contains(bad))
        .map(str::to_string)
        .collect::<Vec<_>>()
    };
    for f in cu_files() {
        let code = strip_comments(&std::fs::read_to_string(&f).unwrap());
        assert!(
            inline(&code).is_empty(),
            "{}: {:?} belongs in a device header (gpu-kernels/cuda/)",
            f.display(),
            inline(&code)
        );
    }
    // The check can fire, and each wrapper is defined once across the device headers.
    assert_eq!(inline("asm volatile(\"ldmatrix\");").len(), 1);
    let mut defined = std::collections::HashMap::new();
    for (name, text) in gpu_kernels::runtime::DEVICE_HEADERS {
        for line in text.lines() {
            let Some(rest) = line.strip_prefix("__device__ __forceinline__ ") else {
                continue;
            };
            let f = rest.split('(').next().unwrap().rsplit(' ').next().unwrap();
            if let Some(other) = defined.insert(f.to_string(), name) {
                panic!("{f} is defined in {other} and {name}");
            }
        }
    }
    for f in [
        "ldsm_x4",
        "ldsm_x4_trans",
        "stsm_x4",
        "mma16816",
        "cp_async16",
        "mbar_wait",
        "tma_load_2d",
        "wgmma_fence",
    ] {
        assert!(defined.contains_key(f), "{f} is not in the device headers");
    }
}

#[test]
fn every_transpose_variant_is_well_formed_cpp() {
    use gpu_kernels::frame::Family;
    use gpu_kernels::transpose::family::TRANSPOSE;
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cu_sources");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let shim = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cuda_shim.h");
    let mut seen = std::collections::HashSet::new();
    let mut failures = Vec::new();
    for (i, v) in TRANSPOSE.specs().iter().enumerate() {
        let (src, opts) = TRANSPOSE.compile_unit(v);
        if !seen.insert((src.clone(), opts.clone())) {
            continue;
        }
        let d = dir.join(i.to_string());
        std::fs::create_dir_all(&d).unwrap();
        for h in gpu_kernels::runtime::nvrtc::with_device_headers(&src) {
            std::fs::write(d.join(&h.name), &h.text).unwrap();
        }
        let file = d.join(&src.name);
        std::fs::write(&file, &src.text).unwrap();
        for extra in [&[][..], &["-DSMEM_ONLY=1".to_string()][..]] {
            let out = Command::new("g++")
                .args(["-std=c++17", "-fsyntax-only", "-x", "c++", "-include"])
                .arg(&shim)
                .arg("-I")
                .arg(&d)
                .args(&opts)
                .args(extra)
                .arg(&file)
                .output()
                .expect("g++ is required for this test");
            if !out.status.success() {
                let err = String::from_utf8_lossy(&out.stderr);
                failures.push(format!("{v} ({opts:?} {extra:?}):\n{err}"));
            }
        }
    }
    common::assert_no_failures(&failures);
}
