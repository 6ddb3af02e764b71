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
