//! Transpose bandwidth tables: every variant on one matrix, against the D2D copy measured in the same run.

use super::Transpose;
use crate::bench::{self, BenchConfig, Progress, Row, Table};
use crate::elem::Element;
use crate::runtime::{Gpu, Result};

/// Measure `kernels` on a `rows x cols` matrix of `E`. Bytes per run = read + write = 2 x matrix.
pub fn table<E: Element>(
    gpu: &Gpu,
    rows: u32,
    cols: u32,
    kernels: &[Transpose],
    cfg: &BenchConfig,
    progress: Option<&Progress>,
) -> Result<Table> {
    let n = rows as usize * cols as usize;
    let matrix_bytes = n * E::ELEM.bytes() as usize;
    let sets = bench::rotation(2 * matrix_bytes, gpu.props().l2_bytes, cfg.l2_factor);
    let host = crate::elem::random::<E>(n, 0x5eed ^ n as u64);
    let inputs = (0..sets)
        .map(|_| gpu.upload(&host))
        .collect::<Result<Vec<_>>>()?;
    let mut outputs = (0..sets)
        .map(|_| gpu.zeros::<E>(n))
        .collect::<Result<Vec<_>>>()?;
    let bytes = 2 * matrix_bytes as u64;

    let d2d = bench::time(gpu, cfg, |i| {
        gpu.copy_d2d(&inputs[i % sets], &mut outputs[i % sets])
    })?;
    let ref_gbps = d2d.gbps(bytes);
    let mut table = Table {
        title: format!(
            "transpose {rows}x{cols} {} ({sets} rotating buffer sets)",
            E::ELEM
        ),
        reference: "cuMemcpyDtoD of the same bytes".into(),
        reference_gbps: ref_gbps,
        unit: "GB/s".into(),
        rows: vec![row::<E>("D2D copy", "-", rows, cols, bytes, &d2d, ref_gbps)],
    };
    for k in kernels
        .iter()
        .filter(|k| k.elem().is_none_or(|e| e == E::ELEM))
    {
        if let Some(p) = progress {
            p.step(&format!("{} {k} {rows}x{cols}", E::ELEM));
        }
        // Compile, load and size the kernel once: the timed loop only queues launches.
        let kernel = k.prepare(gpu, E::ELEM, &[])?;
        let stats = bench::time(gpu, cfg, |i| {
            k.launch_prepared(
                gpu,
                &kernel,
                &inputs[i % sets],
                &mut outputs[i % sets],
                rows,
                cols,
            )
        })?;
        let (bx, by) = k.block();
        table.rows.push(row::<E>(
            &k.name(),
            &format!("({bx},{by})"),
            rows,
            cols,
            bytes,
            &stats,
            ref_gbps,
        ));
    }
    Ok(table)
}

fn row<E: Element>(
    kernel: &str,
    block: &str,
    rows: u32,
    cols: u32,
    bytes: u64,
    s: &bench::Stats,
    ref_gbps: f64,
) -> Row {
    let gbps = s.gbps(bytes);
    Row {
        kernel: kernel.to_string(),
        block: block.to_string(),
        elem: E::ELEM.name().to_string(),
        rows,
        cols,
        bytes,
        median_ms: s.median_ms,
        min_ms: s.min_ms,
        max_ms: s.max_ms,
        gbps,
        pct_of_ref: 100.0 * gbps / ref_gbps,
    }
}

/// The seed block shapes of the article's tables.
pub const ARTICLE_BLOCKS: [(u32, u32); 4] = [(8, 32), (16, 16), (32, 8), (32, 32)];

/// The default benchmark set for `elem`: the 16-byte copy, the seeds at `seed_blocks`, then every shared-memory
/// spec for `elem`.
pub fn default_kernels(elem: crate::Elem, seed_blocks: &[(u32, u32)]) -> Vec<Transpose> {
    let mut v = vec![Transpose::COPY_VEC16];
    v.extend(seed_blocks.iter().flat_map(|b| Transpose::seeds(*b)));
    v.extend(
        Transpose::all_for(elem)
            .into_iter()
            .filter(|t| matches!(t, Transpose::Smem(_))),
    );
    v
}

/// One table per (size, elem): square `size x size` matrices, `kernels(elem)` on each.
pub fn sweep(
    gpu: &Gpu,
    sizes: &[u32],
    elems: &[crate::Elem],
    kernels: impl Fn(crate::Elem) -> Vec<Transpose>,
    cfg: &BenchConfig,
) -> Result<Vec<Table>> {
    let total: usize = elems.iter().map(|e| kernels(*e).len()).sum::<usize>() * sizes.len();
    let progress = Progress::new(total as u64, "bench transpose");
    let mut tables = Vec::new();
    for &n in sizes {
        for &elem in elems {
            let ks = kernels(elem);
            tables.push(match elem {
                crate::Elem::F32 => table::<f32>(gpu, n, n, &ks, cfg, Some(&progress))?,
                crate::Elem::F16 => table::<half::f16>(gpu, n, n, &ks, cfg, Some(&progress))?,
                e => {
                    return Err(crate::Error::Invalid(format!(
                        "transpose tables run f32 and f16, not {e}"
                    )))
                }
            });
        }
    }
    progress.finish();
    Ok(tables)
}
