//! The secret-list extension of the header (flag bit 2): the list a tree
//! plays, stored whole, so that a reader rebuilds the game from the file
//! and a caller with another list is refused.
//!
//! Layout, after the histogram (docs/format.md, "Secret lists"):
//!
//! ```text
//! 1 byte    guesses: 0 every code, 1 only the listed codes
//! varint    count c, 1 ≤ c ≤ N
//! c varints the first code's number, then each gap (code − previous − 1)
//! varint    alphabet length in bytes A (0: none, at most 144), A bytes UTF-8
//! varint    name length in bytes L (at most 255), L bytes UTF-8
//! ```
//!
//! With flag bit 5 the game's codes are a list, stored before the secret
//! list ([`write_codes`], [`read_codes`]): the count, the first code's
//! number among every code of the positions and symbols (lexicographic
//! order, [`CodeList::number`]) then each gap, the alphabet (never empty),
//! the name. The secret list's codes are then indices into it.
//!
//! Invariants: the codes read are strictly increasing and below `N`; an
//! alphabet has exactly the game's number of letters ([`Alphabet::new`]);
//! every field is bounded, so the extension is at most [`extra_max`]`(N)`
//! bytes; writing then reading gives the same set (the name cut to 255
//! bytes at a character boundary).

use super::wire::{write_varint, Reader};
use super::FormatError;
use crate::model::code::Code;
use crate::model::codelist::CodeList;
use crate::model::rules::Rules;
use crate::model::secrets::{Alphabet, GuessMode, SecretSet};

/// Most bytes of an alphabet (36 letters of 4 bytes).
const ALPHABET_MAX: usize = 144;
/// Most bytes of a list's name.
pub const NAME_MAX: usize = 255;

/// Most bytes of the extension for a game of `n` codes: the mode, the count
/// and each code (3 bytes at most each: below 65,536), the alphabet and the
/// name with their lengths (2 bytes each).
pub fn extra_max(n: usize) -> usize {
    1 + 3 + 3 * n + 2 + ALPHABET_MAX + 2 + NAME_MAX
}

/// The name as stored: at most [`NAME_MAX`] bytes, cut at a character
/// boundary.
pub fn stored_name(name: &str) -> &str {
    let mut end = name.len().min(NAME_MAX);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// Most bytes of the code-list section (flag bit 5): the count, at most
/// [`crate::model::MAX_CODES`] numbers of at most 10 bytes, the alphabet
/// and the name with their lengths.
pub fn codes_extra_max() -> usize {
    3 + 10 * crate::model::MAX_CODES + 2 + ALPHABET_MAX + 2 + NAME_MAX
}

/// Writes the code-list section of `list` (docs/format.md, "Code list"):
/// the count, the first code's number and each gap, the alphabet, the
/// name.
pub(super) fn write_codes(out: &mut Vec<u8>, list: &CodeList) {
    write_varint(out, list.len() as u64);
    let mut next = 0u64;
    for i in 0..list.len() {
        let v = list.number(i);
        write_varint(out, v - next);
        next = v + 1;
    }
    let alphabet = list.alphabet().text();
    write_varint(out, alphabet.len() as u64);
    out.extend_from_slice(alphabet.as_bytes());
    let name = stored_name(list.name());
    write_varint(out, name.len() as u64);
    out.extend_from_slice(name.as_bytes());
}

/// Reads the code-list section of a file of `positions` positions and
/// `symbols` symbols, repeats as the flag says.
pub(super) fn read_codes(
    r: &mut Reader<'_>,
    positions: usize,
    symbols: usize,
    repeats: bool,
) -> Result<CodeList, FormatError> {
    let at = r.pos;
    let count = r.varint_usize("listed code count", crate::model::MAX_CODES as u64)?;
    if count == 0 {
        r.pos = at;
        return Err(r.malformed("an empty code list"));
    }
    let mut numbers = Vec::with_capacity(count);
    let mut next = 0u64;
    for _ in 0..count {
        let gap = r.varint("listed code")?;
        let v = next
            .checked_add(gap)
            .ok_or_else(|| r.malformed("a listed code beyond 2^64"))?;
        numbers.push(v);
        next = v
            .checked_add(1)
            .ok_or_else(|| r.malformed("a listed code beyond 2^64"))?;
    }
    let at = r.pos;
    let alphabet = read_text(r, "alphabet", ALPHABET_MAX)?;
    let alphabet = Alphabet::new(&alphabet).map_err(|e| FormatError::Malformed {
        offset: at,
        what: e.to_string(),
    })?;
    if alphabet.len() != symbols {
        r.pos = at;
        return Err(r.malformed(format!(
            "a code list's alphabet of {} letters for {symbols} symbols",
            alphabet.len()
        )));
    }
    let name = read_text(r, "code list name", NAME_MAX)?;
    let list = CodeList::from_numbers(positions, alphabet, &numbers, &name).map_err(|e| {
        FormatError::Malformed {
            offset: at,
            what: e.to_string(),
        }
    })?;
    let listed_repeats = list.rules(crate::model::AnswerRule::BullsCows)?.repeats();
    if listed_repeats != repeats {
        return Err(r.malformed(format!(
            "the repeats flag is {}, but the code list {} repeat a symbol",
            u8::from(repeats),
            if listed_repeats { "does" } else { "does not" }
        )));
    }
    Ok(list)
}

/// A varint length (at most `max`) and that many bytes of UTF-8.
fn read_text(r: &mut Reader<'_>, what: &str, max: usize) -> Result<String, FormatError> {
    let len = r.varint_usize(what, max as u64)?;
    let at = r.pos;
    let bytes = r
        .bytes
        .get(at..at + len)
        .ok_or_else(|| r.malformed(format!("{what} missing")))?;
    let text = std::str::from_utf8(bytes)
        .map_err(|_| r.malformed(format!("{what} is not UTF-8")))?
        .to_string();
    r.pos += len;
    Ok(text)
}

/// Writes the extension of `set`.
pub(super) fn write(out: &mut Vec<u8>, set: &SecretSet) {
    out.push(u8::from(set.guesses == GuessMode::Secrets));
    write_varint(out, set.codes().len() as u64);
    let mut next = 0u64;
    for &c in set.codes() {
        write_varint(out, u64::from(c.0) - next);
        next = u64::from(c.0) + 1;
    }
    let alphabet = set
        .alphabet
        .as_ref()
        .map(Alphabet::text)
        .unwrap_or_default();
    write_varint(out, alphabet.len() as u64);
    out.extend_from_slice(alphabet.as_bytes());
    let name = stored_name(&set.name);
    write_varint(out, name.len() as u64);
    out.extend_from_slice(name.as_bytes());
}

/// Reads the extension of a file of `rules`.
pub(super) fn read(r: &mut Reader<'_>, rules: Rules) -> Result<SecretSet, FormatError> {
    let at = r.pos;
    let guesses = match r.byte("guess mode")? {
        0 => GuessMode::All,
        1 => GuessMode::Secrets,
        other => {
            r.pos = at;
            return Err(r.malformed(format!("unknown guess mode {other}")));
        }
    };
    let n = rules.code_count();
    let at = r.pos;
    let count = r.varint_usize("secret count", n as u64)?;
    if count == 0 {
        r.pos = at;
        return Err(r.malformed("an empty secret list"));
    }
    let mut codes = Vec::with_capacity(count);
    let mut next = 0usize;
    for _ in 0..count {
        let gap = r.varint_usize("secret", n as u64)?;
        let code = next + gap;
        if code >= n {
            return Err(r.malformed(format!("secret #{code} is not a code of {rules}")));
        }
        codes.push(Code(code as u16));
        next = code + 1;
    }
    let text = read_text;
    let at = r.pos;
    let alphabet = text(r, "alphabet", ALPHABET_MAX)?;
    let alphabet = if alphabet.is_empty() {
        None
    } else {
        let a = Alphabet::new(&alphabet).map_err(|e| FormatError::Malformed {
            offset: at,
            what: e.to_string(),
        })?;
        if a.len() != rules.symbols() {
            r.pos = at;
            return Err(r.malformed(format!("an alphabet of {} letters for {rules}", a.len())));
        }
        if rules.is_listed() {
            r.pos = at;
            return Err(r.malformed(
                "an alphabet for the secrets of a code list, which its own alphabet writes",
            ));
        }
        Some(a)
    };
    let name = text(r, "list name", NAME_MAX)?;
    Ok(SecretSet::new(codes, guesses, alphabet, name).expect("count is at least 1"))
}

#[cfg(test)]
mod tests {
    use super::super::{Objective, TreeFile};
    use super::*;
    use crate::heuristic::{build_tree, Heuristic, StrategyConfig};
    use crate::model::game::Game;

    fn listed(codes: &[u16], mode: GuessMode) -> Game {
        let rules: Rules = "moo:3x4".parse().unwrap();
        let set = SecretSet::new(
            codes.iter().map(|&c| Code(c)).collect(),
            mode,
            Some(Alphabet::new("abcd").unwrap()),
            "list.txt".into(),
        )
        .unwrap();
        Game::with_secrets(rules, set)
    }

    #[test]
    fn lists_round_trip_and_are_checked() {
        let game = listed(&[0, 3, 7, 8, 15, 22], GuessMode::Secrets);
        let tree = build_tree(&game, &StrategyConfig::new(Heuristic::Minimax)).unwrap();
        let file = TreeFile::new(&game, tree, Objective::Heuristic, None).unwrap();
        assert_eq!(file.header.stats.secrets, 6);
        let bytes = file.to_bytes(&game).unwrap();
        assert_eq!(bytes[11] & 4, 4, "flag bit 2");
        let back = TreeFile::from_bytes(&bytes, None).unwrap();
        assert_eq!(back, file);
        assert_eq!(back.to_bytes(&game).unwrap(), bytes);
        // Another list, no list, another guess mode: refused.
        for other in [
            listed(&[0, 3, 7, 8, 15], GuessMode::Secrets),
            listed(&[0, 3, 7, 8, 15, 22], GuessMode::All),
            Game::new(game.rules()),
        ] {
            let err = TreeFile::from_bytes_in(&other, &bytes).unwrap_err();
            assert!(matches!(err, FormatError::WrongSecrets { .. }), "{err}");
        }
        // Any truncation or corrupted byte (the checksum fixed up, so the
        // header and the list are parsed): an error or a valid file, never
        // a panic.
        for len in 0..bytes.len() {
            assert!(TreeFile::from_bytes(&bytes[..len], None).is_err());
        }
        for i in 0..bytes.len() {
            for bit in 0..8 {
                let mut b = bytes.clone();
                b[i] ^= 1 << bit;
                let n = b.len() - 4;
                let crc = super::super::wire::crc32(&b[..n]);
                b[n..].copy_from_slice(&crc.to_le_bytes());
                if let Ok(f) = TreeFile::from_bytes(&b, None) {
                    let g = f.header.game();
                    assert_eq!(f.to_bytes(&g).unwrap(), b);
                }
            }
        }
        assert!(stored_name(&"é".repeat(200)).len() <= NAME_MAX);
    }

    /// A game of a word list (Wordle's rule, more codes than the model
    /// numbers for its positions and symbols): its tree file records the
    /// code list, reads back byte for byte without any other argument,
    /// passes the independent checker, and is refused for another list.
    #[test]
    fn code_lists_round_trip_and_are_checked() {
        use crate::model::{AnswerRule, CodeList};
        let words = "cigar\nrebut\nsissy\nhumph\nawake\nblush\nfocal\nevade\nnaval\nserve\n\
                     heath\ndwarf\nmodel\nkarma\nstink\ngrade\nquiet\nbench\nabate\nfeign\n\
                     major\ndeath\nfresh\ncrust\nstool\ncolon\nabase\nmarry\nreact\nbatty\n\
                     salet\ntrace\ncrane\nslate\nroate\nxylyl\nzzzzz\n";
        let list = CodeList::parse(words, None, "words.txt").unwrap();
        let all = Game::of_list(list.clone(), AnswerRule::Wordle, None).unwrap();
        let secrets: Vec<Code> = all.codes().all().filter(|c| c.index() % 2 == 1).collect();
        let set = SecretSet::new(secrets, GuessMode::All, None, "answers.txt".into()).unwrap();
        let game = all.with_secret_set(set);
        assert_eq!(game.rules().code_count(), 37);
        let tree = build_tree(&game, &StrategyConfig::new(Heuristic::Entropy)).unwrap();
        let file = TreeFile::new(&game, tree, Objective::Heuristic, None).unwrap();
        let bytes = file.to_bytes(&game).unwrap();
        assert_eq!(bytes[11] & 32, 32, "flag bit 5");
        let back = TreeFile::from_bytes(&bytes, None).unwrap();
        assert_eq!(back, file);
        let read = back.header.game();
        assert_eq!(read.name(), game.name());
        assert_eq!(back.to_bytes(&read).unwrap(), bytes);
        let stats = crate::tree::check::check(&read, &back.tree, None).unwrap();
        assert_eq!(stats, file.header.stats);
        // Another list of as many words, every word, another rule: refused.
        let other = CodeList::parse(&words.replace("zzzzz", "zzzzy"), None, "w").unwrap();
        let other = Game::of_list(other, AnswerRule::Wordle, None).unwrap();
        for wrong in [other, all, game.with_answer(AnswerRule::BullsCows).unwrap()] {
            assert!(
                TreeFile::from_bytes_in(&wrong, &bytes).is_err(),
                "{}",
                wrong.name()
            );
        }
        // The rules of docs/format.md: the secret list goes with the code
        // list; the repeats flag says whether a listed word repeats a
        // letter (xylyl, zzzzz do).
        let resealed = |flip: u8| {
            let mut b = bytes.clone();
            b[11] ^= flip;
            let n = b.len() - 4;
            let crc = super::super::wire::crc32(&b[..n]);
            b[n..].copy_from_slice(&crc.to_le_bytes());
            TreeFile::from_bytes(&b, None).unwrap_err().to_string()
        };
        assert!(
            resealed(4).contains("flag bit 5 needs flag bit 2"),
            "{}",
            resealed(4)
        );
        assert!(
            resealed(1).contains("the repeats flag is 0"),
            "{}",
            resealed(1)
        );
        // Any truncation or corrupted byte: an error or a valid file.
        for len in 0..bytes.len() {
            assert!(TreeFile::from_bytes(&bytes[..len], None).is_err());
        }
        for i in 0..bytes.len() {
            for bit in [0, 3, 7] {
                let mut b = bytes.clone();
                b[i] ^= 1 << bit;
                let n = b.len() - 4;
                let crc = super::super::wire::crc32(&b[..n]);
                b[n..].copy_from_slice(&crc.to_le_bytes());
                if let Ok(f) = TreeFile::from_bytes(&b, None) {
                    let g = f.header.game();
                    assert_eq!(f.to_bytes(&g).unwrap(), b);
                }
            }
        }
    }
}
