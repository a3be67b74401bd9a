//! Random command lines over the argument grammar (real and mangled spellings, numbers at type limits, stray
//! flags): the exit contract holds for every one. 0, 1 or 2; on 2 exactly one `swz:` line on stderr; never a
//! panic; never a run past the work bound. GPU subcommands and file outputs are left out (no GPU in CI, no files).
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

/// A value for a flag: usually of its kind, sometimes anything.
fn value_of(flag: &'static str) -> BoxedStrategy<String> {
    let own: BoxedStrategy<String> = match flag {
        "--swizzle" | "--then" => pick(SWIZZLES).boxed(),
        "--order" => pick(ORDERS).boxed(),
        "--elem" | "--unit" => pick(ELEMS).boxed(),
        "--pattern" => pick(PATTERNS).boxed(),
        "--tile" => prop_oneof![shape("x", 2), shape("x", 3)].boxed(),
        "--grid" => shape("x", 2).boxed(),
        "--gemm" => shape("x", 3).boxed(),
        "--range" => prop_oneof![shape("..", 2), shape("..=", 2)].boxed(),
        "--layout" => (
            pick(&["L", "NULL", "Swizzle", "_X"]),
            shape("x", 2),
            pick(ELEMS),
            pick(SWIZZLES),
            pick(NUMBERS),
        )
            .prop_map(|(n, d, e, s, p)| format!("{n}={d}:{e}:{s}:pad={p}"))
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
    ("nope", &["--swizzle"]),
];

fn command_line() -> impl Strategy<Value = Vec<String>> {
    (0..COMMANDS.len()).prop_flat_map(|c| {
        let (name, flags) = COMMANDS[c];
        let flag_value =
            prop::sample::select(flags).prop_flat_map(|f| value_of(f).prop_map(move |v| (f, v)));
        prop::collection::vec(flag_value, 0..6).prop_map(move |pairs| {
            let mut args = vec![name.to_string()];
            for (f, v) in pairs {
                args.push(format!("{f}={v}"));
            }
            args
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

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
            if start.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                panic!("{args:?}: still running after 60 s");
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
