//! Regression tests from the hardening work.

use codec_cbor::CborHandle;
use codec_core::{Value, from_reader, from_slice};

#[test]
fn negative_head_without_argument_is_eof_at_the_end_from_slice_and_reader() {
    let h = CborHandle::default();
    let input = [0x3b];
    let a = from_slice::<Value, _>(&input, &h).unwrap_err();
    let b = from_reader::<Value, _, _>(&input[..], &h).unwrap_err();
    assert!(a.is_eof() && b.is_eof(), "{a} / {b}");
    assert_eq!(a.offset(), Some(1), "{a}");
    assert_eq!(b.offset(), Some(1), "{b}");
}

#[test]
fn fractional_time_round_trips_within_float_precision() {
    // Found by cargo-fuzz: tag 0 with a far-past date and nanoseconds. It
    // re-encodes as tag 1 with a float, which keeps only microseconds here.
    let input = b"\xc0\x78\x1e1010-03-04T05:05:06.123456789Z";
    let h = CborHandle::default();
    let v: Value = from_slice(input, &h).unwrap();
    let again: Value = from_slice(&codec_core::to_vec(&v, &h).unwrap(), &h).unwrap();
    match (v, again) {
        (Value::Time(a), Value::Time(b)) => {
            assert_eq!(a.unix_seconds(), b.unix_seconds());
            assert!(
                (a.unix_nanos() - b.unix_nanos()).abs() < 10_000,
                "{a:?} {b:?}"
            );
        }
        other => panic!("{other:?}"),
    }
}
