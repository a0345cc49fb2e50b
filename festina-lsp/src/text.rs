//! Positions and file names as the protocol has them: line/character
//! positions in UTF-16 code units (or UTF-8 bytes when the client offers
//! it) to byte offsets and back, incremental edits, and `file:` URIs to
//! paths and back.

use festina_compiler::driver::clean_path;
use lsp_types::{Position, Range, Uri};
use rowan::{TextRange, TextSize};
use std::path::{Path, PathBuf};

/// How the client counts the `character` of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-16 code units: the protocol's default.
    Utf16,
    /// Bytes, when the client lists `utf-8` in `positionEncodings`.
    Utf8,
}

/// The start of each line of a text, for position conversions.
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset of the start of each line (the first is 0).
    starts: Vec<u32>,
}

impl LineIndex {
    /// The index of `text`.
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        LineIndex { starts }
    }

    /// The byte offset of `pos` in `text` (of which this is the index),
    /// clamped to the end of its line and of the text.
    pub fn offset(&self, text: &str, pos: Position, enc: Encoding) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return text.len();
        };
        let start = start as usize;
        let end = self
            .starts
            .get(pos.line as usize + 1)
            .map_or(text.len(), |&s| s as usize);
        let line = &text[start..end];
        let line = line.strip_suffix('\n').unwrap_or(line);
        let mut units = 0u32;
        for (i, ch) in line.char_indices() {
            if units >= pos.character {
                return start + i;
            }
            units += match enc {
                Encoding::Utf16 => ch.len_utf16() as u32,
                Encoding::Utf8 => ch.len_utf8() as u32,
            };
        }
        start + line.len()
    }

    /// The position of byte `offset` in `text`.
    pub fn position(&self, text: &str, offset: usize, enc: Encoding) -> Position {
        let offset = floor_boundary(text, offset.min(text.len()));
        let line = self.starts.partition_point(|&s| s as usize <= offset) - 1;
        let start = self.starts[line] as usize;
        let character = match enc {
            Encoding::Utf16 => text[start..offset].encode_utf16().count() as u32,
            Encoding::Utf8 => (offset - start) as u32,
        };
        Position::new(line as u32, character)
    }

    /// The protocol range of `range` in `text`.
    pub fn range(&self, text: &str, range: TextRange, enc: Encoding) -> Range {
        Range::new(
            self.position(text, range.start().into(), enc),
            self.position(text, range.end().into(), enc),
        )
    }

    /// The text range of the protocol range `range` in `text`.
    pub fn text_range(&self, text: &str, range: Range, enc: Encoding) -> TextRange {
        let start = self.offset(text, range.start, enc);
        let end = self.offset(text, range.end, enc).max(start);
        TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32))
    }
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    while at > 0 && !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The path a `file:` URI names, or `None` for another scheme.
pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file://localhost/x` and `file:///x` both name `/x`.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    let bytes = percent_decode(rest)?;
    let text = String::from_utf8(bytes).ok()?;
    Some(clean_path(Path::new(&text)))
}

/// The `file:` URI of an absolute path.
pub fn path_to_uri(path: &Path) -> Option<Uri> {
    let text = path.to_str()?;
    let mut out = String::from("file://");
    for &b in text.as_bytes() {
        let plain = b.is_ascii_alphanumeric() || b"/-._~".contains(&b);
        if plain {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out.parse().ok()
}

fn percent_decode(s: &str) -> Option<Vec<u8>> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

/// The identity of a file: its canonical path when it exists, else its
/// cleaned path.
pub fn file_key(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| clean_path(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_in_both_encodings() {
        let text = "ab\n€x\n\n😀y";
        let index = LineIndex::new(text);
        for enc in [Encoding::Utf16, Encoding::Utf8] {
            for offset in [0, 1, 2, 3, 6, 7, 8, 9, 13, 14] {
                let pos = index.position(text, offset, enc);
                assert_eq!(index.offset(text, pos, enc), offset, "{enc:?} {offset}");
            }
        }
        assert_eq!(
            index.position(text, 6, Encoding::Utf16),
            Position::new(1, 1)
        );
        assert_eq!(index.position(text, 6, Encoding::Utf8), Position::new(1, 3));
        assert_eq!(
            index.position(text, 13, Encoding::Utf16),
            Position::new(3, 2)
        );
        // Past the end of a line: the end of the line.
        assert_eq!(index.offset(text, Position::new(0, 99), Encoding::Utf16), 2);
        assert_eq!(
            index.offset(text, Position::new(9, 0), Encoding::Utf16),
            text.len()
        );
    }

    #[test]
    fn file_uris() {
        let path = Path::new("/tmp/a b/ü.f");
        let uri = path_to_uri(path).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%BC.f");
        assert_eq!(uri_to_path(&uri).unwrap(), path);
        let other: Uri = "untitled:Untitled-1".parse().unwrap();
        assert_eq!(uri_to_path(&other), None);
    }
}
