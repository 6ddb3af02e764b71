//! Latency histograms on disk.
//!
//! - `latency-<strategy>.hgrm`: HdrHistogram's percentile distribution text (the format of
//!   Java's `outputPercentileDistribution`), values in **microseconds**, which existing
//!   HdrHistogram plotters read.
//! - `latency.hlog`: every strategy's histogram, exactly, in HdrHistogram's interval log format
//!   (V2 + deflate, base64), one interval per strategy tagged with its name, so runs can be
//!   merged without loss.

use hdrhistogram::serialization::interval_log::{IntervalLogWriterBuilder, Tag};
use hdrhistogram::serialization::V2DeflateSerializer;
use hdrhistogram::Histogram;
use std::fmt::Write as _;
use std::io;
use std::time::{Duration, SystemTime};

/// The percentile distribution text, values scaled from ns to µs.
pub fn percentile_text(h: &Histogram<u64>) -> String {
    let scale = 1000.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:>12} {:>14} {:>10} {:>14}\n",
        "Value", "Percentile", "TotalCount", "1/(1-Percentile)"
    );
    let mut total = 0u64;
    if !h.is_empty() {
        for v in h.iter_quantiles(5) {
            total += v.count_since_last_iteration();
            let q = v.quantile_iterated_to();
            let value = v.value_iterated_to() as f64 / scale;
            if q < 1.0 {
                let _ = writeln!(
                    s,
                    "{value:12.3} {q:2.12} {total:10} {:14.2}",
                    1.0 / (1.0 - q)
                );
            } else {
                let _ = writeln!(s, "{value:12.3} {q:2.12} {total:10}");
            }
        }
    }
    let _ = writeln!(
        s,
        "#[Mean    = {:12.3}, StdDeviation   = {:12.3}]",
        h.mean() / scale,
        h.stdev() / scale
    );
    let _ = writeln!(
        s,
        "#[Max     = {:12.3}, Total count    = {:12}]",
        h.max() as f64 / scale,
        h.len()
    );
    let _ = writeln!(
        s,
        "#[Buckets = {:12}, SubBuckets     = {:12}]",
        h.buckets(),
        (2 * 10u64.pow(h.sigfig() as u32)).next_power_of_two()
    );
    s
}

/// Writes the interval log: one tagged histogram per strategy.
pub fn write_interval_log(
    w: &mut impl io::Write,
    start: SystemTime,
    entries: &[(&str, &Histogram<u64>, Duration)],
) -> io::Result<()> {
    let mut serializer = V2DeflateSerializer::new();
    let mut log = IntervalLogWriterBuilder::new()
        .add_comment("tilebench latency histograms, one interval per strategy (Tag=strategy), values in nanoseconds")
        .with_start_time(start)
        .begin_log_with(w, &mut serializer)?;
    let mut offset = Duration::ZERO;
    for (name, h, wall) in entries {
        log.write_histogram(h, offset, *wall, Tag::new(name))
            .map_err(|e| io::Error::other(format!("{e:?}")))?;
        offset += *wall;
    }
    Ok(())
}

/// Reads an interval log back: each interval's tag and histogram, exactly.
pub fn read_interval_log(bytes: &[u8]) -> Result<Vec<(String, Histogram<u64>)>, String> {
    use base64::Engine as _;
    use hdrhistogram::serialization::interval_log::{IntervalLogIterator, LogEntry};
    use hdrhistogram::serialization::Deserializer;
    let mut de = Deserializer::new();
    let mut out = Vec::new();
    for entry in IntervalLogIterator::new(bytes) {
        if let LogEntry::Interval(h) = entry.map_err(|e| format!("not an interval log: {e:?}"))? {
            let tag = h.tag().map_or_else(String::new, |t| t.as_str().to_string());
            let raw = base64::engine::general_purpose::STANDARD
                .decode(h.encoded_histogram())
                .map_err(|e| format!("histogram `{tag}`: bad base64: {e}"))?;
            let hist: Histogram<u64> = de
                .deserialize(&mut raw.as_slice())
                .map_err(|e| format!("histogram `{tag}`: cannot decode: {e:?}"))?;
            out.push((tag, hist));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_log_reads_back_exactly() {
        let mut a = crate::report::new_histogram();
        let mut b = crate::report::new_histogram();
        for v in [1u64, 70, 5_000, 123_456_789] {
            a.record(v).unwrap();
            b.record(v * 3).unwrap();
        }
        let mut bytes = Vec::new();
        let entries = [
            ("astar", &a, Duration::from_millis(3)),
            ("my-solver", &b, Duration::from_secs(2)),
        ];
        write_interval_log(&mut bytes, SystemTime::now(), &entries).unwrap();
        let back = read_interval_log(&bytes).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].0, "astar");
        assert_eq!(back[0].1, a);
        assert_eq!(back[1].0, "my-solver");
        assert_eq!(back[1].1, b);
    }
}
