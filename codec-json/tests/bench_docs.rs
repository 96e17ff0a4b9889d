//! Round trips of the three standard benchmark documents through `Value`:
//! decode, encode, decode again: equal values (floats compared by bits, so
//! canada.json's 111,000 floats must re-encode exactly). Also: the same
//! values from an `io::Read`, including one that yields one byte per call,
//! and the same content and text through a `Document`.
//!
//! Folder: `CODEC_JSON_BENCH_DATA`, or `tests/data`.

use codec_core::{Document, Value, from_reader, from_slice, to_vec};
use codec_json::JsonHandle;
use codec_test_support::OneByte;
use std::path::PathBuf;

fn data(name: &str) -> Vec<u8> {
    let dir = match std::env::var_os("CODEC_JSON_BENCH_DATA") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data"),
    };
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn count_floats(v: &Value) -> usize {
    match v {
        Value::F64(_) => 1,
        Value::Array(a) => a.iter().map(count_floats).sum(),
        Value::Map(m) => m.iter().map(|(_, v)| count_floats(v)).sum(),
        _ => 0,
    }
}

fn round_trip(name: &str) -> Value {
    let h = JsonHandle::default();
    let input = data(name);
    let v: Value = from_slice(&input, &h).unwrap();
    let text = to_vec(&v, &h).unwrap();
    let again: Value = from_slice(&text, &h).unwrap();
    assert_eq!(v, again, "{name}: value changed through encode/decode");
    // Encoding is deterministic and stable after one pass.
    assert_eq!(to_vec(&again, &h).unwrap(), text);
    let by_reader: Value = from_reader(&input[..], &h).unwrap();
    assert_eq!(v, by_reader, "{name}: reader differs from slice");
    let by_bytes: Value = from_reader(OneByte(&input), &h).unwrap();
    assert_eq!(v, by_bytes, "{name}: one-byte reader differs from slice");
    // A `Document` holds the same and writes the same text.
    let doc: Document = from_slice(&input, &h).unwrap();
    assert_eq!(doc, v, "{name}: Document differs from Value");
    assert_eq!(
        to_vec(&doc, &h).unwrap(),
        text,
        "{name}: Document encodes differently"
    );
    let doc_by_bytes: Document = from_reader(OneByte(&input), &h).unwrap();
    assert_eq!(
        doc_by_bytes, doc,
        "{name}: one-byte reader differs from slice"
    );
    // Our output is JSON to another parser too.
    serde_json::from_slice::<serde_json::Value>(&text).expect("serde_json reads our output");
    v
}

#[test]
fn twitter_round_trips() {
    let v = round_trip("twitter.json");
    assert_eq!(
        v.get("statuses")
            .and_then(Value::as_array)
            .map(<[Value]>::len),
        Some(100)
    );
}

#[test]
fn citm_round_trips() {
    let v = round_trip("citm_catalog.json");
    assert!(v.get("performances").is_some());
}

#[test]
fn canada_round_trips_floats_exactly() {
    let v = round_trip("canada.json");
    let n = count_floats(&v);
    assert!(n > 100_000, "{n} floats");
    // Every float equals the correctly rounded reading of its text (std's parser).
    let text = String::from_utf8(data("canada.json")).unwrap();
    let mut expected = Vec::new();
    for tok in text.split(|c: char| {
        !(c.is_ascii_digit() || c == '.' || c == '-' || c == 'e' || c == 'E' || c == '+')
    }) {
        if tok.contains('.') {
            expected.push(tok.parse::<f64>().unwrap().to_bits());
        }
    }
    let mut got = Vec::new();
    fn walk(v: &Value, out: &mut Vec<u64>) {
        match v {
            Value::F64(f) => out.push(f.to_bits()),
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            Value::Map(m) => m.iter().for_each(|(_, x)| walk(x, out)),
            _ => {}
        }
    }
    walk(&v, &mut got);
    assert_eq!(got.len(), expected.len());
    assert!(got == expected, "a float was not correctly rounded");
}
