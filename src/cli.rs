//! The command line (clap derive). Each subcommand's work is in `commands/`.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use tilebench::dataset::rows::Rows;
use tilebench::dataset::shard::Shard;
use tilebench::external::protocol::{Spawn, Stdout};
use tilebench::puzzle::Shape;
use tilebench::report::Format;
use tilebench::search::astar::Weight;
use tilebench::search::heuristic::HeuristicKind;
use tilebench::search::pdb::LookupMode;

/// A parser that lists `names` in the help and parses the chosen one with `FromStr`.
fn one_of<T>(names: Vec<&'static str>) -> impl TypedValueParser<Value = T>
where
    T: std::str::FromStr + Clone + Send + Sync + 'static,
    T::Err: std::fmt::Display,
{
    PossibleValuesParser::new(names).try_map(|s| s.parse::<T>().map_err(|e| e.to_string()))
}

/// `run --order`: how the solvers take turns at the cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnOrder {
    /// Small turns, the solvers in a seeded random order at each.
    Shuffled,
    /// Each solver over a whole block of cases, in the order given.
    Blocked,
}

impl std::str::FromStr for TurnOrder {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "shuffled" => Ok(TurnOrder::Shuffled),
            "blocked" => Ok(TurnOrder::Blocked),
            _ => Err(format!("`{s}` is not an order: shuffled or blocked")),
        }
    }
}

fn heuristics() -> impl TypedValueParser<Value = HeuristicKind> {
    one_of(HeuristicKind::ALL.iter().map(|h| h.name()).collect())
}

fn weight(s: &str) -> Result<Weight, String> {
    s.parse()
}

fn strategies() -> impl TypedValueParser<Value = String> {
    PossibleValuesParser::new(tilebench::search::registry::names())
}

/// A parser of whole numbers from `min` to `max` (counts, sizes, seeds). Its refusal, which
/// clap prints after the option's name, gives the range.
fn whole<T>(min: u64, max: u64) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
{
    move |s: &str| {
        s.trim()
            .parse::<u64>()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .and_then(|n| T::try_from(n).ok())
            .ok_or_else(|| format!("give a whole number from {min} to {max}"))
    }
}

/// A number from `min` to `max` (NaN and infinities refused), for the parsers below.
fn real(s: &str, min: f64, max: f64) -> Option<f64> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| (min..=max).contains(x))
}

/// The longest `--timeout`: about 11.6 days, far beyond any one case (and far from where a
/// deadline would overflow the clock).
const MAX_SECONDS: f64 = 1_000_000.0;

/// A number of seconds from a microsecond to [`MAX_SECONDS`].
fn seconds(s: &str) -> Result<f64, String> {
    real(s, 1e-6, MAX_SECONDS).ok_or_else(|| {
        format!("give a number of seconds from 0.000001 to {MAX_SECONDS} (about 11 days)")
    })
}

/// A fraction from 0 to 1.
fn fraction(s: &str) -> Result<f64, String> {
    real(s, 0.0, 1.0).ok_or_else(|| "give a fraction from 0 to 1, e.g. 0.1".to_string())
}

/// The largest percentage a threshold takes: a 10,000-fold increase.
const MAX_PERCENT: f64 = 1_000_000.0;

/// A percentage from 0 to [`MAX_PERCENT`].
fn percent(s: &str) -> Result<f64, String> {
    real(s, 0.0, MAX_PERCENT)
        .ok_or_else(|| format!("give a percentage from 0 to {MAX_PERCENT}, e.g. 5 for 5%"))
}

/// The most worker threads `-j` takes.
const MAX_THREADS: u64 = 1024;

/// The most buckets `--hash-buckets` takes (4 bytes each: 400 MB).
const MAX_HASH_BUCKETS: u64 = 100_000_000;

/// The longest random walk `gen --walk` takes.
const MAX_WALK: u64 = 1_000_000;

/// The most times `--repeat` solves a case.
const MAX_REPEAT: u64 = 1_000_000;

fn shape(s: &str) -> Result<Shape, String> {
    s.parse()
        .map_err(|e: tilebench::puzzle::ShapeError| e.to_string())
}

/// A directory given on the command line: not empty (an empty one would mean the current
/// directory, where nobody means to cache 288 MB of tables).
fn directory(s: &str) -> Result<PathBuf, String> {
    if s.trim().is_empty() {
        return Err(
            "the directory is empty; give a path (or leave the option out for the \
             default)"
                .into(),
        );
    }
    Ok(PathBuf::from(s))
}

fn allow_limit(s: &str) -> Result<String, String> {
    tilebench::check::AllowLimit::entry(s)
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

fn shard(s: &str) -> Result<Shard, String> {
    s.parse()
}

/// A rows spec; refused, as the command line says it (the rows are `--rows`; cli.rs stands
/// alone, as tests/all/args.rs includes it, so the mapping is here, not in commands/flags.rs).
fn rows(s: &str) -> Result<Rows, String> {
    s.parse().map_err(|e: String| {
        e.replacen(
            "(rows are counted, not ids)",
            "(--rows counts rows, not ids)",
            1,
        )
    })
}

fn export(s: &str) -> Result<(&'static Format, PathBuf), String> {
    let (name, file) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}`: write FORMAT=FILE, e.g. markdown=summary.md"))?;
    if file.is_empty() {
        return Err(format!("`{s}`: no file after `=`"));
    }
    let format = tilebench::report::format(name).map_err(|e| e.to_string())?;
    Ok((format, PathBuf::from(file)))
}

fn compare_export(
    s: &str,
) -> Result<(&'static tilebench::compare::render::Format, PathBuf), String> {
    let (name, file) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}`: write FORMAT=FILE, e.g. markdown=compare.md"))?;
    if file.is_empty() {
        return Err(format!("`{s}`: no file after `=`"));
    }
    let format = tilebench::compare::render::format(name).map_err(|e| e.to_string())?;
    Ok((format, PathBuf::from(file)))
}

/// compare's `--export` long help: every format with its line.
fn compare_export_help() -> String {
    let mut s = String::from(
        "Also write the comparison in FORMAT to FILE (repeatable), e.g. \
         --export markdown=compare.md\n",
    );
    for f in tilebench::compare::render::FORMATS {
        s.push_str(&format!("\n  {:17} {}", f.name, f.describe));
    }
    s
}

/// `--export`'s long help: every format with its line.
fn export_help() -> String {
    let mut s = String::from(
        "Also write the per-solver summary in FORMAT to FILE (repeatable), e.g. \
         --export markdown=summary.md\n",
    );
    for f in tilebench::report::FORMATS {
        s.push_str(&format!("\n  {:17} {}", f.name, f.describe));
    }
    s
}

/// The description under `--help`, with the strategies from the registry.
fn long_about() -> String {
    format!(
        "Benchmark sliding-tile puzzle solvers over whole datasets.\n\n\
         Strategies: {}.\n\
         Boards are written row by row, blank as x, 0 or _: \"1 2 3 x 4 6 7 5 8\".\n\
         Moves name where the blank goes: u, d, l, r.",
        tilebench::search::registry::names().join(", ")
    )
}

/// `run --strategy`'s long help: every strategy with its line.
fn strategy_help() -> String {
    let mut s = String::from(
        "Strategies: a comma-separated list, `all`, `list` (print them and exit), or `none` to \
         run only --solver programs (default: every optimal strategy that fits the boards)\n",
    );
    for b in tilebench::search::registry::all() {
        s.push_str(&format!("\n  {:12} {}", b.name, b.describe));
    }
    s
}

#[derive(Parser, Debug)]
#[command(
    name = "tilebench",
    version,
    about = "Benchmark sliding-tile puzzle solvers (8-puzzle, 15-puzzle) over whole datasets",
    long_about = long_about(),
    after_help = "Start with: tilebench run inputs/random-1k.csv"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve boards given as arguments or on stdin (one per line), like the seed articles' programs
    Solve(SolveArgs),
    /// Solve every row of CSV datasets with every strategy; write cases.csv, summary.csv, histograms
    Run(Box<RunArgs>),
    /// Write a dataset of random pairs with exact expected_steps
    Gen(GenArgs),
    /// Census of a board's state space: states at each distance from a goal
    Space(SpaceArgs),
    /// Compare two runs: exit 1 on a correctness or work regression
    Compare(CompareArgs),
    /// Check a run's results: replay paths, agreement between optimal strategies, sane counters
    Verify(VerifyArgs),
    /// Draw SVG charts of one or more runs: latency percentiles, expanded by length, throughput
    Plot(PlotArgs),
    /// One self-contained HTML page of one or more runs: summaries, paired comparisons, charts
    Report(ReportArgs),
    /// The tables papers print: coverage, aggregates per input, size or depth, per task, a ranking
    Table(TableArgs),
    /// Combine the outputs of `run --shard I/N` runs into one run, as if it had run whole
    Merge(MergeArgs),
    /// Build (or check) the pattern databases of a board and goal ahead of a run
    Pdb(PdbArgs),
}

#[derive(Args, Debug)]
pub struct PdbArgs {
    /// What to do: `build` loads the tables, building and caching any that are missing or damaged; `verify` checks every byte of their files against the checksums, building nothing (exit 1 if one is missing or damaged)
    #[arg(value_parser = ["build", "verify"])]
    pub action: String,
    /// Datasets (CSV, as `run` reads them): build exactly the tables their goals need
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
    /// Board shape (default: that of a square --goal, else 4x4); with FILEs, the shape of rows whose cell count does not fix it
    #[arg(long, value_parser = shape)]
    pub size: Option<Shape>,
    /// The goal whose blank cell the tables are for (default: tiles in order, blank last); with FILEs, the goal of rows without one
    #[arg(long, short = 'g')]
    pub goal: Option<String>,
    #[command(flatten)]
    pub pdb: PdbOptions,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Boards to solve; with none, boards are read from stdin, one per line
    pub boards: Vec<String>,
    /// The goal (default: tiles in order, blank last)
    #[arg(long, short = 'g')]
    pub goal: Option<String>,
    /// Board shape, for boards whose cell count does not fix it
    #[arg(long, value_parser = shape)]
    pub size: Option<Shape>,
    /// Strategy to use
    #[arg(long, short = 's', default_value = "astar", value_parser = strategies())]
    pub strategy: String,
    /// Print the number of moves (or -1 when unsolvable) instead of the moves
    #[arg(long)]
    pub steps: bool,
    /// Read stdin as pairs of lines: a start, then its goal (the third article's input)
    #[arg(long)]
    pub pairs: bool,
    /// Print counters and time to stderr
    #[arg(long)]
    pub stats: bool,
    /// Search unsolvable pairs to exhaustion instead of answering by parity
    #[arg(long)]
    pub exhaustive: bool,
    /// Heuristic of the informed strategies (astar, idastar, wastar, greedy): manhattan, linear-conflict, walking-distance, walking-distance-lc or pdb
    #[arg(long, default_value = "manhattan", value_parser = heuristics())]
    pub heuristic: HeuristicKind,
    /// Weight of wastar, which ranks states by g + weight × h: at least 1 (plain A*), at most 1000, up to three decimals
    #[arg(long, value_name = "W", default_value = "1.5", value_parser = weight)]
    pub weight: Weight,
    #[command(flatten)]
    pub pdb: PdbOptions,
}

#[derive(Args, Debug, Clone)]
#[command(allow_negative_numbers = true)]
pub struct RunArgs {
    /// CSV datasets (`-` = stdin); with none, a small built-in dataset (the seed samples)
    pub files: Vec<String>,
    /// Strategies: a comma-separated list, `all`, `list` or `none` (default: every optimal strategy that fits the boards), or a configuration `[LABEL=]NAME:KEY=VALUE[:KEY=VALUE]` (repeatable)
    #[arg(long, short = 's', long_help = strategy_help())]
    pub strategy: Vec<String>,
    /// Multiply every configuration of -s that takes KEY (and does not set it) by each value: `--sweep heuristic=manhattan,linear-conflict` (repeatable)
    #[arg(long, value_name = "KEY=V1,V2,...", requires = "strategy")]
    pub sweep: Vec<String>,
    /// Also benchmark an external program, run as `sh -c COMMAND`, under the strategy name NAME (repeatable)
    #[arg(long = "solver", value_name = "NAME=COMMAND")]
    pub solvers: Vec<String>,
    /// What --solver programs read and write: `moves` (a start line in; a move string or `unsolvable` out) or `steps` (a start line and a goal line in; a number of moves or -1 out); SOLVER=PROTOCOL for one program (repeatable)
    #[arg(long, value_name = "[SOLVER=]PROTOCOL")]
    pub solver_protocol: Vec<String>,
    /// How the blank is written to --solver programs: x or 0; SOLVER=TOKEN for one program (repeatable)
    #[arg(long, value_name = "[SOLVER=]TOKEN")]
    pub solver_blank: Vec<String>,
    /// What --solver programs' paths promise, which --check holds them to: `optimal` (the default: the shortest), `within=W` (at most W × the shortest) or `valid` (any path to the goal); SOLVER=CLAIM for one program (repeatable)
    #[arg(long, value_name = "[SOLVER=]CLAIM")]
    pub solver_claim: Vec<String>,
    /// How --solver programs run: `persistent` (one process per worker thread reads case after case), `per-case` (one process per case) or `batch` (one process reads every case, stdin closed)
    #[arg(long, value_name = "MODE", default_value = "persistent", value_parser = one_of::<Spawn>(vec!["persistent", "per-case", "batch"]))]
    pub solver_spawn: Spawn,
    /// What a persistent --solver program's stdout is: `auto` (a pipe; a pseudo-terminal for a program that holds its answers in a buffer), `pipe` or `pty`
    #[arg(long, value_name = "KIND", default_value = "auto", value_parser = one_of::<Stdout>(vec!["auto", "pipe", "pty"]))]
    pub solver_stdout: Stdout,
    /// Grade --solver programs as a judge would: any stdout line that is not an answer alone (a debug line, `Case 1: …`, an empty line, an answer without its line end) makes the row an error, instead of being skipped with a notice
    #[arg(long)]
    pub solver_strict: bool,
    /// Worker threads, 0 to 1024 (default and 0: one per core)
    #[arg(long, short = 'j', value_name = "N", value_parser = whole::<usize>(0, MAX_THREADS))]
    pub threads: Option<usize>,
    /// In which order the solvers take turns at the cases: `shuffled` (small turns of cases, the solvers in a seeded random order at each, so that slow drift of the machine falls on all alike) or `blocked` (each solver over 65,536 cases at a time, in the order given); rows are written in the same order either way
    #[arg(long, value_name = "ORDER", default_value = "shuffled", value_parser = one_of::<TurnOrder>(vec!["shuffled", "blocked"]))]
    pub order: TurnOrder,
    /// The seed of --order shuffled's turns (recorded in run.json)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = whole::<u64>(0, u64::MAX))]
    pub seed: u64,
    /// Output directory (default: `results/run-<UTC timestamp>`)
    #[arg(long, short = 'o')]
    pub out: Option<PathBuf>,
    /// Overwrite an earlier run in --out
    #[arg(long, conflicts_with = "resume")]
    pub force: bool,
    /// Finish an interrupted run in --out DIR: solve only the cases its journal lacks (same files and options required)
    #[arg(long)]
    pub resume: bool,
    /// Run only shard I of N: the cases whose 0-based index i has i mod N = I-1 (combine the shards with `tilebench merge`)
    #[arg(long, value_name = "I/N", value_parser = shard)]
    pub shard: Option<Shard>,
    /// Run only these data rows, by number counted from 1 under the header (not by id), over the inputs in order: e.g. 38,40 or 1-10,17 (--shard then splits them)
    #[arg(long, value_name = "SPEC", value_parser = rows)]
    pub rows: Option<Rows>,
    /// Keep every path's move string in cases.csv (needed by `verify` to replay paths)
    #[arg(long)]
    pub paths: bool,
    /// Exit 1 unless every row is verified: its answer equals expected_steps (or, without one, another optimal strategy's answer or the reference optimum), with the path replayed; limit, error and unconfirmed rows fail
    #[arg(long)]
    pub check: bool,
    /// With --check: accept up to N `limit` rows from the solvers not named (`all`: any number), or from one solver with SOLVER=N|all (repeatable)
    #[arg(long, value_name = "[SOLVER=]N|all", requires = "check", value_parser = allow_limit)]
    pub allow_limit: Vec<String>,
    /// No progress bar and no table on stdout
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Search unsolvable pairs to exhaustion instead of answering by parity
    #[arg(long)]
    pub exhaustive: bool,
    /// Solve each case K times (1 to 1000000); latency_ns is the median, latency_min_ns the fastest
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = whole::<u32>(1, MAX_REPEAT))]
    pub repeat: u32,
    /// Stop a case after expanding N states (at least 1; status `limit`)
    #[arg(long, value_name = "N", value_parser = whole::<u64>(1, u64::MAX))]
    pub max_nodes: Option<u64>,
    /// Stop a case after SECONDS of search (0.000001 to 1000000; status `limit`); a --solver program is killed (and restarted)
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub timeout: Option<f64>,
    /// Most distinct states one search may store (at least 1; a memory guard; status `limit` beyond it)
    #[arg(long, value_name = "N", default_value_t = tilebench::search::DEFAULT_MAX_STATES, value_parser = whole::<u64>(1, u64::MAX))]
    pub max_states: u64,
    /// Most heap a case may hold, in bytes, with suffix K, M, G or T (e.g. 512M; status `limit`, reason `memory`); a --solver program gets it as its address-space limit
    #[arg(long, value_name = "BYTES", value_parser = tilebench::memory::parse_bytes)]
    pub max_memory: Option<u64>,
    /// Heuristic of the informed strategies (astar, idastar, wastar, greedy): manhattan, linear-conflict, walking-distance, walking-distance-lc or pdb
    #[arg(long, default_value = "manhattan", value_parser = heuristics())]
    pub heuristic: HeuristicKind,
    /// Weight of wastar, which ranks states by g + weight × h: at least 1 (plain A*), at most 1000, up to three decimals
    #[arg(long, value_name = "W", default_value = "1.5", value_parser = weight)]
    pub weight: Weight,
    #[command(flatten)]
    pub pdb: PdbOptions,
    /// Buckets of bfs-hash's chained table (1 to 100000000)
    #[arg(long, value_name = "N", default_value_t = 1_000_003, value_parser = whole::<usize>(1, MAX_HASH_BUCKETS))]
    pub hash_buckets: usize,
    /// Board shape for rows without a `size` column (e.g. 3x4)
    #[arg(long, value_parser = shape)]
    pub size: Option<Shape>,
    /// Goal for rows without one (default: tiles in order, blank last)
    #[arg(long, short = 'g')]
    pub goal: Option<String>,
    /// Also write the per-solver summary in FORMAT to FILE (repeatable; see --help for the formats)
    #[arg(long = "export", value_name = "FORMAT=FILE", long_help = export_help(), value_parser = export)]
    pub exports: Vec<(&'static Format, PathBuf)>,
    /// The same as --export markdown=FILE
    #[arg(long, value_name = "FILE")]
    pub export_markdown: Option<PathBuf>,
    /// The same as --export bmf=FILE
    #[arg(long, value_name = "FILE")]
    pub export_bmf: Option<PathBuf>,
    /// The same as --export github-benchmark=FILE
    #[arg(long, value_name = "FILE")]
    pub export_github_benchmark: Option<PathBuf>,
    /// Also save this run as a named baseline under results/baselines/NAME
    #[arg(long, value_name = "NAME")]
    pub save_baseline: Option<String>,
}

#[derive(Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct GenArgs {
    /// Number of pairs, at least 1 (ignored with --per-depth)
    #[arg(long, short = 'n', value_name = "N", default_value_t = 100, value_parser = whole::<u64>(1, u64::MAX))]
    pub count: u64,
    /// Board shape
    #[arg(long, default_value = "3x3", value_parser = shape)]
    pub size: Shape,
    /// Goal: `standard` (tiles in order, blank last), `random` (a new random goal per pair), or a board
    #[arg(long, short = 'g', default_value = "standard")]
    pub goal: String,
    /// Fraction of pairs that are unsolvable (0 to 1)
    #[arg(long, value_name = "FRACTION", default_value_t = 0.0, value_parser = fraction)]
    pub unsolvable: f64,
    /// Only pairs whose optimal length is D (0 to 255)
    #[arg(long, value_name = "D", conflicts_with = "per_depth", value_parser = whole::<u8>(0, 255))]
    pub depth: Option<u8>,
    /// K pairs (at least 1) at each optimal length from 0 to the largest
    #[arg(long, value_name = "K", value_parser = whole::<u64>(1, u64::MAX))]
    pub per_depth: Option<u64>,
    /// Make starts by random walks of N moves (0 to 1000000) from the goal instead of uniform sampling
    #[arg(long, value_name = "N", conflicts_with_all = ["depth", "per_depth"], value_parser = whole::<usize>(0, MAX_WALK))]
    pub walk: Option<usize>,
    /// Random seed: the same seed gives the same dataset
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = whole::<u64>(0, u64::MAX))]
    pub seed: u64,
    /// Write to FILE instead of stdout
    #[arg(long, short = 'o')]
    pub out: Option<PathBuf>,
}

#[derive(Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct SpaceArgs {
    /// Board shape
    #[arg(long, default_value = "3x3", value_parser = shape)]
    pub size: Shape,
    /// Goal (default: tiles in order, blank last)
    #[arg(long, short = 'g')]
    pub goal: Option<String>,
    /// How many of the farthest states to list on stderr
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = whole::<usize>(0, u64::MAX))]
    pub farthest: usize,
}

#[derive(Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct CompareArgs {
    /// BASELINE CURRENT [MORE…]: results directories or their cases.csv, or directories of
    /// replicate runs; each is compared against the first (or --reference). With --baseline,
    /// the runs compared with the saved baseline; with --strategies, one RESULTS
    #[arg(value_name = "RESULTS", required = true)]
    pub runs: Vec<PathBuf>,
    /// Use the saved baseline results/baselines/NAME as BASELINE
    #[arg(long = "baseline", value_name = "NAME")]
    pub baseline_name: Option<String>,
    /// Allowed increase of expanded/generated, in percent (0 to 1000000), per strategy and per case
    #[arg(long, value_name = "PERCENT", default_value_t = 0.0, value_parser = percent)]
    pub max_work_increase: f64,
    /// Gate latency: the allowed slow-down in percent; a strategy regresses only when the whole
    /// 95% interval of a paired ratio (per case, p50 or p99) lies above it (default: shown,
    /// not gated)
    #[arg(long, value_name = "PERCENT", value_parser = percent)]
    pub max_latency_increase: Option<f64>,
    /// Latency changes smaller than this, in percent (0 to 1000000), are noise whatever the
    /// interval says
    #[arg(long, value_name = "PERCENT", default_value_t = 2.0, value_parser = percent)]
    pub noise_threshold: f64,
    /// Compare strategies of one run (or of replicate runs), case by case: A,B compares A
    /// against B; with more, each against the last (or --reference)
    #[arg(long, value_name = "A,B,…", value_delimiter = ',')]
    pub strategies: Option<Vec<String>>,
    /// The side every other is compared against: a run (as given, or its directory's name),
    /// or with --strategies a strategy (default: the first run, the last strategy)
    #[arg(long, value_name = "NAME")]
    pub reference: Option<String>,
    /// Compare every pair of runs (or strategies), not only each against the reference
    #[arg(long)]
    pub all_pairs: bool,
    /// Also write the comparison in FORMAT to FILE (repeatable): markdown, json, junit
    #[arg(long = "export", value_name = "FORMAT=FILE", long_help = compare_export_help(), value_parser = compare_export)]
    pub exports: Vec<(&'static tilebench::compare::render::Format, PathBuf)>,
    /// The same as --export markdown=FILE
    #[arg(long, value_name = "FILE")]
    pub export_markdown: Option<PathBuf>,
    /// The same as --export json=FILE
    #[arg(long, value_name = "FILE")]
    pub export_json: Option<PathBuf>,
    /// How many per-case differences to list
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = whole::<usize>(0, u64::MAX))]
    pub show: usize,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shards' output directories (every shard of one --shard I/N split, in any order)
    #[arg(value_name = "DIR", required = true)]
    pub shards: Vec<PathBuf>,
    /// Output directory of the merged run
    #[arg(long, short = 'o')]
    pub out: PathBuf,
    /// Overwrite an earlier run in --out
    #[arg(long)]
    pub force: bool,
    /// No table on stdout
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct VerifyArgs {
    /// A results directory or its cases.csv
    pub results: PathBuf,
    /// How many failures to list
    #[arg(long, value_name = "N", default_value_t = 50, value_parser = whole::<usize>(0, u64::MAX))]
    pub show: usize,
    /// Accept solved rows without a path (a run made without --paths): verify the rest, and
    /// exit 0 if it is right
    #[arg(long)]
    pub no_paths: bool,
}

#[derive(Args, Debug)]
pub struct PlotArgs {
    /// Results directories written by `tilebench run` (several are overlaid on each chart)
    #[arg(value_name = "RESULTS", required = true)]
    pub runs: Vec<PathBuf>,
    /// Where to write latency.svg, expanded-by-length.svg and throughput.svg (created if
    /// missing; default: the RESULTS directory when there is one, required for several)
    #[arg(long, short = 'o', value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub pairs: PairArgs,
}

/// Which solvers `plot` and `report` compare (scatter charts, paired comparisons).
#[derive(Args, Debug)]
pub struct PairArgs {
    /// The solver every other one (of every run) is compared with: SOLVER when one run alone
    /// holds that name, else RUN/SOLVER; or RUN: each solver against its namesake there [default:
    /// the first run when runs share solver names, else the first solver]
    #[arg(long, value_name = "NAME", conflicts_with = "all_pairs")]
    pub reference: Option<String>,
    /// Compare every pair of solvers instead of each with the reference
    #[arg(long)]
    pub all_pairs: bool,
    /// The most pairs compared and drawn; those beyond are left out and named
    #[arg(long, value_name = "N", default_value_t = tilebench::plot::select::DEFAULT_MAX_PAIRS, value_parser = whole::<usize>(1, 1_000_000))]
    pub max_pairs: usize,
}

impl PairArgs {
    /// The library's selection.
    pub fn selection(&self) -> tilebench::plot::select::Selection {
        tilebench::plot::select::Selection {
            reference: self.reference.clone(),
            all_pairs: self.all_pairs,
            max_pairs: self.max_pairs,
        }
    }
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Results directories written by `tilebench run`: every solver of every run is compared
    /// with the reference (see --reference), or every pair with --all-pairs
    #[arg(value_name = "RESULTS", required = true)]
    pub runs: Vec<PathBuf>,
    #[command(flatten)]
    pub pairs: PairArgs,
    /// The HTML file to write
    #[arg(long, short = 'o', value_name = "FILE", default_value = "report.html")]
    pub out: PathBuf,
    /// The page's title (default: the runs' names)
    #[arg(long)]
    pub title: Option<String>,
}

#[derive(Args, Debug)]
pub struct TableArgs {
    /// Results directories written by `tilebench run`, or their cases.csv; solvers of the same name in two runs are labelled RUN/SOLVER
    #[arg(value_name = "RESULTS", required = true)]
    pub runs: Vec<PathBuf>,
    /// What the rows are: `input` (the dataset file), `size` (the board) or `depth` (the optimal length)
    #[arg(long, value_name = "BY", default_value = "input", value_parser = PossibleValuesParser::new(tilebench::table::GroupBy::NAMES).try_map(|s| s.parse::<tilebench::table::GroupBy>()))]
    pub by: tilebench::table::GroupBy,
    /// A table of ATTRIBUTE[:AGGREGATE] per row and solver (repeatable, or comma-separated), e.g. coverage, expanded:gmean, latency:p50, suboptimality:mean [default: coverage,expanded:gmean,latency:gmean unless --per-task or --rank]
    #[arg(
        long,
        short = 'a',
        value_name = "ATTRIBUTE[:AGGREGATE]",
        value_delimiter = ','
    )]
    pub attribute: Vec<String>,
    /// Also a table of every task × solver for this attribute
    #[arg(long, value_name = "ATTRIBUTE")]
    pub per_task: Option<String>,
    /// Also the ranking: solvers by right answers, then optimal answers, then median time, with how each was timed
    #[arg(long)]
    pub rank: bool,
    /// Output format
    #[arg(long, short = 'f', default_value = "md", value_parser = PossibleValuesParser::new(tilebench::table::render::names()))]
    pub format: String,
    /// Write to FILE instead of stdout
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Where pattern databases are cached and how the tiles are grouped (`run`, `solve`, `pdb`).
#[derive(Args, Debug, Clone, Default)]
pub struct PdbOptions {
    /// Pattern databases: cache directory (default: $TILEBENCH_PDB_DIR, else $XDG_CACHE_HOME/tilebench/pdb, else ~/.cache/tilebench/pdb)
    #[arg(long, value_name = "DIR", value_parser = directory)]
    pub pdb_dir: Option<PathBuf>,
    /// Pattern databases: group sizes, e.g. 7-8, 6-6-3 or 5-5-5 (default: 7-8 on 4x4, else groups of 6, then the rest)
    #[arg(long, value_name = "SIZES")]
    pub pdb_partition: Option<String>,
    /// Pattern databases: the lookups whose largest sum is the estimate: `regular` (the board), `reflected` (also its mirror image), `dual` (also its dual board), `max` (all four) [default: max]
    #[arg(long, value_name = "MODE", value_parser = one_of::<LookupMode>(LookupMode::ALL.iter().map(|m| m.name()).collect()))]
    pub pdb_lookup: Option<LookupMode>,
}

impl PdbOptions {
    /// Refuses pattern-database options that `heuristic` would ignore: only `--heuristic pdb`
    /// reads them, so given without it they would change nothing, silently.
    pub fn check_used_by(&self, heuristic: HeuristicKind) -> Result<(), String> {
        if heuristic == HeuristicKind::Pdb {
            return Ok(());
        }
        let given = [
            self.pdb_partition
                .as_ref()
                .map(|p| format!("--pdb-partition {p}")),
            self.pdb_dir
                .as_ref()
                .map(|d| format!("--pdb-dir {}", d.display())),
            self.pdb_lookup
                .map(|m| format!("--pdb-lookup {}", m.name())),
        ];
        match given.into_iter().flatten().next() {
            Some(option) => Err(format!(
                "{option} is for pattern databases, which only --heuristic pdb uses (astar and \
                 idastar use {} now): add --heuristic pdb, or drop {}",
                heuristic.name(),
                option.split(' ').next().unwrap_or(&option)
            )),
            None => Ok(()),
        }
    }
}
