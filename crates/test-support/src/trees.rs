//! Trees made for the tests: a simple deterministic strategy and random
//! valid trees, built independently of the library's strategies.

use optimoo::model::partition;
use optimoo::model::{Code, Game};
use optimoo::tree::{Node, Tree};

/// The tree that always guesses the smallest candidate.
pub fn first_consistent(game: &Game) -> Tree {
    fn node(game: &Game, set: &[Code]) -> Node {
        let guess = set[0];
        let children = partition::split(game, guess, set)
            .into_iter()
            .filter(|(f, _)| *f != game.win())
            .map(|(f, class)| (f, node(game, &class)))
            .collect();
        Node { guess, children }
    }
    Tree {
        rules: game.rules(),
        root: node(game, &game.all_codes()),
    }
}

/// A random valid tree driven by `choices` (read in turn, cycled): guesses
/// are candidates, any code, or (once a path) a guess that does not split
/// its set, including a one-secret node that guesses another code.
pub fn random_tree(game: &Game, choices: &[u32]) -> Tree {
    struct Gen<'a> {
        game: &'a Game,
        choices: &'a [u32],
        next: usize,
    }
    impl Gen<'_> {
        fn choice(&mut self) -> u32 {
            if self.choices.is_empty() {
                return 0;
            }
            let c = self.choices[self.next % self.choices.len()];
            self.next += 1;
            c
        }
        fn node(&mut self, set: &[Code], wasted: bool) -> Node {
            let c = self.choice();
            let n = self.game.len();
            let candidate = set[(c as usize / 4) % set.len()];
            let any = Code(((c as usize / 4) % n) as u16);
            let (guess, waste) = match c % 4 {
                2 => (any, true),
                3 if set.len() == 1 => (
                    Code(((set[0].index() + 1 + (c as usize / 4) % (n - 1).max(1)) % n) as u16),
                    true,
                ),
                _ => (candidate, false),
            };
            let classes = partition::split(self.game, guess, set);
            let splits = classes.len() > 1 || set.binary_search(&guess).is_ok();
            let (guess, classes, wasted) = if !waste || splits {
                (guess, classes, wasted)
            } else if !wasted {
                (guess, classes, true)
            } else {
                (
                    candidate,
                    partition::split(self.game, candidate, set),
                    wasted,
                )
            };
            let children = classes
                .into_iter()
                .filter(|(f, _)| *f != self.game.win())
                .map(|(f, class)| (f, self.node(&class, wasted)))
                .collect();
            Node { guess, children }
        }
    }
    let mut gen = Gen {
        game,
        choices,
        next: 0,
    };
    Tree {
        rules: game.rules(),
        root: gen.node(&game.all_codes(), false),
    }
}

/// A fresh path under cargo's scratch directory for integration tests
/// (`target/tmp/optimoo-tests/`, what `CARGO_TARGET_TMPDIR` names: found
/// from the test binary's own path, `target/PROFILE/deps/NAME`, since that
/// variable is set for the tests' crates and not for this one), the
/// process id in its name.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = target_tmpdir().join("optimoo-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{}-{name}", std::process::id()))
}

/// `target/tmp` of the running test binary (`target/PROFILE/deps/NAME`,
/// or `target/TRIPLE/PROFILE/deps/NAME` under `--target`); the system's
/// temporary folder for a binary found elsewhere.
fn target_tmpdir() -> std::path::PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().filter(|d| d.ends_with("deps"));
    match deps.and_then(|d| d.parent()).and_then(|p| p.parent()) {
        Some(target) => target.join("tmp"),
        None => std::env::temp_dir(),
    }
}

/// Writes the first-consistent tree of `game` to a scratch file.
pub fn first_consistent_file(game: &Game, name: &str) -> (Tree, std::path::PathBuf) {
    let tree = first_consistent(game);
    let path = scratch(name);
    let file = optimoo::tree::format::TreeFile::new(
        game,
        tree.clone(),
        optimoo::model::Objective::Heuristic,
        None,
    )
    .unwrap();
    std::fs::write(&path, file.to_bytes(game).unwrap()).unwrap();
    (tree, path)
}

/// Runs a binary with arguments and standard input; returns the exit code,
/// stdout and stderr.
pub fn run(bin: &str, args: &[&str], stdin: &str) -> (i32, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A child that exits early may close its input: ignore write errors.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// [`run`] with the process's address space capped at `gib` GiB (`ulimit
/// -v`, by sh): an allocation above it fails, so a command that would grow
/// past the cap aborts instead of refusing or answering. Also the seconds
/// the run took.
pub fn run_capped(bin: &str, args: &[&str], stdin: &str, gib: u64) -> (i32, String, String, f64) {
    let script = format!("ulimit -v {} && exec \"$@\"", gib << 20);
    let all: Vec<&str> = ["-c", script.as_str(), "sh", bin]
        .into_iter()
        .chain(args.iter().copied())
        .collect();
    let start = std::time::Instant::now();
    let (code, out, err) = run("sh", &all, stdin);
    (code, out, err, start.elapsed().as_secs_f64())
}
