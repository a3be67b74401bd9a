//! The process's host memory: its peak and current resident size (what `swz report` and `swz verify` print when
//! they end), and giving freed memory back to the system between phases.
//!
//! The parallel verification frees many buffers of a few to tens of MB on many threads; the C allocator keeps
//! some of that memory in its per-thread pools, where the next phase cannot use it. [`phase_end`] hands it back
//! (glibc's `malloc_trim`; elsewhere nothing). With `SWZ_TRACE_MEMORY` set, it also prints one stderr line per
//! phase, `memory after verify gemm: peak 1.21 GB, now 0.84 GB (0.97 GB before freed memory went back)`, to
//! find where the memory goes.

/// Resident memory of this process, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Usage {
    /// The most it has held so far (`VmHWM`).
    pub peak: u64,
    /// What it holds now (`VmRSS`).
    pub now: u64,
}

/// This process's resident memory, where the system tells it (Linux); `None` elsewhere.
pub fn usage() -> Option<Usage> {
    parse_status(&std::fs::read_to_string("/proc/self/status").ok()?)
}

/// `VmHWM` and `VmRSS` of a `/proc/PID/status` text.
fn parse_status(text: &str) -> Option<Usage> {
    let field = |name: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(name))?;
        let kb: u64 = line[name.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kb * 1024)
    };
    Some(Usage {
        peak: field("VmHWM:")?,
        now: field("VmRSS:")?,
    })
}

/// Bytes as `1.23 GB` (10^9): `gb(1_234_567_890)` is `"1.23 GB"`.
pub fn gb(bytes: u64) -> String {
    format!("{:.2} GB", bytes as f64 / 1e9)
}

/// Give memory freed by this phase back to the system, and with `SWZ_TRACE_MEMORY` set print where the
/// process stands after `phase` (see the module docs).
pub fn phase_end(phase: &str) {
    let before = usage();
    give_back();
    if std::env::var_os("SWZ_TRACE_MEMORY").is_none() {
        return;
    }
    if let (Some(b), Some(a)) = (before, usage()) {
        eprintln!(
            "memory after {phase}: peak {}, now {} ({} before freed memory went back)",
            gb(a.peak),
            gb(a.now),
            gb(b.now)
        );
    }
}

/// Return the allocator's free memory to the system.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn give_back() {
    extern "C" {
        fn malloc_trim(pad: usize) -> std::ffi::c_int;
    }
    // SAFETY: glibc's malloc_trim takes no pointers and may be called from any thread at any time.
    unsafe {
        malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn give_back() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_fields_are_read_in_bytes() {
        let text = "Name:\tswz\nVmPeak:\t 9999 kB\nVmHWM:\t    2048 kB\nVmRSS:\t    1024 kB\n";
        assert_eq!(
            parse_status(text),
            Some(Usage {
                peak: 2 << 20,
                now: 1 << 20
            })
        );
        assert_eq!(parse_status("VmRSS:\t 1 kB\n"), None);
        assert_eq!(parse_status("VmHWM:\t x kB\nVmRSS:\t 1 kB\n"), None);
        assert_eq!(gb(1_234_567_890), "1.23 GB");
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn this_process_has_a_peak_at_least_its_size() {
        let u = usage().expect("/proc/self/status");
        assert!(u.peak >= u.now && u.now > 0, "{u:?}");
        phase_end("a test");
    }
}
