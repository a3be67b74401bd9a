//! The fp64 host reference of an FP8 GEMM (the exact product of the dequantized inputs) and the element-wise
//! error bound a device result is held to.
//!
//! **The reference is exact before scaling.** An e4m3 product is a 4-bit by 4-bit significand product, exact in
//! f64, with magnitude between `2^-18` and `448^2 < 2^18`; a sum of `K < 2^17` of them spans at most
//! `18 + 18 + 17 = 53` bits, so f64 adds them without rounding. Per K block (block mode) or per element (the
//! others) one or two multiplications by fp32 scales add a rounding of `2^-53` each: negligible.
//!
//! **The bound.** A device result `c` of an element whose exact value is `r` and whose absolute sum is
//! `s = sum_k |sa sb a b|` (scales included) satisfies
//!
//! ```text
//!   |c - r| <= u_out |r|  +  (1 + u_out) (chain u_mma + (K / 128) u_f32) s  +  tiny
//! ```
//!
//! - `u_out |r|`: the output's one rounding to nearest (bf16: `u_out = 2^-8`, fp16 `2^-11`, fp32 `2^-24`).
//! - `chain u_mma s`: the tensor core's accumulation. Hopper's FP8 `wgmma` adds each instruction's 32 products to
//!   the fp32 accumulator aligned to the largest exponent among them and the accumulator, keeping about 14
//!   significant bits (DeepSeek-V3, section 3.3.2, on the H800) and truncating the rest. So each product that
//!   enters one accumulator may lose up to `u_mma = 2^-13` of the largest magnitude in its addition, at most `s`;
//!   `chain` counts those products. Without promotion (per-tensor and per-row scaling) the chain is all of K;
//!   with block scaling each 128-wide K block feeds a fresh accumulator that is then scaled and added in fp32
//!   (the chain is 128, plus `K / 128` fp32 additions at `u_f32 = 2^-24`).
//! - `tiny`: `2^-24` absolute, for results near zero where the relative terms vanish.
//!
//! Measured on an H100 (the GPU test `hopper_fp8_error_with_and_without_promotion_at_k16384`): at K = 16384
//! with positive inputs, where every truncation points the same way, the unpromoted sum came out 25% low (3088
//! for 4115: the per-instruction loss is real and large); promoted every 128 of K, the normwise error was that
//! of the bf16 output rounding (1.7e-3). Without promotion the bound above says little once `K 2^-13` nears 1,
//! and it says it honestly. With random signed inputs the errors mostly cancel, far below this worst case, so
//! the GPU checks also bound the normwise error `|C - R|_F / |R|_F`, where a wrong index or a missed scale shows
//! at once.
//!
//! ```
//! use gpu_kernels::fp8::reference::Bound;
//! use gpu_kernels::fp8::ScaleMode;
//! use gpu_kernels::Elem;
//! let b = Bound::new(Elem::BF16, ScaleMode::Tensor, 4096);
//! assert_eq!(b.chain, 4096);
//! let blk = Bound::new(Elem::BF16, ScaleMode::Block, 4096);
//! assert_eq!(blk.chain, 128);
//! assert!(blk.allows(10.0, 100.0) < b.allows(10.0, 100.0));
//! ```

use super::scale::{ScaleMode, Scales, BLOCK};
use crate::elem::{E4m3, Elem};
use crate::runtime::{Error, Result};
use crate::Size;

/// Relative loss of one product entering the FP8 `wgmma` accumulator: about 14 significant bits kept (module
/// docs).
pub const U_MMA: f64 = 1.0 / 8192.0;
/// fp32's unit roundoff.
pub const U_F32: f64 = 1.0 / 16_777_216.0;

/// One reference element: the exact value and the absolute sum the bound scales with.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RefValue {
    pub exact: f64,
    pub abs: f64,
}

/// The element-wise error bound of an FP8 GEMM (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bound {
    /// Unit roundoff of the output type.
    pub u_out: f64,
    /// Products accumulated in the tensor core before promotion.
    pub chain: u32,
    /// fp32 additions of promoted partials.
    pub promotions: u32,
}

impl Bound {
    /// The bound of a GEMM writing `out` with `mode`'s scaling over `k`: block scaling promotes every
    /// [`BLOCK`] of K, the other modes accumulate the whole K loop in the tensor core.
    pub fn new(out: Elem, mode: ScaleMode, k: u32) -> Bound {
        let u_out = crate::elem::unit_roundoff(out).unwrap_or(1.0);
        let (chain, promotions) = match mode {
            ScaleMode::Block => (BLOCK.min(k), k.div_ceil(BLOCK)),
            _ => (k, 0),
        };
        Bound {
            u_out,
            chain,
            promotions,
        }
    }

    /// The largest `|c - r|` allowed for an element with exact value `exact` and absolute sum `abs`.
    pub fn allows(&self, exact: f64, abs: f64) -> f64 {
        let acc = self.chain as f64 * U_MMA + self.promotions as f64 * U_F32;
        self.u_out * exact.abs() + (1.0 + self.u_out) * acc * abs + U_F32
    }
}

/// Rows `rows` of the dequantized product `C = (sa . A) (sb . B)^T` in f64, split over the machine's cores. A is
/// `M x K`, B `N x K` (row-major e4m3), `scales` as [`Scales`] describes them (checked first).
pub fn host_rows(
    a: &[E4m3],
    b: &[E4m3],
    size: Size,
    scales: &Scales<Vec<f32>>,
    rows: &[u32],
) -> Result<Vec<Vec<RefValue>>> {
    scales.validate(size)?;
    let (m, n, k) = (size.m as usize, size.n as usize, size.k as usize);
    if a.len() < m * k || b.len() < n * k || rows.iter().any(|&r| r as usize >= m) {
        return Err(Error::Invalid(format!(
            "FP8 reference of {size}: A holds {}, B {} values, rows up to {:?}",
            a.len(),
            b.len(),
            rows.iter().max()
        )));
    }
    let threads = std::thread::available_parallelism()
        .map_or(4, |p| p.get())
        .min(rows.len().max(1));
    // B decoded once, in parallel (all of it is read for every row); A only in the rows asked for.
    let mut bf = vec![0.0f64; n * k];
    let part = (n * k).div_ceil(threads).max(1);
    std::thread::scope(|sc| {
        for (dst, src) in bf.chunks_mut(part).zip(b[..n * k].chunks(part)) {
            sc.spawn(move || {
                for (d, x) in dst.iter_mut().zip(src) {
                    *d = x.to_f64();
                }
            });
        }
    });
    let af: Vec<Vec<f64>> = rows
        .iter()
        .map(|&r| {
            let r = r as usize;
            a[r * k..(r + 1) * k].iter().map(|x| x.to_f64()).collect()
        })
        .collect();
    let mode = scales.mode();
    let (sa, sb) = scales.parts();
    let kb_n = k.div_ceil(BLOCK as usize);
    let chunk = rows.len().div_ceil(threads).max(1);
    let mut out = vec![Vec::new(); rows.len()];
    std::thread::scope(|sc| {
        for ((slot, rs), ars) in out
            .chunks_mut(chunk)
            .zip(rows.chunks(chunk))
            .zip(af.chunks(chunk))
        {
            let bf = &bf;
            sc.spawn(move || {
                for ((o, &r), ar) in slot.iter_mut().zip(rs).zip(ars) {
                    let i = r as usize;
                    *o = (0..n)
                        .map(|j| {
                            let br = &bf[j * k..(j + 1) * k];
                            // Per K block: the exact partial and its absolute sum, then the block's scales.
                            let (mut exact, mut abs) = (0.0, 0.0);
                            for kb in 0..kb_n {
                                let ks = kb * BLOCK as usize..((kb + 1) * BLOCK as usize).min(k);
                                let (mut p, mut pa) = (0.0f64, 0.0f64);
                                for (x, y) in ar[ks.clone()].iter().zip(&br[ks]) {
                                    p += x * y;
                                    pa += (x * y).abs();
                                }
                                let s = match mode {
                                    ScaleMode::Block => {
                                        sa[kb * m + i] as f64
                                            * sb[(j / BLOCK as usize) * kb_n + kb] as f64
                                    }
                                    _ => 1.0,
                                };
                                exact += s * p;
                                abs += s.abs() * pa;
                            }
                            let s = match mode {
                                ScaleMode::Tensor => sa[0] as f64 * sb[0] as f64,
                                ScaleMode::Row => sa[i] as f64 * sb[j] as f64,
                                ScaleMode::Block => 1.0,
                            };
                            RefValue {
                                exact: s * exact,
                                abs: s.abs() * abs,
                            }
                        })
                        .collect();
                }
            });
        }
    });
    Ok(out)
}

/// What a comparison found: elements checked, the largest error as a share of its bound, and the normwise error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Agreement {
    pub elements: usize,
    /// `max |c - r| / bound`: at most 1 to pass.
    pub worst_of_bound: f64,
    /// `max |c - r| / |r|` over elements with `|r|` above a thousandth of the largest.
    pub worst_rel: f64,
    /// `|C - R|_F / |R|_F`.
    pub normwise: f64,
}

/// Compare device results `got(row, col)` (already converted to f64) of `rows` with the reference: every element
/// finite and within `bound`, the normwise error at most `normwise_max`. An unwritten (poisoned, NaN) element
/// fails.
pub fn compare(
    got: impl Fn(u32, usize) -> f64,
    rows: &[u32],
    reference: &[Vec<RefValue>],
    bound: &Bound,
    normwise_max: f64,
    what: &str,
) -> Result<Agreement> {
    let (mut num, mut den, mut worst, mut elements) = (0.0f64, 0.0f64, 0.0f64, 0usize);
    let big = reference
        .iter()
        .flatten()
        .fold(0.0f64, |m, v| m.max(v.exact.abs()));
    let mut worst_rel = 0.0f64;
    let mut bad = Vec::new();
    for (&r, refrow) in rows.iter().zip(reference) {
        for (j, v) in refrow.iter().enumerate() {
            let g = got(r, j);
            let e = (g - v.exact).abs();
            let allowed = bound.allows(v.exact, v.abs);
            elements += 1;
            if !g.is_finite() || e > allowed {
                if bad.len() < 6 {
                    bad.push(format!(
                        "({r},{j}): got {g}, want {} (bound {allowed:.3e})",
                        v.exact
                    ));
                }
                worst = f64::INFINITY;
                continue;
            }
            worst = worst.max(e / allowed);
            if v.exact.abs() > 1e-3 * big {
                worst_rel = worst_rel.max(e / v.exact.abs());
            }
            num += e * e;
            den += v.exact * v.exact;
        }
    }
    let normwise = if den > 0.0 { (num / den).sqrt() } else { 0.0 };
    if !bad.is_empty() {
        return Err(Error::Invalid(format!(
            "{what}: {} element(s) outside the bound, first: {}",
            bad.len(),
            bad.join("; ")
        )));
    }
    if normwise > normwise_max {
        return Err(Error::Invalid(format!(
            "{what}: normwise error {normwise:.3e} above {normwise_max:.1e}"
        )));
    }
    Ok(Agreement {
        elements,
        worst_of_bound: worst,
        worst_rel,
        normwise,
    })
}

/// Seeded random e4m3 values: uniform in (-1, 1) before quantization, so every binade from `2^-9` to 1 appears
/// (about 0.4% round to zero, which the scales and sums never depend on).
pub fn random_e4m3(n: usize, seed: u64) -> Vec<E4m3> {
    crate::elem::nonzero_unit_values(n, seed)
        .map(E4m3::from_f64)
        .collect()
}

/// Seeded random positive scales in `[0.5, 2)` for `mode` and `size` (never 1, so a scale applied twice, to the
/// wrong row or not at all shows).
pub fn random_scales(mode: ScaleMode, size: Size, seed: u64) -> Scales<Vec<f32>> {
    let (na, nb) = super::scale::lens(mode, size);
    let gen = |n: usize, s: u64| -> Vec<f32> {
        crate::elem::unit_values(n, s)
            .map(|u| 2f64.powf(u) as f32 * 1.0001)
            .collect()
    };
    Scales::new(mode, gen(na, seed), gen(nb, seed ^ 0x5CA1E))
}
