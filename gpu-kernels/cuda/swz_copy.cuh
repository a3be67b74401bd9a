// Shared-memory addressing and the copy instructions between global memory, shared memory and registers:
// cvta to a shared-window address, cp.async (16-byte, optional L2 prefetch, zero-fill), ldmatrix[.trans],
// stmatrix, and the 16-byte / 8-byte vector moves the epilogues issue. Each instruction is written once, here.
#pragma once
#include "swz_types.cuh"

// The 32-bit shared-window address of a generic pointer into shared memory.
__device__ __forceinline__ u32 smem_u32(const void* p) {
    u32 r;
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(r) : "l"(p));
    return r;
}

// ---- cp.async: 16-byte global -> shared copies, completed by cp_async_wait ----
// L2_PREFETCH (0, 128 or 256 bytes): on a miss, L2 fetches the whole aligned 128 / 256 bytes around the copy's 16
// from DRAM, so the next bytes of the same row are on their way before they are asked for.
#define SWZ_CP_ASYNC(L2) "cp.async.cg.shared.global" L2 " [%0], [%1], 16"
// A chunk that lies wholly inside the source.
template <int L2_PREFETCH>
__device__ __forceinline__ void cp_async16_full(u32 dst, const void* src) {
    if constexpr (L2_PREFETCH == 256) {
        asm volatile(SWZ_CP_ASYNC(".L2::256B") ";\n" ::"r"(dst), "l"(src));
    } else if constexpr (L2_PREFETCH == 128) {
        asm volatile(SWZ_CP_ASYNC(".L2::128B") ";\n" ::"r"(dst), "l"(src));
    } else {
        asm volatile(SWZ_CP_ASYNC("") ";\n" ::"r"(dst), "l"(src));
    }
}
// Bytes past src_bytes (0..16) are zero-filled and not read.
template <int L2_PREFETCH>
__device__ __forceinline__ void cp_async16(u32 dst, const void* src, u32 src_bytes) {
    if constexpr (L2_PREFETCH == 256) {
        asm volatile(SWZ_CP_ASYNC(".L2::256B") ", %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
    } else if constexpr (L2_PREFETCH == 128) {
        asm volatile(SWZ_CP_ASYNC(".L2::128B") ", %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
    } else {
        asm volatile(SWZ_CP_ASYNC("") ", %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
    }
}
#undef SWZ_CP_ASYNC
// One 4-byte word (through L1); src_bytes 0 writes a zero and reads nothing.
__device__ __forceinline__ void cp_async4(u32 dst, const void* src, u32 src_bytes) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

// ---- ldmatrix / stmatrix: four 8x8 b16 matrices; lane l gives the address of row (l % 8) of matrix (l / 8) ----
__device__ __forceinline__ void ldsm_x4(u32 (&r)[4], u32 addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}
__device__ __forceinline__ void ldsm_x4_trans(u32 (&r)[4], u32 addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}
__device__ __forceinline__ void stsm_x4(u32 addr, u32 r0, u32 r1, u32 r2, u32 r3) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), "r"(r0),
                 "r"(r1), "r"(r2), "r"(r3));
}

// ---- vector moves of the epilogues ----
// No "memory" clobber: these are volatile, so they keep their order among themselves and with barriers; the
// kernels order them against plain loads and stores with __syncwarp / __syncthreads.
__device__ __forceinline__ void sts_v2_f32(u32 addr, float a, float b) {
    asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(addr), "f"(a), "f"(b));
}
__device__ __forceinline__ void sts_v4_f32(u32 addr, float a, float b, float c, float d) {
    asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), "f"(a), "f"(b), "f"(c), "f"(d));
}
__device__ __forceinline__ float lds_f32(u32 addr) {
    float a;
    asm volatile("ld.shared.f32 %0, [%1];\n" : "=f"(a) : "r"(addr));
    return a;
}
__device__ __forceinline__ void lds_v4_b32(u32 (&o)[4], u32 addr) {
    asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(o[0]), "=r"(o[1]), "=r"(o[2]), "=r"(o[3])
                 : "r"(addr));
}
__device__ __forceinline__ void ldg_v4_b32(u32 (&o)[4], const void* p) {
    asm volatile("ld.global.v4.b32 {%0, %1, %2, %3}, [%4];\n" : "=r"(o[0]), "=r"(o[1]), "=r"(o[2]), "=r"(o[3]) : "l"(p));
}
__device__ __forceinline__ void stg_v4_b32(void* p, u32 v0, u32 v1, u32 v2, u32 v3) {
    asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"l"(p), "r"(v0), "r"(v1), "r"(v2), "r"(v3));
}
