//! FP8 on the GPU: the host e4m3 codec against the device's own conversions, and cuBLASLt's FP8 GEMM (the peer)
//! against the fp64 host reference of the dequantized inputs, in every scaling mode it accepts on this GPU.
//! Random inputs, poisoned outputs, ragged shapes.

use cudarc::driver::{CudaSlice, PushKernelArg};
use gpu_kernels::elem::e4m3::{self, E4m3};
use gpu_kernels::fp8::reference::{compare, host_rows, random_e4m3, random_scales, Bound};
use gpu_kernels::fp8::{ScaleMode, Scales};
use gpu_kernels::runtime::{CublasLt, Fp8Call, Header, Source};
use gpu_kernels::{Elem, Size};

mod common;
use common::{gpu, sizes, TAIL_RAGGED};

const CODEC: &str = r#"
#include <cuda_fp8.h>
extern "C" __global__ void e4m3_codec(const float* in, unsigned char* enc, float* dec, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 256) {
        __nv_fp8_e4m3 v;
        v.__x = (unsigned char)i;
        dec[i] = float(v);
    }
    if (i < n) enc[i] = __nv_cvt_float_to_fp8(in[i], __NV_SATFINITE, __NV_E4M3);
}
"#;

/// Every code decodes on the device to the host's value; random floats (every binade, ties, out of range,
/// NaN) encode with `__nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3)` to the host's code.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn e4m3_host_codec_matches_the_device() {
    let gpu = gpu();
    let src = Source {
        name: "e4m3_codec.cu".into(),
        text: CODEC.into(),
        headers: Vec::<Header>::new(),
    };
    let k = gpu.kernel(&src, &[], "e4m3_codec").unwrap();
    let mut inputs: Vec<f32> = gpu_kernels::elem::words(20_000, 9)
        .map(|w| {
            let mant = (w >> 11) as f64 / (1u64 << 53) as f64;
            let binade = (w % 24) as i32 - 13;
            let s = if w & 1 << 10 != 0 { -1.0 } else { 1.0 };
            (s * (1.0 + mant) * 2f64.powi(binade)) as f32
        })
        .collect();
    for c in 0..e4m3::MAX_CODE {
        let mid = (e4m3::decode(c) + e4m3::decode(c + 1)) / 2.0;
        inputs.extend([mid as f32, -mid as f32]);
    }
    inputs.extend([
        448.0,
        460.0,
        464.0,
        479.0,
        480.0,
        1e9,
        f32::INFINITY,
        f32::NAN,
    ]);
    inputs.extend([-464.0, -f32::INFINITY, 1e-30, -1e-30, 0.0, -0.0]);
    let n = inputs.len() as u32;
    let d_in = gpu.upload(&inputs).unwrap();
    let mut enc = gpu.zeros::<u8>(inputs.len()).unwrap();
    let mut dec = gpu.zeros::<f32>(256).unwrap();
    let cfg = cudarc::driver::LaunchConfig {
        grid_dim: (n.div_ceil(256), 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    gpu.launch(&k, cfg, |a| {
        a.arg(&d_in).arg(&mut enc).arg(&mut dec).arg(&n);
    })
    .unwrap();
    gpu.sync().unwrap();
    let (enc, dec) = (gpu.download(&enc).unwrap(), gpu.download(&dec).unwrap());
    for c in 0..=255u8 {
        let h = e4m3::decode(c);
        let d = dec[c as usize] as f64;
        assert!(
            (h.is_nan() && d.is_nan()) || h.to_bits() == d.to_bits(),
            "code 0x{c:02X}: host {h}, device {d}"
        );
    }
    let mut bad = 0;
    for (x, &d) in inputs.iter().zip(&enc) {
        let h = e4m3::encode(*x as f64);
        // The device may give either NaN code's sign for a NaN input.
        let same = h == d || (x.is_nan() && h & 0x7F == 0x7F && d & 0x7F == 0x7F);
        if !same {
            bad += 1;
            if bad < 8 {
                eprintln!("{x:e}: host 0x{h:02X}, device 0x{d:02X}");
            }
        }
    }
    assert_eq!(bad, 0, "{bad} of {n} encodings differ");
    eprintln!("e4m3 codec: 256 codes and {n} encodings agree with the device");
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

use gpu_kernels::hopper::{fp8, HopperGemm, HopperSpec, SHIPPED};

/// The e4m3 specs the kernel tests run besides the planned one: the shipped tile (clusters of 2), a 64-row
/// tile split in K, and for block scaling the 128x128 tile (two K-block accumulators), the same with one
/// accumulator waited for before each promotion (`fp8::BLOCK_BASE`), the 64x32 tile, and the tiles that span
/// two B scale blocks, also promoted in N halves ([`block_wide_specs`]).
fn fixed_specs(mode: ScaleMode) -> Vec<HopperSpec> {
    let e = SHIPPED.with_ty(Elem::E4M3).with_scale(mode);
    let narrow = HopperSpec {
        consumers: 1,
        bn: 64,
        stages: 8,
        cluster: 1,
        split: 2,
        ..e
    };
    match mode {
        ScaleMode::Block => vec![
            HopperSpec {
                bn: 128,
                stages: 6,
                ..e
            },
            narrow,
            fp8::BLOCK_BASE,
            HopperSpec {
                consumers: 1,
                bn: 32,
                stages: 12,
                ..e
            },
        ]
        .into_iter()
        .chain(block_wide_specs())
        .collect(),
        _ => vec![e, narrow],
    }
}

/// Block-scaled tiles wider than a B scale block: 128x192 (`fp8::BLOCK_WIDE`: tiles start 0 or 64 columns into
/// a block, three segments of 64) with clusters of 2 and alone, and 128x160 (0, 32, 64 or 96 columns in, five
/// segments of 32); each also promoted in N halves, and the 128x128 tile in halves; the tiles that fit only in
/// halves: 128x256 (`fp8::BLOCK_HALVES`, one B block per half) with clusters of 2 and alone, and 128x224 (0, 96,
/// 64 or 32 columns in, seven segments of 32, the halves meeting inside one).
fn block_wide_specs() -> Vec<HopperSpec> {
    let w = fp8::BLOCK_WIDE;
    let halves = |s: HopperSpec| HopperSpec {
        promote_halves: true,
        ..s
    };
    let single = HopperSpec { cluster: 1, ..w };
    let n160 = HopperSpec { bn: 160, ..w };
    let narrow = HopperSpec {
        bn: 128,
        stages: 6,
        ..w
    };
    let h = fp8::BLOCK_HALVES;
    vec![
        w,
        single,
        n160,
        halves(w),
        halves(single),
        halves(n160),
        halves(narrow),
        h,
        HopperSpec { cluster: 1, ..h },
        HopperSpec { bn: 224, ..h },
    ]
}

/// M = 1, 3, 17, 129, 1000; N off every tile; K with a partial 128-block and below one stage.
const RAGGED: &str = "1x1x16 1x256x512 3x1000x272 17x300x48 129x257x16 1000x520x1024";

/// Every scaling mode on ragged shapes (M = 1, 3, 17, 129, 1000; N off every tile; K with a partial 128-block
/// and below one stage) for the planned spec and the fixed ones: every element within the bound, no NaN left
/// from the poison, normwise error under 8e-3.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_fp8_ragged_shapes_every_mode() {
    let gpu = gpu();
    for mode in ScaleMode::ALL {
        let mut kernels: Vec<HopperGemm> = fixed_specs(mode)
            .into_iter()
            .map(|s| HopperGemm::new(&gpu, s).unwrap_or_else(|e| panic!("{s}: {e}")))
            .collect();
        for (i, size) in sizes(RAGGED).into_iter().enumerate() {
            let (planned, _) = HopperGemm::planned_fp8(&gpu, size, mode).unwrap();
            kernels.push(planned);
            for g in &kernels {
                let agr = fp8::check(&gpu, g, size, 40 + i as u64, 8e-3)
                    .unwrap_or_else(|e| panic!("{}: {e}", g.spec));
                eprintln!(
                    "{} {size}: worst {:.3} of the bound, normwise {:.2e}, worst rel {:.2e}",
                    g.spec, agr.worst_of_bound, agr.normwise, agr.worst_rel
                );
            }
            kernels.pop();
        }
    }
}

/// The smallest cases of every mode once (what compute-sanitizer runs): tensor and row on the shipped tile, every
/// block-scaling variant of the sweep, and each mode writing f16 and f32 (also split in K), at 1x1x16,
/// 17x300x48 and 130x200x1024 (8 K blocks: both accumulators' turns, the last pair's tail).
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_fp8_sanitizer_small() {
    let mut specs: Vec<HopperSpec> = ScaleMode::ALL.iter().map(|&m| fixed_specs(m)[0]).collect();
    specs.extend(fp8::block_variants().into_iter().map(|(_, s)| s));
    specs.extend(other_outputs());
    sanitizer_small(&specs);
}

/// [`hopper_fp8_sanitizer_small`]'s cases for the block-scaled tiles wider than a B scale block alone
/// ([`block_wide_specs`]; at 130x200x1024 the second N tile starts inside a B block): a short run under
/// racecheck.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_fp8_block_wide_sanitizer_small() {
    sanitizer_small(&block_wide_specs());
}

/// Each spec against the host reference at 1x1x16, 17x300x48 and 130x200x1024 (8 K blocks: both accumulators'
/// turns, the last pair's tail).
fn sanitizer_small(specs: &[HopperSpec]) {
    let gpu = gpu();
    for &spec in specs {
        let g = HopperGemm::new(&gpu, spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        for (i, size) in [
            Size::mnk(1, 1, 16),
            Size::mnk(17, 300, 48),
            Size::mnk(130, 200, 1024),
        ]
        .into_iter()
        .enumerate()
        {
            fp8::check(&gpu, &g, size, 90 + i as u64, 8e-3)
                .unwrap_or_else(|e| panic!("{}: {e}", g.spec));
        }
    }
}

/// The tail split's test specs: the 64x32 tail tile in every mode, and writing f32.
fn tail_specs() -> Vec<HopperSpec> {
    let tile = |mode: ScaleMode| common::tail_tile(SHIPPED.with_ty(Elem::E4M3).with_scale(mode));
    let mut specs: Vec<HopperSpec> = ScaleMode::ALL.into_iter().map(tile).collect();
    specs.push(tile(ScaleMode::Tensor).with_out(Elem::F32));
    specs
}

/// The tail split in every mode on ragged problems whose last tiles are split: every element within the bound
/// against the fp64 reference, poisoned first, twice on one kernel (the second launch finds the arrival counters
/// the first left at zero); and the same bits from two launches on the same inputs (the parts are summed in part
/// order, whatever order they arrive in).
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_fp8_tail_split_every_mode() {
    let gpu = gpu();
    for spec in tail_specs() {
        let g = HopperGemm::new(&gpu, spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        for (i, size) in sizes(TAIL_RAGGED).into_iter().enumerate() {
            let t = g.tail_split(size);
            assert!(
                t.tiles > 0 && t.parts > 1,
                "{spec} {size}: no tail split ({t:?})"
            );
            for round in 0..2 {
                let agr = fp8::check(&gpu, &g, size, 70 + 2 * i as u64 + round, 8e-3)
                    .unwrap_or_else(|e| panic!("{spec} round {round}: {e}"));
                eprintln!(
                    "{spec} {size} {t:?}: worst {:.3} of the bound, normwise {:.2e}",
                    agr.worst_of_bound, agr.normwise
                );
            }
        }
        let size = sizes(TAIL_RAGGED)[0];
        let a = gpu.upload(&random_e4m3(size.mk_len(), 3)).unwrap();
        let b = gpu.upload(&random_e4m3(size.nk_len(), 4)).unwrap();
        let sc = random_scales(spec.scale, size, 5)
            .map(|v| gpu.upload(v))
            .unwrap();
        let run = || match spec.out_ty() {
            Elem::F32 => c_bits::<f32>(&gpu, &g, (&a, &b), &sc, size),
            _ => c_bits::<half::bf16>(&gpu, &g, (&a, &b), &sc, size),
        };
        assert_eq!(run(), run(), "{spec}: two launches differ");
    }
}

/// `g` once at `size` into a poisoned C of type `O`: C's bits.
fn c_bits<O: gpu_kernels::elem::HostElem>(
    gpu: &gpu_kernels::Gpu,
    g: &HopperGemm,
    (a, b): (&CudaSlice<E4m3>, &CudaSlice<E4m3>),
    scales: &Scales<CudaSlice<f32>>,
    size: Size,
) -> Vec<u32> {
    let mut c = gpu.zeros::<O>(size.mn_len()).unwrap();
    gpu.fill_bytes(&mut c, 0xFF).unwrap();
    g.launch_fp8(gpu, a, b, scales, &mut c, size).unwrap();
    gpu.download(&c).unwrap().into_iter().map(O::bits).collect()
}

/// [`hopper_fp8_tail_split_every_mode`]'s specs at the first of its problems, once each (what compute-sanitizer
/// runs: the workspace stores, the arrival counters, the last part's reads).
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_fp8_tail_split_sanitizer_small() {
    let gpu = gpu();
    for spec in tail_specs() {
        let g = HopperGemm::new(&gpu, spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        let size = sizes(TAIL_RAGGED)[0];
        assert!(g.tail_split(size).parts > 1, "{spec}: no tail split");
        fp8::check(&gpu, &g, size, 80, 8e-3).unwrap_or_else(|e| panic!("{spec}: {e}"));
    }
}

/// Block scaling in N halves with the tail split, as planned at 8192x10240x8192 (128x256, a lone CTA), loaded, and
/// a ragged problem of 5.4 waves whose last 53 tiles run in 2 parts of K.
fn halves_tail(gpu: &gpu_kernels::Gpu) -> (HopperGemm, Size) {
    let spec = HopperSpec {
        cluster: 1,
        tail: true,
        ..fp8::BLOCK_HALVES
    };
    let g = HopperGemm::new(gpu, spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
    (g, Size::mnk(2900, 7700, 2048))
}

/// [`halves_tail`]: every element within the bound against the fp64 reference, poisoned first, twice on one
/// kernel.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_fp8_block_halves_tail_split() {
    let gpu = gpu();
    let (g, size) = halves_tail(&gpu);
    let spec = g.spec;
    let t = g.tail_split(size);
    assert!(
        t.tiles > 0 && t.parts > 1,
        "{spec} {size}: no tail split ({t:?})"
    );
    for round in 0..2 {
        let agr = fp8::check(&gpu, &g, size, 90 + round, 8e-3)
            .unwrap_or_else(|e| panic!("{spec} round {round}: {e}"));
        eprintln!(
            "{spec} {size} {t:?}: worst {:.3} of the bound, normwise {:.2e}",
            agr.worst_of_bound, agr.normwise
        );
    }
}

/// The same under compute-sanitizer (memcheck, racecheck): one launch.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_fp8_block_halves_tail_split_sanitizer() {
    let gpu = gpu();
    let (g, size) = halves_tail(&gpu);
    assert!(g.tail_split(size).parts > 1, "{}: no tail split", g.spec);
    fp8::check(&gpu, &g, size, 95, 8e-3).unwrap_or_else(|e| panic!("{}: {e}", g.spec));
}

/// The e4m3 kernel writing C in f16 and f32, in every mode, unsplit (clusters of 2) and split in K.
fn other_outputs() -> Vec<HopperSpec> {
    let mut out = Vec::new();
    for mode in ScaleMode::ALL {
        for ty in [Elem::F16, Elem::F32] {
            let s = fp8::BLOCK_PIPELINED.with_scale(mode).with_out(ty);
            let split = HopperSpec {
                cluster: 1,
                split: 2,
                stages: 4,
                ..s
            };
            out.extend([s, split]);
        }
    }
    out
}

/// C in f16 and f32 on the ragged shapes, every mode, against the fp64 reference held to the output type's
/// bound (f32: the tensor core's accumulation alone), poisoned first; and a C of the wrong type is refused.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_fp8_f16_and_f32_output_on_ragged_shapes() {
    let gpu = gpu();
    for spec in other_outputs() {
        let g = HopperGemm::new(&gpu, spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        for (i, size) in sizes(RAGGED).into_iter().enumerate() {
            let agr = fp8::check(&gpu, &g, size, 60 + i as u64, 8e-3)
                .unwrap_or_else(|e| panic!("{spec}: {e}"));
            eprintln!(
                "{spec} {size}: worst {:.3} of the bound, normwise {:.2e}, worst rel {:.2e}",
                agr.worst_of_bound, agr.normwise, agr.worst_rel
            );
        }
    }
    let g = HopperGemm::new(&gpu, fp8::BLOCK_PIPELINED.with_out(Elem::F32)).unwrap();
    let size = Size::mnk(16, 32, 128);
    let a = gpu.zeros::<E4m3>(16 * 128).unwrap();
    let b = gpu.zeros::<E4m3>(32 * 128).unwrap();
    let (la, lb) = gpu_kernels::fp8::scale::lens(ScaleMode::Block, size);
    let s = Scales::new(
        ScaleMode::Block,
        gpu.zeros::<f32>(la).unwrap(),
        gpu.zeros::<f32>(lb).unwrap(),
    );
    let mut c16 = gpu.zeros::<half::bf16>(16 * 32).unwrap();
    let e = g
        .launch_fp8(&gpu, &a, &b, &s, &mut c16, size)
        .unwrap_err()
        .to_string();
    assert!(e.contains("bf16 C") && !e.contains('\n'), "{e}");
}

/// 4096^3 and an LLM layer, tensor and row scaling, against the host reference on 96 sampled rows.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_fp8_large_against_sampled_host_rows() {
    let gpu = gpu();
    for size in [Size::mnk(4096, 4096, 4096), Size::mnk(16, 4096, 14336)] {
        for mode in [ScaleMode::Tensor, ScaleMode::Row, ScaleMode::Block] {
            let (g, _) = HopperGemm::planned_fp8(&gpu, size, mode).unwrap();
            let agr =
                fp8::check(&gpu, &g, size, 5, 8e-3).unwrap_or_else(|e| panic!("{}: {e}", g.spec));
            eprintln!(
                "{} {size}: worst {:.3} of the bound, normwise {:.2e}, worst rel {:.2e}",
                g.spec, agr.worst_of_bound, agr.normwise, agr.worst_rel
            );
        }
    }
}

/// The error with and without promotion at K = 16384: the same inputs, unit scales, through the per-tensor kernel
/// (the tensor core accumulates the whole K loop) and the per-block one (promoted into fp32 every 128 of K),
/// both against the fp64 reference. Each must hold its own bound; the numbers are printed.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_fp8_error_with_and_without_promotion_at_k16384() {
    let gpu = gpu();
    let size = Size::mnk(256, 256, 16384);
    // Positive inputs: every partial sum grows, so the accumulator's lost low bits add up instead of cancelling.
    for (label, signed) in [("signed", true), ("positive", false)] {
        let gen = |n: usize, seed: u64| -> Vec<E4m3> {
            random_e4m3(n, seed)
                .into_iter()
                .map(|v| if signed { v } else { E4m3(v.0 & 0x7F) })
                .collect()
        };
        let a = gen(size.mk_len(), 1);
        let b = gen(size.nk_len(), 2);
        let (da, db) = (gpu.upload(&a).unwrap(), gpu.upload(&b).unwrap());
        let rows: Vec<u32> = (0..256).step_by(5).collect();
        let runs = [
            (ScaleMode::Tensor, fixed_specs(ScaleMode::Tensor)[0]),
            (ScaleMode::Block, fp8::BLOCK_BASE),
            (ScaleMode::Block, fp8::BLOCK_PIPELINED),
            (ScaleMode::Block, fp8::BLOCK_WIDE),
            (
                ScaleMode::Block,
                HopperSpec {
                    promote_halves: true,
                    ..fp8::BLOCK_WIDE
                },
            ),
            (ScaleMode::Block, fp8::BLOCK_HALVES),
        ];
        for (mode, spec) in runs {
            let (la, lb) = gpu_kernels::fp8::scale::lens(mode, size);
            let scales = Scales::new(mode, vec![1.0f32; la], vec![1.0f32; lb]);
            let g = HopperGemm::new(&gpu, spec).unwrap();
            let ds = scales.map(|v| gpu.upload(v)).unwrap();
            let mut c = gpu.zeros::<half::bf16>(size.mn_len()).unwrap();
            gpu.fill_bytes(&mut c, 0xFF).unwrap();
            g.launch_fp8(&gpu, &da, &db, &ds, &mut c, size).unwrap();
            gpu.sync().unwrap();
            let got = gpu.download(&c).unwrap();
            let r = host_rows(&a, &b, size, &scales, &rows).unwrap();
            let agr = compare(
                |i, j| got[i as usize * 256 + j].to_f64(),
                &rows,
                &r,
                &Bound::new(Elem::BF16, mode, size.k),
                1.0, // reported, not held: the element-wise bound is the check here
                &format!("{spec} {size}"),
            )
            .unwrap_or_else(|e| panic!("{e}"));
            eprintln!(
                "K = 16384 {label} inputs, {spec} ({}): normwise {:.2e}, worst rel {:.2e}, worst {:.3} of the bound",
                if mode == ScaleMode::Block { "promoted every 128" } else { "no promotion" },
                agr.normwise, agr.worst_rel, agr.worst_of_bound
            );
            // Promoted every 128 of K, the error is the output rounding's whatever the inputs' signs.
            if mode == ScaleMode::Block {
                assert!(agr.normwise < 4e-3, "{label}: {agr:?}");
            }
        }
    }
}

/// Bad input is refused before any launch, with one line: wrong scale lengths, a mode the kernel was not built
/// for, K not a multiple of 16, the 16-bit launch on an FP8 kernel.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn hopper_fp8_refuses_bad_input_before_launch() {
    let gpu = gpu();
    let g = HopperGemm::new(&gpu, fixed_specs(ScaleMode::Row)[0]).unwrap();
    let size = Size::mnk(16, 32, 64);
    let a = gpu.zeros::<E4m3>(16 * 64).unwrap();
    let b = gpu.zeros::<E4m3>(32 * 64).unwrap();
    let mut c = gpu.zeros::<half::bf16>(16 * 32).unwrap();
    let up = |n: usize| gpu.upload(&vec![1.0f32; n]).unwrap();
    for (scales, says) in [
        (
            Scales::Row {
                a: up(15),
                b: up(32),
            },
            "A's scales hold 15 values",
        ),
        (
            Scales::Row {
                a: up(16),
                b: up(33),
            },
            "B's scales hold 33 values",
        ),
        (Scales::Tensor { a: up(1), b: up(1) }, "per-tensor scales"),
    ] {
        let e = g
            .launch_fp8(&gpu, &a, &b, &scales, &mut c, size)
            .unwrap_err()
            .to_string();
        assert!(e.contains(says) && !e.contains('\n'), "{e}");
    }
    let e = g
        .launch_fp8(
            &gpu,
            &a,
            &b,
            &Scales::Row {
                a: up(16),
                b: up(32),
            },
            &mut c,
            Size::mnk(16, 32, 40),
        )
        .unwrap_err()
        .to_string();
    assert!(e.contains("multiple of 16"), "{e}");
    let mut c8 = gpu.zeros::<E4m3>(16 * 32).unwrap();
    let e = g
        .launch(&gpu, &a, &b, &mut c8, size)
        .unwrap_err()
        .to_string();
    assert!(e.contains("launch_fp8"), "{e}");
}
