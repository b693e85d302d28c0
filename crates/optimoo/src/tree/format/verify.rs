//! `optimoo verify`: a tree file's claims against an independent replay.
//!
//! Invariant: every figure accepted here was recomputed by
//! [`check::check`], which shares no code with
//! the solver's feedback rule, partitions or search: each secret won within
//! the cap, the statistics equal to the header's, and for the worst and
//! crush objectives a cap that is set and reached. Optimality itself is not
//! re-proven (that takes the search).

use super::TreeFile;
use crate::model::game::Game;
use crate::model::objective::Objective;
use crate::tree::check;
use crate::tree::{Stats, TreeError};

/// Why a readable tree file fails verification.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// A secret is not won, or not within the cap.
    #[error("{0}")]
    Tree(#[from] TreeError),
    /// The header claims other statistics than the replay gives.
    #[error("the header claims {field} {claimed}, but replaying every secret gives {replayed}")]
    Stats {
        /// which statistic
        field: &'static str,
        /// the header's value
        claimed: String,
        /// the replay's value
        replayed: String,
    },
    /// A worst-case or crush tree must reach its cap exactly (the cap is the
    /// claimed minimum).
    #[error("a {objective} tree claims {cap} guesses as the minimal worst case, but {problem}")]
    Cap {
        /// the objective
        objective: Objective,
        /// the cap written as text ("no cap" when missing)
        cap: String,
        /// what is wrong
        problem: String,
    },
}

impl TreeFile {
    /// Replays every secret of `game` (which must be the file's) with the
    /// independent checker, checks each wins within the cap, recomputes the
    /// statistics and compares them with the header. For the worst and crush
    /// objectives the cap must be set and reached. Optimality itself is not
    /// re-proven here (that takes the search); the claimed figures are.
    pub fn verify(&self, game: &Game) -> Result<Stats, VerifyError> {
        let h = &self.header;
        let stats = check::check(game, &self.tree, h.cap)?;
        let mismatch = |field, claimed: String, replayed: String| {
            Err(VerifyError::Stats {
                field,
                claimed,
                replayed,
            })
        };
        if h.stats.secrets != stats.secrets {
            return mismatch(
                "secrets",
                h.stats.secrets.to_string(),
                stats.secrets.to_string(),
            );
        }
        if h.stats.total != stats.total {
            return mismatch("total", h.stats.total.to_string(), stats.total.to_string());
        }
        if h.stats.max_depth != stats.max_depth {
            return mismatch(
                "max depth",
                h.stats.max_depth.to_string(),
                stats.max_depth.to_string(),
            );
        }
        if h.stats.histogram != stats.histogram {
            return mismatch(
                "histogram",
                h.stats.histogram_text(),
                stats.histogram_text(),
            );
        }
        if matches!(h.objective, Objective::Worst | Objective::Crush) {
            let problem = match h.cap {
                None => Some("the file has no cap".to_string()),
                Some(cap) if cap != stats.max_depth => Some(format!(
                    "the tree never needs more than {}",
                    stats.max_depth
                )),
                Some(_) => None,
            };
            if let Some(problem) = problem {
                return Err(VerifyError::Cap {
                    objective: h.objective,
                    cap: h.cap.map_or("no cap".into(), |c| c.to_string()),
                    problem,
                });
            }
        }
        Ok(stats)
    }
}
