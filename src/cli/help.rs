//! The long help of `optimoo` (`--help`; `-h` is the short one, as in
//! ripgrep and cargo): what the command does in a few paragraphs, and the
//! examples each subcommand's `--help` ends with.
//!
//! Invariants: every subcommand's short help (`about`, the first line of
//! its `Args` doc comment) is one line, so the list of `optimoo -h` and
//! `optimoo --help` gives each subcommand one line; every example here is
//! a quick command (seconds at most) that works when run from the
//! workspace's folder (data/ is there): tests/help.rs runs them all, the
//! files of `-o` moved to a scratch folder.

/// The first line of `optimoo -h` and `optimoo --help`.
pub const ABOUT: &str = "Optimal and heuristic strategies for Bulls and Cows and Mastermind";

/// What `optimoo --help` says before the subcommands.
pub const LONG_ABOUT: &str = "\
Optimal and heuristic strategies for Bulls and Cows and Mastermind.

A game is named by its shape: moo:KxN is a secret of K different symbols
out of N (moo:4x10 is Bulls and Cows, the default), mm:KxN lets a symbol
repeat (mm:4x6 is Mastermind). solve computes a provably optimal decision
tree by exhaustive search; eval plays the classic heuristics over every
secret; verify replays every secret of a tree file; export writes a tree
as JSON, dot, a tree file or an HTML page; the moo player plays the trees.

Each subcommand's --help says what it does, lists its options and gives
examples; -h is the short form. Exit codes: 0 done, 1 a negative answer
(no strategy within the cap, a tree that fails verification), 2 an error
(bad input, an unreadable file).";

/// The examples of `optimoo --help`.
pub const OPTIMOO: &str = "\
Examples:
  optimoo solve --game mm:4x6                    # Mastermind, no cap: 5625 (4.3403)
  optimoo eval --game moo:4x10 --strategy minimax
  optimoo partition --game moo:4x10 --guess 0123 # classes of a guess
  optimoo export data/mm-4x6.tree --format html -o mm.html   # then open mm.html";

/// `optimoo partition --help`.
pub const PARTITION: &str = "\
Examples:
  optimoo partition --game moo:4x10 --guess 0123          # classes of a guess
  optimoo partition --guess 0397 0123:0A1B 1456:1A1B      # after a history
  optimoo partition 0123:0A1B 1456:1A1B --list left.txt   # and the list: solve --secrets left.txt";

/// `optimoo verify --help`.
pub const VERIFY: &str = "\
Examples:
  optimoo verify data/mm-4x6.tree data/moo-4x10-cap7.tree
  optimoo verify data/words4.tree --secrets data/words4.txt --alphabet aeilnoprst
  optimoo verify --game mm:4x6 --static \"0012 1334 2153 2541 3424 5140\"";

/// `optimoo eval --help`.
pub const EVAL: &str = "\
Examples:
  optimoo eval --game moo:4x10 --strategy minimax
  optimoo eval --game mm:4x6 --first 0012        # Mastermind from 0012
  optimoo eval --strategy random --seed 42 --json";

/// `optimoo export --help`.
pub const EXPORT: &str = "\
Examples:
  optimoo export --game mm:4x6 --strategy kooi --first 0012      # to standard output
  optimoo export data/mm-4x6.tree --format json                  # a tree file as JSON
  optimoo export data/mm-4x6.tree --format html -o mm.html       # then open mm.html
  optimoo export data/moo-4x10-cap7.tree data/mm-4x6.tree --format html -o games.html";

/// `optimoo solve --help`.
pub const SOLVE: &str = "\
Examples:
  optimoo solve --game mm:4x6                    # Mastermind, no cap: 5625 (4.3403)
  optimoo solve --game mm:4x6 --cap 5            # within 5 guesses: 5626
  optimoo solve --game mm:4x6 --objective worst  # 5 guesses always suffice, 4 refuted
  optimoo solve --game mm:4x6 --cap 5 -o mm-4x6-cap5.tree   # save the tree
  optimoo solve --game moo:3x6 --json            # one JSON object
  optimoo solve --game mm:4x6 --below 5626       # decided under a cut-off: 5625, fast";

/// `optimoo plan --help`.
pub const PLAN: &str = "\
Examples:
  optimoo plan --game mm:4x6 -o run/             # run/plan.json: 52 units
  optimoo work run/ --all                        # every missing unit, all cores
  optimoo merge run/ -o mm-4x6.tree              # solve's summary and tree";

/// `optimoo work --help`.
pub const WORK: &str = "\
Examples:
  optimoo plan --game mm:4x6 -o run/             # run/plan.json: 52 units
  optimoo work run/ --unit 7                     # run/units/7.json
  optimoo work run/ --all                        # every missing unit, all cores
  optimoo work run/ --unit 3 --time-limit 60     # stopped: resumes (progress/, memo/)";

/// `optimoo merge --help`.
pub const MERGE: &str = "\
Examples:
  optimoo plan --game mm:4x6 -o run/ && optimoo work run/ --all
  optimoo merge run/ -o mm-4x6.tree              # solve's summary and tree
  optimoo merge run/ --audit 1 -o mm-4x6.tree    # every unit re-solved first";

/// `optimoo status --help`.
pub const STATUS: &str = "\
Examples:
  optimoo plan --game mm:4x6 -o run/ && optimoo work run/ --unit 7
  optimoo status run/                            # units done, time spent, bounds
  optimoo status run/ --units                    # each unit: state, lower bound
  optimoo status data/runs/moo-5x10 --kept-at 01234:0A2B 12567:0A3B   # guesses refuted there";

/// `optimoo improve --help`.
pub const IMPROVE: &str = "\
Examples:
  optimoo improve --game mm:4x6 -o better.tree --time-budget 2
  optimoo improve --game moo:3x10 --from data/moo-3x10.tree -o better.tree --time-budget 2";

/// `optimoo duel --help`.
pub const DUEL: &str = "\
Examples:
  optimoo duel --game mm:3x4 --rule first-wins -o eq-duel/   # the equilibrium
  optimoo duel --check eq-duel/                  # its value proven again
  optimoo duel --rule first-wins --against data/mm-4x6.tree --seat second";

/// `optimoo nash --help`.
pub const NASH: &str = "\
Examples:
  optimoo nash --game mm:3x4 -o eq/              # the value and both mixtures
  optimoo nash --check eq/                       # re-derived from the files";

/// `optimoo static --help`.
pub const STATIC: &str = "\
Examples:
  optimoo static --game mm:3x4 -o mm34.static    # the size, proven minimal
  optimoo verify mm34.static";

/// `optimoo serve --help`: the examples run `--check` (read the trees,
/// bind, exit); serving itself runs until stopped.
pub const SERVE: &str = "\
Examples:
  optimoo serve --check --bind 127.0.0.1:0       # the shipped trees, any free port
  optimoo serve --check --bind 127.0.0.1:0 data/mm-4x6.tree --budget 1

Then, to serve until Ctrl-C, and ask from another terminal:
  optimoo serve                                  # http://127.0.0.1:8080/
  curl 'http://127.0.0.1:8080/api/rank?history=0123:0A2B,4567:1A0B&top=3'
  curl 'http://127.0.0.1:8080/api/analyze?game=mm:4x6&history=0011:1A1B+2345:0A2B'
  curl 'http://127.0.0.1:8080/api/duel?game=mm:4x6&rule=first-wins&seat=first&mine=0011:1A0B&theirs=0012:0A1B'";
