//! JSONTestSuite (`test_parsing`): `y_` files must decode into `Value`, `n_`
//! files must be rejected, `i_` files may go either way; nothing may panic.
//!
//! The folder is `CODEC_JSON_SUITE`, or `tests/data/test_parsing` by default.
//! Each file is checked three ways that must agree: decoding into `Value`
//! from a slice, from an `io::Read`, and skipping it (the validating skipper).
//! The skipper checks syntax only, so it may accept what decoding rejects as
//! out of range (`1e400`), and nothing else.

use codec_core::{ErrorKind, Handle, Value, from_reader, from_slice};
use codec_json::JsonHandle;
use std::path::PathBuf;

fn suite_dir() -> PathBuf {
    match std::env::var_os("CODEC_JSON_SUITE") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/test_parsing"),
    }
}

/// Decodes `bytes` three ways; returns the slice outcome, or a message when the ways disagree.
fn check(h: &JsonHandle, bytes: &[u8]) -> Result<bool, String> {
    let by_slice = from_slice::<Value, _>(bytes, h);
    let by_reader = from_reader::<Value, _, _>(bytes, h);
    let mut d = h.decoder(bytes);
    let by_skip = d.skip().and_then(|_| d.finish());
    match (&by_slice, &by_reader) {
        (Ok(a), Ok(b)) if a != b => return Err(format!("slice {a} != reader {b}")),
        (Ok(_), Err(e)) | (Err(e), Ok(_)) => {
            return Err(format!("slice and reader disagree: {e}"));
        }
        _ => {}
    }
    let agree = match (&by_slice, &by_skip) {
        (Ok(_), Ok(_)) | (Err(_), Err(_)) => true,
        (Err(e), Ok(_)) => matches!(e.kind(), ErrorKind::OutOfRange { .. }),
        (Ok(_), Err(_)) => false,
    };
    if !agree {
        return Err(format!(
            "decode {:?} but skip {:?}",
            by_slice.as_ref().err(),
            by_skip.err()
        ));
    }
    Ok(by_slice.is_ok())
}

#[test]
fn json_test_suite() {
    let dir = suite_dir();
    let h = JsonHandle::default();
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    entries.sort();
    let (mut passed, mut failed) = (0, 0);
    let mut failures = Vec::new();
    let (mut i_accepted, mut i_rejected) = (0, 0);
    for path in &entries {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(path).unwrap();
        let outcome = check(&h, &bytes);
        let ok = match (name.as_bytes().first(), &outcome) {
            (_, Err(_)) => false,
            (Some(b'y'), Ok(accepted)) => *accepted,
            (Some(b'n'), Ok(accepted)) => !*accepted,
            (Some(b'i'), Ok(accepted)) => {
                if *accepted {
                    i_accepted += 1;
                } else {
                    i_rejected += 1;
                }
                true
            }
            _ => continue,
        };
        if ok {
            passed += 1;
        } else {
            failed += 1;
            let why = match &outcome {
                Err(m) => m.clone(),
                Ok(_) => format!("{:?}", from_slice::<Value, _>(&bytes, &h).err()),
            };
            failures.push(format!("{name}: {why}"));
        }
    }
    println!("json_test_suite: {passed} passed, {failed} failed");
    println!("  (i_ files: {i_accepted} accepted, {i_rejected} rejected)");
    for f in &failures {
        println!("  FAIL {f}");
    }
    assert!(passed > 0, "no test files found in {}", dir.display());
    assert_eq!(failed, 0, "{failures:#?}");
}
