//! Regression tests from the hardening work: error offsets.

use codec_core::{ErrorKind, Value, from_slice};
use codec_simple::SimpleHandle;

#[test]
fn type_mismatch_points_at_the_descriptor() {
    let h = SimpleHandle::default();
    let bytes = codec_core::to_vec(&(1u32, "ab"), &h).unwrap();
    let at = bytes.len() - 4; // descriptor, length, 'a', 'b'
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
    assert_eq!(err.offset(), Some(at as u64), "{err}");
    assert_eq!(err.path_string(), "[1]");
}

#[test]
fn declared_length_past_the_input_is_eof_at_its_end() {
    // An array header claiming 16 items, then one byte.
    let err = from_slice::<Value, _>(&[0xe9, 0x10, 0x08], &SimpleHandle::default()).unwrap_err();
    assert!(err.is_eof(), "{err}");
    assert_eq!(err.offset(), Some(3), "{err}");
}
