//! The generated program the front-end benchmark (`benches/frontend.rs`)
//! and the profiling example (`examples/frontend_profile.rs`) both use.

use std::fmt::Write;

/// A program of `n` blocks, each a struct, a function with loops, calls,
/// arithmetic, text and arrays, and some top-level code: the mix a real
/// program has (about 30 lines per block).
pub fn program(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        write!(
            s,
            r#"struct Item{i} {{
    id:int
    name:text
    price:float
    tags:arr[text]
}}

// Sums, counts and formats a few items.
int func work{i}(limit:int, label:text) {{
    int total = 0
    arr[int] xs = [1, 2, 3, 4, 5]
    Item{i} item = {{'id': {i}, 'name': label, 'price': 2.5}}
    for int k = 0, k < limit, k++ {{
        if k % 3 == 0 && k != {i} {{
            total = total + xs[k % 5] * 2
        }} else {{
            total = total - 1
        }}
    }}
    while total > 1000 {{
        total = total / 2 > 10 ? total - 100 : total - 1
    }}
    item.tags.push(`${{label}}-${{total}}`)
    text out = `${{item.name}}: ${{item.price * 2.0}}`
    log(out)
    return total + item.id
}}

int r{i} = work{i}({i} % 7, 'item {i}')
"#
        )
        .unwrap();
    }
    s
}
