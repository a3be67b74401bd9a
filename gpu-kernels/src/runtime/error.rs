//! The one error type of gpu-kernels. Every library call returns [`Result`]; nothing here panics on a missing
//! driver, a missing GPU or a failed compile.

use cudarc::driver::DriverError;

/// What went wrong talking to the GPU.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// `libcuda.so` could not be loaded: no NVIDIA driver on this machine.
    #[error("no CUDA driver found (libcuda could not be loaded)")]
    NoDriver,
    /// The driver loaded but the device could not be opened (no GPU, or a bad ordinal).
    #[error("no CUDA driver found for a usable GPU: opening device {ordinal} failed: {source}")]
    NoDevice { ordinal: usize, source: DriverError },
    /// `libnvrtc.so` could not be loaded, so kernels cannot be compiled.
    #[error("NVRTC not found (libnvrtc.so.13 could not be loaded; add the CUDA toolkit's lib64 to LD_LIBRARY_PATH)")]
    NoNvrtc,
    /// A CUDA library loads but lacks a function the runtime calls (a stub, or a broken or mismatched install):
    /// `library` is the file loaded, `symbol` the first function missing.
    #[error("{library} loads but lacks {symbol}: a broken or mismatched CUDA install")]
    BrokenLibrary {
        library: String,
        symbol: &'static str,
    },
    /// A driver call failed; `what` names the call.
    #[error("CUDA driver error in {what}: {source}")]
    Driver { what: String, source: DriverError },
    /// NVRTC rejected a source; `log` is the compiler's program log.
    #[error("NVRTC failed to compile {name} ({options}):\n{log}")]
    Compile {
        name: String,
        options: String,
        log: String,
    },
    /// An NVRTC API call itself failed.
    #[error("NVRTC error in {what}: {code}")]
    Nvrtc { what: &'static str, code: String },
    /// A kernel launch (or the work it queued) failed.
    #[error("launch of {kernel} failed: {source}")]
    Launch { kernel: String, source: DriverError },
    /// An argument the caller passed makes no sense (a zero size, a block shape the kernel cannot run with...).
    #[error("invalid argument: {0}")]
    Invalid(String),
    /// A cuBLAS call failed (the peer of GEMM families).
    #[error("cuBLAS error in {what}: {detail}")]
    Cublas { what: String, detail: String },
    /// A GPU result differs from the host reference.
    #[error("wrong result: {0}")]
    Mismatch(String),
}

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// Adds a call name to a driver error: `ctx.synchronize().ctx("synchronize")?`.
pub trait DriverContext<T> {
    fn ctx(self, what: &str) -> Result<T>;
}

impl<T> DriverContext<T> for std::result::Result<T, DriverError> {
    fn ctx(self, what: &str) -> Result<T> {
        self.map_err(|source| Error::Driver {
            what: what.to_string(),
            source,
        })
    }
}
