//! The measuring kernels of gpu-bench (the HBM read probe, the timing harness's stream hold) compile with NVRTC
//! for sm_90 without local memory. Needs only libnvrtc, no GPU: runs on the device machine, or here with the NVRTC
//! wheel's lib folder on LD_LIBRARY_PATH.

use gpu_kernels::runtime::compile;

#[test]
#[ignore = "needs libnvrtc (CUDA 13)"]
fn every_probe_compiles_for_sm90_without_local_memory() {
    assert!(
        gpu_kernels::nvrtc_available(),
        "libnvrtc.so.13 not found: add its folder to LD_LIBRARY_PATH"
    );
    for (name, src) in [
        ("hbm_read", gpu_bench::hbm_read::source()),
        ("hold", gpu_bench::bench::hold_source()),
    ] {
        let out = compile(&src, "sm_90", &["--ptxas-options=-v".into()])
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!out.cubin.is_empty());
        assert!(
            out.log.contains(" 0 bytes stack frame"),
            "{name}: {}",
            out.log
        );
    }
}
