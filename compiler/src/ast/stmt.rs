//! Statement and declaration views (§10, §11).

use super::Token;
use super::{ast_enum, ast_node, child, child_after, child_before, children, token};
use super::{Expr, TypeRef};
use crate::syntax::SyntaxKind::*;

ast_enum! {
    /// Any statement or declaration (§10, §11).
    Stmt {
        /// `Type name = e` (§10.2)
        VarDecl(VarDecl),
        /// An expression statement (§10.3)
        ExprStmt(ExprStmt),
        /// `if` (§10.4)
        IfStmt(IfStmt),
        /// `while` (§10.5)
        WhileStmt(WhileStmt),
        /// `for` (§10.6)
        ForStmt(ForStmt),
        /// `match` (§10.9)
        MatchStmt(MatchStmt),
        /// `try`/`catch` (§10.10)
        TryStmt(TryStmt),
        /// `throw` (§10.10)
        ThrowStmt(ThrowStmt),
        /// `return` (§10.8)
        ReturnStmt(ReturnStmt),
        /// `break` (§10.7)
        BreakStmt(BreakStmt),
        /// `continue` (§10.7)
        ContinueStmt(ContinueStmt),
        /// `free` (§10.11)
        FreeStmt(FreeStmt),
        /// `clear` (§10.11)
        ClearStmt(ClearStmt),
        /// `delete` (§10.11)
        DeleteStmt(DeleteStmt),
        /// `import` (§6.2)
        ImportDecl(ImportDecl),
        /// A nested block (§10.1)
        Block(Block),
        /// A function (§11.1)
        FuncDecl(FuncDecl),
        /// A struct (§8.9)
        StructDecl(StructDecl),
        /// A table (§8.10)
        TableDecl(TableDecl),
        /// An enum (§8.11)
        EnumDecl(EnumDecl),
        /// An event handler (§11.5)
        OnDecl(OnDecl),
        /// A thread (§11.6)
        ThreadDecl(ThreadDecl),
        /// `blob|img|aud expr` (§10.3)
        LoadStmt(LoadStmt),
        /// `http { ... }` (§10.3)
        HttpStmt(HttpStmt),
        /// `test name = 'description'` (the reference's §11.7)
        TestDecl(TestDecl),
    }
}

ast_node!(
    /// `{ statements }` (§10.1).
    Block,
    BLOCK
);

impl Block {
    /// The statements inside the braces.
    pub fn statements(&self) -> impl Iterator<Item = Stmt> {
        children(&self.0)
    }
}

ast_node!(
    /// `[const] Type name [= init]` (§10.2), e.g. `const int x = 1`,
    /// `User? u = f()`, `amor arr[int] xs = []`.
    VarDecl,
    VAR_DECL
);

impl VarDecl {
    /// True for a `const` declaration.
    pub fn is_const(&self) -> bool {
        self.const_token().is_some()
    }
    /// The `const` keyword, if any.
    pub fn const_token(&self) -> Option<Token> {
        token(&self.0, CONST_KW)
    }
    /// The declared type (including a trailing `?`).
    pub fn ty(&self) -> Option<TypeRef> {
        child(&self.0)
    }
    /// The variable name.
    pub fn name(&self) -> Option<Token> {
        token(&self.0, IDENT)
    }
    /// The initializer after `=`.
    pub fn init(&self) -> Option<Expr> {
        child_after(&self.0, EQ)
    }
}

/// Declares a statement view whose only part is one expression.
macro_rules! expr_stmt_view {
    ($(#[$meta:meta])* $name:ident, $kind:ident) => {
        ast_node!($(#[$meta])* $name, $kind);

        impl $name {
            /// The operand expression.
            pub fn expr(&self) -> Option<Expr> {
                child(&self.0)
            }
        }
    };
}

expr_stmt_view!(
    /// An expression evaluated for effect (§10.3).
    ExprStmt,
    EXPR_STMT
);
expr_stmt_view!(
    /// `throw expr` (§10.10).
    ThrowStmt,
    THROW_STMT
);
expr_stmt_view!(
    /// `free expr` (§10.11); the checker validates the operand's shape.
    FreeStmt,
    FREE_STMT
);
expr_stmt_view!(
    /// `clear expr` (§10.11); the checker validates the operand's shape.
    ClearStmt,
    CLEAR_STMT
);
expr_stmt_view!(
    /// `delete expr` (§10.11); the checker validates the operand's shape.
    DeleteStmt,
    DELETE_STMT
);
expr_stmt_view!(
    /// `http { ... }`: builds and sends an anonymous request (§10.3, §19.5).
    HttpStmt,
    HTTP_STMT
);

impl HttpStmt {
    /// The `http` keyword.
    pub fn http_token(&self) -> Option<Token> {
        token(&self.0, HTTP_KW)
    }
}

expr_stmt_view!(
    /// `blob|img|aud expr`: an anonymous background load (§10.3, §12.5).
    LoadStmt,
    LOAD_STMT
);

impl LoadStmt {
    /// The leading `blob`, `img` or `aud` keyword.
    pub fn kind_token(&self) -> Option<Token> {
        super::token_where(&self.0, |k| matches!(k, BLOB_KW | IMG_KW | AUD_KW))
    }
}

ast_node!(
    /// `return [expr]` (§10.8).
    ReturnStmt,
    RETURN_STMT
);

impl ReturnStmt {
    /// The returned value, if any.
    pub fn expr(&self) -> Option<Expr> {
        child(&self.0)
    }
    /// The `return` keyword (for error locations).
    pub fn return_token(&self) -> Option<Token> {
        token(&self.0, RETURN_KW)
    }
}

ast_node!(
    /// `break` (§10.7).
    BreakStmt,
    BREAK_STMT
);
ast_node!(
    /// `continue` (§10.7).
    ContinueStmt,
    CONTINUE_STMT
);

ast_node!(
    /// `if cond { } [else (if ... | { })]` (§10.4).
    IfStmt,
    IF_STMT
);

/// What follows `else` (§10.4).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ElseBranch {
    /// `else { }`
    Block(Block),
    /// `else if ...`
    If(IfStmt),
}

impl IfStmt {
    /// The condition (parentheses, if written, are a `Paren` expression).
    pub fn condition(&self) -> Option<Expr> {
        child(&self.0)
    }
    /// The block run when the condition holds.
    pub fn then_branch(&self) -> Option<Block> {
        child_before(&self.0, ELSE_KW)
    }
    /// The `else` block or chained `if`.
    pub fn else_branch(&self) -> Option<ElseBranch> {
        let mut seen_else = false;
        let node = super::find_element(&self.0, |k, is_token| {
            if !seen_else {
                seen_else = k == ELSE_KW;
                super::Pick::Skip
            } else if !is_token && matches!(k, BLOCK | IF_STMT) {
                super::Pick::Take
            } else {
                super::Pick::Skip
            }
        })?;
        let node = self.0.at(node);
        match node.kind() {
            BLOCK => Some(ElseBranch::Block(Block(node))),
            IF_STMT => Some(ElseBranch::If(IfStmt(node))),
            _ => None,
        }
    }
    /// The `else` keyword, if any.
    pub fn else_token(&self) -> Option<Token> {
        token(&self.0, ELSE_KW)
    }
}

ast_node!(
    /// `while cond { }` (§10.5).
    WhileStmt,
    WHILE_STMT
);

impl WhileStmt {
    /// The loop condition.
    pub fn condition(&self) -> Option<Expr> {
        child(&self.0)
    }
    /// The loop body.
    pub fn body(&self) -> Option<Block> {
        child(&self.0)
    }
}

ast_node!(
    /// `for Type i = 0, cond, update { }` (§10.6).
    ForStmt,
    FOR_STMT
);

impl ForStmt {
    /// The loop variable declaration.
    pub fn init(&self) -> Option<VarDecl> {
        child(&self.0)
    }
    /// The condition (second clause).
    pub fn condition(&self) -> Option<Expr> {
        self.clauses().next()
    }
    /// The update (third clause).
    pub fn update(&self) -> Option<Expr> {
        self.clauses().nth(1)
    }
    /// The loop body.
    pub fn body(&self) -> Option<Block> {
        child(&self.0)
    }
    fn clauses(&self) -> impl Iterator<Item = Expr> {
        children(&self.0)
    }
}

ast_node!(
    /// `match subject { 'Tag' { } ... default { } }` (§10.9).
    MatchStmt,
    MATCH_STMT
);

impl MatchStmt {
    /// The matched expression (the checker restricts its shape).
    pub fn subject(&self) -> Option<Expr> {
        child(&self.0)
    }
    /// The arms in source order.
    pub fn arms(&self) -> impl Iterator<Item = MatchArm> {
        children(&self.0)
    }
}

ast_node!(
    /// One arm of a `match`: a string tag or `default`, then a block.
    MatchArm,
    MATCH_ARM
);

impl MatchArm {
    /// The `STRING` token of a tagged arm (quotes included; see
    /// [`super::unescape_string`]).
    pub fn tag(&self) -> Option<Token> {
        token(&self.0, STRING)
    }
    /// True for the `default` arm.
    pub fn is_default(&self) -> bool {
        self.default_token().is_some()
    }
    /// The contextual `default` word (an `IDENT` token).
    pub fn default_token(&self) -> Option<Token> {
        token(&self.0, IDENT).filter(|t| t.text() == "default")
    }
    /// The arm body.
    pub fn body(&self) -> Option<Block> {
        child(&self.0)
    }
}

ast_node!(
    /// `try { } catch (e:text) { }` (§10.10).
    TryStmt,
    TRY_STMT
);

impl TryStmt {
    /// The guarded block.
    pub fn body(&self) -> Option<Block> {
        child_before(&self.0, CATCH_KW)
    }
    /// The caught error's name.
    pub fn catch_name(&self) -> Option<Token> {
        token(&self.0, IDENT)
    }
    /// The caught error's annotated type (must be `text`).
    pub fn catch_type(&self) -> Option<TypeRef> {
        child(&self.0)
    }
    /// The handler block.
    pub fn catch_body(&self) -> Option<Block> {
        child_after(&self.0, CATCH_KW)
    }
    /// The `catch` keyword, if present.
    pub fn catch_token(&self) -> Option<Token> {
        token(&self.0, CATCH_KW)
    }
}

ast_node!(
    /// `import path` (§6.2).
    ImportDecl,
    IMPORT_DECL
);

impl ImportDecl {
    /// The `IMPORT_PATH` token.
    pub fn path_token(&self) -> Option<Token> {
        token(&self.0, IMPORT_PATH)
    }
    /// The bare path, e.g. `ui/graphics.f` or `../x.f` (surrounding quotes,
    /// if someone wrote them, are removed).
    pub fn path(&self) -> Option<String> {
        let token = self.path_token()?;
        let text = token.text();
        let unquoted = ['\'', '"']
            .iter()
            .find_map(|&q| text.strip_prefix(q).and_then(|t| t.strip_suffix(q)))
            .unwrap_or(text);
        Some(unquoted.to_string())
    }
}

ast_node!(
    /// `(Type | void) func name(params) { }` (§11.1).
    FuncDecl,
    FUNC_DECL
);

impl FuncDecl {
    /// The return type; `None` for `void` (see [`FuncDecl::void_token`]).
    pub fn ret_type(&self) -> Option<TypeRef> {
        child(&self.0)
    }
    /// The `void` keyword of a function that returns nothing.
    pub fn void_token(&self) -> Option<Token> {
        token(&self.0, VOID_KW)
    }
    /// The function name.
    pub fn name(&self) -> Option<Token> {
        token(&self.0, IDENT)
    }
    /// The parameters.
    pub fn param_list(&self) -> Option<ParamList> {
        child(&self.0)
    }
    /// The body.
    pub fn body(&self) -> Option<Block> {
        child(&self.0)
    }
}

ast_node!(
    /// `( name:Type, ... )` of a function, arrow or handler.
    ParamList,
    PARAM_LIST
);

impl ParamList {
    /// The parameters in order.
    pub fn params(&self) -> impl Iterator<Item = Param> {
        children(&self.0)
    }
}

ast_node!(
    /// `name:DeclaredType` (§11.1.1).
    Param,
    PARAM
);

impl Param {
    /// The parameter name.
    pub fn name(&self) -> Option<Token> {
        token(&self.0, IDENT)
    }
    /// The parameter type (may be `T?`).
    pub fn ty(&self) -> Option<TypeRef> {
        child(&self.0)
    }
}

/// Declares a struct/table view with `name()` and `fields()`.
macro_rules! record_view {
    ($(#[$meta:meta])* $name:ident, $kind:ident) => {
        ast_node!($(#[$meta])* $name, $kind);

        impl $name {
            /// The declared type name.
            pub fn name(&self) -> Option<Token> {
                token(&self.0, IDENT)
            }
            /// The fields in declaration order.
            pub fn fields(&self) -> impl Iterator<Item = FieldDecl> {
                children(&self.0)
            }
        }
    };
}

record_view!(
    /// `struct Name { field:Type ... }` (§8.9.1).
    StructDecl,
    STRUCT_DECL
);
record_view!(
    /// `table Name { column:Type ... }` (§8.10).
    TableDecl,
    TABLE_DECL
);

ast_node!(
    /// `name:Type` inside a struct or table.
    FieldDecl,
    FIELD_DECL
);

impl FieldDecl {
    /// The field name.
    pub fn name(&self) -> Option<Token> {
        token(&self.0, IDENT)
    }
    /// The contextual `weak` of `parent:weak Node` (a second identifier
    /// token of the field, after the `:`).
    pub fn weak_token(&self) -> Option<Token> {
        second_ident(&self.0)
    }
    /// The field type.
    pub fn ty(&self) -> Option<TypeRef> {
        child(&self.0)
    }
}

ast_node!(
    /// `enum Name = T, U, ...` (§8.11).
    EnumDecl,
    ENUM_DECL
);

impl EnumDecl {
    /// The enum name.
    pub fn name(&self) -> Option<Token> {
        token(&self.0, IDENT)
    }
    /// The member types in order.
    pub fn members(&self) -> impl Iterator<Item = TypeRef> {
        children(&self.0)
    }
}

ast_node!(
    /// `on event(params) { }` or `on request use pool` (§11.5, §20.9).
    OnDecl,
    ON_DECL
);

impl OnDecl {
    /// The event name.
    pub fn name(&self) -> Option<Token> {
        self.idents().next()
    }
    /// The handler parameters.
    pub fn param_list(&self) -> Option<ParamList> {
        child(&self.0)
    }
    /// The handler body.
    pub fn body(&self) -> Option<Block> {
        child(&self.0)
    }
    /// The contextual `use` word of `on request use pool`.
    pub fn use_token(&self) -> Option<Token> {
        self.idents().nth(1).filter(|t| t.text() == "use")
    }
    /// The pool named by `on request use pool`.
    pub fn use_target(&self) -> Option<Token> {
        self.use_token()?;
        self.idents().nth(2)
    }
    fn idents(&self) -> impl Iterator<Item = Token> {
        let node = self.0.clone();
        let tree = node.tree.clone();
        tree.children(node.index)
            .filter(|&i| tree.elems[i as usize].is_token() && tree.elems[i as usize].kind == IDENT)
            .map(|i| Token(node.at(i)))
            .collect::<Vec<_>>()
            .into_iter()
    }
}

ast_node!(
    /// `thread name { }`, `thread name[4] { }`, `thread name[] { }` (§11.6).
    ThreadDecl,
    THREAD_DECL
);

impl ThreadDecl {
    /// The thread (or pool) name.
    pub fn name(&self) -> Option<Token> {
        token(&self.0, IDENT)
    }
    /// The `INT_NUMBER` pool size of `thread w[4]`.
    pub fn pool_size(&self) -> Option<Token> {
        token(&self.0, INT_NUMBER)
    }
    /// True for a pool (`[n]` or `[]` after the name, §20.6).
    pub fn is_pool(&self) -> bool {
        token(&self.0, L_BRACK).is_some()
    }
    /// The thread body.
    pub fn body(&self) -> Option<Block> {
        child(&self.0)
    }
}

ast_node!(
    /// `test name = description` (the reference's §11.7): declares a
    /// group of assertions; `test` is a contextual word.
    TestDecl,
    TEST_DECL
);

impl TestDecl {
    /// The group's name (the second identifier; the first is `test`).
    pub fn name(&self) -> Option<Token> {
        second_ident(&self.0)
    }
    /// The description after `=`.
    pub fn description(&self) -> Option<Expr> {
        child_after(&self.0, EQ)
    }
}

/// The second identifier token directly inside `node`.
fn second_ident(node: &super::Node) -> Option<Token> {
    let tree = node.tree.clone();
    let index = tree
        .children(node.index)
        .filter(|&i| tree.elems[i as usize].is_token() && tree.elems[i as usize].kind == IDENT)
        .nth(1)?;
    Some(Token(node.at(index)))
}
