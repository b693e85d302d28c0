//! `optimoo nash`: the codemaker's game from the command line. The
//! equilibrium itself is checked in the `equilibrium` crate (small games,
//! mm:4x6 = 5600/1290 behind --ignored); here the report, the folder and
//! `--check`.

use serde_json::Value;

use crate::trees::{run, scratch};
use crate::OPTIMOO;

#[test]
fn mm_2x3_matches_bonnet_and_viennot_and_checks() {
    let dir = scratch("nash-mm-2x3");
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let (code, out, err) = run(
        OPTIMOO,
        &["nash", "--game", "mm:2x3", "-o", d, "--json"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let fields = crate::cli::readme_fields("`nash` (and DIR/nash.json)");
    assert_eq!(crate::cli::keys(&out), fields);
    assert_eq!(v["game"], "mm:2x3");
    // Bonnet and Viennot (2016), note 3: the 3 one-colour codes 1/6 each,
    // the 6 others 1/12 each: each orbit 1/2.
    let orbits = v["codemaker"].as_array().unwrap();
    assert_eq!(orbits.len(), 2);
    assert_eq!(
        (orbits[0]["orbit"].as_str(), orbits[0]["codes"].as_u64()),
        (Some("00"), Some(3))
    );
    assert_eq!(orbits[0]["weight"], "1/2");
    assert_eq!(orbits[1]["weight"], "1/2");
    for t in v["codebreaker"].as_array().unwrap() {
        let name = t["tree"].as_str().unwrap();
        let (code, _, err) = run(OPTIMOO, &["verify", &format!("{d}/{name}")], "");
        assert_eq!(code, 0, "{err}");
    }
    let (code, text, err) = run(OPTIMOO, &["nash", "--check", d], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains(&format!(
            "ok: mm:2x3 value {}",
            v["value"].as_str().unwrap()
        )),
        "{text}"
    );
    // A forged value or weight fails the check (exit 1), naming why.
    let path = dir.join("nash.json");
    let good = std::fs::read_to_string(&path).unwrap();
    let value = v["value"].as_str().unwrap();
    std::fs::write(
        &path,
        good.replace(&format!("\"value\": \"{value}\""), "\"value\": \"5/2\""),
    )
    .unwrap();
    let (code, text, _) = run(OPTIMOO, &["nash", "--check", d], "");
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("FAILED"), "{text}");
    std::fs::write(&path, good.replacen("\"1/2\"", "\"1/3\"", 1)).unwrap();
    let (code, text, _) = run(OPTIMOO, &["nash", "--check", d], "");
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("not a distribution"), "{text}");
    std::fs::write(&path, &good).unwrap();
    // A folder with files is not written over.
    let (code, _, err) = run(OPTIMOO, &["nash", "--game", "mm:2x3", "-o", d], "");
    assert_eq!(code, 2);
    assert!(err.contains("is not empty"), "{err}");
}

#[test]
fn moo_has_the_uniform_equilibrium() {
    let (code, out, err) = run(OPTIMOO, &["nash", "--game", "moo:3x5", "--json"], "");
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["codemaker"].as_array().unwrap().len(), 1);
    assert_eq!(v["codemaker"][0]["weight"], "1");
    // The value is the optimal average with no cap.
    let (_, out, _) = run(OPTIMOO, &["solve", "--game", "moo:3x5", "--json"], "");
    let s: Value = serde_json::from_str(&out).unwrap();
    let (p, q) = (s["total"].as_u64().unwrap(), 60u64);
    let g = gcd(p, q);
    assert_eq!(v["value"], format!("{}/{}", p / g, q / g));
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[test]
fn bad_nash_input_is_refused() {
    let (code, _, err) = run(OPTIMOO, &["nash", "--check", "/nonexistent-dir"], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("/nonexistent-dir/nash.json does not exist"),
        "{err}"
    );
    let dir = scratch("nash-bad");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("nash.json"), "{\"game\": 3}").unwrap();
    let (code, _, err) = run(OPTIMOO, &["nash", "--check", dir.to_str().unwrap()], "");
    assert_eq!(code, 2);
    assert!(err.contains("is not a nash.json of optimoo"), "{err}");
}

/// A run stopped after its first tree (only DIR/progress/tree-1.tree
/// left) goes on from it when given the same folder, and ends on the same
/// equilibrium; a finished folder is refused.
#[test]
fn a_stopped_run_resumes_from_its_trees() {
    let whole = scratch("nash-mm-3x3-whole");
    let resumed = scratch("nash-mm-3x3-resumed");
    for d in [&whole, &resumed] {
        let _ = std::fs::remove_dir_all(d);
    }
    let args = |d: &std::path::Path| {
        vec![
            "nash".to_string(),
            "--game".into(),
            "mm:3x3".into(),
            "-o".into(),
            d.to_str().unwrap().to_string(),
            "--json".into(),
        ]
    };
    let strs = |v: &[String]| v.iter().map(String::as_str).collect::<Vec<_>>().join(" ");
    let (code, out, err) = run(
        OPTIMOO,
        &args(&whole).iter().map(String::as_str).collect::<Vec<_>>(),
        "",
    );
    assert_eq!(code, 0, "{err}");
    let trees = std::fs::read_dir(whole.join("progress")).unwrap().count();
    assert!(trees >= 2, "{trees} trees");
    std::fs::create_dir_all(resumed.join("progress")).unwrap();
    std::fs::copy(
        whole.join("progress/tree-1.tree"),
        resumed.join("progress/tree-1.tree"),
    )
    .unwrap();
    // A log the user keeps beside the progress does not stop the resume.
    std::fs::write(resumed.join("log.txt"), "round 1\n").unwrap();
    let a = args(&resumed);
    let (code, again, err) = run(
        OPTIMOO,
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
        "",
    );
    assert_eq!(code, 0, "{}: {err}", strs(&a));
    assert!(err.contains("resuming from the 1 trees"), "{err}");
    let value = |text: &str| serde_json::from_str::<Value>(text).unwrap()["value"].clone();
    assert_eq!(value(&again), value(&out));
    assert!(resumed.join("log.txt").is_file());
    // Finished, or holding something else: refused.
    let (code, _, err) = run(
        OPTIMOO,
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not empty"), "{err}");
}

/// `--check` re-derives every orbit from the game: a label swapped
/// between orbits of different weights, a label that is no code, one
/// label twice, a wrong count, an orbit missing: each fails (exit 1).
/// The output says how the trees are played (a field, and a line).
#[test]
fn check_re_derives_the_orbits() {
    let dir = scratch("nash-mm-3x3-orbits");
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let (code, text, err) = run(OPTIMOO, &["nash", "--game", "mm:3x3", "-o", d], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("played      each tree under a uniformly random symmetry"),
        "{text}"
    );
    let path = dir.join("nash.json");
    let good = std::fs::read_to_string(&path).unwrap();
    let v: Value = serde_json::from_str(&good).unwrap();
    assert!(v["played"]
        .as_str()
        .unwrap()
        .contains("symbols relabelled and the positions permuted"));
    let (code, text, err) = run(OPTIMOO, &["nash", "--check", d], "");
    assert_eq!(code, 0, "{text}{err}");
    assert!(text.contains("the 3 orbits re-derived"), "{text}");
    let orbits = v["codemaker"].as_array().unwrap();
    let label = |i: usize| orbits[i]["orbit"].as_str().unwrap().to_string();
    let (a, b) = (0..orbits.len())
        .flat_map(|i| (i + 1..orbits.len()).map(move |j| (i, j)))
        .find(|&(i, j)| orbits[i]["weight"] != orbits[j]["weight"])
        .expect("two orbits of different weights");
    let forge = |edit: &dyn Fn(&mut Value)| {
        let mut f = v.clone();
        edit(&mut f);
        std::fs::write(&path, serde_json::to_string_pretty(&f).unwrap()).unwrap();
        let (code, text, err) = run(OPTIMOO, &["nash", "--check", d], "");
        assert_eq!(code, 1, "{f}: {text}{err}");
        assert!(
            text.contains("FAILED: orbit") || text.contains("FAILED: 2 orbits"),
            "{text}"
        );
    };
    forge(&|f| {
        f["codemaker"][a]["orbit"] = label(b).into();
        f["codemaker"][b]["orbit"] = label(a).into();
    });
    forge(&|f| f["codemaker"][a]["orbit"] = "</script>".into());
    forge(&|f| f["codemaker"][b]["orbit"] = label(a).into());
    forge(&|f| {
        let n = f["codemaker"][a]["codes"].as_u64().unwrap();
        f["codemaker"][a]["codes"] = (n + 1).into();
    });
    forge(&|f| {
        f["codemaker"].as_array_mut().unwrap().pop();
    });
    // How the trees are played is not rewritten either.
    let mut f = v.clone();
    f["played"] = "as written".into();
    std::fs::write(&path, serde_json::to_string_pretty(&f).unwrap()).unwrap();
    let (code, text, _) = run(OPTIMOO, &["nash", "--check", d], "");
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("not how optimoo's trees are played"),
        "{text}"
    );
    std::fs::write(&path, &good).unwrap();
}
