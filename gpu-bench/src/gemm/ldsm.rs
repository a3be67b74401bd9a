//! The GEMM's shared-memory load model: per launch, the ldmatrix instructions and wavefronts the bank model
//! predicts from a [`GemmSpec`]'s accesses, compared with Nsight Compute's counts (`swz tune gemm ncu`).

use gpu_kernels::gemm::{BLayout, GemmSpec, OutWidth};
use swizzle_core::Size;

/// The model's ldmatrix count and wavefronts for one launch of `size` with whole tiles (what Nsight
/// Compute's `smsp__inst_executed_op_ldsm.sum` and the ldsm share of the shared-load wavefronts count).
/// Per warp per k-tile: `mi * bk/16` A loads and `ni/2 * bk/16` B loads.
pub fn ldsm_model(spec: &GemmSpec, b: BLayout, size: Size) -> LdsmModel {
    let Size { m, n, k } = size;
    let blocks = (m / spec.bm) as u64 * (n / spec.bn) as u64;
    let per_tile = (spec.warps() * spec.bk / 16) as u64 * blocks * (k / spec.bk) as u64;
    let (na, nb) = (
        per_tile * spec.mi() as u64,
        per_tile * (spec.ni() / 2) as u64,
    );
    let acc = spec.accesses(b, OutWidth::B16);
    let per_instr = |i: usize| {
        let r = acc[i].2.report(&acc[i].1);
        r.wavefronts as f64 / r.instructions.max(1) as f64
    };
    let (wa, wb) = (per_instr(2), per_instr(3));
    // Epilogue read back (16-bit out): per warp, per m16 slice, 16 x wn x 2 bytes in 16-byte chunks.
    let c = &acc[5];
    let epi_per_slice = (16 * spec.wn * 2 / 16 / 32) as u64;
    let epi = blocks * (spec.warps() * spec.mi()) as u64 * epi_per_slice;
    let r = c.2.report(&c.1);
    // With the fragment prefetch, each warp's last k-tile has one predicated-off set of fragment loads: Nsight
    // Compute counts those instructions as executed (they move no data).
    let idle = if spec.prefetch {
        blocks * (spec.warps() * (spec.mi() + spec.ni() / 2)) as u64
    } else {
        0
    };
    // fp32 epilogue: two st.shared.v2 per n8 fragment per m16 slice.
    let f32w = &spec.accesses(b, OutWidth::F32)[4];
    let fr = f32w.2.report(&f32w.1);
    let f32_sts = blocks * (spec.warps() * spec.mi() * spec.ni() * 2) as u64;
    LdsmModel {
        instructions_executed: na + nb + idle,
        epilogue_f32_sts_instructions: f32_sts,
        epilogue_f32_sts_wavefronts: f32_sts * fr.wavefronts / fr.instructions.max(1) as u64,
        instructions: na + nb,
        wavefronts: (na as f64 * wa + nb as f64 * wb).round() as u64,
        a_per_instruction: wa,
        b_per_instruction: wb,
        epilogue_lds_instructions: epi,
        epilogue_lds_wavefronts: epi * r.wavefronts / r.instructions.max(1) as u64,
    }
}

/// [`ldsm_model`]'s result.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct LdsmModel {
    /// ldmatrix instructions that move data.
    pub instructions: u64,
    /// ldmatrix instructions executed, predicated-off ones included (what `smsp__inst_executed_op_ldsm` counts).
    pub instructions_executed: u64,
    /// The fp32 epilogue's `st.shared.v2.f32` (the mma.acc pattern): instructions and wavefronts.
    pub epilogue_f32_sts_instructions: u64,
    pub epilogue_f32_sts_wavefronts: u64,
    pub wavefronts: u64,
    pub a_per_instruction: f64,
    pub b_per_instruction: f64,
    /// The epilogue's `ld.shared.v4` read back (fp16 out), counted by ncu as ordinary shared loads.
    pub epilogue_lds_instructions: u64,
    pub epilogue_lds_wavefronts: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_kernels::gemm::spec::{SmemKind, SHIPPED, T128X256K64, UNSWIZZLED};

    /// ldmatrix.x4 costs 16 wavefronts on the unswizzled baseline's 64-byte rows and 32 on 128-byte rows (ideal
    /// 4, what every shipped spec costs).
    #[test]
    fn per_instruction_costs_follow_the_layout() {
        let size = Size::mnk(4096, 4096, 4096);
        let model = ldsm_model(&UNSWIZZLED, BLayout::Nk, size);
        assert_eq!(model.a_per_instruction, 16.0);
        assert_eq!(model.b_per_instruction, 16.0);
        let k64 = T128X256K64.with_smem("k64-plain", SmemKind::Unswizzled);
        assert_eq!(ldsm_model(&k64, BLayout::Nk, size).a_per_instruction, 32.0);
        assert_eq!(ldsm_model(&k64, BLayout::Kn, size).b_per_instruction, 32.0);
        for s in SHIPPED {
            let m = ldsm_model(&s, BLayout::Kn, size);
            assert_eq!(
                (m.a_per_instruction, m.b_per_instruction),
                (4.0, 4.0),
                "{s}"
            );
        }
    }
}
