//! A kernel with one index broken must fail the verification `swz report` and `swz verify` run (the parallel
//! runner, [`DynFamily::verify_with`], after the parallel compile): the transpose's shared-memory kernel with the
//! store of one output element moved to its neighbour, so that element is never written. The same family built
//! from the unbroken source passes, so the test tells the two apart rather than failing on anything.
use gpu_kernels::frame::{DynFamily, Family, HostBuf, Identity, Named, Size};
use gpu_kernels::registry::precompile;
use gpu_kernels::transpose::family::{Variant, TRANSPOSE};
use gpu_kernels::transpose::Transpose;
use gpu_kernels::Elem;

mod common;

/// The edge-tile store of the shared-memory transpose, as shipped.
const STORE: &str = "if (oy + i < ny) out[(u64)ox * ny + oy + i] = v.e[i];";
/// The same store with one index broken: the output's last element goes to the one before it (both in the last,
/// ragged, tile, which takes this store), so the last is never written.
const BROKEN: &str =
    "if (oy + i < ny) out[(u64)ox * ny + oy + i - (ox == nx - 1 && oy + i == ny - 1)] = v.e[i];";

/// The transpose family's first shared-memory specs built from `source`, verified at one ragged size (every
/// tile of 97 x 131 has an edge, so every block takes the edge-tile store).
struct Patched {
    name: &'static str,
    source: &'static str,
}

impl Patched {
    fn new(name: &'static str, broken: bool) -> Patched {
        let text = gpu_kernels::transpose::SOURCE;
        assert_eq!(text.matches(STORE).count(), 1, "the store to break");
        let text = if broken {
            text.replace(STORE, BROKEN)
        } else {
            text.to_string()
        };
        Patched {
            name,
            source: Box::leak(text.into_boxed_str()),
        }
    }
}

impl Named for Patched {
    fn identity(&self) -> Identity {
        Identity::matrix(
            self.name,
            "the shared-memory transpose, maybe with one index broken",
        )
    }
}

impl Family for Patched {
    type Spec = Variant;
    fn specs(&self) -> Vec<Variant> {
        let smem = TRANSPOSE
            .specs()
            .into_iter()
            .filter(|v| matches!(v.kernel, Transpose::Smem(_)));
        let f32s: Vec<Variant> = smem
            .clone()
            .filter(|v| v.elem == Elem::F32)
            .take(2)
            .collect();
        let f16s = smem.filter(|v| v.elem == Elem::F16).take(2);
        f32s.into_iter().chain(f16s).collect()
    }
    /// The transpose's own compile (its spec's `-D` options and header) with this family's source text.
    fn compile_unit(&self, v: &Variant) -> (gpu_kernels::runtime::Source, Vec<String>) {
        let (mut src, options) = TRANSPOSE.compile_unit(v);
        src.text = self.source.to_string();
        (src, options)
    }
    common::transpose_items!();
    fn reference(&self, v: &Variant, size: Size, inputs: &[HostBuf]) -> Vec<HostBuf> {
        TRANSPOSE.reference(v, size, inputs)
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn a_kernel_with_one_index_broken_fails_verification() {
    let gpu = common::gpu();
    let good = Patched::new("transpose-as-shipped", false);
    let broken = Patched::new("transpose-one-index-broken", true);
    let fams: [&dyn DynFamily; 2] = [&good, &broken];
    precompile(&gpu, &fams, None).expect("both builds compile");

    let ok = good.verify_with(&gpu, None).unwrap();
    assert_eq!(ok.checks, 4);
    assert!(ok.failures.is_empty(), "{:?}", ok.failures);

    let bad = broken.verify_with(&gpu, None).unwrap();
    assert_eq!(bad.checks, 4);
    assert_eq!(
        bad.failures.len(),
        4,
        "every broken spec fails: {:?}",
        bad.failures
    );
    // The last of the 131 x 97 output's 12707 elements is never written (still poison); the one before it
    // holds either value, as the two stores race.
    for f in &bad.failures {
        assert!(
            f.starts_with("transpose-one-index-broken ")
                && f.contains(" of 12707 elements wrong (1 never written); first at index 1270"),
            "{f}"
        );
    }
}
