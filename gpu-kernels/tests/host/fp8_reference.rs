use gpu_kernels::elem::E4m3;
use gpu_kernels::fp8::reference::*;
use gpu_kernels::fp8::{ScaleMode, Scales};
use gpu_kernels::{Elem, Size};

fn naive(a: &[E4m3], b: &[E4m3], size: Size, s: &Scales<Vec<f32>>, i: usize, j: usize) -> f64 {
    let k = size.k as usize;
    let (sa, sb) = s.parts();
    (0..k)
        .map(|x| {
            let (va, vb) = (a[i * k + x].to_f64(), b[j * k + x].to_f64());
            let kb = x / 128;
            let scale = match s.mode() {
                ScaleMode::Tensor => sa[0] as f64 * sb[0] as f64,
                ScaleMode::Row => sa[i] as f64 * sb[j] as f64,
                ScaleMode::Block => {
                    sa[kb * size.m as usize + i] as f64
                        * sb[(j / 128) * (k.div_ceil(128)) + kb] as f64
                }
            };
            scale * va * vb
        })
        .sum()
}

/// The threaded, blocked reference agrees with an element-by-element sum written from the definitions, for
/// every mode, on a ragged shape with a partial K block and two N blocks.
#[test]
fn reference_matches_the_definitions_of_the_three_modes() {
    let size = Size::mnk(5, 131, 272);
    let a = random_e4m3(5 * 272, 1);
    let b = random_e4m3(131 * 272, 2);
    for mode in ScaleMode::ALL {
        let s = random_scales(mode, size, 3);
        let rows: Vec<u32> = (0..5).collect();
        let r = host_rows(&a, &b, size, &s, &rows).unwrap();
        for (i, row) in r.iter().enumerate() {
            for j in [0, 1, 127, 128, 130] {
                let want = naive(&a, &b, size, &s, i, j);
                let got = row[j].exact;
                assert!(
                    (got - want).abs() <= 1e-12 * row[j].abs,
                    "{mode} ({i},{j}): {got} vs {want}"
                );
                assert!(row[j].abs >= got.abs());
            }
        }
    }
    // Wrong lengths are refused before any work.
    let bad = Scales::Row {
        a: vec![1.0f32; 4],
        b: vec![1.0f32; 131],
    };
    assert!(host_rows(&a, &b, size, &bad, &[0]).is_err());
}

/// The comparison passes the reference rounded to bf16, and fails a poisoned element, a result off by one
/// scale, and one row's results swapped with another's.
#[test]
fn comparison_catches_unwritten_wrongly_scaled_and_misplaced_results() {
    let size = Size::mnk(4, 64, 512);
    let a = random_e4m3(4 * 512, 5);
    let b = random_e4m3(64 * 512, 6);
    let s = random_scales(ScaleMode::Row, size, 7);
    let rows: Vec<u32> = (0..4).collect();
    let r = host_rows(&a, &b, size, &s, &rows).unwrap();
    let bound = Bound::new(Elem::BF16, ScaleMode::Row, 512);
    let bf = |v: f64| half::bf16::from_f64(v).to_f64();
    let ok = compare(
        |i, j| bf(r[i as usize][j].exact),
        &rows,
        &r,
        &bound,
        1e-2,
        "ok",
    )
    .unwrap();
    assert_eq!(ok.elements, 4 * 64);
    assert!(ok.worst_of_bound <= 1.0 && ok.normwise < 4e-3, "{ok:?}");
    let poisoned = |i: u32, j: usize| {
        if (i, j) == (2, 7) {
            f64::NAN
        } else {
            r[i as usize][j].exact
        }
    };
    assert!(compare(poisoned, &rows, &r, &bound, 1e-2, "nan").is_err());
    let unscaled = |i: u32, j: usize| r[i as usize][j].exact / s.parts().0[i as usize] as f64;
    assert!(compare(unscaled, &rows, &r, &bound, 1e-2, "scale").is_err());
    let swapped = |i: u32, j: usize| r[(i as usize + 1) % 4][j].exact;
    assert!(compare(swapped, &rows, &r, &bound, 1e-2, "rows").is_err());
}

#[test]
fn block_scaling_promotes_every_128_of_k() {
    let t = Bound::new(Elem::BF16, ScaleMode::Tensor, 16384);
    let b = Bound::new(Elem::BF16, ScaleMode::Block, 16384);
    assert_eq!((t.chain, t.promotions), (16384, 0));
    assert_eq!((b.chain, b.promotions), (128, 128));
    assert_eq!(Bound::new(Elem::BF16, ScaleMode::Block, 48).chain, 48);
    // Output rounding alone at abs = 0; more room with a longer chain.
    assert_eq!(t.allows(256.0, 0.0), 1.0 + U_F32);
    assert!(t.allows(1.0, 1000.0) > 50.0 * b.allows(1.0, 1000.0));
}
