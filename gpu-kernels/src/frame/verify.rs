//! The verification runner, generic over [`Family`]: random inputs (seeded by the size and the buffer),
//! outputs poisoned with 0xFF bytes, one launch, every output element compared with the family's host reference.
//! A family's checks run on every core ([`verify_all_with`]): the host references, which cost far more than
//! the launches, are made in parallel while one check at a time uses the GPU.

use super::{Arg, Buffer, Family, HostBuf, Launch, Role, Size};
use crate::progress::Progress;
use crate::runtime::tma::TensorMap;
use crate::runtime::{Error, Gpu, Kernel, Result};
use cudarc::driver::{CudaSlice, DevicePtr, DeviceRepr, PushKernelArg};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Device buffers of one problem, in [`Family::buffers`] order.
pub struct DeviceBufs {
    pub specs: Vec<Buffer>,
    pub bufs: Vec<CudaSlice<u8>>,
}

impl DeviceBufs {
    /// Allocate `specs`, uploading `inputs[i]` into the i-th input buffer and zeroing the outputs.
    pub fn new(gpu: &Gpu, specs: Vec<Buffer>, inputs: &[HostBuf]) -> Result<DeviceBufs> {
        let mut next = inputs.iter();
        let bufs = specs
            .iter()
            .map(|b| match b.role {
                Role::Input => {
                    let host = next.next().ok_or_else(|| {
                        Error::Invalid(format!("no host data for input {}", b.name))
                    })?;
                    gpu.upload(&host.bytes)
                }
                Role::Output => gpu.zeros::<u8>(b.bytes()),
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(DeviceBufs { specs, bufs })
    }

    /// Allocate `specs`, every buffer zeroed (inputs filled afterwards, e.g. piece by piece).
    pub fn alloc(gpu: &Gpu, specs: Vec<Buffer>) -> Result<DeviceBufs> {
        let bufs = specs
            .iter()
            .map(|b| gpu.zeros::<u8>(b.bytes()))
            .collect::<Result<Vec<_>>>()?;
        Ok(DeviceBufs { specs, bufs })
    }

    /// Fill every output with the poison byte.
    pub fn poison_outputs(&mut self, gpu: &Gpu) -> Result<()> {
        for (b, d) in self.specs.iter().zip(self.bufs.iter_mut()) {
            if b.role == Role::Output {
                gpu.fill_bytes(d, super::host::POISON)?;
            }
        }
        Ok(())
    }

    /// Download the outputs, in order.
    pub fn outputs(&self, gpu: &Gpu) -> Result<Vec<HostBuf>> {
        self.specs
            .iter()
            .zip(&self.bufs)
            .filter(|(b, _)| b.role == Role::Output)
            .map(|(b, d)| {
                let mut bytes = gpu.download(d)?;
                bytes.truncate(b.bytes());
                Ok(HostBuf {
                    elem: b.elem,
                    bytes,
                })
            })
            .collect()
    }
}

/// Random inputs for `buffers` at `size`: input `i` seeded by the size and `i` ([`input_seed`]).
pub fn random_inputs(buffers: &[Buffer], size: Size) -> Vec<HostBuf> {
    buffers
        .iter()
        .filter(|b| b.role == Role::Input)
        .enumerate()
        .map(|(i, b)| HostBuf::random(b.elem, b.len, input_seed(size, i)))
        .collect()
}

/// The random-number seed of the `i`-th input buffer at `size`.
pub fn input_seed(size: Size, i: usize) -> u64 {
    ((size.m as u64) << 40) ^ ((size.n as u64) << 20) ^ size.k as u64 ^ (i as u64) << 60
}

/// Queue one launch of `kernel` on `bufs` (checks every buffer argument exists).
pub fn launch(gpu: &Gpu, kernel: &Kernel, l: &Launch, bufs: &mut [CudaSlice<u8>]) -> Result<()> {
    let refs: Vec<&CudaSlice<u8>> = bufs.iter().collect();
    launch_refs(gpu, kernel, l, &refs)
}

/// [`launch`] on typed buffers (`HopperGemm::launch`'s A, B and C).
pub fn launch_refs<T: DeviceRepr>(
    gpu: &Gpu,
    kernel: &Kernel,
    l: &Launch,
    bufs: &[&CudaSlice<T>],
) -> Result<()> {
    for a in &l.args {
        if let Arg::Buf(i) = a {
            if *i >= bufs.len() {
                return Err(Error::Invalid(format!(
                    "{}: argument names buffer {i} of {}",
                    kernel.name,
                    bufs.len()
                )));
            }
        }
    }
    // Each buffer is pushed by reference; several arguments may name the same buffer (read-only views).
    // Tensor maps hold the buffers' device addresses; encode them before the launch borrows the buffers.
    let mut maps = Vec::new();
    for a in &l.args {
        if let Arg::TensorMap { buf, rows, k, tile } = *a {
            let d = bufs.get(buf).ok_or_else(|| {
                Error::Invalid(format!(
                    "{}: tensor map of missing buffer {buf}",
                    kernel.name
                ))
            })?;
            let (ptr, _guard) = d.device_ptr(gpu.stream());
            let bytes = d.len() * std::mem::size_of::<T>();
            maps.push(TensorMap::k_major(ptr, bytes, &tile, rows, k)?);
        }
    }
    let mut next_map = maps.iter();
    gpu.launch(kernel, l.config, |b| {
        for a in &l.args {
            match a {
                Arg::Buf(i) => {
                    b.arg(bufs[*i]);
                }
                Arg::U32(v) => {
                    b.arg(v);
                }
                Arg::I32(v) => {
                    b.arg(v);
                }
                Arg::U64(v) => {
                    b.arg(v);
                }
                Arg::F32(v) => {
                    b.arg(v);
                }
                Arg::TensorMap { .. } => {
                    b.arg(next_map.next().expect("one map per TensorMap argument"));
                }
            }
        }
    })
}

/// Run `spec` once at `size` and compare every output with the host reference. The error names the family, the
/// variant, the size, the buffer and the first wrong element.
pub fn verify<F: Family>(gpu: &Gpu, family: &F, spec: &F::Spec, size: Size) -> Result<()> {
    verify_timed(
        gpu,
        &Mutex::new(()),
        family,
        spec,
        size,
        &mut Times::default(),
    )
}

/// Where the time of one verification went, in seconds: the host's inputs and reference, the GPU's part
/// (kernel lookup, upload, poison, launch, download), and the comparison.
#[derive(Clone, Copy, Debug, Default)]
pub struct Times {
    pub host_s: f64,
    pub gpu_s: f64,
    pub compare_s: f64,
}

impl Times {
    fn add(&mut self, o: &Times) {
        self.host_s += o.host_s;
        self.gpu_s += o.gpu_s;
        self.compare_s += o.compare_s;
    }
}

/// [`verify`] with the GPU part under `gpu_lock` (one thread on the GPU at a time; the host work of other
/// threads goes on meanwhile), adding its times to `times`.
fn verify_timed<F: Family>(
    gpu: &Gpu,
    gpu_lock: &Mutex<()>,
    family: &F,
    spec: &F::Spec,
    size: Size,
    times: &mut Times,
) -> Result<()> {
    let what = || format!("{} {} on {size}", family.name(), family.spec_name(spec));
    let t = Instant::now();
    let buffers = family.buffers(spec, size);
    let inputs = family.inputs(spec, size, &buffers);
    let expected = family.reference(spec, size, &inputs);
    times.host_s += t.elapsed().as_secs_f64();
    let got = {
        let _on_gpu = gpu_lock.lock().unwrap_or_else(|e| e.into_inner());
        let t = Instant::now();
        let (kernel, l) = family.prepared(gpu, spec, size)?;
        let mut dev = DeviceBufs::new(gpu, buffers.clone(), &inputs)?;
        dev.poison_outputs(gpu)?;
        launch(gpu, &kernel, &l, &mut dev.bufs)?;
        gpu.sync()
            .map_err(|e| Error::Mismatch(format!("{}: {e}", what())))?;
        let got = dev.outputs(gpu)?;
        times.gpu_s += t.elapsed().as_secs_f64();
        got
    };
    drop(inputs);
    let t = Instant::now();
    let names = buffers
        .iter()
        .filter(|b| b.role == Role::Output)
        .map(|b| b.name);
    let compared = got
        .iter()
        .zip(&expected)
        .zip(names)
        .try_for_each(|((g, e), name)| {
            g.compare(e, family.tolerance(spec))
                .map_err(|m| Error::Mismatch(format!("{} {}: {name}: {m}", what(), g.elem)))
        });
    times.compare_s += t.elapsed().as_secs_f64();
    compared?;
    if got.len() != expected.len() {
        return Err(Error::Mismatch(format!(
            "{}: the reference gave {} outputs for {}",
            what(),
            expected.len(),
            got.len()
        )));
    }
    Ok(())
}

/// Verify every spec of the family at every one of its [`Family::verify_sizes`]; the failures, one line each.
pub fn verify_all<F: Family>(gpu: &Gpu, family: &F) -> Result<Vec<String>> {
    Ok(verify_all_with(gpu, family, None)?.failures)
}

/// What [`verify_all_with`] did: the checks (spec x size), the failures (one line each, in spec-then-size
/// order), the summed [`Times`] of every check, the wall time and the host threads.
#[derive(Clone, Debug, Default)]
pub struct Verified {
    pub checks: usize,
    pub failures: Vec<String>,
    pub times: Times,
    pub wall_s: f64,
    pub threads: usize,
}

/// Verify every spec at every size (the comparison of [`verify`], element by element, unchanged), with the host
/// work spread over [`host_threads`](super::host_threads) threads: each thread takes the next check, makes its
/// inputs and its reference, waits for the GPU (one check on it at a time), and compares. At most one check per
/// thread is in memory at once. `progress` steps once per check.
pub fn verify_all_with<F: Family>(
    gpu: &Gpu,
    family: &F,
    progress: Option<&Progress>,
) -> Result<Verified> {
    let start = Instant::now();
    let specs = family.specs();
    let jobs: Vec<(Size, &F::Spec)> = family
        .verify_sizes()
        .into_iter()
        .flat_map(|size| specs.iter().map(move |spec| (size, spec)))
        .collect();
    let threads = super::host_threads().min(jobs.len()).max(1);
    let gpu_lock = Mutex::new(());
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Option<String>, Times)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(size, spec)) = jobs.get(i) else {
                    break;
                };
                let mut times = Times::default();
                let failure = match verify_timed(gpu, &gpu_lock, family, spec, size, &mut times) {
                    Ok(()) => None,
                    Err(Error::Mismatch(m)) => Some(m),
                    Err(e) => Some(format!(
                        "{} {} on {size}: {e}",
                        family.name(),
                        family.spec_name(spec)
                    )),
                };
                if let Some(p) = progress {
                    p.step(&format!("{} on {size}", family.spec_name(spec)));
                }
                results
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((i, failure, times));
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _, _)| *i);
    let mut out = Verified {
        checks: jobs.len(),
        threads,
        ..Verified::default()
    };
    for (_, failure, times) in results {
        out.failures.extend(failure);
        out.times.add(&times);
    }
    out.wall_s = start.elapsed().as_secs_f64();
    Ok(out)
}
