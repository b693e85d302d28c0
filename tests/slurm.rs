//! scripts/optimoo-array.sbatch under a real Slurm: the mm:4x6 plan's 52
//! units submitted as a job array with `sbatch`, one running task cancelled
//! with `scancel`, the missing units submitted again, and `merge`'s tree
//! byte for byte `solve`'s (and data/mm-4x6.tree); no unit finished before
//! the cancel is lost or changed. It needs a Slurm that answers `sinfo`
//! (scripts/slurm-local.sh starts a one-node one on localhost, as `.ci/run`
//! does); without one it is skipped, saying so on stderr, unless
//! `OPTIMOO_TEST_SLURM=1` (set by `.ci/run`), which makes that a failure.
//! The script is also run by hand, the way a task runs it, which needs no
//! Slurm: the binary from `OPTIMOO`, the memory limit from Slurm's
//! `SLURM_MEM_PER_NODE`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::trees::{run, scratch};
use crate::OPTIMOO;

/// The script under test.
fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/optimoo-array.sbatch")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A fresh scratch folder.
fn folder(name: &str) -> PathBuf {
    let dir = scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `optimoo` and insists on exit code 0.
fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(OPTIMOO, args, "");
    assert_eq!(code, 0, "{args:?}: {out}{err}");
    out
}

/// Runs a Slurm command in `cwd`: its exit status and its output.
fn slurm(cwd: &Path, cmd: &str, args: &[&str]) -> (bool, String) {
    match Command::new(cmd).args(args).current_dir(cwd).output() {
        Ok(o) => (
            o.status.success(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ),
        ),
        Err(e) => (false, format!("{cmd}: {e}")),
    }
}

/// Why no Slurm can be used here, or None when `sinfo` lists a partition.
fn no_slurm() -> Option<String> {
    match slurm(Path::new("."), "sinfo", &["-h", "-o", "%P %a %t"]) {
        (true, out) if !out.trim().is_empty() => None,
        (true, _) => Some("sinfo lists no partition".into()),
        (false, out) => Some(out.trim().to_string()),
    }
}

/// Every unit file of `dir` by name, with its bytes.
fn unit_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir.join("units"))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

/// The units of `0..n` whose file is missing.
fn missing(dir: &Path, n: usize) -> Vec<usize> {
    (0..n)
        .filter(|i| !dir.join("units").join(format!("{i}.json")).exists())
        .collect()
}

/// Cancels the jobs it holds when dropped, so a failing test leaves no
/// task queued or sleeping.
struct Jobs(Vec<String>);

impl Drop for Jobs {
    fn drop(&mut self) {
        for job in &self.0 {
            let _ = slurm(Path::new("."), "scancel", &[job]);
        }
    }
}

/// Polls `done` every 0.2 s for at most `limit`, panicking with `what`.
fn wait_for(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Whether job `job` still has a task pending or running.
fn queued(cwd: &Path, job: &str) -> bool {
    let (ok, out) = slurm(cwd, "squeue", &["-h", "-r", "-j", job, "-o", "%K %T"]);
    // squeue refuses a job id it no longer knows: the job is over.
    ok && !out.trim().is_empty()
}

/// Submits the array `array` of the script over the plan in `run`, from
/// `cwd` (where the tasks' output files go), with `env` exported: the job id.
fn submit(cwd: &Path, run: &Path, array: &str, env: &str) -> String {
    // One CPU a task (the script asks two): two tasks at once on a 2-core
    // node; a time limit in case the test dies with its tasks queued.
    let (ok, out) = slurm(
        cwd,
        "sbatch",
        &[
            "--parsable",
            &format!("--array={array}"),
            "--cpus-per-task=1",
            "--time=10",
            &format!("--export=ALL,DIR={}{env}", s(run)),
            s(&script()),
        ],
    );
    assert!(ok, "sbatch: {out}");
    // --parsable prints "id" or "id;cluster".
    let id = out.trim().split(';').next().unwrap().to_string();
    assert!(id.parse::<u64>().is_ok(), "sbatch printed {out}");
    id
}

/// The value of the script's `#SBATCH --NAME=` line.
fn sbatch_option(name: &str) -> String {
    let text = std::fs::read_to_string(script()).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("#SBATCH --{name}=")))
        .unwrap_or_else(|| panic!("no #SBATCH --{name}"))
        .trim()
        .to_string()
}

/// The script's `--mem` in MiB, as Slurm puts it in SLURM_MEM_PER_NODE.
fn mem_mib() -> u64 {
    let mem = sbatch_option("mem");
    match mem.split_at(mem.len() - 1) {
        (g, "G") => g.parse::<u64>().unwrap() * 1024,
        (m, "M") => m.parse().unwrap(),
        _ => panic!("--mem={mem}"),
    }
}

/// How `work` states a limit of `mib` MiB (`--max-memory allows 4.0 GiB`).
fn allows(mib: u64) -> String {
    format!("--max-memory allows {:.1} GiB", mib as f64 / 1024.0)
}

#[test]
fn a_job_array_with_a_cancelled_task_merges_into_solves_tree() {
    if let Some(why) = no_slurm() {
        if std::env::var("OPTIMOO_TEST_SLURM").as_deref() == Ok("1") {
            panic!(
                "OPTIMOO_TEST_SLURM=1 but no Slurm answers ({why}): start one with \
                 scripts/slurm-local.sh"
            );
        }
        eprintln!(
            "slurm::a_job_array_with_a_cancelled_task_merges_into_solves_tree: SKIPPED, no \
             Slurm answers ({why}); scripts/slurm-local.sh starts one (as root), \
             OPTIMOO_TEST_SLURM=1 makes this a failure"
        );
        return;
    }
    let base = folder("slurm-array");
    let dir = base.join("run");
    ok(&["plan", "--game", "mm:4x6", "-o", s(&dir)]);
    let n = optimoo_cli::cli::checkpoint::Folder::open(&dir)
        .unwrap()
        .plan
        .units
        .len();
    assert!(n > 4, "{n} units");
    // The binary the tasks run: task SLOW says it started, then sleeps
    // before it works, so that it is cancelled while it runs, with the
    // units before it done.
    let slow = n / 2;
    let started = base.join("slow-started");
    let wrapper = base.join("optimoo-slow.sh");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nif [ \"$SLURM_ARRAY_TASK_ID\" = \"$SLOW\" ]; then\n  \
             touch '{}'\n  sleep 300\nfi\nexec '{OPTIMOO}' \"$@\"\n",
            s(&started)
        ),
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let mut jobs = Jobs(vec![]);
    let job = submit(
        &base,
        &dir,
        &format!("0-{}", n - 1),
        &format!(",OPTIMOO={},SLOW={slow}", s(&wrapper)),
    );
    jobs.0.push(job.clone());
    let task = format!("{job}_{slow}");
    wait_for(Duration::from_secs(300), "task SLOW started", || {
        started.exists()
    });
    let (_, out) = slurm(
        &base,
        "squeue",
        &["-h", "-r", "-j", &job, "-t", "RUNNING", "-o", "%K"],
    );
    assert!(
        out.lines().any(|l| l.trim() == slow.to_string()),
        "{task} not running: {out}"
    );
    let before = unit_files(&dir);
    assert!(!before.contains_key(&format!("{slow}.json")));
    // The tasks start in index order: some units are done by now.
    assert!(!before.is_empty(), "no unit done before task {slow}");
    let (cancelled, out) = slurm(&base, "scancel", &[&task]);
    assert!(cancelled, "scancel {task}: {out}");
    wait_for(Duration::from_secs(300), "the array over", || {
        !queued(&base, &job)
    });

    // The cancelled task ran and was cancelled; every other unit is done.
    let (_, shown) = slurm(&base, "scontrol", &["show", "job", &task]);
    assert!(shown.contains("JobState=CANCELLED"), "{task}: {shown}");
    assert_eq!(missing(&dir, n), vec![slow]);
    let after = unit_files(&dir);
    for (name, bytes) in &before {
        assert_eq!(after.get(name), Some(bytes), "{name} lost or changed");
    }
    // Each task's first line: the memory limit came from Slurm's allocation.
    let first = std::fs::read_to_string(base.join(format!("optimoo-{job}_0.out"))).unwrap();
    assert!(first.contains(&allows(mem_mib())), "{first}");
    assert!(first.contains("unit 0 ("), "{first}");

    // The missing unit again, with a done one (its task exits at once), by
    // the binary itself.
    let again = submit(
        &base,
        &dir,
        &format!("{slow},0"),
        &format!(",OPTIMOO={OPTIMOO}"),
    );
    jobs.0.push(again.clone());
    wait_for(Duration::from_secs(300), "the second array over", || {
        !queued(&base, &again)
    });
    assert_eq!(missing(&dir, n), Vec::<usize>::new());
    let last = unit_files(&dir);
    for (name, bytes) in &after {
        assert_eq!(
            last.get(name),
            Some(bytes),
            "{name} changed by the second array"
        );
    }
    let redone = std::fs::read_to_string(base.join(format!("optimoo-{again}_0.out"))).unwrap();
    assert!(redone.contains("unit 0 is done already"), "{redone}");

    let merged = base.join("merged.tree");
    let solved = base.join("solved.tree");
    ok(&["merge", s(&dir), "-o", s(&merged)]);
    ok(&["solve", "--game", "mm:4x6", "-o", s(&solved)]);
    let merged = std::fs::read(&merged).unwrap();
    assert!(
        merged == std::fs::read(&solved).unwrap(),
        "merge differs from solve"
    );
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/mm-4x6.tree");
    assert!(
        merged == std::fs::read(committed).unwrap(),
        "merge differs from data/mm-4x6.tree"
    );
    let _ = std::fs::remove_dir_all(&base);
}

/// The script run the way a Slurm task runs it, without Slurm: the binary
/// named by `OPTIMOO` (none on the PATH), the unit from
/// `SLURM_ARRAY_TASK_ID`, the threads and the memory limit from the
/// variables Slurm sets for the script's own `#SBATCH` lines. Its memo fits
/// the `--mem` it asks for; a smaller allocation is refused (exit code 2)
/// before any work, instead of the node killing the task later.
#[test]
fn the_script_runs_as_a_task_within_its_memory() {
    let cpus = sbatch_option("cpus-per-task");
    let mib = mem_mib();
    let dir = folder("slurm-by-hand");
    ok(&["plan", "--game", "mm:4x6", "-o", s(&dir)]);
    let task = |unit: &str, mem: u64| {
        Command::new("bash")
            .arg(script())
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("DIR", &dir)
            .env("OPTIMOO", OPTIMOO)
            .env("SLURM_ARRAY_TASK_ID", unit)
            .env("SLURM_CPUS_PER_TASK", &cpus)
            .env("SLURM_MEM_PER_NODE", mem.to_string())
            .output()
            .unwrap()
    };
    let o = task("3", mib);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains(&allows(mib)), "{err}");
    assert!(dir.join("units/3.json").exists());
    let o = task("4", 1024);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(&allows(1024)), "{err}");
    assert!(err.contains("--memo-mib"), "{err}");
    assert!(!dir.join("units/4.json").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
