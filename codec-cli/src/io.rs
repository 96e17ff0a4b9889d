//! Opening the input and the output, and the progress indicator.

use crate::fail::Failure;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Inputs at least this large show a progress indicator (when standard error is a terminal).
const PROGRESS_MIN_BYTES: u64 = 32 * 1024 * 1024;

/// Output buffer size.
const OUT_BUF: usize = 64 * 1024;

/// An opened input.
pub struct Input {
    /// Its name for messages: the path, or `<stdin>`.
    pub name: String,
    /// The byte source (with the progress indicator around it when shown).
    pub reader: Box<dyn Read>,
    /// The path, for files.
    pub path: Option<PathBuf>,
}

impl Input {
    /// Opens `arg` (a path; `None` or `-` for standard input).
    pub fn open(arg: Option<&OsString>, progress: bool) -> Result<Input, Failure> {
        let path = arg.filter(|a| a.as_encoded_bytes() != b"-");
        let Some(path) = path else {
            return Ok(Input {
                name: "<stdin>".to_owned(),
                reader: Box::new(io::stdin().lock()),
                path: None,
            });
        };
        let path = PathBuf::from(path);
        let name = path.display().to_string();
        let file = File::open(&path).map_err(|e| Failure::io(format!("cannot open {name}"), &e))?;
        let meta = file
            .metadata()
            .map_err(|e| Failure::io(format!("cannot open {name}"), &e))?;
        if meta.is_dir() {
            return Err(Failure::Io(format!("{name} is a directory")));
        }
        let size = meta.is_file().then_some(meta.len());
        let reader: Box<dyn Read> = match size {
            Some(total)
                if progress && total >= PROGRESS_MIN_BYTES && io::stderr().is_terminal() =>
            {
                Box::new(Progress::new(file, total))
            }
            _ => Box::new(file),
        };
        Ok(Input {
            name,
            reader,
            path: Some(path),
        })
    }

    /// Reads the whole input (for one document, which is decoded whole anyway).
    pub fn read_all(&mut self) -> Result<Vec<u8>, Failure> {
        let mut buf = Vec::new();
        self.reader
            .read_to_end(&mut buf)
            .map_err(|e| Failure::io(format!("reading {}", self.name), &e))?;
        Ok(buf)
    }
}

/// Where the output goes.
pub struct OutputTarget {
    path: Option<PathBuf>,
}

impl OutputTarget {
    /// `-o` value: a path, or `None` / `-` for standard output.
    pub fn new(arg: Option<OsString>) -> Self {
        OutputTarget {
            path: arg
                .filter(|a| a.as_encoded_bytes() != b"-")
                .map(PathBuf::from),
        }
    }

    /// Whether the output is a terminal (standard output on a terminal).
    pub fn is_terminal(&self) -> bool {
        self.path.is_none() && io::stdout().is_terminal()
    }

    /// Refuses to overwrite the file being read (stream mode reads while writing).
    pub fn check_not_input(&self, cmd: &str, input: &Input) -> Result<(), Failure> {
        if let (Some(out), Some(inp)) = (&self.path, &input.path)
            && let (Ok(a), Ok(b)) = (out.canonicalize(), inp.canonicalize())
            && a == b
        {
            return Err(Failure::usage(
                cmd,
                format!("the output {} is the input file", out.display()),
            ));
        }
        Ok(())
    }

    /// Opens the output (creating or truncating the file) behind a buffer.
    pub fn open(&self) -> Result<Output, Failure> {
        let (name, w): (String, Box<dyn Write>) = match &self.path {
            None => ("<stdout>".to_owned(), Box::new(io::stdout().lock())),
            Some(p) => {
                let name = p.display().to_string();
                let f = File::create(p)
                    .map_err(|e| Failure::io(format!("cannot create {name}"), &e))?;
                (name, Box::new(f))
            }
        };
        Ok(Output {
            name,
            w: io::BufWriter::with_capacity(OUT_BUF, w),
        })
    }
}

/// An opened, buffered output.
pub struct Output {
    name: String,
    w: io::BufWriter<Box<dyn Write>>,
}

impl Output {
    /// Writes all of `buf`.
    pub fn write(&mut self, buf: &[u8]) -> Result<(), Failure> {
        self.w
            .write_all(buf)
            .map_err(|e| Failure::io(format!("writing {}", self.name), &e))
    }

    /// Flushes everything through to the file or standard output.
    pub fn finish(mut self) -> Result<(), Failure> {
        self.w
            .flush()
            .map_err(|e| Failure::io(format!("writing {}", self.name), &e))
    }
}

/// Writes `buf` as the complete output in one go (for commands that produce
/// their whole output before writing any of it).
pub fn write_whole(target: &OutputTarget, buf: &[u8]) -> Result<(), Failure> {
    let mut out = target.open()?;
    out.write(buf)?;
    out.finish()
}

/// A reader that draws `42%  420.0 MB / 1.00 GB  310.2 MB/s` on standard
/// error, at most five times a second, and clears the line when dropped.
struct Progress<R> {
    inner: R,
    done: u64,
    total: u64,
    started: Instant,
    last: Instant,
    shown: bool,
}

impl<R> Progress<R> {
    fn new(inner: R, total: u64) -> Self {
        let now = Instant::now();
        Progress {
            inner,
            done: 0,
            total,
            started: now,
            last: now,
            shown: false,
        }
    }

    fn draw(&mut self) {
        let secs = self.started.elapsed().as_secs_f64().max(1e-3);
        let pct = (self.done as f64 * 100.0 / self.total.max(1) as f64).min(100.0);
        let line = format!(
            "\r{pct:3.0}%  {} / {}  {}/s ",
            human(self.done),
            human(self.total),
            human((self.done as f64 / secs) as u64)
        );
        let mut err = io::stderr().lock();
        let _ = err.write_all(line.as_bytes());
        let _ = err.flush();
        self.shown = true;
    }
}

impl<R: Read> Read for Progress<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.done += n as u64;
        if self.last.elapsed() >= Duration::from_millis(200) {
            self.last = Instant::now();
            self.draw();
        }
        Ok(n)
    }
}

impl<R> Drop for Progress<R> {
    fn drop(&mut self) {
        if self.shown {
            // Erase the indicator so that any message starts on a clean line.
            let mut err = io::stderr().lock();
            let _ = err.write_all(b"\r\x1b[2K");
            let _ = err.flush();
        }
    }
}

/// `1536` -> `"1.5 KB"` (decimal units).
fn human(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1000.0 && u + 1 < UNITS.len() {
        v /= 1000.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_sizes() {
        assert_eq!(human(999), "999 B");
        assert_eq!(human(1_500), "1.5 KB");
        assert_eq!(human(1_000_000_000), "1.0 GB");
    }

    #[test]
    fn progress_counts_bytes() {
        let data = vec![7u8; 100_000];
        let mut p = Progress::new(&data[..], data.len() as u64);
        let mut out = Vec::new();
        p.read_to_end(&mut out).unwrap();
        assert_eq!(p.done, 100_000);
        assert_eq!(out, data);
    }
}
