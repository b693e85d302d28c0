//! A node's answers for the class bounds of its guesses, kept for the
//! node's next guesses ([`NodePool`]): it reads the [`Context`] alone, so
//! that the searcher (which makes a pool per node) and the evaluation of a
//! guess (which borrows from it) both import it and not each other.
//!
//! Invariant: a pool changes how fast a guess's bound is found, never the
//! bound (an evaluation given a lease or none gets the same answer).

use crate::model::code::Code;
use crate::search::context::Context;
use crate::search::kernel::NodeAnswers;

/// A node's answers for the class bounds of its guesses' classes
/// ([`crate::search::kernel::NodeAnswers`]), built when a guess of the
/// node first needs them and kept for the next ones: one per thread
/// evaluating the node's guesses at once, each lent to one evaluation.
pub(super) struct NodePool<'t> {
    free: std::sync::Mutex<Vec<NodeAnswers<'t>>>,
    /// Evaluations that asked so far.
    asked: std::sync::atomic::AtomicUsize,
    /// The most answers any guess gives on a node too large for its
    /// answers, counted once when first asked.
    most: std::sync::OnceLock<Option<u64>>,
}

/// Evaluations of a node's guesses before its answers are built: most
/// nodes evaluate a guess or two, and building costs about as much as a
/// few class bounds.
const NODE_ANSWERS_AFTER: usize = 8;

impl<'t> NodePool<'t> {
    pub(super) fn new() -> NodePool<'t> {
        NodePool {
            free: std::sync::Mutex::new(Vec::new()),
            asked: std::sync::atomic::AtomicUsize::new(0),
            most: std::sync::OnceLock::new(),
        }
    }

    /// Answers of `set` (the node's set) for one evaluation: a free one,
    /// or new ones (`None` where they do not apply, or before the node's
    /// [`NODE_ANSWERS_AFTER`]-th evaluation).
    pub(super) fn lend<'p>(&'p self, cx: &'t Context<'_>, set: &[Code]) -> Lease<'p, 't> {
        let asked = self
            .asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let node = if asked < NODE_ANSWERS_AFTER {
            None
        } else {
            let free = self.free.lock().unwrap_or_else(|e| e.into_inner()).pop();
            free.or_else(|| cx.node_answers(set))
        };
        let late = asked >= NODE_ANSWERS_AFTER;
        Lease {
            pool: self,
            node,
            late,
        }
    }
}

/// Answers lent by a [`NodePool`], given back when dropped.
pub(super) struct Lease<'p, 't> {
    pool: &'p NodePool<'t>,
    node: Option<NodeAnswers<'t>>,
    /// Lent from the node's [`NODE_ANSWERS_AFTER`]-th evaluation on.
    late: bool,
}

impl<'t> Lease<'_, 't> {
    /// The node's answers lent, if any.
    #[inline]
    pub(super) fn node_mut(&mut self) -> Option<&mut NodeAnswers<'t>> {
        self.node.as_mut()
    }

    /// The most non-winning answers any guess gives on the node's set
    /// `set`: from its answers, or counted once for a node too large for
    /// them (from the same evaluation on). `None` before, or where the
    /// kernel's counts do not apply.
    #[inline]
    pub(super) fn most(&self, cx: &Context<'_>, set: &[Code]) -> Option<u64> {
        match &self.node {
            Some(node) => Some(u64::from(node.most_answers())),
            None if self.late && set.len() > crate::search::kernel::MAX_SET => {
                *self.pool.most.get_or_init(|| cx.most_answers(set))
            }
            None => None,
        }
    }
}

impl Drop for Lease<'_, '_> {
    fn drop(&mut self) {
        if let Some(node) = self.node.take() {
            let mut free = self.pool.free.lock().unwrap_or_else(|e| e.into_inner());
            free.push(node);
        }
    }
}
