//! The Hopper GEMM family: TMA + `wgmma` + warp specialisation, sm_90a.
//!
//! `C (M x N) = A (M x K) * B^T` with A row-major and B stored N x K (both K-major: the "TN" GEMM, `wgmma`'s
//! natural layout), 16-bit inputs (bf16 or fp16), fp32 accumulation, 16-bit output. One spec ([`HopperSpec`])
//! decides everything: swizzle-core derives from its operand tiles the tensor maps' swizzle and boxes (built here
//! with `cuTensorMapEncodeTiled`) and the `wgmma` descriptors (emitted into the header the `.cu` reads).
//!
//! Modules: [`spec`] (the variant and its generated header), [`family`] (the frame's `Family`: `swz bench
//! hopper`), [`planned`] (the spec swizzle-core's planner picks for a problem: [`HopperGemm::planned`]),
//! [`sweep`] (the tuning variants), [`check`] (random data, host reference, comparison); the tuning sweep and the
//! shape report against cuBLAS (`swz tune hopper`) are gpu-bench's. Tensor maps: [`crate::runtime::tma`]; the peer (cuBLAS TN, the reference for speed and for large
//! sizes): [`crate::runtime::cublas`] with [`cublas_call`].

pub mod check;
pub mod family;
pub mod fp8;
mod layout_checks;
pub mod planned;
pub mod spec;
pub mod sweep;

pub use crate::runtime::cublas::Cublas;
pub use planned::Planned;
pub use spec::{HopperSpec, BASE, CLUSTER2, SHIPPED};

/// The element types the kernel runs (inputs and output; fp32 accumulation). [`HopperSpec::validate`] refuses
/// the others.
pub const TYPES: [Elem; 2] = [Elem::BF16, Elem::F16];

/// Every input type a spec may name: the 16-bit [`TYPES`] and e4m3 (bf16 out, scaled: [`fp8`]).
pub const INPUT_TYPES: [Elem; 3] = [Elem::BF16, Elem::F16, Elem::E4M3];

/// The cuBLAS call of [`HopperGemm::launch`]'s problem: `C = A · B^T`, B stored N x K, 16-bit in and out.
pub const fn cublas_call(ty: Elem, size: Size) -> crate::runtime::GemmCall {
    crate::runtime::GemmCall::tn(size, ty, ty)
}

use crate::elem::HostElem;
use crate::frame::{Arg, Launch, Size};
use crate::runtime::error::DriverContext;
use crate::runtime::{cache, compile, Compiled, DeviceProps, Error, Gpu, Kernel, Result};
use cudarc::driver::{CudaFunction, CudaSlice, DeviceRepr};
use swizzle_core::Elem;

/// The kernel source; every layout number it uses comes from the generated headers.
pub(crate) const SOURCE: &str = include_str!("hopper.cu");

/// `wgmma` and `setmaxnreg` exist only on the arch-specific target.
pub const ARCH: &str = "sm_90a";

/// NVRTC options: ptxas' resource report and spill warnings (what [`check_ptxas_log`] reads).
const COMPILE_OPTIONS: [&str; 2] = ["--ptxas-options=-v", "--ptxas-options=--warn-on-spills"];

/// ptxas messages that mean the fast path was lost. ptxas still emits a working cubin for each, so a compile
/// that prints one of these is refused rather than run slow.
const LOST_FAST_PATH: [&str; 6] = [
    "wgmma.mma_async instructions are serialized", // C7514, C7515 and friends: accumulators touched in flight
    "warpgroup.wait is injected", // C7517: a wait ptxas added before an accumulator read
    "wgmma",                      // any other wgmma warning
    "setmaxnreg",                 // C7508/C7509: register reconfiguration ignored
    "C7508",
    "C7509",
];

/// Refuse a ptxas log that warns about `wgmma` serialisation or ignored `setmaxnreg`, or reports local memory.
pub fn check_ptxas_log(spec: &HopperSpec, log: &str) -> Result<()> {
    for line in log.lines() {
        let l = line.to_ascii_lowercase();
        // ptxas reports some of these as warnings and others (NVRTC 13: C7514, C7517) as "info" lines that
        // say "Potential Performance Loss" or that a warpgroup.wait was injected.
        let flagged = l.contains("warning")
            || l.contains("potential performance loss")
            || l.contains("warpgroup.wait is injected");
        if flagged
            && LOST_FAST_PATH
                .iter()
                .any(|p| l.contains(&p.to_ascii_lowercase()))
        {
            return Err(Error::Invalid(format!(
                "{spec}: ptxas lost the fast path: {}",
                line.trim()
            )));
        }
        if (l.contains("bytes stack frame") && !l.contains(" 0 bytes stack frame"))
            || (l.contains("spill stores") && !l.contains(" 0 bytes spill stores"))
        {
            return Err(Error::Invalid(format!(
                "{spec}: local memory in the kernel: {}",
                line.trim()
            )));
        }
    }
    Ok(())
}

/// Compile `spec` for sm_90a with ptxas' resource report, and refuse a lost fast path. Needs only libnvrtc.
pub fn compile_spec(spec: &HopperSpec) -> Result<Compiled> {
    crate::elem::check_supported("the Hopper GEMM", spec.ty, &INPUT_TYPES)?;
    let out = compile(&spec.source(), ARCH, &compile_options())?;
    check_ptxas_log(spec, &out.log)?;
    Ok(out)
}

/// [`compile_spec`] through the compile cache ([`crate::runtime::cache`]: once per process, and on disk in the
/// user's cache folder or `SWZ_CUBIN_CACHE`, or in `dir` when given). A cached log is checked again.
pub fn compile_cached(spec: &HopperSpec, dir: Option<&std::path::Path>) -> Result<Compiled> {
    crate::elem::check_supported("the Hopper GEMM", spec.ty, &INPUT_TYPES)?;
    let out = match dir {
        Some(d) => cache::compile_in(Some(d), &spec.source(), ARCH, &compile_options()),
        None => cache::compile(&spec.source(), ARCH, &compile_options()),
    }?;
    check_ptxas_log(spec, &out.log)?;
    Ok(out)
}

/// `Ok` when A (m x k), B (n x k) and C (m x n) hold at least the elements `size` needs, else one line naming the
/// first that does not: the check before every launch of the kernel ([`HopperGemm::launch`],
/// [`HopperGemm::launch_fp8`]).
fn check_lens(size: Size, a: usize, b: usize, c: usize) -> Result<()> {
    for (what, len, want) in [
        ("A", a, size.mk_len()),
        ("B", b, size.nk_len()),
        ("C", c, size.mn_len()),
    ] {
        if len < want {
            return Err(Error::Invalid(format!(
                "{what} holds {len} elements, {} needs {want}",
                size.mnk_text()
            )));
        }
    }
    Ok(())
}

fn compile_options() -> Vec<String> {
    COMPILE_OPTIONS.iter().map(|o| o.to_string()).collect()
}

/// The Hopper GEMM (16-bit and FP8) runs on sm_90 alone (TMA, wgmma, clusters): one line for any other GPU,
/// before anything is compiled or launched.
pub fn check_device(p: &DeviceProps) -> Result<()> {
    if p.compute_capability != (9, 0) {
        return Err(Error::Invalid(format!(
            "the Hopper GEMM needs an sm_90 GPU (H100, H200), this is {} ({})",
            p.name,
            p.arch()
        )));
    }
    Ok(())
}

/// Problem sizes a launch accepts. TMA needs 16-byte row pitches, so K must be a multiple of 8 elements; M, N
/// and K are otherwise free (TMA zero-fills boxes past the edges; the epilogue masks rows and columns).
pub fn check_dims(size: Size) -> Result<()> {
    let Size { m, n, k } = size;
    swizzle_core::plan::check(size).map_err(|e| match e {
        swizzle_core::plan::PlanError::KNotMultipleOf8(_) => Error::Invalid(format!(
            "K = {k} is not a multiple of 8: the rows of A and B (K 16-bit elements) must be 16-byte aligned \
             for TMA; pad K with zeros"
        )),
        _ => Error::Invalid(format!("empty GEMM {m}x{n}x{k}")),
    })
}

/// `cuOccupancyMaxActiveClusters` for the kernel's compiled-in cluster shape: GPCs need not hold a whole number
/// of clusters, so a persistent grid of `sm_count` CTAs could leave a cluster waiting for a second wave.
fn max_active_clusters(gpu: &Gpu, func: &CudaFunction, spec: &HopperSpec) -> Result<u32> {
    use cudarc::driver::sys;
    let cfg = sys::CUlaunchConfig {
        gridDimX: spec.ctas() * (gpu.props().sm_count / spec.ctas()),
        gridDimY: 1,
        gridDimZ: 1,
        blockDimX: spec.threads(),
        blockDimY: 1,
        blockDimZ: 1,
        sharedMemBytes: spec.smem_bytes(),
        hStream: std::ptr::null_mut(),
        attrs: std::ptr::null_mut(),
        numAttrs: 0,
    };
    let mut n: std::ffi::c_int = 0;
    // SAFETY: `cfg` is a complete launch configuration without attributes (the cluster shape is compiled into
    // the kernel); `func` is a live function of a loaded module; the driver writes `n` only.
    let r = unsafe { sys::cuOccupancyMaxActiveClusters(&mut n, func.cu_function(), &cfg) };
    if r != sys::CUresult::CUDA_SUCCESS || n <= 0 {
        return Err(Error::Invalid(format!(
            "{spec}: cuOccupancyMaxActiveClusters gave {n} ({r:?})"
        )));
    }
    Ok(n as u32)
}

/// A compiled and loaded variant: what every launch of a spec goes through (a user's call, the frame's
/// verification and benchmarks, the tuning programs). A clone shares the loaded module.
#[derive(Clone)]
pub struct HopperGemm {
    pub spec: HopperSpec,
    pub compiled: Compiled,
    kernel: Kernel,
    /// Clusters (of `spec.ctas()` CTAs) that fit on the device at once: the persistent grid's size.
    max_clusters: u32,
    /// The tail split's workspace ([`HopperSpec::tail`]): allocated zeroed at the first launch that splits a
    /// tail, grown when a launch needs more; its arrival counters return to zero at the end of every launch.
    /// Clones share it: launch them on one stream.
    tail_workspace: std::sync::Arc<std::sync::Mutex<Option<CudaSlice<u8>>>>,
}

impl HopperGemm {
    /// Check `spec` against the device, compile it (sm_90a, ptxas warnings checked), load it and raise its
    /// dynamic shared-memory limit.
    pub fn new(gpu: &Gpu, spec: HopperSpec) -> Result<HopperGemm> {
        let p = gpu.props();
        check_device(p)?;
        spec.validate(p.smem_per_block_optin)?;
        let compiled = compile_cached(&spec, None)?;
        let module = gpu.load_cubin("hopper.cu", compiled.cubin.clone())?;
        let func = module
            .load_function("hopper_gemm")
            .ctx("cuModuleGetFunction(hopper_gemm)")?;
        func.set_attribute(
            cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            spec.smem_bytes() as i32,
        )
        .ctx("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)")?;
        let max_clusters = if spec.ctas() > 1 {
            max_active_clusters(gpu, &func, &spec)?
        } else {
            p.sm_count
        };
        Ok(HopperGemm {
            spec,
            compiled,
            kernel: Kernel {
                name: format!("hopper_gemm ({spec})"),
                func,
                chained: false,
            },
            max_clusters,
            tail_workspace: Default::default(),
        })
    }

    /// The device addresses of the tail split's arrival counters and partials for a launch of `split`, the
    /// workspace allocated (zeroed) or grown first when it is too small; `(0, 0)` when nothing is split.
    pub(crate) fn tail_workspace(
        &self,
        gpu: &Gpu,
        split: swizzle_core::tail::TailSplit,
    ) -> Result<(u64, u64)> {
        use cudarc::driver::DevicePtr;
        let bytes = split.workspace_bytes(self.spec.bm(), self.spec.bn);
        if bytes == 0 {
            return Ok((0, 0));
        }
        let mut ws = self
            .tail_workspace
            .lock()
            .map_err(|_| Error::Invalid(format!("{}: tail workspace lock poisoned", self.spec)))?;
        if ws.as_ref().is_none_or(|w| (w.len() as u64) < bytes) {
            let len = usize::try_from(bytes).map_err(|_| {
                Error::Invalid(format!("{}: a tail workspace of {bytes} B", self.spec))
            })?;
            *ws = Some(gpu.zeros::<u8>(len)?);
        }
        let w = ws.as_ref().expect("allocated above");
        let (ptr, _guard) = w.device_ptr(gpu.stream());
        Ok((ptr, ptr + split.partials_offset()))
    }

    /// The planned kernel for `size` in `ty` on this GPU: [`HopperSpec::for_problem`], compiled and loaded.
    /// The caller passes only the problem; the plan (spec, predicted time, bound) comes back beside the kernel.
    pub fn planned(gpu: &Gpu, size: Size, ty: Elem) -> Result<(HopperGemm, Planned)> {
        let plan = HopperSpec::for_problem(size, ty, gpu.props())?;
        Ok((HopperGemm::new(gpu, plan.spec)?, plan))
    }

    /// This kernel with its launches chained to the kernel before them on the stream (programmatic dependent
    /// launch, [`Kernel::chained`]): its prologue (barrier set-up, register split) overlaps the end of the
    /// previous kernel, and it reads A, B and the scales and writes C only once that kernel has finished. What a
    /// chain of layers in one stream or CUDA graph wants; the results are the same either way.
    pub fn chained(self) -> HopperGemm {
        HopperGemm {
            kernel: self.kernel.chained(),
            ..self
        }
    }

    /// The loaded kernel.
    pub fn kernel(&self) -> &Kernel {
        &self.kernel
    }

    /// The tail split a launch at `size` takes on this device ([`HopperSpec::tail_split`]).
    pub fn tail_split(&self, size: Size) -> swizzle_core::tail::TailSplit {
        self.spec.tail_split(size, self.max_clusters)
    }

    /// The launch at `size` on this device ([`HopperSpec::launch`] with the clusters the device runs at once).
    pub fn launch_at(&self, size: Size) -> Result<Launch> {
        self.spec.launch(size, self.max_clusters)
    }

    /// Queue `c = a * b^T` (a: m x k, b: n x k, c: m x n, row-major, of the spec's element type). Checks the
    /// element type and the sizes before launching.
    pub fn launch<E: HostElem>(
        &self,
        gpu: &Gpu,
        a: &CudaSlice<E>,
        b: &CudaSlice<E>,
        c: &mut CudaSlice<E>,
        size: Size,
    ) -> Result<()> {
        if E::ELEM != self.spec.ty || self.spec.is_fp8() {
            return Err(Error::Invalid(format!(
                "{}: compiled for {}, called with {} buffers{}",
                self.spec,
                self.spec.ty,
                E::ELEM,
                if self.spec.is_fp8() {
                    " (an FP8 kernel takes its scales: HopperGemm::launch_fp8)"
                } else {
                    ""
                }
            )));
        }
        check_lens(size, a.len(), b.len(), c.len())?;
        self.queue(gpu, (a, b), None, c, size)
    }

    /// Queue the spec's launch at `size` ([`HopperSpec::launch`]: buffers 0 and 1 are A and B, as tensor maps, 2
    /// is C, 3 and 4 the e4m3 scales, 5 and 6 the tail split's counters and partials in the workspace,
    /// [`HopperGemm::tail_workspace`]). The caller has checked the buffers.
    pub(crate) fn queue<A: DeviceRepr, O: DeviceRepr>(
        &self,
        gpu: &Gpu,
        (a, b): (&CudaSlice<A>, &CudaSlice<A>),
        scales: Option<(&CudaSlice<f32>, &CudaSlice<f32>)>,
        c: &mut CudaSlice<O>,
        size: Size,
    ) -> Result<()> {
        use cudarc::driver::PushKernelArg;
        let launch = self.launch_at(size)?;
        let expected = |i: usize| {
            i == 2
                || (scales.is_some() && (3..=4).contains(&i))
                || (self.spec.tail && (5..=6).contains(&i))
        };
        if let Some(other) = launch.args.iter().find(|arg| match arg {
            Arg::TensorMap { buf, .. } => *buf > 1,
            Arg::Buf(i) => !expected(*i),
            Arg::U32(_) => false,
            _ => true,
        }) {
            return Err(Error::Invalid(format!(
                "{}: unexpected launch argument {other:?}",
                self.spec
            )));
        }
        let maps = crate::frame::verify::tensor_maps(gpu, &self.kernel, &launch, &[a, b])?;
        let (tail_count, tail_partials) = if self.spec.tail {
            self.tail_workspace(gpu, self.tail_split(size))?
        } else {
            (0, 0)
        };
        let mut next_map = maps.iter();
        gpu.launch(&self.kernel, launch.config, |p| {
            for arg in &launch.args {
                match (arg, scales) {
                    (Arg::TensorMap { .. }, _) => {
                        p.arg(next_map.next().expect("one map per TensorMap argument"));
                    }
                    (Arg::Buf(3), Some((sa, _))) => {
                        p.arg(sa);
                    }
                    (Arg::Buf(4), Some((_, sb))) => {
                        p.arg(sb);
                    }
                    (Arg::Buf(5), _) => {
                        p.arg(&tail_count);
                    }
                    (Arg::Buf(6), _) => {
                        p.arg(&tail_partials);
                    }
                    (Arg::U32(v), _) => {
                        p.arg(v);
                    }
                    // Buffer 2, C (the only other argument, checked above).
                    _ => {
                        p.arg(&*c);
                    }
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn buffer_lengths_are_checked_before_launch() {
        let size = super::Size::mnk(3, 5, 16);
        assert!(super::check_lens(size, 48, 80, 15).is_ok());
        assert!(super::check_lens(size, 100, 100, 100).is_ok());
        for (lens, says) in [
            ([47, 80, 15], "A holds 47 elements, 3x5x16 needs 48"),
            ([48, 79, 15], "B holds 79 elements, 3x5x16 needs 80"),
            ([48, 80, 14], "C holds 14 elements, 3x5x16 needs 15"),
        ] {
            let e = super::check_lens(size, lens[0], lens[1], lens[2]).unwrap_err();
            assert_eq!(e.to_string(), format!("invalid argument: {says}"));
        }
    }
}
