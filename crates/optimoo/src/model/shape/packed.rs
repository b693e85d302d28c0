//! Codes of games of any size: packed into three words, numbered in
//! lexicographic order without a table.
//!
//! Invariants:
//! - A [`Packed`] holds one symbol per nibble of `pos`, position 0 in the
//!   most significant nibble used, so `pos` order *is* lexicographic order
//!   (the order of the small games' `Code` indices);
//! - `therm` holds, for each symbol `s`, as many set bits as the code has
//!   copies of `s`, in a field of `width` bits (1 without repeats, `k` with
//!   them) at bit `s * width`: the common symbols of two codes (bulls plus
//!   cows) are the popcount of the two fields' intersection;
//! - [`Shape::feedback`] agrees with the model's rule on every pair (tested
//!   against `model::feedback` on every small game).

use crate::model::code::{char_symbol, symbol_char};
use crate::model::feedback::Feedback;

use super::{Shape, ShapeError};

/// A code of a [`Shape`] (see the module doc for the layout).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Packed {
    /// One symbol per nibble, position 0 most significant.
    pub pos: u64,
    /// Symbol counts in unary fields (the low and high 64 bits).
    pub therm: [u64; 2],
}

/// A guess as the candidates' builder reads it: its symbols by position,
/// its symbol counts, its bulls and common symbols, and (`after[i]`) the
/// symbols it has after position `i`.
pub(super) type Guessed = ([u8; 16], [u8; 16], u8, u8, [u32; 16]);

/// [`Distinct::advance`] for a guess `g` of a game with repeats: the
/// prefix extended by symbol `s` at position `i` has `seen` copies of `s`
/// before it; cut when it has passed the guess's answer or has too few
/// positions left to reach it (both grow by at most one a position).
#[inline(always)]
pub(super) fn advance_repeats(
    g: &Guessed,
    i: usize,
    s: usize,
    seen: u8,
    left: u8,
    row: [u8; 2],
) -> Option<[u8; 2]> {
    let (symbols, counts, bulls, common, _) = g;
    let b = row[0] + u8::from(symbols[i] as usize == s);
    let c = row[1] + u8::from(seen < counts[s]);
    let cut = b > *bulls || c > *common || b + left < *bulls || c + left < *common;
    (!cut).then_some([b, c])
}

/// A guess of a game without repeats as [`Shape::distinct`] (and the
/// counted sets of [`super::counted`]) read it.
#[derive(Debug)]
pub(super) struct Distinct {
    /// Its symbol at each position.
    at: [u8; 16],
    /// The set of its symbols.
    set: u32,
    /// The bulls its answer says.
    bulls: u8,
    /// The common symbols its answer says.
    common: u8,
    /// `after[i]`: its symbols after position `i`.
    after: [u32; 16],
}

impl Distinct {
    /// The bulls and common symbols with this guess of a prefix that
    /// `row` describes (`i` positions set) extended by symbol `s` at
    /// position `i` (`taken`: the extended prefix's symbols, `all`: the
    /// game's, `left`: the positions after `i`); `None` when no code with
    /// that prefix can give this guess its answer. At the last position
    /// (`left == 0`) the answer must be reached exactly; before, the
    /// prefix is cut when it has passed the answer or cannot reach it:
    /// later bulls need later positions whose guess symbol is free, later
    /// common symbols need free symbols of the guess, and the positions
    /// the other symbols cannot fill.
    #[inline(always)]
    pub(super) fn advance(
        &self,
        i: usize,
        s: u32,
        taken: u32,
        all: u32,
        left: u8,
        row: [u8; 2],
    ) -> Option<[u8; 2]> {
        let b = row[0] + u8::from(self.at[i] as u32 == s);
        let c = row[1] + ((self.set >> s) & 1) as u8;
        if left == 0 {
            return (b == self.bulls && c == self.common).then_some([b, c]);
        }
        let more = (self.after[i] & !taken).count_ones() as u8;
        let theirs = (self.set & !taken).count_ones() as u8;
        let others = (all & !self.set & !taken).count_ones() as u8;
        let cut = b > self.bulls
            || b + more < self.bulls
            || c + left.saturating_sub(others) > self.common
            || c + left.min(theirs) < self.common;
        (!cut).then_some([b, c])
    }
}

impl Shape {
    /// Packs `symbols` (already checked legal).
    pub fn pack(&self, symbols: &[u8]) -> Packed {
        let k = self.positions;
        let w = self.width();
        let mut code = Packed::default();
        let mut seen = [0usize; 16];
        for (i, &s) in symbols.iter().enumerate() {
            code.pos |= (s as u64) << (4 * (k - 1 - i));
            let bit = s as usize * w + seen[s as usize];
            seen[s as usize] += 1;
            code.therm[bit / 64] |= 1 << (bit % 64);
        }
        code
    }

    /// The symbols of `code`, position 0 first.
    pub fn symbols_of(&self, code: Packed) -> Vec<u8> {
        let k = self.positions;
        (0..k)
            .map(|i| ((code.pos >> (4 * (k - 1 - i))) & 0xf) as u8)
            .collect()
    }

    /// The answer to `guess` when the secret is `secret` (symmetric).
    #[inline]
    pub fn feedback(&self, secret: Packed, guess: Packed) -> Feedback {
        let x = secret.pos ^ guess.pos;
        let mut y = x | (x >> 1);
        y |= y >> 2;
        let wrong = (y & self.nibble_ones).count_ones() as usize;
        let bulls = self.positions - wrong;
        let common = (secret.therm[0] & guess.therm[0]).count_ones()
            + (secret.therm[1] & guess.therm[1]).count_ones();
        Feedback::new(bulls, common as usize - bulls, self.positions)
    }

    /// Every code in lexicographic order (the caller states the memory
    /// first: see [`Shape::memory_bytes`]). Built position by position, each
    /// code from its prefix's words.
    pub fn all_codes(&self) -> Vec<Packed> {
        let mut out = Vec::with_capacity(self.code_count() as usize);
        self.fill(0, Packed::default(), 0, &mut [0u8; 16], &mut |c| {
            out.push(c)
        });
        out
    }

    fn fill(
        &self,
        i: usize,
        code: Packed,
        used: u32,
        seen: &mut [u8; 16],
        out: &mut dyn FnMut(Packed),
    ) {
        if i == self.positions {
            out(code);
            return;
        }
        let w = self.width();
        let shift = 4 * (self.positions - 1 - i);
        // The symbols this position may take, smallest first.
        let mut free = self.free(used);
        if i + 1 == self.positions {
            // The last position: push the codes at once, no call per code.
            while free != 0 {
                let s = free.trailing_zeros() as usize;
                free &= free - 1;
                let bit = s * w + seen[s] as usize;
                let mut next = code;
                next.pos |= (s as u64) << shift;
                next.therm[bit / 64] |= 1 << (bit % 64);
                out(next);
            }
            return;
        }
        while free != 0 {
            let s = free.trailing_zeros() as usize;
            free &= free - 1;
            let bit = s * w + seen[s] as usize;
            let mut next = code;
            next.pos |= (s as u64) << shift;
            next.therm[bit / 64] |= 1 << (bit % 64);
            seen[s] += 1;
            self.fill(i + 1, next, used | (1 << s), seen, out);
            seen[s] -= 1;
        }
    }

    /// The symbols a position may take after the symbols `used`: all of
    /// them with repeats, else the unused ones.
    pub(super) fn free(&self, used: u32) -> u32 {
        let all = (1u32 << self.symbols) - 1;
        if self.repeats {
            all
        } else {
            all & !used
        }
    }

    /// The codes that answer every `(guess, answer)` of `history` as given,
    /// in lexicographic order: the candidates after a history, built
    /// position by position and cut as soon as a prefix has more bulls or
    /// common symbols with a guess than its answer says, or too few
    /// positions left to reach them (both grow by at most one a position).
    pub fn candidates(&self, history: &[(Packed, Feedback)]) -> Vec<Packed> {
        self.candidates_with(history, &crate::exec::Sequential)
    }

    /// [`Shape::candidates`], one task per symbol of the first position run
    /// by `par` (the result does not depend on it).
    pub fn candidates_with(
        &self,
        history: &[(Packed, Feedback)],
        par: &dyn crate::exec::Parallel,
    ) -> Vec<Packed> {
        let k = self.positions;
        let guesses = self.guessed(history);
        let per = (self.code_count() / self.symbols as u128).min(1 << 20) as usize;
        if !self.repeats {
            let guesses = Self::distinct_guesses(&guesses);
            let parts = crate::exec::map(par, self.symbols, |first| {
                let mut out = Vec::with_capacity(per);
                let mut state = vec![[0u8; 2]; guesses.len() * (k + 1)];
                self.distinct(0, 1 << first, 0, 0, &guesses, &mut state, &mut out);
                out
            });
            return parts.concat();
        }
        let parts = crate::exec::map(par, self.symbols, |first| {
            // Room for every code of this first symbol, reserved (only the
            // pages written are used): no copy as the list grows.
            let mut out = Vec::with_capacity(per);
            // One row of (bulls, common symbols) per guess and position.
            let mut state = vec![[0u8; 2]; guesses.len() * (k + 1)];
            self.prune(
                0,
                first as u32,
                Packed::default(),
                0,
                &mut [0u8; 16],
                &guesses,
                &mut state,
                &mut out,
            );
            out
        });
        parts.concat()
    }

    /// The memory [`Shape::candidates_with`] takes to list `codes` codes:
    /// the parts and their concatenation (24 bytes a code each), and each
    /// first symbol's part reserved up to 2^20 codes. A caller states it
    /// (from [`super::counted::len_at_most`]) before listing a large set.
    pub fn list_bytes(&self, codes: u64) -> u64 {
        let code = std::mem::size_of::<Packed>() as u64;
        let per = (self.code_count() / self.symbols as u128).min(1 << 20) as u64;
        codes
            .saturating_mul(2 * code)
            .saturating_add(self.symbols as u64 * per * code)
    }

    /// The guesses of `history` as the builders read them.
    pub(super) fn guessed(&self, history: &[(Packed, Feedback)]) -> Vec<Guessed> {
        let k = self.positions;
        history
            .iter()
            .map(|&(g, f)| {
                let mut symbols = [0u8; 16];
                let mut counts = [0u8; 16];
                for (i, s) in self.symbols_of(g).into_iter().enumerate() {
                    symbols[i] = s;
                    counts[s as usize] += 1;
                }
                let bulls = f.bulls(k);
                let mut after = [0u32; 16];
                for i in (0..k.saturating_sub(1)).rev() {
                    after[i] = after[i + 1] | 1 << symbols[i + 1];
                }
                let common = (bulls + f.cows(k)) as u8;
                (symbols, counts, bulls as u8, common, after)
            })
            .collect()
    }

    /// `guesses` as [`Shape::distinct`] reads them (a game without
    /// repeats).
    fn distinct_guesses(guesses: &[Guessed]) -> Vec<Distinct> {
        guesses
            .iter()
            .map(|(symbols, counts, bulls, common, after)| Distinct {
                at: *symbols,
                set: (0..16)
                    .filter(|&s| counts[s] > 0)
                    .fold(0, |m, s| m | 1 << s),
                bulls: *bulls,
                common: *common,
                after: *after,
            })
            .collect()
    }

    /// The guesses of `history` as [`Distinct`] (a game without repeats).
    pub(super) fn distinct_history(&self, history: &[(Packed, Feedback)]) -> Vec<Distinct> {
        Self::distinct_guesses(&self.guessed(history))
    }

    /// Extends `code`, whose first `i` positions are set, by every symbol
    /// (at `i == 0`, by `only` alone) that keeps it consistent with
    /// `guesses` (`state`'s first row: the prefix's bulls and common
    /// symbols with each guess, the rows after it scratch for the longer
    /// prefixes; `seen`: the prefix's symbol counts, `used` their set). A
    /// game with repeats: [`Shape::distinct`] builds the others.
    #[allow(clippy::too_many_arguments)]
    fn prune(
        &self,
        i: usize,
        only: u32,
        code: Packed,
        used: u32,
        seen: &mut [u8; 16],
        guesses: &[Guessed],
        state: &mut [[u8; 2]],
        out: &mut Vec<Packed>,
    ) {
        let k = self.positions;
        let left = (k - i - 1) as u8;
        let w = self.width();
        let shift = 4 * left;
        let (row, below) = state.split_at_mut(guesses.len());
        let mut free = if i == 0 { 1 << only } else { self.free(used) };
        'symbol: while free != 0 {
            let s = free.trailing_zeros() as usize;
            free &= free - 1;
            let taken = used | 1 << s;
            for (g, (&row, below)) in guesses.iter().zip(row.iter().zip(below.iter_mut())) {
                match advance_repeats(g, i, s, seen[s], left, row) {
                    Some(next) => *below = next,
                    None => continue 'symbol,
                }
            }
            let bit = s * w + seen[s] as usize;
            let mut next = code;
            next.pos |= (s as u64) << shift;
            next.therm[bit / 64] |= 1 << (bit % 64);
            if left == 0 {
                out.push(next);
                continue;
            }
            seen[s] += 1;
            if left == 1 {
                self.last(next, taken, seen, guesses, &below[..guesses.len()], out);
            } else {
                self.prune(i + 1, only, next, taken, seen, guesses, below, out);
            }
            seen[s] -= 1;
        }
    }

    /// [`Shape::prune`] for games without repeats (a speed step: the
    /// player's answer on `moo:10x10` is mostly this): a guess's common
    /// symbols are a bit test, the symbol counts are the set of symbols
    /// used, and a prefix is cut also when too few of a guess's symbols
    /// (or too few others) are left to reach its answer. `free` is the
    /// symbols position `i` may take; `pos` and `used` the prefix.
    #[allow(clippy::too_many_arguments)]
    fn distinct(
        &self,
        i: usize,
        free: u32,
        pos: u64,
        used: u32,
        guesses: &[Distinct],
        state: &mut [[u8; 2]],
        out: &mut Vec<Packed>,
    ) {
        let all = (1u32 << self.symbols) - 1;
        let left = (self.positions - i - 1) as u8;
        let (row, below) = state.split_at_mut(guesses.len());
        let mut free = free;
        'symbol: while free != 0 {
            let s = free.trailing_zeros();
            free &= free - 1;
            let taken = used | 1 << s;
            for (g, (&row, below)) in guesses.iter().zip(row.iter().zip(below.iter_mut())) {
                match g.advance(i, s, taken, all, left, row) {
                    Some(next) => *below = next,
                    None => continue 'symbol,
                }
            }
            let next = pos | (s as u64) << (4 * left);
            if left == 0 {
                out.push(Packed {
                    pos: next,
                    therm: [taken as u64, 0],
                });
            } else if left == 1 {
                // The last position inline (most calls would be its).
                let mut last = all & !taken;
                'last: while last != 0 {
                    let t = last.trailing_zeros();
                    last &= last - 1;
                    for (g, row) in guesses.iter().zip(below.iter()) {
                        if row[0] + u8::from(g.at[i + 1] as u32 == t) != g.bulls
                            || row[1] + ((g.set >> t) & 1) as u8 != g.common
                        {
                            continue 'last;
                        }
                    }
                    out.push(Packed {
                        pos: next | t as u64,
                        therm: [(taken | 1 << t) as u64, 0],
                    });
                }
            } else {
                self.distinct(i + 1, all & !taken, next, taken, guesses, below, out);
            }
        }
    }

    /// The last position of [`Shape::prune`], inline (a speed step: most
    /// calls are the last position's): every symbol that gives `code`
    /// exactly each guess's bulls and common symbols.
    #[inline(always)]
    fn last(
        &self,
        code: Packed,
        used: u32,
        seen: &[u8; 16],
        guesses: &[Guessed],
        row: &[[u8; 2]],
        out: &mut Vec<Packed>,
    ) {
        let i = self.positions - 1;
        let w = self.width();
        let mut free = self.free(used);
        'symbol: while free != 0 {
            let s = free.trailing_zeros() as usize;
            free &= free - 1;
            for (j, (symbols, counts, bulls, common, _)) in guesses.iter().enumerate() {
                let b = row[j][0] + u8::from(symbols[i] as usize == s);
                let c = row[j][1] + u8::from(seen[s] < counts[s]);
                if b != *bulls || c != *common {
                    continue 'symbol;
                }
            }
            let bit = s * w + seen[s] as usize;
            let mut next = code;
            next.pos |= s as u64;
            next.therm[bit / 64] |= 1 << (bit % 64);
            out.push(next);
        }
    }

    /// The first-guess patterns: runs of the symbols 0, 1, 2, … whose
    /// lengths are a partition of the positions into at most `symbols`
    /// parts, non-increasing (without repeats, `012…` alone: every part 1),
    /// each with its parts, in code order. Every code is one of them up to
    /// the permutations of symbols and positions.
    pub fn patterns(&self) -> Vec<(Packed, Vec<usize>)> {
        let k = self.positions;
        let mut all = Vec::new();
        if self.repeats {
            partitions(k, k, self.symbols, &mut Vec::new(), &mut all);
        } else {
            all.push(vec![1; k]);
        }
        // The largest first part first: the codes come in code order.
        let out: Vec<(Packed, Vec<usize>)> = all
            .into_iter()
            .map(|parts| {
                let symbols: Vec<u8> = parts
                    .iter()
                    .enumerate()
                    .flat_map(|(s, &len)| std::iter::repeat_n(s as u8, len))
                    .collect();
                (self.pack(&symbols), parts)
            })
            .collect();
        debug_assert!(out.windows(2).all(|w| w[0].0 < w[1].0));
        out
    }

    /// The codes one step from `code`: two positions swapped, or one
    /// position given another symbol (without repeats, an unused one), in
    /// code order.
    pub fn neighbours(&self, code: Packed) -> Vec<Packed> {
        let symbols = self.symbols_of(code);
        let k = symbols.len();
        let used: u32 = symbols.iter().fold(0, |m, &s| m | 1 << s);
        let mut out = Vec::new();
        let mut next = symbols.clone();
        for i in 0..k {
            for j in i + 1..k {
                if symbols[i] != symbols[j] {
                    next.swap(i, j);
                    out.push(self.pack(&next));
                    next.swap(i, j);
                }
            }
            for s in 0..self.symbols as u8 {
                if s != symbols[i] && (self.repeats || used & (1 << s) == 0) {
                    next[i] = s;
                    out.push(self.pack(&next));
                }
            }
            next[i] = symbols[i];
        }
        out.sort_unstable();
        out
    }

    /// The code of lexicographic rank `index` (`index < code_count()`).
    pub fn unrank(&self, mut index: u64) -> Packed {
        let k = self.positions;
        let n = self.symbols;
        let mut symbols = vec![0u8; k];
        if self.repeats {
            for i in (0..k).rev() {
                symbols[i] = (index % n as u64) as u8;
                index /= n as u64;
            }
        } else {
            // Position i has (n - i - 1)!/(n - k)! codes below each choice.
            let mut free: Vec<u8> = (0..n as u8).collect();
            for (i, slot) in symbols.iter_mut().enumerate() {
                let below: u64 = ((i + 1)..k).map(|j| (n - j) as u64).product();
                let choice = (index / below) as usize;
                index %= below;
                *slot = free.remove(choice);
            }
        }
        self.pack(&symbols)
    }

    /// The lexicographic rank of `code`.
    pub fn rank(&self, code: Packed) -> u64 {
        let k = self.positions;
        let n = self.symbols;
        let symbols = self.symbols_of(code);
        if self.repeats {
            return symbols.iter().fold(0, |r, &s| r * n as u64 + s as u64);
        }
        let mut used = 0u32;
        let mut rank = 0u64;
        for (i, &s) in symbols.iter().enumerate() {
            let below: u64 = ((i + 1)..k).map(|j| (n - j) as u64).product();
            let smaller_free = (used & ((1u32 << s) - 1)).count_ones() as u64;
            rank += (s as u64 - smaller_free) * below;
            used |= 1 << s;
        }
        rank
    }

    /// The rank of `guess` in `set`-first order (`set` sorted): a candidate
    /// `set[i]` is `i`, any other code `|set| + j`, `j` its index among the
    /// codes outside `set` (how a tree file writes a guess, docs/format.md).
    pub fn rank_in(&self, set: &[Packed], guess: Packed) -> u64 {
        match set.binary_search(&guess) {
            Ok(i) => i as u64,
            Err(below) => set.len() as u64 + self.rank(guess) - below as u64,
        }
    }

    /// The code of rank `r` in `set`-first order (`set` sorted, `r` below the
    /// game's codes): `set[r]`, or the `j`-th code outside `set` (`j = r −
    /// |set|`), which has exactly the members `set[i]` with `rank(set[i]) − i
    /// ≤ j` below it (`rank(set[i]) − i`, the codes outside `set` below
    /// `set[i]`, never decreases): a binary search over `set`.
    pub fn code_of_rank(&self, set: &[Packed], r: u64) -> Packed {
        if r < set.len() as u64 {
            return set[r as usize];
        }
        let j = r - set.len() as u64;
        let (mut lo, mut hi) = (0, set.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.rank(set[mid]) - mid as u64 <= j {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        self.unrank(j + lo as u64)
    }

    /// Reads a written code (`0-9` then `a-f`, one character a position).
    pub fn parse(&self, text: &str) -> Result<Packed, ShapeError> {
        let t = text.trim();
        let bad = |why: String| ShapeError::Code {
            text: t.chars().take(40).collect(),
            why,
        };
        let symbols = t
            .chars()
            .map(|c| match char_symbol(c) {
                Some(s) if (s as usize) < self.symbols => Ok(s),
                _ => Err(bad(format!(
                    "{c:?} is not a symbol of {self}, whose symbols are {}-{}",
                    symbol_char(0),
                    symbol_char(self.symbols as u8 - 1)
                ))),
            })
            .collect::<Result<Vec<u8>, _>>()?;
        if symbols.len() != self.positions {
            return Err(bad(format!(
                "it has {} symbols; a code of {self} has exactly {}",
                symbols.len(),
                self.positions
            )));
        }
        if !self.repeats {
            let mut used = 0u32;
            for &s in &symbols {
                if used & (1 << s) != 0 {
                    return Err(bad(format!(
                        "it repeats {}, which {self} does not allow",
                        symbol_char(s)
                    )));
                }
                used |= 1 << s;
            }
        }
        Ok(self.pack(&symbols))
    }

    /// Reads an answer: `xAyB`, `1a2b`, `1 2` or `1,2`.
    pub fn parse_feedback(&self, text: &str) -> Result<Feedback, ShapeError> {
        let k = self.positions;
        let t = text.trim().to_ascii_lowercase();
        let bad = |why: String| ShapeError::Code {
            text: text.chars().take(40).collect(),
            why,
        };
        let numbers: Vec<&str> = t
            .split(|c: char| c == 'a' || c == 'b' || c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .collect();
        let form = || bad("write bulls and cows as 1A2B, 1a2b, '1 2' or 1,2".into());
        let [a, b] = numbers[..] else {
            return Err(form());
        };
        let (a, b): (usize, usize) = match (a.parse(), b.parse()) {
            (Ok(a), Ok(b)) => (a, b),
            _ => return Err(form()),
        };
        if a + b > k || (a + 1 == k && b == 1) || (!self.repeats && self.symbols == k && a + b != k)
        {
            return Err(bad(format!("{a}A{b}B is impossible in {self}")));
        }
        Ok(Feedback::new(a, b, k))
    }

    /// Reads a move `GUESS:FEEDBACK`.
    pub fn parse_move(&self, text: &str) -> Result<(Packed, Feedback), ShapeError> {
        let (g, f) = text.split_once(':').ok_or_else(|| ShapeError::Code {
            text: text.chars().take(40).collect(),
            why: "write a move as GUESS:FEEDBACK, e.g. 0123456789:2A8B".into(),
        })?;
        Ok((self.parse(g)?, self.parse_feedback(f)?))
    }

    /// Writes a code.
    pub fn format(&self, code: Packed) -> String {
        self.symbols_of(code).into_iter().map(symbol_char).collect()
    }
}

/// Every partition of `k` into at most `parts` parts of at most `max`
/// each, parts non-increasing, pushed to `out` (largest first part first).
fn partitions(k: usize, max: usize, parts: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if k == 0 {
        out.push(cur.clone());
        return;
    }
    if cur.len() == parts {
        return;
    }
    for p in (1..=max.min(k)).rev() {
        cur.push(p);
        partitions(k - p, p, parts, cur, out);
        cur.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Game, Rules};

    /// Every small game: the same codes in the same order, the same
    /// answers as the model, rank and unrank inverse.
    #[test]
    fn packed_codes_agree_with_the_model() {
        for name in [
            "moo:1x1", "moo:3x5", "moo:4x10", "moo:5x6", "mm:1x3", "mm:3x4", "mm:4x6", "mm:2x16",
            "mm:5x4", "moo:2x16", "mm:8x2", "moo:6x6",
        ] {
            let rules: Rules = name.parse().unwrap();
            let game = Game::new(rules);
            let shape = Shape::from_rules(rules).unwrap();
            let codes = shape.all_codes();
            assert_eq!(codes.len(), game.len(), "{name}");
            assert!(codes.windows(2).all(|w| w[0] < w[1]), "{name}: order");
            for (i, &c) in codes.iter().enumerate() {
                assert_eq!(
                    shape.format(c),
                    game.format_code(crate::model::Code(i as u16))
                );
                assert_eq!(shape.unrank(i as u64), c, "{name} #{i}");
                assert_eq!(shape.rank(c), i as u64);
                assert_eq!(shape.parse(&shape.format(c)).unwrap(), c);
            }
            let step = (codes.len() / 97).max(1);
            for (i, &s) in codes.iter().enumerate().step_by(step) {
                for (j, &g) in codes.iter().enumerate() {
                    let want =
                        game.feedback(crate::model::Code(i as u16), crate::model::Code(j as u16));
                    assert_eq!(shape.feedback(s, g), want, "{name}: {i} {j}");
                }
            }
        }
    }

    /// The pruned candidates are the filter of every code, on random
    /// histories of games with and without repeats.
    #[test]
    fn candidates_are_the_filtered_codes() {
        let mut rng = crate::rng::SplitMix64::new(11);
        for name in [
            "moo:4x10", "mm:4x6", "moo:6x8", "mm:5x3", "moo:1x4", "mm:3x12", "moo:7x7", "moo:3x16",
            "moo:2x2", "mm:2x16",
        ] {
            let shape: Shape = name.parse().unwrap();
            let all = shape.all_codes();
            for _ in 0..20 {
                let secret = all[rng.below(all.len())];
                // Now and then an answer of another secret: the set may
                // be empty.
                let other = all[rng.below(all.len())];
                let mut honest = true;
                let history: Vec<(Packed, Feedback)> = (0..rng.below(4))
                    .map(|_| {
                        let g = all[rng.below(all.len())];
                        let s = if rng.below(5) == 0 { other } else { secret };
                        honest &= s == secret;
                        (g, shape.feedback(s, g))
                    })
                    .collect();
                let want: Vec<Packed> = all
                    .iter()
                    .copied()
                    .filter(|&s| history.iter().all(|&(g, f)| shape.feedback(s, g) == f))
                    .collect();
                assert_eq!(shape.candidates(&history), want, "{name} {history:?}");
                let par = crate::exec::Scoped(3);
                assert_eq!(shape.candidates_with(&history, &par), want, "{name}");
                assert!(!honest || want.contains(&secret));
            }
        }
    }

    #[test]
    fn bad_codes_are_refused() {
        let shape: Shape = "moo:10x10".parse().unwrap();
        assert!(shape.parse("0123456789").is_ok());
        assert!(shape.parse("0123456788").is_err());
        assert!(shape.parse("012345678").is_err());
        assert!(shape.parse("012345678a").is_err());
    }
}
