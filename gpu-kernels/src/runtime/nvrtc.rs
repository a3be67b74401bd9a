//! NVRTC: CUDA C++ source (plus named headers) to a CUBIN for one architecture.
//!
//! cudarc's safe `compile_ptx_with_opts` takes no headers, so this calls the raw API: `nvrtcCreateProgram` with
//! the headers as (text, include name) pairs, so a kernel file writes `#include "swz.cuh"` and no include path or
//! toolkit header is needed. The output is a CUBIN for the exact `sm_XY` asked for (no PTX JIT at load time).
//!
//! This needs no GPU, only `libnvrtc`: `compile` works on a build machine too, which is how the kernel sources
//! are checked without a device (see the `nvrtc_compile` test).

use crate::runtime::error::{Error, Result};
use crate::runtime::library::Library;
use cudarc::nvrtc::sys;
use std::ffi::{c_char, CStr, CString};

/// A named header handed to NVRTC: `#include "<name>"` in the source resolves to `text`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Header {
    pub name: String,
    pub text: String,
}

/// A translation unit: its name (for error messages), its text and the headers it may include.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Source {
    pub name: String,
    pub text: String,
    pub headers: Vec<Header>,
}

/// The output of a compile: the CUBIN and NVRTC's log (ptxas' resource report when `-Xptxas -v` is passed).
#[derive(Clone, Debug)]
pub struct Compiled {
    pub cubin: Vec<u8>,
    pub log: String,
}

/// The device headers (`gpu-kernels/cuda/`): the integer typedefs and the PTX wrappers, each instruction family
/// written once. Every compile hands them to NVRTC under their file names, so any kernel may
/// `#include "swz_copy.cuh"` and friends; a [`Source`] header of the same name takes precedence.
pub const DEVICE_HEADERS: [(&str, &str); 6] = [
    ("swz_types.cuh", include_str!("../../cuda/swz_types.cuh")),
    ("swz_copy.cuh", include_str!("../../cuda/swz_copy.cuh")),
    (
        "swz_convert.cuh",
        include_str!("../../cuda/swz_convert.cuh"),
    ),
    ("swz_mma.cuh", include_str!("../../cuda/swz_mma.cuh")),
    ("swz_tma.cuh", include_str!("../../cuda/swz_tma.cuh")),
    ("swz_wgmma.cuh", include_str!("../../cuda/swz_wgmma.cuh")),
];

/// `src`'s headers followed by the [`DEVICE_HEADERS`] it does not define itself: what NVRTC is given.
pub fn with_device_headers(src: &Source) -> Vec<Header> {
    let mut headers = src.headers.clone();
    for (name, text) in DEVICE_HEADERS {
        if !headers.iter().any(|h| h.name == name) {
            headers.push(Header {
                name: name.into(),
                text: text.into(),
            });
        }
    }
    headers
}

/// True when `libnvrtc` loads and has every function the compile path calls ([`Library::check`]). Never panics.
pub fn nvrtc_available() -> bool {
    Library::Nvrtc.check().is_ok()
}

/// Compile `src` for `arch` (e.g. `"sm_90"`) with extra `options` (`-DTILE=64`, ...). Always adds
/// `--gpu-architecture=<arch>` and `-std=c++17`. When `options` ask for ptxas' report (`--ptxas-options=-v`),
/// NVRTC's own compile cache is bypassed ([`NO_CACHE`]), since a hit there returns an empty log, and a log
/// without the report is an error.
pub fn compile(src: &Source, arch: &str, options: &[String]) -> Result<Compiled> {
    Library::Nvrtc.check()?;
    let cstr = |s: &str, what: &str| {
        CString::new(s).map_err(|_| Error::Invalid(format!("{what} contains a NUL byte")))
    };
    let text = cstr(&src.text, "kernel source")?;
    let name = cstr(&src.name, "source name")?;
    let headers = with_device_headers(src);
    let header_texts = headers
        .iter()
        .map(|h| cstr(&h.text, "header"))
        .collect::<Result<Vec<_>>>()?;
    let header_names = headers
        .iter()
        .map(|h| cstr(&h.name, "header name"))
        .collect::<Result<Vec<_>>>()?;
    let header_text_ptrs: Vec<*const c_char> = header_texts.iter().map(|c| c.as_ptr()).collect();
    let header_name_ptrs: Vec<*const c_char> = header_names.iter().map(|c| c.as_ptr()).collect();
    let mut all_options = vec![
        format!("--gpu-architecture={arch}"),
        "-std=c++17".to_string(),
    ];
    if let Some(dir) = toolkit_include() {
        all_options.push(format!("-I{dir}"));
    }
    let report = asks_ptxas_report(options);
    if report && caches_compiles() {
        // NVRTC 12.9+ keeps compiles in its own on-disk cache (shared by every process of the user); a hit
        // skips ptxas, and with it the resource report: the log comes back empty.
        all_options.push(NO_CACHE.into());
    }
    all_options.extend(options.iter().cloned());
    let c_options = all_options
        .iter()
        .map(|o| cstr(o, "option"))
        .collect::<Result<Vec<_>>>()?;
    let option_ptrs: Vec<*const c_char> = c_options.iter().map(|c| c.as_ptr()).collect();

    let mut prog: sys::nvrtcProgram = std::ptr::null_mut();
    // SAFETY: every pointer comes from a CString alive until the end of this function; counts match the arrays.
    unsafe {
        check(
            sys::nvrtcCreateProgram(
                &mut prog,
                text.as_ptr(),
                name.as_ptr(),
                header_text_ptrs.len() as i32,
                header_text_ptrs.as_ptr(),
                header_name_ptrs.as_ptr(),
            ),
            "nvrtcCreateProgram",
        )?;
        let compiled =
            sys::nvrtcCompileProgram(prog, option_ptrs.len() as i32, option_ptrs.as_ptr());
        let log = program_log(prog);
        let result = if compiled != sys::nvrtcResult::NVRTC_SUCCESS {
            Err(Error::Compile {
                name: src.name.clone(),
                options: all_options.join(" "),
                log: log.clone(),
            })
        } else if report && !has_ptxas_report(&log) {
            Err(Error::Invalid(format!(
                "{}: NVRTC {} returned no ptxas report (log {log:?}) for options {}",
                src.name,
                version().map_or("(version unknown)".into(), |(a, b)| format!("{a}.{b}")),
                all_options.join(" ")
            )))
        } else {
            cubin(prog).map(|cubin| Compiled { cubin, log })
        };
        let _ = sys::nvrtcDestroyProgram(&mut prog);
        result
    }
}

/// NVRTC's option that bypasses its compile cache (CUDA 12.9+).
pub const NO_CACHE: &str = "--no-cache";

/// True when `options` ask ptxas for its resource report (`--ptxas-options=-v`, `-Xptxas -v`, `--verbose`).
pub fn asks_ptxas_report(options: &[String]) -> bool {
    let verbose = |o: &str| o.split(',').any(|v| v == "-v" || v == "--verbose");
    options.iter().enumerate().any(|(i, o)| {
        o.strip_prefix("--ptxas-options=")
            .or_else(|| o.strip_prefix("-Xptxas="))
            .is_some_and(verbose)
            || (matches!(o.as_str(), "-Xptxas" | "--ptxas-options")
                && options.get(i + 1).is_some_and(|v| verbose(v)))
    })
}

/// True when `log` holds ptxas' resource report (at least its `ptxas info` lines).
pub fn has_ptxas_report(log: &str) -> bool {
    log.lines().any(|l| l.starts_with("ptxas"))
}

/// NVRTC's version `(major, minor)`, when the library loads.
pub fn version() -> Option<(i32, i32)> {
    if !nvrtc_available() {
        return None;
    }
    let (mut major, mut minor) = (0, 0);
    // SAFETY: two out-pointers to live locals.
    let code = unsafe { sys::nvrtcVersion(&mut major, &mut minor) };
    (code == sys::nvrtcResult::NVRTC_SUCCESS).then_some((major, minor))
}

/// True when this NVRTC has its own compile cache (12.9 and later), which [`NO_CACHE`] turns off.
fn caches_compiles() -> bool {
    version().is_some_and(|v| v >= (12, 9))
}

/// The CUDA toolkit's include directory (`$CUDA_HOME/include`, `$CUDA_PATH/include`, else
/// `/usr/local/cuda/include`) when it exists: NVRTC needs it for `cuda_fp16.h` / `cuda_bf16.h`, which the
/// generated header includes for kernels that compute in fp16/bf16 (`swizzle_core::Elem::c_include`).
pub fn toolkit_include() -> Option<String> {
    ["CUDA_HOME", "CUDA_PATH"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .map(|root| format!("{root}/include"))
        .chain(std::iter::once("/usr/local/cuda/include".to_string()))
        .find(|d| std::path::Path::new(d).join("cuda_fp16.h").is_file())
}

fn check(code: sys::nvrtcResult, what: &'static str) -> Result<()> {
    if code == sys::nvrtcResult::NVRTC_SUCCESS {
        Ok(())
    } else {
        Err(Error::Nvrtc {
            what,
            code: format!("{code:?}"),
        })
    }
}

/// SAFETY: `prog` must be a live program.
unsafe fn program_log(prog: sys::nvrtcProgram) -> String {
    let mut size = 0usize;
    if sys::nvrtcGetProgramLogSize(prog, &mut size) != sys::nvrtcResult::NVRTC_SUCCESS || size == 0
    {
        return String::new();
    }
    let mut buf = vec![0 as c_char; size];
    if sys::nvrtcGetProgramLog(prog, buf.as_mut_ptr()) != sys::nvrtcResult::NVRTC_SUCCESS {
        return String::new();
    }
    CStr::from_ptr(buf.as_ptr())
        .to_string_lossy()
        .trim_end()
        .to_string()
}

/// SAFETY: `prog` must be a live, successfully compiled program.
unsafe fn cubin(prog: sys::nvrtcProgram) -> Result<Vec<u8>> {
    let mut size = 0usize;
    check(sys::nvrtcGetCUBINSize(prog, &mut size), "nvrtcGetCUBINSize")?;
    let mut buf = vec![0u8; size];
    check(
        sys::nvrtcGetCUBIN(prog, buf.as_mut_ptr() as *mut c_char),
        "nvrtcGetCUBIN",
    )?;
    Ok(buf)
}
