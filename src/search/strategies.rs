//! The built-in strategies as values, for a plan built in code: choose one with
//! `RunPlan::with(strategies::IDASTAR)` instead of spelling its name. [`super::registry`]
//! looks them up by name and lists them.
//!
//! ```
//! use tilebench::search::{strategies, Config, Limits, Problem};
//! let p = Problem::new("2 3 4 1 5 x 7 6 8".parse()?, "1 2 3 4 5 6 7 8 x".parse()?)?;
//! let out = strategies::IDASTAR.solve_once(&Config::default(), &p, &Limits::default())?;
//! assert_eq!((strategies::IDASTAR.name, out.steps()), ("idastar", Some(19)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::Builtin;

/// Declares each strategy's constant and [`ALL`], the one list (in the order output rows use),
/// from one line per strategy.
macro_rules! strategies {
    ($($(#[$doc:meta])* $name:ident = $module:ident,)*) => {
        $($(#[$doc])* pub const $name: &Builtin = &super::$module::STRATEGY;)*
        /// Every built-in strategy, in the order output rows use.
        pub(crate) const ALL: &[Builtin] = &[$(super::$module::STRATEGY,)*];
        /// Each constant under its own name, for the test that holds the two together.
        #[cfg(test)]
        const NAMED: &[(&str, &Builtin)] = &[$((stringify!($name), $name),)*];
    };
}

strategies! {
    /// `bfs-set`: breadth-first search, repeated states in an ordered set.
    BFS_SET = bfs_set,
    /// `bfs-hash`: breadth-first search, repeated states in the articles' chained hash table.
    BFS_HASH = bfs_hash,
    /// `bfs-hashset`: breadth-first search, repeated states in a hash set.
    BFS_HASHSET = bfs_hashset,
    /// `bfs-rank`: breadth-first search, repeated states in a bitmap by permutation rank.
    BFS_RANK = bfs_rank,
    /// `bibfs`: bidirectional breadth-first search.
    BIBFS = bibfs,
    /// `astar`: A* with the run's heuristic.
    ASTAR = astar,
    /// `idastar`: IDA* with the run's heuristic.
    IDASTAR = idastar,
    /// `dida`: dual IDA* over a pattern database's dual boards.
    DIDA = dida,
    /// `idastar-tt`: IDA* with a transposition table.
    IDASTAR_TT = idastar_tt,
    /// `table`: exact distance tables built once per run.
    TABLE = table,
    /// `wastar`: weighted A*, paths at most w × the shortest.
    WASTAR = wastar,
    /// `greedy`: greedy best-first search, any path.
    GREEDY = greedy,
}

#[cfg(test)]
mod tests {
    /// Each constant is named after its strategy (`idastar-tt` is `IDASTAR_TT`), in the list's
    /// order, each strategy once, and the registry finds it by that name.
    #[test]
    fn the_constants_are_the_registry_s_strategies() {
        use super::*;
        assert_eq!(NAMED.len(), ALL.len());
        for ((constant, b), listed) in NAMED.iter().zip(ALL) {
            assert_eq!(*constant, b.name.to_ascii_uppercase().replace('-', "_"));
            assert_eq!(b.name, listed.name);
            let found = super::super::registry::find(b.name).map(|f| f.name);
            assert_eq!(found, Some(b.name));
        }
        let mut names: Vec<&str> = ALL.iter().map(|b| b.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ALL.len(), "a strategy listed twice");
        assert_eq!(IDASTAR.name, "idastar");
    }
}
