// Tensor-core GEMM: C (M x N, row-major) = A (M x K, row-major) . B, B either K x N row-major (B_KN = 1, read
// with ldmatrix.trans) or N x K row-major (B_KN = 0, plain ldmatrix). fp16 or bf16 in, fp32 accumulation,
// fp16 / bf16 / fp32 out.
//
// Every number that describes shared memory or the block order comes from the generated header "swz.cuh"
// (rendered by gpu-kernels' gemm module from one GemmSpec):
//   swz::Spec       tile sizes, stages, warps, dtypes, B layout
//   swz::SmemA/B/C  the smem tiles: rows, cols, pitch, bytes, offset(row, col) = Sw::apply(row * pitch + col)
//   swz::GemmOrder  tile_of(bid, tiles_n, tiles_m): which C tile the block launched bid-th computes
//
// Per block: a STAGES-deep cp.async ring of (A, B) k-tiles; 8 (or 4) warps each own a WM x WN tile of C as
// (WM/16) x (WN/8) m16n8k16 accumulators; per k16 step a warp loads its A and B fragments with ldmatrix.x4
// (double-buffered in registers: step kk+1's fragments load while step kk's mma issue), one __syncthreads per
// k-tile; with Spec::PREFETCH that barrier sits before the k-tile's last mma step, so the next tile's first
// fragments load across it. Epilogue: each warp converts one 16-row slice at a time into its own smem scratch (stmatrix for 16-bit
// outputs, st.shared.v2.f32 for fp32), reads it back as 16-byte rows and stores them with 16-byte global stores.
// Edges: cp.async zero-fills what lies outside A or B (src-size < 16), stores are predicated per element.
#include "swz.cuh"

typedef unsigned int u32;
typedef unsigned long long u64;

using Spec = swz::Spec;
using SmemA = swz::SmemA;
using SmemB = swz::SmemB;
using SmemC = swz::SmemC;

constexpr int BM = Spec::BM, BN = Spec::BN, BK = Spec::BK;
constexpr int WM = Spec::WM, WN = Spec::WN, STAGES = Spec::STAGES;
constexpr int WARPS_N = BN / WN;
constexpr int THREADS = (BM / WM) * WARPS_N * 32;
constexpr int MI = WM / 16, NI = WN / 8, KSTEPS = BK / 16;
constexpr int OUT_BYTES = Spec::OUT_BYTES;

static_assert(THREADS == Spec::THREADS, "thread count");
static_assert(WM % 16 == 0 && WN % 16 == 0 && BK % 16 == 0, "warp tile / BK");
static_assert((BM * BK / 8) % THREADS == 0 && (BN * BK / 8) % THREADS == 0, "whole chunks per thread");
static_assert(SmemA::rows == BM && SmemA::cols == BK, "A tile");
static_assert(Spec::B_KN ? (SmemB::rows == BK && SmemB::cols == BN) : (SmemB::rows == BN && SmemB::cols == BK),
              "B tile");
static_assert(SmemC::rows == 16 && SmemC::cols == WN, "C scratch");
static_assert(SmemA::bytes % 128 == 0 && SmemB::bytes % 128 == 0 && SmemC::bytes % 128 == 0, "16B-aligned tiles");

// ---- PTX wrappers ----

__device__ __forceinline__ u32 smem_addr(const void* p) {
    u32 r;
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(r) : "l"(p));
    return r;
}

// 16-byte async copy; bytes past src_bytes (0..16) are zero-filled and not read.
__device__ __forceinline__ void cp_async16(u32 dst, const void* src, u32 src_bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

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

__device__ __forceinline__ void mma16816(float (&c)[4], const u32 (&a)[4], u32 b0, u32 b1) {
    if constexpr (Spec::IN_BF16) {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
            "{%0, %1, %2, %3};\n"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    } else {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
            "{%0, %1, %2, %3};\n"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    }
}

// Two floats -> one register of two 16-bit outputs (lo in the low half), round to nearest even.
__device__ __forceinline__ u32 pack2(float lo, float hi) {
    u32 r;
    if constexpr (Spec::OUT_KIND == 1) {
        asm("cvt.rn.bf16x2.f32 %0, %2, %1;\n" : "=r"(r) : "f"(lo), "f"(hi));
    } else {
        asm("cvt.rn.f16x2.f32 %0, %2, %1;\n" : "=r"(r) : "f"(lo), "f"(hi));
    }
    return r;
}

// ---- global -> smem: one k-tile of A and B into one stage ----

// A (or a K-contiguous B) tile: ROWS x COLS elements from row r0, column c0 of a row-major matrix with `rows`
// rows, `cols` valid columns and leading dimension ld. Chunk q = tid + i * THREADS of the tile, in memory order:
// copy i is ROWS_PER_COPY rows below copy 0, a whole number of swizzle periods, so its smem offset is copy 0's
// plus i * ROWS_PER_COPY * pitch (one address computation per thread, not one per copy).
template <class L, int ROWS, int COLS>
__device__ __forceinline__ void load_rows(u32 s, const unsigned short* g, int r0, int c0, int rows, int cols, int ld,
                                          int tid) {
    constexpr int CHUNKS_PER_ROW = COLS / 8;
    constexpr int PER_THREAD = ROWS * COLS / 8 / THREADS;
    constexpr int ROWS_PER_COPY = THREADS / CHUNKS_PER_ROW;
    static_assert(THREADS % CHUNKS_PER_ROW == 0 && ROWS_PER_COPY % L::row_period == 0, "copy rows vs swizzle period");
    const int r = tid / CHUNKS_PER_ROW, c = (tid % CHUNKS_PER_ROW) * 8;
    const int gc = c0 + c, left = cols - gc;
    const u32 row_bytes = left > 0 ? (left >= 8 ? 16u : 2u * left) : 0u;
    const u32 dst = s + L::offset(r, c) * 2u;
    const unsigned short* src = g + (u64)(r0 + r) * ld + gc;
#pragma unroll
    for (int i = 0; i < PER_THREAD; ++i) {
        const bool in = r0 + r + i * ROWS_PER_COPY < rows;
        const u32 bytes = in ? row_bytes : 0u;
        cp_async16(dst + i * ROWS_PER_COPY * L::pitch * 2u, bytes ? src + (u64)i * ROWS_PER_COPY * ld : g, bytes);
    }
}

__device__ __forceinline__ void load_stage(u32 sa, u32 sb, const unsigned short* A, const unsigned short* B, int m0,
                                           int n0, int k0, int M, int N, int K, int lda, int ldb, int tid) {
    load_rows<SmemA, BM, BK>(sa, A, m0, k0, M, K, lda, tid);
    if constexpr (Spec::B_KN) {
        load_rows<SmemB, BK, BN>(sb, B, k0, n0, K, N, ldb, tid);
    } else {
        load_rows<SmemB, BN, BK>(sb, B, n0, k0, N, K, ldb, tid);
    }
}

// ---- smem -> registers: one k16 step's fragments of one warp ----

// Fragment i of A is 16 rows below fragment 0 and fragment j of B (Nk) 16 rows below fragment 0: whole swizzle
// periods, so one offset per k16 step (per j for the Kn tile, whose k16 steps are the whole-period rows).
static_assert(16 % SmemA::row_period == 0 && 16 % SmemB::row_period == 0, "fragment rows vs swizzle period");

__device__ __forceinline__ void load_frags(u32 (&fa)[MI][4], u32 (&fb)[NI][2], u32 sa, u32 sb, int wm0, int wn0,
                                           int kk, int lane) {
    // ldmatrix.x4, A lane order: row lane % 16, column (lane / 16) * 8 of the 16 x 16 block.
    const u32 a0 = sa + SmemA::offset(wm0 + (lane & 15), kk * 16 + (lane >> 4) * 8) * 2u;
#pragma unroll
    for (int i = 0; i < MI; ++i) ldsm_x4(fa[i], a0 + i * 16 * SmemA::pitch * 2u);
#pragma unroll
    for (int j = 0; j < NI / 2; ++j) {
        u32 r[4];
        if constexpr (Spec::B_KN) {
            // k x n tile, .trans: row (k) lane % 16, column (n) (lane / 16) * 8.
            ldsm_x4_trans(r, sb + (SmemB::offset(lane & 15, wn0 + j * 16 + (lane >> 4) * 8) + kk * 16 * SmemB::pitch) * 2u);
        } else {
            // n x k tile: row (n) (lane / 16) * 8 + lane % 8, column (k) ((lane / 8) % 2) * 8.
            const u32 b0 = sb + SmemB::offset(wn0 + (lane >> 4) * 8 + (lane & 7), kk * 16 + ((lane >> 3) & 1) * 8) * 2u;
            ldsm_x4(r, b0 + j * 16 * SmemB::pitch * 2u);
        }
        fb[2 * j][0] = r[0];
        fb[2 * j][1] = r[1];
        fb[2 * j + 1][0] = r[2];
        fb[2 * j + 1][1] = r[3];
    }
}

extern "C" __global__ void __launch_bounds__(THREADS, Spec::MIN_BLOCKS)
    gemm(unsigned char* __restrict__ C, const unsigned short* __restrict__ A, const unsigned short* __restrict__ B,
         int M, int N, int K, int lda, int ldb, int ldc) {
    extern __shared__ __align__(128) unsigned char smem[];
    const swz::Tile tile = swz::GemmOrder::tile_of(swz::launch_bid(), (N + BN - 1) / BN, (M + BM - 1) / BM);
    if (!tile.active) return;
    const int m0 = tile.y * BM, n0 = tile.x * BN;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wm0 = (warp / WARPS_N) * WM, wn0 = (warp % WARPS_N) * WN;

    const u32 s0 = smem_addr(smem);
    constexpr u32 STAGE_BYTES = SmemA::bytes + SmemB::bytes;
    const int KT = (K + BK - 1) / BK;

#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < KT) load_stage(s0 + s * STAGE_BYTES, s0 + s * STAGE_BYTES + SmemA::bytes, A, B, m0, n0, s * BK, M, N, K,
                               lda, ldb, tid);
        cp_async_commit();
    }

    float acc[MI][NI][4];
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NI; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.f;

    u32 fa[2][MI][4], fb[2][NI][2];
    if constexpr (Spec::PREFETCH) {
        // The barrier of k-tile kt+1 sits inside k-tile kt's last k16 step: wait for tile kt+1, then load its first
        // fragments, then issue tile kt's last mma. The barrier's wait overlaps the tensor cores' work, and every
        // k-step finds its fragments loaded. Tile kt+STAGES-1 is fetched into the stage of tile kt-1, which every
        // warp finished reading before that barrier. KSTEPS is even, so tile kt+1's first step lands in buffer 0.
        static_assert(KSTEPS % 2 == 0, "PREFETCH needs an even number of k16 steps per k-tile");
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        load_frags(fa[0], fb[0], s0, s0 + SmemA::bytes, wm0, wn0, 0, lane);
        for (int kt = 0; kt < KT; ++kt) {
            {
                const int nk = kt + STAGES - 1;
                const u32 st = s0 + (nk % STAGES) * STAGE_BYTES;
                if (nk < KT) load_stage(st, st + SmemA::bytes, A, B, m0, n0, nk * BK, M, N, K, lda, ldb, tid);
                cp_async_commit();
            }
            const u32 sa = s0 + (kt % STAGES) * STAGE_BYTES, sb = sa + SmemA::bytes;
#pragma unroll
            for (int kk = 0; kk < KSTEPS; ++kk) {
                if (kk + 1 < KSTEPS) {
                    load_frags(fa[(kk + 1) & 1], fb[(kk + 1) & 1], sa, sb, wm0, wn0, kk + 1, lane);
                } else {
                    cp_async_wait<STAGES - 2>();  // k-tile kt+1 has landed (this thread's copies) ...
                    __syncthreads();              // ... everyone's; and everyone is done reading tile kt
                    const u32 na = s0 + ((kt + 1) % STAGES) * STAGE_BYTES;
                    if (kt + 1 < KT) load_frags(fa[0], fb[0], na, na + SmemA::bytes, wm0, wn0, 0, lane);
                }
#pragma unroll
                for (int i = 0; i < MI; ++i)
#pragma unroll
                    for (int j = 0; j < NI; ++j)
                        mma16816(acc[i][j], fa[kk & 1][i], fb[kk & 1][j][0], fb[kk & 1][j][1]);
            }
        }
    } else {
        // One barrier at the top of each k-tile; the tile's first fragments load after it.
        for (int kt = 0; kt < KT; ++kt) {
            cp_async_wait<STAGES - 2>();  // k-tile kt has landed (this thread's copies) ...
            __syncthreads();              // ... everyone's; and everyone is done reading the stage refilled next
            {
                const int nk = kt + STAGES - 1;
                const u32 st = s0 + (nk % STAGES) * STAGE_BYTES;
                if (nk < KT) load_stage(st, st + SmemA::bytes, A, B, m0, n0, nk * BK, M, N, K, lda, ldb, tid);
                cp_async_commit();
            }
            const u32 sa = s0 + (kt % STAGES) * STAGE_BYTES, sb = sa + SmemA::bytes;
            load_frags(fa[0], fb[0], sa, sb, wm0, wn0, 0, lane);
#pragma unroll
            for (int kk = 0; kk < KSTEPS; ++kk) {
                if (kk + 1 < KSTEPS) load_frags(fa[(kk + 1) & 1], fb[(kk + 1) & 1], sa, sb, wm0, wn0, kk + 1, lane);
#pragma unroll
                for (int i = 0; i < MI; ++i)
#pragma unroll
                    for (int j = 0; j < NI; ++j)
                        mma16816(acc[i][j], fa[kk & 1][i], fb[kk & 1][j][0], fb[kk & 1][j][1]);
            }
        }
    }

    // ---- epilogue: per warp, one 16 x WN slice at a time through its smem scratch ----
    cp_async_wait<0>();
    __syncthreads();  // the ring is free: reuse it as per-warp scratch
    const u32 sc = s0 + warp * SmemC::bytes;
    constexpr int VEC = 16 / OUT_BYTES;              // outputs per 16-byte chunk
    constexpr int CHUNKS = 16 * WN / VEC;            // chunks per slice
    constexpr int CHUNKS_PER_ROW = WN / VEC;
#pragma unroll
    for (int i = 0; i < MI; ++i) {
        if constexpr (OUT_BYTES == 2) {
#pragma unroll
            for (int j = 0; j < NI / 2; ++j) {
                // stmatrix.x4, A lane order: matrices (rows 0-7 | 8-15) x (cols 16j + 0-7 | 8-15).
                stsm_x4(sc + SmemC::offset(lane & 15, j * 16 + (lane >> 4) * 8) * 2u,
                        pack2(acc[i][2 * j][0], acc[i][2 * j][1]), pack2(acc[i][2 * j][2], acc[i][2 * j][3]),
                        pack2(acc[i][2 * j + 1][0], acc[i][2 * j + 1][1]),
                        pack2(acc[i][2 * j + 1][2], acc[i][2 * j + 1][3]));
            }
        } else {
#pragma unroll
            for (int j = 0; j < NI; ++j) {
                const int r = lane >> 2, c = j * 8 + (lane & 3) * 2;
                asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(sc + SmemC::offset(r, c) * 4u),
                             "f"(acc[i][j][0]), "f"(acc[i][j][1]));
                asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(sc + SmemC::offset(r + 8, c) * 4u),
                             "f"(acc[i][j][2]), "f"(acc[i][j][3]));
            }
        }
        __syncwarp();
#pragma unroll
        for (int q0 = 0; q0 < CHUNKS; q0 += 32) {
            const int q = q0 + lane;
            const int r = q / CHUNKS_PER_ROW, c = (q % CHUNKS_PER_ROW) * VEC;
            u32 v0, v1, v2, v3;
            asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];\n"
                         : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3)
                         : "r"(sc + SmemC::offset(r, c) * (u32)OUT_BYTES));
            const int gr = m0 + wm0 + i * 16 + r, gc = n0 + wn0 + c;
            if (gr < M) {
                unsigned char* dst = C + ((u64)gr * ldc + gc) * OUT_BYTES;
                if (gc + VEC <= N) {
                    asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"l"(dst), "r"(v0), "r"(v1), "r"(v2),
                                 "r"(v3));
                } else {
                    const u32 v[4] = {v0, v1, v2, v3};
#pragma unroll
                    for (int e = 0; e < VEC; ++e) {
                        if (gc + e < N) {
                            if constexpr (OUT_BYTES == 2) {
                                reinterpret_cast<unsigned short*>(dst)[e] = (unsigned short)(v[e / 2] >> (16 * (e % 2)));
                            } else {
                                reinterpret_cast<u32*>(dst)[e] = v[e];
                            }
                        }
                    }
                }
            }
        }
        __syncwarp();
    }
}
