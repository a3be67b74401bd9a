//! Whole specs in the header: a shared-memory layout as a C++ type with `offset(row, col)`, and a kernel's
//! `struct Spec { using SmemA = ...; struct Order {...}; using T = ...; static constexpr int TILE = ...; }`.
//!
//! The C++ `swz::Layout<...>` template ([`CUDA_LAYOUT`]) is the twin of [`Smem::byte_addr`]: unit and padding
//! are template arguments, so they are visible in every emitted type, and a two-layer swizzle is
//! `swz::Compose<First, Second>`. `tests/tests/header_host.rs` compiles the emitted types with the host C++
//! compiler and compares `offset(row, col)` with Rust on every legal small layout.
//!
//! ```
//! use swizzle_core::cuda::{Header, Spec};
//! use swizzle_core::raster::Raster;
//! use swizzle_core::{Elem, Smem, Swizzle};
//! let smem = Smem::row_major(64, 64, Elem::F32).with_swizzle(Swizzle::new(3, 2, 6));
//! let spec = Spec::new("Spec")
//!     .layout("Smem", smem)
//!     .order("Order", Raster::GroupM { group: 16 })
//!     .elem("T", Elem::F32)
//!     .int("TILE", 64);
//! let text = Header::new().spec(spec).render();
//! assert!(text.contains("using Smem = swz::Layout<64, 64, 4, false, swz::Swizzle<3, 2, 6>, 4, 0>;"));
//! assert!(text.contains("static constexpr int TILE = 64;"));
//! assert!(text.contains("struct Order {"));
//! ```

use super::{raster_alias, HeaderError, CPP_KEYWORDS};
use crate::compose::SwizzleFn;
use crate::pattern::Smem;
use crate::raster::Raster;
use crate::tile::Order;
use crate::units::Elem;
use crate::Swizzle;

/// The C++ text of a layout type: `swz::Layout<ROWS, COLS, ELEM_BYTES, COL_MAJOR, Swz, UNIT_BYTES, PAD_BYTES>`.
///
/// ```
/// use swizzle_core::cuda::layout_type;
/// use swizzle_core::{compose::then, Elem, Smem, Swizzle};
/// let two = Smem::row_major(16, 256, Elem::F16).with_swizzle_fn(then(Swizzle::new(3, 3, 5), Swizzle::new(1, 3, 3)));
/// assert_eq!(
///     layout_type(&two),
///     "swz::Layout<16, 256, 2, false, swz::Compose<swz::Swizzle<3, 3, 5>, swz::Swizzle<1, 3, 3>>, 2, 0>"
/// );
/// ```
pub fn layout_type(smem: &Smem) -> String {
    let t = smem.tile();
    format!(
        "swz::Layout<{}, {}, {}, {}, {}, {}, {}>",
        t.rows,
        t.cols,
        t.elem.bytes(),
        matches!(t.order, Order::ColMajor),
        swizzle_type(smem.swizzle()),
        smem.unit().bytes(),
        smem.pad_bytes()
    )
}

/// `swz::Swizzle<B, M, S>`, or `swz::Compose<swz::Swizzle<..>, swz::Swizzle<..>>` for two layers.
pub fn swizzle_type(sw: SwizzleFn) -> String {
    let one = |s: Swizzle| format!("swz::Swizzle<{}, {}, {}>", s.bits, s.base, s.shift);
    match sw {
        SwizzleFn::Single(s) => one(s),
        SwizzleFn::Composed(c) => format!("swz::Compose<{}, {}>", one(c.first), one(c.second)),
    }
}

/// One member of a [`Spec`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum Member {
    Layout(Smem),
    Order(Raster),
    /// `using NAME = <C type>;` and the header that declares it (if any).
    Type(&'static str, Option<&'static str>),
    Int(i64),
    Bool(bool),
    Pitched(Smem),
}

/// A kernel's spec as a C++ struct: named layouts, orders, element types and integer constants, rendered from
/// Rust values (see the module docs). Add it to a header with [`super::Header::spec`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    name: String,
    doc: String,
    members: Vec<(String, Member)>,
}

impl Spec {
    /// An empty spec struct called `name` (a C++ identifier, checked when added to a header).
    pub fn new(name: &str) -> Spec {
        Spec {
            name: name.to_string(),
            doc: String::new(),
            members: Vec::new(),
        }
    }

    /// A comment line above the struct (e.g. the Rust spec's `Display`).
    pub fn doc(mut self, text: impl Into<String>) -> Spec {
        self.doc = text.into();
        self
    }

    /// `using NAME = swz::Layout<...>;`: the layout's `offset(row, col)`, `byte_offset`, `BYTES`, ...
    pub fn layout(self, name: &str, smem: Smem) -> Spec {
        self.with(name, Member::Layout(smem))
    }

    /// `struct NAME { tile_of(bid, gx, gy); launch_grid(gx, gy); here(); }`: a threadblock order.
    pub fn order(self, name: &str, r: Raster) -> Spec {
        self.with(name, Member::Order(r))
    }

    /// `using NAME = <elem's C type>;` (`__half`, `__nv_bfloat16`, `float`, ...); the header includes what it
    /// needs on the device side.
    pub fn elem(self, name: &str, e: Elem) -> Spec {
        self.with(name, Member::Type(e.c_type(), e.c_include()))
    }

    /// `using NAME = <unsigned type of elem's size>;`: for kernels that only move bits.
    pub fn bits_of(self, name: &str, e: Elem) -> Spec {
        self.with(name, Member::Type(e.bits_c_type(), None))
    }

    /// `static constexpr int NAME = value;` (`long long` when it does not fit an `int`).
    pub fn int(self, name: &str, value: i64) -> Spec {
        self.with(name, Member::Int(value))
    }

    /// `static constexpr bool NAME = value;`
    pub fn flag(self, name: &str, value: bool) -> Spec {
        self.with(name, Member::Bool(value))
    }

    /// `struct NAME { using Sw = swz::Swizzle<..>; rows, cols, pitch, bytes, row_period; offset(row, col) }`: a
    /// row-major tile whose element offset is `Sw::apply(row * pitch + col)` (a padded tile, or a single swizzle
    /// on element offsets: [`pitched`]); `row_period` rows repeat the swizzle, so
    /// `offset(r + row_period * t, c) == offset(r, c) + row_period * t * pitch`.
    pub fn pitched(self, name: &str, smem: Smem) -> Spec {
        self.with(name, Member::Pitched(smem))
    }

    fn with(mut self, name: &str, m: Member) -> Spec {
        self.members.push((name.to_string(), m));
        self
    }

    /// The C++ name the header gives this spec.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Headers the members' C types need (`cuda_fp16.h`, ...).
    pub fn includes(&self) -> Vec<&'static str> {
        self.members
            .iter()
            .filter_map(|(_, m)| match m {
                Member::Type(_, Some(h)) => Some(*h),
                _ => None,
            })
            .collect()
    }

    /// Every member name is a C++ identifier and appears once; every layout is valid.
    pub fn validate(&self) -> Result<(), HeaderError> {
        for (i, (n, m)) in self.members.iter().enumerate() {
            if !is_identifier(n) {
                return Err(HeaderError::NotAnIdentifier(format!("{}::{n}", self.name)));
            }
            if self.members[..i].iter().any(|(p, _)| p == n) {
                return Err(HeaderError::Duplicate(format!("{}::{n}", self.name)));
            }
            if let Member::Order(r) = m {
                r.validate_params()
                    .map_err(|e| HeaderError::Raster(format!("{}::{n}", self.name), e))?;
            }
            if let Member::Pitched(smem) = m {
                if pitched_row_period(smem).is_none() {
                    return Err(HeaderError::NotPitched(
                        format!("{}::{n}", self.name),
                        smem.to_string(),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The C++ struct.
    pub fn render(&self) -> String {
        let mut s = String::from("\n");
        if !self.doc.is_empty() {
            s.push_str(&format!("// {}\n", self.doc.replace('\n', " ")));
        }
        s.push_str(&format!("struct {} {{\n", self.name));
        for (n, m) in &self.members {
            match m {
                Member::Layout(smem) => s.push_str(&format!(
                    "    // {smem}\n    using {n} = {};\n",
                    layout_type(smem)
                )),
                Member::Order(r) => {
                    for line in raster_alias(n, r).lines().filter(|l| !l.is_empty()) {
                        if line.starts_with('#') {
                            s.push_str(&format!("{line}\n"));
                        } else {
                            s.push_str(&format!("    {line}\n"));
                        }
                    }
                }
                Member::Type(c, None) => s.push_str(&format!("    using {n} = {c};\n")),
                Member::Type(c, Some(_)) => s.push_str(&format!(
                    "#if defined(__CUDACC__) || defined(__CUDACC_RTC__)\n    using {n} = {c};\n#endif\n"
                )),
                Member::Int(v) if i32::try_from(*v).is_ok() => {
                    s.push_str(&format!("    static constexpr int {n} = {v};\n"))
                }
                Member::Int(v) => s.push_str(&format!("    static constexpr long long {n} = {v}LL;\n")),
                Member::Bool(b) => s.push_str(&format!("    static constexpr bool {n} = {b};\n")),
                Member::Pitched(smem) => {
                    let ((sw, pitch), row_period) =
                        pitched_row_period(smem).expect("checked by validate");
                    let t = smem.tile();
                    s.push_str(&format!(
                        "    // {smem}\n    struct {n} {{\n        using Sw = swz::Swizzle<{}, {}, {}>;\n        \
                         static constexpr uint32_t rows = {}u, cols = {}u, pitch = {pitch}u, bytes = {}u, \
                         row_period = {row_period}u;\n        \
                         /// Element offset of (row, col) in the tile.\n        \
                         static SWZ_HD constexpr uint32_t offset(uint32_t r, uint32_t c) {{ return Sw::apply(r * pitch + c); }}\n    }};\n",
                        sw.bits,
                        sw.base,
                        sw.shift,
                        t.rows,
                        t.cols,
                        smem.footprint()
                    ));
                }
            }
        }
        s.push_str("};\n");
        s
    }
}

/// The element-offset swizzle of a row-major tile and its row pitch in elements, when its offset is
/// `Sw::apply(row * pitch + col)`: a padded tile (identity swizzle, pitch `cols + pad`), or one swizzle on element
/// offsets (pitch `cols`); `None` for any other layout.
///
/// ```
/// use swizzle_core::cuda::pitched;
/// use swizzle_core::{Elem, Smem, Swizzle};
/// let sw = Swizzle::new(3, 3, 3);
/// assert_eq!(pitched(&Smem::row_major(64, 64, Elem::F16).with_swizzle(sw)), Some((sw, 64)));
/// assert_eq!(pitched(&Smem::row_major(64, 32, Elem::F16).with_padding(16)), Some((Swizzle::IDENTITY, 40)));
/// ```
pub const fn pitched(s: &Smem) -> Option<(Swizzle, u32)> {
    use crate::pattern::Layout;
    let eb = s.tile().elem.bytes();
    if !matches!(s.tile().order, Order::RowMajor) {
        return None;
    }
    match s.layout() {
        Layout::Padded { pad_bytes } if pad_bytes % eb == 0 => {
            Some((Swizzle::IDENTITY, s.tile().cols + pad_bytes / eb))
        }
        Layout::Padded { .. } => None,
        Layout::Swizzled {
            swizzle: SwizzleFn::Single(sw),
            unit,
        } => {
            if sw.is_identity() || unit.log2_bytes() == eb.trailing_zeros() {
                Some((sw, s.tile().cols))
            } else {
                None
            }
        }
        Layout::Swizzled { .. } => None,
    }
}

/// [`pitched`] and the rows after which the swizzle repeats (1 when its period fits in one row); `None` when the
/// period is not a whole number of rows.
fn pitched_row_period(s: &Smem) -> Option<((Swizzle, u32), u32)> {
    let (sw, pitch) = pitched(s)?;
    let period = sw.period().min(u32::MAX as u64) as u32;
    if period <= pitch {
        Some(((sw, pitch), 1))
    } else if period.is_multiple_of(pitch) {
        Some(((sw, pitch), period / pitch))
    } else {
        None
    }
}

/// A namespace of typed compile-time constants and preprocessor macros, for a kernel that reads its numbers as
/// `ns::NAME` (`namespace spec { constexpr uint32_t BM = 128; ... }`).
///
/// ```
/// use swizzle_core::cuda::Constants;
/// let c = Constants::new("spec").doc("one variant").u32("BM", 128).define("CLUSTER_DIMS", "");
/// assert_eq!(
///     c.render(),
///     "// one variant\nnamespace spec {\nconstexpr uint32_t BM = 128;\n}  // namespace spec\n#define CLUSTER_DIMS \n"
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Constants {
    ns: String,
    doc: String,
    items: Vec<(String, u32)>,
    defines: Vec<(String, String)>,
}

impl Constants {
    /// An empty namespace `namespace` (no doc line, no constants, no macros).
    pub fn new(namespace: &str) -> Constants {
        Constants {
            ns: namespace.to_string(),
            ..Constants::default()
        }
    }

    /// A comment line above the namespace.
    pub fn doc(mut self, text: impl Into<String>) -> Constants {
        self.doc = text.into();
        self
    }

    /// `constexpr uint32_t NAME = value;`
    pub fn u32(mut self, name: &str, value: u32) -> Constants {
        self.items.push((name.to_string(), value));
        self
    }

    /// `#define NAME text` after the namespace.
    pub fn define(mut self, name: &str, text: impl Into<String>) -> Constants {
        self.defines.push((name.to_string(), text.into()));
        self
    }

    /// Every name is a C++ identifier, given once.
    pub fn validate(&self) -> Result<(), HeaderError> {
        let names: Vec<&String> = std::iter::once(&self.ns)
            .chain(self.items.iter().map(|(n, _)| n))
            .chain(self.defines.iter().map(|(n, _)| n))
            .collect();
        for (i, n) in names.iter().enumerate() {
            if !is_identifier(n) {
                return Err(HeaderError::NotAnIdentifier(n.to_string()));
            }
            if names[..i].contains(n) {
                return Err(HeaderError::Duplicate(n.to_string()));
            }
        }
        Ok(())
    }

    /// The C++ text.
    pub fn render(&self) -> String {
        let mut s = String::new();
        if !self.doc.is_empty() {
            s.push_str(&format!("// {}\n", self.doc.replace('\n', " ")));
        }
        s.push_str(&format!("namespace {} {{\n", self.ns));
        for (n, v) in &self.items {
            s.push_str(&format!("constexpr uint32_t {n} = {v};\n"));
        }
        s.push_str(&format!("}}  // namespace {}\n", self.ns));
        for (n, t) in &self.defines {
            s.push_str(&format!("#define {n} {t}\n"));
        }
        s
    }
}

/// `[A-Za-z_][A-Za-z0-9_]*` and not a C++ keyword.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !CPP_KEYWORDS.contains(&name)
}

/// The C++ twin of [`Smem::byte_addr`] and of [`crate::compose::Composed`]. Change them together;
/// `tests/tests/header_host.rs` compares them on every legal small layout.
pub const CUDA_LAYOUT: &str = r#"/// Two swizzles in sequence (swizzle_core::Composed): apply(o) = Second::apply(First::apply(o)).
template <class First, class Second>
struct Compose {
    static SWZ_HD constexpr uint32_t apply(uint32_t offset) { return Second::apply(First::apply(offset)); }
    SWZ_HD constexpr uint32_t operator()(uint32_t offset) const { return apply(offset); }
};

/// A tile in shared memory (swizzle_core::Smem): ROWS x COLS elements of ELEM_BYTES bytes, row-major (or
/// column-major: COL_MAJOR), permuted by Swz acting on offsets counted in UNIT_BYTES-byte units, PAD_BYTES of
/// padding after each line (row; column when COL_MAJOR):
///   linear = row * COLS + col              (col * ROWS + row when COL_MAJOR)
///   s      = Swz(linear * ELEM_BYTES / UNIT_BYTES) * UNIT_BYTES + the bytes inside one unit
///   byte   = s + (s / LINE_BYTES) * PAD_BYTES
template <uint32_t ROWS_, uint32_t COLS_, uint32_t ELEM_BYTES_, bool COL_MAJOR_, class Swz_, uint32_t UNIT_BYTES_,
          uint32_t PAD_BYTES_>
struct Layout {
    static constexpr uint32_t ROWS = ROWS_;
    static constexpr uint32_t COLS = COLS_;
    static constexpr uint32_t ELEM_BYTES = ELEM_BYTES_;
    static constexpr bool COL_MAJOR = COL_MAJOR_;
    using Swz = Swz_;
    /// What Swz's input counts, in bytes (ELEM_BYTES: element offsets; 1: byte addresses).
    static constexpr uint32_t UNIT_BYTES = UNIT_BYTES_;
    static constexpr uint32_t PAD_BYTES = PAD_BYTES_;
    /// Elements per line of memory order, and the line's bytes with and without padding.
    static constexpr uint32_t LINE = COL_MAJOR ? ROWS : COLS;
    static constexpr uint32_t LINE_BYTES = LINE * ELEM_BYTES;
    static constexpr uint32_t PITCH_BYTES = LINE_BYTES + PAD_BYTES;
    /// Shared memory the tile occupies, padding included.
    static constexpr uint32_t BYTES = (ROWS * COLS / LINE) * PITCH_BYTES;

    static SWZ_HD constexpr uint32_t linear(uint32_t row, uint32_t col) {
        return COL_MAJOR ? col * ROWS + row : row * COLS + col;
    }
    static SWZ_HD constexpr uint32_t byte_offset(uint32_t row, uint32_t col) {
        if constexpr (UNIT_BYTES == ELEM_BYTES && PAD_BYTES % ELEM_BYTES == 0) {
            return offset(row, col) * ELEM_BYTES;
        } else {
            const uint32_t b = linear(row, col) * ELEM_BYTES;
            const uint32_t s = Swz::apply(b / UNIT_BYTES) * UNIT_BYTES + b % UNIT_BYTES;
            return s + (s / LINE_BYTES) * PAD_BYTES;
        }
    }
    /// The element offset of (row, col): what a kernel indexes its element pointer with. The same as
    /// byte_offset / ELEM_BYTES; when the swizzle counts elements and the padding is whole elements it is
    /// computed in elements directly.
    static SWZ_HD constexpr uint32_t offset(uint32_t row, uint32_t col) {
        if constexpr (UNIT_BYTES == ELEM_BYTES && PAD_BYTES % ELEM_BYTES == 0) {
            const uint32_t s = Swz::apply(linear(row, col));
            return s + (s / LINE) * (PAD_BYTES / ELEM_BYTES);
        } else {
            return byte_offset(row, col) / ELEM_BYTES;
        }
    }
};"#;
