//! Typed views over the syntax tree, in the style of rust-analyzer.
//!
//! Every view is a newtype over a [`Node`] of one kind:
//! `IfStmt::cast(node)` returns `Some` only for an `IF_STMT` node, and
//! `syntax()` gives the node back. Accessors never fail: they return
//! `None` (or an empty iterator) when the parser recovered from an error
//! and the part is missing, so the checker can work on broken trees.
//!
//! The sum types [`Stmt`], [`Expr`] and [`TypeRef`] cover every statement
//! (§10, §11), expression (§9) and type (§8.1) node.
//!
//! A [`Node`] (and a [`Token`]) is an index into a [`Tree`]: a flat,
//! preorder copy of the green tree's structure built once per file, so
//! walking the views allocates nothing (rowan's red tree allocates a
//! cursor per element it hands out). The rowan green tree remains the
//! syntax tree; views can also be cast from a rowan red node, which
//! indexes that node's subtree. See [`crate::syntax`] ("Walking the tree
//! cheaply").

#![warn(missing_docs)]

mod expr;
mod stmt;
mod types;
mod unescape;

pub use expr::*;
pub use stmt::*;
pub use types::*;
pub use unescape::{unescape_string, unescape_template_chunk, EscapeError};

use crate::syntax::{SyntaxKind, SyntaxNode};

/// Common interface of every typed node view.
pub trait AstNode: Sized {
    /// True when a node of `kind` can be viewed as `Self`.
    fn can_cast(kind: SyntaxKind) -> bool;
    /// Views `node` as `Self` if its kind matches.
    fn cast(node: impl IntoNode) -> Option<Self>;
    /// The underlying node.
    fn syntax(&self) -> &Node;
}

/// Declares a newtype view over one node kind, with inherent `cast`,
/// `can_cast` and `syntax` plus an [`AstNode`] impl.
macro_rules! ast_node {
    ($(#[$meta:meta])* $name:ident, $kind:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name(pub(crate) crate::ast::Node);

        impl $name {
            /// True when a node of `kind` can be viewed as this type.
            pub fn can_cast(kind: crate::syntax::SyntaxKind) -> bool {
                kind == crate::syntax::SyntaxKind::$kind
            }

            /// Views `node` as this type if it is a
            #[doc = concat!("`", stringify!($kind), "` node.")]
            pub fn cast(node: impl crate::ast::IntoNode) -> Option<Self> {
                Self::can_cast(node.node_kind()).then(|| $name(node.into_node()))
            }

            /// The underlying syntax node.
            pub fn syntax(&self) -> &crate::ast::Node {
                &self.0
            }
        }

        impl crate::ast::AstNode for $name {
            fn can_cast(kind: crate::syntax::SyntaxKind) -> bool {
                $name::can_cast(kind)
            }
            fn cast(node: impl crate::ast::IntoNode) -> Option<Self> {
                $name::cast(node)
            }
            fn syntax(&self) -> &crate::ast::Node {
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
            pub fn cast(node: impl crate::ast::IntoNode) -> Option<Self> {
                let kind = node.node_kind();
                if !Self::can_cast(kind) {
                    return None;
                }
                let node = node.into_node();
                $(if $ty::can_cast(kind) {
                    return Some($name::$variant($ty(node)));
                })*
                None
            }

            /// The underlying syntax node.
            pub fn syntax(&self) -> &crate::ast::Node {
                match self {
                    $($name::$variant(it) => it.syntax(),)*
                }
            }
        }

        impl crate::ast::AstNode for $name {
            fn can_cast(kind: crate::syntax::SyntaxKind) -> bool {
                $name::can_cast(kind)
            }
            fn cast(node: impl crate::ast::IntoNode) -> Option<Self> {
                $name::cast(node)
            }
            fn syntax(&self) -> &crate::ast::Node {
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
    /// The typed root of the file whose green tree is `green`.
    pub(crate) fn new(green: &rowan::GreenNodeData) -> Self {
        SourceFile(Node::root(Tree::build(green, 0.into(), None)))
    }

    /// The typed root over an already built index.
    pub(crate) fn from_tree(tree: std::rc::Rc<Tree>) -> Self {
        SourceFile(Node::root(tree))
    }

    /// The typed root of the file whose green tree is `green` and whose
    /// text is `text` (which must equal the tree's text; saves gathering
    /// it from the tokens).
    pub(crate) fn with_text(green: &rowan::GreenNodeData, text: &str) -> Self {
        debug_assert_eq!(u32::from(green.text_len()) as usize, text.len());
        SourceFile(Node::root(Tree::build(green, 0.into(), Some(text))))
    }

    /// The top-level statements and declarations, in source order.
    pub fn statements(&self) -> impl Iterator<Item = Stmt> {
        children(&self.0)
    }
}

/// One element (node or token) of a [`Tree`], in preorder: 16 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Elem {
    kind: SyntaxKind,
    /// Bit 15: the element is a token. Bits 0-14: how many elements back
    /// its parent node is (0 for the root; [`FAR`] when that does not fit
    /// in 15 bits, the parent is then in [`Tree::far_parents`]).
    link: u16,
    /// Absolute start offset.
    start: u32,
    /// Absolute end offset.
    end: u32,
    /// Index one past the element's subtree (`index + 1` for a token):
    /// the index of its next sibling, if it has one.
    subtree_end: u32,
}

const TOKEN_BIT: u16 = 1 << 15;
/// [`Elem::link`]'s distance meaning "look the parent up".
const FAR: u16 = TOKEN_BIT - 1;

const _: () = assert!(std::mem::size_of::<Elem>() == 16);

impl Elem {
    fn is_token(&self) -> bool {
        self.link & TOKEN_BIT != 0
    }
}

/// The elements of a tree being built and the parents too far back for
/// [`Elem::link`].
#[derive(Default)]
struct Elems {
    elems: Vec<Elem>,
    far_parents: hashbrown::HashMap<u32, u32>,
}

impl Elems {
    /// Append an element whose parent is element `parent` (`u32::MAX`:
    /// none); returns its index.
    fn push(
        &mut self,
        kind: SyntaxKind,
        is_token: bool,
        start: u32,
        end: u32,
        subtree_end: u32,
        parent: u32,
    ) -> u32 {
        let index = self.elems.len() as u32;
        let delta = if parent == u32::MAX {
            0
        } else {
            match u16::try_from(index - parent) {
                Ok(d) if d < FAR => d,
                _ => {
                    self.far_parents.insert(index, parent);
                    FAR
                }
            }
        };
        self.elems.push(Elem {
            kind,
            link: delta | if is_token { TOKEN_BIT } else { 0 },
            start,
            end,
            subtree_end,
        });
        index
    }
}

/// A compact, read-only copy of a green tree's structure, built once per
/// file and walked by index.
///
/// Every node and token of the green tree except whitespace, comments and
/// line feeds (which no accessor looks at, see `is_indexed`) is one
/// [`Elem`] in preorder, so
/// a node's children are found by hopping from `index + 1` over whole
/// subtrees, and every node of a kind by a linear scan. Walking it allocates nothing, unlike rowan's red tree, which
/// allocates (and later frees) a cursor for every node or token it hands
/// out. The green tree stays the syntax tree; this is only an index over
/// it for the typed views.
pub struct Tree {
    /// The text of the tree's root (tokens slice it); shared with the
    /// driver's copy of the file.
    text: std::rc::Rc<str>,
    /// Absolute offset of `text[0]`.
    base: u32,
    elems: Vec<Elem>,
    /// Parents of the elements whose [`Elem::link`] is [`FAR`].
    far_parents: hashbrown::HashMap<u32, u32>,
}

impl Tree {
    /// Whether two trees have the same text and elements (for tests).
    #[cfg(test)]
    pub(crate) fn same_as(&self, other: &Tree) -> bool {
        self.text == other.text
            && self.base == other.base
            && self.elems == other.elems
            && self.far_parents == other.far_parents
    }

    /// Indexes the green tree `green`, whose text starts at `offset`;
    /// `text` is the tree's text when the caller has it (otherwise it is
    /// gathered from the tokens).
    pub fn build(
        green: &rowan::GreenNodeData,
        offset: rowan::TextSize,
        text: Option<&str>,
    ) -> std::rc::Rc<Tree> {
        let base = u32::from(offset);
        let len = u32::from(green.text_len()) as usize;
        let gather = text.is_none();
        let mut gathered = String::with_capacity(if gather { len } else { 0 });
        // About one element per three bytes of typical source.
        let mut out = Elems {
            elems: Vec::with_capacity(len / 3 + 1),
            far_parents: hashbrown::HashMap::new(),
        };
        out.push(
            SyntaxKind::from_raw(green.kind().0),
            false,
            base,
            base + u32::from(green.text_len()),
            0,
            u32::MAX,
        );
        // Open nodes: remaining children and the node's element index.
        let mut stack: Vec<(rowan::Children<'_>, usize)> = vec![(green.children(), 0)];
        let mut pos = base;
        while let Some(top) = stack.last_mut() {
            let Some(child) = top.0.next() else {
                let (_, index) = stack.pop().expect("the stack is not empty");
                out.elems[index].subtree_end = out.elems.len() as u32;
                continue;
            };
            let parent = top.1 as u32;
            match child {
                rowan::NodeOrToken::Token(t) => {
                    let len = u32::from(t.text_len());
                    if gather {
                        gathered.push_str(t.text());
                    }
                    let kind = SyntaxKind::from_raw(t.kind().0);
                    if !is_indexed(kind) {
                        pos += len;
                        continue;
                    }
                    let index = out.elems.len() as u32;
                    out.push(kind, true, pos, pos + len, index + 1, parent);
                    pos += len;
                }
                rowan::NodeOrToken::Node(n) => {
                    let index = out.push(
                        SyntaxKind::from_raw(n.kind().0),
                        false,
                        pos,
                        pos + u32::from(n.text_len()),
                        0,
                        parent,
                    );
                    stack.push((n.children(), index as usize));
                }
            }
        }
        std::rc::Rc::new(Tree {
            text: if gather {
                std::rc::Rc::from(gathered)
            } else {
                std::rc::Rc::from(text.unwrap_or(""))
            },
            base,
            elems: out.elems,
            far_parents: out.far_parents,
        })
    }

    fn range(&self, index: u32) -> rowan::TextRange {
        let e = &self.elems[index as usize];
        rowan::TextRange::new(e.start.into(), e.end.into())
    }

    /// The direct children of element `index`, as element indexes.
    fn children(&self, index: u32) -> impl Iterator<Item = u32> + '_ {
        let end = self.elems[index as usize].subtree_end;
        let mut next = index + 1;
        std::iter::from_fn(move || {
            (next < end).then(|| {
                let it = next;
                next = self.elems[it as usize].subtree_end;
                it
            })
        })
    }
}

/// Whether tokens of `kind` are entries of a [`Tree`]: whitespace,
/// comments and line feeds are not (every accessor skips them), which
/// makes the tree about half as long.
fn is_indexed(kind: SyntaxKind) -> bool {
    !kind.is_trivia() && kind != SyntaxKind::NEWLINE
}

/// Records a [`Tree`] from the start/token/finish calls of the parser's
/// event replay (see `parser::event`), so the driver gets the index
/// without building or walking a green tree.
pub(crate) struct TreeRecorder {
    out: Elems,
    /// Element indexes of the open nodes.
    open: Vec<u32>,
    pos: u32,
}

impl TreeRecorder {
    /// A recorder for a text of `len` bytes.
    pub(crate) fn new(len: usize) -> TreeRecorder {
        TreeRecorder {
            out: Elems {
                elems: Vec::with_capacity(len / 3 + 1),
                far_parents: hashbrown::HashMap::new(),
            },
            open: Vec::new(),
            pos: 0,
        }
    }

    /// A node of `kind` starts here.
    pub(crate) fn start_node(&mut self, kind: SyntaxKind) {
        let parent = self.open.last().copied().unwrap_or(u32::MAX);
        let index = self.out.push(kind, false, self.pos, self.pos, 0, parent);
        self.open.push(index);
    }

    /// A token of `kind` and `len` bytes (see [`is_indexed`]).
    pub(crate) fn token(&mut self, kind: SyntaxKind, len: u32) {
        if !is_indexed(kind) {
            self.pos += len;
            return;
        }
        let index = self.out.elems.len() as u32;
        let parent = self.open.last().copied().unwrap_or(u32::MAX);
        self.out
            .push(kind, true, self.pos, self.pos + len, index + 1, parent);
        self.pos += len;
    }

    /// The innermost open node ends here.
    pub(crate) fn finish_node(&mut self) {
        if let Some(index) = self.open.pop() {
            let end = self.out.elems.len() as u32;
            let e = &mut self.out.elems[index as usize];
            e.end = self.pos;
            e.subtree_end = end;
        }
    }

    /// The finished tree over `text`, or `None` unless the calls recorded
    /// exactly one closed root node covering `text` (the caller then
    /// indexes the green tree instead).
    pub(crate) fn finish(self, text: &std::rc::Rc<str>) -> Option<std::rc::Rc<Tree>> {
        let root = self.out.elems.first()?;
        let whole = self.open.is_empty()
            && root.kind == SyntaxKind::SOURCE_FILE
            && root.subtree_end as usize == self.out.elems.len()
            && root.end as usize == text.len();
        whole.then(|| {
            let mut elems = self.out.elems;
            elems.shrink_to_fit();
            std::rc::Rc::new(Tree {
                text: std::rc::Rc::clone(text),
                base: 0,
                elems,
                far_parents: self.out.far_parents,
            })
        })
    }
}

/// A node of a file's syntax tree, as the typed views hold it: the file's
/// [`Tree`] and the node's index in it. Cloning it copies a reference
/// count; nothing is allocated.
#[derive(Clone)]
pub struct Node {
    tree: std::rc::Rc<Tree>,
    index: u32,
}

impl Node {
    fn root(tree: std::rc::Rc<Tree>) -> Node {
        Node { tree, index: 0 }
    }

    fn at(&self, index: u32) -> Node {
        Node {
            tree: self.tree.clone(),
            index,
        }
    }

    /// The node's kind.
    pub fn kind(&self) -> SyntaxKind {
        self.tree.elems[self.index as usize].kind
    }

    /// The node's absolute source range.
    pub fn text_range(&self) -> rowan::TextRange {
        self.tree.range(self.index)
    }

    /// The node's source text.
    pub fn text(&self) -> &str {
        let range = self.text_range();
        let base = self.tree.base;
        &self.tree.text
            [(u32::from(range.start()) - base) as usize..(u32::from(range.end()) - base) as usize]
    }

    /// The parent node, if this is not the root of its tree.
    pub fn parent(&self) -> Option<Node> {
        let delta = self.tree.elems[self.index as usize].link & !TOKEN_BIT;
        match delta {
            0 => None,
            FAR => self.tree.far_parents.get(&self.index).map(|&p| self.at(p)),
            d => Some(self.at(self.index - u32::from(d))),
        }
    }

    /// The direct child nodes, in order.
    pub fn children(&self) -> impl Iterator<Item = Node> + '_ {
        self.tree
            .children(self.index)
            .filter(|&i| !self.tree.elems[i as usize].is_token())
            .map(|i| self.at(i))
    }

    /// The direct child tokens, in order (whitespace, comments and line
    /// feeds are not indexed).
    pub fn child_tokens(&self) -> impl Iterator<Item = Token> + '_ {
        self.tree
            .children(self.index)
            .filter(|&i| self.tree.elems[i as usize].is_token())
            .map(|i| Token(self.at(i)))
    }
}

impl AstNode for Node {
    fn can_cast(_: SyntaxKind) -> bool {
        true
    }
    fn cast(node: impl IntoNode) -> Option<Self> {
        Some(node.into_node())
    }
    fn syntax(&self) -> &Node {
        self
    }
}

impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        std::rc::Rc::ptr_eq(&self.tree, &other.tree) && self.index == other.index
    }
}

impl Eq for Node {}

impl std::hash::Hash for Node {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::rc::Rc::as_ptr(&self.tree).hash(state);
        self.index.hash(state);
    }
}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}@{:?}", self.kind(), self.text_range())
    }
}

/// A token of a file's syntax tree (see [`Node`]).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Token(Node);

impl Token {
    /// The token's kind.
    pub fn kind(&self) -> SyntaxKind {
        self.0.kind()
    }

    /// The token's absolute source range.
    pub fn text_range(&self) -> rowan::TextRange {
        self.0.text_range()
    }

    /// The token's source text.
    pub fn text(&self) -> &str {
        self.0.text()
    }

    /// The node the token belongs to.
    pub fn parent(&self) -> Option<Node> {
        self.0.parent()
    }
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?}@{:?} {:?}",
            self.kind(),
            self.text_range(),
            self.text()
        )
    }
}

impl std::fmt::Display for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text())
    }
}

/// What a typed view can be cast from: a [`Node`], or a rowan red node
/// (indexed into a [`Tree`] of its own subtree when the kind matches).
pub trait IntoNode {
    /// The node's kind.
    fn node_kind(&self) -> SyntaxKind;
    /// The node as a [`Node`].
    fn into_node(self) -> Node;
}

impl IntoNode for Node {
    fn node_kind(&self) -> SyntaxKind {
        self.kind()
    }
    fn into_node(self) -> Node {
        self
    }
}

impl IntoNode for SyntaxNode {
    fn node_kind(&self) -> SyntaxKind {
        self.kind()
    }
    fn into_node(self) -> Node {
        Node::root(Tree::build(&self.green(), self.text_range().start(), None))
    }
}

/// What [`find_element`] does with a child of the scanned node.
pub(crate) enum Pick {
    /// This is the wanted element: return it.
    Take,
    /// Look at the next child.
    Skip,
    /// Give up: no later child is wanted.
    Stop,
}

/// The index of the first direct child (node or token) of `node` that
/// `pick` takes, given each child's kind and whether it is a token.
pub(crate) fn find_element(
    node: &Node,
    mut pick: impl FnMut(SyntaxKind, bool) -> Pick,
) -> Option<u32> {
    let tree = &node.tree;
    for index in tree.children(node.index) {
        let e = &tree.elems[index as usize];
        match pick(e.kind, e.is_token()) {
            Pick::Take => return Some(index),
            Pick::Skip => {}
            Pick::Stop => return None,
        }
    }
    None
}

/// The first direct child token of `node` whose kind satisfies `pred`.
pub(crate) fn token_where(node: &Node, mut pred: impl FnMut(SyntaxKind) -> bool) -> Option<Token> {
    find_element(node, |kind, is_token| {
        if is_token && pred(kind) {
            Pick::Take
        } else {
            Pick::Skip
        }
    })
    .map(|i| Token(node.at(i)))
}

/// The kind of the first direct child token of `node` whose kind
/// satisfies `pred`.
pub(crate) fn token_kind_where(
    node: &Node,
    pred: impl FnMut(SyntaxKind) -> bool,
) -> Option<SyntaxKind> {
    token_where(node, pred).map(|t| t.kind())
}

/// The first child node of `node` viewable as `N`.
pub(crate) fn child<N: AstNode>(node: &Node) -> Option<N> {
    find_element(node, |kind, is_token| {
        if !is_token && N::can_cast(kind) {
            Pick::Take
        } else {
            Pick::Skip
        }
    })
    .and_then(|i| N::cast(node.at(i)))
}

/// Every child node of `node` viewable as `N`.
pub(crate) fn children<N: AstNode>(node: &Node) -> impl Iterator<Item = N> {
    let node = node.clone();
    let end = node.tree.elems[node.index as usize].subtree_end;
    let mut next = node.index + 1;
    std::iter::from_fn(move || {
        while next < end {
            let index = next;
            let e = node.tree.elems[index as usize];
            next = e.subtree_end;
            if !e.is_token() && N::can_cast(e.kind) {
                return N::cast(node.at(index));
            }
        }
        None
    })
}

/// The first direct child token of `node` of `kind`.
pub(crate) fn token(node: &Node, kind: SyntaxKind) -> Option<Token> {
    token_where(node, |k| k == kind)
}

/// The first child node viewable as `N` that comes after the first direct
/// child token of `kind`.
pub(crate) fn child_after<N: AstNode>(node: &Node, kind: SyntaxKind) -> Option<N> {
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
    .and_then(|i| N::cast(node.at(i)))
}

/// The first child node viewable as `N` that comes before any direct child
/// token of `kind`.
pub(crate) fn child_before<N: AstNode>(node: &Node, kind: SyntaxKind) -> Option<N> {
    find_element(node, |k, is_token| {
        if is_token && k == kind {
            Pick::Stop
        } else if !is_token && N::can_cast(k) {
            Pick::Take
        } else {
            Pick::Skip
        }
    })
    .and_then(|i| N::cast(node.at(i)))
}

/// Every node of `kind` in the subtree of `root` (`root` included), in
/// preorder: a linear scan of the root's [`Tree`] elements.
pub fn descendants_of_kind(root: &Node, kind: SyntaxKind) -> Vec<Node> {
    let start = root.index as usize;
    let end = root.tree.elems[start].subtree_end as usize;
    root.tree.elems[start..end]
        .iter()
        .zip(root.index..)
        .filter(|(e, _)| e.kind == kind && !e.is_token())
        .map(|(_, i)| root.at(i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index recorded while parsing equals the one built by walking
    /// the green tree, with or without building the green tree
    /// (`parse_ast_only`), and both report the same errors, for
    /// well-formed and broken inputs alike.
    #[test]
    fn recorded_tree_matches_green_walk() {
        let mut inputs: Vec<String> = [
            "",
            "\n",
            "int x = 1\n",
            "}}} (( int func ) {",
            "text t = `a ${b + `c ${d}`} e`\nlog(t",
            "struct P {\n x:int\n}\nP p = {'x': 1}\nmatch p { 'P' { } }",
            "int func f(a:int) { return a ? }\n// comment",
            "@@@ $$$",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
        for entry in std::fs::read_dir(examples).expect("examples/ exists") {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_some_and(|e| e == "f") {
                inputs.push(std::fs::read_to_string(path).expect("a readable example"));
            }
        }
        for text in &inputs {
            let (parse, root) = crate::parsing::parse_to_ast(text);
            let walked = Tree::build(&parse.green, 0.into(), None);
            assert_eq!(root.0.tree.elems, walked.elems, "{text:?}");
            assert_eq!(root.0.tree.text, walked.text, "{text:?}");
            assert_eq!(root.0.text(), text.as_str());
            let (errors, flat_root) = crate::parsing::parse_ast_only(text.as_str().into());
            assert_eq!(errors, parse.errors, "{text:?}");
            assert_eq!(flat_root.0.tree.elems, walked.elems, "{text:?}");
            assert_eq!(flat_root.0.tree.text, walked.text, "{text:?}");
        }
    }
}
