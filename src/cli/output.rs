//! Output files, written as `cp` and a shell redirection write them, and
//! atomically wherever a file is replaced.
//!
//! An [`Output`] is opened before any long work starts: the path is
//! checked at once (a folder, or a missing parent folder, is refused with
//! a clear message, so a search's result is never lost at the end), and
//! what the path holds decides how it is written:
//!
//! - nothing, or a regular file with no other link: a temporary file with
//!   a unique random name is created beside the path by `tempfile`
//!   (`O_EXCL`: an existing file or link under that name is never opened,
//!   let alone followed), written, synced and renamed over the path, so
//!   the path holds the old file or the whole new one, never a part. The
//!   folder is proved writable at once by creating (and removing) such a
//!   file.
//! - a symbolic link (a chain of them): followed, as `cp` and `>` follow
//!   it; the file it ends at is written by these same rules (replaced
//!   atomically when regular, created when the link dangles), and the link
//!   stays a link.
//! - a device or a FIFO (`/dev/null`, `/dev/stdout`, a named pipe): written
//!   through, opened for writing when the result is ready, as a shell
//!   redirection does; the node itself is never replaced. An error on the
//!   way (`/dev/full`: no space left) is reported with the path. A socket
//!   is refused.
//! - a link of /proc to an open file (`/dev/stdout`, `/dev/fd/1`, whatever
//!   it is open on): written through, in place, as the kernel opens it; a
//!   regular file so reached is never replaced by a name beside it.
//! - a regular file with other hard links: written into its own inode, as
//!   `cp` does, so every link sees the new content (replacing it by rename
//!   would cut this name off from the others). To keep the old content
//!   whole when the result cannot be made, the result is first written to
//!   an anonymous temporary file, then copied in.
//!
//! A new file is created with the permissions `cp` or `rustc` give a new
//! file, 0666 less the umask (0644 under the usual umask 022, so a page
//! copied to a web server can be read; 0600 under 077), not tempfile's own
//! 0600: the kernel applies the umask when the file is opened, so it is
//! never read (reading it means setting it, which is not safe while other
//! threads run). On any failure the temporary file is removed; and since
//! it exists only while the result is written, a process killed during a
//! long search (SIGTERM, SIGKILL, a batch scheduler's time limit) leaves
//! nothing behind.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use tempfile::NamedTempFile;

/// How many links are followed before a chain is called a loop (Linux's
/// own limit).
const MAX_LINKS: usize = 40;

/// How the file at the path is written.
#[derive(Debug)]
enum Target {
    /// A temporary file in `parent`, renamed over `path` (the file the
    /// path's links lead to).
    Replace {
        path: PathBuf,
        parent: PathBuf,
        prefix: std::ffi::OsString,
    },
    /// Opened and written in place: a device or a FIFO (`staged` false),
    /// or a regular file with other hard links (`staged`: the result is
    /// made in full before the file is touched).
    Through { path: PathBuf, staged: bool },
}

/// A file about to be written at `path`.
#[derive(Debug)]
pub struct Output {
    /// The path as given (shown in messages).
    path: PathBuf,
    target: Target,
}

/// A followed chain of links: where it ends, what is there, and whether
/// it went through /proc (a link to an open file: `/dev/stdout`).
type Resolved = (PathBuf, Option<std::fs::Metadata>, bool);

/// Follows `path`'s symbolic links: the path they end at, its metadata if
/// it exists, and whether a link of /proc was on the way.
fn resolve(path: &Path) -> anyhow::Result<Resolved> {
    let mut at = path.to_path_buf();
    let mut proc = false;
    for _ in 0..=MAX_LINKS {
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                proc |= at.starts_with("/proc");
                let to = std::fs::read_link(&at)
                    .with_context(|| format!("cannot read the link {}", at.display()))?;
                at = match at.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            Ok(m) => return Ok((at, Some(m), proc)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((at, None, proc)),
            Err(e) => return Err(e).with_context(|| format!("cannot write {}", at.display())),
        }
    }
    bail!(
        "cannot write {}: more than {MAX_LINKS} symbolic links in a row (a loop?)",
        path.display()
    )
}

impl Output {
    /// Checks `path` and creates the temporary file beside it.
    pub fn create(path: &Path) -> anyhow::Result<Output> {
        if path.as_os_str().is_empty() {
            bail!("-o needs a file name");
        }
        let (real, meta, proc) = resolve(path)?;
        // What the kernel reaches by the path. It differs from what the
        // links say only through /proc's links to open files
        // (`/dev/stdout`, `/dev/fd/N`): those are written through, the
        // file open in the shell, never a name beside it.
        let reached = std::fs::metadata(path).ok();
        #[cfg(unix)]
        let (real, meta, opened) = {
            use std::os::unix::fs::MetadataExt;
            let same = match (&meta, &reached) {
                (Some(a), Some(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
                (_, None) => true,
                (None, Some(_)) => false,
            };
            if same && !proc {
                (real, meta, false)
            } else {
                (path.to_path_buf(), reached, true)
            }
        };
        #[cfg(not(unix))]
        let _ = &reached;
        if meta.as_ref().is_some_and(|m| m.is_dir()) {
            bail!(
                "{} is a folder: give -o a file name, e.g. {}",
                path.display(),
                path.join("out.tree").display()
            );
        }
        let shown = || path.display();
        if let Some(m) = &meta {
            #[cfg(unix)]
            {
                use std::os::unix::fs::{FileTypeExt, MetadataExt};
                let kind = m.file_type();
                if kind.is_socket() {
                    bail!("cannot write {}: it is a socket", shown());
                }
                if kind.is_fifo() {
                    // Opening a FIFO waits for a reader: done when the
                    // result is ready, not now.
                    return Ok(Output {
                        path: path.to_path_buf(),
                        target: Target::Through {
                            path: real,
                            staged: false,
                        },
                    });
                }
                let staged = m.is_file();
                if !staged || m.nlink() > 1 || opened {
                    // Proved writable now (opened, not truncated).
                    std::fs::OpenOptions::new()
                        .write(true)
                        .open(&real)
                        .with_context(|| format!("cannot write {}", shown()))?;
                    return Ok(Output {
                        path: path.to_path_buf(),
                        target: Target::Through { path: real, staged },
                    });
                }
            }
            #[cfg(not(unix))]
            let _ = m;
        }
        let parent = match real.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !parent.is_dir() {
            bail!(
                "cannot write {}: the folder {} does not exist (create it first)",
                path.display(),
                parent.display()
            );
        }
        let name = real
            .file_name()
            .with_context(|| format!("{} does not name a file", path.display()))?;
        let mut prefix = std::ffi::OsString::from(".");
        prefix.push(name);
        prefix.push(".");
        let output = Output {
            path: path.to_path_buf(),
            target: Target::Replace {
                path: real,
                parent,
                prefix,
            },
        };
        // The probe is removed when dropped: only the check remains.
        if let Target::Replace { parent, prefix, .. } = &output.target {
            temp(parent, prefix)?;
        }
        Ok(output)
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `bytes` and puts the file in place.
    pub fn commit(self, bytes: &[u8]) -> anyhow::Result<()> {
        self.commit_with(|w| Ok(w.write_all(bytes)?))
    }

    /// Puts in place the file `write` writes, streamed (through a buffer)
    /// into the temporary file: nothing of it is held in memory. When
    /// `write` fails, the temporary file is removed and a replaced or
    /// hard-linked file is left as it was (a device or a FIFO has had what
    /// was written before the failure, as with a shell redirection).
    pub fn commit_with(
        self,
        write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let what = || format!("cannot write {}", self.path.display());
        // An I/O error of `write` is one of writing the file: named so.
        let named = |err: anyhow::Error| {
            if err.chain().count() == 1 && err.downcast_ref::<std::io::Error>().is_some() {
                err.context(what())
            } else {
                err
            }
        };
        match &self.target {
            Target::Replace {
                path,
                parent,
                prefix,
            } => {
                let mut temp = temp(parent, prefix)?;
                {
                    let mut buffered = std::io::BufWriter::new(temp.as_file_mut());
                    write(&mut buffered).map_err(named)?;
                    buffered.flush().with_context(what)?;
                }
                temp.as_file().sync_all().with_context(what)?;
                temp.persist(path).map_err(|e| e.error).with_context(what)?;
            }
            Target::Through {
                path,
                staged: false,
            } => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .truncate(true)
                    .open(path)
                    .with_context(what)?;
                let mut buffered = std::io::BufWriter::new(file);
                write(&mut buffered).map_err(named)?;
                buffered.flush().with_context(what)?;
            }
            Target::Through { path, staged: true } => {
                use std::io::Seek;
                let mut stage = tempfile::tempfile()
                    .context("cannot create a temporary file (TMPDIR) to stage the result")?;
                {
                    let mut buffered = std::io::BufWriter::new(&mut stage);
                    write(&mut buffered).map_err(named)?;
                    buffered
                        .flush()
                        .context("cannot write the staged result (TMPDIR)")?;
                }
                stage
                    .seek(std::io::SeekFrom::Start(0))
                    .context("cannot read the staged result (TMPDIR)")?;
                let mut file = std::fs::OpenOptions::new()
                    .write(true)
                    .truncate(true)
                    .open(path)
                    .with_context(what)?;
                std::io::copy(&mut stage, &mut file).with_context(what)?;
                file.sync_all().with_context(what)?;
            }
        }
        Ok(())
    }
}

/// A new temporary file in `parent` named after `prefix` (removed unless
/// persisted).
fn temp(parent: &Path, prefix: &std::ffi::OsStr) -> anyhow::Result<NamedTempFile> {
    new_file(prefix)
        .tempfile_in(parent)
        .with_context(|| format!("cannot write in {}", parent.display()))
}

/// Says on stderr that `path` was written (`wrote FILE`): every command
/// that writes a file of the user's says so once it is in place.
pub fn wrote(path: &Path) {
    crate::exit::say(&format!("wrote {}", path.display()));
}

/// A temporary file's builder, named PREFIX, a random part and `.tmp`, whose file is
/// created as any new file is: mode 0666 less the umask (Unix; elsewhere
/// tempfile's default). Every file the command line writes (`-o`, plan.json,
/// unit files) is made by it.
pub fn new_file<S: AsRef<std::ffi::OsStr> + ?Sized>(prefix: &S) -> tempfile::Builder<'_, 'static> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn a_folder_or_a_missing_folder_is_refused_at_once() {
        let dir = scratch();
        let err = Output::create(dir.path()).unwrap_err().to_string();
        assert!(err.contains("is a folder"), "{err}");
        let err = Output::create(&dir.path().join("no/such/x.tree"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("does not exist"), "{err}");
        assert!(leftovers(dir.path()).is_empty());
    }

    #[test]
    fn commit_writes_and_leaves_no_temporary_file() {
        let dir = scratch();
        let path = dir.path().join("x.tree");
        let out = Output::create(&path).unwrap();
        // Nothing exists until the result is written: a killed search
        // leaves nothing behind.
        assert!(leftovers(dir.path()).is_empty());
        out.commit(b"hello").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"hello");
        assert!(leftovers(dir.path()).is_empty());
        // Dropped uncommitted: nothing is left behind.
        drop(Output::create(&path).unwrap());
        assert!(leftovers(dir.path()).is_empty());
        assert_eq!(std::fs::read(&path).unwrap(), b"hello");
    }

    #[cfg(unix)]
    #[test]
    fn planted_temporary_names_are_not_followed() {
        let dir = scratch();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"keep").unwrap();
        // The old fixed temporary name, planted as a link to the victim.
        let path = dir.path().join("out.tree");
        std::os::unix::fs::symlink(&victim, dir.path().join("out.tree.tmp")).unwrap();
        Output::create(&path).unwrap().commit(b"tree").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
        assert_eq!(std::fs::read(&path).unwrap(), b"tree");
    }

    #[cfg(unix)]
    #[test]
    fn a_regular_file_is_replaced_atomically() {
        use std::os::unix::fs::MetadataExt;
        let dir = scratch();
        let path = dir.path().join("x.tree");
        std::fs::write(&path, b"old").unwrap();
        let before = std::fs::metadata(&path).unwrap().ino();
        let out = Output::create(&path).unwrap();
        // A result that cannot be made leaves the old file whole.
        let err = out
            .commit_with(|w| {
                w.write_all(b"par")?;
                anyhow::bail!("no tree")
            })
            .unwrap_err();
        assert_eq!(err.to_string(), "no tree");
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        Output::create(&path).unwrap().commit(b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        // A new inode renamed over the old one: never half written.
        assert_ne!(std::fs::metadata(&path).unwrap().ino(), before);
        assert!(leftovers(dir.path()).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_followed_and_its_target_replaced() {
        let dir = scratch();
        let target = dir.path().join("target.tree");
        std::fs::write(&target, b"old").unwrap();
        let link = dir.path().join("link.tree");
        std::os::unix::fs::symlink("target.tree", &link).unwrap();
        // A chain of two links, the second relative to its own folder.
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let outer = dir.path().join("sub/outer.tree");
        std::os::unix::fs::symlink("../link.tree", &outer).unwrap();
        Output::create(&outer).unwrap().commit(b"tree").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"tree");
        for l in [&link, &outer] {
            assert!(std::fs::symlink_metadata(l).unwrap().is_symlink());
        }
        assert!(leftovers(dir.path()).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_dangling_link_creates_its_target_and_a_loop_is_refused() {
        let dir = scratch();
        let link = dir.path().join("link.tree");
        std::os::unix::fs::symlink("new.tree", &link).unwrap();
        Output::create(&link).unwrap().commit(b"tree").unwrap();
        assert_eq!(std::fs::read(dir.path().join("new.tree")).unwrap(), b"tree");
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        // A link into a missing folder: refused at once, like any path.
        let far = dir.path().join("far.tree");
        std::os::unix::fs::symlink("no/such/x.tree", &far).unwrap();
        let err = Output::create(&far).unwrap_err().to_string();
        assert!(err.contains("does not exist"), "{err}");
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::os::unix::fs::symlink("b", &a).unwrap();
        std::os::unix::fs::symlink("a", &b).unwrap();
        let err = Output::create(&a).unwrap_err().to_string();
        assert!(err.contains("symbolic links"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_hard_link_is_written_in_place() {
        use std::os::unix::fs::MetadataExt;
        let dir = scratch();
        let path = dir.path().join("x.tree");
        let other = dir.path().join("other.tree");
        std::fs::write(&path, b"old content").unwrap();
        std::fs::hard_link(&path, &other).unwrap();
        let inode = std::fs::metadata(&path).unwrap().ino();
        // A failed result leaves both names with the old content.
        let out = Output::create(&path).unwrap();
        assert!(out.commit_with(|_| anyhow::bail!("no tree")).is_err());
        assert_eq!(std::fs::read(&other).unwrap(), b"old content");
        Output::create(&path).unwrap().commit(b"new").unwrap();
        // The same inode, as cp gives: the other name sees the new file.
        assert_eq!(std::fs::metadata(&path).unwrap().ino(), inode);
        assert_eq!(std::fs::read(&other).unwrap(), b"new");
        assert!(leftovers(dir.path()).is_empty());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn devices_are_written_through_and_dev_full_fails_with_its_name() {
        use std::os::unix::fs::FileTypeExt;
        let null = Path::new("/dev/null");
        Output::create(null).unwrap().commit(b"tree").unwrap();
        let kind = std::fs::symlink_metadata(null).unwrap().file_type();
        assert!(kind.is_char_device());
        let full = Path::new("/dev/full");
        if full.exists() {
            let err = Output::create(full)
                .unwrap()
                .commit(&vec![b'x'; 100_000])
                .unwrap_err();
            let text = crate::exit::message(&err);
            assert!(text.contains("cannot write /dev/full"), "{text}");
            let io = err.root_cause().downcast_ref::<std::io::Error>().unwrap();
            assert_eq!(io.raw_os_error(), Some(28), "{text}"); // ENOSPC
                                                               // A short result too: the error comes at the flush.
            let err = Output::create(full).unwrap().commit(b"x").unwrap_err();
            assert!(crate::exit::message(&err).contains("cannot write /dev/full"));
            assert!(std::fs::symlink_metadata(full)
                .unwrap()
                .file_type()
                .is_char_device());
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_through_to_its_reader() {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch();
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here: nothing to test
        }
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        Output::create(&fifo).unwrap().commit(b"through").unwrap();
        assert_eq!(reader.join().unwrap(), b"through");
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo());
        assert!(leftovers(dir.path()).is_empty());
    }
}
