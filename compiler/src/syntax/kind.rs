//! The [`SyntaxKind`] enumeration: every token and node kind of the tree.

/// Declares [`SyntaxKind`] together with the table used to convert a raw
/// `u16` back into a kind without `unsafe`.
macro_rules! syntax_kinds {
    ($($(#[$meta:meta])* $name:ident,)*) => {
        /// Every kind of token and node in a Festina syntax tree.
        ///
        /// Token kinds come first (trivia, literals, punctuation, the
        /// reserved words of §7.4), then node kinds. `ERROR` is used both
        /// for a bad-character token and for an error-recovery node.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u16)]
        pub enum SyntaxKind {
            $($(#[$meta])* $name,)*
        }

        impl SyntaxKind {
            /// Every kind, indexed by its `u16` discriminant.
            pub const ALL: &'static [SyntaxKind] = &[$(SyntaxKind::$name,)*];
        }
    };
}

syntax_kinds! {
    // ---- trivia (§7.1, §7.2) ----
    /// Spaces, tabs and carriage returns.
    WHITESPACE,
    /// A line feed (optionally preceded by `\r`); ends a statement (§7.1).
    NEWLINE,
    /// A `//` line comment or a `/* */` block comment (§7.2).
    COMMENT,
    /// A bad character (token) or an error-recovery node wrapping tokens.
    ERROR,
    // ---- literals and names (§7.3, §7.5) ----
    /// An identifier (§7.3), including contextual words like `default`.
    IDENT,
    /// An integer literal `123` (§7.5.1).
    INT_NUMBER,
    /// A float literal `1.5` (§7.5.1).
    FLOAT_NUMBER,
    /// A quoted string literal, quotes included (§7.5.2).
    STRING,
    /// A regular-expression literal `/pattern/flags` (§7.5.5).
    REGEX,
    /// The backtick opening or closing a template literal (§7.5.3).
    BACKTICK,
    /// Raw source text between template delimiters (§7.5.3).
    TEMPLATE_CHUNK,
    /// `${`, opening a template substitution (§7.5.3).
    DOLLAR_L_CURLY,
    /// The bare path after `import` (§6.2).
    IMPORT_PATH,
    // ---- punctuation (§7.6) ----
    /// `{`
    L_CURLY,
    /// `}`
    R_CURLY,
    /// `(`
    L_PAREN,
    /// `)`
    R_PAREN,
    /// `[`
    L_BRACK,
    /// `]`
    R_BRACK,
    /// `.`
    DOT,
    /// `,`
    COMMA,
    /// `:`
    COLON,
    /// `;`
    SEMICOLON,
    /// `?`
    QUESTION,
    /// `=`
    EQ,
    /// `=>`
    FAT_ARROW,
    /// `+`
    PLUS,
    /// `-`
    MINUS,
    /// `*`
    STAR,
    /// `/`
    SLASH,
    /// `%`
    PERCENT,
    /// `++`
    PLUS2,
    /// `--`
    MINUS2,
    /// `==`
    EQ2,
    /// `!=`
    NEQ,
    /// `===` (recognised only so the checker can reject it, §9.8)
    EQ3,
    /// `!==` (recognised only so the checker can reject it, §9.8)
    NEQ2,
    /// `<`
    LT,
    /// `>`
    GT,
    /// `<=`
    LTEQ,
    /// `>=`
    GTEQ,
    /// `!`
    BANG,
    /// `&&`
    AMP2,
    /// `||`
    PIPE2,
    /// `&` (bitwise and, on `int`)
    AMP,
    /// `|` (bitwise or, on `int`)
    PIPE,
    /// `^` (bitwise exclusive or, on `int`)
    CARET,
    /// `~` (bitwise not, on `int`)
    TILDE,
    /// `<<` (left shift, on `int`)
    SHL,
    /// `>>` (arithmetic right shift, on `int`)
    SHR,
    // ---- reserved words (§7.4) ----
    /// `amor`
    AMOR_KW,
    /// `arr`
    ARR_KW,
    /// `ascii`
    ASCII_KW,
    /// `aud`
    AUD_KW,
    /// `blob`
    BLOB_KW,
    /// `bool`
    BOOL_KW,
    /// `break`
    BREAK_KW,
    /// `catch`
    CATCH_KW,
    /// `clear`
    CLEAR_KW,
    /// `const`
    CONST_KW,
    /// `continue`
    CONTINUE_KW,
    /// `delete`
    DELETE_KW,
    /// `else`
    ELSE_KW,
    /// `enum`
    ENUM_KW,
    /// `fail`
    FAIL_KW,
    /// `false`
    FALSE_KW,
    /// `float`
    FLOAT_KW,
    /// `for`
    FOR_KW,
    /// `free`
    FREE_KW,
    /// `func`
    FUNC_KW,
    /// `http`
    HTTP_KW,
    /// `if`
    IF_KW,
    /// `img`
    IMG_KW,
    /// `import`
    IMPORT_KW,
    /// `int`
    INT_KW,
    /// `let` (reserved, never valid)
    LET_KW,
    /// `log`
    LOG_KW,
    /// `map`
    MAP_KW,
    /// `match`
    MATCH_KW,
    /// `null`
    NULL_KW,
    /// `on`
    ON_KW,
    /// `return`
    RETURN_KW,
    /// `socket`
    SOCKET_KW,
    /// `sqlite`
    SQLITE_KW,
    /// `struct`
    STRUCT_KW,
    /// `table`
    TABLE_KW,
    /// `text`
    TEXT_KW,
    /// `thread`
    THREAD_KW,
    /// `throw`
    THROW_KW,
    /// `true`
    TRUE_KW,
    /// `try`
    TRY_KW,
    /// `typeof`
    TYPEOF_KW,
    /// `var` (reserved, never valid)
    VAR_KW,
    /// `void`
    VOID_KW,
    /// `while`
    WHILE_KW,
    /// End of input; never stored in a tree.
    EOF,
    // ---- nodes: file and statements (§10, §11) ----
    /// The root node of a file.
    SOURCE_FILE,
    /// `{ statements }` (§10.1)
    BLOCK,
    /// `[const] Type name [= expr]` (§10.2)
    VAR_DECL,
    /// An expression used as a statement (§10.3)
    EXPR_STMT,
    /// `if cond { } [else ...]` (§10.4)
    IF_STMT,
    /// `while cond { }` (§10.5)
    WHILE_STMT,
    /// `for decl, cond, update { }` (§10.6)
    FOR_STMT,
    /// `match subject { arms }` (§10.9)
    MATCH_STMT,
    /// `'Tag' { }` or `default { }` inside a match (§10.9)
    MATCH_ARM,
    /// `try { } catch (e:text) { }` (§10.10)
    TRY_STMT,
    /// `throw expr` (§10.10)
    THROW_STMT,
    /// `return [expr]` (§10.8)
    RETURN_STMT,
    /// `break` (§10.7)
    BREAK_STMT,
    /// `continue` (§10.7)
    CONTINUE_STMT,
    /// `free expr` (§10.11)
    FREE_STMT,
    /// `clear expr` (§10.11)
    CLEAR_STMT,
    /// `delete expr` (§10.11)
    DELETE_STMT,
    /// `import path` (§6.2)
    IMPORT_DECL,
    /// `(Type | void) func name(params) { }` (§11.1)
    FUNC_DECL,
    /// `( param, ... )`
    PARAM_LIST,
    /// `name:Type`
    PARAM,
    /// `struct Name { fields }` (§8.9)
    STRUCT_DECL,
    /// `table Name { fields }` (§8.10)
    TABLE_DECL,
    /// `name:Type` inside a struct or table
    FIELD_DECL,
    /// `enum Name = T, U` (§8.11)
    ENUM_DECL,
    /// `on event(params) { }` / `on request use pool` (§11.5)
    ON_DECL,
    /// `thread name[n] { }` (§11.6)
    THREAD_DECL,
    /// `test name = 'description'`: a group of assertions (the
    /// reference's §11.7, after edition 0.44); `test` is contextual.
    TEST_DECL,
    /// `blob|img|aud expr` statement (§10.3)
    LOAD_STMT,
    /// `http { ... }` statement (§10.3)
    HTTP_STMT,
    // ---- nodes: types (§8.1) ----
    /// A keyword type or an identifier naming a declared type.
    NAMED_TYPE,
    /// `[amor] arr[T]`
    ARR_TYPE,
    /// `map[T]`
    MAP_TYPE,
    /// `func[T, ...]:R`
    FUNC_TYPE,
    /// `T?` (§8.18)
    MANUAL_TYPE,
    // ---- nodes: expressions (§9) ----
    /// A number, string, `true`, `false` or `null`.
    LITERAL,
    /// A template literal (§7.5.3)
    TEMPLATE,
    /// `${ expr }` inside a template
    TEMPLATE_SUBST,
    /// A regex literal (§7.5.5)
    REGEX_LIT,
    /// A name used as a value (also `log`, `fail`, `sqlite`).
    NAME_REF,
    /// `( expr )`
    PAREN_EXPR,
    /// `[ a, b ]` (§9.1.2)
    ARRAY_LIT,
    /// `{ k: v, name }` (§9.1.3)
    MAP_LIT,
    /// One `key: value` or shorthand `name` entry of a map literal.
    MAP_ENTRY,
    /// `Type (params) => expr` (§9.1.5)
    ARROW_FUNC,
    /// `expr.name` (§9.2)
    FIELD_EXPR,
    /// `expr[index]` (§9.3)
    INDEX_EXPR,
    /// `callee(args)` (§9.4)
    CALL_EXPR,
    /// `( arg, ... )` of a call
    ARG_LIST,
    /// `expr++` / `expr--` (§9.5)
    POSTFIX_EXPR,
    /// `-x`, `+x`, `!x`, `typeof x` (§9.6)
    PREFIX_EXPR,
    /// `lhs op rhs` (§9.7-§9.9)
    BIN_EXPR,
    /// `c ? a : b` (§9.10)
    TERNARY_EXPR,
    /// `target = value` (§9.11)
    ASSIGN_EXPR,
    /// A type written where an expression is expected, e.g. the argument
    /// of `text.toArr(arr[int])` (§9.4).
    TYPE_ARG,
}

impl SyntaxKind {
    /// Converts a raw discriminant back to a kind; out-of-range values map
    /// to [`SyntaxKind::ERROR`].
    pub fn from_raw(raw: u16) -> SyntaxKind {
        Self::ALL
            .get(usize::from(raw))
            .copied()
            .unwrap_or(SyntaxKind::ERROR)
    }

    /// Whitespace and comments: tokens the parser never looks at.
    /// `NEWLINE` is not trivia: it terminates statements (§7.1).
    pub fn is_trivia(self) -> bool {
        matches!(self, SyntaxKind::WHITESPACE | SyntaxKind::COMMENT)
    }

    /// True for the reserved words of §7.4.
    pub fn is_keyword(self) -> bool {
        (self as u16) >= (SyntaxKind::AMOR_KW as u16)
            && (self as u16) <= (SyntaxKind::WHILE_KW as u16)
    }

    /// The keyword kind spelled `text`, if `text` is a reserved word (§7.4).
    pub fn from_keyword(text: &str) -> Option<SyntaxKind> {
        use SyntaxKind::*;
        let kind = match text {
            "amor" => AMOR_KW,
            "arr" => ARR_KW,
            "ascii" => ASCII_KW,
            "aud" => AUD_KW,
            "blob" => BLOB_KW,
            "bool" => BOOL_KW,
            "break" => BREAK_KW,
            "catch" => CATCH_KW,
            "clear" => CLEAR_KW,
            "const" => CONST_KW,
            "continue" => CONTINUE_KW,
            "delete" => DELETE_KW,
            "else" => ELSE_KW,
            "enum" => ENUM_KW,
            "fail" => FAIL_KW,
            "false" => FALSE_KW,
            "float" => FLOAT_KW,
            "for" => FOR_KW,
            "free" => FREE_KW,
            "func" => FUNC_KW,
            "http" => HTTP_KW,
            "if" => IF_KW,
            "img" => IMG_KW,
            "import" => IMPORT_KW,
            "int" => INT_KW,
            "let" => LET_KW,
            "log" => LOG_KW,
            "map" => MAP_KW,
            "match" => MATCH_KW,
            "null" => NULL_KW,
            "on" => ON_KW,
            "return" => RETURN_KW,
            "socket" => SOCKET_KW,
            "sqlite" => SQLITE_KW,
            "struct" => STRUCT_KW,
            "table" => TABLE_KW,
            "text" => TEXT_KW,
            "thread" => THREAD_KW,
            "throw" => THROW_KW,
            "true" => TRUE_KW,
            "try" => TRY_KW,
            "typeof" => TYPEOF_KW,
            "var" => VAR_KW,
            "void" => VOID_KW,
            "while" => WHILE_KW,
            _ => return None,
        };
        Some(kind)
    }

    /// Keywords that name a built-in scalar or handle type (§8.1):
    /// `int float bool text ascii blob img aud http socket thread`.
    pub fn is_type_keyword(self) -> bool {
        use SyntaxKind::*;
        matches!(
            self,
            INT_KW
                | FLOAT_KW
                | BOOL_KW
                | TEXT_KW
                | ASCII_KW
                | BLOB_KW
                | IMG_KW
                | AUD_KW
                | HTTP_KW
                | SOCKET_KW
                | THREAD_KW
        )
    }

    /// Binary operators of §9.7-§9.9.
    pub fn is_binary_op(self) -> bool {
        binary_precedence(self).is_some()
    }

    /// True for node kinds (everything after [`SyntaxKind::EOF`]).
    pub fn is_node(self) -> bool {
        (self as u16) > (SyntaxKind::EOF as u16)
    }
}

/// Binding power of a binary operator (higher binds tighter, §9.13):
/// `||` 1, `&&` 2, equality 3, relational 4, `|` 5, `^` 6, `&` 7, shifts
/// 8, additive 9, multiplicative 10. The bitwise operators (the
/// reference's addition after edition 0.44) bind tighter than the
/// comparisons, so `flags & MASK == 0` is `(flags & MASK) == 0`, and the
/// shifts looser than `+`, so `1 << 4 + 1` is `1 << 5`.
pub fn binary_precedence(kind: SyntaxKind) -> Option<u8> {
    use SyntaxKind::*;
    let prec = match kind {
        PIPE2 => 1,
        AMP2 => 2,
        EQ2 | NEQ | EQ3 | NEQ2 => 3,
        LT | GT | LTEQ | GTEQ => 4,
        PIPE => 5,
        CARET => 6,
        AMP => 7,
        SHL | SHR => 8,
        PLUS | MINUS => 9,
        STAR | SLASH | PERCENT => 10,
        _ => return None,
    };
    Some(prec)
}
