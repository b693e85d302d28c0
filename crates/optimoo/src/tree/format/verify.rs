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
        check_claims(&h.stats, h.objective, h.cap, &stats)?;
        Ok(stats)
    }
}

/// The error of a secret that needs `guesses` guesses, more than `cap`
/// (for readers that replay without a [`crate::tree::Tree`]).
pub(super) fn over_cap(secret: String, guesses: usize, cap: usize) -> VerifyError {
    VerifyError::Tree(TreeError::OverCap {
        secret,
        guesses,
        cap,
    })
}

/// Compares a header's claims (`claimed`, `objective`, `cap`) with the
/// statistics of a replay of every secret (`replayed`): secrets, total,
/// max depth and histogram must be equal, and for the worst and crush
/// objectives the cap must be set and reached. That every secret is won
/// within the cap is the replay's part. Shared by [`TreeFile::verify`]
/// and the files of games over 65,535 codes (`crate::tree::format::shape`).
pub(super) fn check_claims(
    claimed: &Stats,
    objective: Objective,
    cap: Option<usize>,
    replayed: &Stats,
) -> Result<(), VerifyError> {
    let mismatch = |field, claimed: String, replayed: String| {
        Err(VerifyError::Stats {
            field,
            claimed,
            replayed,
        })
    };
    if claimed.secrets != replayed.secrets {
        return mismatch(
            "secrets",
            claimed.secrets.to_string(),
            replayed.secrets.to_string(),
        );
    }
    if claimed.total != replayed.total {
        return mismatch(
            "total",
            claimed.total.to_string(),
            replayed.total.to_string(),
        );
    }
    if claimed.max_depth != replayed.max_depth {
        return mismatch(
            "max depth",
            claimed.max_depth.to_string(),
            replayed.max_depth.to_string(),
        );
    }
    if claimed.histogram != replayed.histogram {
        return mismatch(
            "histogram",
            claimed.histogram_text(),
            replayed.histogram_text(),
        );
    }
    if matches!(objective, Objective::Worst | Objective::Crush) {
        let problem = match cap {
            None => Some("the file has no cap".to_string()),
            Some(cap) if cap != replayed.max_depth => Some(format!(
                "the tree never needs more than {}",
                replayed.max_depth
            )),
            Some(_) => None,
        };
        if let Some(problem) = problem {
            return Err(VerifyError::Cap {
                objective,
                cap: cap.map_or("no cap".into(), |c| c.to_string()),
                problem,
            });
        }
    }
    Ok(())
}
