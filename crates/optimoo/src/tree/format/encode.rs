//! Writing a tree file.
//!
//! Invariant: only a tree that passes [`Tree::replay`] (the one structural
//! check: legal guesses, exactly the reachable children, in order, at most
//! [`crate::tree::MAX_DEPTH`] deep) and a consistent header are written, and what is
//! written decodes to the same tree and header: encoding is canonical.
//! Implied leaves are used whenever the tree allows them.
//!
//! [`Tree::replay`]: crate::tree::Tree::replay

use super::header::write_header;
use super::wire::{seal, write_varint, CHECKSUM, FIXED_HEADER};
use super::{FormatError, TreeFile};
use crate::model::code::Code;
use crate::model::game::Game;
use crate::model::partition;
use crate::tree::Node;
use crate::tree::MAX_DEPTH;

/// Encodes `file`, whose tree and header must play `game`.
pub(super) fn encode(game: &Game, file: &TreeFile) -> Result<Vec<u8>, FormatError> {
    let h = &file.header;
    if file.tree.rules != game.rules() || h.rules != game.rules() {
        return Err(FormatError::WrongGame {
            file: file.tree.rules,
            expected: game.rules(),
        });
    }
    if h.secrets.as_ref() != game.secret_set() {
        return Err(FormatError::WrongSecrets {
            file: h
                .secrets
                .as_ref()
                .map_or("every code".into(), |s| s.describe()),
            given: super::describe_secrets(game),
        });
    }
    let stats = &h.stats;
    let sum = stats
        .histogram
        .iter()
        .try_fold(0u64, |sum, &c| sum.checked_add(c));
    let header_problem = if stats.max_depth > MAX_DEPTH || stats.histogram.len() != stats.max_depth
    {
        Some(format!(
            "max depth {} with a histogram of {} entries",
            stats.max_depth,
            stats.histogram.len()
        ))
    } else if sum != Some(stats.secrets) {
        Some(format!(
            "{} secrets, but the histogram adds up to {sum:?}",
            stats.secrets
        ))
    } else if h.cap.is_some_and(|c| c == 0 || c > u32::MAX as usize) {
        Some(format!("cap {:?} is not 1 to {}", h.cap, u32::MAX))
    } else {
        None
    };
    super::check_bound(h, Some(&file.tree))?;
    if let Some(what) = header_problem {
        return Err(FormatError::Malformed {
            offset: 0,
            what: format!("header: {what}"),
        });
    }
    // The one structural check (the walks below trust the structure).
    file.tree.replay(game, None)?;
    let all = game.secrets();
    // Implied leaves when every one-secret node guesses its secret (always
    // so for a sensible tree); else every node is written.
    let mut body = Vec::new();
    let implied = match encode_node(game, &file.tree.root, &all, true, &mut body) {
        Ok(()) => true,
        Err(Unimplied) => {
            body.clear();
            // Without implied leaves every node is written: cannot fail.
            let _ = encode_node(game, &file.tree.root, &all, false, &mut body);
            false
        }
    };
    let mut out = Vec::with_capacity(FIXED_HEADER + 16 + body.len() + CHECKSUM);
    write_header(&mut out, h, implied);
    out.extend_from_slice(&body);
    seal(out)
}

/// A one-secret node guesses something else: leaves cannot be implied.
struct Unimplied;

/// The rank of `guess` in `set`-first order (see the module doc of
/// [`super`]); the inverse of [`super::decode::unrank`].
pub(super) fn rank(set: &[Code], guess: Code) -> usize {
    match set.binary_search(&guess) {
        Ok(i) => i,
        Err(below) => set.len() + guess.index() - below,
    }
}

/// Writes the guesses of a structurally valid subtree, preorder; stops
/// early only when `implied` and a leaf cannot be implied.
fn encode_node(
    game: &Game,
    node: &Node,
    set: &[Code],
    implied: bool,
    out: &mut Vec<u8>,
) -> Result<(), Unimplied> {
    if set.len() == 1 && implied {
        if node.guess == set[0] && node.children.is_empty() {
            return Ok(());
        }
        return Err(Unimplied);
    }
    write_varint(out, rank(set, node.guess) as u64);
    for (f, class) in partition::split(game, node.guess, set) {
        if f == game.win() {
            continue;
        }
        if let Some(child) = node.child(f) {
            encode_node(game, child, &class, implied, out)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::decode::unrank;
    use super::super::wire::crc32;
    use super::super::Objective;
    use super::*;

    #[test]
    fn ranks_order_the_set_first() {
        let set = [Code(1), Code(3), Code(4)];
        let order: Vec<Code> = (0..7).map(|r| unrank(&set, r, 7).unwrap()).collect();
        assert_eq!(
            order,
            [1, 3, 4, 0, 2, 5, 6].map(Code),
            "candidates first, then the others in code order"
        );
        for (r, &c) in order.iter().enumerate() {
            assert_eq!(rank(&set, c), r);
        }
        assert_eq!(unrank(&set, 7, 7), None);
    }

    /// mm:1x3 guessing 0, then 1, then 2: two written nodes, one implied.
    #[test]
    fn small_file_layout() {
        let (game, tree) = crate::tree::chain();
        let file = TreeFile::new(&game, tree, Objective::Average, Some(3)).unwrap();
        let bytes = file.to_bytes(&game).unwrap();
        let mut expected = b"MOOT\x01".to_vec();
        expected.extend_from_slice(&25u32.to_le_bytes());
        // k=1, n=3, repeats + implied leaves, average; cap 3, total 6,
        // depth 3, histogram 1 1 1; body: rank 0 at the root, rank 0 in
        // {1, 2}; the leaf {2} is implied.
        expected.extend_from_slice(&[1, 3, 3, 0, 3, 6, 3, 1, 1, 1, 0, 0]);
        let crc = crc32(&expected);
        assert_eq!(crc, 0x7f1d_597d, "the example of docs/format.md");
        expected.extend_from_slice(&crc.to_le_bytes());
        assert_eq!(bytes, expected);
        assert_eq!(TreeFile::from_bytes(&bytes, None).unwrap(), file);
    }

    #[test]
    fn inconsistent_headers_are_not_written() {
        let (game, tree) = crate::tree::chain();
        let good = TreeFile::new(&game, tree, Objective::Average, Some(3)).unwrap();
        let edits: [fn(&mut TreeFile); 4] = [
            |f| f.header.cap = Some(0),
            |f| f.header.stats.secrets += 1,
            |f| f.header.stats.histogram.push(0),
            |f| f.header.stats.histogram[0] = u64::MAX,
        ];
        for edit in edits {
            let mut file = good.clone();
            edit(&mut file);
            assert!(matches!(
                file.to_bytes(&game),
                Err(FormatError::Malformed { offset: 0, .. })
            ));
        }
    }
}
