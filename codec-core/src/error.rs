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
        /// The value found, as text; text longer than 64 bytes (a number
        /// of thousands of digits) is cut to its first 40 bytes, `…` and
        /// its length.
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
    /// A struct field appears twice, or an unknown key kept by a
    /// `#[codec(rest)]` map does; when encoding, a `rest` map holds a key
    /// that the struct also writes for a field.
    DuplicateField(Cow<'static, str>),
    /// An enum variant name or index that the type does not know, as it is
    /// shown in the message: a name quoted (`"Nope"`), an integer tag bare
    /// (`3`), a string that holds no integer where one is expected quoted,
    /// any other item by its kind (`(nil)`).
    UnknownVariant(String),
    /// An array is longer than a fixed-size target (with `error_on_array_overflow`;
    /// a struct read from an array also with `error_on_unknown_field`) or
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
#[non_exhaustive]
pub enum PathSegment {
    /// A struct field, written `.name`.
    Field(&'static str),
    /// An array element, written `[3]`.
    Index(usize),
    /// A map entry with a text key, written `["key"]`.
    Key(String),
    /// A map entry whose key is an integer or a bool, written as the key's
    /// literal: `[5]`, `[-3]`, `[true]`. (A map whose key type gives no
    /// segment, see [`Decode::path_segment`](crate::Decode::path_segment),
    /// names its entries by position with [`PathSegment::Index`].)
    KeyLiteral(String),
    /// An enum variant, written `::Name`.
    Variant(&'static str),
    /// The key of a map's entry `n` (counted from 0), which failed to
    /// decode, so that there is no key to name the entry by: written
    /// `[key of entry 1]`.
    EntryKey(usize),
}

#[derive(Debug)]
struct Inner {
    kind: ErrorKind,
    offset: Option<u64>,
    /// Innermost segment first (pushed while the error travels outwards).
    path: Vec<PathSegment>,
    /// For an error of an `io::Write`: the bytes that reached it before the failure.
    written: Option<u64>,
    /// A type mismatch whose item the driver has not consumed: the shared
    /// decoder may still read it to quote its value (see [`Kind::mismatch_unread`]).
    unread: bool,
    /// Line and column of `offset` in a text input ([`Error::line_column`]).
    line_column: Option<(u64, u64)>,
}

/// The error of every encode and decode operation.
///
/// It is one pointer wide, so `Result<T>` stays small on the fast path.
/// Its [`Display`](fmt::Display) is one line: the kind, the path
/// ([`Error::path_brief`]: deep paths and long keys shortened, so that no
/// input makes the message long) and the byte offset. The whole path is
/// [`Error::path`] and [`Error::path_string`].
pub struct Error(Box<Inner>);

impl Error {
    /// A new error of `kind`, with no offset and an empty path.
    #[cold]
    pub fn new(kind: ErrorKind) -> Self {
        Error(Box::new(Inner {
            kind,
            offset: None,
            path: Vec::new(),
            written: None,
            unread: false,
            line_column: None,
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

    /// The next item cannot become `expected`. `found` describes it, best
    /// with a [`Found`]: `Error::type_mismatch("u32", Found::Text { head: b"forty", len: 5 })`
    /// displays as `expected u32, found text string "forty"`.
    #[cold]
    pub fn type_mismatch(expected: &'static str, found: impl fmt::Display) -> Self {
        Self::new(ErrorKind::TypeMismatch {
            expected,
            found: found.to_string(),
        })
    }

    /// A number does not fit `target`. A `value` longer than 64 bytes is
    /// shortened (see [`ErrorKind::OutOfRange`]): the input may hold a number
    /// of any length, and the message need not repeat it.
    #[cold]
    pub fn out_of_range(target: &'static str, value: impl fmt::Display) -> Self {
        let mut value = value.to_string();
        if let (head, true) = brief(&value, BRIEF_TEXT) {
            value = format!("{head}… ({} bytes)", value.len());
        }
        Self::new(ErrorKind::OutOfRange { target, value })
    }

    /// A string (or byte string, or extension data) of `len` bytes is longer
    /// than the `max_str_len` option `max`: the error a decoder gives after
    /// reading one, and a format driver before ([`DecodeFormat::limit_str_len`](crate::DecodeFormat::limit_str_len)).
    #[cold]
    pub fn str_too_long(len: usize, max: usize) -> Self {
        crate::decode::limit("max_str_len", len, max)
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

    /// For an error in a text format (JSON): the line and column of
    /// [`Error::offset`], both from 1, the column counted in bytes from the
    /// line's start (after its `\n`), as editors and serde_json count it.
    /// Set by the decoders of this crate (and
    /// [`Decoder::locate`](crate::Decoder::locate)) where the reader can
    /// tell: from a slice always, from an `io::Read` for an offset on a line
    /// it still holds or is reading ([`Read::line_column`](crate::Read::line_column)).
    pub fn line_column(&self) -> Option<(u64, u64)> {
        self.0.line_column
    }

    /// Sets [`Error::line_column`].
    #[cold]
    pub(crate) fn with_line_column(mut self, line_column: (u64, u64)) -> Self {
        self.0.line_column = Some(line_column);
        self
    }

    /// For an error of an [`std::io::Write`] (through [`IoWriter`](crate::IoWriter),
    /// as [`to_writer`](crate::to_writer) uses): how many bytes the writer
    /// accepted before it failed. Those bytes are in the writer; nothing after
    /// them is. `None` for every other error. `Display` adds
    /// `(after N bytes written)`.
    pub fn bytes_written(&self) -> Option<u64> {
        self.0.written
    }

    /// Records how many bytes reached the `io::Write` before this error
    /// (see [`Error::bytes_written`]).
    #[cold]
    pub fn with_bytes_written(mut self, n: u64) -> Self {
        self.0.written = Some(n);
        self
    }

    /// Whether this is a type mismatch made by [`Kind::mismatch_unread`] whose
    /// item is still to be read at its offset.
    pub(crate) fn is_unread(&self) -> bool {
        self.0.unread
    }

    /// Marks a type mismatch as one whose item the driver has not consumed.
    #[cold]
    pub(crate) fn unread(mut self) -> Self {
        self.0.unread = true;
        self
    }

    /// Replaces the `found` text of a type mismatch (and clears the unread mark).
    #[cold]
    pub(crate) fn quoted(mut self, found: Option<String>) -> Self {
        self.0.unread = false;
        if let (Some(text), ErrorKind::TypeMismatch { found, .. }) = (found, &mut self.0.kind) {
            *found = text;
        }
        self
    }

    /// The path to the failing value, outermost first.
    pub fn path(&self) -> impl Iterator<Item = &PathSegment> {
        self.0.path.iter().rev()
    }

    /// The path rendered as text, e.g. `.users[3].name`; empty at the top
    /// level. In full, however deep the path and long its keys: for a
    /// message, [`Error::path_brief`].
    pub fn path_string(&self) -> String {
        let mut s = String::new();
        for seg in self.path() {
            write_segment(&mut s, seg, usize::MAX);
        }
        s
    }

    /// [`Error::path_string`] as [`Display`](fmt::Display) shows it, so
    /// that a message stays short whatever the input: a path of more than
    /// 16 segments keeps its first and last 6 around the count of the
    /// others (`[0][0][0][0][0][0]…244 more…[0][0][0][0][0][0]`), and a key
    /// of more than 64 bytes its first 40 or so and its length
    /// (`["aaaa…" (5000 bytes)]`).
    pub fn path_brief(&self) -> String {
        const MOST: usize = 16;
        const ENDS: usize = 6;
        let n = self.0.path.len();
        let mut s = String::new();
        for (i, seg) in self.path().enumerate() {
            if n > MOST && (ENDS..n - ENDS).contains(&i) {
                if i == ENDS {
                    use fmt::Write as _;
                    let _ = write!(s, "…{} more…", n - 2 * ENDS);
                }
                continue;
            }
            write_segment(&mut s, seg, BRIEF_TEXT);
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

    /// Drops the byte offset: for an error found in bytes the caller never
    /// saw (the intermediate encoding of [`from_value_in`](crate::from_value_in)).
    #[cold]
    pub(crate) fn without_offset(mut self) -> Self {
        self.0.offset = None;
        self.0.line_column = None;
        self
    }

    /// In a type mismatch or a range error, names the target type the
    /// caller decodes: a `u32` read through `decode_u64` reports `expected
    /// u32`, and `1.5` or `-1` read into it `does not fit in u32`. Other
    /// kinds are unchanged.
    #[cold]
    pub(crate) fn expecting(mut self, target: &'static str) -> Self {
        match &mut self.0.kind {
            ErrorKind::TypeMismatch { expected, .. } => *expected = target,
            ErrorKind::OutOfRange { target: t, .. } => *t = target,
            _ => {}
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

    /// Adds `[key of entry n]` to the path: the key of a map's entry `n`.
    #[cold]
    pub fn in_entry_key(self, n: usize) -> Self {
        self.within(PathSegment::EntryKey(n))
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
            ErrorKind::UnknownField(n) => {
                f.write_str("unknown field ")?;
                write_quoted(f, n, BRIEF_TEXT)
            }
            ErrorKind::MissingField(n) => write!(f, "missing field {n:?}"),
            ErrorKind::DuplicateField(n) => write!(f, "duplicate field {n:?}"),
            // Shown as the format gives it (`"name"`, `7`): cut plainly.
            ErrorKind::UnknownVariant(n) => match brief(n, BRIEF_TEXT) {
                (n, false) => write!(f, "unknown variant {n}"),
                (b, true) => write!(f, "unknown variant {b}… ({} bytes)", n.len()),
            },
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

/// The longest text from the input (a key, an unknown field's name, a
/// number) that a message shows whole, in bytes; a longer one shows its
/// first [`BRIEF_CUT`] bytes (less where a character would be cut).
const BRIEF_TEXT: usize = 64;
const BRIEF_CUT: usize = 40;

/// `s` whole if it has at most `max` bytes, else cut to [`BRIEF_CUT`] at a
/// character boundary; and whether it was cut.
fn brief(s: &str, max: usize) -> (&str, bool) {
    if s.len() <= max {
        return (s, false);
    }
    let mut cut = BRIEF_CUT;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    (&s[..cut], true)
}

/// `text` quoted, or, when longer than `max` bytes, as [`write_cut`] shows it.
fn write_quoted(out: &mut impl fmt::Write, text: &str, max: usize) -> fmt::Result {
    match brief(text, max) {
        (t, false) => write!(out, "{t:?}"),
        (t, true) => write_cut(out, t, text.len()),
    }
}

/// The start `shown` of a text of `len` bytes, quoted with `…` inside the
/// quotes and the length after them: `"abc…" (1000 bytes)`.
fn write_cut(out: &mut impl fmt::Write, shown: &str, len: usize) -> fmt::Result {
    let quoted = format!("{shown:?}");
    let open = quoted.strip_suffix('"').unwrap_or(&quoted);
    write!(out, "{open}…\" ({len} bytes)")
}

/// Writes one segment of a path, a text key cut to `max` bytes.
fn write_segment(s: &mut String, seg: &PathSegment, max: usize) {
    use fmt::Write as _;
    let _ = match seg {
        PathSegment::Field(f) => write!(s, ".{f}"),
        PathSegment::Index(i) => write!(s, "[{i}]"),
        PathSegment::Key(k) => {
            s.push('[');
            let _ = write_quoted(s, k, max);
            s.push(']');
            Ok(())
        }
        PathSegment::KeyLiteral(k) => write!(s, "[{k}]"),
        PathSegment::Variant(v) => write!(s, "::{v}"),
        PathSegment::EntryKey(i) => write!(s, "[key of entry {i}]"),
    };
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0.kind, f)?;
        let path = self.path_brief();
        if !path.is_empty() {
            write!(f, " at {path}")?;
        }
        match (self.0.offset, self.0.line_column) {
            (Some(o), Some((line, column))) => {
                write!(f, " (line {line}, column {column}, byte {o})")?
            }
            (Some(o), None) => write!(f, " (byte {o})")?,
            (None, _) => {}
        }
        match self.0.written {
            Some(1) => f.write_str(" (after 1 byte written)"),
            Some(n) => write!(f, " (after {n} bytes written)"),
            None => Ok(()),
        }
    }
}

/// An item of the input, described for a type-mismatch message: its kind
/// and, where cheap, its value. Pass it to [`Error::type_mismatch`]; every
/// format describes the same item in the same words:
///
/// | item | displays as |
/// |------|-------------|
/// | `Nil` | `nil` |
/// | `Bool(true)` | `bool true` |
/// | `Int(-5)`, `Uint(42)` | `integer -5`, `integer 42` |
/// | `Float(1.5)` | `float 1.5` |
/// | `Text { head: b"forty", len: 5 }` | `text string "forty"` |
/// | a text longer than 40 characters | `text string "its first 40 characters…" (300 bytes)` |
/// | `Bytes(12)` | `byte string (12 bytes)` |
/// | `Array(Some(3))`, `Array(None)` | `array (3 items)`, `array` |
/// | `Map(Some(2))`, `Map(None)` | `map (2 entries)`, `map` |
/// | `Ext { tag: 5, len: 3 }` | `extension with tag 5 (3 bytes)` |
/// | `Time(t)` | `timestamp 2024-05-01T12:00:00Z` |
/// | `Tag(7)`, `Simple(23)` | `tag 7`, `simple value 23` |
/// | `Kind(k)` | the kind's name alone, e.g. `text string` |
///
/// Text is shown with `{:?}` escapes (control characters cannot garble the
/// message), invalid UTF-8 as U+FFFD.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Found<'a> {
    /// nil / null.
    Nil,
    /// A bool.
    Bool(bool),
    /// A signed integer.
    Int(i128),
    /// An unsigned integer.
    Uint(u128),
    /// A float of any width.
    Float(f64),
    /// A text string: its first bytes (all of them, or at least the first
    /// 40 characters' worth) and its full length in bytes.
    Text {
        /// The bytes looked at: the whole string or a prefix of it.
        head: &'a [u8],
        /// The length of the whole string in bytes.
        len: usize,
    },
    /// A byte string of this many bytes.
    Bytes(usize),
    /// An array of this many items (`None`: not declared up front).
    Array(Option<usize>),
    /// A map of this many entries (`None`: not declared up front).
    Map(Option<usize>),
    /// An extension: its tag and the length of its data.
    Ext {
        /// The extension's tag.
        tag: u64,
        /// The length of its data in bytes.
        len: usize,
    },
    /// A timestamp.
    Time(crate::Time),
    /// A tag number (CBOR).
    Tag(u64),
    /// A simple value (CBOR).
    Simple(u8),
    /// Only the kind is known.
    Kind(crate::Kind),
}

impl Found<'_> {
    /// Characters of a text string shown before it is cut with `…`.
    pub const TEXT_CHARS: usize = 40;

    /// Bytes of a text string's head that always suffice to show
    /// [`Found::TEXT_CHARS`] characters and tell whether more follow.
    pub const TEXT_HEAD: usize = 4 * (Self::TEXT_CHARS + 1);
}

impl<'a> Found<'a> {
    /// A text string of `len` bytes that starts at `at` in `ahead` (bytes a
    /// driver looked at without consuming them, e.g. with
    /// [`Read::peek_bytes`](crate::Read::peek_bytes)); `ahead` may end
    /// before the string does. `None` if it ends before `at`.
    pub fn text_in(ahead: &'a [u8], at: usize, len: usize) -> Option<Self> {
        let rest = ahead.get(at..)?;
        let head = rest.get(..len).unwrap_or(rest);
        Some(Found::Text { head, len })
    }
}

/// `"n unit"` or `"1 unit"` (singular).
fn count(f: &mut fmt::Formatter<'_>, what: &str, n: usize, one: &str, many: &str) -> fmt::Result {
    write!(f, "{what} ({n} {})", if n == 1 { one } else { many })
}

impl fmt::Display for Found<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Found::Nil => f.write_str("nil"),
            Found::Bool(b) => write!(f, "bool {b}"),
            Found::Int(n) => write!(f, "integer {n}"),
            Found::Uint(n) => write!(f, "integer {n}"),
            // `{:?}` keeps `1e300` short and shows `2.0` as a float.
            Found::Float(x) => write!(f, "float {x:?}"),
            Found::Text { head, len } => {
                // A head cut inside a character drops the partial character.
                let head = match std::str::from_utf8(head) {
                    Err(e) if e.error_len().is_none() && head.len() < len => {
                        head.get(..e.valid_up_to()).unwrap_or_default()
                    }
                    _ => head,
                };
                let text = String::from_utf8_lossy(head);
                let mut chars = text.char_indices();
                let cut = chars.nth(Self::TEXT_CHARS).map(|(i, _)| i);
                match cut {
                    None if head.len() >= len => write!(f, "text string {text:?}"),
                    _ => {
                        let shown = text.get(..cut.unwrap_or(text.len())).unwrap_or_default();
                        f.write_str("text string ")?;
                        write_cut(f, shown, len)
                    }
                }
            }
            Found::Bytes(n) => count(f, "byte string", n, "byte", "bytes"),
            Found::Array(Some(n)) => count(f, "array", n, "item", "items"),
            Found::Array(None) => f.write_str("array"),
            Found::Map(Some(n)) => count(f, "map", n, "entry", "entries"),
            Found::Map(None) => f.write_str("map"),
            Found::Ext { tag, len } => count(
                f,
                &format!("extension with tag {tag}"),
                len,
                "byte",
                "bytes",
            ),
            Found::Time(t) => write!(f, "timestamp {t}"),
            Found::Tag(t) => write!(f, "tag {t}"),
            Found::Simple(v) => write!(f, "simple value {v}"),
            Found::Kind(k) => f.write_str(k.name()),
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

    /// A number of thousands of digits is not repeated in full.
    #[test]
    fn out_of_range_shortens_long_values() {
        let e = Error::out_of_range("u8", "300");
        assert_eq!(e.to_string(), "number 300 does not fit in u8");
        let long = format!("1e{}", "9".repeat(4000));
        let e = Error::out_of_range("u8", &long);
        let ErrorKind::OutOfRange { value, .. } = e.kind() else {
            panic!("{e}")
        };
        assert_eq!(value, &format!("1e{}… (4002 bytes)", "9".repeat(38)));
        // Cut on a character boundary.
        let e = Error::out_of_range("u8", "é".repeat(40));
        assert!(e.to_string().contains("… (80 bytes)"), "{e}");
    }

    /// A deep path, a long key, a long unknown field name: the message
    /// stays short, `path_string` keeps them whole.
    #[test]
    fn display_shortens_deep_paths_and_long_keys() {
        let mut e = Error::new(ErrorKind::DepthLimitExceeded { max: 256 }).at(256);
        for _ in 0..256 {
            e = e.in_index(0);
        }
        assert_eq!(e.path_string(), "[0]".repeat(256));
        let six = "[0]".repeat(6);
        assert_eq!(e.path_brief(), format!("{six}…244 more…{six}"));
        assert_eq!(
            e.to_string(),
            format!("nesting deeper than max_depth (256) at {six}…244 more…{six} (byte 256)")
        );
        // Sixteen segments are shown whole, seventeen are not.
        let mut e = Error::eof();
        for i in 0..16 {
            e = e.in_index(i);
        }
        assert_eq!(e.path_brief(), e.path_string());
        let e = e.in_field("top");
        assert_eq!(
            e.path_brief(),
            ".top[15][14][13][12][11]…5 more…[5][4][3][2][1][0]"
        );

        let key = "é".repeat(1000);
        let e = Error::eof()
            .within(PathSegment::Key(key.clone()))
            .in_field("m");
        assert_eq!(e.path_string(), format!(".m[{key:?}]"));
        let head = "é".repeat(20);
        assert_eq!(e.path_brief(), format!(".m[\"{head}…\" (2000 bytes)]"));
        let short = "k".repeat(64);
        let e = Error::eof().within(PathSegment::Key(short.clone()));
        assert_eq!(e.path_brief(), format!("[{short:?}]"));

        let name = "x".repeat(100);
        let e = Error::new(ErrorKind::UnknownField(name));
        let head = "x".repeat(40);
        assert_eq!(
            e.to_string(),
            format!("unknown field \"{head}…\" (100 bytes)")
        );
        let e = Error::new(ErrorKind::UnknownVariant(format!("{:?}", "v".repeat(70))));
        let head = "v".repeat(39);
        assert_eq!(
            e.to_string(),
            format!("unknown variant \"{head}… (72 bytes)")
        );
    }

    #[test]
    fn innermost_offset_wins() {
        let e = Error::eof().at(3).at(10);
        assert_eq!(e.offset(), Some(3));
        assert!(e.is_eof());
    }

    #[test]
    fn found_describes_each_kind() {
        let cases: &[(Found<'_>, &str)] = &[
            (Found::Nil, "nil"),
            (Found::Bool(false), "bool false"),
            (Found::Int(-5), "integer -5"),
            (
                Found::Uint(u128::MAX),
                "integer 340282366920938463463374607431768211455",
            ),
            (Found::Float(1e300), "float 1e300"),
            (Found::Float(2.0), "float 2.0"),
            (Found::Bytes(1), "byte string (1 byte)"),
            (Found::Bytes(0), "byte string (0 bytes)"),
            (Found::Array(Some(1)), "array (1 item)"),
            (Found::Array(None), "array"),
            (Found::Map(Some(2)), "map (2 entries)"),
            (Found::Map(None), "map"),
            (
                Found::Ext { tag: 5, len: 3 },
                "extension with tag 5 (3 bytes)",
            ),
            (Found::Tag(7), "tag 7"),
            (Found::Simple(23), "simple value 23"),
            (Found::Kind(crate::Kind::Str), "text string"),
        ];
        for (found, want) in cases {
            assert_eq!(found.to_string(), *want);
        }
    }

    #[test]
    fn found_text_is_quoted_escaped_and_cut() {
        let text = |head: &[u8], len: usize| Found::Text { head, len }.to_string();
        assert_eq!(text(b"forty", 5), r#"text string "forty""#);
        assert_eq!(text(b"a\n\"\x01", 4), r#"text string "a\n\"\u{1}""#);
        assert_eq!(text(b"ab\xff", 3), "text string \"ab\u{fffd}\"");
        // Exactly 40 characters: whole; 41: cut, with the full length.
        let forty = "é".repeat(40);
        assert_eq!(
            text(forty.as_bytes(), 80),
            format!("text string \"{forty}\"")
        );
        let long = "é".repeat(41);
        assert_eq!(
            text(long.as_bytes(), 82),
            format!("text string \"{forty}…\" (82 bytes)")
        );
        // A head shorter than the string (looked at, not read): a character
        // cut in the middle is dropped, and the text is marked as cut.
        assert_eq!(
            text(&"é".repeat(3).as_bytes()[..5], 1000),
            "text string \"éé…\" (1000 bytes)"
        );
        assert_eq!(
            Found::text_in(b"xxabc", 2, 10).map(|f| f.to_string()),
            Some("text string \"abc…\" (10 bytes)".to_string())
        );
        assert!(Found::text_in(b"x", 2, 10).is_none());
    }

    #[test]
    fn key_segments_and_bytes_written_display() {
        let e = Error::eof()
            .in_field("age")
            .within(PathSegment::KeyLiteral("5".into()))
            .within(PathSegment::Key("bob".into()))
            .at(3);
        assert_eq!(e.path_string(), "[\"bob\"][5].age");
        let e = Error::from(std::io::Error::other("disk full")).with_bytes_written(8192);
        assert_eq!(e.bytes_written(), Some(8192));
        assert_eq!(
            e.to_string(),
            "i/o error: disk full (after 8192 bytes written)"
        );
        let e = Error::eof().with_bytes_written(1).at(2);
        assert_eq!(
            e.to_string(),
            "unexpected end of input (byte 2) (after 1 byte written)"
        );
        assert_eq!(Error::eof().bytes_written(), None);
    }

    #[test]
    fn error_is_one_pointer() {
        assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
    }
}
