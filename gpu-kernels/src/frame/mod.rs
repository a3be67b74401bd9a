//! The kernel-family frame: what every family implements once ([`Family`]), and what is generic over it —
//! compile-time conflict checks of every shipped spec ([`assert_specs_conflict_free!`](crate::assert_specs_conflict_free)),
//! verification ([`verify`]), what a benchmark measures and against which peer ([`Bench`]; gpu-bench's tables time
//! it, the peer in the same run),
//! the accesses as data the profiler comparison predicts from (gpu-bench runs Nsight Compute), and the registry `swz bench <family>` / `swz report` iterate
//! ([`crate::registry`]).
//!
//! ```text
//!   Family (one module per family)             generic (this module)
//!   ---------------------------------          ------------------------------------------------------------
//!   family!: name, about, problem shape        NVRTC compile + module cache (runtime), dynamic smem opt-in
//!   specs(): every shipped variant             verify::verify: random inputs, poisoned outputs and guards, host
//!   header(spec): struct Spec {...}                           reference, ragged sizes, first wrong element named
//!   compile_unit(spec): the .cu + headers
//!   entry(spec), launch(spec, size): grid,     gpu-bench tables: rotated buffers > L2, warm-up, CUDA events, median,
//!     block, smem, arguments (Arg)                          the peer (D2D copy / cuBLAS) in the same run
//!   buffers(spec, size): inputs / outputs      gpu-bench profile: predicted (bank model on accesses) vs ncu
//!   reference(spec, size, inputs)              registry: swz bench <family>, swz report
//!   accesses(spec): SpecAccess list            assert_specs_conflict_free!: one const loop over SPECS
//!   optional parts (Family::parts):
//!   Bench: bench sizes, block label; measure   gpu-bench tables, swz bench, swz report
//!     and peer (D2D copy or cuBLAS) derived
//!   Plan: planned(size): specs per problem     swz bench --shapes
//!   Profile: smem-only build options           swz profile
//! ```
//!
//! # Adding a kernel family (checklist)
//!
//! 1. **One module** `gpu-kernels/src/<family>/mod.rs` with a spec type (a `Copy` struct of `const` values: tile,
//!    element type ([`swizzle_core::Elem`]), layouts ([`swizzle_core::Smem`]), order
//!    ([`swizzle_core::raster::Raster`]), ...), built by `const fn` constructors, and `pub const SPECS: [Spec; N]`.
//!    Variants differ by a spec value, never by a copied kernel.
//! 2. **Accesses as data**: give the spec `pub const fn accesses(&self) -> Accesses`, one [`SpecAccess`] per
//!    shared-memory instruction kind the kernel issues: the [`Smem`] it touches and a
//!    [`swizzle_core::WarpAccess`] (a thread-value layout written like the kernel's index math, or a generic
//!    `Pattern::X.warp()` for ldmatrix/stmatrix/row copies), and whether it must be conflict-free. Then one line:
//!    `gpu_kernels::assert_specs_conflict_free!(SPECS);` — every shipped spec is checked at compile time.
//! 3. **One `.cu`** beside the module that includes `"swz.cuh"` and reads every number from the spec struct the
//!    header emits ([`swizzle_core::cuda::Spec`]): smem coordinates only through `Spec::Smem::offset(row, col)`,
//!    the block's tile only through `Spec::Order::here()`, element types as `Spec::T`. No `row * (TILE + PAD) +
//!    col`, no `blockIdx.y * gridDim.x + blockIdx.x` (the `cu_sources_retype_no_formula` test greps for them).
//!    fp16/bf16 kernels use `__half` / `__nv_bfloat16` (the spec's `.elem(..)` includes their headers; the runtime
//!    puts the toolkit's include directory on NVRTC's path).
//! 4. **A host reference** (plain Rust on [`HostBuf`]s), the family's struct and instance with its name and one
//!    line about it ([`family!`](crate::family)), and `impl Family` (specs, header, compile unit, entry, launch,
//!    buffers, reference, verify sizes; tolerance and accesses where they are not the defaults), then the
//!    optional parts the family has: `impl Bench` (bench sizes and block label; measure and peer where they are
//!    not the defaults), likewise [`Plan`] and [`Profile`], each handed out in `fn parts`. See
//!    `transpose/family.rs` for a complete one.
//! 5. **One registry line** in [`crate::registry::FAMILIES`]. `swz bench <family>`, `swz report`, `swz verify`, `swz profile`
//!    and `scripts/device.sh` then include it; nothing else changes.
//! 6. GPU tests `#[ignore = "needs an NVIDIA GPU"]` call [`verify::verify_all_with`] for the family, or
//!    [`verify::verify_cases`] on their own specs and sizes: every launch and check goes through the frame, no
//!    family keeps a second one. Host tests check the accesses against an independent derivation of the
//!    kernel's index math.

pub mod dyn_family;
pub mod host;
pub mod verify;

pub use dyn_family::{BenchPart, DynFamily, DynSpec, SpecInfo};
pub use host::HostBuf;
pub use swizzle_core::Size;

use crate::runtime::{Gpu, Kernel, Result, Source};
use cudarc::driver::LaunchConfig;
use swizzle_core::{Elem, Smem, WarpAccess};

/// What the frame's long work (verification, the registry's compiles) reports each finished step to (a
/// program's progress bar); the library itself prints nothing.
pub trait Steps: Sync {
    /// One step done; `what` names it (`smem-swizzled-t64v4 on 97x131`).
    fn step(&self, what: &str);
}

/// Problem sizes written as their users spell them, `MxNxK` separated by spaces (a family's verification sizes):
/// one [`Size`] each, through swizzle-core's one parser. The text is the crate's own; a malformed size is a bug.
///
/// ```
/// use gpu_kernels::frame::{sizes, Size};
/// assert_eq!(sizes("1x8x16 127x264x72"), [Size::mnk(1, 8, 16), Size::mnk(127, 264, 72)]);
/// ```
pub fn sizes(text: &str) -> Vec<Size> {
    text.split_whitespace()
        .map(|s| s.parse().unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect()
}

/// The host threads of the frame's parallel work (random inputs, verification): the machine's cores, at most 32.
pub fn host_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(32))
}

/// Whether a buffer is read (filled with random values) or written (poisoned, then compared).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Input,
    Output,
}

/// One device buffer a kernel takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    pub name: &'static str,
    pub elem: Elem,
    pub len: usize,
    pub role: Role,
}

impl Buffer {
    pub fn input(name: &'static str, elem: Elem, len: usize) -> Buffer {
        Buffer {
            name,
            elem,
            len,
            role: Role::Input,
        }
    }

    pub fn output(name: &'static str, elem: Elem, len: usize) -> Buffer {
        Buffer {
            name,
            elem,
            len,
            role: Role::Output,
        }
    }

    pub fn bytes(&self) -> usize {
        self.len * self.elem.bytes() as usize
    }
}

/// A kernel argument, in the order of the kernel's parameter list: a buffer (its index in
/// [`Family::buffers`]) or a scalar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg {
    Buf(usize),
    U32(u32),
    I32(i32),
    U64(u64),
    F32(f32),
    /// A TMA tensor map (passed by value) of buffer `buf` read as a row-major `rows x k` K-major operand in
    /// `tile`-sized boxes; encoded at launch from the buffer's device address (`runtime::tma`).
    TensorMap {
        buf: usize,
        rows: u32,
        k: u32,
        tile: swizzle_core::wgmma::OperandTile,
    },
}

/// One launch: the configuration and the arguments.
#[derive(Clone, Debug)]
pub struct Launch {
    pub config: LaunchConfig,
    pub args: Vec<Arg>,
}

/// What one run of a kernel does, for the benchmark's rate: bytes moved (read + written) or floating-point
/// operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Measure {
    Bytes(u64),
    Flops(u64),
}

impl Measure {
    /// `GB/s` or `TFLOP/s`.
    pub const fn unit(&self) -> &'static str {
        match self {
            Measure::Bytes(_) => "GB/s",
            Measure::Flops(_) => "TFLOP/s",
        }
    }

    /// The rate at `ms` per run, in [`Measure::unit`]s.
    pub fn rate(&self, ms: f64) -> f64 {
        match *self {
            Measure::Bytes(b) => b as f64 / (ms * 1e-3) / 1e9,
            Measure::Flops(f) => f as f64 / (ms * 1e-3) / 1e12,
        }
    }
}

/// A probe of the most a family's instructions can do on the device, a second reference some tables carry beside
/// the [`Peer`] (timed like the variants, in the same run).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CeilingProbe {
    /// Warps that issue nothing but independent `mma.sync.m16n8k16` on register operands of `input`, for about
    /// `flops` of work per launch (the mma.sync GEMM's ceiling).
    MmaSync { input: Elem, flops: f64 },
}

/// The reference a family's table is measured against, in the same run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// `cuMemcpyDtoDAsync` of `bytes` (moves `2 * bytes`: read + write), for bandwidth-bound families.
    CopyD2D { bytes: u64 },
    /// cuBLAS `gemmEx` of row-major `A (m x k) * B (k x n) -> C (m x n)`, inputs of `ab`, output of `c`,
    /// accumulating in `ab`'s accumulator type. For GEMM-shaped families.
    CublasGemm { size: Size, ab: Elem, c: Elem },
}

impl Peer {
    /// The peer's own measure (for its rate in the table).
    pub const fn measure(&self) -> Measure {
        match *self {
            Peer::CopyD2D { bytes } => Measure::Bytes(2 * bytes),
            Peer::CublasGemm { size, .. } => Measure::Flops(size.flops()),
        }
    }

    /// `D2D copy` / `cuBLAS gemmEx f16->f32`.
    pub fn name(&self) -> String {
        match self {
            Peer::CopyD2D { .. } => "D2D copy".to_string(),
            Peer::CublasGemm { ab, c, .. } => format!("cuBLAS gemmEx {ab}->{c}"),
        }
    }
}

/// How outputs are compared with the host reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tolerance {
    /// Bit for bit (a transpose, a copy).
    Exact,
    /// `|got - expected| <= abs + rel * |expected|`, in f64.
    Close { abs: f64, rel: f64 },
    /// A sum of K terms (a GEMM of inner size K): `|got - expected| <= per_term * K`, in f64; verification takes
    /// K from the problem ([`Tolerance::at`]).
    Sum { per_term: f64 },
}

impl Tolerance {
    /// The tolerance at `size`: a [`Tolerance::Sum`] becomes the absolute bound of `size.k` terms; the others are
    /// as they are.
    ///
    /// ```
    /// use gpu_kernels::frame::{Size, Tolerance};
    /// let t = Tolerance::Sum { per_term: 0.5 }.at(Size::mnk(4, 4, 6));
    /// assert_eq!(t, Tolerance::Close { abs: 3.0, rel: 0.0 });
    /// ```
    pub fn at(self, size: Size) -> Tolerance {
        match self {
            Tolerance::Sum { per_term } => Tolerance::Close {
                abs: per_term * f64::from(size.k),
                rel: 0.0,
            },
            t => t,
        }
    }
}

/// One shared-memory access kind of a spec, as data: the layout it touches, the warp access (every instruction
/// one block issues), and whether the build must prove it conflict-free (`false` for baselines that conflict on
/// purpose).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecAccess {
    /// `write`, `read`, `A ldmatrix`, ...
    pub label: &'static str,
    pub smem: Smem,
    pub access: WarpAccess,
    pub conflict_free: bool,
}

/// Most specs one [`assert_specs_conflict_free!`](crate::assert_specs_conflict_free) call checks (one constant each).
pub const MAX_CHECKED_SPECS: usize = 64;

/// Most access kinds one spec may list.
pub const MAX_ACCESSES: usize = 16;

/// A spec's [`SpecAccess`]es, built in `const` (`Accesses::new().with(..).with(..)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accesses {
    items: [Option<SpecAccess>; MAX_ACCESSES],
    len: usize,
}

impl Default for Accesses {
    fn default() -> Self {
        Accesses::new()
    }
}

impl Accesses {
    pub const fn new() -> Accesses {
        Accesses {
            items: [None; MAX_ACCESSES],
            len: 0,
        }
    }

    /// Add one; panics (a compile error in `const`) past [`MAX_ACCESSES`].
    pub const fn with(mut self, a: SpecAccess) -> Accesses {
        assert!(self.len < MAX_ACCESSES, "too many accesses for one spec");
        self.items[self.len] = Some(a);
        self.len += 1;
        self
    }

    pub const fn len(&self) -> usize {
        self.len
    }

    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `i`-th access; panics past [`Accesses::len`].
    pub const fn get(&self, i: usize) -> SpecAccess {
        match self.items[i] {
            Some(a) if i < self.len => a,
            _ => panic!("access index out of range"),
        }
    }

    pub fn to_vec(&self) -> Vec<SpecAccess> {
        (0..self.len).map(|i| self.get(i)).collect()
    }
}

/// The optional parts of a family ([`Family::parts`]), each the family itself where it implements the part:
/// `Parts::none().with_bench(self).with_plan(self)`.
pub struct Parts<'a, S> {
    /// Benchmark tables against a peer (`swz bench <family>`).
    pub bench: Option<&'a dyn Bench<Spec = S>>,
    /// The spec picked per problem (`swz bench --shapes`).
    pub plan: Option<&'a dyn Plan<S>>,
    /// The profiler's shared-memory-only build (`swz profile`).
    pub profile: Option<&'a dyn Profile<S>>,
}

impl<'a, S> Parts<'a, S> {
    /// No optional part.
    pub fn none() -> Parts<'a, S> {
        Parts {
            bench: None,
            plan: None,
            profile: None,
        }
    }

    /// These parts and the benchmark part.
    pub fn with_bench(self, bench: &'a dyn Bench<Spec = S>) -> Parts<'a, S> {
        Parts {
            bench: Some(bench),
            ..self
        }
    }

    /// These parts and the planner.
    pub fn with_plan(self, plan: &'a dyn Plan<S>) -> Parts<'a, S> {
        Parts {
            plan: Some(plan),
            ..self
        }
    }

    /// These parts and the profiler's build.
    pub fn with_profile(self, profile: &'a dyn Profile<S>) -> Parts<'a, S> {
        Parts {
            profile: Some(profile),
            ..self
        }
    }
}

/// Specs a family planned for one problem, each with one line on why ([`Plan::planned`]).
pub type PlannedSpecs<S> = Vec<(S, String)>;

/// Who a family is: the name `swz bench <name>` takes, one line for `--help` and the report, and the shape of
/// its problems.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    /// `transpose`, `gemm`, ...
    pub name: &'static str,
    /// One line for `--help` and the report.
    pub about: &'static str,
    pub shape: Shape,
}

impl Identity {
    /// A family whose problems are `M x N` matrices.
    pub const fn matrix(name: &'static str, about: &'static str) -> Identity {
        Identity {
            name,
            about,
            shape: Shape::Matrix,
        }
    }

    /// A family whose problems are GEMMs `M x N x K`.
    pub const fn gemm(name: &'static str, about: &'static str) -> Identity {
        Identity {
            name,
            about,
            shape: Shape::Gemm,
        }
    }

    /// A family whose problems are rows `1 x N`.
    pub const fn row(name: &'static str, about: &'static str) -> Identity {
        Identity {
            name,
            about,
            shape: Shape::Row,
        }
    }
}

/// The shape of a family's problems, and so what a side `n` means (`swz bench --sizes N`, `swz profile --n N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `M x N` matrices: side `n` is `n x n`.
    Matrix,
    /// GEMMs `M x N x K`: side `n` is the cube `n x n x n`.
    Gemm,
    /// Rows of `N` values (`1 x N`): side `n` is `1 x n`.
    Row,
}

impl Shape {
    /// The problem of side `n`.
    ///
    /// ```
    /// use gpu_kernels::frame::{Shape, Size};
    /// assert_eq!(Shape::Gemm.size_of(96), Size::mnk(96, 96, 96));
    /// assert_eq!(Shape::Row.size_of(96), Size::mn(1, 96));
    /// ```
    pub fn size_of(self, n: u32) -> Size {
        match self {
            Shape::Row => Size::mn(1, n),
            s => Size::square(n, s == Shape::Gemm),
        }
    }

    /// The side `swz profile FAMILY run` launches by default: full tiles only, so every block issues exactly the
    /// modelled instructions, and small enough for the host reference each launch is checked against: 2048, or
    /// 512 for a GEMM (a cube whose fp64 host reference, every output, takes a moment).
    pub const fn profile_side(self) -> u32 {
        match self {
            Shape::Gemm => 512,
            _ => 2048,
        }
    }
}

/// What has an [`Identity`]: every [`Family`]. A shipped family gets it from [`family!`](crate::family), which
/// declares the family's unit struct and its instance with it.
pub trait Named {
    fn identity(&self) -> Identity;
    /// The name `swz bench <name>` takes.
    fn name(&self) -> &'static str {
        self.identity().name
    }
}

/// Declares a kernel family: its unit struct, the instance the registry lists, and its [`Identity`] (the struct's
/// [`Named`] impl). The family's [`Family`] impl follows on the struct.
///
/// ```
/// use gpu_kernels::frame::{Identity, Named, Shape};
/// gpu_kernels::family! {
///     /// A family that is only a name.
///     pub static NOTHING: Nothing = Identity::gemm("nothing", "no kernels at all");
/// }
/// assert_eq!(NOTHING.name(), "nothing");
/// assert_eq!(Nothing.identity().shape, Shape::Gemm);
/// ```
#[macro_export]
macro_rules! family {
    ($(#[$doc:meta])* $vis:vis static $instance:ident: $ty:ident = $identity:expr;) => {
        $(#[$doc])*
        $vis struct $ty;

        /// The family's instance (the registry lists it).
        $vis static $instance: $ty = $ty;

        impl $crate::frame::Named for $ty {
            fn identity(&self) -> $crate::frame::Identity {
                $identity
            }
        }
    };
}

/// What every kernel family implements: who it is, its specs, how one spec is built and launched, its buffers
/// and host reference. That is enough for the compile-time check, verification (`swz verify`), the report and
/// `swz ptxas`. What only some families have comes as optional parts, each its own trait that a family
/// implements and hands out in [`Family::parts`] (default: none): benchmark tables against a peer ([`Bench`]), a
/// spec planned per problem ([`Plan`]), a shared-memory-only build for the profiler ([`Profile`]).
pub trait Family: Named + Sync + Send + 'static {
    /// One variant: a `Copy` value of `const` fields.
    type Spec: Clone + Send + Sync + std::fmt::Display + 'static;

    /// Every shipped variant (verified, benchmarked, profiled).
    fn specs(&self) -> Vec<Self::Spec>;
    /// The table name of a variant.
    fn spec_name(&self, spec: &Self::Spec) -> String;
    /// The element type of the inputs (tables are grouped by it).
    fn elem(&self, spec: &Self::Spec) -> Elem;
    /// The generated header for this variant: swizzle-core's header with the variant's `struct Spec`.
    fn header(&self, spec: &Self::Spec) -> swizzle_core::cuda::Header;
    /// What NVRTC compiles for this variant: the `.cu` with its generated headers (`swz.cuh` is
    /// [`Family::header`] rendered), and the options.
    fn compile_unit(&self, spec: &Self::Spec) -> (Source, Vec<String>);
    /// The `extern "C"` kernel name.
    fn entry(&self, spec: &Self::Spec) -> &'static str;
    /// The buffers, inputs and outputs, in the order [`Arg::Buf`] indexes them.
    fn buffers(&self, spec: &Self::Spec, size: Size) -> Vec<Buffer>;
    /// Grid, block, shared memory and arguments for `size`. An error for a size the variant cannot run.
    fn launch(&self, spec: &Self::Spec, size: Size) -> Result<Launch>;
    /// The expected outputs (one per [`Role::Output`] buffer, in order) for `inputs` (one per input buffer).
    fn reference(&self, spec: &Self::Spec, size: Size, inputs: &[HostBuf]) -> Vec<HostBuf>;
    /// Sizes of the correctness pass; include ones that are not multiples of any tile.
    fn verify_sizes(&self) -> Vec<Size>;

    /// The NVRTC target when it is not the device's own `sm_XY` (`sm_90a` for wgmma / setmaxnreg).
    fn arch(&self, _spec: &Self::Spec) -> Option<&'static str> {
        None
    }
    /// Dynamic shared memory per block (the frame opts in above 48 KiB).
    fn smem_bytes(&self, _spec: &Self::Spec) -> u32 {
        0
    }
    /// The host inputs for `size` (one per [`Role::Input`] buffer). Default: seeded random values
    /// ([`verify::random_inputs`]); a family whose problem needs bounded or structured inputs overrides it.
    fn inputs(&self, _spec: &Self::Spec, size: Size, buffers: &[Buffer]) -> Vec<HostBuf> {
        verify::random_inputs(buffers, size)
    }
    /// Specs of one class compute the same function: at a size they take the same buffers and inputs and have
    /// the same expected outputs, so verification makes the inputs and the host reference once for all of them
    /// (every output element of each is still compared). Default: `None`, a class of its own. A family whose
    /// specs differ only in how they compute (layouts, tiles, orders) names what the result depends on.
    fn reference_class(&self, _spec: &Self::Spec) -> Option<String> {
        None
    }
    /// How outputs are compared.
    fn tolerance(&self, _spec: &Self::Spec) -> Tolerance {
        Tolerance::Exact
    }
    /// The spec's shared-memory accesses (what the compile-time check, the report and the profiler read).
    fn accesses(&self, _spec: &Self::Spec) -> Vec<SpecAccess> {
        Vec::new()
    }
    /// The optional parts the family has. Default: none.
    fn parts(&self) -> Parts<'_, Self::Spec> {
        Parts::none()
    }

    /// The kernel of `spec` loaded on `gpu` and its launch at `size`: what verification and the benchmarks run.
    /// Provided: [`Family::prepare`] and [`Family::launch`]. A family whose launch depends on the loaded kernel
    /// overrides it (the Hopper GEMM: its persistent grid holds the clusters the device runs at once).
    fn prepared(&self, gpu: &Gpu, spec: &Self::Spec, size: Size) -> Result<(Kernel, Launch)> {
        Ok((self.prepare(gpu, spec, &[])?, self.launch(spec, size)?))
    }

    /// Compile (cached), load, and opt the kernel in to its dynamic shared memory (provided).
    fn prepare(&self, gpu: &Gpu, spec: &Self::Spec, extra: &[String]) -> Result<Kernel> {
        let (src, mut options) = self.compile_unit(spec);
        options.extend(extra.iter().cloned());
        let kernel = match self.arch(spec) {
            Some(arch) => gpu.kernel_for_arch(&src, &options, self.entry(spec), arch)?,
            None => gpu.kernel(&src, &options, self.entry(spec))?,
        };
        gpu.allow_dynamic_smem(&kernel, self.smem_bytes(spec))?;
        Ok(kernel)
    }
}

/// The benchmark part of a family ([`Parts::bench`]): what one run does, the peer measured beside it in the
/// same run, and the tables' default sizes. `swz bench <family>` and `swz report` read it.
pub trait Bench: Family {
    /// Bytes or FLOPs of one run. Default: the peer's ([`Peer::measure`]), the variant doing the peer's work.
    fn measure(&self, spec: &Self::Spec, size: Size) -> Measure {
        self.peer(spec, size).measure()
    }
    /// The reference measured beside the variant in the same run. Default: the vendor's way to the family's
    /// answer on the same buffers: for a GEMM ([`Shape::Gemm`]), cuBLAS on the variant's input and output types
    /// ([`Family::elem`], the output buffer's); otherwise a device copy of the inputs.
    fn peer(&self, spec: &Self::Spec, size: Size) -> Peer {
        let buffers = self.buffers(spec, size);
        let ab = self.elem(spec);
        if self.identity().shape == Shape::Gemm {
            let c = buffers.iter().find(|b| b.role == Role::Output);
            Peer::CublasGemm {
                size,
                ab,
                c: c.map_or(ab, |b| b.elem),
            }
        } else {
            let inputs = buffers.iter().filter(|b| b.role == Role::Input);
            Peer::CopyD2D {
                bytes: inputs.map(|b| b.bytes() as u64).sum(),
            }
        }
    }
    /// Default sizes of the benchmark tables (inputs larger than L2).
    fn bench_sizes(&self) -> Vec<Size>;
    /// The one size `swz report` measures, so that its benchmark stays a summary (every size is `swz bench`).
    /// Default: the first of [`Bench::bench_sizes`]; a family whose first size fits in the L2 names a larger one.
    fn report_size(&self) -> Option<Size> {
        self.bench_sizes().first().copied()
    }
    /// The block shape as printed in the tables, `(x,y)`.
    fn block_label(&self, spec: &Self::Spec) -> String;
    /// True for a spec timed as a bound rather than a solution of the problem (the transpose's plain copies):
    /// its rows are marked as bounds and never the family's best. Default: none.
    fn is_bound(&self, _spec: &Self::Spec) -> bool {
        false
    }
    /// A second reference where the family has one: the probe of the most its instructions can do on the device
    /// at `size`'s work, measured beside the variants in the same run. Default: none.
    fn ceiling(&self, _spec: &Self::Spec, _size: Size) -> Option<CeilingProbe> {
        None
    }
}

/// The planner of a family that picks its spec per problem ([`Parts::plan`]).
pub trait Plan<S>: Sync {
    /// The specs to run at a problem the user named (`swz bench --shapes`), each with one line on why; `props`
    /// is the device (`None`: listing without one). An error for a problem it cannot plan.
    fn planned(
        &self,
        size: Size,
        props: Option<&crate::runtime::DeviceProps>,
    ) -> Result<PlannedSpecs<S>>;
}

/// The profiler part of a family ([`Parts::profile`]): the build `swz profile` compares besides the shipped one.
pub trait Profile<S>: Sync {
    /// Options for the "shared memory only" build (`-DSMEM_ONLY=1`): the same smem instructions with no global
    /// traffic.
    fn smem_only_options(&self, spec: &S) -> Vec<String>;
}

/// Fails the build unless every spec of `$specs` (a const array or slice of a type with
/// `const fn accesses(&self) -> Accesses` and `const fn name(&self) -> &'static str`) is conflict-free on every
/// access it marks `conflict_free`: one const loop, swizzle-core's message (access, layout, instruction, phase,
/// bank, lanes) prefixed with the spec's name.
///
/// ```
/// use gpu_kernels::frame::{Accesses, SpecAccess};
/// use swizzle_core::{bank::Op, Elem, Smem, WarpAccess};
/// struct S { name: &'static str, pad: u32 }
/// impl S {
///     const fn name(&self) -> &'static str { self.name }
///     const fn accesses(&self) -> Accesses {
///         let smem = Smem::row_major(32, 32, Elem::F32).with_padding(self.pad);
///         Accesses::new().with(SpecAccess {
///             label: "col.ld",
///             smem,
///             access: WarpAccess::new("col.ld", Op::LDS32).lane(32, 1, 0).instr(32, 0, 1),
///             conflict_free: true,
///         })
///     }
/// }
/// const SPECS: [S; 1] = [S { name: "padded", pad: 4 }];
/// gpu_kernels::assert_specs_conflict_free!(SPECS);
/// ```
///
/// An unpadded column read conflicts 32-way, so the same spec without padding fails the build:
///
/// ```compile_fail
/// # use gpu_kernels::frame::{Accesses, SpecAccess};
/// # use swizzle_core::{bank::Op, Elem, Smem, WarpAccess};
/// # struct S { name: &'static str, pad: u32 }
/// # impl S {
/// #     const fn name(&self) -> &'static str { self.name }
/// #     const fn accesses(&self) -> Accesses {
/// #         let smem = Smem::row_major(32, 32, Elem::F32).with_padding(self.pad);
/// #         Accesses::new().with(SpecAccess {
/// #             label: "col.ld",
/// #             smem,
/// #             access: WarpAccess::new("col.ld", Op::LDS32).lane(32, 1, 0).instr(32, 0, 1),
/// #             conflict_free: true,
/// #         })
/// #     }
/// # }
/// const SPECS: [S; 2] = [S { name: "padded", pad: 4 }, S { name: "unpadded", pad: 0 }];
/// gpu_kernels::assert_specs_conflict_free!(SPECS);
/// ```
#[macro_export]
macro_rules! assert_specs_conflict_free {
    ($specs:expr) => {
        // One constant per spec (each evaluation stays short, below the compiler's long-evaluation lint), for
        // every index the list has: the list is iterated, never spelled out.
        const _: () = ::core::assert!(
            $specs.len() <= $crate::frame::MAX_CHECKED_SPECS,
            "assert_specs_conflict_free!: split the spec list (at most MAX_CHECKED_SPECS per call)"
        );
        $crate::assert_specs_conflict_free!(@each $specs; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);
    };
    (@each $specs:expr; $($i:literal)*) => {
        $( $crate::assert_specs_conflict_free!(@one $specs, $i); )*
    };
    (@one $specs:expr, $i:literal) => {
        const _: () = {
            let specs = &$specs;
            let mut i = $i;
            while i < specs.len() && i == $i {
                let spec = &specs[i];
                let list = spec.accesses();
                let mut k = 0;
                while k < list.len() {
                    let a = list.get(k);
                    if a.conflict_free {
                        let msg = ::swizzle_core::verify::check_warp(&a.smem, &a.access);
                        if let ::core::option::Option::Some(_) = msg.as_str() {
                            let full = msg.prefixed("spec ", spec.name(), ": ");
                            if let ::core::option::Option::Some(text) = full.as_str() {
                                ::core::panic!("{}", text);
                            }
                        }
                    }
                    k += 1;
                }
                i += 1;
            }
        };
    };
}
