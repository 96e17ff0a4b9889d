//! # codec-json: the JSON handle of the codec family
//!
//! [`JsonHandle`] encodes and decodes every `Encode`/`Decode` type (usually
//! `#[derive(Codec)]`) as JSON text, byte for byte as Go's
//! `github.com/ugorji/go/codec` `JsonHandle` v1.2.14 writes it wherever that
//! output is valid JSON, and reads it back with a strict RFC 8259 parser.
//!
//! ```
//! use codec_core::{Value, from_slice, to_vec};
//! use codec_json::JsonHandle;
//! use std::collections::BTreeMap;
//!
//! let h = JsonHandle::default();
//! let mut m = BTreeMap::new();
//! m.insert("pi".to_string(), vec![3.0, 0.14]);
//! let text = to_vec(&m, &h).unwrap();
//! assert_eq!(text, br#"{"pi":[3.0,0.14]}"#);
//! let back: BTreeMap<String, Vec<f64>> = from_slice(&text, &h).unwrap();
//! assert_eq!(back, m);
//!
//! // Integer map keys are written as strings and read back as integers.
//! let ids: BTreeMap<u64, bool> = [(1, true), (20, false)].into_iter().collect();
//! let text = to_vec(&ids, &h).unwrap();
//! assert_eq!(text, br#"{"1":true,"20":false}"#);
//! assert_eq!(from_slice::<BTreeMap<u64, bool>, _>(&text, &h).unwrap(), ids);
//!
//! // Dynamic values: non-negative integers are Uint, negative Int, the rest F64.
//! let v: Value = from_slice(br#"[1, -2, 3.5, "x", null]"#, &h).unwrap();
//! assert_eq!(v, Value::Array(vec![
//!     Value::Uint(1), Value::Int(-2), Value::F64(3.5), Value::from("x"), Value::Nil,
//! ]));
//!
//! // Bad input is an error, never a panic.
//! assert!(from_slice::<Value, _>(b"[1, 2,]", &h).is_err());
//! ```
//!
//! ## Output (as ugorji)
//!
//! - Strings escape `"` `\` `\n` `\t` `\r` `\b` `\f` with short forms and other
//!   control characters as `\u00xx` (lower-case hex); `<`, `>`, `&` become
//!   `\u003c`, `\u003e`, `\u0026` unless [`JsonHandle::html_chars_as_is`];
//!   U+2028 and U+2029 are always escaped; DEL and non-ASCII are written raw.
//! - Integers in decimal (quoted with [`JsonHandle::integer_as_string`]).
//!   Floats in the shortest form that round-trips (zmij), laid out as Go's
//!   `strconv` with ugorji's choices: integral values keep `.0` while
//!   |f| < 2^52 (`f64`) or 2^23 (`f32`) (`1.0`, `-0.0`, `100000.0`, but
//!   `1e16` is `10000000000000000`); the exponent form for |f| < 1e-6 and
//!   from 1e21 up (`1e-07`, `1e+21`, `5e-324`); `f32` at 32-bit precision
//!   (`0.33333334`). NaN and ±infinity are `null`.
//! - Byte strings (`Vec<u8>`, `[u8; N]`) as standard base64 with padding.
//! - Times ([`codec_core::Time`]) as RFC 3339 with nanoseconds and the
//!   original offset (Go's `RFC3339Nano`); Go's zero time is `null`.
//! - [`JsonHandle::indent`]: a newline and the indent before each array item
//!   and map key, `": "` after keys; an empty map is `{}` and an empty array
//!   `[\n]` (v1.2.14's bytes; v1.3 writes `[]`; both are valid JSON).
//!
//! ## Where we differ from ugorji, and why
//!
//! - **Non-string map keys are always quoted.** ugorji writes `{1:"x"}` (not
//!   JSON) unless `MapKeyAsString`; we always write `{"1":"x"}`, as ugorji
//!   does with `MapKeyAsString`. Integer, bool and float keys are read back
//!   from the quoted text, so `BTreeMap<u64, bool>` round-trips.
//! - **Strict input.** ugorji replaces invalid escapes and lone surrogates with
//!   U+FFFD (and can swallow the next character); we reject lone surrogates,
//!   invalid escapes, invalid UTF-8, control characters in strings, leading
//!   zeros, trailing commas, comments, `NaN`/`Infinity` and trailing data;
//!   a top-level number or literal glued to what follows (`01`,
//!   `truefalse`) is an error, in one document as in a stream, not two
//!   values: the byte after it must be whitespace or a delimiter, as
//!   serde_json's stream requires. Decoding a number that overflows `f64` (`1e400`) is an out-of-range
//!   error. A decoded number is at most 4096 bytes long, from a slice or
//!   from a reader wherever its buffers split the number; a longer one is
//!   the error "number too long". A *skipped* number (an unknown
//!   field, a [`codec_core::Raw`] or [`codec_core::RawRef`]) is checked
//!   against the grammar only, as ugorji and serde_json skip: `1e400` and
//!   numbers of any length pass through untouched.
//! - **128-bit integers** are written in full (valid JSON; ugorji has none)
//!   and read exactly by `i128`/`u128` targets. Into [`codec_core::Value`] an
//!   integer of magnitude 2^64 or more becomes `F64`, as in ugorji; so does a
//!   negative one below -2^63, which ugorji refuses. With
//!   [`JsonHandle::exact_integers`] both become `BigInt` (exact), and an
//!   integer beyond `i128` is an error rather than a rounded float.
//! - **Extensions and tags** (from other formats, e.g. when transcoding):
//!   an extension's data is written as a base64 string and its tag dropped
//!   (ugorji writes a bytes extension the same way); a CBOR tag writes
//!   nothing and its item follows alone (ugorji v1.2.14's `RawExt` behaviour);
//!   CBOR `undefined` is `null`. Reading an extension from JSON is an error.
//! - With `term_whitespace` and `canonical`, ugorji writes a newline after
//!   each key of a map whose keys sort by their encoding (`{"a"\n:1}`), a
//!   side effect of encoding those keys on their own; we write `{"a":1}`.
//! - A nil map key (e.g. `Option` keys) is written as the string `"null"`,
//!   which reads back as nil into a target that takes nil (`None`); a NaN
//!   or infinite float key, or an array or map key, is an error.
//!
//! ## Input
//!
//! - Numeric targets also accept quoted numbers (`"42"` into `u32`), as
//!   ugorji does; this is what reads `integer_as_string` output and map keys.
//!   Bool targets accept `"true"`/`"false"` only in map-key position.
//! - Floats decode into integer targets only when exact (`1.5e1` into `u8`
//!   is 15, `1.5` is an error), decided from the digits at any length
//!   (`1.8446744073709551616e19` into `u128` is 2^64,
//!   `1.0000000000000000000001` into `u8` an error); integers too large for
//!   a target are errors. `-0` is `-0.0` in a float target and 0 in an
//!   integer one, unsigned too (ugorji refuses a minus sign there; `-0` and
//!   `-0.0` are exactly 0, so nothing is lost).
//! - `f64` is correctly rounded; `f32` targets round straight from the text.
//! - Strings without escapes are borrowed from a slice input (`&'de str`).
//!   String content and whitespace are scanned 16 bytes per step with SSE2
//!   on x86_64 (part of its baseline: no run-time detection, no
//!   `target-cpu` flag) and 8 bytes per step in a `u64` elsewhere; text is
//!   checked for UTF-8 by [`codec_core::str_from_utf8`] (an ASCII test, then
//!   a table-driven automaton).
//! - `null` decodes into a `Time` as Go's zero time (0001-01-01T00:00:00Z),
//!   and into `f32`/`f64` as `0.0` (ugorji reads null as the zero value; it
//!   writes NaN and infinities as null). Other targets need `Option` for null.
//! - Nesting deeper than `max_depth` (default 256) is an error; parsing and
//!   skipping never recurse beyond it, so no input can overflow the stack.
//! - An error in a string's content points at the offending byte
//!   ([`Error::offset`](codec_core::Error::offset)), wherever the string is
//!   (a value, a key, a skipped field, a `Raw`) and whatever the reader's
//!   buffers: a bad escape, a bad or short `\u` escape or a lone surrogate
//!   at the backslash that starts the escape at fault (a high surrogate
//!   not followed by a low one at the high surrogate's), a raw control
//!   character at itself, invalid UTF-8 at the first byte of the invalid
//!   sequence. The input ending inside a string is an error at its end.
//! - An error also gives the line and column of its offset
//!   (`Error::line_column`, shown as `(line 4, column 21, byte 48)`), from a
//!   slice and from a reader alike; a trailing comma, a single-quoted
//!   string, a comment and a number's leading zero are named as such.
//!
//! ```
//! use codec_json::JsonHandle;
//! let text = b"{\n  \"a\": [1, 2,]\n}";
//! let e = codec_core::from_slice::<codec_core::Value, _>(text, &JsonHandle::default()).unwrap_err();
//! assert_eq!(e.line_column(), Some((2, 14)));
//! assert!(e.to_string().ends_with("no trailing comma at [\"a\"][2] (line 2, column 14, byte 15)"));
//! ```
//!
//! ## Several texts: [`JsonStream`]
//!
//! [`JsonHandle::stream_slice`] and [`JsonHandle::stream_reader`] iterate over
//! a sequence of JSON texts separated by optional whitespace (JSON Lines,
//! concatenated JSON), yielding one decoded value per text.

mod base64;
mod decode;
mod digits;
mod document;
mod encode;
mod lemire;
mod number;
mod scan;
mod skip;
mod stream;

/// What the tests of the one-loop readers (`document.rs`, `skip.rs`) share.
#[cfg(test)]
mod testing {
    /// Bytes that change a text's meaning or break it: structure, number
    /// parts, whitespace, a control, DEL, a letter, a lead byte cut short
    /// and a byte that is never UTF-8.
    const CHANGES: &[u8] = b"\"\\,:[]{}0-.eE+ \n\x01\x7fa\xc3\xff";

    /// Calls `cut` with every prefix of `input`, then `change` with every
    /// copy of it that has one byte replaced by one of [`CHANGES`].
    pub(crate) fn cuts_and_changes(
        input: &[u8],
        mut cut: impl FnMut(&[u8]),
        mut change: impl FnMut(&[u8]),
    ) {
        for n in 0..=input.len() {
            cut(&input[..n]);
        }
        for at in 0..input.len() {
            for &b in CHANGES {
                let mut changed = input.to_vec();
                changed[at] = b;
                change(&changed);
            }
        }
    }
}

pub use decode::JsonDecoder;
pub use encode::JsonEncoder;
pub use stream::JsonStream;

use codec_core::{Handle, IoReader, Options, SliceReader};

/// When integers are written as JSON strings (ugorji's `IntegerAsString`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum IntegerAsString {
    /// Never: integers are JSON numbers (ugorji's default, byte 0).
    #[default]
    Never,
    /// Integers whose magnitude exceeds 2^53 (beyond JavaScript's exact
    /// range) are quoted (ugorji's `'L'`).
    Large,
    /// Every integer is quoted (ugorji's `'A'`).
    Always,
}

/// The JSON handle: options, and the encoder/decoder drivers they build.
///
/// Defaults match ugorji's `JsonHandle{}`.
#[derive(Debug, Clone, Default)]
pub struct JsonHandle {
    /// Options shared by every handle.
    pub options: Options,
    /// Indentation: `n > 0` indents with `n` spaces per level, `n < 0` with
    /// `|n|` tabs, `0` writes compact text. ugorji's `Indent`.
    pub indent: i8,
    /// When integers are quoted. ugorji's `IntegerAsString`.
    pub integer_as_string: IntegerAsString,
    /// Leave `<`, `>` and `&` unescaped. ugorji's `HTMLCharsAsIs`.
    pub html_chars_as_is: bool,
    /// ugorji's `MapKeyAsString`. Non-string map keys are always written as
    /// strings here (unquoted keys are not JSON); what this option changes
    /// is the canonical order of keys of mixed kinds, which sort as ugorji
    /// writes them: by their text as values without it (`"a"` before `-3`
    /// before `10`), quoted with it (`"1"` before `"a"`). As with ugorji
    /// under it, map keys read into [`Value`](codec_core::Value) stay
    /// strings.
    pub map_key_as_string: bool,
    /// Into [`Value`](codec_core::Value), map keys whose quoted text is a JSON
    /// number or `true`/`false` become numbers or bools (ugorji converts
    /// such keys when it decodes a key into `interface{}`). Off by default:
    /// keys stay strings. Turn on to read back maps with integer keys that
    /// were written from `Value` (ugorji would have written them unquoted).
    pub parse_quoted_keys: bool,
    /// Into [`Value`](codec_core::Value), every number becomes `F64`.
    /// ugorji's `PreferFloat`.
    pub prefer_float: bool,
    /// Into [`Value`](codec_core::Value), an integer outside the 64-bit
    /// ranges becomes [`Value::BigInt`](codec_core::Value::BigInt), exactly,
    /// and one beyond `i128` is an out-of-range error, where by default (as
    /// in ugorji) either becomes the nearest `F64`. Not ugorji's; for a
    /// reader that must not change what it was given (the `codec` command's
    /// `transcode` turns it on). A `prefer_float`, of the handle or of its
    /// [`DecodeOptions`](codec_core::DecodeOptions), turns it off. Typed
    /// targets are unaffected: `i128`/`u128` read such integers exactly
    /// either way, and float targets round them.
    pub exact_integers: bool,
    /// Write a space after each top-level value. ugorji's `TermWhitespace`.
    pub term_whitespace: bool,
    /// Write a newline after each top-level value (JSON Lines); takes
    /// precedence over `term_whitespace`.
    pub trailing_newline: bool,
}

impl JsonHandle {
    /// A handle with ugorji's defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the shared [`Options`].
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// Sets [`JsonHandle::indent`].
    pub fn indent(mut self, indent: i8) -> Self {
        self.indent = indent;
        self
    }

    /// Sets [`JsonHandle::integer_as_string`].
    pub fn integer_as_string(mut self, mode: IntegerAsString) -> Self {
        self.integer_as_string = mode;
        self
    }

    /// Sets [`JsonHandle::html_chars_as_is`].
    pub fn html_chars_as_is(mut self, on: bool) -> Self {
        self.html_chars_as_is = on;
        self
    }

    /// Sets [`JsonHandle::map_key_as_string`].
    pub fn map_key_as_string(mut self, on: bool) -> Self {
        self.map_key_as_string = on;
        self
    }

    /// Sets [`JsonHandle::parse_quoted_keys`].
    pub fn parse_quoted_keys(mut self, on: bool) -> Self {
        self.parse_quoted_keys = on;
        self
    }

    /// Sets [`JsonHandle::prefer_float`].
    pub fn prefer_float(mut self, on: bool) -> Self {
        self.prefer_float = on;
        self
    }

    /// Sets [`JsonHandle::exact_integers`].
    pub fn exact_integers(mut self, on: bool) -> Self {
        self.exact_integers = on;
        self
    }

    /// Sets [`JsonHandle::term_whitespace`].
    pub fn term_whitespace(mut self, on: bool) -> Self {
        self.term_whitespace = on;
        self
    }

    /// Sets [`JsonHandle::trailing_newline`].
    pub fn trailing_newline(mut self, on: bool) -> Self {
        self.trailing_newline = on;
        self
    }

    /// Iterates over the JSON texts in `input` (JSON Lines or concatenated
    /// values, separated by optional whitespace); values may borrow from it.
    ///
    /// ```
    /// use codec_json::JsonHandle;
    /// let h = JsonHandle::default();
    /// let items: Vec<Vec<u8>> = h
    ///     .stream_slice(b"[1,2]\n[3]\n[]\n")
    ///     .collect::<Result<_, _>>()
    ///     .unwrap();
    /// assert_eq!(items, vec![vec![1, 2], vec![3], vec![]]);
    /// ```
    pub fn stream_slice<'de, T: codec_core::Decode<'de>>(
        &self,
        input: &'de [u8],
    ) -> JsonStream<'de, SliceReader<'de>, T> {
        JsonStream::new(self.decoder(input))
    }

    /// Iterates over the JSON texts read from `r` (JSON Lines or concatenated
    /// values), decoding each into an owned `T`.
    ///
    /// ```
    /// use codec_core::Value;
    /// use codec_json::JsonHandle;
    /// let h = JsonHandle::default();
    /// let input: &[u8] = b"{\"a\":1} {\"a\":2}";
    /// let n = h.stream_reader::<Value, _>(input).filter(|v| v.is_ok()).count();
    /// assert_eq!(n, 2);
    /// ```
    pub fn stream_reader<T: codec_core::DecodeOwned, R: std::io::Read>(
        &self,
        r: R,
    ) -> JsonStream<'static, IoReader<R>, T> {
        JsonStream::new(self.io_decoder(r))
    }
}

impl Handle for JsonHandle {
    type Enc = JsonEncoder;
    type Dec = JsonDecoder;

    #[inline]
    fn options(&self) -> &Options {
        &self.options
    }

    #[inline]
    fn enc_format(&self) -> JsonEncoder {
        JsonEncoder::new(self)
    }

    #[inline]
    fn dec_format(&self) -> JsonDecoder {
        JsonDecoder::new(self)
    }
}
