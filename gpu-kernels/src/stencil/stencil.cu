// 1D k-stencil (the register-cache article): B[i] = (A[i] + A[i+1] + ... + A[i+2K]) / (2K+1) for i < m = n - 2K.
//
// One file, three ways to feed each thread its window, chosen by METHOD (a Rust spec, gpu-kernels/src/stencil/):
//   0 global : each thread loads its window straight from global memory (read-only, L1-cached path)
//   1 smem   : the block stages its inputs (tile + halo) in shared memory, then each thread reads its window there
//   2 shfl   : the register cache: each warp loads its inputs once into registers, spread over its lanes by the
//              layout swizzle_core::register_cache generates (stencil_rc.cuh), and reads them with __shfl_sync
// Every thread computes PER consecutive outputs (1, 2, 4 or 8) from the PER + 2K inputs that start at its first
// output; inputs and outputs move VEC elements per access (VEC = PER up to 16 bytes). Sums run in input order
// (A[i] first), then one division: fp32 results are bit-identical to the host reference, int divides as C does.
//
// Every number comes from the generated header (gpu-kernels/src/stencil/mod.rs, StencilSpec::header): swz::Spec
// holds METHOD, K, PER, VEC, BLOCK, TILE_ELEMS, the element type T and the shared-memory tile Smem (a layout with
// offset(row, col), the spec's swizzle included); stencil_rc.cuh holds the register cache swz::StencilRc.
//
// Fixed against the article's listings: `s[...]` for `smem[...]` (did not compile); the smem allocation of
// blockDim + k elements for a tile that needs blockDim + 2k (the article's launches use 4104 B at k = 2 and 4116 B at
// k = 5: halo stores and loads past the end of shared memory); `return` before `__syncthreads()` (a barrier the
// last block's threads do not all reach); __activemask() as the shuffle mask after an early return (lanes that
// left are read by the shuffles; on Volta and later the active mask is not even a convergence guarantee): here
// every lane of a warp that has any output stays, and every shuffle names the full mask.
#include "swz.cuh"
#include "swz_types.cuh"
#include "stencil_rc.cuh"

typedef swz::Spec S;
typedef S::T T;
constexpr u32 K = S::K, PER = S::PER, VEC = S::VEC, BLOCK = S::BLOCK;
static_assert(sizeof(T) == 4, "the stencil kernels move 4-byte elements");
static_assert(PER % VEC == 0 && VEC * sizeof(T) <= 16, "VEC divides PER, at most 16 bytes");
static_assert(BLOCK % 32 == 0, "whole warps");

// Inputs one thread reads (its window) and the VEC-wide accesses that cover it.
constexpr u32 WIN = PER + 2 * K;
constexpr u32 WIN_VECS = (WIN + VEC - 1) / VEC;

// ---- VEC-element accesses: the bits travel as unsigned / uint2 / uint4 ------------------------------------------
template <int N> struct Bits;
template <> struct Bits<1> { typedef unsigned type; };
template <> struct Bits<2> { typedef uint2 type; };
template <> struct Bits<4> { typedef uint4 type; };

__device__ __forceinline__ void from_bits(float& v, unsigned u) { v = __uint_as_float(u); }
__device__ __forceinline__ void from_bits(int& v, unsigned u) { v = (int)u; }
__device__ __forceinline__ unsigned to_bits(float v) { return __float_as_uint(v); }
__device__ __forceinline__ unsigned to_bits(int v) { return (unsigned)v; }

__device__ __forceinline__ void unpack(T* r, unsigned b) { from_bits(r[0], b); }
__device__ __forceinline__ void unpack(T* r, uint2 b) { from_bits(r[0], b.x); from_bits(r[1], b.y); }
__device__ __forceinline__ void unpack(T* r, uint4 b) {
    from_bits(r[0], b.x); from_bits(r[1], b.y); from_bits(r[2], b.z); from_bits(r[3], b.w);
}
__device__ __forceinline__ void pack(unsigned& b, const T* r) { b = to_bits(r[0]); }
__device__ __forceinline__ void pack(uint2& b, const T* r) { b = make_uint2(to_bits(r[0]), to_bits(r[1])); }
__device__ __forceinline__ void pack(uint4& b, const T* r) {
    b = make_uint4(to_bits(r[0]), to_bits(r[1]), to_bits(r[2]), to_bits(r[3]));
}

// N elements at p (N-element aligned) into r, through the read-only path.
template <int N> __device__ __forceinline__ void load_global(T* r, const T* p) {
    unpack(r, __ldg(reinterpret_cast<const typename Bits<N>::type*>(p)));
}
template <int N> __device__ __forceinline__ void load_shared(T* r, const T* p) {
    unpack(r, *reinterpret_cast<const typename Bits<N>::type*>(p));
}
template <int N> __device__ __forceinline__ void store(T* p, const T* r) {
    typename Bits<N>::type b;
    pack(b, r);
    *reinterpret_cast<typename Bits<N>::type*>(p) = b;
}

// N inputs from index i: one vector access when all are in range, else element by element (zeros past n).
template <int N> __device__ __forceinline__ void load_guarded(T* r, const T* __restrict__ a, u32 i, u32 n) {
    if (i + N <= n) {
        load_global<N>(r, a + i);
    } else {
#pragma unroll
        for (u32 e = 0; e < N; ++e) r[e] = i + e < n ? __ldg(a + i + e) : T(0);
    }
}

// The PER outputs of a thread from its window w (w[q + s] = A[o0 + q + s]), stored at o0 (PER-aligned) when
// they lie below m: VEC at a time when all do, element by element in the last partial group.
__device__ __forceinline__ void finish(T (&out)[PER], T* __restrict__ b, u32 o0, u32 m) {
#pragma unroll
    for (u32 q = 0; q < PER; ++q) out[q] = out[q] / T(2 * K + 1);
    if (o0 + PER <= m) {
#pragma unroll
        for (u32 c = 0; c < PER; c += VEC) store<VEC>(b + o0 + c, out + c);
    } else {
#pragma unroll
        for (u32 q = 0; q < PER; ++q)
            if (o0 + q < m) b[o0 + q] = out[q];
    }
}

__device__ __forceinline__ void sum_window(T (&out)[PER], const T* w) {
#pragma unroll
    for (u32 q = 0; q < PER; ++q) {
        T acc = w[q];
#pragma unroll
        for (u32 s = 1; s <= 2 * K; ++s) acc += w[q + s];
        out[q] = acc;
    }
}

// ---- global: the window from global memory ----------------------------------------------------------------------
__device__ __forceinline__ void stencil_global(T* __restrict__ b, const T* __restrict__ a, u32 n) {
    const u32 m = n - 2 * K;
    const u32 o0 = (blockIdx.x * BLOCK + threadIdx.x) * PER;
    if (o0 >= m) return;
    T w[WIN_VECS * VEC];
#pragma unroll
    for (u32 c = 0; c < WIN_VECS; ++c) load_guarded<VEC>(w + c * VEC, a, o0 + c * VEC, n);
    T out[PER];
    sum_window(out, w);
    finish(out, b, o0, m);
}

// ---- smem: tile + halo in shared memory -------------------------------------------------------------------------
// The block's inputs start at its first output b0: TILE_ELEMS >= (BLOCK - 1) * PER + WIN_VECS * VEC of them (the
// last thread's whole window, rounded to 16-byte fills), loaded with 16-byte loads and stored with sts128. The
// fill runs to FILL_ELEMS (whole warp instructions of 128 elements), storing zeros past TILE_ELEMS without a
// global load, and every thread reads its window back (VEC at a time) whether or not its outputs lie below m
// (stores are guarded): so every block issues the same shared-memory instructions, all with 32 active lanes, as
// the accesses declared in smem.rs / family.rs. Tile element j lives at S::Smem::offset(0, j): a one-row layout
// carrying the spec's swizzle (the identity unless the spec swizzles: with PER = 8 the lanes' 16-byte reads are
// 32 bytes apart, and the swizzle spreads them over all banks).
constexpr u32 FILL = 16 / sizeof(T);
static_assert(S::TILE_ELEMS % FILL == 0 && S::TILE_ELEMS >= (BLOCK - 1) * PER + WIN_VECS * VEC, "tile covers the windows");
static_assert(S::FILL_ELEMS % (32 * FILL) == 0 && S::FILL_ELEMS >= S::TILE_ELEMS, "the fill is whole warp instructions");
static_assert(S::Smem::ROWS == 1 && S::Smem::COLS >= S::FILL_ELEMS && S::Smem::ELEM_BYTES == sizeof(T), "Smem holds the fill");

__device__ __forceinline__ void stencil_smem(T* __restrict__ b, const T* __restrict__ a, u32 n) {
    __shared__ __align__(16) T s[S::Smem::BYTES / sizeof(T)];
    const u32 m = n - 2 * K;
    const u32 b0 = blockIdx.x * BLOCK * PER;
    for (u32 i = threadIdx.x * FILL; i < S::FILL_ELEMS; i += BLOCK * FILL) {
        T r[FILL];
        if (i < S::TILE_ELEMS) {
            load_guarded<FILL>(r, a, b0 + i, n);
        } else {
#pragma unroll
            for (u32 e = 0; e < FILL; ++e) r[e] = T(0);
        }
        store<FILL>(s + S::Smem::offset(0, i), r);
    }
    __syncthreads();
    const u32 l0 = threadIdx.x * PER;
    T w[WIN_VECS * VEC];
#pragma unroll
    for (u32 c = 0; c < WIN_VECS; ++c) load_shared<VEC>(w + c * VEC, s + S::Smem::offset(0, l0 + c * VEC));
    T out[PER];
    sum_window(out, w);
    finish(out, b, b0 + l0, m);
}

// ---- shfl: the register cache -----------------------------------------------------------------------------------
// swz::StencilRc is generated from swizzle_core::register_cache::RegisterCache { per_lane: PER, radius: K }: which
// warp input each (lane, register) holds, and per step t which lane to read (source_lane) and what each lane
// publishes (published). Rust proves at build time that every read is served by the lane that holds the element.
typedef swz::StencilRc Rc;
static_assert(Rc::per_lane == PER && Rc::radius == K && Rc::warp == 32, "the cache was generated for this spec");
static_assert(Rc::registers % VEC == 0, "registers load VEC at a time");

__device__ __forceinline__ void stencil_shfl(T* __restrict__ b, const T* __restrict__ a, u32 n) {
    const u32 m = n - 2 * K;
    const u32 lane = threadIdx.x % 32;
    const u32 w0 = (blockIdx.x * BLOCK + threadIdx.x - lane) * PER; // the warp's first output and input
    if (w0 >= m) return;                                             // whole warps only: the shuffles need all 32
    T rc[Rc::registers];
#pragma unroll
    for (u32 r = 0; r < Rc::registers; r += VEC) {
        if (Rc::holds(lane, r)) {
            load_guarded<VEC>(rc + r, a, w0 + Rc::element(lane, r), n);
        } else {
#pragma unroll
            for (u32 e = 0; e < VEC; ++e) rc[r + e] = T(0);
        }
    }
    T out[PER];
#pragma unroll
    for (u32 t = 0; t < Rc::steps; ++t) {
        const T v = Rc::is_local(t) ? rc[Rc::slot(t)]
                                    : __shfl_sync(0xFFFFFFFFu, Rc::published(rc, t, lane), Rc::source_lane(t, lane));
#pragma unroll
        for (u32 q = 0; q < PER; ++q) {
            if (t == q) out[q] = v;
            else if (Rc::uses(q, t)) out[q] += v;
        }
    }
    finish(out, b, w0 + lane * PER, m);
}

// ---- the kernel: one method per spec ----------------------------------------------------------------------------
static_assert(S::METHOD >= 0 && S::METHOD <= 2, "METHOD is 0 (global), 1 (smem) or 2 (shfl)");

extern "C" __global__ void __launch_bounds__(BLOCK) stencil(T* __restrict__ b, const T* __restrict__ a, u32 n) {
    if constexpr (S::METHOD == 0) {
        stencil_global(b, a, n);
    } else if constexpr (S::METHOD == 1) {
        stencil_smem(b, a, n);
    } else {
        stencil_shfl(b, a, n);
    }
}
