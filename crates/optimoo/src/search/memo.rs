//! The search memo: solved subproblems keyed by (candidate set image, depth).
//!
//! Invariants:
//! - A key (`raw_key`, `canonical_key`: made here, and only here) is
//!   an image of the candidate set under the symmetry group (the
//!   canonical one where it could be computed) followed by the remaining
//!   depth; isomorphic sets have equal values, so any image is a correct key.
//! - An entry holds either the exact cost, or a proven lower bound; an exact
//!   entry is never replaced by a bound, a bound only by a larger bound or an
//!   exact cost.
//! - Memory is bounded: the memo holds two generations per shard. When the
//!   current generation of a shard holds more than its share of
//!   `limit_codes` stored codes (each entry counted as its key plus
//!   `ENTRY_OVERHEAD` codes for its allocation and table slot), the old generation is dropped and the
//!   current one becomes old (entries found in the old generation are copied
//!   back to the current one). So at most about `2 · limit_codes` codes are
//!   stored, and the entries used recently survive.
//! - Shared between threads through sharded mutexes; the values found are
//!   the same whatever the order of insertions, only hit rates vary.
//! - Only proven facts go in: a search past its deadline stores nothing
//!   ([`crate::search::searcher`]), so [`Memo::entries`] may be kept
//!   between runs ([`crate::search::plan::Learned`]).
//! - Beside the sets' entries, a large set's guesses shown not to beat a
//!   cut-off each keep their bound ([`Memo::guess_bound`]): a lower bound
//!   of that guess's cost at the set (its raw key: the guess in the set's
//!   own coordinates), the larger of two kept. They are held in two
//!   generations too (a sixteenth of `limit_codes`, a bound counted as
//!   [`GUESS_OVERHEAD`] codes: within the slack of
//!   [`crate::search::memory::MEMO_BYTES_PER_CODE`]), and kept between runs like the entries
//!   ([`Memo::guess_entries`]): a search of a large set stopped by its
//!   deadline does not refute again, in the next run, the guesses it had
//!   refuted.

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use rustc_hash::{FxBuildHasher, FxHashMap};

use crate::model::canon;
use crate::model::code::{Code, Codebook};

const SHARDS: usize = 64;
/// What an entry costs beyond its key, counted in codes (2 bytes each): the
/// boxed key's allocation and the hash table slot, about 64 bytes.
const ENTRY_OVERHEAD: usize = 32;

/// What is known of a subproblem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// Its exact cost, and the optimal guess that the tree rebuild takes
    /// (known for entries keyed by the set itself, not by a canonical image
    /// whose coordinates differ).
    Exact(u64, Option<Code>),
    /// A proven lower bound on its cost.
    AtLeast(u64),
}

#[cfg(test)]
thread_local! {
    /// Guesses this thread answered by their kept bound (tests: the kept
    /// bounds are used where they are meant to be).
    pub(crate) static GUESS_HITS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// What one guess's bound costs in a set's list of refuted guesses,
/// counted in codes: the guess, its bound and the hash table's slot.
#[cfg(feature = "kept-guesses")]
const GUESS_OVERHEAD: usize = 12;

/// The refuted guesses of large sets: per set (its raw key), each guess's
/// proven bound (by code).
#[cfg(feature = "kept-guesses")]
type GuessBounds = FxHashMap<Box<[u16]>, FxHashMap<u16, u64>>;

/// A set's raw key and its refuted guesses with their bounds, by code
/// ([`Memo::guess_entries`]).
pub type KeptGuesses = (Vec<u16>, Vec<(Code, u64)>);

/// Two generations of [`GuessBounds`] and the codes the current holds.
#[cfg(feature = "kept-guesses")]
#[derive(Default)]
struct Guesses {
    current: GuessBounds,
    old: GuessBounds,
    codes: usize,
}

#[derive(Default)]
struct Shard {
    current: FxHashMap<Box<[u16]>, Entry>,
    old: FxHashMap<Box<[u16]>, Entry>,
    codes: usize,
}

/// A bounded, thread-safe map from subproblem keys to [`Entry`].
pub struct Memo {
    shards: Vec<Mutex<Shard>>,
    limit_per_shard: usize,
    hits: AtomicU64,
    lookups: AtomicU64,
    /// Refuted guesses of large sets (few sets: one lock).
    #[cfg(feature = "kept-guesses")]
    guesses: Mutex<Guesses>,
    #[cfg(feature = "kept-guesses")]
    guess_limit: usize,
    /// Guesses answered by their kept bound ([`Memo::refuted`]).
    guess_hits: AtomicU64,
}

impl Memo {
    /// A memo storing about `limit_codes` codes per generation (and a
    /// sixteenth of that in refuted guesses).
    pub fn new(limit_codes: usize) -> Memo {
        Memo {
            shards: (0..SHARDS).map(|_| Mutex::new(Shard::default())).collect(),
            limit_per_shard: (limit_codes / SHARDS).max(1),
            hits: AtomicU64::new(0),
            lookups: AtomicU64::new(0),
            #[cfg(feature = "kept-guesses")]
            guesses: Mutex::new(Guesses::default()),
            #[cfg(feature = "kept-guesses")]
            guess_limit: (limit_codes / 16).max(1),
            guess_hits: AtomicU64::new(0),
        }
    }

    /// The bound kept for `guess` at the set of raw key `key` (a lower
    /// bound of the guess's cost there), if any.
    pub fn guess_bound(&self, key: &[u16], guess: Code) -> Option<u64> {
        #[cfg(not(feature = "kept-guesses"))]
        {
            let _ = (key, guess);
            None
        }
        #[cfg(feature = "kept-guesses")]
        self.guess_bound_kept(key, guess)
    }

    #[cfg(feature = "kept-guesses")]
    fn guess_bound_kept(&self, key: &[u16], guess: Code) -> Option<u64> {
        let mut g = self.guesses.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(list) = g.current.get(key) {
            return list.get(&guess.0).copied();
        }
        // Found in the old generation: the set's whole list moves back.
        let list = g.old.remove(key)?;
        let found = list.get(&guess.0).copied();
        g.codes += key.len() + ENTRY_OVERHEAD + list.len() * GUESS_OVERHEAD;
        g.current.insert(key.into(), list);
        found
    }

    /// The bound kept for `guess` at the set of raw key `key` when it is
    /// at least `bound` (the guess then cannot cost less than `bound`),
    /// counted in [`Memo::guess_hits`].
    pub fn refuted(&self, key: &[u16], guess: Code, bound: u64) -> Option<u64> {
        let kept = self.guess_bound(key, guess).filter(|&b| b >= bound)?;
        self.guess_hits.fetch_add(1, Ordering::Relaxed);
        #[cfg(test)]
        GUESS_HITS.with(|c| c.set(c.get() + 1));
        Some(kept)
    }

    /// Guesses answered by their kept bound so far ([`Memo::refuted`]).
    pub fn guess_hits(&self) -> u64 {
        self.guess_hits.load(Ordering::Relaxed)
    }

    /// Records that `guess` costs at least `bound` at the set of raw key
    /// `key` (keeping the larger bound).
    pub fn put_guess_bound(&self, key: &[u16], guess: Code, bound: u64) {
        #[cfg(not(feature = "kept-guesses"))]
        let _ = (key, guess, bound);
        #[cfg(feature = "kept-guesses")]
        self.put_guess_bound_kept(key, guess, bound);
    }

    #[cfg(feature = "kept-guesses")]
    fn put_guess_bound_kept(&self, key: &[u16], guess: Code, bound: u64) {
        let mut g = self.guesses.lock().unwrap_or_else(|e| e.into_inner());
        let g = &mut *g;
        let list = match g.current.get_mut(key) {
            Some(list) => list,
            None => {
                let list = g.old.remove(key).unwrap_or_default();
                g.codes += key.len() + ENTRY_OVERHEAD + list.len() * GUESS_OVERHEAD;
                g.current.entry(key.into()).or_insert(list)
            }
        };
        let slot = list.entry(guess.0).or_insert_with(|| {
            g.codes += GUESS_OVERHEAD;
            0
        });
        *slot = (*slot).max(bound);
        if g.codes > self.guess_limit {
            g.old = std::mem::take(&mut g.current);
            g.codes = 0;
        }
    }

    /// The refuted guesses of every set whose key holds at least `min_len`
    /// codes (depth included): each set once (the current generation's
    /// where both hold it), its guesses by code; sorted by key.
    pub fn guess_entries(&self, min_len: usize) -> Vec<KeptGuesses> {
        #[cfg(not(feature = "kept-guesses"))]
        {
            let _ = min_len;
            Vec::new()
        }
        #[cfg(feature = "kept-guesses")]
        self.guess_entries_kept(min_len)
    }

    #[cfg(feature = "kept-guesses")]
    fn guess_entries_kept(&self, min_len: usize) -> Vec<KeptGuesses> {
        let g = self.guesses.lock().unwrap_or_else(|e| e.into_inner());
        let old = g.old.iter().filter(|(k, _)| !g.current.contains_key(*k));
        let mut out: Vec<KeptGuesses> = g
            .current
            .iter()
            .chain(old)
            .filter(|(k, l)| k.len() >= min_len && !l.is_empty())
            .map(|(k, l)| {
                let mut l: Vec<(Code, u64)> = l.iter().map(|(&c, &b)| (Code(c), b)).collect();
                l.sort_unstable();
                (k.to_vec(), l)
            })
            .collect();
        out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        out
    }

    fn shard(&self, key: &[u16]) -> &Mutex<Shard> {
        &self.shards[(FxBuildHasher.hash_one(key) >> 32) as usize % SHARDS]
    }

    /// What is known of `key`.
    pub fn get(&self, key: &[u16]) -> Option<Entry> {
        self.lookups.fetch_add(1, Ordering::Relaxed);
        let mut shard = self.shard(key).lock().unwrap_or_else(|e| e.into_inner());
        let found = match shard.current.get(key) {
            Some(&e) => Some(e),
            None => {
                let e = shard.old.get(key).copied();
                if let Some(e) = e {
                    shard.codes += key.len() + ENTRY_OVERHEAD;
                    shard.current.insert(key.into(), e);
                }
                e
            }
        };
        if found.is_some() {
            self.hits.fetch_add(1, Ordering::Relaxed);
        }
        found
    }

    /// Records what was found of `key` (keeping the stronger knowledge).
    pub fn put(&self, key: Vec<u16>, entry: Entry) {
        let mut shard = self.shard(&key).lock().unwrap_or_else(|e| e.into_inner());
        let len = key.len();
        let slot = shard.current.entry(key.into_boxed_slice());
        match slot {
            std::collections::hash_map::Entry::Occupied(mut o) => {
                let keep = match (*o.get(), entry) {
                    (Entry::Exact(c, None), Entry::Exact(_, Some(g))) => Entry::Exact(c, Some(g)),
                    (Entry::Exact(..), _) => *o.get(),
                    (Entry::AtLeast(a), Entry::AtLeast(b)) => Entry::AtLeast(a.max(b)),
                    (Entry::AtLeast(_), e) => e,
                };
                o.insert(keep);
            }
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(entry);
                shard.codes += len + ENTRY_OVERHEAD;
                if shard.codes > self.limit_per_shard {
                    // The new generation sized as the last one ended: it
                    // fills as far again, without a rehash at each doubling.
                    let room = shard.current.len();
                    let fresh = FxHashMap::with_capacity_and_hasher(room, FxBuildHasher);
                    shard.old = std::mem::replace(&mut shard.current, fresh);
                    shard.codes = 0;
                }
            }
        }
    }

    /// Entries held now (both generations).
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| {
                let s = s.lock().unwrap_or_else(|e| e.into_inner());
                s.current.len() + s.old.len()
            })
            .sum()
    }

    /// The entries whose key holds at least `min_len` codes (depth
    /// included), the longest keys first, as many as hold at most
    /// `max_codes` codes in all (at the boundary length, the least keys);
    /// each once (the current generation's where both hold it), sorted by
    /// key: the same contents give the same list. Two passes, so that only
    /// what is handed out is copied.
    pub fn entries(&self, min_len: usize, max_codes: usize) -> Vec<(Vec<u16>, Entry)> {
        // Codes held per key length, then the shortest length that fits.
        let mut by_len: std::collections::BTreeMap<usize, usize> = Default::default();
        self.each(min_len, |k, _| {
            *by_len.entry(k.len()).or_default() += k.len()
        });
        let mut room = max_codes;
        let mut cut = usize::MAX;
        for (&len, &codes) in by_len.iter().rev() {
            if codes > room {
                cut = len;
                break;
            }
            room -= codes;
        }
        let mut out: Vec<(Vec<u16>, Entry)> = Vec::new();
        let mut boundary: Vec<(Vec<u16>, Entry)> = Vec::new();
        self.each(min_len, |k, e| {
            if cut == usize::MAX || k.len() > cut {
                out.push((k.to_vec(), e));
            } else if k.len() == cut {
                boundary.push((k.to_vec(), e));
            }
        });
        boundary.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        out.extend(boundary.into_iter().take(room / cut.max(1)));
        out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// Calls `f` on each entry whose key holds at least `min_len` codes,
    /// once (the current generation's where both hold it).
    fn each(&self, min_len: usize, mut f: impl FnMut(&[u16], Entry)) {
        for s in &self.shards {
            let s = s.lock().unwrap_or_else(|e| e.into_inner());
            for (k, &e) in s.current.iter().filter(|(k, _)| k.len() >= min_len) {
                f(k, e);
            }
            for (k, &e) in s.old.iter().filter(|(k, _)| k.len() >= min_len) {
                if !s.current.contains_key(k) {
                    f(k, e);
                }
            }
        }
    }

    /// Successful lookups so far.
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// Lookups so far.
    pub fn lookups(&self) -> u64 {
        self.lookups.load(Ordering::Relaxed)
    }
}

/// The memo key of a set as it is (no canonical form): its codes, then the
/// depth.
pub(crate) fn raw_key(set: &[Code], d: usize) -> Vec<u16> {
    // Room for the depth too: the key becomes a boxed slice without a copy.
    let mut key: Vec<u16> = Vec::with_capacity(set.len() + 1);
    key.extend(set.iter().map(|c| c.0));
    key.push(depth_key(d));
    key
}

/// The depth in a memo key. Depths are clamped to `n + 1` (at most
/// 65,536: `n` is at most [`crate::model::rules::MAX_CODES`]), and a
/// depth of `n` or more is as good as unlimited, so saturating is exact.
fn depth_key(d: usize) -> u16 {
    d.min(u16::MAX as usize) as u16
}

/// The canonical key of a set (an image of it under the rules' symmetry,
/// the same for every set of its orbit: [`crate::model::canon`]), then the
/// depth. `answer(a, b)` is the answer index of code `b` to secret `a`.
pub(crate) fn canonical_key(
    book: &Codebook,
    answer: impl Fn(Code, Code) -> usize,
    set: &[Code],
    d: usize,
    slots: usize,
    perms: &[Vec<u8>],
) -> Vec<u16> {
    let classes = canon::invariants(answer, set, slots);
    let mut key = canon::canonical(book, set, &classes, perms);
    key.push(depth_key(d));
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_stronger_knowledge() {
        let memo = Memo::new(1 << 20);
        memo.put(vec![1, 2, 3], Entry::AtLeast(10));
        memo.put(vec![1, 2, 3], Entry::AtLeast(7));
        assert_eq!(memo.get(&[1, 2, 3]), Some(Entry::AtLeast(10)));
        memo.put(vec![1, 2, 3], Entry::Exact(12, None));
        memo.put(vec![1, 2, 3], Entry::AtLeast(20));
        assert_eq!(memo.get(&[1, 2, 3]), Some(Entry::Exact(12, None)));
        memo.put(vec![1, 2, 3], Entry::Exact(12, Some(Code(5))));
        memo.put(vec![1, 2, 3], Entry::Exact(12, None));
        assert_eq!(memo.get(&[1, 2, 3]), Some(Entry::Exact(12, Some(Code(5)))));
        assert_eq!(memo.get(&[3, 2, 1]), None);
        assert_eq!(memo.hits(), 3);
    }

    #[test]
    fn entries_longest_first_within_a_budget() {
        let memo = Memo::new(1 << 20);
        for (key, c) in [
            (vec![1, 2], 1),
            (vec![5, 6, 7], 2),
            (vec![3, 4, 5], 3),
            (vec![9, 8, 7, 6], 4),
        ] {
            memo.put(key, Entry::Exact(c, Some(Code(0))));
        }
        let keys = |v: Vec<(Vec<u16>, Entry)>| v.into_iter().map(|(k, _)| k).collect::<Vec<_>>();
        assert_eq!(
            keys(memo.entries(3, usize::MAX)),
            vec![vec![3, 4, 5], vec![5, 6, 7], vec![9, 8, 7, 6]]
        );
        // Room for the longest and one of the next length: the least key.
        assert_eq!(
            keys(memo.entries(0, 8)),
            vec![vec![3, 4, 5], vec![9, 8, 7, 6]]
        );
        assert_eq!(keys(memo.entries(0, 3)), Vec::<Vec<u16>>::new());
        assert_eq!(memo.entries(0, 12).len(), 4);
    }

    #[test]
    fn guess_bounds_keep_the_larger_and_move_back_from_the_old_generation() {
        let memo = Memo::new(16 * 400);
        let (a, b) = (vec![1u16, 2, 3, 9], vec![4u16, 5, 6, 9]);
        assert_eq!(memo.guess_bound(&a, Code(7)), None);
        memo.put_guess_bound(&a, Code(7), 30);
        memo.put_guess_bound(&a, Code(7), 20);
        memo.put_guess_bound(&a, Code(8), 25);
        assert_eq!(memo.guess_bound(&a, Code(7)), Some(30));
        assert_eq!(memo.guess_bound(&b, Code(7)), None);
        assert_eq!(
            memo.guess_entries(0),
            vec![(a.clone(), vec![(Code(7), 30), (Code(8), 25)])]
        );
        assert_eq!(memo.guess_entries(5), vec![]);
        // 400 codes a generation: set b's guesses fill it, both go old,
        // and b's come back as more are put.
        for i in 0..30 {
            memo.put_guess_bound(&b, Code(i), u64::from(i));
        }
        let sets: Vec<Vec<u16>> = memo.guess_entries(0).into_iter().map(|(k, _)| k).collect();
        assert_eq!(sets, vec![a.clone(), b.clone()]);
        assert_eq!(memo.guess_bound(&a, Code(8)), Some(25), "moved back");
        assert_eq!(memo.guess_bound(&b, Code(29)), Some(29));
        assert_eq!(memo.guess_bound(&b, Code(3)), Some(3));
        // Bounded: a third generation drops the oldest.
        for i in 0..200u16 {
            memo.put_guess_bound(&[i, 100, 9], Code(0), 1);
        }
        assert!(memo.guess_entries(0).len() < 200);
    }

    #[test]
    fn bounded_by_generations() {
        let memo = Memo::new(64 * 10);
        for i in 0..10_000u16 {
            memo.put(vec![i, i, i, i, i], Entry::Exact(i as u64, None));
        }
        // Each shard keeps at most two generations of ~10 codes: 2 entries each.
        assert!(memo.len() <= 64 * 6, "{}", memo.len());
    }
}
