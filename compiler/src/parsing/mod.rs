//! Parsing: source text to the lossless syntax tree, the one place that
//! builds it.
//!
//! # Design
//!
//! Parsing happens in three layers, in the style of rust-analyzer, whose
//! `parser` crate only emits events and whose `syntax` crate builds the
//! tree:
//!
//! 1. **Tokens.** [`crate::lexer::tokenize`] turns the source into a flat
//!    list of `(SyntaxKind, length)` tokens that covers every byte:
//!    whitespace, `NEWLINE` (its own kind, because a line feed ends a
//!    statement, §7.1), comments, literals, punctuation, reserved words and
//!    `ERROR` tokens for characters that belong to no token. Template
//!    literals and regex literals are lexed modally (§7.5.3, §7.5.5).
//! 2. **Events.** The hand-written recursive-descent parser in
//!    [`crate::parser`] never builds a tree itself. It reads the
//!    significant tokens and emits a flat list of *start node*, *token* and
//!    *finish node* events (left-recursive expressions are handled with
//!    `Marker::precede`, which sets a forward parent on an already emitted
//!    start event). It hands them over after every top-level statement
//!    (no `precede` reaches back across one), so the event list never
//!    holds more than one top-level statement.
//! 3. **Green tree.** This module (`build.rs`) replays the events, as they
//!    come, into a
//!    small green-tree builder of our own, interleaving the trivia tokens the
//!    parser skipped. The result is an immutable, lossless rowan green
//!    tree: the text of the root always equals the input, byte for byte,
//!    whatever the input. The builder interns short tokens (keyed by the
//!    source slice) and nodes of at most six children (keyed by the
//!    identity of their children) in hashbrown tables, and checks the
//!    last two tokens of the same kind before hashing a token
//!    (punctuation and keywords always repeat their text); rowan's own
//!    `GreenNodeBuilder`/`NodeCache` hashes with FxHash 1.x, whose hashes
//!    of similar short texts collide, which made a literal with 100,000
//!    keys take seconds to build.
//!
//! # Walking the tree cheaply
//!
//! A red (cursor) node costs an allocation and a free each time rowan
//! creates one, and a red iterator creates one per element it passes. The
//! typed views in [`crate::ast`] therefore do not use the red tree: they
//! walk [`crate::ast::Tree`], a flat preorder array with one entry per
//! node and token of the green tree (kind, absolute range, parent, end of
//! subtree), and hold a node as the tree plus an index. The driver needs
//! only the array and the errors, so it calls [`parse_ast_only`], which
//! records the array while replaying the parser's events, without
//! building the green tree at all (no token or node interning, no rowan
//! allocations). [`parse_to_ast`] and [`Parse::source_file`] index a green
//! tree by walking it, for callers that want both.
//! Finding a child is a hop over sibling subtrees, and a whole-tree
//! search such as "every function declaration"
//! (`ast::descendants_of_kind`) is a linear scan of the array.
//!
//! # Errors
//!
//! Nothing in this layer fails. Lexical errors (bad characters,
//! unterminated literals, the `\0` escape, `${` outside a template) and
//! syntax errors are collected into [`Parse::errors`] as [`SyntaxError`]s
//! with a text range. Unexpected tokens are wrapped in `ERROR` nodes
//! (up to the end of the line, a `;` or an unbalanced closer) so that one
//! run reports every error and the tree still contains every byte.
//!
//! The tree's types live in [`crate::syntax`]; typed views over its
//! untyped nodes in [`crate::ast`].

mod build;

use crate::lexer::Token;
use crate::syntax::{SyntaxError, SyntaxNode};
use rowan::GreenNode;

/// The result of [`parse`]: a green tree plus every error found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parse {
    /// The immutable lossless tree; its root is a `SOURCE_FILE` node.
    pub green: GreenNode,
    /// Lexical and syntax errors, sorted by position (stable).
    pub errors: Vec<SyntaxError>,
}

impl Parse {
    /// A red-tree cursor over the root `SOURCE_FILE` node.
    pub fn syntax_node(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.green.clone())
    }

    /// The typed root of the tree.
    pub fn source_file(&self) -> crate::ast::SourceFile {
        crate::ast::SourceFile::new(&self.green)
    }

    /// True when neither the lexer nor the parser reported anything.
    pub fn ok(&self) -> bool {
        self.errors.is_empty()
    }

    /// A stable, indented dump of the tree followed by the errors; used by
    /// the expectation tests.
    pub fn debug_dump(&self) -> String {
        let mut out = format!("{:#?}", self.syntax_node());
        for error in &self.errors {
            out.push_str(&format!("error {error}\n"));
        }
        out
    }
}

/// Parses a whole Festina source file (Annex A `Program`).
///
/// Never fails and never panics: errors are reported in
/// [`Parse::errors`] and the tree text always equals `text`.
pub fn parse(text: &str) -> Parse {
    let (tokens, lex_errors) = crate::lexer::tokenize(text);
    let (green, syntax_errors) = parse_tokens(text, &tokens);
    Parse {
        green,
        errors: merge_errors(lex_errors, syntax_errors),
    }
}

/// Parses a token stream produced by [`crate::lexer::tokenize`] for `text`
/// into a green `SOURCE_FILE` tree and the syntax errors found (the
/// lexer's errors are the caller's).
///
/// Never panics; the tree's text equals `text` provided the tokens cover
/// it (as [`crate::lexer::tokenize`] guarantees).
pub fn parse_tokens(text: &str, tokens: &[Token]) -> (GreenNode, Vec<SyntaxError>) {
    let mut replay = build::green_replay(text, tokens);
    let errors = crate::parser::parse_events(text, tokens, &mut |events| replay.feed(events));
    (replay.finish(), errors)
}

/// [`parse`] plus the typed root of the tree (its flat index, built by a
/// walk of the green tree; see [`crate::ast::Tree`]).
pub fn parse_to_ast(text: &str) -> (Parse, crate::ast::SourceFile) {
    let parse = parse(text);
    let root = crate::ast::SourceFile::with_text(&parse.green, text);
    (parse, root)
}

/// The syntax errors of `text` and its typed root, as [`parse_to_ast`]
/// gives them, without building the green tree (the tree shares `text`): the driver's checker
/// walks only the flat [`crate::ast::Tree`], which is recorded from the
/// parser's events (if the recording does not describe a whole tree,
/// this falls back to [`parse_to_ast`]).
pub fn parse_ast_only(text: std::rc::Rc<str>) -> (Vec<SyntaxError>, crate::ast::SourceFile) {
    let (tokens, lex_errors) = crate::lexer::tokenize(&text);
    let mut replay = build::flat_replay(&text, &tokens);
    let syntax_errors =
        crate::parser::parse_events(&text, &tokens, &mut |events| replay.feed(events));
    let tree = replay.finish();
    drop(tokens);
    match tree {
        Some(tree) => (
            merge_errors(lex_errors, syntax_errors),
            crate::ast::SourceFile::from_tree(tree),
        ),
        None => {
            let (parse, root) = parse_to_ast(&text);
            (parse.errors, root)
        }
    }
}

/// Lexical then syntax errors, sorted by position (stable).
fn merge_errors(
    lex_errors: Vec<crate::lexer::LexError>,
    syntax_errors: Vec<SyntaxError>,
) -> Vec<SyntaxError> {
    let mut errors: Vec<SyntaxError> = lex_errors
        .into_iter()
        .map(|e| SyntaxError::new(e.message, e.range))
        .collect();
    errors.extend(syntax_errors);
    errors.sort_by_key(|e| (e.range.start(), e.range.end()));
    errors
}
