//! The benchmark harness every kernel family uses.
//!
//! How a number is made:
//! 1. **Rotation.** Enough input/output buffer sets are allocated that together they are at least
//!    `l2_factor` times the L2 (50-60 MB on Hopper); run `i` uses set `i % sets`, so a run never finds its input
//!    left in L2 by the run before ([`rotation`]).
//! 2. **Warm-up.** `warmup` untimed runs first (module load, clocks, TLBs).
//! 3. **Timing.** Each of `iters` runs sits between its own pair of CUDA events (`CU_EVENT_DEFAULT`); all runs
//!    are queued before one synchronize, behind a hold ([`hold`]: one thread spinning for [`HOLD_NS_PER_RUN`]
//!    per run) that keeps the stream busy while the host enqueues them. So the GPU never idles between them and
//!    no host time is counted, even where a run takes less GPU time (a few µs) than its enqueue takes the host.
//! 4. **Median.** The median of the per-run times is reported, with their range ([`Spread`]).
//! 5. **Reference in the same process.** Bandwidth kernels are compared with a device-to-device copy of the
//!    same byte count (`cuMemcpyDtoDAsync`) timed the same way, in the same run: `% of D2D`.

pub mod rounds;

use cudarc::driver::{LaunchConfig, PushKernelArg};
use gpu_kernels::runtime::error::DriverContext;
use gpu_kernels::runtime::{DeviceProps, Gpu, Result, Source};
use std::fmt::Write as _;

/// Knobs of one measurement.
#[derive(Clone, Copy, Debug)]
pub struct BenchConfig {
    pub warmup: usize,
    pub iters: usize,
    /// The rotated buffers together are at least this many times the L2.
    pub l2_factor: usize,
}

impl Default for BenchConfig {
    fn default() -> Self {
        BenchConfig {
            warmup: 3,
            iters: 25,
            l2_factor: 4,
        }
    }
}

/// The median of some values with their range: the per-run times of one measurement (ms), or the per-round
/// ratios of an interleaved comparison ([`rounds`]). The one median of the crate: the median of an even count is
/// the mean of the middle two.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    /// How many values: runs of one measurement, or rounds of a comparison.
    pub rounds: usize,
}

/// The [`Spread`] of `values` (which must not be empty).
pub fn spread(values: &[f64]) -> Spread {
    assert!(!values.is_empty(), "no values");
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    let median = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    Spread {
        median,
        min: v[0],
        max: v[n - 1],
        rounds: n,
    }
}

impl Spread {
    /// GB/s (1e9 bytes) for `bytes` moved per run, at the median of per-run times in ms.
    pub fn gbps(&self, bytes: u64) -> f64 {
        bytes as f64 / (self.median * 1e-3) / 1e9
    }

    /// A spread of ratios (peer / ours per round) as the headline cell of a table: the median in bold, as a
    /// percentage, then the range, `**98.7%** (97.9-99.4)`.
    pub fn percent_cell(&self) -> String {
        format!(
            "**{:.1}%** ({:.1}-{:.1})",
            100.0 * self.median,
            100.0 * self.min,
            100.0 * self.max
        )
    }
}

/// How many buffer sets of `bytes_per_set` bytes to rotate through so that they exceed `factor` x L2.
///
/// ```
/// use gpu_bench::bench::rotation;
/// assert_eq!(rotation(32 << 20, 50 << 20, 4), 7); // 2048^2 fp32 in + out on a 50 MB L2
/// assert_eq!(rotation(2 << 30, 50 << 20, 4), 1);  // 16384^2 fp32: one set is already 40x the L2
/// ```
pub fn rotation(bytes_per_set: usize, l2_bytes: usize, factor: usize) -> usize {
    (factor * l2_bytes)
        .div_ceil(bytes_per_set.max(1))
        .clamp(1, 64)
}

/// GPU time the hold ahead of the timed runs spins per run ([`time`]): well above what the host takes to enqueue
/// one run and its two events (a few µs for a kernel launch, more for a library call).
pub const HOLD_NS_PER_RUN: u64 = 50_000;

const HOLD_SOURCE: &str = include_str!("hold.cu");

/// The hold's translation unit.
pub fn hold_source() -> Source {
    Source {
        name: "hold.cu".into(),
        text: HOLD_SOURCE.into(),
        headers: Vec::new(),
    }
}

/// Queue one thread spinning on the GPU's global timer for `ns` nanoseconds on `gpu`'s stream (compiled once per
/// context, then taken from its module cache).
pub fn hold(gpu: &Gpu, ns: u64) -> Result<()> {
    let kernel = gpu.kernel(&hold_source(), &[], "hold")?;
    let cfg = LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (1, 1, 1),
        shared_mem_bytes: 0,
    };
    gpu.launch(&kernel, cfg, |a| {
        a.arg(&ns);
    })
}

/// How [`time_with`] times a contestant's launches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// An event pair around each launch; the samples are the launches' times ([`time`]).
    EachLaunch,
    /// One event pair around all of them, queued back to back, so the GPU starts each as the one before ends (as
    /// a CUDA graph replays a model's layers); the one sample is the span over the launches. What a launch of a
    /// few µs costs in a decode loop, where an event pair around each launch adds its start-up to every sample.
    BackToBack,
}

/// Time `run(i)` as described in the module docs; `run` must queue work on `gpu`'s stream and use buffer set
/// `i % sets`.
pub fn time(gpu: &Gpu, cfg: &BenchConfig, run: impl FnMut(usize) -> Result<()>) -> Result<Spread> {
    time_with(gpu, cfg, Timing::EachLaunch, run)
}

/// [`time`] with the launches timed as `timing` says: `cfg.warmup` untimed, then `cfg.iters` queued behind the
/// hold.
pub fn time_with(
    gpu: &Gpu,
    cfg: &BenchConfig,
    timing: Timing,
    mut run: impl FnMut(usize) -> Result<()>,
) -> Result<Spread> {
    for i in 0..cfg.warmup {
        run(i)?;
    }
    let iters = cfg.iters.max(1);
    hold(gpu, HOLD_NS_PER_RUN * iters as u64)?;
    // Each launch between its own events, or all of them between one pair.
    let pairs = if timing == Timing::EachLaunch {
        iters
    } else {
        1
    };
    let per_pair = iters / pairs;
    let mut events = Vec::with_capacity(pairs);
    for p in 0..pairs {
        let (start, end) = (gpu.timing_event()?, gpu.timing_event()?);
        start.record(gpu.stream()).ctx("cuEventRecord")?;
        for i in p * per_pair..(p + 1) * per_pair {
            run(cfg.warmup + i)?;
        }
        end.record(gpu.stream()).ctx("cuEventRecord")?;
        events.push((start, end));
    }
    gpu.sync()?;
    let samples = events
        .iter()
        .map(|(s, e)| {
            s.elapsed_ms(e)
                .map(|ms| f64::from(ms) / per_pair as f64)
                .ctx("cuEventElapsedTime")
        })
        .collect::<Result<Vec<f64>>>()?;
    Ok(spread(&samples))
}

/// One line of a table.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    pub kernel: String,
    pub block: String,
    pub elem: String,
    pub rows: u32,
    pub cols: u32,
    /// Bytes read + written per run (0 for a FLOP-measured family).
    pub bytes: u64,
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
    /// The rate in the table's unit: GB/s for bandwidth families, TFLOP/s for FLOP-measured ones.
    pub gbps: f64,
    /// Percent of the reference (the D2D copy of the same bytes, or cuBLAS) measured in the same run.
    pub pct_of_ref: f64,
    /// Percent of the table's [`Ceiling`], where it has one.
    pub pct_of_ceiling: Option<f64>,
    /// A bound rather than a solution of the family's problem (the transpose's plain copies): timed for
    /// comparison, never the family's best.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bound: bool,
}

/// A second reference some tables carry: the most the family's instructions can do on this device, measured in
/// the same run (the mma.sync probe for the mma.sync GEMM).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Ceiling {
    pub name: String,
    /// Its rate, in the table's unit.
    pub rate: f64,
}

/// One table: rows measured against one reference.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Table {
    pub title: String,
    pub reference: String,
    /// The reference's rate, in [`Table::unit`].
    pub reference_gbps: f64,
    /// `GB/s` or `TFLOP/s`.
    pub unit: String,
    /// Where the family has one: its instructions' own ceiling, measured in the same run.
    pub ceiling: Option<Ceiling>,
    pub rows: Vec<Row>,
}

impl Table {
    /// A markdown table (the article's columns: kernel, block, GB/s, % of the reference).
    pub fn markdown(&self) -> String {
        let peer = if self.unit == "GB/s" { "D2D" } else { "peer" };
        let digits = if self.unit == "GB/s" { 0 } else { 1 };
        let mut s = format!(
            "{}\nreference: {} = {:.digits$} {}\n",
            self.title, self.reference, self.reference_gbps, self.unit
        );
        if let Some(c) = &self.ceiling {
            let _ = writeln!(s, "ceiling: {} = {:.digits$} {}", c.name, c.rate, self.unit);
        }
        let pct_peer = format!("% of {peer}");
        let mut columns = vec![
            ("kernel", Left),
            ("block", Left),
            ("time (ms)", Right),
            (self.unit.as_str(), Right),
            (pct_peer.as_str(), Right),
        ];
        if self.ceiling.is_some() {
            columns.push(("% of ceiling", Right));
        }
        let mut t = Markdown::new(&columns);
        for r in &self.rows {
            let mut cells = vec![
                r.kernel.clone(),
                r.block.clone(),
                format!("{:.4}", r.median_ms),
                format!("{:.digits$}", r.gbps),
                format!("{:.1}%", r.pct_of_ref),
            ];
            if self.ceiling.is_some() {
                cells.push(format!("{:.1}%", r.pct_of_ceiling.unwrap_or(f64::NAN)));
            }
            t.row(cells);
        }
        s.push('\n');
        s + &t.finish()
    }

    /// CSV with a header line; one line per row.
    pub fn csv(&self) -> String {
        let mut s = String::from(
            "kernel,block,elem,rows,cols,bytes,median_ms,min_ms,max_ms,gbps,pct_of_ref,pct_of_ceiling\n",
        );
        for r in &self.rows {
            let _ = writeln!(
                s,
                "{},\"{}\",{},{},{},{},{:.6},{:.6},{:.6},{:.1},{:.2},{}",
                r.kernel,
                r.block,
                r.elem,
                r.rows,
                r.cols,
                r.bytes,
                r.median_ms,
                r.min_ms,
                r.max_ms,
                r.gbps,
                r.pct_of_ref,
                r.pct_of_ceiling
                    .map_or(String::new(), |c| format!("{c:.2}"))
            );
        }
        s
    }
}

/// How a markdown column aligns: text left, numbers right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}
use Align::{Left, Right};

/// A markdown table: the one renderer of every table the programs print (a header, the alignment rule, a line per
/// row). Cells come formatted; a row must have one per column.
///
/// ```
/// use gpu_bench::bench::{Align, Markdown};
/// let mut t = Markdown::new(&[("kernel", Align::Left), ("ms", Align::Right)]);
/// t.row(["copy", "1.00"]);
/// assert_eq!(t.finish(), "| kernel | ms |\n|---|--:|\n| copy | 1.00 |\n");
/// ```
pub struct Markdown {
    text: String,
    columns: usize,
}

impl Markdown {
    /// A table of `columns` (header, alignment), no rows yet.
    pub fn new(columns: &[(&str, Align)]) -> Markdown {
        let rule: Vec<&str> = columns
            .iter()
            .map(|c| match c.1 {
                Left => "---",
                Right => "--:",
            })
            .collect();
        let mut t = Markdown {
            text: String::new(),
            columns: columns.len(),
        };
        t.row(columns.iter().map(|c| c.0));
        let _ = writeln!(t.text, "|{}|", rule.join("|"));
        t
    }

    /// One row of cells, in column order.
    pub fn row<S: AsRef<str>>(&mut self, cells: impl IntoIterator<Item = S>) {
        let cells: Vec<S> = cells.into_iter().collect();
        assert_eq!(cells.len(), self.columns, "one cell per column");
        let cells: Vec<&str> = cells.iter().map(|c| c.as_ref()).collect();
        let _ = writeln!(self.text, "| {} |", cells.join(" | "));
    }

    /// The table's text, each line ending in a newline.
    pub fn finish(self) -> String {
        self.text
    }
}

/// Everything one benchmark command measured, with where and when.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Report {
    pub device: DeviceProps,
    /// UTC date, `YYYY-MM-DD`.
    pub date: String,
    pub command: String,
    pub config: ConfigRecord,
    pub tables: Vec<Table>,
}

/// The [`BenchConfig`] as recorded in a report.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct ConfigRecord {
    pub warmup: usize,
    pub iters: usize,
    pub l2_factor: usize,
}

impl From<BenchConfig> for ConfigRecord {
    fn from(c: BenchConfig) -> Self {
        ConfigRecord {
            warmup: c.warmup,
            iters: c.iters,
            l2_factor: c.l2_factor,
        }
    }
}

impl Report {
    /// The report of a run made now by this process: today's date and the command line as typed.
    pub fn of_this_run(device: DeviceProps, config: &BenchConfig, tables: Vec<Table>) -> Report {
        Report {
            device,
            date: today_utc(),
            command: std::env::args().collect::<Vec<_>>().join(" "),
            config: (*config).into(),
            tables,
        }
    }

    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serialises")
    }

    pub fn csv(&self) -> String {
        let mut s = String::new();
        for (i, t) in self.tables.iter().enumerate() {
            let csv = t.csv();
            s.push_str(if i == 0 {
                &csv
            } else {
                csv.split_once('\n').map_or("", |x| x.1)
            });
        }
        s
    }
}

/// Today's UTC date as `YYYY-MM-DD` (no date crate: days since the epoch to a civil date).
pub fn today_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_range_and_bandwidth() {
        let s = spread(&[3.0, 1.0, 2.0, 100.0, 2.5]);
        assert_eq!((s.median, s.min, s.max, s.rounds), (2.5, 1.0, 100.0, 5));
        let s = spread(&[4.0, 1.0, 3.0, 2.0]);
        assert_eq!((s.median, s.min, s.max, s.rounds), (2.5, 1.0, 4.0, 4));
        // 2 GB in 1 ms = 2000 GB/s
        assert!((spread(&[1.0]).gbps(2_000_000_000) - 2000.0).abs() < 1e-9);
    }

    #[test]
    fn date_is_iso() {
        let d = today_utc();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }

    #[test]
    fn tables_render() {
        let t = Table {
            title: "t".into(),
            reference: "D2D".into(),
            reference_gbps: 100.0,
            unit: "GB/s".into(),
            ceiling: None,
            rows: vec![Row {
                kernel: "k".into(),
                block: "(32,8)".into(),
                elem: "fp32".into(),
                rows: 2,
                cols: 2,
                bytes: 32,
                median_ms: 1.0,
                min_ms: 1.0,
                max_ms: 1.0,
                gbps: 50.0,
                pct_of_ref: 50.0,
                pct_of_ceiling: None,
                bound: false,
            }],
        };
        assert!(t
            .markdown()
            .contains("| k | (32,8) | 1.0000 | 50 | 50.0% |\n"));
        assert!(!t.markdown().contains("ceiling"));
        assert_eq!(t.csv().lines().count(), 2);
        assert!(t.csv().ends_with(",50.00,\n"));
        // A table with a ceiling: one more column, and the ceiling's line.
        let mut c = t.clone();
        c.unit = "TFLOP/s".into();
        c.ceiling = Some(Ceiling {
            name: "probe".into(),
            rate: 200.0,
        });
        c.rows[0].pct_of_ceiling = Some(25.0);
        let md = c.markdown();
        assert!(md.contains("ceiling: probe = 200.0 TFLOP/s\n"), "{md}");
        assert!(
            md.contains("| % of peer | % of ceiling |\n|---|---|--:|--:|--:|--:|\n"),
            "{md}"
        );
        assert!(
            md.contains("| k | (32,8) | 1.0000 | 50.0 | 50.0% | 25.0% |\n"),
            "{md}"
        );
        assert!(c.csv().ends_with(",50.00,25.00\n"));
    }
}
