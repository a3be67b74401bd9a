//! Units: what a swizzle's input counts, made explicit.
//!
//! A [`Swizzle`] is a function on integers; whether those integers are *element offsets* (f16 element 0, 1, 2, ...)
//! or *byte addresses* is not part of its three numbers. CuTe leaves this implicit; we name it with [`Unit`] and
//! carry it in [`SwizzleIn`]. Changing units only moves the base `M`, because a swizzle never touches its low `M`
//! bits (CuTe's `upcast` / `downcast` of a `Swizzle`):
//!
//! ```text
//!   elements -> bytes  (CuTe downcast<N>):  Sw<B, M, S>  ->  Sw<B, M + log2(N), S>            always exact
//!   bytes -> elements  (CuTe upcast<N>):    Sw<B, M, S>  ->  Sw<B, M - log2(N), S>            if M >= log2(N)
//!                                           Sw<B, M, S>  ->  Sw<max(B + M - log2(N), 0), 0, S> otherwise (lossy)
//! ```
//! The lossy case: when `M < log2(N)` the byte swizzle XORs some bits *inside* one element (its low `log2(N) - M`
//! ZZZ bits), which element offsets cannot express. CuTe drops those low ZZZ bits together with the YYY bits that
//! feed them (B shrinks by the deficit, the top bits of both fields stay paired, S is unchanged). We follow that
//! rule in [`Swizzle::upcast`], and refuse it in [`Swizzle::to_elems`], which only converts exactly.
//!
//! The TMA / CuTe byte modes ([`ByteMode`]) are defined on byte addresses with `M = 4` (16-byte chunks move as one),
//! so they convert exactly to every [`Elem`] (all are at most 16 bytes).

use crate::rules::{self, RuleError};
use crate::swizzle::Swizzle;
use core::fmt;

pub mod names;

/// An element type: a name and a power-of-two size in bytes (1 to 16).
///
/// ```
/// use swizzle_spec::units::Elem;
/// assert_eq!(Elem::F16.bytes(), 2);
/// assert_eq!(Elem::from_name("bf16"), Some(Elem::BF16));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Elem {
    name: &'static str,
    log2_bytes: u32,
}

impl Elem {
    pub const B8: Elem = Elem::named("b8");
    pub const U8: Elem = Elem::named("u8");
    pub const I8: Elem = Elem::named("i8");
    pub const E4M3: Elem = Elem::named("e4m3");
    pub const E5M2: Elem = Elem::named("e5m2");
    pub const F16: Elem = Elem::named("f16");
    pub const BF16: Elem = Elem::named("bf16");
    pub const B16: Elem = Elem::named("b16");
    pub const U16: Elem = Elem::named("u16");
    pub const I16: Elem = Elem::named("i16");
    pub const F32: Elem = Elem::named("f32");
    pub const TF32: Elem = Elem::named("tf32");
    pub const B32: Elem = Elem::named("b32");
    pub const U32: Elem = Elem::named("u32");
    pub const I32: Elem = Elem::named("i32");
    pub const F64: Elem = Elem::named("f64");
    pub const B64: Elem = Elem::named("b64");
    pub const U64: Elem = Elem::named("u64");
    pub const I64: Elem = Elem::named("i64");
    /// A 16-byte vector (`uint4`, one 16-byte chunk).
    pub const B128: Elem = Elem::named("b128");

    /// Every named element type ([`names::ELEMS`]), in size order.
    pub const ALL: [Elem; names::ELEMS.len()] = {
        let mut all = [Elem {
            name: "",
            log2_bytes: 0,
        }; names::ELEMS.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = Elem {
                name: names::ELEMS[i].0,
                log2_bytes: names::ELEMS[i].1,
            };
            i += 1;
        }
        all
    };

    /// The element type called `name` in [`names::ELEMS`]; panics (a compile error in `const`) if there is none.
    /// The `swizzle!` macro expands `unit = f16` to `Elem::named("f16")`.
    pub const fn named(name: &str) -> Elem {
        let mut i = 0;
        while i < names::ELEMS.len() {
            if names::str_eq(names::ELEMS[i].0, name) {
                return Elem {
                    name: names::ELEMS[i].0,
                    log2_bytes: names::ELEMS[i].1,
                };
            }
            i += 1;
        }
        panic!("unknown element type name")
    }

    /// Size in bytes.
    pub const fn bytes(self) -> u32 {
        1 << self.log2_bytes
    }

    /// `log2(bytes)`: how far `M` moves when converting to or from bytes.
    pub const fn log2_bytes(self) -> u32 {
        self.log2_bytes
    }

    /// The name used by the CLI and the `swizzle!` macro (`"f16"`).
    pub const fn name(self) -> &'static str {
        self.name
    }

    /// Look up a name from [`Elem::ALL`] (`"f16"`, `"bf16"`, `"f32"`, ...).
    pub fn from_name(name: &str) -> Option<Elem> {
        Elem::ALL.into_iter().find(|e| e.name == name)
    }

    /// [`Elem::from_name`], also accepting the aliases users type: `fp32`, `fp16`, `fp64`, `fp8e4m3`,
    /// `fp8e5m2`, `half`, `float`, `double`, `int` (the CLI's `--elem`).
    ///
    /// ```
    /// use swizzle_spec::Elem;
    /// assert_eq!(Elem::parse("fp16"), Some(Elem::F16));
    /// assert_eq!(Elem::parse("f16"), Some(Elem::F16));
    /// assert_eq!(Elem::parse("fp17"), None);
    /// ```
    pub fn parse(name: &str) -> Option<Elem> {
        let canonical = match name {
            "fp32" | "float" => "f32",
            "fp16" | "half" => "f16",
            "fp64" | "double" => "f64",
            "fp8e4m3" => "e4m3",
            "fp8e5m2" => "e5m2",
            "int" => "i32",
            other => other,
        };
        Elem::from_name(canonical)
    }

    /// The CUDA C++ type a kernel computes with: `float`, `__half`, `__nv_bfloat16`, `int`, ... (`__half` and
    /// friends need [`Elem::c_include`]; `tf32` is stored as `float`; `b128` is `uint4`).
    pub const fn c_type(self) -> &'static str {
        let i = self.index();
        names::C_TYPES[i].0
    }

    /// The toolkit header that declares [`Elem::c_type`] (`cuda_fp16.h`, `cuda_bf16.h`, `cuda_fp8.h`), if any.
    /// NVRTC finds it with the toolkit's include directory on its path (the gpu-kernels runtime adds
    /// `/usr/local/cuda/include` when it exists).
    pub const fn c_include(self) -> Option<&'static str> {
        let h = names::C_TYPES[self.index()].1;
        if h.is_empty() {
            None
        } else {
            Some(h)
        }
    }

    /// An unsigned integer C type of the same size (`unsigned short` for f16/bf16): for kernels that only move
    /// bits (a transpose), which then need no toolkit header.
    pub const fn bits_c_type(self) -> &'static str {
        match self.log2_bytes {
            0 => "unsigned char",
            1 => "unsigned short",
            2 => "unsigned int",
            3 => "unsigned long long",
            _ => "uint4",
        }
    }

    /// The type sums of this element are kept in: f32 for every float up to 32 bits (f16, bf16, tf32, fp8),
    /// f64 for f64, i32 for the signed integers up to 32 bits, u32 for the unsigned ones and bit types, else the
    /// type itself.
    ///
    /// ```
    /// use swizzle_spec::Elem;
    /// assert_eq!(Elem::BF16.accumulator(), Elem::F32);
    /// assert_eq!(Elem::I8.accumulator(), Elem::I32);
    /// assert_eq!(Elem::F64.accumulator(), Elem::F64);
    /// ```
    pub const fn accumulator(self) -> Elem {
        Elem::named(names::C_TYPES[self.index()].2)
    }

    /// Position in [`names::ELEMS`].
    const fn index(self) -> usize {
        let mut i = 0;
        while i < names::ELEMS.len() {
            if names::str_eq(names::ELEMS[i].0, self.name) {
                return i;
            }
            i += 1;
        }
        panic!("element type not in names::ELEMS")
    }
}

impl fmt::Display for Elem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// What the integers a swizzle acts on count: byte addresses, or offsets of elements of one type.
///
/// `Unit::Bytes` and `Unit::Elems(Elem::B8)` convert identically; they differ only in what they print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    Bytes,
    Elems(Elem),
}

impl Unit {
    /// Bytes per counted unit.
    pub const fn bytes(self) -> u32 {
        1 << self.log2_bytes()
    }

    pub const fn log2_bytes(self) -> u32 {
        match self {
            Unit::Bytes => 0,
            Unit::Elems(e) => e.log2_bytes(),
        }
    }

    /// `"bytes"` (also `"byte"`) or an [`Elem`] name.
    pub fn from_name(name: &str) -> Option<Unit> {
        if name == names::BYTES || name == "byte" {
            return Some(Unit::Bytes);
        }
        Elem::from_name(name).map(Unit::Elems)
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Bytes => f.write_str(names::BYTES),
            Unit::Elems(e) => write!(f, "{e}"),
        }
    }
}

/// Why a swizzle cannot be moved to another unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitError {
    /// `M < log2(bytes)`: the byte swizzle permutes bytes inside one element, which element offsets cannot say.
    SplitsElements { swizzle: Swizzle, elem_bytes: u32 },
    /// The converted swizzle breaks a rule (in practice: `B + M + |S|` would pass 32 bits).
    Rule(RuleError),
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitError::SplitsElements { swizzle, elem_bytes } => write!(
                f,
                "{swizzle} on bytes moves data inside {elem_bytes}-byte elements (M={} < log2({elem_bytes})), \
                 so it has no exact form on element offsets",
                swizzle.base
            ),
            UnitError::Rule(e) => write!(f, "{e}"),
        }
    }
}

impl core::error::Error for UnitError {}

impl Swizzle {
    /// CuTe's `downcast<2^log2_n>`: each unit becomes `2^log2_n` smaller units, `M += log2_n`. Exact; fails only
    /// when the result would not fit in 32 bits.
    pub const fn downcast(self, log2_n: u32) -> Result<Swizzle, UnitError> {
        let base = self.base.saturating_add(log2_n);
        match rules::validate(self.bits, base, self.shift) {
            Ok(()) => Ok(Swizzle {
                bits: self.bits,
                base,
                shift: self.shift,
            }),
            Err(e) => Err(UnitError::Rule(e)),
        }
    }

    /// CuTe's `upcast<2^log2_n>`, exactly, including its lossy case: `M -= log2_n`, or when that goes negative
    /// `Sw<max(B + M - log2_n, 0), 0, S>` (the low ZZZ bits, which fall inside one new unit, are dropped).
    ///
    /// ```
    /// use swizzle_spec::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3).upcast(1), Swizzle::new(3, 3, 3)); // SW128 bytes -> f16
    /// assert_eq!(Swizzle::new(3, 1, 3).upcast(2), Swizzle::new(2, 0, 3)); // lossy: one ZZZ bit was in-element
    /// ```
    pub const fn upcast(self, log2_n: u32) -> Swizzle {
        if self.base >= log2_n {
            Swizzle {
                bits: self.bits,
                base: self.base - log2_n,
                shift: self.shift,
            }
        } else {
            let deficit = log2_n - self.base;
            let bits = self.bits.saturating_sub(deficit);
            Swizzle {
                bits,
                base: 0,
                shift: self.shift,
            }
        }
    }

    /// Element offsets of `elem` -> byte addresses (`M += log2(elem bytes)`).
    ///
    /// ```
    /// use swizzle_spec::{Swizzle, units::Elem};
    /// assert_eq!(Swizzle::new(3, 3, 3).to_bytes(Elem::F16), Ok(Swizzle::new(3, 4, 3)));
    /// ```
    pub const fn to_bytes(self, elem: Elem) -> Result<Swizzle, UnitError> {
        self.downcast(elem.log2_bytes())
    }

    /// Byte addresses -> element offsets of `elem` (`M -= log2(elem bytes)`), only when exact
    /// (`M >= log2(elem bytes)`); see [`Swizzle::upcast`] for CuTe's lossy rule.
    pub const fn to_elems(self, elem: Elem) -> Result<Swizzle, UnitError> {
        if self.bits != 0 && self.base < elem.log2_bytes() {
            return Err(UnitError::SplitsElements {
                swizzle: self,
                elem_bytes: elem.bytes(),
            });
        }
        Ok(self.upcast(elem.log2_bytes()))
    }
}

/// A swizzle together with the unit of the integers it acts on.
///
/// ```
/// use swizzle_spec::units::{ByteMode, Elem, SwizzleIn, Unit};
/// let on_bytes = ByteMode::Sw128.swizzle_in();
/// let on_f16 = on_bytes.to_unit(Unit::Elems(Elem::F16)).unwrap();
/// assert_eq!(on_f16.to_string(), "Sw<3,3,3> on f16");
/// // Same permutation of memory: f16 element 64 lands where byte 128 lands, halved.
/// assert_eq!(on_f16.apply(64) * 2, on_bytes.apply(128));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SwizzleIn {
    pub swizzle: Swizzle,
    pub unit: Unit,
}

impl SwizzleIn {
    pub const fn new(swizzle: Swizzle, unit: Unit) -> SwizzleIn {
        SwizzleIn { swizzle, unit }
    }

    /// Apply to an offset counted in `self.unit`.
    pub const fn apply(&self, offset: u32) -> u32 {
        self.swizzle.apply(offset)
    }

    /// The same permutation of memory on byte addresses. Exact.
    pub const fn to_bytes(self) -> Result<SwizzleIn, UnitError> {
        match self.swizzle.downcast(self.unit.log2_bytes()) {
            Ok(swizzle) => Ok(SwizzleIn {
                swizzle,
                unit: Unit::Bytes,
            }),
            Err(e) => Err(e),
        }
    }

    /// The same permutation of memory counted in `unit`; errors when it is not expressible there exactly.
    pub const fn to_unit(self, unit: Unit) -> Result<SwizzleIn, UnitError> {
        let bytes = match self.to_bytes() {
            Ok(b) => b.swizzle,
            Err(e) => return Err(e),
        };
        let to = unit.log2_bytes();
        if bytes.bits != 0 && bytes.base < to {
            // Report the element size we were asked for.
            return Err(UnitError::SplitsElements {
                swizzle: bytes,
                elem_bytes: 1 << to,
            });
        }
        Ok(SwizzleIn {
            swizzle: bytes.upcast(to),
            unit,
        })
    }
}

impl fmt::Display for SwizzleIn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} on {}", self.swizzle, self.unit)
    }
}

/// The named byte swizzles of TMA (`CUtensorMapSwizzle`), CuTe's GMMA layouts and ThunderKittens.
///
/// | mode    | on bytes    | swizzled row | period = alignment | CUDA name                      |
/// |---------|-------------|--------------|--------------------|--------------------------------|
/// | `None`  | `Sw<0,4,3>` | -            | 16                 | `CU_TENSOR_MAP_SWIZZLE_NONE`   |
/// | `Sw32`  | `Sw<1,4,3>` | 32 bytes     | 256                | `CU_TENSOR_MAP_SWIZZLE_32B`    |
/// | `Sw64`  | `Sw<2,4,3>` | 64 bytes     | 512                | `CU_TENSOR_MAP_SWIZZLE_64B`    |
/// | `Sw128` | `Sw<3,4,3>` | 128 bytes    | 1024               | `CU_TENSOR_MAP_SWIZZLE_128B`   |
///
/// All move 16-byte chunks (`M = 4`); the 16-byte chunk index within a 128-byte line is XORed with the line
/// index mod 2/4/8. The hardware swizzles *addresses*, so a buffer must start at a multiple of the period for
/// offset-based indexing (ours) to agree with it: that is [`ByteMode::alignment`]. `None` needs no more than the
/// 16-byte chunk alignment (TMA itself has its own, larger minimum for destinations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ByteMode {
    // Declared in the order of `names::MODES`; the discriminants are the `CUtensorMapSwizzle` values (0..=3).
    None,
    Sw32,
    Sw64,
    Sw128,
}

impl ByteMode {
    pub const ALL: [ByteMode; 4] = [
        ByteMode::None,
        ByteMode::Sw32,
        ByteMode::Sw64,
        ByteMode::Sw128,
    ];

    /// The swizzle on byte addresses: `Sw<B, 4, 3>` with `B` from [`names::MODES`].
    pub const fn swizzle(self) -> Swizzle {
        Swizzle::new(
            names::MODES[self as usize].1,
            names::MODE_BASE,
            names::MODE_SHIFT,
        )
    }

    /// The mode called `name` ([`ByteMode::name`]); panics (a compile error in `const`) if there is none.
    /// The `swizzle!` macro expands `SW128` to `ByteMode::named("SW128")`.
    pub const fn named(name: &str) -> ByteMode {
        let mut i = 0;
        while i < ByteMode::ALL.len() {
            if names::str_eq(ByteMode::ALL[i].name(), name) {
                return ByteMode::ALL[i];
            }
            i += 1;
        }
        panic!("unknown byte mode name")
    }

    /// [`ByteMode::swizzle`] tagged with [`Unit::Bytes`].
    pub const fn swizzle_in(self) -> SwizzleIn {
        SwizzleIn::new(self.swizzle(), Unit::Bytes)
    }

    /// The swizzle on offsets counted in `unit`. Always exact (`M = 4` and every unit is at most 16 bytes).
    ///
    /// ```
    /// use swizzle_spec::{Swizzle, units::{ByteMode, Elem, Unit}};
    /// const SW: Swizzle = ByteMode::Sw128.swizzle_for(Unit::Elems(Elem::F16));
    /// assert_eq!(SW, Swizzle::new(3, 3, 3));
    /// ```
    pub const fn swizzle_for(self, unit: Unit) -> Swizzle {
        self.swizzle().upcast(unit.log2_bytes())
    }

    /// Width in bytes of the swizzled row (TMA's "swizzle size"); 0 for `None`.
    pub const fn swizzle_bytes(self) -> u32 {
        match self {
            ByteMode::None => 0,
            ByteMode::Sw32 => 32,
            ByteMode::Sw64 => 64,
            ByteMode::Sw128 => 128,
        }
    }

    /// Base-address alignment in bytes the pattern needs: its period (16 for `None`).
    pub const fn alignment(self) -> u32 {
        match self {
            ByteMode::None => 16,
            _ => self.swizzle().period() as u32,
        }
    }

    /// The `CUtensorMapSwizzle` enumerator.
    pub const fn cu_name(self) -> &'static str {
        match self {
            ByteMode::None => "CU_TENSOR_MAP_SWIZZLE_NONE",
            ByteMode::Sw32 => "CU_TENSOR_MAP_SWIZZLE_32B",
            ByteMode::Sw64 => "CU_TENSOR_MAP_SWIZZLE_64B",
            ByteMode::Sw128 => "CU_TENSOR_MAP_SWIZZLE_128B",
        }
    }

    /// Our short name, as the `swizzle!` macro and the CLI spell it: `NONE`, `SW32`, `SW64`, `SW128`.
    pub const fn name(self) -> &'static str {
        names::MODES[self as usize].0
    }

    /// Parse [`ByteMode::name`] or [`ByteMode::cu_name`].
    pub fn from_name(name: &str) -> Option<ByteMode> {
        ByteMode::ALL
            .into_iter()
            .find(|m| m.name() == name || m.cu_name() == name)
    }

    /// The mode whose byte swizzle is exactly `sw` (any identity counts as `None`).
    pub const fn from_swizzle(sw: Swizzle) -> Option<ByteMode> {
        if sw.is_identity() {
            return Some(ByteMode::None);
        }
        if sw.base != names::MODE_BASE || sw.shift != names::MODE_SHIFT {
            return None;
        }
        let mut i = 1;
        while i < ByteMode::ALL.len() {
            if names::MODES[i].1 == sw.bits {
                return Some(ByteMode::ALL[i]);
            }
            i += 1;
        }
        None
    }
}

impl fmt::Display for ByteMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legal_small() -> impl Iterator<Item = Swizzle> {
        Swizzle::all_legal(3, 6, 6)
    }

    /// Converting to bytes and back is the identity, and both forms permute memory identically: element `e`
    /// (bytes `e*n .. e*n+n`) goes where its bytes go.
    #[test]
    fn elems_bytes_round_trip_and_agree() {
        for sw in legal_small() {
            for elem in [Elem::B8, Elem::F16, Elem::F32, Elem::F64, Elem::B128] {
                let n = elem.bytes();
                let bytes = sw.to_bytes(elem).unwrap();
                assert_eq!(bytes.to_elems(elem), Ok(sw), "{sw} via bytes of {elem}");
                for e in 0..2048u32 {
                    for k in 0..n {
                        assert_eq!(
                            bytes.apply(e * n + k),
                            sw.apply(e) * n + k,
                            "{sw} {elem} at {e}+{k}"
                        );
                    }
                }
            }
        }
    }

    /// `to_elems` refuses exactly the lossy cases, and `upcast` there follows CuTe: on element-aligned byte
    /// addresses it agrees with the byte swizzle once the in-element bits are masked off.
    #[test]
    fn lossy_upcast_follows_cute() {
        for sw in legal_small() {
            for elem in [Elem::F16, Elem::F32, Elem::F64] {
                let l = elem.log2_bytes();
                let up = sw.upcast(l);
                assert!(
                    Swizzle::try_new(up.bits, up.base, up.shift).is_ok(),
                    "{sw} -> {up}"
                );
                let exact = sw.is_identity() || sw.base >= l;
                assert_eq!(sw.to_elems(elem).is_ok(), exact, "{sw} {elem}");
                let low = (1u32 << l) - 1;
                for e in 0..4096u32 {
                    assert_eq!(
                        up.apply(e),
                        (sw.apply(e << l) & !low) >> l,
                        "{sw} upcast {l} at {e}"
                    );
                }
            }
        }
    }

    #[test]
    fn byte_modes() {
        assert_eq!(ByteMode::Sw32.swizzle(), Swizzle::new(1, 4, 3));
        assert_eq!(ByteMode::Sw64.swizzle(), Swizzle::new(2, 4, 3));
        assert_eq!(ByteMode::Sw128.swizzle(), Swizzle::new(3, 4, 3));
        assert_eq!(ByteMode::Sw32.alignment(), 256);
        assert_eq!(ByteMode::Sw64.alignment(), 512);
        assert_eq!(ByteMode::Sw128.alignment(), 1024);
        assert_eq!(
            ByteMode::Sw128.swizzle_for(Unit::Elems(Elem::F16)),
            Swizzle::new(3, 3, 3)
        );
        assert_eq!(
            ByteMode::Sw64.swizzle_for(Unit::Elems(Elem::F32)),
            Swizzle::new(2, 2, 3)
        );
        for m in ByteMode::ALL {
            assert_eq!(ByteMode::from_name(m.name()), Some(m));
            assert_eq!(ByteMode::from_name(m.cu_name()), Some(m));
            assert_eq!(ByteMode::from_swizzle(m.swizzle()), Some(m));
            for elem in Elem::ALL {
                let unit = Unit::Elems(elem);
                let direct = m.swizzle_for(unit);
                assert_eq!(m.swizzle_in().to_unit(unit).unwrap().swizzle, direct);
                assert_eq!(direct.to_bytes(elem), Ok(m.swizzle()), "{m} {elem}");
            }
        }
        assert_eq!(ByteMode::from_swizzle(Swizzle::new(3, 3, 3)), None);
    }

    #[test]
    fn names_round_trip() {
        for e in Elem::ALL {
            assert_eq!(Elem::from_name(e.name()), Some(e));
            assert_eq!(
                Unit::from_name(&Unit::Elems(e).to_string()),
                Some(Unit::Elems(e))
            );
        }
        assert_eq!(Unit::from_name("bytes"), Some(Unit::Bytes));
        assert_eq!(Elem::from_name("f17"), None);
    }

    #[test]
    fn unit_errors() {
        let e = Swizzle::new(3, 1, 3).to_elems(Elem::F32).unwrap_err();
        assert!(e.to_string().contains("inside 4-byte elements"), "{e}");
        assert!(matches!(
            Swizzle::new(3, 26, 3).to_bytes(Elem::F64),
            Err(UnitError::Rule(_))
        ));
        let sw = SwizzleIn::new(Swizzle::new(2, 0, 2), Unit::Elems(Elem::F16));
        assert_eq!(sw.to_bytes().unwrap().swizzle, Swizzle::new(2, 1, 2));
        assert!(sw.to_unit(Unit::Elems(Elem::F32)).is_err());
        assert_eq!(
            sw.to_unit(Unit::Elems(Elem::U8)).unwrap().swizzle,
            Swizzle::new(2, 1, 2)
        );
    }
}
