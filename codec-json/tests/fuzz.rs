//! Fuzz-style tests: random and mutated inputs never panic, decode the same
//! from a slice and from readers, and every strict prefix of a valid text
//! (a container, string or literal) is an error.

use codec_core::{Decode, DecodeOwned, Document, Handle, IoReader, Value, from_reader, from_slice};
use codec_json::JsonHandle;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// xorshift64*: small, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Yields `chunk` bytes per `read` call.
struct Chunked<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl std::io::Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.chunk.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn seeds() -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/test_parsing");
    let mut out: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| std::fs::read(e.path()).unwrap())
        .filter(|b| b.len() < 2000)
        .collect();
    out.sort();
    out.push(
        br#"{"a":[1,-2,3.5e-7,"x\u00e9\n\ud83d\ude80",true,false,null,{"k":{}}],"b":"AQID","c":18446744073709551615}"#
            .to_vec(),
    );
    let tw =
        std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/twitter.json"))
            .unwrap();
    out.push(tw[..3000].to_vec());
    out
}

const ALPHABET: &[u8] = b"{}[],:\"\\ \n\t0123456789-+.eEtrufalsn/u\xc3\xa9\xff\x00abAZ";

fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let pos = rng.below(v.len() + 1);
        match rng.below(6) {
            0 if !v.is_empty() => {
                let p = pos.min(v.len() - 1);
                v[p] = ALPHABET[rng.below(ALPHABET.len())];
            }
            1 if !v.is_empty() => {
                let p = pos.min(v.len() - 1);
                v.remove(p);
            }
            2 => v.insert(pos, ALPHABET[rng.below(ALPHABET.len())]),
            3 => {
                // random whitespace
                let ws = [b' ', b'\n', b'\t', b'\r'][rng.below(4)];
                v.insert(pos, ws);
            }
            4 if !v.is_empty() => {
                let p = pos.min(v.len() - 1);
                v[p] ^= 1 << rng.below(8);
            }
            _ => v.truncate(pos),
        }
    }
    v
}

fn random(rng: &mut Rng) -> Vec<u8> {
    let n = rng.below(40);
    (0..n)
        .map(|_| ALPHABET[rng.below(ALPHABET.len())])
        .collect()
}

fn same<T: for<'de> Decode<'de> + PartialEq + std::fmt::Debug>(
    h: &JsonHandle,
    input: &[u8],
    chunk: usize,
) {
    let a = from_slice::<T, _>(input, h);
    let b = from_reader::<T, _, _>(Chunked { data: input, chunk }, h);
    match (&a, &b) {
        (Ok(x), Ok(y)) => assert_eq!(x, y, "{:?}", String::from_utf8_lossy(input)),
        // The same error (kind, place, path), however the input arrives.
        (Err(x), Err(y)) => assert_eq!(
            x.to_string(),
            y.to_string(),
            "{:?}",
            String::from_utf8_lossy(input)
        ),
        _ => panic!(
            "slice {:?} vs reader {:?} on {:?}",
            a.as_ref().err(),
            b.as_ref().err(),
            String::from_utf8_lossy(input)
        ),
    }
}

#[test]
fn random_and_mutated_inputs_never_panic() {
    let h = JsonHandle::default();
    let hk = JsonHandle::default()
        .parse_quoted_keys(true)
        .prefer_float(true);
    let seeds = seeds();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut ok = 0;
    for i in 0..100_000 {
        let input = if i % 4 == 0 {
            random(&mut rng)
        } else {
            let s = &seeds[rng.below(seeds.len())];
            mutate(&mut rng, s)
        };
        let value = from_slice::<Value, _>(&input, &h);
        if value.is_ok() {
            ok += 1;
        }
        // A `Document` reads the same value, or fails with the same error.
        let doc = from_slice::<Document, _>(&input, &h);
        match (&value, &doc) {
            (Ok(v), Ok(d)) => assert_eq!(d, v, "{:?}", String::from_utf8_lossy(&input)),
            (Err(x), Err(y)) => assert_eq!(x.to_string(), y.to_string()),
            _ => panic!(
                "Value {:?} vs Document {:?} on {:?}",
                value.as_ref().err(),
                doc.as_ref().err(),
                String::from_utf8_lossy(&input)
            ),
        }
        let _ = from_slice::<Value, _>(&input, &hk);
        let _ = from_slice::<Vec<u64>, _>(&input, &h);
        let _ = from_slice::<BTreeMap<String, Value>, _>(&input, &h);
        let _ = from_slice::<BTreeMap<u32, Vec<f64>>, _>(&input, &h);
        let _ = from_slice::<(String, i8, Vec<u8>), _>(&input, &h);
        let mut d = h.decoder(&input);
        let _ = d.skip().and_then(|_| d.finish());
        if i % 8 == 0 {
            same::<Value>(&h, &input, 1 + rng.below(3));
            same::<Document>(&h, &input, 1 + rng.below(3));
        }
    }
    // The mix must include valid documents, not only garbage.
    assert!(ok > 2_000, "only {ok} valid inputs");
}

#[test]
fn strict_prefixes_are_errors() {
    let h = JsonHandle::default();
    let mut checked = 0;
    for seed in seeds() {
        let Ok(v) = from_slice::<Value, _>(&seed, &h) else {
            continue;
        };
        // Prefixes of our canonical text and of the original (trimmed).
        let ours = codec_core::to_vec(&v, &h).unwrap();
        let trimmed = seed.trim_ascii();
        for doc in [&ours[..], trimmed] {
            if !matches!(doc.first(), Some(b'[' | b'{' | b'"' | b't' | b'f' | b'n')) {
                continue; // a prefix of a number can be a number
            }
            for n in 0..doc.len() {
                assert!(
                    from_slice::<Value, _>(&doc[..n], &h).is_err(),
                    "prefix {:?} of {:?} accepted",
                    String::from_utf8_lossy(&doc[..n]),
                    String::from_utf8_lossy(doc)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000);
}

#[test]
fn readers_agree_byte_by_byte() {
    let h = JsonHandle::default();
    for seed in seeds() {
        for chunk in [1, 2, 7, 8192] {
            same::<Value>(&h, &seed, chunk);
            same::<Vec<Value>>(&h, &seed, chunk);
        }
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let h = JsonHandle::default();
    for open in [b'[', b'{'] {
        let mut doc = Vec::new();
        for _ in 0..100_000 {
            doc.push(open);
            if open == b'{' {
                doc.extend_from_slice(b"\"k\":");
            }
        }
        assert!(from_slice::<Value, _>(&doc, &h).is_err());
        let mut d = h.decoder(&doc);
        assert!(d.skip().is_err());
        let mut d = codec_core::Decoder::new(
            IoReader::new(&doc[..]),
            h.dec_format(),
            h.options.decode.clone(),
        );
        assert!(d.decode::<Value>().is_err());
    }
    // Within the limit it works.
    let doc = format!("{}{}", "[".repeat(200), "]".repeat(200));
    assert!(from_slice::<Value, _>(doc.as_bytes(), &h).is_ok());
}

/// Typed numeric targets read a short number in one pass from a slice and
/// through the general parser from a reader that hands out one byte at a
/// time: both must give the same values, and fail on the same inputs.
#[test]
fn numeric_targets_agree_between_fast_and_general_paths() {
    let h = JsonHandle::default();
    let mut rng = Rng(0x5DEE_CE66_D1CE_4E5B);
    let pieces: [&str; 14] = [
        "0",
        "-",
        "-0",
        "1",
        "9",
        "12345678",
        "9223372036854775807",
        "18446744073709551615",
        ".5",
        ".000000001",
        "e3",
        "E-2",
        "e+400",
        "0000",
    ];
    let mut ok = [0usize; 3];
    for _ in 0..30_000 {
        let mut num = String::new();
        for _ in 0..1 + rng.below(4) {
            num.push_str(pieces[rng.below(pieces.len())]);
        }
        let doc = format!("[{num},{num}]");
        let input = doc.as_bytes();
        same::<Vec<u64>>(&h, input, 1);
        same::<Vec<i64>>(&h, input, 1);
        same::<Vec<f64>>(&h, input, 1);
        same::<Vec<i32>>(&h, input, 1);
        ok[0] += from_slice::<Vec<u64>, _>(input, &h).is_ok() as usize;
        ok[1] += from_slice::<Vec<i64>, _>(input, &h).is_ok() as usize;
        ok[2] += from_slice::<Vec<f64>, _>(input, &h).is_ok() as usize;
    }
    // Both outcomes are well represented.
    assert!(ok.iter().all(|&n| n > 3_000 && n < 27_000), "{ok:?}");
}

/// Random two-item lists of `pieces` (1 to `most` per item) decode as
/// `T` and as `U` to the same values, and fail alike, from a slice and
/// from readers handing out 1, 2 or 3 bytes at a time; as `T`, a failure
/// has the same message both ways. Returns how many decoded as `T`.
fn pieces_agree<T, U>(seed: u64, pieces: &[&str], most: usize) -> usize
where
    T: for<'de> Decode<'de> + PartialEq + std::fmt::Debug,
    U: for<'de> Decode<'de> + PartialEq + std::fmt::Debug,
{
    let h = JsonHandle::default();
    let mut rng = Rng(seed);
    let mut ok = 0;
    for _ in 0..20_000 {
        let mut item = || {
            let mut s = String::new();
            for _ in 0..1 + rng.below(most) {
                s.push_str(pieces[rng.below(pieces.len())]);
            }
            s
        };
        let doc = format!("[{},{}]", item(), item());
        let input = doc.as_bytes();
        for chunk in [1, 2, 3] {
            same::<T>(&h, input, chunk);
            same::<U>(&h, input, chunk);
        }
        let slice = from_slice::<T, _>(input, &h);
        if let Err(e) = &slice {
            let reader = from_reader::<T, _, _>(
                Chunked {
                    data: input,
                    chunk: 1,
                },
                &h,
            );
            assert_eq!(reader.unwrap_err().to_string(), e.to_string(), "{doc}");
        }
        ok += slice.is_ok() as usize;
    }
    ok
}

/// Bool targets read a literal at the reader's position inline, anything
/// else (whitespace first, a cut or misspelt literal, a buffer that ends
/// inside it) the general way.
#[test]
fn bool_targets_agree_between_fast_and_general_paths() {
    let pieces = [
        "true", "false", " ", "tru", "fals", "null", "e", "1", "\"true\"",
    ];
    let ok = pieces_agree::<Vec<bool>, Vec<Option<bool>>>(0xB001_CAFE, &pieces, 2);
    assert!(ok > 200 && ok < 19_000, "{ok}");
}

/// A `Vec` target takes `[]` at the reader's position at a glance; any
/// other array (whitespace inside or before it, a buffer that ends between
/// the brackets, items) the general way.
#[test]
fn empty_arrays_agree_between_fast_and_general_paths() {
    let pieces = ["[]", "[]", "[", "]", " ", "1", ",", "null", "[ ]"];
    let ok = pieces_agree::<Vec<Vec<u32>>, Vec<Option<Vec<u32>>>>(0xE3B7_7A55, &pieces, 3);
    assert!(ok > 200 && ok < 19_000, "{ok}");
}

/// A malformed or out-of-range number is reported at its first byte with
/// the same message whether the document comes from a slice or from a
/// reader that hands it over in pieces (a reader gathers a number that
/// reaches the end of its buffer before parsing it).
#[test]
fn number_errors_agree_between_slice_and_reader() {
    fn check<T: for<'de> Decode<'de> + std::fmt::Debug>(h: &JsonHandle, input: &str) {
        let want = from_slice::<T, _>(input.as_bytes(), h)
            .expect_err(input)
            .to_string();
        for chunk in [1, 2, 7, 8192] {
            let got = from_reader::<T, _, _>(
                Chunked {
                    data: input.as_bytes(),
                    chunk,
                },
                h,
            )
            .expect_err(input)
            .to_string();
            assert_eq!(got, want, "{input:?} in chunks of {chunk}");
        }
    }
    let h = JsonHandle::default();
    for text in [
        "1e400",
        "-1e400",
        "[1,-1e400]",
        "{\"a\":1e999}",
        "[0.5,1e309 ]",
        "-",
        "[-]",
        "[1.]",
        "[1.e5]",
        "[01]",
        "[-01]",
        "[-0,00]",
        "[1e]",
        "[1e+]",
        "[--1]",
        "[1.5e]",
        // The number ends where the grammar does; the next byte is the
        // container's error, as from a slice.
        "[429+1]",
        "[4+]",
        "[0+1]",
        "[1-]",
        "[0-1]",
        "[1.2.3]",
        "[1e5e3]",
        "[1e5.3]",
        "[1e+5-2]",
        "{\"a\":7-}",
    ] {
        check::<Value>(&h, text);
    }
    for text in ["1e400", "[1,-1e400]", "[1.]", "[-]", "[1e]", "[1e99999]"] {
        check::<Vec<f64>>(&h, text);
    }
    for text in [
        "[1,99999999999999999999]",
        "[1,-1]",
        "[1.5]",
        "[1.]",
        "[-]",
        "[429+1]",
        "[1.5.]",
        "[2-2]",
    ] {
        check::<Vec<u64>>(&h, text);
    }
    for text in ["[1e39]", "[-3.5e38]", "[1.]"] {
        check::<Vec<f32>>(&h, text);
    }
}

/// A number that is the whole document ends with the input, where the
/// scans want a byte after it: from a slice, a short one is read from a
/// padded copy. It must read as it does with a space after it, and as from
/// a reader handing it over in pieces: the same value, or the same error.
#[test]
fn a_number_that_ends_the_input_reads_as_anywhere_else() {
    fn check<T: for<'de> Decode<'de> + std::fmt::Debug + PartialEq>(h: &JsonHandle, text: &str) {
        let show = |r: codec_core::Result<T>| r.map_err(|e| e.to_string());
        let want = show(from_slice::<T, _>(text.as_bytes(), h));
        let spaced = format!("{text} ");
        assert_eq!(
            show(from_slice::<T, _>(spaced.as_bytes(), h)),
            want,
            "{text:?} then a space"
        );
        for chunk in [1, 7, 8192] {
            let reader = Chunked {
                data: text.as_bytes(),
                chunk,
            };
            assert_eq!(
                show(from_reader::<T, _, _>(reader, h)),
                want,
                "{text:?} in chunks of {chunk}"
            );
        }
    }
    let mut texts: Vec<String> = [
        "0",
        "12",
        "-0",
        "-1000",
        "255",
        "256",
        "-129",
        "4.0",
        "-4.1",
        "1e5",
        "1E+2",
        "2.5e-3",
        "9007199254740993",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "99999999999999999999",
        "1e400",
        "3.4e38",
        "3.5e38",
        "1.",
        "-",
        "01",
        "-01",
        "1e",
        "1e+",
        "1.5.",
        "12a",
        "0x10",
    ]
    .iter()
    .map(|t| t.to_string())
    .collect();
    // Around the padded copy's size (48), and far beyond it.
    for digits in [45, 46, 47, 48, 49, 300] {
        texts.push(format!("0.{}", "3".repeat(digits - 2)));
        texts.push("7".repeat(digits));
    }
    let h = JsonHandle::default();
    for text in &texts {
        check::<u64>(&h, text);
        check::<i64>(&h, text);
        check::<u8>(&h, text);
        check::<i16>(&h, text);
        check::<f64>(&h, text);
        check::<f32>(&h, text);
        check::<u128>(&h, text);
        check::<Value>(&h, text);
    }
}

/// A decoded number is at most 4096 bytes long; one more is the error
/// "number too long" at the number's first byte, alike from a slice
/// (alone or inside an array) and from a reader, however its buffers split
/// the number (7 bytes at a time, 4096, or all at once), and into every
/// target. Within the limit, the reader copies at most that much.
#[test]
fn a_decoded_number_is_bounded() {
    fn all<T: DecodeOwned + std::fmt::Debug>(h: &JsonHandle, number: &str, ok: bool) {
        let alone = from_slice::<T, _>(number.as_bytes(), h);
        let array = format!("[{number}]");
        let in_array = from_slice::<Vec<T>, _>(array.as_bytes(), h).map(drop);
        let mut results = vec![(alone.map(drop), "slice".to_owned(), 0)];
        results.push((in_array, "slice, in an array".to_owned(), 1));
        for chunk in [7, 4096, usize::MAX] {
            let reader = Chunked {
                data: array.as_bytes(),
                chunk,
            };
            let r = from_reader::<Vec<T>, _, _>(reader, h).map(drop);
            results.push((r, format!("reader, chunks of {chunk}"), 1));
        }
        for (r, how, at) in results {
            match r {
                Ok(()) => assert!(ok, "{} bytes, {how}: accepted", number.len()),
                Err(e) => {
                    assert!(!ok, "{} bytes, {how}: {e}", number.len());
                    assert!(e.to_string().contains("number too long"), "{how}: {e}");
                    assert_eq!(e.offset(), Some(at), "{how}: {e}");
                }
            }
        }
    }
    let h = JsonHandle::default();
    for (bytes, ok) in [(4096, true), (4097, false), (9000, false), (100_000, false)] {
        let fraction = format!("0.{}", "1".repeat(bytes - 2));
        all::<f64>(&h, &fraction, ok);
        all::<Value>(&h, &fraction, ok);
        all::<Document>(&h, &fraction, ok);
        if !ok {
            // (Past 309 digits no target can hold an integer: out of range.)
            all::<Value>(&h, &"9".repeat(bytes), ok);
        }
        let exponent = format!("1e-{}", "0".repeat(bytes - 3));
        all::<f32>(&h, &exponent, ok);
    }
}

/// Skipping a value (an unknown field, `Raw`, `RawRef`) checks a number's
/// grammar only: a number too large for `f64` is valid JSON and passes
/// through untouched, and a skipped number has no length limit, from a slice
/// or from a reader in any chunking. Bad grammar is still an error at the
/// number's first byte, the same one decoding reports.
#[test]
fn skipping_checks_number_grammar_only() {
    use codec_core::{Raw, RawRef};
    let h = JsonHandle::default();
    let long = format!("0.{}e-99999", "1".repeat(100_000));
    for number in ["1e400", "-1e+9999", "123456789012345678901234567890", &long] {
        let doc = format!("[{number},true]");
        let raw: Vec<RawRef<'_>> = from_slice(doc.as_bytes(), &h).unwrap();
        assert_eq!(raw[0].as_bytes(), number.as_bytes());
        for chunk in [1, 7, 4096] {
            let reader = Chunked {
                data: doc.as_bytes(),
                chunk,
            };
            let raw: Vec<Raw> = from_reader(reader, &h).unwrap();
            assert_eq!(raw[0].as_bytes(), number.as_bytes(), "chunks of {chunk}");
        }
        let mut d = h.decoder(doc.as_bytes());
        d.skip().unwrap();
        d.finish().unwrap();
    }
    for (text, at) in [
        ("[1.]", 1),
        ("[-]", 1),
        ("[1e]", 1),
        ("[1e+]", 1),
        ("[1.e5]", 1),
        ("[-.5]", 1),
        ("[.5]", 1),
        ("[01]", 2),
        ("[-01]", 3),
        ("[--1]", 1),
        ("[2,-]", 3),
        ("[1E+-2]", 1),
    ] {
        let want = from_slice::<Value, _>(text.as_bytes(), &h).unwrap_err();
        let mut d = h.decoder(text.as_bytes());
        let skipped = d.skip().unwrap_err();
        assert_eq!(skipped.offset(), Some(at), "{text}: {skipped}");
        assert_eq!(
            skipped.offset(),
            want.offset(),
            "{text}: {skipped} vs {want}"
        );
        for chunk in [1, 2, 8192] {
            let reader = Chunked {
                data: text.as_bytes(),
                chunk,
            };
            let err = from_reader::<Vec<Raw>, _, _>(reader, &h).unwrap_err();
            assert_eq!(err.offset(), Some(at), "{text} in chunks of {chunk}: {err}");
        }
    }
}

/// Strings with escapes decode the same from a slice (where escapes that
/// lie wholly in the buffer are decoded in place) and from readers that
/// cut them anywhere (where each escape is read piece by piece): the same
/// text, or the same error at the same byte. Random runs of valid and
/// broken escapes, raw controls and non-ASCII text.
#[test]
fn escapes_agree_between_slice_and_readers() {
    let h = JsonHandle::default();
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let pieces: [&[u8]; 24] = [
        b"a",
        b"plain text run",
        b"\\\"",
        b"\\\\",
        b"\\/",
        b"\\b\\f\\n\\r\\t",
        b"\\u00e9",
        b"\\u20AC",
        b"\\u0000",
        b"\\uFFFF",
        b"\\ud83d\\ude80",
        b"\\uD83D",
        b"\\uDE00",
        b"\\ud83d\\u0041",
        b"\\ud83dx",
        b"\\u12",
        b"\\u00G0",
        b"\\x",
        b"\\",
        b"\x01",
        "é日本😀".as_bytes(),
        b"\xff",
        b"\"",
        b"\\u00e9\\u00e9\\n\\u003c\\u003e\\u0026 more",
    ];
    let mut ok = 0;
    for _ in 0..20_000 {
        let mut text = Vec::new();
        for _ in 0..1 + rng.below(6) {
            text.extend_from_slice(pieces[rng.below(pieces.len())]);
        }
        let mut doc = b"[\"".to_vec();
        doc.extend_from_slice(&text);
        doc.extend_from_slice(b"\",\"");
        doc.extend_from_slice(&text);
        doc.extend_from_slice(b"\"]");
        let a = from_slice::<Vec<String>, _>(&doc, &h).map_err(|e| e.to_string());
        ok += a.is_ok() as usize;
        for chunk in [1, 2, 5, 8192] {
            let b = from_reader::<Vec<String>, _, _>(Chunked { data: &doc, chunk }, &h)
                .map_err(|e| e.to_string());
            assert_eq!(a, b, "chunk {chunk} on {:?}", String::from_utf8_lossy(&doc));
        }
        let v = from_slice::<Value, _>(&doc, &h).map_err(|e| e.to_string());
        let w = from_reader::<Value, _, _>(
            Chunked {
                data: &doc,
                chunk: 1,
            },
            &h,
        )
        .map_err(|e| e.to_string());
        assert_eq!(v, w, "Value on {:?}", String::from_utf8_lossy(&doc));
    }
    // Both outcomes are well represented.
    assert!(ok > 2_000 && ok < 18_000, "{ok} valid");
}

/// What serde_json reads from `input` as one JSON text (`None` inside: it
/// refuses it), or `None` where it stops at its own nesting limit (128),
/// below ours (256).
fn serde_json_reads(input: &[u8]) -> Option<Option<serde_json::Value>> {
    match serde_json::from_slice::<serde_json::Value>(input) {
        Ok(v) => Some(Some(v)),
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => None,
        Err(_) => Some(None),
    }
}

/// Whether our `Value` holds what serde_json read: the same strings, the
/// same integers, floats within one unit in the last place (serde_json,
/// without its `float_roundtrip` feature, may round the last bit the other
/// way; ours is correctly rounded, `exact_numbers.rs`), maps compared by
/// key with the last of repeated keys winning, as in serde_json's map.
fn same_as_serde(ours: &Value, theirs: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    fn close(a: f64, b: f64) -> bool {
        a == b || (a.signum() == b.signum() && a.to_bits().abs_diff(b.to_bits()) <= 1)
    }
    match (ours, theirs) {
        (Value::Nil, J::Null) => true,
        (Value::Bool(a), J::Bool(b)) => a == b,
        (Value::Uint(a), J::Number(n)) if n.is_u64() => n.as_u64() == Some(*a),
        (Value::Int(a), J::Number(n)) if n.is_i64() => n.as_i64() == Some(*a),
        (Value::Uint(a), J::Number(n)) => n.as_f64().is_some_and(|b| close(*a as f64, b)),
        (Value::Int(a), J::Number(n)) => n.as_f64().is_some_and(|b| close(*a as f64, b)),
        (Value::BigInt(a), J::Number(n)) => n.as_f64().is_some_and(|b| close(*a as f64, b)),
        (Value::F64(a), J::Number(n)) => n.as_f64().is_some_and(|b| close(*a, b)),
        (Value::Str(a), J::String(b)) => a.as_str() == b,
        (Value::Array(a), J::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_as_serde(x, y))
        }
        (Value::Map(a), J::Object(b)) => {
            let mut last = BTreeMap::new();
            for (k, v) in a {
                let Value::Str(k) = k else { return false };
                last.insert(k.as_str(), v);
            }
            last.len() == b.len()
                && last
                    .iter()
                    .all(|(k, v)| b.get(*k).is_some_and(|w| same_as_serde(v, w)))
        }
        _ => false,
    }
}

/// Both are strict RFC 8259 parsers, so they accept the same texts: every
/// mutated and random input that serde_json accepts decodes into `Value`,
/// to the same value ([`same_as_serde`]), and every one it refuses is an
/// error here too (also when skipped).
/// `CODEC_JSON_DIFF_ITERS` sets the number of inputs (default 100,000).
#[test]
fn acceptance_agrees_with_serde_json() {
    let h = JsonHandle::default();
    let iters = std::env::var("CODEC_JSON_DIFF_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let seeds = seeds();
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let (mut accepted, mut refused) = (0, 0);
    let inputs = seeds.iter().cloned().chain((0..iters).map(|i| {
        if i % 8 == 0 {
            random(&mut rng)
        } else {
            let s = &seeds[rng.below(seeds.len())];
            mutate(&mut rng, s)
        }
    }));
    for input in inputs {
        let Some(read) = serde_json_reads(&input) else {
            continue;
        };
        let theirs = read.is_some();
        let ours = from_slice::<Value, _>(&input, &h);
        if let (Ok(v), Some(j)) = (&ours, &read) {
            assert!(
                same_as_serde(v, j),
                "{v:?} where serde_json reads {j:?} from {:?}",
                String::from_utf8_lossy(&input)
            );
        }
        let mut d = h.decoder(&input);
        let skipped = d.skip().and_then(|_| d.finish());
        assert_eq!(
            ours.is_ok(),
            theirs,
            "Value: {:?} where serde_json {} on {:?}",
            ours.as_ref().err(),
            if theirs { "accepts" } else { "refuses" },
            String::from_utf8_lossy(&input)
        );
        // The skipper checks numbers by grammar only: `1e999` passes it.
        if theirs
            || ours.is_err_and(|e| !matches!(e.kind(), codec_core::ErrorKind::OutOfRange { .. }))
        {
            assert_eq!(
                skipped.is_ok(),
                theirs,
                "skip: {:?}",
                String::from_utf8_lossy(&input)
            );
        }
        if theirs {
            accepted += 1;
        } else {
            refused += 1;
        }
    }
    assert!(
        accepted > 1_000 && refused > 1_000,
        "{accepted} accepted, {refused} refused"
    );
}
