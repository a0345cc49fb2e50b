//! The lossless syntax tree of Festina: its kinds ([`SyntaxKind`]), the
//! rowan language tag and node types, and [`SyntaxError`].
//!
//! The tree is built by [`crate::parsing`] from the events of
//! [`crate::parser`] (the layers are described there); typed views over
//! it live in [`crate::ast`]. The text of a tree's root always equals the
//! source, byte for byte, whatever the source.

#![warn(missing_docs)]

mod kind;

pub use kind::{binary_precedence, SyntaxKind};

use rowan::TextRange;

/// The rowan language tag for Festina trees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FestinaLang {}

impl rowan::Language for FestinaLang {
    type Kind = SyntaxKind;

    fn kind_from_raw(raw: rowan::SyntaxKind) -> SyntaxKind {
        SyntaxKind::from_raw(raw.0)
    }

    fn kind_to_raw(kind: SyntaxKind) -> rowan::SyntaxKind {
        rowan::SyntaxKind(kind as u16)
    }
}

impl From<SyntaxKind> for rowan::SyntaxKind {
    fn from(kind: SyntaxKind) -> Self {
        rowan::SyntaxKind(kind as u16)
    }
}

/// A node of the red (cursor) tree.
pub type SyntaxNode = rowan::SyntaxNode<FestinaLang>;
/// A token of the red (cursor) tree.
pub type SyntaxToken = rowan::SyntaxToken<FestinaLang>;
/// Either a node or a token.
pub type SyntaxElement = rowan::SyntaxElement<FestinaLang>;

/// A lexical or syntax error with the source range it concerns.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SyntaxError {
    /// Human-readable description, e.g. `expected expression`.
    pub message: String,
    /// Where the error is; empty when it points between two tokens.
    pub range: TextRange,
}

impl SyntaxError {
    /// Creates an error at `range`.
    pub fn new(message: impl Into<String>, range: TextRange) -> Self {
        SyntaxError {
            message: message.into(),
            range,
        }
    }
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}..{}: {}",
            u32::from(self.range.start()),
            u32::from(self.range.end()),
            self.message
        )
    }
}
