//! One line of documentation and the specification clause for every
//! builtin, `Math` member, method and property of the tables: what the
//! language server shows when the cursor rests on a builtin (`festina
//! lsp`, hover and completion).
//!
//! Keyed by [`Owner`] and name, so that the alternatives of one name
//! (`split(text)` and `split(regex)`) share one entry; the signatures
//! themselves come from the tables. A test checks that every entry of the
//! tables has its line here: when you add a builtin, add its line too.

use crate::Recv;

/// What a documented name belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// A global function (§16.1) or a read-only global value such as
    /// `clientWidth` (§17.2).
    Global,
    /// The `Math` namespace (§16.2): a function or a constant.
    Math,
    /// A method or property of a receiver kind (§16.3).
    Recv(Recv),
}

/// The documentation of one name.
#[derive(Clone, Copy, Debug)]
pub struct Doc {
    /// What the name belongs to.
    pub owner: Owner,
    /// The name as written.
    pub name: &'static str,
    /// The clauses of the specification that define it, e.g. `§16.5`.
    pub clause: &'static str,
    /// One sentence on what it does and yields.
    pub text: &'static str,
}

const fn g(name: &'static str, clause: &'static str, text: &'static str) -> Doc {
    Doc {
        owner: Owner::Global,
        name,
        clause,
        text,
    }
}

const fn m(name: &'static str, text: &'static str) -> Doc {
    Doc {
        owner: Owner::Math,
        name,
        clause: "§16.2",
        text,
    }
}

const fn r(recv: Recv, name: &'static str, clause: &'static str, text: &'static str) -> Doc {
    Doc {
        owner: Owner::Recv(recv),
        name,
        clause,
        text,
    }
}

/// Every documented name.
pub const DOCS: &[Doc] = &[
    // ---- global functions (§16.1) ----
    g("log", "§16.5, §8.21", "Prints the text form of a value and a line feed on standard output."),
    g("fail", "§14.2", "Ends the program with status 1 after printing the message (and the fields, as JSON) on standard error."),
    g("close", "§12.3", "Ends the program with the given exit status, after running `on exit`."),
    g("regex", "§8.15", "Compiles a pattern (with optional flags) into a `regex` value."),
    g("exec", "§16.5", "Runs a program (args[0], searched on PATH, no shell) and yields its exit status, or -1 if it could not start."),
    g("mkdir", "§16.5", "Creates a directory; true only if it was created."),
    g("ls", "§16.5", "The names of the entries of a directory (never `.` or `..`), or an empty array."),
    g("now", "§16.5", "Milliseconds since the Unix epoch."),
    g("formatTime", "§16.5", "Formats milliseconds since the epoch with a strftime format in local time; null if the format yields nothing."),
    g("troubleshoot", "§16.5", "Prints one JSON line (timestamp, level, event, fields) on standard output."),
    g("setTimeout", "§12.4", "Calls a `void` function of no parameters once after a delay in milliseconds; yields the timer's id."),
    g("setInterval", "§12.4", "Calls a `void` function of no parameters every period in milliseconds; yields the timer's id."),
    g("clearTimeout", "§12.4", "Cancels a timer made by setTimeout."),
    g("clearInterval", "§12.4", "Cancels a timer made by setInterval."),
    g("stopAudioPlayer", "§18", "Stops every audio channel, or the one numbered."),
    g("isAudioPlayerPlaying", "§18", "True while the numbered audio channel plays."),
    g("setMaxAudioPlayers", "§18", "Sets how many audio channels may play at once."),
    g("maxAudioPlayers", "§18", "How many audio channels may play at once (10 at start)."),
    // ---- Math (§16.2) ----
    m("floor", "Rounds down to an int; null for a null, infinite or out-of-range float."),
    m("ceil", "Rounds up to an int; null for a null, infinite or out-of-range float."),
    m("round", "Rounds to the nearest int, halves away from zero; null when out of range."),
    m("trunc", "Rounds toward zero to an int; null when out of range."),
    m("floorDiv", "Integer division rounding toward negative infinity."),
    m("sqrt", "The square root."),
    m("abs", "The absolute value."),
    m("exp", "e raised to the power."),
    m("sin", "The sine (radians)."),
    m("cos", "The cosine (radians)."),
    m("tan", "The tangent (radians)."),
    m("asin", "The arc sine, in radians."),
    m("acos", "The arc cosine, in radians."),
    m("atan", "The arc tangent, in radians."),
    m("log", "The natural logarithm."),
    m("log2", "The base-2 logarithm."),
    m("log10", "The base-10 logarithm."),
    m("pow", "The first number raised to the power of the second."),
    m("min", "The smaller of two numbers."),
    m("max", "The larger of two numbers."),
    m("atan2", "The angle of the point (x, y) given as (y, x), in radians."),
    m("random", "A pseudo-random float in [0, 1) (not cryptographic)."),
    m("PI", "The constant π."),
    m("E", "The constant e."),
    // ---- int, float, bool (§16.3, §8.3) ----
    r(Recv::Int, "toFloat", "§16.3", "The int as a float."),
    r(Recv::Int, "toText", "§16.3, §8.21", "The int's text form."),
    r(Recv::Int, "toChar", "§16.3", "The UTF-8 character of a code point; null for a negative value, a surrogate or above 0x10FFFF."),
    r(Recv::Float, "toText", "§16.3, §8.21", "The float's text form (C's %g)."),
    r(Recv::Bool, "toText", "§16.3, §8.21", "`true` or `false`."),
    r(Recv::Struct, "toText", "§16.4, §8.21", "The value as compact JSON."),
    // ---- text (§16.3, §8.4) ----
    r(Recv::Text, "length", "§16.3", "The number of code points."),
    r(Recv::Text, "toText", "§16.3", "The text itself."),
    r(Recv::Text, "toInt", "§16.3", "Leading blanks, a sign and digits read as an int; null without digits or beyond 64 bits."),
    r(Recv::Text, "toAscii", "§16.3, §8.5", "The text as ascii; null unless every character is ASCII."),
    r(Recv::Text, "trim", "§16.3", "The text without leading and trailing ASCII whitespace."),
    r(Recv::Text, "charCodeAt", "§16.3", "The code point at an index, or null."),
    r(Recv::Text, "split", "§16.3", "The pieces between separators (a text or a regex); empty pieces kept."),
    r(Recv::Text, "replace", "§16.3", "The text with the first occurrence of a text (or the matches of a regex) replaced."),
    r(Recv::Text, "slice", "§16.3", "The code points in [start, end), both clamped to the length."),
    r(Recv::Text, "indexOf", "§16.3", "The code-point index of the first occurrence (from an optional start), or -1."),
    r(Recv::Text, "startsWith", "§16.3", "True when the text begins with the given text."),
    r(Recv::Text, "endsWith", "§16.3", "True when the text ends with the given text."),
    r(Recv::Text, "toUpperCase", "§16.3", "The text with ASCII letters in upper case."),
    r(Recv::Text, "toLowerCase", "§16.3", "The text with ASCII letters in lower case."),
    r(Recv::Text, "repeat", "§16.3", "The text repeated a number of times (empty for 0 or less)."),
    r(Recv::Text, "toFloat", "§16.3", "The text read as a float, or null."),
    r(Recv::Text, "toStruct", "§16.4", "Parses JSON into a struct of the given type; throws on malformed JSON or a wrong shape."),
    r(Recv::Text, "toArr", "§16.4", "Parses a JSON array into an arr of the given element type; throws on malformed JSON."),
    r(Recv::Text, "match", "§16.3, §8.15", "The first match of a regex, or null."),
    // ---- ascii (§16.3, §8.5) ----
    r(Recv::Ascii, "length", "§16.3", "The number of bytes."),
    r(Recv::Ascii, "toInt", "§16.3", "Leading blanks, a sign and digits read as an int, or null."),
    r(Recv::Ascii, "toText", "§16.3", "The ascii as text."),
    r(Recv::Ascii, "charCodeAt", "§16.3", "The byte at an index, or null."),
    r(Recv::Ascii, "slice", "§16.3", "The bytes in [start, end); negative positions count from the end."),
    // ---- arrays and maps (§16.3) ----
    r(Recv::Arr, "length", "§16.3", "The number of elements."),
    r(Recv::Arr, "push", "§16.3", "Appends an element; yields the new length."),
    r(Recv::Arr, "pop", "§16.3", "Removes and yields the last element, or null when empty."),
    r(Recv::Arr, "unshift", "§16.3", "Inserts an element at the front; yields the new length."),
    r(Recv::Arr, "shift", "§16.3", "Removes and yields the first element, or null when empty."),
    r(Recv::Arr, "splice", "§16.3", "Removes (and optionally inserts) elements at a position; yields the removed ones."),
    r(Recv::Arr, "indexOf", "§16.3", "The index of the first equal element, or -1."),
    r(Recv::Arr, "sort", "§16.3", "Sorts in place, stably, by a comparator yielding negative, zero or positive."),
    r(Recv::ArrOfScalar, "join", "§16.3", "The elements' text forms joined by a separator (null renders empty)."),
    r(Recv::Arr, "toText", "§16.4, §8.21", "The array as compact JSON."),
    r(Recv::Map, "forEach", "§16.3", "Calls a function with (value, key) for each entry of a snapshot of the map."),
    r(Recv::Map, "keys", "§16.3", "The keys, as a new array."),
    r(Recv::Map, "values", "§16.3", "The values, as a new array."),
    r(Recv::Map, "toText", "§16.4, §8.21", "The map as compact JSON."),
    // ---- regex (§8.15) ----
    r(Recv::Regex, "test", "§16.3, §8.15", "True when the regex matches somewhere in the text."),
    // ---- blob (§8.6, §16.6) ----
    r(Recv::Blob, "length", "§16.3", "The number of bytes."),
    r(Recv::Blob, "byteAt", "§16.3", "The byte at an index (0 to 255), or null out of range."),
    r(Recv::Blob, "slice", "§16.3", "The bytes in [start, end), clamped, as text."),
    r(Recv::Blob, "toText", "§16.3", "The bytes up to the first NUL, as text."),
    r(Recv::Blob, "exists", "§16.3", "True when the blob's file exists (false without a path)."),
    r(Recv::Blob, "write", "§16.3", "Replaces the bytes and the file's content; false on failure or without a path."),
    r(Recv::Blob, "append", "§16.3", "Appends to the bytes and the file; false on failure or without a path."),
    r(Recv::Blob, "delete", "§16.3", "Deletes the file, keeping the bytes."),
    r(Recv::Blob, "save", "§16.6", "Writes the bytes to the blob's own path (or adopts a given path first); true if the write landed."),
    r(Recv::Blob, "saveCopy", "§16.6", "Writes the bytes to another path, keeping the blob's own; true if the write landed."),
    // ---- aud (§18) ----
    r(Recv::Aud, "play", "§18", "Plays the clip once on a free (or the numbered) channel; yields the channel, or -1."),
    r(Recv::Aud, "playLoop", "§18", "Plays the clip in a loop on a free (or the numbered) channel; yields the channel, or -1."),
    r(Recv::Aud, "stop", "§18", "Stops every channel playing this clip."),
    r(Recv::Aud, "isPlaying", "§18", "True while the clip plays on some channel."),
    r(Recv::Aud, "save", "§16.6", "Writes the clip's bytes to its own path (or adopts a given path first); true if the write landed."),
    r(Recv::Aud, "saveCopy", "§16.6", "Writes the clip's bytes to another path, keeping its own; true if the write landed."),
    // ---- the canvas (§17.2, §17.3, §17.5) ----
    g("drawRect", "§17.3", "Draws a rectangle (x, y, width, height) in the fill and border, or in the given fill and border for this call only."),
    g("drawCircle", "§17.3", "Draws a circle (centre x, y, radius) in the fill and border, or in the given fill and border for this call only."),
    g("drawPixel", "§17.3", "Sets one pixel to the fill, or to the given color."),
    g("drawText", "§17.3", "Fills text in the current font with its baseline at y."),
    g("drawImage", "§17.3", "Draws an image at x, y, optionally scaled to a width and height, optionally from a source region; a null image draws nothing."),
    g("clearCanvas", "§17.3", "Makes the whole canvas fully transparent, ignoring the transform."),
    g("clearRect", "§17.3", "Makes a rectangle of the canvas fully transparent."),
    g("clearCircle", "§17.3", "Makes a circle of the canvas fully transparent."),
    g("clearPixel", "§17.3", "Makes one pixel of the canvas fully transparent."),
    g("saveCanvas", "§17.3", "Writes the canvas to a PNG file (false when it cannot be written), or with no path yields a copy of it as an img."),
    g("getPixelColor", "§17.3", "The color of the pixel at device coordinates, or null when it is fully transparent or outside the canvas."),
    g("blankImage", "§17.3, §8.13", "A new fully transparent image of the given width and height (1 to 32767)."),
    g("fillStyle", "§17.5", "Sets the fill to a color or to red, green and blue components (a negative one means none)."),
    g("borderColor", "§17.5", "Sets the border to a color or to red, green and blue components (a negative one means none)."),
    g("lineWidth", "§17.5", "Sets the border and stroke width in pixels (below 0 counts as 0)."),
    g("changeFont", "§17.5, §8.14", "Sets the font from a font literal or from a size in pixels, a style and a family (0 or null keeps that part)."),
    g("fillAlpha", "§17.5", "Sets the opacity of what is drawn next, clamped to [0, 1]."),
    g("fillLinearGradient", "§17.5", "Fills with a linear gradient from one point and color to another."),
    g("fillRadialGradient", "§17.5", "Fills with a radial gradient around a centre, from an inner color to an outer one at the radius."),
    g("measureTextWidth", "§17.5", "The advance width of text in the current font, in whole pixels."),
    g("measureTextHeight", "§17.5", "The inked height of text in the current font, in whole pixels."),
    g("beginPath", "§17.5", "Starts a new path."),
    g("moveTo", "§17.5", "Starts a new subpath at a point of the open path."),
    g("lineTo", "§17.5", "Adds a straight line to a point to the open path."),
    g("curveTo", "§17.5", "Adds a cubic Bezier curve (two control points, then the end point) to the open path."),
    g("closePath", "§17.5", "Closes the current subpath of the open path."),
    g("fillPath", "§17.5", "Fills the open path with the fill."),
    g("strokePath", "§17.5", "Strokes the open path with the border color and line width."),
    g("translate", "§17.5", "Moves the origin of the transform by x, y pixels."),
    g("rotate", "§17.5", "Rotates the transform by an angle in degrees."),
    g("scale", "§17.5", "Scales the transform by x and y factors (zero or non-finite factors are ignored)."),
    g("resetTransform", "§17.5", "Resets the transform to the identity."),
    g("saveState", "§17.5", "Pushes the transform and the whole style (at most 64 deep)."),
    g("restoreState", "§17.5", "Pops the transform and style pushed last by saveState."),
    g("setClientWidth", "§17.2", "Gives the canvas a new width at once, fully transparent (1 to 32767)."),
    g("setClientHeight", "§17.2", "Gives the canvas a new height at once, fully transparent (1 to 32767)."),
    g("clientWidth", "§17.2", "The width of the canvas in pixels (a read-only value)."),
    g("clientHeight", "§17.2", "The height of the canvas in pixels (a read-only value)."),
    g("render", "§17.3", "Presents the canvas in the window (transparent pixels white), opening it at the canvas size on first use."),
    g("enterFullscreen", "§17.2", "Makes the window fullscreen; before it opens, its initial state. `on resize` follows."),
    g("exitFullscreen", "§17.2", "Leaves fullscreen; before the window opens, its initial state. `on resize` follows."),
    g("showCursor", "§17.2", "Shows the mouse cursor over the window; never opens a window."),
    g("hideCursor", "§17.2", "Hides the mouse cursor over the window; never opens a window."),
    g("screenWidth", "§17.1", "The screen's width in pixels (needs a display)."),
    g("screenHeight", "§17.1", "The screen's height in pixels (needs a display)."),
    g("devicePixelRatio", "§17.1", "Device pixels per canvas pixel: 1.0 (X11 windows are not scaled)."),
    // ---- img (§8.13, §17.6) ----
    r(Recv::Img, "width", "§8.13", "The width in pixels."),
    r(Recv::Img, "height", "§8.13", "The height in pixels."),
    r(Recv::Img, "clip", "§17.6", "A new image of a region (x, y, width, height) of this one."),
    r(Recv::Img, "resize", "§17.6", "Scales the image to a new width and height in place."),
    r(Recv::Img, "getPixelColor", "§17.6", "The color of a pixel, or null when it is fully transparent or outside the image."),
    r(Recv::Img, "drawRect", "§17.6", "Draws a rectangle on the image, as drawRect does on the canvas."),
    r(Recv::Img, "drawCircle", "§17.6", "Draws a circle on the image, as drawCircle does on the canvas."),
    r(Recv::Img, "drawPixel", "§17.6", "Sets one pixel of the image, as drawPixel does on the canvas."),
    r(Recv::Img, "drawText", "§17.6", "Fills text on the image, as drawText does on the canvas."),
    r(Recv::Img, "drawImage", "§17.6", "Draws another image on this one, as drawImage does on the canvas."),
    r(Recv::Img, "clear", "§17.6", "Makes the whole image fully transparent."),
    r(Recv::Img, "clearRect", "§17.6", "Makes a rectangle of the image fully transparent."),
    r(Recv::Img, "clearCircle", "§17.6", "Makes a circle of the image fully transparent."),
    r(Recv::Img, "clearPixel", "§17.6", "Makes one pixel of the image fully transparent."),
    r(Recv::Img, "translate", "§17.6", "Moves the origin of the image's own transform."),
    r(Recv::Img, "rotate", "§17.6", "Rotates the image's own transform by an angle in degrees."),
    r(Recv::Img, "scale", "§17.6", "Scales the image's own transform."),
    r(Recv::Img, "resetTransform", "§17.6", "Resets the image's own transform to the identity."),
    r(Recv::Img, "saveState", "§17.6", "Pushes the image's own transform (at most 64 deep)."),
    r(Recv::Img, "restoreState", "§17.6", "Pops the image's transform pushed last by saveState."),
    r(Recv::Img, "save", "§16.6", "Writes the image to its own path (or adopts a given path first), its own bytes or else a PNG; true if the write landed."),
    r(Recv::Img, "saveCopy", "§16.6", "Writes the image to another path, keeping its own; true if the write landed."),
    r(Recv::Blob, "toImg", "§17.6", "The bytes decoded as a PNG or JPEG image, or null when they are neither."),
];
/// The documentation of `name` belonging to `owner`. For a method, an
/// entry of a wider receiver kind answers too (a `join` on an array of
/// scalars is documented under [`Recv::ArrOfScalar`]).
pub fn doc(owner: Owner, name: &str) -> Option<&'static Doc> {
    DOCS.iter()
        .find(|d| d.owner == owner && d.name == name)
        .or_else(|| match owner {
            Owner::Recv(Recv::Arr) => doc(Owner::Recv(Recv::ArrOfScalar), name),
            Owner::Recv(Recv::ArrOfScalar) => doc(Owner::Recv(Recv::Arr), name),
            _ => None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BUILTINS, MATH, MATH_CONSTANTS, METHODS, PROPERTIES, VALUES};

    /// Every entry of the tables is documented here; when this fails after
    /// you added a builtin, add its line to `DOCS` in this file.
    #[test]
    fn every_builtin_is_documented() {
        let mut missing = Vec::new();
        for b in BUILTINS.iter().chain(VALUES) {
            if doc(Owner::Global, b.name).is_none() {
                missing.push(format!("global {}", b.name));
            }
        }
        for b in MATH {
            if doc(Owner::Math, b.name).is_none() {
                missing.push(format!("Math.{}", b.name));
            }
        }
        for (name, _) in MATH_CONSTANTS {
            if doc(Owner::Math, name).is_none() {
                missing.push(format!("Math.{name}"));
            }
        }
        for m in METHODS {
            if doc(Owner::Recv(m.recv), m.name).is_none() {
                missing.push(format!("{:?}.{}()", m.recv, m.name));
            }
        }
        for p in PROPERTIES {
            if doc(Owner::Recv(p.recv), p.name).is_none() {
                missing.push(format!("{:?}.{}", p.recv, p.name));
            }
        }
        assert!(
            missing.is_empty(),
            "add these to DOCS in stdlib/signatures/src/docs.rs: {missing:?}"
        );
    }

    #[test]
    fn every_doc_names_an_entry_and_a_clause() {
        for d in DOCS {
            let known = match d.owner {
                Owner::Global => BUILTINS.iter().chain(VALUES).any(|b| b.name == d.name),
                Owner::Math => {
                    MATH.iter().any(|b| b.name == d.name)
                        || MATH_CONSTANTS.iter().any(|(n, _)| *n == d.name)
                }
                Owner::Recv(recv) => {
                    METHODS.iter().any(|m| m.recv == recv && m.name == d.name)
                        || PROPERTIES
                            .iter()
                            .any(|p| p.recv == recv && p.name == d.name)
                }
            };
            assert!(
                known,
                "{:?} {} documents nothing in the tables",
                d.owner, d.name
            );
            assert!(d.clause.starts_with('§'), "{} has no clause", d.name);
            assert!(d.text.ends_with('.'), "{}: one sentence", d.name);
        }
    }
}
