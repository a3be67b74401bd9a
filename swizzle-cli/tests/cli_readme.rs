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
