//! The registry of kernel families: what `swz bench <family>`, `swz report`, `swz verify`, `swz profile` and
//! `scripts/device.sh` iterate. Adding a family is one line in [`FAMILIES`]. It sits above the families (it
//! lists them) and the frame (it holds them as [`DynFamily`]s).

use crate::frame::DynFamily;
use crate::frame::Steps;
use crate::runtime::{CompileJob, Gpu, Result};

/// Every kernel family, in the order the reports print them. One line per family.
pub static FAMILIES: &[&dyn DynFamily] = &[
    &crate::transpose::family::TRANSPOSE,
    &crate::fragments::FRAGMENTS,
    &crate::stencil::family::STENCIL,
    &crate::matmul_l2::family::MATMUL_L2,
    &crate::hopper::family::HOPPER,
    &crate::gemm::family::GEMM,
];

/// The family called `name`.
pub fn find(name: &str) -> Option<&'static dyn DynFamily> {
    FAMILIES.iter().copied().find(|f| f.name() == name)
}

/// Compile every spec of `families` as shipped, on every core, before the first launch (a kernel already loaded
/// on `gpu`, or in the compile cache, costs nothing); `progress` steps once per compile. Returns `(kernels,
/// compiled by NVRTC, read from the disk cache)` of this call.
pub fn precompile(
    gpu: &Gpu,
    families: &[&dyn DynFamily],
    progress: Option<&dyn Steps>,
) -> Result<(usize, usize, usize)> {
    let arch = gpu.props().arch();
    let jobs: Vec<CompileJob> = families
        .iter()
        .flat_map(|f| f.compile_jobs(&arch))
        .collect();
    let before = crate::runtime::cache::counts();
    let step = |j: &CompileJob| {
        if let Some(p) = progress {
            p.step(&j.src.name);
        }
    };
    let loaded = gpu.precompile_jobs(&jobs, crate::frame::host_threads(), &step)?;
    let after = crate::runtime::cache::counts();
    Ok((loaded, after.0 - before.0, after.1 - before.1))
}

/// The names of every family, for messages (`transpose, matmul, ...`).
pub fn names() -> String {
    FAMILIES
        .iter()
        .map(|f| f.name())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::verify::tests::CORE_ONLY;
    use crate::frame::{Family, Size};
    use crate::transpose::family::TRANSPOSE;

    #[test]
    fn a_family_with_only_the_core_is_listed_and_refuses_a_benchmark_by_name() {
        let f: &dyn DynFamily = &CORE_ONLY;
        assert!(f.bench_sizes().is_empty());
        assert!(f.planned_list(Size::mnk(64, 64, 64)).unwrap().is_none());
        let infos = f.spec_infos();
        assert_eq!(infos.len(), TRANSPOSE.specs().len());
        assert!(infos
            .iter()
            .all(|i| i.block.is_empty() && !i.header.is_empty()));
        let size = Size::mn(256, 256);
        assert!(f.dyn_specs().iter().all(|s| s.bench(size).is_none()));
        // The registered transpose, with the same specs, has its benchmark part on every one.
        let t: &dyn DynFamily = &TRANSPOSE;
        assert!(t.dyn_specs().iter().all(|s| s.bench(size).is_some()));
    }
}
