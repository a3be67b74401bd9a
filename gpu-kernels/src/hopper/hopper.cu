// Hopper GEMM: C (M x N, row-major) = A (M x K, row-major) * B^T (B is N x K, row-major: the "TN" GEMM),
// 16-bit inputs, fp32 accumulation, 16-bit output; or e4m3 inputs (k32 wgmma, 128 e4m3 per 128-byte smem row)
// with fp32 scales (SCALE 1: per tensor, 2: per row of A x per row of B, both applied to the fp32 sums before
// the epilogue; 3: per 1x128 block of A and 128x128 block of B, each K block's partial sum accumulated on its own
// and promoted into the fp32 sum with its scales: every 128 of K; a producer warp stages each K block's scales in
// shared memory beside its tiles) and a bf16, fp16 or fp32 C (OUT_BYTES; the pointer is the 16-bit one, cast for
// fp32).
//
// One block = one producer warpgroup (a single thread issues TMA loads into a STAGES-deep ring) and CONSUMERS
// consumer warpgroups (each owns 64 rows of the BM x BN block tile and runs wgmma.mma_async m64nBNk16 from shared
// memory descriptors). The grid is persistent: block b takes tiles b, b + gridDim.x, ... in the order of the
// raster TileOrder. With SPLIT > 1 a cluster of SPLIT CTAs computes each tile, CTA r over its part r of the K
// loop, and the partial sums meet in distributed shared memory (below). With the tail split (SPEC_TAIL) the
// last tail_tiles slots of the order are each cut into tail_parts parts of the K loop, dealt out after the whole
// tiles, and meet in a global workspace (below). Epilogue (SMEM_EPILOGUE, shipped): per consumer warp, stmatrix
// into its own swizzled scratch (swz::EpilogueTile), 16-byte row reads, 16-byte global stores; else a register
// quad transpose (STORE16) or 4-byte pairs.
//
// Split-K, deterministic: each CTA of the split cluster stores its fp32 accumulators in its own shared memory
// (fragment order: quad q of thread t at (q * consumer threads + t) * 16 bytes), arrives on every CTA's `ready`
// barrier, and once all SPLIT partials are there CTA r adds, for its share of the quads, the partials of CTAs
// 0, 1, ..., SPLIT-1 in that order (over distributed shared memory) and writes those outputs. The sum's order is
// fixed, whatever order the CTAs finish in: the same bits every run. A `free` barrier keeps a CTA from writing
// its next tile's partial before every CTA has read this one. No global workspace, no second kernel.
//
// Tail split (swizzle_core::tail): the work units are the whole tiles, then each tail tile's parts. Every part but
// the last stores its fp32 partial in the workspace (tail_partials: a BM x BN partial per such part of each tail
// tile, fragment order as above), and its consumers' first thread counts it in the tile's arrival counter
// (tail_count, zero between launches). The last part, dealt out after the others (it never waits for a part
// queued behind a waiting one; every CTA of the persistent grid is resident), waits for the count, resets it,
// adds the others' partials to its own in part order (the same bits every run) and writes the tile. Which part
// sums is fixed by the schedule, not by arrival: the branches depend only on the work unit (ending a unit on an
// arrival-order branch moved the ring's stage and phase out of uniform registers).
//
// Every layout number comes from the generated headers:
//   swz.cuh        GemmA / GemmB (TMA box + swizzle, wgmma descriptor, LBO/SBO, alignment, k-step offsets),
//                  TileOrder (the block raster)
//   gemm_spec.cuh  the block shape, ring depth, register split, the wgmma / convert wrappers
// and the TMA / mbarrier wrappers come from swz_tma.cuh (gpu_kernels::runtime::tma).
#include "swz.cuh"
#include "gemm_spec.cuh"
#include "swz_copy.cuh"
#include "swz_convert.cuh"
#include "swz_tma.cuh"
#include "swz_wgmma.cuh"

namespace {

// smem_u32, the mbarrier / TMA / cluster wrappers, the wgmma fences, setmaxnreg and the grid dependency control,
// stmatrix, ld.shared.v4 and the fp32 -> 16-bit conversion come from the device headers (swz_copy.cuh,
// swz_tma.cuh, swz_wgmma.cuh, swz_convert.cuh); wgmma_tile (the m64nBNk16 instruction for this spec's BN) from
// gemm_spec.cuh.
__device__ __forceinline__ uint32_t pack2(float lo, float hi) { return cvt_pack2<spec::OUT_BF16>(lo, hi); }

// 4x4 transpose of 32-bit words inside a quad of lanes: lane q holds w[g] = its two columns of 8-column block g;
// afterwards it holds o[s] = lane s's word of block q, i.e. the 8 consecutive columns of block q (16 bytes).
// Round r: every lane sends its word for block (q + r) & 3 and receives lane (q - r) & 3's word for block q.
__device__ __forceinline__ void quad_transpose(const uint32_t (&w)[4], uint32_t (&o)[4], uint32_t lane) {
    const uint32_t q = lane & 3;
#pragma unroll
    for (uint32_t r = 0; r < 4; ++r) {
        const uint32_t gs = (q + r) & 3;
        const uint32_t send = gs == 0 ? w[0] : gs == 1 ? w[1] : gs == 2 ? w[2] : w[3];
        const uint32_t from = (q - r) & 3;
        const uint32_t got = __shfl_sync(0xffffffffu, send, (lane & ~3u) | from);
        o[0] = from == 0 ? got : o[0];
        o[1] = from == 1 ? got : o[1];
        o[2] = from == 2 ? got : o[2];
        o[3] = from == 3 ? got : o[3];
    }
}

// Eight 16-bit outputs (o, low half first) to dst = row start + col: one 16-byte store when the row keeps 16-byte
// alignment (vec_ok: N % 8 == 0) and all eight lie inside N, else element by element up to N.
__device__ __forceinline__ void store_row16(u16* dst, const uint32_t (&o)[4], uint32_t col, uint32_t N, bool vec_ok) {
    if (vec_ok && col + 8 <= N) {
        *reinterpret_cast<uint4*>(dst) = make_uint4(o[0], o[1], o[2], o[3]);
    } else {
#pragma unroll
        for (uint32_t e = 0; e < 8; ++e)
            if (col + e < N) dst[e] = u16(o[e / 2] >> (16 * (e % 2)));
    }
}

// Two fp32 outputs (x at col, y at col + 1) to dst = row start + col: one 8-byte store when the row keeps 8-byte
// alignment (pair_ok: N % 2 == 0) and both lie inside N, else element by element.
__device__ __forceinline__ void store_pair_f32(float* dst, float x, float y, uint32_t col, uint32_t N, bool pair_ok) {
    if (pair_ok && col + 2 <= N) {
        *reinterpret_cast<float2*>(dst) = make_float2(x, y);
    } else {
        if (col < N) dst[0] = x;
        if (col + 1 < N) dst[1] = y;
    }
}

// A landed stage's wgmmas into acc as one committed group: a consumer's 64 rows of the A tile (a_stage) times the
// B tile's rows from b_stage (the whole tile, or one N half for a half-width acc), k32 (e4m3) or k16 (16-bit) per
// instruction; the first instruction reads acc only when `accumulate` (else a fresh sum). The two descriptors are
// encoded once and each K step reached by desc_advance (one add, on uniform registers: a_stage and b_stage are
// warp-uniform), so the issue is a few instructions long.
template <uint32_t N>
__device__ __forceinline__ void mma_issue(float (&acc)[N], uint32_t a_stage, uint32_t b_stage, bool accumulate) {
    using namespace spec;
    fence_operands(acc);
    wgmma_fence();
    const u64 da = swz::GemmA::desc(a_stage), db = swz::GemmB::desc(b_stage);
#pragma unroll
    for (uint32_t j = 0; j < BK * ELEM_BYTES / 32; ++j)
        wgmma_tile(acc, swz::GemmA::desc_advance(da, swz::GemmA::k_step_bytes(j)),
                   swz::GemmB::desc_advance(db, swz::GemmB::k_step_bytes(j)), (accumulate || j > 0) ? 1u : 0u);
    wgmma_commit();
    fence_operands(acc);
}

// Wait for the stage's full barrier, then its wgmmas (mma_issue).
template <uint32_t N>
__device__ __forceinline__ void mma_group(float (&acc)[N], uint32_t full, uint32_t phase, uint32_t a_stage,
                                          uint32_t b_stage, bool accumulate) {
    mbar_wait(full, phase);
    mma_issue(acc, a_stage, b_stage, accumulate);
}

#ifdef SPEC_TAIL
// The consumer warpgroups' named barrier (named_barrier_sync; barrier 0 is __syncthreads').
constexpr uint32_t CONSUMER_BARRIER = 1;
#endif

#ifdef SPEC_BLOCK_SCALED
// Block scaling's promotion of a K block's partial sum into the fp32 sum d: acc holds fragment elements FIRST ..
// FIRST + N - 1 (the whole fragment, or one N half of it). Element i sits at row half (i / 2) % 2 (rows r0, r0 + 8)
// and column 8 (i / 4) + 2 (lane % 4) + i % 2 of the tile, so its 8-column group lies in segment
// 8 (i / 4) / B_SCALE_STEP of the tile: the tile starts a multiple of B_SCALE_STEP into a 128-wide B scale block,
// so no segment straddles two blocks, and scale[h][q] = A's scale of row half h times segment q's B block's.
// Every index is a constant: no branch, whatever block the tile starts in.
template <uint32_t FIRST, uint32_t N>
__device__ __forceinline__ void promote_part(float (&d)[spec::ACC], const float (&acc)[N],
                                             const float (&scale)[2][spec::B_SCALE_SEGMENTS]) {
    using namespace spec;
    static_assert(FIRST % 4 == 0 && FIRST + N <= ACC && B_SCALE_STEP % 8 == 0, "whole 8-column groups");
#pragma unroll
    for (uint32_t i = 0; i < N; ++i)
        d[FIRST + i] = fmaf(acc[i], scale[(i / 2) % 2][8 * ((FIRST + i) / 4) / B_SCALE_STEP], d[FIRST + i]);
}
#endif

}  // namespace

extern "C" __global__ void SPEC_CLUSTER_DIMS __launch_bounds__(spec::THREADS, 1)
    hopper_gemm(const __grid_constant__ TmaMap a_map, const __grid_constant__ TmaMap b_map, u16* __restrict__ c,
                uint32_t M, uint32_t N, uint32_t K, uint32_t a_rows SPEC_SCALE_PARAMS SPEC_TAIL_PARAMS) {
    SPEC_SCALE_LOCALS
    using swz::GemmA;
    using swz::GemmB;
    using swz::GemmBSlice;
    using namespace spec;
    extern __shared__ __align__(16) unsigned char smem_raw[];

    // Shared memory: STAGES A tiles, STAGES B tiles, then the barriers. Each tile starts on its swizzle period
    // (SMEM_ALIGN; 1 KiB for the 128B mode): the hardware swizzles address bits, the descriptor base offset is 0.
    constexpr uint32_t ALIGN = GemmA::SMEM_ALIGN > GemmB::SMEM_ALIGN ? GemmA::SMEM_ALIGN : GemmB::SMEM_ALIGN;
    static_assert(GemmA::TILE_BYTES % ALIGN == 0 && GemmB::TILE_BYTES % ALIGN == 0, "tiles keep the alignment");
    static_assert(GemmA::MN == BM && GemmB::MN == BN && GemmA::K == BK && GemmB::K == BK, "one block shape");
    const uint32_t base = (smem_u32(smem_raw) + ALIGN - 1) & ~(ALIGN - 1);
    const uint32_t a_smem = base;
    const uint32_t b_smem = a_smem + STAGES * GemmA::TILE_BYTES;
    const uint32_t full_bar = b_smem + STAGES * GemmB::TILE_BYTES;
    const uint32_t empty_bar = full_bar + 8 * STAGES;
    // Block scaling: one scale slot per stage (A's BM row scales, then the tile's B_SCALE_SEGMENTS B scales).
#ifdef SPEC_BLOCK_SCALED
    constexpr uint32_t SCALE_SLOTS = STAGES * SCALE_SLOT_BYTES;
#else
    constexpr uint32_t SCALE_SLOTS = 0;
#endif
    const uint32_t scale_smem = empty_bar + 8 * STAGES;
    // SMEM_EPILOGUE: one scratch tile per consumer warp, from the next 128-byte boundary.
    const uint32_t epi_smem = (scale_smem + SCALE_SLOTS + 127) & ~127u;
    // SPLIT > 1: the fp32 partial tile (BM x BN), then its two barriers.
    // (An fp32 C is stored from the fragments: no scratch, HopperSpec::smem.)
    constexpr uint32_t EPI_BYTES = SMEM_EPILOGUE && OUT_BYTES == 2 ? 4 * CONSUMERS * swz::EpilogueTile::BYTES : 0;
    constexpr uint32_t CONSUMER_THREADS = 128 * CONSUMERS;
    const uint32_t red_smem = epi_smem + EPI_BYTES;
    const uint32_t ready_bar = red_smem + BM * BN * 4;
    const uint32_t free_bar = ready_bar + 8;

    // The raster orders cluster slots: CLUSTER vertically adjacent tiles (sharing B) per slot; CTA `rank` of
    // the cluster takes tile row t.y * CLUSTER + rank (past M when gy is not a multiple: zero-filled, masked).
    const uint32_t gx = (N + BN - 1) / BN, gy = (M + BM - 1) / BM;
    const uint32_t gyc = (gy + CLUSTER - 1) / CLUSTER;
    const swz::LaunchGrid lg = swz::TileOrder::launch_grid(gx, gyc);
    const uint32_t slots = lg.x * lg.y;
    const uint32_t nk = (K + BK - 1) / BK;
    // CTAs per cluster: a multicast pair along M (CLUSTER) or the parts of a split K loop (SPLIT), never both.
    static_assert(CLUSTER == 1 || SPLIT == 1, "clusters split K or share B, not both");
    constexpr uint32_t CTAS = CLUSTER * SPLIT;
    const uint32_t crank = CTAS > 1 ? cluster_rank() : 0;
    const uint32_t rank = CLUSTER > 1 ? crank : 0;   // tile row in the pair
    const uint32_t part = SPLIT > 1 ? crank : 0;     // this CTA's part of the K loop
    const uint32_t first = blockIdx.x / CTAS, step = gridDim.x / CTAS;
    // Part p runs k-blocks [kb_lo(p), kb_lo(p + 1)): balanced, empty only when there are fewer k-blocks than parts.
    auto kb_lo = [nk](uint32_t p) { return uint32_t((unsigned long long)p * nk / SPLIT); };
    const uint32_t split_kb0 = kb_lo(part), split_kb1 = kb_lo(part + 1);
    // Work unit u: its slot in the order and its k-blocks [kb0, kb1). Whole tiles (this CTA's part of the split's
    // K loop); with the tail split, the last tail_tiles slots as tail_parts parts each, after the whole ones (the
    // schedule of swizzle_core::tail::TailSplit::unit and part_range, which the planner's model counts).
    struct Work { uint32_t slot, kb0, kb1; };
#ifdef SPEC_TAIL
    static_assert(CLUSTER == 1 && SPLIT == 1, "the tail split runs on lone CTAs");
    const uint32_t head = slots - tail_tiles;
    const uint32_t units = head + tail_tiles * tail_parts;
    auto work_of = [=](uint32_t u) {
        if (u < head) return Work{u, 0, nk};
        const uint32_t v = u - head, p = v % tail_parts;
        return Work{head + v / tail_parts, uint32_t((unsigned long long)p * nk / tail_parts),
                    uint32_t((unsigned long long)(p + 1) * nk / tail_parts)};
    };
#else
    const uint32_t units = slots;
    auto work_of = [=](uint32_t u) { return Work{u, split_kb0, split_kb1}; };
#endif
    // The bytes one A box lands: a_rows rows (BM, or M rounded up to 8 when M is shorter; HopperSpec::a_box_rows).
    const uint32_t a_bytes = GemmA::BOXES * (GemmA::BOX_BYTES / GemmA::BOX_OUTER) * a_rows;

    if (threadIdx.x == 0) {
        for (uint32_t s = 0; s < STAGES; ++s) {
            // the TMA thread, and with block scaling every lane of the scale warp (each releases its own stores)
            mbar_init(full_bar + 8 * s, SCALE == 3 ? 33 : 1);
            // lane 0 of every consumer warp of every CTA of the cluster (they all read the multicast B half); with
            // block scaling every consumer thread (each read the stage's scale slot)
            mbar_init(empty_bar + 8 * s, (SCALE == 3 ? CONSUMER_THREADS : CONSUMERS * 4) * CLUSTER);
        }
        if (SPLIT > 1) {
            // every consumer thread of every CTA of the split cluster (each releases its own accesses)
            mbar_init(ready_bar, CONSUMER_THREADS * SPLIT);
            mbar_init(free_bar, CONSUMER_THREADS * SPLIT);
        }
        mbar_init_fence();
    }
    if (CTAS > 1) cluster_sync();
    else __syncthreads();
    // Programmatic dependent launch (HopperGemm::chained): everything above touched only shared memory and the
    // parameters, so it may overlap the end of the kernel before this one on the stream; A, B, the scales and C
    // are touched below, once that kernel has finished and its writes are visible. The next kernel may then
    // start its own prologue. Without the launch attribute both return at once.
    grid_dependency_wait();
    grid_dependents_launch();

    const uint32_t wg = threadIdx.x / 128;
    if (wg == 0) {
        // ---- producer ----
        // One consumer warpgroup needs no register rebalancing (256 threads may use 255 registers each).
        if (CONSUMERS > 1) setmaxnreg_dec<PRODUCER_REGS>();
        if (threadIdx.x == 0) {
            uint32_t s = 0, phase = 0;
            for (uint32_t u = first; u < units; u += step) {
                const Work w = work_of(u);
                const swz::Tile t = swz::TileOrder::tile_of(w.slot, gx, gyc);
                if (!t.active) continue;
                const uint32_t ty = t.y * CLUSTER + rank;
                for (uint32_t kb = w.kb0; kb < w.kb1; ++kb) {
                    mbar_wait(empty_bar + 8 * s, phase ^ 1);
                    const uint32_t full = full_bar + 8 * s;
                    // Out-of-bounds parts of a box are zero-filled and still counted: whole boxes.
                    mbar_expect_tx(full, a_bytes + GemmB::TILE_BYTES);
#pragma unroll
                    for (uint32_t bx = 0; bx < GemmA::BOXES; ++bx)
                        tma_load_2d(a_smem + s * GemmA::TILE_BYTES + bx * GemmA::BOX_BYTES, &a_map, full,
                                    int(kb * BK + bx * GemmA::BOX_INNER), int(ty * BM));
                    // This CTA's slice of B: rows rank * GemmBSlice::MN.. of the block's N range, at the slice's
                    // offset in the B tile (K-major rows are contiguous), to every CTA of the cluster.
                    const uint32_t b_dst = b_smem + s * GemmB::TILE_BYTES + GemmB::mn_offset_bytes(rank * GemmBSlice::MN);
#pragma unroll
                    for (uint32_t bx = 0; bx < GemmBSlice::BOXES; ++bx) {
                        const int c0 = int(kb * BK + bx * GemmBSlice::BOX_INNER);
                        const int c1 = int(t.x * BN + rank * GemmBSlice::MN);
                        const uint32_t dst = b_dst + bx * GemmB::BOX_BYTES;
                        if (CLUSTER > 1) tma_load_2d_multicast(dst, &b_map, full, c0, c1, (1u << CLUSTER) - 1);
                        else tma_load_2d(dst, &b_map, full, c0, c1);
                    }
                    if (++s == STAGES) { s = 0; phase ^= 1; }
                }
            }
        }
#ifdef SPEC_BLOCK_SCALED
        else if (threadIdx.x / 32 == 1) {
            // The scale warp: for each stage the TMA thread fills, K block kb's scales of the tile's BM rows of A
            // (sa[kb * M + row]) and of the B block of each of its B_SCALE_SEGMENTS column segments
            // (sb[nb * KB + kb]), 0 past M or N (never stored), copied into the stage's scale slot by cp.async; each
            // lane's copies arrive on the stage's full barrier once they land, so the warp runs as far ahead as the
            // ring lets it. The consumers read the slot once the stage is full; every consumer thread then arrives
            // on the stage's empty barrier itself (it read the slot), which frees the slot with the tiles.
            const uint32_t lane = threadIdx.x % 32;
            const uint32_t kbn = (K + SCALE_BLOCK - 1) / SCALE_BLOCK;
            const uint32_t nbn = (N + SCALE_BLOCK - 1) / SCALE_BLOCK;
            uint32_t s = 0, phase = 0;
            for (uint32_t u = first; u < units; u += step) {
                const Work w = work_of(u);
                const swz::Tile t = swz::TileOrder::tile_of(w.slot, gx, gyc);
                if (!t.active) continue;
                const uint32_t ty = t.y * CLUSTER + rank;
                // Lane l copies rows l, l + 32, ... of the tile (those below M) and, for l < B_SCALE_SEGMENTS,
                // segment l's B scale (its block below N).
                const uint32_t row0 = ty * BM + lane;
                const uint32_t off_step = t.x * BN % SCALE_BLOCK / B_SCALE_STEP;
                const uint32_t nb = t.x * BN / SCALE_BLOCK + (off_step + lane) / B_SCALE_OFFSETS;
                const bool b_in = lane < B_SCALE_SEGMENTS && nb < nbn;
                const float* b_src = sb + (b_in ? nb * kbn : 0);
                for (uint32_t kb = w.kb0; kb < w.kb1; ++kb) {
                    const float* a_src = sa + kb * M;
                    mbar_wait(empty_bar + 8 * s, phase ^ 1);
                    const uint32_t dst = scale_smem + s * SCALE_SLOT_BYTES + 4 * lane;
#pragma unroll
                    for (uint32_t i = 0; i < BM / 32; ++i) {
                        const bool in = row0 + 32 * i < M;
                        cp_async4(dst + 128 * i, in ? a_src + row0 + 32 * i : sa, in ? 4 : 0);
                    }
                    if (lane < B_SCALE_SEGMENTS) cp_async4(dst + 4 * BM, b_src + (b_in ? kb : 0), b_in ? 4 : 0);
                    mbar_arrive_cp_async(full_bar + 8 * s);
                    if (++s == STAGES) { s = 0; phase ^= 1; }
                }
            }
        }
#endif
    } else {
        // ---- consumers ----
        if (CONSUMERS > 1) setmaxnreg_inc<CONSUMER_REGS>();
        const uint32_t cw = wg - 1;                 // this consumer's 64-row slice of the block tile
        const uint32_t tid = threadIdx.x % 128;
        const uint32_t warp = tid / 32, lane = tid % 32;
        // Where the slice starts in an A stage: from lane 0's cw, so that ptxas knows it is warp-uniform and keeps
        // the A slice's addresses and descriptors in uniform registers, as it does B's.
        const uint32_t a_slice = GemmA::mn_offset_bytes(__shfl_sync(0xffffffffu, cw, 0) * 64);
        float d[ACC];
        // Per-tensor: the product of the two scales, read once, before the first stage lands (after the K loop
        // its latency would add to every tile's end).
        const float tensor_scale = SCALE == 1 ? sa[0] * sb[0] : 1.f;
        uint32_t s = 0, phase = 0;
        uint32_t tiles_done = 0;  // SPLIT > 1: the parity of the ready / free barriers
        // A stage is free once every consumer warp of every CTA that received its B half is done with it.
        auto release = [](uint32_t bar) {
            if (CLUSTER > 1) {
#pragma unroll
                for (uint32_t c = 0; c < CLUSTER; ++c) mbar_arrive_cluster(bar, c);
            } else {
                mbar_arrive(bar);
            }
        };
        // Where stage st's A slice (this consumer's 64 rows) and B tile start.
        auto a_at = [&](uint32_t st) { return a_smem + st * GemmA::TILE_BYTES + a_slice; };
        auto b_at = [&](uint32_t st) { return b_smem + st * GemmB::TILE_BYTES; };
        // Stage s's wgmmas into acc, the whole m64nBN fragment (mma_group).
        auto mma_stage = [&](float (&acc)[ACC], bool accumulate) {
            mma_group(acc, full_bar + 8 * s, phase, a_at(s), b_at(s), accumulate);
        };
        // One work unit: tile w.slot over k-blocks [w.kb0, w.kb1); UNIT_DONE ends it. With the tail split the whole
        // tiles and the tail parts run in two loops over this body (a lambda, inlined into each with its own
        // tail_part), so the whole tiles run the code of a kernel without the split (a tail-split kernel with one
        // loop ran block scaling's whole tiles 3% slower on an H100).
#ifdef SPEC_TAIL
#define UNIT_DONE return
        auto run_unit = [&](const uint32_t u, const Work w, const bool tail_part) {
#else
#define UNIT_DONE continue
        for (uint32_t u = first; u < units; u += step) {
            const Work w = work_of(u);
#endif
            const uint32_t kb0 = w.kb0, kb1 = w.kb1;
            const swz::Tile t = swz::TileOrder::tile_of(w.slot, gx, gyc);
            if (!t.active) UNIT_DONE;
            const uint32_t ty = t.y * CLUSTER + rank;
            if (SCALE == 3) {
#ifdef SPEC_BLOCK_SCALED
                // ---- block scaling: each K block (one stage, BK == SCALE_BLOCK) into a fresh accumulator, then
                // promoted into d with its scales, read from the stage's scale slot (the scale warp's copy of
                // sa[kb * M + row], A's 1x128 block, and sb[nb * KB + kb], B's 128x128 block nb) while wgmmas
                // run (this block's, or with one accumulator the block before's): no global load is in flight at
                // a wgmma fence, and the read's latency hides behind the tensor core. The tile's columns start
                // B_SCALE_STEP-aligned inside B block t.x * BN / 128; each of its B_SCALE_SEGMENTS segments of
                // B_SCALE_STEP columns lies in one B block, whose scale it takes (promote_part). The tensor core's
                // limited accumulation precision then spans 128 of K, the fp32 sum the whole loop. Overlapping the
                // promotion with the tensor core: BLOCK_ACCS == 2 issues the next K block into a second
                // accumulator first (wait_group 1); PROMOTE_HALVES (tiles whose fp32 sum and a whole-width
                // accumulator do not fit the registers) issues each K block as two N halves in turn through one
                // half-width accumulator.
                static_assert(BK == SCALE_BLOCK, "one scale block of K per stage");
                static_assert(BLOCK_ACCS == 1 || BLOCK_ACCS == 2, "one or two K-block accumulators");
                static_assert(!PROMOTE_HALVES || (BLOCK_ACCS == 1 && BN % 32 == 0),
                              "halves: one half-width accumulator, whole 8-column groups");
                float acc0[ACC], acc1[ACC];
                // A stage's scales of this thread's rows (r0 and r0 + 8 of the tile) and of each segment's B block.
                const uint32_t a_row = scale_smem + 4 * (cw * 64 + warp * 16 + lane / 4);
                struct Scales { float a0, a1, b[B_SCALE_SEGMENTS]; };
                auto load = [&](uint32_t stage, Scales& sc) {
                    sc.a0 = lds_f32(a_row + stage * SCALE_SLOT_BYTES);
                    sc.a1 = lds_f32(a_row + stage * SCALE_SLOT_BYTES + 4 * 8);
#pragma unroll
                    for (uint32_t q = 0; q < B_SCALE_SEGMENTS; ++q)
                        sc.b[q] = lds_f32(scale_smem + stage * SCALE_SLOT_BYTES + 4 * (BM + q));
                };
                // Each segment's scale for rows r0 (scale[0]) and r0 + 8 (scale[1]).
                auto products = [](const Scales& sc, float (&scale)[2][B_SCALE_SEGMENTS]) {
#pragma unroll
                    for (uint32_t q = 0; q < B_SCALE_SEGMENTS; ++q) {
                        scale[0][q] = sc.a0 * sc.b[q];
                        scale[1][q] = sc.a1 * sc.b[q];
                    }
                };
                // Stage s's wgmmas into acc (a fresh sum), and the ring's next stage.
                auto issue = [&](float (&acc)[ACC]) {
                    mma_stage(acc, false);
                    if (++s == STAGES) { s = 0; phase ^= 1; }
                };
#pragma unroll
                for (uint32_t i = 0; i < ACC; ++i) d[i] = 0.f;
                // acc's K block promoted into d with sc (its wgmma group complete, its scales read), its stage
                // released.
                auto promote = [&](float (&acc)[ACC], const Scales& sc, uint32_t stage) {
                    fence_operands(acc);
                    release(empty_bar + 8 * stage);  // every thread: each read the scale slot
                    float scale[2][B_SCALE_SEGMENTS];
                    products(sc, scale);
                    promote_part<0>(d, acc, scale);
                };
                Scales sc0{}, sc1{};
                uint32_t kb = kb0;
                // With one accumulator (whole or half width): the first stage's full barrier and scales (sc0),
                // then, once a block's last wgmmas are issued, the ring's next stage and, if another block
                // follows, its full barrier and scales (sc1), waited for and read while those wgmmas run.
                auto first_landed = [&]() {
                    if (kb < kb1) {
                        mbar_wait(full_bar + 8 * s, phase);
                        load(s, sc0);
                    }
                };
                auto next_landed = [&]() {
                    if (++s == STAGES) { s = 0; phase ^= 1; }
                    if (kb + 1 < kb1) {
                        mbar_wait(full_bar + 8 * s, phase);
                        load(s, sc1);
                    }
                };
                if (PROMOTE_HALVES) {
                    // One accumulator of half the width (h): each K block as two groups in turn, columns
                    // [0, BN/2) then [BN/2, BN) of the same stage, each waited for and promoted before the next is
                    // issued into the same registers. The tensor core runs the other consumer's half (queued behind
                    // this one's) while this consumer promotes; as with one whole accumulator below, the next
                    // stage is waited for and its scales read while this block's second half runs.
                    constexpr uint32_t HALF = ACC / 2;
                    float h[HALF];
                    float scale[2][B_SCALE_SEGMENTS];
                    // Stage st's wgmmas for N half hh into h (a fresh sum).
                    auto half = [&](uint32_t st, uint32_t hh) {
                        mma_issue(h, a_at(st), b_at(st) + GemmB::mn_offset_bytes(hh * (BN / 2)), false);
                    };
                    first_landed();
                    for (; kb < kb1; ++kb) {
                        const uint32_t st = s;
                        half(st, 0);
                        products(sc0, scale);
                        wgmma_wait<0>();
                        fence_operands(h);
                        promote_part<0>(d, h, scale);
                        half(st, 1);
                        next_landed();
                        wgmma_wait<0>();
                        fence_operands(h);
                        release(empty_bar + 8 * st);  // every thread: each read the scale slot
                        promote_part<HALF>(d, h, scale);
                        sc0 = sc1;
                    }
                } else if (BLOCK_ACCS == 1) {
                    // Issue, wait for the group, promote. The tensor core runs the two consumers' groups in the
                    // order they were issued, so it runs the other consumer's block while this one promotes, and
                    // idles only when this warpgroup's next group comes later than the other's ends. Hence
                    // everything the next issue needs but the promotion (the next stage's full barrier, and its
                    // scales, read into sc1) is waited for and read while this block's wgmmas run: from the
                    // group's end to the next issue there are only the promotion, the release and the issue.
                    first_landed();
                    for (; kb < kb1; ++kb) {
                        const uint32_t st = s;
                        mma_issue(acc0, a_at(s), b_at(s), false);
                        next_landed();
                        wgmma_wait<0>();
                        promote(acc0, sc0, st);
                        sc0 = sc1;
                    }
                } else {
                    // Block kb in flight in acc0 at the top of each pass; the next block is issued into the other
                    // accumulator before the older group is waited for (wait_group 1), its scales read and it
                    // promoted (the read's latency hides behind the next block's wgmmas, and no scales stay in
                    // registers across a block). The body has no branch around a wgmma, so ptxas sees which group
                    // each accumulator belongs to.
                    auto read_promote = [&](float (&acc)[ACC], uint32_t stage) {
                        load(stage, sc0);
                        promote(acc, sc0, stage);
                    };
                    uint32_t st0 = s, st1 = s;
                    if (kb < kb1) issue(acc0);
                    for (; kb + 2 < kb1; kb += 2) {
                        st1 = s;
                        issue(acc1);
                        wgmma_wait<1>();
                        read_promote(acc0, st0);
                        st0 = s;
                        issue(acc0);
                        wgmma_wait<1>();
                        read_promote(acc1, st1);
                    }
                    // The last one or two blocks.
                    if (kb + 1 < kb1) {
                        st1 = s;
                        issue(acc1);
                        wgmma_wait<1>();
                        read_promote(acc0, st0);
                        wgmma_wait<0>();
                        read_promote(acc1, st1);
                    } else {
                        wgmma_wait<0>();
                        if (kb < kb1) read_promote(acc0, st0);
                    }
                }
#endif
            } else {
            // Per-row x per-column: this thread's rows' scales (rows r0, r0 + 8) and its columns' (j * 8 +
            // (lane % 4) * 2 + {0, 1} of the tile), 0 past M and N, read before the K loop: their latency hides
            // behind the first stage's instead of adding to the tile's end (on an H100 that end cost 1.5-3% of a
            // problem of 16-128 rows, and at 8192 rows, where each CTA runs many tiles, it made per-row 9-11%
            // slower than per-tensor on some layers).
            float row_a[2], col_b[BN / 4];
            if (SCALE == 2) {
                const uint32_t r0 = ty * BM + cw * 64 + warp * 16 + lane / 4;
                row_a[0] = r0 < M ? sa[r0] : 0.f;
                row_a[1] = r0 + 8 < M ? sa[r0 + 8] : 0.f;
#pragma unroll
                for (uint32_t j = 0; j < BN / 8; ++j) {
                    const uint32_t col = t.x * BN + j * 8 + (lane & 3) * 2;
                    col_b[2 * j] = col < N ? sb[col] : 0.f;
                    col_b[2 * j + 1] = col + 1 < N ? sb[col + 1] : 0.f;
                }
            }
            uint32_t prev = 0;
            for (uint32_t kb = kb0; kb < kb1; ++kb) {
                mma_stage(d, kb > kb0);
                if (INFLIGHT == 1) {
                    // Keep this k-block's group in flight; the previous one is done: release its stage.
                    wgmma_wait<1>();
                    if (kb > kb0 && lane == 0) release(empty_bar + 8 * prev);
                } else {
                    wgmma_wait<0>();
                    if (lane == 0) release(empty_bar + 8 * s);
                }
                prev = s;
                if (++s == STAGES) { s = 0; phase ^= 1; }
            }
            if (INFLIGHT == 1) {
                // Unconditional, so ptxas sees every accumulator read below after a wait (no serialised wgmma);
                // an empty part has nothing in flight and no stage to release.
                wgmma_wait<0>();
                fence_operands(d);
                if (kb1 > kb0 && lane == 0) release(empty_bar + 8 * prev);
            }
            if (SCALE == 1) {
                // ---- per-tensor scales on the fp32 sums ----
#pragma unroll
                for (uint32_t i = 0; i < ACC; ++i) d[i] *= tensor_scale;
            } else if (SCALE == 2) {
                // ---- per-row x per-column scales: d[4j + {0,1,2,3}] sit at (row0, c), (row0, c+1), (row0+8, c),
                // (row0+8, c+1) with c = tile column j*8 + (lane%4)*2 (the accumulator layout below) ----
#pragma unroll
                for (uint32_t j = 0; j < BN / 8; ++j) {
                    d[4 * j + 0] *= row_a[0] * col_b[2 * j];
                    d[4 * j + 1] *= row_a[0] * col_b[2 * j + 1];
                    d[4 * j + 2] *= row_a[1] * col_b[2 * j];
                    d[4 * j + 3] *= row_a[1] * col_b[2 * j + 1];
                }
            }
            }  // SCALE != 3

#ifdef SPEC_TAIL
            if (tail_part) {
                // ---- tail split: parts 0 .. parts-2 store their partials and count themselves; the last part
                // (dealt out last) waits for them and adds them to its own ----
                const uint32_t v = u - head, tile = v / tail_parts, mine = v % tail_parts;
                const uint32_t ctid = cw * 128 + tid;
                constexpr uint32_t QUADS = ACC / 4;
                // Part p's partial of this tile (p < parts - 1): quad q of thread ctid at
                // partials[((tile * (parts - 1) + p) * QUADS + q) * CONSUMER_THREADS + ctid] (float4): each thread of
                // the last part reads only what the same thread of each other part stored.
                constexpr uint32_t PARTIAL = QUADS * CONSUMER_THREADS;
                float4* tile_partials = reinterpret_cast<float4*>(tail_partials) +
                                        (unsigned long long)tile * (tail_parts - 1) * PARTIAL + ctid;
                uint32_t* count = tail_count + tile;
                if (mine + 1 < tail_parts) {
                    float4* own = tile_partials + (unsigned long long)mine * PARTIAL;
#pragma unroll
                    for (uint32_t q = 0; q < QUADS; ++q)
                        __stcg(own + q * CONSUMER_THREADS,
                               make_float4(d[4 * q], d[4 * q + 1], d[4 * q + 2], d[4 * q + 3]));
                    __threadfence();
                    // every consumer thread's partial stored and fenced
                    named_barrier_sync(CONSUMER_BARRIER, CONSUMER_THREADS);
                    if (ctid == 0) atomicAdd(count, 1u);
                    UNIT_DONE;
                }
                // The last part: wait until the others have counted themselves (they were dealt out before it, so
                // they run ahead of it or beside it, never behind it), reset the counter for the next launch.
                if (ctid == 0) {
                    while (atomicAdd(count, 0u) < tail_parts - 1) __nanosleep(256);
                    atomicExch(count, 0u);
                    __threadfence();
                }
                named_barrier_sync(CONSUMER_BARRIER, CONSUMER_THREADS);
                // Its own sum first, then parts 0, 1, ..., parts-2: one order, whatever the order of arrival.
                for (uint32_t p = 0; p + 1 < tail_parts; ++p) {
                    const float4* src = tile_partials + (unsigned long long)p * PARTIAL;
#pragma unroll
                    for (uint32_t q = 0; q < QUADS; ++q) {
                        const float4 x = __ldcg(src + q * CONSUMER_THREADS);
                        d[4 * q] += x.x; d[4 * q + 1] += x.y; d[4 * q + 2] += x.z; d[4 * q + 3] += x.w;
                    }
                }
            }
#endif

            // ---- epilogue: accumulator fragment -> 16-byte row segments -> global ----
            // d[i]: row = warp*16 + lane/4 + 8*((i/2)%2), col = (i/4)*8 + (lane%4)*2 + i%2 (PTX wgmma D layout).
            const uint32_t row0 = ty * BM + cw * 64 + warp * 16 + lane / 4;
            if (SPLIT > 1) {
                // ---- split-K: partials through distributed shared memory, summed in part order ----
                const uint32_t ctid = cw * 128 + tid;
                mbar_wait_cluster(free_bar, (tiles_done & 1) ^ 1);  // every CTA has read the previous partial
                if (kb1 > kb0) {
#pragma unroll
                    for (uint32_t q = 0; q < ACC / 4; ++q)
                        sts_v4_f32(red_smem + (q * CONSUMER_THREADS + ctid) * 16, d[4 * q], d[4 * q + 1],
                                   d[4 * q + 2], d[4 * q + 3]);
                }
                for (uint32_t cta = 0; cta < SPLIT; ++cta) mbar_arrive_cluster_release(ready_bar, cta);
                mbar_wait_cluster(ready_bar, tiles_done & 1);
                // This CTA's share of the quads; quad q holds d[4q..4q+3]: columns q*8 + (lane%4)*2 + {0,1} of
                // rows row0 (x, y) and row0 + 8 (z, w).
                constexpr uint32_t QUADS = ACC / 4, SHARE = (QUADS + SPLIT - 1) / SPLIT;
                const uint32_t q_end = (part + 1) * SHARE < QUADS ? (part + 1) * SHARE : QUADS;
                const bool pair_ok = (N % 2) == 0;
                for (uint32_t q = part * SHARE; q < q_end; ++q) {
                    const uint32_t at = red_smem + (q * CONSUMER_THREADS + ctid) * 16;
                    float4 sum = make_float4(0.f, 0.f, 0.f, 0.f);
                    bool any = false;
#pragma unroll
                    for (uint32_t p = 0; p < SPLIT; ++p) {
                        if (kb_lo(p) == kb_lo(p + 1)) continue;  // an empty part wrote nothing
                        const float4 v = ld_cluster_v4_f32(at, p);
                        if (any) {
                            sum.x += v.x; sum.y += v.y; sum.z += v.z; sum.w += v.w;
                        } else {
                            sum = v;
                        }
                        any = true;
                    }
                    const uint32_t col = t.x * BN + q * 8 + (lane & 3) * 2;
#pragma unroll
                    for (uint32_t h = 0; h < 2; ++h) {
                        const uint32_t row = row0 + 8 * h;
                        if (OUT_BYTES == 4 && row < M) {
                            store_pair_f32(reinterpret_cast<float*>(c) + (unsigned long long)row * N + col,
                                           h == 0 ? sum.x : sum.z, h == 0 ? sum.y : sum.w, col, N, pair_ok);
                        } else if (row < M) {
                            u16* dst = c + (unsigned long long)row * N + col;
                            const uint32_t w = h == 0 ? pack2(sum.x, sum.y) : pack2(sum.z, sum.w);
                            if (pair_ok && col + 2 <= N) *reinterpret_cast<uint32_t*>(dst) = w;
                            else {
                                if (col < N) dst[0] = u16(w);
                                if (col + 1 < N) dst[1] = u16(w >> 16);
                            }
                        }
                    }
                }
                for (uint32_t cta = 0; cta < SPLIT; ++cta) mbar_arrive_cluster_release(free_bar, cta);
                ++tiles_done;
                UNIT_DONE;
            }
            if (OUT_BYTES == 4) {
                // ---- fp32 C (e4m3): the fragment's own pairs, 8 bytes per thread; a lane quad writes 32
                // contiguous bytes of a row ----
                const bool pair_ok = (N % 2) == 0;
#pragma unroll
                for (uint32_t j = 0; j < BN / 8; ++j) {
#pragma unroll
                    for (uint32_t h = 0; h < 2; ++h) {
                        const uint32_t row = row0 + 8 * h, col = t.x * BN + j * 8 + (lane & 3) * 2;
                        if (row < M)
                            store_pair_f32(reinterpret_cast<float*>(c) + (unsigned long long)row * N + col,
                                           d[j * 4 + 2 * h], d[j * 4 + 2 * h + 1], col, N, pair_ok);
                    }
                }
                UNIT_DONE;
            }
            if (SMEM_EPILOGUE) {
                // Through this warp's scratch (swz::EpilogueTile, 16 x 64), 64 columns at a time: stmatrix.x4 of
                // two n8 blocks per 16 columns (the m16n8 accumulator pairs are stmatrix's lane order), then each
                // lane reads 16-byte row segments back for 16-byte global stores.
                using Epi = swz::EpilogueTile;
                static_assert(Epi::ROWS == 16 && Epi::COLS == 64 && Epi::ELEM_BYTES == OUT_BYTES, "scratch shape");
                const uint32_t sc = epi_smem + (cw * 4 + warp) * Epi::BYTES;
                const uint32_t rbase = ty * BM + cw * 64 + warp * 16;
                const bool vec_ok = (N % 8) == 0;
                // BN a multiple of 32: the last chunk is 32 columns wide when BN is not a multiple of 64.
#pragma unroll
                for (uint32_t c64 = 0; c64 < (BN + 63) / 64; ++c64) {
                    constexpr uint32_t FULL = BN / 64;
                    const uint32_t width = c64 < FULL ? 64 : BN - 64 * FULL;  // 64 or 32
#pragma unroll
                    for (uint32_t jj = 0; jj < width / 16; ++jj) {
                        const uint32_t g = c64 * 8 + jj * 2;  // first of the two n8 blocks
                        stsm_x4(sc + Epi::byte_offset(lane & 15, jj * 16 + (lane >> 4) * 8),
                                pack2(d[g * 4 + 0], d[g * 4 + 1]), pack2(d[g * 4 + 2], d[g * 4 + 3]),
                                pack2(d[g * 4 + 4], d[g * 4 + 5]), pack2(d[g * 4 + 6], d[g * 4 + 7]));
                    }
                    __syncwarp();
#pragma unroll
                    for (uint32_t q0 = 0; q0 < 16 * (width / 8); q0 += 32) {
                        const uint32_t q = q0 + lane, r = q / (width / 8), cc = (q % (width / 8)) * 8;
                        uint32_t o[4];
                        lds_v4_b32(o, sc + Epi::byte_offset(r, cc));
                        const uint32_t row = rbase + r, col = t.x * BN + c64 * 64 + cc;
                        if (row < M) store_row16(c + (unsigned long long)row * N + col, o, col, N, vec_ok);
                    }
                    __syncwarp();  // reads done before the next 64 columns overwrite the scratch
                }
                UNIT_DONE;
            }
            if (!STORE16) {
                // The fragment's own pairs: 4 bytes per thread, a quad writes 16 contiguous bytes of a row.
                const bool pair_ok = (N % 2) == 0;
#pragma unroll
                for (uint32_t j = 0; j < BN / 8; ++j) {
#pragma unroll
                    for (uint32_t h = 0; h < 2; ++h) {
                        const uint32_t i = j * 4 + 2 * h;
                        const uint32_t row = row0 + 8 * h;
                        const uint32_t col = t.x * BN + j * 8 + (lane & 3) * 2;
                        if (row < M) {
                            u16* dst = c + (unsigned long long)row * N + col;
                            const uint32_t w = pack2(d[i], d[i + 1]);
                            if (pair_ok && col + 2 <= N) *reinterpret_cast<uint32_t*>(dst) = w;
                            else {
                                if (col < N) dst[0] = u16(w);
                                if (col + 1 < N) dst[1] = u16(w >> 16);
                            }
                        }
                    }
                }
                UNIT_DONE;
            }
            const bool vec_ok = (N % 8) == 0;  // rows start on 16 bytes
#pragma unroll
            for (uint32_t g4 = 0; g4 < BN / 32; ++g4) {
#pragma unroll
                for (uint32_t h = 0; h < 2; ++h) {
                    uint32_t w[4], o[4] = {0, 0, 0, 0};
#pragma unroll
                    for (uint32_t g = 0; g < 4; ++g) {
                        const uint32_t i = (g4 * 4 + g) * 4 + 2 * h;
                        w[g] = pack2(d[i], d[i + 1]);
                    }
                    quad_transpose(w, o, lane);
                    const uint32_t row = row0 + 8 * h;
                    const uint32_t col = t.x * BN + (g4 * 4 + (lane & 3)) * 8;
                    if (row < M) store_row16(c + (unsigned long long)row * N + col, o, col, N, vec_ok);
                }
            }
#ifdef SPEC_TAIL
        };
        uint32_t u = first;
        for (; u < head; u += step) run_unit(u, Work{u, 0, nk}, false);
        for (; u < units; u += step) run_unit(u, work_of(u), true);
#else
        }
#endif
#undef UNIT_DONE
        // The last partial: every CTA has read it before this one may leave.
        if (SPLIT > 1) mbar_wait_cluster(free_bar, (tiles_done & 1) ^ 1);
    }
    // No CTA may leave while its partner can still multicast into it, arrive on its barriers or read its partial.
    if (CTAS > 1) cluster_sync();
}
