//! The kernel paths from the command line (issue 16): `OPTIMOO_KERNEL`
//! chooses the path, a path this CPU lacks or a name no path has is
//! refused, and the games whose level bounds pass a byte (two positions,
//! many symbols) are solved right, with the same tree, on every path:
//! their totals and least caps are the closed forms Chen and Lin
//! published for two positions, exactly.

use std::process::Command;

use optimoo::search::KernelPath;

use crate::OPTIMOO;

/// `optimoo ARGS` with `OPTIMOO_KERNEL` set as given (unset for `None`):
/// exit code, stdout, stderr.
fn optimoo(kernel: Option<&str>, args: &[&str]) -> (i32, String, String) {
    let mut cmd = Command::new(OPTIMOO);
    cmd.args(args);
    match kernel {
        Some(k) => cmd.env("OPTIMOO_KERNEL", k),
        None => cmd.env_remove("OPTIMOO_KERNEL"),
    };
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Solves with every path this CPU has: the same total, and byte for byte
/// the same tree file, which `verify` accepts (so the total reported is
/// that of a real tree within the cap). The report (`--json`) of the
/// first path.
fn solve_everywhere(args: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let mut found: Option<(serde_json::Value, Vec<u8>)> = None;
    for path in KernelPath::available() {
        let file = dir.path().join(format!("{path}.tree"));
        let mut all = vec!["solve", "--json", "-o", file.to_str().unwrap()];
        all.extend_from_slice(args);
        let (code, out, err) = optimoo(Some(path.name()), &all);
        assert_eq!(code, 0, "{args:?} on {path}: {err}");
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        let here = (report, std::fs::read(&file).unwrap());
        match &found {
            None => found = Some(here),
            Some(f) => assert!(
                f.0["total"] == here.0["total"] && f.1 == here.1,
                "{args:?}: {path} differs from scalar"
            ),
        }
        let (code, _, err) = optimoo(None, &["verify", file.to_str().unwrap()]);
        assert_eq!(code, 0, "{args:?} on {path}: verify: {err}");
    }
    found.unwrap().0
}

/// The fewest guesses in all over every secret of moo:2xn (no cap): the
/// closed form of S.-T. Chen and S.-S. Lin, "Optimal algorithms for 2 × n
/// AB games: a graph-partition approach", Journal of Information Science
/// and Engineering 20(1), 2004, pp. 105-126 (their expected number of
/// guesses times the n(n − 1) secrets).
fn moo_2xn_total(n: u64) -> u64 {
    if n.is_multiple_of(2) {
        (4 * n.pow(3) + 21 * n.pow(2) - 76 * n + 72) / 12
    } else {
        (4 * n.pow(3) + 21 * n.pow(2) - 82 * n + 105) / 12
    }
}

/// The fewest guesses that always suffice for moo:2xn, ⌈n/2⌉ + 1 (the
/// same paper).
fn moo_2xn_worst(n: u64) -> u64 {
    n.div_ceil(2) + 1
}

/// The fewest guesses in all over every secret of mm:2xn (no cap): the
/// closed form of S.-T. Chen and S.-S. Lin, "Optimal algorithms for 2 × n
/// Mastermind games: a graph-partition approach", The Computer Journal
/// 47(5), 2004, pp. 602-611 (their expected number of guesses times the
/// n² secrets).
fn mm_2xn_total(n: u64) -> u64 {
    if n.is_multiple_of(2) {
        (8 * n.pow(3) + 51 * n.pow(2) - 74 * n + 48) / 24
    } else {
        (8 * n.pow(3) + 51 * n.pow(2) - 80 * n + 69) / 24
    }
}

/// The fewest guesses that always suffice for mm:2xn, ⌊n/2⌋ + 2 (the same
/// paper).
fn mm_2xn_worst(n: u64) -> u64 {
    n / 2 + 2
}

#[test]
fn the_published_closed_forms() {
    // The figures the tests below rely on, and the small games (their
    // optimum is what `solve` finds on every path).
    assert_eq!(
        [14, 16, 24].map(moo_2xn_total),
        [1175, 1718, 5470],
        "moo:2xn"
    );
    assert_eq!([15, 16, 20].map(mm_2xn_total), [1556, 1862, 3457], "mm:2xn");
    assert_eq!((moo_2xn_worst(16), mm_2xn_worst(20)), (9, 12));
    for n in [3u64, 4, 5, 8] {
        for (game, total, worst) in [
            (format!("moo:2x{n}"), moo_2xn_total(n), moo_2xn_worst(n)),
            (format!("mm:2x{n}"), mm_2xn_total(n), mm_2xn_worst(n)),
        ] {
            let free = solve_everywhere(&["--game", &game]);
            assert_eq!(free["total"], total, "{game}");
            let worst_case = solve_everywhere(&["--game", &game, "--objective", "worst"]);
            assert_eq!(worst_case["min_cap"], worst, "{game}");
        }
    }
}

#[test]
fn many_symbols_solved_right_on_every_path() {
    // The cases issue 16 found wrong with the AVX2 path: mm:2x16 printed
    // 2174 and mm:2x15 "no strategy"; each against the closed forms of
    // Chen and Lin (above).
    let total = |args: &[&str]| solve_everywhere(args)["total"].as_u64().unwrap();
    assert_eq!(total(&["--game", "mm:2x16"]), mm_2xn_total(16));
    assert_eq!(total(&["--game", "mm:2x15"]), mm_2xn_total(15));
    assert_eq!(total(&["--game", "moo:2x14"]), moo_2xn_total(14));
    assert_eq!(total(&["--game", "moo:2x24"]), moo_2xn_total(24));
    assert_eq!(total(&["--game", "moo:2x16"]), moo_2xn_total(16));
    // Under a cap: 9 guesses always suffice for moo:2x16 and no fewer do;
    // no tree within 9 does better than the uncapped optimum, and a tree
    // within 9 reaches it (the one solve writes, which `verify` replays),
    // so the optimum within 9 is the closed form's exactly.
    let capped = solve_everywhere(&["--game", "moo:2x16", "--cap", "9"]);
    assert_eq!(capped["total"], moo_2xn_total(16));
    assert_eq!(capped["max_depth"], moo_2xn_worst(16));
    // By the worst-case objective: the least cap is the published one, and
    // the least total within it is the uncapped optimum (a lower bound,
    // reached by the tree written, whose depth is that cap).
    let worst = solve_everywhere(&["--game", "mm:2x20", "--objective", "worst"]);
    assert_eq!(worst["min_cap"], mm_2xn_worst(20));
    assert_eq!(worst["total"], mm_2xn_total(20));
    assert_eq!(worst["max_depth"], mm_2xn_worst(20));
}

#[test]
fn kernel_env_is_checked() {
    let game = ["solve", "--game", "mm:2x3"];
    let (code, _, err) = optimoo(Some("sse9"), &game);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("OPTIMOO_KERNEL") && err.contains("scalar, avx2 or avx512"),
        "{err}"
    );
    for path in KernelPath::ALL {
        let (code, out, err) = optimoo(Some(path.name()), &game);
        if path.supported() {
            assert_eq!(code, 0, "{path}: {err}");
            assert!(out.contains("21"), "{out}");
        } else {
            assert_eq!(code, 2, "{path}: {out}");
            assert!(err.contains(path.name()) && err.contains("lacks"), "{err}");
        }
    }
    // Unset or empty: the best path.
    for kernel in [None, Some("")] {
        let (code, _, err) = optimoo(kernel, &game);
        assert_eq!(code, 0, "{kernel:?}: {err}");
    }
}

#[test]
fn a_depth_2_plan_of_moo_3x10_merges_into_solves_tree() {
    // Issue 16: the saturated kernel made this plan store second-guess
    // bounds of 751 + 255 and 754 + 255 (exact: 1017 and 1094); a unit
    // then wrote "exact 1120" and merge refused it. On every path now the
    // plan's units merge into solve's tree, byte for byte.
    let dir = tempfile::tempdir().unwrap();
    let solved = dir.path().join("solved.tree");
    let (code, _, err) = optimoo(
        None,
        &[
            "solve",
            "--game",
            "moo:3x10",
            "-o",
            solved.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    for path in KernelPath::available() {
        let plan = dir.path().join(format!("plan-{path}"));
        let merged = dir.path().join(format!("{path}.tree"));
        let p = plan.to_str().unwrap();
        for args in [
            vec!["plan", "--game", "moo:3x10", "--depth", "2", "-o", p],
            vec!["work", p, "--all"],
            vec!["merge", p, "-o", merged.to_str().unwrap()],
        ] {
            let (code, _, err) = optimoo(Some(path.name()), &args);
            assert_eq!(code, 0, "{path}: {args:?}: {err}");
        }
        assert!(
            std::fs::read(&merged).unwrap() == std::fs::read(&solved).unwrap(),
            "{path}: the merged tree is not solve's"
        );
    }
}
