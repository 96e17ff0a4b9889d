//! Behaviour of `#[derive(Codec)]`, tested through `to_value` / `from_value`.
extern crate codec_core as codec;

use codec::convert::ValueBuilder;
use codec::{Codec, EncodeOptions, Encoder, ErrorKind, Value, from_value, to_value};
use std::collections::BTreeMap;

fn s(x: &str) -> Value {
    Value::from(x)
}

fn map(entries: Vec<(Value, Value)>) -> Value {
    Value::Map(entries)
}

fn keys(v: &Value) -> Vec<String> {
    match v {
        Value::Map(m) => m
            .iter()
            .map(|(k, _)| match k {
                Value::Str(s) => s.to_string(),
                other => format!("{other:?}"),
            })
            .collect(),
        other => panic!("not a map: {other:?}"),
    }
}

fn with_opts<T: codec::Encode>(v: &T, f: impl FnOnce(&mut EncodeOptions)) -> Value {
    let mut o = EncodeOptions::default();
    f(&mut o);
    let mut e = Encoder::new(Vec::new(), ValueBuilder::default(), o);
    v.encode(&mut e).unwrap();
    let (_, b) = e.into_parts();
    b.into_value().unwrap()
}

#[derive(Codec, Debug, PartialEq, Clone, Default)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(Codec, Debug, PartialEq)]
struct Unit;

#[derive(Codec, Debug, PartialEq)]
struct Meters(f64);

#[derive(Codec, Debug, PartialEq)]
struct Pair(u8, String);

#[test]
fn struct_shapes() {
    let p = Point { x: 1, y: -2 };
    let v = to_value(&p).unwrap();
    assert_eq!(
        v,
        map(vec![(s("x"), Value::Int(1)), (s("y"), Value::Int(-2))])
    );
    assert_eq!(from_value::<Point>(&v).unwrap(), p);

    assert_eq!(to_value(&Unit).unwrap(), Value::Nil);
    assert_eq!(from_value::<Unit>(&Value::Nil).unwrap(), Unit);

    assert_eq!(to_value(&Meters(2.5)).unwrap(), Value::F64(2.5));
    assert_eq!(from_value::<Meters>(&Value::F64(2.5)).unwrap(), Meters(2.5));

    let v = to_value(&Pair(3, "é".into())).unwrap();
    assert_eq!(v, Value::Array(vec![Value::Uint(3), s("é")]));
    assert_eq!(from_value::<Pair>(&v).unwrap(), Pair(3, "é".into()));
}

#[test]
fn struct_from_array_and_extra_items() {
    let v = Value::Array(vec![Value::Int(5), Value::Int(6), Value::Int(7)]);
    assert_eq!(from_value::<Point>(&v).unwrap(), Point { x: 5, y: 6 });
    let short = Value::Array(vec![Value::Int(5)]);
    let e = from_value::<Point>(&short).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::MissingField("y")), "{e}");
    let e = from_value::<Pair>(&Value::Array(vec![Value::Int(5)])).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::InvalidLength {
                expected: 2,
                found: 1
            }
        ),
        "{e}"
    );
}

#[test]
fn struct_to_array_option() {
    let v = with_opts(&Point { x: 1, y: 2 }, |o| o.struct_to_array = true);
    assert_eq!(v, Value::Array(vec![Value::Int(1), Value::Int(2)]));
}

#[derive(Codec, Debug, PartialEq)]
#[codec(rename_all = "camelCase")]
struct Renamed {
    user_id: u32,
    #[codec(rename = "Z")]
    zed: u32,
    a_b_c: u32,
}

#[test]
fn renames_and_canonical() {
    let r = Renamed {
        user_id: 1,
        zed: 2,
        a_b_c: 3,
    };
    let v = to_value(&r).unwrap();
    assert_eq!(keys(&v), ["userId", "Z", "aBC"]);
    assert_eq!(from_value::<Renamed>(&v).unwrap(), r);
    let c = with_opts(&r, |o| o.canonical = true);
    assert_eq!(keys(&c), ["Z", "aBC", "userId"]);
    assert_eq!(from_value::<Renamed>(&c).unwrap(), r);
}

#[derive(Codec, Debug, PartialEq, Default)]
struct Omit {
    #[codec(omitempty)]
    a: Option<u32>,
    b: Vec<u8>,
    #[codec(omitempty)]
    c: String,
}

#[derive(Codec, Debug, PartialEq, Default)]
#[codec(omitempty)]
struct OmitAll {
    a: u32,
    b: String,
}

#[test]
fn omitempty() {
    let v = to_value(&Omit::default()).unwrap();
    assert_eq!(keys(&v), ["b"]);
    // an omitted (empty) field decodes back as empty
    assert_eq!(from_value::<Omit>(&v).unwrap(), Omit::default());
    let v = to_value(&Omit {
        a: Some(0),
        b: vec![1],
        c: "x".into(),
    })
    .unwrap();
    assert_eq!(keys(&v), ["a", "b", "c"]);
    assert_eq!(
        keys(&to_value(&OmitAll::default()).unwrap()),
        Vec::<String>::new()
    );
    assert_eq!(
        keys(
            &to_value(&OmitAll {
                a: 1,
                b: String::new()
            })
            .unwrap()
        ),
        ["a"]
    );
    let v = with_opts(&Point::default(), |o| o.omit_empty = true);
    assert_eq!(v, map(vec![]));
    // omitempty never drops items in array form.
    let v = with_opts(&Omit::default(), |o| o.struct_to_array = true);
    assert_eq!(
        v,
        Value::Array(vec![Value::Nil, Value::Bytes(vec![]), s("")])
    );
}

#[derive(Codec, Debug, PartialEq)]
#[codec(toarray)]
struct Arr {
    a: u8,
    #[codec(skip)]
    skipped: u8,
    b: Option<u8>,
}

#[test]
fn toarray_and_skip() {
    let v = to_value(&Arr {
        a: 1,
        skipped: 9,
        b: None,
    })
    .unwrap();
    assert_eq!(v, Value::Array(vec![Value::Uint(1), Value::Nil]));
    assert_eq!(
        from_value::<Arr>(&v).unwrap(),
        Arr {
            a: 1,
            skipped: 0,
            b: None
        }
    );
    // missing trailing item: Option gets None
    let v = Value::Array(vec![Value::Uint(1)]);
    assert_eq!(
        from_value::<Arr>(&v).unwrap(),
        Arr {
            a: 1,
            skipped: 0,
            b: None
        }
    );
    // from a map too
    let v = map(vec![(s("a"), Value::Uint(4))]);
    assert_eq!(
        from_value::<Arr>(&v).unwrap(),
        Arr {
            a: 4,
            skipped: 0,
            b: None
        }
    );
}

#[derive(Codec, Debug, PartialEq)]
struct IntKeys {
    #[codec(key = 3)]
    c: u8,
    #[codec(key = 1)]
    a: String,
    #[codec(key = -2)]
    n: bool,
}

#[test]
fn integer_keys() {
    let x = IntKeys {
        c: 1,
        a: "a".into(),
        n: true,
    };
    let v = to_value(&x).unwrap();
    assert_eq!(
        v,
        map(vec![
            (Value::Int(3), Value::Uint(1)),
            (Value::Int(1), s("a")),
            (Value::Int(-2), Value::Bool(true)),
        ])
    );
    assert_eq!(from_value::<IntKeys>(&v).unwrap(), x);
    let c = with_opts(&x, |o| o.canonical = true);
    let ks: Vec<_> = match &c {
        Value::Map(m) => m.iter().map(|(k, _)| k.clone()).collect(),
        _ => unreachable!(),
    };
    assert_eq!(ks, [Value::Int(-2), Value::Int(1), Value::Int(3)]);
    // keys as text holding integers (JSON objects)
    let j = map(vec![
        (s("3"), Value::Uint(1)),
        (s("1"), s("a")),
        (s("-2"), Value::Bool(true)),
        (s("x"), Value::Nil),
    ]);
    assert_eq!(from_value::<IntKeys>(&j).unwrap(), x);
}

fn seven() -> u32 {
    7
}

#[derive(Codec, Debug, PartialEq)]
struct Defaults {
    #[codec(default)]
    a: u32,
    #[codec(default = "seven")]
    b: u32,
    c: Option<u32>,
    #[codec(skip, default = "seven")]
    d: u32,
}

#[test]
fn defaults_and_missing() {
    let v = map(vec![]);
    assert_eq!(
        from_value::<Defaults>(&v).unwrap(),
        Defaults {
            a: 0,
            b: 7,
            c: None,
            d: 7
        }
    );
    let e = from_value::<Point>(&map(vec![(s("x"), Value::Int(1))])).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::MissingField("y")), "{e}");
}

#[test]
fn unknown_and_duplicate_fields() {
    let v = map(vec![
        (s("x"), Value::Int(1)),
        (s("q"), Value::Array(vec![Value::Nil])),
        (s("y"), Value::Int(2)),
    ]);
    assert_eq!(from_value::<Point>(&v).unwrap(), Point { x: 1, y: 2 });
    let v = map(vec![
        (s("x"), Value::Int(1)),
        (s("x"), Value::Int(2)),
        (s("y"), Value::Int(2)),
    ]);
    let e = from_value::<Point>(&v).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::DuplicateField(k) if k == "x"),
        "{e}"
    );
}

#[derive(Codec, Debug, PartialEq)]
struct Users {
    users: Vec<User>,
}

#[derive(Codec, Debug, PartialEq)]
struct User {
    name: String,
    age: u8,
}

#[test]
fn error_paths() {
    let mut users = Vec::new();
    for i in 0..4 {
        users.push(map(vec![(s("name"), s("n")), (s("age"), Value::Uint(i))]));
    }
    users[3] = map(vec![
        (s("name"), Value::Uint(5)),
        (s("age"), Value::Uint(1)),
    ]);
    let v = map(vec![(s("users"), Value::Array(users))]);
    let e = from_value::<Users>(&v).unwrap_err();
    assert_eq!(e.path_string(), ".users[3].name", "{e}");
    let v = map(vec![(
        s("users"),
        Value::Array(vec![Value::Array(vec![s("a"), Value::Int(-1)])]),
    )]);
    let e = from_value::<Users>(&v).unwrap_err();
    assert_eq!(e.path_string(), ".users[0].age", "{e}");
}

#[derive(Codec, Debug, PartialEq, Clone)]
enum Shape {
    Empty,
    Circle(f64),
    Rect(u32, u32),
    #[codec(rename = "poly")]
    Poly {
        sides: u8,
        #[codec(omitempty)]
        name: Option<String>,
    },
}

#[test]
fn enums_external_tagging() {
    assert_eq!(to_value(&Shape::Empty).unwrap(), s("Empty"));
    assert_eq!(
        to_value(&Shape::Circle(1.5)).unwrap(),
        map(vec![(s("Circle"), Value::F64(1.5))])
    );
    assert_eq!(
        to_value(&Shape::Rect(1, 2)).unwrap(),
        map(vec![(
            s("Rect"),
            Value::Array(vec![Value::Uint(1), Value::Uint(2)])
        )])
    );
    let p = Shape::Poly {
        sides: 5,
        name: None,
    };
    let v = to_value(&p).unwrap();
    assert_eq!(
        v,
        map(vec![(s("poly"), map(vec![(s("sides"), Value::Uint(5))]))])
    );
    for x in [Shape::Empty, Shape::Circle(2.0), Shape::Rect(3, 4), p] {
        assert_eq!(from_value::<Shape>(&to_value(&x).unwrap()).unwrap(), x);
    }
    assert_eq!(
        from_value::<Shape>(&map(vec![(s("Empty"), Value::Nil)])).unwrap(),
        Shape::Empty
    );
    let e = from_value::<Shape>(&s("Nope")).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::UnknownVariant(_)), "{e}");
    let e = from_value::<Shape>(&s("Circle")).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TypeMismatch { .. }), "{e}");
    let e =
        from_value::<Shape>(&map(vec![(s("poly"), map(vec![(s("sides"), s("x"))]))])).unwrap_err();
    assert_eq!(e.path_string(), "::poly.sides", "{e}");
    let two = map(vec![(s("Empty"), Value::Nil), (s("Empty"), Value::Nil)]);
    assert!(from_value::<Shape>(&two).is_err());
}

#[derive(Codec, Debug, PartialEq)]
#[codec(index)]
#[repr(i32)]
enum Op {
    Nop,
    #[codec(index = 10)]
    Push(i64),
    Pop = 20,
    Swap,
}

#[test]
fn enum_integer_tags() {
    assert_eq!(to_value(&Op::Nop).unwrap(), Value::Int(0));
    assert_eq!(to_value(&Op::Pop).unwrap(), Value::Int(20));
    assert_eq!(to_value(&Op::Swap).unwrap(), Value::Int(21));
    assert_eq!(
        to_value(&Op::Push(-1)).unwrap(),
        map(vec![(Value::Int(10), Value::Int(-1))])
    );
    for x in [Op::Nop, Op::Push(3), Op::Pop, Op::Swap] {
        assert_eq!(from_value::<Op>(&to_value(&x).unwrap()).unwrap(), x);
    }
    assert_eq!(from_value::<Op>(&Value::Uint(21)).unwrap(), Op::Swap);
    assert!(from_value::<Op>(&Value::Uint(22)).is_err());
}

#[derive(Codec, Debug, PartialEq, Default)]
struct Inner {
    b: u32,
    #[codec(omitempty)]
    c: Option<u32>,
}

#[derive(Codec, Debug, PartialEq)]
struct Outer {
    z: u32,
    #[codec(flatten)]
    inner: Inner,
    a: u32,
}

#[test]
fn flatten() {
    let o = Outer {
        z: 1,
        inner: Inner { b: 2, c: Some(3) },
        a: 4,
    };
    let v = to_value(&o).unwrap();
    assert_eq!(keys(&v), ["z", "b", "c", "a"]);
    assert_eq!(from_value::<Outer>(&v).unwrap(), o);
    let c = with_opts(&o, |op| op.canonical = true);
    assert_eq!(keys(&c), ["a", "b", "c", "z"]);
    assert_eq!(from_value::<Outer>(&c).unwrap(), o);
    let arr = with_opts(&o, |op| op.struct_to_array = true);
    assert_eq!(
        arr,
        Value::Array(vec![
            Value::Uint(1),
            Value::Uint(2),
            Value::Uint(3),
            Value::Uint(4)
        ])
    );
    assert_eq!(from_value::<Outer>(&arr).unwrap(), o);
    let none = Outer {
        z: 1,
        inner: Inner { b: 2, c: None },
        a: 4,
    };
    assert_eq!(keys(&to_value(&none).unwrap()), ["z", "b", "a"]);
    let e = from_value::<Outer>(&map(vec![
        (s("z"), Value::Uint(1)),
        (s("a"), Value::Uint(1)),
    ]))
    .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::MissingField("b")), "{e}");
    // The array form, cut inside and after the flattened struct's items:
    // what is missing is filled (`c`) or reported (`b`, `a`).
    let arr = |n: u64| Value::Array((1..=n).map(Value::Uint).collect());
    let e = from_value::<Outer>(&arr(1)).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::MissingField("b")), "{e}");
    let e = from_value::<Outer>(&arr(2)).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::MissingField("a")), "{e}");
    let e = from_value::<Outer>(&arr(3)).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::MissingField("a")), "{e}");
    assert_eq!(from_value::<Outer>(&arr(4)).unwrap(), o);
    // A struct that is not flattened, in array form, is unchanged.
    let inner = from_value::<Inner>(&arr(2)).unwrap();
    assert_eq!(inner, Inner { b: 1, c: Some(2) });
}

#[derive(Codec, Debug, PartialEq)]
struct WithRest {
    id: u32,
    #[codec(rest)]
    extra: BTreeMap<String, Value>,
}

#[derive(Codec, Debug, PartialEq)]
struct OuterRest {
    #[codec(flatten)]
    inner: WithRest,
    name: String,
}

#[test]
fn rest() {
    let v = map(vec![
        (s("x"), Value::Bool(true)),
        (s("id"), Value::Uint(1)),
        (s("b"), s("y")),
    ]);
    let r: WithRest = from_value(&v).unwrap();
    assert_eq!(r.id, 1);
    assert_eq!(r.extra.len(), 2);
    let back = to_value(&r).unwrap();
    assert_eq!(keys(&back), ["id", "b", "x"]);
    let c = with_opts(&r, |o| o.canonical = true);
    assert_eq!(keys(&c), ["b", "id", "x"]);
    // an outer struct hands unknown keys to the flattened struct's rest map
    let v = map(vec![
        (s("name"), s("n")),
        (s("id"), Value::Uint(1)),
        (s("q"), Value::Nil),
    ]);
    let o: OuterRest = from_value(&v).unwrap();
    assert_eq!(o.inner.extra.get("q"), Some(&Value::Nil));
    assert_eq!(o.name, "n");
    // an unknown key given twice is a duplicate field, not a last-one-wins
    let dup = map(vec![
        (s("q"), Value::Uint(1)),
        (s("id"), Value::Uint(1)),
        (s("q"), Value::Uint(2)),
    ]);
    let e = from_value::<WithRest>(&dup).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::DuplicateField(k) if k == "q"),
        "{e}"
    );
    let e = from_value::<OuterRest>(&dup).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::DuplicateField(k) if k == "q"),
        "{e}"
    );
}

mod hex {
    use codec::{DecodeFormat, Decoder, EncodeFormat, Encoder, Read, Result, Write};
    pub fn encode<W: Write, F: EncodeFormat>(v: &u32, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_str(&format!("{v:x}"))
    }
    pub fn decode<'de, R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<u32> {
        let s = d.decode_str()?;
        u32::from_str_radix(&s, 16).map_err(codec::Error::custom)
    }
}

#[derive(Codec, Debug, PartialEq)]
struct With {
    #[codec(with = "hex")]
    v: u32,
}

#[test]
fn with_module() {
    let v = to_value(&With { v: 255 }).unwrap();
    assert_eq!(v, map(vec![(s("v"), s("ff"))]));
    assert_eq!(from_value::<With>(&v).unwrap(), With { v: 255 });
}

#[derive(Codec, Debug, PartialEq)]
struct Generic<T, U> {
    t: T,
    u: Vec<U>,
    #[codec(skip)]
    p: std::marker::PhantomData<U>,
}

#[derive(Codec, Debug, PartialEq)]
#[codec(bound = "T: codec::Encode + for<'x> codec::Decode<'x>")]
struct Bounded<T> {
    t: Option<T>,
}

#[test]
fn generics() {
    let g = Generic {
        t: "a".to_string(),
        u: vec![1u8, 2],
        p: Default::default(),
    };
    let v = to_value(&g).unwrap();
    assert_eq!(from_value::<Generic<String, u8>>(&v).unwrap(), g);
    let b = Bounded { t: Some(1u64) };
    assert_eq!(
        from_value::<Bounded<u64>>(&to_value(&b).unwrap()).unwrap(),
        b
    );
}

#[derive(Codec, Debug, PartialEq)]
#[codec(crate = "codec_core")]
struct OtherPath {
    a: u8,
}

#[test]
fn crate_path() {
    let v = to_value(&OtherPath { a: 1 }).unwrap();
    assert_eq!(from_value::<OtherPath>(&v).unwrap(), OtherPath { a: 1 });
}

#[test]
fn unknown_field_option() {
    let opts = codec::Options::default()
        .error_on_unknown_field(true)
        .decode;
    let v = map(vec![
        (s("x"), Value::Int(1)),
        (s("q"), Value::Nil),
        (s("y"), Value::Int(2)),
    ]);
    let e = codec::from_value_with::<Point>(&v, opts.clone()).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::UnknownField(k) if k == "q"),
        "{e}"
    );
    let v = map(vec![
        (Value::Int(3), Value::Uint(1)),
        (Value::Int(9), Value::Nil),
    ]);
    let e = codec::from_value_with::<IntKeys>(&v, opts.clone()).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::UnknownField(k) if k == "9"),
        "{e}"
    );
    // rest keeps unknown keys even then
    let v = map(vec![(s("id"), Value::Uint(1)), (s("q"), Value::Nil)]);
    assert!(codec::from_value_with::<WithRest>(&v, opts.clone()).is_ok());
    let overflow = codec::Options::default()
        .error_on_array_overflow(true)
        .decode;
    let v = Value::Array(vec![Value::Int(1), Value::Int(2), Value::Int(3)]);
    assert!(codec::from_value_with::<Point>(&v, overflow).is_err());
}

/// An enum without variants has no value.
#[derive(Codec, Debug)]
enum Never {}

#[test]
fn enum_without_variants_decodes_from_nothing() {
    for v in [
        Value::Nil,
        s("A"),
        Value::Uint(0),
        map(vec![(s("A"), Value::Nil)]),
    ] {
        let e = from_value::<Never>(&v).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::TypeMismatch { expected, .. }
                if *expected == "a value of Never (an enum with no variants)"),
            "{v:?}: {e}"
        );
    }
    // Containers holding none of it encode and decode as usual.
    assert_eq!(
        to_value(&Vec::<Never>::new()).unwrap(),
        Value::Array(vec![])
    );
    assert!(
        from_value::<Vec<Never>>(&Value::Array(vec![]))
            .unwrap()
            .is_empty()
    );
    assert!(from_value::<Option<Never>>(&Value::Nil).unwrap().is_none());
}
