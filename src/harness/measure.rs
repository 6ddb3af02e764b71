//! Timing one solve: the one helper every solver's latency goes through.
//!
//! A case is solved `repeat` times; its latency is the median and the fastest is kept too.
//! Every repeat must give the same answer and counters (a solver that does not is reported,
//! not averaged). A panic inside a solver is caught and becomes the case's error.

use crate::puzzle::Move;
use crate::search::{Counters, Limits, Problem, Reply, Solver, Status};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

/// A solver's reply with its latencies.
#[derive(Clone, Debug)]
pub(crate) struct Measured {
    /// The reply (every repeat gave the same).
    pub reply: Reply,
    /// Median latency over the repeats, in nanoseconds; `None` when the solver could not
    /// measure it ([`crate::search::SelfReport::untimed`]).
    pub latency_ns: Option<u64>,
    /// Fastest of the repeats, in nanoseconds.
    pub latency_min_ns: Option<u64>,
    /// The most heap the solve held at once beyond what its thread held before it, the
    /// largest over the repeats, in bytes; `None` for a solver not [`Solver::in_process`]
    /// or without [`crate::memory::CountingAlloc`].
    pub peak_heap_bytes: Option<u64>,
}

/// What a repeat is compared on: the outcome and the line the solver printed (its
/// [`crate::search::SelfReport::note`]), not its latency or usage, which may differ.
fn same_answer(a: &Reply, b: &Reply) -> bool {
    fn key(
        r: &Reply,
    ) -> (
        Status,
        &Option<Vec<Move>>,
        Option<u64>,
        Counters,
        &Option<String>,
    ) {
        let o = &r.outcome;
        (
            o.status,
            &o.path,
            o.claimed_steps,
            o.counters(),
            &r.report.note,
        )
    }
    key(a) == key(b)
}

/// How an answer reads in a message about repeats.
fn shown(r: &Reply) -> String {
    let o = &r.outcome;
    let c = o.counters();
    let answer = match (&r.report.note, o.steps()) {
        (Some(n), _) => n.clone(),
        (None, Some(s)) => format!("{} in {s} moves", o.status.as_str()),
        (None, None) => o.status.as_str().to_string(),
    };
    let count = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
    format!(
        "{answer}, expanded {} generated {}",
        count(c.expanded),
        count(c.generated)
    )
}

/// The text of a caught panic.
pub(crate) fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// Solves `problem` with `solver` `repeat` times (at least once) within `limits`.
///
/// # Errors
/// The solver's error, its panic, or word that repeats gave different answers; each a
/// sentence that starts with the solver's name.
pub(crate) fn measure(
    solver: &dyn Solver,
    problem: &Problem,
    limits: &Limits,
    repeat: u32,
) -> Result<Measured, String> {
    let repeats = repeat.max(1) as usize;
    let (mut one, mut many) = ([0u64; 1], Vec::new());
    let times: &mut [u64] = if repeats == 1 {
        &mut one
    } else {
        many.resize(repeats, 0);
        &mut many
    };
    let name = solver.name();
    let mut first: Option<Reply> = None;
    let heap = solver.in_process() && crate::memory::counting();
    let mut peak_heap: Option<u64> = None;
    for slot in times.iter_mut() {
        // The heap's mark is taken outside the clock, and read after it stops.
        let mark = crate::memory::begin_case();
        let t0 = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| solver.reply(problem, limits)));
        let wall = t0.elapsed();
        if heap {
            let p = crate::memory::peak_since(mark);
            peak_heap = peak_heap.max(p);
        }
        let reply = match result {
            Ok(Ok(r)) => r,
            // A row's message is as the command line has always written it (cases.csv
            // keeps it): an option named by its flag.
            Ok(Err(e)) => return Err(format!("{name}: {}", e.message_with_flags())),
            Err(panic) => return Err(format!("{name} panicked: {}", panic_text(&*panic))),
        };
        *slot = reply.report.latency.unwrap_or(wall).as_nanos() as u64;
        match &first {
            None => first = Some(reply),
            Some(f) if !same_answer(f, &reply) => {
                return Err(format!(
                    "{name} is not deterministic: repeats gave different answers ({} then {}); \
                     --repeat needs the same answer and counters every time",
                    shown(f),
                    shown(&reply)
                ));
            }
            Some(_) => {}
        }
    }
    times.sort_unstable();
    let reply = first.expect("at least one repeat");
    let timed = !reply.report.untimed;
    Ok(Measured {
        reply,
        latency_ns: timed.then(|| times[times.len() / 2]),
        latency_min_ns: timed.then(|| times[0]),
        peak_heap_bytes: peak_heap,
    })
}
