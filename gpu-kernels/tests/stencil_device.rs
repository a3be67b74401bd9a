//! Every stencil variant against the host reference ([`stencil_host`]), fp32 and i32, through the frame's
//! verification ([`verify_cases`]): random inputs ([`random_input`]), a poisoned output and a poisoned guard after
//! it, compared bit for bit; n from 1 to 2^27 + 13, several k. Where n <= 2k there is no output, and the launch is
//! refused rather than queued.
//!
//! Each (spec, k, type) is compiled once per process (the module cache) and run on every size.
//!
//! [`stencil_host`]: gpu_kernels::stencil::stencil_host
//! [`random_input`]: gpu_kernels::stencil::random_input

use gpu_kernels::elem::table_name;
use gpu_kernels::frame::verify::{verify, verify_cases};
use gpu_kernels::frame::{Buffer, Family, HostBuf, Identity, Launch};
use gpu_kernels::runtime::{compile, Source};
use gpu_kernels::stencil::family::{Variant, STENCIL};
use gpu_kernels::stencil::{StencilSpec, MAX_RADIUS, SPECS, TYPES};
use gpu_kernels::{Elem, Gpu, Size};

mod common;
use common::gpu;

/// Run every spec at every radius of `radii` on every size of `sizes`, on `value`s; the failures, one line each.
fn check(
    gpu: &Gpu,
    value: Elem,
    sizes: &[usize],
    radii: &[u32],
    specs: &[StencilSpec],
) -> Vec<String> {
    let t0 = std::time::Instant::now();
    let mut cases = Vec::new();
    let mut failures = Vec::new();
    let mut refused = 0;
    for &k in radii {
        for &spec in specs.iter().filter(|s| s.supports(k)) {
            let v = Variant { spec, k, value };
            for &n in sizes {
                let size = Size::mn(1, n as u32);
                if n > 2 * k as usize {
                    cases.push((size, v));
                    continue;
                }
                match STENCIL.launch(&v, size) {
                    Err(e) if e.to_string().contains("no output") => refused += 1,
                    other => failures.push(format!("{v} n={n}: no output, yet {other:?}")),
                }
            }
        }
    }
    let verified = verify_cases(gpu, &STENCIL, &cases, None)
        .unwrap_or_else(|e| panic!("{} setup: {e}", table_name(value)));
    assert_eq!(verified.checks, cases.len());
    failures.extend(verified.failures);
    eprintln!(
        "{}: {} runs and {refused} refused launches on sizes {sizes:?}, k {radii:?}: {} failed, {:.1} s",
        table_name(value),
        cases.len(),
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
    assert_none(check(&gpu(), Elem::F32, &SMALL, &RADII, &SPECS));
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn stencil_small_sizes_i32() {
    assert_none(check(&gpu(), Elem::I32, &SMALL, &RADII, &SPECS));
}

/// The radii 1..=16 the small-size tests leave out, on a size that is no multiple of any tile: with those,
/// every radius runs.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn stencil_other_radii_fp32() {
    let radii: Vec<u32> = (1..=MAX_RADIUS).filter(|k| !RADII.contains(k)).collect();
    assert_none(check(
        &gpu(),
        Elem::F32,
        &[77_777, 1_000_003],
        &radii,
        &SPECS,
    ));
}

/// The largest size, 2^27 + 13 (the article's 2^27, not a multiple of any block's outputs).
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn stencil_2e27_plus_13() {
    let gpu = gpu();
    let mut f = check(&gpu, Elem::F32, &[(1 << 27) + 13], &[1, 16], &SPECS);
    f.extend(check(&gpu, Elem::I32, &[(1 << 27) + 13], &[2, 16], &SPECS));
    assert_none(f);
}

/// The sanitizer's pass (compute-sanitizer memcheck and racecheck run this one): every variant, a few radii,
/// sizes with partial blocks.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn sanitizer_pass_stencil() {
    let gpu = gpu();
    let mut f = check(&gpu, Elem::F32, &[5, 3001], &[1, 5, 16], &SPECS);
    f.extend(check(&gpu, Elem::I32, &[3001], &[3], &SPECS));
    assert_none(f);
}

gpu_kernels::family! {
    /// The stencil with every variant's kernel compiled for the radius below its own (launched, sized and checked
    /// as its own).
    static RADIUS_BELOW: RadiusBelow = Identity::row("stencil-radius-below", "the stencil with each kernel compiled for radius k - 1");
}

impl Family for RadiusBelow {
    type Spec = Variant;
    fn specs(&self) -> Vec<Variant> {
        STENCIL.specs()
    }
    fn spec_name(&self, v: &Variant) -> String {
        STENCIL.spec_name(v)
    }
    fn elem(&self, v: &Variant) -> Elem {
        STENCIL.elem(v)
    }
    fn header(&self, v: &Variant) -> swizzle_core::cuda::Header {
        STENCIL.header(&Variant { k: v.k - 1, ..*v })
    }
    fn compile_unit(&self, v: &Variant) -> (Source, Vec<String>) {
        STENCIL.compile_unit(&Variant { k: v.k - 1, ..*v })
    }
    fn entry(&self, v: &Variant) -> &'static str {
        STENCIL.entry(v)
    }
    fn buffers(&self, v: &Variant, size: Size) -> Vec<Buffer> {
        STENCIL.buffers(v, size)
    }
    fn launch(&self, v: &Variant, size: Size) -> gpu_kernels::Result<Launch> {
        STENCIL.launch(v, size)
    }
    fn inputs(&self, v: &Variant, size: Size, buffers: &[Buffer]) -> Vec<HostBuf> {
        STENCIL.inputs(v, size, buffers)
    }
    fn reference(&self, v: &Variant, size: Size, inputs: &[HostBuf]) -> Vec<HostBuf> {
        STENCIL.reference(v, size, inputs)
    }
    fn verify_sizes(&self) -> Vec<Size> {
        STENCIL.verify_sizes()
    }
}

/// The check can fail: a kernel compiled for one radius and launched as another is caught, with the first wrong
/// element named.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn a_wrong_kernel_is_caught() {
    let gpu = gpu();
    let size = Size::mn(1, 10_000);
    let v = |k| Variant {
        spec: gpu_kernels::stencil::SHFL_P4,
        k,
        value: Elem::F32,
    };
    // Compiled for k = 2: right as k = 2, wrong as k = 3.
    verify(&gpu, &STENCIL, &v(2), size).unwrap();
    let e = verify(&gpu, &RADIUS_BELOW, &v(3), size)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("elements wrong") && e.contains("first at index 0"),
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
