//! A weak field is not an edge of the type graph that decides which
//! struct types may form cycles (`Record::may_cycle`, §13.3): where the
//! weak edge is the only way back, no release of those types ever
//! buffers a possible cycle root.

use festina_compiler::driver::compile_source;

fn may_cycle(src: &str, name: &str) -> bool {
    let p = compile_source("w.f", src).expect("compiles");
    p.structs
        .iter()
        .find(|r| r.name == name)
        .expect("the struct")
        .may_cycle
}

#[test]
fn a_weak_only_back_edge_makes_no_cycle() {
    let src = "struct Child {\n parent:weak Doc\n tag:int\n}\nstruct Doc {\n kids:arr[Child]\n name:text\n}\n";
    assert!(!may_cycle(src, "Doc"));
    assert!(!may_cycle(src, "Child"));
}

#[test]
fn the_same_shape_with_a_strong_back_edge_does() {
    let src =
        "struct Child {\n parent:Doc\n tag:int\n}\nstruct Doc {\n kids:arr[Child]\n name:text\n}\n";
    assert!(may_cycle(src, "Doc"));
    assert!(may_cycle(src, "Child"));
}

#[test]
fn a_type_reaching_itself_strongly_still_may_cycle() {
    let src = "struct Node {\n parent:weak Node\n kids:arr[Node]\n tag:int\n}\n";
    assert!(may_cycle(src, "Node"));
}
