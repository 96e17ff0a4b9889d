//! Round trips of dynamic `Value` trees and std types through both spec
//! levels, and zero-copy decoding from slices.

use codec_core::{Time, Value, from_slice, to_vec};
use codec_msgpack::MsgpackHandle;
use proptest::prelude::*;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

/// The timestamp payload (an independent restatement of the spec's rules).
fn ts_payload(t: &Time) -> Vec<u8> {
    let (s, n) = (t.unix_seconds(), u64::from(t.nanos()));
    if (0..1i64 << 34).contains(&s) {
        let d = (n << 34) | s as u64;
        if d >> 32 == 0 {
            (d as u32).to_be_bytes().to_vec()
        } else {
            d.to_be_bytes().to_vec()
        }
    } else {
        [(n as u32).to_be_bytes().to_vec(), s.to_be_bytes().to_vec()].concat()
    }
}

/// What `v` reads back as: positive fixints come back signed; without
/// `write_ext`, strings, byte strings and times come back as bytes except in
/// map keys (text); times lose their zone.
fn after_round_trip(v: &Value, write_ext: bool, key: bool) -> Value {
    match v {
        Value::Uint(u) if *u <= 127 => Value::Int(*u as i64),
        Value::Str(s) if !write_ext && !key => Value::Bytes(s.as_bytes().to_vec()),
        Value::Bytes(b) if !write_ext && key => Value::Str(
            String::from_utf8(b.clone())
                .expect("generated keys are UTF-8")
                .into(),
        ),
        Value::Time(t) if !write_ext => {
            let b = ts_payload(t);
            if key {
                Value::Str(
                    String::from_utf8(b)
                        .expect("checked by the generator")
                        .into(),
                )
            } else {
                Value::Bytes(b)
            }
        }
        Value::Time(t) => Value::Time(t.to_utc()),
        Value::Array(a) => Value::Array(
            a.iter()
                .map(|x| after_round_trip(x, write_ext, false))
                .collect(),
        ),
        Value::Map(m) => Value::Map(
            m.iter()
                .map(|(k, x)| {
                    (
                        after_round_trip(k, write_ext, true),
                        after_round_trip(x, write_ext, false),
                    )
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

fn time() -> impl Strategy<Value = Time> {
    (
        prop_oneof![0i64..1 << 32, 0i64..1 << 34, any::<i64>(), -100i64..100],
        prop_oneof![Just(0u32), 0u32..1_000_000_000],
        proptest::option::of(-86_400i32..86_400),
    )
        .prop_map(|(s, n, off)| {
            let t = Time::from_unix(s, n).expect("nanos in range");
            match off {
                Some(o) => t.with_offset(o),
                None => t,
            }
        })
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Nil),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::Int),
        (-40i64..200).prop_map(Value::Int),
        any::<u64>().prop_map(Value::Uint),
        (0u64..300).prop_map(Value::Uint),
        any::<f32>().prop_map(Value::F32),
        any::<f64>().prop_map(Value::F64),
        ".{0,40}".prop_map(Value::from),
        proptest::collection::vec(any::<u8>(), 0..300).prop_map(Value::Bytes),
        // Type -1 (255) is the timestamp.
        (0u64..255, proptest::collection::vec(any::<u8>(), 0..20))
            .prop_map(|(t, d)| Value::Ext(t, d.into())),
        time().prop_map(Value::Time),
    ]
}

/// Map keys that survive both spec levels.
fn key(write_ext: bool) -> BoxedStrategy<Value> {
    let base = prop_oneof![
        any::<i64>().prop_map(Value::Int),
        any::<bool>().prop_map(Value::Bool),
        "[a-zé☃]{0,12}".prop_map(Value::from),
    ];
    if write_ext {
        prop_oneof![
            base,
            proptest::collection::vec(any::<u8>(), 0..8).prop_map(Value::Bytes),
            time().prop_map(Value::Time),
        ]
        .boxed()
    } else {
        base.boxed()
    }
}

fn value(write_ext: bool) -> impl Strategy<Value = Value> {
    scalar().prop_recursive(4, 64, 8, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..20).prop_map(Value::Array),
            proptest::collection::vec((key(write_ext), inner), 0..8).prop_map(Value::Map),
        ]
    })
}

/// Sorts the entries of every map (canonical output reorders them).
fn sort_maps(v: Value) -> Value {
    match v {
        Value::Array(a) => Value::Array(a.into_iter().map(sort_maps).collect()),
        Value::Map(m) => {
            let mut m: Vec<_> = m
                .into_iter()
                .map(|(k, v)| (sort_maps(k), sort_maps(v)))
                .collect();
            m.sort();
            Value::Map(m)
        }
        other => other,
    }
}

fn check_value(v: &Value, h: &MsgpackHandle) -> Result<(), TestCaseError> {
    let bytes = to_vec(v, h).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let back: Value =
        from_slice(&bytes, h).map_err(|e| TestCaseError::fail(format!("{e} in {bytes:02x?}")))?;
    let want = after_round_trip(v, h.write_ext, false);
    if h.options.encode.canonical {
        prop_assert_eq!(sort_maps(back), sort_maps(want));
    } else {
        prop_assert_eq!(back, want);
    }
    Ok(())
}

type Mixed = (
    (i8, i16, i32, i64, isize),
    (u8, u16, u32, u64, usize),
    (f32, f64, bool, char),
    (String, Vec<u8>, Option<Vec<i64>>, [u8; 4]),
);

fn std_round_trip<T>(v: &T, h: &MsgpackHandle) -> Result<(), TestCaseError>
where
    T: codec_core::Encode + codec_core::DecodeOwned + PartialEq + std::fmt::Debug,
{
    let bytes = to_vec(v, h).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let back: T =
        from_slice(&bytes, h).map_err(|e| TestCaseError::fail(format!("{e} in {bytes:02x?}")))?;
    prop_assert_eq!(&back, v);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn value_trees_round_trip_current_spec(v in value(true)) {
        check_value(&v, &MsgpackHandle::default())?;
        check_value(&v, &MsgpackHandle::default().canonical(true))?;
    }

    #[test]
    fn value_trees_round_trip_old_spec(v in value(false)) {
        check_value(&v, &MsgpackHandle::ugorji_default())?;
    }

    #[test]
    fn std_types_round_trip(
        m in any::<Mixed>(),
        strings in proptest::collection::vec(".{0,70}", 0..10),
        map in proptest::collection::btree_map(".{0,10}", proptest::collection::vec(any::<u8>(), 0..40), 0..10),
        hmap in proptest::collection::hash_map(any::<u64>(), any::<Option<bool>>(), 0..10),
        wide in (any::<i64>(), any::<u64>()),
        t in time(),
        opts in (any::<bool>(), any::<bool>(), any::<bool>()),
    ) {
        let (write_ext, positive_int_unsigned, no_fixed_num) = opts;
        let h = MsgpackHandle::default()
            .write_ext(write_ext)
            .positive_int_unsigned(positive_int_unsigned)
            .no_fixed_num(no_fixed_num);
        // f32/f64 NaN are not equal to themselves: compare through bits.
        let ((a, b, c, d, e), (f, g, hh, i, j), (x, y, z, ch), rest) = m;
        let m = ((a, b, c, d, e), (f, g, hh, i, j), (x.to_bits(), y.to_bits(), z, ch), rest);
        std_round_trip(&m, &h)?;
        let floats = (x, y);
        let bytes = to_vec(&floats, &h).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let (bx, by): (f32, f64) = from_slice(&bytes, &h).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!((bx.to_bits(), by.to_bits()), (x.to_bits(), y.to_bits()));
        std_round_trip(&strings, &h)?;
        std_round_trip(&map, &h)?;
        std_round_trip(&hmap, &h)?;
        std_round_trip(&(i128::from(wide.0), u128::from(wide.1)), &h)?;
        std_round_trip(&t.to_utc(), &h)?;
        let sys = t.to_system_time();
        std_round_trip(&sys, &h)?;
    }

    /// Every integer encodes in the smallest form its family allows.
    #[test]
    fn integer_encoding_sizes(v in any::<i64>(), u in any::<u64>()) {
        let h = MsgpackHandle::default();
        let b = to_vec(&v, &h).unwrap();
        let want = if (-32..=127).contains(&v) { 1 }
            else if i8::try_from(v).is_ok() || (v > 127 && v <= i64::from(i16::MAX)) || i16::try_from(v).is_ok() {
                if i8::try_from(v).is_ok() { 2 } else { 3 }
            }
            else if i32::try_from(v).is_ok() { 5 } else { 9 };
        prop_assert_eq!(b.len(), want, "{} -> {:02x?}", v, b);
        prop_assert_eq!(from_slice::<i64, _>(&b, &h).unwrap(), v);
        let b = to_vec(&u, &h).unwrap();
        let want = if u <= 127 { 1 } else if u <= 255 { 2 } else if u <= 65_535 { 3 } else if u <= u64::from(u32::MAX) { 5 } else { 9 };
        prop_assert_eq!(b.len(), want);
        prop_assert_eq!(from_slice::<u64, _>(&b, &h).unwrap(), u);
    }
}

#[test]
fn borrowed_targets_borrow_from_slices() {
    for h in [MsgpackHandle::default(), MsgpackHandle::ugorji_default()] {
        let bytes = to_vec(&("hello, world", vec![1u8, 2, 3]), &h).unwrap();
        let (s, b): (&str, &[u8]) = from_slice(&bytes, &h).unwrap();
        assert_eq!((s, b), ("hello, world", &[1u8, 2, 3][..]));
        let range = bytes.as_ptr_range();
        assert!(range.contains(&s.as_ptr()), "&str was copied");
        assert!(range.contains(&b.as_ptr()), "&[u8] was copied");
        let (c, d): (Cow<'_, str>, Cow<'_, [u8]>) = from_slice(&bytes, &h).unwrap();
        assert!(matches!(c, Cow::Borrowed("hello, world")));
        assert!(matches!(d, Cow::Borrowed(&[1, 2, 3])));
        // Borrowing from a reader is impossible: a clear error, not a copy.
        assert!(codec_core::from_reader::<String, _, _>(&bytes[..1], &h).is_err());
    }
}

#[test]
fn collections_of_borrowed_strings() {
    let h = MsgpackHandle::default();
    let mut m = HashMap::new();
    m.insert("k1".to_string(), "v1".to_string());
    m.insert("k2".to_string(), "väl".to_string());
    let bytes = to_vec(&m, &h).unwrap();
    let back: BTreeMap<&str, &str> = from_slice(&bytes, &h).unwrap();
    assert_eq!(back.get("k2"), Some(&"väl"));
    assert_eq!(back.len(), 2);
}
