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

pub mod map;

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
    B8,
    B16,
    B32,
    B64,
    B128,
}

impl Width {
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
    X1,
    X2,
    X4,
}

impl Mats {
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
    Ldmatrix { x: Mats, trans: bool },
    /// `stmatrix.sync.aligned.m8n8.xN[.trans].shared.b16`.
    Stmatrix { x: Mats, trans: bool },
}

impl Op {
    pub const LDS8: Op = Op::Lds(Width::B8);
    pub const LDS16: Op = Op::Lds(Width::B16);
    pub const LDS32: Op = Op::Lds(Width::B32);
    pub const LDS64: Op = Op::Lds(Width::B64);
    pub const LDS128: Op = Op::Lds(Width::B128);
    pub const STS8: Op = Op::Sts(Width::B8);
    pub const STS16: Op = Op::Sts(Width::B16);
    pub const STS32: Op = Op::Sts(Width::B32);
    pub const STS64: Op = Op::Sts(Width::B64);
    pub const STS128: Op = Op::Sts(Width::B128);
    pub const LDMATRIX_X1: Op = Op::Ldmatrix {
        x: Mats::X1,
        trans: false,
    };
    pub const LDMATRIX_X2: Op = Op::Ldmatrix {
        x: Mats::X2,
        trans: false,
    };
    pub const LDMATRIX_X4: Op = Op::Ldmatrix {
        x: Mats::X4,
        trans: false,
    };
    pub const LDMATRIX_X4_TRANS: Op = Op::Ldmatrix {
        x: Mats::X4,
        trans: true,
    };
    pub const STMATRIX_X1: Op = Op::Stmatrix {
        x: Mats::X1,
        trans: false,
    };
    pub const STMATRIX_X2: Op = Op::Stmatrix {
        x: Mats::X2,
        trans: false,
    };
    pub const STMATRIX_X4: Op = Op::Stmatrix {
        x: Mats::X4,
        trans: false,
    };
    pub const STMATRIX_X4_TRANS: Op = Op::Stmatrix {
        x: Mats::X4,
        trans: true,
    };

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
            all[10 + k] = Op::Ldmatrix {
                x: M[k],
                trans: false,
            };
            all[13 + k] = Op::Ldmatrix {
                x: M[k],
                trans: true,
            };
            all[16 + k] = Op::Stmatrix {
                x: M[k],
                trans: false,
            };
            all[19 + k] = Op::Stmatrix {
                x: M[k],
                trans: true,
            };
            k += 1;
        }
        all
    };

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
            Op::Ldmatrix { x, trans: false } => {
                ["ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4"][x as usize]
            }
            Op::Ldmatrix { x, trans: true } => [
                "ldmatrix.x1.trans",
                "ldmatrix.x2.trans",
                "ldmatrix.x4.trans",
            ][x as usize],
            Op::Stmatrix { x, trans: false } => {
                ["stmatrix.x1", "stmatrix.x2", "stmatrix.x4"][x as usize]
            }
            Op::Stmatrix { x, trans: true } => [
                "stmatrix.x1.trans",
                "stmatrix.x2.trans",
                "stmatrix.x4.trans",
            ][x as usize],
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

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

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

/// Result of counting one phase: its wavefronts and a bank that needed that many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PhaseCount {
    wavefronts: u32,
    worst_bank: u32,
}

/// Wavefronts of one phase, lanes `first..first + lanes`; with `WORST`, also the worst bank (otherwise 0).
///
/// **Units.** Accesses are naturally aligned, so a lane's `n`-byte access (`n >= 4`) covers exactly the `n / 4`
/// banks of one aligned *bank group*, and two accesses share banks only if they share the group. So we count in
/// units of the access size: unit `u = addr >> log2(max(n, 4))`, group `u % (32 / words)`; distinct words per bank
/// is distinct units per group. (For 8/16-bit accesses the unit is the 4-byte word and the group the bank.)
///
/// **Counting.** A phase costs the largest number of distinct units in one group: each wavefront, every group
/// serves one of its units to every lane that touches it (the broadcast). The worst bank is the group whose count
/// reaches that maximum first, scanning the lanes in order. How it is computed (every step exact; no step compares
/// lane pairs except the last resort):
/// 1. every lane in a different group (the usual conflict-free case): 1 wavefront, one pass over a group mask;
///    all lanes on one unit (a broadcast): 1 wavefront;
/// 2. `diff`, the OR over the lanes of `u ^ u0` (`u0` the first lane's unit), names the bits in which units
///    differ. If they fit in a 6-bit window, or are at most 7 bits in at most two runs (column reads, matrix rows,
///    2-D blocks), packing those bits gives every lane a small key that identifies its unit and whose low bits
///    identify its group, and one 64- or 128-bit mask, with a field per group, counts the distinct units of every
///    group at once ([`count_narrow`]);
/// 3. otherwise each lane becomes a one-hot group bit, zeroed for a lane whose unit an earlier lane already
///    touched, and a bit-sliced (carry-save) adder sums the one-hots into per-group counts whose maximum is read
///    off bit plane by bit plane ([`count_general`]). Repeats are found with a 64-bit mask of offsets
///    `(u ^ u0) >> z` when those are below 64, or ruled out when a 64-bit mask of folded offsets has as many bits as
///    lanes; if neither decides, each lane is compared with the earlier ones (quadratic, rare).
#[inline(always)]
const fn count_phase<const WORST: bool>(
    addrs: &[u32; WARP],
    first: usize,
    lanes: usize,
    op: Op,
) -> PhaseCount {
    let shift = op.unit_shift();
    // `& 31` on every index: always true here, and it lets the compiler drop the bounds checks.
    let group_mask = (op.groups() - 1) & 31;
    // Fast path: every lane in its own group (the usual conflict-free case) costs one wavefront.
    let groups_hit = match shift {
        2 => groups_hit::<2>(addrs, first, lanes, group_mask),
        3 => groups_hit::<3>(addrs, first, lanes, group_mask),
        _ => groups_hit::<4>(addrs, first, lanes, group_mask),
    };
    let all_distinct = if lanes == op.groups() as usize {
        groups_hit == u32::MAX >> (32 - lanes) // cheaper than a popcount without `popcnt`
    } else {
        groups_hit.count_ones() as usize == lanes
    };
    if all_distinct {
        return PhaseCount {
            wavefronts: 1,
            worst_bank: ((addrs[first & 31] >> shift) & group_mask) * op.words_per_lane(),
        };
    }
    // Constant shift and lane count: the loops unroll and vectorize.
    let c = match (shift, lanes) {
        (2, _) => count_rest::<2, 32, WORST>(addrs, first),
        (3, 16) => count_rest::<3, 16, WORST>(addrs, first),
        (3, _) => count_rest::<3, 32, WORST>(addrs, first),
        (_, 8) => count_rest::<4, 8, WORST>(addrs, first),
        _ => count_rest::<4, 16, WORST>(addrs, first),
    };
    PhaseCount {
        wavefronts: c.wavefronts,
        worst_bank: c.worst_bank * op.words_per_lane(),
    }
}

/// Steps 2 and 3 of [`count_phase`] for a phase of `LANES` lanes; `worst_bank` is a group here.
#[inline(never)]
const fn count_rest<const SHIFT: u32, const LANES: usize, const WORST: bool>(
    addrs: &[u32; WARP],
    first: usize,
) -> PhaseCount {
    let gbits = 7 - SHIFT; // 32, 16 or 8 groups
                           // The bits in which some unit differs from the first lane's.
    let u0 = addrs[first & 31] >> SHIFT;
    let mut diff = 0u32;
    let mut i = 0;
    while i < LANES {
        diff |= (addrs[(first + i) & 31] >> SHIFT) ^ u0;
        i += 1;
    }
    if diff == 0 {
        // One unit (a broadcast).
        return PhaseCount {
            wavefronts: 1,
            worst_bank: u0 & ((1 << gbits) - 1),
        };
    }
    let z = diff.trailing_zeros();
    if diff >> z < 64 {
        // The differing bits lie in one 6-bit window: the key is that window.
        let runs = Runs {
            shift0: z,
            mask0: 63,
            shift1: 0,
            mask1: 0,
            len0: 6,
            bits: 6,
        };
        let t = gbits.saturating_sub(z);
        return count_narrow::<SHIFT, LANES, WORST, false>(addrs, first, runs, t);
    }
    match Runs::of(diff) {
        Some(runs) => {
            let t = (diff & ((1 << gbits) - 1)).count_ones();
            if runs.bits <= 6 {
                count_narrow::<SHIFT, LANES, WORST, true>(addrs, first, runs, t)
            } else {
                count_narrow128::<SHIFT, LANES, WORST>(addrs, first, runs, t)
            }
        }
        None => count_general::<SHIFT, LANES, WORST>(addrs, first, (1 << gbits) - 1),
    }
}

/// `FIELD_LSB[k]`: bit 0 of every `2^k`-bit field of a 128-bit word (k = 1..=6).
const FIELD_LSB: [u128; 7] = {
    let mut t = [0u128; 7];
    let mut k = 1;
    while k < 7 {
        t[k] = u128::MAX / ((1u128 << (1 << k)) - 1);
        k += 1;
    }
    t
};

/// `FIELD_LOW[k]`: the low `2^k` bits of every `2^(k+1)`-bit field of a 128-bit word (k = 1..=6).
const FIELD_LOW: [u128; 7] = {
    let mut t = [0u128; 7];
    let mut k = 1;
    while k < 7 {
        t[k] = if k == 6 {
            u64::MAX as u128
        } else {
            FIELD_LSB[k + 1] * ((1u128 << (1 << k)) - 1)
        };
        k += 1;
    }
    t
};

/// Step 2 of [`count_phase`] when the units differ from the first lane's unit `u0` in at most 7 bits, forming at
/// most two runs (`diff` = the OR of `u ^ u0` over the lanes). Extracting those bits from `u ^ u0`, in order, gives
/// a key of `k = popcount(diff)` bits that determines the unit, whose low `t = popcount(diff & group_mask)` bits
/// determine the group. One `2^k`-bit mask with bit `(key % 2^t) * 2^(k - t) + key / 2^t` set for every lane then
/// holds each group's distinct units in its own field of `2^(k - t)` bits: a SWAR popcount per field and a SWAR
/// maximum over the fields give the wavefronts. With `WORST`, a second pass in lane order finds the group that
/// reaches that maximum first.
const fn count_narrow<
    const SHIFT: u32,
    const LANES: usize,
    const WORST: bool,
    const RUNS2: bool,
>(
    addrs: &[u32; WARP],
    first: usize,
    runs: Runs,
    t: u32,
) -> PhaseCount {
    let w = runs.bits - t; // log2 of the field width
    let u0 = addrs[first & 31] >> SHIFT;
    let low = (1u32 << t) - 1;
    let mut keys = 0u64;
    let mut i = 0;
    while i < LANES {
        let key = runs.key::<RUNS2>((addrs[(first + i) & 31] >> SHIFT) ^ u0);
        keys |= 1 << ((((key & low) << w) | (key >> t)) & 63);
        i += 1;
    }
    let wavefronts = max_field_count64(keys, w);
    let mut worst_bank = 0;
    if WORST {
        worst_bank = first_to_reach::<SHIFT, LANES, RUNS2>(addrs, first, runs, t, wavefronts);
    }
    PhaseCount {
        wavefronts,
        worst_bank,
    }
}

/// [`count_narrow`] for keys of 7 bits, with a 128-bit mask.
const fn count_narrow128<const SHIFT: u32, const LANES: usize, const WORST: bool>(
    addrs: &[u32; WARP],
    first: usize,
    runs: Runs,
    t: u32,
) -> PhaseCount {
    let w = runs.bits - t;
    let u0 = addrs[first & 31] >> SHIFT;
    let low = (1u32 << t) - 1;
    let mut keys = 0u128;
    let mut i = 0;
    while i < LANES {
        let key = runs.key::<true>((addrs[(first + i) & 31] >> SHIFT) ^ u0);
        keys |= 1 << ((((key & low) << w) | (key >> t)) & 127);
        i += 1;
    }
    let wavefronts = max_field_count128(keys, w);
    let mut worst_bank = 0;
    if WORST {
        worst_bank = first_to_reach::<SHIFT, LANES, true>(addrs, first, runs, t, wavefronts);
    }
    PhaseCount {
        wavefronts,
        worst_bank,
    }
}

/// The group (of [`count_narrow`]'s phase) that first reaches `max` distinct units, scanning lanes in order.
const fn first_to_reach<const SHIFT: u32, const LANES: usize, const RUNS2: bool>(
    addrs: &[u32; WARP],
    first: usize,
    runs: Runs,
    t: u32,
    max: u32,
) -> u32 {
    let group_mask = (BANKS >> (SHIFT - 2)) - 1;
    let u0 = addrs[first & 31] >> SHIFT;
    let mut seen = 0u128;
    let mut count = [0u32; BANKS as usize];
    let mut i = 0;
    while i < LANES {
        let u = addrs[(first + i) & 31] >> SHIFT;
        let key = runs.key::<RUNS2>(u ^ u0);
        let bit = 1u128 << (key & 127);
        if seen & bit == 0 {
            seen |= bit;
            let c = (key & ((1 << t) - 1) & 31) as usize;
            count[c] += 1;
            if count[c] == max {
                return u & group_mask;
            }
        }
        i += 1;
    }
    0
}

/// The bits of `diff` as at most two runs: `key(x)` packs `x`'s bits at those positions, in order.
#[derive(Clone, Copy)]
struct Runs {
    shift0: u32,
    mask0: u32,
    shift1: u32,
    mask1: u32,
    len0: u32,
    /// Bits in all: `popcount(diff)`.
    bits: u32,
}

impl Runs {
    /// `None` when `diff` (not 0) has more than 7 bits or more than two runs.
    const fn of(diff: u32) -> Option<Runs> {
        let bits = diff.count_ones();
        if bits > 7 {
            return None;
        }
        let shift0 = diff.trailing_zeros();
        let len0 = (!(diff >> shift0)).trailing_zeros(); // at most 7
        let mask0 = (1 << len0) - 1;
        let rest = diff & !(mask0 << shift0);
        if rest == 0 {
            return Some(Runs {
                shift0,
                mask0,
                shift1: 0,
                mask1: 0,
                len0,
                bits,
            });
        }
        let shift1 = rest.trailing_zeros();
        let mask1 = (1 << (bits - len0)) - 1;
        if rest != mask1 << shift1 {
            return None;
        }
        Some(Runs {
            shift0,
            mask0,
            shift1,
            mask1,
            len0,
            bits,
        })
    }

    /// (`RUNS2` false: only the first run, skipping the second's arithmetic.)
    const fn key<const RUNS2: bool>(self, x: u32) -> u32 {
        let k = (x >> (self.shift0 & 31)) & self.mask0;
        if RUNS2 {
            k | (((x >> (self.shift1 & 31)) & self.mask1) << (self.len0 & 31))
        } else {
            k
        }
    }
}

/// `keys` holds fields of `2^w` bits (`w` <= 6); the largest number of set bits in one field.
const fn max_field_count64(keys: u64, w: u32) -> u32 {
    if w == 0 {
        return 1; // one bit per field
    }
    let mut x = keys - ((keys >> 1) & (FIELD_LSB[1] as u64));
    if w == 1 {
        // 2-bit fields: a count of 2 sets the high bit of its field.
        return if x & ((FIELD_LSB[1] as u64) << 1) != 0 {
            2
        } else {
            1
        };
    }
    // Popcount of every field.
    let mut f = 1;
    while f < w {
        let m = FIELD_LOW[f as usize % 7] as u64; // low half of every double field
        x = (x & m) + ((x >> (1 << f)) & m);
        f += 1;
    }
    if w >= 6 {
        return x as u32;
    }
    // Maximum over the fields (each count is below half its field's range, so the top bit is free).
    let width = 1u32 << w;
    let mut size = 64;
    while size > width {
        size /= 2;
        let a = x & (u64::MAX >> (64 - size));
        let b = x >> size;
        x = field_max64(a, b, w);
    }
    x as u32
}

/// `keys` holds fields of `2^w` bits (`w` <= 7); the largest number of set bits in one field.
const fn max_field_count128(keys: u128, w: u32) -> u32 {
    if w == 0 {
        return 1; // one bit per field
    }
    let mut x = keys - ((keys >> 1) & FIELD_LSB[1]);
    if w == 1 {
        // 2-bit fields: a count of 2 sets the high bit of its field.
        return if x & (FIELD_LSB[1] << 1) != 0 { 2 } else { 1 };
    }
    // Popcount of every field.
    let mut f = 1;
    while f < w {
        let m = FIELD_LOW[f as usize % 7]; // low half of every double field
        x = (x & m) + ((x >> (1 << f)) & m);
        f += 1;
    }
    if w >= 7 {
        return x as u32;
    }
    // Maximum over the fields (each count is below half its field's range, so the top bit is free).
    let width = 1u32 << w;
    let mut size = if keys >> 64 == 0 { 64 } else { 128 };
    while size > width {
        size /= 2;
        let a = x & (u128::MAX >> (128 - size));
        let b = x >> size;
        x = field_max(a, b, w);
    }
    x as u32
}

/// Field-wise maximum of `a` and `b`, fields of `2^k` bits (k = 2..=5) whose values are below half their range.
const fn field_max64(a: u64, b: u64, k: u32) -> u64 {
    let top = (FIELD_LSB[k as usize % 7] as u64) << ((1 << k) - 1); // top bit of every field
    let ge = ((a | top) - b) & top; // top bit set where a >= b
    let m = (ge >> ((1 << k) - 1)) * ((1u64 << (1 << k)) - 1);
    (a & m) | (b & !m)
}

/// [`field_max64`] on 128-bit words (k = 2..=6).
const fn field_max(a: u128, b: u128, k: u32) -> u128 {
    let top = FIELD_LSB[k as usize % 7] << ((1 << k) - 1); // top bit of every field
    let ge = ((a | top) - b) & top; // top bit set where a >= b
    let m = (ge >> ((1 << k) - 1)) * ((1u128 << (1 << k)) - 1);
    (a & m) | (b & !m)
}

/// [`count_phase`] with the worst bank, not inlined (it keeps [`report`]'s loop small).
#[inline(never)]
const fn count_phase_out_of_line(
    addrs: &[u32; WARP],
    first: usize,
    lanes: usize,
    op: Op,
) -> PhaseCount {
    count_phase::<true>(addrs, first, lanes, op)
}

/// Step 3 of [`count_phase`] (`SHIFT` = [`Op::unit_shift`]); `worst_bank` is a group here. Kept out of line so
/// that the faster steps stay small.
#[inline(never)]
const fn count_general<const SHIFT: u32, const LANES: usize, const WORST: bool>(
    addrs: &[u32; WARP],
    first: usize,
    group_mask: u32,
) -> PhaseCount {
    let lanes = LANES;
    let mut units = [0u32; WARP];
    let u0 = addrs[first & 31] >> SHIFT;
    let mut diff = 0u32;
    let mut i = 0;
    while i < lanes {
        let u = addrs[(first + i) & 31] >> SHIFT;
        units[i & 31] = u;
        diff |= u ^ u0;
        i += 1;
    }
    // Offsets `(u ^ u0) >> z`: injective in `u`, and each is at most `span` (their OR).
    let z = if diff == 0 {
        0
    } else {
        diff.trailing_zeros() & 31
    };
    let span = diff >> z;
    // One-hot group of every lane that is the first to touch its unit.
    let mut ones = [0u32; WARP];
    let mut i = 0;
    while i < lanes {
        ones[i & 31] = 1 << (units[i & 31] & group_mask & 31);
        i += 1;
    }
    let mut keys = 0u64;
    let mut i = 0;
    if span < 64 {
        while i < lanes {
            keys |= 1 << (((units[i & 31] ^ u0) >> z) & 63);
            i += 1;
        }
    } else {
        while i < lanes {
            let v = (units[i & 31] ^ u0) >> z;
            keys |= 1 << ((v ^ (v >> 6) ^ (v >> 12) ^ (v >> 18) ^ (v >> 24) ^ (v >> 30)) & 63);
            i += 1;
        }
    }
    // As many distinct keys as lanes: no unit repeats, every lane counts.
    if keys.count_ones() as usize != lanes {
        if span >= 64 {
            return count_quadratic::<WORST>(&units, lanes, group_mask);
        }
        let mut seen = 0u64;
        let mut i = 0;
        while i < lanes {
            let bit = 1u64 << (((units[i & 31] ^ u0) >> z) & 63);
            if seen & bit != 0 {
                ones[i & 31] = 0;
            }
            seen |= bit;
            i += 1;
        }
    }
    let (wavefronts, candidates) = max_count(&ones, lanes);
    let worst_bank = if !WORST {
        0
    } else if candidates.is_power_of_two() {
        candidates.trailing_zeros()
    } else {
        // Several groups reach the maximum: the first to get there, in lane order.
        let mut count = [0u32; BANKS as usize];
        let mut worst = 0;
        let mut i = 0;
        while i < lanes {
            let o = ones[i & 31];
            if o != 0 {
                let g = (o.trailing_zeros() & 31) as usize;
                count[g] += 1;
                if count[g] == wavefronts {
                    worst = g as u32;
                    break;
                }
            }
            i += 1;
        }
        worst
    };
    PhaseCount {
        wavefronts,
        worst_bank,
    }
}

/// Full adder on 32 bit positions at once: `(sum, carry)` of `a + b + c`.
const fn csa(a: u32, b: u32, c: u32) -> (u32, u32) {
    let u = a ^ b;
    (u ^ c, (a & b) | (u & c))
}

/// For one-hot (or zero) group bits `ones[..lanes]` (`lanes` a multiple of 8): the largest number of set bits at
/// one position, and the mask of positions that have it. The counts are kept bit-sliced (plane `k` holds bit `k`
/// of every position's count) and summed eight inputs at a time with carry-save adders; the maximum is then read
/// from the top plane down.
const fn max_count(ones: &[u32; WARP], lanes: usize) -> (u32, u32) {
    let (mut p1, mut p2, mut p4, mut p8, mut p16, mut p32) = (0u32, 0u32, 0u32, 0u32, 0u32, 0u32);
    let x = ones;
    let mut c = 0;
    while c < lanes {
        let (s, ta) = csa(p1, x[c & 31], x[(c + 1) & 31]);
        let (s, tb) = csa(s, x[(c + 2) & 31], x[(c + 3) & 31]);
        let (t, fa) = csa(p2, ta, tb);
        let (s, ta) = csa(s, x[(c + 4) & 31], x[(c + 5) & 31]);
        let (s, tb) = csa(s, x[(c + 6) & 31], x[(c + 7) & 31]);
        let (t, fb) = csa(t, ta, tb);
        let (f, e) = csa(p4, fa, fb);
        (p1, p2, p4) = (s, t, f);
        let c8 = p8 & e;
        p8 ^= e;
        let c16 = p16 & c8;
        p16 ^= c8;
        p32 |= c16;
        c += 8;
    }
    let planes = [p1, p2, p4, p8, p16, p32];
    let (mut max, mut at) = (0, u32::MAX);
    let mut k = planes.len();
    while k > 0 {
        k -= 1;
        let t = at & planes[k];
        if t != 0 {
            at = t;
            max |= 1 << k;
        }
    }
    (max, at)
}

/// Last resort of [`count_phase`]: per group, the units no earlier lane touched, compared lane against lane.
const fn count_quadratic<const WORST: bool>(
    units: &[u32; WARP],
    lanes: usize,
    group_mask: u32,
) -> PhaseCount {
    let mut count = [0u32; BANKS as usize];
    let (mut worst, mut worst_group) = (0, 0);
    let mut j = 0;
    while j < lanes {
        let u = units[j & 31];
        let mut seen = false;
        let mut i = 0;
        while i < j {
            seen |= units[i & 31] == u;
            i += 1;
        }
        if !seen {
            let g = (u & group_mask & 31) as usize;
            count[g] += 1;
            if count[g] > worst {
                (worst, worst_group) = (count[g], g as u32);
            }
        }
        j += 1;
    }
    PhaseCount {
        wavefronts: worst,
        worst_bank: if WORST { worst_group } else { 0 },
    }
}

/// Bit `g` set: some lane of the phase falls in group `g` (`SHIFT` = [`Op::unit_shift`], a constant so the
/// loop compiles to shifts by immediates).
const fn groups_hit<const SHIFT: u32>(
    addrs: &[u32; WARP],
    first: usize,
    lanes: usize,
    group_mask: u32,
) -> u32 {
    let mut hit = 0u32;
    let mut i = 0;
    while i < lanes {
        hit |= 1 << ((addrs[(first + i) & 31] >> SHIFT) & group_mask & 31);
        i += 1;
    }
    hit
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
    pub op: Op,
    /// The addresses analysed (byte addresses, lane order).
    pub addrs: [u32; WARP],
    pub wavefronts: u32,
    /// One wavefront per phase.
    pub ideal: u32,
    /// `n_phases` used entries of `phases`.
    pub n_phases: u32,
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
        // Lanes whose access falls in the worst bank's group (see `count_phase`).
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
pub enum AccessError {
    /// Lane `lane`'s address is not a multiple of the access size.
    Misaligned { op: Op, lane: u32, addr: u32 },
    /// Not 32 addresses.
    Count { got: usize },
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
            "{}: {} wavefronts (ideal {}, {} bank conflicts){}",
            self.op,
            self.wavefronts,
            self.ideal,
            self.conflicts(),
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

    /// The model written the slow, obvious way: sets of words per bank per phase.
    fn reference(op: Op, a: &[u32; WARP]) -> u32 {
        let per = op.phase_lanes_for(a) as usize;
        let mut total = 0;
        for first in (0..op.address_lanes() as usize).step_by(per) {
            let mut banks: Vec<std::collections::BTreeSet<u32>> = vec![Default::default(); 32];
            for &addr in &a[first..first + per] {
                for k in 0..op.words_per_lane() {
                    let w = addr / 4 + k;
                    banks[(w % 32) as usize].insert(w);
                }
            }
            total += banks.iter().map(|s| s.len() as u32).max().unwrap();
        }
        total
    }

    /// Per phase, `(wavefronts, worst_bank)` computed plainly and independently of the model's code: the phase
    /// widths from the table in the module doc (the pairing rule checked lane by lane), then for each lane in order
    /// the words it touches go into a set per bank; the worst bank is the first bank whose set reaches the final
    /// maximum size.
    fn reference_phases(op: Op, a: &[u32; WARP]) -> Vec<(u32, u32)> {
        let (bytes, lanes, mut per) = match op {
            Op::Lds(w) | Op::Sts(w) => (w.bytes(), 32, [32, 32, 32, 16, 8][w as usize]),
            Op::Ldmatrix { x, .. } | Op::Stmatrix { x, .. } => (16, 8 * x.count() as usize, 8),
        };
        let pairs = |x: usize| (0..32).all(|n| a[n] == a[n ^ x]);
        if matches!(op, Op::Lds(Width::B64 | Width::B128)) && (pairs(1) || pairs(2)) {
            per *= 2;
        }
        let words = (bytes / 4).max(1);
        let mut out = Vec::new();
        for first in (0..lanes).step_by(per) {
            let mut sets: Vec<std::collections::BTreeSet<u32>> = vec![Default::default(); 32];
            let (mut best, mut best_bank) = (0, 0);
            for &addr in &a[first..first + per] {
                for k in 0..words {
                    let w = addr / 4 + k;
                    let b = (w % 32) as usize;
                    sets[b].insert(w);
                    if sets[b].len() > best {
                        (best, best_bank) = (sets[b].len(), b as u32);
                    }
                }
            }
            out.push((best as u32, best_bank));
        }
        out
    }

    /// Random aligned addresses for `op`, from a family picked by `kind`: small pools (heavy collisions and
    /// broadcasts), strided columns (with an XOR swizzle), 2-D blocks, wide random spreads, and copies of lanes.
    fn random_addrs(op: Op, next: &mut impl FnMut() -> u64) -> [u32; WARP] {
        let align = op.alignment();
        let mut a = [0u32; WARP];
        match next() % 6 {
            0 => {
                let n = [1, 2, 3, 4, 8, 16, 32, 64][(next() % 8) as usize];
                let range = [4, 64, 2048, 1 << 20][(next() % 4) as usize];
                let pool: Vec<u32> = (0..n).map(|_| (next() % range) as u32 * align).collect();
                for x in a.iter_mut() {
                    *x = pool[(next() % n) as usize];
                }
            }
            1 => {
                let base = (next() % 4096) as u32 * align;
                let stride =
                    [1, 2, 3, 4, 8, 16, 32, 33, 64, 128, 256, 1024][(next() % 12) as usize] * align;
                let swz = if next().is_multiple_of(2) {
                    0
                } else {
                    (next() % 8) as u32
                };
                for (l, x) in a.iter_mut().enumerate() {
                    let l = l as u32;
                    *x = base.wrapping_add(l.wrapping_mul(stride))
                        ^ if swz == 0 {
                            0
                        } else {
                            ((l & 7) ^ swz) * 8 * align
                        };
                }
            }
            2 => {
                let (w, pitch) = (
                    [1, 2, 4, 8, 16][(next() % 5) as usize],
                    [16, 64, 128, 132, 256, 512][(next() % 6) as usize],
                );
                for (l, x) in a.iter_mut().enumerate() {
                    let l = l as u32;
                    *x = ((l / w) * pitch + (l % w) * align) / align * align;
                }
            }
            3 => {
                for x in a.iter_mut() {
                    *x = (next() as u32) / align * align;
                }
            }
            4 => {
                let span = [64u64, 1 << 12, 1 << 16, 1 << 28][(next() % 4) as usize];
                for x in a.iter_mut() {
                    *x = (next() % span) as u32 * align;
                }
            }
            _ => {
                let base = (next() % 64) as u32 * align;
                for (l, x) in a.iter_mut().enumerate() {
                    *x = base + (l as u32 % 8) * 128;
                }
            }
        }
        // Copy some lanes onto others (repeats), and sometimes pair lanes (paired-load phases).
        for _ in 0..next() % 8 {
            let (d, s) = ((next() % 32) as usize, (next() % 32) as usize);
            a[d] = a[s];
        }
        match next() % 4 {
            1 => (0..32).for_each(|l| a[l] = a[l & !1]),
            2 => (0..32).for_each(|l| a[l] = a[l & !2]),
            _ => {}
        }
        a
    }

    #[test]
    fn counting_matches_plain_sets_on_random_instructions() {
        let mut x: u64 = 0x2545f4914f6cdd1d;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for op in Op::ALL {
            for _ in 0..100_000 {
                let a = random_addrs(op, &mut next);
                let want = reference_phases(op, &a);
                let r = report(op, &a);
                let got: Vec<(u32, u32)> = r
                    .phases()
                    .iter()
                    .map(|p| (p.wavefronts, p.worst_bank))
                    .collect();
                assert_eq!(got, want, "{op} {a:?}");
                assert_eq!(
                    wavefronts(op, &a),
                    want.iter().map(|p| p.0).sum::<u32>(),
                    "{op} {a:?}"
                );
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for op in Op::ALL {
            assert_eq!(op.name().parse::<Op>(), Ok(op));
        }
        assert!("lds24".parse::<Op>().is_err());
    }

    #[test]
    fn fast_count_matches_reference_on_random_collisions() {
        let mut x: u64 = 0x9e3779b97f4a7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..20_000 {
            let op = Op::ALL[round % Op::ALL.len()];
            let pool_len = [1, 2, 4, 8, 32, 64][(next() % 6) as usize];
            let pool: Vec<u32> = (0..pool_len)
                .map(|_| (next() % 2048) as u32 * op.alignment())
                .collect();
            let pair = next() % 3;
            let mut a = [0u32; WARP];
            for l in 0..WARP {
                let src = match pair {
                    1 => l & !1,
                    2 => l & !2,
                    _ => l,
                };
                a[l] = if src == l {
                    pool[(next() % pool_len as u64) as usize]
                } else {
                    a[src]
                };
            }
            let r = report(op, &a);
            assert_eq!(wavefronts(op, &a), reference(op, &a), "{op} {a:?}");
            assert_eq!(r.wavefronts, reference(op, &a));
            assert_eq!(
                r.phases().iter().map(|p| p.wavefronts).sum::<u32>(),
                r.wavefronts
            );
        }
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
