//! Writing a file so that a failed run leaves it as it was.
//!
//! A regular FILE is written through a temporary file beside it and renamed over it by
//! [`FileOutput::finish`]: no partial output that looks like a result, and a command may name one
//! of its inputs as its output (the input is read whole before it is replaced). Used by the
//! CLI's `-o FILE` and by [`crate::Enhancer::enhance_file`]. A process ended by a signal runs no
//! destructor: whoever handles signals removes [`FileOutput::temporary_path`] (the CLI does).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// An output file being written: replaced only by [`FileOutput::finish`], left as it was if the
/// run fails (the value is dropped first).
pub struct FileOutput(Target);

enum Target {
    /// A temporary file, renamed to `path` by [`FileOutput::finish`].
    Replace { temp: BufWriter<tempfile::NamedTempFile>, path: PathBuf },
    /// Something other than a regular file (`/dev/null`, a named pipe): written directly.
    Special(BufWriter<File>),
}

impl FileOutput {
    /// Prepares to write `path`. A link to a file: the file is replaced, the link stays.
    pub fn create(path: &Path) -> io::Result<FileOutput> {
        let resolved = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink()).then(|| std::fs::canonicalize(path));
        let path = match &resolved {
            Some(Ok(target)) => target.as_path(),
            _ => path,
        };
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            let file = File::options().write(true).open(path)?;
            return Ok(FileOutput(Target::Special(BufWriter::with_capacity(1 << 16, file))));
        }
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(".eudify-").suffix(".tmp");
        // The default 0600 would survive the rename: ask for what a new file gets (umask applies).
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        // tempfile names its own random path in the error: the OS error alone says enough.
        let temp = builder.tempfile_in(dir).map_err(|e| e.raw_os_error().map_or(e, io::Error::from_raw_os_error))?;
        Ok(FileOutput(Target::Replace { temp: BufWriter::with_capacity(1 << 16, temp), path: path.to_path_buf() }))
    }

    /// Flushes, and puts the file in place.
    pub fn finish(self) -> io::Result<()> {
        match self.0 {
            Target::Special(mut out) => out.flush(),
            Target::Replace { temp, path } => {
                let temp = temp.into_inner().map_err(|e| e.into_error())?;
                temp.persist(&path).map(|_| ()).map_err(|e| e.error)
            }
        }
    }

    /// The temporary file being written, to be removed if the process is ended before
    /// [`FileOutput::finish`] (a signal: the value is then never dropped, which would remove
    /// it). `None` for a special file, which is written directly.
    pub fn temporary_path(&self) -> Option<&Path> {
        match &self.0 {
            Target::Replace { temp, .. } => Some(temp.get_ref().path()),
            Target::Special(_) => None,
        }
    }

    fn writer(&mut self) -> &mut dyn Write {
        match &mut self.0 {
            Target::Replace { temp, .. } => temp,
            Target::Special(out) => out,
        }
    }
}

impl Write for FileOutput {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer().write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer().write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer().flush()
    }
}
