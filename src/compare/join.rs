//! compare's join: the runs' cases.csv files read side by side, a row at a time, and their
//! rows matched by key (input, id or line, strategy) without holding a run in memory.
//!
//! Each file is a [`Stream`]; the join reads next from the stream that is furthest behind
//! in (input, line) order, so the runs advance together case by case whatever strategies each
//! has. A row waits in a map by key, as its key and the few values compare reads ([`Val`]),
//! until every stream has given its row of that key (or ended): runs of one dataset, written
//! in input order then strategy order, keep that map at a case or two. Rows that do not line
//! up (a run with missing or extra rows, shards merged in another order, ids on other lines)
//! are still matched exactly; what waits is then what is out of step, and rows no other run
//! has wait until the end (a run that stopped early does not: once a stream has ended, rows
//! it lacks are settled as they come). Rows with one key in a run (a repeated id) are paired
//! in their order of appearance: the n-th with the n-th.

use super::sides::Side;
use crate::results::cases_csv::Rows;
use crate::results::record::RowStatus;
use std::collections::{HashMap, VecDeque};

/// A row's key: (input, id — or `line N` —, solver).
pub(crate) type Key = (String, String, String);

/// What compare reads of a row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Val {
    /// The row's place among the rows its run gives the join (lists are in this order).
    pub seq: u64,
    /// The row's line in its input file.
    pub line: u64,
    pub status: RowStatus,
    pub steps: Option<i64>,
    pub expanded: Option<u64>,
    pub generated: Option<u64>,
    pub latency_ns: Option<u64>,
}

/// One run's cases.csv, read a row at a time.
pub(crate) struct Stream {
    rows: Rows,
    /// `--strategies`: only this strategy's rows, under this label.
    pick: Option<(String, String)>,
    /// Inputs read under another path than the baseline's, renamed to the baseline's.
    rename: HashMap<String, String>,
    /// The inputs compared, by their rank in the baseline; rows of others are left out.
    ranks: HashMap<String, usize>,
    /// (input rank, line) of the last row given.
    pos: (usize, u64),
    /// Rows given.
    seq: u64,
    done: bool,
}

impl Stream {
    /// Opens `side`'s cases.csv; rows of inputs not in `ranks` are left out.
    pub(crate) fn open(side: &Side, ranks: &HashMap<String, usize>) -> Result<Stream, String> {
        Ok(Stream {
            rows: Rows::open(&side.path)?,
            pick: side.pick.clone(),
            rename: side.rename.clone(),
            ranks: ranks.clone(),
            pos: (0, 0),
            seq: 0,
            done: false,
        })
    }

    /// The next row compared, keyed.
    fn next(&mut self) -> Result<Option<(Key, Val)>, String> {
        for row in self.rows.by_ref() {
            let mut row = row?;
            if let Some((only, label)) = &self.pick {
                if row.strategy != *only {
                    continue;
                }
                row.strategy.clone_from(label);
            }
            if let Some(b) = self.rename.get(&row.input) {
                row.input.clone_from(b);
            }
            let Some(&rank) = self.ranks.get(&row.input) else {
                continue;
            };
            self.pos = (rank, row.line);
            self.seq += 1;
            let val = Val {
                seq: self.seq,
                line: row.line,
                status: row.status,
                steps: row.steps,
                expanded: row.expanded,
                generated: row.generated,
                latency_ns: row.latency_ns,
            };
            let which = if row.id.is_empty() {
                format!("line {}", row.line)
            } else {
                row.id
            };
            return Ok(Some(((row.input, which, row.strategy), val)));
        }
        Ok(None)
    }
}

/// The rows of one key that wait for their partners: a queue per stream.
struct Group {
    queues: Vec<VecDeque<Val>>,
}

/// Streams joined by key.
pub(crate) struct Join {
    streams: Vec<Stream>,
    waiting: HashMap<Key, Group>,
}

impl Join {
    pub(crate) fn new(streams: Vec<Stream>) -> Join {
        Join {
            streams,
            waiting: HashMap::new(),
        }
    }

    /// Whether `g` has a row from every stream that has not ended.
    fn ready(&self, g: &Group) -> bool {
        g.queues
            .iter()
            .zip(&self.streams)
            .all(|(q, s)| !q.is_empty() || s.done)
    }

    /// Hands `emit` the next row of `key` from each stream (`None` for a stream that ended
    /// without one), while every stream has one or has ended.
    fn settle(&mut self, key: &Key, emit: &mut impl FnMut(&Key, &[Option<Val>])) {
        while let Some(g) = self.waiting.get(key) {
            if g.queues.iter().all(VecDeque::is_empty) {
                self.waiting.remove(key);
                return;
            }
            if !self.ready(g) {
                return;
            }
            let g = self.waiting.get_mut(key).expect("a waiting key");
            let vals: Vec<Option<Val>> = g.queues.iter_mut().map(VecDeque::pop_front).collect();
            emit(key, &vals);
        }
    }

    /// Reads every stream to its end, handing `emit` each key's rows, one from each stream,
    /// in the streams' order (`None` where a stream has no such row).
    ///
    /// # Errors
    /// A row a stream cannot read (the message names the file and line).
    pub(crate) fn run(mut self, mut emit: impl FnMut(&Key, &[Option<Val>])) -> Result<(), String> {
        let n = self.streams.len();
        loop {
            let next = (0..n)
                .filter(|&i| !self.streams[i].done)
                .min_by_key(|&i| self.streams[i].pos);
            let Some(i) = next else {
                return Ok(());
            };
            let Some((key, val)) = self.streams[i].next()? else {
                self.streams[i].done = true;
                // Rows that waited for this stream's row wait no more; settled in order.
                let mut ready: Vec<((usize, u64), Key)> = self
                    .waiting
                    .iter()
                    .filter(|(_, g)| self.ready(g))
                    .filter_map(|(k, g)| {
                        let (s, q) = g.queues.iter().enumerate().find(|(_, q)| !q.is_empty())?;
                        Some(((s, q[0].seq), k.clone()))
                    })
                    .collect();
                ready.sort();
                for (_, key) in ready {
                    self.settle(&key, &mut emit);
                }
                continue;
            };
            if !self.waiting.contains_key(&key) {
                let group = Group {
                    queues: vec![VecDeque::new(); n],
                };
                self.waiting.insert(key.clone(), group);
            }
            let g = self.waiting.get_mut(&key).expect("inserted");
            g.queues[i].push_back(val);
            self.settle(&key, &mut emit);
        }
    }
}
