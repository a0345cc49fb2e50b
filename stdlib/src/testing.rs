//! The test registry of a `festina test` run (the reference's §11.7,
//! added after edition 0.44): groups of assertions and the report.
//!
//! | native       | Festina form                     | result |
//! |--------------|----------------------------------|--------|
//! | `test_group` | `test name = description`        | `int`: the group's index (the binding's value) |
//! | `test_eq`    | `name(actual, expected)`         | `bool`: the two are equal as `==` compares them |
//! | `test_near`  | `name.near(actual, expected, tolerance)` | `bool`: `|actual - expected| <= tolerance` |
//!
//! The checker emits these only in a test build (see the compiler's
//! `check::testing`); a program compiled any other way never names
//! them. Each assertion receives its group, its operands and its own
//! source text. The registry is interpreter state ([`TestRegistry`],
//! kept with `Interpreter::set_ext`), created on the first group.
//!
//! # The report
//! [`report`] prints, after the program's own output, one line per
//! group in declaration order, then an `Overall` line:
//!
//! ```text
//! basic math test: 2 pass, 1 fail. 66%
//!  | - fail: basicMath(2 - 2, 4) // 0
//! string interpolation: 1 pass. 100%
//! Overall: 3 pass, 1 fail. 75%
//! ```
//!
//! A group without failures omits the fail count; the percentage is
//! passes over assertions, truncated (two of three is 66%), and 100% for a
//! group with no assertions. Each failure quotes the assertion's source
//! (blanks collapsed) and, after `//`, the actual value (the first
//! operand) in its text form (§8.21; `null` for a null).
//!
//! A filter ([`TestRegistry::set_filter`], `festina test --filter NAME`)
//! keeps only the groups whose name or description contains it: the
//! assertions of the others still run (they are part of the program) but
//! are neither counted nor reported.

use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::value::Value;

/// The natives of this module, for `Interpreter::new`.
pub fn natives() -> Vec<NativeEntry> {
    vec![
        NativeEntry {
            name: "test_group",
            func: test_group,
        },
        NativeEntry {
            name: "test_eq",
            func: test_eq,
        },
        NativeEntry {
            name: "test_near",
            func: test_near,
        },
    ]
}

/// One group of assertions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Group {
    name: String,
    description: String,
    passed: u64,
    failed: u64,
    /// Source text and actual value of each failure, in order.
    failures: Vec<(String, String)>,
    /// Counted and reported (matches the filter).
    selected: bool,
}

/// Every group of one run, and the filter (interpreter state).
#[derive(Clone, Debug, Default)]
pub struct TestRegistry {
    groups: Vec<Group>,
    filter: Option<String>,
}

/// Totals of a report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Assertions that held.
    pub passed: u64,
    /// Assertions that failed.
    pub failed: u64,
    /// Groups reported.
    pub groups: u64,
}

impl TestRegistry {
    /// Keep only the groups whose name or description contains `filter`
    /// (see the module documentation).
    pub fn set_filter(&mut self, filter: Option<String>) {
        self.filter = filter;
    }
}

/// The run's registry, created on first use.
fn registry(it: &mut Interpreter) -> &mut TestRegistry {
    if it.ext_mut::<TestRegistry>().is_none() {
        it.set_ext(TestRegistry::default());
    }
    it.ext_mut::<TestRegistry>().expect("just set")
}

fn test_group(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let description = args
        .first()
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let name = args
        .get(1)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let reg = registry(it);
    let selected = reg
        .filter
        .as_deref()
        .is_none_or(|f| name.contains(f) || description.contains(f));
    reg.groups.push(Group {
        name,
        description,
        selected,
        ..Group::default()
    });
    Ok(Value::Int(reg.groups.len() as i64 - 1))
}

/// Equality as `==` has it for the operand types the checker allows:
/// numbers (a null float, NaN, equals nothing), bools, text and ascii by
/// content, and null only with null.
fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Text(_) | Value::Ascii(_), Value::Text(_) | Value::Ascii(_)) => {
            a.as_str() == b.as_str()
        }
        _ => false,
    }
}

/// Record one assertion of group `args[0]`; `source` is its text.
fn record(it: &mut Interpreter, group: &Value, passed: bool, actual: &Value, source: &Value) {
    let actual = if passed {
        String::new()
    } else {
        it.render(actual)
    };
    let source = source.as_str().unwrap_or("").to_string();
    let reg = registry(it);
    let Some(g) = usize::try_from(group.as_int())
        .ok()
        .and_then(|i| reg.groups.get_mut(i))
    else {
        return;
    };
    if passed {
        g.passed += 1;
    } else {
        g.failed += 1;
        g.failures.push((source, actual));
    }
}

fn test_eq(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let [group, a, b, source] = args else {
        return Ok(Value::Bool(false));
    };
    let passed = equal(a, b);
    record(it, group, passed, a, source);
    Ok(Value::Bool(passed))
}

fn test_near(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let [group, a, b, tol, source] = args else {
        return Ok(Value::Bool(false));
    };
    let passed = (a.as_float() - b.as_float()).abs() <= tol.as_float();
    record(it, group, passed, a, source);
    Ok(Value::Bool(passed))
}

/// `label: P pass, F fail. N%` (the fail count omitted when zero).
pub fn summary_line(label: &str, passed: u64, failed: u64) -> String {
    let total = passed + failed;
    let pct = (passed * 100).checked_div(total).unwrap_or(100);
    if failed == 0 {
        format!("{label}: {passed} pass. {pct}%")
    } else {
        format!("{label}: {passed} pass, {failed} fail. {pct}%")
    }
}

/// Print the report of this run (see the module documentation) to the
/// program's stdout; with `overall`, end it with the `Overall` line.
/// Returns the totals of the groups reported.
pub fn report(it: &mut Interpreter, overall: bool) -> Totals {
    let groups = it
        .ext_mut::<TestRegistry>()
        .map(|r| std::mem::take(&mut r.groups))
        .unwrap_or_default();
    let mut totals = Totals::default();
    for g in groups.iter().filter(|g| g.selected) {
        it.write_line(&summary_line(&g.description, g.passed, g.failed));
        for (source, actual) in &g.failures {
            it.write_line(&format!(" | - fail: {source} // {actual}"));
        }
        totals.passed += g.passed;
        totals.failed += g.failed;
        totals.groups += 1;
    }
    if overall {
        it.write_line(&summary_line("Overall", totals.passed, totals.failed));
    }
    it.flush_output();
    totals
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_lines_truncate_and_omit_a_zero_fail_count() {
        assert_eq!(summary_line("a", 2, 1), "a: 2 pass, 1 fail. 66%");
        assert_eq!(summary_line("b", 1, 0), "b: 1 pass. 100%");
        assert_eq!(summary_line("c", 0, 0), "c: 0 pass. 100%");
        assert_eq!(summary_line("d", 0, 3), "d: 0 pass, 3 fail. 0%");
        assert_eq!(
            summary_line("Overall", 3, 1),
            "Overall: 3 pass, 1 fail. 75%"
        );
        assert_eq!(summary_line("e", 199, 1), "e: 199 pass, 1 fail. 99%");
    }

    #[test]
    fn equality_follows_the_operators() {
        assert!(equal(&Value::Int(4), &Value::Int(4)));
        assert!(!equal(&Value::Int(4), &Value::Null));
        assert!(equal(&Value::Null, &Value::Null));
        assert!(!equal(&Value::Float(f64::NAN), &Value::Float(f64::NAN)));
        assert!(equal(&Value::text("a"), &Value::ascii(b"a".to_vec())));
        assert!(!equal(&Value::text(""), &Value::Null));
    }
}
