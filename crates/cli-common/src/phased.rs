//! The options of the phased strategy (`--heuristic`, `--exact-below`,
//! `--heuristic-below`, `--extra`, `--big-pool`, `--big-sample`), shared by
//! `optimoo eval` and `moo` so that the player makes the moves `eval`
//! measured. Defaults: docs/huge.md shows the measurement behind them.

use optimoo::heuristic::phased::Phased;
use optimoo::heuristic::Heuristic;

/// The phased strategy's thresholds and pools.
#[derive(Debug, Clone, clap::Args)]
pub struct PhasedArgs {
    /// The phased strategy's score (the heuristic of its middle phase):
    /// minimax, irving, entropy or kooi.
    #[arg(long, default_value = "entropy", value_parser = crate::names(Heuristic::NAMES_SCORING), value_name = "NAME")]
    pub heuristic: Heuristic,
    /// Phased: candidate sets of at most N codes are solved exactly (over
    /// candidate guesses; at most 16, 0 for none).
    #[arg(long, default_value_t = Phased::default().exact_below, value_name = "N")]
    pub exact_below: usize,
    /// Phased: candidate sets of at most N codes are scored whole, every
    /// candidate a possible guess; larger sets on a sample.
    #[arg(long, default_value_t = Phased::default().heuristic_below, value_name = "N")]
    pub heuristic_below: usize,
    /// Phased: codes drawn at random into every pool of guesses (every
    /// code, when the game has at most N).
    #[arg(long, default_value_t = Phased::default().extra, value_name = "N")]
    pub extra: usize,
    /// Phased: draw up to N / n codes into the pool of a set of n
    /// candidates when that is more than --extra (answers computed per
    /// node; small sets then get much larger pools).
    #[arg(long, default_value_t = Phased::default().work, value_name = "N")]
    pub work: usize,
    /// Phased: candidates in the pool of a set larger than
    /// --heuristic-below.
    #[arg(long, default_value_t = Phased::default().big_pool, value_name = "N")]
    pub big_pool: usize,
    /// Phased: candidates a larger set's pool is scored on.
    #[arg(long, default_value_t = Phased::default().big_sample, value_name = "N")]
    pub big_sample: usize,
    /// Phased: rounds of hill climbing from the pool's best guess (its
    /// neighbours: two positions swapped, one symbol changed); 0 for none.
    #[arg(long, default_value_t = Phased::default().climb, value_name = "N")]
    pub climb: usize,
    /// Phased: compare the N best guesses of a set of at least
    /// --rollout-above candidates (and the N best first guesses) by
    /// playing each to the end with the strategy without rollouts, and
    /// guess the one of least total; 0 or 1 for none (slower: each such
    /// set is played N times).
    #[arg(long, default_value_t = Phased::default().rollout, value_name = "N")]
    pub rollout: usize,
    /// Phased: the smallest set whose guesses --rollout compares.
    #[arg(long, default_value_t = Phased::default().rollout_above, value_name = "N")]
    pub rollout_above: usize,
}

impl PhasedArgs {
    /// The options, with the first guess left to the strategy.
    pub fn options(&self) -> Phased {
        Phased {
            heuristic: self.heuristic,
            exact_below: self.exact_below,
            heuristic_below: self.heuristic_below,
            extra: self.extra,
            work: self.work,
            big_pool: self.big_pool,
            big_sample: self.big_sample,
            climb: self.climb,
            first: None,
            rollout: self.rollout,
            rollout_above: self.rollout_above,
        }
    }
}

/// A game of any size: one the model handles, or a larger one
/// (`optimoo::model::shape`), which only the phased and first strategies play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnyGame {
    /// At most 65,535 codes.
    Small(optimoo::model::Rules),
    /// More.
    Huge(optimoo::model::shape::Shape),
    /// A word-list preset (`wordle`, `wordle-nyt`): a game of a code list.
    Words(crate::wordle::WordPreset),
}

impl std::str::FromStr for AnyGame {
    type Err = String;

    fn from_str(text: &str) -> Result<AnyGame, String> {
        if let Some(preset) = crate::wordle::WordPreset::parse(text) {
            return Ok(AnyGame::Words(preset));
        }
        match text.parse::<optimoo::model::Rules>() {
            Ok(rules) => Ok(AnyGame::Small(rules)),
            Err(optimoo::model::RulesError::TooLarge { .. }) => text
                .parse::<optimoo::model::shape::Shape>()
                .map(AnyGame::Huge)
                .map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        }
    }
}
