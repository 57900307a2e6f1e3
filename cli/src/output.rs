//! Where a command writes: stdout, or `-o FILE` (replaced only when the run succeeds:
//! [`FileOutput`]). A run ended by SIGTERM, SIGINT or SIGHUP leaves FILE as it was and no
//! temporary file beside it ([`signals`]).

use anyhow::{Context, Result};
use eudify::files::{is_stdin, FileOutput};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

pub enum Output {
    Stdout(BufWriter<io::StdoutLock<'static>>),
    File {
        out: FileOutput,
        path: PathBuf,
        /// Removes the temporary file if a signal ends the process first.
        _cleanup: Option<signals::Cleanup>,
    },
}

impl Output {
    /// Stdout for `None` or `-`, FILE otherwise.
    pub fn create(path: Option<&Path>) -> Result<Output> {
        match path {
            Some(path) if !is_stdin(path) => {
                let out = FileOutput::create(path)
                    .with_context(|| format!("{}: cannot write", path.display()))?;
                let cleanup = match out.temporary_path() {
                    Some(temp) => Some(signals::Cleanup::install(temp).with_context(|| {
                        format!("{}: cannot watch for signals", path.display())
                    })?),
                    None => None,
                };
                Ok(Output::File {
                    out,
                    path: path.to_path_buf(),
                    _cleanup: cleanup,
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
            Output::File {
                out,
                path,
                _cleanup: cleanup,
            } => {
                // A signal now waits until FILE is in place (and finds nothing to remove).
                let _renaming = cleanup.as_ref().map(signals::Cleanup::hold);
                out.finish()
                    .with_context(|| format!("{}: cannot write", path.display()))?
            }
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

#[cfg(unix)]
mod signals {
    //! The temporary file of `-o FILE` removed when a signal ends the process: the process ends
    //! without running destructors, which is what removes it otherwise. A thread waits for the
    //! signals while the file is written, removes it and ends the process as the signal would.

    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::iterator::{Handle, Signals};
    use std::path::{Path, PathBuf};
    use std::sync::{Arc, Mutex, MutexGuard};
    use std::thread::JoinHandle;

    pub struct Cleanup {
        /// The file to remove; `None` once it is renamed into place.
        temp: Arc<Mutex<Option<PathBuf>>>,
        handle: Handle,
        thread: Option<JoinHandle<()>>,
    }

    impl Cleanup {
        pub fn install(temp: &Path) -> std::io::Result<Cleanup> {
            let mut signals = Signals::new([SIGTERM, SIGINT, SIGHUP])?;
            let handle = signals.handle();
            let temp = Arc::new(Mutex::new(Some(temp.to_path_buf())));
            let watched = Arc::clone(&temp);
            let thread = std::thread::spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    let mut temp = watched.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some(path) = temp.take() {
                        let _ = std::fs::remove_file(path);
                    }
                    // Ended by the signal, as without a handler (the lock is held till then).
                    let _ = signal_hook::low_level::emulate_default_handler(signal);
                    std::process::exit(128 + signal);
                }
            });
            Ok(Cleanup {
                temp,
                handle,
                thread: Some(thread),
            })
        }

        /// Keeps a signal from acting (it waits) while the file is renamed into place; the
        /// file is no longer to be removed after that.
        pub fn hold(&self) -> Held<'_> {
            Held(self.temp.lock().unwrap_or_else(|e| e.into_inner()))
        }
    }

    /// See [`Cleanup::hold`].
    pub struct Held<'a>(MutexGuard<'a, Option<PathBuf>>);

    impl Drop for Held<'_> {
        fn drop(&mut self) {
            self.0.take();
        }
    }

    impl Drop for Cleanup {
        fn drop(&mut self) {
            self.handle.close();
            if let Some(thread) = self.thread.take() {
                let _ = thread.join();
            }
        }
    }
}

#[cfg(not(unix))]
mod signals {
    //! Signals as on Unix do not exist: nothing to watch.

    pub struct Cleanup;

    impl Cleanup {
        pub fn install(_temp: &std::path::Path) -> std::io::Result<Cleanup> {
            Ok(Cleanup)
        }

        pub fn hold(&self) {}
    }
}
