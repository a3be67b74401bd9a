//! TMA tensor maps for operand tiles, encoded with `cuTensorMapEncodeTiled` from the parameters swizzle-core
//! derives ([`OperandTile::params`]): the swizzle enum and the box come from there, nothing is typed here. The device
//! side (`TmaMap`, the mbarrier wrappers, `tma_load_2d`) is the device header `swz_tma.cuh`
//! ([`DEVICE_HEADERS`](crate::runtime::nvrtc::DEVICE_HEADERS)).

use crate::runtime::{Error, Result};
use cudarc::driver::{sys, DeviceRepr};
use swizzle_core::wgmma::{Major, OperandTile};
use swizzle_core::ByteMode;

/// A `CUtensorMap` (128 bytes), passed to a kernel by value as a `__grid_constant__` parameter.
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

/// The driver's data type for a 16-bit element.
fn cu_dtype(tile: &OperandTile) -> Result<sys::CUtensorMapDataType> {
    use sys::CUtensorMapDataType as D;
    Ok(match tile.elem.name() {
        "bf16" => D::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        "f16" => D::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        "f32" => D::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
        "tf32" => D::CU_TENSOR_MAP_DATA_TYPE_TFLOAT32,
        _ => D::CU_TENSOR_MAP_DATA_TYPE_UINT8,
    })
}

impl TensorMap {
    /// The map of a row-major `rows x k` matrix (K contiguous) at device address `ptr` (`len_bytes` long), read
    /// in `tile`-sized boxes. Out-of-bounds box parts read as zeros (`OOB_FILL_NONE`), which is what makes ragged
    /// M, N and K exact. Errors (before any launch) when the row pitch is not a multiple of 16 bytes or the
    /// buffer is too small.
    pub fn k_major(
        ptr: u64,
        len_bytes: usize,
        tile: &OperandTile,
        rows: u32,
        k: u32,
    ) -> Result<TensorMap> {
        TensorMap::k_major_pitch(ptr, len_bytes, tile, rows, k, k)
    }

    /// [`TensorMap::k_major`] with rows `ld` elements apart (`ld >= k`).
    pub fn k_major_pitch(
        ptr: u64,
        len_bytes: usize,
        tile: &OperandTile,
        rows: u32,
        k: u32,
        ld: u32,
    ) -> Result<TensorMap> {
        if ld < k {
            return Err(Error::Invalid(format!(
                "leading dimension {ld} is less than K = {k}"
            )));
        }
        if tile.major != Major::K {
            return Err(Error::Invalid(format!(
                "{tile}: only K-major operands are wired to TMA here"
            )));
        }
        let p = tile.params();
        let pitch = ld as u64 * tile.elem.bytes() as u64;
        if !pitch.is_multiple_of(16) {
            return Err(Error::Invalid(format!(
                "row pitch {pitch} B ({ld} x {}) is not a multiple of 16: TMA needs 16-byte aligned rows",
                tile.elem
            )));
        }
        // The last row needs only its k elements.
        let need = pitch * (rows as u64).saturating_sub(1) + k as u64 * tile.elem.bytes() as u64;
        if (len_bytes as u64) < need {
            return Err(Error::Invalid(format!(
                "a {rows}x{k} {} operand needs {need} bytes, the buffer has {len_bytes}",
                tile.elem
            )));
        }
        // The arguments, as swizzle-core checks them against the tile (`k_major_args`).
        let args = k_major_args(tile, rows, k, ld, 0);
        let dims: [u64; 2] = [args.dims[0], args.dims[1]];
        let strides: [u64; 1] = [args.strides[0]];
        let boxes: [u32; 2] = [args.boxes[0], args.boxes[1]];
        let elem_strides: [u32; 2] = [1, 1];
        // The four Hopper modes are the tile's byte modes.
        let swizzle = args
            .swizzle
            .layout()
            .and_then(|l| l.byte_mode())
            .unwrap_or(p.tma_swizzle);
        let mut map = std::mem::MaybeUninit::<sys::CUtensorMap>::zeroed();
        // SAFETY: every array has the rank's length (2, or 1 for strides); `ptr` is a live device allocation of
        // at least rows * pitch bytes (checked above); the driver only writes `map`.
        let r = unsafe {
            sys::cuTensorMapEncodeTiled(
                map.as_mut_ptr(),
                cu_dtype(tile)?,
                2,
                ptr as *mut std::ffi::c_void,
                dims.as_ptr(),
                strides.as_ptr(),
                boxes.as_ptr(),
                elem_strides.as_ptr(),
                sys::CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
                cu_swizzle(swizzle),
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

/// The `cuTensorMapEncodeTiled` arguments [`TensorMap::k_major_pitch`] passes for a row-major `rows x k` matrix
/// with rows `ld` elements apart, read in `tile`'s boxes, and the shared-memory address `smem` a box lands at:
/// what [`swizzle_core::tma::TmaMap::check`] cross-checks against the tile the kernel's descriptors read.
pub fn k_major_args(
    tile: &OperandTile,
    rows: u32,
    k: u32,
    ld: u32,
    smem: u32,
) -> swizzle_core::tma::TmaMap {
    swizzle_core::tma::TmaMap::of_tile(
        tile,
        [k as u64, rows as u64],
        ld as u64 * tile.elem.bytes() as u64,
        smem,
    )
}
