//! The building blocks of a report, each bounded in memory whatever the number of
//! lookups: counts by label or key, a histogram of durations and the N most
//! notable lookups (money is summed in `money`).

use std::collections::HashMap;

use hdrhistogram::Histogram;

use super::LISTED;

/// Counts by key (statuses, failure kinds, HLR networks), each shown under the name it
/// was first seen with: one network code comes with different names (the server's
/// `name_en`, the built-in table's) and codes can share a name. Keys come from the
/// server: past `cap` distinct keys the rest count as `other`, so the map is bounded.
pub struct Counts {
    groups: HashMap<String, (String, u64)>,
    other: u64,
    cap: usize,
}

impl Counts {
    pub fn new(cap: usize) -> Counts {
        Counts {
            groups: HashMap::new(),
            other: 0,
            cap,
        }
    }

    /// Counts one for a key that is its own name.
    pub fn add(&mut self, label: &str) {
        self.add_named(label, || label.to_owned());
    }

    /// Counts one for `key`; `name` is asked for only when the key is new.
    pub fn add_named(&mut self, key: &str, name: impl FnOnce() -> String) {
        if let Some((_, count)) = self.groups.get_mut(key) {
            *count += 1;
        } else if self.groups.len() < self.cap {
            self.groups.insert(key.to_owned(), (name(), 1));
        } else {
            self.other += 1;
        }
    }

    pub fn total(&self) -> u64 {
        self.groups.values().map(|(_, n)| n).sum::<u64>() + self.other
    }

    /// The `top` largest counts as `(key, name, count)`, largest first (ties by key),
    /// then the rest (past `top` and past the cap), if any, as one `(other)` without key.
    pub fn ranked(&self, top: usize) -> Vec<(Option<&str>, &str, u64)> {
        let groups = self.groups.iter();
        let ranked = groups.map(|(key, (name, count))| (Some(key.as_str()), name.as_str(), *count));
        let mut ranked: Vec<_> = ranked.collect();
        ranked.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
        let rest = ranked.iter().skip(top).map(|g| g.2).sum::<u64>() + self.other;
        ranked.truncate(top);
        if rest > 0 {
            ranked.push((None, "(other)", rest));
        }
        ranked
    }
}

/// Upper bounds of the log-scaled buckets of latencies in seconds: 1s, 2s, 5s, 10s,
/// 30s, 1m, ... 30d, steps a person reads without counting.
pub const SECOND_BUCKETS: &[u64] = &[
    1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21_600, 43_200, 86_400, 172_800, 604_800,
    2_592_000,
];

/// The same for durations in milliseconds: 1ms ... 500ms, then 1s ... 1h.
pub const MILLISECOND_BUCKETS: &[u64] = &[
    1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 30_000, 60_000, 120_000, 300_000,
    600_000, 1_800_000, 3_600_000,
];

/// Durations in whole units (seconds of a latency, milliseconds of a lookup), as an
/// HDR histogram: percentiles within 0.1 % (3 significant digits) in a few kB.
pub struct Durations {
    histogram: Histogram<u64>,
    /// The largest value exactly: above 2048 a histogram's bin is wider than one unit,
    /// and a max is read as a fact ("the slowest took 3d 00h 02m 07s").
    max: u64,
}

impl Default for Durations {
    fn default() -> Self {
        // Up to 2^40 units (35 years of seconds or milliseconds) in about 250 kB;
        // larger values count as the largest. (An auto-resizing histogram was
        // tried: after a resize, hdrhistogram 7.6 reported values one bin too low.)
        let histogram = Histogram::new_with_bounds(1, 1 << 40, 3);
        Durations {
            histogram: histogram.expect("bounds and precision are valid"),
            max: 0,
        }
    }
}

impl Durations {
    pub fn record(&mut self, value: u64) {
        self.histogram.saturating_record(value);
        self.max = self.max.max(value);
    }

    pub fn count(&self) -> u64 {
        self.histogram.len()
    }

    /// p50, p90, p99 and the exact max; None when no value was recorded.
    pub fn figures(&self) -> Option<[u64; 4]> {
        let at = |per_mille| self.percentile(per_mille);
        (self.count() > 0).then(|| [at(500), at(900), at(990), self.max])
    }

    /// The nearest-rank percentile: the smallest value that at least `per_mille`/1000
    /// of the values do not exceed (integer arithmetic, so p90 of 1000 values is the
    /// 900th, exactly). Within the histogram's precision, and never above the max.
    fn percentile(&self, per_mille: u64) -> u64 {
        let total = self.histogram.len();
        let rank = (per_mille * total).div_ceil(1000).max(1);
        let mut seen = 0;
        for step in self.histogram.iter_recorded() {
            seen += step.count_since_last_iteration();
            if seen >= rank {
                let value = self.histogram.highest_equivalent(step.value_iterated_to());
                return value.min(self.max);
            }
        }
        self.max
    }

    /// Counts per log-scaled bucket, from the first bucket with a value to the last:
    /// `(i, count)` for the values up to `bounds[i]` (past the last bound when `i`
    /// is `bounds.len()`) and above the bound before it.
    pub fn buckets(&self, bounds: &[u64]) -> Vec<(usize, u64)> {
        let mut counts = vec![0u64; bounds.len() + 1];
        for step in self.histogram.iter_recorded() {
            let value = self.histogram.highest_equivalent(step.value_iterated_to());
            let at = bounds.partition_point(|bound| *bound < value);
            counts[at] += step.count_since_last_iteration();
        }
        let last = counts.iter().rposition(|&n| n > 0);
        counts.truncate(last.map_or(0, |i| i + 1));
        let buckets = counts.into_iter().enumerate();
        buckets.skip_while(|(_, n)| *n == 0).collect()
    }
}

/// The [`LISTED`] entries with the largest keys seen so far (slowest lookups,
/// oldest pending ones), largest first; ties keep the earlier entry.
pub struct Top<K: Ord, V> {
    entries: Vec<(K, V)>,
}

impl<K: Ord, V> Default for Top<K, V> {
    fn default() -> Self {
        Top { entries: vec![] }
    }
}

impl<K: Ord, V> Top<K, V> {
    /// Offers an entry; `make` builds its value only when it makes the list.
    pub fn offer(&mut self, key: K, make: impl FnOnce() -> V) {
        if self.entries.len() == LISTED && self.entries.last().is_some_and(|(k, _)| *k >= key) {
            return;
        }
        let at = self.entries.partition_point(|(k, _)| *k >= key);
        self.entries.insert(at, (key, make()));
        self.entries.truncate(LISTED);
    }

    pub fn entries(&self) -> &[(K, V)] {
        &self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_bounded_and_ranked() {
        let mut counts = Counts::new(2);
        for label in ["a", "b", "b", "c", "c", "c"] {
            counts.add(label);
        }
        // `c` came third: past the cap, it is counted as other.
        assert_eq!(
            counts.ranked(1),
            vec![(Some("b"), "b", 2), (None, "(other)", 4)]
        );
        assert_eq!(counts.total(), 6);
    }

    #[test]
    fn groups_count_by_key_under_the_first_name() {
        let mut groups = Counts::new(2);
        groups.add_named("25099", || "Russia / Beeline".into());
        groups.add_named("25099", || "Russian Federation / Beeline".into());
        groups.add_named("25001", || "Russia / Beeline".into());
        groups.add_named("23410", || "United Kingdom / O2".into());
        let beeline = (Some("25099"), "Russia / Beeline", 2);
        assert_eq!(groups.ranked(1), vec![beeline, (None, "(other)", 2)]);
        assert_eq!(groups.total(), 4);
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let mut durations = Durations::default();
        for value in 1..=1000 {
            durations.record(value);
        }
        assert_eq!(durations.percentile(500), 500);
        assert_eq!(durations.percentile(900), 900);
        assert_eq!(durations.percentile(990), 990);
        assert_eq!(durations.max, 1000);
        let mut one = Durations::default();
        one.record(7);
        assert_eq!(one.percentile(500), 7);
    }

    #[test]
    fn the_max_is_exact_where_the_histogram_rounds() {
        let mut durations = Durations::default();
        // Above 2048 a bin is wider than one: the histogram alone says 259_327.
        for value in [5, 259_300] {
            durations.record(value);
        }
        assert_eq!(durations.max, 259_300);
        assert_eq!(durations.percentile(990), 259_300);
        let mut huge = Durations::default();
        huge.record(u64::MAX);
        assert_eq!(huge.max, u64::MAX, "past the histogram's bound too");
    }

    #[test]
    fn buckets_are_log_scaled_and_trimmed() {
        let mut durations = Durations::default();
        for value in [3, 4, 5, 40, 40_000_000] {
            durations.record(value);
        }
        let buckets = durations.buckets(SECOND_BUCKETS);
        // Up to 5s, up to 60s, and past the last bound.
        assert_eq!(buckets.first(), Some(&(2, 3)));
        assert_eq!(buckets[3], (5, 1));
        assert_eq!(buckets.last(), Some(&(SECOND_BUCKETS.len(), 1)));
        assert_eq!(buckets.iter().map(|(_, n)| n).sum::<u64>(), 5);
    }

    #[test]
    fn top_keeps_the_largest() {
        let mut top = Top::default();
        let offers = [
            (3, "c"),
            (1, "a"),
            (5, "e"),
            (0, "z"),
            (4, "d"),
            (2, "b"),
            (5, "f"),
            (2, "t"),
        ];
        for (key, value) in offers {
            top.offer(key, || value);
        }
        // The list was full when `t` came: it ties the last entry, which stays.
        let kept = [(5, "e"), (5, "f"), (4, "d"), (3, "c"), (2, "b")];
        assert_eq!(top.entries(), &kept);
    }
}
