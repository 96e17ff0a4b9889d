//! `Document`, the flat dynamic document, against `Value` in every format:
//! the same content decoded (or the same error), the same bytes encoded,
//! the same answers from its accessors, and the same treatment of the
//! options that shape a dynamic map (`ValueMaps`, a format's duplicate-key
//! rule). The byte-level agreement of its one-step scalar and key path is
//! held in `scalar_values.rs`.

mod common;

use codec::{
    BincHandle, CborHandle, Codec, Document, ErrorKind, Handle, JsonHandle, Kind, MsgpackHandle,
    SimpleHandle, Time, Value, ValueMaps, from_slice, from_slice_into, to_vec,
};
use common::{random_text, xorshift};
use std::cell::RefCell;

/// A random value of every kind, up to `depth` levels; `binary` adds the
/// kinds JSON cannot write (bytes, extensions, times, tags).
fn random_value(next: &mut impl FnMut() -> u64, depth: u32, binary: bool) -> Value {
    let kinds = if binary { 13 } else { 8 };
    let pick = next() % if depth == 0 { kinds } else { kinds + 2 };
    match (pick, binary) {
        (0, _) => Value::Nil,
        (1, _) => Value::Bool(next().is_multiple_of(2)),
        (2, _) => Value::Uint(next() >> (next() % 64)),
        (3, _) => Value::Int(-((next() >> (1 + next() % 63)) as i64) - 1),
        (4, _) => Value::F64((next() % 4000) as f64 / 16.0 - 100.0),
        (5, _) => Value::F64([0.1, -2.5e-300, 1e300, f64::MAX, -0.0][next() as usize % 5]),
        (6 | 7, _) => Value::from(random_text(next).as_str()),
        (8, true) => Value::Bytes((0..next() % 40).map(|_| next() as u8).collect()),
        (9, true) => Value::F32(f32::from_bits(next() as u32 & 0x7f7f_ffff)),
        (10, true) => Value::Ext(
            1 + next() % 100,
            (0..next() % 9).map(|_| next() as u8).collect(),
        ),
        (11, true) => Value::Time(Time::from_unix((next() % (1 << 40)) as i64, 0).unwrap()),
        (12, true) => Value::BigInt(-(1i128 << 64) + (next() % 1000) as i128),
        (p, _) if p == kinds => Value::Array(
            (0..next() % 5)
                .map(|_| random_value(next, depth - 1, binary))
                .collect(),
        ),
        _ => Value::Map(
            (0..next() % 5)
                .map(|i| {
                    let key = if binary && next().is_multiple_of(4) {
                        Value::Uint(i)
                    } else {
                        Value::from(format!("k{}", next() % 6).as_str())
                    };
                    (key, random_value(next, depth - 1, binary))
                })
                .collect(),
        ),
    }
}

thread_local! {
    /// One document decoded into again and again across a test's inputs,
    /// as a loop over inputs would (`from_slice_into`).
    static REUSED: RefCell<Document> = RefCell::new(Document::default());
}

/// Decodes `bytes` as a `Value` and as a `Document` under `h`: the same
/// content or the same error (message, place and path). Decoded into a
/// document that held the previous input, the same again; on an error
/// that document is left nil.
fn agree<H: Handle>(h: &H, label: &str, bytes: &[u8]) -> Option<Document> {
    let v = from_slice::<Value, _>(bytes, h);
    let d = from_slice::<Document, _>(bytes, h);
    let into = REUSED.with_borrow_mut(|doc| from_slice_into(bytes, h, doc).map(|()| doc.clone()));
    match (v, d, into) {
        (Ok(v), Ok(d), Ok(into)) => {
            assert_eq!(d, v, "{label}: {bytes:02x?}");
            assert_eq!(d.to_value(), v, "{label}");
            assert_eq!(into, v, "{label}, decoded into a document: {bytes:02x?}");
            assert_eq!(into.node_count(), d.node_count(), "{label}");
            Some(d)
        }
        (Err(a), Err(b), Err(c)) => {
            assert_eq!(a.to_string(), b.to_string(), "{label}: {bytes:02x?}");
            assert_eq!(a.to_string(), c.to_string(), "{label}, decoded into");
            // Nil after an error in the item; the item itself when the
            // error is what follows it (trailing data, or JSON's byte
            // right after a number or a literal).
            let m = c.to_string();
            let after_item = matches!(c.kind(), ErrorKind::TrailingData)
                || m.starts_with("invalid input: a digit after a leading zero")
                || m.starts_with("invalid input: a number or literal must be followed");
            if !after_item {
                REUSED.with_borrow(|doc| assert!(doc.root().is_nil() && doc.node_count() == 1));
            }
            None
        }
        (a, b, c) => {
            panic!("{label}: Value {a:?}, Document {b:?}, into a document {c:?} on {bytes:02x?}")
        }
    }
}

/// Random documents in `h`'s format: each decodes to the same content as
/// a `Value` and encodes to the same bytes; damaged, each fails the same.
fn random_documents<H: Handle>(h: &H, label: &str, binary: bool, seed: u64) -> usize {
    let mut next = xorshift(seed);
    let mut decoded = 0;
    for _ in 0..300 {
        let v = random_value(&mut next, 4, binary);
        let Ok(bytes) = to_vec(&v, h) else {
            continue;
        };
        let doc = agree(h, label, &bytes).unwrap_or_else(|| panic!("{label}: {v:?}"));
        // What was decoded writes as the `Value` decoded from it does (not
        // always as `bytes`: a CBOR bignum tag reads back as an integer).
        let value: Value = from_slice(&bytes, h).unwrap();
        assert_eq!(
            to_vec(&doc, h).unwrap(),
            to_vec(&value, h).unwrap(),
            "{label}: {v:?}"
        );
        assert_eq!(to_vec(&Document::from(&v), h).unwrap(), bytes, "{label}");
        decoded += 1;
        let mut bad = bytes.clone();
        common::damage(&mut bad, &mut next);
        agree(h, &format!("{label}, damaged"), &bad);
    }
    decoded
}

#[test]
fn every_format_decodes_and_encodes_as_value_does() {
    let n = random_documents(&MsgpackHandle::default(), "msgpack", true, 0x3e1);
    assert!(n > 250, "msgpack: {n}");
    let n = random_documents(&CborHandle::default(), "cbor", true, 0x3e2);
    assert!(n > 250, "cbor: {n}");
    let n = random_documents(&BincHandle::default(), "binc", true, 0x3e3);
    assert!(n > 250, "binc: {n}");
    let n = random_documents(&SimpleHandle::default(), "simple", true, 0x3e4);
    assert!(n > 250, "simple: {n}");
    let n = random_documents(&JsonHandle::default(), "json", false, 0x3e5);
    assert!(n > 250, "json: {n}");
}

#[test]
fn canonical_encoding_sorts_a_documents_maps_as_a_values() {
    let mut next = xorshift(0xca7);
    let mut h = CborHandle::default();
    h.options.encode.canonical = true;
    let mut j = JsonHandle::default();
    j.options.encode.canonical = true;
    for _ in 0..200 {
        let v = random_value(&mut next, 3, true);
        let doc = Document::from(&v);
        assert_eq!(to_vec(&doc, &h).unwrap(), to_vec(&v, &h).unwrap());
        let v = random_value(&mut next, 3, false);
        let doc = Document::from(&v);
        assert_eq!(to_vec(&doc, &j).unwrap(), to_vec(&v, &j).unwrap());
    }
}

#[test]
fn map_modes_and_duplicate_rules_are_applied_as_for_a_value() {
    let input = br#"{"b":1,"a":2,"b":3}"#;
    for mode in [
        ValueMaps::Ordered,
        ValueMaps::LastWins,
        ValueMaps::Sorted,
        ValueMaps::RejectDuplicates,
    ] {
        let mut h = JsonHandle::default();
        h.options.decode.value_maps = mode;
        agree(&h, &format!("{mode:?}"), input);
    }
    let mut h = JsonHandle::default();
    h.options.decode.value_maps = ValueMaps::Sorted;
    let doc: Document = from_slice(input, &h).unwrap();
    let keys: Vec<_> = doc.root().entries().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, [Some("a"), Some("b")]);
    assert_eq!(doc.root().get("b").and_then(|n| n.as_u64()), Some(3));

    let cbor = CborHandle::default();
    let bytes = to_vec(
        &Value::Map(vec![
            (Value::Uint(1), Value::Nil),
            (Value::Uint(1), Value::Nil),
        ]),
        &cbor,
    )
    .unwrap();
    assert!(agree(&cbor, "cbor", &bytes).is_some());
    let strict = CborHandle::default().reject_duplicate_keys(true);
    assert!(agree(&strict, "cbor, duplicates rejected", &bytes).is_none());
}

#[test]
fn errors_name_the_entry_and_the_item() {
    let h = JsonHandle::default();
    let e = from_slice::<Document, _>(br#"{"a":[1,{"b":tru}]}"#, &h).unwrap_err();
    assert_eq!(e.path_string(), r#"["a"][1]["b"]"#, "{e}");
    let e = from_slice::<Document, _>(br#"[0, {"x": 1, "y" 2}]"#, &h).unwrap_err();
    assert_eq!(
        e.to_string(),
        from_slice::<Value, _>(br#"[0, {"x": 1, "y" 2}]"#, &h)
            .unwrap_err()
            .to_string()
    );
    let m = MsgpackHandle::default();
    // {5: [nil, <truncated str>]}
    let e = from_slice::<Document, _>(&[0x81, 0x05, 0x92, 0xc0, 0xa3, b'a'], &m).unwrap_err();
    assert_eq!(e.path_string(), "[5][1]", "{e}");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let h = JsonHandle::default();
    let deep = "[".repeat(100_000);
    let e = from_slice::<Document, _>(deep.as_bytes(), &h).unwrap_err();
    assert!(e.to_string().contains("depth"), "{e}");
    let m = MsgpackHandle::default();
    let e = from_slice::<Document, _>(&vec![0x91; 100_000], &m).unwrap_err();
    assert!(e.to_string().contains("depth"), "{e}");
}

#[test]
fn accessors_answer_as_the_values_do() {
    let h = JsonHandle::default();
    let input = br#"{"n":-7,"u":18446744073709551615,"f":2.5,"s":"x\u00e9","t":true,
        "z":null,"a":[1,[2,3],{}],"e":[],"m":{"k":"v","k":"w"}}"#;
    let doc: Document = from_slice(input, &h).unwrap();
    let v: Value = from_slice(input, &h).unwrap();
    let root = doc.root();
    assert_eq!(root.kind(), Kind::Map);
    assert_eq!(root.len(), 9);
    assert_eq!(doc.node_count(), 28);
    for (k, n) in root.entries() {
        let key = k.as_str().unwrap();
        let want = v.get(key).unwrap();
        assert_eq!(n.kind(), want.kind(), "{key}");
        assert_eq!(n.as_i64(), want.as_i64(), "{key}");
        assert_eq!(n.as_u64(), want.as_u64(), "{key}");
        assert_eq!(n.as_f64(), want.as_f64(), "{key}");
        assert_eq!(n.as_str(), want.as_str(), "{key}");
        assert_eq!(n.as_bool(), want.as_bool(), "{key}");
        assert_eq!(n.is_nil(), want.is_nil(), "{key}");
        assert_eq!(n, *want, "{key}");
    }
    let a = root.get("a").unwrap();
    assert_eq!(a.items().count(), 3);
    assert_eq!(
        a.index(1).and_then(|n| n.index(1)).and_then(|n| n.as_u64()),
        Some(3)
    );
    assert!(a.index(2).unwrap().is_empty());
    assert_eq!(a.index(3), None);
    // The first of two equal keys, as `Value::get`.
    assert_eq!(root.get("m").unwrap().get("k").unwrap().as_str(), Some("v"));
    assert_eq!(root.get("e").unwrap().len(), 0);
    assert_eq!(root.get("nope"), None);
}

/// A document inside a derived struct: decoded, encoded and defaulted as
/// a field like any other.
#[derive(Codec, Debug, PartialEq)]
struct Envelope {
    id: u32,
    body: Document,
    #[codec(omitempty)]
    extra: Document,
}

#[test]
fn a_document_is_a_field_like_any_other() {
    let body = Document::from(Value::Map(vec![(
        Value::from("k"),
        Value::Array(vec![Value::Bool(true), Value::from("two")]),
    )]));
    let e = Envelope {
        id: 9,
        body,
        extra: Document::default(),
    };
    let j = JsonHandle::default();
    let text = to_vec(&e, &j).unwrap();
    assert_eq!(text, br#"{"id":9,"body":{"k":[true,"two"]}}"#);
    assert_eq!(from_slice::<Envelope, _>(&text, &j).unwrap(), e);
    let m = MsgpackHandle::default();
    let bytes = to_vec(&e, &m).unwrap();
    assert_eq!(from_slice::<Envelope, _>(&bytes, &m).unwrap(), e);
}

/// `v` with the kinds MessagePack's and CBOR's one-step readers leave to
/// the general path (extensions, times, tags, big integers) made plain.
fn plain(v: Value) -> Value {
    match v {
        Value::Ext(_, b) => Value::Bytes(b.into()),
        Value::Time(t) => Value::Int(t.unix_seconds()),
        Value::BigInt(n) => Value::Int(n as i64),
        Value::Array(items) => Value::Array(items.into_iter().map(plain).collect()),
        Value::Map(entries) => Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| (plain(k), plain(v)))
                .collect(),
        ),
        v => v,
    }
}

/// MessagePack's and CBOR's one-step readers against the general path:
/// every cut and many one-byte changes of random plain documents, under
/// each option they read by, decode as a `Value` does (or fail alike).
#[test]
fn one_step_binary_readers_agree_on_every_cut_and_change() {
    use codec::Options;
    let options = [
        Options::default(),
        Options::default().signed_integer(true),
        Options::default().max_depth(2),
        Options::default().max_len(3),
        Options::default().max_str_len(2),
    ];
    // Heads of every length and kind in either format.
    let bytes = [
        0x00, 0x17, 0x18, 0x1b, 0x3b, 0x40, 0x5b, 0x61, 0x7b, 0x7f, 0x80, 0x81, 0x91, 0x9b, 0x9f,
        0xa1, 0xbb, 0xbf, 0xc0, 0xc1, 0xc4, 0xcb, 0xd3, 0xd9, 0xdc, 0xde, 0xf6, 0xf9, 0xff,
    ];
    let mut next = xorshift(0x0b1);
    let values: Vec<Value> = (0..12)
        .map(|_| plain(random_value(&mut next, 3, true)))
        .collect();
    for opts in &options {
        let msgpack = MsgpackHandle::default().with_options(opts.clone());
        let raw = msgpack.clone().write_ext(false);
        let cbor = CborHandle::default().with_options(opts.clone());
        for v in &values {
            let inputs = [
                ("msgpack", to_vec(v, &msgpack).unwrap()),
                ("cbor", to_vec(v, &cbor).unwrap()),
            ];
            for (label, input) in &inputs {
                let each = |changed: &[u8]| match *label {
                    "cbor" => drop(agree(&cbor, label, changed)),
                    _ => {
                        agree(&msgpack, label, changed);
                        agree(&raw, "msgpack, raw strings", changed);
                    }
                };
                for cut in 0..input.len() {
                    each(&input[..cut]);
                }
                for at in 0..input.len() {
                    for b in bytes {
                        let mut changed = input.clone();
                        changed[at] = b;
                        each(&changed);
                    }
                }
            }
        }
    }
}
