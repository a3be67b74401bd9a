// The oracle for swizzle-core's descriptor encoders: NVIDIA's own builders in CuTe (CUTLASS), run on the host.
//
// Prints the case table that swizzle-core/tests/data/cute_descriptors.txt keeps (see scripts/oracle/README.md
// for the exact command). Nothing here is our code: every descriptor below comes out of CuTe's
//   cute::make_gmma_desc<Major>(tensor)     (cute/atom/mma_traits_sm90_gmma.hpp, sm_90 wgmma)
//   cute::UMMA::make_umma_desc<Major>(t)    (cute/atom/mma_traits_sm100.hpp, sm_100 tcgen05)
//   cute::UMMA::make_instr_desc<...>()      (cute/arch/mma_sm100_desc.hpp, the tcgen05 instruction descriptor)
//   GmmaDescriptor / UMMA::SmemDescriptor   (their bit-field unions, for base offset and LBO mode)
// on tiles built as CUTLASS builds them: tile_to_shape(<layout atom>, Shape<MN, K>) over the canonical atoms,
// sliced to one instruction's operand (local_tile) at every K step and MN slice, at several shared-memory
// addresses.
//
// Line formats (hex without 0x, one case per descriptor):
//   g ARCH MAJOR LAYOUT ELEM_BITS MN K SLICE_MN ADDR : D(j=0,m0=0) D(j=0,m0=SLICE) ... (m0 inner, j outer)
//   e ARCH MAJOR LAYOUT ELEM_BITS MN K SLICE ADDR : A... the byte address CuTe's tensor gives each 16-byte chunk
//     of the first instruction's operand (K-major: rows 0-15, each row's two chunks of K; MN-major: each K row,
//     every chunk of up to 64 MN elements): what `swz decode desc` prints
//   f ARCH START LBO SBO BASE LBO_MODE LAYOUT D
//   i A B C M N A_MAJOR B_MAJOR : D(N=n0) D(N=n0+step) ...
// ARCH 90 | 100, MAJOR K | MN, LAYOUT NONE | SW32 | SW64 | SW128 | SW128A32, types by name.
//
// Host-only: CuTe turns a shared-memory pointer into its 32-bit address with __cvta_generic_to_shared, which only
// exists on the device; here the tensors' "pointers" are the addresses themselves, so the host function below
// returns the pointer's value.
#include <cstddef>
#include <cstdint>
#define CUTE_CVTA_GENERIC_TO_SHARED_ACTIVATED 1
inline std::size_t __cvta_generic_to_shared(const void* p) { return reinterpret_cast<std::size_t>(p); }

#include <cute/tensor.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cstdio>
#include <utility>

using namespace cute;

static const uint32_t ADDRS[] = {0x0, 0x9c00, 0x3fc00, 0x40400};

enum Lay { NONE, SW32, SW64, SW128, SW128A32 };
static const char* lay_name(int l) {
  switch (l) { case NONE: return "NONE"; case SW32: return "SW32"; case SW64: return "SW64"; case SW128: return "SW128"; default: return "SW128A32"; }
}

template <class T, bool MN, int L> auto atom() {
  if constexpr (L == SW128A32) return UMMA::Layout_MN_SW128_32B_Atom<T>{};
  else if constexpr (MN) {
    if constexpr (L == NONE) return GMMA::Layout_MN_INTER_Atom<T>{};
    else if constexpr (L == SW32) return GMMA::Layout_MN_SW32_Atom<T>{};
    else if constexpr (L == SW64) return GMMA::Layout_MN_SW64_Atom<T>{};
    else return GMMA::Layout_MN_SW128_Atom<T>{};
  } else {
    if constexpr (L == NONE) return GMMA::Layout_K_INTER_Atom<T>{};
    else if constexpr (L == SW32) return GMMA::Layout_K_SW32_Atom<T>{};
    else if constexpr (L == SW64) return GMMA::Layout_K_SW64_Atom<T>{};
    else return GMMA::Layout_K_SW128_Atom<T>{};
  }
}

// One tile: MN x K elements of T. K-major tiles repeat the atom along MN first (the TMA box holds every MN row of
// one swizzled row of K); MN-major tiles along K first (the box holds every K row of one swizzled row of MN).
template <int ARCH, class T, bool MN, int L, int TM, int TK, int SLICE>
void tile() {
  constexpr int KSTEP = 256 / int(sizeof_bits<T>::value);  // 32 bytes of K per instruction
  // MN-major tiles and slices are whole atoms along MN (a slice never starts inside a swizzled row).
  constexpr int AMN = decltype(size<0>(atom<T, MN, L>()))::value;
  if constexpr (TM % AMN != 0 || SLICE % AMN != 0) {
    return;
  } else {
  auto layout = [] {
    if constexpr (MN) return tile_to_shape(atom<T, MN, L>(), Shape<Int<TM>, Int<TK>>{}, Step<_2, _1>{});
    else return tile_to_shape(atom<T, MN, L>(), Shape<Int<TM>, Int<TK>>{});
  }();
  for (uint32_t addr : ADDRS) {
    printf("g %d %s %s %d %d %d %d %x :", ARCH, MN ? "MN" : "K", lay_name(L), int(sizeof_bits<T>::value), TM, TK, SLICE, addr);
    Tensor t = make_tensor(make_smem_ptr(reinterpret_cast<T*>(std::size_t(addr))), layout);
    for (int j = 0; j < TK / KSTEP; ++j) {
      for (int m = 0; m < TM / SLICE; ++m) {
        Tensor s = local_tile(t, Shape<Int<SLICE>, Int<KSTEP>>{}, make_coord(m, j));
        uint64_t d;
        if constexpr (ARCH == 90) {
          d = uint64_t(SM90::GMMA::make_gmma_desc<MN ? GMMA::Major::MN : GMMA::Major::K>(s).desc_);
        } else {
          d = uint64_t(UMMA::make_umma_desc<MN ? UMMA::Major::MN : UMMA::Major::K>(s));
        }
        printf(" %llx", (unsigned long long)d);
      }
    }
    printf("\n");
  }
  // The element map of the first operand at a 1024-aligned address (the swizzle acts on the absolute address).
  if constexpr (TK == 128 * 8 / int(sizeof_bits<T>::value) && (TM == 64 || TM == 128) && SLICE == 64) {
    constexpr int CHUNK = 128 / int(sizeof_bits<T>::value);  // elements per 16 bytes
    const uint32_t addr = 0x2400;
    Tensor t = make_tensor(make_smem_ptr(reinterpret_cast<T*>(std::size_t(addr))), layout);
    Tensor s = local_tile(t, Shape<Int<SLICE>, Int<KSTEP>>{}, make_coord(0, 0));
    printf("e %d %s %s %d %d %d %d %x :", ARCH, MN ? "MN" : "K", lay_name(L), int(sizeof_bits<T>::value), TM, TK, SLICE, addr);
    auto at = [&](int mn, int k) { return (unsigned long)(std::size_t)(&s(mn, k)); };
    if constexpr (MN) {
      for (int k = 0; k < KSTEP; ++k)
        for (int c = 0; c < SLICE / CHUNK; ++c) printf(" %lx", at(c * CHUNK, k));
    } else {
      for (int mn = 0; mn < 16; ++mn)
        for (int c = 0; c < KSTEP / CHUNK; ++c) printf(" %lx", at(mn, c * CHUNK));
    }
    printf("\n");
  }
  }
}

template <int ARCH, class T, bool MN, int L>
void shapes() {
  constexpr int E = 128 * 8 / int(sizeof_bits<T>::value);  // elements per 128 bytes
  tile<ARCH, T, MN, L, 64, E, 64>();
  tile<ARCH, T, MN, L, 128, 2 * E, 64>();
  tile<ARCH, T, MN, L, 128, E, 128>();
  tile<ARCH, T, MN, L, 256, E, 256>();
  tile<ARCH, T, MN, L, 256, 2 * E, 64>();
  if constexpr (!MN) {
    tile<ARCH, T, MN, L, 8, E, 8>();
    tile<ARCH, T, MN, L, 24, 2 * E, 24>();
  }
}

template <int ARCH, class T, bool MN>
void layouts() {
  shapes<ARCH, T, MN, NONE>();
  shapes<ARCH, T, MN, SW32>();
  shapes<ARCH, T, MN, SW64>();
  shapes<ARCH, T, MN, SW128>();
  if constexpr (ARCH == 100 && MN) shapes<ARCH, T, MN, SW128A32>();
}

template <int ARCH>
void smem_descriptors() {
  layouts<ARCH, half_t, false>();
  layouts<ARCH, half_t, true>();
  layouts<ARCH, float_e4m3_t, false>();
  layouts<ARCH, tfloat32_t, false>();
  if constexpr (ARCH == 100) {  // tcgen05 transposes 8- and 32-bit operands too; wgmma only 16-bit ones.
    layouts<ARCH, float_e4m3_t, true>();
    layouts<ARCH, tfloat32_t, true>();
  }
}

// Every field through the bit-field unions: base offsets and the LBO mode, which the builders leave 0.
void fields() {
  uint32_t x = 12345;
  auto next = [&] { x = x * 1103515245u + 12345u; return x >> 8; };
  const int l100[] = {0, 1, 2, 4, 6};
  for (int i = 0; i < 1200; ++i) {
    uint32_t start = (next() & 0x3FFFF) & ~15u, lbo = (next() & 0x3FFFF) & ~15u, sbo = (next() & 0x3FFFF) & ~15u;
    uint32_t base = next() & 7, mode = next() & 1;
    GmmaDescriptor g;
    g.bitfield.start_address_ = uint16_t(start >> 4);
    g.bitfield.leading_byte_offset_ = uint16_t(lbo >> 4);
    g.bitfield.stride_byte_offset_ = uint16_t(sbo >> 4);
    g.bitfield.base_offset_ = uint8_t(base);
    g.bitfield.layout_type_ = uint8_t(i % 4);
    printf("f 90 %x %x %x %u 0 %d %llx\n", start, lbo, sbo, base, i % 4, (unsigned long long)g.desc_);
    UMMA::SmemDescriptor u;
    u.version_ = 1;
    u.start_address_ = uint16_t(start >> 4);
    u.leading_byte_offset_ = uint16_t(lbo >> 4);
    u.stride_byte_offset_ = uint16_t(sbo >> 4);
    u.base_offset_ = uint8_t(base);
    u.lbo_mode_ = uint8_t(mode);
    u.layout_type_ = uint8_t(l100[i % 5]);
    printf("f 100 %x %x %x %u %u %d %llx\n", start, lbo, sbo, base, mode, l100[i % 5], (unsigned long long)uint64_t(u));
  }
}

template <class T> const char* tname() {
  if constexpr (is_same_v<T, half_t>) return "f16";
  else if constexpr (is_same_v<T, bfloat16_t>) return "bf16";
  else if constexpr (is_same_v<T, tfloat32_t>) return "tf32";
  else if constexpr (is_same_v<T, float_e4m3_t>) return "e4m3";
  else if constexpr (is_same_v<T, float_e5m2_t>) return "e5m2";
  else if constexpr (is_same_v<T, float_e2m3_t>) return "e2m3";
  else if constexpr (is_same_v<T, float_e3m2_t>) return "e3m2";
  // kind::f8f6f4 reads fp4 unpacked in shared memory (code 5); packed float_e2m1_t is kind::mxf4's (code 1).
  else if constexpr (is_same_v<T, detail::float_e2m1_unpacksmem_t>) return "e2m1";
  else if constexpr (is_same_v<T, float>) return "f32";
  else return "?";
}

template <class A, class B, class C, int M, UMMA::Major AM, UMMA::Major BM, int STEP, int... I>
void idesc_row(std::integer_sequence<int, I...>) {
  printf("i %s %s %s %d %d %s %s :", tname<A>(), tname<B>(), tname<C>(), M, STEP, AM == UMMA::Major::K ? "K" : "MN",
         BM == UMMA::Major::K ? "K" : "MN");
  ((printf(" %x", uint32_t(UMMA::make_instr_desc<A, B, C, M, STEP * (I + 1), AM, BM>()))), ...);
  printf("\n");
}

template <class A, class B, class C, UMMA::Major AM, UMMA::Major BM>
void idesc_majors() {
  idesc_row<A, B, C, 64, AM, BM, 8>(std::make_integer_sequence<int, 32>{});
  idesc_row<A, B, C, 128, AM, BM, 8>(std::make_integer_sequence<int, 32>{});
  idesc_row<A, B, C, 256, AM, BM, 16>(std::make_integer_sequence<int, 16>{});
}

template <class A, class B, class C>
void idesc_types() {
  using UMMA::Major;
  idesc_majors<A, B, C, Major::K, Major::K>();
  if constexpr (sizeof_bits<A>::value >= 8 && sizeof_bits<B>::value >= 8) {
    idesc_majors<A, B, C, Major::MN, Major::K>();
    idesc_majors<A, B, C, Major::K, Major::MN>();
    idesc_majors<A, B, C, Major::MN, Major::MN>();
  }
}

void idescs() {
  idesc_types<half_t, half_t, float>();
  idesc_types<half_t, half_t, half_t>();
  idesc_types<bfloat16_t, bfloat16_t, float>();
  idesc_types<tfloat32_t, tfloat32_t, float>();
  idesc_types<float_e4m3_t, float_e4m3_t, float>();
  idesc_types<float_e5m2_t, float_e4m3_t, half_t>();
  idesc_types<float_e2m3_t, float_e3m2_t, float>();
  idesc_types<detail::float_e2m1_unpacksmem_t, detail::float_e2m1_unpacksmem_t, float>();
  idesc_types<float_e4m3_t, detail::float_e2m1_unpacksmem_t, float>();
}

int main() {
  smem_descriptors<90>();
  smem_descriptors<100>();
  fields();
  idescs();
  return 0;
}
