//! The dynamic [`Value`] of a scalar, built the way the shared driver
//! builds it from [`DecodeFormat::peek_kind`] and the matching `read_*`.
//!
//! These are for format drivers that implement
//! [`DecodeFormat::read_scalar_value`]: each says what the generic path
//! gives for one kind of item under the decoding options, so that a driver
//! reading the item's bytes itself gives the same `Value`. Where the
//! generic path would fail (a negative integer below `i64::MIN`, text that
//! is not UTF-8, a string longer than `max_str_len`) they return `None`,
//! and the driver leaves the item to that path, which gives the error.
//!
//! ```
//! use codec_core::{DecodeOptions, Value, scalar};
//!
//! let opts = DecodeOptions::default();
//! assert_eq!(scalar::uint(7, &opts), Value::Uint(7));
//! assert_eq!(scalar::neg(7, &opts), Some(Value::Int(-7)));
//! assert_eq!(scalar::neg(1 << 63, &opts), Some(Value::Int(i64::MIN)));
//! assert_eq!(scalar::neg((1 << 63) + 1, &opts), None);
//! assert_eq!(scalar::string(b"hi", true, &opts), Some(Value::from("hi")));
//! assert_eq!(scalar::string(b"\xff", true, &opts), None);
//! ```
//!
//! [`DecodeFormat::peek_kind`]: crate::DecodeFormat::peek_kind
//! [`DecodeFormat::read_scalar_value`]: crate::DecodeFormat::read_scalar_value

use crate::{DecodeOptions, Text, Value};

/// An item of [`Kind::Uint`](crate::Kind::Uint): a float with
/// `prefer_float`, a signed integer with `signed_integer` where it fits,
/// else unsigned.
#[inline(always)]
pub fn uint(v: u64, opts: &DecodeOptions) -> Value {
    if opts.prefer_float {
        return Value::F64(v as f64);
    }
    match i64::try_from(v) {
        Ok(i) if opts.signed_integer => Value::Int(i),
        _ => Value::Uint(v),
    }
}

/// An item of [`Kind::Int`](crate::Kind::Int): a float with
/// `prefer_float`, else signed.
#[inline(always)]
pub fn int(v: i64, opts: &DecodeOptions) -> Value {
    if opts.prefer_float {
        Value::F64(v as f64)
    } else {
        Value::Int(v)
    }
}

/// An item of [`Kind::Int`](crate::Kind::Int) written as the magnitude
/// `m` of a negative number (`-m`): a float with `prefer_float`, else
/// signed; `None` below `i64::MIN`.
#[inline(always)]
pub fn neg(m: u64, opts: &DecodeOptions) -> Option<Value> {
    if opts.prefer_float {
        return Some(Value::F64(-(m as f64)));
    }
    (m <= 1 << 63).then(|| Value::Int(0i64.wrapping_sub(m as i64)))
}

/// A string item's content: text (`text`, [`Kind::Str`](crate::Kind::Str))
/// or bytes ([`Kind::Bytes`](crate::Kind::Bytes)); `None` when it is
/// longer than `max_str_len` or is text that is not UTF-8.
#[inline(always)]
pub fn string(body: &[u8], text: bool, opts: &DecodeOptions) -> Option<Value> {
    if body.len() > opts.max_str_len {
        return None;
    }
    if !text {
        return Some(Value::Bytes(body.to_vec()));
    }
    crate::str_from_utf8(body)
        .ok()
        .map(|s| Value::Str(Text::from(s)))
}

/// [`string`] for a string item whose content is `len` bytes from `head`
/// bytes into `buf` (the item's header before it), with the bytes the
/// whole item takes; `None` also when the content is not all in `buf`.
#[inline(always)]
pub fn string_in(
    buf: &[u8],
    head: usize,
    len: usize,
    text: bool,
    opts: &DecodeOptions,
) -> Option<(Value, usize)> {
    let end = head.checked_add(len)?;
    Some((string(buf.get(head..end)?, text, opts)?, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(prefer_float: bool, signed_integer: bool) -> DecodeOptions {
        DecodeOptions {
            prefer_float,
            signed_integer,
            ..DecodeOptions::default()
        }
    }

    #[test]
    fn integers_follow_the_options() {
        let plain = opts(false, false);
        assert_eq!(uint(5, &plain), Value::Uint(5));
        assert_eq!(uint(5, &opts(false, true)), Value::Int(5));
        assert_eq!(uint(u64::MAX, &opts(false, true)), Value::Uint(u64::MAX));
        assert_eq!(uint(5, &opts(true, true)), Value::F64(5.0));
        assert_eq!(int(-5, &plain), Value::Int(-5));
        assert_eq!(int(-5, &opts(true, false)), Value::F64(-5.0));
        assert_eq!(neg(0, &plain), Some(Value::Int(0)));
        assert_eq!(neg(u64::MAX, &plain), None);
        assert_eq!(
            neg(u64::MAX, &opts(true, false)),
            Some(Value::F64(-(u64::MAX as f64)))
        );
    }

    #[test]
    fn strings_within_the_limit() {
        let short = DecodeOptions {
            max_str_len: 2,
            ..DecodeOptions::default()
        };
        assert_eq!(
            string(b"ab", false, &short),
            Some(Value::Bytes(b"ab".to_vec()))
        );
        assert_eq!(string(b"abc", false, &short), None);
        assert_eq!(string(b"abc", true, &short), None);
        assert_eq!(string("é".as_bytes(), true, &short), Some(Value::from("é")));
        assert_eq!(string(b"\xc3", true, &short), None);
        let item = b"\x02ab!";
        assert_eq!(
            string_in(item, 1, 2, true, &short),
            Some((Value::from("ab"), 3))
        );
        assert_eq!(string_in(item, 1, 4, true, &short), None);
        assert_eq!(string_in(item, 1, usize::MAX, true, &short), None);
    }
}

/// A number as a binary format with a sign-and-magnitude integer and a
/// float item (Binc, Simple) reads it, and the typed reads' conversions
/// from it: an integer target takes an integer in its range or a float
/// with no fraction inside it (as ugorji decodes into Go's integer
/// types); anything else is [`ErrorKind::OutOfRange`](crate::ErrorKind::OutOfRange).
///
/// ```
/// use codec_core::scalar::Number;
///
/// assert_eq!(Number::Neg(1 << 63).to_i64().unwrap(), i64::MIN);
/// assert!(Number::Neg((1 << 63) + 1).to_i64().is_err());
/// assert_eq!(Number::Neg(0).to_u64().unwrap(), 0);
/// assert!(Number::Neg(1).to_u64().is_err());
/// assert_eq!(Number::F(3.0).to_u64().unwrap(), 3);
/// assert!(Number::F(3.5).to_i64().is_err());
/// assert_eq!(Number::Neg(2).to_f64(), -2.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// A non-negative integer.
    U(u64),
    /// A negative integer, by magnitude (a magnitude of zero is zero).
    Neg(u64),
    /// A float.
    F(f64),
}

impl Number {
    /// As an `i64`: an integer in range, or a float with no fraction in range.
    #[inline]
    pub fn to_i64(self) -> crate::Result<i64> {
        use crate::Error;
        match self {
            Number::U(u) => i64::try_from(u).map_err(|_| Error::out_of_range("i64", u)),
            Number::Neg(m) if m <= 1 << 63 => Ok(0i64.wrapping_sub(m as i64)),
            Number::Neg(m) => Err(Error::out_of_range("i64", format_args!("-{m}"))),
            Number::F(f) => {
                if f.fract() == 0.0
                    && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f)
                {
                    Ok(f as i64)
                } else {
                    Err(Error::out_of_range("i64", format_args!("{f:?}")))
                }
            }
        }
    }

    /// As a `u64`, by the rules of [`Number::to_i64`].
    #[inline]
    pub fn to_u64(self) -> crate::Result<u64> {
        use crate::Error;
        match self {
            Number::U(u) | Number::Neg(u @ 0) => Ok(u),
            Number::Neg(m) => Err(Error::out_of_range("u64", format_args!("-{m}"))),
            Number::F(f) => {
                if f.fract() == 0.0 && (0.0..1.844_674_407_370_955_2e19).contains(&f) {
                    Ok(f as u64)
                } else {
                    Err(Error::out_of_range("u64", format_args!("{f:?}")))
                }
            }
        }
    }

    /// As an `f64` (an integer rounded to the nearest).
    #[inline]
    pub fn to_f64(self) -> f64 {
        match self {
            Number::U(u) => u as f64,
            Number::Neg(m) => -(m as f64),
            Number::F(f) => f,
        }
    }
}
