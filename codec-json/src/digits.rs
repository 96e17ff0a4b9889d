//! Decimal text of integers, built in registers.
//!
//! `itoa` writes two digits per step from the end of a buffer, then the
//! caller copies the slice out: for the 9- and 10-digit ids of a typical
//! document that is four table lookups, a loop, and a copy of a length
//! known only at run time. Here eight digits are made at once with SWAR
//! (the value split into 4-digit, then 2-digit, then 1-digit lanes of one
//! `u64` by multiply-and-shift divisions that are exact in their ranges),
//! up to sixteen digits go into one 16-byte word, and the sink stores the
//! word whole ([`Write::write_word`]).

use codec_core::{Result, Write};

const E8: u64 = 100_000_000;
const E15: u64 = 1_000_000_000_000_000;
const E16: u64 = E8 * E8;
const ASCII_ZEROS: u64 = 0x3030_3030_3030_3030;

/// The eight decimal digits of `x < 10^8`, most significant first in
/// memory order (little-endian: the lowest byte), as values 0..=9, not
/// yet ASCII.
#[inline(always)]
fn eight_digits(x: u32) -> u64 {
    debug_assert!(u64::from(x) < E8);
    // Lanes of 32 bits: the high four digits first, then the low four.
    let x = u64::from(x);
    let fours = (x / 10_000) | ((x % 10_000) << 32);
    // Each lane (< 10^4) into two 16-bit lanes of two digits:
    // `n * 10486 >> 20 == n / 100` for every n < 10^4 (checked below).
    let hundreds = ((fours * 10_486) >> 20) & 0x0000_007F_0000_007F;
    let twos = hundreds | ((fours - 100 * hundreds) << 16);
    // Each 16-bit lane (< 100) into two bytes of one digit:
    // `n * 103 >> 10 == n / 10` for every n < 100.
    let tens = ((twos * 103) >> 10) & 0x000F_000F_000F_000F;
    tens | ((twos - 10 * tens) << 8)
}

/// The digits of `x < 10^8` without leading zeros as ASCII in the low
/// bytes of the result, and their count (1 for zero).
#[inline(always)]
fn up_to_eight(x: u32) -> (u64, usize) {
    let d = eight_digits(x);
    // Leading zero digits are the low zero bytes; zero keeps one digit.
    let skip = ((d | 1 << 56).trailing_zeros() / 8) as usize;
    ((d + ASCII_ZEROS) >> (8 * skip), 8 - skip)
}

/// `v < 10^16` as text: the digits in the low `len` bytes of the word.
#[inline(always)]
fn up_to_sixteen(v: u64) -> ([u8; 16], usize) {
    debug_assert!(v < E16);
    if v < E8 {
        let (w, n) = up_to_eight(v as u32);
        return (u128::from(w).to_le_bytes(), n);
    }
    let top = v / E8;
    let lo = eight_digits((v - top * E8) as u32) + ASCII_ZEROS;
    let (hi, n) = if top < 100 {
        // Nine or ten digits (the usual ids and timestamps): the head is
        // one or two digits, not worth a full eight-digit split.
        let t = top as u32;
        let tens = (t * 103) >> 10;
        let two = u64::from(tens) | u64::from(t - 10 * tens) << 8;
        let skip = usize::from(t < 10);
        ((two + 0x3030) >> (8 * skip), 2 - skip)
    } else {
        up_to_eight(top as u32)
    };
    let word = u128::from(hi) | u128::from(lo) << (8 * n);
    (word.to_le_bytes(), n + 8)
}

/// Writes `v` in decimal. One or two digits (counts, small codes: the
/// commonest integers) skip the eight-digit split.
#[inline]
pub(crate) fn write_u64<W: Write>(w: &mut W, v: u64) -> Result<()> {
    put_u64(w, v)
}

/// Writes `v` in decimal, with a `-` when negative.
#[inline]
pub(crate) fn write_i64<W: Write>(w: &mut W, v: i64) -> Result<()> {
    signed(w, v, write_u64)
}

/// [`write_u64`], inlined whole: for a loop over many integers (an array
/// laid out in a block), where a call per item would cost as much as the
/// digits. Single values call `write_u64`, whose size the compiler weighs.
#[inline(always)]
pub(crate) fn put_u64<W: Write>(w: &mut W, v: u64) -> Result<()> {
    if v < 100 {
        // `n * 103 >> 10 == n / 10` for every n < 100; a single digit
        // drops the leading '0'.
        let t = v as u32;
        let tens = (t * 103) >> 10;
        let two = u64::from(tens) | u64::from(t - 10 * tens) << 8;
        let skip = usize::from(t < 10);
        let word = (two + 0x3030) >> (8 * skip);
        return w.write_word(u128::from(word).to_le_bytes(), 2 - skip);
    }
    if v < E16 {
        let (word, n) = up_to_sixteen(v);
        return w.write_word(word, n);
    }
    // 17 to 20 digits: the head (at most 1844), then sixteen more.
    let (head, n) = up_to_eight((v / E16) as u32);
    w.write_word(u128::from(head).to_le_bytes(), n)?;
    let rest = v % E16;
    let hi = eight_digits((rest / E8) as u32) + ASCII_ZEROS;
    let lo = eight_digits((rest % E8) as u32) + ASCII_ZEROS;
    w.write_word((u128::from(hi) | u128::from(lo) << 64).to_le_bytes(), 16)
}

/// [`write_i64`], inlined whole, as [`put_u64`] is.
#[inline(always)]
pub(crate) fn put_i64<W: Write>(w: &mut W, v: i64) -> Result<()> {
    signed(
        w,
        v,
        #[inline(always)]
        |w, mag| put_u64(w, mag),
    )
}

/// `v` in decimal with a `-` when negative, its magnitude written by
/// `unsigned` where the sign cannot share the word.
#[inline(always)]
fn signed<W: Write>(w: &mut W, v: i64, unsigned: impl Fn(&mut W, u64) -> Result<()>) -> Result<()> {
    let mag = v.unsigned_abs();
    if v >= 0 {
        return unsigned(w, mag);
    }
    if mag < E15 {
        // Up to 15 digits: the sign shares the word.
        let (word, n) = up_to_sixteen(mag);
        let word = u128::from_le_bytes(word) << 8 | u128::from(b'-');
        return w.write_word(word.to_le_bytes(), n + 1);
    }
    w.write_byte(b'-')?;
    unsigned(w, mag)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_u64(v: u64) -> String {
        let mut out = Vec::new();
        write_u64(&mut out, v).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn text_i64(v: i64) -> String {
        let mut out = Vec::new();
        write_i64(&mut out, v).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_lane_divisions_are_exact_in_their_ranges() {
        for n in 0u64..10_000 {
            assert_eq!((n * 10_486) >> 20, n / 100, "{n}");
        }
        for n in 0u64..100 {
            assert_eq!((n * 103) >> 10, n / 10, "{n}");
        }
    }

    #[test]
    fn eight_digits_every_lane_value() {
        // Every 4-digit half in both positions, so that every lane of every
        // step sees each of its values.
        for a in 0u32..10_000 {
            for x in [
                a,
                a * 10_000,
                a * 10_000 + 9_999 - a,
                a * 10_001 % 100_000_000,
            ] {
                let d = eight_digits(x);
                let want = format!("{x:08}");
                let got: String = d
                    .to_le_bytes()
                    .iter()
                    .map(|&b| char::from(b'0' + b))
                    .collect();
                assert_eq!(got, want);
            }
        }
    }

    #[test]
    fn every_length_and_boundary_is_as_to_string() {
        let mut values = vec![u64::MAX, u64::MAX - 1, E16, E16 - 1, E8, E8 - 1];
        values.extend(0..=1000);
        let mut p = 1u64;
        while let Some(next) = p.checked_mul(10) {
            values.extend([p - 1, p, p + 1, p * 2 - 1, p * 9, p * 9 + p - 1]);
            p = next;
        }
        values.extend([p - 1, p, p + 1]);
        // A pseudo-random walk over every magnitude.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.push(x);
            values.push(x >> (x % 64));
        }
        for v in values {
            assert_eq!(text_u64(v), v.to_string(), "{v}");
            let s = v as i64;
            assert_eq!(text_i64(s), s.to_string(), "{s}");
            assert_eq!(text_i64(s.wrapping_neg()), s.wrapping_neg().to_string());
        }
        for v in [
            i64::MIN,
            i64::MIN + 1,
            i64::MAX,
            -1,
            -999_999_999_999_999,
            -1_000_000_000_000_000,
        ] {
            assert_eq!(text_i64(v), v.to_string(), "{v}");
        }
    }

    #[test]
    fn appends_after_what_is_there() {
        let mut out = b"[1,".to_vec();
        write_i64(&mut out, -42).unwrap();
        out.push(b',');
        write_u64(&mut out, 12_345_678_901_234_567_890).unwrap();
        assert_eq!(out, b"[1,-42,12345678901234567890");
    }
}
