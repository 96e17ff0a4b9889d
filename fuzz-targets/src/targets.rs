//! The fuzz targets. Each takes arbitrary bytes and panics only when the
//! codec breaks one of its promises:
//!
//! - decoding never panics, never hangs, and allocates no more than the input
//!   could justify (the fuzzer's `-malloc_limit_mb` and `-timeout` check those);
//! - the streaming decoder (`io::Read`, delivering one byte at a time, with
//!   `Interrupted` errors) gives exactly the slice decoder's result or error;
//! - a decoded value re-encodes, decodes again to an equal value (up to the
//!   documented lossy conversions in [`normalize`]) and re-encodes to the same bytes;
//! - with small limits, a value that decodes respects every limit, and a value
//!   that breaks one is an error naming it;
//! - a decoder that stops early in each container ([`Partial`]) reads what
//!   a whole decode reads, up to where it stops: `array_end` and `map_end`
//!   skip the rest of any input that decodes whole;
//! - the map modes read what the default mode reads: `LastWins` and `Sorted`
//!   give its maps deduplicated (and sorted), `RejectDuplicates` gives it
//!   unchanged or, where a map repeats a key, an error at that key;
//! - a `Raw` captured after a peek at the item's kind holds what a capture
//!   without the peek holds ([`captures`]).

use crate::stream::{Mode, Trickle};
use crate::types::{Borrowed, Partial, PeekedRaw, Record, Row, Shape, Tree};
use codec::{
    AnyHandle, BincHandle, CborHandle, Decode, DecodeOwned, Document, Encode, Error, ErrorKind,
    JsonHandle, MsgpackHandle, Result, SimpleHandle, Value, ValueMaps,
};
use std::fmt::Debug;

/// The five handles with default options, in a fixed order.
pub fn handles() -> [AnyHandle; 5] {
    [
        AnyHandle::Msgpack(MsgpackHandle::default()),
        AnyHandle::Cbor(CborHandle::default()),
        AnyHandle::Binc(BincHandle::default()),
        AnyHandle::Simple(SimpleHandle::default()),
        AnyHandle::Json(JsonHandle::default()),
    ]
}

/// Every target for one handle: the entry point of the per-handle fuzz binaries.
pub fn all(h: &AnyHandle, data: &[u8]) {
    value(h, data);
    typed(h, data);
    limits(h, data);
    map_modes(h, data);
    partial(h, data);
    captures(h, data);
}

/// MessagePack: every target.
pub fn msgpack(data: &[u8]) {
    all(&AnyHandle::Msgpack(MsgpackHandle::default()), data);
}

/// CBOR: every target.
pub fn cbor(data: &[u8]) {
    all(&AnyHandle::Cbor(CborHandle::default()), data);
}

/// Binc: every target.
pub fn binc(data: &[u8]) {
    all(&AnyHandle::Binc(BincHandle::default()), data);
}

/// Simple: every target.
pub fn simple(data: &[u8]) {
    all(&AnyHandle::Simple(SimpleHandle::default()), data);
}

/// JSON: every target, the whitespace, skip, serde_json and exact-integer targets.
pub fn json(data: &[u8]) {
    all(&AnyHandle::Json(JsonHandle::default()), data);
    json_whitespace(data);
    json_skip(data);
    json_serde(data);
    json_exact(data);
}

/// JSON with `exact_integers`: the `value` target (slice and readers agree,
/// `Document` agrees, round trip), and against the default handle the same
/// value but for integers beyond 64 bits, `BigInt` here where the default
/// gives the nearest `F64`, or an out-of-range error beyond `i128`.
pub fn json_exact(data: &[u8]) {
    let h = AnyHandle::Json(JsonHandle::default().exact_integers(true));
    value(&h, data);
    let exact = h.from_slice::<Value>(data);
    let plain = AnyHandle::Json(JsonHandle::default()).from_slice::<Value>(data);
    match (&exact, &plain) {
        (Ok(e), Ok(p)) => assert!(
            rounded(e) == *p,
            "json: exact integers {e:?} but by default {p:?}\n input: {}",
            hex(data)
        ),
        (Err(e), Ok(_)) => assert!(
            matches!(e.kind(), ErrorKind::OutOfRange { .. }),
            "json: exact integers refuse with {e} what the default reads\n input: {}",
            hex(data)
        ),
        (Ok(_), Err(e)) => panic!(
            "json: exact integers read what the default refuses with {e}\n input: {}",
            hex(data)
        ),
        (Err(_), Err(_)) => {}
    }
}

/// `v` with each `BigInt` as the nearest `F64`.
fn rounded(v: &Value) -> Value {
    match v {
        Value::BigInt(n) => Value::F64(*n as f64),
        Value::Array(a) => Value::Array(a.iter().map(rounded).collect()),
        Value::Map(m) => Value::Map(m.iter().map(|(k, v)| (rounded(k), rounded(v))).collect()),
        other => other.clone(),
    }
}

/// JSON accepts exactly the texts serde_json (another strict RFC 8259
/// parser) accepts, but for nesting between serde_json's limit (128) and
/// ours (256).
pub fn json_serde(data: &[u8]) {
    let theirs = match serde_json::from_slice::<serde_json::Value>(data) {
        Ok(_) => true,
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => return,
        Err(_) => false,
    };
    let ours = AnyHandle::Json(JsonHandle::default()).from_slice::<Value>(data);
    assert_eq!(
        ours.is_ok(),
        theirs,
        "json: {:?} where serde_json {}\n input: {}",
        ours.as_ref().err(),
        if theirs { "accepts" } else { "refuses" },
        hex(data)
    );
}

/// JSON's skipper (behind unknown fields, `Raw` and `RawRef`) accepts a
/// document exactly when decoding it into `Value` does, except a number out
/// of `f64`'s range, which it checks by grammar only; `Raw` from a reader
/// (in any chunking) captures what `RawRef` borrows from the slice, and the
/// captured text decodes to the document's value.
pub fn json_skip(data: &[u8]) {
    let h = AnyHandle::Json(JsonHandle::default());
    let decoded = h.from_slice::<Value>(data);
    let captured = h.from_slice::<codec::RawRef<'_>>(data);
    let agree = match (&decoded, &captured) {
        (Ok(_), Ok(_)) | (Err(_), Err(_)) => true,
        (Err(e), Ok(_)) => matches!(e.kind(), ErrorKind::OutOfRange { .. }),
        (Ok(_), Err(_)) => false,
    };
    assert!(
        agree,
        "json: decode and skip disagree: {:?} vs {:?}\n input: {}",
        decoded.as_ref().err(),
        captured.as_ref().err(),
        hex(data)
    );
    if data.len() <= 64 * 1024 {
        for mode in [Mode::Interrupted, Mode::Chunks, Mode::Fill] {
            let owned = h.from_reader::<codec::Raw, _>(Trickle::new(data, mode));
            match (&captured, &owned) {
                (Ok(a), Ok(b)) => assert_eq!(a.as_bytes(), b.as_bytes(), "input: {}", hex(data)),
                (Err(_), Err(_)) => {}
                _ => panic!(
                    "json: RawRef {captured:?} but Raw from a reader {owned:?}\n input: {}",
                    hex(data)
                ),
            }
        }
    }
    if let (Ok(v), Ok(raw)) = (&decoded, &captured) {
        let again: Value = h.from_slice(raw.as_bytes()).unwrap_or_else(|e| {
            panic!(
                "json: captured text does not decode: {e}\n input: {}",
                hex(data)
            )
        });
        assert!(
            same_value(&h, &normalize(&h, v.clone()), &normalize(&h, again)),
            "json: captured text decodes to another value\n input: {}",
            hex(data)
        );
    }
}

/// A `Raw` captured after `peek_kind` is the capture without the peek, of
/// the document (from the slice and from each reader) and of each item of
/// an array: JSON reads a number whole to tell its kind, CBOR looks past
/// tag 55799, and the capture still starts at the item's first byte.
pub fn captures(h: &AnyHandle, data: &[u8]) {
    let captured = h.from_slice::<codec::RawRef<'_>>(data);
    let mut peeked = vec![h.from_slice::<PeekedRaw>(data)];
    if data.len() <= 64 * 1024 {
        for mode in [Mode::Interrupted, Mode::Chunks, Mode::Fill] {
            peeked.push(h.from_reader::<PeekedRaw, _>(Trickle::new(data, mode)));
        }
    }
    for p in peeked {
        same_after_peek(
            h,
            "the document",
            data,
            captured.as_ref().map(|a| vec![a.as_bytes()]),
            p.as_ref().map(|b| vec![b.0.as_bytes()]),
        );
    }
    let items = h.from_slice::<Vec<codec::RawRef<'_>>>(data);
    let peeked_items = h.from_slice::<Vec<PeekedRaw>>(data);
    same_after_peek(
        h,
        "the array's items",
        data,
        items
            .as_ref()
            .map(|a| a.iter().map(|r| r.as_bytes()).collect::<Vec<_>>()),
        peeked_items
            .as_ref()
            .map(|b| b.iter().map(|p| p.0.as_bytes()).collect()),
    );
}

/// The agreement rule for captures after `peek_kind`: the same bytes as
/// without the peek, or both errors; or (only after the peek, which reads
/// a JSON number whole) a number out of `f64`'s range; or, in CBOR, a
/// capture that lacks a run of tags 55799 longer than the peek looks past
/// (48 bytes), which it consumed.
fn same_after_peek<E: Debug>(
    h: &AnyHandle,
    what: &str,
    data: &[u8],
    plain: Result<Vec<&[u8]>, E>,
    peeked: Result<Vec<&[u8]>, &Error>,
) {
    match (&plain, &peeked) {
        (Ok(a), Ok(b)) => {
            let same = a.len() == b.len()
                && a.iter().zip(b).all(|(a, b)| {
                    a == b || (matches!(h, AnyHandle::Cbor(_)) && long_tag_run(a, b))
                });
            assert!(
                same,
                "{}: {what} captured as {a:02x?} but after a peek {b:02x?}\n input: {}",
                h.name(),
                hex(data)
            );
        }
        (Err(_), Err(_)) => {}
        (Ok(_), Err(e)) if matches!(e.kind(), ErrorKind::OutOfRange { .. }) => {}
        _ => panic!(
            "{}: {what} captured as {plain:?} but after a peek {peeked:?}\n input: {}",
            h.name(),
            hex(data)
        ),
    }
}

/// Whether CBOR item `whole` is `tail` after at least 48 bytes of tag
/// 55799 heads.
fn long_tag_run(whole: &[u8], tail: &[u8]) -> bool {
    let Some(mut run) = whole.strip_suffix(tail) else {
        return false;
    };
    let len = run.len();
    while let Some(&ib) = run.first() {
        let n = match ib {
            0xd8 => 1,
            0xd9 => 2,
            0xda => 4,
            0xdb => 8,
            _ => return false,
        };
        let Some(arg) = run.get(1..=n) else {
            return false;
        };
        if arg.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b)) != 55799 {
            return false;
        }
        run = &run[1 + n..];
    }
    len >= 48
}

fn hex(data: &[u8]) -> String {
    let mut s = String::with_capacity(data.len() * 2);
    for b in data.iter().take(4096) {
        s.push_str(&format!("{b:02x}"));
    }
    if data.len() > 4096 {
        s.push_str("...");
    }
    s
}

/// Asserts that two decode results are the same: equal values, or errors of
/// the same kind. (Path and offset may differ: from a slice, a declared
/// length longer than the rest of the input is refused at its header; a
/// stream finds out at the item where the input ends.)
///
/// For JSON only success or failure must agree: its slice and stream
/// scanners may detect different faults of one bad number first (`[-1.0.]`
/// into an enum is a type mismatch from a slice, which sees the number end
/// at the second `.`, and a syntax error from a reader, which gathers the
/// whole run of number bytes first). (`[-1e+9999]` was OutOfRange from a
/// slice and a syntax error from a reader; now OutOfRange from both.)
fn assert_same<T: Debug>(h: &AnyHandle, what: &str, data: &[u8], a: &Result<T>, b: &Result<T>) {
    let same = match (a, b) {
        (Ok(x), Ok(y)) => format!("{x:?}") == format!("{y:?}"),
        (Err(x), Err(y)) => {
            std::mem::discriminant(x.kind()) == std::mem::discriminant(y.kind())
                // From a slice, a declared length past the end of the input
                // is refused at its header; a stream first reads the items
                // that did arrive, and may find another error in them.
                || x.is_eof()
                || matches!(h, AnyHandle::Json(_))
        }
        _ => false,
    };
    assert!(
        same,
        "{} {what}: slice and stream decoders disagree on {}\n slice:  {a:?}\n stream: {b:?}",
        h.name(),
        hex(data)
    );
}

/// Decodes `data` as `T` from a slice and from hostile readers; they must agree.
fn decode_both<T: DecodeOwned + Debug>(h: &AnyHandle, what: &str, data: &[u8]) -> Result<T> {
    let from_slice: Result<T> = h.from_slice(data);
    // Inputs are small in the fuzzer; keep the byte-at-a-time reader to
    // inputs where its cost stays low.
    if data.len() <= 64 * 1024 {
        for mode in [Mode::Interrupted, Mode::Chunks, Mode::Fill] {
            let from_io: Result<T> = h.from_reader(Trickle::new(data, mode));
            assert_same(h, what, data, &from_slice, &from_io);
        }
    }
    from_slice
}

/// Decode arbitrary bytes into [`Value`]; a decoded value must round-trip.
/// A [`Document`] must decode the same content or fail with the same error,
/// and encode to the same bytes.
pub fn value(h: &AnyHandle, data: &[u8]) {
    let v1 = decode_both::<Value>(h, "Value", data);
    document(h, data, &v1);
    let Ok(v1) = v1 else {
        return;
    };
    roundtrip_value(h, data, &v1);
}

/// `data` decoded into a [`Document`] against its decode into a `Value`.
fn document(h: &AnyHandle, data: &[u8], value: &Result<Value>) {
    let doc: Result<Document> = h.from_slice(data);
    match (value, &doc) {
        (Ok(v), Ok(d)) => {
            assert!(
                d == v,
                "{}: Document differs from Value\n input: {}\n value: {v:?}\n document: {d:?}",
                h.name(),
                hex(data)
            );
            let (a, b) = (h.to_vec(v), h.to_vec(d));
            assert!(
                match (&a, &b) {
                    (Ok(a), Ok(b)) => a == b,
                    (Err(a), Err(b)) => a.to_string() == b.to_string(),
                    _ => false,
                },
                "{}: Document encodes differently\n input: {}\n value: {a:?}\n document: {b:?}",
                h.name(),
                hex(data)
            );
        }
        (Err(a), Err(b)) => assert_eq!(
            a.to_string(),
            b.to_string(),
            "{}: Document fails differently on {}",
            h.name(),
            hex(data)
        ),
        _ => panic!(
            "{}: Value {:?} but Document {:?} on {}",
            h.name(),
            value.as_ref().err(),
            doc.as_ref().err(),
            hex(data)
        ),
    }
}

/// Whether encoding a value decoded by `h` may fail, and why (documented).
fn encode_may_fail(h: &AnyHandle, e: &Error) -> bool {
    // A CBOR tag 0/1 holding a date that `Time` cannot hold as the other
    // representation, or a binc/simple time beyond what its encoding holds,
    // decode into `Value::Time` but have no encoding: those are Unsupported.
    let _ = h;
    matches!(e.kind(), ErrorKind::Unsupported(_))
}

fn roundtrip_value(h: &AnyHandle, data: &[u8], v1: &Value) {
    let b1 = match h.to_vec(v1) {
        Ok(b) => b,
        Err(e) => {
            assert!(
                encode_may_fail(h, &e),
                "{}: decoded value does not re-encode: {e}\n input: {}\n value: {v1:?}",
                h.name(),
                hex(data)
            );
            return;
        }
    };
    let v2: Value = h.from_slice(&b1).unwrap_or_else(|e| {
        panic!(
            "{}: re-encoded value does not decode: {e}\n input: {}\n value: {v1:?}\n encoded: {}",
            h.name(),
            hex(data),
            hex(&b1)
        )
    });
    let (n1, n2) = (normalize(h, v1.clone()), normalize(h, v2.clone()));
    assert!(
        same_value(h, &n1, &n2),
        "{}: value changed in a round trip\n input: {}\n encoded: {}\n before: {n1:?}\n after:  {n2:?}",
        h.name(),
        hex(data),
        hex(&b1)
    );
    if matches!(h, AnyHandle::Cbor(_)) && (has_fractional_time(v1) || has_bignum_tag(v1)) {
        // Tag 1 with a float: each trip rounds again (see `same_value`). A
        // bignum kept as a tag is written definite and reads back as an
        // integer, written shorter again (see `normalize`).
        return;
    }
    let b2 = h.to_vec(&v2).unwrap_or_else(|e| {
        panic!(
            "{}: second encode failed: {e}\n input: {}",
            h.name(),
            hex(data)
        )
    });
    assert_eq!(
        b1,
        b2,
        "{}: encoding is not a fixed point\n input: {}",
        h.name(),
        hex(data)
    );
}

/// Equality after [`normalize`], except that CBOR times with a fraction of
/// a second compare within the precision of the float they are written as
/// (tag 1 with a float64 of Unix seconds, as ugorji writes them; a date far
/// from 1970 keeps only a few microseconds).
pub fn same_value(h: &AnyHandle, a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Time(x), Value::Time(y)) if matches!(h, AnyHandle::Cbor(_)) => {
            let ulp_nanos = (x.unix_seconds().unsigned_abs() as f64) * f64::EPSILON * 1e9;
            let tolerance = (ulp_nanos * 4.0).max(1_000.0) as i128;
            x.offset() == y.offset() && (x.unix_nanos() - y.unix_nanos()).abs() <= tolerance
        }
        (Value::Array(xs), Value::Array(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_value(h, x, y))
        }
        (Value::Map(xs), Value::Map(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(ys)
                    .all(|((kx, vx), (ky, vy))| same_value(h, kx, ky) && same_value(h, vx, vy))
        }
        (Value::Tagged(tx, x), Value::Tagged(ty, y)) => tx == ty && same_value(h, x, y),
        _ => a == b,
    }
}

fn has_bignum_tag(v: &Value) -> bool {
    match v {
        Value::Tagged(2 | 3, _) => true,
        Value::Array(xs) => xs.iter().any(has_bignum_tag),
        Value::Map(xs) => xs
            .iter()
            .any(|(k, v)| has_bignum_tag(k) || has_bignum_tag(v)),
        Value::Tagged(_, x) => has_bignum_tag(x),
        _ => false,
    }
}

fn has_fractional_time(v: &Value) -> bool {
    match v {
        Value::Time(t) => t.nanos() != 0,
        Value::Array(xs) => xs.iter().any(has_fractional_time),
        Value::Map(xs) => xs
            .iter()
            .any(|(k, v)| has_fractional_time(k) || has_fractional_time(v)),
        Value::Tagged(_, x) => has_fractional_time(x),
        _ => false,
    }
}

/// Applies the documented lossy conversions of handle `h` to a value, so that
/// a value and its round trip compare equal:
///
/// - msgpack: an unsigned integer that fits `i64` becomes `Int`. ugorji (and
///   we) read positive fixints as signed and `uint8`..`uint64` as unsigned,
///   but write every non-negative integer in its shortest form, so `cc 00`
///   (`Uint(0)`) re-encodes as `00` (`Int(0)`).
/// - binc, simple and JSON: a negative integer of magnitude 0 (binc and
///   simple negative items holding 0, JSON `-0`) reads as `Int(0)` and is
///   written back as the unsigned `0`.
/// - JSON: an integral float of magnitude 2^52 or more is written without a
///   fraction (`1e16` as `10000000000000000`, as ugorji's `noFrac64` test
///   does), so it reads back as an integer when it fits 64 bits, and with
///   `exact_integers` as a `BigInt` when it does not (below 1e21 it is
///   written in digits, so it fits `i128`).
/// - CBOR: a bignum (tag 2/3) whose value fits 64 bits reads as
///   `BigInt` and is written back in preferred serialization, as a plain integer.
///   A bignum whose content is a chunked byte string (or longer than 64
///   bytes) stays `Tagged(2 | 3, Bytes)` and is written back definite, so it
///   reads as an integer when it fits: compared here by its number.
/// - binc, simple, JSON and CBOR: a time at Go's zero instant
///   (0001-01-01T00:00:00Z, whatever its offset) is written as nil, as
///   ugorji writes a zero `time.Time` (`IsZero` ignores the location).
/// - binc: a float that is zero, infinite or NaN is written as a special
///   value that reads back as `F64` (zero as +0.0, NaN as Go's `math.NaN()`),
///   as ugorji does; a `F32` otherwise keeps its width.
pub fn normalize(h: &AnyHandle, v: Value) -> Value {
    match (h, v) {
        (AnyHandle::Msgpack(_), Value::Uint(n)) if i64::try_from(n).is_ok() => Value::Int(n as i64),
        (AnyHandle::Binc(_) | AnyHandle::Simple(_) | AnyHandle::Json(_), Value::Int(n))
            if n >= 0 =>
        {
            Value::Uint(n as u64)
        }
        (AnyHandle::Json(_), Value::F64(x))
            if x.fract() == 0.0 && x.abs() >= 4_503_599_627_370_496.0 =>
        {
            // The shortest digits, as the encoder writes them.
            let digits = format!("{x}");
            let exact = matches!(h, AnyHandle::Json(j) if j.exact_integers);
            if let Ok(n) = digits.parse::<u64>() {
                Value::Uint(n)
            } else if let Ok(n) = digits.parse::<i64>() {
                Value::Int(n)
            } else if let (true, Ok(n)) = (exact, digits.parse::<i128>()) {
                Value::BigInt(n)
            } else {
                Value::F64(x)
            }
        }
        (AnyHandle::Cbor(_), Value::BigInt(n)) => {
            if let Ok(n) = u64::try_from(n) {
                Value::Uint(n)
            } else if let Ok(n) = i64::try_from(n) {
                Value::Int(n)
            } else {
                Value::BigInt(n)
            }
        }
        (AnyHandle::Cbor(_), Value::Tagged(tag @ (2 | 3), inner)) => match *inner {
            Value::Bytes(digits) => match bignum(&digits, tag == 3) {
                Some(n) => normalize(h, Value::BigInt(n)),
                None => Value::Tagged(tag, Box::new(Value::Bytes(digits))),
            },
            other => Value::Tagged(tag, Box::new(normalize(h, other))),
        },
        (_, Value::Time(t)) if t.is_go_zero() => Value::Nil,
        (AnyHandle::Binc(_), Value::F32(x)) if x == 0.0 || !x.is_finite() => {
            normalize(h, Value::F64(f64::from(x)))
        }
        (AnyHandle::Binc(_), Value::F64(x)) if x == 0.0 && x.is_sign_negative() => Value::F64(0.0),
        (AnyHandle::Binc(_), Value::F64(x)) if x.is_nan() => {
            Value::F64(f64::from_bits(0x7FF8_0000_0000_0001))
        }
        (_, Value::Array(items)) => {
            Value::Array(items.into_iter().map(|x| normalize(h, x)).collect())
        }
        (_, Value::Map(entries)) => Value::Map(
            entries
                .into_iter()
                .map(|(k, x)| (normalize(h, k), normalize(h, x)))
                .collect(),
        ),
        (_, Value::Tagged(t, inner)) => Value::Tagged(t, Box::new(normalize(h, *inner))),
        (_, v) => v,
    }
}

/// The value of a CBOR bignum's content (big-endian magnitude; tag 3 is
/// `-1 - n`), when it fits `i128`.
fn bignum(digits: &[u8], negative: bool) -> Option<i128> {
    let mut m: u128 = 0;
    for &b in digits {
        if m >> 120 != 0 {
            return None;
        }
        m = (m << 8) | u128::from(b);
    }
    let m = i128::try_from(m).ok()?;
    Some(if negative { -1 - m } else { m })
}

/// Decode arbitrary bytes into derived structs of every shape; a decoded
/// value must re-encode to bytes that decode to the same value.
pub fn typed(h: &AnyHandle, data: &[u8]) {
    typed_one::<Record>(h, "Record", data);
    typed_one::<Row>(h, "Row", data);
    typed_one::<Shape>(h, "Shape", data);
    typed_one::<Vec<Shape>>(h, "Vec<Shape>", data);
    typed_one::<Tree>(h, "Tree", data);
    borrowed(h, data);
}

fn typed_one<T: DecodeOwned + Encode + Debug>(h: &AnyHandle, what: &str, data: &[u8]) {
    let Ok(v1) = decode_both::<T>(h, what, data) else {
        return;
    };
    typed_roundtrip(h, what, data, &v1, |b| h.from_slice::<T>(b));
}

fn typed_roundtrip<T: Encode + Debug>(
    h: &AnyHandle,
    what: &str,
    data: &[u8],
    v1: &T,
    decode: impl Fn(&[u8]) -> Result<T>,
) {
    let b1 = h.to_vec(v1).unwrap_or_else(|e| {
        panic!(
            "{} {what}: decoded value does not re-encode: {e}\n input: {}",
            h.name(),
            hex(data)
        )
    });
    let v2 = decode(&b1).unwrap_or_else(|e| {
        panic!(
            "{} {what}: re-encoded value does not decode: {e}\n input: {}\n encoded: {}",
            h.name(),
            hex(data),
            hex(&b1)
        )
    });
    let b2 = h.to_vec(&v2).unwrap_or_else(|e| {
        panic!(
            "{} {what}: second encode failed: {e}\n input: {}",
            h.name(),
            hex(data)
        )
    });
    assert_eq!(
        b1,
        b2,
        "{} {what}: encoding is not a fixed point\n input: {}",
        h.name(),
        hex(data)
    );
    let (d1, d2) = (format!("{v1:?}"), format!("{v2:?}"));
    if d1 != d2 && !lossy_floats(h) {
        panic!(
            "{} {what}: value changed in a round trip\n input: {}\n before: {d1}\n after:  {d2}",
            h.name(),
            hex(data)
        );
    }
}

/// Binc writes -0.0 as +0.0 and every NaN as Go's NaN, as ugorji does.
fn lossy_floats(h: &AnyHandle) -> bool {
    matches!(h, AnyHandle::Binc(_))
}

/// Borrowed fields only decode from a slice; compare borrowed decoding with
/// the owned round trip.
fn borrowed(h: &AnyHandle, data: &[u8]) {
    let Ok(v1) = h.from_slice::<Borrowed<'_>>(data) else {
        return;
    };
    let b1 = h.to_vec(&v1).unwrap_or_else(|e| {
        panic!(
            "{} Borrowed: decoded value does not re-encode: {e}\n input: {}",
            h.name(),
            hex(data)
        )
    });
    let v2 = match h.from_slice::<Borrowed<'_>>(&b1) {
        Ok(v) => v,
        Err(e) => panic!(
            "{} Borrowed: re-encoded value does not decode: {e}\n input: {}\n encoded: {}",
            h.name(),
            hex(data),
            hex(&b1)
        ),
    };
    assert_eq!(
        v1,
        v2,
        "{} Borrowed: value changed in a round trip\n input: {}",
        h.name(),
        hex(data)
    );
}

/// Small limits for the limits target.
pub const SMALL_DEPTH: u32 = 4;
/// Small `max_len` for the limits target.
pub const SMALL_LEN: usize = 3;
/// Small `max_str_len` for the limits target.
pub const SMALL_STR: usize = 5;

/// Measures of a value checked against the limits.
#[derive(Debug, Default, Clone, Copy)]
struct Measure {
    depth: u32,
    len: usize,
    str_len: usize,
}

fn measure(v: &Value) -> Measure {
    let join = |a: Measure, b: Measure| Measure {
        depth: a.depth.max(b.depth),
        len: a.len.max(b.len),
        str_len: a.str_len.max(b.str_len),
    };
    match v {
        Value::Str(s) => Measure {
            str_len: s.len(),
            ..Measure::default()
        },
        Value::Bytes(b) => Measure {
            str_len: b.len(),
            ..Measure::default()
        },
        Value::Ext(_, b) => Measure {
            str_len: b.len(),
            ..Measure::default()
        },
        Value::Array(items) => {
            let inner = items.iter().map(measure).fold(Measure::default(), join);
            Measure {
                depth: inner.depth + 1,
                len: inner.len.max(items.len()),
                str_len: inner.str_len,
            }
        }
        Value::Map(entries) => {
            let inner = entries
                .iter()
                .flat_map(|(k, v)| [measure(k), measure(v)])
                .fold(Measure::default(), join);
            Measure {
                depth: inner.depth + 1,
                len: inner.len.max(entries.len()),
                str_len: inner.str_len,
            }
        }
        Value::Tagged(_, inner) => {
            let m = measure(inner);
            Measure {
                depth: m.depth + 1,
                ..m
            }
        }
        _ => Measure::default(),
    }
}

/// Decode with small limits: what decodes respects them, and a value that
/// decodes without limits but breaks one is an error naming that limit.
pub fn limits(h: &AnyHandle, data: &[u8]) {
    let mut small = h.clone();
    *small.options_mut() = small
        .options()
        .clone()
        .max_depth(SMALL_DEPTH)
        .max_len(SMALL_LEN)
        .max_str_len(SMALL_STR)
        .max_prealloc(16);
    let limited = small.from_slice::<Value>(data);
    let unlimited = h.from_slice::<Value>(data);
    match (&limited, &unlimited) {
        (Ok(v), _) => {
            let m = measure(v);
            assert!(
                m.depth <= SMALL_DEPTH && m.len <= SMALL_LEN && m.str_len <= SMALL_STR,
                "{}: a value past the limits decoded: {m:?}\n input: {}",
                h.name(),
                hex(data)
            );
            assert_eq!(
                unlimited.as_ref().ok(),
                Some(v),
                "{}: limits changed a successful result\n input: {}",
                h.name(),
                hex(data)
            );
        }
        (Err(e), Ok(v)) => {
            let m = measure(v);
            let named = match e.kind() {
                ErrorKind::DepthLimitExceeded { max } => *max == SMALL_DEPTH,
                ErrorKind::LengthLimitExceeded { limit, max, .. } => {
                    (*limit == "max_len" && *max == SMALL_LEN as u64)
                        || (*limit == "max_str_len" && *max == SMALL_STR as u64)
                }
                _ => false,
            };
            assert!(
                named,
                "{}: with small limits the error does not name a limit: {e}\n measure: {m:?}\n input: {}",
                h.name(),
                hex(data)
            );
            assert!(
                e.offset().is_some(),
                "{}: limit error without an offset: {e}\n input: {}",
                h.name(),
                hex(data)
            );
        }
        (Err(_), Err(_)) => {}
    }
}

/// Decode into [`Partial`], from a slice and from hostile readers: where
/// `data` decodes whole into a [`Value`], the partial decode succeeds and
/// is that value cut where it stops ([`Partial::of`]).
pub fn partial(h: &AnyHandle, data: &[u8]) {
    let got = decode_both::<Partial>(h, "Partial", data);
    let Ok(whole) = h.from_slice::<Value>(data) else {
        return;
    };
    let want = Partial::of(&whole);
    match got {
        // Compared as text: a NaN is equal to itself there.
        Ok(p) => assert!(
            format!("{p:?}") == format!("{want:?}"),
            "{}: partial decode differs\n got:  {p:?}\n want: {want:?}\n input: {}",
            h.name(),
            hex(data)
        ),
        Err(e) => panic!(
            "{}: the partial decode failed ({e}) where the whole decode did not\n input: {}",
            h.name(),
            hex(data)
        ),
    }
}

/// The map modes against the default (`Ordered`): what it decodes, each
/// mode decodes, to its maps with a repeated key's later value replacing
/// the earlier one's (`LastWins`), then sorted (`Sorted`), or unchanged
/// unless a key repeats, which `RejectDuplicates` reports at the key.
pub fn map_modes(h: &AnyHandle, data: &[u8]) {
    let Ok(ordered) = h.from_slice::<Value>(data) else {
        return;
    };
    let with = |mode| {
        let mut m = h.clone();
        m.options_mut().decode.value_maps = mode;
        m.from_slice::<Value>(data)
    };
    let what = |mode: ValueMaps| format!("{} {mode:?}\n input: {}", h.name(), hex(data));
    for (mode, sort) in [(ValueMaps::LastWins, false), (ValueMaps::Sorted, true)] {
        match with(mode) {
            Ok(v) => assert!(v == settled(&ordered, sort), "{}", what(mode)),
            Err(e) => panic!("{e}: {}", what(mode)),
        }
    }
    let mode = ValueMaps::RejectDuplicates;
    match (repeats_a_key(&ordered), with(mode)) {
        (false, Ok(v)) => assert!(v == ordered, "{}", what(mode)),
        (true, Err(e)) => assert!(
            e.to_string().contains("duplicate map key") && e.offset().is_some(),
            "{e}: {}",
            what(mode)
        ),
        (repeats, got) => panic!("repeats a key: {repeats}, got {got:?}: {}", what(mode)),
    }
}

/// `v` with each map's repeated keys reduced to the first position and the
/// last value, then sorted by key if `sort`.
fn settled(v: &Value, sort: bool) -> Value {
    match v {
        Value::Array(xs) => Value::Array(xs.iter().map(|x| settled(x, sort)).collect()),
        Value::Map(es) => {
            let mut out: Vec<(Value, Value)> = Vec::with_capacity(es.len());
            for (k, x) in es {
                let (k, x) = (settled(k, sort), settled(x, sort));
                match out.iter_mut().find(|(seen, _)| *seen == k) {
                    Some(slot) => slot.1 = x,
                    None => out.push((k, x)),
                }
            }
            if sort {
                out.sort_by(|a, b| a.0.cmp(&b.0));
            }
            Value::Map(out)
        }
        Value::Tagged(t, x) => Value::Tagged(*t, Box::new(settled(x, sort))),
        other => other.clone(),
    }
}

/// Whether a map anywhere in `v` has the same key twice.
fn repeats_a_key(v: &Value) -> bool {
    match v {
        Value::Array(xs) => xs.iter().any(repeats_a_key),
        Value::Map(es) => {
            es.iter()
                .enumerate()
                .any(|(i, (k, _))| es[..i].iter().any(|(j, _)| j == k))
                || es.iter().any(|(k, x)| repeats_a_key(k) || repeats_a_key(x))
        }
        Value::Tagged(_, x) => repeats_a_key(x),
        _ => false,
    }
}

/// JSON from random whitespace: a document that decodes must decode to the
/// same value from its compact re-encoding with whitespace inserted between
/// tokens (the first byte of `data` seeds where), as bytes and as `&str`.
pub fn json_whitespace(data: &[u8]) {
    let Some((&seed, doc)) = data.split_first() else {
        return;
    };
    let h = AnyHandle::Json(JsonHandle::default());
    let Ok(v) = h.from_slice::<Value>(doc) else {
        return;
    };
    let Ok(compact) = h.to_vec(&v) else {
        return;
    };
    let spaced = insert_whitespace(&compact, u64::from(seed) | (doc.len() as u64) << 8);
    let text = std::str::from_utf8(&spaced)
        .unwrap_or_else(|_| panic!("json: encoder wrote invalid UTF-8 for {}", hex(doc)));
    let again: Value = h.from_slice(text.as_bytes()).unwrap_or_else(|e| {
        panic!(
            "json: whitespace broke decoding: {e}\n input: {}\n spaced: {text}",
            hex(doc)
        )
    });
    assert!(
        same_value(&h, &normalize(&h, v), &normalize(&h, again)),
        "json: whitespace changed the value\n spaced: {text}"
    );
    let typed_compact = h.from_slice::<Tree>(&compact).map_err(|e| e.to_string());
    let typed_spaced = h.from_slice::<Tree>(text.as_bytes()).map(drop);
    assert_eq!(
        typed_compact.is_ok(),
        typed_spaced.is_ok(),
        "json: whitespace changed a typed decode\n spaced: {text}"
    );
}

/// Inserts JSON whitespace (space, tab, CR, LF runs) between tokens of a
/// compact JSON document, outside strings, at places chosen by `seed`.
pub fn insert_whitespace(compact: &[u8], seed: u64) -> Vec<u8> {
    let mut rng = crate::mutate::Rng::new(seed);
    let mut out = Vec::with_capacity(compact.len() * 2);
    let mut in_str = false;
    let mut escaped = false;
    let ws = |rng: &mut crate::mutate::Rng, out: &mut Vec<u8>| {
        if rng.below(3) == 0 {
            for _ in 0..=rng.below(3) {
                out.push(*rng.pick(b" \t\r\n"));
            }
        }
    };
    ws(&mut rng, &mut out);
    for &b in compact {
        if in_str {
            out.push(b);
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_str = false;
                ws(&mut rng, &mut out);
            }
            continue;
        }
        match b {
            b'"' => {
                in_str = true;
                out.push(b);
            }
            b'[' | b'{' | b',' | b':' => {
                out.push(b);
                ws(&mut rng, &mut out);
            }
            b']' | b'}' => {
                ws(&mut rng, &mut out);
                out.push(b);
                ws(&mut rng, &mut out);
            }
            _ => out.push(b),
        }
    }
    ws(&mut rng, &mut out);
    out
}

/// Decodes `T` from `data` with `h`; for callers that only need "no panic".
pub fn decode_any<'de, T: Decode<'de>>(h: &AnyHandle, data: &'de [u8]) -> Result<T> {
    h.from_slice(data)
}
