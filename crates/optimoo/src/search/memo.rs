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
}

impl Memo {
    /// A memo storing about `limit_codes` codes per generation.
    pub fn new(limit_codes: usize) -> Memo {
        Memo {
            shards: (0..SHARDS).map(|_| Mutex::new(Shard::default())).collect(),
            limit_per_shard: (limit_codes / SHARDS).max(1),
            hits: AtomicU64::new(0),
            lookups: AtomicU64::new(0),
        }
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
    fn bounded_by_generations() {
        let memo = Memo::new(64 * 10);
        for i in 0..10_000u16 {
            memo.put(vec![i, i, i, i, i], Entry::Exact(i as u64, None));
        }
        // Each shard keeps at most two generations of ~10 codes: 2 entries each.
        assert!(memo.len() <= 64 * 6, "{}", memo.len());
    }
}
