use gpu_kernels::stencil::*;
use gpu_kernels::Elem;
use swizzle_core::register_cache::RegisterCache;

#[test]
fn host_reference_matches_the_definition() {
    let a: Vec<i32> = (0..1000).map(|i| (i * 7919) % 1001 - 500).collect();
    for k in [1usize, 2, 5, 16] {
        let got = stencil_host(&a, k);
        assert_eq!(got.len(), 1000 - 2 * k);
        for (i, g) in got.iter().enumerate() {
            let sum: i32 = a[i..=i + 2 * k].iter().sum();
            assert_eq!(*g, sum / (2 * k as i32 + 1), "k={k} i={i}");
        }
    }
    assert!(stencil_host(&a[..4], 2).is_empty());
    assert!(stencil_host::<f32>(&[], 1).is_empty());
    // fp32: left-to-right sums, one IEEE division.
    let f: Vec<f32> = f32::random(300_000, 3);
    let got = stencil_host(&f, 3);
    for i in [0, 1, 65_535, 65_536, 299_993] {
        let mut acc = f[i];
        for s in 1..=6 {
            acc += f[i + s];
        }
        assert_eq!(got[i].to_bits(), (acc / 7.0).to_bits(), "i={i}");
    }
}

#[test]
fn random_inputs_are_nonzero_and_small_enough() {
    let v = i32::random(100_000, 1);
    assert!(v.iter().all(|x| (-(1 << 24)..(1 << 24)).contains(x)));
    assert!(v.iter().filter(|x| **x == 0).count() < 10);
    // A 33-term window cannot overflow, and the frame's i32 poison is no average.
    assert!(33i64 * (1 << 24) < i32::MAX as i64);
    let poison = |e| u32::from_ne_bytes([gpu_kernels::frame::host::poison(e); 4]);
    assert!((poison(Elem::I32) as i32 as i64).abs() > 1 << 24);
    assert!(f32::from_bits(poison(Elem::F32)).is_nan());
    assert_eq!(
        random_input(Elem::I32, 1000).typed::<i32>(),
        i32::random(1000, 0x57e9c11 ^ 1000)
    );
}

#[test]
fn launches_cover_every_output_once_and_no_more() {
    for s in SPECS {
        for k in 1..=MAX_RADIUS {
            assert_eq!(
                s.supports(k),
                s.method != Method::Shfl || 2 * k <= 32 * s.per_thread
            );
            if !s.supports(k) {
                assert!(s.launch_config(100, k).is_err());
                continue;
            }
            for n in [
                1usize,
                2 * k as usize,
                2 * k as usize + 1,
                1000,
                1 << 20,
                (1 << 27) + 13,
            ] {
                let cfg = s.launch_config(n, k).unwrap();
                let m = n.saturating_sub(2 * k as usize);
                match cfg {
                    None => assert_eq!(m, 0, "{s} n={n} k={k}"),
                    Some(c) => {
                        let per_block = s.outputs_per_block() as usize;
                        let blocks = c.grid_dim.0 as usize;
                        assert!(
                            blocks * per_block >= m && (blocks - 1) * per_block < m,
                            "{s} n={n}"
                        );
                    }
                }
            }
        }
    }
    assert!(GLOBAL_P1.launch_config(MAX_N + 1, 1).is_err());
    assert!(GLOBAL_P1.launch_config(100, 0).is_err());
    assert!(GLOBAL_P1.launch_config(100, MAX_RADIUS + 1).is_err());
}

#[test]
fn headers_carry_every_number_of_the_spec() {
    let src = SMEM_P8.source(Elem::I32, 5);
    let h = &src.headers[0].text;
    for want in [
        "using T = int;",
        "static constexpr int METHOD = 1;",
        "static constexpr int K = 5;",
        "static constexpr int PER = 8;",
        "static constexpr int VEC = 4;",
        "static constexpr int BLOCK = 256;",
        // 255 * 8 + ceil(18 / 4) * 4 = 2060 inputs, filled as 17 warp instructions of 128 elements.
        "static constexpr int TILE_ELEMS = 2060;",
        "static constexpr int FILL_ELEMS = 2176;",
        "using Smem = swz::Layout<1, 2176, 4, false, swz::Swizzle<1, 2, 3>, 4, 0>;",
    ] {
        assert!(h.contains(want), "{want} not in\n{h}");
    }
    assert_eq!(SMEM_P8.tile_elems(5), 2060);
    assert_eq!(SMEM_P8.smem_elems(5), 2176);
    assert_eq!(src.headers[1].name, RC_HEADER_NAME);
    let shfl = SHFL_P4.source(Elem::F32, 3);
    assert_eq!(
        shfl.headers[1].text,
        RegisterCache::new(4, 3).cuda_struct("StencilRc")
    );
    assert!(shfl.headers[0].text.contains("using T = float;"));
    assert!(shfl.headers[0]
        .text
        .contains("static constexpr int METHOD = 2;"));
    assert_eq!(GLOBAL_P2.header_cache(3), RegisterCache::new(2, 3));
    assert_eq!(
        (
            GLOBAL_P1.vec(),
            GLOBAL_P2.vec(),
            GLOBAL_P4.vec(),
            GLOBAL_P8.vec()
        ),
        (1, 2, 4, 4)
    );
    // The kernel text names no spec number itself.
    for retyped in ["-DK", "#define K", "TILE_ELEMS =", "256"] {
        assert!(!SOURCE.contains(retyped), "{retyped}");
    }
    // Every smem allocation fits the 48 KiB of static shared memory.
    for s in SPECS {
        assert!(s.smem_elems(MAX_RADIUS) * 4 <= 48 * 1024, "{s}");
    }
}
