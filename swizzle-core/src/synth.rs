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
        wavefronts: u64,
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
    pub pattern: Pattern,
    pub before: TileReport,
    pub after: TileReport,
}

/// The result of [`synthesize`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Synthesis {
    /// The tile as given (its layout is the "before").
    pub smem: Smem,
    pub answer: Answer,
    /// Per pattern, wavefronts before and after.
    pub evidence: Vec<Evidence>,
    /// Candidates checked.
    pub tried: usize,
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

fn total_cost(smem: &Smem, patterns: &[Pattern]) -> (u64, u64) {
    patterns.iter().fold((0, 0), |(w, i), p| {
        let r = p.report(smem);
        (w + r.wavefronts, i + r.ideal)
    })
}

/// Find the smallest XOR swizzle (or two-layer composition) making every pattern conflict-free on `smem`'s tile.
/// `smem`'s own layout is the "before" of the evidence; the search replaces it.
pub fn synthesize(smem: &Smem, patterns: &[Pattern]) -> Synthesis {
    let tile_only = smem.with_layout(on_bytes(SwizzleFn::Single(Swizzle::IDENTITY)));
    let with = |f: SwizzleFn| tile_only.with_layout(on_bytes(f));
    let mut tried = 1;
    let answer = 'search: {
        if all_conflict_free(&tile_only, patterns) {
            break 'search Answer::Unswizzled;
        }
        let singles = candidates(smem, patterns);
        for &s in &singles {
            tried += 1;
            if all_conflict_free(&with(SwizzleFn::Single(s)), patterns) {
                break 'search Answer::Single(s);
            }
        }
        let mut pairs: Vec<(Swizzle, Swizzle)> = singles
            .iter()
            .flat_map(|&a| singles.iter().map(move |&b| (a, b)))
            .filter(|&(a, b)| matches!(a.then(b), SwizzleFn::Composed(_)))
            .collect();
        pairs.sort_by_key(|(a, b)| a.bits + b.bits); // stable: keeps the single order within a total
        for &(a, b) in &pairs {
            tried += 1;
            let c = Composed::new(a, b);
            if all_conflict_free(&with(SwizzleFn::Composed(c)), patterns) {
                break 'search Answer::TwoLayers(c);
            }
        }
        // Nothing is conflict-free: the cheapest candidate, and padding.
        let (mut best, mut best_cost) = (
            SwizzleFn::Single(Swizzle::IDENTITY),
            total_cost(&tile_only, patterns),
        );
        let all = singles.iter().map(|&s| SwizzleFn::Single(s)).chain(
            pairs
                .iter()
                .map(|&(a, b)| SwizzleFn::Composed(Composed::new(a, b))),
        );
        for f in all {
            let cost = total_cost(&with(f), patterns);
            if cost.0 < best_cost.0 {
                (best, best_cost) = (f, cost);
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
        answer,
        evidence: Vec::new(),
        tried,
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
                writeln!(f, "no XOR swizzle (one or two layers) is conflict-free; best {best} on bytes costs {wavefronts} wavefronts (ideal {ideal})")?;
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

    /// Seed 002 Problem 2.1: a 16x256 f16 buffer read by ldmatrix.x4 as 16x16 blocks (16 columns each) and as
    /// "each 256-element row is a 16x16 block" (the same memory viewed as 256x16).
    #[test]
    fn seed_002_needs_two_layers() {
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
}
