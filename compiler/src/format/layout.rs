//! Phase two of the formatter: the printed tokens laid out in lines, with
//! the canonical spacing, indentation and blank lines, then rendered with
//! trailing comments aligned.
//!
//! A stack of *contexts* follows the brackets: the file and every body
//! (`{ }` of a block, struct, table or match) hold *elements*
//! (statements, fields, arms), one per line; every other bracket holds a
//! *list* whose line breaks are the author's. A body's contents are
//! indented one level deeper than the statement that owns it; a list's
//! one level deeper than the line its opener is on. A line that
//! continues an element (it does not start one) is indented one level
//! more.

use super::collect::{is_body, Tok, ROOT};
use crate::syntax::SyntaxKind::*;

/// Spaces per indentation level.
const INDENT: usize = 4;

/// What separates two printed tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sep {
    /// Nothing.
    None,
    /// One space.
    Space,
    /// A line break; `blank` adds one empty line.
    Line { blank: bool },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CtxKind {
    /// The file or a body printed one element per line.
    Body,
    /// A body printed on one line (`{ return x }`).
    OneLine,
    /// Any other bracket.
    List,
}

/// An open bracket (or the file).
#[derive(Clone, Copy, Debug)]
struct Ctx {
    kind: CtxKind,
    /// Id of the node holding the opener.
    owner: u32,
    /// Index of the opener in the token list (`usize::MAX` for the file).
    open: usize,
    /// Level of the lines inside.
    content: u32,
    /// Level of a line that begins with the closer.
    closer: u32,
}

/// One output line.
#[derive(Debug, Default)]
struct Line<'a> {
    /// Indentation level.
    level: u32,
    /// The code (or a comment alone on its line); empty for a blank line.
    code: String,
    /// A `//` comment after the code.
    comment: Option<&'a str>,
}

/// The formatted text of `toks` (see the module documentation).
pub(super) fn layout(toks: &[Tok<'_>], size_hint: usize) -> String {
    let mut ctxs = vec![Ctx {
        kind: CtxKind::Body,
        owner: ROOT,
        open: usize::MAX,
        content: 0,
        closer: 0,
    }];
    let mut lines: Vec<Line<'_>> = Vec::new();
    // Comment lines whose level is that of the next line of code.
    let mut pending: Vec<usize> = Vec::new();
    let mut prev: Option<usize> = None;
    for (i, t) in toks.iter().enumerate() {
        if t.dropped {
            continue;
        }
        let top = *ctxs.last().expect("the file context stays");
        let sep = match prev {
            None => Sep::Line { blank: false },
            Some(p) => separator(&toks[p], p, t, &top),
        };
        match sep {
            Sep::Line { blank } => {
                if blank && !lines.is_empty() {
                    lines.push(Line::default());
                }
                let closes = closes(t, &top);
                let level = level_of(t, prev, &top, closes);
                if t.kind == COMMENT {
                    pending.push(lines.len());
                } else {
                    let comments_level = if closes { top.content } else { level };
                    for at in pending.drain(..) {
                        lines[at].level = comments_level;
                    }
                }
                lines.push(Line {
                    level,
                    code: t.text.to_string(),
                    comment: None,
                });
            }
            Sep::None | Sep::Space => {
                let line = lines.last_mut().expect("a line was started");
                if t.kind == COMMENT && t.text.starts_with("//") {
                    line.comment = Some(t.text);
                } else {
                    if sep == Sep::Space {
                        line.code.push(' ');
                    }
                    line.code.push_str(t.text);
                }
            }
        }
        if t.comma_after {
            let line = lines.last_mut().expect("a line was started");
            line.code.push(',');
        }
        match t.kind {
            L_PAREN | L_BRACK | L_CURLY => {
                let ctx = if t.kind == L_CURLY && is_body(t.parent) {
                    let base = ctxs
                        .iter()
                        .rev()
                        .find(|c| c.kind != CtxKind::List)
                        .map_or(0, |c| c.content);
                    Ctx {
                        kind: if t.one_line {
                            CtxKind::OneLine
                        } else {
                            CtxKind::Body
                        },
                        owner: t.owner,
                        open: i,
                        content: base + 1,
                        closer: base,
                    }
                } else {
                    let here = lines.last().map_or(0, |l| l.level);
                    Ctx {
                        kind: CtxKind::List,
                        owner: t.owner,
                        open: i,
                        content: here + 1,
                        closer: here,
                    }
                };
                ctxs.push(ctx);
            }
            R_PAREN | R_BRACK | R_CURLY if ctxs.len() > 1 && closes(t, &top) => {
                ctxs.pop();
            }
            _ => {}
        }
        prev = Some(i);
    }
    let end_level = ctxs.last().map_or(0, |c| c.content);
    for at in pending {
        lines[at].level = end_level;
    }
    render(&lines, size_hint)
}

/// True when `t` is the closer of the bracket `top`.
fn closes(t: &Tok<'_>, top: &Ctx) -> bool {
    matches!(t.kind, R_PAREN | R_BRACK | R_CURLY) && top.open != usize::MAX && t.owner == top.owner
}

/// True for the `{` of a block, struct, table or match body.
fn opens_body(t: &Tok<'_>) -> bool {
    t.kind == L_CURLY && is_body(t.parent)
}

/// What goes between `prev` (at index `prev_at`) and `t`, inside `top`.
fn separator(prev: &Tok<'_>, prev_at: usize, t: &Tok<'_>, top: &Ctx) -> Sep {
    let blank = t.newlines_before >= 2;
    if prev.kind == COMMENT && prev.text.starts_with("//") {
        return Sep::Line {
            blank: blank && !closes(t, top),
        };
    }
    if top.kind == CtxKind::OneLine {
        return spacing(prev, t);
    }
    if t.kind == COMMENT {
        return if t.newlines_before == 0 {
            spacing(prev, t)
        } else {
            Sep::Line {
                blank: blank && prev_at != top.open,
            }
        };
    }
    // `if c {`, `} else {`, `} catch (e:text) {`: a body's brace and
    // `else`/`catch` join the line before.
    let joins =
        (opens_body(t) && t.start_parent != top.owner) || matches!(t.kind, ELSE_KW | CATCH_KW);
    if joins {
        return Sep::Space;
    }
    match top.kind {
        CtxKind::Body | CtxKind::OneLine => {
            if closes(t, top) || prev_at == top.open {
                Sep::Line { blank: false }
            } else if t.start_parent == top.owner {
                if t.newlines_before == 0 && prev.kind == COMMENT {
                    // After a `/* */` comment that begins the line.
                    Sep::Space
                } else {
                    Sep::Line { blank }
                }
            } else if t.newlines_before == 0 {
                spacing(prev, t)
            } else {
                Sep::Line { blank }
            }
        }
        CtxKind::List => {
            if t.newlines_before == 0 {
                spacing(prev, t)
            } else {
                Sep::Line {
                    blank: blank && prev_at != top.open && !closes(t, top),
                }
            }
        }
    }
}

/// The indentation level of a line that begins with `t`, inside `top`.
fn level_of(t: &Tok<'_>, prev: Option<usize>, top: &Ctx, closes: bool) -> u32 {
    if closes {
        return top.closer;
    }
    let starts_element = t.start_parent == top.owner || prev == Some(top.open) || t.kind == COMMENT;
    let statement_level =
        top.kind != CtxKind::List && (opens_body(t) || matches!(t.kind, ELSE_KW | CATCH_KW));
    if starts_element || statement_level {
        top.content
    } else {
        top.content + 1
    }
}

/// The space between two tokens on one line.
fn spacing(a: &Tok<'_>, b: &Tok<'_>) -> Sep {
    if space_between(a, b) {
        Sep::Space
    } else {
        Sep::None
    }
}

/// The canonical spacing rules (docs/style.md, "Spaces").
fn space_between(a: &Tok<'_>, b: &Tok<'_>) -> bool {
    let opens_literal = |t: &Tok<'_>| t.kind == L_CURLY && t.parent == MAP_LIT;
    let closes_literal = |t: &Tok<'_>| t.kind == R_CURLY && t.parent == MAP_LIT;
    if b.kind == COMMENT {
        return !matches!(a.kind, L_PAREN | L_BRACK) && !opens_literal(a);
    }
    if a.kind == COMMENT {
        return !matches!(b.kind, R_PAREN | R_BRACK | COMMA) && !closes_literal(b);
    }
    if a.kind == L_CURLY && b.kind == R_CURLY {
        return false;
    }
    match b.kind {
        COMMA | SEMICOLON | DOT | R_PAREN | R_BRACK => return false,
        R_CURLY => return !closes_literal(b),
        PLUS2 | MINUS2 if b.parent == POSTFIX_EXPR => return false,
        QUESTION if b.parent == MANUAL_TYPE => return false,
        COLON => return b.parent == TERNARY_EXPR,
        L_PAREN if b.parent == ARG_LIST => return false,
        L_PAREN if b.parent == PARAM_LIST && matches!(b.grandparent, FUNC_DECL | ON_DECL) => {
            return false
        }
        L_BRACK
            if matches!(
                b.parent,
                INDEX_EXPR | ARR_TYPE | MAP_TYPE | FUNC_TYPE | THREAD_DECL
            ) =>
        {
            return false
        }
        _ => {}
    }
    match a.kind {
        L_PAREN | L_BRACK | DOT => false,
        L_CURLY => !opens_literal(a),
        COLON => matches!(a.parent, TERNARY_EXPR | MAP_ENTRY),
        MINUS | PLUS | BANG | TILDE if a.parent == PREFIX_EXPR => would_merge(a.text, b.text),
        _ => true,
    }
}

/// True when `a` written right before `b` would read as one longer token
/// (`-` and `-x` as `--x`).
fn would_merge(a: &str, b: &str) -> bool {
    const PAIRS: &[&str] = &[
        "++", "--", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "=>", "//", "/*",
    ];
    match (a.chars().next_back(), b.chars().next()) {
        (Some(x), Some(y)) => {
            let mut pair = String::with_capacity(2);
            pair.push(x);
            pair.push(y);
            PAIRS.contains(&pair.as_str())
        }
        _ => false,
    }
}

/// The column (in code points) after the code of `line`.
fn end_column(line: &Line<'_>) -> usize {
    match line.code.rfind('\n') {
        Some(at) => line.code[at + 1..].chars().count(),
        None => line.level as usize * INDENT + line.code.chars().count(),
    }
}

/// The lines as text: indented, trailing comments of consecutive lines
/// aligned two spaces after the longest code among them, no leading or
/// trailing blank line, one line feed at the end.
fn render(lines: &[Line<'_>], size_hint: usize) -> String {
    let mut out = String::with_capacity(size_hint + size_hint / 8);
    let first = lines.iter().position(|l| !l.code.is_empty());
    let last = lines.iter().rposition(|l| !l.code.is_empty());
    let (Some(first), Some(last)) = (first, last) else {
        return out;
    };
    let lines = &lines[first..=last];
    let mut i = 0;
    while i < lines.len() {
        // The run of consecutive lines with trailing comments from `i`.
        let run_end = lines[i..]
            .iter()
            .position(|l| l.comment.is_none())
            .map_or(lines.len(), |n| i + n);
        let column = lines[i..run_end].iter().map(end_column).max().unwrap_or(0) + 2;
        for line in &lines[i..run_end.max(i + 1)] {
            if !line.code.is_empty() {
                for _ in 0..line.level as usize * INDENT {
                    out.push(' ');
                }
                out.push_str(&line.code);
            }
            if let Some(comment) = line.comment {
                for _ in end_column(line)..column {
                    out.push(' ');
                }
                out.push_str(comment);
            }
            out.push('\n');
        }
        i = run_end.max(i + 1);
    }
    out
}
