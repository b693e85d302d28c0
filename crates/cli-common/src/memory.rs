//! The memory this process may still take, for both binaries: before a
//! large allocation, the need is stated on stderr and refused (exit code
//! 2) when it does not fit, instead of letting the allocator abort or the
//! kernel kill the process halfway.
//!
//! Invariants: [`available`] is the least of `MemAvailable` of
//! /proc/meminfo, what the cgroup v2 limit leaves, and what the address
//! space limit (`ulimit -v`, `prlimit --as`) leaves above the process's
//! current size; [`fit`] states the figure before anything large is
//! allocated, and lets the work run (saying so) when nothing can be read.
//!
//! The /proc and cgroup files are parsed by hand: a few lines of text,
//! where a crate would bring much more than this needs.

use anyhow::bail;

use crate::exit::say;

/// Writes bytes for people: `914.5 MiB`, `1.2 GiB`.
pub fn show(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1024f64.powi(3) {
        format!("{:.1} GiB", b / 1024f64.powi(3))
    } else if b >= 1024f64.powi(2) {
        format!("{:.1} MiB", b / 1024f64.powi(2))
    } else {
        format!("{:.0} KiB", (b / 1024.0).ceil())
    }
}

/// The memory available to this process: `MemAvailable` of /proc/meminfo,
/// or the cgroup v2 limit left (memory.max − memory.current), or the
/// address space limit left, whichever is lowest; with where the figure
/// comes from.
pub fn available() -> Result<(u64, &'static str), String> {
    let meminfo = std::fs::read_to_string("/proc/meminfo")
        .map_err(|e| format!("cannot read /proc/meminfo: {e}"))?;
    let mut best = (meminfo_available(&meminfo)?, "MemAvailable");
    if let Some(left) = cgroup_left() {
        if left < best.0 {
            best = (left, "the cgroup's memory.max");
        }
    }
    if let Some(left) = address_space_left() {
        if left < best.0 {
            best = (left, "the address space limit, ulimit -v");
        }
    }
    Ok(best)
}

/// `MemAvailable` (kB) of /proc/meminfo's text, in bytes.
pub fn meminfo_available(text: &str) -> Result<u64, String> {
    text.lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(|kb| kb.saturating_mul(1024))
        .ok_or_else(|| "/proc/meminfo has no MemAvailable line".to_string())
}

/// What the cgroup v2 limit leaves, if there is one.
fn cgroup_left() -> Option<u64> {
    let read = |name: &str| std::fs::read_to_string(format!("/sys/fs/cgroup/{name}")).ok();
    let max = read("memory.max")?.trim().parse::<u64>().ok()?; // "max": no limit
    let current = read("memory.current")
        .and_then(|t| t.trim().parse::<u64>().ok())
        .unwrap_or(0);
    Some(max.saturating_sub(current))
}

/// What the soft address space limit leaves above the process's current
/// virtual size, if there is a limit.
fn address_space_left() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let limit = soft_address_space(&limits)?;
    let size = status
        .lines()
        .find_map(|l| l.strip_prefix("VmSize:"))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(0, |kb| kb.saturating_mul(1024));
    Some(limit.saturating_sub(size))
}

/// The soft limit of `Max address space` in /proc/self/limits's text, in
/// bytes; `None` when unlimited or unreadable.
pub fn soft_address_space(limits: &str) -> Option<u64> {
    limits
        .lines()
        .find_map(|l| l.strip_prefix("Max address space"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|soft| soft.parse::<u64>().ok())
}

/// States the memory `need` (`stated`: the figure and what it is for) on
/// stderr with the memory available, and refuses when it does not fit:
/// `what` does not fit this machine (exit code 2).
pub fn fit(stated: &str, need: u64, what: &str) -> anyhow::Result<()> {
    match available() {
        Ok((have, source)) if need > have => bail!(
            "{stated}, but {} is available ({source}): {what} does not fit this machine",
            show(have)
        ),
        Ok((have, source)) => say(&format!("{stated}; {} available ({source})", show(have))),
        Err(why) => say(&format!("{stated}; {why}: not checked")),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_is_read() {
        let text = "MemTotal:       24684092 kB\nMemFree:  1 kB\nMemAvailable:   23447328 kB\n";
        assert_eq!(meminfo_available(text), Ok(23_447_328 * 1024));
        assert!(meminfo_available("MemTotal: 5 kB\n").is_err());
        assert!(meminfo_available("MemAvailable: lots\n").is_err());
    }

    #[test]
    fn the_address_space_limit_is_read() {
        let limited = "Limit                     Soft Limit           Hard Limit           Units     \n\
                       Max stack size            8388608              unlimited            bytes     \n\
                       Max address space         2147483648           unlimited            bytes     \n";
        assert_eq!(soft_address_space(limited), Some(2 << 30));
        let unlimited =
            "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(soft_address_space(unlimited), None);
        assert_eq!(soft_address_space(""), None);
    }

    #[test]
    fn sizes_are_shown_for_people() {
        assert_eq!(show(914_457_600), "872.1 MiB");
        assert_eq!(show(3 << 29), "1.5 GiB");
        assert_eq!(show(1000), "1 KiB");
    }
}
