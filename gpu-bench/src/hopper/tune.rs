//! The Hopper GEMM against cuBLAS, measured in the same run on the same buffers: what `swz tune hopper` runs.
//!
//! [`headline`] is the headline claim in interleaved rounds (robust to the card's clock drift); [`sweep_report`]
//! is the longer comparison (candidates in three alternating rounds, the one-change sweep, the short-K raster
//! problem).
//!
//! Inputs are random (never zeros). At 4096^3 one input set (2 x 32 MiB) is not larger than the 50 MiB L2;
//! a GEMM re-reads its inputs many times over anyway, so the tile order's L2 reuse is part of what is measured.

use crate::bench::rounds;
use crate::bench::Align::Left;
use crate::bench::{self, BenchConfig, Markdown, Spread};
use gpu_kernels::elem::HostElem;
use gpu_kernels::frame::{Measure, Size};
use gpu_kernels::hopper::{
    check, cublas_call, sweep, Cublas, HopperGemm, HopperSpec, BASE, CLUSTER2, SHIPPED, TYPES,
};
use gpu_kernels::runtime::{Error, Gpu, Result};
use std::fmt::Write as _;
use std::path::Path;
use swizzle_core::raster::Raster;
use swizzle_core::Elem;

#[derive(serde::Serialize)]
struct Row {
    what: String,
    spec: String,
    #[serde(serialize_with = "Size::serialize_mnk")]
    size: Size,
    ours: Spread,
    cublas: Spread,
    ours_tflops: f64,
    cublas_tflops: f64,
    ratio: f64,
    rel_err_vs_cublas: f64,
}

impl Row {
    /// One measured spec beside the cuBLAS of the same run: the rates and ratio derived from the two medians.
    fn new(what: String, spec: String, size: Size, ours: Spread, cublas: Spread, err: f64) -> Row {
        Row {
            what,
            spec,
            size,
            ours,
            cublas,
            ours_tflops: tflops(size, ours.median),
            cublas_tflops: tflops(size, cublas.median),
            ratio: cublas.median / ours.median,
            rel_err_vs_cublas: err,
        }
    }
}

/// One problem's operands in the element type `E`, and cuBLAS's result.
struct Operands<E: HostElem> {
    size: Size,
    a: cudarc::driver::CudaSlice<E>,
    b: cudarc::driver::CudaSlice<E>,
    c: cudarc::driver::CudaSlice<E>,
    want: Vec<E>,
}

/// What the comparisons do with a problem, whatever its element type ([`problem`] picks it at run time).
trait Problem {
    fn size(&self) -> Size;
    /// Poison, run ours once, compare element-wise with cuBLAS; the relative Frobenius difference.
    fn verify(&mut self, gpu: &Gpu, g: &HopperGemm) -> Result<f64>;
    fn time_ours(&mut self, gpu: &Gpu, g: &HopperGemm, cfg: &BenchConfig) -> Result<Spread>;
    fn time_cublas(&mut self, gpu: &Gpu, blas: &Cublas, cfg: &BenchConfig) -> Result<Spread>;

    /// Verify `g`, time it with `cfg`: its row as `what`, beside the `cublas` timed before it.
    fn measure(
        &mut self,
        gpu: &Gpu,
        g: &HopperGemm,
        cfg: &BenchConfig,
        cublas: Spread,
        what: String,
    ) -> Result<Row> {
        let err = self.verify(gpu, g)?;
        let ours = self.time_ours(gpu, g, cfg)?;
        Ok(Row::new(
            what,
            g.spec.to_string(),
            self.size(),
            ours,
            cublas,
            err,
        ))
    }
}

/// Random inputs of `ty` at `size` and cuBLAS's result (the reference for this size).
fn problem(gpu: &Gpu, blas: &Cublas, ty: Elem, size: Size, seed: u64) -> Result<Box<dyn Problem>> {
    Ok(match ty {
        Elem::BF16 => Box::new(Operands::<half::bf16>::new(gpu, blas, size, seed)?),
        Elem::F16 => Box::new(Operands::<half::f16>::new(gpu, blas, size, seed)?),
        other => {
            return Err(gpu_kernels::elem::unsupported(
                "the Hopper GEMM",
                other,
                &TYPES,
            ))
        }
    })
}

/// A bf16 problem of `size` with cuBLAS timed on it once with `cfg`, under the section heading `heading` makes
/// of cuBLAS's TFLOP/s.
fn bf16_section(
    gpu: &Gpu,
    blas: &Cublas,
    (size, seed): (Size, u64),
    cfg: &BenchConfig,
    md: &mut String,
    heading: impl Fn(f64) -> String,
) -> Result<(Box<dyn Problem>, Spread)> {
    let mut p = problem(gpu, blas, Elem::BF16, size, seed)?;
    let cublas = p.time_cublas(gpu, blas, cfg)?;
    let _ = writeln!(md, "{}", heading(tflops(size, cublas.median)));
    Ok((p, cublas))
}

fn tflops(size: Size, ms: f64) -> f64 {
    Measure::Flops(size.flops()).rate(ms)
}

impl<E: HostElem> Operands<E> {
    fn new(gpu: &Gpu, blas: &Cublas, size: Size, seed: u64) -> Result<Operands<E>> {
        let a = gpu.upload(&check::random::<E>(size.mk_len(), seed))?;
        let b = gpu.upload(&check::random::<E>(size.nk_len(), seed + 1))?;
        let mut c = gpu.zeros::<E>(size.mn_len())?;
        gpu.fill_bytes(&mut c, 0xFF)?;
        blas.gemm(&cublas_call(E::ELEM, size), &a, &b, &mut c)?;
        gpu.sync()?;
        let want = gpu.download(&c)?;
        Ok(Operands {
            size,
            a,
            b,
            c,
            want,
        })
    }
}

impl<E: HostElem> Problem for Operands<E> {
    fn size(&self) -> Size {
        self.size
    }

    fn verify(&mut self, gpu: &Gpu, g: &HopperGemm) -> Result<f64> {
        gpu.fill_bytes(&mut self.c, 0xFF)?;
        g.launch(gpu, &self.a, &self.b, &mut self.c, self.size)?;
        gpu.sync()?;
        let got = gpu.download(&self.c)?;
        compare_with_cublas(&g.spec.to_string(), self.size, &got, &self.want)
    }

    fn time_ours(&mut self, gpu: &Gpu, g: &HopperGemm, cfg: &BenchConfig) -> Result<Spread> {
        let (a, b, size) = (&self.a, &self.b, self.size);
        let c = &mut self.c;
        bench::time(gpu, cfg, |_| g.launch(gpu, a, b, c, size))
    }

    fn time_cublas(&mut self, gpu: &Gpu, blas: &Cublas, cfg: &BenchConfig) -> Result<Spread> {
        let (a, b, size) = (&self.a, &self.b, self.size);
        let c = &mut self.c;
        bench::time(gpu, cfg, |_| {
            blas.gemm(&cublas_call(E::ELEM, size), a, b, c)
        })
    }
}

/// The full comparison: (1) every shipping candidate ([`sweep::candidates`]), bf16 and fp16, at 4096^3 and
/// 8192^3, cuBLAS and ours alternating in three rounds (each 5 warm-up + 20 timed runs, median), the middle round
/// reported, after an element-wise comparison with cuBLAS's output; (2) the sweep at 8192^3 bf16, each variant
/// one change from [`BASE`]; (3) the raster, epilogue and cluster variants on a wide short-K problem (16384 x
/// 16384 x 1024 bf16). `skip_cluster` leaves out cluster variants. With `dir`, writes `hopper_sweep.md`,
/// `hopper_sweep.json`, the shipped bf16 CUBIN and its ptxas log there. Returns the markdown.
pub fn sweep_report(gpu: &Gpu, dir: Option<&Path>, skip_cluster: bool) -> Result<String> {
    let blas = Cublas::new(gpu)?;
    let mut md = format!("device: {}\ndate: {}\n\n", gpu.props(), bench::today_utc());
    note!("{}", gpu.props());
    let mut rows: Vec<Row> = Vec::new();
    let headline = BenchConfig {
        warmup: 5,
        iters: 20,
        l2_factor: 1,
    };
    let quick = BenchConfig {
        warmup: 3,
        iters: 10,
        l2_factor: 1,
    };

    // 1. Headline: every candidate, bf16 and fp16, 4096^3 and 8192^3, alternating with cuBLAS.
    let usable = |spec: &HopperSpec| !(skip_cluster && spec.cluster > 1);
    let _ = writeln!(md, "## Candidates vs cuBLAS TN (3 alternating rounds x 20 runs; median of each round, the middle round-median reported)\n");
    let mut table = Markdown::new(&[
        ("candidate", Left),
        ("type", Left),
        ("size", Left),
        ("ours TFLOP/s (rounds)", Left),
        ("cuBLAS TFLOP/s (rounds)", Left),
        ("ours / cuBLAS", Left),
        ("rel. diff vs cuBLAS", Left),
    ]);
    let mut compiled: Vec<HopperGemm> = Vec::new();
    for ty in TYPES {
        for s in [4096u32, 8192] {
            let mut p = problem(gpu, &blas, ty, Size::square(s, true), 100 + s as u64)?;
            for (label, cand) in sweep::candidates() {
                let spec = cand.with_ty(ty);
                if !usable(&spec) {
                    let skipped = "skipped (cluster test failed)";
                    let size = format!("{s}^3");
                    table.row([label, &ty.to_string(), &size, skipped, "", "", ""]);
                    continue;
                }
                if !compiled.iter().any(|g| g.spec == spec) {
                    compiled.push(HopperGemm::new(gpu, spec)?);
                }
                let g = compiled.iter().find(|g| g.spec == spec).expect("compiled");
                if let (true, Some(dir)) = (spec == SHIPPED, dir) {
                    write(&dir.join("hopper_bf16.cubin"), &g.compiled.cubin)?;
                    write(&dir.join("ptxas.log"), g.compiled.log.as_bytes())?;
                }
                let err = p.verify(gpu, g)?;
                let (mut ours, mut theirs) = (Vec::new(), Vec::new());
                for _ in 0..3 {
                    theirs.push(p.time_cublas(gpu, &blas, &headline)?);
                    ours.push(p.time_ours(gpu, g, &headline)?);
                }
                let mid = |v: &[Spread]| {
                    let mut v = v.to_vec();
                    v.sort_by(|a, b| a.median.total_cmp(&b.median));
                    v[v.len() / 2]
                };
                let (o, c) = (mid(&ours), mid(&theirs));
                let list = |v: &[Spread]| {
                    v.iter()
                        .map(|x| format!("{:.0}", tflops(p.size(), x.median)))
                        .collect::<Vec<_>>()
                        .join(" / ")
                };
                let row = Row::new(
                    format!("candidate {label}"),
                    g.spec.to_string(),
                    p.size(),
                    o,
                    c,
                    err,
                );
                table.row([
                    label.to_string(),
                    ty.to_string(),
                    format!("{s}^3"),
                    format!("{:.0} ({})", row.ours_tflops, list(&ours)),
                    format!("{:.0} ({})", row.cublas_tflops, list(&theirs)),
                    format!("**{:.1}%**", 100.0 * row.ratio),
                    format!("{err:.1e}"),
                ]);
                note!(
                    "{label} {ty} {s}^3: ours {:.0} TFLOP/s, cuBLAS {:.0}, {:.1}%",
                    row.ours_tflops,
                    row.cublas_tflops,
                    100.0 * row.ratio
                );
                rows.push(row);
            }
        }
    }
    md.push_str(&table.finish());
    let shipped_bf16 = compiled.into_iter().find(|g| g.spec == SHIPPED);

    // 2. Sweep at 8192^3 bf16, one change at a time.
    let sweep_at = (Size::square(8192, true), 7);
    let (mut p, cublas_ref) = bf16_section(gpu, &blas, sweep_at, &quick, &mut md, |t| {
        format!("\n## Sweep, bf16 8192^3 (10 runs each; cuBLAS {t:.0} TFLOP/s in this block)\n")
    })?;
    let mut table = Markdown::new(&[
        (
            "variant (one change vs base; the shipped spec is two)",
            Left,
        ),
        ("spec", Left),
        ("TFLOP/s", Left),
        ("ours / cuBLAS", Left),
        ("smem B", Left),
    ]);
    for (label, spec) in sweep::labelled() {
        if !usable(&spec) {
            let skipped = "skipped (cluster test failed)";
            table.row([label, &spec.to_string(), skipped, "", ""]);
            continue;
        }
        let fresh;
        let g = if spec == SHIPPED {
            shipped_bf16.as_ref().expect("compiled above")
        } else {
            fresh = match HopperGemm::new(gpu, spec) {
                Ok(g) => g,
                Err(e) => {
                    let failed = format!("failed: {e}");
                    table.row([label, &spec.to_string(), &failed, "", ""]);
                    continue;
                }
            };
            &fresh
        };
        let row = p.measure(gpu, g, &quick, cublas_ref, format!("sweep: {label}"))?;
        table.row([
            label.to_string(),
            spec.to_string(),
            format!("{:.0}", row.ours_tflops),
            format!("{:.1}%", 100.0 * row.ratio),
            spec.smem_bytes().to_string(),
        ]);
        note!("sweep {label}: {:.0} TFLOP/s", row.ours_tflops);
        rows.push(row);
    }
    md.push_str(&table.finish());
    drop(p);

    // 3. Raster effect on a wide, short-K problem.
    let raster_at = (Size::mnk(16384, 16384, 1024), 9);
    let (mut p, cublas_ref) = bf16_section(gpu, &blas, raster_at, &quick, &mut md, |t| {
        format!("\n## Raster, bf16 16384x16384x1024 (10 runs each; cuBLAS {t:.0} TFLOP/s)\n")
    })?;
    let mut table = Markdown::new(&[("raster", Left), ("TFLOP/s", Left), ("ours / cuBLAS", Left)]);
    for (r, spec) in [
        ("identity", BASE.with_raster(Raster::Identity)),
        ("group-m 8 (base)", BASE),
        ("group-m 16", BASE.with_raster(Raster::GroupM { group: 16 })),
        ("strip 4", BASE.with_raster(Raster::Strip { tile: 4 })),
        (
            "group-m 8, 4-byte stores",
            HopperSpec {
                store16: false,
                ..BASE
            },
        ),
        ("group-m 8, cluster 2", CLUSTER2),
        (
            "group-m 8, cluster 2, 4-byte stores",
            HopperSpec {
                store16: false,
                ..CLUSTER2
            },
        ),
        ("group-m 8, cluster 2, stmatrix epilogue (shipped)", SHIPPED),
    ] {
        if !usable(&spec) {
            continue;
        }
        let g = HopperGemm::new(gpu, spec)?;
        let what = format!("short K 16384x16384x1024: {r}");
        let row = p.measure(gpu, &g, &quick, cublas_ref, what)?;
        let t = row.ours_tflops;
        table.row([
            r.to_string(),
            format!("{t:.0}"),
            format!("{:.1}%", 100.0 * row.ratio),
        ]);
        note!("raster {r}: {t:.0} TFLOP/s");
        rows.push(row);
    }
    md.push_str(&table.finish());

    if let Some(dir) = dir {
        write(&dir.join("hopper_sweep.md"), md.as_bytes())?;
        let json = serde_json::to_string_pretty(&rows).expect("plain fields");
        write(&dir.join("hopper_sweep.json"), json.as_bytes())?;
    }
    Ok(md)
}

/// Compare `got` with cuBLAS's `want` element-wise (the tolerance of [`check::tolerance`], doubled: both sides
/// round); the relative Frobenius difference, or an error naming `what` and how many elements differ.
pub(super) fn compare_with_cublas<E: HostElem>(
    what: &str,
    size: Size,
    got: &[E],
    want: &[E],
) -> Result<f64> {
    let (mut num, mut den, mut bad) = (0.0f64, 0.0f64, 0usize);
    for (&x, &y) in got.iter().zip(want) {
        let (x, y) = (x.to_f64(), y.to_f64());
        let e = (x - y).abs();
        if !x.is_finite() || e > 2.0 * check::tolerance(E::ELEM, y, size.k) {
            bad += 1;
        }
        num += e * e;
        den += y * y;
    }
    if bad > 0 || got.len() != want.len() {
        return Err(Error::Mismatch(format!(
            "{what} {size}: {bad} elements differ from cuBLAS"
        )));
    }
    Ok((num / den).sqrt())
}

pub(super) fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes)
        .map_err(|e| Error::Invalid(format!("cannot write {}: {e}", path.display())))
}

/// One candidate's interleaved rounds at one size and type.
#[derive(serde::Serialize)]
struct Rounds {
    candidate: String,
    spec: String,
    ty: String,
    #[serde(serialize_with = "Size::serialize_mnk")]
    size: Size,
    rel_err_vs_cublas: f64,
    /// cuBLAS / ours per round (> 1: ours faster).
    ratio: bench::Spread,
    per_round_ratio: Vec<f64>,
    ours_ms: Vec<f64>,
    cublas_ms: Vec<f64>,
}

/// The headline claim, robust to the card's clock drift. For bf16 and fp16 at 8192^3 then 4096^3, cuBLAS and every
/// candidate (`sweep::candidates`) are each verified against cuBLAS's output, warmed up, then timed in `rounds`
/// rounds: per round each contestant runs 2
/// warm-up + 10 timed launches (CUDA events, median), in an order rotated every round. The ratio is taken per
/// round; the table gives the median of the per-round ratios with their minimum and maximum. With `dir`, writes
/// `hopper_headline.md` and `hopper_headline.json` there. Returns the markdown.
pub fn headline(gpu: &Gpu, rounds: usize, dir: Option<&Path>) -> Result<String> {
    if rounds == 0 {
        return Err(Error::Invalid("rounds: expected a positive count".into()));
    }
    let blas = Cublas::new(gpu)?;
    let cfg = BenchConfig {
        warmup: 2,
        iters: 10,
        l2_factor: 1,
    };
    let command = format!("swz tune hopper headline --rounds {rounds}");
    let date = bench::today_utc();
    let mut md = format!(
        "device: {}\ndate: {date}\ncommand: {command}\n\n",
        gpu.props()
    );
    let _ = writeln!(
        md,
        "## Headline: {rounds} interleaved rounds (per round: cuBLAS TN and each candidate, 2 warm-up + 10 timed \
         runs each, order rotated every round); ratio = cuBLAS median / ours median within a round\n"
    );
    let mut table = Markdown::new(&[
        ("type", Left),
        ("size", Left),
        ("candidate", Left),
        ("**median ratio**", Left),
        ("min", Left),
        ("max", Left),
        ("rounds >= 95%", Left),
        ("ours TFLOP/s (median round)", Left),
        ("cuBLAS TFLOP/s (median round; first -> last)", Left),
        ("rel. diff vs cuBLAS", Left),
    ]);
    let mut all: Vec<Rounds> = Vec::new();
    let mut per_round = String::new();
    for ty in TYPES {
        for s in [8192u32, 4096] {
            let mut p = problem(gpu, &blas, ty, Size::square(s, true), 200 + s as u64)?;
            let mut cands: Vec<(&str, HopperGemm, f64)> = Vec::new();
            for (label, spec) in sweep::candidates() {
                let g = HopperGemm::new(gpu, spec.with_ty(ty))?;
                let err = p.verify(gpu, &g)?;
                cands.push((label, g, err));
            }
            // Warm the card and every kernel before the first round.
            p.time_cublas(gpu, &blas, &cfg)?;
            for (_, g, _) in &cands {
                p.time_ours(gpu, g, &cfg)?;
            }
            let n = cands.len() + 1; // contestant 0 is cuBLAS
            let mut ms = vec![Vec::with_capacity(rounds); n];
            for r in 0..rounds {
                for who in rounds::order(r, n) {
                    let st = if who == 0 {
                        p.time_cublas(gpu, &blas, &cfg)?
                    } else {
                        p.time_ours(gpu, &cands[who - 1].1, &cfg)?
                    };
                    ms[who].push(st.median);
                }
            }
            let tf = |v: f64| tflops(p.size(), v);
            let cublas_mid = bench::spread(&ms[0]).median;
            for (i, (label, g, err)) in cands.iter().enumerate() {
                let rs = rounds::ratios(&ms[0], &ms[i + 1]);
                let sp = bench::spread(&rs);
                let hits = rs.iter().filter(|&&r| r >= 0.95).count();
                table.row([
                    ty.to_string(),
                    format!("{s}^3"),
                    label.to_string(),
                    format!("**{:.1}%**", 100.0 * sp.median),
                    format!("{:.1}%", 100.0 * sp.min),
                    format!("{:.1}%", 100.0 * sp.max),
                    format!("{hits}/{rounds}"),
                    format!("{:.0}", tf(bench::spread(&ms[i + 1]).median)),
                    format!(
                        "{:.0} ({:.0} -> {:.0})",
                        tf(cublas_mid),
                        tf(ms[0][0]),
                        tf(ms[0][rounds - 1])
                    ),
                    format!("{err:.1e}"),
                ]);
                let _ = writeln!(
                    per_round,
                    "- {ty} {s}^3 {label}: {}",
                    rs.iter()
                        .map(|r| format!("{:.1}", 100.0 * r))
                        .collect::<Vec<_>>()
                        .join(" ")
                );
                note!(
                    "{ty} {s}^3 {label}: median {:.1}% (min {:.1}%, max {:.1}%) over {rounds} rounds",
                    100.0 * sp.median,
                    100.0 * sp.min,
                    100.0 * sp.max
                );
                all.push(Rounds {
                    candidate: label.to_string(),
                    spec: g.spec.to_string(),
                    ty: ty.to_string(),
                    size: p.size(),
                    rel_err_vs_cublas: *err,
                    ratio: sp,
                    per_round_ratio: rs,
                    ours_ms: ms[i + 1].clone(),
                    cublas_ms: ms[0].clone(),
                });
            }
        }
    }
    md.push_str(&table.finish());
    let _ = writeln!(md, "\nPer-round ratios (%), in round order:\n\n{per_round}");
    if let Some(dir) = dir {
        write(&dir.join("hopper_headline.md"), md.as_bytes())?;
        let json = serde_json::to_string_pretty(&all).expect("plain fields");
        write(&dir.join("hopper_headline.json"), json.as_bytes())?;
    }
    Ok(md)
}
