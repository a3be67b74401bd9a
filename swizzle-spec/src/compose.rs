//! Two swizzles in sequence (the "multi-layer swizzle" of the article on tensor-core fragments): `first`, then `second`.
//!
//! Every XOR swizzle is a linear map over GF(2) on the bits of the offset: `apply = I + N`, where `N` copies the
//! YYY bits onto the ZZZ bits (bit `i` in YYY goes to bit `i - S`) and `N * N = 0`. So the sequence is linear too:
//!
//! ```text
//!   second(first(x)) = (I + N2)(I + N1) x = (I + N1 + N2 + N2*N1) x
//! ```
//! It is again one legal [`Swizzle`] exactly when `N1 + N2 + N2*N1` is one "shifted diagonal": a contiguous run of
//! source bits `[lo, lo + B)`, each moved by the same `S`, with `|S| >= B`. For two non-identity swizzles that
//! means, in terms of the masks:
//!
//! 1. the same shift `S` (two diagonals with different shifts cannot cancel: `N1` and `N2` would both remain);
//! 2. `first.zzz_msk() & second.yyy_msk() == 0` (otherwise `second` reads bits `first` wrote, and `N2*N1` is a
//!    third diagonal at `2S`);
//! 3. `first.zzz_msk() ^ second.zzz_msk()` (bits XORed twice cancel) is empty (the identity) or one contiguous
//!    run of `B'` bits, and `|S| >= B'`.
//!
//! [`then`] does not pattern-match these cases; it computes the columns `d_i = f(1 << i) ^ (1 << i)` of the
//! composite and reads the swizzle off them, which is exact by linearity (the tests check it against the
//! conditions above and against a brute-force search). Otherwise the result is a [`Composed`]: still a bijection,
//! still `const` and two XORs deep.
//!
//! ```
//! use swizzle_spec::compose::{then, SwizzleFn};
//! use swizzle_spec::Swizzle;
//! // Disjoint ZZZ fields, same shift: one wider swizzle.
//! assert_eq!(then(Swizzle::new(1, 3, 3), Swizzle::new(2, 4, 3)), SwizzleFn::Single(Swizzle::new(3, 3, 3)));
//! // Problem 2.1's two layers for a 16x256 f16 tile (tests/tests/swizzle_layers.rs): different shifts, two layers.
//! let two = then(Swizzle::new(3, 3, 5), Swizzle::new(1, 3, 3));
//! assert!(matches!(two, SwizzleFn::Composed(_)));
//! assert_eq!(two.inverse().apply(two.apply(1234)), 1234);
//! ```

use crate::swizzle::Swizzle;
use core::fmt;

/// `second(first(x))`, kept as two layers because it is not one XOR swizzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Composed {
    /// The layer applied first.
    pub first: Swizzle,
    /// The layer applied to `first`'s result.
    pub second: Swizzle,
}

impl Composed {
    /// `first`, then `second`, kept as two layers (see [`then`] for the form that merges them when it can).
    pub const fn new(first: Swizzle, second: Swizzle) -> Composed {
        Composed { first, second }
    }

    /// `second.apply(first.apply(offset))`.
    pub const fn apply(&self, offset: u32) -> u32 {
        self.second.apply(self.first.apply(offset))
    }

    /// Undo: the layers in reverse order (each is its own inverse).
    pub const fn inverse(&self) -> Composed {
        Composed {
            first: self.second,
            second: self.first,
        }
    }

    /// Both layers repeat with their periods, which are powers of two, so the larger one is a period of both.
    pub const fn period(&self) -> u64 {
        let (a, b) = (self.first.period(), self.second.period());
        if a > b {
            a
        } else {
            b
        }
    }
}

impl fmt::Display for Composed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} then {}", self.first, self.second)
    }
}

/// A swizzle layout of one or two layers, with `const` methods: what callers hold when they do not care which.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwizzleFn {
    /// One XOR layer.
    Single(Swizzle),
    /// Two layers that are not one swizzle.
    Composed(Composed),
}

impl SwizzleFn {
    /// Where offset `offset` is stored.
    ///
    /// ```
    /// use swizzle_spec::{compose::then, Swizzle};
    /// let f = then(Swizzle::new(3, 3, 5), Swizzle::new(1, 3, 3));
    /// assert_eq!(f.apply(256), Swizzle::new(1, 3, 3).apply(Swizzle::new(3, 3, 5).apply(256)));
    /// ```
    pub const fn apply(&self, offset: u32) -> u32 {
        match self {
            SwizzleFn::Single(s) => s.apply(offset),
            SwizzleFn::Composed(c) => c.apply(offset),
        }
    }

    /// The layout that undoes this one: `inverse().apply(apply(x)) == x`.
    pub const fn inverse(&self) -> SwizzleFn {
        match self {
            SwizzleFn::Single(s) => SwizzleFn::Single(s.inverse()),
            SwizzleFn::Composed(c) => SwizzleFn::Composed(c.inverse()),
        }
    }

    /// Smallest `P` with `apply(x + P) == apply(x) + P`: the layout repeats every `P` offsets.
    pub const fn period(&self) -> u64 {
        match self {
            SwizzleFn::Single(s) => s.period(),
            SwizzleFn::Composed(c) => c.period(),
        }
    }

    /// The single swizzle, if this is one.
    pub const fn as_single(&self) -> Option<Swizzle> {
        match self {
            SwizzleFn::Single(s) => Some(*s),
            SwizzleFn::Composed(_) => None,
        }
    }
}

impl fmt::Display for SwizzleFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwizzleFn::Single(s) => write!(f, "{s}"),
            SwizzleFn::Composed(c) => write!(f, "{c}"),
        }
    }
}

#[cfg(feature = "alloc")]
impl core::str::FromStr for SwizzleFn {
    type Err = crate::swizzle::ParseSwizzleError;

    /// `B,M,S` (one layer, anything [`Swizzle`] parses) or `B,M,S+B,M,S` (two layers, applied left first, kept
    /// as two layers even when they happen to combine into one).
    ///
    /// ```
    /// use swizzle_spec::compose::SwizzleFn;
    /// let two: SwizzleFn = "1,6,-2+3,3,5".parse().unwrap();
    /// assert_eq!(two.to_string(), "Sw<1,6,-2> then Sw<3,3,5>");
    /// assert_eq!("3,3,3".parse::<SwizzleFn>().unwrap().to_string(), "Sw<3,3,3>");
    /// ```
    fn from_str(s: &str) -> Result<SwizzleFn, Self::Err> {
        match s.split_once('+') {
            Some((a, b)) => Ok(SwizzleFn::Composed(Composed::new(a.parse()?, b.parse()?))),
            None => Ok(SwizzleFn::Single(s.parse()?)),
        }
    }
}

/// Anything that maps offsets like a swizzle layout, for generic (non-`const`) code.
pub trait Layer: Copy {
    /// Where offset `offset` is stored.
    fn apply(&self, offset: u32) -> u32;
    /// How many offsets the layout takes to repeat.
    fn period(&self) -> u64;
}

impl Layer for Swizzle {
    fn apply(&self, offset: u32) -> u32 {
        Swizzle::apply(self, offset)
    }
    fn period(&self) -> u64 {
        Swizzle::period(self)
    }
}

impl Layer for Composed {
    fn apply(&self, offset: u32) -> u32 {
        Composed::apply(self, offset)
    }
    fn period(&self) -> u64 {
        Composed::period(self)
    }
}

impl Layer for SwizzleFn {
    fn apply(&self, offset: u32) -> u32 {
        SwizzleFn::apply(self, offset)
    }
    fn period(&self) -> u64 {
        SwizzleFn::period(self)
    }
}

/// `first`, then `second`: one [`Swizzle`] when the sequence is one, else [`Composed`].
/// See the module doc for exactly when.
pub const fn then(first: Swizzle, second: Swizzle) -> SwizzleFn {
    if first.is_identity() {
        return SwizzleFn::Single(second);
    }
    if second.is_identity() {
        return SwizzleFn::Single(first);
    }
    match as_one(first, second) {
        Some(s) => SwizzleFn::Single(s),
        None => SwizzleFn::Composed(Composed { first, second }),
    }
}

impl Swizzle {
    /// `self`, then `next`: see [`then`].
    pub const fn then(self, next: Swizzle) -> SwizzleFn {
        then(self, next)
    }
}

/// Read a swizzle off the columns of `second(first(x))`: the bits `i` whose image differs from `1 << i` must each
/// gain exactly one other bit `i - S`, with one `S`, over one contiguous run `[lo, lo + B)` (that run is YYY).
const fn as_one(first: Swizzle, second: Swizzle) -> Option<Swizzle> {
    let c = Composed { first, second };
    let (mut lo, mut count, mut shift) = (0u32, 0u32, 0i32);
    let mut i = 0u32;
    while i < 32 {
        let d = c.apply(1 << i) ^ (1 << i);
        if d != 0 {
            if d.count_ones() != 1 {
                return None;
            }
            let s = i as i32 - d.trailing_zeros() as i32;
            if count == 0 {
                lo = i;
                shift = s;
            } else if s != shift || i != lo + count {
                return None;
            }
            count += 1;
        }
        i += 1;
    }
    if count == 0 {
        return Some(Swizzle::IDENTITY);
    }
    // YYY starts at M + max(S, 0).
    let base = if shift > 0 { lo - shift as u32 } else { lo };
    match Swizzle::try_new(count, base, shift) {
        Ok(s) => Some(s),
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The identity once, then every legal swizzle with `B >= 1` (the B = 0 ones are all the identity).
    fn legal(max_b: u32, max_m: u32, max_s: i32) -> Vec<Swizzle> {
        let non_identity = Swizzle::all_legal(max_b, max_m, max_s as u32).filter(|sw| sw.bits > 0);
        std::iter::once(Swizzle::IDENTITY)
            .chain(non_identity)
            .collect()
    }

    /// The module doc's conditions, written from the masks.
    fn closed_form(a: Swizzle, b: Swizzle) -> Option<Swizzle> {
        if a.is_identity() {
            return Some(b);
        }
        if b.is_identity() {
            return Some(a);
        }
        if a.shift != b.shift || a.zzz_msk() & b.yyy_msk() != 0 {
            return None;
        }
        let z = a.zzz_msk() ^ b.zzz_msk();
        if z == 0 {
            return Some(Swizzle::IDENTITY);
        }
        let lsb = z.trailing_zeros();
        if (z >> lsb) & ((z >> lsb) + 1) != 0 {
            return None; // not contiguous
        }
        let base = if a.shift > 0 {
            lsb
        } else {
            lsb - a.shift.unsigned_abs()
        };
        Swizzle::try_new(z.count_ones(), base, a.shift).ok()
    }

    const DOMAIN: u32 = 1 << 12;

    fn same_fn(f: impl Fn(u32) -> u32, g: impl Fn(u32) -> u32) -> bool {
        (0..DOMAIN).all(|x| f(x) == g(x))
    }

    /// For every pair of small legal swizzles: `then` computes `second(first(x))`; it is `Single` exactly when some
    /// legal swizzle equals the sequence (brute force), which agrees with the closed form; `Composed` is a
    /// bijection on the domain and `inverse` undoes it.
    #[test]
    fn then_is_exact_on_every_small_pair() {
        let layers = legal(2, 3, 4);
        let candidates = legal(4, 8, 8);
        let (mut singles, mut composed) = (0, 0);
        for &a in &layers {
            for &b in &layers {
                let f = then(a, b);
                let seq = |x| b.apply(a.apply(x));
                assert!(same_fn(|x| f.apply(x), seq), "{a} then {b}");
                assert!(
                    same_fn(|x| f.inverse().apply(f.apply(x)), |x| x),
                    "{a} then {b}: inverse"
                );
                let brute = candidates.iter().find(|c| same_fn(|x| c.apply(x), seq));
                assert_eq!(
                    f.as_single().is_some(),
                    brute.is_some(),
                    "{a} then {b}: {f} vs {brute:?}"
                );
                match (f.as_single(), closed_form(a, b)) {
                    (Some(s), Some(c)) => {
                        assert!(same_fn(|x| s.apply(x), |x| c.apply(x)), "{a} then {b}")
                    }
                    (None, None) => {}
                    (got, want) => panic!("{a} then {b}: then gives {got:?}, closed form {want:?}"),
                }
                match f {
                    SwizzleFn::Single(_) => singles += 1,
                    SwizzleFn::Composed(c) => {
                        composed += 1;
                        let mut seen = vec![false; DOMAIN as usize];
                        for x in 0..DOMAIN {
                            let y = c.apply(x) as usize;
                            assert!(y < DOMAIN as usize && !seen[y], "{c} not a bijection");
                            seen[y] = true;
                        }
                        let p = c.period() as u32;
                        assert!(
                            (0..DOMAIN - p).all(|x| c.apply(x + p) == c.apply(x) + p),
                            "{c} period"
                        );
                    }
                }
            }
        }
        assert!(
            singles > 100 && composed > 100,
            "{singles} singles, {composed} composed"
        );
    }

    #[test]
    fn named_cases() {
        let sw = Swizzle::new(3, 3, 3);
        assert_eq!(sw.then(sw), SwizzleFn::Single(Swizzle::IDENTITY));
        // Overlapping result fields (|S| < B') are not a legal Swizzle, so they stay composed.
        assert!(matches!(
            then(Swizzle::new(1, 0, 1), Swizzle::new(1, 1, 1)),
            SwizzleFn::Composed(_)
        ));
        // second reads what first wrote: composed.
        assert!(matches!(
            then(Swizzle::new(1, 1, 1), Swizzle::new(1, 0, 1)),
            SwizzleFn::Composed(_)
        ));
        const TWO: SwizzleFn = then(Swizzle::new(3, 3, 5), Swizzle::new(3, 3, 3));
        const _: () = assert!(TWO.inverse().apply(TWO.apply(4321)) == 4321);
        assert_eq!(TWO.to_string(), "Sw<3,3,5> then Sw<3,3,3>");
    }
}
