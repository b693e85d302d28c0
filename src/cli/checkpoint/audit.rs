//! `merge --audit FRACTION`: re-solve a sample of the finished units with
//! this version's search and compare with their files, so that the answer
//! does not rest on trusting them (their hashes only catch accidents:
//! anyone can recompute a hash; docs/scale.md, "What merge trusts").
//!
//! Invariants: the sample depends only on the finished units (exact, or
//! refuted at their cut-off; a unit stopped by a time limit is named and
//! left out, as its bound is where the limit left it, not a result), the
//! fraction and the seed (SplitMix64, a partial Fisher–Yates shuffle); each unit is
//! re-solved under the cut-off its file records, so an honest file is
//! reproduced exactly (a unit's result depends only on the plan, the unit
//! and the cut-off) and any difference in exactness, value or subtree is a
//! wrong file, reported with both results; the units run side by side on
//! the current pool, as `work --all` runs them.

use anyhow::bail;
use rayon::prelude::*;

use optimoo::rng::SplitMix64;
use optimoo::search::plan::UnitResult;
use optimoo::search::Outcome;

use super::{solve_one, Folder};

/// The units to audit: `ceil(fraction × n)` of the `finished` ones (at
/// least one), drawn by `seed`, in increasing order.
pub fn sample(finished: &[usize], fraction: f64, seed: u64) -> Vec<usize> {
    let n = finished.len();
    if n == 0 {
        return Vec::new();
    }
    let k = ((fraction * n as f64).ceil() as usize).clamp(1, n);
    let mut pool = finished.to_vec();
    let mut rng = SplitMix64::new(seed);
    for j in 0..k {
        let pick = j + rng.below(n - j);
        pool.swap(j, pick);
    }
    pool.truncate(k);
    pool.sort_unstable();
    pool
}

/// `unit 2` or `units 2, 5`.
fn unit_list(units: &[usize]) -> String {
    let list = units
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    if units.len() == 1 {
        format!("unit {list}")
    } else {
        format!("units {list}")
    }
}

/// A result in words: `exact 310` or `at least 1000000`.
fn show(r: &UnitResult) -> String {
    match r.outcome() {
        Outcome::Exact(c) => format!("exact {c}"),
        Outcome::AtLeast(b) => format!("at least {b}"),
    }
}

/// Re-solves a sample of the finished units of `folder` (in the current
/// pool) and compares each with its file; says on stderr (`say`) which
/// units and how many, and fails naming every unit that differs with
/// both results.
/// With `max_seconds`, only the finished units whose file records a solve
/// of at most that many seconds are drawn from; the others are named on
/// `say` (a slow path such as `OPTIMOO_KERNEL=scalar` can then re-check
/// the units it can afford, drawn at random among them).
pub fn audit(
    folder: &Folder,
    fraction: f64,
    seed: u64,
    memo_mib: usize,
    max_seconds: Option<f64>,
    say: &(dyn Fn(String) + Sync),
) -> anyhow::Result<()> {
    let mut finished = Vec::new();
    let mut stopped = Vec::new();
    let mut slow = Vec::new();
    let mut errors = Vec::new();
    for i in 0..folder.plan.units.len() {
        match folder.read_unit(i) {
            // A stopped unit's bound is where a time limit left it, not a
            // result: re-solving it would run the whole unit and differ.
            Ok(Some((file, _))) if file.stopped => stopped.push(i),
            Ok(Some((file, _))) if max_seconds.is_some_and(|m| file.seconds > m) => slow.push(i),
            Ok(Some(_)) => finished.push(i),
            Ok(None) => {}
            Err(e) => errors.push(format!("{e:#}")),
        }
    }
    if !errors.is_empty() {
        bail!("{}", errors.join("\n"));
    }
    if !stopped.is_empty() {
        say(format!(
            "audit: {} stopped on the way, not audited (a stopped unit's bound is where its \
             time limit left it; it is audited once it finishes)",
            unit_list(&stopped)
        ));
    }
    if let Some(m) = max_seconds.filter(|_| !slow.is_empty()) {
        say(format!(
            "audit: {} took over {m} s (the time in the file), not drawn (--audit-max-seconds)",
            unit_list(&slow)
        ));
    }
    if finished.is_empty() && !slow.is_empty() {
        bail!(
            "nothing to audit: every finished unit of {} took over the --audit-max-seconds \
             limit by its file",
            folder.dir.display()
        );
    }
    if finished.is_empty() {
        bail!(
            "nothing to audit: no unit of {} is finished (run optimoo work {} --all)",
            folder.dir.display(),
            folder.dir.display()
        );
    }
    let chosen = sample(&finished, fraction, seed);
    say(format!(
        "audit: re-solving {} of {} units (seed {seed}): {}",
        chosen.len(),
        finished.len(),
        chosen
            .iter()
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let results: Vec<anyhow::Result<Option<String>>> = chosen
        .par_iter()
        .with_max_len(1)
        .map(|&i| {
            let Some((file, claimed)) = folder.read_unit(i)? else {
                bail!(
                    "{} disappeared during the audit",
                    folder.unit_path(i).display()
                );
            };
            let found = solve_one(
                folder,
                i,
                file.cutoff,
                memo_mib,
                None,
                &super::Limits::default(),
                None,
            )?
            .result;
            if found == claimed {
                return Ok(None);
            }
            let u = &folder.file.units[i];
            let second = u
                .second
                .as_ref()
                .map_or(String::new(), |h| format!(" then {h}"));
            let subtree = if found.outcome() == claimed.outcome() && found.outcome().is_exact() {
                " with another subtree"
            } else {
                ""
            };
            Ok(Some(format!(
                "unit {i} ({} {}{second}): {} says {}, re-solving it gives {}{subtree} \
                 (cut-off {})",
                u.guess,
                u.answer,
                folder.unit_path(i).display(),
                show(&claimed),
                show(&found),
                file.cutoff
            )))
        })
        .collect();
    let mut differ = Vec::new();
    for r in results {
        match r {
            Ok(Some(d)) => differ.push(d),
            Ok(None) => {}
            Err(e) => errors.push(format!("{e:#}")),
        }
    }
    if !errors.is_empty() {
        bail!("{}", errors.join("\n"));
    }
    if !differ.is_empty() {
        bail!(
            "audit: {} of the {} units re-solved differ from their files (wrong or forged; \
             delete them and run them again, and distrust whatever wrote them):\n{}",
            differ.len(),
            chosen.len(),
            differ.join("\n")
        );
    }
    say(format!(
        "audit: the {} units re-solved agree with their files",
        chosen.len()
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_fixed_by_the_seed() {
        let all: Vec<usize> = (0..52).collect();
        assert_eq!(sample(&all, 1.0, 5), all);
        let a = sample(&all, 0.25, 5);
        assert_eq!(a.len(), 13);
        assert_eq!(a, sample(&all, 0.25, 5));
        assert!(a.windows(2).all(|w| w[0] < w[1]));
        assert_ne!(a, sample(&all, 0.25, 6));
        assert_eq!(sample(&all, 1e-9, 5).len(), 1);
        assert!(sample(&[], 1.0, 5).is_empty());
        assert_eq!(sample(&[3, 9], 0.5, 1).len(), 1);
    }
}
