//! Random command lines over the argument grammar (real and mangled spellings, numbers at type limits, stray
//! flags): the exit contract holds for every one. 0, 1 or 2; on 2 exactly one `swz:` line on stderr; never a
//! panic; never a run past the work bound. GPU subcommands and file outputs are left out (no GPU in CI, no files),
//! except the planner's: `plan gemm SHAPE` and `bench gemm|hopper --shapes ... --list` (no GPU needed).
use proptest::prelude::*;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Numbers at and around the type limits, as text.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "16",
    "32",
    "33",
    "64",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-1",
    "-2147483648",
    "-9223372036854775808",
    "+3",
    "3u8",
    "0x10",
    "1_000",
    "",
    " ",
    "3.5",
    "NaN",
];

const SWIZZLES: &[&str] = &[
    "3,3,3",
    "Sw<3,3,3>",
    "1,6,-2+3,3,5",
    "Sw<1,6,-2>+Sw<3,3,5>",
    "3,3,3++3,3,3",
    "none",
    "NONE",
    "SW128",
    "sw128",
    "SW256",
    "3,3",
    "3,3,2",
    "32,0,32",
    "0,0,0",
    "3,4,-3",
    "Sw<3,3,3",
    "+",
    "1,5,1",
];

const ORDERS: &[&str] = &[
    "identity",
    "strip",
    "strip:4",
    "strip(tile=4)",
    "strip(panel=2)",
    "cutlass:2",
    "cutlass(log-tile=2)",
    "cutlass:99",
    "group-m(group_m=8)",
    "group_m:3",
    "serpentine:2",
    "morton",
    "diagonal",
    "zigzag",
    "strip:0",
    "all",
];

const ELEMS: &[&str] = &[
    "f16", "fp16", "f32", "f64", "u8", "b128", "f17", "bytes", "",
];
const PATTERNS: &[&str] = &[
    "row16",
    "ldmatrix.x4",
    "ldmatrix.x4.trans",
    "stmatrix.x4",
    "col.ld",
    "row.st",
    "mma.acc",
    "row16@64",
    "row16@0",
    "col.ld@4294967295",
    "nope",
];

fn pick(pool: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::sample::select(pool).prop_map(str::to_string)
}

/// A number from the limits, or two joined by the separator a shape uses (`64x64`, `0..8`, `4096x4096x4096`).
fn shape(sep: &'static str, parts: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(pick(NUMBERS), parts).prop_map(move |v| v.join(sep))
}

/// Sides of a GEMM shape: the numbers at the limits, the planner's bound (2^20) and its neighbours, real layer
/// sizes.
const SIDES: &[&str] = &[
    "1",
    "8",
    "16",
    "17",
    "4096",
    "28672",
    "1048575",
    "1048576",
    "1048577",
    "1048584",
    "4294967288",
    "4294967295",
    "2147483648",
    "99999999999",
    "0",
    "-8",
    "+8",
    "",
    "8.0",
    "1e3",
];

/// A GEMM shape `MxNxK`, usually of three sides, sometimes of two or four.
fn gemm_shape() -> BoxedStrategy<String> {
    prop_oneof![
        8 => prop::collection::vec(pick(SIDES), 3).prop_map(|v| v.join("x")),
        1 => prop::collection::vec(pick(SIDES), 2).prop_map(|v| v.join("x")),
        1 => prop::collection::vec(pick(SIDES), 4).prop_map(|v| v.join("X")),
    ]
    .boxed()
}

/// An option of `--layout`, right or wrong, any of them possibly twice.
const LAYOUT_OPTIONS: &[&str] = &[
    "pad=16",
    "pad=0",
    "pad=4294967295",
    "pad=-1",
    "pad=",
    "pad",
    "unit=bytes",
    "unit=f16",
    "unit=f17",
    "unit",
    "col",
    "col=1",
    "row",
    "=3",
    "",
];

/// A value for a flag: usually of its kind, sometimes anything.
fn value_of(flag: &'static str) -> BoxedStrategy<String> {
    let own: BoxedStrategy<String> = match flag {
        "--swizzle" | "--then" => pick(SWIZZLES).boxed(),
        "--order" => pick(ORDERS).boxed(),
        "--elem" | "--unit" => pick(ELEMS).boxed(),
        "--pattern" => pick(PATTERNS).boxed(),
        "--tile" => prop_oneof![shape("x", 2), shape("x", 3)].boxed(),
        "--grid" => shape("x", 2).boxed(),
        "--gemm" => prop_oneof![shape("x", 3), gemm_shape()].boxed(),
        "SHAPE" => gemm_shape(),
        // Comma-separated shapes, repeats included.
        "--shapes" => prop::collection::vec(gemm_shape(), 1..5)
            .prop_map(|v| {
                let mut all = v.clone();
                all.extend(v);
                all.join(",")
            })
            .boxed(),
        "--dtype" => pick(&["bf16", "f16", "fp16", "f32", "BF16", ""]).boxed(),
        "--device" => pick(&["h100", "h200", "a100", ""]).boxed(),
        "--range" => prop_oneof![shape("..", 2), shape("..=", 2)].boxed(),
        "--layout" => (
            pick(&["L", "NULL", "Swizzle", "_X"]),
            shape("x", 2),
            pick(ELEMS),
            pick(SWIZZLES),
            pick(NUMBERS),
            prop::collection::vec(pick(LAYOUT_OPTIONS), 0..4),
        )
            .prop_map(|(n, d, e, s, p, opts)| {
                let mut text = format!("{n}={d}:{e}:{s}:pad={p}");
                if !opts.is_empty() {
                    // The options alone (so a pad= is not always given twice), or after the pad.
                    if p.len() % 2 == 0 {
                        text = format!("{n}={d}:{e}:{s}");
                    }
                    text = format!("{text}:{}", opts.join(":"));
                }
                text
            })
            .boxed(),
        "--raster" => (pick(&["G", "bid", "INT_MAX"]), pick(ORDERS))
            .prop_map(|(n, o)| format!("{n}={o}"))
            .boxed(),
        "--guard" => pick(&["MY_GUARD", "NULL", "Tile", "bid", "SWZ_X", "__x", "1x"]).boxed(),
        "--op" => pick(&["lds32", "lds128", "ldmatrix.x4", "sts7"]).boxed(),
        "--addrs" => prop::collection::vec(pick(NUMBERS), 0..33)
            .prop_map(|v| v.join(","))
            .boxed(),
        _ => pick(NUMBERS).boxed(),
    };
    prop_oneof![8 => own, 1 => pick(NUMBERS), 1 => "[ -~]{0,12}"].boxed()
}

/// The subcommands that run without a GPU or files, with the flags each takes (and a few it does not).
const COMMANDS: &[(&str, &[&str])] = &[
    ("apply", &["--swizzle", "--range"]),
    ("show", &["--swizzle", "--tile", "--elem", "--order"]),
    (
        "check",
        &[
            "--tile",
            "--elem",
            "--pattern",
            "--swizzle",
            "--then",
            "--pad",
        ],
    ),
    ("synth", &["--tile", "--elem", "--pattern"]),
    (
        "raster",
        &[
            "--order",
            "--grid",
            "--tile",
            "--log-tile",
            "--group",
            "--panel",
            "--limit",
        ],
    ),
    ("wavefronts", &["--op", "--addrs"]),
    (
        "emit-header",
        &["--swizzle", "--raster", "--layout", "--unit", "--guard"],
    ),
    (
        "l2",
        &[
            "--gemm",
            "--tile",
            "--elem",
            "--order",
            "--sms",
            "--resident",
            "--partitions",
            "--l2-bytes",
        ],
    ),
    (
        "plan gemm",
        &["SHAPE", "--dtype", "--device", "--top", "--json"],
    ),
    (
        "bench gemm --list",
        &["--shapes", "--sizes", "--elem", "--only"],
    ),
    ("bench hopper --list", &["--shapes", "--elem"]),
    ("nope", &["--swizzle"]),
];

fn command_line() -> impl Strategy<Value = Vec<String>> {
    (0..COMMANDS.len()).prop_flat_map(|c| {
        let (name, flags) = COMMANDS[c];
        let flag_value =
            prop::sample::select(flags).prop_flat_map(|f| value_of(f).prop_map(move |v| (f, v)));
        // The planner's commands always name their problem (their first flag), then anything.
        let first = match flags[0] {
            f @ ("SHAPE" | "--shapes") => value_of(f).prop_map(move |v| vec![(f, v)]).boxed(),
            _ => Just(Vec::new()).boxed(),
        };
        (first, prop::collection::vec(flag_value, 0..6)).prop_map(move |(first, rest)| {
            let mut args: Vec<String> = name.split(' ').map(str::to_string).collect();
            for (f, v) in first.into_iter().chain(rest) {
                if f == "SHAPE" {
                    // A positional: as written, in front of the flags' values or among them.
                    args.push(v);
                } else {
                    args.push(format!("{f}={v}"));
                }
            }
            args
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_command_line_keeps_the_exit_contract(args in command_line()) {
        let start = Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_swz"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read stdout on a thread so a large (bounded) output cannot block the child.
        let mut stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            // The planner answers any accepted shape in under a second (room here for a loaded runner).
            let limit = if matches!(args[0].as_str(), "plan" | "bench") { 10 } else { 60 };
            if start.elapsed() > Duration::from_secs(limit) {
                let _ = child.kill();
                panic!("{args:?}: still running after {limit} s");
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        reader.join().unwrap().unwrap();
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        let code = status.code();
        prop_assert!(matches!(code, Some(0..=2)), "{args:?}: exit {code:?}, stderr {err:?}");
        prop_assert!(!err.contains("panicked"), "{args:?}: {err}");
        if code == Some(2) {
            prop_assert_eq!(err.lines().count(), 1, "{:?}: {}", args, err);
            prop_assert!(err.starts_with("swz: "), "{:?}: {}", args, err);
        }
    }
}
