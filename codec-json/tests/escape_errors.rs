//! A string with a bad `\u` escape is a syntax error wherever it stands,
//! at the very end of the input too: a lone high surrogate followed by the
//! closing quote, or fewer than four hex digits before it, is not cut
//! short by the input's end.

use codec_core::{Decode, DecodeOwned, Document, ErrorKind, Value, from_reader, from_slice};
use codec_json::JsonHandle;
use codec_test_support::OneByte;

/// The error of decoding `input` into `T`, from a slice, a reader and a
/// reader handing out one byte at a time: each must be a syntax error.
fn syntax_error<T: for<'de> Decode<'de> + DecodeOwned + std::fmt::Debug>(input: &[u8]) {
    let h = JsonHandle::default();
    let text = String::from_utf8_lossy(input);
    let results = [
        ("slice", from_slice::<T, _>(input, &h)),
        ("reader", from_reader::<T, _, _>(input, &h)),
        ("one byte", from_reader::<T, _, _>(OneByte(input), &h)),
    ];
    for (how, r) in results {
        let e = r.unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::Syntax(_)),
            "{text:?} into {} ({how}): {e}",
            std::any::type_name::<T>()
        );
    }
}

#[test]
fn bad_unicode_escapes_are_syntax_errors_at_the_end_too() {
    let strings: &[&[u8]] = &[
        b"\"\\ud800\"",
        b"\"\\u12\"",
        b"\"\\u1\"",
        b"\"\\u\"",
        b"\"\\u12x4\"",
        b"\"ab\\udbff\"",
        b"\"\\ud800x\"",
        b"\"\\ud800\\\"",
        b"\"\\ud800\\n\"",
        b"\"\\ud800\\u12\"",
        b"\"\\ud800\\u0041\"",
        b"\"\\udc00\"",
    ];
    for s in strings {
        for input in [s.to_vec(), [s, &b" "[..]].concat()] {
            syntax_error::<Value>(&input);
            syntax_error::<String>(&input);
            syntax_error::<Document>(&input);
            // Inside a container, as a value and as a key.
            let mut doc = b"[".to_vec();
            doc.extend_from_slice(s);
            doc.push(b']');
            syntax_error::<Value>(&doc);
            syntax_error::<Vec<String>>(&doc);
            let mut map = b"{".to_vec();
            map.extend_from_slice(s);
            map.extend_from_slice(b":1}");
            syntax_error::<Value>(&map);
            syntax_error::<Document>(&map);
        }
    }
}

#[test]
fn strings_cut_short_are_still_the_end_of_input() {
    let h = JsonHandle::default();
    for input in [
        &b"\"\\ud800"[..],
        b"\"\\ud800\\",
        b"\"\\ud800\\u",
        b"\"\\ud800\\udc0",
        b"\"\\u12",
        b"\"\\u",
        b"\"\\",
        b"\"ab",
    ] {
        for r in [
            from_slice::<Value, _>(input, &h),
            from_reader::<Value, _, _>(OneByte(input), &h),
        ] {
            let e = r.unwrap_err();
            assert!(
                matches!(e.kind(), ErrorKind::UnexpectedEof),
                "{:?}: {e}",
                String::from_utf8_lossy(input)
            );
        }
    }
    // A good pair at the very end still decodes.
    let v = from_slice::<String, _>(b"\"\\ud83d\\ude00\"", &h).unwrap();
    assert_eq!(v, "\u{1F600}");
    let v = from_reader::<String, _, _>(OneByte(b"\"\\ud83d\\ude00\""), &h).unwrap();
    assert_eq!(v, "\u{1F600}");
}
