//! The verification runner, generic over [`Family`]: random inputs (seeded by the size and the buffer),
//! outputs poisoned ([`poison`](super::host::poison): 0xFF bytes for floats, 0x80 for integers) with a poisoned
//! guard of [`GUARD_BYTES`] after each, one launch, every output element compared with the family's host
//! reference and every guard byte still the poison (a write past the output shows).
//! A family's checks run on every core ([`verify_all_with`]): the host references, which cost far more than
//! the launches, are made in parallel while one check at a time uses the GPU, and once for all the specs that
//! compute the same function ([`Family::reference_class`]).

use super::{Arg, Buffer, Family, HostBuf, Launch, Role, Size, Steps};
use crate::runtime::tma::TensorMap;
use crate::runtime::{Error, Gpu, Kernel, Result};
use cudarc::driver::{CudaSlice, DevicePtr, DeviceRepr, PushKernelArg};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Bytes after each output that verification poisons and expects untouched.
pub const GUARD_BYTES: usize = 256;

/// Device buffers of one problem, in [`Family::buffers`] order.
pub struct DeviceBufs {
    pub specs: Vec<Buffer>,
    pub bufs: Vec<CudaSlice<u8>>,
    /// Bytes allocated after each output ([`DeviceBufs::guarded`]).
    guard: usize,
}

impl DeviceBufs {
    /// Allocate `specs`, uploading `inputs[i]` into the i-th input buffer (an error unless it has the buffer's
    /// element type and length) and zeroing the outputs.
    pub fn new(gpu: &Gpu, specs: Vec<Buffer>, inputs: &[HostBuf]) -> Result<DeviceBufs> {
        DeviceBufs::with_guard(gpu, specs, inputs, 0)
    }

    /// [`DeviceBufs::new`] with [`GUARD_BYTES`] more after each output, which [`DeviceBufs::poison_outputs`]
    /// poisons too and [`DeviceBufs::outputs`] reads back.
    pub fn guarded(gpu: &Gpu, specs: Vec<Buffer>, inputs: &[HostBuf]) -> Result<DeviceBufs> {
        DeviceBufs::with_guard(gpu, specs, inputs, GUARD_BYTES)
    }

    fn with_guard(
        gpu: &Gpu,
        specs: Vec<Buffer>,
        inputs: &[HostBuf],
        guard: usize,
    ) -> Result<DeviceBufs> {
        let mut next = inputs.iter();
        let bufs = specs
            .iter()
            .map(|b| match b.role {
                Role::Input => {
                    let host = next.next().ok_or_else(|| {
                        Error::Invalid(format!("no host data for input {}", b.name))
                    })?;
                    if host.elem != b.elem || host.bytes.len() != b.bytes() {
                        return Err(Error::Invalid(format!(
                            "input {}: {} {} elements for a buffer of {} {}",
                            b.name,
                            host.len(),
                            host.elem,
                            b.len,
                            b.elem
                        )));
                    }
                    gpu.upload(&host.bytes)
                }
                Role::Output => gpu.zeros::<u8>(b.bytes() + guard),
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(DeviceBufs { specs, bufs, guard })
    }

    /// Allocate `specs`, every buffer zeroed (inputs filled afterwards, e.g. piece by piece).
    pub fn alloc(gpu: &Gpu, specs: Vec<Buffer>) -> Result<DeviceBufs> {
        let bufs = specs
            .iter()
            .map(|b| gpu.zeros::<u8>(b.bytes()))
            .collect::<Result<Vec<_>>>()?;
        Ok(DeviceBufs {
            specs,
            bufs,
            guard: 0,
        })
    }

    /// Fill every output (and its guard) with its element type's poison byte.
    pub fn poison_outputs(&mut self, gpu: &Gpu) -> Result<()> {
        for (b, d) in self.specs.iter().zip(self.bufs.iter_mut()) {
            if b.role == Role::Output {
                gpu.fill_bytes(d, super::host::poison(b.elem))?;
            }
        }
        Ok(())
    }

    /// Download the outputs, in order, each with how many bytes of its guard are no longer the poison (none
    /// without a guard).
    pub fn outputs(&self, gpu: &Gpu) -> Result<Vec<(HostBuf, usize)>> {
        self.specs
            .iter()
            .zip(&self.bufs)
            .filter(|(b, _)| b.role == Role::Output)
            .map(|(b, d)| {
                let mut bytes = gpu.download(d)?;
                let poison = super::host::poison(b.elem);
                let end = (b.bytes() + self.guard).min(bytes.len());
                let written = bytes[b.bytes().min(end)..end]
                    .iter()
                    .filter(|&&x| x != poison)
                    .count();
                bytes.truncate(b.bytes());
                Ok((
                    HostBuf {
                        elem: b.elem,
                        bytes,
                    },
                    written,
                ))
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
/// The tensor map of every [`Arg::TensorMap`] of `l`, in argument order, each over the buffer it names in
/// `bufs` (K-major, its box the argument's tile); an error names a buffer `bufs` does not have.
pub fn tensor_maps<T: DeviceRepr>(
    gpu: &Gpu,
    kernel: &Kernel,
    l: &Launch,
    bufs: &[&CudaSlice<T>],
) -> Result<Vec<TensorMap>> {
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
    Ok(maps)
}

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
    let maps = tensor_maps(gpu, kernel, l, bufs)?;
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
    let mut times = Times::default();
    let expected = Expected::make(family, spec, size, &mut times);
    check(
        gpu,
        &Mutex::new(()),
        family,
        spec,
        size,
        &expected,
        &mut times,
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

/// What one check needs from the host: the buffers, the inputs and the expected outputs of a spec at a size
/// (shared by the specs of one [`Family::reference_class`]).
struct Expected {
    buffers: Vec<Buffer>,
    inputs: Vec<HostBuf>,
    outputs: Vec<HostBuf>,
}

impl Expected {
    /// The inputs and the host reference of `spec` at `size`, their time added to `times.host_s`.
    fn make<F: Family>(family: &F, spec: &F::Spec, size: Size, times: &mut Times) -> Expected {
        let t = Instant::now();
        let buffers = family.buffers(spec, size);
        let inputs = family.inputs(spec, size, &buffers);
        let outputs = family.reference(spec, size, &inputs);
        times.host_s += t.elapsed().as_secs_f64();
        Expected {
            buffers,
            inputs,
            outputs,
        }
    }
}

/// Run `spec` at `size` on `expected`'s inputs with the GPU part under `gpu_lock` (one thread on the GPU at a
/// time; the host work of other threads goes on meanwhile) and compare every output element with `expected`'s,
/// adding the times to `times`.
fn check<F: Family>(
    gpu: &Gpu,
    gpu_lock: &Mutex<()>,
    family: &F,
    spec: &F::Spec,
    size: Size,
    expected: &Expected,
    times: &mut Times,
) -> Result<()> {
    let what = || format!("{} {} on {size}", family.name(), family.spec_name(spec));
    let buffers = &expected.buffers;
    if family.buffers(spec, size) != *buffers {
        return Err(Error::Mismatch(format!(
            "{}: its buffers differ from those of its reference class",
            what()
        )));
    }
    let got = {
        let _on_gpu = gpu_lock.lock().unwrap_or_else(|e| e.into_inner());
        let t = Instant::now();
        let (kernel, l) = family.prepared(gpu, spec, size)?;
        let mut dev = DeviceBufs::guarded(gpu, buffers.clone(), &expected.inputs)?;
        dev.poison_outputs(gpu)?;
        launch(gpu, &kernel, &l, &mut dev.bufs)?;
        gpu.sync()
            .map_err(|e| Error::Mismatch(format!("{}: {e}", what())))?;
        let got = dev.outputs(gpu)?;
        times.gpu_s += t.elapsed().as_secs_f64();
        got
    };
    let t = Instant::now();
    let names = buffers
        .iter()
        .filter(|b| b.role == Role::Output)
        .map(|b| b.name);
    let tolerance = family.tolerance(spec).at(size);
    let compared =
        got.iter()
            .zip(&expected.outputs)
            .zip(names)
            .try_for_each(|(((g, past), e), name)| {
                let elem = g.elem;
                g.compare(e, tolerance)
                    .map_err(|m| Error::Mismatch(format!("{} {elem}: {name}: {m}", what())))?;
                match past {
                    0 => Ok(()),
                    n => Err(Error::Mismatch(format!(
                    "{} {elem}: {name}: {n} of the {GUARD_BYTES} bytes after the output written",
                    what()
                ))),
                }
            });
    times.compare_s += t.elapsed().as_secs_f64();
    compared?;
    if got.len() != expected.outputs.len() {
        return Err(Error::Mismatch(format!(
            "{}: the reference gave {} outputs for {}",
            what(),
            expected.outputs.len(),
            got.len()
        )));
    }
    Ok(())
}

/// What [`verify_all_with`] did: the checks (spec x size), the host references made for them (one per reference
/// class and size), the failures (one line each, in size-then-spec order), the summed [`Times`] of every check,
/// the wall time and the host threads.
#[derive(Clone, Debug, Default)]
pub struct Verified {
    pub checks: usize,
    pub references: usize,
    pub failures: Vec<String>,
    pub times: Times,
    pub wall_s: f64,
    pub threads: usize,
}

/// Verify every spec at every size (the comparison of [`verify`], element by element, unchanged), with the host
/// work spread over [`host_threads`](super::host_threads) threads: each thread takes the next check, gets its
/// inputs and reference, waits for the GPU (one check on it at a time), and compares. The inputs and reference
/// are made once per [`Family::reference_class`] and size, by the first thread that needs them, and dropped when
/// the class's last check at that size is done: the checks run class by class, so few are in memory at once.
/// `progress` steps once per check; the failures come in size-then-spec order.
pub fn verify_all_with<F: Family>(
    gpu: &Gpu,
    family: &F,
    progress: Option<&dyn Steps>,
) -> Result<Verified> {
    let specs = family.specs();
    let cases: Vec<(Size, F::Spec)> = family
        .verify_sizes()
        .into_iter()
        .flat_map(|size| specs.iter().map(move |s| (size, s.clone())))
        .collect();
    verify_cases(gpu, family, &cases, progress)
}

/// [`verify_all_with`] of the checks `cases` (a size and a spec each, any specs of the family at any sizes,
/// shipped or not): what a GPU test runs on its own sizes. The failures come in the order of `cases`.
pub fn verify_cases<F: Family>(
    gpu: &Gpu,
    family: &F,
    cases: &[(Size, F::Spec)],
    progress: Option<&dyn Steps>,
) -> Result<Verified> {
    let start = Instant::now();
    // (check index in the order of `cases`, size, spec, group); a group is one reference class at one size.
    let mut jobs: Vec<(usize, Size, &F::Spec, usize)> = Vec::new();
    // A spec without a class is a class of its own (its check's index).
    let mut classes: Vec<(Size, std::result::Result<String, usize>)> = Vec::new();
    for (size, spec) in cases {
        let size = *size;
        let class = family.reference_class(spec).ok_or(jobs.len());
        let group = match classes.iter().position(|(s, c)| *s == size && *c == class) {
            Some(g) => g,
            None => {
                classes.push((size, class));
                classes.len() - 1
            }
        };
        jobs.push((jobs.len(), size, spec, group));
    }
    jobs.sort_by_key(|&(i, _, _, g)| (g, i));
    let groups: Vec<(Mutex<Option<Arc<Expected>>>, AtomicUsize)> = (0..classes.len())
        .map(|g| {
            let n = jobs.iter().filter(|j| j.3 == g).count();
            (Mutex::new(None), AtomicUsize::new(n))
        })
        .collect();
    let threads = super::host_threads().min(jobs.len()).max(1);
    let gpu_lock = Mutex::new(());
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Option<String>, Times)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                while let Some(&(i, size, spec, g)) = jobs.get(next.fetch_add(1, Ordering::Relaxed))
                {
                    let mut times = Times::default();
                    let (slot, left) = &groups[g];
                    let expected = {
                        let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
                        slot.get_or_insert_with(|| {
                            Arc::new(Expected::make(family, spec, size, &mut times))
                        })
                        .clone()
                    };
                    let outcome = check(gpu, &gpu_lock, family, spec, size, &expected, &mut times);
                    drop(expected);
                    if left.fetch_sub(1, Ordering::AcqRel) == 1 {
                        slot.lock().unwrap_or_else(|e| e.into_inner()).take();
                    }
                    let failure = match outcome {
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
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _, _)| *i);
    let mut out = Verified {
        checks: jobs.len(),
        threads,
        references: classes.len(),
        ..Verified::default()
    };
    for (_, failure, times) in results {
        out.failures.extend(failure);
        out.times.add(&times);
    }
    out.wall_s = start.elapsed().as_secs_f64();
    Ok(out)
}

/// Where the specs of a [`Family::reference_class`] disagree at `size`: the first spec whose buffers or host
/// reference (on the class's inputs) differ from those of the first spec of its class.
pub fn class_disagreement<F: Family>(family: &F, size: Size) -> Option<String> {
    let mut firsts: Vec<(String, Expected)> = Vec::new();
    for spec in family.specs() {
        let Some(class) = family.reference_class(&spec) else {
            continue;
        };
        let Some((_, first)) = firsts.iter().find(|(c, _)| *c == class) else {
            let made = Expected::make(family, &spec, size, &mut Times::default());
            firsts.push((class, made));
            continue;
        };
        let name = family.spec_name(&spec);
        if family.buffers(&spec, size) != first.buffers {
            return Some(format!("{name} ({class}): other buffers than its class's"));
        }
        if family.reference(&spec, size, &first.inputs) != first.outputs {
            return Some(format!(
                "{name} ({class}): another reference than its class's"
            ));
        }
    }
    None
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::frame::{Family, Identity, Launch};
    use crate::transpose::family::{Variant, TRANSPOSE};

    /// Every family's classes at its first verification size: one buffer list and one reference per class.
    #[test]
    fn specs_of_one_reference_class_compute_the_same_function() {
        fn agree<F: Family>(f: &F) {
            let size = f.verify_sizes()[0];
            assert_eq!(class_disagreement(f, size), None, "{}", f.name());
        }
        agree(&TRANSPOSE);
        agree(&crate::fragments::FRAGMENTS);
        agree(&crate::stencil::family::STENCIL);
        agree(&crate::matmul_l2::family::MATMUL_L2);
        agree(&crate::hopper::family::HOPPER);
        agree(&crate::gemm::family::GEMM);
    }

    crate::family! {
        /// The transpose with the frame's core only (no benchmark, planner or profiler part), and the copies (a
        /// bound: output = input) put in the transposes' reference class.
        pub(crate) static CORE_ONLY: CoreOnly = Identity::matrix("core-only", "the transpose without its optional parts, one reference class per element type");
    }

    impl Family for CoreOnly {
        type Spec = Variant;
        fn specs(&self) -> Vec<Variant> {
            TRANSPOSE.specs()
        }
        fn spec_name(&self, v: &Variant) -> String {
            TRANSPOSE.spec_name(v)
        }
        fn elem(&self, v: &Variant) -> swizzle_core::Elem {
            TRANSPOSE.elem(v)
        }
        fn header(&self, v: &Variant) -> swizzle_core::cuda::Header {
            TRANSPOSE.header(v)
        }
        fn compile_unit(&self, v: &Variant) -> (crate::runtime::Source, Vec<String>) {
            TRANSPOSE.compile_unit(v)
        }
        fn entry(&self, v: &Variant) -> &'static str {
            TRANSPOSE.entry(v)
        }
        fn buffers(&self, v: &Variant, size: Size) -> Vec<Buffer> {
            TRANSPOSE.buffers(v, size)
        }
        fn launch(&self, v: &Variant, size: Size) -> Result<Launch> {
            TRANSPOSE.launch(v, size)
        }
        fn reference(&self, v: &Variant, size: Size, inputs: &[HostBuf]) -> Vec<HostBuf> {
            TRANSPOSE.reference(v, size, inputs)
        }
        fn reference_class(&self, v: &Variant) -> Option<String> {
            Some(v.elem.to_string())
        }
        fn verify_sizes(&self) -> Vec<Size> {
            vec![Size::mn(97, 131)]
        }
    }

    #[test]
    fn a_class_too_wide_is_caught() {
        let e =
            class_disagreement(&CORE_ONLY, Size::mn(97, 131)).expect("copies are not transposes");
        assert!(e.contains("another reference than its class's"), "{e}");
        // At 1 x 1 a copy is a transpose: the check compares values, not names.
        assert!(class_disagreement(&CORE_ONLY, Size::mn(1, 1)).is_none());
    }
}
