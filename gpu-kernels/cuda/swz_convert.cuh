// Conversions between fp32 and packed 16-bit pairs, the epilogues' rounding to the output type.
#pragma once
#include "swz_types.cuh"

// Two fp32 -> one bf16x2 (BF16 = 1) or f16x2 (BF16 = 0) word, lo in the low half, round to nearest even.
template <int BF16>
__device__ __forceinline__ u32 cvt_pack2(float lo, float hi) {
    u32 r;
    if constexpr (BF16) {
        asm("cvt.rn.bf16x2.f32 %0, %2, %1;\n" : "=r"(r) : "f"(lo), "f"(hi));
    } else {
        asm("cvt.rn.f16x2.f32 %0, %2, %1;\n" : "=r"(r) : "f"(lo), "f"(hi));
    }
    return r;
}

// The low 16 bits of a word as fp32 (exact): bf16 (BF16 = 1) or f16.
template <int BF16>
__device__ __forceinline__ float cvt_lo16_f32(u32 w) {
    if constexpr (BF16) {
        return __uint_as_float(w << 16);
    } else {
        float f;
        asm("{ .reg .b16 l, h; mov.b32 {l, h}, %1; cvt.f32.f16 %0, l; }" : "=f"(f) : "r"(w));
        return f;
    }
}
