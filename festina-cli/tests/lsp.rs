//! `festina lsp` driven as an editor drives it: real JSON-RPC messages,
//! framed with `Content-Length`, over the pipes of a `festina lsp`
//! process. Each test walks a session (initialize, didOpen, didChange,
//! hover, definition, references, completion, formatting, shutdown, exit)
//! and asserts the answers.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any one answer may take (generous: the machine is shared).
const PATIENCE: Duration = Duration::from_secs(60);

/// A client of one `festina lsp` process.
struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    /// Notifications received while waiting for responses.
    notes: Vec<Value>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_festina"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("festina lsp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("a Content-Length header")];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let msg: Value = serde_json::from_slice(&body).expect("a JSON message");
                if tx.send(msg).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            incoming,
            notes: Vec::new(),
            next_id: 1,
        }
    }

    fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn next(&mut self, deadline: Instant) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.incoming.recv_timeout(left) {
            Ok(msg) => msg,
            Err(RecvTimeoutError::Timeout) => panic!("no message from festina lsp in time"),
            Err(RecvTimeoutError::Disconnected) => panic!("festina lsp closed its output"),
        }
    }

    /// Sends a request and gives its whole response.
    fn request_raw(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let deadline = Instant::now() + PATIENCE;
        loop {
            let msg = self.next(deadline);
            if msg.get("id") == Some(&json!(id)) {
                return msg;
            }
            self.notes.push(msg);
        }
    }

    /// Sends a request and gives its result (the test fails on an error).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let msg = self.request_raw(method, params);
        assert!(msg.get("error").is_none(), "{method} failed: {msg}");
        msg["result"].clone()
    }

    /// The next diagnostics published for `uri` (with `version`, if given).
    fn diagnostics(&mut self, uri: &str, version: Option<i64>) -> Vec<Value> {
        let matches = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && version.is_none_or(|v| m["params"]["version"] == v)
        };
        if let Some(i) = self.notes.iter().position(matches) {
            let m = self.notes.remove(i);
            return m["params"]["diagnostics"].as_array().unwrap().clone();
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let msg = self.next(deadline);
            if matches(&msg) {
                return msg["params"]["diagnostics"].as_array().unwrap().clone();
            }
            self.notes.push(msg);
        }
    }

    fn initialize(&mut self, root: &Path, capabilities: Value) -> Value {
        let result = self.request(
            "initialize",
            json!({"processId": null, "rootUri": uri(root), "capabilities": capabilities}),
        );
        self.notify("initialized", json!({}));
        result
    }

    fn open(&mut self, path: &Path, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri(path), "languageId": "festina", "version": 1, "text": text}}),
        );
    }

    /// Shuts the server down and checks that it exits with status 0.
    fn shutdown(mut self) {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "festina lsp exited with {status}");
                return;
            }
            assert!(Instant::now() < deadline, "festina lsp did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// A fresh directory (canonical, as the server names files) with `files`.
fn project(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("lsp_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir.canonicalize().unwrap()
}

fn at(path: &Path, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri(path)}, "position": {"line": line, "character": character}})
}

fn hover_text(result: &Value) -> String {
    result["contents"]["value"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

fn labels(result: &Value) -> Vec<String> {
    result
        .as_array()
        .expect("a list of completions")
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

const LIB: &str = "\
struct Point {
    x:int
    y:int
}

int func twice(n:int) {
    return n * 2
}
";

const MAIN: &str = "\
import lib.f

Point p = {'x': 1, 'y': 2}
int func shifted(by:int) {
    int moved = p.x + by
    return twice(moved)
}
text name = 'abc'
log(name.length)
log(shifted(3) + p.y)
";

#[test]
fn a_whole_session() {
    let dir = project("session", &[("lib.f", LIB), ("main.f", MAIN)]);
    let (main, lib) = (dir.join("main.f"), dir.join("lib.f"));
    let mut c = Client::start();
    let init = c.initialize(&dir, json!({}));
    let caps = &init["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16");
    assert_eq!(caps["textDocumentSync"]["change"], 2, "incremental sync");
    for cap in [
        "hoverProvider",
        "definitionProvider",
        "referencesProvider",
        "documentFormattingProvider",
    ] {
        assert_eq!(caps[cap], true, "{cap}");
    }
    assert_eq!(
        caps["completionProvider"]["triggerCharacters"],
        json!(["."])
    );

    // A program that compiles: no diagnostics.
    c.open(&main, MAIN);
    assert_eq!(c.diagnostics(&uri(&main), Some(1)), Vec::<Value>::new());

    // Hover: a function of the imported file, a local, a parameter, a
    // field, a builtin method and a builtin function.
    let h = hover_text(&c.request("textDocument/hover", at(&main, 5, 12)));
    assert!(h.contains("int func twice(n:int)"), "{h}");
    assert!(h.contains("declared in lib.f:6"), "{h}");
    let h = c.request("textDocument/hover", at(&main, 5, 19));
    assert!(hover_text(&h).contains("int moved"), "{h}");
    assert!(hover_text(&h).contains("local variable"), "{h}");
    assert_eq!(
        h["range"],
        json!({"start": {"line": 5, "character": 17}, "end": {"line": 5, "character": 22}})
    );
    let h = hover_text(&c.request("textDocument/hover", at(&main, 4, 23)));
    assert!(h.contains("by:int") && h.contains("parameter"), "{h}");
    let h = hover_text(&c.request("textDocument/hover", at(&main, 4, 18)));
    assert!(
        h.contains("Point.x:int") && h.contains("field of Point"),
        "{h}"
    );
    let h = hover_text(&c.request("textDocument/hover", at(&main, 8, 10)));
    assert!(h.contains("text.length: int") && h.contains("§16.3"), "{h}");
    let h = hover_text(&c.request("textDocument/hover", at(&main, 8, 1)));
    assert!(h.contains("log(any): void") && h.contains("§16.5"), "{h}");

    // Definition: across files (function, struct, field), a local, the
    // import.
    let d = c.request("textDocument/definition", at(&main, 5, 12));
    assert_eq!(d["uri"], uri(&lib));
    assert_eq!(d["range"]["start"], json!({"line": 5, "character": 9}));
    let d = c.request("textDocument/definition", at(&main, 2, 1));
    assert_eq!(
        (d["uri"].clone(), d["range"]["start"].clone()),
        (json!(uri(&lib)), json!({"line": 0, "character": 7}))
    );
    let d = c.request("textDocument/definition", at(&main, 9, 19));
    assert_eq!(
        (d["uri"].clone(), d["range"]["start"].clone()),
        (json!(uri(&lib)), json!({"line": 2, "character": 4}))
    );
    let d = c.request("textDocument/definition", at(&main, 5, 19));
    assert_eq!(
        (d["uri"].clone(), d["range"]["start"].clone()),
        (json!(uri(&main)), json!({"line": 4, "character": 8}))
    );
    let d = c.request("textDocument/definition", at(&main, 0, 9));
    assert_eq!(d["uri"], uri(&lib));
    let d = c.request("textDocument/definition", at(&main, 8, 1));
    assert_eq!(d, Value::Null, "a builtin has no definition in the program");

    // References of a field: its declaration, the struct literal's key
    // and both reads, across the two files.
    let refs = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": uri(&lib)}, "position": {"line": 1, "character": 4},
               "context": {"includeDeclaration": true}}),
    );
    let found = places(&refs);
    assert_eq!(
        found,
        vec![
            ("lib.f".to_string(), 1, 4),
            ("main.f".to_string(), 2, 11),
            ("main.f".to_string(), 4, 18),
        ]
    );
    let refs = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": uri(&main)}, "position": {"line": 4, "character": 9},
               "context": {"includeDeclaration": false}}),
    );
    assert_eq!(
        refs.as_array().unwrap().len(),
        1,
        "one use of the local: {refs}"
    );

    // Completion: fields and methods by receiver type, builtins and
    // names in scope.
    let items = labels(&c.request("textDocument/completion", at(&main, 4, 18)));
    assert!(
        items.starts_with(&["x".to_string(), "y".to_string()]),
        "{items:?}"
    );
    assert!(items.contains(&"toText".to_string()), "{items:?}");
    let items = labels(&c.request("textDocument/completion", at(&main, 8, 9)));
    for m in ["length", "split", "trim", "toUpperCase"] {
        assert!(items.contains(&m.to_string()), "{m} missing from {items:?}");
    }
    assert!(!items.contains(&"push".to_string()), "{items:?}");
    let items = labels(&c.request("textDocument/completion", at(&main, 5, 11)));
    for n in [
        "moved", "by", "p", "twice", "shifted", "Point", "log", "Math", "while",
    ] {
        assert!(items.contains(&n.to_string()), "{n} missing from {items:?}");
    }

    // An edit that breaks the program: the compiler's own message.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&main), "version": 2},
               "contentChanges": [{"range": {"start": {"line": 7, "character": 12}, "end": {"line": 7, "character": 17}}, "text": "42"}]}),
    );
    let diags = c.diagnostics(&uri(&main), Some(2));
    let broken = MAIN.replace("'abc'", "42");
    std::fs::write(dir.join("broken.f"), &broken).unwrap();
    let check = Command::new(env!("CARGO_BIN_EXE_festina"))
        .args(["check", "broken.f"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let compiler = String::from_utf8_lossy(&check.stderr).to_string();
    assert_eq!(diags.len(), 1, "{diags:?}");
    let message = diags[0]["message"].as_str().unwrap();
    assert!(
        compiler.contains(&format!("broken.f:8:13: error: {message}\n")),
        "{compiler} vs {message}"
    );
    assert_eq!(
        diags[0]["range"]["start"],
        json!({"line": 7, "character": 12})
    );
    assert_eq!(diags[0]["severity"], 1);

    // Hover after the edit sees the new text.
    let h = hover_text(&c.request("textDocument/hover", at(&main, 7, 6)));
    assert!(h.contains("text name"), "{h}");

    // The edit undone, with a whole-text change: clean again.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&main), "version": 3}, "contentChanges": [{"text": MAIN}]}),
    );
    assert_eq!(c.diagnostics(&uri(&main), Some(3)), Vec::<Value>::new());

    // Formatting through festina fmt.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&main), "version": 4},
               "contentChanges": [{"range": {"start": {"line": 8, "character": 0}, "end": {"line": 9, "character": 0}}, "text": "log( name.length );log(1)\n"}]}),
    );
    let edits = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri(&main)}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    let edits = edits.as_array().unwrap();
    assert_eq!(edits.len(), 1);
    let formatted = edits[0]["newText"].as_str().unwrap();
    assert!(
        formatted.contains("\nlog(name.length)\nlog(1)\n"),
        "{formatted}"
    );
    assert_eq!(
        edits[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );
    c.shutdown();
}

#[test]
fn errors_in_imports_show_on_the_import_and_match_arms_narrow() {
    let lib = "int func broken() {\n    return 'x'\n}\n";
    let main = "\
import helpers.f
struct Circle {
    radius:int
}
struct Square {
    side:int
}
enum Shape = Circle, Square
Circle c = {'radius': 2}
Shape s = c
match s {
    'Circle' { log(s.radius) }
    'Square' { log(s.side) }
}
";
    let dir = project("imports", &[("helpers.f", lib), ("main.f", main)]);
    let path = dir.join("main.f");
    let mut c = Client::start();
    c.initialize(&dir, json!({}));
    c.open(&path, main);
    let diags = c.diagnostics(&uri(&path), Some(1));
    assert_eq!(diags.len(), 1, "{diags:?}");
    let message = diags[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!(
            "{}:2:12: error: ",
            dir.join("helpers.f").display()
        )),
        "{message}"
    );
    assert_eq!(
        diags[0]["range"]["start"],
        json!({"line": 0, "character": 7})
    );
    // In the 'Circle' arm, `s` is a Circle.
    let h = hover_text(&c.request("textDocument/hover", at(&path, 11, 20)));
    assert!(
        h.contains("Shape s") && h.contains("here a `Circle`"),
        "{h}"
    );
    let d = c.request("textDocument/definition", at(&path, 11, 22));
    assert_eq!(d["range"]["start"], json!({"line": 2, "character": 4}));
    let d = c.request("textDocument/definition", at(&path, 12, 6));
    assert_eq!(
        d["range"]["start"],
        json!({"line": 4, "character": 7}),
        "the arm's tag names the struct"
    );
    c.shutdown();
}

#[test]
fn utf8_positions_when_the_client_offers_them_and_refusals() {
    let text = "text s = 'é€'\nlog(s.length)\nint x = (\n";
    let dir = project("utf8", &[("a.f", text)]);
    let path = dir.join("a.f");
    let mut c = Client::start();
    let init = c.initialize(
        &dir,
        json!({"general": {"positionEncodings": ["utf-8", "utf-16"]}}),
    );
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-8");
    c.open(&path, text);
    let diags = c.diagnostics(&uri(&path), Some(1));
    assert!(!diags.is_empty());
    // `s` of line 2 is at byte 4; hovering it names the variable.
    let h = c.request("textDocument/hover", at(&path, 1, 4));
    assert!(hover_text(&h).contains("text s"), "{h}");
    // A file with syntax errors is not formatted.
    let refused = c.request_raw(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri(&path)}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("syntax error"),
        "{refused}"
    );
    // An unknown request gets an error, and the server goes on.
    let unknown = c.request_raw("textDocument/rename", at(&path, 0, 5));
    assert_eq!(unknown["error"]["code"], -32601);
    c.shutdown();
}

/// The canvas battery through the server: hover on drawing builtins (their
/// color and image parameters), on a read-only global value and on an
/// image method; completion of an `img` receiver and of the global values;
/// a color the compiler refuses, with the compiler's text.
#[test]
fn canvas_builtins_hover_complete_and_diagnose() {
    let text = "\
color sky = 'skyblue'
img tile = blankImage(16, 16)
tile.drawRect(0, 0, 8, 8, sky)
drawImage(tile, 0, 0)
int w = clientWidth
log(w + tile.width)
";
    let dir = project("canvas", &[("draw.f", text)]);
    let path = dir.join("draw.f");
    let mut c = Client::start();
    c.initialize(&dir, json!({}));
    c.open(&path, text);
    assert_eq!(c.diagnostics(&uri(&path), Some(1)), Vec::<Value>::new());

    let h = hover_text(&c.request("textDocument/hover", at(&path, 3, 2)));
    assert!(
        h.contains("drawImage(img?, int, int): void")
            && h.contains("drawImage(img?, int, int, int, int, int, int, int, int): void")
            && h.contains("§17.3"),
        "{h}"
    );
    let h = hover_text(&c.request("textDocument/hover", at(&path, 4, 10)));
    assert!(h.contains("clientWidth: int") && h.contains("§17.2"), "{h}");
    let h = hover_text(&c.request("textDocument/hover", at(&path, 2, 7)));
    assert!(
        h.contains("img.drawRect(int, int, int, int, color, color): void") && h.contains("§17.6"),
        "{h}"
    );
    let h = hover_text(&c.request("textDocument/hover", at(&path, 1, 6)));
    assert!(h.contains("img tile"), "{h}");
    // `w` is an int because clientWidth is.
    let h = hover_text(&c.request("textDocument/hover", at(&path, 5, 4)));
    assert!(h.contains("int w"), "{h}");

    let items = labels(&c.request("textDocument/completion", at(&path, 5, 13)));
    for m in ["width", "height", "drawRect", "clip", "saveCopy"] {
        assert!(items.contains(&m.to_string()), "{m} missing from {items:?}");
    }
    assert!(!items.contains(&"length".to_string()), "{items:?}");
    let items = labels(&c.request("textDocument/completion", at(&path, 4, 8)));
    for n in ["clientWidth", "clientHeight", "fillStyle", "sky", "tile"] {
        assert!(items.contains(&n.to_string()), "{n} missing from {items:?}");
    }

    // A color name the compiler does not know: its own message.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&path), "version": 2},
               "contentChanges": [{"range": {"start": {"line": 0, "character": 13}, "end": {"line": 0, "character": 20}}, "text": "skyish"}]}),
    );
    let diags = c.diagnostics(&uri(&path), Some(2));
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(
        diags[0]["message"],
        "unknown color 'skyish': a color is one of the 148 CSS color names, #rgb, #rrggbb, none or transparent (§8.14)"
    );
    assert_eq!(
        diags[0]["range"]["start"],
        json!({"line": 0, "character": 12})
    );
    c.shutdown();
}

/// `(file, line, character)` of each location, sorted.
fn places(result: &Value) -> Vec<(String, u64, u64)> {
    let mut out: Vec<(String, u64, u64)> = result
        .as_array()
        .expect("a list of locations")
        .iter()
        .map(|l| {
            let file = l["uri"].as_str().unwrap().rsplit('/').next().unwrap();
            (
                file.to_string(),
                l["range"]["start"]["line"].as_u64().unwrap(),
                l["range"]["start"]["character"].as_u64().unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// Find references of a function, a global, a struct and an imported
/// file, across the files of the workspace (one of them never opened).
#[test]
fn references_of_functions_globals_structs_and_imports() {
    let other = "\
import lib.f

Point q = {'x': twice(5), 'y': 0}
log(q.x)
";
    let dir = project(
        "references",
        &[("lib.f", LIB), ("main.f", MAIN), ("other.f", other)],
    );
    let (main, lib) = (dir.join("main.f"), dir.join("lib.f"));
    let mut c = Client::start();
    c.initialize(&dir, json!({}));
    c.open(&main, MAIN);
    assert_eq!(c.diagnostics(&uri(&main), Some(1)), Vec::<Value>::new());
    let refs = |c: &mut Client, path: &Path, line: u32, character: u32| {
        let mut params = at(path, line, character);
        params["context"] = json!({"includeDeclaration": true});
        places(&c.request("textDocument/references", params))
    };
    let s = |f: &str, l: u64, ch: u64| (f.to_string(), l, ch);
    // The function, from its use in main.f: its declaration in lib.f and
    // the uses in main.f and in other.f, which is not open.
    assert_eq!(
        refs(&mut c, &main, 5, 12),
        vec![s("lib.f", 5, 9), s("main.f", 5, 11), s("other.f", 2, 16)]
    );
    // The struct, from its declaration: the type of both globals.
    assert_eq!(
        refs(&mut c, &lib, 0, 8),
        vec![s("lib.f", 0, 7), s("main.f", 2, 0), s("other.f", 2, 0)]
    );
    // A global: its declaration and both reads.
    assert_eq!(
        refs(&mut c, &main, 2, 6),
        vec![s("main.f", 2, 6), s("main.f", 4, 16), s("main.f", 9, 17)]
    );
    // Go to definition of the global from a read.
    let d = c.request("textDocument/definition", at(&main, 4, 16));
    assert_eq!(
        (d["uri"].clone(), d["range"]["start"].clone()),
        (json!(uri(&main)), json!({"line": 2, "character": 6}))
    );
    // The imported file, from an import: both imports of it.
    assert_eq!(
        refs(&mut c, &main, 0, 9),
        vec![s("main.f", 0, 7), s("other.f", 0, 7)]
    );
    c.shutdown();
}

/// Bad framing ends the server with a message and status 1, never a
/// panic: a `Content-Length` past the limit (a break run's `2^64 - 1`
/// made lsp-server's reader panic on a capacity overflow), one that is
/// not a number, a body cut short, a body that is not JSON-RPC.
#[test]
fn bad_framing_ends_the_server_cleanly() {
    let cases: [(&[u8], &str); 4] = [
        (
            b"Content-Length: 18446744073709551615\r\n\r\n{}",
            "over the 268435456-byte limit",
        ),
        (b"Content-Length: x\r\n\r\n{}", "bad Content-Length: x"),
        (b"Content-Length: 5\r\n\r\n{}", "input:"),
        (b"Content-Length: 2\r\n\r\n{}", "malformed LSP payload"),
    ];
    for (input, expected) in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_festina"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start festina lsp");
        child.stdin.take().unwrap().write_all(input).unwrap();
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains(expected), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
