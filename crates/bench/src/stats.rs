//! The few statistics a speed table needs: median with min/max spread over repeated runs, and
//! the Halite-to-best-peer ratio.

use crate::libs::Library;

/// The median of repeated measurements of one rate, with the smallest and largest seen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// The median (the mean of the middle two for an even count).
    pub median: f64,
    /// The smallest value.
    pub min: f64,
    /// The largest value.
    pub max: f64,
}

impl Summary {
    /// Summarises `values`; `None` when there are none (or any is NaN).
    #[must_use]
    pub fn of(values: &[f64]) -> Option<Summary> {
        if values.is_empty() || values.iter().any(|v| v.is_nan()) {
            return None;
        }
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            f64::midpoint(sorted[n / 2 - 1], sorted[n / 2])
        };
        Some(Summary { median, min: sorted[0], max: sorted[n - 1] })
    }

    /// A summary of one value (a single `openssl speed` run).
    #[must_use]
    pub fn single(value: f64) -> Summary {
        Summary { median: value, min: value, max: value }
    }

    /// The spread as the larger distance from the median to min or max, in percent of the
    /// median: `±3%` in a table cell.
    #[must_use]
    pub fn spread_percent(&self) -> f64 {
        if self.median == 0.0 {
            return 0.0;
        }
        (self.max - self.median).max(self.median - self.min) / self.median * 100.0
    }

    /// The same summary with every value multiplied by `factor` (a unit change). A negative
    /// factor is not meaningful here.
    #[must_use]
    pub fn scaled(&self, factor: f64) -> Summary {
        Summary { median: self.median * factor, min: self.min * factor, max: self.max * factor }
    }

    /// The summary of `k / x` for a rate summary (rate → cost per unit): min and max swap.
    #[must_use]
    pub fn reciprocal(&self, k: f64) -> Summary {
        Summary { median: k / self.median, min: k / self.max, max: k / self.min }
    }
}

/// Halite's rate over the best peer's: above 1 Halite is faster. Compares medians; peers
/// without a rate are ignored. Returns the ratio and the best peer.
#[must_use]
pub fn ratio_to_best(halite: f64, peers: &[(Library, f64)]) -> Option<(f64, Library)> {
    let &(best, rate) = peers
        .iter()
        .filter(|(lib, r)| *lib != Library::Halite && r.is_finite() && *r > 0.0)
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    Some((halite / rate, best))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        let s = Summary::of(&[5.0, 1.0, 3.0]).unwrap();
        assert_eq!(s, Summary { median: 3.0, min: 1.0, max: 5.0 });
        let s = Summary::of(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!(s, Summary { median: 2.5, min: 1.0, max: 4.0 });
        assert_eq!(Summary::of(&[7.0]).unwrap(), Summary::single(7.0));
    }

    #[test]
    fn no_summary_of_nothing_or_nan() {
        assert_eq!(Summary::of(&[]), None);
        assert_eq!(Summary::of(&[1.0, f64::NAN]), None);
    }

    #[test]
    #[allow(clippy::float_cmp)] // zero is exact
    fn spread_is_the_larger_side() {
        let s = Summary { median: 100.0, min: 97.0, max: 110.0 };
        assert!((s.spread_percent() - 10.0).abs() < 1e-9);
        let s = Summary { median: 100.0, min: 80.0, max: 101.0 };
        assert!((s.spread_percent() - 20.0).abs() < 1e-9);
        assert_eq!(Summary::single(0.0).spread_percent(), 0.0);
    }

    #[test]
    fn reciprocal_swaps_min_and_max() {
        let s = Summary { median: 2.0, min: 1.0, max: 4.0 }.reciprocal(8.0);
        assert_eq!(s, Summary { median: 4.0, min: 2.0, max: 8.0 });
        let s = Summary { median: 2.0, min: 1.0, max: 4.0 }.scaled(0.5);
        assert_eq!(s, Summary { median: 1.0, min: 0.5, max: 2.0 });
    }

    #[test]
    fn ratio_against_the_fastest_peer() {
        let peers = [(Library::Ring, 400.0), (Library::AwsLcRs, 500.0), (Library::OpenSsl, 450.0)];
        let (r, best) = ratio_to_best(250.0, &peers).unwrap();
        assert!((r - 0.5).abs() < 1e-12);
        assert_eq!(best, Library::AwsLcRs);
        // Halite's own entries never count as a peer; no peers, no ratio.
        assert_eq!(ratio_to_best(1.0, &[(Library::Halite, 10.0)]), None);
        assert_eq!(ratio_to_best(1.0, &[]), None);
        // A peer with no rate (zero or NaN) is skipped.
        let (r, best) =
            ratio_to_best(300.0, &[(Library::Ring, 0.0), (Library::RustCrypto, 150.0)]).unwrap();
        assert!((r - 2.0).abs() < 1e-12);
        assert_eq!(best, Library::RustCrypto);
    }
}
