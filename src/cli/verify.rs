//! `optimoo verify`: check tree files against their own claims.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::{EXIT_ERROR, EXIT_NEGATIVE};

/// Replay every secret of each tree file's game with an independent checker
/// (its own bulls-and-cows rule over the written codes): each guess legal,
/// each node's moves exactly the answers its secrets give, each secret won
/// within the file's cap, the statistics equal to the header's. A file is
/// read header first, never beyond its declared length.
/// Exit 0 when every file holds, 1 when a tree fails, 2 when a file cannot
/// be read.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Tree files (`.tree`) to check.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub list: super::secrets::SecretArgs,
}

/// Runs `optimoo verify`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let mut code = 0;
    for path in &args.files {
        // The path as given, control characters escaped.
        let shown = crate::exit::escaped(&path.display().to_string(), false);
        let (game, file) = match super::secrets::read_tree(path, &args.list) {
            Ok(read) => read,
            Err(err) => {
                out.flush()?;
                crate::exit::say(&format!("{shown}: error: {err}"));
                code = code.max(EXIT_ERROR);
                continue;
            }
        };
        match file.verify(&game) {
            Ok(stats) => {
                let h = &file.header;
                let cap = h.cap.map_or("no cap".to_string(), |c| format!("cap {c}"));
                writeln!(
                    out,
                    "{shown}: ok: {} {} {cap}: total {} average {:.4} max depth {} histogram {}",
                    game.name(),
                    h.objective,
                    stats.total,
                    stats.average(),
                    stats.max_depth,
                    stats.histogram_text()
                )?;
            }
            Err(err) => {
                writeln!(out, "{shown}: FAILED: {err}")?;
                code = code.max(EXIT_NEGATIVE);
            }
        }
    }
    Ok(ExitCode::from(code))
}
