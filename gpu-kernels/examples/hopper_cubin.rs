//! Write the shipped Hopper GEMM's sm_90a CUBIN and ptxas log (needs only libnvrtc), for `cuobjdump -sass`:
//! `cargo run -p gpu-kernels --example hopper_cubin -- OUT_DIR`.
use gpu_kernels::hopper::{self, Half, SHIPPED};

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    for ty in [Half::Bf16, Half::F16] {
        let spec = SHIPPED.with_ty(ty);
        match hopper::compile_spec(&spec) {
            Ok(out) => {
                std::fs::write(format!("{dir}/hopper_{ty}.cubin"), &out.cubin)
                    .expect("write cubin");
                std::fs::write(format!("{dir}/hopper_{ty}.ptxas.log"), &out.log)
                    .expect("write log");
                println!("{spec}: {} B cubin\n{}", out.cubin.len(), out.log);
            }
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    }
}
