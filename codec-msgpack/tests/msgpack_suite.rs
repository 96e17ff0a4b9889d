//! The msgpack-test-suite conformance run.
//!
//! Reads the suite given by `CODEC_MSGPACK_SUITE` (default: `tests/data/msgpack-test-suite.json`)
//! and checks, for every case:
//! 1. every listed encoding decodes, as exactly one value consuming all the
//!    bytes, to the case's value: into `codec_core::Value` (with the default
//!    handle and with ugorji's old-spec handle), through an `io::Read` one
//!    byte at a time, and into a fitting typed target (numbers compare
//!    numerically, bignums exactly);
//! 2. encoding the value (as a typed value and as a `Value`) gives one of the
//!    listed encodings.
//!
//! Prints `msgpack_suite: N passed, M failed`, lists failures, and fails if M > 0.

mod common;

use codec_core::{Time, Value, from_reader, from_slice, to_vec};
use codec_msgpack::MsgpackHandle;
use common::{Case, Expected, OneByte, load_suite};

/// Does a decoded `Value` equal the expected value? `text_as_bytes`: a text
/// string may come back as bytes (the old-spec handle, outside map keys).
fn matches(v: &Value, e: &Expected, text_as_bytes: bool) -> bool {
    match (e, v) {
        (Expected::Nil, Value::Nil) => true,
        (Expected::Bool(a), Value::Bool(b)) => a == b,
        (Expected::Int(n), Value::Int(i)) => i128::from(*i) == *n,
        (Expected::Int(n), Value::Uint(u)) => i128::from(*u) == *n,
        (Expected::Int(n), Value::BigInt(i)) => i == n,
        (Expected::Int(n), Value::F32(f)) => float_is_int(f64::from(*f), *n),
        (Expected::Int(n), Value::F64(f)) => float_is_int(*f, *n),
        (Expected::Float(x), Value::F32(f)) => *f == *x as f32,
        (Expected::Float(x), Value::F64(f)) => f == x,
        (Expected::Float(x), Value::Int(i)) => *i as f64 == *x,
        (Expected::Float(x), Value::Uint(u)) => *u as f64 == *x,
        (Expected::Str(s), Value::Str(t)) => s == t,
        (Expected::Str(s), Value::Bytes(b)) => text_as_bytes && s.as_bytes() == &b[..],
        (Expected::Bin(a), Value::Bytes(b)) => a == b,
        (Expected::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(e, v)| matches(v, e, text_as_bytes))
        }
        (Expected::Map(a), Value::Map(b)) => {
            a.len() == b.len()
                && a.iter().all(|(k, e)| {
                    b.iter().any(|(bk, bv)| {
                        bk.as_str() == Some(k.as_str()) && matches(bv, e, text_as_bytes)
                    })
                })
        }
        (Expected::Time(s, n), Value::Time(t)) => {
            t.unix_seconds() == *s && t.nanos() == *n && t.offset().is_none()
        }
        (Expected::Ext(ty, data), Value::Ext(tag, d)) => {
            *tag == u64::from(*ty as u8) && data[..] == d[..]
        }
        _ => false,
    }
}

fn float_is_int(f: f64, n: i128) -> bool {
    f.fract() == 0.0 && f as i128 == n && (n as f64) == f
}

/// The expected value as a dynamic `Value` (for the encode check).
fn to_value(e: &Expected) -> Value {
    match e {
        Expected::Nil => Value::Nil,
        Expected::Bool(b) => Value::Bool(*b),
        Expected::Int(n) => match (u64::try_from(*n), i64::try_from(*n)) {
            (Ok(u), _) => Value::Uint(u),
            (_, Ok(i)) => Value::Int(i),
            _ => Value::BigInt(*n),
        },
        Expected::Float(f) => Value::F64(*f),
        Expected::Str(s) => Value::Str(s.as_str().into()),
        Expected::Bin(b) => Value::Bytes(b.clone()),
        Expected::Array(a) => Value::Array(a.iter().map(to_value).collect()),
        Expected::Map(m) => Value::Map(
            m.iter()
                .map(|(k, v)| (Value::Str(k.as_str().into()), to_value(v)))
                .collect(),
        ),
        Expected::Time(s, n) => Value::Time(Time::from_unix(*s, *n).expect("valid time")),
        Expected::Ext(ty, d) => Value::Ext(u64::from(*ty as u8), d.clone().into()),
    }
}

/// Decodes `bytes` into the typed target that fits the expected value.
fn check_typed(e: &Expected, bytes: &[u8], h: &MsgpackHandle) -> Result<(), String> {
    let err = |what: &str, r: String| format!("typed {what}: {r}");
    match e {
        Expected::Nil => from_slice::<(), _>(bytes, h).map_err(|x| err("()", x.to_string())),
        Expected::Bool(b) => match from_slice::<bool, _>(bytes, h) {
            Ok(v) if v == *b => Ok(()),
            other => Err(err("bool", format!("{other:?}"))),
        },
        Expected::Int(n) => {
            if let Ok(want) = i64::try_from(*n) {
                match from_slice::<i64, _>(bytes, h) {
                    Ok(v) if v == want => {}
                    other => return Err(err("i64", format!("{other:?}"))),
                }
            }
            if let Ok(want) = u64::try_from(*n) {
                match from_slice::<u64, _>(bytes, h) {
                    Ok(v) if v == want => {}
                    other => return Err(err("u64", format!("{other:?}"))),
                }
            }
            match from_slice::<i128, _>(bytes, h) {
                Ok(v) if v == *n => Ok(()),
                other => Err(err("i128", format!("{other:?}"))),
            }
        }
        Expected::Float(x) => {
            match from_slice::<f64, _>(bytes, h) {
                Ok(v) if v == *x || v as f32 == *x as f32 => {}
                other => return Err(err("f64", format!("{other:?}"))),
            }
            match from_slice::<f32, _>(bytes, h) {
                Ok(v) if v == *x as f32 => Ok(()),
                other => Err(err("f32", format!("{other:?}"))),
            }
        }
        Expected::Str(s) => {
            match from_slice::<String, _>(bytes, h) {
                Ok(v) if v == *s => {}
                other => return Err(err("String", format!("{other:?}"))),
            }
            match from_slice::<&str, _>(bytes, h) {
                Ok(v) if v == s => Ok(()),
                other => Err(err("&str", format!("{other:?}"))),
            }
        }
        Expected::Bin(b) => match from_slice::<Vec<u8>, _>(bytes, h) {
            Ok(v) if v == *b => Ok(()),
            other => Err(err("Vec<u8>", format!("{other:?}"))),
        },
        Expected::Time(s, n) => match from_slice::<Time, _>(bytes, h) {
            Ok(t) if t.unix_seconds() == *s && t.nanos() == *n => Ok(()),
            other => Err(err("Time", format!("{other:?}"))),
        },
        // Containers and extensions are checked through `Value`.
        Expected::Array(_) | Expected::Map(_) | Expected::Ext(..) => Ok(()),
    }
}

/// Encodes the expected value as the typed value the case describes.
fn encode_typed(e: &Expected, h: &MsgpackHandle) -> codec_core::Result<Vec<u8>> {
    match e {
        Expected::Nil => to_vec(&(), h),
        Expected::Bool(b) => to_vec(b, h),
        Expected::Int(n) => match (u64::try_from(*n), i64::try_from(*n)) {
            (Ok(u), _) => to_vec(&u, h),
            (_, Ok(i)) => to_vec(&i, h),
            _ => to_vec(n, h),
        },
        Expected::Float(f) => to_vec(f, h),
        Expected::Str(s) => to_vec(s, h),
        Expected::Bin(b) => to_vec(b, h),
        Expected::Time(s, n) => to_vec(&Time::from_unix(*s, *n).expect("valid time"), h),
        Expected::Array(_) | Expected::Map(_) | Expected::Ext(..) => to_vec(&to_value(e), h),
    }
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join("-")
}

fn run_case(case: &Case) -> Vec<String> {
    let new = MsgpackHandle::default();
    let old = MsgpackHandle::ugorji_default();
    let mut fails = Vec::new();
    for enc in &case.encodings {
        let h = hex(enc);
        match from_slice::<Value, _>(enc, &new) {
            Ok(v) if matches(&v, &case.expected, false) => {}
            other => fails.push(format!("decode {h} -> {other:?}")),
        }
        match from_slice::<Value, _>(enc, &old) {
            Ok(v) if matches(&v, &case.expected, true) => {}
            other => fails.push(format!("decode (old spec) {h} -> {other:?}")),
        }
        let slice = from_slice::<Value, _>(enc, &new).map_err(|e| e.to_string());
        let io = from_reader::<Value, _, _>(OneByte(enc), &new).map_err(|e| e.to_string());
        if slice.is_ok() != io.is_ok() || (slice.is_ok() && slice != io) {
            fails.push(format!("io reader {h}: {io:?} vs slice {slice:?}"));
        }
        if let Err(e) = check_typed(&case.expected, enc, &new) {
            fails.push(format!("{h}: {e}"));
        }
    }
    for (what, got) in [
        ("typed", encode_typed(&case.expected, &new)),
        ("Value", to_vec(&to_value(&case.expected), &new)),
    ] {
        match got {
            Ok(b) if case.encodings.contains(&b) => {}
            Ok(b) => fails.push(format!("encode {what} gave {} (not listed)", hex(&b))),
            Err(e) => fails.push(format!("encode {what}: {e}")),
        }
    }
    fails
}

#[test]
fn msgpack_suite() {
    let cases = load_suite();
    assert!(!cases.is_empty(), "the suite has no cases");
    let mut passed = 0;
    let mut failed = Vec::new();
    for case in &cases {
        let fails = run_case(case);
        if fails.is_empty() {
            passed += 1;
        } else {
            failed.push((case, fails));
        }
    }
    println!("msgpack_suite: {passed} passed, {} failed", failed.len());
    for (case, fails) in &failed {
        println!("FAIL {} ({:?})", case.id, case.expected);
        for f in fails {
            println!("    {f}");
        }
    }
    assert!(
        failed.is_empty(),
        "{} msgpack_suite cases failed",
        failed.len()
    );
}
