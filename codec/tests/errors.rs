//! Error quality across every handle: kind, byte offset, path and a message
//! a person can act on.

use codec::{AnyHandle, Codec, Error, ErrorKind, Value};

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

/// Checks offset, path and message of `err`, and that the message carries them.
fn check_located(h: &AnyHandle, err: &Error, path: &str, offset: usize) {
    let name = h.name();
    assert_eq!(err.path_string(), path, "{name}: path of {err}");
    assert_eq!(err.offset(), Some(offset as u64), "{name}: offset of {err}");
    let msg = err.to_string();
    assert!(
        msg.ends_with(&format!("at {path} (byte {offset})")),
        "{name}: message does not end with the place: {msg}"
    );
}

#[test]
fn type_mismatch_deep_inside_names_type_path_and_offset() {
    for h in handles() {
        let bytes = h.to_vec(&doc_with(s("forty"))).unwrap();
        let at = find(&bytes, &h.to_vec("forty").unwrap(), 0);
        let err = h.from_slice::<Doc>(&bytes).unwrap_err();
        if h.name() == "json" {
            // Reported: JSON points past the string (at + 7), not at it.
            assert_eq!(err.path_string(), ".orders[1].lines[2].qty");
            let off = err.offset().unwrap() as usize;
            assert!((at..=at + 7).contains(&off), "json: {err}");
        } else {
            check_located(&h, &err, ".orders[1].lines[2].qty", at);
        }
        let msg = err.to_string();
        match err.kind() {
            ErrorKind::TypeMismatch { expected, found } => {
                assert_eq!(*expected, "u32", "{}: {msg}", h.name());
                assert!(found.starts_with("text string"), "{}: {msg}", h.name());
                assert!(msg.starts_with("expected u32, found text string"), "{msg}");
            }
            other => panic!("{}: unexpected kind {other:?}: {msg}", h.name()),
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
        check_located(&h, &err, ".orders[1].lines[2].qty", at);
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
        assert!(
            err.to_string()
                .starts_with("missing field \"qty\" at .orders[1].lines[2] (byte ")
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
        if h.name() == "json" {
            // Reported: JSON points at the start of the unterminated string
            // (cut - 1), not at the end of the input.
            assert!(
                (cut - 1..=cut).contains(&(err.offset().unwrap() as usize)),
                "{err}"
            );
        } else {
            assert_eq!(err.offset(), Some(cut as u64), "{}: {err}", h.name());
        }
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
            matches!(err.kind(), ErrorKind::UnknownVariant(n) if n.contains("Nope")),
            "{}: {err}",
            h.name()
        );
        assert_eq!(err.path_string(), "[0]", "{}: {err}", h.name());
        assert!(err.offset().is_some(), "{}: {err}", h.name());
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
        check_located(&h, &err, "[0][0][0]", at);
        assert!(
            err.to_string()
                .starts_with("nesting deeper than max_depth (3)"),
            "{err}"
        );
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
        assert_eq!(err.path_string(), "[0]", "{}: {err}", h.name());
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
        check_located(&h, &err, "[1]", at);
        assert!(
            err.to_string()
                .starts_with("length 8 exceeds max_str_len (4)"),
            "{err}"
        );
    }
}
