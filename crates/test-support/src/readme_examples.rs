//! The README's examples, read from README.md itself: each command of a
//! `sh` block whose comment, or whose printed lines below it (`# ...`),
//! give figures, with those figures. The tests of both binaries
//! (tests/readme.rs, crates/moo/tests/readme.rs) run the quick ones and
//! check that every figure is printed: a README that drifts from what the
//! commands print fails them.

/// One example: the line of README.md, the command, the figures claimed.
#[derive(Debug, Clone)]
pub struct Example {
    /// 1-based line of README.md.
    pub line: usize,
    /// The command as written (optional parts in `[...]` left out).
    pub command: String,
    /// The figures its comment and its printed lines give.
    pub figures: Vec<String>,
}

/// The README's text.
pub fn readme() -> String {
    std::fs::read_to_string(format!("{}/README.md", workspace())).unwrap()
}

/// The figures of `text`: its words that are numbers (`5625`, `4.3403`,
/// `400633/559872`), punctuation around them dropped. `5th`, `moo:4x10`
/// and `0123:0A1B` are not figures.
pub fn figures(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || c == '=')
        .map(|w| w.trim_matches(|c: char| "()[],;:'\"".contains(c)))
        .filter(|w| {
            !w.is_empty()
                && w.starts_with(|c: char| c.is_ascii_digit())
                && w.ends_with(|c: char| c.is_ascii_digit())
                && w.chars()
                    .all(|c| c.is_ascii_digit() || c == '.' || c == '/')
        })
        .map(String::from)
        .collect()
}

/// Every example of `program` (`optimoo` or `moo`) in the README's `sh`
/// blocks that claims a figure the command does not take as an argument.
pub fn examples(program: &str) -> Vec<Example> {
    let text = readme();
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut in_sh = false;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("```") {
            in_sh = !in_sh && line.trim() == "```sh";
            continue;
        }
        let Some(rest) = line.strip_prefix(program).filter(|r| r.starts_with(' ')) else {
            continue;
        };
        if !in_sh {
            continue;
        }
        let (command, comment) = match rest.find(" # ") {
            Some(at) => (&rest[..at], &rest[at + 3..]),
            None => (rest, ""),
        };
        // Optional parts, `[--seat second]`, are left out.
        let mut plain = String::new();
        let mut depth = 0;
        for c in command.chars() {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                _ if depth == 0 => plain.push(c),
                _ => {}
            }
        }
        let mut claimed = comment.to_string();
        for below in lines[i + 1..].iter().take_while(|l| l.starts_with("# ")) {
            claimed.push('\n');
            claimed.push_str(&below[2..]);
        }
        let given = figures(&plain);
        let figures: Vec<String> = figures(&claimed)
            .into_iter()
            .filter(|f| !given.contains(f))
            .collect();
        if !figures.is_empty() {
            found.push(Example {
                line: i + 1,
                command: plain.split_whitespace().collect::<Vec<_>>().join(" "),
                figures,
            });
        }
    }
    found
}

/// The arguments of an example's command (no shell: quotes only).
pub fn arguments(command: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in command.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !word.is_empty() {
                    args.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        args.push(word);
    }
    args
}

/// The figures of `example` that `printed` (stdout and stderr) does not
/// show as a word.
pub fn missing(example: &Example, printed: &str) -> Vec<String> {
    let shown = figures(printed);
    example
        .figures
        .iter()
        .filter(|f| !shown.contains(f))
        .cloned()
        .collect()
}

/// Runs the examples of `program` (the binary `bin`) whose command contains
/// none of `skip`'s patterns, in the workspace's folder (data/ is there),
/// the file or folder of `-o` moved to a scratch folder; the exit code
/// counts as printed (`exit code 2`). Each skip
/// pattern must still match an example (else it is stale), and at least
/// `least` examples must run. Panics with every example that drifted.
pub fn check(program: &str, bin: &str, skip: &[(&str, &str)], least: usize) {
    let all = examples(program);
    let root = std::path::Path::new(&workspace()).to_path_buf();
    let mut drifted = Vec::new();
    let mut ran = 0;
    for (pattern, _why) in skip {
        assert!(
            all.iter().any(|e| skipped(&e.command, pattern)),
            "no README example matches the skip pattern {pattern:?}: remove it"
        );
    }
    for e in &all {
        if skip.iter().any(|(p, _)| skipped(&e.command, p)) {
            continue;
        }
        let mut args = arguments(&e.command);
        // `-o PATH` writes into a scratch folder of its own instead.
        if let Some(o) = args.iter().position(|a| a == "-o") {
            let scratch = std::env::temp_dir()
                .join(format!("optimoo-readme-{}", std::process::id()))
                .join(format!("line-{}", e.line));
            let _ = std::fs::remove_dir_all(&scratch);
            std::fs::create_dir_all(&scratch).unwrap();
            if let Some(value) = args.get_mut(o + 1) {
                let name = std::path::Path::new(value.as_str())
                    .file_name()
                    .map_or("out".into(), |n| n.to_string_lossy().into_owned());
                *value = scratch.join(name).display().to_string();
            }
        }
        let started = std::time::Instant::now();
        let out = std::process::Command::new(bin)
            .args(&args)
            .current_dir(&root)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        // The exit code is printed too ("exit code 2").
        let printed = format!(
            "{}{}exit code {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
            out.status.code().unwrap_or(-1)
        );
        eprintln!(
            "README.md:{}: {program} {} ({:.2} s)",
            e.line,
            e.command,
            started.elapsed().as_secs_f64()
        );
        ran += 1;
        let gone = missing(e, &printed);
        if !gone.is_empty() {
            drifted.push(format!(
                "README.md:{}: `{program} {}` does not print {gone:?}:\n{printed}",
                e.line, e.command
            ));
        }
    }
    assert!(drifted.is_empty(), "{}", drifted.join("\n"));
    assert!(ran >= least, "only {ran} examples of {program} ran");
}

/// The folder of README.md: the workspace's, two folders above this
/// crate's (crates/test-support).
pub fn workspace() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../..").to_string()
}

/// Whether `pattern` skips `command`: `=COMMAND` the command itself, else
/// any command that contains the pattern.
pub fn skipped(command: &str, pattern: &str) -> bool {
    match pattern.strip_prefix('=') {
        Some(exact) => command == exact,
        None => command.contains(pattern),
    }
}
