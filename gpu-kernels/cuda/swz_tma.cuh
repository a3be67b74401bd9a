// TMA, mbarrier and cluster wrappers of the kernels that load with TMA (hopper.cu, gemm.cu's FILL_TMA). The host
// side of the tensor map is gpu-kernels/src/runtime/tma.rs.
#pragma once
#include "swz_types.cuh"

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
// An arrival on the barrier once every cp.async this thread issued before it has landed (without raising the
// barrier's expected count: the arrival is one of those it was initialised with).
__device__ __forceinline__ void mbar_arrive_cp_async(unsigned int bar) {
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(bar) : "memory");
}
// Make the barrier initialisation visible to the cluster and to the async proxy (TMA) before first use.
__device__ __forceinline__ void mbar_init_fence() {
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void fence_proxy_async_smem() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
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

// ---- clusters: rank, cluster-wide barrier, remote arrives, multicast loads ----
__device__ __forceinline__ unsigned int cluster_rank() {
    unsigned int r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
// Named barrier `id` (1..15; 0 is __syncthreads') among `threads` threads of the block, a multiple of 32: the
// consumer warpgroups of a warp-specialised kernel meet without the producer.
__device__ __forceinline__ void named_barrier_sync(unsigned int id, unsigned int threads) {
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
// Every thread of every CTA of the cluster (not .aligned: a producer warp may arrive diverged).
__device__ __forceinline__ void cluster_sync() {
    asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;" ::: "memory");
}
// Arrive on the mbarrier at the same offset in CTA `cta` of the cluster.
__device__ __forceinline__ void mbar_arrive_cluster(unsigned int bar, unsigned int cta) {
    asm volatile(
        "{\n.reg .b32 r;\nmapa.shared::cluster.u32 r, %0, %1;\n"
        "mbarrier.arrive.shared::cluster.b64 _, [r];\n}" ::"r"(bar),
        "r"(cta)
        : "memory");
}
// Arrive on the mbarrier at `bar`'s offset in CTA `cta`, releasing this thread's earlier memory accesses (and
// those ordered before them, e.g. by __syncwarp) to the cluster: the waiter's mbar_wait_cluster acquires them.
__device__ __forceinline__ void mbar_arrive_cluster_release(unsigned int bar, unsigned int cta) {
    asm volatile(
        "{\n.reg .b32 r;\nmapa.shared::cluster.u32 r, %0, %1;\n"
        "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [r];\n}" ::"r"(bar),
        "r"(cta)
        : "memory");
}
// mbar_wait with cluster-scope acquire: what the arriving CTAs released (mbar_arrive_cluster_release) is visible.
__device__ __forceinline__ void mbar_wait_cluster(unsigned int bar, unsigned int parity) {
    asm volatile(
        "{\n"
        ".reg .pred P1;\n"
        "LAB_WAIT_CL:\n"
        "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 P1, [%0], %1;\n"
        "@P1 bra.uni DONE_CL;\n"
        "bra.uni LAB_WAIT_CL;\n"
        "DONE_CL:\n"
        "}\n" ::"r"(bar),
        "r"(parity)
        : "memory");
}
// 16 bytes of fp32 at `addr`'s offset in the shared memory of CTA `cta` of the cluster (distributed shared memory).
__device__ __forceinline__ float4 ld_cluster_v4_f32(unsigned int addr, unsigned int cta) {
    float4 v;
    asm volatile(
        "{\n.reg .b32 r;\nmapa.shared::cluster.u32 r, %4, %5;\n"
        "ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [r];\n}"
        : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
        : "r"(addr), "r"(cta)
        : "memory");
    return v;
}
// One box, written at the same offset into the shared memory of every CTA in `mask`, each CTA's mbarrier at
// `bar`'s offset receiving the bytes.
__device__ __forceinline__ void tma_load_2d_multicast(unsigned int dst, const TmaMap* map, unsigned int bar, int c0,
                                                      int c1, unsigned short mask) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
        " [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(dst),
        "l"(reinterpret_cast<unsigned long long>(map)), "r"(bar), "r"(c0), "r"(c1), "h"(mask)
        : "memory");
}
