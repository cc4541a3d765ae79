//! The measuring loop: warm-up and calibration, then repeated timed batches taken round-robin
//! across every library, so drift on a shared machine hits all of them alike.
//!
//! Each batch is timed twice: by the measuring thread's CPU time
//! (`CLOCK_THREAD_CPUTIME_ID`), which time slices lost to other processes do not inflate — the
//! basis `openssl speed` uses too — and by the wall clock, reported alongside. Cycles are TSC
//! reference cycles: the TSC's rate, measured against the monotonic clock at start-up, times
//! CPU seconds.

use std::hint::black_box;
use std::time::{Duration, Instant};

use crate::libs::Library;
use crate::ops::Runner;

/// One library (or one Halite implementation) taking part in a measurement.
pub struct Contestant {
    /// Whose code it is.
    pub library: Library,
    /// `default` for Halite's default path, the implementation name (`portable`, `x86_shani`)
    /// for Halite's named implementations, the crate version for peers.
    pub implementation: String,
    /// The code.
    pub runner: Runner,
}

/// How long and how often to measure.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// CPU time of one timed batch.
    pub batch: Duration,
    /// Timed batches per contestant (the median is taken over these).
    pub rounds: usize,
}

impl Settings {
    /// `--quick`: a whole default run in well under a minute.
    pub const QUICK: Settings = Settings { batch: Duration::from_millis(4), rounds: 7 };
    /// The default: steadier numbers, a few minutes for the default sizes.
    pub const FULL: Settings = Settings { batch: Duration::from_millis(25), rounds: 11 };
}

/// Rates from the timed batches of one contestant, in work units per second (bytes or
/// operations), one value per round.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rates {
    /// Per second of the measuring thread's CPU time.
    pub cpu: Vec<f64>,
    /// Per second of wall-clock time.
    pub wall: Vec<f64>,
}

/// The calling thread's CPU time so far.
#[cfg(unix)]
#[must_use]
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec, and CLOCK_THREAD_CPUTIME_ID is a clock every
    // supported Unix provides; the call writes only `ts`.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &raw mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Without a per-thread CPU clock, fall back to the wall clock since first use.
#[cfg(not(unix))]
#[must_use]
pub fn thread_cpu_time() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// The TSC frequency in Hz, measured against the monotonic clock over `over`, when this CPU
/// has a constant-rate TSC (`x86_64` Linux with `constant_tsc`); otherwise `None`.
#[must_use]
pub fn tsc_hz(over: Duration) -> Option<f64> {
    #[cfg(target_arch = "x86_64")]
    {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let constant = cpuinfo
            .lines()
            .find(|l| l.starts_with("flags"))
            .is_some_and(|l| l.split_whitespace().any(|f| f == "constant_tsc"));
        if !constant {
            return None;
        }
        let (t0, c0) = (Instant::now(), rdtsc());
        std::thread::sleep(over);
        let (c1, t1) = (rdtsc(), Instant::now());
        Some(c1.wrapping_sub(c0) as f64 / (t1 - t0).as_secs_f64())
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = over;
        None
    }
}

#[cfg(target_arch = "x86_64")]
fn rdtsc() -> u64 {
    // `rdtsc` is in every x86_64 CPU and reads only the time-stamp counter.
    #[allow(unused_unsafe)]
    // SAFETY: `rdtsc` has no preconditions on x86_64.
    unsafe {
        core::arch::x86_64::_rdtsc()
    }
}

/// Runs `n` calls and returns their (CPU, wall) time.
fn batch(runner: &mut Runner, input: &[u8], out: &mut Vec<u8>, n: u64) -> (Duration, Duration) {
    let (c0, w0) = (thread_cpu_time(), Instant::now());
    for _ in 0..n {
        out.clear();
        runner(black_box(input), out);
        black_box(&mut *out);
    }
    (thread_cpu_time().saturating_sub(c0), w0.elapsed())
}

/// Warms `runner` up and finds how many calls take about `target` of CPU time.
fn calibrate(runner: &mut Runner, input: &[u8], out: &mut Vec<u8>, target: Duration) -> u64 {
    let mut n = 1u64;
    loop {
        let (cpu, _) = batch(runner, input, out, n);
        if cpu >= target / 4 || n >= 1 << 40 {
            let per_call = cpu.as_secs_f64().max(1e-9) / n as f64;
            let calls = (target.as_secs_f64() / per_call).ceil() as u64;
            // One more batch of the final size finishes the warm-up.
            let calls = calls.max(1);
            batch(runner, input, out, calls);
            return calls;
        }
        n *= 2;
    }
}

/// Measures every contestant on `input`: calibrates each, then takes `settings.rounds` timed
/// batches of each, round-robin, starting each round with the next contestant. `work` is the
/// work one call does (bytes for bulk operations, 1 for public-key ones). `before_round(r)` is
/// called before each round, for interleaving external measurements and progress.
pub fn round_robin(
    contestants: &mut [Contestant],
    input: &[u8],
    work: f64,
    settings: Settings,
    mut before_round: impl FnMut(usize),
) -> Vec<Rates> {
    let mut out = Vec::with_capacity(input.len() + 64);
    let calls: Vec<u64> = contestants
        .iter_mut()
        .map(|c| calibrate(&mut c.runner, input, &mut out, settings.batch))
        .collect();
    let mut rates = vec![Rates::default(); contestants.len()];
    let k = contestants.len();
    for round in 0..settings.rounds {
        before_round(round);
        for i in (0..k).map(|j| (j + round) % k.max(1)) {
            let (cpu, wall) = batch(&mut contestants[i].runner, input, &mut out, calls[i]);
            let done = work * calls[i] as f64;
            rates[i].cpu.push(done / cpu.as_secs_f64().max(1e-9));
            rates[i].wall.push(done / wall.as_secs_f64().max(1e-9));
        }
    }
    rates
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_cpu_time_advances_with_work() {
        let t0 = thread_cpu_time();
        let mut x = 0u64;
        let w = Instant::now();
        while w.elapsed() < Duration::from_millis(20) {
            x = black_box(x.wrapping_add(1));
        }
        assert!(thread_cpu_time() > t0);
    }

    #[test]
    fn round_robin_gives_one_rate_per_round_and_contestant() {
        let mk = |library| Contestant {
            library,
            implementation: "default".into(),
            runner: Box::new(|m: &[u8], out: &mut Vec<u8>| out.extend_from_slice(&m[..1])),
        };
        let mut cs = [mk(Library::Halite), mk(Library::Ring)];
        let settings = Settings { batch: Duration::from_micros(200), rounds: 3 };
        let mut seen = Vec::new();
        let rates = round_robin(&mut cs, &[7; 64], 64.0, settings, |r| seen.push(r));
        assert_eq!(seen, [0, 1, 2]);
        assert_eq!(rates.len(), 2);
        for r in &rates {
            assert_eq!(r.cpu.len(), 3);
            assert_eq!(r.wall.len(), 3);
            assert!(r.cpu.iter().chain(&r.wall).all(|v| v.is_finite() && *v > 0.0));
        }
    }
}
