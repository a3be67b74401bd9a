//! Swizzle synthesis: the XOR swizzle with the fewest bits that makes every given access pattern conflict-free.
//!
//! **Domain.** Swizzles act on *byte* offsets here, `Sw<B, M, S>` with
//! - `M >= log2(widest access)`: each lane's access (16 bytes for `row16` and `ldmatrix`) moves as one piece, so
//!   the instruction can still be issued ([`Smem::keeps_whole`]);
//! - `B >= 1`, `|S| >= B` (the swizzle rule), either sign of `S`;
//! - `2^(B + M + |S|)` (the period) divides the tile's size in bytes, so the swizzle maps the tile onto itself.
//!
//! The domain is small (about a hundred swizzles for a 16 KiB tile), so the search is exhaustive.
//!
//! **Order.** The unswizzled layout first; then single swizzles by increasing `B`, so the first hit has the fewest
//! bits (ties: larger `M`, then smaller `|S|`, positive `S` first). If no single swizzle works, two-layer
//! compositions `first then second` ([`crate::compose`]) by increasing `B1 + B2`; pairs whose composition is itself
//! one swizzle are skipped (the single search already refused it). Each candidate is checked with
//! [`verify::first_conflict`], which stops at the first conflicting instruction.
//!
//! **Nothing works.** Then the answer is the candidate with the fewest total wavefronts over all patterns, plus the
//! smallest row padding (a multiple of the widest access, up to 128 bytes) that is conflict-free, if any.
//!
//! **Pruning.** Every candidate keeps the byte-address bits below `M_min = log2(widest access)` in place (each
//! layer XORs bits `>= M >= M_min` using bits `>= M_min`) and maps distinct 4-byte words to distinct words. So in a
//! one-phase instruction (8/16/32-bit `lds`/`sts`) the words whose bits `2..M_min` read `r` can only reach the
//! `32 >> (M_min - 2)` banks with those low bits: that instruction costs at least `ceil(n_r / (32 >> (M_min - 2)))`
//! wavefronts under *every* candidate ([`lower_bound`]). When that bound already exceeds a pattern's ideal (an f32
//! column read next to 16-byte accesses: 32 words, 8 reachable banks, 4-way at best), no candidate can be
//! conflict-free: the conflict-free search is skipped. The cheapest candidate is then found by branch and bound:
//! a candidate's cost stops being summed once it reaches the best so far, and the search ends when a candidate
//! meets the bound.
//!
//! Minimality is by construction (every candidate with fewer bits was checked and failed); the tests re-check it
//! by walking the whole domain.
//!
//! ```
//! use swizzle_core::pattern::{Pattern, Smem};
//! use swizzle_core::compose::SwizzleFn;
//! use swizzle_core::synth::{synthesize, Answer};
//! use swizzle_core::units::Elem;
//! use swizzle_core::Swizzle;
//! let s = synthesize(&Smem::row_major(64, 64, Elem::F16), &[Pattern::ROW16, Pattern::LDMATRIX_X4]);
//! assert_eq!(s.answer, Answer::Single(Swizzle::new(3, 4, 3))); // on bytes
//! assert_eq!(s.in_elems(), Some(SwizzleFn::Single(Swizzle::new(3, 3, 3)))); // Sw<3,3,3> on f16
//! ```

use crate::bank;
use crate::compose::{Composed, SwizzleFn};
use crate::pattern::{Layout, Pattern, Smem, TileReport};
use crate::swizzle::Swizzle;
use crate::units::Unit;
use crate::verify;
use core::fmt;

/// What the search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The tile is conflict-free as it is.
    Unswizzled,
    /// One swizzle, on byte offsets.
    Single(Swizzle),
    /// Two layers, on byte offsets.
    TwoLayers(Composed),
    /// No XOR swizzle (one or two layers) is conflict-free for every pattern.
    Impossible {
        /// The candidate with the fewest total wavefronts, and that total with its ideal.
        best: SwizzleFn,
        /// Total wavefronts of `best` over the patterns.
        wavefronts: u64,
        /// The conflict-free total.
        ideal: u64,
        /// Smallest padding per row (bytes) that makes every pattern conflict-free, if one up to 128 bytes does.
        padding: Option<u32>,
    },
}

impl Answer {
    /// The layout the answer stands for (the best effort for `Impossible`), on byte offsets.
    pub fn swizzle(&self) -> SwizzleFn {
        match *self {
            Answer::Unswizzled => SwizzleFn::Single(Swizzle::IDENTITY),
            Answer::Single(s) => SwizzleFn::Single(s),
            Answer::TwoLayers(c) => SwizzleFn::Composed(c),
            Answer::Impossible { best, .. } => best,
        }
    }
}

/// Cost of one pattern under the original and the synthesized layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evidence {
    /// The pattern.
    pub pattern: Pattern,
    /// Its cost on the layout as given.
    pub before: TileReport,
    /// Its cost on the synthesized layout.
    pub after: TileReport,
}

/// Most warp instructions the search for the cheapest layout walks when none is conflict-free (candidates in
/// search order: fewest bits first), each instruction counted whether its cost is computed or repeats one
/// already computed (the walk itself is the time). Whether a conflict-free layout exists is always decided over
/// the whole domain; only the "best effort" answer of [`Answer::Impossible`] may be the cheapest of the first
/// candidates, which keeps this search to a couple of seconds whatever the tile (counting only the costed
/// instructions, a 224x1024 u8 tile with five patterns walked 560 M instructions in 7.7 s).
pub const BEST_EFFORT_WORK: u64 = 1 << 26;

/// The result of [`synthesize`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Synthesis {
    /// The tile as given (its layout is the "before").
    pub smem: Smem,
    /// What was found.
    pub answer: Answer,
    /// Per pattern, wavefronts before and after.
    pub evidence: Vec<Evidence>,
    /// `(costed, total)`: the search for the cheapest layout stopped after [`BEST_EFFORT_WORK`] instructions,
    /// having costed the first `costed` of `total` candidates.
    pub cut: Option<(usize, usize)>,
    /// Candidates checked.
    pub tried: usize,
    /// A lower bound on the total wavefronts under any candidate, and the ideal total ([`lower_bound`]). When
    /// the bound exceeds the ideal, no XOR swizzle can be conflict-free, and the search for one was skipped.
    pub bound: (u64, u64),
}

impl Synthesis {
    /// The answer on the tile's element offsets, when it converts exactly (the domain keeps `M >= log2(access)`,
    /// so it does whenever accesses are at least one element wide).
    pub fn in_elems(&self) -> Option<SwizzleFn> {
        let e = self.smem.tile().elem;
        match self.answer.swizzle() {
            SwizzleFn::Single(s) => s.to_elems(e).ok().map(SwizzleFn::Single),
            SwizzleFn::Composed(c) => Some(SwizzleFn::Composed(Composed::new(
                c.first.to_elems(e).ok()?,
                c.second.to_elems(e).ok()?,
            ))),
        }
    }

    /// The tile with the answer applied (byte units).
    pub fn smem_after(&self) -> Smem {
        match self.answer {
            Answer::Impossible {
                padding: Some(pad), ..
            } => self.smem.with_padding(pad),
            a => self.smem.with_layout(on_bytes(a.swizzle())),
        }
    }
}

fn on_bytes(swizzle: SwizzleFn) -> Layout {
    Layout::Swizzled {
        swizzle,
        unit: Unit::Bytes,
    }
}

/// Widest per-lane access of the patterns on this tile, in bytes.
fn widest_access(smem: &Smem, patterns: &[Pattern]) -> u32 {
    patterns
        .iter()
        .map(|p| p.op(smem.tile().elem).bytes_per_lane())
        .max()
        .unwrap_or(1)
}

/// The search domain in search order (see the module doc): byte-offset swizzles with `B >= 1`.
pub fn candidates(smem: &Smem, patterns: &[Pattern]) -> Vec<Swizzle> {
    let min_m = widest_access(smem, patterns).trailing_zeros();
    let bytes = smem.tile().bytes() as u64;
    let mut out = Vec::new();
    for b in 1..=8u32 {
        for m in (min_m..=16).rev() {
            for abs_s in b..=16u32 {
                for s in [abs_s as i32, -(abs_s as i32)] {
                    let Ok(sw) = Swizzle::try_new(b, m, s) else {
                        continue;
                    };
                    if bytes.is_multiple_of(sw.period()) {
                        out.push(sw);
                    }
                }
            }
        }
    }
    out
}

/// True when every pattern can walk `smem` and is conflict-free on it.
pub fn all_conflict_free(smem: &Smem, patterns: &[Pattern]) -> bool {
    patterns.iter().all(|&p| verify::is_conflict_free(smem, p))
}

/// [`all_conflict_free`] for the search: the pattern that refused the last candidate is asked first next time
/// (neighbouring candidates tend to fail on the same pattern), so a refusal usually costs one instruction.
fn all_conflict_free_reordering(smem: &Smem, patterns: &mut [Pattern]) -> bool {
    match patterns
        .iter()
        .position(|&p| !verify::is_conflict_free(smem, p))
    {
        None => true,
        Some(k) => {
            patterns[..=k].rotate_right(1);
            false
        }
    }
}

/// Total wavefronts of `patterns` on `smem`, or `None` once it is sure to reach `limit` (the branch-and-bound
/// step): every pattern costs at least its ideal (`ideals`, in the same order), so the walk stops as soon as the
/// wavefronts so far plus the ideals of the patterns not yet walked reach `limit`.
fn cost_below(
    smem: &Smem,
    patterns: &[Pattern],
    ideals: &[u64],
    limit: u64,
    work: &mut u64,
) -> Option<u64> {
    let mut rest: u64 = ideals.iter().sum();
    let mut sum = 0u64;
    for (&p, &ideal) in patterns.iter().zip(ideals) {
        rest -= ideal;
        sum += verify::wavefronts_below_counting(smem, p, limit.checked_sub(sum + rest)?, work)?;
    }
    (sum < limit).then_some(sum)
}

/// `(bound, ideal)`: a lower bound on the total wavefronts of `patterns` under every candidate of the search
/// domain, and their ideal total (see "Pruning" in the module doc). `smem` is the unswizzled tile. Instructions
/// the argument does not cover (wider accesses, matrices, sub-word pinning) count their ideal.
pub fn lower_bound(smem: &Smem, patterns: &[Pattern]) -> (u64, u64) {
    let min_m = widest_access(smem, patterns).trailing_zeros();
    let (mut bound, mut ideal) = (0u64, 0u64);
    for p in patterns {
        let op = p.op(smem.tile().elem);
        for i in 0..p.instructions(smem.tile()) {
            let addrs = p.addrs(smem, i);
            let best = bank::ideal(op, &addrs) as u64;
            ideal += best;
            let one_phase = op.phase_lanes() == bank::WARP as u32
                && op.address_lanes() == bank::WARP as u32
                && op.bytes_per_lane() <= 4;
            if !one_phase || min_m <= 2 {
                bound += best;
                continue;
            }
            // Distinct words per residue of bits 2..min_m, over the 32 >> (min_m - 2) banks that residue reaches.
            let classes = 1usize << (min_m - 2);
            let reach = (32 >> (min_m - 2)).max(1) as u64;
            let mut words: Vec<u32> = addrs.iter().map(|a| a >> 2).collect();
            words.sort_unstable();
            words.dedup();
            let mut n = vec![0u64; classes];
            for w in words {
                n[(w as usize) & (classes - 1)] += 1;
            }
            let worst = n.iter().map(|&k| k.div_ceil(reach)).max().unwrap_or(1);
            bound += worst.max(best);
        }
    }
    (bound, ideal)
}

fn total_cost(smem: &Smem, patterns: &[Pattern]) -> (u64, u64) {
    patterns.iter().fold((0, 0), |(w, i), p| {
        let r = p.report(smem);
        (w + r.wavefronts, i + r.ideal)
    })
}

/// Find the smallest XOR swizzle (or two-layer composition) making every pattern conflict-free on `smem`'s tile.
/// `smem`'s own layout is the "before" of the evidence; the search replaces it.
pub fn synthesize(smem: &Smem, patterns: &[Pattern]) -> Synthesis {
    synthesize_with_progress(smem, patterns, &mut |_, _| {})
}

/// [`synthesize`], calling `progress(checked, total)` before each candidate (one search phase at a time: `total`
/// is that phase's candidate count), so a caller can report a long search.
pub fn synthesize_with_progress(
    smem: &Smem,
    patterns: &[Pattern],
    progress: &mut dyn FnMut(usize, usize),
) -> Synthesis {
    let tile_only = smem.with_layout(on_bytes(SwizzleFn::Single(Swizzle::IDENTITY)));
    let with = |f: SwizzleFn| tile_only.with_layout(on_bytes(f));
    let mut tried = 1;
    let mut cut = None;
    let mut work = 0u64;
    let (bound, ideal) = lower_bound(&tile_only, patterns);
    let answer = 'search: {
        if all_conflict_free(&tile_only, patterns) {
            break 'search Answer::Unswizzled;
        }
        let singles = candidates(smem, patterns);
        let mut pairs: Vec<(Swizzle, Swizzle)> = singles
            .iter()
            .flat_map(|&a| singles.iter().map(move |&b| (a, b)))
            .filter(|&(a, b)| matches!(a.then(b), SwizzleFn::Composed(_)))
            .collect();
        pairs.sort_by_key(|(a, b)| a.bits + b.bits); // stable: keeps the single order within a total
        let all = || {
            singles.iter().map(|&s| SwizzleFn::Single(s)).chain(
                pairs
                    .iter()
                    .map(|&(a, b)| SwizzleFn::Composed(Composed::new(a, b))),
            )
        };
        let total = singles.len() + pairs.len();
        let mut order = patterns.to_vec();
        if bound == ideal {
            for (k, f) in all().enumerate() {
                progress(k, total);
                tried += 1;
                if all_conflict_free_reordering(&with(f), &mut order) {
                    break 'search match f {
                        SwizzleFn::Single(s) => Answer::Single(s),
                        SwizzleFn::Composed(c) => Answer::TwoLayers(c),
                    };
                }
            }
        }
        // Nothing is conflict-free: the cheapest candidate (branch and bound), and padding.
        let (mut best, mut best_cost) = (
            SwizzleFn::Single(Swizzle::IDENTITY),
            total_cost(&tile_only, patterns),
        );
        let ideals: Vec<u64> = patterns
            .iter()
            .map(|p| p.report(&tile_only).ideal)
            .collect();
        for (k, f) in all().enumerate() {
            progress(k, total);
            if best_cost.0 <= bound {
                break; // nothing can do better than the bound
            }
            if work >= BEST_EFFORT_WORK {
                cut = Some((k, total));
                break;
            }
            if bound > ideal {
                tried += 1; // not counted by the (skipped) conflict-free search
            }
            if let Some(cost) = cost_below(&with(f), patterns, &ideals, best_cost.0, &mut work) {
                (best, best_cost) = (f, (cost, best_cost.1));
            }
        }
        let step = widest_access(smem, patterns).max(4);
        let padding = (1..=128 / step)
            .map(|k| k * step)
            .find(|&pad| all_conflict_free(&tile_only.with_padding(pad), patterns));
        Answer::Impossible {
            best,
            wavefronts: best_cost.0,
            ideal: best_cost.1,
            padding,
        }
    };
    let mut s = Synthesis {
        smem: *smem,
        cut,
        answer,
        evidence: Vec::new(),
        tried,
        bound: (bound, ideal),
    };
    let after = s.smem_after();
    s.evidence = patterns
        .iter()
        .map(|&p| Evidence {
            pattern: p,
            before: p.report(smem),
            after: p.report(&after),
        })
        .collect();
    s
}

impl fmt::Display for Synthesis {
    /// The answer (bytes and element units), then per pattern `before -> after` wavefronts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.smem.tile().elem;
        match self.answer {
            Answer::Unswizzled => writeln!(
                f,
                "no swizzle needed: {} is conflict-free",
                self.smem.tile()
            )?,
            Answer::Single(_) | Answer::TwoLayers(_) => {
                let layers = if matches!(self.answer, Answer::Single(_)) {
                    "single swizzle"
                } else {
                    "two layers (no single swizzle works)"
                };
                write!(f, "{layers}: {} on bytes", self.answer.swizzle())?;
                if let Some(el) = self.in_elems() {
                    write!(f, " = {el} on {e}")?;
                }
                writeln!(f)?;
            }
            Answer::Impossible {
                best,
                wavefronts,
                ideal,
                padding,
            } => {
                write!(
                    f,
                    "no XOR swizzle (one or two layers) is conflict-free; best {best} on bytes"
                )?;
                if let Some(el) = self.in_elems() {
                    write!(f, " = {el} on {e}")?;
                }
                writeln!(f, " costs {wavefronts} wavefronts (ideal {ideal})")?;
                if let Some((costed, total)) = self.cut {
                    writeln!(
                        f,
                        "(the cheapest of the first {costed} of {total} candidates, fewest bits first: the search \
                         for the cheapest stops after {BEST_EFFORT_WORK} warp instructions)"
                    )?;
                }
                let (bound, ideal_total) = self.bound;
                if bound > ideal_total {
                    writeln!(
                        f,
                        "why: every swizzle that keeps each {}-byte access whole leaves address bits below it in \
                         place, so no layout of this tile costs fewer than {bound} wavefronts",
                        widest_access(&self.smem, &self.evidence.iter().map(|e| e.pattern).collect::<Vec<_>>())
                    )?;
                }
                match padding {
                    Some(p) => {
                        writeln!(f, "suggestion: pad each row by {p} bytes (conflict-free)")?
                    }
                    None => writeln!(f, "no row padding up to 128 bytes is conflict-free either")?,
                }
            }
        }
        writeln!(
            f,
            "searched {} candidates; wavefronts before -> after:",
            self.tried
        )?;
        for ev in &self.evidence {
            writeln!(
                f,
                "  {:<18} {:>6} -> {:<6} (ideal {})",
                ev.pattern.to_string(),
                ev.before.wavefronts,
                ev.after.wavefronts,
                ev.after.ideal
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Elem;

    #[test]
    fn sw128_for_64x64_f16_row_stores_and_ldmatrix_and_nothing_smaller_works() {
        let smem = Smem::row_major(64, 64, Elem::F16);
        let pats = [Pattern::ROW16, Pattern::LDMATRIX_X4];
        let s = synthesize(&smem, &pats);
        assert_eq!(s.answer, Answer::Single(Swizzle::new(3, 4, 3)));
        assert_eq!(s.in_elems(), Some(SwizzleFn::Single(Swizzle::new(3, 3, 3))));
        // Minimality: the unswizzled tile and every candidate with fewer than 3 bits conflict.
        let byte_layout = |f| smem.with_layout(on_bytes(f));
        assert!(!all_conflict_free(&smem, &pats));
        let fewer: Vec<Swizzle> = candidates(&smem, &pats)
            .into_iter()
            .filter(|c| c.bits < 3)
            .collect();
        assert!(fewer.len() > 20);
        for c in fewer {
            assert!(
                !all_conflict_free(&byte_layout(SwizzleFn::Single(c)), &pats),
                "{c} works"
            );
        }
        // Evidence: 16 ldmatrix.x4, 8-way before, 4 wavefronts each after.
        let ev = &s.evidence[1];
        assert_eq!(
            (ev.before.wavefronts, ev.after.wavefronts, ev.after.ideal),
            (512, 64, 64)
        );
    }

    /// Fragment problem 2.1: a 16x256 f16 buffer read by ldmatrix.x4 as 16x16 blocks (16 columns each) and as
    /// "each 256-element row is a 16x16 block" (the same memory viewed as 256x16).
    #[test]
    fn the_fragment_article_needs_two_layers() {
        let smem = Smem::row_major(16, 256, Elem::F16);
        let pats = [Pattern::LDMATRIX_X4, Pattern::LDMATRIX_X4.viewed_as(16)];
        for p in pats {
            assert!(p.report(&smem).conflicts() > 0, "{p} is already free");
        }
        let s = synthesize(&smem, &pats);
        let Answer::TwoLayers(c) = s.answer else {
            panic!("expected two layers, got {:?}", s.answer)
        };
        // No single swizzle of the domain works, and each layer alone fixes at most one pattern.
        for sw in candidates(&smem, &pats) {
            let one = smem.with_layout(on_bytes(SwizzleFn::Single(sw)));
            assert!(!all_conflict_free(&one, &pats), "{sw} works alone");
        }
        let both = s.smem_after();
        for p in pats {
            assert!(verify::is_conflict_free(&both, p), "{p} under {c}");
        }
        assert!(s
            .evidence
            .iter()
            .all(|e| e.after.conflicts() == 0 && e.before.conflicts() > 0));
    }

    #[test]
    fn transpose_tile_gets_a_5_bit_swizzle() {
        let smem = Smem::row_major(32, 32, Elem::F32);
        let s = synthesize(&smem, &[Pattern::ROW_ST, Pattern::COL_LD]);
        assert_eq!(s.answer, Answer::Single(Swizzle::new(5, 2, 5)));
        assert_eq!(s.in_elems(), Some(SwizzleFn::Single(Swizzle::new(5, 0, 5))));
    }

    #[test]
    fn impossible_when_vectors_pin_the_low_bits() {
        // 16-byte row stores force M >= 4 bytes, so no layer can touch a word's bank bits 2..3 within its chunk:
        // an f32 column read reaches at most 8 of the 32 banks per 16-byte-chunk column, 4-way at best, and
        // 16-byte-multiple padding cannot do better.
        let smem = Smem::row_major(32, 32, Elem::F32);
        let pats = [Pattern::ROW16, Pattern::COL_LD];
        let s = synthesize(&smem, &pats);
        let Answer::Impossible {
            best,
            wavefronts,
            ideal,
            padding,
        } = s.answer
        else {
            panic!("{:?}", s.answer)
        };
        assert_eq!(padding, None);
        assert_eq!(ideal, 32 + 32);
        assert_eq!(wavefronts, 32 + 32 * 4, "best {best}");
        assert!(s.to_string().contains("no row padding up to 128 bytes"));
    }

    /// The pruning is sound: on small tiles, no candidate (one or two layers) costs less than `lower_bound`, and
    /// the branch-and-bound answer is the exhaustive minimum.
    #[test]
    fn lower_bound_holds_for_every_candidate_and_best_is_the_minimum() {
        let cases: [(Smem, &[Pattern]); 3] = [
            (
                Smem::row_major(32, 32, Elem::F32),
                &[Pattern::ROW16, Pattern::COL_LD],
            ),
            (
                Smem::row_major(32, 64, Elem::F32),
                &[Pattern::COL_LD, Pattern::LDMATRIX_X4],
            ),
            (
                Smem::row_major(32, 64, Elem::F16),
                &[Pattern::COL_LD, Pattern::ROW16],
            ),
        ];
        for (smem, pats) in cases {
            let (bound, ideal) = lower_bound(&smem, pats);
            assert!(bound > ideal, "{smem}: the case should be unfixable");
            let singles = candidates(&smem, pats);
            let mut min = total_cost(&smem, pats).0;
            for &a in &singles {
                let one = smem.with_layout(on_bytes(SwizzleFn::Single(a)));
                min = min.min(total_cost(&one, pats).0);
                for &b in &singles {
                    let two = smem.with_layout(on_bytes(a.then(b)));
                    let c = total_cost(&two, pats).0;
                    assert!(c >= bound, "{smem}: {a} then {b} costs {c} < bound {bound}");
                    min = min.min(c);
                }
            }
            let Answer::Impossible { wavefronts, .. } = synthesize(&smem, pats).answer else {
                panic!("{smem}: expected no conflict-free swizzle")
            };
            assert_eq!(wavefronts, min, "{smem}");
        }
    }

    /// The cases a user waited minutes for (no solution, nothing printed) are answered at once.
    #[test]
    fn unfixable_patterns_are_known_early() {
        for (rows, cols) in [(64, 64), (128, 128), (256, 224)] {
            let smem = Smem::row_major(rows, cols, Elem::F32);
            let pats = [Pattern::COL_LD, Pattern::LDMATRIX_X4];
            let t = std::time::Instant::now();
            let s = synthesize(&smem, &pats);
            assert!(matches!(s.answer, Answer::Impossible { .. }), "{smem}");
            assert!(
                t.elapsed() < std::time::Duration::from_secs(20),
                "{smem}: {:?}",
                t.elapsed()
            );
        }
    }

    #[test]
    fn progress_is_reported_per_candidate() {
        let smem = Smem::row_major(16, 256, Elem::F16);
        let pats = [Pattern::LDMATRIX_X4, Pattern::LDMATRIX_X4.viewed_as(16)];
        let mut calls = Vec::new();
        let s = synthesize_with_progress(&smem, &pats, &mut |k, total| calls.push((k, total)));
        assert!(matches!(s.answer, Answer::TwoLayers(_)));
        assert_eq!(
            calls.len(),
            s.tried - 1,
            "one call per candidate after the unswizzled tile"
        );
        assert!(calls.iter().enumerate().all(|(i, &(k, t))| k == i && k < t));
    }
}
