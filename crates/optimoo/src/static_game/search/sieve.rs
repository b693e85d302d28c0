//! A sieve for the next-to-last guess (docs/static.md, "The last two
//! guesses"): with two guesses left, a few pairs of secrets left together
//! are weighed once per node, each as the bit set of the guesses of the
//! pool that separate it; each next-to-last guess `x` tried then starts
//! its last guesses from the pool, less every guess that fails to
//! separate a weighed pair `x` leaves together: bit sets ANDed, no
//! answer row read. Most guesses `x` are dead after a few weighed pairs;
//! the others go on to the full test ([`Task::last_after_in`]), which
//! reads every pair. The pairs that ended a full test (the *killers*)
//! are tried first on the next guesses, and weighed first at the next
//! node: they are hard pairs, and the hardest pair weighed is the one
//! the search branches on (module `hit`). A node that weighs every pair
//! keeps its [`STASHED`] hardest pairs with their bit sets (the *stash*);
//! its children, each with one guess more, weigh the stashed pairs their
//! guess leaves together from those bit sets (an AND and a count per
//! word, no answer row read), after their killers and before fewer pairs
//! of their own classes ([`CANDIDATES_AFTER_STASH`]): the parent's
//! hardest pairs are most often the child's too.
//!
//! Invariants: the weighed pairs are pairs of secrets of one class (so
//! left together by every guess chosen); bit `j` of a pair's set is set
//! exactly when guess `j` is in the pool and answers its two secrets
//! differently; the sets are sorted fewest guesses first, so a guess dies
//! as early as the sieve can make it. The sieve only removes guesses that
//! cannot come last, so the candidates it hands on are a superset of the
//! full test's answer. The killers are pairs of secrets that every guess
//! chosen at the node leaves together (pairs of one class there): a node
//! keeps the killers of the nodes before it that pass that test, and
//! drops the others, when it is weighed. The search forgets them at the
//! start of each subtree it branches on pairs in, so the pairs it
//! branches on there depend only on the subtree. A node uses the stash
//! only when it was made at its parent (the chosen guesses of the stash
//! are the node's but its last) and the node's pool is within the
//! stash's: a stashed pair its last guess leaves together is then a
//! pair of one of its classes, and its bit set ANDed with the pool is
//! exactly its separating guesses there (whether the last guess leaves
//! it together is read from that bit set when the guess is in the
//! stash's pool, from the answer rows otherwise).

use super::alive::{neq, Alive};
use super::classes::Partition;
use super::Task;

/// A kept pair's bit set not yet made ([`Sieve::weigh`]).
const NO_SLOT: u32 = u32::MAX;

/// Pairs kept in the sieve of a node: the hardest of those weighed.
pub(super) const WEIGHED: usize = 32;

/// Pairs of the node's classes weighed at a node the search branches on
/// pairs in, at most, after its killers. Measured on moo:4x10 with the
/// killers weighed first (docs/benchmarks.md, session 39): 80 1.10x the
/// speed of 160, 60 and 80 alike, 40 and 240 slower.
pub(super) const CANDIDATES: usize = 80;

/// Where the search branches on pairs with at least this many guesses
/// left, every pair of the node's classes is weighed: such a node's
/// branches are whole subtrees (each a node with one guess fewer left,
/// its classes refined and its own pairs weighed), and they are few, so
/// a harder pair to branch on pays for the weighing many times. Measured
/// on moo:4x10's size 7 (docs/benchmarks.md, session 40): on task 1208,
/// 216 nodes with three left branch into 83,216 nodes with two left
/// instead of 110,492, and the sets fall from 36.75 M to 33.54 M.
pub(super) const EVERY_PAIR_FROM: usize = 3;

/// At most this many pairs of the classes are weighed at a node of
/// [`EVERY_PAIR_FROM`] (largest class first): the pairs of a class grow
/// as its size squared, and the largest a node with three left may keep
/// is `A^3` secrets (2,744 on moo:4x10, over 3.7 million pairs). On
/// moo:4x10's size 7 the cap is never reached (task 1208 meets the same
/// 33,543,428 sets with it and without it).
pub(super) const EVERY_PAIR_MOST: usize = 1 << 16;

/// Pairs kept in the stash of a node that weighs every pair: its
/// hardest, with their bit sets over its pool. Measured on moo:4x10's
/// size 7 (docs/benchmarks.md, session 42): on task 1208 the sets fall
/// from 33.54 M to 31.00 M with 64 (30.89 M with 128, which costs more at
/// the node that stashes).
pub(super) const STASHED: usize = 64;

/// Pairs of the node's classes weighed at a child of the stash's node,
/// after the killers and the stashed pairs its last guess leaves
/// together (weighed from their stashed sets, no answer row read).
/// Measured side by side on moo:4x10's size 7 (docs/benchmarks.md,
/// session 46): 40 0.90 the time of 80, 30 0.98 the time of 40, 20 no
/// better; with 128 or 256 stashed pairs (more weighed from the stash),
/// slower.
pub(super) const CANDIDATES_AFTER_STASH: usize = 30;

/// The pairs of a branch's masks [`Sieve::sift_branch`] sorts them by,
/// hardest first: the masks that share these come together, and the
/// order of the rest is left as it comes. Most guesses of a branch die
/// within the first sixteen pairs, where the masks are sorted, so the
/// intersections of the rest are seldom made twice. Measured side by side
/// on moo:4x10's size 7 (docs/benchmarks.md, session 47): 16 bits
/// (two passes of the radix sort) 0.95 the time of 32 on task 230; with
/// the walk's shortcuts of the same session, 24 bits 1.07 the time of
/// 16, 8 bits 1.18.
pub(super) const SORTED_BITS: u32 = 16;

/// Which pairs a node weighs ([`Sieve::weigh`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Weigh {
    /// A node of the search in code order: up to [`CANDIDATES_IN_ORDER`]
    /// pairs of its classes, no killer.
    InOrder,
    /// A node the search branches on pairs at: the killers kept, then up
    /// to [`CANDIDATES`] pairs of its classes.
    Branching,
    /// A node the search branches on pairs at with at least
    /// [`EVERY_PAIR_FROM`] guesses left: the killers kept, then every pair
    /// of its classes (at most [`EVERY_PAIR_MOST`]).
    EveryPair,
}

/// Pairs of the node's classes weighed at a node of the search in code
/// order (its pairs only sift; the killers are not weighed there: on
/// mm:4x6's size 5, searched in code order, weighing them was 1.10x
/// slower).
pub(super) const CANDIDATES_IN_ORDER: usize = 160;

/// Killers kept: the pairs that last ended the full test of a
/// next-to-last guess, tried first on the next ones and weighed first at
/// the next node. Measured on moo:4x10 (docs/benchmarks.md, sessions 36
/// and 39): 32 killers 1.52x the speed of none, 4 1.25x, 1 less; with
/// the killers kept from node to node and weighed, 48 1.09x the speed of
/// 32, 64 no better than 48.
pub(super) const KILLERS: usize = 48;

/// Pools of at least this many words (64 guesses each) sift through the
/// cache of intersections ([`Sieve::sift`]); smaller ones AND the pairs'
/// words for each guess, which is cheaper there. Measured side by side
/// on one thread (docs/benchmarks.md, session 35): moo:4x10 (79 words)
/// 1.41x the sets a second with the cache, moo:4x8 (27) 1.06x, mm:4x6
/// (21) 0.90x.
pub(super) const CACHE_MIN_WORDS: usize = 24;

/// A pair kept while weighing ([`Sieve::weigh`]).
#[derive(Clone, Copy, Debug)]
struct Kept {
    /// Its separating guesses in the pool (counted only as far as it
    /// could still be kept: exact for the pairs kept).
    count: u32,
    /// Its two secrets.
    a: u16,
    b: u16,
    /// The slot of `Sieve::slots` holding its bit set ([`NO_SLOT`] while
    /// not made).
    slot: u32,
    /// Its place in the stash when weighed from it ([`NO_SLOT`]
    /// otherwise).
    stash: u32,
}

/// Where a weighed pair's separating guesses are read ([`Sieve::weigh`]).
#[derive(Clone, Copy)]
enum Source<'a> {
    /// Its set kept in the stash, over the stash's pool (within the
    /// node's).
    Stash(&'a [u64]),
    /// The answer rows of its two secrets.
    Rows(&'a [u8], &'a [u8]),
}

impl Source<'_> {
    /// Word `w` of the pair's separating guesses within `pool`.
    #[inline(always)]
    fn word(self, pool: &[u64], w: usize) -> u64 {
        pool[w]
            & match self {
                Source::Stash(bits) => bits[w],
                Source::Rows(a, b) => neq(a, b, w),
            }
    }
}

/// The weighed pairs of one node and their separating guesses.
pub(super) struct Sieve {
    /// Pools of at least this many words use `cache`.
    cache_from: usize,
    /// Words of a bit set.
    words: usize,
    /// The pairs, hardest first.
    pairs: Vec<(u16, u16)>,
    /// `sep[w * pairs.len() + k]`: word `w` of pair `k`'s separating
    /// guesses (word-major, so that a word of every pair is together).
    sep: Vec<u64>,
    /// The same, pair-major: word `w` of pair `k` at `k * words + w`.
    by_pair: Vec<u64>,
    /// Scratch: the hardest pairs met, hardest first; the pool's words
    /// not empty.
    kept: Vec<Kept>,
    live: Vec<usize>,
    /// Scratch: bit sets of kept pairs (`words` each, by slot), and the
    /// slots free.
    slots: Vec<u64>,
    free: Vec<u32>,
    /// The intersections met at this node, by the mask of the weighed
    /// pairs a next-to-last guess leaves together (bit `k`: pair `k`):
    /// the range of `sparse` holding the intersection's words that are
    /// not empty, in increasing order. A guess whose mask was met costs
    /// its mask and the intersection's few words; a new mask, one AND per
    /// word of the intersection it extends (`Sieve::intersection`).
    cache: rustc_hash::FxHashMap<u32, (u32, u32)>,
    /// `(word, bits)` of the cached intersections.
    sparse: Vec<(u32, u64)>,
    /// The pool as weighed.
    weighed: Vec<u64>,
    /// The pairs of this node that ended the full test of a next-to-last
    /// guess, the last one first (at most [`KILLERS`]).
    killers: Vec<(u16, u16)>,
    /// The stash of the last node weighed with [`Weigh::EveryPair`]: its
    /// chosen guesses, its pool, its hardest pairs (at most
    /// [`STASHED`], hardest first) and their bit sets over its pool
    /// (`words` each, pair after pair).
    stash_chosen: Vec<usize>,
    stash_pool: Vec<u64>,
    stash_pairs: Vec<(u16, u16)>,
    stash_sep: Vec<u64>,
    /// The branch sifted at once ([`Sieve::sift_branch`]): for its `j`-th
    /// guess, the range of `sifted` holding its candidates' words not
    /// empty (an empty range: none).
    ranges: Vec<(u32, u32)>,
    sifted: Vec<(u32, u64)>,
    /// Scratch of [`Sieve::sift_branch`]: the branch's masks (reversed)
    /// and places, sorted; the intersections of the masks' pairs met, as
    /// a stack (pair, range of `trie`).
    keys: Vec<u64>,
    /// Scratch of the masks' radix sort ([`radix_sort_high`]).
    radix: Vec<u64>,
    stack: Vec<(u32, u32, u32)>,
    trie: Vec<(u32, u64)>,
}

impl Sieve {
    /// An empty sieve; pools of at least `cache_from` words will sift
    /// through the cache.
    pub(super) fn new(cache_from: usize) -> Sieve {
        Sieve {
            cache_from,
            words: 0,
            pairs: Vec::new(),
            sep: Vec::new(),
            by_pair: Vec::new(),
            kept: Vec::new(),
            live: Vec::new(),
            slots: Vec::new(),
            free: Vec::new(),
            cache: rustc_hash::FxHashMap::default(),
            sparse: Vec::new(),
            weighed: Vec::new(),
            killers: Vec::new(),
            stash_chosen: Vec::new(),
            stash_pool: Vec::new(),
            stash_pairs: Vec::new(),
            stash_sep: Vec::new(),
            ranges: Vec::new(),
            sifted: Vec::new(),
            keys: Vec::new(),
            radix: Vec::new(),
            stack: Vec::new(),
            trie: Vec::new(),
        }
    }

    /// Drops the killers whose two secrets a guess of `chosen` (the
    /// node's) separates, then weighs the killers left (unless
    /// [`Weigh::InOrder`]), with [`Weigh::Branching`] at a child of the
    /// stash's node the stashed pairs its last guess leaves together
    /// (from their stashed sets), and up to [`CANDIDATES`]
    /// ([`CANDIDATES_IN_ORDER`] in order, [`CANDIDATES_AFTER_STASH`] after
    /// the stash) pairs of `classes` (each class's first secret with every
    /// other, largest class first; every pair of every class with
    /// [`Weigh::EveryPair`]) against `pool` (`by_secret` rows of `m`
    /// answers) and keeps the [`WEIGHED`] hardest, each once ([`STASHED`]
    /// into the stash with [`Weigh::EveryPair`]). Returns the fewest
    /// guesses separating a pair: 0 means no completion exists.
    pub(super) fn weigh(
        &mut self,
        classes: &mut impl Partition,
        pool: &[u64],
        by_secret: &[u8],
        m: usize,
        chosen: &[usize],
        weigh: Weigh,
    ) -> u32 {
        let branching = weigh != Weigh::InOrder;
        let every_pair = weigh == Weigh::EveryPair;
        let from_stash = weigh == Weigh::Branching && self.stash_is_parent(chosen, pool);
        // Pairs kept while weighing.
        let keep = if every_pair { STASHED } else { WEIGHED };
        let words = pool.len();
        self.words = words;
        self.pairs.clear();
        self.sep.clear();
        // The hardest so far, fewest separating guesses first.
        let kept = &mut self.kept;
        kept.clear();
        let live: &mut Vec<usize> = &mut self.live;
        live.clear();
        live.extend((0..words).filter(|&w| pool[w] != 0));
        let row = |s: u16| &by_secret[s as usize * m..(s as usize + 1) * m];
        // The killers of earlier nodes whose two secrets every guess
        // chosen here leaves together are pairs of one class here too,
        // and stay; the others go. Nodes met one after the other are
        // mostly siblings or cousins, so most stay (docs/static.md, "The
        // sieve").
        self.killers.retain(|&(a, b)| {
            let (ra, rb) = (row(a), row(b));
            chosen.iter().all(|&g| ra[g] == rb[g])
        });
        let (slots, free) = (&mut self.slots, &mut self.free);
        slots.clear();
        free.clear();
        let live: &[usize] = live;
        let stash_sep = &self.stash_sep;
        // Where pair `(a, b)`'s separating guesses are read: its stashed
        // set when weighed from the stash (`src`, its place there), else
        // the answer rows.
        let source = |a: u16, b: u16, src: u32| match src {
            NO_SLOT => Source::Rows(row(a), row(b)),
            k => Source::Stash(&stash_sep[k as usize * words..(k as usize + 1) * words]),
        };
        // Pair `(a, b)`'s separating guesses into `out` (`words` long).
        let fill = |out: &mut [u64], a: u16, b: u16, src: u32| {
            out.fill(0);
            let source = source(a, b, src);
            for &w in live {
                out[w] = source.word(pool, w);
            }
        };
        // A free slot of `slots`.
        let slot = |slots: &mut Vec<u64>, free: &mut Vec<u32>| -> u32 {
            free.pop().unwrap_or_else(|| {
                let s = slots.len() / words;
                slots.resize(slots.len() + words, 0);
                s as u32
            })
        };
        // A pair counted only as far as it can still be kept; false when
        // no guess of the pool separates it. A pair whose set is a kept
        // pair's is not kept: it would sift nothing more, and many pairs
        // share their set (a node of moo:4x10 that weighs every pair had
        // 2 to 4 sets among its 64 hardest pairs, session 43). Sets are
        // compared only among pairs of one count, and made only then.
        let mut consider = |kept: &mut Vec<Kept>, a: u16, b: u16, stashed: Option<usize>| -> bool {
            let src = stashed.map_or(NO_SLOT, |i| i as u32);
            let pair = source(a, b, src);
            let bound = if kept.len() == keep {
                kept[keep - 1].count
            } else {
                u32::MAX
            };
            let mut count = 0;
            for &w in live.iter() {
                count += pair.word(pool, w).count_ones();
                if count >= bound {
                    break;
                }
            }
            if count == 0 {
                return false;
            }
            if count >= bound {
                return true;
            }
            let lo = kept.partition_point(|k| k.count < count);
            let at = kept.partition_point(|k| k.count <= count);
            let mut mine = NO_SLOT;
            if lo < at {
                for k in &mut kept[lo..at] {
                    if k.slot == NO_SLOT {
                        k.slot = slot(slots, free);
                        let s = k.slot as usize * words;
                        fill(&mut slots[s..s + words], k.a, k.b, k.stash);
                    }
                    // Compared word by word as made: a set that differs
                    // mostly differs early.
                    let theirs = &slots[k.slot as usize * words..(k.slot as usize + 1) * words];
                    if live.iter().all(|&w| pair.word(pool, w) == theirs[w]) {
                        return true;
                    }
                }
                mine = slot(slots, free);
                let s = mine as usize * words;
                fill(&mut slots[s..s + words], a, b, src);
            }
            if kept.len() == keep {
                if let Some(last) = kept.pop() {
                    if last.slot != NO_SLOT {
                        free.push(last.slot);
                    }
                }
            }
            kept.insert(
                at,
                Kept {
                    count,
                    a,
                    b,
                    slot: mine,
                    stash: src,
                },
            );
            true
        };
        if branching {
            for &(a, b) in self.killers.iter() {
                if !consider(kept, a, b, None) {
                    return 0;
                }
            }
        }
        if from_stash {
            let x = *chosen.last().expect("a child has a guess chosen");
            let (xw, xb) = (x / 64, x % 64);
            let in_stash = (self.stash_pool[xw] >> xb) & 1 != 0;
            for (k, &(a, b)) in self.stash_pairs.iter().enumerate() {
                let together = match in_stash {
                    true => (stash_sep[k * words + xw] >> xb) & 1 == 0,
                    false => by_secret[a as usize * m + x] == by_secret[b as usize * m + x],
                };
                if together && !consider(kept, a, b, Some(k)) {
                    return 0;
                }
            }
        }
        let candidates = if from_stash {
            CANDIDATES_AFTER_STASH
        } else if branching {
            CANDIDATES
        } else {
            CANDIDATES_IN_ORDER
        };
        let mut weighed = 0;
        let mut i = 0;
        'classes: while let Some(class) = classes.get(i) {
            i += 1;
            if every_pair {
                for (j, &a) in class.iter().enumerate() {
                    for &b in &class[j + 1..] {
                        if !consider(kept, a, b, None) {
                            return 0;
                        }
                        weighed += 1;
                        if weighed == EVERY_PAIR_MOST {
                            break 'classes;
                        }
                    }
                }
                continue;
            }
            let a = class[0];
            for &b in &class[1..] {
                if !consider(kept, a, b, None) {
                    return 0;
                }
                weighed += 1;
                if weighed == candidates {
                    break 'classes;
                }
            }
        }
        let hardest = kept.first().map_or(u32::MAX, |k| k.count);
        // Every kept pair's set into its slot.
        for k in kept.iter_mut() {
            if k.slot == NO_SLOT {
                k.slot = slot(slots, free);
                let s = k.slot as usize * words;
                fill(&mut slots[s..s + words], k.a, k.b, k.stash);
            }
        }
        let set = |k: &Kept| &slots[k.slot as usize * words..(k.slot as usize + 1) * words];
        if every_pair {
            self.stash_chosen.clear();
            self.stash_chosen.extend_from_slice(chosen);
            self.stash_pool.clear();
            self.stash_pool.extend_from_slice(pool);
            self.stash_pairs.clear();
            self.stash_sep.clear();
            for k in kept.iter() {
                self.stash_pairs.push((k.a, k.b));
                self.stash_sep.extend_from_slice(set(k));
            }
            kept.truncate(WEIGHED);
        }
        self.cache.clear();
        self.sparse.clear();
        self.pairs.extend(kept.iter().map(|k| (k.a, k.b)));
        self.weighed.clear();
        self.weighed.extend_from_slice(pool);
        self.sep.resize(words * kept.len(), 0);
        self.by_pair.clear();
        let n = kept.len();
        for (i, k) in kept.iter().enumerate() {
            for (w, &b) in set(k).iter().enumerate() {
                self.sep[w * n + i] = b;
            }
            self.by_pair.extend_from_slice(set(k));
        }
        hardest
    }

    /// Whether the stash was made at the parent of a node of the guesses
    /// `chosen` (its chosen guesses are all of them but the last) and
    /// `pool` is within the stash's pool.
    fn stash_is_parent(&self, chosen: &[usize], pool: &[u64]) -> bool {
        !self.stash_pairs.is_empty()
            && chosen.len() == self.stash_chosen.len() + 1
            && chosen[..self.stash_chosen.len()] == self.stash_chosen[..]
            && self.stash_pool.len() == pool.len()
            && pool
                .iter()
                .zip(&self.stash_pool)
                .all(|(&p, &q)| p & !q == 0)
    }

    /// The separating guesses of the hardest pair weighed
    /// ([`Sieve::weigh`]), in order.
    pub(super) fn hardest(&self) -> Vec<usize> {
        if self.pairs.is_empty() {
            return Vec::new();
        }
        indices((0..self.words).map(|w| self.sep[w * self.pairs.len()]))
    }

    /// The range of `sparse` holding the intersection of the sets of the
    /// weighed pairs in `mask` (not 0), from the cache, else made from
    /// the intersection of `mask` less its highest pair (its few words,
    /// not the pool's), itself from the cache or made the same way: the
    /// hardest pairs, left together by most guesses, are the low bits
    /// that most masks share.
    fn intersection(&mut self, mask: u32) -> (u32, u32) {
        if let Some(&range) = self.cache.get(&mask) {
            return range;
        }
        let kept = self.pairs.len();
        let k = 31 - mask.leading_zeros() as usize;
        let parent = mask & !(1 << k);
        // The parent first: its words go before this range.
        let from_parent = (parent != 0).then(|| self.intersection(parent));
        let lo = self.sparse.len() as u32;
        if let Some((a, b)) = from_parent {
            for i in a as usize..b as usize {
                let (w, bits) = self.sparse[i];
                let bits = bits & self.sep[w as usize * kept + k];
                if bits != 0 {
                    self.sparse.push((w, bits));
                }
            }
        } else {
            for w in 0..self.words {
                let bits = self.sep[w * kept + k];
                if bits != 0 {
                    self.sparse.push((w as u32, bits));
                }
            }
        }
        let range = (lo, self.sparse.len() as u32);
        self.cache.insert(mask, range);
        range
    }

    /// Starts `alive` from the guesses of `pool` from index `from` on
    /// that separate every weighed pair guess `x` leaves together
    /// (`answer(s)`: the answer of secret `s` to `x`, read only when `x`
    /// was not in the pool weighed: otherwise the pairs' bit sets hold
    /// it, one word of each, which is cheaper than their 64 answers, 0.91x
    /// the time of task 1208, session 40); whether any is left. The intersection
    /// of those pairs' sets is computed once per node for each set of
    /// pairs left together (`cache`; the sets were made from the pool as
    /// it was weighed, and the pool only loses guesses afterwards, so the
    /// intersection ANDed with the pool now is the answer).
    pub(super) fn sift(
        &mut self,
        x: usize,
        answer: impl Fn(u16) -> u8,
        pool: &[u64],
        from: usize,
        alive: &mut Alive,
    ) -> bool {
        let kept = self.pairs.len();
        debug_assert!(kept <= 32);
        // The pairs `x` leaves together: from the pairs' bit sets when `x`
        // was in the pool weighed (the bits of one word, together), else
        // from the secrets' answers.
        let (w, bit) = (x / 64, x % 64);
        let mut mask = 0u32;
        if self.weighed.get(w).is_some_and(|&p| (p >> bit) & 1 != 0) {
            for (k, &sep) in self.sep[w * kept..(w + 1) * kept].iter().enumerate() {
                mask |= (((!sep >> bit) & 1) as u32) << k;
            }
        } else {
            for (k, &(a, b)) in self.pairs.iter().enumerate() {
                mask |= u32::from(answer(a) == answer(b)) << k;
            }
        }
        let first = from / 64;
        let low = |w: usize| match w == first {
            true => u64::MAX << (from % 64),
            false => u64::MAX,
        };
        if mask == 0 {
            // Every weighed pair separated by `x`: the pool itself.
            return alive.start_with(first..pool.len(), |w| pool[w] & low(w));
        }
        if self.words < self.cache_from {
            // Small pools: each word ANDed with the pairs' words.
            let sep = &self.sep;
            return alive.start_with(first..pool.len(), |w| {
                let sep = &sep[w * kept..(w + 1) * kept];
                let mut bits = pool[w] & low(w);
                let mut left = mask;
                while left != 0 && bits != 0 {
                    bits &= sep[left.trailing_zeros() as usize];
                    left &= left - 1;
                }
                bits
            });
        }
        let (lo, hi) = self.intersection(mask);
        let words = &self.sparse[lo as usize..hi as usize];
        let at = words.partition_point(|&(w, _)| (w as usize) < first);
        alive.start_sparse(
            words[at..]
                .iter()
                .map(|&(w, bits)| (w as usize, bits & pool[w as usize] & low(w as usize))),
        )
    }

    /// [`Sieve::sift`] of every guess of `branch` (each in the pool
    /// weighed) at once, `from` 0: the candidates of its `j`-th guess
    /// then start with [`Sieve::start_sifted`], within the pool as it is
    /// when that guess is tried. Each guess's set of weighed pairs left
    /// together (its mask) is read from the pairs' bit sets; the masks are
    /// sorted with the pairs in the order weighed (hardest first) as the
    /// most significant bits (the first [`SORTED_BITS`] of them), so masks
    /// that share their first pairs come together, and their
    /// intersections are made as a stack, one AND per word of the
    /// intersection below: a trie of the masks walked in order, no
    /// intersection made twice among masks that share their sorted pairs,
    /// no hashing, and a branch of it whose intersection is empty ends
    /// every mask below it at once. Most guesses of a branch die there
    /// (86 % on moo:4x10's size 7). The part of the stack a mask shares
    /// is read at once from the first pair where it differs from the mask
    /// met before it, and a mask equal to the one before it (three in
    /// five on task 230) takes that one's candidates as they are.
    pub(super) fn sift_branch(&mut self, branch: &[usize]) {
        let kept = self.pairs.len();
        debug_assert!(kept <= 32);
        let words = self.words;
        let sep = &self.sep;
        self.keys.clear();
        for (j, &x) in branch.iter().enumerate() {
            let (w, bit) = (x / 64, x % 64);
            debug_assert!((self.weighed[w] >> bit) & 1 != 0);
            let mut mask = 0u32;
            for (k, &bits) in sep[w * kept..(w + 1) * kept].iter().enumerate() {
                mask |= (((!bits >> bit) & 1) as u32) << k;
            }
            self.keys
                .push((u64::from(mask.reverse_bits()) << 32) | j as u64);
        }
        radix_sort_high(&mut self.keys, &mut self.radix);
        self.ranges.clear();
        self.ranges.resize(branch.len(), (0, 0));
        self.sifted.clear();
        self.stack.clear();
        let (stack, trie) = (&mut self.stack, &mut self.trie);
        let by_pair = &self.by_pair;
        // `trie[..top]` is the stack's words; `trie` itself only grows, so
        // that each word is written once, in place, whether kept or not,
        // and kept by moving the end past it: no branch on whether an
        // intersection's word is empty, which about two words in three
        // are (unpredictable, so a branch on it mispredicts often).
        // The mask met last and its candidates (an empty range: none): the
        // stack holds the intersections of its first pairs (none before
        // the first mask).
        let mut last: Option<(u32, (u32, u32))> = None;
        for &key in &self.keys {
            let j = (key & u64::from(u32::MAX)) as usize;
            let mask = ((key >> 32) as u32).reverse_bits();
            let last_mask = match last {
                Some((m, range)) if m == mask => {
                    self.ranges[j] = range;
                    continue;
                }
                Some((m, _)) => m,
                // An empty stack shares no pair with any mask.
                None => 0,
            };
            // The pairs the stack shares with the mask: those of the mask
            // below the first pair where it differs from the mask the
            // stack was made for (the last one met), as far as the stack
            // goes (it ends early only where that mask died).
            let first = (mask ^ last_mask).trailing_zeros();
            let below = if first == 32 {
                u32::MAX
            } else {
                (1u32 << first) - 1
            };
            let depth = (mask & below).count_ones() as usize;
            if depth > stack.len() {
                // The stack ends below: the last mask died there, and
                // this one with it.
                last = Some((mask, (0, 0)));
                continue;
            }
            let mut rest = mask & !below;
            stack.truncate(depth);
            let mut top = stack.last().map_or(0, |l| l.2 as usize);
            let mut dead = stack.last().is_some_and(|l| l.1 == l.2);
            while !dead && rest != 0 {
                let k = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let lo = top;
                let set = &by_pair[k * words..(k + 1) * words];
                let below = stack.last().map(|&(_, a, b)| (a as usize, b as usize));
                let most = below.map_or(words, |(a, b)| b - a);
                if trie.len() < lo + most {
                    trie.resize(lo + most, (0, 0));
                }
                let (made, free) = trie.split_at_mut(lo);
                let free = &mut free[..most];
                let mut out = 0;
                match below {
                    Some((a, b)) => {
                        for &(w, bits) in &made[a..b] {
                            debug_assert!((w as usize) < set.len() && out < free.len());
                            // SAFETY: every word index in `trie` is one of
                            // `0..words` (made below from `set`'s), and
                            // `out` counts the words written so far, fewer
                            // than `b - a`, `free`'s length.
                            let bits = bits & unsafe { *set.get_unchecked(w as usize) };
                            unsafe { *free.get_unchecked_mut(out) = (w, bits) };
                            out += usize::from(bits != 0);
                        }
                    }
                    None => {
                        for (w, &bits) in set.iter().enumerate() {
                            free[out] = (w as u32, bits);
                            out += usize::from(bits != 0);
                        }
                    }
                }
                top = lo + out;
                stack.push((k as u32, lo as u32, top as u32));
                dead = out == 0;
            }
            if dead {
                last = Some((mask, (0, 0)));
                continue;
            }
            let lo = self.sifted.len();
            match stack.last() {
                Some(&(_, a, b)) => self.sifted.extend_from_slice(&trie[a as usize..b as usize]),
                // No pair left together: the whole pool.
                None => self.sifted.extend(
                    (0..words)
                        .filter(|&w| self.weighed[w] != 0)
                        .map(|w| (w as u32, self.weighed[w])),
                ),
            }
            self.ranges[j] = (lo as u32, self.sifted.len() as u32);
            last = Some((mask, self.ranges[j]));
        }
    }

    /// Starts `alive` from the candidates [`Sieve::sift_branch`] found
    /// for the `j`-th guess of its branch, within `pool`; whether any is
    /// left.
    fn start_sifted(&self, j: usize, pool: &[u64], alive: &mut Alive) -> bool {
        let (lo, hi) = self.ranges[j];
        lo < hi
            && alive.start_sparse(
                self.sifted[lo as usize..hi as usize]
                    .iter()
                    .map(|&(w, bits)| (w as usize, bits & pool[w as usize])),
            )
    }

    /// Narrows `alive` by the killers guess `x` leaves together; whether
    /// any candidate is left. A killer that empties it moves to the
    /// front.
    fn killed(&mut self, x: usize, alive: &mut Alive, by_secret: &[u8], m: usize) -> bool {
        let secret = |s: u16| &by_secret[s as usize * m..(s as usize + 1) * m];
        for i in 0..self.killers.len() {
            let (a, b) = self.killers[i];
            let (ra, rb) = (secret(a), secret(b));
            if ra[x] == rb[x] && !alive.narrow(ra, rb) {
                self.killers[..=i].rotate_right(1);
                return false;
            }
        }
        true
    }

    /// Drops every killer.
    pub(super) fn forget_killers(&mut self) {
        self.killers.clear();
    }

    /// Keeps `pair`, which ended a full test at this node, as the first
    /// killer.
    fn remember(&mut self, pair: (u16, u16)) {
        match self.killers.iter().position(|&k| k == pair) {
            Some(i) => self.killers[..=i].rotate_right(1),
            None => {
                if self.killers.len() == KILLERS {
                    self.killers.pop();
                }
                self.killers.insert(0, pair);
            }
        }
    }
}

impl Task<'_, '_> {
    /// Weighs the pairs of `classes` (and, when `branching` on the
    /// hardest pair, the killers kept) against `pool` into the task's
    /// sieve; the fewest guesses of the pool separating one of them.
    pub(super) fn weigh(
        &mut self,
        classes: &mut impl Partition,
        pool: &[u64],
        weigh: Weigh,
    ) -> u32 {
        let ctx = self.ctx;
        self.sieve
            .weigh(classes, pool, &ctx.by_secret, ctx.m, &self.chosen, weigh)
    }

    /// The first guess of `pool` from `from` on that, with `x`, separates
    /// every class: the sieve first, then the full test.
    pub(super) fn last_sifted(
        &mut self,
        classes: &mut impl Partition,
        x: usize,
        pool: &[u64],
        from: usize,
    ) -> Option<usize> {
        let ctx = self.ctx;
        // The answers to `x` read from the secrets' rows, not from `x`'s:
        // the guesses `x` come in increasing order, so each pair's two
        // rows are read at nearby places from one `x` to the next (in the
        // caches), where `x`'s own row is a new one each time, read at 64
        // scattered places (half of this function's time on moo:4x10,
        // session 37).
        let m = ctx.m;
        let answer = |s: u16| ctx.by_secret[s as usize * m + x];
        if !self.sieve.sift(x, answer, pool, from, &mut self.alive) {
            return None;
        }
        self.last_tested(classes, x)
    }

    /// [`Task::last_sifted`] of the `j`-th guess `x` of the branch the
    /// sieve sifted at once ([`Sieve::sift_branch`]), `pool` the pool less
    /// the branch's guesses up to `x`, from index 0.
    pub(super) fn last_of_branch(
        &mut self,
        classes: &mut impl Partition,
        j: usize,
        x: usize,
        pool: &[u64],
    ) -> Option<usize> {
        if !self.sieve.start_sifted(j, pool, &mut self.alive) {
            return None;
        }
        self.last_tested(classes, x)
    }

    /// The first candidate of `alive` (started by the sieve for
    /// next-to-last guess `x`) that the killers and the full test leave.
    fn last_tested(&mut self, classes: &mut impl Partition, x: usize) -> Option<usize> {
        let ctx = self.ctx;
        if !self.sieve.killed(x, &mut self.alive, &ctx.by_secret, ctx.m) {
            return None;
        }
        let found = self.last_after_in(classes, x, super::alive::Pool::Started);
        // Set only when a pair ended the test (so `found` is `None`).
        if let Some(pair) = self.killer {
            self.sieve.remember(pair);
        }
        found
    }
}

/// Sorts `keys` by their high [`SORTED_BITS`] bits, ties in their order
/// (so keys pushed in increasing low bits come out as `sort_unstable` of
/// `key >> (64 - SORTED_BITS)` puts them): a pass of a counting sort on
/// each byte of those bits, least first, through `scratch`. A branch's
/// few hundred masks sorted this way took about half the time of the
/// comparison sort.
fn radix_sort_high(keys: &mut Vec<u64>, scratch: &mut Vec<u64>) {
    scratch.clear();
    scratch.resize(keys.len(), 0);
    for byte in (32 - SORTED_BITS as usize) / 8..4 {
        let shift = 32 + 8 * byte;
        let mut counts = [0u32; 257];
        for &k in keys.iter() {
            counts[((k >> shift) & 0xff) as usize + 1] += 1;
        }
        if counts[1..].iter().any(|&c| c as usize == keys.len()) {
            // Every key has this byte alike: the pass would change nothing.
            continue;
        }
        for i in 1..257 {
            counts[i] += counts[i - 1];
        }
        for &k in keys.iter() {
            let at = &mut counts[((k >> shift) & 0xff) as usize];
            scratch[*at as usize] = k;
            *at += 1;
        }
        std::mem::swap(keys, scratch);
    }
}

/// The indices of the set bits of `words`, word `w` holding indices
/// `64 w` to `64 w + 63`, in increasing order.
fn indices(words: impl Iterator<Item = u64>) -> Vec<usize> {
    let mut out = Vec::new();
    for (w, mut bits) in words.enumerate() {
        while bits != 0 {
            out.push(w * 64 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
    out
}

#[cfg(test)]
mod tests;
