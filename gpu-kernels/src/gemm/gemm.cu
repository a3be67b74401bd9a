// Tensor-core GEMM: C (M x N, row-major) = alpha * A (M x K, row-major) . B + beta * C, B either K x N row-major
// (B_KN = 1, read with ldmatrix.trans) or N x K row-major (B_KN = 0, plain ldmatrix). fp16 or bf16 in, fp32
// accumulation, fp16 / bf16 / fp32 out.
//
// Every number that describes shared memory or the block order comes from the generated header "swz.cuh"
// (swizzle-core's emitter, from one GemmSpec: gpu_kernels::gemm::header):
//   swz::Spec             tile sizes, stages, warps, dtypes, B layout
//   swz::Spec::SmemA/B/C  the smem tiles: rows, cols, pitch, bytes, offset(row, col) = Sw::apply(row * pitch + col)
//   swz::GemmOrder  tile_of(bid, tiles_n, tiles_m): which C tile the block launched bid-th computes
//
// Per block: a STAGES-deep cp.async ring of (A, B) k-tiles; 8 (or 4) warps each own a WM x WN tile of C as
// (WM/16) x (WN/8) m16n8k16 accumulators; per k16 step a warp loads its A and B fragments with ldmatrix.x4
// (double-buffered in registers: step kk+1's fragments load while step kk's mma issue), one __syncthreads per
// k-tile; with Spec::PREFETCH that barrier sits before the k-tile's last mma step, so the next tile's first
// fragments load across it. Epilogue: each warp converts one 16-row slice at a time into its own smem scratch (stmatrix for 16-bit
// outputs, st.shared.v2.f32 for fp32), reads it back as 16-byte rows and stores them with 16-byte global stores.
// The fills carry the spec's L2 prefetch size (Spec::L2_PREFETCH). Edges: cp.async zero-fills what lies outside A
// or B (src-size < 16), stores are predicated per element. Spec::FILL_TMA (an experiment, entry gemm_tma, B N x K):
// the same kernel with the ring filled by TMA boxes in the tiles' own 128B-swizzled layout (see Filler).
#include "swz.cuh"
#include "swz_copy.cuh"
#include "swz_convert.cuh"
#include "swz_tma.cuh"
#include "swz_mma.cuh"

using Spec = swz::Spec;
using SmemA = Spec::SmemA;
using SmemB = Spec::SmemB;
using SmemC = Spec::SmemC;

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

// The PTX wrappers (smem_u32, cp.async, ldmatrix, stmatrix, the vector moves, mma16816, TMA and mbarrier) come
// from the device headers swz_copy.cuh, swz_mma.cuh and swz_tma.cuh. The fills carry the spec's L2 prefetch size.
constexpr int L2_PREFETCH = Spec::L2_PREFETCH;

// TMA fill (Spec::FILL_TMA): TmaMap, the mbarrier wrappers and tma_load_2d come from swz_tma.cuh.

// Two floats -> one register of two 16-bit outputs (lo in the low half); the low 16-bit output of a word as fp32.
__device__ __forceinline__ u32 pack2(float lo, float hi) { return cvt_pack2<Spec::OUT_KIND == 1>(lo, hi); }
__device__ __forceinline__ float lo16(u32 w) { return cvt_lo16_f32<Spec::OUT_KIND == 1>(w); }

// One 32-bit word of output (two 16-bit values or one fp32) plus beta times the same word of the old C, in fp32,
// rounded back to the output type.
__device__ __forceinline__ u32 blend(u32 v, u32 old, float beta) {
    if constexpr (OUT_BYTES == 4) {
        return __float_as_uint(fmaf(beta, __uint_as_float(old), __uint_as_float(v)));
    } else {
        return pack2(fmaf(beta, lo16(old), lo16(v)), fmaf(beta, lo16(old >> 16), lo16(v >> 16)));
    }
}

// ---- global -> smem: one k-tile of an operand into one stage ----

// The cp.async copies of one operand tile (ROWS x COLS of smem layout L) for one thread. Chunk q = tid + i * THREADS
// of the tile, in memory order: copy i is RPC rows below copy 0, a whole number of swizzle periods, so its smem
// offset is copy 0's plus i * RPC * pitch. Everything that does not change with the k-tile (pointers, the smem
// offset, which copies lie inside the matrix along the non-K side) is computed once, in init(); issue() per k-tile
// only advances the source and zero-fills what lies past K.
//   K_COLS = true:  the tile's columns run along K (A, and B stored N x K): rows are M (or N), fixed per block.
//   K_COLS = false: the tile's rows run along K (B stored K x N): columns are N, fixed per block.
template <class L, int ROWS, int COLS, bool K_COLS>
struct Feed {
    static constexpr int CPR = COLS / 8, PER = ROWS * COLS / 8 / THREADS, RPC = THREADS / CPR;
    static_assert(THREADS % CPR == 0 && RPC % L::row_period == 0, "copy rows vs swizzle period");
    static_assert(PER <= 32, "copy mask");
    const unsigned short* g;    // the matrix (the address of zero-byte copies)
    const unsigned short* src;  // copy 0's chunk at k = 0
    u64 copy_stride;            // elements between consecutive copies (RPC rows)
    u64 k_stride;               // elements per unit of k (1 along columns, ld along rows)
    u32 dst;                    // smem byte offset of copy 0 in the tile
    u32 inside;                 // K_COLS: bit i = copy i's row < rows; else: copy 0's column bytes inside (0..16)
    int kpos, klimit;           // copy 0's k offset in the tile, and K
    bool all_inside;            // every copy inside the matrix along the non-K side (the block is not at an edge)

    __device__ __forceinline__ void init(const unsigned short* g_, int r0, int c0, int rows, int cols, int ld,
                                         int tid) {
        const int r = tid / CPR, c = (tid % CPR) * 8;
        g = g_;
        copy_stride = (u64)RPC * ld;
        dst = L::offset(r, c) * 2u;
        if constexpr (K_COLS) {
            src = g_ + (u64)(r0 + r) * ld + c;
            k_stride = 1;
            inside = 0;
#pragma unroll
            for (int i = 0; i < PER; ++i) inside |= (r0 + r + i * RPC < rows ? 1u : 0u) << i;
            kpos = c;
            klimit = cols;
            all_inside = r0 + ROWS <= rows;
        } else {
            src = g_ + (u64)r * ld + (c0 + c);
            k_stride = ld;
            const int left = cols - (c0 + c);
            inside = left > 0 ? (left >= 8 ? 16u : 2u * left) : 0u;
            kpos = r;
            klimit = rows;
            all_inside = c0 + COLS <= cols;
        }
    }

    // Byte offset of copy i in the tile: RPC rows (whole swizzle periods) below copy 0.
    __device__ __forceinline__ u32 dst_of(int i) const { return dst + i * RPC * L::pitch * 2u; }

    __device__ __forceinline__ void issue(u32 tile, int k0) const {
        const unsigned short* s = src + (u64)k0 * k_stride;
        // Block-uniform fast path: the whole k-tile lies inside the matrix, no predicates, no zero-fill.
        if (all_inside && k0 + (K_COLS ? COLS : ROWS) <= klimit) {
#pragma unroll
            for (int i = 0; i < PER; ++i) cp_async16_full<L2_PREFETCH>(tile + dst_of(i), s + i * copy_stride);
            return;
        }
        u32 col_bytes = 16u;
        if constexpr (K_COLS) {
            const int left = klimit - (k0 + kpos);
            col_bytes = left > 0 ? (left >= 8 ? 16u : 2u * left) : 0u;
        }
#pragma unroll
        for (int i = 0; i < PER; ++i) {
            u32 bytes;
            if constexpr (K_COLS) {
                bytes = (inside >> i) & 1u ? col_bytes : 0u;
            } else {
                bytes = k0 + kpos + i * RPC < klimit ? inside : 0u;
            }
            cp_async16<L2_PREFETCH>(tile + dst_of(i), bytes ? s + i * copy_stride : g, bytes);
        }
    }
};

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

// ---- the block's pieces ----

struct Args {
    unsigned char* __restrict__ C;
    const unsigned short* __restrict__ A;
    const unsigned short* __restrict__ B;
    int M, N, K, lda, ldb, ldc;
    float alpha, beta;
    const TmaMap* a_map;  // FILL_TMA only
    const TmaMap* b_map;
};

constexpr u32 STAGE_BYTES = SmemA::bytes + SmemB::bytes;

__device__ __forceinline__ u32 smem_base() {
    extern __shared__ __align__(128) unsigned char smem[];
    return smem_u32(smem);
}

// The C tile this block computes (inactive: a padding block of the raster).
__device__ __forceinline__ swz::Tile block_tile(const Args& a) {
    return swz::GemmOrder::tile_of(swz::launch_bid(), (a.N + BN - 1) / BN, (a.M + BM - 1) / BM);
}

// The ring's feed for thread ftid: k-tile kt into the stage at st.
struct Ring {
    Feed<SmemA, BM, BK, true> a;
    Feed<SmemB, Spec::B_KN ? BK : BN, Spec::B_KN ? BN : BK, !Spec::B_KN> b;
    __device__ __forceinline__ void init(const Args& x, int m0, int n0, int ftid) {
        a.init(x.A, m0, 0, x.M, x.K, x.lda, ftid);
        if constexpr (Spec::B_KN) {
            b.init(x.B, 0, n0, x.K, x.N, x.ldb, ftid);
        } else {
            b.init(x.B, n0, 0, x.N, x.K, x.ldb, ftid);
        }
    }
    __device__ __forceinline__ void load(u32 st, int kt) const {
#ifdef GEMM_SKIP_FILL
        return;
#endif
        a.issue(st, kt * BK);
        b.issue(st + SmemA::bytes, kt * BK);
    }
};

// The ring's producer side. cp.async: every thread copies its chunks of k-tile t (Ring), and landed(t) is
// cp.async.wait_group + __syncthreads. FILL_TMA: thread 0 issues one TMA box per operand, completing on slot
// t % STAGES's mbarrier (after the ring), and landed(t) is __syncthreads (every warp is done reading the slot about
// to be refilled) + a wait on tile t's barrier phase. Either way, landed(t) is where tile t becomes readable.
struct Filler {
    Ring ring;
    u32 s0, bars;
    int m0, n0, KT, tid;
    const Args* x;
    __device__ __forceinline__ void init(const Args& x_, u32 s0_, int m0_, int n0_, int tid_) {
        x = &x_;
        s0 = s0_;
        bars = s0_ + Spec::DATA_BYTES;
        m0 = m0_;
        n0 = n0_;
        tid = tid_;
        KT = (x_.K + BK - 1) / BK;
        if constexpr (Spec::FILL_TMA) {
            static_assert(!Spec::FILL_TMA || (Spec::PREFETCH && !Spec::B_KN), "TMA fill: prefetch loop, B N x K");
            if (tid == 0) {
                for (int s = 0; s < STAGES; ++s) mbar_init(bars + 8u * s, 1);
                mbar_init_fence();
                fence_proxy_async_smem();
            }
            __syncthreads();
        } else {
            ring.init(x_, m0_, n0_, tid_);
        }
    }
    __device__ __forceinline__ void issue(int t) const {
        const u32 st = s0 + (t % STAGES) * STAGE_BYTES;
        if constexpr (Spec::FILL_TMA) {
#ifdef GEMM_SKIP_FILL
            return;
#endif
            if (tid == 0 && t < KT) {
                const u32 bar = bars + 8u * (t % STAGES);
                mbar_expect_tx(bar, STAGE_BYTES);
                tma_load_2d(st, x->a_map, bar, t * BK, m0);
                tma_load_2d(st + SmemA::bytes, x->b_map, bar, t * BK, n0);
            }
        } else {
            if (t < KT) ring.load(st, t);
            cp_async_commit();
        }
    }
    __device__ __forceinline__ void landed(int t) const {
        if constexpr (Spec::FILL_TMA) {
            __syncthreads();
#ifndef GEMM_SKIP_FILL
            if (t < KT) mbar_wait(bars + 8u * (t % STAGES), (u32)((t / STAGES) & 1));
#endif
        } else {
            cp_async_wait<STAGES - 2>();  // tile t has landed (this thread's copies) ...
            __syncthreads();              // ... everyone's; and everyone is done reading the stage refilled next
        }
    }
};

using Acc = float[MI][NI][4];

// GEMM_SKIP_MMA / GEMM_SKIP_FILL (defined only by the diagnostic builds: gemm::Diagnostic with the gpu-kernels
// feature `experiments`, `swz tune gemm diag`; never in a shipped build): drop the mma (ptxas
// then drops the unused ldmatrix too) or the fill (cp.async or TMA), to time the rest of the main loop alone. The
// result is wrong by design.
__device__ __forceinline__ void mma_step(Acc& acc, const u32 (&fa)[MI][4], const u32 (&fb)[NI][2]) {
#ifdef GEMM_SKIP_MMA
    return;
#endif
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NI; ++j) mma16816<Spec::IN_BF16>(acc[i][j], fa[i], fb[j][0], fb[j][1]);
}

// Epilogue, per warp: one 16 x WN slice at a time through its smem scratch (the ring, which every warp has finished
// reading when this runs), out with 16-byte global stores. C = alpha * A.B + beta * C: alpha scales the fp32
// accumulators here; beta * C is added to each 16-byte chunk below, in fp32, as it leaves the scratch (a 16-bit
// alpha * A.B is rounded once before that: two roundings). beta == 0 (the usual case, uniform) never reads C, so C
// may hold anything (NaN included), as in BLAS.
__device__ __forceinline__ void epilogue(Acc& acc, const Args& x, u32 s0, int m0, int n0, int warp, int lane) {
    const int wm0 = (warp / WARPS_N) * WM, wn0 = (warp % WARPS_N) * WN;
    if (x.alpha != 1.f) {
#pragma unroll
        for (int i = 0; i < MI; ++i)
#pragma unroll
            for (int j = 0; j < NI; ++j)
#pragma unroll
                for (int e = 0; e < 4; ++e) acc[i][j][e] *= x.alpha;
    }
    const u32 sc = s0 + warp * SmemC::bytes;
    constexpr int VEC = 16 / OUT_BYTES;              // outputs per 16-byte chunk
    constexpr int CHUNKS = 16 * WN / VEC;            // chunks per slice
    constexpr int CHUNKS_PER_ROW = WN / VEC;
    const int M = x.M, N = x.N;
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
                sts_v2_f32(sc + SmemC::offset(r, c) * 4u, acc[i][j][0], acc[i][j][1]);
                sts_v2_f32(sc + SmemC::offset(r + 8, c) * 4u, acc[i][j][2], acc[i][j][3]);
            }
        }
        __syncwarp();
#pragma unroll
        for (int q0 = 0; q0 < CHUNKS; q0 += 32) {
            const int q = q0 + lane;
            const int r = q / CHUNKS_PER_ROW, c = (q % CHUNKS_PER_ROW) * VEC;
            u32 v[4];
            lds_v4_b32(v, sc + SmemC::offset(r, c) * (u32)OUT_BYTES);
            const int gr = m0 + wm0 + i * 16 + r, gc = n0 + wn0 + c;
            if (gr < M) {
                unsigned char* dst = x.C + ((u64)gr * x.ldc + gc) * OUT_BYTES;
                if (x.beta != 0.f) {
                    u32 o[4] = {0u, 0u, 0u, 0u};
                    if (gc + VEC <= N) {
                        ldg_v4_b32(o, dst);
                    } else {
#pragma unroll
                        for (int e = 0; e < VEC; ++e) {
                            if (gc + e < N) {
                                if constexpr (OUT_BYTES == 2) {
                                    o[e / 2] |= (u32)reinterpret_cast<const unsigned short*>(dst)[e] << (16 * (e % 2));
                                } else {
                                    o[e] = reinterpret_cast<const u32*>(dst)[e];
                                }
                            }
                        }
                    }
                    v[0] = blend(v[0], o[0], x.beta);
                    v[1] = blend(v[1], o[1], x.beta);
                    v[2] = blend(v[2], o[2], x.beta);
                    v[3] = blend(v[3], o[3], x.beta);
                }
                if (gc + VEC <= N) {
                    stg_v4_b32(dst, v[0], v[1], v[2], v[3]);
                } else {
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

__device__ __forceinline__ void zero(Acc& acc) {
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NI; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.f;
}

// ---- the block: fill, main loop, epilogue ----

__device__ __forceinline__ void gemm_block(const Args& x) {
    const swz::Tile tile = block_tile(x);
    if (!tile.active) return;
    const int m0 = tile.y * BM, n0 = tile.x * BN;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wm0 = (warp / WARPS_N) * WM, wn0 = (warp % WARPS_N) * WN;
    // The ring starts on the swizzle's period (FILL_TMA: 1 KiB, which TMA's 128B swizzle needs; the smem size
    // allows for the slack).
    const u32 s0 = Spec::FILL_TMA ? (smem_base() + Spec::TMA_ALIGN - 1) & ~(u32)(Spec::TMA_ALIGN - 1) : smem_base();
    const int KT = (x.K + BK - 1) / BK;
    Filler fill;
    fill.init(x, s0, m0, n0, tid);

#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) fill.issue(s);
    Acc acc;
    zero(acc);
    u32 fa[2][MI][4], fb[2][NI][2];
    if constexpr (Spec::PREFETCH) {
        // The barrier of k-tile kt+1 sits inside k-tile kt's last k16 step: wait for tile kt+1, then load its first
        // fragments, then issue tile kt's last mma. The barrier's wait overlaps the tensor cores' work, and every
        // k-step finds its fragments loaded. Tile kt+STAGES-1 is fetched into the stage of tile kt-1, which every
        // warp finished reading before that barrier. KSTEPS is even, so tile kt+1's first step lands in buffer 0.
        static_assert(KSTEPS % 2 == 0, "PREFETCH needs an even number of k16 steps per k-tile");
        fill.landed(0);
        load_frags(fa[0], fb[0], s0, s0 + SmemA::bytes, wm0, wn0, 0, lane);
        for (int kt = 0; kt < KT; ++kt) {
            fill.issue(kt + STAGES - 1);
            const u32 sa = s0 + (kt % STAGES) * STAGE_BYTES, sb = sa + SmemA::bytes;
#pragma unroll
            for (int kk = 0; kk < KSTEPS; ++kk) {
                if (kk + 1 < KSTEPS) {
                    load_frags(fa[(kk + 1) & 1], fb[(kk + 1) & 1], sa, sb, wm0, wn0, kk + 1, lane);
                } else {
                    fill.landed(kt + 1);
                    const u32 na = s0 + ((kt + 1) % STAGES) * STAGE_BYTES;
                    if (kt + 1 < KT) load_frags(fa[0], fb[0], na, na + SmemA::bytes, wm0, wn0, 0, lane);
                }
                mma_step(acc, fa[kk & 1], fb[kk & 1]);
            }
        }
    } else {
        // One barrier at the top of each k-tile; the tile's first fragments load after it.
        for (int kt = 0; kt < KT; ++kt) {
            fill.landed(kt);
            fill.issue(kt + STAGES - 1);
            const u32 sa = s0 + (kt % STAGES) * STAGE_BYTES, sb = sa + SmemA::bytes;
            load_frags(fa[0], fb[0], sa, sb, wm0, wn0, 0, lane);
#pragma unroll
            for (int kk = 0; kk < KSTEPS; ++kk) {
                if (kk + 1 < KSTEPS) load_frags(fa[(kk + 1) & 1], fb[(kk + 1) & 1], sa, sb, wm0, wn0, kk + 1, lane);
                mma_step(acc, fa[kk & 1], fb[kk & 1]);
            }
        }
    }
    cp_async_wait<0>();
    __syncthreads();  // the ring is free: reuse it as per-warp scratch
    epilogue(acc, x, s0, m0, n0, warp, lane);
}

extern "C" __global__ void __launch_bounds__(THREADS, Spec::MIN_BLOCKS)
    gemm(unsigned char* __restrict__ C, const unsigned short* __restrict__ A, const unsigned short* __restrict__ B,
         int M, int N, int K, int lda, int ldb, int ldc, float alpha, float beta) {
    if constexpr (!Spec::FILL_TMA) gemm_block(Args{C, A, B, M, N, K, lda, ldb, ldc, alpha, beta, nullptr, nullptr});
}

// FILL_TMA: the same kernel, with A's and B's tensor maps (K-major, the spec's boxes, 128B swizzle) first.
extern "C" __global__ void __launch_bounds__(THREADS, Spec::MIN_BLOCKS)
    gemm_tma(const __grid_constant__ TmaMap a_map, const __grid_constant__ TmaMap b_map, unsigned char* __restrict__ C,
             const unsigned short* __restrict__ A, const unsigned short* __restrict__ B, int M, int N, int K, int lda,
             int ldb, int ldc, float alpha, float beta) {
    if constexpr (Spec::FILL_TMA) {
        gemm_block(Args{C, A, B, M, N, K, lda, ldb, ldc, alpha, beta, &a_map, &b_map});
    }
}
