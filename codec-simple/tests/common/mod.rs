//! Helpers shared by the integration tests: hex, the TYPED -> Value
//! converter for the ugorji vectors, a one-byte reader and a small PRNG.
#![allow(dead_code)]

use codec_core::{Time, Value};
use std::path::PathBuf;

/// Lowercase or uppercase hex (whitespace ignored) to bytes.
pub fn unhex(s: &str) -> Vec<u8> {
    let s: Vec<u8> = s.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    s.chunks(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).unwrap(), 16).unwrap())
        .collect()
}

/// Bytes to lowercase hex.
pub fn tohex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The vectors file: `$CODEC_VECTORS`, else `../shared/vectors/ugorji-interop.jsonl`
/// relative to the workspace root. `None` (with a note) when absent.
pub fn vectors(handle: &str) -> Option<Vec<serde_json::Value>> {
    let path = match std::env::var_os("CODEC_VECTORS") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/vectors/ugorji-interop.jsonl"),
    };
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "NOTE: vectors file {} not found; skipping (set CODEC_VECTORS)",
            path.display()
        );
        return None;
    };
    let cases: Vec<serde_json::Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("vector line is JSON"))
        .filter(|c: &serde_json::Value| c["handle"] == handle)
        .collect();
    Some(cases)
}

/// Converts a TYPED value of the vectors file into a `Value`; `None` for structs.
pub fn typed_to_value(t: &serde_json::Value) -> Option<Value> {
    let obj = t.as_object()?;
    let s = |k: &str| obj.get(k).and_then(|v| v.as_str());
    Some(if obj.contains_key("nil") {
        Value::Nil
    } else if let Some(b) = obj.get("bool") {
        Value::Bool(b.as_bool()?)
    } else if let Some(v) = s("int") {
        Value::Int(v.parse().ok()?)
    } else if let Some(v) = s("uint") {
        Value::Uint(v.parse().ok()?)
    } else if obj.contains_key("f32") {
        Value::F32(f32::from_bits(u32::from_str_radix(s("bits")?, 16).ok()?))
    } else if obj.contains_key("f64") {
        Value::F64(f64::from_bits(u64::from_str_radix(s("bits")?, 16).ok()?))
    } else if let Some(v) = s("str") {
        Value::Str(v.into())
    } else if let Some(v) = s("bytes") {
        Value::Bytes(unhex(v))
    } else if let Some(a) = obj.get("array") {
        Value::Array(
            a.as_array()?
                .iter()
                .map(typed_to_value)
                .collect::<Option<_>>()?,
        )
    } else if let Some(m) = obj.get("map") {
        let mut out = Vec::new();
        for pair in m.as_array()? {
            let p = pair.as_array()?;
            out.push((typed_to_value(p.first()?)?, typed_to_value(p.get(1)?)?));
        }
        Value::Map(out)
    } else if let Some(v) = s("time") {
        Value::Time(Time::parse_rfc3339(v).ok()?)
    } else {
        return None;
    })
}

/// A dynamic value in a form that compares as ugorji's `interface{}` result
/// does: floats widened to f64, map entries sorted (TYPED map order carries
/// no meaning).
pub fn normalize_dynamic(v: &Value) -> Value {
    match v {
        Value::F32(f) => Value::F64(*f as f64),
        Value::Array(a) => Value::Array(a.iter().map(normalize_dynamic).collect()),
        Value::Map(m) => {
            let mut m: Vec<(Value, Value)> = m
                .iter()
                .map(|(k, v)| (normalize_dynamic(k), normalize_dynamic(v)))
                .collect();
            m.sort();
            Value::Map(m)
        }
        other => other.clone(),
    }
}

// Not every test binary that includes this module reads through it.
#[allow(unused_imports)]
pub use codec_test_support::Trickle;

/// xorshift64* — a small deterministic PRNG.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn byte(&mut self) -> u8 {
        self.next() as u8
    }
}
