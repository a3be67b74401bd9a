//! The SM clock and board power while a benchmark runs, sampled by `nvidia-smi`.
//!
//! Under sustained load an H100 sits at its board power cap, and the clock it can hold there decides a kernel's
//! throughput as much as its instructions do: a kernel that moves more bytes per flop draws more power per cycle
//! and runs at a lower clock. [`Sampler`] runs `nvidia-smi --query-gpu=clocks.sm,power.draw -lms P` beside the
//! benchmark, stamps each line as it arrives, and averages the samples of a time window ([`Window::of`]).

use gpu_kernels::runtime::error::DriverContext;
use gpu_kernels::runtime::{Gpu, Result as GpuResult};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The GPU's PCI address as `nvidia-smi --id` takes it (`00000000:1A:00.0`): the same GPU whatever
/// `CUDA_VISIBLE_DEVICES` renumbers.
pub fn pci_bus_id(gpu: &Gpu) -> GpuResult<String> {
    use cudarc::driver::sys::CUdevice_attribute as Attr;
    let attr = |a: Attr, what: &str| gpu.context().attribute(a).ctx(what);
    Ok(format!(
        "{:08X}:{:02X}:{:02X}.0",
        attr(Attr::CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, "PCI domain")?,
        attr(Attr::CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, "PCI bus")?,
        attr(Attr::CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, "PCI device")?
    ))
}

/// One `nvidia-smi` line: when it arrived, SM clock (MHz), board power (W).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub at: Instant,
    pub clock_mhz: f64,
    pub power_w: f64,
}

/// `"1755, 698.12"` (the `csv,noheader,nounits` form of `clocks.sm,power.draw`) as (clock, power); `None` for
/// anything else (a header, `[N/A]`, an error line).
pub fn parse_line(line: &str) -> Option<(f64, f64)> {
    let mut f = line.split(',').map(str::trim);
    let clock = f.next()?.parse().ok()?;
    let power = f.next()?.parse().ok()?;
    f.next().is_none().then_some((clock, power))
}

/// The mean clock and power of the samples in a window.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Window {
    pub clock_mhz: f64,
    pub power_w: f64,
    pub samples: usize,
}

impl Window {
    /// The samples taken in `[from, to]`; `None` if there are none.
    pub fn of(samples: &[Sample], from: Instant, to: Instant) -> Option<Window> {
        let inside: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.at >= from && s.at <= to)
            .collect();
        let n = inside.len();
        (n > 0).then(|| Window {
            clock_mhz: inside.iter().map(|s| s.clock_mhz).sum::<f64>() / n as f64,
            power_w: inside.iter().map(|s| s.power_w).sum::<f64>() / n as f64,
            samples: n,
        })
    }
}

/// A running `nvidia-smi` and the samples it has printed so far. Dropping it stops `nvidia-smi`.
pub struct Sampler {
    child: Child,
    samples: Arc<Mutex<Vec<Sample>>>,
}

impl Sampler {
    /// Start sampling the GPU `id` (as `nvidia-smi --id` takes it: [`pci_bus_id`]) every
    /// `period_ms`. `Err` with a one-line reason when `nvidia-smi` cannot be started.
    pub fn start(id: &str, period_ms: u32) -> Result<Sampler, String> {
        let mut child = Command::new("nvidia-smi")
            .args([
                &format!("--id={id}"),
                "--query-gpu=clocks.sm,power.draw",
                "--format=csv,noheader,nounits",
                &format!("-lms={period_ms}"),
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("nvidia-smi could not be started: {e}"))?;
        let out = child.stdout.take().ok_or("nvidia-smi: no stdout")?;
        let samples = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&samples);
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(|l| l.ok()) {
                if let Some((clock_mhz, power_w)) = parse_line(&line) {
                    let s = Sample {
                        at: Instant::now(),
                        clock_mhz,
                        power_w,
                    };
                    sink.lock().unwrap_or_else(|p| p.into_inner()).push(s);
                }
            }
        });
        Ok(Sampler { child, samples })
    }

    /// The mean of the samples that arrived in `[from, to]`.
    pub fn window(&self, from: Instant, to: Instant) -> Option<Window> {
        Window::of(
            &self.samples.lock().unwrap_or_else(|p| p.into_inner()),
            from,
            to,
        )
    }
}

impl Drop for Sampler {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn parses_only_two_numbers() {
        assert_eq!(parse_line("1755, 698.12"), Some((1755.0, 698.12)));
        assert_eq!(parse_line(" 1980,71.5 "), Some((1980.0, 71.5)));
        assert_eq!(parse_line("clocks.sm [MHz], power.draw [W]"), None);
        assert_eq!(parse_line("1755, [N/A]"), None);
        assert_eq!(parse_line("1755"), None);
        assert_eq!(parse_line("1755, 698.1, 3"), None);
        assert_eq!(parse_line(""), None);
    }

    #[test]
    fn window_averages_what_lies_inside() {
        let t0 = Instant::now();
        let at = |ms| t0 + Duration::from_millis(ms);
        let s = |ms, clock_mhz, power_w| Sample {
            at: at(ms),
            clock_mhz,
            power_w,
        };
        let samples = [
            s(0, 1980.0, 100.0),
            s(100, 1500.0, 700.0),
            s(200, 1400.0, 690.0),
            s(300, 1000.0, 50.0),
        ];
        let w = Window::of(&samples, at(100), at(200)).unwrap();
        assert_eq!(w.samples, 2);
        assert!((w.clock_mhz - 1450.0).abs() < 1e-9);
        assert!((w.power_w - 695.0).abs() < 1e-9);
        assert_eq!(Window::of(&samples, at(1000), at(2000)), None);
        assert_eq!(Window::of(&samples, at(0), at(300)).unwrap().samples, 4);
    }
}
