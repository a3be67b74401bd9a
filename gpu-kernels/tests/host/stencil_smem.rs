use gpu_kernels::stencil::smem::*;
use gpu_kernels::stencil::{
    Method, BLOCK, MAX_RADIUS, SMEM_P1, SMEM_P8, SMEM_P8_UNSWIZZLED, SPECS, VEC16,
};

/// The fill stores every element up to `fill_elems` exactly once, in whole warp instructions; each thread's
/// reads cover its window exactly, inside the tile.
#[test]
fn fills_cover_the_tile_and_reads_the_windows() {
    for s in SPECS.iter().filter(|s| s.method == Method::Smem) {
        for k in 1..=MAX_RADIUS {
            let tile = s.tile_elems(k);
            let mut seen = vec![0u32; s.smem_elems(k) as usize];
            for w in 0..BLOCK / 32 {
                for i in 0..s.smem_instructions(Access::Fill, k) {
                    for l in 0..32 {
                        if let Some(j) = s.smem_element(Access::Fill, k, w, i, l) {
                            for e in 0..VEC16 {
                                seen[s.swizzle.apply(j + e) as usize] += 1;
                            }
                        }
                    }
                }
            }
            let filled = seen.iter().filter(|&&c| c == 1).count() as u32;
            assert_eq!(filled, s.fill_elems(k), "{s} k={k}");
            assert!(s.fill_elems(k) >= tile);
            for w in 0..BLOCK / 32 {
                for i in 0..s.smem_instructions(Access::Fill, k) {
                    let active = (0..32)
                        .filter(|&l| s.smem_element(Access::Fill, k, w, i, l).is_some())
                        .count();
                    assert!(
                        active == 0 || active == 32,
                        "{s} k={k}: a partial fill instruction"
                    );
                }
            }
            assert!(seen.iter().all(|&c| c <= 1), "{s} k={k}");
            for t in 0..BLOCK {
                let (w, l) = (t / 32, t % 32);
                let mut window: Vec<u32> = (0..s.smem_instructions(Access::Read, k))
                    .flat_map(|c| {
                        let j = s.smem_element(Access::Read, k, w, c, l).unwrap();
                        (j..j + s.vec()).collect::<Vec<_>>()
                    })
                    .collect();
                window.truncate((s.per_thread + 2 * k) as usize);
                let want: Vec<u32> =
                    (t * s.per_thread..t * s.per_thread + s.per_thread + 2 * k).collect();
                assert_eq!(window, want, "{s} k={k} t={t}");
                let last = s.smem_element(
                    Access::Read,
                    k,
                    w,
                    s.smem_instructions(Access::Read, k) - 1,
                    l,
                );
                assert!(
                    last.unwrap() + s.vec() <= tile,
                    "{s} k={k} t={t} reads past the tile"
                );
            }
        }
    }
}

/// The build checks `MAX_RADIUS` only; every k gives the same verdict (and the instruction sets are prefixes).
#[test]
fn every_radius_has_the_verdict_of_max_radius() {
    for s in SPECS.iter().filter(|s| s.method == Method::Smem) {
        let free = |k| {
            Access::BOTH
                .iter()
                .all(|&a| s.smem_cost(a, k).conflicts() == 0)
        };
        let at_max = free(MAX_RADIUS);
        for k in 1..=MAX_RADIUS {
            assert_eq!(free(k), at_max, "{s} k={k}");
            for a in Access::BOTH {
                for w in 0..BLOCK / 32 {
                    for i in 0..s.smem_instructions(a, k) {
                        if let Some(l) = s.smem_lanes(a, k, w, i) {
                            assert_eq!(
                                Some(l),
                                s.smem_lanes(a, MAX_RADIUS, w, i),
                                "{s} {a:?} k={k}"
                            );
                        }
                    }
                }
            }
        }
    }
}

/// The check is not vacuous: lds128 serves 8 lanes per phase (4 phases, ideal 4 wavefronts); without its
/// swizzle the 8-outputs-per-thread read puts lanes 32 bytes apart, so lanes 0 and 4 of each phase hit the
/// same banks and every read costs 8 wavefronts.
#[test]
fn the_unswizzled_p8_read_conflicts_and_the_swizzle_fixes_it() {
    let base = SMEM_P8_UNSWIZZLED.smem_cost(Access::Read, 5);
    let worst = base.worst.as_ref().map(|(_, r)| r.wavefronts);
    assert_eq!(worst, Some(8), "{base:?}");
    assert_eq!(base.wavefronts, 2 * base.ideal, "{base:?}");
    assert_eq!(SMEM_P8_UNSWIZZLED.smem_cost(Access::Fill, 5).conflicts(), 0);
    assert!(SMEM_P8_UNSWIZZLED.smem_cost(Access::Read, 1).conflicts() > 0);
    let fixed = SMEM_P8.smem_cost(Access::Read, 5);
    assert_eq!(
        (fixed.conflicts(), fixed.instructions),
        (0, base.instructions)
    );
    // The article's one-output-per-thread kernel: 4-byte reads of consecutive words, 1 wavefront each.
    let seed = SMEM_P1.smem_cost(Access::Read, 2);
    assert_eq!((seed.wavefronts, seed.instructions), (5 * 8, 5 * 8));
    // And the same bank map through swizzle-core's report, for the first read of warp 0.
    let lanes = SMEM_P8_UNSWIZZLED
        .smem_lanes(Access::Read, 5, 0, 0)
        .unwrap();
    let r = swizzle_core::bank::report(SMEM_P8_UNSWIZZLED.smem_op(Access::Read), &lanes);
    assert_eq!((r.wavefronts, r.ideal), (8, 4));
}
