//! The verification runner, generic over [`Family`]: random inputs (seeded by the size and the buffer),
//! outputs poisoned with 0xFF bytes, one launch, every output element compared with the family's host reference.

use super::{Arg, Buffer, Family, HostBuf, Launch, Role, Size};
use crate::runtime::tma::TensorMap;
use crate::runtime::{Error, Gpu, Kernel, Result};
use cudarc::driver::{CudaSlice, DevicePtr, DeviceRepr, PushKernelArg};

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

/// Random inputs for `buffers` at `size`: input `i` seeded by the size and `i`.
pub fn random_inputs(buffers: &[Buffer], size: Size) -> Vec<HostBuf> {
    buffers
        .iter()
        .filter(|b| b.role == Role::Input)
        .enumerate()
        .map(|(i, b)| {
            let seed = ((size.m as u64) << 40)
                ^ ((size.n as u64) << 20)
                ^ size.k as u64
                ^ (i as u64) << 60;
            HostBuf::random(b.elem, b.len, seed)
        })
        .collect()
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
    let what = || format!("{} {} on {size}", family.name(), family.spec_name(spec));
    let buffers = family.buffers(spec, size);
    let inputs = family.inputs(spec, size, &buffers);
    let (kernel, l) = family.prepared(gpu, spec, size)?;
    let mut dev = DeviceBufs::new(gpu, buffers.clone(), &inputs)?;
    dev.poison_outputs(gpu)?;
    launch(gpu, &kernel, &l, &mut dev.bufs)?;
    gpu.sync()
        .map_err(|e| Error::Mismatch(format!("{}: {e}", what())))?;
    let got = dev.outputs(gpu)?;
    let expected = family.reference(spec, size, &inputs);
    let names = buffers
        .iter()
        .filter(|b| b.role == Role::Output)
        .map(|b| b.name);
    for ((g, e), name) in got.iter().zip(&expected).zip(names) {
        g.compare(e, family.tolerance(spec))
            .map_err(|m| Error::Mismatch(format!("{} {}: {name}: {m}", what(), g.elem)))?;
    }
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
    let mut failures = Vec::new();
    for size in family.verify_sizes() {
        for spec in family.specs() {
            match verify(gpu, family, &spec, size) {
                Ok(()) => {}
                Err(Error::Mismatch(m)) => failures.push(m),
                Err(e) => failures.push(format!(
                    "{} {} on {size}: {e}",
                    family.name(),
                    family.spec_name(&spec)
                )),
            }
        }
    }
    Ok(failures)
}
