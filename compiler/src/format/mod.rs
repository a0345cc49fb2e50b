//! `festina fmt`: source text to its canonical layout, on the lossless
//! syntax tree.
//!
//! # Design
//!
//! The formatter reads the rowan green tree that [`crate::parsing::parse`]
//! builds (every byte of the source, comments and line feeds included)
//! and never the checker's flat index. It runs in three steps, each a
//! pass over a flat list:
//!
//! 1. **Tokens** (`collect`): a walk of the green tree yields the tokens
//!    that will be printed, each with the kinds of the nodes around it,
//!    the number of line feeds before it in the source, and which node it
//!    starts; a template literal is one opaque token. Separators the
//!    canonical style writes differently are settled here (statement
//!    `;`s, commas between struct fields, commas between list items and
//!    after the last one).
//! 2. **Lines** (`layout`): the tokens are laid out in lines with a stack
//!    of open brackets: bodies (`{ }` of blocks, structs, tables and
//!    matches, and the file) print one element per line, other brackets
//!    keep the author's line breaks; spacing comes from a table of rules
//!    over token and node kinds. Trailing comments of consecutive lines
//!    are aligned when the lines are rendered.
//! 3. **Check**: the result is parsed again and its tree compared with
//!    the source's, node by node and token by token (ignoring blanks, line
//!    feeds, `;` and `,`). A difference is a bug in the formatter: the
//!    source is then refused with [`FormatError::Internal`] rather than
//!    rewritten into a different program.
//!
//! The style itself, with examples, is written in `docs/style.md`. It
//! keeps the author's line breaks inside statements (like `gofmt`, it
//! never reflows a line), so the layout of a line never depends on its
//! width, and formatting twice gives the same text as formatting once.
//!
//! Nothing is shared between calls and nothing here panics on any input;
//! a source with lexical or syntax errors is refused with them
//! ([`FormatError::Syntax`]).

mod collect;
mod layout;

use crate::parsing;
use crate::syntax::{SyntaxError, SyntaxKind};
use rowan::{GreenNodeData, NodeOrToken};

/// Why a source was not formatted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatError {
    /// The source has lexical or syntax errors (the parser's, as the
    /// compiler reports them): a file that does not parse is never
    /// rewritten.
    Syntax(Vec<SyntaxError>),
    /// The formatted text would parse to a different tree (a bug in the
    /// formatter); the message says where. Nothing is rewritten.
    Internal(String),
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::Syntax(errors) => {
                write!(f, "{} syntax error(s)", errors.len())
            }
            FormatError::Internal(message) => write!(f, "internal formatter error: {message}"),
        }
    }
}

/// The canonical layout of the Festina source `text` (docs/style.md).
///
/// Idempotent (`format(format(x)) == format(x)`) and meaning-preserving:
/// the result parses to the same syntax tree as `text`, apart from
/// blanks, line feeds, statement `;`s and list commas. Errors: the
/// source's syntax errors, or [`FormatError::Internal`] if the result
/// would not parse back to the same tree.
pub fn format(text: &str) -> Result<String, FormatError> {
    // The syntax tree's builder and its drop recurse once per nesting
    // level, and a long flat expression (`1+1+...`, 150,000 terms) nests
    // deeper than a main thread's 8 MiB stack allows: format on a thread
    // whose stack grows with the source (reserved, not committed; touched
    // only as deep as the tree goes).
    let stack = (16usize << 20)
        .saturating_add(text.len().saturating_mul(256))
        .min(2 << 30);
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .name("festina-fmt".into())
            .stack_size(stack)
            .spawn_scoped(scope, || format_here(text))
        {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => format_here(text),
        }
    })
}

/// [`format`] on the calling thread's stack.
fn format_here(text: &str) -> Result<String, FormatError> {
    let parse = parsing::parse(text);
    if !parse.errors.is_empty() {
        return Err(FormatError::Syntax(parse.errors));
    }
    let toks = collect::collect(&parse.green, text);
    let out = layout::layout(&toks, text.len());
    let again = parsing::parse(&out);
    if !again.errors.is_empty() {
        return Err(FormatError::Internal(format!(
            "the formatted text does not parse: {}",
            again.errors[0]
        )));
    }
    match first_difference(&parse.green, &again.green) {
        None => Ok(out),
        Some(what) => Err(FormatError::Internal(format!(
            "the formatted text parses differently: {what}"
        ))),
    }
}

/// One item of a tree's skeleton: a node (by kind) or a token that is
/// not a separator (by kind and text).
#[derive(Debug, PartialEq, Eq)]
enum Item<'a> {
    Node(SyntaxKind),
    Token(SyntaxKind, &'a str),
}

/// The skeleton of a green tree in preorder: what two trees of one
/// program have in common however they are laid out.
struct Skeleton<'a> {
    stack: Vec<rowan::Children<'a>>,
}

impl<'a> Skeleton<'a> {
    fn new(root: &'a GreenNodeData) -> Self {
        Skeleton {
            stack: vec![root.children()],
        }
    }
}

impl<'a> Iterator for Skeleton<'a> {
    type Item = Item<'a>;

    fn next(&mut self) -> Option<Item<'a>> {
        loop {
            let children = self.stack.last_mut()?;
            match children.next() {
                None => {
                    self.stack.pop();
                }
                Some(NodeOrToken::Node(node)) => {
                    self.stack.push(node.children());
                    return Some(Item::Node(SyntaxKind::from_raw(node.kind().0)));
                }
                Some(NodeOrToken::Token(token)) => {
                    let kind = SyntaxKind::from_raw(token.kind().0);
                    match kind {
                        SyntaxKind::WHITESPACE
                        | SyntaxKind::NEWLINE
                        | SyntaxKind::SEMICOLON
                        | SyntaxKind::COMMA => continue,
                        SyntaxKind::COMMENT => {
                            return Some(Item::Token(kind, token.text().trim_end()))
                        }
                        _ => return Some(Item::Token(kind, token.text())),
                    }
                }
            }
        }
    }
}

/// Where the skeletons of two trees first differ, described, or `None`
/// when they are the same.
fn first_difference(a: &GreenNodeData, b: &GreenNodeData) -> Option<String> {
    let mut left = Skeleton::new(a);
    let mut right = Skeleton::new(b);
    loop {
        match (left.next(), right.next()) {
            (None, None) => return None,
            (x, y) if x == y => continue,
            (x, y) => return Some(format!("expected {x:?}, found {y:?}")),
        }
    }
}

#[cfg(test)]
mod tests;
