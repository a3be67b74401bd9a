// Probe: one warp issues exactly one shared-memory instruction with given per-lane byte addresses.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <string>
#include <fstream>
#include <sstream>
#include <cuda_runtime.h>

template <int OP>
__global__ void probe(const uint32_t* addrs, uint32_t* out) {
  __shared__ __align__(1024) uint8_t smem[40960];
  int l = threadIdx.x;
  uint32_t a = addrs[l];
  uint32_t s = (uint32_t)__cvta_generic_to_shared(smem) + a;
  uint32_t r0 = l, r1 = l + 1, r2 = l + 2, r3 = l + 3;
  if (OP == 0) asm volatile("ld.shared.u8 %0, [%1];" : "=r"(r0) : "r"(s));
  if (OP == 1) asm volatile("ld.shared.u16 %0, [%1];" : "=r"(r0) : "r"(s));
  if (OP == 2) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(r0) : "r"(s));
  if (OP == 3) asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(s));
  if (OP == 4) asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(s));
  if (OP == 5) asm volatile("st.shared.u8 [%0], %1;" :: "r"(s), "r"(r0));
  if (OP == 6) asm volatile("st.shared.u16 [%0], %1;" :: "r"(s), "r"(r0));
  if (OP == 7) asm volatile("st.shared.u32 [%0], %1;" :: "r"(s), "r"(r0));
  if (OP == 8) asm volatile("st.shared.v2.u32 [%0], {%1,%2};" :: "r"(s), "r"(r0), "r"(r1));
  if (OP == 9) asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};" :: "r"(s), "r"(r0), "r"(r1), "r"(r2), "r"(r3));
  if (OP == 10) asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(s));
  if (OP == 11) asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(s));
  if (OP == 12) asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(s));
  if (OP == 13) asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(s));
  if (OP == 14) asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(s), "r"(r0));
  if (OP == 15) asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(s), "r"(r0), "r"(r1));
  if (OP == 16) asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(s), "r"(r0), "r"(r1), "r"(r2), "r"(r3));
  if (OP == 17) asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(s), "r"(r0), "r"(r1), "r"(r2), "r"(r3));
  out[l] = r0 + r1 + r2 + r3;
}

typedef void (*K)(const uint32_t*, uint32_t*);
K ks[] = {probe<0>, probe<1>, probe<2>, probe<3>, probe<4>, probe<5>, probe<6>, probe<7>, probe<8>,
          probe<9>, probe<10>, probe<11>, probe<12>, probe<13>, probe<14>, probe<15>, probe<16>, probe<17>};

int main(int argc, char** argv) {
  std::ifstream f(argv[1]);
  std::string line;
  uint32_t *d_a, *d_o;
  cudaMalloc(&d_a, 128); cudaMalloc(&d_o, 128);
  int n = 0;
  while (std::getline(f, line)) {
    std::istringstream is(line);
    int op; is >> op;
    uint32_t a[32];
    for (int i = 0; i < 32; i++) is >> a[i];
    cudaMemcpy(d_a, a, 128, cudaMemcpyHostToDevice);
    ks[op]<<<1, 32>>>(d_a, d_o);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("case %d err %s\n", n, cudaGetErrorString(e)); return 1; }
    n++;
  }
  printf("ran %d\n", n);
}
