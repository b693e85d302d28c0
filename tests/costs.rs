//! `solve --objective costs:...`: a nondecreasing cost per number of
//! guesses, from the command line. The search is checked against brute
//! force for random vectors in the library (search::tests,
//! search::sweep_tests); here the arguments, the report and the file.

use serde_json::Value;

use crate::trees::{run, scratch};
use crate::OPTIMOO;

fn solve_json(args: &[&str]) -> Value {
    let all = [&["solve", "--json"], args].concat();
    let (code, out, err) = run(OPTIMOO, &all, "");
    assert_eq!(code, 0, "{all:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

/// Σ histogram[d − 1] · costs[d − 1], exactly, as (numerator, denominator).
fn replayed(histogram: &[Value], costs: &[(u64, u64)]) -> (u64, u64) {
    let den = costs.iter().map(|c| c.1).fold(1, |a, b| a * b / gcd(a, b));
    let num = histogram
        .iter()
        .zip(costs)
        .map(|(h, &(p, q))| h.as_u64().unwrap() * p * (den / q))
        .sum::<u64>();
    let g = gcd(num, den);
    (num / g, den / g)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[test]
fn costs_report_their_sum_exactly_beside_the_total() {
    // Linear costs are the average objective: the same total.
    let avg = solve_json(&["--game", "mm:3x4", "--cap", "5"]);
    let lin = solve_json(&["--game", "mm:3x4", "--objective", "costs:1,2,3,4,5"]);
    assert_eq!(lin["objective"], "costs");
    assert_eq!(lin["cap"], 5);
    assert_eq!(lin["cost"], avg["total"]);
    assert_eq!(lin["total"], avg["total"]);
    // A fraction: "p/q", equal to the replay of the histogram.
    let out = solve_json(&["--game", "mm:3x4", "--objective", "costs:0,0,1/2,1,1"]);
    assert_eq!(out["costs"], "0,0,1/2,1,1");
    let costs = [(0, 1), (0, 1), (1, 2), (1, 1), (1, 1)];
    let (p, q) = replayed(out["histogram"].as_array().unwrap(), &costs);
    assert_eq!(out["cost"], format!("{p}/{q}"), "{out}");
    // Pricier late guesses never cost more than the linear optimum's
    // histogram would under them.
    let (lp, lq) = replayed(lin["histogram"].as_array().unwrap(), &costs);
    assert!(p * lq <= lp * q, "{out} against {lin}");
    // Decimals are exact too.
    let dec = solve_json(&["--game", "mm:3x4", "--objective", "costs:0,0,0.5,1,1"]);
    assert_eq!(dec["cost"], out["cost"]);
}

#[test]
fn a_costs_tree_file_verifies_with_its_objective() {
    let file = scratch("costs-mm-3x4.tree");
    let path = file.to_str().unwrap();
    let args = [
        "--game",
        "mm:3x4",
        "--objective",
        "costs:1,1,2,3",
        "-o",
        path,
    ];
    let out = solve_json(&args);
    let (code, text, err) = run(OPTIMOO, &["verify", path], "");
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("ok: mm:3x4 costs cap 4"), "{text}");
    assert!(text.contains(&format!("total {}", out["total"])), "{text}");
}

#[test]
fn bad_cost_vectors_are_refused_with_the_reason() {
    let refused = |objective: &str, extra: &[&str], words: &str| {
        let args = [
            &["solve", "--game", "mm:3x4", "--objective", objective],
            extra,
        ]
        .concat();
        let (code, out, err) = run(OPTIMOO, &args, "");
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(words), "{args:?}: {err}");
    };
    refused("costs:1,3,2", &[], "entry 3 (2) is below entry 2 (3)");
    refused("costs:1,2,x", &[], "'x' is not a cost");
    refused("costs:1,-1", &[], "'-1' is not a cost");
    refused("costs:", &[], "at least one cost");
    refused(
        "costs:1,2,3",
        &["--cap", "4"],
        "so the cap is 3, not the --cap 4",
    );
    refused(
        "costs:1,2,3",
        &["--checkpoint", "/nonexistent"],
        "without --checkpoint",
    );
    // Too few guesses: no strategy, exit 1 (a proof, not an error).
    let (code, out, _) = run(
        OPTIMOO,
        &["solve", "--game", "mm:3x4", "--objective", "costs:1,2"],
        "",
    );
    assert_eq!(code, 1);
    assert!(
        out.contains("no strategy solves mm:3x4 within 2 guesses"),
        "{out}"
    );
}
