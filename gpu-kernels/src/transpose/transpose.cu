// Matrix transpose kernels: the transpose article's set and the shared-memory tiled transposes.
//
// Convention for every kernel: `in` is ny rows x nx columns, row-major; `out` is its transpose, nx rows x ny
// columns: out[x * ny + y] = in[y * nx + x]. The copy kernels (the bounds) copy nx * ny elements unchanged.
//
// Variants differ by a Rust spec (gpu-kernels/src/transpose/), never by a copied file. The spec reaches this file
// as `struct swz::Spec` in the generated header swz.cuh, rendered by swizzle-core from the same Rust value:
//   Spec::T                         the element type, as bits of its size (a transpose never does arithmetic)
//   Spec::TILE, VEC, BLOCK_Y, STREAM the shared-memory kernel's shape (see transposeSmem)
//   Spec::Smem                      the shared-memory layout: every smem coordinate goes through Smem::offset
//   Spec::Order                     the block order: every block's tile comes from Order::here()
// Nothing here retypes a layout, mask, shift or raster formula (tests/cu_sources.rs greps for them). The only
// -D options are switches, not numbers: SMEM_KERNEL (compile transposeSmem: the spec has a layout),
// MIN_BLOCKS (a __launch_bounds__ occupancy target) and SMEM_ONLY (profiling builds).
#include "swz.cuh"
#include "swz_types.cuh"

typedef swz::Spec::T T;

// ---------------------------------------------------------------------------------------------------------------
// The article's kernels. blockDim is whatever the launch gives: one compile serves every block shape.
// "Row" kernels index threads over the input (read rows, write columns); "Col" kernels index threads over the
// output (read columns, write rows).

// Upper bound: load and store rows.
extern "C" __global__ void copyRow(T* __restrict__ out, const T* __restrict__ in, unsigned nx, unsigned ny) {
    unsigned ix = blockDim.x * blockIdx.x + threadIdx.x;
    unsigned iy = blockDim.y * blockIdx.y + threadIdx.y;
    if (ix < nx && iy < ny) out[(u64)iy * nx + ix] = in[(u64)iy * nx + ix];
}

// Lower bound: load and store columns (the same nx * ny elements, strided across the warp).
extern "C" __global__ void copyCol(T* __restrict__ out, const T* __restrict__ in, unsigned nx, unsigned ny) {
    unsigned ix = blockDim.x * blockIdx.x + threadIdx.x;
    unsigned iy = blockDim.y * blockIdx.y + threadIdx.y;
    if (ix < nx && iy < ny) out[(u64)ix * ny + iy] = in[(u64)ix * ny + iy];
}

// Read rows (coalesced), write columns (strided).
__device__ __forceinline__ void naive_row(T* out, const T* in, unsigned nx, unsigned ny, unsigned bx, unsigned by) {
    unsigned ix = blockDim.x * bx + threadIdx.x;
    unsigned iy = blockDim.y * by + threadIdx.y;
    if (ix < nx && iy < ny) out[(u64)ix * ny + iy] = in[(u64)iy * nx + ix];
}

// Read columns (strided, L1-cached), write rows (coalesced). Threads span the output: ox < ny, oy < nx.
__device__ __forceinline__ void naive_col(T* out, const T* in, unsigned nx, unsigned ny, unsigned bx, unsigned by) {
    unsigned ox = blockDim.x * bx + threadIdx.x;
    unsigned oy = blockDim.y * by + threadIdx.y;
    if (ox < ny && oy < nx) out[(u64)oy * ny + ox] = in[(u64)ox * nx + oy];
}

extern "C" __global__ void naiveRow(T* __restrict__ out, const T* __restrict__ in, unsigned nx, unsigned ny) {
    naive_row(out, in, nx, ny, blockIdx.x, blockIdx.y);
}

extern "C" __global__ void naiveCol(T* __restrict__ out, const T* __restrict__ in, unsigned nx, unsigned ny) {
    naive_col(out, in, nx, ny, blockIdx.x, blockIdx.y);
}

// Unrolled by 4 along x: each block covers 4 * blockDim.x columns. Unlike the article's listing (which skips the
// whole group when its last element is out of range, dropping up to 4 * blockDim.x - 1 columns on sizes that are
// not multiples of it), each of the 4 elements has its own bound.
extern "C" __global__ void unroll4Row(T* __restrict__ out, const T* __restrict__ in, unsigned nx, unsigned ny) {
    unsigned ix = 4 * blockDim.x * blockIdx.x + threadIdx.x;
    unsigned iy = blockDim.y * blockIdx.y + threadIdx.y;
    if (iy >= ny) return;
#pragma unroll
    for (unsigned k = 0; k < 4; ++k) {
        unsigned x = ix + k * blockDim.x;
        if (x < nx) out[(u64)x * ny + iy] = in[(u64)iy * nx + x];
    }
}

extern "C" __global__ void unroll4Col(T* __restrict__ out, const T* __restrict__ in, unsigned nx, unsigned ny) {
    unsigned ox = 4 * blockDim.x * blockIdx.x + threadIdx.x;
    unsigned oy = blockDim.y * blockIdx.y + threadIdx.y;
    if (oy >= nx) return;
#pragma unroll
    for (unsigned k = 0; k < 4; ++k) {
        unsigned x = ox + k * blockDim.x;
        if (x < ny) out[(u64)oy * ny + x] = in[(u64)x * nx + oy];
    }
}

// Diagonal block order: the launch's row-major block id is reinterpreted by swizzle-core's diagonal raster
// (x = (bx + by) % gx, y = by: the article's listing writes % gridDim.y, wrong on non-square grids).
__device__ __forceinline__ swz::Tile diagonal_tile() { return swz::raster_diagonal_here(); }

extern "C" __global__ void diagonalRow(T* __restrict__ out, const T* __restrict__ in, unsigned nx, unsigned ny) {
    swz::Tile t = diagonal_tile();
    if (t.active) naive_row(out, in, nx, ny, t.x, t.y);
}

extern "C" __global__ void diagonalCol(T* __restrict__ out, const T* __restrict__ in, unsigned nx, unsigned ny) {
    swz::Tile t = diagonal_tile();
    if (t.active) naive_col(out, in, nx, ny, t.x, t.y);
}

// The simple copy kernel the tables compare with: one 16-byte vector per thread (cudaMalloc'd bases are 256-byte
// aligned), the tail element by element. A 1-D grid over blocks of any shape.
extern "C" __global__ void copyVec16(T* __restrict__ out, const T* __restrict__ in, unsigned nx, unsigned ny) {
    const unsigned per = 16 / sizeof(T);
    const u64 n = (u64)nx * ny;
    const u64 t = (u64)blockIdx.x * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x;
    const u64 e = t * per;
    if (e + per <= n) {
        *reinterpret_cast<uint4*>(out + e) = *reinterpret_cast<const uint4*>(in + e);
    } else {
        for (u64 k = e; k < n; ++k) out[k] = in[k];
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Shared-memory tiled transpose, one kernel for every layout.
//
// A block moves a TILE x TILE tile. It has TILE/VEC x BLOCK_Y threads; each thread works on VEC x VEC blocks
// (VEC elements = one global access: 16 bytes for the vectorised variants, one element for the classic ones).
//   1. load : thread (tx, ty) reads VEC input rows y0 + VEC*j + k, k < VEC, at columns x0 + VEC*tx.. (one vector
//             each; a warp reads whole 128-byte lines), for j = ty, ty + BLOCK_Y, ...
//   2. turn : the VEC x VEC block is transposed in registers (compile-time indices only: no local memory).
//   3. write: the tile is stored TRANSPOSED in shared memory, s[c][r]: vector i of the thread goes to smem row
//             VEC*tx + i, columns VEC*j.. (one VEC-element store each).
//   4. read : after the barrier, thread (tx, ty) reads smem row c = ty + BLOCK_Y*m, columns VEC*tx.. and stores
//             it to output row x0 + c, columns y0 + VEC*tx.. (again whole lines per warp).
// The smem element at (row, col) lives at Spec::Smem::offset(row, col): unpadded, padded and swizzled are layout
// values of the spec (swizzle-core's Smem), not code. In step 3 the lanes of a warp write rows VEC apart: without
// padding or swizzle every lane hits the same banks (the family's accesses say so, as data).
// Which tile a block takes is Spec::Order, a swizzle-core raster from the header (identity unless the spec says).
// Tiles that stick out of the matrix, or rows that are not VEC-aligned, take element-wise global accesses with
// bounds checks into the same smem places.
// Spec::STREAM uses evict-first (.cs) global loads and stores; -DMIN_BLOCKS sets the __launch_bounds__ occupancy
// target; -DSMEM_ONLY=1 (profiling only, output not written) issues the very same smem instructions with no
// global traffic beside them, so the profiler's smem counters see nothing else.

#if defined(SMEM_KERNEL)
#ifndef SMEM_ONLY
#define SMEM_ONLY 0
#endif
using Spec = swz::Spec;
using Smem = Spec::Smem;
constexpr unsigned TILE = Spec::TILE, VEC = Spec::VEC, BLOCK_Y = Spec::BLOCK_Y, BLOCK_X = TILE / VEC;
static_assert(TILE % VEC == 0 && BLOCK_X % BLOCK_Y == 0 && TILE % BLOCK_Y == 0, "bad tile spec");
static_assert(Smem::ROWS == TILE && Smem::COLS == TILE && Smem::ELEM_BYTES == sizeof(T), "Smem is the tile");
static_assert(Smem::PAD_BYTES % (VEC * sizeof(T)) == 0, "padding must keep smem vectors aligned");

template <int BYTES> struct VecOf;
template <> struct VecOf<2> { typedef unsigned short type; };
template <> struct VecOf<4> { typedef unsigned int type; };
template <> struct VecOf<8> { typedef uint2 type; };
template <> struct VecOf<16> { typedef uint4 type; };
typedef typename VecOf<VEC * sizeof(T)>::type V;
union Vec {
    V v;
    T e[VEC];
};

__device__ __forceinline__ V load_vec(const T* p) {
    if constexpr (Spec::STREAM) {
        return __ldcs(reinterpret_cast<const V*>(p));
    } else {
        return *reinterpret_cast<const V*>(p);
    }
}

__device__ __forceinline__ void store_vec(T* p, V v) {
    if constexpr (Spec::STREAM) {
        __stcs(reinterpret_cast<V*>(p), v);
    } else {
        *reinterpret_cast<V*>(p) = v;
    }
}

// SMEM_ONLY: fold every loaded vector into one word, so no smem load is dead code.
__device__ __forceinline__ unsigned fold(unsigned short v) { return v; }
__device__ __forceinline__ unsigned fold(unsigned int v) { return v; }
__device__ __forceinline__ unsigned fold(uint2 v) { return v.x ^ v.y; }
__device__ __forceinline__ unsigned fold(uint4 v) { return v.x ^ v.y ^ v.z ^ v.w; }

__device__ __forceinline__ unsigned smem_at(unsigned row, unsigned col) { return Smem::offset(row, col); }

// An explicit minimum of 1 block lets ptxas take up to 255 registers (58 -> 144 on the fp16 tile): only pass one
// when the spec asks for more.
#ifdef MIN_BLOCKS
#define BOUNDS __launch_bounds__(BLOCK_X * BLOCK_Y, MIN_BLOCKS)
#else
#define BOUNDS __launch_bounds__(BLOCK_X * BLOCK_Y)
#endif

extern "C" __global__ void BOUNDS
transposeSmem(T* __restrict__ out, const T* __restrict__ in, unsigned nx, unsigned ny) {
    extern __shared__ __align__(16) unsigned char smem_bytes[];  // Smem::BYTES, sized at launch
    T* const s = reinterpret_cast<T*>(smem_bytes);
    const swz::Tile tile = Spec::Order::here();
    if (!tile.active) return;  // the whole block: no barrier is skipped by part of it
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    const unsigned x0 = tile.x * TILE, y0 = tile.y * TILE;
    // cudaMalloc'd bases are 256-byte aligned, so VEC-aligned row lengths make every vector access aligned.
    const bool fast = x0 + TILE <= nx && y0 + TILE <= ny && nx % VEC == 0 && ny % VEC == 0;

    if (fast) {
        Vec rows[BLOCK_X / BLOCK_Y][VEC];
#pragma unroll
        for (unsigned jj = 0; jj < BLOCK_X / BLOCK_Y; ++jj) {
            const unsigned y = y0 + VEC * (ty + jj * BLOCK_Y), x = x0 + VEC * tx;
#pragma unroll
            for (unsigned k = 0; k < VEC; ++k) {
#if SMEM_ONLY
#pragma unroll
                for (unsigned i = 0; i < VEC; ++i) rows[jj][k].e[i] = T(x + i + k);
#else
                rows[jj][k].v = load_vec(in + (u64)(y + k) * nx + x);
#endif
            }
        }
#pragma unroll
        for (unsigned jj = 0; jj < BLOCK_X / BLOCK_Y; ++jj) {
            const unsigned j = ty + jj * BLOCK_Y;
#pragma unroll
            for (unsigned i = 0; i < VEC; ++i) {
                Vec col;
#pragma unroll
                for (unsigned k = 0; k < VEC; ++k) col.e[k] = rows[jj][k].e[i];
                *reinterpret_cast<V*>(&s[smem_at(VEC * tx + i, VEC * j)]) = col.v;
            }
        }
    } else {
        // Edge tiles: element-wise, bounds-checked loads straight into the same smem places.
#pragma unroll
        for (unsigned jj = 0; jj < BLOCK_X / BLOCK_Y; ++jj) {
            const unsigned j = ty + jj * BLOCK_Y, y = y0 + VEC * j, x = x0 + VEC * tx;
            for (unsigned k = 0; k < VEC; ++k)
                for (unsigned i = 0; i < VEC; ++i)
                    s[smem_at(VEC * tx + i, VEC * j + k)] =
                        (y + k < ny && x + i < nx) ? in[(u64)(y + k) * nx + x + i] : T(0);
        }
    }
    __syncthreads();
    unsigned folded = 0;
#pragma unroll
    for (unsigned m = 0; m < TILE / BLOCK_Y; ++m) {
        const unsigned c = ty + m * BLOCK_Y;
        Vec v;
        v.v = *reinterpret_cast<const V*>(&s[smem_at(c, VEC * tx)]);
        const unsigned ox = x0 + c, oy = y0 + VEC * tx;
        if (SMEM_ONLY) {
            folded ^= fold(v.v);
        } else if (fast) {
            store_vec(out + (u64)ox * ny + oy, v.v);
        } else if (ox < nx) {
#pragma unroll
            for (unsigned i = 0; i < VEC; ++i)
                if (oy + i < ny) out[(u64)ox * ny + oy + i] = v.e[i];
        }
    }
    // Data-dependent (so no smem load is dead code), and harmless: SMEM_ONLY builds are never checked.
    if (SMEM_ONLY && folded == nx + 1u) out[0] = T(0);
}
#endif
