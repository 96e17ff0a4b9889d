//! [`CborEncoder`]: the encoding half of the CBOR driver.

use crate::handle::CborHandle;
use codec_core::{EncodeFormat, Error, FieldName, Result, Time, Write, write_array_each};

/// Major types, already shifted into the top three bits.
pub(crate) const UINT: u8 = 0x00;
pub(crate) const NEGINT: u8 = 0x20;
pub(crate) const BYTES: u8 = 0x40;
pub(crate) const TEXT: u8 = 0x60;
pub(crate) const ARRAY: u8 = 0x80;
pub(crate) const MAP: u8 = 0xa0;
pub(crate) const TAG: u8 = 0xc0;
pub(crate) const BREAK: u8 = 0xff;

/// How floats are narrowed on the way out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Floats {
    /// `f32` as `fa`, `f64` as `fb` (ugorji's default).
    Native,
    /// ugorji's `OptimumSize`.
    Optimum,
    /// RFC 8949 preferred serialization (NaN as `f97e00`).
    Preferred,
}

/// The encoding driver of [`CborHandle`].
#[derive(Debug, Clone)]
pub struct CborEncoder {
    indefinite: bool,
    time_rfc3339: bool,
    floats: Floats,
    sort_by_bytes: bool,
}

impl CborEncoder {
    /// A driver with the encoding settings of `h`.
    pub fn new(h: &CborHandle) -> Self {
        let preferred = h.preferred_serialization || h.deterministic;
        CborEncoder {
            indefinite: h.indefinite_length && !preferred,
            time_rfc3339: h.time_rfc3339,
            floats: if preferred {
                Floats::Preferred
            } else if h.optimum_size {
                Floats::Optimum
            } else {
                Floats::Native
            },
            sort_by_bytes: h.deterministic,
        }
    }
}

/// Writes a head: major type `major` (shifted) with argument `v`, shortest
/// form; the one-byte form inline, the rest out of line.
#[inline(always)]
pub(crate) fn write_head<W: Write>(w: &mut W, major: u8, v: u64) -> Result<()> {
    if v < 24 {
        return w.write_byte(major | v as u8);
    }
    write_head_long(w, major, v)
}

/// An integer's head: as [`write_head`], with the two- and three-byte
/// heads inline too. Only for integers (struct fields of small numbers,
/// arrays of them): `write_head` serves every length as well, where these
/// paths inline made string-heavy encoding slower.
#[inline(always)]
fn write_int_head<W: Write>(w: &mut W, major: u8, v: u64) -> Result<()> {
    if v < 24 {
        w.write_byte(major | v as u8)
    } else if v <= 0xff {
        w.write_all(&[major | 24, v as u8])
    } else if v <= 0xffff {
        let [a, b] = (v as u16).to_be_bytes();
        w.write_all(&[major | 25, a, b])
    } else {
        write_head_long(w, major, v)
    }
}

/// [`write_head`] for an argument of 24 or more.
#[inline(never)]
fn write_head_long<W: Write>(w: &mut W, major: u8, v: u64) -> Result<()> {
    if v <= 0xff {
        w.write_all(&[major | 24, v as u8])
    } else if v <= 0xffff {
        let b = (v as u16).to_be_bytes();
        w.write_all(&[major | 25, b[0], b[1]])
    } else if v <= 0xffff_ffff {
        let b = (v as u32).to_be_bytes();
        w.write_all(&[major | 26, b[0], b[1], b[2], b[3]])
    } else {
        let b = v.to_be_bytes();
        w.write_all(&[major | 27, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
    }
}

/// The half-precision bits that hold `v` exactly, if any. NaN payloads are
/// kept bit for bit (the `half` crate would set the quiet bit).
pub(crate) fn f32_to_f16_exact(v: f32) -> Option<u16> {
    let bits = v.to_bits();
    if v.is_nan() {
        if bits & 0x1fff != 0 {
            return None;
        }
        let sign = ((bits >> 16) & 0x8000) as u16;
        return Some(sign | 0x7c00 | ((bits & 0x007f_ffff) >> 13) as u16);
    }
    let h = half::f16::from_f32(v);
    (h.to_f32().to_bits() == bits).then(|| h.to_bits())
}

/// The `f32` that holds `v` exactly, if any (NaN never qualifies).
#[inline]
fn f64_to_f32_exact(v: f64) -> Option<f32> {
    let s = v as f32;
    (s as f64 == v).then_some(s)
}

#[inline]
fn write_f16<W: Write>(w: &mut W, h: u16) -> Result<()> {
    let b = h.to_be_bytes();
    w.write_all(&[0xf9, b[0], b[1]])
}

#[inline]
fn write_f32_bits<W: Write>(w: &mut W, v: f32) -> Result<()> {
    let b = v.to_be_bytes();
    w.write_all(&[0xfa, b[0], b[1], b[2], b[3]])
}

#[inline]
fn write_f64_bits<W: Write>(w: &mut W, v: f64) -> Result<()> {
    let b = v.to_be_bytes();
    w.write_all(&[0xfb, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

impl CborEncoder {
    /// `write_f32` past the native case: the narrowest exact width.
    #[inline(never)]
    fn write_f32_narrowed<W: Write>(&self, w: &mut W, v: f32) -> Result<()> {
        match self.floats {
            Floats::Native => write_f32_bits(w, v),
            Floats::Preferred if v.is_nan() => write_f16(w, 0x7e00),
            Floats::Optimum | Floats::Preferred => match f32_to_f16_exact(v) {
                Some(h) => write_f16(w, h),
                None => write_f32_bits(w, v),
            },
        }
    }

    /// `write_f64` past the native case: the narrowest exact width.
    #[inline(never)]
    fn write_f64_narrowed<W: Write>(&self, w: &mut W, v: f64) -> Result<()> {
        match self.floats {
            Floats::Native => write_f64_bits(w, v),
            Floats::Preferred if v.is_nan() => write_f16(w, 0x7e00),
            Floats::Optimum | Floats::Preferred => match f64_to_f32_exact(v) {
                Some(s) => self.write_f32_narrowed(w, s),
                None => write_f64_bits(w, v),
            },
        }
    }

    /// `write_f32_array` with narrowing or indefinite lengths: as the
    /// default writes it.
    #[inline(never)]
    fn write_f32_array_general<W: Write>(&mut self, w: &mut W, items: &[f32]) -> Result<()> {
        write_array_each(self, w, items, Self::write_f32)
    }

    /// As [`write_f32_array_general`](Self::write_f32_array_general).
    #[inline(never)]
    fn write_f64_array_general<W: Write>(&mut self, w: &mut W, items: &[f64]) -> Result<()> {
        write_array_each(self, w, items, Self::write_f64)
    }

    /// Writes a text or byte string, chunked when `indefinite` is on.
    fn write_string<W: Write>(&self, w: &mut W, major: u8, v: &[u8], text: bool) -> Result<()> {
        self.string_item(w, major, v, text)
    }

    /// [`write_string`](Self::write_string), inlined: a definite string's
    /// head and bytes together ([`Write::write_headed`]) up to a 2-byte length,
    /// as the head and then the bytes beyond.
    #[inline(always)]
    fn string_item<W: Write>(&self, w: &mut W, major: u8, v: &[u8], text: bool) -> Result<()> {
        if self.indefinite {
            return Self::write_chunked(w, major, v, text);
        }
        let n = v.len();
        let (head, head_len) = if n < 24 {
            (u32::from(major | n as u8), 1)
        } else if n <= 0xff {
            (u32::from(major | 24) | (n as u32) << 8, 2)
        } else if let Ok(n) = u16::try_from(n) {
            (u32::from(major | 25) | u32::from(n.swap_bytes()) << 8, 3)
        } else {
            return Self::string_long(w, major, v);
        };
        w.write_headed(head, head_len, v)
    }

    /// A definite string with a 4- or 8-byte length: out of line, so that
    /// [`string_item`](Self::string_item) makes no call but tail calls.
    #[inline(never)]
    fn string_long<W: Write>(w: &mut W, major: u8, v: &[u8]) -> Result<()> {
        write_head_long(w, major, v.len() as u64)?;
        w.write_all(v)
    }

    /// An indefinite-length string in ugorji's chunks.
    #[inline(never)]
    fn write_chunked<W: Write>(w: &mut W, major: u8, v: &[u8], text: bool) -> Result<()> {
        w.write_byte(major | 31)?;
        // ugorji v1.2.14's grid: len/4 bytes, 64 when len < 4, at most 1024.
        let len = v.len();
        let step = match len / 4 {
            0 => 64,
            n => n.min(1024),
        };
        let mut start = 0;
        let mut k = 1usize;
        while start < len {
            let mut end = k.saturating_mul(step).min(len);
            if text {
                // Never split a UTF-8 character: move back to its first byte.
                while end > start && v.get(end).is_some_and(|&b| b & 0xc0 == 0x80) {
                    end -= 1;
                }
            }
            if end > start {
                let chunk = v.get(start..end).unwrap_or_default();
                write_head(w, major, chunk.len() as u64)?;
                w.write_all(chunk)?;
                start = end;
            }
            k += 1;
        }
        w.write_byte(BREAK)
    }

    /// Writes a bignum tag (2 or 3) with the minimal big-endian magnitude.
    fn write_bignum<W: Write>(&self, w: &mut W, tag: u64, magnitude: u128) -> Result<()> {
        write_head(w, TAG, tag)?;
        let bytes = magnitude.to_be_bytes();
        let skip = (magnitude.leading_zeros() / 8) as usize;
        let digits = bytes.get(skip..).unwrap_or_default();
        write_head(w, BYTES, digits.len() as u64)?;
        w.write_all(digits)
    }
}

impl EncodeFormat for CborEncoder {
    const NAME: &'static str = "cbor";
    /// A value-carrying extension is the tag followed by the value (as ugorji writes it).
    const EXT_STYLE: codec_core::ExtStyle = codec_core::ExtStyle::Tagged;

    #[inline]
    fn write_nil<W: Write>(&mut self, w: &mut W) -> Result<()> {
        w.write_byte(0xf6)
    }

    #[inline]
    fn write_bool<W: Write>(&mut self, w: &mut W, v: bool) -> Result<()> {
        w.write_byte(if v { 0xf5 } else { 0xf4 })
    }

    #[inline(always)]
    fn write_i64<W: Write>(&mut self, w: &mut W, v: i64) -> Result<()> {
        if v < 0 {
            write_int_head(w, NEGINT, !(v as u64))
        } else {
            write_int_head(w, UINT, v as u64)
        }
    }

    #[inline(always)]
    fn write_u64<W: Write>(&mut self, w: &mut W, v: u64) -> Result<()> {
        write_int_head(w, UINT, v)
    }

    /// Major types 0/1 down to -2^64; beyond that bignum tags 2/3.
    fn write_i128<W: Write>(&mut self, w: &mut W, v: i128) -> Result<()> {
        if v >= 0 {
            return self.write_u128(w, v as u128);
        }
        let magnitude = !(v as u128); // -1 - v
        match u64::try_from(magnitude) {
            Ok(n) => write_head(w, NEGINT, n),
            Err(_) => self.write_bignum(w, 3, magnitude),
        }
    }

    /// Major type 0 up to `u64::MAX`; beyond that bignum tag 2.
    fn write_u128<W: Write>(&mut self, w: &mut W, v: u128) -> Result<()> {
        match u64::try_from(v) {
            Ok(n) => write_head(w, UINT, n),
            Err(_) => self.write_bignum(w, 2, v),
        }
    }

    /// The native width inline; narrowing (`optimum_size`, preferred
    /// serialization) out of line, so that this stays small enough to be
    /// inlined into a loop over an array of floats.
    #[inline]
    fn write_f32<W: Write>(&mut self, w: &mut W, v: f32) -> Result<()> {
        if self.floats == Floats::Native {
            write_f32_bits(w, v)
        } else {
            self.write_f32_narrowed(w, v)
        }
    }

    /// As [`write_f32`](Self::write_f32).
    #[inline]
    fn write_f64<W: Write>(&mut self, w: &mut W, v: f64) -> Result<()> {
        if self.floats == Floats::Native {
            write_f64_bits(w, v)
        } else {
            self.write_f64_narrowed(w, v)
        }
    }

    #[inline]
    fn write_str<W: Write>(&mut self, w: &mut W, v: &str) -> Result<()> {
        self.write_string(w, TEXT, v.as_bytes(), true)
    }

    /// A struct field's name: a definite text of up to 15 bytes is written
    /// with its head in one word, a longer name as `write_str` writes it
    /// (the name is a constant in derived code: one branch remains).
    #[inline(always)]
    fn write_field<W: Write>(&mut self, w: &mut W, _index: usize, name: FieldName) -> Result<()> {
        let len = name.as_str().len();
        if !self.indefinite
            && len < 16
            && let Some((word, n)) = name.with_head(u32::from(TEXT | len as u8), 1)
        {
            return w.write_word(word, n);
        }
        self.string_item(w, TEXT, name.as_str().as_bytes(), true)
    }

    #[inline]
    fn write_bytes<W: Write>(&mut self, w: &mut W, v: &[u8]) -> Result<()> {
        self.write_string(w, BYTES, v, false)
    }

    #[inline]
    fn write_array_start<W: Write>(&mut self, w: &mut W, len: usize) -> Result<()> {
        if self.indefinite {
            w.write_byte(ARRAY | 31)
        } else {
            write_head(w, ARRAY, len as u64)
        }
    }

    /// A definite array of native-width floats (the default) in one
    /// inlined loop: a point's or a vector's coordinates as a struct field
    /// make no call. Anything else as the default writes it, out of line.
    #[inline]
    fn write_f32_array<W: Write>(&mut self, w: &mut W, items: &[f32]) -> Result<()> {
        if self.floats != Floats::Native || self.indefinite {
            return self.write_f32_array_general(w, items);
        }
        write_head(w, ARRAY, items.len() as u64)?;
        items.iter().try_for_each(|&v| write_f32_bits(w, v))
    }

    /// As [`write_f32_array`](Self::write_f32_array).
    #[inline]
    fn write_f64_array<W: Write>(&mut self, w: &mut W, items: &[f64]) -> Result<()> {
        if self.floats != Floats::Native || self.indefinite {
            return self.write_f64_array_general(w, items);
        }
        write_head(w, ARRAY, items.len() as u64)?;
        items.iter().try_for_each(|&v| write_f64_bits(w, v))
    }

    #[inline]
    fn write_array_end<W: Write>(&mut self, w: &mut W, _len: usize) -> Result<()> {
        if self.indefinite {
            w.write_byte(BREAK)
        } else {
            Ok(())
        }
    }

    #[inline]
    fn write_map_start<W: Write>(&mut self, w: &mut W, len: usize) -> Result<()> {
        if self.indefinite {
            w.write_byte(MAP | 31)
        } else {
            write_head(w, MAP, len as u64)
        }
    }

    #[inline]
    fn write_map_end<W: Write>(&mut self, w: &mut W, _len: usize) -> Result<()> {
        if self.indefinite {
            w.write_byte(BREAK)
        } else {
            Ok(())
        }
    }

    /// Go's zero time (0001-01-01T00:00:00Z, any offset) is written as nil,
    /// as ugorji does. Otherwise tag 0 with RFC 3339 text (`time_rfc3339`),
    /// or tag 1 with the seconds rounded to microseconds: an integer when
    /// whole, else a float64 (narrowed by `optimum_size` / preferred
    /// serialization like any float).
    fn write_time<W: Write>(&mut self, w: &mut W, t: &Time) -> Result<()> {
        if t.is_go_zero() {
            return self.write_nil(w);
        }
        if self.time_rfc3339 {
            write_head(w, TAG, 0)?;
            return self.write_str(w, &t.to_rfc3339());
        }
        write_head(w, TAG, 1)?;
        let t = t.to_utc().round_to(1000);
        if t.nanos() == 0 {
            self.write_i64(w, t.unix_seconds())
        } else {
            self.write_f64(w, t.unix_seconds() as f64 + t.nanos() as f64 / 1e9)
        }
    }

    /// CBOR has no extension type: an extension is written as tag `tag`
    /// around a byte string holding `data`.
    fn write_ext<W: Write>(&mut self, w: &mut W, tag: u64, data: &[u8]) -> Result<()> {
        write_head(w, TAG, tag)?;
        self.write_bytes(w, data)
    }

    #[inline]
    fn write_tag<W: Write>(&mut self, w: &mut W, tag: u64) -> Result<()> {
        write_head(w, TAG, tag)
    }

    /// simple(n): one byte below 24 (20..23 are false, true, null and
    /// undefined), `f8 nn` from 32; 24..31 are not well-formed (RFC 8949).
    fn write_simple<W: Write>(&mut self, w: &mut W, v: u8) -> Result<()> {
        match v {
            0..=23 => w.write_byte(0xe0 | v),
            24..=31 => Err(Error::unsupported(format!(
                "simple({v}) cannot be encoded: values 24..31 are reserved"
            ))),
            _ => w.write_all(&[0xf8, v]),
        }
    }

    fn side(&self) -> Self {
        self.clone()
    }

    #[inline]
    fn sort_keys_by_encoding(&self) -> bool {
        self.sort_by_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(
        h: &CborHandle,
        f: impl FnOnce(&mut CborEncoder, &mut Vec<u8>) -> Result<()>,
    ) -> Vec<u8> {
        let mut e = CborEncoder::new(h);
        let mut out = Vec::new();
        f(&mut e, &mut out).unwrap();
        out
    }

    #[test]
    fn heads_are_shortest() {
        let h = CborHandle::default();
        for (v, want) in [
            (23u64, &[0x17][..]),
            (24, &[0x18, 24]),
            (256, &[0x19, 1, 0]),
            (65536, &[0x1a, 0, 1, 0, 0]),
            (1 << 32, &[0x1b, 0, 0, 0, 1, 0, 0, 0, 0]),
        ] {
            assert_eq!(enc(&h, |e, w| e.write_u64(w, v)), want);
        }
        assert_eq!(
            enc(&h, |e, w| e.write_i128(w, -(1i128 << 64))),
            [0x3b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        );
        assert_eq!(
            enc(&h, |e, w| e.write_u128(w, 1u128 << 64)),
            [0xc2, 0x49, 1, 0, 0, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(
            enc(&h, |e, w| e.write_i128(w, -(1i128 << 64) - 1)),
            [0xc3, 0x49, 1, 0, 0, 0, 0, 0, 0, 0, 0]
        );
    }

    #[test]
    fn integer_heads_are_the_general_heads() {
        // write_int_head's inline paths against write_head, at every width
        // boundary, for both integer majors (and through write_i64/u64).
        let mut values = vec![u64::MAX];
        for k in 0..64 {
            let p = 1u64 << k;
            values.extend([p - 1, p, p + 1]);
        }
        values.extend(20..30);
        for v in values {
            for major in [UINT, NEGINT] {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                write_int_head(&mut a, major, v).unwrap();
                write_head(&mut b, major, v).unwrap();
                assert_eq!(a, b, "{major:#x} {v}");
            }
            let h = CborHandle::default();
            assert_eq!(enc(&h, |e, w| e.write_u64(w, v)), {
                let mut b = Vec::new();
                write_head(&mut b, UINT, v).unwrap();
                b
            });
            if let Ok(i) = i64::try_from(v) {
                let mut b = Vec::new();
                write_head(&mut b, NEGINT, i as u64).unwrap();
                let neg = -1 - i;
                assert_eq!(enc(&h, |e, w| e.write_i64(w, neg)), b, "{neg}");
            }
        }
    }

    #[test]
    fn float_modes() {
        let native = CborHandle::default();
        let optimum = CborHandle::default().optimum_size(true);
        let preferred = CborHandle::default().preferred_serialization(true);
        assert_eq!(
            enc(&native, |e, w| e.write_f64(w, 1.5)),
            [0xfb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(
            enc(&optimum, |e, w| e.write_f64(w, 1.5)),
            [0xf9, 0x3e, 0x00]
        );
        assert_eq!(
            enc(&optimum, |e, w| e.write_f64(w, f64::NAN)),
            [0xfb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(
            enc(&optimum, |e, w| e.write_f32(w, f32::NAN)),
            [0xf9, 0x7e, 0x00]
        );
        assert_eq!(
            enc(&preferred, |e, w| e.write_f64(w, f64::NAN)),
            [0xf9, 0x7e, 0x00]
        );
        assert_eq!(
            enc(&preferred, |e, w| e.write_f64(w, 100000.0)),
            [0xfa, 0x47, 0xc3, 0x50, 0x00]
        );
        assert_eq!(
            enc(&preferred, |e, w| e.write_f64(w, -0.0)),
            [0xf9, 0x80, 0x00]
        );
    }

    #[test]
    fn float_arrays_follow_the_mode() {
        // Each mode, item by item and through the array writers (where the
        // native case is inlined into the loop): the narrowest exact width
        // under optimum_size and preferred serialization, NaN as f97e00
        // under the latter.
        let f32s = [0.0f32, -0.0, 1.5, 65504.0, 1e-8, 100000.0, 0.1, f32::MAX];
        let f64s = [0.0f64, -0.0, 1.5, 100000.0, 0.1, 1e300, 0.5f32 as f64];
        for (h, mode) in [
            (CborHandle::default(), Floats::Native),
            (CborHandle::default().optimum_size(true), Floats::Optimum),
            (
                CborHandle::default().preferred_serialization(true),
                Floats::Preferred,
            ),
        ] {
            let f16_or = |v: f32, wide: Vec<u8>| match (mode, f32_to_f16_exact(v)) {
                (Floats::Native, _) | (_, None) => wide,
                (_, Some(h)) => [&[0xf9][..], &h.to_be_bytes()].concat(),
            };
            let want32 = |v: f32| f16_or(v, [&[0xfa][..], &v.to_be_bytes()].concat());
            let want64 = |v: f64| match (mode, f64_to_f32_exact(v)) {
                (Floats::Native, _) | (_, None) => [&[0xfb][..], &v.to_be_bytes()].concat(),
                (_, Some(s)) => want32(s),
            };
            let mut array32 = vec![0x80 | f32s.len() as u8];
            for v in f32s {
                assert_eq!(enc(&h, |e, w| e.write_f32(w, v)), want32(v), "{mode:?} {v}");
                array32.extend(want32(v));
            }
            assert_eq!(enc(&h, |e, w| e.write_f32_array(w, &f32s)), array32);
            let mut array64 = vec![0x80 | f64s.len() as u8];
            for v in f64s {
                assert_eq!(enc(&h, |e, w| e.write_f64(w, v)), want64(v), "{mode:?} {v}");
                array64.extend(want64(v));
            }
            assert_eq!(enc(&h, |e, w| e.write_f64_array(w, &f64s)), array64);
            // Indefinite: `9f`, the same items, `ff` (preferred
            // serialization keeps definite lengths).
            let h = h.indefinite_length(true);
            let indefinite = |mut definite: Vec<u8>| {
                if mode != Floats::Preferred {
                    definite[0] = 0x9f;
                    definite.push(0xff);
                }
                definite
            };
            assert_eq!(
                enc(&h, |e, w| e.write_f32_array(w, &f32s)),
                indefinite(array32)
            );
            assert_eq!(
                enc(&h, |e, w| e.write_f64_array(w, &f64s)),
                indefinite(array64)
            );
            let nan = enc(&h, |e, w| e.write_f64(w, f64::NAN));
            match mode {
                Floats::Native => assert_eq!(nan[0], 0xfb),
                Floats::Optimum => assert_eq!(nan[0], 0xfb, "NaN keeps its payload"),
                Floats::Preferred => assert_eq!(nan, [0xf9, 0x7e, 0x00]),
            }
        }
    }

    #[test]
    fn indefinite_text_never_splits_a_character() {
        let h = CborHandle::default().indefinite_length(true);
        let s = "a&b<c>d\u{2028}e\u{2029}f";
        let out = enc(&h, |e, w| e.write_str(w, s));
        // Grid at 3, 6, 9 -> 7, 12 -> 11, 15.
        let mut want = vec![0x7f, 0x63];
        want.extend_from_slice(b"a&b");
        want.push(0x63);
        want.extend_from_slice(b"<c>");
        want.push(0x61);
        want.extend_from_slice(b"d");
        want.push(0x64);
        want.extend_from_slice("\u{2028}e".as_bytes());
        want.push(0x64);
        want.extend_from_slice("\u{2029}f".as_bytes());
        want.push(0xff);
        assert_eq!(out, want);
        assert_eq!(enc(&h, |e, w| e.write_str(w, "")), [0x7f, 0xff]);
    }

    #[test]
    fn simple_values() {
        let h = CborHandle::default();
        assert_eq!(enc(&h, |e, w| e.write_simple(w, 16)), [0xf0]);
        assert_eq!(enc(&h, |e, w| e.write_simple(w, 255)), [0xf8, 0xff]);
        assert!(
            CborEncoder::new(&h)
                .write_simple(&mut Vec::new(), 24)
                .is_err()
        );
    }
}
