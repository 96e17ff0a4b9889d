//! Property tests: `Value` trees and std types round-trip through JSON
//! (floats exactly), from slices and from readers.

use codec_core::{Value, from_reader, from_slice, to_vec};
use codec_json::{IntegerAsString, JsonHandle};
use proptest::prelude::*;
use std::collections::{BTreeMap, HashMap};

/// Floats whose JSON text reads back as a float: ugorji writes integral
/// values from 2^52 to 1e21 without `.0`, and those read back as integers.
fn json_float() -> impl Strategy<Value = f64> {
    any::<f64>().prop_filter("finite, not a bare integer", |f| {
        f.is_finite() && !(f.fract() == 0.0 && (4503599627370496.0..1e21).contains(&f.abs()))
    })
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Nil),
        any::<bool>().prop_map(Value::Bool),
        any::<u64>().prop_map(Value::Uint),
        (i64::MIN..0).prop_map(Value::Int),
        json_float().prop_map(Value::F64),
        any::<String>().prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((any::<String>().prop_map(Value::from), inner), 0..8)
                .prop_map(Value::Map),
        ]
    })
}

/// The std types checked together.
type StdMix = (
    Vec<(i64, String, bool)>,
    BTreeMap<u64, bool>,
    HashMap<i32, Vec<u8>>,
    Option<String>,
    (i128, u128, char),
    BTreeMap<bool, i8>,
);

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn values_round_trip(v in value(), indent in -2i8..3) {
        let h = JsonHandle::default().indent(indent);
        let text = to_vec(&v, &h).unwrap();
        prop_assert!(serde_json::from_slice::<serde_json::Value>(&text).is_ok());
        let back: Value = from_slice(&text, &h).unwrap();
        prop_assert_eq!(&back, &v);
        let by_reader: Value = from_reader(&text[..], &h).unwrap();
        prop_assert_eq!(&by_reader, &v);
    }

    #[test]
    fn floats_round_trip_exactly(f in any::<f64>(), g in any::<f32>()) {
        let h = JsonHandle::default();
        if f.is_finite() {
            let back: f64 = from_slice(&to_vec(&f, &h).unwrap(), &h).unwrap();
            prop_assert_eq!(back.to_bits(), f.to_bits());
        }
        if g.is_finite() {
            let back: f32 = from_slice(&to_vec(&g, &h).unwrap(), &h).unwrap();
            prop_assert_eq!(back.to_bits(), g.to_bits());
        }
    }

    #[test]
    fn std_types_round_trip(
        a in prop::collection::vec((any::<i64>(), any::<String>(), any::<bool>()), 0..6),
        b in prop::collection::btree_map(any::<u64>(), any::<bool>(), 0..6),
        c in prop::collection::hash_map(any::<i32>(), prop::collection::vec(any::<u8>(), 0..20), 0..6),
        d in any::<Option<String>>(),
        e in (any::<i128>(), any::<u128>(), any::<char>()),
        f in prop::collection::btree_map(any::<bool>(), any::<i8>(), 0..3),
        mode in 0..3u8,
    ) {
        let mode = [IntegerAsString::Never, IntegerAsString::Large, IntegerAsString::Always][mode as usize];
        let h = JsonHandle::default().integer_as_string(mode);
        let x = (a, b, c, d, e, f);
        let text = to_vec(&x, &h).unwrap();
        let back: StdMix = from_slice(&text, &h).unwrap();
        prop_assert_eq!(&back, &x);
    }

    #[test]
    fn borrowed_strings(s in "[a-z \\u{80}-\\u{10ffff}]{0,30}") {
        let h = JsonHandle::default();
        let text = to_vec(&s, &h).unwrap();
        // U+2028 and U+2029 are written escaped (as ugorji does), and an
        // escaped string cannot be borrowed; everything else in this
        // alphabet is written as is and must come back without a copy.
        if text.contains(&b'\\') {
            let has_separator = s.contains(['\u{2028}', '\u{2029}']);
            prop_assert!(has_separator);
            prop_assert!(from_slice::<&str, _>(&text, &h).is_err());
            let back: std::borrow::Cow<'_, str> = from_slice(&text, &h).unwrap();
            prop_assert_eq!(back, s.as_str());
        } else {
            let back: &str = from_slice(&text, &h).unwrap();
            prop_assert_eq!(back, s.as_str());
        }
    }
}

#[test]
fn line_separators_are_escaped_so_not_borrowed() {
    let h = JsonHandle::default();
    let s = "a\u{2028}b\u{2029}c";
    let text = to_vec(&s, &h).unwrap();
    assert_eq!(text, br#""a\u2028b\u2029c""#);
    assert!(from_slice::<&str, _>(&text, &h).is_err());
    let back: std::borrow::Cow<'_, str> = from_slice(&text, &h).unwrap();
    assert_eq!(back, s);
}
