//! Every Hopper GEMM variant of the sweep (and every shipping candidate) compiles with NVRTC for sm_90a, and ptxas neither serialises wgmma,
//! ignores setmaxnreg nor uses local memory (`hopper::compile_spec` refuses those logs). Needs only libnvrtc:
//! runs on the device machine, or here with the NVRTC wheel's lib folder on LD_LIBRARY_PATH.

use gpu_kernels::hopper::{self, HopperSpec, SHIPPED, TYPES};

mod common;
use common::{assert_nvrtc, ptxas_lines};

/// Compiles each of `specs` whose name contains `SWZ_VARIANT_FILTER` (all without it) through the compile cache
/// (with SWZ_CUBIN_CACHE the CUBINs are kept for the device machine), printing ptxas' register report and the
/// time; fails if none matches.
fn compile_filtered(specs: impl IntoIterator<Item = HopperSpec>) {
    let only = std::env::var("SWZ_VARIANT_FILTER").unwrap_or_default();
    let mut compiled = 0;
    for s in specs.into_iter().filter(|s| s.to_string().contains(&only)) {
        let t = std::time::Instant::now();
        let out = hopper::compile_cached(&s, None).unwrap_or_else(|e| panic!("{s}: {e}"));
        println!(
            "{s}: {} ({:.1} s)",
            ptxas_lines(&out.log, &["Used"]).join(" "),
            t.elapsed().as_secs_f64()
        );
        compiled += 1;
    }
    assert!(compiled > 0, "no variant matches {only:?}");
}

#[test]
#[ignore = "needs libnvrtc (CUDA 13)"]
fn every_sweep_variant_compiles_for_sm90a_on_the_fast_path() {
    assert_nvrtc();
    let candidates = hopper::sweep::candidates().into_iter().map(|(_, s)| s);
    for spec in hopper::sweep::variants().into_iter().chain(candidates) {
        for ty in TYPES {
            let s = spec.with_ty(ty);
            let out = hopper::compile_spec(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
            let report = ptxas_lines(&out.log, &["Used", "stack"]);
            println!("{s}:\n  {}", report.join("\n  "));
            assert!(!out.cubin.is_empty());
        }
    }
    // The ptxas check can fail: a warning about serialised wgmma is refused.
    let log = "ptxas warning : (C7515) Potential Performance Loss: wgmma.mma_async instructions are serialized";
    assert!(hopper::check_ptxas_log(&SHIPPED, log).is_err());
    assert!(hopper::check_ptxas_log(
        &SHIPPED,
        "ptxas info : Used 168 registers, 0 bytes stack frame"
    )
    .is_ok());
}

/// Every tile, cluster and split the planner may pick (`hopper::planned::kernel_variants`), both element types,
/// compiles on the fast path: no serialised wgmma, no ignored setmaxnreg, no local memory.
#[test]
#[ignore = "needs libnvrtc (CUDA 13)"]
fn every_planner_variant_compiles_on_the_fast_path() {
    assert_nvrtc();
    compile_filtered(TYPES.into_iter().flat_map(hopper::planned::kernel_variants));
}

/// The planner's four best kernel shapes at every problem of the LLM table (what `swz tune hopper shapes --llm
/// --candidates 3` measures), both element types, compile on the fast path.
#[test]
#[ignore = "needs libnvrtc (CUDA 13)"]
fn the_planners_candidates_on_the_llm_table_compile_on_the_fast_path() {
    assert_nvrtc();
    let dev = swizzle_core::plan::Device::H100;
    let mut seen = Vec::new();
    for ty in TYPES {
        for size in hopper::planned::llm_shapes() {
            for (s, _) in hopper::planned::ranked(size, ty, &dev, 4).unwrap() {
                if !seen.contains(&s) {
                    hopper::compile_cached(&s, None).unwrap_or_else(|e| panic!("{s}: {e}"));
                    seen.push(s);
                }
            }
        }
    }
    println!("{} specs", seen.len());
    assert!(seen.len() >= 8);
}

/// The e4m3 kernel in each scaling mode, on every tile, cluster and split the planner may pick for it (block
/// scaling: the N tiles that divide 128), compiles on the fast path: k32 wgmma not serialised, no local memory.
#[test]
#[ignore = "needs libnvrtc (CUDA 13)"]
fn every_e4m3_variant_compiles_on_the_fast_path() {
    assert_nvrtc();
    let e4m3 = hopper::planned::kernel_variants(gpu_kernels::Elem::E4M3);
    compile_filtered(
        gpu_kernels::fp8::ScaleMode::ALL
            .into_iter()
            .flat_map(|mode| {
                e4m3.iter()
                    .map(move |s| s.with_scale(mode))
                    .filter(|s| s.validate(232_448).is_ok())
            }),
    );
}

/// Every block-scaling variant of the sweep (`hopper::fp8::block_variants`) and every planner variant block
/// scaling takes, and the e4m3 kernel in every scaling
/// mode writing C in f16 and f32 (with and without split-K), compiles on the fast path: no serialised wgmma (the
/// second accumulator's promotion reads registers while the next K block's wgmmas run), no local memory.
#[test]
#[ignore = "needs libnvrtc (CUDA 13)"]
fn every_fp8_block_variant_and_output_type_compiles_on_the_fast_path() {
    use gpu_kernels::fp8::ScaleMode;
    use gpu_kernels::hopper::{fp8, HopperSpec};
    use gpu_kernels::Elem;
    assert!(
        gpu_kernels::nvrtc_available(),
        "libnvrtc.so.13 not found: add its folder to LD_LIBRARY_PATH"
    );
    let mut specs: Vec<HopperSpec> = fp8::block_variants().into_iter().map(|(_, s)| s).collect();
    // Every tile, cluster and split the planner may pick that block scaling takes (two accumulators where they
    // fit, else one: as `fp8::plan` promotes).
    specs.extend(
        hopper::planned::kernel_variants(Elem::E4M3)
            .into_iter()
            .map(|s| s.with_scale(ScaleMode::Block).with_block_promotion())
            .filter(|s| s.validate(232_448).is_ok()),
    );
    for mode in ScaleMode::ALL {
        for out in [Elem::F16, Elem::F32] {
            let s = fp8::BLOCK_PIPELINED.with_scale(mode).with_out(out);
            specs.extend([
                s,
                HopperSpec {
                    cluster: 1,
                    split: 2,
                    stages: 4,
                    ..s
                },
            ]);
        }
    }
    for s in specs {
        s.validate(232_448).unwrap_or_else(|e| panic!("{e}"));
        let out = hopper::compile_spec(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
        let used: Vec<&str> = out.log.lines().filter(|l| l.contains("Used")).collect();
        println!("{s}: {}", used.join(" "));
    }
}
