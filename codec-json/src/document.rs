//! JSON's reader of a whole [`Document`](codec_core::Document) in one step
//! ([`DecodeFormat::read_document`](codec_core::DecodeFormat::read_document)):
//! one loop over the reader's buffer, with no reader call, no `Seq` and
//! no trip through the shared driver per token.
//!
//! It takes only what it reads to the end inside the buffer, under the
//! options' limits, and gives up (`None`) at anything else: bad input, a
//! limit reached, a number or string it leaves to the general path, the
//! buffer ending. The shared driver then reads the item again the general
//! way, which gives the same document or reports the error exactly as it
//! always has. Giving up costs a second read of what was read here.

use crate::decode::{RunEnd, scanned_str, skip_ws_in, unescape_run};
use crate::number;
use crate::scan::find_string_stop_ascii;
use codec_core::{DecodeOptions, DocumentBuilder, PADDED, Value};
use std::mem::ManuallyDrop;

/// Reads the item at the start of `buf` (whitespace first) into `doc`
/// and returns how many bytes it used, through the item's last byte.
/// The document is what the general path builds under `opts`, which must
/// not ask for `prefer_float` (the caller's check).
pub(crate) fn read(
    buf: &[u8],
    opts: &DecodeOptions,
    doc: &mut DocumentBuilder<'_>,
) -> Option<usize> {
    if doc.is_whole_input() {
        // Room for the whole document, so that its buffers are not grown
        // (and copied) step by step: the nodes it is estimated to hold,
        // and as much text as the input holds (strings never grow when
        // unescaped). What is left unused is given back at the end.
        doc.reserve(node_estimate(buf), buf.len());
    }
    // The item counts of `max_len` are checked as each container closes,
    // not as each item comes: the loop gives up at the close of one that
    // holds more than `max_len` items, as it would have before its first
    // item past them, and the nodes appended meanwhile are bounded by the
    // input's length. (A map's keys and values both count, so it gives up
    // at a map of more than `max_len / 2` entries: the general path then
    // decides.)
    let max_len = opts.max_len;
    let mut i = skip_ws_in(buf, 0);
    if !matches!(buf.get(i), Some(b'[' | b'{')) {
        return scalar_alone(buf, i, opts, doc);
    }
    loop {
        // A value starts at `i`, whitespace skipped; a container is open.
        // One indirect jump on the kind its first byte starts. On the
        // bytes themselves (too sparse for a table) LLVM chained compares,
        // a branch per kind, each mispredicted in turn; the leaf kinds are
        // arms of their own, where a catch-all arm kept them in a second
        // switch. twitter's document: 5-8 % less time (with `str_padded`).
        match START[usize::from(*buf.get(i)?)] {
            // An empty container is appended whole: in citm_catalog,
            // 8,695 of the 10,451 arrays are empty.
            MAP => {
                let j = skip_ws_in(buf, i + 1);
                if buf.get(j) != Some(&b'}') {
                    if !doc.begin_map() {
                        return None;
                    }
                    i = key(buf, j, opts, doc)?;
                    i = skip_ws_in(buf, i);
                    continue;
                }
                if !doc.empty_map() {
                    return None;
                }
                i = j + 1;
                if doc.depth() == 0 {
                    return (max_len > 0).then_some(i);
                }
            }
            ARRAY => {
                let j = skip_ws_in(buf, i + 1);
                if buf.get(j) != Some(&b']') {
                    if !doc.begin_array() {
                        return None;
                    }
                    i = j;
                    continue;
                }
                if !doc.empty_array() {
                    return None;
                }
                i = j + 1;
                if doc.depth() == 0 {
                    return (max_len > 0).then_some(i);
                }
            }
            STR => i = leaf(buf, i, STR, opts, doc)?,
            NUM => i = leaf(buf, i, NUM, opts, doc)?,
            TRUE => i = leaf(buf, i, TRUE, opts, doc)?,
            FALSE => i = leaf(buf, i, FALSE, opts, doc)?,
            NULL => i = leaf(buf, i, NULL, opts, doc)?,
            _ => return None,
        }
        // After a value: close what ends here, up to a `,` or the end of
        // the item.
        loop {
            i = skip_ws_in(buf, i);
            match (*buf.get(i)?, doc.in_map()) {
                (b',', false) => {
                    i = skip_ws_in(buf, i + 1);
                    break;
                }
                (b',', true) => {
                    i = key(buf, i + 1, opts, doc)?;
                    i = skip_ws_in(buf, i);
                    break;
                }
                (b']', false) | (b'}', true) => {
                    if doc.len() > max_len {
                        return None;
                    }
                    doc.end();
                    i += 1;
                    if doc.depth() == 0 {
                        // The item's one root: within any `max_len`
                        // from 1 up, and 0 allows no item at all.
                        return (max_len > 0).then_some(i);
                    }
                }
                _ => return None,
            }
        }
    }
}

/// A document that is a scalar alone, with no container to close. Out
/// of line, so that `read`'s loop is the one copy of [`leaf`] in it.
#[inline(never)]
fn scalar_alone(
    buf: &[u8],
    i: usize,
    opts: &DecodeOptions,
    doc: &mut DocumentBuilder<'_>,
) -> Option<usize> {
    let start = START[usize::from(*buf.get(i)?)];
    leaf(buf, i, start, opts, doc).filter(|_| opts.max_len > 0)
}

/// What a value's first byte starts ([`START`]).
const OTHER: u8 = 0;
const STR: u8 = 1;
const NUM: u8 = 2;
const TRUE: u8 = 3;
const FALSE: u8 = 4;
const NULL: u8 = 5;
const ARRAY: u8 = 6;
const MAP: u8 = 7;

/// The kind of value each byte starts (`OTHER`: none).
static START: [u8; 256] = {
    let mut t = [OTHER; 256];
    t[b'"' as usize] = STR;
    t[b'-' as usize] = NUM;
    let mut d = b'0';
    while d <= b'9' {
        t[d as usize] = NUM;
        d += 1;
    }
    t[b't' as usize] = TRUE;
    t[b'f' as usize] = FALSE;
    t[b'n' as usize] = NULL;
    t[b'[' as usize] = ARRAY;
    t[b'{' as usize] = MAP;
    t
};

/// A value that is not a container (a string, literal or number) at `i`,
/// which starts `start` ([`START`] of its first byte), appended to `doc`;
/// returns the index after it.
#[inline(always)]
fn leaf(
    buf: &[u8],
    i: usize,
    start: u8,
    opts: &DecodeOptions,
    doc: &mut DocumentBuilder<'_>,
) -> Option<usize> {
    match start {
        STR => string(buf, i + 1, opts, doc),
        TRUE => {
            let end = literal(buf, i, b"true")?;
            doc.bool(true);
            Some(end)
        }
        FALSE => {
            let end = literal(buf, i, b"false")?;
            doc.bool(false);
            Some(end)
        }
        NULL => {
            let end = literal(buf, i, b"null")?;
            doc.nil();
            Some(end)
        }
        NUM => {
            // As the general path reads a number into a `Value`; what
            // `short_value` leaves to `parse` is left to that path.
            let (v, len) = number::short_value::<false>(&buf[i..], opts.signed_integer)?.ok()?;
            // Not dropped, which would be a call per number to the
            // out-of-line drop of `Value`: these kinds own nothing.
            let v = ManuallyDrop::new(v);
            match *v {
                Value::Uint(n) => doc.uint(n),
                Value::Int(n) => doc.int(n),
                Value::F64(f) => doc.f64(f),
                _ => {
                    drop(ManuallyDrop::into_inner(v));
                    return None;
                }
            }
            Some(i + len)
        }
        _ => None,
    }
}

/// Windows of [`node_estimate`]: how many, and their width in bytes.
const WINDOWS: usize = 8;
const WINDOW: usize = 512;

/// About how many nodes the JSON text `buf` holds, a quarter more than
/// the structural bytes (`,` `:` `[` `{`, one per node but the first)
/// counted in eight windows spread over it suggest (at most one per four
/// bytes), or exactly that count in a text of up to 4 KiB.
///
/// JSON texts differ widely in bytes per node (compact citm_catalog
/// 7.9, canada 12.5, twitter 17.7), and a fixed ratio either falls
/// short, so that the node buffer is copied as it grows, or reserves
/// much more than is used, which is then given back. Giving back is not
/// free: glibc then serves the next large reservation from fresh pages
/// (`mmap`), and every page written faults; at one node per 6 bytes,
/// twitter's decode took 115 page faults and twice the time.
fn node_estimate(buf: &[u8]) -> usize {
    // Summed in 16-bit lanes, which LLVM vectorizes (16 bytes a step;
    // `filter(..).count()` took eight instructions a byte). A window, or
    // a whole short text, is at most 4 KiB: the sum fits.
    let structural = |w: &[u8]| {
        let flags =
            |c: u8| u16::from(c == b',') + u16::from(c == b':') + u16::from(c | 0x20 == b'{');
        usize::from(w.iter().map(|&c| flags(c)).sum::<u16>())
    };
    let sampled = WINDOWS * WINDOW;
    if buf.len() <= sampled {
        return structural(buf) + 1;
    }
    // In bounds: the last window starts at 7/8 of the length at most,
    // and the eighth left after it is at least `WINDOW` bytes, since the
    // length is over `WINDOWS * WINDOW`.
    let step = buf.len() / WINDOWS;
    let seen: usize = (0..WINDOWS)
        .map(|k| structural(&buf[k * step..k * step + WINDOW]))
        .sum();
    (seen.saturating_mul(buf.len()) / sampled / 4 * 5 + 1).min(buf.len() / 4)
}

/// A map key at `i` (perhaps after whitespace) and its `:`; returns the
/// index after the `:`.
#[inline(always)]
fn key(buf: &[u8], i: usize, opts: &DecodeOptions, doc: &mut DocumentBuilder<'_>) -> Option<usize> {
    let i = skip_ws_in(buf, i);
    if buf.get(i) != Some(&b'"') {
        return None;
    }
    let end = string(buf, i + 1, opts, doc)?;
    let colon = skip_ws_in(buf, end);
    (buf.get(colon) == Some(&b':')).then_some(colon + 1)
}

/// The string whose content starts at `start` (after its opening quote),
/// appended to `doc`; returns the index after its closing quote.
#[inline(always)]
fn string(
    buf: &[u8],
    start: usize,
    opts: &DecodeOptions,
    doc: &mut DocumentBuilder<'_>,
) -> Option<usize> {
    let body = buf.get(start..)?;
    if let Some((n, ascii)) = find_string_stop_ascii(body)
        && body[n] == b'"'
    {
        if n > opts.max_str_len {
            return None;
        }
        let s = scanned_str(&body[..n], ascii).ok()?;
        // One fixed-size copy of the string and what follows it, but in
        // the input's last `PADDED` bytes.
        match body.first_chunk::<PADDED>() {
            Some(window) => doc.str_padded(s, window),
            None => doc.str(s),
        }
        return Some(start + n + 1);
    }
    escaped(body, opts.max_str_len, doc).map(|used| start + used)
}

/// A string with escapes (or a control character, or no end in `body`),
/// unescaped straight into the document; returns the bytes of `body` it
/// used, through the closing quote.
#[inline(never)]
fn escaped(body: &[u8], max_str_len: usize, doc: &mut DocumentBuilder<'_>) -> Option<usize> {
    let mut used = 0;
    let taken = doc.text_with(|out| {
        let (n, end) = unescape_run(body, out);
        used = n;
        matches!(end, RunEnd::Quote) && out.len() <= max_str_len
    });
    taken.then_some(used)
}

/// The literal `lit` at `i`; returns the index after it.
#[inline(always)]
pub(crate) fn literal(buf: &[u8], i: usize, lit: &[u8]) -> Option<usize> {
    let end = i + lit.len();
    (buf.get(i..end)? == lit).then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::JsonHandle;
    use crate::testing::cuts_and_changes;
    use codec_core::{Document, Options, from_slice};

    /// Every kind and layout the reader takes, each read to its end.
    const TAKEN: &[&str] = &[
        r#"{"a":[1,-2,3.5,1e3,-0.0,true,false,null,"x\"y\u00e9\ud83d\ude00\/",{}],"b":{"c":[[]],"d":""},"é":"ü"}"#,
        " [ 1 ,\n\t{ \"k\" : \"v\" } , [ ] , { } ] ",
        r#""top""#,
        "true",
        "[18446744073709551615,-9223372036854775808,9223372036854775808,0.1,-1.5e-7]",
        r#"{"dup":1,"dup":{"dup":[null]}}"#,
        r#"[["\u0041\n",{"k\u00e9y":"\t"}],"π"]"#,
    ];

    /// The reader's document from `input` under `opts`, and the bytes used.
    fn fast(input: &[u8], opts: &Options) -> Option<(Document, usize)> {
        let mut used = 0;
        let doc = Document::build_with(opts.decode.max_depth, |d| {
            read(input, &opts.decode, d).map(|n| used = n).is_some()
        })?;
        Some((doc, used))
    }

    /// Whether `input` has a run of 19 digits or more.
    fn long_digits(input: &[u8]) -> bool {
        input
            .split(|b| !b.is_ascii_digit())
            .any(|run| run.len() >= 19)
    }

    /// Whatever the reader takes, the general path reads alike.
    fn agrees(input: &[u8], opts: &Options) -> bool {
        let Some((doc, used)) = fast(input, opts) else {
            return false;
        };
        let h = JsonHandle::default().with_options(opts.clone());
        match from_slice::<Value, _>(&input[..used], &h) {
            Ok(v) => assert_eq!(doc, v, "{:?}", String::from_utf8_lossy(input)),
            Err(e) => panic!("taken, but {e}: {:?}", String::from_utf8_lossy(input)),
        }
        true
    }

    /// Nodes of `v`, as a `Document` counts them (a map's keys too).
    fn nodes(v: &Value) -> usize {
        1 + match v {
            Value::Array(items) => items.iter().map(nodes).sum(),
            Value::Map(entries) => entries.iter().map(|(k, v)| nodes(k) + nodes(v)).sum(),
            _ => 0,
        }
    }

    /// The estimate of the three bench documents, pretty and compact,
    /// reserves enough nodes and not twice too many (which would be given
    /// back); a short text's is its count, one more for an empty container.
    #[test]
    fn node_estimate_covers_the_documents_without_waste() {
        let h = JsonHandle::default();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
        for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
            let pretty = std::fs::read(format!("{dir}{name}")).unwrap();
            let v: Value = from_slice(&pretty, &h).unwrap();
            let compact = codec_core::to_vec(&v, &h).unwrap();
            let n = nodes(&v);
            for text in [&pretty, &compact] {
                let e = node_estimate(text);
                assert!(n <= e && e < 2 * n, "{name}: {e} for {n} nodes");
            }
        }
        assert_eq!(node_estimate(b"[1,{\"a\":[]}]"), 6);
        assert_eq!(node_estimate(b"7"), 1);
        // A string of commas cannot make it reserve more than a node per
        // four bytes.
        let commas = [b','; 1 << 16];
        assert_eq!(node_estimate(&commas), 1 << 14);
    }

    #[test]
    fn takes_whole_documents_as_the_general_path_reads_them() {
        for (i, text) in TAKEN.iter().enumerate() {
            let opts = Options::default().signed_integer(i % 2 == 1);
            assert!(agrees(text.as_bytes(), &opts), "not taken: {text}");
            let (_, used) = fast(text.as_bytes(), &opts).unwrap();
            assert_eq!(used, text.trim_end().len(), "{text}");
        }
        // Nested past the builder's frames kept in place (32), maps and
        // arrays in turn, an item on each side of each level.
        let deep: String = (0..70)
            .map(|i| if i % 2 == 0 { "[1," } else { r#"{"k":"# })
            .chain(["0"])
            .chain((0..70).rev().map(|i| if i % 2 == 0 { ",2]" } else { "}" }))
            .collect();
        assert!(
            agrees(deep.as_bytes(), &Options::default()),
            "not taken: {deep}"
        );
        // What follows the item is not read.
        let (_, used) = fast(b"[1] [2]", &Options::default()).unwrap();
        assert_eq!(used, 3);
    }

    #[test]
    fn gives_up_or_agrees_on_every_cut_and_change() {
        let limits = [
            Options::default(),
            Options::default().max_depth(1),
            Options::default().max_depth(2),
            Options::default().max_len(1),
            Options::default().max_len(3),
            Options::default().max_str_len(0),
            Options::default().max_str_len(2),
        ];
        let (mut taken, mut cases) = (0, 0);
        for text in TAKEN {
            for opts in &limits {
                cuts_and_changes(
                    text.as_bytes(),
                    |cut| {
                        agrees(cut, opts);
                    },
                    |changed| {
                        let took = agrees(changed, opts);
                        if opts.decode == limits[0].decode {
                            cases += 1;
                            taken += usize::from(took);
                            // Without limits it takes all the general path
                            // reads, but numbers of 19 digits and more.
                            let valid = from_slice::<Value, _>(changed, &JsonHandle::default());
                            assert!(
                                took || valid.is_err() || long_digits(changed),
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

    /// Large documents decoded one after another, each in the buffers
    /// the one before it left (`Document`'s spare): each is its own.
    #[test]
    fn documents_one_after_another_are_each_their_own() {
        let h = JsonHandle::default();
        let strings: Vec<String> = (0..20_000).map(|i| format!("\"s{i}\"")).collect();
        let numbers: Vec<String> = (0..15_000).map(|i| i.to_string()).collect();
        let a = format!("[{}]", strings.join(","));
        let b = format!("{{\"k\":[{}],\"z\":\"end\"}}", numbers.join(","));
        for text in [&a, &b, &a, &b] {
            let doc: Document = from_slice(text.as_bytes(), &h).unwrap();
            let v: Value = from_slice(text.as_bytes(), &h).unwrap();
            assert_eq!(doc, v);
        }
    }

    #[test]
    fn gives_up_at_each_limit() {
        let doc = br#"{"ab":[[1,2]],"c":"xyz"}"#;
        let under = |opts: Options| fast(doc, &opts).is_some();
        assert!(under(Options::default().max_depth(3)));
        assert!(!under(Options::default().max_depth(2)));
        // An empty container, appended in one step, is as deep as any.
        let depth = |text: &[u8], n| fast(text, &Options::default().max_depth(n)).is_some();
        assert!(depth(b"[[],{}]", 2) && !depth(b"[[],{}]", 1) && !depth(b"[{}]", 1));
        assert!(depth(b" {} ", 1) && !depth(b"[]", 0) && !depth(b"{}", 0));
        assert!(under(Options::default().max_len(4)));
        assert!(!under(Options::default().max_len(2)));
        // `max_len` is checked as each container closes: an inner one
        // past it, an outer one, a lone scalar under a limit of 0.
        let len = |text: &[u8], n| fast(text, &Options::default().max_len(n)).is_some();
        assert!(len(b"[[1,2],[3]]", 2) && !len(b"[[1,2,3],[4]]", 2));
        assert!(!len(b"[[1],[2],[3]]", 2) && len(b"[[1],[2],[3]]", 3));
        assert!(len(b"true", 1) && !len(b"true", 0) && !len(b"[]", 0));
        assert!(under(Options::default().max_str_len(3)));
        assert!(!under(Options::default().max_str_len(2)));
        // An escaped string's limit is on its unescaped length.
        let esc = |n| fast(br#"["\u00e9\n"]"#, &Options::default().max_str_len(n)).is_some();
        assert!(esc(3) && !esc(2));
    }
}
