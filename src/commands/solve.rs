//! `tilebench solve`: the seed articles' programs as a command.

use super::{CmdResult, BAD_INPUT, OK};
use crate::cli::SolveArgs;
use std::io::{BufRead, Write};
use std::time::Instant;
use tilebench::puzzle::{Board, Move};
use tilebench::search::astar::Weight;
use tilebench::search::{registry, Config, Limits, Outcome, Prepare, Problem, Solver, Status};

/// The configuration the run-wide flags give: the defaults of every strategy that reads them.
pub fn config_of(
    exhaustive: bool,
    (heuristic, weight): (tilebench::search::heuristic::HeuristicKind, Weight),
    pdb: &crate::cli::PdbOptions,
) -> Result<Config, String> {
    let mut config = Config {
        exhaustive,
        ..Config::default()
    };
    config.set(&tilebench::search::heuristic::HEURISTIC, heuristic.name())?;
    config.set(&tilebench::search::wastar::WEIGHT, &weight.to_string())?;
    super::pdb::options(pdb).apply(&mut config)?;
    Ok(config)
}

/// One board to solve: a label for messages, the start text, the goal text if the input
/// gives one.
type Job = (String, String, Option<String>);

pub fn run(args: SolveArgs) -> CmdResult {
    args.pdb.check_used_by(args.heuristic)?;
    let builtin = registry::lookup(&args.strategy).map_err(|e| e.to_string())?;
    let goal = args
        .goal
        .as_deref()
        .map(|g| {
            Board::parse(g, args.size)
                .map_err(|e| format!("--goal `{g}`: {}", e.message_with_flags()))
        })
        .transpose()?;
    let config = config_of(args.exhaustive, (args.heuristic, args.weight), &args.pdb)?;
    let strategy = builtin.build(&config);
    let terminal = super::terminal::Terminal::new(true);
    let mut session = Session {
        strategy,
        ctx: Prepare {
            threads: 1,
            problems: &[],
            observer: &terminal,
        },
        limits: Limits::default(),
        goal,
        args: &args,
    };
    let jobs = read_jobs(&args)?;

    let mut out = std::io::stdout().lock();
    let mut code = OK;
    let answered = jobs.into_iter().try_for_each(|job| {
        if !session.solve(job, &mut out)? {
            code = BAD_INPUT;
        }
        Ok(())
    });
    super::stdout_written(answered.map(|()| code))
}

/// The boards to solve: the arguments, or else the lines (or pairs of lines) of stdin.
fn read_jobs(args: &SolveArgs) -> Result<Vec<Job>, String> {
    if !args.boards.is_empty() {
        return Ok(args
            .boards
            .iter()
            .enumerate()
            .map(|(i, b)| (format!("board {}", i + 1), b.clone(), None))
            .collect());
    }
    let stdin = std::io::stdin();
    let lines: Vec<(usize, String)> = stdin
        .lock()
        .lines()
        .enumerate()
        .map(|(i, l)| l.map(|l| (i + 1, l)))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    if !args.pairs {
        // One answer line per input line: a blank line's is blank.
        return Ok(lines
            .into_iter()
            .map(|(n, l)| (format!("stdin line {n}"), l, None))
            .collect());
    }
    // Pairs: blank lines only separate them.
    let lines: Vec<(usize, String)> = lines
        .into_iter()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let mut jobs = Vec::new();
    for pair in lines.chunks(2) {
        let (n, start) = &pair[0];
        let goal = pair.get(1).map(|(_, g)| g.clone());
        if goal.is_none() {
            return Err(format!(
                "stdin line {n}: a start with no goal line after it (--pairs reads a start line, then a goal line)"
            ));
        }
        jobs.push((format!("stdin line {n}"), start.clone(), goal));
    }
    Ok(jobs)
}

/// One strategy solving the boards one after another, answers on stdout.
struct Session<'a> {
    strategy: Box<dyn Solver>,
    ctx: Prepare<'a>,
    limits: Limits,
    /// --goal, for boards given without a goal.
    goal: Option<Board>,
    args: &'a SolveArgs,
}

impl Session<'_> {
    /// Solves one board and writes its answer line (a blank line for a blank input line);
    /// false when it could not be solved.
    fn solve(
        &mut self,
        (label, start_text, goal_text): Job,
        out: &mut impl Write,
    ) -> std::io::Result<bool> {
        if start_text.trim().is_empty() {
            writeln!(out)?;
            return Ok(true);
        }
        let problem = match self.problem(&label, &start_text, goal_text.as_deref()) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                writeln!(out, "invalid")?;
                return Ok(false);
            }
        };
        // A start that is the goal, or of the other parity, is answered without a search, so
        // without the tables a search would need (building the 4x4 pattern databases takes a
        // minute). Otherwise tables (`table`, pattern databases) are built or loaded before
        // the clock starts, as `run` does, so --stats latency is the search alone.
        let outcome = match tilebench::search::shortcut(&problem, self.args.exhaustive) {
            Some(answered) => Ok((answered, Instant::now())),
            None => self
                .strategy
                .prepare(&[problem.goal], &self.ctx)
                .map(|()| Instant::now())
                .and_then(|t0| Ok((self.strategy.solve(&problem, &self.limits)?, t0))),
        };
        let (outcome, t0) = match outcome {
            Ok(o) => o,
            Err(e) => {
                eprintln!("error: {label}: {}", super::flags::solve_in_flags(&e));
                writeln!(out, "error")?;
                return Ok(false);
            }
        };
        let elapsed_us = t0.elapsed().as_secs_f64() * 1e6;
        writeln!(out, "{}", answer(&outcome, self.args.steps))?;
        if self.args.stats {
            self.print_stats(&label, &outcome, elapsed_us);
        }
        Ok(true)
    }

    /// The problem a job names: its start, and its goal, --goal or the standard goal.
    fn problem(
        &self,
        label: &str,
        start_text: &str,
        goal_text: Option<&str>,
    ) -> Result<Problem, String> {
        let start = Board::parse(start_text, self.args.size)
            .map_err(|e| format!("{label}: start: {}", e.message_with_flags()))?;
        let goal = match goal_text {
            Some(g) => {
                Board::parse(g, Some(start.shape())).map_err(|e| format!("{label}: goal: {e}"))?
            }
            None => self
                .goal
                .unwrap_or_else(|| Board::standard_goal(start.shape())),
        };
        Problem::new(start, goal).map_err(|e| format!("{label}: {e}"))
    }

    /// The --stats line on stderr: the strategy, the answer, its counters and latency.
    fn print_stats(&self, label: &str, outcome: &Outcome, latency_us: f64) {
        let s = &outcome.stats;
        eprintln!(
            "{label}: strategy={} status={} steps={} expanded={} generated={} stored={} peak_frontier={} latency_us={:.1}",
            self.strategy.name(),
            outcome.status.as_str(),
            outcome.steps().map_or("-".into(), |n| n.to_string()),
            s.expanded,
            s.generated,
            s.stored,
            s.peak_frontier,
            latency_us
        );
    }
}

/// The answer line: the moves (or the step count with --steps), `unsolvable` or `limit`.
fn answer(outcome: &Outcome, steps: bool) -> String {
    match (outcome.status, steps) {
        (Status::Solved, false) => Move::path_string(outcome.path.as_deref().unwrap_or(&[])),
        (Status::Solved, true) => outcome.steps().unwrap_or(0).to_string(),
        (Status::Unsolvable, false) => "unsolvable".into(),
        (Status::Unsolvable, true) => "-1".into(),
        (Status::Limit, _) => "limit".into(),
    }
}
