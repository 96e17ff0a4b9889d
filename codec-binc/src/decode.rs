//! [`BincDecoder`]: the decoding half of the Binc driver.

use crate::GO_NAN_BITS;
use codec_core::scalar::Number as Num;
use codec_core::{
    DecodeFormat, Error, ErrorKind, Found, KeyHint, KeyStep, Kind, Read, Reference, Result, Seq,
    Time, Value, be_uint, float_array_in_buffer, hint_in_buffer, key_in_buffer, scalar,
};
use std::collections::HashMap;

/// Reads Binc. One decoder keeps one symbol table for its whole life, so a
/// stream written by one encoder must be read by one decoder, in order.
#[derive(Debug, Clone)]
pub struct BincDecoder {
    symbols: HashMap<u16, Box<[u8]>>,
    max_symbols: usize,
    /// Bytes of text read through symbol references so far
    /// ([`SYMBOL_EXPANSION`](crate::SYMBOL_EXPANSION)).
    expanded: u64,
    /// `max_str_len`: a string, byte array, symbol definition or extension
    /// declaring more is refused at its header, before a reader copies it.
    max_str_len: usize,
}

impl Default for BincDecoder {
    fn default() -> Self {
        BincDecoder {
            symbols: HashMap::new(),
            max_symbols: crate::MAX_SYMBOL_IDS,
            expanded: 0,
            max_str_len: usize::MAX,
        }
    }
}

/// The error for symbol references past the decoder's budget.
#[cold]
fn symbol_expansion(expanded: u64, budget: u64) -> Error {
    Error::new(ErrorKind::LengthLimitExceeded {
        limit: "symbol_expansion",
        len: expanded,
        max: budget,
    })
}

impl BincDecoder {
    /// A driver with an empty symbol table.
    pub fn new() -> Self {
        BincDecoder::default()
    }

    /// Limits the symbol table to `n` distinct symbols
    /// (see [`BincHandle::max_symbols`](crate::BincHandle::max_symbols)).
    pub fn with_max_symbols(mut self, n: usize) -> Self {
        self.max_symbols = n;
        self
    }

    /// Number of symbols defined so far in the input.
    pub fn symbol_count(&self) -> usize {
        self.symbols.len()
    }

    /// Reads a symbol (its descriptor `bd` already consumed): a definition
    /// stores the text, a reference looks it up (an unknown id reads as the
    /// empty string, as in ugorji). With `text` false (skipping), a
    /// reference's text is not copied and gives the empty string.
    ///
    /// The texts references copy count against the decoder's budget of
    /// [`SYMBOL_EXPANSION`](crate::SYMBOL_EXPANSION) bytes per input byte
    /// read: a reference of two or three bytes stands for a text of any
    /// length, so without it an input could make a decoder copy (and its
    /// caller keep) the square of its own length.
    fn read_symbol<'de, 's, R: Read<'de>>(
        &mut self,
        bd: u8,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
        text: bool,
    ) -> Result<Reference<'de, 's, [u8]>> {
        let at = r.offset().saturating_sub(1);
        let id = if bd & 0x08 != 0 {
            u16::from_be_bytes(r.read_array::<2>()?)
        } else {
            r.read_u8()? as u16
        };
        if bd & 0x04 != 0 {
            let len = match bd & 0x03 {
                0 => r.read_u8()? as u64,
                1 => u16::from_be_bytes(r.read_array::<2>()?) as u64,
                2 => u32::from_be_bytes(r.read_array::<4>()?) as u64,
                _ => u64::from_be_bytes(r.read_array::<8>()?),
            };
            if self.symbols.len() >= self.max_symbols && !self.symbols.contains_key(&id) {
                return Err(Error::new(ErrorKind::LengthLimitExceeded {
                    limit: "max_symbols",
                    len: self.symbols.len() as u64 + 1,
                    max: self.max_symbols as u64,
                })
                .at(at));
            }
            let len = to_usize(len)?;
            if len > self.max_str_len {
                return Err(Error::str_too_long(len, self.max_str_len).at(at));
            }
            let text = r.read_slice(len, scratch)?;
            self.symbols.insert(id, Box::from(&*text));
            Ok(text)
        } else {
            scratch.clear();
            if let Some(s) = self.symbols.get(&id).filter(|_| text) {
                self.expanded += s.len() as u64;
                let budget = crate::SYMBOL_EXPANSION.saturating_mul(r.offset());
                if self.expanded > budget {
                    return Err(symbol_expansion(self.expanded, budget).at(at));
                }
                scratch.extend_from_slice(s);
            }
            Ok(Reference::Copied(&scratch[..]))
        }
    }

    /// [`DecodeFormat::read_i64`] for everything but an integer that fits
    /// and is buffered whole.
    #[inline(never)]
    fn read_i64_slow<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<i64> {
        self.read_number(r, "i64")?.to_i64()
    }

    /// [`DecodeFormat::read_u64`] for everything but an integer that fits
    /// and is buffered whole.
    #[inline(never)]
    fn read_u64_slow<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u64> {
        self.read_number(r, "u64")?.to_u64()
    }

    /// Reads any numeric item (or nil, which reads as zero).
    fn read_number<'de, R: Read<'de>>(&mut self, r: &mut R, expected: &'static str) -> Result<Num> {
        let bd = r.read_u8()?;
        let vs = bd & 0x0F;
        Ok(match bd >> 4 {
            0x0 => match bd {
                0x00 | 0x07 => Num::U(0),
                0x03 => Num::F(f64::from_bits(GO_NAN_BITS)),
                0x04 => Num::F(f64::INFINITY),
                0x05 => Num::F(f64::NEG_INFINITY),
                0x06 => Num::F(0.0),
                0x08 => Num::Neg(1),
                _ => return Err(unexpected_in(r, bd, expected)),
            },
            0x1 if vs < 8 => Num::U(read_be(r, vs as usize + 1)?),
            0x2 if vs < 8 => Num::Neg(read_be(r, vs as usize + 1)?),
            0x3 => Num::F(read_float(r, bd)?),
            0x9 => Num::U(vs as u64 + 1),
            _ => return Err(unexpected_in(r, bd, expected)),
        })
    }

    /// Skips one item; `depth` more levels of nesting are allowed.
    fn skip_item<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        scratch: &mut Vec<u8>,
        depth: u32,
    ) -> Result<()> {
        let bd = r.read_u8()?;
        let vs = bd & 0x0F;
        match bd >> 4 {
            0x0 if bd <= 0x08 => Ok(()),
            0x1 | 0x2 if vs < 8 => r.skip(vs as usize + 1),
            0x3 => read_float(r, bd).map(drop),
            0x4 | 0x5 => {
                let n = to_usize(read_len(r, vs)?)?;
                r.skip(n)
            }
            0x6 | 0x7 => {
                // Past the budget, the error points at the descriptor byte.
                let inner = depth.checked_sub(1).ok_or_else(|| {
                    Error::new(ErrorKind::DepthLimitExceeded { max: 0 }).at(r.offset() - 1)
                })?;
                let n = read_len(r, vs)?;
                let items = if bd >> 4 == 0x7 {
                    n.checked_mul(2)
                        .ok_or_else(|| Error::syntax("binc: map length overflows"))?
                } else {
                    n
                };
                for _ in 0..items {
                    self.skip_item(r, scratch, inner)?;
                }
                Ok(())
            }
            0x8 if vs > 0 => r.skip(vs as usize),
            0x9 => Ok(()),
            0xB => self.read_symbol(bd, r, scratch, false).map(drop),
            0xF => {
                let n = to_usize(read_len(r, vs)?)?;
                r.skip(1)?;
                r.skip(n)
            }
            _ => Err(invalid(bd)),
        }
    }
}

#[inline]
fn to_usize(n: u64) -> Result<usize> {
    usize::try_from(n).map_err(|_| Error::eof())
}

/// The integer item at the start of `buf` when `buf` holds it whole (a
/// small positive, or a positive or negative magnitude of one to eight
/// bytes), and its size in bytes. The typed integer reads take it without
/// a call; anything else (zero and the other specials, a float, another
/// type, an item cut by the buffer's end) is `None`, left to
/// [`BincDecoder::read_number`] and its conversions and errors.
#[inline(always)]
fn int_in_buffer(buf: &[u8]) -> Option<(Num, usize)> {
    let (&bd, rest) = buf.split_first()?;
    let vs = usize::from(bd & 0x0F);
    match bd >> 4 {
        0x9 => Some((Num::U(vs as u64 + 1), 1)),
        vd @ (0x1 | 0x2) if vs < 8 => {
            let n = vs + 1;
            let m = match rest.first_chunk::<8>() {
                // Eight bytes at once, the item's `n` on top.
                Some(w) => u64::from_be_bytes(*w) >> (8 * (8 - n)),
                None => be_uint(rest, 0, n)?,
            };
            Some((if vd == 0x1 { Num::U(m) } else { Num::Neg(m) }, 1 + n))
        }
        _ => None,
    }
}

/// A big-endian unsigned integer of `n` (1..=8) bytes.
#[inline]
fn read_be<'de, R: Read<'de>>(r: &mut R, n: usize) -> Result<u64> {
    Ok(match n {
        1 => r.read_u8()? as u64,
        2 => u16::from_be_bytes(r.read_array::<2>()?) as u64,
        4 => u32::from_be_bytes(r.read_array::<4>()?) as u64,
        8 => u64::from_be_bytes(r.read_array::<8>()?),
        _ => {
            let mut v = 0u64;
            for _ in 0..n {
                v = (v << 8) | r.read_u8()? as u64;
            }
            v
        }
    })
}

/// A container length from the low nibble of its descriptor.
#[inline]
fn read_len<'de, R: Read<'de>>(r: &mut R, vs: u8) -> Result<u64> {
    Ok(match vs {
        0 => r.read_u8()? as u64,
        1 => u16::from_be_bytes(r.read_array::<2>()?) as u64,
        2 => u32::from_be_bytes(r.read_array::<4>()?) as u64,
        3 => u64::from_be_bytes(r.read_array::<8>()?),
        n => (n - 4) as u64,
    })
}

/// A float item (vd 3) whose descriptor `bd` was consumed.
fn read_float<'de, R: Read<'de>>(r: &mut R, bd: u8) -> Result<f64> {
    let n = match bd & 0x07 {
        1 => 4,
        3 => 8,
        _ => {
            return Err(Error::unsupported(format!(
                "binc float descriptor 0x{bd:02x} (only binary32 and binary64 are supported)"
            )));
        }
    };
    if bd & 0x08 == 0 {
        // Whole: the bytes at once.
        return Ok(if n == 4 {
            f32::from_be_bytes(r.read_array::<4>()?) as f64
        } else {
            f64::from_be_bytes(r.read_array::<8>()?)
        });
    }
    let l = r.read_u8()? as usize;
    if l > n {
        return Err(Error::syntax(format!(
            "binc: pruned float of {l} bytes is longer than its {n}-byte kind"
        )));
    }
    let mut buf = [0u8; 8];
    let head = r.peek_bytes(l)?;
    if let Some(kept) = head.get(..l) {
        buf[..l].copy_from_slice(kept);
        r.skip(l)?;
    } else {
        // Cut short: read what is there, and fail where the input ends.
        for b in &mut buf[..l] {
            *b = r.read_u8()?;
        }
    }
    Ok(if n == 4 {
        f32::from_be_bytes([buf[0], buf[1], buf[2], buf[3]]) as f64
    } else {
        f64::from_be_bytes(buf)
    })
}

/// What the descriptor `bd` starts, or the error for a descriptor Binc
/// (as ugorji implements it) does not have.
fn kind_of(bd: u8) -> Result<Kind> {
    let vs = bd & 0x0F;
    Ok(match bd >> 4 {
        0x0 => match bd {
            0x00 => Kind::Nil,
            0x01 | 0x02 => Kind::Bool,
            0x03..=0x06 => Kind::Float64,
            0x07 => Kind::Uint,
            0x08 => Kind::Int,
            _ => return Err(invalid(bd)),
        },
        0x1 if vs < 8 => Kind::Uint,
        0x2 if vs < 8 => Kind::Int,
        0x3 => match vs & 0x07 {
            1 => Kind::Float32,
            3 => Kind::Float64,
            _ => return Err(invalid(bd)),
        },
        0x4 | 0xB => Kind::Str,
        0x5 => Kind::Bytes,
        0x6 => Kind::Array,
        0x7 => Kind::Map,
        0x8 => Kind::Time,
        0x9 => Kind::Uint,
        0xF => Kind::Ext,
        _ => return Err(invalid(bd)),
    })
}

#[cold]
fn invalid(bd: u8) -> Error {
    let what = match bd >> 4 {
        0x1 | 0x2 => "integers wider than 64 bits are not supported",
        0x3 => "only binary32 and binary64 floats are supported",
        0xA => "UTF-16/32 strings are not supported",
        0xC => "decimals are not supported",
        0x0 => "unknown special value",
        0x8 => "empty timestamp",
        _ => "unassigned descriptor",
    };
    Error::syntax(format!("binc: invalid descriptor 0x{bd:02x}: {what}"))
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
    let found = match (kind_of(bd), r.peek_bytes(17 + Found::TEXT_HEAD)) {
        (Ok(_), Ok(ahead)) => found_after(bd, ahead).map(|f| Error::type_mismatch(expected, f)),
        _ => None,
    };
    found.unwrap_or_else(|| unexpected(bd, expected)).at(at)
}

/// A length from the low nibble `vs` of a descriptor and the bytes after it:
/// the length and the bytes its encoding takes.
fn len_in(ahead: &[u8], vs: u8) -> Option<(usize, usize)> {
    let (len, size) = match vs {
        0..=3 => (be_uint(ahead, 0, 1 << vs)?, 1 << vs),
        n => (u64::from(n - 4), 0),
    };
    Some((usize::try_from(len).ok()?, size))
}

/// The item whose descriptor `bd` was consumed, from the bytes that follow
/// it (`ahead`); `None` when they end too soon or it is a symbol reference
/// (its text is in the symbol table).
fn found_after(bd: u8, ahead: &[u8]) -> Option<Found<'_>> {
    let vs = bd & 0x0F;
    Some(match bd >> 4 {
        0x0 => match bd {
            0x00 => Found::Nil,
            0x01 => Found::Bool(false),
            0x02 => Found::Bool(true),
            0x03 => Found::Float(f64::from_bits(GO_NAN_BITS)),
            0x04 => Found::Float(f64::INFINITY),
            0x05 => Found::Float(f64::NEG_INFINITY),
            0x06 => Found::Float(0.0),
            0x07 => Found::Uint(0),
            0x08 => Found::Int(-1),
            _ => return None,
        },
        0x1 if vs < 8 => Found::Uint(u128::from(be_uint(ahead, 0, usize::from(vs) + 1)?)),
        0x2 if vs < 8 => Found::Int(-i128::from(be_uint(ahead, 0, usize::from(vs) + 1)?)),
        0x3 => {
            let n = match bd & 0x07 {
                1 => 4,
                3 => 8,
                _ => return None,
            };
            // A pruned float keeps only its leading bytes.
            let (start, l) = if bd & 0x08 != 0 {
                (1, usize::from(*ahead.first()?).min(n))
            } else {
                (0, n)
            };
            let bits = be_uint(ahead, start, l)?
                .checked_shl(8 * (n - l) as u32)
                .unwrap_or(0);
            Found::Float(if n == 4 {
                f64::from(f32::from_bits(bits as u32))
            } else {
                f64::from_bits(bits)
            })
        }
        0x4 => {
            let (len, size) = len_in(ahead, vs)?;
            Found::text_in(ahead, size, len)?
        }
        0x5 => Found::Bytes(len_in(ahead, vs)?.0),
        0x6 => Found::Array(Some(len_in(ahead, vs)?.0)),
        0x7 => Found::Map(Some(len_in(ahead, vs)?.0)),
        0x9 => Found::Uint(u128::from(vs) + 1),
        0xB if bd & 0x04 != 0 => {
            // A symbol definition: its id, its length, then its text.
            let id = if bd & 0x08 != 0 { 2 } else { 1 };
            let size = 1usize << (bd & 0x03);
            let len = usize::try_from(be_uint(ahead, id, size)?).ok()?;
            Found::text_in(ahead, id + size, len)?
        }
        0xF => {
            let (len, size) = len_in(ahead, vs)?;
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
fn eof_or_peek<'de, R: Read<'de>>(r: &mut R) -> Result<u8> {
    r.peek()?.ok_or_else(Error::eof)
}

impl DecodeFormat for BincDecoder {
    const NAME: &'static str = "binc";
    const NIL_IS_ZERO: bool = true;

    /// A fresh symbol table and budget, the same `max_symbols`: extension
    /// contents are encoded on their own.
    fn side(&self) -> Option<Self> {
        let mut side = BincDecoder::new().with_max_symbols(self.max_symbols);
        side.max_str_len = self.max_str_len;
        Some(side)
    }

    #[inline]
    fn limit_str_len(&mut self, max: usize) {
        self.max_str_len = max;
    }

    #[inline]
    fn peek_kind<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Kind> {
        kind_of(eof_or_peek(r)?)
    }

    /// Every scalar whose bytes are all buffered goes straight into its
    /// `Value`: nil, bools, the special floats and integers, integers of
    /// up to 8 bytes, unpruned binary32/binary64 floats, and strings and
    /// byte arrays. Symbols (which change the decoder's table), pruned
    /// floats and anything else, including text that is not UTF-8 or a
    /// string longer than `max_str_len`, take the generic path, which
    /// gives the value or the error.
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
        let vs = bd & 0x0F;
        let (v, len) = match bd >> 4 {
            0x0 => match bd {
                0x00 => (Value::Nil, 1),
                0x01 => (Value::Bool(false), 1),
                0x02 => (Value::Bool(true), 1),
                0x03 => (Value::F64(f64::from_bits(GO_NAN_BITS)), 1),
                0x04 => (Value::F64(f64::INFINITY), 1),
                0x05 => (Value::F64(f64::NEG_INFINITY), 1),
                0x06 => (Value::F64(0.0), 1),
                0x07 => (scalar::uint(0, opts), 1),
                0x08 => (scalar::int(-1, opts), 1),
                _ => return Ok(None),
            },
            0x1 | 0x2 if vs < 8 => {
                let n = usize::from(vs) + 1;
                let Some(m) = be_uint(buf, 1, n) else {
                    return Ok(None);
                };
                let v = if bd >> 4 == 0x1 {
                    scalar::uint(m, opts)
                } else {
                    match scalar::neg(m, opts) {
                        Some(v) => v,
                        None => return Ok(None),
                    }
                };
                (v, 1 + n)
            }
            0x3 => {
                let v = match (bd, be_uint(buf, 1, if bd == 0x31 { 4 } else { 8 })) {
                    (0x31, Some(bits)) => Value::F32(f32::from_bits(bits as u32)),
                    (0x33, Some(bits)) => Value::F64(f64::from_bits(bits)),
                    _ => return Ok(None),
                };
                (v, if bd == 0x31 { 5 } else { 9 })
            }
            0x4 | 0x5 => {
                let Some((len, size)) = len_in(&buf[1..], vs) else {
                    return Ok(None);
                };
                let head = 1 + size;
                let Some((v, end)) = scalar::string_in(buf, head, len, bd >> 4 == 0x4, opts) else {
                    return Ok(None);
                };
                r.consume(end);
                return Ok(Some(put(v)));
            }
            0x9 => (scalar::uint(u64::from(vs) + 1, opts), 1),
            _ => return Ok(None),
        };
        r.consume(len);
        Ok(Some(put(v)))
    }

    /// `64`, an array whose length 0 is in its descriptor byte (lengths in
    /// bytes after it go the general way).
    #[inline(always)]
    fn try_empty_array<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        if r.peek()? == Some((crate::VD_ARRAY << 4) | 4) {
            r.read_u8()?;
            return Ok(true);
        }
        Ok(false)
    }

    #[inline]
    fn try_nil<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        if r.peek()? == Some(0x00) {
            r.read_u8()?;
            return Ok(true);
        }
        Ok(false)
    }

    #[inline]
    fn read_bool<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        match r.read_u8()? {
            0x00 | 0x01 => Ok(false),
            0x02 => Ok(true),
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
            _ => self.read_i64_slow(r),
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
            _ => self.read_u64_slow(r),
        }
    }

    #[inline]
    fn read_f64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<f64> {
        if r.peek()? == Some(0x33) {
            // A whole double, the common case of a float field: its bits.
            r.read_u8()?;
            return Ok(f64::from_be_bytes(r.read_array::<8>()?));
        }
        Ok(self.read_number(r, "f64")?.to_f64())
    }

    /// An array of up to 11 doubles with its length in the head byte
    /// (`0x64 + n`), each written whole (`33`, not pruned), all buffered.
    /// Any other array (a pruned, zero or special item, a longer head) is
    /// read item by item. The driver keeps no state between items.
    #[inline(always)]
    fn read_f64_array<'de, R: Read<'de>>(&mut self, r: &mut R, out: &mut [f64]) -> Result<bool> {
        let taken = float_array_in_buffer(r.fill_buf()?, out, (0x64, 11), 0x33, f64::from_be_bytes);
        Ok(taken.map(|n| r.consume(n)).is_some())
    }

    /// As `read_f64_array`, of singles (`31` items, which Binc never prunes).
    #[inline(always)]
    fn read_f32_array<'de, R: Read<'de>>(&mut self, r: &mut R, out: &mut [f32]) -> Result<bool> {
        let taken = float_array_in_buffer(r.fill_buf()?, out, (0x64, 11), 0x31, f32::from_be_bytes);
        Ok(taken.map(|n| r.consume(n)).is_some())
    }

    #[inline]
    fn read_f32<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<f32> {
        if r.peek()? == Some(0x31) {
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
        self.read_bytes_as(r, scratch, "text string")?.into_str()
    }

    #[inline]
    fn read_str_bytes<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        self.read_bytes_as(r, scratch, "text string")
    }

    #[inline]
    fn read_bytes<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        self.read_bytes_as(r, scratch, "byte string")
    }

    #[inline]
    fn array_begin<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Seq> {
        let bd = r.read_u8()?;
        if bd >> 4 != 0x6 {
            return Err(unexpected_in(r, bd, "array"));
        }
        let n = read_len(r, bd & 0x0F)?;
        Ok(Seq::definite(to_usize(n)?))
    }

    #[inline]
    fn array_next<'de, R: Read<'de>>(&mut self, _r: &mut R, seq: &mut Seq) -> Result<bool> {
        Ok(seq.next_definite(seq.len.unwrap_or(0)))
    }

    #[inline]
    fn map_begin<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Seq> {
        let bd = r.read_u8()?;
        if bd >> 4 != 0x7 {
            return Err(unexpected_in(r, bd, "map"));
        }
        let n = read_len(r, bd & 0x0F)?;
        Ok(Seq::definite(to_usize(n)?))
    }

    #[inline]
    fn map_next<'de, R: Read<'de>>(&mut self, _r: &mut R, seq: &mut Seq) -> Result<bool> {
        Ok(seq.next_definite(seq.len.unwrap_or(0)))
    }

    /// A string key of up to 11 bytes (its length in the descriptor) or of
    /// up to 255 (a one-byte length) whole in the buffer is handed over from there.
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
                [bd @ 0x44..=0x4F, ..] => Some((1, usize::from(bd - 0x44))),
                [0x40, n, ..] => Some((2, usize::from(n))),
                _ => None,
            },
            key,
        )
    }

    /// A string key that is the hint, with its length in the descriptor (up
    /// to 11 bytes) or in one byte, whole in the buffer. A key written as a
    /// symbol goes the general way.
    #[inline(always)]
    fn map_next_is<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        seq: &mut Seq,
        hint: &KeyHint,
    ) -> Result<bool> {
        match u8::try_from(hint.as_bytes().len()) {
            Ok(n @ ..=11) => hint_in_buffer(r, seq, &[0x44 + n], hint),
            Ok(n) => hint_in_buffer(r, seq, &[0x40, n], hint),
            Err(_) => Ok(false),
        }
    }

    fn read_time<'de, R: Read<'de>>(&mut self, r: &mut R, scratch: &mut Vec<u8>) -> Result<Time> {
        let bd = r.read_u8()?;
        if bd == 0x00 {
            return Ok(Time::GO_ZERO);
        }
        if bd >> 4 != 0x8 {
            return Err(unexpected_in(r, bd, "timestamp"));
        }
        let p = (bd & 0x0F) as usize;
        if p == 0 {
            return Err(invalid(bd));
        }
        let payload = r.read_slice(p, scratch)?;
        decode_time(&payload)
    }

    fn read_ext<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<(u64, Reference<'de, 's, [u8]>)> {
        let at = r.offset();
        let bd = r.read_u8()?;
        if bd >> 4 != 0xF {
            return Err(unexpected_in(r, bd, "extension"));
        }
        let n = to_usize(read_len(r, bd & 0x0F)?)?;
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
        self.skip_item(r, scratch, depth)
    }
}

impl BincDecoder {
    /// A string, byte array or symbol as bytes; nil reads as empty.
    #[inline]
    fn read_bytes_as<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
        expected: &'static str,
    ) -> Result<Reference<'de, 's, [u8]>> {
        let at = r.offset();
        let bd = r.read_u8()?;
        match bd >> 4 {
            0x4 | 0x5 => {
                let n = to_usize(read_len(r, bd & 0x0F)?)?;
                if n > self.max_str_len {
                    return Err(Error::str_too_long(n, self.max_str_len).at(at));
                }
                r.read_slice(n, scratch)
            }
            0xB => self.read_symbol(bd, r, scratch, true),
            _ if bd == 0x00 => Ok(Reference::Copied(&[])),
            _ => Err(unexpected_in(r, bd, expected)),
        }
    }
}

/// Parses a timestamp payload (binc §7), as ugorji's `bincDecodeTime` does:
/// missing components are zero, bytes after the last component are ignored,
/// nanoseconds of a second or more carry into the seconds.
pub(crate) fn decode_time(p: &[u8]) -> Result<Time> {
    let short = || Error::syntax("binc: timestamp payload too short for its components");
    let (&desc, mut rest) = p.split_first().ok_or_else(short)?;
    let mut secs: i64 = 0;
    let mut nanos: u64 = 0;
    if desc & 0x80 != 0 {
        let n = ((desc >> 2) & 0x07) as usize + 1;
        let (b, tail) = rest.split_at_checked(n).ok_or_else(short)?;
        let fill = if b.first().is_some_and(|&x| x & 0x80 != 0) {
            0xFF
        } else {
            0x00
        };
        let mut buf = [fill; 8];
        buf[8 - n..].copy_from_slice(b);
        secs = i64::from_be_bytes(buf);
        rest = tail;
    }
    if desc & 0x40 != 0 {
        let n = (desc & 0x03) as usize + 1;
        let (b, tail) = rest.split_at_checked(n).ok_or_else(short)?;
        nanos = b.iter().fold(0u64, |acc, &x| (acc << 8) | x as u64);
        rest = tail;
    }
    let mut offset = None;
    if desc & 0x20 != 0 {
        let b = rest.get(..2).ok_or_else(short)?;
        let raw = u16::from_be_bytes([b[0], b[1]]);
        // 14-bit two's complement; the two DST bits are ignored.
        let z = if raw & 0x2000 != 0 {
            (raw | 0xC000) as i16
        } else {
            (raw & 0x3FFF) as i16
        };
        if z != 0 {
            offset = Some(z as i32 * 60);
        }
    }
    let secs = secs
        .checked_add((nanos / 1_000_000_000) as i64)
        .ok_or_else(|| Error::out_of_range("Time", "seconds overflow"))?;
    let t = Time::from_unix(secs, (nanos % 1_000_000_000) as u32)
        .ok_or_else(|| Error::syntax("binc: invalid timestamp"))?;
    Ok(match offset {
        Some(o) => t.with_offset(o),
        None => t,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BincHandle;
    use codec_core::{Value, from_slice, to_vec};

    fn hex(s: &str) -> Vec<u8> {
        let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    fn val(s: &str) -> Value {
        from_slice(&hex(s), &BincHandle::default()).unwrap()
    }

    #[test]
    fn integers_read_back_through_every_path() {
        for v in [
            0i64,
            1,
            16,
            17,
            -1,
            -2,
            -256,
            -70_000,
            -0xFF80_0000,
            -0xFFFF_FFFF,
            -(1 << 32),
            i64::MIN,
            i64::MAX,
            0x80_0000,
        ] {
            let b = to_vec(&v, &BincHandle::default()).unwrap();
            assert_eq!(from_slice::<i64, _>(&b, &BincHandle::default()).unwrap(), v);
            assert_eq!(
                from_slice::<f64, _>(&b, &BincHandle::default()).unwrap(),
                v as f64
            );
        }
        // The specials read into numbers as ugorji reads them.
        assert_eq!(val("07"), Value::Uint(0));
        assert_eq!(val("08"), Value::Int(-1));
        assert_eq!(
            from_slice::<i32, _>(&hex("06"), &BincHandle::default()).unwrap(),
            0
        );
        assert_eq!(
            from_slice::<f64, _>(&hex("07"), &BincHandle::default()).unwrap(),
            0.0
        );
        assert!(from_slice::<u8, _>(&hex("08"), &BincHandle::default()).is_err());
        assert!(from_slice::<i64, _>(&hex("04"), &BincHandle::default()).is_err());
        assert_eq!(
            from_slice::<i64, _>(&hex("3b 01 40"), &BincHandle::default()).unwrap(),
            2
        );
        assert!(from_slice::<i64, _>(&hex("3b 02 3f f8"), &BincHandle::default()).is_err());
        // ugorji's corrupted bytes for -0xFFFF_FFFF read as what they say: -255.
        assert_eq!(val("20 ff"), Value::Int(-255));
        // 2^63 and more do not fit an i64 (ugorji wraps; we refuse).
        assert!(from_slice::<i64, _>(&hex("17 8000000000000000"), &BincHandle::default()).is_err());
        assert_eq!(val("27 8000000000000000"), Value::Int(i64::MIN));
        assert!(from_slice::<i64, _>(&hex("27 8000000000000001"), &BincHandle::default()).is_err());
    }

    #[test]
    fn floats_read_back() {
        assert_eq!(val("3b 02 3f f8"), Value::F64(1.5));
        assert_eq!(val("31 3f c0 00 00"), Value::F32(1.5));
        assert_eq!(val("39 02 3f c0"), Value::F32(1.5));
        assert_eq!(val("3b 00"), Value::F64(0.0));
        assert_eq!(val("06"), Value::F64(0.0));
        assert_eq!(val("04"), Value::F64(f64::INFINITY));
        assert_eq!(val("03"), Value::F64(f64::from_bits(GO_NAN_BITS)));
        assert!(from_slice::<Value, _>(&hex("3b 09 00"), &BincHandle::default()).is_err());
        // float32 targets refuse float64 values out of their range.
        assert!(from_slice::<f32, _>(&hex("33 7e37e43c8800759c"), &BincHandle::default()).is_err());
        // Whole and pruned forms, from a slice and from a reader that hands
        // over a byte or two at a time; every cut is an error.
        let h = BincHandle::default();
        for (bytes, v) in [
            ("33 3fb999999999999a", 0.1),
            ("3b 05 419d6f3454", 123_456_789.0),
            ("3b 01 40", 2.0),
            ("31 3fc00000", 1.5),
        ] {
            let b = hex(bytes);
            assert_eq!(from_slice::<f64, _>(&b, &h).unwrap(), v, "{bytes}");
            let r = codec_test_support::Trickle::new(&b);
            assert_eq!(codec_core::from_reader::<f64, _, _>(r, &h).unwrap(), v);
            for cut in 0..b.len() {
                assert!(
                    from_slice::<f64, _>(&b[..cut], &h).is_err(),
                    "{bytes} cut at {cut}"
                );
                let r = codec_test_support::Trickle::new(&b[..cut]);
                assert!(codec_core::from_reader::<f64, _, _>(r, &h).is_err());
            }
        }
    }

    #[test]
    fn symbols_define_reference_and_wide_ids() {
        // [ {"Name": "n"}, {"Name": "m"} ] with a 2-byte id and a 2-byte length.
        let b = hex("66 75 bd 01 2c 0004 4e616d65 45 6e 75 b8 01 2c 45 6d");
        assert_eq!(
            from_slice::<Value, _>(&b, &BincHandle::default()).unwrap(),
            Value::Array(vec![
                Value::Map(vec![(Value::from("Name"), Value::from("n"))]),
                Value::Map(vec![(Value::from("Name"), Value::from("m"))]),
            ])
        );
        // A symbol is accepted wherever a string is; an unknown id reads as "".
        assert_eq!(val("b4 07 02 6869"), Value::from("hi"));
        assert_eq!(val("b0 09"), Value::from(""));
        // Skipping still records the definition.
        let b = hex("b4 01 02 6869");
        let mut d = codec_core::Handle::decoder(&BincHandle::default(), &b);
        d.skip().unwrap();
        assert_eq!(d.format_mut().symbol_count(), 1);
        // Many symbols through an encoder and back, past one-byte ids.
        let keys: Vec<(String, u32)> = (0..600).map(|i| (format!("key{i}"), i)).collect();
        let m: std::collections::BTreeMap<String, u32> = keys.into_iter().collect();
        let h = BincHandle::default().as_symbols(true);
        let rows = vec![m.clone(), m.clone()];
        let enc = to_vec(&rows, &h).unwrap();
        let back: Vec<std::collections::BTreeMap<String, u32>> = from_slice(&enc, &h).unwrap();
        assert_eq!(back, rows);
    }

    #[test]
    fn timestamps_with_offsets() {
        let cases = [
            ("81 00", "1970-01-01T00:00:00Z"),
            ("82 80 ff", "1969-12-31T23:59:59Z"),
            (
                "8b ef 5e 0d a3 f5 07 5b cd 15 3e d4",
                "2020-01-02T03:04:05.123456789-05:00",
            ),
            ("87 ac 5e 0d 10 4d 01 4a", "2020-01-02T03:04:05+05:30"),
            ("86 90 f1 88 6e 09 01", "0001-01-01T00:00:01Z"),
        ];
        for (b, s) in cases {
            let want = Time::parse_rfc3339(s).unwrap();
            let got: Time = from_slice(&hex(b), &BincHandle::default()).unwrap();
            assert_eq!(got, want, "{b}");
            assert_eq!(got.offset(), want.offset(), "{b}");
        }
        // A zero-minute zone reads as UTC; DST bits are ignored.
        let t: Time = from_slice(&hex("87 ac 5e 0d 5d a5 00 00"), &BincHandle::default()).unwrap();
        assert_eq!(t.offset(), None);
        let t: Time = from_slice(&hex("87 ac 5e 0d 10 4d c1 4a"), &BincHandle::default()).unwrap();
        assert_eq!(t.offset(), Some(19_800));
        // nil is Go's zero time; an empty or short payload is an error.
        let t: Time = from_slice(&hex("00"), &BincHandle::default()).unwrap();
        assert_eq!(t, Time::GO_ZERO);
        assert!(from_slice::<Time, _>(&hex("80"), &BincHandle::default()).is_err());
        assert!(from_slice::<Time, _>(&hex("82 8c 01"), &BincHandle::default()).is_err());
        // Sub-minute offsets are truncated to minutes on the wire.
        let t = Time::parse_rfc3339("2020-01-02T03:04:05Z")
            .unwrap()
            .with_offset(-90);
        let back: Time = from_slice(
            &to_vec(&t, &BincHandle::default()).unwrap(),
            &BincHandle::default(),
        )
        .unwrap();
        assert_eq!(back, t.with_offset(-60));
    }

    #[test]
    fn extensions_and_lenient_strings() {
        assert_eq!(val("f6 05 01 02"), Value::Ext(5, vec![1, 2].into()));
        assert_eq!(val("f4 07"), Value::Ext(7, vec![].into()));
        let h = BincHandle::default();
        assert_eq!(from_slice::<String, _>(&hex("56 6869"), &h).unwrap(), "hi");
        assert_eq!(
            from_slice::<Vec<u8>, _>(&hex("46 6869"), &h).unwrap(),
            b"hi"
        );
        assert_eq!(
            from_slice::<Vec<u8>, _>(&hex("66 90 91"), &h).unwrap(),
            [1, 2]
        );
        assert_eq!(from_slice::<String, _>(&hex("00"), &h).unwrap(), "");
        assert!(from_slice::<String, _>(&hex("46 ff fe"), &h).is_err());
        assert!(from_slice::<bool, _>(&hex("90"), &h).is_err());
        assert!(!from_slice::<bool, _>(&hex("00"), &h).unwrap());
    }

    /// The inline integer reads agree with the general path
    /// (`read_number` and its conversions) on every descriptor byte, on
    /// magnitudes of one to eight bytes at the edges of each width and of
    /// the target's range, whole, cut short and followed by more bytes.
    #[test]
    fn inline_integer_reads_agree_with_the_general_path() {
        use codec_core::SliceReader;
        let heads = [0x10u8, 0x20]
            .into_iter()
            .flat_map(|vd| (1..=8usize).map(move |n| (vd | (n as u8 - 1), n)));
        let inputs = codec_test_support::integer_items(heads);
        let outcome = |res: Result<u64>, r: &SliceReader<'_>| match res {
            Ok(v) => Ok((v, r.offset())),
            Err(e) => Err(e.to_string()),
        };
        for b in &inputs {
            let mut d = BincDecoder::new();
            let (mut fast, mut slow) = (SliceReader::new(b), SliceReader::new(b));
            let got = d.read_i64(&mut fast).map(|v| v as u64);
            let want = d.read_i64_slow(&mut slow).map(|v| v as u64);
            assert_eq!(outcome(got, &fast), outcome(want, &slow), "i64 {b:02x?}");
            let (mut fast, mut slow) = (SliceReader::new(b), SliceReader::new(b));
            let got = d.read_u64(&mut fast);
            let want = d.read_u64_slow(&mut slow);
            assert_eq!(outcome(got, &fast), outcome(want, &slow), "u64 {b:02x?}");
        }
    }
}
