//! [`JsonDecoder`]: the decoding half of the JSON format driver, a strict
//! RFC 8259 parser over any [`Read`] (slices borrow, readers stream).

use crate::base64;
use crate::number::{self, Grammar, Num, NumPart, Parsed};
use crate::scan::{find_non_ws, find_string_stop, find_string_stop_ascii, is_ws};
use codec_core::{
    DecodeFormat, Error, ErrorKind, Found, KeyHint, KeyStep, Kind, Read, Reference, Result, Scalar,
    Seq, Text, Time, Value, copy_short,
};

/// Input tails shorter than this are scanned for a number from a padded
/// copy ([`number_window`]).
const TAIL: usize = 48;

/// Where to scan for a number: the reader's buffer, or, when that holds
/// the input's last few bytes (a number as the whole document, from a
/// slice), a copy of them into `tail` (all spaces: the caller's fresh
/// array), marked `true`. The scans need a byte after a number to know it
/// has ended; there the input's end is that byte. A number has no spaces,
/// so what is scanned from the copy ends inside the bytes copied.
#[inline(always)]
fn number_window<'a, 'de, R: Read<'de>>(
    r: &'a mut R,
    tail: &'a mut [u8; TAIL],
) -> Result<(&'a [u8], bool)> {
    let held = r.fill_buf()?.len();
    if held < TAIL && r.remaining_hint() == Some(held) {
        // Inline for up to 32 bytes, where `copy_from_slice` calls `memcpy`.
        copy_short(tail, r.fill_buf()?);
        return Ok((&tail[..], true));
    }
    Ok((r.fill_buf()?, false))
}

/// A scalar read ahead by [`DecodeFormat::peek_kind`] and not yet handed out.
#[derive(Debug, Clone, Copy)]
enum Pending {
    Num(Num),
    /// A quoted key read as a bool (with `parse_quoted_keys`).
    Bool(bool),
    /// A quoted key kept as text (with `parse_quoted_keys`), in `key_buf`.
    Str,
}

/// The decoding half of the JSON driver: a strict RFC 8259 parser.
///
/// Built by [`JsonHandle`](crate::JsonHandle). Over a [`SliceReader`](codec_core::SliceReader)
/// strings without escapes are borrowed from the input; over an
/// [`IoReader`](codec_core::IoReader) the input is scanned in place in its
/// buffer through `fill_buf` / `consume`.
#[derive(Debug, Clone)]
pub struct JsonDecoder {
    prefer_float: bool,
    parse_quoted_keys: bool,
    /// `JsonHandle::exact_integers`, unless a `prefer_float` overrides it.
    exact_integers: bool,
    pending: Option<Pending>,
    /// The pending item is a quoted key (with `parse_quoted_keys`): `aux`
    /// holds its text, whatever it was classified as, for a target that
    /// reads it as text or bytes after all.
    pending_quoted: bool,
    /// Where the pending item starts.
    pending_at: u64,
    /// Between `map_next` and `map_value`: the next item is a key.
    in_key: bool,
    /// A number split across reader buffers.
    num_buf: Vec<u8>,
    /// base64 output, and pending key text.
    aux: Vec<u8>,
    /// Open containers while skipping (true = map).
    skip_stack: Vec<bool>,
    /// `max_str_len`: a string whose unescaped text grows past it is
    /// refused there, at its opening quote, before a reader copies more.
    max_str_len: usize,
}

#[cold]
fn syntax(msg: &'static str) -> Error {
    Error::syntax(msg)
}

#[cold]
fn unexpected(b: u8, wanted: &'static str) -> Error {
    let found = match b {
        b'"' => "a string".to_string(),
        b'[' => "an array".to_string(),
        b'{' => "an object".to_string(),
        b't' | b'f' => "a bool".to_string(),
        b'n' => "null".to_string(),
        b'-' | b'0'..=b'9' => "a number".to_string(),
        // Where a key or a value must be (`{` and `[` end an empty
        // container themselves): a comma came before it.
        b'}' if wanted == "a string key" => "'}'; JSON allows no trailing comma".to_string(),
        b']' if wanted == "a value" => "']'; JSON allows no trailing comma".to_string(),
        b'\'' => "a single quote; JSON strings take double quotes".to_string(),
        b'/' => "'/'; JSON has no comments".to_string(),
        0x20..=0x7e => format!("'{}'", b as char),
        _ => format!("byte 0x{b:02x}"),
    };
    Error::syntax(format!("expected {wanted}, found {found}"))
}

/// [`unexpected`] where a `,` or a closing bracket must follow a value.
/// A digit right after a `0` means a number with a leading zero (the
/// number `0` ended at the digit, as only `0` and `-0` can), which the
/// message names, when the reader still holds the byte before.
#[cold]
#[inline(never)]
fn after_value<'de, R: Read<'de>>(r: &R, b: u8, wanted: &'static str) -> Error {
    let before = r
        .offset()
        .checked_sub(1)
        .and_then(|at| r.consumed_since(at));
    if b.is_ascii_digit() && before == Some(b"0".as_slice()) {
        return Error::syntax(format!(
            "expected {wanted}, found a digit after a leading zero, which JSON numbers do not allow"
        ));
    }
    unexpected(b, wanted)
}

/// Whether `b` starts or ends a token that delimits itself: such a byte
/// may follow a top-level value directly, as serde_json's
/// `StreamDeserializer` allows.
#[inline]
fn is_delimiter(b: u8) -> bool {
    matches!(b, b'[' | b']' | b'{' | b'}' | b'"' | b',' | b':')
}

/// `b` (neither whitespace nor a delimiter) right after a top-level value:
/// an error after a number or a literal (`01` is not `0` then `1`, nor
/// `truefalse` two values; `01` names the leading zero), else the start of
/// the next value (after a string, an array or an object).
#[cold]
#[inline(never)]
fn undelimited<'de, R: Read<'de>>(r: &R, b: u8) -> Result<()> {
    let at = r.offset();
    let before = at.checked_sub(1).and_then(|a| r.consumed_since(a));
    match before {
        Some(&[b'0']) if b.is_ascii_digit() => Err(Error::syntax(
            "a digit after a leading zero, which JSON numbers do not allow",
        )
        .at(at)),
        Some(&[p]) if p.is_ascii_alphanumeric() => Err(Error::syntax(
            "a number or literal must be followed by whitespace or a delimiter",
        )
        .at(at)),
        _ => Ok(()),
    }
}

/// A type mismatch for a scalar target, or a syntax error for a byte that starts no value.
/// The value (starting with `b`, at the reader) is not consumed: the shared
/// decoder quotes it. The error points at it (past any whitespace).
#[cold]
fn mismatch<'de, R: Read<'de>>(r: &R, b: u8, expected: &'static str) -> Error {
    let kind = match b {
        b'"' => Kind::Str,
        b'[' => Kind::Array,
        b'{' => Kind::Map,
        b't' | b'f' => Kind::Bool,
        b'n' => Kind::Nil,
        b'-' | b'0'..=b'9' => Kind::Float64,
        _ => return unexpected(b, "a value"),
    };
    kind.mismatch_unread(expected).at(r.offset())
}

/// A type mismatch for a value already read ahead (`aux` holds a pending
/// key's text), at its first byte (`at`).
#[cold]
fn pending_mismatch(p: &Pending, aux: &[u8], expected: &'static str, at: u64) -> Error {
    let found = match *p {
        Pending::Num(Num::U(v)) => Found::Uint(u128::from(v)),
        Pending::Num(Num::I(v)) => Found::Int(i128::from(v)),
        Pending::Num(n) => Found::Float(n.to_f64()),
        Pending::Bool(b) => Found::Bool(b),
        Pending::Str => Found::Text {
            head: aux,
            len: aux.len(),
        },
    };
    Error::type_mismatch(expected, found).at(at)
}

/// Skips whitespace and returns the next byte without consuming it.
#[inline(always)]
fn peek_token<'de, R: Read<'de>>(r: &mut R) -> Result<Option<u8>> {
    let buf = r.fill_buf()?;
    match buf.first() {
        Some(&b) if !is_ws(b) => Ok(Some(b)),
        // `fill_buf` is empty only at the end of the input.
        None => Ok(None),
        Some(_) => skip_ws(r),
    }
}

/// The whitespace part of [`peek_token`], across buffer refills.
#[inline]
fn skip_ws<'de, R: Read<'de>>(r: &mut R) -> Result<Option<u8>> {
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(None);
        }
        match find_non_ws(buf) {
            Some(i) => {
                let b = buf[i];
                r.consume(i);
                return Ok(Some(b));
            }
            None => {
                let n = buf.len();
                r.consume(n);
            }
        }
    }
}

/// The index of the first byte at or after `i` in `buf` that is not
/// whitespace (`buf.len()` if none).
#[inline(always)]
pub(crate) fn skip_ws_in(buf: &[u8], i: usize) -> usize {
    match buf.get(i) {
        Some(&b) if !is_ws(b) => i,
        _ => buf
            .get(i..)
            .and_then(find_non_ws)
            .map_or(buf.len(), |k| i + k),
    }
}

/// [`number::plain_int`] where `b` is what `R` buffers: from a reader
/// that holds the rest of the input ([`Read::HOLDS_REST`], a slice) a number
/// may end at `b`'s end (a document that is one number), which the inline
/// path then reads instead of leaving it to the general one.
#[inline(always)]
fn plain_int<'de, R: Read<'de>>(b: &[u8]) -> Option<(bool, u64, usize)> {
    if R::HOLDS_REST {
        number::plain_int_ended::<true>(b)
    } else {
        number::plain_int(b)
    }
}

/// [`number::short_f64`] where `b` is what `R` buffers, as [`plain_int`].
#[inline(always)]
fn short_f64<'de, R: Read<'de>>(b: &[u8]) -> Option<Result<(f64, usize)>> {
    if R::HOLDS_REST {
        number::short_f64::<true>(b)
    } else {
        number::short_f64::<false>(b)
    }
}

/// [`number::short_f32`] where `b` is what `R` buffers, as [`plain_int`].
#[inline(always)]
fn short_f32<'de, R: Read<'de>>(b: &[u8]) -> Option<(f32, usize)> {
    if R::HOLDS_REST {
        number::short_f32::<true>(b)
    } else {
        number::short_f32::<false>(b)
    }
}

/// [`number::short_value`] where `b` is what `R` buffers, as [`plain_int`].
#[inline(always)]
fn short_value<'de, R: Read<'de>>(b: &[u8], signed: bool) -> Option<Result<(Value, usize)>> {
    if R::HOLDS_REST {
        number::short_value::<true>(b, signed)
    } else {
        number::short_value::<false>(b, signed)
    }
}

/// The `i64` of a sign and magnitude, if it is in range.
#[inline(always)]
fn signed(neg: bool, mag: u64) -> Option<i64> {
    if neg {
        (mag <= 1 << 63).then(|| (mag as i64).wrapping_neg())
    } else {
        i64::try_from(mag).ok()
    }
}

/// Like [`peek_token`], but the end of input is an error.
#[inline(always)]
fn next_token<'de, R: Read<'de>>(r: &mut R) -> Result<u8> {
    match peek_token(r)? {
        Some(b) => Ok(b),
        None => Err(Error::eof()),
    }
}

#[inline]
fn expect_literal<'de, R: Read<'de>, const N: usize>(r: &mut R, lit: &[u8; N]) -> Result<()> {
    let at = r.offset();
    if r.read_array::<N>()? == *lit {
        Ok(())
    } else {
        // At the literal's first byte, not after the bytes compared.
        Err(syntax("invalid literal (expected true, false or null)").at(at))
    }
}

/// Each byte's value as a hex digit, -1 where it is not one.
static HEX_DIGIT: [i8; 256] = {
    let mut t = [-1i8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as i8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as i8;
        t[b'A' as usize + i] = 10 + i as i8;
        i += 1;
    }
    t
};

/// The value of 4 hex digits, `None` if one is not a hex digit: four
/// table lookups and one sign test, not a branch per digit.
#[inline(always)]
fn hex4(h: [u8; 4]) -> Option<u16> {
    let [a, b, c, d] = h.map(|c| i32::from(HEX_DIGIT[c as usize]));
    ((a | b | c | d) >= 0).then_some((a << 12 | b << 8 | c << 4 | d) as u16)
}

/// Reads 4 hex digits of a `\u` escape, one byte at a time: a byte that
/// is not a hex digit is a syntax error even when the input ends right
/// after it (reading four at once took `"\u12"` at the very end of the
/// input for a string cut short).
#[inline]
fn read_hex4<'de, R: Read<'de>>(r: &mut R) -> Result<u16> {
    let mut v = 0u16;
    for _ in 0..4 {
        let d = HEX_DIGIT[usize::from(r.read_u8()?)];
        if d < 0 {
            return Err(syntax("invalid \\u escape: expected 4 hex digits"));
        }
        v = v << 4 | d as u16;
    }
    Ok(v)
}

/// The byte a one-letter escape (`\n`, `\"`, ...) stands for; `None` for
/// `u` and for letters JSON does not define.
#[inline(always)]
fn simple_escape(c: u8) -> Option<u8> {
    Some(match c {
        b'"' => b'"',
        b'\\' => b'\\',
        b'/' => b'/',
        b'b' => 0x08,
        b'f' => 0x0c,
        b'n' => b'\n',
        b'r' => b'\r',
        b't' => b'\t',
        _ => return None,
    })
}

/// The code point a high and a low surrogate stand for together.
#[inline(always)]
fn pair_code_point(high: u16, low: u16) -> u32 {
    0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(low) - 0xDC00)
}

/// Decodes one escape (the `\` already consumed), appending UTF-8 to `out`.
/// An error points at the backslash of the escape at fault: for a high
/// surrogate not followed by a low one, the high surrogate's; for a second
/// `\u` escape that is not four hex digits, its own. The end of the input
/// is the reader's error, at the end.
fn read_escape<'de, R: Read<'de>>(r: &mut R, out: &mut Vec<u8>) -> Result<()> {
    // Not the slice's path for a valid escape (`unescape_run` decodes
    // those in place): this reads escapes cut by a reader's buffer end.
    let at = r.offset() - 1;
    let c = r.read_u8()?;
    if let Some(b) = simple_escape(c) {
        out.push(b);
        return Ok(());
    }
    if c != b'u' {
        return Err(syntax("invalid escape in string").at(at));
    }
    let u = read_hex4(r).map_err(|e| e.at(at))?;
    let cp = match u {
        0xD800..=0xDBFF => {
            // Byte by byte: a closing quote right after the high surrogate
            // is the error, even at the very end of the input.
            if r.read_u8()? != b'\\' || r.read_u8()? != b'u' {
                return Err(syntax("lone high surrogate in \\u escape").at(at));
            }
            // The second escape's own backslash, six bytes on.
            let lo = read_hex4(r).map_err(|e| e.at(at + 6))?;
            if !(0xDC00..=0xDFFF).contains(&lo) {
                return Err(syntax("high surrogate not followed by a low surrogate").at(at));
            }
            pair_code_point(u, lo)
        }
        0xDC00..=0xDFFF => return Err(syntax("lone low surrogate in \\u escape").at(at)),
        _ => u32::from(u),
    };
    out.push_char(cp);
    Ok(())
}

/// Reads the rest of a string (the opening quote consumed), borrowing from
/// the input when it has no escape and the reader allows it. Bytes without
/// escapes are not checked for UTF-8 (the callers read a literal or a
/// number from them), nor are those unescaped the general way
/// ([`read_bytes_slow`]), so a slice and a reader agree.
#[inline]
fn read_string_body<'de, 's, R: Read<'de>>(
    r: &'s mut R,
    scratch: &'s mut Vec<u8>,
    max: usize,
) -> Result<Reference<'de, 's, [u8]>> {
    let buf = r.fill_buf()?;
    if let Some(i) = find_string_stop(buf)
        && buf[i] == b'"'
    {
        if i > max {
            return Err(str_too_long(r, i, max));
        }
        // No escape: take the content and the closing quote in one go.
        return Ok(match r.read_slice(i + 1, scratch)? {
            Reference::Borrowed(b) => Reference::Borrowed(&b[..i]),
            Reference::Copied(b) => Reference::Copied(&b[..i]),
        });
    }
    Ok(Reference::Copied(read_bytes_slow(r, scratch, max)?))
}

/// [`read_string_body`] for text: checked for UTF-8, unless the scan for
/// its end saw only ASCII in it (most keys and values). Every error in the
/// content points at the offending byte (see [`read_string_slow`]).
#[inline]
fn read_str_body<'de, 's, R: Read<'de>>(
    r: &'s mut R,
    scratch: &'s mut Vec<u8>,
    max: usize,
) -> Result<Reference<'de, 's, str>> {
    let buf = r.fill_buf()?;
    if let Some((i, ascii)) = find_string_stop_ascii(buf)
        && buf[i] == b'"'
    {
        if i > max {
            return Err(str_too_long(r, i, max));
        }
        // The content's first byte, which a UTF-8 error is placed from:
        // the reader's offset cannot be asked once it has lent the bytes.
        let at = r.offset();
        // No escape: take the content and the closing quote in one go.
        return Ok(match r.read_slice(i + 1, scratch)? {
            Reference::Borrowed(b) => {
                let b = &b[..i];
                Reference::Borrowed(scanned_str(b, ascii).map_err(|e| utf8_error(e, b, at))?)
            }
            Reference::Copied(b) => {
                let b = &b[..i];
                Reference::Copied(scanned_str(b, ascii).map_err(|e| utf8_error(e, b, at))?)
            }
        });
    }
    Ok(Reference::Copied(read_string_slow(r, scratch, max)?))
}

/// A string of `len` bytes over `max_str_len`, the reader standing just
/// past its opening quote, where the error points (as the decoder's own
/// check after reading it does, past any whitespace).
#[cold]
#[inline(never)]
fn str_too_long<'de, R: Read<'de>>(r: &R, len: usize, max: usize) -> Error {
    Error::str_too_long(len, max).at(r.offset().saturating_sub(1))
}

/// `e`, invalid UTF-8 found in `text`, whose first byte is at offset `at`,
/// placed at the first byte of the invalid sequence.
#[cold]
#[inline(never)]
fn utf8_error(e: Error, text: &[u8], at: u64) -> Error {
    let k = std::str::from_utf8(text)
        .err()
        .map_or(0, |u| u.valid_up_to());
    e.at(at + k as u64)
}

/// `b` as text: checked for UTF-8 unless `ascii`, which says that a scan
/// found only ASCII in it.
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) fn scanned_str(b: &[u8], ascii: bool) -> Result<&str> {
    if !ascii {
        return codec_core::str_from_utf8(b);
    }
    debug_assert!(b.is_ascii());
    // SAFETY: ASCII is valid UTF-8, and the caller's scan found no byte of
    // `b` at or above 0x80 (`find_string_stop_ascii`, which its tests
    // check against `is_ascii` for every position of a non-ASCII byte
    // around the stop; the debug assertion re-checks it in every test).
    Ok(unsafe { std::str::from_utf8_unchecked(b) })
}

/// Unescapes a string into `scratch` (cleared first), across buffer
/// refills, and checks that it is UTF-8.
///
/// Errors point at the offending byte: an escape's at the backslash that
/// starts it ([`read_escape`]), a control character at itself, invalid
/// UTF-8 at the first byte of the invalid sequence; the end of the input
/// inside the string at the input's end. The first bad byte of the input
/// is the one reported, whatever the reader's buffers.
///
/// UTF-8 is checked on the unescaped text, whole, at the end; a failure
/// is placed by reading the bytes of the buffer it came from again
/// ([`Read::consumed_since`]) and unescaping them again. For a string that
/// goes on past the reader's buffer, whose bytes a refill replaces, the
/// text so far is also checked where each buffer ends ([`check_run`]):
/// not the path of a slice, nor of any string inside one buffer. (A
/// reader that does not lend consumed bytes back places invalid UTF-8 at
/// the start of the buffer's part of the string instead; both of this
/// crate's readers lend them.)
///
/// Text growing past `max` bytes (`max_str_len`) is refused as soon as it
/// does, at the opening quote: a reader's string copies no more than that.
fn read_string_slow<'de, 's, R: Read<'de>>(
    r: &mut R,
    scratch: &'s mut Vec<u8>,
    max: usize,
) -> Result<&'s str> {
    let (checked, used) = unescape_string::<R, true, true>(r, scratch, max)?;
    codec_core::str_from_utf8(scratch)
        .map_err(|e| utf8_error_in_run(e, r, scratch, &checked, used, true))
}

/// Skips the rest of a string (the opening quote consumed), checking it
/// as [`read_str_body`] reads it, with the same errors at the same
/// offsets, but keeping none of its text: a string wholly in the buffer
/// is checked in place ([`crate::skip::string`]); else `scratch` holds no
/// more than the text of one of the reader's buffers at a time, whatever
/// the string's length (skipping has no `max_str_len` to stop at).
fn skip_str_body<'de, R: Read<'de>>(r: &mut R, scratch: &mut Vec<u8>) -> Result<()> {
    if let Some(n) = crate::skip::string(r.fill_buf()?, 0) {
        r.consume(n);
        return Ok(());
    }
    let (checked, used) = unescape_string::<R, true, false>(r, scratch, usize::MAX)?;
    codec_core::str_from_utf8(scratch)
        .map(drop)
        .map_err(|e| utf8_error_in_run(e, r, scratch, &checked, used, true))
}

/// [`read_string_slow`] for a string read as bytes (a quoted number or
/// bool, whose text a target parses): not checked for UTF-8, as the
/// buffered path does not check it, so that a reader gives the slice's
/// result (a type mismatch quoting the text, not invalid UTF-8).
fn read_bytes_slow<'de, 's, R: Read<'de>>(
    r: &mut R,
    scratch: &'s mut Vec<u8>,
    max: usize,
) -> Result<&'s [u8]> {
    unescape_string::<R, false, true>(r, scratch, max)?;
    Ok(scratch)
}

/// Unescapes a string into `scratch` up to its closing quote, checking
/// the text of each buffer but the last for UTF-8 when `TEXT`
/// ([`read_string_slow`] checks the rest); returns how far it checked and
/// the bytes of the last buffer used. Unless `KEEP`, the text checked is
/// dropped from `scratch` as it is checked (all but a character cut by a
/// buffer's end), for a string that is skipped.
#[inline(always)]
fn unescape_string<'de, R: Read<'de>, const TEXT: bool, const KEEP: bool>(
    r: &mut R,
    scratch: &mut Vec<u8>,
    max: usize,
) -> Result<(Checked, usize)> {
    scratch.clear();
    let quote = r.offset().saturating_sub(1);
    let mut checked = Checked::default();
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Err(Error::eof().at(r.offset()));
        }
        let (used, stop) = unescape_run(buf, scratch);
        r.consume(used);
        if scratch.len() > max {
            return Err(Error::str_too_long(scratch.len(), max).at(quote));
        }
        match stop {
            RunEnd::Quote => return Ok((checked, used)),
            RunEnd::Buffer if TEXT => checked = check_run(r, scratch, &checked, used, false)?,
            RunEnd::Buffer => {}
            // Cut by the buffer's end, or invalid: the reader's path
            // decodes it or reports it (after the text before it).
            RunEnd::Escape => {
                if TEXT {
                    checked = check_run(r, scratch, &checked, used, true)?;
                }
                if !KEEP {
                    drop_checked(scratch, &mut checked);
                }
                read_escape(r, scratch)?;
                continue;
            }
            RunEnd::Control => {
                if TEXT {
                    check_run(r, scratch, &checked, used, true)?;
                }
                let at = r.offset() - 1;
                return Err(syntax("control character in string (must be escaped)").at(at));
            }
        }
        if !KEEP {
            drop_checked(scratch, &mut checked);
        }
    }
}

/// Drops from `scratch` the text that `checked` says is UTF-8, keeping a
/// character cut by a buffer's end, for [`skip_str_body`]: what is left
/// starts on a character boundary, so the checks that follow read it as
/// they read the whole text.
#[inline(always)]
fn drop_checked(scratch: &mut Vec<u8>, checked: &mut Checked) {
    scratch.drain(..checked.upto);
    checked.upto = 0;
}

/// How much of [`read_string_slow`]'s text has been checked for UTF-8,
/// at the ends of the reader's buffers it spans.
#[derive(Default)]
struct Checked {
    /// `scratch[..upto]` is UTF-8.
    upto: usize,
    /// A character cut by a buffer's end: its first bytes, raw input
    /// (escapes write whole characters), are `scratch[upto..upto + cut]`.
    cut: usize,
    /// The input offset of `scratch[upto]` when `cut` is not 0.
    cut_at: u64,
}

/// A map key that is the string `"null"`, which is how a nil key is
/// written: read as nil (consumed, true), else left alone (false).
#[cold]
#[inline(never)]
fn quoted_null<'de, R: Read<'de>>(r: &mut R) -> Result<bool> {
    if r.peek_bytes(6)? == b"\"null\"" {
        r.consume(6);
        return Ok(true);
    }
    Ok(false)
}

/// Checks the text `scratch` holds past `checked` for UTF-8 after a part
/// of a string read from one buffer (`used` bytes, just consumed), before
/// the buffer is refilled. `closed`: the part ended at a `\`, a control
/// character or the closing quote, which cannot go on a character cut
/// short before it; else the buffer ended, and a character it cut is
/// carried on to the next. Returns how far the text is checked.
#[cold]
#[inline(never)]
fn check_run<'de, R: Read<'de>>(
    r: &R,
    scratch: &[u8],
    checked: &Checked,
    used: usize,
    closed: bool,
) -> Result<Checked> {
    match std::str::from_utf8(&scratch[checked.upto..]) {
        Ok(_) => Ok(Checked {
            upto: scratch.len(),
            ..Checked::default()
        }),
        Err(u) if u.error_len().is_none() && !closed => {
            let upto = checked.upto + u.valid_up_to();
            let cut = scratch.len() - upto;
            Ok(Checked {
                upto,
                cut,
                cut_at: r.offset() - cut as u64,
            })
        }
        Err(_) => Err(utf8_error_in_run(
            Error::new(ErrorKind::InvalidUtf8),
            r,
            scratch,
            checked,
            used,
            closed,
        )),
    }
}

/// `e`, invalid UTF-8 found in `scratch` (a string's text unescaped by
/// [`read_string_slow`], checked up to `checked`), placed at the first
/// byte of the invalid sequence: a raw byte, since escapes write whole
/// characters. Either a character carried from an earlier buffer, or a
/// byte of the `used` bytes just consumed (through the `\`, control
/// character or quote that ended them when `closed`), read again and
/// unescaped again to find which.
#[cold]
#[inline(never)]
fn utf8_error_in_run<'de, R: Read<'de>>(
    e: Error,
    r: &R,
    scratch: &[u8],
    checked: &Checked,
    used: usize,
    closed: bool,
) -> Error {
    let bad = std::str::from_utf8(scratch)
        .err()
        .map_or(scratch.len(), |u| u.valid_up_to());
    if bad < checked.upto + checked.cut {
        return e.at(checked.cut_at + (bad - checked.upto) as u64);
    }
    let start = r.offset() - used as u64;
    let Some(run) = r.consumed_since(start) else {
        return e.at(start);
    };
    let run = &run[..run.len().saturating_sub(usize::from(closed))];
    // The input index of each byte the run wrote (`None`: an escape's).
    let mut from = Vec::with_capacity(run.len());
    let mut out = Vec::new();
    let mut i = 0;
    while i < run.len() {
        if run[i] == b'\\' {
            let Some(n) = unescape_one(&run[i + 1..], &mut out) else {
                break;
            };
            from.resize(out.len(), None);
            i += 1 + n;
        } else {
            out.push(run[i]);
            from.push(Some(i));
            i += 1;
        }
    }
    let first = scratch.len().checked_sub(from.len());
    match first.and_then(|f| from.get(bad.checked_sub(f)?).copied().flatten()) {
        Some(i) => e.at(start + i as u64),
        None => e.at(start),
    }
}

/// Where [`unescape_run`] stopped.
pub(crate) enum RunEnd {
    /// At the closing quote.
    Quote,
    /// At the end of the buffer.
    Buffer,
    /// After a backslash whose escape it left to the reader.
    Escape,
    /// After a control character.
    Control,
}

/// Where unescaped text is appended: a scratch buffer, or the end of a
/// document's own buffer ([`codec_core::TextTail`], which can only be
/// appended to).
pub(crate) trait Out {
    /// Appends one byte.
    fn push(&mut self, b: u8);
    /// Appends `bytes`.
    fn extend_from_slice(&mut self, bytes: &[u8]);
    /// Appends the UTF-8 form of `cp`, a scalar value (an escape's).
    #[inline(always)]
    fn push_char(&mut self, cp: u32)
    where
        Self: Sized,
    {
        push_utf8(self, cp);
    }
}

impl Out for Vec<u8> {
    #[inline(always)]
    fn push(&mut self, b: u8) {
        Vec::push(self, b);
    }

    #[inline(always)]
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        Vec::extend_from_slice(self, bytes);
    }
}

impl Out for codec_core::TextTail<'_> {
    #[inline(always)]
    fn push(&mut self, b: u8) {
        codec_core::TextTail::push(self, b);
    }

    #[inline(always)]
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        codec_core::TextTail::extend_from_slice(self, bytes);
    }
}

/// Appends the string content at the start of `buf` to `out`, decoding
/// every escape that lies wholly in `buf` there (no call to the reader per
/// piece); returns how many bytes it used, through the byte it stopped at.
#[inline]
pub(crate) fn unescape_run(buf: &[u8], out: &mut impl Out) -> (usize, RunEnd) {
    let mut pos = 0;
    loop {
        let at = match buf.get(pos) {
            // Escapes often follow one another (text written with
            // `\u` escapes for all non-ASCII): no scan between them.
            Some(b'\\') => pos,
            _ => {
                let Some(i) = find_string_stop(&buf[pos..]) else {
                    out.extend_from_slice(&buf[pos..]);
                    return (buf.len(), RunEnd::Buffer);
                };
                out.extend_from_slice(&buf[pos..pos + i]);
                pos + i
            }
        };
        match buf[at] {
            b'"' => return (at + 1, RunEnd::Quote),
            b'\\' => match unescape_one(&buf[at + 1..], out) {
                Some(n) => pos = at + 1 + n,
                None => return (at + 1, RunEnd::Escape),
            },
            _ => return (at + 1, RunEnd::Control),
        }
    }
}

/// Appends the UTF-8 form of `cp`, a scalar value (not a surrogate, at
/// most U+10FFFF), with a fixed-size append per length instead of a
/// `memcpy` call for one to four bytes.
#[inline(always)]
fn push_utf8(out: &mut impl Out, cp: u32) {
    debug_assert!(char::from_u32(cp).is_some());
    let cont = |shift: u32| 0x80 | (cp >> shift & 0x3f) as u8;
    if cp < 0x80 {
        out.push(cp as u8);
    } else if cp < 0x800 {
        out.extend_from_slice(&[0xc0 | (cp >> 6) as u8, cont(0)]);
    } else if cp < 0x10000 {
        out.extend_from_slice(&[0xe0 | (cp >> 12) as u8, cont(6), cont(0)]);
    } else {
        out.extend_from_slice(&[0xf0 | (cp >> 18) as u8, cont(12), cont(6), cont(0)]);
    }
}

/// Decodes the escape at the start of `rest` (its backslash before it)
/// into `out` and returns its length, when it is wholly in `rest` and
/// valid; `None` leaves it to [`read_escape`], which reads on or reports
/// the error at the same place as from any reader.
#[inline(always)]
fn unescape_one(rest: &[u8], out: &mut impl Out) -> Option<usize> {
    let c = *rest.first()?;
    if let Some(b) = simple_escape(c) {
        out.push(b);
        return Some(1);
    }
    if c != b'u' {
        return None;
    }
    let u = hex4(*rest.get(1..5)?.first_chunk()?)?;
    let (cp, len) = match u {
        0xD800..=0xDBFF => {
            let pair = rest.get(5..11)?;
            let lo = hex4(*pair[2..].first_chunk()?)?;
            if pair[..2] != *b"\\u" || !(0xDC00..=0xDFFF).contains(&lo) {
                return None;
            }
            (pair_code_point(u, lo), 11)
        }
        0xDC00..=0xDFFF => return None,
        _ => (u32::from(u), 5),
    };
    out.push_char(cp);
    Some(len)
}

/// How many bytes at the start of `buf` continue a number whose text so
/// far left it at `part` (updated), and whether it ends inside `buf`: the
/// bytes the parser would read on from a slice (in "01" or "4+1" the
/// number is "0" or "4", and what follows is the next token's: an error
/// there, as from a slice).
fn number_bytes(part: &mut NumPart, buf: &[u8]) -> (usize, bool) {
    for (i, &b) in buf.iter().enumerate() {
        match part.next(b) {
            Some(next) => *part = next,
            None => return (i, true),
        }
    }
    (buf.len(), false)
}

impl JsonDecoder {
    pub(crate) fn new(h: &crate::JsonHandle) -> Self {
        JsonDecoder {
            prefer_float: h.prefer_float,
            parse_quoted_keys: h.parse_quoted_keys,
            exact_integers: h.exact_integers && !h.prefer_float && !h.options.decode.prefer_float,
            pending: None,
            pending_quoted: false,
            pending_at: 0,
            in_key: false,
            num_buf: Vec::new(),
            aux: Vec::new(),
            skip_stack: Vec::new(),
            max_str_len: usize::MAX,
        }
    }

    /// Reads the number that starts at the reader's position.
    #[inline]
    fn read_num<'de, R: Read<'de>>(&mut self, r: &mut R, f32: bool) -> Result<Num> {
        let mut tail = [b' '; TAIL];
        let (buf, padded) = number_window(r, &mut tail)?;
        match number::parse(buf, false, f32) {
            Ok(Parsed::Done(n, len)) => {
                r.consume(len);
                Ok(n)
            }
            Err(e) if !padded => Err(e),
            // From a padded copy, an error as the general way words it.
            _ => self.read_num_slow(r, f32),
        }
    }

    /// The common case of an integer target: a plain JSON integer of at
    /// most 19 digits next (not consumed: the caller consumes `len` bytes
    /// when it takes the value). `None`: the general path decides.
    #[inline(always)]
    fn short_int<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Option<(bool, u64, usize)>> {
        if !self.number_next(r)? {
            return Ok(None);
        }
        let held = r.fill_buf()?.len();
        let rest = r.remaining_hint() == Some(held);
        let buf = r.fill_buf()?;
        // An integer that ends the input (a document that is one integer,
        // from a slice) has no byte after it: read to the end in place.
        Ok(if rest {
            number::plain_int_to_end(buf)
        } else {
            number::short_int(buf)
        })
    }

    /// Whether a number starts at the next token (whitespace skipped),
    /// none having been read ahead.
    #[inline(always)]
    fn number_next<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        if self.pending.is_some() {
            return Ok(false);
        }
        let b = next_token(r)?;
        Ok(b == b'-' || b.is_ascii_digit())
    }

    /// What `scan` makes of the number next (not consumed), scanned in
    /// the reader's buffer as it stands: the float readers' inline case.
    /// `None` when no number is next, when one was read ahead, or when
    /// `scan` leaves it to the general path ([`JsonDecoder::number_to_end`]
    /// takes a number that ends the input).
    #[inline(always)]
    fn number_in_buffer<'de, R: Read<'de>, T>(
        &mut self,
        r: &mut R,
        scan: impl FnOnce(&[u8]) -> Option<T>,
    ) -> Result<Option<T>> {
        if !self.number_next(r)? {
            return Ok(None);
        }
        Ok(scan(r.fill_buf()?))
    }

    /// What `scan` makes of the number next (not consumed) when the
    /// reader's buffer holds the rest of the input (a number as the whole
    /// document, from a slice): scanned in place, where the input's end
    /// ends it (`scan` is an `AT_END` scan). A padded copy of such a tail
    /// was scanned before: the scan's eight-byte loads over the bytes just
    /// copied waited for those stores (a third of a lone float's time).
    /// `None` when no number is next, when one was read ahead, when more
    /// input may follow, or when `scan` leaves it to the general path.
    #[inline(always)]
    fn number_to_end<'de, R: Read<'de>, T>(
        &mut self,
        r: &mut R,
        scan: impl FnOnce(&[u8]) -> Option<T>,
    ) -> Result<Option<T>> {
        if !self.number_next(r)? {
            return Ok(None);
        }
        let held = r.fill_buf()?.len();
        if r.remaining_hint() != Some(held) {
            return Ok(None);
        }
        Ok(scan(r.fill_buf()?))
    }

    /// [`DecodeFormat::read_str`] of `p`, the scalar read ahead (a key,
    /// with `parse_quoted_keys`): its text, copied from `aux`. Out of line,
    /// so that the common path of `read_str` saves no registers for it.
    #[cold]
    #[inline(never)]
    fn pending_str<'de, 's>(
        &mut self,
        p: Pending,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, str>> {
        self.pending = None;
        match p {
            // A quoted key read as text: its text, even where it reads as
            // a number or a bool (`"10"` into a `String` key is "10").
            _ if self.pending_quoted => {
                scratch.clear();
                scratch.extend_from_slice(&self.aux);
                Reference::Copied(&scratch[..]).into_str()
            }
            other => Err(pending_mismatch(
                &other,
                &self.aux,
                "text string",
                self.pending_at,
            )),
        }
    }

    /// [`DecodeFormat::read_bytes`] of `p`, the scalar read ahead: a quoted
    /// key's text (in `aux`) decoded from base64 into `scratch`.
    #[cold]
    #[inline(never)]
    fn pending_bytes<'de, 's>(
        &mut self,
        p: Pending,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        // Checks the kind (and clears `pending`); the text stays in `aux`.
        self.pending_str(p, scratch)?;
        scratch.clear();
        base64::decode(&self.aux, scratch)?;
        Ok(Reference::Copied(&scratch[..]))
    }

    /// [`DecodeFormat::read_bool`] past its inline case.
    #[inline(never)]
    fn read_bool_general<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        if let Some(p) = self.pending.take() {
            return match p {
                Pending::Bool(v) => Ok(v),
                other => Err(pending_mismatch(&other, &self.aux, "bool", self.pending_at)),
            };
        }
        let b = next_token(r)?;
        match b {
            b't' => expect_literal(r, b"true").map(|_| true),
            b'f' => expect_literal(r, b"false").map(|_| false),
            b'"' if self.in_key => {
                r.consume(1);
                let mut text = std::mem::take(&mut self.aux);
                let res =
                    read_string_body(r, &mut text, self.max_str_len).and_then(|s| match &*s {
                        b"true" => Ok(true),
                        b"false" => Ok(false),
                        text => Err(Error::type_mismatch(
                            "bool",
                            Found::Text {
                                head: text,
                                len: text.len(),
                            },
                        )),
                    });
                self.aux = text;
                res
            }
            _ => Err(mismatch(r, b, "bool")),
        }
    }

    /// [`DecodeFormat::read_i64`] past its inline case.
    #[inline(never)]
    fn read_i64_general<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<i64> {
        if let Some((neg, mag, len)) = self.short_int(r)?
            && let Some(v) = signed(neg, mag)
        {
            r.consume(len);
            return Ok(v);
        }
        self.number_in_range(r, "i64", false, Num::to_i64)
    }

    /// [`DecodeFormat::read_f64`] past its inline case: a short number
    /// that ends the input (the inline scan needs a byte after it) is read
    /// in place ([`JsonDecoder::number_to_end`]), as integers are; anything
    /// else the general way.
    #[inline(never)]
    fn read_f64_general<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<f64> {
        let short = |b: &[u8]| number::short_f64::<true>(b).and_then(Result::ok);
        if let Some((v, len)) = self.number_to_end(r, short)? {
            r.consume(len);
            return Ok(v);
        }
        Ok(self.number_for(r, "f64", false)?.to_f64())
    }

    /// [`DecodeFormat::read_f32`] past its inline case, as
    /// [`JsonDecoder::read_f64_general`]; range errors point at the number.
    #[inline(never)]
    fn read_f32_general<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<f32> {
        if let Some((v, len)) = self.number_to_end(r, number::short_f32::<true>)? {
            r.consume(len);
            return Ok(v);
        }
        self.number_in_range(r, "f32", true, |n| {
            let v = n.to_f32();
            if v.is_infinite() {
                return Err(Error::out_of_range("f32", format_args!("{:?}", n.to_f64())));
            }
            Ok(v)
        })
    }

    /// The one-step float arrays: `[`, `out.len()` numbers that `short`
    /// reads, with `,` between them, `]`; whitespace between tokens, all in
    /// the reader's buffer. `false`, with nothing consumed, otherwise.
    #[inline(always)]
    fn read_float_array<'de, R: Read<'de>, T>(
        &mut self,
        r: &mut R,
        out: &mut [T],
        short: impl Fn(&[u8]) -> Option<(T, usize)>,
    ) -> Result<bool> {
        if self.pending.is_some() || peek_token(r)? != Some(b'[') {
            return Ok(false);
        }
        let buf = r.fill_buf()?;
        let mut i = 1;
        for (k, slot) in out.iter_mut().enumerate() {
            i = skip_ws_in(buf, i);
            if k > 0 {
                if buf.get(i) != Some(&b',') {
                    return Ok(false);
                }
                i = skip_ws_in(buf, i + 1);
            }
            match buf.get(i..).and_then(&short) {
                Some((v, len)) => {
                    *slot = v;
                    i += len;
                }
                None => return Ok(false),
            }
        }
        i = skip_ws_in(buf, i);
        if buf.get(i) != Some(&b']') {
            return Ok(false);
        }
        r.consume(i + 1);
        Ok(true)
    }

    /// [`DecodeFormat::read_u64`] past its inline case.
    #[inline(never)]
    fn read_u64_general<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u64> {
        if let Some((neg, mag, len)) = self.short_int(r)?
            && (!neg || mag == 0)
        {
            r.consume(len);
            return Ok(mag);
        }
        self.number_in_range(r, "u64", false, Num::to_u64)
    }

    /// A number that reaches the end of the reader's buffer: gather it
    /// first (at most [`number::MAX_LEN`] bytes, checked before each
    /// copy, so a reader handing over a huge buffer cannot make it copy
    /// more). A buffer that holds the rest of the input (a slice's) holds
    /// the whole number: it is taken in place by the same rules, with no
    /// copy. Its errors point at its first byte, as from a slice.
    #[cold]
    fn read_num_slow<'de, R: Read<'de>>(&mut self, r: &mut R, f32: bool) -> Result<Num> {
        let start = r.offset();
        let too_long = || syntax("number too long").at(start);
        let parsed = |text: &[u8]| {
            number::parse_exact(text, f32).map_err(|e| match e.kind() {
                ErrorKind::OutOfRange { .. } => e.at(start),
                _ => syntax("invalid number").at(start),
            })
        };
        let mut part = NumPart::Start;
        let held = r.fill_buf()?.len();
        if r.remaining_hint() == Some(held) {
            let buf = r.fill_buf()?;
            let (len, _) = number_bytes(&mut part, buf);
            if len > number::MAX_LEN {
                return Err(too_long());
            }
            let n = parsed(&buf[..len])?;
            r.consume(len);
            return Ok(n);
        }
        self.num_buf.clear();
        loop {
            let buf = r.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            let (taken, ended) = number_bytes(&mut part, buf);
            if self.num_buf.len() + taken > number::MAX_LEN {
                return Err(too_long());
            }
            self.num_buf.extend_from_slice(&buf[..taken]);
            r.consume(taken);
            if ended {
                break;
            }
        }
        parsed(&self.num_buf)
    }

    /// A number for a target that not every number fits, converted by
    /// `convert`, whose range error points at the number's first byte (past
    /// any whitespace). A number that `peek_kind` read ahead is left to the
    /// shared driver, which points at where that read began.
    fn number_in_range<'de, R: Read<'de>, T>(
        &mut self,
        r: &mut R,
        expected: &'static str,
        f32: bool,
        convert: impl FnOnce(Num) -> Result<T>,
    ) -> Result<T> {
        let start = match self.pending {
            None => {
                next_token(r)?;
                Some(r.offset())
            }
            Some(_) => None,
        };
        let n = self.number_for(r, expected, f32)?;
        convert(n).map_err(|e| match start {
            Some(at) => e.at(at),
            None => e,
        })
    }

    /// Reads a number for a numeric target: a JSON number, or a quoted one
    /// (ugorji reads `"42"` as 42; map keys are always quoted).
    #[inline]
    fn number_for<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        expected: &'static str,
        f32: bool,
    ) -> Result<Num> {
        if let Some(p) = self.pending.take() {
            return match p {
                Pending::Num(n) => Ok(n),
                Pending::Str => {
                    let text = std::mem::take(&mut self.aux);
                    let res = quoted_number(&text, expected, f32);
                    self.aux = text;
                    res
                }
                other => Err(pending_mismatch(
                    &other,
                    &self.aux,
                    expected,
                    self.pending_at,
                )),
            };
        }
        let b = next_token(r)?;
        match b {
            b'-' | b'0'..=b'9' => self.read_num(r, f32),
            b'"' => {
                let at = r.offset();
                r.consume(1);
                let mut text = std::mem::take(&mut self.aux);
                let res = read_string_body(r, &mut text, self.max_str_len)
                    .and_then(|s| quoted_number(&s, expected, f32).map_err(|e| e.at(at)));
                self.aux = text;
                res
            }
            // ugorji writes NaN and infinities as null and reads null as the zero value.
            b'n' if expected.starts_with('f') => {
                expect_literal(r, b"null")?;
                Ok(Num::U(0))
            }
            _ => Err(mismatch(r, b, expected)),
        }
    }

    /// Reads a quoted key into `aux` and classifies it (with `parse_quoted_keys`).
    fn classify_quoted_key<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Kind> {
        self.pending_at = r.offset();
        r.consume(1);
        let mut text = std::mem::take(&mut self.aux);
        // Checked as text here, where its errors can be placed.
        let res = read_str_body(r, &mut text, self.max_str_len).map(|s| s.as_bytes().to_vec());
        self.aux = text;
        let bytes = res?;
        let pending = match &bytes[..] {
            b"true" => Pending::Bool(true),
            b"false" => Pending::Bool(false),
            _ => match number::parse_exact(&bytes, false) {
                Ok(n) => Pending::Num(n),
                Err(_) => Pending::Str,
            },
        };
        self.aux = bytes;
        self.pending_quoted = true;
        let kind = match &pending {
            Pending::Num(n) => n.kind(false, self.exact_integers),
            Pending::Bool(_) => Kind::Bool,
            Pending::Str => Kind::Str,
        };
        self.pending = Some(pending);
        Ok(kind)
    }

    /// [`DecodeFormat::peek_kind`] after its inline cases: anything pending,
    /// strings (a quoted key may be classified by its content), literals,
    /// numbers (read here and kept pending) and errors.
    #[inline(never)]
    fn peek_kind_other<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Kind> {
        if let Some(p) = &self.pending {
            return Ok(match p {
                Pending::Num(n) => n.kind(false, self.exact_integers),
                Pending::Bool(_) => Kind::Bool,
                Pending::Str => Kind::Str,
            });
        }
        let b = next_token(r)?;
        Ok(match b {
            b'"' if self.in_key && self.parse_quoted_keys => return self.classify_quoted_key(r),
            b'"' => Kind::Str,
            b'{' => Kind::Map,
            b'[' => Kind::Array,
            b't' | b'f' => Kind::Bool,
            b'n' => Kind::Nil,
            b'-' | b'0'..=b'9' => {
                let at = r.offset();
                let n = self.read_num(r, false)?;
                self.pending = Some(Pending::Num(n));
                self.pending_quoted = false;
                self.pending_at = at;
                n.kind(false, self.exact_integers)
            }
            _ => return Err(unexpected(b, "a value")),
        })
    }

    /// Skips one value without building it, iteratively (no recursion).
    fn skip_value<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        scratch: &mut Vec<u8>,
        depth: u32,
    ) -> Result<()> {
        if self.pending.take().is_some() {
            return Ok(());
        }
        let mut stack = std::mem::take(&mut self.skip_stack);
        // The whole value in the buffer, in one loop; else token by token.
        let res = match crate::skip::skip(r.fill_buf()?, depth, &mut stack) {
            Some(n) => {
                r.consume(n);
                Ok(())
            }
            None => {
                stack.clear();
                self.skip_loop(r, scratch, depth, &mut stack)
            }
        };
        self.skip_stack = stack;
        res
    }

    fn skip_loop<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        scratch: &mut Vec<u8>,
        depth: u32,
        stack: &mut Vec<bool>,
    ) -> Result<()> {
        'value: loop {
            // A value is expected here.
            let b = next_token(r)?;
            match b {
                b'{' | b'[' => {
                    if stack.len() as u32 >= depth {
                        return Err(Error::new(ErrorKind::DepthLimitExceeded { max: depth }));
                    }
                    r.consume(1);
                    let map = b == b'{';
                    stack.push(map);
                    let close = if map { b'}' } else { b']' };
                    let n = next_token(r)?;
                    if n == close {
                        r.consume(1);
                        stack.pop();
                    } else {
                        if map {
                            skip_key(r, scratch)?;
                        }
                        continue 'value;
                    }
                }
                b'"' => {
                    r.consume(1);
                    skip_str_body(r, scratch)?;
                }
                b't' => expect_literal(r, b"true")?,
                b'f' => expect_literal(r, b"false")?,
                b'n' => expect_literal(r, b"null")?,
                b'-' | b'0'..=b'9' => skip_number(r)?,
                _ => return Err(unexpected(b, "a value")),
            }
            // A value ended: continue or close the open containers.
            loop {
                let Some(&map) = stack.last() else {
                    return Ok(());
                };
                let b = next_token(r)?;
                let close = if map { b'}' } else { b']' };
                if b == b',' {
                    r.consume(1);
                    if map {
                        skip_key(r, scratch)?;
                    }
                    continue 'value;
                } else if b == close {
                    r.consume(1);
                    stack.pop();
                } else {
                    return Err(after_value(
                        r,
                        b,
                        if map { "',' or '}'" } else { "',' or ']'" },
                    ));
                }
            }
        }
    }
}

/// Skips a number, checking its grammar only ([`Grammar`]): its value is
/// not needed, so neither its range nor (from a reader) its length is
/// limited. An error points at the number's first byte.
fn skip_number<'de, R: Read<'de>>(r: &mut R) -> Result<()> {
    if let Some(n) = Grammar::whole(r.fill_buf()?) {
        r.consume(n);
        return Ok(());
    }
    let start = r.offset();
    let mut state = Grammar::Start;
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let (taken, next, ended) = state.scan(buf);
        r.consume(taken);
        state = next;
        if ended {
            break;
        }
    }
    if state.complete() {
        Ok(())
    } else {
        Err(syntax("invalid number").at(start))
    }
}

/// Skips an object key and its colon.
fn skip_key<'de, R: Read<'de>>(r: &mut R, scratch: &mut Vec<u8>) -> Result<()> {
    let b = next_token(r)?;
    if b != b'"' {
        return Err(unexpected(b, "a string key"));
    }
    r.consume(1);
    skip_str_body(r, scratch)?;
    let b = next_token(r)?;
    if b != b':' {
        return Err(unexpected(b, "':'"));
    }
    r.consume(1);
    Ok(())
}

impl DecodeFormat for JsonDecoder {
    const NAME: &'static str = "json";
    const EXT_STYLE: codec_core::ExtStyle = codec_core::ExtStyle::Transparent;
    const TEXT: bool = true;

    #[inline]
    fn limit_str_len(&mut self, max: usize) {
        self.max_str_len = max;
    }

    #[inline]
    fn prefer_float(&self) -> bool {
        self.prefer_float
    }

    /// A captured `Raw` item starts after whitespace and separators.
    fn capture_prefix_len(&self, captured: &[u8]) -> usize {
        captured
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b',' | b':'))
            .count()
    }

    /// A number read by `peek_kind` (or a quoted key classified there)
    /// starts where it was read from, before the reader's offset.
    #[inline]
    fn next_item_offset(&self, offset: u64) -> u64 {
        if self.pending.is_some() {
            self.pending_at
        } else {
            offset
        }
    }

    /// A number read ahead across a refill of the reader's buffer went
    /// through `read_num_slow`'s loop, which kept its bytes in `num_buf`.
    /// A quoted key's text is kept unescaped: not its bytes as written.
    #[inline]
    fn pending_bytes(&self) -> Option<&[u8]> {
        match self.pending {
            Some(Pending::Num(_)) if !self.pending_quoted => Some(&self.num_buf),
            _ => None,
        }
    }

    /// `null` is Nil, `true`/`false` Bool, strings Str, `[` Array, `{` Map;
    /// numbers are Uint when non-negative integers, Int when negative,
    /// Float64 with a fraction or exponent or beyond 64 bits (ugorji;
    /// `prefer_float` changes what a dynamic value makes of them, not
    /// their kind). A number is read here and kept for the next `read_*`.
    ///
    /// `{`, `[` and `null` (a derived struct asks before each map) inline,
    /// the rest out of line (`peek_kind_other`).
    #[inline(always)]
    fn peek_kind<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Kind> {
        if self.pending.is_none() {
            match peek_token(r)? {
                Some(b'{') => return Ok(Kind::Map),
                Some(b'[') => return Ok(Kind::Array),
                Some(b'n') => return Ok(Kind::Nil),
                _ => {}
            }
        }
        self.peek_kind_other(r)
    }

    /// Numbers, strings and the three literals go straight into the
    /// `Value` that `peek_kind` and the `read_*` it leads to would give:
    /// a number is read once instead of being kept pending between them.
    #[inline]
    fn read_scalar_value<'de, R: Read<'de>, T>(
        &mut self,
        r: &mut R,
        scratch: &mut Vec<u8>,
        opts: &codec_core::DecodeOptions,
        put: impl FnOnce(Value) -> T,
    ) -> Result<Option<T>> {
        self.read_scalar(
            r,
            scratch,
            opts,
            #[inline(always)]
            |s| match s {
                // In a branch of its own, a short string's `Text` is built
                // where `put` places it (after a shared `from`, through a copy).
                Scalar::Str(s) if s.len() <= Text::MAX_INLINE => put(Value::Str(Text::from(s))),
                Scalar::Str(s) => put(Value::Str(Text::from(s))),
                Scalar::Other(v) => put(v),
            },
        )
    }

    /// The whole item from the reader's buffer in one loop
    /// (the `document` module), where no option changes how a number reads.
    #[inline]
    fn read_document<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        opts: &codec_core::DecodeOptions,
        doc: &mut codec_core::DocumentBuilder<'_>,
    ) -> Result<bool> {
        if self.pending.is_some()
            || self.in_key
            || self.parse_quoted_keys
            || self.prefer_float
            || self.exact_integers
            || opts.prefer_float
        {
            return Ok(false);
        }
        codec_core::take_from_buffer(r, |buf| crate::document::read(buf, opts, doc))
    }

    /// As `read_scalar_value`, a string handed over as it is read.
    #[inline]
    fn read_scalar<'de, R: Read<'de>, T>(
        &mut self,
        r: &mut R,
        scratch: &mut Vec<u8>,
        opts: &codec_core::DecodeOptions,
        put: impl FnOnce(Scalar<'_>) -> T,
    ) -> Result<Option<T>> {
        if self.pending.is_some() {
            return Ok(None);
        }
        let b = next_token(r)?;
        // The item's first byte, past any whitespace: where its errors point.
        let before = r.offset();
        let v = match b {
            b'"' if self.in_key && self.parse_quoted_keys => return Ok(None),
            b'"' => {
                r.consume(1);
                // `max_str_len` is checked as the string is read, at its quote.
                let s = read_str_body(r, scratch, self.max_str_len).map_err(|e| e.at(before))?;
                return Ok(Some(put(Scalar::Str(&s))));
            }
            b'-' | b'0'..=b'9' => {
                if !self.prefer_float && !opts.prefer_float {
                    let buf = r.fill_buf()?;
                    if let Some(res) = short_value::<R>(buf, opts.signed_integer) {
                        let (v, len) = res?;
                        r.consume(len);
                        return Ok(Some(put(Scalar::Other(v))));
                    }
                }
                let n = self.read_num(r, false)?;
                match n.kind(self.prefer_float, self.exact_integers) {
                    Kind::Uint | Kind::Int if opts.prefer_float => Value::F64(n.to_f64()),
                    Kind::BigInt => Value::BigInt(n.to_i128().map_err(|e| e.at(before))?),
                    Kind::Int => Value::Int(n.to_i64()?),
                    Kind::Uint => {
                        let u = n.to_u64()?;
                        match i64::try_from(u) {
                            Ok(i) if opts.signed_integer => Value::Int(i),
                            _ => Value::Uint(u),
                        }
                    }
                    _ => Value::F64(n.to_f64()),
                }
            }
            b't' => {
                expect_literal(r, b"true")?;
                return Ok(Some(put(Scalar::Other(Value::Bool(true)))));
            }
            b'f' => {
                expect_literal(r, b"false")?;
                return Ok(Some(put(Scalar::Other(Value::Bool(false)))));
            }
            b'n' => {
                expect_literal(r, b"null")?;
                return Ok(Some(put(Scalar::Other(Value::Nil))));
            }
            _ => return Ok(None),
        };
        Ok(Some(put(Scalar::Other(v))))
    }

    /// `[`, the numbers with `,` between them and `]`, whitespace allowed
    /// between tokens, all in the reader's buffer, each number one that
    /// `read_f64` takes in its short path (most): the same values.
    #[inline]
    fn read_f64_array<'de, R: Read<'de>>(&mut self, r: &mut R, out: &mut [f64]) -> Result<bool> {
        self.read_float_array(r, out, |b| {
            number::short_f64::<false>(b).and_then(Result::ok)
        })
    }

    /// As `read_f64_array`, each number one that `read_f32` takes in its
    /// short path.
    #[inline]
    fn read_f32_array<'de, R: Read<'de>>(&mut self, r: &mut R, out: &mut [f32]) -> Result<bool> {
        self.read_float_array(r, out, number::short_f32::<false>)
    }

    #[inline(always)]
    fn try_nil<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        if self.pending.is_some() {
            return Ok(false);
        }
        match peek_token(r)? {
            Some(b'n') => {
                expect_literal(r, b"null")?;
                Ok(true)
            }
            Some(b'"') if self.in_key => quoted_null(r),
            _ => Ok(false),
        }
    }

    /// `true` / `false`; in key position also the quoted forms. The
    /// literal right at the reader's position is read inline, the rest
    /// out of line.
    #[inline(always)]
    fn read_bool<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        if self.pending.is_none() {
            let buf = r.fill_buf()?;
            if buf.first_chunk::<4>() == Some(b"true") {
                r.consume(4);
                return Ok(true);
            }
            if buf.first_chunk::<5>() == Some(b"false") {
                r.consume(5);
                return Ok(false);
            }
        }
        self.read_bool_general(r)
    }

    // `number::plain_int` inline, the rest out of line.
    #[inline(always)]
    fn read_i64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<i64> {
        if self.pending.is_none()
            && let Some((neg, mag, len)) = plain_int::<R>(r.fill_buf()?)
            && let Some(v) = signed(neg, mag)
        {
            r.consume(len);
            return Ok(v);
        }
        self.read_i64_general(r)
    }

    // `number::plain_int` inline, the rest out of line.
    #[inline(always)]
    fn read_u64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u64> {
        if self.pending.is_none()
            && let Some((false, v, len)) = plain_int::<R>(r.fill_buf()?)
        {
            r.consume(len);
            return Ok(v);
        }
        self.read_u64_general(r)
    }

    fn read_i128<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<i128> {
        self.number_in_range(r, "i128", false, Num::to_i128)
    }

    fn read_u128<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u128> {
        self.number_in_range(r, "u128", false, Num::to_u128)
    }

    #[inline]
    fn read_f64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<f64> {
        if let Some(res) = self.number_in_buffer(r, short_f64::<R>)? {
            let (v, len) = res?;
            r.consume(len);
            return Ok(v);
        }
        self.read_f64_general(r)
    }

    /// Rounded straight from the decimal text to `f32` (no double rounding);
    /// numbers beyond the `f32` range are an error. The common case
    /// (`number::short_f32`) inline, the rest out of line.
    #[inline]
    fn read_f32<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<f32> {
        if let Some((v, len)) = self.number_in_buffer(r, short_f32::<R>)? {
            r.consume(len);
            return Ok(v);
        }
        self.read_f32_general(r)
    }

    // `read_str_bytes` (keys matched against known names) is the default,
    // this checked read: it needs no second pass over ASCII, and invalid
    // UTF-8 is placed here at its first bad byte, which a caller that
    // finds no name to match and checks the key then could not do.
    #[inline]
    fn read_str<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, str>> {
        if let Some(p) = self.pending {
            return self.pending_str(p, scratch);
        }
        let b = next_token(r)?;
        if b != b'"' {
            return Err(mismatch(r, b, "text string"));
        }
        r.consume(1);
        read_str_body(r, scratch, self.max_str_len)
    }

    /// A base64 string (standard alphabet, padded), as ugorji writes bytes.
    /// (An array of small integers is read by the `u8` impls in codec-core.)
    fn read_bytes<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        if let Some(p) = self.pending {
            return self.pending_bytes(p, scratch);
        }
        let mut out = std::mem::take(&mut self.aux);
        out.clear();
        let res = match self.read_str(r, scratch) {
            Ok(s) => base64::decode(s.as_bytes(), &mut out),
            Err(e) => Err(e),
        };
        std::mem::swap(scratch, &mut out);
        self.aux = out;
        res?;
        Ok(Reference::Copied(&scratch[..]))
    }

    #[inline(always)]
    fn array_begin<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Seq> {
        if let Some(p) = &self.pending {
            return Err(pending_mismatch(p, &self.aux, "array", self.pending_at));
        }
        let b = next_token(r)?;
        if b != b'[' {
            return Err(mismatch(r, b, "array"));
        }
        r.consume(1);
        Ok(Seq::delimited())
    }

    #[inline(always)]
    fn array_next<'de, R: Read<'de>>(&mut self, r: &mut R, seq: &mut Seq) -> Result<bool> {
        if seq.len.is_some() {
            // Already ended (the shared driver may ask again after the end).
            return Ok(false);
        }
        let b = next_token(r)?;
        if seq.index == 0 {
            if b == b']' {
                r.consume(1);
                seq.len = Some(0);
                return Ok(false);
            }
        } else {
            match b {
                b',' => r.consume(1),
                b']' => {
                    r.consume(1);
                    seq.len = Some(seq.index);
                    return Ok(false);
                }
                _ => return Err(after_value(r, b, "',' or ']'")),
            }
        }
        seq.index += 1;
        Ok(true)
    }

    #[inline(always)]
    fn map_begin<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Seq> {
        if let Some(p) = &self.pending {
            return Err(pending_mismatch(p, &self.aux, "map", self.pending_at));
        }
        let b = next_token(r)?;
        if b != b'{' {
            return Err(mismatch(r, b, "map"));
        }
        r.consume(1);
        Ok(Seq::delimited())
    }

    #[inline(always)]
    fn map_next<'de, R: Read<'de>>(&mut self, r: &mut R, seq: &mut Seq) -> Result<bool> {
        if seq.len.is_some() {
            return Ok(false);
        }
        let mut b = next_token(r)?;
        if seq.index == 0 {
            if b == b'}' {
                r.consume(1);
                seq.len = Some(0);
                return Ok(false);
            }
        } else {
            match b {
                b',' => {
                    r.consume(1);
                    b = next_token(r)?;
                }
                b'}' => {
                    r.consume(1);
                    seq.len = Some(seq.index);
                    return Ok(false);
                }
                _ => return Err(after_value(r, b, "',' or '}'")),
            }
        }
        if b != b'"' {
            return Err(unexpected(b, "a string key"));
        }
        seq.index += 1;
        self.in_key = true;
        Ok(true)
    }

    /// Keys are text, except that `parse_quoted_keys` reads them as numbers
    /// and bools where they look like one.
    #[inline]
    fn value_keys_are_text(&self) -> bool {
        !self.parse_quoted_keys
    }

    /// `[]` right at the reader's position (whitespace first, or inside
    /// the brackets, goes the general way).
    #[inline(always)]
    fn try_empty_array<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        if self.pending.is_none() && r.fill_buf()?.first_chunk::<2>() == Some(b"[]") {
            r.consume(2);
            return Ok(true);
        }
        Ok(false)
    }

    /// The separator, a key without escapes and its `:` straight from the
    /// buffer: one scan for the closing quote (or, for the hinted key, a
    /// compare in its place), one `consume`. Anything else
    /// (the end of the map, an escape, the buffer ending, an error) goes
    /// through `map_next` and leaves the key to the general path.
    #[inline]
    fn map_next_key<'de, R: Read<'de>, K>(
        &mut self,
        r: &mut R,
        seq: &mut Seq,
        hint: Option<&KeyHint>,
        mut key: impl FnMut(&[u8], u64, bool) -> Result<K>,
    ) -> Result<KeyStep<K>> {
        if seq.len.is_none() && self.pending.is_none() {
            let at = r.offset();
            let buf = r.fill_buf()?;
            let mut i = skip_ws_in(buf, 0);
            match buf.get(i) {
                // The end, where it may be: consumed here, or a pretty
                // printer's indentation before it would be skipped twice.
                Some(b'}') => {
                    r.consume(i + 1);
                    seq.len = Some(seq.index);
                    return Ok(KeyStep::End);
                }
                Some(b',') if seq.index > 0 => i = skip_ws_in(buf, i + 1),
                // An error: `map_next` tells which.
                _ if seq.index > 0 => i = buf.len(),
                _ => {}
            }
            if buf.get(i) == Some(&b'"')
                && let Some(body) = buf.get(i + 1..)
            {
                // The hint, when plain (nothing JSON escapes, nothing that
                // must be escaped), is the key exactly when its bytes and a
                // closing quote come next; else find where the key ends.
                let hinted = hint.filter(|h| {
                    let n = h.as_bytes().len();
                    h.name().is_plain() && h.is_prefix_of(body) && body.get(n) == Some(&b'"')
                });
                let stop = match hinted {
                    Some(h) => Some(h.as_bytes().len()),
                    None => find_string_stop(body).filter(|&n| body[n] == b'"'),
                };
                if let Some(n) = stop {
                    let colon = skip_ws_in(buf, i + n + 2);
                    if buf.get(colon) == Some(&b':') {
                        match key(&body[..n], at + i as u64, hinted.is_some()) {
                            Ok(k) => {
                                r.consume(colon + 1);
                                seq.index += 1;
                                return Ok(KeyStep::Key(k));
                            }
                            // Invalid UTF-8, found by `key`, which can
                            // place it only at the key's start: the general
                            // path reads the key again (it is not consumed)
                            // and places it at its first bad byte.
                            Err(e) if matches!(e.kind(), ErrorKind::InvalidUtf8) => {}
                            Err(e) => return Err(e),
                        }
                    }
                }
            }
        }
        Ok(if self.map_next(r, seq)? {
            KeyStep::Next
        } else {
            KeyStep::End
        })
    }

    /// The separator, `"`, the hint's bytes, `"` and `:` (whitespace where
    /// JSON allows it), all in the buffer; any other byte, and a hint that
    /// is not plain (its JSON text would differ from its bytes), give false.
    #[inline(always)]
    fn map_next_is<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        seq: &mut Seq,
        hint: &KeyHint,
    ) -> Result<bool> {
        if seq.len.is_some() || self.pending.is_some() || !hint.name().is_plain() {
            return Ok(false);
        }
        let buf = r.fill_buf()?;
        let mut i = skip_ws_in(buf, 0);
        if seq.index > 0 {
            if buf.get(i) != Some(&b',') {
                return Ok(false);
            }
            i = skip_ws_in(buf, i + 1);
        }
        let n = hint.as_bytes().len();
        let hit = buf.get(i) == Some(&b'"')
            && buf.get(i + 1..).is_some_and(|body| hint.is_prefix_of(body))
            && buf.get(i + 1 + n) == Some(&b'"');
        if !hit {
            return Ok(false);
        }
        let colon = skip_ws_in(buf, i + n + 2);
        if buf.get(colon) != Some(&b':') {
            return Ok(false);
        }
        r.consume(colon + 1);
        seq.index += 1;
        Ok(true)
    }

    #[inline]
    fn map_value<'de, R: Read<'de>>(&mut self, r: &mut R, _seq: &mut Seq) -> Result<()> {
        self.in_key = false;
        let b = next_token(r)?;
        if b != b':' {
            return Err(unexpected(b, "':'"));
        }
        r.consume(1);
        Ok(())
    }

    /// An RFC 3339 string (any offset kept); `null` is Go's zero time, as ugorji reads it.
    fn read_time<'de, R: Read<'de>>(&mut self, r: &mut R, scratch: &mut Vec<u8>) -> Result<Time> {
        if self.try_nil(r)? {
            return Ok(Time::GO_ZERO);
        }
        let s = self.read_str(r, scratch)?;
        Time::parse_rfc3339(&s)
    }

    /// JSON has no extensions.
    fn read_ext<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        _scratch: &'s mut Vec<u8>,
    ) -> Result<(u64, Reference<'de, 's, [u8]>)> {
        Err(self.peek_kind(r)?.mismatch_unread("extension"))
    }

    fn skip<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        scratch: &mut Vec<u8>,
        depth: u32,
    ) -> Result<()> {
        let key = std::mem::replace(&mut self.in_key, false);
        let res = self.skip_value(r, scratch, depth);
        // A skipped key still leaves us before its colon.
        self.in_key = key;
        res
    }

    /// Skips the whitespace after a top-level value, which a number or a
    /// literal needs before the next one: any other byte glued to it is a
    /// syntax error at that byte.
    #[inline]
    fn end_of_value<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<()> {
        match r.fill_buf()?.first() {
            None => Ok(()),
            Some(&b) if is_ws(b) => skip_ws(r).map(drop),
            Some(&b) if is_delimiter(b) => Ok(()),
            Some(&b) => undelimited(r, b),
        }
    }

    fn reset(&mut self) {
        self.pending = None;
        self.in_key = false;
    }
}

/// A number read from a quoted string (ugorji accepts `"42"` for 42). Text
/// that is not a number is a type mismatch naming the target and quoting the text.
#[cold]
fn quoted_number(text: &[u8], expected: &'static str, f32: bool) -> Result<Num> {
    number::parse_exact(text, f32).map_err(|e| match e.kind() {
        ErrorKind::Syntax(_) => Error::type_mismatch(
            expected,
            Found::Text {
                head: text,
                len: text.len(),
            },
        ),
        _ => e,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A string skipped from a reader, however long, keeps no more than
    /// one of the reader's buffers of its text (8 KiB) in the scratch
    /// buffer, escapes or not, and its text is still checked to the end.
    #[test]
    fn a_skipped_string_keeps_one_buffer_of_its_text() {
        let long = |piece: &str, end: &[u8]| {
            let mut s = piece.repeat(1 << 20).into_bytes();
            s.extend_from_slice(end);
            s
        };
        for piece in [r"\n", r"\u00e9", r"é\t", "ab"] {
            let input = long(piece, b"\" ");
            let mut r = codec_core::IoReader::new(&input[..]);
            let mut scratch = Vec::new();
            skip_str_body(&mut r, &mut scratch).unwrap();
            assert_eq!(r.offset(), input.len() as u64 - 1, "{piece}");
            let kept = scratch.capacity();
            assert!(kept <= 16 * 1024, "{piece}: {kept}");
            // A bad byte at the very end is found, where it is.
            let input = long(piece, br#"\x""#);
            let mut r = codec_core::IoReader::new(&input[..]);
            let e = skip_str_body(&mut r, &mut Vec::new()).unwrap_err();
            assert_eq!(e.offset(), Some(input.len() as u64 - 3), "{piece}: {e}");
        }
    }

    /// Every byte value at every position of four hex digits, against
    /// the standard parser (which takes the same digits, both cases).
    #[test]
    fn hex4_is_exact() {
        for pos in 0..4 {
            for b in 0..=255u8 {
                for base in [*b"0000", *b"9fA1", *b"FFff"] {
                    let mut h = base;
                    h[pos] = b;
                    let want = std::str::from_utf8(&h)
                        .ok()
                        .filter(|s| s.bytes().all(|c| c.is_ascii_hexdigit()))
                        .and_then(|s| u16::from_str_radix(s, 16).ok());
                    assert_eq!(hex4(h), want, "{h:?}");
                }
            }
        }
    }

    /// Every scalar value, against the standard library's encoder.
    #[test]
    fn push_utf8_is_exact() {
        let mut out = Vec::new();
        let mut b = [0u8; 4];
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            out.clear();
            push_utf8(&mut out, c as u32);
            assert_eq!(out, c.encode_utf8(&mut b).as_bytes(), "{c:?}");
        }
    }
}
