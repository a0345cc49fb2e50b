//! A file's outline: the declarations every file of its unit sees, and
//! its imports (see the module documentation of `analysis`).

use super::ty::{is_type_node, Ty};
use super::{Def, DefKey, DefKind};
use festina_compiler::syntax::{SyntaxKind, SyntaxNode, SyntaxToken};
use rowan::{NodeOrToken, TextRange};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use SyntaxKind::*;

/// The declarations and imports of one file.
#[derive(Clone, Debug, Default)]
pub struct Outline {
    /// Functions, top-level globals, constants and test groups, structs,
    /// tables, their fields, and enums, in source order.
    pub defs: Vec<Def>,
    /// The `import` declarations.
    pub imports: Vec<Import>,
}

/// One `import path` (§6.2).
#[derive(Clone, Debug)]
pub struct Import {
    /// The range of the path.
    pub range: TextRange,
    /// The path as written.
    pub written: String,
    /// The file it names (a key path), beside the importing file.
    pub target: Option<PathBuf>,
}

/// The first token of `node` of `kind` among its direct children.
pub(super) fn token(node: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
    node.children_with_tokens()
        .filter_map(NodeOrToken::into_token)
        .find(|t| t.kind() == kind)
}

/// The first direct child of `node` that is a type node.
pub(super) fn type_child(node: &SyntaxNode) -> Option<SyntaxNode> {
    node.children().find(|c| is_type_node(c.kind()))
}

/// The text of `node` with every run of blanks and line feeds made one
/// space (for declarations shown in hovers).
pub(super) fn flat_text(node: &SyntaxNode) -> String {
    node.text()
        .to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The parameters of a `PARAM_LIST`: name token and type.
pub(super) fn params(list: &SyntaxNode) -> Vec<(SyntaxToken, Ty)> {
    list.children()
        .filter(|p| p.kind() == PARAM)
        .filter_map(|p| {
            let name = p
                .children_with_tokens()
                .filter_map(NodeOrToken::into_token)
                .find(|t| t.kind() == IDENT || t.kind().is_keyword())?;
            let ty = type_child(&p).map_or(Ty::Unknown, |t| Ty::from_syntax(&t));
            Some((name, ty))
        })
        .collect()
}

/// The return type of a function declaration or arrow: its type child,
/// or `void`.
pub(super) fn return_type(node: &SyntaxNode) -> Ty {
    if token(node, VOID_KW).is_some() {
        return Ty::Void;
    }
    type_child(node).map_or(Ty::Unknown, |t| Ty::from_syntax(&t))
}

/// The outline of the file `path` whose tree is `root`.
pub fn outline(path: &Rc<Path>, root: &SyntaxNode) -> Outline {
    let mut out = Outline::default();
    let def = |kind: DefKind, name: &SyntaxToken, ty: Ty, detail: String| Def {
        key: DefKey {
            file: path.clone(),
            at: name.text_range().start().into(),
        },
        kind,
        name: name.text().to_string(),
        name_range: name.text_range(),
        ty,
        detail,
        owner: None,
        members: Vec::new(),
        visible: None,
    };
    for node in root.descendants() {
        match node.kind() {
            FUNC_DECL => {
                let Some(name) = token(&node, IDENT) else {
                    continue;
                };
                let ret = return_type(&node);
                let list = node.children().find(|c| c.kind() == PARAM_LIST);
                let ps = list.as_ref().map(params).unwrap_or_default();
                let shown: Vec<String> = ps
                    .iter()
                    .map(|(n, t)| format!("{}:{t}", n.text()))
                    .collect();
                let detail = format!("{ret} func {}({})", name.text(), shown.join(", "));
                let ty = Ty::Func(ps.into_iter().map(|p| p.1).collect(), Box::new(ret));
                out.defs.push(def(DefKind::Function, &name, ty, detail));
            }
            VAR_DECL if node.parent().is_some_and(|p| p.kind() == SOURCE_FILE) => {
                let Some(name) = token(&node, IDENT) else {
                    continue;
                };
                let ty = type_child(&node).map_or(Ty::Unknown, |t| Ty::from_syntax(&t));
                let constant = token(&node, CONST_KW).is_some();
                let (kind, prefix) = if constant {
                    (DefKind::Constant, "const ")
                } else {
                    (DefKind::Global, "")
                };
                let detail = format!("{prefix}{ty} {}", name.text());
                out.defs.push(def(kind, &name, ty, detail));
            }
            STRUCT_DECL | TABLE_DECL => {
                let Some(name) = token(&node, IDENT) else {
                    continue;
                };
                let (kind, word) = if node.kind() == STRUCT_DECL {
                    (DefKind::Struct, "struct")
                } else {
                    (DefKind::Table, "table")
                };
                let mut lines = Vec::new();
                let mut fields = Vec::new();
                for field in node.children().filter(|c| c.kind() == FIELD_DECL) {
                    let Some(fname) = field
                        .children_with_tokens()
                        .filter_map(NodeOrToken::into_token)
                        .find(|t| t.kind() == IDENT)
                    else {
                        continue;
                    };
                    let ty = type_child(&field).map_or(Ty::Unknown, |t| Ty::from_syntax(&t));
                    let weak = field
                        .children_with_tokens()
                        .filter_map(NodeOrToken::into_token)
                        .filter(|t| t.kind() == IDENT)
                        .nth(1)
                        .is_some_and(|t| t.text() == "weak");
                    let written = if weak {
                        format!("weak {ty}")
                    } else {
                        ty.to_string()
                    };
                    lines.push(format!("    {}:{written}", fname.text()));
                    let mut f = def(
                        DefKind::Field,
                        &fname,
                        ty,
                        format!("{}.{}:{written}", name.text(), fname.text()),
                    );
                    f.owner = Some(name.text().to_string());
                    fields.push(f);
                }
                let detail = if lines.is_empty() {
                    format!("{word} {} {{}}", name.text())
                } else {
                    format!("{word} {} {{\n{}\n}}", name.text(), lines.join("\n"))
                };
                let ty = Ty::Named(name.text().to_string());
                out.defs.push(def(kind, &name, ty, detail));
                out.defs.extend(fields);
            }
            ENUM_DECL => {
                let Some(name) = token(&node, IDENT) else {
                    continue;
                };
                let members: Vec<String> = node
                    .children()
                    .filter(|c| is_type_node(c.kind()))
                    .map(|c| Ty::from_syntax(&c).to_string())
                    .collect();
                let detail = format!("enum {} = {}", name.text(), members.join(", "));
                let mut d = def(
                    DefKind::Enum,
                    &name,
                    Ty::Named(name.text().to_string()),
                    detail,
                );
                d.members = members;
                out.defs.push(d);
            }
            TEST_DECL if node.parent().is_some_and(|p| p.kind() == SOURCE_FILE) => {
                let Some(name) = node
                    .children_with_tokens()
                    .filter_map(NodeOrToken::into_token)
                    .filter(|t| t.kind() == IDENT)
                    .nth(1)
                else {
                    continue;
                };
                let detail = flat_text(&node);
                out.defs
                    .push(def(DefKind::TestGroup, &name, Ty::Unknown, detail));
            }
            IMPORT_DECL => {
                let Some(written) = token(&node, IMPORT_PATH) else {
                    continue;
                };
                let text = written.text().trim().to_string();
                let target = path
                    .parent()
                    .map(|dir| crate::text::file_key(&dir.join(&text)));
                out.imports.push(Import {
                    range: written.text_range(),
                    written: text,
                    target,
                });
            }
            _ => {}
        }
    }
    out
}
