//! The Festina lexer (§7).
//!
//! [`tokenize`] splits source text into `(SyntaxKind, length)` tokens that
//! cover every byte of the input, trivia included. Most tokens come from a
//! [`logos`] automaton; the context-sensitive parts are driven by hand:
//!
//! - template literals (§7.5.3) keep a mode stack, so `${ }` may nest to any
//!   depth (`` `a${ `b${c}` }` ``) and a `}` closes a substitution only at
//!   brace depth zero;
//! - a `/` starts a regex literal (§7.5.5) only where an expression may
//!   begin, decided from the previous significant token;
//! - strings and comments are scanned by hand for precise errors;
//! - the bare path after `import` (§6.2) is one `IMPORT_PATH` token;
//! - a hexadecimal literal `0xFF` (the reference's addition after edition
//!   0.44) is one `INT_NUMBER` token, scanned by hand to report `0x`
//!   without digits and a fractional part.
//!
//! Line feeds are tokens (they end statements, §7.1) but do not count as
//! the previous token when deciding between division and a regex literal:
//! a line that begins with `/` after a line ending in an operand continues
//! it, as the reference compiler reads it.
//!
//! The lexer never fails: problems become [`LexError`]s and the offending
//! bytes still become tokens (`ERROR` for characters that start no token).

#![warn(missing_docs)]

use logos::Logos;
use rowan::{TextRange, TextSize};

use crate::syntax::SyntaxKind;

/// One token: its kind and its length in bytes. Tokens are contiguous, so
/// offsets are the running sum of lengths. Packed to 6 bytes (a source
/// file has about a dozen tokens a line, all held while it is parsed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C, packed(2))]
pub struct Token {
    /// What the token is.
    pub kind: SyntaxKind,
    /// Its length in bytes (never zero).
    pub len: u32,
}

/// A lexical error (§7): a bad character, an unterminated literal or
/// comment, the forbidden `\0` escape (§7.5.2), or `${` outside a template
/// (§7.5.3).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LexError {
    /// The bytes concerned.
    pub range: TextRange,
    /// Human-readable description.
    pub message: String,
}

/// Message for the `\0` escape, shared by the lexer and
/// [`crate::ast::unescape_string`].
pub const NUL_ESCAPE_MESSAGE: &str = "the \\0 escape is not allowed: text cannot hold a NUL";

/// Message for a NUL byte written directly inside a string or template
/// literal (§7.5.2: text cannot hold a NUL).
pub const RAW_NUL_MESSAGE: &str = "a NUL character is not allowed in text";

/// The UTF-8 byte-order mark some editors put at the start of a file; the
/// lexer reads it as whitespace.
const BYTE_ORDER_MARK: &str = "\u{FEFF}";

/// Splits `text` into tokens covering every byte, plus every lexical error.
///
/// Never panics; the sum of the token lengths is `text.len()`.
pub fn tokenize(text: &str) -> (Vec<Token>, Vec<LexError>) {
    let mut lexer = Lexer::new(text);
    lexer.run();
    (lexer.tokens, lexer.errors)
}

/// The tokens logos recognises directly. Context-sensitive tokens
/// (strings, comments, regexes, templates, import paths) are scanned by
/// hand in [`Lexer`].
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
enum Raw {
    #[regex(r"[ \t\r\x0C]+")]
    Whitespace,
    #[regex(r"\r?\n")]
    Newline,
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident,
    #[regex(r"[0-9]+")]
    Int,
    #[regex(r"[0-9]+\.[0-9]+")]
    Float,
    #[token("{")]
    LCurly,
    #[token("}")]
    RCurly,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBrack,
    #[token("]")]
    RBrack,
    #[token(".")]
    Dot,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token(";")]
    Semicolon,
    #[token("?")]
    Question,
    #[token("=")]
    Eq,
    #[token("=>")]
    FatArrow,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("++")]
    Plus2,
    #[token("--")]
    Minus2,
    #[token("==")]
    Eq2,
    #[token("!=")]
    Neq,
    #[token("===")]
    Eq3,
    #[token("!==")]
    Neq2,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("<=")]
    LtEq,
    #[token(">=")]
    GtEq,
    #[token("!")]
    Bang,
    #[token("&&")]
    Amp2,
    #[token("||")]
    Pipe2,
    #[token("&")]
    Amp,
    #[token("|")]
    Pipe,
    #[token("^")]
    Caret,
    #[token("~")]
    Tilde,
    #[token("<<")]
    Shl,
    #[token(">>")]
    Shr,
}

impl Raw {
    /// The syntax kind of this raw token; identifiers are checked against
    /// the reserved words of §7.4.
    fn kind(self, text: &str) -> SyntaxKind {
        use SyntaxKind::*;
        match self {
            Raw::Whitespace => WHITESPACE,
            Raw::Newline => NEWLINE,
            Raw::Ident => SyntaxKind::from_keyword(text).unwrap_or(IDENT),
            Raw::Int => INT_NUMBER,
            Raw::Float => FLOAT_NUMBER,
            Raw::LCurly => L_CURLY,
            Raw::RCurly => R_CURLY,
            Raw::LParen => L_PAREN,
            Raw::RParen => R_PAREN,
            Raw::LBrack => L_BRACK,
            Raw::RBrack => R_BRACK,
            Raw::Dot => DOT,
            Raw::Comma => COMMA,
            Raw::Colon => COLON,
            Raw::Semicolon => SEMICOLON,
            Raw::Question => QUESTION,
            Raw::Eq => EQ,
            Raw::FatArrow => FAT_ARROW,
            Raw::Plus => PLUS,
            Raw::Minus => MINUS,
            Raw::Star => STAR,
            Raw::Slash => SLASH,
            Raw::Percent => PERCENT,
            Raw::Plus2 => PLUS2,
            Raw::Minus2 => MINUS2,
            Raw::Eq2 => EQ2,
            Raw::Neq => NEQ,
            Raw::Eq3 => EQ3,
            Raw::Neq2 => NEQ2,
            Raw::Lt => LT,
            Raw::Gt => GT,
            Raw::LtEq => LTEQ,
            Raw::GtEq => GTEQ,
            Raw::Bang => BANG,
            Raw::Amp2 => AMP2,
            Raw::Pipe2 => PIPE2,
            Raw::Amp => AMP,
            Raw::Pipe => PIPE,
            Raw::Caret => CARET,
            Raw::Tilde => TILDE,
            Raw::Shl => SHL,
            Raw::Shr => SHR,
        }
    }
}

/// One level of the lexer's mode stack.
#[derive(Debug, Clone, Copy)]
enum Mode {
    /// Inside a template literal opened at byte `start`.
    Template { start: usize },
    /// Inside a `${ }` substitution opened at byte `start`, with `braces`
    /// unclosed `{` of its own.
    Subst { start: usize, braces: u32 },
}

/// The modal lexer state.
struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    tokens: Vec<Token>,
    errors: Vec<LexError>,
    modes: Vec<Mode>,
    /// The last two significant tokens (not whitespace, comments or line
    /// feeds).
    prev: [Option<SyntaxKind>; 2],
    /// True when the last token is an `ERROR` made of bad characters, so a
    /// following bad character can extend it.
    in_bad_run: bool,
    /// True when a line feed came after the last significant token.
    after_newline: bool,
}

/// Message for `${` in code (§7.5.3).
const DOLLAR_BRACE_MESSAGE: &str = "'${' outside a template literal";

/// Message for `${` inside a quoted string (§7.5.3).
const DOLLAR_BRACE_IN_STRING_MESSAGE: &str = "'${' outside a template literal (use a `template`)";

/// `'#'`, or the escaped form for control characters.
fn quote_chars(text: &str) -> String {
    if text.chars().all(|c| !c.is_control()) {
        format!("'{text}'")
    } else {
        format!("'{}'", text.escape_default())
    }
}

/// Length of the run of bytes at the start of `bytes` that satisfy `f`.
fn run_len(bytes: &[u8], f: impl Fn(u8) -> bool) -> usize {
    bytes.iter().position(|&b| !f(b)).unwrap_or(bytes.len())
}

fn range(start: usize, end: usize) -> TextRange {
    TextRange::new(to_size(start), to_size(end))
}

fn to_size(offset: usize) -> TextSize {
    TextSize::from(u32::try_from(offset).unwrap_or(u32::MAX))
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        Lexer {
            text,
            pos: 0,
            // About one token per three bytes of typical source.
            tokens: Vec::with_capacity(text.len() / 3 + 1),
            errors: Vec::new(),
            modes: Vec::new(),
            prev: [None, None],
            in_bad_run: false,
            after_newline: false,
        }
    }

    fn run(&mut self) {
        if self.text.starts_with(BYTE_ORDER_MARK) {
            self.push(SyntaxKind::WHITESPACE, BYTE_ORDER_MARK.len());
        }
        while self.pos < self.text.len() {
            match self.modes.last() {
                Some(Mode::Template { .. }) => self.template_part(),
                _ => self.code_token(),
            }
        }
        self.report_unclosed();
    }

    fn report_unclosed(&mut self) {
        for mode in std::mem::take(&mut self.modes) {
            let (start, what) = match mode {
                Mode::Template { start } => (start, "unterminated template literal"),
                Mode::Subst { start, .. } => (start, "unterminated template substitution '${'"),
            };
            let end = (start + 1).min(self.text.len());
            self.error(start, end, what);
        }
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn byte_at(&self, offset: usize) -> Option<u8> {
        self.bytes().get(offset).copied()
    }

    fn error(&mut self, start: usize, end: usize, message: impl Into<String>) {
        self.errors.push(LexError {
            range: range(start, end),
            message: message.into(),
        });
    }

    /// Emits a token of `len` bytes at the current position.
    fn push(&mut self, kind: SyntaxKind, len: usize) {
        let len = len.max(1).min(self.text.len() - self.pos);
        self.tokens.push(Token {
            kind,
            len: u32::try_from(len).unwrap_or(u32::MAX),
        });
        self.pos += len;
        self.in_bad_run = false;
        // Line feeds are skipped too: a line that begins with `/` after a
        // line ending in an operand continues that expression (a
        // division), as the reference compiler reads it.
        if kind == SyntaxKind::NEWLINE {
            self.after_newline = true;
        } else if !kind.is_trivia() {
            self.prev = [Some(kind), self.prev[0]];
            self.after_newline = false;
        }
    }

    /// Lexes one token in code mode (top level or inside `${ }`).
    fn code_token(&mut self) {
        let rest = &self.text[self.pos..];
        let bytes = rest.as_bytes();
        match bytes[0] {
            b'`' => {
                self.modes.push(Mode::Template { start: self.pos });
                self.push(SyntaxKind::BACKTICK, 1);
            }
            b'/' if bytes.get(1) == Some(&b'/') => self.line_comment(),
            b'/' if bytes.get(1) == Some(&b'*') => self.block_comment(),
            b'\'' | b'"' => self.string(bytes[0]),
            b'$' => self.dollar(),
            b'{' => self.open_curly(),
            b'}' => self.close_curly(),
            // Fast paths for the commonest tokens, equal to what logos
            // returns for them (no other token starts with these bytes,
            // and an import path never starts with a blank).
            b'\n' => self.push(SyntaxKind::NEWLINE, 1),
            b' ' | b'\t' => {
                let len = run_len(bytes, |b| matches!(b, b' ' | b'\t' | b'\r' | b'\x0C'));
                self.push(SyntaxKind::WHITESPACE, len);
            }
            _ if self.import_path_expected() => self.import_path(),
            b'0' if matches!(bytes.get(1), Some(b'x' | b'X')) => self.hex_number(),
            b'/' if self.regex_allowed() => self.regex(),
            b'A'..=b'Z' | b'a'..=b'z' | b'_' => {
                let len = run_len(bytes, |b| b.is_ascii_alphanumeric() || b == b'_');
                let kind = SyntaxKind::from_keyword(&rest[..len]).unwrap_or(SyntaxKind::IDENT);
                self.push(kind, len);
            }
            _ => self.logos_token(rest),
        }
    }

    fn logos_token(&mut self, rest: &str) {
        let mut lex = Raw::lexer(rest);
        match lex.next() {
            Some(Ok(raw)) => {
                let len = lex.span().end;
                let kind = raw.kind(&rest[..len]);
                self.push(kind, len);
            }
            _ => self.bad_char(rest),
        }
    }

    /// A character that starts no token; consecutive ones share one
    /// `ERROR` token and one error.
    fn bad_char(&mut self, rest: &str) {
        let ch = rest.chars().next().unwrap_or('\u{fffd}');
        let len = ch.len_utf8();
        if self.in_bad_run {
            if let (Some(token), Some(error)) = (self.tokens.last_mut(), self.errors.last_mut()) {
                token.len += u32::try_from(len).unwrap_or(0);
                let start = usize::from(error.range.start());
                error.range = range(start, self.pos + len);
                error.message = format!(
                    "unexpected characters {}",
                    quote_chars(&self.text[start..self.pos + len])
                );
                self.pos += len;
                return;
            }
        }
        self.error(
            self.pos,
            self.pos + len,
            format!("unexpected character {}", quote_chars(&rest[..len])),
        );
        self.push(SyntaxKind::ERROR, len);
        self.in_bad_run = true;
    }

    fn dollar(&mut self) {
        if self.byte_at(self.pos + 1) == Some(b'{') {
            self.error(self.pos, self.pos + 2, DOLLAR_BRACE_MESSAGE);
            self.push(SyntaxKind::ERROR, 1);
        } else {
            self.bad_char("$");
        }
    }

    fn open_curly(&mut self) {
        if let Some(Mode::Subst { braces, .. }) = self.modes.last_mut() {
            *braces += 1;
        }
        self.push(SyntaxKind::L_CURLY, 1);
    }

    fn close_curly(&mut self) {
        match self.modes.last_mut() {
            Some(Mode::Subst { braces: 0, .. }) => {
                self.modes.pop();
            }
            Some(Mode::Subst { braces, .. }) => *braces -= 1,
            _ => {}
        }
        self.push(SyntaxKind::R_CURLY, 1);
    }

    fn line_comment(&mut self) {
        let rest = &self.text[self.pos..];
        let len = rest.find('\n').unwrap_or(rest.len());
        // Keep a `\r` of a CRLF line ending out of the comment.
        let len = if len > 2 && rest.as_bytes()[len - 1] == b'\r' && len < rest.len() {
            len - 1
        } else {
            len
        };
        self.push(SyntaxKind::COMMENT, len);
    }

    fn block_comment(&mut self) {
        let rest = &self.text[self.pos..];
        match rest[2..].find("*/") {
            Some(end) => self.push(SyntaxKind::COMMENT, end + 4),
            None => {
                self.error(
                    self.pos,
                    self.pos + 2,
                    "unterminated block comment: missing `*/`",
                );
                self.push(SyntaxKind::COMMENT, rest.len());
            }
        }
    }

    /// A hexadecimal `int` literal `0xFF` / `0XFF` (the reference's
    /// addition to §7.5.1 after edition 0.44): `0x` and hex digits, one
    /// `INT_NUMBER` token. `0x` without digits, or a hex literal followed
    /// by `.digit` (there is no hexadecimal fraction), is an error; the
    /// bytes still form the token.
    fn hex_number(&mut self) {
        let bytes = &self.bytes()[self.pos..];
        let digits = run_len(&bytes[2..], |b| b.is_ascii_hexdigit());
        let mut len = 2 + digits;
        if digits == 0 {
            self.error(
                self.pos,
                self.pos + 2,
                "a hexadecimal literal needs at least one digit after '0x'",
            );
        } else if bytes.get(len) == Some(&b'.')
            && bytes.get(len + 1).is_some_and(u8::is_ascii_digit)
        {
            let frac = run_len(&bytes[len + 1..], |b| b.is_ascii_alphanumeric());
            self.error(
                self.pos,
                self.pos + len + 1 + frac,
                "a hexadecimal literal has no fractional part",
            );
            len += 1 + frac;
        }
        // Letters or digits glued on (`0x1g`) belong to the same bad literal.
        let tail = run_len(&bytes[len..], |b| b.is_ascii_alphanumeric() || b == b'_');
        if tail > 0 && digits > 0 {
            self.error(
                self.pos,
                self.pos + len + tail,
                format!(
                    "invalid hexadecimal literal '{}'",
                    &self.text[self.pos..self.pos + len + tail]
                ),
            );
        }
        self.push(SyntaxKind::INT_NUMBER, len + tail);
    }

    /// A quoted string (§7.5.2). Stops before an unescaped line feed.
    fn string(&mut self, quote: u8) {
        let start = self.pos;
        let mut i = start + 1;
        loop {
            match self.byte_at(i) {
                None | Some(b'\n') => {
                    self.error(start, i, "unterminated string literal");
                    break;
                }
                Some(b'\\') => i = self.escape(i),
                Some(b'$') if self.byte_at(i + 1) == Some(b'{') => {
                    self.error(i, i + 2, DOLLAR_BRACE_IN_STRING_MESSAGE);
                    i += 2;
                }
                Some(b) if b == quote => {
                    i += 1;
                    break;
                }
                Some(0) => {
                    self.error(i, i + 1, RAW_NUL_MESSAGE);
                    i += 1;
                }
                Some(_) => i += 1,
            }
        }
        self.push(SyntaxKind::STRING, i - start);
    }

    /// Skips the escape starting at the backslash at `i`, reporting `\0`;
    /// returns the offset after it. A backslash before a line feed or the
    /// end of input escapes nothing.
    fn escape(&mut self, i: usize) -> usize {
        match self.byte_at(i + 1) {
            None | Some(b'\n') => i + 1,
            Some(b'0') => {
                self.error(i, i + 2, NUL_ESCAPE_MESSAGE);
                i + 2
            }
            Some(_) => {
                let ch = self.text[i + 1..].chars().next().map_or(1, char::len_utf8);
                i + 1 + ch
            }
        }
    }

    /// True when the previous significant token ends an operand, so a `/`
    /// is division rather than the start of a regex literal (§7.5.5).
    fn regex_allowed(&self) -> bool {
        use SyntaxKind::*;
        let Some(prev) = self.prev[0] else {
            return true;
        };
        let member_name = prev.is_keyword() && self.prev[1] == Some(DOT);
        let operand = matches!(
            prev,
            IDENT
                | INT_NUMBER
                | FLOAT_NUMBER
                | STRING
                | REGEX
                | R_PAREN
                | R_BRACK
                | BACKTICK
                | TRUE_KW
                | FALSE_KW
                | NULL_KW
                | PLUS2
                | MINUS2
                | IMPORT_PATH
        );
        !(operand || member_name)
    }

    /// A regex literal: ends at the first unescaped `/` outside `[...]` on
    /// the same line, followed by any ASCII letters as flags (§7.5.5).
    fn regex(&mut self) {
        let start = self.pos;
        let mut i = start + 1;
        let mut in_class = false;
        let closed = loop {
            match self.byte_at(i) {
                None | Some(b'\n') => break false,
                Some(b'\\') => {
                    i += match self.byte_at(i + 1) {
                        None | Some(b'\n') => 1,
                        Some(_) => 2,
                    }
                }
                Some(b'[') => {
                    in_class = true;
                    i += 1;
                }
                Some(b']') => {
                    in_class = false;
                    i += 1;
                }
                Some(b'/') if !in_class => break true,
                Some(_) => i += 1,
            }
        };
        if closed {
            i += 1;
            while self.byte_at(i).is_some_and(|b| b.is_ascii_alphabetic()) {
                i += 1;
            }
        } else {
            // Never split a multi-byte character or swallow `\r` of CRLF.
            while !self.text.is_char_boundary(i) {
                i += 1;
            }
            self.error(start, i, "unterminated regular expression literal");
        }
        self.push(SyntaxKind::REGEX, i - start);
    }

    /// After `import` (not a member name) on the same line, a bare path.
    fn import_path_expected(&self) -> bool {
        self.prev[0] == Some(SyntaxKind::IMPORT_KW)
            && !self.after_newline
            && self.prev[1] != Some(SyntaxKind::DOT)
            && !matches!(self.bytes()[self.pos], b' ' | b'\t' | b'\r' | b'\n' | b';')
    }

    /// The bare path of an import: everything up to whitespace or `;`.
    fn import_path(&mut self) {
        let rest = &self.bytes()[self.pos..];
        let len = rest
            .iter()
            .position(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b';'))
            .unwrap_or(rest.len());
        self.push(SyntaxKind::IMPORT_PATH, len);
    }

    /// In template mode: a raw chunk, then the closing backtick or `${`.
    fn template_part(&mut self) {
        let start = self.pos;
        let mut i = start;
        loop {
            match self.byte_at(i) {
                None => break,
                Some(b'`') | Some(b'$') if self.template_delimiter_at(i) => break,
                Some(b'\\') => i = self.escape(i),
                Some(0) => {
                    self.error(i, i + 1, RAW_NUL_MESSAGE);
                    i += 1;
                }
                Some(_) => i += 1,
            }
        }
        let i = i.min(self.text.len());
        if i > start {
            self.push(SyntaxKind::TEMPLATE_CHUNK, i - start);
        }
        match self.byte_at(self.pos) {
            Some(b'`') => {
                self.modes.pop();
                self.push(SyntaxKind::BACKTICK, 1);
            }
            Some(b'$') => {
                self.modes.push(Mode::Subst {
                    start: self.pos,
                    braces: 0,
                });
                self.push(SyntaxKind::DOLLAR_L_CURLY, 2);
            }
            _ => {}
        }
    }

    fn template_delimiter_at(&self, i: usize) -> bool {
        match self.byte_at(i) {
            Some(b'`') => true,
            Some(b'$') => self.byte_at(i + 1) == Some(b'{'),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SyntaxKind::*;

    /// The hand-written fast paths for blanks, line feeds and words give
    /// the same tokens as the logos lexer would.
    #[test]
    fn fast_paths_agree_with_logos() {
        let text = "int x_1 = y\t \x0C\r\n  if_ _a Zed else\n\t\tfor  \r \n__ a9b";
        let (tokens, errors) = tokenize(text);
        assert!(errors.is_empty());
        let mut offset = 0;
        for token in tokens {
            let rest = &text[offset..];
            let mut lex = Raw::lexer(rest);
            let raw = lex.next().expect("a token").expect("a logos token");
            let len = lex.span().end;
            assert_eq!(token.len as usize, len, "at {offset}");
            assert_eq!(token.kind, raw.kind(&rest[..len]), "at {offset}");
            offset += len;
        }
        assert_eq!(offset, text.len());
    }

    fn kinds(text: &str) -> Vec<(SyntaxKind, String)> {
        let (tokens, _) = tokenize(text);
        let mut offset = 0usize;
        tokens
            .into_iter()
            .map(|t| {
                let end = offset + t.len as usize;
                let s = text[offset..end].to_string();
                offset = end;
                (t.kind, s)
            })
            .filter(|(k, _)| *k != WHITESPACE)
            .collect()
    }

    fn just_kinds(text: &str) -> Vec<SyntaxKind> {
        kinds(text).into_iter().map(|(k, _)| k).collect()
    }

    fn errors(text: &str) -> Vec<String> {
        tokenize(text).1.into_iter().map(|e| e.message).collect()
    }

    #[test]
    fn covers_every_byte() {
        for text in [
            "",
            "a",
            "x = 1\n",
            "`${`",
            "/* open",
            "'open",
            "é∂\u{0}#",
            "\r\n",
        ] {
            let (tokens, _) = tokenize(text);
            let total: u32 = tokens.iter().map(|t| t.len).sum();
            assert_eq!(total as usize, text.len(), "{text:?}");
            assert!(tokens.iter().all(|t| t.len > 0));
        }
    }

    #[test]
    fn trivia_and_newlines() {
        assert_eq!(
            kinds("a // c\r\n/* b\n */ b\n"),
            vec![
                (IDENT, "a".into()),
                (COMMENT, "// c".into()),
                (NEWLINE, "\r\n".into()),
                (COMMENT, "/* b\n */".into()),
                (IDENT, "b".into()),
                (NEWLINE, "\n".into()),
            ]
        );
    }

    #[test]
    fn identifiers_keywords_numbers() {
        assert_eq!(
            just_kinds("int x_1 = 12 + 1.5 - 3.x"),
            vec![
                INT_KW,
                IDENT,
                EQ,
                INT_NUMBER,
                PLUS,
                FLOAT_NUMBER,
                MINUS,
                INT_NUMBER,
                DOT,
                IDENT
            ]
        );
        assert_eq!(
            just_kinds("default use DatabaseURL regex color font url"),
            vec![IDENT; 7]
        );
        let all = "amor arr ascii aud blob bool break catch clear const continue delete else enum fail false float for free func http if img int let log map match null on return socket sqlite struct table text thread throw true try typeof var void while";
        assert!(just_kinds(all).iter().all(|k| k.is_keyword()));
        assert_eq!(just_kinds(all).len(), 44);
    }

    #[test]
    fn punctuation() {
        assert_eq!(
            just_kinds("{ } ( ) [ ] . , : ; ? = => + - * % ++ -- == != === !== < > <= >= ! && ||"),
            vec![
                L_CURLY, R_CURLY, L_PAREN, R_PAREN, L_BRACK, R_BRACK, DOT, COMMA, COLON, SEMICOLON,
                QUESTION, EQ, FAT_ARROW, PLUS, MINUS, STAR, PERCENT, PLUS2, MINUS2, EQ2, NEQ, EQ3,
                NEQ2, LT, GT, LTEQ, GTEQ, BANG, AMP2, PIPE2
            ]
        );
        assert_eq!(just_kinds("a===b"), vec![IDENT, EQ3, IDENT]);
        assert_eq!(just_kinds("a!==b"), vec![IDENT, NEQ2, IDENT]);
    }

    #[test]
    fn strings_and_escapes() {
        assert_eq!(
            kinds(r#"'a\'b' "c\"d" 'x\qy'"#),
            vec![
                (STRING, r"'a\'b'".into()),
                (STRING, r#""c\"d""#.into()),
                (STRING, r"'x\qy'".into())
            ]
        );
        assert_eq!(errors(r"'a\0b'"), vec![NUL_ESCAPE_MESSAGE.to_string()]);
        assert_eq!(errors("'a\0b'"), vec![RAW_NUL_MESSAGE.to_string()]);
        assert_eq!(errors("`a\0b`"), vec![RAW_NUL_MESSAGE.to_string()]);
        // A NUL elsewhere (a comment) is only a byte of trivia.
        assert!(errors("// a\0b\nx").is_empty());
        assert_eq!(
            kinds("'abc\nx"),
            vec![
                (STRING, "'abc".into()),
                (NEWLINE, "\n".into()),
                (IDENT, "x".into())
            ]
        );
        assert_eq!(
            errors("'abc\nx"),
            vec!["unterminated string literal".to_string()]
        );
    }

    #[test]
    fn templates_nest() {
        assert_eq!(
            kinds("`a${ `x${y}` }b`"),
            vec![
                (BACKTICK, "`".into()),
                (TEMPLATE_CHUNK, "a".into()),
                (DOLLAR_L_CURLY, "${".into()),
                (BACKTICK, "`".into()),
                (TEMPLATE_CHUNK, "x".into()),
                (DOLLAR_L_CURLY, "${".into()),
                (IDENT, "y".into()),
                (R_CURLY, "}".into()),
                (BACKTICK, "`".into()),
                (R_CURLY, "}".into()),
                (TEMPLATE_CHUNK, "b".into()),
                (BACKTICK, "`".into()),
            ]
        );
        assert_eq!(
            just_kinds("`${ {'a': 1}['a'] }`"),
            vec![
                BACKTICK,
                DOLLAR_L_CURLY,
                L_CURLY,
                STRING,
                COLON,
                INT_NUMBER,
                R_CURLY,
                L_BRACK,
                STRING,
                R_BRACK,
                R_CURLY,
                BACKTICK
            ]
        );
        assert_eq!(
            kinds(r"`a\`b\${c}`")[1],
            (TEMPLATE_CHUNK, r"a\`b\${c}".into())
        );
        assert!(errors("`open ${ x").len() == 2);
    }

    #[test]
    fn dollar_brace_outside_template() {
        assert_eq!(just_kinds("${x}"), vec![ERROR, L_CURLY, IDENT, R_CURLY]);
        assert_eq!(errors("${x}"), vec![DOLLAR_BRACE_MESSAGE.to_string()]);
        assert_eq!(
            errors(r"'a ${b} \${c}'"),
            vec![DOLLAR_BRACE_IN_STRING_MESSAGE.to_string()]
        );
    }

    #[test]
    fn bitwise_operators_and_hex_literals() {
        assert_eq!(
            just_kinds("a & b | c ^ ~d << 2 >> 1 && e || f"),
            vec![
                IDENT, AMP, IDENT, PIPE, IDENT, CARET, TILDE, IDENT, SHL, INT_NUMBER, SHR,
                INT_NUMBER, AMP2, IDENT, PIPE2, IDENT
            ]
        );
        assert_eq!(kinds("0xFF")[0], (INT_NUMBER, "0xFF".into()));
        assert_eq!(kinds("0Xab1")[0], (INT_NUMBER, "0Xab1".into()));
        assert!(errors("0xFF").is_empty());
        assert_eq!(
            errors("0x"),
            vec!["a hexadecimal literal needs at least one digit after '0x'".to_string()]
        );
        assert_eq!(
            errors("0x1.8"),
            vec!["a hexadecimal literal has no fractional part".to_string()]
        );
        assert_eq!(
            errors("0x1g"),
            vec!["invalid hexadecimal literal '0x1g'".to_string()]
        );
    }

    #[test]
    fn regex_versus_division() {
        assert_eq!(
            just_kinds("a / b / c"),
            vec![IDENT, SLASH, IDENT, SLASH, IDENT]
        );
        assert_eq!(just_kinds("x = /ab+c/gi"), vec![IDENT, EQ, REGEX]);
        assert_eq!(kinds("f(/[/]x\\//i)")[2], (REGEX, "/[/]x\\//i".into()));
        assert_eq!(
            just_kinds("(a) / 2"),
            vec![L_PAREN, IDENT, R_PAREN, SLASH, INT_NUMBER]
        );
        assert_eq!(just_kinds("return /x/"), vec![RETURN_KW, REGEX]);
        assert_eq!(
            just_kinds("s.match / 2"),
            vec![IDENT, DOT, MATCH_KW, SLASH, INT_NUMBER]
        );
        // A line that begins with `/` after an operand continues it (a
        // division), as in the reference compiler; after anything else
        // it may open a regex literal.
        assert_eq!(just_kinds("a\n/x/.test(s)")[2], SLASH);
        assert_eq!(just_kinds("{\n/x/.test(s)")[2], REGEX);
        assert_eq!(
            errors("x = /abc\n"),
            vec!["unterminated regular expression literal".to_string()]
        );
    }

    #[test]
    fn import_paths() {
        assert_eq!(
            kinds("import ../ui/x.f\nimport ./a.f;"),
            vec![
                (IMPORT_KW, "import".into()),
                (IMPORT_PATH, "../ui/x.f".into()),
                (NEWLINE, "\n".into()),
                (IMPORT_KW, "import".into()),
                (IMPORT_PATH, "./a.f".into()),
                (SEMICOLON, ";".into()),
            ]
        );
        assert_eq!(
            just_kinds("x.import(1)"),
            vec![IDENT, DOT, IMPORT_KW, L_PAREN, INT_NUMBER, R_PAREN]
        );
    }

    #[test]
    fn bad_characters() {
        assert_eq!(just_kinds("a #@ b"), vec![IDENT, ERROR, IDENT]);
        assert_eq!(
            errors("a #@ b"),
            vec!["unexpected characters '#@'".to_string()]
        );
        assert_eq!(
            errors("a # b"),
            vec!["unexpected character '#'".to_string()]
        );
        assert_eq!(just_kinds("é"), vec![ERROR]);
    }
}
