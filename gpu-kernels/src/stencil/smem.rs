//! The shared-memory stencil's accesses, lane by lane, and the bank model's cost of them: the independent
//! derivation of the kernel's index math that the tests hold the family's thread-value layouts (`family.rs`, what
//! the build checks) against.
//!
//! Index math, mirrored from `stencil` with `METHOD == 1` in `stencil.cu` (change both together):
//! ```text
//!   thread t = 32 * warp + lane of the block; tile element j lives at Spec::Smem::offset(0, j)
//!   fill, iteration i:  sts128 of tile elements 4 * (i * BLOCK + t) .. + 4     (while < FILL_ELEMS)
//!   read, access c:     lds(4 * VEC bytes) of tile elements t * P + c * VEC .. + VEC,   c < window_vecs(k)
//! ```
//! FILL_ELEMS is a multiple of 128 elements, so each fill warp instruction has all 32 lanes active or is not
//! issued; every thread reads its whole window. Every block issues exactly these instructions, whatever `n`.
//!
//! Why `k` does not matter for a verdict: the read instructions at radius `k` are the first `window_vecs(k)` of
//! those at [`MAX_RADIUS`](super::MAX_RADIUS), with the same addresses, and the fill instructions at `k` are a
//! prefix of those at `MAX_RADIUS` too. So the build checks every spec at `MAX_RADIUS` (`family.rs`, through the
//! frame's `assert_specs_conflict_free!`); the host tests (`tests/host/stencil_smem.rs`) check every k.

use super::{StencilSpec, BLOCK, VEC16};
use swizzle_core::bank::{Op, Width};
use swizzle_core::pattern::{self, TileReport};

/// Which smem instruction of the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Access {
    /// The tile and its halo are stored, 16 bytes per lane.
    Fill,
    /// Each thread reads its window back, `VEC` elements per access.
    Read,
}

impl Access {
    pub const BOTH: [Access; 2] = [Access::Fill, Access::Read];
}

impl StencilSpec {
    /// The warp instruction of `access`.
    pub const fn smem_op(&self, access: Access) -> Op {
        match access {
            Access::Fill => Op::Sts(Width::B128),
            Access::Read => match Width::from_bytes(self.vec() * 4) {
                Some(w) => Op::Lds(w),
                None => panic!("stencil smem access is not 4, 8 or 16 bytes"),
            },
        }
    }

    /// Instructions of `access` each thread issues at radius `k` (the fill's last may be partial).
    pub const fn smem_instructions(&self, access: Access, k: u32) -> u32 {
        match access {
            Access::Fill => self.fill_elems(k).div_ceil(VEC16 * BLOCK),
            Access::Read => self.window_vecs(k),
        }
    }

    /// The tile element `lane` of `warp` touches first in instruction `instr` of `access`, or `None` when the
    /// lane issues nothing there (past the tile in the fill).
    pub const fn smem_element(
        &self,
        access: Access,
        k: u32,
        warp: u32,
        instr: u32,
        lane: u32,
    ) -> Option<u32> {
        let t = warp * 32 + lane;
        match access {
            Access::Fill => {
                let j = VEC16 * (instr * BLOCK + t);
                if j < self.fill_elems(k) {
                    Some(j)
                } else {
                    None
                }
            }
            Access::Read => Some(t * self.per_thread + instr * self.vec()),
        }
    }

    /// The 32 byte addresses of one full warp instruction, or `None` if some lane is idle.
    pub const fn smem_lanes(
        &self,
        access: Access,
        k: u32,
        warp: u32,
        instr: u32,
    ) -> Option<[u32; 32]> {
        let mut a = [0u32; 32];
        let mut l = 0;
        while l < 32 {
            match self.smem_element(access, k, warp, instr, l) {
                Some(j) => a[l as usize] = self.swizzle.apply(j) * 4,
                None => return None,
            }
            l += 1;
        }
        Some(a)
    }

    /// The bank model's report on every full instruction of `access` one block issues at radius `k`.
    pub fn smem_cost(&self, access: Access, k: u32) -> TileReport {
        let op = self.smem_op(access);
        let instructions: Vec<pattern::Access> = (0..BLOCK / 32)
            .flat_map(|w| {
                (0..self.smem_instructions(access, k))
                    .filter_map(move |i| self.smem_lanes(access, k, w, i))
            })
            .map(|addrs| pattern::Access { op, addrs })
            .collect();
        TileReport::new(format!("{} {access:?} k={k}", self.name), &instructions)
    }
}
