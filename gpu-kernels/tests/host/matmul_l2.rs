use gpu_kernels::matmul_l2::*;
use gpu_kernels::Size;
use swizzle_core::raster::Raster;

#[test]
fn host_matmul_matches_a_worked_example() {
    // [1 2 3; 4 5 6] * [7 8; 9 10; 11 12] = [58 64; 139 154]
    let a = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    let b = [7.0, 8.0, 9.0, 10.0, 11.0, 12.0];
    assert_eq!(
        matmul_host(&a, &b, Size::mnk(2, 2, 3)),
        [58.0, 64.0, 139.0, 154.0]
    );
}

/// Every launched tile grid covers the output, on ragged shapes too, and Morton is refused off powers of two.
#[test]
fn launch_configs_cover_the_output() {
    for gemm in [
        Size::mnk(1, 1, 1),
        Size::mnk(97, 131, 75),
        Size::mnk(1024, 1024, 128),
        Size::mnk(16384, 16384, 128),
    ] {
        for v in SPECS {
            let Ok(cfg) = v.launch_config(gemm) else {
                assert!(!v.runs_on(gemm), "{v} {gemm}");
                assert!(matches!(v.order, Raster::Morton));
                continue;
            };
            let tiles = MatmulL2::tile_grid(gemm);
            let launched = cfg.grid_dim.0 as u64 * cfg.grid_dim.1 as u64;
            let active = (0..launched as u32)
                .filter(|&b| v.order.tile_of(b, tiles).is_some())
                .count() as u64;
            assert_eq!(active, tiles.blocks(), "{v} {gemm}");
            assert!(tiles.x * TILE >= gemm.n && tiles.y * TILE >= gemm.m);
            assert_eq!(cfg.block_dim, (TILE, TILE, 1));
        }
    }
    assert!(MatmulL2::new(Raster::Identity)
        .launch_config(Size::mnk(0, 4, 4))
        .is_err());
}

/// The header each variant compiles with carries its own order, and nothing else differs.
#[test]
fn variants_differ_only_by_their_order() {
    let srcs: Vec<_> = SPECS.iter().map(|v| v.source()).collect();
    for (v, (src, opts)) in SPECS.iter().zip(&srcs) {
        assert_eq!(src.text, SOURCE);
        assert_eq!(opts, &srcs[0].1);
        let call = v.order.cuda_call("bid", "gx", "gy");
        assert!(src.headers[0].text.contains(&call), "{v}: {call}");
        assert!(src.headers[0]
            .text
            .contains("static constexpr int TILE = 32;"));
    }
    assert_eq!(SPECS.len(), ORDERS.len());
}

/// The declared accesses against the kernel's index math, derived independently: warp w = thread row ty,
/// lane = tx; `As[ty][k..k+4]` is one 16-byte broadcast per warp instruction, `Bs[k][tx]` one row.
#[test]
fn accesses_match_the_kernel_index_math() {
    let a = ACCESSES.to_vec();
    assert_eq!(a.len(), 3);
    let (st, ar, br) = (a[0].access, a[1].access, a[2].access);
    for ty in 0..TILE {
        for tx in 0..TILE {
            assert_eq!(st.coord(&SMEM, ty, tx), (ty, tx));
        }
    }
    // Warp 0 (ty = 0) in the inner loop.
    for k in 0..TILE {
        for tx in 0..TILE {
            assert_eq!(br.coord(&SMEM, k, tx), (k, tx));
        }
    }
    for i in 0..TILE / 4 {
        for tx in 0..TILE {
            assert_eq!(ar.coord(&SMEM, i, tx), (0, 4 * i));
        }
    }
    // The broadcast: every lane the same 16 bytes, two half-warp wavefronts per instruction.
    let r = ar.report(&SMEM);
    assert_eq!(
        (r.instructions, r.wavefronts),
        (TILE / 4, 2 * TILE as u64 / 4)
    );
    // Another warp's As words are one row lower: the same banks.
    assert_eq!(SMEM.byte_addr(5, 7) % 128, SMEM.byte_addr(0, 7) % 128);
    for s in &a {
        assert_eq!(s.access.report(&SMEM).conflicts(), 0, "{}", s.label);
    }
}
