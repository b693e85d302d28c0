//! The HTML page of a tree (`optimoo export --format html`, and the page
//! `optimoo serve` serves): its caption, said the same way by both.
//!
//! Invariant: a page of tree files made here is byte for byte the page
//! `optimoo export FILE... --format html` writes (served: with the two
//! differences of [`html::render_page`]'s `served`). The equilibria of a
//! game's race are found beside its tree file ([`duels_beside`]:
//! `DIR/duel/GAME-RULE/duel.json` for a tree in DIR, as data/duel is
//! beside data/*.tree); each tree there must play the game.

use std::path::Path;

use anyhow::{bail, Context};
use optimoo::model::{Game, Objective};
use optimoo::play::best_response::Rule;
use optimoo::tree::format::TreeFile;
use optimoo::tree::html::{self, DuelRule};

/// The title of a picture or page of a tree of `game`.
pub fn caption(
    game: &str,
    objective: Objective,
    cap: Option<usize>,
    strategy: Option<&str>,
    bounded: bool,
) -> String {
    match (objective, strategy) {
        (Objective::Heuristic, Some(s)) => format!("{game} tree of the {s}"),
        (Objective::Heuristic, None) => format!("{game} tree (heuristic)"),
        (o, _) if bounded => format!(
            "{game} best tree known, not proved optimal ({o} upper bound{})",
            cap.map_or(String::new(), |c| format!(", cap {c}"))
        ),
        (o, _) => format!(
            "{game} optimal tree ({o}{})",
            cap.map_or(String::new(), |c| format!(", cap {c}"))
        ),
    }
}

/// The equilibria of `game`'s race shipped beside the tree file `path`
/// (`DIR/duel/moo-4x10-first-wins/duel.json` and `.../equal-turns/`, as
/// `optimoo duel -o` writes them), in rule order; none (or a game of a
/// secret list, which plays other secrets): empty. A folder
/// that is there but unreadable, or of another game, is an error.
pub fn duels_beside(path: &Path, game: &Game) -> anyhow::Result<Vec<DuelRule>> {
    // The equilibria are over every code: a tree of a secret list has none.
    if game.secret_set().is_some() {
        return Ok(Vec::new());
    }
    let dir = path.parent().unwrap_or(Path::new("")).join("duel");
    let slug = game.rules().to_string().replace(':', "-");
    let mut out = Vec::new();
    for rule in [Rule::FirstWins, Rule::EqualTurns] {
        let folder = dir.join(format!("{slug}-{}", rule.name()));
        let json = folder.join("duel.json");
        if !json.is_file() {
            continue;
        }
        let text = std::fs::read_to_string(&json)
            .with_context(|| format!("reading {}", json.display()))?;
        let v: serde_json::Value =
            serde_json::from_str(&text).with_context(|| format!("reading {}", json.display()))?;
        let field = |v: &serde_json::Value, k: &str| -> anyhow::Result<String> {
            v[k].as_str()
                .map(str::to_string)
                .with_context(|| format!("{}: no {k}", json.display()))
        };
        if field(&v, "game")? != game.rules().to_string() || field(&v, "rule")? != rule.name() {
            bail!(
                "{}: not the race of {} under {rule}",
                json.display(),
                game.rules()
            );
        }
        let mut seats: [Vec<(String, optimoo::tree::Tree)>; 2] = [Vec::new(), Vec::new()];
        for (i, seat) in ["first", "second"].iter().enumerate() {
            for entry in v[seat].as_array().into_iter().flatten() {
                let file = folder.join(field(entry, "tree")?);
                let bytes = optimoo::tree::format::read_file(&file)
                    .with_context(|| format!("reading {}", file.display()))?;
                let (g, tree) = optimoo::play::player::load(&bytes)
                    .with_context(|| format!("reading {}", file.display()))?;
                if g.rules() != game.rules() || tree.tree.replay(game, None).is_err() {
                    bail!("{}: not a tree of {}", file.display(), game.rules());
                }
                seats[i].push((field(entry, "weight")?, tree.tree));
            }
        }
        let [first, second] = seats;
        if first.is_empty() || second.is_empty() {
            bail!("{}: a seat without a tree", json.display());
        }
        out.push(DuelRule {
            rule: rule.name().to_string(),
            value: field(&v, "value")?,
            first,
            second,
        });
    }
    Ok(out)
}

/// The page of tree files, as `optimoo export FILE... --format html`
/// writes it (`served`: as `optimoo serve` sends it); `duels[i]` the
/// equilibria of the i-th file's game ([`duels_beside`]).
pub fn of_files(files: &[(&Game, &TreeFile)], duels: &[Vec<DuelRule>], served: bool) -> String {
    let captions: Vec<String> = files
        .iter()
        .map(|(game, file)| {
            let h = &file.header;
            caption(
                &game.rules().to_string(),
                h.objective,
                h.cap,
                None,
                h.bound.is_some(),
            )
        })
        .collect();
    let entries: Vec<html::Entry<'_>> = files
        .iter()
        .zip(&captions)
        .enumerate()
        .map(|(i, ((game, file), caption))| html::Entry {
            game,
            tree: &file.tree,
            caption,
            optimal: file.header.objective != Objective::Heuristic && file.header.bound.is_none(),
            duel: duels.get(i).map_or(&[], Vec::as_slice),
        })
        .collect();
    html::render_page(&entries, served)
}
