// Seed 000's matmul_smem / matmul_swizzle as one kernel: C = A * B, fp32, row-major, TILE x TILE shared-memory
// tiles, TILE x TILE threads, one output per thread. The block order comes from the generated header
// (`swz::TileOrder`, a raster spec from swizzle-core): identity is the seed's matmul_smem, strip(tile=4) its
// matmul_swizzle<32, 4> (with the seed's `/ gridDim.y` bug fixed). Any M, N, K: edges are zero-padded in smem.
//
// Options: -DTILE=32 (from the Rust spec). __launch_bounds__(TILE * TILE, 2): two 1024-thread blocks per SM, the
// residency the L2 model assumes.
#include "swz.cuh"

#ifndef TILE
#error "TILE must be defined by the launcher"
#endif

extern "C" __global__ void __launch_bounds__(TILE * TILE, 2)
    matmul_l2(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const uint32_t gx = (uint32_t)(N + TILE - 1) / TILE, gy = (uint32_t)(M + TILE - 1) / TILE;
    const swz::Tile t = swz::TileOrder::tile_of(swz::launch_bid(), gx, gy);
    if (!t.active) return;  // CUTLASS padding block: the whole block leaves before any barrier
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = (int)t.y * TILE + ty, col = (int)t.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        // One K step: the A chunk (rows of this block's row panel) and the B chunk (its column panel).
        As[ty][tx] = (row < M && k0 + tx < K) ? A[(size_t)row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(size_t)(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < M && col < N) C[(size_t)row * N + col] = acc;
}
