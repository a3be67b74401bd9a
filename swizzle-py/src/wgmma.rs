//! Hopper operand tiles: the TMA box and the wgmma shared-memory descriptor from one spec
//! (`swizzle_core::wgmma`).
use crate::args::{self, err, uint};
use crate::spec::{byte_mode, PySwizzle};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use swizzle_core::wgmma::{self, OperandTile};

/// One wgmma operand's shared-memory tile as TMA writes it and wgmma reads it: byte mode, element type,
/// majorness (`"K"` or `"MN"`) and extent (`mn x k` elements). Everything else is derived from it.
///
///     swz.OperandTile("SW128", "bf16", "K", 128, 64).params()["sbo"] == 1024
#[pyclass(name = "OperandTile", module = "swz", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyOperandTile(pub OperandTile);

#[pymethods]
impl PyOperandTile {
    #[new]
    fn new(
        mode: &Bound<'_, PyAny>,
        elem: &Bound<'_, PyAny>,
        major: &Bound<'_, PyAny>,
        mn: &Bound<'_, PyAny>,
        k: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let mode = byte_mode(mode)?;
        let elem = args::elem(elem)?;
        let major = args::major(major)?;
        let t = OperandTile::new(mode, elem, major, uint("mn", mn)?, uint("k", k)?);
        t.validate().map_err(err)?;
        Ok(PyOperandTile(t))
    }

    /// The derived TMA and descriptor parameters: `tma_swizzle`, `box_inner`, `box_outer`, `boxes`,
    /// `box_bytes`, `layout_type`, `lbo`, `sbo`, `base_offset`, `smem_align`, `tile_bytes`.
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let p = self.0.params();
        let d = PyDict::new(py);
        d.set_item("tma_swizzle", p.tma_swizzle.cu_name())?;
        d.set_item("box_inner", p.box_inner)?;
        d.set_item("box_outer", p.box_outer)?;
        d.set_item("boxes", p.boxes)?;
        d.set_item("box_bytes", p.box_bytes)?;
        d.set_item("layout_type", p.layout_type)?;
        d.set_item("lbo", p.lbo)?;
        d.set_item("sbo", p.sbo)?;
        d.set_item("base_offset", p.base_offset)?;
        d.set_item("smem_align", p.smem_align)?;
        d.set_item("tile_bytes", p.tile_bytes)?;
        Ok(d)
    }

    /// The 64-bit wgmma matrix descriptor for the tile at shared-memory byte address `addr` (a multiple of the
    /// tile's alignment).
    fn descriptor(&self, addr: &Bound<'_, PyAny>) -> PyResult<u64> {
        let a = uint("addr", addr)?;
        let align = self.0.params().smem_align;
        if a % align != 0 {
            return Err(args::SwizzleError::new_err(format!(
                "addr: {a} is not a multiple of {align}, the alignment {} needs",
                self.0
            )));
        }
        Ok(self.0.descriptor(a))
    }

    /// The swizzle wgmma and TMA apply, on element offsets of the tile's type.
    fn smem_swizzle(&self) -> PySwizzle {
        PySwizzle(self.0.smem_swizzle())
    }

    /// Bytes to add to the descriptor's start address for the `j`-th K step of one instruction.
    fn k_step_bytes(&self, j: &Bound<'_, PyAny>) -> PyResult<u32> {
        let j = uint("j", j)?;
        let steps = self.0.k * self.0.elem.bytes() / wgmma::K_STEP_BYTES;
        if j >= steps {
            return Err(args::SwizzleError::new_err(format!(
                "j: {j} is past the tile's {steps} K steps"
            )));
        }
        Ok(self.0.k_step_bytes(j))
    }

    /// The byte offset of element `(mn, k)` inside the tile, as TMA stores it.
    fn byte_of(&self, mn: &Bound<'_, PyAny>, k: &Bound<'_, PyAny>) -> PyResult<u32> {
        let (m, k) = (uint("mn", mn)?, uint("k", k)?);
        if m >= self.0.mn || k >= self.0.k {
            return Err(args::SwizzleError::new_err(format!(
                "({m}, {k}) is outside the {}x{} (MN x K) tile",
                self.0.mn, self.0.k
            )));
        }
        Ok(self.0.byte_of(m, k))
    }

    /// The struct the generated header holds for this tile.
    fn cuda_struct(&self, name: &Bound<'_, PyAny>) -> PyResult<String> {
        let name = args::text("name", name)?;
        let h = swizzle_core::cuda::Header::new()
            .try_swizzle(&name, swizzle_core::Swizzle::IDENTITY)
            .map_err(|e| args::err_in("name", e));
        h?;
        Ok(self.0.cuda_struct(&name))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!(
            "OperandTile({:?}, {:?}, {:?}, {}, {})",
            self.0.mode.name(),
            self.0.elem.name(),
            self.0.major.name(),
            self.0.mn,
            self.0.k
        )
    }
}

/// Pack a wgmma matrix descriptor from its fields (PTX "Matrix Descriptor Format"): start address, leading and
/// stride byte offsets (bytes), base offset, layout type (0 none, 1 128B, 2 64B, 3 32B).
#[pyfunction]
pub fn encode_descriptor(
    addr: &Bound<'_, PyAny>,
    lbo: &Bound<'_, PyAny>,
    sbo: &Bound<'_, PyAny>,
    base_offset: &Bound<'_, PyAny>,
    layout_type: &Bound<'_, PyAny>,
) -> PyResult<u64> {
    Ok(wgmma::encode_descriptor(
        uint("addr", addr)?,
        uint("lbo", lbo)?,
        uint("sbo", sbo)?,
        uint("base_offset", base_offset)?,
        uint("layout_type", layout_type)?,
    ))
}

/// The fields of a wgmma matrix descriptor: `{"addr", "lbo", "sbo", "base_offset", "layout_type"}` (bytes for
/// the first three).
#[pyfunction]
pub fn decode_descriptor<'py>(
    py: Python<'py>,
    descriptor: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let d: u64 = match descriptor.extract::<u64>() {
        Ok(d) if !descriptor.is_instance_of::<pyo3::types::PyBool>() => d,
        _ => {
            return Err(args::SwizzleError::new_err(
                "descriptor must be an integer in 0 .. 2**64",
            ))
        }
    };
    let (addr, lbo, sbo, base_offset, layout_type) = wgmma::decode_descriptor(d);
    let out = PyDict::new(py);
    out.set_item("addr", addr)?;
    out.set_item("lbo", lbo)?;
    out.set_item("sbo", sbo)?;
    out.set_item("base_offset", base_offset)?;
    out.set_item("layout_type", layout_type)?;
    Ok(out)
}
