//! The shared-memory wavefront model: how many wavefronts (bank passes) one warp instruction costs on sm_90.
//!
//! # The model
//!
//! **Banks and words.** Shared memory is [`BANKS`] = 32 banks, each [`BANK_BYTES`] = 4 bytes wide; byte address
//! `a` lies in 4-byte word `a / 4`, and word `w` lives in bank `w % 32`. Each bank can deliver one word per
//! wavefront. An access of `n` bytes (`n` = 1, 2, 4, 8 or 16, always naturally aligned) touches the
//! `max(1, n / 4)` consecutive words starting at word `a / 4`; 8- and 16-bit accesses touch a single word, so two
//! lanes reading bytes 0 and 1 read the *same* word.
//!
//! **Phases.** The hardware serves a warp instruction in fixed groups of lanes, *phases*, one after another. A
//! phase moves at most 128 bytes (32 words, one per bank) per wavefront:
//!
//! | instruction                    | phases                                   | lanes per phase |
//! |--------------------------------|------------------------------------------|-----------------|
//! | 8/16/32-bit `ld/st.shared`     | the whole warp                           | 32              |
//! | 64-bit                         | two half-warps (0..16, 16..32)            | 16              |
//! | 128-bit                        | four quarter-warps (0..8, 8..16, ...)     | 8               |
//! | `ldmatrix`/`stmatrix` `.xN`    | matrix `i` = lanes `8i..8i+8`, `i < N`    | 8 (16 B each)   |
//!
//! For `ldmatrix`/`stmatrix` only lanes `0..8N` supply (row) addresses; the other lanes' addresses are ignored.
//! `.trans` only changes which register gets which element, not the addresses, so it costs the same.
//!
//! **Wavefronts of a phase.** A phase costs as many wavefronts as the largest number of *distinct* words it
//! touches in any one bank. Lanes touching the same word share it: a read broadcasts it, a write is performed once.
//! So 32 lanes reading one address cost 1 wavefront, and lanes 0 and 16 reading words 0 and 32 (both bank 0)
//! cost 2. The instruction costs the sum over its phases.
//!
//! **Paired loads (measured on H200).** A 64- or 128-bit *load* in which every lane `n` has the same address as
//! lane `n ^ 1` (for all 32 lanes), or as lane `n ^ 2` (for all lanes), carries only half as many distinct
//! addresses, and the hardware serves it with phases twice as wide: the whole warp for 64-bit, half-warps for
//! 128-bit. (A uniform `lds128` therefore costs 2 wavefronts, not 4.) Stores, and loads where the pairing holds in
//! only part of the warp, keep the normal phases. NVIDIA documents the same rule for sm_70 (forum: "Unexpected
//! shared memory bank conflict"); `tests/data/bank_probe_h200.json` holds the measurements.
//!
//! **Ideal and conflicts.** The ideal is one wavefront per phase actually used; `conflicts = wavefronts - ideal`,
//! which is what Nsight Compute reports as shared-memory bank conflicts for that instruction.
//!
//! ```
//! use swizzle_core::bank::{wavefronts, Op};
//! // 32 lanes read a column of a 64-byte-pitch f32 tile: pitch 64 B = 16 banks, so lanes l and l+2 share a bank.
//! let col: [u32; 32] = core::array::from_fn(|l| 64 * l as u32);
//! assert_eq!(wavefronts(Op::LDS32, &col), 16);
//! // Pad each row by one word: every lane in its own bank.
//! let padded: [u32; 32] = core::array::from_fn(|l| 68 * l as u32);
//! assert_eq!(wavefronts(Op::LDS32, &padded), 1);
//! ```

use core::fmt;
use core::str::FromStr;

mod count; // counting one phase exactly and fast: its module doc says how
pub mod map;

use count::{count_phase, count_phase_out_of_line};

/// Number of shared-memory banks.
pub const BANKS: u32 = 32;
/// Width of one bank (one word), in bytes.
pub const BANK_BYTES: u32 = 4;
/// Lanes in a warp.
pub const WARP: usize = 32;
/// The most phases any instruction has (128-bit accesses, `.x4` matrices).
pub const MAX_PHASES: usize = 4;

/// Width of a scalar/vector `ld.shared` / `st.shared`, named by its bits like the ops (`lds8` .. `lds128`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Width {
    /// 1 byte per lane.
    B8,
    /// 2 bytes per lane.
    B16,
    /// 4 bytes per lane (one bank word).
    B32,
    /// 8 bytes per lane (`.v2.b32`).
    B64,
    /// 16 bytes per lane (`.v4.b32`).
    B128,
}

impl Width {
    /// Every width, narrowest first.
    pub const ALL: [Width; 5] = [Width::B8, Width::B16, Width::B32, Width::B64, Width::B128];

    /// Bytes per lane.
    pub const fn bytes(self) -> u32 {
        match self {
            Width::B8 => 1,
            Width::B16 => 2,
            Width::B32 => 4,
            Width::B64 => 8,
            Width::B128 => 16,
        }
    }

    /// The width whose accesses are `bytes` wide, if there is one.
    pub const fn from_bytes(bytes: u32) -> Option<Width> {
        match bytes {
            1 => Some(Width::B8),
            2 => Some(Width::B16),
            4 => Some(Width::B32),
            8 => Some(Width::B64),
            16 => Some(Width::B128),
            _ => None,
        }
    }
}

/// How many 8x8 b16 matrices an `ldmatrix`/`stmatrix` moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mats {
    /// `.x1`: one matrix (lanes 0..8 give the row addresses).
    X1,
    /// `.x2`: two matrices (lanes 0..16).
    X2,
    /// `.x4`: four matrices (all 32 lanes).
    X4,
}

impl Mats {
    /// Number of matrices: 1, 2 or 4.
    pub const fn count(self) -> u32 {
        match self {
            Mats::X1 => 1,
            Mats::X2 => 2,
            Mats::X4 => 4,
        }
    }
}

/// One warp-wide shared-memory instruction. Parses from and prints as the names `lds8` .. `lds128`,
/// `sts8` .. `sts128`, `ldmatrix.x1|x2|x4[.trans]`, `stmatrix.x1|x2|x4[.trans]`.
///
/// ```
/// use swizzle_core::bank::Op;
/// let op: Op = "ldmatrix.x4.trans".parse().unwrap();
/// assert_eq!(op, Op::Ldmatrix { x: swizzle_core::bank::Mats::X4, trans: true });
/// assert_eq!(op.to_string(), "ldmatrix.x4.trans");
/// assert_eq!(Op::LDS128.to_string(), "lds128");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `ld.shared` of one scalar/vector per lane.
    Lds(Width),
    /// `st.shared` of one scalar/vector per lane.
    Sts(Width),
    /// `ldmatrix.sync.aligned.m8n8.xN[.trans].shared.b16`.
    Ldmatrix {
        /// How many matrices.
        x: Mats,
        /// `.trans`.
        trans: bool,
    },
    /// `stmatrix.sync.aligned.m8n8.xN[.trans].shared.b16`.
    Stmatrix {
        /// How many matrices.
        x: Mats,
        /// `.trans`.
        trans: bool,
    },
}

impl Op {
    /// `ld.shared` of 8 bits per lane.
    pub const LDS8: Op = Op::Lds(Width::B8);
    /// `ld.shared` of 16 bits per lane.
    pub const LDS16: Op = Op::Lds(Width::B16);
    /// `ld.shared` of 32 bits per lane.
    pub const LDS32: Op = Op::Lds(Width::B32);
    /// `ld.shared` of 64 bits per lane.
    pub const LDS64: Op = Op::Lds(Width::B64);
    /// `ld.shared` of 128 bits per lane.
    pub const LDS128: Op = Op::Lds(Width::B128);
    /// `st.shared` of 8 bits per lane.
    pub const STS8: Op = Op::Sts(Width::B8);
    /// `st.shared` of 16 bits per lane.
    pub const STS16: Op = Op::Sts(Width::B16);
    /// `st.shared` of 32 bits per lane.
    pub const STS32: Op = Op::Sts(Width::B32);
    /// `st.shared` of 64 bits per lane.
    pub const STS64: Op = Op::Sts(Width::B64);
    /// `st.shared` of 128 bits per lane.
    pub const STS128: Op = Op::Sts(Width::B128);
    /// `ldmatrix.x1`.
    pub const LDMATRIX_X1: Op = Op::ldmatrix(Mats::X1, false);
    /// `ldmatrix.x2`.
    pub const LDMATRIX_X2: Op = Op::ldmatrix(Mats::X2, false);
    /// `ldmatrix.x4`.
    pub const LDMATRIX_X4: Op = Op::ldmatrix(Mats::X4, false);
    /// `ldmatrix.x4.trans`.
    pub const LDMATRIX_X4_TRANS: Op = Op::ldmatrix(Mats::X4, true);
    /// `stmatrix.x1`.
    pub const STMATRIX_X1: Op = Op::stmatrix(Mats::X1, false);
    /// `stmatrix.x2`.
    pub const STMATRIX_X2: Op = Op::stmatrix(Mats::X2, false);
    /// `stmatrix.x4`.
    pub const STMATRIX_X4: Op = Op::stmatrix(Mats::X4, false);
    /// `stmatrix.x4.trans`.
    pub const STMATRIX_X4_TRANS: Op = Op::stmatrix(Mats::X4, true);

    /// Every op the model knows, `.trans` variants included.
    pub const ALL: [Op; 22] = {
        const M: [Mats; 3] = [Mats::X1, Mats::X2, Mats::X4];
        let mut all = [Op::LDS8; 22];
        let mut i = 0;
        while i < 5 {
            all[i] = Op::Lds(Width::ALL[i]);
            all[5 + i] = Op::Sts(Width::ALL[i]);
            i += 1;
        }
        let mut k = 0;
        while k < 3 {
            all[10 + k] = Op::ldmatrix(M[k], false);
            all[13 + k] = Op::ldmatrix(M[k], true);
            all[16 + k] = Op::stmatrix(M[k], false);
            all[19 + k] = Op::stmatrix(M[k], true);
            k += 1;
        }
        all
    };

    /// `ldmatrix.X[.trans]`.
    pub const fn ldmatrix(x: Mats, trans: bool) -> Op {
        Op::Ldmatrix { x, trans }
    }

    /// `stmatrix.X[.trans]`.
    pub const fn stmatrix(x: Mats, trans: bool) -> Op {
        Op::Stmatrix { x, trans }
    }

    /// Bytes each address-supplying lane accesses (16 for a matrix row).
    pub const fn bytes_per_lane(self) -> u32 {
        match self {
            Op::Lds(w) | Op::Sts(w) => w.bytes(),
            Op::Ldmatrix { .. } | Op::Stmatrix { .. } => 16,
        }
    }

    /// Number of 4-byte words one lane's access touches: 1 for 8/16/32-bit, 2 for 64-bit, 4 for 128-bit and rows.
    pub const fn words_per_lane(self) -> u32 {
        let b = self.bytes_per_lane();
        if b <= BANK_BYTES {
            1
        } else {
            b / BANK_BYTES
        }
    }

    /// `log2` of the counting unit in bytes: the access size, at least one 4-byte word (see [`wavefronts`]).
    pub const fn unit_shift(self) -> u32 {
        let b = self.bytes_per_lane();
        (if b < BANK_BYTES { BANK_BYTES } else { b }).trailing_zeros()
    }

    /// Number of bank groups one access can fall in: `32 / words_per_lane` (32, 16 or 8).
    pub const fn groups(self) -> u32 {
        BANKS / self.words_per_lane()
    }

    /// Lanes whose addresses the instruction uses: 32, or `8 * N` for `.xN` matrices.
    pub const fn address_lanes(self) -> u32 {
        match self {
            Op::Lds(_) | Op::Sts(_) => WARP as u32,
            Op::Ldmatrix { x, .. } | Op::Stmatrix { x, .. } => 8 * x.count(),
        }
    }

    /// Lanes per phase before any pairing: 32 / 16 / 8 for scalars up to 32-bit / 64-bit / 128-bit, 8 for matrices.
    pub const fn phase_lanes(self) -> u32 {
        match self {
            Op::Lds(w) | Op::Sts(w) => match w {
                Width::B8 | Width::B16 | Width::B32 => 32,
                Width::B64 => 16,
                Width::B128 => 8,
            },
            Op::Ldmatrix { .. } | Op::Stmatrix { .. } => 8,
        }
    }

    /// True for loads (`lds*`, `ldmatrix`).
    pub const fn is_load(self) -> bool {
        matches!(self, Op::Lds(_) | Op::Ldmatrix { .. })
    }

    /// Required alignment of each address, in bytes.
    pub const fn alignment(self) -> u32 {
        self.bytes_per_lane()
    }

    /// The name, as printed and parsed.
    pub const fn name(self) -> &'static str {
        match self {
            Op::Lds(w) => ["lds8", "lds16", "lds32", "lds64", "lds128"][w as usize],
            Op::Sts(w) => ["sts8", "sts16", "sts32", "sts64", "sts128"][w as usize],
            Op::Ldmatrix { x, trans } => LDMATRIX_NAMES[trans as usize][x as usize],
            Op::Stmatrix { x, trans } => STMATRIX_NAMES[trans as usize][x as usize],
        }
    }

    /// Phase width for these addresses: [`Op::phase_lanes`], doubled for a paired 64/128-bit load (see the module
    /// doc).
    pub const fn phase_lanes_for(self, addrs: &[u32; WARP]) -> u32 {
        let n = self.phase_lanes();
        match self {
            Op::Lds(Width::B64) | Op::Lds(Width::B128) if lanes_paired(addrs) => 2 * n,
            _ => n,
        }
    }
}

/// `ldmatrix` names by `.trans`, then [`Mats`].
const LDMATRIX_NAMES: [[&str; 3]; 2] = [
    ["ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4"],
    [
        "ldmatrix.x1.trans",
        "ldmatrix.x2.trans",
        "ldmatrix.x4.trans",
    ],
];
/// `stmatrix` names by `.trans`, then [`Mats`].
const STMATRIX_NAMES: [[&str; 3]; 2] = [
    ["stmatrix.x1", "stmatrix.x2", "stmatrix.x4"],
    [
        "stmatrix.x1.trans",
        "stmatrix.x2.trans",
        "stmatrix.x4.trans",
    ],
];

/// Every lane has the address of lane `n ^ 1`, or every lane has the address of lane `n ^ 2`.
pub const fn lanes_paired(addrs: &[u32; WARP]) -> bool {
    paired_with(addrs, 1) || paired_with(addrs, 2)
}

const fn paired_with(addrs: &[u32; WARP], xor: usize) -> bool {
    let mut n = 0;
    while n < WARP {
        if addrs[n] != addrs[n ^ xor] {
            return false;
        }
        n += 1;
    }
    true
}

display_by_name!(Op);

/// An op name that is not one of [`Op::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseOpError(pub String);

impl fmt::Display for ParseOpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown op {:?}: expected lds8|lds16|lds32|lds64|lds128, sts8..sts128, \
             ldmatrix.x1|x2|x4[.trans] or stmatrix.x1|x2|x4[.trans]",
            self.0
        )
    }
}

impl std::error::Error for ParseOpError {}

impl FromStr for Op {
    type Err = ParseOpError;

    fn from_str(s: &str) -> Result<Op, ParseOpError> {
        let t = s.trim();
        Op::ALL
            .iter()
            .copied()
            .find(|op| op.name() == t)
            .ok_or_else(|| ParseOpError(s.to_string()))
    }
}

/// Wavefronts one warp instruction costs: the sum over its phases of the largest number of distinct words in one
/// bank. `addrs[i]` is lane `i`'s byte address (for `.xN` matrices only lanes `0..8N` are read).
///
/// `const`, allocation-free; used at compile time by [`crate::verify`].
///
/// ```
/// use swizzle_core::bank::{wavefronts, Op};
/// // ldmatrix.x4 of an unswizzled 64x64 f16 tile: 8 rows of 128 bytes all start in bank 0 -> 8-way, per matrix.
/// let rows: [u32; 32] = core::array::from_fn(|l| (l as u32 % 8) * 128 + (l as u32 / 8) * 16);
/// assert_eq!(wavefronts(Op::LDMATRIX_X4, &rows), 32);
/// ```
pub const fn wavefronts(op: Op, addrs: &[u32; WARP]) -> u32 {
    let lanes = op.address_lanes() as usize;
    let per = op.phase_lanes_for(addrs) as usize;
    let mut total = 0;
    let mut first = 0;
    while first < lanes {
        total += count_phase::<false>(addrs, first, per, op).wavefronts;
        first += per;
    }
    total
}

/// The ideal cost of an instruction: one wavefront per phase it uses.
///
/// ```
/// use swizzle_core::bank::{ideal, Op};
/// assert_eq!(ideal(Op::LDMATRIX_X2, &[0; 32]), 2);
/// assert_eq!(ideal(Op::STS128, &[0; 32]), 4);
/// assert_eq!(ideal(Op::LDS128, &[0; 32]), 2); // paired load: half-warp phases
/// ```
pub const fn ideal(op: Op, addrs: &[u32; WARP]) -> u32 {
    op.address_lanes().div_ceil(op.phase_lanes_for(addrs))
}

/// One phase of a [`Report`]: which lanes it serves, what it costs, and where it collides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Phase {
    /// First lane of the phase.
    pub first_lane: u32,
    /// Lanes in the phase.
    pub lanes: u32,
    /// Wavefronts this phase costs (1 if conflict-free).
    pub wavefronts: u32,
    /// A bank holding the most distinct words (for 64/128-bit accesses and matrix rows, the first bank of the
    /// 2- or 4-bank group such an access covers).
    pub worst_bank: u32,
    /// Bit `l` set: lane `l` touches `worst_bank` in this phase. These are the colliding lanes when
    /// `wavefronts > 1` (lanes sharing a word are included: they broadcast).
    pub lanes_in_worst_bank: u32,
}

impl Phase {
    /// The lanes touching the worst bank, in order.
    pub fn colliding_lanes(&self) -> impl Iterator<Item = u32> + '_ {
        (0..32).filter(move |l| self.lanes_in_worst_bank >> l & 1 == 1)
    }
}

/// What one warp instruction costs, and why. Built by [`report`] (a `const fn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Report {
    /// The instruction.
    pub op: Op,
    /// The addresses analysed (byte addresses, lane order).
    pub addrs: [u32; WARP],
    /// Wavefronts (shared-memory cycles) the instruction costs.
    pub wavefronts: u32,
    /// One wavefront per phase.
    pub ideal: u32,
    /// `n_phases` used entries of `phases`.
    pub n_phases: u32,
    /// Each phase's cost and worst bank.
    pub phases: [Phase; MAX_PHASES],
    /// True when the paired-load rule widened the phases.
    pub paired: bool,
}

impl Report {
    /// `wavefronts - ideal`: what Nsight Compute counts as bank conflicts.
    pub const fn conflicts(&self) -> u32 {
        self.wavefronts - self.ideal
    }

    /// The phases used.
    pub fn phases(&self) -> &[Phase] {
        &self.phases[..self.n_phases as usize]
    }

    /// The first phase with the most wavefronts.
    pub const fn worst_phase(&self) -> Phase {
        let mut best = self.phases[0];
        let mut i = 1;
        while i < self.n_phases as usize {
            if self.phases[i].wavefronts > best.wavefronts {
                best = self.phases[i];
            }
            i += 1;
        }
        best
    }
}

/// The full per-instruction report: wavefronts, ideal, and per phase the worst bank and the lanes touching it.
///
/// ```
/// use swizzle_core::bank::{report, Op};
/// let col: [u32; 32] = core::array::from_fn(|l| 128 * l as u32); // every lane in bank 0
/// let r = report(Op::LDS32, &col);
/// assert_eq!((r.wavefronts, r.ideal, r.conflicts()), (32, 1, 31));
/// assert_eq!(r.phases()[0].worst_bank, 0);
/// assert_eq!(r.phases()[0].lanes_in_worst_bank, u32::MAX);
/// ```
pub const fn report(op: Op, addrs: &[u32; WARP]) -> Report {
    let lanes = op.address_lanes();
    let per = op.phase_lanes_for(addrs);
    let empty = Phase {
        first_lane: 0,
        lanes: 0,
        wavefronts: 0,
        worst_bank: 0,
        lanes_in_worst_bank: 0,
    };
    let mut phases = [empty; MAX_PHASES];
    let mut n = 0;
    let mut total = 0;
    while n * per < lanes {
        let first = n * per;
        let c = count_phase_out_of_line(addrs, first as usize, per as usize, op);
        // Lanes whose access falls in the worst bank's group (see `count`).
        let (shift, group_mask) = (op.unit_shift(), op.groups() - 1);
        let worst_group = c.worst_bank / op.words_per_lane();
        let mut mask = 0u32;
        let mut l = first;
        while l < first + per {
            if (addrs[l as usize] >> shift) & group_mask == worst_group {
                mask |= 1 << l;
            }
            l += 1;
        }
        phases[n as usize] = Phase {
            first_lane: first,
            lanes: per,
            wavefronts: c.wavefronts,
            worst_bank: c.worst_bank,
            lanes_in_worst_bank: mask,
        };
        total += c.wavefronts;
        n += 1;
    }
    Report {
        op,
        addrs: *addrs,
        wavefronts: total,
        ideal: n,
        n_phases: n,
        phases,
        paired: per != op.phase_lanes(),
    }
}

/// Bank of a byte address.
pub const fn bank_of(addr: u32) -> u32 {
    (addr / BANK_BYTES) % BANKS
}

/// Why a set of addresses cannot be issued as `op`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AccessError {
    /// Lane `lane`'s address is not a multiple of the access size.
    Misaligned {
        /// The instruction.
        op: Op,
        /// The lane.
        lane: u32,
        /// Its byte address.
        addr: u32,
    },
    /// Not 32 addresses.
    Count {
        /// How many addresses were given.
        got: usize,
    },
}

impl fmt::Display for AccessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccessError::Misaligned { op, lane, addr } => {
                write!(
                    f,
                    "lane {lane}: address {addr} is not {}-byte aligned, as {op} requires",
                    op.alignment()
                )
            }
            AccessError::Count { got } => {
                write!(f, "expected 32 addresses (one per lane), got {got}")
            }
        }
    }
}

impl std::error::Error for AccessError {}

/// Check run-time input: 32 addresses, each aligned for `op` (ignored lanes of `.x1/.x2` matrices included).
pub fn check_addrs(op: Op, addrs: &[u32]) -> Result<[u32; WARP], AccessError> {
    let a: [u32; WARP] = addrs
        .try_into()
        .map_err(|_| AccessError::Count { got: addrs.len() })?;
    for l in 0..op.address_lanes() {
        if !a[l as usize].is_multiple_of(op.alignment()) {
            return Err(AccessError::Misaligned {
                op,
                lane: l,
                addr: a[l as usize],
            });
        }
    }
    Ok(a)
}

impl fmt::Display for Report {
    /// Several lines: the totals, then one line per phase; a conflicting phase names its worst bank and lanes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} wavefront{} (ideal {}, {} bank conflict{}){}",
            self.op,
            self.wavefronts,
            if self.wavefronts == 1 { "" } else { "s" },
            self.ideal,
            self.conflicts(),
            if self.conflicts() == 1 { "" } else { "s" },
            if self.paired {
                "; lane pairs share addresses, phases doubled"
            } else {
                ""
            }
        )?;
        for p in self.phases() {
            write!(
                f,
                "  phase lanes {:>2}..{:<2}: {} wavefront{}",
                p.first_lane,
                p.first_lane + p.lanes,
                p.wavefronts,
                if p.wavefronts == 1 { "" } else { "s" }
            )?;
            if p.wavefronts > 1 {
                write!(
                    f,
                    ", bank {} gets {} distinct words from lanes",
                    p.worst_bank, p.wavefronts
                )?;
                for l in p.colliding_lanes() {
                    write!(f, " {l}@{}", self.addrs[l as usize])?;
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for op in Op::ALL {
            assert_eq!(op.name().parse::<Op>(), Ok(op));
        }
        assert!("lds24".parse::<Op>().is_err());
    }

    #[test]
    fn wavefronts_in_const() {
        const COL: [u32; 32] = {
            let mut a = [0; 32];
            let mut l = 0;
            while l < 32 {
                a[l] = 128 * l as u32;
                l += 1;
            }
            a
        };
        const W: u32 = wavefronts(Op::LDS32, &COL);
        assert_eq!(W, 32);
    }

    #[test]
    fn report_names_colliding_lanes() {
        let a: [u32; 32] = core::array::from_fn(|l| 64 * l as u32); // pitch 64: lanes l, l+2, ... share banks
        let r = report(Op::LDS32, &a);
        assert_eq!((r.wavefronts, r.ideal, r.conflicts()), (16, 1, 15));
        let p = r.phases()[0];
        assert_eq!(p.worst_bank, 0);
        assert_eq!(
            p.colliding_lanes().collect::<Vec<_>>(),
            (0..32).step_by(2).collect::<Vec<_>>()
        );
        let text = r.to_string();
        assert!(
            text.contains("bank 0 gets 16 distinct words from lanes 0@0 2@128"),
            "{text}"
        );
    }

    #[test]
    fn paired_loads_use_wider_phases() {
        let uniform = [0u32; 32];
        assert_eq!(wavefronts(Op::LDS128, &uniform), 2);
        assert_eq!(wavefronts(Op::STS128, &uniform), 4);
        assert_eq!(wavefronts(Op::LDS64, &uniform), 1);
        assert_eq!(wavefronts(Op::STS64, &uniform), 2);
        assert_eq!(report(Op::LDS64, &uniform).ideal, 1);
        assert!(report(Op::LDS64, &uniform).paired);
    }

    #[test]
    fn check_addrs_rejects_misaligned_and_short() {
        let mut a = [0u32; 32];
        a[3] = 8;
        assert!(check_addrs(Op::LDS128, &a).is_err());
        assert!(check_addrs(Op::LDS64, &a).is_ok());
        let mut b = [0u32; 32];
        b[20] = 8; // lane 20 supplies no address to ldmatrix.x2
        assert!(check_addrs(Op::LDMATRIX_X2, &b).is_ok());
        assert!(check_addrs(Op::LDMATRIX_X4, &b).is_err());
        assert_eq!(
            check_addrs(Op::LDS32, &a[..5]),
            Err(AccessError::Count { got: 5 })
        );
    }
}
