//! The tail split of a persistent GEMM grid: the last tiles, those that would leave most SMs idle in a last
//! partial wave, each computed as a few parts of its K loop on several CTAs.
//!
//! A persistent grid of `ctas` CTAs deals `slots` tiles out in order: CTA `b` takes tiles `b`, `b + ctas`, ....
//! When `slots` is not a multiple of `ctas`, the last `slots % ctas` tiles run as a wave of their own, and every
//! other SM waits for them. The tail split cuts each of the last [`TailSplit::tiles`] tiles into
//! [`TailSplit::parts`] balanced parts of its K loop. The schedule becomes a list of work units: the
//! `slots - tiles` whole tiles first, then the tail tiles' parts, tile by tile (unit `head + t * parts + p` is
//! part `p` of tail tile `t`), still dealt out in order ([`TailSplit::unit`]).
//!
//! Every part but the last stores its fp32 partial tile in a global workspace and counts itself in the tile's
//! arrival counter; the last part, dealt out after the others, waits for the count, adds their partials to its
//! own in part order (the same bits every run) and writes the tile. A part waits only for parts dealt out before
//! it, which run ahead of it or beside it on other CTAs of the persistent grid (all resident at once), so no
//! wait can close a cycle.
//!
//! [`split`] picks the split with the least work on the busiest CTA, counting a tile as its k-tiles plus
//! [`TILE_COST_K_TILES`] and each part as its share of the k-tiles plus that and [`PART_COST_K_TILES`] (its
//! partial's store and the last part's reads), or none when none saves [`MIN_SAVING`] or the tiles fill fewer
//! than [`MIN_WAVES`] waves.
//!
//! ```
//! use swizzle_core::tail::{split, TailSplit};
//! // 1216 tiles of 128 k-tiles on 132 SMs: 9 whole waves and 28 tiles; those 28 split in 4 fill one short wave.
//! assert_eq!(split(1216, 132, 128), Some(TailSplit { tiles: 28, parts: 4 }));
//! // Whole waves, or too little K to split: no tail split.
//! assert_eq!(split(1056, 132, 128), None);
//! assert_eq!(split(1216, 132, 4), None);
//! ```

/// A tile's cost beyond its k-tiles (pipeline fill and epilogue), in k-tiles: the planner's fitted tile overhead
/// over its k-tile time on an H100 (1.69 µs / 0.65 µs).
pub const TILE_COST_K_TILES: u32 = 3;
/// A part's cost beyond a tile's: its fp32 partial to the workspace and, for the last part, the others' read
/// back, in k-tiles (assumed: a 128x256 fp32 partial, 128 KiB, at one SM's share of the L2 rate is about two
/// k-tiles each way).
pub const PART_COST_K_TILES: u32 = 4;
/// The fewest k-tiles a part runs.
pub const MIN_PART_K_TILES: u32 = 4;
/// The most parts a tail tile is split into.
pub const MAX_PARTS: u32 = 8;
/// The least saving (per thousand of the busiest CTA's work) a split must bring to be taken.
pub const MIN_SAVING: u32 = 20;
/// The fewest whole waves of tiles before a tail is split. With fewer, a narrower tile evens out the last wave
/// without a workspace: on an H100 at 512 x 10240 x 8192 and 512 x 28672 x 4096 (1.2 and 3.4 waves of 128x256
/// e4m3 tiles, 4.5 of 128x192 bf16 and f16 ones) the split tiles ran 14%, 6% and 8% slower than the 128x160 and
/// 128x224 tiles planned without it; at 4096 x 4096 x 4096, 4096 x 7168 x 16384 and 8192 x 10240 x 8192 block-
/// scaled or per-tensor e4m3 (5.3, 9 and 19 waves) the split ran 2%, 3-7% and 2% faster than the whole tiles.
pub const MIN_WAVES: u32 = 5;

/// The tail split of one launch: the last `tiles` tiles of the schedule, each in `parts` parts of its K loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TailSplit {
    /// Tail tiles: the last ones of the schedule.
    pub tiles: u32,
    /// Parts of each tail tile's K loop (2 or more).
    pub parts: u32,
}

/// One work unit of the schedule: a tile (its slot in the block order) and its part of the K loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    /// The tile's slot.
    pub slot: u32,
    /// The part (0 for a whole tile).
    pub part: u32,
    /// The parts of this tile's K loop (1 for a whole tile).
    pub parts: u32,
}

impl TailSplit {
    /// No split: every tile whole.
    pub const NONE: TailSplit = TailSplit { tiles: 0, parts: 1 };

    /// Work units of a schedule of `slots` tiles.
    pub const fn units(&self, slots: u32) -> u32 {
        slots - self.tiles + self.tiles * self.parts
    }

    /// Unit `u` of a schedule of `slots` tiles: the whole tiles first, then each tail tile's parts in order.
    pub const fn unit(&self, slots: u32, u: u32) -> Unit {
        let head = slots - self.tiles;
        if u < head {
            Unit {
                slot: u,
                part: 0,
                parts: 1,
            }
        } else {
            let v = u - head;
            Unit {
                slot: head + v / self.parts,
                part: v % self.parts,
                parts: self.parts,
            }
        }
    }

    /// K tiles `[lo, hi)` of part `part` of `parts` over `k_tiles`: balanced, as the kernel cuts them.
    pub const fn part_range(k_tiles: u32, part: u32, parts: u32) -> (u32, u32) {
        let lo = (part as u64 * k_tiles as u64 / parts as u64) as u32;
        let hi = ((part as u64 + 1) * k_tiles as u64 / parts as u64) as u32;
        (lo, hi)
    }

    /// Bytes of the workspace a launch of this split needs for `bm x bn` tiles: a 4-byte arrival counter per
    /// tail tile (from offset 0, rounded up to [`WORKSPACE_ALIGN`]), then an fp32 partial tile for every part
    /// but the last of each tail tile.
    pub const fn workspace_bytes(&self, bm: u32, bn: u32) -> u64 {
        if self.tiles == 0 {
            return 0;
        }
        self.partials_offset()
            + self.tiles as u64 * (self.parts as u64 - 1) * bm as u64 * bn as u64 * 4
    }

    /// Where the partials start in the workspace: after the counters, on [`WORKSPACE_ALIGN`].
    pub const fn partials_offset(&self) -> u64 {
        (self.tiles as u64 * 4).div_ceil(WORKSPACE_ALIGN) * WORKSPACE_ALIGN
    }

    /// The whole tiles and the tail parts CTA `b` of `ctas` runs in a schedule of `slots` tiles.
    pub const fn load(&self, slots: u32, ctas: u32, b: u32) -> (u32, u32) {
        let head = slots - self.tiles;
        let tail = self.tiles * self.parts;
        let wholes = head / ctas + if b < head % ctas { 1 } else { 0 };
        // Units head.. are dealt on from CTA head % ctas: CTA b's first is tail unit `from`.
        let from = (b + ctas - head % ctas) % ctas;
        let parts = if from < tail {
            (tail - from).div_ceil(ctas)
        } else {
            0
        };
        if self.parts > 1 {
            (wholes, parts)
        } else {
            (wholes + parts, 0)
        }
    }

    /// The busiest CTA's work, in k-tiles with the costs of the module docs, for `slots` tiles of `k_tiles` on
    /// `ctas` CTAs.
    pub const fn busiest(&self, slots: u32, ctas: u32, k_tiles: u32) -> u64 {
        let whole = (k_tiles + TILE_COST_K_TILES) as u64;
        let part = (k_tiles.div_ceil(self.parts) + TILE_COST_K_TILES + PART_COST_K_TILES) as u64;
        let mut most = 0u64;
        let mut b = 0;
        while b < ctas {
            let (wholes, parts) = self.load(slots, ctas, b);
            let w = wholes as u64 * whole + parts as u64 * part;
            if w > most {
                most = w;
            }
            b += 1;
        }
        most
    }
}

/// The workspace's alignment (bytes): the partials start on it.
pub const WORKSPACE_ALIGN: u64 = 256;

/// The tail split for `slots` tiles of `k_tiles` k-tiles each on a persistent grid of `ctas` CTAs (module
/// docs), or `None` when the tiles fill whole waves, fewer than [`MIN_WAVES`] of them, or no split saves
/// [`MIN_SAVING`] per thousand of the busiest CTA's work. The tail is the last partial wave's tiles, or those and
/// the last whole wave; parts run at least [`MIN_PART_K_TILES`] k-tiles, at most [`MAX_PARTS`] of them.
pub const fn split(slots: u32, ctas: u32, k_tiles: u32) -> Option<TailSplit> {
    if ctas == 0 || slots < MIN_WAVES * ctas || slots.is_multiple_of(ctas) {
        return None;
    }
    let base = TailSplit::NONE.busiest(slots, ctas, k_tiles);
    let rest = slots % ctas;
    let mut best = base;
    let mut pick = TailSplit::NONE;
    let tails = [rest, rest + ctas];
    let mut i = 0;
    while i < tails.len() {
        let tiles = tails[i];
        let mut parts = 2;
        while tiles <= slots && parts <= MAX_PARTS && k_tiles / parts >= MIN_PART_K_TILES {
            let s = TailSplit { tiles, parts };
            let w = s.busiest(slots, ctas, k_tiles);
            if w < best {
                best = w;
                pick = s;
            }
            parts += 1;
        }
        i += 1;
    }
    if pick.tiles == 0 || (base - best) * 1000 < base * MIN_SAVING as u64 {
        None
    } else {
        Some(pick)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The busiest CTA's work by dealing every unit out, one by one.
    fn dealt(s: TailSplit, slots: u32, ctas: u32, k: u32) -> u64 {
        let mut load = vec![0u64; ctas as usize];
        for u in 0..s.units(slots) {
            let w = s.unit(slots, u);
            let (lo, hi) = TailSplit::part_range(k, w.part, w.parts);
            let extra = if w.parts > 1 { PART_COST_K_TILES } else { 0 };
            // A part's share is the largest part's (the parts of a tile are balanced to within one k-tile).
            let kt = if w.parts > 1 {
                k.div_ceil(w.parts)
            } else {
                hi - lo
            };
            load[(u % ctas) as usize] += (kt + TILE_COST_K_TILES + extra) as u64;
        }
        load.into_iter().max().unwrap_or(0)
    }

    #[test]
    fn the_busiest_count_matches_dealing_the_units_out() {
        for ctas in [1, 2, 3, 7, 16] {
            for slots in 0..60 {
                for tiles in 0..=slots.min(2 * ctas) {
                    for parts in 1..=5 {
                        let s = TailSplit { tiles, parts };
                        for k in [1, 5, 16] {
                            assert_eq!(
                                s.busiest(slots, ctas, k),
                                dealt(s, slots, ctas, k),
                                "{s:?} slots {slots} ctas {ctas} k {k}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_tile_and_k_tile_is_covered_once() {
        for slots in 1..40 {
            for tiles in 0..=slots {
                for parts in 1..=6 {
                    let s = TailSplit { tiles, parts };
                    let k = 13;
                    let mut seen = vec![0u32; (slots * k) as usize];
                    for u in 0..s.units(slots) {
                        let w = s.unit(slots, u);
                        assert!(w.slot < slots && w.part < w.parts);
                        assert_eq!(w.parts > 1, w.slot >= slots - tiles && parts > 1);
                        let (lo, hi) = TailSplit::part_range(k, w.part, w.parts);
                        for kt in lo..hi {
                            seen[(w.slot * k + kt) as usize] += 1;
                        }
                    }
                    assert!(seen.iter().all(|&n| n == 1), "{s:?} of {slots}");
                }
            }
        }
    }

    #[test]
    fn a_split_is_taken_only_where_it_saves_work() {
        for ctas in [4, 66, 132] {
            for slots in 0..6 * ctas {
                for k in [2, 8, 32, 64, 128] {
                    let none = TailSplit::NONE.busiest(slots, ctas, k);
                    match split(slots, ctas, k) {
                        None => {}
                        Some(s) => {
                            assert!(s.parts >= 2 && s.parts <= MAX_PARTS && s.tiles <= slots);
                            assert!(slots >= MIN_WAVES * ctas);
                            assert!(k / s.parts >= MIN_PART_K_TILES);
                            let w = s.busiest(slots, ctas, k);
                            assert!(
                                (none - w) * 1000 >= none * MIN_SAVING as u64,
                                "{s:?}: {w} of {none}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn whole_waves_and_single_waves_are_left_alone() {
        assert_eq!(split(264, 132, 64), None);
        assert_eq!(split(100, 132, 64), None);
        // 160 and 448 tiles (1.2 and 3.4 waves): too few whole waves.
        assert_eq!(split(160, 132, 64), None);
        assert_eq!(split(448, 132, 32), None);
        assert_eq!(split(600, 132, 64), None);
        assert_eq!(split(132, 132, 64), None);
        assert_eq!(split(0, 132, 64), None);
        assert_eq!(split(10, 0, 64), None);
    }

    #[test]
    fn the_workspace_holds_the_counters_then_the_partials() {
        let s = TailSplit {
            tiles: 28,
            parts: 4,
        };
        assert_eq!(s.partials_offset(), 256);
        assert_eq!(s.workspace_bytes(128, 192), 256 + 28 * 3 * 128 * 192 * 4);
        assert_eq!(TailSplit::NONE.workspace_bytes(128, 256), 0);
        let many = TailSplit {
            tiles: 65,
            parts: 2,
        };
        assert_eq!(many.partials_offset(), 512);
    }
}
