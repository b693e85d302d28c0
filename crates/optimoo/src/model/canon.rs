//! Canonical forms: one isomorphic image of a candidate set under the group
//! of [`crate::model::symmetry`] (position permutations and symbol
//! relabellings), for memo keys.
//!
//! Invariants: [`canonical`] always returns an image of its set under some
//! group element (so it is a *correct* key: isomorphic sets have the same
//! cost), and the same image for every set of one orbit when the exact
//! computation finishes within [`CANON_BUDGET`] steps (a canonical key
//! merely makes more keys meet). [`invariants`] are unchanged by the group.
//! Position permutations are used for `k <= 6` only. Under an answer rule
//! without symmetry (Wordle's: [`crate::model::AnswerRule`]; a code list's:
//! `Rules::has_symmetry`) the group is the identity and [`canonical`] returns the set itself.

use crate::model::code::{Code, Codebook};

/// A symbol not labelled yet.
const UNSET: u8 = u8::MAX;

/// An invariant class for each code of `set`: codes are ranked by their
/// histogram of answers against the whole set (which no symmetry changes),
/// rank 0 for the smallest histogram.
/// `feedback(a, b)` gives the answer index of guess `a` against secret `b`.
pub fn invariants(feedback: impl Fn(Code, Code) -> usize, set: &[Code], slots: usize) -> Vec<u32> {
    let hists: Vec<Vec<u16>> = set
        .iter()
        .map(|&c| {
            let mut h = vec![0u16; slots];
            for &s in set {
                h[feedback(c, s)] += 1;
            }
            h
        })
        .collect();
    let mut sorted: Vec<&Vec<u16>> = hists.iter().collect();
    sorted.sort();
    sorted.dedup();
    hists
        .iter()
        .map(|h| sorted.binary_search(&h).expect("listed") as u32)
        .collect()
}

/// Budget of elementary steps for one canonical form; past it the set itself
/// is returned (still a correct, merely non-canonical, key).
pub const CANON_BUDGET: usize = 200_000;

/// An isomorphic image of `set` (sorted code indices): the smallest sorted
/// image under every position permutation and symbol relabelling, when
/// computed within [`CANON_BUDGET`] steps (else `set` itself).
///
/// Method: branch and bound over the sorted image built element by element.
/// Labels given so far are always `0..m`; the smallest image a code can still
/// have labels its unlabelled symbols `m, m+1, …` in order of appearance, so
/// the next element is the smallest such image over the codes left; ties
/// branch. A branch stops as soon as its prefix exceeds the best list found.
///
/// `classes[i]` is an invariant of `set[i]` under the group (its rank by
/// [`invariants`]); codes are taken class by class, which cuts the branching:
/// the canonical list is sorted by (class, image).
pub fn canonical(book: &Codebook, set: &[Code], classes: &[u32], perms: &[Vec<u8>]) -> Vec<u16> {
    let k = book.rules().positions();
    if !book.rules().has_symmetry() {
        return set.iter().map(|c| c.0).collect();
    }
    if set.len() <= 1 || k > 10 {
        return set.iter().map(|c| c.0).collect();
    }
    debug_assert_eq!(classes.len(), set.len());
    let mut canon = Canon {
        k,
        classes: classes.to_vec(),
        codes: set.iter().map(|&c| book.symbols(c).to_vec()).collect(),
        best: Vec::new(),
        steps: 0,
        prefix: Vec::with_capacity(set.len()),
        taken: vec![false; set.len()],
    };
    for sigma in perms {
        // Apply σ to positions once: c'[σ(i)] = c[i].
        let permuted: Vec<Vec<u8>> = set
            .iter()
            .map(|&c| {
                let s = book.symbols(c);
                let mut out = vec![0u8; k];
                for i in 0..k {
                    out[sigma[i] as usize] = s[i];
                }
                out
            })
            .collect();
        canon.codes = permuted;
        let mut labels = [UNSET; 36];
        canon.step(&mut labels, 0);
        if canon.steps > CANON_BUDGET {
            return set.iter().map(|c| c.0).collect();
        }
    }
    let mut out: Vec<u16> = canon
        .best
        .iter()
        .map(|&packed| {
            let symbols: Vec<u8> = (0..k)
                .map(|i| ((packed >> (6 * (k - 1 - i))) & 63) as u8)
                .collect();
            book.find(&symbols)
                .expect("a relabelled legal code is legal")
                .0
        })
        .collect();
    out.sort_unstable();
    out
}

struct Canon {
    k: usize,
    classes: Vec<u32>,
    codes: Vec<Vec<u8>>,
    best: Vec<u64>,
    steps: usize,
    prefix: Vec<u64>,
    taken: Vec<bool>,
}

impl Canon {
    /// Smallest image of `code` given the labels so far (`next` = first free
    /// label); packed 6 bits a position, first position highest.
    fn image(&self, code: &[u8], labels: &[u8; 36], next: u8) -> u64 {
        let mut fresh = [UNSET; 36];
        let mut next = next;
        let mut packed = 0u64;
        for &s in code {
            let l = if labels[s as usize] != UNSET {
                labels[s as usize]
            } else {
                if fresh[s as usize] == UNSET {
                    fresh[s as usize] = next;
                    next += 1;
                }
                fresh[s as usize]
            };
            packed = packed << 6 | l as u64;
        }
        packed
    }

    fn step(&mut self, labels: &mut [u8; 36], next: u8) {
        if self.steps > CANON_BUDGET {
            return;
        }
        let j = self.prefix.len();
        if j == self.codes.len() {
            if self.best.is_empty() || self.prefix < self.best {
                self.best = self.prefix.clone();
            }
            return;
        }
        self.steps += self.codes.len();
        // Only codes of the smallest class left may come next.
        let class = (0..self.codes.len())
            .filter(|&i| !self.taken[i])
            .map(|i| self.classes[i])
            .min()
            .unwrap_or(0);
        let mut min = u64::MAX;
        for (i, code) in self.codes.iter().enumerate() {
            if !self.taken[i] && self.classes[i] == class {
                min = min.min(self.image(code, labels, next));
            }
        }
        if !self.best.is_empty() {
            match self.prefix[..].cmp(&self.best[..j]) {
                std::cmp::Ordering::Greater => return,
                std::cmp::Ordering::Equal if min > self.best[j] => return,
                _ => {}
            }
        }
        for i in 0..self.codes.len() {
            if self.taken[i]
                || self.classes[i] != class
                || self.image(&self.codes[i], labels, next) != min
            {
                continue;
            }
            // Label this code's new symbols in order of appearance.
            let saved = *labels;
            let mut n = next;
            for p in 0..self.k {
                let s = self.codes[i][p] as usize;
                if labels[s] == UNSET {
                    labels[s] = n;
                    n += 1;
                }
            }
            self.taken[i] = true;
            self.prefix.push(min);
            self.step(labels, n);
            self.prefix.pop();
            self.taken[i] = false;
            *labels = saved;
        }
    }
}

#[cfg(test)]
fn inv(game: &crate::model::game::Game, set: &[Code]) -> Vec<u32> {
    invariants(
        |a, b| game.feedback(b, a).index(),
        set,
        game.rules().feedback_slots(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::game::Game;
    use crate::model::rules::Rules;
    use crate::model::symmetry::position_permutations;

    #[test]
    fn canonical_forms_agree_on_isomorphic_sets() {
        let game = Game::new(Rules::standard());
        let book = game.codes();
        let perms = position_permutations(4);
        let set: Vec<Code> = ["0123", "1045", "2367", "4518", "9021"]
            .iter()
            .map(|t| book.parse(t).unwrap())
            .collect();
        // Relabel symbols 0→7, 1→3, 2→9, ... and swap positions 0 and 2.
        let pi = [7u8, 3, 9, 0, 1, 2, 4, 5, 6, 8];
        let mut image: Vec<Code> = set
            .iter()
            .map(|&c| {
                let s = book.symbols(c);
                let t = [
                    pi[s[2] as usize],
                    pi[s[1] as usize],
                    pi[s[0] as usize],
                    pi[s[3] as usize],
                ];
                book.find(&t).unwrap()
            })
            .collect();
        image.sort();
        assert_ne!(set, image);
        let a = canonical(book, &set, &inv(&game, &set), &perms);
        let b = canonical(book, &image, &inv(&game, &image), &perms);
        assert_eq!(a, b);
        assert_eq!(a.len(), 5);
        // The canonical form is itself an image of the set.
        let other: Vec<Code> = ["0123", "0124", "0125", "0126", "0127"]
            .iter()
            .map(|t| book.parse(t).unwrap())
            .collect();
        assert_ne!(canonical(book, &other, &inv(&game, &other), &perms), a);
    }
}

#[cfg(test)]
mod images {
    use super::*;
    use crate::model::game::Game;
    use crate::model::rules::Rules;
    use crate::model::symmetry::position_permutations;

    fn apply(book: &Codebook, set: &[Code], sigma: &[u8], pi: &[u8]) -> Vec<u16> {
        let k = sigma.len();
        let mut out: Vec<u16> = set
            .iter()
            .map(|&c| {
                let s = book.symbols(c);
                let mut t = vec![0u8; k];
                for i in 0..k {
                    t[sigma[i] as usize] = pi[s[i] as usize];
                }
                book.find(&t).unwrap().0
            })
            .collect();
        out.sort();
        out
    }

    fn all_perms(n: usize) -> Vec<Vec<u8>> {
        let mut v = position_permutations(n.min(6));
        if n > 6 {
            v.truncate(1);
        }
        v
    }

    #[test]
    fn canonical_is_an_image_and_invariant() {
        for rules in ["mm:4x6", "moo:4x6", "mm:3x4"] {
            let game = Game::new(rules.parse::<Rules>().unwrap());
            let book = game.codes();
            let k = game.positions();
            let n = game.rules().symbols();
            let perms = position_permutations(k);
            let sym_perms = all_perms(n);
            let mut rng = crate::rng::SplitMix64::new(12345);
            let mut rnd = |m: usize| rng.below(m);
            for trial in 0..200 {
                let size = 2 + rnd(12);
                let mut set: Vec<Code> = (0..size).map(|_| Code(rnd(book.len()) as u16)).collect();
                set.sort();
                set.dedup();
                let c = canonical(book, &set, &inv(&game, &set), &perms);
                // An image of the set under some group element.
                let found = perms
                    .iter()
                    .any(|s| sym_perms.iter().any(|p| apply(book, &set, s, p) == c));
                assert!(
                    found,
                    "{rules} trial {trial}: canonical form is not an image of {set:?}"
                );
                // The same for a random image of the set.
                let sigma = &perms[rnd(perms.len())];
                let pi = &sym_perms[rnd(sym_perms.len())];
                let img: Vec<Code> = apply(book, &set, sigma, pi).into_iter().map(Code).collect();
                assert_eq!(
                    canonical(book, &img, &inv(&game, &img), &perms),
                    c,
                    "{rules} trial {trial}"
                );
            }
        }
    }
}

/// Canonical forms under the other answer rules, against brute force.
#[cfg(test)]
mod by_rule {
    use std::collections::HashMap;

    use super::*;
    use crate::model::answer::AnswerRule;
    use crate::model::game::Game;
    use crate::model::rules::Rules;
    use crate::model::symmetry::{position_permutations, Stabilizer};

    /// The optimal total guesses of every set of secrets (a bit mask over
    /// the codes), any code a guess: exhaustive, smallest sets first.
    fn values(game: &Game) -> Vec<u32> {
        let n = game.len();
        let win = game.win();
        let mut masks: Vec<usize> = (1..1usize << n).collect();
        masks.sort_by_key(|m| m.count_ones());
        let mut value = vec![0u32; 1 << n];
        for &m in &masks {
            let mut best = u32::MAX;
            for g in game.codes().all() {
                let mut classes: HashMap<u8, usize> = HashMap::new();
                for s in (0..n).filter(|s| m >> s & 1 == 1) {
                    *classes
                        .entry(game.feedback(Code(s as u16), g).0)
                        .or_default() |= 1 << s;
                }
                let rest: Vec<usize> = classes
                    .iter()
                    .filter(|(&f, _)| f != win.0)
                    .map(|(_, &c)| c)
                    .collect();
                if rest == [m] {
                    continue;
                }
                best = best.min(rest.iter().map(|&c| value[c]).sum());
            }
            value[m] = m.count_ones() + best;
        }
        value
    }

    #[test]
    fn canonical_forms_never_merge_sets_of_different_values() {
        for (name, rule) in [
            ("mm:2x3", AnswerRule::BlackPeg),
            ("mm:3x2", AnswerRule::BlackPeg),
            ("moo:3x3", AnswerRule::BlackPeg),
            ("mm:2x3", AnswerRule::Wordle),
            ("mm:3x2", AnswerRule::Wordle),
            ("moo:3x3", AnswerRule::Wordle),
        ] {
            let rules = name.parse::<Rules>().unwrap().with_answer(rule).unwrap();
            let game = Game::new(rules);
            let book = game.codes();
            let value = values(&game);
            // The permutations the search passes (the rule decides).
            let perms = position_permutations(rules.positions());
            let mut seen: HashMap<Vec<u16>, (u32, usize)> = HashMap::new();
            for (m, &v_m) in value.iter().enumerate().skip(1) {
                let set: Vec<Code> = (0..game.len())
                    .filter(|s| m >> s & 1 == 1)
                    .map(|s| Code(s as u16))
                    .collect();
                let classes = invariants(
                    |a, b| game.feedback(b, a).index(),
                    &set,
                    rules.feedback_slots(),
                );
                let key = canonical(book, &set, &classes, &perms);
                let (v, _) = *seen.entry(key).or_insert((v_m, m));
                assert_eq!(v, v_m, "{rules}: {m:b} merged with a set of another value");
            }
            let merged = (1usize << game.len()) - 1 - seen.len();
            if rule == AnswerRule::Wordle {
                assert_eq!(merged, 0, "{rules}: Wordle has no symmetry");
            } else {
                assert!(merged > 0, "{rules}: the symmetry is used");
            }
            // The root's orbit test keeps a first guess as good as any.
            let root = Stabilizer::root(rules);
            let full = (1usize << game.len()) - 1;
            let kept: Vec<Code> = book
                .all()
                .filter(|&g| root.is_orbit_min(book.symbols(g)))
                .collect();
            assert_eq!(
                kept.len() == game.len(),
                rule == AnswerRule::Wordle,
                "{rules}"
            );
            let best_kept = kept
                .iter()
                .map(|&g| {
                    let mut classes: HashMap<u8, usize> = HashMap::new();
                    for s in 0..game.len() {
                        *classes
                            .entry(game.feedback(Code(s as u16), g).0)
                            .or_default() |= 1 << s;
                    }
                    classes
                        .iter()
                        .filter(|(&f, _)| f != game.win().0)
                        .map(|(_, &c)| value[c])
                        .sum::<u32>()
                })
                .min()
                .unwrap();
            assert_eq!(game.len() as u32 + best_kept, value[full], "{rules}");
        }
    }
}
