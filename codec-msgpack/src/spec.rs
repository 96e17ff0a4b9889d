//! MessagePack format bytes and the timestamp extension payload.
//!
//! Names follow the MessagePack specification
//! (<https://github.com/msgpack/msgpack/blob/master/spec.md>).

use codec_core::{Error, Time};

/// Largest positive fixint (`0x00..=0x7f`).
pub(crate) const POS_FIXINT_MAX: u8 = 0x7f;
/// First fixmap byte (`0x80..=0x8f`, length in the low 4 bits).
pub(crate) const FIXMAP: u8 = 0x80;
/// First fixarray byte (`0x90..=0x9f`).
pub(crate) const FIXARRAY: u8 = 0x90;
/// First fixstr byte (`0xa0..=0xbf`, length in the low 5 bits).
pub(crate) const FIXSTR: u8 = 0xa0;
pub(crate) const NIL: u8 = 0xc0;
/// Never used: any occurrence is an error.
pub(crate) const RESERVED: u8 = 0xc1;
pub(crate) const FALSE: u8 = 0xc2;
pub(crate) const TRUE: u8 = 0xc3;
pub(crate) const BIN8: u8 = 0xc4;
pub(crate) const BIN16: u8 = 0xc5;
pub(crate) const BIN32: u8 = 0xc6;
pub(crate) const EXT8: u8 = 0xc7;
pub(crate) const EXT16: u8 = 0xc8;
pub(crate) const EXT32: u8 = 0xc9;
pub(crate) const FLOAT32: u8 = 0xca;
pub(crate) const FLOAT64: u8 = 0xcb;
pub(crate) const UINT8: u8 = 0xcc;
pub(crate) const UINT16: u8 = 0xcd;
pub(crate) const UINT32: u8 = 0xce;
pub(crate) const UINT64: u8 = 0xcf;
pub(crate) const INT8: u8 = 0xd0;
pub(crate) const INT16: u8 = 0xd1;
pub(crate) const INT32: u8 = 0xd2;
pub(crate) const INT64: u8 = 0xd3;
pub(crate) const FIXEXT1: u8 = 0xd4;
pub(crate) const FIXEXT2: u8 = 0xd5;
pub(crate) const FIXEXT4: u8 = 0xd6;
pub(crate) const FIXEXT8: u8 = 0xd7;
pub(crate) const FIXEXT16: u8 = 0xd8;
pub(crate) const STR8: u8 = 0xd9;
pub(crate) const STR16: u8 = 0xda;
pub(crate) const STR32: u8 = 0xdb;
pub(crate) const ARRAY16: u8 = 0xdc;
pub(crate) const ARRAY32: u8 = 0xdd;
pub(crate) const MAP16: u8 = 0xde;
pub(crate) const MAP32: u8 = 0xdf;
/// First negative fixint byte (`0xe0..=0xff` is -32..=-1).
pub(crate) const NEG_FIXINT_MIN: u8 = 0xe0;

/// The extension type of the timestamp extension (-1), as its wire byte.
pub(crate) const TIMESTAMP_TYPE: u8 = 0xff;

/// The timestamp extension payload for `t` (its zone is dropped): the
/// 32-bit form when `nsec == 0` and `0 <= sec < 2^32`, the 64-bit form when
/// `0 <= sec < 2^34`, else the 96-bit form. Returns the buffer and the
/// number of bytes used (4, 8 or 12).
#[inline]
pub(crate) fn timestamp_payload(t: &Time) -> ([u8; 12], usize) {
    let sec = t.unix_seconds();
    let nsec = u64::from(t.nanos());
    let mut out = [0u8; 12];
    if sec >= 0 && (sec >> 34) == 0 {
        let data64 = (nsec << 34) | sec as u64;
        if data64 & 0xffff_ffff_0000_0000 == 0 {
            out[..4].copy_from_slice(&(data64 as u32).to_be_bytes());
            (out, 4)
        } else {
            out[..8].copy_from_slice(&data64.to_be_bytes());
            (out, 8)
        }
    } else {
        out[..4].copy_from_slice(&(nsec as u32).to_be_bytes());
        out[4..].copy_from_slice(&sec.to_be_bytes());
        (out, 12)
    }
}

/// Parses a timestamp extension payload of 4, 8 or 12 bytes.
/// Nanoseconds above 999,999,999 are an error (the spec forbids them).
pub(crate) fn parse_timestamp(data: &[u8]) -> codec_core::Result<Time> {
    let (sec, nsec) = match *data {
        [a, b, c, d] => (i64::from(u32::from_be_bytes([a, b, c, d])), 0u32),
        [a, b, c, d, e, f, g, h] => {
            let v = u64::from_be_bytes([a, b, c, d, e, f, g, h]);
            ((v & 0x0000_0003_ffff_ffff) as i64, (v >> 34) as u32)
        }
        [a, b, c, d, e, f, g, h, i, j, k, l] => (
            i64::from_be_bytes([e, f, g, h, i, j, k, l]),
            u32::from_be_bytes([a, b, c, d]),
        ),
        _ => {
            return Err(Error::syntax(format!(
                "msgpack timestamp must have 4, 8 or 12 bytes, not {}",
                data.len()
            )));
        }
    };
    Time::from_unix(sec, nsec).ok_or_else(|| {
        Error::syntax(format!(
            "msgpack timestamp nanoseconds {nsec} exceed 999999999"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(sec: i64, nsec: u32) -> usize {
        let t = Time::from_unix(sec, nsec).unwrap();
        let (buf, n) = timestamp_payload(&t);
        assert_eq!(parse_timestamp(&buf[..n]).unwrap(), t);
        n
    }

    #[test]
    fn timestamp_forms() {
        assert_eq!(round(0, 0), 4);
        assert_eq!(round((1 << 32) - 1, 0), 4);
        assert_eq!(round(1 << 32, 0), 8);
        assert_eq!(round(1, 1), 8);
        assert_eq!(round((1 << 34) - 1, 999_999_999), 8);
        assert_eq!(round(1 << 34, 0), 12);
        assert_eq!(round(-1, 0), 12);
        assert_eq!(round(i64::MIN, 999_999_999), 12);
        assert_eq!(round(i64::MAX, 0), 12);
    }

    #[test]
    fn timestamp_rejects_bad_payloads() {
        assert!(parse_timestamp(&[0; 3]).is_err());
        assert!(parse_timestamp(&[0; 16]).is_err());
        // 64-bit form with nsec = 2^30 - 1 > 999,999,999.
        assert!(parse_timestamp(&[0xff, 0xff, 0xff, 0xfc, 0, 0, 0, 0]).is_err());
        // 96-bit form with nsec = 1e9.
        let mut b = [0u8; 12];
        b[..4].copy_from_slice(&1_000_000_000u32.to_be_bytes());
        assert!(parse_timestamp(&b).is_err());
    }
}
