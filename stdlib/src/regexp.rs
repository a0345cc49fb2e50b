//! `regex` values (§8.15): POSIX Extended Regular Expressions, translated
//! to the syntax of the `regex` crate and compiled by it.
//!
//! | native          | Festina form             | result |
//! |-----------------|--------------------------|--------|
//! | `regex_literal` | `/pattern/flags`         | `regex`, compiled the first time the site runs and kept for the life of the interpreter |
//! | `regex_new`     | `regex(pattern[, flags])`| `regex`, memoized per call site (recompiled only when the pattern or flags differ from the site's last call) |
//! | `regex_test`    | `re.test(t)`             | `bool`: a match anywhere in `t` |
//! | `regex_match`   | `s.match(re)`            | `text`: the first match, or `null`; `g` is ignored |
//! | `regex_replace` | `s.replace(re, repl)`    | `text`: the first match replaced, every match with `g`; `repl` is literal |
//! | `regex_split`   | `s.split(re)`            | `arr[text]`: the pieces between matches, empty pieces kept |
//!
//! An invalid pattern or flag is a runtime failure (`fail: invalid regex
//! ...`). A null `regex` receiver or argument is a runtime failure too; a
//! null `text` reads as empty.
//!
//! # Translation ([`translate`])
//! Every difference a user can meet is listed in `docs/regex.md`. In
//! short: `\w \d \s` and their negations are ASCII classes and `\b`/`\B`
//! ASCII word boundaries, as in glibc's C locale; `\<`/`\>` are word
//! start/end; `\n \t \r \f \v` are control characters; any other escaped
//! punctuation is that character; a backslash inside `[...]` is literal
//! (POSIX), as are `[`, `&`, `~` and a second `-` there; `[:alpha:]` and
//! the other POSIX classes work inside brackets; a `{` that does not start
//! a valid interval is literal; `.` matches every character, newline
//! included. Rejected: back-references (`\1`), other escaped letters or
//! digits, `(?` groups, a quantifier directly after another (lazy forms
//! such as `*?`), equivalence classes (`[=a=]`) and collating symbols
//! (`[.a.]`).
//!
//! # Leftmost-longest ([`RegexHandle::find_iter`])
//! POSIX picks, among the matches that start leftmost, the longest; the
//! `regex` crate offers only leftmost-first (Perl: the first alternative
//! that matches). Both agree on where the leftmost match *starts*, so a
//! match is found in two steps: the `regex` crate finds the leftmost start,
//! then a lazy DFA of the same pattern built with `MatchKind::All` (which
//! keeps every alternative alive) runs anchored at that start until it
//! dies, and its last match is the longest one. `'ab'.match(/a|ab/)` is
//! `ab`. `test` needs no end and asks the `regex` crate alone.

use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::value::{Handle, Value};

/// The natives of this module, for `Interpreter::new`.
pub fn natives() -> Vec<NativeEntry> {
    vec![
        NativeEntry {
            name: "regex_literal",
            func: regex_literal,
        },
        NativeEntry {
            name: "regex_new",
            func: regex_new,
        },
        NativeEntry {
            name: "regex_test",
            func: regex_test,
        },
        NativeEntry {
            name: "regex_match",
            func: regex_match,
        },
        NativeEntry {
            name: "regex_replace",
            func: regex_replace,
        },
        NativeEntry {
            name: "regex_split",
            func: regex_split,
        },
    ]
}

/// The payload of a `regex` handle.
#[derive(Debug)]
pub struct RegexHandle {
    /// The compiled pattern (leftmost-first; finds where matches start).
    pub re: regex::Regex,
    /// The same pattern as a lazy DFA reporting every match, for the
    /// longest match at a start (see the module documentation), and its
    /// cache (one per handle; a handle never leaves its thread).
    longest: Option<(
        regex_automata::hybrid::dfa::DFA,
        std::cell::RefCell<regex_automata::hybrid::dfa::Cache>,
    )>,
    /// The `g` flag (honoured by `replace` only).
    pub global: bool,
    /// The pattern as written (for memoization and messages).
    pub pattern: String,
    /// The flags as written.
    pub flags: String,
}

/// The POSIX bracket classes accepted inside `[...]`.
const POSIX_CLASSES: &[&str] = &[
    "alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space",
    "upper", "xdigit",
];

/// Translate a POSIX ERE `pattern` into `regex` crate syntax (see the
/// module documentation and `docs/regex.md`). Errors: a message naming
/// the construct that has no translation.
pub fn translate(pattern: &str) -> Result<String, String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut i = 0;
    // True right after something a quantifier applies to has been closed by
    // a quantifier (to reject `a*?`, `a+*`, ...).
    let mut after_quantifier = false;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                after_quantifier = false;
                let Some(&e) = chars.get(i + 1) else {
                    return Err("the pattern ends with a lone backslash".into());
                };
                i += 2;
                match e {
                    'd' => out.push_str("[0-9]"),
                    'D' => out.push_str("[^0-9]"),
                    'w' => out.push_str("[0-9A-Za-z_]"),
                    'W' => out.push_str("[^0-9A-Za-z_]"),
                    's' => out.push_str(r"[\t\n\x0B\x0C\r ]"),
                    'S' => out.push_str(r"[^\t\n\x0B\x0C\r ]"),
                    'b' => out.push_str(r"(?-u:\b)"),
                    'B' => out.push_str(r"(?-u:\B)"),
                    '<' => out.push_str(r"(?-u:\b{start})"),
                    '>' => out.push_str(r"(?-u:\b{end})"),
                    'n' => out.push_str(r"\n"),
                    't' => out.push_str(r"\t"),
                    'r' => out.push_str(r"\r"),
                    'f' => out.push_str(r"\x0C"),
                    'v' => out.push_str(r"\x0B"),
                    '1'..='9' => {
                        return Err(format!("back-references such as '\\{e}' are not supported"))
                    }
                    e if e.is_ascii_punctuation() || e == ' ' => push_literal(&mut out, e),
                    e => return Err(format!("unsupported escape '\\{e}'")),
                }
                continue;
            }
            '[' => {
                after_quantifier = false;
                i = bracket(&chars, i, &mut out)?;
                continue;
            }
            '(' => {
                after_quantifier = false;
                if chars.get(i + 1) == Some(&'?') {
                    return Err("'(?' is not POSIX syntax (groups take no flags)".into());
                }
                out.push('(');
            }
            '*' | '+' | '?' => {
                if after_quantifier {
                    return Err(format!(
                        "'{c}' cannot follow another quantifier (there are no non-greedy quantifiers)"
                    ));
                }
                out.push(c);
                after_quantifier = true;
                i += 1;
                continue;
            }
            '{' => match interval(&chars, i) {
                Some((text, next)) => {
                    if after_quantifier {
                        return Err("an interval cannot follow another quantifier".to_string());
                    }
                    out.push_str(&text);
                    after_quantifier = true;
                    i = next;
                    continue;
                }
                None => {
                    after_quantifier = false;
                    out.push_str(r"\{");
                }
            },
            '}' => {
                after_quantifier = false;
                out.push_str(r"\}");
            }
            _ => {
                after_quantifier = false;
                out.push(c);
            }
        }
        i += 1;
    }
    Ok(out)
}

/// Append `c` so the `regex` crate reads it literally.
fn push_literal(out: &mut String, c: char) {
    let mut buf = [0u8; 4];
    out.push_str(&regex::escape(c.encode_utf8(&mut buf)));
}

/// A POSIX interval `{m}`, `{m,}`, `{m,n}` or `{,n}` at `chars[i]`: its
/// translation and the index after it, or `None` if the `{` is literal.
fn interval(chars: &[char], i: usize) -> Option<(String, usize)> {
    let mut j = i + 1;
    let mut lo = String::new();
    while let Some(&d) = chars.get(j).filter(|d| d.is_ascii_digit()) {
        lo.push(d);
        j += 1;
    }
    let mut hi: Option<String> = None;
    if chars.get(j) == Some(&',') {
        j += 1;
        let mut h = String::new();
        while let Some(&d) = chars.get(j).filter(|d| d.is_ascii_digit()) {
            h.push(d);
            j += 1;
        }
        hi = Some(h);
    }
    if chars.get(j) != Some(&'}') || (lo.is_empty() && hi.as_deref().is_none_or(str::is_empty)) {
        return None;
    }
    let lo = if lo.is_empty() { "0".to_string() } else { lo };
    let text = match hi {
        None => format!("{{{lo}}}"),
        Some(h) => format!("{{{lo},{h}}}"),
    };
    Some((text, j + 1))
}

/// Translate the bracket expression starting at `chars[start] == '['`;
/// returns the index after its closing `]`.
fn bracket(chars: &[char], start: usize, out: &mut String) -> Result<usize, String> {
    let mut i = start + 1;
    out.push('[');
    if chars.get(i) == Some(&'^') {
        out.push('^');
        i += 1;
    }
    // A `]` first in the list is a literal.
    if chars.get(i) == Some(&']') {
        out.push_str(r"\]");
        i += 1;
    }
    let mut prev_dash = false;
    loop {
        let Some(&c) = chars.get(i) else {
            return Err("unterminated '[' bracket expression".into());
        };
        match c {
            ']' => {
                out.push(']');
                return Ok(i + 1);
            }
            '[' => match chars.get(i + 1) {
                Some(':') => {
                    let rest: String = chars[i + 2..].iter().collect();
                    let Some(end) = rest.find(":]") else {
                        return Err("unterminated '[:' character class".into());
                    };
                    let name = &rest[..end];
                    if !POSIX_CLASSES.contains(&name) {
                        return Err(format!("unknown character class '[:{name}:]'"));
                    }
                    out.push_str(&format!("[:{name}:]"));
                    i += 2 + name.chars().count() + 2;
                    prev_dash = false;
                    continue;
                }
                Some('=') => return Err("equivalence classes '[= =]' are not supported".into()),
                Some('.') => return Err("collating symbols '[. .]' are not supported".into()),
                _ => out.push_str(r"\["),
            },
            '\\' => out.push_str(r"\\"),
            '&' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '-' if prev_dash => out.push_str(r"\-"),
            _ => out.push(c),
        }
        prev_dash = c == '-';
        i += 1;
    }
}

/// Compile `pattern` with `flags` (`i`, `g`). Errors: the failure message
/// for an invalid flag or pattern.
pub fn compile(pattern: &str, flags: &str) -> Result<RegexHandle, String> {
    let mut icase = false;
    let mut global = false;
    for f in flags.chars() {
        match f {
            'i' => icase = true,
            'g' => global = true,
            other => {
                return Err(format!(
                    "invalid regex flag '{other}'; only 'i' and 'g' are allowed"
                ))
            }
        }
    }
    let translated =
        translate(pattern).map_err(|e| format!("invalid regex pattern '{pattern}': {e}"))?;
    let re = regex::RegexBuilder::new(&translated)
        .case_insensitive(icase)
        .dot_matches_new_line(true)
        .build()
        .map_err(|e| {
            format!(
                "invalid regex pattern '{pattern}': {}",
                regex_error_line(&e)
            )
        })?;
    Ok(RegexHandle {
        re,
        longest: longest_dfa(&translated, icase),
        global,
        pattern: pattern.to_string(),
        flags: flags.to_string(),
    })
}

/// The lazy DFA of `translated` that reports every match (for the
/// longest one at a start), or `None` if it cannot be built (the pattern
/// then matches leftmost-first; the `regex` crate accepted it, and the
/// two share their parser, so this is not expected).
fn longest_dfa(
    translated: &str,
    icase: bool,
) -> Option<(
    regex_automata::hybrid::dfa::DFA,
    std::cell::RefCell<regex_automata::hybrid::dfa::Cache>,
)> {
    use regex_automata::{hybrid::dfa::DFA, util::syntax, MatchKind};
    let dfa = DFA::builder()
        .syntax(
            syntax::Config::new()
                .case_insensitive(icase)
                .dot_matches_new_line(true),
        )
        .configure(DFA::config().match_kind(MatchKind::All))
        .build(translated)
        .ok()?;
    let cache = dfa.create_cache();
    Some((dfa, std::cell::RefCell::new(cache)))
}

impl RegexHandle {
    /// The end of the longest match starting at `start` (a position where
    /// the leftmost-first engine found one, ending at `end`).
    fn longest_end(&self, s: &str, start: usize, end: usize) -> usize {
        use regex_automata::{Anchored, Input};
        let Some((dfa, cache)) = &self.longest else {
            return end;
        };
        let input = Input::new(s).range(start..).anchored(Anchored::Yes);
        match dfa.try_search_fwd(&mut cache.borrow_mut(), &input) {
            Ok(Some(m)) => m.offset().max(end),
            // Gave up or found nothing: keep the leftmost-first match.
            _ => end,
        }
    }

    /// The leftmost-longest match of `s` at or after byte `at`, as byte
    /// offsets (POSIX, §8.15).
    pub fn find_at(&self, s: &str, at: usize) -> Option<(usize, usize)> {
        let m = self.re.find_at(s, at)?;
        Some((m.start(), self.longest_end(s, m.start(), m.end())))
    }

    /// Every leftmost-longest match of `s`, left to right, not overlapping;
    /// an empty match right where the previous match ended is skipped (as
    /// the `regex` crate's own iterator does).
    pub fn find_iter(&self, s: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut at = 0;
        let mut last_end = None;
        while at <= s.len() {
            let Some((start, end)) = self.find_at(s, at) else {
                break;
            };
            if start == end && last_end == Some(end) {
                // Look again one character further on.
                match s[end..].chars().next() {
                    Some(c) => at = end + c.len_utf8(),
                    None => break,
                }
                continue;
            }
            out.push((start, end));
            last_end = Some(end);
            at = end;
        }
        out
    }
}

/// The one-line reason of a `regex` crate error (its message is a
/// multi-line diagram ending in `error: ...`).
fn regex_error_line(e: &regex::Error) -> String {
    let s = e.to_string();
    s.lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("error: "))
        .map_or_else(
            || s.lines().last().unwrap_or("").trim().to_string(),
            str::to_string,
        )
}

/// A regex is a handle (§8.15): it renders as `regex` (`"<regex>"` in
/// JSON), `clear` has nothing to wipe, and it is not sendable (§20.4).
impl Handle for RegexHandle {
    fn type_name(&self) -> &'static str {
        "regex"
    }
}

fn handle(h: RegexHandle) -> Value {
    Value::handle(h)
}

/// The compiled regex inside a `regex` value.
fn regex_of<'a>(it: &Interpreter, v: Option<&'a Value>) -> Result<&'a RegexHandle, Trap> {
    match v {
        Some(Value::Handle(h)) => h
            .downcast_ref::<RegexHandle>()
            .ok_or_else(|| Trap::Fail(format!("a regex was expected at {}", it.location()))),
        _ => Err(Trap::Fail(format!(
            "use of a null regex at {}",
            it.location()
        ))),
    }
}

fn compile_or_fail(it: &Interpreter, pattern: &str, flags: &str) -> Result<Value, Trap> {
    compile(pattern, flags)
        .map(handle)
        .map_err(|m| Trap::Fail(format!("{m} at {}", it.location())))
}

fn regex_literal(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    if let Some(v) = it.site_value() {
        return Ok(v.clone());
    }
    let pattern = crate::text::str_arg(args, 0);
    let flags = crate::text::str_arg(args, 1);
    let v = compile_or_fail(it, pattern, flags)?;
    it.set_site_value(v.clone());
    Ok(v)
}

fn regex_new(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let pattern = crate::text::str_arg(args, 0);
    let flags = crate::text::str_arg(args, 1);
    if let Some(v @ Value::Handle(h)) = it.site_value() {
        if let Some(r) = h.downcast_ref::<RegexHandle>() {
            if r.pattern == pattern && r.flags == flags {
                return Ok(v.clone());
            }
        }
    }
    let v = compile_or_fail(it, pattern, flags)?;
    it.set_site_value(v.clone());
    Ok(v)
}

fn regex_test(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let r = regex_of(it, args.first())?;
    Ok(Value::Bool(r.re.is_match(crate::text::str_arg(args, 1))))
}

fn regex_match(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let r = regex_of(it, args.get(1))?;
    let s = crate::text::str_arg(args, 0);
    Ok(r.find_at(s, 0)
        .map_or(Value::Null, |(a, b)| Value::text(&s[a..b])))
}

fn regex_replace(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let r = regex_of(it, args.get(1))?;
    let s = crate::text::str_arg(args, 0);
    let repl = crate::text::str_arg(args, 2);
    let matches = if r.global {
        r.find_iter(s)
    } else {
        r.find_at(s, 0).into_iter().collect()
    };
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for (a, b) in matches {
        out.push_str(&s[last..a]);
        out.push_str(repl);
        last = b;
    }
    out.push_str(&s[last..]);
    Ok(Value::text(out))
}

/// The pieces of `s` between the matches of `re`, empty pieces kept; an
/// empty match at the very start or end of `s` does not split (so an
/// always-empty pattern splits per code point, as in JavaScript).
pub fn split_regex(re: &RegexHandle, s: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut last = 0;
    for (start, end) in re.find_iter(s) {
        if start == end && (start == 0 || start == s.len()) {
            continue;
        }
        pieces.push(s[last..start].to_string());
        last = end;
    }
    pieces.push(s[last..].to_string());
    pieces
}

fn regex_split(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let r = regex_of(it, args.get(1))?;
    let s = crate::text::str_arg(args, 0);
    let items = split_regex(r, s).into_iter().map(Value::text).collect();
    Ok(it.new_arr(items))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn re(p: &str, f: &str) -> regex::Regex {
        compile(p, f).unwrap().re
    }

    #[test]
    fn translation() {
        assert_eq!(translate(r"\d+").unwrap(), "[0-9]+");
        assert_eq!(translate(r"[\d]").unwrap(), r"[\\d]");
        assert_eq!(translate(r"[]a]").unwrap(), r"[\]a]");
        assert_eq!(translate(r"[a[b]").unwrap(), r"[a\[b]");
        assert_eq!(translate(r"[[:alpha:]_]").unwrap(), r"[[:alpha:]_]");
        assert_eq!(translate(r"a{2,3}").unwrap(), "a{2,3}");
        assert_eq!(translate(r"a{,3}").unwrap(), "a{0,3}");
        assert_eq!(translate(r"a{x}").unwrap(), r"a\{x\}");
        assert_eq!(translate(r"\/\.").unwrap(), r"/\.");
        assert!(translate(r"(a)\1").is_err());
        assert!(translate(r"a*?").is_err());
        assert!(translate(r"(?i)a").is_err());
        assert!(translate(r"[a").is_err());
        assert!(translate(r"[[:nope:]]").is_err());
        assert!(translate(r"\q").is_err());
        assert!(translate("a\\").is_err());
    }

    #[test]
    fn semantics() {
        assert!(re(r"\bcat\b", "").is_match("a cat sat"));
        assert!(!re(r"\bcat\b", "").is_match("concatenate"));
        assert!(re(r"^a.c$", "").is_match("a\nc"));
        assert!(re("HELLO", "i").is_match("say hello"));
        assert!(!re(r"\d", "").is_match("٣"));
        assert!(re(r"[\d]", "").is_match("\\"));
        assert!(re(r"\<is\>", "").is_match("this is it"));
        assert!(re(r"[[:upper:]]+", "").is_match("ABC"));
        assert!(compile(r"\<is\>", "").unwrap().longest.is_some());
    }

    /// The matched text of the leftmost-longest match, if any.
    fn first(p: &str, f: &str, s: &str) -> Option<String> {
        let h = compile(p, f).unwrap();
        h.find_at(s, 0).map(|(a, b)| s[a..b].to_string())
    }

    #[test]
    fn leftmost_longest() {
        // POSIX: the longest of the matches starting leftmost.
        assert_eq!(first("a|ab", "", "ab").as_deref(), Some("ab"));
        assert_eq!(first("(a|ab)(c|bcd)", "", "abcd").as_deref(), Some("abcd"));
        assert_eq!(first(r"\w|\w\w", "", "xy z").as_deref(), Some("xy"));
        assert_eq!(
            first("foo|foofoo", "", "xfoofoo").as_deref(),
            Some("foofoo")
        );
        assert_eq!(first("b|abc|ab", "", "zabcd").as_deref(), Some("abc"));
        // Leftmost still wins over longer matches further on.
        assert_eq!(first("b|abcdef", "", "xbabcdef").as_deref(), Some("b"));
        assert_eq!(first("A|AB", "i", "ab").as_deref(), Some("ab"));
        assert_eq!(
            first(r"is|island\>", "", "this island").as_deref(),
            Some("is")
        );
        assert_eq!(
            first(r"\<(is|island)", "", "this island").as_deref(),
            Some("island")
        );
        assert_eq!(first("é|éa", "", "xéa").as_deref(), Some("éa"));
        assert_eq!(first("x*", "", "abc").as_deref(), Some(""));
        assert_eq!(first("q", "", "abc"), None);
        let h = compile("a|ab|b", "").unwrap();
        assert_eq!(h.find_iter("abab b"), vec![(0, 2), (2, 4), (5, 6)]);
    }

    #[test]
    fn splitting() {
        let re = |p: &str, f: &str| compile(p, f).unwrap();
        let r = re("[0-9]", "");
        assert_eq!(split_regex(&r, "a1b2c"), vec!["a", "b", "c"]);
        assert_eq!(split_regex(&r, "1a1"), vec!["", "a", ""]);
        let e = re("x*", "");
        assert_eq!(split_regex(&e, "abc"), vec!["a", "b", "c"]);
        assert_eq!(split_regex(&r, ""), vec![""]);
        // Each separator is the longest match at its start.
        let l = re("-|--", "");
        assert_eq!(split_regex(&l, "a--b-c"), vec!["a", "b", "c"]);
    }

    #[test]
    fn errors_are_one_line() {
        let e = compile("a)", "").unwrap_err();
        assert!(e.starts_with("invalid regex pattern 'a)': "), "{e}");
        assert!(!e.contains('\n'));
        let e = compile("a", "x").unwrap_err();
        assert!(e.contains("invalid regex flag 'x'"), "{e}");
    }
}
