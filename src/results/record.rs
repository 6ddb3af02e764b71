//! One record per case × strategy: what every report is made from.

use crate::search::{LimitReason, Status};

/// A solver's name in a record: text kept in place when short (the type of a row's id).
pub use crate::dataset::Id as Name;
use serde::Serialize;

/// The status column: a search status, or why there was no search.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RowStatus {
    /// A path was found (an external program's answer was judged right).
    Solved,
    /// The goal cannot be reached from the start, and the solver said so.
    Unsolvable,
    /// A node, state or time budget ran out before an answer.
    Limit,
    /// The input row could not be read.
    Invalid,
    /// The strategy failed on this case (refused the board, or panicked; an external program
    /// crashed, printed something that is not an answer, or could not be asked).
    Error,
    /// An external program's answer is wrong: an illegal move, a path that does not reach the
    /// goal, `unsolvable` for a solvable pair (or an answer for an unsolvable one), or a step
    /// count that differs from the optimum.
    Wrong,
}

impl RowStatus {
    /// Every status, in the order above.
    pub const ALL: [RowStatus; 6] = [
        RowStatus::Solved,
        RowStatus::Unsolvable,
        RowStatus::Limit,
        RowStatus::Invalid,
        RowStatus::Error,
        RowStatus::Wrong,
    ];

    /// The value of the `status` column: `solved`, `unsolvable`, `limit`, `invalid`, `error`
    /// or `wrong`.
    pub fn as_str(self) -> &'static str {
        match self {
            RowStatus::Solved => "solved",
            RowStatus::Unsolvable => "unsolvable",
            RowStatus::Limit => "limit",
            RowStatus::Invalid => "invalid",
            RowStatus::Error => "error",
            RowStatus::Wrong => "wrong",
        }
    }
    /// Whether a solver ran to an answer or a budget (and so has a latency, and counters when
    /// the solver reports them).
    pub fn searched(self) -> bool {
        matches!(
            self,
            RowStatus::Solved | RowStatus::Unsolvable | RowStatus::Limit | RowStatus::Wrong
        )
    }
    /// Whether the row is an answer judged right (`solved` or `unsolvable`): the rows that
    /// count toward latency and throughput. `wrong`, `error`, `limit` and `invalid` rows are
    /// counted beside them, never as speed.
    pub fn answered(self) -> bool {
        matches!(self, RowStatus::Solved | RowStatus::Unsolvable)
    }
}

impl std::str::FromStr for RowStatus {
    type Err = String;
    fn from_str(s: &str) -> Result<RowStatus, String> {
        RowStatus::ALL
            .into_iter()
            .find(|st| st.as_str() == s)
            .ok_or_else(|| format!("`{s}` is not a row status"))
    }
}

impl From<Status> for RowStatus {
    fn from(s: Status) -> RowStatus {
        match s {
            Status::Solved => RowStatus::Solved,
            Status::Unsolvable => RowStatus::Unsolvable,
            Status::Limit => RowStatus::Limit,
        }
    }
}

pub use crate::search::Counters;

/// The result of one strategy on one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Index of the case in the run's case list.
    pub case: usize,
    /// The solver's name: a built-in strategy, an external program or a user's solver (kept
    /// in place when short, as a row's id is: a record is made for every case and read back
    /// for every row of cases.csv, and a name on the heap cost two allocations a row).
    pub strategy: Name,
    /// How the case ended for this solver.
    pub status: RowStatus,
    /// Moves in the path found (solved), −1 when unsolvable, `None` otherwise. On `wrong`
    /// rows, what the program claimed (its path's length, its number, or −1).
    pub steps: Option<i64>,
    /// Whether `steps` equals the case's `expected_steps`; `None` when there is nothing to compare.
    pub matches_expected: Option<bool>,
    /// Solvers that are not optimal by construction: whether a valid path is as short as the
    /// optimum; `None` for the others and when there is nothing to judge.
    pub optimal: Option<bool>,
    /// The optimum where it is known: the one a judged answer was compared with
    /// (`expected_steps`, or astar's length), or a solved row's `expected_steps`.
    pub optimum_steps: Option<u64>,
    /// The work counters the solver reported.
    pub counters: Counters,
    /// Median wall time of the solve alone over the repeats, in nanoseconds; `None` where it
    /// cannot be measured (a program run in batch mode).
    pub latency_ns: Option<u64>,
    /// Fastest of the repeats, in nanoseconds.
    pub latency_min_ns: Option<u64>,
    /// A process run for this case alone: its CPU time (user + system), in microseconds.
    pub cpu_us: Option<u64>,
    /// A process run for this case alone: its peak resident memory, in kilobytes.
    pub max_rss_kb: Option<u64>,
    /// An in-process solver: the most heap the case held at once, in bytes.
    pub peak_heap_bytes: Option<u64>,
    /// The move string (kept only with `--paths`).
    pub path: Option<String>,
    /// Why the row is invalid, an error or wrong, or a note on an external answer; empty otherwise.
    pub message: String,
    /// A `limit` row: which budget ran out, where known.
    pub limit_reason: Option<LimitReason>,
}

impl Record {
    /// A record with no result yet: status `invalid`, nothing measured.
    pub fn empty(case: usize, strategy: &str) -> Record {
        Record {
            case,
            strategy: Name::from(strategy),
            status: RowStatus::Invalid,
            steps: None,
            matches_expected: None,
            optimal: None,
            optimum_steps: None,
            counters: Counters::default(),
            latency_ns: None,
            latency_min_ns: None,
            cpu_us: None,
            max_rss_kb: None,
            peak_heap_bytes: None,
            path: None,
            message: String::new(),
            limit_reason: None,
        }
    }

    /// A path's steps ÷ its optimum, in ten-thousandths (rounded): 10,000 is a shortest
    /// path. For solved rows, and `wrong` ones whose valid path was over its solver's claim
    /// (`optimal` false); `None` for the others and when the optimum is not known.
    pub fn suboptimality_e4(&self) -> Option<u64> {
        let valid = match self.status {
            RowStatus::Solved => true,
            RowStatus::Wrong => self.optimal == Some(false),
            _ => false,
        };
        if !valid {
            return None;
        }
        let steps = u64::try_from(self.steps?).ok()?;
        match self.optimum_steps? {
            0 => (steps == 0).then_some(10_000),
            best => {
                let q = (steps as u128 * 10_000 + best as u128 / 2) / best as u128;
                u64::try_from(q).ok()
            }
        }
    }

    /// [`Record::suboptimality_e4`] as a number (`1.5`: half as long again as the shortest).
    pub fn suboptimality(&self) -> Option<f64> {
        self.suboptimality_e4().map(|q| q as f64 / 10_000.0)
    }

    /// Compares a result with the expected answer (−1 = unsolvable).
    pub fn compare(status: RowStatus, steps: Option<i64>, expected: Option<i64>) -> Option<bool> {
        let e = expected?;
        match status {
            RowStatus::Solved | RowStatus::Unsolvable => Some(steps == Some(e)),
            _ => None,
        }
    }
}

/// A column of cases.csv. The one list every format is derived from: cases.csv writes
/// [`Column::CASES_CSV`]; the journal writes the case's index and then the columns a record
/// fills ([`Column::of_record`]), in the same order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// The dataset file.
    Input,
    /// The row's line in it.
    Line,
    /// The row's id.
    Id,
    /// The solver.
    Strategy,
    /// The start board.
    Start,
    /// The goal board.
    Goal,
    /// The row's status.
    Status,
    /// Moves in the answer (−1: unsolvable).
    Steps,
    /// The dataset's answer.
    ExpectedSteps,
    /// Whether `steps` equals `expected_steps`.
    MatchesExpected,
    /// Whether a judged answer is shortest.
    Optimal,
    /// States expanded.
    Expanded,
    /// States generated.
    Generated,
    /// States stored.
    Stored,
    /// The largest frontier.
    PeakFrontier,
    /// Median latency, ns.
    LatencyNs,
    /// Fastest latency, ns.
    LatencyMinNs,
    /// The move string.
    Path,
    /// Why the row is not solved, or a note.
    Message,
    /// CPU time of a process run for the case alone, µs.
    CpuUs,
    /// Peak memory of a process run for the case alone, KB.
    MaxRssKb,
    /// The optimum, where known.
    OptimumSteps,
    /// Steps ÷ optimum of a solved row.
    Suboptimality,
    /// Which budget a `limit` row ran out of.
    LimitReason,
    /// What the solver promises about its paths.
    Claim,
    /// The most heap an in-process solve held at once, bytes.
    PeakHeapBytes,
    /// The board's shape, `WxH` (empty for an invalid row).
    Size,
    /// The built-in strategy the solver runs (`external` for a program); the option columns
    /// follow ([`crate::search::configuration::columns`]).
    Algorithm,
}

impl Column {
    /// cases.csv's columns, in order.
    pub const CASES_CSV: [Column; 28] = [
        Column::Input,
        Column::Line,
        Column::Id,
        Column::Strategy,
        Column::Start,
        Column::Goal,
        Column::Status,
        Column::Steps,
        Column::ExpectedSteps,
        Column::MatchesExpected,
        Column::Optimal,
        Column::Expanded,
        Column::Generated,
        Column::Stored,
        Column::PeakFrontier,
        Column::LatencyNs,
        Column::LatencyMinNs,
        Column::Path,
        Column::Message,
        Column::CpuUs,
        Column::MaxRssKb,
        Column::OptimumSteps,
        Column::Suboptimality,
        Column::LimitReason,
        Column::Claim,
        Column::PeakHeapBytes,
        Column::Size,
        Column::Algorithm,
    ];

    /// The header name.
    pub const fn name(self) -> &'static str {
        match self {
            Column::Input => "input",
            Column::Line => "line",
            Column::Id => "id",
            Column::Strategy => "strategy",
            Column::Start => "start",
            Column::Goal => "goal",
            Column::Status => "status",
            Column::Steps => "steps",
            Column::ExpectedSteps => "expected_steps",
            Column::MatchesExpected => "matches_expected",
            Column::Optimal => "optimal",
            Column::Expanded => "expanded",
            Column::Generated => "generated",
            Column::Stored => "stored",
            Column::PeakFrontier => "peak_frontier",
            Column::LatencyNs => "latency_ns",
            Column::LatencyMinNs => "latency_min_ns",
            Column::Path => "path",
            Column::Message => "message",
            Column::CpuUs => "cpu_us",
            Column::MaxRssKb => "max_rss_kb",
            Column::OptimumSteps => "optimum_steps",
            Column::Suboptimality => "suboptimality",
            Column::LimitReason => "limit_reason",
            Column::Claim => "claim",
            Column::PeakHeapBytes => "peak_heap_bytes",
            Column::Size => "size",
            Column::Algorithm => "algorithm",
        }
    }

    /// Whether a [`Record`] holds the value (the others come from the case, or from the solver:
    /// its claim and configuration).
    pub const fn of_record(self) -> bool {
        !matches!(
            self,
            Column::Input
                | Column::Line
                | Column::Id
                | Column::Start
                | Column::Goal
                | Column::ExpectedSteps
                | Column::Claim
                | Column::Size
                | Column::Algorithm
        )
    }

    /// Whether the column's text can come from outside the program (a file name, an id, a
    /// solver's name or message, an invalid row's boards as written) and so may need quotes
    /// in CSV; the others are numbers, flags, statuses and boards tilebench formats.
    pub const fn free_text(self) -> bool {
        matches!(
            self,
            Column::Input
                | Column::Id
                | Column::Strategy
                | Column::Start
                | Column::Goal
                | Column::Path
                | Column::Message
        )
    }

    /// Whether the value is a measurement, left empty on rows that did not search.
    pub const fn measured(self) -> bool {
        matches!(
            self,
            Column::Expanded
                | Column::Generated
                | Column::Stored
                | Column::PeakFrontier
                | Column::LatencyNs
                | Column::LatencyMinNs
                | Column::CpuUs
                | Column::MaxRssKb
                | Column::PeakHeapBytes
        )
    }

    /// The columns a record fills, in order.
    pub fn of_records() -> impl Iterator<Item = Column> {
        Column::OF_RECORDS.iter().copied()
    }

    /// [`Column::of_records`] as an array, made once from [`Column::CASES_CSV`].
    const OF_RECORDS: [Column; Column::RECORD_COLUMNS] = {
        let mut out = [Column::Input; Column::RECORD_COLUMNS];
        let (mut i, mut n) = (0, 0);
        while i < Column::CASES_CSV.len() {
            if Column::CASES_CSV[i].of_record() {
                out[n] = Column::CASES_CSV[i];
                n += 1;
            }
            i += 1;
        }
        assert!(
            n == Column::RECORD_COLUMNS,
            "RECORD_COLUMNS counts the record's columns"
        );
        out
    };

    /// How many of [`Column::CASES_CSV`] a record fills.
    const RECORD_COLUMNS: usize = {
        let (mut i, mut n) = (0, 0);
        while i < Column::CASES_CSV.len() {
            n += Column::CASES_CSV[i].of_record() as usize;
            i += 1;
        }
        n
    };
}

impl Record {
    /// This record's value in `column` (one it fills), as cases.csv writes it; numbers are
    /// formatted in `num`.
    pub fn value<'a>(
        &'a self,
        column: Column,
        num: &'a mut itoa::Buffer,
    ) -> std::borrow::Cow<'a, str> {
        if column == Column::Suboptimality {
            return self
                .suboptimality_e4()
                .map_or(String::new(), crate::util::ratio_text)
                .into();
        }
        let flag = |b: Option<bool>| match b {
            Some(true) => "true",
            Some(false) => "false",
            None => "",
        };
        let c = &self.counters;
        let count = match column {
            Column::Expanded => c.expanded,
            Column::Generated => c.generated,
            Column::Stored => c.stored,
            Column::PeakFrontier => c.peak_frontier,
            Column::LatencyNs => self.latency_ns,
            Column::LatencyMinNs => self.latency_min_ns,
            Column::CpuUs => self.cpu_us,
            Column::MaxRssKb => self.max_rss_kb,
            Column::PeakHeapBytes => self.peak_heap_bytes,
            Column::OptimumSteps => self.optimum_steps,
            _ => None,
        };
        std::borrow::Cow::Borrowed(match column {
            Column::Strategy => &self.strategy,
            Column::Status => self.status.as_str(),
            Column::Steps => self.steps.map_or("", |s| num.format(s)),
            Column::MatchesExpected => flag(self.matches_expected),
            Column::Optimal => flag(self.optimal),
            Column::Path => self.path.as_deref().unwrap_or(""),
            Column::LimitReason => self.limit_reason.map_or("", LimitReason::as_str),
            Column::Message => &self.message,
            _ => count.map_or("", |v| num.format(v)),
        })
    }

    /// Appends the record's cells from `matches_expected` to `limit_reason` (the columns
    /// after `expected_steps` in [`Column::CASES_CSV`]) as cases.csv writes them: the
    /// [`Column::measured`] values left empty on a row that did not search. One value after
    /// another, in the columns' order, without a walk of the columns: cases.csv takes a
    /// million of these a second (a test holds them to [`Record::value`] column by column).
    #[inline]
    pub(crate) fn write_tail(&self, row: &mut crate::util::CsvRow) {
        let keep = self.status.searched();
        let measured = |v: Option<u64>| v.filter(|_| keep);
        let c = &self.counters;
        row.flag(self.matches_expected);
        row.flag(self.optimal);
        row.maybe(measured(c.expanded));
        row.maybe(measured(c.generated));
        row.maybe(measured(c.stored));
        row.maybe(measured(c.peak_frontier));
        row.maybe(measured(self.latency_ns));
        row.maybe(measured(self.latency_min_ns));
        row.field(self.path.as_deref().unwrap_or(""));
        row.field(&self.message);
        row.maybe(measured(self.cpu_us));
        row.maybe(measured(self.max_rss_kb));
        row.maybe(self.optimum_steps);
        row.ratio(self.suboptimality_e4());
        row.plain(self.limit_reason.map_or("", LimitReason::as_str));
    }

    /// Appends the record's cells after `claim` (the case's solver's), as
    /// [`Record::write_tail`] does: `peak_heap_bytes`.
    #[inline]
    pub(crate) fn write_last(&self, row: &mut crate::util::CsvRow) {
        row.maybe(self.peak_heap_bytes.filter(|_| self.status.searched()));
    }

    /// Appends the `steps` cell (empty for none).
    #[inline]
    pub(crate) fn write_steps(&self, row: &mut crate::util::CsvRow) {
        match self.steps {
            Some(s) => row.signed(s),
            None => row.plain(""),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `write_tail` (and `write_steps`) write, value after value, what [`Record::value`]
    /// gives column by column: cases.csv's cells (measurements empty on rows that did not
    /// search), read back by the csv crate.
    #[test]
    fn the_tail_is_each_columns_value_in_order() {
        let tail = || {
            Column::of_records()
                .skip_while(|&c| c != Column::MatchesExpected)
                .collect::<Vec<_>>()
        };
        // The record's columns from `matches_expected` on: `write_tail`'s, then (after the
        // case's `claim`, not a record's) `write_last`'s.
        assert_eq!(tail().len(), 16);
        let numbers = [None, Some(0), Some(7), Some(10), Some(99), Some(u64::MAX)];
        let mut checked = 0;
        for status in RowStatus::ALL {
            for (k, n) in numbers.into_iter().enumerate() {
                let mut r = Record::empty(3, "s");
                r.status = status;
                r.steps = [
                    None,
                    Some(-1),
                    Some(0),
                    Some(i64::MAX),
                    Some(i64::MIN),
                    Some(42),
                ][k];
                r.matches_expected = [None, Some(true), Some(false)][k % 3];
                r.optimal = [Some(false), None, Some(true)][k % 3];
                r.optimum_steps = numbers[(k + 1) % numbers.len()];
                r.counters = Counters {
                    expanded: n,
                    generated: numbers[(k + 2) % numbers.len()],
                    stored: n,
                    peak_frontier: Some(k as u64 * 1000),
                };
                (r.latency_ns, r.latency_min_ns) = (n, Some(123_456_789));
                (r.cpu_us, r.max_rss_kb) = (numbers[(k + 3) % numbers.len()], n);
                r.peak_heap_bytes = numbers[(k + 4) % numbers.len()];
                r.path = [None, Some(String::new()), Some("udlr".repeat(80))][k % 3].clone();
                r.message = ["", "a \"message\", on\r\ntwo lines \\ here", "plain"][k % 3].into();
                r.limit_reason = [None, Some(LimitReason::Time), Some(LimitReason::Memory)][k % 3];
                let mut num = itoa::Buffer::new();
                let mut want = vec![r.value(Column::Steps, &mut num).to_string()];
                for column in tail() {
                    let v = r.value(column, &mut num).to_string();
                    want.push(if column.measured() && !status.searched() {
                        String::new()
                    } else {
                        v
                    });
                }
                let mut bytes = Vec::new();
                let mut row = crate::util::CsvRow::new(&mut bytes);
                r.write_steps(&mut row);
                r.write_tail(&mut row);
                r.write_last(&mut row);
                row.end();
                let mut rd = csv::ReaderBuilder::new()
                    .has_headers(false)
                    .from_reader(bytes.as_slice());
                let got: Vec<String> = rd
                    .records()
                    .next()
                    .unwrap()
                    .unwrap()
                    .iter()
                    .map(str::to_string)
                    .collect();
                assert_eq!(got, want, "{status:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 6 * 6);
    }

    /// The columns that are not [`Column::free_text`] are written without a look at their
    /// bytes ([`crate::util::CsvRow::plain`]): no value a record can hold in them needs
    /// quotes, whatever its status, steps, flags and numbers.
    #[test]
    fn only_free_text_columns_can_need_quotes() {
        let numbers = [None, Some(0), Some(7), Some(u64::MAX)];
        let mut seen = 0;
        for status in RowStatus::ALL {
            for (k, n) in numbers.into_iter().enumerate() {
                let mut r = Record::empty(3, "a,\"b\"");
                r.status = status;
                r.steps = [None, Some(-1), Some(0), Some(i64::MAX)][k];
                r.matches_expected = [None, Some(true), Some(false), None][k];
                r.optimal = [Some(false), None, Some(true), None][k];
                r.optimum_steps = n;
                r.counters = Counters {
                    expanded: n,
                    generated: n,
                    stored: n,
                    peak_frontier: n,
                };
                (r.latency_ns, r.latency_min_ns, r.cpu_us, r.max_rss_kb) = (n, n, n, n);
                r.peak_heap_bytes = n;
                r.path = Some("u,d\n".into());
                r.message = "a \"message\", on\r\ntwo lines".into();
                let mut num = itoa::Buffer::new();
                for column in Column::of_records() {
                    let text = r.value(column, &mut num).to_string();
                    let special = text.contains([',', '"', '\n', '\r']);
                    assert_eq!(special, column.free_text(), "{column:?}: {text:?}");
                    seen += 1;
                }
            }
        }
        assert_eq!(seen, 6 * 4 * Column::of_records().count());
    }
}
