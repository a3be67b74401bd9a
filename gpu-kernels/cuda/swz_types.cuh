// The short integer names every kernel uses, and the special registers kernels read. Part of the device headers (gpu-kernels/cuda/), which the runtime
// hands to NVRTC under their file names for every compile (gpu_kernels::runtime::DEVICE_HEADERS).
#pragma once

typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

// The global nanosecond timer (%globaltimer).
__device__ __forceinline__ u64 globaltimer() {
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
