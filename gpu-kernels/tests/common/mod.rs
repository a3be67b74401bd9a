//! What the GPU tests share: opening the device, spelling their problem sizes, asserting NVRTC is there, reading
//! ptxas' report, collecting failures, and a transpose-backed family for the frame's own tests.
#![allow(dead_code, unused_macros, unused_imports)]

use gpu_kernels::frame::Family;
pub use gpu_kernels::transpose::family::{Variant, TRANSPOSE};
use gpu_kernels::{Gpu, Size};

/// Device 0, or a panic that says this test needs a GPU (a GPU test never returns early without one).
pub fn gpu() -> Gpu {
    Gpu::open(0).unwrap_or_else(|e| panic!("this test needs an NVIDIA GPU and driver: {e}"))
}

/// Problem sizes spelled as the CLI spells them, `MxNxK` separated by spaces: `sizes("1x1x16 17x33x48")`.
pub use gpu_kernels::frame::sizes;

/// Ragged problems (M, N and K off the tile) whose last partial wave of 64x32 tiles ([`tail_tile`]) is split on an
/// H100 (132 SMs): 704, 800 and 680 tiles. In e4m3 (K blocks of 128) they have 16, 24 and 32 K blocks and the last
/// 44 tiles go in 3 parts, 8 in 6, 20 in 6; in 16 bits (K steps of 64) 32, 47 and 64, and 44 in 3, 8 in 8, 20 in 6.
pub const TAIL_RAGGED: &str = "1000x1400x2000 1017x1600x3008 1070x1250x4096";

/// `base` as a lone 64x32 tile with the tail split (many tiles at small sizes, so small problems split a tail).
pub fn tail_tile(base: gpu_kernels::hopper::HopperSpec) -> gpu_kernels::hopper::HopperSpec {
    gpu_kernels::hopper::HopperSpec {
        consumers: 1,
        bn: 32,
        stages: 8,
        cluster: 1,
        split: 1,
        tail: true,
        ..base
    }
}

/// Fails the test unless libnvrtc can be loaded (the compile-only tests need it, not a GPU).
pub fn assert_nvrtc() {
    assert!(
        gpu_kernels::nvrtc_available(),
        "libnvrtc.so.13 not found: add its folder to LD_LIBRARY_PATH"
    );
}

/// The lines of a ptxas log that contain any of `keys` (`"Used"` for registers, `"stack"` for local memory).
pub fn ptxas_lines<'a>(log: &'a str, keys: &[&str]) -> Vec<&'a str> {
    log.lines()
        .filter(|l| keys.iter().any(|k| l.contains(k)))
        .collect()
}

/// Fails the test with every collected failure, one a line, unless there are none.
pub fn assert_no_failures(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The frame's [`Family`](gpu_kernels::frame::Family) items a test family takes from the shipped transpose as
/// they are (spec name, element, header, entry, shared memory, buffers, launch), and its one verification size,
/// 97 x 131 (every tile has an edge). The test family writes the items it changes.
macro_rules! transpose_items {
    () => {
        fn spec_name(&self, v: &$crate::common::Variant) -> String {
            $crate::common::TRANSPOSE.spec_name(v)
        }
        fn elem(&self, v: &$crate::common::Variant) -> gpu_kernels::Elem {
            $crate::common::TRANSPOSE.elem(v)
        }
        fn header(&self, v: &$crate::common::Variant) -> swizzle_core::cuda::Header {
            $crate::common::TRANSPOSE.header(v)
        }
        fn entry(&self, v: &$crate::common::Variant) -> &'static str {
            $crate::common::TRANSPOSE.entry(v)
        }
        fn smem_bytes(&self, v: &$crate::common::Variant) -> u32 {
            $crate::common::TRANSPOSE.smem_bytes(v)
        }
        fn buffers(
            &self,
            v: &$crate::common::Variant,
            size: gpu_kernels::Size,
        ) -> Vec<gpu_kernels::frame::Buffer> {
            $crate::common::TRANSPOSE.buffers(v, size)
        }
        fn launch(
            &self,
            v: &$crate::common::Variant,
            size: gpu_kernels::Size,
        ) -> gpu_kernels::Result<gpu_kernels::frame::Launch> {
            $crate::common::TRANSPOSE.launch(v, size)
        }
        fn verify_sizes(&self) -> Vec<gpu_kernels::Size> {
            vec![gpu_kernels::Size::mn(97, 131)]
        }
    };
}
pub(crate) use transpose_items;

/// GPU tests that are each one call, one test a line: `name: call(args);`, each with its doc comment, each
/// `#[ignore]`d where CI has no GPU (run them with `--ignored` on a machine with one).
macro_rules! gpu_cases {
    ($($(#[$doc:meta])* $name:ident: $case:expr;)*) => {$(
        $(#[$doc])*
        #[test]
        #[ignore = "needs an NVIDIA GPU"]
        fn $name() {
            $case;
        }
    )*};
}
pub(crate) use gpu_cases;
