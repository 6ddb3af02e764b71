//! Latency histograms on disk.
//!
//! - `latency-<strategy>.hgrm`: HdrHistogram's percentile distribution text (the format of
//!   Java's `outputPercentileDistribution`), values in **microseconds**, which existing
//!   HdrHistogram plotters read.
//! - `latency.hlog`: every strategy's histogram, exactly, in HdrHistogram's interval log format
//!   (V2 + deflate, base64), one interval per strategy tagged with its name, so runs can be
//!   merged without loss.

use base64::Engine as _;
use hdrhistogram::serialization::interval_log::{
    IntervalLogIterator, IntervalLogWriterBuilder, IntervalLogWriterError, LogEntry,
    LogIteratorError, Tag,
};
use hdrhistogram::serialization::{Deserializer, V2DeflateSerializer};
use hdrhistogram::Histogram;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// The percentile distribution text, values scaled from ns to µs.
pub(crate) fn percentile_text(h: &Histogram<u64>) -> String {
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

/// Writes the interval log: one tagged histogram per strategy. `entries` are (strategy,
/// histogram in ns, pass wall time); the intervals follow one another from `start`.
///
/// # Errors
/// A write to `w` that fails, or a histogram that cannot be serialized.
pub(crate) fn write_interval_log(
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
            .map_err(|e| match e {
                IntervalLogWriterError::IoError(e) => e,
                IntervalLogWriterError::SerializeError(e) => {
                    io::Error::other(format!("the {name} histogram cannot be serialized: {e}"))
                }
            })?;
        offset += *wall;
    }
    Ok(())
}

/// Why an interval log cannot be read ([`read_interval_log`]): the message names the file
/// (and the line or histogram) and says what to do.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LogError {
    /// The file cannot be read.
    #[error("cannot read {}: {}", .path.display(), crate::util::io_reason(.source))]
    Read {
        /// The file.
        path: std::path::PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is empty, a line is not an interval-log line, or a histogram has no tag or
    /// does not decode.
    #[error("{}: {}{reason}; the file is damaged: rerun the `tilebench run` that wrote it (`plot` reads latency from cases.csv instead when the file is deleted)", .path.display(), .histogram.map(|n| format!("histogram {n}: ")).unwrap_or_default())]
    Damaged {
        /// The file.
        path: std::path::PathBuf,
        /// The 1-based line, for a line that is not an interval-log line.
        line: Option<u64>,
        /// The 1-based histogram, for one that has no tag or does not decode.
        histogram: Option<usize>,
        /// What is wrong.
        reason: String,
    },
}

impl LogError {
    /// The file.
    pub fn path(&self) -> &Path {
        match self {
            LogError::Read { path, .. } | LogError::Damaged { path, .. } => path,
        }
    }

    /// The 1-based line, where the reader can tell.
    pub fn line(&self) -> Option<u64> {
        match self {
            LogError::Damaged { line, .. } => *line,
            LogError::Read { .. } => None,
        }
    }
}

/// Readers that still report a sentence take this one as it reads.
impl From<LogError> for String {
    fn from(e: LogError) -> String {
        e.to_string()
    }
}

/// Reads an interval log back: every tagged histogram, exactly, summed per tag (a log may
/// hold several intervals of one solver). The one reader `plot` and `merge` use.
///
/// # Errors
/// The file cannot be read, or a line is not an interval-log line, has no tag, or does not
/// decode; the message names the file and the line, and says what to do.
pub fn read_interval_log(path: &Path) -> Result<BTreeMap<String, Histogram<u64>>, LogError> {
    let bytes = std::fs::read(path).map_err(|source| LogError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse_interval_log(&bytes, path)
}

/// [`read_interval_log`] of bytes already read from `path` (named in messages).
///
/// # Errors
/// As [`read_interval_log`].
pub(crate) fn parse_interval_log(
    bytes: &[u8],
    path: &Path,
) -> Result<BTreeMap<String, Histogram<u64>>, LogError> {
    let mut out: BTreeMap<String, Histogram<u64>> = BTreeMap::new();
    let mut deserializer = Deserializer::new();
    let damaged = |line: Option<u64>, histogram: Option<usize>, reason: String| LogError::Damaged {
        path: path.to_path_buf(),
        line,
        histogram,
        reason,
    };
    if bytes.is_empty() {
        return Err(damaged(
            None,
            None,
            "the file is empty (0 bytes), probably cut short by an interrupted write".into(),
        ));
    }
    for (i, entry) in IntervalLogIterator::new(bytes).enumerate() {
        let at = |what: String| damaged(None, Some(i + 1), what);
        let interval = match entry {
            Ok(LogEntry::Interval(h)) => h,
            Ok(_) => continue,
            Err(LogIteratorError::ParseError { offset }) => {
                let line = bytes[..offset.min(bytes.len())]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count()
                    + 1;
                return Err(damaged(
                    Some(line as u64),
                    None,
                    format!(
                        "line {line} is not an interval log line (a `#` comment, or \
                     `Tag=NAME,start,length,max,histogram`)"
                    ),
                ));
            }
        };
        let tag = interval
            .tag()
            .map(|t| t.as_str().to_string())
            .ok_or_else(|| {
                at("a histogram without a Tag= (tilebench tags each with its strategy)".into())
            })?;
        let raw = base64::engine::general_purpose::STANDARD
            .decode(interval.encoded_histogram())
            .map_err(|e| at(format!("Tag={tag}: not base64 ({e})")))?;
        let h: Histogram<u64> = deserializer
            .deserialize(&mut raw.as_slice())
            .map_err(|e| at(format!("Tag={tag}: cannot be decoded ({e})")))?;
        match out.get_mut(&tag) {
            Some(acc) => acc.add(&h).map_err(|e| {
                at(format!(
                    "Tag={tag}: cannot be added to the earlier {tag} histogram ({e})"
                ))
            })?,
            None => {
                out.insert(tag, h);
            }
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
        let back = parse_interval_log(&bytes, Path::new("latency.hlog")).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back["astar"], a);
        assert_eq!(back["my-solver"], b);
        // A damaged line is named, as a user reads it.
        let mut bad = bytes.clone();
        bad.extend_from_slice(b"not,an,interval\n");
        let e = parse_interval_log(&bad, Path::new("latency.hlog")).unwrap_err();
        let lines = u64::try_from(bytes.iter().filter(|&&b| b == b'\n').count()).unwrap();
        assert_eq!(e.line(), Some(lines + 1));
        assert_eq!(e.path(), Path::new("latency.hlog"));
        let e = e.to_string();
        assert!(
            e.starts_with(&format!(
                "latency.hlog: line {} is not an interval log line",
                lines + 1
            )),
            "{e}"
        );
        assert!(!e.contains("ParseError"), "{e}");
    }

    #[test]
    fn damaged_logs_are_described_in_sentences() {
        let path = Path::new("shard/latency.hlog");
        // Valid base64 that is not a histogram: the decoder's reason, as a sentence.
        let bad = b"#a comment\nTag=astar,0.000,1.000,1.000,AAAAAAAAAAA=\n";
        let e = parse_interval_log(bad, path).unwrap_err();
        assert!(
            matches!(
                e,
                LogError::Damaged {
                    histogram: Some(1),
                    line: None,
                    ..
                }
            ),
            "{e:?}"
        );
        let e = e.to_string();
        assert!(
            e.starts_with(
                "shard/latency.hlog: histogram 1: Tag=astar: cannot be decoded (The cookie"
            ),
            "{e}"
        );
        assert!(!e.contains("InvalidCookie"), "{e}");
        // An empty file (an interrupted write) says so.
        let e = parse_interval_log(b"", path).unwrap_err().to_string();
        assert!(e.contains("the file is empty (0 bytes)"), "{e}");
        assert!(e.contains("rerun the `tilebench run` that wrote it"), "{e}");
        // A file that cannot be read says why in words.
        let e = read_interval_log(Path::new("/nonexistent/latency.hlog")).unwrap_err();
        assert!(
            matches!(&e, LogError::Read { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
        );
        assert_eq!(
            e.to_string(),
            "cannot read /nonexistent/latency.hlog: no such file or directory"
        );
    }
}
