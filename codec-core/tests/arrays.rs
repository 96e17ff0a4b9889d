//! Fixed-size arrays: the in-place fast path for numbers and the general path
//! agree on values, lengths and errors.

use codec_core::{DecodeOptions, ErrorKind, Value, from_value, from_value_with, to_value};

#[test]
fn numeric_arrays_round_trip() {
    let v = to_value(&[1.5f32, -0.0, f32::MAX]).unwrap();
    let back: [f32; 3] = from_value(&v).unwrap();
    assert_eq!(
        back.map(f32::to_bits),
        [1.5f32, -0.0, f32::MAX].map(f32::to_bits)
    );
    let ints: [i64; 4] = from_value(&to_value(&[i64::MIN, -1, 0, i64::MAX]).unwrap()).unwrap();
    assert_eq!(ints, [i64::MIN, -1, 0, i64::MAX]);
    let nested: [[u16; 2]; 2] = from_value(&to_value(&[[1u16, 2], [3, 4]]).unwrap()).unwrap();
    assert_eq!(nested, [[1, 2], [3, 4]]);
    let flags: [bool; 2] = from_value(&to_value(&[true, false]).unwrap()).unwrap();
    assert_eq!(flags, [true, false]);
    // A non-numeric item type takes the general path.
    let words: [String; 2] = from_value(&to_value(&["a", "b"]).unwrap()).unwrap();
    assert_eq!(words, ["a", "b"]);
}

#[test]
fn short_arrays_are_an_error_naming_the_lengths() {
    let v = Value::Array(vec![Value::F64(1.0), Value::F64(2.0)]);
    for err in [
        from_value::<[f64; 3]>(&v).unwrap_err(),
        from_value::<[String; 3]>(&Value::Array(vec![Value::from("a"), Value::from("b")]))
            .unwrap_err(),
    ] {
        match err.kind() {
            ErrorKind::InvalidLength {
                expected: 3,
                found: 2,
            } => {}
            other => panic!("unexpected {other:?}"),
        }
    }
}

#[test]
fn item_errors_carry_the_index_and_long_arrays_follow_the_option() {
    let v = Value::Array(vec![Value::Uint(1), Value::from("x"), Value::Uint(3)]);
    let err = from_value::<[u32; 3]>(&v).unwrap_err();
    assert_eq!(err.path_string(), "[1]");
    let long = Value::Array(vec![Value::Uint(1), Value::Uint(2), Value::Uint(3)]);
    assert_eq!(from_value::<[u8; 2]>(&long).unwrap(), [1, 2]);
    assert_eq!(from_value::<[u32; 2]>(&long).unwrap(), [1, 2]);
    let mut strict = DecodeOptions::default();
    strict.error_on_array_overflow = true;
    assert!(from_value_with::<[u32; 2]>(&long, strict).is_err());
}
