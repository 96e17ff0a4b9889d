//! The one error type of the codec family.
//!
//! An [`Error`] carries an [`ErrorKind`], the byte offset in the input (or
//! output) where it happened, and the path to the failing value
//! (`.users[3].name`). The path is built only while an error travels up
//! through the decoder, so success pays nothing for it.

use std::borrow::Cow;
use std::fmt;

/// `Result` with the codec [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended in the middle of a value.
    UnexpectedEof,
    /// The bytes break the rules of the format.
    Syntax(Cow<'static, str>),
    /// A text string is not valid UTF-8.
    InvalidUtf8,
    /// The next item is not what the target type can be built from.
    TypeMismatch {
        /// What the target wanted, e.g. `"u32"` or `"map"`.
        expected: &'static str,
        /// What the input held, e.g. `"text string \"forty\""`.
        found: String,
    },
    /// A number does not fit the target type.
    OutOfRange {
        /// The target type, e.g. `"u8"`.
        target: &'static str,
        /// The value found, as text.
        value: String,
    },
    /// Nesting is deeper than the `max_depth` option allows.
    DepthLimitExceeded {
        /// The limit in force.
        max: u32,
    },
    /// A declared or accumulated length is larger than a limit allows.
    LengthLimitExceeded {
        /// Which limit (`"max_len"`, `"max_str_len"`, ...).
        limit: &'static str,
        /// The length found.
        len: u64,
        /// The limit in force.
        max: u64,
    },
    /// A struct map holds a key the type does not know (with `error_on_unknown_field`).
    UnknownField(String),
    /// A required struct field is missing.
    MissingField(&'static str),
    /// A struct field appears twice.
    DuplicateField(&'static str),
    /// An enum variant name or index that the type does not know.
    UnknownVariant(String),
    /// An array is longer than a fixed-size target (with `error_on_array_overflow`) or
    /// has the wrong length for a fixed-size target.
    InvalidLength {
        /// The length the target needs.
        expected: usize,
        /// The length found.
        found: usize,
    },
    /// Bytes remain after the value in an API that decodes exactly one value.
    TrailingData,
    /// A value that this format (or these options) cannot express.
    Unsupported(Cow<'static, str>),
    /// An I/O error from the underlying reader or writer.
    Io(std::io::Error),
    /// A run-time handle name that is not one of the formats.
    UnknownHandle(String),
    /// Any other failure, with a message (from user `Encode`/`Decode` impls).
    Custom(String),
}

/// One step of the path to a value inside a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSegment {
    /// A struct field, written `.name`.
    Field(&'static str),
    /// An array element, written `[3]`.
    Index(usize),
    /// A map entry, written `["key"]`.
    Key(String),
    /// An enum variant, written `::Name`.
    Variant(&'static str),
}

#[derive(Debug)]
struct Inner {
    kind: ErrorKind,
    offset: Option<u64>,
    /// Innermost segment first (pushed while the error travels outwards).
    path: Vec<PathSegment>,
}

/// The error of every encode and decode operation.
///
/// It is one pointer wide, so `Result<T>` stays small on the fast path.
pub struct Error(Box<Inner>);

impl Error {
    /// A new error of `kind`, with no offset and an empty path.
    #[cold]
    pub fn new(kind: ErrorKind) -> Self {
        Error(Box::new(Inner {
            kind,
            offset: None,
            path: Vec::new(),
        }))
    }

    /// A syntax error with a message.
    #[cold]
    pub fn syntax(msg: impl Into<Cow<'static, str>>) -> Self {
        Self::new(ErrorKind::Syntax(msg.into()))
    }

    /// The input ended inside a value.
    #[cold]
    pub fn eof() -> Self {
        Self::new(ErrorKind::UnexpectedEof)
    }

    /// The next item cannot become `expected`.
    #[cold]
    pub fn type_mismatch(expected: &'static str, found: impl fmt::Display) -> Self {
        Self::new(ErrorKind::TypeMismatch {
            expected,
            found: found.to_string(),
        })
    }

    /// A number does not fit `target`.
    #[cold]
    pub fn out_of_range(target: &'static str, value: impl fmt::Display) -> Self {
        Self::new(ErrorKind::OutOfRange {
            target,
            value: value.to_string(),
        })
    }

    /// The format cannot express a value.
    #[cold]
    pub fn unsupported(msg: impl Into<Cow<'static, str>>) -> Self {
        Self::new(ErrorKind::Unsupported(msg.into()))
    }

    /// A custom message, for hand-written `Encode`/`Decode` impls.
    #[cold]
    pub fn custom(msg: impl fmt::Display) -> Self {
        Self::new(ErrorKind::Custom(msg.to_string()))
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// The byte offset at which the error was found, when known.
    pub fn offset(&self) -> Option<u64> {
        self.0.offset
    }

    /// The path to the failing value, outermost first.
    pub fn path(&self) -> impl Iterator<Item = &PathSegment> {
        self.0.path.iter().rev()
    }

    /// The path rendered as text, e.g. `.users[3].name`; empty at the top level.
    pub fn path_string(&self) -> String {
        let mut s = String::new();
        for seg in self.path() {
            use fmt::Write as _;
            let _ = match seg {
                PathSegment::Field(f) => write!(s, ".{f}"),
                PathSegment::Index(i) => write!(s, "[{i}]"),
                PathSegment::Key(k) => write!(s, "[{k:?}]"),
                PathSegment::Variant(v) => write!(s, "::{v}"),
            };
        }
        s
    }

    /// Sets the byte offset unless one is already set (the innermost wins).
    #[cold]
    pub fn at(mut self, offset: u64) -> Self {
        if self.0.offset.is_none() {
            self.0.offset = Some(offset);
        }
        self
    }

    /// In a type mismatch, names the target type the caller decodes (a `u32`
    /// read through `decode_u64` reports `expected u32`). Other kinds are unchanged.
    #[cold]
    pub(crate) fn expecting(mut self, target: &'static str) -> Self {
        if let ErrorKind::TypeMismatch { expected, .. } = &mut self.0.kind {
            *expected = target;
        }
        self
    }

    /// Adds an outer path segment (called while the error travels outwards).
    #[cold]
    pub fn within(mut self, seg: PathSegment) -> Self {
        self.0.path.push(seg);
        self
    }

    /// Adds `.field` to the path.
    #[cold]
    pub fn in_field(self, name: &'static str) -> Self {
        self.within(PathSegment::Field(name))
    }

    /// Adds `[index]` to the path.
    #[cold]
    pub fn in_index(self, index: usize) -> Self {
        self.within(PathSegment::Index(index))
    }

    /// Whether this is an end-of-input error (the input ended inside or before a value).
    pub fn is_eof(&self) -> bool {
        matches!(self.0.kind, ErrorKind::UnexpectedEof)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::UnexpectedEof => f.write_str("unexpected end of input"),
            ErrorKind::Syntax(m) => write!(f, "invalid input: {m}"),
            ErrorKind::InvalidUtf8 => f.write_str("text string is not valid UTF-8"),
            ErrorKind::TypeMismatch { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            ErrorKind::OutOfRange { target, value } => {
                write!(f, "number {value} does not fit in {target}")
            }
            ErrorKind::DepthLimitExceeded { max } => {
                write!(f, "nesting deeper than max_depth ({max})")
            }
            ErrorKind::LengthLimitExceeded { limit, len, max } => {
                write!(f, "length {len} exceeds {limit} ({max})")
            }
            ErrorKind::UnknownField(n) => write!(f, "unknown field {n:?}"),
            ErrorKind::MissingField(n) => write!(f, "missing field {n:?}"),
            ErrorKind::DuplicateField(n) => write!(f, "duplicate field {n:?}"),
            ErrorKind::UnknownVariant(n) => write!(f, "unknown variant {n}"),
            ErrorKind::InvalidLength { expected, found } => {
                write!(f, "expected {expected} elements, found {found}")
            }
            ErrorKind::TrailingData => f.write_str("trailing data after the value"),
            ErrorKind::Unsupported(m) => write!(f, "unsupported: {m}"),
            ErrorKind::Io(e) => write!(f, "i/o error: {e}"),
            ErrorKind::UnknownHandle(n) => write!(
                f,
                "unknown handle {n:?} (expected one of msgpack, cbor, binc, simple, json)"
            ),
            ErrorKind::Custom(m) => f.write_str(m),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0.kind, f)?;
        let path = self.path_string();
        match (path.is_empty(), self.0.offset) {
            (false, Some(o)) => write!(f, " at {path} (byte {o})"),
            (false, None) => write!(f, " at {path}"),
            (true, Some(o)) => write!(f, " (byte {o})"),
            (true, None) => Ok(()),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({self})")
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.kind {
            ErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for Error {
    #[cold]
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            Error::eof()
        } else {
            Error::new(ErrorKind::Io(e))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_has_kind_path_and_offset() {
        let e = Error::type_mismatch("u32", "text string \"forty\"")
            .at(41)
            .in_field("age")
            .in_index(3)
            .in_field("users");
        assert_eq!(e.path_string(), ".users[3].age");
        assert_eq!(
            e.to_string(),
            "expected u32, found text string \"forty\" at .users[3].age (byte 41)"
        );
        assert_eq!(e.offset(), Some(41));
    }

    #[test]
    fn innermost_offset_wins() {
        let e = Error::eof().at(3).at(10);
        assert_eq!(e.offset(), Some(3));
        assert!(e.is_eof());
    }

    #[test]
    fn error_is_one_pointer() {
        assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
    }
}
