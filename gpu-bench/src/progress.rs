//! Progress of long GPU work on stderr (stdout stays the report): one [`Progress`] per family and phase
//! (`compile`, `verify transpose`, `bench gemm`, ...). The frame's long work (verification, compiles) steps any
//! [`Steps`](gpu_kernels::frame::Steps); a `Progress` is one.
//!
//! - **stderr is a terminal**: a bar with the count, the elapsed time and an ETA, redrawn every second even
//!   while one step runs; a finished bar stays on screen with its summary.
//! - **stderr is a file or a pipe**: one line per phase when it ends (`verify gemm: 80 checks, 0 wrong (12.3 s)`),
//!   and while it runs, a status line whenever stderr has been silent for [`HEARTBEAT`] — so a log never goes
//!   more than a few seconds without a line, and a person reading it can tell a long run from a hang.
//!
//! ```
//! use gpu_bench::progress::Progress;
//! let p = Progress::new(3, "verify demo");
//! for spec in ["a", "b", "c"] {
//!     p.step(spec);
//! }
//! p.finish_with("3 checks, 0 wrong");
//! ```

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// In line mode, the longest stderr stays silent while a phase runs before a status line is printed.
pub const HEARTBEAT: Duration = Duration::from_secs(5);

/// The progress of one phase; `Sync`, so worker threads may step it.
pub struct Progress {
    shared: Arc<Shared>,
    ticker: Mutex<Option<std::thread::JoinHandle<()>>>,
}

struct Shared {
    what: String,
    total: u64,
    start: Instant,
    pos: AtomicU64,
    msg: Mutex<String>,
    bar: Option<indicatif::ProgressBar>,
    done: AtomicBool,
}

/// When stderr last got a line from any [`Progress`] of this process.
static LAST_LINE: Mutex<Option<Instant>> = Mutex::new(None);

/// Print `text` as one stderr line and remember when.
fn line(text: &str) {
    let mut last = LAST_LINE.lock().unwrap_or_else(|e| e.into_inner());
    eprintln!("{text}");
    *last = Some(Instant::now());
}

/// Seconds as `4.2 s` or `2 min 05 s`.
///
/// ```
/// use gpu_bench::progress::seconds;
/// assert_eq!(seconds(4.21), "4.2 s");
/// assert_eq!(seconds(125.0), "2 min 05 s");
/// ```
pub fn seconds(s: f64) -> String {
    if s < 60.0 {
        format!("{s:.1} s")
    } else {
        format!("{} min {:02} s", (s / 60.0) as u64, (s % 60.0) as u64)
    }
}

impl Shared {
    /// `verify gemm: 12/80 gemm 128x128 tn on 300x504x264 (3.1 s, about 17.4 s left)`; for a phase of unknown
    /// length (`total` 0), `tune hopper headline: 12 done, round 3 (3.1 s)`.
    fn status(&self) -> String {
        let elapsed = self.start.elapsed().as_secs_f64();
        let msg = self.msg.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if self.total == 0 {
            let pos = self.pos.load(Ordering::Relaxed);
            let msg = if msg.is_empty() {
                msg
            } else {
                format!(", {msg}")
            };
            return format!("{}: {pos} done{msg} ({})", self.what, seconds(elapsed));
        }
        let pos = self.pos.load(Ordering::Relaxed).min(self.total);
        let eta = if pos > 0 {
            format!(
                ", about {} left",
                seconds(elapsed * (self.total - pos) as f64 / pos as f64)
            )
        } else {
            String::new()
        };
        format!(
            "{}: {pos}/{} {msg} ({}{eta})",
            self.what,
            self.total,
            seconds(elapsed)
        )
    }
}

impl Progress {
    /// A phase of `total` steps called `what`; a bar when stderr is a terminal, lines otherwise.
    pub fn new(total: u64, what: &str) -> Progress {
        Progress::with_mode(total, what, std::io::stderr().is_terminal())
    }

    /// A phase whose length is not known beforehand (a tuning run): a spinner with the steps done and the
    /// elapsed time, or status lines.
    pub fn open_ended(what: &str) -> Progress {
        Progress::new(0, what)
    }

    /// [`Progress::new`] with the mode chosen: `bar` for a terminal's bar, else lines. `total` 0: open-ended.
    pub fn with_mode(total: u64, what: &str, bar: bool) -> Progress {
        let bar = bar.then(|| {
            let (b, template) = if total == 0 {
                (
                    indicatif::ProgressBar::new_spinner(),
                    "{spinner} {prefix}: {pos} done {elapsed} {msg}",
                )
            } else {
                (
                    indicatif::ProgressBar::new(total),
                    "{prefix} [{bar:30}] {pos}/{len} {elapsed} (ETA {eta}) {msg}",
                )
            };
            if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
                b.set_style(style.progress_chars("=> "));
            }
            b.set_prefix(what.to_string());
            b.enable_steady_tick(Duration::from_secs(1));
            b
        });
        let shared = Arc::new(Shared {
            what: what.to_string(),
            total,
            start: Instant::now(),
            pos: AtomicU64::new(0),
            msg: Mutex::new(String::new()),
            bar,
            done: AtomicBool::new(false),
        });
        let ticker = shared.bar.is_none().then(|| {
            let s = shared.clone();
            std::thread::spawn(move || {
                while !s.done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(250));
                    let quiet = {
                        let last = LAST_LINE.lock().unwrap_or_else(|e| e.into_inner());
                        last.unwrap_or(s.start).elapsed() >= HEARTBEAT
                    };
                    if quiet && !s.done.load(Ordering::Relaxed) {
                        line(&s.status());
                    }
                }
            })
        });
        Progress {
            shared,
            ticker: Mutex::new(ticker),
        }
    }

    /// Advance by one, showing what runs next.
    pub fn step(&self, msg: &str) {
        *self.shared.msg.lock().unwrap_or_else(|e| e.into_inner()) = msg.to_string();
        self.shared.pos.fetch_add(1, Ordering::Relaxed);
        if let Some(b) = &self.shared.bar {
            b.set_message(msg.to_string());
            b.inc(1);
        }
    }

    /// Seconds since the phase started.
    pub fn elapsed_s(&self) -> f64 {
        self.shared.start.elapsed().as_secs_f64()
    }

    /// End the phase with a one-line `summary` (the elapsed time is added): the bar stays with it, or it is the
    /// phase's line.
    pub fn finish_with(&self, summary: &str) {
        if self.stop() {
            let text = format!("{summary} ({})", seconds(self.elapsed_s()));
            match &self.shared.bar {
                Some(b) => b.finish_with_message(text),
                None => line(&format!("{}: {text}", self.shared.what)),
            }
        }
    }

    /// End the phase with the count of steps done as its summary.
    pub fn finish(&self) {
        let done = self.shared.pos.load(Ordering::Relaxed);
        match self.shared.total {
            0 => self.finish_with(&format!("{done} done")),
            total => self.finish_with(&format!("{done}/{total} done")),
        }
    }

    /// Stop the ticker; true the first time.
    fn stop(&self) -> bool {
        if self.shared.done.swap(true, Ordering::Relaxed) {
            return false;
        }
        let ticker = self.ticker.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(t) = ticker {
            let _ = t.join();
        }
        true
    }
}

impl gpu_kernels::frame::Steps for Progress {
    fn step(&self, what: &str) {
        Progress::step(self, what);
    }
}

impl Drop for Progress {
    /// A phase left early (an error) stops its ticker and bar without a summary.
    fn drop(&mut self) {
        if self.stop() {
            if let Some(b) = &self.shared.bar {
                b.abandon();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_line_counts_and_estimates() {
        let p = Progress::with_mode(4, "verify demo", false);
        assert_eq!(p.shared.status(), "verify demo: 0/4  (0.0 s)");
        p.step("spec a");
        p.step("spec b");
        let s = p.shared.status();
        assert!(
            s.starts_with("verify demo: 2/4 spec b (") && s.contains("left)"),
            "{s}"
        );
        p.finish_with("4 checks");
        p.finish_with("again"); // a second finish prints nothing
        assert!(p.shared.done.load(Ordering::Relaxed));
    }

    #[test]
    fn an_open_ended_phase_counts_without_an_estimate() {
        let p = Progress::with_mode(0, "tune demo", false);
        p.step("round 1");
        let s = p.shared.status();
        assert!(s.starts_with("tune demo: 1 done, round 1 ("), "{s}");
        assert!(!s.contains("left"), "{s}");
        p.finish();
    }

    #[test]
    fn a_dropped_phase_stops_its_ticker() {
        let p = Progress::with_mode(1, "dropped", false);
        let shared = p.shared.clone();
        drop(p);
        assert!(shared.done.load(Ordering::Relaxed));
        // Only the test's handle is left: the ticker thread has ended and dropped its own.
        assert_eq!(Arc::strong_count(&shared), 1);
    }
}
