//! Every error in a JSON string's content points at the offending byte:
//! an invalid escape, a bad or short `\u` escape and a lone surrogate at
//! the backslash that starts the escape at fault (for a high surrogate
//! not followed by its low half, the high surrogate's backslash), a raw
//! control character at itself, invalid UTF-8 at the first byte of the
//! invalid sequence. The offset is the same from a slice, from a reader
//! and from a reader that hands out one byte at a time, and for every
//! target the string can land in: `String`, `Cow<str>`, `&str`, a derived
//! struct's field, a struct's field name and a `BTreeMap<String, _>` key,
//! `Value` and `Document` (item, map key, map value; a `Value` key with
//! `parse_quoted_keys` too), an enum's variant name, a skipped unknown
//! field (the string in it, or a key inside it), `Raw` and `RawRef`. Each
//! bad piece is tried at the start of the string, in its middle, after
//! escapes and raw non-ASCII text, and split in every way by the reader's
//! first buffer boundary (512 bytes). The path of the error is
//! checked with it (a skipped field's is its key, `["x"]`). A string cut short by the end of the input is an
//! end-of-input error at the input's end.

use codec_core::{
    Codec, DecodeOwned, Document, Error, ErrorKind, Handle, Raw, RawRef, Value, from_reader,
    from_slice,
};
use codec_json::JsonHandle;
use codec_test_support::OneByte;
use std::borrow::Cow;
use std::collections::BTreeMap;

#[derive(Codec, Debug)]
#[codec(crate = "codec_core")]
#[allow(dead_code)]
struct S {
    a: u8,
    s: String,
    v: Vec<u8>,
}

#[derive(Codec, Debug)]
#[codec(crate = "codec_core")]
#[allow(dead_code)]
enum E {
    Alpha,
    Beta,
}

#[derive(Codec, Debug)]
#[codec(crate = "codec_core")]
#[allow(dead_code)]
struct WithEnum {
    a: u8,
    e: E,
}

#[derive(Codec, Debug)]
#[codec(crate = "codec_core")]
#[allow(dead_code)]
struct WithRaw {
    a: u8,
    r: Raw,
}

#[derive(Codec, Debug)]
#[codec(crate = "codec_core")]
#[allow(dead_code)]
struct WithRawRef<'a> {
    a: u8,
    r: RawRef<'a>,
}

/// A bad piece of string content and where in it the offending byte is.
struct Bad {
    text: &'static [u8],
    at: usize,
    what: &'static str,
}

const fn bad(text: &'static [u8], at: usize, what: &'static str) -> Bad {
    Bad { text, at, what }
}

/// The bad pieces. Each is bad whatever follows it (every suffix below
/// starts with a byte that is not a hex digit, a backslash or a UTF-8
/// continuation byte).
const BAD: &[Bad] = &[
    bad(b"\\q", 0, "invalid escape"),
    bad(b"\\x41", 0, "invalid escape"),
    bad(b"\\U0041", 0, "invalid escape"),
    bad(b"\\u12x4", 0, "bad \\u"),
    bad(b"\\u12", 0, "short \\u"),
    bad(b"\\u", 0, "short \\u"),
    bad(b"\\u00G0", 0, "bad \\u"),
    bad(b"\\ud800", 0, "lone high surrogate"),
    bad(b"\\uDBFFz", 0, "lone high surrogate"),
    bad(b"\\ud800\\n", 0, "lone high surrogate"),
    bad(b"\\ud800\\u0041", 0, "high surrogate then no low one"),
    bad(b"\\ud800\\ud800", 0, "high surrogate then a high one"),
    bad(b"\\ud800\\u12x4", 6, "bad \\u after a high surrogate"),
    bad(b"\\ud800\\u12", 6, "short \\u after a high surrogate"),
    bad(b"\\udc00", 0, "lone low surrogate"),
    bad(b"\\uDFFF\\ud800", 0, "lone low surrogate"),
    bad(b"\x01", 0, "control character"),
    bad(b"\x00", 0, "control character"),
    bad(b"\n", 0, "control character"),
    bad(b"\t", 0, "control character"),
    bad(b"\x1f", 0, "control character"),
    bad(b"\xff", 0, "invalid UTF-8"),
    bad(b"\x80", 0, "invalid UTF-8"),
    bad(b"\xc3", 0, "invalid UTF-8 (cut short)"),
    bad(b"\xe3\x81", 0, "invalid UTF-8 (cut short)"),
    bad(b"\xf0\x9f\x98", 0, "invalid UTF-8 (cut short)"),
    bad(b"\xc0\xaf", 0, "invalid UTF-8 (overlong)"),
    bad(b"\xed\xa0\x80", 0, "invalid UTF-8 (surrogate)"),
    bad(b"\xf4\x90\x80\x80", 0, "invalid UTF-8 (beyond U+10FFFF)"),
    bad(b"\xc3\xa9\xe9", 2, "invalid UTF-8 after a valid character"),
];

/// What comes before the bad piece in the string: nothing, ASCII, escapes,
/// raw non-ASCII text, and each of them together.
const BEFORE: &[&[u8]] = &[
    b"",
    b"abc",
    b"a\\nb",
    b"\\\"",
    b"\\u00e9x",
    b"\\ud83d\\ude00",
    "é日".as_bytes(),
    "x\\t é \\u3042 ".as_bytes(),
];

/// What comes after it.
const AFTER: &[&[u8]] = &[b"", b"zz", b" \\n\\u00e9 z", "!日".as_bytes()];

/// A document holding one string (`q`, quotes included), the offset of
/// the string's opening quote in it, and the path of the error.
struct Doc {
    text: Vec<u8>,
    quote: usize,
    path: &'static str,
}

fn doc(head: &str, q: &[u8], tail: &str, path: &'static str) -> Doc {
    let mut text = head.as_bytes().to_vec();
    let quote = text.len();
    text.extend_from_slice(q);
    text.extend_from_slice(tail.as_bytes());
    Doc { text, quote, path }
}

/// A target: its name, the document it reads the string from, and its
/// decode from a slice, a reader or a one-byte reader (from a slice only,
/// for a target that borrows from it).
struct Target {
    name: &'static str,
    doc: fn(&[u8]) -> Doc,
    slice_only: bool,
    decode: fn(&[u8], How) -> Result<(), Error>,
}

#[derive(Clone, Copy, Debug)]
enum How {
    Slice,
    Reader,
    OneByte,
}

const HOWS: [How; 3] = [How::Slice, How::Reader, How::OneByte];

/// The error of decoding `input` into `T` read the `how` way (`Ok` if none).
fn run<T: DecodeOwned>(input: &[u8], how: How) -> Result<(), Error> {
    let h = JsonHandle::default();
    match how {
        How::Slice => from_slice::<T, _>(input, &h).map(drop),
        How::Reader => from_reader::<T, _, _>(input, &h).map(drop),
        How::OneByte => from_reader::<T, _, _>(OneByte(input), &h).map(drop),
    }
}

/// As [`run`], into `Value` with [`JsonHandle::parse_quoted_keys`] (keys
/// that look like numbers or bools are read as such).
fn run_quoted_keys(input: &[u8], how: How) -> Result<(), Error> {
    let h = JsonHandle::default().parse_quoted_keys(true);
    match how {
        How::Slice => from_slice::<Value, _>(input, &h).map(drop),
        How::Reader => from_reader::<Value, _, _>(input, &h).map(drop),
        How::OneByte => from_reader::<Value, _, _>(OneByte(input), &h).map(drop),
    }
}

/// As [`run`], into `Vec<Cow<str>>` (borrowed from a slice, owned from a reader).
fn run_cow(input: &[u8], how: How) -> Result<(), Error> {
    let h = JsonHandle::default();
    match how {
        How::Slice => h
            .decoder(input)
            .decode_exact::<Vec<Cow<'_, str>>>()
            .map(drop),
        How::Reader => h
            .io_decoder(input)
            .decode_exact::<Vec<Cow<'_, str>>>()
            .map(drop),
        How::OneByte => h
            .io_decoder(OneByte(input))
            .decode_exact::<Vec<Cow<'_, str>>>()
            .map(drop),
    }
}

/// As [`run`], from a slice only, for targets that borrow from it.
fn run_borrowed<'a, T: codec_core::Decode<'a>>(input: &'a [u8], how: How) -> Result<(), Error> {
    assert!(matches!(how, How::Slice));
    from_slice::<T, _>(input, &JsonHandle::default()).map(drop)
}

fn targets() -> Vec<Target> {
    vec![
        Target {
            name: "String",
            doc: |q| doc("", q, "", ""),
            slice_only: false,
            decode: run::<String>,
        },
        Target {
            name: "String after whitespace",
            doc: |q| doc(" \n\t ", q, " ", ""),
            slice_only: false,
            decode: run::<String>,
        },
        Target {
            name: "Vec<String>",
            doc: |q| doc(r#"["ok", "#, q, "]", "[1]"),
            slice_only: false,
            decode: run::<Vec<String>>,
        },
        Target {
            name: "Vec<Cow<str>>",
            doc: |q| doc("[", q, "]", "[0]"),
            slice_only: false,
            decode: run_cow,
        },
        Target {
            name: "Vec<&str>",
            doc: |q| doc("[ ", q, "]", "[0]"),
            slice_only: true,
            decode: |i, how| run_borrowed::<Vec<&str>>(i, how),
        },
        Target {
            name: "Vec<Cow<str>> borrowed",
            doc: |q| doc(r#"["ok","#, q, "]", "[1]"),
            slice_only: true,
            decode: |i, how| run_borrowed::<Vec<Cow<'_, str>>>(i, how),
        },
        Target {
            name: "struct field",
            doc: |q| doc(r#"{"a": 1, "s": "#, q, r#", "v": []}"#, ".s"),
            slice_only: false,
            decode: run::<S>,
        },
        Target {
            name: "struct field, no spaces",
            doc: |q| doc(r#"{"a":1,"s":"#, q, r#","v":[]}"#, ".s"),
            slice_only: false,
            decode: run::<S>,
        },
        Target {
            name: "struct field name",
            doc: |q| doc(r#"{"a": 1, "#, q, r#": 2, "s": "", "v": []}"#, ""),
            slice_only: false,
            decode: run::<S>,
        },
        Target {
            name: "first struct field name",
            doc: |q| doc("{", q, r#":2,"a":1,"s":"","v":[]}"#, ""),
            slice_only: false,
            decode: run::<S>,
        },
        Target {
            name: "BTreeMap<String, _> key",
            doc: |q| doc(r#"{"k": 1, "#, q, ": 2}", "[key of entry 1]"),
            slice_only: false,
            decode: run::<BTreeMap<String, u8>>,
        },
        Target {
            name: "BTreeMap<String, String> value",
            doc: |q| doc(r#"{"k": "#, q, "}", r#"["k"]"#),
            slice_only: false,
            decode: run::<BTreeMap<String, String>>,
        },
        Target {
            name: "Value item",
            doc: |q| doc("[1, ", q, "]", "[1]"),
            slice_only: false,
            decode: run::<Value>,
        },
        Target {
            name: "Value alone",
            doc: |q| doc(" ", q, "", ""),
            slice_only: false,
            decode: run::<Value>,
        },
        Target {
            name: "Value map value",
            doc: |q| doc(r#"{"k": "#, q, "}", r#"["k"]"#),
            slice_only: false,
            decode: run::<Value>,
        },
        Target {
            name: "Value map key",
            doc: |q| doc(r#"{"k": 1, "#, q, ": 2}", "[key of entry 1]"),
            slice_only: false,
            decode: run::<Value>,
        },
        Target {
            name: "Document item",
            doc: |q| doc("[1, ", q, "]", "[1]"),
            slice_only: false,
            decode: run::<Document>,
        },
        Target {
            name: "Document alone",
            doc: |q| doc(" ", q, "", ""),
            slice_only: false,
            decode: run::<Document>,
        },
        Target {
            name: "Document map value",
            doc: |q| doc(r#"{"k": "#, q, "}", r#"["k"]"#),
            slice_only: false,
            decode: run::<Document>,
        },
        Target {
            name: "Document map key",
            doc: |q| doc(r#"{"k": 1, "#, q, ": 2}", "[key of entry 1]"),
            slice_only: false,
            decode: run::<Document>,
        },
        Target {
            name: "Value map key, parse_quoted_keys",
            doc: |q| doc(r#"{"1": 1, "#, q, ": 2}", "[key of entry 1]"),
            slice_only: false,
            decode: run_quoted_keys,
        },
        Target {
            name: "enum variant name",
            doc: |q| doc(r#"{"a": 1, "e": "#, q, "}", ".e"),
            slice_only: false,
            decode: run::<WithEnum>,
        },
        Target {
            name: "enum variant name as a key",
            doc: |q| doc(r#"{"a": 1, "e": {"#, q, ": null}}", ".e"),
            slice_only: false,
            decode: run::<WithEnum>,
        },
        Target {
            name: "skipped field",
            doc: |q| doc(r#"{"a": 1, "x": "#, q, r#", "s": "", "v": []}"#, r#"["x"]"#),
            slice_only: false,
            decode: run::<S>,
        },
        Target {
            name: "inside a skipped field",
            doc: |q| {
                doc(
                    r#"{"a": 1, "x": [true, {"y": "#,
                    q,
                    r#"}], "s": "", "v": []}"#,
                    r#"["x"]"#,
                )
            },
            slice_only: false,
            decode: run::<S>,
        },
        Target {
            name: "key inside a skipped field",
            doc: |q| {
                doc(
                    r#"{"a": 1, "x": {"y": 1, "#,
                    q,
                    r#": 2}, "s": "", "v": []}"#,
                    r#"["x"]"#,
                )
            },
            slice_only: false,
            decode: run::<S>,
        },
        Target {
            name: "Raw",
            doc: |q| doc(r#"{"a": 1, "r": "#, q, "}", ".r"),
            slice_only: false,
            decode: run::<WithRaw>,
        },
        Target {
            name: "inside a Raw",
            doc: |q| doc(r#"{"a": 1, "r": [null, {"#, q, ": 1}]}", ".r"),
            slice_only: false,
            decode: run::<WithRaw>,
        },
        Target {
            name: "RawRef",
            doc: |q| doc(r#"{"a": 1, "r": ["#, q, "]}", ".r"),
            slice_only: true,
            decode: |i, how| run_borrowed::<WithRawRef<'_>>(i, how),
        },
    ]
}

/// `"` + `content` + `"`.
fn quoted(content: &[u8]) -> Vec<u8> {
    let mut q = vec![b'"'];
    q.extend_from_slice(content);
    q.push(b'"');
    q
}

/// Decodes a bad string into every target every way; adds a line per
/// wrong error to `failures`. `string(quote)` gives the string's content
/// and where in it the offending byte is, for a document whose string
/// opens at offset `quote`.
fn check(string: impl Fn(usize) -> (Vec<u8>, usize), what: &str, failures: &mut Vec<String>) {
    for t in targets() {
        let quote = (t.doc)(b"\"\"").quote;
        let (content, bad_at) = string(quote);
        let d = (t.doc)(&quoted(&content));
        let want = (d.quote + 1 + bad_at) as u64;
        for how in HOWS {
            if t.slice_only && !matches!(how, How::Slice) {
                continue;
            }
            let got = (t.decode)(&d.text, how);
            let ok = match &got {
                Err(e) => {
                    e.offset() == Some(want)
                        && e.path_string() == d.path
                        && matches!(e.kind(), ErrorKind::Syntax(_) | ErrorKind::InvalidUtf8)
                }
                Ok(()) => false,
            };
            if !ok {
                let got = match got {
                    Err(e) => format!("{e} [offset {:?}, path {:?}]", e.offset(), e.path_string()),
                    Ok(()) => "no error".to_string(),
                };
                failures.push(format!(
                    "{what} in {} into {} ({how:?}): want byte {want} at {:?}, got {got}",
                    around(&d.text, want as usize),
                    t.name,
                    d.path
                ));
            }
        }
    }
}

/// `text` shown around byte `at` (a document can be 1 KB long).
fn around(text: &[u8], at: usize) -> String {
    let from = at.saturating_sub(30);
    let to = (at + 20).min(text.len());
    format!(
        "{:?} (bytes {from}..{to} of {})",
        String::from_utf8_lossy(&text[from..to]),
        text.len()
    )
}

fn report(failures: &[String], strings: usize) {
    if !failures.is_empty() {
        for f in failures.iter().take(40) {
            eprintln!("{f}");
        }
        panic!(
            "{} wrong errors ({strings} strings, each decoded into every target every way)",
            failures.len()
        );
    }
}

#[test]
fn each_bad_piece_points_at_its_offending_byte_before_and_after_text() {
    let mut failures = Vec::new();
    let mut cases = 0;
    for b in BAD {
        for before in BEFORE {
            for after in AFTER {
                let mut content = before.to_vec();
                content.extend_from_slice(b.text);
                content.extend_from_slice(after);
                let string = |_| (content.clone(), before.len() + b.at);
                check(string, b.what, &mut failures);
                cases += 1;
            }
        }
    }
    report(&failures, cases);
}

/// The bad piece across the reader's first buffer boundary (its first
/// 512 bytes) at every split of its bytes, and just before and after it,
/// after plain text or after escapes.
#[test]
fn a_bad_piece_across_the_readers_first_buffer_boundary() {
    const BOUNDARY: usize = 512;
    let mut failures = Vec::new();
    let mut cases = 0;
    for b in BAD {
        for fill in [&b"p"[..], b"\\n", "é".as_bytes()] {
            for split in 0..=b.text.len() + 1 {
                // Filler, then the piece, whose first `split` bytes come
                // before the boundary.
                let string = |quote: usize| {
                    let start = BOUNDARY - split - (quote + 1);
                    let mut content = Vec::new();
                    while content.len() + fill.len() <= start {
                        content.extend_from_slice(fill);
                    }
                    content.resize(start, b'p');
                    content.extend_from_slice(b.text);
                    content.extend_from_slice(b"zz");
                    (content, start + b.at)
                };
                check(string, b.what, &mut failures);
                cases += 1;
            }
        }
    }
    report(&failures, cases);
}

/// A string cut short by the end of the input, inside an escape, after a
/// backslash or in its text, is an end-of-input error at the input's end,
/// for every target and every reader.
#[test]
fn a_string_cut_short_is_an_end_of_input_error_at_the_end() {
    let bodies: &[&[u8]] = &[
        b"\"",
        b"\"abc",
        b"\"ab\\",
        b"\"ab\\u12",
        b"\"ab\\ud800",
        b"\"ab\\ud800\\",
        b"\"ab\\ud800\\udc",
        "\"é\\n日".as_bytes(),
        b"\"ab\xe3\x81",
    ];
    let mut failures = Vec::new();
    for body in bodies {
        for t in targets() {
            // The target's document, cut right after the string's body.
            let d = (t.doc)(body);
            let input = &d.text[..d.quote + body.len()];
            let end = input.len() as u64;
            for how in HOWS {
                if t.slice_only && !matches!(how, How::Slice) {
                    continue;
                }
                match (t.decode)(input, how) {
                    Err(e) if e.is_eof() && e.offset() == Some(end) => {}
                    Err(e) => failures.push(format!(
                        "{:?} into {} ({how:?}): want the end of input at {end}, got {e} [{:?}]",
                        String::from_utf8_lossy(input),
                        t.name,
                        e.offset()
                    )),
                    Ok(()) => failures.push(format!(
                        "{:?} into {} ({how:?}): no error",
                        String::from_utf8_lossy(input),
                        t.name
                    )),
                }
            }
        }
    }
    report(&failures, bodies.len());
}
