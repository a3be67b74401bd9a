//! Write the shipped Hopper GEMM's sm_90a CUBINs and ptxas logs (needs only libnvrtc), for `cuobjdump -sass`,
//! and fill a CUBIN cache with every variant the tests and `swz tune hopper` build:
//! `cargo run -p gpu-kernels --example hopper_cubin -- OUT_DIR [CACHE_DIR]` (the device run sets
//! `SWZ_CUBIN_CACHE=CACHE_DIR`; the cache's keys hold NVRTC's and the driver's versions, so only a machine with
//! the device's NVRTC, 13.0, and its driver fills entries the device reads).
use gpu_kernels::hopper::{self, sweep, HopperSpec, BASE, SHIPPED};
use gpu_kernels::Elem;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().unwrap_or_else(|| ".".into());
    let cache = args.next();
    for (tag, spec) in [
        ("bf16", SHIPPED),
        ("f16", SHIPPED.with_ty(Elem::F16)),
        ("bf16_single_cta", BASE),
    ] {
        match hopper::compile_spec(&spec) {
            Ok(out) => {
                std::fs::write(format!("{dir}/hopper_{tag}.cubin"), &out.cubin)
                    .expect("write cubin");
                std::fs::write(format!("{dir}/hopper_{tag}.ptxas.log"), &out.log)
                    .expect("write log");
                println!("{spec}: {} B cubin\n{}", out.cubin.len(), out.log);
            }
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    }
    if let Some(cache) = cache {
        let mut all: Vec<HopperSpec> = sweep::variants();
        for (_, c) in sweep::candidates() {
            all.push(c);
            all.push(c.with_ty(Elem::F16));
        }
        all.sort_by_key(|s| s.to_string());
        all.dedup();
        for spec in all {
            hopper::compile_cached(&spec, Some(std::path::Path::new(&cache)))
                .unwrap_or_else(|e| panic!("{e}"));
            println!("cached {spec}");
        }
    }
}
