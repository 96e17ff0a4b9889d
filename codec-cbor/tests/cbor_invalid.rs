//! Inputs that must fail (RFC 8949 Appendix F and others), each with the
//! right kind of error and no panic.
//!
//! Reads `CODEC_CBOR_INVALID` (default: tests/data/invalid.json).

mod common;

use codec_cbor::CborHandle;
use codec_core::{ErrorKind, Value, from_reader, from_slice};
use common::{Json, data_path, parse_json, unhex};

fn kind_ok(kind: &str, e: &ErrorKind) -> bool {
    matches!(
        (kind, e),
        ("truncated", ErrorKind::UnexpectedEof)
            | ("syntax", ErrorKind::Syntax(_))
            | ("trailing-data", ErrorKind::TrailingData)
            | ("invalid-utf8", ErrorKind::InvalidUtf8)
    )
}

#[test]
fn cbor_invalid() {
    let path = data_path("CODEC_CBOR_INVALID", "invalid.json");
    let text = std::fs::read_to_string(&path).expect("read invalid.json");
    let Json::Arr(cases) = parse_json(&text) else {
        panic!("invalid.json is not an array");
    };
    let handles = [
        CborHandle::default(),
        CborHandle::default().skip_unexpected_tags(true),
    ];
    let (mut passed, mut failed) = (0, Vec::new());
    for case in &cases {
        let h = case.get("hex").and_then(Json::str).expect("hex");
        let kind = case.get("kind").and_then(Json::str).expect("kind");
        let bytes = unhex(h);
        let mut problems = Vec::new();
        for handle in &handles {
            match from_slice::<Value, _>(&bytes, handle) {
                Ok(v) => problems.push(format!("accepted as {v}")),
                Err(e) if !kind_ok(kind, e.kind()) => {
                    problems.push(format!("wrong error kind for {kind}: {e}"))
                }
                Err(_) => {}
            }
            // The same through an io::Read.
            match from_reader::<Value, _, _>(&bytes[..], handle) {
                Ok(v) => problems.push(format!("reader accepted as {v}")),
                Err(e) if !kind_ok(kind, e.kind()) => {
                    problems.push(format!("reader: wrong error kind for {kind}: {e}"))
                }
                Err(_) => {}
            }
            // Skipping must reject it too (except bad UTF-8, which skip does not check).
            if kind != "invalid-utf8" && kind != "trailing-data" {
                let mut d = codec_core::Handle::decoder(handle, &bytes);
                if d.skip().and_then(|()| d.finish()).is_ok() {
                    problems.push("skip accepted it".into());
                }
            }
            if kind == "invalid-utf8" {
                match from_slice::<String, _>(&bytes, handle) {
                    Err(e) if matches!(e.kind(), ErrorKind::InvalidUtf8) => {}
                    other => problems.push(format!("String: {other:?}")),
                }
            }
        }
        if problems.is_empty() {
            passed += 1;
        } else {
            failed.push(format!("{h} ({kind}): {}", problems.join("; ")));
        }
    }
    println!("cbor_invalid: {passed} passed, {} failed", failed.len());
    for f in &failed {
        println!("  FAIL {f}");
    }
    assert!(
        failed.is_empty(),
        "{} invalid inputs were not rejected right",
        failed.len()
    );
}
