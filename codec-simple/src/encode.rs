//! [`SimpleEncoder`]: the encoding half of the Simple driver.

use crate::{BASE_ARRAY, BASE_BYTES, BASE_EXT, BASE_MAP, BASE_STRING, NIL, UNIX_TO_GO_SECS};
use codec_core::{EncodeFormat, Error, FieldName, Result, Time, Write};

/// Writes Simple.
#[derive(Debug, Clone, Default)]
pub struct SimpleEncoder {
    zero_as_nil: bool,
    /// Between `write_map_key` and `write_map_value` at this level: zero
    /// values are written normally there even with `enc_zero_values_as_nil`.
    /// Kept only with `zero_as_nil` (see `set_in_key`).
    in_key: bool,
}

impl SimpleEncoder {
    /// A driver; `zero_as_nil` is ugorji's `EncZeroValuesAsNil`.
    pub fn new(zero_as_nil: bool) -> Self {
        SimpleEncoder {
            zero_as_nil,
            in_key: false,
        }
    }

    /// Whether a zero value written now becomes nil.
    #[inline]
    fn nil_for_zero(&self) -> bool {
        self.zero_as_nil && !self.in_key
    }

    /// Enters or leaves key position. `in_key` is read only with
    /// `zero_as_nil`, and is stored only when it changes: a store on every
    /// field, read back at once as part of a wider load by the out-of-line
    /// `write_str` (which takes the two flags as one argument), stalled on
    /// store forwarding before each string field.
    #[inline(always)]
    fn set_in_key(&mut self, on: bool) {
        if self.zero_as_nil && self.in_key != on {
            self.in_key = on;
        }
    }
}

/// Writes a container header: `base` for length 0, else `base + code` and the
/// length in 1, 2, 4 or 8 bytes (simple §4).
#[inline(always)]
pub(crate) fn header<W: Write>(w: &mut W, base: u8, len: u64) -> Result<()> {
    if len == 0 {
        w.write_byte(base)
    } else if len <= 0xFF {
        w.write_all(&[base + 1, len as u8])
    } else {
        header_long(w, base, len)
    }
}

/// A struct field's name (a constant where this is inlined) as a string of
/// header family `base`: the header and bytes together
/// ([`Write::write_headed`]) up to a 2-byte length, as the header and then
/// the bytes beyond. Not for string values, whose lengths are known only
/// at run time (see msgpack's `str_item`).
#[inline(always)]
fn string_item<W: Write>(w: &mut W, base: u8, v: &[u8]) -> Result<()> {
    let n = v.len();
    let (head, head_len) = if n == 0 {
        (u32::from(base), 1)
    } else if n <= 0xFF {
        (u32::from(base + 1) | (n as u32) << 8, 2)
    } else if let Ok(n) = u16::try_from(n) {
        (u32::from(base + 2) | u32::from(n.swap_bytes()) << 8, 3)
    } else {
        return string_long(w, base, v);
    };
    w.write_headed(head, head_len, v)
}

/// [`string_item`] with a 4- or 8-byte length: out of line, so that the
/// common case makes no call but tail calls.
#[inline(never)]
fn string_long<W: Write>(w: &mut W, base: u8, v: &[u8]) -> Result<()> {
    header_long(w, base, v.len() as u64)?;
    w.write_all(v)
}

/// [`header`] for a length above 255.
#[inline(never)]
fn header_long<W: Write>(w: &mut W, base: u8, len: u64) -> Result<()> {
    if len <= 0xFFFF {
        let [a, b] = (len as u16).to_be_bytes();
        w.write_all(&[base + 2, a, b])
    } else if len <= 0xFFFF_FFFF {
        let [a, b, c, d] = (len as u32).to_be_bytes();
        w.write_all(&[base + 3, a, b, c, d])
    } else {
        let [a, b, c, d, e, f, g, h] = len.to_be_bytes();
        w.write_all(&[base + 4, a, b, c, d, e, f, g, h])
    }
}

/// An integer: `base` (`08` non-negative, `0c` negative) plus the width code,
/// then the magnitude in 1, 2, 4 or 8 bytes.
#[inline]
fn write_magnitude<W: Write>(w: &mut W, base: u8, m: u64) -> Result<()> {
    if m <= 0xFF {
        w.write_all(&[base, m as u8])
    } else if m <= 0xFFFF {
        let [a, b] = (m as u16).to_be_bytes();
        w.write_all(&[base + 1, a, b])
    } else if m <= 0xFFFF_FFFF {
        let [a, b, c, d] = (m as u32).to_be_bytes();
        w.write_all(&[base + 2, a, b, c, d])
    } else {
        let [a, b, c, d, e, f, g, h] = m.to_be_bytes();
        w.write_all(&[base + 3, a, b, c, d, e, f, g, h])
    }
}

/// Go's `time.Time.MarshalBinary` layout for `t` (simple §6): 15 bytes, or 16
/// when the offset has a sub-minute part. Returns the buffer and its length.
pub(crate) fn marshal_time(t: &Time) -> Result<([u8; 16], usize)> {
    let secs = t
        .unix_seconds()
        .checked_add(UNIX_TO_GO_SECS)
        .ok_or_else(|| Error::out_of_range("Go time", t))?;
    let (minutes, rem) = match t.offset() {
        None => (-1i32, 0i32),
        Some(o) => {
            let (m, r) = (o / 60, o % 60);
            if m == -1 || !(i16::MIN as i32..=i16::MAX as i32).contains(&m) {
                // Go's MarshalBinary refuses these offsets too.
                return Err(Error::unsupported(format!(
                    "simple (Go binary time) cannot hold the UTC offset of {o} seconds"
                )));
            }
            (m, r)
        }
    };
    let mut buf = [0u8; 16];
    buf[0] = if rem != 0 { 2 } else { 1 };
    buf[1..9].copy_from_slice(&secs.to_be_bytes());
    buf[9..13].copy_from_slice(&t.nanos().to_be_bytes());
    buf[13..15].copy_from_slice(&(minutes as i16).to_be_bytes());
    if rem != 0 {
        buf[15] = rem as i8 as u8;
        Ok((buf, 16))
    } else {
        Ok((buf, 15))
    }
}

impl EncodeFormat for SimpleEncoder {
    const NAME: &'static str = "simple";

    #[inline]
    fn write_nil<W: Write>(&mut self, w: &mut W) -> Result<()> {
        w.write_byte(NIL)
    }

    #[inline]
    fn write_bool<W: Write>(&mut self, w: &mut W, v: bool) -> Result<()> {
        let bd = match v {
            true => 0x03,
            false if self.nil_for_zero() => NIL,
            false => 0x02,
        };
        w.write_byte(bd)
    }

    #[inline]
    fn write_i64<W: Write>(&mut self, w: &mut W, v: i64) -> Result<()> {
        if v < 0 {
            write_magnitude(w, 0x0C, v.unsigned_abs())
        } else {
            self.write_u64(w, v as u64)
        }
    }

    #[inline]
    fn write_u64<W: Write>(&mut self, w: &mut W, v: u64) -> Result<()> {
        if v == 0 && self.nil_for_zero() {
            return w.write_byte(NIL);
        }
        write_magnitude(w, 0x08, v)
    }

    /// Never nil, even tag 0 with `zero_as_nil`: a variant's tag is what
    /// tells the variants apart, and nil would name none of them.
    #[inline]
    fn write_variant_index<W: Write>(&mut self, w: &mut W, v: i64) -> Result<()> {
        if v < 0 {
            write_magnitude(w, 0x0C, v.unsigned_abs())
        } else {
            write_magnitude(w, 0x08, v as u64)
        }
    }

    #[inline]
    fn write_f32<W: Write>(&mut self, w: &mut W, v: f32) -> Result<()> {
        if v == 0.0 && self.nil_for_zero() {
            return w.write_byte(NIL);
        }
        let [a, b, c, d] = v.to_bits().to_be_bytes();
        w.write_all(&[0x04, a, b, c, d])
    }

    #[inline]
    fn write_f64<W: Write>(&mut self, w: &mut W, v: f64) -> Result<()> {
        if v == 0.0 && self.nil_for_zero() {
            return w.write_byte(NIL);
        }
        let [a, b, c, d, e, f, g, h] = v.to_bits().to_be_bytes();
        w.write_all(&[0x05, a, b, c, d, e, f, g, h])
    }

    #[inline]
    fn write_str<W: Write>(&mut self, w: &mut W, v: &str) -> Result<()> {
        if v.is_empty() && self.nil_for_zero() {
            return w.write_byte(NIL);
        }
        header(w, BASE_STRING, v.len() as u64)?;
        w.write_all(v.as_bytes())
    }

    /// Inlined where the name is a constant: its header folds, and a name
    /// of up to 64 bytes is copied with its header in a few fixed-size
    /// stores.
    #[inline(always)]
    fn write_field_name<W: Write>(&mut self, w: &mut W, name: &'static str) -> Result<()> {
        // Always in key position: never nil.
        string_item(w, BASE_STRING, name.as_bytes())
    }

    /// A struct field's name (the bytes of the default): a name of up to
    /// 14 bytes is written with its header in one word, a longer one by
    /// `write_field_name` (derived code passes a constant name, so only one
    /// branch remains).
    #[inline(always)]
    fn write_field<W: Write>(&mut self, w: &mut W, _index: usize, name: FieldName) -> Result<()> {
        self.set_in_key(false);
        let len = name.as_str().len();
        let (head, head_len) = match len {
            0 => (u32::from(BASE_STRING), 1),
            _ => (u32::from(BASE_STRING + 1) | (len as u32 & 0xff) << 8, 2),
        };
        if len < 15
            && let Some((word, n)) = name.with_head(head, head_len)
        {
            return w.write_word(word, n);
        }
        self.write_field_name(w, name.as_str())
    }

    #[inline]
    fn write_bytes<W: Write>(&mut self, w: &mut W, v: &[u8]) -> Result<()> {
        header(w, BASE_BYTES, v.len() as u64)?;
        w.write_all(v)
    }

    #[inline]
    fn write_array_start<W: Write>(&mut self, w: &mut W, len: usize) -> Result<()> {
        self.set_in_key(false);
        header(w, BASE_ARRAY, len as u64)
    }

    #[inline]
    fn write_map_start<W: Write>(&mut self, w: &mut W, len: usize) -> Result<()> {
        self.set_in_key(false);
        header(w, BASE_MAP, len as u64)
    }

    #[inline]
    fn write_map_key<W: Write>(&mut self, _w: &mut W, _index: usize) -> Result<()> {
        self.set_in_key(true);
        Ok(())
    }

    #[inline]
    fn write_map_value<W: Write>(&mut self, _w: &mut W) -> Result<()> {
        self.set_in_key(false);
        Ok(())
    }

    fn write_time<W: Write>(&mut self, w: &mut W, t: &Time) -> Result<()> {
        if t.is_go_zero() {
            // Go's zero time.Time is written as nil.
            return w.write_byte(NIL);
        }
        let (buf, n) = marshal_time(t)?;
        let mut out = [0u8; 18];
        out[0] = 0x18;
        out[1] = n as u8;
        out[2..2 + n].copy_from_slice(&buf[..n]);
        w.write_all(&out[..2 + n])
    }

    fn write_ext<W: Write>(&mut self, w: &mut W, tag: u64, data: &[u8]) -> Result<()> {
        let tag = u8::try_from(tag).map_err(|_| {
            Error::unsupported(format!(
                "simple extension tags are one byte; {tag} does not fit"
            ))
        })?;
        header(w, BASE_EXT, data.len() as u64)?;
        w.write_byte(tag)?;
        w.write_all(data)
    }

    fn side(&self) -> Self {
        SimpleEncoder::new(self.zero_as_nil)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    fn enc(
        zero_as_nil: bool,
        f: impl FnOnce(&mut SimpleEncoder, &mut Vec<u8>) -> Result<()>,
    ) -> Vec<u8> {
        let mut out = Vec::new();
        let mut e = SimpleEncoder::new(zero_as_nil);
        f(&mut e, &mut out).unwrap();
        out
    }

    #[test]
    fn integer_table() {
        let table: &[(i128, &str)] = &[
            (0, "08 00"),
            (1, "08 01"),
            (255, "08 ff"),
            (256, "09 01 00"),
            (65_535, "09 ff ff"),
            (65_536, "0a 00 01 00 00"),
            (0x7F_FFFF, "0a 00 7f ff ff"),
            (4_294_967_295, "0a ff ff ff ff"),
            (4_294_967_296, "0b 00 00 00 01 00 00 00 00"),
            (i64::MAX as i128, "0b 7f ff ff ff ff ff ff ff"),
            (u64::MAX as i128, "0b ff ff ff ff ff ff ff ff"),
            (-1, "0c 01"),
            (-128, "0c 80"),
            (-129, "0c 81"),
            (-256, "0d 01 00"),
            (-65_536, "0e 00 01 00 00"),
            (-4_294_967_296, "0f 00 00 00 01 00 00 00 00"),
            (i64::MIN as i128, "0f 80 00 00 00 00 00 00 00"),
        ];
        for &(v, want) in table {
            let got = match i64::try_from(v) {
                Ok(i) => enc(false, |e, w| e.write_i64(w, i)),
                Err(_) => enc(false, |e, w| e.write_u64(w, v as u64)),
            };
            assert_eq!(got, hex(want), "{v}");
        }
    }

    #[test]
    fn floats_keep_width_and_bits() {
        assert_eq!(enc(false, |e, w| e.write_f32(w, 1.5)), hex("04 3fc00000"));
        assert_eq!(
            enc(false, |e, w| e.write_f64(w, 0.1)),
            hex("05 3fb999999999999a")
        );
        assert_eq!(
            enc(false, |e, w| e.write_f64(w, -0.0)),
            hex("05 8000000000000000")
        );
        let go_nan = f64::from_bits(0x7ff8_0000_0000_0001);
        assert_eq!(
            enc(false, |e, w| e.write_f64(w, go_nan)),
            hex("05 7ff8000000000001")
        );
    }

    #[test]
    fn containers() {
        assert_eq!(enc(false, |e, w| e.write_str(w, "")), hex("d8"));
        assert_eq!(enc(false, |e, w| e.write_str(w, "a")), hex("d9 01 61"));
        assert_eq!(
            enc(false, |e, w| e.write_str(w, &"a".repeat(256)))[..3],
            hex("da 01 00")[..]
        );
        assert_eq!(enc(false, |e, w| e.write_bytes(w, &[])), hex("e0"));
        assert_eq!(
            enc(false, |e, w| e.write_array_start(w, 300)),
            hex("ea 01 2c")
        );
        assert_eq!(
            enc(false, |e, w| e.write_array_start(w, 70_000)),
            hex("eb 00 01 11 70")
        );
        assert_eq!(enc(false, |e, w| e.write_map_start(w, 1)), hex("f1 01"));
        assert_eq!(
            enc(false, |e, w| e.write_ext(w, 5, &[1, 2])),
            hex("f9 02 05 01 02")
        );
        assert_eq!(enc(false, |e, w| e.write_ext(w, 7, &[])), hex("f8 07"));
        assert!(
            SimpleEncoder::new(false)
                .write_ext(&mut Vec::new(), 300, &[])
                .is_err()
        );
    }

    fn t(s: &str) -> Time {
        Time::parse_rfc3339(s).unwrap()
    }

    #[test]
    fn time_layout() {
        let table: &[(Time, &str)] = &[
            (Time::GO_ZERO, "01"),
            (
                t("2020-01-02T03:04:05.000000006Z"),
                "18 0f 01 0000000ed59f54a5 00000006 ffff",
            ),
            (
                t("1970-01-01T00:00:00Z"),
                "18 0f 01 0000000e7791f700 00000000 ffff",
            ),
            (
                t("1960-01-01T00:00:00Z"),
                "18 0f 01 0000000e64c1ff80 00000000 ffff",
            ),
            (
                t("2020-01-02T03:04:05.123456789-05:00"),
                "18 0f 01 0000000ed59f9af5 075bcd15 fed4",
            ),
            (
                t("2020-01-02T03:04:05Z").with_offset(0),
                "18 0f 01 0000000ed59f54a5 00000000 0000",
            ),
            (
                // Wall clock 03:04:05 at -00:00:30.
                t("2020-01-02T03:04:35Z").with_offset(-30),
                "18 10 02 0000000ed59f54c3 00000000 0000 e2",
            ),
        ];
        for (v, want) in table {
            assert_eq!(enc(false, |e, w| e.write_time(w, v)), hex(want), "{v}");
        }
        // An offset of exactly -1 minute cannot be written (Go refuses it too).
        assert!(
            SimpleEncoder::new(false)
                .write_time(&mut Vec::new(), &t("2020-01-02T03:04:05Z").with_offset(-60))
                .is_err()
        );
    }

    #[test]
    fn zero_values_as_nil() {
        assert_eq!(enc(true, |e, w| e.write_bool(w, false)), hex("01"));
        assert_eq!(enc(true, |e, w| e.write_bool(w, true)), hex("03"));
        assert_eq!(enc(true, |e, w| e.write_u64(w, 0)), hex("01"));
        assert_eq!(enc(true, |e, w| e.write_i64(w, 0)), hex("01"));
        assert_eq!(enc(true, |e, w| e.write_i64(w, -1)), hex("0c 01"));
        // An enum's integer tag is never nil: 0 names a variant.
        assert_eq!(enc(true, |e, w| e.write_variant_index(w, 0)), hex("08 00"));
        assert_eq!(enc(true, |e, w| e.write_variant_index(w, -5)), hex("0c 05"));
        assert_eq!(
            enc(true, |e, w| e.write_variant_index(w, 300)),
            hex("09 01 2c")
        );
        assert_eq!(enc(false, |e, w| e.write_variant_index(w, 0)), hex("08 00"));
        assert_eq!(enc(true, |e, w| e.write_f32(w, -0.0)), hex("01"));
        assert_eq!(enc(true, |e, w| e.write_f64(w, 0.0)), hex("01"));
        assert_eq!(enc(true, |e, w| e.write_str(w, "")), hex("01"));
        assert_eq!(enc(true, |e, w| e.write_bytes(w, &[])), hex("e0"));
        assert_eq!(enc(true, |e, w| e.write_array_start(w, 0)), hex("e8"));
        // map[int]bool{0: false}: the key stays, the value becomes nil.
        let got = enc(true, |e, w| {
            e.write_map_start(w, 1)?;
            e.write_map_key(w, 0)?;
            e.write_i64(w, 0)?;
            e.write_map_value(w)?;
            e.write_bool(w, false)?;
            e.write_map_end(w, 1)
        });
        assert_eq!(got, hex("f1 01 08 00 01"));
        // A struct field name is never nil, even an empty one.
        assert_eq!(enc(true, |e, w| e.write_field_name(w, "")), hex("d8"));
    }
}
