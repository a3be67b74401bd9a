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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::{Arg, DynFamily};

    /// Every planner variant's epilogue accesses, as declared, cover the scratch tile: the stmatrix stores and
    /// the 16-byte row reads (loads, LDS128) are conflict-free in the bank model; the 32-column last chunk (BN not
    /// a multiple of 64) reads with 2 wavefronts per phase, as declared.
    #[test]
    fn epilogue_accesses_are_conflict_free_loads_and_stores() {
        for ty in TYPES {
            for spec in planned::kernel_variants(ty) {
                let acc = HOPPER.accesses(&spec);
                assert_eq!(acc.len(), if spec.bn % 64 == 32 { 3 } else { 2 }, "{spec}");
                for a in &acc {
                    let r = a.access.report(&a.smem);
                    if a.conflict_free {
                        assert_eq!(r.conflicts(), 0, "{spec} {}: {r}", a.label);
                    } else {
                        assert_eq!(r.wavefronts, 2 * r.ideal, "{spec} {}: {r}", a.label);
                    }
                    // 16 rows x 64 (or 32) columns of 16-bit values, 16 bytes per lane: every byte once.
                    let bytes = 16 * 32 * r.instructions;
                    let want = if a.label.contains("last 32") {
                        16 * 32 * 2
                    } else {
                        16 * 64 * 2
                    };
                    assert_eq!(bytes, want, "{spec} {}", a.label);
                }
                let read = acc[1].access.op(&acc[1].smem);
                assert_eq!(read, swizzle_core::bank::Op::LDS128, "{spec}");
            }
        }
    }

    /// The frame's host reference is `A * B^T` in f64, rounded to the spec's type, for both types.
    #[test]
    fn reference_is_a_times_b_transposed() {
        let size = Size::mnk(2, 3, 8);
        for spec in HOPPER.specs() {
            let bufs = HOPPER.buffers(&spec, size);
            let inputs = HOPPER.inputs(&spec, size, &bufs);
            let (a, b) = (inputs[0].to_f64(), inputs[1].to_f64());
            let c = &HOPPER.reference(&spec, size, &inputs)[0];
            assert_eq!(c.elem, spec.ty);
            for r in 0..2 {
                for j in 0..3 {
                    let exact: f64 = (0..8).map(|x| a[r * 8 + x] * b[j * 8 + x]).sum();
                    let want = HostBuf::from_f64(spec.ty, &[exact]).get(0);
                    assert_eq!(c.get(r * 3 + j), want, "{spec} ({r},{j})");
                }
            }
        }
    }

    /// `--sizes N` means the cube for this GEMM (a square `N x N` would have K = 1, which TMA cannot load).
    #[test]
    fn a_bench_size_is_a_cube_the_launch_accepts() {
        let s = DynFamily::size_of(&HOPPER, 4096);
        assert_eq!(s, Size::mnk(4096, 4096, 4096));
        for spec in HOPPER.specs() {
            let l = HOPPER.launch(&spec, s).unwrap();
            assert_eq!(l.config.grid_dim.0 % spec.cluster, 0);
        }
        assert!(HOPPER.launch(&SHIPPED, Size::mn(4096, 4096)).is_err());
    }

    /// The frame's launch encodes the maps `HopperGemm::launch` encodes: with clusters, B's box is the slice one
    /// CTA loads and multicasts (bn / cluster rows), not the whole tile.
    #[test]
    fn the_frame_launch_uses_the_kernels_map_boxes() {
        let specs = HOPPER
            .specs()
            .into_iter()
            .chain(super::super::sweep::variants());
        for spec in specs {
            let l = HOPPER.launch(&spec, Size::mnk(300, 520, 136)).unwrap();
            let tiles: Vec<_> = l
                .args
                .iter()
                .filter_map(|a| match *a {
                    Arg::TensorMap { tile, .. } => Some(tile),
                    _ => None,
                })
                .collect();
            let (a, b) = spec.map_boxes();
            assert_eq!(tiles, [a, b], "{spec}");
            assert_eq!(b.params().box_outer * spec.cluster, spec.bn, "{spec}");
            assert_eq!((a.mn, b.mn * spec.cluster), (spec.bm(), spec.bn), "{spec}");
            assert_eq!(l.args.last(), Some(&Arg::U32(spec.bm())), "{spec}");
            // Fewer rows than the tile: A's box and the kernel's a_rows argument clip to them, rounded up to 8.
            for (m, rows) in [(1, 8), (16, 16), (17, 24), (63, 64)] {
                let l = HOPPER.launch(&spec, Size::mnk(m, 520, 136)).unwrap();
                let a_box = l.args.iter().find_map(|a| match *a {
                    Arg::TensorMap { buf: 0, tile, .. } => Some(tile),
                    _ => None,
                });
                let rows = rows.min(spec.bm());
                assert_eq!(
                    a_box.map(|t| t.params().box_outer),
                    Some(rows),
                    "{spec} m={m}"
                );
                assert_eq!(l.args.last(), Some(&Arg::U32(rows)), "{spec} m={m}");
            }
        }
    }
}
