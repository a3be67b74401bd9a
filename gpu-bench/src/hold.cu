// The stream hold of the timing harness (bench::hold): one thread spins on the global timer for `ns` nanoseconds.
// Queued ahead of a measurement's timed launches, it keeps the GPU busy while the host enqueues them, so each one
// starts as soon as the one before it ends and its events time the GPU alone, not the host's enqueue rate.
#include "swz_types.cuh"

extern "C" __global__ void hold(u64 ns) {
    u64 t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < ns);
}
