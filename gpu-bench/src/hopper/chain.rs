//! Layers back to back, as a serving stack runs one block's linear layers for a batch of tokens
//! (`swz bench gemm --dtype e4m3 --chain --shapes ...`): the problems of one token count M, in the order given,
//! queued on one stream with no host work between them. Three contestants, timed per whole chain (CUDA events
//! around it, median of the runs, interleaved rounds in rotated order):
//! - ours, chained: each layer's planned e4m3 kernel as a programmatic dependent launch
//!   ([`HopperGemm::chained`]): its prologue overlaps the end of the layer before;
//! - ours, not chained: the same kernels launched plainly (the one difference: what chaining buys);
//! - cuBLASLt's FP8 GEMM of the same layers, in the same scaling mode where it plans it, else per-tensor.
//!
//! Every layer has its own operands (a chain's weights together exceed the L2 on the LLM layers, as a model's
//! do); every layer's output of ours (chained and not) and of cuBLASLt is checked against the fp64 host reference
//! on sampled rows before any timing.

use crate::bench::Align::{Left, Right};
use crate::bench::{self, rounds, BenchConfig, Markdown};
use crate::hopper::shapes::{geomean, layer_name};
use cudarc::driver::CudaSlice;
use gpu_kernels::elem::E4m3;
use gpu_kernels::fp8::reference::{self, compare, Bound};
use gpu_kernels::fp8::{ScaleMode, Scales};
use gpu_kernels::hopper::fp8::{check_on, plan};
use gpu_kernels::hopper::planned::plan_device;
use gpu_kernels::hopper::{check_device, HopperGemm};
use gpu_kernels::runtime::cublas::Fp8Plan;
use gpu_kernels::runtime::{CublasLt, Error, Fp8Call, Gpu, Result};
use gpu_kernels::Size;
use swizzle_core::Elem;

/// One measured chain.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ChainRow {
    pub layers: Vec<Size>,
    pub mode: String,
    /// The scaling cuBLASLt ran (the same, or `tensor` where it refused the mode).
    pub peer_mode: String,
    /// Median chain times, µs: ours chained, ours not chained, cuBLASLt.
    pub chained_us: f64,
    pub plain_us: f64,
    pub peer_us: f64,
    /// Per round: cuBLASLt / ours chained (> 1: ours faster).
    pub ratio: bench::Spread,
    /// Per round: ours not chained / ours chained (> 1: chaining saves time).
    pub chaining: bench::Spread,
}

/// One layer: its kernels, its operands and scales, its peer.
struct Layer {
    size: Size,
    plain: HopperGemm,
    chained: HopperGemm,
    a: CudaSlice<E4m3>,
    b: CudaSlice<E4m3>,
    c: CudaSlice<half::bf16>,
    scales: Scales<CudaSlice<f32>>,
    peer: Fp8Plan,
    peer_scales: Scales<CudaSlice<f32>>,
}

/// The chains of `problems`: one per token count M, its layers in the order given.
pub fn chains(problems: &[Size]) -> Vec<Vec<Size>> {
    let mut out: Vec<Vec<Size>> = Vec::new();
    for &p in problems {
        match out.iter_mut().find(|c| c[0].m == p.m) {
            Some(c) => c.push(p),
            None => out.push(vec![p]),
        }
    }
    out
}

/// Measure each chain of `problems` ([`chains`]) in `mode`: the rows, one per chain.
pub fn run(
    gpu: &Gpu,
    problems: &[Size],
    mode: ScaleMode,
    n_rounds: usize,
    cfg: &BenchConfig,
) -> Result<Vec<ChainRow>> {
    check_device(gpu.props())?;
    let lt = CublasLt::new(gpu)?;
    chains(problems)
        .into_iter()
        .map(|layers| one(gpu, &lt, &layers, mode, n_rounds, cfg))
        .collect()
}

fn one(
    gpu: &Gpu,
    lt: &CublasLt,
    sizes: &[Size],
    mode: ScaleMode,
    n_rounds: usize,
    cfg: &BenchConfig,
) -> Result<ChainRow> {
    let dev = plan_device(gpu.props());
    let mut layers = Vec::with_capacity(sizes.len());
    let mut peer_mode = mode;
    for (li, &size) in sizes.iter().enumerate() {
        let seed = 1000 + 10 * li as u64;
        let spec = plan(size, mode, &dev)?.spec;
        let plain = HopperGemm::new(gpu, spec)?;
        let chained = HopperGemm::new(gpu, spec)?.chained();
        let x = reference::random_e4m3(size.mk_len(), seed);
        let w = reference::random_e4m3(size.nk_len(), seed + 1);
        let rows: Vec<u32> = [0, size.m - 1]
            .into_iter()
            .chain(gpu_kernels::elem::indices(6, size.m, seed))
            .collect();
        for g in [&plain, &chained] {
            check_on(gpu, g, size, (&x, &w), &rows, seed + 2, 8e-3)?;
        }
        let (a, b) = (gpu.upload(&x)?, gpu.upload(&w)?);
        let host = reference::random_scales(mode, size, seed + 3);
        let scales = host.map(|v| gpu.upload(v))?;
        let mut c = gpu.zeros::<half::bf16>(size.mn_len())?;
        // The peer in the chain's mode where cuBLASLt plans it for every layer, else per-tensor for all.
        let peer_in = |m: ScaleMode, c: &mut CudaSlice<half::bf16>| -> Result<_> {
            let p = lt.fp8_plan(Fp8Call::new(size, m))?;
            let host = reference::random_scales(m, size, seed + 4);
            let dev_scales = host.map(|v| gpu.upload(v))?;
            gpu.fill_bytes(c, 0xFF)?;
            lt.fp8_gemm(&p, &a, &b, &dev_scales, c)?;
            gpu.sync()?;
            let got = gpu.download(c)?;
            let r = reference::host_rows(&x, &w, size, &host, &rows)?;
            compare(
                |i, j| got[i as usize * size.n as usize + j].to_f64(),
                &rows,
                &r,
                &Bound::new(Elem::BF16, m, size.k),
                8e-3,
                &format!("cuBLASLt {size} per-{m}"),
            )?;
            Ok((p, dev_scales))
        };
        let (peer, peer_scales) = match peer_in(peer_mode, &mut c) {
            Ok(p) => p,
            Err(e) if peer_mode != ScaleMode::Tensor && li == 0 => {
                eprintln!("cuBLASLt per-{mode} at {size}: {e}; the peer chain runs per-tensor");
                peer_mode = ScaleMode::Tensor;
                peer_in(peer_mode, &mut c)?
            }
            Err(e) => return Err(e),
        };
        layers.push(Layer {
            size,
            plain,
            chained,
            a,
            b,
            c,
            scales,
            peer,
            peer_scales,
        });
    }
    let times = rounds::interleaved(gpu, cfg, 3, n_rounds, |who, _| {
        for l in &mut layers {
            match who {
                0 => lt.fp8_gemm(&l.peer, &l.a, &l.b, &l.peer_scales, &mut l.c)?,
                1 => l
                    .chained
                    .launch_fp8(gpu, &l.a, &l.b, &l.scales, &mut l.c, l.size)?,
                _ => l
                    .plain
                    .launch_fp8(gpu, &l.a, &l.b, &l.scales, &mut l.c, l.size)?,
            }
        }
        Ok(())
    })?;
    let med = |t: &[f64]| bench::spread(t).median * 1e3;
    if times.iter().any(|t| t.is_empty()) {
        return Err(Error::Invalid("chain: no rounds timed".into()));
    }
    Ok(ChainRow {
        layers: sizes.to_vec(),
        mode: mode.to_string(),
        peer_mode: peer_mode.to_string(),
        chained_us: med(&times[1]),
        plain_us: med(&times[2]),
        peer_us: med(&times[0]),
        ratio: bench::spread(&rounds::ratios(&times[0], &times[1])),
        chaining: bench::spread(&rounds::ratios(&times[2], &times[1])),
    })
}

/// The chains as a markdown table: the layers, ours chained and not, cuBLASLt, and the two ratios.
pub fn markdown(rows: &[ChainRow], device: &str) -> String {
    let mut table = Markdown::new(&[
        ("M", Right),
        ("layers (N x K)", Left),
        ("scaling", Left),
        ("ours chained µs", Right),
        ("ours not chained µs", Right),
        ("cuBLASLt µs", Right),
        ("**cuBLASLt / ours chained** (rounds)", Right),
        ("not chained / chained", Right),
    ]);
    for r in rows {
        let names: Vec<String> = r
            .layers
            .iter()
            .map(|s| match layer_name(s.n, s.k) {
                Some(name) => format!("{name} {}x{}", s.n, s.k),
                None => format!("{}x{}", s.n, s.k),
            })
            .collect();
        let peer = if r.peer_mode == r.mode {
            String::new()
        } else {
            format!(" (peer per-{})", r.peer_mode)
        };
        table.row([
            r.layers[0].m.to_string(),
            names.join(", "),
            format!("{}{peer}", r.mode),
            format!("{:.1}", r.chained_us),
            format!("{:.1}", r.plain_us),
            format!("{:.1}", r.peer_us),
            r.ratio.percent_cell(),
            r.chaining.percent_cell(),
        ]);
    }
    let mut s = format!("device: {device}\n\n{}", table.finish());
    let ratios: Vec<f64> = rows.iter().map(|r| r.ratio.median).collect();
    let gains: Vec<f64> = rows.iter().map(|r| r.chaining.median).collect();
    if let (Some(q), Some(gain)) = (geomean(&ratios), geomean(&gains)) {
        s += &format!(
            "\n{} chains: geomean cuBLASLt / ours chained **{:.1}%**; chaining alone {:+.1}% (geomean not chained / \
             chained)\n",
            rows.len(),
            100.0 * q,
            100.0 * (gain - 1.0)
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_chain_per_token_count_in_the_order_given() {
        let p = |m, n, k| Size::mnk(m, n, k);
        let got = chains(&[
            p(16, 6144, 4096),
            p(128, 6144, 4096),
            p(16, 4096, 4096),
            p(16, 28672, 4096),
            p(128, 4096, 4096),
        ]);
        assert_eq!(
            got,
            vec![
                vec![p(16, 6144, 4096), p(16, 4096, 4096), p(16, 28672, 4096)],
                vec![p(128, 6144, 4096), p(128, 4096, 4096)],
            ]
        );
        assert!(chains(&[]).is_empty());
    }

    #[test]
    fn the_table_names_the_layers_and_both_ratios() {
        let q = |v: f64| bench::Spread {
            median: v,
            min: v,
            max: v,
            rounds: 1,
        };
        let row = ChainRow {
            layers: vec![Size::mnk(16, 6144, 4096), Size::mnk(16, 1000, 512)],
            mode: "tensor".into(),
            peer_mode: "tensor".into(),
            chained_us: 20.0,
            plain_us: 22.0,
            peer_us: 25.0,
            ratio: q(1.25),
            chaining: q(1.1),
        };
        let text = markdown(&[row], "dev");
        assert!(
            text.contains("| 16 | 8B qkv 6144x4096, 1000x512 | tensor | 20.0 | 22.0 | 25.0 |"),
            "{text}"
        );
        assert!(
            text.contains("geomean cuBLASLt / ours chained **125.0%**; chaining alone +10.0%"),
            "{text}"
        );
    }
}
