//! Expression views (§9).

use super::Token;
use super::{ast_enum, ast_node, child, child_after, child_before, children, token};
use super::{find_element, token_kind_where, token_where, Pick};
use super::{ParamList, TypeRef};
use crate::syntax::{binary_precedence, SyntaxKind, SyntaxKind::*};

ast_enum! {
    /// Any expression (§9).
    Expr {
        /// A number, string, `true`, `false` or `null`.
        Literal(Literal),
        /// A template literal.
        Template(Template),
        /// A regex literal.
        Regex(Regex),
        /// A name (or `log`/`fail`/`sqlite`).
        NameRef(NameRef),
        /// `( e )`
        Paren(Paren),
        /// `[a, b]`
        ArrayLit(ArrayLit),
        /// `{k: v}`
        MapLit(MapLit),
        /// `Type (params) => e`
        Arrow(Arrow),
        /// `e.name`
        Field(Field),
        /// `e[i]`
        Index(Index),
        /// `f(args)`
        Call(Call),
        /// `e++`, `e--`
        Postfix(Postfix),
        /// `-e`, `+e`, `!e`, `typeof e`
        Prefix(Prefix),
        /// `a op b`
        Binary(Binary),
        /// `c ? a : b`
        Ternary(Ternary),
        /// `target = value`
        Assign(Assign),
    }
}

/// The first direct child token of `node` that is not trivia or a line
/// feed.
fn first_token(node: &super::Node) -> Option<Token> {
    token_where(node, |k| !k.is_trivia() && k != NEWLINE)
}

/// What kind of value a [`Literal`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LiteralKind {
    /// `123` (§7.5.1)
    Int,
    /// `1.5` (§7.5.1)
    Float,
    /// `'text'` or `"text"` (§7.5.2)
    String,
    /// `true`
    True,
    /// `false`
    False,
    /// `null` (§7.5.4)
    Null,
}

ast_node!(
    /// A numeric, string, boolean or `null` literal (§7.5).
    Literal,
    LITERAL
);

impl Literal {
    /// The literal token.
    pub fn token(&self) -> Option<Token> {
        first_token(&self.0)
    }
    /// Which kind of literal this is (`Null` if the tree is malformed).
    pub fn kind(&self) -> LiteralKind {
        match token_kind_where(&self.0, |k| !k.is_trivia() && k != NEWLINE) {
            Some(INT_NUMBER) => LiteralKind::Int,
            Some(FLOAT_NUMBER) => LiteralKind::Float,
            Some(STRING) => LiteralKind::String,
            Some(TRUE_KW) => LiteralKind::True,
            Some(FALSE_KW) => LiteralKind::False,
            _ => LiteralKind::Null,
        }
    }
}

ast_node!(
    /// `` `text ${expr} text` `` (§7.5.3).
    Template,
    TEMPLATE
);

/// One piece of a template literal.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TemplatePart {
    /// A `TEMPLATE_CHUNK` token: raw source text, escapes undecoded (see
    /// [`super::unescape_template_chunk`]).
    Chunk(Token),
    /// The expression of a `${ }` substitution.
    Subst(Expr),
}

impl Template {
    /// The chunks and substitutions in source order (a substitution whose
    /// expression failed to parse is skipped).
    pub fn parts(&self) -> Vec<TemplatePart> {
        let tree = &self.0.tree;
        tree.children(self.0.index)
            .filter_map(|i| {
                let e = &tree.elems[i as usize];
                match e.kind {
                    TEMPLATE_CHUNK if e.is_token() => {
                        Some(TemplatePart::Chunk(Token(self.0.at(i))))
                    }
                    TEMPLATE_SUBST if !e.is_token() => {
                        child::<Expr>(&self.0.at(i)).map(TemplatePart::Subst)
                    }
                    _ => None,
                }
            })
            .collect()
    }
}

ast_node!(
    /// `/pattern/flags` (§7.5.5).
    Regex,
    REGEX_LIT
);

impl Regex {
    /// The `REGEX` token.
    pub fn token(&self) -> Option<Token> {
        token(&self.0, REGEX)
    }
    /// The pattern between the slashes, as written.
    pub fn pattern(&self) -> String {
        self.split().0
    }
    /// The letters after the closing slash (validated by the checker).
    pub fn flags(&self) -> String {
        self.split().1
    }
    fn split(&self) -> (String, String) {
        let Some(token) = self.token() else {
            return (String::new(), String::new());
        };
        let body = token.text().strip_prefix('/').unwrap_or(token.text());
        let flags_len = body
            .bytes()
            .rev()
            .take_while(u8::is_ascii_alphabetic)
            .count();
        let without_flags = &body[..body.len() - flags_len];
        match without_flags.strip_suffix('/') {
            Some(pattern) => (
                pattern.to_string(),
                body[body.len() - flags_len..].to_string(),
            ),
            None => (body.to_string(), String::new()),
        }
    }
}

ast_node!(
    /// A name used as a value (§9.1.1); also the `log`, `fail` and
    /// `sqlite` keywords in expression position (§16.1).
    NameRef,
    NAME_REF
);

impl NameRef {
    /// The `IDENT` (or `LOG_KW`/`FAIL_KW`/`SQLITE_KW`) token.
    pub fn token(&self) -> Option<Token> {
        first_token(&self.0)
    }
    /// The name's text.
    pub fn text(&self) -> String {
        self.token()
            .map(|t| t.text().to_string())
            .unwrap_or_default()
    }
}

ast_node!(
    /// `( expr )`.
    Paren,
    PAREN_EXPR
);

impl Paren {
    /// The inner expression.
    pub fn expr(&self) -> Option<Expr> {
        child(&self.0)
    }
}

ast_node!(
    /// `[ e, ... ]` (§9.1.2).
    ArrayLit,
    ARRAY_LIT
);

impl ArrayLit {
    /// The elements in order.
    pub fn elements(&self) -> impl Iterator<Item = Expr> {
        children(&self.0)
    }
}

ast_node!(
    /// `{ key: value, name }` (§9.1.3); also struct and `http` literals,
    /// which the checker tells apart by context (§8.9.4, §9.1.4).
    MapLit,
    MAP_LIT
);

impl MapLit {
    /// The entries in order.
    pub fn entries(&self) -> impl Iterator<Item = MapEntry> {
        children(&self.0)
    }
}

ast_node!(
    /// `key: value` or the shorthand `name` (meaning `'name': name`).
    MapEntry,
    MAP_ENTRY
);

impl MapEntry {
    /// The key expression (`None` for a shorthand entry).
    pub fn key(&self) -> Option<Expr> {
        token(&self.0, COLON)?;
        child_before(&self.0, COLON)
    }
    /// The value expression (`None` for a shorthand entry).
    pub fn value(&self) -> Option<Expr> {
        child_after(&self.0, COLON)
    }
    /// The `IDENT` of a shorthand entry `{name}`.
    pub fn shorthand(&self) -> Option<Token> {
        token(&self.0, IDENT)
    }
}

ast_node!(
    /// `Type (params) => body` or `void (params) => body` (§9.1.5).
    Arrow,
    ARROW_FUNC
);

impl Arrow {
    /// The return type; `None` for `void`.
    pub fn ret_type(&self) -> Option<TypeRef> {
        child(&self.0)
    }
    /// The `void` keyword of an arrow that returns nothing.
    pub fn void_token(&self) -> Option<Token> {
        token(&self.0, VOID_KW)
    }
    /// The parameters.
    pub fn param_list(&self) -> Option<ParamList> {
        child(&self.0)
    }
    /// The body expression after `=>`.
    pub fn body(&self) -> Option<Expr> {
        child_after(&self.0, FAT_ARROW)
    }
}

ast_node!(
    /// `receiver.name` (§9.2).
    Field,
    FIELD_EXPR
);

impl Field {
    /// The expression before the dot.
    pub fn receiver(&self) -> Option<Expr> {
        child(&self.0)
    }
    /// The member name: an `IDENT` or a reserved-word token (§7.4).
    pub fn name(&self) -> Option<Token> {
        let mut seen_dot = false;
        find_element(&self.0, |k, is_token| {
            if !is_token {
                Pick::Skip
            } else if !seen_dot {
                seen_dot = k == DOT;
                Pick::Skip
            } else if k == IDENT || k.is_keyword() {
                Pick::Take
            } else {
                Pick::Skip
            }
        })
        .map(|i| Token(self.0.at(i)))
    }
}

ast_node!(
    /// `base[index]` (§9.3).
    Index,
    INDEX_EXPR
);

impl Index {
    /// The indexed expression.
    pub fn base(&self) -> Option<Expr> {
        child_before(&self.0, L_BRACK)
    }
    /// The index expression.
    pub fn index(&self) -> Option<Expr> {
        child_after(&self.0, L_BRACK)
    }
}

ast_node!(
    /// `callee(args)` (§9.4).
    Call,
    CALL_EXPR
);

impl Call {
    /// The called expression (a name, a field access for methods, ...).
    pub fn callee(&self) -> Option<Expr> {
        child(&self.0)
    }
    /// The argument list.
    pub fn arg_list(&self) -> Option<ArgList> {
        child(&self.0)
    }
}

ast_node!(
    /// `( arg, ... )` of a call.
    ArgList,
    ARG_LIST
);

impl ArgList {
    /// The value arguments in order. A type argument (see
    /// [`ArgList::items`]) is not an expression and is skipped here.
    pub fn args(&self) -> impl Iterator<Item = Expr> {
        children(&self.0)
    }
    /// Every argument in order, including type arguments such as the
    /// `arr[int]` of `s.toArr(arr[int])` (§9.4, §16.4).
    pub fn items(&self) -> impl Iterator<Item = Arg> {
        super::children::<super::Node>(&self.0).filter_map(|node| {
            match TypeArg::cast(node.clone()) {
                Some(ty) => Some(Arg::Type(ty)),
                None => Expr::cast(node).map(Arg::Value),
            }
        })
    }
}

/// One argument of a call: a value, or a type for the builtins that take
/// one (`text.toStruct(T)`, `text.toArr(T)`, §9.4).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Arg {
    /// An ordinary value argument.
    Value(Expr),
    /// A keyword or composite type written as an argument. A bare
    /// identifier (`toStruct(User)`) is a [`NameRef`] value instead.
    Type(TypeArg),
}

ast_node!(
    /// `operand++` or `operand--` (§9.5).
    Postfix,
    POSTFIX_EXPR
);

impl Postfix {
    /// The incremented or decremented expression.
    pub fn operand(&self) -> Option<Expr> {
        child(&self.0)
    }
    /// The `++` or `--` token.
    pub fn op_token(&self) -> Option<Token> {
        token_where(&self.0, |k| matches!(k, PLUS2 | MINUS2))
    }
    /// `PLUS2` or `MINUS2`.
    pub fn op_kind(&self) -> Option<SyntaxKind> {
        token_kind_where(&self.0, |k| matches!(k, PLUS2 | MINUS2))
    }
}

ast_node!(
    /// `-x`, `+x`, `!x`, `typeof x` (§9.6).
    Prefix,
    PREFIX_EXPR
);

impl Prefix {
    /// The operator token.
    pub fn op_token(&self) -> Option<Token> {
        first_token(&self.0)
    }
    /// `MINUS`, `PLUS`, `BANG` or `TYPEOF_KW`.
    pub fn op_kind(&self) -> Option<SyntaxKind> {
        token_kind_where(&self.0, |k| !k.is_trivia() && k != NEWLINE)
    }
    /// The operand.
    pub fn operand(&self) -> Option<Expr> {
        child(&self.0)
    }
}

ast_node!(
    /// `lhs op rhs` for `* / % + - < > <= >= == != === !== && ||`
    /// (§9.7-§9.9).
    Binary,
    BIN_EXPR
);

impl Binary {
    /// The operator token.
    pub fn op_token(&self) -> Option<Token> {
        token_where(&self.0, |k| binary_precedence(k).is_some())
    }
    /// The operator kind, e.g. `PLUS` or `EQ3` (rejected by the checker).
    pub fn op_kind(&self) -> Option<SyntaxKind> {
        token_kind_where(&self.0, |k| binary_precedence(k).is_some())
    }
    /// The left operand.
    pub fn lhs(&self) -> Option<Expr> {
        let op = self.op_kind()?;
        child_before(&self.0, op)
    }
    /// The right operand.
    pub fn rhs(&self) -> Option<Expr> {
        let op = self.op_kind()?;
        child_after(&self.0, op)
    }
}

ast_node!(
    /// `condition ? then : else` (§9.10).
    Ternary,
    TERNARY_EXPR
);

impl Ternary {
    /// The condition before `?`.
    pub fn condition(&self) -> Option<Expr> {
        child_before(&self.0, QUESTION)
    }
    /// The branch between `?` and `:`.
    pub fn then_expr(&self) -> Option<Expr> {
        let colon = token(&self.0, COLON).map(|t| t.text_range().start());
        child_after::<Expr>(&self.0, QUESTION)
            .filter(|e| colon.is_none_or(|c| e.syntax().text_range().start() < c))
    }
    /// The branch after `:`.
    pub fn else_expr(&self) -> Option<Expr> {
        child_after(&self.0, COLON)
    }
}

ast_node!(
    /// `target = value` (§9.11).
    Assign,
    ASSIGN_EXPR
);

impl Assign {
    /// The assigned place.
    pub fn target(&self) -> Option<Expr> {
        child_before(&self.0, EQ)
    }
    /// The assigned value.
    pub fn value(&self) -> Option<Expr> {
        child_after(&self.0, EQ)
    }
}

ast_node!(
    /// A type written as a call argument, e.g. `text.toArr(arr[int])`
    /// (§9.4, §16.4); identifiers in that position are plain
    /// [`NameRef`]s. Not an [`Expr`]: see [`ArgList::items`].
    TypeArg,
    TYPE_ARG
);

impl TypeArg {
    /// The written type.
    pub fn ty(&self) -> Option<TypeRef> {
        child(&self.0)
    }
}

/// Alias of [`Regex`] (node kind `REGEX_LIT`).
pub type RegexLit = Regex;
/// Alias of [`Paren`] (node kind `PAREN_EXPR`).
pub type ParenExpr = Paren;
/// Alias of [`Arrow`] (node kind `ARROW_FUNC`).
pub type ArrowFunc = Arrow;
/// Alias of [`Field`] (node kind `FIELD_EXPR`).
pub type FieldExpr = Field;
/// Alias of [`Index`] (node kind `INDEX_EXPR`).
pub type IndexExpr = Index;
/// Alias of [`Call`] (node kind `CALL_EXPR`).
pub type CallExpr = Call;
/// Alias of [`Postfix`] (node kind `POSTFIX_EXPR`).
pub type PostfixExpr = Postfix;
/// Alias of [`Prefix`] (node kind `PREFIX_EXPR`).
pub type PrefixExpr = Prefix;
/// Alias of [`Binary`] (node kind `BIN_EXPR`).
pub type BinExpr = Binary;
/// Alias of [`Ternary`] (node kind `TERNARY_EXPR`).
pub type TernaryExpr = Ternary;
/// Alias of [`Assign`] (node kind `ASSIGN_EXPR`).
pub type AssignExpr = Assign;
