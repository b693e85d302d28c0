//! The arguments several subcommands share, their readers and their
//! defaults, in one place: the game, cap and objective of an exact search
//! ([`Target`], with the one cap rule), the strategy options of the
//! heuristics ([`StrategyOptions`]), the memo's default size, and the
//! readers of names, sizes, fractions and depths. The secret-list options
//! are `cli-common`'s ([`crate::cli::secrets`]), shared with `moo`.
//!
//! Invariants: each default is written once here (the README quotes
//! them); cross-argument rules that clap can state (`requires`,
//! `conflicts_with`) are stated on the arguments, so they are refused by
//! clap (exit code 2, a usage line); the ones that depend on a value
//! (`--objective worst` with `--cap`, `--cap-only` without `--objective
//! worst`) are checked here and refused with exit code 2 too.

use anyhow::{bail, Context};
use clap::builder::TypedValueParser;

use optimoo::heuristic::{Heuristic, Named, Pool, StrategyConfig, Ties};
use optimoo::model::Game;
use optimoo::model::Objective;
use optimoo::model::Rules;

/// `--rules RULE`: the answer rule of the game (`model::AnswerRule`).
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct RulesArg {
    /// The answer to a guess: bulls-cows (the default: bulls and cows,
    /// 1A2B), black-peg (the bulls only, 2A) or wordle (a colour per
    /// position, GYBBY: green, yellow, grey; at most 5 positions).
    #[arg(long = "rules", value_name = "RULE",
          value_parser = cli_common::names(optimoo::model::AnswerRule::NAMES))]
    pub rule: Option<optimoo::model::AnswerRule>,
}

impl RulesArg {
    /// The rule asked for, if it is not bulls and cows.
    pub fn other(&self) -> Option<optimoo::model::AnswerRule> {
        self.rule.filter(|r| !r.is_bulls_cows())
    }

    /// `game` under the rule (unchanged without `--rules`): the same
    /// codes and secrets, the rule's answers.
    pub fn apply(&self, game: Game) -> anyhow::Result<Game> {
        let Some(rule) = self.rule else {
            return Ok(game);
        };
        game.with_answer(rule).context("--rules")
    }

    /// The game of `--game` (a game the model handles, or a word-list
    /// preset), `--secrets` and its options, and `--rules`: a preset plays
    /// Wordle's rule unless `--rules` names another.
    pub fn game(
        &self,
        game: Option<AnyGame>,
        list: &crate::cli::secrets::SecretArgs,
    ) -> anyhow::Result<Game> {
        match game {
            Some(AnyGame::Words(preset)) => self.apply(list.preset_game(preset)?),
            Some(AnyGame::Huge(shape)) => bail!(
                "{shape} has {} codes: over 65,535 only the phased and first strategies play it",
                shape.code_count()
            ),
            Some(AnyGame::Small(rules)) => self.apply(list.game(Some(rules), Rules::standard())?),
            None => self.apply(list.game(None, Rules::standard())?),
        }
    }
}

/// The memo's size per generation in MiB when `--memo-mib` is not given
/// (`solve`, `work`, `merge --audit`, `solve --checkpoint`).
pub const MEMO_MIB: usize = 256;

/// The cap of the standard search: moo:4x10 within 7 guesses, when
/// neither `--game` nor `--cap` is given.
pub const STANDARD_CAP: usize = 7;

/// The cap of a Wordle preset (`--game wordle`, `wordle-nyt`) when no
/// `--cap` is given: the game's six guesses, under which Selby's optima
/// were found (7920 from SALET, 8122 in hard mode; without a cap hard
/// mode does better, 8116, with a word needing seven guesses).
pub const WORDLE_CAP: usize = 6;

/// The seed of `merge --audit`'s sample when `--seed` is not given.
pub const AUDIT_SEED: u64 = 1;

/// The objectives an exact search optimizes (not `heuristic`, which claims
/// nothing), by the library's names.
pub const SEARCH_OBJECTIVES: [Objective; 3] =
    [Objective::Average, Objective::Worst, Objective::Crush];

/// Reads one of `T`'s names (a heuristic, a pool, a tie rule).
pub fn named<T: Named + Clone + Send + Sync>() -> impl TypedValueParser<Value = T> {
    cli_common::names(T::NAMES)
}

/// `eval --strategy`: every heuristic, one of them, or the phased
/// strategy of games of any size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrategyChoice {
    /// Every heuristic (on a game over 65,535 codes: first and phased).
    All,
    /// One heuristic.
    One(Heuristic),
    /// The phased strategy (`optimoo::heuristic::phased`).
    Phased,
}

/// Reads `all`, `phased` or a heuristic's name.
pub fn strategy_choice() -> impl TypedValueParser<Value = StrategyChoice> {
    let names = std::iter::once("all")
        .chain(Heuristic::NAMES.iter().map(|(n, _)| *n))
        .chain(std::iter::once("phased"));
    clap::builder::PossibleValuesParser::new(names.collect::<Vec<_>>()).map(|name| {
        match name.as_str() {
            "all" => StrategyChoice::All,
            "phased" => StrategyChoice::Phased,
            h => StrategyChoice::One(h.parse().expect("clap accepts only these names")),
        }
    })
}

/// The heuristics a choice names (none for `phased`).
pub fn heuristics(choice: StrategyChoice) -> Vec<Heuristic> {
    match choice {
        StrategyChoice::All => Heuristic::ALL.to_vec(),
        StrategyChoice::One(h) => vec![h],
        StrategyChoice::Phased => Vec::new(),
    }
}

pub use cli_common::phased::AnyGame;

/// `--objective`: a named objective, or per-guess costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectiveArg {
    /// Average, worst, crush, or costs.
    pub objective: Objective,
    /// With `costs:...`: the vector.
    pub costs: Option<CostVector>,
}

impl std::str::FromStr for ObjectiveArg {
    type Err = String;

    /// `average`, `worst`, `crush` (any case) or `costs:C1,C2,...`.
    fn from_str(text: &str) -> Result<ObjectiveArg, String> {
        let lower = text.trim().to_ascii_lowercase();
        if let Some(list) = lower.strip_prefix("costs:") {
            return Ok(ObjectiveArg {
                objective: Objective::Costs,
                costs: Some(CostVector::parse(list)?),
            });
        }
        match objective_named(&lower) {
            Some(objective) => Ok(ObjectiveArg {
                objective,
                costs: None,
            }),
            None => Err(format!(
                "unknown objective '{text}': use average, worst, crush or costs:C1,C2,... \
                 (the cost of a secret found with 1, 2, ... guesses)"
            )),
        }
    }
}

/// A cost per number of guesses, `costs:C1,C2,...,CN` (entry `d`: what a
/// secret found with `d` guesses costs; `N` is the cap): integers, exact
/// fractions `p/q` or decimals, nondecreasing, at least 0. The search
/// takes them as integers: each multiplied by their common denominator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CostVector {
    /// Each entry times `denominator`.
    pub scaled: Vec<u64>,
    /// The least common denominator of the entries.
    pub denominator: u64,
}

/// Largest common denominator of a cost vector (a sum of costs stays far
/// below what the search adds up: its own check, 2^48, says the rest).
const MAX_DENOMINATOR: u128 = 1 << 32;

impl CostVector {
    /// Reads `C1,C2,...` (see the type).
    pub fn parse(list: &str) -> Result<CostVector, String> {
        if list.trim().is_empty() {
            return Err("costs: give at least one cost, e.g. costs:1,2,3".into());
        }
        let entries: Vec<(u128, u128)> = list
            .split(',')
            .map(|e| parse_ratio(e.trim()))
            .collect::<Result<_, _>>()?;
        let mut lcm = 1u128;
        for &(_, q) in &entries {
            lcm = lcm / gcd(lcm, q) * q;
            if lcm > MAX_DENOMINATOR {
                return Err(format!(
                    "costs: the entries' common denominator passes {MAX_DENOMINATOR}; use simpler fractions"
                ));
            }
        }
        let mut scaled = Vec::with_capacity(entries.len());
        for (i, &(p, q)) in entries.iter().enumerate() {
            let v = u64::try_from(p * (lcm / q))
                .map_err(|_| format!("costs: entry {} is too large", i + 1))?;
            if let Some(&before) = scaled.last() {
                if v < before {
                    return Err(format!(
                        "costs must be nondecreasing: entry {} ({}) is below entry {} ({})",
                        i + 1,
                        show_ratio(v, lcm as u64),
                        i,
                        show_ratio(before, lcm as u64)
                    ));
                }
            }
            scaled.push(v);
        }
        Ok(CostVector {
            scaled,
            denominator: lcm as u64,
        })
    }

    /// A sum of scaled costs as JSON: an integer, or "p/q" in lowest terms.
    pub fn json(&self, scaled_sum: u64) -> serde_json::Value {
        let g = gcd(u128::from(scaled_sum), u128::from(self.denominator)) as u64;
        if g == self.denominator {
            serde_json::Value::from(scaled_sum / g)
        } else {
            serde_json::Value::from(show_ratio(scaled_sum, self.denominator))
        }
    }

    /// The entries as given, in lowest terms (`1,3/2,2`).
    pub fn text(&self) -> String {
        let shown: Vec<String> = self
            .scaled
            .iter()
            .map(|&v| show_ratio(v, self.denominator))
            .collect();
        shown.join(",")
    }
}

/// `p/q` in lowest terms, or `p` when `q` divides it.
pub fn show_ratio(p: u64, q: u64) -> String {
    let g = gcd(u128::from(p), u128::from(q)).max(1) as u64;
    if g == q {
        (p / q).to_string()
    } else {
        format!("{}/{}", p / g, q / g)
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// An exact nonnegative rational: `p`, `p/q` or a decimal `i.f`, as
/// `(numerator, denominator)` in lowest terms.
fn parse_ratio(text: &str) -> Result<(u128, u128), String> {
    let bad = || {
        format!(
            "costs: '{text}' is not a cost (an integer, a fraction p/q or a decimal, at least 0)"
        )
    };
    let int = |s: &str| -> Result<u128, String> {
        if s.is_empty() || s.len() > 18 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        s.parse().map_err(|_| bad())
    };
    let (p, q) = if let Some((p, q)) = text.split_once('/') {
        (int(p)?, int(q)?)
    } else if let Some((i, f)) = text.split_once('.') {
        let scale = 10u128.pow(f.len() as u32);
        (
            int(if i.is_empty() { "0" } else { i })? * scale + int(f)?,
            scale,
        )
    } else {
        (int(text)?, 1)
    };
    if q == 0 {
        return Err(format!("costs: '{text}' divides by zero"));
    }
    let g = gcd(p, q).max(1);
    Ok((p / g, q / g))
}

/// The search objective named exactly `name` (as `--objective` lowercased,
/// and as plan.json records it).
pub fn objective_named(name: &str) -> Option<Objective> {
    SEARCH_OBJECTIVES.into_iter().find(|o| o.name() == name)
}

/// The game, the cap and the objective of an exact search (`solve`,
/// `plan`).
#[derive(Debug, Clone, clap::Args)]
pub struct Target {
    /// The game: moo:KxN (K different symbols out of N, no repeats) or
    /// mm:KxN (repeats allowed) [default: moo:4x10]
    #[arg(long)]
    pub game: Option<AnyGame>,
    /// Most guesses any secret may need, the winning one included
    /// [default: 7 when neither --game nor --secrets is given, 6 for
    /// --game wordle and wordle-nyt (the game's six guesses), else
    /// unlimited]
    #[arg(long)]
    pub cap: Option<usize>,
    /// What to optimize: average (fewest guesses in all within the cap),
    /// worst (the smallest cap), crush (within the smallest cap, fewest
    /// secrets needing the last guess), or costs:C1,C2,...,CN (the least
    /// sum over the secrets of C_d, d the guesses a secret takes: any
    /// nondecreasing integers, fractions p/q or decimals; N is the cap).
    #[arg(long, default_value = Objective::Average.name(), value_name = "OBJECTIVE")]
    pub objective: ObjectiveArg,
}

impl Target {
    /// The rules: `--game`, else moo:4x10; a game of more than 65,535
    /// codes is refused (the exact search needs its feedback table).
    pub fn rules(&self) -> anyhow::Result<Rules> {
        Ok(self.small()?.unwrap_or_else(Rules::standard))
    }

    /// `--game` when it is a game the exact search handles.
    pub fn small(&self) -> anyhow::Result<Option<Rules>> {
        match self.game {
            None => Ok(None),
            Some(AnyGame::Small(rules)) => Ok(Some(rules)),
            Some(AnyGame::Huge(shape)) => bail!(
                "{shape} has {} codes: the exact search handles games of at most 65,535 \
                 (its feedback table); eval and plan --strategy phased play larger ones",
                shape.code_count()
            ),
            Some(AnyGame::Words(p)) => bail!(
                "--game {}: the exact search of word lists is not done yet (issue 41); \
                 eval and export --strategy play it",
                p.name()
            ),
        }
    }

    /// The cap the search runs under: `--cap`; without it 7 for the
    /// standard search (no `--game`, no list: `listed` false, objective
    /// average), 6 for a Wordle preset ([`WORDLE_CAP`]), else none. Worst and crush find the smallest cap
    /// themselves: a `--cap` with them is refused.
    pub fn cap(&self, listed: bool) -> anyhow::Result<Option<usize>> {
        if let Some(costs) = &self.objective.costs {
            let n = costs.scaled.len();
            return match self.cap {
                Some(cap) if cap != n => bail!(
                    "--objective costs gives {n} costs, so the cap is {n}, not the --cap {cap}: \
                     give one cost per number of guesses up to the cap, or drop --cap"
                ),
                _ => Ok(Some(n)),
            };
        }
        let objective = self.objective.objective;
        if objective != Objective::Average && self.cap.is_some() {
            bail!("--objective {objective} finds the smallest cap itself; drop --cap");
        }
        Ok(match (self.game, self.cap, objective) {
            (None, None, Objective::Average) if !listed => Some(STANDARD_CAP),
            (Some(AnyGame::Words(_)), None, Objective::Average) => Some(WORDLE_CAP),
            (_, cap, _) => cap,
        })
    }
}

/// Refuses `--objective costs:...` where `command` does not support it
/// (the checkpoint folder records objectives by name only).
pub fn refuse_costs(target: &Target, command: &str) -> anyhow::Result<()> {
    if target.objective.costs.is_some() {
        bail!(
            "{command} does not take --objective costs yet (its folder records the objective by \
             name only): run solve --objective costs:... without --checkpoint"
        );
    }
    Ok(())
}

/// Options shared by every command that runs a strategy (`eval`,
/// `export`).
#[derive(Debug, Clone, clap::Args)]
pub struct StrategyOptions {
    /// The first guess (default: the smallest legal code, e.g. 0123), or
    /// best: the strategy's own choice, its score over every guess (on
    /// games without symmetry, as --game wordle, where it matters).
    #[arg(long, value_name = "CODE|best")]
    pub first: Option<String>,
    /// Which codes the scoring heuristics may guess.
    #[arg(long, default_value = "all", value_parser = named::<Pool>())]
    pub pool: Pool,
    /// How the scoring heuristics break ties: candidate-first (the lowest
    /// score; among equals a candidate, then the smallest code), smallest
    /// (the lowest score, then the smallest code), or seed000 (the rule of
    /// seed 000, Mo Tao's program: only its "essentially different" guesses
    /// are scored, where a symbol j above p + 1, p the largest symbol of the
    /// earlier guesses (at least K - 1), appears only after j - 1 in the
    /// same guess; of the lowest score the last candidate wins, else the
    /// first code; the winning class is left out of every score;
    /// docs/heuristics.md).
    #[arg(long, default_value = "candidate-first", value_parser = named::<Ties>())]
    pub ties: Ties,
    /// Seed of the random strategy.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl StrategyOptions {
    /// The checked configuration of `heuristic` for `game`.
    pub fn config(&self, game: &Game, heuristic: Heuristic) -> anyhow::Result<StrategyConfig> {
        let mut config = StrategyConfig {
            heuristic,
            first: None,
            pool: self.pool,
            ties: self.ties,
            seed: self.seed,
        };
        config.first = match self.first.as_deref() {
            Some("best") => {
                Some(optimoo::heuristic::root_guess(game, &config).context("--first best")?)
            }
            Some(text) => Some(game.parse_code(text).context("--first")?),
            None => None,
        };
        Ok(config)
    }
}

/// Reads a size: bytes (`1000000`), or a number (decimals allowed) with a
/// unit: `K`, `M`, `G`, `T` and `KiB`, `MiB`, `GiB`, `TiB` are powers of
/// 1024, `KB`, `MB`, `GB`, `TB` powers of 1000, `B` bytes (any case).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let unit = unit.trim().to_ascii_lowercase();
    let scale: f64 = match unit.as_str() {
        "" | "b" => 1.0,
        "k" | "kib" => 1024.0,
        "m" | "mib" => 1024f64.powi(2),
        "g" | "gib" => 1024f64.powi(3),
        "t" | "tib" => 1024f64.powi(4),
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "tb" => 1e12,
        _ => {
            return Err(format!(
                "unknown unit {unit:?}: write bytes, or K, M, G, T (or KiB, MiB, GiB, TiB: \
                 powers of 1024) or KB, MB, GB, TB (powers of 1000), e.g. 8G or 1.5GiB"
            ))
        }
    };
    let value: f64 = number.parse().map_err(|_| {
        format!("cannot read a size in {t:?}: write e.g. 8G, 512M, 1.5GiB or bytes")
    })?;
    let bytes = (value * scale).round();
    if !(1.0..=u64::MAX as f64).contains(&bytes) {
        return Err(format!("{t:?} is not a size of at least one byte"));
    }
    Ok(bytes as u64)
}

/// Reads `--audit`'s fraction: a number in (0, 1].
pub fn parse_fraction(text: &str) -> Result<f64, String> {
    let f: f64 = text.trim().parse().map_err(|_| {
        format!("{text:?} is not a number: give a fraction of the units, 0 < F <= 1")
    })?;
    if !(f > 0.0 && f <= 1.0) {
        return Err(format!(
            "{text:?} is not in (0, 1]: give a fraction of the units above 0, at most 1 (every unit)"
        ));
    }
    Ok(f)
}

/// Reads `plan --depth`: 1 or 2.
pub fn parse_depth(text: &str) -> Result<usize, String> {
    match text.trim() {
        "1" => Ok(1),
        "2" => Ok(2),
        _ => Err(format!(
            "--depth {text}: give 1 (a unit per class of a first guess) or 2 (large classes \
             cut by second guess)"
        )),
    }
}

/// Reads `static --time-budget`: seconds, above 0 (a budget of 0 would
/// search nothing).
pub fn parse_budget(text: &str) -> Result<std::time::Duration, String> {
    let d = parse_seconds(text)?;
    if d.is_zero() {
        return Err(format!(
            "{text:?} would search nothing: give seconds above 0, or leave the budget out"
        ));
    }
    Ok(d)
}

/// Reads `static --shard I/N`: shard `I` of `N`, `I` from 0 to `N - 1`.
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{text:?} is not a shard: write I/N, e.g. 0/4 for the first of four");
    let (i, n) = text.trim().split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(format!(
            "{text:?}: there is no shard {i} of {n}; the shards of N are 0/N to (N-1)/N"
        ));
    }
    Ok((i, n))
}

/// Reads `--time-budget`: seconds, at least 0.
pub fn parse_seconds(text: &str) -> Result<std::time::Duration, String> {
    let s: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds: write e.g. 60 or 0.5"))?;
    if !(0.0..=1e9).contains(&s) {
        return Err(format!("{text:?} is not a number of seconds from 0 to 1e9"));
    }
    Ok(std::time::Duration::from_secs_f64(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_their_units() {
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("1000B"), Ok(1000));
        assert_eq!(parse_size("8G"), Ok(8 << 30));
        assert_eq!(parse_size("8g"), Ok(8 << 30));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("512 MiB"), Ok(512 << 20));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("2k"), Ok(2048));
        assert_eq!(parse_size("1T"), Ok(1 << 40));
        assert_eq!(parse_size("2GB"), Ok(2_000_000_000));
        assert_eq!(parse_size("1.5kb"), Ok(1500));
        for bad in [
            "",
            "G",
            "-1G",
            "1.2.3M",
            "8X",
            "0",
            "0.1",
            "1e3",
            "8 Gbit",
            "99999999999T",
        ] {
            assert!(parse_size(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_budget_is_above_zero() {
        assert!(parse_budget("0").is_err());
        assert!(parse_budget("0.0").is_err());
        assert_eq!(
            parse_budget("0.5"),
            Ok(std::time::Duration::from_millis(500))
        );
    }

    #[test]
    fn fractions_and_depths_are_checked() {
        assert_eq!(parse_fraction("1"), Ok(1.0));
        assert_eq!(parse_fraction("0.25"), Ok(0.25));
        for bad in ["0", "-0.5", "1.01", "nan", "inf", "", "x"] {
            assert!(parse_fraction(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_depth("1"), Ok(1));
        assert_eq!(parse_depth("2"), Ok(2));
        for bad in ["0", "3", "", "x", "-1"] {
            assert!(parse_depth(bad).is_err(), "{bad}");
        }
    }

    /// One cap rule for `solve`, `plan` and `solve --checkpoint`: 7 for
    /// the standard search only.
    #[test]
    fn the_cap_rule() {
        let target = |game: Option<&str>, cap, objective| Target {
            game: game.map(|g| g.parse().unwrap()),
            cap,
            objective: ObjectiveArg {
                objective,
                costs: None,
            },
        };
        let avg = Objective::Average;
        assert_eq!(target(None, None, avg).cap(false).unwrap(), Some(7));
        assert_eq!(target(None, None, avg).cap(true).unwrap(), None);
        assert_eq!(target(Some("mm:4x6"), None, avg).cap(false).unwrap(), None);
        assert_eq!(target(None, Some(6), avg).cap(false).unwrap(), Some(6));
        assert_eq!(
            target(Some("mm:4x6"), None, Objective::Worst)
                .cap(false)
                .unwrap(),
            None
        );
        assert_eq!(
            target(None, None, Objective::Crush).cap(false).unwrap(),
            None
        );
        let err = target(None, Some(5), Objective::Worst)
            .cap(false)
            .unwrap_err();
        assert!(err.to_string().contains("drop --cap"), "{err}");
        assert_eq!(target(None, None, avg).rules().unwrap(), Rules::standard());
        let err = target(Some("moo:10x10"), None, avg).rules().unwrap_err();
        assert!(err.to_string().contains("3628800 codes"), "{err}");
        // Per-guess costs: the cap is the vector's length.
        let costs = |cap| Target {
            game: None,
            cap,
            objective: "costs:1,2,4".parse().unwrap(),
        };
        assert_eq!(costs(None).cap(false).unwrap(), Some(3));
        assert_eq!(costs(Some(3)).cap(false).unwrap(), Some(3));
        let err = costs(Some(4)).cap(false).unwrap_err();
        assert!(
            err.to_string().contains("so the cap is 3, not the --cap 4"),
            "{err}"
        );
    }

    #[test]
    fn cost_vectors_are_exact() {
        let v = CostVector::parse("1, 3/2,2.25,5").unwrap();
        assert_eq!(v.denominator, 4);
        assert_eq!(v.scaled, vec![4, 6, 9, 20]);
        assert_eq!(v.text(), "1,3/2,9/4,5");
        assert_eq!(v.json(8), serde_json::json!(2));
        assert_eq!(v.json(6), serde_json::json!("3/2"));
        let err = |text: &str| CostVector::parse(text).unwrap_err();
        assert!(err("1,3,2").contains("nondecreasing: entry 3 (2) is below entry 2 (3)"));
        assert!(err("1,-2").contains("'-2' is not a cost"));
        assert!(err("1/0").contains("divides by zero"));
        assert!(err("").contains("at least one cost"));
        assert!(err("1,x").contains("'x' is not a cost"));
        let o: ObjectiveArg = "COSTS:0,1".parse().unwrap();
        assert_eq!(o.objective, Objective::Costs);
        assert!("fastest"
            .parse::<ObjectiveArg>()
            .unwrap_err()
            .contains("costs:C1"));
    }

    #[test]
    fn objective_names_are_the_library_names() {
        for o in SEARCH_OBJECTIVES {
            assert_eq!(objective_named(o.name()), Some(o));
        }
        assert_eq!(objective_named("heuristic"), None);
        assert_eq!(objective_named("Worst"), None);
    }
}
