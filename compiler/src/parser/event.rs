//! The parser's output: a flat list of events (start node, token, finish
//! node). The parser only emits them; `crate::parsing` builds the tree.

use crate::syntax::SyntaxKind;

/// One step of tree construction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Event {
    /// Open a node. `kind == TOMBSTONE_KIND` with no parent means "ignore";
    /// `forward_parent` is the distance to a later `Start` that must be
    /// opened *before* this one (set by `precede`).
    Start {
        kind: SyntaxKind,
        forward_parent: Option<usize>,
    },
    /// Consume the next raw token (of the given kind).
    Token { kind: SyntaxKind },
    /// Close the innermost open node.
    Finish,
}

/// Placeholder kind of a start event that was never completed.
pub(crate) const TOMBSTONE_KIND: SyntaxKind = SyntaxKind::EOF;

impl Event {
    pub(crate) fn tombstone() -> Self {
        Event::Start {
            kind: TOMBSTONE_KIND,
            forward_parent: None,
        }
    }
}
