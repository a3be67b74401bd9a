// The warpgroup MMA's synchronisation (wgmma.fence / commit_group / wait_group), the operand fence that keeps the
// compiler from moving accumulator accesses across the asynchronous window, and the register reallocation of
// warp-specialised kernels (setmaxnreg). The wgmma instruction itself depends on the tile's N and is generated with
// the kernel's spec (swizzle_core::cuda). Also the grid dependency control of a kernel launched as a programmatic
// dependent of the one before it (gpu_kernels::runtime::Kernel::chained).
#pragma once
#include "swz_types.cuh"

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgmma_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

// Keep the compiler from moving reads/writes of the N accumulators across the asynchronous wgmma window.
template <int N>
__device__ __forceinline__ void fence_operands(float (&d)[N]) {
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// Give registers back (producer warps) / take them (consumer warps); REGS is a multiple of 8 in 24..256.
template <int REGS>
__device__ __forceinline__ void setmaxnreg_dec() {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(REGS));
}
template <int REGS>
__device__ __forceinline__ void setmaxnreg_inc() {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(REGS));
}

// Programmatic dependent launch: wait until the grid this one depends on has completed and its memory is
// visible; let the grid that depends on this one launch (its own wait still orders its memory accesses). Without
// the launch attribute both return at once.
__device__ __forceinline__ void grid_dependency_wait() { asm volatile("griddepcontrol.wait;" ::: "memory"); }
__device__ __forceinline__ void grid_dependents_launch() { asm volatile("griddepcontrol.launch_dependents;" ::: "memory"); }
