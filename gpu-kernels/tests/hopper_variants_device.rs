//! The Hopper GEMM's planner variants on the GPU: 64-row tiles (one consumer warpgroup), every N tile of
//! `swizzle_core::plan::BNS` (32 to 256, the ones not a multiple of 64 with a 32-column last epilogue chunk),
//! clusters of 2, and split-K over clusters of 2, 4 and 8 CTAs (`hopper::planned::kernel_variants`).
//! Random inputs, poisoned output, the fp64 host reference on sampled rows and cuBLAS element-wise, at ragged
//! sizes (M = 1, 3, 17, 1000; N and K off every tile; a K with fewer k-blocks than split parts); split-K gives
//! the same bits on every run. `hopper_variants_sanitizer_small` is the one compute-sanitizer runs.

use gpu_kernels::hopper::planned::kernel_variants;
use gpu_kernels::hopper::{check, Cublas, HopperGemm, HopperSpec, TYPES};
use gpu_kernels::{Elem, Gpu, Size};

mod common;
use common::{gpu, sizes};

fn run(gpu: &Gpu, g: &HopperGemm, blas: Option<&Cublas>, size: Size, seed: u64) {
    let c = check::check(gpu, g, blas, size, seed).unwrap_or_else(|e| panic!("{}: {e}", g.spec));
    let bound = if g.spec.ty == Elem::BF16 { 5e-3 } else { 1e-3 };
    assert!(c.rel_err_host < bound, "{}: {c:?}", g.spec);
    if let Some(e) = c.rel_err_cublas {
        assert!(e < bound, "{} vs cuBLAS: {c:?}", g.spec);
    }
}

/// M = 1, 3, 17, 1000; N odd, off 8, off every tile; K off the 64-wide k-block, down to 2 k-blocks (fewer than
/// 4 or 8 split parts: some parts get none) and up to 17.
const RAGGED: &str = "1x72x16 3x255x136 17x200x520 17x1000x1096 1000x264x200 130x33x72";

/// Every planner variant in bf16, and the 64-row and split ones in fp16, at every ragged size against the host
/// reference and cuBLAS.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_planner_variants_at_ragged_sizes() {
    let gpu = gpu();
    let blas = Cublas::new(&gpu).unwrap();
    let mut checked = 0;
    for ty in TYPES {
        for spec in kernel_variants(ty) {
            if ty == Elem::F16 && spec.bm() == 128 && spec.split == 1 {
                continue;
            }
            let g = HopperGemm::new(&gpu, spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
            for (i, size) in sizes(RAGGED).into_iter().enumerate() {
                run(&gpu, &g, Some(&blas), size, 1300 + i as u64);
            }
            checked += 1;
        }
    }
    assert!(checked >= 50, "{checked} variants");
}

/// Split-K at a decode shape and a ragged one: five runs on the same inputs give the same bits, and they match
/// cuBLAS (the order the split's CTAs finish in changes nothing).
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_split_k_gives_the_same_bits_every_run() {
    let gpu = gpu();
    let blas = Cublas::new(&gpu).unwrap();
    let splits: Vec<HopperSpec> = kernel_variants(Elem::BF16)
        .into_iter()
        .filter(|s| s.split > 1 && (s.bn == 64 || s.bn == 128))
        .collect();
    assert!(splits.len() >= 6);
    for spec in splits {
        let g = HopperGemm::new(&gpu, spec).unwrap();
        for &(m, n, k) in &[(16, 4096, 4096), (17, 1000, 1096)] {
            let a = check::random::<half::bf16>((m * k) as usize, 7);
            let b = check::random::<half::bf16>((n * k) as usize, 8);
            let (da, db) = (gpu.upload(&a).unwrap(), gpu.upload(&b).unwrap());
            let mut first: Option<Vec<u16>> = None;
            for _ in 0..5 {
                let mut dc = gpu.zeros::<half::bf16>((m * n) as usize).unwrap();
                gpu.fill_bytes(&mut dc, 0xFF).unwrap();
                g.launch(&gpu, &da, &db, &mut dc, Size::mnk(m, n, k))
                    .unwrap();
                gpu.sync().unwrap();
                let got: Vec<u16> = gpu
                    .download(&dc)
                    .unwrap()
                    .iter()
                    .map(|x| x.to_bits())
                    .collect();
                match &first {
                    None => first = Some(got),
                    Some(f) => assert!(f == &got, "{spec} {m}x{n}x{k}: bits differ between runs"),
                }
            }
            run(&gpu, &g, Some(&blas), Size::mnk(m, n, k), 21);
        }
    }
}

/// Small launches of the new paths for compute-sanitizer (memcheck, racecheck): one consumer warpgroup with
/// N = 32, a multicast pair of 64-row tiles, split-K with empty parts (2 k-blocks over 4 and 8 parts) and with
/// every part full, and N tiles that are not powers of two (160 with the multicast pair, each CTA loading 80 rows
/// of B; 96 split, its last epilogue chunk 32 columns).
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_variants_sanitizer_small() {
    let gpu = gpu();
    let pick = |bm: u32, bn: u32, cluster: u32, split: u32| {
        kernel_variants(Elem::BF16)
            .into_iter()
            .find(|s| s.bm() == bm && s.bn == bn && s.cluster == cluster && s.split == split)
            .unwrap_or_else(|| panic!("no {bm}x{bn} cluster{cluster} split{split}"))
    };
    for spec in [
        pick(64, 32, 1, 1),
        pick(64, 128, 2, 1),
        pick(64, 64, 1, 4),
        pick(128, 128, 1, 8),
        pick(128, 160, 2, 1),
        pick(64, 96, 1, 2),
    ] {
        let g = HopperGemm::new(&gpu, spec).unwrap();
        for (i, size) in sizes("3x72x128 70x200x520").into_iter().enumerate() {
            run(&gpu, &g, None, size, 77 + i as u64);
        }
    }
}
