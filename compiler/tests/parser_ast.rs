//! Typed AST accessors over parsed snippets.

use festina_compiler::ast::*;
use festina_compiler::parsing::parse;
use festina_compiler::syntax::SyntaxKind;

fn stmts(text: &str) -> Vec<Stmt> {
    let parse = parse(text);
    assert!(parse.errors.is_empty(), "{text:?}: {:?}", parse.errors);
    parse.source_file().statements().collect()
}

fn one(text: &str) -> Stmt {
    let mut all = stmts(text);
    assert_eq!(all.len(), 1, "{text:?}");
    all.remove(0)
}

fn expr_of(text: &str) -> Expr {
    match one(text) {
        Stmt::ExprStmt(s) => s.expr().expect("expression"),
        Stmt::VarDecl(v) => v.init().expect("initializer"),
        other => panic!("unexpected {other:?}"),
    }
}

fn type_name(ty: Option<TypeRef>) -> String {
    match ty {
        Some(TypeRef::Named(n)) => n.name(),
        Some(TypeRef::Arr(a)) => format!(
            "{}arr[{}]",
            if a.is_amor() { "amor " } else { "" },
            type_name(a.elem())
        ),
        Some(TypeRef::Map(m)) => format!("map[{}]", type_name(m.elem())),
        Some(TypeRef::Manual(m)) => format!("{}?", type_name(m.inner())),
        Some(TypeRef::Func(f)) => {
            let params: Vec<String> = f.params().map(|p| type_name(Some(p))).collect();
            let ret = match f.ret() {
                Some(r) => type_name(Some(r)),
                None if f.void_token().is_some() => "void".into(),
                None => "?".into(),
            };
            format!("func[{}]:{}", params.join(","), ret)
        }
        None => "<none>".into(),
    }
}

#[test]
fn var_decls() {
    let Stmt::VarDecl(v) = one("const int x = 1") else {
        panic!()
    };
    assert!(v.is_const());
    assert_eq!(type_name(v.ty()), "int");
    assert_eq!(v.name().unwrap().text(), "x");
    assert!(matches!(v.init(), Some(Expr::Literal(_))));

    let Stmt::VarDecl(v) = one("User? u = find()") else {
        panic!()
    };
    assert!(!v.is_const());
    assert_eq!(type_name(v.ty()), "User?");
    assert!(matches!(v.init(), Some(Expr::Call(_))));

    let Stmt::VarDecl(v) = one("amor arr[int] xs = []") else {
        panic!()
    };
    assert_eq!(type_name(v.ty()), "amor arr[int]");
    let Stmt::VarDecl(v) = one("func[int, arr[text]]:void f") else {
        panic!()
    };
    assert_eq!(type_name(v.ty()), "func[int,arr[text]]:void");
    assert!(v.init().is_none());
    let Stmt::VarDecl(v) = one("map[func[]:bool?] m") else {
        panic!()
    };
    assert_eq!(type_name(v.ty()), "map[func[]:bool?]");
    let Stmt::VarDecl(v) = one("regex r = /a/g") else {
        panic!()
    };
    let Some(TypeRef::Named(n)) = v.ty() else {
        panic!()
    };
    assert_eq!(n.token().unwrap().kind(), SyntaxKind::IDENT);
}

#[test]
fn functions_and_params() {
    let Stmt::FuncDecl(f) = one("int func add(a:int, b:User?) { return a }") else {
        panic!()
    };
    assert_eq!(type_name(f.ret_type()), "int");
    assert!(f.void_token().is_none());
    assert_eq!(f.name().unwrap().text(), "add");
    let params: Vec<_> = f.param_list().unwrap().params().collect();
    assert_eq!(params.len(), 2);
    assert_eq!(params[1].name().unwrap().text(), "b");
    assert_eq!(type_name(params[1].ty()), "User?");
    let body: Vec<_> = f.body().unwrap().statements().collect();
    let Stmt::ReturnStmt(r) = &body[0] else {
        panic!()
    };
    assert!(r.expr().is_some());
    assert!(r.return_token().is_some());

    let Stmt::FuncDecl(f) = one("void func f() { return }") else {
        panic!()
    };
    assert!(f.ret_type().is_none());
    assert!(f.void_token().is_some());
}

#[test]
fn control_flow() {
    let Stmt::IfStmt(i) = one("if a { } else if b { } else { x++ }") else {
        panic!()
    };
    assert!(i.condition().is_some());
    assert!(i.then_branch().is_some());
    let Some(ElseBranch::If(inner)) = i.else_branch() else {
        panic!()
    };
    let Some(ElseBranch::Block(b)) = inner.else_branch() else {
        panic!()
    };
    assert_eq!(b.statements().count(), 1);

    let Stmt::ForStmt(f) = one("for int i = 0, i < n, i++ { }") else {
        panic!()
    };
    assert_eq!(f.init().unwrap().name().unwrap().text(), "i");
    assert!(matches!(f.condition(), Some(Expr::Binary(_))));
    assert!(matches!(f.update(), Some(Expr::Postfix(_))));
    assert!(f.body().is_some());

    let Stmt::WhileStmt(w) = one("while x < 3 { break; continue }") else {
        panic!()
    };
    assert!(w.condition().is_some());
    let body: Vec<_> = w.body().unwrap().statements().collect();
    assert!(matches!(body[0], Stmt::BreakStmt(_)));
    assert!(matches!(body[1], Stmt::ContinueStmt(_)));

    let Stmt::MatchStmt(m) = one("match s.shape {\n 'Circle' { }\n default { }\n}") else {
        panic!()
    };
    assert!(matches!(m.subject(), Some(Expr::Field(_))));
    let arms: Vec<_> = m.arms().collect();
    assert_eq!(arms[0].tag().unwrap().text(), "'Circle'");
    assert!(!arms[0].is_default());
    assert!(arms[1].is_default() && arms[1].default_token().is_some());
    assert!(arms[1].body().is_some());

    let Stmt::TryStmt(t) = one("try { f() } catch (e:text) { log(e) }") else {
        panic!()
    };
    assert!(t.body().is_some());
    assert_eq!(t.catch_name().unwrap().text(), "e");
    assert_eq!(type_name(t.catch_type()), "text");
    assert_eq!(t.catch_body().unwrap().statements().count(), 1);
}

#[test]
fn declarations() {
    let Stmt::StructDecl(s) = one("struct Point { x:int  y:int }") else {
        panic!()
    };
    assert_eq!(s.name().unwrap().text(), "Point");
    let fields: Vec<_> = s.fields().collect();
    assert_eq!(fields.len(), 2);
    assert_eq!(fields[1].name().unwrap().text(), "y");
    assert_eq!(type_name(fields[1].ty()), "int");

    let Stmt::TableDecl(t) = one("table T {\n a:text\n b:float\n}") else {
        panic!()
    };
    assert_eq!(t.fields().count(), 2);

    let Stmt::EnumDecl(e) = one("enum Shape = Circle, Square, int") else {
        panic!()
    };
    assert_eq!(e.name().unwrap().text(), "Shape");
    let members: Vec<String> = e.members().map(|m| type_name(Some(m))).collect();
    assert_eq!(members, ["Circle", "Square", "int"]);

    let Stmt::OnDecl(o) = one("on request(req:http) { }") else {
        panic!()
    };
    assert_eq!(o.name().unwrap().text(), "request");
    assert_eq!(o.param_list().unwrap().params().count(), 1);
    assert!(o.body().is_some() && o.use_target().is_none());
    let Stmt::OnDecl(o) = one("on request use workers") else {
        panic!()
    };
    assert_eq!(o.use_target().unwrap().text(), "workers");

    let Stmt::ThreadDecl(t) = one("thread w[4] { int n = 0 }") else {
        panic!()
    };
    assert_eq!(t.name().unwrap().text(), "w");
    assert_eq!(t.pool_size().unwrap().text(), "4");
    assert!(t.is_pool());
    assert_eq!(t.body().unwrap().statements().count(), 1);
    let Stmt::ThreadDecl(t) = one("thread w[] { }") else {
        panic!()
    };
    assert!(t.is_pool() && t.pool_size().is_none());
    let Stmt::ThreadDecl(t) = one("thread w { }") else {
        panic!()
    };
    assert!(!t.is_pool());

    let Stmt::ImportDecl(i) = one("import ../ui/graphics.f") else {
        panic!()
    };
    assert_eq!(i.path().unwrap(), "../ui/graphics.f");
}

#[test]
fn special_statements() {
    let Stmt::LoadStmt(l) = one("blob 'x.txt'.callback(f)") else {
        panic!()
    };
    assert_eq!(l.kind_token().unwrap().kind(), SyntaxKind::BLOB_KW);
    assert!(matches!(l.expr(), Some(Expr::Call(_))));
    let Stmt::HttpStmt(h) = one("http {'url': u}") else {
        panic!()
    };
    assert!(matches!(h.expr(), Some(Expr::MapLit(_))));
    assert!(matches!(one("free x"), Stmt::FreeStmt(f) if f.expr().is_some()));
    assert!(matches!(one("clear x"), Stmt::ClearStmt(f) if f.expr().is_some()));
    assert!(
        matches!(one("delete m['k']"), Stmt::DeleteStmt(d) if matches!(d.expr(), Some(Expr::Index(_))))
    );
    assert!(matches!(one("throw 'x'"), Stmt::ThrowStmt(t) if t.expr().is_some()));
    assert!(matches!(one("{ }"), Stmt::Block(_)));
    let Stmt::ExprStmt(e) = one("DatabaseURL = 'a.db'") else {
        panic!()
    };
    assert!(matches!(e.expr(), Some(Expr::Assign(_))));
}

#[test]
fn expressions() {
    let Expr::Binary(b) = expr_of("a + b * c") else {
        panic!()
    };
    assert_eq!(b.op_kind(), Some(SyntaxKind::PLUS));
    assert!(matches!(b.lhs(), Some(Expr::NameRef(_))));
    let Some(Expr::Binary(r)) = b.rhs() else {
        panic!()
    };
    assert_eq!(r.op_kind(), Some(SyntaxKind::STAR));

    let Expr::Binary(b) = expr_of("a === b") else {
        panic!()
    };
    assert_eq!(b.op_kind(), Some(SyntaxKind::EQ3));

    let Expr::Assign(a) = expr_of("x = y = 1") else {
        panic!()
    };
    assert!(matches!(a.target(), Some(Expr::NameRef(_))));
    assert!(matches!(a.value(), Some(Expr::Assign(_))));

    let Expr::Ternary(t) = expr_of("int v = c ? 1 : d ? 2 : 3") else {
        panic!()
    };
    assert!(t.condition().is_some() && t.then_expr().is_some());
    assert!(matches!(t.else_expr(), Some(Expr::Ternary(_))));

    let Expr::Prefix(p) = expr_of("bool v = !typeof x") else {
        panic!()
    };
    assert_eq!(p.op_kind(), Some(SyntaxKind::BANG));
    let Some(Expr::Prefix(inner)) = p.operand() else {
        panic!()
    };
    assert_eq!(inner.op_kind(), Some(SyntaxKind::TYPEOF_KW));

    let Expr::Call(c) = expr_of("obj.items[0].delete(1, 2)") else {
        panic!()
    };
    assert_eq!(c.arg_list().unwrap().args().count(), 2);
    let Some(Expr::Field(f)) = c.callee() else {
        panic!()
    };
    assert_eq!(f.name().unwrap().kind(), SyntaxKind::DELETE_KW);
    let Some(Expr::Index(i)) = f.receiver() else {
        panic!()
    };
    assert!(matches!(i.base(), Some(Expr::Field(_))));
    assert!(matches!(i.index(), Some(Expr::Literal(_))));

    let Expr::Call(c) = expr_of("log(1)") else {
        panic!()
    };
    let Some(Expr::NameRef(n)) = c.callee() else {
        panic!()
    };
    assert_eq!(n.token().unwrap().kind(), SyntaxKind::LOG_KW);

    let Expr::Paren(p) = expr_of("int v = (1)") else {
        panic!()
    };
    assert!(p.expr().is_some());
}

#[test]
fn literals() {
    let kinds: Vec<LiteralKind> = ["1", "1.5", "'s'", "true", "false", "null"]
        .iter()
        .map(|t| match expr_of(&format!("x = {t}")) {
            Expr::Assign(a) => match a.value() {
                Some(Expr::Literal(l)) => l.kind(),
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        })
        .collect();
    use LiteralKind::*;
    assert_eq!(kinds, [Int, Float, String, True, False, Null]);

    let Expr::Regex(r) = expr_of("regex r = /a[/]b\\/c/gi") else {
        panic!()
    };
    assert_eq!(r.pattern(), "a[/]b\\/c");
    assert_eq!(r.flags(), "gi");

    let Expr::Template(t) = expr_of("text s = `a\\n${x}b${ `c${y}` }`") else {
        panic!()
    };
    let parts = t.parts();
    assert_eq!(parts.len(), 4);
    let TemplatePart::Chunk(c) = &parts[0] else {
        panic!()
    };
    assert_eq!(unescape_template_chunk(c.text()).unwrap(), "a\n");
    assert!(matches!(&parts[1], TemplatePart::Subst(Expr::NameRef(_))));
    assert!(matches!(&parts[3], TemplatePart::Subst(Expr::Template(_))));

    assert_eq!(unescape_string("'it\\'s'").unwrap(), "it's");
}

#[test]
fn collections_and_arrows() {
    let Expr::MapLit(m) = expr_of("map[int] m = {'a': 1, name, k: 2}") else {
        panic!()
    };
    let entries: Vec<_> = m.entries().collect();
    assert_eq!(entries.len(), 3);
    assert!(matches!(entries[0].key(), Some(Expr::Literal(_))));
    assert!(entries[0].value().is_some() && entries[0].shorthand().is_none());
    assert_eq!(entries[1].shorthand().unwrap().text(), "name");
    assert!(entries[1].key().is_none() && entries[1].value().is_none());
    assert!(matches!(entries[2].key(), Some(Expr::NameRef(_))));

    let Expr::ArrayLit(a) = expr_of("arr[int] xs = [1, 2, 3]") else {
        panic!()
    };
    assert_eq!(a.elements().count(), 3);

    let Expr::Arrow(a) = expr_of("func[int]:int f = int (x:int) => x * 2") else {
        panic!()
    };
    assert_eq!(type_name(a.ret_type()), "int");
    assert_eq!(a.param_list().unwrap().params().count(), 1);
    assert!(matches!(a.body(), Some(Expr::Binary(_))));

    let Expr::Arrow(a) = expr_of("void () => log(1)") else {
        panic!()
    };
    assert!(a.ret_type().is_none() && a.void_token().is_some());
    assert!(matches!(a.body(), Some(Expr::Call(_))));

    let Expr::Assign(a) = expr_of("xs = s.toArr(arr[int])") else {
        panic!()
    };
    let Some(Expr::Call(c)) = a.value() else {
        panic!()
    };
    let items: Vec<_> = c.arg_list().unwrap().items().collect();
    let [Arg::Type(t)] = items.as_slice() else {
        panic!("{items:?}")
    };
    assert_eq!(type_name(t.ty()), "arr[int]");
    assert_eq!(c.arg_list().unwrap().args().count(), 0);
}
