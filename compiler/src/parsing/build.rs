//! Building the tree: the parser's events replayed into a rowan green
//! tree, or into the flat index of the typed views alone.
//!
//! The tree is assembled by [`TreeBuilder`] rather than rowan's
//! `GreenNodeBuilder`: rowan's `NodeCache` hashes with FxHash 1.x, whose
//! hashes of similar short texts (`'k1'`, `'k2'`, ...) collide in its hash
//! table, so a literal with 100,000 distinct keys took seconds to build
//! (every lookup walked a long probe chain). [`TreeBuilder`] interns
//! short tokens and small nodes in tables keyed by the token text (a slice
//! of the source) and by child identity, with hashbrown's default hasher.
//!
//! When only the flat index of the typed views is wanted (the driver),
//! the same replay feeds the index alone ([`FlatOnly`]), without building
//! the green tree.

use hashbrown::HashMap;
use rowan::{GreenNode, GreenToken, NodeOrToken};

use crate::ast::{Tree, TreeRecorder};
use crate::lexer::Token;
use crate::parser::{Event, TOMBSTONE_KIND};
use crate::syntax::SyntaxKind;
use std::rc::Rc;

/// Replays events over the raw `tokens` of `text` into a green tree,
/// chunk by chunk as the parser hands them over ([`Replay::feed`]).
///
/// Robust by construction: tokens not consumed by any event are appended
/// to the root before it closes, unbalanced finishes are ignored and open
/// nodes are closed, so the tree text always equals `text`.
pub(crate) fn green_replay<'a>(
    text: &'a str,
    tokens: &'a [Token],
) -> Replay<'a, impl TreeTarget<'a, Output = GreenNode>> {
    Replay::new(text, tokens, TreeBuilder::default())
}

/// Replays events as [`green_replay`] does, into the flat index of the
/// typed views alone, without building the green tree (the driver's case:
/// no later stage reads the green tree). Its output is `None` if the
/// recording does not describe one whole tree.
pub(crate) fn flat_replay<'a>(
    text: &'a Rc<str>,
    tokens: &'a [Token],
) -> Replay<'a, impl TreeTarget<'a, Output = Option<Rc<Tree>>>> {
    Replay::new(
        text,
        tokens,
        FlatOnly(TreeRecorder::new(text.len()), Rc::clone(text)),
    )
}

/// What a replay builds: the green tree ([`TreeBuilder`]) or the flat
/// index alone ([`FlatOnly`]). One replay ([`Sink`]) serves both; the
/// choice is made at compile time.
pub(crate) trait TreeTarget<'a> {
    /// What the finished replay yields.
    type Output;
    fn start_node(&mut self, kind: SyntaxKind);
    /// A token of `len` bytes at `offset` in the source `text`.
    fn token(&mut self, kind: SyntaxKind, text: &'a str, offset: usize, len: u32);
    fn finish_node(&mut self);
    fn finish(self) -> Self::Output;
}

/// The flat index of the typed views without a green tree.
struct FlatOnly(TreeRecorder, Rc<str>);

impl<'a> TreeTarget<'a> for FlatOnly {
    type Output = Option<Rc<Tree>>;
    fn start_node(&mut self, kind: SyntaxKind) {
        self.0.start_node(kind);
    }
    fn token(&mut self, kind: SyntaxKind, _text: &'a str, _offset: usize, len: u32) {
        self.0.token(kind, len);
    }
    fn finish_node(&mut self) {
        self.0.finish_node();
    }
    fn finish(self) -> Option<Rc<Tree>> {
        self.0.finish(&self.1)
    }
}

impl<'a> TreeTarget<'a> for TreeBuilder<'a> {
    type Output = GreenNode;
    fn start_node(&mut self, kind: SyntaxKind) {
        TreeBuilder::start_node(self, kind);
    }
    fn token(&mut self, kind: SyntaxKind, text: &'a str, offset: usize, len: u32) {
        let token = text.get(offset..offset + len as usize).unwrap_or("");
        TreeBuilder::token(self, kind, token);
    }
    fn finish_node(&mut self) {
        TreeBuilder::finish_node(self);
    }
    fn finish(self) -> GreenNode {
        TreeBuilder::finish(self)
    }
}

/// An event replay in progress: the events of each top-level statement
/// are fed as the parser finishes it, then [`Replay::finish`] closes the
/// tree. Forward parents (`Marker::precede`) never reach across a feed,
/// since the parser hands over only whole top-level statements.
pub(crate) struct Replay<'a, T> {
    sink: Sink<'a, T>,
    parents: Vec<SyntaxKind>,
}

impl<'a, T: TreeTarget<'a>> Replay<'a, T> {
    fn new(text: &'a str, tokens: &'a [Token], target: T) -> Self {
        Replay {
            sink: Sink {
                text,
                tokens,
                next_token: 0,
                offset: 0,
                builder: target,
                open: 0,
                done: false,
            },
            parents: Vec::new(),
        }
    }

    /// Replays the next `events`.
    pub(crate) fn feed(&mut self, events: &mut [Event]) {
        let sink = &mut self.sink;
        for i in 0..events.len() {
            // Event `i` is never read again; only the forward parents that
            // `collect_parents` visits later in the list are tombstoned.
            match events[i] {
                // The common case: no forward parent to open first.
                Event::Start {
                    kind,
                    forward_parent: None,
                } => {
                    if kind != TOMBSTONE_KIND {
                        sink.start(kind);
                    }
                }
                Event::Start {
                    kind,
                    forward_parent,
                } => {
                    collect_parents(events, i, kind, forward_parent, &mut self.parents);
                    for kind in self.parents.drain(..).rev() {
                        sink.start(kind);
                    }
                }
                Event::Token { kind } => sink.token(kind),
                Event::Finish => sink.finish(),
            }
        }
    }

    /// Closes the tree and yields it.
    pub(crate) fn finish(self) -> T::Output {
        self.sink.finish_all()
    }
}

/// Follows the forward-parent chain starting at event `i`, tombstoning the
/// visited events; `parents` receives the kinds innermost first.
fn collect_parents(
    events: &mut [Event],
    i: usize,
    kind: SyntaxKind,
    forward_parent: Option<std::num::NonZeroU32>,
    parents: &mut Vec<SyntaxKind>,
) {
    if kind != TOMBSTONE_KIND {
        parents.push(kind);
    }
    let mut idx = i;
    let mut fp = forward_parent;
    while let Some(distance) = fp {
        idx += distance.get() as usize;
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

struct Sink<'a, T> {
    text: &'a str,
    tokens: &'a [Token],
    next_token: usize,
    offset: usize,
    builder: T,
    open: usize,
    /// The root has been closed; later events are ignored.
    done: bool,
}

impl<'a, T: TreeTarget<'a>> Sink<'a, T> {
    fn start(&mut self, kind: SyntaxKind) {
        if self.done {
            return;
        }
        if self.open == 0 && kind != SyntaxKind::SOURCE_FILE {
            // Everything must live under the root.
            self.builder.start_node(SyntaxKind::SOURCE_FILE);
            self.open += 1;
        }
        self.builder.start_node(kind);
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
        self.builder.token(kind, self.text, self.offset, token.len);
        self.offset += token.len as usize;
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

    fn finish_all(mut self) -> T::Output {
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

/// Whether two short token texts are equal (a byte loop: cheaper than a
/// `memcmp` call for the one- to few-byte texts compared here).
fn same_text(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// A child of a node under construction.
type Element = NodeOrToken<GreenNode, GreenToken>;

/// Tokens up to this many bytes are interned (identifiers, keywords,
/// punctuation, indentation); longer ones are rarely repeated.
const MAX_INTERNED_TOKEN: usize = 24;

/// Nodes with up to this many children are interned (`NAME_REF`,
/// `LITERAL`, small types, and binary expressions such as `i + 1`, whose
/// operands, operator and two spaces make five children). On the
/// front-end benchmark 6 needs fewer instructions than 3 or 10.
const MAX_INTERNED_CHILDREN: usize = 6;

/// Builds a green tree bottom-up, like rowan's `GreenNodeBuilder`, with
/// its own interning (see the module documentation).
#[derive(Default)]
struct TreeBuilder<'a> {
    /// Open nodes: kind and index of their first child in `children`.
    parents: Vec<(SyntaxKind, usize)>,
    children: Vec<Element>,
    tokens: HashMap<(SyntaxKind, &'a str), GreenToken>,
    /// The last two distinct interned tokens of each kind (indexed by the
    /// raw kind), newest first: punctuation, keywords and line feeds
    /// always repeat their text and indentation alternates between a few
    /// widths, so most tokens are found here without hashing.
    recent: Vec<[Option<GreenToken>; 2]>,
    /// Small nodes by kind and the identities (addresses) of their
    /// children, which are themselves interned or unique.
    nodes: HashMap<(SyntaxKind, [usize; MAX_INTERNED_CHILDREN]), GreenNode>,
}

impl<'a> TreeBuilder<'a> {
    fn start_node(&mut self, kind: SyntaxKind) {
        self.parents.push((kind, self.children.len()));
    }

    fn token(&mut self, kind: SyntaxKind, text: &'a str) {
        let token = if text.len() <= MAX_INTERNED_TOKEN {
            let slot = kind as usize;
            if slot >= self.recent.len() {
                self.recent
                    .resize(SyntaxKind::ALL.len().max(slot + 1), [None, None]);
            }
            let recent = &mut self.recent[slot];
            if let Some(t) = recent.iter().flatten().find(|t| same_text(t.text(), text)) {
                t.clone()
            } else {
                let t = self
                    .tokens
                    .entry((kind, text))
                    .or_insert_with(|| GreenToken::new(kind.into(), text))
                    .clone();
                recent[1] = recent[0].replace(t.clone());
                t
            }
        } else {
            GreenToken::new(kind.into(), text)
        };
        self.children.push(NodeOrToken::Token(token));
    }

    fn finish_node(&mut self) {
        let Some((kind, first)) = self.parents.pop() else {
            return;
        };
        let node = self.node(kind, first);
        self.children.push(NodeOrToken::Node(node));
    }

    /// The node of `kind` whose children are `children[first..]` (drained).
    fn node(&mut self, kind: SyntaxKind, first: usize) -> GreenNode {
        let count = self.children.len() - first;
        if count > MAX_INTERNED_CHILDREN {
            return GreenNode::new(kind.into(), self.children.drain(first..));
        }
        let mut key = [0usize; MAX_INTERNED_CHILDREN];
        for (slot, child) in key.iter_mut().zip(&self.children[first..]) {
            *slot = match child {
                NodeOrToken::Node(n) => &**n as *const rowan::GreenNodeData as usize,
                NodeOrToken::Token(t) => &**t as *const rowan::GreenTokenData as usize,
            };
        }
        // A node's identity includes how many children it has: an
        // address is never 0, so the zero padding cannot be mistaken for
        // a child.
        let children = &mut self.children;
        let node = self
            .nodes
            .entry((kind, key))
            .or_insert_with(|| GreenNode::new(kind.into(), children.drain(first..)))
            .clone();
        self.children.truncate(first);
        node
    }

    /// The finished root (the last node closed); an empty `SOURCE_FILE`
    /// if there is none.
    fn finish(mut self) -> GreenNode {
        match self.children.pop() {
            Some(NodeOrToken::Node(node)) => node,
            _ => GreenNode::new(SyntaxKind::SOURCE_FILE.into(), std::iter::empty()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SyntaxKind::*;

    /// The flat-only replay records the same index as a walk of the green
    /// tree the same events build, including for unbalanced event lists, tokens no
    /// event consumes and events after the root closed.
    #[test]
    fn flat_replay_matches_green_replay() {
        let text = "a b\nc;";
        let (tokens, _) = crate::lexer::tokenize(text);
        let start = |kind| Event::Start {
            kind,
            forward_parent: None,
        };
        let tok = |kind| Event::Token { kind };
        let cases: Vec<Vec<Event>> = vec![
            vec![],
            vec![Event::Finish, Event::Finish],
            vec![start(SOURCE_FILE), tok(IDENT), Event::Finish],
            vec![start(NAME_REF), tok(IDENT), Event::Finish, tok(WHITESPACE)],
            vec![
                start(SOURCE_FILE),
                start(NAME_REF),
                tok(IDENT),
                Event::Finish,
                Event::Finish,
                start(NAME_REF),
                tok(IDENT),
                Event::Finish,
            ],
            vec![
                Event::tombstone(),
                start(BIN_EXPR),
                Event::Start {
                    kind: NAME_REF,
                    forward_parent: std::num::NonZeroU32::new(1),
                },
                start(PAREN_EXPR),
                tok(IDENT),
                tok(WHITESPACE),
                tok(IDENT),
            ],
            (0..20).map(|_| tok(IDENT)).collect(),
        ];
        for events in cases {
            let mut green = green_replay(text, &tokens);
            green.feed(&mut events.clone());
            let green = green.finish();
            let walked = Tree::build(&green, 0.into(), Some(text));
            let shared: Rc<str> = Rc::from(text);
            let mut flat = flat_replay(&shared, &tokens);
            flat.feed(&mut events.clone());
            let flat = flat.finish();
            let flat = flat.unwrap_or_else(|| panic!("no whole tree recorded: {events:?}"));
            assert!(flat.same_as(&walked), "{events:?}");
        }
    }
}
