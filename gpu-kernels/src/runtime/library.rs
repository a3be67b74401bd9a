//! Is a CUDA library usable: the availability check every entry point runs before cudarc touches the library.
//!
//! cudarc loads `libcuda` and `libnvrtc` on first use (the first of its candidate names that `dlopen` accepts,
//! `LD_LIBRARY_PATH` searched as usual) and each function on its first call, and it panics when either is
//! missing. A library that loads but lacks a symbol (a stub, a half-installed or mismatched toolkit) would make
//! that first call panic. So the check loads the library cudarc will load, by the same candidate names in the
//! same order, and looks up every function the runtime calls through it: a missing library is
//! [`Error::NoDriver`] / [`Error::NoNvrtc`], a missing function [`Error::BrokenLibrary`] naming the file and the
//! symbol. Never a panic.

use crate::runtime::error::{Error, Result};

/// A CUDA library the runtime loads through cudarc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Library {
    /// The driver, `libcuda`.
    Driver,
    /// The run-time compiler, `libnvrtc`.
    Nvrtc,
}

/// The driver functions cudarc calls for what the runtime does: open a device and read its properties, create
/// the context and stream, load modules and launch, allocate and copy, time with events, build TMA maps.
pub const DRIVER_SYMBOLS: &[&str] = &[
    "cuInit",
    "cuDriverGetVersion",
    "cuDeviceGet",
    "cuDeviceGetCount",
    "cuDeviceGetName",
    "cuDeviceGetAttribute",
    "cuDeviceTotalMem_v2",
    "cuDevicePrimaryCtxRetain",
    "cuDevicePrimaryCtxRelease_v2",
    "cuCtxSetCurrent",
    "cuCtxGetCurrent",
    "cuCtxSynchronize",
    "cuStreamSynchronize",
    "cuModuleLoadData",
    "cuModuleGetFunction",
    "cuModuleUnload",
    "cuFuncGetAttribute",
    "cuFuncSetAttribute",
    "cuLaunchKernel",
    "cuLaunchKernelEx",
    "cuMemAllocAsync",
    "cuMemFreeAsync",
    "cuMemcpyHtoDAsync_v2",
    "cuMemcpyDtoHAsync_v2",
    "cuMemcpyDtoDAsync_v2",
    "cuMemsetD8Async",
    "cuEventCreate",
    "cuEventRecord",
    "cuEventSynchronize",
    "cuEventElapsedTime_v2",
    "cuEventDestroy_v2",
    "cuGetErrorString",
    "cuTensorMapEncodeTiled",
    "cuOccupancyMaxActiveClusters",
];

/// The NVRTC functions the compile path calls.
pub const NVRTC_SYMBOLS: &[&str] = &[
    "nvrtcVersion",
    "nvrtcCreateProgram",
    "nvrtcCompileProgram",
    "nvrtcGetProgramLogSize",
    "nvrtcGetProgramLog",
    "nvrtcGetCUBINSize",
    "nvrtcGetCUBIN",
    "nvrtcDestroyProgram",
    "nvrtcGetErrorString",
];

impl Library {
    /// cudarc's library names for it (`cuda`, `nvcuda`; `nvrtc`), expanded to file names in cudarc's order.
    fn candidates(self) -> Vec<String> {
        let names: &[&str] = match self {
            Library::Driver => &["cuda", "nvcuda"],
            Library::Nvrtc => &["nvrtc"],
        };
        names
            .iter()
            .flat_map(|n| cudarc::get_lib_name_candidates(n))
            .collect()
    }

    /// The functions the runtime calls in it.
    pub fn symbols(self) -> &'static [&'static str] {
        match self {
            Library::Driver => DRIVER_SYMBOLS,
            Library::Nvrtc => NVRTC_SYMBOLS,
        }
    }

    /// The error for "not found".
    fn missing(self) -> Error {
        match self {
            Library::Driver => Error::NoDriver,
            Library::Nvrtc => Error::NoNvrtc,
        }
    }

    /// Ok when the library cudarc will load is there and has every function of [`Library::symbols`]; else
    /// why not, as one line. Never panics.
    pub fn check(self) -> Result<()> {
        for file in self.candidates() {
            // SAFETY: loading a CUDA library runs its initialisers, exactly as cudarc's own loading of the same
            // file does; the symbols are only looked up, never called.
            let Ok(lib) = (unsafe { libloading::Library::new(&file) }) else {
                continue;
            };
            // The first candidate that loads is the one cudarc uses: check it, and only it.
            for &symbol in self.symbols() {
                // SAFETY: the address is looked up and dropped, never called or read.
                if unsafe { lib.get::<*const ()>(symbol.as_bytes()) }.is_err() {
                    return Err(Error::BrokenLibrary {
                        library: file,
                        symbol,
                    });
                }
            }
            return Ok(());
        }
        Err(self.missing())
    }
}
