//! Confidence intervals and significance by bootstrap resampling of sentences, as the CoNLL 2017
//! shared task reported them: resample the gold sentences with replacement, recompute each
//! metric's F1, and read the 2.5th and 97.5th percentiles (an interval), or count how often two
//! systems' order flips (a paired test).
//!
//! The resampled unit is an evaluation chunk: a gold sentence with the system sentences over
//! the same text, or the smallest group of gold sentences whose text the system segments
//! differently. For a paired test the units of the two systems are merged where their groups
//! overlap, so both are resampled over the same gold text. Sampling is seeded: the same seed
//! gives the same figures.

use super::report::{
    Comparison, Counts, Intervals, Metric, MetricComparison, Report, Resampling, Score, Unit,
};

/// The 95% percentile interval of every metric's F1 over resamplings of the report's units
/// (kept when [`super::EvalOptions::keep_units`] was set).
pub fn confidence_intervals(report: &Report, resampling: Resampling) -> Intervals {
    Intervals {
        resampling,
        f1: unit_intervals(report.units(), resampling),
    }
}

fn unit_intervals(
    units: &[Unit],
    Resampling { samples, seed }: Resampling,
) -> [(f64, f64); Metric::COUNT] {
    let mut f1s: Vec<Vec<f64>> = (0..Metric::COUNT)
        .map(|_| Vec::with_capacity(samples))
        .collect();
    let mut rng = fastrand::Rng::with_seed(seed);
    for _ in 0..samples {
        let totals = resample(units, &mut rng, |u| &u.counts);
        for (values, score) in f1s.iter_mut().zip(&totals) {
            values.push(score.f1());
        }
    }
    let mut out = [(0.0, 0.0); Metric::COUNT];
    for (interval, values) in out.iter_mut().zip(&mut f1s) {
        *interval = percentile_interval(values);
    }
    out
}

/// Paired bootstrap test of system A against system B, both evaluated against the same gold
/// file with their units kept; each is given with the name the text report shows.
pub fn paired_test(a: (&str, &Report), b: (&str, &Report), resampling: Resampling) -> Comparison {
    let ((a_name, a), (b_name, b)) = (a, b);
    let Resampling { samples, seed } = resampling;
    let pairs = merge_units(a.units(), b.units());
    let mut rng = fastrand::Rng::with_seed(seed);
    // Per metric: resamplings where A - B <= 0, and where A - B >= 0.
    let mut not_above = [0usize; Metric::COUNT];
    let mut not_below = [0usize; Metric::COUNT];
    for _ in 0..samples {
        let picks: Vec<usize> = (0..pairs.len()).map(|_| rng.usize(..pairs.len())).collect();
        let (mut ta, mut tb) = (
            [Score::default(); Metric::COUNT],
            [Score::default(); Metric::COUNT],
        );
        for &i in &picks {
            add(&mut ta, &pairs[i].0);
            add(&mut tb, &pairs[i].1);
        }
        for m in 0..Metric::COUNT {
            let d = ta[m].f1() - tb[m].f1();
            not_above[m] += usize::from(d <= 0.0);
            not_below[m] += usize::from(d >= 0.0);
        }
    }
    let metrics = Metric::ALL
        .iter()
        .map(|&metric| {
            let (fa, fb) = (a.score(metric).f1(), b.score(metric).f1());
            let m = metric.index();
            let against = if fa > fb {
                not_above[m]
            } else if fa < fb {
                not_below[m]
            } else {
                samples
            };
            let p = if samples == 0 {
                1.0
            } else {
                (2.0 * against as f64 / samples as f64).min(1.0)
            };
            MetricComparison {
                metric,
                a: fa,
                b: fb,
                p,
            }
        })
        .collect();
    Comparison {
        a: a_name.to_string(),
        b: b_name.to_string(),
        resampling,
        metrics,
    }
}

fn add(total: &mut Counts, counts: &Counts) {
    for (t, c) in total.iter_mut().zip(counts) {
        t.add(*c);
    }
}

/// Sums the counts of `units.len()` units drawn with replacement.
fn resample<U>(units: &[U], rng: &mut fastrand::Rng, counts: impl Fn(&U) -> &Counts) -> Counts {
    let mut total = [Score::default(); Metric::COUNT];
    if units.is_empty() {
        return total;
    }
    for _ in 0..units.len() {
        add(&mut total, counts(&units[rng.usize(..units.len())]));
    }
    total
}

/// The 2.5th and 97.5th percentiles (nearest rank) of `values`, sorted in place.
fn percentile_interval(values: &mut [f64]) -> (f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0);
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let rank = |q: f64| ((q * n as f64).ceil() as usize).clamp(1, n) - 1;
    (values[rank(0.025)], values[rank(0.975)])
}

/// Groups the units of A and B into units covering the same gold sentences: a group ends
/// where both A and B start a new unit.
fn merge_units(a: &[Unit], b: &[Unit]) -> Vec<(Counts, Counts)> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let (mut ca, mut cb) = (
            [Score::default(); Metric::COUNT],
            [Score::default(); Metric::COUNT],
        );
        // Take units until the next starts of A and B coincide (or one side is used up).
        loop {
            let next =
                |units: &[Unit], k: usize| units.get(k).map_or(u64::MAX, |u| u.first_sentence);
            if i < a.len() && (next(a, i) <= next(b, j) || j >= b.len()) {
                add(&mut ca, &a[i].counts);
                i += 1;
            } else if j < b.len() {
                add(&mut cb, &b[j].counts);
                j += 1;
            }
            let (na, nb) = (next(a, i), next(b, j));
            if na == nb {
                break;
            }
        }
        out.push((ca, cb));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(first: u64, correct: u64) -> Unit {
        let mut counts = [Score::default(); Metric::COUNT];
        counts[0] = Score {
            gold: 10,
            system: 10,
            correct,
            aligned: 0,
        };
        Unit {
            first_sentence: first,
            counts,
        }
    }

    #[test]
    fn units_merge_where_both_systems_start_a_unit() {
        // A: sentences 0, 1-2, 3. B: 0-1, 2, 3. Groups: 0-2, 3.
        let a = [unit(0, 1), unit(1, 2), unit(3, 3)];
        let b = [unit(0, 4), unit(2, 5), unit(3, 6)];
        let merged = merge_units(&a, &b);
        let firsts: Vec<(u64, u64)> = merged
            .iter()
            .map(|(x, y)| (x[0].correct, y[0].correct))
            .collect();
        assert_eq!(firsts, [(3, 9), (3, 6)]);
    }

    #[test]
    fn intervals_are_seeded_and_contain_the_estimate() {
        let units: Vec<Unit> = (0..200).map(|i| unit(i, i % 10)).collect();
        let intervals = |seed| unit_intervals(&units, Resampling { samples: 300, seed });
        let once = intervals(7);
        assert_eq!(once, intervals(7));
        assert_ne!(once, intervals(8));
        let (lo, hi) = once[0];
        // The full-data F1 is 45%; the interval is around it and not degenerate.
        assert!(lo < 45.0 && 45.0 < hi && hi - lo < 10.0, "{lo} {hi}");
    }

    #[test]
    fn percentiles_by_nearest_rank() {
        let mut v: Vec<f64> = (1..=1000).rev().map(f64::from).collect();
        assert_eq!(percentile_interval(&mut v), (25.0, 975.0));
    }
}
