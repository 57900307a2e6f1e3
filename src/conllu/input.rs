//! Opening an input: a file or `-` for stdin, gzip-compressed or not.
//!
//! Gzip is recognised by its magic bytes (1f 8b), not by the file name, so `zcat`-less pipes
//! (`curl … | eudify enhance`) work too. Line numbers in messages count lines of the
//! decompressed text. A CoNLL-U file cannot start with these bytes: 0x8b is not valid UTF-8
//! at the start of a character.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// The name `-` is shown as in messages.
pub const STDIN_NAME: &str = "<stdin>";

/// The first bytes of every gzip member.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Whether `path` means stdin.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The name of `path` in messages: the path as given, or `<stdin>` for `-`.
pub fn display_name(path: &Path) -> String {
    if is_stdin(path) {
        STDIN_NAME.to_string()
    } else {
        path.display().to_string()
    }
}

/// Opens `path` (`-`: stdin) for reading, decompressing it if it is gzip (several concatenated
/// members are read as one stream, as `zcat` does). The first bytes are read here, so a
/// directory fails here, not on the first read. A corrupt or truncated gzip stream is a read
/// error of kind [`io::ErrorKind::InvalidData`].
pub fn open(path: &Path) -> io::Result<Box<dyn BufRead + Send>> {
    if is_stdin(path) {
        // `Stdin`, not its lock, so that a reader can move to another thread (Python's
        // `eudify.grep` searches without the GIL); the 64 KiB buffer makes its per-read lock cheap.
        return from_reader(io::stdin());
    }
    from_reader(File::open(path)?)
}

/// Whether the file at `path` starts with the gzip magic bytes (`false` for stdin, or a file
/// that cannot be read).
pub fn is_gzip_file(path: &Path) -> bool {
    let mut head = [0u8; 2];
    !is_stdin(path) && File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok() && head == GZIP_MAGIC
}

/// `input`, decompressed if it starts with the gzip magic bytes, buffered.
pub fn from_reader<'a>(mut input: impl Read + Send + 'a) -> io::Result<Box<dyn BufRead + Send + 'a>> {
    // Read up to two bytes without losing them: a pipe may deliver them one at a time.
    let mut head = [0u8; 2];
    let mut len = 0;
    while len < head.len() {
        match input.read(&mut head[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let whole = io::Cursor::new(head).take(len as u64).chain(input);
    Ok(if head[..len] == GZIP_MAGIC {
        Box::new(BufReader::with_capacity(1 << 16, Gzip::new(flate2::read::MultiGzDecoder::new(whole))))
    } else {
        Box::new(BufReader::with_capacity(1 << 16, whole))
    })
}

/// A gzip decoder whose own errors (corrupt or truncated data, told apart from the operating
/// system's by their lack of an OS error code) are [`io::ErrorKind::InvalidData`]: flate2 uses
/// three kinds for them, and the caller tells bad input from a failing disk by the kind. The
/// message says how far the text got: its line and byte (the compressed offset is not known
/// exactly, the decoder reads ahead).
struct Gzip<R> {
    decoder: R,
    /// Decompressed bytes and line ends given out so far.
    bytes: u64,
    lines: u64,
}

impl<R> Gzip<R> {
    fn new(decoder: R) -> Self {
        Gzip { decoder, bytes: 0, lines: 0 }
    }
}

impl<R: Read> Read for Gzip<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.decoder.read(buf) {
            Ok(n) => {
                self.bytes += n as u64;
                self.lines += memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
                Ok(n)
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted || e.raw_os_error().is_some() => Err(e),
            Err(e) => {
                let (line, byte) = (crate::text::thousands(self.lines + 1), crate::text::thousands(self.bytes));
                let message = format!("invalid gzip data in line {line} of the text (after {byte} bytes of it): {e}");
                Err(io::Error::new(io::ErrorKind::InvalidData, message))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn read_all(input: &[u8]) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        from_reader(input)?.read_to_end(&mut out)?;
        Ok(out)
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn plain_input_is_read_as_it_is() {
        for input in [&b""[..], b"1", b"\x1f", b"1\ta\n", b"\x1f\x8c rest"] {
            assert_eq!(read_all(input).unwrap(), input);
        }
    }

    #[test]
    fn gzip_input_is_decompressed_member_after_member() {
        let mut input = gzip(b"1\ta\n\n");
        input.extend(gzip(b"2\tb\n\n"));
        assert_eq!(read_all(&input).unwrap(), b"1\ta\n\n2\tb\n\n");
    }

    #[test]
    fn corrupt_or_truncated_gzip_is_invalid_data() {
        let whole = gzip(b"1\ta\n\n".repeat(100).as_slice());
        let mut corrupt = whole.clone();
        corrupt[12..20].fill(0xff);
        for input in [&whole[..whole.len() / 2], &corrupt, &whole[..5]] {
            let error = read_all(input).unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::InvalidData, "{error}");
            assert!(error.to_string().starts_with("invalid gzip data in line "), "{error}");
        }
    }

    #[test]
    fn a_gzip_error_says_how_far_the_text_got() {
        let whole = gzip("1\ta\n\n".repeat(100_000).as_bytes());
        let error = read_all(&whole[..whole.len() / 2]).unwrap_err().to_string();
        let (line, bytes) = error
            .strip_prefix("invalid gzip data in line ")
            .and_then(|rest| rest.split_once(" of the text (after "))
            .unwrap_or_else(|| panic!("{error}"));
        let line: u64 = line.replace(',', "").parse().unwrap();
        let bytes: u64 = bytes.split(' ').next().unwrap().replace(',', "").parse().unwrap();
        // Each `1\ta\n\n` is two lines of five bytes: the line follows from the bytes.
        assert!(bytes > 0 && line == 1 + bytes / 5 * 2 + u64::from(bytes % 5 == 4), "{error}");
    }
}
