//! The GEMM on a GPU: random inputs, poisoned output, host reference (every element up to 1000^3; a seeded sample
//! of 4096 elements plus cuBLAS on all of C beyond), both B layouts, fp16 and bf16, 16-bit and fp32 outputs.

mod common;
use common::gpu;

use gpu_bench::gemm::check;
use gpu_kernels::gemm::{self, spec, BLayout, Cublas, Problem, Variant};
use gpu_kernels::{Elem, Gpu, HostElem, Size};

/// Every size the default spec runs at: ragged ones first (the fp32-output tests take the first three or four).
const SIZES: &str = "1x1x16 17x33x48 127x255x64 1000x1000x1000 4096x4096x4096 16384x128x4096";

fn all_sizes() -> Vec<Size> {
    SIZES
        .split_whitespace()
        .map(|s| s.parse().unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect()
}

fn run<I: HostElem, O: HostElem>(gpu: &Gpu, blas: &Cublas, s: spec::GemmSpec, sizes: &[Size]) {
    run_layouts::<I, O>(gpu, blas, s, sizes, &BLayout::BOTH)
}

fn run_layouts<I: HostElem, O: HostElem>(
    gpu: &Gpu,
    blas: &Cublas,
    s: spec::GemmSpec,
    sizes: &[Size],
    layouts: &[BLayout],
) {
    for &size in sizes {
        for &b in layouts {
            // Leading dimensions padded to 16 bytes (17x33: ldb/ldc 40; the tight ones are refused, see below).
            let p = Problem::new(size, b).padded(8, 16 / O::ELEM.bytes());
            let v = Variant::new(s, b, I::ELEM, O::ELEM);
            let big = size.flops() > 1 << 31;
            let samples = big.then_some(4096);
            let with_blas = (big && O::ELEM == I::ELEM).then_some(blas);
            let r = check::check::<I, O>(gpu, &v, &p, samples, with_blas)
                .unwrap_or_else(|e| panic!("{e}"));
            println!(
                "{v} {p}: {} elements vs host, worst {:.3} of tolerance, rel L2 {:.2e}, vs cuBLAS {:?}",
                r.compared, r.worst_ratio, r.rel_l2, r.rel_l2_vs_cublas
            );
        }
    }
}

/// The default spec at every size, both B layouts, `I` in and `O` out.
fn default_spec_all_sizes<I: HostElem, O: HostElem>() {
    let gpu = gpu();
    let blas = Cublas::new(&gpu).unwrap();
    run::<I, O>(&gpu, &blas, spec::DEFAULT, &all_sizes());
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn default_spec_fp16_all_sizes() {
    default_spec_all_sizes::<half::f16, half::f16>();
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn default_spec_bf16_all_sizes() {
    default_spec_all_sizes::<half::bf16, half::bf16>();
}

/// The TMA-fill experiment (B N x K) at every size, 16-bit and fp32 out; B K x N is refused before launch.
#[cfg(feature = "experiments")]
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn tma_fill_experiment() {
    let gpu = gpu();
    let blas = Cublas::new(&gpu).unwrap();
    let s = gpu_bench::gemm::tune::T128X256K64S4_TMA;
    run_layouts::<half::f16, half::f16>(&gpu, &blas, s, &all_sizes(), &[BLayout::Nk]);
    run_layouts::<half::bf16, half::bf16>(&gpu, &blas, s, &all_sizes(), &[BLayout::Nk]);
    run_layouts::<half::bf16, f32>(&gpu, &blas, s, &all_sizes()[..3], &[BLayout::Nk]);
    let v = Variant::new(s, BLayout::Kn, Elem::F16, Elem::F16);
    let e = v.prepare(&gpu).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("reads B stored N x K (tn) only"), "{e}");
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn fp32_output_small_and_ragged() {
    let gpu = gpu();
    let blas = Cublas::new(&gpu).unwrap();
    run::<half::f16, f32>(&gpu, &blas, spec::DEFAULT, &all_sizes()[..4]);
    run::<half::bf16, f32>(&gpu, &blas, spec::DEFAULT, &all_sizes()[..3]);
}

/// Every spec (tiles, orders, baselines) on a ragged size.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn every_spec_ragged() {
    let gpu = gpu();
    let blas = Cublas::new(&gpu).unwrap();
    for s in spec::all() {
        run::<half::f16, half::f16>(
            &gpu,
            &blas,
            s,
            &[Size::mnk(127, 255, 64), Size::mnk(300, 520, 264)],
        );
    }
}

/// A small size for compute-sanitizer (memcheck, racecheck): both layouts, ragged edges, 16-bit and fp32 out.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn sanitizer_small() {
    let gpu = gpu();
    let blas = Cublas::new(&gpu).unwrap();
    run::<half::f16, half::f16>(&gpu, &blas, spec::DEFAULT, &[Size::mnk(127, 255, 72)]);
    run::<half::bf16, f32>(&gpu, &blas, spec::DEFAULT, &[Size::mnk(127, 255, 72)]);
    #[cfg(feature = "experiments")]
    run_layouts::<half::f16, half::f16>(
        &gpu,
        &blas,
        gpu_bench::gemm::tune::T128X256K64S4_TMA,
        &[Size::mnk(127, 255, 72)],
        &[BLayout::Nk],
    );
}

/// A leading dimension that breaks 16-byte alignment is refused before any launch, with the reason.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn misaligned_leading_dimension_is_refused() {
    let gpu = gpu();
    let p = Problem::new(Size::mnk(17, 33, 48), BLayout::Kn);
    let v = Variant::new(spec::DEFAULT, BLayout::Kn, Elem::F16, Elem::F16);
    let k = v.prepare(&gpu).unwrap();
    let a = gpu.upload(&vec![half::f16::ONE; 17 * 48]).unwrap();
    let b = gpu.upload(&vec![half::f16::ONE; 48 * 33]).unwrap();
    let mut c = gpu.zeros::<half::f16>(17 * 33).unwrap();
    let e = v
        .launch(&gpu, &k, &p, &a, &b, &mut c)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("ldb = 33 elements (66 bytes) is not a multiple of 16 bytes"),
        "{e}"
    );
}

/// `C = alpha·A·B + beta·C` on ragged sizes, both layouts: beta != 0 reads a random C (the host reference reads the
/// same values); beta == 0 starts from a NaN-poisoned C, so reading it would show.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn alpha_beta_epilogue() {
    let gpu = gpu();
    let scales = [
        gemm::Scale {
            alpha: 0.5,
            beta: -1.25,
        },
        gemm::Scale {
            alpha: 1.0,
            beta: 1.0,
        },
        gemm::Scale {
            alpha: -2.0,
            beta: 0.0,
        },
    ];
    fn one<I: HostElem, O: HostElem>(gpu: &Gpu, scale: gemm::Scale) {
        for size in [Size::mnk(127, 255, 72), Size::mnk(300, 520, 264)] {
            for b in BLayout::BOTH {
                let p = Problem::new(size, b).padded(8, 16 / O::ELEM.bytes());
                let v = Variant::new(spec::DEFAULT, b, I::ELEM, O::ELEM);
                let r = check::check_scaled::<I, O>(gpu, &v, &p, scale, None, None)
                    .unwrap_or_else(|e| panic!("{scale:?}: {e}"));
                println!(
                    "{v} {p} {scale:?}: worst {:.3} of tolerance, rel L2 {:.2e}",
                    r.worst_ratio, r.rel_l2
                );
            }
        }
    }
    for s in scales {
        one::<half::f16, half::f16>(&gpu, s);
        one::<half::bf16, half::bf16>(&gpu, s);
        one::<half::f16, f32>(&gpu, s);
    }
}
