use gpu_kernels::frame::{Bench, Family, Measure, Peer, Size};
use gpu_kernels::registry::*;
use gpu_kernels::transpose::family::TRANSPOSE;
use gpu_kernels::Elem;

#[test]
fn the_registered_families_have_the_optional_parts_they_use() {
    for f in FAMILIES {
        let plans = f.planned_list(Size::mnk(256, 4096, 4096)).unwrap();
        assert_eq!(plans.is_some(), f.name() == "hopper", "{}", f.name());
    }
    // Every registered family benchmarks against its peer; only the transpose has a smem-only build.
    let t = TRANSPOSE.parts();
    assert!(t.bench.is_some() && t.profile.is_some());
    assert!(gpu_kernels::fragments::FRAGMENTS.parts().bench.is_some());
    assert!(gpu_kernels::stencil::family::STENCIL
        .parts()
        .bench
        .is_some());
    assert!(gpu_kernels::matmul_l2::family::MATMUL_L2
        .parts()
        .bench
        .is_some());
    assert!(gpu_kernels::hopper::family::HOPPER.parts().bench.is_some());
    let gemm = gpu_kernels::gemm::family::GEMM.parts();
    assert!(gemm.bench.is_some() && gemm.profile.is_none() && gemm.plan.is_none());
}

/// The default measure and peer, derived from a family's buffers, are the vendor's call on the same types and
/// bytes: cuBLAS on each GEMM's input and output types (the FLOPs of the product); a D2D copy of the transpose's
/// matrix (its bytes read and written).
#[test]
fn default_peers_are_the_vendor_call_on_the_same_buffers() {
    let size = Size::mnk(256, 512, 128);
    let cublas = |ab, c| Peer::CublasGemm { size, ab, c };
    let gemm = &gpu_kernels::gemm::family::GEMM;
    for v in gemm.specs() {
        assert_eq!(gemm.peer(&v, size), cublas(v.input, v.out), "{v}");
        assert_eq!(gemm.measure(&v, size), Measure::Flops(size.flops()), "{v}");
    }
    let hopper = &gpu_kernels::hopper::family::HOPPER;
    for s in hopper.specs() {
        assert_eq!(hopper.peer(&s, size), cublas(s.ty, s.ty), "{s}");
    }
    let matmul = &gpu_kernels::matmul_l2::family::MATMUL_L2;
    for s in matmul.specs() {
        assert_eq!(matmul.peer(&s, size), cublas(Elem::F32, Elem::F32), "{s}");
    }
    let mn = Size::mn(300, 200);
    for v in TRANSPOSE.specs() {
        let bytes = 300 * 200 * u64::from(v.elem.bytes());
        assert_eq!(TRANSPOSE.peer(&v, mn), Peer::CopyD2D { bytes }, "{v}");
        assert_eq!(TRANSPOSE.measure(&v, mn), Measure::Bytes(2 * bytes), "{v}");
    }
}

/// Every spec's compile unit carries the family's header for it as `swz.cuh`: what the report prints (the named
/// specs of the header) is what the kernel compiles.
#[test]
fn compile_units_carry_the_reported_header() {
    for f in FAMILIES {
        let jobs = f.compile_jobs("sm_90");
        let infos = f.spec_infos();
        assert_eq!(jobs.len(), infos.len(), "{}", f.name());
        for (job, info) in jobs.iter().zip(&infos) {
            let swz = job
                .src
                .headers
                .iter()
                .find(|h| h.name == swizzle_core::cuda::HEADER_NAME);
            let text = swz.map_or("", |h| h.text.as_str());
            let (fam, spec) = (f.name(), &info.name);
            assert!(!info.header.is_empty(), "{fam} {spec}: no named specs");
            assert!(text.ends_with(&info.header), "{fam} {spec}");
        }
    }
}

/// A side `n` (`--sizes N`, `--n N`) is the cube for the GEMM families, profiled at 512; `n x n` for the
/// others, profiled at 2048 (the stencil's problems are rows, `1 x n`).
#[test]
fn a_side_is_a_cube_for_the_gemm_families() {
    for f in FAMILIES {
        let (size, side) = (f.size_of(96), f.profile_side());
        let want = match f.name() {
            "gemm" | "hopper" | "matmul-l2" => (Size::mnk(96, 96, 96), 512),
            "stencil" => (Size::mn(1, 96), 2048),
            _ => (Size::mn(96, 96), 2048),
        };
        assert_eq!((size, side), want, "{}", f.name());
    }
}
