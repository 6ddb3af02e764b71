//! Pruning duplicate move sequences with a finite-state machine (Taylor and Korf 1993).
//!
//! Two sequences of blank moves that leave every tile in the same place are duplicates: a
//! depth-first search that follows both searches the same subtree twice. The machine is
//! learned once, by a breadth-first search over move sequences on a board large enough that
//! no edge is met: the first sequence to reach a state is kept, and a later one that
//! reaches it (no shorter, and after it in [`MOVE_ORDER`] order) is forbidden, provided the
//! kept one visits no cell the forbidden one does not (so that wherever the forbidden one
//! fits on a real board, the kept one fits too). A search then refuses any move that makes
//! its path end in a forbidden sequence. Of every path, the least in (length, move order)
//! among those with the same end state contains no forbidden sequence (one could be swapped
//! for its kept duplicate, making the path less), so the search keeps an optimal path.
//!
//! The refused sequences of length 2 are the moves straight back.
//!
//! [`MOVE_ORDER`]: crate::puzzle::MOVE_ORDER

use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;
use std::sync::OnceLock;

/// The moves of [`crate::puzzle::MOVE_ORDER`] (up, left, right, down) as steps of the
/// blank: (column, row).
const STEPS: [(i32, i32); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];

/// Which move sequences IDA\* leaves out ([`PRUNE`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Prune {
    /// The duplicates of shorter or earlier sequences of up to 12 moves (the machine of `fsm12.txt`).
    #[default]
    Fsm,
    /// Only the move straight back (Korf's programs, and their node counts).
    Parent,
}

impl Prune {
    /// Its name, as the option is written.
    pub fn name(self) -> &'static str {
        match self {
            Prune::Fsm => "fsm",
            Prune::Parent => "parent",
        }
    }

    /// Its machine, made once per process.
    pub(crate) fn machine(self) -> &'static Fsm {
        static FSM: OnceLock<Fsm> = OnceLock::new();
        static PARENT: OnceLock<Fsm> = OnceLock::new();
        match self {
            Prune::Fsm => FSM.get_or_init(|| Fsm::new(&learned())),
            Prune::Parent => PARENT.get_or_init(|| Fsm::new(&duplicates(2))),
        }
    }
}

impl std::str::FromStr for Prune {
    type Err = String;

    fn from_str(s: &str) -> Result<Prune, String> {
        match s.trim() {
            "fsm" | "default" => Ok(Prune::Fsm),
            "parent" => Ok(Prune::Parent),
            other => Err(format!("`{other}` is not a pruning: give fsm or parent")),
        }
    }
}

/// `idastar`'s and `dida`'s option `prune`: which move sequences IDA\* leaves out. `fsm`
/// (the default) the duplicates this machine knows; `parent` only the move straight back,
/// whose node counts are Korf's (1985) and Korf and Felner's (2002).
pub const PRUNE: super::options::Knob<Prune> = super::options::Knob {
    name: "prune",
    default: "fsm",
    range: "fsm or parent",
    help: "the move sequences IDA* leaves out: fsm, duplicate sequences of up to 12 moves \
           (Taylor and Korf 1993); parent, the move straight back only (Korf's node counts)",
    flag: "",
    parse: str::parse,
    show: |p| p.name().to_string(),
    with: &[],
    applies: None,
};

/// The longest sequences [`Prune::Fsm`] knows duplicates of: 2,317 forbidden sequences, a
/// machine of 10,542 states (168 KB). Learning them takes about a second, so they are kept
/// in `fsm12.txt`, which a test learns again.
#[cfg(test)]
pub(crate) const DEPTH: usize = 12;

/// The forbidden sequences of [`DEPTH`] moves or fewer, as `fsm12.txt` lists them.
fn learned() -> Vec<Vec<u8>> {
    include_str!("fsm12.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            l.trim()
                .chars()
                .map(|c| match c {
                    'U' => 0,
                    'L' => 1,
                    'R' => 2,
                    'D' => 3,
                    _ => unreachable!("fsm12.txt holds only U, L, R and D"),
                })
                .collect()
        })
        .collect()
}

/// A finite-state machine over moves: the state is what of the path so far matters for the
/// forbidden sequences; [`Fsm::PRUNED`] means the move ends a forbidden sequence.
#[derive(Debug, Clone)]
pub(crate) struct Fsm {
    next: Vec<[u32; 4]>,
    /// Per state, the moves it allows as bits (`1 << m`): one byte read tells a node's
    /// children before any transition is.
    allowed: Vec<u8>,
}

impl Fsm {
    /// The state after a refused move.
    pub(crate) const PRUNED: u32 = u32::MAX;
    /// The state of the empty path.
    pub(crate) const START: u32 = 0;

    /// The machine that refuses the sequences `forbidden`.
    fn new(forbidden: &[Vec<u8>]) -> Fsm {
        let next = automaton(forbidden);
        let allowed = next
            .iter()
            .map(|row| {
                (0..4)
                    .filter(|&m| row[m] != Fsm::PRUNED)
                    .map(|m| 1u8 << m)
                    .sum()
            })
            .collect();
        Fsm { next, allowed }
    }

    /// The moves `state` allows, as bits `1 << m` ([`Fsm::step`] is not [`Fsm::PRUNED`]).
    #[inline(always)]
    pub(crate) fn allowed(&self, state: u32) -> u8 {
        self.allowed[state as usize]
    }

    /// The state after move `m` (an index into [`crate::puzzle::MOVE_ORDER`]) from `state`,
    /// or [`Fsm::PRUNED`].
    #[inline(always)]
    pub(crate) fn step(&self, state: u32, m: usize) -> u32 {
        self.next[state as usize][m & 3]
    }

    /// How many states the machine has.
    #[cfg(test)]
    pub(crate) fn states(&self) -> usize {
        self.next.len()
    }
}

/// A cell of the unbounded board, packed: the origin is the blank's start.
type Cell = u16;

fn cell(x: i32, y: i32) -> Cell {
    ((x + 64) as u16) << 7 | (y + 64) as u16
}

/// A sequence of at most 16 moves: two bits a move, the last in the lowest bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Moves {
    len: u8,
    code: u32,
}

impl Moves {
    fn push(self, m: u8) -> Moves {
        Moves {
            len: self.len + 1,
            code: self.code << 2 | m as u32,
        }
    }

    /// Its last `k` moves.
    fn suffix(self, k: u8) -> Moves {
        let mask = if k >= 16 {
            u32::MAX
        } else {
            (1u32 << (2 * k)) - 1
        };
        Moves {
            len: k,
            code: self.code & mask,
        }
    }

    fn get(self, i: u8) -> u8 {
        (self.code >> (2 * (self.len - 1 - i))) as u8 & 3
    }

    fn to_vec(self) -> Vec<u8> {
        (0..self.len).map(|i| self.get(i)).collect()
    }

    /// The cells the blank visits along them from the origin, sorted.
    fn visited(self) -> Vec<Cell> {
        let (mut x, mut y) = (0, 0);
        let mut seen = vec![cell(0, 0)];
        for i in 0..self.len {
            let (dx, dy) = STEPS[self.get(i) as usize];
            (x, y) = (x + dx, y + dy);
            seen.push(cell(x, y));
        }
        seen.sort_unstable();
        seen.dedup();
        seen
    }
}

/// A node of the search over sequences: its moves, the blank's cell and the tiles that are
/// not on their own cell, each as `cell << 16 | the cell the tile started on`, sorted, then
/// zeros (a sequence of `n` moves moves at most `n + 1` tiles, the blank among them).
#[derive(Clone, Copy)]
struct Node {
    moves: Moves,
    blank: (i32, i32),
    moved: [u32; MOVED],
}

/// The most tiles a sequence of [`Fsm::learn`]'s greatest depth moves.
const MOVED: usize = 16;

impl Node {
    fn find(&self, c: Cell) -> Result<usize, usize> {
        let n = self.moved.iter().position(|&e| e == 0).unwrap_or(MOVED);
        self.moved[..n].binary_search_by_key(&c, |&e| (e >> 16) as Cell)
    }

    fn tile_at(&self, c: Cell) -> Cell {
        match self.find(c) {
            Ok(i) => self.moved[i] as Cell,
            Err(_) => c,
        }
    }

    fn set(&mut self, c: Cell, tile: Cell) {
        let e = (c as u32) << 16 | tile as u32;
        match self.find(c) {
            Ok(i) if tile == c => {
                self.moved.copy_within(i + 1.., i);
                self.moved[MOVED - 1] = 0;
            }
            Ok(i) => self.moved[i] = e,
            Err(_) if tile == c => {}
            Err(i) => {
                self.moved.copy_within(i..MOVED - 1, i + 1);
                self.moved[i] = e;
            }
        }
    }

    fn child(&self, m: u8) -> Node {
        let (dx, dy) = STEPS[m as usize];
        let (bx, by) = self.blank;
        let to = (bx + dx, by + dy);
        let mut child = Node {
            moves: self.moves.push(m),
            blank: to,
            moved: self.moved,
        };
        let tile = self.tile_at(cell(to.0, to.1));
        child.set(cell(bx, by), tile);
        child.set(cell(to.0, to.1), cell(0, 0));
        child
    }
}

/// Whether every element of the sorted `a` is in the sorted `b`.
fn subset(a: &[Cell], b: &[Cell]) -> bool {
    let mut j = 0;
    for x in a {
        while j < b.len() && b[j] < *x {
            j += 1;
        }
        if j == b.len() || b[j] != *x {
            return false;
        }
    }
    true
}

/// The forbidden sequences among those of at most `depth` moves, none containing another.
fn duplicates(depth: usize) -> Vec<Vec<u8>> {
    let mut first: FxHashMap<[u32; MOVED], Moves> = FxHashMap::default();
    let mut forbidden: FxHashSet<Moves> = FxHashSet::default();
    let mut found = Vec::new();
    let root = Node {
        moves: Moves { len: 0, code: 0 },
        blank: (0, 0),
        moved: [0; MOVED],
    };
    first.insert(root.moved, root.moves);
    let mut queue = VecDeque::from([root]);
    while let Some(node) = queue.pop_front() {
        if node.moves.len as usize == depth {
            continue;
        }
        for m in 0..4u8 {
            let child = node.child(m);
            // A sequence ending in a forbidden one is not searched further.
            let n = child.moves.len;
            if (2..=n).any(|k| forbidden.contains(&child.moves.suffix(k))) {
                continue;
            }
            match first.get(&child.moved) {
                None => {
                    first.insert(child.moved, child.moves);
                    queue.push_back(child);
                }
                Some(&kept) => {
                    // Found before: no longer and earlier in move order. Forbidden only
                    // where the kept sequence fits wherever this one does.
                    if subset(&kept.visited(), &child.moves.visited()) {
                        forbidden.insert(child.moves);
                        found.push(child.moves.to_vec());
                    } else {
                        queue.push_back(child);
                    }
                }
            }
        }
    }
    found
}

/// The machine that refuses a move when the path ends in one of `forbidden`: a trie of the
/// sequences with failure links (Aho and Corasick), its transitions filled in.
fn automaton(forbidden: &[Vec<u8>]) -> Vec<[u32; 4]> {
    const NONE: u32 = u32::MAX - 1;
    let mut go: Vec<[u32; 4]> = vec![[NONE; 4]];
    let mut end = vec![false];
    for s in forbidden {
        let mut q = 0usize;
        for &m in s {
            let m = m as usize;
            if go[q][m] == NONE {
                go.push([NONE; 4]);
                end.push(false);
                go[q][m] = (go.len() - 1) as u32;
            }
            q = go[q][m] as usize;
        }
        end[q] = true;
    }
    let mut fail = vec![0u32; go.len()];
    let mut next = vec![[0u32; 4]; go.len()];
    let mut queue = VecDeque::from([0usize]);
    while let Some(q) = queue.pop_front() {
        for m in 0..4 {
            let child = go[q][m];
            if child == NONE {
                next[q][m] = if q == 0 { 0 } else { next[fail[q] as usize][m] };
                continue;
            }
            let c = child as usize;
            fail[c] = if q == 0 { 0 } else { next[fail[q] as usize][m] };
            end[c] |= end[fail[c] as usize];
            next[q][m] = child;
            queue.push_back(c);
        }
    }
    // A transition into a state that ends a forbidden sequence is a refused move.
    for row in next.iter_mut() {
        for t in row.iter_mut() {
            if end[*t as usize] {
                *t = Fsm::PRUNED;
            }
        }
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(forbidden: &[Vec<u8>]) -> String {
        let mut out = String::new();
        for s in forbidden {
            out.extend(s.iter().map(|&m| ['U', 'L', 'R', 'D'][m as usize]));
            out.push('\n');
        }
        out
    }

    /// `fsm12.txt` is what the learner finds (`TILEBENCH_WRITE_FSM=1` rewrites it).
    #[test]
    fn the_kept_sequences_are_the_learned_ones() {
        let found = duplicates(DEPTH);
        if std::env::var_os("TILEBENCH_WRITE_FSM").is_some() {
            let head =
                "# Move sequences IDA* leaves out with prune=fsm, the default (search/fsm.rs):\n\
                        # each is a duplicate of a shorter or earlier one. Written by the test\n\
                        # search::fsm::tests::the_kept_sequences_are_the_learned_ones.\n";
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/search/fsm12.txt");
            std::fs::write(path, format!("{head}{}", text(&found))).unwrap();
        }
        assert_eq!(text(&learned()), text(&found));
        assert_eq!(Prune::Fsm.machine().states(), Fsm::new(&found).states());
    }

    #[test]
    fn moves_straight_back_are_refused_and_nothing_else_of_two() {
        let fsm = Prune::Parent.machine();
        for a in 0..4 {
            let s = fsm.step(Fsm::START, a);
            assert_ne!(s, Fsm::PRUNED);
            for b in 0..4 {
                assert_eq!(fsm.step(s, b) == Fsm::PRUNED, a + b == 3, "{a} then {b}");
            }
        }
    }

    /// Every board within `depth` moves of the start (blank on `blank` of a `w` × `h`
    /// board) is reached by a path the machine lets through, at its distance: the least
    /// depth at which a depth-first search over such paths meets each board equals the
    /// least over all paths without a move straight back.
    fn keeps_every_distance(fsm: &Fsm, w: usize, h: usize, blank: usize, depth: u8) {
        fn dfs(
            board: &mut [u8; 25],
            blank: usize,
            (w, h): (usize, usize),
            (g, depth): (u8, u8),
            step: &dyn Fn(u32, usize) -> u32,
            state: u32,
            seen: &mut FxHashMap<u128, u8>,
        ) {
            let key = board.iter().fold(0u128, |k, &t| k << 5 | t as u128);
            let best = seen.entry(key).or_insert(g);
            *best = (*best).min(g);
            if g == depth {
                return;
            }
            let (x, y) = ((blank % w) as i32, (blank / w) as i32);
            for (m, (dx, dy)) in STEPS.iter().enumerate() {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w as i32 || ny >= h as i32 {
                    continue;
                }
                let next = step(state, m);
                if next == Fsm::PRUNED {
                    continue;
                }
                let to = ny as usize * w + nx as usize;
                board.swap(blank, to);
                dfs(board, to, (w, h), (g + 1, depth), step, next, seen);
                board.swap(blank, to);
            }
        }
        let mut start = [0u8; 25];
        for (c, t) in start.iter_mut().enumerate() {
            *t = c as u8;
        }
        let reached = |machine: &Fsm| {
            let (mut b, mut seen) = (start, FxHashMap::default());
            let step = |s, m| machine.step(s, m);
            dfs(&mut b, blank, (w, h), (0, depth), &step, 0, &mut seen);
            seen
        };
        let (all, kept) = (reached(Prune::Parent.machine()), reached(fsm));
        assert_eq!(
            kept.len(),
            all.len(),
            "{w}x{h}, blank on {blank}: boards reached"
        );
        for (board, d) in &all {
            assert_eq!(
                kept.get(board),
                Some(d),
                "{w}x{h}, blank on {blank}: {board:?}"
            );
        }
    }

    #[test]
    fn the_machine_keeps_a_shortest_path_to_every_board_near_the_edges_too() {
        let fsm = Prune::Fsm.machine();
        for (w, h, blank, depth) in [
            (3, 3, 0, 18),
            (3, 3, 4, 18),
            (4, 4, 0, 14),
            (4, 4, 5, 13),
            (5, 5, 0, 13),
            (5, 5, 7, 12),
            (5, 5, 12, 12),
            (6, 2, 0, 18),
        ] {
            keeps_every_distance(fsm, w, h, blank, depth);
        }
    }

    /// The machine leaves out boards' duplicates: on an unbounded board, the paths it lets
    /// through grow by a smaller factor a move than the 3 of those without a move straight
    /// back (counted by state, a move at a time): 2.967 at 40 moves. On a bounded board the
    /// walls add duplicates, and IDA\* on Korf's #40 generates 38% fewer nodes.
    #[test]
    fn the_machine_prunes() {
        let fsm = Prune::Fsm.machine();
        let mut paths = vec![0f64; fsm.states()];
        paths[Fsm::START as usize] = 1.0;
        let mut totals = Vec::new();
        for _ in 0..40 {
            let mut next = vec![0f64; fsm.states()];
            for (s, &n) in paths.iter().enumerate() {
                for m in 0..4 {
                    let t = fsm.step(s as u32, m);
                    if t != Fsm::PRUNED {
                        next[t as usize] += n;
                    }
                }
            }
            paths = next;
            totals.push(paths.iter().sum::<f64>());
        }
        let factor = totals[39] / totals[38];
        assert!(factor < 2.98, "{factor}");
    }
}
