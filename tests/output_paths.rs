//! `-o` as `cp` and a shell redirection write (issue 39): a device or a
//! FIFO written through, a link followed and its target replaced, a
//! dangling link's target created, a hard link rewritten in place, a
//! regular file replaced atomically; every command that writes a file says
//! `wrote FILE`; errors are `optimoo: error: ...`, naming the option.

use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::PathBuf;

use crate::trees::{run, scratch};
use crate::OPTIMOO;

/// A fresh folder of this test's own.
fn folder(name: &str) -> PathBuf {
    let dir = scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(OPTIMOO, args, "");
    assert_eq!(code, 0, "{args:?}: {out}{err}");
    err
}

#[test]
fn dev_null_stays_a_device_and_dev_full_fails_with_its_name() {
    for args in [
        vec!["export", "data/mm-4x6.tree", "--format", "json", "-o"],
        vec!["solve", "--game", "mm:2x3", "-o"],
        vec!["static", "--game", "mm:2x3", "-o"],
        vec!["eval", "--game", "mm:2x3", "--strategy", "phased", "-o"],
    ] {
        let root = env!("CARGO_MANIFEST_DIR");
        let mut with = args.clone();
        with.push("/dev/null");
        let (code, out, err) = crate::trees::run(
            "sh",
            &[
                &["-c", "cd \"$0\" && exec \"$@\"", root, OPTIMOO][..],
                &with,
            ]
            .concat(),
            "",
        );
        assert_eq!(code, 0, "{with:?}: {out}{err}");
        assert!(err.contains("wrote /dev/null"), "{with:?}: {err}");
        let kind = std::fs::symlink_metadata("/dev/null").unwrap().file_type();
        assert!(kind.is_char_device());
        if std::path::Path::new("/dev/full").exists() {
            let mut full = args.clone();
            full.push("/dev/full");
            let (code, out, err) = run(
                "sh",
                &[
                    &["-c", "cd \"$0\" && exec \"$@\"", root, OPTIMOO][..],
                    &full,
                ]
                .concat(),
                "",
            );
            assert_eq!(code, 2, "{full:?}: {out}{err}");
            assert!(
                err.lines()
                    .any(|l| l.starts_with("optimoo: error: cannot write /dev/full: ")),
                "{full:?}: {err}"
            );
            assert!(err.contains("No space left"), "{full:?}: {err}");
            assert!(!err.contains("wrote"), "{err}");
        }
    }
}

#[test]
fn a_link_is_followed_a_dangling_one_creates_its_target() {
    let dir = folder("out-links");
    let target = dir.join("target.tree");
    std::fs::write(&target, b"old").unwrap();
    let link = dir.join("link.tree");
    std::os::unix::fs::symlink("target.tree", &link).unwrap();
    let err = ok(&["solve", "--game", "mm:2x3", "-o", link.to_str().unwrap()]);
    assert!(err.contains(&format!("wrote {}", link.display())), "{err}");
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    let written = std::fs::read(&target).unwrap();
    assert_ne!(written, b"old");
    let (code, out, _) = run(OPTIMOO, &["verify", target.to_str().unwrap()], "");
    assert_eq!(code, 0, "{out}");
    // A dangling link: its target is created, as `>` creates it.
    let dangling = dir.join("dangling.json");
    std::os::unix::fs::symlink("made.json", &dangling).unwrap();
    ok(&[
        "solve",
        "--game",
        "mm:2x3",
        "-o",
        dangling.to_str().unwrap(),
    ]);
    assert!(std::fs::symlink_metadata(&dangling).unwrap().is_symlink());
    let made = std::fs::read_to_string(dir.join("made.json")).unwrap();
    assert!(made.starts_with('{'), "{made}");
}

#[test]
fn a_hard_link_is_rewritten_in_place_a_regular_file_replaced() {
    let dir = folder("out-hard");
    let path = dir.join("x.static");
    let other = dir.join("other.static");
    std::fs::write(&path, b"old").unwrap();
    std::fs::hard_link(&path, &other).unwrap();
    let inode = std::fs::metadata(&path).unwrap().ino();
    ok(&["static", "--game", "mm:2x3", "-o", path.to_str().unwrap()]);
    assert_eq!(std::fs::metadata(&path).unwrap().ino(), inode);
    assert_eq!(
        std::fs::read(&other).unwrap(),
        std::fs::read(&path).unwrap()
    );
    assert!(std::fs::read_to_string(&other)
        .unwrap()
        .starts_with("optimoo-static"));
    // A regular file with one name: a new inode renamed over it.
    let single = dir.join("single.static");
    std::fs::write(&single, b"old").unwrap();
    let before = std::fs::metadata(&single).unwrap().ino();
    ok(&["static", "--game", "mm:2x3", "-o", single.to_str().unwrap()]);
    assert_ne!(std::fs::metadata(&single).unwrap().ino(), before);
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn dev_stdout_is_the_open_stdout_a_pipe_or_a_file() {
    let export = [
        "export",
        "--game",
        "mm:2x3",
        "--strategy",
        "minimax",
        "--format",
        "json",
        "-o",
        "/dev/stdout",
    ];
    // A pipe: once refused ("cannot write in /proc/self/fd").
    let (code, out, err) = run(OPTIMOO, &export, "");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with('{'), "{out}");
    // A file the shell opened: written in it, not replaced by a new one
    // beside it (which the shell's output would then miss).
    let dir = folder("out-stdout");
    let file = dir.join("out.json");
    std::fs::write(&file, b"").unwrap();
    let inode = std::fs::metadata(&file).unwrap().ino();
    let script = format!("exec \"$@\" > '{}'", file.display());
    let (code, _, err) = run(
        "sh",
        &[&["-c", script.as_str(), "sh", OPTIMOO][..], &export[..]].concat(),
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::metadata(&file).unwrap().ino(), inode);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with('{') && text.trim_end().ends_with('}'),
        "{text}"
    );
}

#[test]
fn a_fifo_gets_the_output() {
    let dir = folder("out-fifo");
    let fifo = dir.join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return;
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    ok(&[
        "export",
        "--game",
        "mm:2x3",
        "--strategy",
        "minimax",
        "--format",
        "json",
        "-o",
        fifo.to_str().unwrap(),
    ]);
    let got = reader.join().unwrap();
    assert!(got.starts_with('{'), "{got}");
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}

#[test]
fn every_writer_says_wrote() {
    let dir = folder("out-wrote");
    let p = |name: &str| dir.join(name).display().to_string();
    let run_dir = p("run");
    ok(&["plan", "--game", "mm:2x3", "-o", &run_dir]);
    ok(&["work", &run_dir, "--all"]);
    for (args, file) in [
        (
            vec!["solve", "--game", "mm:2x3", "-o", &p("s.tree")],
            p("s.tree"),
        ),
        (
            vec![
                "export",
                "--game",
                "mm:2x3",
                "--strategy",
                "minimax",
                "--format",
                "json",
                "-o",
                &p("e.json"),
            ],
            p("e.json"),
        ),
        (vec!["merge", &run_dir, "-o", &p("m.tree")], p("m.tree")),
        (
            vec![
                "eval",
                "--game",
                "mm:2x3",
                "--strategy",
                "phased",
                "-o",
                &p("v.tree"),
            ],
            p("v.tree"),
        ),
        (
            vec!["improve", "--game", "mm:2x3", "-o", &p("i.tree")],
            p("i.tree"),
        ),
        (
            vec!["static", "--game", "mm:2x3", "-o", &p("x.static")],
            p("x.static"),
        ),
        (
            vec![
                "duel",
                "--game",
                "mm:2x3",
                "--rule",
                "first-wins",
                "-o",
                &p("duel"),
            ],
            p("duel/duel.json"),
        ),
        (
            vec!["nash", "--game", "mm:2x3", "-o", &p("nash")],
            p("nash/nash.json"),
        ),
    ] {
        let err = ok(&args);
        assert!(
            err.lines().any(|l| l.starts_with(&format!("wrote {file}"))),
            "{args:?}: {err}"
        );
        assert!(std::path::Path::new(&file).exists(), "{file}");
    }
}

#[test]
fn errors_have_one_form_and_name_the_option() {
    let missing = scratch("no-such-list.txt");
    let _ = std::fs::remove_file(&missing);
    let m = missing.to_str().unwrap();
    for args in [
        vec!["eval", "--game", "mm:3x4", "--secrets", m],
        vec![
            "verify",
            "--game",
            "mm:3x4",
            "--static",
            "001",
            "--secrets",
            m,
        ],
    ] {
        let (code, _, err) = run(OPTIMOO, &args, "");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.starts_with(&format!("optimoo: error: --secrets {m}: ")),
            "{args:?}: {err}"
        );
    }
    // A usage error of clap's, an unreadable file, a bad tree file given
    // to verify: the same form.
    for args in [
        vec!["solve", "--bogus"],
        vec!["export", "no-such.tree"],
        vec!["verify", "no-such.tree"],
        vec![
            "partition",
            "--guess",
            "0123",
            "0123:0A0B",
            "4567:0A0B",
            "8901:0A0B",
        ],
    ] {
        let (code, _, err) = run(OPTIMOO, &args, "");
        // A history no secret gives is a negative answer: exit code 1.
        let want = if args[0] == "partition" { 1 } else { 2 };
        assert_eq!(code, want, "{args:?}: {err}");
        assert!(err.starts_with("optimoo: error: "), "{args:?}: {err}");
    }
}
