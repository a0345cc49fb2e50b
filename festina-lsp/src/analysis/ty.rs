//! Static types as the editor sees them (§8.1): read from the types
//! written in declarations, and from the builtin signature shapes of
//! `festina-signatures`.

use festina_compiler::syntax::{SyntaxKind, SyntaxNode};
use festina_signatures::{Recv, Shape};
use std::fmt;

/// A static type. Struct, table and enum types are known by name
/// (`Named`) and looked up in the unit's declarations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// A keyword type: `int`, `float`, `bool`, `text`, `ascii`, `blob`,
    /// `img`, `aud`, `http`, `socket`, `thread`, and `regex` (a builtin
    /// type name).
    Scalar(&'static str),
    /// `arr[T]`.
    Arr(Box<Ty>),
    /// `amor arr[T]`.
    Amor(Box<Ty>),
    /// `map[T]`.
    Map(Box<Ty>),
    /// `func[P, ...]:R`.
    Func(Vec<Ty>, Box<Ty>),
    /// A declared struct, table or enum (or an unknown name).
    Named(String),
    /// `T?` (§8.18).
    Manual(Box<Ty>),
    /// The result of a `void` function.
    Void,
    /// The type of `null` before it meets a context.
    Null,
    /// Not known here (a mistake, or a value the editor does not type).
    Unknown,
}

impl Ty {
    /// `int`, `float`, ... by name.
    pub fn scalar(name: &str) -> Ty {
        const NAMES: &[&str] = &[
            "int", "float", "bool", "text", "ascii", "blob", "img", "aud", "http", "socket",
            "thread", "regex", "color", "font", "url",
        ];
        match NAMES.iter().find(|n| **n == name) {
            Some(n) => Ty::Scalar(n),
            None => Ty::Named(name.to_string()),
        }
    }

    /// The type without any `?`.
    pub fn strip_manual(&self) -> &Ty {
        match self {
            Ty::Manual(inner) => inner.strip_manual(),
            other => other,
        }
    }

    /// The element type of an array or map, the type a `[...]` reads.
    pub fn element(&self) -> Ty {
        match self.strip_manual() {
            Ty::Arr(t) | Ty::Amor(t) | Ty::Map(t) => (**t).clone(),
            Ty::Scalar("text") => Ty::Scalar("text"),
            Ty::Scalar("ascii") => Ty::Scalar("ascii"),
            Ty::Scalar("blob") => Ty::Scalar("int"),
            _ => Ty::Unknown,
        }
    }

    /// The receiver kinds of the method tables that apply to this type
    /// (`arr[int]` is both an array and an array of scalars).
    pub fn receivers(&self, is_record: impl Fn(&str) -> bool) -> Vec<Recv> {
        match self.strip_manual() {
            Ty::Scalar(name) => match *name {
                "int" => vec![Recv::Int],
                "float" => vec![Recv::Float],
                "bool" => vec![Recv::Bool],
                "text" => vec![Recv::Text],
                "ascii" => vec![Recv::Ascii],
                "regex" => vec![Recv::Regex],
                "blob" => vec![Recv::Blob],
                "img" => vec![Recv::Img],
                "aud" => vec![Recv::Aud],
                "http" => vec![Recv::Http],
                "socket" => vec![Recv::Socket],
                "url" => vec![Recv::Url],
                _ => vec![],
            },
            Ty::Arr(t) | Ty::Amor(t) => {
                let scalar = matches!(
                    t.strip_manual(),
                    Ty::Scalar("int" | "float" | "bool" | "text" | "ascii")
                );
                if scalar {
                    vec![Recv::Arr, Recv::ArrOfScalar]
                } else {
                    vec![Recv::Arr]
                }
            }
            Ty::Map(_) => vec![Recv::Map],
            Ty::Named(name) if is_record(name) => vec![Recv::Struct],
            _ => vec![],
        }
    }

    /// The type a builtin's shape stands for, for a receiver of type
    /// `recv` (for receiver-relative shapes) and a type argument `arg`.
    pub fn of_shape(shape: Shape, recv: &Ty, arg: &Ty) -> Ty {
        let elem = || recv.element();
        match shape {
            Shape::Int => Ty::Scalar("int"),
            Shape::Float => Ty::Scalar("float"),
            Shape::Bool => Ty::Scalar("bool"),
            Shape::Text | Shape::Rendered => Ty::Scalar("text"),
            Shape::Ascii => Ty::Scalar("ascii"),
            Shape::Regex => Ty::Scalar("regex"),
            Shape::Blob => Ty::Scalar("blob"),
            Shape::MapText => Ty::Map(Box::new(Ty::Scalar("text"))),
            Shape::ArrText => Ty::Arr(Box::new(Ty::Scalar("text"))),
            Shape::Void => Ty::Void,
            Shape::TimerCallback => Ty::Func(vec![], Box::new(Ty::Void)),
            Shape::Elem => elem(),
            Shape::Recv => recv.clone(),
            Shape::ArrOfElem => Ty::Arr(Box::new(elem())),
            Shape::Comparator => Ty::Func(vec![elem(), elem()], Box::new(Ty::Scalar("int"))),
            Shape::ForEachFn => Ty::Func(vec![elem(), Ty::Scalar("text")], Box::new(Ty::Void)),
            Shape::TypeArg | Shape::StructTypeArg => Ty::Unknown,
            Shape::OfTypeArg => arg.clone(),
            Shape::ArrOfTypeArg => Ty::Arr(Box::new(arg.clone())),
            Shape::Color => Ty::Scalar("color"),
            Shape::Font => Ty::Scalar("font"),
            Shape::Img => Ty::Scalar("img"),
            Shape::ImgSource => Ty::Manual(Box::new(Ty::Scalar("img"))),
            Shape::Aud => Ty::Scalar("aud"),
            Shape::Http => Ty::Scalar("http"),
            Shape::Socket => Ty::Scalar("socket"),
            Shape::Url => Ty::Scalar("url"),
            Shape::HttpCallback => Ty::Func(vec![Ty::Scalar("http")], Box::new(Ty::Void)),
        }
    }

    /// The type written by the type node `node` (`NAMED_TYPE`, `ARR_TYPE`,
    /// `MAP_TYPE`, `FUNC_TYPE`, `MANUAL_TYPE`).
    pub fn from_syntax(node: &SyntaxNode) -> Ty {
        use SyntaxKind::*;
        let inner = |n: &SyntaxNode| n.children().find(|c| is_type_node(c.kind()));
        match node.kind() {
            NAMED_TYPE => node
                .children_with_tokens()
                .filter_map(|e| e.into_token())
                .find(|t| !t.kind().is_trivia() && t.kind() != NEWLINE)
                .map_or(Ty::Unknown, |t| Ty::scalar(t.text())),
            ARR_TYPE => {
                let elem = inner(node).map_or(Ty::Unknown, |n| Ty::from_syntax(&n));
                let amor = node
                    .children_with_tokens()
                    .any(|e| e.kind() == SyntaxKind::AMOR_KW);
                if amor {
                    Ty::Amor(Box::new(elem))
                } else {
                    Ty::Arr(Box::new(elem))
                }
            }
            MAP_TYPE => Ty::Map(Box::new(
                inner(node).map_or(Ty::Unknown, |n| Ty::from_syntax(&n)),
            )),
            FUNC_TYPE => {
                // Parameter types inside `[ ]`, the result after `:`.
                let mut params = Vec::new();
                let mut ret = Ty::Void;
                let mut after_colon = false;
                for e in node.children_with_tokens() {
                    match e {
                        rowan::NodeOrToken::Token(t) if t.kind() == COLON => after_colon = true,
                        rowan::NodeOrToken::Node(n) if is_type_node(n.kind()) => {
                            if after_colon {
                                ret = Ty::from_syntax(&n);
                            } else {
                                params.push(Ty::from_syntax(&n));
                            }
                        }
                        _ => {}
                    }
                }
                Ty::Func(params, Box::new(ret))
            }
            MANUAL_TYPE => Ty::Manual(Box::new(
                inner(node).map_or(Ty::Unknown, |n| Ty::from_syntax(&n)),
            )),
            _ => Ty::Unknown,
        }
    }
}

/// True for the kinds of type nodes.
pub fn is_type_node(kind: SyntaxKind) -> bool {
    use SyntaxKind::*;
    matches!(
        kind,
        NAMED_TYPE | ARR_TYPE | MAP_TYPE | FUNC_TYPE | MANUAL_TYPE
    )
}

impl fmt::Display for Ty {
    /// The type as it is written in Festina (`arr[int]`, `func[int]:text`);
    /// `?` for an unknown type.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Scalar(name) => f.write_str(name),
            Ty::Arr(t) => write!(f, "arr[{t}]"),
            Ty::Amor(t) => write!(f, "amor arr[{t}]"),
            Ty::Map(t) => write!(f, "map[{t}]"),
            Ty::Func(params, ret) => {
                f.write_str("func[")?;
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{p}")?;
                }
                write!(f, "]:{ret}")
            }
            Ty::Named(name) => f.write_str(name),
            Ty::Manual(t) => write!(f, "{t}?"),
            Ty::Void => f.write_str("void"),
            Ty::Null => f.write_str("null"),
            Ty::Unknown => f.write_str("?"),
        }
    }
}

/// A builtin shape as written in a signature (`T` for the receiver's
/// element type).
pub fn shape_text(shape: Shape) -> &'static str {
    match shape {
        Shape::Int => "int",
        Shape::Float => "float",
        Shape::Bool => "bool",
        Shape::Text => "text",
        Shape::Ascii => "ascii",
        Shape::Regex => "regex",
        Shape::Blob => "blob",
        Shape::Rendered => "any",
        Shape::MapText => "map[text]",
        Shape::ArrText => "arr[text]",
        Shape::Void => "void",
        Shape::TimerCallback => "func[]:void",
        Shape::Elem => "T",
        Shape::Recv => "Self",
        Shape::ArrOfElem => "arr[T]",
        Shape::Comparator => "func[T, T]:int",
        Shape::ForEachFn => "func[T, text]:void",
        Shape::TypeArg => "type",
        Shape::StructTypeArg => "struct type",
        Shape::OfTypeArg => "T",
        Shape::ArrOfTypeArg => "arr[T]",
        Shape::Color => "color",
        Shape::Font => "font",
        Shape::Img => "img",
        Shape::ImgSource => "img?",
        Shape::Aud => "aud",
        Shape::Http => "http",
        Shape::Socket => "socket",
        Shape::Url => "url",
        Shape::HttpCallback => "func[http]:void",
    }
}

/// A receiver kind as written in a signature.
pub fn recv_text(recv: Recv) -> &'static str {
    match recv {
        Recv::Int => "int",
        Recv::Float => "float",
        Recv::Bool => "bool",
        Recv::Text => "text",
        Recv::Ascii => "ascii",
        Recv::Arr | Recv::ArrOfScalar => "arr[T]",
        Recv::Map => "map[T]",
        Recv::Struct => "struct",
        Recv::Regex => "regex",
        Recv::Blob => "blob",
        Recv::Img => "img",
        Recv::Aud => "aud",
        Recv::Http => "http",
        Recv::Socket => "socket",
        Recv::Url => "url",
    }
}
