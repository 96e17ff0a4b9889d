//! JSON numbers: strict RFC 8259 parsing straight from bytes, and ugorji's
//! float formatting on output.
//!
//! Parsing keeps integers exact (`u64`/`i64`, and 128-bit for wider text) and
//! gives correctly rounded floats: Clinger's fast path when the decimal
//! mantissa fits in 53 bits and the power of ten is small, otherwise
//! Eisel-Lemire ([`crate::lemire`]) on the first 19 digits, and only when
//! that cannot decide, the standard library's parser on the validated text.

use crate::lemire;
use codec_core::{Error, ErrorKind, Kind, Result};

/// Exact powers of ten representable in an `f64`.
const POW10_F64: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// A parsed JSON number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Num {
    /// A non-negative integer that fits in `u64`.
    U(u64),
    /// A negative integer that fits in `i64`, or `-0` (as `I(0)`: a
    /// float target gives it its sign, as Rust's and Go's parsers do).
    I(i64),
    /// A number with a fraction or exponent.
    F(Float),
    /// An integer outside the 64-bit ranges: its magnitude when that fits in
    /// 128 bits, its sign, and its nearest `f64`.
    Big { mag: Option<Mag>, neg: bool, v: f64 },
}

/// A `u128` magnitude as two words: a `u128` field would align [`Num`] (and
/// the decoder's read-ahead slot that holds one) to 16 bytes, and the
/// check whether anything is read ahead, made for every scalar, became a
/// 16-byte load that, right after the decoder is built, waits for the
/// narrower stores that built it (a fifth of a lone number's decode).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Mag([u64; 2]);

impl Mag {
    fn new(m: u128) -> Mag {
        Mag([m as u64, (m >> 64) as u64])
    }

    fn get(self) -> u128 {
        u128::from(self.0[0]) | u128::from(self.0[1]) << 64
    }
}

/// A number written with a fraction or an exponent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Float {
    /// The value, correctly rounded (to `f32` precision when parsed for an `f32`).
    pub v: f64,
    /// The exact value, for integer targets.
    exact: Exact,
    neg: bool,
}

/// The exact value of a [`Float`], as far as integer targets need it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Exact {
    /// The decimal mantissa (all digits, the point removed: at most 19
    /// significant ones) times ten to the power `exp10`.
    Digits { mant: u64, exp10: i32 },
    /// A longer mantissa whose value is an integer below 2^128: its
    /// magnitude, worked out from the digits ([`long_int`]).
    Int(Mag),
    /// A longer mantissa whose value is not an integer, or is one of 2^128
    /// or more.
    NotInt,
}

impl Num {
    /// The kind a dynamic decode sees: ugorji gives uint64 for non-negative
    /// integers, int64 for negative ones, float64 for the rest (huge integers
    /// too, unless `exact` asks for [`Kind::BigInt`], which reads them
    /// exactly or refuses them: `JsonHandle::exact_integers`).
    #[inline]
    pub fn kind(&self, prefer_float: bool, exact: bool) -> Kind {
        if prefer_float {
            return Kind::Float64;
        }
        match self {
            Num::U(_) => Kind::Uint,
            Num::I(_) => Kind::Int,
            Num::Big { .. } if exact => Kind::BigInt,
            Num::F(_) | Num::Big { .. } => Kind::Float64,
        }
    }

    /// The exact integer value, if the number is integral, as a sign and
    /// a magnitude below 2^128 (floats too: `1.5e1` is 15; ugorji decodes
    /// floats into integers only when exact). `-0` is `(true, 0)`.
    pub fn exact_int(&self) -> Option<(bool, u128)> {
        match *self {
            Num::U(v) => Some((false, u128::from(v))),
            Num::I(v) => Some((true, u128::from(v.unsigned_abs()))),
            Num::Big { mag, neg, .. } => Some((neg, mag?.get())),
            Num::F(f) => f.exact_int().map(|m| (f.neg, m)),
        }
    }

    /// [`Num::exact_int`] as an `i128`, if it is one.
    fn exact_i128(&self) -> Option<i128> {
        let (neg, m) = self.exact_int()?;
        if neg {
            0i128.checked_sub_unsigned(m)
        } else {
            i128::try_from(m).ok()
        }
    }

    /// [`Num::exact_int`] as a `u128`, if it is one (`-0` is 0).
    fn exact_u128(&self) -> Option<u128> {
        match self.exact_int()? {
            (true, m) if m != 0 => None,
            (_, m) => Some(m),
        }
    }

    #[cold]
    fn describe(&self) -> String {
        match *self {
            Num::U(v) => v.to_string(),
            Num::I(v) => v.to_string(),
            Num::Big {
                mag: Some(m), neg, ..
            } => format!("{}{}", if neg { "-" } else { "" }, m.get()),
            Num::Big { v, .. } => format!("{v:e} (rounded from an integer beyond 128 bits)"),
            // More digits than `v` shows: `1.0000000000000000000001` is
            // not the integer 1 its rounding prints as.
            Num::F(f) if f.exact == Exact::NotInt => {
                format!("{:?} (rounded from a longer decimal)", f.v)
            }
            Num::F(f) => format!("{:?}", f.v),
        }
    }

    /// As `u64`: exact or an out-of-range error.
    #[inline]
    pub fn to_u64(self) -> Result<u64> {
        match self {
            Num::U(v) => Ok(v),
            _ => self
                .exact_u128()
                .and_then(|i| u64::try_from(i).ok())
                .ok_or_else(|| Error::out_of_range("u64", self.describe())),
        }
    }

    /// As `i64`: exact or an out-of-range error.
    #[inline]
    pub fn to_i64(self) -> Result<i64> {
        match self {
            Num::I(v) => Ok(v),
            Num::U(v) if v <= i64::MAX as u64 => Ok(v as i64),
            _ => self
                .exact_i128()
                .and_then(|i| i64::try_from(i).ok())
                .ok_or_else(|| Error::out_of_range("i64", self.describe())),
        }
    }

    /// As `i128`: exact or an out-of-range error.
    pub fn to_i128(self) -> Result<i128> {
        self.exact_i128()
            .ok_or_else(|| Error::out_of_range("i128", self.describe()))
    }

    /// As `u128`: exact or an out-of-range error.
    pub fn to_u128(self) -> Result<u128> {
        if let Num::Big {
            mag: Some(m),
            neg: false,
            ..
        } = self
        {
            return Ok(m.get());
        }
        self.exact_u128()
            .ok_or_else(|| Error::out_of_range("u128", self.describe()))
    }

    /// As `f64` (integers converted, rounding to nearest; `-0` is `-0.0`).
    #[inline]
    pub fn to_f64(self) -> f64 {
        match self {
            Num::U(v) => v as f64,
            Num::I(0) => -0.0,
            Num::I(v) => v as f64,
            Num::F(f) => f.v,
            Num::Big { v, .. } => v,
        }
    }

    /// As `f32`, rounded once: an integer from its exact value (through
    /// `f64` one beyond 2^53 could round twice); a float's `v`, which is
    /// already at `f32` precision when parsed for an `f32` (one read ahead
    /// by `peek_kind` was parsed at `f64` precision and is narrowed).
    #[inline]
    pub fn to_f32(self) -> f32 {
        match self {
            Num::U(v) => v as f32,
            Num::I(0) => -0.0,
            Num::I(v) => v as f32,
            Num::F(f) => f.v as f32,
            Num::Big {
                mag: Some(m), neg, ..
            } => {
                let v = m.get() as f32;
                if neg { -v } else { v }
            }
            Num::Big { v, .. } => v as f32,
        }
    }
}

impl Float {
    /// The magnitude, if the value is an integer below 2^128.
    fn exact_int(&self) -> Option<u128> {
        match self.exact {
            Exact::Digits { mant: 0, .. } => Some(0),
            Exact::Digits { mant, exp10 } if exp10 >= 0 => {
                let p = u32::try_from(exp10).ok().filter(|&p| p <= 38)?;
                u128::from(mant).checked_mul(10u128.pow(p))
            }
            Exact::Digits { mant, exp10 } => {
                // `mant` is below 10^20: no more than 19 trailing zeros.
                let p = exp10.unsigned_abs();
                if p > 19 {
                    return None;
                }
                let d = 10u64.pow(p);
                mant.is_multiple_of(d).then(|| u128::from(mant / d))
            }
            Exact::Int(m) => Some(m.get()),
            Exact::NotInt => None,
        }
    }
}

/// The exact value of a well-formed JSON number's text (`-`, digits, an
/// optional fraction and exponent) when it is an integer below 2^128: its
/// magnitude (the sign is the caller's). Worked out from the digits, not
/// from a float: the digits with the point removed, trailing zeros
/// stripped, times ten to the power that is left, which must not be
/// negative. In one pass over `text`, whatever its length or exponent.
#[cold]
fn long_int(text: &[u8]) -> Option<u128> {
    let body = text.strip_prefix(b"-").unwrap_or(text);
    let (mantissa, exp) = match body.iter().position(|&c| c | 0x20 == b'e') {
        Some(e) => (&body[..e], Some(&body[e + 1..])),
        None => (body, None),
    };
    let (int, frac) = match mantissa.iter().position(|&c| c == b'.') {
        Some(p) => (&mantissa[..p], &mantissa[p + 1..]),
        None => (mantissa, &b""[..]),
    };
    // The significant digits: from the first nonzero to the last nonzero,
    // in `int` then `frac`.
    let digits = || int.iter().chain(frac);
    let Some(first) = digits().position(|&c| c != b'0') else {
        return Some(0);
    };
    let last = int.len() + frac.len() - 1 - digits().rev().position(|&c| c != b'0')?;
    // The power of ten of the last significant digit, before the exponent
    // (digits and exponents beyond `i64` cannot be held in memory, and the
    // exponent's value is clamped well beyond any that could matter).
    let trailing = (int.len() + frac.len() - 1 - last) as i64;
    let mut e10 = trailing - frac.len() as i64;
    if let Some(exp) = exp {
        let (eneg, digits) = match exp.split_first() {
            Some((b'-', rest)) => (true, rest),
            Some((b'+', rest)) => (false, rest),
            _ => (false, exp),
        };
        let e = digits
            .iter()
            .fold(0i64, |e, &c| (e * 10 + i64::from(c - b'0')).min(1 << 50));
        e10 += if eneg { -e } else { e };
    }
    let significant = (last + 1 - first) as i64;
    // Not an integer; or at least 10^39, beyond 2^128.
    if e10 < 0 || significant + e10 > 39 {
        return None;
    }
    let m = digits()
        .skip(first)
        .take(significant as usize)
        .try_fold(0u128, |m, &c| {
            m.checked_mul(10)?.checked_add(u128::from(c - b'0'))
        })?;
    m.checked_mul(10u128.pow(e10 as u32))
}

/// How far a number's text has come in JSON's grammar, byte by byte: what
/// may come next. A number gathered from a reader stops where the parser
/// of a slice would stop reading it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NumPart {
    /// Nothing yet.
    Start,
    /// The sign.
    Minus,
    /// A leading `0`: the whole integer part.
    Zero,
    /// Integer digits from `1`-`9` on.
    Int,
    /// The `.`.
    Dot,
    /// Fraction digits.
    Frac,
    /// The `e` or `E`.
    Exp,
    /// The exponent's sign.
    ExpSign,
    /// Exponent digits.
    ExpDigits,
}

impl NumPart {
    /// The part after `b`, or `None` where the number ends before `b` (the
    /// text so far may be incomplete: `-`, `1.`, `1e+` are errors then).
    pub(crate) fn next(self, b: u8) -> Option<NumPart> {
        use NumPart::*;
        let digit = b.is_ascii_digit();
        Some(match (self, b) {
            (Start, b'-') => Minus,
            (Start | Minus, b'0') => Zero,
            (Start | Minus | Int, _) if digit => Int,
            (Zero | Int, b'.') => Dot,
            (Dot | Frac, _) if digit => Frac,
            (Zero | Int | Frac, b'e' | b'E') => Exp,
            (Exp, b'+' | b'-') => ExpSign,
            (Exp | ExpSign | ExpDigits, _) if digit => ExpDigits,
            _ => return None,
        })
    }
}

/// Outcome of [`parse`] when the bytes ran out.
pub(crate) enum Parsed {
    /// A complete number and how many bytes it took.
    Done(Num, usize),
    /// The bytes ended inside (or right after) the number and more may follow.
    NeedMore,
}

/// The longest number decoded, in bytes ("number too long" past it), from
/// a slice or a reader alike, wherever the reader's buffers split it. A
/// skipped number is only checked against the grammar, at any length.
pub(crate) const MAX_LEN: usize = 4096;

#[cold]
fn bad_number(msg: &'static str) -> Error {
    Error::syntax(msg)
}

/// Parses the JSON number at the start of `b`.
///
/// With `complete`, `b` holds all the input there is (the number ends at
/// `b`'s end at the latest); otherwise reaching the end gives
/// [`Parsed::NeedMore`]. `f32` asks for the float value rounded directly to
/// `f32` precision (no double rounding through `f64`).
#[inline]
pub(crate) fn parse(b: &[u8], complete: bool, f32: bool) -> Result<Parsed> {
    // Complete: the input's end ends a number (no byte need follow it).
    let short = if complete {
        scan_short::<false, true>(b)
    } else {
        scan_short::<false, false>(b)
    };
    match short {
        Some(s) => s.finish(b, f32).map(|n| Parsed::Done(n, s.len)),
        None => parse_general(b, complete, f32),
    }
}

/// [`parse`] for an `f64` target, in the common case ([`scan_short`]):
/// the value and the length, with no [`Num`] in between. `None`: use [`parse`].
// Inlined into the float readers: as a call, the scan's constants are
// reloaded, registers saved and the result passed through memory for
// every number (a sixth of the instructions on canada.json).
#[inline(always)]
pub(crate) fn short_f64<const AT_END: bool>(b: &[u8]) -> Option<Result<(f64, usize)>> {
    let s = scan_short::<true, AT_END>(b)?;
    if !s.is_float {
        if s.mant > 1 << 53 {
            return None;
        }
        // Exact, and "-0" is -0.0 as `Num::I(0)` gives it.
        let m = s.mant as i64 as f64;
        return Some(Ok((if s.neg { -m } else { m }, s.len)));
    }
    Some(float64(&b[..s.len], s.mant, s.exp10, false, s.neg).map(|v| (v, s.len)))
}

/// [`parse`] for an `f32` target, in the common case: the value, rounded
/// once from the decimal text, and the length. `None`: use [`parse`]
/// (which also words the errors, such as a value beyond the `f32` range).
#[inline(always)]
pub(crate) fn short_f32<const AT_END: bool>(b: &[u8]) -> Option<(f32, usize)> {
    let s = scan_short::<true, AT_END>(b)?;
    let v = if !s.is_float {
        // One rounding, from the integer itself (symmetric, so the sign
        // can come after it); "-0" is -0.0 as `short_f64`'s.
        let m = s.mant as f32;
        if s.neg { -m } else { m }
    } else {
        let v = float32_fast(s.mant, s.exp10)?;
        if s.neg { -v } else { v }
    };
    Some((v, s.len))
}

/// [`parse`] for an integer target, in the common case: sign, magnitude
/// and length of an integer of at most 19 digits, or of 20 that fits in
/// `u64` ([`twenty_digits`]). `None`: use [`parse`] (fractions and
/// exponents too: they need the exactness check).
#[inline]
pub(crate) fn short_int(b: &[u8]) -> Option<(bool, u64, usize)> {
    match scan_short::<false, false>(b) {
        Some(s) if !s.is_float => Some((s.neg, s.mant, s.len)),
        Some(_) => None,
        None => twenty_digits::<false>(b),
    }
}

/// A non-negative integer of exactly 20 digits that fits in `u64`, from
/// 10^19 to `u64::MAX` (nearly half of all `u64` values: random ids and
/// hashes often have 20 digits), at the start of `b` and ended inside it
/// as [`scan_short`]'s numbers are: its magnitude and length. Without this
/// they took the general parser, at ten times the cost. `None` for
/// anything else (the general parser reads it, or says what is wrong).
///
/// With `AT_END`, the end of `b` may follow the digits.
#[inline(never)]
fn twenty_digits<const AT_END: bool>(b: &[u8]) -> Option<(bool, u64, usize)> {
    let (digits, rest) = b.split_first_chunk::<20>()?;
    let ended = match rest.first() {
        Some(&c) => !(c.is_ascii_digit() || c == b'.' || c | 0x20 == b'e'),
        None => AT_END,
    };
    if digits[0] == b'0' || !ended {
        return None;
    }
    // Three words of eight digits: bytes 0..8, 8..16 and 12..20 (the last
    // overlapping the second), each checked and valued at once.
    #[inline(always)]
    fn word(digits: &[u8; 20], at: usize) -> Option<u64> {
        let w = u64::from_le_bytes(*digits.get(at..)?.first_chunk::<8>()?);
        (leading_digits(w) == 8).then(|| eight_digits_value(w))
    }
    let (head, middle, tail) = (word(digits, 0)?, word(digits, 8)?, word(digits, 12)?);
    // The first 16 digits are exact in a u64; the last 4 may overflow it.
    (head * 100_000_000 + middle)
        .checked_mul(10_000)?
        .checked_add(tail % 10_000)
        .map(|v| (false, v, 20))
}

/// The commonest number of all, an integer for an integer target, with
/// nothing around it: at the very start of `b` (no whitespace), at most 19
/// digits, and followed inside `b` by a byte that is not a digit, `.`, `e`
/// or `E`. Its sign, magnitude and length. `None`: [`short_int`] and the
/// general path decide (they give the same answer for what this takes).
///
/// Small enough to be inlined where a field is read, so that the typical
/// id or count costs no call.
#[inline(always)]
pub(crate) fn plain_int(b: &[u8]) -> Option<(bool, u64, usize)> {
    plain_int_ended::<false>(b)
}

/// [`plain_int`] for the rest of the input, where its end also ends the
/// integer (a document that is one integer, from a slice): no padded copy.
/// Also takes a `u64` of 20 digits, as [`short_int`] does.
#[inline]
pub(crate) fn plain_int_to_end(rest: &[u8]) -> Option<(bool, u64, usize)> {
    plain_int_ended::<true>(rest).or_else(|| twenty_digits::<true>(rest))
}

/// [`plain_int`], and with `AT_END` the end of `b` may follow the integer.
#[inline(always)]
pub(crate) fn plain_int_ended<const AT_END: bool>(b: &[u8]) -> Option<(bool, u64, usize)> {
    let neg = *b.first()? == b'-';
    let start = usize::from(neg);
    let mut mant = u64::from(b.get(start)?.wrapping_sub(b'0'));
    if mant > 9 {
        return None;
    }
    let mut i = start + 1;
    // A leading `0` is the whole integer part (`01` is `0`, then `1`).
    if mant != 0 {
        digit_run::<true>(b, &mut i, &mut mant);
        if i - start > 19 {
            return None;
        }
    }
    match b.get(i) {
        Some(&c) if c == b'.' || c | 0x20 == b'e' => None,
        None if !AT_END => None,
        _ => Some((neg, mant, i)),
    }
}

/// [`parse`] for a dynamic value ([`codec_core::Value`]) in the common case
/// ([`scan_short`]): the value as [`Num::kind`] and the driver would give it
/// (an integer as `Uint`, or `Int` when negative or when `signed` asks and
/// it fits; a fraction or exponent as `F64`) and the length. `None`: use
/// [`parse`] (longer numbers, except a `u64` of 20 digits; negative
/// integers below `i64::MIN`).
#[inline(always)]
pub(crate) fn short_value<const AT_END: bool>(
    b: &[u8],
    signed: bool,
) -> Option<Result<(codec_core::Value, usize)>> {
    use codec_core::Value;
    // Short leading digits first, as for a float: in a dynamic document
    // floats and small integers have one to three, and a long id pays only
    // the three single steps before its eight-at-a-time run.
    let Some(s) = scan_short::<true, AT_END>(b) else {
        // Past `i64::MAX`: `Uint` whether or not `signed` asks.
        return twenty_digits::<AT_END>(b).map(|(_, v, len)| Ok((Value::Uint(v), len)));
    };
    let v = if s.is_float {
        match float64(&b[..s.len], s.mant, s.exp10, false, s.neg) {
            Ok(v) => Value::F64(v),
            Err(e) => return Some(Err(e)),
        }
    } else if !s.neg {
        match i64::try_from(s.mant) {
            Ok(i) if signed => Value::Int(i),
            _ => Value::Uint(s.mant),
        }
    } else if s.mant <= 1 << 63 {
        Value::Int((s.mant as i64).wrapping_neg())
    } else {
        return None;
    };
    Some(Ok((v, s.len)))
}

/// A well-formed number of at most 19 significant digits followed by a
/// byte that ends it: the common case, scanned in one pass.
#[derive(Clone, Copy)]
struct Short {
    neg: bool,
    is_float: bool,
    /// All digits, the point removed (exact: at most 19 digits).
    mant: u64,
    exp10: i32,
    len: usize,
}

impl Short {
    #[inline(always)]
    fn finish(self, b: &[u8], f32: bool) -> Result<Num> {
        let Short {
            neg,
            is_float,
            mant,
            exp10,
            len,
        } = self;
        if !is_float {
            return Ok(if !neg {
                Num::U(mant)
            } else if mant <= 1 << 63 {
                Num::I((mant as i64).wrapping_neg())
            } else {
                big(&b[..len], neg)?
            });
        }
        let text = &b[..len];
        let v = if f32 {
            float32(text, mant, exp10, false, neg)?
        } else {
            float64(text, mant, exp10, false, neg)?
        };
        Ok(Num::F(Float {
            v,
            exact: Exact::Digits { mant, exp10 },
            neg,
        }))
    }
}

/// Eight ASCII zeros.
const ZEROS: u64 = 0x3030_3030_3030_3030;

/// The value of eight ASCII digits (first digit in the lowest byte), by
/// combining neighbours pairwise: 8 x 1 digit -> 4 x 2 -> 2 x 4 -> 1 x 8.
#[inline(always)]
fn eight_digits_value(v: u64) -> u64 {
    let v = v - ZEROS;
    let v = (v * 10 + (v >> 8)) & 0x00FF_00FF_00FF_00FF;
    let v = (v * 100 + (v >> 16)) & 0x0000_FFFF_0000_FFFF;
    (v * 10_000 + (v >> 32)) & 0xFFFF_FFFF
}

/// 10^k for k in 0..8.
const POW10_U64: [u64; 8] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];

/// How many of the eight bytes of `v` (first byte lowest) are ASCII digits
/// before the first that is not (8 when all are).
#[inline(always)]
fn leading_digits(v: u64) -> usize {
    // A digit XOR '0' is 0..=9; adding 0x76 sets the high bit of any byte
    // from 10 up, and `| t` that of any byte from 0x80 up. A carry out of
    // a byte only reaches bytes above a flagged one, so the lowest flag is exact.
    let t = v ^ ZEROS;
    let non_digit = (t.wrapping_add(0x7676_7676_7676_7676) | t) & 0x8080_8080_8080_8080;
    (non_digit.trailing_zeros() / 8) as usize
}

/// How many ASCII digits `b` starts with, eight at a time where it can.
#[inline(always)]
fn digit_count(b: &[u8]) -> usize {
    let mut i = 0;
    while let Some(chunk) = b.get(i..i + 8) {
        let k = leading_digits(u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])));
        i += k;
        if k < 8 {
            return i;
        }
    }
    i + b[i..].iter().take_while(|c| c.is_ascii_digit()).count()
}

/// Where a number's grammar (RFC 8259, section 6:
/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`) stands after
/// some of its bytes. Skipping a value checks only this: no value is made,
/// so a number has no range limit there (`1e400` is valid JSON, and a
/// skipped or captured one is not looked at), and since the state carries
/// over from one buffer to the next, no length limit from a reader either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Grammar {
    /// Nothing yet.
    Start,
    /// `-`
    Minus,
    /// `0` or `-0`: no more integer digits may follow.
    Zero,
    /// Integer digits.
    Int,
    /// The point, no fraction digit yet.
    Point,
    /// Fraction digits.
    Frac,
    /// `e` or `E`.
    E,
    /// The exponent's sign.
    ExpSign,
    /// Exponent digits.
    Exp,
}

impl Grammar {
    /// Whether the number may end here.
    pub(crate) fn complete(self) -> bool {
        matches!(
            self,
            Grammar::Zero | Grammar::Int | Grammar::Frac | Grammar::Exp
        )
    }

    /// The state after `c`; `None` when `c` cannot continue the number.
    #[inline]
    fn step(self, c: u8) -> Option<Grammar> {
        use Grammar::*;
        Some(match (self, c) {
            (Start, b'-') => Minus,
            (Start | Minus, b'0') => Zero,
            (Start | Minus | Int, b'1'..=b'9') | (Int, b'0') => Int,
            (Zero | Int, b'.') => Point,
            (Point | Frac, b'0'..=b'9') => Frac,
            (Zero | Int | Frac, b'e' | b'E') => E,
            (E, b'+' | b'-') => ExpSign,
            (E | ExpSign | Exp, b'0'..=b'9') => Exp,
            _ => return None,
        })
    }

    /// The length of the well-formed number at the start of `b` when it
    /// ends inside `b` (a byte that cannot continue it follows): the common
    /// case, in one straight pass. `None` when it is malformed or reaches
    /// `b`'s end; [`Grammar::scan`] decides then.
    #[inline(always)]
    pub(crate) fn whole(b: &[u8]) -> Option<usize> {
        let mut i = usize::from(b.first() == Some(&b'-'));
        // A leading `0` is the whole integer part (`01` is `0`, then `1`
        // that cannot continue it), as in the grammar.
        let n = match b.get(i) {
            Some(b'0') => 1,
            _ => digit_count(b.get(i..)?),
        };
        if n == 0 {
            return None;
        }
        i += n;
        if b.get(i) == Some(&b'.') {
            i += 1;
            let n = digit_count(b.get(i..)?);
            if n == 0 {
                return None;
            }
            i += n;
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let n = digit_count(b.get(i..)?);
            if n == 0 {
                return None;
            }
            i += n;
        }
        (i < b.len()).then_some(i)
    }

    /// Reads on from the start of `b`: how many bytes continue the number,
    /// the state after them, and whether the number ended (the next byte
    /// cannot continue it) rather than `b`.
    #[inline]
    pub(crate) fn scan(mut self, b: &[u8]) -> (usize, Grammar, bool) {
        let mut i = 0;
        loop {
            if matches!(self, Grammar::Int | Grammar::Frac | Grammar::Exp) {
                i += digit_count(&b[i..]);
            }
            let Some(&c) = b.get(i) else {
                return (i, self, false);
            };
            match self.step(c) {
                Some(next) => {
                    self = next;
                    i += 1;
                }
                None => return (i, self, true),
            }
        }
    }
}

/// Appends the run of digits at `b[*i..]` to `mant` (wrapping: the caller
/// counts digits and discards results past 19), eight at a time where it can.
///
/// `SHORT_TAIL`: a last one or two digits are added as they are, not
/// through the eight-digit combine. It pays for integers (nine- and
/// ten-digit ids end that way), not for fractions, where the extra branch
/// costs more than it saves (canada.json's typed decode took 1.2 % more
/// instructions with it).
#[inline(always)]
fn digit_run<const SHORT_TAIL: bool>(b: &[u8], i: &mut usize, mant: &mut u64) {
    while let Some(chunk) = b.get(*i..*i + 8) {
        let v = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let k = leading_digits(v);
        if k == 8 {
            *mant = mant
                .wrapping_mul(100_000_000)
                .wrapping_add(eight_digits_value(v));
            *i += 8;
            continue;
        }
        if SHORT_TAIL && k <= 2 {
            let digit = |j: usize| ((v >> (8 * j)) & 0xff) ^ 0x30;
            match k {
                1 => *mant = mant.wrapping_mul(10).wrapping_add(digit(0)),
                2 => {
                    *mant = mant
                        .wrapping_mul(100)
                        .wrapping_add(digit(0) * 10 + digit(1));
                }
                _ => {}
            }
            *i += k;
            return;
        }
        if k > 0 {
            // The k digits moved to the top of the word, '0's below them:
            // the same eight-digit combine gives their value.
            let padded = (v << (8 * (8 - k))) | (ZEROS >> (8 * k));
            *mant = mant
                .wrapping_mul(POW10_U64[k])
                .wrapping_add(eight_digits_value(padded));
            *i += k;
        }
        return;
    }
    while let Some(&c) = b.get(*i) {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        *mant = mant.wrapping_mul(10).wrapping_add(d as u64);
        *i += 1;
    }
}

/// The byte at `b[i]`, just past a number's digits, which must end it
/// there. Where `b` ends first: with `AT_END` (`b` holds the rest of the
/// input, so its end ends the number) a space, which ends a number as any
/// byte after one would; otherwise `None` (a reader may have more digits).
#[inline(always)]
fn after<const AT_END: bool>(b: &[u8], i: usize) -> Option<u8> {
    match b.get(i) {
        Some(&c) => Some(c),
        None if AT_END => Some(b' '),
        None => None,
    }
}

/// Scans the common case; `None` sends the number to [`parse_general`]
/// (more than 19 digits, a long exponent, malformed, or not ended inside `b`).
///
/// `FLOAT`: the number's integer part is expected to be short (a float, or
/// any number of a dynamic value: coordinates, measurements, counts; one to
/// three digits): it is read a byte at a time for up to three digits, where
/// the eight-at-a-time run costs more than it saves. Either way the result
/// is the same.
#[inline(always)]
fn scan_short<const FLOAT: bool, const AT_END: bool>(b: &[u8]) -> Option<Short> {
    let neg = b.first() == Some(&b'-');
    let mut i = neg as usize;
    let mut mant = 0u64;
    let mut digits = 0usize;
    match *b.get(i)? {
        b'0' => i += 1,
        first @ b'1'..=b'9' => {
            let start = i;
            if FLOAT {
                mant = u64::from(first - b'0');
                i += 1;
                while i - start < 3 {
                    match b.get(i) {
                        Some(&c) if c.is_ascii_digit() => {
                            mant = mant * 10 + u64::from(c - b'0');
                            i += 1;
                        }
                        _ => break,
                    }
                }
                if i - start == 3 {
                    digit_run::<false>(b, &mut i, &mut mant);
                }
            } else {
                digit_run::<true>(b, &mut i, &mut mant);
            }
            digits = i - start;
        }
        _ => return None,
    }
    let mut exp10 = 0i32;
    let mut is_float = false;
    let mut c = after::<AT_END>(b, i)?;
    if c == b'.' {
        is_float = true;
        i += 1;
        let start = i;
        digit_run::<false>(b, &mut i, &mut mant);
        let frac = i - start;
        if frac == 0 {
            return None;
        }
        // Leading zeros of "0.000123" count too: conservative, exact.
        digits += frac;
        if digits > 19 {
            return None;
        }
        exp10 = -(frac as i32);
        c = after::<AT_END>(b, i)?;
    } else if digits > 19 {
        return None;
    }
    if c | 0x20 == b'e' {
        is_float = true;
        i += 1;
        let eneg = match *b.get(i)? {
            b'-' => {
                i += 1;
                true
            }
            b'+' => {
                i += 1;
                false
            }
            _ => false,
        };
        let start = i;
        let mut e = 0i32;
        while let Some(&c) = b.get(i) {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            e = e * 10 + d as i32;
            i += 1;
            if i - start > 4 {
                return None;
            }
        }
        if i == start {
            return None;
        }
        exp10 += if eneg { -e } else { e };
        // The number must end inside `b` (a reader may have more digits).
        after::<AT_END>(b, i)?;
    }
    Some(Short {
        neg,
        is_float,
        mant,
        exp10,
        len: i,
    })
}

/// [`parse`] for every number [`scan_short`] leaves: long mantissas and
/// exponents, malformed numbers, numbers that reach the end of `b`.
fn parse_general(b: &[u8], complete: bool, f32: bool) -> Result<Parsed> {
    let len = b.len();
    let need_more = |i: usize| -> Result<Parsed> {
        if i >= len && !complete {
            Ok(Parsed::NeedMore)
        } else if i >= len {
            Err(Error::eof())
        } else {
            Err(bad_number("invalid number"))
        }
    };
    let mut i = 0;
    let neg = b.first() == Some(&b'-');
    if neg {
        i = 1;
    }
    let mut mant: u64 = 0;
    let mut exp10: i32 = 0;
    let mut overflow = false;
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(&c @ b'1'..=b'9') => {
            mant = (c - b'0') as u64;
            i += 1;
            // Up to 19 digits cannot overflow a u64.
            while let Some(&c) = b.get(i) {
                if !c.is_ascii_digit() {
                    break;
                }
                let d = (c - b'0') as u64;
                if !overflow {
                    match mant.checked_mul(10).and_then(|m| m.checked_add(d)) {
                        Some(m) => mant = m,
                        None => {
                            overflow = true;
                            exp10 += 1;
                        }
                    }
                } else {
                    exp10 = exp10.saturating_add(1);
                }
                i += 1;
            }
        }
        _ => return need_more(i),
    }
    let mut is_float = false;
    if b.get(i) == Some(&b'.') {
        is_float = true;
        i += 1;
        let start = i;
        while let Some(&c) = b.get(i) {
            if !c.is_ascii_digit() {
                break;
            }
            if !overflow {
                match mant
                    .checked_mul(10)
                    .and_then(|m| m.checked_add((c - b'0') as u64))
                {
                    Some(m) => {
                        mant = m;
                        exp10 -= 1;
                    }
                    None => overflow = true,
                }
            }
            i += 1;
        }
        if i == start {
            return need_more(i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        is_float = true;
        i += 1;
        let eneg = match b.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let start = i;
        let mut e: i32 = 0;
        while let Some(&c) = b.get(i) {
            if !c.is_ascii_digit() {
                break;
            }
            e = (e * 10 + (c - b'0') as i32).min(1_000_000);
            i += 1;
        }
        if i == start {
            return need_more(i);
        }
        exp10 = exp10.saturating_add(if eneg { -e } else { e });
    }
    if i >= len && !complete {
        return Ok(Parsed::NeedMore);
    }
    if i > MAX_LEN {
        return Err(bad_number("number too long"));
    }
    let text = &b[..i];
    let num = if !is_float {
        if overflow {
            big(text, neg)?
        } else if neg {
            if mant <= 1 << 63 {
                Num::I((mant as i64).wrapping_neg())
            } else {
                big(text, neg)?
            }
        } else {
            Num::U(mant)
        }
    } else {
        let v = if f32 {
            float32(text, mant, exp10, overflow, neg)?
        } else {
            float64(text, mant, exp10, overflow, neg)?
        };
        // Past 19 digits `mant` and `exp10` are approximate: whether the
        // value is an integer is read from the digits themselves.
        let exact = if !overflow {
            Exact::Digits { mant, exp10 }
        } else {
            long_int(text).map_or(Exact::NotInt, |m| Exact::Int(Mag::new(m)))
        };
        Num::F(Float { v, exact, neg })
    };
    Ok(Parsed::Done(num, i))
}

#[cold]
fn big(text: &[u8], neg: bool) -> Result<Num> {
    let s = std::str::from_utf8(text).map_err(|_| bad_number("invalid number"))?;
    let mag = s.trim_start_matches('-').parse::<u128>().ok().map(Mag::new);
    let v = s.parse::<f64>().map_err(|_| bad_number("invalid number"))?;
    if mag.is_none() && !v.is_finite() {
        // Beyond 128 bits and beyond f64: no target can hold it, as for `1e400`.
        return Err(Error::out_of_range("f64", s));
    }
    Ok(Num::Big { mag, neg, v })
}

/// Inlined everywhere: the `Document` reader's loop left it out of line
/// (a call per float) once the loop grew.
#[inline(always)]
fn float64(text: &[u8], mant: u64, exp10: i32, overflow: bool, neg: bool) -> Result<f64> {
    if !overflow && mant <= 1 << 53 && (-22..=22).contains(&exp10) {
        // Clinger's fast path: both operands exact, one correctly rounded operation.
        let m = mant as f64;
        let v = if exp10 >= 0 {
            m * POW10_F64[exp10 as usize]
        } else {
            m / POW10_F64[(-exp10) as usize]
        };
        return Ok(if neg { -v } else { v });
    }
    float64_lemire(text, mant, exp10, overflow, neg)
}

/// [`float64`] past Clinger's fast path (kept out of line: the integer and
/// short-float paths stay small).
#[inline(never)]
fn float64_lemire(text: &[u8], mant: u64, exp10: i32, overflow: bool, neg: bool) -> Result<f64> {
    let v = match eisel_lemire(mant, exp10, overflow, lemire::F64) {
        Some(bits) => f64::from_bits(bits),
        None => slow_float::<f64>(text)?.abs(),
    };
    if v.is_finite() {
        Ok(if neg { -v } else { v })
    } else {
        Err(Error::out_of_range("f64", String::from_utf8_lossy(text)))
    }
}

/// Eisel-Lemire on the first 19 digits. With more digits (`truncated`) the
/// value lies in `[mant, mant + 1) × 10^exp10`; when both ends round to the
/// same float, so does the value (as `core` does). `None`: undecided.
#[inline]
fn eisel_lemire(mant: u64, exp10: i32, truncated: bool, fmt: lemire::Format) -> Option<u64> {
    let bits = lemire::compute(mant, exp10, fmt)?;
    if truncated {
        let up = lemire::compute(mant.checked_add(1)?, exp10, fmt)?;
        if up != bits {
            return None;
        }
    }
    Some(bits)
}

fn float32(text: &[u8], mant: u64, exp10: i32, overflow: bool, neg: bool) -> Result<f64> {
    if !overflow && let Some(v) = float32_fast(mant, exp10) {
        return Ok(if neg { -v } else { v } as f64);
    }
    let v = match eisel_lemire(mant, exp10, overflow, lemire::F32) {
        Some(bits) => f32::from_bits(bits as u32),
        None => slow_float::<f32>(text)?.abs(),
    };
    if v.is_finite() {
        Ok(if neg { -v } else { v } as f64)
    } else {
        Err(Error::out_of_range("f32", String::from_utf8_lossy(text)))
    }
}

/// `mant × 10^exp10` rounded to `f32` by way of Clinger's fast path at
/// `f64` precision; `None` past the fast path's bounds, and where rounding
/// twice could differ from rounding once. Within the bounds (`mant` at most
/// 2^53, `|exp10|` at most 22) a nonzero value lies between 1e-22 and 1e38:
/// inside the normal `f32` range, so no subnormal and no overflow.
///
/// Rounding to nearest is monotonic, and every `f32` midpoint (25
/// significant bits) is an `f64`: so the correctly rounded `f64` lies in
/// the same closed interval between two neighbouring `f32` midpoints as
/// the exact value, and narrows to the same `f32` unless it is one of
/// those midpoints itself. That case (the `f64`'s 29 low mantissa bits
/// are `1` then 28 zeros) is left to the exact path.
#[inline(always)]
fn float32_fast(mant: u64, exp10: i32) -> Option<f32> {
    if mant > 1 << 53 || !(-22..=22).contains(&exp10) {
        return None;
    }
    let m = mant as f64;
    let d = if exp10 >= 0 {
        m * POW10_F64[exp10 as usize]
    } else {
        m / POW10_F64[(-exp10) as usize]
    };
    let midpoint = d.to_bits() & 0x1FFF_FFFF == 0x1000_0000;
    (!midpoint).then_some(d as f32)
}

#[cold]
fn slow_float<T: std::str::FromStr>(text: &[u8]) -> Result<T> {
    std::str::from_utf8(text)
        .ok()
        .and_then(|s| s.parse::<T>().ok())
        .ok_or_else(|| bad_number("invalid number"))
}

/// Parses a whole byte string as one JSON number (for quoted numbers).
pub(crate) fn parse_exact(b: &[u8], f32: bool) -> Result<Num> {
    match parse(b, true, f32) {
        Ok(Parsed::Done(n, len)) if len == b.len() => Ok(n),
        // A well-formed number too large for any target stays out of range
        // (as from a slice), not a syntax error.
        Err(e) if matches!(e.kind(), ErrorKind::OutOfRange { .. }) => Err(e),
        _ => Err(Error::syntax(format!(
            "quoted text {:?} is not a JSON number",
            String::from_utf8_lossy(b)
        ))),
    }
}

/// Integral `f64` values below this (2^52) keep their `.0`.
pub(crate) const F64_INT_LIMIT: f64 = 4_503_599_627_370_496.0;
/// Integral `f32` values below this (2^23) keep their `.0`.
pub(crate) const F32_INT_LIMIT: f64 = 8_388_608.0;

/// Formats a finite float as ugorji does into `out`, returning the length.
///
/// `shortest` is the shortest round-trip text of the value (zmij's or ryu's
/// layout: `1.0`, `0.001`, `1e-7`, `1e+21`, `1e21`); `.0` is kept on
/// integral values below `int_limit` (2^52 for `f64`, 2^23 for `f32`); the
/// exponent form (`1e+21`, `5e-324`) is used below 1e-6 and from 1e21 up.
#[inline]
pub(crate) fn format_float(shortest: &str, abs: f64, int_limit: f64, out: &mut [u8; 48]) -> usize {
    let s = shortest.as_bytes();
    match fixed_as_is(s, abs, int_limit) {
        Some(n) => copy(out, 0, &s[..n]),
        None => format_float_slow(s, abs, int_limit, out),
    }
}

/// An `f32`'s magnitude for [`format_float`]'s layout choice. Go compares a
/// float32 with 1e-6 in float32, where `float32(1e-6)` (9.99999997e-7 as an
/// `f64`) equals the bound, so ugorji writes it as `0.000001`; every other
/// `f32` falls on the same side of the bound either way (`float32(1e21)` is
/// above 1e21).
#[inline(always)]
pub(crate) fn f32_magnitude(v: f32) -> f64 {
    let abs = v.abs();
    if abs == 1e-6f32 { 1e-6 } else { f64::from(abs) }
}

/// The common case: how much of `s` (a shortest form without an exponent,
/// in the fixed-notation range) is ugorji's text as it stands; `None` when
/// it needs re-laying out.
#[inline(always)]
pub(crate) fn fixed_as_is(s: &[u8], abs: f64, int_limit: f64) -> Option<usize> {
    // Most values: no exponent, and not integral from int_limit up, so the
    // text is as it stands (one range check, int_limit being a constant).
    if abs >= PLAIN_WINDOW.start && abs < int_limit.min(PLAIN_WINDOW.end) {
        return Some(s.len());
    }
    if !PLAIN_WINDOW.contains(&abs) && (!(1e-6..1e21).contains(&abs) || has_exponent(s)) {
        return None;
    }
    // The fixed form equals Go's 'f' form, except that integral values from
    // int_limit up lose their ".0".
    if abs >= int_limit && s.ends_with(b".0") {
        return Some(s.len() - 2);
    }
    Some(s.len())
}

/// Magnitudes whose shortest form never has an exponent, so that the text
/// need not be looked at: zmij writes fixed notation for decimal exponents
/// -5..=15 (`f64`) and -6..=12 (`f32`), upstream zmij and ryu -4..=15 or
/// wider; this window sits inside all of them with a decade to spare on each
/// side (`plain_window_has_no_exponent` checks the linked formatters).
const PLAIN_WINDOW: std::ops::Range<f64> = 1e-4..1e12;

/// Whether a shortest form is in exponent form: its `e` can only sit 3, 4
/// or 5 bytes from the end (`e-7`, `e+16`, `e-308`). Three byte loads
/// instead of a scan: the formatter has just written the buffer with wide
/// stores, and a wide load across them stalls on store forwarding.
#[inline(always)]
fn has_exponent(s: &[u8]) -> bool {
    let n = s.len();
    let at = |k: usize| n.checked_sub(k).and_then(|i| s.get(i)) == Some(&b'e');
    at(3) || at(4) || at(5)
}

/// Re-lays out a shortest form that is in exponent form, is zero, or is
/// outside the fixed-notation range.
#[cold]
fn format_float_slow(s: &[u8], abs: f64, int_limit: f64, out: &mut [u8; 48]) -> usize {
    if abs == 0.0 {
        // The shortest forms are "0.0" / "-0.0" already.
        return copy(out, 0, s);
    }
    if !s.contains(&b'e') {
        if abs >= int_limit && s.ends_with(b".0") {
            return copy(out, 0, &s[..s.len() - 2]);
        }
        if abs < 1e-6 {
            return sci_from_fixed(s, out);
        }
        return copy(out, 0, s);
    }
    // The exponent form: [-]d[.ddd]e[+-]x
    let (mantissa, exp) = match s.iter().position(|&c| c == b'e') {
        Some(p) => (&s[..p], &s[p + 1..]),
        None => (s, &b"0"[..]),
    };
    let (neg, mantissa) = match mantissa.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, mantissa),
    };
    let e: i32 = std::str::from_utf8(exp)
        .ok()
        .and_then(|x| x.parse().ok())
        .unwrap_or(0);
    let mut digits = [0u8; 24];
    let mut nd = 0;
    for &c in mantissa {
        if c.is_ascii_digit() && nd < digits.len() {
            digits[nd] = c;
            nd += 1;
        }
    }
    write_parts(neg, &digits[..nd], e, abs, int_limit, out)
}

/// Turns a fixed form of a value below 1e-6 ("0.0000001") into parts.
fn sci_from_fixed(s: &[u8], out: &mut [u8; 48]) -> usize {
    let (neg, body) = match s.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, s),
    };
    let mut digits = [0u8; 24];
    let mut nd = 0;
    let mut point_seen = false;
    let mut lead_zeros_after_point = 0i32;
    for &c in body {
        if c == b'.' {
            point_seen = true;
        } else if nd == 0 && c == b'0' {
            if point_seen {
                lead_zeros_after_point += 1;
            }
        } else if nd < digits.len() {
            digits[nd] = c;
            nd += 1;
        }
    }
    let e = -(lead_zeros_after_point + 1);
    write_parts(neg, &digits[..nd], e, 0.0, 1.0, out)
}

/// Writes digits `d.ddd` × 10^`e` in Go's `'f'` or `'e'` form as ugorji picks.
fn write_parts(
    neg: bool,
    digits: &[u8],
    e: i32,
    abs: f64,
    int_limit: f64,
    out: &mut [u8; 48],
) -> usize {
    let mut n = 0;
    if neg {
        out[0] = b'-';
        n = 1;
    }
    let nd = digits.len() as i32;
    if (1e-6..1e21).contains(&abs) {
        // Fixed notation.
        let kk = e + 1; // digits before the point
        if kk >= nd {
            n = copy(out, n, digits);
            for _ in 0..(kk - nd) {
                n = copy(out, n, b"0");
            }
            if abs < int_limit {
                n = copy(out, n, b".0");
            }
        } else if kk <= 0 {
            n = copy(out, n, b"0.");
            for _ in 0..(-kk) {
                n = copy(out, n, b"0");
            }
            n = copy(out, n, digits);
        } else {
            let k = kk as usize;
            n = copy(out, n, &digits[..k]);
            n = copy(out, n, b".");
            n = copy(out, n, &digits[k..]);
        }
        return n;
    }
    // Go's 'e' form: d[.ddd]e±XX (at least two exponent digits).
    if let Some((first, rest)) = digits.split_first() {
        n = copy(out, n, &[*first]);
        if !rest.is_empty() {
            n = copy(out, n, b".");
            n = copy(out, n, rest);
        }
    }
    n = copy(out, n, if e < 0 { b"e-" } else { b"e+" });
    let a = e.unsigned_abs();
    if a < 10 {
        n = copy(out, n, b"0");
    }
    let mut ib = itoa::Buffer::new();
    copy(out, n, ib.format(a).as_bytes())
}

#[inline]
fn copy(out: &mut [u8; 48], at: usize, s: &[u8]) -> usize {
    let end = (at + s.len()).min(out.len());
    if let Some(dst) = out.get_mut(at..end) {
        dst.copy_from_slice(&s[..end - at]);
    }
    end
}

#[cfg(test)]
mod tests {
    #[test]
    fn integers_beyond_f64_are_out_of_range() {
        let out_of_range = |text: &str| {
            let e = parse_exact(text.as_bytes(), false).unwrap_err();
            assert!(
                matches!(e.kind(), ErrorKind::OutOfRange { .. }),
                "{text}: {e}"
            );
        };
        let huge = format!("1{}", "0".repeat(309));
        out_of_range(&huge);
        out_of_range(&format!("-{huge}"));
        // The same kind as from a slice (`parse_exact` reads numbers that
        // reached the end of a reader's buffer).
        out_of_range("-1e+9999");
        out_of_range("1e400");
        // Beyond 64 bits but finite: still a float, as ugorji decodes it.
        let big = format!("1{}", "0".repeat(30));
        assert!(parse_exact(big.as_bytes(), false).is_ok());
    }

    use super::*;
    use codec_core::Value;

    fn f64s(v: f64) -> String {
        let mut b = zmij::Buffer::new();
        let mut out = [0u8; 48];
        let n = format_float(b.format_finite(v), v.abs(), F64_INT_LIMIT, &mut out);
        String::from_utf8(out[..n].to_vec()).unwrap()
    }

    fn f32s(v: f32) -> String {
        let mut b = zmij::Buffer::new();
        let mut out = [0u8; 48];
        let n = format_float(
            b.format_finite(v),
            f32_magnitude(v),
            F32_INT_LIMIT,
            &mut out,
        );
        String::from_utf8(out[..n].to_vec()).unwrap()
    }

    #[test]
    fn float_formats_match_ugorji() {
        for (v, s) in [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (17.0, "17.0"),
            (100000.0, "100000.0"),
            (1.5, "1.5"),
            (-4.1, "-4.1"),
            (0.1, "0.1"),
            (1e16, "10000000000000000"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1e300, "1e+300"),
            (5e-324, "5e-324"),
            (1e-7, "1e-07"),
            (1.5e-7, "1.5e-07"),
            (1e-6, "0.000001"),
            (1.5e-6, "0.0000015"),
            (1.2345e-5, "0.000012345"),
            (3.4028234663852886e38, "3.4028234663852886e+38"),
            (5.960464477539063e-8, "5.960464477539063e-08"),
            (4503599627370496.0, "4503599627370496"),
            (4503599627370495.0, "4503599627370495.0"),
            (123456789012345680000.0, "123456789012345680000"),
            (-2.5e25, "-2.5e+25"),
        ] {
            assert_eq!(f64s(v), s, "{v:e}");
        }
        for (v, s) in [
            (1.0f32, "1.0"),
            (0.1, "0.1"),
            (1.0 / 3.0, "0.33333334"),
            (3.4028235e38, "3.4028235e+38"),
            (1e-45, "1e-45"),
            (65504.0, "65504.0"),
            (8388608.0, "8388608"),
            (1e10, "10000000000"),
            // Go compares a float32 with 1e-6 in float32: float32(1e-6) is
            // on the bound, so fixed; the next float32 down is below it.
            (1e-6, "0.000001"),
            (-1e-6, "-0.000001"),
            (f32::from_bits(1e-6f32.to_bits() - 1), "9.999999e-07"),
            (1e21, "1e+21"),
            (
                f32::from_bits(1e21f32.to_bits() - 1),
                "999999950000000000000",
            ),
        ] {
            assert_eq!(f32s(v), s, "{v:e}");
        }
    }

    /// A small deterministic PRNG for the randomized tests.
    pub(crate) struct SplitMix(pub u64);
    impl SplitMix {
        pub fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
    }

    #[test]
    fn eight_digit_swar_matches_bytewise() {
        let mut rng = SplitMix(11);
        for _ in 0..20_000 {
            let mut b = [0u8; 8];
            for x in &mut b {
                *x = b'0' + (rng.next() % 10) as u8;
            }
            let v = u64::from_le_bytes(b);
            assert_eq!(leading_digits(v), 8);
            let want = b.iter().fold(0u64, |a, &c| a * 10 + (c - b'0') as u64);
            assert_eq!(eight_digits_value(v), want, "{:?}", std::str::from_utf8(&b));
            // Any byte that is not a digit ends the run where it sits,
            // whatever follows it (random bytes, which may carry).
            let at = (rng.next() % 8) as usize;
            for bad in (0..=255u8).filter(|c| !c.is_ascii_digit()) {
                let mut c = b;
                c[at] = bad;
                for x in &mut c[at + 1..] {
                    *x = rng.next() as u8;
                }
                let w = u64::from_le_bytes(c);
                assert_eq!(leading_digits(w), at, "{c:?}");
                // The digits before it, padded as digit_run pads them.
                if at > 0 {
                    let padded = (w << (8 * (8 - at))) | (ZEROS >> (8 * at));
                    let want = c[..at]
                        .iter()
                        .fold(0u64, |a, &d| a * 10 + (d - b'0') as u64);
                    assert_eq!(eight_digits_value(padded), want, "{c:?}");
                }
            }
        }
    }

    /// The one-pass scan and the general parser agree on every input the
    /// scan accepts (and the scan declines what it cannot do exactly).
    #[test]
    fn short_scan_agrees_with_general_parser() {
        let mut rng = SplitMix(13);
        let alphabet = b"0123456789012345678901234567890123456789.eE+-";
        let (mut accepted, mut plain_accepted) = (0, 0);
        for n in 0..200_000u32 {
            let len = 1 + (rng.next() % 28) as usize;
            let mut text: Vec<u8> = (0..len)
                .map(|_| alphabet[(rng.next() % alphabet.len() as u64) as usize])
                .collect();
            if n.is_multiple_of(2) {
                // Mostly well formed: digits, optional fraction and exponent.
                text = format!(
                    "{}{}{}{}",
                    if rng.next().is_multiple_of(2) {
                        "-"
                    } else {
                        ""
                    },
                    rng.next() >> (rng.next() % 64),
                    match rng.next() % 3 {
                        0 => String::new(),
                        _ => format!(
                            ".{:0w$}",
                            rng.next() % 1_000_000_000,
                            w = (rng.next() % 12) as usize
                        ),
                    },
                    match rng.next() % 3 {
                        0 => format!("e{}", (rng.next() % 700) as i64 - 350),
                        _ => String::new(),
                    }
                )
                .into_bytes();
            }
            text.push(b',');
            // The inline integer case takes only what the short scan takes
            // as an integer, and reads it the same.
            if let Some(plain) = plain_int(&text) {
                let short = scan_short::<false, false>(&text).unwrap();
                assert!(!short.is_float, "{:?}", String::from_utf8_lossy(&text));
                assert_eq!(plain, (short.neg, short.mant, short.len));
                plain_accepted += 1;
            }
            for f32 in [false, true] {
                let general = parse_general(&text, false, f32);
                let Some(short) = scan_short::<false, false>(&text) else {
                    assert!(scan_short::<true, false>(&text).is_none());
                    continue;
                };
                // The float-biased integer part scans to the same result.
                let biased = scan_short::<true, false>(&text).unwrap();
                assert_eq!(
                    (
                        biased.neg,
                        biased.is_float,
                        biased.mant,
                        biased.exp10,
                        biased.len
                    ),
                    (
                        short.neg,
                        short.is_float,
                        short.mant,
                        short.exp10,
                        short.len
                    )
                );
                accepted += 1;
                let fast = short.finish(&text, f32);
                let s = String::from_utf8_lossy(&text);
                match (fast, general) {
                    (Ok(a), Ok(Parsed::Done(b, len))) => {
                        assert_eq!(short.len, len, "{s}");
                        assert_eq!(a, b, "{s}");
                    }
                    (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{s}"),
                    (a, _) => panic!("{s}: scan gave {a:?}, the general parser differs"),
                }
            }
            // The dynamic-value shortcut gives what the general parser's
            // number gives through `Num::kind` (as the driver maps it).
            for signed in [false, true] {
                let Some(fast) = short_value::<false>(&text, signed) else {
                    continue;
                };
                let s = String::from_utf8_lossy(&text);
                match (fast, parse_general(&text, false, false)) {
                    (Ok((v, len)), Ok(Parsed::Done(n, glen))) => {
                        assert_eq!(len, glen, "{s}");
                        let want = match n.kind(false, false) {
                            Kind::Int => Value::Int(n.to_i64().unwrap()),
                            Kind::Uint => match i64::try_from(n.to_u64().unwrap()) {
                                Ok(i) if signed => Value::Int(i),
                                _ => Value::Uint(n.to_u64().unwrap()),
                            },
                            _ => Value::F64(n.to_f64()),
                        };
                        assert_eq!(v, want, "{s}");
                    }
                    (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{s}"),
                    (a, _) => panic!("{s}: short_value gave {a:?}, the general parser differs"),
                }
            }
        }
        assert!(accepted > 100_000, "{accepted}");
        assert!(plain_accepted > 20_000, "{plain_accepted}");
    }

    #[test]
    fn magnitudes_keep_all_128_bits() {
        for m in [
            0,
            1,
            u128::from(u64::MAX),
            1 << 64,
            (1 << 64) + 1,
            u128::MAX,
        ] {
            assert_eq!(Mag::new(m).get(), m);
        }
        let num = |text: &str| match parse(text.as_bytes(), true, false) {
            Ok(Parsed::Done(n, len)) if len == text.len() => n,
            Ok(_) => panic!("{text}: not taken whole"),
            Err(e) => panic!("{text}: {e}"),
        };
        assert_eq!(num(&u128::MAX.to_string()).to_u128().unwrap(), u128::MAX);
        assert_eq!(num(&i128::MIN.to_string()).to_i128().unwrap(), i128::MIN);
        assert_eq!(num("18446744073709551616").to_u128().unwrap(), 1 << 64);
    }

    /// A number that ends the input, scanned in place (`AT_END`), reads as
    /// the same number followed by a byte that ends it; `parse` of a whole
    /// input agrees with the general parser.
    #[test]
    fn scans_to_the_end_agree_with_ended_scans() {
        let mut rng = SplitMix(29);
        let alphabet = b"0123456789012345678901234567890123456789.eE+-";
        let mut taken = 0;
        let fields = |s: Option<Short>| s.map(|s| (s.neg, s.is_float, s.mant, s.exp10, s.len));
        for n in 0..100_000u32 {
            let len = (rng.next() % 26) as usize;
            let mut bare: Vec<u8> = (0..len)
                .map(|_| alphabet[(rng.next() % alphabet.len() as u64) as usize])
                .collect();
            if n.is_multiple_of(2) {
                let exp = match rng.next() % 3 {
                    0 => format!("e{}", (rng.next() % 700) as i64 - 350),
                    _ => String::new(),
                };
                bare = format!(
                    "{}{}.{}{exp}",
                    ["", "-"][(rng.next() % 2) as usize],
                    rng.next() >> (rng.next() % 64),
                    rng.next() >> (rng.next() % 64),
                )
                .into_bytes();
            }
            let s = String::from_utf8_lossy(&bare).into_owned();
            let ended = [&bare[..], b","].concat();
            assert_eq!(
                fields(scan_short::<true, true>(&bare)),
                fields(scan_short::<true, false>(&ended)),
                "{s}"
            );
            assert_eq!(
                fields(scan_short::<false, true>(&bare)),
                fields(scan_short::<false, false>(&ended)),
                "{s}"
            );
            let f64s = |r: Option<Result<(f64, usize)>>| r.map(|r| r.map_err(|e| e.to_string()));
            assert_eq!(
                f64s(short_f64::<true>(&bare)),
                f64s(short_f64::<false>(&ended)),
                "{s}"
            );
            assert_eq!(short_f32::<true>(&bare), short_f32::<false>(&ended), "{s}");
            for signed in [false, true] {
                let values =
                    |r: Option<Result<(Value, usize)>>| r.map(|r| r.map_err(|e| e.to_string()));
                assert_eq!(
                    values(short_value::<true>(&bare, signed)),
                    values(short_value::<false>(&ended, signed)),
                    "{s}"
                );
            }
            for f32 in [false, true] {
                let outcome = |r: Result<Parsed>| match r {
                    Ok(Parsed::Done(n, len)) => Ok(Some((n, len))),
                    Ok(Parsed::NeedMore) => Ok(None),
                    Err(e) => Err(e.to_string()),
                };
                assert_eq!(
                    outcome(parse(&bare, true, f32)),
                    outcome(parse_general(&bare, true, f32)),
                    "{s}"
                );
            }
            taken += usize::from(scan_short::<true, true>(&bare).is_some());
        }
        assert!(taken > 40_000, "{taken}");
    }

    /// Integers of 19 to 21 digits around 10^19 and `u64::MAX`, signed or
    /// not, ended or not, against the general parser: what `short_int`
    /// and `short_value` take they read as it does, and they take every
    /// `u64` of 20 digits.
    #[test]
    fn twenty_digit_integers_agree_with_the_general_parser() {
        let mut bodies: Vec<String> = [
            "9999999999999999999",
            "10000000000000000000",
            "10000000000000000001",
            "12345678901234567890",
            "18446744073709551614",
            "18446744073709551615",
            "18446744073709551616",
            "18446744073709551619",
            "18446744073709551700",
            "19999999999999999999",
            "20000000000000000000",
            "99999999999999999999",
            "01234567890123456789",
            "100000000000000000000",
            "1844674407370955161a",
        ]
        .map(String::from)
        .to_vec();
        // A byte next to the digits ('/' or ':') in each place.
        for at in 0..20 {
            for c in ['/', ':'] {
                let mut body: Vec<char> = "12345678901234567890".chars().collect();
                body[at] = c;
                bodies.push(body.into_iter().collect());
            }
        }
        let mut rng = SplitMix(0x20d1_6175);
        for _ in 0..2000 {
            bodies.push(rng.next().to_string());
        }
        let mut taken = 0;
        for body in &bodies {
            for sign in ["", "-"] {
                for end in ["", ",", "]", " ", "}", ".5", "e3", "E-1", "0"] {
                    let text = format!("{sign}{body}{end}");
                    let b = text.as_bytes();
                    let general = parse_general(b, false, false);
                    let fits = sign.is_empty()
                        && body.len() == 20
                        && body.parse::<u64>().is_ok()
                        && !body.starts_with('0')
                        && matches!(end, "," | "]" | " " | "}");
                    match short_int(b) {
                        Some((neg, v, len)) => {
                            let Ok(Parsed::Done(n, glen)) = general else {
                                panic!("{text}: short_int took what the general parser does not");
                            };
                            assert_eq!(len, glen, "{text}");
                            let n = n.to_i128().ok();
                            let v = if neg { -i128::from(v) } else { i128::from(v) };
                            assert_eq!(n, Some(v), "{text}");
                            if body.len() == 20 {
                                taken += 1;
                            }
                        }
                        None => assert!(
                            !fits,
                            "{text}: a u64 of 20 digits left to the general parser"
                        ),
                    }
                    for signed in [false, true] {
                        if let Some(fast) = short_value::<false>(b, signed) {
                            let (v, len) = fast.unwrap();
                            let Ok(Parsed::Done(n, glen)) = parse_general(b, false, false) else {
                                panic!("{text}: short_value took what the general parser does not");
                            };
                            assert_eq!(len, glen, "{text}");
                            if len == 20 && sign.is_empty() {
                                assert_eq!(v, Value::Uint(n.to_u64().unwrap()), "{text}");
                            }
                        } else {
                            assert!(!fits, "{text}: short_value left a u64 of 20 digits");
                        }
                    }
                }
            }
        }
        assert!(taken > 3000, "{taken}");
    }

    /// Integers at every length around the inline case's limits, with and
    /// without a sign, against the short scan: what the inline case takes
    /// it reads the same, and it leaves exactly what it must to the rest
    /// (fractions, exponents, more than 19 digits, a leading zero's next
    /// digit, a number that reaches the buffer's end, whitespace first).
    #[test]
    fn plain_integers_agree_with_the_short_scan() {
        for digits in 1..=24 {
            let body: String = (0..digits)
                .map(|i| char::from(b'1' + (i % 9) as u8))
                .collect();
            for sign in ["", "-"] {
                for end in ["", ",", "]", ".5", "e3", "E3", " "] {
                    let text = format!("{sign}{body}{end}");
                    let b = text.as_bytes();
                    let plain = plain_int(b);
                    let takes = digits <= 19 && matches!(end, "," | "]" | " ");
                    assert_eq!(plain.is_some(), takes, "{text}");
                    if let Some(p) = plain {
                        let s = scan_short::<false, false>(b).unwrap();
                        assert_eq!(p, (s.neg, s.mant, s.len), "{text}");
                        assert_eq!(p.1.to_string(), body, "{text}");
                    }
                }
            }
        }
        // To the end of the input: the end ends the integer.
        for (text, want) in [
            (&b"0"[..], Some((false, 0, 1))),
            (b"-0", Some((true, 0, 2))),
            (b"7", Some((false, 7, 1))),
            (b"-12345", Some((true, 12345, 6))),
            (
                b"9999999999999999999",
                Some((false, 9_999_999_999_999_999_999, 19)),
            ),
            (
                b"12345678901234567890",
                Some((false, 12_345_678_901_234_567_890, 20)),
            ),
            (b"18446744073709551615", Some((false, u64::MAX, 20))),
            (b"18446744073709551616", None),
            (b"123456789012345678901", None),
            (b"1234567890123456789.0", None),
            (b"01", Some((false, 0, 1))),
            (b"1.", None),
            (b"1e", None),
            (b"-", None),
            (b"", None),
            (b" 1", None),
        ] {
            assert_eq!(
                plain_int_to_end(text),
                want,
                "{:?}",
                String::from_utf8_lossy(text)
            );
            if text.is_empty() {
                continue;
            }
            // With a byte after it, as the short scan reads it.
            let ended = [text, b","].concat();
            assert_eq!(
                short_int(&ended),
                want,
                "{:?}",
                String::from_utf8_lossy(text)
            );
        }
        assert_eq!(plain_int(b"0,"), Some((false, 0, 1)));
        assert_eq!(plain_int(b"-0]"), Some((true, 0, 2)));
        // `01` is `0`, then a `1` that the caller rejects.
        assert_eq!(plain_int(b"01,"), Some((false, 0, 1)));
        assert_eq!(plain_int(b"0.1,"), None);
        for other in [&b" 1,"[..], b"-,", b"-", b"", b"+1,", b"a", b"\"-1\""] {
            assert_eq!(
                plain_int(other),
                None,
                "{:?}",
                String::from_utf8_lossy(other)
            );
        }
    }

    /// The skipper's grammar accepts exactly the numbers the parser reads
    /// (or rejects only as out of range), ends them at the same byte, and
    /// gives the same answer however the bytes are split across buffers.
    #[test]
    fn grammar_agrees_with_the_parser() {
        let mut rng = SplitMix(17);
        let alphabet = b"0123456789.eE+-";
        let (mut valid, mut invalid) = (0, 0);
        for _ in 0..200_000u32 {
            let len = 1 + (rng.next() % 12) as usize;
            let mut text: Vec<u8> = (0..len)
                .map(|_| alphabet[(rng.next() % alphabet.len() as u64) as usize])
                .collect();
            text.push(b',');
            let s = String::from_utf8_lossy(&text).into_owned();
            let (taken, state, ended) = Grammar::Start.scan(&text);
            assert!(ended, "{s}");
            assert_eq!(
                Grammar::whole(&text),
                state.complete().then_some(taken),
                "{s}"
            );
            assert_eq!(Grammar::whole(&text[..taken]), None, "{s}");
            match parse_general(&text, false, false) {
                Ok(Parsed::Done(_, len)) => {
                    assert!(state.complete(), "{s}");
                    assert_eq!(taken, len, "{s}");
                    valid += 1;
                }
                Err(e) if matches!(e.kind(), codec_core::ErrorKind::OutOfRange { .. }) => {
                    assert!(state.complete(), "{s}")
                }
                Err(_) => {
                    assert!(!state.complete(), "{s}: {state:?} after {taken}");
                    invalid += 1;
                }
                Ok(Parsed::NeedMore) => panic!("{s}: the comma ends it"),
            }
            let split = (rng.next() % text.len() as u64) as usize;
            let (a, mid, a_ended) = Grammar::Start.scan(&text[..split]);
            if a_ended {
                assert_eq!((a, mid), (taken, state), "{s} split at {split}");
            } else {
                assert_eq!(a, split, "{s}");
                let (b, end, b_ended) = mid.scan(&text[split..]);
                assert!(b_ended, "{s}");
                assert_eq!((a + b, end), (taken, state), "{s} split at {split}");
            }
        }
        assert!(valid > 10_000 && invalid > 10_000, "{valid} {invalid}");
    }

    fn layout_f64(shortest: &str, v: f64) -> String {
        let mut out = [0u8; 48];
        let n = format_float(shortest, v.abs(), F64_INT_LIMIT, &mut out);
        String::from_utf8(out[..n].to_vec()).unwrap()
    }

    #[test]
    fn zmij_and_ryu_give_the_same_layout() {
        let mut rng = SplitMix(7);
        let mut specials = vec![
            0.0,
            -0.0,
            1e-6,
            1e21,
            9.999999999999999e20,
            1e16,
            5e-324,
            f64::MAX,
        ];
        specials.extend((0..=60).map(|k| 2f64.powi(k)));
        specials.extend((-330..=310).map(|k| 10f64.powi(k)));
        let randoms = (0..200_000).map(|i| {
            let bits = rng.next();
            match i % 4 {
                // Any finite bit pattern.
                0 => f64::from_bits(bits),
                // Short decimals, as in typical documents.
                1 => (bits % 100_000_000) as f64 / 10f64.powi((bits >> 40) as i32 % 12),
                // Integers around 2^52..2^53.
                2 => ((1u64 << 52) + (bits % (1 << 52))) as f64,
                _ => f64::from_bits(bits) * 1e-300,
            }
        });
        for v in specials
            .into_iter()
            .chain(randoms)
            .filter(|v| v.is_finite())
        {
            let a = layout_f64(zmij::Buffer::new().format_finite(v), v);
            let b = layout_f64(ryu::Buffer::new().format_finite(v), v);
            assert_eq!(a, b, "{v:e}");
            assert_eq!(a.parse::<f64>().unwrap().to_bits(), v.to_bits(), "{a}");
            if v != 0.0 && (1e-6..1e21).contains(&v.abs()) {
                assert!(!a.contains('e'), "{a}");
            } else if v != 0.0 {
                assert!(a.contains("e-") || a.contains("e+"), "{a}");
            }
        }
        for _ in 0..100_000 {
            let v = f32::from_bits(rng.next() as u32);
            if !v.is_finite() {
                continue;
            }
            let mut out = [0u8; 48];
            let n = format_float(
                zmij::Buffer::new().format_finite(v),
                f32_magnitude(v),
                F32_INT_LIMIT,
                &mut out,
            );
            let mut out2 = [0u8; 48];
            let n2 = format_float(
                ryu::Buffer::new().format_finite(v),
                f32_magnitude(v),
                F32_INT_LIMIT,
                &mut out2,
            );
            assert_eq!(out[..n], out2[..n2], "{v:e}");
            let s = std::str::from_utf8(&out[..n]).unwrap();
            assert_eq!(s.parse::<f32>().unwrap().to_bits(), v.to_bits(), "{s}");
        }
    }

    #[test]
    fn plain_window_has_no_exponent() {
        let mut rng = SplitMix(11);
        let (lo, hi) = (PLAIN_WINDOW.start, PLAIN_WINDOW.end);
        // The edges, the values next to them, and random values inside.
        let mut f64s = vec![lo, hi.next_down(), lo.next_up(), 1.0, 123.456];
        f64s.extend((0..100_000).map(|_| {
            let t = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
            lo * (hi / lo).powf(t)
        }));
        for v in f64s.into_iter().filter(|v| PLAIN_WINDOW.contains(v)) {
            for v in [v, -v] {
                let z = zmij::Buffer::new().format_finite(v).to_owned();
                let r = ryu::Buffer::new().format_finite(v).to_owned();
                assert!(!z.contains('e') && !r.contains('e'), "{z} {r}");
                let f = v as f32;
                if PLAIN_WINDOW.contains(&(f as f64).abs()) {
                    let z = zmij::Buffer::new().format_finite(f).to_owned();
                    let r = ryu::Buffer::new().format_finite(f).to_owned();
                    assert!(!z.contains('e') && !r.contains('e'), "{z} {r}");
                }
            }
        }
    }

    /// Our parse of `s` as a whole JSON number, as f64 and f32.
    fn ours(s: &str) -> (Result<f64>, Result<f32>) {
        let one = |f32| match parse(s.as_bytes(), true, f32) {
            Ok(Parsed::Done(n, len)) => {
                assert_eq!(len, s.len(), "{s}");
                Ok(n)
            }
            Ok(Parsed::NeedMore) => panic!("need more: {s}"),
            Err(e) => Err(e),
        };
        (one(false).map(Num::to_f64), one(true).map(Num::to_f32))
    }

    /// Checks `s` against the standard library (correctly rounded), for
    /// f64 and f32; out-of-range values must be errors.
    fn check_float(s: &str) {
        let (a, b) = ours(s);
        let want64: f64 = s.parse().unwrap();
        let want32: f32 = s.parse().unwrap();
        if want64.is_finite() {
            assert_eq!(a.unwrap().to_bits(), want64.to_bits(), "f64 {s}");
        } else {
            assert!(a.is_err(), "f64 {s}");
        }
        if want32.is_finite() {
            assert_eq!(b.unwrap().to_bits(), want32.to_bits(), "f32 {s}");
        } else {
            assert!(b.is_err() || b.unwrap().is_infinite(), "f32 {s}");
        }
        // The short path, where it answers, answers the same (the number
        // must end inside the buffer: a space follows).
        let padded = format!("{s} ");
        if let Some((v, len)) = short_f32::<false>(padded.as_bytes()) {
            assert_eq!(len, s.len(), "{s}");
            assert_eq!(v.to_bits(), want32.to_bits(), "short f32 {s}");
        }
    }

    /// Texts of at most 16 digits next to the midpoints between
    /// neighbouring `f32`s: the `f64` of many is the midpoint itself, where
    /// narrowing it would round a second time, toward the even neighbour.
    /// The fast path must leave those, and every answer must be the
    /// correctly rounded one.
    #[test]
    fn f32_fast_path_leaves_double_rounding_midpoints() {
        let mut rng = SplitMix(0xf32);
        let (mut left, mut wrong_if_narrowed) = (0, 0);
        for _ in 0..100_000 {
            // f32s from about 1e-7 to 1e7: with 15 or 16 digits, the
            // exponent stays inside the fast path's bounds.
            let v = f32::from_bits(0x3400_0000 + (rng.next() % 0x1700_0000) as u32);
            let next = f32::from_bits(v.to_bits() + 1);
            let mid = (f64::from(v) + f64::from(next)) / 2.0;
            for digits in [14, 15] {
                let text = format!("{mid:.digits$e}");
                check_float(&text);
                let Some(s) = scan_short::<true, false>(format!("{text} ").as_bytes()) else {
                    continue;
                };
                let in_bounds = s.mant <= 1 << 53 && (-22..=22).contains(&s.exp10);
                if in_bounds && float32_fast(s.mant, s.exp10).is_none() {
                    left += 1;
                    let want: f32 = text.parse().unwrap();
                    wrong_if_narrowed += usize::from((mid as f32) != want);
                }
            }
        }
        assert!(left > 1000, "midpoints left to the exact path: {left}");
        assert!(
            wrong_if_narrowed > 100,
            "double roundings avoided: {wrong_if_narrowed}"
        );
    }

    #[test]
    fn integers_round_to_f32_once() {
        // 2^53 + 2^29 + 1: through f64 it becomes 2^53 + 2^29, an f32
        // midpoint, which rounds to even (2^53); rounded once it is 2^53 + 2^30.
        for s in ["9007199791611905", "-9007199791611905"] {
            check_float(s);
        }
        let (_, v) = ours("9007199791611905");
        assert_eq!(v.unwrap(), 9007200328482816.0);
    }

    #[test]
    fn floats_are_correctly_rounded_on_hard_cases() {
        for s in [
            "9007199254740993",
            "9007199254740993.0",
            "9007199254740992.5",
            "9007199254740994.9999999999999999999999",
            "9007199254740993.0000000000000000000001",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "-1.7976931348623157e308",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "2.2250738585072011e-308",
            "2.2250738585072012e-308",
            "2.2250738585072014e-308",
            "1e-323",
            "5e-324",
            "3e-324",
            "2e-324",
            "1e-400",
            "-1e-400",
            "0e999999",
            "1e308",
            "1e309",
            "123456789012345678901234567890e-30",
            "0.1",
            "0.30000000000000004",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
            "1.00000000000000011102230246251565404236316680908203126",
            "7.038531e-26",
            "3.4028235e38",
            "3.4028236e38",
            "1.4e-45",
            "7e-46",
            "8e-46",
            "16777217",
            "16777217.0",
            "33554435e-1",
            "2.98023223876953125E-8",
            "4.35679e-39",
            "18446744073709551615e-5",
            "18446744073709551616e-5",
            "99999999999999999999999e-23",
            "0.000000000000000000000000000000000000000000001",
            "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999999999999999999999999999999999999999999999999999999999999999999999",
        ] {
            check_float(s);
        }
    }

    #[test]
    fn floats_are_correctly_rounded_on_random_digit_strings() {
        let mut rng = SplitMix(0x5eed);
        let mut s = String::new();
        for i in 0..200_000 {
            s.clear();
            let r = rng.next();
            if r & 1 == 1 {
                s.push('-');
            }
            // 1..=25 significant digits, sometimes with leading zeros or a point.
            let nd = 1 + (rng.next() % 25) as usize;
            let point = (rng.next() % (nd as u64 + 1)) as usize;
            let mut digits = String::new();
            for k in 0..nd {
                let d = (rng.next() % 10) as u8;
                // Runs of 9s and 0s make halfway and carry cases likely.
                let d = match (i % 3, k > 0) {
                    (1, true) => [0, 9, d][(rng.next() % 3) as usize],
                    _ => d,
                };
                digits.push((b'0' + d) as char);
            }
            let digits = digits.trim_start_matches('0');
            let digits = if digits.is_empty() { "0" } else { digits };
            let p = point.min(digits.len().saturating_sub(1));
            if p > 0 && p < digits.len() {
                s.push_str(&digits[..p]);
                s.push('.');
                s.push_str(&digits[p..]);
            } else {
                s.push_str(digits);
            }
            if !rng.next().is_multiple_of(4) {
                let e = (rng.next() % 700) as i32 - 350;
                s.push_str(&format!("e{e}"));
            }
            check_float(&s);
        }
        // Exact halfway points between neighbouring doubles, and their neighbours.
        for _ in 0..50_000 {
            let v = f64::from_bits(rng.next() >> 2);
            if !v.is_finite() || v == 0.0 {
                continue;
            }
            let next = f64::from_bits(v.to_bits() + 1);
            // The midpoint has an exact (long) decimal form; 40 digits
            // nearly always decides the rounding the hard way.
            let mid = format!("{:.40e}", v / 2.0 + next / 2.0);
            check_float(&mid);
            check_float(&format!("{:e}", v));
            check_float(&format!("{:.17e}", v));
        }
    }

    #[test]
    fn floats_of_canada_json_are_correctly_rounded() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/canada.json");
        let text = std::fs::read_to_string(path).unwrap();
        let mut n = 0;
        for tok in text.split(|c: char| !matches!(c, '0'..='9' | '-' | '+' | '.' | 'e' | 'E')) {
            if !tok.is_empty() && tok.parse::<f64>().is_ok() {
                check_float(tok);
                n += 1;
            }
        }
        assert!(n > 100_000, "{n} numbers");
    }

    fn num(s: &str) -> Num {
        match parse(s.as_bytes(), true, false).unwrap() {
            Parsed::Done(n, len) => {
                assert_eq!(len, s.len());
                n
            }
            Parsed::NeedMore => panic!("need more"),
        }
    }

    #[test]
    fn parses_numbers() {
        assert_eq!(num("0"), Num::U(0));
        assert_eq!(num("-0"), Num::I(0));
        assert_eq!(num("18446744073709551615"), Num::U(u64::MAX));
        assert_eq!(num("-9223372036854775808"), Num::I(i64::MIN));
        assert_eq!(
            num("18446744073709551616").exact_int(),
            Some((false, 18446744073709551616))
        );
        assert_eq!(num("-0").exact_int(), Some((true, 0)));
        assert_eq!(num("-0").to_f64().to_bits(), (-0.0f64).to_bits());
        assert_eq!(num("-0").to_f32().to_bits(), (-0.0f32).to_bits());
        assert_eq!(
            num("-9223372036854775809").kind(false, false),
            Kind::Float64
        );
        assert_eq!(num("-9223372036854775809").kind(false, true), Kind::BigInt);
        assert_eq!(num("18446744073709551616").kind(false, true), Kind::BigInt);
        assert_eq!(num("18446744073709551616").kind(true, true), Kind::Float64);
        assert_eq!(num("1e30").kind(false, true), Kind::Float64);
        assert_eq!(num("18446744073709551615").kind(false, true), Kind::Uint);
        assert_eq!(num("1.5e1").to_u64().unwrap(), 15);
        assert!(num("1.5").to_u64().is_err());
        assert_eq!(num("1E2").to_i64().unwrap(), 100);
        assert_eq!(num("-1.000e3").to_i64().unwrap(), -1000);
        assert_eq!(num("0.1").to_f64(), 0.1);
        assert_eq!(num("-0.0").to_f64().to_bits(), (-0.0f64).to_bits());
        assert_eq!(
            num("2.2250738585072011e-308").to_f64().to_bits(),
            0x000f_ffff_ffff_ffff
        );
        assert_eq!(num("1e-400").to_f64(), 0.0);
        assert!(parse(b"1e400", true, false).is_err());
        for bad in ["-", "01x", "1.", ".5", "1e", "1e+", "-a", "+1"] {
            let r = parse(bad.as_bytes(), true, false);
            let ok_full = matches!(r, Ok(Parsed::Done(_, l)) if l == bad.len());
            assert!(!ok_full, "{bad}");
        }
        assert!(matches!(parse(b"12", false, false), Ok(Parsed::NeedMore)));
        assert!(matches!(parse(b"1.", false, false), Ok(Parsed::NeedMore)));
        assert!(matches!(
            parse(b"12,", false, false),
            Ok(Parsed::Done(Num::U(12), 2))
        ));
    }
}
