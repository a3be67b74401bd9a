//! The tensor-core fragment problems as kernels (`fragments.cu` beside this file): ldmatrix + `mma.sync.m16n8k16` +
//! stmatrix on shared-memory layouts declared here as [`Smem`] values.
//!
//! | problem | kernel | smem | layout (shipped) |
//! |---|---|---|---|
//! | 1.1 `A^n`, 16x16 f16, `<<<1, 32>>>` | `fragments_power` | `P1Smem` 16x16 | `Sw<1,3,3>` |
//! | 1.2 `A x B`, `[A | B]` one 16x32 f16 matrix | `fragments_halves` | `P2Smem` 16x32 | `Sw<2,3,3>` |
//! | 2.1 two access modes, 16x256 A, B, `<<<1, (32,16)>>>` | `fragments_two_modes` | `P21Smem` 16x256 | `Sw<1,6,-2>` then `Sw<3,3,5>` |
//! | 3.1 the interleaving variant | `fragments_interleaved` | `P31Mode1`, `P31Mode2` | `Sw<3,3,5>`, then `Sw<1,3,3>` |
//!
//! Every layout is what `swz synth` prints for the problem's access patterns (the tests below re-run the search).
//! The article's repository writes `swizzle<S,B,M>`; in our (CuTe) order its 1.1 is `Sw<1,3,3>`. For 2.1 the article's
//! code composes `Sw<3,3,5>` then `Sw<2,3,3>` (5 bits) and its blog figure `Sw<3,3,5>` then `Sw<1,3,3>` (4 bits);
//! the bank model accepts both (and the synthesised `Sw<1,6,-2>` then `Sw<3,3,5>`, also 4 bits, which the kernel
//! uses): `Sw<3,3,5>` alone serves mode 1 and leaves mode 2 2-way conflicted (rows of a 16x16 view are 32 bytes, so
//! view rows r and r+4 share banks), and any second layer that XORs the 16-byte chunk bit 3 with a view-row bit >= 2
//! fixes mode 2 without undoing mode 1.
//!
//! Each [`Variant`] is a problem with its shipped layouts or the unswizzled baseline (same kernel, identity
//! layouts): the baseline exists to show what the swizzle buys, and [`Variant::accesses`] predicts its conflicts.

use crate::frame::{
    Accesses, Arg, Bench, Buffer, Family, HostBuf, Identity, Launch, Measure, Parts, Peer, Size,
    SpecAccess, Tolerance,
};
use crate::runtime::{Error, Result, Source};
use cudarc::driver::LaunchConfig;
use half::f16;
use swizzle_core::bank::Op;
use swizzle_core::compose::{Composed, SwizzleFn};
use swizzle_core::cuda::{Header, Spec};
use swizzle_core::pattern::WarpAccess;
use swizzle_core::{Elem, Smem, Swizzle};

pub const SOURCE: &str = include_str!("fragments.cu");

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

    /// The `extern "C"` entry in `fragments.cu`.
    pub const fn entry(self) -> &'static str {
        match self {
            Problem::Power => "fragments_power",
            Problem::Halves => "fragments_halves",
            Problem::TwoModes => "fragments_two_modes",
            Problem::Interleaved => "fragments_interleaved",
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

// ---- the kernels' warp accesses, as data (thread-value layouts written like fragments.cu's index math) --------

/// `fill`/`drain` in fragments.cu: thread `t` of `threads` moves 16-byte chunk `t` (+ `threads`, ...) of a
/// `rows x cols` f16 tile, chunk `q` at row `q / (cols/8)`, column `8 * (q % (cols/8))`.
const fn chunks(name: &'static str, op: Op, rows: u32, cols: u32) -> WarpAccess {
    let per_row = cols / 8;
    assert!(
        per_row <= 32 && 32 % per_row == 0,
        "chunk walks of rows up to 256 f16"
    );
    // One instruction = 32 consecutive chunks, whichever warp or loop iteration issues it.
    let rows_per_instr = 32 / per_row;
    let a = WarpAccess::new(name, op).lane(per_row, 0, 8);
    let a = if rows_per_instr > 1 {
        a.lane(rows_per_instr, 1, 0)
    } else {
        a
    };
    if rows > rows_per_instr {
        a.instr(rows / rows_per_instr, rows_per_instr, 0)
    } else {
        a
    }
}

/// A 16x16 block in "A order" (`a_row`, `a_col` in fragments.cu): lanes 0..16 give rows 0..16 at column 0, lanes
/// 16..32 the same rows at column 8. ldmatrix A operands, `.trans` B operands of a k x n tile, stmatrix of an
/// accumulator tile.
const fn a_order(name: &'static str, op: Op) -> WarpAccess {
    WarpAccess::new(name, op).lane(16, 1, 0).lane(2, 0, 8)
}

/// "B order" (`b_row`, `b_col`): matrices (n0-7, k0-7), (n0-7, k8-15), (n8-15, k0-7), (n8-15, k8-15).
const fn b_order(name: &'static str, op: Op) -> WarpAccess {
    WarpAccess::new(name, op)
        .lane(8, 1, 0)
        .lane(2, 0, 8)
        .lane(2, 8, 0)
}

/// Mode 2 of 2.1/3.1: warp `w` reads row `w` of a 16x256 tile as a 16x16 matrix, view element `(r, c)` at column
/// `16 r + c`: A order with the view row stepping 16 columns.
const fn a_order_row_view(name: &'static str, op: Op) -> WarpAccess {
    WarpAccess::new(name, op)
        .lane(16, 0, 16)
        .lane(2, 0, 8)
        .instr(16, 1, 0)
}

const fn b_order_row_view(name: &'static str, op: Op) -> WarpAccess {
    WarpAccess::new(name, op)
        .lane(8, 0, 16)
        .lane(2, 0, 8)
        .lane(2, 0, 128)
        .instr(16, 1, 0)
}

/// One access of a variant; only the shipped layouts claim to be conflict-free (`z`).
const fn at(z: bool, label: &'static str, smem: Smem, access: WarpAccess) -> SpecAccess {
    SpecAccess {
        label,
        smem,
        access,
        conflict_free: z,
    }
}

/// 16-byte chunk copies of a 16x256 tile by 512 threads (2.1, 3.1).
const CHUNKS_ST: WarpAccess = chunks("chunks (sts128)", Op::STS128, 16, 256);
const CHUNKS_LD: WarpAccess = chunks("chunks (lds128)", Op::LDS128, 16, 256);
/// Mode 1 of 2.1/3.1: warp `w` loads column block `w` (columns `16w..16w+16`).
const MODE1_A: WarpAccess = a_order("ldmatrix.x4", Op::LDMATRIX_X4).instr(16, 0, 16);
const MODE1_B: WarpAccess = b_order("ldmatrix.x4 (B order)", Op::LDMATRIX_X4).instr(16, 0, 16);
/// Mode 2: warp `w` loads row `w` viewed as a 16x16 matrix.
const MODE2_A: WarpAccess = a_order_row_view("ldmatrix.x4 (row as 16x16)", Op::LDMATRIX_X4);
const MODE2_B: WarpAccess =
    b_order_row_view("ldmatrix.x4 (B order, row as 16x16)", Op::LDMATRIX_X4);

/// An access executed once per launch.
const fn once(z: bool, label: &'static str, smem: Smem, access: WarpAccess) -> (SpecAccess, Times) {
    (at(z, label, smem, access), Times::Fixed(1))
}

/// How many times one launch executes an access (all warps' instructions together).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Times {
    Fixed(u32),
    /// Once per multiplication step of 1.1: `n - 1`.
    PerStep,
}

/// A problem with its shipped layouts (`swizzled`) or the unswizzled baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    pub problem: Problem,
    pub swizzled: bool,
}

/// Every variant: the shipped layouts, then the unswizzled baselines (conflicts by design).
pub const SPECS: [Variant; 8] = [
    Variant::shipped(Problem::Power),
    Variant::shipped(Problem::Halves),
    Variant::shipped(Problem::TwoModes),
    Variant::shipped(Problem::Interleaved),
    Variant::baseline(Problem::Power),
    Variant::baseline(Problem::Halves),
    Variant::baseline(Problem::TwoModes),
    Variant::baseline(Problem::Interleaved),
];

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

    pub const fn name(&self) -> &'static str {
        match (self.problem, self.swizzled) {
            (Problem::Power, true) => "1.1-power",
            (Problem::Halves, true) => "1.2-halves",
            (Problem::TwoModes, true) => "2.1-two-modes",
            (Problem::Interleaved, true) => "3.1-interleaved",
            (Problem::Power, false) => "1.1-power.unswizzled",
            (Problem::Halves, false) => "1.2-halves.unswizzled",
            (Problem::TwoModes, false) => "2.1-two-modes.unswizzled",
            (Problem::Interleaved, false) => "3.1-interleaved.unswizzled",
        }
    }

    const fn keep(&self, smem: Smem) -> Smem {
        if self.swizzled {
            smem
        } else {
            tile(smem.rows(), smem.cols())
        }
    }

    /// The named layouts the kernels index through (C++ name in `struct Fragments`, layout): all four problems'
    /// buffers, shipped or unswizzled (one `.cu` holds the four kernels, so one header serves them all).
    pub const fn layouts(&self) -> [(&'static str, Smem); 5] {
        [
            ("P1", self.keep(P1)),
            ("P2", self.keep(P2)),
            ("P21", self.keep(P21)),
            ("P31Mode1", self.keep(P31_MODE1)),
            ("P31Mode2", self.keep(P31_MODE2)),
        ]
    }

    /// Every shared-memory access one launch issues, as data, with how often it runs. The compile-time check,
    /// the frame's reports and `swz profile fragments`' exact ncu comparison all read this.
    pub const fn uses(&self) -> ([(SpecAccess, Times); 10], usize) {
        let z = self.swizzled;
        let none = (at(z, "", P1, MODE1_A), Times::Fixed(0));
        let mut u = [none; 10];
        let n;
        match self.problem {
            Problem::Power => {
                let l = self.keep(P1);
                u[0] = (
                    at(
                        z,
                        "fill A, P",
                        l,
                        chunks("fill (sts128)", Op::STS128, 16, 16),
                    ),
                    Times::Fixed(2),
                );
                u[1] = once(
                    z,
                    "B = A",
                    l,
                    a_order("ldmatrix.x4.trans", Op::LDMATRIX_X4_TRANS),
                );
                u[2] = (
                    at(z, "P", l, a_order("ldmatrix.x4", Op::LDMATRIX_X4)),
                    Times::PerStep,
                );
                u[3] = (
                    at(z, "P <- P*A", l, a_order("stmatrix.x4", Op::STMATRIX_X4)),
                    Times::PerStep,
                );
                u[4] = once(
                    z,
                    "drain P",
                    l,
                    chunks("drain (lds128)", Op::LDS128, 16, 16),
                );
                n = 5;
            }
            Problem::Halves => {
                let l = self.keep(P2);
                u[0] = once(z, "fill M", l, chunks("fill (sts128)", Op::STS128, 16, 32));
                // Instruction 0: A = M[:, 0:16] (plain); instruction 1: B = M[:, 16:32] (.trans, same addresses).
                u[1] = once(
                    z,
                    "A, B",
                    l,
                    a_order("ldmatrix.x4, .x4.trans", Op::LDMATRIX_X4).instr(2, 0, 16),
                );
                n = 2;
            }
            Problem::TwoModes => {
                let l = self.keep(P21);
                u[0] = (at(z, "fill A, B", l, CHUNKS_ST), Times::Fixed(2));
                u[1] = once(z, "mode 1 A", l, MODE1_A);
                u[2] = once(z, "mode 1 B", l, MODE1_B);
                u[3] = once(z, "mode 2 A", l, MODE2_A);
                u[4] = once(z, "mode 2 B", l, MODE2_B);
                n = 5;
            }
            Problem::Interleaved => {
                let (m1, m2) = (self.keep(P31_MODE1), self.keep(P31_MODE2));
                u[0] = (
                    at(z, "fill A, B (mode-1 layout)", m1, CHUNKS_ST),
                    Times::Fixed(2),
                );
                u[1] = once(z, "mode 1 A", m1, MODE1_A);
                u[2] = once(z, "mode 1 B", m1, MODE1_B);
                u[3] = once(
                    z,
                    "C1 -> smem",
                    m1,
                    a_order("stmatrix.x4", Op::STMATRIX_X4).instr(16, 0, 16),
                );
                u[4] = (
                    at(z, "switch reads A, B; drain C1", m1, CHUNKS_LD),
                    Times::Fixed(3),
                );
                u[5] = (
                    at(z, "switch writes A, B (mode-2 layout)", m2, CHUNKS_ST),
                    Times::Fixed(2),
                );
                u[6] = once(z, "mode 2 A", m2, MODE2_A);
                u[7] = once(z, "mode 2 B", m2, MODE2_B);
                u[8] = once(
                    z,
                    "C2 -> smem",
                    m2,
                    a_order_row_view("stmatrix.x4 (row as 16x16)", Op::STMATRIX_X4),
                );
                u[9] = once(z, "drain C2", m2, CHUNKS_LD);
                n = 10;
            }
        }
        (u, n)
    }

    /// [`Variant::uses`] without the counts, for the frame.
    pub const fn accesses(&self) -> Accesses {
        let (u, n) = self.uses();
        let mut a = Accesses::new();
        let mut i = 0;
        while i < n {
            a = a.with(u[i].0);
            i += 1;
        }
        a
    }

    /// (access, executions per launch) with 1.1's power `n`.
    pub fn uses_per_launch(&self, n: u32) -> Vec<(SpecAccess, u32)> {
        let (u, len) = self.uses();
        u[..len]
            .iter()
            .map(|(a, t)| {
                let times = match t {
                    Times::Fixed(k) => *k,
                    Times::PerStep => n.saturating_sub(1),
                };
                (*a, times)
            })
            .collect()
    }

    /// The header the kernels include: `struct Fragments` with one layout type per buffer.
    pub fn header(&self) -> Header {
        let mut spec = Spec::new("Fragments").doc(format!(
            "tensor-core fragment problems, {} layouts",
            if self.swizzled {
                "shipped"
            } else {
                "unswizzled"
            }
        ));
        for (name, smem) in self.layouts() {
            spec = spec.layout(name, smem);
        }
        Header::new().spec(spec.elem("T", Elem::F16))
    }

    const fn block(&self) -> (u32, u32, u32) {
        match self.problem {
            Problem::Power | Problem::Halves => (32, 1, 1),
            Problem::TwoModes | Problem::Interleaved => (32, 16, 1),
        }
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let l = self.layouts();
        let used: &[usize] = match self.problem {
            Problem::Power => &[0],
            Problem::Halves => &[1],
            Problem::TwoModes => &[2],
            Problem::Interleaved => &[3, 4],
        };
        write!(f, "{}:", self.name())?;
        for &i in used {
            write!(f, " {} = {};", l[i].0, l[i].1)?;
        }
        Ok(())
    }
}

// Every shipped variant is conflict-free on every access it issues (the baselines are marked as conflicting by
// design and skipped): one const loop, failing the build with the access, instruction, phase, bank and lanes.
crate::assert_specs_conflict_free!(SPECS);

crate::family! {
    /// The family: `swz bench fragments` has nothing to time (each problem is one block of a few hundred cycles);
    /// what it contributes is verification, the reports and the profiler comparison.
    pub static FRAGMENTS: Fragments = Identity::matrix("fragments", "the tensor-core fragment problems (ldmatrix + mma.sync + stmatrix): 1.1 A^n, 1.2 A x B halves, 2.1 two access modes, 3.1 interleaved layouts");
}

/// Output element type of each problem: f32 straight from the accumulators (1.2, 2.1), f16 through smem (1.1,
/// 3.1).
const fn out_elem(p: Problem) -> Elem {
    match p {
        Problem::Power | Problem::Interleaved => Elem::F16,
        Problem::Halves | Problem::TwoModes => Elem::F32,
    }
}

/// 1.1's power from a size: sizes are `16x16xN` (the matrix and the power `n`); the other problems take
/// `16x16x1`-style sizes and ignore `n`.
const fn power(size: Size) -> u32 {
    size.k
}

impl Family for Fragments {
    type Spec = Variant;

    fn specs(&self) -> Vec<Variant> {
        SPECS.to_vec()
    }

    fn spec_name(&self, v: &Variant) -> String {
        v.name().to_string()
    }

    fn elem(&self, _v: &Variant) -> Elem {
        Elem::F16
    }

    fn header(&self, v: &Variant) -> Header {
        v.header()
    }

    /// `fragments.cu` with `swz.cuh` ([`Variant::header`]).
    fn compile_unit(&self, v: &Variant) -> (Source, Vec<String>) {
        let header = crate::runtime::Header {
            name: swizzle_core::cuda::HEADER_NAME.into(),
            text: v.header().render(),
        };
        let source = Source {
            name: "fragments.cu".into(),
            text: SOURCE.into(),
            headers: vec![header],
        };
        (source, Vec::new())
    }

    fn entry(&self, v: &Variant) -> &'static str {
        v.problem.entry()
    }

    fn buffers(&self, v: &Variant, _size: Size) -> Vec<Buffer> {
        let out = out_elem(v.problem);
        match v.problem {
            Problem::Power => vec![
                Buffer::input("A", Elem::F16, 256),
                Buffer::output("A^n", out, 256),
            ],
            Problem::Halves => vec![
                Buffer::input("M", Elem::F16, 512),
                Buffer::output("C", out, 256),
            ],
            Problem::TwoModes | Problem::Interleaved => vec![
                Buffer::input("A", Elem::F16, 4096),
                Buffer::input("B", Elem::F16, 4096),
                Buffer::output("C1", out, 4096),
                Buffer::output("C2", out, 4096),
            ],
        }
    }

    fn inputs(&self, v: &Variant, size: Size, buffers: &[Buffer]) -> Vec<HostBuf> {
        match v.problem {
            // A row-stochastic matrix keeps A^n bounded for every n (see `stochastic16`).
            Problem::Power => vec![HostBuf::from_f64(
                Elem::F16,
                &stochastic16(0x5eed ^ size.k as u64)
                    .iter()
                    .map(|h| h.to_f64())
                    .collect::<Vec<_>>(),
            )],
            _ => crate::frame::verify::random_inputs(buffers, size),
        }
    }

    fn launch(&self, v: &Variant, size: Size) -> Result<Launch> {
        let config = LaunchConfig {
            grid_dim: (1, 1, 1),
            block_dim: v.block(),
            shared_mem_bytes: 0,
        };
        let args = match v.problem {
            Problem::Power => {
                if power(size) == 0 {
                    return Err(Error::Invalid("1.1: A^0 is not computed (n >= 1)".into()));
                }
                vec![Arg::Buf(0), Arg::Buf(1), Arg::I32(power(size) as i32)]
            }
            Problem::Halves => vec![Arg::Buf(0), Arg::Buf(1)],
            _ => vec![Arg::Buf(0), Arg::Buf(1), Arg::Buf(2), Arg::Buf(3)],
        };
        Ok(Launch { config, args })
    }

    fn reference(&self, v: &Variant, size: Size, inputs: &[HostBuf]) -> Vec<HostBuf> {
        let f16s =
            |b: &HostBuf| -> Vec<f16> { b.to_f64().iter().map(|x| f16::from_f64(*x)).collect() };
        let out = |v32: Vec<f32>| -> HostBuf {
            HostBuf::from_f64(
                out_elem(v.problem),
                &v32.iter().map(|x| *x as f64).collect::<Vec<_>>(),
            )
        };
        match v.problem {
            Problem::Power => vec![out(power_host(&f16s(&inputs[0]), power(size)))],
            Problem::Halves => vec![out(halves_host(&f16s(&inputs[0])))],
            _ => {
                let (c1, c2) = two_modes_host(&f16s(&inputs[0]), &f16s(&inputs[1]));
                vec![out(c1), out(c2)]
            }
        }
    }

    /// f32 outputs differ from the host only in summation order (16 products of f16 values); f16 outputs add
    /// one f16 rounding (2^-11 relative). 1.1 rounds after every step exactly as the host does; a summation-order
    /// difference can flip one rounding, which the stochastic matrix then contracts: a few f16 ulps of ~1/16.
    fn tolerance(&self, v: &Variant) -> Tolerance {
        match v.problem {
            Problem::Halves | Problem::TwoModes => Tolerance::Close {
                abs: 1e-5,
                rel: 1e-4,
            },
            Problem::Power => Tolerance::Close {
                abs: 4e-3,
                rel: 0.0,
            },
            Problem::Interleaved => Tolerance::Close {
                abs: 1e-3,
                rel: 1e-3,
            },
        }
    }

    fn accesses(&self, v: &Variant) -> Vec<SpecAccess> {
        v.accesses().to_vec()
    }

    fn verify_sizes(&self) -> Vec<Size> {
        [1, 2, 3, 7, 16, 64, 100]
            .iter()
            .map(|&n| Size::mnk(16, 16, n))
            .collect()
    }
    fn parts(&self) -> Parts<'_, Variant> {
        Parts::none().with_bench(self)
    }
}

impl Bench for Fragments {
    fn block_label(&self, v: &Variant) -> String {
        let (x, y, _) = v.block();
        format!("({x},{y})")
    }
    fn measure(&self, v: &Variant, size: Size) -> Measure {
        let mma16 = 2 * 16 * 16 * 16;
        Measure::Flops(match v.problem {
            Problem::Power => mma16 * power(size).saturating_sub(1) as u64,
            Problem::Halves => mma16,
            _ => 2 * 16 * mma16,
        })
    }
    fn peer(&self, v: &Variant, size: Size) -> Peer {
        let bytes: usize = self.buffers(v, size).iter().map(|b| b.bytes()).sum();
        Peer::CopyD2D {
            bytes: bytes as u64,
        }
    }
    fn bench_sizes(&self) -> Vec<Size> {
        Vec::new()
    }
}

/// 1.1's input: a row-stochastic 16x16 matrix (positive entries, rows summing to 1, rounded to f16): spectral
/// radius 1, so `A^n` stays bounded (it converges to a rank-one matrix with entries near 1/16) for every n.
pub fn stochastic16(seed: u64) -> Vec<f16> {
    let raw: Vec<f32> = HostBuf::random(Elem::F32, 256, seed)
        .to_f64()
        .iter()
        .map(|v| 0.1 + v.abs() as f32)
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

#[cfg(test)]
mod tests {
    use super::*;
    use swizzle_core::pattern::Pattern;
    use swizzle_core::synth;

    /// The thread-value layouts issue exactly the instructions of swizzle-core's generic tile walks where the
    /// two describe the same thing (an independent derivation of the kernel's index math).
    #[test]
    fn accesses_match_generic_walks() {
        let same = |a: WarpAccess, p: Pattern, smem: Smem| {
            let x = a.accesses(&smem).expect("thread-value access");
            let y = p.warp().accesses(&smem).expect("generic walk");
            assert_eq!(x.len(), y.len(), "{}", a.name());
            for (i, (u, v)) in x.iter().zip(&y).enumerate() {
                assert_eq!(u.addrs, v.addrs, "{} instruction {i}", a.name());
            }
        };
        let plain = tile(16, 256);
        same(chunks("c", Op::STS128, 16, 256), Pattern::ROW16, plain);
        same(
            chunks("c", Op::STS128, 16, 16),
            Pattern::ROW16,
            tile(16, 16),
        );
        same(
            chunks("c", Op::STS128, 16, 32),
            Pattern::ROW16,
            tile(16, 32),
        );
        same(
            a_order("a", Op::LDMATRIX_X4).instr(16, 0, 16),
            Pattern::LDMATRIX_X4,
            plain,
        );
        same(
            b_order("b", Op::LDMATRIX_X4).instr(16, 0, 16),
            Pattern::LDMATRIX_X4_B,
            plain,
        );
        same(
            a_order_row_view("a", Op::LDMATRIX_X4),
            Pattern::LDMATRIX_X4.viewed_as(16),
            plain,
        );
        same(
            b_order_row_view("b", Op::LDMATRIX_X4),
            Pattern::LDMATRIX_X4_B.viewed_as(16),
            plain,
        );
    }

    /// The shipped layouts are what the synthesiser finds for each problem's patterns.
    #[test]
    fn layouts_are_synthesised() {
        let found = |smem: Smem, pats: &[Pattern]| -> SwizzleFn {
            let s = synth::synthesize(&tile(smem.rows(), smem.cols()), pats);
            s.in_elems().expect("an answer on f16 elements")
        };
        let (ld, ldb, ldt, st, row) = (
            Pattern::LDMATRIX_X4,
            Pattern::LDMATRIX_X4_B,
            Pattern::LDMATRIX_X4_TRANS,
            Pattern::STMATRIX_X4,
            Pattern::ROW16,
        );
        assert_eq!(found(P1, &[ld, ldt, st, row]), P1.swizzle());
        assert_eq!(found(P2, &[ld, ldt, row]), P2.swizzle());
        let both = [ld, ldb, ld.viewed_as(16), ldb.viewed_as(16), row];
        assert_eq!(found(P21, &both), P21.swizzle());
        assert_eq!(found(P31_MODE1, &[ld, ldb, st, row]), P31_MODE1.swizzle());
        let mode2 = [ld.viewed_as(16), ldb.viewed_as(16), st.viewed_as(16), row];
        assert_eq!(found(P31_MODE2, &mode2), P31_MODE2.swizzle());
    }

    /// The article's own two-layer choices for 2.1 (its code: Sw<3,3,5> then Sw<2,3,3>; its blog figure: Sw<3,3,5>
    /// then Sw<1,3,3>) are accepted by the model too; one layer of either is not enough.
    #[test]
    fn the_articles_two_layer_choices() {
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
