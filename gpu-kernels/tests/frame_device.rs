//! The frame on a GPU: every registered family verifies through the generic runner (random inputs, poisoned
//! outputs, host reference, ragged sizes), and the runner catches a wrong result.
use gpu_kernels::frame::{DynFamily, Family, HostBuf, Identity, Size};
use gpu_kernels::registry::{find, FAMILIES};
use gpu_kernels::transpose::family::{Variant, TRANSPOSE};

mod common;
use common::gpu;

/// The registered families this run verifies: those named in `FRAME_FAMILIES` (comma-separated, e.g.
/// `FRAME_FAMILIES=hopper`, for a device step that needs one family's verdict without the others' time), else
/// all. A name the registry does not know fails the test rather than verifying nothing.
fn selected_families() -> Vec<&'static dyn DynFamily> {
    match std::env::var("FRAME_FAMILIES") {
        Err(_) => FAMILIES.to_vec(),
        Ok(list) => list
            .split(',')
            .map(|name| {
                find(name.trim()).unwrap_or_else(|| {
                    panic!(
                        "FRAME_FAMILIES names {name:?}; registered: {}",
                        gpu_kernels::registry::names()
                    )
                })
            })
            .collect(),
    }
}

/// Every selected family, every spec at every verification size, through the frame's generic runner; each case
/// is printed as it starts and with its time when it ends, so a step that runs out of time shows where it was.
#[test]
#[ignore = "needs an NVIDIA GPU"]
fn every_registered_family_verifies() {
    let gpu = gpu();
    for fam in selected_families() {
        let t0 = std::time::Instant::now();
        let specs = fam.spec_infos();
        let mut failures = Vec::new();
        for size in fam.verify_sizes() {
            for (i, spec) in specs.iter().enumerate() {
                let t = std::time::Instant::now();
                eprint!("  {} {} {size}: ", fam.name(), spec.name);
                let verdict = fam.verify_one(&gpu, i, size);
                eprintln!(
                    "{} ({:.2} s)",
                    if verdict.is_ok() { "ok" } else { "FAILED" },
                    t.elapsed().as_secs_f64()
                );
                if let Err(e) = verdict {
                    failures.push(format!("{} {} on {size}: {e}", fam.name(), spec.name));
                }
            }
        }
        eprintln!(
            "{}: {} specs x {:?}: {} failures, {:.1} s",
            fam.name(),
            specs.len(),
            fam.verify_sizes(),
            failures.len(),
            t0.elapsed().as_secs_f64()
        );
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

gpu_kernels::family! {
    /// The transpose family with a wrong host reference (the input itself): the runner must report every variant
    /// that really transposes as wrong, naming the element. It implements the frame's core only (no benchmark, no
    /// planner, no profiler build), which is all verification needs.
    static WRONG_REFERENCE: WrongReference = Identity::matrix("wrong-reference", "transpose checked against the untransposed input");
}

impl Family for WrongReference {
    type Spec = Variant;
    fn specs(&self) -> Vec<Variant> {
        TRANSPOSE.specs()
    }
    fn compile_unit(&self, v: &Variant) -> (gpu_kernels::runtime::Source, Vec<String>) {
        TRANSPOSE.compile_unit(v)
    }
    common::transpose_items!();
    fn reference(&self, _v: &Variant, _size: Size, inputs: &[HostBuf]) -> Vec<HostBuf> {
        vec![inputs[0].clone()]
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn the_runner_catches_a_wrong_result() {
    let gpu = gpu();
    let v = *TRANSPOSE
        .specs()
        .iter()
        .find(|v| v.kernel.name() == "smem-swizzled-t64v4")
        .unwrap();
    let err = gpu_kernels::frame::verify::verify(&gpu, &WRONG_REFERENCE, &v, Size::mn(97, 131))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("elements wrong") && err.contains("first at index"),
        "{err}"
    );
    // And the same variant against the right reference passes.
    gpu_kernels::frame::verify::verify(&gpu, &TRANSPOSE, &v, Size::mn(97, 131)).unwrap();
}
