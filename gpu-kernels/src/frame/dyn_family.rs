//! [`DynFamily`]: [`Family`] with its spec type erased (specs addressed by index, or handed out as
//! [`DynSpec`]s), implemented for every `Family`, so the registry ([`crate::registry`]) can hold families of
//! different spec types and the benchmark programs (gpu-bench) can time any of them.

use super::verify::{launch, verify, DeviceBufs, Verified};
use super::{Buffer, CeilingProbe, Family, Launch, Measure, Named, Peer, Size, SpecAccess, Steps};
use crate::runtime::{CompileJob, DeviceProps, Error, Gpu, Kernel, Result};
use swizzle_core::Elem;

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
    /// Verify every spec at every verification size on every core ([`super::verify::verify_all_with`]),
    /// stepping `progress` once per check.
    fn verify_with(&self, gpu: &Gpu, progress: Option<&dyn Steps>) -> Result<Verified>;
    /// Every spec's compile as shipped (what verify, bench and the report load), for `arch` where the family
    /// names no target of its own.
    fn compile_jobs(&self, arch: &str) -> Vec<CompileJob>;
    /// Verify spec `index` at `size`.
    fn verify_one(&self, gpu: &Gpu, index: usize, size: Size) -> Result<()>;
    /// The verification sizes.
    fn verify_sizes(&self) -> Vec<Size>;
    /// Every spec, in order, type-erased (what the benchmark tables time).
    fn dyn_specs(&self) -> Vec<Box<dyn DynSpec + '_>>;
    /// The family's planned specs at `size` on a device with `props` (none: the planner's default device), each
    /// with why ([`Plan::planned`](super::Plan::planned)); `None` when the family does not plan.
    #[allow(clippy::type_complexity)]
    fn planned(
        &self,
        size: Size,
        props: Option<&DeviceProps>,
    ) -> Result<Option<Vec<(Box<dyn DynSpec + '_>, String)>>>;
    /// What `swz bench --shapes` would run at `size` without a GPU: (spec name, element type, why) per planned
    /// spec, or `None` when the family does not plan.
    fn planned_list(&self, size: Size) -> Result<Option<Vec<(String, Elem, String)>>> {
        Ok(self.planned(size, None)?.map(|specs| {
            specs
                .into_iter()
                .map(|(s, why)| (s.name(), s.elem(), why))
                .collect()
        }))
    }
    /// Default benchmark sizes.
    fn bench_sizes(&self) -> Vec<Size>;
    /// The size `swz report` measures ([`Bench::report_size`](super::Bench::report_size)); empty without a
    /// benchmark part.
    fn report_sizes(&self) -> Vec<Size>;
    /// The problem of side `n` (`swz bench --sizes N`; [`Shape::size_of`](super::Shape::size_of)).
    fn size_of(&self, n: u32) -> Size;
    /// See [`Shape::profile_side`](super::Shape::profile_side).
    fn profile_side(&self) -> u32;
    /// The block shape spec `index` launches at `size` (`None` if it cannot run there).
    fn launch_block(&self, index: usize, size: Size) -> Option<(u32, u32, u32)>;
    /// True when the family has a shared-memory-only build ([`Parts::profile`](super::Parts::profile)).
    fn has_smem_only(&self) -> bool;
    /// Launch spec `index` once at `size` without checking (profiling): the family's shared-memory-only build
    /// (an error when it has none), with all the dynamic shared memory the kernel may take beside its static
    /// shared memory when `one_block` (one block per SM).
    fn launch_smem_only(&self, gpu: &Gpu, index: usize, size: Size, one_block: bool) -> Result<()>;
    /// Compile spec `index` as shipped for `arch` (the family's own arch when it has one), with ptxas' resource
    /// report in the log; needs NVRTC, no GPU (`swz ptxas`).
    fn compile(&self, index: usize, arch: &str) -> Result<crate::runtime::Compiled>;
}

impl<F: Family> DynFamily for F {
    fn name(&self) -> &'static str {
        Named::name(self)
    }

    fn about(&self) -> &'static str {
        self.identity().about
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
                        .parts()
                        .bench
                        .map_or_else(String::new, |b| b.block_label(s)),
                    entry: self.entry(s),
                    accesses: self.accesses(s),
                    header,
                }
            })
            .collect()
    }

    fn verify_with(&self, gpu: &Gpu, progress: Option<&dyn Steps>) -> Result<Verified> {
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

    fn dyn_specs(&self) -> Vec<Box<dyn DynSpec + '_>> {
        self.specs()
            .into_iter()
            .map(|spec| erased(self, spec))
            .collect()
    }

    fn planned(
        &self,
        size: Size,
        props: Option<&DeviceProps>,
    ) -> Result<Option<Vec<(Box<dyn DynSpec + '_>, String)>>> {
        let Some(plan) = self.parts().plan else {
            return Ok(None);
        };
        Ok(Some(
            plan.planned(size, props)?
                .into_iter()
                .map(|(spec, why)| (erased(self, spec), why))
                .collect(),
        ))
    }

    fn bench_sizes(&self) -> Vec<Size> {
        self.parts()
            .bench
            .map_or_else(Vec::new, |b| b.bench_sizes())
    }

    fn report_sizes(&self) -> Vec<Size> {
        self.parts()
            .bench
            .and_then(|b| b.report_size())
            .into_iter()
            .collect()
    }

    fn size_of(&self, n: u32) -> Size {
        self.identity().shape.size_of(n)
    }

    fn profile_side(&self) -> u32 {
        self.identity().shape.profile_side()
    }

    fn launch_block(&self, index: usize, size: Size) -> Option<(u32, u32, u32)> {
        let spec = spec_at(self, index).ok()?;
        self.launch(&spec, size).ok().map(|l| l.config.block_dim)
    }

    fn has_smem_only(&self) -> bool {
        self.parts().profile.is_some()
    }

    fn launch_smem_only(&self, gpu: &Gpu, index: usize, size: Size, one_block: bool) -> Result<()> {
        let spec = spec_at(self, index)?;
        let profile = self.parts().profile.ok_or_else(|| {
            Error::Invalid(format!(
                "{} has no shared-memory-only build",
                Named::name(self)
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
            Named::name(f),
            f.specs().len()
        ))
    })
}

/// One spec of a [`Family`] with its type erased: what a program that times it needs (gpu-bench's tables).
pub trait DynSpec {
    fn name(&self) -> String;
    fn elem(&self) -> Elem;
    fn buffers(&self, size: Size) -> Vec<Buffer>;
    /// Compiled and loaded, with its launch at `size` ([`Family::prepared`]).
    fn prepared(&self, gpu: &Gpu, size: Size) -> Result<(Kernel, Launch)>;
    /// The family's benchmark part for this spec at `size`; `None` when the family has none.
    fn bench(&self, size: Size) -> Option<BenchPart>;
}

/// What the family's [`Bench`](super::Bench) part says of one spec at one size.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchPart {
    pub measure: Measure,
    pub peer: Peer,
    pub ceiling: Option<CeilingProbe>,
    /// The block shape as the tables print it.
    pub block: String,
    /// Timed as a bound rather than a solution ([`Bench::is_bound`](super::Bench::is_bound)).
    pub bound: bool,
}

struct Erased<'a, F: Family> {
    family: &'a F,
    spec: F::Spec,
}

fn erased<F: Family>(family: &F, spec: F::Spec) -> Box<dyn DynSpec + '_> {
    Box::new(Erased { family, spec })
}

impl<F: Family> DynSpec for Erased<'_, F> {
    fn name(&self) -> String {
        self.family.spec_name(&self.spec)
    }

    fn elem(&self) -> Elem {
        self.family.elem(&self.spec)
    }

    fn buffers(&self, size: Size) -> Vec<Buffer> {
        self.family.buffers(&self.spec, size)
    }

    fn prepared(&self, gpu: &Gpu, size: Size) -> Result<(Kernel, Launch)> {
        self.family.prepared(gpu, &self.spec, size)
    }

    fn bench(&self, size: Size) -> Option<BenchPart> {
        let b = self.family.parts().bench?;
        Some(BenchPart {
            measure: b.measure(&self.spec, size),
            peer: b.peer(&self.spec, size),
            ceiling: b.ceiling(&self.spec, size),
            block: b.block_label(&self.spec),
            bound: b.is_bound(&self.spec),
        })
    }
}
