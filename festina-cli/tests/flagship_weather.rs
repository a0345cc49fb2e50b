//! The flagship weather app (`examples/flagship/weather.f`, issue 19)
//! end to end: its window under a private Xvfb, its forecast from a local
//! mock of Open-Meteo's endpoint on 127.0.0.1 (given as `$WEATHER_URL`).
//! The window must show exactly the frame the same drawing code renders
//! for the mock's numbers; an unreachable endpoint and an answer that is not a forecast are
//! logged, not thrown.
//! Skips like tests/window.rs where Xvfb or its tools are missing and
//! FESTINA_REQUIRE_XVFB is unset.

#[allow(dead_code)] // the window tests' bench; this test uses part of it
#[path = "window/xvfb.rs"]
mod xvfb;

use festina_stdlib::canvas::codec::decode;
use festina_stdlib::window::composite_over_white;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use xvfb::{Program, Xvfb, DEADLINE};

/// The part of Open-Meteo's answer the app reads, with the fields around
/// it that it must ignore.
const FORECAST: &str = r#"{"latitude":52.52,"longitude":13.419998,"current_units":{"temperature_2m":"°C","wind_speed_10m":"km/h"},"current":{"time":"2026-09-10T12:00","interval":900,"temperature_2m":21.4,"wind_speed_10m":11.2}}"#;

fn source() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/flagship/weather.f"
    );
    std::fs::read_to_string(path).expect("read weather.f")
}

/// A keep-alive HTTP server answering every request with [`FORECAST`];
/// returns its port and the number of requests answered so far.
fn mock_forecast() -> (u16, Arc<AtomicUsize>) {
    mock_answering(FORECAST)
}

/// A keep-alive HTTP server answering every request with `200` and
/// `body`; returns its port and the number of requests answered so far.
fn mock_answering(body: &'static str) -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let served = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&served);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let count = Arc::clone(&count);
            std::thread::spawn(move || serve(stream, &count, body));
        }
    });
    (port, served)
}

fn serve(stream: TcpStream, served: &AtomicUsize, answer: &str) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut out = stream;
    loop {
        let mut head = String::new();
        let mut length = 0;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            }
            if line == "\r\n" {
                break;
            }
            head.push_str(&line);
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        assert!(
            head.starts_with("GET /v1/forecast?latitude=52.52"),
            "{head}"
        );
        let reply = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{answer}",
            answer.len()
        );
        // Counted before the answer leaves: the app may read, parse and
        // log it before this thread runs again.
        served.fetch_add(1, Ordering::SeqCst);
        if out.write_all(reply.as_bytes()).is_err() {
            return;
        }
    }
}

/// The frame the app must show once the forecast arrived: its own
/// drawing code run as the app runs it (a first frame, then a redraw with
/// the mock's numbers), saved from the canvas.
fn expected_frame(x: &Xvfb) -> Vec<u32> {
    let start = "fetchWeather()\nsetInterval";
    let src = source();
    let at = src.find(start).expect("weather.f draws, then fetches");
    let want = format!(
        "{}temp = 21.4\nwind = 11.2\nloaded = true\ndraw()\nlog(saveCanvas('want.png'))\non close() {{}}\n",
        &src[..at]
    );
    let mut p = Program::start(Some(x), "weather-want", &want, &[], &[]);
    p.expect("true");
    let canvas = decode(&std::fs::read(p.dir().join("want.png")).unwrap()).unwrap();
    assert_eq!((canvas.width, canvas.height), (320, 180));
    let mut frame = Vec::new();
    composite_over_white(&canvas.pixels, 320, 180, 320, &mut frame);
    frame
}

#[test]
fn the_window_shows_the_fetched_weather() {
    let Some(x) = Xvfb::start() else { return };
    let want = expected_frame(&x);
    let (port, served) = mock_forecast();
    let url = format!("http://127.0.0.1:{port}/v1/forecast?latitude=52.52&longitude=13.41&current=temperature_2m,wind_speed_10m");
    let _p = Program::start(
        Some(&x),
        "weather",
        &source(),
        &[],
        &[("WEATHER_URL", &url)],
    );
    let win = x.window("weather");
    assert_eq!(x.size(&win), (320, 180));
    // The answer is drawn when it arrives: wait for the request, then
    // for the frame (the screenshot is taken until it matches).
    let end = Instant::now() + DEADLINE;
    loop {
        let (_, _, shot) = x.screenshot(&win);
        if served.load(Ordering::SeqCst) > 0 && shot == want {
            break;
        }
        let differ: Vec<usize> = (0..want.len()).filter(|&i| shot[i] != want[i]).collect();
        assert!(
            Instant::now() < end,
            "the window never showed 21°C and wind 11 km/h ({} requests served; {} pixels differ, first at {:?}: {:06x} against {:06x})",
            served.load(Ordering::SeqCst),
            differ.len(),
            differ.first().map(|i| (i % 320, i / 320)),
            differ.first().map_or(0, |&i| shot[i]),
            differ.first().map_or(0, |&i| want[i]),
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        served.load(Ordering::SeqCst),
        1,
        "one fetch until the ten-minute refresh"
    );
}

#[test]
fn an_unreachable_endpoint_is_logged() {
    let Some(x) = Xvfb::start() else { return };
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "http://127.0.0.1:{}/v1/forecast",
        closed.local_addr().unwrap().port()
    );
    drop(closed);
    let mut p = Program::start(
        Some(&x),
        "weather-down",
        &source(),
        &[],
        &[("WEATHER_URL", &url)],
    );
    p.expect_where("weather request failed: ...", |l| {
        l.starts_with("weather request failed: ")
    });
    assert!(p.seen.last().unwrap().contains("refused"), "{:?}", p.seen);
}

#[test]
fn an_answer_that_is_not_the_forecast_is_logged() {
    let Some(x) = Xvfb::start() else { return };
    let (port, served) = mock_answering(r#"{"current":{"temperature_2m":"garbage"}}"#);
    let url = format!("http://127.0.0.1:{port}/v1/forecast?latitude=52.52&longitude=13.41");
    let mut p = Program::start(
        Some(&x),
        "weather-garbage",
        &source(),
        &[],
        &[("WEATHER_URL", &url)],
    );
    p.expect_where("weather answer not understood: ...", |l| {
        l.starts_with("weather answer not understood: ")
    });
    assert!(
        p.seen.last().unwrap().contains("expected a float"),
        "{:?}",
        p.seen
    );
    assert_eq!(served.load(Ordering::SeqCst), 1);
}
