//! Property tests: nested derived types round-trip through `to_value` /
//! `from_value`, under default, canonical, struct-to-array and omit-empty options.
extern crate codec_core as codec;

use codec::convert::ValueBuilder;
use codec::{Codec, EncodeOptions, Encoder, from_value};
use proptest::prelude::*;
use std::collections::BTreeMap;

#[derive(Codec, Debug, PartialEq, Clone)]
enum Kind {
    A,
    B(i64),
    C(String, Vec<u8>),
    D {
        x: Option<u32>,
        #[codec(omitempty)]
        tags: Vec<String>,
    },
}

#[derive(Codec, Debug, PartialEq, Clone)]
#[codec(rename_all = "kebab-case")]
struct Leaf {
    text_value: String,
    #[codec(omitempty)]
    bytes: Vec<u8>,
    maybe: Option<bool>,
    kind: Kind,
}

#[derive(Codec, Debug, PartialEq, Clone)]
struct Base {
    id: u64,
    #[codec(omitempty)]
    note: Option<String>,
}

#[derive(Codec, Debug, PartialEq, Clone)]
struct Tree {
    #[codec(flatten)]
    base: Base,
    leaves: Vec<Leaf>,
    index: BTreeMap<String, i32>,
    pair: (i8, f64),
    last: char,
}

#[derive(Codec, Debug, PartialEq, Clone)]
#[codec(toarray)]
struct Packed {
    #[codec(omitempty)]
    a: Option<i16>,
    s: String,
}

#[derive(Codec, Debug, PartialEq, Clone)]
struct Keyed {
    #[codec(key = 2)]
    tree: Option<Box<Tree>>,
    #[codec(key = 1)]
    packed: Vec<Packed>,
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just('a'),
            Just('Z'),
            Just('é'),
            Just('中'),
            Just('🦀'),
            Just('"'),
            any::<char>()
        ],
        0..6,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        Just(Kind::A),
        any::<i64>().prop_map(Kind::B),
        (text(), prop::collection::vec(any::<u8>(), 0..5)).prop_map(|(s, b)| Kind::C(s, b)),
        (any::<Option<u32>>(), prop::collection::vec(text(), 0..3))
            .prop_map(|(x, tags)| Kind::D { x, tags }),
    ]
}

fn leaf() -> impl Strategy<Value = Leaf> {
    (
        text(),
        prop::collection::vec(any::<u8>(), 0..5),
        any::<Option<bool>>(),
        kind(),
    )
        .prop_map(|(text_value, bytes, maybe, kind)| Leaf {
            text_value,
            bytes,
            maybe,
            kind,
        })
}

fn tree() -> impl Strategy<Value = Tree> {
    (
        any::<u64>(),
        prop::option::of(text()),
        prop::collection::vec(leaf(), 0..4),
        prop::collection::btree_map(text(), any::<i32>(), 0..4),
        (any::<i8>(), -1e300f64..1e300),
        any::<char>(),
    )
        .prop_map(|(id, note, leaves, index, pair, last)| Tree {
            base: Base { id, note },
            leaves,
            index,
            pair,
            last,
        })
}

fn keyed() -> impl Strategy<Value = Keyed> {
    (
        prop::option::of(tree()),
        prop::collection::vec(
            (any::<Option<i16>>(), text()).prop_map(|(a, s)| Packed { a, s }),
            0..3,
        ),
    )
        .prop_map(|(t, packed)| Keyed {
            tree: t.map(Box::new),
            packed,
        })
}

fn encode_with<T: codec::Encode>(v: &T, o: EncodeOptions) -> codec::Value {
    let mut e = Encoder::new(Vec::new(), ValueBuilder::default(), o);
    v.encode(&mut e).unwrap();
    let (_, b) = e.into_parts();
    b.into_value().unwrap()
}

fn all_options() -> Vec<EncodeOptions> {
    let mut out = Vec::new();
    // The run-time omit_empty option drops empty required fields, which then
    // fail to decode as missing; it is tested in array form (where it does nothing).
    for bits in [0u8, 1, 2, 3, 6, 7] {
        let mut o = EncodeOptions::default();
        o.canonical = bits & 1 != 0;
        o.struct_to_array = bits & 2 != 0;
        o.omit_empty = bits & 4 != 0;
        out.push(o);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn tree_round_trips(t in tree()) {
        for o in all_options() {
            let v = encode_with(&t, o.clone());
            let back: Tree = from_value(&v).map_err(|e| TestCaseError::fail(format!("{o:?}: {e}")))?;
            prop_assert_eq!(&back, &t);
        }
    }

    #[test]
    fn keyed_round_trips(k in keyed()) {
        for o in all_options() {
            let v = encode_with(&k, o.clone());
            let back: Keyed = from_value(&v).map_err(|e| TestCaseError::fail(format!("{o:?}: {e}")))?;
            prop_assert_eq!(&back, &k);
        }
    }

    #[test]
    fn canonical_is_order_independent(t in tree()) {
        let mut o = EncodeOptions::default();
        o.canonical = true;
        let a = encode_with(&t, o.clone());
        let b = encode_with(&from_value::<Tree>(&a).unwrap(), o);
        prop_assert_eq!(a, b);
    }
}
