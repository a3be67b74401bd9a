//! Layouts and the bank checker: `Smem`, `check` (what `swz check` prints and decides), `wavefronts` (one warp
//! instruction, `swz wavefronts`) and `synth` (`swz synth`).
use crate::args::{self, err_in, uint, SwizzleError};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use swizzle_core::bank::{self, map, Op};
use swizzle_core::pattern::{Layout, Pattern, Smem, TileReport};
use swizzle_core::spelling::SwizzleSpelling;
use swizzle_core::synth::{synthesize, Answer, Synthesis};
use swizzle_core::tile::{Order, Tile};
use swizzle_core::{ByteMode, Composed, Elem, Swizzle, SwizzleFn, Unit};

/// A tile in shared memory: `rows x cols` elements of `elem`, row-major (or column-major), swizzled or padded.
///
/// `swizzle` acts on element offsets of `elem` unless it is a byte mode (`"SW128"`, on bytes) or `unit` says
/// otherwise; `pad` adds bytes after each row instead. `Smem.parse("64x64:f16:3,3,3")` reads the spelling of
/// `swz emit-header --layout`.
#[pyclass(name = "Smem", module = "swz", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PySmem(pub Smem);

/// The layout a swizzle argument and an optional unit and padding stand for (`swz check --swizzle --then --pad`).
fn layout(
    elem: Elem,
    swizzle: Option<&Bound<'_, PyAny>>,
    then: Option<&Bound<'_, PyAny>>,
    unit: Option<&Bound<'_, PyAny>>,
    pad: Option<&Bound<'_, PyAny>>,
) -> PyResult<Layout> {
    let pad = pad.map(|p| uint("pad", p)).transpose()?;
    let unit = unit.map(args::unit).transpose()?;
    let spelled = swizzle
        .map(|s| args::swizzle_spelling("swizzle", s))
        .transpose()?;
    let is_mode = matches!(spelled, Some(SwizzleSpelling::Mode(_)));
    if then.is_some() && spelled.is_none() {
        return Err(SwizzleError::new_err(
            "then: a second layer needs swizzle (the first)",
        ));
    }
    let (first, default_unit) = match spelled {
        None => (SwizzleFn::Single(Swizzle::IDENTITY), Unit::Bytes),
        // The identity is the same on every unit.
        Some(SwizzleSpelling::Mode(ByteMode::None)) => {
            (SwizzleFn::Single(Swizzle::IDENTITY), Unit::Elems(elem))
        }
        Some(SwizzleSpelling::Mode(m)) => (SwizzleFn::Single(m.swizzle()), Unit::Bytes),
        Some(SwizzleSpelling::Layers(f)) => (f, Unit::Elems(elem)),
    };
    let swizzle = match (then, first) {
        (None, f) => f,
        (Some(t), SwizzleFn::Single(first)) => {
            let second = match args::swizzle_spelling("then", t)? {
                SwizzleSpelling::Layers(SwizzleFn::Single(s)) => s,
                _ => {
                    return Err(SwizzleError::new_err(
                        "then: give one B,M,S layer (element offsets)",
                    ))
                }
            };
            if is_mode {
                return Err(SwizzleError::new_err(
                    "then: give swizzle as B,M,S (element offsets) when adding a second layer",
                ));
            }
            SwizzleFn::Composed(Composed::new(first, second))
        }
        (Some(_), SwizzleFn::Composed(_)) => {
            return Err(SwizzleError::new_err(
                "then: swizzle already has two layers (B,M,S+B,M,S)",
            ))
        }
    };
    Ok(match pad {
        Some(p) if swizzle == SwizzleFn::Single(Swizzle::IDENTITY) => {
            Layout::Padded { pad_bytes: p }
        }
        Some(_) => {
            return Err(SwizzleError::new_err(
                "pad: a layout is swizzled or padded, not both (give swizzle or pad)",
            ))
        }
        None => Layout::Swizzled {
            swizzle,
            unit: unit.unwrap_or(default_unit),
        },
    })
}

/// `rows x cols` of `elem` that one block's shared memory can hold.
fn tile(
    rows: &Bound<'_, PyAny>,
    cols: &Bound<'_, PyAny>,
    elem: Elem,
    order: Order,
) -> PyResult<Tile> {
    let t = Tile::new(uint("ROWS", rows)?, uint("COLS", cols)?, elem, order)
        .map_err(|e| err_in("tile", e))?;
    swizzle_core::layout::tile_fits_smem(t).map_err(|e| SwizzleError::new_err(format!("tile: {e}")))
}

/// The layout checked as `swz check` checks it: its swizzle fits the tile, and with padding it still fits.
fn checked(smem: Smem) -> PyResult<Smem> {
    smem.validate().map_err(|e| err_in("swizzle", e))?;
    smem.fits_smem()
        .map_err(|e| SwizzleError::new_err(format!("pad: {e}")))
}

/// A tile given as `"ROWSxCOLS"` or `(rows, cols)`.
fn tile_dims<'py>(obj: &Bound<'py, PyAny>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let py = obj.py();
    if obj.is_instance_of::<PyString>() {
        let t = args::text("tile", obj)?;
        let (r, c) = t.split_once(['x', 'X']).ok_or_else(|| {
            SwizzleError::new_err(format!("tile: expected ROWSxCOLS (e.g. 64x64), got {t:?}"))
        })?;
        let dim = |field: &'static str, s: &str| -> PyResult<Bound<'py, PyAny>> {
            let n = swizzle_core::spelling::decimal_u32(field, s.trim())
                .map_err(|e| err_in("tile", e))?;
            Ok(n.into_pyobject(py)?.into_any())
        };
        return Ok((dim("ROWS", r)?, dim("COLS", c)?));
    }
    let (r, c): (Bound<'py, PyAny>, Bound<'py, PyAny>) = obj.extract().map_err(|_| {
        PyTypeError::new_err("tile must be \"ROWSxCOLS\" (e.g. \"64x64\") or a (rows, cols) tuple")
    })?;
    Ok((r, c))
}

/// Patterns by name (`"ldmatrix.x4"`, `"row16@16"`, ...), each checked against the layout.
fn patterns(names: &Bound<'_, PyAny>, smem: &Smem) -> PyResult<Vec<Pattern>> {
    if names.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "patterns must be a list of pattern names, e.g. [\"row16\", \"ldmatrix.x4\"]",
        ));
    }
    let mut out = Vec::new();
    for p in names.try_iter()? {
        let name = args::text("pattern", &p?)?;
        let pat: Pattern = name.parse().map_err(|e| err_in("pattern", e))?;
        pat.check_on(smem)
            .map_err(|e| err_in(&format!("pattern {pat}"), e))?;
        out.push(pat);
    }
    if out.is_empty() {
        return Err(SwizzleError::new_err("patterns: give at least one pattern"));
    }
    Ok(out)
}

#[pymethods]
impl PySmem {
    #[new]
    #[pyo3(signature = (rows, cols, elem = None, swizzle = None, *, then = None, unit = None, pad = None, col_major = false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        rows: &Bound<'_, PyAny>,
        cols: &Bound<'_, PyAny>,
        elem: Option<&Bound<'_, PyAny>>,
        swizzle: Option<&Bound<'_, PyAny>>,
        then: Option<&Bound<'_, PyAny>>,
        unit: Option<&Bound<'_, PyAny>>,
        pad: Option<&Bound<'_, PyAny>>,
        col_major: bool,
    ) -> PyResult<Self> {
        let elem = elem.map(args::elem).transpose()?.unwrap_or(Elem::F16);
        let order = if col_major {
            Order::ColMajor
        } else {
            Order::RowMajor
        };
        let t = tile(rows, cols, elem, order)?;
        let l = layout(elem, swizzle, then, unit, pad)?;
        checked(Smem::new(t, l)).map(PySmem)
    }

    /// `"ROWSxCOLS:ELEM:SWIZZLE[:pad=BYTES][:unit=UNIT][:col]"`, as `swz emit-header --layout` reads it.
    #[staticmethod]
    fn parse(text: &Bound<'_, PyAny>) -> PyResult<Self> {
        let t = args::text("layout", text)?;
        // The spelling's parser refuses a layout larger than one block's shared memory, padding included.
        let smem: Smem = t.parse().map_err(|e: String| err_in("layout", e))?;
        checked(smem).map(PySmem)
    }

    /// Rows.
    #[getter]
    fn rows(&self) -> u32 {
        self.0.rows()
    }
    /// Columns.
    #[getter]
    fn cols(&self) -> u32 {
        self.0.cols()
    }
    /// The element type's name.
    #[getter]
    fn elem(&self) -> &'static str {
        self.0.elem().name()
    }
    /// Bytes the tile occupies, padding included.
    #[getter]
    fn bytes(&self) -> u64 {
        self.0.bytes()
    }
    /// The swizzle (a `Swizzle` or a `Composed`), on offsets of `unit`.
    #[getter]
    fn swizzle(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        args::swizzle_fn_object(py, self.0.swizzle())
    }
    /// What the swizzle's offsets count: `"bytes"` or the element type.
    #[getter]
    fn unit(&self) -> String {
        self.0.unit().to_string()
    }
    /// Bytes of padding after each row.
    #[getter]
    fn pad(&self) -> u32 {
        self.0.pad_bytes()
    }
    /// The C++ type in the generated header (`swz::Layout<...>`).
    #[getter]
    fn cuda_type(&self) -> String {
        swizzle_core::cuda::layout_type(&self.0)
    }

    /// The byte address of element `(row, col)`.
    fn byte_addr(&self, row: &Bound<'_, PyAny>, col: &Bound<'_, PyAny>) -> PyResult<u32> {
        let (r, c) = self.coord(row, col)?;
        Ok(self.0.byte_addr(r, c))
    }

    /// The element offset where `(row, col)` is stored (the byte address over the element size).
    fn offset(&self, row: &Bound<'_, PyAny>, col: &Bound<'_, PyAny>) -> PyResult<u32> {
        let (r, c) = self.coord(row, col)?;
        Ok(self.0.offset(r, c))
    }

    /// The bank-checker's verdict for each pattern on this layout, as `swz check` prints it.
    fn check(&self, patterns: &Bound<'_, PyAny>) -> PyResult<CheckReport> {
        let pats = self::patterns(patterns, &self.0)?;
        check_smem(self.0, &pats)
    }

    /// The smallest conflict-free swizzle for `patterns` on this tile (as `swz synth` searches).
    fn synth(&self, patterns: &Bound<'_, PyAny>) -> PyResult<PySynthesis> {
        let plain = Smem::plain(self.0.tile());
        let pats = self::patterns(patterns, &plain)?;
        Ok(PySynthesis(synthesize(&plain, &pats)))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Smem({})", self.0)
    }
}

impl PySmem {
    fn coord(&self, row: &Bound<'_, PyAny>, col: &Bound<'_, PyAny>) -> PyResult<(u32, u32)> {
        let (r, c) = (uint("row", row)?, uint("col", col)?);
        if r >= self.0.rows() || c >= self.0.cols() {
            return Err(SwizzleError::new_err(format!(
                "({r}, {c}) is outside the {}x{} tile",
                self.0.rows(),
                self.0.cols()
            )));
        }
        Ok((r, c))
    }
}

/// One pattern's totals on a layout.
#[pyclass(name = "PatternReport", module = "swz", frozen, get_all)]
#[derive(Clone)]
pub struct PyPatternReport {
    /// The pattern (`ldmatrix.x4`, `row16@16`, ...).
    pub name: String,
    /// Warp instructions that cover the tile once.
    pub instructions: u32,
    /// Their wavefronts, summed.
    pub wavefronts: u64,
    /// The conflict-free cost: one wavefront per phase, summed.
    pub ideal: u64,
    /// `wavefronts - ideal`.
    pub conflicts: u64,
    /// The first instruction with the most conflicts, or None when there is none.
    pub worst_instruction: Option<u32>,
}

impl From<&TileReport> for PyPatternReport {
    fn from(r: &TileReport) -> Self {
        PyPatternReport {
            name: r.name.clone(),
            instructions: r.instructions,
            wavefronts: r.wavefronts,
            ideal: r.ideal,
            conflicts: r.conflicts(),
            worst_instruction: r
                .worst
                .as_ref()
                .filter(|(_, w)| w.conflicts() > 0)
                .map(|(i, _)| *i),
        }
    }
}

#[pymethods]
impl PyPatternReport {
    fn __repr__(&self) -> String {
        format!(
            "PatternReport({}: {} instructions, {} wavefronts, ideal {})",
            self.name, self.instructions, self.wavefronts, self.ideal
        )
    }
}

/// What the bank checker says about a layout and its access patterns: `str()` is `swz check`'s report (per
/// pattern the totals, the worst instruction with its colliding lanes, and that instruction's bank map).
#[pyclass(name = "CheckReport", module = "swz", frozen)]
pub struct CheckReport {
    text: String,
    reports: Vec<PyPatternReport>,
    smem: Smem,
}

#[pymethods]
impl CheckReport {
    /// True when no instruction of any pattern costs more than its ideal (`swz check` exits 0).
    #[getter]
    fn conflict_free(&self) -> bool {
        self.reports.iter().all(|r| r.conflicts == 0)
    }
    /// Per pattern, its totals.
    #[getter]
    fn patterns(&self) -> Vec<PyPatternReport> {
        self.reports.clone()
    }
    /// The layout checked.
    #[getter]
    fn layout(&self) -> PySmem {
        PySmem(self.smem)
    }
    /// The one line `swz check` prints on stderr when it finds conflicts (None when conflict-free).
    #[getter]
    fn verdict(&self) -> Option<String> {
        let bad: Vec<&str> = self
            .reports
            .iter()
            .filter(|r| r.conflicts > 0)
            .map(|r| r.name.as_str())
            .collect();
        (!bad.is_empty()).then(|| {
            format!(
                "bank conflicts in {} of {} pattern(s): {}",
                bad.len(),
                self.reports.len(),
                bad.join(", ")
            )
        })
    }
    fn __str__(&self) -> String {
        self.text.clone()
    }
    fn __bool__(&self) -> bool {
        self.conflict_free()
    }
    fn __repr__(&self) -> String {
        format!(
            "<CheckReport {}: {}>",
            self.smem,
            self.verdict().unwrap_or_else(|| "conflict-free".into())
        )
    }
}

/// The report of `pats` (each already checked against the tile) on `smem`, as `swz check` prints it.
fn check_smem(smem: Smem, pats: &[Pattern]) -> PyResult<CheckReport> {
    for p in pats {
        p.check_on(&smem)
            .map_err(|e| err_in(&format!("pattern {p}"), e))?;
    }
    let mut text = format!("{smem}\n");
    let mut reports = Vec::new();
    for p in pats {
        let r = p.report(&smem);
        text.push_str(&r.to_string());
        if let Some((i, rep)) = &r.worst {
            text.push_str(&format!("  bank map of instruction {i}:\n"));
            for line in map::ascii(rep).lines() {
                text.push_str(&format!("    {line}\n"));
            }
        }
        reports.push(PyPatternReport::from(&r));
    }
    Ok(CheckReport {
        text,
        reports,
        smem,
    })
}

/// Check access patterns on a tile, as `swz check --tile 64x64 --elem f16 --swizzle 3,3,3 --pattern
/// ldmatrix.x4` does: `check("64x64", ["ldmatrix.x4"], elem="f16", swizzle="3,3,3")`.
#[pyfunction]
#[pyo3(signature = (tile, patterns, *, elem = None, swizzle = None, then = None, pad = None))]
pub fn check(
    tile: &Bound<'_, PyAny>,
    patterns: &Bound<'_, PyAny>,
    elem: Option<&Bound<'_, PyAny>>,
    swizzle: Option<&Bound<'_, PyAny>>,
    then: Option<&Bound<'_, PyAny>>,
    pad: Option<&Bound<'_, PyAny>>,
) -> PyResult<CheckReport> {
    let elem = elem.map(args::elem).transpose()?.unwrap_or(Elem::F16);
    let (r, c) = tile_dims(tile)?;
    let t = self::tile(&r, &c, elem, Order::RowMajor)?;
    // The patterns are read once (any iterable) and checked on the tile first, as `swz check` does, then on the
    // layout.
    let pats = self::patterns(patterns, &Smem::plain(t))?;
    let l = layout(elem, swizzle, then, None, pad)?;
    let smem = checked(Smem::new(t, l))?;
    check_smem(smem, &pats)
}

/// The smallest conflict-free XOR swizzle for `patterns` on a tile, as `swz synth` searches:
/// `synth("64x64", ["row16", "ldmatrix.x4"], elem="f16")`.
#[pyfunction]
#[pyo3(signature = (tile, patterns, *, elem = None))]
pub fn synth(
    tile: &Bound<'_, PyAny>,
    patterns: &Bound<'_, PyAny>,
    elem: Option<&Bound<'_, PyAny>>,
) -> PyResult<PySynthesis> {
    let elem = elem.map(args::elem).transpose()?.unwrap_or(Elem::F16);
    let (r, c) = tile_dims(tile)?;
    let t = self::tile(&r, &c, elem, Order::RowMajor)?;
    let plain = Smem::plain(t);
    let pats = self::patterns(patterns, &plain)?;
    Ok(PySynthesis(synthesize(&plain, &pats)))
}

/// What `synth` found: `str()` is `swz synth`'s report.
#[pyclass(name = "Synthesis", module = "swz", frozen)]
pub struct PySynthesis(Synthesis);

#[pymethods]
impl PySynthesis {
    /// True when a conflict-free layout exists (unswizzled, one or two layers): `swz synth` exits 0.
    #[getter]
    fn conflict_free(&self) -> bool {
        !matches!(self.0.answer, Answer::Impossible { .. })
    }
    /// The answer on byte addresses (the best candidate when nothing is conflict-free).
    #[getter]
    fn swizzle(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        args::swizzle_fn_object(py, self.0.answer.swizzle())
    }
    /// The answer on element offsets of the tile's type, when it has an exact form there.
    #[getter]
    fn in_elems(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        self.0
            .in_elems()
            .map(|f| args::swizzle_fn_object(py, f))
            .transpose()
    }
    /// The tile with the answer applied.
    #[getter]
    fn layout(&self) -> PySmem {
        PySmem(self.0.smem_after())
    }
    /// Per pattern, `(name, wavefronts before, wavefronts after, ideal)`.
    #[getter]
    fn evidence(&self) -> Vec<(String, u64, u64, u64)> {
        self.0
            .evidence
            .iter()
            .map(|e| {
                (
                    e.pattern.to_string(),
                    e.before.wavefronts,
                    e.after.wavefronts,
                    e.after.ideal,
                )
            })
            .collect()
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!("<Synthesis {}>", self.0.answer.swizzle())
    }
}

/// One warp instruction's bank report, as `swz wavefronts` prints it.
#[pyclass(name = "BankReport", module = "swz", frozen)]
pub struct BankReport(bank::Report);

#[pymethods]
impl BankReport {
    /// Wavefronts the instruction costs.
    #[getter]
    fn wavefronts(&self) -> u32 {
        self.0.wavefronts
    }
    /// Its conflict-free cost.
    #[getter]
    fn ideal(&self) -> u32 {
        self.0.ideal
    }
    /// `wavefronts - ideal`.
    #[getter]
    fn conflicts(&self) -> u32 {
        self.0.conflicts()
    }
    /// Per phase, `(first lane, lanes, wavefronts, worst bank)`.
    #[getter]
    fn phases(&self) -> Vec<(u32, u32, u32, u32)> {
        self.0
            .phases()
            .iter()
            .map(|p| (p.first_lane, p.lanes, p.wavefronts, p.worst_bank))
            .collect()
    }
    /// The bank map: per phase one row per wavefront, `.` where a bank is idle.
    fn bank_map(&self) -> String {
        map::ascii(&self.0)
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!(
            "<BankReport {} wavefronts (ideal {})>",
            self.0.wavefronts, self.0.ideal
        )
    }
}

/// The wavefronts one warp instruction costs: `op` is `lds8`..`lds128`, `sts8`..`sts128`,
/// `ldmatrix.x1|x2|x4[.trans]`, `stmatrix.x1|x2|x4[.trans]`; `addrs` the 32 byte addresses, lane 0 first.
#[pyfunction]
pub fn wavefronts(op: &Bound<'_, PyAny>, addrs: &Bound<'_, PyAny>) -> PyResult<BankReport> {
    let name = args::text("op", op)?;
    let op: Op = name.parse().map_err(|e| err_in("op", e))?;
    if addrs.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "addrs must be a sequence of 32 byte addresses",
        ));
    }
    // At most one address past a warp is read (an endless iterator is refused, not consumed); the count in the
    // message is the sequence's length when it has one.
    let mut a = Vec::new();
    for x in addrs.try_iter()? {
        a.push(uint("addr", &x?)?);
        if a.len() > bank::WARP {
            let got = addrs.len().unwrap_or(a.len());
            return Err(err_in("addrs", bank::AccessError::Count { got }));
        }
    }
    let a = bank::check_addrs(op, &a).map_err(|e| err_in("addrs", e))?;
    Ok(BankReport(bank::report(op, &a)))
}

/// The names `check` and `synth` take: every generic access pattern.
#[pyfunction]
pub fn pattern_names() -> Vec<&'static str> {
    Pattern::ALL.iter().map(|p| p.name()).collect()
}

/// The instruction names `wavefronts` takes.
#[pyfunction]
pub fn op_names() -> Vec<&'static str> {
    Op::ALL.iter().map(|o| o.name()).collect()
}
