//! [`CborDecoder`]: the decoding half of the CBOR driver.

use crate::handle::CborHandle;
use codec_core::{
    DecodeFormat, Error, ErrorKind, KeyHint, KeyStep, Kind, Read, Reference, Result, Seq, Time,
    Value, be_uint, float_array_in_buffer, hint_in_buffer, key_in_buffer, scalar,
};

/// The decoding driver of [`CborHandle`].
#[derive(Debug, Clone)]
pub struct CborDecoder {
    skip_tags: bool,
    reject_duplicates: bool,
    time_tags: bool,
    /// `max_str_len`: a string declaring more, or whose chunks add up to
    /// more, is refused before a reader copies it.
    max_str_len: usize,
}

/// The self-described CBOR tag, skipped wherever it appears.
const SELF_DESCRIBED: u64 = 55799;

/// Longest bignum content looked at when classifying a tag 2/3 item.
const BIGNUM_PEEK: usize = 64;

impl CborDecoder {
    /// A driver with the decoding settings of `h`.
    pub fn new(h: &CborHandle) -> Self {
        CborDecoder {
            skip_tags: h.skip_unexpected_tags,
            reject_duplicates: h.reject_duplicate_keys,
            time_tags: h.decode_time_tags,
            max_str_len: usize::MAX,
        }
    }
}

/// Which tags a typed read handles itself (all others are unexpected).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    Nothing,
    /// Bignums 2 and 3.
    Integer,
    /// Date/time 0 and 1.
    Time,
}

impl Expect {
    fn wants(self, tag: u64) -> bool {
        match self {
            Expect::Nothing => false,
            Expect::Integer => tag == 2 || tag == 3,
            Expect::Time => tag <= 1,
        }
    }
}

#[cold]
fn reserved(ib: u8) -> Error {
    Error::syntax(format!(
        "reserved additional information {} in initial byte 0x{ib:02x}",
        ib & 0x1f
    ))
}

#[cold]
fn misplaced_indefinite(ib: u8) -> Error {
    Error::syntax(format!(
        "indefinite length (initial byte 0x{ib:02x}) is not allowed here"
    ))
}

/// What an initial byte starts, for error messages.
fn describe(ib: u8) -> &'static str {
    match ib >> 5 {
        0 => "unsigned integer",
        1 => "negative integer",
        2 => "byte string",
        3 => "text string",
        4 => "array",
        5 => "map",
        6 => "tag",
        _ => match ib {
            0xf4 | 0xf5 => "bool",
            0xf6 => "null",
            0xf7 => "undefined",
            0xf9 => "float16",
            0xfa => "float32",
            0xfb => "float64",
            _ => "simple value",
        },
    }
}

/// The kind of item an initial byte starts (tags not looked through).
fn kind_of(ib: u8) -> Kind {
    match ib >> 5 {
        0 => Kind::Uint,
        1 => Kind::Int,
        2 => Kind::Bytes,
        3 => Kind::Str,
        4 => Kind::Array,
        5 => Kind::Map,
        6 => Kind::Tag,
        _ => match ib {
            0xf4 | 0xf5 => Kind::Bool,
            0xf6 => Kind::Nil,
            0xf9 | 0xfa => Kind::Float32,
            0xfb => Kind::Float64,
            _ => Kind::Simple,
        },
    }
}

/// The error for an item that the target cannot take: a syntax error when
/// the byte is not well-formed where it stands, else a type mismatch. The
/// item (initial byte `ib`) is still unread, so the shared decoder quotes
/// its value in the message (`found integer 42`).
#[cold]
fn unexpected(ib: u8, expected: &'static str) -> Error {
    match ib {
        0xff => Error::syntax("unexpected break (0xff) outside an indefinite-length item"),
        0xfc..=0xfe => reserved(ib),
        _ if ib & 0x1f >= 28 && ib & 0x1f <= 30 => reserved(ib),
        _ => kind_of(ib).mismatch_unread(expected),
    }
}

#[cold]
fn unexpected_tag(tag: u64, expected: &'static str) -> Error {
    Error::type_mismatch(
        expected,
        format!("tag {tag} (enable skip_unexpected_tags to skip unknown tags)"),
    )
}

/// Reads the argument of a head whose initial byte `ib` was just consumed.
/// Additional information 31 (indefinite) is refused here, and 28..=30
/// (reserved), at `ib` itself.
#[inline]
fn read_arg<'de, R: Read<'de>>(r: &mut R, ib: u8) -> Result<u64> {
    match ib & 0x1f {
        v @ 0..=23 => Ok(v as u64),
        24 => Ok(r.read_u8()? as u64),
        25 => Ok(u16::from_be_bytes(r.read_array()?) as u64),
        26 => Ok(u32::from_be_bytes(r.read_array()?) as u64),
        27 => Ok(u64::from_be_bytes(r.read_array()?)),
        31 => Err(misplaced_indefinite(ib).at(r.offset().saturating_sub(1))),
        _ => Err(reserved(ib).at(r.offset().saturating_sub(1))),
    }
}

/// The head of an integer (major type 0 or 1) at the start of `buf`, when
/// `buf` holds it whole: its major type, argument and size in bytes. The
/// typed integer reads take it without a call; anything else (a tag, a
/// float, a bignum, additional information 28 to 31, a head cut by the
/// buffer's end) is `None`, left to [`CborDecoder::read_number`] and its
/// errors.
#[inline(always)]
fn int_head_in_buffer(buf: &[u8]) -> Option<(u8, u64, usize)> {
    let &ib = buf.first()?;
    let major = ib >> 5;
    if major > 1 {
        return None;
    }
    let rest = &buf[1..];
    Some(match ib & 0x1f {
        v @ 0..=23 => (major, u64::from(v), 1),
        24 => (major, u64::from(*rest.first()?), 2),
        25 => (
            major,
            u64::from(u16::from_be_bytes(*rest.first_chunk()?)),
            3,
        ),
        26 => (
            major,
            u64::from(u32::from_be_bytes(*rest.first_chunk()?)),
            5,
        ),
        27 => (major, u64::from_be_bytes(*rest.first_chunk()?), 9),
        _ => return None,
    })
}

/// A length argument as `usize`.
#[inline]
fn read_len<'de, R: Read<'de>>(r: &mut R, ib: u8) -> Result<usize> {
    let n = read_arg(r, ib)?;
    usize::try_from(n).map_err(|_| Error::eof())
}

/// A head looked at without consuming it.
#[derive(Clone, Copy)]
struct Head {
    ib: u8,
    /// The argument (`None` for additional information 31).
    arg: Option<u64>,
    /// Bytes the head takes.
    size: usize,
}

/// Parses the head at the start of `buf`.
fn parse_head(buf: &[u8]) -> Result<Head> {
    let ib = *buf.first().ok_or_else(Error::eof)?;
    let n = match ib & 0x1f {
        0..=23 | 31 => 0,
        24 => 1,
        25 => 2,
        26 => 4,
        27 => 8,
        _ => return Err(reserved(ib)),
    };
    let bytes = buf.get(1..1 + n).ok_or_else(Error::eof)?;
    let arg = match ib & 0x1f {
        31 => None,
        v @ 0..=23 => Some(v as u64),
        _ => Some(bytes.iter().fold(0u64, |acc, &b| (acc << 8) | b as u64)),
    };
    Ok(Head {
        ib,
        arg,
        size: 1 + n,
    })
}

#[inline]
fn peek_byte<'de, R: Read<'de>>(r: &mut R) -> Result<u8> {
    r.peek()?.ok_or_else(Error::eof)
}

fn peek_head<'de, R: Read<'de>>(r: &mut R) -> Result<Head> {
    parse_head(r.peek_bytes(9)?)
}

/// Whether a tag 2/3 item at the reader (tag head not consumed, `tag_size`
/// bytes long) has a magnitude that fits `i128` as the tag requires.
/// Long or indefinite contents are not looked at (they stay tags in `Value`).
fn bignum_fits_i128<'de, R: Read<'de>>(r: &mut R, tag_size: usize) -> Result<bool> {
    let buf = r.peek_bytes(tag_size + 9 + BIGNUM_PEEK)?;
    let inner = parse_head(buf.get(tag_size..).unwrap_or_default())?;
    let len = match (inner.ib >> 5, inner.arg) {
        (2, Some(len)) if len <= BIGNUM_PEEK as u64 => len as usize,
        _ => return Ok(false),
    };
    let start = tag_size + inner.size;
    let digits = buf.get(start..start + len).ok_or_else(Error::eof)?;
    Ok(magnitude(digits).is_some_and(|m| m <= i128::MAX as u128))
}

/// How many bytes of tag 55799 heads a peek looks past before it consumes
/// them: sixteen shortest heads. A `Raw` captured after the peek holds the
/// tags looked past, not those consumed.
const LOOK_PAST: usize = 48;

/// The kind of the untagged item whose initial byte `ib` is `at` bytes
/// past the reader's position.
#[inline]
fn untagged_kind<'de, R: Read<'de>>(r: &mut R, ib: u8, at: usize) -> Result<Kind> {
    match ib {
        // Below i64::MIN when the top bit of the argument is set.
        0x3b => {
            let ahead = r.peek_bytes(at + 2)?;
            match ahead.get(at + 1) {
                Some(b) if b & 0x80 != 0 => Ok(Kind::BigInt),
                Some(_) => Ok(Kind::Int),
                None => {
                    // The input ends after the bytes looked at.
                    let looked = ahead.len() as u64;
                    Err(Error::eof().at(r.offset() + looked))
                }
            }
        }
        0xfc..=0xff => Err(unexpected(ib, "a data item")),
        _ => Ok(kind_of(ib)),
    }
}

/// [`DecodeFormat::try_nil`] at a tag head of 16 bits or more: a nil (or undefined) after tags
/// 55799 is read with them; anything else leaves the tags unread (up to
/// [`LOOK_PAST`] bytes of them, as [`DecodeFormat::peek_kind`] does).
#[cold]
#[inline(never)]
fn nil_past_tags<'de, R: Read<'de>>(r: &mut R) -> Result<bool> {
    let mut k = 0;
    loop {
        let buf = r.peek_bytes(k + 9)?;
        match buf.get(k) {
            Some(0xf6 | 0xf7) => {
                r.skip(k + 1)?;
                return Ok(true);
            }
            Some(ib) if ib >> 5 == 6 => match parse_head(&buf[k..]) {
                Ok(head) if head.arg == Some(SELF_DESCRIBED) => {
                    k += head.size;
                    if k > LOOK_PAST {
                        r.skip(k)?;
                        k = 0;
                    }
                }
                _ => return Ok(false),
            },
            _ => return Ok(false),
        }
    }
}

/// The big-endian magnitude of `digits`, if it fits `u128`.
fn magnitude(digits: &[u8]) -> Option<u128> {
    let mut acc: u128 = 0;
    for &b in digits {
        if acc >> 120 != 0 {
            return None;
        }
        acc = (acc << 8) | b as u128;
    }
    Some(acc)
}

/// Half-precision bits to `f32`, NaN payloads kept bit for bit.
#[inline]
pub(crate) fn f16_to_f32(h: u16) -> f32 {
    if h & 0x7c00 == 0x7c00 && h & 0x03ff != 0 {
        let sign = ((h & 0x8000) as u32) << 16;
        return f32::from_bits(sign | 0x7f80_0000 | (((h & 0x03ff) as u32) << 13));
    }
    half::f16::from_bits(h).to_f32()
}

/// A number read for a typed target.
enum Number {
    Uint(u64),
    /// `-1 - n`.
    Neg(u64),
    Big(i128),
    /// Tag 2 beyond `i128`.
    BigU(u128),
    F32(f32),
    F64(f64),
}

impl Number {
    fn describe(&self) -> String {
        match *self {
            Number::Uint(v) => v.to_string(),
            Number::Neg(n) => (-1 - n as i128).to_string(),
            Number::Big(v) => v.to_string(),
            Number::BigU(v) => v.to_string(),
            Number::F32(v) => format!("{v:?}"),
            Number::F64(v) => format!("{v:?}"),
        }
    }

    /// Integral value, if any (floats only without a fraction).
    fn as_i128(&self) -> Option<i128> {
        match *self {
            Number::Uint(v) => Some(v as i128),
            Number::Neg(n) => Some(-1 - n as i128),
            Number::Big(v) => Some(v),
            Number::BigU(_) => None,
            Number::F32(v) => float_to_i128(v as f64),
            Number::F64(v) => float_to_i128(v),
        }
    }

    fn as_u128(&self) -> Option<u128> {
        match *self {
            Number::BigU(v) => Some(v),
            _ => self.as_i128().and_then(|v| u128::try_from(v).ok()),
        }
    }
}

fn float_to_i128(v: f64) -> Option<i128> {
    // 2^127 is exact as f64; every float below it in magnitude converts exactly.
    const LIMIT: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    (v.is_finite() && v.fract() == 0.0 && v.abs() < LIMIT).then_some(v as i128)
}

impl CborDecoder {
    /// Looks past tags before an item for a typed target: 55799 always, and
    /// (with `skip_unexpected_tags`) every tag `expect` does not handle.
    /// Returns the initial byte of the item, not consumed; a tag it returns
    /// is one `expect` handles.
    ///
    /// Every typed read starts here, so the untagged case (a peek and a
    /// compare) is inlined and the tag loop is not: called whole, this
    /// was a tenth of the instructions of decoding `mk48`.
    #[inline(always)]
    fn typed<'de, R: Read<'de>>(
        &self,
        r: &mut R,
        expect: Expect,
        expected: &'static str,
    ) -> Result<u8> {
        match r.peek()? {
            Some(ib) if ib >> 5 != 6 => Ok(ib),
            _ => self.typed_tagged(r, expect, expected),
        }
    }

    /// [`CborDecoder::typed`] at a tag (or at the end of the input).
    #[cold]
    #[inline(never)]
    fn typed_tagged<'de, R: Read<'de>>(
        &self,
        r: &mut R,
        expect: Expect,
        expected: &'static str,
    ) -> Result<u8> {
        loop {
            let ib = peek_byte(r)?;
            if ib >> 5 != 6 {
                return Ok(ib);
            }
            let head = peek_head(r)?;
            let tag = head.arg.ok_or_else(|| misplaced_indefinite(ib))?;
            if expect.wants(tag) {
                return Ok(ib);
            }
            if tag == SELF_DESCRIBED || self.skip_tags {
                r.skip(head.size)?;
                continue;
            }
            return Err(unexpected_tag(tag, expected));
        }
    }

    /// [`DecodeFormat::peek_kind`] at a tag: looks past tag 55799 without
    /// consuming it (up to [`LOOK_PAST`] bytes of such tags), consumes a
    /// tag `skip_unexpected_tags` drops with those before it, and tells the
    /// kind of what follows, or of the tag.
    #[cold]
    #[inline(never)]
    fn peek_tagged_kind<'de, R: Read<'de>>(&self, r: &mut R) -> Result<Kind> {
        // Bytes of 55799 tags looked past and left unread.
        let mut k = 0;
        loop {
            let here = r.offset() + k as u64;
            let buf = r.peek_bytes(k + 9)?;
            let ib = *buf.get(k).ok_or_else(|| Error::eof().at(here))?;
            if ib >> 5 != 6 {
                return untagged_kind(r, ib, k).map_err(|e| e.at(here));
            }
            let head = parse_head(&buf[k..]).map_err(|e| e.at(here))?;
            let tag = head.arg.ok_or_else(|| misplaced_indefinite(ib).at(here))?;
            match tag {
                SELF_DESCRIBED if k < LOOK_PAST => k += head.size,
                0 | 1 if self.time_tags => return Ok(Kind::Time),
                2 | 3 => {
                    let fits = bignum_fits_i128(r, k + head.size).map_err(|e| e.at(here))?;
                    return Ok(if fits { Kind::BigInt } else { Kind::Tag });
                }
                t if t == SELF_DESCRIBED || (t > 3 && self.skip_tags) => {
                    r.skip(k + head.size)?;
                    k = 0;
                }
                _ => return Ok(Kind::Tag),
            }
        }
    }

    /// Reads a number (integer, bignum or float) for a typed target.
    fn read_number<'de, R: Read<'de>>(&self, r: &mut R, expected: &'static str) -> Result<Number> {
        let ib = self.typed(r, Expect::Integer, expected)?;
        match ib >> 5 {
            0 => {
                r.read_u8()?;
                Ok(Number::Uint(read_arg(r, ib)?))
            }
            1 => {
                r.read_u8()?;
                Ok(Number::Neg(read_arg(r, ib)?))
            }
            6 => {
                r.read_u8()?;
                let tag = read_arg(r, ib)?;
                let m = self.read_bignum(r)?;
                if tag == 2 {
                    Ok(match i128::try_from(m) {
                        Ok(v) => Number::Big(v),
                        Err(_) => Number::BigU(m),
                    })
                } else if m <= i128::MAX as u128 {
                    Ok(Number::Big(-1 - m as i128))
                } else {
                    Err(Error::out_of_range(expected, format!("-1 - {m}")))
                }
            }
            _ => match ib {
                0xf9 => {
                    r.read_u8()?;
                    Ok(Number::F32(f16_to_f32(u16::from_be_bytes(r.read_array()?))))
                }
                0xfa => {
                    r.read_u8()?;
                    Ok(Number::F32(f32::from_be_bytes(r.read_array()?)))
                }
                0xfb => {
                    r.read_u8()?;
                    Ok(Number::F64(f64::from_be_bytes(r.read_array()?)))
                }
                _ => Err(unexpected(ib, expected)),
            },
        }
    }

    /// Reads the byte string of a bignum (definite or chunked) as a `u128`
    /// magnitude; leading zero bytes are allowed.
    fn read_bignum<'de, R: Read<'de>>(&self, r: &mut R) -> Result<u128> {
        let ib = r.read_u8()?;
        if ib >> 5 != 2 {
            return Err(Error::syntax(format!(
                "bignum content must be a byte string, found {}",
                describe(ib)
            )));
        }
        let mut acc: u128 = 0;
        let mut push = |b: u8| -> Result<()> {
            if acc >> 120 != 0 {
                return Err(Error::out_of_range("u128", "a bignum wider than 128 bits"));
            }
            acc = (acc << 8) | b as u128;
            Ok(())
        };
        if ib == 0x5f {
            loop {
                let cb = r.read_u8()?;
                if cb == 0xff {
                    break;
                }
                if cb >> 5 != 2 || cb & 0x1f == 31 {
                    return Err(bad_chunk(cb, 2));
                }
                for _ in 0..read_arg(r, cb)? {
                    push(r.read_u8()?)?;
                }
            }
        } else {
            for _ in 0..read_arg(r, ib)? {
                push(r.read_u8()?)?;
            }
        }
        Ok(acc)
    }

    /// Reads a definite or chunked string of major type `major` (2 or 3) whose
    /// initial byte `ib` is next. Text chunks are checked one by one.
    fn read_string<'de, 's, R: Read<'de>>(
        &self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
        ib: u8,
    ) -> Result<Reference<'de, 's, [u8]>> {
        let at = r.offset();
        r.read_u8()?;
        let major = ib >> 5;
        let max = self.max_str_len;
        if ib & 0x1f != 31 {
            let len = read_len(r, ib)?;
            if len > max {
                return Err(Error::str_too_long(len, max).at(at));
            }
            return r.read_slice(len, scratch);
        }
        scratch.clear();
        loop {
            let cb = r.read_u8()?;
            if cb == 0xff {
                break;
            }
            if cb >> 5 != major || cb & 0x1f == 31 {
                return Err(bad_chunk(cb, major));
            }
            let len = read_len(r, cb)?;
            let start = scratch.len();
            if len > max - start {
                return Err(Error::str_too_long(start.saturating_add(len), max).at(at));
            }
            r.read_into(len, scratch)?;
            if major == 3 && std::str::from_utf8(scratch.get(start..).unwrap_or_default()).is_err()
            {
                return Err(Error::new(ErrorKind::InvalidUtf8));
            }
        }
        Ok(Reference::Copied(&scratch[..]))
    }

    /// Reads the content of a time tag (`tag` already consumed).
    fn read_time_content<'de, R: Read<'de>>(
        &self,
        r: &mut R,
        scratch: &mut Vec<u8>,
        tag: u64,
    ) -> Result<Time> {
        let t = if tag == 0 {
            let ib = self.typed(r, Expect::Nothing, "RFC 3339 text")?;
            if ib >> 5 != 3 {
                return Err(unexpected(ib, "RFC 3339 text in tag 0"));
            }
            let text = self.read_string(r, scratch, ib)?.into_str()?;
            Time::parse_rfc3339(&text)?
        } else {
            match self.read_number(r, "epoch seconds in tag 1")? {
                Number::Uint(v) => {
                    let secs = i64::try_from(v).map_err(|_| Error::out_of_range("Time", v))?;
                    Time::from_unix(secs, 0).ok_or_else(|| Error::out_of_range("Time", v))?
                }
                Number::Neg(n) => {
                    let secs = i64::try_from(n)
                        .map(|n| -1 - n)
                        .map_err(|_| Error::out_of_range("Time", -1 - n as i128))?;
                    Time::from_unix(secs, 0).ok_or_else(|| Error::out_of_range("Time", secs))?
                }
                Number::F32(f) => float_time(f as f64)?,
                Number::F64(f) => float_time(f)?,
                n => return Err(Error::out_of_range("Time", n.describe())),
            }
        };
        // As ugorji: converted to UTC and rounded to microseconds.
        Ok(t.to_utc().round_to(1000))
    }
}

/// Seconds as a float into a time, as Go's `time.Unix(int(s), int(frac*1e9))`.
fn float_time(f: f64) -> Result<Time> {
    // Beyond ±2^63 seconds does not fit; NaN and infinities never do.
    if !(f.is_finite() && f.abs() < 9.223_372_036_854_775e18) {
        return Err(Error::out_of_range("Time", f));
    }
    let secs = f.trunc();
    let nanos = ((f - secs) * 1e9) as i128;
    Time::from_unix_nanos(secs as i128 * 1_000_000_000 + nanos)
        .ok_or_else(|| Error::out_of_range("Time", f))
}

#[cold]
fn bad_chunk(cb: u8, major: u8) -> Error {
    let what = if major == 3 { "text" } else { "byte" };
    Error::syntax(format!(
        "a chunk of an indefinite-length {what} string must be a definite-length {what} string, found initial byte 0x{cb:02x}"
    ))
}

/// Skips one item (initial byte not yet read). `depth` is how many more
/// levels of nesting are allowed.
fn skip_item<'de, R: Read<'de>>(r: &mut R, depth: u32) -> Result<()> {
    let ib = r.read_u8()?;
    // The budget for what an array, map or tag holds; past it, the error
    // points at this item's initial byte.
    let inner = |r: &R| {
        depth
            .checked_sub(1)
            .ok_or_else(|| Error::new(ErrorKind::DepthLimitExceeded { max: 0 }).at(r.offset() - 1))
    };
    match ib >> 5 {
        0 | 1 => read_arg(r, ib).map(drop),
        2 | 3 => {
            if ib & 0x1f != 31 {
                let n = read_len(r, ib)?;
                return r.skip(n);
            }
            loop {
                let cb = r.read_u8()?;
                if cb == 0xff {
                    return Ok(());
                }
                if cb >> 5 != ib >> 5 || cb & 0x1f == 31 {
                    return Err(bad_chunk(cb, ib >> 5));
                }
                let n = read_len(r, cb)?;
                r.skip(n)?;
            }
        }
        4 | 5 => {
            let inner = inner(r)?;
            let per_entry = if ib >> 5 == 5 { 2 } else { 1 };
            if ib & 0x1f == 31 {
                loop {
                    if peek_byte(r)? == 0xff {
                        r.read_u8()?;
                        return Ok(());
                    }
                    for _ in 0..per_entry {
                        skip_item(r, inner)?;
                    }
                }
            }
            let n = read_arg(r, ib)?;
            for _ in 0..n {
                for _ in 0..per_entry {
                    skip_item(r, inner)?;
                }
            }
            Ok(())
        }
        6 => {
            let inner = inner(r)?;
            read_arg(r, ib)?;
            skip_item(r, inner)
        }
        _ => match ib & 0x1f {
            0..=23 => Ok(()),
            24 => match r.read_u8()? {
                n if n < 32 => Err(bad_simple(n).at(r.offset() - 2)),
                _ => Ok(()),
            },
            25 => r.skip(2),
            26 => r.skip(4),
            27 => r.skip(8),
            _ => Err(unexpected(ib, "a data item")),
        },
    }
}

#[cold]
fn bad_simple(n: u8) -> Error {
    Error::syntax(format!(
        "simple({n}) in the two-byte form is not well-formed (values below 32 use one byte)"
    ))
}

impl DecodeFormat for CborDecoder {
    const NAME: &'static str = "cbor";
    const EXT_STYLE: codec_core::ExtStyle = codec_core::ExtStyle::Tagged;

    fn side(&self) -> Option<Self> {
        Some(self.clone())
    }

    #[inline]
    fn limit_str_len(&mut self, max: usize) {
        self.max_str_len = max;
    }

    /// Maps, arrays, text strings and unsigned integers (a struct, an
    /// enum's name or index) by the major type, inline; anything else
    /// (tags included) as [`peek_kind`](DecodeFormat::peek_kind) says.
    #[inline]
    fn peek_head_kind<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Kind> {
        match r.peek()?.map(|ib| ib >> 5) {
            Some(5) => Ok(Kind::Map),
            Some(4) => Ok(Kind::Array),
            Some(3) => Ok(Kind::Str),
            Some(0) => Ok(Kind::Uint),
            _ => self.peek_kind(r),
        }
    }

    /// Tag 55799 (self-described CBOR) before an item is looked past, not
    /// consumed: the item, as [`Decoder::next_item_offset`] places it and
    /// a `Raw` captures it after this peek, begins at its first tag, and
    /// every typed read skips the tag. A tag that `skip_unexpected_tags`
    /// drops is consumed, with the tags before it.
    ///
    /// [`Decoder::next_item_offset`]: codec_core::Decoder::next_item_offset
    fn peek_kind<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Kind> {
        match peek_byte(r)? {
            ib if ib >> 5 == 6 => self.peek_tagged_kind(r),
            ib => untagged_kind(r, ib, 0),
        }
    }

    /// Every untagged scalar whose bytes are all buffered goes straight
    /// into its `Value`: integers within the 64-bit ranges, floats of each
    /// width, null, bools, and definite byte and text strings. Anything
    /// else, including text that is not UTF-8 or a string longer than
    /// `max_str_len`, takes the generic path, which gives the error.
    #[inline]
    fn read_scalar_value<'de, R: Read<'de>, T>(
        &mut self,
        r: &mut R,
        _scratch: &mut Vec<u8>,
        opts: &codec_core::DecodeOptions,
        put: impl FnOnce(Value) -> T,
    ) -> Result<Option<T>> {
        let buf = r.fill_buf()?;
        let Some(&ib) = buf.first() else {
            return Ok(None);
        };
        // The head's argument and size, for additional information 0..=27.
        let (arg, head) = match ib & 0x1f {
            ai @ 0..=23 => (u64::from(ai), 1),
            ai @ 24..=27 => {
                let n = 1 << (ai - 24);
                match be_uint(buf, 1, n) {
                    Some(arg) => (arg, 1 + n),
                    None => return Ok(None),
                }
            }
            _ => return Ok(None),
        };
        let v = match ib >> 5 {
            0 => scalar::uint(arg, opts),
            // `-1 - arg`; below i64::MIN it is a `BigInt`, for the generic path.
            1 => match i64::try_from(arg) {
                Ok(n) => scalar::int(-1 - n, opts),
                Err(_) => return Ok(None),
            },
            2 | 3 => {
                let Ok(len) = usize::try_from(arg) else {
                    return Ok(None);
                };
                let Some((v, end)) = scalar::string_in(buf, head, len, ib >> 5 == 3, opts) else {
                    return Ok(None);
                };
                r.consume(end);
                return Ok(Some(put(v)));
            }
            7 => match ib {
                0xf4 => Value::Bool(false),
                0xf5 => Value::Bool(true),
                0xf6 => Value::Nil,
                0xf9 => Value::F32(f16_to_f32(arg as u16)),
                0xfa => Value::F32(f32::from_bits(arg as u32)),
                0xfb => Value::F64(f64::from_bits(arg)),
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        r.consume(head);
        Ok(Some(put(v)))
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
        if opts.prefer_float {
            return Ok(false);
        }
        codec_core::take_from_buffer(r, |buf| crate::document::read(buf, opts, doc))
    }

    /// `80`, the empty definite array (a tag in front, `9f ff` and longer
    /// length encodings go the general way).
    #[inline(always)]
    fn try_empty_array<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        if r.peek()? == Some(crate::encode::ARRAY) {
            r.read_u8()?;
            return Ok(true);
        }
        Ok(false)
    }

    /// Null (`f6`) and, as ugorji, undefined (`f7`) are nil for typed
    /// targets (`Option`). Into `Value`, undefined stays `Value::Simple(23)`.
    #[inline]
    fn try_nil<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        match r.peek()? {
            Some(0xf6 | 0xf7) => {
                r.read_u8()?;
                Ok(true)
            }
            // Self-described CBOR (d9 d9f7, or a longer head of 55799) in
            // front of a nil is read with it.
            Some(0xd9..=0xdb) => nil_past_tags(r),
            _ => Ok(false),
        }
    }

    #[inline]
    fn read_bool<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        let ib = self.typed(r, Expect::Nothing, "bool")?;
        match ib {
            0xf4 | 0xf5 => {
                r.read_u8()?;
                Ok(ib == 0xf5)
            }
            _ => Err(unexpected(ib, "bool")),
        }
    }

    #[inline]
    fn read_i64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<i64> {
        if let Some((major, arg, size)) = int_head_in_buffer(r.fill_buf()?)
            && let Ok(v) = i64::try_from(arg)
        {
            r.consume(size);
            // Major type 1 is -1 - arg, in range for every arg up to i64::MAX.
            return Ok(if major == 0 { v } else { -1 - v });
        }
        let n = self.read_number(r, "i64")?;
        n.as_i128()
            .and_then(|v| i64::try_from(v).ok())
            .ok_or_else(|| Error::out_of_range("i64", n.describe()))
    }

    #[inline]
    fn read_u64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u64> {
        if let Some((0, arg, size)) = int_head_in_buffer(r.fill_buf()?) {
            r.consume(size);
            return Ok(arg);
        }
        let n = self.read_number(r, "u64")?;
        n.as_i128()
            .and_then(|v| u64::try_from(v).ok())
            .ok_or_else(|| Error::out_of_range("u64", n.describe()))
    }

    fn read_i128<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<i128> {
        let n = self.read_number(r, "i128")?;
        n.as_i128()
            .ok_or_else(|| Error::out_of_range("i128", n.describe()))
    }

    fn read_u128<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u128> {
        let n = self.read_number(r, "u128")?;
        n.as_u128()
            .ok_or_else(|| Error::out_of_range("u128", n.describe()))
    }

    #[inline]
    fn read_f64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<f64> {
        // The common case, a double whose nine bytes are buffered (no tag
        // before it, so nothing for `typed` to skip): one check.
        if let Some(&[0xfb, ref bits @ ..]) = r.fill_buf()?.first_chunk::<9>() {
            let v = f64::from_be_bytes(*bits);
            r.consume(9);
            return Ok(v);
        }
        Ok(match self.read_number(r, "f64")? {
            Number::F64(v) => v,
            Number::F32(v) => v as f64,
            Number::Uint(v) => v as f64,
            Number::Neg(n) => -1.0 - n as f64,
            Number::Big(v) => v as f64,
            Number::BigU(v) => v as f64,
        })
    }

    /// A half or single float exactly; a double or an integer rounded to
    /// the nearest `f32`, and an error when it is beyond the `f32` range
    /// (as the other handles).
    #[inline]
    fn read_f32<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<f32> {
        let (v, wide) = match self.read_number(r, "f32")? {
            Number::F32(v) => return Ok(v),
            Number::F64(v) => (v as f32, v),
            Number::Uint(v) => (v as f32, v as f64),
            Number::Neg(n) => ((-1 - n as i128) as f32, -1.0 - n as f64),
            Number::Big(v) => (v as f32, v as f64),
            Number::BigU(v) => (v as f32, v as f64),
        };
        if v.is_infinite() && wide.is_finite() {
            return Err(Error::out_of_range("f32", format_args!("{wide:?}")));
        }
        Ok(v)
    }

    /// A definite array of up to 23 doubles (`0x80 | n`, then `fb` items),
    /// as written, untagged and all buffered. The driver keeps no state
    /// between items, so nothing but the bytes is taken.
    #[inline(always)]
    fn read_f64_array<'de, R: Read<'de>>(&mut self, r: &mut R, out: &mut [f64]) -> Result<bool> {
        let taken = float_array_in_buffer(r.fill_buf()?, out, (0x80, 23), 0xfb, f64::from_be_bytes);
        Ok(taken.map(|n| r.consume(n)).is_some())
    }

    /// As `read_f64_array`, of singles (`fa` items).
    #[inline(always)]
    fn read_f32_array<'de, R: Read<'de>>(&mut self, r: &mut R, out: &mut [f32]) -> Result<bool> {
        let taken = float_array_in_buffer(r.fill_buf()?, out, (0x80, 23), 0xfa, f32::from_be_bytes);
        Ok(taken.map(|n| r.consume(n)).is_some())
    }

    /// A text string, or a byte string holding valid UTF-8 (as ugorji accepts).
    #[inline]
    fn read_str<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, str>> {
        let ib = self.typed(r, Expect::Nothing, "text string")?;
        match ib >> 5 {
            2 | 3 => self.read_string(r, scratch, ib)?.into_str(),
            _ => Err(unexpected(ib, "text string")),
        }
    }

    /// Definite text is not checked here (the caller checks keys that match
    /// no name); chunks of indefinite text are each checked as they are read.
    #[inline]
    fn read_str_bytes<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        let ib = self.typed(r, Expect::Nothing, "text string")?;
        match ib >> 5 {
            2 | 3 => self.read_string(r, scratch, ib),
            _ => Err(unexpected(ib, "text string")),
        }
    }

    /// A byte string, or the raw bytes of a text string.
    #[inline]
    fn read_bytes<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        let ib = self.typed(r, Expect::Nothing, "byte string")?;
        match ib >> 5 {
            2 | 3 => self.read_string(r, scratch, ib),
            _ => Err(unexpected(ib, "byte string")),
        }
    }

    #[inline]
    fn array_begin<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Seq> {
        let ib = self.typed(r, Expect::Nothing, "array")?;
        if ib >> 5 != 4 {
            return Err(unexpected(ib, "array"));
        }
        r.read_u8()?;
        if ib == 0x9f {
            return Ok(Seq::delimited());
        }
        Ok(Seq::definite(read_len(r, ib)?))
    }

    #[inline]
    fn array_next<'de, R: Read<'de>>(&mut self, r: &mut R, seq: &mut Seq) -> Result<bool> {
        match seq.len {
            Some(len) => Ok(seq.next_definite(len)),
            None => {
                if peek_byte(r)? == 0xff {
                    r.read_u8()?;
                    // Ended: later calls (e.g. from `array_end`) see a definite end.
                    seq.len = Some(seq.index);
                    return Ok(false);
                }
                seq.index += 1;
                Ok(true)
            }
        }
    }

    #[inline]
    fn map_begin<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Seq> {
        let ib = self.typed(r, Expect::Nothing, "map")?;
        if ib >> 5 != 5 {
            return Err(unexpected(ib, "map"));
        }
        r.read_u8()?;
        if ib == 0xbf {
            return Ok(Seq::delimited());
        }
        Ok(Seq::definite(read_len(r, ib)?))
    }

    #[inline]
    fn map_next<'de, R: Read<'de>>(&mut self, r: &mut R, seq: &mut Seq) -> Result<bool> {
        self.array_next(r, seq)
    }

    /// A text key of up to 23 bytes (a one-byte head) whole in the buffer is
    /// handed over from there.
    #[inline]
    fn map_next_key<'de, R: Read<'de>, K>(
        &mut self,
        r: &mut R,
        seq: &mut Seq,
        _hint: Option<&KeyHint>,
        key: impl FnMut(&[u8], u64, bool) -> Result<K>,
    ) -> Result<KeyStep<K>> {
        if !self.map_next(r, seq)? {
            return Ok(KeyStep::End);
        }
        key_in_buffer(
            r,
            |buf| match *buf {
                [ib @ 0x60..=0x77, ..] => Some((1, usize::from(ib - 0x60))),
                _ => None,
            },
            key,
        )
    }

    /// A text key of up to 23 bytes (a one-byte head) that is the hint,
    /// whole in the buffer (in a map of indefinite length, that head is
    /// not the break that would end it).
    #[inline(always)]
    fn map_next_is<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        seq: &mut Seq,
        hint: &KeyHint,
    ) -> Result<bool> {
        let n = hint.as_bytes().len();
        if n > 23 {
            return Ok(false);
        }
        hint_in_buffer(r, seq, &[0x60 | n as u8], hint)
    }

    /// Tag 0 (RFC 3339 text) or tag 1 (epoch seconds, integer or float),
    /// converted to UTC and rounded to microseconds as ugorji does. Nil
    /// (and undefined) read as Go's zero time, 0001-01-01T00:00:00Z, which
    /// is what the encoder writes as nil.
    fn read_time<'de, R: Read<'de>>(&mut self, r: &mut R, scratch: &mut Vec<u8>) -> Result<Time> {
        let ib = self.typed(r, Expect::Time, "time")?;
        match ib {
            0xf6 | 0xf7 => {
                r.read_u8()?;
                Ok(Time::GO_ZERO)
            }
            0xc0 | 0xc1 => {
                r.read_u8()?;
                self.read_time_content(r, scratch, (ib & 1) as u64)
            }
            _ if ib >> 5 == 6 => {
                // Tag 0 or 1 in a longer head.
                r.read_u8()?;
                let tag = read_arg(r, ib)?;
                self.read_time_content(r, scratch, tag)
            }
            _ => Err(unexpected(ib, "time (tag 0 or 1)")),
        }
    }

    /// A tag around a byte string: what [`EncodeFormat::write_ext`] writes.
    ///
    /// [`EncodeFormat::write_ext`]: codec_core::EncodeFormat::write_ext
    fn read_ext<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<(u64, Reference<'de, 's, [u8]>)> {
        let tag = self.read_tag(r)?;
        let ib = peek_byte(r)?;
        if ib >> 5 != 2 {
            return Err(unexpected(ib, "byte string of an extension"));
        }
        Ok((tag, self.read_string(r, scratch, ib)?))
    }

    /// The next tag number (tag 55799 is skipped).
    fn read_tag<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u64> {
        loop {
            let ib = peek_byte(r)?;
            if ib >> 5 != 6 {
                return Err(unexpected(ib, "tag"));
            }
            r.read_u8()?;
            let tag = read_arg(r, ib)?;
            if tag != SELF_DESCRIBED {
                return Ok(tag);
            }
        }
    }

    /// simple(n): 0..19 and 32..255; false, true, null and undefined read as
    /// 20..23. `f8` with a value below 32 is not well-formed.
    fn read_simple<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u8> {
        let ib = self.typed(r, Expect::Nothing, "simple value")?;
        match ib {
            0xe0..=0xf7 => {
                r.read_u8()?;
                Ok(ib & 0x1f)
            }
            0xf8 => {
                r.read_u8()?;
                match r.read_u8()? {
                    n if n < 32 => Err(bad_simple(n).at(r.offset() - 2)),
                    n => Ok(n),
                }
            }
            _ => Err(unexpected(ib, "simple value")),
        }
    }

    fn skip<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        _scratch: &mut Vec<u8>,
        depth: u32,
    ) -> Result<()> {
        skip_item(r, depth)
    }

    #[inline]
    fn reject_duplicate_keys(&self) -> bool {
        self.reject_duplicates
    }
}

#[cfg(test)]
mod tests {
    use codec_core::Handle;

    use crate::CborHandle;

    #[test]
    fn head_kind_agrees_with_peek_kind_for_every_first_byte() {
        let handles = [
            CborHandle::new(),
            CborHandle::new().skip_unexpected_tags(true),
            CborHandle::new().decode_time_tags(false),
        ];
        for h in &handles {
            for b in 0..=u8::MAX {
                for tail in [&[][..], &[0x00; 16], &[0xff; 16], &[0x1b; 16]] {
                    let input = [&[b][..], tail].concat();
                    let quick = h.decoder(&input).peek_head_kind().ok();
                    let full = h.decoder(&input).peek_kind().ok();
                    assert_eq!(quick, full, "{b:#04x} then {tail:02x?}");
                }
            }
        }
        assert!(CborHandle::new().decoder(&[]).peek_head_kind().is_err());
    }
}
