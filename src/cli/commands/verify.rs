//! `optimoo verify`: check tree files against their own claims.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};

use optimoo::static_game::check::{self as static_check, StaticFile, STATIC_FILE_MAX_BYTES};

use crate::cli::{EXIT_ERROR, EXIT_NEGATIVE};

/// Check tree files: replay every secret and compare with the header.
///
/// Replay every secret of each tree file's game with an independent checker
/// (its own bulls-and-cows rule over the written codes): each guess legal,
/// each node's moves exactly the answers its secrets give, each secret won
/// within the file's cap, the statistics equal to the header's. A file is
/// read header first, never beyond its declared length. A file of a game
/// over 65,535 codes (written by `eval --strategy phased -o`) is replayed
/// with the game's own answers instead (docs/huge.md), after its memory is
/// stated and checked.
/// Exit 0 when every file holds, 1 when a tree fails, 2 when a file cannot
/// be read.
///
/// Static sets (`optimoo static`) are checked too, given with `--static`
/// or as files written by `static -o`: every secret's answers to the set
/// must be its own (recomputed by the same independent rule), else the
/// first two secrets with equal answers are named (exit 1). A repeated
/// guess is checked once, and a set of more guesses than the game has
/// codes is refused (exit 2): the check's memory is the game's, whatever
/// the file's length.
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment, after_long_help = crate::cli::help::VERIFY)]
pub struct Args {
    /// Tree files (`.tree`) or static-set files to check.
    #[arg(required_unless_present = "static_set", value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// A static set to check: its guesses, separated by spaces or commas,
    /// e.g. "0011 0123 2414" (with --game).
    #[arg(long = "static", value_name = "GUESSES")]
    pub static_set: Option<String>,
    /// The game of --static [default: moo:4x10, or with --alphabet the
    /// words' game]; a static-set file names its own.
    #[arg(long, requires = "static_set")]
    pub game: Option<optimoo::model::Rules>,
    #[command(flatten)]
    pub list: crate::cli::secrets::SecretArgs,
}

/// Runs `optimoo verify`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let mut code = 0;
    if let Some(text) = &args.static_set {
        let game = args
            .list
            .game(args.game, optimoo::model::Rules::standard())?;
        let words: Vec<&str> = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .collect();
        code = code.max(check_static(&mut out, "--static", &game, &words, None)?);
    }
    for path in &args.files {
        // The path as given, control characters escaped.
        let shown = crate::exit::escaped(&path.display().to_string(), false);
        match read_static(path) {
            Ok(Some(file)) => {
                let checked = args
                    .list
                    .game(Some(file.rules), file.rules)
                    .and_then(|game| {
                        let words: Vec<&str> = file.guesses.iter().map(String::as_str).collect();
                        check_static(&mut out, &shown, &game, &words, Some(&file))
                    });
                match checked {
                    Ok(c) => code = code.max(c),
                    Err(err) => {
                        out.flush()?;
                        crate::exit::say_error("optimoo", &format!("{shown}: {err:#}"));
                        code = code.max(EXIT_ERROR);
                    }
                }
                continue;
            }
            Ok(None) => {}
            Err(err) => {
                out.flush()?;
                crate::exit::say_error("optimoo", &format!("{shown}: {err:#}"));
                code = code.max(EXIT_ERROR);
                continue;
            }
        }
        let read = optimoo::tree::format::shape::read_file(path)
            .map_err(anyhow::Error::from)
            .and_then(
                |bytes| match optimoo::tree::format::shape::huge_game(&bytes) {
                    Some(shape) => Ok(Err((shape, bytes))),
                    None => crate::cli::secrets::read_tree_bytes(&bytes, &args.list).map(Ok),
                },
            );
        let (game, file) = match read {
            Ok(Ok(read)) => read,
            Ok(Err((shape, bytes))) => {
                match verify_huge(&mut out, &shown, shape, &bytes, &args.list) {
                    Ok(c) => code = code.max(c),
                    Err(err) => {
                        out.flush()?;
                        crate::exit::say_error(
                            "optimoo",
                            &format!("{shown}: {}", crate::exit::message(&err)),
                        );
                        code = code.max(EXIT_ERROR);
                    }
                }
                continue;
            }
            Err(err) => {
                out.flush()?;
                crate::exit::say_error("optimoo", &format!("{shown}: {err}"));
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
                    h.claim(),
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

/// Verifies the tree file of a game over 65,535 codes (`bytes`, read
/// bounded): the memory of the replay stated and refused when it does not
/// fit, every secret replayed with the game's own answers
/// (`tree::format::shape::replay`), the header's claims compared; writes `ok` or
/// `FAILED` and returns the exit code (0 or 1). An unreadable or corrupt
/// file, a secret list or too little memory is an error.
fn verify_huge(
    out: &mut impl Write,
    shown: &str,
    shape: optimoo::model::shape::Shape,
    bytes: &[u8],
    list: &crate::cli::secrets::SecretArgs,
) -> anyhow::Result<u8> {
    let replay = crate::cli::phased::replay_file(shape, bytes, list)?;
    let h = &replay.header;
    match replay.check() {
        Ok(()) => {
            let stats = &replay.stats;
            let cap = h.cap.map_or("no cap".to_string(), |c| format!("cap {c}"));
            writeln!(
                out,
                "{shown}: ok: {shape} {} {cap}: total {} average {:.4} max depth {} histogram {}",
                h.objective,
                stats.total,
                stats.average(),
                stats.max_depth,
                stats.histogram_text()
            )?;
            Ok(0)
        }
        Err(err) => {
            writeln!(out, "{shown}: FAILED: {err}")?;
            Ok(EXIT_NEGATIVE)
        }
    }
}

/// Reads `path` as a static-set file if it starts like one (`None`: it
/// does not, so it is read as a tree file); never more than
/// [`STATIC_FILE_MAX_BYTES`] bytes. Only a regular file can be one: a pipe
/// or a device is left to the tree reader untouched (reading it here would
/// consume what the tree reader must see), and of a regular file only the
/// first bytes are read before the decision.
fn read_static(path: &std::path::Path) -> anyhow::Result<Option<StaticFile>> {
    use std::io::Read;
    const MAGIC: &[u8] = b"optimoo-static";
    let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
    if !regular {
        return Ok(None);
    }
    let mut file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut bytes = Vec::new();
    (&mut file)
        .take(MAGIC.len() as u64)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes != MAGIC {
        return Ok(None);
    }
    file.take(STATIC_FILE_MAX_BYTES + 1 - MAGIC.len() as u64)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() as u64 > STATIC_FILE_MAX_BYTES {
        bail!("a static-set file is at most {STATIC_FILE_MAX_BYTES} bytes; this one is larger");
    }
    let text = std::str::from_utf8(&bytes).context("a static-set file is UTF-8 text")?;
    Ok(Some(StaticFile::from_text(text)?))
}

/// Checks one static set; writes `ok` or `FAILED` and returns the exit
/// code (0 or 1); an unreadable guess or a file made for another list is
/// an error (exit 2 from the caller).
fn check_static(
    out: &mut impl Write,
    shown: &str,
    game: &optimoo::model::Game,
    words: &[&str],
    file: Option<&StaticFile>,
) -> anyhow::Result<u8> {
    if words.is_empty() {
        bail!("{shown}: no guesses to check");
    }
    if let Some(f) = file {
        if f.secrets != game.secret_count() {
            bail!(
                "the set was made for {} secrets and {} has {}: give the same --secrets list",
                f.secrets,
                game.name(),
                game.secret_count()
            );
        }
    }
    let codes = words
        .iter()
        .map(|w| {
            game.parse_code(w)
                .with_context(|| format!("{shown}: guess {}", crate::exit::escaped(w, false)))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    match static_check::check_static(game, &codes) {
        Ok(c) => {
            writeln!(
                out,
                "{shown}: ok: {} static set of {} guesses tells apart all {} secrets",
                game.name(),
                c.guesses,
                c.secrets
            )?;
            Ok(0)
        }
        // Too long a list is a refusal (exit 2), not a failed set.
        Err(err @ static_check::StaticCheckError::TooMany { .. }) => bail!("{shown}: {err}"),
        Err(err) => {
            writeln!(out, "{shown}: FAILED: {err}")?;
            Ok(EXIT_NEGATIVE)
        }
    }
}
