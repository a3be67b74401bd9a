//! Benchmark tables, generic over a [`Family`] with a [`Bench`] part: every variant of one element type at one size, and the family's
//! [`Peer`] (a D2D copy, or cuBLAS) timed the same way in the same run, each row as a rate (GB/s or TFLOP/s)
//! and a percentage of the peer. How one number is made (rotation over > L2, warm-up, CUDA events, median) is
//! [`crate::bench::time`].

use super::verify::{input_seed, launch, DeviceBufs};
use super::{Bench, Family, Peer, Size};
use crate::bench::{self, BenchConfig, Progress, Row, Stats, Table};
use crate::runtime::{Cublas, Error, GemmCall, Gpu, Result};
use cudarc::driver::CudaSlice;
use swizzle_core::Elem;

/// One table: the peer first, then every spec of `specs` (all of one element type) at `size`.
pub fn table<F: Family>(
    gpu: &Gpu,
    family: &F,
    specs: &[F::Spec],
    size: Size,
    cfg: &BenchConfig,
    progress: Option<&Progress>,
) -> Result<Table> {
    let Some(first) = specs.first() else {
        return Err(Error::Invalid(format!(
            "{}: no variants to measure",
            family.name()
        )));
    };
    let bench = bench_part(family)?;
    let elem = family.elem(first);
    let peer = bench.peer(first, size);
    let peer_stats = time_peer(gpu, &peer, cfg)?;
    let peer_rate = peer.measure().rate(peer_stats.median_ms);
    let ceiling = bench.ceiling(gpu, first, size, cfg)?;
    let ceiling_rate = ceiling.as_ref().map(|c| c.rate);
    let unit = bench.measure(first, size).unit();
    let mut table = Table {
        title: format!("{} {size} {elem}", family.name()),
        reference: peer.name(),
        reference_gbps: peer_rate,
        unit: unit.to_string(),
        ceiling,
        rows: vec![row(
            &peer.name(),
            "-",
            elem,
            size,
            &peer_stats,
            peer.measure(),
            (peer_rate, ceiling_rate),
        )],
    };
    // Buffers (and their random inputs, 2^28 elements at 16384^2) are made once and shared by every spec that
    // takes the same ones.
    let mut cache: Option<(Vec<super::Buffer>, Vec<DeviceBufs>)> = None;
    for spec in specs {
        if let Some(p) = progress {
            p.step(&format!("{} {} {size}", family.spec_name(spec), elem));
        }
        let buffers = family.buffers(spec, size);
        if cache.as_ref().is_none_or(|(b, _)| *b != buffers) {
            // Specs that differ only in their outputs (the stencil's radius) keep the uploaded inputs.
            let sets = match cache.take() {
                Some((old, sets)) if same_inputs(&old, &buffers, gpu, cfg) => {
                    with_outputs(gpu, sets, &buffers)?
                }
                old => {
                    drop(old); // free the old sets first
                    device_sets(gpu, &buffers, size, cfg)?
                }
            };
            cache = Some((buffers.clone(), sets));
        }
        let (_, sets) = cache.as_mut().expect("just filled");
        let stats = time_on(gpu, family, spec, size, cfg, sets)?;
        table.rows.push(Row {
            bound: bench.is_bound(spec),
            ..row(
                &family.spec_name(spec),
                &bench.block_label(spec),
                elem,
                size,
                &stats,
                bench.measure(spec, size),
                (peer_rate, ceiling_rate),
            )
        });
    }
    Ok(table)
}

/// Enough sets of `buffers` that together they exceed `l2_factor` x L2, inputs random (the same in every set,
/// the values of [`random_inputs`](super::verify::random_inputs)). Each input is made and uploaded
/// [`UPLOAD_CHUNK`] elements at a time, so the host never holds a whole input (2^28 elements at the largest
/// sizes).
pub fn device_sets(
    gpu: &Gpu,
    buffers: &[super::Buffer],
    size: Size,
    cfg: &BenchConfig,
) -> Result<Vec<DeviceBufs>> {
    let mut sets = (0..set_count(gpu, buffers, cfg))
        .map(|_| DeviceBufs::alloc(gpu, buffers.to_vec()))
        .collect::<Result<Vec<_>>>()?;
    let inputs = buffers
        .iter()
        .enumerate()
        .filter(|(_, b)| b.role == super::Role::Input);
    for (i, (at, b)) in inputs.enumerate() {
        let seed = input_seed(size, i);
        for start in (0..b.len).step_by(UPLOAD_CHUNK) {
            let n = UPLOAD_CHUNK.min(b.len - start);
            let chunk = super::HostBuf::random_from(b.elem, start, n, seed);
            let offset = start * b.elem.bytes() as usize;
            for set in &mut sets {
                gpu.upload_at(&mut set.bufs[at], offset, &chunk.bytes)?;
            }
        }
    }
    Ok(sets)
}

/// Elements made and uploaded at a time by [`device_sets`].
pub const UPLOAD_CHUNK: usize = 1 << 24;

/// How many buffer sets [`device_sets`] makes for `buffers`.
fn set_count(gpu: &Gpu, buffers: &[super::Buffer], cfg: &BenchConfig) -> usize {
    let set_bytes: usize = buffers.iter().map(|b| b.bytes()).sum();
    bench::rotation(set_bytes, gpu.props().l2_bytes, cfg.l2_factor)
}

/// True when `new` has the inputs of `old` (same buffers, same order) and as many sets: the uploaded inputs serve.
fn same_inputs(old: &[super::Buffer], new: &[super::Buffer], gpu: &Gpu, cfg: &BenchConfig) -> bool {
    let inputs = |bs: &[super::Buffer]| -> Vec<(usize, super::Buffer)> {
        bs.iter()
            .cloned()
            .enumerate()
            .filter(|(_, b)| b.role == super::Role::Input)
            .collect()
    };
    old.len() == new.len()
        && inputs(old) == inputs(new)
        && set_count(gpu, old, cfg) == set_count(gpu, new, cfg)
}

/// `sets` with their outputs reallocated for `buffers` (inputs kept).
fn with_outputs(
    gpu: &Gpu,
    mut sets: Vec<DeviceBufs>,
    buffers: &[super::Buffer],
) -> Result<Vec<DeviceBufs>> {
    for set in &mut sets {
        for (i, b) in buffers.iter().enumerate() {
            if b.role == super::Role::Output {
                set.bufs[i] = gpu.zeros::<u8>(b.bytes())?;
            }
        }
        set.specs = buffers.to_vec();
    }
    Ok(sets)
}

/// Time one variant: compile and load once, rotate buffer sets over > `l2_factor` x L2, median of the runs.
pub fn time_spec<F: Family>(
    gpu: &Gpu,
    family: &F,
    spec: &F::Spec,
    size: Size,
    cfg: &BenchConfig,
) -> Result<Stats> {
    let mut sets = device_sets(gpu, &family.buffers(spec, size), size, cfg)?;
    time_on(gpu, family, spec, size, cfg, &mut sets)
}

/// [`time_spec`] on buffer sets made by [`device_sets`].
pub fn time_on<F: Family>(
    gpu: &Gpu,
    family: &F,
    spec: &F::Spec,
    size: Size,
    cfg: &BenchConfig,
    sets: &mut [DeviceBufs],
) -> Result<Stats> {
    let (kernel, l) = family.prepared(gpu, spec, size)?;
    let n = sets.len();
    bench::time(gpu, cfg, |i| {
        launch(gpu, &kernel, &l, &mut sets[i % n].bufs)
    })
}

/// Time the peer the same way.
pub fn time_peer(gpu: &Gpu, peer: &Peer, cfg: &BenchConfig) -> Result<Stats> {
    match *peer {
        Peer::CopyD2D { bytes } => {
            let n = bytes as usize;
            let sets = bench::rotation(2 * n, gpu.props().l2_bytes, cfg.l2_factor);
            let src = (0..sets)
                .map(|_| gpu.zeros::<u8>(n))
                .collect::<Result<Vec<_>>>()?;
            let mut dst = (0..sets)
                .map(|_| gpu.zeros::<u8>(n))
                .collect::<Result<Vec<_>>>()?;
            bench::time(gpu, cfg, |i| {
                gpu.copy_d2d(&src[i % sets], &mut dst[i % sets])
            })
        }
        Peer::CublasGemm { size, ab, c } => time_cublas(gpu, cfg, size, ab, c),
    }
}

/// cuBLAS `gemmEx` of row-major `C (m x n) = A (m x k) B (k x n)` on rotated buffer sets, timed like a variant.
fn time_cublas(gpu: &Gpu, cfg: &BenchConfig, size: Size, ab: Elem, c: Elem) -> Result<Stats> {
    let Size { m, n, k } = size;
    let blas = Cublas::new(gpu)?;
    let call = GemmCall::row_major(size, ab, c);
    let (a_bytes, b_bytes, c_bytes) = call.bytes();
    let sets = bench::rotation(
        a_bytes + b_bytes + c_bytes,
        gpu.props().l2_bytes,
        cfg.l2_factor,
    );
    let (mu, nu, ku) = (m as usize, n as usize, k as usize);
    let mut bufs: Vec<(CudaSlice<u8>, CudaSlice<u8>, CudaSlice<u8>)> = Vec::with_capacity(sets);
    for _ in 0..sets {
        bufs.push((
            gpu.zeros::<u8>(a_bytes)?,
            gpu.zeros::<u8>(b_bytes)?,
            gpu.zeros::<u8>(c_bytes)?,
        ));
    }
    // Random A and B, made and uploaded UPLOAD_CHUNK elements at a time (the host never holds a whole operand).
    for (len, seed, pick) in [(mu * ku, 1, 0), (ku * nu, 2, 1)] {
        for start in (0..len).step_by(UPLOAD_CHUNK) {
            let chunk = super::HostBuf::random_from(ab, start, UPLOAD_CHUNK.min(len - start), seed);
            let offset = start * ab.bytes() as usize;
            for (a, b, _) in &mut bufs {
                let dst = if pick == 0 { &mut *a } else { &mut *b };
                gpu.upload_at(dst, offset, &chunk.bytes)?;
            }
        }
    }
    bench::time(gpu, cfg, |i| {
        let (a, b, cc) = &mut bufs[i % sets];
        blas.gemm(&call, a, b, cc)
    })
}

fn row(
    kernel: &str,
    block: &str,
    elem: Elem,
    size: Size,
    s: &Stats,
    measure: super::Measure,
    (peer_rate, ceiling_rate): (f64, Option<f64>),
) -> Row {
    let rate = measure.rate(s.median_ms);
    let bytes = match measure {
        super::Measure::Bytes(b) => b,
        super::Measure::Flops(_) => 0,
    };
    Row {
        kernel: kernel.to_string(),
        block: block.to_string(),
        elem: elem.name().to_string(),
        rows: size.m,
        cols: size.n,
        bytes,
        median_ms: s.median_ms,
        min_ms: s.min_ms,
        max_ms: s.max_ms,
        gbps: rate,
        pct_of_ref: 100.0 * rate / peer_rate,
        pct_of_ceiling: ceiling_rate.map(|c| 100.0 * rate / c),
        bound: false,
    }
}

/// The family's benchmark part, or an error naming the family.
pub fn bench_part<F: Family>(family: &F) -> Result<&dyn Bench<F::Spec>> {
    family
        .as_bench()
        .ok_or_else(|| Error::Invalid(format!("{}: no benchmark", family.name())))
}

/// Tables for every (size, element type) of the family: its specs grouped by element type, at `sizes` (the
/// family's [`Bench::bench_sizes`] when empty), optionally only the specs `keep` accepts.
pub fn sweep<F: Family>(
    gpu: &Gpu,
    family: &F,
    sizes: &[Size],
    keep: &dyn Fn(&F::Spec) -> bool,
    cfg: &BenchConfig,
) -> Result<Vec<Table>> {
    let sizes = if sizes.is_empty() {
        bench_part(family)?.bench_sizes()
    } else {
        sizes.to_vec()
    };
    let specs = family.specs();
    let per_size: Vec<(Size, Vec<F::Spec>)> = sizes.iter().map(|&s| (s, specs.clone())).collect();
    tables(gpu, family, per_size, keep, cfg)
}

/// Tables at problems the user named (`swz bench --shapes`): at each, the family's planned specs
/// ([`Plan::planned`](super::Plan::planned) on this device) where it plans, its specs otherwise; `keep` filters
/// either.
pub fn sweep_planned<F: Family>(
    gpu: &Gpu,
    family: &F,
    sizes: &[Size],
    keep: &dyn Fn(&F::Spec) -> bool,
    cfg: &BenchConfig,
) -> Result<Vec<Table>> {
    let mut per_size = Vec::with_capacity(sizes.len());
    for &size in sizes {
        let specs = match family.as_plan() {
            Some(plan) => plan
                .planned(size, Some(gpu.props()))?
                .into_iter()
                .map(|(s, _)| s)
                .collect(),
            None => family.specs(),
        };
        per_size.push((size, specs));
    }
    tables(gpu, family, per_size, keep, cfg)
}

/// One table per (size, element type) of the specs given for that size that `keep` accepts.
fn tables<F: Family>(
    gpu: &Gpu,
    family: &F,
    per_size: Vec<(Size, Vec<F::Spec>)>,
    keep: &dyn Fn(&F::Spec) -> bool,
    cfg: &BenchConfig,
) -> Result<Vec<Table>> {
    let per_size: Vec<(Size, Vec<F::Spec>)> = per_size
        .into_iter()
        .map(|(size, specs)| (size, specs.into_iter().filter(|s| keep(s)).collect()))
        .collect();
    let total: usize = per_size.iter().map(|(_, s)| s.len()).sum();
    let progress = Progress::new(total as u64, &format!("bench {}", family.name()));
    let mut tables = Vec::new();
    for (size, specs) in &per_size {
        let mut elems: Vec<Elem> = Vec::new();
        for s in specs {
            let e = family.elem(s);
            if !elems.contains(&e) {
                elems.push(e);
            }
        }
        for &e in &elems {
            let group: Vec<F::Spec> = specs
                .iter()
                .filter(|s| family.elem(s) == e)
                .cloned()
                .collect();
            tables.push(table(gpu, family, &group, *size, cfg, Some(&progress))?);
        }
    }
    progress.finish();
    Ok(tables)
}
