//! Reading a tree file's body back into a tree.
//!
//! Invariant: a decoded tree is structurally valid by construction. Each
//! node's set of remaining secrets is split with [`partition::split`], the
//! same split-by-guess as everywhere else, and exactly one child is read per
//! non-winning class, in feedback order; ranks name legal codes; no path
//! goes deeper than [`crate::tree::MAX_DEPTH`], which bounds the recursion. The reader
//! never panics, whatever the bytes. Only the canonical encoding is
//! accepted: a file without the implied-leaves flag must have a one-secret
//! node that does not guess its secret (else the writer sets the flag).

use super::header::read_header;
use super::wire::{check_frame, Reader};
use super::{FormatError, TreeFile};
use crate::model::code::Code;
use crate::model::game::Game;
use crate::model::partition;
use crate::tree::MAX_DEPTH;
use crate::tree::{Node, Tree};

/// Decodes a whole file that must play `game`.
pub(super) fn decode(game: &Game, bytes: &[u8]) -> Result<TreeFile, FormatError> {
    let content = check_frame(bytes)?;
    let mut r = Reader::new(content);
    let (header, implied) = read_header(&mut r)?;
    if header.rules != game.rules() {
        return Err(FormatError::WrongGame {
            file: header.rules,
            expected: game.rules(),
        });
    }
    let same = match (&header.secrets, game.secret_set()) {
        (None, None) => true,
        (Some(a), Some(b)) => a.same_game(b),
        _ => false,
    } && header.universe.as_ref().map(|l| l.alphabet())
        == game.code_list().map(|l| l.alphabet());
    if !same {
        return Err(FormatError::WrongSecrets {
            file: super::describe_secrets(&header.game()),
            given: super::describe_secrets(game),
        });
    }
    let mut decoder = Decoder {
        game,
        implied,
        wasted_leaf: false,
    };
    let root = decoder.node(&mut r, &game.secrets(), 1)?;
    if !implied && !decoder.wasted_leaf {
        return Err(FormatError::Malformed {
            offset: 11,
            what: "leaves are written although every one-secret node guesses its secret \
                   (the implied-leaves flag must be set)"
                .into(),
        });
    }
    if !r.at_end() {
        return Err(r.malformed(format!(
            "{} bytes left after the tree",
            content.len() - r.pos
        )));
    }
    let tree = Tree {
        rules: header.rules,
        root,
    };
    super::check_bound(&header, Some(&tree))?;
    Ok(TreeFile { tree, header })
}

/// The code of rank `r` in `set`-first order (see the module doc of
/// [`super`]), if `r` is below `codes`.
pub(super) fn unrank(set: &[Code], r: usize, codes: usize) -> Option<Code> {
    if r < set.len() {
        return Some(set[r]);
    }
    let mut c = r - set.len();
    if c >= codes - set.len() {
        return None;
    }
    // The c-th code outside the sorted set: skip each member at or below.
    for s in set {
        if s.index() <= c {
            c += 1;
        } else {
            break;
        }
    }
    Some(Code(c as u16))
}

struct Decoder<'a> {
    game: &'a Game,
    implied: bool,
    /// Whether some one-secret node guesses another code.
    wasted_leaf: bool,
}

impl Decoder<'_> {
    /// Reads the subtree of a node whose remaining secrets are `set`
    /// (sorted, not empty), `depth` guesses from the root.
    fn node(
        &mut self,
        r: &mut Reader<'_>,
        set: &[Code],
        depth: usize,
    ) -> Result<Node, FormatError> {
        if depth > MAX_DEPTH {
            return Err(r.malformed(format!("the tree goes deeper than {MAX_DEPTH} guesses")));
        }
        if self.implied && set.len() == 1 {
            return Ok(Node::leaf(set[0]));
        }
        let game = self.game;
        let at = r.pos;
        let v = r.varint("guess")?;
        let guess = usize::try_from(v)
            .ok()
            .and_then(|v| unrank(set, v, game.len()))
            .ok_or_else(|| FormatError::Malformed {
                offset: at,
                what: format!(
                    "guess rank {v} is not below the {} codes of {}",
                    game.len(),
                    game.rules()
                ),
            })?;
        if !game.is_guess(guess) {
            return Err(FormatError::Malformed {
                offset: at,
                what: format!(
                    "guess {} is not in the secret list (guesses: secrets)",
                    game.format_code(guess)
                ),
            });
        }
        if set.len() == 1 && guess != set[0] {
            self.wasted_leaf = true;
        }
        let mut children = Vec::new();
        for (f, class) in partition::split(game, guess, set) {
            if f != game.win() {
                children.push((f, self.node(r, &class, depth + 1)?));
            }
        }
        Ok(Node { guess, children })
    }
}
