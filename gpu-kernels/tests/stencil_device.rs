//! Every stencil variant against the host reference ([`stencil_host`]), fp32 and i32, on random inputs with a
//! poisoned output (and a poisoned guard after it): n from 1 to 2^27 + 13, n <= 2k included, several k.
//!
//! Each (spec, k, type) is compiled once per process and run on every size.

use gpu_kernels::elem::table_name;
use gpu_kernels::runtime::compile;
use gpu_kernels::stencil::{Check, StencilSpec, Value, MAX_RADIUS, SPECS, TYPES};
use gpu_kernels::Elem;
use gpu_kernels::Gpu;

mod common;
use common::gpu;

/// Run every spec at every radius of `radii` on every size of `sizes`; the failures, one line each.
fn check<V: Value>(
    gpu: &Gpu,
    sizes: &[usize],
    radii: &[u32],
    specs: &[StencilSpec],
) -> Vec<String> {
    let t0 = std::time::Instant::now();
    let mut checks: Vec<Check<V>> = sizes
        .iter()
        .map(|&n| Check::new(gpu, n).unwrap_or_else(|e| panic!("n={n} setup: {e}")))
        .collect();
    let mut failures = Vec::new();
    let mut runs = 0;
    for &k in radii {
        for s in specs.iter().filter(|s| s.supports(k)) {
            let kernel = match s.prepare(gpu, V::ELEM, k) {
                Ok(kernel) => kernel,
                Err(e) => {
                    failures.push(format!("{} {} k={k}: {e}", s.name, table_name(V::ELEM)));
                    continue;
                }
            };
            for c in checks.iter_mut() {
                runs += 1;
                if let Err(e) = c.run(gpu, s, &kernel, k) {
                    failures.push(e.to_string());
                }
            }
        }
    }
    eprintln!(
        "{}: {runs} runs on sizes {sizes:?}, k {radii:?}: {} failed, {:.1} s",
        table_name(V::ELEM),
        failures.len(),
        t0.elapsed().as_secs_f64()
    );
    failures
}

fn assert_none(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Sizes around every edge: n <= 2k (no output), one output, partial warps and blocks, a few blocks of every P.
const SMALL: [usize; 16] = [
    1, 2, 3, 4, 5, 31, 32, 33, 34, 255, 1000, 2049, 4097, 8191, 65_543, 1_000_003,
];
/// Radii for every size: the ends, odd ones and one that leaves a P = 4 or 8 window ragged.
const RADII: [u32; 6] = [1, 2, 3, 5, 8, 16];

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn stencil_small_sizes_fp32() {
    assert_none(check::<f32>(&gpu(), &SMALL, &RADII, &SPECS));
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn stencil_small_sizes_i32() {
    assert_none(check::<i32>(&gpu(), &SMALL, &RADII, &SPECS));
}

/// The radii 1..=16 the small-size tests leave out, on a size that is no multiple of any tile: with those,
/// every radius runs.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn stencil_other_radii_fp32() {
    let radii: Vec<u32> = (1..=MAX_RADIUS).filter(|k| !RADII.contains(k)).collect();
    assert_none(check::<f32>(&gpu(), &[77_777, 1_000_003], &radii, &SPECS));
}

/// The largest size, 2^27 + 13 (the article's 2^27, not a multiple of any block's outputs).
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn stencil_2e27_plus_13() {
    let gpu = gpu();
    let mut f = check::<f32>(&gpu, &[(1 << 27) + 13], &[1, 16], &SPECS);
    f.extend(check::<i32>(&gpu, &[(1 << 27) + 13], &[2, 16], &SPECS));
    assert_none(f);
}

/// The sanitizer's pass (compute-sanitizer memcheck and racecheck run this one): every variant, a few radii,
/// sizes with partial blocks.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn sanitizer_pass_stencil() {
    let gpu = gpu();
    let mut f = check::<f32>(&gpu, &[5, 3001], &[1, 5, 16], &SPECS);
    f.extend(check::<i32>(&gpu, &[3001], &[3], &SPECS));
    assert_none(f);
}

/// The check can fail: a kernel compiled for one radius and launched as another is caught, with the first wrong
/// element named.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn a_wrong_kernel_is_caught() {
    let gpu = gpu();
    let s = gpu_kernels::stencil::SHFL_P4;
    let kernel = s.prepare(&gpu, Elem::F32, 2).unwrap();
    let mut c = Check::<f32>::new(&gpu, 10_000).unwrap();
    c.run(&gpu, &s, &kernel, 2).unwrap();
    let e = c.run(&gpu, &s, &kernel, 3).unwrap_err().to_string();
    assert!(
        e.contains("outputs wrong") && e.contains("first at 0"),
        "{e}"
    );
}

/// Every (spec, k, type) compiles with NVRTC for sm_90, and ptxas reports no local memory (a register array
/// indexed at run time would land there). Needs only libnvrtc.
#[test]
#[ignore = "needs libnvrtc (CUDA 13)"]
fn every_stencil_variant_compiles_for_sm90_without_local_memory() {
    assert!(gpu_kernels::nvrtc_available(), "libnvrtc.so.13 not found");
    let mut n = 0;
    for v in TYPES {
        for s in SPECS {
            for k in (1..=MAX_RADIUS).filter(|&k| s.supports(k)) {
                let opts = ["--ptxas-options=-v".to_string()];
                let out = compile(&s.source(v, k), "sm_90", &opts)
                    .unwrap_or_else(|e| panic!("{} {v} k={k}: {e}", s.name));
                for l in out.log.lines().filter(|l| l.contains("bytes stack frame")) {
                    assert!(
                        l.contains(" 0 bytes stack frame") && l.contains(" 0 bytes spill stores"),
                        "{} {v} k={k}: {l}",
                        s.name
                    );
                }
                if k == 1 || k == MAX_RADIUS {
                    let regs: Vec<&str> = out
                        .log
                        .lines()
                        .filter(|l| l.contains("registers"))
                        .collect();
                    println!("{} {v} k={k}: {}", s.name, regs.join(" ").trim());
                }
                n += 1;
            }
        }
    }
    assert!(n > 300, "{n}");
}
