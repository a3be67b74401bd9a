//! The README's command-line section says what the binary does: the `apply` example's output is the binary's, the
//! install command, exit codes and batch format are documented.
use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap()
}

#[test]
fn apply_example_output_is_the_binarys() {
    let text = readme();
    let cmd = "$ swz apply --swizzle 3,3,3 --range 60..80 | tr '\\n' ' '\n";
    let at = text.find(cmd).expect("the apply example") + cmd.len();
    let shown = text[at..].lines().next().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_swz"))
        .args(["apply", "--swizzle", "3,3,3", "--range", "60..80"])
        .output()
        .unwrap();
    let got: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(shown, got.join(" "));
    // It shows the swizzle: offset 64 is not stored at 64.
    assert_ne!(got[4], "64");
}

#[test]
fn readme_documents_install_exit_codes_batch_and_spellings() {
    let text = readme();
    for needle in [
        "cargo install --path swizzle-cli",
        "### Exit status (for CI)",
        "`check`: some pattern has a bank conflict",
        "`synth`: no XOR swizzle (one or two layers) is conflict-free",
        r#"{"line":1,"wavefronts":4,"ideal":4,"conflicts":0}"#,
        "Blank lines are skipped",
        "`S` may be left out and then defaults to `B`",
        "(`swizzle!(SW128)`) acts on **byte** addresses",
        "#[raster(order = group-m, group = 8)]",
        "swz raster --order group-m --group 8",
    ] {
        assert!(text.contains(needle), "README lacks {needle:?}");
    }
}

/// The README's spelling table is the parser's: every spelling listed parses as its kind, and every order name,
/// order alias, parameter key and byte mode the parser knows is listed.
#[test]
fn readme_spellings_are_the_parsers() {
    use swizzle_core::spelling::{self, SwizzleSpelling, ORDERS};
    let text = readme();
    let start = text.find("### Spellings").expect("a spelling section");
    let section = &text[start..];
    let section = &section[..section[4..].find("\n#").map_or(section.len(), |e| e + 4)];
    let row = |kind: &str| -> Vec<String> {
        let line = section
            .lines()
            .find(|l| l.starts_with(&format!("| {kind} |")))
            .unwrap_or_else(|| panic!("no `{kind}` row"));
        line.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    let swizzles = row("swizzle");
    assert!(swizzles.len() >= 5);
    for s in &swizzles {
        assert!(
            matches!(spelling::swizzle(s), Ok(SwizzleSpelling::Layers(_))),
            "{s}"
        );
    }
    let modes = row("byte mode");
    for s in &modes {
        assert!(
            matches!(spelling::swizzle(s), Ok(SwizzleSpelling::Mode(_))),
            "{s}"
        );
    }
    for m in swizzle_core::ByteMode::ALL {
        assert!(
            modes.iter().any(|s| s == m.name()),
            "{} is not listed",
            m.name()
        );
    }
    let rasters = row("raster");
    for s in &rasters {
        assert!(
            spelling::raster(s).is_ok(),
            "{s}: {:?}",
            spelling::raster(s)
        );
    }
    for o in ORDERS {
        for name in std::iter::once(o.name).chain(o.aliases.iter().copied()) {
            assert!(
                rasters.iter().any(|s| s.starts_with(name)),
                "order {name} is not listed"
            );
        }
        for key in o.key.iter().chain(o.key_aliases) {
            assert!(
                rasters.iter().any(|s| s.contains(&format!("({key}="))),
                "key {key} is not listed"
            );
        }
    }
    for s in row("unit") {
        assert!(spelling::unit(&s).is_ok(), "{s}");
    }
}

/// The README's "check the descriptor your kernel builds" example is the binary's output, and it fails (exit 1).
#[test]
fn check_desc_example_is_the_binarys() {
    let text = readme();
    let start = text
        .find("## Check the descriptor your kernel builds")
        .expect("the section");
    let section = &text[start..];
    let cmd = "$ swz check desc 0x4000040000010048 --operand SW128:bf16:K:128x64\n";
    let at = section.find(cmd).expect("the example") + cmd.len();
    let shown: Vec<&str> = section[at..].lines().take_while(|l| *l != "```").collect();
    let out = Command::new(env!("CARGO_BIN_EXE_swz"))
        .args([
            "check",
            "desc",
            "0x4000040000010048",
            "--operand",
            "SW128:bf16:K:128x64",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let mut got: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    got.extend(
        String::from_utf8(out.stderr)
            .unwrap()
            .lines()
            .map(str::to_string),
    );
    assert_eq!(shown, got);
    // The tensor-map example fails too, naming the mode.
    let out = Command::new(env!("CARGO_BIN_EXE_swz"))
        .args([
            "check",
            "tma",
            "--dtype",
            "bf16",
            "--dims",
            "4096,4096",
            "--strides",
            "8192",
            "--box",
            "64,128",
            "--swizzle",
            "64B",
            "--smem",
            "0x400",
            "--operand",
            "SW128:bf16:K:128x64",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with("mode: the map swizzles 64B"));
    // The oracle count the section quotes is the test's.
    assert!(section.contains("15,616 cases"));
}
