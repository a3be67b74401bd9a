// The tensor-core fragment problems (1.1, 1.2, 2.1, 3.1): ldmatrix + mma.sync.m16n8k16 + stmatrix on swizzled smem.
//
// Every shared-memory coordinate goes through a layout type from the generated header (`swz.cuh`):
// `LAYOUT::offset(row, col)` is the element offset of (row, col) in that buffer. The layouts (one XOR layer, two
// layers, or none for the baselines) are Rust spec values; this file never sees a mask or a shift.
//   Problem 1.1  swz::Fragments::P1          16x16 f16  (A and the running power P)
//   Problem 1.2  swz::Fragments::P2          16x32 f16  (M = [A | B])
//   Problem 2.1  swz::Fragments::P21         16x256 f16 (A and B, one layout for both access modes)
//   Problem 3.1  swz::Fragments::P31Mode1/Mode2  16x256 f16 (A, B switch layout mid-kernel; C1 in Mode1, C2 in Mode2)
#include <cuda_fp16.h>
#include "swz.cuh"
#include "swz_copy.cuh"
#include "swz_mma.cuh"

// ---- warp-level tensor-core primitives ----------------------------------------------------------------------
// ldmatrix / stmatrix / mma.sync are the device headers' (swz_copy.cuh, swz_mma.cuh); these take smem pointers.

// The shared-window address through the compiler's intrinsic (not swz_copy.cuh's explicit cvta, which the GEMMs
// issue): it lets these small kernels fold the conversion, as they always did.
__device__ __forceinline__ u32 smem_at(const void* p) { return (u32)__cvta_generic_to_shared(p); }
// ldmatrix.x4: lane l gives the address of row (l % 8) of matrix (l / 8); register i receives matrix i.
__device__ __forceinline__ void ldsm_x4(u32 (&r)[4], const __half* p) { ldsm_x4(r, smem_at(p)); }
__device__ __forceinline__ void ldsm_x4_trans(u32 (&r)[4], const __half* p) { ldsm_x4_trans(r, smem_at(p)); }
__device__ __forceinline__ void stsm_x4(__half* p, const u32 (&r)[4]) { stsm_x4(smem_at(p), r[0], r[1], r[2], r[3]); }
__device__ __forceinline__ u32 pack_half2(float lo, float hi) {
    __half2 h = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<u32*>(&h);
}

// ---- fragment coordinates: which (row, col) of a 16x16 block each lane hands to ldmatrix/stmatrix -----------
// "A order": lanes 0..16 -> rows 0..16 at col 0, lanes 16..32 -> rows 0..16 at col 8. Matrices: (r0-7,c0-7),
// (r8-15,c0-7), (r0-7,c8-15), (r8-15,c8-15) = a0..a3 of an mma A operand, or b0,b1 of two n-tiles with .trans on a
// k x n row-major B, or the four 8x8 quarters of an accumulator tile for stmatrix.
__device__ __forceinline__ int a_row(int lane) { return lane & 15; }
__device__ __forceinline__ int a_col(int lane) { return (lane >> 4) * 8; }
// "B order" (non-trans B stored n x k): matrices (n0-7,k0-7), (n0-7,k8-15), (n8-15,k0-7), (n8-15,k8-15).
__device__ __forceinline__ int b_row(int lane) { return (lane & 7) + ((lane >> 4) << 3); }
__device__ __forceinline__ int b_col(int lane) { return ((lane >> 3) & 1) * 8; }

// 16x16 result of one warp: two m16n8 tiles.
struct Acc16 {
    float d[2][4];
    __device__ void zero() {
        for (int j = 0; j < 2; ++j)
            for (int i = 0; i < 4; ++i) d[j][i] = 0.f;
    }
    // a: A operand regs (a0..a3); b: regs of the x4 B load (n-tile 0: b[0], b[1]; n-tile 1: b[2], b[3]).
    __device__ void mma(const u32 (&a)[4], const u32 (&b)[4]) {
        mma16816<0>(d[0], a, b[0], b[1]);
        mma16816<0>(d[1], a, b[2], b[3]);
    }
    // The four stmatrix registers in A order: (r0-7,c0-7), (r8-15,c0-7), (r0-7,c8-15), (r8-15,c8-15).
    __device__ void to_half(u32 (&r)[4]) const {
        r[0] = pack_half2(d[0][0], d[0][1]);
        r[1] = pack_half2(d[0][2], d[0][3]);
        r[2] = pack_half2(d[1][0], d[1][1]);
        r[3] = pack_half2(d[1][2], d[1][3]);
    }
    // Element (row, col) of the accumulator held in d[j][i]: row = lane/4 (+8 for i >= 2), col = 8j + 2(lane%4) + i%2.
    __device__ void store_f32(float* out, int ld, int lane) const {
        int g = lane >> 2, t = lane & 3;
        for (int j = 0; j < 2; ++j)
            for (int i = 0; i < 4; ++i) out[(g + (i >> 1) * 8) * ld + 8 * j + 2 * t + (i & 1)] = d[j][i];
    }
};

// 16-byte row copies between global (row-major, `cols` halves per row) and a smem layout: chunk q of the matrix is
// row q / (cols/8), columns 8 * (q % (cols/8)) .. +8. Thread `t` of `nt` copies chunks t, t + nt, ...
template <class L>
__device__ __forceinline__ void fill(__half* s, const __half* g, int rows, int cols, int t, int nt) {
    int per_row = cols / 8;
    for (int q = t; q < rows * per_row; q += nt) {
        int r = q / per_row, c = 8 * (q % per_row);
        *reinterpret_cast<uint4*>(s + L::offset(r, c)) = *reinterpret_cast<const uint4*>(g + r * cols + c);
    }
}
template <class L>
__device__ __forceinline__ void drain(__half* g, const __half* s, int rows, int cols, int t, int nt) {
    int per_row = cols / 8;
    for (int q = t; q < rows * per_row; q += nt) {
        int r = q / per_row, c = 8 * (q % per_row);
        *reinterpret_cast<uint4*>(g + r * cols + c) = *reinterpret_cast<const uint4*>(s + L::offset(r, c));
    }
}

// ---- Problem 1.1: P = A^n for a 16x16 f16 A, <<<1, 32>>> ------------------------------------------------------
// P_1 = A, P_{k+1} = P_k * A, rounded to f16 after every step (P lives in smem as the next A operand).
extern "C" __global__ void __launch_bounds__(32) fragments_power(const __half* a, __half* out, int n) {
    __shared__ __align__(128) __half sa[256];
    __shared__ __align__(128) __half sp[256];
    int lane = threadIdx.x;
    fill<swz::Fragments::P1>(sa, a, 16, 16, lane, 32);
    fill<swz::Fragments::P1>(sp, a, 16, 16, lane, 32);
    __syncwarp();
    u32 b[4];  // A as the right factor (k x n row-major): .trans
    ldsm_x4_trans(b, sa + swz::Fragments::P1::offset(a_row(lane), a_col(lane)));
    for (int step = 1; step < n; ++step) {
        u32 x[4];
        ldsm_x4(x, sp + swz::Fragments::P1::offset(a_row(lane), a_col(lane)));
        Acc16 acc;
        acc.zero();
        acc.mma(x, b);
        u32 h[4];
        acc.to_half(h);
        __syncwarp();  // every lane has read P before any lane overwrites it
        stsm_x4(sp + swz::Fragments::P1::offset(a_row(lane), a_col(lane)), h);
        __syncwarp();
    }
    drain<swz::Fragments::P1>(out, sp, 16, 16, lane, 32);
}

// ---- Problem 1.2: C = A * B where M = [A | B] is one 16x32 f16 matrix, <<<1, 32>>> ---------------------------
extern "C" __global__ void __launch_bounds__(32) fragments_halves(const __half* m, float* c) {
    __shared__ __align__(128) __half sm[512];
    int lane = threadIdx.x;
    fill<swz::Fragments::P2>(sm, m, 16, 32, lane, 32);
    __syncwarp();
    u32 x[4], b[4];
    ldsm_x4(x, sm + swz::Fragments::P2::offset(a_row(lane), a_col(lane)));
    ldsm_x4_trans(b, sm + swz::Fragments::P2::offset(a_row(lane), 16 + a_col(lane)));
    Acc16 acc;
    acc.zero();
    acc.mma(x, b);
    acc.store_f32(c, 16, lane);
}

// ---- Problems 2.1 / 3.1: two access modes on 16x256 A, B, <<<1, (32, 16)>>> -----------------------------------
// Mode 1: warp w takes column block w: Asub = A[:, 16w..16w+16]; C1[:, 16w..] = Asub * Bsub^T.
// Mode 2: warp w takes row w viewed as 16x16: Asub(r, c) = A[w][16r + c]; C2[w][16r + c] = (Asub * Bsub^T)(r, c).
// Bsub^T as the mma B operand (k x n, "col") is Bsub stored n x k: plain ldmatrix in B order.
template <class L>
__device__ __forceinline__ void mode1(Acc16& acc, const __half* sa, const __half* sb, int w, int lane) {
    u32 x[4], b[4];
    ldsm_x4(x, sa + L::offset(a_row(lane), 16 * w + a_col(lane)));
    ldsm_x4(b, sb + L::offset(b_row(lane), 16 * w + b_col(lane)));
    acc.zero();
    acc.mma(x, b);
}
template <class L>
__device__ __forceinline__ void mode2(Acc16& acc, const __half* sa, const __half* sb, int w, int lane) {
    u32 x[4], b[4];
    ldsm_x4(x, sa + L::offset(w, 16 * a_row(lane) + a_col(lane)));
    ldsm_x4(b, sb + L::offset(w, 16 * b_row(lane) + b_col(lane)));
    acc.zero();
    acc.mma(x, b);
}

// 2.1: one two-layer layout serves both modes; results go straight from registers to global (f32).
extern "C" __global__ void __launch_bounds__(512)
fragments_two_modes(const __half* a, const __half* b, float* c1, float* c2) {
    __shared__ __align__(1024) __half sa[4096];
    __shared__ __align__(1024) __half sb[4096];
    int lane = threadIdx.x, w = threadIdx.y, t = w * 32 + lane;
    fill<swz::Fragments::P21>(sa, a, 16, 256, t, 512);
    fill<swz::Fragments::P21>(sb, b, 16, 256, t, 512);
    __syncthreads();
    Acc16 acc;
    mode1<swz::Fragments::P21>(acc, sa, sb, w, lane);
    acc.store_f32(c1 + 16 * w, 256, lane);
    mode2<swz::Fragments::P21>(acc, sa, sb, w, lane);
    acc.store_f32(c2 + 256 * w, 16, lane);  // row w of C2 is the 16x16 result, row-major
}

// 3.1: the interleaving variant. One single-layer layout at a time: A, B in Mode1 for mode 1; C1 (f16) written to
// smem in Mode1 with stmatrix; then A and B are re-laid in place into Mode2 (16-byte chunks through registers,
// with a barrier between the last Mode1 read and the first Mode2 write); mode 2; C2 written in Mode2; both result
// tiles leave through 16-byte reads.
extern "C" __global__ void __launch_bounds__(512)
fragments_interleaved(const __half* a, const __half* b, __half* c1, __half* c2) {
    __shared__ __align__(1024) __half sa[4096];
    __shared__ __align__(1024) __half sb[4096];
    __shared__ __align__(1024) __half sc1[4096];
    __shared__ __align__(1024) __half sc2[4096];
    int lane = threadIdx.x, w = threadIdx.y, t = w * 32 + lane;
    fill<swz::Fragments::P31Mode1>(sa, a, 16, 256, t, 512);
    fill<swz::Fragments::P31Mode1>(sb, b, 16, 256, t, 512);
    __syncthreads();
    Acc16 acc;
    u32 h[4];
    mode1<swz::Fragments::P31Mode1>(acc, sa, sb, w, lane);
    acc.to_half(h);
    stsm_x4(sc1 + swz::Fragments::P31Mode1::offset(a_row(lane), 16 * w + a_col(lane)), h);
    // Layout switch, in place: thread t owns chunk t of A and of B (row t / 32, cols 8 * (t % 32) .. +8).
    int r = t / 32, c = 8 * (t % 32);
    uint4 va = *reinterpret_cast<const uint4*>(sa + swz::Fragments::P31Mode1::offset(r, c));
    uint4 vb = *reinterpret_cast<const uint4*>(sb + swz::Fragments::P31Mode1::offset(r, c));
    __syncthreads();  // all Mode1 reads of A and B (ldmatrix and the chunk reads) are done
    *reinterpret_cast<uint4*>(sa + swz::Fragments::P31Mode2::offset(r, c)) = va;
    *reinterpret_cast<uint4*>(sb + swz::Fragments::P31Mode2::offset(r, c)) = vb;
    __syncthreads();  // A and B are whole in Mode2
    mode2<swz::Fragments::P31Mode2>(acc, sa, sb, w, lane);
    acc.to_half(h);
    stsm_x4(sc2 + swz::Fragments::P31Mode2::offset(w, 16 * a_row(lane) + a_col(lane)), h);
    __syncthreads();
    drain<swz::Fragments::P31Mode1>(c1, sc1, 16, 256, t, 512);
    drain<swz::Fragments::P31Mode2>(c2, sc2, 16, 256, t, 512);
}
