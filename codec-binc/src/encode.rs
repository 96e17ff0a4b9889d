//! [`BincEncoder`]: the encoding half of the Binc driver.

use crate::{
    VD_ARRAY, VD_BYTES, VD_CUSTOM_EXT, VD_MAP, VD_STRING, container_bytes, container_header,
};
use codec_core::{EncodeFormat, Error, FieldName, Result, Time, Write};
use std::collections::HashMap;

/// The largest symbol id: ids are 16-bit and start at 1.
const MAX_SYMBOL_ID: u32 = u16::MAX as u32;

/// Writes Binc. One encoder keeps one symbol table for its whole life
/// (ugorji's table survives across `Encode` calls on one `Encoder`).
#[derive(Debug, Clone, Default)]
pub struct BincEncoder {
    as_symbols: bool,
    /// Between `write_map_key` and `write_map_value` at this level: a string
    /// written now is a map key and may become a symbol. Kept only with
    /// symbols on (see `set_in_key`).
    in_key: bool,
    symbols: HashMap<Box<str>, u16>,
    /// The id the next new symbol gets; past 65 535 no more symbols are defined.
    next_id: u32,
}

impl BincEncoder {
    /// A driver; `as_symbols` turns map-key strings into symbols.
    pub fn new(as_symbols: bool) -> Self {
        BincEncoder {
            as_symbols,
            in_key: false,
            symbols: HashMap::new(),
            next_id: 1,
        }
    }

    /// Enters or leaves key position. `in_key` is read only with symbols
    /// on, and is stored only when it changes (a store on every field, read
    /// back at once by a wider load, stalls on store forwarding).
    #[inline(always)]
    fn set_in_key(&mut self, on: bool) {
        if self.as_symbols && self.in_key != on {
            self.in_key = on;
        }
    }

    /// Number of symbols defined so far by this encoder.
    pub fn symbol_count(&self) -> usize {
        self.symbols.len()
    }

    /// Writes `s` as a symbol (definition or reference) if symbols are on and
    /// it is long enough; returns false when it must be written as a string.
    /// The check is inline (symbols are off by default), the table out of line.
    #[inline(always)]
    fn try_symbol<W: Write>(&mut self, w: &mut W, s: &str) -> Result<bool> {
        if !self.as_symbols || s.len() < 2 {
            return Ok(false);
        }
        self.symbol(w, s)
    }

    /// [`try_symbol`](Self::try_symbol) with symbols on.
    #[inline(never)]
    fn symbol<W: Write>(&mut self, w: &mut W, s: &str) -> Result<bool> {
        if let Some(&id) = self.symbols.get(s) {
            write_symbol_ref(w, id)?;
            return Ok(true);
        }
        if self.next_id > MAX_SYMBOL_ID {
            // Ids exhausted: ugorji wraps the counter and redefines old ids,
            // which corrupts later references. We write a plain string instead.
            return Ok(false);
        }
        let id = self.next_id as u16;
        self.next_id += 1;
        self.symbols.insert(s.into(), id);
        write_symbol_def(w, id, s.as_bytes())?;
        Ok(true)
    }
}

#[inline]
fn write_symbol_ref<W: Write>(w: &mut W, id: u16) -> Result<()> {
    if id <= 0xFF {
        w.write_small([0xB0, id as u8])
    } else {
        let [hi, lo] = id.to_be_bytes();
        w.write_small([0xB8, hi, lo])
    }
}

fn write_symbol_def<W: Write>(w: &mut W, id: u16, text: &[u8]) -> Result<()> {
    let mut buf = [0u8; 12];
    let mut n = 0;
    // W X YY: W = 2-byte id, X = definition, YY = length width 1/2/4/8.
    let (yy, len_bytes): (u8, usize) = match text.len() {
        l if l <= 0xFF => (0, 1),
        l if l <= 0xFFFF => (1, 2),
        l if l as u64 <= 0xFFFF_FFFF => (2, 4),
        _ => (3, 8),
    };
    if id <= 0xFF {
        buf[0] = 0xB4 | yy;
        buf[1] = id as u8;
        n += 2;
    } else {
        let [hi, lo] = id.to_be_bytes();
        buf[0] = 0xBC | yy;
        buf[1] = hi;
        buf[2] = lo;
        n += 3;
    }
    let len = (text.len() as u64).to_be_bytes();
    buf[n..n + len_bytes].copy_from_slice(&len[8 - len_bytes..]);
    n += len_bytes;
    w.write_all(&buf[..n])?;
    w.write_all(text)
}

/// Drops redundant leading bytes of a big-endian two's-complement number
/// (ugorji's `pruneSignExt`): `00` before a byte below `0x80` when
/// `positive`, `FF` before a byte of `0x80` or more otherwise. Returns the
/// index of the first byte kept.
#[inline]
pub(crate) fn prune_sign_ext(b: &[u8], positive: bool) -> usize {
    let mut i = 0;
    while i + 1 < b.len() {
        let (cur, next) = (b[i], b[i + 1]);
        let redundant = if positive {
            cur == 0x00 && next & 0x80 == 0
        } else {
            cur == 0xFF && next & 0x80 != 0
        };
        if !redundant {
            break;
        }
        i += 1;
    }
    i
}

/// An unsigned integer of 2^32 or more: its 8-byte big-endian form pruned
/// as ugorji's `pruneSignExt` does (the leading zero bytes that a clear
/// sign bit does not need), written as one [`Write::write_word`].
#[inline(never)]
fn write_u64_wide<W: Write>(w: &mut W, v: u64) -> Result<()> {
    let bits = 65 - v.leading_zeros() as usize; // with the sign bit
    let n = bits.div_ceil(8).min(8);
    let mut word = [0u8; 16];
    word[0] = 0x10 | (n - 1) as u8;
    word[1..9].copy_from_slice(&(v << (8 * (8 - n))).to_be_bytes());
    w.write_word(word, 1 + n)
}

impl EncodeFormat for BincEncoder {
    const NAME: &'static str = "binc";

    #[inline]
    fn write_nil<W: Write>(&mut self, w: &mut W) -> Result<()> {
        w.write_byte(0x00)
    }

    #[inline]
    fn write_bool<W: Write>(&mut self, w: &mut W, v: bool) -> Result<()> {
        w.write_byte(if v { 0x02 } else { 0x01 })
    }

    #[inline]
    fn write_i64<W: Write>(&mut self, w: &mut W, v: i64) -> Result<()> {
        if v >= 0 {
            return self.write_u64(w, v as u64);
        }
        if v == -1 {
            return w.write_byte(0x08);
        }
        let m = v.unsigned_abs();
        if m <= 0xFF {
            w.write_small([0x20, m as u8])
        } else if m <= 0xFFFF {
            let [a, b] = (m as u16).to_be_bytes();
            w.write_small([0x21, a, b])
        } else if m <= 0xFFFF_FFFF {
            // Always the full 4-byte magnitude. ugorji prunes it as if it were
            // two's complement, which corrupts magnitudes 0xFF80_0000..=0xFFFF_FFFF;
            // we write the correct bytes (documented in the crate docs).
            let [a, b, c, d] = (m as u32).to_be_bytes();
            w.write_small([0x23, a, b, c, d])
        } else {
            let [a, b, c, d, e, f, g, h] = m.to_be_bytes();
            w.write_small([0x27, a, b, c, d, e, f, g, h])
        }
    }

    /// Inline up to 32 bits (each head a fixed-size store), wider out of
    /// line.
    #[inline(always)]
    fn write_u64<W: Write>(&mut self, w: &mut W, v: u64) -> Result<()> {
        match v {
            0 => w.write_byte(0x07),
            1..=16 => w.write_byte(0x90 | (v - 1) as u8),
            17..=0xFF => w.write_small([0x10, v as u8]),
            0x100..=0xFFFF => {
                let [a, b] = (v as u16).to_be_bytes();
                w.write_small([0x11, a, b])
            }
            // ugorji prunes a value below 2^32 within its 4-byte form: three
            // bytes while the top one would be a clear sign bit, else four
            // (0xFFFF_FFFF is `13 ff ff ff ff`).
            0x1_0000..=0x7F_FFFF => {
                let [_, a, b, c] = (v as u32).to_be_bytes();
                w.write_small([0x12, a, b, c])
            }
            0x80_0000..=0xFFFF_FFFF => {
                let [a, b, c, d] = (v as u32).to_be_bytes();
                w.write_small([0x13, a, b, c, d])
            }
            _ => write_u64_wide(w, v),
        }
    }

    #[inline]
    fn write_f32<W: Write>(&mut self, w: &mut W, v: f32) -> Result<()> {
        if let Some(special) = float_special(v as f64) {
            return w.write_byte(special);
        }
        let [a, b, c, d] = v.to_bits().to_be_bytes();
        w.write_all(&[0x31, a, b, c, d])
    }

    #[inline]
    fn write_f64<W: Write>(&mut self, w: &mut W, v: f64) -> Result<()> {
        if let Some(special) = float_special(v) {
            return w.write_byte(special);
        }
        let b = v.to_bits().to_be_bytes();
        let kept = 8 - v.to_bits().trailing_zeros() as usize / 8;
        if kept <= 6 {
            // Pruned: `3b`, the count, the leading bytes (one word).
            let mut word = [0u8; 16];
            word[0] = 0x3B;
            word[1] = kept as u8;
            word[2..10].copy_from_slice(&b);
            w.write_word(word, 2 + kept)
        } else {
            let [b0, b1, b2, b3, b4, b5, b6, b7] = b;
            // `write_all`, not one 16-byte store: in a run of floats (an
            // array of them) the wide stores made MessagePack's encoding of
            // canada.json a third slower (see its `write_f32`).
            w.write_all(&[0x33, b0, b1, b2, b3, b4, b5, b6, b7])
        }
    }

    #[inline]
    fn write_str<W: Write>(&mut self, w: &mut W, v: &str) -> Result<()> {
        if self.in_key {
            self.set_in_key(false);
            if self.try_symbol(w, v)? {
                return Ok(());
            }
        }
        container_header(w, VD_STRING, v.len() as u64)?;
        w.write_all(v.as_bytes())
    }

    /// Inlined where the name is a constant: without symbols, its header
    /// folds and a name of up to 64 bytes is copied with it in a few
    /// fixed-size stores.
    #[inline(always)]
    fn write_field_name<W: Write>(&mut self, w: &mut W, name: &'static str) -> Result<()> {
        self.set_in_key(false);
        if self.try_symbol(w, name)? {
            return Ok(());
        }
        container_bytes(w, VD_STRING, name.as_bytes())
    }

    /// A struct field's name (the bytes of the default): without symbols,
    /// a name of up to 14 bytes is written with its header in one word, a
    /// longer one (or any, with symbols) by `write_field_name` (derived code
    /// passes a constant name, so only one branch remains).
    #[inline(always)]
    fn write_field<W: Write>(&mut self, w: &mut W, _index: usize, name: FieldName) -> Result<()> {
        let len = name.as_str().len();
        let hi = u32::from(VD_STRING << 4);
        let (head, head_len) = if len < 12 {
            (hi | (len as u32 + 4), 1)
        } else {
            (hi | (len as u32 & 0xFF) << 8, 2)
        };
        if !self.as_symbols
            && len < 15
            && let Some((word, n)) = name.with_head(head, head_len)
        {
            self.set_in_key(false);
            return w.write_word(word, n);
        }
        self.write_field_name(w, name.as_str())
    }

    #[inline]
    fn write_bytes<W: Write>(&mut self, w: &mut W, v: &[u8]) -> Result<()> {
        container_header(w, VD_BYTES, v.len() as u64)?;
        w.write_all(v)
    }

    #[inline]
    fn write_array_start<W: Write>(&mut self, w: &mut W, len: usize) -> Result<()> {
        self.set_in_key(false);
        container_header(w, VD_ARRAY, len as u64)
    }

    #[inline]
    fn write_map_start<W: Write>(&mut self, w: &mut W, len: usize) -> Result<()> {
        self.set_in_key(false);
        container_header(w, VD_MAP, len as u64)
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
            return w.write_byte(0x00);
        }
        let mut buf = [0u8; 16];
        let mut n = 2; // buf[0] = 0x80 | P, buf[1] = inner descriptor
        let mut desc = 0u8;
        let secs = t.unix_seconds();
        if secs != 0 {
            let b = secs.to_be_bytes();
            let i = prune_sign_ext(&b, secs >= 0);
            let kept = 8 - i;
            desc |= 0x80 | (((kept - 1) as u8) << 2);
            buf[n..n + kept].copy_from_slice(&b[i..]);
            n += kept;
        }
        let nanos = t.nanos();
        if nanos != 0 {
            let b = nanos.to_be_bytes();
            let i = prune_sign_ext(&b, true);
            let kept = 4 - i;
            desc |= 0x40 | (kept - 1) as u8;
            buf[n..n + kept].copy_from_slice(&b[i..]);
            n += kept;
        }
        if let Some(offset) = t.offset() {
            // Minutes, truncated toward zero, as a 14-bit two's-complement number.
            let minutes = offset / 60;
            if !(-0x2000..0x2000).contains(&minutes) {
                return Err(Error::unsupported(format!(
                    "binc cannot hold the UTC offset of {offset} seconds"
                )));
            }
            desc |= 0x20;
            let z = (minutes as i16 as u16) & 0x3FFF;
            buf[n..n + 2].copy_from_slice(&z.to_be_bytes());
            n += 2;
        }
        buf[0] = 0x80 | (n - 1) as u8;
        buf[1] = desc;
        w.write_all(&buf[..n])
    }

    fn write_ext<W: Write>(&mut self, w: &mut W, tag: u64, data: &[u8]) -> Result<()> {
        let tag = u8::try_from(tag).map_err(|_| {
            Error::unsupported(format!(
                "binc extension tags are one byte; {tag} does not fit"
            ))
        })?;
        container_header(w, VD_CUSTOM_EXT, data.len() as u64)?;
        w.write_byte(tag)?;
        w.write_all(data)
    }

    fn side(&self) -> Self {
        BincEncoder::new(self.as_symbols)
    }

    /// Without symbols: a key's sort bytes are its plain encoding. With
    /// symbols they would depend on ids the side table hands out, and the
    /// side encoder could not reuse its own nested keys, so a map of maps as
    /// a key would cost 2^depth encodings instead of depth × its size.
    fn side_key(&self) -> Self {
        BincEncoder::new(false)
    }

    /// Not with symbols: a key's bytes depend on this stream's symbol table,
    /// so it is sorted by its plain bytes and encoded again in place.
    fn reuse_side_keys(&self) -> bool {
        !self.as_symbols
    }
}

/// The one-byte special for a float that has one: ±0, NaN, ±Inf. A
/// finite non-zero float (nearly every one) is told by one compare of its
/// magnitude's bits, where the three tests took three branches per float.
#[inline(always)]
fn float_special(v: f64) -> Option<u8> {
    let magnitude = v.to_bits() & !(1 << 63);
    if magnitude.wrapping_sub(1) < f64::INFINITY.to_bits() - 1 {
        return None;
    }
    float_special_kind(v)
}

/// [`float_special`] for ±0, NaN and ±Inf.
#[inline(never)]
fn float_special_kind(v: f64) -> Option<u8> {
    if v == 0.0 {
        Some(0x06)
    } else if v.is_nan() {
        Some(0x03)
    } else if v.is_infinite() {
        Some(if v > 0.0 { 0x04 } else { 0x05 })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(f: impl FnOnce(&mut BincEncoder, &mut Vec<u8>) -> Result<()>) -> Vec<u8> {
        let mut out = Vec::new();
        let mut e = BincEncoder::new(false);
        f(&mut e, &mut out).unwrap();
        out
    }

    fn hex(s: &str) -> Vec<u8> {
        let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn unsigned_pruning_table() {
        let table: &[(u64, &str)] = &[
            (0, "07"),
            (1, "90"),
            (16, "9f"),
            (17, "10 11"),
            (255, "10 ff"),
            (256, "11 01 00"),
            (65_536, "12 01 00 00"),
            (0x7F_FFFF, "12 7f ff ff"),
            (0x80_0000, "13 00 80 00 00"),
            (0xFF_FFFF, "13 00 ff ff ff"),
            (0xFFFF_FFFF, "13 ff ff ff ff"),
            (1 << 32, "14 01 00 00 00 00"),
            (0x0080_0000_0000_0000, "17 00 80 00 00 00 00 00 00"),
            (i64::MAX as u64, "17 7f ff ff ff ff ff ff ff"),
            (u64::MAX, "17 ff ff ff ff ff ff ff ff"),
        ];
        for &(v, want) in table {
            assert_eq!(enc(|e, w| e.write_u64(w, v)), hex(want), "{v}");
            if let Ok(i) = i64::try_from(v) {
                assert_eq!(enc(|e, w| e.write_i64(w, i)), hex(want), "{v} as i64");
            }
        }
    }

    #[test]
    fn unsigned_heads_match_ugorji_pruning() {
        // Every width boundary, against ugorji's rule spelled out: the 4-byte
        // (below 2^32) or 8-byte big-endian form, pruned by pruneSignExt.
        let mut values = vec![u64::MAX, 0xFFFF_FFFF, 0x8000_0000, 0x7FFF_FFFF];
        for k in 0..64 {
            let p = 1u64 << k;
            values.extend([p - 1, p, p + 1, p | (p >> 1), p.wrapping_mul(0xFF)]);
        }
        for v in values.into_iter().filter(|&v| v > 0xFFFF) {
            let full = v.to_be_bytes();
            let b = if v <= 0xFFFF_FFFF {
                &full[4..]
            } else {
                &full[..]
            };
            let i = prune_sign_ext(b, true);
            let mut want = vec![0x10 | (b.len() - 1 - i) as u8];
            want.extend_from_slice(&b[i..]);
            assert_eq!(enc(|e, w| e.write_u64(w, v)), want, "{v:#x}");
        }
    }

    #[test]
    fn float_heads_match_the_byte_rule() {
        // Pruned to its leading bytes when at most 6 are not trailing zeros.
        for kept in 1..=8u32 {
            for top in [0x3F_u64, 0x40, 0x7F, 0xC0, 0xFF] {
                let bits = top << 56 | 1 << (64 - 8 * kept);
                let v = f64::from_bits(bits);
                if float_special(v).is_some() {
                    continue;
                }
                let b = bits.to_be_bytes();
                let n = 8 - bits.trailing_zeros() as usize / 8;
                let want = if n <= 6 {
                    [&[0x3B, n as u8][..], &b[..n]].concat()
                } else {
                    [&[0x33][..], &b[..]].concat()
                };
                assert_eq!(enc(|e, w| e.write_f64(w, v)), want, "{bits:#x}");
            }
        }
    }

    #[test]
    fn float_specials_at_every_edge() {
        // The one-compare test against the three it replaced, at the edges
        // of its range: ±0, the smallest subnormals, the largest finite,
        // ±Inf, NaNs with the smallest and largest payloads, either sign.
        let edges = [
            0,
            1,
            2,
            0x000f_ffff_ffff_ffff,
            0x0010_0000_0000_0000,
            0x3ff0_0000_0000_0000,
            0x7fef_ffff_ffff_ffff,
            0x7ff0_0000_0000_0000,
            0x7ff0_0000_0000_0001,
            0x7ff8_0000_0000_0000,
            0x7fff_ffff_ffff_ffff,
        ];
        for bits in edges.into_iter().flat_map(|b| [b, b | 1 << 63]) {
            let v = f64::from_bits(bits);
            let want = if v == 0.0 {
                Some(0x06)
            } else if v.is_nan() {
                Some(0x03)
            } else if v == f64::INFINITY {
                Some(0x04)
            } else if v == f64::NEG_INFINITY {
                Some(0x05)
            } else {
                None
            };
            assert_eq!(float_special(v), want, "{bits:#018x}");
        }
    }

    #[test]
    fn field_names_are_the_default_bytes() {
        // write_field's one-word path against the default's three calls,
        // for every name length around the 1-, 2-byte head and word limits.
        for symbols in [false, true] {
            for len in 0..=20 {
                let name: &'static str = "abcdefghijklmnopqrstuvwxyz"[..len].to_string().leak();
                let (mut a, mut b) = (BincEncoder::new(symbols), BincEncoder::new(symbols));
                let (mut wa, mut wb) = (Vec::new(), Vec::new());
                for index in 0..2 {
                    a.write_field(&mut wa, index, FieldName::new(name)).unwrap();
                    b.write_map_key(&mut wb, index).unwrap();
                    b.write_field_name(&mut wb, name).unwrap();
                    b.write_map_value(&mut wb).unwrap();
                }
                assert_eq!(wa, wb, "{len} bytes, symbols {symbols}");
            }
        }
        let (word_head, two_byte_head) = (
            enc(|e, w| e.write_field(w, 0, FieldName::new("abc"))),
            enc(|e, w| e.write_field(w, 0, FieldName::new("abcdefghijklm"))),
        );
        assert_eq!(word_head, hex("47 616263"));
        assert_eq!(two_byte_head[..2], hex("40 0d")[..]);
    }

    #[test]
    fn negative_table() {
        let table: &[(i64, &str)] = &[
            (-1, "08"),
            (-2, "20 02"),
            (-128, "20 80"),
            (-256, "21 01 00"),
            (-70_000, "23 00 01 11 70"),
            (-(1 << 32), "27 00 00 00 01 00 00 00 00"),
            (i64::MIN, "27 80 00 00 00 00 00 00 00"),
        ];
        for &(v, want) in table {
            assert_eq!(enc(|e, w| e.write_i64(w, v)), hex(want), "{v}");
        }
    }

    #[test]
    fn negative_magnitude_fix() {
        // ugorji writes -0xFF80_0000 as `22 80 00 00` and -0xFFFF_FFFF as `20 ff`
        // (wrong values); we write the full magnitude.
        assert_eq!(
            enc(|e, w| e.write_i64(w, -0xFF80_0000)),
            hex("23 ff 80 00 00")
        );
        assert_eq!(
            enc(|e, w| e.write_i64(w, -0xFFFF_FFFF)),
            hex("23 ff ff ff ff")
        );
        assert_eq!(
            enc(|e, w| e.write_i64(w, -0xFF7F_FFFF)),
            hex("23 ff 7f ff ff")
        );
    }

    #[test]
    fn float_forms() {
        let table: &[(f64, &str)] = &[
            (1.0, "3b 02 3f f0"),
            (2.0, "3b 01 40"),
            (1.5, "3b 02 3f f8"),
            (17.0, "3b 02 40 31"),
            (-2.5, "3b 02 c0 04"),
            (100_000.0, "3b 03 40 f8 6a"),
            (123_456_789.0, "3b 05 41 9d 6f 34 54"),
            (0.1, "33 3f b9 99 99 99 99 99 9a"),
            (1e300, "33 7e 37 e4 3c 88 00 75 9c"),
            (5e-324, "33 00 00 00 00 00 00 00 01"),
            (0.0, "06"),
            (-0.0, "06"),
            (f64::NAN, "03"),
            (f64::INFINITY, "04"),
            (f64::NEG_INFINITY, "05"),
        ];
        for &(v, want) in table {
            assert_eq!(enc(|e, w| e.write_f64(w, v)), hex(want), "{v}");
        }
        // Seven significant bytes: no saving, full form.
        let seven = f64::from_bits(0x3ff0_0000_0000_0100);
        assert_eq!(enc(|e, w| e.write_f64(w, seven))[0], 0x33);
        // float32 is never pruned.
        assert_eq!(enc(|e, w| e.write_f32(w, 1.5)), hex("31 3f c0 00 00"));
        assert_eq!(enc(|e, w| e.write_f32(w, 0.1)), hex("31 3d cc cc cd"));
        assert_eq!(enc(|e, w| e.write_f32(w, -0.0)), hex("06"));
    }

    #[test]
    fn container_lengths() {
        assert_eq!(enc(|e, w| e.write_str(w, "")), hex("44"));
        assert_eq!(
            enc(|e, w| e.write_str(w, "hello")),
            hex("49 68 65 6c 6c 6f")
        );
        let s12 = "a".repeat(12);
        assert_eq!(enc(|e, w| e.write_str(w, &s12))[..2], hex("40 0c")[..]);
        let s256 = "a".repeat(256);
        assert_eq!(enc(|e, w| e.write_str(w, &s256))[..3], hex("41 01 00")[..]);
        assert_eq!(
            enc(|e, w| e.write_array_start(w, 70_000)),
            hex("62 00 01 11 70")
        );
        assert_eq!(enc(|e, w| e.write_map_start(w, 0)), hex("74"));
        assert_eq!(enc(|e, w| e.write_bytes(w, &[1, 2])), hex("56 01 02"));
        assert_eq!(enc(|e, w| e.write_ext(w, 5, &[1, 2])), hex("f6 05 01 02"));
        assert_eq!(
            enc(|e, w| e.write_ext(w, 1, &[0; 12]))[..3],
            hex("f0 0c 01")[..]
        );
        assert!(
            BincEncoder::new(false)
                .write_ext(&mut Vec::new(), 256, &[])
                .is_err()
        );
    }

    fn t(s: &str) -> Time {
        Time::parse_rfc3339(s).unwrap()
    }

    #[test]
    fn time_table() {
        let table: &[(Time, &str)] = &[
            (Time::GO_ZERO, "00"),
            (t("1970-01-01T00:00:00Z"), "81 00"),
            (t("1970-01-01T00:00:01Z"), "82 80 01"),
            (t("1969-12-31T23:59:59Z"), "82 80 ff"),
            (t("1970-01-01T00:02:08Z"), "83 84 00 80"),
            (t("1970-01-01T00:00:00.000000001Z"), "82 40 01"),
            (t("1970-01-01T00:00:00.999999999Z"), "85 43 3b 9a c9 ff"),
            (t("2020-01-02T03:04:05Z"), "85 8c 5e 0d 5d a5"),
            (t("2020-01-02T03:04:05.000000006Z"), "86 cc 5e 0d 5d a5 06"),
            (
                t("2020-01-02T03:04:05.123456789-05:00"),
                "8b ef 5e 0d a3 f5 07 5b cd 15 3e d4",
            ),
            (t("2020-01-02T03:04:05+05:30"), "87 ac 5e 0d 10 4d 01 4a"),
            (
                t("2020-01-02T03:04:05Z").with_offset(0),
                "87 ac 5e 0d 5d a5 00 00",
            ),
            (t("1960-01-01T00:00:00Z"), "85 8c ed 30 08 80"),
            (t("0001-01-01T00:00:01Z"), "86 90 f1 88 6e 09 01"),
            (t("2106-02-07T06:28:16Z"), "86 90 01 00 00 00 00"),
        ];
        for (v, want) in table {
            assert_eq!(enc(|e, w| e.write_time(w, v)), hex(want), "{v}");
        }
    }

    #[test]
    fn symbols_define_then_reference() {
        let mut e = BincEncoder::new(true);
        let mut w = Vec::new();
        e.write_map_key(&mut w, 0).unwrap();
        e.write_str(&mut w, "Name").unwrap();
        e.write_map_value(&mut w).unwrap();
        e.write_str(&mut w, "Name").unwrap(); // a value: never a symbol
        e.write_map_key(&mut w, 1).unwrap();
        e.write_str(&mut w, "a").unwrap(); // too short
        e.write_map_value(&mut w).unwrap();
        e.write_field_name(&mut w, "Name").unwrap();
        e.write_field_name(&mut w, "Age").unwrap();
        assert_eq!(
            w,
            hex("b4 01 04 4e616d65  48 4e616d65  45 61  b0 01  b4 02 03 416765")
        );
        // A fresh side driver has its own, empty table.
        let mut s = e.side();
        let mut w2 = Vec::new();
        s.write_field_name(&mut w2, "Name").unwrap();
        assert_eq!(w2, hex("b4 01 04 4e616d65"));
    }

    #[test]
    fn symbols_with_wide_ids_and_exhaustion() {
        let mut e = BincEncoder::new(true);
        let mut w = Vec::new();
        for i in 0..300 {
            e.write_map_key(&mut w, 0).unwrap();
            w.clear();
            e.write_str(&mut w, &format!("k{i:03}")).unwrap();
            if i == 255 {
                assert_eq!(w, hex("bc 01 00 04 6b323535"));
            }
        }
        w.clear();
        e.write_map_key(&mut w, 0).unwrap();
        e.write_str(&mut w, "k299").unwrap();
        assert_eq!(w, hex("b8 01 2c"));

        // Run the ids out: the 65 536th distinct key is a plain string.
        for i in 300..65_535 {
            w.clear();
            e.write_map_key(&mut w, 0).unwrap();
            e.write_str(&mut w, &format!("k{i:05}")).unwrap();
        }
        assert_eq!(e.symbol_count(), 65_535);
        w.clear();
        e.write_map_key(&mut w, 0).unwrap();
        e.write_str(&mut w, "overflow").unwrap();
        assert_eq!(w, hex("4c 6f766572666c6f77"));
        // Old symbols are still referenced.
        w.clear();
        e.write_map_key(&mut w, 0).unwrap();
        e.write_str(&mut w, "k000").unwrap();
        assert_eq!(w, hex("b0 01"));
    }

    #[test]
    fn symbol_long_text_uses_wider_length() {
        let mut e = BincEncoder::new(true);
        let mut w = Vec::new();
        let long = "x".repeat(300);
        assert!(e.try_symbol(&mut w, &long).unwrap());
        assert_eq!(w[..4], hex("b5 01 01 2c")[..]);
    }
}
