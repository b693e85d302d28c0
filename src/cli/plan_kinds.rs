//! The three kinds of plan a folder can hold (the exact search's
//! `plan.json`, the phased strategy's `phased.json`, first guesses'
//! `first.json`) and the one check they share.
//!
//! Invariant: a folder holds at most one kind of plan. Each command that
//! makes a plan refuses a folder holding another kind (the new plan's file
//! would sit beside it and hide it from `work`, `merge` and `status`, which
//! open the first kind they find); whether a plan of its own kind may be
//! reopened is the command's own rule.

use std::path::Path;

use anyhow::bail;

/// A kind of plan, named by the file that marks its folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanKind {
    /// `optimoo plan`: the exact search's units.
    Exact,
    /// `optimoo plan --phased`: a phased strategy walked in units.
    Phased,
    /// `optimoo plan --first`: first guesses solved one a unit.
    First,
}

impl PlanKind {
    const ALL: [PlanKind; 3] = [PlanKind::Exact, PlanKind::Phased, PlanKind::First];

    /// The file in DIR that holds a plan of this kind.
    pub const fn file(self) -> &'static str {
        match self {
            PlanKind::Exact => super::checkpoint::PLAN_FILE,
            PlanKind::Phased => "phased.json",
            PlanKind::First => "first.json",
        }
    }

    /// What a plan of this kind is of, in `holds a plan of …`.
    fn of(self) -> &'static str {
        match self {
            PlanKind::Exact => "the exact search",
            PlanKind::Phased => "the phased strategy",
            PlanKind::First => "first guesses",
        }
    }

    /// A new plan of this kind, in `… beside it would hide it`.
    fn new_one(self) -> &'static str {
        match self {
            PlanKind::Exact => "an exact plan",
            PlanKind::Phased => "a phased plan",
            PlanKind::First => "a plan of first guesses",
        }
    }
}

/// Refuses `dir` when it holds a plan of another kind than `kind`.
pub fn refuse_other_plans(dir: &Path, kind: PlanKind) -> anyhow::Result<()> {
    for other in PlanKind::ALL.into_iter().filter(|&k| k != kind) {
        let path = dir.join(other.file());
        if path.exists() {
            bail!(
                "{} holds a plan of {} ({}): {} beside it would hide it; give a new folder \
                 for a new plan",
                dir.display(),
                other.of(),
                path.display(),
                kind.new_one()
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_refuses_the_others_alone() {
        let dir = tempfile::tempdir().unwrap();
        for kind in PlanKind::ALL {
            assert!(refuse_other_plans(dir.path(), kind).is_ok());
        }
        for present in PlanKind::ALL {
            let path = dir.path().join(present.file());
            std::fs::write(&path, "{}").unwrap();
            for kind in PlanKind::ALL {
                let got = refuse_other_plans(dir.path(), kind);
                if kind == present {
                    assert!(got.is_ok(), "{kind:?}");
                } else {
                    let e = got.unwrap_err().to_string();
                    assert!(
                        e.contains(&format!("holds a plan of {}", present.of())),
                        "{e}"
                    );
                    assert!(e.contains(kind.new_one()), "{e}");
                }
            }
            std::fs::remove_file(&path).unwrap();
        }
    }
}
