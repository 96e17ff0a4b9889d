//! Error quality across every handle: kind, byte offset, path and a message
//! a person can act on.

use codec::{AnyHandle, Codec, Error, ErrorKind, Value};
use std::collections::{BTreeMap, HashMap};

#[derive(Codec, Debug, PartialEq)]
struct Line {
    sku: String,
    qty: u32,
}

#[derive(Codec, Debug, PartialEq)]
struct Order {
    id: u64,
    lines: Vec<Line>,
}

#[derive(Codec, Debug, PartialEq)]
struct Doc {
    orders: Vec<Order>,
}

fn handles() -> Vec<AnyHandle> {
    AnyHandle::NAMES
        .iter()
        .map(|n| AnyHandle::from_name(n).unwrap())
        .collect()
}

fn s(x: &str) -> Value {
    Value::Str(x.into())
}

fn line(sku: &str, qty: Value) -> Value {
    Value::Map(vec![(s("sku"), s(sku)), (s("qty"), qty)])
}

fn order(id: u64, lines: Vec<Value>) -> Value {
    Value::Map(vec![
        (s("id"), Value::Uint(id)),
        (s("lines"), Value::Array(lines)),
    ])
}

/// A document whose `.orders[1].lines[2].qty` is `bad`.
fn doc_with(bad: Value) -> Value {
    doc_with_last_line(line("d", bad))
}

/// A document whose `.orders[1].lines[2]` is `last`.
fn doc_with_last_line(last: Value) -> Value {
    Value::Map(vec![(
        s("orders"),
        Value::Array(vec![
            order(1, vec![line("a", Value::Uint(1))]),
            order(
                2,
                vec![line("b", Value::Uint(2)), line("c", Value::Uint(3)), last],
            ),
        ]),
    )])
}

/// Where `needle` first occurs in `hay` after `from`.
fn find(hay: &[u8], needle: &[u8], from: usize) -> usize {
    hay[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
        .expect("needle present")
}

/// How a message ends with the place of an error at `offset` in `bytes`:
/// the byte offset, and in JSON its line and column (1 for the compact,
/// one-line documents these tests write) before it.
fn place(h: &AnyHandle, bytes: &[u8], offset: usize) -> String {
    if !matches!(h, AnyHandle::Json(_)) {
        return format!("(byte {offset})");
    }
    assert!(!bytes[..offset].contains(&b'\n'), "one line");
    format!("(line 1, column {}, byte {offset})", offset + 1)
}

/// Checks offset, path and message of `err`, and that the message carries them.
fn check_located(h: &AnyHandle, bytes: &[u8], err: &Error, path: &str, offset: usize) {
    let name = h.name();
    assert_eq!(err.path_string(), path, "{name}: path of {err}");
    assert_eq!(err.offset(), Some(offset as u64), "{name}: offset of {err}");
    let msg = err.to_string();
    assert!(
        msg.ends_with(&format!("at {path} {}", place(h, bytes, offset))),
        "{name}: message does not end with the place: {msg}"
    );
}

#[test]
fn type_mismatch_deep_inside_names_type_path_and_offset() {
    for h in handles() {
        let bytes = h.to_vec(&doc_with(s("forty"))).unwrap();
        let at = find(&bytes, &h.to_vec("forty").unwrap(), 0);
        let err = h.from_slice::<Doc>(&bytes).unwrap_err();
        check_located(&h, &bytes, &err, ".orders[1].lines[2].qty", at);
        let msg = err.to_string();
        match err.kind() {
            ErrorKind::TypeMismatch { expected, found } => {
                assert_eq!(*expected, "u32", "{}: {msg}", h.name());
                assert_eq!(found, "text string \"forty\"", "{}: {msg}", h.name());
                assert!(
                    msg.starts_with("expected u32, found text string \"forty\" at "),
                    "{msg}"
                );
            }
            other => panic!("{}: unexpected kind {other:?}: {msg}", h.name()),
        }
    }
}

/// A number where a struct is expected is reported at the number's first
/// byte, with its value: JSON reads a number whole to tell its kind, and
/// the error must not point past it.
#[test]
fn number_for_a_struct_points_at_the_number() {
    for (bad, found) in [
        (Value::Int(-12345), "integer -12345"),
        (Value::F64(2.5), "float 2.5"),
    ] {
        for h in handles() {
            let bytes = h.to_vec(&doc_with_last_line(bad.clone())).unwrap();
            let enc = h.to_vec(&bad).unwrap();
            let at = bytes
                .windows(enc.len())
                .rposition(|w| w == enc.as_slice())
                .unwrap();
            let err = h.from_slice::<Doc>(&bytes).unwrap_err();
            check_located(&h, &bytes, &err, ".orders[1].lines[2]", at);
            match err.kind() {
                ErrorKind::TypeMismatch { expected, found: f } => {
                    assert_eq!(*expected, "map or array (struct)", "{}: {err}", h.name());
                    assert_eq!(f, found, "{}: {err}", h.name());
                }
                other => panic!("{}: unexpected kind {other:?}: {err}", h.name()),
            }
        }
    }
}

#[test]
fn out_of_range_points_at_the_number() {
    for h in handles() {
        let big = Value::Uint(1 << 40);
        let bytes = h.to_vec(&doc_with(big.clone())).unwrap();
        let enc = h.to_vec(&big).unwrap();
        // The last occurrence: the bad number is the last item but one.
        let at = bytes
            .windows(enc.len())
            .rposition(|w| w == enc.as_slice())
            .unwrap();
        let err = h.from_slice::<Doc>(&bytes).unwrap_err();
        check_located(&h, &bytes, &err, ".orders[1].lines[2].qty", at);
        assert!(
            matches!(err.kind(), ErrorKind::OutOfRange { target: "u32", .. }),
            "{}: {err}",
            h.name()
        );
        assert!(
            err.to_string()
                .starts_with("number 1099511627776 does not fit in u32"),
            "{}: {err}",
            h.name()
        );
    }
}

/// A number that the target cannot take (a fraction for an integer, a
/// negative number for an unsigned type, one beyond the target's range)
/// is reported against the target type, not the 64-bit type it is read
/// through, and at the number's first byte, not past it.
#[test]
fn out_of_range_names_the_target_type_at_the_number() {
    // The value's text is the format's own (JSON quotes its input, `1e+30`).
    let cases: [(Value, &str); 4] = [
        (Value::F64(1.5), "number 1.5 "),
        (Value::Int(-1), "number -1 "),
        (Value::F64(1e30), "number 1"),
        (Value::Uint(1 << 40), "number 1099511627776 "),
    ];
    for h in handles() {
        for (v, text) in &cases {
            let bytes = h
                .to_vec(&Value::Array(vec![Value::Uint(7), v.clone()]))
                .unwrap();
            let enc = h.to_vec(v).unwrap();
            let at = bytes
                .windows(enc.len())
                .rposition(|w| w == enc.as_slice())
                .unwrap();
            for target in ["u32", "i16", "u64"] {
                let err = match target {
                    "u32" => h.from_slice::<Vec<u32>>(&bytes).map(drop),
                    "i16" => h.from_slice::<Vec<i16>>(&bytes).map(drop),
                    _ => h.from_slice::<Vec<u64>>(&bytes).map(drop),
                };
                let fits = (target == "i16" && *text == "number -1 ")
                    || (target == "u64" && *text == "number 1099511627776 ");
                if fits {
                    assert!(err.is_ok(), "{} {v:?} as {target}", h.name());
                    continue;
                }
                let err = err.unwrap_err();
                assert!(
                    matches!(err.kind(), ErrorKind::OutOfRange { target: t, .. } if *t == target),
                    "{} {v:?} as {target}: {err}",
                    h.name()
                );
                let msg = err.to_string();
                assert!(
                    msg.starts_with(text)
                        && msg.contains(&format!(" does not fit in {target} at [1]")),
                    "{} {v:?} as {target}: {err}",
                    h.name()
                );
                check_located(&h, &bytes, &err, "[1]", at);
            }
        }
        // Beyond the f32 range.
        let bytes = h.to_vec(&Value::Array(vec![Value::F64(1e39)])).unwrap();
        let err = h.from_slice::<Vec<f32>>(&bytes).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::OutOfRange { target: "f32", .. }),
            "{}: {err}",
            h.name()
        );
        let enc = h.to_vec(&Value::F64(1e39)).unwrap();
        let at = bytes
            .windows(enc.len())
            .rposition(|w| w == enc.as_slice())
            .unwrap();
        check_located(&h, &bytes, &err, "[0]", at);
    }
    // From a `Value`, as from the formats: an error, not an infinity.
    for f in [1e39, -1e300] {
        let err = codec::from_value::<Vec<f32>>(&Value::Array(vec![Value::F64(f)])).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::OutOfRange { target: "f32", .. }),
            "{f}: {err}"
        );
        assert_eq!(err.path_string(), "[0]", "{err}");
    }
    let edge = codec::from_value::<Vec<f32>>(&Value::Array(vec![
        Value::F64(f64::from(f32::MAX)),
        Value::F64(f64::INFINITY),
        Value::F64(0.1),
    ]))
    .unwrap();
    assert_eq!(edge, [f32::MAX, f32::INFINITY, 0.1]);
    // After whitespace, at the number itself.
    let err = codec::from_slice::<Vec<u8>, _>(b"[ 1,\n  1.5 ]", &codec::JsonHandle::default())
        .unwrap_err();
    assert_eq!(err.offset(), Some(7), "{err}");
}

#[derive(Codec, Debug)]
struct Person {
    name: String,
    age: u8,
}

/// A number that fits the `u64` it is read through but not the narrow
/// target (checked after it was read whole) is located at its first
/// digit, past the whitespace a pretty printer puts before it: after `:`,
/// `,` and `[`, and at the start of the document; from a slice and from a
/// reader (whose buffer still holds the number).
#[test]
fn narrow_int_out_of_range_points_past_whitespace() {
    let h = codec::JsonHandle::default();
    let check = |doc: &[u8], err: Error, path: &str| {
        let at = doc.windows(3).position(|w| w == b"300").unwrap() as u64;
        assert!(matches!(err.kind(), ErrorKind::OutOfRange { .. }), "{err}");
        assert_eq!(
            err.offset(),
            Some(at),
            "{}: {err}",
            String::from_utf8_lossy(doc)
        );
        assert_eq!(err.path_string(), path, "{err}");
    };
    for doc in [
        &b"{\"name\": \"Ann\", \"age\": 300}"[..],
        b"{\n  \"name\" : \"Ann\",\n  \"age\" :\t\r\n 300\n}",
        b"{\"name\":\"Ann\",\"age\":300}",
    ] {
        check(
            doc,
            codec::from_slice::<Person, _>(doc, &h).unwrap_err(),
            ".age",
        );
        check(
            doc,
            codec::from_reader::<Person, _, _>(doc, &h).unwrap_err(),
            ".age",
        );
    }
    for doc in [&b"[1,  300]"[..], b"[ 300 ]", b"[1,\n\t300]"] {
        let path = if doc.starts_with(b"[1") { "[1]" } else { "[0]" };
        check(
            doc,
            codec::from_slice::<Vec<u8>, _>(doc, &h).unwrap_err(),
            path,
        );
        check(
            doc,
            codec::from_slice::<Vec<i8>, _>(doc, &h).unwrap_err(),
            path,
        );
        check(
            doc,
            codec::from_reader::<Vec<u8>, _, _>(doc, &h).unwrap_err(),
            path,
        );
    }
    let doc = b"  300 ";
    check(doc, codec::from_slice::<u8, _>(doc, &h).unwrap_err(), "");
    check(
        doc,
        codec::from_reader::<i8, _, _>(&doc[..], &h).unwrap_err(),
        "",
    );
}

#[test]
fn missing_field_names_field_and_struct_path() {
    for h in handles() {
        let doc = doc_with_last_line(Value::Map(vec![(s("sku"), s("d"))]));
        let bytes = h.to_vec(&doc).unwrap();
        let err = h.from_slice::<Doc>(&bytes).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::MissingField("qty")),
            "{}: {err}",
            h.name()
        );
        assert_eq!(
            err.path_string(),
            ".orders[1].lines[2]",
            "{}: {err}",
            h.name()
        );
        assert!(err.offset().is_some(), "{}: {err}", h.name());
        let msg = err.to_string();
        let rest = msg
            .strip_prefix("missing field \"qty\" at .orders[1].lines[2] (")
            .unwrap_or_else(|| panic!("{}: {msg}", h.name()));
        assert!(
            rest.starts_with(if h.name() == "json" {
                "line 1, column "
            } else {
                "byte "
            }),
            "{}: {msg}",
            h.name()
        );
    }
}

#[test]
fn truncated_input_is_eof_at_the_end() {
    for h in handles() {
        let bytes = h.to_vec(&doc_with(Value::Uint(4))).unwrap();
        // Cut inside the last line's sku string.
        let cut = find(&bytes, &h.to_vec("d").unwrap(), 0) + 1;
        let err = h.from_slice::<Doc>(&bytes[..cut]).unwrap_err();
        assert!(err.is_eof(), "{}: {err}", h.name());
        assert_eq!(err.offset(), Some(cut as u64), "{}: {err}", h.name());
        assert_eq!(
            err.path_string(),
            ".orders[1].lines[2].sku",
            "{}: {err}",
            h.name()
        );
        assert!(
            err.to_string()
                .starts_with("unexpected end of input at .orders[1].lines[2].sku")
        );
    }
}

#[derive(Codec, Debug, PartialEq)]
enum Op {
    Add(u32),
    Del { id: u64 },
}

#[test]
fn unknown_variant_is_named() {
    for h in handles() {
        let v = Value::Array(vec![Value::Map(vec![(s("Nope"), Value::Uint(1))])]);
        let bytes = h.to_vec(&v).unwrap();
        let err = h.from_slice::<Vec<Op>>(&bytes).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::UnknownVariant(n) if n == "\"Nope\""),
            "{}: {err}",
            h.name()
        );
        assert_eq!(err.path_string(), "[0]", "{}: {err}", h.name());
        assert!(err.offset().is_some(), "{}: {err}", h.name());
        // Quoted, as an unknown field is: a name is told from an index.
        let msg = err.to_string();
        assert!(msg.starts_with("unknown variant \"Nope\" at [0]"), "{msg}");
    }
}

/// `depth` nested one-item arrays around a 0.
fn nested(depth: usize) -> Value {
    let mut v = Value::Uint(0);
    for _ in 0..depth {
        v = Value::Array(vec![v]);
    }
    v
}

#[test]
fn depth_limit_names_limit_offset_and_path() {
    for mut h in handles() {
        *h.options_mut() = h.options().clone().max_depth(3);
        let bytes = h.to_vec(&nested(5)).unwrap();
        assert!(
            h.from_slice::<Value>(&h.to_vec(&nested(3)).unwrap())
                .is_ok()
        );
        let err = h.from_slice::<Value>(&bytes).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::DepthLimitExceeded { max: 3 }),
            "{}: {err}",
            h.name()
        );
        // The error points at the fourth array, the first of the innermost two.
        let at = find(&bytes, &h.to_vec(&nested(2)).unwrap(), 0);
        check_located(&h, &bytes, &err, "[0][0][0]", at);
        assert!(
            err.to_string()
                .starts_with("nesting deeper than max_depth (3)"),
            "{err}"
        );
    }
}

#[derive(Codec, Debug, Default, PartialEq)]
struct Slim {
    id: u64,
}

#[derive(Codec, Debug, Default, PartialEq)]
struct SlimByInt {
    #[codec(key = 1)]
    id: u64,
}

/// Decodes a `T` anew (from a slice and from a reader) and into a default
/// one (its own derived path) and gives its `id`; all must fail alike.
fn fresh_and_into<T>(h: &AnyHandle, bytes: &[u8], id: fn(&T) -> u64) -> Result<u64, Error>
where
    T: codec::DecodeOwned + Default + std::fmt::Debug,
{
    let fresh = h.from_slice::<T>(bytes);
    // From a reader too, whose keys are copied out of its buffer.
    let read = h.from_reader::<T, _>(bytes);
    match (&fresh, &read) {
        (Ok(a), Ok(b)) => assert_eq!(id(a), id(b), "{}", h.name()),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{}", h.name()),
        (a, b) => panic!("{}: from a slice {a:?}, from a reader {b:?}", h.name()),
    }
    let mut into = T::default();
    let filled = h.from_slice_into(bytes, &mut into);
    match (fresh, filled) {
        (Ok(v), Ok(())) => {
            assert_eq!(id(&v), id(&into), "{}", h.name());
            Ok(id(&v))
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string(), "{}", h.name());
            Err(a)
        }
        (a, b) => panic!("{}: decode {a:?}, decode_into {b:?}", h.name()),
    }
}

/// The value of a key a struct does not know is skipped; an error while
/// skipping it (nested too deep, cut short) names that key, as an error
/// inside a known field names the field: `["extra"]` for a text key, `[9]`
/// for an integer one.
#[test]
fn skipping_an_unknown_field_names_its_key() {
    for mut h in handles() {
        let name = h.name();
        let cases = [
            (s("extra"), s("id"), "[\"extra\"]"),
            (Value::Uint(9), Value::Uint(1), "[9]"),
        ];
        for (unknown, id, path) in cases {
            let doc = Value::Map(vec![(unknown, nested(5)), (id, Value::Uint(7))]);
            let bytes = h.to_vec(&doc).unwrap();
            let decode = |h: &AnyHandle, bytes: &[u8]| match path {
                "[9]" => fresh_and_into(h, bytes, |v: &SlimByInt| v.id),
                _ => fresh_and_into(h, bytes, |v: &Slim| v.id),
            };
            assert_eq!(decode(&h, &bytes).unwrap(), 7, "{name}");

            // The struct's map is the first level, so the third of the five
            // arrays is the fourth: one more than `max_depth`.
            *h.options_mut() = h.options().clone().max_depth(3);
            let err = decode(&h, &bytes).unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::DepthLimitExceeded { max: 3 }),
                "{name}: {err}"
            );
            let at = find(&bytes, &h.to_vec(&nested(3)).unwrap(), 0);
            check_located(&h, &bytes, &err, path, at);
            *h.options_mut() = h.options().clone().max_depth(256);

            // Cut short inside the skipped value.
            let err = decode(&h, &bytes[..at + 1]).unwrap_err();
            assert!(err.is_eof(), "{name}: {err}");
            assert_eq!(err.path_string(), path, "{name}: path of {err}");
        }
    }
}

/// A struct read from an array skips the items past its fields (unless
/// `error_on_array_overflow`); an error while skipping one names its index.
#[test]
fn skipping_an_extra_array_item_names_its_index() {
    for mut h in handles() {
        let name = h.name();
        let doc = Value::Array(vec![Value::Uint(7), nested(5)]);
        let bytes = h.to_vec(&doc).unwrap();
        assert_eq!(fresh_and_into(&h, &bytes, |v: &Slim| v.id).unwrap(), 7);
        *h.options_mut() = h.options().clone().max_depth(3);
        let err = fresh_and_into(&h, &bytes, |v: &Slim| v.id).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::DepthLimitExceeded { max: 3 }),
            "{name}: {err}"
        );
        let at = find(&bytes, &h.to_vec(&nested(3)).unwrap(), 0);
        check_located(&h, &bytes, &err, "[1]", at);
    }
}

/// An empty array inside a typed value may take a shortcut (JSON's `[]`
/// at a glance), but one level too deep is refused as any container is.
#[test]
fn empty_arrays_keep_the_depth_limit() {
    for mut h in handles() {
        let doc = vec![Vec::<u32>::new(), Vec::new()];
        let bytes = h.to_vec(&doc).unwrap();
        *h.options_mut() = h.options().clone().max_depth(2);
        assert_eq!(h.from_slice::<Vec<Vec<u32>>>(&bytes).unwrap(), doc);
        *h.options_mut() = h.options().clone().max_depth(1);
        let err = h.from_slice::<Vec<Vec<u32>>>(&bytes).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::DepthLimitExceeded { max: 1 }),
            "{}: {err}",
            h.name()
        );
        let empty = h.to_vec(&Vec::<u32>::new()).unwrap();
        check_located(&h, &bytes, &err, "[0]", find(&bytes, &empty, 1));
        assert_eq!(h.from_slice::<Vec<u32>>(&empty).unwrap(), Vec::<u32>::new());
    }
}

#[test]
fn length_limits_name_limit_offset_and_path() {
    for mut h in handles() {
        *h.options_mut() = h.options().clone().max_len(3).max_str_len(4);
        // An array of four under a map key.
        let v = Value::Map(vec![(s("k"), Value::Array(vec![Value::Uint(1); 4]))]);
        let bytes = h.to_vec(&v).unwrap();
        let at = find(
            &bytes,
            &h.to_vec(&Value::Array(vec![Value::Uint(1); 4])).unwrap(),
            0,
        );
        let err = h.from_slice::<Value>(&bytes).unwrap_err();
        match err.kind() {
            ErrorKind::LengthLimitExceeded {
                limit: "max_len",
                max: 3,
                ..
            } => {}
            other => panic!("{}: {other:?}: {err}", h.name()),
        }
        // The map entry is named by its key.
        assert_eq!(err.path_string(), "[\"k\"]", "{}: {err}", h.name());
        assert!(err.to_string().contains("exceeds max_len (3)"), "{err}");
        // Formats with a declared length refuse at the header; JSON, whose
        // arrays are delimited, at the fourth item.
        let off = err.offset().unwrap() as usize;
        if h.name() == "json" {
            assert_eq!(off, at + 7, "{err}");
        } else {
            assert_eq!(off, at, "{}: {err}", h.name());
        }

        let v = Value::Array(vec![s("ok"), s("too long")]);
        let bytes = h.to_vec(&v).unwrap();
        let at = find(&bytes, &h.to_vec("too long").unwrap(), 0);
        let err = h.from_slice::<Value>(&bytes).unwrap_err();
        match err.kind() {
            ErrorKind::LengthLimitExceeded {
                limit: "max_str_len",
                len: 8,
                max: 4,
            } => {}
            other => panic!("{}: {other:?}: {err}", h.name()),
        }
        check_located(&h, &bytes, &err, "[1]", at);
        assert!(
            err.to_string()
                .starts_with("length 8 exceeds max_str_len (4)"),
            "{err}"
        );
    }
}

// ---------------------------------------------------------------------------
// The value found is quoted in a type mismatch, the same way by every handle.

#[derive(Codec, Debug, PartialEq)]
struct Age {
    age: u32,
}

#[derive(Codec, Debug, PartialEq)]
struct Named {
    name: String,
}

#[derive(Codec, Debug, PartialEq)]
struct Flags {
    flags: Vec<u32>,
}

/// A one-entry map `{key: v}`.
fn entry(key: &str, v: Value) -> Value {
    Value::Map(vec![(s(key), v)])
}

/// Decodes `T` from `{key: bad}` and checks the whole message: the kind
/// and value found, the path `.key` and the offset of `bad` in the input.
fn check_message<T: codec::DecodeOwned + std::fmt::Debug>(
    h: &AnyHandle,
    key: &str,
    bad: Value,
    expected: &str,
    found: &str,
) {
    let name = h.name();
    let bytes = h.to_vec(&entry(key, bad.clone())).unwrap();
    // The last occurrence: the key comes first and may encode like the value.
    let enc = h.to_vec(&bad).unwrap();
    let at = bytes
        .windows(enc.len())
        .rposition(|w| w == enc.as_slice())
        .unwrap();
    let want = format!(
        "expected {expected}, found {found} at .{key} {}",
        place(h, &bytes, at)
    );
    let err = h.from_slice::<T>(&bytes).unwrap_err();
    assert_eq!(err.to_string(), want, "{name}");
    // The same from a reader.
    let err = h.from_reader::<T, _>(&bytes[..]).unwrap_err();
    assert_eq!(err.to_string(), want, "{name} (reader)");
}

#[test]
fn mismatch_quotes_a_text_string() {
    for h in handles() {
        check_message::<Age>(&h, "age", s("forty"), "u32", "text string \"forty\"");
    }
}

#[test]
fn mismatch_quotes_an_integer() {
    for h in handles() {
        check_message::<Named>(&h, "name", Value::Uint(42), "text string", "integer 42");
        check_message::<Named>(&h, "name", Value::Int(-7), "text string", "integer -7");
    }
}

#[test]
fn mismatch_quotes_a_bool_and_a_float() {
    for h in handles() {
        check_message::<Flags>(&h, "flags", Value::Bool(true), "array", "bool true");
        check_message::<Named>(&h, "name", Value::F64(1.5), "text string", "float 1.5");
    }
}

#[test]
fn mismatch_gives_container_lengths_where_declared() {
    for h in handles() {
        let arr = Value::Array(vec![Value::Uint(1), Value::Uint(2), Value::Uint(3)]);
        let map = entry("k", Value::Uint(1));
        // JSON declares no lengths up front.
        let (a, m) = if h.name() == "json" {
            ("array", "map")
        } else {
            ("array (3 items)", "map (1 entry)")
        };
        check_message::<Age>(&h, "age", arr, "u32", a);
        check_message::<Named>(&h, "name", map, "text string", m);
    }
}

#[test]
fn mismatch_cuts_long_text_and_escapes_controls() {
    let long = "abcdefghij".repeat(10);
    let shown = format!("text string \"{}…\" (100 bytes)", &long[..40]);
    for h in handles() {
        check_message::<Age>(&h, "age", s(&long), "u32", &shown);
        check_message::<Age>(
            &h,
            "age",
            s("a\nb\u{1}\""),
            "u32",
            r#"text string "a\nb\u{1}\"""#,
        );
    }
}

#[test]
fn mismatch_on_a_struct_quotes_the_value() {
    for h in handles() {
        let bytes = h.to_vec(&Value::Array(vec![Value::Uint(7)])).unwrap();
        let err = h.from_slice::<Vec<Age>>(&bytes).unwrap_err();
        // The number's first byte (JSON's `[7]`: 1, not 2 past it).
        let at = find(&bytes, &h.to_vec(&7u32).unwrap(), 1);
        assert_eq!(
            err.to_string(),
            format!(
                "expected map or array (struct), found integer 7 at [0] {}",
                place(&h, &bytes, at)
            ),
            "{}",
            h.name()
        );
    }
}

#[test]
fn mismatch_on_bytes_gives_their_length() {
    // JSON has no byte strings (it writes them as base64 text).
    for h in handles().into_iter().filter(|h| h.name() != "json") {
        let b = Value::Bytes(vec![0; 12]);
        check_message::<Age>(&h, "age", b, "u32", "byte string (12 bytes)");
    }
}

// ---------------------------------------------------------------------------
// Map entries are named by key in paths.

#[derive(Codec, Debug, PartialEq)]
struct Users {
    users: std::collections::BTreeMap<String, Age>,
}

#[derive(Codec, Debug, PartialEq)]
struct ById {
    by_id: std::collections::HashMap<u32, Age>,
}

#[test]
fn map_entries_are_named_by_text_key() {
    let doc = entry(
        "users",
        Value::Map(vec![
            (s("alice"), entry("age", Value::Uint(30))),
            (s("bob"), entry("age", s("old"))),
        ]),
    );
    for h in handles() {
        let bytes = h.to_vec(&doc).unwrap();
        let at = find(&bytes, &h.to_vec("old").unwrap(), 0);
        let err = h.from_slice::<Users>(&bytes).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "expected u32, found text string \"old\" at .users[\"bob\"].age {}",
                place(&h, &bytes, at)
            ),
            "{}",
            h.name()
        );
    }
    // Decoding into an existing map names the entry the same way, whether
    // the entry exists (decoded into) or not (inserted).
    fn into_existing<H: codec::Handle>(h: &H, doc: &Value) {
        let bytes = codec::to_vec(doc, h).unwrap();
        for have in ["bob", "carol"] {
            let mut users = Users {
                users: [(have.to_string(), Age { age: 1 })].into(),
            };
            let err = h.decoder(&bytes).decode_into(&mut users).unwrap_err();
            assert_eq!(
                err.path_string(),
                ".users[\"bob\"].age",
                "{}: {err}",
                h.name()
            );
        }
    }
    into_existing(&codec::MsgpackHandle::default(), &doc);
    into_existing(&codec::JsonHandle::default(), &doc);
    into_existing(&codec::CborHandle::default(), &doc);
}

#[test]
fn map_entries_are_named_by_integer_key() {
    for h in handles() {
        // JSON map keys are text: the integer key is written quoted.
        let key = if h.name() == "json" {
            s("5")
        } else {
            Value::Uint(5)
        };
        let doc = entry(
            "by_id",
            Value::Map(vec![(key, entry("age", Value::Bool(false)))]),
        );
        let bytes = h.to_vec(&doc).unwrap();
        let err = h.from_slice::<ById>(&bytes).unwrap_err();
        assert_eq!(err.path_string(), ".by_id[5].age", "{}: {err}", h.name());
        assert!(
            err.to_string()
                .starts_with("expected u32, found bool false at .by_id[5].age ("),
            "{}: {err}",
            h.name()
        );
    }
}

#[test]
fn map_entries_without_a_key_segment_are_numbered() {
    // A key that fails itself is named by position; so is a key type that
    // gives no segment (a tuple).
    for h in handles().into_iter().filter(|h| h.name() != "json") {
        let doc = Value::Map(vec![
            (Value::Array(vec![Value::Uint(1)]), Value::Uint(1)),
            (Value::Array(vec![Value::Uint(2)]), s("x")),
        ]);
        let bytes = h.to_vec(&doc).unwrap();
        let err = h
            .from_slice::<std::collections::BTreeMap<(u8,), u8>>(&bytes)
            .unwrap_err();
        assert_eq!(err.path_string(), "[1]", "{}: {err}", h.name());
    }
}

// ---------------------------------------------------------------------------
// An encode error on an io::Write says how many bytes reached the writer.

/// Accepts at most `chunk` bytes per call and `limit` bytes in all (then
/// fails), returning `Interrupted` before every other call.
struct FlakyWriter {
    out: Vec<u8>,
    limit: usize,
    chunk: usize,
    calls: usize,
}

impl FlakyWriter {
    fn new(limit: usize, chunk: usize) -> Self {
        FlakyWriter {
            out: Vec::new(),
            limit,
            chunk,
            calls: 0,
        }
    }
}

impl std::io::Write for &mut FlakyWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.calls += 1;
        if self.calls % 2 == 1 {
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        let room = self.limit - self.out.len();
        if room == 0 {
            return Err(std::io::Error::other("disk full"));
        }
        let n = buf.len().min(self.chunk).min(room);
        self.out.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn big_doc() -> Vec<String> {
    (0..3000).map(|i| format!("item number {i}")).collect()
}

#[test]
fn writer_error_reports_bytes_written() {
    let doc = big_doc();
    for h in handles() {
        let full = h.to_vec(&doc).unwrap();
        assert!(full.len() > 40_000, "{}", h.name());
        for limit in [0, 1, 8191, 8192, 10_000, full.len() - 1] {
            let mut w = FlakyWriter::new(limit, 3000);
            let err = h.to_writer(&doc, &mut w).unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::Io(_)),
                "{}: {err}",
                h.name()
            );
            assert_eq!(
                err.bytes_written(),
                Some(w.out.len() as u64),
                "{}",
                h.name()
            );
            assert_eq!(w.out.len(), limit, "{}", h.name());
            assert_eq!(w.out[..], full[..limit], "{}", h.name());
            let unit = if limit == 1 { "byte" } else { "bytes" };
            assert_eq!(
                err.to_string(),
                format!("i/o error: disk full (after {limit} {unit} written)"),
                "{}",
                h.name()
            );
        }
        // Interrupted and short writes are retried, not errors.
        let mut w = FlakyWriter::new(usize::MAX, 1000);
        h.to_writer(&doc, &mut w).unwrap();
        assert_eq!(w.out, full, "{}", h.name());
    }
}

#[test]
fn unencodable_value_on_a_writer_reports_bytes_written() {
    // msgpack cannot hold a 128-bit integer beyond 64 bits: the array header
    // and the first item reach the writer, then encoding stops.
    for h in handles().into_iter().filter(|h| h.name() == "msgpack") {
        let v: Vec<u128> = vec![1, 1 << 100];
        let mut w = FlakyWriter::new(usize::MAX, 1000);
        let err = h.to_writer(&v, &mut w).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Unsupported(_)), "{err}");
        assert_eq!(w.out, [0x92, 0x01]);
        assert_eq!(err.bytes_written(), Some(2), "{err}");
    }
}

#[test]
fn from_value_quotes_the_value_found() {
    // A leaf the walker consumed, and a container it did not.
    let err =
        codec::from_value::<Vec<u32>>(&Value::Array(vec![Value::Uint(1), s("x"), Value::Uint(3)]))
            .unwrap_err();
    assert_eq!(err.path_string(), "[1]", "{err}");
    assert!(
        err.to_string()
            .starts_with("expected u32, found text string \"x\" at [1]"),
        "{err}"
    );
    let v = Value::Map(vec![
        (s("age"), Value::Array(vec![Value::Uint(1), Value::Uint(2)])),
        (s("next"), Value::Uint(5)),
    ]);
    let err = codec::from_value::<Age>(&v).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("expected u32, found array (2 items) at .age"),
        "{err}"
    );
}

#[derive(Codec, Debug, PartialEq)]
struct Inner {
    b: u32,
    c: u32,
}

#[derive(Codec, Debug, PartialEq)]
struct Flat {
    a: u32,
    #[codec(flatten)]
    inner: Inner,
}

/// The same for a byte string (JSON: base64 text), which JSON reads
/// through the number it read ahead.
#[test]
fn number_for_bytes_points_at_the_number() {
    for h in handles() {
        let bytes = h.to_vec(&Value::Array(vec![Value::Int(-12345)])).unwrap();
        let at = find(&bytes, &h.to_vec(&-12345i64).unwrap(), 1);
        let err = h.from_slice::<Vec<Vec<u8>>>(&bytes).unwrap_err();
        check_located(&h, &bytes, &err, "[0]", at);
        assert!(
            matches!(err.kind(), ErrorKind::TypeMismatch { found, .. } if found == "integer -12345"),
            "{}: {err}",
            h.name()
        );
    }
}

/// A key given twice is reported at its second occurrence, in a struct's
/// own fields and in a flattened struct's alike.
#[test]
fn duplicate_field_points_at_the_second_key() {
    for h in handles() {
        let entries = |dup: &str| {
            let mut m = vec![(s("a"), Value::Uint(1)), (s("b"), Value::Uint(2))];
            m.push((s("c"), Value::Uint(3)));
            m.push((s(dup), Value::Uint(4)));
            Value::Map(m)
        };
        for dup in ["a", "b"] {
            let bytes = h.to_vec(&entries(dup)).unwrap();
            let key = h.to_vec(dup).unwrap();
            let at = bytes.windows(key.len()).rposition(|w| w == key).unwrap();
            let err = h.from_slice::<Flat>(&bytes).unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::DuplicateField(k) if *k == dup),
                "{}: {err}",
                h.name()
            );
            assert_eq!(err.offset(), Some(at as u64), "{}: {err}", h.name());
        }
    }
}

#[derive(Codec, Debug, PartialEq)]
struct RestB {
    a: u32,
    #[codec(rest)]
    extra: BTreeMap<String, Value>,
}

#[derive(Codec, Debug, PartialEq)]
struct RestH {
    a: u32,
    #[codec(rest)]
    extra: HashMap<String, u32>,
}

/// `rest` beside a flattened struct.
#[derive(Codec, Debug, PartialEq)]
struct FlatThenRest {
    a: u32,
    #[codec(flatten)]
    inner: Inner,
    #[codec(rest)]
    extra: BTreeMap<String, u32>,
}

#[derive(Codec, Debug, PartialEq)]
struct InnerRest {
    b: u32,
    #[codec(rest)]
    extra: HashMap<String, u32>,
}

/// `rest` inside the flattened struct.
#[derive(Codec, Debug, PartialEq)]
struct FlatRestInside {
    a: u32,
    #[codec(flatten)]
    inner: InnerRest,
}

/// An unknown key given twice to a `rest` map is a duplicate field, as a
/// known key given twice is: same kind, reported at the second occurrence,
/// with the same path, whatever the map type and wherever the map is (own
/// field or inside a flattened struct). Distinct unknown keys are all kept.
#[test]
fn duplicate_rest_key_is_a_duplicate_field() {
    fn check<T: codec::DecodeOwned + std::fmt::Debug>(h: &AnyHandle, what: &str) {
        let name = format!("{} {what}", h.name());
        let entries = |last: &str| {
            Value::Map(vec![
                (s("a"), Value::Uint(1)),
                (s("q"), Value::Uint(1)),
                (s("b"), Value::Uint(2)),
                (s("c"), Value::Uint(3)),
                (s(last), Value::Uint(4)),
            ])
        };
        let ok = h.to_vec(&entries("r")).unwrap();
        h.from_slice::<T>(&ok)
            .unwrap_or_else(|e| panic!("{name}: distinct keys refused: {e}"));
        let bytes = h.to_vec(&entries("q")).unwrap();
        let key = h.to_vec("q").unwrap();
        let at = bytes.windows(key.len()).rposition(|w| w == key).unwrap();
        let err = h.from_slice::<T>(&bytes).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::DuplicateField(k) if k == "q"),
            "{name}: {err}"
        );
        assert_eq!(err.offset(), Some(at as u64), "{name}: {err}");
        assert_eq!(err.path_string(), "", "{name}: {err}");
        assert_eq!(
            err.to_string(),
            format!("duplicate field \"q\" {}", place(h, &bytes, at))
        );
        // Nested: the path leads to the struct, as for a known field.
        let list = Value::Array(vec![entries("r"), entries("q")]);
        let bytes = h.to_vec(&list).unwrap();
        let at = bytes.windows(key.len()).rposition(|w| w == key).unwrap();
        let err = h.from_slice::<Vec<T>>(&bytes).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::DuplicateField(k) if k == "q"),
            "{name}: {err}"
        );
        check_located(h, &bytes, &err, "[1]", at);
        let known = Value::Array(vec![entries("r"), entries("a")]);
        let bytes = h.to_vec(&known).unwrap();
        let err = h.from_slice::<Vec<T>>(&bytes).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::DuplicateField(k) if k == "a"),
            "{name}: {err}"
        );
        assert_eq!(err.path_string(), "[1]", "{name}: {err}");
    }
    for h in handles() {
        check::<RestB>(&h, "BTreeMap rest");
        check::<RestH>(&h, "HashMap rest");
        check::<FlatThenRest>(&h, "flatten + rest");
        check::<FlatRestInside>(&h, "rest in a flattened struct");
    }
    // The kept keys, once each.
    let h = AnyHandle::from_name("json").unwrap();
    let v: FlatThenRest = h.from_slice(br#"{"a":1,"q":5,"b":2,"c":3,"r":6}"#).unwrap();
    assert_eq!(v.extra, BTreeMap::from([("q".into(), 5), ("r".into(), 6)]));
    let err = h
        .from_slice::<RestB>(br#"{"a":1,"q":1,"q":2}"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "duplicate field \"q\" (line 1, column 14, byte 13)"
    );
}

/// A struct whose `rest` map holds a key the struct writes as a field
/// (its own, a flattened struct's, or the outer struct's for a `rest` map
/// inside a flattened struct) would write that key twice and could not
/// read the bytes back: encoding refuses it with the `DuplicateField`
/// error decoding would give, in declaration and in canonical order, and
/// also when that field is omitted as empty (the entry would be read back
/// into the field, not the map). Other keys are written once each and read
/// back.
#[test]
fn encoding_a_rest_key_equal_to_a_field_key_is_an_error() {
    fn refuses<T: codec::Encode + codec::DecodeOwned + PartialEq + std::fmt::Debug>(
        ok: &T,
        taken: &T,
        key: &str,
    ) {
        for mut h in handles() {
            for canonical in [false, true] {
                h.options_mut().encode.canonical = canonical;
                let name = format!("{} canonical={canonical}", h.name());
                let bytes = h.to_vec(ok).unwrap();
                assert_eq!(&h.from_slice::<T>(&bytes).unwrap(), ok, "{name}");
                let err = h.to_vec(taken).unwrap_err();
                assert!(
                    matches!(err.kind(), ErrorKind::DuplicateField(k) if k == key),
                    "{name}: {err}"
                );
            }
        }
    }
    let rest = |k: &str| BTreeMap::from([("q".to_string(), 9u32), (k.to_string(), 8)]);
    let hrest = |k: &str| HashMap::from([("q".to_string(), 9), (k.to_string(), 8)]);
    let own = |k: &str| RestB {
        a: 1,
        extra: rest(k)
            .into_iter()
            .map(|(k, v)| (k, s(&v.to_string())))
            .collect(),
    };
    refuses(&own("r"), &own("a"), "a");
    let flat = |k: &str| FlatThenRest {
        a: 1,
        inner: Inner { b: 2, c: 3 },
        extra: rest(k),
    };
    refuses(&flat("r"), &flat("a"), "a");
    refuses(&flat("r"), &flat("c"), "c");
    let inside = |k: &str| FlatRestInside {
        a: 1,
        inner: InnerRest {
            b: 2,
            extra: hrest(k),
        },
    };
    refuses(&inside("r"), &inside("b"), "b");
    refuses(&inside("r"), &inside("a"), "a");

    #[derive(Codec, Debug, PartialEq)]
    struct Omitted {
        #[codec(omitempty)]
        a: u32,
        #[codec(rest)]
        extra: BTreeMap<String, u32>,
    }
    let omitted = |k: &str| Omitted {
        a: 0,
        extra: rest(k),
    };
    refuses(&omitted("r"), &omitted("a"), "a");
}

/// An enum without variants: no input decodes into it, and the error names
/// the type and points at the item, in a struct field as at the top.
#[test]
fn enum_without_variants_is_a_type_mismatch_naming_it() {
    #[derive(Codec, Debug)]
    enum Never {}
    #[derive(Codec, Debug)]
    struct Holder {
        n: Option<Never>,
        m: Never,
    }
    for h in handles() {
        for v in [
            s("A"),
            Value::Uint(0),
            Value::Map(vec![(s("A"), Value::Nil)]),
        ] {
            let bytes = h.to_vec(&v).unwrap();
            let err = h.from_slice::<Never>(&bytes).unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::TypeMismatch { expected, .. }
                    if expected.contains("Never (an enum with no variants)")),
                "{}: {err}",
                h.name()
            );
            assert_eq!(err.path_string(), "", "{}: {err}", h.name());
            assert_eq!(err.offset(), Some(0), "{}: {err}", h.name());
        }
        let bytes = h
            .to_vec(&Value::Map(vec![(s("n"), Value::Nil), (s("m"), s("A"))]))
            .unwrap();
        let at = find(&bytes, &h.to_vec("A").unwrap(), 0);
        let err = h.from_slice::<Holder>(&bytes).unwrap_err();
        check_located(&h, &bytes, &err, ".m", at);
    }
}

/// An array longer than `max_len` or than a fixed-size target (with
/// `error_on_array_overflow`) is refused at the first item too many, past
/// the whitespace before it, and the error counts the array's items also
/// where the array declares no length (JSON, CBOR indefinite).
#[test]
fn array_overflow_points_at_the_extra_item_and_counts_them_all() {
    let json = |opts: codec::Options| {
        AnyHandle::Json(codec::JsonHandle {
            options: opts,
            ..Default::default()
        })
    };
    let strict = codec::Options::default().error_on_array_overflow(true);
    let h = json(codec::Options::default().max_len(2));
    let e = h.from_slice::<Vec<u8>>(b"[1, 2, 3]").unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::LengthLimitExceeded {
                limit: "max_len",
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(e.offset(), Some(7), "{e}");
    let h = json(strict.clone());
    let e = h.from_slice::<[u8; 2]>(b"[1, 2,\n 3, 4, 5]").unwrap_err();
    assert_eq!(
        e.to_string(),
        "expected 2 elements, found 5 (line 2, column 2, byte 8)"
    );
    let cbor = AnyHandle::Cbor(codec::CborHandle {
        options: strict.clone(),
        ..Default::default()
    });
    let e = cbor
        .from_slice::<[u8; 2]>(&[0x9f, 1, 2, 3, 4, 0xff])
        .unwrap_err();
    assert_eq!(e.to_string(), "expected 2 elements, found 4 (byte 3)");
    let msgpack = AnyHandle::Msgpack(codec::MsgpackHandle {
        options: strict,
        ..Default::default()
    });
    let e = msgpack
        .from_slice::<[u8; 2]>(&[0x95, 1, 2, 3, 4, 5])
        .unwrap_err();
    assert_eq!(e.to_string(), "expected 2 elements, found 5 (byte 3)");
}

/// A float too large for its target is shown short (`1e300`), not as its
/// 301 digits.
#[test]
fn float_out_of_range_is_shown_short() {
    let bits = 1e300f64.to_bits().to_be_bytes();
    for (h, bytes) in [
        (
            AnyHandle::Msgpack(Default::default()),
            [&[0xcb][..], &bits].concat(),
        ),
        (
            AnyHandle::Cbor(Default::default()),
            [&[0xfb][..], &bits].concat(),
        ),
    ] {
        let e = h.from_slice::<f32>(&bytes).unwrap_err();
        assert_eq!(
            e.to_string(),
            "number 1e300 does not fit in f32 (byte 0)",
            "{}",
            h.name()
        );
        let e = h.from_slice::<i64>(&bytes).unwrap_err();
        assert_eq!(
            e.to_string(),
            "number 1e300 does not fit in i64 (byte 0)",
            "{}",
            h.name()
        );
    }
}
