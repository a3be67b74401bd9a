//! The tiled matmul under every order against the f64 host reference, through the frame's verification
//! ([`verify_cases`]): random inputs in [-1, 1), output poisoned with NaN and a poisoned guard after it, every
//! element within fp32 rounding of a K-term sum (`2 K eps`, the family's tolerance), shapes that are and are not
//! multiples of the 32x32 tile (Morton only where the tile grid has power-of-two sides). And the cuBLAS peer: its
//! SGEMM must be fp32 (TF32 would miss the fp32 tolerance).

use gpu_kernels::frame::verify::verify_cases;
use gpu_kernels::matmul_l2::family::MATMUL_L2;
use gpu_kernels::matmul_l2::{matmul_host, MatmulL2, SPECS};
use gpu_kernels::runtime::{Cublas, GemmCall};
use swizzle_core::Size;

mod common;
use common::{gpu, sizes};

fn check(shapes: &[Size]) {
    let gpu = gpu();
    let mut failures = Vec::new();
    for &gemm in shapes {
        let cases: Vec<(Size, MatmulL2)> = SPECS
            .into_iter()
            .filter(|v| v.runs_on(gemm))
            .map(|v| (gemm, v))
            .collect();
        let v = verify_cases(&gpu, &MATMUL_L2, &cases, None)
            .unwrap_or_else(|e| panic!("{gemm} setup: {e}"));
        eprintln!(
            "{gemm}: {} orders checked, {} failed",
            v.checks,
            v.failures.len()
        );
        failures.extend(v.failures);
    }
    common::assert_no_failures(&failures);
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn every_order_on_ragged_shapes() {
    check(&sizes(
        "1x1x1 97x131x75 33x65x1 257x255x129 1000x600x300 31x2049x40",
    ));
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn every_order_on_tile_multiples() {
    // 64^3: a 2x2 grid (Morton runs); 256x512x96: 16x8 tiles, a wide power-of-two grid; 1024x1024x128: a study shape.
    check(&sizes("64x64x64 256x512x96 1024x1024x128"));
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn cublas_sgemm_is_fp32() {
    let gpu = gpu();
    let gemm = Size::mnk(300, 200, 1024);
    let (m, n, k) = (300usize, 200usize, 1024usize);
    let a = gpu_kernels::elem::random::<f32>(m * k, 1);
    let b = gpu_kernels::elem::random::<f32>(k * n, 2);
    let expect = matmul_host(&a, &b, gemm);
    let (da, db) = (gpu.upload(&a).unwrap(), gpu.upload(&b).unwrap());
    let mut dc = gpu.zeros::<f32>(m * n).unwrap();
    gpu.fill_bytes(&mut dc, 0xFF).unwrap();
    let sgemm = Cublas::new(&gpu).expect("cuBLAS");
    let call = GemmCall::row_major(gemm, swizzle_core::Elem::F32, swizzle_core::Elem::F32);
    sgemm.gemm(&call, &da, &db, &mut dc).unwrap();
    gpu.sync().unwrap();
    let got = gpu.download(&dc).unwrap();
    let worst = got
        .iter()
        .zip(&expect)
        .map(|(g, e)| (g - e).abs())
        .fold(
            0f32,
            |w, d| if d.is_nan() { f32::INFINITY } else { w.max(d) },
        );
    eprintln!("cuBLAS SGEMM {gemm}: max |err| = {worst:e}");
    // fp32: ~1e-5 here; TF32 (10-bit mantissa products): ~1e-2.
    assert!(
        worst <= 2.0 * k as f32 * f32::EPSILON,
        "cuBLAS SGEMM max |err| {worst} (TF32?)"
    );
}

/// Compiles every variant with NVRTC for sm_90 and prints ptxas' register report: the kernel must fit two
/// 1024-thread blocks per SM (<= 32 registers) with no local memory. Needs only libnvrtc.
#[test]
#[ignore = "needs libnvrtc (CUDA 13)"]
fn every_order_compiles_for_sm90_with_two_blocks_per_sm() {
    common::assert_nvrtc();
    for v in SPECS {
        let (src, mut opts) = v.source();
        opts.push("--ptxas-options=-v".into());
        let out = gpu_kernels::runtime::compile(&src, "sm_90", &opts)
            .unwrap_or_else(|e| panic!("{v}: {e}"));
        let used = common::ptxas_lines(&out.log, &["Used"]);
        eprintln!("{v}: {}", used.join(" "));
        for l in out.log.lines().filter(|l| l.contains("bytes stack frame")) {
            assert!(
                l.contains(" 0 bytes stack frame") && l.contains(" 0 bytes spill"),
                "{v}: {l}"
            );
        }
        let regs = used
            .iter()
            .find_map(|l| {
                l.split("Used ")
                    .nth(1)?
                    .split(' ')
                    .next()?
                    .parse::<u32>()
                    .ok()
            })
            .unwrap_or_else(|| panic!("{v}: no register count in {:?}", out.log));
        assert!(
            regs <= 32,
            "{v}: {regs} registers > 32: one 1024-thread block per SM"
        );
    }
}
