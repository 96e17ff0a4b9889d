//! Integration tests: they run the built `codec` binary.

mod common;

use codec::Value;
use common::*;

#[test]
fn help_for_every_command() {
    for args in [
        &["--help"][..],
        &["-h"],
        &["help"],
        &["transcode", "--help"],
        &["validate", "--help"],
        &["inspect", "-h"],
        &["help", "transcode"],
        &["help", "validate"],
        &["help", "inspect"],
    ] {
        let out = codec(args, b"");
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        let text = out.text();
        assert!(text.contains("Usage: codec"), "{args:?}: {text}");
        assert!(text.contains("Examples:"), "{args:?}: {text}");
    }
    // Options are listed in the help of the commands that take them.
    let t = codec(&["transcode", "--help"], b"").text();
    for opt in [
        "--from",
        "--to",
        "--stream",
        "--canonical",
        "--pretty",
        "--max-depth",
        "-o",
    ] {
        assert!(t.contains(opt), "transcode --help lacks {opt}");
    }
    let out = codec(&["--version"], b"");
    assert_eq!(out.code, 0);
    assert!(out.text().starts_with("codec "));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &[][..],
        &["frobnicate"],
        &["help", "frobnicate"],
        &["transcode", "--from", "json"],
        &["transcode", "--from", "yaml", "--to", "json"],
        &["transcode", "--to", "auto"],
        &["transcode", "--to", "json", "--bogus"],
        &["transcode", "--to", "json", "--from"],
        &["transcode", "--to", "json", "a", "b"],
        &[
            "transcode",
            "--from",
            "json",
            "--to",
            "msgpack",
            "--cbor-indefinite",
        ],
        &[
            "transcode",
            "--from",
            "json",
            "--to",
            "cbor",
            "--binc-symbols",
        ],
        &[
            "transcode",
            "--from",
            "json",
            "--to",
            "json",
            "--max-depth",
            "lots",
        ],
        &[
            "transcode",
            "--from",
            "json",
            "--to",
            "json",
            "--max-depth",
            "99999999",
        ],
        &["validate", "--format", "json", "--stream=yes"],
        &["inspect", "--format"],
        // A decoding flag of the output format, an encoding flag of the input's.
        &[
            "transcode",
            "--from",
            "cbor",
            "--to",
            "json",
            "--json-prefer-float",
        ],
        &[
            "transcode",
            "--from",
            "json",
            "--to",
            "msgpack",
            "--msgpack-raw-to-string",
        ],
        &["transcode", "--from", "json", "--to", "cbor", "--pretty"],
        &[
            "transcode",
            "--from",
            "cbor",
            "--to",
            "json",
            "--cbor-indefinite",
        ],
        &["validate", "--format", "cbor", "--json-parse-quoted-keys"],
    ] {
        let out = codec(args, b"[1]");
        assert_eq!(
            out.code, 2,
            "{args:?} should be a usage error: {}",
            out.stderr
        );
        assert!(out.stderr.contains("--help"), "{args:?}: {}", out.stderr);
        assert!(out.stdout.is_empty() || args.is_empty(), "{args:?}");
    }
}

/// A stream of `docs` in format `fmt`: concatenated, json separated by newlines.
fn stream_of(fmt: &str, docs: &[&[u8]]) -> Vec<u8> {
    let mut s = Vec::new();
    for d in docs {
        s.extend_from_slice(d);
        if fmt == "json" {
            s.push(b'\n');
        }
    }
    s
}

/// What the library gives for `v` in format `to` (json output ends each document with a newline).
fn lib_encode(v: &Value, to: &str) -> codec::Result<Vec<u8>> {
    let mut b = handle(to).to_vec(v)?;
    if to == "json" {
        b.push(b'\n');
    }
    Ok(b)
}

/// Every shared vector and conformance value, in every pair of formats and
/// back, through `--stream` (one run per direction per pair): the first leg
/// writes exactly what the library writes, and the value that comes back is
/// the same (see `common::same` for the conversions each format makes on
/// purpose). Values a target format cannot hold are checked one by one to
/// exit 1 without output.
#[test]
fn transcode_every_pair_and_back() {
    let docs = documents();
    let mut total = 0;
    let mut refused = 0;
    let mut ext_via_cbor = 0;
    let mut failures: Vec<String> = Vec::new();
    for a in FORMATS {
        let mine: Vec<(&String, &Vec<u8>, Value)> = docs
            .iter()
            .filter(|(f, _, _)| *f == a)
            .map(|(_, o, b)| (o, b, decode(a, b).expect("valid by construction")))
            .collect();
        assert!(!mine.is_empty(), "no {a} documents in the test data");
        for b in FORMATS {
            if a == b {
                continue;
            }
            // The documents whose whole trip the library can do.
            let mut keep: Vec<(&String, &[u8], &Value, Vec<u8>)> = Vec::new();
            let mut cannot: Vec<&[u8]> = Vec::new();
            for (origin, bytes, v) in &mine {
                let trip = lib_encode(v, b).and_then(|mid| {
                    let back = decode_stream(b, &mid)?;
                    let again = back
                        .iter()
                        .map(|x| lib_encode(x, a))
                        .collect::<codec::Result<Vec<_>>>()?;
                    Ok((mid, again))
                });
                match trip {
                    Ok((mid, _)) => keep.push((origin, bytes.as_slice(), v, mid)),
                    Err(_) => cannot.push(bytes.as_slice()),
                }
            }
            let input = stream_of(a, &keep.iter().map(|k| k.1).collect::<Vec<_>>());
            let first = codec(&["transcode", "--from", a, "--to", b, "--stream"], &input);
            assert_eq!(first.code, 0, "{a} -> {b}: {}", first.stderr);
            let expected: Vec<u8> = keep.iter().flat_map(|k| k.3.clone()).collect();
            if first.stdout != expected {
                failures.push(format!("{a} -> {b}: output differs from the library's"));
            }
            let second = codec(
                &["transcode", "--from", b, "--to", a, "--stream"],
                &first.stdout,
            );
            assert_eq!(second.code, 0, "{a} -> {b} -> {a}: {}", second.stderr);
            let back = decode_stream(a, &second.stdout).expect("the output decodes");
            assert_eq!(back.len(), keep.len(), "{a} -> {b} -> {a}: document count");
            for ((origin, _, v, _), w) in keep.iter().zip(&back) {
                // cbor writes an extension as a tag over its data, and the
                // standard tags (1 time, 2/3 bignums, ...) read back as what
                // they mean: not comparable.
                if Trip::of(a, b).cbor && !Trip::of(a, b).json && has_ext(v) {
                    ext_via_cbor += 1;
                    continue;
                }
                total += 1;
                if !same(v, w, Trip::of(a, b)) {
                    failures.push(format!("{a} -> {b} -> {a}: {origin}: {v} came back as {w}"));
                }
            }
            // A value whose trip the library cannot make: the first leg does
            // what the library does, or exits 1 without output.
            for bytes in cannot.iter().take(3) {
                refused += 1;
                let v = decode(a, bytes).expect("valid");
                let out = codec(&["transcode", "--from", a, "--to", b], bytes);
                match lib_encode(&v, b) {
                    Ok(expected) => {
                        assert_eq!(out.code, 0, "{a} -> {b}: {}", out.stderr);
                        assert_eq!(out.stdout, expected);
                    }
                    Err(_) => {
                        assert_eq!(out.code, 1, "{a} -> {b} of {bytes:02x?}: {}", out.stderr);
                        assert!(out.stdout.is_empty());
                        assert!(out.stderr.contains(&format!("as {b}")), "{}", out.stderr);
                    }
                }
            }
        }
    }
    println!(
        "round trips: {total} values compared, {ext_via_cbor} extensions through cbor not compared, \
         {refused} one-way-only values checked, {} failures",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Without `--stream`: each document alone, for a sample of documents.
#[test]
fn transcode_single_documents() {
    let docs = documents();
    let mut rng = Rng(7);
    for a in FORMATS {
        let mine: Vec<&Vec<u8>> = docs.iter().filter(|d| d.0 == a).map(|d| &d.2).collect();
        for _ in 0..8 {
            let bytes = mine[rng.below(mine.len())];
            let v = decode(a, bytes).expect("valid");
            for b in FORMATS {
                let out = codec(&["transcode", "--from", a, "--to", b], bytes);
                match lib_encode(&v, b) {
                    Ok(expected) => {
                        assert_eq!(out.code, 0, "{a} -> {b}: {}", out.stderr);
                        assert_eq!(out.stdout, expected, "{a} -> {b} of {bytes:02x?}");
                    }
                    Err(_) => {
                        assert_eq!(out.code, 1, "{a} -> {b}: {}", out.stderr);
                        assert!(out.stdout.is_empty());
                    }
                }
            }
        }
    }
}

#[test]
fn validate_agrees_with_json_test_suite() {
    let dir = data("CODEC_JSON_SUITE", "json/test_parsing");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("suite folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let (mut passed, mut failed) = (0, Vec::new());
    for f in &files {
        let name = f
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let path = f.to_string_lossy().into_owned();
        let out = codec(&["validate", "--format", "json", "-q", &path], b"");
        assert_no_crash(&out, &name);
        let ok = match &name[..2] {
            "y_" => out.code == 0,
            "n_" => out.code == 1 && out.stderr.contains("byte "),
            _ => out.code == 0 || out.code == 1,
        };
        if ok {
            passed += 1;
        } else {
            failed.push(format!("{name}: exit {} {}", out.code, out.stderr.trim()));
        }
    }
    println!(
        "validate json_test_suite: {passed} passed, {} failed",
        failed.len()
    );
    assert!(files.len() > 100, "suite not found");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Every strict prefix of a valid document: `validate` agrees with the
/// library (for binary formats, that is always exit 1) and names a byte
/// offset; `transcode` writes nothing for it.
#[test]
fn truncated_inputs_exit_1() {
    let docs = documents();
    let mut checked = 0;
    for a in FORMATS {
        let mine: Vec<&Vec<u8>> = docs
            .iter()
            .filter(|d| d.0 == a && d.2.len() >= 2)
            .map(|d| &d.2)
            .step_by(7)
            .take(16)
            .collect();
        for bytes in mine {
            let step = (bytes.len() / 8).max(1);
            for cut in (0..bytes.len()).step_by(step) {
                let prefix = &bytes[..cut];
                let out = codec(&["validate", "--format", a, "-q"], prefix);
                assert_no_crash(&out, &format!("{a} prefix {prefix:02x?}"));
                let lib_ok = decode(a, prefix).is_ok();
                assert_eq!(
                    out.code,
                    if lib_ok { 0 } else { 1 },
                    "{a} {prefix:02x?}: {}",
                    out.stderr
                );
                if !lib_ok {
                    assert!(out.stderr.contains("byte "), "{}", out.stderr);
                    assert_eq!(
                        out.stderr.trim().lines().count(),
                        1,
                        "one line: {}",
                        out.stderr
                    );
                    let t = codec(&["transcode", "--from", a, "--to", "json"], prefix);
                    assert_eq!(t.code, 1);
                    assert!(t.stdout.is_empty());
                }
                checked += 1;
            }
        }
    }
    println!("truncated inputs checked: {checked}");
}

/// Random bytes and mutated documents, through every command and format:
/// exit 0 or 1, never a panic.
#[test]
fn random_and_mutated_inputs_never_crash() {
    let docs = documents();
    let mut rng = Rng(0x5eed);
    let mut runs = 0;
    for round in 0..40 {
        let input: Vec<u8> = if round % 2 == 0 {
            let n = rng.below(40);
            (0..n).map(|_| rng.next() as u8).collect()
        } else {
            let mut d = docs[rng.below(docs.len())].2.clone();
            for _ in 0..=rng.below(3) {
                if d.is_empty() {
                    break;
                }
                let i = rng.below(d.len());
                d[i] = rng.next() as u8;
            }
            d
        };
        for a in FORMATS {
            for args in [
                &["validate", "--format", a, "-q"][..],
                &["inspect", "--format", a],
                &["transcode", "--from", a, "--to", "json"],
                &["transcode", "--from", a, "--to", "cbor", "--stream"],
            ] {
                let out = codec(args, &input);
                assert_no_crash(&out, &format!("{args:?} {input:02x?}"));
                assert!(out.code <= 1, "{args:?} {input:02x?}: {}", out.stderr);
                runs += 1;
            }
        }
        let out = codec(&["transcode", "--to", "json"], &input);
        assert_no_crash(&out, &format!("auto {input:02x?}"));
        runs += 1;
    }
    println!("random and mutated runs: {runs}");
}

#[test]
fn deep_nesting_is_an_error() {
    let deep = [vec![0x91u8; 5000], vec![0xc0]].concat(); // msgpack [[[...nil...]]]
    let out = codec(&["validate", "--format", "msgpack"], &deep);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("max_depth"), "{}", out.stderr);
    // The path of 256 items is shown by its ends.
    assert!(out.stderr.contains("[0]…244 more…[0]"), "{}", out.stderr);
    assert!(out.stderr.len() < 200, "{}", out.stderr);
    let out = codec(
        &["validate", "--format", "msgpack", "--max-depth", "10000"],
        &deep,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    for cmd in [
        &["validate", "--format", "json"][..],
        &["inspect", "--format", "json"],
    ] {
        let out = codec(cmd, json.as_bytes());
        assert_eq!(out.code, 1, "{}", out.stderr);
    }
}

#[test]
fn validate_json_lines_and_streams() {
    let lines = b"{\"a\":1}\n[1,2]\n\"x\"\n\n  3 \n";
    let out = codec(&["validate", "--format", "json", "--stream"], lines);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.text().trim(),
        "<stdin>: valid json, 4 documents, 24 bytes"
    );
    let bad = b"{\"a\":1}\n[1,2\n3\n";
    let out = codec(&["validate", "--format", "json", "--stream"], bad);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("at line 3, column 1 (byte 13, document 2): expected ',' or ']'"),
        "{}",
        out.stderr
    );
    // An empty stream is valid; an empty document is not.
    assert_eq!(
        codec(&["validate", "--format", "json", "--stream"], b"").code,
        0
    );
    assert_eq!(codec(&["validate", "--format", "json"], b"").code, 1);
    assert_eq!(codec(&["validate", "--format", "json"], b"[1] [2]").code, 1);
}

/// A JSON error names its line and column before the byte offset; other
/// formats, the byte offset alone.
#[test]
fn json_errors_name_line_and_column() {
    let doc = b"{\n  \"a\": [1, 2,],\n  \"b\": 'x'\n}\n";
    let out = codec(&["validate", "--format", "json"], doc);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr.trim(),
        "codec: <stdin>: invalid json at line 2, column 14 (byte 15) in [\"a\"][2]: \
         expected a value, found ']'; JSON allows no trailing comma"
    );
    let out = codec(&["transcode", "--from", "json", "--to", "cbor"], doc);
    assert!(
        out.stderr.contains("at line 2, column 14 (byte 15)"),
        "{}",
        out.stderr
    );
    let out = codec(&["inspect", "--format", "json"], doc);
    assert!(
        out.stderr.contains("at line 2, column 14 (byte 15)"),
        "{}",
        out.stderr
    );
    let out = codec(&["validate", "--format", "cbor"], &[0x82, 0x01]);
    assert!(
        out.stderr.contains("invalid cbor at byte 2"),
        "{}",
        out.stderr
    );
}

#[test]
fn stream_error_keeps_the_documents_before_it() {
    let out = codec(
        &["transcode", "--from", "json", "--to", "msgpack", "--stream"],
        b"1\n[true]\n{\"a\":\n",
    );
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, [0x01, 0x91, 0xc3]);
    assert!(out.stderr.contains("document 3)"), "{}", out.stderr);
}

/// A JSON number glued to what follows it (`01`, `7x`) fails in the
/// document it belongs to, which is not written: every command agrees.
#[test]
fn a_glued_json_number_fails_in_its_own_document() {
    let input = b"1\n[true]\n01\n2\n";
    let want = "codec: <stdin>: invalid json at line 3, column 2 (byte 10, document 3): \
                a digit after a leading zero, which JSON numbers do not allow";
    let out = codec(
        &["transcode", "--from", "json", "--to", "msgpack", "--stream"],
        input,
    );
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, [0x01, 0x91, 0xc3]);
    assert_eq!(out.stderr.trim_end(), want);
    for args in [
        &["validate", "--format", "json", "--stream"][..],
        &["inspect", "--format", "json", "--stream"],
    ] {
        let out = codec(args, input);
        assert_eq!(out.code, 1, "{args:?}");
        assert_eq!(out.stderr.trim_end(), want, "{args:?}");
    }
    let out = codec(&["validate", "--stream"], b"7x\n");
    assert_eq!(
        out.stderr.trim_end(),
        "codec: <stdin>: invalid json at line 1, column 2 (byte 1, document 1): a number or \
         literal must be followed by whitespace or a delimiter (auto-detected: text, so json; \
         pass --format msgpack to read it as msgpack)"
    );
}

#[test]
fn output_file_written_only_on_success() {
    let dir = temp_dir("out");
    let path = dir.join("out.cbor");
    let p = path.to_string_lossy().into_owned();
    let out = codec(
        &["transcode", "--from", "json", "--to", "cbor", "-o", &p],
        b"[1, 2",
    );
    assert_eq!(out.code, 1);
    assert!(!path.exists(), "nothing is written for invalid input");
    let out = codec(
        &["transcode", "--from", "json", "--to", "cbor", "-o", &p],
        b"[1, -2, \"x\"]",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        [0x83, 0x01, 0x21, 0x61, b'x']
    );
    // Reading and writing the same file is refused.
    let out = codec(
        &[
            "transcode",
            "--from",
            "cbor",
            "--to",
            "cbor",
            "--stream",
            &p,
            "-o",
            &p,
        ],
        b"",
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        [0x83, 0x01, 0x21, 0x61, b'x']
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn auto_detection() {
    // Text that json reads.
    let out = codec(&["transcode", "--to", "cbor"], b"{\"a\": [1, 2]}\n");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, [0xa1, 0x61, b'a', 0x82, 0x01, 0x02]);
    // Binary: a cbor map that no other format reads whole.
    let out = codec(
        &["transcode", "--to", "json"],
        &[0xa1, 0x61, b'a', 0x82, 0x01, 0x02],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.text(), "{\"a\":[1,2]}\n");
    // The self-describe tag.
    let out = codec(&["validate"], &[0xd9, 0xd9, 0xf7, 0x01]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.text().contains("valid cbor"), "{}", out.text());
    // A JSON Lines stream is also a msgpack stream (every byte < 0x80 is a
    // fixint): text decides for json.
    let out = codec(&["validate", "--stream"], b"{\"a\":1}\n{\"a\":2}\n");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.text().contains("valid json, 2 documents"),
        "{}",
        out.text()
    );
    // Broken JSON Lines, or any other text json does not read, is not
    // taken for the msgpack integers its bytes also are: json's error,
    // where the text breaks, and a hint for the format that reads it.
    let hint = |flag: &str, other: Option<&str>| match other {
        Some(f) => format!(" (auto-detected: text, so json; pass --{flag} {f} to read it as {f})"),
        None => format!(" (auto-detected: text, so json; pass --{flag} F for another format)"),
    };
    for (args, input, want) in [
        (
            &["validate", "--stream"][..],
            &b"{\"id\":1}\n{\"id\":2,}\n"[..],
            "invalid json at line 2, column 9 (byte 17, document 2): expected a string key, \
             found '}'; JSON allows no trailing comma"
                .to_string()
                + &hint("format", Some("msgpack")),
        ),
        (
            &["validate", "--stream"][..],
            &b"hello world\n"[..],
            "invalid json at line 1, column 1 (byte 0, document 1): expected a value, found 'h'"
                .to_string()
                + &hint("format", Some("msgpack")),
        ),
        (
            &["transcode", "--stream", "--to", "json"][..],
            &b"{\"id\":1}\n{\"id\":2,}\n"[..],
            "invalid json at line 2, column 9 (byte 17, document 2): expected a string key, \
             found '}'; JSON allows no trailing comma"
                .to_string()
                + &hint("from", Some("msgpack")),
        ),
        (
            &["validate"][..],
            &b"a"[..],
            "invalid json at line 1, column 1 (byte 0): expected a value, found 'a'".to_string()
                + &hint("format", Some("msgpack")),
        ),
        (
            &["validate"][..],
            &b"{\"a\": [1, 2,]}\n"[..],
            "invalid json at line 1, column 13 (byte 12) in [\"a\"][2]: expected a value, \
             found ']'; JSON allows no trailing comma"
                .to_string()
                + &hint("format", None),
        ),
    ] {
        let out = codec(args, input);
        assert_eq!(out.code, 1, "{args:?}: {}", out.stderr);
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(
            out.stderr.trim_end(),
            format!("codec: <stdin>: {want}"),
            "{args:?}"
        );
    }
    // Asked for, msgpack reads it.
    let out = codec(&["validate", "--format", "msgpack"], b"a");
    assert_eq!(out.code, 0, "{}", out.stderr);
    // One zero byte is 0 in several binary formats: ambiguous, a usage error naming them.
    let out = codec(&["validate"], &[0x00]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("msgpack") && out.stderr.contains("cbor"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("--format"), "{}", out.stderr);
    // Nothing reads it.
    let out = codec(&["validate"], b"\xc1\xc1\xc1 not anything {");
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("cannot detect"), "{}", out.stderr);
}

#[test]
fn pretty_and_canonical() {
    let out = codec(
        &["transcode", "--from", "msgpack", "--to", "json", "--pretty"],
        &[0x82, 0xa1, b'b', 0x01, 0xa1, b'a', 0x92, 0x02, 0x03],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = out.text();
    assert!(text.contains("\n  \"b\": 1"), "{text}");
    let back = decode("json", text.as_bytes()).unwrap();
    assert_eq!(
        back.get("a"),
        Some(&Value::Array(vec![Value::Uint(2), Value::Uint(3)]))
    );
    let out = codec(
        &[
            "transcode",
            "--from",
            "msgpack",
            "--to",
            "msgpack",
            "--canonical",
        ],
        &[0x82, 0xa1, b'b', 0x01, 0xa1, b'a', 0x02],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, [0x82, 0xa1, b'a', 0x02, 0xa1, b'b', 0x01]);
}

#[test]
fn inspect_msgpack() {
    // {"a": 1, "list": [true, nil, -5, "hi", h'0102']}
    let doc = [
        0x82, 0xa1, b'a', 0x01, 0xa4, b'l', b'i', b's', b't', 0x95, 0xc3, 0xc0, 0xfb, 0xa2, b'h',
        b'i', 0xc4, 0x02, 0x01, 0x02,
    ];
    let out = codec(&["inspect", "--format", "msgpack"], &doc);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = out.text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 10, "{text}");
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["0", "82", "map(2)"]
    );
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        ["1", "a1", "key", "text(1)", "\"a\""]
    );
    assert_eq!(
        lines[3].split_whitespace().collect::<Vec<_>>(),
        ["4", "a4", "key", "text(4)", "\"list\""]
    );
    assert_eq!(
        lines[8].split_whitespace().collect::<Vec<_>>(),
        ["13", "a2", "text(2)", "\"hi\""]
    );
    assert_eq!(
        lines[9].split_whitespace().collect::<Vec<_>>(),
        ["16", "c4", "02", "bytes(2)", "h'0102'"]
    );
    // Indentation follows depth.
    assert!(lines[8].contains("      text(2)"), "{text}");

    let out = codec(&["inspect", "--format", "msgpack", "--json"], &doc);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let items: Vec<Value> = decode_stream("json", &out.stdout).expect("JSON Lines");
    assert_eq!(items.len(), 10);
    assert_eq!(items[9].get("offset").and_then(Value::as_u64), Some(16));
    assert_eq!(items[9].get("header").and_then(Value::as_str), Some("c402"));
    assert_eq!(items[9].get("type").and_then(Value::as_str), Some("bytes"));
    assert_eq!(items[9].get("value").and_then(Value::as_str), Some("0102"));
    assert_eq!(items[9].get("depth").and_then(Value::as_u64), Some(2));
    assert_eq!(items[1].get("role").and_then(Value::as_str), Some("key"));
    assert_eq!(items[7].get("value").and_then(Value::as_i64), Some(-5));
}

/// A JSON integer beyond 64 bits is shown as written, type bigint, however
/// long (a `Value` would round it to a float); so is a key read as one.
#[test]
fn inspect_shows_big_json_integers_as_written() {
    let huge = "1234567890123456789012345678901234567890123";
    let doc = format!("[1, -9223372036854775809, {huge}, 2.5]");
    let out = codec(&["inspect", "--format", "json"], doc.as_bytes());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = out.text();
    let values: Vec<Vec<&str>> = text
        .lines()
        .map(|l| l.split_whitespace().rev().take(2).collect())
        .collect();
    assert_eq!(values[1], ["1", "uint"], "{text}");
    assert_eq!(values[2], ["-9223372036854775809", "bigint"], "{text}");
    assert_eq!(values[3], [huge, "bigint"], "{text}");
    assert_eq!(values[4], ["2.5", "float64"], "{text}");

    let out = codec(&["inspect", "--format", "json", "--json"], doc.as_bytes());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let items: Vec<Value> = decode_stream("json", &out.stdout).expect("JSON Lines");
    let value = |i: usize| items[i].get("value").and_then(Value::as_str);
    assert_eq!(value(2), Some("-9223372036854775809"));
    assert_eq!(value(3), Some(huge));
    assert_eq!(items[3].get("offset").and_then(Value::as_u64), Some(26));

    let keys = format!("{{\"{huge}\": 1}}");
    let out = codec(
        &["inspect", "--format", "json", "--json-parse-quoted-keys"],
        keys.as_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.text().contains(&format!("key bigint {huge}")),
        "{}",
        out.text()
    );
}

/// A binc symbol's definition shows its descriptor, id and length as the
/// header; a reference (whose text is elsewhere) shows all its bytes.
#[test]
fn inspect_binc_symbols() {
    // {"bb": 1, "a": {"bb": 2}} with "bb" as symbol 1.
    let doc = [
        0x76, 0xb4, 0x01, 0x02, b'b', b'b', 0x90, 0x45, b'a', 0x75, 0xb0, 0x01, 0x91,
    ];
    let out = codec(&["inspect", "--format", "binc", "--json"], &doc);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let items: Vec<Value> = decode_stream("json", &out.stdout).expect("JSON Lines");
    let at = |off: u64| {
        items
            .iter()
            .find(|i| i.get("offset").and_then(Value::as_u64) == Some(off))
            .unwrap_or_else(|| panic!("no item at {off}: {items:?}"))
    };
    assert_eq!(at(1).get("header").and_then(Value::as_str), Some("b40102"));
    assert_eq!(at(10).get("header").and_then(Value::as_str), Some("b001"));
    assert_eq!(at(10).get("value").and_then(Value::as_str), Some("bb"));
}

#[test]
fn inspect_cbor_indefinite_and_errors() {
    // [_ 1, [2]] then a truncated item.
    let out = codec(
        &["inspect", "--format", "cbor"],
        &[0x9f, 0x01, 0x81, 0x02, 0xff],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = out.text();
    assert!(text.contains("array(_)"), "{text}");
    assert!(text.lines().last().unwrap_or("").contains("ff"), "{text}");
    assert!(text.contains("end of array after 2"), "{text}");
    let out = codec(&["inspect", "--format", "cbor"], &[0x82, 0x01, 0x19, 0x01]);
    assert_eq!(out.code, 1);
    assert!(
        out.text().contains("array(2)"),
        "items before the error are shown"
    );
    assert!(out.stderr.contains("byte "), "{}", out.stderr);
}

/// A JSON Lines stream of `n` records, and the records as values.
fn records(n: u64) -> Vec<u8> {
    let mut s = Vec::with_capacity(n as usize * 110);
    for i in 0..n {
        s.extend_from_slice(
            format!(
                "{{\"id\":{i},\"name\":\"user-{i}\",\"score\":{}.5,\"ok\":{},\"tags\":[\"a\",\"b\",-{}],\"nested\":{{\"x\":[1,2,3],\"y\":null}}}}\n",
                i % 1000,
                i % 2 == 0,
                i % 7
            )
            .as_bytes(),
        );
    }
    s
}

#[test]
fn json_lines_20mb_to_msgpack() {
    let dir = temp_dir("20mb");
    let input = dir.join("in.jsonl");
    let output = dir.join("out.msgpack");
    let n = 200_000;
    let data = records(n);
    assert!(data.len() > 20_000_000, "{}", data.len());
    std::fs::write(&input, &data).unwrap();
    let out = codec(
        &[
            "transcode",
            "--from",
            "json",
            "--to",
            "msgpack",
            "--stream",
            &input.to_string_lossy(),
            "-o",
            &output.to_string_lossy(),
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let got = decode_stream("msgpack", &std::fs::read(&output).unwrap()).unwrap();
    let want = decode_stream("json", &data).unwrap();
    assert_eq!(got.len() as u64, n);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!(
            same(w, g, Trip::of("json", "msgpack")),
            "record {i}: {g} != {w}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// The memory bound on a 1 GB stream. Run with:
/// `cargo test --release -p codec-cli --test cli -- --ignored one_gigabyte --nocapture`
#[test]
#[ignore = "writes 1 GB to the temp dir and takes a while"]
fn one_gigabyte_json_lines_in_bounded_memory() {
    use std::io::Write;
    let dir = temp_dir("1gb");
    let input = dir.join("in.jsonl");
    let output = dir.join("out.msgpack");
    {
        let mut w = std::io::BufWriter::new(std::fs::File::create(&input).unwrap());
        let chunk = records(10_000);
        let mut written = 0usize;
        while written < 1_000_000_000 {
            w.write_all(&chunk).unwrap();
            written += chunk.len();
        }
        w.flush().unwrap();
    }
    let size = std::fs::metadata(&input).unwrap().len();
    let time = std::process::Command::new("/usr/bin/time")
        .arg("-v")
        .arg(BIN)
        .args(["transcode", "--from", "json", "--to", "msgpack", "--stream"])
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .expect("/usr/bin/time (apt-get install time)");
    let report = String::from_utf8_lossy(&time.stderr);
    assert!(time.status.success(), "{report}");
    let kb: u64 = report
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Maximum resident set size (kbytes): ")
        })
        .and_then(|v| v.trim().parse().ok())
        .expect("a max RSS line");
    let elapsed = report
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Elapsed (wall clock) time (h:mm:ss or m:ss): ")
        })
        .unwrap_or("?");
    println!("1 GB JSON Lines ({size} bytes) -> msgpack: max RSS {kb} KB, wall {elapsed}");
    assert!(kb < 64 * 1024, "peak RSS {kb} KB is not under 64 MB");
    let check = codec(
        &[
            "validate",
            "--format",
            "msgpack",
            "--stream",
            &output.to_string_lossy(),
        ],
        b"",
    );
    assert_eq!(check.code, 0, "{}", check.stderr);
    println!("{}", check.text().trim());
    let _ = std::fs::remove_dir_all(dir);
}

/// A json integer beyond 64 bits is transcoded exactly (a cbor bignum, the
/// same digits in json), or refused where it cannot be: never rounded,
/// unless `--json-big-int-as-float` asks for it.
#[test]
fn transcode_keeps_big_json_integers() {
    let input = b"[123456789012345678901234567890, -9223372036854775809, 1]\n";
    let out = codec(&["transcode", "--from", "json", "--to", "json"], input);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        b"[123456789012345678901234567890,-9223372036854775809,1]\n"
    );
    let out = codec(&["transcode", "--to", "cbor"], input);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        decode("cbor", &out.stdout).unwrap(),
        Value::Array(vec![
            Value::BigInt(123456789012345678901234567890),
            Value::BigInt(-9223372036854775809),
            Value::Uint(1),
        ])
    );
    for to in ["msgpack", "binc", "simple"] {
        let out = codec(&["transcode", "--from", "json", "--to", to], input);
        assert_eq!(out.code, 1, "{to}: {}", out.stderr);
        assert!(out.stdout.is_empty(), "{to}");
        assert!(out.stderr.contains("cannot hold"), "{to}: {}", out.stderr);
    }
    // Beyond 128 bits: an error that points at the number.
    let longer = b"[1, 1234567890123456789012345678901234567890123]";
    let out = codec(&["transcode", "--from", "json", "--to", "json"], longer);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr.contains("at line 1, column 5 (byte 4)"),
        "{}",
        out.stderr
    );
    // Asked for, the nearest float, as validate reads it.
    let flag = "--json-big-int-as-float";
    let out = codec(
        &["transcode", "--from", "json", "--to", "json", flag],
        longer,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, b"[1,1.2345678901234567e+42]\n");
    let out = codec(
        &["transcode", "--from", "json", "--to", "msgpack", flag],
        input,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        decode("msgpack", &out.stdout).unwrap(),
        Value::Array(vec![
            Value::F64(123456789012345678901234567890.0),
            Value::F64(-9223372036854775809.0),
            Value::Int(1),
        ])
    );
    let out = codec(&["validate", "--format", "json"], longer);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = codec(
        &["transcode", "--from", "cbor", "--to", "json", flag],
        b"\x01",
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("applies to json input"),
        "{}",
        out.stderr
    );
}
