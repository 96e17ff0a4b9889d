//! The seed corpus: the golden vectors, the conformance files and encodings
//! of the derived sample values, per handle.
//!
//! Files are read from the repository (paths relative to the workspace
//! root); a missing file contributes nothing, so callers check the count.

use crate::types::{Borrowed, Record, Row, Shape, Tree};
use codec::{AnyHandle, BincHandle, Encode, Options};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Inputs larger than this are left out of the seed corpus (fuzzers work
/// best on small inputs; the large JSON documents have their own tests).
pub const MAX_SEED: usize = 64 * 1024;

/// One seed input.
#[derive(Debug, Clone)]
pub struct Seed {
    /// Where it came from, e.g. `vectors:msgpack:12` or `sample:Tree`.
    pub name: String,
    /// The bytes.
    pub data: Vec<u8>,
}

/// The workspace root, from this crate's manifest directory.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    let digits: Vec<u8> = s.bytes().filter(|b| b.is_ascii_hexdigit()).collect();
    if !digits.len().is_multiple_of(2) || s.bytes().any(|b| !b.is_ascii_hexdigit() && b != b'-') {
        return None;
    }
    digits
        .chunks(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).ok()?, 16).ok())
        .collect()
}

fn read_json(path: &Path) -> Option<serde_json::Value> {
    let text = std::fs::read_to_string(path).ok()?;
    serde_json::from_str(&text).ok()
}

/// Every seed for the handle named `handle` (`"msgpack"`, `"cbor"`, ...).
pub fn seeds(handle: &str, root: &Path) -> Vec<Seed> {
    let mut out = Vec::new();
    vectors(handle, root, &mut out);
    match handle {
        "msgpack" => msgpack_suite(root, &mut out),
        "cbor" => {
            cbor_files(root, &mut out);
            // Self-described CBOR (tag 55799) before a document and before
            // items, in a run of one and of seventeen (past what a peek
            // looks over without consuming, `targets::captures`).
            let tag = "d9d9f7";
            for (name, hex) in [
                ("document", format!("{tag}820102")),
                (
                    "items",
                    format!("83{tag}01{tag}{tag}f6{tag}c249010000000000000000"),
                ),
                ("long-run", format!("{}a1616101", tag.repeat(17))),
            ] {
                out.push(Seed {
                    name: format!("cbor:self-described:{name}"),
                    data: unhex(&hex).expect("hex"),
                });
            }
        }
        "json" => {
            json_files(root, &mut out);
            // Integers on either side of the 64- and 128-bit bounds, for
            // `targets::json_exact`.
            out.push(Seed {
                name: "json:big-integers".to_string(),
                data: b"[18446744073709551615,18446744073709551616,-9223372036854775808,\
                        -9223372036854775809,170141183460469231731687303715884105727,\
                        -170141183460469231731687303715884105728,\
                        170141183460469231731687303715884105728,\
                        {\"k\":123456789012345678901234567890}]"
                    .to_vec(),
            });
        }
        _ => {}
    }
    samples(handle, &mut out);
    out.retain(|s| s.data.len() <= MAX_SEED);
    out
}

/// The ugorji golden vectors of one handle.
fn vectors(handle: &str, root: &Path, out: &mut Vec<Seed>) {
    let path = root.join("codec/tests/data/ugorji-interop.jsonl");
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    for (i, line) in text.lines().enumerate() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if v["handle"].as_str() != Some(handle) {
            continue;
        }
        if let Some(data) = v["hex"].as_str().and_then(unhex) {
            out.push(Seed {
                name: format!("vectors:{handle}:{i}"),
                data,
            });
        }
    }
}

/// Every encoding listed in the msgpack-test-suite file.
fn msgpack_suite(root: &Path, out: &mut Vec<Seed>) {
    let Some(serde_json::Value::Object(groups)) =
        read_json(&root.join("codec-msgpack/tests/data/msgpack-test-suite.json"))
    else {
        return;
    };
    for (group, cases) in groups {
        for (i, case) in cases.as_array().into_iter().flatten().enumerate() {
            for (j, enc) in case["msgpack"].as_array().into_iter().flatten().enumerate() {
                if let Some(data) = enc.as_str().and_then(unhex) {
                    out.push(Seed {
                        name: format!("msgpack-suite:{group}:{i}:{j}"),
                        data,
                    });
                }
            }
        }
    }
}

/// RFC 8949 appendix A and the invalid-CBOR list.
fn cbor_files(root: &Path, out: &mut Vec<Seed>) {
    for file in ["appendix_a.json", "invalid.json"] {
        let Some(serde_json::Value::Array(cases)) =
            read_json(&root.join("codec-cbor/tests/data").join(file))
        else {
            continue;
        };
        for (i, case) in cases.iter().enumerate() {
            if let Some(data) = case["hex"].as_str().and_then(unhex) {
                out.push(Seed {
                    name: format!("cbor:{file}:{i}"),
                    data,
                });
            }
        }
    }
}

/// JSONTestSuite's parsing cases (accepted, rejected and either).
fn json_files(root: &Path, out: &mut Vec<Seed>) {
    let dir = root.join("codec-json/tests/data/test_parsing");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    files.sort();
    for path in files {
        if let Ok(data) = std::fs::read(&path) {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            out.push(Seed {
                name: format!("json-test-suite:{name}"),
                data,
            });
        }
    }
}

/// Sample values of every derived shape.
pub fn sample_record() -> Record {
    Record {
        id: 41,
        name: "Zoë ✓".into(),
        score: -7,
        ok: true,
        tags: vec!["a".into(), "bb".into(), "\"q\"\n".into()],
        note: Some("n".into()),
        blob: vec![0, 1, 0xff],
        ratio: 0.5,
        point: [-65.613617, 43.420273],
        ring: vec![[-65.613617, 43.420273], [1e-7, -0.0], [1e21, 2.5]],
        deltas: vec![0, -1, 99, i64::MIN, 1 << 53, i64::MAX],
        sizes: [7, 65_536, u32::MAX],
    }
}

/// A toarray sample.
pub fn sample_row() -> Row {
    Row {
        a: 200,
        b: i64::MIN,
        c: "row".into(),
        d: Some(vec![1, 65535]),
        e: [-1, 0, 1],
        f: [0.25, -1e-7, 3.0e38],
    }
}

/// A nested sample, `depth` children deep.
pub fn sample_tree(depth: usize) -> Tree {
    let mut t = Tree {
        child: None,
        records: vec![sample_record()],
        index: BTreeMap::from([
            ("k".to_string(), vec![Some(-1), None, Some(i64::MAX)]),
            ("ключ".to_string(), vec![]),
        ]),
        shapes: BTreeMap::from([
            (1, Shape::Empty),
            (2, Shape::Circle(3)),
            (3, Shape::Segment(-4, 5)),
            (4, Shape::Rect { w: 6, h: 7 }),
            (5, Shape::Labeled(sample_row())),
        ]),
        row: Some(sample_row()),
        pair: (9, "nine".into()),
    };
    for _ in 0..depth {
        t = Tree {
            child: Some(Box::new(t)),
            records: vec![],
            index: BTreeMap::new(),
            shapes: BTreeMap::new(),
            row: None,
            pair: (0, String::new()),
        };
    }
    t
}

fn variants(handle: &str) -> Vec<AnyHandle> {
    let mut out = Vec::new();
    let Ok(base) = AnyHandle::from_name(handle) else {
        return out;
    };
    out.push(base.clone());
    let mut canonical = base.clone();
    *canonical.options_mut() = Options::default().canonical(true);
    out.push(canonical);
    let mut to_array = base.clone();
    *to_array.options_mut() = Options::default().struct_to_array(true);
    out.push(to_array);
    if handle == "binc" {
        out.push(AnyHandle::Binc(BincHandle::default().as_symbols(true)));
    }
    out
}

fn push_sample<T: Encode + ?Sized>(
    h: &AnyHandle,
    v: &T,
    name: &str,
    k: usize,
    out: &mut Vec<Seed>,
) {
    if let Ok(data) = h.to_vec(v) {
        out.push(Seed {
            name: format!("sample:{}:{name}:{k}", h.name()),
            data,
        });
    }
}

fn samples(handle: &str, out: &mut Vec<Seed>) {
    let shapes = vec![
        Shape::Empty,
        Shape::Circle(1),
        Shape::Segment(1, -1),
        Shape::Rect { w: 1, h: 2 },
        Shape::Labeled(sample_row()),
    ];
    let borrowed = Borrowed {
        name: "name",
        parts: vec!["x", "yz"],
        raw: b"\x00\x01",
        cow: Cow::Borrowed("tab\there"),
        maybe: Some("m"),
    };
    for (k, h) in variants(handle).iter().enumerate() {
        push_sample(h, &sample_record(), "Record", k, out);
        push_sample(h, &sample_row(), "Row", k, out);
        push_sample(h, &shapes, "Vec<Shape>", k, out);
        for s in &shapes {
            push_sample(h, s, "Shape", k, out);
        }
        push_sample(h, &sample_tree(0), "Tree", k, out);
        push_sample(h, &sample_tree(3), "Tree3", k, out);
        push_sample(h, &borrowed, "Borrowed", k, out);
    }
}

/// Writes the seeds of every handle to `dir/<handle>/<n>` (cargo-fuzz's
/// corpus layout: one directory per target); returns how many were written.
pub fn write_corpus(dir: &Path, root: &Path) -> std::io::Result<usize> {
    let mut n = 0;
    for handle in AnyHandle::NAMES {
        let mut targets = vec![handle.to_string()];
        if handle == "json" {
            targets.push("json_whitespace".to_string());
        }
        let seeds = seeds(handle, root);
        for target in targets {
            let d = dir.join(&target);
            std::fs::create_dir_all(&d)?;
            for (i, s) in seeds.iter().enumerate() {
                let data = if target == "json_whitespace" {
                    // The first byte seeds the whitespace placement.
                    let mut v = vec![i as u8];
                    v.extend_from_slice(&s.data);
                    v
                } else {
                    s.data.clone()
                };
                std::fs::write(d.join(format!("seed-{i:05}")), data)?;
                n += 1;
            }
        }
    }
    Ok(n)
}
