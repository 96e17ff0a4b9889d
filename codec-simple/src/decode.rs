//! [`SimpleDecoder`]: the decoding half of the Simple driver.

use crate::{NIL, UNIX_TO_GO_SECS};
use codec_core::scalar::Number as Num;
use codec_core::{
    DecodeFormat, Error, ErrorKind, Found, KeyHint, KeyStep, Kind, Read, Reference, Result, Seq,
    Time, Value, be_uint, float_array_in_buffer, hint_in_buffer, key_in_buffer, scalar,
};

/// Reads Simple. Unlike ugorji's lenient readers it checks the descriptor
/// group of every item (a map header is not a string); it accepts every
/// byte sequence ugorji's encoder writes and every non-minimal width.
#[derive(Debug, Clone, Copy)]
pub struct SimpleDecoder {
    /// `max_str_len`: a string, byte array or extension declaring more is
    /// refused at its header, before a reader copies it.
    max_str_len: usize,
}

impl Default for SimpleDecoder {
    fn default() -> Self {
        SimpleDecoder {
            max_str_len: usize::MAX,
        }
    }
}

impl SimpleDecoder {
    /// [`DecodeFormat::read_i64`] for everything but an integer that fits
    /// and is buffered whole.
    #[inline(never)]
    fn read_i64_slow<'de, R: Read<'de>>(r: &mut R) -> Result<i64> {
        read_number(r, "i64")?.to_i64()
    }

    /// [`DecodeFormat::read_u64`] for everything but an integer that fits
    /// and is buffered whole.
    #[inline(never)]
    fn read_u64_slow<'de, R: Read<'de>>(r: &mut R) -> Result<u64> {
        read_number(r, "u64")?.to_u64()
    }

    /// A driver.
    pub fn new() -> Self {
        SimpleDecoder::default()
    }
}

#[inline]
fn to_usize(n: u64) -> Result<usize> {
    usize::try_from(n).map_err(|_| Error::eof())
}

/// The magnitude of an integer item whose width code is `code` (0..=3: 1, 2, 4, 8 bytes).
#[inline]
fn read_magnitude<'de, R: Read<'de>>(r: &mut R, code: u8) -> Result<u64> {
    Ok(match code {
        0 => r.read_u8()? as u64,
        1 => u16::from_be_bytes(r.read_array::<2>()?) as u64,
        2 => u32::from_be_bytes(r.read_array::<4>()?) as u64,
        _ => u64::from_be_bytes(r.read_array::<8>()?),
    })
}

/// The integer item at the start of `buf` when `buf` holds it whole (a
/// positive or negative magnitude of 1, 2, 4 or 8 bytes), and its size in
/// bytes. The typed integer reads take it without a call; anything else
/// (nil, a float, another type, an item cut by the buffer's end) is
/// `None`, left to [`read_number`] and its conversions and errors.
#[inline(always)]
fn int_in_buffer(buf: &[u8]) -> Option<(Num, usize)> {
    let (&bd, rest) = buf.split_first()?;
    if !(0x08..=0x0F).contains(&bd) {
        return None;
    }
    let n = 1usize << (bd & 0x03);
    let m = match rest.first_chunk::<8>() {
        // Eight bytes at once, the item's `n` on top: no branch on the
        // width, which varies from item to item.
        Some(w) => u64::from_be_bytes(*w) >> (8 * (8 - n)),
        None => be_uint(rest, 0, n)?,
    };
    Some((if bd < 0x0C { Num::U(m) } else { Num::Neg(m) }, 1 + n))
}

/// A container length from its length-of-length code `bd & 7`.
#[inline]
fn read_len<'de, R: Read<'de>>(r: &mut R, bd: u8) -> Result<u64> {
    Ok(match bd & 0x07 {
        0 => 0,
        1 => r.read_u8()? as u64,
        2 => u16::from_be_bytes(r.read_array::<2>()?) as u64,
        3 => u32::from_be_bytes(r.read_array::<4>()?) as u64,
        4 => u64::from_be_bytes(r.read_array::<8>()?),
        _ => return Err(invalid(bd)),
    })
}

/// What the descriptor `bd` starts, or an error for an unused descriptor.
fn kind_of(bd: u8) -> Result<Kind> {
    Ok(match bd {
        0x01 => Kind::Nil,
        0x02 | 0x03 => Kind::Bool,
        0x04 => Kind::Float32,
        0x05 => Kind::Float64,
        0x08..=0x0B => Kind::Uint,
        0x0C..=0x0F => Kind::Int,
        0x18 => Kind::Time,
        0xD8..=0xDC => Kind::Str,
        0xE0..=0xE4 => Kind::Bytes,
        0xE8..=0xEC => Kind::Array,
        0xF0..=0xF4 => Kind::Map,
        0xF8..=0xFC => Kind::Ext,
        _ => return Err(invalid(bd)),
    })
}

#[cold]
fn invalid(bd: u8) -> Error {
    Error::syntax(format!("simple: invalid descriptor 0x{bd:02x}"))
}

/// [`unexpected`] for an item whose descriptor `bd` was consumed, at the
/// descriptor. The message quotes the item's value (`found text string
/// "forty"`, `found integer 42`), from the bytes after the descriptor looked
/// at without consuming them (the shared decoder could not read the item
/// again).
#[cold]
fn unexpected_in<'de, R: Read<'de>>(r: &mut R, bd: u8, expected: &'static str) -> Error {
    // The error points at the descriptor, not past it.
    let at = r.offset().saturating_sub(1);
    let found = match (kind_of(bd), r.peek_bytes(9 + Found::TEXT_HEAD)) {
        (Ok(_), Ok(ahead)) => found_after(bd, ahead).map(|f| Error::type_mismatch(expected, f)),
        _ => None,
    };
    found.unwrap_or_else(|| unexpected(bd, expected)).at(at)
}

/// A container or string length from the code `bd & 7` and the bytes after
/// the descriptor: the length and the bytes its encoding takes.
fn len_in(ahead: &[u8], bd: u8) -> Option<(usize, usize)> {
    let size = match bd & 0x07 {
        0 => return Some((0, 0)),
        c @ 1..=4 => 1usize << (c - 1),
        _ => return None,
    };
    Some((usize::try_from(be_uint(ahead, 0, size)?).ok()?, size))
}

/// The item whose descriptor `bd` was consumed, from the bytes that follow
/// it (`ahead`); `None` when they end too soon.
fn found_after(bd: u8, ahead: &[u8]) -> Option<Found<'_>> {
    Some(match bd {
        NIL => Found::Nil,
        0x02 => Found::Bool(false),
        0x03 => Found::Bool(true),
        0x04 => Found::Float(f64::from(f32::from_bits(be_uint(ahead, 0, 4)? as u32))),
        0x05 => Found::Float(f64::from_bits(be_uint(ahead, 0, 8)?)),
        0x08..=0x0B => Found::Uint(u128::from(be_uint(ahead, 0, 1 << (bd - 0x08))?)),
        0x0C..=0x0F => Found::Int(-i128::from(be_uint(ahead, 0, 1 << (bd - 0x0C))?)),
        0xD8..=0xDC => {
            let (len, size) = len_in(ahead, bd)?;
            Found::text_in(ahead, size, len)?
        }
        0xE0..=0xE4 => Found::Bytes(len_in(ahead, bd)?.0),
        0xE8..=0xEC => Found::Array(Some(len_in(ahead, bd)?.0)),
        0xF0..=0xF4 => Found::Map(Some(len_in(ahead, bd)?.0)),
        0xF8..=0xFC => {
            let (len, size) = len_in(ahead, bd)?;
            Found::Ext {
                tag: u64::from(*ahead.get(size)?),
                len,
            }
        }
        _ => return None,
    })
}

#[cold]
fn unexpected(bd: u8, expected: &'static str) -> Error {
    match kind_of(bd) {
        Ok(k) => k.mismatch(expected),
        Err(e) => e,
    }
}

#[inline]
fn read_number<'de, R: Read<'de>>(r: &mut R, expected: &'static str) -> Result<Num> {
    let bd = r.read_u8()?;
    Ok(match bd {
        NIL => Num::U(0),
        0x04 => Num::F(f32::from_be_bytes(r.read_array::<4>()?) as f64),
        0x05 => Num::F(f64::from_be_bytes(r.read_array::<8>()?)),
        0x08..=0x0B => Num::U(read_magnitude(r, bd - 0x08)?),
        0x0C..=0x0F => Num::Neg(read_magnitude(r, bd - 0x0C)?),
        _ => return Err(unexpected_in(r, bd, expected)),
    })
}

/// A string or byte array item as bytes; nil reads as empty.
#[inline]
fn read_bytes_as<'de, 's, R: Read<'de>>(
    r: &'s mut R,
    scratch: &'s mut Vec<u8>,
    expected: &'static str,
    max: usize,
) -> Result<Reference<'de, 's, [u8]>> {
    let at = r.offset();
    let bd = r.read_u8()?;
    match bd {
        0xD8..=0xDC | 0xE0..=0xE4 => {
            let n = to_usize(read_len(r, bd)?)?;
            if n > max {
                return Err(Error::str_too_long(n, max).at(at));
            }
            r.read_slice(n, scratch)
        }
        NIL => Ok(Reference::Copied(&[])),
        _ => Err(unexpected_in(r, bd, expected)),
    }
}

/// Parses Go's `time.Time.MarshalBinary` output (simple §6).
pub(crate) fn unmarshal_time(p: &[u8]) -> Result<Time> {
    let bad = |what: &str| Error::syntax(format!("simple: invalid binary time: {what}"));
    let (version, want) = match p.first() {
        Some(1) => (1, 15),
        Some(2) => (2, 16),
        _ => return Err(bad("unknown version")),
    };
    if p.len() != want {
        return Err(bad("wrong length"));
    }
    let mut secs = [0u8; 8];
    secs.copy_from_slice(&p[1..9]);
    let secs = i64::from_be_bytes(secs)
        .checked_sub(UNIX_TO_GO_SECS)
        .ok_or_else(|| bad("seconds out of range"))?;
    let nanos = u32::from_be_bytes([p[9], p[10], p[11], p[12]]);
    let minutes = i16::from_be_bytes([p[13], p[14]]) as i32;
    let rem = if version == 2 { p[15] as i8 as i32 } else { 0 };
    let t = Time::from_unix(secs, nanos).ok_or_else(|| bad("nanoseconds out of range"))?;
    Ok(if minutes == -1 && rem == 0 {
        t
    } else {
        t.with_offset(minutes * 60 + rem)
    })
}

/// The one-step float arrays of `read_f64_array` and `read_f32_array`:
/// the two-byte head `e9 n` for `n = out.len()` (1 to 255), then `n`
/// items of type byte `tag` and `N` big-endian bytes, all buffered; their
/// bytes are consumed. `false`, with nothing consumed, otherwise.
#[inline(always)]
fn float_array<'de, R: Read<'de>, T, const N: usize>(
    r: &mut R,
    out: &mut [T],
    tag: u8,
    from_be: fn([u8; N]) -> T,
) -> Result<bool> {
    let taken = match r.fill_buf()? {
        [0xe9, rest @ ..] if !out.is_empty() => {
            float_array_in_buffer(rest, out, (0, 255), tag, from_be)
        }
        _ => None,
    };
    Ok(taken.map(|n| r.consume(1 + n)).is_some())
}

impl DecodeFormat for SimpleDecoder {
    const NAME: &'static str = "simple";
    const NIL_IS_ZERO: bool = true;

    fn side(&self) -> Option<Self> {
        Some(*self)
    }

    #[inline]
    fn limit_str_len(&mut self, max: usize) {
        self.max_str_len = max;
    }

    #[inline]
    fn peek_kind<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Kind> {
        kind_of(r.peek()?.ok_or_else(Error::eof)?)
    }

    /// Every scalar whose bytes are all buffered goes straight into its
    /// `Value`: nil, bools, floats, integers, and strings and byte arrays.
    /// Anything else, including text that is not UTF-8, a string longer
    /// than `max_str_len` or a negative integer below `i64::MIN`, takes
    /// the generic path, which gives the value or the error.
    #[inline]
    fn read_scalar_value<'de, R: Read<'de>, T>(
        &mut self,
        r: &mut R,
        _scratch: &mut Vec<u8>,
        opts: &codec_core::DecodeOptions,
        put: impl FnOnce(Value) -> T,
    ) -> Result<Option<T>> {
        let buf = r.fill_buf()?;
        let Some(&bd) = buf.first() else {
            return Ok(None);
        };
        let (v, len) = match bd {
            NIL => (Value::Nil, 1),
            0x02 => (Value::Bool(false), 1),
            0x03 => (Value::Bool(true), 1),
            0x04 | 0x05 | 0x08..=0x0F => {
                let n = match bd {
                    0x04 => 4,
                    0x05 => 8,
                    _ => 1 << (bd & 0x03),
                };
                let Some(bits) = be_uint(buf, 1, n) else {
                    return Ok(None);
                };
                let v = match bd {
                    0x04 => Value::F32(f32::from_bits(bits as u32)),
                    0x05 => Value::F64(f64::from_bits(bits)),
                    0x08..=0x0B => scalar::uint(bits, opts),
                    _ => match scalar::neg(bits, opts) {
                        Some(v) => v,
                        None => return Ok(None),
                    },
                };
                (v, 1 + n)
            }
            0xD8..=0xDC | 0xE0..=0xE4 => {
                let Some((len, size)) = len_in(&buf[1..], bd) else {
                    return Ok(None);
                };
                let head = 1 + size;
                let Some((v, end)) = scalar::string_in(buf, head, len, bd <= 0xDC, opts) else {
                    return Ok(None);
                };
                r.consume(end);
                return Ok(Some(put(v)));
            }
            _ => return Ok(None),
        };
        r.consume(len);
        Ok(Some(put(v)))
    }

    /// `e8`, the array with no length bytes (an explicit zero length goes
    /// the general way).
    #[inline(always)]
    fn try_empty_array<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        if r.peek()? == Some(crate::BASE_ARRAY) {
            r.read_u8()?;
            return Ok(true);
        }
        Ok(false)
    }

    #[inline]
    fn try_nil<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        if r.peek()? == Some(NIL) {
            r.read_u8()?;
            return Ok(true);
        }
        Ok(false)
    }

    #[inline]
    fn read_bool<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        match r.read_u8()? {
            NIL | 0x02 => Ok(false),
            0x03 => Ok(true),
            bd => Err(unexpected_in(r, bd, "bool")),
        }
    }

    /// An integer that fits, whole in the buffer, inline; the rest in
    /// `read_i64_slow`.
    #[inline]
    fn read_i64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<i64> {
        match int_in_buffer(r.fill_buf()?) {
            Some((Num::U(u), size)) if u <= i64::MAX as u64 => {
                r.consume(size);
                Ok(u as i64)
            }
            Some((Num::Neg(m), size)) if m <= 1 << 63 => {
                r.consume(size);
                Ok(0i64.wrapping_sub(m as i64))
            }
            _ => Self::read_i64_slow(r),
        }
    }

    /// As [`DecodeFormat::read_i64`], with `read_u64_slow`.
    #[inline]
    fn read_u64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u64> {
        match int_in_buffer(r.fill_buf()?) {
            Some((Num::U(u) | Num::Neg(u @ 0), size)) => {
                r.consume(size);
                Ok(u)
            }
            _ => Self::read_u64_slow(r),
        }
    }

    #[inline]
    fn read_f64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<f64> {
        Ok(read_number(r, "f64")?.to_f64())
    }

    /// An array of 1 to 255 doubles in the encoder's layout (`e9 n`, then
    /// `05` items), all buffered. Any other layout is read item by item.
    /// The driver keeps no state between items.
    #[inline(always)]
    fn read_f64_array<'de, R: Read<'de>>(&mut self, r: &mut R, out: &mut [f64]) -> Result<bool> {
        float_array(r, out, 0x05, f64::from_be_bytes)
    }

    /// As `read_f64_array`, of singles (`04` items).
    #[inline(always)]
    fn read_f32_array<'de, R: Read<'de>>(&mut self, r: &mut R, out: &mut [f32]) -> Result<bool> {
        float_array(r, out, 0x04, f32::from_be_bytes)
    }

    #[inline]
    fn read_f32<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<f32> {
        if r.peek()? == Some(0x04) {
            // Exact bits (a round trip through f64 would quiet signaling NaNs).
            r.read_u8()?;
            return Ok(f32::from_be_bytes(r.read_array::<4>()?));
        }
        let v = self.read_f64(r)?;
        let n = v as f32;
        if v.is_finite() && n.is_infinite() {
            return Err(Error::out_of_range("f32", format_args!("{v:?}")));
        }
        Ok(n)
    }

    #[inline]
    fn read_str<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, str>> {
        read_bytes_as(r, scratch, "text string", self.max_str_len)?.into_str()
    }

    #[inline]
    fn read_str_bytes<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        read_bytes_as(r, scratch, "text string", self.max_str_len)
    }

    #[inline]
    fn read_bytes<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        read_bytes_as(r, scratch, "byte string", self.max_str_len)
    }

    #[inline]
    fn array_begin<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Seq> {
        let bd = r.read_u8()?;
        if !(0xE8..=0xEC).contains(&bd) {
            return Err(unexpected_in(r, bd, "array"));
        }
        let n = read_len(r, bd)?;
        Ok(Seq::definite(to_usize(n)?))
    }

    #[inline]
    fn array_next<'de, R: Read<'de>>(&mut self, _r: &mut R, seq: &mut Seq) -> Result<bool> {
        Ok(seq.next_definite(seq.len.unwrap_or(0)))
    }

    #[inline]
    fn map_begin<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Seq> {
        let bd = r.read_u8()?;
        if !(0xF0..=0xF4).contains(&bd) {
            return Err(unexpected_in(r, bd, "map"));
        }
        let n = read_len(r, bd)?;
        Ok(Seq::definite(to_usize(n)?))
    }

    #[inline]
    fn map_next<'de, R: Read<'de>>(&mut self, _r: &mut R, seq: &mut Seq) -> Result<bool> {
        Ok(seq.next_definite(seq.len.unwrap_or(0)))
    }

    /// A string key of up to 255 bytes (a one-byte length) whole in the
    /// buffer is handed over from there.
    #[inline]
    fn map_next_key<'de, R: Read<'de>, K>(
        &mut self,
        r: &mut R,
        seq: &mut Seq,
        _hint: Option<&KeyHint>,
        key: impl FnMut(&[u8], u64, bool) -> Result<K>,
    ) -> Result<KeyStep<K>> {
        if !seq.next_definite(seq.len.unwrap_or(0)) {
            return Ok(KeyStep::End);
        }
        key_in_buffer(
            r,
            |buf| match *buf {
                [0xD9, n, ..] => Some((2, usize::from(n))),
                _ => None,
            },
            key,
        )
    }

    /// A string key that is the hint, with a one-byte length, whole in the
    /// buffer.
    #[inline(always)]
    fn map_next_is<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        seq: &mut Seq,
        hint: &KeyHint,
    ) -> Result<bool> {
        match u8::try_from(hint.as_bytes().len()) {
            Ok(n) => hint_in_buffer(r, seq, &[0xD9, n], hint),
            Err(_) => Ok(false),
        }
    }

    fn read_time<'de, R: Read<'de>>(&mut self, r: &mut R, scratch: &mut Vec<u8>) -> Result<Time> {
        match r.read_u8()? {
            NIL => Ok(Time::GO_ZERO),
            0x18 => {
                let n = r.read_u8()? as usize;
                let p = r.read_slice(n, scratch)?;
                unmarshal_time(&p)
            }
            bd => Err(unexpected_in(r, bd, "timestamp")),
        }
    }

    fn read_ext<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<(u64, Reference<'de, 's, [u8]>)> {
        let at = r.offset();
        let bd = r.read_u8()?;
        if !(0xF8..=0xFC).contains(&bd) {
            return Err(unexpected_in(r, bd, "extension"));
        }
        let n = to_usize(read_len(r, bd)?)?;
        if n > self.max_str_len {
            return Err(Error::str_too_long(n, self.max_str_len).at(at));
        }
        let tag = r.read_u8()?;
        Ok((tag as u64, r.read_slice(n, scratch)?))
    }

    fn skip<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        scratch: &mut Vec<u8>,
        depth: u32,
    ) -> Result<()> {
        let bd = r.read_u8()?;
        match bd {
            0x01..=0x03 => Ok(()),
            0x04 => r.skip(4),
            0x05 => r.skip(8),
            0x08..=0x0F => r.skip(1 << (bd & 0x03)),
            0x18 => {
                let n = r.read_u8()? as usize;
                r.skip(n)
            }
            0xD8..=0xDC | 0xE0..=0xE4 => {
                let n = to_usize(read_len(r, bd)?)?;
                r.skip(n)
            }
            0xF8..=0xFC => {
                let n = to_usize(read_len(r, bd)?)?;
                r.skip(1)?;
                r.skip(n)
            }
            0xE8..=0xEC | 0xF0..=0xF4 => {
                // Past the budget, the error points at the descriptor byte.
                let inner = depth.checked_sub(1).ok_or_else(|| {
                    Error::new(ErrorKind::DepthLimitExceeded { max: 0 }).at(r.offset() - 1)
                })?;
                let n = read_len(r, bd)?;
                let items = if bd >= 0xF0 {
                    n.checked_mul(2)
                        .ok_or_else(|| Error::syntax("simple: map length overflows"))?
                } else {
                    n
                };
                for _ in 0..items {
                    self.skip(r, scratch, inner)?;
                }
                Ok(())
            }
            _ => Err(invalid(bd)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SimpleHandle;
    use codec_core::{Value, from_slice, to_vec};

    fn hex(s: &str) -> Vec<u8> {
        let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn dynamic_kinds() {
        let h = SimpleHandle::default();
        let v = |s: &str| from_slice::<Value, _>(&hex(s), &h).unwrap();
        assert_eq!(v("08 00"), Value::Uint(0));
        assert_eq!(v("0c 01"), Value::Int(-1));
        assert_eq!(v("0c 00"), Value::Int(0));
        assert_eq!(v("0f 8000000000000000"), Value::Int(i64::MIN));
        assert_eq!(v("04 3fc00000"), Value::F32(1.5));
        assert_eq!(v("05 3ff8000000000000"), Value::F64(1.5));
        assert_eq!(v("f9 02 05 0102"), Value::Ext(5, vec![1, 2].into()));
        assert_eq!(v("f8 07"), Value::Ext(7, vec![].into()));
        assert_eq!(v("e0"), Value::Bytes(vec![]));
        assert_eq!(v("d8"), Value::from(""));
        assert!(from_slice::<i64, _>(&hex("0f 8000000000000001"), &h).is_err());
        assert!(from_slice::<u64, _>(&hex("0c 01"), &h).is_err());
        assert!(from_slice::<i64, _>(&hex("0b 8000000000000000"), &h).is_err());
        assert!(from_slice::<f32, _>(&hex("05 7e37e43c8800759c"), &h).is_err());
    }

    #[test]
    fn time_layout_reads_back() {
        let h = SimpleHandle::default();
        let cases = [
            (
                "18 0f 01 0000000ed59f54a5 00000006 ffff",
                "2020-01-02T03:04:05.000000006Z",
            ),
            (
                "18 0f 01 0000000e64c1ff80 00000000 ffff",
                "1960-01-01T00:00:00Z",
            ),
            (
                "18 0f 01 0000000ed59f9af5 075bcd15 fed4",
                "2020-01-02T03:04:05.123456789-05:00",
            ),
        ];
        for (b, s) in cases {
            let want = Time::parse_rfc3339(s).unwrap();
            let got: Time = from_slice(&hex(b), &h).unwrap();
            assert_eq!((got, got.offset()), (want, want.offset()), "{b}");
        }
        // A zero offset that is not UTC stays a fixed zero offset.
        let t: Time = from_slice(&hex("18 0f 01 0000000ed59f54a5 00000000 0000"), &h).unwrap();
        assert_eq!(t.offset(), Some(0));
        // Version 2: the signed seconds remainder of the offset (Go reads it unsigned).
        let t: Time = from_slice(&hex("18 10 02 0000000ed59f54c3 00000000 0000 e2"), &h).unwrap();
        assert_eq!(t.offset(), Some(-30));
        assert_eq!(t.unix_seconds(), 1_577_934_245 + 30);
        // nil is Go's zero time, which writes back as nil.
        let z: Time = from_slice(&hex("01"), &h).unwrap();
        assert_eq!(to_vec(&z, &h).unwrap(), [0x01]);
        assert_eq!(z, Time::GO_ZERO);
    }

    #[test]
    fn zero_values_read_back_from_nil() {
        let h = SimpleHandle::default().enc_zero_values_as_nil(true);
        let doc = (
            false,
            0u8,
            0i64,
            0.0f32,
            -0.0f64,
            String::new(),
            vec![0u8; 0],
        );
        let b = to_vec(&doc, &h).unwrap();
        assert_eq!(b, hex("e9 07 01 01 01 01 01 01 e0"));
        let back: (bool, u8, i64, f32, f64, String, Vec<u8>) = from_slice(&b, &h).unwrap();
        assert_eq!(back, (false, 0, 0, 0.0, 0.0, String::new(), vec![]));
        // Map keys keep their zero values.
        let m: std::collections::BTreeMap<String, bool> = [(String::new(), false)].into();
        assert_eq!(to_vec(&m, &h).unwrap(), hex("f1 01 d8 01"));
    }

    /// The inline integer reads agree with the general path
    /// (`read_number` and its conversions) on every descriptor byte, on
    /// magnitudes at the edges of each width and of the target's range,
    /// whole, cut short and followed by more bytes.
    #[test]
    fn inline_integer_reads_agree_with_the_general_path() {
        use codec_core::SliceReader;
        let heads = (0x08..=0x0Fu8).map(|bd| (bd, 1usize << (bd & 0x03)));
        let inputs = codec_test_support::integer_items(heads);
        let outcome = |res: Result<u64>, r: &SliceReader<'_>| match res {
            Ok(v) => Ok((v, r.offset())),
            Err(e) => Err(e.to_string()),
        };
        for b in &inputs {
            let mut d = SimpleDecoder::new();
            let (mut fast, mut slow) = (SliceReader::new(b), SliceReader::new(b));
            let got = d.read_i64(&mut fast).map(|v| v as u64);
            let want = SimpleDecoder::read_i64_slow(&mut slow).map(|v| v as u64);
            assert_eq!(outcome(got, &fast), outcome(want, &slow), "i64 {b:02x?}");
            let (mut fast, mut slow) = (SliceReader::new(b), SliceReader::new(b));
            let got = d.read_u64(&mut fast);
            let want = SimpleDecoder::read_u64_slow(&mut slow);
            assert_eq!(outcome(got, &fast), outcome(want, &slow), "u64 {b:02x?}");
        }
    }
}
