//! The Hopper GEMM on the GPU: random inputs, poisoned output, host fp64 reference (every row up to 1024 rows,
//! 96 sampled rows above) and cuBLAS element-wise where stated; sizes that are not multiples of the 128x256x64
//! tile, down to 1x1x16. Every variant of the tuning sweep (every swizzle mode, so every derived descriptor) is
//! checked too. `hopper_sanitizer_small` is the one compute-sanitizer runs.

use gpu_kernels::elem::HostElem;
use gpu_kernels::hopper::{check, sweep, Cublas, HopperGemm, HopperSpec, BASE, SHIPPED, TYPES};
use gpu_kernels::{Elem, Gpu, Size};

mod common;
use common::gpu;

fn run(gpu: &Gpu, g: &HopperGemm, blas: Option<&Cublas>, size: Size, seed: u64) {
    let c = check::check(gpu, g, blas, size, seed).unwrap_or_else(|e| panic!("{}: {e}", g.spec));
    eprintln!(
        "{} {:?}: rel err vs host {:.2e} ({} rows), vs cuBLAS {:?}",
        g.spec, c.size, c.rel_err_host, c.rows_vs_host, c.rel_err_cublas
    );
    let bound = match g.spec.ty {
        Elem::BF16 => 5e-3,
        _ => 1e-3,
    };
    assert!(c.rel_err_host < bound, "{}: {c:?}", g.spec);
}

/// Sizes off the 128x256x64 tile, down to 1x1x16.
const RAGGED: &str = "1x1x16 17x33x48 127x255x64 129x257x80 300x520x136";

/// [`run`] at every ragged size, the seeds counting up from `seed`.
fn run_ragged(gpu: &Gpu, g: &HopperGemm, blas: Option<&Cublas>, seed: u64) {
    for (i, size) in common::sizes(RAGGED).into_iter().enumerate() {
        run(gpu, g, blas, size, seed + i as u64);
    }
}

/// The shipped spec in each element type at one size, against the host reference and cuBLAS.
fn shipped_vs_cublas(size: Size, seed: u64) {
    let gpu = gpu();
    let blas = Cublas::new(&gpu).unwrap();
    for ty in TYPES {
        let g = HopperGemm::new(&gpu, SHIPPED.with_ty(ty)).unwrap();
        run(&gpu, &g, Some(&blas), size, seed);
    }
}

/// Each of `specs` at the ragged sizes against the host reference, the seeds counting up from `seed`.
fn ragged_only(specs: impl IntoIterator<Item = HopperSpec>, seed: u64) {
    let gpu = gpu();
    for spec in specs {
        let g = HopperGemm::new(&gpu, spec).unwrap();
        run_ragged(&gpu, &g, None, seed);
    }
}

/// The spec with the epilogue through shared memory.
fn smem_epilogue(spec: HopperSpec) -> HopperSpec {
    HopperSpec {
        smem_epilogue: true,
        ..spec
    }
}

common::gpu_cases! {
    hopper_ragged_sizes_both_types: ragged_only(TYPES.map(|ty| SHIPPED.with_ty(ty)), 11);
    /// The shipped spec at the ragged sizes: the run compute-sanitizer watches.
    hopper_sanitizer_small: ragged_only([SHIPPED], 31);
    /// `hopper_smem_epilogue`'s ragged sizes only, for compute-sanitizer.
    hopper_smem_epilogue_sanitizer_small:
        ragged_only(TYPES.map(|ty| smem_epilogue(SHIPPED.with_ty(ty))), 41);
    hopper_1000_cubed_vs_host_and_cublas: shipped_vs_cublas(Size::mnk(1000, 1000, 1000), 3);
    hopper_4096_cubed_vs_cublas_and_sampled_host_rows: shipped_vs_cublas(Size::mnk(4096, 4096, 4096), 5);
    /// The tall-skinny shape of the GEMM issues' test list: 16384x128x4096. N = 128 is half the 256-wide tile, so
    /// every B box is half out of bounds (TMA zero-fills it; with clusters the second CTA's half of the multicast B
    /// tile lies wholly past N), and the grid is 64 clusters of one tile column. Element-wise against cuBLAS, plus 96
    /// sampled rows against the host fp64 reference.
    hopper_tall_skinny_16384x128x4096_vs_cublas_and_sampled_host_rows:
        shipped_vs_cublas(Size::mnk(16384, 128, 4096), 9);
}

/// Every sweep variant (each swizzle mode's TMA map + descriptor, the 128x128 tile, each raster) computes the
/// same function.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_every_sweep_variant() {
    let gpu = gpu();
    let skip_cluster = std::env::var_os("HOPPER_SKIP_CLUSTER").is_some();
    for (label, spec) in sweep::labelled() {
        if skip_cluster && spec.cluster > 1 {
            eprintln!("{label}: skipped (HOPPER_SKIP_CLUSTER)");
            continue;
        }
        let g = HopperGemm::new(&gpu, spec).unwrap_or_else(|e| panic!("{label}: {e}"));
        run(&gpu, &g, None, Size::mnk(127, 255, 64), 21);
        run(&gpu, &g, None, Size::mnk(1000, 1000, 1000), 22);
    }
}

/// The single-CTA base variant (no cluster, B loaded whole by each CTA): the ragged sizes, 1000^3 and a
/// 2304x4096x512 against cuBLAS, both types. (The shipped spec, clusters of two whose last cluster's second CTA
/// computes rows past M when the tile rows are odd, is what every other test runs.)
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_single_cta_variant() {
    let gpu = gpu();
    let blas = Cublas::new(&gpu).unwrap();
    for ty in TYPES {
        let g = HopperGemm::new(&gpu, BASE.with_ty(ty)).unwrap();
        run_ragged(&gpu, &g, None, 41);
        run(&gpu, &g, Some(&blas), Size::mnk(1000, 1000, 1000), 47);
        run(&gpu, &g, Some(&blas), Size::mnk(2304, 4096, 512), 48);
    }
}

/// K = 20 breaks TMA's 16-byte row pitch: refused before any launch, the output keeps its poison.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_misaligned_k_is_refused_before_launch() {
    let gpu = gpu();
    let g = HopperGemm::new(&gpu, SHIPPED).unwrap();
    let size = Size::mnk(64, 64, 20);
    let Size { m, n, k } = size;
    let a = gpu
        .upload(&check::random::<half::bf16>((m * k) as usize, 1))
        .unwrap();
    let b = gpu
        .upload(&check::random::<half::bf16>((n * k) as usize, 2))
        .unwrap();
    let mut c = gpu.zeros::<half::bf16>((m * n) as usize).unwrap();
    gpu.fill_bytes(&mut c, 0xFF).unwrap();
    let e = g.launch(&gpu, &a, &b, &mut c, size).unwrap_err();
    assert!(e.to_string().contains("multiple of 8"), "{e}");
    gpu.sync().unwrap();
    assert!(gpu
        .download(&c)
        .unwrap()
        .iter()
        .all(|&x| x.to_bits() == 0xFFFF));
    // Buffers of the other element type are refused too.
    let h = |len: u32| gpu.zeros::<half::f16>(len as usize).unwrap();
    let e = g
        .launch(
            &gpu,
            &h(m * 24),
            &h(n * 24),
            &mut h(m * n),
            Size::mnk(m, n, 24),
        )
        .unwrap_err();
    assert!(e.to_string().contains("compiled for bf16"), "{e}");
    // And a too-small buffer is refused too.
    let e = g
        .launch(&gpu, &a, &b, &mut c, Size::mnk(m + 1, n, 24))
        .unwrap_err();
    assert!(e.to_string().contains("needs"), "{e}");
    gpu_kernels::hopper::check_dims(Size::mnk(1, 1, 8)).unwrap();
}

/// The frame's generic verification of the registered family (`swz bench hopper` / `swz report` use it):
/// every shipped spec at every verification size, through `Arg::TensorMap` and the sm_90a hook.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_frame_verify_all() {
    let gpu = gpu();
    let failures = gpu_kernels::frame::verify::verify_all_with(
        &gpu,
        &gpu_kernels::hopper::family::HOPPER,
        None,
    )
    .unwrap()
    .failures;
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The epilogue through shared memory (`smem_epilogue`: stmatrix into a per-warp swizzled scratch, 16-byte row reads
/// and stores), with clusters and without: ragged sizes against the host, 1000^3 against the host and cuBLAS.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_smem_epilogue() {
    let gpu = gpu();
    let blas = Cublas::new(&gpu).unwrap();
    for base in [SHIPPED, BASE] {
        for ty in TYPES {
            let g = HopperGemm::new(&gpu, smem_epilogue(base.with_ty(ty))).unwrap();
            run_ragged(&gpu, &g, None, 31);
            run(&gpu, &g, Some(&blas), Size::mnk(1000, 1000, 1000), 7);
        }
    }
}

/// Every spec the planner picks on the LLM table (both types), through `HopperGemm::planned` at one of its
/// shapes, then at the ragged sizes and 1000^3 against the host reference and cuBLAS.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_planned_specs_of_the_llm_table() {
    let gpu = gpu();
    let blas = Cublas::new(&gpu).unwrap();
    let planned = planned_on_the_llm_table(&gpu);
    for &(size, ty, spec) in &planned {
        let (g, p) = HopperGemm::planned(&gpu, size, ty).unwrap();
        assert_eq!(p.spec, spec);
        eprintln!("planned at {size} {ty}: {}", g.spec);
        run_ragged(&gpu, &g, Some(&blas), 900);
        run(&gpu, &g, Some(&blas), Size::mnk(1000, 1000, 1000), 950);
    }
    assert!(planned.len() >= 4, "{planned:?}");
}

/// Each distinct spec the planner picks on the LLM table (both types), with the first shape and type it is
/// picked for.
fn planned_on_the_llm_table(gpu: &Gpu) -> Vec<(Size, Elem, HopperSpec)> {
    let mut planned: Vec<(Size, Elem, HopperSpec)> = Vec::new();
    for ty in TYPES {
        for size in gpu_kernels::hopper::planned::llm_shapes() {
            let plan = HopperSpec::for_problem(size, ty, gpu.props()).unwrap();
            if planned.iter().all(|&(_, _, s)| s != plan.spec) {
                planned.push((size, ty, plan.spec));
            }
        }
    }
    planned
}

/// A chained launch (programmatic dependent launch, `HopperGemm::chained`) may start while the kernel before it
/// runs, and must not touch global memory before that kernel has finished: a chained GEMM with K = 16 writes the
/// whole C that a long GEMM (K = 16384, about 3 ms) queued just before it also writes. The long kernel's CTAs with
/// one tile fewer leave their SMs a tile's time early; the chained kernel's CTAs start there and, had they not
/// waited, would write their last tiles before the long kernel writes the same tiles in its last wave. Every
/// element must be the short problem's. The same chained kernel then runs after a memset (no kernel before it)
/// and after itself.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_chained_launch_waits_for_the_kernel_before() {
    let gpu = gpu();
    let (long, short) = (Size::mnk(4096, 4096, 16384), Size::mnk(4096, 4096, 16));
    let g = HopperGemm::new(&gpu, SHIPPED).unwrap();
    let chained = HopperGemm::new(&gpu, SHIPPED).unwrap().chained();
    assert!(chained.kernel().chained && !g.kernel().chained);
    type E = half::bf16;
    assert_eq!(SHIPPED.ty, Elem::BF16);
    let up = |n: usize, seed: u64| {
        let h: Vec<E> = check::random(n, seed);
        (gpu.upload(&h).unwrap(), h)
    };
    let ((la, _), (lb, _)) = (up(long.mk_len(), 1), up(long.nk_len(), 2));
    let ((sa, ha), (sb, hb)) = (up(short.mk_len(), 3), up(short.nk_len(), 4));
    let rows: Vec<u32> = (0..short.m).collect();
    let want = check::host_rows(&ha, &hb, short.n, short.k, &rows);
    let mut c = gpu.zeros::<E>(long.mn_len()).unwrap();
    for round in 0..3 {
        gpu.fill_bytes(&mut c, 0xFF).unwrap();
        if round == 0 {
            g.launch(&gpu, &la, &lb, &mut c, long).unwrap();
        }
        chained.launch(&gpu, &sa, &sb, &mut c, short).unwrap();
        if round == 2 {
            chained.launch(&gpu, &sa, &sb, &mut c, short).unwrap();
        }
        gpu.sync().unwrap();
        let got = gpu.download(&c).unwrap();
        check::compare(
            &got,
            short.n,
            short.k,
            &rows,
            &want,
            &format!("chained, round {round}"),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
}

/// The tail split in bf16 and f16 (the 64x32 tail tile) on ragged problems whose last partial wave is split
/// ([`common::TAIL_RAGGED`]). Each against the host reference twice on one kernel (the second
/// launch finds the arrival counters the first left at zero), and two launches on the same inputs give the same
/// bits (the parts are summed in part order). `hopper_tail_split_small` is the one compute-sanitizer runs.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_tail_split_ragged() {
    let gpu = gpu();
    for ty in TYPES {
        let g = HopperGemm::new(&gpu, tail_spec(ty)).unwrap();
        for (i, size) in common::sizes(common::TAIL_RAGGED).into_iter().enumerate() {
            let t = g.tail_split(size);
            assert!(t.parts > 1, "{} {size}: no tail split ({t:?})", g.spec);
            run(&gpu, &g, None, size, 40 + i as u64);
            run(&gpu, &g, None, size, 50 + i as u64);
        }
        let size = common::sizes(common::TAIL_RAGGED)[0];
        let same = |seed| match ty {
            Elem::BF16 => launch_bits::<half::bf16>(&gpu, &g, size, seed),
            _ => launch_bits::<half::f16>(&gpu, &g, size, seed),
        };
        assert_eq!(same(7), same(7), "{}: two launches differ", g.spec);
    }
}

/// `g` once at `size` on random inputs from `seed`: C's bits.
fn launch_bits<E: HostElem>(gpu: &Gpu, g: &HopperGemm, size: Size, seed: u64) -> Vec<u32> {
    let a = gpu
        .upload(&check::random::<E>(size.mk_len(), seed))
        .unwrap();
    let b = gpu
        .upload(&check::random::<E>(size.nk_len(), seed + 1))
        .unwrap();
    let mut c = gpu.zeros::<E>(size.mn_len()).unwrap();
    g.launch(gpu, &a, &b, &mut c, size).unwrap();
    gpu.download(&c).unwrap().into_iter().map(E::bits).collect()
}

/// [`hopper_tail_split_ragged`]'s specs at its first problem, once each (what compute-sanitizer runs).
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_tail_split_small() {
    let gpu = gpu();
    for ty in TYPES {
        let g = HopperGemm::new(&gpu, tail_spec(ty)).unwrap();
        let size = common::sizes(common::TAIL_RAGGED)[0];
        assert!(g.tail_split(size).parts > 1, "{}: no tail split", g.spec);
        run(&gpu, &g, None, size, 60);
    }
}

/// The 64x32 tail tile in `ty`.
fn tail_spec(ty: Elem) -> HopperSpec {
    common::tail_tile(SHIPPED.with_ty(ty))
}
