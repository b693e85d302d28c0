//! `optimoo serve`: the API answers what `moo ... --json` prints, on and
//! off the tree, for moo:4x10 and mm:4x6; bad requests are 4xx JSON; the
//! bounds hold (history length, URL size, body, searches at once); a
//! silent client does not hold up the others.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::trees::run;
use crate::OPTIMOO;

/// A server on a free port of loopback, killed when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `optimoo serve --bind 127.0.0.1:0 ARGS` from the workspace's
/// folder (data/ there) and reads the address it prints.
fn serve(args: &[&str]) -> Server {
    let mut child = Command::new(OPTIMOO)
        .args(["serve", "--bind", "127.0.0.1:0"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    Server { child, addr }
}

/// Sends `request` raw; the status and the body.
fn raw(addr: &str, request: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    // The server may answer (and close) before reading everything.
    let _ = stream.write_all(request);
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    let text = String::from_utf8(bytes).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    (status, body.to_string())
}

/// `GET path`: the status and the body.
fn get(addr: &str, path: &str) -> (u16, String) {
    raw(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes(),
    )
}

/// `GET path`, which must be an error of `status`: its message.
fn error(addr: &str, path: &str, status: u16) -> String {
    let (got, body) = get(addr, path);
    assert_eq!(got, status, "{path}: {body}");
    let v: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"));
    v["error"].as_str().unwrap().to_string()
}

/// The `moo` player, beside `optimoo` in the target folder (built if not).
fn moo() -> PathBuf {
    let path = PathBuf::from(OPTIMOO).with_file_name("moo");
    if !path.exists() {
        let profile = path
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        let mut cargo = Command::new(env!("CARGO"));
        cargo.args(["build", "-p", "moo"]);
        if profile != "debug" {
            cargo.args(["--profile", profile]);
        }
        assert!(cargo.status().unwrap().success(), "building moo");
    }
    path
}

/// What `moo --game GAME ARGS HISTORY...` prints.
fn moo_says(game: &str, args: &[&str], history: &str) -> String {
    let mut all = vec!["--game", game];
    all.extend_from_slice(args);
    all.extend(history.split([' ', ',']).filter(|w| !w.is_empty()));
    let (code, out, err) = run(moo().to_str().unwrap(), &all, "");
    assert_eq!(code, 0, "moo {all:?}: {err}");
    out
}

/// The lines of `moo ... --json` as one array.
fn lines(text: &str) -> Value {
    Value::Array(
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
    )
}

/// A history in a URL: spaces as `+`, `:` and `,` percent-encoded.
fn encode(history: &str) -> String {
    history
        .replace(':', "%3A")
        .replace(',', "%2C")
        .replace(' ', "+")
}

#[test]
fn the_api_answers_what_moo_prints() {
    let server = serve(&["--budget", "30"]);
    let cases: &[(&str, &[&str])] = &[
        // On the tree, off it (1234 is not the tree's first guess), won.
        (
            "moo:4x10",
            &[
                "",
                "0123:0A2B",
                "0123:0A2B 4567:1A0B",
                "1234:0A2B,5678:1A0B",
            ],
        ),
        (
            "mm:4x6",
            &["", "0011:1A1B", "0011:1A1B 2345:0A2B", "0123:1A1B"],
        ),
    ];
    for &(game, histories) in cases {
        for &history in histories {
            let query = format!("game={game}&history={}", encode(history));
            let (status, body) = get(&server.addr, &format!("/api/rank?{query}&top=5"));
            assert_eq!(status, 200, "{query}: {body}");
            let api: Value = serde_json::from_str(&body).unwrap();
            let want = lines(&moo_says(game, &["rank", "--json", "--top", "5"], history));
            assert_eq!(api, want, "rank {query}");
            let rows = api.as_array().unwrap().len();
            assert!((1..=5).contains(&rows), "{query}: {rows} rows");

            let (status, body) = get(&server.addr, &format!("/api/next?{query}"));
            assert_eq!(status, 200, "{query}: {body}");
            let api: Value = serde_json::from_str(&body).unwrap();
            let line = moo_says(game, &["next"], history);
            assert_eq!(api[0]["line"].as_str(), Some(line.trim_end()), "{query}");
            assert!(line.starts_with(api[0]["guess"].as_str().unwrap()));

            if !history.is_empty() {
                let (status, body) = get(&server.addr, &format!("/api/analyze?{query}"));
                assert_eq!(status, 200, "{query}: {body}");
                let api: Value = serde_json::from_str(&body).unwrap();
                let want = lines(&moo_says(game, &["analyze", "--json"], history));
                assert_eq!(api, want, "analyze {query}");
            }
        }
    }
    // The default game is moo:4x10; a won history ranks nothing.
    let (status, body) = get(&server.addr, "/api/rank?history=0123:0A2B&top=5");
    assert_eq!(status, 200);
    let want = lines(&moo_says(
        "moo:4x10",
        &["rank", "--json", "--top", "5"],
        "0123:0A2B",
    ));
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap(), want);
    for endpoint in ["next", "rank"] {
        assert_eq!(
            get(&server.addr, &format!("/api/{endpoint}?history=5293:4A0B")),
            (200, "[]".to_string())
        );
    }
}

#[test]
fn the_page_is_the_exported_page_of_every_tree_that_may_ask_its_server() {
    let server = serve(&[]);
    let dir = crate::trees::scratch("serve-page");
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("page.html");
    let root = env!("CARGO_MANIFEST_DIR");
    let (code, _, err) = run(
        OPTIMOO,
        &[
            "export",
            &format!("{root}/data/moo-4x10-cap7.tree"),
            &format!("{root}/data/mm-4x6.tree"),
            "--format",
            "html",
            "-o",
            page.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let exported = std::fs::read_to_string(&page).unwrap();
    let _ = std::fs::remove_dir_all(dir);
    for query in ["", "?game=mm:4x6", "?game=moo:4x10"] {
        let (status, body) = get(&server.addr, &format!("/{query}"));
        assert_eq!(status, 200);
        // The served page may ask its server (connect-src 'self') and
        // knows it is served; nothing else differs.
        assert!(body.contains("connect-src 'self'"), "{query}");
        assert!(!exported.contains("connect-src"), "{query}");
        let back = body.replacen("connect-src 'self'; ", "", 1).replacen(
            r#""served":true"#,
            r#""served":false"#,
            1,
        );
        assert_eq!(back, exported, "{query}");
    }
    let message = error(&server.addr, "/?game=moo:3x6", 404);
    assert!(message.contains("moo:3x6"), "{message}");
}

#[test]
fn bad_requests_are_clear_json_errors() {
    let server = serve(&[]);
    let a = &server.addr;
    let m = error(a, "/api/next?game=moo:4x11x", 400);
    assert!(m.starts_with("game: "), "{m}");
    let m = error(a, "/api/next?game=moo:10x10", 400);
    assert!(m.starts_with("game: "), "{m}");
    let m = error(a, "/api/next?game=moo:5x10", 400);
    assert!(m.starts_with("game: ") && m.contains("5040"), "{m}");
    let m = error(a, "/api/rank?history=0123-0A2B", 400);
    assert!(m.starts_with("history: ") && m.contains("0123-0A2B"), "{m}");
    let m = error(a, "/api/rank?history=0123:5A0B", 400);
    assert!(m.contains("5A0B"), "{m}");
    let m = error(a, "/api/analyze", 400);
    assert!(m.contains("history"), "{m}");
    let m = error(a, "/api/rank?history=%zz", 400);
    assert!(m.contains('%'), "{m}");
    let m = error(a, "/api/rank?hist=0123:0A2B", 400);
    assert!(m.contains("hist") && m.contains("history"), "{m}");
    let m = error(a, "/api/rank?top=-1", 400);
    assert!(m.starts_with("top"), "{m}");
    let m = error(a, "/api/next?game=mm:4x6&game=mm:4x6", 400);
    assert!(m.contains("twice"), "{m}");
    // Contradictory, and after the win: refused as moo refuses them.
    let m = error(a, "/api/next?history=0123:4A0B+4567:0A0B", 422);
    assert!(m.contains("after the winning answer"), "{m}");
    let m = error(a, "/api/analyze?history=0123:0A0B+0123:1A0B", 422);
    assert!(m.contains("no secret gives all these answers"), "{m}");
    let m = error(a, "/no/such/page", 404);
    assert!(m.contains("/api/rank"), "{m}");
    let m = error(a, "/../../etc/passwd", 404);
    assert!(m.contains("no such page"), "{m}");
    // Too long a history: 64 moves are read, 65 refused before reading.
    let ok = vec!["0123:0A0B"; 64].join("+");
    assert_eq!(get(a, &format!("/api/next?history={ok}")).0, 200);
    let long = vec!["0123:0A0B"; 65].join("+");
    let m = error(a, &format!("/api/next?history={long}"), 413);
    assert!(m.contains("65 moves") && m.contains("64"), "{m}");
    let m = error(a, &format!("/api/next?history={}", "x".repeat(20_000)), 414);
    assert!(m.contains("URL"), "{m}");
    // A body, a method other than GET, a malformed request line.
    let (status, body) = raw(
        a,
        b"POST /api/next HTTP/1.1\r\nContent-Length: 100000000\r\n\r\n{\"history\": [",
    );
    assert_eq!(status, 413, "{body}");
    let (status, body) = raw(a, b"DELETE /api/next HTTP/1.1\r\n\r\n");
    assert_eq!(status, 405, "{body}");
    let (status, body) = raw(a, b"GET /api/next HTTP/1.1 junk\r\n\r\n");
    assert_eq!(status, 400, "{body}");
    assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string());
    // The server is still there.
    assert_eq!(get(a, "/api/next").0, 200);
}

#[test]
fn searches_are_bounded_in_time_and_number() {
    let server = serve(&["--budget", "1.5", "--max-searches", "1"]);
    let addr = server.addr.clone();
    // A silent client holds a connection and nothing else.
    let _silent = TcpStream::connect(&server.addr).unwrap();
    let slow = std::thread::spawn(move || {
        let start = Instant::now();
        let answer = get(&addr, "/api/rank?top=0&history=0123:0A1B+4567:0A1B");
        (answer, start.elapsed())
    });
    std::thread::sleep(Duration::from_millis(400));
    let m = error(&server.addr, "/api/next", 503);
    assert!(m.contains("busy"), "{m}");
    // Pages need no search slot.
    assert_eq!(get(&server.addr, "/").0, 200);
    let ((status, body), took) = slow.join().unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(
        took < Duration::from_secs(5),
        "{took:?} for a budget of 1.5 s"
    );
    let rows: Value = serde_json::from_str(&body).unwrap();
    let rows = rows.as_array().unwrap();
    assert!(rows.len() > 100, "{}", rows.len());
    // The budget ran out: some values are proven bounds, said so.
    assert!(rows.iter().any(|r| r["exact"] == false));
    // Freed again.
    assert_eq!(get(&server.addr, "/api/next").0, 200);
}

#[test]
fn concurrent_requests_get_the_same_answers() {
    let server = serve(&["--max-searches", "64"]);
    let want = get(
        &server.addr,
        "/api/rank?game=mm:4x6&history=0011:1A1B&top=3",
    );
    assert_eq!(want.0, 200);
    let threads: Vec<_> = (0..16)
        .map(|i| {
            let addr = server.addr.clone();
            std::thread::spawn(move || {
                if i % 2 == 0 {
                    get(&addr, "/api/rank?game=mm:4x6&history=0011:1A1B&top=3")
                } else {
                    get(&addr, "/api/analyze?history=0123:0A2B,4567:1A0B")
                }
            })
        })
        .collect();
    let analyze = get(&server.addr, "/api/analyze?history=0123:0A2B,4567:1A0B");
    assert_eq!(analyze.0, 200);
    for (i, t) in threads.into_iter().enumerate() {
        let got = t.join().unwrap();
        assert_eq!(got, if i % 2 == 0 { &want } else { &analyze }.clone());
    }
}

#[test]
fn serve_refuses_bad_arguments_with_exit_code_2() {
    let (code, _, err) = run(OPTIMOO, &["serve", "--check", "--budget=-1"], "");
    assert_eq!(code, 2);
    assert!(err.contains("--budget"), "{err}");
    let mm = format!("{}/data/mm-4x6.tree", env!("CARGO_MANIFEST_DIR"));
    let (code, _, err) = run(
        OPTIMOO,
        &["serve", "--check", "--bind", "127.0.0.1:0", &mm, &mm],
        "",
    );
    assert_eq!(code, 2);
    assert!(err.contains("a second tree of mm:4x6"), "{err}");
    let (code, _, err) = run(
        OPTIMOO,
        &["serve", "--check", "--bind", "127.0.0.1:0", "/no/such.tree"],
        "",
    );
    assert_eq!(code, 2);
    assert!(err.contains("/no/such.tree"), "{err}");
    let (code, _, err) = run(OPTIMOO, &["serve", "--check", "--bind", "localhost"], "");
    assert_eq!(code, 2);
    assert!(err.contains("--bind"), "{err}");
}

#[test]
fn answers_say_how_long_their_search_took() {
    let server = serve(&[]);
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let start = Instant::now();
    write!(
        stream,
        "GET /api/rank?history=0123:0A1B HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.addr
    )
    .unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    let took = start.elapsed().as_secs_f64() * 1e3;
    let head = text.split("\r\n\r\n").next().unwrap();
    let ms: f64 = head
        .lines()
        .find_map(|l| l.strip_prefix("Server-Timing: search;dur="))
        .unwrap_or_else(|| panic!("no Server-Timing in {head}"))
        .parse()
        .unwrap();
    assert!((0.0..=took).contains(&ms), "{ms} ms of {took} ms");
    // Pages and refusals run no search, and say none.
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    write!(stream, "GET /nowhere HTTP/1.1\r\n\r\n").unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    assert!(text.starts_with("HTTP/1.1 404"), "{text}");
    assert!(!text.contains("Server-Timing"), "{text}");
}

/// `/api/duel` answers the library's chance (play::chance) for a race
/// against the shipped equilibrium's tree, and refuses bad input with a
/// clear 4xx JSON error naming the parameter.
#[test]
fn the_duel_chance_is_the_library_s_and_bad_input_is_refused() {
    use optimoo::play::best_response::{Rule, Seat};
    use optimoo::play::chance;
    let server = serve(&[]);
    let a = &server.addr;
    let root = env!("CARGO_MANIFEST_DIR");
    let bytes = optimoo::tree::format::read_file(std::path::Path::new(&format!(
        "{root}/data/duel/mm-4x6-first-wins/second-1.tree"
    )))
    .unwrap();
    let (game, file) = optimoo::play::player::load(&bytes).unwrap();
    let tree = &file.tree;
    // You (first) guess 0011 against 2345; the computer guesses its root
    // against your secret 1234.
    let (mine_secret, yours) = (
        game.parse_code("2345").unwrap(),
        game.parse_code("1234").unwrap(),
    );
    let g = game.parse_code("0011").unwrap();
    let f = game.feedback(mine_secret, g);
    let e = tree.root.guess;
    let fe = game.feedback(yours, e);
    let mine = format!("{}:{}", game.format_code(g), game.format_feedback(f));
    let theirs = format!("{}:{}", game.format_code(e), game.format_feedback(fe));
    let pset: Vec<_> = game
        .secrets()
        .into_iter()
        .filter(|&s| game.feedback(s, g) == f)
        .collect();
    let eset: Vec<_> = game
        .secrets()
        .into_iter()
        .filter(|&s| game.feedback(s, e) == fe)
        .collect();
    let child = &tree.root.children.iter().find(|(x, _)| *x == fe).unwrap().1;
    for (secret, set) in [(None, eset.clone()), (Some("1234"), vec![yours])] {
        let engine = chance::tree_lengths(&game, child, &set).unwrap();
        let want = chance::chance(&game, Rule::FirstWins, Seat::First, &engine, &pset);
        let mut path = format!(
            "/api/duel?game=mm:4x6&rule=first-wins&seat=first&mine={}&theirs={}",
            encode(&mine),
            encode(&theirs)
        );
        if let Some(s) = secret {
            path += &format!("&secret={s}");
        }
        let (status, body) = get(a, &path);
        assert_eq!(status, 200, "{body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["low"], want.low.to_string(), "{body}");
        assert_eq!(v["high"], want.high.to_string(), "{body}");
        assert_eq!(v["exact"], want.exact());
        assert_eq!(v["left"], pset.len());
        assert!(want.low <= want.high);
    }
    // Before any move: the chance of the whole race, below the bound.
    let (status, body) = get(a, "/api/duel?game=moo:4x10&rule=equal-turns&seat=second");
    assert_eq!(status, 200, "{body}");
    let wrong = if game.format_code(e) == "0000" {
        "1111"
    } else {
        "0000"
    };
    for (path, status, says) in [
        ("/api/duel?game=moo:3x10", 404, "game"),
        ("/api/duel?rule=last-wins", 400, "rule"),
        ("/api/duel?seat=third", 400, "seat"),
        ("/api/duel?pick=7", 400, "pick"),
        ("/api/duel?pick=-1", 400, "pick"),
        ("/api/duel?turn=1", 400, "unknown parameter"),
        ("/api/duel?mine=0123:0A0B", 400, "complete rounds"),
        ("/api/duel?mine=0123-0A0B&theirs=0123:0A0B", 400, "mine"),
        ("/api/duel?rule=first-wins&rule=equal-turns", 400, "twice"),
        ("/api/duel?secret=12", 400, "secret"),
    ] {
        let m = error(a, path, status);
        assert!(m.contains(says), "{path}: {m}");
    }
    let m = error(
        a,
        &format!(
            "/api/duel?game=mm:4x6&mine={}&theirs={wrong}:0A0B",
            encode(&mine)
        ),
        422,
    );
    assert!(m.starts_with("theirs: move 1"), "{m}");
    let m = error(
        a,
        &format!(
            "/api/duel?game=mm:4x6&mine=0011:0A0B+0011:1A0B&theirs={}+{}",
            encode(&theirs),
            encode(&theirs)
        ),
        422,
    );
    assert!(
        m.contains("no secret gives") || m.contains("computer's guess"),
        "{m}"
    );
    let long = vec!["0123:0A0B"; 65].join("+");
    let m = error(a, &format!("/api/duel?mine={long}&theirs={long}"), 413);
    assert!(m.starts_with("theirs") || m.starts_with("mine"), "{m}");
    // The server is still there.
    assert_eq!(get(a, "/api/duel").0, 200);
}
