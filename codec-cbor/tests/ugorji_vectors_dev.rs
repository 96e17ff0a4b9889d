//! Development aid (the official harness is `ugorji_interop` elsewhere):
//! the non-struct cbor cases of the golden vectors, encoded from a Rust
//! value of the matching type under the case's options, must give ugorji's
//! bytes; ugorji's bytes must decode. Divergences by rule (indefinite text
//! chunks never split inside a UTF-8 character) are checked as such.
//!
//! Reads `CODEC_CBOR_VECTORS` (default: tests/data/ugorji-interop-cbor.jsonl).

mod common;

use codec_cbor::CborHandle;
use codec_core::{
    Encode, EncodeFormat, Encoder, ErrorKind, Result, Time, Value, Write, from_slice, to_vec,
};
use common::{Json, data_path, hex, parse_json, unhex};
use std::collections::BTreeMap;

/// A Go value with its static type, as far as encoding cares.
enum Go {
    V(Value),
    Time(Time),
    Arr(Vec<Go>),
    Fixed(Vec<u8>),
    MapS(BTreeMap<String, Go>),
    MapI(BTreeMap<i64, Go>),
    MapU(BTreeMap<u64, Go>),
}

impl Encode for Go {
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        match self {
            Go::V(v) => v.encode(e),
            Go::Time(t) => t.encode(e),
            Go::Arr(a) => a.encode(e),
            Go::Fixed(b) => b.encode(e),
            Go::MapS(m) => m.encode(e),
            Go::MapI(m) => m.encode(e),
            Go::MapU(m) => m.encode(e),
        }
    }
}

fn typed(j: &Json) -> Go {
    let Json::Obj(m) = j else { panic!("TYPED") };
    let (k, v) = &m[0];
    let s = || v.str().expect("string").to_owned();
    match k.as_str() {
        "nil" => Go::V(Value::Nil),
        "bool" => Go::V(Value::Bool(*v == Json::Bool(true))),
        "int" => Go::V(Value::Int(s().parse().expect("int"))),
        "uint" => Go::V(Value::Uint(s().parse().expect("uint"))),
        "f32" => {
            let bits = u32::from_str_radix(j.get("bits").and_then(Json::str).expect("bits"), 16);
            Go::V(Value::F32(f32::from_bits(bits.expect("hex"))))
        }
        "f64" => {
            let bits = u64::from_str_radix(j.get("bits").and_then(Json::str).expect("bits"), 16);
            Go::V(Value::F64(f64::from_bits(bits.expect("hex"))))
        }
        "str" => Go::V(Value::Str(s().into())),
        "bytes" => Go::Fixed(unhex(&s())),
        "time" => Go::Time(Time::parse_rfc3339(&s()).expect("time")),
        "array" => {
            let Json::Arr(a) = v else { panic!("array") };
            Go::Arr(a.iter().map(typed).collect())
        }
        "map" => {
            let Json::Arr(pairs) = v else { panic!("map") };
            let kv: Vec<(&Json, &Json)> = pairs
                .iter()
                .map(|p| match p {
                    Json::Arr(kv) => (&kv[0], &kv[1]),
                    _ => panic!("pair"),
                })
                .collect();
            let key_kind = |k: &Json| match k {
                Json::Obj(m) => m[0].0.clone(),
                _ => panic!("key"),
            };
            let first = kv.first().map(|(k, _)| key_kind(k)).unwrap_or("str".into());
            match first.as_str() {
                "int" => Go::MapI(
                    kv.iter()
                        .map(|(k, v)| {
                            (
                                k.get("int")
                                    .and_then(Json::str)
                                    .expect("k")
                                    .parse()
                                    .expect("i"),
                                typed(v),
                            )
                        })
                        .collect(),
                ),
                "uint" => Go::MapU(
                    kv.iter()
                        .map(|(k, v)| {
                            (
                                k.get("uint")
                                    .and_then(Json::str)
                                    .expect("k")
                                    .parse()
                                    .expect("u"),
                                typed(v),
                            )
                        })
                        .collect(),
                ),
                _ => Go::MapS(
                    kv.iter()
                        .map(|(k, v)| {
                            (
                                k.get("str").and_then(Json::str).expect("k").to_owned(),
                                typed(v),
                            )
                        })
                        .collect(),
                ),
            }
        }
        other => panic!("TYPED kind {other}"),
    }
}

fn handle(options: &Json) -> CborHandle {
    let on = |k: &str| options.get(k) == Some(&Json::Bool(true));
    CborHandle::default()
        .canonical(on("Canonical"))
        .optimum_size(on("OptimumSize"))
        .indefinite_length(on("IndefiniteLength"))
        .time_rfc3339(on("TimeRFC3339"))
}

#[test]
fn ugorji_vectors_dev() {
    let path = data_path("CODEC_CBOR_VECTORS", "ugorji-interop-cbor.jsonl");
    let text = std::fs::read_to_string(path).expect("vectors");
    let (mut passed, mut by_rule, mut failed) = (0, 0, Vec::new());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case = parse_json(line);
        if case.get("handle").and_then(Json::str) != Some("cbor")
            || case.get("category").and_then(Json::str) == Some("struct")
        {
            continue;
        }
        let id = case.get("id").and_then(Json::str).expect("id").to_owned();
        let h = handle(case.get("options").expect("options"));
        let want = unhex(case.get("hex").and_then(Json::str).expect("hex"));
        let value = typed(case.get("value").expect("value"));
        let got = match to_vec(&value, &h) {
            Ok(b) => b,
            Err(e) => {
                failed.push(format!("{id}: encode error {e}"));
                continue;
            }
        };
        if got == want {
            match from_slice::<Value, _>(&want, &h) {
                Ok(_) => passed += 1,
                Err(e) => failed.push(format!("{id}: decode error {e}")),
            }
            continue;
        }
        // By rule: ugorji split a UTF-8 character across chunks; our chunks
        // are all valid, our bytes decode to the same text, and a strict
        // decoder (ours) rejects ugorji's.
        let ours: std::result::Result<Value, _> = from_slice(&got, &h);
        let theirs: std::result::Result<Value, _> = from_slice(&want, &h);
        match (ours, theirs) {
            (Ok(Value::Str(_)), Err(e))
                if h.indefinite_length && matches!(e.kind(), ErrorKind::InvalidUtf8) =>
            {
                by_rule += 1;
                println!("  by rule (UTF-8 kept whole in chunks): {id}");
            }
            _ => failed.push(format!("{id}: got {} want {}", hex(&got), hex(&want))),
        }
    }
    println!(
        "ugorji_vectors_dev cbor: {passed} passed, {by_rule} divergent by rule, {} failed",
        failed.len()
    );
    for f in &failed {
        println!("  FAIL {f}");
    }
    assert!(failed.is_empty());
}
