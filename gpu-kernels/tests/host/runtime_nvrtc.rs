use gpu_kernels::runtime::nvrtc::*;

fn opts(o: &[&str]) -> Vec<String> {
    o.iter().map(|s| s.to_string()).collect()
}

#[test]
fn the_ptxas_report_is_recognised_in_every_spelling() {
    for yes in [
        &["--ptxas-options=-v"][..],
        &["-DX=1", "--ptxas-options=--warn-on-spills,-v"],
        &["-Xptxas", "-v"],
        &["-Xptxas=--verbose"],
        &["--ptxas-options", "-v"],
    ] {
        assert!(asks_ptxas_report(&opts(yes)), "{yes:?}");
    }
    for no in [
        &[][..],
        &["-v"],
        &["--ptxas-options=--warn-on-spills"],
        &["-Xptxas", "-O3"],
        &["--ptxas-options=-vv"],
    ] {
        assert!(!asks_ptxas_report(&opts(no)), "{no:?}");
    }
}

#[test]
fn an_empty_log_is_no_report() {
    assert!(!has_ptxas_report(""));
    assert!(!has_ptxas_report("warning: something else"));
    assert!(has_ptxas_report(
        "ptxas info    : 0 bytes gmem\nptxas info    : Used 8 registers, used 0 barriers"
    ));
}
