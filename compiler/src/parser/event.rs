//! The parser's output: a flat list of events (start node, token, finish
//! node). The parser only emits them; `crate::parsing` builds the tree.
//!
//! An event is 8 bytes, and the parser hands its events to the tree
//! builder after every top-level statement (see `Parser::statement_done`),
//! so the list holds one top-level statement's events at a time rather
//! than the whole file's (about 30 events a line).

use crate::syntax::SyntaxKind;
use std::num::NonZeroU32;

/// One step of tree construction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Event {
    /// Open a node. `kind == TOMBSTONE_KIND` with no parent means "ignore";
    /// `forward_parent` is the distance to a later `Start` that must be
    /// opened *before* this one (set by `precede`).
    Start {
        kind: SyntaxKind,
        forward_parent: Option<NonZeroU32>,
    },
    /// Consume the next raw token (of the given kind).
    Token { kind: SyntaxKind },
    /// Close the innermost open node.
    Finish,
}

/// Placeholder kind of a start event that was never completed.
pub(crate) const TOMBSTONE_KIND: SyntaxKind = SyntaxKind::EOF;

const _: () = assert!(std::mem::size_of::<Event>() == 8);

impl Event {
    pub(crate) fn tombstone() -> Self {
        Event::Start {
            kind: TOMBSTONE_KIND,
            forward_parent: None,
        }
    }
}
