//! What the two binaries share, so that neither copies the other: [`exit`]
//! (the exit-code table, the one error line, the standard streams),
//! [`memory`] (the memory left to the process, and the check that refuses
//! what does not fit),
//! [`secrets`] (`--secrets`, `--alphabet`, `--guesses`), [`wordle`] (the
//! presets `--game wordle` and `wordle-nyt`, their lists embedded) and [`names`] (a
//! clap reader for any table of named values: heuristics, pools, tie rules,
//! guess modes, objectives).
//!
//! Invariant: this crate links only what the `moo` player links anyway
//! (the library `optimoo`, clap, anyhow): no thread pool, no progress bar,
//! no tempfile; the player stays small (docs/architecture.md).

pub mod exit;
pub mod memory;
pub mod phased;
pub mod secrets;
pub mod wordle;

/// Reads one of the names of `table` (`name`, value), exactly as listed
/// (`--help` lists them in the table's order).
pub fn names<T: Clone + Send + Sync + 'static>(
    table: &'static [(&'static str, T)],
) -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::TypedValueParser;
    let names: Vec<&'static str> = table.iter().map(|(n, _)| *n).collect();
    clap::builder::PossibleValuesParser::new(names).map(move |name| {
        table
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
            .expect("clap accepts only these names")
    })
}
