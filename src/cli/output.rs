//! Output files, written atomically and safely.
//!
//! An [`Output`] is opened before any long work starts: the path is
//! checked at once (a folder, or a missing parent folder, is refused with
//! a clear message, so a search's result is never lost at the end), and the
//! folder is proved writable by creating (and at once removing) a temporary
//! file there. [`Output::commit`] creates a temporary file with a unique
//! random name beside the path by `tempfile` (`O_EXCL`: an existing file or
//! link under that name is never opened, let alone followed), writes and
//! syncs it, and renames it over the path (a link at the path is replaced,
//! not followed). The file is created with the permissions `cp` or `rustc`
//! give a new file, 0666 less the umask (0644 under the usual umask 022,
//! so a page copied to a web server can be read; 0600 under 077), not
//! tempfile's own 0600: the kernel applies the umask when the file is
//! opened, so it is never read (reading it means setting it, which is not
//! safe while other threads run). On any failure the temporary file is removed; and since
//! it exists only while the result is written, a process killed during a
//! long search (SIGTERM, SIGKILL, a batch scheduler's time limit) leaves
//! nothing behind.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use tempfile::NamedTempFile;

/// A file about to be written at `path`.
#[derive(Debug)]
pub struct Output {
    path: PathBuf,
    parent: PathBuf,
    prefix: std::ffi::OsString,
}

impl Output {
    /// Checks `path` and creates the temporary file beside it.
    pub fn create(path: &Path) -> anyhow::Result<Output> {
        if path.as_os_str().is_empty() {
            bail!("-o needs a file name");
        }
        if path.is_dir() {
            bail!(
                "{} is a folder: give -o a file name, e.g. {}",
                path.display(),
                path.join("out.tree").display()
            );
        }
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if !parent.is_dir() {
            bail!(
                "cannot write {}: the folder {} does not exist (create it first)",
                path.display(),
                parent.display()
            );
        }
        let name = path
            .file_name()
            .with_context(|| format!("{} does not name a file", path.display()))?;
        let mut prefix = std::ffi::OsString::from(".");
        prefix.push(name);
        prefix.push(".");
        let output = Output {
            path: path.to_path_buf(),
            parent: parent.to_path_buf(),
            prefix,
        };
        // The probe is removed when dropped: only the check remains.
        output.temp()?;
        Ok(output)
    }

    /// A new temporary file beside the path (removed unless persisted).
    fn temp(&self) -> anyhow::Result<NamedTempFile> {
        new_file(&self.prefix)
            .tempfile_in(&self.parent)
            .with_context(|| format!("cannot write in {}", self.parent.display()))
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `bytes` and puts the file in place.
    pub fn commit(self, bytes: &[u8]) -> anyhow::Result<()> {
        self.commit_with(|w| Ok(w.write_all(bytes)?))
    }

    /// Puts in place the file `write` writes, streamed (through a buffer)
    /// into the temporary file: nothing of it is held in memory. When
    /// `write` fails, the temporary file is removed and the path is left
    /// as it was.
    pub fn commit_with(
        self,
        write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let what = || format!("cannot write {}", self.path.display());
        let mut temp = self.temp()?;
        {
            let mut buffered = std::io::BufWriter::new(temp.as_file_mut());
            write(&mut buffered)?;
            buffered.flush().with_context(what)?;
        }
        temp.as_file().sync_all().with_context(what)?;
        let path = self.path.clone();
        temp.persist(&path)
            .map_err(|e| e.error)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(())
    }
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
    fn planted_links_are_not_followed() {
        let dir = scratch();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"keep").unwrap();
        // The old fixed temporary name, planted as a link to the victim.
        let path = dir.path().join("out.tree");
        std::os::unix::fs::symlink(&victim, dir.path().join("out.tree.tmp")).unwrap();
        Output::create(&path).unwrap().commit(b"tree").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
        // A link at the path itself is replaced, not written through.
        let link = dir.path().join("link.tree");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        Output::create(&link).unwrap().commit(b"tree").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
        assert_eq!(std::fs::read(&link).unwrap(), b"tree");
        assert!(!std::fs::symlink_metadata(&link).unwrap().is_symlink());
    }
}
