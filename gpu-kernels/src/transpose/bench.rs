//! The transpose family's benchmark set. The tables themselves are gpu-bench's (`gpu_bench::tables`: every
//! variant against the D2D copy measured in the same run), reached through `swz bench transpose`.

use super::Transpose;

/// The block shapes of the article's tables.
pub const ARTICLE_BLOCKS: [(u32, u32); 4] = [(8, 32), (16, 16), (32, 8), (32, 32)];

/// The default benchmark set for `elem`: the 16-byte copy, the article's kernels at `classic_blocks`, then every shared-memory
/// spec for `elem`.
pub fn default_kernels(elem: crate::Elem, classic_blocks: &[(u32, u32)]) -> Vec<Transpose> {
    let mut v = vec![Transpose::COPY_VEC16];
    v.extend(classic_blocks.iter().flat_map(|b| Transpose::classics(*b)));
    v.extend(
        Transpose::all_for(elem)
            .into_iter()
            .filter(|t| matches!(t, Transpose::Smem(_))),
    );
    v
}
