//! What a dependent's build script does with the header: `DEP_SWZ_EXAMPLE_INCLUDE` (from the dependency's
//! `links = "swz_example"` and `cargo:include=`) is the directory to pass to nvcc, e.g.
//! `cc::Build::new().cuda(true).include(dir).file("kernel.cu").compile("kernel")`. Here it is handed to the
//! crate's tests, which compile against it with the host compiler.
fn main() {
    let dir = std::env::var("DEP_SWZ_EXAMPLE_INCLUDE")
        .expect("swizzle-build-header exports its include dir");
    println!("cargo:rustc-env=SWZ_INCLUDE_DIR={dir}");
    println!("cargo:rerun-if-env-changed=DEP_SWZ_EXAMPLE_INCLUDE");
}
