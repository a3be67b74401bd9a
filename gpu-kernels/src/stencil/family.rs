//! The stencil family on the frame: a variant is a [`StencilSpec`] compiled at one radius for one element type;
//! launch, buffers, host reference ([`stencil_host`]), the shared-memory accesses as thread-value layouts (the
//! frame's compile-time check reads them), measure (input read + output written once) and peer (a D2D copy of
//! the input).
//!
//! The problem size is `Size::mn(1, n)`: `n` inputs, `n - 2k` outputs.

use super::{stencil_host, Method, StencilSpec, Value, BLOCK, SMEM_P8_UNSWIZZLED, SPECS, VEC16};
use crate::frame::{
    Accesses, Arg, Bench, Buffer, Family, HostBuf, Identity, Launch, Measure, Parts, Size,
    SpecAccess,
};
use crate::runtime::{Error, Result, Source};
use swizzle_core::bank::{Op, Width};
use swizzle_core::{Elem, Smem, WarpAccess};

/// The radii the family ships (and `swz bench stencil` measures).
pub const RADII: [u32; 5] = [1, 2, 4, 8, 16];
/// The benchmark sizes: `2^27` (the article's) and `2^28`.
pub const SIZES: [usize; 2] = [1 << 27, 1 << 28];

pub use super::TYPES;

/// One stencil variant: a spec at radius `k` on one element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    pub spec: StencilSpec,
    pub k: u32,
    pub value: Elem,
}

impl Variant {
    /// The table name of the spec (the frame's compile-time check prefixes its messages with it).
    pub const fn name(&self) -> &'static str {
        self.spec.name
    }

    /// The element type as the frame names it.
    pub const fn elem(&self) -> Elem {
        self.value
    }

    /// The shared-memory tile as the frame's layout: one row of [`StencilSpec::smem_elems`] elements under the
    /// spec's swizzle (element `j` of the tile at `Spec::Smem::offset(0, j)` in `stencil.cu`).
    pub const fn smem(&self) -> Smem {
        Smem::row_major(1, self.spec.smem_elems(self.k), self.elem())
            .with_swizzle(self.spec.swizzle)
    }

    /// The smem fill and read of one block as thread-value layouts (shared-memory variants only; see
    /// `smem.rs` for the same accesses lane by lane, which the tests compare with these):
    /// ```text
    ///   fill: lane l, warp instruction g  ->  tile element 4 * (32 * g + l)     (sts128)
    ///   read: lane l, access c, warp w    ->  tile element (32 * w + l) * P + c * VEC     (lds of VEC elements)
    /// ```
    /// The fill runs to [`StencilSpec::fill_elems`] (whole warp instructions) and every thread reads its window,
    /// so these are exactly the instructions every block issues, whatever `n` (what the profiler compares).
    pub const fn accesses(&self) -> Accesses {
        if !matches!(self.spec.method, Method::Smem) {
            return Accesses::new();
        }
        let s = &self.spec;
        let (p, vec) = (s.per_thread, s.vec());
        let read_op = match Width::from_bytes(vec * 4) {
            Some(w) => Op::Lds(w),
            None => panic!("stencil smem read is not 4, 8 or 16 bytes"),
        };
        let fill_instrs = s.fill_elems(self.k) / (VEC16 * 32);
        let must = !is_baseline(s);
        Accesses::new()
            .with(SpecAccess {
                label: "fill",
                smem: self.smem(),
                access: WarpAccess::new("fill", Op::STS128)
                    .lane(32, 0, VEC16)
                    .instr(fill_instrs, 0, VEC16 * 32),
                conflict_free: must,
            })
            .with(SpecAccess {
                label: "read",
                smem: self.smem(),
                access: WarpAccess::new("read", read_op)
                    .lane(32, 0, p)
                    .instr(s.window_vecs(self.k), 0, vec)
                    .instr(BLOCK / 32, 0, 32 * p),
                conflict_free: must,
            })
    }
}

/// The deliberately conflicting baseline (no swizzle at 8 outputs per thread).
const fn is_baseline(s: &StencilSpec) -> bool {
    s.per_thread == SMEM_P8_UNSWIZZLED.per_thread
        && s.swizzle.is_identity()
        && matches!(s.method, Method::Smem)
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} k={} {}",
            self.spec,
            self.k,
            crate::elem::table_name(self.value)
        )
    }
}

const N_VARIANTS: usize = TYPES.len() * RADII.len() * SPECS.len();

/// Every shipped variant: per element type, per radius, every spec (the order of the tables).
pub const VARIANTS: [Variant; N_VARIANTS] = {
    let mut v = [Variant {
        spec: SPECS[0],
        k: 1,
        value: Elem::F32,
    }; N_VARIANTS];
    let mut i = 0;
    while i < N_VARIANTS {
        let (e, rest) = (
            i / (RADII.len() * SPECS.len()),
            i % (RADII.len() * SPECS.len()),
        );
        v[i] = Variant {
            spec: SPECS[rest % SPECS.len()],
            k: RADII[rest / SPECS.len()],
            value: TYPES[e],
        };
        i += 1;
    }
    v
};

/// The shared-memory variants the build checks: every smem spec at the largest radius, fp32. That covers every
/// shipped variant: the smem instructions at radius `k` are a prefix of those at `MAX_RADIUS` with the same
/// addresses (`smem.rs`; tested for every k), and i32 has the same 4-byte element addresses as fp32.
pub const CHECKED: [Variant; 5] = {
    let mut v = [VARIANTS[0]; 5];
    let (mut i, mut n) = (0, 0);
    while i < SPECS.len() {
        if matches!(SPECS[i].method, Method::Smem) {
            v[n] = Variant {
                spec: SPECS[i],
                k: super::MAX_RADIUS,
                value: Elem::F32,
            };
            n += 1;
        }
        i += 1;
    }
    assert!(n == 5, "CHECKED lists every shared-memory spec");
    v
};

// Every shared-memory variant the family ships is conflict-free on its fill and read (the baseline excepted), by
// the frame's one check.
crate::assert_specs_conflict_free!(CHECKED);

crate::family! {
    /// The stencil family (registered in [`crate::registry::FAMILIES`]).
    pub static STENCIL: StencilFamily = Identity::row("stencil", "1D k-stencil (the register-cache article): global loads, shared-memory tile + halo, and the warp register cache");
}

/// [`stencil_host`] of `input` in `V`'s arithmetic, as a host buffer.
fn reference_in<V: Value>(input: &HostBuf, k: usize) -> HostBuf {
    HostBuf::of(&stencil_host(&input.typed::<V>(), k))
}

impl Family for StencilFamily {
    type Spec = Variant;

    fn specs(&self) -> Vec<Variant> {
        VARIANTS.to_vec()
    }

    fn spec_name(&self, v: &Variant) -> String {
        format!("{} k={}", v.spec.name, v.k)
    }

    fn elem(&self, v: &Variant) -> Elem {
        v.elem()
    }

    fn header(&self, v: &Variant) -> swizzle_core::cuda::Header {
        v.spec.header(v.value, v.k)
    }

    /// The spec's own source: `swz.cuh` with `struct Spec`, and `stencil_rc.cuh` with the register cache.
    fn compile_unit(&self, v: &Variant) -> (Source, Vec<String>) {
        (v.spec.source(v.value, v.k), Vec::new())
    }

    fn entry(&self, _v: &Variant) -> &'static str {
        "stencil"
    }

    /// `[A (n), B (n - 2k)]`; `size` is `1 x n`.
    fn buffers(&self, v: &Variant, size: Size) -> Vec<Buffer> {
        let n = size.n as usize;
        vec![
            Buffer::input("A", v.elem(), n),
            Buffer::output("B", v.elem(), n.saturating_sub(2 * v.k as usize)),
        ]
    }

    /// `stencil(B, A, n)`. An error when `n <= 2k` (no output: the stencil's own tests cover that case).
    fn launch(&self, v: &Variant, size: Size) -> Result<Launch> {
        if size.m != 1 {
            return Err(Error::Invalid(format!(
                "stencil sizes are 1 x n, got {size}"
            )));
        }
        let config = v.spec.launch_config(size.n as usize, v.k)?.ok_or_else(|| {
            Error::Invalid(format!("{}: n = {} <= 2k: no output", v.spec.name, size.n))
        })?;
        Ok(Launch {
            config,
            args: vec![Arg::Buf(1), Arg::Buf(0), Arg::U32(size.n)],
        })
    }

    /// [`stencil_host`] in the variant's own arithmetic (fp32 sums in input order and one division; i32 with
    /// C's truncating division): bit-exact.
    fn reference(&self, v: &Variant, _size: Size, inputs: &[HostBuf]) -> Vec<HostBuf> {
        let k = v.k as usize;
        vec![if v.value == Elem::I32 {
            reference_in::<i32>(&inputs[0], k)
        } else {
            reference_in::<f32>(&inputs[0], k)
        }]
    }

    /// [`super::random_input`]: i32 inputs over the whole range the kernel's sums allow.
    fn inputs(&self, v: &Variant, size: Size, _buffers: &[Buffer]) -> Vec<HostBuf> {
        vec![super::random_input(v.value, size.n as usize)]
    }

    fn accesses(&self, v: &Variant) -> Vec<SpecAccess> {
        v.accesses().to_vec()
    }

    /// The value type and the radius: the layouts and block shapes compute the same sums.
    fn reference_class(&self, v: &Variant) -> Option<String> {
        Some(format!("{} k={}", v.value, v.k))
    }

    /// Sizes that are no multiple of any block's outputs (the edge cases, `n <= 2k` included, are in
    /// `tests/stencil_device.rs`).
    fn verify_sizes(&self) -> Vec<Size> {
        vec![Size::mn(1, 77_777), Size::mn(1, 1_000_003)]
    }

    fn parts(&self) -> Parts<'_, Variant> {
        Parts::none().with_bench(self)
    }
}

/// Against a D2D copy of the input (the default peer).
impl Bench for StencilFamily {
    fn block_label(&self, v: &Variant) -> String {
        format!("{BLOCK}x{}", v.spec.per_thread)
    }
    /// Input read once, output written once: `n * 4 + (n - 2k) * 4` bytes.
    fn measure(&self, v: &Variant, size: Size) -> Measure {
        let n = size.n as u64;
        Measure::Bytes((n + n.saturating_sub(2 * v.k as u64)) * v.elem().bytes() as u64)
    }
    /// The benchmark sizes: 2^27 (the article's) and 2^28.
    fn bench_sizes(&self) -> Vec<Size> {
        SIZES.iter().map(|&n| Size::mn(1, n as u32)).collect()
    }
}
