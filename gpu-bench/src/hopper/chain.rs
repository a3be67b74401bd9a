//! Layers back to back, as a serving stack runs one block's linear layers for a batch of tokens
//! (`swz bench gemm --chain --shapes ...`, in e4m3 with `--dtype e4m3`): the problems of one token count M, in the
//! order given, queued on one stream with no host work between them. Three contestants, timed per whole chain
//! (CUDA events around it, median of the runs, interleaved rounds in rotated order):
//! - ours, chained: each layer's planned kernel as a programmatic dependent launch ([`HopperGemm::chained`]): its
//!   prologue overlaps the end of the layer before;
//! - ours, not chained: the same kernels launched plainly (the one difference: what chaining buys);
//! - the peer's chain: cuBLASLt's FP8 GEMM of the same layers, in the same scaling mode where it plans it, else
//!   per-tensor; in 16 bits cuBLAS `gemmEx` (TN, the same call as every 16-bit Hopper comparison).
//!
//! Every layer has its own operands (a chain's weights together exceed the L2 on the LLM layers, as a model's
//! do); every layer's output of ours (chained and not) is checked against the fp64 host reference, and the FP8
//! peer's too, before any timing.

use crate::bench::Align::{Left, Right};
use crate::bench::{self, rounds, BenchConfig, Markdown};
use crate::hopper::fp8_bench::checked_peer;
use crate::hopper::shapes::{geomean, layer_name};
use cudarc::driver::CudaSlice;
use gpu_kernels::elem::E4m3;
use gpu_kernels::fp8::reference;
use gpu_kernels::fp8::{ScaleMode, Scales};
use gpu_kernels::hopper::fp8::{check_on, plan};
use gpu_kernels::hopper::planned::plan_device;
use gpu_kernels::hopper::{check, check_device, cublas_call, Cublas, HopperGemm, HopperSpec};
use gpu_kernels::runtime::cublas::Fp8Plan;
use gpu_kernels::runtime::{CublasLt, Error, Gpu, Result};
use gpu_kernels::Size;
use swizzle_core::Elem;

/// One measured chain.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ChainRow {
    pub layers: Vec<Size>,
    pub mode: String,
    /// What the chain computes (`e4m3 per-row`, `bf16`) and what the peer ran (the same, or `e4m3 per-tensor`
    /// where cuBLASLt refused the mode).
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

/// What a chain computes: e4m3 layers in a scaling mode, or 16-bit layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    E4m3(ScaleMode),
    Half(Elem),
}

/// One layer: its kernels (plain and chained) and its operands.
struct Layer<T: Operands> {
    size: Size,
    plain: HopperGemm,
    chained: HopperGemm,
    ops: T,
}

/// A layer's operands and how ours and the peer run on them.
trait Operands {
    fn ours(&mut self, gpu: &Gpu, g: &HopperGemm, size: Size) -> Result<()>;
    fn peer(&mut self) -> Result<()>;
}

/// An e4m3 layer: operands, our scales, cuBLASLt's plan and scales.
struct Fp8Layer<'a> {
    lt: &'a CublasLt,
    a: CudaSlice<E4m3>,
    b: CudaSlice<E4m3>,
    c: CudaSlice<half::bf16>,
    scales: Scales<CudaSlice<f32>>,
    peer: Fp8Plan,
    peer_scales: Scales<CudaSlice<f32>>,
}

impl Operands for Fp8Layer<'_> {
    fn ours(&mut self, gpu: &Gpu, g: &HopperGemm, size: Size) -> Result<()> {
        g.launch_fp8(gpu, &self.a, &self.b, &self.scales, &mut self.c, size)
    }
    fn peer(&mut self) -> Result<()> {
        let (a, b) = (&self.a, &self.b);
        self.lt
            .fp8_gemm(&self.peer, a, b, &self.peer_scales, &mut self.c)
    }
}

/// A 16-bit layer (`T` bf16 or fp16) and cuBLAS.
struct HalfLayer<'a, T> {
    blas: &'a Cublas,
    size: Size,
    a: CudaSlice<T>,
    b: CudaSlice<T>,
    c: CudaSlice<T>,
}

impl<T: gpu_kernels::HostElem> Operands for HalfLayer<'_, T> {
    fn ours(&mut self, gpu: &Gpu, g: &HopperGemm, size: Size) -> Result<()> {
        g.launch(gpu, &self.a, &self.b, &mut self.c, size)
    }
    fn peer(&mut self) -> Result<()> {
        let call = cublas_call(T::ELEM, self.size);
        self.blas.gemm(&call, &self.a, &self.b, &mut self.c)
    }
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

/// Measure each chain of `problems` ([`chains`]) as `kind`: the rows, one per chain.
pub fn run(
    gpu: &Gpu,
    problems: &[Size],
    kind: Kind,
    n_rounds: usize,
    cfg: &BenchConfig,
) -> Result<Vec<ChainRow>> {
    check_device(gpu.props())?;
    let mut rows = Vec::new();
    match kind {
        Kind::E4m3(mode) => {
            let lt = CublasLt::new(gpu)?;
            for sizes in chains(problems) {
                let (layers, peer_mode) = fp8_layers(gpu, &lt, &sizes, mode)?;
                let (ours, peer) = (format!("e4m3 per-{mode}"), format!("e4m3 per-{peer_mode}"));
                rows.push(time(gpu, layers, &ours, &peer, n_rounds, cfg)?);
            }
        }
        Kind::Half(ty) => {
            let blas = Cublas::new(gpu)?;
            for sizes in chains(problems) {
                let name = ty.name();
                rows.push(match ty {
                    Elem::F16 => time(
                        gpu,
                        half_layers::<half::f16>(gpu, &blas, &sizes)?,
                        name,
                        name,
                        n_rounds,
                        cfg,
                    )?,
                    _ => time(
                        gpu,
                        half_layers::<half::bf16>(gpu, &blas, &sizes)?,
                        name,
                        name,
                        n_rounds,
                        cfg,
                    )?,
                });
            }
        }
    }
    Ok(rows)
}

/// The planned e4m3 kernels (checked, chained and not) and operands of `sizes`, and cuBLASLt's plans (checked)
/// in `mode` where it plans it, else per-tensor: the layers and the peer's mode (per-tensor if any layer's is).
fn fp8_layers<'a>(
    gpu: &Gpu,
    lt: &'a CublasLt,
    sizes: &[Size],
    mode: ScaleMode,
) -> Result<(Vec<Layer<Fp8Layer<'a>>>, ScaleMode)> {
    let dev = plan_device(gpu.props());
    let mut layers = Vec::with_capacity(sizes.len());
    let mut peer_mode = mode;
    for (li, &size) in sizes.iter().enumerate() {
        let seed = 1000 + 10 * li as u64;
        let spec = plan(size, mode, &dev)?.spec;
        let (plain, chained) = kernels(gpu, spec)?;
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
        let (mode_run, peer, peer_scales) =
            checked_peer(gpu, lt, size, mode, (&x, &w), (&a, &b), seed + 4)?;
        if mode_run != mode {
            peer_mode = mode_run;
        }
        let c = gpu.zeros::<half::bf16>(size.mn_len())?;
        let ops = Fp8Layer {
            lt,
            a,
            b,
            c,
            scales,
            peer,
            peer_scales,
        };
        layers.push(Layer {
            size,
            plain,
            chained,
            ops,
        });
    }
    Ok((layers, peer_mode))
}

/// The planned 16-bit kernels (checked against the host reference, chained and not) and operands of `sizes`.
fn half_layers<'a, T: gpu_kernels::HostElem>(
    gpu: &Gpu,
    blas: &'a Cublas,
    sizes: &[Size],
) -> Result<Vec<Layer<HalfLayer<'a, T>>>> {
    let mut layers = Vec::with_capacity(sizes.len());
    for (li, &size) in sizes.iter().enumerate() {
        let seed = 2000 + 10 * li as u64;
        let spec = HopperSpec::for_problem(size, T::ELEM, gpu.props())?.spec;
        let (plain, chained) = kernels(gpu, spec)?;
        for g in [&plain, &chained] {
            check::check(gpu, g, None, size, seed)?;
        }
        let ops = HalfLayer {
            blas,
            size,
            a: gpu.upload(&check::random::<T>(size.mk_len(), seed))?,
            b: gpu.upload(&check::random::<T>(size.nk_len(), seed + 1))?,
            c: gpu.zeros::<T>(size.mn_len())?,
        };
        layers.push(Layer {
            size,
            plain,
            chained,
            ops,
        });
    }
    Ok(layers)
}

/// `spec` loaded once: launched plainly, and chained.
fn kernels(gpu: &Gpu, spec: HopperSpec) -> Result<(HopperGemm, HopperGemm)> {
    let plain = HopperGemm::new(gpu, spec)?;
    Ok((plain.clone(), plain.chained()))
}

/// Time the chain of `layers`: the peer's, ours chained, ours not chained, in interleaved rounds.
fn time<T: Operands>(
    gpu: &Gpu,
    mut layers: Vec<Layer<T>>,
    mode: &str,
    peer_mode: &str,
    n_rounds: usize,
    cfg: &BenchConfig,
) -> Result<ChainRow> {
    let times = rounds::interleaved(gpu, cfg, 3, n_rounds, |who, _| {
        for l in &mut layers {
            match who {
                0 => l.ops.peer()?,
                1 => l.ops.ours(gpu, &l.chained, l.size)?,
                _ => l.ops.ours(gpu, &l.plain, l.size)?,
            }
        }
        Ok(())
    })?;
    if times.iter().any(|t| t.is_empty()) {
        return Err(Error::Invalid("chain: no rounds timed".into()));
    }
    let med = |t: &[f64]| bench::spread(t).median * 1e3;
    Ok(ChainRow {
        layers: layers.iter().map(|l| l.size).collect(),
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
        ("type", Left),
        ("ours chained µs", Right),
        ("ours not chained µs", Right),
        ("peer µs", Right),
        ("**peer / ours chained** (rounds)", Right),
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
            format!(" (peer {})", r.peer_mode)
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
            "\n{} chains: geomean peer / ours chained **{:.1}%**; chaining alone {:+.1}% (geomean not chained / \
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
            mode: "e4m3 per-tensor".into(),
            peer_mode: "e4m3 per-tensor".into(),
            chained_us: 20.0,
            plain_us: 22.0,
            peer_us: 25.0,
            ratio: q(1.25),
            chaining: q(1.1),
        };
        let text = markdown(&[row], "dev");
        assert!(
            text.contains(
                "| 16 | 8B qkv 6144x4096, 1000x512 | e4m3 per-tensor | 20.0 | 22.0 | 25.0 |"
            ),
            "{text}"
        );
        assert!(
            text.contains("geomean peer / ours chained **125.0%**; chaining alone +10.0%"),
            "{text}"
        );
    }
}
