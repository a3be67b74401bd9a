//! The GEMM's tuning and diagnosis tools, what `swz tune gemm ...` and `swz ptxas gemm` run: every variant
//! through ptxas, every variant checked on a ragged problem, cuBLAS and a list of specs on the same buffers
//! (`bench`), in interleaved rounds (`rounds`), beside the measured `mma.sync` ceiling (`peak`), as sustained
//! bursts with the clock and power sampled (`burst`), and where the main loop's time goes (`diag`).
//!
//! Text goes to `out` one line at a time (the tables are markdown); progress notes go to stderr.

use crate::bench::BenchConfig;
use crate::gemm::bench::{markdown, measure_dyn, BurstRow, Lineup, Row};
use crate::gemm::peak::{PeakBuffers, PeakProbe, PROBES};
use crate::smi::Sampler;
use gpu_kernels::elem::{table_name, HostElem};
use gpu_kernels::gemm::{spec, BLayout, Cublas, GemmSpec, Problem, Variant, INPUTS};
#[cfg(feature = "experiments")]
use gpu_kernels::runtime::Source;
use gpu_kernels::runtime::{Compiled, Error, Gpu, Result};
use std::time::{Duration, Instant};
use swizzle_core::Elem;
use swizzle_core::Size;

/// Where each tool's text goes, one line (or block) per call.
pub type Out<'a> = &'a mut dyn FnMut(&str);

/// `nn` (B stored K x N) or `tn` (B stored N x K).
pub fn parse_b(s: &str) -> Result<BLayout> {
    match s {
        "nn" => Ok(BLayout::Kn),
        "tn" => Ok(BLayout::Nk),
        _ => Err(Error::Invalid(format!("B layout {s:?}: expected nn or tn"))),
    }
}

/// `fp16` or `bf16`.
pub fn parse_dtype(s: &str) -> Result<Elem> {
    match s {
        "fp16" | "f16" => Ok(Elem::F16),
        "bf16" => Ok(Elem::BF16),
        _ => Err(Error::Invalid(format!(
            "input type {s:?}: expected fp16 or bf16"
        ))),
    }
}

/// 128x256x64, 4 stages, filled by TMA instead of cp.async (N x K B only): what the cp.async fill costs.
#[cfg(feature = "experiments")]
pub const T128X256K64S4_TMA: GemmSpec = spec::T128X256K64S4.with_tma_fill("t128x256k64s4-tma");

/// Specs outside the shipped set that measure one cause (feature `experiments`): [`T128X256K64S4_TMA`] (B N x K
/// only, so not in the sweeps over both layouts).
#[cfg(feature = "experiments")]
pub const EXPERIMENTS: [GemmSpec; 1] = [T128X256K64S4_TMA];
/// No experiments without the `experiments` feature.
#[cfg(not(feature = "experiments"))]
pub const EXPERIMENTS: [GemmSpec; 0] = [];

// The TMA-fill experiment: valid, and conflict-free for both B layouts and output widths (its layouts are TMA's
// boxes: tests::tma_boxes_are_the_tiles).
#[cfg(feature = "experiments")]
const _: () = assert!(
    T128X256K64S4_TMA.is_valid(),
    "the TMA-fill experiment is valid"
);
#[cfg(feature = "experiments")]
gpu_kernels::assert_specs_conflict_free!(spec::Checked::every_layout(T128X256K64S4_TMA));

/// Look a spec up by name (shipped, baselines, and the experiments with the `experiments` feature).
pub fn by_name(name: &str) -> Option<GemmSpec> {
    spec::all()
        .into_iter()
        .chain(EXPERIMENTS)
        .find(|s| s.name == name)
}

/// Spec names, or the groups `tiles`, `orders`, `baselines`, `default`, `all`; duplicates dropped, order kept.
/// The experiments ([`EXPERIMENTS`]) are reached by name.
pub fn parse_specs(names: &[String]) -> Result<Vec<GemmSpec>> {
    let mut v = Vec::new();
    for name in names {
        match name.as_str() {
            "tiles" => v.extend(spec::TILES),
            "orders" => v.extend(spec::ORDERS),
            "baselines" => v.extend(spec::BASELINES),
            "default" => v.push(spec::DEFAULT),
            "all" => v.extend(spec::all()),
            n => v.push(by_name(n).ok_or_else(|| {
                Error::Invalid(format!(
                    "no GEMM spec {n:?} (names, or tiles, orders, baselines, default, all)"
                ))
            })?),
        }
    }
    let mut seen = std::collections::HashSet::new();
    v.retain(|s| seen.insert(s.name));
    Ok(v)
}

/// Every variant the tools know: shipped specs, baselines and experiments, both B layouts (the TMA fill reads B
/// stored N x K only), fp16 and bf16 in, same-type and fp32 out.
pub fn every_variant() -> Vec<Variant> {
    let mut v = Vec::new();
    for s in spec::all().into_iter().chain(EXPERIMENTS) {
        for b in BLayout::BOTH {
            if s.tma_fill && b == BLayout::Kn {
                continue;
            }
            for input in INPUTS {
                for out in [input, Elem::F32] {
                    v.push(Variant::new(s, b, input, out));
                }
            }
        }
    }
    v
}

/// A variant's file name: `spec-b-in-out` (what `--filter` matches and the cubins are called).
pub fn file_name(v: &Variant) -> String {
    format!(
        "{}-{}-{}-{}",
        v.spec.name,
        v.b.name(),
        table_name(v.input),
        table_name(v.out)
    )
}

/// The variants whose file name contains `filter` (all when `None`).
pub fn variants(filter: Option<&str>) -> Vec<Variant> {
    let mut v = every_variant();
    v.retain(|v| filter.is_none_or(|f| file_name(v).contains(f)));
    v
}

/// Compile `variants` with `ptxas -v` (NVRTC, no GPU needed), in parallel; in their order.
pub fn ptxas(variants: &[Variant]) -> Result<Vec<Compiled>> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..std::thread::available_parallelism().map_or(4, |n| n.get()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(v) = variants.get(i) else { break };
                let r = gpu_kernels::runtime::compile(
                    &v.source(),
                    "sm_90",
                    &["--ptxas-options=-v".to_string()],
                );
                done.lock().expect("no panics").push((i, r));
            });
        }
    });
    let mut results = done.into_inner().expect("no panics");
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// Check every one of `variants` on a ragged 300x500x264 problem against the host reference: one line each, then
/// the count; an error names how many were wrong.
pub fn check_variants(gpu: &Gpu, variants: &[Variant], out: Out) -> Result<()> {
    if variants.is_empty() {
        return Err(Error::Invalid("no variant matches the filter".into()));
    }
    let list: Vec<_> = variants.iter().map(|v| (v.source(), Vec::new())).collect();
    let t = Instant::now();
    gpu.precompile(&list, 16)?;
    note!(
        "compiled {} variants in {:.1} s",
        variants.len(),
        t.elapsed().as_secs_f64()
    );
    let mut failed = 0;
    for v in variants {
        let p = Problem::new(Size::mnk(300, 500, 264), v.b).padded(8, 8);
        let r = match (v.input, v.out) {
            (Elem::F16, Elem::F32) => {
                crate::gemm::check::check::<half::f16, f32>(gpu, v, &p, None, None)
            }
            (Elem::F16, Elem::F16) => {
                crate::gemm::check::check::<half::f16, half::f16>(gpu, v, &p, None, None)
            }
            (Elem::BF16, Elem::F32) => {
                crate::gemm::check::check::<half::bf16, f32>(gpu, v, &p, None, None)
            }
            (Elem::BF16, Elem::BF16) => {
                crate::gemm::check::check::<half::bf16, half::bf16>(gpu, v, &p, None, None)
            }
            _ => v.check_types().and(Err(Error::Invalid(format!(
                "{v}: the tools check same-type or fp32 outputs"
            )))),
        };
        match r {
            Ok(rep) => out(&format!(
                "ok   {v} {p}: worst {:.3} of tolerance, rel L2 {:.2e}",
                rep.worst_ratio, rep.rel_l2
            )),
            Err(e) => {
                failed += 1;
                out(&format!("FAIL {e}"));
            }
        }
    }
    out(&format!(
        "{} passed, {failed} failed",
        variants.len() - failed
    ));
    if failed > 0 {
        return Err(Error::Mismatch(format!("{failed} GEMM variants wrong")));
    }
    Ok(())
}

/// Launch each spec once on the profiling problem (`n`^3, fp16 in, output `O`), for Nsight Compute; after each
/// launch one JSON line with the bank model's counts for what ncu measures in it (`model` of spec, B, problem).
fn ncu_launches<O: HostElem>(
    gpu: &Gpu,
    b: BLayout,
    n: u32,
    specs: &[GemmSpec],
    out: Out,
    model: impl Fn(&GemmSpec, BLayout, &Problem) -> serde_json::Value,
) -> Result<()> {
    let p = Problem::new(Size::mnk(n, n, n), b);
    let a = gpu.upload(&gpu_kernels::elem::random::<half::f16>(p.a_len(), 1))?;
    let bb = gpu.upload(&gpu_kernels::elem::random::<half::f16>(p.b_len(), 2))?;
    let mut c = gpu.zeros::<O>(p.c_len())?;
    for s in specs {
        let v = Variant::new(*s, b, Elem::F16, O::ELEM);
        let k = v.prepare(gpu)?;
        v.launch(gpu, &k, &p, &a, &bb, &mut c)?;
        gpu.sync()?;
        out(&model(s, b, &p).to_string());
    }
    Ok(())
}

/// `ncu_launches` with the fp16 output: the model's ldmatrix and epilogue shared-load counts per spec; with
/// `f32_out`, the fp32 output and the model's epilogue shared-store counts.
pub fn ncu_model(
    gpu: &Gpu,
    b: BLayout,
    n: u32,
    specs: &[GemmSpec],
    f32_out: bool,
    out: Out,
) -> Result<()> {
    if f32_out {
        return ncu_launches::<f32>(gpu, b, n, specs, out, |s, b, p| {
            let m = crate::gemm::ldsm::ldsm_model(s, b, p.size);
            serde_json::json!({"spec": s.name, "b": b.name(), "out": "fp32",
                "model_sts_instructions": m.epilogue_f32_sts_instructions,
                "model_sts_wavefronts": m.epilogue_f32_sts_wavefronts})
        });
    }
    ncu_launches::<half::f16>(gpu, b, n, specs, out, |s, b, p| {
        let m = crate::gemm::ldsm::ldsm_model(s, b, p.size);
        serde_json::json!({"spec": s.name, "b": b.name(), "m": p.size.m, "n": p.size.n, "k": p.size.k,
            "model_ldsm_instructions": m.instructions, "model_ldsm_wavefronts": m.wavefronts,
            "model_ldsm_instructions_executed": m.instructions_executed,
            "model_a_per_instruction": m.a_per_instruction, "model_b_per_instruction": m.b_per_instruction,
            "model_epilogue_lds_instructions": m.epilogue_lds_instructions,
            "model_epilogue_lds_wavefronts": m.epilogue_lds_wavefronts})
    })
}

/// What `bench`, `rounds` and `peak` run: every shape x input type x B layout, cuBLAS and the specs.
pub struct Plan {
    pub shapes: Vec<Size>,
    pub dtypes: Vec<Elem>,
    pub bs: Vec<BLayout>,
    pub specs: Vec<GemmSpec>,
    pub cfg: BenchConfig,
    /// Interleaved rounds (`rounds`, `peak`).
    pub rounds: usize,
}

/// cuBLAS and the specs on the same buffers, per shape, type and B layout, each timed in one block
/// ([`measure_dyn`]); each table goes to stderr as it is measured, all rows to `out` at the end.
pub fn bench(gpu: &Gpu, plan: &Plan, out: Out) -> Result<Vec<Row>> {
    let blas = Cublas::new(gpu)?;
    let mut list = Vec::new();
    for s in &plan.specs {
        for &b in &plan.bs {
            for &d in &plan.dtypes {
                list.push((Variant::new(*s, b, d, d).source(), Vec::new()));
            }
        }
    }
    let t = Instant::now();
    gpu.precompile(&list, 16)?;
    note!(
        "compiled {} variants in {:.1} s",
        list.len(),
        t.elapsed().as_secs_f64()
    );
    let mut rows: Vec<Row> = Vec::new();
    for &shape in &plan.shapes {
        for &d in &plan.dtypes {
            for &b in &plan.bs {
                let r = measure_dyn(gpu, &plan.cfg, &blas, d, shape, b, &plan.specs)?;
                {
                    use std::io::Write as _;
                    let _ = write!(std::io::stderr(), "{}", markdown(&r));
                }
                rows.extend(r);
            }
        }
    }
    out(&markdown(&rows));
    Ok(rows)
}

/// cuBLAS and the specs in `plan.rounds` interleaved rounds (order rotated each round) per shape, type and B
/// layout: per kernel the median over rounds of the per-round ratio to cuBLAS and to the first spec.
pub fn rounds(gpu: &Gpu, plan: &Plan, out: Out) -> Result<Vec<crate::gemm::bench::RoundsRow>> {
    let blas = Cublas::new(gpu)?;
    let mut all = Vec::new();
    for &size in &plan.shapes {
        for &d in &plan.dtypes {
            for &b in &plan.bs {
                let p = Problem::new(size, b);
                let (cfg, specs, r) = (&plan.cfg, &plan.specs, plan.rounds);
                let rows = match d {
                    Elem::F16 => {
                        crate::gemm::bench::rounds::<half::f16>(gpu, cfg, &blas, &p, specs, r)
                    }
                    Elem::BF16 => {
                        crate::gemm::bench::rounds::<half::bf16>(gpu, cfg, &blas, &p, specs, r)
                    }
                    other => Err(gpu_kernels::elem::unsupported("gemm input", other, &INPUTS)),
                }?;
                out(&crate::gemm::bench::rounds_markdown(&rows));
                all.extend(rows);
            }
        }
    }
    Ok(all)
}

/// cuBLAS, the specs (B stored N x K) and the `mma.sync` probes ([`PROBES`]) in interleaved rounds: the measured
/// `mma.sync` ceiling beside cuBLAS, with the probes' SM clock.
pub fn peak(gpu: &Gpu, plan: &Plan, out: Out) -> Result<Vec<crate::gemm::bench::PeakRow>> {
    let blas = Cublas::new(gpu)?;
    let mut all = Vec::new();
    for &size in &plan.shapes {
        for &d in &plan.dtypes {
            let p = Problem::new(size, BLayout::Nk);
            let probes: Vec<PeakProbe> = PROBES
                .iter()
                .map(|&(t, a)| PeakProbe::new(d, t, a))
                .collect();
            let (cfg, specs, r) = (&plan.cfg, &plan.specs, plan.rounds);
            let rows = match d {
                Elem::F16 => crate::gemm::bench::peak_rounds::<half::f16>(
                    gpu, cfg, &blas, &p, specs, &probes, r,
                ),
                Elem::BF16 => crate::gemm::bench::peak_rounds::<half::bf16>(
                    gpu, cfg, &blas, &p, specs, &probes, r,
                ),
                other => Err(gpu_kernels::elem::unsupported("gemm input", other, &INPUTS)),
            }?;
            out(&crate::gemm::bench::peak_markdown(&rows));
            all.extend(rows);
        }
    }
    Ok(all)
}

/// What a diagnostic build of the GEMM leaves out (feature `experiments`; `gemm.cu` reads the define).
#[cfg(feature = "experiments")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Diagnostic {
    /// No mma (ptxas then drops the unused ldmatrix too): the fill and the barriers alone.
    SkipMma,
    /// No fill (cp.async or TMA): the fragment loads and the mma alone.
    SkipFill,
}

#[cfg(feature = "experiments")]
impl Diagnostic {
    pub const ALL: [Diagnostic; 2] = [Diagnostic::SkipMma, Diagnostic::SkipFill];

    /// The preprocessor switch `gemm.cu` tests.
    pub const fn define(self) -> &'static str {
        match self {
            Diagnostic::SkipMma => "GEMM_SKIP_MMA",
            Diagnostic::SkipFill => "GEMM_SKIP_FILL",
        }
    }

    /// The diagnostic build of `v`: the same source with one part of the main loop compiled out, to time the rest
    /// alone. Its result is wrong by design; it is only timed.
    pub fn source(self, v: &Variant) -> Source {
        let mut src = v.source();
        src.text = format!("#define {}\n{}", self.define(), src.text);
        src
    }
}

/// fp16 TN on `size`: each spec as shipped, without its mma and without its fill ([`Diagnostic`], feature
/// `experiments`), beside cuBLAS, in `rounds` interleaved rounds: where the main loop's time goes. The two cut-down
/// builds compute wrong results by design and are only timed.
#[cfg(feature = "experiments")]
pub fn diag(gpu: &Gpu, size: Size, specs: &[GemmSpec], rounds: usize, out: Out) -> Result<()> {
    let blas = Cublas::new(gpu)?;
    let p = Problem::new(size, BLayout::Nk);
    let (mut names, mut kernels) = (Vec::new(), Vec::new());
    for s in specs {
        let v = Variant::new(*s, BLayout::Nk, Elem::F16, Elem::F16);
        for d in std::iter::once(None).chain(Diagnostic::ALL.map(Some)) {
            let src = d.map_or_else(|| v.source(), |d| d.source(&v));
            kernels.push((v, v.prepare_from(gpu, &src)?));
            let what = d.map_or("as shipped", |d| d.define());
            names.push(format!("{} {what}", s.name));
        }
    }
    let mut lineup = Lineup::<half::f16>::new(gpu, &p, kernels)?;
    let cfg = BenchConfig {
        warmup: 3,
        iters: 10,
        l2_factor: 1,
    };
    let times = crate::bench::rounds::interleaved(gpu, &cfg, lineup.count(), rounds, |x, _| {
        lineup.launch(gpu, &blas, x)
    })?;
    out(&format!(
        "| {} fp16 tn | median ms | GEMM TFLOP/s equivalent | % of cuBLAS time |",
        size.mnk_text()
    ));
    out("|---|---|---|---|");
    let med = |t: &[f64]| crate::bench::spread(t).median;
    let cub = med(&times[0]);
    for (x, t) in times.iter().enumerate() {
        let name = if x == 0 { "cuBLAS" } else { &names[x - 1] };
        let ms = med(t);
        out(&format!(
            "| {name} | {ms:.3} | {:.1} | {:.1} |",
            p.flops() / (ms * 1e-3) / 1e12,
            100.0 * cub / ms
        ));
    }
    Ok(())
}

/// What `burst` runs.
pub struct Burst {
    pub shape: Size,
    pub dtype: Elem,
    pub b: BLayout,
    pub specs: Vec<GemmSpec>,
    /// Each burst's length.
    pub ms: u64,
    /// Passes over the lineup (odd passes in reverse order).
    pub repeat: usize,
    /// cuBLAS first and the 2-warps-per-scheduler probe last in each pass.
    pub peers: bool,
}

/// Each kernel of the lineup back to back for `o.ms`, `o.repeat` passes over the lineup (even passes in order, odd
/// passes reversed, so that no kernel always follows the same one) after one untimed burst of the first kernel;
/// one JSON line per burst, then the table ([`crate::gemm::bench::burst_markdown`], against the first spec). Clock and
/// power come from `nvidia-smi` when it runs.
pub fn burst(gpu: &Gpu, o: &Burst, out: Out) -> Result<Vec<BurstRow>> {
    let p = Problem::new(o.shape, o.b);
    match o.dtype {
        Elem::F16 => burst_of::<half::f16>(gpu, &p, o, out),
        Elem::BF16 => burst_of::<half::bf16>(gpu, &p, o, out),
        other => Err(gpu_kernels::elem::unsupported("gemm input", other, &INPUTS)),
    }
}

fn burst_of<I: HostElem>(gpu: &Gpu, p: &Problem, o: &Burst, out: Out) -> Result<Vec<BurstRow>> {
    let specs = &o.specs;
    let blas = Cublas::new(gpu)?;
    let mut lineup = Lineup::<I>::of_specs(gpu, p, specs)?;
    let probe = PeakProbe::new(I::ELEM, 256, 32);
    let pk = probe.prepare(gpu)?;
    let mut pbuf = PeakBuffers::new(gpu, probe.input, probe.threads)?;
    let (iters, pbuf_blocks) = (probe.iters_for(pbuf.blocks, p.flops()), pbuf.blocks);
    let smi = Sampler::start(&crate::smi::pci_bus_id(gpu)?, 50)
        .map_err(|e| note!("burst: {e}; no clock or power"))
        .ok();
    let unix_ms = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64)
    };
    // 0: cuBLAS, 1..=specs: the specs, specs + 1: the probe.
    let probe_x = specs.len() + 1;
    let order: Vec<usize> = if o.peers {
        (0..=probe_x).collect()
    } else {
        (1..probe_x).collect()
    };
    if order.is_empty() {
        return Err(Error::Invalid(
            "a burst without peers needs at least one spec".into(),
        ));
    }
    // Kernel x back to back for o.ms (one launch first, then 10 between synchronizations): the launches, when the
    // timed part began and ended, and for the probe the SM clock its blocks measured.
    let dur = Duration::from_millis(o.ms);
    let mut run_for = |x: usize| -> Result<(u64, Instant, Instant, Option<f64>)> {
        let mut launch = || {
            if x == probe_x {
                probe.launch(gpu, &pk, &mut pbuf, iters)
            } else {
                lineup.launch(gpu, &blas, x)
            }
        };
        launch()?;
        gpu.sync()?;
        let t = Instant::now();
        let mut launches = 0u64;
        while t.elapsed() < dur {
            for _ in 0..10 {
                launch()?;
            }
            gpu.sync()?;
            launches += 10;
        }
        let end = Instant::now();
        let clock = if x == probe_x {
            Some(pbuf.clock_mhz(gpu)?.round())
        } else {
            None
        };
        Ok((launches, t, end, clock))
    };
    // Warm-up: one untimed burst of the first kernel, so that pass 0 starts on a card as hot as the later passes
    // (a cool card holds a higher clock for the first second or two).
    run_for(order[0])?;
    let mut rows = Vec::new();
    for pass in 0..o.repeat {
        let mut xs = order.clone();
        if pass % 2 == 1 {
            xs.reverse();
        }
        for x in xs {
            let kernel = match x {
                0 => "cuBLAS".to_string(),
                x if x == probe_x => probe.name(),
                x => specs[x - 1].name.to_string(),
            };
            let start_unix_ms = unix_ms();
            let (launches, t, end, probe_clock_mhz) = run_for(x)?;
            let work = if x == probe_x {
                probe.flops(pbuf_blocks, iters)
            } else {
                p.flops()
            };
            // The clock settles in the burst's first few hundred ms.
            let w = smi
                .as_ref()
                .and_then(|s| s.window(t + Duration::from_millis(500), end));
            let row = BurstRow {
                kernel,
                dtype: table_name(I::ELEM),
                b: p.b.name(),
                pass,
                start_unix_ms,
                end_unix_ms: unix_ms(),
                launches,
                tflops: (work * launches as f64 / (end - t).as_secs_f64() / 1e12 * 10.0).round()
                    / 10.0,
                sm_clock_mhz: w.map(|w| w.clock_mhz.round()),
                power_w: w.map(|w| w.power_w.round()),
                probe_clock_mhz,
            };
            out(&serde_json::to_string(&row).expect("plain fields"));
            rows.push(row);
        }
    }
    let reference = specs.first().map_or("cuBLAS", |s| s.name);
    out(&format!(
        "\n{}, {} ms bursts\n{}",
        p.size.mnk_text(),
        o.ms,
        crate::gemm::bench::burst_markdown(&rows, reference)
    ));
    Ok(rows)
}

#[cfg(test)]
mod tests {
    #[cfg(feature = "experiments")]
    #[test]
    fn tma_boxes_are_the_tiles() {
        use gpu_kernels::gemm::spec::{SmemKind, T128X256K32};
        for s in super::EXPERIMENTS.iter().filter(|s| s.tma_fill) {
            assert!(s.tma_layout_agrees(), "{s}");
        }
        // The 64-byte rows of a k32 tile are not a 128B box: the check can fail.
        let k32 = T128X256K32.with_tma_fill("k32-tma");
        assert!(!k32.is_valid());
        let unswizzled = super::T128X256K64S4_TMA.with_smem("unswizzled-tma", SmemKind::Unswizzled);
        assert!(!unswizzled.tma_layout_agrees());
    }

    use super::*;

    #[test]
    fn spec_lists_expand_groups_and_refuse_unknown_names() {
        let names = |l: &[&str]| -> Vec<&str> {
            let l: Vec<String> = l.iter().map(|s| s.to_string()).collect();
            parse_specs(&l).unwrap().iter().map(|s| s.name).collect()
        };
        assert_eq!(names(&["default"]), [spec::DEFAULT.name]);
        // A group and a member of it: the member once.
        assert_eq!(names(&["default", "tiles"]).len(), spec::TILES.len());
        assert_eq!(
            names(&["baselines"]),
            spec::BASELINES.map(|s| s.name).to_vec()
        );
        assert!(parse_specs(&["nope".to_string()]).is_err());
        assert!(parse_b("nt").is_err() && parse_dtype("fp32").is_err());
        assert_eq!(parse_b("tn").unwrap(), BLayout::Nk);
    }

    #[test]
    fn every_variant_skips_tma_fill_with_b_kn_and_filters_by_file_name() {
        let all = every_variant();
        assert!(all.iter().all(|v| !(v.spec.tma_fill && v.b == BLayout::Kn)));
        let one = variants(Some("t128x256k32s4-tn-fp16-fp32"));
        assert_eq!(
            one.len(),
            1,
            "{:?}",
            one.iter().map(file_name).collect::<Vec<_>>()
        );
        assert!(variants(Some("no-such-variant")).is_empty());
    }
}
