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
//!
//! Accessors that return one child (`child`, `token`, `child_after`, ...)
//! scan the green children and create a red element only for the child
//! they return; `op_kind` and `Literal::kind` create none. See
//! [`crate::syntax`] ("Walking the tree cheaply").

#![warn(missing_docs)]

mod expr;
mod stmt;
mod types;
mod unescape;

pub use expr::*;
pub use stmt::*;
pub use types::*;
pub use unescape::{unescape_string, unescape_template_chunk, EscapeError};

use crate::syntax::{SyntaxElement, SyntaxKind, SyntaxNode, SyntaxToken};

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

/// What [`find_element`] does with a child of the scanned node.
pub(crate) enum Pick {
    /// This is the wanted element: materialise and return it.
    Take,
    /// Look at the next child.
    Skip,
    /// Give up: no later child is wanted.
    Stop,
}

/// The first direct child (node or token) of `node` that `pick` takes,
/// given each child's kind and whether it is a token.
///
/// The children are scanned in the green tree, so no red node or token is
/// created for the children passed over (rowan allocates one per element
/// a red iterator visits); only the chosen child is materialised, found
/// by its text range (a binary search in the green node). A child with an
/// empty range is not unique by range and is materialised by index.
pub(crate) fn find_element(
    node: &SyntaxNode,
    mut pick: impl FnMut(SyntaxKind, bool) -> Pick,
) -> Option<SyntaxElement> {
    let green = node.green();
    let mut offset = node.text_range().start();
    for (index, child) in green.children().enumerate() {
        let (kind, len, is_token) = match child {
            rowan::NodeOrToken::Node(n) => (n.kind(), n.text_len(), false),
            rowan::NodeOrToken::Token(t) => (t.kind(), t.text_len(), true),
        };
        match pick(SyntaxKind::from_raw(kind.0), is_token) {
            Pick::Take => {
                return if len == 0.into() {
                    node.children_with_tokens().nth(index)
                } else {
                    node.child_or_token_at_range(rowan::TextRange::at(offset, len))
                };
            }
            Pick::Skip => offset += len,
            Pick::Stop => return None,
        }
    }
    None
}

/// The first direct child token of `node` whose kind satisfies `pred`.
pub(crate) fn token_where(
    node: &SyntaxNode,
    mut pred: impl FnMut(SyntaxKind) -> bool,
) -> Option<SyntaxToken> {
    find_element(node, |kind, is_token| {
        if is_token && pred(kind) {
            Pick::Take
        } else {
            Pick::Skip
        }
    })
    .and_then(|it| it.into_token())
}

/// The kind of the first direct child token of `node` whose kind
/// satisfies `pred`, found in the green tree without creating any red
/// element.
pub(crate) fn token_kind_where(
    node: &SyntaxNode,
    mut pred: impl FnMut(SyntaxKind) -> bool,
) -> Option<SyntaxKind> {
    node.green().children().find_map(|child| {
        let t = child.into_token()?;
        let kind = SyntaxKind::from_raw(t.kind().0);
        pred(kind).then_some(kind)
    })
}

/// The first child node of `node` viewable as `N`.
pub(crate) fn child<N: AstNode>(node: &SyntaxNode) -> Option<N> {
    find_element(node, |kind, is_token| {
        if !is_token && N::can_cast(kind) {
            Pick::Take
        } else {
            Pick::Skip
        }
    })
    .and_then(|it| it.into_node())
    .and_then(N::cast)
}

/// Every child node of `node` viewable as `N`.
pub(crate) fn children<N: AstNode>(node: &SyntaxNode) -> impl Iterator<Item = N> {
    node.children().filter_map(N::cast)
}

/// The first direct child token of `node` of `kind`.
pub(crate) fn token(node: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
    token_where(node, |k| k == kind)
}

/// The first child node viewable as `N` that comes after the first direct
/// child token of `kind`.
pub(crate) fn child_after<N: AstNode>(node: &SyntaxNode, kind: SyntaxKind) -> Option<N> {
    let mut seen = false;
    find_element(node, |k, is_token| {
        if !seen {
            seen = is_token && k == kind;
            Pick::Skip
        } else if !is_token && N::can_cast(k) {
            Pick::Take
        } else {
            Pick::Skip
        }
    })
    .and_then(|it| it.into_node())
    .and_then(N::cast)
}

/// The first child node viewable as `N` that comes before any direct child
/// token of `kind`.
pub(crate) fn child_before<N: AstNode>(node: &SyntaxNode, kind: SyntaxKind) -> Option<N> {
    find_element(node, |k, is_token| {
        if is_token && k == kind {
            Pick::Stop
        } else if !is_token && N::can_cast(k) {
            Pick::Take
        } else {
            Pick::Skip
        }
    })
    .and_then(|it| it.into_node())
    .and_then(N::cast)
}

/// Every node of `kind` in the subtree of `root` (`root` included), in
/// preorder.
///
/// The walk runs over the green tree, which costs no allocation; a red
/// node is materialised only for each match (one binary search and one
/// red node per level on its path from `root`). A full red walk
/// (`descendants()`) would create and free a red node for every node of
/// the file.
pub fn descendants_of_kind(root: &SyntaxNode, kind: SyntaxKind) -> Vec<SyntaxNode> {
    let raw = rowan::SyntaxKind::from(kind);
    let mut out = Vec::new();
    if root.kind() == kind {
        out.push(root.clone());
    }
    let green = root.green();
    // One frame per open node: its remaining children, the offset of the
    // next one and its index. `path[i]` locates the node of frame `i + 1`
    // within the node of frame `i`.
    let mut stack: Vec<(rowan::Children<'_>, rowan::TextSize, usize)> =
        vec![(green.children(), root.text_range().start(), 0)];
    let mut path: Vec<(usize, rowan::TextRange)> = Vec::new();
    while let Some(top) = stack.last_mut() {
        let Some(child) = top.0.next() else {
            stack.pop();
            path.pop();
            continue;
        };
        let (index, offset) = (top.2, top.1);
        top.2 += 1;
        match child {
            rowan::NodeOrToken::Token(t) => top.1 += t.text_len(),
            rowan::NodeOrToken::Node(n) => {
                top.1 += n.text_len();
                path.push((index, rowan::TextRange::at(offset, n.text_len())));
                if n.kind() == raw {
                    if let Some(node) = materialize(root, &path) {
                        out.push(node);
                    }
                }
                stack.push((n.children(), offset, 0));
            }
        }
    }
    out
}

/// The red node reached from `root` by following `path` (child index and
/// absolute range at each level).
fn materialize(root: &SyntaxNode, path: &[(usize, rowan::TextRange)]) -> Option<SyntaxNode> {
    let mut node = root.clone();
    for &(index, range) in path {
        let child = if range.is_empty() {
            node.children_with_tokens().nth(index)
        } else {
            node.child_or_token_at_range(range)
        };
        node = child?.into_node()?;
    }
    Some(node)
}
