//! The 1D k-stencil of the register-cache article: `B[i] = (A[i] + ... + A[i + 2k]) / (2k + 1)` for `i < n - 2k`, from
//! `stencil.cu` beside this file.
//!
//! A variant is a [`StencilSpec`]: how a thread gets its window of inputs ([`Method`]: straight from global
//! memory, from a shared-memory tile with its halo, or from the warp's register cache through `__shfl_sync`), how
//! many consecutive outputs a thread computes (1, 2, 4 or 8; its accesses are that many elements wide, up to 16
//! bytes) and, for shared memory, the tile's swizzle. The radius `k` and the element type ([`Value`]: fp32, or
//! i32 with C's truncating division) are compile-time constants of each NVRTC compile: every number the kernel
//! uses reaches it through the generated `struct Spec` ([`StencilSpec::header`]), the register cache's shuffle
//! schedule through the generated `swz::StencilRc` ([`swizzle_core::register_cache::RegisterCache`]). The
//! shared-memory accesses are declared lane by lane in [`smem`] and as thread-value layouts in [`family`] (the
//! frame's [`Family`](crate::frame::Family), whose build-time bank check reads them).
//!
//! Sums run in input order and divide once, on the GPU and in [`stencil_host`], so fp32 results compare bit for
//! bit. Every launch goes through the frame ([`family::STENCIL`]: `Family::prepared`, verified by
//! [`crate::frame::verify`] on [`random_input`]).

pub mod family;
pub mod smem;

use crate::elem::{table_name, HostElem};
use crate::frame::HostBuf;
use crate::runtime::{Error, Header, Result, Source};
use cudarc::driver::LaunchConfig;
use swizzle_core::register_cache::RegisterCache;
use swizzle_core::{swizzle, Elem, Smem, Swizzle};

/// The kernel source, compiled per (spec, k, element type) with the headers of [`StencilSpec::source`].
pub const SOURCE: &str = include_str!("stencil.cu");

/// The include name of the generated register-cache struct (`swz::StencilRc`).
pub const RC_HEADER_NAME: &str = "stencil_rc.cuh";

/// Threads per block of every variant.
pub const BLOCK: u32 = 256;

/// The largest radius every variant supports (the register cache with one output per lane stops here: its halo
/// must fit one extra register row, `2k <= 32`).
pub const MAX_RADIUS: u32 = 16;

/// The largest `n` a launch takes (indices are 32-bit in the kernels, with room for a window past the end).
pub const MAX_N: usize = (1 << 31) - 1024;

/// Elements per 16-byte access (every element type here is 4 bytes): the fill's vector.
pub const VEC16: u32 = 4;

/// Where a thread's window of `P + 2k` inputs comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Method {
    /// Straight from global memory through the read-only (L1-cached) path: neighbours' windows overlap in L1.
    Global,
    /// The register-cache article's shared-memory kernel: the block stages its inputs and the halo, then reads windows back.
    Smem,
    /// The register cache: each warp loads its inputs once, lanes read each other's registers with `__shfl_sync`.
    Shfl,
}

impl Method {
    pub const fn name(self) -> &'static str {
        match self {
            Method::Global => "global",
            Method::Smem => "smem",
            Method::Shfl => "shfl",
        }
    }

    /// `Spec::METHOD` in `stencil.cu`.
    const fn cuda_id(self) -> u32 {
        match self {
            Method::Global => 0,
            Method::Smem => 1,
            Method::Shfl => 2,
        }
    }
}

/// One stencil variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StencilSpec {
    /// The table name.
    pub name: &'static str,
    pub method: Method,
    /// `P`: consecutive outputs per thread (1, 2, 4 or 8).
    pub per_thread: u32,
    /// The shared-memory tile's swizzle on element offsets (the identity for the other methods).
    pub swizzle: Swizzle,
}

impl StencilSpec {
    /// Elements per global / shared access: `P`, up to 16 bytes.
    pub const fn vec(&self) -> u32 {
        if self.per_thread < VEC16 {
            self.per_thread
        } else {
            VEC16
        }
    }

    /// Outputs one block computes.
    pub const fn outputs_per_block(&self) -> u32 {
        BLOCK * self.per_thread
    }

    /// Accesses of [`StencilSpec::vec`] elements that cover one thread's window of `P + 2k` inputs.
    pub const fn window_vecs(&self, k: u32) -> u32 {
        (self.per_thread + 2 * k).div_ceil(self.vec())
    }

    /// Shared memory: inputs staged per block, from the block's first output through the last thread's last
    /// window access, rounded up to whole 16-byte fills.
    pub const fn tile_elems(&self, k: u32) -> u32 {
        ((BLOCK - 1) * self.per_thread + self.window_vecs(k) * self.vec()).next_multiple_of(VEC16)
    }

    /// Shared memory the fill stores: the tile rounded up to whole warp instructions of 16-byte stores (128
    /// elements), the part past [`StencilSpec::tile_elems`] with zeros and no global load. So every fill
    /// instruction has all 32 lanes active, and every block issues the same shared-memory instructions.
    pub const fn fill_elems(&self, k: u32) -> u32 {
        self.tile_elems(k).next_multiple_of(32 * VEC16)
    }

    /// Shared memory allocated per block, in elements: the fill rounded up to the swizzle's period (a swizzle
    /// permutes offsets within each period, so every swizzled offset stays inside).
    pub const fn smem_elems(&self, k: u32) -> u32 {
        self.fill_elems(k)
            .next_multiple_of(self.swizzle.period() as u32)
    }

    /// The register cache of this spec at radius `k` (shfl only).
    pub const fn register_cache(&self, k: u32) -> Option<RegisterCache> {
        match self.method {
            Method::Shfl => match RegisterCache::try_new(self.per_thread, k) {
                Ok(rc) => Some(rc),
                Err(_) => None,
            },
            _ => None,
        }
    }

    /// Whether this spec runs radius `k`: `1 <= k <= MAX_RADIUS`, and the register cache fits.
    pub const fn supports(&self, k: u32) -> bool {
        k >= 1
            && k <= MAX_RADIUS
            && match self.method {
                Method::Shfl => self.register_cache(k).is_some(),
                _ => true,
            }
    }

    /// Shape rules the kernel's `static_assert`s state too.
    pub const fn is_valid(&self) -> bool {
        self.per_thread.is_power_of_two()
            && self.per_thread <= 8
            && (matches!(self.method, Method::Smem) || self.swizzle.is_identity())
            && self.swizzle.period() <= 1 << 16
            // the swizzle moves whole 16-byte fills
            && (self.swizzle.is_identity() || (1u32 << self.swizzle.base) >= VEC16)
    }

    fn check_k(&self, k: u32) -> Result<()> {
        if self.supports(k) {
            Ok(())
        } else {
            Err(Error::Invalid(format!(
                "{}: radius {k} is not supported (1..={MAX_RADIUS}, and 2k <= 32 * P for the register cache)",
                self.name
            )))
        }
    }

    /// The shared-memory tile as a layout: one row of [`StencilSpec::smem_elems`] elements of `v` under the
    /// spec's swizzle (tile element `j` at `Smem::offset(0, j)`; allocated for every spec, used by smem ones).
    pub const fn smem(&self, v: Elem, k: u32) -> Smem {
        Smem::row_major(1, self.smem_elems(k), v).with_swizzle(self.swizzle)
    }

    /// The register cache the kernel's header carries at radius `k`: the spec's own for shfl; for the other
    /// methods the one-output-per-lane cache (the header always declares one; only shfl kernels use it).
    pub const fn header_cache(&self, k: u32) -> RegisterCache {
        match self.register_cache(k) {
            Some(rc) => rc,
            None => RegisterCache::new(self.per_thread, k),
        }
    }

    /// The generated header `swz.cuh` for element type `v` at radius `k`: swizzle-core's header with
    /// `struct Spec` (every number `stencil.cu` uses: METHOD, K, PER, VEC, BLOCK, TILE_ELEMS, FILL_ELEMS, the
    /// element type `T` and the tile layout `Smem`).
    pub fn header(&self, v: Elem, k: u32) -> swizzle_core::cuda::Header {
        let spec = swizzle_core::cuda::Spec::new("Spec")
            .doc(format!("{self}; k = {k}, {}", table_name(v)))
            .elem("T", v)
            .int("METHOD", self.method.cuda_id() as i64)
            .int("K", k as i64)
            .int("PER", self.per_thread as i64)
            .int("VEC", self.vec() as i64)
            .int("BLOCK", BLOCK as i64)
            .int("TILE_ELEMS", self.tile_elems(k) as i64)
            .int("FILL_ELEMS", self.fill_elems(k) as i64)
            .layout("Smem", self.smem(v, k));
        swizzle_core::cuda::Header::new().spec(spec)
    }

    /// The NVRTC source with its generated headers: `swz.cuh` ([`StencilSpec::header`]) and `stencil_rc.cuh`
    /// (`swz::StencilRc`, [`StencilSpec::header_cache`]). No `-D` options: every number is in the headers.
    pub fn source(&self, v: Elem, k: u32) -> Source {
        Source {
            name: "stencil.cu".into(),
            text: SOURCE.into(),
            headers: vec![
                Header {
                    name: swizzle_core::cuda::HEADER_NAME.into(),
                    text: self.header(v, k).render(),
                },
                Header {
                    name: RC_HEADER_NAME.into(),
                    text: self.header_cache(k).cuda_struct("StencilRc"),
                },
            ],
        }
    }

    /// The launch for `n` inputs at radius `k`, or `None` when there is no output (`n <= 2k`).
    pub fn launch_config(&self, n: usize, k: u32) -> Result<Option<LaunchConfig>> {
        self.check_k(k)?;
        if n > MAX_N {
            return Err(Error::Invalid(format!(
                "{}: n = {n} is above {MAX_N}",
                self.name
            )));
        }
        let m = n.saturating_sub(2 * k as usize);
        if m == 0 {
            return Ok(None);
        }
        let blocks = m.div_ceil(self.outputs_per_block() as usize) as u32;
        Ok(Some(LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        }))
    }
}

impl std::fmt::Display for StencilSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} window, {} outputs/thread, {} B accesses, block {BLOCK}",
            self.name,
            self.method.name(),
            self.per_thread,
            self.vec() * 4
        )?;
        if self.method == Method::Smem {
            write!(f, ", tile {}", self.swizzle)?;
        }
        Ok(())
    }
}

const fn spec(name: &'static str, method: Method, per_thread: u32, sw: Swizzle) -> StencilSpec {
    let s = StencilSpec {
        name,
        method,
        per_thread,
        swizzle: sw,
    };
    assert!(s.is_valid(), "invalid stencil spec");
    s
}

const ID: Swizzle = Swizzle::IDENTITY;

pub const GLOBAL_P1: StencilSpec = spec("global-p1", Method::Global, 1, ID);
pub const GLOBAL_P2: StencilSpec = spec("global-p2", Method::Global, 2, ID);
pub const GLOBAL_P4: StencilSpec = spec("global-p4", Method::Global, 4, ID);
pub const GLOBAL_P8: StencilSpec = spec("global-p8", Method::Global, 8, ID);
/// The register-cache article's shared-memory kernel (one output per thread), fixed.
pub const SMEM_P1: StencilSpec = spec("smem-p1", Method::Smem, 1, ID);
pub const SMEM_P2: StencilSpec = spec("smem-p2", Method::Smem, 2, ID);
pub const SMEM_P4: StencilSpec = spec("smem-p4", Method::Smem, 4, ID);
/// Eight outputs per thread read two 16-byte vectors 32 bytes apart across lanes: lanes 0 and 4 of each
/// 8-lane phase hit the same banks (2 wavefronts where 1 would do). `Sw<1,2,3>` XORs 16-byte-chunk bit 3 into
/// chunk bit 0, so each phase covers all 8 bank groups (see `smem.rs`).
pub const SMEM_P8: StencilSpec = spec("smem-p8", Method::Smem, 8, swizzle!(B = 1, M = 2, S = 3));
/// [`SMEM_P8`] without the swizzle: the baseline that conflicts.
pub const SMEM_P8_UNSWIZZLED: StencilSpec = spec("smem-p8-unswizzled", Method::Smem, 8, ID);
/// The register-cache article's register-cache kernel (one output per lane), fixed.
pub const SHFL_P1: StencilSpec = spec("shfl-p1", Method::Shfl, 1, ID);
pub const SHFL_P2: StencilSpec = spec("shfl-p2", Method::Shfl, 2, ID);
pub const SHFL_P4: StencilSpec = spec("shfl-p4", Method::Shfl, 4, ID);
pub const SHFL_P8: StencilSpec = spec("shfl-p8", Method::Shfl, 8, ID);

/// Every shipped variant.
pub const SPECS: [StencilSpec; 13] = [
    GLOBAL_P1,
    GLOBAL_P2,
    GLOBAL_P4,
    GLOBAL_P8,
    SMEM_P1,
    SMEM_P2,
    SMEM_P4,
    SMEM_P8,
    SMEM_P8_UNSWIZZLED,
    SHFL_P1,
    SHFL_P2,
    SHFL_P4,
    SHFL_P8,
];

// Every register cache a shipped spec can be compiled with serves every read inside the warp: checked here, at
// build time, for every radius the spec supports (a failure names the spec's cache and the first bad read).
const _: () = {
    let mut i = 0;
    while i < SPECS.len() {
        let mut k = 1;
        while k <= MAX_RADIUS {
            if let Some(rc) = SPECS[i].register_cache(k) {
                if rc.check().is_err() {
                    panic!(
                        "a shipped register cache reads an element its source lane does not hold"
                    );
                }
            }
            k += 1;
        }
        i += 1;
    }
};

/// The element types of the stencil (spelled `fp32`, `i32` in names and tables: [`crate::elem::table_name`]).
pub const TYPES: [Elem; 2] = [Elem::F32, Elem::I32];

/// A host element type of the stencil: its arithmetic exactly as the kernel does it.
pub trait Value: HostElem {
    fn add(self, other: Self) -> Self;
    /// Division by the window length, as C divides (IEEE for fp32, truncation toward zero for int).
    fn div(self, d: u32) -> Self;
    /// `n` seeded random values (never all zeros): uniform in `[-1, 1)` for fp32, in `[-2^24, 2^24)` for i32 (so
    /// 33-term sums cannot overflow).
    fn random(n: usize, seed: u64) -> Vec<Self>;
}

impl Value for f32 {
    fn add(self, other: f32) -> f32 {
        self + other
    }
    fn div(self, d: u32) -> f32 {
        self / d as f32
    }
    fn random(n: usize, seed: u64) -> Vec<f32> {
        crate::elem::random::<f32>(n, seed)
    }
}

impl Value for i32 {
    fn add(self, other: i32) -> i32 {
        self.wrapping_add(other)
    }
    fn div(self, d: u32) -> i32 {
        self / d as i32
    }
    fn random(n: usize, seed: u64) -> Vec<i32> {
        crate::elem::random::<f32>(n, seed)
            .into_iter()
            .map(|u| (u * (1 << 24) as f32) as i32)
            .collect()
    }
}

/// The input verification runs a variant of element type `v` on: `n` [`Value::random`] values seeded by `n`
/// (fp32 in `[-1, 1)`, i32 in `[-2^24, 2^24)`: the whole range a 33-term sum allows, not the frame's small
/// integers).
pub fn random_input(v: Elem, n: usize) -> HostBuf {
    let seed = 0x57e9c11 ^ n as u64;
    if v == Elem::I32 {
        HostBuf::of(&i32::random(n, seed))
    } else {
        HostBuf::of(&f32::random(n, seed))
    }
}

/// The host reference: `out[i] = (a[i] + a[i+1] + ... + a[i+2k]) / (2k+1)` summed left to right, for
/// `i < a.len() - 2k` (empty when `a.len() <= 2k`). Large inputs are split over the host's cores.
///
/// ```
/// use gpu_kernels::stencil::stencil_host;
/// // The register-cache article's example: the 1-stencil of 0..8.
/// assert_eq!(stencil_host(&[0, 1, 2, 3, 4, 5, 6, 7], 1), vec![1, 2, 3, 4, 5, 6]);
/// assert_eq!(stencil_host(&[-7, 0, 0], 1), vec![-2]); // C division truncates toward zero
/// ```
pub fn stencil_host<V: Value>(a: &[V], k: usize) -> Vec<V> {
    let m = a.len().saturating_sub(2 * k);
    let mut out = vec![V::default(); m];
    let one = |i: usize| {
        let mut acc = a[i];
        for s in 1..=2 * k {
            acc = acc.add(a[i + s]);
        }
        acc.div(2 * k as u32 + 1)
    };
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    let chunk = m.div_ceil(threads).max(1 << 16);
    std::thread::scope(|s| {
        for (c, part) in out.chunks_mut(chunk).enumerate() {
            s.spawn(move || {
                for (j, o) in part.iter_mut().enumerate() {
                    *o = one(c * chunk + j);
                }
            });
        }
    });
    out
}
