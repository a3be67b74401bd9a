//! `swz bench`'s tables, over any registered family with a [`Bench`](gpu_kernels::frame::Bench) part: every
//! variant of one element type at one size, and the family's [`Peer`] (a D2D copy, or cuBLAS) timed the same way
//! in the same run, each row as a rate (GB/s or TFLOP/s) and a percentage of the peer (and of the family's
//! [`CeilingProbe`] where it has one). How one number is made (rotation over > L2, warm-up, CUDA events, median)
//! is [`crate::bench::time`].

use crate::bench::{self, BenchConfig, Ceiling, Row, Spread, Table};
use crate::progress::Progress;
use cudarc::driver::CudaSlice;
use gpu_kernels::frame::verify::{input_seed, launch, DeviceBufs};
use gpu_kernels::frame::{
    BenchPart, Buffer, CeilingProbe, DynFamily, DynSpec, HostBuf, Measure, Peer, Role, Size,
};
use gpu_kernels::runtime::{Cublas, Error, GemmCall, Gpu, Result};
use swizzle_core::Elem;

/// One table: the peer first, then every spec of `specs` (all of one element type) at `size`.
pub fn table(
    gpu: &Gpu,
    family: &dyn DynFamily,
    specs: &[Box<dyn DynSpec + '_>],
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
    let first_part = bench_part(family, &**first, size)?;
    let elem = first.elem();
    let peer = first_part.peer;
    let peer_stats = time_peer(gpu, &peer, cfg)?;
    let peer_rate = peer.measure().rate(peer_stats.median);
    let ceiling = match first_part.ceiling {
        Some(probe) => Some(measure_ceiling(gpu, &probe, cfg)?),
        None => None,
    };
    let ceiling_rate = ceiling.as_ref().map(|c| c.rate);
    let unit = first_part.measure.unit();
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
    let mut cache: Option<(Vec<Buffer>, Vec<DeviceBufs>)> = None;
    for spec in specs {
        if let Some(p) = progress {
            p.step(&format!("{} {} {size}", spec.name(), elem));
        }
        let part = bench_part(family, &**spec, size)?;
        let buffers = spec.buffers(size);
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
        let stats = time_on(gpu, &**spec, size, cfg, sets)?;
        table.rows.push(Row {
            bound: part.bound,
            ..row(
                &spec.name(),
                &part.block,
                elem,
                size,
                &stats,
                part.measure,
                (peer_rate, ceiling_rate),
            )
        });
    }
    Ok(table)
}

/// Enough sets of `buffers` that together they exceed `l2_factor` x L2, inputs random (the same in every set,
/// the values of [`random_inputs`](gpu_kernels::frame::verify::random_inputs)). Each input is made and uploaded
/// [`UPLOAD_CHUNK`] elements at a time, so the host never holds a whole input (2^28 elements at the largest
/// sizes).
pub fn device_sets(
    gpu: &Gpu,
    buffers: &[Buffer],
    size: Size,
    cfg: &BenchConfig,
) -> Result<Vec<DeviceBufs>> {
    let mut sets = (0..set_count(gpu, buffers, cfg))
        .map(|_| DeviceBufs::alloc(gpu, buffers.to_vec()))
        .collect::<Result<Vec<_>>>()?;
    let inputs = buffers
        .iter()
        .enumerate()
        .filter(|(_, b)| b.role == Role::Input);
    for (i, (at, b)) in inputs.enumerate() {
        let seed = input_seed(size, i);
        for start in (0..b.len).step_by(UPLOAD_CHUNK) {
            let n = UPLOAD_CHUNK.min(b.len - start);
            let chunk = HostBuf::random_from(b.elem, start, n, seed);
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
fn set_count(gpu: &Gpu, buffers: &[Buffer], cfg: &BenchConfig) -> usize {
    let set_bytes: usize = buffers.iter().map(|b| b.bytes()).sum();
    bench::rotation(set_bytes, gpu.props().l2_bytes, cfg.l2_factor)
}

/// True when `new` has the inputs of `old` (same buffers, same order) and as many sets: the uploaded inputs serve.
fn same_inputs(old: &[Buffer], new: &[Buffer], gpu: &Gpu, cfg: &BenchConfig) -> bool {
    let inputs = |bs: &[Buffer]| -> Vec<(usize, Buffer)> {
        bs.iter()
            .cloned()
            .enumerate()
            .filter(|(_, b)| b.role == Role::Input)
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
    buffers: &[Buffer],
) -> Result<Vec<DeviceBufs>> {
    for set in &mut sets {
        for (i, b) in buffers.iter().enumerate() {
            if b.role == Role::Output {
                set.bufs[i] = gpu.zeros::<u8>(b.bytes())?;
            }
        }
        set.specs = buffers.to_vec();
    }
    Ok(sets)
}

/// Time one variant on buffer sets made by [`device_sets`]: compile and load once, rotate the sets, median of
/// the runs.
pub fn time_on(
    gpu: &Gpu,
    spec: &dyn DynSpec,
    size: Size,
    cfg: &BenchConfig,
    sets: &mut [DeviceBufs],
) -> Result<Spread> {
    let (kernel, l) = spec.prepared(gpu, size)?;
    let n = sets.len();
    bench::time(gpu, cfg, |i| {
        launch(gpu, &kernel, &l, &mut sets[i % n].bufs)
    })
}

/// Time the peer the same way.
pub fn time_peer(gpu: &Gpu, peer: &Peer, cfg: &BenchConfig) -> Result<Spread> {
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
fn time_cublas(gpu: &Gpu, cfg: &BenchConfig, size: Size, ab: Elem, c: Elem) -> Result<Spread> {
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
            let chunk = HostBuf::random_from(ab, start, UPLOAD_CHUNK.min(len - start), seed);
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
    s: &Spread,
    measure: Measure,
    (peer_rate, ceiling_rate): (f64, Option<f64>),
) -> Row {
    let rate = measure.rate(s.median);
    let bytes = match measure {
        Measure::Bytes(b) => b,
        Measure::Flops(_) => 0,
    };
    Row {
        kernel: kernel.to_string(),
        block: block.to_string(),
        elem: elem.name().to_string(),
        rows: size.m,
        cols: size.n,
        bytes,
        median_ms: s.median,
        min_ms: s.min,
        max_ms: s.max,
        gbps: rate,
        pct_of_ref: 100.0 * rate / peer_rate,
        pct_of_ceiling: ceiling_rate.map(|c| 100.0 * rate / c),
        bound: false,
    }
}

/// The family's benchmark part for `spec` at `size`, or an error naming the family.
pub fn bench_part(family: &dyn DynFamily, spec: &dyn DynSpec, size: Size) -> Result<BenchPart> {
    spec.bench(size)
        .ok_or_else(|| Error::Invalid(format!("{}: no benchmark", family.name())))
}

/// The ceiling `probe` names, timed like the variants: its rate in TFLOP/s and how the tables name it.
fn measure_ceiling(gpu: &Gpu, probe: &CeilingProbe, cfg: &BenchConfig) -> Result<Ceiling> {
    match *probe {
        CeilingProbe::MmaSync { input, flops } => {
            let m = crate::gemm::peak::measure(gpu, cfg, input, flops)?;
            Ok(Ceiling {
                name: m.name(input),
                rate: m.tflops,
            })
        }
    }
}

/// Tables for every (size, element type) of the family at `sizes` (the family's
/// [`Bench::bench_sizes`](gpu_kernels::frame::Bench::bench_sizes) when empty): at each, the family's specs, or
/// with `planned` (`swz bench --shapes`) its planned specs on this device ([`DynFamily::planned`]) where it plans;
/// only the specs `keep` accepts (by name and element type), grouped by element type.
pub fn sweep(
    gpu: &Gpu,
    family: &dyn DynFamily,
    sizes: &[Size],
    planned: bool,
    keep: &dyn Fn(&str, Elem) -> bool,
    cfg: &BenchConfig,
) -> Result<Vec<Table>> {
    let sizes = if sizes.is_empty() {
        family.bench_sizes()
    } else {
        sizes.to_vec()
    };
    if sizes.is_empty() {
        return Err(Error::Invalid(format!("{}: no benchmark", family.name())));
    }
    let mut per_size = Vec::with_capacity(sizes.len());
    for size in sizes {
        let plan = if planned {
            family.planned(size, Some(gpu.props()))?
        } else {
            None
        };
        let specs = match plan {
            Some(planned) => planned.into_iter().map(|(s, _)| s).collect(),
            None => family.dyn_specs(),
        };
        per_size.push((size, specs));
    }
    tables(gpu, family, per_size, keep, cfg)
}

/// The specs one size's tables time.
type SpecsAt<'a> = (Size, Vec<Box<dyn DynSpec + 'a>>);

/// One table per (size, element type) of the specs given for that size that `keep` accepts.
fn tables(
    gpu: &Gpu,
    family: &dyn DynFamily,
    per_size: Vec<SpecsAt<'_>>,
    keep: &dyn Fn(&str, Elem) -> bool,
    cfg: &BenchConfig,
) -> Result<Vec<Table>> {
    let per_size: Vec<SpecsAt<'_>> = per_size
        .into_iter()
        .map(|(size, specs)| {
            let kept = specs.into_iter().filter(|s| keep(&s.name(), s.elem()));
            (size, kept.collect())
        })
        .collect();
    let total: usize = per_size.iter().map(|(_, s)| s.len()).sum();
    let progress = Progress::new(total as u64, &format!("bench {}", family.name()));
    let mut tables = Vec::new();
    for (size, specs) in per_size {
        let mut groups: Vec<(Elem, Vec<Box<dyn DynSpec + '_>>)> = Vec::new();
        for s in specs {
            let e = s.elem();
            match groups.iter_mut().find(|(g, _)| *g == e) {
                Some((_, group)) => group.push(s),
                None => groups.push((e, vec![s])),
            }
        }
        for (_, group) in &groups {
            tables.push(table(gpu, family, group, size, cfg, Some(&progress))?);
        }
    }
    progress.finish();
    Ok(tables)
}
