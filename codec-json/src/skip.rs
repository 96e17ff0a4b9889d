//! Skipping a whole value in one loop over the reader's buffer, for
//! [`DecodeFormat::skip`](codec_core::DecodeFormat::skip): the fields a
//! struct does not have, the items of a document a caller does not read.
//!
//! As `document.rs` does for a [`Document`](codec_core::Document), it
//! takes only a value it reads to its end inside the buffer, and gives up
//! (`None`) at anything else: bad input, the depth limit, a number that
//! reaches the buffer's end, the buffer ending. Nothing is consumed then,
//! and the general path skips the value token by token, which accepts the
//! same texts and reports each error where it always has. What is checked
//! here is what that path checks: the grammar, the depth, every escape and
//! the UTF-8 of every string; not what it leaves unchecked when skipping
//! (a number's range, lengths).
//!
//! Compared with the general path it makes no reader call per token and
//! does not unescape a string into the scratch buffer to throw it away.

use crate::decode::{Out, RunEnd, skip_ws_in, unescape_run};
use crate::document::literal;
use crate::number::Grammar;
use crate::scan::find_string_stop_ascii;

/// Skips the value at the start of `buf` (whitespace first), nested at
/// most `depth` containers deep; returns how many bytes it used, through
/// the value's last byte. `open` holds, innermost last, whether each open
/// container is a map: a buffer kept by the caller (cleared here).
pub(crate) fn skip(buf: &[u8], depth: u32, open: &mut Vec<bool>) -> Option<usize> {
    open.clear();
    let mut i = skip_ws_in(buf, 0);
    loop {
        // A value starts at `i`, whitespace skipped.
        match *buf.get(i)? {
            c @ (b'{' | b'[') => {
                // As deep as the general path allows, empty containers too.
                if open.len() >= depth as usize {
                    return None;
                }
                let map = c == b'{';
                let j = skip_ws_in(buf, i + 1);
                if buf.get(j) == Some(&close(map)) {
                    i = j + 1;
                } else {
                    open.push(map);
                    i = if map { key(buf, j)? } else { j };
                    i = skip_ws_in(buf, i);
                    continue;
                }
            }
            b'"' => i = string(buf, i + 1)?,
            b't' => i = literal(buf, i, b"true")?,
            b'f' => i = literal(buf, i, b"false")?,
            b'n' => i = literal(buf, i, b"null")?,
            b'-' | b'0'..=b'9' => i += Grammar::whole(&buf[i..])?,
            _ => return None,
        }
        // After a value: close what ends here, up to a `,` or the end of
        // the value skipped.
        loop {
            let Some(&map) = open.last() else {
                return Some(i);
            };
            i = skip_ws_in(buf, i);
            match *buf.get(i)? {
                b',' => {
                    i = if map { key(buf, i + 1)? } else { i + 1 };
                    i = skip_ws_in(buf, i);
                    break;
                }
                c if c == close(map) => {
                    open.pop();
                    i += 1;
                }
                _ => return None,
            }
        }
    }
}

/// The byte that closes a map (`true`) or an array.
#[inline(always)]
fn close(map: bool) -> u8 {
    if map { b'}' } else { b']' }
}

/// A map key at `i` (perhaps after whitespace) and its `:`; returns the
/// index after the `:`.
#[inline(always)]
fn key(buf: &[u8], i: usize) -> Option<usize> {
    let i = skip_ws_in(buf, i);
    if buf.get(i) != Some(&b'"') {
        return None;
    }
    let colon = skip_ws_in(buf, string(buf, i + 1)?);
    (buf.get(colon) == Some(&b':')).then_some(colon + 1)
}

/// The string whose content starts at `start` (after its opening quote),
/// checked as the general path reads it; returns the index after its
/// closing quote.
#[inline(always)]
pub(crate) fn string(buf: &[u8], start: usize) -> Option<usize> {
    let body = buf.get(start..)?;
    if let Some((n, ascii)) = find_string_stop_ascii(body)
        && body[n] == b'"'
    {
        return (ascii || codec_core::str_from_utf8(&body[..n]).is_ok()).then_some(start + n + 1);
    }
    escaped(body).map(|used| start + used)
}

/// A string with escapes (or a control character, or no end in `body`):
/// its escapes decoded and dropped, its raw runs checked for UTF-8;
/// returns the bytes of `body` it used, through the closing quote.
#[inline(never)]
fn escaped(body: &[u8]) -> Option<usize> {
    let mut check = Utf8Runs { valid: true };
    let (used, end) = unescape_run(body, &mut check);
    (matches!(end, RunEnd::Quote) && check.valid).then_some(used)
}

/// An [`Out`] that keeps nothing: it checks that the raw runs of a
/// string's content are UTF-8. A run ends only at an escape, whose text is
/// a whole character: the content unescaped is UTF-8 exactly when each of
/// its raw runs is, as the general path checks it whole.
struct Utf8Runs {
    valid: bool,
}

impl Out for Utf8Runs {
    #[inline(always)]
    fn push(&mut self, _: u8) {}

    #[inline(always)]
    fn extend_from_slice(&mut self, run: &[u8]) {
        self.valid &= codec_core::str_from_utf8(run).is_ok();
    }

    /// An escape's character is valid by construction: not checked.
    #[inline(always)]
    fn push_char(&mut self, _: u32) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::JsonHandle;
    use crate::testing::cuts_and_changes;
    use codec_core::{Handle, Options};

    /// Every kind and layout it takes, each skipped to its end.
    const TAKEN: &[&str] = &[
        r#"{"a":[1,-2,3.5,1e3,-0.0,true,false,null,"x\"y\u00e9\ud83d\ude00\/",{}],"b":{"c":[[]],"d":""},"é":"ü"}"#,
        " [ 1 ,\n\t{ \"k\" : \"v\" } , [ ] , { } ] ",
        r#""top""#,
        "true ",
        "[18446744073709551615999,-9223372036854775808,1e999,0.1,-1.5e-7]",
        r#"{"dup":1,"dup":{"dup":[null]}}"#,
        r#"[["\u0041\n",{"k\u00e9y":"\t"}],"π","日本語\u3042\t日本"]"#,
        "7,",
    ];

    /// The general path's verdict on the first value of `input` under
    /// `depth`: the bytes it consumed, or its error.
    fn general(input: &[u8], depth: u32) -> Result<usize, String> {
        let h = JsonHandle::default().with_options(Options::default().max_depth(depth));
        let mut d = h.decoder(input);
        match d.skip() {
            Ok(()) => Ok(d.offset() as usize),
            Err(e) => Err(e.to_string()),
        }
    }

    /// Whatever `skip` takes, the general path skips alike (the same
    /// bytes); returns whether it was taken.
    fn agrees(input: &[u8], depth: u32) -> bool {
        let Some(used) = skip(input, depth, &mut Vec::new()) else {
            return false;
        };
        match general(input, depth) {
            Ok(n) => assert_eq!(n, used, "{:?}", String::from_utf8_lossy(input)),
            Err(e) => panic!("taken, but {e}: {:?}", String::from_utf8_lossy(input)),
        }
        true
    }

    #[test]
    fn takes_whole_values_as_the_general_path_skips_them() {
        for text in TAKEN {
            assert!(agrees(text.as_bytes(), 256), "not taken: {text}");
        }
        // Only the first value: what follows is not read.
        assert_eq!(skip(b"[1] [2]", 256, &mut Vec::new()), Some(3));
        assert_eq!(skip(b" \"a\"x", 256, &mut Vec::new()), Some(4));
        // A number that reaches the end is left to the general path.
        assert_eq!(skip(b"[1]", 256, &mut Vec::new()), Some(3));
        assert_eq!(skip(b"12", 256, &mut Vec::new()), None);
        // Deeper than the builder's or any fixed frame count.
        let deep = "[".repeat(300) + &"]".repeat(300);
        assert!(agrees(deep.as_bytes(), 300));
        assert_eq!(skip(deep.as_bytes(), 299, &mut Vec::new()), None);
    }

    #[test]
    fn gives_up_at_the_depth_limit_as_the_general_path_fails() {
        let depth = |text: &[u8], n| skip(text, n, &mut Vec::new()).is_some();
        for (text, deepest) in [
            (&b"[[],{}]"[..], 2),
            (b"{\"a\":[{}]}", 3),
            (b"[]", 1),
            (b"1 ", 0),
        ] {
            assert!(depth(text, deepest), "{text:?} at {deepest}");
            assert!(general(text, deepest).is_ok());
            if deepest > 0 {
                assert!(!depth(text, deepest - 1), "{text:?} at {}", deepest - 1);
                assert!(general(text, deepest - 1).is_err());
            }
        }
    }

    /// Each cut and each one-byte change of the texts above: `skip`
    /// gives up or agrees with the general path, never takes what that
    /// path rejects, and takes all it skips but what ends at a number at
    /// the end of the input.
    #[test]
    fn gives_up_or_agrees_on_every_cut_and_change() {
        let (mut taken, mut cases) = (0, 0);
        for text in TAKEN {
            for depth in [256, 1, 2] {
                cuts_and_changes(
                    text.as_bytes(),
                    |cut| {
                        agrees(cut, depth);
                    },
                    |changed| {
                        let took = agrees(changed, depth);
                        if depth != 256 {
                            return;
                        }
                        cases += 1;
                        taken += usize::from(took);
                        if !took {
                            // Left to the general path only where it
                            // fails, or a number runs to the input's end.
                            let ok = general(changed, depth);
                            assert!(
                                ok.is_err()
                                    || (ok == Ok(changed.len())
                                        && changed.last().is_some_and(u8::is_ascii_digit)),
                                "not taken: {:?}",
                                String::from_utf8_lossy(changed)
                            );
                        }
                    },
                );
            }
        }
        // Not a test that passes by giving up on everything.
        assert!(taken * 8 > cases, "taken {taken} of {cases}");
    }

    /// Invalid UTF-8 in a raw run, before or after an escape, and lone
    /// or reversed surrogates, are not taken (the general path reports
    /// them).
    #[test]
    fn gives_up_on_bad_text() {
        for text in [
            &b"\"\xc3\""[..],
            b"\"a\\n\xff\"",
            b"\"\xe3\x81\\n\"",
            b"\"\\ud83d\"",
            b"\"\\ude00\\ud83d\"",
            b"\"\\x\"",
            b"\"a\x01\"",
            b"[\"\xed\xa0\x80\"]",
        ] {
            assert_eq!(skip(text, 256, &mut Vec::new()), None, "{text:?}");
            assert!(general(text, 256).is_err(), "{text:?}");
        }
    }
}
