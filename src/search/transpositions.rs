//! The transposition table of `idastar-tt`: what IDA* remembers about the boards it entered.
//!
//! A hash of a board's cells picks a bucket of two slots (32 bytes, in one cache line); a new
//! board takes a slot of no use to this solve, else replaces the deeper of the two (the
//! first slot keeps the bucket's shallowest board: see `Transpositions::victim`). Losing an
//! entry only costs a search repeated, never a wrong answer, because the table holds only two
//! kinds of facts, both true whatever else is lost:
//!
//! - **entered**: this iteration entered the board at depth `g`. Reaching it again at a
//!   depth ≥ `g` in the same iteration need not search it again (proof at
//!   [`super::idastar::solve_transpositions`]).
//! - **bounds**: every path from the board to the goal whose first move is not `m` back
//!   (that is, a path leaving it other than through the neighbour it was entered from) takes
//!   at least `w[m]` moves. A subtree's search that failed under the bound leaves such a
//!   bound (the least `f − g` it saw beyond the bound), and the board's estimate as BPMX
//!   raised it bounds every path; later iterations prune with them.
//!
//! Beside the facts, each entry keeps the size of the board's last finished search, which
//! orders children ([`Seen::subtree`]): an ordering, not a fact, so it
//! changes which nodes are searched first, never the answer.
//!
//! One table per worker thread is kept from solve to solve; stamps tell this solve's
//! iterations from earlier ones, so nothing is cleared between them.

use std::cell::RefCell;

/// Slots in a new table: 2^16 of 16 bytes, 1 MB (about a core's L2 cache). A solve that
/// claims twice as many slots as its thread's table has doubles it, up to [`MAX_BITS`]; a
/// thread's table keeps its size from solve to solve. On Korf's 100 with the 7-8 pattern
/// databases the largest instance (#60) enters 108,000 boards and the table stays at 2^16:
/// grown to 2^18 it lost 0.2% of the nodes and took longer (more cache and TLB misses).
const BITS: u32 = 16;

/// The largest table: 2^20 slots, 16 MB a worker thread. Searches that enter more boards
/// (Manhattan on the 15-puzzle) keep the most recent of them.
const MAX_BITS: u32 = 20;

/// Stamps are 16 bits; the table is wiped when they run out (every 65,535 iterations: some
/// thousands of solves).
const STAMP_LIMIT: u32 = 1 << 16;

/// One board's entry.
#[derive(Clone, Copy, Default)]
struct Slot {
    /// The board's packed cells (0: empty; no board packs to 0).
    cells: u64,
    /// The iteration that last entered the board.
    stamp: u16,
    /// The depth at which it entered it.
    depth: u8,
    /// How many children the board's last finished search generated, below it and in all
    /// (`⌊log2⌋ + 1`, 0 for none): what `idastar-tt` orders children by, beside their
    /// estimates (see [`Seen::subtree`]).
    subtree: u8,
    /// `w[m]`: the fewest moves from the board to the goal by a path that does not start
    /// by undoing move `m` (the move it was entered by).
    w: [u8; 4],
}

impl Slot {
    /// Whether the slot was written by the solve whose first stamp is `first` (an empty
    /// slot's stamp is 0, before every solve's).
    #[inline]
    fn current(&self, first: u32) -> bool {
        self.stamp as u32 >= first
    }

    /// Whether the slot is `cells`' entry for the solve whose first stamp is `first`.
    #[inline]
    fn holds(&self, cells: u64, first: u32) -> bool {
        self.cells == cells && self.current(first)
    }
}

/// The table, with the stamps of the current solve and iteration.
pub(crate) struct Transpositions {
    slots: Vec<Slot>,
    /// `64 − log2(slots)`: a hash's top bits index the slots.
    shift: u32,
    /// The stamp of the current iteration.
    stamp: u32,
    /// The stamp of this solve's first iteration: slots stamped before it are another
    /// solve's, and mean nothing for this one.
    first: u32,
    /// Slots this solve claimed (counted as `stored`).
    claimed: u64,
    /// The most slots this solve may use (`log2`): [`MAX_BITS`], or less under a tight
    /// `--max-states`.
    max_bits: u32,
}

/// What the table says about a board about to be entered by move `m`.
#[derive(Clone, Copy)]
pub(crate) struct Seen {
    /// This iteration entered it already, no deeper: no need to search it again.
    pub repeated: bool,
    /// A lower bound on its paths to the goal that do not undo `m` (0: none known).
    pub bound: u32,
    /// The size of its last finished search, `⌊log2(generated)⌋ + 1` (0: none). A child
    /// whose subtree was large in the last iteration has many paths that reached the bound,
    /// so the goal is likelier below it: ordering children by their estimate less this
    /// cut the nodes by 13–14% on 4,000 random instances (docs/performance-history.md).
    pub subtree: u8,
}

impl Seen {
    /// Nothing known.
    pub(super) const NOTHING: Seen = Seen {
        repeated: false,
        bound: 0,
        subtree: 0,
    };
}

thread_local! {
    static TABLE: RefCell<Transpositions> = const { RefCell::new(Transpositions::empty()) };
}

impl Transpositions {
    pub(super) const fn empty() -> Transpositions {
        Transpositions {
            slots: Vec::new(),
            shift: 64 - BITS,
            stamp: 0,
            first: 1,
            claimed: 0,
            max_bits: MAX_BITS,
        }
    }

    /// Runs `f` with this thread's table, readied for a new solve that may hold at most
    /// `max_states` boards (the memory guard: the table is cut to the power of two at or
    /// below it). Allocated on first use; grown tables are kept.
    pub(super) fn with<R>(max_states: u64, f: impl FnOnce(&mut Transpositions) -> R) -> R {
        TABLE.with(|t| {
            let mut t = t.borrow_mut();
            t.max_bits = MAX_BITS.min(max_states.max(1).ilog2());
            // A new table, or one a tighter guard cut below the first size or a looser one
            // let grow past this guard: the first size (within the guard) again.
            let bits = BITS.min(t.max_bits);
            if t.slots.len() < 1 << bits || t.slots.len() > 1 << t.max_bits {
                t.slots = vec![Slot::default(); 1 << bits];
                t.shift = 64 - bits;
            }
            t.claimed = 0;
            t.first = t.stamp + 1;
            f(&mut t)
        })
    }

    /// Starts an iteration: boards entered in earlier ones no longer count as entered.
    pub(super) fn next_iteration(&mut self) {
        if self.stamp + 1 >= STAMP_LIMIT {
            self.slots.fill(Slot::default());
            self.stamp = 0;
            self.first = 1;
        }
        self.stamp += 1;
    }

    /// How many boards the table holds for this solve.
    pub(super) fn held(&self) -> u64 {
        self.claimed.min(self.slots.len() as u64)
    }

    /// `cells`' slot: the hash's top bits. Shifted in two steps, so that a table of one slot
    /// (`--max-states 1`: `shift` is 64, which a single shift would overflow) gets slot 0.
    #[inline]
    fn index(&self, cells: u64) -> usize {
        (cells.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (self.shift - 1) >> 1) as usize
    }

    /// Doubles the table, keeping this solve's entries (a few are lost where two now share
    /// a slot: the table is a cache).
    #[cold]
    fn grow(&mut self) {
        let old = std::mem::replace(
            &mut self.slots,
            vec![Slot::default(); 2 << (64 - self.shift)],
        );
        self.shift -= 1;
        for s in old {
            if s.current(self.first) {
                let i = self.victim(s.cells, s.depth as u32);
                self.slots[i] = s;
            }
        }
    }

    /// Asks for `cells`' slot to be brought into the cache.
    #[inline]
    pub(super) fn prefetch(&self, cells: u64) {
        crate::util::prefetch(&self.slots[self.bucket(cells).0]);
    }

    /// The slot holding `cells`' entry for this solve, if its bucket has one.
    #[inline]
    fn find(&self, cells: u64) -> Option<usize> {
        let (a, b) = self.bucket(cells);
        if self.slots[a].holds(cells, self.first) {
            Some(a)
        } else if self.slots[b].holds(cells, self.first) {
            Some(b)
        } else {
            None
        }
    }

    /// `cells`' bucket: its two slots (the same one in a table of one slot).
    #[inline]
    fn bucket(&self, cells: u64) -> (usize, usize) {
        let a = self.index(cells) & !1;
        (a, (a + 1) & (self.slots.len() - 1))
    }

    /// What the table knows of `cells`, to be entered at depth `g` by move `m`.
    #[inline]
    pub(super) fn seen(&self, cells: u64, g: u32, m: u8) -> Seen {
        let Some(i) = self.find(cells) else {
            return Seen::NOTHING;
        };
        let s = &self.slots[i];
        Seen {
            repeated: s.stamp as u32 == self.stamp && s.depth as u32 <= g,
            bound: s.w[m as usize & 3] as u32,
            subtree: s.subtree,
        }
    }

    /// Records that this iteration enters `cells` at depth `g`.
    #[inline]
    pub(super) fn enter(&mut self, cells: u64, g: u32) {
        let i = match self.find(cells) {
            Some(i) => i,
            None => {
                let i = self.victim(cells, g);
                self.slots[i] = Slot {
                    cells,
                    ..Slot::default()
                };
                self.claimed += 1;
                i
            }
        };
        self.slots[i].stamp = self.stamp as u16;
        self.slots[i].depth = g.min(255) as u8;
        if self.claimed > 2 * self.slots.len() as u64 && self.shift > 64 - self.max_bits {
            self.grow();
        }
    }

    /// The slot a new entry for `cells`, entered at depth `g`, takes in its bucket: a slot
    /// of no use to this solve, else the second (always replaced), except that an entry
    /// shallower than the first's moves the first to the second and takes its place. The
    /// first slot so keeps the shallowest board of the bucket: a board near the root heads
    /// the largest subtrees, whose bounds save the most, and the boards deep in the tree
    /// that pass through by the thousand would otherwise push it out.
    #[inline]
    fn victim(&mut self, cells: u64, g: u32) -> usize {
        let (keep, other) = self.bucket(cells);
        let first = self.first;
        if !self.slots[keep].current(first) {
            return keep;
        }
        if !self.slots[other].current(first) {
            return other;
        }
        if g < self.slots[keep].depth as u32 {
            self.slots[other] = self.slots[keep];
            keep
        } else {
            other
        }
    }

    /// Records what a search of `cells` (entered by move `m`; `u8::MAX` for the start)
    /// learned: no path from it is shorter than `d` (its estimate, as BPMX raised it), and
    /// none that does not undo `m` is shorter than `w`; the search generated `generated`
    /// children in all.
    #[inline]
    pub(super) fn learn(&mut self, cells: u64, m: u8, d: u32, w: u32, generated: u64) {
        let Some(i) = self.find(cells) else {
            return; // another board took the slot since: the fact is lost, not wrong
        };
        let s = &mut self.slots[i];
        s.subtree = (64 - generated.leading_zeros()) as u8;
        // A bound on every path is a bound on those of any first move.
        let d = d.min(255) as u8;
        for x in &mut s.w {
            *x = (*x).max(d);
        }
        if m < 4 {
            s.w[m as usize] = s.w[m as usize].max(w.min(255) as u8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh() -> Transpositions {
        let mut t = Transpositions::empty();
        t.slots = vec![Slot::default(); 1 << BITS];
        t.first = 1;
        t.next_iteration();
        t
    }

    #[test]
    fn a_board_is_repeated_only_in_the_same_iteration_and_no_shallower() {
        let mut t = fresh();
        assert!(!t.seen(0x1234, 5, 0).repeated);
        t.enter(0x1234, 5);
        assert!(t.seen(0x1234, 5, 0).repeated);
        assert!(t.seen(0x1234, 9, 2).repeated);
        assert!(!t.seen(0x1234, 4, 0).repeated, "shallower: search it again");
        assert!(!t.seen(0x4321, 9, 0).repeated, "another board");
        t.next_iteration();
        assert!(!t.seen(0x1234, 9, 0).repeated, "another iteration");
    }

    /// Boards that share a bucket: found by trying multiples of a stride until three land
    /// in the bucket of the first.
    fn bucket_mates(t: &Transpositions) -> [u64; 3] {
        let mut found = vec![];
        let mut b = 1u64;
        while found.len() < 3 {
            if found.is_empty() || t.bucket(b) == t.bucket(found[0]) {
                found.push(b);
            }
            b += 0x101;
        }
        [found[0], found[1], found[2]]
    }

    #[test]
    fn a_bucket_keeps_its_shallowest_board_and_replaces_the_other() {
        let mut t = fresh();
        let [a, b, c] = bucket_mates(&t);
        t.enter(a, 3);
        t.enter(b, 9);
        t.enter(c, 12); // deeper than both: takes the always-replaced slot, b's
        assert!(t.seen(a, 3, 0).repeated, "the shallow board stays");
        assert!(!t.seen(b, 9, 0).repeated, "the deeper one went");
        assert!(t.seen(c, 12, 0).repeated);
        t.enter(b, 1); // shallower than a: takes the kept slot, a moves to the other
        assert!(t.seen(b, 1, 0).repeated);
        assert!(t.seen(a, 3, 0).repeated);
        assert!(!t.seen(c, 12, 0).repeated);
    }

    #[test]
    fn a_finished_search_leaves_the_size_of_its_subtree() {
        let mut t = fresh();
        t.enter(0x88, 2);
        assert_eq!(t.seen(0x88, 2, 0).subtree, 0, "not finished yet");
        t.learn(0x88, 0, 3, 3, 1000);
        assert_eq!(t.seen(0x88, 2, 0).subtree, 10, "2^9 <= 1000 < 2^10");
        t.next_iteration();
        t.enter(0x88, 2);
        assert_eq!(
            t.seen(0x88, 2, 0).subtree,
            10,
            "kept until the search finishes again"
        );
        t.learn(0x88, 0, 3, 3, 1);
        assert_eq!(t.seen(0x88, 2, 0).subtree, 1);
        assert_eq!(t.seen(0x99, 2, 0).subtree, 0, "unknown board");
    }

    #[test]
    fn bounds_are_per_move_kept_across_iterations_and_forgotten_by_the_next_solve() {
        let mut t = fresh();
        t.enter(0x77, 3);
        t.learn(0x77, 2, 0, 9, 0);
        t.learn(0x77, 2, 0, 7, 0); // a weaker bound does not lower it
        assert_eq!(t.seen(0x77, 3, 2).bound, 9);
        assert_eq!(t.seen(0x77, 3, 1).bound, 0, "another move's paths");
        t.learn(0x77, u8::MAX, 8, 8, 0); // a bound on every path bounds every move's paths
        assert_eq!([0, 1, 2, 3].map(|m| t.seen(0x77, 3, m).bound), [8, 8, 9, 8]);
        t.learn(0x77, 1, 6, 10, 0); // the distance's bound for all, the other for move 1
        assert_eq!(
            [0, 1, 2, 3].map(|m| t.seen(0x77, 3, m).bound),
            [8, 10, 9, 8]
        );
        t.next_iteration();
        assert_eq!(t.seen(0x77, 3, 2).bound, 9);
        t.learn(0x99, 0, 5, 5, 0); // never entered: nothing to attach it to
        assert_eq!(t.seen(0x99, 0, 0).bound, 0);
        // A new solve (another goal, perhaps): the old facts mean nothing.
        t.first = t.stamp + 1;
        t.next_iteration();
        assert_eq!(t.seen(0x77, 3, 2).bound, 0);
        assert!(!t.seen(0x77, 9, 2).repeated);
    }

    #[test]
    fn the_table_grows_when_overfull_and_keeps_what_it_can() {
        let mut t = fresh();
        let boards: Vec<u64> = (1..=3 << BITS).map(|i| i * 0x1_0001).collect();
        for &b in &boards {
            t.enter(b, 1);
        }
        assert!(t.slots.len() > 1 << BITS, "{} slots", t.slots.len());
        let kept = boards.iter().filter(|&&b| t.seen(b, 1, 0).repeated).count();
        assert!(kept > boards.len() / 2, "{kept} of {}", boards.len());
        assert!(t.held() <= t.slots.len() as u64);
    }

    #[test]
    fn a_table_cut_to_one_slot_by_the_memory_guard_still_works() {
        Transpositions::with(1, |t| {
            assert_eq!(t.slots.len(), 1);
            t.next_iteration();
            t.enter(0x1234, 2);
            assert!(t.seen(0x1234, 3, 0).repeated);
            t.enter(0x4321, 2); // takes the one slot
            assert!(!t.seen(0x1234, 3, 0).repeated);
            assert_eq!(t.held(), 1);
        });
        // The next solve with room gets a table of its first size again.
        Transpositions::with(u64::MAX, |t| assert_eq!(t.slots.len(), 1 << BITS));
    }

    #[test]
    fn running_out_of_stamps_wipes_the_table() {
        let mut t = fresh();
        t.enter(0x55, 1);
        t.learn(0x55, 0, 4, 4, 0);
        t.stamp = STAMP_LIMIT - 1;
        t.next_iteration();
        assert_eq!(t.stamp, 1);
        assert_eq!(t.seen(0x55, 1, 0).bound, 0);
        t.enter(0x55, 1);
        assert!(t.seen(0x55, 1, 0).repeated);
    }
}
