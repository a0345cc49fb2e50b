//! Resolution and typing on small programs: each test marks a use with
//! `/*here*/` just before it and checks what it resolves to.

use super::builtins::Builtin;
use super::ty::Ty;
use super::*;
use festina_signatures::Recv;

struct NoFiles;

impl Files for NoFiles {
    fn load(&self, _: &Path) -> Option<Rc<FileData>> {
        None
    }
}

/// The program's single file analysed.
fn analyse(text: &str) -> (Rc<FileData>, Unit, Resolved) {
    let data = Rc::new(FileData::new(
        Rc::from(Path::new("/virtual/t.f")),
        text.to_string(),
    ));
    let unit = Unit::new(data.clone(), &NoFiles);
    let resolved = resolve(&unit, &data);
    (data, unit, resolved)
}

/// What the name after the `n`th `/*here*/` marker resolves to: the
/// declaration's detail, or the builtin.
fn at_marker(text: &str, n: usize) -> String {
    let (_, unit, resolved) = analyse(text);
    let offset = text.match_indices("/*here*/").nth(n).expect("a marker").0 + "/*here*/".len();
    let r = resolved.at(offset as u32).expect("a name after the marker");
    match &r.target {
        Target::Def(key) => {
            let def = resolved
                .locals
                .get(key)
                .or_else(|| unit.defs.get(key))
                .unwrap();
            match &r.narrowed {
                Some(t) => format!("{} as {t}", def.detail),
                None => def.detail.clone(),
            }
        }
        Target::Builtin(b) => format!("{b:?}"),
        Target::File(p) => p.display().to_string(),
    }
}

#[test]
fn scopes_shadowing_and_no_closures() {
    let src = "\
int x = 1
void func f(x:text) {
    log(/*here*/x)
    if true {
        float x = 2.0
        log(/*here*/x)
    }
    log(/*here*/x)
}
int func g() {
    return /*here*/x
}
for int i = 0, i < 3, i++ {
    log(/*here*/i)
}
func[int]:int h = int (v:int) => /*here*/v + 1
try {
    throw 'a'
} catch (e:text) {
    log(/*here*/e)
}
";
    assert_eq!(at_marker(src, 0), "x:text");
    assert_eq!(at_marker(src, 1), "float x");
    assert_eq!(at_marker(src, 2), "x:text");
    assert_eq!(at_marker(src, 3), "int x");
    assert_eq!(at_marker(src, 4), "int i");
    assert_eq!(at_marker(src, 5), "v:int");
    assert_eq!(at_marker(src, 6), "e:text");
}

#[test]
fn members_by_type() {
    let src = "\
struct Item {
    name:text
    next:Item
}
arr[Item] items = []
log(items[0]./*here*/name)
log(items.pop()./*here*/next./*here*/name./*here*/length)
Item it = {/*here*/'name': 'a'}
text json = '{}'
log(json.toStruct(Item)./*here*/name)
log(json.toArr(Item)[0]./*here*/next)
log(Math./*here*/floor(2.5) + Math./*here*/PI)
log(items./*here*/push(it))
";
    assert_eq!(at_marker(src, 0), "Item.name:text");
    assert_eq!(at_marker(src, 1), "Item.next:Item");
    assert_eq!(at_marker(src, 2), "Item.name:text");
    assert_eq!(
        at_marker(src, 3),
        format!("{:?}", Builtin::Member(Recv::Text, "length"))
    );
    assert_eq!(at_marker(src, 4), "Item.name:text");
    assert_eq!(at_marker(src, 5), "Item.name:text");
    assert_eq!(at_marker(src, 6), "Item.next:Item");
    assert_eq!(at_marker(src, 7), format!("{:?}", Builtin::Math("floor")));
    assert_eq!(at_marker(src, 8), format!("{:?}", Builtin::Math("PI")));
    assert_eq!(
        at_marker(src, 9),
        format!("{:?}", Builtin::Member(Recv::Arr, "push"))
    );
}

#[test]
fn enums_and_match_arms() {
    let src = "\
struct Circle {
    radius:int
}
struct Square {
    side:int
}
enum Shape = Circle, Square
Circle c = {'radius': 1}
Shape s = c
log(s./*here*/radius)
match (s) {
    'Circle' { log(/*here*/s.radius) }
    default { log(/*here*/s) }
}
";
    assert_eq!(at_marker(src, 0), "Circle.radius:int");
    assert_eq!(at_marker(src, 1), "Shape s as Circle");
    assert_eq!(at_marker(src, 2), "Shape s");
}

#[test]
fn declarations_and_locals_visibility() {
    let src = "\
test group = 'a group'
/*here*/group(1, 1)
void func f() {
    int a = 1
    log(a)
}
";
    assert_eq!(at_marker(src, 0), "test group = 'a group'");
    let (data, unit, resolved) = analyse(src);
    let a = resolved.locals.values().find(|d| d.name == "a").unwrap();
    let visible = a.visible.unwrap();
    assert_eq!(&data.text[visible], "\n    log(a)\n}");
    assert!(matches!(
        unit.defs.values().find(|d| d.name == "f").unwrap().ty,
        Ty::Func(_, _)
    ));
    // Every declaration is a reference to itself.
    assert!(resolved
        .refs
        .iter()
        .any(|r| r.decl && &data.text[r.range] == "group"));
}

#[test]
fn broken_programs_still_resolve() {
    let src = "int total = 1\nlog(total +\nint other = /*here*/total\np.\n";
    assert_eq!(at_marker(src, 0), "int total");
}
