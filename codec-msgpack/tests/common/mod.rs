//! Shared helpers for the integration tests: the msgpack-test-suite reader
//! and a small deterministic PRNG.
#![allow(dead_code)]

use serde_json::Value as Json;
use std::path::PathBuf;

/// What a suite case says the value is.
#[derive(Debug, Clone)]
pub enum Expected {
    Nil,
    Bool(bool),
    /// An integer, exact (from `bignum` or an integral JSON number).
    Int(i128),
    Float(f64),
    Str(String),
    Bin(Vec<u8>),
    Array(Vec<Expected>),
    /// String keys, in the order the JSON reader gives them.
    Map(Vec<(String, Expected)>),
    Time(i64, u32),
    /// Extension type (-128..=127) and payload.
    Ext(i8, Vec<u8>),
}

/// One suite case: the value and every acceptable encoding.
#[derive(Debug, Clone)]
pub struct Case {
    pub id: String,
    pub expected: Expected,
    pub encodings: Vec<Vec<u8>>,
}

/// Parses dash-separated hex (`"cd-00-01"`); `""` is empty.
pub fn dash_hex(s: &str) -> Result<Vec<u8>, String> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    s.split('-')
        .map(|b| u8::from_str_radix(b, 16).map_err(|e| format!("bad hex {b:?}: {e}")))
        .collect()
}

fn number(j: &Json) -> Result<Expected, String> {
    if let Some(u) = j.as_u64() {
        Ok(Expected::Int(i128::from(u)))
    } else if let Some(i) = j.as_i64() {
        Ok(Expected::Int(i128::from(i)))
    } else if let Some(f) = j.as_f64() {
        Ok(Expected::Float(f))
    } else {
        Err(format!("not a number: {j}"))
    }
}

/// A nested JSON item of an `array` or `map` case.
fn nested(j: &Json) -> Result<Expected, String> {
    Ok(match j {
        Json::Null => Expected::Nil,
        Json::Bool(b) => Expected::Bool(*b),
        Json::Number(_) => number(j)?,
        Json::String(s) => Expected::Str(s.clone()),
        Json::Array(a) => Expected::Array(a.iter().map(nested).collect::<Result<_, _>>()?),
        Json::Object(o) => Expected::Map(
            o.iter()
                .map(|(k, v)| Ok((k.clone(), nested(v)?)))
                .collect::<Result<_, String>>()?,
        ),
    })
}

fn expected(obj: &serde_json::Map<String, Json>) -> Result<Expected, String> {
    if let Some(b) = obj.get("bignum") {
        let s = b.as_str().ok_or("bignum is not a string")?;
        return s
            .parse::<i128>()
            .map(Expected::Int)
            .map_err(|e| format!("bad bignum {s:?}: {e}"));
    }
    let (key, v) = obj
        .iter()
        .find(|(k, _)| k.as_str() != "msgpack")
        .ok_or("case has no value")?;
    Ok(match key.as_str() {
        "nil" => Expected::Nil,
        "bool" => Expected::Bool(v.as_bool().ok_or("bool is not a bool")?),
        "number" => number(v)?,
        "string" => Expected::Str(v.as_str().ok_or("string is not a string")?.to_owned()),
        "binary" => Expected::Bin(dash_hex(v.as_str().ok_or("binary is not a string")?)?),
        "array" | "map" => nested(v)?,
        "timestamp" => {
            let a = v.as_array().ok_or("timestamp is not an array")?;
            let sec = a
                .first()
                .and_then(Json::as_i64)
                .ok_or("timestamp seconds")?;
            let nsec = a
                .get(1)
                .and_then(Json::as_u64)
                .ok_or("timestamp nanoseconds")?;
            Expected::Time(sec, u32::try_from(nsec).map_err(|e| e.to_string())?)
        }
        "ext" => {
            let a = v.as_array().ok_or("ext is not an array")?;
            let ty = a.first().and_then(Json::as_i64).ok_or("ext type")?;
            let data = dash_hex(a.get(1).and_then(Json::as_str).ok_or("ext data")?)?;
            Expected::Ext(i8::try_from(ty).map_err(|e| e.to_string())?, data)
        }
        other => return Err(format!("unknown value key {other:?}")),
    })
}

/// The suite file: `CODEC_MSGPACK_SUITE`, or the crate's copy.
pub fn suite_path() -> PathBuf {
    match std::env::var_os("CODEC_MSGPACK_SUITE") {
        Some(p) => PathBuf::from(p),
        None => {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/msgpack-test-suite.json")
        }
    }
}

/// Reads every case of the suite.
pub fn load_suite() -> Vec<Case> {
    let path = suite_path();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let doc: Json = serde_json::from_str(&text).expect("suite is not JSON");
    let groups = doc.as_object().expect("suite is not an object of groups");
    let mut cases = Vec::new();
    for (group, list) in groups {
        for (i, case) in list
            .as_array()
            .expect("group is not an array")
            .iter()
            .enumerate()
        {
            let obj = case.as_object().expect("case is not an object");
            let id = format!("{group}#{i}");
            let expected = expected(obj).unwrap_or_else(|e| panic!("{id}: {e}"));
            let encodings = obj
                .get("msgpack")
                .and_then(Json::as_array)
                .unwrap_or_else(|| panic!("{id}: no msgpack list"))
                .iter()
                .map(|h| dash_hex(h.as_str().expect("encoding is not a string")))
                .collect::<Result<Vec<_>, _>>()
                .unwrap_or_else(|e| panic!("{id}: {e}"));
            cases.push(Case {
                id,
                expected,
                encodings,
            });
        }
    }
    cases
}

/// SplitMix64: a small deterministic PRNG for the fuzz-style tests.
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn byte(&mut self) -> u8 {
        self.next_u64() as u8
    }
}

pub use codec_test_support::OneByte;
