//! The subcommands of `optimoo`, one module each: its `Args` (the flags,
//! clap's derive) and its `run`. Invariants: every module here is a
//! subcommand and every subcommand is a module here (the helpers they
//! share live one folder up, in `crate::cli`); each is a leaf: no
//! subcommand names another.

pub mod duel;
pub mod eval;
pub mod export;
pub mod improve;
pub mod merge;
pub mod nash;
pub mod partition;
pub mod plan;
pub mod serve;
pub mod solve;
pub mod static_game;
pub mod status;
pub mod verify;
pub mod work;

#[cfg(test)]
mod tests {
    use clap::CommandFactory;
    use std::path::Path;

    /// Subcommands are leaves: no subcommand's module names another's
    /// (what they share is in `args`, `checkpoint`, `report`, `memory`,
    /// `output`, `folder`, `phased`, `phased_plan`).
    #[test]
    fn subcommands_are_leaves() {
        let sources = [
            ("partition", include_str!("partition.rs")),
            ("verify", include_str!("verify.rs")),
            ("eval", include_str!("eval.rs")),
            ("export", include_str!("export.rs")),
            ("solve", include_str!("solve.rs")),
            ("plan", include_str!("plan.rs")),
            ("work", include_str!("work.rs")),
            ("merge", include_str!("merge.rs")),
            ("status", include_str!("status.rs")),
            ("static_game", include_str!("static_game.rs")),
            ("duel", include_str!("duel.rs")),
            ("nash", include_str!("nash.rs")),
            ("improve", include_str!("improve.rs")),
            ("serve", include_str!("serve.rs")),
        ];
        let shared = [
            include_str!("../args.rs"),
            include_str!("../report.rs"),
            include_str!("../http.rs"),
            include_str!("../page.rs"),
            include_str!("../memory.rs"),
            include_str!("../output.rs"),
            include_str!("../folder.rs"),
            include_str!("../checkpoint/mod.rs"),
            include_str!("../checkpoint/files.rs"),
            include_str!("../checkpoint/planning.rs"),
            include_str!("../checkpoint/work.rs"),
            include_str!("../checkpoint/merge.rs"),
            include_str!("../checkpoint/audit.rs"),
            include_str!("../checkpoint/solve.rs"),
            include_str!("../phased.rs"),
            include_str!("../phased_plan.rs"),
        ];
        for (name, text) in sources {
            for (other, _) in sources {
                for path in [
                    format!("super::{other}"),
                    format!("cli::{other}"),
                    format!("commands::{other}"),
                ] {
                    let named = text.match_indices(&path).any(|(i, _)| {
                        !text[i + path.len()..]
                            .starts_with(|c: char| c.is_alphanumeric() || c == '_')
                    });
                    assert!(
                        other == name || !named,
                        "{name}.rs calls the subcommand {other}"
                    );
                    assert!(
                        shared.iter().all(|s| !s.contains(&format!("{path}::"))),
                        "a shared module calls the subcommand {other}"
                    );
                }
            }
        }
    }

    /// The folders hold what they say: a module of `commands/` is a
    /// subcommand (its own `Args`), a module of `cli/` is not.
    #[test]
    fn subcommands_live_in_commands() {
        let cli = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
        let mut here = Vec::new();
        for entry in std::fs::read_dir(cli.join("commands")).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_str().unwrap().to_string();
            if name != "mod" {
                let text = std::fs::read_to_string(&path).unwrap();
                assert!(
                    text.contains("pub struct Args") && text.contains("pub fn run("),
                    "commands/{name}.rs is no subcommand"
                );
                here.push(name);
            }
        }
        here.sort();
        let commands = crate::cli::Cli::command().get_subcommands().count();
        assert_eq!(here.len(), commands, "the subcommands: {here:?}");
        for entry in std::fs::read_dir(&cli).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                assert!(
                    !text.contains("pub struct Args"),
                    "{} is a subcommand outside commands/",
                    path.display()
                );
            }
        }
    }
}
