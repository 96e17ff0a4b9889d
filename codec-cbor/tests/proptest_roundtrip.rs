//! Property tests: any `Value` tree re-encodes to the same bytes after a
//! decode, under every encoding mode; typed values round-trip exactly.

use codec_cbor::CborHandle;
use codec_core::{Value, from_reader, from_slice, to_vec};
use proptest::prelude::*;

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Nil),
        any::<bool>().prop_map(Value::Bool),
        (i64::MIN..0i64).prop_map(Value::Int),
        any::<u64>().prop_map(Value::Uint),
        any::<i128>().prop_map(Value::BigInt),
        any::<f32>().prop_map(Value::F32),
        any::<f64>().prop_map(Value::F64),
        ".{0,40}".prop_map(Value::from),
        proptest::collection::vec(any::<u8>(), 0..40).prop_map(Value::Bytes),
        prop_oneof![0u8..20, 32u8..=255].prop_map(Value::Simple),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            proptest::collection::vec((inner.clone(), inner.clone()), 0..6).prop_map(Value::Map),
            (4u64..55_799, inner).prop_map(|(t, v)| Value::Tagged(t, Box::new(v))),
        ]
    })
}

fn handles() -> Vec<CborHandle> {
    vec![
        CborHandle::default(),
        CborHandle::default().indefinite_length(true),
        CborHandle::default().optimum_size(true),
        CborHandle::default().preferred_serialization(true),
        CborHandle::default().deterministic(true),
    ]
}

proptest! {
    #[test]
    fn value_trees_round_trip(v in value()) {
        for h in handles() {
            let bytes = to_vec(&v, &h).unwrap();
            let back: Value = from_slice(&bytes, &h).unwrap();
            prop_assert_eq!(to_vec(&back, &h).unwrap(), bytes.clone());
            let io: Value = from_reader(&bytes[..], &h).unwrap();
            prop_assert_eq!(&io, &back);
            let mut d = codec_core::Handle::decoder(&h, &bytes);
            d.skip().unwrap();
            d.finish().unwrap();
        }
        // Default mode keeps float widths and integer kinds exactly.
        let h = CborHandle::default();
        let back: Value = from_slice(&to_vec(&v, &h).unwrap(), &h).unwrap();
        prop_assert_eq!(back, normalise(&v));
    }

    #[test]
    fn typed_values_round_trip(a in any::<i128>(), b in any::<u128>(), c in any::<f64>(), s in ".{0,64}") {
        for h in handles() {
            let x = (a, b, s.clone());
            let back: (i128, u128, String) = from_slice(&to_vec(&x, &h).unwrap(), &h).unwrap();
            prop_assert_eq!(back, x);
            let f: f64 = from_slice(&to_vec(&c, &h).unwrap(), &h).unwrap();
            prop_assert!(f.to_bits() == c.to_bits() || (c.is_nan() && f.is_nan()));
        }
    }
}

/// What a value decodes back as: `BigInt`s inside the 64-bit ranges become
/// plain integers, beyond `i128`'s reach they stay as written.
fn normalise(v: &Value) -> Value {
    match v {
        Value::BigInt(i) => match (u64::try_from(*i), i64::try_from(*i)) {
            (Ok(u), _) => Value::Uint(u),
            (_, Ok(s)) => Value::Int(s),
            _ => Value::BigInt(*i),
        },
        Value::Array(a) => Value::Array(a.iter().map(normalise).collect()),
        Value::Map(m) => Value::Map(
            m.iter()
                .map(|(k, v)| (normalise(k), normalise(v)))
                .collect(),
        ),
        Value::Tagged(t, inner) => Value::Tagged(*t, Box::new(normalise(inner))),
        other => other.clone(),
    }
}
