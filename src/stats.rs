//! Paired comparisons that hold up to noise: per-case ratios of two runs (or two solvers) over
//! the same cases, summarised by their geometric mean and by the ratio of two percentiles,
//! each with a seeded percentile-bootstrap confidence interval that resamples cases, and a
//! verdict in criterion's words.
//!
//! Pairing is what makes this work on a shared machine: the variation between cases (a
//! 20-move case takes a hundred times a 10-move one) cancels in each case's ratio, so what
//! remains is the run-to-run noise the interval measures.
//!
//! ```
//! use tilebench::stats::{Paired, Verdict};
//! let baseline = [100.0, 2000.0, 30.0, 450.0, 700.0, 12.0];
//! let current: Vec<f64> = baseline.iter().map(|x| x * 1.5).collect();
//! let p = Paired::new(&baseline, &current).unwrap();
//! let g = p.geometric_mean(1000, 7);
//! assert!((g.estimate - 1.5).abs() < 1e-9 && g.low <= 1.5 && 1.5 <= g.high);
//! assert_eq!(Verdict::of(&g, 0.02, 0.05), Verdict::Regressed);
//! ```

use crate::util::Rng;

/// Bootstrap resamples when the caller has no reason to choose: criterion's default is
/// 100,000 for one benchmark's samples; 2,000 keeps a 10,000-case comparison under a second
/// while the interval's ends move by well under 1% between seeds.
pub const RESAMPLES: usize = 2000;

/// The confidence level of every interval: 95%.
pub const LEVEL: f64 = 0.95;

/// An estimate with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// The statistic on the cases themselves.
    pub estimate: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

impl Interval {
    /// "1.52× (95% CI 1.49–1.55×)".
    pub fn ratio_text(&self) -> String {
        format!(
            "{:.2}× (95% CI {:.2}–{:.2}×)",
            self.estimate, self.low, self.high
        )
    }
}

/// What a ratio's interval says, in criterion's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The whole interval lies above 1 + the allowed increase: slower, beyond doubt and beyond
    /// what was allowed.
    Regressed,
    /// The whole interval lies below 1 − the noise threshold: faster.
    Improved,
    /// The interval excludes 1 but does not clear the threshold: a change too small to count.
    WithinNoise,
    /// The interval holds 1: no change detected.
    NoChange,
}

impl Verdict {
    /// The verdict on a current/baseline ratio. `noise` (e.g. 0.02 for ±2%) is the smallest
    /// change that counts at all; `max_increase` (e.g. 0.05) is the slow-down allowed before
    /// it is a regression (the larger of the two applies).
    pub fn of(ratio: &Interval, noise: f64, max_increase: f64) -> Verdict {
        if ratio.low > 1.0 + noise.max(max_increase) {
            Verdict::Regressed
        } else if ratio.high < 1.0 - noise {
            Verdict::Improved
        } else if ratio.low > 1.0 || ratio.high < 1.0 {
            Verdict::WithinNoise
        } else {
            Verdict::NoChange
        }
    }

    /// The words: "regressed", "improved", "within noise", "no change".
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Regressed => "regressed",
            Verdict::Improved => "improved",
            Verdict::WithinNoise => "within noise",
            Verdict::NoChange => "no change",
        }
    }
}

/// A paired latency comparison: the geometric mean of the per-case ratios and the ratios of
/// p50 and p99, each with its interval and verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Cases in both.
    pub cases: usize,
    /// Geometric mean of current/baseline per case.
    pub mean: Interval,
    /// p50 of current over p50 of baseline.
    pub p50: Interval,
    /// p99 of current over p99 of baseline.
    pub p99: Interval,
}

impl Comparison {
    /// The three figures with their names: `per case`, `p50`, `p99`.
    pub fn figures(&self) -> [(&'static str, &Interval); 3] {
        [
            ("per case", &self.mean),
            ("p50", &self.p50),
            ("p99", &self.p99),
        ]
    }

    /// The worst verdict of the three (a regression anywhere is a regression).
    pub fn verdict(&self, noise: f64, max_increase: f64) -> Verdict {
        let vs = self
            .figures()
            .map(|(_, i)| Verdict::of(i, noise, max_increase));
        [
            Verdict::Regressed,
            Verdict::Improved,
            Verdict::WithinNoise,
            Verdict::NoChange,
        ]
        .into_iter()
        .find(|v| vs.contains(v))
        .unwrap_or(Verdict::NoChange)
    }
}

/// "astar is 3.10× faster than bfs-rank per case (95% CI 3.02–3.19×)": the ratio
/// current/baseline `r` said as faster or slower, the interval turned the same way.
pub fn faster_or_slower(current: &str, baseline: &str, what: &str, r: &Interval) -> String {
    if r.estimate <= 1.0 {
        format!(
            "{current} is {:.2}× faster than {baseline} {what} (95% CI {:.2}–{:.2}×)",
            1.0 / r.estimate,
            1.0 / r.high,
            1.0 / r.low
        )
    } else {
        format!(
            "{current} is {:.2}× slower than {baseline} {what} (95% CI {:.2}–{:.2}×)",
            r.estimate, r.low, r.high
        )
    }
}

/// Two measurements of the same cases, pair by pair.
#[derive(Clone, Debug)]
pub struct Paired {
    baseline: Vec<f64>,
    current: Vec<f64>,
}

impl Paired {
    /// Pairs `baseline[i]` with `current[i]`.
    ///
    /// # Errors
    /// Lengths that differ, no pairs, or a value that is not a positive finite number (a
    /// latency of 0 or a missing one has no ratio); the message says which pair.
    pub fn new(baseline: &[f64], current: &[f64]) -> Result<Paired, String> {
        if baseline.len() != current.len() {
            return Err(format!(
                "{} baseline values but {} current ones: a paired comparison needs one of \
                 each per case",
                baseline.len(),
                current.len()
            ));
        }
        if baseline.is_empty() {
            return Err("no case is in both runs, so there is nothing to compare".into());
        }
        let bad = |x: f64| !(x.is_finite() && x > 0.0);
        if let Some(i) = (0..baseline.len()).find(|&i| bad(baseline[i]) || bad(current[i])) {
            return Err(format!(
                "pair {} has latencies {} and {}: each must be a positive number",
                i + 1,
                baseline[i],
                current[i]
            ));
        }
        Ok(Paired {
            baseline: baseline.to_vec(),
            current: current.to_vec(),
        })
    }

    /// How many pairs.
    pub fn len(&self) -> usize {
        self.baseline.len()
    }

    /// Whether there are no pairs (never, once made).
    pub fn is_empty(&self) -> bool {
        self.baseline.is_empty()
    }

    /// The geometric mean of the per-case ratios current/baseline, with its interval
    /// (`resamples` bootstrap resamples of the cases, from `seed`).
    pub fn geometric_mean(&self, resamples: usize, seed: u64) -> Interval {
        let logs: Vec<f64> = self
            .baseline
            .iter()
            .zip(&self.current)
            .map(|(b, c)| (c / b).ln())
            .collect();
        let n = logs.len();
        let estimate = logs.iter().sum::<f64>() / n as f64;
        let mut rng = Rng::new(seed);
        let mut means: Vec<f64> = (0..resamples)
            .map(|_| {
                (0..n)
                    .map(|_| logs[rng.below(n as u64) as usize])
                    .sum::<f64>()
                    / n as f64
            })
            .collect();
        let (low, high) = ends(&mut means);
        Interval {
            estimate: estimate.exp(),
            low: low.exp(),
            high: high.exp(),
        }
    }

    /// The ratio of the `q`-quantile (0.5 for p50, 0.99 for p99) of the current values to that
    /// of the baseline's, with its interval: each resample draws cases, pairs kept together.
    pub fn quantile_ratio(&self, q: f64, resamples: usize, seed: u64) -> Interval {
        let ratio = |idx: &[usize], b: &mut Vec<f64>, c: &mut Vec<f64>| {
            b.clear();
            c.clear();
            b.extend(idx.iter().map(|&i| self.baseline[i]));
            c.extend(idx.iter().map(|&i| self.current[i]));
            quantile(c, q) / quantile(b, q)
        };
        let (mut b, mut c) = (Vec::new(), Vec::new());
        let all: Vec<usize> = (0..self.len()).collect();
        let estimate = ratio(&all, &mut b, &mut c);
        let mut rng = Rng::new(seed);
        let mut idx = vec![0; self.len()];
        let mut ratios: Vec<f64> = (0..resamples)
            .map(|_| {
                for x in idx.iter_mut() {
                    *x = rng.below(self.len() as u64) as usize;
                }
                ratio(&idx, &mut b, &mut c)
            })
            .collect();
        let (low, high) = ends(&mut ratios);
        Interval {
            estimate,
            low,
            high,
        }
    }
}

impl Paired {
    /// The geometric mean, p50 and p99 ratios with their intervals (seeded: the same pairs
    /// give the same intervals).
    pub fn compare(&self, resamples: usize, seed: u64) -> Comparison {
        Comparison {
            cases: self.len(),
            mean: self.geometric_mean(resamples, seed),
            p50: self.quantile_ratio(0.5, resamples, seed.wrapping_add(1)),
            p99: self.quantile_ratio(0.99, resamples, seed.wrapping_add(2)),
        }
    }
}

/// The `q`-quantile of `xs` (reordered), by the nearest rank: the smallest value with at
/// least `q` of the values at or below it, as HdrHistogram's percentiles are.
pub fn quantile(xs: &mut [f64], q: f64) -> f64 {
    let rank = ((q * xs.len() as f64).ceil() as usize).clamp(1, xs.len());
    let (_, v, _) = xs.select_nth_unstable_by(rank - 1, f64::total_cmp);
    *v
}

/// The 2.5% and 97.5% quantiles of the bootstrap statistics: the percentile interval.
fn ends(stats: &mut [f64]) -> (f64, f64) {
    let tail = (1.0 - LEVEL) / 2.0;
    (quantile(stats, tail), quantile(stats, 1.0 - tail))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Log-normal noise around `ratio`: what a latency ratio between two runs looks like.
    fn noisy(n: usize, ratio: f64, sigma: f64, seed: u64) -> (Vec<f64>, Vec<f64>) {
        let mut rng = Rng::new(seed);
        let mut normal = || {
            // Box–Muller.
            let (u, v) = (rng.unit().max(1e-300), rng.unit());
            (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        };
        // Cases that differ a hundredfold, each measured with noise in both runs.
        let case: Vec<f64> = (0..n).map(|i| 10.0 + (i % 97) as f64 * 50.0).collect();
        let base = case.iter().map(|x| x * (sigma * normal()).exp()).collect();
        let cur = case
            .iter()
            .map(|x| x * ratio * (sigma * normal()).exp())
            .collect();
        (base, cur)
    }

    #[test]
    fn the_geometric_mean_is_the_nth_root_of_the_product() {
        let b = [1.0, 2.0, 4.0, 8.0];
        let c = [2.0, 2.0, 8.0, 2.0];
        // Ratios 2, 1, 2, 1/4: product 1, so the geometric mean is 1.
        let g = Paired::new(&b, &c).unwrap().geometric_mean(500, 1);
        assert!((g.estimate - 1.0).abs() < 1e-12, "{g:?}");
        assert!(g.low <= g.estimate && g.estimate <= g.high);
    }

    #[test]
    fn quantiles_are_nearest_rank() {
        let mut xs: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(quantile(&mut xs, 0.5), 50.0);
        assert_eq!(quantile(&mut xs, 0.99), 99.0);
        assert_eq!(quantile(&mut xs, 1.0), 100.0);
        assert_eq!(quantile(&mut xs, 0.0), 1.0);
    }

    /// The interval's promise, checked by simulation: over many data sets drawn with a known
    /// true ratio, about 95% of the intervals hold it (the percentile bootstrap of a mean of
    /// logs is close to exact at these sizes), and they narrow as cases are added.
    #[test]
    fn intervals_cover_the_true_ratio_about_95_percent_of_the_time() {
        let trials = 200;
        let covered = (0..trials)
            .filter(|&t| {
                let (b, c) = noisy(200, 1.1, 0.15, 1000 + t);
                let g = Paired::new(&b, &c).unwrap().geometric_mean(1000, t);
                g.low <= 1.1 && 1.1 <= g.high
            })
            .count();
        // Binomial(200, 0.95): 95% of the time between 184 and 196.
        assert!((180..=199).contains(&covered), "{covered} of {trials}");
        let width = |n| {
            let (b, c) = noisy(n, 1.1, 0.2, 5);
            let g = Paired::new(&b, &c).unwrap().geometric_mean(1000, 5);
            g.high - g.low
        };
        let (w100, w1600) = (width(100), width(1600));
        // Width goes as 1/sqrt(n): 16 times the cases, a quarter of the width.
        assert!((w100 / w1600 - 4.0).abs() < 1.0, "{w100} vs {w1600}");
    }

    #[test]
    fn verdicts_follow_the_interval_and_the_thresholds() {
        let i = |low, high| Interval {
            estimate: (low + high) / 2.0,
            low,
            high,
        };
        assert_eq!(Verdict::of(&i(1.08, 1.12), 0.02, 0.05), Verdict::Regressed);
        // Above 1 but not wholly above the allowed 5%: not a regression.
        assert_eq!(
            Verdict::of(&i(1.03, 1.12), 0.02, 0.05),
            Verdict::WithinNoise
        );
        assert_eq!(Verdict::of(&i(0.97, 1.04), 0.02, 0.05), Verdict::NoChange);
        assert_eq!(Verdict::of(&i(0.90, 0.95), 0.02, 0.05), Verdict::Improved);
        assert_eq!(
            Verdict::of(&i(0.985, 0.99), 0.02, 0.05),
            Verdict::WithinNoise
        );
    }

    #[test]
    fn an_a_a_comparison_is_no_regression_and_a_real_slow_down_is() {
        for seed in 0..20 {
            let (b, c) = noisy(300, 1.0, 0.15, seed);
            let p = Paired::new(&b, &c).unwrap();
            for g in [
                p.geometric_mean(RESAMPLES, seed),
                p.quantile_ratio(0.5, RESAMPLES, seed),
                p.quantile_ratio(0.99, RESAMPLES, seed),
            ] {
                assert_ne!(Verdict::of(&g, 0.02, 0.05), Verdict::Regressed, "{g:?}");
            }
            let (b, c) = noisy(300, 1.2, 0.15, seed);
            let g = Paired::new(&b, &c).unwrap().geometric_mean(RESAMPLES, seed);
            assert_eq!(Verdict::of(&g, 0.02, 0.05), Verdict::Regressed, "{g:?}");
        }
    }

    #[test]
    fn sentences_say_faster_or_slower_with_the_interval_turned() {
        let r = Interval {
            estimate: 0.5,
            low: 0.4,
            high: 0.625,
        };
        assert_eq!(
            faster_or_slower("astar", "bfs-rank", "per case", &r),
            "astar is 2.00× faster than bfs-rank per case (95% CI 1.60–2.50×)"
        );
        let r = Interval {
            estimate: 1.25,
            low: 1.2,
            high: 1.3,
        };
        assert_eq!(
            faster_or_slower("new", "old", "at p99", &r),
            "new is 1.25× slower than old at p99 (95% CI 1.20–1.30×)"
        );
    }

    #[test]
    fn the_same_seed_gives_the_same_interval() {
        let (b, c) = noisy(100, 1.0, 0.3, 9);
        let p = Paired::new(&b, &c).unwrap();
        assert_eq!(p.geometric_mean(500, 3), p.geometric_mean(500, 3));
        assert_eq!(
            p.quantile_ratio(0.99, 500, 3),
            p.quantile_ratio(0.99, 500, 3)
        );
    }

    #[test]
    fn unpairable_values_are_refused_with_the_pair_named() {
        let e = Paired::new(&[1.0, 0.0], &[1.0, 2.0]).unwrap_err();
        assert!(e.contains("pair 2"), "{e}");
        assert!(Paired::new(&[1.0], &[1.0, 2.0]).is_err());
        assert!(Paired::new(&[], &[]).is_err());
    }
}
