//! Where a command writes: stdout, or `-o FILE`.
//!
//! A regular FILE is written through a temporary file beside it and renamed over it by
//! [`Output::finish`]: a failed run leaves FILE as it was (no partial output that looks like a
//! result), and `eudify enhance x.conllu -o x.conllu` reads x whole before replacing it.

use anyhow::{Context, Result};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

pub enum Output {
    Stdout(BufWriter<io::StdoutLock<'static>>),
    /// A temporary file, renamed to `path` when the run succeeds.
    Replace { temp: BufWriter<tempfile::NamedTempFile>, path: PathBuf },
    /// Something other than a regular file (`/dev/null`, a named pipe): written directly.
    Special(BufWriter<File>),
}

impl Output {
    /// Stdout for `None` or `-`, FILE otherwise.
    pub fn create(path: Option<&Path>) -> Result<Output> {
        let path = match path {
            Some(path) if !crate::cli::is_stdin(path) => path,
            _ => return Ok(Output::Stdout(BufWriter::with_capacity(1 << 16, io::stdout().lock()))),
        };
        let name = path.display();
        // A link to a file: the file is replaced, the link stays.
        let resolved = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink()).then(|| std::fs::canonicalize(path));
        let path = match &resolved {
            Some(Ok(target)) => target.as_path(),
            _ => path,
        };
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            let file = File::options().write(true).open(path).with_context(|| format!("{name}: cannot write"))?;
            return Ok(Output::Special(BufWriter::with_capacity(1 << 16, file)));
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
        let temp = builder
            .tempfile_in(dir)
            .map_err(|e| e.raw_os_error().map_or(e, io::Error::from_raw_os_error))
            .with_context(|| format!("{name}: cannot write"))?;
        Ok(Output::Replace { temp: BufWriter::with_capacity(1 << 16, temp), path: path.to_path_buf() })
    }

    /// Flushes, and puts FILE in place.
    pub fn finish(self) -> Result<()> {
        match self {
            Output::Stdout(mut out) => out.flush()?,
            Output::Special(mut out) => out.flush()?,
            Output::Replace { temp, path } => {
                let name = path.display();
                let temp = temp.into_inner().map_err(|e| e.into_error()).with_context(|| format!("{name}: cannot write"))?;
                temp.persist(&path).map_err(|e| e.error).with_context(|| format!("{name}: cannot write"))?;
            }
        }
        Ok(())
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(out) => out.write(buf),
            Output::Replace { temp, .. } => temp.write(buf),
            Output::Special(out) => out.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Output::Stdout(out) => out.write_all(buf),
            Output::Replace { temp, .. } => temp.write_all(buf),
            Output::Special(out) => out.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(out) => out.flush(),
            Output::Replace { temp, .. } => temp.flush(),
            Output::Special(out) => out.flush(),
        }
    }
}
