//! Literal values of string tokens and template chunks (§7.5.2, §7.5.3).

use crate::lexer::NUL_ESCAPE_MESSAGE;

/// Why a literal's text could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EscapeError {
    /// Byte offset of the problem within the raw token text.
    pub offset: usize,
    /// Human-readable description.
    pub message: String,
}

impl EscapeError {
    fn new(offset: usize, message: &str) -> Self {
        EscapeError {
            offset,
            message: message.to_string(),
        }
    }
}

impl std::fmt::Display for EscapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for EscapeError {}

/// Decodes a `STRING` token's text, quotes included (§7.5.2).
///
/// Escapes: `\n \t \r \\ \' \" \``; a backslash before any other
/// character yields that character. Errors: `\0`, an unescaped line feed,
/// a missing closing quote.
pub fn unescape_string(raw: &str) -> Result<String, EscapeError> {
    let quote = raw
        .chars()
        .next()
        .filter(|c| *c == '\'' || *c == '"')
        .ok_or_else(|| EscapeError::new(0, "a string literal must start with a quote"))?;
    let body = &raw[1..];
    let inner = match body.strip_suffix(quote) {
        Some(inner) if !ends_with_escape(inner) => inner,
        _ => return Err(EscapeError::new(raw.len(), "unterminated string literal")),
    };
    if let Some(at) = inner.find('\n') {
        return Err(EscapeError::new(1 + at, "unterminated string literal"));
    }
    unescape(inner, 1)
}

/// Decodes the raw source text of a `TEMPLATE_CHUNK` (§7.5.3). Same
/// escapes as strings; line feeds are kept as they are.
pub fn unescape_template_chunk(raw: &str) -> Result<String, EscapeError> {
    unescape(raw, 0)
}

/// True when `text` ends in an odd number of backslashes (so a quote
/// after it would be escaped).
fn ends_with_escape(text: &str) -> bool {
    text.bytes().rev().take_while(|b| *b == b'\\').count() % 2 == 1
}

fn unescape(text: &str, base: usize) -> Result<String, EscapeError> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let decoded = match chars.next() {
            None => {
                return Err(EscapeError::new(
                    base + at,
                    "a `\\` must be followed by a character",
                ))
            }
            Some((_, '0')) => return Err(EscapeError::new(base + at, NUL_ESCAPE_MESSAGE)),
            Some((_, 'n')) => '\n',
            Some((_, 't')) => '\t',
            Some((_, 'r')) => '\r',
            Some((_, other)) => other,
        };
        out.push(decoded);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings() {
        assert_eq!(unescape_string(r"'a\nb'").unwrap(), "a\nb");
        assert_eq!(
            unescape_string(r#""q\"\'\`\\\t\r\x""#).unwrap(),
            "q\"'`\\\t\rx"
        );
        assert_eq!(unescape_string("'é'").unwrap(), "é");
        assert_eq!(unescape_string(r"'a\0'").unwrap_err().offset, 2);
        assert!(unescape_string("'abc").is_err());
        assert!(unescape_string(r"'abc\'").is_err());
        assert!(unescape_string("abc").is_err());
    }

    #[test]
    fn chunks() {
        assert_eq!(unescape_template_chunk(r"a\`b\${c}").unwrap(), "a`b${c}");
        assert_eq!(unescape_template_chunk("l1\nl2").unwrap(), "l1\nl2");
        assert!(unescape_template_chunk(r"\0").is_err());
        assert!(unescape_template_chunk("x\\").is_err());
    }
}
