//! Signatures of the global builtin functions (§16.1).

/// The shape of a builtin parameter or result, as the checker sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `int`.
    Int,
    /// `float`.
    Float,
    /// `bool`.
    Bool,
    /// `text`.
    Text,
    /// Any value with a text form (§8.21); the checker renders it with
    /// `ToText` before the call, so the native receives `text`.
    Rendered,
    /// `map[text]`.
    MapText,
    /// `arr[text]`.
    ArrText,
    /// No result.
    Void,
}

/// A global builtin function (one arity; alternative arities are separate
/// entries with the same `name`).
#[derive(Clone, Copy, Debug)]
pub struct Builtin {
    /// Name as written in Festina.
    pub name: &'static str,
    /// Parameter shapes.
    pub params: &'static [Shape],
    /// Result shape.
    pub ret: Shape,
    /// Name of the native function implementing it.
    pub native: &'static str,
}

/// Every global builtin implemented so far. Names listed in
/// [`RESERVED_GLOBALS`] but absent here are reserved (cannot be
/// redeclared) yet not callable in this build.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "log",
        params: &[Shape::Rendered],
        ret: Shape::Void,
        native: "log",
    },
    Builtin {
        name: "fail",
        params: &[Shape::Rendered, Shape::MapText],
        ret: Shape::Void,
        native: "fail_fields",
    },
    Builtin {
        name: "close",
        params: &[Shape::Int],
        ret: Shape::Void,
        native: "close",
    },
];

/// Every global name of §16.1/§16.2 (Annex B) that a user declaration may
/// not reuse (§6.7).
pub const RESERVED_GLOBALS: &[&str] = &[
    "log",
    "fail",
    "troubleshoot",
    "close",
    "exec",
    "sqlite",
    "mkdir",
    "ls",
    "now",
    "formatTime",
    "setTimeout",
    "setInterval",
    "clearTimeout",
    "clearInterval",
    "regex",
    "parseURL",
    "drawRect",
    "drawCircle",
    "drawPixel",
    "drawText",
    "drawImage",
    "clearCanvas",
    "clearRect",
    "clearCircle",
    "clearPixel",
    "render",
    "saveCanvas",
    "blankImage",
    "getPixelColor",
    "fillStyle",
    "borderColor",
    "lineWidth",
    "changeFont",
    "fillAlpha",
    "fillLinearGradient",
    "fillRadialGradient",
    "measureTextWidth",
    "measureTextHeight",
    "beginPath",
    "moveTo",
    "lineTo",
    "curveTo",
    "closePath",
    "fillPath",
    "strokePath",
    "translate",
    "rotate",
    "scale",
    "resetTransform",
    "saveState",
    "restoreState",
    "setClientWidth",
    "setClientHeight",
    "enterFullscreen",
    "exitFullscreen",
    "showCursor",
    "hideCursor",
    "setMaxAudioPlayers",
    "maxAudioPlayers",
    "stopAudioPlayer",
    "isAudioPlayerPlaying",
    "openPort",
    "closePort",
    "openSecurePort",
    "postMessage",
    "Math",
    "environment",
    "argv",
    "clientWidth",
    "clientHeight",
    "screenWidth",
    "screenHeight",
    "devicePixelRatio",
];
