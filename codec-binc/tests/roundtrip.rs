//! Property tests: `Value` trees and std types survive a trip through Binc
//! (modulo what Binc itself does not keep: the sign of zero, NaN payloads,
//! signedness of non-negative integers, sub-minute and zero time offsets).

mod common;

use codec_binc::BincHandle;
use codec_core::{Time, Value, from_reader, from_slice, to_vec};
use common::Trickle;
use proptest::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const GO_NAN: u64 = 0x7FF8_0000_0000_0001;

fn arb_time() -> impl Strategy<Value = Time> {
    (
        -100_000_000_000i64..100_000_000_000,
        0u32..1_000_000_000,
        prop_oneof![
            Just(None),
            (-1080i32..=1080).prop_map(|m| Some(m * 60)),
            (-50_000i32..50_000).prop_map(Some)
        ],
    )
        .prop_map(|(s, n, o)| {
            let t = Time::from_unix(s, n).unwrap();
            match o {
                Some(o) => t.with_offset(o),
                None => t,
            }
        })
}

fn arb_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Nil),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::Int),
        any::<u64>().prop_map(Value::Uint),
        (-70_000i64..70_000).prop_map(Value::Int),
        any::<u32>().prop_map(|b| Value::F32(f32::from_bits(b))),
        any::<u64>().prop_map(|b| Value::F64(f64::from_bits(b))),
        any::<i16>().prop_map(|i| Value::F64(i as f64 / 4.0)),
        ".{0,20}".prop_map(Value::from),
        proptest::collection::vec(any::<u8>(), 0..20).prop_map(Value::Bytes),
        (any::<u8>(), proptest::collection::vec(any::<u8>(), 0..20))
            .prop_map(|(t, d)| Value::Ext(t as u64, d.into())),
        arb_time().prop_map(Value::Time),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            proptest::collection::vec((inner.clone(), inner), 0..8).prop_map(Value::Map),
        ]
    })
}

/// What Binc gives back for `v` when read into `Value`.
fn binc_view(v: &Value) -> Value {
    let float = |f: f64| {
        if f == 0.0 {
            Value::F64(0.0)
        } else if f.is_nan() {
            Value::F64(f64::from_bits(GO_NAN))
        } else {
            Value::F64(f)
        }
    };
    match v {
        Value::Int(i) if *i >= 0 => Value::Uint(*i as u64),
        Value::F32(f) if f.is_finite() && *f != 0.0 => Value::F32(*f),
        Value::F32(f) => float(*f as f64),
        Value::F64(f) => float(*f),
        Value::Time(t) if t.is_go_zero() => Value::Nil,
        Value::Time(t) => Value::Time(match t.offset() {
            Some(o) if o / 60 != 0 => t.with_offset(o / 60 * 60),
            _ => t.to_utc(),
        }),
        Value::Array(a) => Value::Array(a.iter().map(binc_view).collect()),
        Value::Map(m) => Value::Map(
            m.iter()
                .map(|(k, v)| (binc_view(k), binc_view(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn value_round_trip(v in arb_value(), symbols in any::<bool>()) {
        let h = BincHandle::default().as_symbols(symbols);
        let bytes = to_vec(&v, &h).unwrap();
        let back: Value = from_slice(&bytes, &h).unwrap();
        prop_assert_eq!(&back, &binc_view(&v));
        let io: Value = from_reader(Trickle::new(&bytes), &h).unwrap();
        prop_assert_eq!(&io, &back);
        // Skipping consumes exactly the item.
        let mut d = codec_core::Handle::decoder(&h, &bytes);
        d.skip().unwrap();
        prop_assert!(d.at_end().unwrap());
        // Every strict prefix is an error.
        for cut in 0..bytes.len() {
            prop_assert!(from_slice::<Value, _>(&bytes[..cut], &h).is_err());
        }
    }

    #[test]
    fn canonical_output_is_order_independent(mut m in proptest::collection::vec((arb_value(), arb_value()), 0..6)) {
        let h = BincHandle::default().canonical(true);
        // Keys are unique in real maps: keep one entry per encoded key.
        let mut seen = std::collections::HashSet::new();
        m.retain(|(k, _)| seen.insert(to_vec(k, &BincHandle::default()).unwrap()));
        let a = to_vec(&Value::Map(m.clone()), &h).unwrap();
        m.reverse();
        let b = to_vec(&Value::Map(m), &h).unwrap();
        prop_assert_eq!(a, b);
    }

    #[test]
    fn std_types_round_trip(
        ints in (any::<i8>(), any::<i16>(), any::<i32>(), any::<i64>(), any::<u8>(), any::<u16>(), any::<u32>(), any::<u64>()),
        f in any::<f64>().prop_filter("not NaN", |f| !f.is_nan()),
        g in any::<f32>().prop_filter("not NaN", |f| !f.is_nan()),
        s in ".{0,40}",
        bytes in proptest::collection::vec(any::<u8>(), 0..40),
        list in proptest::collection::vec(any::<i64>(), 0..20),
        map in proptest::collection::btree_map(".{0,8}", proptest::collection::vec(any::<u32>(), 0..4), 0..6),
        hmap in proptest::collection::hash_map(any::<u64>(), ".{0,8}", 0..6),
        opt in proptest::option::of(any::<bool>()),
        secs in 0u64..10_000_000_000,
        nanos in 0u32..1_000_000_000,
        symbols in any::<bool>(),
    ) {
        let h = BincHandle::default().as_symbols(symbols);
        let st = UNIX_EPOCH + Duration::new(secs, nanos);
        let doc = (ints, f, g, s, bytes, list, map, hmap, opt, st);
        let enc = to_vec(&doc, &h).unwrap();
        type Doc = (
            (i8, i16, i32, i64, u8, u16, u32, u64),
            f64,
            f32,
            String,
            Vec<u8>,
            Vec<i64>,
            BTreeMap<String, Vec<u32>>,
            HashMap<u64, String>,
            Option<bool>,
            SystemTime,
        );
        let back: Doc = from_slice(&enc, &h).unwrap();
        prop_assert_eq!(back, doc);
    }
}
