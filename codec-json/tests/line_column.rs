//! An error's line and column (`Error::line_column`): the same from a
//! slice, from a reader and from a reader handing over one byte at a time,
//! for errors on the first line, deep in a document of many lines and past
//! the reader's first buffers, at a token read across refills, and in the
//! documents of a stream. Columns count bytes from the line's start.

use codec_core::{Error, Value, from_reader, from_slice};
use codec_json::JsonHandle;
use codec_test_support::OneByte;

/// Line and column of byte `at` of `text`, counted here independently.
fn place(text: &[u8], at: usize) -> (u64, u64) {
    let before = &text[..at];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (line as u64, (at - start + 1) as u64)
}

/// Decodes `text` three ways; all fail with the same message, at `at`,
/// placed at its line and column.
fn check(text: &[u8], at: usize) -> Error {
    let h = JsonHandle::default();
    let slice = from_slice::<Value, _>(text, &h).unwrap_err();
    let whole = from_reader::<Value, _, _>(text, &h).unwrap_err();
    let trickled = from_reader::<Value, _, _>(OneByte(text), &h).unwrap_err();
    assert_eq!(slice.offset(), Some(at as u64), "{slice}");
    assert_eq!(slice.line_column(), Some(place(text, at)), "{slice}");
    let (line, column) = place(text, at);
    assert!(
        slice
            .to_string()
            .ends_with(&format!("(line {line}, column {column}, byte {at})")),
        "{slice}"
    );
    assert_eq!(whole.to_string(), slice.to_string(), "from a reader");
    assert_eq!(trickled.to_string(), slice.to_string(), "a byte at a time");
    slice
}

/// A pretty-printed document of `n` records with multi-byte text, then `tail`.
fn document(n: usize, tail: &str) -> String {
    let mut s = String::from("[\n");
    for i in 0..n {
        s.push_str(&format!(
            "  {{\n    \"id\": {i},\n    \"name\": \"é{}\",\n    \"tags\": [\"a\", \"b\"]\n  }},\n",
            "ü".repeat(i % 13)
        ));
    }
    s.push_str(tail);
    s
}

#[test]
fn first_line() {
    let e = check(br#"{"a": [1, 2,]}"#, 12);
    assert!(
        e.to_string().contains("JSON allows no trailing comma"),
        "{e}"
    );
    let e = check(br#"{'a': 1}"#, 1);
    assert!(
        e.to_string().contains("JSON strings take double quotes"),
        "{e}"
    );
    let e = check(b"// note\n{}", 0);
    assert!(e.to_string().contains("JSON has no comments"), "{e}");
    check(br#"{"a": 1,}"#, 8);
    check(b"", 0);
}

#[test]
fn deep_in_a_long_document() {
    // Past the readers' 512-byte first buffer and several 8 KB buffers.
    // The error is at the tail's first `@`, which is then taken out.
    for (n, tail) in [
        (3, "  @tru\n]"),
        (400, "  {\"id\": 1,@}\n]"),
        (400, "  \"@\\x\"\n]"),
        (700, "  [1, 2,\n\n   @]\n]"),
    ] {
        let text = document(n, &tail.replacen('@', "", 1));
        let at = document(n, tail).find('@').unwrap();
        let e = check(text.as_bytes(), at);
        assert!(e.line_column().unwrap().0 > 4 * n as u64, "{e}");
    }
}

/// A number and a string that span refills of a reader given a byte at a
/// time: their errors point at their first byte, lines behind.
#[test]
fn tokens_read_across_refills() {
    let long = "9".repeat(400);
    let text = document(50, &format!("  {long}e999999\n]"));
    check(text.as_bytes(), text.rfind(&long).unwrap());
    let text = document(50, &format!("  \"{}\\q\"\n]", "é".repeat(300)));
    check(text.as_bytes(), text.rfind("\\q").unwrap());
    // Into a typed target: the number's first byte, with the lookahead
    // after it (a newline) already counted.
    let h = JsonHandle::default();
    let text = format!("[\n  1,\n  {long}\n]");
    let at = text.find(&long).unwrap() as u64;
    for e in [
        from_slice::<Vec<u8>, _>(text.as_bytes(), &h).unwrap_err(),
        from_reader::<Vec<u8>, _, _>(OneByte(text.as_bytes()), &h).unwrap_err(),
    ] {
        assert_eq!(e.offset(), Some(at), "{e}");
        assert_eq!(e.line_column(), Some((3, 3)), "{e}");
    }
}

/// In JSON Lines, the line of the failing document; from a slice and from
/// a reader.
#[test]
fn documents_of_a_stream() {
    let h = JsonHandle::default();
    let text = b"{\"a\": 1}\n{\"a\": 2}\n\n{\"a\": 3,}\n{\"a\": 4}\n";
    let at = 27;
    assert_eq!(text[at], b'}');
    let from_slice: Vec<_> = h.stream_slice::<Value>(text).collect();
    let from_reader: Vec<_> = h.stream_reader::<Value, _>(OneByte(text)).collect();
    for got in [from_slice, from_reader] {
        assert_eq!(got.len(), 3);
        let e = got[2].as_ref().unwrap_err();
        assert_eq!(e.offset(), Some(at as u64), "{e}");
        assert_eq!(e.line_column(), Some((4, 9)), "{e}");
    }
}
