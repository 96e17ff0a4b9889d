//! Regression tests from the hardening work: error offsets and the symbol limit.

use codec_binc::BincHandle;
use codec_core::{ErrorKind, Handle, Value, from_slice};

#[test]
fn type_mismatch_points_at_the_descriptor() {
    // [1, "ab"] into Vec<u32>: the string's descriptor is at byte 2.
    let h = BincHandle::default();
    let bytes = codec_core::to_vec(&(1u32, "ab"), &h).unwrap();
    let err = from_slice::<Vec<u32>, _>(&bytes, &h).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::TypeMismatch {
                expected: "u32",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(err.offset(), Some(2), "{err}");
    assert_eq!(err.path_string(), "[1]");
}

#[test]
fn symbol_table_is_limited() {
    // Four map keys written as symbols: a limit of 3 refuses the fourth definition.
    let h = BincHandle::default().as_symbols(true);
    let m: std::collections::BTreeMap<String, u8> = ["aa", "bb", "cc", "dd"]
        .iter()
        .map(|k| (k.to_string(), 1))
        .collect();
    let bytes = codec_core::to_vec(&m, &h).unwrap();
    assert!(from_slice::<Value, _>(&bytes, &h).is_ok());
    let limited = h.clone().max_symbols(3);
    assert_eq!(limited.dec_format().symbol_count(), 0);
    let err = from_slice::<Value, _>(&bytes, &limited).unwrap_err();
    match err.kind() {
        ErrorKind::LengthLimitExceeded {
            limit: "max_symbols",
            len: 4,
            max: 3,
        } => {}
        other => panic!("{other:?}: {err}"),
    }
    assert!(err.offset().is_some(), "{err}");
    assert!(err.to_string().contains("exceeds max_symbols (3)"), "{err}");
    // Referring to a defined symbol again does not count.
    assert!(from_slice::<Value, _>(&bytes, &h.clone().max_symbols(4)).is_ok());
}

#[test]
fn declared_length_past_the_input_is_eof_at_its_end() {
    // An array header claiming 15 items, then one byte.
    let err = from_slice::<Value, _>(&[0x60, 0x0f, 0x90], &BincHandle::default()).unwrap_err();
    assert!(err.is_eof(), "{err}");
    assert_eq!(err.offset(), Some(3), "{err}");
}
