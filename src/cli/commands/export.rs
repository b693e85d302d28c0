//! `optimoo export`: write a decision tree, a strategy's or a tree file's,
//! as JSON, as a Graphviz picture, as a tree file, or as an HTML page.
//!
//! The tree is replayed over every secret before it is written; a tree that
//! does not play correctly is not written (exit code 1). A tree file of a
//! game over 65,535 codes (and the phased strategy of such a game) is
//! exported from its bytes by `tree::format::shape`, streamed: JSON, a picture, or
//! the file again; no page (the page holds the whole tree in the browser).

use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};

use crate::cli::args::{AnyGame, StrategyOptions};
use crate::cli::output::Output;
use crate::cli::EXIT_NEGATIVE;
use clap::builder::TypedValueParser;
use optimoo::heuristic::phased::walk;
use optimoo::heuristic::phased::Chooser;
use optimoo::heuristic::{self, Heuristic, Named};
use optimoo::model::shape::Shape;
use optimoo::model::Game;
use optimoo::model::Objective;
use optimoo::model::Rules;
use optimoo::tree::format::shape as shape_file;
use optimoo::tree::format::{Bound, TreeFile};
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
    /// the tree; several tree files: one page, a picker between their games.
    Html,
    /// An opening book of the phased strategy (--strategy phased): its
    /// guesses at the first --depth levels (default 3), which `moo
    /// --game G` looks up instead of computing them (docs/huge.md).
    Book,
}

/// Write a tree as JSON, a dot picture, a tree file or an HTML page.
///
/// Write a decision tree, a strategy's (--strategy) or a tree file's (FILE),
/// as JSON, a Graphviz picture (dot), a tree file or an HTML page; or the
/// phased strategy's opening book.
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment, after_long_help = crate::cli::help::EXPORT)]
pub struct Args {
    /// A tree file to export (its game is the file's; --game is ignored;
    /// --secrets must name the list the file records, if given). With
    /// --format html, several: one page, a picker between their games (one
    /// tree a game).
    #[arg(value_name = "FILE", conflicts_with = "strategy")]
    pub files: Vec<PathBuf>,
    /// The game: moo:KxN (no repeats) or mm:KxN (repeats allowed); over
    /// 65,535 codes (up to 2^32), only --strategy phased.
    #[arg(long)]
    pub game: Option<AnyGame>,
    #[command(flatten)]
    pub list: crate::cli::secrets::SecretArgs,
    /// The strategy whose tree to write: first, random, minimax, irving,
    /// entropy, kooi or phased (see `optimoo eval --help`).
    #[arg(long, value_parser = strategy())]
    pub strategy: Option<Strategy>,
    #[command(flatten)]
    pub options: StrategyOptions,
    #[command(flatten)]
    pub phased: cli_common::phased::PhasedArgs,
    /// The output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: Format,
    /// With --format dot: draw only the first N levels (the root is level
    /// 1); a cut subtree is drawn dashed with its hidden node count. With
    /// --format book: the levels the book lists (default 3).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// Write to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `--strategy`: a heuristic, or the phased strategy of games of any size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// A heuristic's tree (`heuristic::build_tree`).
    Heuristic(Heuristic),
    /// The phased strategy's (`heuristic::phased`).
    Phased,
}

/// Reads a heuristic's name or `phased`.
fn strategy() -> impl TypedValueParser<Value = Strategy> {
    let names = Heuristic::NAMES
        .iter()
        .map(|(n, _)| *n)
        .chain(std::iter::once("phased"));
    clap::builder::PossibleValuesParser::new(names.collect::<Vec<_>>()).map(|name| {
        match name.as_str() {
            "phased" => Strategy::Phased,
            h => Strategy::Heuristic(h.parse().expect("clap accepts only these names")),
        }
    })
}

/// Runs `optimoo export`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.depth.is_some() && !matches!(args.format, Format::Dot | Format::Book) {
        bail!("--depth applies to --format dot and --format book only");
    }
    if args.format == Format::Book && args.strategy != Some(Strategy::Phased) {
        bail!("--format book writes the phased strategy's opening book: give --strategy phased (and --game G)");
    }
    if args.files.len() > 1 && args.format != Format::Html {
        bail!("several tree files: only --format html puts several trees on one page");
    }
    // Checked before any work: a bad -o is refused at once.
    let output = args.output.as_deref().map(Output::create).transpose()?;
    // A page, of one tree or several (with the game's race, if shipped).
    if args.files.len() > 1
        || (args.format == Format::Html && args.strategy.is_none()) && !args.files.is_empty()
    {
        return export_pages(&args, output);
    }
    let (game, tree, what, objective, cap, bound) = match args.files.first() {
        Some(path) => {
            let bytes = shape_file::read_file(path)
                .with_context(|| format!("reading {}", path.display()))?;
            if let Some(shape) = shape_file::huge_game(&bytes) {
                let what = path.display().to_string();
                return export_huge(&args, output, shape, &bytes, &what, None);
            }
            let (game, file) = crate::cli::secrets::read_tree_bytes(&bytes, &args.list)
                .with_context(|| format!("reading {}", path.display()))?;
            let h = &file.header;
            let (objective, cap, bound) = (h.objective, h.cap, h.bound.clone());
            (
                game,
                file.tree,
                path.display().to_string(),
                objective,
                cap,
                bound,
            )
        }
        None => {
            let strategy = args.strategy.context(
                "nothing to export: name a strategy with --strategy NAME or give a tree FILE",
            )?;
            let heuristic = match (strategy, args.game) {
                (Strategy::Phased, game) => return export_phased(&args, output, game),
                (Strategy::Heuristic(h), Some(AnyGame::Huge(shape))) => bail!(
                    "{shape} has {} codes: over 65,535 only --strategy phased plays it \
                     (the {h} heuristic scores every code at every node)",
                    shape.code_count()
                ),
                (Strategy::Heuristic(h), _) => h,
            };
            let game = match args.game {
                Some(AnyGame::Words(preset)) => args.list.preset_game(preset)?,
                Some(AnyGame::Small(rules)) => args.list.game(Some(rules), Rules::standard())?,
                _ => args.list.game(None, Rules::standard())?,
            };
            let config = args.options.config(&game, heuristic)?;
            let tree = heuristic::build_tree_with(&game, &config, &crate::driver::Rayon)?;
            (
                game,
                tree,
                format!("the {heuristic} tree"),
                Objective::Heuristic,
                None,
                None,
            )
        }
    };
    if let Err(e) = tree.replay(&game, cap) {
        crate::exit::say_error("optimoo", &format!("{what} does not play correctly: {e}"));
        return Ok(ExitCode::from(EXIT_NEGATIVE));
    }
    let strategy = match args.strategy {
        Some(Strategy::Heuristic(h)) => Some(format!("{h} heuristic")),
        _ => None,
    };
    let caption = crate::cli::page::caption(
        &game.rules().to_string(),
        objective,
        cap,
        strategy.as_deref(),
        bound.is_some(),
    );
    let bytes = render(
        &game,
        tree,
        &caption,
        args.format,
        args.depth,
        (objective, cap, bound),
    )?;
    write_out(args.format, output, &bytes)
}

/// `export A.tree B.tree ... --format html`: one page of several trees,
/// each read, replayed and refused as a single file is; one tree a game.
fn export_pages(args: &Args, output: Option<Output>) -> anyhow::Result<ExitCode> {
    let mut read: Vec<(Game, TreeFile)> = Vec::new();
    let mut duels = Vec::new();
    for path in &args.files {
        let bytes =
            shape_file::read_file(path).with_context(|| format!("reading {}", path.display()))?;
        if let Some(shape) = shape_file::huge_game(&bytes) {
            bail!("{}: {}", path.display(), html_refused(shape));
        }
        let (game, file) = crate::cli::secrets::read_tree_bytes(&bytes, &args.list)
            .with_context(|| format!("reading {}", path.display()))?;
        if read.iter().any(|(g, _)| g.rules() == game.rules()) {
            bail!(
                "{}: a second tree of {}; a page holds one tree a game",
                path.display(),
                game.rules()
            );
        }
        if let Err(e) = file.tree.replay(&game, file.header.cap) {
            crate::exit::say_error(
                "optimoo",
                &format!("{} does not play correctly: {e}", path.display()),
            );
            return Ok(ExitCode::from(EXIT_NEGATIVE));
        }
        duels.push(crate::cli::page::duels_beside(path, &game)?);
        read.push((game, file));
    }
    let files: Vec<(&Game, &TreeFile)> = read.iter().map(|(g, f)| (g, f)).collect();
    let page = crate::cli::page::of_files(&files, &duels, false);
    write_out(Format::Html, output, page.as_bytes())
}

/// `export --strategy phased`: on a game the model handles, the
/// strategy's tree (`walk::tree`) exported as any tree is; on a larger
/// one, its tree file written by the walk (the memory stated and checked
/// first) and exported from the bytes.
fn export_phased(
    args: &Args,
    output: Option<Output>,
    game: Option<AnyGame>,
) -> anyhow::Result<ExitCode> {
    if args.list.secrets.is_some() {
        bail!("--secrets: the phased strategy plays whole games (moo:KxN, mm:KxN)");
    }
    let shape = match game {
        Some(AnyGame::Huge(shape)) => shape,
        Some(AnyGame::Small(rules)) => Shape::from_rules(rules)?,
        Some(AnyGame::Words(p)) => bail!(
            "--game {}: the phased strategy plays whole games (moo:KxN, mm:KxN), not word lists",
            p.name()
        ),
        None => Shape::from_rules(Rules::standard())?,
    };
    let mut opts = args.phased.options();
    if let Some(text) = &args.options.first {
        opts.first = Some(shape.parse(text).context("--first")?);
    }
    let chooser = Chooser::new(shape, opts)?;
    if args.format == Format::Book {
        return export_book(&chooser, args.depth.unwrap_or(3) as usize, output);
    }
    let caption = format!("{shape} tree of the phased strategy");
    let Some(rules) = shape.rules() else {
        if args.format == Format::Html {
            bail!("{}", html_refused(shape));
        }
        fit_codes(shape, 2 * shape_file::max_len(shape), " and its tree file")?;
        let bar = crate::driver::progress::Terminal::secrets(
            shape.code_count() as u64,
            std::io::stderr().is_terminal(),
        );
        let (bytes, _) = walk::encode(&chooser, &crate::driver::Rayon, &bar)?;
        drop(bar);
        return export_huge(
            args,
            output,
            shape,
            &bytes,
            "the phased tree",
            Some(caption),
        );
    };
    let game = Game::new(rules);
    let tree = walk::tree(&chooser, &crate::driver::Rayon).context("a game the model handles")?;
    if let Err(e) = tree.replay(&game, None) {
        crate::exit::say_error(
            "optimoo",
            &format!("the phased tree does not play correctly: {e}"),
        );
        return Ok(ExitCode::from(EXIT_NEGATIVE));
    }
    let bytes = render(
        &game,
        tree,
        &caption,
        args.format,
        args.depth,
        (Objective::Heuristic, None, None),
    )?;
    write_out(args.format, output, &bytes)
}

/// `export --strategy phased --format book`: the strategy's nodes at its
/// first `depth` levels (the memory of every code stated and checked
/// first), one line on standard error a node on a terminal.
fn export_book(
    chooser: &Chooser,
    depth: usize,
    output: Option<Output>,
) -> anyhow::Result<ExitCode> {
    let shape = chooser.shape();
    fit_codes(shape, 0, "")?;
    let show = std::io::stderr().is_terminal();
    let book =
        optimoo::heuristic::phased::book::build(chooser, depth, &crate::driver::Rayon, &|n| {
            if show {
                eprint!("\r{n} nodes");
            }
        });
    if show {
        eprintln!();
    }
    let text = book.to_text(chooser.options());
    write_out(Format::Book, output, text.as_bytes())
}

/// States the memory of every code of `shape` and `more` bytes (`what`
/// they are for), and refuses the work when it does not fit.
fn fit_codes(shape: Shape, more: u64, what: &str) -> anyhow::Result<()> {
    let need = shape.memory_bytes() + more;
    crate::cli::phased::fit(
        &format!(
            "memory: about {} needed for the {} codes of {shape}{what}",
            crate::cli::memory::show(need),
            shape.code_count()
        ),
        need,
        &shape.to_string(),
    )
}

/// Why a huge game's tree is not exported as a page.
fn html_refused(shape: Shape) -> String {
    format!(
        "--format html: {shape} has {} codes; its page would hold the whole tree in the \
         browser, too large for one: use --format json, or --format dot with --depth N",
        shape.code_count()
    )
}

/// Writes `bytes` to the output or to standard output (a tree file not to
/// a terminal).
fn write_out(format: Format, output: Option<Output>, bytes: &[u8]) -> anyhow::Result<ExitCode> {
    stream(format, output, &mut |w| Ok(w.write_all(bytes)?))
}

/// Writes what `write` writes to the output (atomically) or to standard
/// output (buffered; a tree file not to a terminal), streamed.
fn stream(
    format: Format,
    output: Option<Output>,
    write: &mut dyn FnMut(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<ExitCode> {
    match output {
        Some(out) => {
            let path = out.path().to_path_buf();
            out.commit_with(write)?;
            crate::cli::output::wrote(&path);
        }
        None => {
            let out = std::io::stdout().lock();
            if format == Format::Tree && out.is_terminal() {
                bail!("--format tree is binary: write it to a file with -o FILE");
            }
            let mut out = BufWriter::new(out);
            write(&mut out)?;
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Exports the tree file of a game over 65,535 codes (`bytes`, read
/// bounded or just written): the memory of its replay stated and checked,
/// every secret replayed (a secret over the file's cap: exit 1, as for
/// small files), then streamed as JSON or a picture, or written again with
/// the replay's figures in its header (`--format tree`). No page.
fn export_huge(
    args: &Args,
    output: Option<Output>,
    shape: Shape,
    bytes: &[u8],
    what: &str,
    caption_given: Option<String>,
) -> anyhow::Result<ExitCode> {
    if args.format == Format::Html {
        bail!("{}", html_refused(shape));
    }
    let replay = crate::cli::phased::replay_file(shape, bytes, &args.list)?;
    let h = &replay.header;
    if let (Some((secret, guesses)), Some(cap)) = (replay.over_cap, h.cap) {
        crate::exit::say_error("optimoo", &format!(
            "{what} does not play correctly: secret {} needs {guesses} guesses, more than the cap of {cap}",
            shape.format(secret)
        ));
        return Ok(ExitCode::from(EXIT_NEGATIVE));
    }
    let caption = caption_given.unwrap_or_else(|| {
        crate::cli::page::caption(&shape.to_string(), h.objective, h.cap, None, false)
    });
    let depth = args.depth.map(|d| d as usize);
    let format = args.format;
    stream(format, output, &mut |w| {
        match format {
            Format::Json => {
                shape_file::write_json(bytes, w)?;
            }
            Format::Dot => {
                shape_file::write_dot(bytes, &caption, depth, w)?;
            }
            Format::Tree => w.write_all(&replay.rewrite(bytes)?)?,
            Format::Html => bail!("{}", html_refused(shape)),
            Format::Book => unreachable!("refused by run"),
        }
        Ok(())
    })
}

fn render(
    game: &Game,
    tree: Tree,
    caption: &str,
    format: Format,
    depth: Option<u32>,
    (objective, cap, bound): (Objective, Option<usize>, Option<Bound>),
) -> anyhow::Result<Vec<u8>> {
    let proved = objective != Objective::Heuristic && bound.is_none();
    Ok(match format {
        Format::Json => (serde_json::to_string(&tree.to_json(game))? + "\n").into_bytes(),
        Format::Dot => dot::render(game, &tree, caption, depth.map(|d| d as usize)).into_bytes(),
        Format::Tree => {
            let file = TreeFile::new(game, tree, objective, cap)?;
            match bound {
                Some(b) => file.with_bound(b)?,
                None => file,
            }
            .to_bytes(game)?
        }
        Format::Html => html::render(game, &tree, caption, proved).into_bytes(),
        Format::Book => unreachable!("refused by run"),
    })
}
