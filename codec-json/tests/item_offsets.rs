//! An error about an item read whole points at the item's first byte, past
//! the whitespace JSON allows before it: an enum's unknown variant (bare,
//! in map form, by index) and a variant that needs a payload, invalid
//! base64, a number out of range, a type mismatch; an unknown or duplicate
//! field at its key, an enum map's second entry at that entry. The same
//! from a slice, from a reader and from a reader handing over one byte at
//! a time.

use codec_core::{Codec, Error, Options, from_reader, from_slice};
use codec_json::JsonHandle;
use codec_test_support::OneByte;

#[derive(Codec, Debug)]
#[codec(crate = "codec_core")]
#[allow(dead_code)]
enum E {
    A,
    B(u8),
}

#[derive(Codec, Debug)]
#[codec(crate = "codec_core", index)]
#[allow(dead_code)]
enum I {
    #[codec(index = 1)]
    One,
    #[codec(index = 2)]
    Two,
}

#[derive(Codec, Debug)]
#[codec(crate = "codec_core")]
#[allow(dead_code)]
struct S {
    e: E,
    i: I,
    v: Vec<u8>,
    n: u8,
}

/// Decodes `doc` from a slice, a reader and a one-byte reader: the three
/// errors, which must agree.
fn errors(doc: &str) -> Error {
    let h = JsonHandle::default().with_options(Options::default().error_on_unknown_field(true));
    let a = from_slice::<S, _>(doc.as_bytes(), &h).unwrap_err();
    let b = from_reader::<S, _, _>(doc.as_bytes(), &h).unwrap_err();
    let c = from_reader::<S, _, _>(OneByte(doc.as_bytes()), &h).unwrap_err();
    assert_eq!(a.to_string(), b.to_string(), "{doc}: reader");
    assert_eq!(a.to_string(), c.to_string(), "{doc}: one-byte reader");
    a
}

#[test]
fn errors_after_an_item_point_at_its_first_byte() {
    // `@` marks the byte the error must point at (and is removed).
    let cases = [
        (
            r#"{"e":   @"C", "i": 1, "v": "", "n": 1}"#,
            "unknown variant \"C\" at .e",
        ),
        (
            r#"{"e":  @{"C": 1}, "i": 1, "v": "", "n": 1}"#,
            "unknown variant \"C\" at .e",
        ),
        (
            r#"{"e":  { "A": 1, @"B": 2}, "i": 1, "v": "", "n": 1}"#,
            "must have exactly one entry",
        ),
        (
            r#"{"e": 	@"B", "i": 1, "v": "", "n": 1}"#,
            "found a bare tag",
        ),
        (
            r#"{"e": "A", "i":   @3, "v": "", "n": 1}"#,
            "unknown variant 3 at .i",
        ),
        (
            r#"{"e": "A", "i": 1, "v":   @"a!==", "n": 1}"#,
            "invalid base64",
        ),
        (
            r#"{"e": "A", "i": 1, "v": "", "n":
 @true}"#,
            "expected u8, found bool true at .n",
        ),
        (
            r#"{"e": "A", "i": 1, "v": "", "n":  @-1}"#,
            "does not fit in u8 at .n",
        ),
        (
            r#"{"e": "A", "i": 1, "v": "", "n": 1,   @"zz": 1}"#,
            r#"unknown field "zz""#,
        ),
        (
            r#"{"e": "A", "i": 1, "v": "", "n": 1,   @"e": "A"}"#,
            r#"duplicate field "e""#,
        ),
    ];
    for (marked, message) in cases {
        let at = marked.find('@').unwrap() as u64;
        let doc = marked.replacen('@', "", 1);
        let e = errors(&doc);
        assert!(e.to_string().contains(message), "{doc}: {e}");
        assert_eq!(e.offset(), Some(at), "{doc}: {e}");
    }
}

/// A narrow integer's range error, found once the number is read whole,
/// looks back through the reader's buffer for the number's start. A
/// reader that hands over one byte at a time has refilled the buffer
/// since, and the error points at the whitespace before the number (a
/// known limitation).
#[test]
fn a_narrow_integer_out_of_range_points_at_the_number() {
    let h = JsonHandle::default();
    let doc = r#"{"e": "A", "i": 1, "v": "", "n":   300}"#;
    let at = doc.find('3').unwrap() as u64;
    let a = from_slice::<S, _>(doc.as_bytes(), &h).unwrap_err();
    let b = from_reader::<S, _, _>(doc.as_bytes(), &h).unwrap_err();
    assert_eq!((a.offset(), b.offset()), (Some(at), Some(at)), "{a} / {b}");
    let c = from_reader::<S, _, _>(OneByte(doc.as_bytes()), &h).unwrap_err();
    assert_eq!(c.offset(), Some(doc.rfind(':').unwrap() as u64 + 1), "{c}");
}

/// A malformed token where a typed target expected another kind is the
/// syntax error (or end of input) it is, as it is into `Value`, not a
/// type mismatch with a kind guessed from its first byte.
#[test]
fn malformed_tokens_into_typed_targets_are_syntax_errors() {
    use codec_core::{ErrorKind, from_slice};
    let h = codec_json::JsonHandle::default();
    let syntax = |r: codec_core::Result<()>, doc: &str| {
        let e = r.unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Syntax(_)), "{doc}: {e}");
        let v = from_slice::<codec_core::Value, _>(doc.as_bytes(), &h).unwrap_err();
        assert_eq!(e.offset(), v.offset(), "{doc}: {e} / Value: {v}");
    };
    for doc in ["[1, trux]", "[1, nulx]", "[1, -]", "[1, fals]"] {
        syntax(from_slice::<Vec<u8>, _>(doc.as_bytes(), &h).map(drop), doc);
    }
    for doc in [r#"["a", nulx]"#, r#"["a", -]"#, r#"["a", 1.]"#] {
        syntax(
            from_slice::<Vec<String>, _>(doc.as_bytes(), &h).map(drop),
            doc,
        );
    }
    let e = from_slice::<u8, _>(b"tru", &h).unwrap_err();
    assert!(e.is_eof(), "{e}");
    // A well-formed item of another kind is still a mismatch that quotes it.
    let e = from_slice::<Vec<u8>, _>(b"[1, true]", &h).unwrap_err();
    assert_eq!(
        e.to_string(),
        "expected u8, found bool true at [1] (line 1, column 5, byte 4)"
    );
}

/// A digit right after a `0` is named as a leading zero (the number `0`
/// ended there), at the digit, on each path that reads the `,` or bracket
/// after a value: a struct's field, a typed array's item, a skipped
/// unknown field's array and object; from a slice, a reader and a reader
/// handing over one byte at a time. A digit after a space is not one.
#[test]
fn a_leading_zero_is_named_at_the_digit() {
    #[derive(Codec, Debug)]
    #[codec(crate = "codec_core")]
    #[allow(dead_code)]
    struct P {
        a: u32,
        v: Vec<i32>,
    }
    let h = JsonHandle::default();
    let named = "found a digit after a leading zero, which JSON numbers do not allow";
    for (doc, zero) in [
        (r#"{"a": 01, "v": []}"#, "01"),
        (r#"{"a": 1, "v": [2, -03]}"#, "03"),
        (r#"{"x": [[1, 00]], "a": 1, "v": []}"#, "00"),
        (r#"{"x": {"y": -00}, "a": 1, "v": []}"#, "00"),
    ] {
        let at = doc.find(zero).unwrap() as u64 + 1;
        for e in [
            from_slice::<P, _>(doc.as_bytes(), &h).unwrap_err(),
            from_reader::<P, _, _>(doc.as_bytes(), &h).unwrap_err(),
            from_reader::<P, _, _>(OneByte(doc.as_bytes()), &h).unwrap_err(),
        ] {
            assert!(e.to_string().contains(named), "{doc}: {e}");
            assert_eq!(e.offset(), Some(at), "{doc}: {e}");
        }
    }
    let e = from_slice::<P, _>(br#"{"a": 0 1, "v": []}"#, &h).unwrap_err();
    assert!(e.to_string().contains("found a number"), "{e}");
}
