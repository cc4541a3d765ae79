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

/// Halite's rate over a peer's, paired by round: the median over rounds of `halite[i] /
/// peer[i]`, both measured within the same round, so drift on the machine that hits both
/// cancels out. `None` unless both have the same, nonzero number of rounds.
#[must_use]
pub fn paired_ratio(halite: &[f64], peer: &[f64]) -> Option<f64> {
    if halite.is_empty() || halite.len() != peer.len() {
        return None;
    }
    let ratios: Vec<f64> = halite.iter().zip(peer).map(|(h, p)| h / p).collect();
    Summary::of(&ratios).map(|s| s.median).filter(|r| r.is_finite())
}

/// Halite against its best peer, given Halite's ratio to each peer (above 1 Halite is
/// faster): the best peer is the one Halite leads least. Non-finite and non-positive ratios
/// and Halite's own entries are ignored.
#[must_use]
pub fn ratio_to_best(ratios: &[(Library, f64)]) -> Option<(f64, Library)> {
    let &(best, ratio) = ratios
        .iter()
        .filter(|(lib, r)| *lib != Library::Halite && r.is_finite() && *r > 0.0)
        .min_by(|a, b| a.1.total_cmp(&b.1))?;
    Some((ratio, best))
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
        let ratios = [(Library::Ring, 0.625), (Library::AwsLcRs, 0.5), (Library::OpenSsl, 0.55)];
        assert_eq!(ratio_to_best(&ratios), Some((0.5, Library::AwsLcRs)));
        // Halite's own entries never count as a peer; no peers, no ratio.
        assert_eq!(ratio_to_best(&[(Library::Halite, 0.1)]), None);
        assert_eq!(ratio_to_best(&[]), None);
        // A ratio against a peer without a rate (infinite or NaN) is skipped.
        let ratios = [
            (Library::Ring, f64::INFINITY),
            (Library::RustCrypto, 2.0),
            (Library::Graviola, f64::NAN),
        ];
        assert_eq!(ratio_to_best(&ratios), Some((2.0, Library::RustCrypto)));
    }

    #[test]
    fn paired_ratios_cancel_drift() {
        // The machine slows to half speed in the second round: both rates halve, the ratio
        // of each round stays 0.8, while the ratio of medians would not.
        let halite = [80.0, 40.0, 80.0, 40.0];
        let peer = [100.0, 50.0, 100.0, 50.0];
        assert_eq!(paired_ratio(&halite, &peer), Some(0.8));
        assert_eq!(paired_ratio(&halite, &peer[..3]), None);
        assert_eq!(paired_ratio(&[], &[]), None);
        assert_eq!(paired_ratio(&[1.0], &[0.0]), None);
    }
}
