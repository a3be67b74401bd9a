//! Every transpose kernel against the host transpose (copy kernels against a host copy), on random data with a
//! poisoned output, fp32 and fp16, on sizes that are and are not multiples of the tiles, through the frame's
//! verification ([`verify_cases`]: bit for bit, a poisoned guard after the output).
//!
//! Sizes are `rows x cols`. Every kernel runs at every size, 16384x16384 (1 GiB per fp32 matrix) included: the
//! whole file took 51 s on an H200 (2026-11-22, with two of the article's block shapes at 16384x16384).

use gpu_kernels::frame::verify::{verify_cases, DeviceBufs};
use gpu_kernels::frame::{Family, HostBuf};
use gpu_kernels::transpose::family::{Variant, TRANSPOSE};
use gpu_kernels::transpose::{Classic, Transpose, CLASSIC_BLOCKS};
use gpu_kernels::{Elem, Gpu, Size};

mod common;
use common::gpu;

fn check_size(rows: u32, cols: u32, classic_blocks: &[(u32, u32)]) {
    let gpu = gpu();
    let t0 = std::time::Instant::now();
    let size = Size::mn(rows, cols);
    let mut failures = Vec::new();
    for elem in [Elem::F32, Elem::F16] {
        let cases: Vec<(Size, Variant)> = Transpose::all_for(elem)
            .into_iter()
            .filter(|k| matches!(k, Transpose::Smem(_)) || classic_blocks.contains(&k.block()))
            .map(|kernel| (size, Variant { kernel, elem }))
            .collect();
        let v = verify_cases(&gpu, &TRANSPOSE, &cases, None)
            .unwrap_or_else(|e| panic!("{rows}x{cols} setup: {e}"));
        assert_eq!(v.checks, cases.len());
        eprintln!(
            "{rows}x{cols} {elem}: {} kernels checked, {} failed",
            v.checks,
            v.failures.len()
        );
        failures.extend(v.failures);
    }
    eprintln!("{rows}x{cols}: {:.1} s", t0.elapsed().as_secs_f64());
    common::assert_no_failures(&failures);
}

// One test per size, `rows x cols`.
common::gpu_cases! {
    transpose_1x1: check_size(1, 1, &CLASSIC_BLOCKS);
    transpose_31x33: check_size(31, 33, &CLASSIC_BLOCKS);
    transpose_1000x1000: check_size(1000, 1000, &CLASSIC_BLOCKS);
    transpose_2048x2048: check_size(2048, 2048, &CLASSIC_BLOCKS);
    transpose_4097x1023: check_size(4097, 1023, &CLASSIC_BLOCKS);
    transpose_16384x16384: check_size(16384, 16384, &CLASSIC_BLOCKS);
    /// One launch of every kernel at a small odd size: the run compute-sanitizer (memcheck, racecheck) watches.
    sanitizer_pass_97x131: check_size(97, 131, &CLASSIC_BLOCKS);
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn device_properties_are_read() {
    let gpu = gpu();
    let p = gpu.props();
    eprintln!("{p}");
    assert!(
        p.sm_count > 0 && p.l2_bytes > 0 && p.smem_per_block >= 48 * 1024,
        "{p:?}"
    );
    assert!(p.compute_capability.0 >= 7, "{p:?}");
    assert!(p.arch().starts_with("sm_"));
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn modules_are_cached_per_source_and_options() {
    let gpu = gpu();
    let before = gpu.cached_modules();
    let t = Transpose::Classic(Classic::NaiveRow, (32, 8));
    let (src, opts) = t.source(Elem::F32);
    let a = gpu.module(&src, &opts).unwrap();
    let b = gpu.module(&src, &opts).unwrap();
    assert!(std::sync::Arc::ptr_eq(&a, &b));
    let (src16, opts16) = t.source(Elem::F16);
    gpu.module(&src16, &opts16).unwrap();
    assert_eq!(gpu.cached_modules(), before + 2);
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn bad_requests_are_errors_not_panics() {
    assert!(matches!(
        Gpu::open(4096),
        Err(gpu_kernels::Error::NoDevice { .. })
    ));
    let gpu = gpu();
    let size = Size::mn(4, 4);
    let f32_kernel = |kernel| Variant {
        kernel,
        elem: Elem::F32,
    };
    // 2048 threads per block.
    let too_big = f32_kernel(Transpose::Classic(Classic::NaiveRow, (64, 32)));
    assert!(TRANSPOSE.prepared(&gpu, &too_big, size).is_err());
    // An fp16 spec asked for fp32.
    let wrong_elem = f32_kernel(Transpose::Smem(
        gpu_kernels::transpose::smem::VEC_SWIZZLED_F16,
    ));
    assert!(TRANSPOSE.prepared(&gpu, &wrong_elem, size).is_err());
    // A 16-element input for an 8 x 8 matrix.
    let copy = f32_kernel(Transpose::Classic(Classic::CopyRow, (32, 8)));
    let short = HostBuf::random(Elem::F32, 16, 1);
    assert!(DeviceBufs::new(&gpu, TRANSPOSE.buffers(&copy, Size::mn(8, 8)), &[short]).is_err());
    let bad = gpu_kernels::runtime::Source {
        name: "bad.cu".into(),
        text: "this is not C++".into(),
        headers: vec![],
    };
    let err = gpu.module(&bad, &[]).unwrap_err().to_string();
    assert!(err.contains("bad.cu"), "{err}");
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn event_timing_measures_device_time() {
    let gpu = gpu();
    let n = 1 << 24;
    let input = gpu.upload(&vec![1.0f32; n]).unwrap();
    let mut output = gpu.zeros::<f32>(n).unwrap();
    let ms = gpu.time_ms(|| gpu.copy_d2d(&input, &mut output)).unwrap();
    assert!(ms > 0.0 && ms < 1000.0, "{ms} ms for a 64 MiB copy");
}
