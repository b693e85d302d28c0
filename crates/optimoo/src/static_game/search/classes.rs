//! The partition of the secrets a static search keeps at a node: the
//! classes of two or more secrets with equal answers to the guesses chosen
//! (a class of one is told apart and dropped), and how a guess refines it.
//!
//! Invariants: every class holds at least two secrets, each secret is in
//! at most one class, the classes are listed largest first (ties in the
//! order of their first members' places), and [`Task::refine`] makes the
//! classes of a plain grouping by answer, in that order
//! (`refine_makes_the_classes_of_a_plain_grouping`). [`Refining`] makes
//! the same classes in the same order, as they are read.

use super::Task;

/// Classes of two or more secrets: `members[start..start + len]` for each
/// `(start, len)` of `spans`, largest first.
#[derive(Debug, Clone, Default)]
pub(super) struct Classes {
    pub(super) members: Vec<u16>,
    pub(super) spans: Vec<(u32, u32)>,
}

impl Classes {
    pub(super) fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The classes of two or more secrets of a labelling (secret → class),
    /// largest first.
    pub(super) fn from_labels(labels: &[u32]) -> Classes {
        let mut by_label: Vec<Vec<u16>> = Vec::new();
        for (s, &l) in labels.iter().enumerate() {
            let l = l as usize;
            if by_label.len() <= l {
                by_label.resize(l + 1, Vec::new());
            }
            by_label[l].push(s as u16);
        }
        let mut out = Classes::default();
        for class in by_label.into_iter().filter(|c| c.len() >= 2) {
            out.spans
                .push((out.members.len() as u32, class.len() as u32));
            out.members.extend(class);
        }
        out.spans.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        out
    }

    pub(super) fn class(&self, i: usize) -> &[u16] {
        let (start, len) = self.spans[i];
        &self.members[start as usize..(start + len) as usize]
    }
}

impl<'c> Task<'c, '_> {
    /// The classes after guess `g`, largest first; `None` when a class is
    /// larger than `limit`.
    pub(super) fn refine(&mut self, classes: &Classes, g: usize, limit: u64) -> Option<Classes> {
        let n = self.ctx.n;
        let row = &self.ctx.by_guess[g * n..(g + 1) * n];
        let mut out = Classes {
            members: Vec::with_capacity(classes.members.len()),
            spans: Vec::new(),
        };
        for i in 0..classes.spans.len() {
            let split = Split {
                row,
                limit,
                counts: &mut self.counts,
                places: &mut self.places,
            };
            if !split.class(classes.class(i), &mut out) {
                return None;
            }
        }
        out.spans = largest_first(&out.spans, &mut self.sizes);
        Some(out)
    }

    /// [`Task::refine`], made as it is read: the same classes in the same
    /// order, but each class of `classes` is refined only when a class
    /// made from it is asked for ([`Refining`]). `None` when a class is
    /// larger than `limit` (the classes of `classes` larger than `limit`
    /// are refined at once: only they can make one).
    pub(super) fn refine_lazily<'p>(
        &self,
        classes: &'p Classes,
        g: usize,
        limit: u64,
    ) -> Option<Refining<'p>>
    where
        'c: 'p,
    {
        let ctx: &'c super::Shared<'_> = self.ctx;
        let n = ctx.n;
        let mut lazy = Refining {
            parent: classes,
            row: &ctx.by_guess[g * n..(g + 1) * n],
            next: 0,
            made: Classes {
                members: Vec::with_capacity(classes.members.len()),
                spans: Vec::new(),
            },
            placed: Vec::new(),
            waiting: Vec::new(),
            ready: Vec::new(),
            counts: vec![0; self.counts.len()],
            places: vec![0; self.places.len()],
        };
        let spans = &classes.spans;
        while lazy.next < spans.len() && u64::from(spans[lazy.next].1) > limit {
            let split = Split {
                row: lazy.row,
                limit,
                counts: &mut lazy.counts,
                places: &mut lazy.places,
            };
            if !split.class(classes.class(lazy.next), &mut lazy.made) {
                return None;
            }
            lazy.next += 1;
        }
        lazy.place();
        Some(lazy)
    }
}

/// The classes of a node, read one by one, largest first: [`Classes`],
/// or [`Refining`] (made as they are read).
pub(super) trait Partition {
    /// Class `i` (`None` past the last).
    fn get(&mut self, i: usize) -> Option<&[u16]>;
}

impl Partition for &Classes {
    fn get(&mut self, i: usize) -> Option<&[u16]> {
        (i < self.spans.len()).then(|| self.class(i))
    }
}

/// The classes a guess makes of a node's, made as they are read
/// ([`Task::refine_lazily`]): most nodes with two guesses left read only
/// their first few classes (their killers and weighed pairs end most
/// next-to-last guesses), so refining all of them was a fifth of the
/// search's time on moo:4x10's size 7 (docs/static.md, "The last two
/// guesses").
///
/// Invariants: the classes of `parent` before `next` are refined (their
/// classes in `made`, members in the order [`Task::refine`] writes them);
/// `placed` is a prefix of [`Task::refine`]'s spans, in its order (largest
/// first, ties in the order made); `waiting` holds the other classes made,
/// in the order made, each no larger than the next class of `parent` (a
/// class not yet refined can still make one as large, placed after it).
pub(super) struct Refining<'p> {
    parent: &'p Classes,
    /// The guess's answers, by secret.
    row: &'p [u8],
    next: usize,
    /// The classes made (spans in the order made).
    made: Classes,
    placed: Vec<(u32, u32)>,
    waiting: Vec<(u32, u32)>,
    /// Scratch of [`Refining::place`].
    ready: Vec<(u32, u32)>,
    counts: Vec<u32>,
    places: Vec<u32>,
}

impl Refining<'_> {
    /// Refines the next classes of the parent of one size, then places
    /// what no class still to be made can come before; false when every
    /// class is placed.
    fn grow(&mut self) -> bool {
        let spans = &self.parent.spans;
        if self.next == spans.len() {
            return false;
        }
        let size = spans[self.next].1;
        while self.next < spans.len() && spans[self.next].1 == size {
            let split = Split {
                row: self.row,
                limit: u64::MAX,
                counts: &mut self.counts,
                places: &mut self.places,
            };
            split.class(self.parent.class(self.next), &mut self.made);
            self.next += 1;
        }
        self.place();
        true
    }

    /// Moves the classes made since the last call to `waiting`, then
    /// places those of `waiting` at least as large as the next class of
    /// the parent (every class is placed once the parent is refined):
    /// largest first, ties in the order made, which is [`largest_first`]'s
    /// order, as every class made later is no larger and made later.
    fn place(&mut self) {
        let floor = self.parent.spans.get(self.next).map_or(0, |s| s.1);
        let made = self.placed.len() + self.waiting.len();
        self.waiting.extend_from_slice(&self.made.spans[made..]);
        self.ready.clear();
        self.ready
            .extend(self.waiting.iter().filter(|s| s.1 >= floor).copied());
        // Stable: ties stay in the order made.
        self.ready.sort_by_key(|s| std::cmp::Reverse(s.1));
        self.placed.extend_from_slice(&self.ready);
        self.waiting.retain(|s| s.1 < floor);
    }
}

impl Partition for Refining<'_> {
    fn get(&mut self, i: usize) -> Option<&[u16]> {
        while i >= self.placed.len() {
            if !self.grow() {
                return None;
            }
        }
        let (start, len) = self.placed[i];
        Some(&self.made.members[start as usize..(start + len) as usize])
    }
}

/// One class split by a guess's answers (`row`, by secret), its classes of
/// two or more appended to `out` (spans in the order made).
struct Split<'r> {
    row: &'r [u8],
    limit: u64,
    /// Bucket counters, all 0 before and after.
    counts: &'r mut Vec<u32>,
    /// Each bucket's next place.
    places: &'r mut Vec<u32>,
}

impl Split<'_> {
    /// False when a class made is larger than `limit` (`out` is then
    /// left part-made).
    fn class(self, class: &[u16], out: &mut Classes) -> bool {
        let (row, limit, counts) = (self.row, self.limit, self.counts);
        if class.len() == 2 {
            let (a, b) = (class[0], class[1]);
            if row[a as usize] == row[b as usize] {
                if limit < 2 {
                    return false;
                }
                out.spans.push((out.members.len() as u32, 2));
                out.members.extend_from_slice(class);
            }
            return true;
        }
        if class.len() <= 8 {
            // A class of at most 8 secrets: its answers in the bytes
            // of one word, each secret's group found by comparing its
            // answer with all 8 at once (`small`).
            let mut packed = 0u64;
            for (j, &s) in class.iter().enumerate() {
                packed |= u64::from(row[s as usize]) << (8 * j);
            }
            let len = class.len();
            let mut done = 0u32;
            for j in 0..len {
                if done & (1 << j) != 0 {
                    continue;
                }
                let group = small::equal_bytes(packed, row[class[j] as usize], len);
                done |= group;
                let c = group.count_ones();
                if c >= 2 {
                    if u64::from(c) > limit {
                        return false;
                    }
                    out.spans.push((out.members.len() as u32, c));
                    let mut bits = group;
                    while bits != 0 {
                        out.members.push(class[bits.trailing_zeros() as usize]);
                        bits &= bits - 1;
                    }
                }
            }
            return true;
        }
        for &s in class {
            counts[row[s as usize] as usize] += 1;
        }
        // A counting sort: each answer of two secrets or more gets its
        // room, in the order of its first secret (its count then set
        // to 0, which marks it), and the secrets are put in place in
        // a second pass, which also clears the answers of one. Where
        // each bucket was filtered out of the whole class, a class
        // was read once per bucket (a fifth of the search's time on
        // moo:4x10, session 37); the classes made are the same.
        let mut end = out.members.len();
        let mut too_big = false;
        for &s in class {
            let f = row[s as usize] as usize;
            let c = counts[f];
            if c >= 2 {
                too_big |= u64::from(c) > limit;
                out.spans.push((end as u32, c));
                self.places[f] = end as u32;
                end += c as usize;
                counts[f] = 0;
            }
        }
        if too_big {
            for &s in class {
                counts[row[s as usize] as usize] = 0;
            }
            return false;
        }
        out.members.resize(end, 0);
        for &s in class {
            let f = row[s as usize] as usize;
            if counts[f] == 0 {
                let at = &mut self.places[f];
                out.members[*at as usize] = s;
                *at += 1;
            } else {
                counts[f] = 0;
            }
        }
        true
    }
}

/// Groups of a class of at most 8 secrets, found 8 answers at a time:
/// replaced a counting sort (three passes through a 256-entry table) on
/// the classes of 3 to 8 secrets, which are most of a node's after a few
/// guesses on moo:4x10 (docs/benchmarks.md, session 40).
mod small {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const ONES: u64 = 0x0101_0101_0101_0101;
    /// Gathers bit 7 of each byte into one byte (bit `j`: byte `j`).
    const GATHER: u64 = 0x0102_0408_1020_4080;

    /// Bit `j` set for each `j < len` whose byte `j` of `packed` is
    /// `answer` (`len` at most 8).
    #[inline]
    pub(super) fn equal_bytes(packed: u64, answer: u8, len: usize) -> u32 {
        debug_assert!((1..=8).contains(&len));
        let v = packed ^ (u64::from(answer) * ONES);
        // Bit 7 of a byte set exactly when the byte of `v` is 0 (no
        // carry crosses a byte: each byte's low seven bits plus 0x7f stay
        // below 0x100).
        let zero = !(((v & LOW7) + LOW7) | v | LOW7);
        let bits = ((zero >> 7).wrapping_mul(GATHER) >> 56) as u32;
        bits & ((1u32 << len) - 1)
    }

    #[cfg(test)]
    mod tests {
        /// Against a byte-by-byte comparison, on every length and answer
        /// of random words and of words with repeated bytes (0, 0x7f,
        /// 0x80, 0xff: where a carry or a borrow would go wrong).
        #[test]
        fn equal_bytes_finds_the_equal_bytes() {
            let mut rng = crate::rng::SplitMix64::new(3);
            let special = [0u8, 1, 0x7f, 0x80, 0xfe, 0xff];
            for round in 0..20_000 {
                let bytes: [u8; 8] = std::array::from_fn(|_| match round % 2 {
                    0 => rng.below(256) as u8,
                    _ => special[rng.below(special.len())],
                });
                let packed = u64::from_le_bytes(bytes);
                for len in 1..=8 {
                    for &answer in bytes.iter().chain(&special) {
                        let want = (0..len)
                            .filter(|&j| bytes[j] == answer)
                            .fold(0u32, |m, j| m | 1 << j);
                        assert_eq!(super::equal_bytes(packed, answer, len), want);
                    }
                }
            }
        }
    }
}

/// `spans` (in increasing order of their starts) ordered largest first,
/// ties in the order of their starts: the order of a sort by size,
/// descending, then start, made by a counting sort on the sizes (stable,
/// so the starts stay in order among equal sizes). The sort it replaces
/// was about a fifth of the refinement's time on moo:4x10's size 7,
/// where a node's refinement makes about a thousand classes. `sizes` is
/// scratch.
fn largest_first(spans: &[(u32, u32)], sizes: &mut Vec<u32>) -> Vec<(u32, u32)> {
    debug_assert!(spans.windows(2).all(|w| w[0].0 < w[1].0));
    let largest = spans.iter().map(|s| s.1 as usize).max().unwrap_or(0);
    sizes.clear();
    sizes.resize(largest + 1, 0);
    for s in spans {
        sizes[s.1 as usize] += 1;
    }
    // Each size's first place: the spans larger than it come before.
    let mut place = 0;
    for count in sizes.iter_mut().rev() {
        let c = *count;
        *count = place;
        place += c;
    }
    let mut out = vec![(0, 0); spans.len()];
    for &s in spans {
        let at = &mut sizes[s.1 as usize];
        out[*at as usize] = s;
        *at += 1;
    }
    out
}
