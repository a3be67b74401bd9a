//! The block-scaling sweep (`swz tune hopper fp8-block`): every variant of
//! [`gpu_kernels::hopper::fp8::block_variants`] (each differing from its base in one thing) against cuBLASLt's
//! FP8 GEMM in interleaved rounds on the same buffers. The peer runs block scaling where this GPU's cuBLASLt plans
//! it, else per-tensor scaling (said in the table). Each variant's output (poisoned first) is checked against the
//! fp64 host reference on sampled rows before any timing.

use crate::bench::{self, rounds, BenchConfig};
use crate::hopper::fp8_bench::{rotated_sets, Set};
use gpu_kernels::fp8::reference::{self, compare, Bound};
use gpu_kernels::fp8::{ScaleMode, Scales};
use gpu_kernels::hopper::{fp8, HopperGemm};
use gpu_kernels::runtime::{CublasLt, Fp8Call, Gpu, Result};
use gpu_kernels::{Elem, Size};

/// The sweep at every shape in `n_rounds` interleaved rounds: one markdown table (variant, TFLOP/s, the median
/// and range over rounds of cuBLASLt's time / ours, the normwise error).
pub fn block_sweep(
    gpu: &Gpu,
    shapes: &[Size],
    n_rounds: usize,
    cfg: &BenchConfig,
) -> Result<String> {
    let lt = CublasLt::new(gpu)?;
    let t0 = std::time::Instant::now();
    // A variant the kernel refuses (ptxas lost the fast path: spills, serialised wgmma) is a row of its own, and
    // the sweep goes on with the rest.
    let mut variants = Vec::new();
    let mut kernels = Vec::new();
    let mut refused = String::new();
    for (label, spec) in fp8::block_variants() {
        match HopperGemm::new(gpu, spec) {
            Ok(g) => {
                variants.push((label, spec));
                kernels.push(g);
            }
            Err(e) => {
                eprintln!("{label}: refused: {e}");
                refused.push_str(&format!("| - | {label} | {spec} | refused: {e} | | | |\n"));
            }
        }
    }
    eprintln!(
        "{} variants compiled ({:.1} s)",
        kernels.len(),
        t0.elapsed().as_secs_f64()
    );
    let mut md = format!(
        "device: {}\n\n| problem | variant | spec | TFLOP/s | cuBLASLt TFLOP/s (scaling) | ours / cuBLASLt (rounds) | \
         normwise error |\n|---|---|---|---|---|---|---|\n{refused}",
        gpu.props()
    );
    for (si, &size) in shapes.iter().enumerate() {
        let x = reference::random_e4m3(size.mk_len(), 100 + si as u64);
        let w = reference::random_e4m3(size.nk_len(), 200 + si as u64);
        let host = reference::random_scales(ScaleMode::Block, size, 300 + si as u64);
        let rows: Vec<u32> = [0, size.m - 1]
            .into_iter()
            .chain(gpu_kernels::elem::indices(2, size.m, si as u64))
            .collect();
        let r = reference::host_rows(&x, &w, size, &host, &rows)?;
        eprintln!(
            "{size}: inputs and reference ready ({:.1} s)",
            t0.elapsed().as_secs_f64()
        );
        let scales = host.map(|v| gpu.upload(v))?;
        let (peer_mode, peer) = match lt.fp8_plan(Fp8Call::new(size, ScaleMode::Block)) {
            Ok(p) => (ScaleMode::Block, p),
            Err(e) => {
                eprintln!("cuBLASLt per-block at {size}: {e}; the peer runs per-tensor");
                (
                    ScaleMode::Tensor,
                    lt.fp8_plan(Fp8Call::new(size, ScaleMode::Tensor))?,
                )
            }
        };
        let (la, lb) = gpu_kernels::fp8::scale::lens(peer_mode, size);
        let peer_scales =
            Scales::new(peer_mode, vec![0.5f32; la], vec![0.25f32; lb]).map(|v| gpu.upload(v))?;
        let mut sets = rotated_sets(gpu, size, (&x, &w), 2)?;
        let count = sets.len();
        let mut normwise = Vec::new();
        for g in &kernels {
            let Set { a, b, c } = &mut sets[0];
            gpu.fill_bytes(c, 0xFF)?;
            g.launch_fp8(gpu, a, b, &scales, c, size)?;
            gpu.sync()?;
            let got = gpu.download(c)?;
            let n = size.n as usize;
            let agr = compare(
                |i, j| got[i as usize * n + j].to_f64(),
                &rows,
                &r,
                &Bound::new(Elem::BF16, ScaleMode::Block, size.k),
                8e-3,
                &format!("{} {size}", g.spec),
            );
            // A wrong output is said in the variant's row (its time is still taken, never claimed).
            let verdict = match agr {
                Ok(agr) => format!("{:.2e}", agr.normwise),
                Err(e) => format!("WRONG: {e}"),
            };
            eprintln!(
                "{} {size}: checked, normwise {verdict} ({:.1} s)",
                g.spec,
                t0.elapsed().as_secs_f64()
            );
            normwise.push(verdict);
        }
        // Contestant 0 is cuBLASLt, 1.. the variants in order.
        let times = rounds::interleaved(gpu, cfg, 1 + kernels.len(), n_rounds, |who, i| {
            let Set { a, b, c } = &mut sets[i % count];
            match who {
                0 => lt.fp8_gemm(&peer, a, b, &peer_scales, c),
                v => kernels[v - 1].launch_fp8(gpu, a, b, &scales, c, size),
            }
        })?;
        let tflops = |t: &[f64]| size.flops() as f64 / (bench::spread(t).median * 1e-3) / 1e12;
        let peer_tflops = tflops(&times[0]);
        for (v, ((label, spec), nw)) in variants.iter().zip(&normwise).enumerate() {
            let q = bench::spread(&rounds::ratios(&times[0], &times[v + 1]));
            let line = format!(
                "| {size} | {label} | {spec} | {:.0} | {peer_tflops:.0} (per-{peer_mode}) | {:.1}% [{:.1}-{:.1}] | \
                 {nw} |\n",
                tflops(&times[v + 1]),
                100.0 * q.median,
                100.0 * q.min,
                100.0 * q.max
            );
            eprint!("{line}");
            md.push_str(&line);
        }
    }
    Ok(md)
}
