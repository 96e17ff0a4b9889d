//! Development check against ugorji's golden vectors (the binc cases of
//! `ugorji-interop.jsonl`): for every case whose Go type is a scalar, string,
//! bytes, slice, map or time, encoding the value gives exactly ugorji's bytes,
//! decoding them gives the value back (or what ugorji gives back), and decoding
//! them into `Value` gives ugorji's `interface{}` result. Structs come through
//! the derive and are checked by the facade's interop harness.
//!
//! Reads `$CODEC_VECTORS`, default `../shared/vectors/ugorji-interop.jsonl`
//! relative to the workspace root; skips with a note when the file is absent.

mod common;

use codec_binc::BincHandle;
use codec_core::{
    Decode, Encode, Handle, Time, Value, from_reader, from_slice, from_value, to_value, to_vec,
};
use common::*;
use std::collections::BTreeMap;

fn handle_for(case: &serde_json::Value) -> BincHandle {
    let opts = &case["options"];
    for (k, _) in opts.as_object().expect("options object") {
        assert!(
            matches!(k.as_str(), "Canonical" | "AsSymbols"),
            "{}: unknown option {k}",
            case["id"]
        );
    }
    BincHandle::default()
        .canonical(opts["Canonical"].as_bool().unwrap_or(false))
        .as_symbols(opts["AsSymbols"].as_u64() == Some(1))
}

/// Encodes `v` as a `T`, compares the bytes, decodes them back.
fn check_typed<T>(
    case: &serde_json::Value,
    h: &BincHandle,
    v: &Value,
    want: &[u8],
) -> Result<(), String>
where
    T: Encode + for<'de> Decode<'de>,
{
    let id = &case["id"];
    // A Go nil slice or map is Option::None in Rust.
    if v.is_nil() {
        let got = to_vec(&None::<T>, h).map_err(|e| format!("{id}: encode nil: {e}"))?;
        if got != want {
            return Err(format!("{id}: nil encoded as {}", tohex(&got)));
        }
        let back: Option<T> = from_slice(want, h).map_err(|e| format!("{id}: decode: {e}"))?;
        return match back {
            None => Ok(()),
            Some(_) => Err(format!("{id}: nil decoded as Some")),
        };
    }
    let typed: T = from_value(v).map_err(|e| format!("{id}: TYPED -> Rust: {e}"))?;
    let got = to_vec(&typed, h).map_err(|e| format!("{id}: encode: {e}"))?;
    if got != want {
        return Err(format!(
            "{id}: encoded {} want {}",
            tohex(&got),
            tohex(want)
        ));
    }
    let back: T = from_slice(want, h).map_err(|e| format!("{id}: decode: {e}"))?;
    let rt = &case["roundtrip_same_type"];
    let expected = if rt["equal"] == false {
        let ev = typed_to_value(&rt["value"]).ok_or_else(|| format!("{id}: roundtrip value"))?;
        to_value(&from_value::<T>(&ev).map_err(|e| format!("{id}: {e}"))?)
    } else {
        to_value(&typed)
    }
    .map_err(|e| format!("{id}: {e}"))?;
    let back = to_value(&back).map_err(|e| format!("{id}: {e}"))?;
    if normalize_dynamic(&back) != normalize_dynamic(&expected) {
        return Err(format!("{id}: decoded back {back} want {expected}"));
    }
    Ok(())
}

/// Runs `check_typed` with the Rust type named by the case's `rust_hint`.
fn dispatch(
    case: &serde_json::Value,
    h: &BincHandle,
    v: &Value,
    want: &[u8],
) -> Result<(), String> {
    macro_rules! hints {
        ($hint:expr, $($name:literal => $t:ty),* $(,)?) => {
            match $hint {
                $($name => check_typed::<$t>(case, h, v, want),)*
                other => Err(format!("{}: no Rust type for hint {other}", case["id"])),
            }
        };
    }
    let hint = case["rust_hint"].as_str().unwrap_or_default();
    hints!(hint,
        "Option<T> (None) / Value::Nil" => Value,
        "Option<i64>" => Option<i64>,
        "bool" => bool,
        "i8" => i8, "i16" => i16, "i32" => i32, "i64" => i64,
        "u8" => u8, "u16" => u16, "u32" => u32, "u64" => u64,
        "f32" => f32, "f64" => f64,
        "String" => String,
        "Vec<u8>" => Vec<u8>, "[u8; 4]" => [u8; 4],
        "Vec<i64>" => Vec<i64>, "[i64; 3]" => [i64; 3], "Vec<u64>" => Vec<u64>,
        "Vec<f32>" => Vec<f32>, "Vec<bool>" => Vec<bool>, "Vec<String>" => Vec<String>,
        "Vec<Vec<i64>>" => Vec<Vec<i64>>, "Vec<Value>" => Vec<Value>,
        "BTreeMap<String,String>" => BTreeMap<String, String>,
        "BTreeMap<String,i64>" => BTreeMap<String, i64>,
        "BTreeMap<String,Value>" => BTreeMap<String, Value>,
        "BTreeMap<String,BTreeMap<String,i64>>" => BTreeMap<String, BTreeMap<String, i64>>,
        "BTreeMap<i64,String>" => BTreeMap<i64, String>,
        "BTreeMap<u64,bool>" => BTreeMap<u64, bool>,
        "BTreeMap<Value,Value>" => BTreeMap<Value, Value>,
        "DateTime<FixedOffset>" => Time,
    )
}

#[test]
fn ugorji_vectors_binc() {
    let Some(cases) = vectors("binc") else { return };
    let (mut passed, mut skipped, mut struct_dynamic) = (0, 0, 0);
    let mut failures = Vec::new();
    for case in &cases {
        if case["category"] == "struct" {
            // Only the dynamic decoding here; typed structs need the derive.
            let h = handle_for(case);
            let want = unhex(case["hex"].as_str().unwrap());
            let dynamic = typed_to_value(&case["decoded_dynamic"]).expect("decoded_dynamic");
            match from_slice::<Value, _>(&want, &h) {
                Ok(got) if normalize_dynamic(&got) == normalize_dynamic(&dynamic) => {
                    struct_dynamic += 1
                }
                Ok(got) => failures.push(format!("{}: dynamic {got} want {dynamic}", case["id"])),
                Err(e) => failures.push(format!("{}: dynamic decode: {e}", case["id"])),
            }
            skipped += 1;
            continue;
        }
        let h = handle_for(case);
        let want = unhex(case["hex"].as_str().unwrap());
        let v = typed_to_value(&case["value"]).expect("non-struct TYPED converts");
        let mut result = dispatch(case, &h, &v, &want);
        if result.is_ok() {
            // Dynamic decoding matches ugorji's interface{} result.
            let dynamic = typed_to_value(&case["decoded_dynamic"]).expect("decoded_dynamic");
            result = match from_slice::<Value, _>(&want, &h) {
                Ok(got) if normalize_dynamic(&got) == normalize_dynamic(&dynamic) => Ok(()),
                Ok(got) => Err(format!("{}: dynamic {got} want {dynamic}", case["id"])),
                Err(e) => Err(format!("{}: dynamic decode: {e}", case["id"])),
            };
        }
        match result {
            Ok(()) => passed += 1,
            Err(e) => failures.push(e),
        }
    }
    eprintln!(
        "binc vectors (dev): {passed} passed, {} failed; {skipped} struct cases left to the derive \
         ({struct_dynamic} of them decode into Value as ugorji's interface{{}})",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(passed > 0);
}

/// Every vector (structs too) decodes into `Value` the same from a slice and
/// from a reader that delivers one byte per call.
#[test]
fn vectors_decode_the_same_through_io_reader() {
    let Some(cases) = vectors("binc") else { return };
    let h = BincHandle::default();
    for case in &cases {
        let bytes = unhex(case["hex"].as_str().unwrap());
        let a: Value = from_slice(&bytes, &h).unwrap_or_else(|e| panic!("{}: {e}", case["id"]));
        let b: Value = from_reader(Trickle::new(&bytes), &h).unwrap();
        assert_eq!(a, b, "{}", case["id"]);
        // And through a plain IoReader over the whole slice, with skip.
        let mut d = h.io_decoder(Trickle::new(&bytes));
        d.skip().unwrap();
        assert!(d.at_end().unwrap());
    }
}

/// Every strict prefix of every vector is an error, never a panic.
#[test]
fn every_strict_prefix_is_an_error() {
    let Some(cases) = vectors("binc") else { return };
    let h = BincHandle::default();
    let mut n = 0;
    for case in &cases {
        let bytes = unhex(case["hex"].as_str().unwrap());
        for cut in 0..bytes.len() {
            let p = &bytes[..cut];
            assert!(
                from_slice::<Value, _>(p, &h).is_err(),
                "{} prefix {cut}",
                case["id"]
            );
            assert!(
                h.decoder(p).skip().is_err(),
                "{} skip prefix {cut}",
                case["id"]
            );
            n += 1;
        }
    }
    eprintln!("binc: {n} strict prefixes rejected");
}
