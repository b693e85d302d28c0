//! The folders of `nash -o DIR` and `duel -o DIR`: a JSON file that names
//! tree files beside it, written into a new or empty folder and read back
//! by `--check DIR`.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context};
use num_rational::BigRational;
use serde::de::DeserializeOwned;
use serde::Serialize;

use optimoo::model::{Game, Objective, Rules};
use optimoo::tree::format::TreeFile;
use optimoo::tree::Tree;

use super::output::Output;

/// Largest JSON file read by `--check`.
const MAX_JSON: u64 = 1 << 20;

/// Refuses a DIR that holds files already; creates it otherwise.
pub fn prepare(dir: &Path) -> anyhow::Result<()> {
    if dir.exists() {
        let mut entries =
            std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
        if entries.next().is_some() {
            bail!("{} is not empty: give a new or empty folder", dir.display());
        }
    } else {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    Ok(())
}

/// Writes `tree` as DIR/`name` (a tree file `verify` reads).
pub fn write_tree(dir: &Path, name: &str, game: &Game, tree: &Tree) -> anyhow::Result<()> {
    let bytes = TreeFile::new(game, tree.clone(), Objective::Heuristic, None)?.to_bytes(game)?;
    Output::create(&dir.join(name))?.commit(&bytes)
}

/// Writes `value` as DIR/`name`, pretty JSON.
pub fn write_json<T: Serialize>(dir: &Path, name: &str, value: &T) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(value)? + "\n";
    Output::create(&dir.join(name))?.commit(text.as_bytes())
}

/// Reads DIR/`name` as `what` ("a nash.json of optimoo").
pub fn read_json<T: DeserializeOwned>(dir: &Path, name: &str) -> anyhow::Result<T> {
    let path = dir.join(name);
    let bytes = super::checkpoint::read_bounded(&path, MAX_JSON)
        .with_context(|| format!("cannot read {}", path.display()))?
        .ok_or_else(|| anyhow::anyhow!("{} does not exist", path.display()))?;
    serde_json::from_slice(&bytes)
        .with_context(|| format!("{} is not a {name} of optimoo", path.display()))
}

/// Reads the tree file `name` that DIR/`json` names (refused outside DIR).
pub fn read_tree(dir: &Path, json: &str, name: &str, rules: Rules) -> anyhow::Result<Tree> {
    if name.contains('/') || name.contains('\\') || name.starts_with('.') {
        bail!(
            "{}: the tree file {name} is not in the folder",
            dir.join(json).display()
        );
    }
    let tf = TreeFile::read(&dir.join(name), Some(rules))
        .with_context(|| format!("cannot read {}", dir.join(name).display()))?;
    Ok(tf.tree)
}

/// A nonnegative fraction "p/q" (or an integer) of DIR/`json`, accepted
/// only in the canonical form the files are written in: digits without a
/// sign or leading zeros, in lowest terms, the denominator above 1 (an
/// integer written without one). So a checked file's fraction is printed
/// back as written and means one thing.
pub fn ratio(dir: &Path, json: &str, text: &str) -> anyhow::Result<BigRational> {
    canonical(text).ok_or_else(|| {
        anyhow::anyhow!(
            "{}: '{text}' is not a fraction p/q in lowest terms (digits, no sign, no leading zeros)",
            dir.join(json).display()
        )
    })
}

/// `text` as a fraction when it is written canonically (see [`ratio`]).
fn canonical(text: &str) -> Option<BigRational> {
    let digits = |part: &str| {
        !part.is_empty()
            && part.bytes().all(|b| b.is_ascii_digit())
            && (part == "0" || !part.starts_with('0'))
    };
    if !text.split('/').all(digits) || text.split('/').count() > 2 {
        return None;
    }
    let r = text.parse::<BigRational>().ok()?;
    (equilibrium::matrix::show(&r) == text).then_some(r)
}

/// The game named in DIR/`json`.
pub fn rules(dir: &Path, json: &str, text: &str) -> anyhow::Result<Rules> {
    text.parse()
        .map_err(|e| anyhow::anyhow!("{}: {e}", dir.join(json).display()))
}

/// Prints the verdict of `--check DIR` on stdout: `DIR: ok: {what}` (exit
/// 0) or `DIR: FAILED: {why}` (exit 1).
pub fn verdict(dir: &Path, result: Result<String, String>) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    match result {
        Ok(what) => {
            writeln!(out, "{}: ok: {what}", dir.display())?;
            Ok(ExitCode::SUCCESS)
        }
        Err(why) => {
            writeln!(out, "{}: FAILED: {why}", dir.display())?;
            Ok(ExitCode::from(super::EXIT_NEGATIVE))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::canonical;

    #[test]
    fn only_canonical_fractions_are_read() {
        for good in ["0", "1", "184/243", "560/129"] {
            let r = canonical(good).unwrap_or_else(|| panic!("{good}"));
            assert_eq!(equilibrium::matrix::show(&r), good);
        }
        for bad in [
            "-1/-1",
            "+184/243",
            "0184/0243",
            "184/0243",
            "2/4",
            "3/1",
            "1/0",
            "0/1",
            "-1",
            "00",
            "",
            "/",
            "1/",
            "/2",
            "1/2/3",
            " 1/2",
            "1.5",
            "1/-2",
        ] {
            assert!(canonical(bad).is_none(), "{bad:?} read");
        }
    }
}
