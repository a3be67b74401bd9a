//! The HBM read probe compiles with NVRTC for sm_90 without local memory. Needs only libnvrtc, no GPU: runs on the
//! device machine, or here with the NVRTC wheel's lib folder on LD_LIBRARY_PATH.

use gpu_kernels::runtime::compile;

#[test]
#[ignore = "needs libnvrtc (CUDA 13)"]
fn hbm_read_probe_compiles_for_sm90_without_local_memory() {
    assert!(
        gpu_kernels::nvrtc_available(),
        "libnvrtc.so.13 not found: add its folder to LD_LIBRARY_PATH"
    );
    let out = compile(
        &gpu_bench::hbm_read::source(),
        "sm_90",
        &["--ptxas-options=-v".into()],
    )
    .unwrap_or_else(|e| panic!("hbm_read: {e}"));
    assert!(!out.cubin.is_empty());
    assert!(
        out.log.contains(" 0 bytes stack frame"),
        "hbm_read: {}",
        out.log
    );
}
