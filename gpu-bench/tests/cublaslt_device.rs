//! cuBLASLt's FP8 GEMM (the FP8 benchmarks' peer) against the fp64 host reference of the dequantized inputs, in
//! every scaling mode it accepts on this GPU. Random inputs, poisoned outputs, ragged shapes.

use gpu_bench::cublaslt::{CublasLt, Fp8Call};
use gpu_kernels::elem::e4m3::E4m3;
use gpu_kernels::fp8::reference::{compare, host_rows, random_e4m3, random_scales, Bound};
use gpu_kernels::fp8::{ScaleMode, Scales};
use gpu_kernels::{Elem, Gpu, Size};

fn gpu() -> Gpu {
    Gpu::open(0).unwrap_or_else(|e| panic!("this test needs an NVIDIA GPU and driver: {e}"))
}

/// Problem sizes spelled as the CLI spells them, `MxNxK` separated by spaces.
fn sizes(list: &str) -> Vec<Size> {
    list.split_whitespace()
        .map(|s| s.parse().unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect()
}

/// Shapes for the peer: ragged M (1, 3, 17, 1000) and N off every tile, K with a partial 128-block.
const PEER_SIZES: &str = "1x256x512 3x4096x1024 17x1000x272 1000x1000x1024 64x128x16 256x512x4096";

/// B's 128 x 128 scales in the other order (K block fastest -> N block fastest), to learn which one cuBLASLt
/// reads.
fn transpose_b_blocks(sb: &[f32], size: Size) -> Vec<f32> {
    let (nb, kb) = (size.n.div_ceil(128) as usize, size.k.div_ceil(128) as usize);
    let mut t = vec![0.0; sb.len()];
    for i in 0..nb {
        for j in 0..kb {
            t[j * nb + i] = sb[i * kb + j];
        }
    }
    t
}

/// cuBLASLt FP8 (e4m3 in, bf16 out, fp32 accumulation) against the host reference in each mode. Per-tensor
/// must be accepted and correct on every shape; the other modes, where this GPU's cuBLASLt accepts them, must be
/// correct too. Prints what was accepted.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn cublaslt_fp8_matches_the_host_reference_in_every_mode_it_accepts() {
    let gpu = gpu();
    let lt = CublasLt::new(&gpu).unwrap();
    let mut report = Vec::new();
    for (si, size) in sizes(PEER_SIZES).into_iter().enumerate() {
        let Size { m, n, k } = size;
        let a = random_e4m3((m * k) as usize, 100 + si as u64);
        let b = random_e4m3((n * k) as usize, 200 + si as u64);
        let (da, db) = (gpu.upload(&a).unwrap(), gpu.upload(&b).unwrap());
        let rows: Vec<u32> = if m <= 64 {
            (0..m).collect()
        } else {
            gpu_kernels::elem::indices(48, m, si as u64).collect()
        };
        for mode in ScaleMode::ALL {
            let call = Fp8Call::new(size, mode);
            // Per-tensor must run wherever M and N are multiples of 16; anything else is cuBLASLt's call.
            let must = mode == ScaleMode::Tensor && m % 16 == 0 && n % 16 == 0;
            let plan = match lt.fp8_plan(call) {
                Ok(p) => p,
                Err(e) => {
                    assert!(!must, "{call}: {e}");
                    eprintln!("{call}: refused at planning ({e})");
                    report.push(format!("{call}: refused at planning ({e})"));
                    continue;
                }
            };
            let scales = random_scales(mode, size, 300 + si as u64);
            let reference = host_rows(&a, &b, size, &scales, &rows).unwrap();
            let bound = Bound::new(Elem::BF16, mode, k);
            // Block mode: our B layout first, then its transpose, to learn which order cuBLASLt reads.
            let layouts: Vec<(&str, Scales<Vec<f32>>)> = if mode == ScaleMode::Block {
                let (sa, sb) = scales.parts();
                vec![
                    ("B blocks [N/128][K/128]", scales.clone()),
                    (
                        "B blocks [K/128][N/128]",
                        Scales::Block {
                            a: sa.clone(),
                            b: transpose_b_blocks(sb, size),
                        },
                    ),
                ]
            } else {
                vec![("", scales.clone())]
            };
            let mut outcome = Vec::new();
            let mut matched = false;
            let mut refused = false;
            for (label, s) in &layouts {
                let ds = s.map(|v| gpu.upload(v)).unwrap();
                let mut c = gpu.zeros::<half::bf16>(size.mn_len()).unwrap();
                gpu.fill_bytes(&mut c, 0xFF).unwrap(); // NaN poison
                let run = lt
                    .fp8_gemm(&plan, &da, &db, &ds, &mut c)
                    .and_then(|_| gpu.sync());
                if let Err(e) = run {
                    assert!(!must, "{call}: {e}");
                    outcome.push(format!("{label} refused at launch: {e}"));
                    refused = true;
                    break;
                }
                let got = gpu.download(&c).unwrap();
                let cmp = compare(
                    |i, j| got[i as usize * n as usize + j].to_f64(),
                    &rows,
                    &reference,
                    &bound,
                    8e-3,
                    &format!("cuBLASLt {call} {label}"),
                );
                match cmp {
                    Ok(agr) => {
                        matched = true;
                        outcome.push(format!(
                            "{label} ok: worst {:.3} of the bound, normwise {:.2e}, worst rel {:.2e}",
                            agr.worst_of_bound, agr.normwise, agr.worst_rel
                        ));
                    }
                    Err(e) => outcome.push(format!("{label} WRONG: {e}")),
                }
            }
            let line = format!(
                "{call}: {}; {}",
                if refused { "planned" } else { "accepted" },
                outcome.join("; ")
            );
            eprintln!("{line}");
            report.push(line);
            assert!(matched || refused, "{}", report.last().unwrap());
        }
    }
    eprintln!("--- cuBLASLt FP8 on {} ---", gpu.props().name);
    for line in &report {
        eprintln!("{line}");
    }
    // Bad input is refused before any launch, with one line.
    let size = Size::mnk(16, 32, 64);
    let plan = lt.fp8_plan(Fp8Call::new(size, ScaleMode::Tensor)).unwrap();
    let a = gpu.zeros::<E4m3>(16 * 64).unwrap();
    let b = gpu.zeros::<E4m3>(32 * 64).unwrap();
    let mut c = gpu.zeros::<half::bf16>(16 * 32).unwrap();
    let bad = Scales::Tensor {
        a: gpu.zeros::<f32>(2).unwrap(),
        b: gpu.zeros::<f32>(1).unwrap(),
    };
    let e = lt.fp8_gemm(&plan, &a, &b, &bad, &mut c).unwrap_err();
    assert!(e.to_string().contains("scales hold 2 values"), "{e}");
    assert!(lt
        .fp8_plan(Fp8Call::new(Size::mnk(16, 32, 40), ScaleMode::Tensor))
        .is_err());
}
