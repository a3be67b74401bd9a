//! The Hopper GEMM planned for its problem: a caller passes `M x N x K`, the element type and the device, and
//! gets the spec `swizzle_core::plan` picks (its candidates are what the kernel runs), with the model's
//! predicted time and bound.
//!
//! The planner's [`Variant`] becomes a [`HopperSpec`] in one direction ([`spec_of`]), copying fields, never
//! numbers: tile, ring depth, cluster, split and block order come from the variant (the planner sized the ring to
//! the device's shared memory with the kernel's own layout: both describe it as a
//! [`swizzle_core::wgmma::GemmSmem`]); everything the planner does not choose (byte mode, in-flight groups,
//! register split, the stmatrix epilogue) is the shipped spec's ([`SHIPPED`]).
//!
//! The device: [`plan_device`] maps the driver's properties to the planner's presets: an H200 by name (or, for a
//! name the driver spells otherwise, by its over 100 GiB of memory), every other GPU gets the **H100's numbers**
//! (its HBM and L2 rates and its fitted k-tile time), with the device's own SM count and shared-memory limit.

use super::spec::{HopperSpec, SHIPPED};
use crate::frame::Size;
use crate::runtime::{DeviceProps, Error, Result};
use swizzle_core::plan::{self, Device, Estimate, Problem, Variant};
use swizzle_core::Elem;

/// The linear layers of two LLMs, `(name, N, K)`: `C = X · Wᵀ`, W is `N x K`.
pub const LLM_LAYERS: [(&str, u32, u32); 6] = [
    ("8B qkv", 6144, 4096),
    ("8B o", 4096, 4096),
    ("8B gate+up", 28672, 4096),
    ("8B down", 4096, 14336),
    ("70B qkv", 10240, 8192),
    ("70B down", 8192, 28672),
];

/// Token counts M: decode, small and large prefill batches.
pub const LLM_TOKENS: [u32; 5] = [16, 128, 512, 2048, 8192];

/// Every `M x N x K` of [`LLM_LAYERS`] x [`LLM_TOKENS`], layer by layer.
pub fn llm_shapes() -> Vec<Size> {
    LLM_LAYERS
        .iter()
        .flat_map(|&(_, n, k)| LLM_TOKENS.iter().map(move |&m| Size::mnk(m, n, k)))
        .collect()
}

/// A planned spec: what to run, and what the model predicts for it.
#[derive(Clone, Debug, PartialEq)]
pub struct Planned {
    /// The spec to run.
    pub spec: HopperSpec,
    /// The planner's estimate for it (time, bound, the variant itself).
    pub estimate: Estimate,
    /// The planner's device the estimate is for (`h100`, `h200`).
    pub device: &'static str,
}

/// The planner's device for a GPU: the H200 preset for an H200 (by name, or over 100 GiB of memory), the H100's
/// for anything else (module docs); SM count and shared memory per block are the device's own.
pub fn plan_device(p: &DeviceProps) -> Device {
    let h200 = p.name.to_ascii_uppercase().contains("H200") || p.total_mem_bytes > 100 << 30;
    let base = if h200 { Device::H200 } else { Device::H100 };
    let sms = if p.sm_count > 0 { p.sm_count } else { base.sms };
    let smem = u32::try_from(p.smem_per_block_optin).unwrap_or(u32::MAX);
    Device {
        sms,
        smem_per_block: if smem > 0 { smem } else { base.smem_per_block },
        l2: swizzle_core::l2::Machine { sms, ..base.l2 },
        ..base
    }
}

/// The spec that runs `v` in `ty`: the variant's tile, ring, cluster, split and order on the shipped spec's
/// everything-else. Refuses a variant built by hand that the kernel does not implement (another tile, a split
/// over [`plan::MAX_SPLIT`] parts or with the multicast pair).
pub fn spec_of(v: &Variant, ty: Elem) -> Result<HopperSpec> {
    if !v.implemented() {
        return Err(Error::Invalid(format!(
            "the Hopper kernel does not implement the planned variant {v}"
        )));
    }
    Ok(HopperSpec {
        ty,
        consumers: v.consumers(),
        bn: v.bn,
        bk: v.bk,
        stages: v.stages,
        cluster: v.cluster,
        split: v.split,
        raster: v.order,
        ..SHIPPED
    })
}

/// One spec of every kernel shape the planner can pick on an H100: 64- and 128-row tiles x every N tile of
/// [`plan::BNS`], each unsplit (clusters of 1 and 2) and split into 2, 4 and [`plan::MAX_SPLIT`] parts, with the
/// deepest ring that fits (the compile and ptxas check covers each).
pub fn kernel_variants(ty: Elem) -> Vec<HopperSpec> {
    let dev = Device::H100;
    let mut out = Vec::new();
    for bm in plan::BMS {
        for bn in plan::BNS {
            for (cluster, split) in [(1, 1), (2, 1), (1, 2), (1, 4), (1, plan::MAX_SPLIT)] {
                let Some(stages) = Variant::stages_for_split(bm, bn, split, ty, dev.smem_per_block)
                else {
                    continue;
                };
                let v = Variant {
                    bm,
                    bn,
                    stages,
                    cluster,
                    split,
                    ..Variant::shipped_for(ty)
                };
                out.extend(spec_of(&v, ty).ok());
            }
        }
    }
    out
}

/// Plan `size` in `ty` on `dev`: the fastest implemented variant, as a spec. Errors (one line) for an empty
/// problem or K not a multiple of 8.
pub fn plan_for(size: Size, ty: Elem, dev: &Device) -> Result<Planned> {
    let mut best = ranked(size, ty, dev, 1)?;
    let (spec, estimate) = best.remove(0); // the planner always has a best
    Ok(Planned {
        spec,
        estimate,
        device: dev.name,
    })
}

/// The `count` fastest implemented candidates by the model at `size`, at most one per kernel shape (tile,
/// cluster, split: block orders of one shape run alike), fastest first; the first is [`plan_for`]'s pick. Errors
/// (one line) for an empty problem, K not a multiple of 8, or a type the kernel does not take.
pub fn ranked(
    size: Size,
    ty: Elem,
    dev: &Device,
    count: usize,
) -> Result<Vec<(HopperSpec, Estimate)>> {
    crate::elem::check_supported("the Hopper GEMM", ty, &super::TYPES)?;
    let p = Problem::new(size, ty);
    let planned =
        plan::plan(&p, dev).map_err(|e| Error::Invalid(format!("{}: {e}", size.mnk_text())))?;
    planned
        .by_shape()
        .into_iter()
        .take(count)
        .map(|e| Ok((spec_of(&e.variant, ty)?, *e)))
        .collect()
}

/// The shipped spec in `ty` ([`Variant::SHIPPED`]) with the planner's estimate for it at `size` on `dev`: what a
/// plan is compared with.
pub fn shipped(size: Size, ty: Elem, dev: &Device) -> Result<(HopperSpec, Estimate)> {
    let p = Problem::new(size, ty);
    let estimate = plan::estimate(&p, dev, &Variant::SHIPPED)
        .map_err(|e| Error::Invalid(format!("{}: {e}", size.mnk_text())))?;
    Ok((spec_of(&Variant::SHIPPED, ty)?, estimate))
}

impl HopperSpec {
    /// The spec for `C (m x n) = A (m x k) · Bᵀ` in `ty` on the device `props` describes, planned by
    /// swizzle-core's model among what the kernel implements ([`plan_for`], [`plan_device`]).
    pub fn for_problem(size: Size, ty: Elem, props: &DeviceProps) -> Result<Planned> {
        plan_for(size, ty, &plan_device(props))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::{Family, Size};
    use crate::hopper::family::HOPPER;

    /// The LLM layers (N x K) at every token count M: 30 problems.
    fn table() -> Vec<Size> {
        llm_shapes()
    }

    fn h100_props() -> DeviceProps {
        DeviceProps {
            ordinal: 0,
            name: "NVIDIA H100 80GB HBM3".into(),
            compute_capability: (9, 0),
            sm_count: 132,
            l2_bytes: 50 << 20,
            smem_per_block: 48 << 10,
            smem_per_block_optin: 232_448,
            smem_per_sm: 233_472,
            total_mem_bytes: 80 << 30,
            mem_clock_khz: 2_619_000,
            mem_bus_bits: 5120,
        }
    }

    /// `spec` runs `v`: the same tile, ring, cluster, split and order.
    fn runs(spec: &HopperSpec, v: &Variant) -> bool {
        (
            spec.bm(),
            spec.bn,
            spec.bk,
            spec.stages,
            spec.cluster,
            spec.split,
            spec.raster,
        ) == (v.bm, v.bn, v.bk, v.stages, v.cluster, v.split, v.order)
    }

    /// A GPU other than sm_90 is refused in one line, before anything is compiled or launched.
    #[test]
    fn other_gpus_are_refused_before_any_compile() {
        assert!(crate::hopper::check_device(&h100_props()).is_ok());
        for cc in [(8, 0), (8, 9), (10, 0)] {
            let props = DeviceProps {
                name: "NVIDIA A100-SXM4-80GB".into(),
                compute_capability: cc,
                ..h100_props()
            };
            let e = crate::hopper::check_device(&props).unwrap_err().to_string();
            assert!(e.contains("needs an sm_90 GPU") && !e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn the_llm_table_is_thirty_problems_layer_by_layer() {
        let s = llm_shapes();
        assert_eq!(s.len(), 30);
        assert_eq!(s[0], Size::mnk(16, 6144, 4096));
        assert_eq!(s[4], Size::mnk(8192, 6144, 4096));
        assert_eq!(s[29], Size::mnk(8192, 8192, 28672));
    }

    #[test]
    fn every_candidate_maps_to_a_spec_that_runs_it() {
        let mut seen = 0;
        for dev in [Device::H100, Device::H200] {
            for &(m, n, k) in &[(16, 4096, 4096), (8192, 8192, 8192), (1000, 520, 136)] {
                for ty in [Elem::BF16, Elem::F16] {
                    let p = Problem::new(Size::mnk(m, n, k), ty);
                    let cands = plan::candidates(&p, &dev);
                    assert!(!cands.is_empty());
                    for v in cands {
                        let spec = spec_of(&v, ty).unwrap();
                        assert!(runs(&spec, &v), "{v}: {spec}");
                        spec.validate(dev.smem_per_block as usize)
                            .unwrap_or_else(|e| panic!("{v}: {e}"));
                        // The planner's shared-memory model is the kernel's layout.
                        assert_eq!(spec.smem_bytes(), v.smem_bytes(ty), "{v}");
                        seen += 1;
                    }
                }
            }
        }
        assert!(seen >= 24, "{seen}");
        assert!(runs(&SHIPPED, &Variant::SHIPPED));
        assert_eq!(spec_of(&Variant::SHIPPED, Elem::BF16).unwrap(), SHIPPED);
    }

    /// The compile check's list holds every N tile the planner knows, unsplit with and without the multicast pair
    /// and split, and each of its specs is the one the planner would run (same ring, same shared memory).
    #[test]
    fn kernel_variants_cover_every_width_clustered_and_split() {
        for ty in [Elem::BF16, Elem::F16] {
            let specs = kernel_variants(ty);
            for bn in plan::BNS {
                for (cluster, split) in [(1, 1), (2, 1), (1, 2)] {
                    assert!(
                        specs
                            .iter()
                            .any(|s| s.bn == bn && s.cluster == cluster && s.split == split),
                        "{ty} BN {bn} cluster{cluster} split{split}"
                    );
                }
            }
            for s in &specs {
                s.validate(Device::H100.smem_per_block as usize)
                    .unwrap_or_else(|e| panic!("{s}: {e}"));
                let v = Variant {
                    bm: s.bm(),
                    bn: s.bn,
                    stages: s.stages,
                    cluster: s.cluster,
                    split: s.split,
                    ..Variant::SHIPPED
                };
                assert!(runs(s, &v), "{s}");
                assert_eq!(s.smem_bytes(), v.smem_bytes(ty), "{s}");
                assert_eq!(
                    Some(s.stages),
                    Variant::stages_for_split(v.bm, v.bn, v.split, ty, Device::H100.smem_per_block),
                    "{s}"
                );
            }
        }
    }

    #[test]
    fn unimplemented_variants_are_refused() {
        for v in [
            Variant {
                split: 2,
                ..Variant::SHIPPED
            },
            Variant {
                split: 16,
                cluster: 1,
                ..Variant::SHIPPED
            },
            Variant {
                cluster: 4,
                ..Variant::SHIPPED
            },
            Variant {
                bm: 192,
                ..Variant::SHIPPED
            },
            Variant {
                bn: 80,
                ..Variant::SHIPPED
            },
        ] {
            let e = spec_of(&v, Elem::BF16).unwrap_err().to_string();
            assert!(e.contains("does not implement"), "{e}");
        }
    }

    #[test]
    fn the_table_shapes_plan_to_specs_the_kernel_runs() {
        let props = h100_props();
        for size in table() {
            for ty in [Elem::BF16, Elem::F16] {
                let p = HopperSpec::for_problem(size, ty, &props).unwrap();
                assert_eq!(p.device, "h100");
                assert_eq!(p.spec.ty, ty);
                p.spec.validate(props.smem_per_block_optin).unwrap();
                super::super::check_dims(size).unwrap();
                let launch = HOPPER.launch(&p.spec, size).unwrap();
                let grid = launch.config.grid_dim.0;
                assert!(grid >= p.spec.cluster && grid.is_multiple_of(p.spec.cluster));
                assert!(grid <= props.sm_count, "{size}: grid {grid}");
                // The plan is no slower, by the model, than the shipped spec.
                let (spec, shipped) = shipped(size, ty, &plan_device(&props)).unwrap();
                assert_eq!(spec, SHIPPED.with_ty(ty));
                assert!(p.estimate.time_s <= shipped.time_s * (1.0 + 1e-9));
            }
        }
    }

    #[test]
    fn small_m_plans_a_64_row_tile_on_more_ctas_than_the_shipped_one() {
        // 16 tokens through a 4096x4096 layer: 16 tiles of 128x256 for 132 SMs; the model prefers 64-row tiles
        // (one consumer warpgroup) on many more CTAs, split along K when the tiles alone are too few.
        let props = h100_props();
        let p = HopperSpec::for_problem(Size::mnk(16, 4096, 4096), Elem::BF16, &props).unwrap();
        assert_eq!(p.spec.bm(), 64, "{}", p.spec);
        let ctas = |s: &HopperSpec| s.grid(16, 4096, props.sm_count / s.ctas());
        assert!(ctas(&p.spec) >= 2 * ctas(&SHIPPED), "{}", p.spec);
        // A split plan is one the kernel runs: a cluster of parts, no multicast pair.
        if p.spec.split > 1 {
            assert_eq!(p.spec.cluster, 1);
            assert!(p.spec.split <= plan::MAX_SPLIT);
        }
    }

    #[test]
    fn devices_map_to_the_planners_presets() {
        let h100 = h100_props();
        assert_eq!(plan_device(&h100), Device::H100);
        let h200 = DeviceProps {
            name: "NVIDIA H200".into(),
            total_mem_bytes: 141 << 30,
            l2_bytes: 60 << 20,
            ..h100.clone()
        };
        assert_eq!(plan_device(&h200), Device::H200);
        let renamed = DeviceProps {
            name: "GH100".into(),
            ..h200
        };
        assert_eq!(plan_device(&renamed).name, "h200");
        // Unknown: the H100's numbers with the device's own SMs and shared memory.
        let pcie = DeviceProps {
            name: "NVIDIA H100 PCIe".into(),
            sm_count: 114,
            ..h100
        };
        let d = plan_device(&pcie);
        assert_eq!((d.name, d.sms, d.l2.sms), ("h100", 114, 114));
        assert_eq!(d.hbm_bytes_per_s, Device::H100.hbm_bytes_per_s);
        assert!(plan_for(Size::mnk(16, 4096, 4095), Elem::BF16, &d)
            .unwrap_err()
            .to_string()
            .contains("multiple of 8"));
    }
}
