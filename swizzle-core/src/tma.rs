//! TMA tensor maps as `cuTensorMapEncodeTiled` receives them, checked against the [`OperandTile`] a kernel's MMA
//! reads: the swizzle mode (Hopper's four and Blackwell's 128-byte modes with 32- and 64-byte atoms), the box
//! against the swizzle span, the element size, the global strides, the interleave and the shared-memory
//! destination's alignment.
//!
//! ```
//! use swizzle_core::tma::{TmaMap, TmaSwizzle};
//! use swizzle_core::wgmma::{Major, OperandTile};
//! use swizzle_core::{ByteMode, Elem};
//! let a = OperandTile::new(ByteMode::Sw128, Elem::BF16, Major::K, 128, 64);
//! // A 4096 x 4096 bf16 row-major matrix, read in 64 x 128 boxes into a 1024-aligned buffer.
//! let map = TmaMap::tile_2d(2, [4096, 4096], 8192, [64, 128], TmaSwizzle::B128, 0x400);
//! assert_eq!(map.check(&a), Ok(()));
//! // The same map encoded with a 64-byte swizzle: the kernel reads garbage.
//! let bad = TmaMap { swizzle: TmaSwizzle::B64, ..map };
//! assert!(bad.check(&a).is_err());
//! ```

use crate::descriptor::{Operand, SmemLayout};
use crate::units::ByteMode;
use crate::wgmma::{Major, OperandTile, TMA_MAX_BOX, TMA_MIN_ALIGN};
use core::fmt;

/// `CUtensorMapSwizzle`: the values are the driver's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmaSwizzle {
    /// `CU_TENSOR_MAP_SWIZZLE_NONE` (0).
    None,
    /// `CU_TENSOR_MAP_SWIZZLE_32B` (1).
    B32,
    /// `CU_TENSOR_MAP_SWIZZLE_64B` (2).
    B64,
    /// `CU_TENSOR_MAP_SWIZZLE_128B` (3).
    B128,
    /// `CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B` (4, sm_100): 128-byte span, 32-byte atoms.
    B128Atom32,
    /// `CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B` (5, sm_100): as 4, 8-byte halves of each atom swapped.
    B128Atom32Flip8,
    /// `CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B` (6, sm_100): 128-byte span, 64-byte atoms.
    B128Atom64,
}

impl TmaSwizzle {
    /// Every mode, in driver order.
    pub const ALL: [TmaSwizzle; 7] = [
        TmaSwizzle::None,
        TmaSwizzle::B32,
        TmaSwizzle::B64,
        TmaSwizzle::B128,
        TmaSwizzle::B128Atom32,
        TmaSwizzle::B128Atom32Flip8,
        TmaSwizzle::B128Atom64,
    ];

    /// The driver's enumerator value.
    pub const fn value(self) -> u32 {
        self as u32
    }

    /// The mode of a driver value.
    pub const fn from_value(v: u32) -> Option<TmaSwizzle> {
        if v < 7 {
            Some(TmaSwizzle::ALL[v as usize])
        } else {
            None
        }
    }

    /// The driver's enumerator name.
    pub const fn cu_name(self) -> &'static str {
        match self {
            TmaSwizzle::None => "CU_TENSOR_MAP_SWIZZLE_NONE",
            TmaSwizzle::B32 => "CU_TENSOR_MAP_SWIZZLE_32B",
            TmaSwizzle::B64 => "CU_TENSOR_MAP_SWIZZLE_64B",
            TmaSwizzle::B128 => "CU_TENSOR_MAP_SWIZZLE_128B",
            TmaSwizzle::B128Atom32 => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B",
            TmaSwizzle::B128Atom32Flip8 => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B",
            TmaSwizzle::B128Atom64 => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B",
        }
    }

    /// Short name: `NONE`, `32B`, `64B`, `128B`, `128B_ATOM_32B`, `128B_ATOM_32B_FLIP_8B`, `128B_ATOM_64B`.
    pub const fn short_name(self) -> &'static str {
        let n = self.cu_name();
        // "CU_TENSOR_MAP_SWIZZLE_" is 22 bytes.
        match n.split_at_checked(22) {
            Some((_, s)) => s,
            None => n,
        }
    }

    /// Parse the short name, the driver's name, our byte-mode names (`SW128`, `SW128A32`) or the value.
    pub fn parse(s: &str) -> Option<TmaSwizzle> {
        let t = s.trim();
        if let Some(m) = TmaSwizzle::ALL
            .into_iter()
            .find(|m| m.cu_name() == t || m.short_name() == t)
        {
            return Some(m);
        }
        if t == "SW128A32" {
            return Some(TmaSwizzle::B128Atom32);
        }
        if let Some(m) = ByteMode::from_name(t).or(if t == "none" {
            Some(ByteMode::None)
        } else {
            None
        }) {
            return Some(TmaSwizzle::of_layout(SmemLayout::of_mode(m)));
        }
        if t.len() == 1 {
            return t.parse().ok().and_then(TmaSwizzle::from_value);
        }
        None
    }

    /// Bytes of the swizzle span: the most bytes a box's inner dimension may have (0: unlimited, `None`).
    pub const fn span(self) -> u32 {
        match self {
            TmaSwizzle::None => 0,
            TmaSwizzle::B32 => 32,
            TmaSwizzle::B64 => 64,
            _ => 128,
        }
    }

    /// Bytes of the unit that keeps its place inside a swizzled row (16, or 32 / 64 for the atom modes).
    pub const fn atom(self) -> u32 {
        match self {
            TmaSwizzle::B128Atom32 | TmaSwizzle::B128Atom32Flip8 => 32,
            TmaSwizzle::B128Atom64 => 64,
            _ => 16,
        }
    }

    /// The layout a descriptor reads it with, `None` for the two modes no descriptor layout names.
    pub const fn layout(self) -> Option<SmemLayout> {
        match self {
            TmaSwizzle::None => Some(SmemLayout::None),
            TmaSwizzle::B32 => Some(SmemLayout::Sw32),
            TmaSwizzle::B64 => Some(SmemLayout::Sw64),
            TmaSwizzle::B128 => Some(SmemLayout::Sw128),
            TmaSwizzle::B128Atom32 => Some(SmemLayout::Sw128Atom32),
            TmaSwizzle::B128Atom32Flip8 | TmaSwizzle::B128Atom64 => None,
        }
    }

    /// The mode that writes a descriptor layout.
    pub const fn of_layout(l: SmemLayout) -> TmaSwizzle {
        match l {
            SmemLayout::None => TmaSwizzle::None,
            SmemLayout::Sw32 => TmaSwizzle::B32,
            SmemLayout::Sw64 => TmaSwizzle::B64,
            SmemLayout::Sw128 => TmaSwizzle::B128,
            SmemLayout::Sw128Atom32 => TmaSwizzle::B128Atom32,
        }
    }

    /// Shared-memory alignment the destination needs for the swizzle to be the descriptor's: the pattern's
    /// period (1024 for the 128-byte modes), never less than TMA's 128.
    pub const fn smem_align(self) -> u32 {
        let p = match self.layout() {
            Some(l) => l.period(),
            None => 1024,
        };
        if p < TMA_MIN_ALIGN {
            TMA_MIN_ALIGN
        } else {
            p
        }
    }
}

impl fmt::Display for TmaSwizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.short_name())
    }
}

/// `CUtensorMapInterleave`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmaInterleave {
    /// `CU_TENSOR_MAP_INTERLEAVE_NONE` (0).
    None,
    /// `CU_TENSOR_MAP_INTERLEAVE_16B` (1).
    B16,
    /// `CU_TENSOR_MAP_INTERLEAVE_32B` (2).
    B32,
}

impl TmaInterleave {
    /// Parse `NONE`, `16B`, `32B`, the driver's names or values.
    pub fn parse(s: &str) -> Option<TmaInterleave> {
        let t = s.trim();
        let t = t.strip_prefix("CU_TENSOR_MAP_INTERLEAVE_").unwrap_or(t);
        match t {
            "NONE" | "none" | "0" => Some(TmaInterleave::None),
            "16B" | "1" => Some(TmaInterleave::B16),
            "32B" | "2" => Some(TmaInterleave::B32),
            _ => None,
        }
    }
}

/// The arguments of `cuTensorMapEncodeTiled` that decide the shared-memory layout, plus the destination address
/// the kernel passes to the copy. Up to 5 dimensions, dimension 0 contiguous; element strides are 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TmaMap {
    /// Bytes of one element (`CUtensorMapDataType`'s size).
    pub elem_bytes: u32,
    /// Dimensions used.
    pub rank: u32,
    /// `globalDim`, elements.
    pub dims: [u64; 5],
    /// `globalStrides` (bytes) of dimensions 1.. (`rank - 1` of them).
    pub strides: [u64; 4],
    /// `boxDim`, elements.
    pub boxes: [u32; 5],
    /// `interleave`.
    pub interleave: TmaInterleave,
    /// `swizzle`.
    pub swizzle: TmaSwizzle,
    /// The shared-memory destination's byte address.
    pub smem: u32,
}

/// How a tensor map disagrees with the operand tile the kernel reads (or breaks TMA's own rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TmaMismatch {
    /// The tile itself is not an operand.
    Spec(crate::wgmma::OperandError),
    /// The element size differs (bytes in the map, in the tile).
    ElemBytes(u32, u32),
    /// The swizzle differs from the tile's mode (mode).
    Swizzle {
        /// In the map.
        map: TmaSwizzle,
        /// The tile's.
        spec: TmaSwizzle,
    },
    /// Interleaved maps are not an operand tile's layout.
    Interleave,
    /// The inner box is wider than the swizzle span: TMA refuses the map (bytes, span).
    BoxOverSpan(u32, u32),
    /// The inner box is not one swizzled row of the tile (box vs swizzle span): elements, wanted.
    BoxInner(u32, u32),
    /// The outer box is not the tile's rows: elements, wanted.
    BoxOuter(u32, u32),
    /// The box is the other major's (major-ness).
    Major {
        /// The tile's.
        spec: Major,
    },
    /// A box dimension over 256 or 0 (which dimension).
    BoxRange(u32),
    /// A dimension past the second has a box other than 1.
    ExtraDims(u32),
    /// A global stride that is not a multiple of 16 bytes (which, its bytes).
    StrideAlign(u32, u64),
    /// The row stride is shorter than a row: rows overlap (bytes, row bytes).
    StrideShort(u64, u64),
    /// The shared-memory destination is not aligned to the swizzle's period (alignment): address, needed.
    SmemAlign(u32, u32),
    /// Rank outside 2..=5.
    Rank(u32),
}

impl TmaMismatch {
    /// The class, as a `const` message.
    pub const fn message(&self) -> &'static str {
        match self {
            TmaMismatch::Spec(e) => e.message(),
            TmaMismatch::ElemBytes(..) => "units: the map's element size is not the tile's",
            TmaMismatch::Swizzle { .. } => "mode: the map's swizzle is not the tile's",
            TmaMismatch::Interleave => {
                "interleave: an interleaved map is not an operand tile's layout"
            }
            TmaMismatch::BoxOverSpan(..) => {
                "box vs swizzle span: the inner box is wider than the swizzle span"
            }
            TmaMismatch::BoxInner(..) => {
                "box vs swizzle span: the inner box is not one swizzled row"
            }
            TmaMismatch::BoxOuter(..) => "box: the outer box is not the tile's rows",
            TmaMismatch::Major { .. } => "major-ness: the box is the other major's",
            TmaMismatch::BoxRange(_) => "box: each box dimension is 1..=256",
            TmaMismatch::ExtraDims(_) => "box: dimensions past the second must have box 1",
            TmaMismatch::StrideAlign(..) => "stride: global strides must be multiples of 16 bytes",
            TmaMismatch::StrideShort(..) => "stride: the row stride is shorter than a row",
            TmaMismatch::SmemAlign(..) => {
                "alignment: the destination is not on the swizzle pattern's period"
            }
            TmaMismatch::Rank(_) => "rank: 2 to 5 dimensions",
        }
    }
}

impl fmt::Display for TmaMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TmaMismatch::Spec(e) => write!(f, "operand: {e}"),
            TmaMismatch::ElemBytes(m, s) => {
                write!(f, "units: the map's elements are {m} bytes, the tile's {s}")
            }
            TmaMismatch::Swizzle { map, spec } => write!(
                f,
                "mode: the map swizzles {} ({}), the kernel reads the tile as {} ({}): the data lands permuted",
                map.short_name(),
                map.cu_name(),
                spec.short_name(),
                spec.cu_name()
            ),
            TmaMismatch::Interleave => f.write_str(
                "interleave: the map is interleaved; an MMA operand tile is written with INTERLEAVE_NONE",
            ),
            TmaMismatch::BoxOverSpan(b, s) => write!(
                f,
                "box vs swizzle span: the inner box is {b} bytes, over the {s}-byte swizzle span (cuTensorMapEncodeTiled refuses it)"
            ),
            TmaMismatch::BoxInner(b, w) => write!(
                f,
                "box vs swizzle span: the inner box is {b} elements, the tile's swizzled row is {w}"
            ),
            TmaMismatch::BoxOuter(b, w) => {
                write!(f, "box: the outer box is {b} rows, the tile has {w}")
            }
            TmaMismatch::Major { spec } => write!(
                f,
                "major-ness: the box is the {}-major tile's; the operand is {}-major",
                match spec {
                    Major::K => "MN",
                    Major::MN => "K",
                },
                spec.name()
            ),
            TmaMismatch::BoxRange(i) => write!(f, "box: boxDim[{i}] must be 1..={TMA_MAX_BOX}"),
            TmaMismatch::ExtraDims(i) => write!(
                f,
                "box: boxDim[{i}] must be 1 (an operand tile is 2-D)"
            ),
            TmaMismatch::StrideAlign(i, s) => write!(
                f,
                "stride: globalStrides[{i}] = {s} bytes is not a multiple of 16"
            ),
            TmaMismatch::StrideShort(s, r) => write!(
                f,
                "stride: globalStrides[0] = {s} bytes is shorter than a row of {r} bytes"
            ),
            TmaMismatch::SmemAlign(a, n) => write!(
                f,
                "alignment: the shared-memory destination {a:#x} is {} bytes past a {n}-byte boundary; the \
                 swizzle acts on absolute addresses, so align it to {n}",
                a % n
            ),
            TmaMismatch::Rank(r) => write!(f, "rank: {r} dimensions (2 to 5)"),
        }
    }
}

impl core::error::Error for TmaMismatch {}

const fn max_u32(a: u32, b: u32) -> u32 {
    if a > b {
        a
    } else {
        b
    }
}

impl TmaMap {
    /// A map of rank `dims.len()` from the lists `cuTensorMapEncodeTiled` takes: `dims` and `boxes` one per
    /// dimension, `strides` (bytes) for dimensions 1 and up; the unused dimensions are 1 (strides 0). A box past
    /// `u32` is kept as `u32::MAX`, which [`TmaMap::mismatches_operand`] refuses. Panics on more than 5 dimensions
    /// or lists of other lengths (the caller reports those with its own argument names).
    ///
    /// ```
    /// use swizzle_core::tma::{TmaInterleave, TmaMap, TmaSwizzle};
    /// let m = TmaMap::from_lists(2, &[4096, 4096], &[8192], &[64, 128], TmaInterleave::None, TmaSwizzle::B128, 0);
    /// assert_eq!((m.rank, m.boxes), (2, [64, 128, 1, 1, 1]));
    /// ```
    pub fn from_lists(
        elem_bytes: u32,
        dims: &[u64],
        strides: &[u64],
        boxes: &[u64],
        interleave: TmaInterleave,
        swizzle: TmaSwizzle,
        smem: u32,
    ) -> TmaMap {
        let rank = dims.len();
        assert!(
            (1..=5).contains(&rank) && boxes.len() == rank && strides.len() + 1 == rank,
            "TmaMap::from_lists: {rank} dims, {} boxes, {} strides",
            boxes.len(),
            strides.len()
        );
        let mut map = TmaMap {
            elem_bytes,
            rank: rank as u32,
            dims: [1; 5],
            strides: [0; 4],
            boxes: [1; 5],
            interleave,
            swizzle,
            smem,
        };
        map.dims[..rank].copy_from_slice(dims);
        map.strides[..rank - 1].copy_from_slice(strides);
        for (b, &v) in map.boxes.iter_mut().zip(boxes) {
            *b = u32::try_from(v).unwrap_or(u32::MAX);
        }
        map
    }

    /// A 2-D map: `dims` (contiguous first), the row stride in bytes, the box, the swizzle, the destination.
    pub const fn tile_2d(
        elem_bytes: u32,
        dims: [u64; 2],
        row_stride: u64,
        boxes: [u32; 2],
        swizzle: TmaSwizzle,
        smem: u32,
    ) -> TmaMap {
        TmaMap {
            elem_bytes,
            rank: 2,
            dims: [dims[0], dims[1], 1, 1, 1],
            strides: [row_stride, 0, 0, 0],
            boxes: [boxes[0], boxes[1], 1, 1, 1],
            interleave: TmaInterleave::None,
            swizzle,
            smem,
        }
    }

    /// The map the tile's spec derives for a `dims[0] x dims[1]` global matrix (contiguous first) with rows
    /// `row_stride` bytes apart, landing at `smem`.
    pub const fn of_tile(tile: &OperandTile, dims: [u64; 2], row_stride: u64, smem: u32) -> TmaMap {
        let p = tile.params();
        TmaMap::tile_2d(
            tile.elem.bytes(),
            dims,
            row_stride,
            [p.box_inner, p.box_outer],
            TmaSwizzle::of_layout(SmemLayout::of_mode(tile.mode)),
            smem,
        )
    }

    /// The first disagreement with `tile` from check index `from` on (see [`TmaMap::check`]).
    pub const fn mismatch(&self, tile: &OperandTile, from: u32) -> Result<(), (u32, TmaMismatch)> {
        self.mismatch_operand(&Operand::of(*tile), from)
    }

    /// [`TmaMap::mismatch`] for an [`Operand`] (any layout, the 32-byte atoms included).
    pub const fn mismatch_operand(
        &self,
        op: &Operand,
        from: u32,
    ) -> Result<(), (u32, TmaMismatch)> {
        let tile = &op.tile;
        if let Err(e) = op.validate(crate::descriptor::Arch::Sm100) {
            return Err((0, TmaMismatch::Spec(e)));
        }
        let mut p = tile.params();
        // The destination is read through the operand's layout.
        p.smem_align = max_u32(op.layout.period(), TMA_MIN_ALIGN);
        let eb = tile.elem.bytes();
        let want = TmaSwizzle::of_layout(op.layout);
        let mut i = from;
        let n = 12 + 2 * 5 + 4;
        while i < n {
            let e = match i {
                1 if self.rank < 2 || self.rank > 5 => Some(TmaMismatch::Rank(self.rank)),
                2 if self.elem_bytes != eb => Some(TmaMismatch::ElemBytes(self.elem_bytes, eb)),
                3 if self.swizzle as u32 != want as u32 => Some(TmaMismatch::Swizzle {
                    map: self.swizzle,
                    spec: want,
                }),
                4 if !matches!(self.interleave, TmaInterleave::None) => {
                    Some(TmaMismatch::Interleave)
                }
                5 if self.swizzle.span() != 0
                    && self.boxes[0].saturating_mul(self.elem_bytes) > self.swizzle.span() =>
                {
                    Some(TmaMismatch::BoxOverSpan(
                        self.boxes[0].saturating_mul(self.elem_bytes),
                        self.swizzle.span(),
                    ))
                }
                6 if self.boxes[0] != p.box_inner => {
                    Some(TmaMismatch::BoxInner(self.boxes[0], p.box_inner))
                }
                7 if self.boxes[1] != p.box_outer => {
                    let other = OperandTile {
                        major: match tile.major {
                            Major::K => Major::MN,
                            Major::MN => Major::K,
                        },
                        ..*tile
                    };
                    if other.validate_layout().is_ok()
                        && self.boxes[0] == other.params().box_inner
                        && self.boxes[1] == other.params().box_outer
                    {
                        Some(TmaMismatch::Major { spec: tile.major })
                    } else {
                        Some(TmaMismatch::BoxOuter(self.boxes[1], p.box_outer))
                    }
                }
                // The destination is read through the tile's swizzle and written through the map's.
                8 if !self
                    .smem
                    .is_multiple_of(max_u32(self.swizzle.smem_align(), p.smem_align)) =>
                {
                    Some(TmaMismatch::SmemAlign(
                        self.smem,
                        max_u32(self.swizzle.smem_align(), p.smem_align),
                    ))
                }
                9 if self.rank >= 2
                    && self.strides[0] < self.dims[0].saturating_mul(self.elem_bytes as u64) =>
                {
                    Some(TmaMismatch::StrideShort(
                        self.strides[0],
                        self.dims[0].saturating_mul(self.elem_bytes as u64),
                    ))
                }
                // 12..22: each box dimension in range; 22..26: each stride 16-byte aligned; 10, 11 spare.
                j if j >= 12 && j < 17 && (j - 12) < self.rank => {
                    let b = self.boxes[(j - 12) as usize];
                    if b == 0 || b > TMA_MAX_BOX {
                        Some(TmaMismatch::BoxRange(j - 12))
                    } else {
                        None
                    }
                }
                j if j >= 17 && j < 22 && (j - 17) >= 2 && (j - 17) < self.rank => {
                    if self.boxes[(j - 17) as usize] != 1 {
                        Some(TmaMismatch::ExtraDims(j - 17))
                    } else {
                        None
                    }
                }
                j if j >= 22 && j < 26 && (j - 22) + 1 < self.rank => {
                    let s = self.strides[(j - 22) as usize];
                    if !s.is_multiple_of(16) {
                        Some(TmaMismatch::StrideAlign(j - 22, s))
                    } else {
                        None
                    }
                }
                _ => None,
            };
            if let Some(e) = e {
                return Err((i, e));
            }
            i += 1;
        }
        Ok(())
    }

    /// `Ok` when TMA writes `tile` exactly as the kernel's MMA reads it; otherwise the first disagreement.
    pub const fn check(&self, tile: &OperandTile) -> Result<(), TmaMismatch> {
        self.check_operand(&Operand::of(*tile))
    }

    /// [`TmaMap::check`] for an [`Operand`].
    pub const fn check_operand(&self, op: &Operand) -> Result<(), TmaMismatch> {
        match self.mismatch_operand(op, 0) {
            Ok(()) => Ok(()),
            Err((_, e)) => Err(e),
        }
    }

    /// Every disagreement, in check order.
    #[cfg(feature = "std")]
    pub fn mismatches(&self, tile: &OperandTile) -> Vec<TmaMismatch> {
        self.mismatches_operand(&Operand::of(*tile))
    }

    /// Every disagreement with an [`Operand`], in check order.
    #[cfg(feature = "std")]
    pub fn mismatches_operand(&self, op: &Operand) -> Vec<TmaMismatch> {
        let mut v = Vec::new();
        let mut from = 0;
        while let Err((i, e)) = self.mismatch_operand(op, from) {
            v.push(e);
            if matches!(e, TmaMismatch::Spec(_)) {
                break;
            }
            from = i + 1;
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Elem;

    #[test]
    fn values_and_names() {
        for (i, m) in TmaSwizzle::ALL.into_iter().enumerate() {
            assert_eq!(m.value(), i as u32);
            assert_eq!(TmaSwizzle::parse(m.cu_name()), Some(m));
            assert_eq!(TmaSwizzle::parse(m.short_name()), Some(m));
        }
        for b in ByteMode::ALL {
            // Our byte modes are the driver's first four values.
            assert_eq!(
                TmaSwizzle::of_layout(SmemLayout::of_mode(b)).value(),
                b as u32
            );
        }
        assert_eq!(TmaSwizzle::parse("SW128"), Some(TmaSwizzle::B128));
        assert_eq!(TmaSwizzle::B128Atom32.atom(), 32);
        assert_eq!(TmaSwizzle::B128Atom64.span(), 128);
    }

    #[test]
    fn derived_maps_pass_every_tile() {
        for mode in ByteMode::ALL {
            for elem in [Elem::BF16, Elem::E4M3, Elem::TF32] {
                for major in [Major::K, Major::MN] {
                    for (mn, k) in [(64, 64), (128, 128), (256, 64), (8, 32)] {
                        let t = OperandTile::new(mode, elem, major, mn, k);
                        if t.validate_layout().is_err() {
                            continue;
                        }
                        let m = TmaMap::of_tile(&t, [4096, 4096], 4096 * elem.bytes() as u64, 4096);
                        assert_eq!(m.check(&t), Ok(()), "{t}");
                    }
                }
            }
        }
    }
}
