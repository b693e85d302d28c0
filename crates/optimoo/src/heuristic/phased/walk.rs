//! Playing the phased strategy over every secret of a game, or a sample,
//! without materialising its tree.
//!
//! The walk holds the codes in one array and partitions it in place (a
//! stable counting sort by answer), so every class is a sorted slice of its
//! parent and the memory is the array, its marks and one scratch copy at
//! the largest node (`Shape::memory_bytes`). Only marked codes are
//! secrets that count: a class without any is not walked, so a sample costs
//! the nodes its secrets reach. [`encode`] writes the strategy's whole tree
//! as a tree file by the same walk (the format of
//! `crate::tree::format::shape`, framed there, its varints from
//! `crate::tree::format::wire`). Every walk tells its observer
//! (`crate::observe::Observer::solved`) the secrets it solves.
//!
//! Invariants: the statistics depend only on the game, the options and the
//! marks, never on the threads (classes are walked in parallel, each into
//! its own statistics, added in answer order); every marked secret is
//! counted once, at the depth of the guess that answers it `kA0B`. The
//! bytes [`encode`] writes never depend on the threads either (the classes
//! of a large node are encoded into separate buffers, joined in answer
//! order), and on a game the model handles they are the bytes
//! `TreeFile::to_bytes` writes for [`tree`] (tested).

use std::sync::Mutex;

use rustc_hash::FxHashSet;

use crate::exec::Parallel;
use crate::model::Objective;
use crate::model::{Code, Feedback};
use crate::observe::Observer;
use crate::rng::SplitMix64;
use crate::tree::format::shape::{self as shape_file, FileError};
use crate::tree::format::wire::write_varint;
use crate::tree::{Node, Stats, Tree};

use crate::model::shape::Packed;

use super::Chooser;

/// Nodes with at least this many codes walk their classes in parallel.
pub(super) const PARALLEL_MIN: usize = 4096;
/// Deeper than this, the walk stops with an error (it never happens: every
/// guess splits its set).
pub(super) const MAX_DEPTH: usize = 64;

/// A class of a node: its codes and their marks.
type Class<'a> = (&'a mut [Packed], &'a mut [bool]);

/// A walk that could not finish.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WalkError {
    /// A guess that does not split its set (a bug, never seen).
    #[error("the strategy repeats itself on a set of {0} codes")]
    NoProgress(usize),
    /// Too deep (a bug, never seen).
    #[error("a secret needs more than {MAX_DEPTH} guesses")]
    TooDeep,
    /// More secrets asked for than the game has.
    #[error("a sample of {sample} secrets is larger than the game's {codes}")]
    SampleTooLarge {
        /// asked
        sample: u64,
        /// the game's codes
        codes: u64,
    },
}

/// Plays every secret of `codes` whose mark is set (`codes` sorted, every
/// code of the game; both slices are permuted in place).
pub fn walk(
    chooser: &Chooser,
    codes: &mut [Packed],
    marks: &mut [bool],
    par: &dyn Parallel,
    progress: &dyn Observer,
) -> Result<Stats, WalkError> {
    walk_from(chooser, codes, marks, 0, par, progress)
}

/// Plays the marked secrets of `set`, the candidates after `played`
/// guesses (sorted): what [`walk`] counts below that node, each secret's
/// guesses counted from the start of the game.
pub fn walk_from(
    chooser: &Chooser,
    set: &mut [Packed],
    marks: &mut [bool],
    played: usize,
    par: &dyn Parallel,
    progress: &dyn Observer,
) -> Result<Stats, WalkError> {
    assert_eq!(set.len(), marks.len(), "one mark per code");
    let mut stats = Stats::default();
    if marks.iter().any(|&m| m) {
        node(chooser, set, marks, played + 1, par, progress, &mut stats)?;
    }
    Ok(stats)
}

/// One node where the tree is cut into units: the moves that lead there
/// and the number of candidates left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cut {
    /// The guesses and answers from the start of the game.
    pub history: Vec<(Packed, Feedback)>,
    /// Candidates at the node.
    pub size: u64,
}

/// A secret solved above the units of a cut: the guesses it takes, and
/// the secret (the guess that answers it `kA0B`).
pub type Solved = (usize, Packed);

/// Cuts the strategy's tree into independent units: the classes of the
/// first guess, and with `depth` 2 the classes of at least `split`
/// candidates cut again by their own guess. Returns the units (in answer
/// order) and the secrets the guesses above them solve (each such guess
/// is the one secret of its winning class), with the number of guesses
/// each takes. Walking every unit with [`walk_from`] and adding these
/// gives [`walk`]'s statistics.
pub fn cut(
    chooser: &Chooser,
    depth: usize,
    split: u64,
    par: &dyn Parallel,
) -> Result<(Vec<Cut>, Vec<Solved>), WalkError> {
    let shape = chooser.shape();
    let mut codes = shape.all_codes();
    let mut units = Vec::new();
    let mut above = Vec::new();
    cut_node(
        chooser,
        &mut codes,
        Vec::new(),
        depth,
        split,
        par,
        &mut units,
        &mut above,
    )?;
    Ok((units, above))
}

#[allow(clippy::too_many_arguments)]
fn cut_node(
    chooser: &Chooser,
    set: &mut [Packed],
    history: Vec<(Packed, Feedback)>,
    depth: usize,
    split: u64,
    par: &dyn Parallel,
    units: &mut Vec<Cut>,
    above: &mut Vec<Solved>,
) -> Result<(), WalkError> {
    let guess = if history.is_empty() {
        chooser.opening(par)
    } else {
        chooser.choose(set, par)
    };
    let mut marks = vec![false; set.len()];
    let bounds = chooser.shape().partition(guess, set, Some(&mut marks));
    let win = chooser.win();
    if bounds.len() == 1 && bounds[0].0 != win {
        return Err(WalkError::NoProgress(set.len()));
    }
    let mut rest = set;
    for (f, len) in bounds {
        let (class, tail) = std::mem::take(&mut rest).split_at_mut(len);
        rest = tail;
        if f == win {
            above.push((history.len() + 1, guess));
            continue;
        }
        let mut next = history.clone();
        next.push((guess, Feedback(f as u8)));
        if depth > 1 && len as u64 >= split && len > 1 {
            cut_node(chooser, class, next, depth - 1, split, par, units, above)?;
        } else {
            units.push(Cut {
                history: next,
                size: len as u64,
            });
        }
    }
    Ok(())
}

fn node(
    chooser: &Chooser,
    set: &mut [Packed],
    marks: &mut [bool],
    depth: usize,
    par: &dyn Parallel,
    progress: &dyn Observer,
    stats: &mut Stats,
) -> Result<(), WalkError> {
    if depth > MAX_DEPTH {
        return Err(WalkError::TooDeep);
    }
    let guess = chooser.choose(set, par);
    let bounds = chooser.shape().partition(guess, set, Some(marks));
    let win = chooser.win();
    if bounds.len() == 1 && bounds[0].0 != win {
        return Err(WalkError::NoProgress(set.len()));
    }
    let mut children: Vec<(&mut [Packed], &mut [bool])> = Vec::new();
    let (mut rest, mut rest_marks) = (set, marks);
    for (f, len) in bounds {
        let (class, tail) = std::mem::take(&mut rest).split_at_mut(len);
        let (class_marks, tail_marks) = std::mem::take(&mut rest_marks).split_at_mut(len);
        rest = tail;
        rest_marks = tail_marks;
        let count = class_marks.iter().filter(|&&m| m).count() as u64;
        if f == win {
            if count > 0 {
                stats.add(depth, count);
                progress.solved(count);
            }
        } else if count > 0 {
            children.push((class, class_marks));
        }
    }
    let total: usize = children.iter().map(|c| c.0.len()).sum();
    if total >= PARALLEL_MIN && children.len() > 1 {
        let slots: Vec<Mutex<Option<Class>>> =
            children.into_iter().map(|c| Mutex::new(Some(c))).collect();
        let results: Vec<Mutex<Option<Result<Stats, WalkError>>>> =
            slots.iter().map(|_| Mutex::new(None)).collect();
        par.for_each(slots.len(), &|i| {
            let (class, class_marks) = slots[i].lock().expect("no panic").take().expect("once");
            let mut own = Stats::default();
            let r = node(
                chooser,
                class,
                class_marks,
                depth + 1,
                par,
                progress,
                &mut own,
            );
            *results[i].lock().expect("no panic") = Some(r.map(|()| own));
        });
        for r in results {
            merge(
                stats,
                &r.into_inner().expect("no panic").expect("every task ran")?,
            );
        }
    } else {
        for (class, class_marks) in children {
            node(chooser, class, class_marks, depth + 1, par, progress, stats)?;
        }
    }
    Ok(())
}

/// Adds `other` into `stats`.
pub fn merge(stats: &mut Stats, other: &Stats) {
    for (d, &n) in other.histogram.iter().enumerate() {
        if n > 0 {
            stats.add(d + 1, n);
        }
    }
}

/// `count` distinct code ranks out of `codes`, drawn uniformly from
/// `seed` (Floyd's algorithm), as marks.
pub fn sample_marks(codes: u64, count: u64, seed: u64) -> Result<Vec<bool>, WalkError> {
    if count > codes {
        return Err(WalkError::SampleTooLarge {
            sample: count,
            codes,
        });
    }
    let mut rng = SplitMix64::new(seed);
    let mut chosen = FxHashSet::default();
    for j in (codes - count)..codes {
        let t = rng.below(j as usize + 1) as u64;
        if !chosen.insert(t) {
            chosen.insert(j);
        }
    }
    let mut marks = vec![false; codes as usize];
    for t in chosen {
        marks[t as usize] = true;
    }
    Ok(marks)
}

/// The 95 % confidence interval of the average of a sample of
/// `stats.secrets` secrets drawn without replacement from `population`
/// (normal approximation, with the finite population correction); `None`
/// for a sample of fewer than two secrets, which has no variance to
/// estimate (not an interval of width zero).
pub fn interval(stats: &Stats, population: u64) -> Option<(f64, f64)> {
    let m = stats.secrets as f64;
    let mean = stats.average();
    if stats.secrets < 2 {
        return None;
    }
    let var = stats
        .histogram
        .iter()
        .enumerate()
        .map(|(d, &c)| c as f64 * ((d + 1) as f64 - mean).powi(2))
        .sum::<f64>()
        / (m - 1.0);
    let fpc = if population > 1 {
        ((population as f64 - m) / (population as f64 - 1.0)).max(0.0)
    } else {
        0.0
    };
    let half = 1.959_964 * (var / m * fpc).sqrt();
    Some((mean - half, mean + half))
}

/// Why the strategy's tree file could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// The strategy could not be walked (a guess that does not split its
    /// set, too deep).
    #[error("the strategy's tree cannot be written: {0}")]
    Walk(#[from] WalkError),
    /// The file would not fit its format (its 32-bit length field).
    #[error("{0}")]
    File(#[from] FileError),
}

/// Writes the phased strategy's whole tree (every secret) as a tree file:
/// objective heuristic, no cap, implied leaves, the header's statistics
/// those of this walk (returned too). Holds every code once, a partition's
/// scratch and the bytes (`Shape::memory_bytes` covers the codes);
/// `progress` is told the secrets solved. Fails as the walk does (a guess
/// that does not split its set, more than 64 guesses), or when the file
/// would not fit the 32-bit length field.
pub fn encode(
    chooser: &Chooser,
    par: &dyn Parallel,
    progress: &dyn Observer,
) -> Result<(Vec<u8>, Stats), EncodeError> {
    let shape = chooser.shape();
    let mut codes = shape.all_codes();
    let encoder = Encoder {
        chooser,
        par,
        progress,
        win: chooser.win(),
    };
    let mut body = Vec::new();
    let mut stats = Stats::default();
    encoder.node(&mut codes, 1, &mut body, &mut stats)?;
    drop(codes);
    let bytes = shape_file::frame(shape, Objective::Heuristic, None, &stats, &body)?;
    Ok((bytes, stats))
}

/// The walk that writes the body.
struct Encoder<'a> {
    chooser: &'a Chooser,
    par: &'a dyn Parallel,
    progress: &'a dyn Observer,
    win: usize,
}

impl Encoder<'_> {
    /// Writes the subtree of the node whose candidates are `set` (sorted;
    /// permuted in place), `depth` guesses from the start, into `out`, and
    /// counts its secrets into `stats`.
    fn node(
        &self,
        set: &mut [Packed],
        depth: usize,
        out: &mut Vec<u8>,
        stats: &mut Stats,
    ) -> Result<(), WalkError> {
        if depth > MAX_DEPTH {
            return Err(WalkError::TooDeep);
        }
        let shape = self.chooser.shape();
        let guess = self.chooser.choose(set, self.par);
        if set.len() == 1 {
            // An implied leaf: not written, and it must guess its secret
            // (else the guess would not split the set).
            if guess != set[0] {
                return Err(WalkError::NoProgress(1));
            }
            stats.add(depth, 1);
            self.progress.solved(1);
            return Ok(());
        }
        write_varint(out, shape.rank_in(set, guess));
        let bounds = shape.partition(guess, set, None);
        if bounds.len() == 1 && bounds[0].0 != self.win {
            return Err(WalkError::NoProgress(set.len()));
        }
        let mut children: Vec<&mut [Packed]> = Vec::new();
        let mut rest = set;
        for (f, len) in bounds {
            let (class, tail) = std::mem::take(&mut rest).split_at_mut(len);
            rest = tail;
            if f == self.win {
                stats.add(depth, 1);
                self.progress.solved(1);
            } else {
                children.push(class);
            }
        }
        let total: usize = children.iter().map(|c| c.len()).sum();
        if total >= PARALLEL_MIN && children.len() > 1 {
            type Done = Result<(Vec<u8>, Stats), WalkError>;
            let slots: Vec<Mutex<Option<&mut [Packed]>>> =
                children.into_iter().map(|c| Mutex::new(Some(c))).collect();
            let results: Vec<Mutex<Option<Done>>> =
                slots.iter().map(|_| Mutex::new(None)).collect();
            self.par.for_each(slots.len(), &|i| {
                let class = slots[i].lock().expect("no panic").take().expect("once");
                let mut buf = Vec::new();
                let mut own = Stats::default();
                let r = self.node(class, depth + 1, &mut buf, &mut own);
                *results[i].lock().expect("no panic") = Some(r.map(|()| (buf, own)));
            });
            for r in results {
                let (buf, own) = r.into_inner().expect("no panic").expect("every task ran")?;
                out.extend_from_slice(&buf);
                merge(stats, &own);
            }
        } else {
            for class in children {
                self.node(class, depth + 1, out, stats)?;
            }
        }
        Ok(())
    }
}

/// The whole tree of the strategy, for a game the model handles (codes
/// numbered by rank); `None` for a larger game.
pub fn tree(chooser: &Chooser, par: &dyn Parallel) -> Option<Tree> {
    let shape = chooser.shape();
    let rules = shape.rules()?;
    let all = shape.all_codes();
    let code = |p: Packed| Code(shape.rank(p) as u16);
    fn build(
        chooser: &Chooser,
        set: &[Packed],
        par: &dyn Parallel,
        code: &dyn Fn(Packed) -> Code,
    ) -> Node {
        let shape = chooser.shape();
        let guess = chooser.choose(set, par);
        let mut classes: std::collections::BTreeMap<usize, Vec<Packed>> = Default::default();
        for &s in set {
            classes
                .entry(shape.feedback(s, guess).index())
                .or_default()
                .push(s);
        }
        let mut node = Node::leaf(code(guess));
        for (f, class) in classes {
            if f != chooser.win() {
                node.children
                    .push((Feedback(f as u8), build(chooser, &class, par, code)));
            }
        }
        node
    }
    Some(Tree {
        rules,
        root: build(chooser, &all, par, &code),
    })
}
