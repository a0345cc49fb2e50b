//! Command-line parsing for `festina`: the argument list to a [`Command`].
//!
//! Grammar (§21.1, with `--emit-bytecode` replacing the reference's
//! `--emit-llvm`, LANGUAGE.md):
//!
//! ```text
//! festina [--emit-bytecode] <file.f> [--emit-bytecode] [--] [args...]
//! festina run [--emit-bytecode] <file> [--emit-bytecode] [--] [args...]
//! festina check <file>
//! festina compile <file> [-o <out>]      (-o before or after the file)
//! festina test [--filter NAME] <file.f|dir> [--filter NAME] [--] [args...]
//! festina fmt [--check] <file|dir|->...
//! festina lsp
//! festina help | -h | --help
//! festina --version
//! ```
//!
//! Without a command word, the first argument is taken as the program when
//! it ends in `.f` or contains a path separator; any other word is an
//! unknown command. Options after the program are festina's only while
//! they come first (and up to a `--`); everything after is the program's.

/// What the user asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Compile `path` and run it with `args` (after the program path), or
    /// print its bytecode listing when `emit_bytecode` is set.
    Run {
        /// The program file, as given.
        path: String,
        /// Arguments for the program (`argv` after the path).
        args: Vec<String>,
        /// Print the listing instead of running.
        emit_bytecode: bool,
    },
    /// Compile `path` and report diagnostics only.
    Check {
        /// The program file, as given.
        path: String,
    },
    /// Compile `path` into a self-contained executable (a bundle) at
    /// `output`, or, when it is `None`, at the file name of `path` without
    /// `.f` in the current directory.
    Compile {
        /// The program file, as given.
        path: String,
        /// The `-o` argument, as given.
        output: Option<String>,
    },
    /// Run `path` as a test build (the reference's §11.7): its
    /// assertions are compiled and a report follows the program's own
    /// output. A directory runs every `*_test.f` file under it, with one
    /// summary.
    Test {
        /// The program file or directory, as given.
        path: String,
        /// Report only groups whose name or description contains this.
        filter: Option<String>,
        /// Arguments for the program (`argv` after the path).
        args: Vec<String>,
    },
    /// Rewrite the files in the canonical style (`festina_compiler::format`),
    /// or with `check` only list those that would change. A directory
    /// stands for every `.f` file under it; `-` for standard input, written
    /// formatted to standard output.
    Fmt {
        /// Report instead of rewriting.
        check: bool,
        /// Files, directories and `-`, as given (at least one).
        paths: Vec<String>,
    },
    /// Serve the Language Server Protocol on standard input and output.
    Lsp,
    /// Print the usage text.
    Help,
    /// Print the version.
    Version,
}

/// The usage text, printed by `festina help` (stdout) and after a usage
/// error (stderr).
pub const USAGE: &str = "\
usage: festina <file.f> [args...]
       festina <command> ...

commands:
  <file.f> [args...]      compile the program and run it
  run <file> [args...]    the same, for any file name
  check <file>            report compile errors without running
                          (exit status 2 if there are any)
  compile <file> [-o out] write one self-contained executable: the VM with
                          the program's bytecode; default name: the file's
                          name without .f, in the current directory
  test <file.f|dir>       run the program with its test assertions, then
                          report each test group (exit status 1 if an
                          assertion failed); a directory runs every
                          *_test.f file in it and prints one summary
       [--filter NAME]    report only the groups whose name or
                          description contains NAME
  fmt <file|dir>...       rewrite the files in the canonical style
                          (docs/style.md); a directory means every .f file
                          under it, - means standard input to standard output
       [--check]          change nothing: list the files that would change
                          (exit status 1 if there are any)
  lsp                     serve the Language Server Protocol on stdin/stdout
                          (for editors, see editors/)
  help                    show this text

options:
  --emit-bytecode         print the program's bytecode instead of running it
  --version               print festina's version
  -h, --help              show this text
  --                      end of festina's options: the rest is the program's
";

/// Parse the arguments after the executable name. Errors: a message for a
/// missing program, an unknown command or option, or extra arguments to
/// `check`; the caller prints it with [`USAGE`] and exits 2.
pub fn parse(args: Vec<String>) -> Result<Command, String> {
    let mut emit_bytecode = false;
    let mut rest = args.into_iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--emit-bytecode" => emit_bytecode = true,
            "-h" | "--help" | "help" => return Ok(Command::Help),
            "--version" => return Ok(Command::Version),
            "run" => return parse_run(emit_bytecode, rest),
            "check" if emit_bytecode => {
                return Err("--emit-bytecode does not apply to check".to_string())
            }
            "check" => return parse_check(rest),
            "compile" if emit_bytecode => {
                return Err("--emit-bytecode does not apply to compile".to_string())
            }
            "compile" => return parse_compile(rest),
            "test" if emit_bytecode => {
                return Err("--emit-bytecode does not apply to test".to_string())
            }
            "test" => return parse_test(rest),
            "fmt" if emit_bytecode => {
                return Err("--emit-bytecode does not apply to fmt".to_string())
            }
            "fmt" => return parse_fmt(rest),
            "lsp" if emit_bytecode => {
                return Err("--emit-bytecode does not apply to lsp".to_string())
            }
            "lsp" => {
                return match rest.next() {
                    // Editors commonly pass `--stdio`; it is the only transport.
                    None => Ok(Command::Lsp),
                    Some(flag) if flag == "--stdio" => Ok(Command::Lsp),
                    Some(extra) => Err(format!("unexpected argument '{extra}' after lsp")),
                };
            }
            "--" => return program(emit_bytecode, rest),
            s if s.starts_with('-') => return Err(format!("unknown option '{s}'")),
            s if looks_like_program(s) => return program_args(emit_bytecode, arg, rest),
            s => return Err(format!("unknown command '{s}'")),
        }
    }
    Err("no program given".to_string())
}

/// True for a word that names a program file rather than a command.
fn looks_like_program(s: &str) -> bool {
    s.ends_with(".f") || s.contains('/') || s.contains(std::path::MAIN_SEPARATOR)
}

/// After `run`: options, then the program path and its arguments.
fn parse_run(
    mut emit_bytecode: bool,
    mut rest: impl Iterator<Item = String>,
) -> Result<Command, String> {
    for arg in rest.by_ref() {
        match arg.as_str() {
            "--emit-bytecode" => emit_bytecode = true,
            "--" => return program(emit_bytecode, rest),
            s if s.starts_with('-') => return Err(format!("unknown option '{s}'")),
            _ => return program_args(emit_bytecode, arg, rest),
        }
    }
    Err("no program given".to_string())
}

/// After a `--`: the next word is the program, whatever it looks like.
fn program(emit_bytecode: bool, mut rest: impl Iterator<Item = String>) -> Result<Command, String> {
    let path = rest.next().ok_or("no program given")?;
    Ok(Command::Run {
        path,
        args: rest.collect(),
        emit_bytecode,
    })
}

/// After the program path: leading `--emit-bytecode`s and one `--` are
/// festina's, the rest is the program's.
fn program_args(
    mut emit_bytecode: bool,
    path: String,
    rest: impl Iterator<Item = String>,
) -> Result<Command, String> {
    let mut rest = rest.peekable();
    while rest.next_if(|a| a == "--emit-bytecode").is_some() {
        emit_bytecode = true;
    }
    rest.next_if(|a| a == "--");
    Ok(Command::Run {
        path,
        args: rest.collect(),
        emit_bytecode,
    })
}

/// After `check`: exactly one program path.
fn parse_check(mut rest: impl Iterator<Item = String>) -> Result<Command, String> {
    let path = rest.next().ok_or("no program given to check")?;
    if path.starts_with('-') {
        return Err(format!("unknown option '{path}' for check"));
    }
    match rest.next() {
        Some(extra) => Err(format!(
            "unexpected argument '{extra}' after the program to check"
        )),
        None => Ok(Command::Check { path }),
    }
}

/// After `compile`: one program path and at most one `-o <out>` (also
/// `-o<out>`, `--output <out>`, `--output=<out>`), in either order; a `--`
/// makes the next word the program whatever it looks like.
fn parse_compile(mut rest: impl Iterator<Item = String>) -> Result<Command, String> {
    let mut path: Option<String> = None;
    let mut output: Option<String> = None;
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "-o" | "--output" => {
                let value = rest.next().ok_or("-o needs a file name")?;
                set_once(&mut output, value)?;
            }
            "--" => {
                let program = rest.next().ok_or("no program given to compile")?;
                set_program(&mut path, program)?;
            }
            s if s.starts_with("--output=") => {
                set_once(&mut output, s["--output=".len()..].to_string())?
            }
            s if s.starts_with("-o") => set_once(&mut output, s[2..].to_string())?,
            s if s.starts_with('-') => return Err(format!("unknown option '{s}' for compile")),
            _ => set_program(&mut path, arg)?,
        }
    }
    let path = path.ok_or("no program given to compile")?;
    Ok(Command::Compile { path, output })
}

/// After `test`: `--filter NAME` (also `--filter=NAME`) before or right
/// after the path, the path, then the program's arguments (after an
/// optional `--`).
fn parse_test(mut rest: impl Iterator<Item = String>) -> Result<Command, String> {
    let mut path: Option<String> = None;
    let mut filter: Option<String> = None;
    let mut args = Vec::new();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--filter" => {
                let value = rest.next().ok_or("--filter needs a name")?;
                set_filter(&mut filter, value)?;
            }
            s if s.starts_with("--filter=") => {
                set_filter(&mut filter, s["--filter=".len()..].to_string())?
            }
            "--" => {
                if path.is_none() {
                    path = Some(rest.next().ok_or("no program given to test")?);
                }
                args.extend(rest.by_ref());
            }
            s if s.starts_with('-') && path.is_none() => {
                return Err(format!("unknown option '{s}' for test"))
            }
            _ if path.is_none() => path = Some(arg),
            _ => {
                args.push(arg);
                args.extend(rest.by_ref());
            }
        }
    }
    let path = path.ok_or("no program given to test")?;
    Ok(Command::Test { path, filter, args })
}

/// After `fmt`: `--check` anywhere, then files, directories or `-`
/// (after a `--`, every word is a path).
fn parse_fmt(mut rest: impl Iterator<Item = String>) -> Result<Command, String> {
    let mut check = false;
    let mut paths = Vec::new();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--check" => check = true,
            "--" => paths.extend(rest.by_ref()),
            "-" => paths.push(arg),
            s if s.starts_with('-') => return Err(format!("unknown option '{s}' for fmt")),
            _ => paths.push(arg),
        }
    }
    if paths.is_empty() {
        return Err("no file or directory given to fmt".to_string());
    }
    Ok(Command::Fmt { check, paths })
}

/// Record the `--filter` value; an empty or second one is an error.
fn set_filter(filter: &mut Option<String>, value: String) -> Result<(), String> {
    if value.is_empty() {
        return Err("--filter needs a name".to_string());
    }
    if filter.is_some() {
        return Err("--filter given more than once".to_string());
    }
    *filter = Some(value);
    Ok(())
}

/// Record the `-o` value; an empty or second one is an error.
fn set_once(output: &mut Option<String>, value: String) -> Result<(), String> {
    if value.is_empty() {
        return Err("-o needs a file name".to_string());
    }
    if output.is_some() {
        return Err("-o given more than once".to_string());
    }
    *output = Some(value);
    Ok(())
}

/// Record the program to compile; a second one is an error.
fn set_program(path: &mut Option<String>, program: String) -> Result<(), String> {
    if let Some(first) = path {
        return Err(format!(
            "unexpected argument '{program}' after the program to compile ('{first}')"
        ));
    }
    *path = Some(program);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Command, String> {
        parse(args.iter().map(|s| s.to_string()).collect())
    }

    fn run(path: &str, args: &[&str], emit_bytecode: bool) -> Result<Command, String> {
        Ok(Command::Run {
            path: path.into(),
            args: args.iter().map(|s| s.to_string()).collect(),
            emit_bytecode,
        })
    }

    #[test]
    fn program_with_arguments() {
        assert_eq!(p(&["app.f", "a", "-x"]), run("app.f", &["a", "-x"], false));
        assert_eq!(p(&["run", "app", "a"]), run("app", &["a"], false));
        assert_eq!(p(&["dir/app", "a"]), run("dir/app", &["a"], false));
    }

    #[test]
    fn emit_bytecode_before_the_program_arguments() {
        assert_eq!(p(&["app.f", "--emit-bytecode"]), run("app.f", &[], true));
        assert_eq!(
            p(&["--emit-bytecode", "app.f", "x"]),
            run("app.f", &["x"], true)
        );
        assert_eq!(
            p(&["run", "--emit-bytecode", "app.f"]),
            run("app.f", &[], true)
        );
        assert_eq!(
            p(&["app.f", "x", "--emit-bytecode"]),
            run("app.f", &["x", "--emit-bytecode"], false)
        );
        assert_eq!(
            p(&["app.f", "--", "--emit-bytecode"]),
            run("app.f", &["--emit-bytecode"], false)
        );
    }

    #[test]
    fn commands_and_flags() {
        assert_eq!(
            p(&["check", "app.f"]),
            Ok(Command::Check {
                path: "app.f".into()
            })
        );
        assert_eq!(p(&["help"]), Ok(Command::Help));
        assert_eq!(p(&["-h"]), Ok(Command::Help));
        assert_eq!(p(&["--help"]), Ok(Command::Help));
        assert_eq!(p(&["--version"]), Ok(Command::Version));
    }

    #[test]
    fn compile_with_output_before_or_after() {
        let c = |path: &str, output: Option<&str>| {
            Ok(Command::Compile {
                path: path.into(),
                output: output.map(str::to_string),
            })
        };
        assert_eq!(p(&["compile", "app.f"]), c("app.f", None));
        assert_eq!(
            p(&["compile", "app.f", "-o", "out"]),
            c("app.f", Some("out"))
        );
        assert_eq!(
            p(&["compile", "-o", "out", "app.f"]),
            c("app.f", Some("out"))
        );
        assert_eq!(p(&["compile", "-oout", "app.f"]), c("app.f", Some("out")));
        assert_eq!(
            p(&["compile", "--output=o", "app.f"]),
            c("app.f", Some("o"))
        );
        assert_eq!(p(&["compile", "--output", "o", "a"]), c("a", Some("o")));
        assert_eq!(
            p(&["compile", "-o", "o", "--", "-x.f"]),
            c("-x.f", Some("o"))
        );
    }

    #[test]
    fn test_command() {
        let t = |path: &str, filter: Option<&str>, args: &[&str]| {
            Ok(Command::Test {
                path: path.into(),
                filter: filter.map(str::to_string),
                args: args.iter().map(|s| s.to_string()).collect(),
            })
        };
        assert_eq!(p(&["test", "a_test.f"]), t("a_test.f", None, &[]));
        assert_eq!(p(&["test", "tests/"]), t("tests/", None, &[]));
        assert_eq!(
            p(&["test", "--filter", "math", "a.f"]),
            t("a.f", Some("math"), &[])
        );
        assert_eq!(
            p(&["test", "a.f", "--filter=math", "x"]),
            t("a.f", Some("math"), &["x"])
        );
        assert_eq!(
            p(&["test", "a.f", "--", "--filter", "y"]),
            t("a.f", None, &["--filter", "y"])
        );
        assert!(p(&["test"]).is_err());
        assert!(p(&["test", "--filter"]).is_err());
        assert!(p(&["test", "--bogus", "a.f"]).is_err());
        assert!(p(&["test", "--filter", "a", "--filter", "b", "x.f"]).is_err());
    }

    #[test]
    fn usage_errors() {
        assert!(p(&[]).is_err());
        assert!(p(&["compile"]).is_err());
        assert!(p(&["compile", "-o", "out"]).is_err());
        assert!(p(&["compile", "app.f", "-o"]).is_err());
        assert!(p(&["compile", "app.f", "-o", "a", "-o", "b"]).is_err());
        assert!(p(&["compile", "app.f", "b.f"]).is_err());
        assert!(p(&["compile", "--bogus", "app.f"]).is_err());
        assert!(p(&["--emit-bytecode", "compile", "app.f"]).is_err());
        assert!(p(&["--bogus", "app.f"]).is_err());
        assert!(p(&["check"]).is_err());
        assert!(p(&["check", "a.f", "b.f"]).is_err());
        assert!(p(&["--emit-bytecode", "check", "a.f"]).is_err());
        assert!(p(&["run"]).is_err());
    }

    #[test]
    fn fmt_and_lsp() {
        let fmt = |check: bool, paths: &[&str]| {
            Ok(Command::Fmt {
                check,
                paths: paths.iter().map(|s| s.to_string()).collect(),
            })
        };
        assert_eq!(p(&["fmt", "a.f", "dir"]), fmt(false, &["a.f", "dir"]));
        assert_eq!(p(&["fmt", "a.f", "--check"]), fmt(true, &["a.f"]));
        assert_eq!(p(&["fmt", "--check", "-"]), fmt(true, &["-"]));
        assert_eq!(p(&["fmt", "--", "--odd.f"]), fmt(false, &["--odd.f"]));
        assert!(p(&["fmt"]).is_err());
        assert!(p(&["fmt", "--check"]).is_err());
        assert!(p(&["fmt", "--write", "a.f"]).is_err());
        assert_eq!(p(&["lsp"]), Ok(Command::Lsp));
        assert_eq!(p(&["lsp", "--stdio"]), Ok(Command::Lsp));
        assert!(p(&["lsp", "x"]).is_err());
    }
}
