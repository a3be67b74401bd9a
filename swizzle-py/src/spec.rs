//! `Swizzle` (CuTe's `Sw<B,M,S>`) and `Composed` (two layers), with `apply` on integers and NumPy arrays and the
//! conversions of `swizzle_core::convert` and `swizzle_core::units`.
use crate::args::{self, err, err_in, uint};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyInt, PyTuple};
use swizzle_core::convert::{AbsoluteSw, TritonShared};
use swizzle_core::spelling::SwizzleSpelling;
use swizzle_core::{ByteMode, Composed, Swizzle, SwizzleFn, Unit};

/// An XOR swizzle on offsets, CuTe's `Swizzle<B, M, S>`: keeps the `M` low bits, and XORs the `B` bits that sit
/// `S` bits higher (lower when `S < 0`) into the `B` bits above them.
///
///     0bxxxxxxxxxxxYYYxxxxxxxZZZxxxx    ZZZ = bits M .. M+B, YYY = bits M+S .. M+S+B
///     apply(o) = o ^ ((o & yyy_msk) >> S)
///
/// `Swizzle(3, 3, 3).apply(64) == 72`; `s` defaults to `b` (CuTe's `Swizzle<B, M, S = B>`). What the offsets
/// count (elements of a type, or bytes) is up to the caller: `Swizzle.mode("SW128", unit="f16")` converts a TMA
/// byte mode to element offsets.
#[pyclass(name = "Swizzle", module = "swz", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PySwizzle(pub Swizzle);

/// Two swizzle layers applied in order, `second(first(o))`, kept apart because together they are not one XOR
/// swizzle. `Swizzle.parse("1,6,-2+3,3,5")` or `Swizzle(1, 6, -2).then(Swizzle(3, 3, 5))`.
#[pyclass(name = "Composed", module = "swz", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyComposed(pub Composed);

/// `f` on one offset (a Python int, returns an int) or on every offset of an integer array (anything
/// `numpy.asarray` takes; returns a `numpy.uint32` array of the same shape).
pub fn apply_any(obj: &Bound<'_, PyAny>, f: impl Fn(u32) -> u32) -> PyResult<Py<PyAny>> {
    let py = obj.py();
    let scalar = obj.is_instance_of::<PyInt>()
        || obj.is_instance_of::<PyBool>()
        || (obj.hasattr("__index__")? && !obj.hasattr("shape")?);
    if scalar {
        let o = uint("offset", obj)?;
        return Ok(f(o).into_pyobject(py)?.into_any().unbind());
    }
    let np = py.import("numpy").map_err(|_| {
        PyTypeError::new_err(
            "offset must be an integer, or an integer array (which needs numpy installed)",
        )
    })?;
    let arr = np.call_method1("asarray", (obj,)).map_err(|e| {
        PyTypeError::new_err(format!(
            "offset must be an integer or an integer array: {}",
            e.value(py)
        ))
    })?;
    let dtype = arr.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(PyTypeError::new_err(format!(
            "offsets must be integers, got an array of dtype {}",
            dtype.str()?
        )));
    }
    let size: usize = arr.getattr("size")?.extract()?;
    if size > 0 {
        // The extremes through the scalar check: the CLI's message for a negative or too-large offset.
        uint("offset", &arr.call_method0("min")?)?;
        uint("offset", &arr.call_method0("max")?)?;
    }
    let raw = arr
        .call_method1("astype", (np.getattr("uint32")?,))?
        .call_method1("tobytes", ("C",))?;
    let bytes: &[u8] = raw.extract()?;
    let mut out = Vec::with_capacity(bytes.len());
    for word in bytes.chunks_exact(4) {
        let o = u32::from_ne_bytes([word[0], word[1], word[2], word[3]]);
        out.extend_from_slice(&f(o).to_ne_bytes());
    }
    let buf = PyByteArray::new(py, &out);
    let flat = np.call_method1("frombuffer", (buf, np.getattr("uint32")?))?;
    Ok(flat
        .call_method1("reshape", (arr.getattr("shape")?,))?
        .unbind())
}

// Python methods take `&self`; the `to_*` names are the conversions' Python names.
#[allow(clippy::wrong_self_convention)]
#[pymethods]
impl PySwizzle {
    #[new]
    #[pyo3(signature = (b, m, s = None))]
    fn new(
        b: &Bound<'_, PyAny>,
        m: &Bound<'_, PyAny>,
        s: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let bits = args::int_text("B", b)?;
        let base = args::int_text("M", m)?;
        let shift = match s {
            Some(s) => args::int_text("S", s)?,
            None => bits.clone(),
        };
        args::layer(&bits, &base, &shift).map(PySwizzle)
    }

    /// A spelling as `swz --swizzle` reads it: `"3,3,3"`, `"Sw<3,3,3>"`, a TMA byte mode (`"SW128"`, on byte
    /// addresses), or two layers `"1,6,-2+3,3,5"` (a `Composed`).
    #[staticmethod]
    fn parse(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let f = match args::swizzle_spelling("swizzle", text)? {
            SwizzleSpelling::Mode(m) => SwizzleFn::Single(m.swizzle()),
            SwizzleSpelling::Layers(f) => f,
        };
        args::swizzle_fn_object(py, f)
    }

    /// A TMA / ThunderKittens byte mode (`"NONE"`, `"SW32"`, `"SW64"`, `"SW128"`, or CUDA's
    /// `"CU_TENSOR_MAP_SWIZZLE_128B"`) as a swizzle on offsets of `unit`: `"bytes"` (the default) or an element
    /// type. `Swizzle.mode("SW128", unit="f16") == Swizzle(3, 3, 3)`.
    #[staticmethod]
    #[pyo3(signature = (name, unit = None))]
    fn mode(name: &Bound<'_, PyAny>, unit: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let m = byte_mode(name)?;
        let unit = unit.map(args::unit).transpose()?.unwrap_or(Unit::Bytes);
        Ok(PySwizzle(m.swizzle_for(unit)))
    }

    /// CuTe's C++ type text, `"Swizzle<3,4,3>"` or `"cute::Swizzle<3,4,3>"` (also `Sw<3,4,3>`, as CuTe prints
    /// it).
    #[staticmethod]
    fn from_cute(text: &Bound<'_, PyAny>) -> PyResult<Self> {
        let t = args::text("cute", text)?;
        let t = t.trim();
        let t = t.strip_prefix("cute::").unwrap_or(t);
        let spelled = match t.strip_prefix("Swizzle<") {
            Some(rest) => format!("Sw<{rest}"),
            None => t.to_string(),
        };
        swizzle_core::spelling::layer(&spelled)
            .map(PySwizzle)
            .map_err(|e| err_in("cute", e))
    }

    /// Triton's swizzled shared layout (`vec`, `per_phase`, `max_phase`) on a row-major tile whose rows hold
    /// `row_elems` elements, as a swizzle on element offsets.
    #[staticmethod]
    fn from_triton(
        vec: &Bound<'_, PyAny>,
        per_phase: &Bound<'_, PyAny>,
        max_phase: &Bound<'_, PyAny>,
        row_elems: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let t = TritonShared {
            vec: uint("vec", vec)?,
            per_phase: uint("per_phase", per_phase)?,
            max_phase: uint("max_phase", max_phase)?,
        };
        t.to_swizzle(uint("row_elems", row_elems)?)
            .map(PySwizzle)
            .map_err(err)
    }

    /// A swizzle written with absolute field positions: `bits` bits at `yyy_lsb` XORed into `bits` bits at
    /// `zzz_lsb`.
    #[staticmethod]
    fn from_absolute(
        bits: &Bound<'_, PyAny>,
        zzz_lsb: &Bound<'_, PyAny>,
        yyy_lsb: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let a = AbsoluteSw {
            bits: uint("bits", bits)?,
            zzz_lsb: uint("zzz_lsb", zzz_lsb)?,
            yyy_lsb: uint("yyy_lsb", yyy_lsb)?,
        };
        a.to_swizzle().map(PySwizzle).map_err(err)
    }

    /// B: the number of bits XORed.
    #[getter]
    fn b(&self) -> u32 {
        self.0.bits
    }
    /// M: the low bits kept.
    #[getter]
    fn m(&self) -> u32 {
        self.0.base
    }
    /// S: how far above ZZZ the YYY bits sit (negative: below).
    #[getter]
    fn s(&self) -> i32 {
        self.0.shift
    }
    /// The bits read (YYY), as a mask.
    #[getter]
    fn yyy_msk(&self) -> u32 {
        self.0.yyy_msk()
    }
    /// The bits XORed (ZZZ), as a mask.
    #[getter]
    fn zzz_msk(&self) -> u32 {
        self.0.zzz_msk()
    }
    /// CuTe's `msk_sft`: the shift from YYY to ZZZ.
    #[getter]
    fn msk_sft(&self) -> i32 {
        self.0.msk_sft()
    }
    /// The smallest block of offsets the swizzle maps onto itself.
    #[getter]
    fn period(&self) -> u64 {
        self.0.period()
    }
    /// True for `Sw<0,M,S>`.
    #[getter]
    fn is_identity(&self) -> bool {
        self.0.is_identity()
    }
    /// The C++ type in the generated header, `swz::Swizzle<3, 3, 3>`.
    #[getter]
    fn cuda_type(&self) -> String {
        swizzle_core::cuda::swizzle_type(SwizzleFn::Single(self.0))
    }
    /// CuTe's C++ type, `cute::Swizzle<3,3,3>`.
    #[getter]
    fn cute(&self) -> String {
        format!(
            "cute::Swizzle<{},{},{}>",
            self.0.bits, self.0.base, self.0.shift
        )
    }

    /// Where offset `o` is stored: an int for an int, a `numpy.uint32` array for an integer array.
    fn apply(&self, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let s = self.0;
        apply_any(o, move |x| s.apply(x))
    }

    /// `self.apply(o)`.
    fn __call__(&self, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.apply(o)
    }

    /// The swizzle that undoes this one (a swizzle is its own inverse when `|S| >= B`).
    fn inverse(&self) -> Self {
        PySwizzle(self.0.inverse())
    }

    /// This swizzle, then `other`: one swizzle when the two merge, a `Composed` otherwise.
    fn then(&self, py: Python<'_>, other: PyRef<'_, PySwizzle>) -> PyResult<Py<PyAny>> {
        args::swizzle_fn_object(py, swizzle_core::compose::then(self.0, other.0))
    }

    /// Triton's `(vec, per_phase, max_phase)` for this swizzle on element offsets of rows of `row_elems`.
    fn to_triton(&self, row_elems: &Bound<'_, PyAny>) -> PyResult<(u32, u32, u32)> {
        let t = TritonShared::from_swizzle(self.0, uint("row_elems", row_elems)?).map_err(err)?;
        Ok((t.vec, t.per_phase, t.max_phase))
    }

    /// `(bits, zzz_lsb, yyy_lsb)`: the absolute field positions.
    fn to_absolute(&self) -> (u32, u32, u32) {
        let a = AbsoluteSw::from_swizzle(self.0);
        (a.bits, a.zzz_lsb, a.yyy_lsb)
    }

    /// The same memory permutation on byte addresses, this swizzle acting on offsets of `elem`.
    fn to_bytes(&self, elem: &Bound<'_, PyAny>) -> PyResult<Self> {
        let e = args::elem(elem)?;
        self.0.to_bytes(e).map(PySwizzle).map_err(err)
    }

    /// The same memory permutation on offsets of `elem`, this swizzle acting on byte addresses.
    fn to_elems(&self, elem: &Bound<'_, PyAny>) -> PyResult<Self> {
        let e = args::elem(elem)?;
        self.0.to_elems(e).map(PySwizzle).map_err(err)
    }

    /// The TMA byte mode (`"NONE"`, `"SW32"`, `"SW64"`, `"SW128"`) this swizzle is on offsets of `unit`, or
    /// `None`.
    #[pyo3(signature = (unit = None))]
    fn byte_mode(&self, unit: Option<&Bound<'_, PyAny>>) -> PyResult<Option<&'static str>> {
        let unit = unit.map(args::unit).transpose()?.unwrap_or(Unit::Bytes);
        let on_bytes = swizzle_core::SwizzleIn::new(self.0, unit).to_bytes();
        Ok(on_bytes
            .ok()
            .and_then(|s| ByteMode::from_swizzle(s.swizzle))
            .map(ByteMode::name))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Swizzle({}, {}, {})",
            self.0.bits, self.0.base, self.0.shift
        )
    }

    fn __getnewargs__(&self) -> (u32, u32, i32) {
        (self.0.bits, self.0.base, self.0.shift)
    }
}

#[pymethods]
impl PyComposed {
    #[new]
    fn new(first: PyRef<'_, PySwizzle>, second: PyRef<'_, PySwizzle>) -> Self {
        PyComposed(args::composed(first.0, second.0))
    }

    /// The layer applied first.
    #[getter]
    fn first(&self) -> PySwizzle {
        PySwizzle(self.0.first)
    }
    /// The layer applied second.
    #[getter]
    fn second(&self) -> PySwizzle {
        PySwizzle(self.0.second)
    }
    /// A block of offsets both layers map onto itself.
    #[getter]
    fn period(&self) -> u64 {
        self.0.period()
    }
    /// The C++ type in the generated header, `swz::Compose<swz::Swizzle<...>, swz::Swizzle<...>>`.
    #[getter]
    fn cuda_type(&self) -> String {
        swizzle_core::cuda::swizzle_type(SwizzleFn::Composed(self.0))
    }

    /// `second.apply(first.apply(o))`: an int for an int, a `numpy.uint32` array for an integer array.
    fn apply(&self, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let c = self.0;
        apply_any(o, move |x| c.apply(x))
    }

    fn __call__(&self, o: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.apply(o)
    }

    /// The layers in reverse order.
    fn inverse(&self) -> Self {
        PyComposed(self.0.inverse())
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Composed({}, {})",
            PySwizzle(self.0.first).__repr__(),
            PySwizzle(self.0.second).__repr__()
        )
    }

    fn __getnewargs__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, [PySwizzle(self.0.first), PySwizzle(self.0.second)])
    }
}

/// A byte mode by name (`"SW128"`, `"CU_TENSOR_MAP_SWIZZLE_128B"`, `"NONE"`).
pub fn byte_mode(name: &Bound<'_, PyAny>) -> PyResult<ByteMode> {
    let t = args::text("mode", name)?;
    match swizzle_core::spelling::swizzle(&t).map_err(|e| err_in("mode", e))? {
        SwizzleSpelling::Mode(m) => Ok(m),
        SwizzleSpelling::Layers(_) => Err(args::SwizzleError::new_err(format!(
            "mode: {t:?} is not a byte mode (NONE, SW32, SW64, SW128)"
        ))),
    }
}

/// The TMA swizzle modes: `{name: (CUtensorMapSwizzle name, enumerator value, swizzle on bytes)}`.
#[pyfunction]
pub fn tma_modes() -> Vec<(&'static str, &'static str, u32, PySwizzle)> {
    ByteMode::ALL
        .iter()
        .map(|m| (m.name(), m.cu_name(), m.cu_value(), PySwizzle(m.swizzle())))
        .collect()
}
