//! trybuild UI tests: every `tests/ui/*.rs` must fail to compile with the reviewed `.stderr`; every
//! `tests/pass/*.rs` must compile and run. File prefixes say what they check: `swizzle_*` (swizzle!),
//! `raster_*` (#[raster]), `assert_*` (compile-time bank-conflict checks).
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/pass/*.rs");
}
