//! Write the shipped Hopper GEMM's sm_90a CUBIN and ptxas log (needs only libnvrtc), for `cuobjdump -sass`:
//! `cargo run -p gpu-kernels --example hopper_cubin -- OUT_DIR`.
use gpu_kernels::hopper::{self, Half, SHIPPED};

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let cluster = gpu_kernels::hopper::HopperSpec {
        cluster: 2,
        ..SHIPPED
    };
    for (tag, spec) in [
        ("bf16", SHIPPED),
        ("f16", SHIPPED.with_ty(Half::F16)),
        ("bf16_cluster2", cluster),
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
}
