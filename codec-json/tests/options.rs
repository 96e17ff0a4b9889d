//! Output options and input rules not covered by the vectors.

use codec_core::{Time, Value, from_slice, to_vec};
use codec_json::{IntegerAsString, JsonHandle};
use std::collections::BTreeMap;

fn text<T: codec_core::Encode + ?Sized>(v: &T, h: &JsonHandle) -> String {
    String::from_utf8(to_vec(v, h).unwrap()).unwrap()
}

#[test]
fn escapes() {
    let h = JsonHandle::default();
    assert_eq!(
        text("a\u{2028}b\u{2029}\u{2027}<&>\u{7f}\u{1f}\u{8}\u{c}\r", &h),
        "\"a\\u2028b\\u2029\u{2027}\\u003c\\u0026\\u003e\u{7f}\\u001f\\b\\f\\r\""
    );
    let keep = JsonHandle::default().html_chars_as_is(true);
    assert_eq!(text("<&>\u{2028}", &keep), "\"<&>\\u2028\"");
    // Long strings cross the 8-byte fast path at every alignment.
    for n in 0..24 {
        let s = format!("{}\"{}", "x".repeat(n), "y".repeat(n));
        let back: String = from_slice(text(&s, &h).as_bytes(), &h).unwrap();
        assert_eq!(back, s);
    }
}

#[test]
fn indentation_and_trailers() {
    let v: Value = from_slice(br#"{"a":[1,[]],"b":{}}"#, &JsonHandle::default()).unwrap();
    assert_eq!(
        text(&v, &JsonHandle::default().indent(2)),
        "{\n  \"a\": [\n    1,\n    [\n    ]\n  ],\n  \"b\": {}\n}"
    );
    assert_eq!(
        text(&v, &JsonHandle::default().indent(-1)).lines().nth(1),
        Some("\t\"a\": [")
    );
    assert_eq!(
        text(&1u8, &JsonHandle::default().term_whitespace(true)),
        "1 "
    );
    assert_eq!(
        text(&v, &JsonHandle::default().trailing_newline(true))
            .matches('\n')
            .count(),
        1
    );
}

#[test]
fn keys_are_quoted_and_read_back() {
    let h = JsonHandle::default().integer_as_string(IntegerAsString::Always);
    let m: BTreeMap<i64, u64> = [(-1, 2), (3, 1 << 60)].into_iter().collect();
    let t = text(&m, &h);
    assert_eq!(t, r#"{"-1":"2","3":"1152921504606846976"}"#);
    assert_eq!(
        from_slice::<BTreeMap<i64, u64>, _>(t.as_bytes(), &h).unwrap(),
        m
    );
    let fk: BTreeMap<bool, f64> = [(true, 1.5)].into_iter().collect();
    assert_eq!(text(&fk, &JsonHandle::default()), r#"{"true":1.5}"#);
    // Value keys: strings by default, numbers with parse_quoted_keys.
    let src = br#"{"-3":"x","10":1,"true":2,"a":3}"#;
    let plain: Value = from_slice(src, &JsonHandle::default()).unwrap();
    assert_eq!(plain.as_map().unwrap()[0].0, Value::from("-3"));
    let parsed: Value = from_slice(src, &JsonHandle::default().parse_quoted_keys(true)).unwrap();
    let keys: Vec<_> = parsed
        .as_map()
        .unwrap()
        .iter()
        .map(|(k, _)| k.clone())
        .collect();
    assert_eq!(
        keys,
        vec![
            Value::Int(-3),
            Value::Uint(10),
            Value::Bool(true),
            Value::from("a")
        ]
    );
    // The option is for `Value`: typed keys that peek at their input
    // (bytes, `Value` inside a typed map) still get every entry.
    let h = JsonHandle::default().parse_quoted_keys(true);
    let bytes: BTreeMap<Vec<u8>, u8> = from_slice(br#"{"":2,"AQI=":1,"1234":3}"#, &h).unwrap();
    let want: BTreeMap<Vec<u8>, u8> = [(vec![], 2), (vec![1, 2], 1), (vec![0xd7, 0x6d, 0xf8], 3)]
        .into_iter()
        .collect();
    assert_eq!(bytes, want);
    assert_eq!(
        from_slice::<BTreeMap<Vec<u8>, u8>, _>(&to_vec(&want, &h).unwrap(), &h).unwrap(),
        want
    );
    let text: BTreeMap<String, u8> = from_slice(br#"{"10":1,"true":2,"x":3}"#, &h).unwrap();
    assert_eq!(text.keys().collect::<Vec<_>>(), ["10", "true", "x"]);
    assert!(from_slice::<BTreeMap<Vec<u8>, u8>, _>(br#"{"A":1}"#, &h).is_err());
    // An array, or a NaN, cannot be a key.
    let mut vm = Value::Map(vec![(Value::Array(vec![]), Value::Nil)]);
    assert!(to_vec(&vm, &JsonHandle::default()).is_err());
    vm = Value::Map(vec![(Value::F64(f64::NAN), Value::Nil)]);
    assert!(to_vec(&vm, &JsonHandle::default()).is_err());
}

#[test]
fn numbers_into_targets() {
    let h = JsonHandle::default();
    assert_eq!(from_slice::<u8, _>(b"1.5e1", &h).unwrap(), 15);
    assert!(from_slice::<u8, _>(b"256", &h).is_err());
    assert!(from_slice::<u8, _>(b"1.5", &h).is_err());
    assert!(from_slice::<u64, _>(b"-1", &h).is_err());
    assert_eq!(from_slice::<u32, _>(br#""42""#, &h).unwrap(), 42);
    assert!(from_slice::<u32, _>(br#""042""#, &h).is_err());
    assert!(from_slice::<bool, _>(br#""true""#, &h).is_err());
    assert_eq!(
        from_slice::<u128, _>(b"340282366920938463463374607431768211455", &h).unwrap(),
        u128::MAX
    );
    assert_eq!(
        from_slice::<i128, _>(b"-170141183460469231731687303715884105728", &h).unwrap(),
        i128::MIN
    );
    assert_eq!(
        text(&u128::MAX, &h),
        "340282366920938463463374607431768211455"
    );
    assert!(from_slice::<f64, _>(b"1e400", &h).is_err());
    assert!(from_slice::<f32, _>(b"1e39", &h).is_err());
    assert_eq!(from_slice::<f64, _>(b"null", &h).unwrap(), 0.0);
    assert_eq!(text(&f64::NAN, &h), "null");
    let v: Value = from_slice(
        b"[18446744073709551616, 1]",
        &JsonHandle::default().prefer_float(true),
    )
    .unwrap();
    assert_eq!(
        v,
        Value::Array(vec![Value::F64(18446744073709551616.0), Value::F64(1.0)])
    );
}

#[test]
fn bytes_times_and_borrowing() {
    let h = JsonHandle::default();
    assert_eq!(text(&vec![1u8, 2], &h), r#""AQI=""#);
    assert_eq!(
        from_slice::<Vec<u8>, _>(br#""AQI=""#, &h).unwrap(),
        vec![1, 2]
    );
    assert_eq!(from_slice::<Vec<u8>, _>(b"[1,2]", &h).unwrap(), vec![1, 2]);
    assert!(from_slice::<Vec<u8>, _>(br#""AQI""#, &h).is_err());
    let t = Time::parse_rfc3339("2019-12-31T16:00:00.5-08:00").unwrap();
    assert_eq!(text(&t, &h), r#""2019-12-31T16:00:00.5-08:00""#);
    assert_eq!(
        from_slice::<Time, _>(text(&t, &h).as_bytes(), &h).unwrap(),
        t
    );
    let input = br#"["plain","esc\"aped"]"#;
    let v: Vec<std::borrow::Cow<'_, str>> = from_slice(input, &h).unwrap();
    assert!(matches!(v[0], std::borrow::Cow::Borrowed("plain")));
    assert_eq!(v[1], "esc\"aped");
    // A string with an escape cannot be borrowed as &str.
    assert!(from_slice::<&str, _>(br#""a\nb""#, &h).is_err());
    assert_eq!(from_slice::<&str, _>(br#""ab""#, &h).unwrap(), "ab");
}

#[test]
fn streams() {
    let h = JsonHandle::default();
    let input = b" {\"a\":1}\n[2]\n\"x\" 3 \n";
    let all: Vec<Value> = h.stream_slice(input).collect::<Result<_, _>>().unwrap();
    assert_eq!(all.len(), 4);
    let by_reader: Vec<Value> = h
        .stream_reader(&input[..])
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(all, by_reader);
    let broken: Vec<_> = h.stream_slice::<Value>(b"1 [2, 3").collect();
    assert_eq!(broken.len(), 2);
    assert!(broken[0].is_ok() && broken[1].is_err());
    assert_eq!(h.stream_slice::<Value>(b"  \n ").count(), 0);
}

/// A number that is the whole document has no byte after it: integers are
/// read to the end in place, other numbers from a padded copy. Each gives
/// what the same number followed by a space gives (value, or error and
/// where), from a slice and from a reader.
#[test]
fn numbers_that_end_the_input() {
    let h = JsonHandle::default();
    let texts = [
        "0",
        "-0",
        "7",
        "-7",
        "01",
        "-",
        "-01",
        "12345",
        "-12345",
        "1.5",
        "-4.1",
        "1e3",
        "1E+2",
        "2.",
        "9223372036854775807",
        "-9223372036854775808",
        "9223372036854775808",
        "9999999999999999999",
        "10000000000000000000",
        "18446744073709551615",
        "18446744073709551616",
        "123456789012345678901",
        "1x",
        " 42",
        "42 ",
        "4 2",
    ];
    fn both<T: for<'de> codec_core::Decode<'de> + PartialEq + std::fmt::Debug>(
        text: &str,
        h: &JsonHandle,
    ) {
        let shown = |r: codec_core::Result<T>| r.map_err(|e| e.to_string());
        let want = shown(from_slice::<T, _>(format!("{text} ").as_bytes(), h));
        let got = shown(from_slice::<T, _>(text.as_bytes(), h));
        assert_eq!(got, want, "{text:?} from a slice");
        let got = shown(codec_core::from_reader::<T, _, _>(text.as_bytes(), h));
        assert_eq!(got, want, "{text:?} from a reader");
    }
    for text in texts {
        both::<u64>(text, &h);
        both::<i64>(text, &h);
        both::<u8>(text, &h);
        both::<i32>(text, &h);
        both::<f64>(text, &h);
        both::<f32>(text, &h);
    }
    assert_eq!(
        from_slice::<u64, _>(b"18446744073709551615", &h).unwrap(),
        u64::MAX
    );
    assert_eq!(from_slice::<i64, _>(b"-12345", &h).unwrap(), -12345);
}

/// A nil map key is written as the string "null" and read back as nil into
/// a key that takes it, from a slice and through a reader; other targets
/// see the text.
#[test]
fn nil_map_keys_round_trip() {
    let h = JsonHandle::default();
    let m: BTreeMap<Option<i32>, u8> = [(None, 2), (Some(1), 1)].into();
    let bytes = to_vec(&m, &h).unwrap();
    assert_eq!(bytes, br#"{"null":2,"1":1}"#);
    assert_eq!(
        from_slice::<BTreeMap<Option<i32>, u8>, _>(&bytes, &h).unwrap(),
        m
    );
    let spaced = br#"{ "1" : 1 ,  "null"  : 2 }"#;
    assert_eq!(
        codec_core::from_reader::<BTreeMap<Option<i32>, u8>, _, _>(&spaced[..], &h).unwrap(),
        m
    );
    let s: BTreeMap<Option<String>, u8> = [(None, 2), (Some("nul".into()), 1)].into();
    let bytes = to_vec(&s, &h).unwrap();
    assert_eq!(
        from_slice::<BTreeMap<Option<String>, u8>, _>(&bytes, &h).unwrap(),
        s
    );
    // Not a key that takes nil: the text.
    let v: BTreeMap<String, u8> = from_slice(&bytes, &h).unwrap();
    assert_eq!(v.keys().collect::<Vec<_>>(), ["nul", "null"]);
    // A value "null" string is a string, not nil.
    assert_eq!(
        from_slice::<Option<String>, _>(br#""null""#, &h).unwrap(),
        Some("null".to_string())
    );
}

/// `float32(1e-6)` is written in fixed notation, as ugorji compares a
/// float32 with its 1e-6 bound in float32, wherever an `f32` is written:
/// alone, in an `f32` array, in a `Value`.
#[test]
fn f32_on_the_fixed_notation_bound_is_fixed() {
    let h = JsonHandle::default();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    assert_eq!(text(to_vec(&1e-6f32, &h).unwrap()), "0.000001");
    assert_eq!(
        text(to_vec(&[1e-6f32, -1e-6], &h).unwrap()),
        "[0.000001,-0.000001]"
    );
    assert_eq!(text(to_vec(&vec![1e-6f32], &h).unwrap()), "[0.000001]");
    assert_eq!(text(to_vec(&Value::F32(1e-6), &h).unwrap()), "0.000001");
    assert_eq!(text(to_vec(&9.9e-7f32, &h).unwrap()), "9.9e-07");
}

/// `exact_integers`: integers beyond 64 bits stay exact in a `Value` (and a
/// `Document`), from a slice, a reader, a value decoded into, a quoted key;
/// one beyond `i128` is an error at its first byte; `prefer_float` wins.
#[test]
fn exact_integers_keep_big_integers_in_values() {
    let input = b"[18446744073709551616, -9223372036854775809, 1, -1, 1e30, 2.5, \
                  170141183460469231731687303715884105727, \
                  -170141183460469231731687303715884105728]";
    let exact = Value::Array(vec![
        Value::BigInt(1 << 64),
        Value::BigInt(-(1 << 63) - 1),
        Value::Uint(1),
        Value::Int(-1),
        Value::F64(1e30),
        Value::F64(2.5),
        Value::BigInt(i128::MAX),
        Value::BigInt(i128::MIN),
    ]);
    let h = JsonHandle::default().exact_integers(true);
    assert_eq!(from_slice::<Value, _>(input, &h).unwrap(), exact);
    let read: Value = codec_core::from_reader(&input[..], &h).unwrap();
    assert_eq!(read, exact);
    // Decoding into an existing value looks at the number's kind first.
    let mut into = Value::Nil;
    codec_core::from_slice_into(input, &h, &mut into).unwrap();
    assert_eq!(into, exact);
    let doc: codec_core::Document = from_slice(input, &h).unwrap();
    assert_eq!(Value::from(&doc), exact);
    // What it wrote reads back the same.
    assert_eq!(
        from_slice::<Value, _>(&to_vec(&exact, &h).unwrap(), &h).unwrap(),
        exact
    );

    // By default (ugorji's way) they become the nearest float.
    let v: Value = from_slice(b"[18446744073709551616]", &JsonHandle::default()).unwrap();
    assert_eq!(v, Value::Array(vec![Value::F64(18446744073709551616.0)]));

    // Beyond i128: an error at the number, from a slice or a reader.
    for big in [
        &b"[1, 170141183460469231731687303715884105728]"[..],
        b"[1, -170141183460469231731687303715884105729]",
        b"[1, 1234567890123456789012345678901234567890123]",
    ] {
        let e = from_slice::<Value, _>(big, &h).unwrap_err();
        assert!(
            matches!(e.kind(), codec_core::ErrorKind::OutOfRange { .. }),
            "{e}"
        );
        assert_eq!(e.offset(), Some(4), "{e}");
        let e = codec_core::from_reader::<Value, _, _>(big, &h).unwrap_err();
        assert_eq!(e.offset(), Some(4), "{e}");
        assert!(from_slice::<codec_core::Document, _>(big, &h).is_err());
    }

    // Quoted keys read as numbers are exact too.
    let keys: Value = from_slice(
        br#"{"18446744073709551616": 1}"#,
        &h.clone().parse_quoted_keys(true),
    )
    .unwrap();
    assert_eq!(
        keys,
        Value::Map(vec![(Value::BigInt(1 << 64), Value::Uint(1))])
    );

    // Either `prefer_float` turns it off.
    let floats = Value::Array(vec![Value::F64(18446744073709551616.0)]);
    let pf = h.clone().prefer_float(true);
    assert_eq!(
        from_slice::<Value, _>(b"[18446744073709551616]", &pf).unwrap(),
        floats
    );
    let mut opts = codec_core::Options::default();
    opts.decode.prefer_float = true;
    let pf = h.clone().with_options(opts);
    assert_eq!(
        from_slice::<Value, _>(b"[18446744073709551616]", &pf).unwrap(),
        floats
    );

    // Typed targets read as before.
    assert_eq!(
        from_slice::<u128, _>(b"18446744073709551616", &h).unwrap(),
        1 << 64
    );
    assert_eq!(
        from_slice::<f64, _>(b"18446744073709551616", &h).unwrap(),
        18446744073709551616.0
    );
}
