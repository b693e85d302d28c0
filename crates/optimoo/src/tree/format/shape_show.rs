//! The tree file of a shape shown: as JSON (the schema of `optimoo export
//! --format json`, byte for byte) and as a Graphviz picture (the one of
//! `crate::tree::dot`), streamed from the replay of
//! [`super::shape`] without building a tree. Public as
//! `tree::format::shape::{write_json, write_dot}`.
//!
//! Invariant: what is written is what the replay visits, in its order;
//! nothing is held but the replay.

use std::io::{self, Write};

use crate::model::shape::{Packed, Shape};
use crate::model::Feedback;
use crate::tree::dot;

use super::shape::{peek, replay, FileError, Replay, Visitor};

/// Writes the tree of a file of a [`Shape`] as JSON, in the schema of
/// `optimoo export --format json` for small games, byte for byte:
/// `{"game":{"positions":K,"symbols":N,"repeats":B},"root":NODE}` and a
/// line end, each node `{"guess":"0123","next":{"0A1B":NODE,...}}` (a leaf
/// has an empty `next`; answers in feedback order). Streamed: nothing is
/// held but the replay. Returns the replay (its claims not checked).
pub fn write_json(bytes: &[u8], out: &mut dyn Write) -> Result<Replay, FileError> {
    let shape = peek(bytes)?.shape;
    write!(
        out,
        "{{\"game\":{{\"positions\":{},\"symbols\":{},\"repeats\":{}}},\"root\":",
        shape.positions(),
        shape.symbols(),
        shape.repeats()
    )?;
    let mut json = Json {
        out,
        shape,
        first: Vec::new(),
    };
    let replay = replay(bytes, &mut json)?;
    writeln!(json.out, "}}")?;
    Ok(replay)
}

/// The JSON visitor: `first[d]` says whether the node at nesting `d` has
/// written no child yet.
struct Json<'w> {
    out: &'w mut dyn Write,
    shape: Shape,
    first: Vec<bool>,
}

impl Visitor for Json<'_> {
    fn enter(&mut self, guess: Packed, _: &[Packed], _: usize) -> io::Result<()> {
        self.first.push(true);
        write!(
            self.out,
            "{{\"guess\":\"{}\",\"next\":{{",
            self.shape.format(guess)
        )
    }

    fn answer(&mut self, answer: Feedback) -> io::Result<()> {
        let first = self.first.last_mut().expect("inside a node");
        if !std::mem::replace(first, false) {
            self.out.write_all(b",")?;
        }
        write!(self.out, "\"{}\":", answer.format(self.shape.positions()))
    }

    fn leave(&mut self) -> io::Result<()> {
        self.first.pop();
        self.out.write_all(b"}}")
    }
}

/// Draws the tree of a file of a [`Shape`] in Graphviz `dot` syntax, as
/// `tree::dot::render` draws a small game's tree (byte for byte): the
/// first `depth` levels (all with `None`), a subtree cut at the limit
/// drawn dashed with the number of nodes it hides, a guess that cannot
/// win grey, `caption` the title's first line. Streamed: a cut subtree is
/// replayed and counted, not held. Returns the replay (its claims not
/// checked).
pub fn write_dot(
    bytes: &[u8],
    caption: &str,
    depth: Option<usize>,
    out: &mut dyn Write,
) -> Result<Replay, FileError> {
    let shape = peek(bytes)?.shape;
    out.write_all(dot::preamble(caption, depth).as_bytes())?;
    let mut picture = Dot {
        out,
        shape,
        limit: depth.unwrap_or(usize::MAX),
        next_id: 0,
        open: Vec::new(),
        cut: None,
    };
    let replay = replay(bytes, &mut picture)?;
    picture.out.write_all(dot::END.as_bytes())?;
    Ok(replay)
}

/// A node drawn whose children are not all drawn yet: its id, and the
/// answer of the child being drawn.
struct Open {
    id: usize,
    answer: Option<Feedback>,
}

/// A node cut at the depth limit, drawn once its subtree is counted.
struct Cut {
    id: usize,
    guess: Packed,
    secrets: usize,
    candidate: bool,
    /// Nodes of the subtree entered so far (the cut node left out).
    hidden: usize,
    /// Of those, the ones not left yet.
    inside: usize,
}

/// The picture visitor.
struct Dot<'w> {
    out: &'w mut dyn Write,
    shape: Shape,
    limit: usize,
    next_id: usize,
    open: Vec<Open>,
    cut: Option<Cut>,
}

impl Visitor for Dot<'_> {
    fn enter(&mut self, guess: Packed, set: &[Packed], depth: usize) -> io::Result<()> {
        if let Some(cut) = &mut self.cut {
            cut.hidden += 1;
            cut.inside += 1;
            return Ok(());
        }
        let id = self.next_id;
        self.next_id += 1;
        let candidate = set.binary_search(&guess).is_ok();
        let children = set.len() > usize::from(candidate);
        if depth >= self.limit && children {
            self.cut = Some(Cut {
                id,
                guess,
                secrets: set.len(),
                candidate,
                hidden: 0,
                inside: 0,
            });
            return Ok(());
        }
        let line = dot::node_line(id, &self.shape.format(guess), set.len(), None, candidate);
        self.out.write_all(line.as_bytes())?;
        self.open.push(Open { id, answer: None });
        Ok(())
    }

    fn answer(&mut self, answer: Feedback) -> io::Result<()> {
        if self.cut.is_none() {
            if let Some(open) = self.open.last_mut() {
                open.answer = Some(answer);
            }
        }
        Ok(())
    }

    fn leave(&mut self) -> io::Result<()> {
        let id = match &mut self.cut {
            Some(cut) if cut.inside > 0 => {
                cut.inside -= 1;
                return Ok(());
            }
            Some(cut) => {
                let line = dot::node_line(
                    cut.id,
                    &self.shape.format(cut.guess),
                    cut.secrets,
                    Some(cut.hidden),
                    cut.candidate,
                );
                self.out.write_all(line.as_bytes())?;
                let id = cut.id;
                self.cut = None;
                id
            }
            None => match self.open.pop() {
                Some(open) => open.id,
                None => return Ok(()),
            },
        };
        if let Some(Open {
            id: parent,
            answer: Some(answer),
        }) = self.open.last()
        {
            let line = dot::edge_line(*parent, id, &answer.format(self.shape.positions()));
            self.out.write_all(line.as_bytes())?;
        }
        Ok(())
    }
}
