//! Why a command failed, and the exit code that goes with it.
//!
//! | exit | meaning |
//! |------|---------|
//! | 0 | success (also: the reader of our output went away, e.g. `| head`) |
//! | 1 | invalid input, an input that cannot be written in the target format, or an I/O error |
//! | 2 | usage error: unknown option, bad value, ambiguous auto-detection, binary output to a terminal |

use std::fmt;

/// A failed command.
#[derive(Debug)]
pub enum Failure {
    /// Wrong use of the command: exit 2, with a pointer to `--help`.
    Usage {
        /// The subcommand (for the `--help` hint), or `""` at the top level.
        cmd: String,
        /// What was wrong.
        msg: String,
    },
    /// The input is not valid, or cannot be written in the target format: exit 1.
    Invalid(String),
    /// Reading or writing failed: exit 1.
    Io(String),
    /// The reader of our output closed it: stop quietly, exit 0.
    BrokenPipe,
}

impl Failure {
    /// A usage error of subcommand `cmd`.
    pub fn usage(cmd: &str, msg: impl Into<String>) -> Self {
        Failure::Usage {
            cmd: cmd.to_owned(),
            msg: msg.into(),
        }
    }

    /// An I/O error while doing `what` (e.g. "reading in.json").
    pub fn io(what: impl fmt::Display, e: &std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            Failure::BrokenPipe
        } else {
            Failure::Io(format!("{what}: {e}"))
        }
    }

    /// The process exit code.
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::Usage { .. } => 2,
            Failure::Invalid(_) | Failure::Io(_) => 1,
            Failure::BrokenPipe => 0,
        }
    }

    /// The message for standard error, if any (one line, plus a hint line for usage errors).
    pub fn message(&self) -> Option<String> {
        match self {
            Failure::Usage { cmd, msg } if cmd.is_empty() => {
                Some(format!("codec: {msg}\nTry 'codec --help'."))
            }
            Failure::Usage { cmd, msg } => {
                Some(format!("codec {cmd}: {msg}\nTry 'codec {cmd} --help'."))
            }
            Failure::Invalid(m) | Failure::Io(m) => Some(format!("codec: {m}")),
            Failure::BrokenPipe => None,
        }
    }
}

/// Where a codec error happened, for its one-line message.
pub struct Place<'a> {
    /// The input's name (a path or `<stdin>`).
    pub source: &'a str,
    /// The format being read.
    pub format: &'a str,
    /// The document's number (1-based) when reading a stream.
    pub document: Option<u64>,
}

/// Turns a decoding error into its one-line message:
/// `in.cbor: invalid cbor at byte 17 (document 3) in .a[2]: expected ...`;
/// json says `at line 2, column 5 (byte 17, document 3)`.
pub fn decode_failure(e: &codec::Error, place: &Place<'_>) -> Failure {
    if let codec::ErrorKind::Io(io) = e.kind() {
        return Failure::io(format!("reading {}", place.source), io);
    }
    let mut m = format!("{}: invalid {}", place.source, place.format);
    match (e.offset(), e.line_column(), place.document) {
        (Some(off), Some((line, column)), Some(n)) => m.push_str(&format!(
            " at line {line}, column {column} (byte {off}, document {n})"
        )),
        (Some(off), Some((line, column)), None) => {
            m.push_str(&format!(" at line {line}, column {column} (byte {off})"));
        }
        (Some(off), None, document) => {
            m.push_str(&format!(" at byte {off}"));
            if let Some(n) = document {
                m.push_str(&format!(" (document {n})"));
            }
        }
        (None, _, Some(n)) => m.push_str(&format!(" (document {n})")),
        (None, _, None) => {}
    }
    let path = e.path_brief();
    if !path.is_empty() {
        m.push_str(&format!(" in {path}"));
    }
    m.push_str(": ");
    m.push_str(&explain(e.kind()));
    Failure::Invalid(m)
}

/// Turns an encoding error into its one-line message.
pub fn encode_failure(e: &codec::Error, format: &str, document: Option<u64>) -> Failure {
    if let codec::ErrorKind::Io(io) = e.kind() {
        return Failure::io("writing the output", io);
    }
    let mut m = format!("cannot write the input as {format}");
    if let Some(n) = document {
        m.push_str(&format!(" (document {n})"));
    }
    let path = e.path_brief();
    if !path.is_empty() {
        m.push_str(&format!(" at {path}"));
    }
    m.push_str(": ");
    m.push_str(&explain(e.kind()));
    Failure::Invalid(m)
}

/// The error kind in words, saying what was expected where the kind allows.
fn explain(kind: &codec::ErrorKind) -> String {
    match kind {
        codec::ErrorKind::UnexpectedEof => {
            "expected more bytes, but the input ends inside a value".to_owned()
        }
        codec::ErrorKind::TrailingData => "expected the end of input after one complete document \
             (use --stream for a sequence of documents)"
            .to_owned(),
        // "invalid input: " would repeat what the message already says.
        codec::ErrorKind::Syntax(m) => m.to_string(),
        other => other.to_string(),
    }
}
