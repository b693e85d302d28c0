//! Opening books: the phased strategy's guesses after its own first moves,
//! computed once ([`build`], `optimoo export --strategy phased --format
//! book`) and looked up by the player, which then answers those moves
//! without building a candidate set (after one guess of moo:10x10 a set
//! holds up to 1,334,961 codes; building and scoring it is most of a
//! player's 100 ms).
//!
//! A book is text: four header lines (`optimoo-book 1`, `game G`,
//! `options …`, `depth D`), then one line a node in preorder, `GUESS SIZE
//! ANSWERS…`: the guess the strategy makes at the node its answers lead to
//! (none at the root; each answer is to the guess of the node above, so
//! the history is implied) over the `SIZE` codes still possible there;
//! last the line `crc32 XXXXXXXX`, the CRC-32 of every byte before it
//! (docs/huge.md shows a book).
//!
//! Invariants:
//! - Every node is the strategy's: its guess is what [`Chooser::choose`]
//!   returns for its candidate set (of `SIZE` codes), its history is the
//!   strategy's own guesses with every answer some code gives, and every
//!   node of fewer than `depth` levels is listed (the root is level 1).
//!   [`build`] makes them so; tests compute them again.
//! - A book answers only the game and the options it records: [`Book::read`]
//!   gives `None` for another game or other options (a stale book is never
//!   trusted), and an error for text that is not a book or fails its
//!   checksum; it never panics.
//! - [`Book::lookup`] answers a history whose first guess is the book's
//!   first guess with its symbols renamed (any first guess of moo:10x10 is
//!   one): the renamed history's node, its guess renamed back. Renaming
//!   symbols changes no answer, so that guess splits the history's
//!   candidates exactly as the strategy's guess splits the book's.

use crate::exec::Parallel;
use crate::model::Feedback;
use crate::tree::format::wire::crc32;

use super::{Chooser, Phased};
use crate::model::shape::{Packed, Shape};

/// The first line of every book, with its version.
const MAGIC: &str = "optimoo-book 1";

/// Errors reading a book.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BookError {
    /// Not a book, a version this reader does not know, or a bad line.
    #[error("not an optimoo book (line {line}): {why}")]
    Syntax {
        /// 1-based line number
        line: usize,
        /// what is wrong
        why: String,
    },
    /// The checksum does not match.
    #[error("the book's checksum does not match: the file is damaged")]
    Checksum,
}

/// A node's key: the history, each move a guess and its answer.
type History = Vec<(Packed, Feedback)>;

/// The strategy's guesses at its first levels, for one game and options.
#[derive(Debug, Clone)]
pub struct Book {
    shape: Shape,
    depth: usize,
    first: Packed,
    /// The nodes in preorder, answers in order: history, guess, size. A
    /// book has a few hundred nodes; a lookup scans them (no map: the
    /// player's binary stays small).
    nodes: Vec<(History, Packed, u64)>,
}

/// The options as the book records them.
fn options_line(opts: &Phased) -> String {
    format!("options {opts:?}")
}

impl Book {
    /// Levels listed (the root is level 1).
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Nodes listed.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether no node is listed (never, for a book read or built).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Every node: its history, guess and candidate count, in preorder.
    pub fn nodes(&self) -> impl Iterator<Item = (&[(Packed, Feedback)], Packed, u64)> + '_ {
        self.nodes.iter().map(|(h, g, n)| (h.as_slice(), *g, *n))
    }

    /// The strategy's guess after `history` and the number of codes still
    /// possible, when the book lists the node (its first guess renamed:
    /// see the module doc); `None` otherwise.
    pub fn lookup(&self, history: &[(Packed, Feedback)]) -> Option<(Packed, u64)> {
        let Some(&(g0, _)) = history.first() else {
            return self.find(&[]);
        };
        if history.len() >= self.depth {
            return None;
        }
        let map = self.renaming(g0)?;
        let mut back = [0u8; 16];
        for (s, &t) in map.iter().enumerate().take(self.shape.symbols()) {
            back[t as usize] = s as u8;
        }
        let key: History = history
            .iter()
            .map(|&(g, f)| (self.rename(g, &map), f))
            .collect();
        let (guess, n) = self.find(&key)?;
        Some((self.rename(guess, &back), n))
    }

    /// The guess and size of the node `history`, if listed.
    fn find(&self, history: &[(Packed, Feedback)]) -> Option<(Packed, u64)> {
        self.nodes
            .iter()
            .find(|(h, _, _)| h == history)
            .map(|&(_, g, n)| (g, n))
    }

    /// A renaming of the symbols that takes `guess` to the book's first
    /// guess (the symbols it does not use kept in order), if one does.
    fn renaming(&self, guess: Packed) -> Option<[u8; 16]> {
        let (from, to) = (
            self.shape.symbols_of(guess),
            self.shape.symbols_of(self.first),
        );
        let mut map = [u8::MAX; 16];
        let mut taken = [false; 16];
        for (&a, &b) in from.iter().zip(&to) {
            match map[a as usize] {
                u8::MAX if !taken[b as usize] => {
                    map[a as usize] = b;
                    taken[b as usize] = true;
                }
                m if m == b => {}
                _ => return None,
            }
        }
        let mut free = (0..self.shape.symbols() as u8).filter(|&t| !taken[t as usize]);
        for m in map.iter_mut().take(self.shape.symbols()) {
            if *m == u8::MAX {
                *m = free.next().expect("as many targets as symbols");
            }
        }
        Some(map)
    }

    fn rename(&self, code: Packed, map: &[u8; 16]) -> Packed {
        let symbols: Vec<u8> = self
            .shape
            .symbols_of(code)
            .into_iter()
            .map(|s| map[s as usize])
            .collect();
        self.shape.pack(&symbols)
    }

    /// The book as text (see the module doc), its checksum line last.
    pub fn to_text(&self, opts: &Phased) -> String {
        let shape = &self.shape;
        let mut text = format!(
            "{MAGIC}\ngame {shape}\n{}\ndepth {}\n",
            options_line(opts),
            self.depth
        );
        for (history, guess, n) in self.nodes() {
            text += &format!("{} {n}", shape.format(guess));
            for &(_, f) in history {
                text += &format!(" {}", f.format(shape.positions()));
            }
            text.push('\n');
        }
        let crc = crc32(text.as_bytes());
        text + &format!("crc32 {crc:08x}\n")
    }

    /// Reads a book for `shape` played with `opts`: `Ok(None)` when the
    /// text is a book of another game or other options.
    pub fn read(shape: Shape, opts: &Phased, text: &str) -> Result<Option<Book>, BookError> {
        let bad = |line: usize, why: String| BookError::Syntax { line, why };
        let body_end = text.trim_end_matches('\n').rfind('\n').map_or(0, |i| i + 1);
        let (body, last) = text.split_at(body_end);
        let lines: Vec<&str> = body.lines().collect();
        let last_no = lines.len() + 1;
        let crc = last
            .trim_end()
            .strip_prefix("crc32 ")
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or_else(|| bad(last_no, "the last line must be `crc32 XXXXXXXX`".into()))?;
        if crc32(body.as_bytes()) != crc {
            return Err(BookError::Checksum);
        }
        if lines.first() != Some(&MAGIC) {
            return Err(bad(1, format!("the first line must be {MAGIC:?}")));
        }
        let field = |i: usize, name: &str| {
            lines
                .get(i)
                .and_then(|l| l.strip_prefix(name))
                .and_then(|l| l.strip_prefix(' '))
                .ok_or_else(|| bad(i + 1, format!("line {} must be `{name} …`", i + 1)))
        };
        if field(1, "game")? != shape.to_string()
            || lines.get(2).copied() != Some(options_line(opts).as_str())
        {
            field(2, "options")?;
            return Ok(None);
        }
        let depth: usize = field(3, "depth")?
            .parse()
            .map_err(|_| bad(4, "the depth is a number".into()))?;
        let mut book = Book {
            shape,
            depth,
            first: Packed::default(),
            nodes: Vec::new(),
        };
        for (i, line) in lines.iter().enumerate().skip(4) {
            let mut words = line.split(' ');
            let code = |w: Option<&str>| {
                shape
                    .parse(w.unwrap_or(""))
                    .map_err(|e| bad(i + 1, e.to_string()))
            };
            let guess = code(words.next())?;
            let n: u64 = words
                .next()
                .and_then(|w| w.parse().ok())
                .ok_or_else(|| bad(i + 1, "a node's second word is its size".into()))?;
            // Each answer is to the guess of the node it leaves.
            let mut history = History::new();
            for w in words {
                let answer = shape
                    .parse_feedback(w)
                    .map_err(|e| bad(i + 1, e.to_string()))?;
                let (above, _) = book
                    .find(&history)
                    .ok_or_else(|| bad(i + 1, "a node listed before the node above it".into()))?;
                history.push((above, answer));
            }
            if history.len() >= depth {
                return Err(bad(i + 1, format!("a node deeper than depth {depth}")));
            }
            if history.is_empty() {
                book.first = guess;
            }
            if book.find(&history).is_some() {
                return Err(bad(i + 1, "a node listed twice".into()));
            }
            book.nodes.push((history, guess, n));
        }
        if book.find(&[]).is_none() {
            return Err(bad(5, "the root is the first node".into()));
        }
        Ok(Some(book))
    }
}

/// The book of `chooser`'s strategy to `depth` levels (at least 1): every
/// node above that depth, its guess chosen as the walk chooses it. Holds
/// every code of the game (the caller states the memory first:
/// [`Shape::memory_bytes`]); `done` is called after each node.
pub fn build(chooser: &Chooser, depth: usize, par: &dyn Parallel, done: &dyn Fn(usize)) -> Book {
    let shape = chooser.shape();
    let mut all = shape.all_codes();
    let first = chooser.choose(&all, par);
    let mut book = Book {
        shape,
        depth: depth.max(1),
        first,
        nodes: Vec::new(),
    };
    let n = all.len() as u64;
    book.add(Vec::new(), first, n, done);
    grow(
        chooser,
        &mut book,
        &mut all,
        &mut Vec::new(),
        first,
        par,
        done,
    );
    book
}

impl Book {
    fn add(&mut self, history: History, guess: Packed, n: u64, done: &dyn Fn(usize)) {
        self.nodes.push((history, guess, n));
        done(self.nodes.len());
    }
}

/// Lists the children of the node `history` (set `set`, guess `guess`)
/// and their subtrees, down to the book's depth.
fn grow(
    chooser: &Chooser,
    book: &mut Book,
    set: &mut [Packed],
    history: &mut History,
    guess: Packed,
    par: &dyn Parallel,
    done: &dyn Fn(usize),
) {
    if history.len() + 1 >= book.depth {
        return;
    }
    let k = book.shape.positions();
    let classes = book.shape.partition(guess, set, None);
    let mut rest = set;
    for (f, len) in classes {
        let (class, tail) = std::mem::take(&mut rest).split_at_mut(len);
        rest = tail;
        let answer = Feedback(f as u8);
        if answer == Feedback::win(k) {
            continue;
        }
        let next = chooser.choose(class, par);
        history.push((guess, answer));
        book.add(history.clone(), next, len as u64, done);
        grow(chooser, book, class, history, next, par, done);
        history.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::Sequential;

    fn book_of(game: &str, depth: usize) -> (Chooser, Book) {
        let shape: Shape = game.parse().unwrap();
        let chooser = Chooser::new(shape, Phased::default()).unwrap();
        let book = build(&chooser, depth, &Sequential, &|_| {});
        (chooser, book)
    }

    /// Every node is the strategy's choice on its own candidates (built
    /// from the history alone), with their number; every class of every
    /// node above the last level is listed, and none below it.
    #[test]
    fn nodes_are_the_strategys_choices() {
        for (game, depth) in [
            ("moo:4x10", 3),
            ("mm:4x6", 3),
            ("moo:3x8", 4),
            ("mm:2x16", 2),
        ] {
            let (chooser, book) = book_of(game, depth);
            let shape = chooser.shape();
            let win = Feedback::win(shape.positions());
            for (history, guess, n) in book.nodes() {
                let mut set = shape.candidates(history);
                assert_eq!(set.len() as u64, n, "{game} {history:?}");
                assert_eq!(chooser.choose(&set, &Sequential), guess, "{game}");
                assert_eq!(book.lookup(history), Some((guess, n)));
                let classes = shape.partition(guess, &mut set, None);
                let mut below = history.to_vec();
                below.push((guess, win));
                for (f, len) in classes {
                    below.last_mut().unwrap().1 = Feedback(f as u8);
                    let listed = book.lookup(&below);
                    if f == win.index() || history.len() + 2 > depth {
                        assert_eq!(listed, None, "{game}");
                    } else {
                        assert_eq!(listed.map(|(_, n)| n), Some(len as u64), "{game}");
                    }
                }
            }
            assert!(book.len() > 1 + shape.positions(), "{game}: {}", book.len());
        }
    }

    /// Written and read back, a book is the same; another game or other
    /// options read as no book; damage is an error, never a panic.
    #[test]
    fn text_round_trips_and_damage_is_refused() {
        let (chooser, book) = book_of("moo:4x10", 3);
        let opts = *chooser.options();
        let text = book.to_text(&opts);
        let back = Book::read(chooser.shape(), &opts, &text).unwrap().unwrap();
        assert!(back.nodes().eq(book.nodes()));
        assert_eq!(back.depth(), 3);
        let other = Phased {
            climb: opts.climb + 1,
            ..opts
        };
        assert!(Book::read(chooser.shape(), &other, &text)
            .unwrap()
            .is_none());
        let game: Shape = "moo:4x9".parse().unwrap();
        assert!(Book::read(game, &opts, &text).unwrap().is_none());
        // One character changed anywhere: the checksum (or the last line).
        let bytes = text.as_bytes();
        let mut rng = crate::rng::SplitMix64::new(7);
        for _ in 0..500 {
            let mut bad = bytes.to_vec();
            let at = (rng.next_u64() % bad.len() as u64) as usize;
            bad[at] = b"0123456789 ABx\n"[(rng.next_u64() % 15) as usize];
            if bad == bytes {
                continue;
            }
            let Ok(t) = String::from_utf8(bad) else {
                continue;
            };
            assert!(Book::read(chooser.shape(), &opts, &t).is_err(), "{at}");
            let cut = (rng.next_u64() % t.len() as u64) as usize;
            if t.is_char_boundary(cut) {
                let _ = Book::read(chooser.shape(), &opts, &t[..cut]);
            }
        }
        // Well sealed but wrong inside: errors that name the line.
        let seal = |body: &str| format!("{body}crc32 {:08x}\n", crc32(body.as_bytes()));
        let head = format!("{MAGIC}\ngame moo:4x10\n{}\ndepth 3\n", options_line(&opts));
        for (body, line) in [
            ("optimoo-book 2\n".to_string(), 1),
            (head.clone() + "0123 5040\n0A1B 9999 0A1B\n", 6),
            (head.clone() + "0123 5040\n4567 1440 0A1B 1A1B\n", 6),
            (
                head.clone() + "0123 5040\n4567 1440 0A1B\n4567 1440 0A1B\n",
                7,
            ),
            (
                head.clone() + "0123 5040\n4567 1440 0A1B\n1234 10 0A1B 0A1B 0A1B\n",
                7,
            ),
            (head.clone() + "0123 5040\n0124 x\n", 6),
            (head.clone() + "4567 1440 0A1B\n", 5),
            (head.clone(), 5),
        ] {
            match Book::read(chooser.shape(), &opts, &seal(&body)) {
                Err(BookError::Syntax { line: l, .. }) => assert_eq!(l, line, "{body}"),
                other => panic!("{body}: {other:?}"),
            }
        }
    }

    /// A history whose first guess is the book's with its symbols renamed
    /// is answered with the renamed guess, which splits the renamed
    /// candidates as the book's guess splits its own; a first guess of
    /// another pattern is not in the book.
    #[test]
    fn renamed_histories_are_answered() {
        for (game, other) in [("moo:4x10", None), ("mm:4x6", Some("0000"))] {
            let (chooser, book) = book_of(game, 3);
            let shape = chooser.shape();
            // The book's first guess, each symbol s renamed (s + 3) mod n,
            // then reversed (for the patterns here, one renaming).
            let n = shape.symbols() as u8;
            let mut renamed: Vec<u8> = shape
                .symbols_of(book.first)
                .iter()
                .map(|s| (s + 3) % n)
                .collect();
            renamed.reverse();
            let g = shape.pack(&renamed);
            let first = shape.format(g);
            let sizes = |guess: Packed, set: &mut Vec<Packed>| {
                let mut s: Vec<usize> = shape
                    .partition(guess, set, None)
                    .iter()
                    .map(|c| c.1)
                    .collect();
                s.sort();
                s
            };
            let mut seen = 0;
            for (history, guess, n) in book.nodes().filter(|(h, _, _)| h.len() == 1) {
                let moved = [(g, history[0].1)];
                let Some((ours, m)) = book.lookup(&moved) else {
                    panic!("{game}: {first} not renamed")
                };
                assert_eq!(m, n);
                let mut set = shape.candidates(&moved);
                assert_eq!(set.len() as u64, n);
                let mut theirs = shape.candidates(history);
                assert_eq!(sizes(ours, &mut set), sizes(guess, &mut theirs), "{game}");
                seen += 1;
            }
            assert!(seen > 3);
            if let Some(o) = other {
                let o = shape.parse(o).unwrap();
                assert_eq!(book.lookup(&[(o, Feedback::new(0, 1, 4))]), None);
            }
        }
    }
}
