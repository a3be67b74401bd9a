// The threadblock-swizzling article's matmul_smem / matmul_swizzle as one kernel: C = A * B, row-major, TILE x TILE shared-memory tiles,
// TILE x TILE threads, one output per thread. Every number comes from `struct swz::Spec` in the generated header
// swz.cuh, rendered by swizzle-core from the Rust spec (gpu-kernels/src/matmul_l2/mod.rs):
//   Spec::T                  the element type (float)
//   Spec::TILE               the tile side, threads per block side and K step
//   Spec::SmemA, Spec::SmemB the shared-memory tiles: every smem coordinate goes through offset(row, col)
//   Spec::Order              the block order: identity is the article's matmul_smem, strip(tile=4) its
//                            matmul_swizzle<32, 4> (with the article's `/ gridDim.y` bug fixed)
// Any M, N, K: the edges are zero-padded in shared memory. __launch_bounds__(TILE * TILE, 2): two 1024-thread
// blocks per SM, the residency the L2 model assumes.
#include "swz.cuh"

using Spec = swz::Spec;
using T = Spec::T;
using SmemA = Spec::SmemA;
using SmemB = Spec::SmemB;
constexpr int TILE = Spec::TILE;
static_assert(SmemA::ROWS == TILE && SmemA::COLS == TILE && SmemA::ELEM_BYTES == sizeof(T), "SmemA is the tile");
static_assert(SmemB::ROWS == TILE && SmemB::COLS == TILE && SmemB::ELEM_BYTES == sizeof(T), "SmemB is the tile");

extern "C" __global__ void __launch_bounds__(TILE * TILE, 2)
    matmul_l2(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C, int M, int N, int K) {
    __shared__ __align__(16) T As[SmemA::BYTES / sizeof(T)];
    __shared__ __align__(16) T Bs[SmemB::BYTES / sizeof(T)];
    // The tile grid (x along N, y along M); CUTLASS's order launches a larger grid, so pass the tile grid.
    const uint32_t gx = (uint32_t)(N + TILE - 1) / TILE, gy = (uint32_t)(M + TILE - 1) / TILE;
    const swz::Tile t = Spec::Order::tile_of(swz::launch_bid(), gx, gy);
    if (!t.active) return;  // CUTLASS padding block: the whole block leaves before any barrier
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = (int)t.y * TILE + ty, col = (int)t.x * TILE + tx;
    T acc = 0;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        // One K step: the A chunk of this block's row panel and the B chunk of its column panel.
        As[SmemA::offset(ty, tx)] = (row < M && k0 + tx < K) ? A[(size_t)row * K + k0 + tx] : T(0);
        Bs[SmemB::offset(ty, tx)] = (k0 + ty < K && col < N) ? B[(size_t)(k0 + ty) * N + col] : T(0);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) acc = fmaf(As[SmemA::offset(ty, k)], Bs[SmemB::offset(k, tx)], acc);
        __syncthreads();
    }
    if (row < M && col < N) C[(size_t)row * N + col] = acc;
}
