//! Decoding into an existing value: allocations of `String`, `Vec`,
//! `VecDeque` and maps are reused, derived structs decode field by field, and
//! ugorji's `MapValueReset` / `InterfaceReset` / `DeleteOnNilMapValue`
//! choices are honoured.

mod common;

use codec::{Codec, Decoder, Handle, Options, Value, to_vec};
use std::collections::{BTreeMap, HashMap, VecDeque};

#[derive(Codec, Debug, Clone, PartialEq, Default)]
struct Item {
    name: String,
    tags: Vec<String>,
    score: i32,
}

#[derive(Codec, Debug, Clone, PartialEq, Default)]
struct Doc {
    title: String,
    items: Vec<Item>,
    queue: VecDeque<u32>,
    index: BTreeMap<String, Item>,
    counts: HashMap<String, Vec<u8>>,
    note: Option<String>,
    boxed: Box<Item>,
    #[codec(skip)]
    local: u32,
}

#[derive(Codec, Debug, Clone, PartialEq, Default)]
struct Partial {
    #[codec(default)]
    title: String,
    #[codec(default)]
    score: i32,
}

fn into<'de, T: codec::Decode<'de>, H: Handle>(bytes: &'de [u8], h: &H, target: &mut T) {
    let mut d = h.decoder(bytes);
    d.decode_into(target)
        .unwrap_or_else(|e| panic!("{}: {e}", h.name()));
    d.finish().unwrap();
}

fn item(n: &str, s: i32) -> Item {
    Item {
        name: n.into(),
        tags: vec![format!("{n}-a"), format!("{n}-b")],
        score: s,
    }
}

fn doc(k: i32) -> Doc {
    Doc {
        title: format!("title {k}"),
        items: (0..3).map(|i| item(&format!("i{i}"), i + k)).collect(),
        queue: (0..4).map(|i| (i + k) as u32).collect(),
        index: [
            ("x".to_string(), item("x", k)),
            ("y".to_string(), item("y", k)),
        ]
        .into(),
        counts: [("c".to_string(), vec![1, 2, k as u8])].into(),
        note: Some(format!("note {k}")),
        boxed: Box::new(item("boxed", k)),
        local: 0,
    }
}

#[test]
fn decode_into_reuses_allocations_in_every_format() {
    each_handle!(h => {
        let name = h.name();
        let mut target = doc(1);
        target.local = 99;
        let title_ptr = target.title.as_ptr();
        let items_ptr = target.items.as_ptr();
        let tag_ptr = target.items[0].tags[0].as_ptr();
        let queue_cap = target.queue.capacity();
        let boxed_ptr: *const Item = &*target.boxed;
        let note_ptr = target.note.as_ref().unwrap().as_ptr();
        let want = doc(2);
        into(&to_vec(&want, &h).unwrap(), &h, &mut target);
        assert_eq!(target.local, 99, "{name}: skipped fields are untouched");
        target.local = 0;
        assert_eq!(target, want, "{name}");
        assert_eq!(target.title.as_ptr(), title_ptr, "{name}: String buffer reused");
        assert_eq!(target.items.as_ptr(), items_ptr, "{name}: Vec buffer reused");
        assert_eq!(target.items[0].tags[0].as_ptr(), tag_ptr, "{name}: nested String reused");
        assert_eq!(target.queue.capacity(), queue_cap, "{name}");
        assert!(std::ptr::eq(&*target.boxed, boxed_ptr), "{name}: Box reused");
        assert_eq!(target.note.as_ref().unwrap().as_ptr(), note_ptr, "{name}: Option content reused");
    });
}

#[test]
fn absent_fields_keep_their_values_and_lengths_adjust() {
    each_handle!(h => {
        let name = h.name();
        // Only some fields in the input: the others stay (ugorji's decode into a non-nil struct).
        let mut target = doc(1);
        into(&to_vec(&Partial { title: "new".into(), score: 5 }, &h).unwrap(), &h, &mut target);
        let mut want = doc(1);
        want.title = "new".into();
        assert_eq!(target, want, "{name}");
        // Shorter and longer arrays.
        let mut v = vec![item("a", 1), item("b", 2), item("c", 3)];
        into(&to_vec(&vec![item("z", 9)], &h).unwrap(), &h, &mut v);
        assert_eq!(v, vec![item("z", 9)], "{name}");
        into(&to_vec(&vec![item("p", 1), item("q", 2)], &h).unwrap(), &h, &mut v);
        assert_eq!(v, vec![item("p", 1), item("q", 2)], "{name}");
        // nil: None and empty.
        let mut o = Some(item("a", 1));
        into(&to_vec(&Option::<Item>::None, &h).unwrap(), &h, &mut o);
        assert_eq!(o, None, "{name}");
        // ... and into collections, as ugorji sets a nil slice or map: emptied.
        let nil = to_vec(&Option::<u8>::None, &h).unwrap();
        let mut v = vec![item("a", 1)];
        into(&nil, &h, &mut v);
        assert!(v.is_empty(), "{name}: Vec");
        let mut m = BTreeMap::from([("a".to_string(), 1u32)]);
        into(&nil, &h, &mut m);
        assert!(m.is_empty(), "{name}: BTreeMap");
        let mut m = std::collections::HashMap::from([("a".to_string(), 1u32)]);
        into(&nil, &h, &mut m);
        assert!(m.is_empty(), "{name}: HashMap");
        // Bytes reuse their buffer.
        let mut b: Vec<u8> = Vec::with_capacity(64);
        let p = b.as_ptr();
        into(&to_vec(&vec![7u8; 10], &h).unwrap(), &h, &mut b);
        assert_eq!(b, vec![7u8; 10], "{name}");
        assert_eq!(b.as_ptr(), p, "{name}");
    });
}

#[test]
fn map_values_are_merged_unless_map_value_reset() {
    let existing = || -> BTreeMap<String, Partial> {
        [
            (
                "a".to_string(),
                Partial {
                    title: "keep".into(),
                    score: 1,
                },
            ),
            (
                "b".to_string(),
                Partial {
                    title: "old".into(),
                    score: 2,
                },
            ),
        ]
        .into()
    };
    // The input sets only `score` of "b" and adds "c".
    let input: BTreeMap<String, BTreeMap<String, i32>> = [
        ("b".to_string(), [("score".to_string(), 20)].into()),
        ("c".to_string(), [("score".to_string(), 30)].into()),
    ]
    .into();
    each_handle!(h => {
        let bytes = to_vec(&input, &h).unwrap();
        let mut m = existing();
        into(&bytes, &h, &mut m);
        assert_eq!(m["a"], Partial { title: "keep".into(), score: 1 }, "{}", h.name());
        assert_eq!(m["b"], Partial { title: "old".into(), score: 20 }, "{}: merged", h.name());
        assert_eq!(m["c"], Partial { title: String::new(), score: 30 }, "{}", h.name());
    });
    each_handle_with!(Options::default().map_value_reset(true), h => {
        let bytes = to_vec(&input, &h).unwrap();
        let mut m = existing();
        into(&bytes, &h, &mut m);
        assert_eq!(m["b"], Partial { title: String::new(), score: 20 }, "{}: replaced", h.name());
        assert_eq!(m["a"].title, "keep", "{}", h.name());
    });
}

#[test]
fn delete_on_nil_map_value() {
    let input: BTreeMap<String, Option<i32>> =
        [("a".to_string(), None), ("b".to_string(), Some(5))].into();
    each_handle_with!(Options::default().delete_on_nil_map_value(true), h => {
        let mut m: HashMap<String, Option<i32>> = [("a".to_string(), Some(1)), ("z".to_string(), Some(2))].into();
        into(&to_vec(&input, &h).unwrap(), &h, &mut m);
        let want: HashMap<String, Option<i32>> = [("b".to_string(), Some(5)), ("z".to_string(), Some(2))].into();
        assert_eq!(m, want, "{}", h.name());
    });
    each_handle!(h => {
        let mut m: HashMap<String, Option<i32>> = [("a".to_string(), Some(1))].into();
        into(&to_vec(&input, &h).unwrap(), &h, &mut m);
        assert_eq!(m["a"], None, "{}: nil is a value by default", h.name());
    });
}

#[test]
fn values_merge_unless_interface_reset() {
    let existing = || {
        Value::Map(vec![
            (Value::Str("keep".into()), Value::Uint(1)),
            (
                Value::Str("inner".into()),
                Value::Map(vec![(Value::Str("x".into()), Value::Uint(1))]),
            ),
        ])
    };
    let input = Value::Map(vec![(
        Value::Str("inner".into()),
        Value::Map(vec![(Value::Str("y".into()), Value::Uint(2))]),
    )]);
    each_handle!(h => {
        let bytes = to_vec(&input, &h).unwrap();
        let mut v = existing();
        into(&bytes, &h, &mut v);
        let want = Value::Map(vec![
            (Value::Str("keep".into()), Value::Uint(1)),
            (
                Value::Str("inner".into()),
                Value::Map(vec![
                    (Value::Str("x".into()), Value::Uint(1)),
                    (Value::Str("y".into()), Value::Uint(2)),
                ]),
            ),
        ]);
        // Compare as encoded (formats differ in reading small integers as signed or unsigned).
        assert_eq!(to_vec(&v, &h).unwrap(), to_vec(&want, &h).unwrap(), "{}: merged", h.name());
        // A different kind replaces.
        let mut v = existing();
        into(&to_vec(&"text", &h).unwrap(), &h, &mut v);
        assert_eq!(v, Value::Str("text".into()), "{}", h.name());
    });
    each_handle_with!(Options::default().interface_reset(true), h => {
        let bytes = to_vec(&input, &h).unwrap();
        let mut v = existing();
        into(&bytes, &h, &mut v);
        let fresh: Value = codec::from_slice(&bytes, &h).unwrap();
        assert_eq!(v, fresh, "{}: replaced", h.name());
    });
}

#[test]
fn one_decoder_many_documents() {
    each_handle!(h => {
        let docs: Vec<Vec<u8>> = (0..5).map(|k| to_vec(&doc(k), &h).unwrap()).collect();
        let mut target = Doc::default();
        let mut d: Decoder<'_, _, _> = h.decoder(&docs[0]);
        for (k, bytes) in docs.iter().enumerate() {
            d.reset(codec::SliceReader::new(bytes));
            d.decode_into(&mut target).unwrap();
            d.finish().unwrap();
            assert_eq!(target, doc(k as i32), "{}", h.name());
        }
    });
}

/// `Item`'s fields in another order, and a key `Item` does not have.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
struct Reordered {
    score: i32,
    extra: bool,
    name: String,
}

#[test]
fn keys_in_any_order_unknown_keys_array_form_and_mismatch() {
    let reordered = Reordered {
        score: 7,
        extra: true,
        name: "n".into(),
    };
    each_handle!(h => {
        let name = h.name();
        // Any key order; the unknown key is skipped, the absent field kept.
        let mut target = item("old", 1);
        into(&to_vec(&reordered, &h).unwrap(), &h, &mut target);
        assert_eq!(target, Item { name: "n".into(), tags: item("old", 1).tags, score: 7 }, "{name}");
        // Not a map or an array: a type mismatch at the start.
        let bytes = to_vec(&5u8, &h).unwrap();
        let err = h.decoder(&bytes).decode_into(&mut target).unwrap_err();
        assert!(matches!(err.kind(), codec::ErrorKind::TypeMismatch { .. }), "{name}: {err}");
        assert_eq!(err.offset(), Some(0), "{name}");
    });
    each_handle_with!(Options::default().error_on_unknown_field(true), h => {
        let bytes = to_vec(&reordered, &h).unwrap();
        let mut target = item("old", 1);
        let err = h.decoder(&bytes).decode_into(&mut target).unwrap_err();
        assert!(
            matches!(err.kind(), codec::ErrorKind::UnknownField(k) if k == "extra"),
            "{}: {err}",
            h.name()
        );
    });
    each_handle_with!(Options::default().struct_to_array(true), h => {
        let name = h.name();
        // The array form: items by position; a shorter array leaves the rest.
        let mut target = item("old", 1);
        into(&to_vec(&item("new", 2), &h).unwrap(), &h, &mut target);
        assert_eq!(target, item("new", 2), "{name}");
        into(&to_vec(&("short",), &h).unwrap(), &h, &mut target);
        assert_eq!(target, Item { name: "short".into(), ..item("new", 2) }, "{name}");
        // A longer one has its extra items skipped...
        let bytes = to_vec(&("a", vec!["b"], 3, 4), &h).unwrap();
        into(&bytes, &h, &mut target);
        assert_eq!(target, Item { name: "a".into(), tags: vec!["b".into()], score: 3 }, "{name}");
    });
    // ...unless that is an error (ugorji's `ErrorIfNoArrayExpand`).
    each_handle_with!(Options::default().struct_to_array(true).error_on_array_overflow(true), h => {
        let bytes = to_vec(&("a", vec!["b"], 3, 4), &h).unwrap();
        let mut target = item("old", 1);
        let err = h.decoder(&bytes).decode_into(&mut target).unwrap_err();
        assert!(
            matches!(err.kind(), codec::ErrorKind::InvalidLength { expected: 3, found: 4 }),
            "{}: {err}",
            h.name()
        );
    });
}

/// A field given twice is a `DuplicateField` error to `decode_into`, at
/// the second key, as it is to `decode` (text keys and integer keys).
#[test]
fn decode_into_rejects_a_field_given_twice_as_decode_does() {
    #[derive(Codec, Debug, PartialEq, Default)]
    struct Keyed {
        #[codec(key = 1)]
        a: u32,
        #[codec(key = 2)]
        b: Option<String>,
    }
    // `k1`, `k2`, then `k1` again (values of the fields' types).
    let twice = |k1: Value, v1: Value, k2: Value, v2: Value| {
        Value::Map(vec![(k1.clone(), v1.clone()), (k2, v2), (k1, v1)])
    };
    each_handle!(h => {
        let name = h.name();
        let text = to_vec(
            &twice(Value::from("name"), Value::from("n"), Value::from("tags"), Value::Array(vec![])),
            &h,
        )
        .unwrap();
        let want = codec::from_slice::<Item, _>(&text, &h).unwrap_err();
        let mut target = item("old", 1);
        let err = h.decoder(&text).decode_into(&mut target).unwrap_err();
        assert!(
            matches!(err.kind(), codec::ErrorKind::DuplicateField(f) if f == "name"),
            "{name}: {err}"
        );
        assert_eq!(err.offset(), want.offset(), "{name}: {err} / {want}");
        let int = to_vec(&twice(Value::Uint(1), Value::Uint(5), Value::Uint(2), Value::Nil), &h).unwrap();
        let want = codec::from_slice::<Keyed, _>(&int, &h).unwrap_err();
        let err = h.decoder(&int).decode_into(&mut Keyed::default()).unwrap_err();
        assert!(
            matches!(err.kind(), codec::ErrorKind::DuplicateField(f) if f == "a"),
            "{name}: {err}"
        );
        assert_eq!(err.offset(), want.offset(), "{name}: {err} / {want}");
    });
}
