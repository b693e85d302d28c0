//! The least pair: a symmetry cut of the static search beyond the orbit
//! test (docs/static.md, "Symmetry").
//!
//! Let `G` be the group the search's orbit test uses at the root (symbol
//! relabellings and position permutations, or a secret list's stabilizer),
//! `g1` the first guess of a set (the least code of its `G`-orbit) and `H1`
//! the elements of `G` fixing `g1`. For a guess `x` in `g1`'s orbit, the
//! *pair value* of `(x, z)` is `c(x, z)`: the least code of the `H1`-orbit
//! of `σ·z`, for any `σ ∈ G` with `σ·x = g1`. It does not depend on `σ`
//! (two such differ by an element of `H1`), and `c(τ·x, τ·z) = c(x, z)` for
//! every `τ ∈ G`; `c(g1, z)` is the least code of `z`'s `H1`-orbit.
//!
//! Invariant: every set has an image under `G` whose least code is `g1`,
//! whose second least is `g2 = c(x*, y*)`, the least pair value over its
//! ordered pairs `(x, y)` with `x` in `g1`'s orbit, and in which every such
//! pair has `c(x, y) >= g2`. Proof: map an `x*` of least orbit minimum to
//! `g1` (every other guess `z` is then above it: `z >= ` its orbit minimum
//! `>= g1`, and `z != g1`), then, by an element of `H1`, its partner `y*` to
//! `c(x*, y*)` (the least of its `H1`-orbit): every other guess `z` has
//! `z >= c(g1, z) >= g2` (the pair `(g1, z)` is one of the pairs), and
//! `z != g2`. Pair values are kept by `G`, so the bound holds for every pair
//! of the image, and of every further image under the elements fixing `g1`
//! and `g2`, which the orbit test of the later guesses uses (the search's
//! "Symmetry" invariant). So a search that tries `g2` in increasing order
//! and, below it, only guesses `z` with `c(x, z) >= g2` and `c(z, x) >= g2`
//! for every chosen `x` meets every set's image: the cut loses no set.
//!
//! Without it, a set is met once for each of its guesses mapped to `g1`
//! and each partner that can come second; with it, only through its least
//! pairs.
//!
//! The table holds `c(x, z)` for every pair of guesses when the group is
//! every relabelling and position permutation (then `σ` is found by trying
//! the position permutations) and it fits in [`MAX_TABLE_BYTES`]; otherwise
//! only the pairs `(g1, z)` (the cut is then weaker, never wrong).

use super::Task;
use crate::exec::Parallel;
use crate::model::code::Code;
use crate::model::game::Game;
use crate::model::symmetry::{position_permutations, Stabilizer};

/// Largest full table (guesses², two bytes each, twice: by first and by
/// second guess of the pair): 256 MiB.
pub(super) const MAX_TABLE_BYTES: usize = 256 << 20;

/// No bound: `x` is not in `g1`'s orbit, or the value is not known.
const NONE: u16 = u16::MAX;

/// The pair values of one first guess.
pub(super) struct PairTable {
    /// Number of guesses.
    m: usize,
    /// The first guess (index into the guesses).
    g1: usize,
    /// `values[x * m + z] = c(x, z)` (a code), or [`NONE`]; only the row of
    /// `g1` when `!full`.
    values: Vec<u16>,
    /// `reverse[x * m + z] = c(z, x)` (empty when `!full`): rows, so that
    /// both directions of a chosen guess's pairs read memory in order.
    reverse: Vec<u16>,
    full: bool,
}

impl PairTable {
    /// The table of first guess `g1` (an index into `guesses`, the game's
    /// guesses in code order), `root` the group of the orbit test at the
    /// root; `None` when `g1`'s stabilizer is trivial (the cut would do
    /// nothing).
    pub(super) fn new(
        game: &Game,
        guesses: &[Code],
        g1: usize,
        root: &Stabilizer,
        par: &dyn Parallel,
    ) -> Option<PairTable> {
        let book = game.codes();
        let first = book.symbols(guesses[g1]).to_vec();
        let h1 = root.fix(&first);
        if h1.is_trivial() {
            return None;
        }
        let least = h1.orbits(book, 0);
        let m = guesses.len();
        let full = game.secret_set().is_none()
            && game.rules().has_symmetry()
            && m * m * 4 <= MAX_TABLE_BYTES;
        if !full {
            let values = guesses.iter().map(|z| least[z.index()].0).collect();
            return Some(PairTable {
                m,
                g1,
                values,
                reverse: Vec::new(),
                full,
            });
        }
        let k = first.len();
        let symbols = game.rules().symbols();
        let perms = position_permutations(k);
        let rows: Vec<Vec<u16>> = crate::exec::map(par, m, |x| {
            let Some((perm, map)) = to_first(book.symbols(guesses[x]), &first, &perms, symbols)
            else {
                return vec![NONE; m];
            };
            let mut image = vec![0u8; k];
            guesses
                .iter()
                .map(|&z| {
                    for (i, &s) in book.symbols(z).iter().enumerate() {
                        image[perm[i] as usize] = map[s as usize];
                    }
                    book.find(&image).map_or(NONE, |w| least[w.index()].0)
                })
                .collect()
        });
        let values = rows.concat();
        let mut reverse = vec![NONE; m * m];
        for (x, row) in values.chunks_exact(m).enumerate() {
            for (z, &v) in row.iter().enumerate() {
                reverse[z * m + x] = v;
            }
        }
        Some(PairTable {
            m,
            g1,
            values,
            reverse,
            full,
        })
    }

    /// Clears in `allowed` (one byte a guess) every guess `z` whose pairs
    /// with `x` break the bound: `c(x, z) < floor` or `c(z, x) < floor`.
    pub(super) fn narrow(&self, x: usize, floor: u16, allowed: &mut [u8]) {
        if !self.full {
            if x == self.g1 {
                for (a, &v) in allowed.iter_mut().zip(&self.values) {
                    *a &= u8::from(v >= floor);
                }
            }
            return;
        }
        let m = self.m;
        let there = &self.values[x * m..(x + 1) * m];
        let back = &self.reverse[x * m..(x + 1) * m];
        for ((a, &v), &w) in allowed.iter_mut().zip(there).zip(back) {
            *a &= u8::from(v >= floor) & u8::from(w >= floor);
        }
    }

    /// `c(x, z)` as a code, or `u16::MAX` when it bounds nothing.
    #[inline]
    pub(super) fn value(&self, x: usize, z: usize) -> u16 {
        if self.full {
            self.values[x * self.m + z]
        } else if x == self.g1 {
            self.values[z]
        } else {
            NONE
        }
    }
}

/// An element of the group of every relabelling and position permutation
/// that maps `x` to `first` (`first` the least code of its orbit): a
/// position permutation (`image[perm[i]] = map[code[i]]`, the action of
/// [`Stabilizer`]) and a symbol map; `None` when `x` is in another orbit.
fn to_first(
    x: &[u8],
    first: &[u8],
    perms: &[Vec<u8>],
    symbols: usize,
) -> Option<(Vec<u8>, Vec<u8>)> {
    const UNSET: u8 = u8::MAX;
    let k = x.len();
    let mut moved = vec![0u8; k];
    for perm in perms {
        for (i, &s) in x.iter().enumerate() {
            moved[perm[i] as usize] = s;
        }
        // The least relabelling of `moved`: symbols in order of first
        // appearance.
        let mut map = vec![UNSET; symbols];
        let mut next = 0u8;
        let mut equal = true;
        for (&s, &f) in moved.iter().zip(first) {
            if map[s as usize] == UNSET {
                map[s as usize] = next;
                next += 1;
            }
            if map[s as usize] != f {
                equal = false;
                break;
            }
        }
        if !equal {
            continue;
        }
        // The other symbols take the other labels, in increasing order.
        for slot in map.iter_mut().filter(|m| **m == UNSET) {
            *slot = next;
            next += 1;
        }
        return Some((perm.clone(), map));
    }
    None
}

/// The guesses the cut lets come after `d` chosen ones (row `d` of a
/// task's `allowed`, `m` bytes; row 0 below `d = 2`, all allowed).
pub(super) fn allowed_at(allowed: &[u8], d: usize, m: usize) -> &[u8] {
    if d >= 2 {
        &allowed[d * m..(d + 1) * m]
    } else {
        &allowed[..m]
    }
}

/// The cut in the search: the pair values of the first guess chosen, and
/// the guesses allowed after each depth.
impl Task<'_, '_> {
    /// Chooses guess `g`; the first one chosen sets the pair values, the
    /// second and later ones narrow the guesses allowed after them.
    pub(super) fn push(&mut self, g: usize) {
        if self.chosen.is_empty() && self.pairs.as_ref().is_none_or(|(g1, _)| *g1 != g) {
            self.pairs = Some((g, self.ctx.pair_table(g)));
        }
        self.chosen.push(g);
        let (d, m) = (self.chosen.len(), self.ctx.m);
        if d < 2 {
            return;
        }
        if self.allowed.len() < (d + 1) * m {
            self.allowed.resize((d + 1) * m, 1);
        }
        let (before, row) = self.allowed.split_at_mut(d * m);
        let row = &mut row[..m];
        let Some((_, Some(table))) = &self.pairs else {
            row.fill(1);
            return;
        };
        let floor = self.ctx.guesses[self.chosen[1]].0;
        if d == 2 {
            row.fill(1);
            table.narrow(self.chosen[0], floor, row);
        } else {
            row.copy_from_slice(&before[(d - 1) * m..]);
        }
        table.narrow(g, floor, row);
    }

    /// Whether the least-pair cut (module `pairs`) lets guess `z` join
    /// the chosen ones: `c(x, z)` and `c(z, x)` at least the second guess
    /// (`z` itself when it is the second) for every chosen `x`.
    #[inline]
    pub(super) fn admits(&self, z: usize) -> bool {
        let Some((_, Some(table))) = &self.pairs else {
            return true;
        };
        match self.chosen.len() {
            0 => true,
            1 => {
                let (g1, floor) = (self.chosen[0], self.ctx.guesses[z].0);
                table.value(g1, z) >= floor && table.value(z, g1) >= floor
            }
            d => self.allowed[d * self.ctx.m + z] != 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::Sequential;

    /// `c` is kept by the group: for every pair and every relabelling of
    /// symbols and positions, the image pair has the same value, and
    /// `c(g1, z)` is the least code of `z`'s orbit under `g1`'s stabilizer.
    #[test]
    fn pair_values_are_invariant() {
        for rules in ["moo:3x5", "mm:3x3", "mm:2x4", "moo:4x5"] {
            let game = Game::new(rules.parse().unwrap());
            let book = game.codes();
            let guesses: Vec<Code> = book.all().collect();
            let root = Stabilizer::root(game.rules());
            let filter = root.orbit_filter(book);
            for (g1, &c1) in guesses.iter().enumerate() {
                if filter.as_ref().is_some_and(|f| !f.keeps(c1)) {
                    continue;
                }
                let Some(table) = PairTable::new(&game, &guesses, g1, &root, &Sequential) else {
                    continue;
                };
                assert!(table.full, "{rules}");
                let h1 = root.fix(book.symbols(c1));
                let least = h1.orbits(book, 0);
                let k = game.rules().positions();
                let n = game.rules().symbols();
                let perms = position_permutations(k);
                for (z, l) in least.iter().enumerate() {
                    assert_eq!(table.value(g1, z), l.0, "{rules}");
                }
                // A few group elements: a position permutation and a
                // rotation of the symbols.
                for (e, perm) in perms.iter().enumerate().take(4) {
                    let shift = e % n;
                    let act = |c: Code| {
                        let mut image = vec![0u8; k];
                        for (i, &s) in book.symbols(c).iter().enumerate() {
                            image[perm[i] as usize] = ((s as usize + shift) % n) as u8;
                        }
                        book.find(&image).unwrap().index()
                    };
                    for x in 0..guesses.len() {
                        for z in 0..guesses.len() {
                            assert_eq!(
                                table.value(x, z),
                                table.value(act(guesses[x]), act(guesses[z])),
                                "{rules}"
                            );
                        }
                    }
                }
            }
        }
    }
}
