//! Predicted vs measured shared-memory wavefronts, over any registered family: the bank model on each spec's
//! [`SpecAccess`]es against Nsight Compute's counters of one launch of the spec ([`crate::ncu`]).
//!
//! ncu counts loads and stores separately (`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st`,
//! `smsp__inst_executed_op_shared_ld/st`), so the prediction is per direction: the wavefronts of every load
//! access of one block over its instructions, and the same for stores. Every block of a launch at a size that
//! is a multiple of the tile issues the same instructions, so the ratio does not depend on the grid.

use gpu_kernels::frame::{DynFamily, SpecAccess};

/// The bank model's prediction for one direction of one spec.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Predicted {
    pub wavefronts: u64,
    pub ideal: u64,
    pub instructions: u64,
    /// Why ncu cannot measure this direction, when one of its accesses uses an instruction ncu's
    /// `smsp__inst_executed_op_shared_ld/st` does not count (`"stmatrix: not in op_shared_st"`): its wavefronts
    /// over the counted instructions would not be wavefronts per instruction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uncounted: Option<&'static str>,
}

impl Predicted {
    /// Wavefronts per instruction: what ncu's `wavefronts / inst_executed` measures.
    pub fn per_instruction(&self) -> f64 {
        self.wavefronts as f64 / self.instructions.max(1) as f64
    }

    pub fn conflicts(&self) -> u64 {
        self.wavefronts - self.ideal
    }
}

/// Why ncu's shared load/store instruction counters miss `op`, or `None` when they count it.
pub fn uncounted(op: swizzle_core::bank::Op) -> Option<&'static str> {
    match op {
        swizzle_core::bank::Op::Ldmatrix { .. } => Some("ldmatrix: not in op_shared_ld"),
        swizzle_core::bank::Op::Stmatrix { .. } => Some("stmatrix: not in op_shared_st"),
        _ => None,
    }
}

/// Loads and stores of one spec: `(load, store)`; `None` for a direction the spec has no access in. A
/// direction with an access whose instruction ncu does not count as a shared load/store (`ldmatrix`,
/// `stmatrix`) carries the reason in [`Predicted::uncounted`]; its numbers are the counted accesses'.
pub fn predict(accesses: &[SpecAccess]) -> (Option<Predicted>, Option<Predicted>) {
    let mut dirs: [Option<Predicted>; 2] = [None, None];
    for a in accesses {
        let op = a.access.op(&a.smem);
        let d = dirs[usize::from(!op.is_load())].get_or_insert(Predicted {
            wavefronts: 0,
            ideal: 0,
            instructions: 0,
            uncounted: None,
        });
        if let Some(why) = uncounted(op) {
            d.uncounted = d.uncounted.or(Some(why));
            continue;
        }
        let r = a.access.report(&a.smem);
        d.wavefronts += r.wavefronts;
        d.ideal += r.ideal;
        d.instructions += r.instructions as u64;
    }
    (dirs[0], dirs[1])
}

/// The bank model's prediction for one spec.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SpecPrediction {
    pub name: String,
    /// The kernel entry (what ncu's `--kernel-name` filters on).
    pub entry: &'static str,
    pub load: Option<Predicted>,
    pub store: Option<Predicted>,
    /// Every access must be conflict-free (not a baseline).
    pub conflict_free: bool,
}

/// Predictions for every spec of a family, in its spec order ([`DynFamily::spec_infos`]).
pub fn predictions(family: &dyn DynFamily) -> Vec<SpecPrediction> {
    family
        .spec_infos()
        .into_iter()
        .map(|s| {
            let (load, store) = predict(&s.accesses);
            SpecPrediction {
                name: s.name,
                entry: s.entry,
                load,
                store,
                conflict_free: s.accesses.iter().all(|a| a.conflict_free),
            }
        })
        .collect()
}
