//! The help of both binaries read back: `-h` (the short help) against
//! `--help` (the long one, with examples), the list of subcommands (one
//! line each), and the examples `--help` ends with, run as written.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::readme_examples::{arguments, workspace};

/// Widest line a subcommand may take in a `Commands:` list.
pub const LIST_WIDTH: usize = 80;

/// `bin ARGS` with `quit` for input: exit code, stdout, stderr.
fn output(bin: &str, args: &[&str], cwd: Option<&Path>) -> (i32, String, String) {
    use std::io::Write;
    let mut cmd = Command::new(bin);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    let mut child = cmd.spawn().unwrap();
    // A command that reads no input may be gone already: ignore the error.
    let _ = child.stdin.take().unwrap().write_all(b"quit\n");
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The help `bin ARGS FLAG` prints (exit code 0).
pub fn help(bin: &str, args: &[&str], flag: &str) -> String {
    let all: Vec<&str> = args.iter().copied().chain([flag]).collect();
    let (code, out, err) = output(bin, &all, None);
    assert_eq!(code, 0, "{all:?}: {err}");
    out
}

/// The lines of the `Commands:` list of a help text (none if it has none).
pub fn command_lines(help: &str) -> Vec<&str> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .collect()
}

/// Each subcommand of a `Commands:` list with its one-line summary.
/// Panics unless every line of the list is a name at the indent, then its
/// summary, within [`LIST_WIDTH`] columns.
pub fn subcommands(help: &str) -> Vec<(String, String)> {
    command_lines(help)
        .into_iter()
        .map(|line| {
            assert!(
                line.starts_with("  ") && !line.starts_with("   "),
                "not one line a subcommand: {line:?}\n{help}"
            );
            assert!(
                line.chars().count() <= LIST_WIDTH,
                "over {LIST_WIDTH} columns: {line:?}"
            );
            let line = line.trim_start();
            let (name, summary) = line.split_once(' ').unwrap_or((line, ""));
            let summary = summary.trim();
            assert!(!summary.is_empty(), "{name} has no summary: {help}");
            (name.to_string(), summary.to_string())
        })
        .collect()
}

/// The examples of a help text: the commands after `Examples:`, their
/// comments left out.
pub fn examples(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Examples:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| match l.find(" # ") {
            Some(at) => l[..at].trim().to_string(),
            None => l.trim().to_string(),
        })
        .collect()
}

/// Checks `bin ARGS -h` against `bin ARGS --help`: they differ, the long
/// one is longer, the short one has no examples; a `Commands:` list, in
/// both, gives each subcommand one line, the same in both; the first line
/// of `-h` is the summary the parent's list gives. Returns the long
/// help's examples (the caller says whether there must be some).
pub fn short_and_long(bin: &str, args: &[&str]) -> Vec<String> {
    let short = help(bin, args, "-h");
    let long = help(bin, args, "--help");
    assert_ne!(short, long, "{args:?}: -h and --help are the same");
    assert!(
        long.len() > short.len(),
        "{args:?}: -h is the longer:\n{short}"
    );
    assert!(!short.contains("Examples:"), "{args:?} -h:\n{short}");
    let examples = examples(&long);
    assert_eq!(subcommands(&short), subcommands(&long), "{args:?}");
    // The first line of -h is the summary the parent's list shows.
    if let Some((parent, name)) = args.split_last().map(|(n, p)| (p, n)) {
        let listed = subcommands(&help(bin, parent, "-h"));
        let (_, summary) = listed.iter().find(|(n, _)| n == name).unwrap();
        assert_eq!(short.lines().next().unwrap().trim(), summary, "{args:?}");
    }
    examples
}

/// Runs `examples` (commands of `program`, the binary `bin`; `A && B` runs
/// both) in the workspace's folder, as a user would, and panics with every
/// one that does not exit with 0. Each file or folder an example writes
/// with `-o` (or `--list`) is put in a scratch folder instead, and later examples that
/// name it read it there (`plan -o run/`, then `work run/`). The input is
/// `quit`: an interactive command ends at once.
pub fn run_examples(program: &str, bin: &str, examples: &[String], scratch: &Path) {
    std::fs::create_dir_all(scratch).unwrap();
    let mut moved: HashMap<String, PathBuf> = HashMap::new();
    let mut failed = Vec::new();
    for example in examples {
        for command in example.split(" && ") {
            let words = arguments(command);
            assert_eq!(
                words.first().map(String::as_str),
                Some(program),
                "{command}"
            );
            let mut args: Vec<String> = Vec::new();
            for word in &words[1..] {
                let word = if args.last().is_some_and(|a| a == "-o" || a == "--list") {
                    let path = scratch.join(word.trim_end_matches('/'));
                    moved.insert(word.clone(), path.clone());
                    path.to_str().unwrap().to_string()
                } else {
                    moved
                        .get(word)
                        .map_or(word.clone(), |p| p.to_str().unwrap().to_string())
                };
                args.push(word);
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, out, err) = output(bin, &args, Some(Path::new(&workspace())));
            if code != 0 {
                failed.push(format!("`{command}`: exit code {code}\n{out}{err}"));
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
