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
/// [`crate::lexer::tokenize`]) and hands its events to `feed`, the tree
/// builder (see [`crate::parsing`]), one top-level statement at a time and
/// then the rest; returns the syntax errors. Never panics.
pub(crate) fn parse_events(
    text: &str,
    tokens: &[Token],
    feed: &mut dyn FnMut(&mut [Event]),
) -> Vec<SyntaxError> {
    // The parser's working data (the trivia-skip table and the event
    // list) lives exactly as long as this call: one bump arena holds it
    // all and is released in one step.
    let arena = Bump::new();
    let mut parser = Parser::new(text, tokens, &arena, feed);
    grammar::source_file(&mut parser);
    parser.hand_over();
    parser.errors
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
    /// `skip[i]`: how many raw tokens from `i` on are whitespace or
    /// comments (saturating at 255, after which the scan goes on), for
    /// cheap trivia skipping with one byte a token.
    skip: BumpVec<'t, u8>,
    pos: usize,
    /// Byte offset of raw token `pos` (offsets of other tokens are
    /// counted from it: the parser only looks a few tokens away).
    pos_offset: u32,
    /// The events not yet handed to the tree builder; the first is event
    /// number `events_base` of the whole parse.
    events: BumpVec<'t, Event>,
    events_base: usize,
    /// The tree builder, fed after each top-level statement.
    feed: &'t mut dyn FnMut(&mut [Event]),
    errors: Vec<SyntaxError>,
    ctx: Vec<Ctx>,
    depth: u32,
}

impl<'t> Parser<'t> {
    fn new(
        text: &'t str,
        tokens: &'t [Token],
        arena: &'t Bump,
        feed: &'t mut dyn FnMut(&mut [Event]),
    ) -> Self {
        let mut skip = BumpVec::from_iter_in(std::iter::repeat_n(0u8, tokens.len() + 1), arena);
        for i in (0..tokens.len()).rev() {
            if tokens[i].kind.is_trivia() {
                skip[i] = skip[i + 1].saturating_add(1);
            }
        }
        Parser {
            text,
            tokens,
            skip,
            pos: 0,
            pos_offset: 0,
            events: BumpVec::with_capacity_in(1024, arena),
            events_base: 0,
            feed,
            errors: Vec::new(),
            ctx: vec![Ctx {
                newlines_are_trivia: false,
                no_map: false,
            }],
            depth: 0,
        }
    }

    /// Hands the events so far to the tree builder.
    fn hand_over(&mut self) {
        (self.feed)(&mut self.events);
        self.events_base += self.events.len();
        self.events.clear();
    }

    /// A top-level statement is complete: no marker but the root's is
    /// open and no later `precede` can reach back into its events, so
    /// they go to the tree builder now.
    pub(crate) fn statement_done(&mut self) {
        self.hand_over();
    }

    /// The event at absolute index `pos`, if not handed over yet.
    fn event_mut(&mut self, pos: usize) -> Option<&mut Event> {
        let i = pos.checked_sub(self.events_base)?;
        self.events.get_mut(i)
    }

    /// Absolute index of the next event.
    fn next_event(&self) -> usize {
        self.events_base + self.events.len()
    }

    /// The first raw index `>= i` that is not whitespace or a comment
    /// (`tokens.len()` if none).
    fn next_significant(&self, mut i: usize) -> usize {
        loop {
            match self.skip.get(i) {
                Some(&0) | None => return i.min(self.tokens.len()),
                Some(&n) => i += n as usize,
            }
        }
    }

    /// Byte offset of the start of raw token `index` (`tokens.len()`: the
    /// end of the text).
    fn offset_of(&self, index: usize) -> TextSize {
        let index = index.min(self.tokens.len());
        let off = if index >= self.pos {
            self.tokens[self.pos..index]
                .iter()
                .fold(self.pos_offset, |o, t| o + t.len)
        } else {
            self.tokens[index..self.pos]
                .iter()
                .fold(self.pos_offset, |o, t| o - t.len)
        };
        TextSize::from(off)
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
            i = self.next_significant(i);
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
        let start = self.offset_of(index);
        let len = self.tokens.get(index).map_or(0, |t| t.len);
        TextRange::at(start, TextSize::from(len))
    }

    /// Emits every token before raw index `until` as-is.
    fn flush_to(&mut self, until: usize) {
        while self.pos < until {
            let Token { kind, len } = self.tokens[self.pos];
            self.events.push(Event::Token { kind });
            self.pos += 1;
            self.pos_offset += len;
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
            None => TextRange::empty(self.offset_of(self.tokens.len())),
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
        let start = self.offset_of(from);
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
        text.get(usize::from(self.offset_of(i + 1))..usize::from(self.offset_of(end)))
            .unwrap_or("")
            .trim()
    }

    fn prev_significant_end(&self) -> TextSize {
        (0..self.pos)
            .rev()
            .find(|&i| !self.tokens[i].kind.is_trivia() && self.tokens[i].kind != NEWLINE)
            .map_or(self.offset_of(self.pos), |i| self.offset_of(i + 1))
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
        let pos = self.next_event();
        self.events.push(Event::tombstone());
        Marker {
            pos,
            start_token: 0,
        }
    }

    /// Starts a node at the next significant token.
    pub(crate) fn start(&mut self) -> Marker {
        self.flush_trivia();
        let pos = self.next_event();
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
        // The root's start went to the tree builder with the first
        // statement; the builder opens the root by itself.
        if let Some(Event::Start { kind: slot, .. }) = p.event_mut(self.pos) {
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
        if self.pos + 1 == p.next_event() && !p.events.is_empty() {
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
        let new_pos = p.next_event();
        p.events.push(Event::tombstone());
        if let Some(Event::Start { forward_parent, .. }) = p.event_mut(self.pos) {
            *forward_parent = u32::try_from(new_pos - self.pos)
                .ok()
                .and_then(std::num::NonZeroU32::new);
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
