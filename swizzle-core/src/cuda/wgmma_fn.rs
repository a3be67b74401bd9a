//! The `wgmma.mma_async` instruction for one tile shape as a device function: its operand list depends on N (one
//! `"+f"` accumulator per fp32 of the `m64nNk16` fragment), so it is generated, not written.

use crate::units::Elem;
use crate::wgmma::Major;

/// `wgmma_tile(d, da, db, scale_d)`: `D[64 x n] (+)= A[64 x k] * B[n x k]^T` from shared-memory descriptors,
/// fp32 accumulators, `ab` (f16 or bf16, k = 16; e4m3 or e5m2, k = 32: 32 bytes of K either way) inputs;
/// `scale_d = 0` overwrites D. `a` and `b` give the operands' major (the instruction's transpose immediates, which
/// the 8-bit forms do not take: their operands are K-major).
///
/// ```
/// use swizzle_core::cuda::wgmma_tile;
/// use swizzle_core::{wgmma::Major, Elem};
/// let f = wgmma_tile(8, Elem::BF16, Major::K, Major::K);
/// assert!(f.contains("float (&d)[4]"));
/// assert!(f.contains("wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;"));
/// assert!(f.contains("setp.ne.b32 p, %6, 0;"));
/// let f8 = wgmma_tile(8, Elem::E4M3, Major::K, Major::K);
/// assert!(f8.contains("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {%0, %1, %2, %3}, %4, %5, p, 1, 1;"));
/// ```
pub fn wgmma_tile(n: u32, ab: Elem, a: Major, b: Major) -> String {
    let acc = n / 2; // fp32 accumulators per thread for m64nN
    let t = ab.name();
    let k = crate::wgmma::K_STEP_BYTES / ab.bytes();
    // 16-bit forms take the transpose immediates; the 8-bit ones (K-major only) do not.
    let trans = if ab.bytes() == 2 {
        format!(", {}, {}", a.imm_trans(), b.imm_trans())
    } else {
        String::new()
    };
    let regs = (0..acc)
        .map(|i| format!("%{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let outs = (0..acc)
        .map(|i| format!("\"+f\"(d[{i}])"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "// D[64 x {n}] (+)= A[64 x k{k}] * B[{n} x k{k}]^T from shared-memory descriptors.\n\
         __device__ __forceinline__ void wgmma_tile(float (&d)[{acc}], unsigned long long da, unsigned long long db, uint32_t scale_d) {{\n\
         \x20   asm volatile(\"{{\\n.reg .pred p;\\nsetp.ne.b32 p, %{sd}, 0;\\n\"\n\
         \x20       \"wgmma.mma_async.sync.aligned.m64n{n}k{k}.f32.{t}.{t} {{{regs}}}, %{pa}, %{pb}, p, 1, 1{trans};\\n}}\\n\"\n\
         \x20       : {outs}\n\
         \x20       : \"l\"(da), \"l\"(db), \"r\"(scale_d));\n\
         }}\n",
        pa = acc,
        pb = acc + 1,
        sd = acc + 2,
    )
}
