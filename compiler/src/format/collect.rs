//! Phase one of the formatter: the green tree flattened into the tokens
//! that are printed ([`Tok`]), each with what the layout needs to know
//! about its place in the tree.
//!
//! Whitespace is dropped and line feeds are counted into
//! [`Tok::newlines_before`]; a template literal becomes one opaque token
//! (its text is part of the value). Separators that the canonical style
//! writes differently are settled here: statement `;`s and the commas
//! between struct fields are dropped, list commas are added between items
//! separated by blanks only and after the last item of a list whose
//! closer is on its own line, and removed after the last item otherwise.

use crate::syntax::SyntaxKind::{self, *};
use rowan::{GreenNodeData, NodeOrToken};

/// Id of the root node (`SOURCE_FILE`).
pub(super) const ROOT: u32 = 0;
/// [`Tok::start_parent`] of a token that starts no node.
pub(super) const NO_NODE: u32 = u32::MAX;

/// One printed token.
#[derive(Debug, Clone)]
pub(super) struct Tok<'a> {
    pub kind: SyntaxKind,
    /// The token's text; for a template literal, the whole literal.
    pub text: &'a str,
    /// Line feeds in the source between the previous token and this one.
    pub newlines_before: u32,
    /// Kind of the node holding the token.
    pub parent: SyntaxKind,
    /// Kind of that node's parent (`EOF` for the root).
    pub grandparent: SyntaxKind,
    /// Id of the node holding the token (ids number nodes in preorder).
    pub owner: u32,
    /// Id of the parent of the outermost node this token starts, or
    /// [`NO_NODE`]: a token starts a statement of a block when this is
    /// the block's id, an item of a list when it is the list's.
    pub start_parent: u32,
    /// Not printed (a separator the canonical style leaves out).
    pub dropped: bool,
    /// A `,` is printed right after this token.
    pub comma_after: bool,
    /// For the `{` of a block, struct, table or match body: the body is
    /// printed on one line (`{ return x }`, `{}`).
    pub one_line: bool,
}

/// A node on the walk's stack.
struct Frame<'g> {
    id: u32,
    kind: SyntaxKind,
    children: rowan::Children<'g>,
}

/// What decides whether a body stays on one line, gathered while its
/// tokens are walked.
struct Body {
    /// Id of the `BLOCK`, `STRUCT_DECL`, `TABLE_DECL` or `MATCH_STMT`.
    id: u32,
    kind: SyntaxKind,
    /// Index of its `{` in the token list.
    open: Option<usize>,
    has_newline: bool,
    has_comment: bool,
    /// Statements (arms, fields) directly inside.
    elements: u32,
    /// A nested body that cannot be on one line.
    forces_break: bool,
}

/// Node kinds whose `{ ... }` holds statements, fields or arms, one per
/// line.
pub(super) fn is_body(kind: SyntaxKind) -> bool {
    matches!(kind, BLOCK | STRUCT_DECL | TABLE_DECL | MATCH_STMT)
}

/// Node kinds whose elements are statements, fields or arms.
pub(super) fn is_container(kind: SyntaxKind) -> bool {
    kind == SOURCE_FILE || is_body(kind)
}

/// Node kinds whose brackets hold a comma-separated list.
fn is_comma_list(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        ARG_LIST | PARAM_LIST | ARRAY_LIT | MAP_LIT | FUNC_TYPE
    )
}

/// The printed tokens of the tree rooted at `root` (a `SOURCE_FILE`)
/// whose text is `source`.
pub(super) fn collect<'a>(root: &GreenNodeData, source: &'a str) -> Vec<Tok<'a>> {
    let mut toks: Vec<Tok<'a>> = Vec::new();
    // Byte offset in `source` of the next token.
    let mut offset = 0usize;
    let slice = |from: usize, len: usize| source.get(from..from + len).unwrap_or("");
    let mut stack: Vec<Frame<'_>> = vec![Frame {
        id: ROOT,
        kind: SOURCE_FILE,
        children: root.children(),
    }];
    let mut bodies: Vec<Body> = Vec::new();
    let mut next_id = ROOT + 1;
    let mut newlines = 0u32;
    // Parent id of the outermost node entered since the last token.
    let mut pending_start = NO_NODE;
    while let Some(frame) = stack.last_mut() {
        let Some(child) = frame.children.next() else {
            let done = stack.pop().expect("a frame is on the stack");
            if is_body(done.kind) {
                leave_body(&mut bodies, &mut toks);
            }
            continue;
        };
        let (parent_id, parent_kind) = (frame.id, frame.kind);
        let grandparent = stack.len().checked_sub(2).map_or(EOF, |i| stack[i].kind);
        match child {
            NodeOrToken::Node(node) => {
                let kind = SyntaxKind::from_raw(node.kind().0);
                let id = next_id;
                next_id += 1;
                if pending_start == NO_NODE {
                    pending_start = parent_id;
                }
                if let Some(body) = bodies.last_mut() {
                    if body.id == parent_id && (body.kind == BLOCK || is_element(body.kind, kind)) {
                        body.elements += 1;
                    }
                }
                if kind == TEMPLATE {
                    // One opaque token: the literal's text is its value.
                    let len = usize::from(node.text_len());
                    let text = slice(offset, len);
                    offset += len;
                    if text.contains('\n') {
                        if let Some(body) = bodies.last_mut() {
                            body.has_newline = true;
                        }
                    }
                    toks.push(Tok {
                        kind: TEMPLATE,
                        text,
                        newlines_before: std::mem::take(&mut newlines),
                        parent: parent_kind,
                        grandparent,
                        owner: parent_id,
                        start_parent: std::mem::replace(&mut pending_start, NO_NODE),
                        dropped: false,
                        comma_after: false,
                        one_line: false,
                    });
                    continue;
                }
                if is_body(kind) {
                    bodies.push(Body {
                        id,
                        kind,
                        open: None,
                        has_newline: false,
                        has_comment: false,
                        elements: 0,
                        forces_break: false,
                    });
                }
                stack.push(Frame {
                    id,
                    kind,
                    children: node.children(),
                });
            }
            NodeOrToken::Token(token) => {
                let kind = SyntaxKind::from_raw(token.kind().0);
                let len = token.text().len();
                let text = slice(offset, len);
                offset += len;
                match kind {
                    WHITESPACE => continue,
                    NEWLINE => {
                        newlines += 1;
                        if let Some(body) = bodies.last_mut() {
                            body.has_newline = true;
                        }
                        continue;
                    }
                    COMMENT => {
                        if let Some(body) = bodies.last_mut() {
                            body.has_comment = true;
                        }
                    }
                    _ => {}
                }
                let significant = kind != COMMENT;
                let dropped = (kind == SEMICOLON && is_container(parent_kind))
                    || (kind == COMMA && matches!(parent_kind, STRUCT_DECL | TABLE_DECL));
                if kind == L_CURLY && is_body(parent_kind) {
                    if let Some(body) = bodies.last_mut() {
                        if body.id == parent_id {
                            body.open = Some(toks.len());
                        }
                    }
                }
                let start_parent = if significant {
                    std::mem::replace(&mut pending_start, NO_NODE)
                } else {
                    NO_NODE
                };
                let text = if kind == COMMENT {
                    text.trim_end()
                } else {
                    text
                };
                let newlines_before = std::mem::take(&mut newlines);
                toks.push(Tok {
                    kind,
                    text,
                    newlines_before,
                    parent: parent_kind,
                    grandparent,
                    owner: parent_id,
                    start_parent,
                    dropped,
                    comma_after: false,
                    one_line: false,
                });
            }
        }
    }
    keep_needed_semicolons(&mut toks);
    carry_newlines(&mut toks);
    settle_list_commas(&mut toks);
    // Again, for the trailing commas just dropped.
    carry_newlines(&mut toks);
    toks
}

/// True when a child node of `kind` is one element of the body `body`:
/// a field of a struct or table, an arm of a match.
fn is_element(body: SyntaxKind, kind: SyntaxKind) -> bool {
    match body {
        STRUCT_DECL | TABLE_DECL => kind == FIELD_DECL,
        MATCH_STMT => kind == MATCH_ARM,
        _ => true,
    }
}

/// Closes the innermost body: decides whether it is printed on one line
/// and passes what it holds on to the body around it.
fn leave_body(bodies: &mut Vec<Body>, toks: &mut [Tok<'_>]) {
    let Some(body) = bodies.pop() else { return };
    let one_line = if body.kind == BLOCK {
        // Empty, or one statement written on one line with nothing that
        // must break inside.
        !body.has_comment
            && (body.elements == 0
                || (body.elements == 1 && !body.has_newline && !body.forces_break))
    } else {
        // Fields and match arms always go one per line.
        !body.has_comment && body.elements == 0
    };
    if let Some(open) = body.open {
        toks[open].one_line = one_line;
    }
    if let Some(outer) = bodies.last_mut() {
        outer.has_newline |= body.has_newline;
        outer.has_comment |= body.has_comment;
        outer.forces_break |= !one_line || body.kind != BLOCK;
    }
}

/// A `;` stays before a statement that begins with a token that, at the
/// start of a line, would continue the line before (`x; -y` is two
/// statements, `x` and then `-y` on its own line is one): the `;` ends the
/// line instead.
fn keep_needed_semicolons(toks: &mut [Tok<'_>]) {
    for i in 0..toks.len() {
        if !(toks[i].dropped && toks[i].kind == SEMICOLON) {
            continue;
        }
        let next = toks[i + 1..]
            .iter()
            .find(|t| t.kind != COMMENT && !(t.dropped && t.kind == SEMICOLON));
        if next.is_some_and(|t| continues_line(t.kind)) {
            toks[i].dropped = false;
        }
    }
}

/// Kinds that continue the line before when they begin a line.
fn continues_line(kind: SyntaxKind) -> bool {
    crate::syntax::binary_precedence(kind).is_some() || matches!(kind, QUESTION | COLON | EQ | DOT)
}

/// The line feeds before a dropped separator, or before a list comma
/// (which never begins a line: it joins the item before it), belong to
/// the token after it.
fn carry_newlines(toks: &mut [Tok<'_>]) {
    let mut carry = 0;
    for tok in toks.iter_mut() {
        if tok.dropped || tok.kind == COMMA {
            carry += std::mem::take(&mut tok.newlines_before);
        } else {
            tok.newlines_before += std::mem::take(&mut carry);
        }
    }
}

/// The commas of argument, parameter, array, map and function-type
/// lists: one between every two items, and after the last item exactly
/// when the closer is on a line of its own.
fn settle_list_commas(toks: &mut [Tok<'_>]) {
    // (owner id of the list, index of its opener)
    let mut open: Vec<(u32, usize)> = Vec::new();
    let mut last_code: Option<usize> = None;
    for i in 0..toks.len() {
        let (kind, owner) = (toks[i].kind, toks[i].owner);
        if toks[i].dropped {
            continue;
        }
        let list = open.last().copied();
        match kind {
            L_PAREN | L_BRACK | L_CURLY if is_comma_list(toks[i].parent) => {
                if let Some((list_owner, opener)) = list {
                    if toks[i].start_parent == list_owner {
                        missing_comma(toks, list_owner, opener, last_code);
                    }
                }
                open.push((owner, i));
            }
            R_PAREN | R_BRACK | R_CURLY if list.is_some_and(|(o, _)| o == owner) => {
                let (_, opener) = open.pop().expect("a list is open");
                if let Some(prev) = last_code.filter(|&p| p != opener) {
                    let on_own_line = toks[i].newlines_before > 0;
                    if toks[prev].kind == COMMA && toks[prev].owner == owner {
                        toks[prev].dropped = !on_own_line;
                    } else if on_own_line {
                        toks[prev].comma_after = true;
                    }
                }
            }
            _ => {
                if let Some((list_owner, opener)) = list {
                    if toks[i].start_parent == list_owner {
                        missing_comma(toks, list_owner, opener, last_code);
                    }
                }
            }
        }
        if kind != COMMENT {
            last_code = Some(i);
        }
    }
}

/// An item of the list `owner` starts: if the token before it is neither
/// the list's opener nor one of its commas, a comma goes after it.
fn missing_comma(toks: &mut [Tok<'_>], owner: u32, opener: usize, last_code: Option<usize>) {
    if let Some(prev) = last_code {
        let is_comma = toks[prev].kind == COMMA && toks[prev].owner == owner;
        if prev != opener && !is_comma {
            toks[prev].comma_after = true;
        }
    }
}
