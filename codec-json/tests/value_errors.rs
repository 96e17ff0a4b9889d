//! Errors while decoding a dynamic `Value`: each names the item by its path
//! and points at the item's first byte (past whitespace), in every position
//! of a delimited container (array item, map key, map value, nested), and
//! leaves the decoder ready for the next document.

use codec_core::{Decode, ErrorKind, Handle, Options, SliceReader, Value, from_slice};
use codec_json::JsonHandle;

fn limited() -> JsonHandle {
    JsonHandle::default().with_options(Options::default().max_str_len(4))
}

/// `doc`'s error when decoded into `Value`: its path and offset, and
/// whether it is the `max_str_len` limit.
fn error(doc: &str) -> (String, u64, bool) {
    let e = from_slice::<Value, _>(doc.as_bytes(), &limited()).unwrap_err();
    let limit = matches!(
        e.kind(),
        ErrorKind::LengthLimitExceeded {
            limit: "max_str_len",
            len: 7,
            max: 4
        }
    );
    (e.path_string(), e.offset().unwrap(), limit)
}

#[test]
fn errors_name_the_item_and_point_at_its_first_byte() {
    // (document, path, offset of the item's first byte, over max_str_len)
    let cases = [
        (r#"  "toolong""#, "", 2, true),
        (r#"[1, "toolong"]"#, "[1]", 4, true),
        (r#"[1,"toolong"]"#, "[1]", 3, true),
        (r#"{"a": "toolong"}"#, r#"["a"]"#, 6, true),
        (r#"{ "toolong" : 1}"#, "[0]", 2, true),
        (r#"{"k": 1, "toolong": 1}"#, "[1]", 9, true),
        (r#"{"a": [1, {"b": tru}]}"#, r#"["a"][1]["b"]"#, 16, false),
        (r#"{ "a" : 1 , "c" : [ nul ] }"#, r#"["c"][0]"#, 20, false),
        (r#"[1, "ab\x"]"#, "[1]", 4, false),
        (r#"[1 , "\ud800"]"#, "[1]", 5, false),
        ("[1,  -]", "[1]", 5, false),
        ("[ 1e999 ]", "[0]", 2, false),
        (
            r#"{"a": {"b": [true, fals]}}"#,
            r#"["a"]["b"][1]"#,
            19,
            false,
        ),
    ];
    for (doc, path, at, limit) in cases {
        assert_eq!(error(doc), (path.to_string(), at, limit), "{doc}");
    }
}

#[test]
fn typed_literals_point_at_their_first_byte() {
    let h = JsonHandle::default();
    let e = from_slice::<Vec<bool>, _>(b"[true,  fals]", &h).unwrap_err();
    assert_eq!((e.path_string(), e.offset()), ("[1]".into(), Some(8)));
    let e = from_slice::<Vec<Option<u8>>, _>(b"[1, nulx]", &h).unwrap_err();
    assert_eq!((e.path_string(), e.offset()), ("[1]".into(), Some(4)));
}

#[test]
fn a_decoder_is_reusable_after_an_error_inside_containers() {
    let h = limited();
    let good = br#"{"a": [1, "ok", {"b": null}], "c": "d"}"#;
    let want: Value = from_slice(good, &h).unwrap();
    let bad: [&[u8]; 5] = [
        br#"{"a": [1, "ok", {"b": nul}]}"#,
        br#"{"a": [1, "toolong"]}"#,
        br#"[{"a": 1}, {"toolong": 2}]"#,
        br#"{"a": {"b": {"c": [[[1, 2, "x]]]}}}"#,
        br#"[[], {}, [{}], {"a": [}"#,
    ];
    let mut d = h.decoder(bad[0]);
    for doc in bad {
        d.reset(SliceReader::new(doc));
        Value::decode(&mut d).unwrap_err();
        // (A debug build also asserts in `reset` that the error left no
        // half-built container behind.)
        d.reset(SliceReader::new(good));
        assert_eq!(Value::decode(&mut d).unwrap(), want);
    }
}
