use gpu_kernels::transpose::*;
use gpu_kernels::Elem;

#[test]
fn launch_configs_cover_the_matrix() {
    let all = [Elem::F32, Elem::F16]
        .into_iter()
        .flat_map(|e| Transpose::all_for(e).into_iter().map(move |t| (e, t)));
    for (elem, t) in all {
        for (rows, cols) in [(1u32, 1u32), (31, 33), (4097, 1023), (16384, 16384)] {
            let cfg = t.launch_config(elem, rows, cols).unwrap();
            if let Transpose::Classic(Classic::CopyVec16, _) = t {
                let threads = cfg.grid_dim.0 as u64 * (cfg.block_dim.0 * cfg.block_dim.1) as u64;
                let vectors = (rows as u64 * cols as u64).div_ceil(16 / elem.bytes() as u64);
                assert!(
                    threads >= vectors && threads - vectors < 256,
                    "{t} {rows}x{cols}"
                );
                continue;
            }
            let (gx, gy, _) = cfg.grid_dim;
            let (bx, by, _) = cfg.block_dim;
            let (w, h) = match t {
                Transpose::Classic(s, _) if s.over_output() => (rows, cols),
                _ => (cols, rows),
            };
            let per_x = match t {
                Transpose::Classic(s, _) => bx * s.unroll(),
                Transpose::Smem(spec) => spec.tile,
            };
            let per_y = match t {
                Transpose::Classic(..) => by,
                Transpose::Smem(spec) => spec.tile,
            };
            assert!(
                gx * per_x >= w && gy * per_y >= h,
                "{t} {rows}x{cols}: {cfg:?}"
            );
            assert!(
                (gx - 1) * per_x < w && (gy - 1) * per_y < h,
                "{t} {rows}x{cols}: too many blocks"
            );
        }
    }
}

#[test]
fn sources_name_their_spec() {
    let t = Transpose::Smem(smem::SPECS[0]);
    let (src, opts) = t.source(Elem::F32);
    assert!(src.text.contains("transposeSmem"));
    assert_eq!(opts, vec!["-DSMEM_KERNEL=1".to_string()]);
    let h = &src.headers[0].text;
    assert!(h.contains("struct Spec {"), "{h}");
    assert!(h.contains("static constexpr int TILE = 32;"), "{h}");
    assert!(
        h.contains("using Smem = swz::Layout<32, 32, 4, false, swz::Swizzle<0, 0, 0>, 4, 0>;"),
        "{h}"
    );
    assert!(h.contains("struct Order {"), "{h}");
}
