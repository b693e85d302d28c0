//! Counters of the search's work, for measurements: the nodes by set
//! size and level, the guesses each node evaluates, where each guess is
//! refuted (its lookahead, the node's branching, its first class bound,
//! a later one, a class search) and the class bounds computed or found
//! in the memo (docs/benchmarks.md, session 25).
//!
//! Invariants: compiled only with the crate's `stats` feature (`cargo
//! build --release --features stats`, which `optimoo work --trace` then
//! prints); without it every counting call is an empty inline function,
//! so the search, its speed and the player's size are unchanged. Counting
//! changes no result. The counters are process-wide atomics (relaxed):
//! a report is exact when one search ran.

/// Where a guess's evaluation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fate {
    /// Refuted by its classes' level bounds (its lookahead).
    Lookahead,
    /// Refuted by the node's own branching (`Bounds::lower_within`).
    Branching,
    /// Refuted by its first (largest) class bound.
    FirstClassBound,
    /// Refuted by a later class bound.
    LaterClassBound,
    /// Refuted while its classes were searched.
    Search,
    /// Its exact cost found (below the bound).
    Exact,
}

#[cfg(feature = "stats")]
mod on {
    use super::Fate;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// Set sizes: 1-8, 9-16, 17-32, 33-64, 65-128, 129-255, 256-511, 512+.
    pub(super) const SIZES: usize = 8;
    /// Levels below the search's root: 0 … 6, then 7 and more.
    pub(super) const LEVELS: usize = 8;
    pub(super) const FATES: usize = 6;

    #[allow(clippy::declare_interior_mutable_const)]
    const ZERO: AtomicU64 = AtomicU64::new(0);
    #[allow(clippy::declare_interior_mutable_const)]
    const LEVEL_ROW: [AtomicU64; LEVELS] = [ZERO; LEVELS];
    #[allow(clippy::declare_interior_mutable_const)]
    const FATE_ROW: [AtomicU64; FATES] = [ZERO; FATES];
    #[allow(clippy::declare_interior_mutable_const)]
    const CLASS_ROW: [AtomicU64; 3] = [ZERO; 3];
    pub(super) static NODES: [[AtomicU64; LEVELS]; SIZES] = [LEVEL_ROW; SIZES];
    pub(super) static FATE: [[AtomicU64; FATES]; SIZES] = [FATE_ROW; SIZES];
    /// Class bounds: [size][0 computed, 1 from the memo, 2 recalled
    /// from the thread's recent ones].
    pub(super) static CLASS: [[AtomicU64; 3]; SIZES] = [CLASS_ROW; SIZES];

    pub(super) fn size(n: usize) -> usize {
        match n {
            0..=8 => 0,
            9..=16 => 1,
            17..=32 => 2,
            33..=64 => 3,
            65..=128 => 4,
            129..=255 => 5,
            256..=511 => 6,
            _ => 7,
        }
    }

    pub(super) fn add(a: &AtomicU64) {
        a.fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn fate(f: Fate) -> usize {
        match f {
            Fate::Lookahead => 0,
            Fate::Branching => 1,
            Fate::FirstClassBound => 2,
            Fate::LaterClassBound => 3,
            Fate::Search => 4,
            Fate::Exact => 5,
        }
    }
}

/// A node of `n` secrets searched, `level` below the search's root.
#[inline(always)]
pub(crate) fn node(_n: usize, _level: usize) {
    #[cfg(feature = "stats")]
    on::add(&on::NODES[on::size(_n)][_level.min(on::LEVELS - 1)]);
}

/// A guess evaluated at a node of `n` secrets ended so.
#[inline(always)]
pub(crate) fn fate(_n: usize, _fate: Fate) {
    #[cfg(feature = "stats")]
    on::add(&on::FATE[on::size(_n)][on::fate(_fate)]);
}

/// A class bound of a class of `n` secrets asked: computed, or found
/// in the memo.
#[inline(always)]
pub(crate) fn class_bound(_n: usize, _computed: bool) {
    #[cfg(feature = "stats")]
    on::add(&on::CLASS[on::size(_n)][usize::from(!_computed)]);
}

/// A class bound of a class of `n` secrets decided by the thread's
/// recent ones ([`crate::search::recent`]).
#[inline(always)]
pub(crate) fn class_bound_recalled(_n: usize) {
    #[cfg(feature = "stats")]
    on::add(&on::CLASS[on::size(_n)][2]);
}

/// The counters as a table (one row a set size), or `None` when the
/// crate was built without the `stats` feature.
pub fn report() -> Option<String> {
    #[cfg(feature = "stats")]
    {
        use std::fmt::Write;
        use std::sync::atomic::Ordering;
        let get = |a: &std::sync::atomic::AtomicU64| a.load(Ordering::Relaxed);
        let names = [
            "1-8", "9-16", "17-32", "33-64", "65-128", "129-255", "256-511", "512+",
        ];
        let mut out = String::new();
        let _ = writeln!(
            out,
            "size      nodes  by level 0..7+                          guesses/node  \
             refuted by: lookahead branching 1st-class later-class search; exact  \
             class bounds computed/memo/recent"
        );
        for (s, name) in names.iter().enumerate() {
            let levels: Vec<u64> = on::NODES[s].iter().map(get).collect();
            let nodes: u64 = levels.iter().sum();
            let fates: Vec<u64> = on::FATE[s].iter().map(get).collect();
            let evaluated: u64 = fates.iter().sum();
            let class: Vec<u64> = on::CLASS[s].iter().map(get).collect();
            if nodes == 0 && evaluated == 0 && class.iter().sum::<u64>() == 0 {
                continue;
            }
            let _ = writeln!(
                out,
                "{name:<8} {nodes:>8}  {levels:?}  {:.1}  {fates:?}  {class:?}",
                evaluated as f64 / nodes.max(1) as f64
            );
        }
        Some(out)
    }
    #[cfg(not(feature = "stats"))]
    None
}
