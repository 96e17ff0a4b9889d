//! [`MsgpackEncoder`]: the encoding half of the MessagePack driver.

use crate::MsgpackHandle;
use crate::spec::*;
use codec_core::{EncodeFormat, Error, FieldName, Result, Time, Write};

/// The MessagePack [`EncodeFormat`]: writes items with the smallest encoding
/// ugorji's `MsgpackHandle` would choose under the same options.
#[derive(Debug, Clone)]
pub struct MsgpackEncoder {
    write_ext: bool,
    positive_int_unsigned: bool,
    no_fixed_num: bool,
}

/// One family of length-prefixed headers: `fix` forms hold lengths below
/// `fix_cutoff` in the low bits of `fix_min`; `b8` is absent (0) where the
/// family has no 8-bit length.
struct Family {
    fix_cutoff: usize,
    fix_min: u8,
    b8: u8,
    b16: u8,
    b32: u8,
    what: &'static str,
}

const STR: Family = Family {
    fix_cutoff: 32,
    fix_min: FIXSTR,
    b8: STR8,
    b16: STR16,
    b32: STR32,
    what: "string",
};
/// The msgpack 1.0 "raw" family: like str without str8.
const RAW: Family = Family {
    fix_cutoff: 32,
    fix_min: FIXSTR,
    b8: 0,
    b16: STR16,
    b32: STR32,
    what: "string",
};
const BIN: Family = Family {
    fix_cutoff: 0,
    fix_min: 0,
    b8: BIN8,
    b16: BIN16,
    b32: BIN32,
    what: "byte string",
};
const ARRAY: Family = Family {
    fix_cutoff: 16,
    fix_min: FIXARRAY,
    b8: 0,
    b16: ARRAY16,
    b32: ARRAY32,
    what: "array",
};
const MAP: Family = Family {
    fix_cutoff: 16,
    fix_min: FIXMAP,
    b8: 0,
    b16: MAP16,
    b32: MAP32,
    what: "map",
};

#[cold]
fn too_long(what: &str, len: usize) -> Error {
    Error::unsupported(format!(
        "msgpack cannot hold a {what} of {len} items or bytes (the limit is 2^32-1)"
    ))
}

impl MsgpackEncoder {
    /// An encoder with the byte-changing settings of `h`.
    pub fn new(h: &MsgpackHandle) -> Self {
        MsgpackEncoder {
            write_ext: h.write_ext,
            positive_int_unsigned: h.positive_int_unsigned,
            no_fixed_num: h.no_fixed_num,
        }
    }

    /// Writes the smallest header of family `f` for `len`: the one-byte
    /// fix form inline (`f` is a constant at every call), the rest out of line.
    #[inline(always)]
    fn header<W: Write>(w: &mut W, f: &Family, len: usize) -> Result<()> {
        if len < f.fix_cutoff {
            return w.write_byte(f.fix_min | len as u8);
        }
        Self::header_long(w, f, len)
    }

    /// [`header`](Self::header) beyond the fix form.
    #[inline(never)]
    fn header_long<W: Write>(w: &mut W, f: &Family, len: usize) -> Result<()> {
        if f.b8 != 0 && len < 256 {
            w.write_small([f.b8, len as u8])
        } else if len < 65_536 {
            let b = (len as u16).to_be_bytes();
            w.write_small([f.b16, b[0], b[1]])
        } else if let Ok(n) = u32::try_from(len) {
            let b = n.to_be_bytes();
            w.write_small([f.b32, b[0], b[1], b[2], b[3]])
        } else {
            Err(too_long(f.what, len))
        }
    }

    /// [`EncodeFormat::write_i64`] past its fixint case.
    #[inline(never)]
    fn write_i64_wide<W: Write>(&mut self, w: &mut W, v: i64) -> Result<()> {
        if v >= 0 && self.positive_int_unsigned {
            return self.write_u64(w, v as u64);
        }
        if v > i64::from(i8::MAX) {
            if v <= i64::from(i16::MAX) {
                let b = (v as i16).to_be_bytes();
                w.write_small([INT16, b[0], b[1]])
            } else if v <= i64::from(i32::MAX) {
                let b = (v as i32).to_be_bytes();
                w.write_small([INT32, b[0], b[1], b[2], b[3]])
            } else {
                let b = v.to_be_bytes();
                w.write_small([INT64, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
            }
        } else if v >= -32 {
            if self.no_fixed_num {
                w.write_small([INT8, v as u8])
            } else {
                w.write_byte(v as u8)
            }
        } else if v >= i64::from(i8::MIN) {
            w.write_small([INT8, v as u8])
        } else if v >= i64::from(i16::MIN) {
            let b = (v as i16).to_be_bytes();
            w.write_small([INT16, b[0], b[1]])
        } else if v >= i64::from(i32::MIN) {
            let b = (v as i32).to_be_bytes();
            w.write_small([INT32, b[0], b[1], b[2], b[3]])
        } else {
            let b = v.to_be_bytes();
            w.write_small([INT64, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
        }
    }

    /// A `cf` (uint64) item, for [`write_u64`](EncodeFormat::write_u64).
    #[inline(never)]
    fn write_uint64<W: Write>(w: &mut W, v: u64) -> Result<()> {
        let b = v.to_be_bytes();
        w.write_small([UINT64, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
    }

    /// A struct field's name (a constant where this is inlined): its
    /// header and bytes together ([`Write::write_headed`]) up to str16, as
    /// the header and then the bytes beyond. Not for string values: with
    /// lengths known only at run time, `write_headed`'s size-class branches
    /// cost more here than the `memcpy` call they replace (twitter.json
    /// with structs as arrays: 32-36 us that way, 29-32 us without, in a
    /// scratch binary). CBOR, whose 2-byte heads start at 24 bytes and went
    /// out of line, keeps it for values (twitter: 58-61 us with it, 63-67
    /// us without).
    #[inline(always)]
    fn str_item<W: Write>(&self, w: &mut W, v: &str) -> Result<()> {
        let n = v.len();
        let (head, head_len) = if n < 32 {
            (u32::from(FIXSTR | n as u8), 1)
        } else if n < 256 && self.write_ext {
            (u32::from(STR8) | (n as u32) << 8, 2)
        } else if let Ok(n) = u16::try_from(n) {
            (u32::from(STR16) | u32::from(n.swap_bytes()) << 8, 3)
        } else {
            return self.str32(w, v);
        };
        w.write_headed(head, head_len, v.as_bytes())
    }

    /// A str32: out of line, so that [`str_item`](Self::str_item) makes no
    /// call but its tail calls.
    #[inline(never)]
    fn str32<W: Write>(&self, w: &mut W, v: &str) -> Result<()> {
        Self::header_long(w, self.str_family(), v.len())?;
        w.write_all(v.as_bytes())
    }

    /// The family for text, by spec level.
    #[inline]
    fn str_family(&self) -> &'static Family {
        if self.write_ext { &STR } else { &RAW }
    }

    /// Writes an extension header (fixext for 1/2/4/8/16 bytes, else ext8/16/32).
    #[inline]
    fn ext_header<W: Write>(w: &mut W, ty: u8, len: usize) -> Result<()> {
        match len {
            1 => w.write_small([FIXEXT1, ty]),
            2 => w.write_small([FIXEXT2, ty]),
            4 => w.write_small([FIXEXT4, ty]),
            8 => w.write_small([FIXEXT8, ty]),
            16 => w.write_small([FIXEXT16, ty]),
            _ if len < 256 => w.write_small([EXT8, len as u8, ty]),
            _ if len < 65_536 => {
                let b = (len as u16).to_be_bytes();
                w.write_small([EXT16, b[0], b[1], ty])
            }
            _ => match u32::try_from(len) {
                Ok(n) => {
                    let b = n.to_be_bytes();
                    w.write_small([EXT32, b[0], b[1], b[2], b[3], ty])
                }
                Err(_) => Err(too_long("extension", len)),
            },
        }
    }
}

impl EncodeFormat for MsgpackEncoder {
    const NAME: &'static str = "msgpack";

    #[inline]
    fn write_nil<W: Write>(&mut self, w: &mut W) -> Result<()> {
        w.write_byte(NIL)
    }

    #[inline]
    fn write_bool<W: Write>(&mut self, w: &mut W, v: bool) -> Result<()> {
        w.write_byte(if v { TRUE } else { FALSE })
    }

    /// Signed Rust types, as ugorji writes Go's signed ints: fixint up to
    /// 127, then the **signed** families int16/32/64 (`128` is `d1 00 80`);
    /// negative fixint down to -32, then int8/16/32/64. A fixint (the
    /// common small value) and an int8 or int16 are written inline, the
    /// rest out of line: for an `i8` or `i16` the out-of-line call is
    /// left only for a positive value under `positive_int_unsigned`.
    /// Inline, encoding mk48 (random `i8` and `i16` fields) ran 5 % fewer
    /// instructions in 9 % less time.
    #[inline(always)]
    fn write_i64<W: Write>(&mut self, w: &mut W, v: i64) -> Result<()> {
        if (-32..=i64::from(POS_FIXINT_MAX)).contains(&v) && !self.no_fixed_num {
            // What every branch of `write_i64_wide` writes for these.
            return w.write_byte(v as u8);
        }
        if let Ok(v) = i16::try_from(v)
            && (v < 0 || !self.positive_int_unsigned)
        {
            // What `write_i64_wide` writes for these.
            return if let Ok(v) = i8::try_from(v) {
                w.write_small([INT8, v as u8])
            } else {
                let b = v.to_be_bytes();
                w.write_small([INT16, b[0], b[1]])
            };
        }
        self.write_i64_wide(w, v)
    }

    /// Unsigned Rust types: fixint up to 127, then `cc`/`cd`/`ce` inline
    /// and `cf` out of line.
    #[inline(always)]
    fn write_u64<W: Write>(&mut self, w: &mut W, v: u64) -> Result<()> {
        if v <= u64::from(POS_FIXINT_MAX) && !self.no_fixed_num {
            w.write_byte(v as u8)
        } else if v <= u64::from(u8::MAX) {
            w.write_small([UINT8, v as u8])
        } else if v <= u64::from(u16::MAX) {
            let b = (v as u16).to_be_bytes();
            w.write_small([UINT16, b[0], b[1]])
        } else if v <= u64::from(u32::MAX) {
            let b = (v as u32).to_be_bytes();
            w.write_small([UINT32, b[0], b[1], b[2], b[3]])
        } else {
            Self::write_uint64(w, v)
        }
    }

    /// Always float32 (`ca`): no narrowing or widening, `-0.0` kept.
    ///
    /// `write_all`, where the integer heads use `write_small`: floats as
    /// one 16-byte store made canada's and mesh's encoding a third slower
    /// (their arrays of floats, one item after another).
    #[inline]
    fn write_f32<W: Write>(&mut self, w: &mut W, v: f32) -> Result<()> {
        let b = v.to_bits().to_be_bytes();
        w.write_all(&[FLOAT32, b[0], b[1], b[2], b[3]])
    }

    /// Always float64 (`cb`).
    #[inline]
    fn write_f64<W: Write>(&mut self, w: &mut W, v: f64) -> Result<()> {
        let b = v.to_bits().to_be_bytes();
        w.write_all(&[FLOAT64, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
    }

    /// fixstr, str8 (only with `write_ext`), str16, str32.
    #[inline]
    fn write_str<W: Write>(&mut self, w: &mut W, v: &str) -> Result<()> {
        Self::header(w, self.str_family(), v.len())?;
        w.write_all(v.as_bytes())
    }

    /// A struct field's name: a fixstr of up to 15 bytes is written with
    /// its header in one word, a longer one by `str_item`, inlined (the
    /// name is a constant in derived code: its length and the header fold,
    /// and the copy is a few fixed-size stores).
    #[inline(always)]
    fn write_field<W: Write>(&mut self, w: &mut W, _index: usize, name: FieldName) -> Result<()> {
        let len = name.as_str().len();
        if len < 16
            && let Some((word, n)) = name.with_head(u32::from(FIXSTR | len as u8), 1)
        {
            return w.write_word(word, n);
        }
        self.str_item(w, name.as_str())
    }

    /// bin8/16/32 with `write_ext` (an empty one is `c4 00`); otherwise the
    /// old spec's raw family, as ugorji writes `[]byte`.
    #[inline]
    fn write_bytes<W: Write>(&mut self, w: &mut W, v: &[u8]) -> Result<()> {
        let family = if self.write_ext { &BIN } else { &RAW };
        Self::header(w, family, v.len())?;
        w.write_all(v)
    }

    #[inline]
    fn write_array_start<W: Write>(&mut self, w: &mut W, len: usize) -> Result<()> {
        Self::header(w, &ARRAY, len)
    }

    #[inline]
    fn write_map_start<W: Write>(&mut self, w: &mut W, len: usize) -> Result<()> {
        Self::header(w, &MAP, len)
    }

    /// The timestamp extension (-1) in its 32-, 64- or 96-bit form with
    /// `write_ext`; otherwise the same payload as a raw string (ugorji's old
    /// spec). The zone is dropped: the instant is written in UTC.
    /// Go's zero time (0001-01-01T00:00:00Z, any offset) is nil, as
    /// ugorji writes it; any other time the timestamp payload, as an ext
    /// (`write_ext`) or a raw string.
    fn write_time<W: Write>(&mut self, w: &mut W, t: &Time) -> Result<()> {
        if t.is_go_zero() {
            return w.write_byte(NIL);
        }
        let (buf, n) = timestamp_payload(t);
        if self.write_ext {
            Self::ext_header(w, TIMESTAMP_TYPE, n)?;
        } else {
            Self::header(w, &RAW, n)?;
        }
        w.write_all(&buf[..n])
    }

    /// An extension: fixext1/2/4/8/16 for those lengths, else ext8/16/32.
    ///
    /// `tag` is the extension type as its wire byte: 0..=127 are the
    /// application types, 128..=255 the types -128..=-1 (ugorji writes
    /// `uint8(tag)` and reads the byte back the same way). Larger tags are an
    /// error. Type -1 (255) is reserved for timestamps: its data must be a
    /// valid timestamp payload.
    ///
    /// This is always an ext, even without `write_ext`, as ugorji writes a
    /// `RawExt` (what [`codec_core::Value::Ext`] corresponds to); ugorji's
    /// old-spec output of *registered* extensions as tagless raw bytes is
    /// not reproduced, because it loses the tag.
    fn write_ext<W: Write>(&mut self, w: &mut W, tag: u64, data: &[u8]) -> Result<()> {
        let ty = u8::try_from(tag).map_err(|_| {
            Error::unsupported(format!(
                "msgpack extension types are one byte; {tag} does not fit"
            ))
        })?;
        if ty == TIMESTAMP_TYPE {
            parse_timestamp(data).map_err(|_| {
                Error::unsupported(
                    "msgpack extension type -1 is reserved for timestamps and this data is not one",
                )
            })?;
        }
        Self::ext_header(w, ty, data.len())?;
        w.write_all(data)
    }

    #[inline]
    fn side(&self) -> Self {
        self.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(
        h: &MsgpackHandle,
        f: impl FnOnce(&mut MsgpackEncoder, &mut Vec<u8>) -> Result<()>,
    ) -> Vec<u8> {
        let mut e = MsgpackEncoder::new(h);
        let mut out = Vec::new();
        f(&mut e, &mut out).unwrap();
        out
    }

    #[test]
    fn inline_integer_paths_write_what_the_wide_path_writes() {
        let edges = [
            i64::MIN,
            i64::from(i32::MIN) - 1,
            i64::from(i32::MIN),
            i64::from(i32::MAX),
            i64::from(i32::MAX) + 1,
            i64::MAX,
        ];
        let values = (i64::from(i16::MIN) - 2..=i64::from(i16::MAX) + 2).chain(edges);
        for (fixed, unsigned) in [(false, false), (true, false), (false, true), (true, true)] {
            let h = MsgpackHandle::default()
                .no_fixed_num(fixed)
                .positive_int_unsigned(unsigned);
            for v in values.clone() {
                let inline = enc(&h, |e, w| e.write_i64(w, v));
                let wide = enc(&h, |e, w| e.write_i64_wide(w, v));
                assert_eq!(
                    inline, wide,
                    "{v} (no_fixed_num {fixed}, unsigned {unsigned})"
                );
            }
        }
    }

    #[test]
    fn signed_integers_follow_ugorji() {
        let h = MsgpackHandle::default();
        let cases: &[(i64, &[u8])] = &[
            (0, &[0x00]),
            (127, &[0x7f]),
            (128, &[0xd1, 0x00, 0x80]),
            (255, &[0xd1, 0x00, 0xff]),
            (32767, &[0xd1, 0x7f, 0xff]),
            (32768, &[0xd2, 0x00, 0x00, 0x80, 0x00]),
            (i64::from(i32::MAX) + 1, &[0xd3, 0, 0, 0, 0, 0x80, 0, 0, 0]),
            (-1, &[0xff]),
            (-32, &[0xe0]),
            (-33, &[0xd0, 0xdf]),
            (-128, &[0xd0, 0x80]),
            (-129, &[0xd1, 0xff, 0x7f]),
            (-32769, &[0xd2, 0xff, 0xff, 0x7f, 0xff]),
            (i64::MIN, &[0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        ];
        for &(v, want) in cases {
            assert_eq!(enc(&h, |e, w| e.write_i64(w, v)), want, "{v}");
        }
    }

    #[test]
    fn integer_options() {
        let h = MsgpackHandle::default().positive_int_unsigned(true);
        assert_eq!(enc(&h, |e, w| e.write_i64(w, 200)), [0xcc, 0xc8]);
        assert_eq!(enc(&h, |e, w| e.write_i64(w, 5)), [0x05]);
        assert_eq!(enc(&h, |e, w| e.write_i64(w, -5)), [0xfb]);
        let h = MsgpackHandle::default().no_fixed_num(true);
        assert_eq!(enc(&h, |e, w| e.write_i64(w, 5)), [0xd0, 0x05]);
        assert_eq!(enc(&h, |e, w| e.write_i64(w, -5)), [0xd0, 0xfb]);
        assert_eq!(enc(&h, |e, w| e.write_u64(w, 127)), [0xcc, 0x7f]);
        assert_eq!(enc(&h, |e, w| e.write_u64(w, 0)), [0xcc, 0x00]);
        let h = MsgpackHandle::default()
            .no_fixed_num(true)
            .positive_int_unsigned(true);
        assert_eq!(enc(&h, |e, w| e.write_i64(w, 0)), [0xcc, 0x00]);
    }

    /// The inline fixint case writes what the full rules write, with
    /// every combination of the options that change integers.
    #[test]
    fn the_fixint_shortcut_agrees_with_the_full_rules() {
        for (unsigned, no_fixed) in [(false, false), (true, false), (false, true), (true, true)] {
            let h = MsgpackHandle::default()
                .positive_int_unsigned(unsigned)
                .no_fixed_num(no_fixed);
            for v in -300..=300 {
                assert_eq!(
                    enc(&h, |e, w| e.write_i64(w, v)),
                    enc(&h, |e, w| e.write_i64_wide(w, v)),
                    "{v} unsigned={unsigned} no_fixed_num={no_fixed}"
                );
            }
        }
    }

    #[test]
    fn unsigned_integers() {
        let h = MsgpackHandle::default();
        let cases: &[(u64, &[u8])] = &[
            (0, &[0x00]),
            (127, &[0x7f]),
            (128, &[0xcc, 0x80]),
            (255, &[0xcc, 0xff]),
            (256, &[0xcd, 0x01, 0x00]),
            (65535, &[0xcd, 0xff, 0xff]),
            (65536, &[0xce, 0, 1, 0, 0]),
            (u64::from(u32::MAX), &[0xce, 0xff, 0xff, 0xff, 0xff]),
            (1 << 32, &[0xcf, 0, 0, 0, 1, 0, 0, 0, 0]),
            (
                u64::MAX,
                &[0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
            ),
        ];
        for &(v, want) in cases {
            assert_eq!(enc(&h, |e, w| e.write_u64(w, v)), want, "{v}");
        }
    }

    #[test]
    fn string_and_bytes_families() {
        let new = MsgpackHandle::default();
        let old = MsgpackHandle::ugorji_default();
        let s32 = "x".repeat(32);
        assert_eq!(enc(&new, |e, w| e.write_str(w, &s32))[..2], [0xd9, 32]);
        assert_eq!(enc(&old, |e, w| e.write_str(w, &s32))[..3], [0xda, 0, 32]);
        assert_eq!(enc(&new, |e, w| e.write_bytes(w, &[])), [0xc4, 0x00]);
        assert_eq!(enc(&old, |e, w| e.write_bytes(w, &[])), [0xa0]);
        assert_eq!(enc(&old, |e, w| e.write_bytes(w, &[7])), [0xa1, 7]);
        let big = vec![0u8; 70_000];
        assert_eq!(
            enc(&new, |e, w| e.write_bytes(w, &big))[..5],
            [0xc6, 0, 1, 0x11, 0x70]
        );
        assert_eq!(enc(&new, |e, w| e.write_str(w, "")), [0xa0]);
    }

    #[test]
    fn ext_and_time() {
        let h = MsgpackHandle::default();
        assert_eq!(enc(&h, |e, w| e.write_ext(w, 1, &[0x10])), [0xd4, 1, 0x10]);
        assert_eq!(
            enc(&h, |e, w| e.write_ext(w, 7, &[1, 2, 3])),
            [0xc7, 3, 7, 1, 2, 3]
        );
        assert_eq!(enc(&h, |e, w| e.write_ext(w, 0x80, &[])), [0xc7, 0, 0x80]);
        assert!(
            MsgpackEncoder::new(&h)
                .write_ext(&mut Vec::new(), 256, &[])
                .is_err()
        );
        assert!(
            MsgpackEncoder::new(&h)
                .write_ext(&mut Vec::new(), 255, &[1])
                .is_err()
        );
        let t = Time::from_unix(1_514_862_245, 0).unwrap();
        assert_eq!(
            enc(&h, |e, w| e.write_time(w, &t)),
            [0xd6, 0xff, 0x5a, 0x4a, 0xf6, 0xa5]
        );
        let old = MsgpackHandle::ugorji_default();
        assert_eq!(
            enc(&old, |e, w| e.write_time(w, &t)),
            [0xa4, 0x5a, 0x4a, 0xf6, 0xa5]
        );
        let t = Time::from_unix(-1, 0).unwrap().with_offset(3600);
        assert_eq!(
            enc(&h, |e, w| e.write_time(w, &t)),
            [
                0xc7, 0x0c, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
            ]
        );
    }

    #[test]
    fn containers_and_floats() {
        let h = MsgpackHandle::default();
        assert_eq!(enc(&h, |e, w| e.write_array_start(w, 15)), [0x9f]);
        assert_eq!(enc(&h, |e, w| e.write_array_start(w, 16)), [0xdc, 0, 16]);
        assert_eq!(
            enc(&h, |e, w| e.write_map_start(w, 65_536)),
            [0xdf, 0, 1, 0, 0]
        );
        assert_eq!(enc(&h, |e, w| e.write_f32(w, -0.0)), [0xca, 0x80, 0, 0, 0]);
        assert_eq!(
            enc(&h, |e, w| e.write_f64(w, 0.5)),
            [0xcb, 0x3f, 0xe0, 0, 0, 0, 0, 0, 0]
        );
    }
}
