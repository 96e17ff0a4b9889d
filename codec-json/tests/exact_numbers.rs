//! Numbers for integer targets are taken only when their value is exactly
//! an integer in the target's range, however they are written (long
//! mantissas, fractions of zeros, exponents), and alike from a slice and
//! from readers; `-0` keeps its sign in a float target.

use codec_core::{Decode, DecodeOwned, ErrorKind, Result, from_reader, from_slice};
use codec_json::JsonHandle;
use codec_test_support::OneByte;
use std::fmt::Debug;

/// `text` decoded into `T` from a slice (as it stands and followed by a
/// space), from a reader and from a reader handing out one byte at a time,
/// and quoted (`"text"`, which ugorji reads as the number): all must agree.
fn decode<T: for<'de> Decode<'de> + DecodeOwned + PartialEq + Debug>(text: &str) -> Result<T> {
    let h = JsonHandle::default();
    let slice = from_slice::<T, _>(text.as_bytes(), &h);
    let shown = |r: &Result<T>| match r {
        Ok(v) => format!("Ok({v:?})"),
        Err(e) => format!("Err({:?})", std::mem::discriminant(e.kind())),
    };
    let spaced = format!("{text} ");
    let quoted = format!("\"{text}\"");
    let others = [
        ("spaced", from_slice::<T, _>(spaced.as_bytes(), &h)),
        ("reader", from_reader::<T, _, _>(text.as_bytes(), &h)),
        (
            "one byte",
            from_reader::<T, _, _>(OneByte(text.as_bytes()), &h),
        ),
        ("quoted", from_slice::<T, _>(quoted.as_bytes(), &h)),
    ];
    for (how, r) in others {
        assert_eq!(shown(&r), shown(&slice), "{text} ({how})");
    }
    slice
}

/// `text` must be an out-of-range error for `T`.
fn rejected<T: for<'de> Decode<'de> + DecodeOwned + PartialEq + Debug>(text: &str) {
    match decode::<T>(text) {
        Err(e) => assert!(
            matches!(e.kind(), ErrorKind::OutOfRange { .. }),
            "{text} into {}: {e}",
            std::any::type_name::<T>()
        ),
        Ok(v) => panic!("{text} into {}: {v:?}", std::any::type_name::<T>()),
    }
}

#[test]
fn long_non_integers_are_not_rounded_into_integers() {
    // The message does not pass the rounded value off as the number.
    let e = from_slice::<u8, _>(b"1.0000000000000000000001", &JsonHandle::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "number 1.0 (rounded from a longer decimal) does not fit in u8 (line 1, column 1, byte 0)"
    );
    rejected::<u8>("1.0000000000000000000001");
    rejected::<u64>("0.99999999999999999999");
    rejected::<i64>("925020680700728.99999");
    rejected::<u8>("1000000000000000000000000000000e-99999999999999999999");
    rejected::<i128>("1000000000000000000000000000000e-31");
    rejected::<u32>("4294967295.00000000000000000001");
    rejected::<i32>("-2.0000000000000000000000000000000000000000000000001");
    rejected::<u128>("340282366920938463463374607431768211455.5");
    rejected::<i16>("-0.000000000000000000001");
    rejected::<u16>("12345678901234567890123e-20");
    // Thousands of digits (a reader gathers at most 4096), a fraction at
    // the very end.
    rejected::<u64>(&format!("1.{}1", "0".repeat(4000)));
    rejected::<u64>(&format!("1.{}1e4000", "0".repeat(4000)));
    rejected::<u64>(&format!(
        "1{}.{}1e-3000",
        "0".repeat(2000),
        "0".repeat(1000)
    ));
}

#[test]
fn exact_integers_in_float_form_keep_their_value() {
    assert_eq!(decode::<u128>("2e38").unwrap(), 2 * 10u128.pow(38));
    assert_eq!(decode::<u128>("3.4e38").unwrap(), 34 * 10u128.pow(37));
    assert_eq!(
        decode::<i128>("1.8446744073709551616e19").unwrap(),
        1i128 << 64
    );
    assert_eq!(decode::<i64>("-9223372036854775808.0").unwrap(), i64::MIN);
    assert_eq!(
        decode::<u64>("12345678901234567890.0").unwrap(),
        12345678901234567890
    );
    assert_eq!(decode::<i64>("9223372036854775807.0e0").unwrap(), i64::MAX);
    assert_eq!(decode::<u64>("18446744073709551615.000").unwrap(), u64::MAX);
    assert_eq!(
        decode::<u128>("340282366920938463463374607431768211455.0").unwrap(),
        u128::MAX
    );
    assert_eq!(
        decode::<i128>("-1.70141183460469231731687303715884105728e38").unwrap(),
        i128::MIN
    );
    assert_eq!(decode::<u8>("100000000000000000000000e-21").unwrap(), 100);
    assert_eq!(decode::<u8>("0.000000000000000000000e5").unwrap(), 0);
    assert_eq!(decode::<i8>("-0.0000000000000000000000").unwrap(), 0);
    assert_eq!(decode::<i8>("-1.00000000000000000000e2").unwrap(), -100);
    assert_eq!(
        decode::<u64>(&format!("1{}e-4000", "0".repeat(4000))).unwrap(),
        1
    );
    assert_eq!(
        decode::<u64>(&format!("1{}.{}e-1999", "0".repeat(2000), "0".repeat(1000))).unwrap(),
        10
    );
    // Exact, but beyond the target.
    rejected::<u128>("3.5e38");
    rejected::<i128>("1.7014118346046923173168730371588410572800000001e38");
    rejected::<i64>("9223372036854775808.0");
    rejected::<u8>("256.000000000000000000000");
    rejected::<u32>("-1.00000000000000000000");
    rejected::<u64>("1e99999999999999999999");
    rejected::<u64>(&format!("1{}", "0".repeat(4000)));
}

#[test]
fn huge_exponents_and_long_mantissas_are_decided_quickly() {
    let h = JsonHandle::default();
    // As long as a decoded number may be (4096 bytes).
    let digits = "123456789".repeat(200);
    let texts = [
        format!("{digits}e-99999999999999999999999999999"),
        format!("0.{digits}e99999999999999999999999999999"),
        format!("{digits}.{digits}"),
        format!("1{}e-{}", "0".repeat(2_000), "9".repeat(2_000)),
        format!(
            "1{}.{}1e-99999999999999999999",
            "0".repeat(2_000),
            "0".repeat(2_000)
        ),
    ];
    let start = std::time::Instant::now();
    for text in &texts {
        assert!(text.len() <= 4096, "{}", text.len());
        let doc = format!("[{text}]");
        for _ in 0..100 {
            let e = from_slice::<Vec<u64>, _>(doc.as_bytes(), &h).unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }), "{e}");
            let e = from_slice::<Vec<i128>, _>(doc.as_bytes(), &h).unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }), "{e}");
            let e = from_reader::<Vec<u8>, _, _>(doc.as_bytes(), &h).unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }), "{e}");
        }
    }
    // Well under a second even unoptimized; a loop over the exponent's
    // value would not end.
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}

#[test]
fn minus_zero_keeps_its_sign_in_floats() {
    let h = JsonHandle::default();
    for text in ["-0", "-0.0", "-0e0", "-0E+5"] {
        let v = decode::<f64>(text).unwrap();
        assert_eq!(v.to_bits(), (-0.0f64).to_bits(), "{text}");
        let v = decode::<f32>(text).unwrap();
        assert_eq!(v.to_bits(), (-0.0f32).to_bits(), "{text}");
        // In an array, where the fast array readers take it.
        let doc = format!("[{text}, {text}]");
        for v in from_slice::<Vec<f64>, _>(doc.as_bytes(), &h).unwrap() {
            assert_eq!(v.to_bits(), (-0.0f64).to_bits(), "{doc}");
        }
        for v in from_slice::<[f32; 2], _>(doc.as_bytes(), &h).unwrap() {
            assert_eq!(v.to_bits(), (-0.0f32).to_bits(), "{doc}");
        }
        let v = from_reader::<Vec<f64>, _, _>(OneByte(doc.as_bytes()), &h).unwrap();
        assert!(
            v.iter().all(|v| v.to_bits() == (-0.0f64).to_bits()),
            "{doc}"
        );
    }
    // Integers have no negative zero; "0" stays positive.
    assert_eq!(decode::<i64>("-0").unwrap(), 0);
    assert_eq!(decode::<u64>("-0").unwrap(), 0);
    assert_eq!(decode::<f64>("0").unwrap().to_bits(), 0);
    assert_eq!(decode::<f32>("0").unwrap().to_bits(), 0);
}
