//! TMA tensor maps for the operand tiles, encoded with `cuTensorMapEncodeTiled` from the parameters swizzle-core
//! derives ([`OperandTile::params`]): the swizzle enum and the box come from there, nothing is typed here.

use super::spec::Half;
use crate::runtime::{Error, Gpu, Result};
use cudarc::driver::{sys, CudaSlice, DevicePtr, DeviceRepr};
use swizzle_core::wgmma::{Major, OperandTile};
use swizzle_core::ByteMode;

/// A `CUtensorMap` (128 bytes), passed to the kernel by value as a `__grid_constant__` parameter.
#[repr(transparent)]
#[derive(Clone, Copy, Debug)]
pub struct TensorMap(pub sys::CUtensorMap);

// SAFETY: a plain 128-byte value the kernel declares as `const __grid_constant__ TmaMap` of the same size.
unsafe impl DeviceRepr for TensorMap {}

/// The driver's swizzle enumerator for a byte mode (the discriminants agree: 0..=3).
pub fn cu_swizzle(mode: ByteMode) -> sys::CUtensorMapSwizzle {
    use sys::CUtensorMapSwizzle as S;
    match mode {
        ByteMode::None => S::CU_TENSOR_MAP_SWIZZLE_NONE,
        ByteMode::Sw32 => S::CU_TENSOR_MAP_SWIZZLE_32B,
        ByteMode::Sw64 => S::CU_TENSOR_MAP_SWIZZLE_64B,
        ByteMode::Sw128 => S::CU_TENSOR_MAP_SWIZZLE_128B,
    }
}

impl TensorMap {
    /// The map of a row-major `rows x k` matrix (K contiguous) read in `tile`-sized boxes. Out-of-bounds box
    /// parts read as zeros (`OOB_FILL_NONE`), which is what makes ragged M, N and K exact.
    pub fn new(
        gpu: &Gpu,
        data: &CudaSlice<u16>,
        ty: Half,
        tile: &OperandTile,
        rows: u32,
        k: u32,
    ) -> Result<TensorMap> {
        if tile.major != Major::K {
            return Err(Error::Invalid(format!(
                "{tile}: only K-major operands are wired to TMA here"
            )));
        }
        let p = tile.params();
        let eb = ty.core().bytes() as u64;
        let pitch = k as u64 * eb;
        if pitch % 16 != 0 {
            return Err(Error::Invalid(format!(
                "row pitch {pitch} B is not a multiple of 16: TMA needs 16-byte aligned rows"
            )));
        }
        let dtype = match ty {
            Half::Bf16 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
            Half::F16 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        };
        let dims: [u64; 2] = [k as u64, rows as u64];
        let strides: [u64; 1] = [pitch];
        let boxes: [u32; 2] = [p.box_inner, p.box_outer];
        let elem_strides: [u32; 2] = [1, 1];
        let (ptr, _guard) = data.device_ptr(gpu.stream());
        let mut map = std::mem::MaybeUninit::<sys::CUtensorMap>::zeroed();
        // SAFETY: every array has the rank's length (2, or 1 for strides); `ptr` is a live device allocation
        // holding rows * k elements (checked by the caller); the driver only writes `map`.
        let r = unsafe {
            sys::cuTensorMapEncodeTiled(
                map.as_mut_ptr(),
                dtype,
                2,
                ptr as *mut std::ffi::c_void,
                dims.as_ptr(),
                strides.as_ptr(),
                boxes.as_ptr(),
                elem_strides.as_ptr(),
                sys::CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
                cu_swizzle(p.tma_swizzle),
                sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                sys::CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
            )
        };
        if r != sys::CUresult::CUDA_SUCCESS {
            return Err(Error::Invalid(format!(
                "cuTensorMapEncodeTiled({tile}, {rows}x{k}) failed: {r:?}"
            )));
        }
        // SAFETY: the driver filled the map on success.
        Ok(TensorMap(unsafe { map.assume_init() }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swizzle_enum_values_match_byte_modes() {
        for m in ByteMode::ALL {
            assert_eq!(cu_swizzle(m) as u32, m as u32);
            assert_eq!(format!("{:?}", cu_swizzle(m)), m.cu_name());
        }
    }
}
