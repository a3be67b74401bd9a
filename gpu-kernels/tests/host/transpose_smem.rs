use gpu_kernels::transpose::smem::*;

/// The kernel's index math, transcribed thread by thread from `transposeSmem` (independently of
/// [`SmemSpec::warp_access`], which the tests compare with it): the byte address `lane` of `warp` touches in
/// per-warp instruction `instr`, with the smem element at `swizzle(row * (tile + pad) + col)` as the spec's
/// layout places it (swizzle, then padding; the shipped specs have one or the other).
fn kernel_lanes(s: &SmemSpec, access: Access, warp: u32, instr: u32) -> [u32; 32] {
    core::array::from_fn(|lane| {
        let t = warp * 32 + lane as u32;
        let (bx, _) = s.block();
        let (tx, ty) = (t % bx, t / bx);
        let (row, col) = match access {
            Access::Write => {
                let (jj, i) = (instr / s.vec, instr % s.vec);
                (s.vec * tx + i, s.vec * (ty + jj * s.block_y))
            }
            Access::Read => (ty + instr * s.block_y, s.vec * tx),
        };
        s.swizzle.apply(row * (s.tile + s.pad) + col) * s.elem.bytes()
    })
}

/// Every element of the tile is written exactly once and read exactly once, at in-range offsets.
#[test]
fn accesses_cover_the_tile_once() {
    for s in SPECS {
        let eb = s.elem.bytes();
        let cells = (s.tile * (s.tile + s.pad)) as usize;
        for access in Access::BOTH {
            let mut seen = vec![0u32; cells];
            for w in 0..s.warps() {
                for n in 0..s.instructions(access) {
                    for a in kernel_lanes(&s, access, w, n) {
                        assert_eq!(a % s.access_bytes(), 0, "{s}: unaligned {access:?} at {a}");
                        for e in 0..s.vec {
                            seen[(a / eb + e) as usize] += 1;
                        }
                    }
                }
            }
            let touched = seen.iter().filter(|&&c| c == 1).count();
            assert_eq!(
                touched,
                (s.tile * s.tile) as usize,
                "{s}: {access:?} coverage"
            );
            assert!(
                seen.iter().all(|&c| c <= 1),
                "{s}: {access:?} touches a cell twice"
            );
        }
    }
}

/// The accesses as data issue exactly the addresses of the kernel's index math (`SmemSpec::lanes`, written
/// from `transposeSmem` thread by thread), instruction for instruction: per-warp instruction `n` of warp `w`
/// is the thread-value layout's instruction `n + per_warp * w`. And every one can be issued on its layout.
#[test]
fn warp_accesses_are_the_kernels_lanes() {
    for s in SPECS {
        let smem = s.smem();
        for access in Access::BOTH {
            let w_acc = s.warp_access(access);
            assert_eq!(w_acc.check_on(&smem), Ok(()), "{s} {access:?}");
            let per_warp = s.instructions(access);
            assert_eq!(
                w_acc.instructions(&smem),
                per_warp * s.warps(),
                "{s} {access:?}"
            );
            for w in 0..s.warps() {
                for n in 0..per_warp {
                    assert_eq!(
                        w_acc.addrs(&smem, n + per_warp * w),
                        kernel_lanes(&s, access, w, n),
                        "{s} {access:?} warp {w} instruction {n}"
                    );
                }
            }
        }
    }
}

/// The compile-time check can fire, with swizzle-core's detailed message: on the unswizzled vectorised
/// baselines every block store costs 32 wavefronts (the 64x64 fp32 one is what Nsight Compute measured).
#[test]
fn the_compile_time_check_fires_on_the_baselines() {
    let s = VEC_UNPADDED_F32;
    let m = swizzle_core::verify::check_warp(&s.smem(), &s.warp_access(Access::Write));
    let text = m
        .prefixed("spec ", s.name(), ": ")
        .as_str()
        .expect("the unswizzled vectorised write conflicts")
        .to_string();
    assert!(
        text.starts_with(
            "spec smem-unpadded-t64v4: bank conflict: write (sts128) on 64x64 f32 row-major, unswizzled: \
             instruction 0 of 32 costs 32 wavefronts (ideal 4); in phase lanes 0..8 bank 0 gets 8 distinct \
             words from lanes 0@0 1@1024 2@2048"
        ),
        "{text}"
    );
    let s = VEC_UNPADDED_F16;
    let m = swizzle_core::verify::check_warp(&s.smem(), &s.warp_access(Access::Write));
    let text = m.as_str().expect("the unswizzled fp16 write conflicts");
    assert!(
        text.contains(" bank ") && text.contains("costs 32 wavefronts"),
        "{text}"
    );
    for s in [CLASSIC_UNPADDED_F32, CLASSIC_UNPADDED_F16] {
        let m = swizzle_core::verify::check_warp(&s.smem(), &s.warp_access(Access::Write));
        assert!(m.as_str().is_some_and(|t| t.contains("write (sts")), "{s}");
    }
    // ... and stays quiet on everything the build checks, and the build checks every padded or swizzled spec.
    for s in SPECS {
        for a in s.accesses().to_vec() {
            assert_eq!(a.conflict_free, s.layout() != Layout::Unpadded, "{s}");
            let m = swizzle_core::verify::check_warp(&a.smem, &a.access);
            if a.conflict_free {
                assert_eq!(m.as_str(), None, "{s} {}", a.label);
            } else if a.label == "write" {
                assert!(m.as_str().is_some(), "{s}: the baseline's write conflicts");
            }
        }
    }
}

/// The compile-time check is not vacuous: the unpadded baselines do conflict on their smem write.
#[test]
fn unpadded_baselines_conflict_and_the_fixes_do_not() {
    for s in SPECS {
        let smem = s.smem();
        let w = s.warp_access(Access::Write).report(&smem);
        let r = s.warp_access(Access::Read).report(&smem);
        assert_eq!(r.conflicts(), 0, "{s}: read");
        match s.layout() {
            Layout::Unpadded => {
                let worst = w.worst.as_ref().map_or(0, |(_, rep)| rep.wavefronts as u64);
                assert!(worst >= 8 * w.ideal / w.instructions as u64, "{s}: {w}")
            }
            _ => assert_eq!(w.conflicts(), 0, "{s}: write"),
        }
    }
}

/// The swizzles permute elements within a smem row (so the tile needs no extra space), and keep each
/// access's vector contiguous (the base bits cover the vector).
#[test]
fn swizzles_stay_in_their_row_and_keep_vectors() {
    for s in SPECS.iter().filter(|s| s.layout() == Layout::Swizzled) {
        for row in 0..s.tile {
            for col in 0..s.tile {
                assert_eq!(s.smem().offset(row, col) / s.tile, row, "{s}");
            }
        }
        assert!(1 << s.swizzle.base >= s.vec, "{s}: swizzle splits a vector");
    }
}
