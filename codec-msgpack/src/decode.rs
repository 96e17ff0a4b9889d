//! [`MsgpackDecoder`]: the decoding half of the MessagePack driver.

use crate::MsgpackHandle;
use crate::spec::*;
use codec_core::{
    DecodeFormat, Error, ErrorKind, Found, KeyHint, KeyStep, Kind, Read, Reference, Result, Seq,
    Time, Value, be_uint, float_array_in_buffer, hint_in_buffer, key_in_buffer, scalar,
};

/// The MessagePack [`DecodeFormat`]: reads every format byte of the spec.
///
/// What it accepts for each target, following ugorji:
/// - integers from any integer encoding that fits, and from float32/float64
///   when the value is integral and in range;
/// - floats from either float width or from any integer;
/// - bools from `c2`/`c3` and, as ugorji does, from the fixints `0`/`1`;
/// - text from str *and* bin items (if UTF-8), bytes from bin *and* str items;
/// - times from the timestamp extension (-1, any ext container holding 4, 8
///   or 12 bytes) and from a raw str/bin item of 4, 8 or 12 bytes (ugorji's
///   old-spec time). Nanoseconds above 999,999,999 are an error (ugorji
///   normalises them; the spec forbids them);
/// - `c1` (never used) is an error everywhere.
///
/// Declared lengths are never trusted beyond the input: byte strings are
/// read (or borrowed) only as far as the input goes, and collections are
/// pre-allocated through the shared decoder's bounded `prealloc`.
#[derive(Debug, Clone)]
pub struct MsgpackDecoder {
    /// str items are text in [`Kind`] (write_ext or raw_to_string); otherwise bytes.
    text_strings: bool,
    /// The next item is a map key (turns raw items into text, as ugorji does).
    key_next: bool,
    /// Items still to skip in each enclosing container (reused by `skip`).
    skip_stack: Vec<u64>,
    /// `max_str_len`: a str, bin or ext item declaring more is refused at
    /// its header, before a reader copies any of it.
    max_str_len: usize,
}

/// A number read from any msgpack numeric encoding.
enum Num {
    I(i64),
    U(u64),
    F(f64),
}

/// The kind of item a leading byte starts (ext items are reported as
/// [`Kind::Ext`] here: telling timestamps apart needs the type byte).
fn kind_of(b: u8, text_strings: bool) -> Kind {
    match b {
        0x00..=POS_FIXINT_MAX | INT8..=INT64 | NEG_FIXINT_MIN..=0xff => Kind::Int,
        UINT8..=UINT64 => Kind::Uint,
        0x80..=0x8f | MAP16 | MAP32 => Kind::Map,
        0x90..=0x9f | ARRAY16 | ARRAY32 => Kind::Array,
        FIXSTR..=0xbf | STR8..=STR32 => {
            if text_strings {
                Kind::Str
            } else {
                Kind::Bytes
            }
        }
        NIL | RESERVED => Kind::Nil,
        FALSE | TRUE => Kind::Bool,
        BIN8..=BIN32 => Kind::Bytes,
        FLOAT32 => Kind::Float32,
        FLOAT64 => Kind::Float64,
        EXT8..=EXT32 | FIXEXT1..=FIXEXT16 => Kind::Ext,
    }
}

#[cold]
fn reserved() -> Error {
    Error::syntax("the byte 0xc1 is never used in msgpack")
}

/// The error for an item (its marker `b` consumed) that the target cannot
/// take, at the marker. The message quotes the item's value (`found text
/// string "forty"`, `found integer 42`): the marker is consumed, so the
/// shared decoder could not read the item again; what follows it is looked
/// at without consuming it.
#[cold]
fn unexpected<'de, R: Read<'de>>(r: &mut R, b: u8, expected: &'static str) -> Error {
    let at = r.offset().saturating_sub(1);
    let e = if b == RESERVED {
        reserved()
    } else {
        let kind = kind_of(b, true);
        match r.peek_bytes(9 + Found::TEXT_HEAD) {
            Ok(ahead) => match found_after(b, ahead) {
                Some(found) => Error::type_mismatch(expected, found),
                None => kind.mismatch(expected),
            },
            Err(_) => kind.mismatch(expected),
        }
    };
    e.at(at)
}

/// The item whose marker `b` was consumed, from the bytes that follow it
/// (`ahead`); `None` when they end too soon. str items are text (if not
/// UTF-8, shown with U+FFFD), bin items byte strings, ext items their type
/// byte as the tag (as [`MsgpackDecoder`] reads it).
fn found_after(b: u8, ahead: &[u8]) -> Option<Found<'_>> {
    let len = |n: usize| be_uint(ahead, 0, n).and_then(|l| usize::try_from(l).ok());
    let ext = |n: usize, data: usize| {
        Some(Found::Ext {
            tag: u64::from(*ahead.get(n)?),
            len: data,
        })
    };
    Some(match b {
        0x00..=POS_FIXINT_MAX => Found::Int(i128::from(b)),
        NEG_FIXINT_MIN..=0xff => Found::Int(i128::from(b as i8)),
        NIL => Found::Nil,
        FALSE => Found::Bool(false),
        TRUE => Found::Bool(true),
        UINT8 => Found::Uint(u128::from(be_uint(ahead, 0, 1)?)),
        UINT16 => Found::Uint(u128::from(be_uint(ahead, 0, 2)?)),
        UINT32 => Found::Uint(u128::from(be_uint(ahead, 0, 4)?)),
        UINT64 => Found::Uint(u128::from(be_uint(ahead, 0, 8)?)),
        INT8 => Found::Int(i128::from(be_uint(ahead, 0, 1)? as u8 as i8)),
        INT16 => Found::Int(i128::from(be_uint(ahead, 0, 2)? as u16 as i16)),
        INT32 => Found::Int(i128::from(be_uint(ahead, 0, 4)? as u32 as i32)),
        INT64 => Found::Int(i128::from(be_uint(ahead, 0, 8)? as i64)),
        FLOAT32 => Found::Float(f64::from(f32::from_bits(be_uint(ahead, 0, 4)? as u32))),
        FLOAT64 => Found::Float(f64::from_bits(be_uint(ahead, 0, 8)?)),
        FIXSTR..=0xbf => Found::text_in(ahead, 0, usize::from(b & 0x1f))?,
        STR8 => Found::text_in(ahead, 1, len(1)?)?,
        STR16 => Found::text_in(ahead, 2, len(2)?)?,
        STR32 => Found::text_in(ahead, 4, len(4)?)?,
        BIN8 => Found::Bytes(len(1)?),
        BIN16 => Found::Bytes(len(2)?),
        BIN32 => Found::Bytes(len(4)?),
        0x80..=0x8f => Found::Map(Some(usize::from(b & 0x0f))),
        MAP16 => Found::Map(Some(len(2)?)),
        MAP32 => Found::Map(Some(len(4)?)),
        0x90..=0x9f => Found::Array(Some(usize::from(b & 0x0f))),
        ARRAY16 => Found::Array(Some(len(2)?)),
        ARRAY32 => Found::Array(Some(len(4)?)),
        FIXEXT1..=FIXEXT16 => ext(0, 1 << (b - FIXEXT1))?,
        EXT8 => ext(1, len(1)?)?,
        EXT16 => ext(2, len(2)?)?,
        EXT32 => ext(4, len(4)?)?,
        RESERVED => return None,
    })
}

#[inline]
fn be16<'de, R: Read<'de>>(r: &mut R) -> Result<usize> {
    Ok(usize::from(u16::from_be_bytes(r.read_array()?)))
}

#[inline]
fn be32<'de, R: Read<'de>>(r: &mut R) -> Result<usize> {
    let n = u32::from_be_bytes(r.read_array()?);
    usize::try_from(n).map_err(|_| Error::out_of_range("usize", n))
}

/// The content of the str or bin item at the reader (either is accepted, as
/// ugorji does); a type mismatch naming `expected` for anything else.
#[inline]
fn string_item<'de, 's, R: Read<'de>>(
    r: &'s mut R,
    scratch: &'s mut Vec<u8>,
    expected: &'static str,
    max: usize,
) -> Result<Reference<'de, 's, [u8]>> {
    let at = r.offset();
    let b = r.read_u8()?;
    match string_len(r, b)? {
        Some(len) if len > max => Err(Error::str_too_long(len, max).at(at)),
        Some(len) => r.read_slice(len, scratch),
        None => Err(unexpected(r, b, expected)),
    }
}

/// The length of a str or bin item starting with `b`, or `None` if `b` starts something else.
#[inline]
fn string_len<'de, R: Read<'de>>(r: &mut R, b: u8) -> Result<Option<usize>> {
    Ok(Some(match b {
        FIXSTR..=0xbf => usize::from(b & 0x1f),
        STR8 | BIN8 => usize::from(r.read_u8()?),
        STR16 | BIN16 => be16(r)?,
        STR32 | BIN32 => be32(r)?,
        _ => return Ok(None),
    }))
}

/// The payload length and type byte of an ext item starting with `b`.
#[inline]
fn ext_header<'de, R: Read<'de>>(r: &mut R, b: u8) -> Result<Option<(usize, u8)>> {
    let len = match b {
        FIXEXT1 => 1,
        FIXEXT2 => 2,
        FIXEXT4 => 4,
        FIXEXT8 => 8,
        FIXEXT16 => 16,
        EXT8 => usize::from(r.read_u8()?),
        EXT16 => be16(r)?,
        EXT32 => be32(r)?,
        _ => return Ok(None),
    };
    Ok(Some((len, r.read_u8()?)))
}

/// Reads the number starting with `b`, or `None` if `b` starts something else.
#[inline(always)]
fn read_num<'de, R: Read<'de>>(r: &mut R, b: u8) -> Result<Option<Num>> {
    Ok(Some(match b {
        0x00..=POS_FIXINT_MAX => Num::I(i64::from(b)),
        NEG_FIXINT_MIN..=0xff => Num::I(i64::from(b as i8)),
        UINT8 => Num::U(u64::from(r.read_u8()?)),
        UINT16 => Num::U(u64::from(u16::from_be_bytes(r.read_array()?))),
        UINT32 => Num::U(u64::from(u32::from_be_bytes(r.read_array()?))),
        UINT64 => Num::U(u64::from_be_bytes(r.read_array()?)),
        INT8 => Num::I(i64::from(r.read_u8()? as i8)),
        INT16 => Num::I(i64::from(i16::from_be_bytes(r.read_array()?))),
        INT32 => Num::I(i64::from(i32::from_be_bytes(r.read_array()?))),
        INT64 => Num::I(i64::from_be_bytes(r.read_array()?)),
        FLOAT32 => Num::F(f64::from(f32::from_bits(u32::from_be_bytes(
            r.read_array()?,
        )))),
        FLOAT64 => Num::F(f64::from_bits(u64::from_be_bytes(r.read_array()?))),
        _ => return Ok(None),
    }))
}

/// 2^63 as f64: the first float above the `i64` range.
const TWO_63: f64 = 9_223_372_036_854_775_808.0;

impl MsgpackDecoder {
    /// A decoder with the settings of `h`.
    pub fn new(h: &MsgpackHandle) -> Self {
        MsgpackDecoder {
            text_strings: h.write_ext || h.raw_to_string,
            key_next: false,
            skip_stack: Vec::new(),
            max_str_len: usize::MAX,
        }
    }

    /// The kind a str item has here: text for `write_ext`/`raw_to_string`
    /// handles and in map-key position; bytes otherwise (ugorji's old spec).
    #[inline]
    fn str_kind(&self) -> Kind {
        if self.text_strings || self.key_next {
            Kind::Str
        } else {
            Kind::Bytes
        }
    }

    /// Reads a number of any encoding for a target named `expected`.
    /// Inlined whole, with [`read_num`], into the typed reads (`read_i64`,
    /// `read_u64`, `read_f32`, `read_f64`), which then stay out of line
    /// themselves: out of line, `num` was a second call per number, whose
    /// `Result<Num>` came back through memory. Inlined, decoding `mk48`
    /// (random `u16`, `u32`, `i16` and `i8` fields) took 9-10 % less time.
    #[inline(always)]
    fn num<'de, R: Read<'de>>(r: &mut R, expected: &'static str) -> Result<Num> {
        let b = r.read_u8()?;
        match read_num(r, b)? {
            Some(n) => Ok(n),
            None => Err(unexpected(r, b, expected)),
        }
    }

    /// Reads a container header whose fix range starts at `fix`.
    #[inline]
    fn container<'de, R: Read<'de>>(
        r: &mut R,
        fix: u8,
        b16: u8,
        b32: u8,
        expected: &'static str,
    ) -> Result<Seq> {
        let b = r.read_u8()?;
        let len = if b & 0xf0 == fix {
            usize::from(b & 0x0f)
        } else if b == b16 {
            be16(r)?
        } else if b == b32 {
            be32(r)?
        } else {
            return Err(unexpected(r, b, expected));
        };
        Ok(Seq::definite(len))
    }
}

impl MsgpackDecoder {
    /// Consumes an array [`float_array_in_buffer`] read, with `array_begin`'s effect
    /// on the decoder's state.
    #[inline(always)]
    fn take_array<'de, R: Read<'de>>(&mut self, r: &mut R, taken: Option<usize>) -> Result<bool> {
        let Some(n) = taken else {
            return Ok(false);
        };
        self.key_next = false;
        r.consume(n);
        Ok(true)
    }
}

impl DecodeFormat for MsgpackDecoder {
    const NAME: &'static str = "msgpack";

    fn side(&self) -> Option<Self> {
        Some(MsgpackDecoder {
            text_strings: self.text_strings,
            key_next: false,
            skip_stack: Vec::new(),
            max_str_len: self.max_str_len,
        })
    }

    #[inline]
    fn limit_str_len(&mut self, max: usize) {
        self.max_str_len = max;
    }

    /// Positive fixints and `d0`..`d3` are [`Kind::Int`] and `cc`..`cf`
    /// [`Kind::Uint`] (ugorji: fixint → int64, uint family → uint64); ext
    /// type -1 is [`Kind::Time`]; str items are [`Kind::Str`] or
    /// [`Kind::Bytes`] as the handle says (see [`MsgpackHandle::write_ext`]).
    fn peek_kind<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Kind> {
        let b = r.peek()?.ok_or_else(Error::eof)?;
        let type_at = match b {
            FIXSTR..=0xbf | STR8..=STR32 => return Ok(self.str_kind()),
            RESERVED => return Err(reserved()),
            FIXEXT1..=FIXEXT16 => 1,
            EXT8 => 2,
            EXT16 => 3,
            EXT32 => 5,
            _ => return Ok(kind_of(b, self.text_strings)),
        };
        // The type byte follows the length: look ahead without consuming.
        let ahead = r.peek_bytes(type_at + 1)?;
        match ahead.get(type_at) {
            Some(&TIMESTAMP_TYPE) => Ok(Kind::Time),
            Some(_) => Ok(Kind::Ext),
            None => {
                // The input ends after the bytes looked at.
                let looked = ahead.len() as u64;
                let end = r.offset() + looked;
                Err(Error::eof().at(end))
            }
        }
    }

    /// Maps, arrays, fixstrs and positive fixints (a struct, an enum's
    /// name or index) by their first byte, inline; anything else as
    /// [`peek_kind`](DecodeFormat::peek_kind) says.
    #[inline]
    fn peek_head_kind<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Kind> {
        match r.peek()? {
            Some(FIXMAP..=0x8f | MAP16 | MAP32) => Ok(Kind::Map),
            Some(FIXARRAY..=0x9f | ARRAY16 | ARRAY32) => Ok(Kind::Array),
            Some(FIXSTR..=0xbf) => Ok(self.str_kind()),
            Some(0x00..=POS_FIXINT_MAX) => Ok(Kind::Int),
            _ => self.peek_kind(r),
        }
    }

    /// Every scalar whose bytes are all buffered goes straight into its
    /// `Value`: numbers, nil, bools, and str/bin items (text or bytes as
    /// [`peek_kind`](DecodeFormat::peek_kind) says) of valid length.
    /// Anything else, including a string that is not UTF-8 where text is
    /// read or is longer than `max_str_len`, takes the generic path, which
    /// gives the error.
    #[inline]
    fn read_scalar_value<'de, R: Read<'de>, T>(
        &mut self,
        r: &mut R,
        _scratch: &mut Vec<u8>,
        opts: &codec_core::DecodeOptions,
        put: impl FnOnce(Value) -> T,
    ) -> Result<Option<T>> {
        let buf = r.fill_buf()?;
        let Some(&b) = buf.first() else {
            return Ok(None);
        };
        let (v, len) = match b {
            0x00..=POS_FIXINT_MAX => (scalar::int(i64::from(b), opts), 1),
            NEG_FIXINT_MIN..=0xff => (scalar::int(i64::from(b as i8), opts), 1),
            NIL => (Value::Nil, 1),
            FALSE => (Value::Bool(false), 1),
            TRUE => (Value::Bool(true), 1),
            FIXSTR..=0xbf | STR8..=STR32 | BIN8..=BIN32 => {
                let (head, len) = match b {
                    FIXSTR..=0xbf => (1, usize::from(b & 0x1f)),
                    STR8 | BIN8 => match buf.get(1) {
                        Some(&n) => (2, usize::from(n)),
                        None => return Ok(None),
                    },
                    _ => {
                        let head = if matches!(b, STR16 | BIN16) { 3 } else { 5 };
                        match be_uint(buf, 1, head - 1).and_then(|n| usize::try_from(n).ok()) {
                            Some(n) => (head, n),
                            None => return Ok(None),
                        }
                    }
                };
                // str items are text or bytes as `peek_kind` says; bin items bytes.
                let text = !matches!(b, BIN8..=BIN32) && self.str_kind() == Kind::Str;
                let Some((v, end)) = scalar::string_in(buf, head, len, text, opts) else {
                    return Ok(None);
                };
                r.consume(end);
                return Ok(Some(put(v)));
            }
            UINT8..=INT64 | FLOAT32 | FLOAT64 => {
                let n = match b {
                    UINT8 | INT8 => 1,
                    UINT16 | INT16 => 2,
                    UINT32 | INT32 | FLOAT32 => 4,
                    _ => 8,
                };
                let Some(bits) = be_uint(buf, 1, n) else {
                    return Ok(None);
                };
                let v = match b {
                    FLOAT32 => Value::F32(f32::from_bits(bits as u32)),
                    FLOAT64 => Value::F64(f64::from_bits(bits)),
                    UINT8..=UINT64 => scalar::uint(bits, opts),
                    // INT8..=INT64: sign-extend from the item's width.
                    _ => {
                        let shift = 64 - 8 * n;
                        scalar::int(((bits << shift) as i64) >> shift, opts)
                    }
                };
                (v, 1 + n)
            }
            _ => return Ok(None),
        };
        r.consume(len);
        Ok(Some(put(v)))
    }

    /// The whole item from the reader's buffer in one loop
    /// (the `document` module). Not for an item in a map key's place (its str
    /// items are text whatever the handle says), nor under `prefer_float`:
    /// the general path reads those.
    #[inline]
    fn read_document<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        opts: &codec_core::DecodeOptions,
        doc: &mut codec_core::DocumentBuilder<'_>,
    ) -> Result<bool> {
        if self.key_next || opts.prefer_float {
            return Ok(false);
        }
        let text = self.text_strings;
        codec_core::take_from_buffer(r, |buf| crate::document::read(buf, opts, text, doc))
    }

    /// `90`, the empty fixarray (`dc 00 00` and `dd` with a zero length go
    /// the general way), with the state [`array_begin`](Self::array_begin)
    /// leaves.
    #[inline(always)]
    fn try_empty_array<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        if r.peek()? == Some(FIXARRAY) {
            r.read_u8()?;
            self.key_next = false;
            return Ok(true);
        }
        Ok(false)
    }

    #[inline]
    fn try_nil<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        if r.peek()? == Some(NIL) {
            r.read_u8()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// `c2`/`c3`, and the fixints `0`/`1` as ugorji accepts them.
    #[inline]
    fn read_bool<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        match r.read_u8()? {
            FALSE | 0x00 => Ok(false),
            TRUE | 0x01 => Ok(true),
            b => Err(unexpected(r, b, "bool")),
        }
    }

    #[inline]
    fn read_i64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<i64> {
        match Self::num(r, "i64")? {
            Num::I(v) => Ok(v),
            Num::U(v) => i64::try_from(v).map_err(|_| Error::out_of_range("i64", v)),
            Num::F(f) => {
                if f.fract() == 0.0 && (-TWO_63..TWO_63).contains(&f) {
                    Ok(f as i64)
                } else {
                    Err(Error::out_of_range("i64", format_args!("{f:?}")))
                }
            }
        }
    }

    #[inline]
    fn read_u64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u64> {
        match Self::num(r, "u64")? {
            Num::I(v) => u64::try_from(v).map_err(|_| Error::out_of_range("u64", v)),
            Num::U(v) => Ok(v),
            Num::F(f) => {
                if f.fract() == 0.0 && (0.0..2.0 * TWO_63).contains(&f) {
                    Ok(f as u64)
                } else {
                    Err(Error::out_of_range("u64", format_args!("{f:?}")))
                }
            }
        }
    }

    #[inline]
    fn read_f64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<f64> {
        // The common case, a float64 whose nine bytes are buffered: one check.
        if let Some(&[FLOAT64, ref bits @ ..]) = r.fill_buf()?.first_chunk::<9>() {
            let v = f64::from_be_bytes(*bits);
            r.consume(9);
            return Ok(v);
        }
        Ok(match Self::num(r, "f64")? {
            Num::I(v) => v as f64,
            Num::U(v) => v as f64,
            Num::F(f) => f,
        })
    }

    /// A fixarray of float64s (`cb`), as written, all buffered.
    #[inline(always)]
    fn read_f64_array<'de, R: Read<'de>>(&mut self, r: &mut R, out: &mut [f64]) -> Result<bool> {
        let taken = float_array_in_buffer(
            r.fill_buf()?,
            out,
            (FIXARRAY, 15),
            FLOAT64,
            f64::from_be_bytes,
        );
        self.take_array(r, taken)
    }

    /// A fixarray of float32s (`ca`), as written, all buffered.
    #[inline(always)]
    fn read_f32_array<'de, R: Read<'de>>(&mut self, r: &mut R, out: &mut [f32]) -> Result<bool> {
        let taken = float_array_in_buffer(
            r.fill_buf()?,
            out,
            (FIXARRAY, 15),
            FLOAT32,
            f32::from_be_bytes,
        );
        self.take_array(r, taken)
    }

    /// float32 exactly; a float64 that is finite and beyond the `f32` range is an error.
    #[inline]
    fn read_f32<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<f32> {
        if let Some(&[FLOAT32, ref bits @ ..]) = r.fill_buf()?.first_chunk::<5>() {
            let v = f32::from_be_bytes(*bits);
            r.consume(5);
            return Ok(v);
        }
        if r.peek()? == Some(FLOAT32) {
            // Across a refill: still the exact bits (a round trip through
            // f64 would quiet a signaling NaN).
            r.read_u8()?;
            return Ok(f32::from_be_bytes(r.read_array()?));
        }
        match Self::num(r, "f32")? {
            Num::I(v) => Ok(v as f32),
            Num::U(v) => Ok(v as f32),
            Num::F(f) => {
                if f.is_finite() && f.abs() > f64::from(f32::MAX) {
                    Err(Error::out_of_range("f32", format_args!("{f:?}")))
                } else {
                    Ok(f as f32)
                }
            }
        }
    }

    #[inline]
    fn read_str<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, str>> {
        string_item(r, scratch, "text string", self.max_str_len)?.into_str()
    }

    #[inline]
    fn read_str_bytes<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        string_item(r, scratch, "text string", self.max_str_len)
    }

    #[inline]
    fn read_bytes<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        string_item(r, scratch, "byte string", self.max_str_len)
    }

    #[inline]
    fn array_begin<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Seq> {
        self.key_next = false;
        Self::container(r, FIXARRAY, ARRAY16, ARRAY32, "array")
    }

    #[inline]
    fn array_next<'de, R: Read<'de>>(&mut self, _r: &mut R, seq: &mut Seq) -> Result<bool> {
        Ok(seq.next_definite(seq.len.unwrap_or(0)))
    }

    #[inline]
    fn map_begin<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Seq> {
        self.key_next = false;
        Self::container(r, FIXMAP, MAP16, MAP32, "map")
    }

    #[inline]
    fn map_next<'de, R: Read<'de>>(&mut self, _r: &mut R, seq: &mut Seq) -> Result<bool> {
        let more = seq.next_definite(seq.len.unwrap_or(0));
        self.key_next = more;
        Ok(more)
    }

    #[inline]
    fn map_value<'de, R: Read<'de>>(&mut self, _r: &mut R, _seq: &mut Seq) -> Result<()> {
        self.key_next = false;
        Ok(())
    }

    /// A fixstr key whole in the buffer is handed over from there.
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
        let step = key_in_buffer(
            r,
            |buf| match *buf {
                [b @ FIXSTR..=0xbf, ..] => Some((1, usize::from(b & 0x1f))),
                _ => None,
            },
            key,
        )?;
        if let KeyStep::Key(_) = step {
            self.key_next = false;
        }
        Ok(step)
    }

    /// A fixstr key that is the hint, whole in the buffer.
    #[inline(always)]
    fn map_next_is<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        seq: &mut Seq,
        hint: &KeyHint,
    ) -> Result<bool> {
        let n = hint.as_bytes().len();
        if n > 31 {
            return Ok(false);
        }
        let hit = hint_in_buffer(r, seq, &[FIXSTR | n as u8], hint)?;
        if hit {
            // What `map_next`, the key and `map_value` leave.
            self.key_next = false;
        }
        Ok(hit)
    }

    /// The timestamp extension, or a raw str/bin item of 4, 8 or 12 bytes;
    /// nil is Go's zero time, which ugorji writes as nil.
    /// A wrong extension type or length, or a bad payload, is an error at
    /// the item's first byte.
    fn read_time<'de, R: Read<'de>>(&mut self, r: &mut R, scratch: &mut Vec<u8>) -> Result<Time> {
        let at = r.offset();
        let b = r.read_u8()?;
        if b == NIL {
            return Ok(Time::GO_ZERO);
        }
        let len = if let Some(len) = string_len(r, b)? {
            len
        } else if let Some((len, ty)) = ext_header(r, b)? {
            if ty != TIMESTAMP_TYPE {
                return Err(Error::syntax(format!(
                    "expected the timestamp extension (-1), found extension type {}",
                    ty as i8
                ))
                .at(at));
            }
            len
        } else {
            return Err(unexpected(r, b, "timestamp"));
        };
        if !matches!(len, 4 | 8 | 12) {
            return Err(Error::syntax(format!(
                "msgpack timestamp must have 4, 8 or 12 bytes, not {len}"
            ))
            .at(at));
        }
        let data = r.read_slice(len, scratch)?;
        parse_timestamp(&data).map_err(|e| e.at(at))
    }

    /// An extension's type as its wire byte (see
    /// [`MsgpackEncoder::write_ext`](crate::MsgpackEncoder)) and its data.
    fn read_ext<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<(u64, Reference<'de, 's, [u8]>)> {
        let at = r.offset();
        let b = r.read_u8()?;
        match ext_header(r, b)? {
            Some((len, _)) if len > self.max_str_len => {
                Err(Error::str_too_long(len, self.max_str_len).at(at))
            }
            Some((len, ty)) => Ok((u64::from(ty), r.read_slice(len, scratch)?)),
            None => Err(unexpected(r, b, "extension")),
        }
    }

    /// Skips one item without recursion and without checking UTF-8: a
    /// counter of items left per open container, at most `depth` deep.
    fn skip<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        _scratch: &mut Vec<u8>,
        depth: u32,
    ) -> Result<()> {
        self.key_next = false;
        let stack = &mut self.skip_stack;
        stack.clear();
        let mut left: u64 = 1;
        loop {
            while left == 0 {
                match stack.pop() {
                    Some(outer) => left = outer,
                    None => return Ok(()),
                }
            }
            left -= 1;
            let b = r.read_u8()?;
            let (items, bytes): (u64, usize) = match b {
                0x00..=POS_FIXINT_MAX | NEG_FIXINT_MIN..=0xff | NIL | FALSE | TRUE => (0, 0),
                0x80..=0x8f => (2 * u64::from(b & 0x0f), 0),
                0x90..=0x9f => (u64::from(b & 0x0f), 0),
                FIXSTR..=0xbf => (0, usize::from(b & 0x1f)),
                RESERVED => return Err(reserved()),
                BIN8 | STR8 => (0, usize::from(r.read_u8()?)),
                BIN16 | STR16 => (0, be16(r)?),
                BIN32 | STR32 => (0, be32(r)?),
                EXT8..=EXT32 | FIXEXT1..=FIXEXT16 => match ext_header(r, b)? {
                    Some((len, _)) => (0, len),
                    None => return Err(reserved()),
                },
                FLOAT32 | UINT32 | INT32 => (0, 4),
                FLOAT64 | UINT64 | INT64 => (0, 8),
                UINT8 | INT8 => (0, 1),
                UINT16 | INT16 => (0, 2),
                ARRAY16 => (be16(r)? as u64, 0),
                ARRAY32 => (be32(r)? as u64, 0),
                MAP16 => (2 * be16(r)? as u64, 0),
                MAP32 => (2 * be32(r)? as u64, 0),
            };
            if bytes > 0 {
                r.skip(bytes)?;
            }
            if matches!(b, 0x80..=0x9f | ARRAY16..=MAP32) {
                if stack.len() >= depth as usize {
                    // At the header just read: its byte and length bytes.
                    let header = match b {
                        0x80..=0x9f => 1,
                        ARRAY16 | MAP16 => 3,
                        _ => 5,
                    };
                    let e = Error::new(ErrorKind::DepthLimitExceeded { max: depth });
                    return Err(e.at(r.offset() - header));
                }
                if items > 0 {
                    stack.push(left);
                    left = items;
                }
            }
        }
    }

    #[inline]
    fn reset(&mut self) {
        self.key_next = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use codec_core::{Handle, Value, from_slice, to_vec};

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    fn kind(bytes: &[u8], h: &MsgpackHandle) -> Kind {
        h.decoder(bytes).peek_kind().unwrap()
    }

    #[test]
    fn peek_kind_of_every_family() {
        let h = MsgpackHandle::default();
        let cases: &[(&str, Kind)] = &[
            ("00", Kind::Int),
            ("7f", Kind::Int),
            ("ff", Kind::Int),
            ("d0ff", Kind::Int),
            ("d30000000000000001", Kind::Int),
            ("cc01", Kind::Uint),
            ("cf0000000000000001", Kind::Uint),
            ("ca00000000", Kind::Float32),
            ("cb0000000000000000", Kind::Float64),
            ("c0", Kind::Nil),
            ("c3", Kind::Bool),
            ("a161", Kind::Str),
            ("d90161", Kind::Str),
            ("c40161", Kind::Bytes),
            ("90", Kind::Array),
            ("dc0000", Kind::Array),
            ("80", Kind::Map),
            ("df00000000", Kind::Map),
            ("d40110", Kind::Ext),
            ("d6ff00000000", Kind::Time),
            ("c70cff000000000000000000000000", Kind::Time),
            ("c80004ff00000000", Kind::Time),
            ("c900000004ff00000000", Kind::Time),
            ("c9000000010501", Kind::Ext),
        ];
        for (b, k) in cases {
            assert_eq!(kind(&hex(b), &h), *k, "{b}");
        }
        let old = MsgpackHandle::ugorji_default();
        assert_eq!(kind(&hex("a161"), &old), Kind::Bytes);
        assert_eq!(
            kind(&hex("a161"), &old.clone().raw_to_string(true)),
            Kind::Str
        );
        assert!(h.decoder(&[0xc1]).peek_kind().is_err());
        assert!(h.decoder(&[]).peek_kind().is_err());
        // The type byte of an ext is missing: an error, not a guess.
        assert!(h.decoder(&[0xc7, 0x01]).peek_kind().is_err());
    }

    #[test]
    fn head_kind_agrees_with_peek_kind_for_every_first_byte() {
        let handles = [
            MsgpackHandle::default(),
            MsgpackHandle::ugorji_default(),
            MsgpackHandle::ugorji_default().raw_to_string(true),
        ];
        for h in &handles {
            for b in 0..=u8::MAX {
                for tail in [&[][..], &[0x00; 16], &[0xff; 16]] {
                    let input = [&[b][..], tail].concat();
                    let quick = h.decoder(&input).peek_head_kind().ok();
                    let full = h.decoder(&input).peek_kind().ok();
                    assert_eq!(quick, full, "{b:#04x} then {tail:02x?}");
                }
            }
        }
        assert!(
            MsgpackHandle::default()
                .decoder(&[])
                .peek_head_kind()
                .is_err()
        );
    }

    #[test]
    fn dynamic_values_follow_ugorji() {
        let h = MsgpackHandle::default();
        let old = MsgpackHandle::ugorji_default();
        let v = |b: &str, h: &MsgpackHandle| from_slice::<Value, _>(&hex(b), h).unwrap();
        assert_eq!(v("05", &h), Value::Int(5));
        assert_eq!(v("cc05", &h), Value::Uint(5));
        assert_eq!(v("d005", &h), Value::Int(5));
        assert_eq!(v("ca3fc00000", &h), Value::F32(1.5));
        assert_eq!(v("a3616263", &h), Value::from("abc"));
        assert_eq!(v("a3616263", &old), Value::Bytes(b"abc".to_vec()));
        // Raw map keys become text in the old spec; values stay bytes.
        assert_eq!(
            v("81a16ba176", &old),
            Value::Map(vec![(Value::from("k"), Value::Bytes(b"v".to_vec()))])
        );
        // ... only the key item itself: a key array keeps bytes inside.
        assert_eq!(
            v("8191a16b01", &old),
            Value::Map(vec![(
                Value::Array(vec![Value::Bytes(b"k".to_vec())]),
                Value::Int(1)
            )])
        );
        assert_eq!(v("d40110", &old), Value::Ext(1, vec![0x10].into()));
        assert_eq!(v("c70180ab", &h), Value::Ext(0x80, vec![0xab].into()));
        assert_eq!(
            v("d6ff5a4af6a5", &old),
            Value::Time(Time::from_unix(1_514_862_245, 0).unwrap())
        );
        let err = from_slice::<Value, _>(&hex("d5ff0000"), &h).unwrap_err();
        assert!(err.to_string().contains("timestamp"), "{err}");
    }

    #[test]
    fn coercions() {
        let h = MsgpackHandle::default();
        let d = |b: &str| hex(b);
        assert_eq!(
            from_slice::<i64, _>(&d("cb4059000000000000"), &h).unwrap(),
            100
        );
        assert!(from_slice::<i64, _>(&d("cb4059100000000000"), &h).is_err());
        assert!(from_slice::<i64, _>(&d("cb43e0000000000000"), &h).is_err()); // 2^63
        assert_eq!(
            from_slice::<i64, _>(&d("cbc3e0000000000000"), &h).unwrap(),
            i64::MIN
        );
        assert!(from_slice::<u64, _>(&d("cb7ff8000000000000"), &h).is_err()); // NaN
        assert!(from_slice::<u64, _>(&d("ff"), &h).is_err());
        assert!(from_slice::<i64, _>(&d("cf8000000000000000"), &h).is_err());
        assert_eq!(
            from_slice::<u8, _>(&d("d300000000000000ff"), &h).unwrap(),
            255
        );
        assert!(from_slice::<u8, _>(&d("d10100"), &h).is_err());
        assert_eq!(from_slice::<f64, _>(&d("cd0100"), &h).unwrap(), 256.0);
        assert_eq!(
            from_slice::<f32, _>(&d("cb3ff8000000000000"), &h).unwrap(),
            1.5
        );
        assert!(from_slice::<f32, _>(&d("cb7fefffffffffffff"), &h).is_err());
        assert!(
            from_slice::<f32, _>(&d("cb7ff0000000000000"), &h)
                .unwrap()
                .is_infinite()
        );
        assert!(from_slice::<bool, _>(&d("01"), &h).unwrap());
        assert!(!from_slice::<bool, _>(&d("00"), &h).unwrap());
        assert!(from_slice::<bool, _>(&d("02"), &h).is_err());
        assert_eq!(from_slice::<String, _>(&d("c3"), &h).ok(), None);
        assert_eq!(
            from_slice::<String, _>(&d("c403616263"), &h).unwrap(),
            "abc"
        );
        assert!(from_slice::<String, _>(&d("c401ff"), &h).is_err());
        assert!(from_slice::<String, _>(&d("a1ff"), &h).is_err());
        assert_eq!(
            from_slice::<Vec<u8>, _>(&d("d903616263"), &h).unwrap(),
            b"abc"
        );
        assert_eq!(
            from_slice::<Vec<u8>, _>(&d("9201cc02"), &h).unwrap(),
            [1, 2]
        );
        // Times from the old spec's raw payload, from bin, and from any ext container.
        let t = Time::from_unix(1_514_862_245, 0).unwrap();
        for b in [
            "a45a4af6a5",
            "c4045a4af6a5",
            "d6ff5a4af6a5",
            "c704ff5a4af6a5",
        ] {
            assert_eq!(from_slice::<Time, _>(&d(b), &h).unwrap(), t, "{b}");
        }
        // Nil is Go's zero time, which is written as nil.
        assert_eq!(from_slice::<Time, _>(&d("c0"), &h).unwrap(), Time::GO_ZERO);
        assert_eq!(codec_core::to_vec(&Time::GO_ZERO, &h).unwrap(), d("c0"));
        for bad in ["a35a4af6", "d6015a4af6a5", "d7ffffffffff00000000", "01"] {
            assert!(from_slice::<Time, _>(&d(bad), &h).is_err(), "{bad}");
        }
        // At the item's first byte: a wrong type, length or payload.
        for bad in ["c703ff000000", "d6015a4af6a5", "d7ffffffffff00000000"] {
            let input = [&[0x92, 0x01][..], &d(bad)].concat();
            let err = from_slice::<(u8, Time), _>(&input, &h).unwrap_err();
            assert_eq!(err.offset(), Some(2), "{bad}: {err}");
        }
        assert!(from_slice::<(), _>(&d("c1"), &h).is_err());
    }

    #[test]
    fn errors_point_at_the_offending_byte() {
        let h = MsgpackHandle::default();
        let err = from_slice::<Vec<i64>, _>(&hex("9301a16102"), &h).unwrap_err();
        assert_eq!(err.offset(), Some(2), "{err}");
        assert_eq!(err.path_string(), "[1]");
    }

    /// Golden bytes from ugorji/go/codec v1.2.14 (`ugorji-interop.jsonl`).
    #[test]
    fn ugorji_golden_scalars() {
        let std = MsgpackHandle::ugorji_default().canonical(true);
        let ext = MsgpackHandle::default().canonical(true);
        let piu = std.clone().positive_int_unsigned(true);
        let nfn = std.clone().no_fixed_num(true);
        let check = |bytes: Vec<u8>, want: &str| assert_eq!(bytes, hex(want), "{want}");
        check(to_vec(&127i8, &std).unwrap(), "7f");
        check(to_vec(&1i64, &piu).unwrap(), "01");
        check(to_vec(&-128i8, &piu).unwrap(), "d080");
        check(to_vec(&0i64, &nfn).unwrap(), "d000");
        check(to_vec(&0u64, &nfn).unwrap(), "cc00");
        check(to_vec(&127i8, &nfn).unwrap(), "d07f");
        check(to_vec(&1.5f64, &std).unwrap(), "cb3ff8000000000000");
        check(to_vec(&-0.0f32, &std).unwrap(), "ca80000000");
        check(to_vec(&f32::NAN, &std).unwrap(), "ca7fc00000");
        check(to_vec("", &std).unwrap(), "a0");
        check(
            to_vec(&"x".repeat(32), &std).unwrap()[..3].to_vec(),
            "da0020",
        );
        check(to_vec(&"x".repeat(32), &ext).unwrap()[..2].to_vec(), "d920");
        check(
            to_vec(&"x".repeat(65_536), &ext).unwrap()[..5].to_vec(),
            "db00010000",
        );
        check(to_vec(&Vec::<u8>::new(), &std).unwrap(), "a0");
        check(to_vec(&Vec::<u8>::new(), &ext).unwrap(), "c400");
        check(
            to_vec(&[0xdeu8, 0xad, 0xbe, 0xef], &std).unwrap(),
            "a4deadbeef",
        );
        check(
            to_vec(&[0xdeu8, 0xad, 0xbe, 0xef], &ext).unwrap(),
            "c404deadbeef",
        );
        check(
            to_vec(&vec![0u8; 65_536], &std).unwrap()[..5].to_vec(),
            "db00010000",
        );
        let micros = Time::parse_rfc3339("2021-03-04T05:06:07.123456Z").unwrap();
        check(to_vec(&micros, &ext).unwrap(), "d7ff1d6f280060406abf");
        let y2600 = Time::parse_rfc3339("2600-01-01T00:00:00.000000001Z").unwrap();
        check(
            to_vec(&y2600, &ext).unwrap(),
            "c70cff0000000100000004a0fe7280",
        );
        let pre = Time::from_unix(-1, 0).unwrap();
        check(to_vec(&pre, &std).unwrap(), "ac00000000ffffffffffffffff");
        let zone = Time::parse_rfc3339("2020-01-01T08:00:00+08:00").unwrap();
        check(to_vec(&zone, &std).unwrap(), "a45e0be100");
        let ints: Vec<i64> = (1..=26).collect();
        check(to_vec(&ints, &std).unwrap()[..3].to_vec(), "dc001a");
        // Decoding the same bytes back.
        assert_eq!(
            from_slice::<Time, _>(&hex("a45e0be100"), &std).unwrap(),
            zone.to_utc()
        );
        assert_eq!(
            from_slice::<Value, _>(&hex("a45e0be100"), &std).unwrap(),
            Value::Bytes(hex("5e0be100"))
        );
    }
}
