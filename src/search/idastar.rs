//! `idastar`: iterative-deepening A* (Korf, 1985).
//!
//! Depth-first searches bounded by `f = g + h`, the bound raised each iteration to the
//! smallest `f` that exceeded it. Memory is the path alone. Moves are applied and undone in
//! place on one packed board, and the heuristic is updated incrementally. A move that makes
//! the path end in a duplicate move sequence is never generated ([`PRUNE`]: `fsm`, the
//! default, the machine of [`super::fsm`]; `parent`, the move straight back only).
//!
//! With `prune=parent` counting follows Korf's 1985 experiments, so that with the Manhattan
//! heuristic the totals on his 100 instances equal the published ones: children are
//! generated in the blank-move order up, left, right, down; `generated` counts every child
//! generated over all iterations (Korf's "nodes generated" is `generated + 1`, the root); the
//! search stops at the first goal found. `expanded` counts nodes whose children were
//! generated, over all iterations. With `fsm` the same, less the children the machine
//! refuses.
//!
//! With an inconsistent heuristic (a pattern database's dual lookups) the search propagates
//! estimates between parents and children (BPMX, `Search::dfs_bpmx`), making a child's
//! costly lookups only where the cheap ones leave it within the bound, or, where the
//! heuristic asks for it ([`Heuristic::eager`]), every child's before searching any; with a
//! consistent one it is the plain search above, whose counts are Korf's.

use super::fsm::{Fsm, Prune, PRUNE};
use super::heuristic::{Ahead, Heuristic};
use super::transpositions::{Seen, Transpositions};
use super::{Budget, Outcome, Problem, SolveOptions, Stats, Status};
use crate::puzzle::{Move, Neighbors};

struct Search<'a, H: Heuristic> {
    h: &'a H,
    neighbors: Neighbors,
    /// `children[blank][last]`: how many children a node has (the move back excluded), the
    /// lengths of `Neighbors::children`'s lists in a table of their own, which is faster than
    /// reading the lists (docs/performance-history.md, "Figures moved from the code").
    children: [[u8; 5]; 16],
    /// `on_board[blank]`: the moves that stay on the board, as bits `1 << m`.
    on_board: [u8; 16],
    shape: crate::puzzle::Shape,
    goal: u64,
    bound: u32,
    next_bound: u32,
    /// The solution's moves, pushed while the recursion unwinds from the goal (reversed).
    path: Vec<u8>,
    stats: Stats,
    budget: Budget,
    /// Dual IDA*: jump to a dual board where the heuristic offers one ([`Heuristic::jump`]).
    jump: bool,
    /// `idastar-tt`'s table (not read by the other variants).
    tt: &'a mut Transpositions,
    /// The duplicate move sequences left out ([`PRUNE`]), read where the searches' `F` is
    /// true.
    fsm: &'static Fsm,
}

/// Which IDA*: plain, dual ([`solve_dual`]) or with a transposition table
/// ([`solve_transpositions`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Variant {
    Plain,
    Dual,
    Transpositions,
}

/// A child in [`Search::dfs_bpmx`].
#[derive(Clone, Copy)]
struct Kid<M> {
    /// The move that makes it.
    m: u8,
    /// The blank's cell in it.
    to: u8,
    /// Its board.
    child: u64,
    /// Its estimate (as cheap as the heuristic's lookups allow: see `Heuristic::refine`).
    ch: u32,
    memo: M,
    /// The transposition table's bound on its paths that do not come back (0: none).
    bound: u32,
    /// Its path's end as the pruning reads it (see [`Search::dfs`]'s `link`).
    link: u32,
    /// This iteration entered it already, no deeper.
    repeated: bool,
    /// The size of its last finished search ([`Seen::subtree`]; 0: none).
    subtree: u8,
    /// What [`Heuristic::prefetch_refine`] worked out for it, if it was called.
    dual: Ahead,
}

impl<M> Kid<M> {
    /// A child yet to be made, with a copy of its parent's memo.
    #[inline(always)]
    fn new(memo: M) -> Kid<M> {
        Kid {
            m: 0,
            to: 0,
            child: 0,
            ch: 0,
            memo,
            bound: 0,
            link: 0,
            repeated: false,
            subtree: 0,
            dual: Ahead::default(),
        }
    }
}

/// How a subtree's search ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Found {
    Nothing,
    Goal,
    OutOfBudget,
}

impl<H: Heuristic> Search<'_, H> {
    /// Searches below a node at depth `g` with estimate `h`, whose `f = g + h` is within
    /// the bound (the caller checked). `link` is the path's end as the pruning reads it:
    /// with `F` (duplicate sequences left out, [`Prune::Fsm`]) the machine's state, else the
    /// move that made the node (`u8::MAX` at the root), whose reverse is left out.
    fn dfs<const F: bool>(
        &mut self,
        cells: u64,
        blank: usize,
        g: u32,
        h: u32,
        memo: H::Memo,
        link: u32,
    ) -> Found {
        if cells == self.goal {
            return Found::Goal;
        }
        if self.budget.exhausted(self.stats.expanded) {
            return Found::OutOfBudget;
        }
        let heuristic = self.h;
        self.stats.expanded += 1;
        // Below 16: no bounds checks on the tables below.
        let blank = blank & 15;
        // With `F`, the moves the machine allows and the board has room for, as bits.
        let allowed = if F {
            self.fsm.allowed(link) & self.on_board[blank]
        } else {
            0
        };
        // Every child at once (Korf's counting: all but the move back).
        self.stats.generated += if F {
            allowed.count_ones() as u64
        } else {
            self.children[blank][link.min(4) as usize] as u64
        };
        if g as u64 >= self.stats.peak_frontier {
            self.stats.peak_frontier = g as u64 + 1; // the path to here: the only memory
        }
        // The moves are tested here rather than read from `Neighbors::children` as the other
        // searches do: in this, the hottest loop, the open-coded test is faster
        // (docs/performance-history.md, "Figures moved from the code").
        for m in 0..4u8 {
            let next = if F {
                if allowed & (1 << m) == 0 {
                    continue;
                }
                self.fsm.step(link, m as usize)
            } else {
                if link == 3 - m as u32 {
                    continue;
                }
                m as u32
            };
            let to = self.neighbors.target(blank, m as usize);
            if !F && to == Neighbors::NONE {
                continue;
            }
            let to = to as usize & 15;
            let tile = ((cells >> (4 * to)) & 0xF) as u8;
            // The tile slides from `to` into the blank's cell.
            let child = cells - ((tile as u64) << (4 * to)) + ((tile as u64) << (4 * blank));
            let after = crate::puzzle::Board::from_parts(self.shape, child, to as u8);
            let (ch, child_memo) = heuristic.step(h, &memo, &after, tile, to, blank);
            // Prune here rather than in the call: most children are beyond the bound.
            let f = g + 1 + ch;
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            let found = self.dfs::<F>(child, to, g + 1, ch, child_memo, next);
            if found != Found::Nothing {
                if found == Found::Goal {
                    self.path.push(m);
                }
                // The children after `m`, counted above, were never generated.
                self.stats.generated -= if F {
                    (allowed >> (m + 1)).count_ones() as u64
                } else {
                    self.not_generated_after(blank, link as u8, m)
                };
                return found;
            }
        }
        Found::Nothing
    }

    /// [`Search::dfs`] for an inconsistent heuristic, with bidirectional pathmax (BPMX;
    /// Felner, Zahavi, Holte, Schaeffer, Sturtevant and Zhang 2011): all children are
    /// generated first; a child's estimate less one bounds its parent's (`d(n) ≥ d(c) − 1`),
    /// and the parent's less one bounds each child's, so a large value found on one node
    /// prunes its neighbours too. Returns how the subtree ended, the node's estimate as
    /// raised, for its parent, and (with `TT`) a lower bound on the node's paths to the goal
    /// that do not go back to the parent. All children count as generated (they were); the
    /// search stops at the first goal found, and every bound stays a lower bound, so the
    /// first solution found is still a shortest one.
    ///
    /// With `TT` (`idastar-tt`), a child this iteration already entered no deeper is
    /// generated but not searched again, and a child's bound from the table prunes it as its
    /// estimate does (see [`solve_transpositions`]). The bounds are not estimates of the
    /// distance (a path back through the parent may be shorter), so they never raise one.
    /// `TT` searches with the move back left out only (`F` false).
    ///
    /// `F` and `link` as in [`Search::dfs`]. BPMX reads only estimates, true of a board
    /// whatever path reached it, so it holds with duplicate sequences left out.
    fn dfs_bpmx<const TT: bool, const F: bool>(
        &mut self,
        cells: u64,
        blank: usize,
        g: u32,
        h: u32,
        memo: &H::Memo,
        link: u32,
    ) -> (Found, u32, u32) {
        if cells == self.goal {
            return (Found::Goal, 0, 0);
        }
        if self.budget.exhausted(self.stats.expanded) {
            return (Found::OutOfBudget, h, h);
        }
        let heuristic = self.h;
        let eager = heuristic.eager();
        let entered = (cells, link as u8);
        // The children generated below this node, for the table's subtree sizes.
        let before = self.stats.generated;
        if TT {
            self.tt.enter(cells, g);
        }
        let (mut cells, mut blank, mut h, mut memo, mut link) = (cells, blank & 15, h, memo, link);
        let dual_memo;
        let mut jumped = None;
        if self.jump {
            let board = crate::puzzle::Board::from_parts(self.shape, cells, blank as u8);
            if let Some(j) = heuristic.jump(&board, memo) {
                // Dual IDA*: continue from the dual board, as far from the goal and scored
                // higher; the path's moves have no meaning there, so it is searched as from
                // a start (nothing left out but what its own path repeats).
                let (hx, mx) = heuristic.start(&j.board);
                let fresh = if F { Fsm::START } else { u8::MAX as u32 };
                dual_memo = mx;
                (cells, blank, memo, link) =
                    (j.board.packed(), j.board.blank() & 15, &dual_memo, fresh);
                h = h.max(hx);
                jumped = Some(j.moves);
                // Not the goal: the goal is its own only dual, and this node is not it.
            }
        }
        self.stats.expanded += 1;
        if g as u64 >= self.stats.peak_frontier {
            self.stats.peak_frontier = g as u64 + 1;
        }
        // The children, made in place (returned, the array was copied whole).
        let mut kids = [Kid::new(*memo); 4];
        let (order, n) = self.generate::<TT, F>(cells, blank, g, &mut h, memo, link, &mut kids);
        // The least `1 + bound` over the children: with `TT`, the node's bound.
        let mut least = u32::MAX;
        for &i in &order[..n] {
            // The child stays where `generate` made it (its memo is not copied again).
            let kid = &kids[i as usize & 3];
            let Kid {
                m,
                to,
                child,
                ch,
                bound,
                link: child_link,
                repeated,
                ..
            } = *kid;
            if g + h > self.bound {
                self.next_bound = self.next_bound.min(g + h);
                if TT {
                    // Raised past the bound by its children: worth keeping.
                    let size = self.stats.generated - before;
                    self.tt.learn(entered.0, entered.1, h, h, size);
                }
                return (Found::Nothing, h, h);
            }
            let mut ch = ch.max(h.saturating_sub(1));
            if TT && repeated {
                least = least.min(1 + ch.max(bound));
                continue;
            }
            if !eager && g + 1 + ch.max(bound) <= self.bound {
                // The costly lookups only for a child the others do not prune (`eager`
                // made them all in `generate`).
                let after = crate::puzzle::Board::from_parts(self.shape, child, to);
                // Enough to prune it: above what the bound leaves it.
                ch = heuristic.refine_located(ch, &after, self.bound - g, kid.dual);
                h = h.max(ch.saturating_sub(1));
            }
            let f = g + 1 + ch.max(bound);
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                least = least.min(f - g);
                continue;
            }
            let (found, raised, below) =
                self.dfs_bpmx::<TT, F>(child, to as usize, g + 1, ch, &kid.memo, child_link);
            match found {
                Found::Goal => {
                    self.path.push(m);
                    if let Some(moves) = jumped {
                        self.unjump(moves);
                    }
                    return (found, h, h);
                }
                Found::OutOfBudget => return (found, h, h),
                Found::Nothing => {
                    h = h.max(raised.saturating_sub(1));
                    // A node whose children the machine all refused has no path below: `u32::MAX`.
                    least = least.min(below.max(bound).saturating_add(1));
                }
            }
        }
        let below = h.max(least);
        if TT {
            let size = self.stats.generated - before;
            self.tt.learn(entered.0, entered.1, h, below, size);
        }
        (Found::Nothing, h, below)
    }

    /// [`Search::dfs_bpmx`]'s children of a node at depth `g` (the move back, or with `F` the
    /// machine's refused moves, excluded), made in `kids` (each holding a copy of the node's
    /// memo on entry) and counted as generated; returned: the order of their estimates (as
    /// indices into `kids`) and how many; `h` raised by theirs. Their cheap lookups are
    /// asked for together, then the costly ones of those the cheap ones do not prune.
    /// Inlined: it is the body of the hot loop, split off only to be read.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn generate<const TT: bool, const F: bool>(
        &mut self,
        cells: u64,
        blank: usize,
        g: u32,
        h: &mut u32,
        memo: &H::Memo,
        link: u32,
        kids: &mut [Kid<H::Memo>; 4],
    ) -> ([u8; 4], usize) {
        let heuristic = self.h;
        let mut n = 0;
        // The moves made: (move, the blank's cell after it, the child's link).
        let mut moves = [(0u8, 0u8, 0u32); 4];
        let mut made = 0;
        let back = if F { u8::MAX } else { link as u8 };
        for &(m, to) in self.neighbors.children(blank, back).as_slice() {
            let next = if F {
                self.fsm.step(link, m as usize)
            } else {
                m as u32
            };
            if next != Fsm::PRUNED {
                moves[made] = (m, to, next);
                made += 1;
            }
        }
        let moves = &moves[..made];
        let mut ahead = [Ahead::default(); 4];
        let slide = |to: usize| {
            let tile = ((cells >> (4 * to)) & 0xF) as u8;
            // The tile slides from `to` into the blank's cell.
            let child = cells - ((tile as u64) << (4 * to)) + ((tile as u64) << (4 * blank));
            (tile, child)
        };
        for (a, &(_, to, _)) in ahead.iter_mut().zip(moves) {
            let (tile, child) = slide((to & 15) as usize);
            *a = heuristic.prefetch(memo, tile, to as usize, blank);
            if TT {
                self.tt.prefetch(child);
            }
        }
        for (&a, &(m, to, next)) in ahead.iter().zip(moves) {
            let (tile, child) = slide((to & 15) as usize);
            let after = crate::puzzle::Board::from_parts(self.shape, child, to);
            // The child's memo, made in place from a copy of the parent's.
            let child_memo = &mut kids[n].memo;
            let ch = heuristic.step_lazy(*h, child_memo, a, &after, tile, to as usize, blank);
            *h = (*h).max(ch.saturating_sub(1));
            let seen = if TT {
                self.tt.seen(child, g + 1, m)
            } else {
                Seen::NOTHING
            };
            let k = &mut kids[n];
            (k.m, k.to, k.child, k.ch, k.link) = (m, to, child, ch, next);
            (k.bound, k.repeated, k.subtree) = (seen.bound, seen.repeated, seen.subtree);
            n += 1;
        }
        self.stats.generated += n as u64;
        // The order the children are searched in, sorted in place of the children.
        let mut order = [0u8, 1, 2, 3];
        if heuristic.eager() {
            self.refine_all(&mut kids[..n], &mut order[..n], h);
        }
        if TT {
            // Lowest estimate first, each doubling of a child's last search (`Seen::subtree`)
            // counting as one move less: a large subtree reached the bound along many paths,
            // so the goal is likelier below it.
            sort_by_key(&mut order[..n], |i| {
                let k = &kids[i as usize & 3];
                ((k.ch + 64 - k.subtree as u32) as u64) << 8 | (255 - k.subtree) as u64
            });
        } else {
            // No table, no sizes: the estimates, then the move order.
            sort_by_key(&mut order[..n], |i| kids[i as usize & 3].ch as u64);
        }
        // The dual lookups of the children the cheap sums leave within the bound, asked for
        // together before the first is refined (they miss the caches, as the cheap ones do;
        // `eager` made them all already).
        let lazy = !heuristic.eager();
        for k in &mut kids[..n] {
            let within = g + 1 + k.ch.max(h.saturating_sub(1)).max(k.bound) <= self.bound;
            if lazy && !k.repeated && within {
                let after = crate::puzzle::Board::from_parts(self.shape, k.child, k.to);
                k.dual = heuristic.prefetch_refine(&after);
            }
        }
        (order, n)
    }

    /// BPMX as Felner et al. (2011) describe it, for a heuristic that asks for it
    /// ([`Heuristic::eager`]): every child's estimate made in full (their costly lookups
    /// asked for together first), and the parent's estimate `h` raised by each less one,
    /// before any child is searched. The children are left in the order of their cheap
    /// estimates, so that the caller's stable sort by the full ones breaks ties by the cheap
    /// ones, lowest first: on Korf's 100 (7-8, `idastar`) 26,649 nodes an instance, against
    /// 27,687 with ties in the move order.
    #[inline(never)]
    fn refine_all(&self, kids: &mut [Kid<H::Memo>], order: &mut [u8], h: &mut u32) {
        let heuristic = self.h;
        sort_by_key(order, |i| kids[i as usize].ch as u64);
        let board = |k: &Kid<H::Memo>| crate::puzzle::Board::from_parts(self.shape, k.child, k.to);
        for &i in order.iter() {
            let k = &mut kids[i as usize];
            k.dual = heuristic.prefetch_refine(&board(k));
        }
        for &i in order.iter() {
            let k = &mut kids[i as usize];
            k.ch = heuristic.refine_located(k.ch, &board(k), u32::MAX, k.dual);
            *h = (*h).max(k.ch.saturating_sub(1));
        }
    }

    /// Turns the path found from a dual board (all of `path`, reversed: the subtree below
    /// the jump pushed it) into the path from the board it was jumped to from.
    #[cold]
    fn unjump(&mut self, moves: [u8; 4]) {
        self.path.reverse();
        for m in &mut self.path {
            *m = moves[*m as usize & 3];
        }
    }

    /// The children after move `m` that a node counted on expansion but never generated,
    /// because the search stopped in `m`'s subtree.
    #[cold]
    fn not_generated_after(&self, blank: usize, last: u8, m: u8) -> u64 {
        let children = self.neighbors.children(blank, last);
        children.as_slice().iter().filter(|&&(n, _)| n > m).count() as u64
    }
}

/// Sorts a node's children's indices `order` by `key`, stably: an insertion sort inlined
/// (at most four; the library's is a call).
#[inline(always)]
fn sort_by_key(order: &mut [u8], key: impl Fn(u8) -> u64) {
    for i in 1..order.len() {
        let (x, kx) = (order[i], key(order[i]));
        let mut j = i;
        while j > 0 && key(order[j - 1]) > kx {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = x;
    }
}

/// The registry entry: idastar with the heuristic of the run's [`super::Config`].
pub(crate) const STRATEGY: super::Builtin = super::Builtin {
    name: "idastar",
    describe: "IDA* with --heuristic (default Manhattan), Korf's node counting",
    options: &[&super::heuristic::HEURISTIC, &PRUNE],
    make: super::registry::Make::Custom(|c| {
        Box::new(super::informed::Informed::<Idastar>::new("idastar", c))
    }),
};

/// idastar as a [`super::heuristic::Guided`] search.
pub(crate) struct Idastar;

impl super::heuristic::Guided for Idastar {
    fn wide(_config: &super::Config) -> Option<super::wide::Mode> {
        Some(super::wide::Mode::Ida)
    }
    fn search<H: Heuristic>(problem: &Problem, opts: &SolveOptions, h: &H) -> Outcome {
        solve(problem, opts, h)
    }
}

/// Shortest path by IDA* with heuristic `h` (built for `problem.goal`).
///
/// ```
/// use tilebench::search::{heuristic::Manhattan, idastar, Problem, SolveOptions};
/// let p = Problem::new(
///     "2 3 4 1 5 x 7 6 8".parse().unwrap(),
///     "1 2 3 4 5 6 7 8 x".parse().unwrap(),
/// ).unwrap();
/// let h = Manhattan::new(&p.goal);
/// assert_eq!(idastar::solve(&p, &SolveOptions::default(), &h).steps(), Some(19));
/// ```
pub fn solve<H: Heuristic>(problem: &Problem, opts: &SolveOptions, h: &H) -> Outcome {
    search(problem, opts, h, Variant::Plain)
}

/// Dual IDA* (Zahavi, Felner, Holte and Schaeffer 2008): [`solve`], but at a node whose dual
/// board scores higher ([`Heuristic::jump`]) the search continues from the dual board, and
/// the path found from there is mapped back. With a heuristic that offers no dual boards it
/// is [`solve`].
pub fn solve_dual<H: Heuristic>(problem: &Problem, opts: &SolveOptions, h: &H) -> Outcome {
    search(problem, opts, h, Variant::Dual)
}

/// IDA* with a transposition table (after Reinefeld and Marsland 1994): [`solve`], but a
/// board this iteration already entered at a depth no greater is generated (and counted) and
/// not searched again, and the bound each failed subtree leaves is kept for the later
/// iterations, which prune with it as with the estimate. Always with BPMX. The table is a
/// lossy cache of at most 16 MB a worker thread, and of at most `max_states` boards
/// (`search::transpositions`); what it loses is searched again.
///
/// Why the answer is still a shortest path: let `s₀ … s_k` be a shortest path, `k` within
/// the bound, and `j` the largest index such that the iteration entered `s_j` at a depth
/// `d ≤ j`. Entering it, the search generated every neighbour but the one it came from. If
/// that one is `s_{j+1}`, then `s_{j+1}` was entered at depth `d − 1 ≤ j + 1`. Otherwise
/// `s_{j+1}` is generated at depth `d + 1 ≤ j + 1`; its estimate and its bound (which covers
/// paths that do not come straight back, as `s_{j+1} … s_k` does not) are at most
/// `k − j − 1`, so the bound does not prune it: it is entered at depth `d + 1`, or was
/// entered already at a depth no greater. Either way `j` was not the largest, unless
/// `s_j` is the goal. The same argument shows the next bound never passes `k`.
///
/// ```
/// use tilebench::search::{fsm::PRUNE, heuristic::Manhattan, idastar, Config, Limits, Problem};
/// let p = Problem::new(
///     "2 3 4 1 5 x 7 6 8".parse().unwrap(),
///     "1 2 3 4 5 6 7 8 x".parse().unwrap(),
/// ).unwrap();
/// let h = Manhattan::new(&p.goal);
/// // IDA* leaving out the same moves as the table's search: the moves straight back.
/// let mut config = Config::default();
/// config.set(&PRUNE, "parent").unwrap();
/// let plain = idastar::solve(&p, &config.options(&Limits::default()), &h);
/// let tt = idastar::solve_transpositions(&p, &config.options(&Limits::default()), &h);
/// assert_eq!(tt.steps(), plain.steps());
/// assert!(tt.stats.generated < plain.stats.generated);
/// ```
pub fn solve_transpositions<H: Heuristic>(
    problem: &Problem,
    opts: &SolveOptions,
    h: &H,
) -> Outcome {
    // Under a heap budget the table is cut to fit it: its largest size, 16 bytes a slot,
    // is held beside the one before while it doubles (24 bytes a slot at the peak).
    let states = match opts.limits.max_memory {
        Some(bytes) if crate::memory::counting() => opts.limits.max_states.min(bytes / 24),
        _ => opts.limits.max_states,
    };
    Transpositions::with(states, |tt| {
        search_in(problem, opts, h, Variant::Transpositions, tt)
    })
}

fn search<H: Heuristic>(problem: &Problem, opts: &SolveOptions, h: &H, v: Variant) -> Outcome {
    // The plain and dual searches never touch the table: an empty one, not the thread's.
    search_in(problem, opts, h, v, &mut Transpositions::empty())
}

fn search_in<H: Heuristic>(
    problem: &Problem,
    opts: &SolveOptions,
    h: &H,
    variant: Variant,
    tt: &mut Transpositions,
) -> Outcome {
    let start = problem.start;
    // The search masks cell indices instead of checking bounds: refuse a board built
    // unchecked (`Board::from_parts`) with its blank off the board here, once.
    assert!(
        start.blank() < start.shape().cells(),
        "the start board's blank is outside the board"
    );
    let (h0, memo) = h.start(&start);
    let neighbors = Neighbors::of(start.shape()).clone();
    let children = std::array::from_fn(|pos| {
        std::array::from_fn(|last| neighbors.children(pos, last as u8).as_slice().len() as u8)
    });
    let on_board = std::array::from_fn(|pos| {
        (0..4)
            .filter(|&m| pos < start.shape().cells() && neighbors.target(pos, m) != Neighbors::NONE)
            .map(|m| 1u8 << m)
            .sum()
    });
    let prune = PRUNE.get(&opts.config);
    let mut s = Search {
        h,
        neighbors,
        children,
        on_board,
        shape: start.shape(),
        goal: problem.goal.packed(),
        bound: h0,
        next_bound: u32::MAX,
        path: Vec::with_capacity(128),
        stats: Stats::default(),
        budget: Budget::new(&opts.limits),
        jump: variant == Variant::Dual,
        tt,
        fsm: prune.machine(),
    };
    // The table's bounds hold for paths that do not come straight back, whatever else they
    // repeat: `idastar-tt` leaves out the move back only.
    let fsm = variant != Variant::Transpositions && prune == Prune::Fsm;
    let root = if fsm { Fsm::START } else { u8::MAX as u32 };
    loop {
        s.next_bound = u32::MAX;
        let (cells, blank) = (start.packed(), start.blank());
        let found = match (variant == Variant::Transpositions, h.consistent(), fsm) {
            (true, _, _) => {
                s.tt.next_iteration();
                s.dfs_bpmx::<true, false>(cells, blank, 0, h0, &memo, root)
                    .0
            }
            (false, true, true) => s.dfs::<true>(cells, blank, 0, h0, memo, root),
            (false, true, false) => s.dfs::<false>(cells, blank, 0, h0, memo, root),
            (false, false, true) => {
                s.dfs_bpmx::<false, true>(cells, blank, 0, h0, &memo, root)
                    .0
            }
            (false, false, false) => {
                s.dfs_bpmx::<false, false>(cells, blank, 0, h0, &memo, root)
                    .0
            }
        };
        // The boards held: the path's, or the table's (which holds the path's).
        s.stats.stored = s.stats.peak_frontier.max(s.tt.held());
        if found == Found::Goal {
            let path = s.path.iter().rev().map(|&m| Move::from_index(m)).collect();
            return Outcome::solved(path, s.stats);
        }
        if found == Found::OutOfBudget {
            return Outcome::out_of(s.budget.reason(s.stats.expanded, false), s.stats);
        }
        // A tree search never runs out of paths on a graph with cycles; it proves a pair
        // unsolvable (with --exhaustive) once the bound passes the board's known diameter.
        match diameter(start.shape()) {
            Some(d) if s.next_bound > d => {
                return Outcome::without_path(Status::Unsolvable, s.stats)
            }
            None if s.next_bound > UNKNOWN_DIAMETER_CAP => {
                return Outcome::without_path(Status::Limit, s.stats)
            }
            _ => {}
        }
        s.bound = s.next_bound;
    }
}

/// The largest optimal solution length of any pair, where it is known (the "God's number"
/// of the shape): no solvable pair needs more moves.
pub(crate) fn diameter(shape: crate::puzzle::Shape) -> Option<u32> {
    let (w, h) = (
        shape.width().min(shape.height()),
        shape.width().max(shape.height()),
    );
    match (w, h) {
        (2, 2) => Some(6),
        (2, 3) => Some(21),
        (2, 4) => Some(36),
        (2, 5) => Some(55),
        (2, 6) => Some(80),
        (3, 3) => Some(31),
        (3, 4) => Some(53),
        (4, 4) => Some(80),
        _ => None,
    }
}

/// Where no diameter is known, an exhaustive IDA* gives up (status `limit`) past this bound.
const UNKNOWN_DIAMETER_CAP: u32 = 250;
