//! Errors while decoding a dynamic `Value`: each names the item by its path
//! and points at the item's first byte (past whitespace), or, for an error
//! in a string's content, at the offending byte (`string_error_offsets.rs`),
//! in every position of a delimited container (array item, map key, map
//! value, nested), and leaves the decoder ready for the next document.

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
        (r#"{ "toolong" : 1}"#, "[key of entry 0]", 2, true),
        (r#"{"k": 1, "toolong": 1}"#, "[key of entry 1]", 9, true),
        (r#"{"a": [1, {"b": tru}]}"#, r#"["a"][1]["b"]"#, 16, false),
        (r#"{ "a" : 1 , "c" : [ nul ] }"#, r#"["c"][0]"#, 20, false),
        // In a string's content: the escape's backslash.
        (r#"[1, "ab\x"]"#, "[1]", 7, false),
        (r#"[1 , "\ud800"]"#, "[1]", 6, false),
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

/// Map keys in every form the one-step key path (separator, key and `:`
/// read together) takes or hands back to the general path: escapes,
/// invalid escapes, lone surrogates, invalid UTF-8, controls, a missing
/// `:` or `,`, a key that is not a string, a trailing comma, keys over
/// `max_str_len` and maps over `max_len`, input that ends in a key. The
/// value or the error (message, path and byte) is the one the general path
/// gives, from a slice and from a reader: an error in a key's content at
/// its offending byte, the end of input inside a key at the input's end.
#[test]
fn map_keys_decode_and_fail_as_the_general_path() {
    let docs: Vec<Vec<u8>> = vec![
        br#"{"a\u0041b": 1, "\u00e9": [2], "x\ny": 3}"#.to_vec(),
        br#"{"a\u0041b": 1, "c\q": 2}"#.to_vec(),
        br#"{"ok": 1, "\ud800": 2}"#.to_vec(),
        b"{\"ok\": 1, \"\xff\xfe\": 2}".to_vec(),
        b"{\"ok\": 1, \"a\x01\": 2}".to_vec(),
        br#"{"ok" 1}"#.to_vec(),
        br#"{"ok": 1 "b": 2}"#.to_vec(),
        br#"{"ok": 1, 5: 2}"#.to_vec(),
        br#"{"ok": 1,}"#.to_vec(),
        br#"{"ok": 1, "toolongkey": 2}"#.to_vec(),
        br#"{"a": 1, "b": 2, "c": 3, "d": 4}"#.to_vec(),
        r#"{"a\"b": {"é": "short", "a much longer key than twenty-two bytes": "v"}}"#
            .as_bytes()
            .to_vec(),
        br#"{"ok": 1, "cut"#.to_vec(),
        br#"{"ok": 1, "cut":"#.to_vec(),
        br#"{"a":1,"a":2}"#.to_vec(),
        b"{ \n }".to_vec(),
        br#"{"a": { } , "b" : {"c":2}  }"#.to_vec(),
        br#"{"a": 1 ]"#.to_vec(),
        br#"{ , "a": 1}"#.to_vec(),
        br#"{"ok": 01}"#.to_vec(),
        br#"{"a": [-00]}"#.to_vec(),
        br#"{"a": [0 1]}"#.to_vec(),
    ];
    let want_plain = [
        r#"OK {"aAb": 1, "é": [2], "x\ny": 3}"#,
        r#"ERR invalid input: invalid escape in string at [key of entry 1] (byte 18)"#,
        r#"ERR invalid input: lone high surrogate in \u escape at [key of entry 1] (byte 11)"#,
        r#"ERR text string is not valid UTF-8 at [key of entry 1] (byte 11)"#,
        r#"ERR invalid input: control character in string (must be escaped) at [key of entry 1] (byte 12)"#,
        r#"ERR invalid input: expected ':', found a number (byte 6)"#,
        r#"ERR invalid input: expected ',' or '}', found a string (byte 9)"#,
        r#"ERR invalid input: expected a string key, found a number (byte 10)"#,
        r#"ERR invalid input: expected a string key, found '}'; JSON allows no trailing comma (byte 9)"#,
        r#"OK {"ok": 1, "toolongkey": 2}"#,
        r#"OK {"a": 1, "b": 2, "c": 3, "d": 4}"#,
        r#"OK {"a\"b": {"é": "short", "a much longer key than twenty-two bytes": "v"}}"#,
        r#"ERR unexpected end of input at [key of entry 1] (byte 14)"#,
        r#"ERR unexpected end of input at ["cut"] (byte 16)"#,
        r#"OK {"a": 1, "a": 2}"#,
        r#"OK {}"#,
        r#"OK {"a": {}, "b": {"c": 2}}"#,
        r#"ERR invalid input: expected ',' or '}', found ']' (byte 8)"#,
        r#"ERR invalid input: expected a string key, found ',' (byte 2)"#,
        r#"ERR invalid input: expected ',' or '}', found a digit after a leading zero, which JSON numbers do not allow (byte 8)"#,
        r#"ERR invalid input: expected ',' or ']', found a digit after a leading zero, which JSON numbers do not allow at ["a"] (byte 9)"#,
        r#"ERR invalid input: expected ',' or ']', found a number at ["a"] (byte 9)"#,
    ];
    // The limits change the three documents with a long key, a long map
    // and a long key in a nested map; the rest fail or pass as without.
    let mut want_limited = want_plain;
    want_limited[9] = r#"ERR length 10 exceeds max_str_len (8) at [key of entry 1] (byte 10)"#;
    want_limited[10] = r#"ERR length 4 exceeds max_len (3) (byte 25)"#;
    want_limited[11] =
        r#"ERR length 39 exceeds max_str_len (8) at ["a\"b"][key of entry 1] (byte 25)"#;
    let plain = JsonHandle::default();
    let limited = JsonHandle::default().with_options(Options::default().max_str_len(8).max_len(3));
    for (h, want) in [(plain, want_plain), (limited, want_limited)] {
        for (doc, want) in docs.iter().zip(want) {
            let show = |r: codec_core::Result<Value>| match r {
                Ok(v) => format!("OK {v}"),
                Err(e) => format!("ERR {e}"),
            };
            let from_slice = show(from_slice::<Value, _>(doc, &h));
            // Every document is one line: the column is the byte offset + 1.
            let want = match want.rsplit_once(" (byte ") {
                Some((head, at)) => {
                    let at: u64 = at.trim_end_matches(')').parse().unwrap();
                    format!("{head} (line 1, column {}, byte {at})", at + 1)
                }
                None => want.to_string(),
            };
            assert_eq!(from_slice, want, "{}", String::from_utf8_lossy(doc));
            let from_reader = show(codec_core::from_reader(std::io::Cursor::new(doc), &h));
            assert_eq!(
                from_reader,
                want,
                "{} (reader)",
                String::from_utf8_lossy(doc)
            );
        }
    }
}
