//! Unknown and missing fields across formats (ugorji's ErrorIfNoField,
//! MissingFielder, ErrorIfNoArrayExpand), and the dynamic decoding choices
//! for `Value` (MapType, PreferFloat, SignedInteger counterparts).

mod common;

use codec::{Codec, ErrorKind, Handle, Options, Value, ValueMaps, from_slice, to_vec};
use std::collections::BTreeMap;

#[derive(Codec, Debug, PartialEq)]
struct Wide {
    a: u32,
    b: String,
    extra: bool,
    more: Vec<u8>,
}

#[derive(Codec, Debug, PartialEq)]
struct Narrow {
    a: u32,
    b: String,
}

#[derive(Codec, Debug, PartialEq)]
struct Keeper {
    a: u32,
    #[codec(rest)]
    rest: BTreeMap<String, Value>,
}

#[derive(Codec, Debug, PartialEq)]
struct Defaults {
    a: u32,
    #[codec(default)]
    b: String,
    #[codec(default = "seven")]
    c: u8,
    d: Option<u8>,
}

fn seven() -> u8 {
    7
}

#[derive(Codec, Debug, PartialEq)]
struct Pair(u8, u8);

fn wide() -> Wide {
    Wide {
        a: 1,
        b: "x".into(),
        extra: true,
        more: vec![1, 2],
    }
}

#[test]
fn unknown_fields_are_skipped_or_rejected() {
    each_handle!(h => {
        let bytes = to_vec(&wide(), &h).unwrap();
        let n: Narrow = from_slice(&bytes, &h).unwrap();
        assert_eq!(n, Narrow { a: 1, b: "x".into() }, "{}", h.name());
    });
    each_handle_with!(Options::default().error_on_unknown_field(true), h => {
        let bytes = to_vec(&wide(), &h).unwrap();
        let err = from_slice::<Narrow, _>(&bytes, &h).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::UnknownField(f) if f == "extra"), "{}: {err}", h.name());
    });
}

/// Replaces the first occurrence of `from` in `bytes` with `to` (same length).
fn patch(bytes: &mut [u8], from: &[u8], to: &[u8]) {
    let at = bytes
        .windows(from.len())
        .position(|w| w == from)
        .expect("pattern present");
    bytes[at..at + to.len()].copy_from_slice(to);
}

#[derive(Codec, Debug, PartialEq)]
enum Shape {
    Circle(u8),
    Square(u8),
}

/// Keys are matched as raw bytes (no UTF-8 check up front); a key that
/// matches no name is still checked, so invalid UTF-8 is an error, whether
/// the key would be skipped, rejected or kept, and in enum variant names.
#[test]
fn keys_that_match_no_name_must_be_valid_utf8() {
    each_handle!(h => {
        let mut bytes = to_vec(&wide(), &h).unwrap();
        patch(&mut bytes, b"extra", b"extr\xff");
        let err = from_slice::<Narrow, _>(&bytes, &h).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::InvalidUtf8), "{}: {err}", h.name());
        let err = from_slice::<Keeper, _>(&bytes, &h).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::InvalidUtf8), "{}: {err}", h.name());
        // The same bytes with a valid unknown key decode (the key is skipped).
        patch(&mut bytes, b"extr\xff", b"extrb");
        let n: Narrow = from_slice(&bytes, &h).unwrap();
        assert_eq!(n.a, 1, "{}", h.name());

        let mut bytes = to_vec(&Shape::Square(3), &h).unwrap();
        patch(&mut bytes, b"Square", b"Squar\xc3");
        let err = from_slice::<Shape, _>(&bytes, &h).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::InvalidUtf8), "{}: {err}", h.name());
        patch(&mut bytes, b"Squar\xc3", b"Square");
        assert_eq!(from_slice::<Shape, _>(&bytes, &h).unwrap(), Shape::Square(3));
        let circle = to_vec(&Shape::Circle(1), &h).unwrap();
        assert_eq!(from_slice::<Shape, _>(&circle, &h).unwrap(), Shape::Circle(1));
    });
}

#[test]
fn rest_keeps_unknown_fields_and_writes_them_back() {
    each_handle!(h => {
        let bytes = to_vec(&wide(), &h).unwrap();
        let k: Keeper = from_slice(&bytes, &h).unwrap();
        assert_eq!(k.a, 1, "{}", h.name());
        let keys: Vec<&str> = k.rest.keys().map(String::as_str).collect();
        assert_eq!(keys, ["b", "extra", "more"], "{}", h.name());
        // Written back, the document decodes as the wide struct again.
        let back: Wide = from_slice(&to_vec(&k, &h).unwrap(), &h).unwrap();
        assert_eq!(back, wide(), "{}", h.name());
    });
}

#[test]
fn missing_required_fields_name_the_field_and_defaults_fill() {
    each_handle!(h => {
        let bytes = to_vec(&Narrow { a: 3, b: "y".into() }, &h).unwrap();
        let err = from_slice::<Wide, _>(&bytes, &h).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::MissingField("extra")), "{}: {err}", h.name());
        assert!(err.to_string().contains("extra"), "{}", h.name());
        let only_a: BTreeMap<&str, u32> = [("a", 5)].into();
        let d: Defaults = from_slice(&to_vec(&only_a, &h).unwrap(), &h).unwrap();
        assert_eq!(d, Defaults { a: 5, b: String::new(), c: 7, d: None }, "{}", h.name());
    });
}

#[test]
fn arrays_longer_than_a_fixed_target() {
    each_handle!(h => {
        let bytes = to_vec(&vec![1u32, 2, 3], &h).unwrap();
        assert_eq!(from_slice::<Pair, _>(&bytes, &h).unwrap(), Pair(1, 2), "{}", h.name());
        assert_eq!(from_slice::<(u8, u8), _>(&bytes, &h).unwrap(), (1, 2), "{}", h.name());
    });
    each_handle_with!(Options::default().error_on_array_overflow(true), h => {
        let bytes = to_vec(&vec![1u32, 2, 3], &h).unwrap();
        for err in [
            from_slice::<Pair, _>(&bytes, &h).map(|_| ()).unwrap_err(),
            from_slice::<(u8, u8), _>(&bytes, &h).map(|_| ()).unwrap_err(),
            from_slice::<[u32; 2], _>(&bytes, &h).map(|_| ()).unwrap_err(),
        ] {
            assert!(matches!(err.kind(), ErrorKind::InvalidLength { expected: 2, found: 3 }), "{}: {err}", h.name());
        }
    });
}

/// A struct with named fields read from an array: items past its fields
/// are skipped, or an error with `error_on_unknown_field` (ugorji's
/// `ErrorIfNoField`: an item with no field) or `error_on_array_overflow`,
/// both by `decode` and by `decode_into`.
#[test]
fn arrays_longer_than_a_struct() {
    let narrow = || Narrow {
        a: 1,
        b: "x".into(),
    };
    each_handle!(h => {
        let bytes = to_vec(&(1u32, "x", true), &h).unwrap();
        assert_eq!(from_slice::<Narrow, _>(&bytes, &h).unwrap(), narrow(), "{}", h.name());
    });
    let strict = [
        Options::default().error_on_unknown_field(true),
        Options::default().error_on_array_overflow(true),
    ];
    for o in strict {
        each_handle_with!(o.clone(), h => {
            let bytes = to_vec(&(1u32, "x", true), &h).unwrap();
            let err = from_slice::<Narrow, _>(&bytes, &h).unwrap_err();
            assert!(matches!(err.kind(), ErrorKind::InvalidLength { expected: 2, found: 3 }), "{}: {err}", h.name());
            let mut target = Narrow { a: 0, b: String::new() };
            let err = h.decoder(&bytes).decode_into(&mut target).unwrap_err();
            assert!(matches!(err.kind(), ErrorKind::InvalidLength { expected: 2, found: 3 }), "{}: {err}", h.name());
            // Exactly its fields: no error.
            let bytes = to_vec(&(1u32, "x"), &h).unwrap();
            assert_eq!(from_slice::<Narrow, _>(&bytes, &h).unwrap(), narrow(), "{}", h.name());
        });
    }
}

#[test]
fn value_map_modes() {
    // A map with a repeated key, written by hand through Value.
    let dup = Value::Map(vec![
        (Value::Str("b".into()), Value::Uint(1)),
        (Value::Str("a".into()), Value::Uint(2)),
        (Value::Str("b".into()), Value::Uint(3)),
    ]);
    let s = |k: &str| Value::Str(k.into());
    each_handle!(h => {
        let bytes = to_vec(&dup, &h).unwrap();
        let v: Value = from_slice(&bytes, &h).unwrap();
        assert_eq!(to_vec(&v, &h).unwrap(), bytes, "{}: ordered keeps all", h.name());
    });
    each_handle_with!(Options::default().value_maps(ValueMaps::LastWins), h => {
        let v: Value = from_slice(&to_vec(&dup, &h).unwrap(), &h).unwrap();
        let Value::Map(m) = v else { panic!() };
        let keys: Vec<&Value> = m.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, [&s("b"), &s("a")], "{}", h.name());
        assert_eq!(m[0].1.as_u64(), Some(3), "{}", h.name());
    });
    each_handle_with!(Options::default().value_maps(ValueMaps::Sorted), h => {
        let v: Value = from_slice(&to_vec(&dup, &h).unwrap(), &h).unwrap();
        let Value::Map(m) = v else { panic!() };
        let keys: Vec<&Value> = m.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, [&s("a"), &s("b")], "{}", h.name());
        assert_eq!(m[1].1.as_u64(), Some(3), "{}", h.name());
    });
    each_handle_with!(Options::default().value_maps(ValueMaps::RejectDuplicates), h => {
        let err = from_slice::<Value, _>(&to_vec(&dup, &h).unwrap(), &h).unwrap_err();
        assert!(err.to_string().contains("duplicate"), "{}: {err}", h.name());
    });
}

/// A repeated key is reported at itself, as soon as it is read (before
/// its value, which here is not even valid), with the entry it starts, in
/// maps nested in arrays and maps, keys of any kind; distinct keys of one
/// hash are not taken for duplicates (a map of 2,000 keys is read).
#[test]
fn a_duplicate_key_is_reported_at_itself() {
    let s = |k: &str| Value::Str(k.into());
    let int_keys = |n: i64| Value::Map((0..n).map(|k| (Value::Int(k), Value::Nil)).collect());
    each_handle_with!(Options::default().value_maps(ValueMaps::RejectDuplicates), h => {
        let name = h.name();
        // A key of any kind (JSON's are text).
        let k = match name {
            "json" => s("k"),
            _ => Value::Array(vec![s("k")]),
        };
        let inner = Value::Map(vec![
            (k.clone(), Value::Uint(1)),
            (s("b"), Value::Uint(2)),
            (k.clone(), Value::Uint(3)),
        ]);
        let doc = Value::Array(vec![Value::Nil, Value::Map(vec![(s("x"), inner.clone())])]);
        let bytes = to_vec(&doc, &h).unwrap();
        let e = from_slice::<Value, _>(&bytes, &h).unwrap_err();
        assert_eq!(e.path_string(), "[1][\"x\"][key of entry 2]", "{name}: {e}");
        assert!(e.to_string().contains("duplicate map key "), "{name}: {e}");
        // At the repeated key.
        let at = e.offset().unwrap() as usize;
        let key = to_vec(&k, &h).unwrap();
        assert_eq!(&bytes[at..at + key.len()], &key[..], "{name}: {e}");
        // Found before the value is read: cut the input after the key.
        let e2 = from_slice::<Value, _>(&bytes[..at + key.len()], &h).unwrap_err();
        assert_eq!(e2.to_string(), e.to_string(), "{name}");
        // Many distinct keys, and the first repeat among them.
        let mut big = int_keys(2000);
        assert!(from_slice::<Value, _>(&to_vec(&big, &h).unwrap(), &h).is_ok(), "{name}");
        if let Value::Map(m) = &mut big {
            m.push((Value::Int(1234), Value::Nil));
        }
        let e = from_slice::<Value, _>(&to_vec(&big, &h).unwrap(), &h).unwrap_err();
        assert_eq!(e.path_string(), "[key of entry 2000]", "{name}: {e}");
    });
}

#[test]
fn prefer_float_and_signed_integer() {
    each_handle_with!(Options::default().prefer_float(true), h => {
        let v: Value = from_slice(&to_vec(&(3u32, -4i32), &h).unwrap(), &h).unwrap();
        assert_eq!(v, Value::Array(vec![Value::F64(3.0), Value::F64(-4.0)]), "{}", h.name());
    });
    each_handle_with!(Options::default().signed_integer(true), h => {
        let v: Value = from_slice(&to_vec(&7u64, &h).unwrap(), &h).unwrap();
        assert_eq!(v, Value::Int(7), "{}", h.name());
    });
}

/// Under the struct's `omitempty` (or the `omit_empty` option) a `rest`
/// map's empty values are left out too, as ugorji leaves out a
/// `MissingFielder`'s empty values; in declaration and canonical order.
#[test]
fn omitempty_leaves_out_empty_rest_values() {
    #[derive(Codec, Debug, PartialEq)]
    #[codec(omitempty)]
    struct OmitRest {
        b: i32,
        #[codec(rest)]
        rest: BTreeMap<String, Value>,
    }
    let rest: BTreeMap<String, Value> = [
        ("a".to_string(), Value::Nil),
        ("c".to_string(), Value::Uint(0)),
        ("d".to_string(), Value::Uint(1)),
        ("e".to_string(), Value::from("")),
    ]
    .into();
    let x = OmitRest {
        b: 0,
        rest: rest.clone(),
    };
    let json = codec::JsonHandle::default();
    assert_eq!(to_vec(&x, &json).unwrap(), br#"{"d":1}"#);
    // Keeper has a field `a`: its rest map holds `z` instead.
    let mut rest = rest;
    let nil = rest.remove("a").unwrap();
    rest.insert("z".to_string(), nil);
    let y = Keeper { a: 0, rest };
    each_handle_with!(Options::default().omit_empty(true), h => {
        let v: Value = from_slice(&to_vec(&y, &h).unwrap(), &h).unwrap();
        assert_eq!(v.as_map().map(|m| m.len()), Some(1), "{}: {v:?}", h.name());
        let v: Value = from_slice(&to_vec(&x, &h).unwrap(), &h).unwrap();
        assert_eq!(v.as_map().map(|m| m.len()), Some(1), "{}: {v:?}", h.name());
    });
    each_handle_with!(Options::default().omit_empty(true).canonical(true), h => {
        let v: Value = from_slice(&to_vec(&y, &h).unwrap(), &h).unwrap();
        assert_eq!(v.as_map().map(|m| m.len()), Some(1), "{}: {v:?}", h.name());
    });
    // Without either, every entry is written.
    each_handle!(h => {
        let v: Value = from_slice(&to_vec(&y, &h).unwrap(), &h).unwrap();
        assert_eq!(v.as_map().map(|m| m.len()), Some(5), "{}: {v:?}", h.name());
    });
}

/// Go's zero time is empty: `omit_empty` leaves it out (as ugorji leaves
/// out a zero `time.Time`), and it reads back as `Time::GO_ZERO`.
#[test]
fn omit_empty_leaves_out_the_zero_time() {
    use codec::Time;
    #[derive(Codec, Debug, PartialEq)]
    struct Stamp {
        a: u8,
        t: Time,
    }
    each_handle_with!(Options::default().omit_empty(true), h => {
        let zero = Stamp { a: 1, t: Time::GO_ZERO };
        let bytes = to_vec(&zero, &h).unwrap();
        let v: Value = from_slice(&bytes, &h).unwrap();
        assert_eq!(v.as_map().map(|m| m.len()), Some(1), "{}: {v:?}", h.name());
        assert_eq!(from_slice::<Stamp, _>(&bytes, &h).unwrap(), zero, "{}", h.name());
        let set = Stamp { a: 1, t: Time::from_unix(5, 0).unwrap() };
        let bytes = to_vec(&set, &h).unwrap();
        assert_eq!(from_slice::<Stamp, _>(&bytes, &h).unwrap(), set, "{}", h.name());
    });
}

/// Under `Options::omit_empty` a handle reads back what it writes: a field
/// left out as empty (in a plain struct, a recursive one, a flattened
/// one) decodes as its empty value. A field whose type has no empty value
/// (a struct) is never left out, and still required when absent.
#[test]
fn omit_empty_option_reads_back_what_it_writes() {
    #[derive(Codec, Debug, PartialEq, Default)]
    struct Inner {
        c: u32,
        s: String,
    }
    #[derive(Codec, Debug, PartialEq, Default)]
    struct Tree {
        n: i64,
        unit: (),
        kids: Vec<Tree>,
        ids: [u8; 2],
        boxed: Box<str>,
        inner: Inner,
        maybe: Option<Option<u8>>,
        #[codec(flatten)]
        flat: Inner,
    }
    let tree = Tree {
        n: 1,
        kids: vec![
            Tree::default(),
            Tree {
                ids: [0, 7],
                flat: Inner {
                    c: 0,
                    s: "x".into(),
                },
                ..Tree::default()
            },
        ],
        ..Tree::default()
    };
    each_handle_with!(Options::default().omit_empty(true), h => {
        let bytes = to_vec(&tree, &h).unwrap();
        assert_eq!(from_slice::<Tree, _>(&bytes, &h).unwrap(), tree, "{}", h.name());
        // Only `inner` (a struct: never empty) is written for an empty tree.
        let empty = to_vec(&Tree::default(), &h).unwrap();
        let v: Value = from_slice(&empty, &h).unwrap();
        assert_eq!(v.as_map().map(|m| m.len()), Some(1), "{}: {v:?}", h.name());
        // Absent from the input altogether: still required.
        let err = from_slice::<Tree, _>(&to_vec(&BTreeMap::<String, u8>::new(), &h).unwrap(), &h)
            .unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::MissingField("inner")), "{}: {err}", h.name());
    });
    // Writing with `omit_empty` alone, a reader without `absent_as_empty`
    // finds the fields missing.
    let mut options = Options::default();
    options.encode.omit_empty = true;
    let writer = codec::MsgpackHandle {
        options,
        ..Default::default()
    };
    let bytes = to_vec(&tree, &writer).unwrap();
    let err = from_slice::<Tree, _>(&bytes, &codec::MsgpackHandle::default()).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::MissingField(_)), "{err}");
    let reader = codec::MsgpackHandle {
        options: Options::default().absent_as_empty(true),
        ..Default::default()
    };
    assert_eq!(from_slice::<Tree, _>(&bytes, &reader).unwrap(), tree);
}

/// `prefer_float` is for dynamic values: typed targets that look at what
/// comes next (an enum read by its integer tag, an `Option`, a map key)
/// still see integers, in every handle and with JSON's own setting.
#[test]
fn prefer_float_leaves_typed_targets_alone() {
    #[derive(Codec, Debug, PartialEq)]
    #[codec(index)]
    enum Tagged {
        Zero,
        #[codec(index = -5)]
        Minus(u8),
        #[codec(index = 300)]
        Big,
    }
    type Rec = (Vec<Tagged>, Option<i64>, BTreeMap<u16, Tagged>);
    let rec: Rec = (
        vec![Tagged::Zero, Tagged::Minus(2), Tagged::Big],
        Some(-7),
        [(300, Tagged::Big), (0, Tagged::Zero)]
            .into_iter()
            .collect(),
    );
    each_handle_with!(Options::default().prefer_float(true), h => {
        let bytes = to_vec(&rec, &h).unwrap();
        assert_eq!(from_slice::<Rec, _>(&bytes, &h).unwrap(), rec, "{}", h.name());
        let v: Value = from_slice(&bytes, &h).unwrap();
        assert_eq!(v.as_array().unwrap()[1], Value::F64(-7.0), "{}", h.name());
    });
    for h in [
        codec::JsonHandle::default().prefer_float(true),
        codec::JsonHandle::default()
            .prefer_float(true)
            .parse_quoted_keys(true),
    ] {
        let bytes = to_vec(&rec, &h).unwrap();
        assert_eq!(from_slice::<Rec, _>(&bytes, &h).unwrap(), rec);
        assert_eq!(from_slice::<Tagged, _>(b"300", &h).unwrap(), Tagged::Big);
        assert_eq!(from_slice::<Tagged, _>(b"0", &h).unwrap(), Tagged::Zero);
        let v: Value = from_slice(&bytes, &h).unwrap();
        assert_eq!(v.as_array().unwrap()[1], Value::F64(-7.0));
        let doc: codec::Document = from_slice(&bytes, &h).unwrap();
        assert_eq!(doc.to_value(), v);
    }
}

/// Nil into an enum with integer tags is tag 0 where the handle reads nil
/// as a zero integer (Binc, Simple: ugorji writes a zero Go "enum" as nil
/// under `EncZeroValuesAsNil`), and the type mismatch it is for an integer
/// where it does not (MessagePack, CBOR, JSON).
#[test]
fn nil_into_an_integer_enum_is_tag_zero_where_nil_is_a_zero_integer() {
    #[derive(Codec, Debug, PartialEq)]
    #[codec(index)]
    enum Tagged {
        Zero,
        One,
    }
    each_handle_with!(Options::default(), h => {
        let nil = to_vec(&None::<u8>, &h).unwrap();
        let got = from_slice::<Tagged, _>(&nil, &h);
        match from_slice::<u8, _>(&nil, &h) {
            Ok(0) => assert_eq!(got.unwrap(), Tagged::Zero, "{}", h.name()),
            other => {
                assert!(other.is_err(), "{}", h.name());
                let e = got.unwrap_err();
                assert!(
                    matches!(e.kind(), ErrorKind::TypeMismatch { .. }),
                    "{}: {e}",
                    h.name()
                );
            }
        }
    });
}

/// JSON writes `,"name":` from a fixed-size copy of short names and the
/// general way for long ones: both give the same text, first field or not.
#[test]
fn json_field_keys_of_every_length() {
    #[derive(Codec, Debug, PartialEq)]
    struct Names {
        a: u8,
        twelve_bytes: u8,
        thirteen_byte: u8,
        sixteen_bytes_ab: u8,
        exactly_twenty_four_byte: u8,
        exactly_twenty_five_bytes: u8,
        a_much_longer_name_than_any_key_cache_would_hold: u8,
        #[codec(rename = "x<y")]
        escaped: u8,
    }
    let v = Names {
        a: 1,
        twelve_bytes: 12,
        thirteen_byte: 13,
        sixteen_bytes_ab: 16,
        exactly_twenty_four_byte: 2,
        exactly_twenty_five_bytes: 3,
        a_much_longer_name_than_any_key_cache_would_hold: 4,
        escaped: 5,
    };
    let h = codec::JsonHandle::default();
    let text = String::from_utf8(codec::to_vec(&v, &h).unwrap()).unwrap();
    assert_eq!(
        text,
        r#"{"a":1,"twelve_bytes":12,"thirteen_byte":13,"sixteen_bytes_ab":16,"exactly_twenty_four_byte":2,"exactly_twenty_five_bytes":3,"a_much_longer_name_than_any_key_cache_would_hold":4,"x\u003cy":5}"#
    );
    assert_eq!(
        codec::from_slice::<Names, _>(text.as_bytes(), &h).unwrap(),
        v
    );
    #[derive(Codec, Debug, PartialEq)]
    struct Long {
        exactly_twenty_five_bytes: u8,
        exactly_twenty_four_byte: u8,
    }
    #[derive(Codec, Debug, PartialEq)]
    struct Twelve {
        twelve_bytes: u8,
        thirteen_byte: u8,
    }
    let text = codec::to_vec(
        &Twelve {
            twelve_bytes: 1,
            thirteen_byte: 2,
        },
        &h,
    )
    .unwrap();
    assert_eq!(text, br#"{"twelve_bytes":1,"thirteen_byte":2}"#);
    #[derive(Codec, Debug, PartialEq)]
    struct Thirteen {
        thirteen_byte: u8,
        twelve_bytes: u8,
        #[codec(rename = "")]
        empty: u8,
    }
    let text = codec::to_vec(
        &Thirteen {
            thirteen_byte: 1,
            twelve_bytes: 2,
            empty: 3,
        },
        &h,
    )
    .unwrap();
    assert_eq!(text, br#"{"thirteen_byte":1,"twelve_bytes":2,"":3}"#);
    let text = codec::to_vec(
        &Long {
            exactly_twenty_five_bytes: 1,
            exactly_twenty_four_byte: 2,
        },
        &h,
    )
    .unwrap();
    assert_eq!(
        text,
        br#"{"exactly_twenty_five_bytes":1,"exactly_twenty_four_byte":2}"#
    );
}

#[derive(Codec, Debug, PartialEq, Default)]
struct Sparse {
    #[codec(default)]
    a: u32,
    #[codec(omitempty)]
    always: String,
    #[codec(default)]
    b: String,
    c: Option<u8>,
    #[codec(default)]
    d: Vec<u8>,
    #[codec(default)]
    e: bool,
    /// Written through `with`: never tested for emptiness.
    #[codec(with = "as_u8")]
    kept: u8,
}

mod as_u8 {
    use codec::{Decode, DecodeFormat, Decoder, EncodeFormat, Encoder, Read, Result, Write};
    pub fn encode<W: Write, F: EncodeFormat>(v: &u8, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_u64(u64::from(*v))
    }
    pub fn decode<'de, R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<u8> {
        u8::decode(d)
    }
}

/// The option `omit_empty` leaves out every empty field, and a binary
/// map's header counts exactly the entries written (decoded back as a
/// `Value`, a wrong count reads past the map or stops short of it).
#[test]
fn omit_empty_option_counts_the_entries_written() {
    let sparse = |b: &str, e: bool| Sparse {
        b: b.into(),
        e,
        ..Sparse::default()
    };
    let keys = |v: &Value| -> Vec<String> {
        let Value::Map(m) = v else {
            panic!("not a map: {v:?}")
        };
        m.iter()
            .map(|(k, _)| k.as_str().unwrap().to_owned())
            .collect()
    };
    each_handle_with!(Options::default().omit_empty(true), h => {
        for (v, want) in [
            (sparse("", false), vec!["kept"]),
            (sparse("x", false), vec!["b", "kept"]),
            (sparse("", true), vec!["e", "kept"]),
        ] {
            let bytes = to_vec(&v, &h).unwrap();
            let back: Value = from_slice(&bytes, &h).unwrap();
            assert_eq!(keys(&back), want, "{}", h.name());
            let typed: Sparse = from_slice(&bytes, &h).unwrap();
            assert_eq!(typed, v);
        }
    });
    // Without the option only `#[codec(omitempty)]` fields are left out.
    each_handle!(h => {
        let bytes = to_vec(&sparse("", false), &h).unwrap();
        let back: Value = from_slice(&bytes, &h).unwrap();
        assert_eq!(keys(&back), ["a", "b", "c", "d", "e", "kept"], "{}", h.name());
    });
}
