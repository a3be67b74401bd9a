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
        tail: v.tail,
        ..SHIPPED
    })
}

/// One spec of every kernel shape the planner can pick on an H100: 64- and 128-row tiles x every N tile of
/// [`plan::BNS`], each unsplit (clusters of 1 and 2; the lone 128-row CTA with and without the tail split) and split
/// into 2, 4 and [`plan::MAX_SPLIT`] parts, with the deepest ring that fits (the compile and ptxas check covers
/// each).
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
                // Lone unsplit 128-row CTAs also with the tail split (plan::candidates).
                if cluster == 1 && split == 1 && bm == 128 {
                    out.extend(spec_of(&Variant { tail: true, ..v }, ty).ok());
                }
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
