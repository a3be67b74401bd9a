//! Stencil bandwidth tables: every variant at one (n, k), against the device-to-device copy of the same input
//! measured in the same run, and a summary across k (best variant, shared memory vs register cache).
//!
//! Bytes per run count the input read once and the output written once: `n * 4 + (n - 2k) * 4`. The copy moves
//! `n` elements (`2 * n * 4` bytes); both are GB/s, and `% of D2D` is their ratio.

use crate::bench::{self, BenchConfig, Row, Table};
use crate::progress::Progress;
use cudarc::driver::CudaSlice;
use gpu_kernels::elem::table_name;
use gpu_kernels::frame::verify::launch_refs;
use gpu_kernels::frame::{Family, Size};
use gpu_kernels::runtime::{Gpu, Result};
use gpu_kernels::stencil::family::{Variant, STENCIL};
use gpu_kernels::stencil::{Method, StencilSpec, Value, TYPES};
use std::fmt::Write as _;
use swizzle_core::Elem;

/// Rotating input/output buffer sets of `n` random `V`s (enough sets to exceed the L2 `l2_factor` times).
pub struct Buffers<V: Value> {
    pub n: usize,
    inputs: Vec<CudaSlice<V>>,
    outputs: Vec<CudaSlice<V>>,
}

impl<V: Value> Buffers<V> {
    pub fn new(gpu: &Gpu, n: usize, cfg: &BenchConfig) -> Result<Buffers<V>> {
        let bytes_in = n * std::mem::size_of::<V>();
        let sets = bench::rotation(2 * bytes_in, gpu.props().l2_bytes, cfg.l2_factor);
        let host = V::random(n, 0xbe5c ^ n as u64);
        Ok(Buffers {
            n,
            inputs: (0..sets)
                .map(|_| gpu.upload(&host))
                .collect::<Result<_>>()?,
            outputs: (0..sets)
                .map(|_| gpu.zeros::<V>(n))
                .collect::<Result<_>>()?,
        })
    }

    pub fn sets(&self) -> usize {
        self.inputs.len()
    }
}

/// One table: the D2D copy of the input, then every spec of `specs` that supports `k`, on `buf`.
pub fn table<V: Value>(
    gpu: &Gpu,
    buf: &mut Buffers<V>,
    k: u32,
    specs: &[StencilSpec],
    cfg: &BenchConfig,
    progress: Option<&Progress>,
) -> Result<Table> {
    let (n, sets) = (buf.n, buf.sets());
    let bytes_in = n * std::mem::size_of::<V>();
    let copy_bytes = 2 * bytes_in as u64;
    let bytes = (bytes_in + n.saturating_sub(2 * k as usize) * std::mem::size_of::<V>()) as u64;
    let Buffers {
        inputs, outputs, ..
    } = buf;

    let d2d = bench::time(gpu, cfg, |i| {
        gpu.copy_d2d(&inputs[i % sets], &mut outputs[i % sets])
    })?;
    let ref_gbps = d2d.gbps(copy_bytes);
    let mut table = Table {
        title: format!(
            "stencil n={n} k={k} {} ({sets} rotating buffer set{})",
            table_name(V::ELEM),
            if sets == 1 { "" } else { "s" }
        ),
        reference: "cuMemcpyDtoD of the input".into(),
        reference_gbps: ref_gbps,
        unit: "GB/s".into(),
        ceiling: None,
        rows: vec![row::<V>("D2D copy", "-", n, copy_bytes, &d2d, ref_gbps)],
    };
    for s in specs.iter().filter(|s| s.supports(k)) {
        if let Some(p) = progress {
            p.step(&format!("{} n={n} k={k}", s.name));
        }
        let variant = Variant {
            spec: *s,
            k,
            value: V::ELEM,
        };
        let (kernel, launch) = STENCIL.prepared(gpu, &variant, Size::mn(1, n as u32))?;
        let stats = bench::time(gpu, cfg, |i| {
            launch_refs(
                gpu,
                &kernel,
                &launch,
                &[&inputs[i % sets], &outputs[i % sets]],
            )
        })?;
        table.rows.push(row::<V>(
            s.name,
            &format!("{}x{}", gpu_kernels::stencil::BLOCK, s.per_thread),
            n,
            bytes,
            &stats,
            ref_gbps,
        ));
    }
    Ok(table)
}

fn row<V: Value>(
    kernel: &str,
    block: &str,
    n: usize,
    bytes: u64,
    s: &bench::Spread,
    ref_gbps: f64,
) -> Row {
    let gbps = s.gbps(bytes);
    Row {
        kernel: kernel.to_string(),
        block: block.to_string(),
        elem: table_name(V::ELEM).to_string(),
        rows: 1,
        cols: n as u32,
        bytes,
        median_ms: s.median,
        min_ms: s.min,
        max_ms: s.max,
        gbps,
        pct_of_ref: 100.0 * gbps / ref_gbps,
        pct_of_ceiling: None,
        bound: false,
    }
}

/// One table per (n, element type, k), `specs` on each; one set of buffers per (n, element type).
pub fn sweep(
    gpu: &Gpu,
    sizes: &[usize],
    radii: &[u32],
    types: &[Elem],
    specs: &[StencilSpec],
    cfg: &BenchConfig,
) -> Result<Vec<Table>> {
    let total = (sizes.len() * radii.len() * types.len() * specs.len()) as u64;
    let progress = Progress::new(total, "bench stencil");
    let mut tables = Vec::new();
    for &n in sizes {
        for &v in types {
            gpu_kernels::elem::check_supported("stencil", v, &TYPES)?;
            if v == Elem::I32 {
                let mut buf = Buffers::<i32>::new(gpu, n, cfg)?;
                for &k in radii {
                    tables.push(table(gpu, &mut buf, k, specs, cfg, Some(&progress))?);
                }
            } else {
                let mut buf = Buffers::<f32>::new(gpu, n, cfg)?;
                for &k in radii {
                    tables.push(table(gpu, &mut buf, k, specs, cfg, Some(&progress))?);
                }
            }
        }
    }
    progress.finish();
    Ok(tables)
}

/// The summary of a sweep, one line per table: the copy's GB/s, the best variant and its % of the copy, the best
/// of each method, and the register cache against shared memory at equal outputs per thread (time ratio
/// smem / shfl: above 1 the register cache is faster).
pub fn summary(tables: &[Table], specs: &[StencilSpec]) -> String {
    let per_thread: Vec<u32> = {
        let mut p: Vec<u32> = specs.iter().map(|s| s.per_thread).collect();
        p.sort_unstable();
        p.dedup();
        p
    };
    let mut s = String::from(
        "| table | D2D GB/s | best | % of D2D | best global | best smem | best shfl |",
    );
    for p in &per_thread {
        let _ = write!(s, " smem/shfl P={p} |");
    }
    s.push_str("\n|---|--:|---|--:|--:|--:|--:|");
    for _ in &per_thread {
        s.push_str("--:|");
    }
    s.push('\n');
    for t in tables {
        let kernels: Vec<&Row> = t.rows.iter().skip(1).collect();
        let Some(best) = kernels.iter().max_by(|a, b| a.gbps.total_cmp(&b.gbps)) else {
            continue;
        };
        let spec_of = |r: &Row| specs.iter().find(|s| s.name == r.kernel);
        let best_of = |m: Method| {
            kernels
                .iter()
                .filter(|r| spec_of(r).is_some_and(|s| s.method == m))
                .map(|r| r.pct_of_ref)
                .fold(f64::NAN, f64::max)
        };
        let _ = write!(
            s,
            "| {} | {:.0} | {} | {:.1}% | {:.1}% | {:.1}% | {:.1}% |",
            t.title.split(" (").next().unwrap_or(&t.title),
            t.reference_gbps,
            best.kernel,
            best.pct_of_ref,
            best_of(Method::Global),
            best_of(Method::Smem),
            best_of(Method::Shfl)
        );
        for p in &per_thread {
            let time = |m: Method| {
                kernels
                    .iter()
                    .filter(|r| {
                        spec_of(r).is_some_and(|s| {
                            s.method == m
                                && s.per_thread == *p
                                && (m != Method::Smem || s.name.ends_with(&format!("p{p}")))
                        })
                    })
                    .map(|r| r.median_ms)
                    .next()
            };
            match (time(Method::Smem), time(Method::Shfl)) {
                (Some(a), Some(b)) => {
                    let _ = write!(s, " {:.2}x |", a / b);
                }
                _ => s.push_str(" - |"),
            }
        }
        s.push('\n');
    }
    s
}
