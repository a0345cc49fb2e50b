//! Golden images of the canvas (§17): every `tests/images/<name>.f` is run
//! by `festina` in a fresh temporary directory holding a copy of
//! `tests/images/fixtures/`; it must exit 0 and write `out.png`, which is
//! compared with `tests/images/<name>.png` pixel by pixel (decoded, so the
//! PNG encoder's choices do not matter). `<name>.out`, when present, is
//! the expected stdout (pixel probes with `getPixelColor`).
//!
//! The comparison is exact unless the program's first line says
//! `// tolerance: N`: then each channel of each pixel may differ by up to
//! `N`, for antialiased curves and glyphs, whose last bits depend on the
//! cairo, pixman and FreeType versions.
//!
//! Each program then runs again with `FESTINA_NO_DIRECT_FILL=1` and once
//! more with `FESTINA_NO_OPT=1`: their `out.png` must be byte-identical to
//! the first run's (the direct pixel paths change no byte, §17.5).
//!
//! `FESTINA_BLESS=1` writes a missing `<name>.png` (and `<name>.out`) from
//! the run; look at the picture before committing it.

use festina_stdlib::canvas::codec::decode;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn festina() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_festina"))
}

/// A fresh directory for one run, removed afterwards.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str, variant: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "festina-canvas-{}-{name}-{variant}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("fixtures")).unwrap();
        let fixtures = repo().join("tests/images/fixtures");
        for entry in fs::read_dir(fixtures).unwrap() {
            let p = entry.unwrap().path();
            fs::copy(&p, dir.join("fixtures").join(p.file_name().unwrap())).unwrap();
        }
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Run `source` in a scratch directory with `env`: (stdout, out.png) or
/// a description of what went wrong.
fn run(source: &Path, variant: &str, env: &[(&str, &str)]) -> Result<(String, Vec<u8>), String> {
    run_writing(source, variant, env, "out.png")
}

/// [`run`] for a program that writes `picture` rather than `out.png`.
fn run_writing(
    source: &Path,
    variant: &str,
    env: &[(&str, &str)],
    picture: &str,
) -> Result<(String, Vec<u8>), String> {
    let name = source.file_stem().unwrap().to_string_lossy().into_owned();
    let dir = Scratch::new(&name, variant);
    let file = dir.0.join(source.file_name().unwrap());
    fs::copy(source, &file).unwrap();
    let mut cmd = Command::new(festina());
    cmd.arg(source.file_name().unwrap())
        .current_dir(&dir.0)
        .stdin(Stdio::null())
        .env_remove("FESTINA_NO_DIRECT_FILL")
        .env_remove("FESTINA_NO_OPT");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run festina: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() || !out.stderr.is_empty() {
        return Err(format!(
            "{variant}: exit {:?}\nstdout:\n{stdout}\nstderr:\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let png = fs::read(dir.0.join(picture))
        .map_err(|e| format!("{variant}: no {picture} written: {e}"))?;
    Ok((stdout, png))
}

/// The `// tolerance: N` of a program, 0 without one.
fn tolerance(source: &Path) -> u8 {
    let text = fs::read_to_string(source).unwrap();
    text.lines()
        .next()
        .and_then(|l| l.strip_prefix("// tolerance:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

/// Compare two PNGs' pixels: `None` when every channel is within
/// `tolerance`, else what differs.
fn compare(actual: &[u8], expected: &[u8], tolerance: u8) -> Option<String> {
    let a = decode(actual).map_err(|e| e.to_string());
    let e = decode(expected).map_err(|e| e.to_string());
    let (a, e) = match (a, e) {
        (Ok(a), Ok(e)) => (a, e),
        (a, e) => {
            return Some(format!(
                "undecodable: actual {:?}, expected {:?}",
                a.err(),
                e.err()
            ))
        }
    };
    if (a.width, a.height) != (e.width, e.height) {
        return Some(format!(
            "size {}x{}, expected {}x{}",
            a.width, a.height, e.width, e.height
        ));
    }
    let mut worst = (0u8, 0usize);
    let mut over = 0usize;
    for (i, (p, q)) in a.pixels.iter().zip(&e.pixels).enumerate() {
        let d = (0..4)
            .map(|k| ((p >> (8 * k)) as u8).abs_diff((q >> (8 * k)) as u8))
            .max()
            .unwrap_or(0);
        if d > tolerance {
            over += 1;
        }
        if d > worst.0 {
            worst = (d, i);
        }
    }
    (over > 0).then(|| {
        let i = worst.1;
        format!(
            "{over} pixels differ by more than {tolerance}; worst at {},{}: {:08x}, expected {:08x}",
            i % a.width as usize,
            i / a.width as usize,
            a.pixels[i],
            e.pixels[i]
        )
    })
}

#[test]
fn golden_images() {
    let dir = repo().join("tests/images");
    let mut sources: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "f"))
        .collect();
    sources.sort();
    assert!(
        sources.len() >= 10,
        "the golden images are in {}",
        dir.display()
    );
    let bless = std::env::var_os("FESTINA_BLESS").is_some();
    let mut failures = Vec::new();
    for source in &sources {
        let name = source.file_stem().unwrap().to_string_lossy().into_owned();
        let expected_png = dir.join(format!("{name}.png"));
        let expected_out = dir.join(format!("{name}.out"));
        let (stdout, png) = match run(source, "direct", &[]) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        if bless && !expected_png.exists() {
            fs::write(&expected_png, &png).unwrap();
            if !stdout.is_empty() && !expected_out.exists() {
                fs::write(&expected_out, &stdout).unwrap();
            }
        }
        match fs::read(&expected_png) {
            Ok(want) => {
                if let Some(d) = compare(&png, &want, tolerance(source)) {
                    failures.push(format!("{name}: out.png {d}"));
                }
            }
            Err(_) => failures.push(format!(
                "{name}: missing {} (FESTINA_BLESS=1 writes it)",
                expected_png.display()
            )),
        }
        let want_out = fs::read_to_string(&expected_out).unwrap_or_default();
        if stdout != want_out {
            failures.push(format!("{name}: stdout\n{stdout}\nexpected\n{want_out}"));
        }
        for (variant, var) in [
            ("no-direct-fill", "FESTINA_NO_DIRECT_FILL"),
            ("no-opt", "FESTINA_NO_OPT"),
        ] {
            match run(source, variant, &[(var, "1")]) {
                Ok((out2, png2)) => {
                    if png2 != png {
                        let d = compare(&png2, &png, 0).unwrap_or_default();
                        failures.push(format!("{name}: {variant} changes out.png: {d}"));
                    }
                    if out2 != stdout {
                        failures.push(format!("{name}: {variant} changes stdout"));
                    }
                }
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The drawing examples: `examples/chart.f` draws the same chart as
/// `tests/images/chart.png` (text, hence the tolerance), with and without
/// the direct paths; `examples/captcha.f` draws a random code, so only
/// its size and colours are checked.
#[test]
fn drawing_examples() {
    let examples = repo().join("examples");
    let chart = examples.join("chart.f");
    let (out, png) = run_writing(&chart, "chart", &[], "chart.png").unwrap();
    assert_eq!(out, "wrote chart.png (640x400)\n");
    let want = fs::read(repo().join("tests/images/chart.png"));
    if want.is_err() && std::env::var_os("FESTINA_BLESS").is_some() {
        fs::write(repo().join("tests/images/chart.png"), &png).unwrap();
    }
    let want = want.unwrap_or_else(|_| fs::read(repo().join("tests/images/chart.png")).unwrap());
    if let Some(d) = compare(&png, &want, 24) {
        panic!("examples/chart.f: {d}");
    }
    let (_, plain) = run_writing(
        &chart,
        "chart-no-opt",
        &[("FESTINA_NO_OPT", "1")],
        "chart.png",
    )
    .unwrap();
    assert!(plain == png, "FESTINA_NO_OPT changes the chart");

    let (out, png) =
        run_writing(&examples.join("captcha.f"), "captcha", &[], "captcha.png").unwrap();
    assert_eq!(out, "wrote captcha.png (160x60, 5 characters)\n");
    let d = decode(&png).unwrap();
    assert_eq!((d.width, d.height), (160, 60));
    // mostly background (40 noise pixels and 5 glyphs on it), with ink
    // where the glyphs are
    let background = d.pixels.iter().filter(|&&p| p == 0xffee_f1f5).count();
    assert!(
        background > d.pixels.len() / 2,
        "{background} background pixels"
    );
    assert!(d.pixels.contains(&0xff2b_3542), "no glyph in the picture");
}
