//! `optimoo improve`: anytime upper bounds (the library's
//! `search::improve` tests them against the exact search); here the
//! command: its file, its incumbent, its report and errors.

use serde_json::Value;

use crate::trees::{run, scratch};
use crate::OPTIMOO;

#[test]
fn improve_writes_verified_trees_that_beat_the_incumbent() {
    let out = scratch("improve-moo-4x7.tree");
    let _ = std::fs::remove_file(&out);
    let path = out.to_str().unwrap();
    let args = [
        "improve",
        "--game",
        "moo:4x7",
        "-o",
        path,
        "--max-width",
        "2",
        "--exact-below",
        "20",
        "--json",
    ];
    let (code, stdout, err) = run(OPTIMOO, &args, "");
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(stdout.trim()).unwrap();
    for key in crate::cli::readme_fields("`improve`") {
        assert!(v.get(&key).is_some(), "no {key} in {stdout}");
    }
    let total = v["total"].as_u64().unwrap();
    assert!(err.contains("width 1:"), "{err}");
    let (code, verified, err) = run(OPTIMOO, &["verify", path], "");
    assert_eq!(code, 0, "{verified}{err}");
    assert!(verified.contains(&format!("total {total}")), "{verified}");
    // Against itself as the incumbent: nothing better, the file kept.
    let before = std::fs::read(&out).unwrap();
    let again = [
        "improve",
        "--from",
        path,
        "-o",
        path,
        "--max-width",
        "2",
        "--exact-below",
        "20",
        "--json",
    ];
    let (code, stdout, err) = run(OPTIMOO, &again, "");
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert!(v["total"].is_null(), "{stdout}");
    assert_eq!(v["from_total"].as_u64(), Some(total));
    assert_eq!(std::fs::read(&out).unwrap(), before);
    // Only the widest pass, on two threads: the same total (a wider pass
    // found it, or width 1 did and width 2 cannot do worse).
    let _ = std::fs::remove_file(&out);
    let wide = [
        "improve",
        "--game",
        "moo:4x7",
        "-o",
        path,
        "--min-width",
        "2",
        "--max-width",
        "2",
        "--exact-below",
        "20",
        "--threads",
        "2",
        "--json",
    ];
    let (code, stdout, err) = run(OPTIMOO, &wide, "");
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(v["total"].as_u64(), Some(total), "{stdout}");
    assert!(
        err.contains("width 2:") && !err.contains("width 1:"),
        "{err}"
    );
    // Bad input: a usage error.
    for widths in [["--max-width", "0"], ["--min-width", "4"]] {
        let (code, _, err) = run(OPTIMOO, &["improve", "-o", path, widths[0], widths[1]], "");
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("--max-width"), "{err}");
    }
}
