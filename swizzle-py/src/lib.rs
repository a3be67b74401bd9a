//! `swz`, the Python package: swizzle-core's specs, conversions, bank checker, synthesis, rasters, header and
//! wgmma/TMA descriptor math, the sm_90 / sm_100 descriptor decoders and checks, with the CLI's one-line error messages as `swz.SwizzleError`. Each module wraps one
//! job of the core and computes nothing of its own.
#![forbid(unsafe_code)]

mod args;
mod check;
mod descriptor;
mod header;
mod raster;
mod spec;
mod wgmma;

use pyo3::prelude::*;

#[pymodule]
fn _swz(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SwizzleError", m.py().get_type::<args::SwizzleError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<spec::PySwizzle>()?;
    m.add_class::<spec::PyComposed>()?;
    m.add_function(wrap_pyfunction!(spec::tma_modes, m)?)?;
    m.add_class::<check::PySmem>()?;
    m.add_class::<check::CheckReport>()?;
    m.add_class::<check::PyPatternReport>()?;
    m.add_class::<check::PySynthesis>()?;
    m.add_class::<check::BankReport>()?;
    m.add_function(wrap_pyfunction!(check::check, m)?)?;
    m.add_function(wrap_pyfunction!(check::synth, m)?)?;
    m.add_function(wrap_pyfunction!(check::wavefronts, m)?)?;
    m.add_function(wrap_pyfunction!(check::pattern_names, m)?)?;
    m.add_function(wrap_pyfunction!(check::op_names, m)?)?;
    m.add_class::<raster::PyRaster>()?;
    m.add_function(wrap_pyfunction!(raster::raster_orders, m)?)?;
    m.add_class::<header::PyHeader>()?;
    m.add_function(wrap_pyfunction!(header::header, m)?)?;
    m.add_class::<wgmma::PyOperandTile>()?;
    m.add_function(wrap_pyfunction!(wgmma::encode_descriptor, m)?)?;
    m.add_function(wrap_pyfunction!(wgmma::decode_descriptor, m)?)?;
    m.add_class::<descriptor::PyDescriptor>()?;
    m.add_class::<descriptor::PyInstrDesc>()?;
    m.add_class::<descriptor::LayoutCheck>()?;
    m.add_function(wrap_pyfunction!(descriptor::check_desc, m)?)?;
    m.add_function(wrap_pyfunction!(descriptor::check_idesc, m)?)?;
    m.add_function(wrap_pyfunction!(descriptor::check_tma, m)?)?;
    Ok(())
}
