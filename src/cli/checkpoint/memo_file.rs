//! What a unit's runs learned, kept between runs: `DIR/memo/I.bin`, the
//! facts its memo proved about large sets ([`plan::Learned`]), written by
//! `work --time-limit` and `work --bound-only` while a unit of a whole
//! class runs (every `--keep-memo-every` seconds, and when it stops) and
//! taken up by the next run of the unit: a run stopped inside a long class
//! search goes on from what that search had settled.
//!
//! Layout: the line `optimoo-memo/2`, a line of JSON ([`Header`]), then
//! the body, one record per fact: the key's length, its codes (each as the
//! difference from the one before, zigzag-encoded), the kind (0 exact, 1 a
//! lower bound, 2 refuted guesses) and the value; for kind 2 the value is
//! the count of guesses, then each guess (ascending, as the difference
//! from the one before, zigzag-encoded like the codes) and its bound;
//! every number but the kind an unsigned LEB128 varint. The keys are
//! ascending code lists (a set, then its depth), so a difference takes
//! one or two bytes (one where the set is dense among the codes). A file
//! of `optimoo-memo/1` (written before kind 2) is read as well. (Forty
//! lines of varint code here rather than a serialization crate: the
//! format is this one record.)
//!
//! Invariants:
//! - It only ever saves work: every fact in it was proven by a run of the
//!   unit under the plan it names, for the game the plan names (checked:
//!   format, `plan_id`, unit, the game's size, every code within it, the
//!   count of facts, a SHA-256 over the body against accidental
//!   corruption, not forgery; `merge --audit` re-solves what units claim).
//!   A file that does not pass is refused by name, never silently dropped.
//! - Written to a temporary file in `memo/`, synced, then renamed into
//!   place: a run killed mid-write leaves the previous file whole. Removed
//!   with the unit's progress when its file holds the final result.
//! - Its size is bounded: written up to the budget given (the facts about
//!   the largest sets first), read up to [`MEMO_MAX_BYTES`].

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use optimoo::model::{Code, Feedback};
use optimoo::search::plan::{Fact, Learned};
use optimoo::search::INF;

use super::files::{hex, read_or_refuse};
use super::Folder;

/// The folder of memo files.
pub const MEMO_DIR: &str = "memo";
/// The first line of a memo file.
pub const MEMO_FORMAT: &str = "optimoo-memo/2";
/// The first line of a memo file written before refuted guesses were kept
/// (kinds 0 and 1 only): read as well.
pub const MEMO_FORMAT_1: &str = "optimoo-memo/1";
/// The largest memo file read (4 GiB).
pub const MEMO_MAX_BYTES: u64 = 4 << 30;

/// The second line of `DIR/memo/I.bin`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The plan it belongs to.
    pub plan_id: String,
    /// The unit's index.
    pub unit: usize,
    /// The game's number of codes (every code of a key is below it).
    pub codes: usize,
    /// Facts about sets of at least this many secrets only.
    pub min_secrets: usize,
    /// How many facts the body holds.
    pub facts: u64,
    /// SHA-256 of the body, in hex.
    pub sha256: String,
}

impl Folder {
    /// `DIR/memo/I.bin`.
    pub fn memo_path(&self, i: usize) -> PathBuf {
        self.dir.join(MEMO_DIR).join(format!("{i}.bin"))
    }

    /// Writes what unit `i`'s run learned (atomically): the facts about
    /// the largest sets first (the dearest to find again), as many as fit
    /// in `max_bytes`; returns how many were written.
    pub fn write_memo(
        &self,
        i: usize,
        min_secrets: usize,
        max_bytes: u64,
        mut facts: Vec<Learned>,
    ) -> anyhow::Result<usize> {
        let path = self.memo_path(i);
        let dir = self.dir.join(MEMO_DIR);
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        facts.sort_by(|a, b| {
            b.key
                .len()
                .cmp(&a.key.len())
                .then_with(|| a.key.cmp(&b.key))
        });
        let mut body = Vec::new();
        let mut written = 0;
        let mut record = Vec::new();
        for f in &facts {
            record.clear();
            encode(f, &mut record);
            if (body.len() + record.len()) as u64 > max_bytes {
                break;
            }
            body.extend_from_slice(&record);
            written += 1;
        }
        let facts = &facts[..written];
        let header = Header {
            plan_id: self.file.plan_id.clone(),
            unit: i,
            codes: self.game.len(),
            min_secrets,
            facts: facts.len() as u64,
            sha256: hex(&Sha256::digest(&body)),
        };
        let mut temp = crate::cli::output::new_file(&format!(".{i}.bin."))
            .tempfile_in(&dir)
            .with_context(|| format!("cannot write in {}", dir.display()))?;
        let head = format!("{MEMO_FORMAT}\n{}\n", serde_json::to_string(&header)?);
        temp.write_all(head.as_bytes())
            .and_then(|_| temp.write_all(&body))
            .and_then(|_| temp.as_file().sync_all())
            .with_context(|| format!("cannot write {}", path.display()))?;
        temp.persist(&path)
            .map_err(|e| e.error)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(written)
    }

    /// Reads what unit `i`'s runs learned: `None` when there is no file;
    /// an error naming the file when it is corrupt, foreign or of another
    /// unit.
    pub fn read_memo(&self, i: usize) -> anyhow::Result<Option<Vec<Learned>>> {
        let path = self.memo_path(i);
        let bad = |why: &str| {
            anyhow::anyhow!(
                "{} is refused: {why}; delete it to run the unit without what earlier runs \
                 learned (nothing proven is lost: its bounds are in the unit's progress)",
                path.display()
            )
        };
        let Some(bytes) = read_or_refuse(&path, MEMO_MAX_BYTES, |why| bad(&why))? else {
            return Ok(None);
        };
        let mut lines = bytes.splitn(3, |&b| b == b'\n');
        let first = lines.next();
        let kinds = if first == Some(MEMO_FORMAT.as_bytes()) {
            3
        } else if first == Some(MEMO_FORMAT_1.as_bytes()) {
            2
        } else {
            return Err(bad(&format!(
                "not an optimoo memo file of this version (its first line is not {MEMO_FORMAT:?})"
            )));
        };
        let (Some(header), Some(body)) = (lines.next(), lines.next()) else {
            return Err(bad("it ends before its facts"));
        };
        let header: Header =
            serde_json::from_slice(header).map_err(|e| bad(&format!("corrupt header ({e})")))?;
        if header.plan_id != self.file.plan_id {
            return Err(bad("it belongs to another plan"));
        }
        if header.unit != i {
            return Err(bad(&format!(
                "it is unit {}'s, not unit {i}'s",
                header.unit
            )));
        }
        if header.codes != self.game.len() {
            return Err(bad("it is of a game of another size"));
        }
        if hex(&Sha256::digest(body)) != header.sha256 {
            return Err(bad("its checksum does not match (corrupt)"));
        }
        let mut facts = Vec::new();
        let mut at = 0;
        while at < body.len() {
            let f = decode(body, &mut at, self.game.len(), kinds).map_err(|why| bad(&why))?;
            facts.push(f);
        }
        if facts.len() as u64 != header.facts {
            return Err(bad(&format!(
                "it holds {} facts, its header says {}",
                facts.len(),
                header.facts
            )));
        }
        Ok(Some(facts))
    }

    /// What the kept memo of the unit holding `history`'s class says of
    /// the set of secrets the history leaves: the unit (the one of the
    /// history's first move, a whole class), the set's size, its exact
    /// cost or best kept bound, and the guesses refuted there with their
    /// kept bounds, least bound first. An error names what is missing: a
    /// history of no unit, no memo file, a set the history does not leave.
    pub fn kept_at(&self, history: &[(Code, Feedback)]) -> anyhow::Result<KeptAt> {
        let Some(&(first, answer)) = history.first() else {
            bail!("--kept-at needs moves, the first a first guess of the plan");
        };
        let Some(unit) = self.unit_of(history) else {
            bail!(
                "no unit of {} is the class of {}:{} (a whole class of a planned first guess)",
                self.dir.display(),
                self.game.format_code(first),
                self.game.format_feedback(answer)
            );
        };
        let set = optimoo::model::partition::consistent(&self.game, history);
        if set.is_empty() {
            bail!("no secret of {} gives those answers", self.game.rules());
        }
        let Some(facts) = self.read_memo(unit)? else {
            bail!(
                "unit {unit} has no kept memo ({}): work --keep-memo writes one while the unit runs",
                self.memo_path(unit).display()
            );
        };
        Ok(self.kept_of(unit, &facts, &set, history.len()))
    }

    /// The unit whose class is `history`'s first move's (a whole class of
    /// a planned first guess), if any.
    pub fn unit_of(&self, history: &[(Code, Feedback)]) -> Option<usize> {
        let &(first, answer) = history.first()?;
        self.plan.units.iter().position(|u| {
            u.second.is_none() && self.plan.guesses[u.guess].guess == first && u.answer == answer
        })
    }

    /// What `facts`, unit `unit`'s kept memo ([`Folder::read_memo`]), say
    /// of the set `history` leaves: [`Folder::kept_at`] on a memo read
    /// once for many sets. Nothing kept of a set (or an empty set) gives
    /// no exact cost, no bound and no guesses.
    pub fn kept_in(&self, unit: usize, facts: &[Learned], history: &[(Code, Feedback)]) -> KeptAt {
        let set = optimoo::model::partition::consistent(&self.game, history);
        self.kept_of(unit, facts, &set, history.len())
    }

    /// What `facts` say of `set`, the secrets a history of `moves` moves
    /// leaves.
    fn kept_of(&self, unit: usize, facts: &[Learned], set: &[Code], moves: usize) -> KeptAt {
        // The key the search gives the set: its codes as they are, then the
        // guesses left, clamped to one more than the secrets (Context::clamp).
        let depth = (set.len() + 1).min(self.plan.depth.saturating_sub(moves));
        let mut key: Vec<u16> = set.iter().map(|c| c.0).collect();
        key.push(depth.min(usize::from(u16::MAX)) as u16);
        let mut kept = KeptAt {
            unit,
            secrets: set.len(),
            exact: None,
            lower: None,
            guesses: Vec::new(),
        };
        for f in facts.iter().filter(|f| f.key == key) {
            match &f.fact {
                Fact::Exact(c) => kept.exact = Some(*c),
                Fact::AtLeast(b) => kept.lower = Some(*b),
                Fact::Guesses(list) => {
                    kept.guesses = list.iter().map(|&(g, b)| (Code(g), b)).collect();
                }
            }
        }
        kept.guesses.sort_by_key(|&(g, b)| (b, g));
        kept
    }

    /// Removes unit `i`'s memo file, if any.
    pub fn remove_memo(&self, i: usize) -> anyhow::Result<()> {
        let path = self.memo_path(i);
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e).with_context(|| format!("cannot remove {}", path.display())),
        }
    }
}

/// What a unit's kept memo says of one set ([`Folder::kept_at`]).
pub struct KeptAt {
    /// The unit whose memo file was read.
    pub unit: usize,
    /// The set's size.
    pub secrets: usize,
    /// Its exact cost, if kept.
    pub exact: Option<u64>,
    /// A lower bound of its cost, if kept.
    pub lower: Option<u64>,
    /// The guesses refuted at it, each with a lower bound of its cost
    /// there (kept for sets of at least `work --keep-guesses` secrets),
    /// least bound first.
    pub guesses: Vec<(Code, u64)>,
}

/// Appends one record.
fn encode(f: &Learned, out: &mut Vec<u8>) {
    put(out, f.key.len() as u64);
    let mut last = 0i64;
    for &c in &f.key {
        let delta = i64::from(c) - last;
        put(out, ((delta << 1) ^ (delta >> 63)) as u64);
        last = i64::from(c);
    }
    let (kind, v) = match &f.fact {
        Fact::Exact(c) => (0, *c),
        Fact::AtLeast(b) => (1, *b),
        Fact::Guesses(list) => (2, list.len() as u64),
    };
    out.push(kind);
    put(out, v);
    if let Fact::Guesses(list) = &f.fact {
        let mut last = 0i64;
        for &(g, b) in list {
            let delta = i64::from(g) - last;
            put(out, ((delta << 1) ^ (delta >> 63)) as u64);
            put(out, b);
            last = i64::from(g);
        }
    }
}

/// Reads a zigzag-encoded difference at `*at` and adds it to `last`: a
/// number in `0..limit`.
fn code_after(body: &[u8], at: &mut usize, last: i64, limit: i64) -> Result<i64, String> {
    let z = get(body, at)?;
    let delta = ((z >> 1) as i64) ^ -((z & 1) as i64);
    let c = last.checked_add(delta).unwrap_or(-1);
    if !(0..limit).contains(&c) {
        return Err(format!("a code {c} outside the game's {limit}"));
    }
    Ok(c)
}

/// Reads one record at `*at`: its codes (all but the last, the depth)
/// below `codes`, its kind below `kinds`.
fn decode(body: &[u8], at: &mut usize, codes: usize, kinds: u8) -> Result<Learned, String> {
    let len = get(body, at)?;
    // A key is a set of at least one secret, then its depth.
    if !(2..=codes as u64 + 1).contains(&len) {
        return Err(format!("a fact's key of {len} numbers"));
    }
    let mut key = Vec::with_capacity(len as usize);
    let mut last = 0i64;
    for j in 0..len {
        let limit = if j + 1 == len { 1 << 16 } else { codes as i64 };
        let c = code_after(body, at, last, limit)?;
        key.push(c as u16);
        last = c;
    }
    let kind = *body.get(*at).ok_or("it ends inside a fact")?;
    *at += 1;
    let v = get(body, at)?;
    if kind >= kinds {
        return Err(format!("a fact of kind {kind}"));
    }
    if kind == 2 {
        // At most one bound per code of the game.
        if v == 0 || v > codes as u64 {
            return Err(format!("{v} refuted guesses"));
        }
        let mut list = Vec::with_capacity(v as usize);
        let mut last = -1i64;
        for _ in 0..v {
            let g = code_after(body, at, last.max(0), codes as i64)?;
            if g <= last {
                return Err("refuted guesses out of order".into());
            }
            let b = get(body, at)?;
            if b > INF {
                return Err(format!("a cost of {b}"));
            }
            list.push((g as u16, b));
            last = g;
        }
        return Ok(Learned {
            key,
            fact: Fact::Guesses(list),
        });
    }
    if v > INF {
        return Err(format!("a cost of {v}"));
    }
    let fact = match kind {
        0 => Fact::Exact(v),
        _ => Fact::AtLeast(v),
    };
    Ok(Learned { key, fact })
}

/// Appends `v` as an unsigned LEB128 varint.
fn put(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads an unsigned LEB128 varint at `*at`.
fn get(body: &[u8], at: &mut usize) -> Result<u64, String> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *body.get(*at).ok_or("it ends inside a fact")?;
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err("a number longer than 64 bits".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        let facts = vec![
            Learned {
                key: vec![0, 5, 6, 30239, 7],
                fact: Fact::Exact(123_456),
            },
            Learned {
                key: vec![300, 2, 65535],
                fact: Fact::AtLeast(INF),
            },
            Learned {
                key: vec![1, 2, 3, 4],
                fact: Fact::Guesses(vec![(0, 17), (9, INF), (30239, 12)]),
            },
        ];
        let mut body = Vec::new();
        for f in &facts {
            encode(f, &mut body);
        }
        let mut at = 0;
        let mut back = Vec::new();
        while at < body.len() {
            back.push(decode(&body, &mut at, 30240, 3).unwrap());
        }
        assert_eq!(back, facts);
        // A code past the game's codes, a cut record, a kind the format
        // has not: refused.
        let mut at = 0;
        assert!(decode(&body, &mut at, 30000, 3).is_err());
        let mut at = 0;
        assert!(decode(&body[..body.len() - 1], &mut at, 30240, 3).is_ok());
        assert!(decode(&body[..body.len() - 1], &mut at, 30240, 3).is_ok());
        assert!(decode(&body[..body.len() - 1], &mut at, 30240, 3).is_err());
        let mut at = 0;
        for _ in 0..2 {
            assert!(decode(&body, &mut at, 30240, 2).is_ok());
        }
        assert_eq!(
            decode(&body, &mut at, 30240, 2),
            Err("a fact of kind 2".into())
        );
        // Guesses out of order, or a guess past the game's codes: refused.
        for list in [vec![(5, 1), (5, 2)], vec![(7, 1), (3, 2)], vec![(30240, 1)]] {
            let mut body = Vec::new();
            let f = Learned {
                key: vec![1, 2],
                fact: Fact::Guesses(list),
            };
            encode(&f, &mut body);
            assert!(decode(&body, &mut 0, 30240, 3).is_err(), "{f:?}");
        }
    }
}
