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

/// An `f32` target rounds a double or an integer to the nearest `f32`, and
/// refuses one beyond the `f32` range instead of turning it into infinity
/// (as msgpack, binc, simple and JSON do).
#[test]
fn f32_targets_refuse_finite_values_beyond_their_range() {
    let h = CborHandle::default();
    let double = |v: f64| {
        let mut b = vec![0xfb];
        b.extend_from_slice(&v.to_be_bytes());
        b
    };
    assert_eq!(from_slice::<f32, _>(&double(1.5), &h).unwrap(), 1.5);
    assert_eq!(from_slice::<f32, _>(&double(0.1), &h).unwrap(), 0.1f32);
    assert_eq!(
        from_slice::<f32, _>(&double(f64::INFINITY), &h).unwrap(),
        f32::INFINITY
    );
    assert!(
        from_slice::<f32, _>(&double(f64::NAN), &h)
            .unwrap()
            .is_nan()
    );
    for big in [1e39, -1e300, f64::MAX] {
        let e = from_slice::<f32, _>(&double(big), &h).unwrap_err();
        assert!(
            matches!(e.kind(), codec_core::ErrorKind::OutOfRange { .. }),
            "{big}: {e}"
        );
    }
    // A bignum beyond the f32 range (tag 2, 16 bytes of 0xff = 2^128 - 1).
    let mut big = vec![0xc2, 0x50];
    big.extend_from_slice(&[0xff; 16]);
    assert!(from_slice::<f32, _>(&big, &h).is_err());
    // A half float and a single float come back exactly.
    assert_eq!(from_slice::<f32, _>(&[0xf9, 0x3e, 0x00], &h).unwrap(), 1.5);
    assert_eq!(
        from_slice::<f32, _>(&[0xfa, 0x7f, 0x7f, 0xff, 0xff], &h).unwrap(),
        f32::MAX
    );
}
