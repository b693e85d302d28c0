//! Solving units of a plan on this machine (`work`, `merge --audit`,
//! `solve --checkpoint`): the memory check of the units in flight, the
//! units solved side by side, each result written as `units/I.json`.
//!
//! Invariant: a unit's result depends only on the plan and the unit (not
//! on threads or which machine runs it); a unit whose file already serves
//! the plan's current generation is not solved again.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::bail;
use rayon::prelude::*;

use optimoo::observe::Silent;
use optimoo::search::plan::{self, UnitResult};
use optimoo::search::Driver;
use optimoo::search::Outcome;

use super::Folder;
use crate::driver::Rayon;

/// States the memory of `in_flight` units solved side by side on
/// `threads` workers, and refuses (before the feedback table is built:
/// refused, never killed) when it is above `max_memory` (default: the
/// memory available). Each unit in flight has its own memo; they share
/// the table.
pub fn fit_memory(
    folder: &Folder,
    memo_mib: usize,
    threads: usize,
    in_flight: usize,
    max_memory: Option<u64>,
) -> anyhow::Result<()> {
    let mut need = folder.config(memo_mib)?;
    need.tuning.memo_codes = need
        .tuning
        .memo_codes
        .checked_mul(in_flight.max(1))
        .ok_or_else(|| {
            anyhow::anyhow!(
                "--memo-mib {memo_mib} is too large: {in_flight} units in flight with a memo \
                 each do not even fit in 64 bits; give a smaller --memo-mib"
            )
        })?;
    crate::cli::memory::fit(&folder.game, need, threads, max_memory, true)?;
    Ok(())
}

/// Solves the listed units that do not serve yet (largest first, side by
/// side on the current pool; each unit's search also uses the pool);
/// returns how many this process wrote, and how many it solved but found
/// written first by another worker (counted apart, so two workers on one
/// folder never both claim a unit). Once `limits.interrupt` is set, the
/// units running stop as at their time limit (their bound, progress and
/// memo kept) and the units not started are left (counted in
/// [`Done::left`]).
pub fn work(
    folder: &Folder,
    units: &[usize],
    memo_mib: usize,
    json: bool,
    limits: Limits<'_>,
    report: &(dyn Fn(String) + Sync),
) -> anyhow::Result<Done> {
    folder.check_units_dir()?;
    let upper = folder.upper();
    let mut todo = Vec::new();
    for &i in units {
        let known = folder.read_unit(i)?.map(|(_, r)| r.outcome());
        if folder.plan.serves(i, known, upper) {
            if units.len() == 1 {
                report(format!(
                    "unit {i} is done already ({})",
                    folder.unit_path(i).display()
                ));
            }
        } else {
            todo.push(i);
        }
    }
    if !todo.is_empty() {
        folder.check_writable()?;
    }
    todo.sort_by_key(|&i| (std::cmp::Reverse(folder.plan.units[i].secrets), i));
    let interrupted = || limits.interrupt.is_some_and(|f| f.load(Ordering::Relaxed));
    let results: Vec<anyhow::Result<Option<bool>>> = todo
        .par_iter()
        .with_max_len(1)
        .map(|&i| {
            if interrupted() {
                return Ok(None);
            }
            let planned = folder.plan.cutoff(i, upper);
            // A real strategy's cost on the unit bounds its exact cost: the
            // search still finds it under that cost plus one, and refutes
            // every other second guess against it instead of the plan's
            // far looser cut-off.
            let tree = limits.tree.and_then(|t| t.get(i).copied().flatten());
            let cutoff = match tree {
                Some(c) => planned.min(c.saturating_add(1)),
                None => planned,
            };
            let deadline = limits.time_limit.map(|t| Instant::now() + t);
            let kept = std::sync::Mutex::new(None);
            let Solved {
                result,
                nodes,
                seconds,
                unit_seconds,
                progress_error,
            } = solve_one(folder, i, cutoff, memo_mib, deadline, &limits, Some(&kept))?;
            if let (Some(c), Outcome::AtLeast(b)) = (tree, result.outcome()) {
                if b > c {
                    bail!(
                        "unit {i}: the search proved a cost of at least {b}, above the {c} the \
                         tree of --upper-tree reaches on it: a contradiction (a bug); nothing \
                         was written"
                    );
                }
            }
            // Whether the time limit or an interrupt ended the unit (rather
            // than its work).
            let signalled = interrupted();
            let timed_out = signalled || deadline.is_some_and(|t| Instant::now() >= t);
            let file = folder.unit_file(i, cutoff, &result, unit_seconds, nodes);
            let kept = kept.into_inner().unwrap_or_else(|e| e.into_inner());
            let written = folder.write_unit_over(&file, &result, kept)?;
            let u = &folder.file.units[i];
            if json {
                let mut line = serde_json::to_value(&file)?;
                if let Some(o) = line.as_object_mut() {
                    o.remove("subtree");
                    o.insert("written".into(), written.into());
                }
                report(line.to_string());
            } else {
                let second = u
                    .second
                    .as_ref()
                    .map_or(String::new(), |h| format!(" then {h}"));
                let lost = progress_error.as_ref().map_or(String::new(), |e| {
                    format!("; its progress was not kept: {e}")
                });
                let by = if written {
                    String::new()
                } else if file.stopped {
                    "; a bound at least as high was kept".to_string()
                } else {
                    format!(
                        "; {} was written first by another worker (the same result): kept",
                        folder.unit_path(i).display()
                    )
                };
                report(format!(
                    "unit {i} ({} {}{second}, {} secrets): {} {} in {seconds:.2} s, {nodes} \
                     nodes{by}{lost}",
                    u.guess,
                    u.answer,
                    u.secrets,
                    match limits.bound_only {
                        _ if file.exact => "exact".to_string(),
                        Some(k) if file.stopped && !timed_out => {
                            format!("bounded {} guesses down, at least", in_words(k))
                        }
                        _ if file.stopped && signalled =>
                            "stopped by a signal, at least".to_string(),
                        _ if file.stopped => "stopped at the time limit, at least".to_string(),
                        _ => "at least".to_string(),
                    },
                    file.value
                ));
            }
            Ok(Some(written))
        })
        .collect();
    let mut errors = Vec::new();
    let mut done = Done::default();
    for r in results {
        match r {
            Ok(Some(true)) => done.written += 1,
            Ok(Some(false)) => done.theirs += 1,
            Ok(None) => done.left += 1,
            Err(e) => errors.push(format!("{e:#}")),
        }
    }
    if !errors.is_empty() {
        bail!("{}", errors.join("\n"));
    }
    Ok(done)
}

/// `k` (3 to 9) in words.
fn in_words(k: u8) -> String {
    const WORDS: [&str; 7] = ["three", "four", "five", "six", "seven", "eight", "nine"];
    match WORDS.get(usize::from(k).wrapping_sub(3)) {
        Some(w) => w.to_string(),
        None => k.to_string(),
    }
}

/// How often a best-first unit keeps its bound while it runs.
const KEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// How far [`work`] goes with each unit.
#[derive(Debug, Clone, Copy, Default)]
pub struct Limits<'a> {
    /// Stop each unit then, with the best bound proven (`--time-limit`).
    pub time_limit: Option<std::time::Duration>,
    /// Stop at the bound that many guesses down (`--bound-only`, with
    /// `--levels`, 3 by default).
    pub bound_only: Option<u8>,
    /// Per unit, the cost of a verified tree on it (`--upper-tree`, see
    /// [`super::upper_tree`]): the unit is solved under that cost plus
    /// one when it is below the plan's cut-off.
    pub tree: Option<&'a [Option<u64>]>,
    /// Print each step of a best-first run on stderr (`--trace`).
    pub trace: bool,
    /// Keep what a best-first unit's memo learns between runs
    /// (`--keep-memo`, `--keep-memo-every`).
    pub keep_memo: Option<KeepMemo>,
    /// The chase's step of a best-first unit (`--chase-step`; `None`:
    /// [`plan::CHASE_STEP`]).
    pub chase_step: Option<u64>,
    /// The size from which a best-first unit chooses its open classes by
    /// their estimated room (`--chase-estimate-min`; `None`:
    /// [`plan::ESTIMATE_MIN`]).
    pub estimate_min: Option<usize>,
    /// The smallest set whose refuted guesses keep their bounds
    /// (`--keep-guesses`; `None`: [`optimoo::search::GUESS_MEMO_MIN`];
    /// `Some(0)`: none).
    pub keep_guesses: Option<usize>,
    /// Set from outside (Ctrl-C, SIGTERM) to stop: read only by units with
    /// a time limit or `--bound-only` (a unit without either has nothing
    /// to keep part way and runs to its end).
    pub interrupt: Option<&'a AtomicBool>,
}

/// What a best-first unit keeps of its memo between runs, and how often
/// (`DIR/memo/I.bin`, written and read by `Folder::write_memo` and
/// `Folder::read_memo`).
#[derive(Debug, Clone, Copy)]
pub struct KeepMemo {
    /// Facts about sets of at least this many secrets.
    pub min_secrets: usize,
    /// Written at most this often while the unit runs (and when it stops).
    pub every: std::time::Duration,
    /// At most this many bytes of facts (the largest sets first).
    pub max_bytes: u64,
}

/// What a call of [`work`] did: units solved and written by this process,
/// and units it solved but found written first by another (the same
/// result, kept).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Done {
    /// Solved, and the file written here.
    pub written: usize,
    /// Solved, but another worker wrote the file first.
    pub theirs: usize,
    /// Not started: the run was interrupted first.
    pub left: usize,
}

/// The value behind `m`, even when a thread panicked holding it (every
/// value kept here is whole at any moment).
fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What [`solve_one`] found: the result, the search nodes, the wall time
/// in seconds, and why the unit's progress could not be kept (if so).
pub struct Solved {
    /// The unit's result.
    pub result: UnitResult,
    /// Search nodes of this run.
    pub nodes: u64,
    /// Wall seconds of this run.
    pub seconds: f64,
    /// Wall seconds of the unit in all: this run's and those of the runs
    /// it resumed from (its progress file's), what its file records.
    pub unit_seconds: f64,
    /// The first failure to write the progress file: the next run starts
    /// from an older point (nothing proven is wrong).
    pub progress_error: Option<String>,
}

/// Solves unit `i` under `cutoff` on the current pool. With a deadline, a
/// unit of a whole class is solved best-first over its second guesses
/// ([`plan::bound_unit`]) and stopped then with the best bound proven;
/// with `bound_only`, stopped at its bound three guesses down (or at the
/// deadline, if any, before). Each bound kept in the unit's file while
/// it runs is noted in `kept`. A best-first run goes on from the unit's
/// progress file (if any), keeps its progress there at most once a
/// minute and when it stops short, and removes it once the unit is
/// exact or refuted.
#[allow(clippy::too_many_arguments)]
pub fn solve_one(
    folder: &Folder,
    i: usize,
    cutoff: u64,
    memo_mib: usize,
    deadline: Option<Instant>,
    limits: &Limits<'_>,
    kept: Option<&std::sync::Mutex<Option<u64>>>,
) -> anyhow::Result<Solved> {
    let Limits {
        bound_only,
        trace,
        keep_memo,
        chase_step,
        estimate_min,
        keep_guesses,
        interrupt,
        ..
    } = *limits;
    let start = Instant::now();
    let driver = Driver {
        par: &Rayon,
        observer: &Silent,
    };
    let mut config = folder.config(memo_mib)?;
    if let Some(min) = keep_guesses {
        config.tuning.guess_memo_min = if min == 0 { usize::MAX } else { min };
    }
    let (game, p) = (&folder.game, &folder.plan);
    let whole_class = p.units[i].second.is_none();
    // Read first: a bad progress file stops the run before any work.
    let resume = match (deadline.is_some() || bound_only.is_some()) && whole_class {
        true => folder.read_progress(i)?,
        false => None,
    };
    let before = resume.as_ref().map_or(0.0, |r| r.1);
    // What earlier runs' memos learned, read first too; kept from now on
    // under the same conditions as the progress.
    let keep_memo =
        keep_memo.filter(|_| (deadline.is_some() || bound_only.is_some()) && whole_class);
    let learned = match keep_memo {
        Some(_) => folder.read_memo(i)?,
        None => None,
    };
    let memo_error = std::sync::Mutex::new(None);
    let save_memo = |facts: Vec<plan::Learned>| {
        if let Some(k) = keep_memo {
            // What is kept, for measurements (--trace): the sets' facts,
            // and the refuted guesses of large sets.
            let (sets, guesses) = facts.iter().fold((0, 0), |(s, g), f| match &f.fact {
                plan::Fact::Guesses(list) => (s + 1, g + list.len()),
                _ => (s, g),
            });
            let all = facts.len();
            match folder.write_memo(i, k.min_secrets, k.max_bytes, facts) {
                Ok(written) if trace => eprintln!(
                    "memo unit={i} t={:.3} facts={all} written={written} guess_sets={sets} \
                     guesses={guesses}",
                    start.elapsed().as_secs_f64()
                ),
                Ok(_) => {}
                Err(e) => {
                    lock(&memo_error).get_or_insert(format!("{e:#}"));
                }
            }
        }
    };
    // A long best-first run keeps each higher bound it proves in the
    // unit's file, at most once a minute: a run killed before its end
    // loses no more than a minute of it.
    let last = std::sync::Mutex::new(start);
    let best = std::sync::Mutex::new(p.units[i].lower);
    // Nodes searched when the bound last rose, for the unit's file.
    let seen = std::sync::Mutex::new(0u64);
    let keep = |b: u64, nodes: u64| {
        *lock(&best) = b;
        *lock(&seen) = nodes;
        let mut last = lock(&last);
        if last.elapsed() >= KEEP_EVERY {
            *last = Instant::now();
            let r = UnitResult::at_least(b);
            let seconds = before + start.elapsed().as_secs_f64();
            let f = folder.unit_file(i, cutoff, &r, seconds, nodes);
            // A failed write loses nothing the final one will not report.
            if let (Ok(true), Some(k)) = (folder.write_unit(&f, &r), kept) {
                *lock(k) = Some(b);
            }
        }
    };
    let progress_error = std::sync::Mutex::new(None);
    let save = |progress: &plan::UnitProgress| {
        let seconds = before + start.elapsed().as_secs_f64();
        let b = *lock(&best);
        if let Err(e) = folder.write_progress(i, progress, b, seconds) {
            lock(&progress_error).get_or_insert(format!("{e:#}"));
        }
        // The unit's file says the bound the progress proves (the search
        // keeps its progress before a long subtree build, during which a
        // run may be ended).
        let r = UnitResult::at_least(b);
        let f = folder.unit_file(i, cutoff, &r, seconds, *lock(&seen));
        if let (Ok(true), Some(k)) = (folder.write_unit(&f, &r), kept) {
            *lock(k) = Some(b);
        }
    };
    // One line a step on stderr, for measurements (scripts/bench-anytime.sh).
    // And a `begin` line as a class search starts (which class, under
    // which cut-off: the search may outlast the run).
    let step = |s: &plan::Step| {
        if s.kind == plan::StepKind::Begin {
            eprintln!(
                "begin unit={i} t={:.3} guess={} kind=search secrets={} before={} cutoff={} \
                 proven={} cpu={:.2}",
                start.elapsed().as_secs_f64(),
                game.format_code(s.guess),
                s.secrets,
                s.before,
                s.cutoff,
                s.proven,
                cpu_seconds()
            );
            return;
        }
        let kind = match s.kind {
            plan::StepKind::OneStep => "one-step".to_string(),
            plan::StepKind::Down(k) => format!("down{k}"),
            plan::StepKind::Search | plan::StepKind::Begin => "search".to_string(),
        };
        eprintln!(
            "step unit={i} t={:.3} guess={} kind={kind} secrets={} before={} after={} \
             cutoff={} exact={} proven={} nodes={} lookups={} hits={} kept={} seconds={:.3} \
             cpu={:.2}",
            start.elapsed().as_secs_f64(),
            game.format_code(s.guess),
            s.secrets,
            s.before,
            s.after,
            s.cutoff,
            s.exact,
            s.proven,
            s.nodes,
            s.lookups,
            s.hits,
            s.kept,
            s.seconds,
            cpu_seconds()
        );
    };
    let effort = |deadline: Instant, depth: plan::Depth| plan::Effort {
        deadline,
        depth,
        interrupt,
        on_bound: Some(&keep),
        learned: learned.as_deref(),
        memo_keep: keep_memo.map(|k| plan::MemoKeep {
            every: k.every,
            min_secrets: k.min_secrets,
            // A code takes one to three bytes in the file (two, mostly).
            max_codes: usize::try_from(k.max_bytes / 2).unwrap_or(usize::MAX),
            save: &save_memo,
        }),
        resume: resume.as_ref().map(|r| &r.0),
        keep: Some(plan::Keep {
            every: KEEP_EVERY,
            progress: &save,
        }),
        on_step: trace.then_some(&step as &(dyn Fn(&plan::Step) + Sync)),
        chase_step: chase_step.unwrap_or(plan::CHASE_STEP),
        estimate_min: estimate_min.unwrap_or(plan::ESTIMATE_MIN),
    };
    let (result, nodes) = match (deadline, bound_only) {
        (t, Some(levels)) => {
            // No deadline: one ten years away.
            let t =
                t.unwrap_or_else(|| Instant::now() + std::time::Duration::from_secs(315_360_000));
            plan::bound_unit(
                game,
                config,
                driver,
                p,
                i,
                cutoff,
                effort(t, plan::Depth::Levels(levels)),
            )?
        }
        (Some(t), None) => plan::bound_unit(
            game,
            config,
            driver,
            p,
            i,
            cutoff,
            effort(t, plan::Depth::Exact),
        )?,
        (None, None) => plan::solve_unit(game, config, driver, p, i, cutoff)?,
    };
    if trace {
        // The search's counters, when built with them (`--features stats`).
        if let Some(table) = optimoo::search::stats_report() {
            eprint!("{table}");
        }
    }
    let finished = match result.outcome() {
        Outcome::Exact(_) => true,
        Outcome::AtLeast(b) => b >= cutoff,
    };
    if finished {
        folder.remove_progress(i)?;
        folder.remove_memo(i)?;
    }
    Ok(Solved {
        result,
        nodes,
        seconds: start.elapsed().as_secs_f64(),
        unit_seconds: before + start.elapsed().as_secs_f64(),
        progress_error: progress_error
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .or_else(|| {
                memo_error
                    .into_inner()
                    .unwrap_or_else(|e| e.into_inner())
                    .map(|e| format!("(its memo) {e}"))
            }),
    })
}

/// The CPU time of the process so far (user and system, every thread),
/// from /proc/self/stat: for the trace's rate per core-second; -1 where
/// /proc cannot tell (not Linux).
pub fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return -1.0;
    };
    // The fields after the command's closing parenthesis (which may hold
    // spaces): utime and stime are the 14th and 15th of the line.
    let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
        return -1.0;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |k: usize| fields.get(k).and_then(|f| f.parse::<f64>().ok());
    match (ticks(11), ticks(12)) {
        // The clock ticks of Linux's /proc are 100 a second.
        (Some(u), Some(s)) => (u + s) / 100.0,
        _ => -1.0,
    }
}
