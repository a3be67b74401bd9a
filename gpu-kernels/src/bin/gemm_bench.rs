//! The GEMM family's device program (until `swz bench gemm` exists on the frame).
//!
//! ```text
//! gemm_bench ptxas [DIR|- [FILTER]]
//!                             compile every variant (whose file name contains FILTER) (NVRTC, no GPU needed) with ptxas -v; print registers, smem,
//!                             spills; write DIR/<variant>.cubin for cuobjdump; exit 1 on any stack frame or spill
//! gemm_bench check [FILTER]   every spec, both B layouts, fp16/bf16 in, same-type and fp32 out (the variants whose
//!                             file name contains FILTER), on a ragged 300x500x264 problem against the host reference
//! gemm_bench ncu nn|tn SPEC.. launch each spec once on 2048^3 fp16 (for Nsight Compute) and print the bank
//!                             model's ldmatrix instructions and wavefronts for it, one JSON line each
//! gemm_bench ncu-f32 nn|tn SPEC..  the same with fp32 output (epilogue st.shared.v2 model)
//! gemm_bench rounds [--shapes ..] [--dtypes ..] [--b ..] [--specs A,B,..] [--rounds R] [--iters N] [--json FILE]
//!                             cuBLAS and the specs in R interleaved rounds (order rotated each round); per kernel
//!                             the median over rounds of the per-round ratio to cuBLAS and to the first spec
//! gemm_bench bench [--shapes MxNxK,..] [--dtypes fp16,bf16] [--b nn,tn] [--specs LIST] [--iters N] [--json FILE]
//!                             cuBLAS and the specs on the same buffers; LIST is names or tiles|orders|baselines|
//!                             default|all (comma-separated); the experiments (spec::EXPERIMENTS) by name
//! gemm_bench diag MxNxK SPEC..
//!                             fp16 tn, each spec as shipped, without its mma and without its fill, beside cuBLAS,
//!                             in 8 interleaved rounds: where the main loop's time goes (the cut-down builds are
//!                             wrong by design and only timed)
//! gemm_bench peak [--shapes ..] [--dtypes ..] [--specs A,B,..] [--rounds R] [--iters N] [--json FILE]
//!                             cuBLAS, the specs (B N x K) and the mma.sync probes (gemm::peak) in R interleaved
//!                             rounds: the measured mma.sync ceiling beside cuBLAS, with the probes' SM clock
//! gemm_bench burst MxNxK [SPEC..] [--ms T] [--dtype fp16|bf16] [--b tn|nn] [--repeat R] [--no-peers]
//!                             cuBLAS, each spec and the 2-warps-per-scheduler probe (only the specs with
//!                             --no-peers), each launched back to back for T ms (default 3000), R passes (default
//!                             1; odd passes in reverse order) after one untimed T ms burst (warm-up); one JSON
//!                             line per burst (TFLOP/s, and the SM clock and board power nvidia-smi sampled during
//!                             it), then a table per kernel against the first spec
//! ```

use gpu_kernels::bench::smi::Sampler;
use gpu_kernels::bench::BenchConfig;
use gpu_kernels::gemm::bench::{markdown, measure_dyn, Lineup, Row, SHAPES};
use gpu_kernels::gemm::peak::{PeakBuffers, PeakProbe, PROBES};
use gpu_kernels::gemm::{self, spec, BLayout, GemmSpec, InType, OutType, Problem, Variant};
use gpu_kernels::Gpu;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r = match args.first().map(String::as_str) {
        Some("ptxas") => ptxas(
            args.get(1).map(String::as_str).filter(|d| *d != "-"),
            args.get(2).map(String::as_str),
        ),
        Some("check") => check(args.get(1).map(String::as_str)),
        Some("ncu") if args.len() >= 3 => ncu(&args[1], &args[2..]),
        Some("ncu-f32") if args.len() >= 3 => ncu_f32(&args[1], &args[2..]),
        Some("bench") => bench(&args[1..]),
        Some("rounds") => rounds(&args[1..]),
        Some("diag") if args.len() >= 3 => diag(&args[1], &args[2..]),
        Some("peak") => peak(&args[1..]),
        Some("burst") if args.len() >= 2 => burst(&args[1], &args[2..]),
        _ => Err("usage: gemm_bench ptxas [DIR] [FILTER] | check [FILTER] | ncu nn|tn SPEC.. | ncu-f32 nn|tn SPEC.. | bench [options] | rounds [options] | diag MxNxK SPEC.. | peak [options] | burst MxNxK [SPEC..] [options] (see the source)".into()),
    };
    if let Err(e) = r {
        eprintln!("gemm_bench: {e}");
        std::process::exit(1);
    }
}

type Res = Result<(), String>;

fn every_variant() -> Vec<Variant> {
    let mut v = Vec::new();
    for s in spec::all().into_iter().chain(spec::EXPERIMENTS) {
        for b in BLayout::BOTH {
            if s.tma_fill && b == BLayout::Kn {
                continue; // the TMA fill reads B stored N x K only
            }
            for input in [InType::F16, InType::Bf16] {
                for out in [input.same_out(), OutType::F32] {
                    v.push(Variant::new(s, b, input, out));
                }
            }
        }
    }
    v
}

fn file_name(v: &Variant) -> String {
    format!(
        "{}-{}-{}-{}",
        v.spec.name,
        v.b.name(),
        v.input.name(),
        v.out.name()
    )
}

fn ptxas(dir: Option<&str>, filter: Option<&str>) -> Res {
    let mut variants = every_variant();
    variants.retain(|v| filter.is_none_or(|f| file_name(v).contains(f)));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let out = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..std::thread::available_parallelism().map_or(4, |n| n.get()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(v) = variants.get(i) else { break };
                let r = gpu_kernels::runtime::compile(
                    &v.source(),
                    "sm_90",
                    &["--ptxas-options=-v".to_string()],
                );
                out.lock().unwrap().push((i, r));
            });
        }
    });
    let mut results = out.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    let mut bad = 0;
    for (i, r) in results {
        let v = &variants[i];
        let c = r.map_err(|e| format!("{v}: {e}"))?;
        let usage: Vec<&str> = c
            .log
            .lines()
            .filter(|l| {
                l.contains("Used")
                    || l.contains("stack frame")
                    || l.contains("C7")
                    || l.contains("arn")
            })
            .map(str::trim)
            .collect();
        let spills = c.log.lines().any(|l| {
            l.contains("bytes stack frame")
                && !(l.contains(" 0 bytes stack frame") && l.contains(" 0 bytes spill stores"))
        });
        if spills {
            bad += 1;
        }
        println!(
            "{}{v}: {}",
            if spills { "SPILL " } else { "" },
            usage.join(" | ")
        );
        if let Some(d) = dir {
            std::fs::create_dir_all(d).map_err(|e| e.to_string())?;
            std::fs::write(format!("{d}/{}.cubin", file_name(v)), &c.cubin)
                .map_err(|e| e.to_string())?;
        }
    }
    if bad > 0 {
        return Err(format!("{bad} variants use local memory"));
    }
    Ok(())
}

fn open() -> Result<Gpu, String> {
    let gpu = Gpu::open(0).map_err(|e| e.to_string())?;
    eprintln!("device: {}", gpu.props());
    Ok(gpu)
}

fn check(filter: Option<&str>) -> Res {
    let gpu = open()?;
    let mut variants = every_variant();
    variants.retain(|v| filter.is_none_or(|f| file_name(v).contains(f)));
    if variants.is_empty() {
        return Err(format!("no variant's file name contains {filter:?}"));
    }
    let list: Vec<_> = variants.iter().map(|v| (v.source(), Vec::new())).collect();
    let t = std::time::Instant::now();
    gpu.precompile(&list, 16).map_err(|e| e.to_string())?;
    eprintln!(
        "compiled {} variants in {:.1} s",
        variants.len(),
        t.elapsed().as_secs_f64()
    );
    let mut failed = 0;
    for v in &variants {
        let p = Problem::new(300, 500, 264, v.b).padded(8, 8);
        let r = match (v.input, v.out) {
            (InType::F16, OutType::F32) => gemm::check::<half::f16, f32>(&gpu, v, &p, None, None),
            (InType::F16, _) => gemm::check::<half::f16, half::f16>(&gpu, v, &p, None, None),
            (InType::Bf16, OutType::F32) => gemm::check::<half::bf16, f32>(&gpu, v, &p, None, None),
            (InType::Bf16, _) => gemm::check::<half::bf16, half::bf16>(&gpu, v, &p, None, None),
        };
        match r {
            Ok(rep) => println!(
                "ok   {v} {p}: worst {:.3} of tolerance, rel L2 {:.2e}",
                rep.worst_ratio, rep.rel_l2
            ),
            Err(e) => {
                failed += 1;
                println!("FAIL {e}");
            }
        }
    }
    println!("{} passed, {failed} failed", variants.len() - failed);
    if failed > 0 {
        return Err(format!("{failed} variants wrong"));
    }
    Ok(())
}

fn parse_b(s: &str) -> Result<BLayout, String> {
    match s {
        "nn" => Ok(BLayout::Kn),
        "tn" => Ok(BLayout::Nk),
        _ => Err(format!("B layout {s:?}: nn or tn")),
    }
}

fn parse_specs(list: &str) -> Result<Vec<GemmSpec>, String> {
    let mut v = Vec::new();
    for name in list.split(',') {
        match name {
            "tiles" => v.extend(spec::TILES),
            "orders" => v.extend(spec::ORDERS),
            "baselines" => v.extend(spec::BASELINES),
            "default" => v.push(spec::DEFAULT),
            "all" => v.extend(spec::all()),
            n => v.push(spec::by_name(n).ok_or_else(|| format!("no spec {n:?}"))?),
        }
    }
    let mut seen = std::collections::HashSet::new();
    v.retain(|s| seen.insert(s.name));
    Ok(v)
}

/// Launch each named spec once on the ncu problem (fp16 in, output `O`), printing one JSON line per spec: the
/// model's counts for what ncu measures in that launch (`model` of the spec, the B layout and the problem).
fn ncu_launches<O: gemm::OutElem>(
    b: &str,
    names: &[String],
    model: impl Fn(&GemmSpec, BLayout, &Problem) -> serde_json::Value,
) -> Res {
    let b = parse_b(b)?;
    let gpu = open()?;
    let p = ncu_problem(b);
    let a = gpu
        .upload(&gemm::random_input::<half::f16>(p.a_len(), 1))
        .map_err(|e| e.to_string())?;
    let bb = gpu
        .upload(&gemm::random_input::<half::f16>(p.b_len(), 2))
        .map_err(|e| e.to_string())?;
    let mut c = gpu.zeros::<O>(p.c_len()).map_err(|e| e.to_string())?;
    for n in names {
        for s in parse_specs(n)? {
            let v = Variant::new(s, b, InType::F16, O::TYPE);
            let k = v.prepare(&gpu).map_err(|e| e.to_string())?;
            v.launch(&gpu, &k, &p, &a, &bb, &mut c)
                .map_err(|e| e.to_string())?;
            gpu.sync().map_err(|e| e.to_string())?;
            println!("{}", model(&s, b, &p));
        }
    }
    Ok(())
}

/// ldmatrix and epilogue-read counts of the fp16-output kernel.
fn ncu(b: &str, names: &[String]) -> Res {
    ncu_launches::<half::f16>(b, names, |s, b, p| {
        let m = s.ldsm_model(b, p.m, p.n, p.k);
        serde_json::json!({"spec": s.name, "b": b.name(), "m": p.m, "n": p.n, "k": p.k,
            "model_ldsm_instructions": m.instructions, "model_ldsm_wavefronts": m.wavefronts,
            "model_ldsm_instructions_executed": m.instructions_executed,
            "model_a_per_instruction": m.a_per_instruction, "model_b_per_instruction": m.b_per_instruction,
            "model_epilogue_lds_instructions": m.epilogue_lds_instructions,
            "model_epilogue_lds_wavefronts": m.epilogue_lds_wavefronts})
    })
}

/// The ncu problem: 2048^3, or GEMM_NCU_SIZE^3.
fn ncu_problem(b: BLayout) -> Problem {
    let n = std::env::var("GEMM_NCU_SIZE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2048);
    Problem::new(n, n, n, b)
}

/// [`ncu`] with fp32 output (the `mma.acc` epilogue stores, counted by ncu as shared stores).
fn ncu_f32(b: &str, names: &[String]) -> Res {
    ncu_launches::<f32>(b, names, |s, b, p| {
        let m = s.ldsm_model(b, p.m, p.n, p.k);
        serde_json::json!({"spec": s.name, "b": b.name(), "out": "fp32",
            "model_sts_instructions": m.epilogue_f32_sts_instructions,
            "model_sts_wavefronts": m.epilogue_f32_sts_wavefronts})
    })
}

/// `MxNxK,MxNxK,..`
fn parse_shapes(val: &str) -> Result<Vec<(u32, u32, u32)>, String> {
    val.split(',')
        .map(|s| {
            let d: Vec<u32> = s.split('x').filter_map(|x| x.parse().ok()).collect();
            if d.len() == 3 {
                Ok((d[0], d[1], d[2]))
            } else {
                Err(format!("shape {s:?}: MxNxK"))
            }
        })
        .collect()
}

/// `fp16,bf16`
fn parse_dtypes(val: &str) -> Result<Vec<InType>, String> {
    val.split(',')
        .map(|d| match d {
            "fp16" => Ok(InType::F16),
            "bf16" => Ok(InType::Bf16),
            _ => Err(format!("dtype {d:?}")),
        })
        .collect()
}

/// The options `bench` and `rounds` share, with their defaults.
struct Opts {
    shapes: Vec<(u32, u32, u32)>,
    dtypes: Vec<InType>,
    bs: Vec<BLayout>,
    specs: Vec<GemmSpec>,
    cfg: BenchConfig,
    /// `Some` where `--rounds` is accepted (`rounds` only).
    rounds: Option<usize>,
    json: Option<String>,
}

impl Opts {
    /// `args` over `defaults`: `--shapes --dtypes --b --specs --iters --json`, and `--rounds` where the defaults
    /// have it.
    fn parse(args: &[String], mut o: Opts) -> Result<Opts, String> {
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let val = it.next().ok_or(format!("{a} needs a value"))?;
            match a.as_str() {
                "--shapes" => o.shapes = parse_shapes(val)?,
                "--dtypes" => o.dtypes = parse_dtypes(val)?,
                "--b" => o.bs = val.split(',').map(parse_b).collect::<Result<_, _>>()?,
                "--specs" => o.specs = parse_specs(val)?,
                "--rounds" if o.rounds.is_some() => {
                    o.rounds = Some(val.parse().map_err(|_| "--rounds R")?)
                }
                "--iters" => o.cfg.iters = val.parse().map_err(|_| "--iters N")?,
                "--json" => o.json = Some(val.clone()),
                _ => return Err(format!("unknown option {a}")),
            }
        }
        Ok(o)
    }
}

fn bench(args: &[String]) -> Res {
    let Opts {
        shapes,
        dtypes,
        bs,
        specs,
        cfg,
        json,
        ..
    } = Opts::parse(
        args,
        Opts {
            shapes: SHAPES.to_vec(),
            dtypes: vec![InType::F16, InType::Bf16],
            bs: vec![BLayout::Nk],
            specs: parse_specs("default,baselines,t128x256k32s4-identity")?,
            cfg: BenchConfig {
                warmup: 10,
                iters: 30,
                l2_factor: 1,
            },
            rounds: None,
            json: None,
        },
    )?;
    let gpu = open()?;
    let blas = gemm::Cublas::new(&gpu).map_err(|e| e.to_string())?;
    let mut list = Vec::new();
    for s in &specs {
        for &b in &bs {
            for &d in &dtypes {
                list.push((Variant::new(*s, b, d, d.same_out()).source(), Vec::new()));
            }
        }
    }
    let t = std::time::Instant::now();
    gpu.precompile(&list, 16).map_err(|e| e.to_string())?;
    eprintln!(
        "compiled {} variants in {:.1} s",
        list.len(),
        t.elapsed().as_secs_f64()
    );
    let mut rows: Vec<Row> = Vec::new();
    for &shape in &shapes {
        for &d in &dtypes {
            for &b in &bs {
                let r = measure_dyn(&gpu, &cfg, &blas, d, shape, b, &specs)
                    .map_err(|e| e.to_string())?;
                eprint!("{}", markdown(&r));
                rows.extend(r);
            }
        }
    }
    println!(
        "\ndevice: {} ({})\n",
        gpu.props(),
        gpu_kernels::bench::today_utc()
    );
    print!("{}", markdown(&rows));
    write_json(&rows, json.as_deref())
}

/// `gemm_bench rounds`: see the module doc.
fn rounds(args: &[String]) -> Res {
    let Opts {
        shapes,
        dtypes,
        bs,
        specs,
        cfg,
        rounds,
        json,
    } = Opts::parse(
        args,
        Opts {
            shapes: vec![(8192, 8192, 8192)],
            dtypes: vec![InType::F16, InType::Bf16],
            bs: vec![BLayout::Nk, BLayout::Kn],
            specs: parse_specs("default,t128x256k32s4-identity")?,
            cfg: BenchConfig {
                warmup: 3,
                iters: 10,
                l2_factor: 1,
            },
            rounds: Some(12),
            json: None,
        },
    )?;
    let n_rounds = rounds.unwrap_or(12);
    let gpu = open()?;
    let blas = gemm::Cublas::new(&gpu).map_err(|e| e.to_string())?;
    let mut all = Vec::new();
    for &(m, n, k) in &shapes {
        for &d in &dtypes {
            for &b in &bs {
                let p = Problem::new(m, n, k, b);
                let r = match d {
                    InType::F16 => {
                        gemm::bench::rounds::<half::f16>(&gpu, &cfg, &blas, &p, &specs, n_rounds)
                    }
                    InType::Bf16 => {
                        gemm::bench::rounds::<half::bf16>(&gpu, &cfg, &blas, &p, &specs, n_rounds)
                    }
                }
                .map_err(|e| e.to_string())?;
                print!("{}", gemm::bench::rounds_markdown(&r));
                all.extend(r);
            }
        }
    }
    finish(&gpu, &all, json.as_deref())
}

/// The device line under the tables, and every row as JSON to `json` when asked.
fn finish(gpu: &Gpu, rows: &impl serde::Serialize, json: Option<&str>) -> Res {
    println!(
        "\ndevice: {} ({})",
        gpu.props(),
        gpu_kernels::bench::today_utc()
    );
    write_json(rows, json)
}

/// Every row as pretty JSON to `json`, when asked.
fn write_json(rows: &impl serde::Serialize, json: Option<&str>) -> Res {
    if let Some(f) = json {
        std::fs::write(
            f,
            serde_json::to_string_pretty(rows).map_err(|e| e.to_string())?,
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `diag MxNxK SPEC..`: fp16 TN, each spec as shipped, without its mma (`GEMM_SKIP_MMA`; ptxas then drops the
/// unused ldmatrix as well) and without its cp.async fill (`GEMM_SKIP_FILL`), beside cuBLAS, in interleaved rounds:
/// where the main loop's time goes. The two cut-down builds compute wrong results by design; they are timed only.
fn diag(shape: &str, names: &[String]) -> Res {
    let (m, n, k) = parse_shapes(shape)?[0];
    let specs = parse_specs(&names.join(","))?;
    let gpu = open()?;
    let blas = gemm::Cublas::new(&gpu).map_err(|e| e.to_string())?;
    let p = Problem::new(m, n, k, BLayout::Nk);
    let e = |e: gpu_kernels::runtime::Error| e.to_string();
    let (mut names, mut kernels) = (Vec::new(), Vec::new());
    for s in &specs {
        let v = Variant::new(*s, BLayout::Nk, InType::F16, OutType::F16);
        for define in ["", "GEMM_SKIP_MMA", "GEMM_SKIP_FILL"] {
            let mut src = v.source();
            if !define.is_empty() {
                src.text = format!("#define {define}\n{}", src.text);
            }
            let kern = v.prepare_from(&gpu, &src).map_err(e)?;
            names.push(format!(
                "{} {}",
                s.name,
                if define.is_empty() {
                    "as shipped"
                } else {
                    define
                }
            ));
            kernels.push((v, kern));
        }
    }
    let mut lineup = Lineup::<half::f16>::new(&gpu, &p, kernels).map_err(e)?;
    let cfg = BenchConfig {
        warmup: 3,
        iters: 10,
        l2_factor: 1,
    };
    let times = gpu_kernels::bench::rounds::interleaved(&gpu, &cfg, lineup.count(), 8, |x| {
        lineup.launch(&gpu, &blas, x)
    })
    .map_err(e)?;
    println!("| {m}x{n}x{k} fp16 tn | median ms | GEMM TFLOP/s equivalent | % of cuBLAS time |");
    println!("|---|---|---|---|");
    let med = |t: &Vec<f64>| {
        let mut t = t.clone();
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    };
    let cub = med(&times[0]);
    for (x, t) in times.iter().enumerate() {
        let name = if x == 0 {
            "cuBLAS"
        } else {
            names[x - 1].as_str()
        };
        let ms = med(t);
        println!(
            "| {name} | {ms:.3} | {:.1} | {:.1} |",
            p.flops() / (ms * 1e-3) / 1e12,
            100.0 * cub / ms
        );
    }
    Ok(())
}

/// `gemm_bench peak`: see the module doc.
fn peak(args: &[String]) -> Res {
    let Opts {
        shapes,
        dtypes,
        specs,
        cfg,
        rounds,
        json,
        ..
    } = Opts::parse(
        args,
        Opts {
            shapes: vec![(4096, 4096, 4096), (8192, 8192, 8192)],
            dtypes: vec![InType::F16, InType::Bf16],
            bs: vec![BLayout::Nk],
            specs: parse_specs("default")?,
            cfg: BenchConfig {
                warmup: 3,
                iters: 10,
                l2_factor: 1,
            },
            rounds: Some(8),
            json: None,
        },
    )?;
    let gpu = open()?;
    let blas = gemm::Cublas::new(&gpu).map_err(|e| e.to_string())?;
    let mut all = Vec::new();
    for &(m, n, k) in &shapes {
        for &d in &dtypes {
            let p = Problem::new(m, n, k, BLayout::Nk);
            let probes: Vec<PeakProbe> = PROBES
                .iter()
                .map(|&(t, a)| PeakProbe::new(d, t, a))
                .collect();
            let n_rounds = rounds.unwrap_or(8);
            let r = match d {
                InType::F16 => gemm::bench::peak_rounds::<half::f16>(
                    &gpu, &cfg, &blas, &p, &specs, &probes, n_rounds,
                ),
                InType::Bf16 => gemm::bench::peak_rounds::<half::bf16>(
                    &gpu, &cfg, &blas, &p, &specs, &probes, n_rounds,
                ),
            }
            .map_err(|e| e.to_string())?;
            print!("{}", gemm::bench::peak_markdown(&r));
            all.extend(r);
        }
    }
    finish(&gpu, &all, json.as_deref())
}

/// `gemm_bench burst MxNxK [SPEC..] [options]`: see the module doc.
fn burst(shape: &str, rest: &[String]) -> Res {
    let (m, n, k) = parse_shapes(shape)?[0];
    let mut o = Burst {
        ms: 3000,
        repeat: 1,
        peers: true,
    };
    let (mut input, mut b) = (InType::F16, BLayout::Nk);
    let mut names = Vec::new();
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        let mut val = |what: &str| it.next().cloned().ok_or(format!("{a} {what}"));
        match a.as_str() {
            "--ms" => o.ms = val("T")?.parse().map_err(|_| "--ms T (milliseconds)")?,
            "--repeat" => o.repeat = val("R")?.parse().map_err(|_| "--repeat R")?,
            "--dtype" => input = parse_dtypes(&val("fp16|bf16")?)?[0],
            "--b" => b = parse_b(&val("tn|nn")?)?,
            "--no-peers" => o.peers = false,
            _ if a.starts_with("--") => return Err(format!("unknown option {a}")),
            _ => names.push(a.clone()),
        }
    }
    let specs = if names.is_empty() {
        Vec::new()
    } else {
        parse_specs(&names.join(","))?
    };
    let gpu = open()?;
    let p = Problem::new(m, n, k, b);
    match input {
        InType::F16 => burst_of::<half::f16>(&gpu, &p, &specs, &o),
        InType::Bf16 => burst_of::<half::bf16>(&gpu, &p, &specs, &o),
    }
    .map_err(|e| e.to_string())
}

struct Burst {
    ms: u64,
    repeat: usize,
    /// cuBLAS first and the 2-warps-per-scheduler probe last in each pass.
    peers: bool,
}

/// Each kernel of the lineup back to back for `o.ms`, `o.repeat` passes over the lineup (even passes in order, odd
/// passes reversed, so that no kernel always follows the same one) after one untimed burst of the first kernel;
/// one JSON line per burst, then the table
/// ([`gemm::bench::burst_markdown`], against the first spec). Clock and power come from `nvidia-smi` when it runs.
fn burst_of<I: gemm::InElem>(
    gpu: &Gpu,
    p: &Problem,
    specs: &[GemmSpec],
    o: &Burst,
) -> gpu_kernels::runtime::Result<()> {
    let blas = gemm::Cublas::new(gpu)?;
    let mut lineup = Lineup::<I>::of_specs(gpu, p, specs)?;
    let probe = PeakProbe::new(I::IN, 256, 32);
    let pk = probe.prepare(gpu)?;
    let mut pbuf = PeakBuffers::new(gpu, probe.input, probe.threads)?;
    let (iters, pbuf_blocks) = (probe.iters_for(pbuf.blocks, p.flops()), pbuf.blocks);
    let smi = Sampler::start(&gpu.pci_bus_id()?, 50)
        .map_err(|e| eprintln!("gemm_bench: {e}; no clock or power"))
        .ok();
    let unix_ms = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64)
    };
    // 0: cuBLAS, 1..=specs: the specs, specs + 1: the probe.
    let probe_x = specs.len() + 1;
    let order: Vec<usize> = if o.peers {
        (0..=probe_x).collect()
    } else {
        (1..probe_x).collect()
    };
    // Kernel x back to back for o.ms (one launch first, then 10 between synchronizations): the launches, when the
    // timed part began and ended, and for the probe the SM clock its blocks measured.
    let dur = std::time::Duration::from_millis(o.ms);
    let mut run_for =
        |x: usize| -> gpu_kernels::runtime::Result<(u64, Instant, Instant, Option<f64>)> {
            let mut launch = || {
                if x == probe_x {
                    probe.launch(gpu, &pk, &mut pbuf, iters)
                } else {
                    lineup.launch(gpu, &blas, x)
                }
            };
            launch()?;
            gpu.sync()?;
            let t = Instant::now();
            let mut launches = 0u64;
            while t.elapsed() < dur {
                for _ in 0..10 {
                    launch()?;
                }
                gpu.sync()?;
                launches += 10;
            }
            let end = Instant::now();
            let clock = if x == probe_x {
                Some(pbuf.clock_mhz(gpu)?.round())
            } else {
                None
            };
            Ok((launches, t, end, clock))
        };
    // Warm-up: one untimed burst of the first kernel, so that pass 0 starts on a card as hot as the later passes
    // (a cool card holds a higher clock for the first second or two).
    run_for(order[0])?;
    let mut rows = Vec::new();
    for pass in 0..o.repeat {
        let mut xs = order.clone();
        if pass % 2 == 1 {
            xs.reverse();
        }
        for x in xs {
            let kernel = match x {
                0 => "cuBLAS".to_string(),
                x if x == probe_x => probe.name(),
                x => specs[x - 1].name.to_string(),
            };
            let start_unix_ms = unix_ms();
            let (launches, t, end, probe_clock_mhz) = run_for(x)?;
            let work = if x == probe_x {
                probe.flops(pbuf_blocks, iters)
            } else {
                p.flops()
            };
            // The clock settles in the burst's first few hundred ms.
            let w = smi
                .as_ref()
                .and_then(|s| s.window(t + std::time::Duration::from_millis(500), end));
            let row = gemm::bench::BurstRow {
                kernel,
                dtype: I::IN.name(),
                b: p.b.name(),
                pass,
                start_unix_ms,
                end_unix_ms: unix_ms(),
                launches,
                tflops: (work * launches as f64 / (end - t).as_secs_f64() / 1e12 * 10.0).round()
                    / 10.0,
                sm_clock_mhz: w.map(|w| w.clock_mhz.round()),
                power_w: w.map(|w| w.power_w.round()),
                probe_clock_mhz,
            };
            println!("{}", serde_json::to_string(&row).unwrap());
            rows.push(row);
        }
    }
    let reference = specs.first().map_or("cuBLAS", |s| s.name);
    print!(
        "\n{}x{}x{}, {} ms bursts\n{}",
        p.m,
        p.n,
        p.k,
        o.ms,
        gemm::bench::burst_markdown(&rows, reference)
    );
    Ok(())
}
