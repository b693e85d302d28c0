//! `optimoo serve`: one HTML page of every tree (rendered `served`: it may
//! ask this server, and does, for hints and reviews) and a JSON API over
//! the library the `moo` player uses ([`optimoo::play::api`]).
//!
//! Invariants:
//! - the trees are read once, at start, from the files named on the
//!   command line (default: data/moo-4x10-cap7.tree and data/mm-4x6.tree);
//!   nothing a client sends reaches the file system: a game is looked up
//!   among the trees read, or (without a tree, at most
//!   [`MAX_UNTREED_CODES`] codes) made in memory;
//! - every request is bounded: its head by [`crate::cli::http`], its
//!   history by [`optimoo::play::api::MAX_MOVES`], its search by
//!   `--budget` (for `analyze` one deadline, each move an equal share of
//!   the time left), and the searches
//!   at once by `--max-searches` (one more is answered 503);
//! - every answer is JSON (the page aside), an error `{"error": "..."}`
//!   with a 4xx status for bad input; a panic in a request (a bug) is
//!   answered 500 and the server goes on;
//! - `/api/duel` answers the person's chance in a race against a tree of
//!   the equilibrium found beside a served tree ([`crate::cli::page::duels_beside`],
//!   read at start), by [`optimoo::play::chance`]: no search, `O(m²)`
//!   feedbacks for the `m` secrets left, counted among the searches.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use optimoo::model::{Game, Rules};
use optimoo::play::api::{self, ApiError};
use optimoo::play::player::{self, Player};
use optimoo::play::rank::Advisor;
use optimoo::tree::format::TreeFile;

use crate::cli::http::{self, Answer, Request};

/// Games with no tree file given are answered up to this many codes
/// (moo:4x10's 5040; their feedback table is then at most 25 MB a search).
pub const MAX_UNTREED_CODES: usize = 5040;

/// The trees served when none is named.
const DEFAULT_TREES: [&str; 2] = ["data/moo-4x10-cap7.tree", "data/mm-4x6.tree"];

/// Serve the tree pages and a JSON API: exact hints and analysis
///
/// Serve one HTML page of every tree (`optimoo export TREE... --format
/// html`, which asks this server for exact hints and reviews) and a JSON
/// API over the library the moo player uses:
///
///   GET /                 the page (?game=G: showing G's game first)
///   GET /api/next         the best next move: [{"guess", "source", "left", "line"}]
///   GET /api/rank         the best guesses with their values: the lines of
///                         `moo rank --json`, one JSON array (?top=N, default 10)
///   GET /api/analyze      each move judged: the lines of `moo analyze --json`
///   GET /api/duel         the chance to win a race against the equilibrium:
///                         {"low", "high", "exact", ...} (rule, seat: yours,
///                         pick: the computer's tree, theirs: its moves,
///                         mine: yours, secret: yours if given)
///
/// Each takes game (as --game, default moo:4x10) and history (moves
/// CODE:xAyB separated by spaces or commas, URL-encoded). Games with a tree
/// given here play it (its cap, its exact values); others of up to 5040
/// codes are searched without a tree, larger ones are refused. Bad input is
/// a 4xx JSON {"error": "..."}; a won history answers [] (next, rank); a
/// contradictory one 422.
///
/// Bounds: a request's head 8 KiB and 5 s, no body, a history 64 moves,
/// --budget of search per request (then proven bounds, "exact": false),
/// --max-searches at once (more: 503). It binds 127.0.0.1 (this machine
/// only) by default; --bind 0.0.0.0:8080 serves every network, unrefused:
/// there is no authentication and no TLS.
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment, after_long_help = crate::cli::help::SERVE)]
pub struct Args {
    /// Tree files to serve, at most one a game [default:
    /// data/moo-4x10-cap7.tree data/mm-4x6.tree].
    #[arg(value_name = "TREE")]
    pub trees: Vec<PathBuf>,
    /// The address to listen on (port 0: any free port, printed).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR:PORT")]
    pub bind: SocketAddr,
    /// Seconds of search at most per request (analyze shares them among
    /// its moves); beyond, proven bounds.
    #[arg(long, default_value_t = 2.0, value_name = "SECONDS")]
    pub budget: f64,
    /// Searches at once (next, rank, analyze); one more is answered 503
    /// [default: the number of cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub max_searches: Option<u32>,
    /// Connections handled at once; more wait in a queue of as many, and
    /// beyond are answered 503.
    #[arg(long, default_value_t = 32, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub connections: u32,
    /// Read the trees, bind, print what would be served and exit.
    #[arg(long)]
    pub check: bool,
}

/// A tree read at start: its game and the file.
struct Served {
    game: Game,
    file: TreeFile,
    /// The equilibria of the game's race shipped beside the file.
    duels: Vec<optimoo::tree::html::DuelRule>,
}

/// What every request reads.
struct State {
    trees: Vec<Served>,
    /// The page of every tree, served (it may ask the API).
    page: Vec<u8>,
    budget: Option<Duration>,
    max_searches: usize,
    searches: AtomicUsize,
    /// The searchers' queue: at most `max_searches` jobs are in it or
    /// running (the slots admit no more), so a job never waits.
    jobs: Mutex<mpsc::Sender<Job>>,
}

/// A search handed to the searchers' threads, and where its answer goes.
struct Job {
    /// The served tree's index, or the game made for the request.
    game: Result<usize, Game>,
    endpoint: Endpoint,
    moves: Vec<(optimoo::model::Code, optimoo::model::Feedback)>,
    top: usize,
    reply: mpsc::Sender<Answer>,
}

/// One search counted while it runs.
struct Slot<'a>(&'a AtomicUsize);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl State {
    /// A slot for a search, or `None` when `max_searches` run.
    fn slot(&self) -> Option<Slot<'_>> {
        let before = self.searches.fetch_add(1, Ordering::SeqCst);
        let slot = Slot(&self.searches);
        (before < self.max_searches).then_some(slot)
    }
}

/// Runs `optimoo serve`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.budget.is_nan() || args.budget < 0.0 {
        bail!("--budget takes a number of seconds, 0 or more (inf: no limit)");
    }
    let budget = Duration::try_from_secs_f64(args.budget).ok();
    let paths: Vec<PathBuf> = if args.trees.is_empty() {
        DEFAULT_TREES.iter().map(PathBuf::from).collect()
    } else {
        args.trees.clone()
    };
    let mut trees: Vec<Served> = Vec::new();
    for path in &paths {
        let bytes = optimoo::tree::format::read_file(path)
            .with_context(|| format!("reading {}", path.display()))?;
        let (game, file) =
            player::load(&bytes).with_context(|| format!("reading {}", path.display()))?;
        if trees.iter().any(|t| t.game.rules() == game.rules()) {
            bail!(
                "{}: a second tree of {}; serve gives one tree a game",
                path.display(),
                game.rules()
            );
        }
        let duels = crate::cli::page::duels_beside(path, &game)?;
        trees.push(Served { game, file, duels });
    }
    let listener = TcpListener::bind(args.bind).with_context(|| format!("--bind {}", args.bind))?;
    let addr = listener.local_addr().context("--bind")?;
    let names: Vec<String> = trees.iter().map(|t| t.game.rules().to_string()).collect();
    crate::exit::say(&format!(
        "serving http://{addr}/ ({}; API: /api/next, /api/rank, /api/analyze, /api/duel)",
        names.join(", ")
    ));
    if args.check {
        return Ok(ExitCode::SUCCESS);
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let max_searches = args.max_searches.map_or(cores, |n| n as usize);
    let (jobs, queue) = mpsc::channel::<Job>();
    let read: Vec<(&Game, &TreeFile)> = trees.iter().map(|t| (&t.game, &t.file)).collect();
    let duels: Vec<_> = trees.iter().map(|t| t.duels.clone()).collect();
    let page = crate::cli::page::of_files(&read, &duels, true).into_bytes();
    let state = Arc::new(State {
        trees,
        page,
        budget,
        max_searches,
        searches: AtomicUsize::new(0),
        jobs: Mutex::new(jobs),
    });
    // The searches run on `max_searches` threads of their own, not on the
    // connections' (up to --connections): each thread's allocator keeps
    // what its searches freed for its next one, so the memory the server
    // holds grows with the threads that ever searched (measured: 200
    // connection threads searching took it past 500 MB in a minute;
    // docs/benchmarks.md).
    let queue = Arc::new(Mutex::new(queue));
    for _ in 0..max_searches {
        let queue = Arc::clone(&queue);
        let state = Arc::clone(&state);
        std::thread::Builder::new()
            .name("search".into())
            .spawn(move || loop {
                let job = match queue.lock() {
                    Ok(q) => q.recv(),
                    Err(_) => return,
                };
                let Ok(job) = job else { return };
                let answer =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| search(&state, &job)))
                        .unwrap_or_else(|_| {
                            Answer::error(500, "internal error (a bug): please report it")
                        });
                let _ = job.reply.send(answer);
            })
            .context("starting the server's threads")?;
    }
    let workers = args.connections as usize;
    let (send, receive) = mpsc::sync_channel::<TcpStream>(workers);
    let receive = Arc::new(Mutex::new(receive));
    for _ in 0..workers {
        let receive = Arc::clone(&receive);
        let state = Arc::clone(&state);
        std::thread::Builder::new()
            .name("serve".into())
            .spawn(move || loop {
                let next = match receive.lock() {
                    Ok(r) => r.recv(),
                    Err(_) => return,
                };
                match next {
                    Ok(stream) => connection(&state, stream),
                    Err(_) => return,
                }
            })
            .context("starting the server's threads")?;
    }
    for stream in listener.incoming() {
        let Ok(stream) = stream else {
            // Out of file descriptors, say: wait rather than spin.
            std::thread::sleep(Duration::from_millis(10));
            continue;
        };
        if let Err(mpsc::TrySendError::Full(mut stream)) = send.try_send(stream) {
            let mut busy = Answer::error(503, "the server is busy: try again in a moment");
            busy.headers.push("Retry-After: 1".into());
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            http::write_answer(&mut stream, &busy, false);
        }
    }
    Err(anyhow!("--bind {addr}: the listener stopped"))
}

/// One connection: a request read and answered.
fn connection(state: &State, mut stream: TcpStream) {
    let (answer, head_only) = match http::read_request(&mut stream) {
        Ok(request) => {
            let head_only = request.method == "HEAD";
            let answer =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| route(state, &request)))
                    .unwrap_or_else(|_| {
                        Answer::error(500, "internal error (a bug): please report it")
                    });
            (answer, head_only)
        }
        Err(answer) => (answer, false),
    };
    http::write_answer(&mut stream, &answer, head_only);
}

/// The endpoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Endpoint {
    Next,
    Rank,
    Analyze,
}

/// The answer to a request.
fn route(state: &State, request: &Request) -> Answer {
    let endpoint = match request.path.as_str() {
        "/" | "/index.html" => None,
        "/api/next" => Some(Endpoint::Next),
        "/api/rank" => Some(Endpoint::Rank),
        "/api/analyze" => Some(Endpoint::Analyze),
        "/api/duel" => return duel(state, request),
        _ => {
            return Answer::error(
                404,
                "no such page: / (the page), /api/next, /api/rank, /api/analyze, /api/duel",
            )
        }
    };
    if request.method != "GET" && request.method != "HEAD" {
        let mut answer = Answer::error(405, "only GET (and HEAD) are answered");
        answer.headers.push("Allow: GET, HEAD".into());
        return answer;
    }
    let params = match http::query_pairs(&request.query) {
        Ok(p) => p,
        Err(e) => return Answer::error(400, &e),
    };
    let allowed: &[&str] = match endpoint {
        None => &["game"],
        Some(Endpoint::Rank) => &["game", "history", "top"],
        Some(_) => &["game", "history"],
    };
    let mut game = None;
    let mut history = None;
    let mut top = None;
    for (key, value) in params {
        let seen = match key.as_str() {
            k if !allowed.contains(&k) => {
                return Answer::error(
                    400,
                    &format!(
                        "unknown parameter {:?}: {} takes {}",
                        key.chars().take(40).collect::<String>(),
                        request.path,
                        allowed.join(", ")
                    ),
                )
            }
            "game" => game.replace(value),
            "history" => history.replace(value),
            _ => top.replace(value),
        };
        if seen.is_some() {
            return Answer::error(400, &format!("parameter {key} given twice"));
        }
    }
    let rules: Rules = match game.as_deref().map(str::parse).transpose() {
        Ok(r) => r.unwrap_or_else(Rules::standard),
        Err(e) => return Answer::error(400, &format!("game: {e}")),
    };
    let served = state.trees.iter().find(|t| t.game.rules() == rules);
    let Some(endpoint) = endpoint else {
        // One page of every tree: it shows ?game=G's first.
        return match (served, game.is_some()) {
            (Some(_), _) | (None, false) => Answer::html(state.page.clone()),
            (None, true) => Answer::error(404, &format!("game: no tree of {rules} is served")),
        };
    };
    let top = match top.as_deref().map(str::parse::<usize>).transpose() {
        Ok(t) => t.unwrap_or(10),
        Err(_) => return Answer::error(400, "top: a number of rows, 0 or more (0: all)"),
    };
    let game: Result<usize, Game> = match state.trees.iter().position(|t| t.game.rules() == rules) {
        Some(i) => Ok(i),
        None if rules.code_count() <= MAX_UNTREED_CODES => Err(Game::new(rules)),
        None => {
            return Answer::error(
                400,
                &format!(
                    "game: {rules} has {} codes and no tree is served for it; without a tree \
                     serve answers games of up to {MAX_UNTREED_CODES}",
                    rules.code_count()
                ),
            )
        }
    };
    let parsed = match &game {
        Ok(i) => &state.trees[*i].game,
        Err(made) => made,
    };
    let moves = match api::parse_history(parsed, history.as_deref().unwrap_or("")) {
        Ok(m) => m,
        Err(e @ ApiError::TooLong { .. }) => return Answer::error(413, &e.to_string()),
        Err(e) => return Answer::error(400, &e.to_string()),
    };
    let Some(_slot) = state.slot() else {
        let mut busy = Answer::error(
            503,
            &format!(
                "busy: {} searches are running, the most at once; try again in a moment",
                state.max_searches
            ),
        );
        busy.headers.push("Retry-After: 1".into());
        return busy;
    };
    // The slot is held until the answer comes back.
    let (reply, answer) = mpsc::channel();
    let job = Job {
        game,
        endpoint,
        moves,
        top,
        reply,
    };
    let sent = state.jobs.lock().map(|jobs| jobs.send(job).is_ok());
    match (sent, answer.recv()) {
        (Ok(true), Ok(answer)) => answer,
        _ => Answer::error(
            500,
            "internal error (the searchers stopped): please report it",
        ),
    }
}

/// A job's answer, on a searcher's thread: the search, timed.
fn search(state: &State, job: &Job) -> Answer {
    let (game, file) = match &job.game {
        Ok(i) => (&state.trees[*i].game, Some(&state.trees[*i].file)),
        Err(game) => (game, None),
    };
    let (moves, top) = (&job.moves, job.top);
    let start = Instant::now();
    let answered = match job.endpoint {
        Endpoint::Next => {
            let player = match file {
                Some(f) => match Player::new(game, &f.tree) {
                    Ok(p) => p.with_cap(f.header.cap),
                    Err(e) => return Answer::error(500, &e.to_string()),
                },
                None => Player::without_tree(game),
            };
            api::next(&player, moves)
        }
        Endpoint::Rank => api::rank(
            &Advisor::of_file(game, file),
            moves,
            top,
            state.budget.map(|b| start + b),
        ),
        Endpoint::Analyze => api::analyze(
            &Advisor::of_file(game, file),
            moves,
            state.budget.map(|b| start + b),
        ),
    };
    let mut answer = match answered {
        Ok(lines) => Answer::json(200, api::array(&lines)),
        Err(e @ ApiError::Refused(_)) => Answer::error(422, &e.to_string()),
        Err(e @ ApiError::Unanswerable(_)) => Answer::error(422, &e.to_string()),
        Err(e) => Answer::error(400, &e.to_string()),
    };
    // The time the answer took once its search slot was free (the
    // standard Server-Timing header, in milliseconds): what --budget
    // bounds, read by scripts/serve-load.sh.
    answer.headers.push(format!(
        "Server-Timing: search;dur={:.1}",
        start.elapsed().as_secs_f64() * 1e3
    ));
    answer
}

/// `/api/duel`: the person's chance after complete rounds of a race
/// against the computer's tree `pick` of the equilibrium of `rule` (see the
/// module doc).
fn duel(state: &State, request: &Request) -> Answer {
    use optimoo::play::best_response::{Rule, Seat};
    use optimoo::play::chance;
    if request.method != "GET" && request.method != "HEAD" {
        let mut answer = Answer::error(405, "only GET (and HEAD) are answered");
        answer.headers.push("Allow: GET, HEAD".into());
        return answer;
    }
    let params = match http::query_pairs(&request.query) {
        Ok(p) => p,
        Err(e) => return Answer::error(400, &e),
    };
    const ALLOWED: [&str; 7] = ["game", "rule", "seat", "pick", "theirs", "mine", "secret"];
    let mut got: [Option<String>; 7] = Default::default();
    for (key, value) in params {
        let Some(i) = ALLOWED.iter().position(|k| *k == key) else {
            return Answer::error(
                400,
                &format!(
                    "unknown parameter {:?}: /api/duel takes {}",
                    key.chars().take(40).collect::<String>(),
                    ALLOWED.join(", ")
                ),
            );
        };
        if got[i].replace(value).is_some() {
            return Answer::error(400, &format!("parameter {key} given twice"));
        }
    }
    let [game, rule, seat, pick, theirs, mine, secret] = got;
    let rules: Rules = match game.as_deref().map(str::parse).transpose() {
        Ok(r) => r.unwrap_or_else(Rules::standard),
        Err(e) => return Answer::error(400, &format!("game: {e}")),
    };
    let rule: Rule = match rule.as_deref().map(str::parse).transpose() {
        Ok(r) => r.unwrap_or(Rule::FirstWins),
        Err(_) => return Answer::error(400, "rule: first-wins or equal-turns"),
    };
    let seat: Seat = match seat.as_deref().map(str::parse).transpose() {
        Ok(s) => s.unwrap_or(Seat::First),
        Err(_) => return Answer::error(400, "seat: first or second (yours)"),
    };
    let Some(served) = state.trees.iter().find(|t| t.game.rules() == rules) else {
        return Answer::error(404, &format!("game: no tree of {rules} is served"));
    };
    let Some(eq) = served.duels.iter().find(|d| d.rule == rule.name()) else {
        return Answer::error(
            404,
            &format!("game: no equilibrium of the race of {rules} under {rule} is served"),
        );
    };
    let mixture = match seat {
        Seat::First => &eq.second,
        Seat::Second => &eq.first,
    };
    let pick = match pick.as_deref().map(str::parse::<usize>).transpose() {
        Ok(p) => p.unwrap_or(0),
        Err(_) => return Answer::error(400, "pick: the index of the computer's tree, 0 or more"),
    };
    let Some((_, tree)) = mixture.get(pick) else {
        return Answer::error(
            400,
            &format!("pick: the computer's mixture has {} trees", mixture.len()),
        );
    };
    let game = &served.game;
    let parse = |what: &str, text: Option<&str>| match api::parse_history(game, text.unwrap_or(""))
    {
        Ok(m) => Ok(m),
        Err(e @ ApiError::TooLong { .. }) => Err(Answer::error(413, &format!("{what}: {e}"))),
        Err(e) => Err(Answer::error(400, &format!("{what}: {e}"))),
    };
    let theirs = match parse("theirs", theirs.as_deref()) {
        Ok(m) => m,
        Err(a) => return a,
    };
    let mine = match parse("mine", mine.as_deref()) {
        Ok(m) => m,
        Err(a) => return a,
    };
    if theirs.len() != mine.len() {
        return Answer::error(
            400,
            "mine, theirs: the chance is given after complete rounds (as many moves in each)",
        );
    }
    // The computer's moves follow its tree, on answers some secret gives.
    let mut node = &tree.root;
    let mut left = game.secrets();
    for (i, &(guess, f)) in theirs.iter().enumerate() {
        if guess != node.guess {
            return Answer::error(
                422,
                &format!(
                    "theirs: move {} is not the computer's guess ({})",
                    i + 1,
                    game.format_code(node.guess)
                ),
            );
        }
        left.retain(|&s| game.feedback(s, guess) == f);
        if f == game.win() || left.is_empty() {
            return Answer::error(
                422,
                &format!(
                    "theirs: move {}: {}",
                    i + 1,
                    if left.is_empty() {
                        "no secret gives these answers"
                    } else {
                        "the race is over"
                    }
                ),
            );
        }
        match node.children.iter().find(|(g, _)| *g == f) {
            Some((_, child)) => node = child,
            None => return Answer::error(422, "theirs: an answer the tree has no move for"),
        }
    }
    let mut cand = game.secrets();
    for (i, &(guess, f)) in mine.iter().enumerate() {
        cand.retain(|&s| game.feedback(s, guess) == f);
        if f == game.win() || cand.is_empty() {
            return Answer::error(
                422,
                &format!(
                    "mine: move {}: {}",
                    i + 1,
                    if cand.is_empty() {
                        "no secret gives these answers"
                    } else {
                        "the race is over"
                    }
                ),
            );
        }
    }
    if let Some(text) = secret {
        match game.parse_code(&text) {
            Ok(c) if left.contains(&c) => left = vec![c],
            Ok(_) => return Answer::error(422, "secret: not a secret the answers in theirs leave"),
            Err(e) => return Answer::error(400, &format!("secret: {e}")),
        }
    }
    let Some(_slot) = state.slot() else {
        let mut busy = Answer::error(503, "busy: try again in a moment");
        busy.headers.push("Retry-After: 1".into());
        return busy;
    };
    let Some(engine) = chance::tree_lengths(game, node, &left) else {
        return Answer::error(
            500,
            "internal error (the tree leaves a secret): please report it",
        );
    };
    let c = chance::chance(game, rule, seat, &engine, &cand);
    Answer::json(
        200,
        serde_json::json!({
            "game": rules.to_string(),
            "rule": rule.name(),
            "seat": seat.name(),
            "low": c.low.to_string(),
            "high": c.high.to_string(),
            "low_value": c.low.to_f64(),
            "high_value": c.high.to_f64(),
            "exact": c.exact(),
            "computer_lengths": engine,
            "left": cand.len(),
        })
        .to_string(),
    )
}
