//! Inputs on which a front end with a quadratic step would take many
//! seconds (a long `+` chain, a map literal with very many keys). They
//! must be handled in time linear in their size; these tests check the
//! behaviour at a size where a quadratic step would be obvious, without
//! timing anything.

use festina_compiler::driver;

/// 40,000 `+` terms: nested far deeper than the checker allows, so one
/// diagnostic at the start of the expression.
#[test]
fn long_plus_chain_is_rejected_once() {
    let src = format!("int x = 1{}\n", " + 1".repeat(39_999));
    let errs = driver::compile_source("chain.f", &src).expect_err("too deep");
    assert_eq!(errs.len(), 1, "{:?}", errs.first().map(|e| &e.message));
    assert_eq!(
        (errs[0].line, errs[0].col, errs[0].message.as_str()),
        (1, 9, "this expression is nested too deeply")
    );
}

/// A map literal with 100,000 distinct keys (similar short texts, which
/// once collided in rowan's token interner), plus one duplicate key at
/// the end to show every entry was checked.
#[test]
fn map_literal_with_many_keys_is_checked() {
    let n = 100_000;
    let mut src = String::from("map[int] m = {");
    for i in 0..n {
        src.push_str(&format!("'k{i}': {i}, "));
    }
    src.push_str("'k7': 0}\nlog(m['k1'])\n");
    let errs = driver::compile_source("map.f", &src).expect_err("duplicate key");
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].message, "duplicate key 'k7' in map literal");
    assert_eq!(errs[0].line, 1);
}
