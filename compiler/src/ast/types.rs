//! Type views (§8.1, §8.18).

use super::Token;
use super::{ast_enum, ast_node, child, children, token};
use crate::syntax::SyntaxKind::*;

ast_enum! {
    /// Any written type (§8.1).
    TypeRef {
        /// `int`, `text`, `User`, ...
        Named(NamedType),
        /// `[amor] arr[T]`
        Arr(ArrType),
        /// `map[T]`
        Map(MapType),
        /// `func[T, ...]:R`
        Func(FuncType),
        /// `T?`
        Manual(ManualType),
    }
}

ast_node!(
    /// A keyword type (`INT_KW`, `TEXT_KW`, ...) or an `IDENT` naming a
    /// struct, table or enum, or one of the non-reserved type names
    /// `regex`, `color`, `font`, `url` (§8.1).
    NamedType,
    NAMED_TYPE
);

impl NamedType {
    /// The keyword or identifier token.
    pub fn token(&self) -> Option<Token> {
        super::token_where(&self.0, |k| k == IDENT || k.is_keyword())
    }
    /// The type's spelling, e.g. `"int"` or `"User"`.
    pub fn name(&self) -> String {
        self.token()
            .map(|t| t.text().to_string())
            .unwrap_or_default()
    }
}

ast_node!(
    /// `arr[T]` or `amor arr[T]` (§8.7).
    ArrType,
    ARR_TYPE
);

impl ArrType {
    /// True for `amor arr[T]`.
    pub fn is_amor(&self) -> bool {
        token(&self.0, AMOR_KW).is_some()
    }
    /// The element type.
    pub fn elem(&self) -> Option<TypeRef> {
        child(&self.0)
    }
}

ast_node!(
    /// `map[T]` (§8.8).
    MapType,
    MAP_TYPE
);

impl MapType {
    /// The value type.
    pub fn elem(&self) -> Option<TypeRef> {
        child(&self.0)
    }
    /// The (invalid, already reported) `amor` before `map`.
    pub fn amor_token(&self) -> Option<Token> {
        token(&self.0, AMOR_KW)
    }
}

ast_node!(
    /// `func[T, ...]:R` (§8.12).
    FuncType,
    FUNC_TYPE
);

impl FuncType {
    /// The parameter types (inside the brackets).
    pub fn params(&self) -> impl Iterator<Item = TypeRef> {
        let colon = token(&self.0, COLON).map(|t| t.text_range().start());
        children::<TypeRef>(&self.0)
            .filter(move |ty| colon.is_none_or(|c| ty.syntax().text_range().start() < c))
    }
    /// The return type; `None` for `void` (or when missing).
    pub fn ret(&self) -> Option<TypeRef> {
        let colon = token(&self.0, COLON)?.text_range().start();
        children::<TypeRef>(&self.0).find(|ty| ty.syntax().text_range().start() > colon)
    }
    /// The `void` return annotation.
    pub fn void_token(&self) -> Option<Token> {
        token(&self.0, VOID_KW)
    }
}

ast_node!(
    /// `T?`, a manually managed type (§8.18).
    ManualType,
    MANUAL_TYPE
);

impl ManualType {
    /// The type before `?`.
    pub fn inner(&self) -> Option<TypeRef> {
        child(&self.0)
    }
}
