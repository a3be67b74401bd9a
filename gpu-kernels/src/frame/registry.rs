//! The registry of kernel families: what `swz bench <family>`, `swz report`, `swz verify`, `swz profile` and `scripts/device.sh`
//! iterate. Adding a family is one line in [`FAMILIES`].
//!
//! [`DynFamily`] is [`Family`] with its spec type erased (specs addressed by index), implemented for every
//! `Family`, so the registry can hold families of different spec types.

use super::bench::{sweep, sweep_planned};
use super::profile::{predictions, SpecPrediction};
use super::verify::{launch, verify, DeviceBufs, Verified};
use super::{Family, Size, SpecAccess};
use crate::bench::{BenchConfig, Table};
use crate::progress::Progress;
use crate::runtime::{CompileJob, Error, Gpu, Result};

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
    progress: Option<&Progress>,
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
    let loaded = gpu.precompile_jobs(&jobs, super::host_threads(), &step)?;
    let after = crate::runtime::cache::counts();
    Ok((loaded, after.0 - before.0, after.1 - before.1))
}

/// Families `swz bench <family>` runs after the named one: `gemm` brings the Hopper (TMA + `wgmma`) GEMM's rows,
/// so one command prints every GEMM of the workspace against the cuBLAS of the same run.
const BENCH_COMPANIONS: &[(&str, &[&str])] = &[("gemm", &["hopper"])];

/// What `swz bench <name>` runs, in order: the family called `name`, then its companions.
pub fn bench_plan(name: &str) -> Option<Vec<&'static dyn DynFamily>> {
    let mut plan = vec![find(name)?];
    for (_, extra) in BENCH_COMPANIONS.iter().filter(|(n, _)| *n == name) {
        plan.extend(
            extra
                .iter()
                .map(|e| find(e).expect("a companion is a registered family")),
        );
    }
    Some(plan)
}

/// The names of every family, for messages (`transpose, matmul, ...`).
pub fn names() -> String {
    FAMILIES
        .iter()
        .map(|f| f.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// One spec's layout facts for reports: name, element type, its `Display`, and its accesses.
pub struct SpecInfo {
    pub name: String,
    pub elem: swizzle_core::Elem,
    pub display: String,
    pub block: String,
    pub entry: &'static str,
    pub accesses: Vec<SpecAccess>,
    /// The `struct Spec` part of the generated header (from its first named spec on).
    pub header: String,
}

/// A [`Family`] with its spec type erased.
pub trait DynFamily: Sync {
    fn name(&self) -> &'static str;
    fn about(&self) -> &'static str;
    /// Every spec, in order.
    fn spec_infos(&self) -> Vec<SpecInfo>;
    /// Verify every spec at every verification size; the failures, one line each.
    fn verify_all(&self, gpu: &Gpu) -> Result<Vec<String>>;
    /// Verify every spec at every verification size on every core ([`super::verify::verify_all_with`]),
    /// stepping `progress` once per check.
    fn verify_with(&self, gpu: &Gpu, progress: Option<&Progress>) -> Result<Verified>;
    /// Every spec's compile as shipped (what verify, bench and the report load), for `arch` where the family
    /// names no target of its own.
    fn compile_jobs(&self, arch: &str) -> Vec<CompileJob>;
    /// Verify spec `index` at `size`.
    fn verify_one(&self, gpu: &Gpu, index: usize, size: Size) -> Result<()>;
    /// The verification sizes.
    fn verify_sizes(&self) -> Vec<Size>;
    /// Benchmark tables at `sizes` (the family's defaults when empty) of the specs `keep` accepts (by name and
    /// element type).
    fn bench(
        &self,
        gpu: &Gpu,
        sizes: &[Size],
        keep: &dyn Fn(&str, swizzle_core::Elem) -> bool,
        cfg: &BenchConfig,
    ) -> Result<Vec<Table>>;
    /// Benchmark tables at problems the user named (`swz bench --shapes`): the family's planned specs at each
    /// where it plans ([`Plan::planned`](super::Plan::planned)), its specs otherwise.
    fn bench_planned(
        &self,
        gpu: &Gpu,
        sizes: &[Size],
        keep: &dyn Fn(&str, swizzle_core::Elem) -> bool,
        cfg: &BenchConfig,
    ) -> Result<Vec<Table>>;
    /// What [`DynFamily::bench_planned`] would run at `size` without a GPU: (spec name, element type, why) per
    /// planned spec, or `None` when the family does not plan.
    fn planned_list(&self, size: Size)
        -> Result<Option<Vec<(String, swizzle_core::Elem, String)>>>;
    /// Default benchmark sizes.
    fn bench_sizes(&self) -> Vec<Size>;
    /// The problem of side `n` (`swz bench --sizes N`).
    fn size_of(&self, n: u32) -> Size;
    /// See [`Family::profile_side`].
    fn profile_side(&self) -> u32;
    /// The block shape spec `index` launches at `size` (`None` if it cannot run there).
    fn launch_block(&self, index: usize, size: Size) -> Option<(u32, u32, u32)>;
    /// True when the family has a shared-memory-only build ([`Family::as_profile`]).
    fn has_smem_only(&self) -> bool;
    /// Launch spec `index` once at `size` without checking (profiling): the family's shared-memory-only build
    /// (an error when it has none), with all the dynamic shared memory the kernel may take beside its static
    /// shared memory when `one_block` (one block per SM).
    fn launch_smem_only(&self, gpu: &Gpu, index: usize, size: Size, one_block: bool) -> Result<()>;
    /// The bank model's predictions per spec.
    fn predictions(&self) -> Vec<SpecPrediction>;
    /// Compile spec `index` as shipped for `arch` (the family's own arch when it has one), with ptxas' resource
    /// report in the log; needs NVRTC, no GPU (`swz ptxas`).
    fn compile(&self, index: usize, arch: &str) -> Result<crate::runtime::Compiled>;
}

impl<F: Family> DynFamily for F {
    fn name(&self) -> &'static str {
        Family::name(self)
    }

    fn about(&self) -> &'static str {
        Family::about(self)
    }

    fn spec_infos(&self) -> Vec<SpecInfo> {
        self.specs()
            .iter()
            .map(|s| {
                let text = self.header(s).render();
                let header = text
                    .find("// ---- named specs ----")
                    .map(|i| text[i..].to_string())
                    .unwrap_or_default();
                SpecInfo {
                    name: self.spec_name(s),
                    elem: self.elem(s),
                    display: s.to_string(),
                    block: self
                        .as_bench()
                        .map_or_else(String::new, |b| b.block_label(s)),
                    entry: self.entry(s),
                    accesses: self.accesses(s),
                    header,
                }
            })
            .collect()
    }

    fn verify_all(&self, gpu: &Gpu) -> Result<Vec<String>> {
        super::verify::verify_all(gpu, self)
    }

    fn verify_with(&self, gpu: &Gpu, progress: Option<&Progress>) -> Result<Verified> {
        super::verify::verify_all_with(gpu, self, progress)
    }

    fn compile_jobs(&self, arch: &str) -> Vec<CompileJob> {
        self.specs()
            .iter()
            .map(|s| {
                let (src, options) = self.compile_unit(s);
                CompileJob {
                    src,
                    options,
                    arch: self.arch(s).unwrap_or(arch).to_string(),
                }
            })
            .collect()
    }

    fn verify_one(&self, gpu: &Gpu, index: usize, size: Size) -> Result<()> {
        let spec = spec_at(self, index)?;
        verify(gpu, self, &spec, size)
    }

    fn verify_sizes(&self) -> Vec<Size> {
        Family::verify_sizes(self)
    }

    fn bench(
        &self,
        gpu: &Gpu,
        sizes: &[Size],
        keep: &dyn Fn(&str, swizzle_core::Elem) -> bool,
        cfg: &BenchConfig,
    ) -> Result<Vec<Table>> {
        sweep(
            gpu,
            self,
            sizes,
            &|s| keep(&self.spec_name(s), self.elem(s)),
            cfg,
        )
    }

    fn bench_planned(
        &self,
        gpu: &Gpu,
        sizes: &[Size],
        keep: &dyn Fn(&str, swizzle_core::Elem) -> bool,
        cfg: &BenchConfig,
    ) -> Result<Vec<Table>> {
        sweep_planned(
            gpu,
            self,
            sizes,
            &|s| keep(&self.spec_name(s), self.elem(s)),
            cfg,
        )
    }

    fn planned_list(
        &self,
        size: Size,
    ) -> Result<Option<Vec<(String, swizzle_core::Elem, String)>>> {
        let Some(plan) = self.as_plan() else {
            return Ok(None);
        };
        Ok(Some(
            plan.planned(size, None)?
                .into_iter()
                .map(|(s, why)| (self.spec_name(&s), self.elem(&s), why))
                .collect(),
        ))
    }

    fn bench_sizes(&self) -> Vec<Size> {
        self.as_bench().map_or_else(Vec::new, |b| b.bench_sizes())
    }

    fn size_of(&self, n: u32) -> Size {
        Family::size_of(self, n)
    }

    fn profile_side(&self) -> u32 {
        Family::profile_side(self)
    }

    fn launch_block(&self, index: usize, size: Size) -> Option<(u32, u32, u32)> {
        let spec = spec_at(self, index).ok()?;
        self.launch(&spec, size).ok().map(|l| l.config.block_dim)
    }

    fn has_smem_only(&self) -> bool {
        self.as_profile().is_some()
    }

    fn launch_smem_only(&self, gpu: &Gpu, index: usize, size: Size, one_block: bool) -> Result<()> {
        let spec = spec_at(self, index)?;
        let profile = self.as_profile().ok_or_else(|| {
            Error::Invalid(format!(
                "{} has no shared-memory-only build",
                Family::name(self)
            ))
        })?;
        let kernel = self.prepare(gpu, &spec, &profile.smem_only_options(&spec))?;
        let mut l = self.launch(&spec, size)?;
        if one_block {
            let bytes = gpu.max_dynamic_smem(&kernel)?;
            gpu.allow_dynamic_smem(&kernel, bytes)?;
            l.config.shared_mem_bytes = bytes;
        }
        let buffers = self.buffers(&spec, size);
        let inputs = self.inputs(&spec, size, &buffers);
        let mut dev = DeviceBufs::new(gpu, buffers, &inputs)?;
        launch(gpu, &kernel, &l, &mut dev.bufs)?;
        gpu.sync()
    }

    fn predictions(&self) -> Vec<SpecPrediction> {
        predictions(self)
    }

    fn compile(&self, index: usize, arch: &str) -> Result<crate::runtime::Compiled> {
        let spec = spec_at(self, index)?;
        let (src, mut options) = self.compile_unit(&spec);
        options.push("--ptxas-options=-v".into());
        crate::runtime::compile(&src, self.arch(&spec).unwrap_or(arch), &options)
    }
}

fn spec_at<F: Family>(f: &F, index: usize) -> Result<F::Spec> {
    f.specs().get(index).cloned().ok_or_else(|| {
        Error::Invalid(format!(
            "{} has {} specs, asked for #{index}",
            Family::name(f),
            f.specs().len()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::{Buffer, HostBuf, Launch};
    use crate::transpose::family::{Variant, TRANSPOSE};

    /// A family with the required core only: the transpose's specs, launches and reference, nothing optional.
    struct CoreOnly;

    impl Family for CoreOnly {
        type Spec = Variant;
        fn name(&self) -> &'static str {
            "core-only"
        }
        fn about(&self) -> &'static str {
            "the transpose without its optional parts"
        }
        fn source(&self) -> (&'static str, &'static str) {
            TRANSPOSE.source()
        }
        fn specs(&self) -> Vec<Variant> {
            TRANSPOSE.specs()
        }
        fn spec_name(&self, v: &Variant) -> String {
            TRANSPOSE.spec_name(v)
        }
        fn elem(&self, v: &Variant) -> swizzle_core::Elem {
            TRANSPOSE.elem(v)
        }
        fn header(&self, v: &Variant) -> swizzle_core::cuda::Header {
            TRANSPOSE.header(v)
        }
        fn entry(&self, v: &Variant) -> &'static str {
            TRANSPOSE.entry(v)
        }
        fn buffers(&self, v: &Variant, size: Size) -> Vec<Buffer> {
            TRANSPOSE.buffers(v, size)
        }
        fn launch(&self, v: &Variant, size: Size) -> Result<Launch> {
            TRANSPOSE.launch(v, size)
        }
        fn reference(&self, v: &Variant, size: Size, inputs: &[HostBuf]) -> Vec<HostBuf> {
            TRANSPOSE.reference(v, size, inputs)
        }
        fn verify_sizes(&self) -> Vec<Size> {
            vec![Size::mn(97, 131)]
        }
    }

    #[test]
    fn a_family_with_only_the_core_is_listed_and_refuses_a_benchmark_by_name() {
        let f: &dyn DynFamily = &CoreOnly;
        assert!(f.bench_sizes().is_empty());
        assert!(f.planned_list(Size::mnk(64, 64, 64)).unwrap().is_none());
        let infos = f.spec_infos();
        assert_eq!(infos.len(), TRANSPOSE.specs().len());
        assert!(infos
            .iter()
            .all(|i| i.block.is_empty() && !i.header.is_empty()));
        let e = super::super::bench::bench_part(&CoreOnly)
            .err()
            .expect("no benchmark part")
            .to_string();
        assert!(e.contains("core-only: no benchmark"), "{e}");
    }

    #[test]
    fn the_registered_families_have_the_optional_parts_they_use() {
        for f in FAMILIES {
            let plans = f.planned_list(Size::mnk(256, 4096, 4096)).unwrap();
            assert_eq!(plans.is_some(), f.name() == "hopper", "{}", f.name());
        }
        // Every registered family benchmarks against its peer; only the transpose has a smem-only build.
        assert!(TRANSPOSE.as_bench().is_some() && TRANSPOSE.as_profile().is_some());
        assert!(crate::fragments::FRAGMENTS.as_bench().is_some());
        assert!(crate::stencil::family::STENCIL.as_bench().is_some());
        assert!(crate::matmul_l2::family::MATMUL_L2.as_bench().is_some());
        assert!(crate::hopper::family::HOPPER.as_bench().is_some());
        let gemm = &crate::gemm::family::GEMM;
        assert!(
            gemm.as_bench().is_some() && gemm.as_profile().is_none() && gemm.as_plan().is_none()
        );
    }

    #[test]
    fn bench_plans_name_registered_families() {
        let names =
            |n: &str| -> Vec<&str> { bench_plan(n).unwrap().iter().map(|f| f.name()).collect() };
        assert_eq!(names("gemm"), ["gemm", "hopper"]);
        assert_eq!(names("hopper"), ["hopper"]);
        assert_eq!(names("transpose"), ["transpose"]);
        assert!(bench_plan("nope").is_none());
        for (name, extra) in BENCH_COMPANIONS {
            assert!(
                find(name).is_some() && extra.iter().all(|e| find(e).is_some()),
                "{name}"
            );
        }
    }
}
