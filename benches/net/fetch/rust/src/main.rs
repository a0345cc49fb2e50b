//! The fetch-and-parse benchmark's Rust peer (benches/net/README.md):
//! N sequential GETs of URL through one ureq agent (keep-alive reuse),
//! each body parsed with serde_json into `Weather`.
//!
//!     fetch-rust URL [N]      (N defaults to 200)
//!
//! Prints `fetched N, temperature_2m T, wind_speed_10m W` (the last
//! response's values) on stdout and `loop_ms=…` (the loop's own time) on
//! stderr.
use serde::Deserialize;
use std::time::Instant;

#[derive(Deserialize)]
struct Current {
    temperature_2m: f64,
    wind_speed_10m: f64,
}

#[derive(Deserialize)]
struct Weather {
    current: Current,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let url = args.next().expect("usage: fetch-rust URL [N]");
    let n: usize = args
        .next()
        .map_or(200, |s| s.parse().expect("N must be a number"));
    let agent = ureq::Agent::new_with_defaults();
    let start = Instant::now();
    let mut last = None;
    for _ in 0..n {
        let body = agent
            .get(&url)
            .call()
            .expect("GET failed")
            .body_mut()
            .read_to_string()
            .expect("reading the body failed");
        let w: Weather = serde_json::from_str(&body).expect("bad JSON");
        last = Some(w);
    }
    let elapsed = start.elapsed();
    let w = last.expect("N must be at least 1");
    println!(
        "fetched {n}, temperature_2m {}, wind_speed_10m {}",
        w.current.temperature_2m, w.current.wind_speed_10m
    );
    eprintln!("loop_ms={:.3}", elapsed.as_secs_f64() * 1000.0);
}
