//! The hand-written recursive-descent parser (§9-§11, Annex A).
//!
//! The parser reads the lexer's tokens and only emits events (start
//! node, token, finish node; `parse_events`); [`crate::parsing`] builds
//! the tree from them, a rowan green tree or the flat index the typed
//! views walk instead (see [`crate::ast::Tree`]). Trivia
//! never reach the grammar functions: the [`Parser`] skips whitespace and
//! comments, and also `NEWLINE` tokens wherever the current context says
//! line feeds are insignificant (inside `( )`, `[ ]`, map literals and
//! argument lists, after an operator).
//! Every skipped token is still emitted, so the tree is lossless.
//!
//! Beyond §7.1, and as the reference compiler (which reads line feeds as
//! blanks) accepts: a line that begins with a binary operator, `?`, `:` or
//! `=` continues the expression of the line before, and a statement may
//! follow another on the same line after blanks only (see
//! `grammar::stmt::statement_end`). A line that begins with `(` or `[`
//! still starts a new statement.
//!
//! Errors are collected, never thrown; see [`crate::parsing`] for the
//! recovery strategy. Every loop in the grammar consumes at least one
//! token per iteration or exits, and nesting is capped at
//! [`MAX_DEPTH`] levels, so the parser terminates on any input and never
//! overflows the stack.

#![warn(missing_docs)]

mod event;
mod grammar;

use rowan::{TextRange, TextSize};

use crate::lexer::Token;
use crate::syntax::{SyntaxError, SyntaxKind};
use bumpalo::collections::Vec as BumpVec;
use bumpalo::Bump;
pub(crate) use event::{Event, TOMBSTONE_KIND};
use SyntaxKind::*;

/// Maximum nesting of blocks and expressions before the parser stops
/// descending and reports `nesting too deep`.
pub const MAX_DEPTH: u32 = 96;

/// Runs the grammar over the tokens of `text` (as produced by
/// [`crate::lexer::tokenize`]) and hands its events to `build`, which
/// builds the tree (see [`crate::parsing`]); returns what `build` made and
/// the syntax errors. Never panics.
pub(crate) fn parse_events<T>(
    text: &str,
    tokens: &[Token],
    build: impl FnOnce(&mut [Event]) -> T,
) -> (T, Vec<SyntaxError>) {
    // The parser's working data (token offsets, the trivia-skip table and
    // the event list) lives exactly as long as this call: one bump arena
    // holds it all and is released in one step when the tree is built.
    let arena = Bump::new();
    let mut parser = Parser::new(text, tokens, &arena);
    grammar::source_file(&mut parser);
    let Parser {
        mut events, errors, ..
    } = parser;
    (build(&mut events), errors)
}

/// How line feeds and `{` are treated in the current region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ctx {
    /// `NEWLINE` is skipped like whitespace.
    pub(crate) newlines_are_trivia: bool,
    /// A `{` may not start a map literal (conditions, §10.4).
    pub(crate) no_map: bool,
}

/// Parser state: the raw tokens, a cursor, the events and errors so far.
pub(crate) struct Parser<'t> {
    text: &'t str,
    tokens: &'t [Token],
    offsets: BumpVec<'t, TextSize>,
    /// `next_sig[i]`: the first index `>= i` that is not whitespace or a
    /// comment (`tokens.len()` if none), for O(1) trivia skipping.
    next_sig: BumpVec<'t, usize>,
    pos: usize,
    events: BumpVec<'t, Event>,
    errors: Vec<SyntaxError>,
    ctx: Vec<Ctx>,
    depth: u32,
}

impl<'t> Parser<'t> {
    fn new(text: &'t str, tokens: &'t [Token], arena: &'t Bump) -> Self {
        let mut offsets = BumpVec::with_capacity_in(tokens.len() + 1, arena);
        let mut offset = TextSize::from(0);
        for token in tokens {
            offsets.push(offset);
            offset += TextSize::from(token.len);
        }
        offsets.push(offset);
        let mut next_sig =
            BumpVec::from_iter_in(std::iter::repeat_n(tokens.len(), tokens.len() + 1), arena);
        for i in (0..tokens.len()).rev() {
            next_sig[i] = if tokens[i].kind.is_trivia() {
                next_sig[i + 1]
            } else {
                i
            };
        }
        Parser {
            text,
            tokens,
            offsets,
            next_sig,
            pos: 0,
            events: BumpVec::with_capacity_in(tokens.len() * 2, arena),
            errors: Vec::new(),
            ctx: vec![Ctx {
                newlines_are_trivia: false,
                no_map: false,
            }],
            depth: 0,
        }
    }

    fn current_ctx(&self) -> Ctx {
        self.ctx.last().copied().unwrap_or(Ctx {
            newlines_are_trivia: false,
            no_map: false,
        })
    }

    /// Runs `f` with newlines significant or not, and maps allowed or not.
    pub(crate) fn with_ctx<R>(
        &mut self,
        newlines_are_trivia: bool,
        no_map: bool,
        f: impl FnOnce(&mut Self) -> R,
    ) -> R {
        self.ctx.push(Ctx {
            newlines_are_trivia,
            no_map,
        });
        let result = f(self);
        self.ctx.pop();
        result
    }

    /// True when line feeds are currently skipped like whitespace.
    pub(crate) fn newlines_are_trivia(&self) -> bool {
        self.current_ctx().newlines_are_trivia
    }

    /// True when `{` may not open a map literal here.
    pub(crate) fn no_map(&self) -> bool {
        self.current_ctx().no_map
    }

    /// Raw index of the `n`th significant token from the cursor, if any.
    fn nth_index(&self, n: usize) -> Option<usize> {
        let skip_newlines = self.current_ctx().newlines_are_trivia;
        let mut seen = 0;
        let mut i = self.pos;
        loop {
            i = *self.next_sig.get(i)?;
            let kind = self.tokens.get(i)?.kind;
            if !(skip_newlines && kind == NEWLINE) {
                if seen == n {
                    return Some(i);
                }
                seen += 1;
            }
            i += 1;
        }
    }

    /// Kind of the `n`th significant token ahead (`EOF` past the end).
    pub(crate) fn nth(&self, n: usize) -> SyntaxKind {
        self.nth_index(n).map_or(EOF, |i| self.tokens[i].kind)
    }

    /// Kind of the next significant token.
    pub(crate) fn current(&self) -> SyntaxKind {
        self.nth(0)
    }

    /// True when the next significant token is `kind`.
    pub(crate) fn at(&self, kind: SyntaxKind) -> bool {
        self.current() == kind
    }

    /// True when the next significant token is one of `kinds`.
    pub(crate) fn at_any(&self, kinds: &[SyntaxKind]) -> bool {
        kinds.contains(&self.current())
    }

    /// Source text of the `n`th significant token ahead (empty past EOF).
    pub(crate) fn nth_text(&self, n: usize) -> &'t str {
        self.nth_index(n).map_or("", |i| {
            let range = self.range_of(i);
            let text: &'t str = self.text;
            text.get(usize::from(range.start())..usize::from(range.end()))
                .unwrap_or("")
        })
    }

    /// True when the next token is the identifier `word` (a contextual
    /// keyword such as `default` or `use`, §7.4).
    pub(crate) fn at_contextual(&self, word: &str) -> bool {
        self.at(IDENT) && self.nth_text(0) == word
    }

    fn range_of(&self, index: usize) -> TextRange {
        TextRange::new(self.offsets[index], self.offsets[index + 1])
    }

    /// Emits every token before raw index `until` as-is.
    fn flush_to(&mut self, until: usize) {
        while self.pos < until {
            let kind = self.tokens[self.pos].kind;
            self.events.push(Event::Token { kind });
            self.pos += 1;
        }
    }

    /// Emits the trivia (and skipped newlines) before the next significant
    /// token, so that a node started now begins at that token.
    fn flush_trivia(&mut self) {
        let until = self.nth_index(0).unwrap_or(self.tokens.len());
        self.flush_to(until);
    }

    /// Consumes the next significant token (no-op at EOF).
    pub(crate) fn bump(&mut self) {
        if let Some(index) = self.nth_index(0) {
            self.flush_to(index + 1);
        }
    }

    /// Consumes the next token, then any line feeds after it: used after
    /// operators, `=`, `,`, `(`, `?`, `:` and `=>`, where a line may break.
    pub(crate) fn bump_then_skip_newlines(&mut self) {
        self.bump();
        self.skip_newlines();
    }

    /// Consumes line feeds (and the trivia around them) at the cursor.
    pub(crate) fn skip_newlines(&mut self) {
        while self
            .nth_index(0)
            .is_some_and(|i| self.tokens[i].kind == NEWLINE)
        {
            self.bump();
        }
    }

    /// Kind of the first significant token after any run of line feeds.
    pub(crate) fn current_after_newlines(&self) -> SyntaxKind {
        let mut n = 0;
        while self.nth(n) == NEWLINE {
            n += 1;
        }
        self.nth(n)
    }

    /// Consumes the next token if it is `kind`.
    pub(crate) fn eat(&mut self, kind: SyntaxKind) -> bool {
        if self.at(kind) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consumes `kind` or reports `expected {what}`.
    pub(crate) fn expect(&mut self, kind: SyntaxKind, what: &str) -> bool {
        if self.eat(kind) {
            return true;
        }
        self.error(format!("expected {what}"));
        false
    }

    /// Records an error at the next significant token, or just after the
    /// previous one when the next is a line feed or the end of input.
    pub(crate) fn error(&mut self, message: impl Into<String>) {
        if self.at_lexer_error() {
            // The lexer already reported this token.
            return;
        }
        let range = match self.nth_index(0) {
            Some(i) if self.tokens[i].kind != NEWLINE && !self.newline_before_current() => {
                self.range_of(i)
            }
            _ => {
                let at = self.prev_significant_end();
                TextRange::empty(at)
            }
        };
        self.error_at(range, message);
    }

    /// Records an error at an explicit range (at most one per range).
    pub(crate) fn error_at(&mut self, range: TextRange, message: impl Into<String>) {
        if self.errors.last().is_some_and(|last| last.range == range) {
            return;
        }
        self.errors.push(SyntaxError::new(message, range));
    }

    /// True when the next token is an `ERROR` token from the lexer on the
    /// current line (already reported as a lexical error).
    pub(crate) fn at_lexer_error(&self) -> bool {
        self.at(ERROR) && !self.newline_before_current()
    }

    /// Source range of the next significant token (empty at EOF).
    pub(crate) fn current_range(&self) -> TextRange {
        match self.nth_index(0) {
            Some(i) => self.range_of(i),
            None => TextRange::empty(self.offsets[self.tokens.len()]),
        }
    }

    /// True when the raw token right after the next significant token
    /// (with nothing in between) is `kind`, e.g. the `=` of `+=`.
    pub(crate) fn next_is_glued(&self, kind: SyntaxKind) -> bool {
        self.nth_index(0)
            .and_then(|i| self.tokens.get(i + 1))
            .is_some_and(|t| t.kind == kind)
    }

    /// Source text from the start of raw token `from` to the end of the
    /// last consumed significant token.
    pub(crate) fn text_since(&self, from: usize) -> &'t str {
        let range = self.range_since(from);
        let text: &'t str = self.text;
        text.get(usize::from(range.start())..usize::from(range.end()))
            .unwrap_or("")
    }

    /// Source range from the start of raw token `from` to the end of the
    /// last consumed significant token.
    pub(crate) fn range_since(&self, from: usize) -> TextRange {
        let start = self.offsets[from.min(self.tokens.len())];
        TextRange::new(start, self.prev_significant_end().max(start))
    }

    /// Source text after the next significant token up to the end of its
    /// line (or a `;`), trimmed.
    pub(crate) fn rest_of_line_after_current(&self) -> &'t str {
        let Some(i) = self.nth_index(0) else {
            return "";
        };
        let end = (i + 1..self.tokens.len())
            .find(|&j| matches!(self.tokens[j].kind, NEWLINE | SEMICOLON))
            .unwrap_or(self.tokens.len());
        let text: &'t str = self.text;
        text.get(usize::from(self.offsets[i + 1])..usize::from(self.offsets[end]))
            .unwrap_or("")
            .trim()
    }

    fn prev_significant_end(&self) -> TextSize {
        (0..self.pos)
            .rev()
            .find(|&i| !self.tokens[i].kind.is_trivia() && self.tokens[i].kind != NEWLINE)
            .map_or(self.offsets[self.pos], |i| self.offsets[i + 1])
    }

    /// Reports `message` and wraps the next token in an `ERROR` node
    /// (at EOF only reports).
    pub(crate) fn err_and_bump(&mut self, message: impl Into<String>) {
        self.error(message);
        if !self.at(EOF) {
            let m = self.start();
            self.bump();
            m.complete(self, ERROR);
        }
    }

    /// Number of syntax errors reported so far.
    pub(crate) fn error_count(&self) -> usize {
        self.errors.len()
    }

    /// True when a line feed separates the cursor from the next
    /// significant token (only possible where newlines are trivia).
    pub(crate) fn newline_before_current(&self) -> bool {
        let until = self.nth_index(0).unwrap_or(self.tokens.len());
        self.tokens[self.pos..until]
            .iter()
            .any(|t| t.kind == NEWLINE)
    }

    /// Raw cursor position, used to check that loops make progress.
    pub(crate) fn progress_mark(&self) -> usize {
        self.pos
    }

    /// Starts the root node at the very first byte (before any trivia).
    pub(crate) fn start_root(&mut self) -> Marker {
        let pos = self.events.len();
        self.events.push(Event::tombstone());
        Marker {
            pos,
            start_token: 0,
        }
    }

    /// Starts a node at the next significant token.
    pub(crate) fn start(&mut self) -> Marker {
        self.flush_trivia();
        let pos = self.events.len();
        self.events.push(Event::tombstone());
        Marker {
            pos,
            start_token: self.pos,
        }
    }

    /// Enters one nesting level; false (after reporting once per
    /// excursion) when [`MAX_DEPTH`] is exceeded.
    pub(crate) fn enter(&mut self) -> bool {
        self.depth += 1;
        if self.depth == MAX_DEPTH + 1 {
            self.error("nesting too deep");
        }
        self.depth <= MAX_DEPTH
    }

    /// Leaves a level entered with [`Parser::enter`].
    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Emits every remaining token (used at the end of the file).
    pub(crate) fn flush_all(&mut self) {
        self.flush_to(self.tokens.len());
    }
}

/// An open node; must be completed or abandoned.
pub(crate) struct Marker {
    pos: usize,
    start_token: usize,
}

impl Marker {
    /// Finishes the node as `kind`.
    pub(crate) fn complete(self, p: &mut Parser<'_>, kind: SyntaxKind) -> CompletedMarker {
        if let Some(Event::Start { kind: slot, .. }) = p.events.get_mut(self.pos) {
            *slot = kind;
        }
        p.events.push(Event::Finish);
        CompletedMarker {
            pos: self.pos,
            start_token: self.start_token,
        }
    }

    /// Drops the node; its children stay in the parent.
    pub(crate) fn abandon(self, p: &mut Parser<'_>) {
        if self.pos + 1 == p.events.len() {
            p.events.pop();
        }
    }
}

/// A finished node, which can still be wrapped by a new parent.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CompletedMarker {
    pos: usize,
    start_token: usize,
}

impl CompletedMarker {
    /// Starts a new node that will contain this one as its first child.
    pub(crate) fn precede(self, p: &mut Parser<'_>) -> Marker {
        let new_pos = p.events.len();
        p.events.push(Event::tombstone());
        if let Some(Event::Start { forward_parent, .. }) = p.events.get_mut(self.pos) {
            *forward_parent = Some(new_pos - self.pos);
        }
        Marker {
            pos: new_pos,
            start_token: self.start_token,
        }
    }

    /// Raw index of the node's first token.
    pub(crate) fn start_token(self) -> usize {
        self.start_token
    }
}
