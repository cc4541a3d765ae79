//! What machine and when: the CPU model, for the header of every table, and today's date.

use std::time::{SystemTime, UNIX_EPOCH};

/// The CPU model from `/proc/cpuinfo` (`model name` on x86, the implementer and part numbers
/// on Arm), or the architecture when there is no such file.
#[must_use]
pub fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    cpu_model_from(&info).unwrap_or_else(|| std::env::consts::ARCH.to_owned())
}

/// The CPU model in the text of a `/proc/cpuinfo`.
#[must_use]
pub fn cpu_model_from(cpuinfo: &str) -> Option<String> {
    let field = |name: &str| {
        cpuinfo.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k.trim() == name).then(|| v.trim().to_owned())
        })
    };
    if let Some(model) = field("model name") {
        return Some(model);
    }
    match (field("CPU implementer"), field("CPU part")) {
        (Some(imp), Some(part)) => Some(format!("Arm CPU implementer {imp} part {part}")),
        _ => field("Hardware"),
    }
}

/// Logical CPUs the OS reports.
#[must_use]
pub fn cpu_count() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// The first lines of a TLS report: the date, the CPU and the load average (other work on a
/// shared machine shows in wall-clock times), aligned for the `peers` line that follows.
#[must_use]
pub fn preamble() -> String {
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load = load.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    let (cpu, count) = (cpu_model(), cpu_count());
    format!(
        "date          {}\ncpu           {cpu} ({count} logical)\nload average  {load}\n",
        utc_date()
    )
}

/// Today's date in UTC, `YYYY-MM-DD`.
#[must_use]
pub fn utc_date() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date of a count of days since 1970-01-01 (Howard Hinnant's
/// `civil_from_days` algorithm).
#[must_use]
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preamble_lines() {
        let text = preamble();
        let labels: Vec<&str> = text.lines().map(|l| l.split("  ").next().unwrap()).collect();
        assert_eq!(labels, ["date", "cpu", "load average"]);
        // Every value starts in column 14.
        let aligned =
            |l: &str| l.len() > 14 && l.as_bytes()[13] == b' ' && l.as_bytes()[14] != b' ';
        assert!(text.lines().all(aligned), "{text}");
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(31 + 28), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn cpu_models() {
        let x86 =
            "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Processor @ 2.50GHz\nflags\t: fpu\n";
        assert_eq!(cpu_model_from(x86).unwrap(), "Intel(R) Xeon(R) Processor @ 2.50GHz");
        let arm = "processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n";
        assert_eq!(cpu_model_from(arm).unwrap(), "Arm CPU implementer 0x41 part 0xd0c");
        assert_eq!(cpu_model_from(""), None);
    }
}
