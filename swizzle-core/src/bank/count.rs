//! Counting one phase: the largest number of distinct words that any one bank must serve, exactly and fast.
//!
//! [`count_phase`] is the entry point ([`count_phase_out_of_line`] is the same for [`super::report`]);
//! [`super::wavefronts`] and `report` call it once per phase, and everything else here is a path it may take. The
//! plain way to count (a set of words per bank) is too slow for its callers: `wavefronts` runs at compile time over
//! every instruction a kernel issues, and swizzle synthesis re-scores every instruction for each candidate
//! swizzle. So each path below avoids sets, sorting and (except the last resort) comparing lanes pairwise, while
//! giving exactly the plain count (the tests below check it against sets, worst bank included).
//!
//! **Units and groups.** Accesses are naturally aligned, so a lane's `n`-byte access (`n >= 4`) covers exactly the
//! `n / 4` banks of one aligned *bank group*, and two accesses share banks only if they share the group. So we
//! count in units of the access size: unit `u = addr >> log2(max(n, 4))` ([`Op::unit_shift`]), group
//! `u % (32 / words)` ([`Op::groups`]); distinct words per bank is distinct units per group. (For 8/16-bit
//! accesses the unit is the 4-byte word and the group the bank.) A phase costs the largest number of distinct
//! units in one group: each wavefront, every group serves one of its units to every lane that touches it (the
//! broadcast).
//!
//! **The paths, cheapest first.** Each is exact; which one runs depends only on the addresses.
//! 1. *Every lane in a different group* (the usual conflict-free case): one pass ORs each lane's group bit into a
//!    32-bit mask ([`groups_hit`]); as many bits as lanes means 1 wavefront. *All lanes on one unit* (a
//!    broadcast): 1 wavefront.
//! 2. *Narrow keys* ([`count_narrow`], [`count_narrow128`]). `diff`, the OR over the lanes of `u ^ u0` (`u0` the
//!    first lane's unit), names the bits in which units differ. If they fit in a 6-bit window, or are at most 7
//!    bits in at most two runs (column reads, matrix rows, 2-D blocks; [`Runs`]), packing those bits gives every
//!    lane a small key that identifies its unit and whose low bits identify its group. One 64- or 128-bit mask
//!    with a field per group then holds every group's distinct units at once, and a SWAR popcount per field and a
//!    SWAR maximum over the fields ([`max_field_count64`], [`max_field_count128`]) give the wavefronts in a few
//!    word operations, with no per-group loop.
//! 3. *Bit-sliced counting* ([`count_general`]), for units that differ in too many bits for a key. Each lane
//!    becomes a one-hot group bit, zeroed for a lane whose unit an earlier lane already touched, and a bit-sliced
//!    carry-save adder ([`max_count`]) sums the one-hots into 32 per-group counts at once (plane `k` holds bit `k`
//!    of every count), whose maximum is read off from the top plane down. Repeats are ruled out when a 64-bit
//!    mask of the folded offsets `(u ^ u0) >> z` has as many bits as there are lanes (equal units fold equally, so
//!    no collision means no repeat). (`count_general` also finds repeats exactly with an unfolded mask when every
//!    offset is below 64, but path 2 takes those phases first.)
//! 4. *Pairwise fallback* ([`count_quadratic`]): when folded offsets collide (a repeated unit, or two units
//!    folding alike), each lane is compared with the earlier ones. Quadratic; only phases that repeat units and
//!    spread them too widely for path 2 get here.
//!
//! **The worst bank.** Only [`super::report`] needs it, so it is behind the `WORST` parameter and
//! [`super::wavefronts`] pays nothing for it. It is the group whose count reaches the phase's maximum first,
//! scanning the lanes in order (the same bank a set-per-bank count in lane order would name): path 1 takes the
//! first lane's group; path 2 replays the lanes once the maximum is known ([`first_to_reach`]); path 3 takes the
//! only group at the maximum if there is one, else replays the lanes; path 4 tracks it as it counts.
//!
//! Everything is `const fn` (so `wavefronts` stays usable at compile time) and allocation-free. The unit shift
//! and the lane count are const parameters on the hot loops over lanes, so those unroll and vectorize; every
//! array index is masked with `& 31`, always true here, so the bounds checks drop out.

use super::{Op, BANKS, WARP};

/// Result of counting one phase: its wavefronts and a bank that needed that many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PhaseCount {
    pub(super) wavefronts: u32,
    pub(super) worst_bank: u32,
}

/// Wavefronts of one phase, lanes `first..first + lanes`; with `WORST`, also the worst bank (otherwise 0). Path 1
/// of the module doc is here; the others are behind [`count_rest`].
#[inline(always)]
pub(super) const fn count_phase<const WORST: bool>(
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

/// [`count_phase`] with the worst bank, not inlined (it keeps [`report`](super::report)'s loop small).
#[inline(never)]
pub(super) const fn count_phase_out_of_line(
    addrs: &[u32; WARP],
    first: usize,
    lanes: usize,
    op: Op,
) -> PhaseCount {
    count_phase::<true>(addrs, first, lanes, op)
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

/// Paths 2 to 4 (see the module doc) for a phase of `LANES` lanes; `worst_bank` is a group here.
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

/// Path 2 (see the module doc) when the units differ from the first lane's unit `u0` in at most 7 bits, forming at
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

/// Path 3 (see the module doc; `SHIFT` = [`Op::unit_shift`]); `worst_bank` is a group here. Kept out of line so
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

/// Path 4, the last resort (see the module doc): per group, the units no earlier lane touched, compared lane
/// against lane.
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

#[cfg(test)]
mod tests {
    use crate::bank::{report, wavefronts, Op, Width, WARP};

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
}
