//! The Hopper GEMM as a frame [`Family`] (`swz bench hopper`, `swz report`): the shipped spec in bf16 and fp16.
//!
//! Differences from the other families, each through a frame hook: the kernel compiles for `sm_90a`
//! ([`Family::arch`]), takes two TMA tensor maps ([`Arg::TensorMap`](crate::frame::Arg::TensorMap), encoded from the operand tiles'
//! derived boxes and swizzle) and a second generated header (`gemm_spec.cuh`, in [`Family::compile_unit`]).
//! Its operand ring is written by the copy engine and read by `wgmma`, neither of which issues LSU wavefronts the
//! bank model counts (the layout's consistency is proved instead by swizzle-core's const descriptor checks); the
//! [`SpecAccess`]es it declares are the epilogue scratch's (`stmatrix` writes, 16-byte row reads), with
//! `smem_epilogue`.
//!
//! The frame's cuBLAS peer is the row-major NN `gemmEx` of the same size and types (the same FLOPs); the
//! like-for-like TN comparison on the same buffers is `swz tune hopper` (BENCHMARKS.md).

use super::spec::{HopperSpec, SHIPPED};
use super::TYPES;
use super::{check, planned, HopperGemm};
use crate::elem::HostElem;
use crate::frame::{
    Bench, Buffer, Family, HostBuf, Identity, Launch, Parts, Plan, PlannedSpecs, Size, SpecAccess,
    Tolerance,
};
use crate::runtime::{Gpu, Kernel, Result, Source};
use swizzle_core::bank::Op;
use swizzle_core::pattern::{Pattern, WarpAccess};
use swizzle_core::Elem;

crate::family! {
    /// The Hopper GEMM family.
    pub static HOPPER: HopperFamily = Identity::gemm("hopper", "TMA + wgmma GEMM (sm_90a): C = A * B^T, bf16/fp16 in and out, fp32 accumulation");
}

impl Family for HopperFamily {
    type Spec = HopperSpec;

    fn specs(&self) -> Vec<HopperSpec> {
        TYPES.map(|ty| SHIPPED.with_ty(ty)).to_vec()
    }
    fn spec_name(&self, spec: &HopperSpec) -> String {
        let cluster = if spec.cluster > 1 {
            format!("-c{}", spec.cluster)
        } else {
            String::new()
        };
        let epilogue = if spec.smem_epilogue { "-stsm" } else { "" };
        let split = if spec.split > 1 {
            format!("-k{}", spec.split)
        } else if spec.tail {
            "-tail".to_string()
        } else {
            String::new()
        };
        // The order only when it is not the shipped one (group-m 8), so the shipped names stay as they were.
        let order = match spec.raster {
            r if r == SHIPPED.raster => String::new(),
            swizzle_core::raster::Raster::GroupM { group } => format!("-gm{group}"),
            r => format!("-{r}"),
        };
        format!(
            "hopper-{}x{}x{}-s{}-{}{cluster}{split}{epilogue}{order}",
            spec.bm(),
            spec.bn,
            spec.bk,
            spec.stages,
            spec.mode
        )
    }
    fn elem(&self, spec: &HopperSpec) -> Elem {
        spec.ty
    }
    fn header(&self, spec: &HopperSpec) -> swizzle_core::cuda::Header {
        spec.swz_header()
    }
    /// [`HopperSpec::source`]: `hopper.cu` with `swz.cuh` ([`Family::header`]) and `gemm_spec.cuh`.
    fn compile_unit(&self, spec: &HopperSpec) -> (Source, Vec<String>) {
        (spec.source(), Vec::new())
    }
    fn arch(&self, _spec: &HopperSpec) -> Option<&'static str> {
        Some(super::ARCH)
    }
    fn entry(&self, _spec: &HopperSpec) -> &'static str {
        "hopper_gemm"
    }
    fn smem_bytes(&self, spec: &HopperSpec) -> u32 {
        spec.smem_bytes()
    }
    fn buffers(&self, spec: &HopperSpec, size: Size) -> Vec<Buffer> {
        let (m, n, k) = (size.m as usize, size.n as usize, size.k as usize);
        let e = spec.ty;
        vec![
            Buffer::input("A", e, m * k),
            Buffer::input("B", e, n * k),
            Buffer::output("C", e, m * n),
        ]
    }
    /// Without a device, the grid the planner's H100 runs ([`HopperSpec::launch`] on its 132 SMs); on a device
    /// the family launches through [`HopperGemm`] ([`Family::prepared`]).
    fn launch(&self, spec: &HopperSpec, size: Size) -> Result<Launch> {
        spec.launch(size, swizzle_core::plan::Device::H100.sms / spec.ctas())
    }
    /// Verification and benchmarks run the spec as [`HopperGemm`] does: compiled with the ptxas check, its grid
    /// the clusters the device runs at once.
    fn prepared(&self, gpu: &Gpu, spec: &HopperSpec, size: Size) -> Result<(Kernel, Launch)> {
        let g = HopperGemm::new(gpu, *spec)?;
        let launch = g.launch_at(size)?;
        Ok((g.kernel().clone(), launch))
    }
    fn reference(&self, spec: &HopperSpec, size: Size, inputs: &[HostBuf]) -> Vec<HostBuf> {
        fn rows<E: HostElem>(inputs: &[HostBuf], size: Size) -> Vec<Vec<f64>> {
            let rows: Vec<u32> = (0..size.m).collect();
            let (a, b) = (inputs[0].typed::<E>(), inputs[1].typed::<E>());
            check::host_rows(&a, &b, size.n, size.k, &rows)
        }
        let c = if spec.ty == Elem::F16 {
            rows::<half::f16>(inputs, size)
        } else {
            rows::<half::bf16>(inputs, size)
        };
        let flat: Vec<f64> = c.into_iter().flatten().collect();
        vec![HostBuf::from_f64(spec.ty, &flat)]
    }
    fn tolerance(&self, spec: &HopperSpec) -> Tolerance {
        // The output rounding (one 16-bit ulp, both sides round) plus fp32 accumulation; K <= 1024 here.
        let rel = 2.0 * crate::elem::unit_roundoff(spec.ty).unwrap_or(1.0);
        Tolerance::Close { abs: 2e-3, rel }
    }
    fn accesses(&self, spec: &HopperSpec) -> Vec<SpecAccess> {
        if !spec.smem_epilogue {
            return Vec::new();
        }
        let tile = spec.epilogue_tile();
        // The read back (hopper.cu, SMEM_EPILOGUE): `ld.shared.v4` of 16-byte row segments, lane q0 + lane at
        // row q / (width / 8), column (q % (width / 8)) * 8, q0 stepping 32 lanes, over a 64-column chunk (and a
        // 32-column last chunk when BN is not a multiple of 64).
        let read = |width: u32| {
            let per_row = width / 8;
            WarpAccess::new("epilogue read (16 B rows)", Op::LDS128)
                .lane(per_row, 0, 8)
                .lane(32 / per_row, 1, 0)
                .instr(16 * per_row / 32, 32 / per_row, 0)
        };
        let mut out = vec![
            SpecAccess {
                label: "epilogue stmatrix",
                smem: tile,
                access: Pattern::STMATRIX_X4.warp(),
                conflict_free: true,
            },
            SpecAccess {
                label: "epilogue read (16 B rows)",
                smem: tile,
                access: read(64),
                conflict_free: true,
            },
        ];
        if spec.bn % 64 == 32 {
            // Four lanes per 64-byte half row: the scratch's swizzle (made for 128-byte rows) puts lanes 4 apart
            // on the same banks, 2 wavefronts per phase where 1 would do (the model's count; a small cost on a
            // 16 x 32 epilogue, not fixed).
            out.push(SpecAccess {
                label: "epilogue read, last 32 columns (16 B rows)",
                smem: tile,
                access: read(32),
                conflict_free: false,
            });
        }
        out
    }

    /// Ragged sizes only, the largest 520x776x520 (5 x 4 tiles and 9 k-blocks, each last one partial; an odd
    /// tile-row count, so the last cluster's second CTA lies wholly past M): the registry's pass over every
    /// family stays quick and its host reference cheap.
    /// 1000^3, 4096^3 and 16384x128x4096 (against cuBLAS and sampled host rows) are in `tests/hopper_device.rs`.
    fn verify_sizes(&self) -> Vec<Size> {
        crate::frame::sizes("1x1x16 17x33x48 127x255x64 300x520x136 520x776x520")
    }
    fn parts(&self) -> Parts<'_, HopperSpec> {
        Parts::none().with_bench(self).with_plan(self)
    }
}

/// The FLOPs of the product, against cuBLAS on the spec's type in and out (the default measure and peer).
impl Bench for HopperFamily {
    fn block_label(&self, spec: &HopperSpec) -> String {
        format!("({},1)", spec.threads())
    }
    fn bench_sizes(&self) -> Vec<Size> {
        vec![Size::square(4096, true), Size::square(8192, true)]
    }
}

impl Plan<HopperSpec> for HopperFamily {
    /// Both element types planned for the problem by swizzle-core's model among what the kernel implements
    /// ([`super::planned`]); without a device, with the H100's numbers.
    fn planned(
        &self,
        size: Size,
        props: Option<&crate::runtime::DeviceProps>,
    ) -> Result<PlannedSpecs<HopperSpec>> {
        let dev = props.map_or(swizzle_core::plan::Device::H100, planned::plan_device);
        TYPES
            .into_iter()
            .map(|ty| {
                let p = planned::plan_for(size, ty, &dev)?;
                let why = format!(
                    "planned for {}: {:.1} us predicted, bound: {}",
                    p.device,
                    1e6 * p.estimate.time_s,
                    p.estimate.bound
                );
                Ok((p.spec, why))
            })
            .collect()
    }
}
