// mma.sync throughput probe: the ceiling the GEMM's main loop works under. Every warp issues PEAK_ITERS x PEAK_ACC
// m16n8k16 mma.sync into PEAK_ACC independent accumulators, with no memory access and no ldmatrix in the loop, so
// the tensor pipe is the only limit; PEAK_THREADS / 128 warps share each of the SM's four schedulers (one block
// per SM). Thread 0 of each block records its SM clock cycles and its globaltimer nanoseconds, from which the host
// reads the clock the kernel ran at.
//
// Defines (from gemm::peak): PEAK_THREADS, PEAK_ACC, PEAK_BF16.
#include "swz_types.cuh"
#include "swz_mma.cuh"

// in: 8 words per lane (operands, so nothing is constant-folded); out: one float per thread (the accumulators'
// sum, so nothing is dead); clocks: per block {cycles, nanoseconds}.
extern "C" __global__ void __launch_bounds__(PEAK_THREADS, 1)
    mma_peak(const u32* __restrict__ in, float* __restrict__ out, u64* __restrict__ clocks, int iters) {
    const int lane = threadIdx.x & 31;
    u32 a[4], b[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        a[i] = in[lane * 8 + i];
        b[i] = in[lane * 8 + 4 + i];
    }
    float acc[PEAK_ACC][4];
#pragma unroll
    for (int j = 0; j < PEAK_ACC; ++j)
#pragma unroll
        for (int i = 0; i < 4; ++i) acc[j][i] = 0.0f;
    __syncthreads();
    const u64 c0 = clock64();
    const u64 t0 = globaltimer();
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int j = 0; j < PEAK_ACC; ++j) mma16816<PEAK_BF16>(acc[j], a, b[j & 3], b[(j + 1) & 3]);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        const u64 c1 = clock64();
        const u64 t1 = globaltimer();
        clocks[2 * blockIdx.x] = c1 - c0;
        clocks[2 * blockIdx.x + 1] = t1 - t0;
    }
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < PEAK_ACC; ++j) s += acc[j][0] + acc[j][1] + acc[j][2] + acc[j][3];
    out[blockIdx.x * PEAK_THREADS + threadIdx.x] = s;
}
