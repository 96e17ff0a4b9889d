//! Standard base64 (RFC 4648 §4, alphabet `A-Z a-z 0-9 + /`, with `=`
//! padding), as ugorji (Go's `base64.StdEncoding`) writes byte strings.

use codec_core::{Error, Result, Write};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Value of each byte in the alphabet; `0xFF` for bytes outside it.
const DECODE: [u8; 256] = {
    let mut t = [0xFFu8; 256];
    let mut i = 0;
    while i < 64 {
        t[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// Length of the encoding of `n` bytes.
#[inline]
pub(crate) fn encoded_len(n: usize) -> usize {
    n.div_ceil(3) * 4
}

/// Writes the base64 of `data` (no quotes) in chunks from a stack buffer.
pub(crate) fn encode<W: Write>(w: &mut W, data: &[u8]) -> Result<()> {
    const CHUNK: usize = 768; // input bytes per flush: 1024 output bytes
    let mut out = [0u8; CHUNK / 3 * 4];
    let mut chunks = data.chunks_exact(3);
    let mut n = 0;
    for c in chunks.by_ref() {
        let v = (c[0] as u32) << 16 | (c[1] as u32) << 8 | c[2] as u32;
        out[n] = ALPHABET[(v >> 18) as usize & 63];
        out[n + 1] = ALPHABET[(v >> 12) as usize & 63];
        out[n + 2] = ALPHABET[(v >> 6) as usize & 63];
        out[n + 3] = ALPHABET[v as usize & 63];
        n += 4;
        if n == out.len() {
            w.write_all(&out)?;
            n = 0;
        }
    }
    w.write_all(&out[..n])?;
    match *chunks.remainder() {
        [a] => {
            let v = (a as u32) << 16;
            w.write_all(&[
                ALPHABET[(v >> 18) as usize & 63],
                ALPHABET[(v >> 12) as usize & 63],
                b'=',
                b'=',
            ])
        }
        [a, b] => {
            let v = (a as u32) << 16 | (b as u32) << 8;
            w.write_all(&[
                ALPHABET[(v >> 18) as usize & 63],
                ALPHABET[(v >> 12) as usize & 63],
                ALPHABET[(v >> 6) as usize & 63],
                b'=',
            ])
        }
        _ => Ok(()),
    }
}

#[cold]
fn invalid() -> Error {
    Error::syntax("invalid base64 in byte string")
}

/// Decodes padded standard base64 from `text`, appending to `out`.
///
/// The length must be a multiple of 4 and padding appears only at the end
/// (as Go's `StdEncoding`, which does not check the unused low bits either).
pub(crate) fn decode(text: &[u8], out: &mut Vec<u8>) -> Result<()> {
    if !text.len().is_multiple_of(4) {
        return Err(invalid());
    }
    out.reserve(text.len() / 4 * 3);
    let (body, last) = match text.len() {
        0 => return Ok(()),
        n => text.split_at(n - 4),
    };
    for q in body.chunks_exact(4) {
        let a = DECODE[q[0] as usize];
        let b = DECODE[q[1] as usize];
        let c = DECODE[q[2] as usize];
        let d = DECODE[q[3] as usize];
        if (a | b | c | d) & 0xC0 != 0 {
            return Err(invalid());
        }
        let v = (a as u32) << 18 | (b as u32) << 12 | (c as u32) << 6 | d as u32;
        out.extend_from_slice(&[(v >> 16) as u8, (v >> 8) as u8, v as u8]);
    }
    let a = DECODE[last[0] as usize];
    let b = DECODE[last[1] as usize];
    if (a | b) & 0xC0 != 0 {
        return Err(invalid());
    }
    let v = (a as u32) << 18 | (b as u32) << 12;
    match (last[2], last[3]) {
        (b'=', b'=') => out.push((v >> 16) as u8),
        (c, b'=') => {
            let c = DECODE[c as usize];
            if c & 0xC0 != 0 {
                return Err(invalid());
            }
            let v = v | (c as u32) << 6;
            out.extend_from_slice(&[(v >> 16) as u8, (v >> 8) as u8]);
        }
        (c, d) => {
            let c = DECODE[c as usize];
            let d = DECODE[d as usize];
            if (c | d) & 0xC0 != 0 {
                return Err(invalid());
            }
            let v = v | (c as u32) << 6 | d as u32;
            out.extend_from_slice(&[(v >> 16) as u8, (v >> 8) as u8, v as u8]);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(b: &[u8]) -> String {
        let mut out = Vec::new();
        encode(&mut out, b).unwrap();
        assert_eq!(out.len(), encoded_len(b.len()));
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn rfc4648_vectors() {
        for (raw, b64) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(enc(raw.as_bytes()), b64);
            let mut out = Vec::new();
            decode(b64.as_bytes(), &mut out).unwrap();
            assert_eq!(out, raw.as_bytes());
        }
        assert_eq!(enc(&[0xde, 0xad, 0xbe, 0xef]), "3q2+7w==");
    }

    #[test]
    fn long_round_trip_and_rejects() {
        let data: Vec<u8> = (0..5000u32).map(|i| (i * 7 + 3) as u8).collect();
        let text = enc(&data);
        let mut out = Vec::new();
        decode(text.as_bytes(), &mut out).unwrap();
        assert_eq!(out, data);
        for bad in ["Zg=", "Z===", "Zg==Zg==", "Zm9v!A==", "=Zm9", "Zm=v"] {
            assert!(decode(bad.as_bytes(), &mut Vec::new()).is_err(), "{bad}");
        }
    }
}
