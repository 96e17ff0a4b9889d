//! UTF-8 checking of decoded text.
//!
//! [`str_from_utf8`] gives the same answer as [`std::str::from_utf8`], faster
//! on what decoders see: short ASCII strings (`<[u8]>::is_ascii` reads a word
//! at a time from the first byte, where `from_utf8` goes byte by byte until
//! it reaches an aligned word), short text in other scripts, which a "shift
//! DFA" checks at about one cycle per byte (see [`DFA`]), and longer text in
//! other scripts, which `simdutf8` checks 32 or 64 bytes per step with the
//! vector instructions the CPU has (detected at run time).

use crate::error::{Error, ErrorKind, Result};

/// Text that is not all ASCII goes to `simdutf8` from this length on;
/// below it, starting its vector loop (a call through a pointer, a copy to
/// a 64-byte block) costs more than the automaton's byte-per-cycle walk.
const VECTOR_FROM: usize = 32;

/// `bytes` as text, or [`ErrorKind::InvalidUtf8`].
///
/// On the strings of `twitter.json` (18,099 strings, 96 % ASCII, the rest
/// mostly Japanese) this takes well under half the time of `from_utf8`.
#[inline]
pub fn str_from_utf8(bytes: &[u8]) -> Result<&str> {
    if !bytes.is_ascii() && !is_utf8_beyond_ascii(bytes) {
        return Err(Error::new(ErrorKind::InvalidUtf8));
    }
    #[allow(unsafe_code)]
    // SAFETY: `bytes` is valid UTF-8: it is ASCII, or `is_utf8` accepted
    // it, which accepts exactly what `std::str::from_utf8` accepts (the
    // tests compare them on every sequence of up to three bytes, on every
    // four-byte sequence with a valid three-byte prefix, and on random
    // text).
    Ok(unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// Whether `bytes`, known not to be all ASCII, is UTF-8: `simdutf8` from
/// [`VECTOR_FROM`] bytes on, the automaton below that. Out of line: the
/// ASCII checks before it are what callers want in line.
#[inline(never)]
fn is_utf8_beyond_ascii(bytes: &[u8]) -> bool {
    if bytes.len() >= VECTOR_FROM {
        return simdutf8::basic::from_utf8(bytes).is_ok();
    }
    is_utf8(bytes)
}

/// The high bit of each of 16 bytes: none is set in ASCII text.
pub(crate) const ASCII_HIGH_BITS: u128 = u128::from_ne_bytes([0x80; 16]);

/// Whether `bytes` is UTF-8, for text a decoder appends as it reads it:
/// up to 16 bytes of ASCII (most keys and short values) are checked in a
/// register, in line ([`short_word`](crate::short_word)); anything else
/// as [`str_from_utf8`] checks it, with no second ASCII scan. On
/// twitter.json's strings in MessagePack, `<[u8]>::is_ascii` alone (a
/// call, then a byte at a time up to the first aligned word) took a fifth
/// of the time of reading the whole `Document`.
#[inline(always)]
pub(crate) fn is_utf8_text(bytes: &[u8]) -> bool {
    if bytes.len() <= 16 && crate::short_word(bytes) & ASCII_HIGH_BITS == 0 {
        return true;
    }
    bytes.is_ascii() || is_utf8_beyond_ascii(bytes)
}

// States of the UTF-8 automaton, each the bit offset of its 6-bit field in
// a `DFA` entry: the entry for byte `b` holds, in the field of state `s`,
// the state that follows `s` on `b`.
/// Between characters (the only accepting state).
const ACCEPT: u32 = 0;
/// One continuation byte (80..BF) to go.
const CONT1: u32 = 6;
/// Two continuation bytes to go.
const CONT2: u32 = 12;
/// Three continuation bytes to go.
const CONT3: u32 = 18;
/// After E0: A0..BF next (no overlong three-byte forms).
const AFTER_E0: u32 = 24;
/// After ED: 80..9F next (no surrogates).
const AFTER_ED: u32 = 30;
/// After F0: 90..BF next (no overlong four-byte forms).
const AFTER_F0: u32 = 36;
/// After F4: 80..8F next (nothing above U+10FFFF).
const AFTER_F4: u32 = 42;
/// Invalid: stays here.
const REJECT: u32 = 48;

/// The state after `state` on byte `b` (RFC 3629's table 3-7 as an automaton).
const fn next_state(state: u32, b: u8) -> u32 {
    let cont = matches!(b, 0x80..=0xBF);
    match state {
        ACCEPT => match b {
            0x00..=0x7F => ACCEPT,
            0xC2..=0xDF => CONT1,
            0xE0 => AFTER_E0,
            0xE1..=0xEC | 0xEE..=0xEF => CONT2,
            0xED => AFTER_ED,
            0xF0 => AFTER_F0,
            0xF1..=0xF3 => CONT3,
            0xF4 => AFTER_F4,
            _ => REJECT,
        },
        CONT1 if cont => ACCEPT,
        CONT2 if cont => CONT1,
        CONT3 if cont => CONT2,
        AFTER_E0 if matches!(b, 0xA0..=0xBF) => CONT1,
        AFTER_ED if matches!(b, 0x80..=0x9F) => CONT1,
        AFTER_F0 if matches!(b, 0x90..=0xBF) => CONT2,
        AFTER_F4 if matches!(b, 0x80..=0x8F) => CONT2,
        _ => REJECT,
    }
}

/// The transition table of a "shift DFA": `next = DFA[b] >> state & 63`.
/// The table load depends only on the byte, so the chain from one byte to
/// the next is a single shift: about one cycle per byte.
static DFA: [u64; 256] = {
    let states = [
        ACCEPT, CONT1, CONT2, CONT3, AFTER_E0, AFTER_ED, AFTER_F0, AFTER_F4, REJECT,
    ];
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < states.len() {
            t[b] |= (next_state(states[k], b as u8) as u64) << states[k];
            k += 1;
        }
        b += 1;
    }
    t
};

#[inline(always)]
fn step(state: u32, b: u8) -> u32 {
    (DFA[b as usize] >> state) as u32 & 63
}

/// Whether `bytes` is valid UTF-8. Runs of 16 ASCII bytes between
/// characters are skipped a word pair at a time.
fn is_utf8(bytes: &[u8]) -> bool {
    const HIGHS: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;
    let mut state = ACCEPT;
    let (chunks, rest) = bytes.as_chunks::<16>();
    for c in chunks {
        if state == ACCEPT && u128::from_le_bytes(*c) & HIGHS == 0 {
            continue;
        }
        for &x in c {
            state = step(state, x);
        }
        if state == REJECT {
            return false;
        }
    }
    for &x in rest {
        state = step(state, x);
    }
    state == ACCEPT
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agree(v: &[u8]) {
        assert_eq!(
            str_from_utf8(v).ok(),
            std::str::from_utf8(v).ok(),
            "{v:02x?}"
        );
        assert_eq!(is_utf8(v), std::str::from_utf8(v).is_ok(), "{v:02x?}");
        assert_eq!(is_utf8_text(v), std::str::from_utf8(v).is_ok(), "{v:02x?}");
    }

    #[test]
    fn every_short_sequence_agrees_with_std() {
        agree(b"");
        for a in 0..=255u8 {
            agree(&[a]);
            for b in 0..=255u8 {
                agree(&[a, b]);
            }
        }
        // Every three-byte sequence: each state reached by one lead byte,
        // then every byte after it, then every byte after that.
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                for c in 0..=255u8 {
                    let v = [a, b, c];
                    assert_eq!(is_utf8(&v), std::str::from_utf8(&v).is_ok(), "{v:02x?}");
                }
            }
        }
    }

    #[test]
    fn four_byte_sequences_agree_with_std() {
        // Every valid three-byte prefix of a four-byte form, then every byte.
        for a in 0xF0..=0xF4u8 {
            for b in 0x80..=0xBFu8 {
                for c in [0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0] {
                    for d in 0..=255u8 {
                        agree(&[a, b, c, d]);
                    }
                }
            }
        }
    }

    #[test]
    fn long_text_agrees_with_std() {
        let mut cases: Vec<Vec<u8>> = vec![
            b"plain ascii text, longer than two words".to_vec(),
            "caf\u{e9} \u{3042}\u{1f600}".repeat(9).into_bytes(),
            vec![0x7f; 40],
            vec![0xed, 0xa0, 0x80],
            vec![0xf4, 0x90, 0x80, 0x80],
            vec![0xe3, 0x81],
        ];
        // Every byte value at every position of ASCII and of Japanese text
        // (characters cut, doubled and replaced), across the 16-byte steps.
        let jp = "日本語のテキスト、ASCIIと混ぜて。".repeat(2).into_bytes();
        for base in [vec![b'a'; 40], jp] {
            for at in 0..base.len() {
                for b in 0..=255u8 {
                    let mut v = base.clone();
                    v[at] = b;
                    cases.push(v);
                }
                cases.push(base[..at].to_vec());
            }
        }
        // Random mixtures of ASCII, whole characters and stray bytes.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let pieces: [&[u8]; 10] = [
            b"a",
            b"0123456789abcdef",
            "\u{e9}".as_bytes(),
            "\u{3042}".as_bytes(),
            "\u{1f600}".as_bytes(),
            "\u{10ffff}".as_bytes(),
            &[0x80],
            &[0xe3, 0x81],
            &[0xf0, 0x9f],
            &[0xc0],
        ];
        for _ in 0..20_000 {
            let mut v = Vec::new();
            for _ in 0..next() % 24 {
                // Mostly valid pieces, sometimes a stray one.
                let r = next();
                let k = if r % 16 == 0 {
                    6 + (r >> 8) % 4
                } else {
                    (r >> 8) % 6
                };
                v.extend_from_slice(pieces[k as usize]);
            }
            cases.push(v);
        }
        for v in &cases {
            agree(v);
            if let Err(e) = str_from_utf8(v) {
                assert!(matches!(e.kind(), ErrorKind::InvalidUtf8), "{e}");
            }
        }
    }
}
