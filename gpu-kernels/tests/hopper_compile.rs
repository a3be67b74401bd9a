//! Every Hopper GEMM variant of the sweep (and every shipping candidate) compiles with NVRTC for sm_90a, and ptxas neither serialises wgmma,
//! ignores setmaxnreg nor uses local memory (`hopper::compile_spec` refuses those logs). Needs only libnvrtc:
//! runs on the device machine, or here with the NVRTC wheel's lib folder on LD_LIBRARY_PATH.

use gpu_kernels::hopper::{self, SHIPPED, TYPES};

#[test]
#[ignore = "needs libnvrtc (CUDA 13)"]
fn every_sweep_variant_compiles_for_sm90a_on_the_fast_path() {
    assert!(
        gpu_kernels::nvrtc_available(),
        "libnvrtc.so.13 not found: add its folder to LD_LIBRARY_PATH"
    );
    let candidates = hopper::sweep::candidates().into_iter().map(|(_, s)| s);
    for spec in hopper::sweep::variants().into_iter().chain(candidates) {
        for ty in TYPES {
            let s = spec.with_ty(ty);
            let out = hopper::compile_spec(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
            let report: Vec<&str> = out
                .log
                .lines()
                .filter(|l| l.contains("Used") || l.contains("stack"))
                .collect();
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
