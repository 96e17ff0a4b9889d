//! Helpers shared by the integration tests: running the built binary, the
//! test data, a PRNG, and a Value comparison that knows which conversions
//! each format makes on purpose.

#![allow(dead_code)]

use codec::{AnyHandle, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_codec");

/// The formats.
pub const FORMATS: [&str; 5] = ["msgpack", "cbor", "binc", "simple", "json"];

/// What a run of the binary gave.
#[derive(Debug)]
pub struct Out {
    /// Exit code; -1 when killed by a signal (a crash).
    pub code: i32,
    /// Standard output.
    pub stdout: Vec<u8>,
    /// Standard error, as text.
    pub stderr: String,
}

impl Out {
    /// Standard output as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// Runs `codec args...` with `stdin` as its standard input.
pub fn codec(args: &[&str], stdin: &[u8]) -> Out {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the codec binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The command may stop reading early (an error): ignore a broken pipe.
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("the codec binary finishes");
    let _ = writer.join();
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Asserts that a run ended normally: exit 0, 1 or 2, never a panic (101) or a signal.
pub fn assert_no_crash(out: &Out, what: &str) {
    assert!(
        matches!(out.code, 0..=2),
        "{what}: exit {} (a panic or crash)\nstderr: {}",
        out.code,
        out.stderr
    );
}

/// A fresh directory under the system temp dir, removed by the caller when done.
pub fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "codec-cli-{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A data file or folder: the environment variable `var` if set, else `tests/data/rel`.
pub fn data(var: &str, rel: &str) -> PathBuf {
    match std::env::var_os(var) {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(rel),
    }
}

/// A handle with default settings.
pub fn handle(name: &str) -> AnyHandle {
    AnyHandle::from_name(name).expect("a known format")
}

/// Decodes one document with the library.
pub fn decode(name: &str, bytes: &[u8]) -> codec::Result<Value> {
    handle(name).from_slice::<Value>(bytes)
}

/// Decodes a stream of documents with the library.
pub fn decode_stream(name: &str, bytes: &[u8]) -> codec::Result<Vec<Value>> {
    use codec::Handle;
    fn go<H: Handle>(h: &H, bytes: &[u8]) -> codec::Result<Vec<Value>> {
        let mut d = h.decoder(bytes);
        let mut out = Vec::new();
        while !d.at_end()? {
            out.push(d.decode::<Value>()?);
            d.reset_for_next();
        }
        Ok(out)
    }
    match handle(name) {
        AnyHandle::Msgpack(h) => go(&h, bytes),
        AnyHandle::Cbor(h) => go(&h, bytes),
        AnyHandle::Binc(h) => go(&h, bytes),
        AnyHandle::Simple(h) => go(&h, bytes),
        AnyHandle::Json(h) => go(&h, bytes),
        other => panic!("unknown handle {other}"),
    }
}

/// Lowercase hex to bytes (dashes and spaces ignored).
pub fn unhex(s: &str) -> Vec<u8> {
    let digits: Vec<u8> = s
        .bytes()
        .filter(|b| b.is_ascii_hexdigit())
        .map(|b| (b as char).to_digit(16).expect("hex digit") as u8)
        .collect();
    digits.chunks(2).map(|p| (p[0] << 4) | p[1]).collect()
}

/// Valid single documents of every format, from the test data:
/// `(format, origin, bytes)`. Inputs the library itself rejects (for
/// example ugorji's JSON with unquoted integer keys) are left out.
pub fn documents() -> Vec<(&'static str, String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut push = |fmt: &'static str, origin: String, bytes: Vec<u8>| {
        if decode(fmt, &bytes).is_ok() {
            out.push((fmt, origin, bytes));
        }
    };

    let vectors = std::fs::read_to_string(data("CODEC_VECTORS", "ugorji-sample.jsonl"))
        .expect("vectors file");
    for line in vectors.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let Some(fmt) = FORMATS.iter().find(|f| v["handle"].as_str() == Some(**f)) else {
            continue;
        };
        let hex = v["hex"].as_str().unwrap_or_default();
        push(fmt, format!("vector {}", v["id"]), unhex(hex));
    }

    let suite = std::fs::read_to_string(data("CODEC_MSGPACK_SUITE", "msgpack-test-suite.json"))
        .expect("msgpack suite");
    let suite: serde_json::Value = serde_json::from_str(&suite).expect("JSON");
    for (group, cases) in suite.as_object().expect("groups") {
        for (i, case) in cases.as_array().expect("cases").iter().enumerate() {
            for enc in case["msgpack"].as_array().expect("encodings") {
                let hex = enc.as_str().unwrap_or_default();
                push(
                    "msgpack",
                    format!("msgpack suite {group}[{i}] {hex}"),
                    unhex(hex),
                );
            }
        }
    }

    let appendix = std::fs::read_to_string(data("CODEC_CBOR_APPENDIX_A", "cbor-appendix-a.json"))
        .expect("appendix A");
    let appendix: serde_json::Value = serde_json::from_str(&appendix).expect("JSON");
    for case in appendix.as_array().expect("vectors") {
        let hex = case["hex"].as_str().unwrap_or_default();
        push("cbor", format!("appendix A {hex}"), unhex(hex));
    }

    let mut files: Vec<PathBuf> = std::fs::read_dir(data("CODEC_JSON_SUITE", "json/test_parsing"))
        .expect("JSONTestSuite folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    for f in files {
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.starts_with("y_") {
            push(
                "json",
                format!("JSONTestSuite {name}"),
                std::fs::read(&f).expect("file"),
            );
        }
    }
    out
}

/// A small deterministic PRNG (splitmix64).
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Standard base64 with padding (what the json handle writes for bytes).
pub fn base64(b: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in b.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                s.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// The conversions a trip through these formats makes on purpose, under which
/// two values still count as the same.
#[derive(Clone, Copy, Debug)]
pub struct Trip {
    /// The trip goes through json: bytes become base64 text, times RFC 3339
    /// text, non-text map keys their text.
    pub json: bool,
    /// The trip goes through cbor: times are rounded to microseconds.
    pub cbor: bool,
    /// The trip goes through binc: -0.0 becomes 0.0 (ugorji's binc has one zero).
    pub binc: bool,
    /// The trip goes between cbor and this format without tags (msgpack,
    /// binc, simple): a tag becomes an extension whose data is its item
    /// encoded in this format (as an interface extension is written), and
    /// comes back to cbor as the tag over those bytes.
    pub tagless: Option<&'static str>,
}

impl Trip {
    /// The trip A -> B -> A.
    pub fn of(a: &str, b: &str) -> Trip {
        Trip {
            json: a == "json" || b == "json",
            cbor: a == "cbor" || b == "cbor",
            binc: a == "binc" || b == "binc",
            tagless: match (a, b) {
                ("cbor", "msgpack") | ("msgpack", "cbor") => Some("msgpack"),
                ("cbor", "binc") | ("binc", "cbor") => Some("binc"),
                ("cbor", "simple") | ("simple", "cbor") => Some("simple"),
                _ => None,
            },
        }
    }
}

fn int(v: &Value) -> Option<i128> {
    match v {
        Value::Int(_) | Value::Uint(_) | Value::BigInt(_) => v.as_i128(),
        _ => None,
    }
}

fn same_f64(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn float(v: &Value) -> Option<f64> {
    match v {
        Value::F32(f) => Some(f64::from(*f)),
        Value::F64(f) => Some(*f),
        _ => None,
    }
}

/// Whether a value holds an extension anywhere.
pub fn has_ext(v: &Value) -> bool {
    match v {
        Value::Ext(..) => true,
        Value::Array(a) => a.iter().any(has_ext),
        Value::Map(m) => m.iter().any(|(k, v)| has_ext(k) || has_ext(v)),
        Value::Tagged(_, v) => has_ext(v),
        _ => false,
    }
}

/// Whether `back` is `orig` after a trip: integers compare by value
/// (formats choose signed or unsigned differently), floats by value at the
/// narrower width (cbor may shrink, json reads every float as f64), and the
/// conversions listed in [`Trip`].
///
/// What json does on purpose (ugorji's JsonHandle does the same): NaN and
/// ±Inf become null; bytes and extension data become base64 text (the
/// extension type is dropped); a tag is dropped and its item kept; times
/// become RFC 3339 text; map keys become text; a number is read back as an
/// integer when it is written without a fraction and as a float when it does
/// not fit 64 bits.
pub fn same(orig: &Value, back: &Value, t: Trip) -> bool {
    if let (Some(a), Some(b)) = (int(orig), int(back)) {
        return a == b;
    }
    if t.json {
        match (orig, back) {
            (Value::F32(_) | Value::F64(_), Value::Nil) => {
                return float(orig).is_some_and(|f| !f.is_finite());
            }
            (Value::F32(f), _) if int(back).is_some() => {
                return int(back).map(|i| i as f32) == Some(*f);
            }
            (Value::F64(f), _) if int(back).is_some() => {
                return int(back).map(|i| i as f64) == Some(*f);
            }
            (_, Value::F64(f)) if int(orig).is_some() => {
                return int(orig).map(|i| i as f64) == Some(*f);
            }
            (Value::Ext(_, data), Value::Str(s)) => return *s == base64(data),
            (Value::Tagged(_, inner), _) if !matches!(back, Value::Tagged(..)) => {
                return same(inner, back, t);
            }
            _ => {}
        }
    }
    if t.binc
        && let (Some(a), Some(b)) = (float(orig), float(back))
        && a == 0.0
        && b == 0.0
    {
        return true;
    }
    match (orig, back) {
        (Value::Nil, Value::Nil) => true,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::F64(a), Value::F64(b)) => same_f64(*a, *b),
        (Value::F32(a), Value::F32(b)) => same_f64(f64::from(*a), f64::from(*b)),
        (Value::F32(a), Value::F64(b)) => same_f64(f64::from(*a), f64::from(*b as f32)),
        (Value::F64(a), Value::F32(b)) => same_f64(*a, f64::from(*b)),
        (Value::Str(a), Value::Str(b)) => a == b,
        (Value::Bytes(a), Value::Bytes(b)) => a == b,
        (Value::Bytes(a), Value::Str(s)) if t.json => *s == base64(a),
        (Value::Time(a), Value::Str(s)) if t.json => {
            codec::Time::parse_rfc3339(s).is_ok_and(|b| same_time(a, &b, t))
        }
        (Value::Time(a), Value::Time(b)) => same_time(a, b, t),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y, t))
        }
        (Value::Map(a), Value::Map(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((k1, v1), (k2, v2))| same_key(k1, k2, t) && same(v1, v2, t))
        }
        (Value::Ext(t1, a), Value::Ext(t2, b)) => t1 == t2 && a == b,
        (Value::Tagged(t1, a), Value::Tagged(t2, b)) => {
            t1 == t2
                && (same(a, b, t)
                    || t.tagless.is_some_and(|mid| match &**b {
                        Value::Bytes(data) => handle(mid).to_vec(a).is_ok_and(|x| x == *data),
                        _ => false,
                    }))
        }
        (Value::Simple(a), Value::Simple(b)) => a == b,
        _ => false,
    }
}

fn same_time(a: &codec::Time, b: &codec::Time, t: Trip) -> bool {
    let (x, y) = (a.unix_nanos(), b.unix_nanos());
    if t.cbor {
        (x - y).abs() < 1_000
    } else {
        x == y
    }
}

/// Map keys: through json every key becomes text.
fn same_key(a: &Value, b: &Value, t: Trip) -> bool {
    if same(a, b, t) {
        return true;
    }
    if !t.json {
        return false;
    }
    let text = match a {
        Value::Int(_) | Value::Uint(_) | Value::BigInt(_) => int(a).map(|i| i.to_string()),
        Value::Bool(x) => Some(x.to_string()),
        Value::Nil => Some("null".to_owned()),
        _ => None,
    };
    match (text, b) {
        (Some(x), Value::Str(s)) => x == *s,
        _ => false,
    }
}
