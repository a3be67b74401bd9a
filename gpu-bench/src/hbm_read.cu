// HBM read probe: the least a launch that reads a buffer once can take. Every thread streams whole 16-byte words
// from `words` (grid-stride, so any grid covers any length) and folds them into one XOR, which each warp's lane 0
// stores to out[warp of the grid]: every byte read feeds a stored value (nothing is dead), and the host can check
// that every word was read (the XOR of the warps' words is the XOR of the buffer).
#include "swz_types.cuh"
#include "swz_copy.cuh"

extern "C" __global__ void hbm_read(const void* __restrict__ words, u64 n, u32* __restrict__ out) {
    const unsigned char* base = static_cast<const unsigned char*>(words);
    u32 acc = 0;
    for (u64 i = blockIdx.x * u64(blockDim.x) + threadIdx.x; i < n; i += u64(gridDim.x) * blockDim.x) {
        u32 v[4];
        ldg_v4_b32(v, base + 16 * i);
        acc ^= v[0] ^ v[1] ^ v[2] ^ v[3];
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc ^= __shfl_xor_sync(0xffffffffu, acc, o);
    if (threadIdx.x % 32 == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = acc;
}
