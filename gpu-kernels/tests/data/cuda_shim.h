// Just enough of CUDA for `g++ -fsyntax-only` over a kernel source (tests/cu_sources.rs): the keywords as
// nothing, the built-in index variables, the vector types and the intrinsics transpose.cu uses. It checks that
// the C++ (the generated spec struct, the layout and order calls) is well-formed; NVRTC compiles the real thing
// on the device machine (tests/nvrtc_compile.rs).
#pragma once
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__
#define __align__(n)
#define __launch_bounds__(...)
#define __restrict__
#define __CUDACC__ 1
struct dim3 {
    unsigned x, y, z;
};
extern dim3 blockIdx, blockDim, threadIdx, gridDim;
struct uint2 {
    unsigned x, y;
};
struct uint4 {
    unsigned x, y, z, w;
};
template <class T> T __ldcs(const T* p) { return *p; }
template <class T> void __stcs(T* p, T v) { *p = v; }
void __syncthreads();
