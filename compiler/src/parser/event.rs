//! Parser events and their replay into a rowan green tree.

use rowan::{GreenNode, GreenNodeBuilder};

use crate::lexer::Token;
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
const TOMBSTONE_KIND: SyntaxKind = SyntaxKind::EOF;

impl Event {
    pub(crate) fn tombstone() -> Self {
        Event::Start {
            kind: TOMBSTONE_KIND,
            forward_parent: None,
        }
    }
}

/// Replays `events` over the raw `tokens` of `text` into a green tree.
///
/// Robust by construction: tokens not consumed by any event are appended
/// to the root before it closes, unbalanced finishes are ignored and open
/// nodes are closed, so the tree text always equals `text`.
pub(crate) fn build_tree(text: &str, tokens: &[Token], events: &mut [Event]) -> GreenNode {
    let mut sink = Sink {
        text,
        tokens,
        next_token: 0,
        offset: 0,
        builder: GreenNodeBuilder::new(),
        open: 0,
        done: false,
    };
    let mut parents = Vec::new();
    for i in 0..events.len() {
        match std::mem::replace(&mut events[i], Event::tombstone()) {
            Event::Start {
                kind,
                forward_parent,
            } => {
                collect_parents(events, i, kind, forward_parent, &mut parents);
                for kind in parents.drain(..).rev() {
                    sink.start(kind);
                }
            }
            Event::Token { kind } => sink.token(kind),
            Event::Finish => sink.finish(),
        }
    }
    sink.finish_all()
}

/// Follows the forward-parent chain starting at event `i`, tombstoning the
/// visited events; `parents` receives the kinds innermost first.
fn collect_parents(
    events: &mut [Event],
    i: usize,
    kind: SyntaxKind,
    forward_parent: Option<usize>,
    parents: &mut Vec<SyntaxKind>,
) {
    if kind != TOMBSTONE_KIND {
        parents.push(kind);
    }
    let mut idx = i;
    let mut fp = forward_parent;
    while let Some(distance) = fp {
        idx += distance;
        fp = None;
        if let Some(event) = events.get_mut(idx) {
            if let Event::Start {
                kind,
                forward_parent,
            } = std::mem::replace(event, Event::tombstone())
            {
                if kind != TOMBSTONE_KIND {
                    parents.push(kind);
                }
                fp = forward_parent;
            }
        }
    }
}

struct Sink<'a> {
    text: &'a str,
    tokens: &'a [Token],
    next_token: usize,
    offset: usize,
    builder: GreenNodeBuilder<'static>,
    open: usize,
    /// The root has been closed; later events are ignored.
    done: bool,
}

impl Sink<'_> {
    fn start(&mut self, kind: SyntaxKind) {
        if self.done {
            return;
        }
        if self.open == 0 && kind != SyntaxKind::SOURCE_FILE {
            // Everything must live under the root.
            self.builder.start_node(SyntaxKind::SOURCE_FILE.into());
            self.open += 1;
        }
        self.builder.start_node(kind.into());
        self.open += 1;
    }

    fn token(&mut self, kind: SyntaxKind) {
        let Some(token) = self.tokens.get(self.next_token) else {
            return;
        };
        if self.done {
            return;
        }
        if self.open == 0 {
            self.start(SyntaxKind::SOURCE_FILE);
        }
        let end = self.offset + token.len as usize;
        let text = self.text.get(self.offset..end).unwrap_or("");
        self.builder.token(kind.into(), text);
        self.offset = end;
        self.next_token += 1;
    }

    fn finish(&mut self) {
        match self.open {
            0 => {}
            1 => self.flush_remaining(),
            _ => {
                self.builder.finish_node();
                self.open -= 1;
            }
        }
    }

    /// Closes the root after appending any unconsumed tokens.
    fn flush_remaining(&mut self) {
        while self.next_token < self.tokens.len() {
            let kind = self.tokens[self.next_token].kind;
            self.token(kind);
        }
        self.builder.finish_node();
        self.open = 0;
        self.done = true;
    }

    fn finish_all(mut self) -> GreenNode {
        if self.done {
            return self.builder.finish();
        }
        if self.open == 0 {
            self.start(SyntaxKind::SOURCE_FILE);
        }
        while self.open > 1 {
            self.builder.finish_node();
            self.open -= 1;
        }
        if self.open == 1 {
            self.flush_remaining();
        }
        self.builder.finish()
    }
}
