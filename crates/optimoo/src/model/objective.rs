//! What a strategy is chosen for: the one objective type of the tool. The
//! search turns it into how costs add up (the search's `Cost`: the model
//! names nothing above it);
//! a tree file records it in one header byte.
//!
//! Invariant: the byte values are fixed by the file format (docs/format.md)
//! and never reused.

use std::fmt;
use std::str::FromStr;

/// What the tree was solved for (one byte in the header; other values are
/// reserved for later versions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Objective {
    /// Minimal total number of guesses (average) within the cap.
    Average = 0,
    /// Minimal worst case (the cap is that minimum), then minimal total.
    Worst = 1,
    /// Within the minimal cap, fewest secrets needing the last guess, then
    /// minimal total.
    Crush = 2,
    /// No optimality claimed: a heuristic or hand-made tree.
    Heuristic = 3,
    /// Minimal sum over the secrets of a nondecreasing cost of the number
    /// of guesses each takes, within the cap (the vector is not stored:
    /// the file says what the tree is optimal for, the run that made it
    /// says for which costs, e.g. `duel.json`).
    Costs = 4,
}

impl Objective {
    /// Every objective, by byte value.
    pub const ALL: [Objective; 5] = [
        Objective::Average,
        Objective::Worst,
        Objective::Crush,
        Objective::Heuristic,
        Objective::Costs,
    ];

    /// The byte stored in the header.
    pub fn byte(self) -> u8 {
        self as u8
    }

    /// The objective stored as `byte`, if this version knows it.
    pub fn from_byte(byte: u8) -> Option<Objective> {
        Objective::ALL.get(byte as usize).copied()
    }

    /// The name used on the command line and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Average => "average",
            Objective::Worst => "worst",
            Objective::Crush => "crush",
            Objective::Heuristic => "heuristic",
            Objective::Costs => "costs",
        }
    }
}

impl fmt::Display for Objective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Objective {
    type Err = String;

    fn from_str(text: &str) -> Result<Objective, String> {
        Objective::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| {
                format!("unknown objective '{text}': use average, worst, crush, heuristic or costs")
            })
    }
}
