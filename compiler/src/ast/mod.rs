//! Typed views over the untyped syntax tree, in the style of
//! rust-analyzer.
//!
//! Every view is a newtype over a [`SyntaxNode`] of one kind:
//! `IfStmt::cast(node)` returns `Some` only for an `IF_STMT` node, and
//! `syntax()` gives the node back. Accessors never fail: they return
//! `None` (or an empty iterator) when the parser recovered from an error
//! and the part is missing, so the checker can work on broken trees.
//!
//! The sum types [`Stmt`], [`Expr`] and [`TypeRef`] cover every statement
//! (§10, §11), expression (§9) and type (§8.1) node.

#![warn(missing_docs)]

mod expr;
mod stmt;
mod types;
mod unescape;

pub use expr::*;
pub use stmt::*;
pub use types::*;
pub use unescape::{unescape_string, unescape_template_chunk, EscapeError};

use crate::syntax::{SyntaxKind, SyntaxNode, SyntaxToken};

/// Common interface of every typed node view.
pub trait AstNode: Sized {
    /// True when a node of `kind` can be viewed as `Self`.
    fn can_cast(kind: SyntaxKind) -> bool;
    /// Views `node` as `Self` if its kind matches.
    fn cast(node: SyntaxNode) -> Option<Self>;
    /// The underlying node.
    fn syntax(&self) -> &SyntaxNode;
}

/// Declares a newtype view over one node kind, with inherent `cast`,
/// `can_cast` and `syntax` plus an [`AstNode`] impl.
macro_rules! ast_node {
    ($(#[$meta:meta])* $name:ident, $kind:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name(pub(crate) crate::syntax::SyntaxNode);

        impl $name {
            /// True when a node of `kind` can be viewed as this type.
            pub fn can_cast(kind: crate::syntax::SyntaxKind) -> bool {
                kind == crate::syntax::SyntaxKind::$kind
            }

            /// Views `node` as this type if it is a
            #[doc = concat!("`", stringify!($kind), "` node.")]
            pub fn cast(node: crate::syntax::SyntaxNode) -> Option<Self> {
                Self::can_cast(node.kind()).then(|| $name(node))
            }

            /// The underlying syntax node.
            pub fn syntax(&self) -> &crate::syntax::SyntaxNode {
                &self.0
            }
        }

        impl crate::ast::AstNode for $name {
            fn can_cast(kind: crate::syntax::SyntaxKind) -> bool {
                $name::can_cast(kind)
            }
            fn cast(node: crate::syntax::SyntaxNode) -> Option<Self> {
                $name::cast(node)
            }
            fn syntax(&self) -> &crate::syntax::SyntaxNode {
                &self.0
            }
        }
    };
}
pub(crate) use ast_node;

/// Declares a sum type over several views, with `cast` and `syntax`.
macro_rules! ast_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident($ty:ident),)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vmeta])* $variant($ty),)*
        }

        impl $name {
            /// True when a node of `kind` is one of the variants.
            pub fn can_cast(kind: crate::syntax::SyntaxKind) -> bool {
                false $(|| $ty::can_cast(kind))*
            }

            /// Views `node` as the matching variant, if any.
            pub fn cast(node: crate::syntax::SyntaxNode) -> Option<Self> {
                let kind = node.kind();
                $(if $ty::can_cast(kind) {
                    return Some($name::$variant($ty(node)));
                })*
                None
            }

            /// The underlying syntax node.
            pub fn syntax(&self) -> &crate::syntax::SyntaxNode {
                match self {
                    $($name::$variant(it) => it.syntax(),)*
                }
            }
        }

        impl crate::ast::AstNode for $name {
            fn can_cast(kind: crate::syntax::SyntaxKind) -> bool {
                $name::can_cast(kind)
            }
            fn cast(node: crate::syntax::SyntaxNode) -> Option<Self> {
                $name::cast(node)
            }
            fn syntax(&self) -> &crate::syntax::SyntaxNode {
                $name::syntax(self)
            }
        }
    };
}
pub(crate) use ast_enum;

ast_node!(
    /// The root of a file (Annex A `Program`).
    SourceFile,
    SOURCE_FILE
);

impl SourceFile {
    pub(crate) fn new(node: SyntaxNode) -> Self {
        SourceFile(node)
    }

    /// The top-level statements and declarations, in source order.
    pub fn statements(&self) -> impl Iterator<Item = Stmt> {
        children(&self.0)
    }
}

/// The first child node of `node` viewable as `N`.
pub(crate) fn child<N: AstNode>(node: &SyntaxNode) -> Option<N> {
    node.children().find_map(N::cast)
}

/// Every child node of `node` viewable as `N`.
pub(crate) fn children<N: AstNode>(node: &SyntaxNode) -> impl Iterator<Item = N> {
    node.children().filter_map(N::cast)
}

/// The first direct child token of `node` of `kind`.
pub(crate) fn token(node: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|it| it.into_token())
        .find(|t| t.kind() == kind)
}

/// The first child node viewable as `N` that comes after the first direct
/// child token of `kind`.
pub(crate) fn child_after<N: AstNode>(node: &SyntaxNode, kind: SyntaxKind) -> Option<N> {
    node.children_with_tokens()
        .skip_while(|it| it.as_token().is_none_or(|t| t.kind() != kind))
        .filter_map(|it| it.into_node())
        .find_map(N::cast)
}

/// The first child node viewable as `N` that comes before any direct child
/// token of `kind`.
pub(crate) fn child_before<N: AstNode>(node: &SyntaxNode, kind: SyntaxKind) -> Option<N> {
    node.children_with_tokens()
        .take_while(|it| it.as_token().is_none_or(|t| t.kind() != kind))
        .filter_map(|it| it.into_node())
        .find_map(N::cast)
}
