//! One opened GPU: its context and stream, its properties, its loaded modules (compiled through the one compile
//! cache, [`crate::runtime::cache`]), memory helpers and CUDA-event timing.

use crate::runtime::cache;
use crate::runtime::error::{DriverContext, Error, Result};
use crate::runtime::library::Library;
use crate::runtime::nvrtc::{self, Source};
use cudarc::driver::sys::CUdevice_attribute as Attr;
use cudarc::driver::{
    sys, CudaContext, CudaEvent, CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr,
    DevicePtrMut, DeviceRepr, LaunchConfig, PushKernelArg, SyncOnDrop, ValidAsZeroBits,
};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// What the benchmarks and kernels need to know about a device, read from the driver.
#[derive(Clone, Debug, serde::Serialize)]
pub struct DeviceProps {
    pub ordinal: usize,
    pub name: String,
    /// (major, minor), e.g. (9, 0) for Hopper.
    pub compute_capability: (i32, i32),
    pub sm_count: u32,
    pub l2_bytes: usize,
    /// Static shared memory a block gets without opting in (48 KiB).
    pub smem_per_block: usize,
    /// The most dynamic shared memory a block may opt in to.
    pub smem_per_block_optin: usize,
    pub smem_per_sm: usize,
    pub total_mem_bytes: usize,
    pub mem_clock_khz: u32,
    pub mem_bus_bits: u32,
}

impl DeviceProps {
    /// The NVRTC target for this device's own architecture, e.g. `sm_90`.
    pub fn arch(&self) -> String {
        format!(
            "sm_{}{}",
            self.compute_capability.0, self.compute_capability.1
        )
    }
}

impl std::fmt::Display for DeviceProps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ({}, {} SMs, L2 {} MiB, smem {} KiB/block opt-in, {} KiB/SM, {:.1} GiB)",
            self.name,
            self.arch(),
            self.sm_count,
            self.l2_bytes >> 20,
            self.smem_per_block_optin >> 10,
            self.smem_per_sm >> 10,
            self.total_mem_bytes as f64 / (1u64 << 30) as f64
        )
    }
}

/// A loaded kernel: the function and the name used in error messages.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub name: String,
    pub func: CudaFunction,
    /// Launched as a programmatic dependent of the stream's previous kernel
    /// (`CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION`): the kernel may start while the one before it
    /// finishes, and must itself wait (`griddepcontrol.wait`) before it touches global memory. Only for kernels
    /// written so ([`Kernel::chained`]).
    pub chained: bool,
}

impl Kernel {
    /// This kernel, its launches chained to the kernel before them on the stream (see [`Kernel::chained`]'s
    /// field): for a kernel whose code waits for its predecessor (`griddepcontrol.wait`) before any global
    /// memory access, so that its prologue overlaps the end of the kernel before.
    pub fn chained(self) -> Kernel {
        Kernel {
            chained: true,
            ..self
        }
    }
}

/// A kernel's argument list, in the order the kernel declares its parameters, as [`Gpu::launch`] hands it to
/// `cuLaunchKernelEx`: a scalar or a tensor map by reference, a buffer by its device address (kept here until
/// the launch; its stream-order guard recorded after it). Filled through cudarc's [`PushKernelArg`].
pub struct KernelArgs<'a> {
    stream: &'a CudaStream,
    params: Vec<Param>,
    addresses: Vec<sys::CUdeviceptr>,
    guards: Vec<SyncOnDrop<'a>>,
}

/// One parameter: a pointer to its value, or the index of a buffer's address in [`KernelArgs`].
enum Param {
    Value(*mut std::ffi::c_void),
    Address(usize),
}

impl<'a> KernelArgs<'a> {
    fn address(&mut self, ptr: sys::CUdeviceptr, guard: SyncOnDrop<'a>) -> &mut Self {
        self.params.push(Param::Address(self.addresses.len()));
        self.addresses.push(ptr);
        self.guards.push(guard);
        self
    }

    /// The parameter pointers `cuLaunchKernelEx` reads, valid while `self` is neither moved nor changed.
    fn pointers(&self) -> Vec<*mut std::ffi::c_void> {
        self.params
            .iter()
            .map(|p| match *p {
                Param::Value(v) => v,
                Param::Address(i) => &self.addresses[i] as *const sys::CUdeviceptr as *mut _,
            })
            .collect()
    }
}

/// The scalar and by-value parameter types the kernels declare, each passed by reference as cudarc's own
/// launch builder does (the value outlives the launch: 'b: 'a).
macro_rules! by_reference {
    ($($t:ty),*) => {$(
        // SAFETY: a `DeviceRepr` value, read by the driver from the reference while the launch is queued.
        unsafe impl<'a, 'b: 'a> PushKernelArg<&'b $t> for KernelArgs<'a> {
            fn arg(&mut self, arg: &'b $t) -> &mut Self {
                self.params.push(Param::Value(arg as *const $t as *mut _));
                self
            }
        }
    )*};
}
by_reference!(u32, i32, u64, f32, crate::runtime::tma::TensorMap);

// SAFETY: the buffer's device address, read through cudarc's stream-ordered access (its guard lives until the
// launch is queued).
unsafe impl<'a, 'b: 'a, T> PushKernelArg<&'b CudaSlice<T>> for KernelArgs<'a> {
    fn arg(&mut self, arg: &'b CudaSlice<T>) -> &mut Self {
        let (ptr, guard) = arg.device_ptr(self.stream);
        self.address(ptr, guard)
    }
}

// SAFETY: as for `&CudaSlice`, with cudarc's write access.
unsafe impl<'a, 'b: 'a, T> PushKernelArg<&'b mut CudaSlice<T>> for KernelArgs<'a> {
    fn arg(&mut self, arg: &'b mut CudaSlice<T>) -> &mut Self {
        let (ptr, guard) = arg.device_ptr_mut(self.stream);
        self.address(ptr, guard)
    }
}

/// The dynamic shared memory a kernel with `fixed` bytes of static shared memory may ask for, under the
/// device's opt-in limit per block `optin` (what `cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)` accepts).
///
/// ```
/// use gpu_kernels::runtime::device::dynamic_smem_limit;
/// assert_eq!(dynamic_smem_limit(232_448, 0), 232_448);
/// assert_eq!(dynamic_smem_limit(232_448, 4_352), 228_096);
/// assert_eq!(dynamic_smem_limit(1_024, -1), 1_024);
/// ```
pub fn dynamic_smem_limit(optin: usize, fixed: i32) -> u32 {
    let fixed = usize::try_from(fixed).unwrap_or(0);
    u32::try_from(optin.saturating_sub(fixed)).unwrap_or(u32::MAX)
}

/// True when the NVIDIA driver library loads and has every function the runtime calls ([`Library::check`]).
/// Never panics (cudarc panics if libcuda or one of its functions is missing, so this probes first).
pub fn gpu_available() -> bool {
    Library::Driver.check().is_ok()
}

/// One compile of [`Gpu::precompile_jobs`]: a source, its NVRTC options and its target (`sm_90`, `sm_90a`).
#[derive(Clone, Debug)]
pub struct CompileJob {
    pub src: Source,
    pub options: Vec<String>,
    pub arch: String,
}

/// An opened GPU. Cheap to share by reference; the module cache is behind a mutex.
pub struct Gpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    props: DeviceProps,
    modules: Mutex<HashMap<u64, Arc<CudaModule>>>,
}

impl Gpu {
    /// Open device `ordinal`. Fails with [`Error::NoDriver`] (never a panic) when there is no driver,
    /// [`Error::BrokenLibrary`] when it lacks a function, and with [`Error::NoDevice`] when the driver has no such
    /// GPU.
    pub fn open(ordinal: usize) -> Result<Gpu> {
        Library::Driver.check()?;
        let ctx =
            CudaContext::new(ordinal).map_err(|source| Error::NoDevice { ordinal, source })?;
        let attr = |a: Attr, what: &str| ctx.attribute(a).ctx(what).map(|v| v.max(0) as usize);
        let props = DeviceProps {
            ordinal,
            name: ctx.name().ctx("cuDeviceGetName")?,
            compute_capability: ctx.compute_capability().ctx("compute capability")?,
            sm_count: attr(Attr::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "SM count")? as u32,
            l2_bytes: attr(Attr::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "L2 size")?,
            smem_per_block: attr(
                Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
                "smem per block",
            )?,
            smem_per_block_optin: attr(
                Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                "smem per block (opt-in)",
            )?,
            smem_per_sm: attr(
                Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
                "smem per SM",
            )?,
            total_mem_bytes: ctx.total_mem().ctx("cuDeviceTotalMem")?,
            mem_clock_khz: attr(Attr::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, "memory clock")?
                as u32,
            mem_bus_bits: attr(
                Attr::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
                "bus width",
            )? as u32,
        };
        let stream = ctx.default_stream();
        Ok(Gpu {
            ctx,
            stream,
            props,
            modules: Mutex::new(HashMap::new()),
        })
    }

    pub fn props(&self) -> &DeviceProps {
        &self.props
    }

    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    pub fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// Compile (for this device's architecture) and load `src` with `options`, or return the module compiled
    /// earlier for the same (source, headers, options).
    pub fn module(&self, src: &Source, options: &[String]) -> Result<Arc<CudaModule>> {
        self.module_for_arch(src, options, &self.props.arch())
    }

    /// [`Gpu::module`] for an explicit NVRTC target (`sm_90a` for wgmma / setmaxnreg).
    pub fn module_for_arch(
        &self,
        src: &Source,
        options: &[String],
        arch: &str,
    ) -> Result<Arc<CudaModule>> {
        let key = cache::key(src, arch, options);
        if let Some(m) = self
            .modules
            .lock()
            .expect("module cache poisoned")
            .get(&key)
        {
            return Ok(m.clone());
        }
        let compiled = cache::compile(src, arch, options)?;
        let module = self
            .ctx
            .load_module(cudarc::nvrtc::Ptx::from_binary(compiled.cubin))
            .ctx(&format!("cuModuleLoadData({})", src.name))?;
        self.modules
            .lock()
            .expect("module cache poisoned")
            .insert(key, module.clone());
        Ok(module)
    }

    /// Compile every (source, options) of `list` that is not cached yet, on up to `threads` host threads at once
    /// (NVRTC needs no context), then load them into the cache. Benchmarks that sweep many variants call this first.
    pub fn precompile(&self, list: &[(Source, Vec<String>)], threads: usize) -> Result<()> {
        let arch = self.props.arch();
        let jobs: Vec<CompileJob> = list
            .iter()
            .map(|(src, options)| CompileJob {
                src: src.clone(),
                options: options.clone(),
                arch: arch.clone(),
            })
            .collect();
        self.precompile_jobs(&jobs, threads, &|_| {}).map(|_| ())
    }

    /// [`Gpu::precompile`] of jobs that name their own NVRTC target; `done` is called (from the compiling thread)
    /// after each compile. Returns how many modules were new to this GPU (jobs already loaded, or listed twice,
    /// are skipped). Every job is tried; the first error is returned.
    pub fn precompile_jobs(
        &self,
        jobs: &[CompileJob],
        threads: usize,
        done: &(dyn Fn(&CompileJob) + Sync),
    ) -> Result<usize> {
        let key = |j: &CompileJob| cache::key(&j.src, &j.arch, &j.options);
        let todo: Vec<&CompileJob> = {
            let cache = self.modules.lock().expect("module cache poisoned");
            let mut seen = std::collections::HashSet::new();
            jobs.iter()
                .filter(|j| !cache.contains_key(&key(j)) && seen.insert(key(j)))
                .collect()
        };
        let next = std::sync::atomic::AtomicUsize::new(0);
        let results: Mutex<Vec<(usize, Result<nvrtc::Compiled>)>> = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..threads.clamp(1, 64).min(todo.len().max(1)) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(job) = todo.get(i) else {
                        break;
                    };
                    let r = cache::compile(&job.src, &job.arch, &job.options);
                    done(job);
                    results.lock().expect("precompile results").push((i, r));
                });
            }
        });
        let mut results = results.into_inner().expect("precompile results");
        results.sort_by_key(|(i, _)| *i);
        for (i, r) in results {
            let job = todo[i];
            let module = self
                .ctx
                .load_module(cudarc::nvrtc::Ptx::from_binary(r?.cubin))
                .ctx(&format!("cuModuleLoadData({})", job.src.name))?;
            self.modules
                .lock()
                .expect("module cache poisoned")
                .insert(key(job), module);
        }
        Ok(todo.len())
    }

    /// Load kernel `name` from the (cached) module of `src` + `options`.
    pub fn kernel(&self, src: &Source, options: &[String], name: &str) -> Result<Kernel> {
        self.kernel_for_arch(src, options, name, &self.props.arch())
    }

    /// [`Gpu::kernel`] for an explicit NVRTC target.
    pub fn kernel_for_arch(
        &self,
        src: &Source,
        options: &[String],
        name: &str,
        arch: &str,
    ) -> Result<Kernel> {
        let module = self.module_for_arch(src, options, arch)?;
        let func = module
            .load_function(name)
            .ctx(&format!("cuModuleGetFunction({name})"))?;
        Ok(Kernel {
            name: name.to_string(),
            func,
            chained: false,
        })
    }

    /// The most dynamic shared memory `kernel` may launch with: the device's opt-in limit per block less the
    /// kernel's static shared memory (`CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES`).
    pub fn max_dynamic_smem(&self, kernel: &Kernel) -> Result<u32> {
        let fixed = kernel
            .func
            .shared_size_bytes()
            .ctx("cuFuncGetAttribute(SHARED_SIZE_BYTES)")?;
        Ok(dynamic_smem_limit(self.props.smem_per_block_optin, fixed))
    }

    /// Let `kernel` launch with `bytes` of dynamic shared memory (above 48 KiB a kernel must opt in).
    pub fn allow_dynamic_smem(&self, kernel: &Kernel, bytes: u32) -> Result<()> {
        let most = self.max_dynamic_smem(kernel)?;
        if bytes > most {
            return Err(Error::Invalid(format!(
                "{} needs {bytes} B of dynamic shared memory, the device allows {most} beside its static shared \
                 memory ({} B per block in all)",
                kernel.name, self.props.smem_per_block_optin
            )));
        }
        if bytes as usize > self.props.smem_per_block {
            kernel
                .func
                .set_attribute(
                    sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    bytes as i32,
                )
                .ctx("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)")?;
        }
        Ok(())
    }

    /// Load a CUBIN compiled elsewhere (e.g. for `sm_90a`, which [`Gpu::module`]'s `sm_XY` does not name).
    /// Not cached: the caller keeps the module.
    pub fn load_cubin(&self, name: &str, cubin: Vec<u8>) -> Result<Arc<CudaModule>> {
        self.ctx
            .load_module(cudarc::nvrtc::Ptx::from_binary(cubin))
            .ctx(&format!("cuModuleLoadData({name})"))
    }

    /// Number of modules compiled so far (the cache's size).
    pub fn cached_modules(&self) -> usize {
        self.modules.lock().expect("module cache poisoned").len()
    }

    /// Launch `kernel` with `cfg` (through `cuLaunchKernelEx`, as a programmatic dependent of the stream's
    /// previous kernel when the kernel is [`Kernel::chained`]); `push` adds the arguments. A rejected launch is
    /// an [`Error::Launch`]; faults during the run surface at the next [`Gpu::sync`].
    pub fn launch<'a>(
        &'a self,
        kernel: &'a Kernel,
        cfg: LaunchConfig,
        push: impl FnOnce(&mut KernelArgs<'a>),
    ) -> Result<()> {
        let (g, b) = (cfg.grid_dim, cfg.block_dim);
        if g.0 == 0 || g.1 == 0 || g.2 == 0 || b.0 * b.1 * b.2 == 0 {
            return Err(Error::Invalid(format!(
                "{}: empty launch grid {g:?} block {b:?}",
                kernel.name
            )));
        }
        let mut args = KernelArgs {
            stream: &self.stream,
            params: Vec::new(),
            addresses: Vec::new(),
            guards: Vec::new(),
        };
        push(&mut args);
        let mut params = args.pointers();
        let mut chained = sys::CUlaunchAttribute {
            id: sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION,
            value: sys::CUlaunchAttributeValue {
                programmaticStreamSerializationAllowed: 1,
            },
            pad: [0; 4],
        };
        let launch = sys::CUlaunchConfig {
            gridDimX: g.0,
            gridDimY: g.1,
            gridDimZ: g.2,
            blockDimX: b.0,
            blockDimY: b.1,
            blockDimZ: b.2,
            sharedMemBytes: cfg.shared_mem_bytes,
            hStream: self.stream.cu_stream(),
            attrs: if kernel.chained {
                &mut chained
            } else {
                std::ptr::null_mut()
            },
            numAttrs: kernel.chained as u32,
        };
        let error = |source| Error::Launch {
            kernel: kernel.name.clone(),
            source,
        };
        self.ctx.bind_to_thread().map_err(error)?;
        // SAFETY: the callers in this crate push exactly the parameters their kernel declares, with device
        // buffers large enough for the grid they launch (each kernel family checks sizes before launching); every
        // parameter pointer (and `chained`) lives until the call returns.
        unsafe {
            sys::cuLaunchKernelEx(
                &launch,
                kernel.func.cu_function(),
                params.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        }
        .result()
        .map_err(error)
    }

    /// Wait for all queued work; reports any fault of an earlier launch.
    pub fn sync(&self) -> Result<()> {
        self.stream
            .synchronize()
            .ctx("cuStreamSynchronize (a kernel queued earlier faulted?)")
    }

    /// A zero-filled device buffer of `n` elements.
    pub fn zeros<T: DeviceRepr + ValidAsZeroBits>(&self, n: usize) -> Result<CudaSlice<T>> {
        self.stream
            .alloc_zeros::<T>(n.max(1))
            .ctx(&format!("alloc of {n} elements"))
    }

    /// Copy a host slice to a new device buffer.
    pub fn upload<T: DeviceRepr>(&self, host: &[T]) -> Result<CudaSlice<T>> {
        self.stream.clone_htod(host).ctx("memcpy host to device")
    }

    /// Copy `host` into `dev` from element `offset` on (a large buffer filled piece by piece).
    pub fn upload_at<T: DeviceRepr>(
        &self,
        dev: &mut CudaSlice<T>,
        offset: usize,
        host: &[T],
    ) -> Result<()> {
        let end = offset + host.len();
        if end > dev.len() {
            return Err(Error::Invalid(format!(
                "upload of {} elements at {offset} into {}",
                host.len(),
                dev.len()
            )));
        }
        let mut view = dev.slice_mut(offset..end);
        self.stream
            .memcpy_htod(host, &mut view)
            .ctx("memcpy host to device")
    }

    /// Copy a device buffer back to the host.
    pub fn download<T: DeviceRepr>(&self, dev: &CudaSlice<T>) -> Result<Vec<T>> {
        self.stream.clone_dtoh(dev).ctx("memcpy device to host")
    }

    /// Fill every byte of `dev` with `byte` (the poison pattern before a correctness run: 0xFF is a NaN in
    /// both f32 and f16).
    pub fn fill_bytes<T: DeviceRepr>(&self, dev: &mut CudaSlice<T>, byte: u8) -> Result<()> {
        let bytes = dev.len() * std::mem::size_of::<T>();
        let (ptr, _guard) = dev.device_ptr_mut(&self.stream);
        // SAFETY: `ptr` covers `bytes` bytes of a live allocation; the memset is queued on our stream.
        unsafe {
            cudarc::driver::result::memset_d8_async(ptr, byte, bytes, self.stream.cu_stream())
        }
        .ctx("cuMemsetD8Async")
    }

    /// Device-to-device copy of `src` into `dst` (the bandwidth reference), queued on our stream.
    pub fn copy_d2d<T: DeviceRepr>(
        &self,
        src: &CudaSlice<T>,
        dst: &mut CudaSlice<T>,
    ) -> Result<()> {
        if dst.len() < src.len() {
            return Err(Error::Invalid(format!(
                "d2d copy of {} elements into {}",
                src.len(),
                dst.len()
            )));
        }
        self.stream.memcpy_dtod(src, dst).ctx("cuMemcpyDtoDAsync")
    }

    /// A CUDA event that records time (`CU_EVENT_DEFAULT`: cudarc's default disables timing).
    pub fn timing_event(&self) -> Result<CudaEvent> {
        self.ctx
            .new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
            .ctx("cuEventCreate")
    }

    /// Run `work` once between two timing events and return the elapsed device milliseconds.
    pub fn time_ms(&self, work: impl FnOnce() -> Result<()>) -> Result<f32> {
        let (start, end) = (self.timing_event()?, self.timing_event()?);
        start.record(&self.stream).ctx("cuEventRecord")?;
        work()?;
        end.record(&self.stream).ctx("cuEventRecord")?;
        end.synchronize().ctx("cuEventSynchronize")?;
        start.elapsed_ms(&end).ctx("cuEventElapsedTime")
    }
}
