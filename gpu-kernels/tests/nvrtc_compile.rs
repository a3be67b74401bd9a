//! Every kernel variant compiles with NVRTC for sm_90, and ptxas reports no local memory (spills or a register
//! array moved to the stack). Needs only libnvrtc, no GPU: runs on the device machine, or here with the NVRTC
//! wheel's lib folder on LD_LIBRARY_PATH.

use gpu_kernels::runtime::compile;
use gpu_kernels::transpose::Transpose;
use gpu_kernels::Elem;

mod common;

#[test]
#[ignore = "needs libnvrtc (CUDA 13)"]
fn every_transpose_variant_compiles_for_sm90_without_local_memory() {
    common::assert_nvrtc();
    for elem in [Elem::F32, Elem::F16] {
        let mut seen = std::collections::HashSet::new();
        for t in Transpose::all_for(elem) {
            let (src, mut opts) = t.source(elem);
            if !seen.insert((src.clone(), opts.clone())) {
                continue;
            }
            opts.push("--ptxas-options=-v".into());
            if matches!(t, Transpose::Smem(_)) {
                let mut profiling = opts.clone();
                profiling.push("-DSMEM_ONLY=1".into());
                compile(&src, "sm_90", &profiling)
                    .unwrap_or_else(|e| panic!("{t} {elem} SMEM_ONLY: {e}"));
            }
            let out = compile(&src, "sm_90", &opts).unwrap_or_else(|e| panic!("{t} {elem}: {e}"));
            assert!(!out.cubin.is_empty());
            let report = common::ptxas_lines(&out.log, &["Used", "stack"]);
            println!("{t} {elem}:\n  {}", report.join("\n  "));
            for l in out.log.lines().filter(|l| l.contains("bytes stack frame")) {
                assert!(
                    l.contains(" 0 bytes stack frame") && l.contains(" 0 bytes spill stores"),
                    "{t} {elem}: {l}"
                );
            }
        }
    }
}
