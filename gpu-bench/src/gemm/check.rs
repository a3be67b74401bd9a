//! The GEMM's check of its typed launch ([`Variant::launch_scaled`]) on problems the frame's verification does
//! not state: padded leading dimensions, `C = alpha * A*B + beta * C` with C read, and problems too large for a
//! full host reference (a seeded sample of elements, all of C against cuBLAS). `swz tune gemm check` runs it on
//! every tuning variant; the GEMM's device tests (`tests/gemm_device.rs`) on every size. The error bound is per
//! element: the output's rounding plus fp32 accumulation over K in the sum of magnitudes.

use gpu_kernels::elem::HostElem;
use gpu_kernels::gemm::{eps, BLayout, Problem, Scale, Variant};
use gpu_kernels::runtime::{Cublas, Error, Gpu, Result};
use swizzle_core::Elem;

/// The host reference of element (row, col) in f64: `sum_k A[row][k] * B(k, col)`, and `sum_k |A||B|` (what
/// bounds the accumulation error).
pub fn reference_at<I: HostElem>(p: &Problem, a: &[I], b: &[I], row: u32, col: u32) -> (f64, f64) {
    let (row, col) = (row as usize, col as usize);
    let arow = &a[row * p.lda as usize..][..p.size.k as usize];
    let b_at = |k: usize| match p.b {
        BLayout::Kn => b[k * p.ldb as usize + col],
        BLayout::Nk => b[col * p.ldb as usize + k],
    };
    arow.iter()
        .enumerate()
        .fold((0.0, 0.0), |(s, abs), (k, x)| {
            let prod = x.to_f64() * b_at(k).to_f64();
            (s + prod, abs + prod.abs())
        })
}

/// What a correctness check found.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CheckReport {
    pub variant: String,
    pub problem: String,
    /// Elements compared with the host reference (all of C, or a sample).
    pub compared: usize,
    /// The largest `|got - ref| / tolerance` (<= 1 passes).
    pub worst_ratio: f64,
    /// `||got - ref|| / ||ref||` over the compared elements.
    pub rel_l2: f64,
    /// `||ours - cuBLAS|| / ||cuBLAS||` over all of C, when cuBLAS was compared.
    pub rel_l2_vs_cublas: Option<f64>,
}

/// Tolerance of one output element: the output rounding plus fp32 accumulation over K (in the sum of magnitudes).
fn tolerance(out: Elem, reference: f64, abs_sum: f64, k: u32) -> f64 {
    eps(out) * reference.abs() + 4.0 * (k as f64).sqrt() * f32::EPSILON as f64 * abs_sum + 1e-6
}

/// Run `v` on fresh random inputs with the output poisoned (0xFF bytes: NaN in every output type), and compare
/// with the host reference: every element when `samples` is `None`, else `samples` seeded positions (plus the four
/// corners). Every element must have been written (no NaN anywhere). With `cublas`, all of C is also compared with
/// cuBLAS's output of the input type (rel. L2 <= 4 output ulps' worth).
pub fn check<I: HostElem, O: HostElem>(
    gpu: &Gpu,
    v: &Variant,
    p: &Problem,
    samples: Option<usize>,
    cublas: Option<&Cublas>,
) -> Result<CheckReport> {
    check_scaled::<I, O>(gpu, v, p, Scale::PRODUCT, samples, cublas)
}

/// [`check`] of `C = alpha · A·B + beta · C`: with `beta != 0`, C starts as seeded random values (the reference
/// reads the same values); with `beta == 0` it starts poisoned, which also proves C is not read. cuBLAS (which is
/// asked for `A·B` only) is compared only for [`Scale::PRODUCT`].
pub fn check_scaled<I: HostElem, O: HostElem>(
    gpu: &Gpu,
    v: &Variant,
    p: &Problem,
    scale: Scale,
    samples: Option<usize>,
    cublas: Option<&Cublas>,
) -> Result<CheckReport> {
    let seed = ((p.size.m as u64) << 40) ^ ((p.size.n as u64) << 20) ^ p.size.k as u64;
    let ha: Vec<I> = gpu_kernels::elem::random(p.a_len(), seed);
    let hb: Vec<I> = gpu_kernels::elem::random(p.b_len(), seed ^ 0xB);
    let (da, db) = (gpu.upload(&ha)?, gpu.upload(&hb)?);
    let hc0: Vec<O> = if scale.beta != 0.0 {
        gpu_kernels::elem::random::<O>(p.c_len(), seed ^ 0xC)
    } else {
        Vec::new()
    };
    let mut dc = if scale.beta != 0.0 {
        gpu.upload(&hc0)?
    } else {
        let mut dc = gpu.zeros::<O>(p.c_len())?;
        gpu.fill_bytes(&mut dc, 0xFF)?;
        dc
    };
    let kernel = v.prepare(gpu)?;
    v.launch_scaled(gpu, &kernel, p, scale, &da, &db, &mut dc)?;
    gpu.sync()
        .map_err(|e| Error::Mismatch(format!("{v} on {p}: {e}")))?;
    let got = gpu.download(&dc)?;
    let at = |r: u32, c: u32| got[r as usize * p.ldc as usize + c as usize].to_f64();
    // Every element written (poison is NaN) and finite.
    for r in 0..p.size.m {
        for c in 0..p.size.n {
            if !at(r, c).is_finite() {
                return Err(Error::Mismatch(format!(
                    "{v} on {p}: C[{r}][{c}] = {} (never written, or overflow)",
                    at(r, c)
                )));
            }
        }
    }
    let positions: Vec<(u32, u32)> = match samples {
        None => (0..p.size.m)
            .flat_map(|r| (0..p.size.n).map(move |c| (r, c)))
            .collect(),
        Some(s) => {
            let mut v: Vec<(u32, u32)> = gpu_kernels::elem::indices(s, p.size.m, seed ^ 0x5A)
                .zip(gpu_kernels::elem::indices(s, p.size.n, seed ^ 0xA5))
                .collect();
            v.extend([
                (0, 0),
                (0, p.size.n - 1),
                (p.size.m - 1, 0),
                (p.size.m - 1, p.size.n - 1),
            ]);
            v
        }
    };
    let (mut worst, mut num, mut den) = (0f64, 0f64, 0f64);
    let mut first_bad = None;
    let (alpha, beta) = (scale.alpha as f64, scale.beta as f64);
    for &(r, c) in &positions {
        let (prod, abs_sum) = reference_at(p, &ha, &hb, r, c);
        let old = if beta != 0.0 {
            hc0[r as usize * p.ldc as usize + c as usize].to_f64()
        } else {
            0.0
        };
        let want = alpha * prod + beta * old;
        let err = (at(r, c) - want).abs();
        // alpha scales the accumulation error; beta * old is one fp32 product and sum (2 eps32 of its size); with
        // beta != 0, alpha * A.B is rounded to the output type before beta * old is added (one more rounding).
        let second_rounding = if beta != 0.0 {
            eps(v.out) * (alpha * prod).abs()
        } else {
            0.0
        };
        let tol = tolerance(v.out, want, alpha.abs() * abs_sum, p.size.k)
            + 2.0 * f32::EPSILON as f64 * (beta * old).abs()
            + second_rounding;
        let ratio = err / tol;
        if ratio > 1.0 && first_bad.is_none() {
            first_bad = Some((r, c, at(r, c), want));
        }
        worst = worst.max(ratio);
        num += err * err;
        den += want * want;
    }
    if let Some((r, c, g, w)) = first_bad {
        return Err(Error::Mismatch(format!(
            "{v} on {p}: C[{r}][{c}] = {g}, reference {w} (worst error {worst:.1}x the tolerance over {} elements)",
            positions.len()
        )));
    }
    let mut rel_vs_cublas = None;
    if let (Some(blas), true) = (cublas, scale == Scale::PRODUCT) {
        let mut dr = gpu.zeros::<I>(p.c_len())?;
        blas.gemm(&p.cublas(I::ELEM, I::ELEM), &da, &db, &mut dr)?;
        gpu.sync()?;
        let theirs = gpu.download(&dr)?;
        let (mut n2, mut d2) = (0f64, 0f64);
        for r in 0..p.size.m as usize {
            for c in 0..p.size.n as usize {
                let i = r * p.ldc as usize + c;
                let (o, t) = (got[i].to_f64(), theirs[i].to_f64());
                n2 += (o - t) * (o - t);
                d2 += t * t;
            }
        }
        let rel = (n2 / d2.max(f64::MIN_POSITIVE)).sqrt();
        let limit = 4.0 * eps(I::ELEM);
        if rel.is_nan() || rel > limit {
            return Err(Error::Mismatch(format!(
                "{v} on {p}: ||ours - cuBLAS|| / ||cuBLAS|| = {rel:.2e} > {limit:.1e}"
            )));
        }
        rel_vs_cublas = Some(rel);
    }
    Ok(CheckReport {
        variant: v.to_string(),
        problem: p.to_string(),
        compared: positions.len(),
        worst_ratio: worst,
        rel_l2: (num / den.max(f64::MIN_POSITIVE)).sqrt(),
        rel_l2_vs_cublas: rel_vs_cublas,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use swizzle_core::Size;

    #[test]
    fn host_reference_matches_the_definition() {
        let p = Problem::new(Size::mnk(3, 5, 7), BLayout::Kn).padded(8, 8);
        let a: Vec<half::f16> = gpu_kernels::elem::random(p.a_len(), 1);
        let b: Vec<half::f16> = gpu_kernels::elem::random(p.b_len(), 2);
        // The same B stored N x K.
        let pt = Problem::new(Size::mnk(3, 5, 7), BLayout::Nk).padded(8, 8);
        let mut bt = vec![half::f16::ZERO; pt.b_len()];
        for k in 0..7 {
            for n in 0..5 {
                bt[n * pt.ldb as usize + k] = b[k * p.ldb as usize + n];
            }
        }
        for r in 0..3 {
            for c in 0..5 {
                let want: f64 = (0..7)
                    .map(|k| a[r * 8 + k].to_f64() * b[k * 8 + c].to_f64())
                    .sum();
                assert_eq!(reference_at(&p, &a, &b, r as u32, c as u32).0, want);
                assert_eq!(reference_at(&pt, &a, &bt, r as u32, c as u32).0, want);
            }
        }
    }
}
