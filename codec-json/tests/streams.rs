//! Concatenated JSON texts ([`JsonHandle::stream_slice`] and
//! [`JsonHandle::stream_reader`]): a text that does not end itself (a
//! number, `true`, `false`, `null`) must be followed by whitespace, the end
//! of the input, or a byte that starts or ends a self-delimiting token, as
//! serde_json's `StreamDeserializer` requires; `01` is not `0` then `1`.

use codec_core::{ErrorKind, Value};
use codec_json::JsonHandle;
use codec_test_support::OneByte;

/// The stream of `input` from a slice, a reader, and a reader handing out
/// one byte at a time (which must agree): each value, or the error's kind
/// and offset.
fn stream(input: &[u8]) -> Vec<Result<Value, (String, Option<u64>)>> {
    let h = JsonHandle::default();
    let shown = |r: codec_core::Result<Value>| {
        r.map_err(|e| {
            let kind = match e.kind() {
                ErrorKind::Syntax(_) => "syntax".to_string(),
                other => format!("{other:?}"),
            };
            (kind, e.offset())
        })
    };
    let slice: Vec<_> = h.stream_slice::<Value>(input).map(shown).collect();
    let reader: Vec<_> = h.stream_reader::<Value, _>(input).map(shown).collect();
    let one: Vec<_> = h
        .stream_reader::<Value, _>(OneByte(input))
        .map(shown)
        .collect();
    let text = String::from_utf8_lossy(input);
    assert_eq!(reader, slice, "{text:?} from a reader");
    assert_eq!(one, slice, "{text:?} one byte at a time");
    slice
}

/// `input` gives the `ok` values, then a syntax error at `at`.
fn broken_after(input: &[u8], ok: &[Value], at: u64) {
    let got = stream(input);
    let text = String::from_utf8_lossy(input);
    assert_eq!(got.len(), ok.len() + 1, "{text:?}: {got:?}");
    for (g, w) in got.iter().zip(ok) {
        assert_eq!(g.as_ref().ok(), Some(w), "{text:?}");
    }
    assert_eq!(
        got.last().unwrap().as_ref().err(),
        Some(&("syntax".to_string(), Some(at))),
        "{text:?}"
    );
}

#[test]
fn values_that_do_not_end_themselves_need_a_delimiter() {
    use Value::*;
    broken_after(b"01", &[], 1);
    broken_after(b"-01", &[], 2);
    broken_after(b"00", &[], 1);
    broken_after(b"1-2", &[], 1);
    broken_after(b"truefalse", &[], 4);
    broken_after(b"nullnull", &[], 4);
    broken_after(b"false1", &[], 5);
    broken_after(b"1.5e3x", &[], 5);
    broken_after(b"[1] 0.5true", &[Array(vec![Uint(1)])], 7);
    broken_after(b"\"a\"\n12\n-0.00null", &[Str("a".into()), Uint(12)], 12);
}

#[test]
fn delimited_values_stream_as_before() {
    use Value::*;
    let ok = |input: &[u8], want: Vec<Value>| {
        let got: Vec<_> = stream(input).into_iter().map(Result::unwrap).collect();
        assert_eq!(got, want, "{:?}", String::from_utf8_lossy(input));
    };
    ok(b"1 2", vec![Uint(1), Uint(2)]);
    ok(b"1\n2", vec![Uint(1), Uint(2)]);
    ok(b"1\t-2\r\n3.5", vec![Uint(1), Int(-2), F64(3.5)]);
    ok(b"[1][2]", vec![Array(vec![Uint(1)]), Array(vec![Uint(2)])]);
    ok(b"\"a\"\"b\"", vec![Str("a".into()), Str("b".into())]);
    ok(b"1[2]", vec![Uint(1), Array(vec![Uint(2)])]);
    ok(b"true\"x\"", vec![Bool(true), Str("x".into())]);
    ok(b"null{}", vec![Nil, Map(vec![])]);
    ok(
        b"{\"a\":1}{\"b\":2}",
        vec![
            Map(vec![(Str("a".into()), Uint(1))]),
            Map(vec![(Str("b".into()), Uint(2))]),
        ],
    );
    ok(b"0", vec![Uint(0)]);
    ok(b"-0 0", vec![Int(0), Uint(0)]);
    ok(b"false", vec![Bool(false)]);
}

#[test]
fn typed_streams_check_the_delimiter_too() {
    let h = JsonHandle::default();
    let got: Vec<_> = h.stream_slice::<u64>(b"1 2 01").collect();
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[0].as_ref().ok(), Some(&1));
    assert_eq!(got[1].as_ref().ok(), Some(&2));
    assert!(matches!(
        got[2].as_ref().unwrap_err().kind(),
        ErrorKind::Syntax(_)
    ));
    let got: Vec<_> = h.stream_reader::<u64, _>(&b"1\n012\n"[..]).collect();
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0].as_ref().ok(), Some(&1));
    assert!(matches!(
        got[1].as_ref().unwrap_err().kind(),
        ErrorKind::Syntax(_)
    ));
    let got: Vec<_> = h
        .stream_reader::<bool, _>(&b"true false truefalse"[..])
        .collect();
    assert_eq!(got.len(), 3, "{got:?}");
    assert!(matches!(
        got[2].as_ref().unwrap_err().kind(),
        ErrorKind::Syntax(_)
    ));
}

/// A quoted string read as a number is not checked for UTF-8 from a
/// reader either (nor from a slice): both give the same type mismatch.
#[test]
fn quoted_numbers_are_not_utf8_checked_from_a_reader_either() {
    use codec_core::{from_reader, from_slice};
    let h = JsonHandle::default();
    for doc in [&b"\"\xde7\""[..], b"\"1\\n\xff\"", b" \"\xc3\""] {
        let s = from_slice::<u8, _>(doc, &h).unwrap_err();
        assert!(
            matches!(s.kind(), ErrorKind::TypeMismatch { .. }),
            "{doc:?}: {s}"
        );
        let r = from_reader::<u8, _, _>(OneByte(doc), &h).unwrap_err();
        assert_eq!(r.to_string(), s.to_string(), "{doc:?}");
    }
}

/// One document (`from_slice`, `from_reader`) ends as a stream's text
/// does: a byte right after a number or a literal is a syntax error at
/// that byte (`01` naming the leading zero), not the next value nor mere
/// trailing data; after whitespace, a string, an array or an object it is
/// trailing data. The stream gives the same message for the same text.
#[test]
fn one_document_ends_as_a_stream_text_does() {
    let h = JsonHandle::default();
    let zero = "invalid input: a digit after a leading zero, which JSON numbers do not allow";
    let glued = "invalid input: a number or literal must be followed by whitespace or a delimiter";
    let trailing = "trailing data after the value";
    for (input, at, says) in [
        (&b"01"[..], 1, zero),
        (b"-00", 2, zero),
        (b"0.0 1", 4, trailing),
        (b"truefalse", 4, glued),
        (b"null0", 4, glued),
        (b"1.5e3x", 5, glued),
        (b"10a", 2, glued),
        (b"[1] 2", 4, trailing),
        (b"[1]2", 3, trailing),
        (b"\"a\"x", 3, trailing),
        (b"0 1", 2, trailing),
    ] {
        let text = String::from_utf8_lossy(input);
        for e in [
            codec_core::from_slice::<Value, _>(input, &h).unwrap_err(),
            codec_core::from_reader::<Value, _, _>(input, &h).unwrap_err(),
            codec_core::from_reader::<Value, _, _>(OneByte(input), &h).unwrap_err(),
        ] {
            assert_eq!(e.offset(), Some(at), "{text:?}: {e}");
            assert!(e.to_string().starts_with(says), "{text:?}: {e}");
        }
        if says != trailing {
            let e = h
                .stream_slice::<Value>(input)
                .find_map(Result::err)
                .unwrap();
            assert!(e.to_string().starts_with(says), "{text:?} streamed: {e}");
        }
    }
}
