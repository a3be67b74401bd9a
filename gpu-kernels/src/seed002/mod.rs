//! Seed 002's tensor-core problems as kernels (`seed002.cu` beside this file): ldmatrix + `mma.sync.m16n8k16` +
//! stmatrix on shared-memory layouts declared here as [`Smem`] values.
//!
//! | problem | kernel | smem | layout (shipped) |
//! |---|---|---|---|
//! | 1.1 `A^n`, 16x16 f16, `<<<1, 32>>>` | `seed002_power` | `P1Smem` 16x16 | `Sw<1,3,3>` |
//! | 1.2 `A x B`, `[A | B]` one 16x32 f16 matrix | `seed002_halves` | `P2Smem` 16x32 | `Sw<2,3,3>` |
//! | 2.1 two access modes, 16x256 A, B, `<<<1, (32,16)>>>` | `seed002_two_modes` | `P21Smem` 16x256 | `Sw<1,6,-2>` then `Sw<3,3,5>` |
//! | 3.1 the interleaving variant | `seed002_interleaved` | `P31Mode1`, `P31Mode2` | `Sw<3,3,5>`, then `Sw<1,3,3>` |
//!
//! Every layout is what `swz synth` prints for the problem's access patterns (the tests below re-run the search).
//! The seed's repository writes `swizzle<S,B,M>`; in our (CuTe) order its 1.1 is `Sw<1,3,3>`. For 2.1 the seed's
//! code composes `Sw<3,3,5>` then `Sw<2,3,3>` (5 bits) and its blog figure `Sw<3,3,5>` then `Sw<1,3,3>` (4 bits);
//! the bank model accepts both (and the synthesised `Sw<1,6,-2>` then `Sw<3,3,5>`, also 4 bits, which the kernel
//! uses): `Sw<3,3,5>` alone serves mode 1 and leaves mode 2 2-way conflicted (rows of a 16x16 view are 32 bytes, so
//! view rows r and r+4 share banks), and any second layer that XORs the 16-byte chunk bit 3 with a view-row bit >= 2
//! fixes mode 2 without undoing mode 1.
//!
//! Each [`Variant`] is a problem with its shipped layouts or the unswizzled baseline (same kernel, identity
//! layouts): the baseline exists to show what the swizzle buys, and [`Variant::accesses`] predicts its conflicts.

use crate::elem::random;
use crate::runtime::{Error, Gpu, Header, Result, Source};
use cudarc::driver::{CudaSlice, LaunchConfig, PushKernelArg};
use half::f16;
use swizzle_core::bank::{self, Op};
use swizzle_core::compose::{Composed, SwizzleFn};
use swizzle_core::pattern::{Access, Layout, Pattern, Smem};
use swizzle_core::units::{Elem, Unit};
use swizzle_core::Swizzle;

pub const SOURCE: &str = include_str!("seed002.cu");

/// The four problems.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Problem {
    /// 1.1: `A^n` for a 16x16 f16 matrix.
    Power,
    /// 1.2: `A x B`, the two 16x16 halves of one 16x32 matrix.
    Halves,
    /// 2.1: per 16-column block `Asub * Bsub^T` (C1) and per row viewed 16x16 (C2), one two-layer layout.
    TwoModes,
    /// 3.1: the same two products with the layout switched in place between them.
    Interleaved,
}

impl Problem {
    pub const ALL: [Problem; 4] = [
        Problem::Power,
        Problem::Halves,
        Problem::TwoModes,
        Problem::Interleaved,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Problem::Power => "1.1-power",
            Problem::Halves => "1.2-halves",
            Problem::TwoModes => "2.1-two-modes",
            Problem::Interleaved => "3.1-interleaved",
        }
    }

    /// The `extern "C"` entry in `seed002.cu`.
    pub const fn entry(self) -> &'static str {
        match self {
            Problem::Power => "seed002_power",
            Problem::Halves => "seed002_halves",
            Problem::TwoModes => "seed002_two_modes",
            Problem::Interleaved => "seed002_interleaved",
        }
    }
}

const fn tile(rows: u32, cols: u32) -> Smem {
    Smem::row_major(rows, cols, Elem::F16)
}

/// 1.1: a 16x16 f16 tile, 32-byte rows: ldmatrix's 8 rows of a phase span 256 bytes, rows r and r+4 share banks.
pub const P1: Smem = tile(16, 16).with_swizzle(Swizzle::new(1, 3, 3));
/// 1.2: 16x32, 64-byte rows: rows r, r+2, r+4, r+6 share banks; two chunk bits XORed with row bits 1..2.
pub const P2: Smem = tile(16, 32).with_swizzle(Swizzle::new(2, 3, 3));
/// 2.1: the two-layer layout `swz synth` finds for both modes (on f16 element offsets).
pub const P21: Smem = tile(16, 256).with_swizzle_fn(SwizzleFn::Composed(Composed::new(
    Swizzle::new(1, 6, -2),
    Swizzle::new(3, 3, 5),
)));
/// 3.1, mode 1 (16-column blocks): chunk bits 3..5 XOR row bits 0..2 (offset bits 8..10).
pub const P31_MODE1: Smem = tile(16, 256).with_swizzle(Swizzle::new(3, 3, 5));
/// 3.1, mode 2 (each row as a 16x16 matrix): problem 1.1's layout on every 256-element row.
pub const P31_MODE2: Smem = tile(16, 256).with_swizzle(Swizzle::new(1, 3, 3));

/// A problem with its shipped layouts (`swizzled`) or the unswizzled baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    pub problem: Problem,
    pub swizzled: bool,
}

/// One kind of warp instruction a kernel issues: where (buffer layout), what (pattern over that layout, or a
/// subset of its instructions), and how many times per launch.
#[derive(Clone, Debug)]
pub struct KernelAccess {
    pub what: &'static str,
    pub smem: Smem,
    pub pattern: Pattern,
    /// `Some(i)`: only instruction `i` of the pattern; `None`: every instruction (all warps).
    pub only: Option<u32>,
    /// 16-byte reads use the row16 walk with `ld.shared.v4` instead of the store.
    pub load: bool,
    /// Executions of this set per launch.
    pub repeats: u32,
}

impl KernelAccess {
    /// The warp instructions of one execution.
    pub fn instructions(&self) -> Vec<Access> {
        let n = self.pattern.instructions(self.smem.tile);
        let range = match self.only {
            Some(i) => i..i + 1,
            None => 0..n,
        };
        let op = if self.load {
            Op::LDS128
        } else {
            self.pattern.op(self.smem.tile.elem)
        };
        range
            .map(|i| Access {
                op,
                addrs: self.pattern.addrs(&self.smem, i),
            })
            .collect()
    }

    /// (instructions, wavefronts, ideal wavefronts) per launch.
    pub fn cost(&self) -> (u64, u64, u64) {
        let acc = self.instructions();
        let r = self.repeats as u64;
        let w: u64 = acc.iter().map(|a| a.wavefronts() as u64).sum();
        let ideal: u64 = acc.iter().map(|a| bank::ideal(a.op, &a.addrs) as u64).sum();
        (acc.len() as u64 * r, w * r, ideal * r)
    }

    pub fn is_store(&self) -> bool {
        !self.load
            && matches!(
                self.pattern.op(self.smem.tile.elem),
                Op::Sts(_) | Op::Stmatrix { .. }
            )
    }

    pub fn is_ldmatrix(&self) -> bool {
        matches!(self.pattern.op(self.smem.tile.elem), Op::Ldmatrix { .. })
    }
}

impl Variant {
    pub const fn shipped(problem: Problem) -> Variant {
        Variant {
            problem,
            swizzled: true,
        }
    }

    pub const fn baseline(problem: Problem) -> Variant {
        Variant {
            problem,
            swizzled: false,
        }
    }

    pub fn all() -> Vec<Variant> {
        Problem::ALL
            .iter()
            .flat_map(|p| [Variant::shipped(*p), Variant::baseline(*p)])
            .collect()
    }

    pub fn name(&self) -> String {
        format!(
            "{}{}",
            self.problem.name(),
            if self.swizzled { "" } else { ".unswizzled" }
        )
    }

    const fn keep(&self, smem: Smem) -> Smem {
        if self.swizzled {
            smem
        } else {
            tile(smem.tile.rows, smem.tile.cols)
        }
    }

    /// The named layouts the kernels index through (C++ name, layout): all four problems' buffers, shipped or
    /// unswizzled (one `.cu` holds the four kernels, so one header serves them all).
    pub fn layouts(&self) -> Vec<(&'static str, Smem)> {
        vec![
            ("P1Smem", self.keep(P1)),
            ("P2Smem", self.keep(P2)),
            ("P21Smem", self.keep(P21)),
            ("P31Mode1", self.keep(P31_MODE1)),
            ("P31Mode2", self.keep(P31_MODE2)),
        ]
    }

    /// Every shared-memory instruction one launch issues, as data (`n` = 1.1's power; ignored by the others).
    /// The bank model costs these; the tests check the shipped ones are conflict-free, and ncu's counts are
    /// compared with them on the device.
    pub fn accesses(&self, n: u32) -> Vec<KernelAccess> {
        let l = |s: Smem| self.keep(s);
        let acc = |what, smem, pattern, only, load, repeats| KernelAccess {
            what,
            smem,
            pattern,
            only,
            load,
            repeats,
        };
        let p = Pattern::ROW16;
        let (ld, ldb, ldt, st) = (
            Pattern::LDMATRIX_X4,
            Pattern::LDMATRIX_X4_B,
            Pattern::LDMATRIX_X4_TRANS,
            Pattern::STMATRIX_X4,
        );
        match self.problem {
            Problem::Power => vec![
                acc("fill A, P (row16)", l(P1), p, None, false, 2),
                acc("B = A (ldmatrix.x4.trans)", l(P1), ldt, None, false, 1),
                acc("P (ldmatrix.x4)", l(P1), ld, None, false, n - 1),
                acc("P <- P*A (stmatrix.x4)", l(P1), st, None, false, n - 1),
                acc("drain P (lds128)", l(P1), p, None, true, 1),
            ],
            Problem::Halves => vec![
                acc("fill M (row16)", l(P2), p, None, false, 1),
                acc("A = M[:, 0:16] (ldmatrix.x4)", l(P2), ld, Some(0), false, 1),
                acc(
                    "B = M[:, 16:32] (ldmatrix.x4.trans)",
                    l(P2),
                    ldt,
                    Some(1),
                    false,
                    1,
                ),
            ],
            Problem::TwoModes => vec![
                acc("fill A, B (row16)", l(P21), p, None, false, 2),
                acc("mode 1 A (ldmatrix.x4)", l(P21), ld, None, false, 1),
                acc("mode 1 B (ldmatrix.x4.b)", l(P21), ldb, None, false, 1),
                acc(
                    "mode 2 A (ldmatrix.x4@16)",
                    l(P21),
                    ld.viewed_as(16),
                    None,
                    false,
                    1,
                ),
                acc(
                    "mode 2 B (ldmatrix.x4.b@16)",
                    l(P21),
                    ldb.viewed_as(16),
                    None,
                    false,
                    1,
                ),
            ],
            Problem::Interleaved => {
                let (m1, m2) = (l(P31_MODE1), l(P31_MODE2));
                vec![
                    acc("fill A, B in mode-1 layout (row16)", m1, p, None, false, 2),
                    acc("mode 1 A (ldmatrix.x4)", m1, ld, None, false, 1),
                    acc("mode 1 B (ldmatrix.x4.b)", m1, ldb, None, false, 1),
                    acc("C1 -> smem (stmatrix.x4)", m1, st, None, false, 1),
                    acc("switch: read A, B (lds128)", m1, p, None, true, 2),
                    acc("switch: write A, B (row16)", m2, p, None, false, 2),
                    acc(
                        "mode 2 A (ldmatrix.x4@16)",
                        m2,
                        ld.viewed_as(16),
                        None,
                        false,
                        1,
                    ),
                    acc(
                        "mode 2 B (ldmatrix.x4.b@16)",
                        m2,
                        ldb.viewed_as(16),
                        None,
                        false,
                        1,
                    ),
                    acc(
                        "C2 -> smem (stmatrix.x4@16)",
                        m2,
                        st.viewed_as(16),
                        None,
                        false,
                        1,
                    ),
                    acc("drain C1 (lds128)", m1, p, None, true, 1),
                    acc("drain C2 (lds128)", m2, p, None, true, 1),
                ]
            }
        }
    }

    /// The header the kernel includes: one layout type per named buffer, `offset(row, col)` in elements.
    pub fn header(&self) -> String {
        let mut h = swizzle_core::cuda::Header::new();
        let mut types = String::new();
        for (name, smem) in self.layouts() {
            let (first, second) = match smem.layout {
                Layout::Swizzled {
                    swizzle: SwizzleFn::Single(s),
                    unit: Unit::Elems(_),
                } => (s, Swizzle::IDENTITY),
                Layout::Swizzled {
                    swizzle: SwizzleFn::Composed(c),
                    unit: Unit::Elems(_),
                } => (c.first, c.second),
                // The unswizzled baselines are built on bytes: the identity in any unit.
                Layout::Swizzled {
                    swizzle: SwizzleFn::Single(s),
                    unit: Unit::Bytes,
                } if s.is_identity() => (s, s),
                other => panic!("seed002 layouts are swizzles on elements, not {other}"),
            };
            let (l1, l2) = (format!("{name}First"), format!("{name}Second"));
            h = h.swizzle(&l1, first).swizzle(&l2, second);
            types.push_str(&format!(
                "namespace swz {{\n// {smem}\nstruct {name} {{\n    static constexpr uint32_t ROWS = {}, COLS = {};\n    \
                 /// Element offset of (row, col): the row-major offset through both layers.\n    \
                 SWZ_HD static constexpr uint32_t offset(uint32_t row, uint32_t col) {{ return {l2}::apply({l1}::apply(row * COLS + col)); }}\n}};\n}}\n",
                smem.tile.rows, smem.tile.cols
            ));
        }
        let text = h.render();
        // The layout types go after the header's guard closes (they only use its names).
        format!("{text}\n{types}")
    }

    fn source(&self) -> (Source, Vec<String>) {
        let header = Header {
            name: crate::header::HEADER_NAME.into(),
            text: self.header(),
        };
        let src = Source {
            name: "seed002.cu".into(),
            text: SOURCE.into(),
            headers: vec![header],
        };
        (src, toolkit_include())
    }

    fn block(&self) -> (u32, u32, u32) {
        match self.problem {
            Problem::Power | Problem::Halves => (32, 1, 1),
            Problem::TwoModes | Problem::Interleaved => (32, 16, 1),
        }
    }

    fn config(&self) -> LaunchConfig {
        LaunchConfig {
            grid_dim: (1, 1, 1),
            block_dim: self.block(),
            shared_mem_bytes: 0,
        }
    }
}

/// Inputs and outputs of one problem, on the host.
#[derive(Clone, Debug)]
pub struct Run {
    pub inputs: Vec<Vec<f16>>,
    pub outputs: Vec<Vec<f32>>,
}

/// Random f16 values in [-1, 1) (never zeros: the seeded generator).
fn matrix(n: usize, seed: u64) -> Vec<f16> {
    random::<f16>(n, seed)
}

/// 1.1's input: a row-stochastic 16x16 matrix (positive entries, rows summing to 1, rounded to f16): spectral
/// radius 1, so `A^n` stays bounded (it converges to a rank-one matrix with entries near 1/16) for every n.
pub fn stochastic16(seed: u64) -> Vec<f16> {
    let raw: Vec<f32> = random::<f32>(256, seed)
        .iter()
        .map(|v| 0.1 + v.abs())
        .collect();
    let mut out = Vec::with_capacity(256);
    for r in 0..16 {
        let s: f32 = raw[16 * r..16 * r + 16].iter().sum();
        out.extend(
            raw[16 * r..16 * r + 16]
                .iter()
                .map(|v| f16::from_f32(v / s)),
        );
    }
    out
}

/// `C = X * Y` for 16x16 row-major f32 matrices.
fn mm16(x: &[f32], y: &[f32]) -> Vec<f32> {
    let mut c = vec![0f32; 256];
    for i in 0..16 {
        for j in 0..16 {
            c[16 * i + j] = (0..16).map(|k| x[16 * i + k] * y[16 * k + j]).sum();
        }
    }
    c
}

fn to_f32(v: &[f16]) -> Vec<f32> {
    v.iter().map(|h| h.to_f32()).collect()
}

fn round16(v: &[f32]) -> Vec<f32> {
    v.iter().map(|x| f16::from_f32(*x).to_f32()).collect()
}

/// Host reference for 1.1: the kernel's recurrence `P_{k+1} = f16(P_k * A)` in f32 arithmetic.
pub fn power_host(a: &[f16], n: u32) -> Vec<f32> {
    let a = to_f32(a);
    let mut p = a.clone();
    for _ in 1..n {
        p = round16(&mm16(&p, &a));
    }
    p
}

/// Host reference for 1.2: `A * B` with `A = M[:, 0:16]`, `B = M[:, 16:32]`.
pub fn halves_host(m: &[f16]) -> Vec<f32> {
    let m = to_f32(m);
    let a: Vec<f32> = (0..256).map(|i| m[32 * (i / 16) + i % 16]).collect();
    let b: Vec<f32> = (0..256).map(|i| m[32 * (i / 16) + 16 + i % 16]).collect();
    mm16(&a, &b)
}

/// `X * Y^T` for 16x16 matrices given by element functions.
fn abt(x: impl Fn(usize, usize) -> f32, y: impl Fn(usize, usize) -> f32) -> Vec<f32> {
    let mut c = vec![0f32; 256];
    for i in 0..16 {
        for j in 0..16 {
            c[16 * i + j] = (0..16).map(|k| x(i, k) * y(j, k)).sum();
        }
    }
    c
}

/// Host reference for 2.1 / 3.1: `(C1, C2)`, both 16x256 row-major. C1's columns `16w..16w+16` are block `w`'s
/// `Asub * Bsub^T`; C2's row `w` is the 16x16 product of row `w` of A and of B viewed as 16x16 matrices.
pub fn two_modes_host(a: &[f16], b: &[f16]) -> (Vec<f32>, Vec<f32>) {
    let (a, b) = (to_f32(a), to_f32(b));
    let mut c1 = vec![0f32; 4096];
    let mut c2 = vec![0f32; 4096];
    for w in 0..16 {
        let blk = abt(
            |r, k| a[256 * r + 16 * w + k],
            |r, k| b[256 * r + 16 * w + k],
        );
        for r in 0..16 {
            c1[256 * r + 16 * w..256 * r + 16 * w + 16].copy_from_slice(&blk[16 * r..16 * r + 16]);
        }
        let row = abt(
            |r, k| a[256 * w + 16 * r + k],
            |r, k| b[256 * w + 16 * r + k],
        );
        c2[256 * w..256 * w + 256].copy_from_slice(&row);
    }
    (c1, c2)
}

/// Run `variant` once on the GPU with random inputs (`seed`) and poisoned outputs; returns (got, want) per output.
pub fn run(gpu: &Gpu, variant: Variant, n: u32, seed: u64) -> Result<Vec<(Vec<f32>, Vec<f32>)>> {
    let (src, options) = variant.source();
    let kernel = gpu.kernel(&src, &options, variant.problem.entry())?;
    let cfg = variant.config();
    let poisoned_f16 = |gpu: &Gpu, len: usize| -> Result<CudaSlice<f16>> {
        let mut d = gpu.zeros::<f16>(len)?;
        gpu.fill_bytes(&mut d, 0xFF)?;
        Ok(d)
    };
    let poisoned_f32 = |gpu: &Gpu, len: usize| -> Result<CudaSlice<f32>> {
        let mut d = gpu.zeros::<f32>(len)?;
        gpu.fill_bytes(&mut d, 0xFF)?;
        Ok(d)
    };
    let widen = |v: Vec<f16>| to_f32(&v);
    match variant.problem {
        Problem::Power => {
            if n == 0 {
                return Err(Error::Invalid("1.1: A^0 is not computed (n >= 1)".into()));
            }
            let a = stochastic16(seed);
            let da = gpu.upload(&a)?;
            let mut out = poisoned_f16(gpu, 256)?;
            let ni = n as i32;
            gpu.launch(&kernel, cfg, |l| {
                l.arg(&da).arg(&mut out).arg(&ni);
            })?;
            gpu.sync()?;
            Ok(vec![(widen(gpu.download(&out)?), power_host(&a, n))])
        }
        Problem::Halves => {
            let m = matrix(512, seed);
            let dm = gpu.upload(&m)?;
            let mut c = poisoned_f32(gpu, 256)?;
            gpu.launch(&kernel, cfg, |l| {
                l.arg(&dm).arg(&mut c);
            })?;
            gpu.sync()?;
            Ok(vec![(gpu.download(&c)?, halves_host(&m))])
        }
        Problem::TwoModes | Problem::Interleaved => {
            let (a, b) = (matrix(4096, seed), matrix(4096, seed + 1));
            let (da, db) = (gpu.upload(&a)?, gpu.upload(&b)?);
            let (w1, w2) = two_modes_host(&a, &b);
            if variant.problem == Problem::TwoModes {
                let (mut c1, mut c2) = (poisoned_f32(gpu, 4096)?, poisoned_f32(gpu, 4096)?);
                gpu.launch(&kernel, cfg, |l| {
                    l.arg(&da).arg(&db).arg(&mut c1).arg(&mut c2);
                })?;
                gpu.sync()?;
                Ok(vec![(gpu.download(&c1)?, w1), (gpu.download(&c2)?, w2)])
            } else {
                let (mut c1, mut c2) = (poisoned_f16(gpu, 4096)?, poisoned_f16(gpu, 4096)?);
                gpu.launch(&kernel, cfg, |l| {
                    l.arg(&da).arg(&db).arg(&mut c1).arg(&mut c2);
                })?;
                gpu.sync()?;
                Ok(vec![
                    (widen(gpu.download(&c1)?), w1),
                    (widen(gpu.download(&c2)?), w2),
                ])
            }
        }
    }
}

/// Largest `|got - want| / max(1, |want|)`; NaN (an unwritten, poisoned element) counts as infinite.
pub fn max_rel_err(got: &[f32], want: &[f32]) -> f64 {
    assert_eq!(got.len(), want.len());
    got.iter()
        .zip(want)
        .map(|(g, w)| {
            let e = ((g - w).abs() / w.abs().max(1.0)) as f64;
            if e.is_nan() {
                f64::INFINITY
            } else {
                e
            }
        })
        .fold(0.0, f64::max)
}

/// The tolerance each output is held to: f32 outputs differ from the host only by summation order (16 products
/// of f16 values; the tensor cores may round the sum differently: under 1e-4); f16 outputs add one f16 rounding (2^-11 relative).
pub fn tolerance(problem: Problem) -> f64 {
    match problem {
        Problem::Halves | Problem::TwoModes => 1e-4,
        // 1.1 rounds after every step exactly as the host does; summation order can flip a rounding, which then
        // propagates contracted (the matrix is stochastic): a few f16 ulps.
        Problem::Power => 4e-3,
        Problem::Interleaved => 1e-3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use swizzle_core::synth;

    /// Every shared-memory instruction of every shipped variant costs its ideal wavefronts.
    #[test]
    fn shipped_variants_are_conflict_free() {
        for p in Problem::ALL {
            for a in Variant::shipped(p).accesses(4) {
                let (_, w, ideal) = a.cost();
                assert_eq!(w, ideal, "{}: {} conflicts", p.name(), a.what);
            }
        }
    }

    /// The unswizzled baselines conflict where the seed's author measured it: 1.1's ldmatrix, 2.1's A+B.
    #[test]
    fn baselines_conflict_as_predicted() {
        let excess = |v: Variant| -> u64 {
            v.accesses(2)
                .iter()
                .filter(|a| a.is_ldmatrix())
                .map(|a| {
                    let (_, w, i) = a.cost();
                    w - i
                })
                .sum()
        };
        // 1.1 with n = 2: one .trans load and one plain load, each 2 wavefronts a phase instead of 1.
        assert_eq!(excess(Variant::baseline(Problem::Power)), 8);
        // 2.1: 448 excess per operand in mode 1 (8-way), 64 in mode 2 (2-way): 1024 for A+B.
        assert_eq!(excess(Variant::baseline(Problem::TwoModes)), 1024);
        assert_eq!(excess(Variant::shipped(Problem::TwoModes)), 0);
    }

    /// The shipped layouts are what the synthesiser finds for each problem's patterns.
    #[test]
    fn layouts_are_synthesised() {
        let found = |smem: Smem, pats: &[Pattern]| -> SwizzleFn {
            let s = synth::synthesize(&tile(smem.tile.rows, smem.tile.cols), pats);
            s.in_elems().expect("an answer on f16 elements")
        };
        let layout = |smem: Smem| match smem.layout {
            Layout::Swizzled { swizzle, .. } => swizzle,
            Layout::Padded { .. } => panic!("padded"),
        };
        let (ld, ldb, ldt, st, row) = (
            Pattern::LDMATRIX_X4,
            Pattern::LDMATRIX_X4_B,
            Pattern::LDMATRIX_X4_TRANS,
            Pattern::STMATRIX_X4,
            Pattern::ROW16,
        );
        assert_eq!(found(P1, &[ld, ldt, st, row]), layout(P1));
        assert_eq!(found(P2, &[ld, ldt, row]), layout(P2));
        let both = [ld, ldb, ld.viewed_as(16), ldb.viewed_as(16), row];
        assert_eq!(found(P21, &both), layout(P21));
        assert_eq!(found(P31_MODE1, &[ld, ldb, st, row]), layout(P31_MODE1));
        let mode2 = [ld.viewed_as(16), ldb.viewed_as(16), st.viewed_as(16), row];
        assert_eq!(found(P31_MODE2, &mode2), layout(P31_MODE2));
    }

    /// The seed's own two-layer choices for 2.1 (its code: Sw<3,3,5> then Sw<2,3,3>; its blog figure: Sw<3,3,5>
    /// then Sw<1,3,3>) are accepted by the model too; one layer of either is not enough.
    #[test]
    fn seed_two_layer_choices() {
        let both = [
            Pattern::LDMATRIX_X4,
            Pattern::LDMATRIX_X4_B,
            Pattern::LDMATRIX_X4.viewed_as(16),
            Pattern::LDMATRIX_X4_B.viewed_as(16),
        ];
        let free =
            |f: SwizzleFn| synth::all_conflict_free(&tile(16, 256).with_swizzle_fn(f), &both);
        let two = |a: Swizzle, b: Swizzle| SwizzleFn::Composed(Composed::new(a, b));
        assert!(free(two(Swizzle::new(3, 3, 5), Swizzle::new(2, 3, 3))));
        assert!(free(two(Swizzle::new(3, 3, 5), Swizzle::new(1, 3, 3))));
        assert!(!free(SwizzleFn::Single(Swizzle::new(3, 3, 5))));
        assert!(!free(SwizzleFn::Single(Swizzle::new(1, 3, 3))));
    }
}

/// `-I` for the toolkit's headers (`cuda_fp16.h`), where the toolkit is installed.
fn toolkit_include() -> Vec<String> {
    ["/usr/local/cuda/include"]
        .iter()
        .filter(|d| std::path::Path::new(d).join("cuda_fp16.h").exists())
        .map(|d| format!("-I{d}"))
        .collect()
}

// Every shipped layout, checked at compile time against the patterns its kernel issues on it: a change that
// makes any of them conflict fails the build, naming the instruction, phase, bank and lanes.
swizzle_core::assert_conflict_free!(
    P1,
    Pattern::ROW16,
    Pattern::LDMATRIX_X4,
    Pattern::LDMATRIX_X4_TRANS,
    Pattern::STMATRIX_X4
);
swizzle_core::assert_conflict_free!(
    P2,
    Pattern::ROW16,
    Pattern::LDMATRIX_X4,
    Pattern::LDMATRIX_X4_TRANS
);
swizzle_core::assert_conflict_free!(
    P21,
    Pattern::ROW16,
    Pattern::LDMATRIX_X4,
    Pattern::LDMATRIX_X4_B,
    Pattern::LDMATRIX_X4.viewed_as(16),
    Pattern::LDMATRIX_X4_B.viewed_as(16)
);
swizzle_core::assert_conflict_free!(
    P31_MODE1,
    Pattern::ROW16,
    Pattern::LDMATRIX_X4,
    Pattern::LDMATRIX_X4_B,
    Pattern::STMATRIX_X4
);
swizzle_core::assert_conflict_free!(
    P31_MODE2,
    Pattern::ROW16,
    Pattern::LDMATRIX_X4.viewed_as(16),
    Pattern::LDMATRIX_X4_B.viewed_as(16),
    Pattern::STMATRIX_X4.viewed_as(16)
);
