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
    use swizzle_core::Elem;

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

    #[test]
    fn the_registered_families_have_the_optional_parts_they_use() {
        for f in FAMILIES {
            let plans = f.planned_list(Size::mnk(256, 4096, 4096)).unwrap();
            assert_eq!(plans.is_some(), f.name() == "hopper", "{}", f.name());
        }
        // Every registered family benchmarks against its peer; only the transpose has a smem-only build.
        let t = TRANSPOSE.parts();
        assert!(t.bench.is_some() && t.profile.is_some());
        assert!(crate::fragments::FRAGMENTS.parts().bench.is_some());
        assert!(crate::stencil::family::STENCIL.parts().bench.is_some());
        assert!(crate::matmul_l2::family::MATMUL_L2.parts().bench.is_some());
        assert!(crate::hopper::family::HOPPER.parts().bench.is_some());
        let gemm = crate::gemm::family::GEMM.parts();
        assert!(gemm.bench.is_some() && gemm.profile.is_none() && gemm.plan.is_none());
    }

    /// The default measure and peer, derived from a family's buffers, are the vendor's call on the same types
    /// and bytes: cuBLAS on each GEMM's input and output types (the FLOPs of the product); a D2D copy of the
    /// transpose's matrix (its bytes read and written).
    #[test]
    fn default_peers_are_the_vendor_call_on_the_same_buffers() {
        use crate::frame::{Bench, Measure, Peer};
        let size = Size::mnk(256, 512, 128);
        let cublas = |ab, c| Peer::CublasGemm { size, ab, c };
        let gemm = &crate::gemm::family::GEMM;
        for v in gemm.specs() {
            assert_eq!(gemm.peer(&v, size), cublas(v.input, v.out), "{v}");
            assert_eq!(gemm.measure(&v, size), Measure::Flops(size.flops()), "{v}");
        }
        let hopper = &crate::hopper::family::HOPPER;
        for s in hopper.specs() {
            assert_eq!(hopper.peer(&s, size), cublas(s.ty, s.ty), "{s}");
        }
        let matmul = &crate::matmul_l2::family::MATMUL_L2;
        for s in matmul.specs() {
            assert_eq!(matmul.peer(&s, size), cublas(Elem::F32, Elem::F32), "{s}");
        }
        let mn = Size::mn(300, 200);
        for v in TRANSPOSE.specs() {
            let bytes = 300 * 200 * u64::from(v.elem.bytes());
            assert_eq!(TRANSPOSE.peer(&v, mn), Peer::CopyD2D { bytes }, "{v}");
            assert_eq!(TRANSPOSE.measure(&v, mn), Measure::Bytes(2 * bytes), "{v}");
        }
    }

    /// Every spec's compile unit carries the family's header for it as `swz.cuh`: what the report prints (the
    /// named specs of the header) is what the kernel compiles.
    #[test]
    fn compile_units_carry_the_reported_header() {
        for f in FAMILIES {
            let jobs = f.compile_jobs("sm_90");
            let infos = f.spec_infos();
            assert_eq!(jobs.len(), infos.len(), "{}", f.name());
            for (job, info) in jobs.iter().zip(&infos) {
                let swz = job
                    .src
                    .headers
                    .iter()
                    .find(|h| h.name == swizzle_core::cuda::HEADER_NAME);
                let text = swz.map_or("", |h| h.text.as_str());
                let (fam, spec) = (f.name(), &info.name);
                assert!(!info.header.is_empty(), "{fam} {spec}: no named specs");
                assert!(text.ends_with(&info.header), "{fam} {spec}");
            }
        }
    }

    /// A side `n` (`--sizes N`, `--n N`) is the cube for the GEMM families, profiled at 512; `n x n` for the
    /// others, profiled at 2048 (the stencil's problems are rows, `1 x n`).
    #[test]
    fn a_side_is_a_cube_for_the_gemm_families() {
        for f in FAMILIES {
            let (size, side) = (f.size_of(96), f.profile_side());
            let want = match f.name() {
                "gemm" | "hopper" | "matmul-l2" => (Size::mnk(96, 96, 96), 512),
                "stencil" => (Size::mn(1, 96), 2048),
                _ => (Size::mn(96, 96), 2048),
            };
            assert_eq!((size, side), want, "{}", f.name());
        }
    }
}
