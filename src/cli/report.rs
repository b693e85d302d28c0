//! Reports of `solve` and `eval`: one serde-derived type per result,
//! written as JSON (`--json`, [`serde_json`]) and as the text summary
//! ([`Display`](fmt::Display)) from the same value, so that the two cannot
//! say different things and the README's table of JSON fields can be
//! checked against the serialized keys (tests/cli.rs does).
//!
//! Invariant: the JSON keys and their order are the ones scripts already
//! read (scripts/results.sh, scripts/bench-*.sh); fields marked
//! `serde(skip)` only feed the text.

use std::fmt;
use std::io::Write;
use std::process::ExitCode;

use serde::Serialize;

use optimoo::model::Game;
use optimoo::model::Objective;
use optimoo::search::{MinCap, Solution};
use optimoo::tree::Stats;

use super::args::CostVector;
use super::EXIT_NEGATIVE;

/// One exhaustive search for the smallest cap: `cap` refuted (or, for
/// the last one, found feasible) in `seconds`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CapSearch {
    /// The cap searched.
    pub cap: usize,
    /// Wall time of the search.
    pub seconds: f64,
}

/// How the smallest cap was found (worst, crush): JSON `min_cap` and
/// `refuted`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CapProof {
    /// The smallest feasible cap.
    pub min_cap: usize,
    /// Caps below this are refuted by counting alone (text only).
    #[serde(skip)]
    pub counted: usize,
    /// Each cap refuted by exhaustive search, in order.
    pub refuted: Vec<CapSearch>,
    /// The search that found `min_cap` feasible, if one ran (text only).
    #[serde(skip)]
    pub found: Option<CapSearch>,
}

impl From<&MinCap> for CapProof {
    fn from(m: &MinCap) -> CapProof {
        let search = |&(cap, _, seconds): &(usize, bool, f64)| CapSearch { cap, seconds };
        CapProof {
            min_cap: m.cap,
            counted: m.counted,
            refuted: m.searches.iter().filter(|s| !s.1).map(search).collect(),
            found: m.searches.iter().find(|s| s.1).map(search),
        }
    }
}

impl fmt::Display for CapProof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "min cap    {}", self.min_cap)?;
        if self.counted > 1 {
            writeln!(
                f,
                "refuted    caps below {} by counting (too many secrets for the answers)",
                self.counted
            )?;
        }
        for r in &self.refuted {
            writeln!(
                f,
                "refuted    cap {}: no strategy, by exhaustive search in {:.3} s",
                r.cap, r.seconds
            )?;
        }
        if let Some(s) = &self.found {
            writeln!(f, "found      cap {} feasible in {:.3} s", s.cap, s.seconds)?;
        }
        Ok(())
    }
}

/// `solve` found a tree.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Solved {
    /// The game, e.g. `moo:4x10`.
    pub game: String,
    /// The cap the tree keeps within (`null`: none).
    pub cap: Option<usize>,
    /// average, worst or crush.
    pub objective: &'static str,
    /// Always true here.
    pub feasible: bool,
    /// Guesses over all secrets, winning guesses included.
    pub total: u64,
    /// `total` per secret.
    pub average: f64,
    /// Most guesses any secret needs.
    pub max_depth: usize,
    /// Secrets solved in 1, 2, … guesses.
    pub histogram: Vec<u64>,
    /// Secrets that need all `cap` guesses (0 without a cap).
    pub at_cap: u64,
    /// The tree's first guess.
    pub first_guess: String,
    /// Whether `--first` fixed it: the total is then the least after that
    /// guess, an upper bound of the game's optimum.
    pub first_fixed: bool,
    /// Wall time of the search that found the tree.
    pub seconds: f64,
    /// Search nodes visited.
    pub nodes: u64,
    /// Memo lookups that found something.
    pub memo_hits: u64,
    /// Memo lookups.
    pub memo_lookups: u64,
    /// Entries in the memo at the end.
    pub memo_entries: usize,
    /// For worst and crush: `min_cap` and `refuted`.
    #[serde(flatten)]
    pub proof: Option<CapProof>,
    /// With `--objective costs:...`: the least sum of the costs, an
    /// integer or "p/q" (the `total` beside it counts guesses).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<serde_json::Value>,
    /// With `--objective costs:...`: the vector, in lowest terms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub costs: Option<String>,
    /// Secrets of the game (text only: the average's denominator).
    #[serde(skip)]
    pub secrets: u64,
}

/// `solve` proved that no strategy meets the cap.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Infeasible {
    /// The game.
    pub game: String,
    /// The cap no strategy meets.
    pub cap: Option<usize>,
    /// The objective asked for.
    pub objective: &'static str,
    /// Always false here.
    pub feasible: bool,
    /// Wall time of the proof.
    pub seconds: f64,
    /// Search nodes visited (0: proved by counting).
    pub nodes: u64,
}

/// `solve --objective worst --cap-only`: the smallest cap, proved.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CapOnly {
    /// The game.
    pub game: String,
    /// Always `worst`.
    pub objective: &'static str,
    /// The smallest feasible cap.
    pub min_cap: usize,
    /// Caps below this are refuted by counting alone.
    pub counted: usize,
    /// Each cap refuted by exhaustive search.
    pub refuted: Vec<CapSearch>,
    /// Search nodes visited in all.
    pub nodes: u64,
    /// Wall time of every search.
    pub seconds: f64,
    /// The searches, for the text.
    #[serde(skip)]
    pub proof: CapProof,
}

/// `solve --first G --below C`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Below {
    /// The game.
    pub game: String,
    /// The cap (`null`: none).
    pub cap: Option<usize>,
    /// The first guess, as given (`null`: the search's own, the optimum
    /// decided).
    pub first: Option<String>,
    /// The cut-off `C`.
    pub below: u64,
    /// Whether `total` is exact (it is below `C`); else it is a proven
    /// lower bound, at least `C`.
    pub exact: bool,
    /// The least total after the first guess, or its lower bound; `null`
    /// when no strategy meets the cap after it.
    pub total: Option<u64>,
    /// Wall time.
    pub seconds: f64,
    /// Search nodes visited.
    pub nodes: u64,
}

impl fmt::Display for Below {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "game       {}", self.game)?;
        let cap = self.cap.map_or("none".to_string(), |c| c.to_string());
        writeln!(f, "cap        {cap}")?;
        match &self.first {
            Some(w) => writeln!(f, "first      {w}")?,
            None => writeln!(f, "first      any (the optimum decided)")?,
        }
        match (self.exact, self.total) {
            (true, Some(t)) => writeln!(f, "total      {t} (exact: below {})", self.below)?,
            (false, Some(t)) => writeln!(
                f,
                "total      at least {t} (not below {}: proved, not searched further)",
                self.below
            )?,
            _ => writeln!(f, "total      infeasible within the cap")?,
        }
        writeln!(f, "time       {:.3} s", self.seconds)?;
        writeln!(f, "nodes      {}", self.nodes)
    }
}

/// What `solve` reports, in one of four shapes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SolveReport {
    /// `solve --first G --below C`: the total after `G`, exact below `C`
    /// or a lower bound at least `C`, for each `G` (one line, or one JSON
    /// object a line, each).
    Below(Vec<Below>),
    /// A tree was found.
    Solved(Solved),
    /// No strategy meets the cap.
    Infeasible(Infeasible),
    /// `--cap-only`: the smallest cap without a tree.
    CapOnly(CapOnly),
}

impl SolveReport {
    /// The report of a search of `game` under `cap` for `objective`
    /// (`proof`: how the cap was found, for worst and crush).
    pub fn new(
        game: &Game,
        cap: Option<usize>,
        objective: Objective,
        solution: &Solution,
        proof: Option<&MinCap>,
    ) -> SolveReport {
        let name = game.name();
        let (Some(tree), Some(stats)) = (&solution.tree, &solution.stats) else {
            return SolveReport::Infeasible(Infeasible {
                game: name,
                cap,
                objective: objective.name(),
                feasible: false,
                seconds: solution.seconds,
                nodes: solution.nodes,
            });
        };
        let Stats {
            secrets,
            total,
            max_depth,
            ref histogram,
        } = *stats;
        SolveReport::Solved(Solved {
            game: name,
            cap,
            objective: objective.name(),
            feasible: true,
            total,
            average: stats.average(),
            max_depth,
            histogram: histogram.clone(),
            at_cap: cap
                .and_then(|c| histogram.get(c.wrapping_sub(1)).copied())
                .unwrap_or(0),
            first_guess: game.format_code(tree.root.guess),
            first_fixed: false,
            seconds: solution.seconds,
            nodes: solution.nodes,
            memo_hits: solution.memo_hits,
            memo_lookups: solution.memo_lookups,
            memo_entries: solution.memo_entries,
            proof: proof.map(CapProof::from),
            cost: None,
            costs: None,
            secrets,
        })
    }

    /// The report of a search whose first guess `--first` fixed (when
    /// `fixed`).
    pub fn with_first_fixed(mut self, fixed: bool) -> SolveReport {
        if let SolveReport::Solved(s) = &mut self {
            s.first_fixed = fixed;
        }
        self
    }

    /// The report with the per-guess cost of the tree (`scaled`: the
    /// search's sum, in units of the vector's denominator).
    pub fn with_costs(mut self, costs: &CostVector, scaled: u64) -> SolveReport {
        if let SolveReport::Solved(s) = &mut self {
            s.cost = Some(costs.json(scaled));
            s.costs = Some(costs.text());
        }
        self
    }

    /// The report of `--first G --below C` for one `G`.
    pub fn below(
        game: &Game,
        cap: Option<usize>,
        first: Option<&str>,
        cutoff: u64,
        outcome: optimoo::search::Outcome,
        seconds: f64,
        nodes: u64,
    ) -> Below {
        Below {
            game: game.name(),
            cap,
            first: first.map(|w| w.trim().to_string()),
            below: cutoff,
            exact: outcome.is_exact(),
            total: (!outcome.is_infeasible()).then_some(outcome.value()),
            seconds,
            nodes,
        }
    }

    /// The report of `--cap-only`.
    pub fn cap_only(game: &Game, m: &MinCap) -> SolveReport {
        let proof = CapProof::from(m);
        SolveReport::CapOnly(CapOnly {
            game: game.name(),
            objective: Objective::Worst.name(),
            min_cap: m.cap,
            counted: m.counted,
            refuted: proof.refuted.clone(),
            nodes: m.nodes,
            seconds: m.searches.iter().map(|s| s.2).sum(),
            proof,
        })
    }

    /// The exit code (README): 0 with a tree or a cap, 1 when no strategy
    /// meets the cap.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            SolveReport::Infeasible(_) => ExitCode::from(EXIT_NEGATIVE),
            SolveReport::Below(b) if b.iter().any(|b| !b.exact) => ExitCode::from(EXIT_NEGATIVE),
            _ => ExitCode::SUCCESS,
        }
    }

    /// The JSON object, on one line.
    pub fn json(&self) -> String {
        serde_json::to_string(self).expect("a report always serializes")
    }

    /// Prints the report on stdout (the summary, or with `json` the
    /// object); its exit code.
    pub fn print(&self, json: bool) -> anyhow::Result<ExitCode> {
        let mut out = std::io::stdout().lock();
        if let (true, SolveReport::Below(all)) = (json, self) {
            for b in all {
                writeln!(out, "{}", serde_json::to_string(b)?)?;
            }
        } else if json {
            writeln!(out, "{}", self.json())?;
        } else {
            write!(out, "{self}")?;
        }
        out.flush()?;
        Ok(self.exit_code())
    }
}

impl fmt::Display for SolveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveReport::Solved(s) => s.fmt(f),
            SolveReport::Below(all) => {
                for (i, b) in all.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    b.fmt(f)?;
                }
                Ok(())
            }
            SolveReport::Infeasible(s) => s.fmt(f),
            SolveReport::CapOnly(s) => s.fmt(f),
        }
    }
}

impl fmt::Display for Solved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cap_text = self.cap.map_or("none".to_string(), |c| c.to_string());
        writeln!(f, "game       {}", self.game)?;
        writeln!(f, "objective  {}", self.objective)?;
        if let (Some(costs), Some(cost)) = (&self.costs, &self.cost) {
            writeln!(f, "costs      {costs}")?;
            writeln!(
                f,
                "cost       {}",
                cost.as_str().map_or(cost.to_string(), str::to_string)
            )?;
        }
        if let Some(proof) = &self.proof {
            proof.fmt(f)?;
        }
        writeln!(f, "cap        {cap_text}")?;
        writeln!(f, "total      {}", self.total)?;
        writeln!(
            f,
            "average    {:.4} ({}/{})",
            self.average, self.total, self.secrets
        )?;
        writeln!(f, "max depth  {}", self.max_depth)?;
        if self.cap.is_some() {
            writeln!(
                f,
                "at cap     {} secrets need all {cap_text} guesses",
                self.at_cap
            )?;
        }
        let histogram: Vec<String> = self.histogram.iter().map(|h| h.to_string()).collect();
        writeln!(f, "histogram  {}", histogram.join(" "))?;
        if self.first_fixed {
            writeln!(
                f,
                "first      {} (fixed by --first: optimal after it; an upper bound of the \
                 game's optimum)",
                self.first_guess
            )?;
        } else {
            writeln!(f, "first      {}", self.first_guess)?;
        }
        writeln!(f, "time       {:.3} s", self.seconds)?;
        writeln!(f, "nodes      {}", self.nodes)?;
        // A tree merged from units (`merge`, `solve --checkpoint`) used no
        // memo of this process (the unit files do not record theirs): no
        // line rather than "0 entries, 0 hits of 0 lookups".
        if self.memo_lookups == 0 {
            return Ok(());
        }
        writeln!(
            f,
            "memo       {} entries, {} hits of {} lookups",
            self.memo_entries, self.memo_hits, self.memo_lookups
        )
    }
}

impl fmt::Display for Infeasible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let within = self
            .cap
            .map_or(String::new(), |c| format!(" within {c} guesses"));
        writeln!(f, "no strategy solves {}{within}", self.game)?;
        if self.nodes == 0 {
            writeln!(
                f,
                "(proved by counting: more secrets than that many guesses can tell apart)"
            )
        } else {
            writeln!(
                f,
                "(proved by exhaustive search in {:.3} s, {} nodes)",
                self.seconds, self.nodes
            )
        }
    }
}

impl fmt::Display for CapOnly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "game       {}", self.game)?;
        self.proof.fmt(f)
    }
}

/// One strategy evaluated by `eval`: a JSON line, or a row of the table
/// under [`EvalRow::HEADER`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalRow {
    /// The game.
    pub game: String,
    /// The heuristic's name.
    pub strategy: &'static str,
    /// The first guess (option `--first`).
    pub first: String,
    /// Option `--pool`.
    pub pool: String,
    /// Option `--ties`.
    pub ties: String,
    /// Option `--seed`.
    pub seed: u64,
    /// Secrets replayed.
    pub secrets: u64,
    /// Guesses over all secrets.
    pub total: u64,
    /// `total` per secret.
    pub average: f64,
    /// Most guesses any secret needs.
    pub max_depth: usize,
    /// Secrets solved in 1, 2, … guesses.
    pub histogram: Vec<u64>,
    /// Wall time to build the tree and replay it.
    pub seconds: f64,
    /// Wall time to build the feedback table, shared by every strategy.
    pub table_seconds: f64,
}

impl EvalRow {
    /// The table's heading line.
    pub const HEADER: &'static str =
        "strategy   total average  max  seconds  histogram (secrets solved in 1, 2, ... guesses)";

    /// The JSON object, on one line.
    pub fn json(&self) -> String {
        serde_json::to_string(self).expect("a report always serializes")
    }
}

impl fmt::Display for EvalRow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let histogram: Vec<String> = self.histogram.iter().map(|h| h.to_string()).collect();
        write!(
            f,
            "{:<8} {:>7} {:>7.3} {:>4} {:>8.3}  {}",
            self.strategy,
            self.total,
            self.average,
            self.max_depth,
            self.seconds,
            histogram.join(" ")
        )
    }
}
