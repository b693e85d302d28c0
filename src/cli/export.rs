//! `optimoo export`: write a decision tree, a strategy's or a tree file's,
//! as JSON, as a Graphviz picture, as a tree file, or as an HTML page.
//!
//! The tree is replayed over every secret before it is written; a tree that
//! does not play correctly is not written (exit code 1).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};

use super::args::{self, StrategyOptions};
use super::output::Output;
use super::EXIT_NEGATIVE;
use optimoo::heuristic::{self, Heuristic};
use optimoo::model::Game;
use optimoo::model::Objective;
use optimoo::model::Rules;
use optimoo::tree::format::TreeFile;
use optimoo::tree::Tree;
use optimoo::tree::{dot, html};

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `{"game": {...}, "root": {"guess": "0123", "next": {"0A1B": ...}}}`
    Json,
    /// Graphviz: `dot -Tsvg` draws it (use --depth for a readable picture).
    Dot,
    /// The compact binary tree file (docs/format.md); needs -o FILE unless
    /// standard output is redirected.
    Tree,
    /// One self-contained HTML page (no network): play against a random
    /// secret with the tree's hints, let the tree guess your secret, browse
    /// the tree.
    Html,
}

/// Write a decision tree, a strategy's (--strategy) or a tree file's (FILE),
/// as JSON, a Graphviz picture (dot), a tree file or an HTML page.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A tree file to export (its game is the file's; --game is ignored;
    /// --secrets must name the list the file records, if given).
    #[arg(value_name = "FILE", conflicts_with = "strategy")]
    pub file: Option<PathBuf>,
    /// The game: moo:KxN (no repeats) or mm:KxN (repeats allowed).
    #[arg(long)]
    pub game: Option<Rules>,
    #[command(flatten)]
    pub list: super::secrets::SecretArgs,
    /// The strategy whose tree to write: first, random, minimax, irving,
    /// entropy or kooi (see `optimoo eval --help`).
    #[arg(long, value_parser = args::named::<Heuristic>())]
    pub strategy: Option<Heuristic>,
    #[command(flatten)]
    pub options: StrategyOptions,
    /// The output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: Format,
    /// With --format dot: draw only the first N levels (the root is level
    /// 1); a cut subtree is drawn dashed with its hidden node count.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// Write to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Runs `optimoo export`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.depth.is_some() && args.format != Format::Dot {
        bail!("--depth applies to --format dot only");
    }
    // Checked before any work: a bad -o is refused at once.
    let output = args.output.as_deref().map(Output::create).transpose()?;
    let (game, tree, what, objective, cap) = match &args.file {
        Some(path) => {
            let (game, file) = super::secrets::read_tree(path, &args.list)
                .with_context(|| format!("reading {}", path.display()))?;
            let h = &file.header;
            let (objective, cap) = (h.objective, h.cap);
            (game, file.tree, path.display().to_string(), objective, cap)
        }
        None => {
            let game = args.list.game(args.game, Rules::standard())?;
            let heuristic = args.strategy.context(
                "nothing to export: name a strategy with --strategy NAME or give a tree FILE",
            )?;
            let config = args.options.config(&game, heuristic)?;
            let tree = heuristic::build_tree_with(&game, &config, &crate::driver::Rayon)?;
            (
                game,
                tree,
                format!("the {heuristic} tree"),
                Objective::Heuristic,
                None,
            )
        }
    };
    if let Err(e) = tree.replay(&game, cap) {
        crate::exit::say(&format!("error: {what} does not play correctly: {e}"));
        return Ok(ExitCode::from(EXIT_NEGATIVE));
    }
    let caption = match (objective, &args.strategy) {
        (Objective::Heuristic, Some(h)) => format!("{} tree of the {h} heuristic", game.rules()),
        (Objective::Heuristic, None) => format!("{} tree (heuristic)", game.rules()),
        (o, _) => format!(
            "{} optimal tree ({o}{})",
            game.rules(),
            cap.map_or(String::new(), |c| format!(", cap {c}"))
        ),
    };
    let bytes = render(
        &game,
        tree,
        &caption,
        args.format,
        args.depth,
        objective,
        cap,
    )?;
    match output {
        Some(out) => out.commit(&bytes)?,
        None => {
            let mut out = std::io::stdout().lock();
            if args.format == Format::Tree && out.is_terminal() {
                bail!("--format tree is binary: write it to a file with -o FILE");
            }
            out.write_all(&bytes)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn render(
    game: &Game,
    tree: Tree,
    caption: &str,
    format: Format,
    depth: Option<u32>,
    objective: Objective,
    cap: Option<usize>,
) -> anyhow::Result<Vec<u8>> {
    Ok(match format {
        Format::Json => (serde_json::to_string(&tree.to_json(game))? + "\n").into_bytes(),
        Format::Dot => dot::render(game, &tree, caption, depth.map(|d| d as usize)).into_bytes(),
        Format::Tree => TreeFile::new(game, tree, objective, cap)?.to_bytes(game)?,
        Format::Html => {
            html::render(game, &tree, caption, objective != Objective::Heuristic).into_bytes()
        }
    })
}
