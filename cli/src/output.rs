//! Where a command writes: stdout, or `-o FILE` (replaced only when the run succeeds:
//! [`FileOutput`]).

use anyhow::{Context, Result};
use eudify::files::{is_stdin, FileOutput};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

pub enum Output {
    Stdout(BufWriter<io::StdoutLock<'static>>),
    File { out: FileOutput, path: PathBuf },
}

impl Output {
    /// Stdout for `None` or `-`, FILE otherwise.
    pub fn create(path: Option<&Path>) -> Result<Output> {
        match path {
            Some(path) if !is_stdin(path) => {
                let out = FileOutput::create(path)
                    .with_context(|| format!("{}: cannot write", path.display()))?;
                Ok(Output::File {
                    out,
                    path: path.to_path_buf(),
                })
            }
            _ => Ok(Output::Stdout(BufWriter::with_capacity(
                1 << 16,
                io::stdout().lock(),
            ))),
        }
    }

    /// Flushes, and puts FILE in place.
    pub fn finish(self) -> Result<()> {
        match self {
            Output::Stdout(mut out) => out.flush()?,
            Output::File { out, path } => out
                .finish()
                .with_context(|| format!("{}: cannot write", path.display()))?,
        }
        Ok(())
    }

    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Output::Stdout(out) => out,
            Output::File { out, .. } => out,
        }
    }
}

impl Write for Output {
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
