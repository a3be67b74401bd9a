//! Correctness: seeded random 16-bit inputs (never zeros), a poisoned output, and a comparison with a host fp64
//! reference (whole matrix, or sampled rows for large sizes) or with cuBLAS.

use super::{cublas_call, Cublas, HopperGemm};
use crate::elem::HostElem;
use crate::frame::Size;
use crate::runtime::{Error, Gpu, Result};
use swizzle_core::Elem;

/// `n` values uniform in (-1, 1) \ {0}, rounded to `E` (the crate's one generator,
/// [`crate::elem::nonzero_unit_values`], moved up by 1/4096).
pub fn random<E: HostElem>(n: usize, seed: u64) -> Vec<E> {
    crate::elem::nonzero_unit_values(n, seed)
        .map(|u| E::from_f64((u + 1.0 / 4096.0) as f32 as f64))
        .collect()
}

/// Host reference rows `rows` of `a * b^T`, accumulated in f64, split over the machine's cores.
pub fn host_rows<E: HostElem>(a: &[E], b: &[E], n: u32, k: u32, rows: &[u32]) -> Vec<Vec<f64>> {
    let (n, k) = (n as usize, k as usize);
    let bf: Vec<f32> = b.iter().map(|&x| x.to_f64() as f32).collect();
    let threads = std::thread::available_parallelism()
        .map_or(4, |p| p.get())
        .min(rows.len().max(1));
    let chunk = rows.len().div_ceil(threads).max(1);
    let mut out = vec![Vec::new(); rows.len()];
    std::thread::scope(|sc| {
        for (slot, rs) in out.chunks_mut(chunk).zip(rows.chunks(chunk)) {
            let bf = &bf;
            sc.spawn(move || {
                for (o, &r) in slot.iter_mut().zip(rs) {
                    let ar: Vec<f64> = a[r as usize * k..(r as usize + 1) * k]
                        .iter()
                        .map(|&x| x.to_f64())
                        .collect();
                    *o = (0..n)
                        .map(|j| {
                            let br = &bf[j * k..(j + 1) * k];
                            ar.iter().zip(br).map(|(x, y)| x * *y as f64).sum()
                        })
                        .collect();
                }
            });
        }
    });
    out
}

/// How far a 16-bit result may be from the exact product: output rounding (2^-8 relative for bf16, 2^-11 for
/// fp16) plus fp32 accumulation over K terms of magnitude <= 1 (a generous 2^-20 * K absolute).
pub fn tolerance(ty: Elem, exact: f64, k: u32) -> f64 {
    let rel = crate::elem::unit_roundoff(ty).unwrap_or(1.0);
    rel * exact.abs() + k as f64 / (1u64 << 20) as f64 + 1e-6
}

/// Compare `got` (row-major m x n bits) with reference rows; every element must be finite (the 0xFFFF poison is
/// a NaN in both types, so an unwritten element fails) and within [`tolerance`]. Returns the relative Frobenius
/// error over the rows compared.
pub fn compare<E: HostElem>(
    got: &[E],
    n: u32,
    k: u32,
    rows: &[u32],
    reference: &[Vec<f64>],
    what: &str,
) -> Result<f64> {
    let (mut num, mut den) = (0.0f64, 0.0f64);
    let mut bad = Vec::new();
    for (&r, refrow) in rows.iter().zip(reference) {
        for (j, &exact) in refrow.iter().enumerate() {
            let g = got[r as usize * n as usize + j].to_f64();
            let e = (g - exact).abs();
            if !g.is_finite() || e > tolerance(E::ELEM, exact, k) {
                if bad.len() < 8 {
                    bad.push(format!("({r},{j}): got {g}, want {exact}"));
                }
                num += f64::INFINITY;
            } else {
                num += e * e;
            }
            den += exact * exact;
        }
    }
    let rel = (num / den.max(1e-30)).sqrt();
    if !bad.is_empty() {
        return Err(Error::Mismatch(format!("{what}: {}", bad.join("; "))));
    }
    Ok(rel)
}

/// Which rows to check against the host: all of them up to 1024 rows, else 96 spread rows (first, last, random).
pub fn sample_rows(m: u32, seed: u64) -> Vec<u32> {
    if m <= 1024 {
        return (0..m).collect();
    }
    let mut rows: Vec<u32> = vec![0, 1, 63, 64, 127, 128, m / 2, m - 2, m - 1];
    rows.extend(crate::elem::indices(96 - rows.len(), m, seed));
    rows
}

/// The outcome of one correctness run.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Checked {
    pub size: Size,
    /// Relative Frobenius error vs the host fp64 reference over the rows compared.
    pub rel_err_host: f64,
    pub rows_vs_host: usize,
    /// Relative Frobenius error vs cuBLAS over the whole matrix (when cuBLAS was run).
    pub rel_err_cublas: Option<f64>,
}

/// Run `g` on fresh random inputs with a poisoned output and check it: against the host fp64 reference (all
/// rows up to 1024, sampled rows above) and, when `blas` is given, element-wise against cuBLAS's whole matrix.
pub fn check(
    gpu: &Gpu,
    g: &HopperGemm,
    blas: Option<&Cublas>,
    size: Size,
    seed: u64,
) -> Result<Checked> {
    let run = Run {
        gpu,
        g,
        blas,
        size,
        seed,
    };
    match g.spec.ty {
        Elem::BF16 => run.typed::<half::bf16>(),
        Elem::F16 => run.typed::<half::f16>(),
        other => Err(crate::elem::unsupported(
            "the Hopper GEMM",
            other,
            &super::TYPES,
        )),
    }
}

/// One [`check`]: its arguments, for the part typed by the spec's element type.
struct Run<'a> {
    gpu: &'a Gpu,
    g: &'a HopperGemm,
    blas: Option<&'a Cublas>,
    size: Size,
    seed: u64,
}

impl Run<'_> {
    /// [`check`] in the spec's element type `E`.
    fn typed<E: HostElem>(&self) -> Result<Checked> {
        let Run {
            gpu,
            g,
            blas,
            size,
            seed,
        } = *self;
        let Size { m, n, k } = size;
        let ty = E::ELEM;
        let a: Vec<E> = random(m as usize * k as usize, seed);
        let b: Vec<E> = random(n as usize * k as usize, seed ^ swizzle_core::random::STEP);
        let (da, db) = (gpu.upload(&a)?, gpu.upload(&b)?);
        let mut dc = gpu.zeros::<E>(m as usize * n as usize)?;
        gpu.fill_bytes(&mut dc, 0xFF)?;
        g.launch(gpu, &da, &db, &mut dc, size)?;
        gpu.sync()?;
        let got = gpu.download(&dc)?;
        let rows = sample_rows(m, seed);
        let reference = host_rows(&a, &b, n, k, &rows);
        let what = format!("{} {m}x{n}x{k}", g.spec);
        let rel_err_host = compare(&got, n, k, &rows, &reference, &what)?;
        let rel_err_cublas = match blas {
            None => None,
            Some(blas) => {
                let mut dr = gpu.zeros::<E>(m as usize * n as usize)?;
                gpu.fill_bytes(&mut dr, 0xFF)?;
                blas.gemm(&cublas_call(ty, size), &da, &db, &mut dr)?;
                gpu.sync()?;
                let want = gpu.download(&dr)?;
                // cuBLAS rounds to 16 bits too: allow both roundings.
                let (mut num, mut den) = (0.0f64, 0.0f64);
                let mut bad = Vec::new();
                for (i, (&x, &y)) in got.iter().zip(&want).enumerate() {
                    let (x, y) = (x.to_f64(), y.to_f64());
                    let e = (x - y).abs();
                    if (!x.is_finite() || e > 2.0 * tolerance(ty, y, k)) && bad.len() < 8 {
                        bad.push(format!(
                            "({},{}): got {x}, cuBLAS {y}",
                            i / n as usize,
                            i % n as usize
                        ));
                    }
                    num += e * e;
                    den += y * y;
                }
                if !bad.is_empty() {
                    return Err(Error::Mismatch(format!(
                        "{what} vs cuBLAS: {}",
                        bad.join("; ")
                    )));
                }
                Some((num / den.max(1e-30)).sqrt())
            }
        };
        Ok(Checked {
            size,
            rel_err_host,
            rows_vs_host: rows.len(),
            rel_err_cublas,
        })
    }
}
