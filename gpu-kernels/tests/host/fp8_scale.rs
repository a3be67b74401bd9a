use gpu_kernels::fp8::scale::*;
use gpu_kernels::Size;

#[test]
fn each_mode_needs_its_lengths() {
    let s = Size::mnk(1000, 300, 16384);
    assert_eq!(lens(ScaleMode::Tensor, s), (1, 1));
    assert_eq!(lens(ScaleMode::Row, s), (1000, 300));
    assert_eq!(lens(ScaleMode::Block, s), (128 * 1000, 3 * 128));
    // A partial last K block has its own scale.
    assert_eq!(lens(ScaleMode::Block, Size::mnk(1, 1, 144)), (2, 2));
    assert_eq!(ScaleMode::Block.bytes(1, 1, 144), 16);
    for m in ScaleMode::ALL {
        let (a, b) = lens(m, s);
        let ok: Scales<Vec<f32>> = Scales::new(m, vec![1.0; a], vec![1.0; b]);
        assert!(ok.validate(s).is_ok(), "{m}");
        for (da, db) in [(1, 0), (0, 1), (usize::MAX, 0)] {
            let bad: Scales<Vec<f32>> =
                Scales::new(m, vec![1.0; a.wrapping_add(da)], vec![1.0; b + db]);
            let e = bad.validate(s).unwrap_err().to_string();
            assert!(e.contains("scales hold") && !e.contains('\n'), "{m}: {e}");
            assert!(e.contains(if db == 1 { "B's" } else { "A's" }), "{m}: {e}");
        }
    }
}

#[test]
fn k_must_be_a_multiple_of_16() {
    assert!(check_dims(Size::mnk(1, 1, 16)).is_ok());
    assert!(check_dims(Size::mnk(3, 17, 48)).is_ok());
    for k in [8, 24, 4097] {
        let e = check_dims(Size::mnk(64, 64, k)).unwrap_err().to_string();
        assert!(e.contains("multiple of 16") && !e.contains('\n'), "{e}");
    }
    assert!(check_dims(Size::mnk(0, 4, 16)).is_err());
    // Validation checks the problem first.
    let s = Scales::Tensor {
        a: vec![1.0f32],
        b: vec![1.0f32],
    };
    assert!(s.validate(Size::mnk(4, 4, 40)).is_err());
}
