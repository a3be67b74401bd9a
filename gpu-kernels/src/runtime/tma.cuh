// TMA and mbarrier wrappers shared by the kernels that load with TMA (hopper.cu, gemm.cu's FILL_TMA). Shipped to
// NVRTC as "swz_tma.cuh" (gpu_kernels::runtime::tma::device_header); the host side of the tensor map is
// runtime/tma.rs.
#pragma once

// A CUtensorMap, passed by value as a __grid_constant__ parameter (its address is what TMA reads).
struct __align__(64) TmaMap {
    unsigned long long opaque[16];
};

// ---- mbarrier ----
__device__ __forceinline__ void mbar_init(unsigned int bar, unsigned int count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(unsigned int bar, unsigned int bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(unsigned int bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
// Wait until the phase of parity `parity` has completed (a fresh barrier counts parity 1 as completed).
__device__ __forceinline__ void mbar_wait(unsigned int bar, unsigned int parity) {
    asm volatile(
        "{\n"
        ".reg .pred P1;\n"
        "LAB_WAIT:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
        "@P1 bra.uni DONE;\n"
        "bra.uni LAB_WAIT;\n"
        "DONE:\n"
        "}\n" ::"r"(bar),
        "r"(parity)
        : "memory");
}

// ---- TMA: one 2D box into shared memory, completing on an mbarrier ----
__device__ __forceinline__ void tma_load_2d(unsigned int dst, const TmaMap* map, unsigned int bar, int c0, int c1) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(dst),
        "l"(reinterpret_cast<unsigned long long>(map)), "r"(bar), "r"(c0), "r"(c1)
        : "memory");
}
