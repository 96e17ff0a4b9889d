//! RFC 8949 Appendix A: every vector decodes to its expected value (through
//! `Value`, and through a typed target where one fits), and every vector
//! marked `roundtrip` re-encodes byte for byte under preferred serialization.
//!
//! Reads `CODEC_CBOR_APPENDIX_A` (default: tests/data/appendix_a.json).

mod common;

use codec_cbor::CborHandle;
use codec_core::{Time, Value, from_slice, to_vec};
use common::{Json, data_path, hex, parse_json, unhex};

/// An expected value, from the JSON `decoded` field or a diagnostic string.
#[derive(Debug, Clone)]
enum Expect {
    Int(i128),
    /// A magnitude beyond i128 (tag 2/3 content), as decimal text.
    Huge(String),
    Float(f64),
    Str(String),
    Bytes(Vec<u8>),
    Bool(bool),
    Null,
    Undefined,
    Simple(u8),
    Tag(u64, Box<Expect>),
    Array(Vec<Expect>),
    Map(Vec<(Expect, Expect)>),
}

fn number(text: &str) -> Expect {
    if text.contains(['.', 'e', 'E']) {
        Expect::Float(text.parse().expect("float"))
    } else {
        match text.parse::<i128>() {
            Ok(v) => Expect::Int(v),
            Err(_) => Expect::Huge(text.to_owned()),
        }
    }
}

fn from_json(j: &Json) -> Expect {
    match j {
        Json::Null => Expect::Null,
        Json::Bool(b) => Expect::Bool(*b),
        Json::Num(n) => number(n),
        Json::Str(s) => Expect::Str(s.clone()),
        Json::Arr(a) => Expect::Array(a.iter().map(from_json).collect()),
        Json::Obj(m) => Expect::Map(
            m.iter()
                .map(|(k, v)| (Expect::Str(k.clone()), from_json(v)))
                .collect(),
        ),
    }
}

/// The diagnostic-notation subset of the conformance README.
struct Diag<'a> {
    s: &'a [u8],
    i: usize,
}

impl Diag<'_> {
    fn ws(&mut self) {
        while self.s.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }
    fn starts(&self, p: &str) -> bool {
        self.s[self.i..].starts_with(p.as_bytes())
    }
    fn item(&mut self) -> Expect {
        self.ws();
        for (word, v) in [
            ("Infinity", Expect::Float(f64::INFINITY)),
            ("-Infinity", Expect::Float(f64::NEG_INFINITY)),
            ("NaN", Expect::Float(f64::NAN)),
            ("undefined", Expect::Undefined),
            ("true", Expect::Bool(true)),
            ("false", Expect::Bool(false)),
            ("null", Expect::Null),
        ] {
            if self.starts(word) {
                self.i += word.len();
                return v;
            }
        }
        if self.starts("simple(") {
            self.i += 7;
            let n = self.digits();
            self.i += 1;
            return Expect::Simple(n.parse().expect("simple"));
        }
        if self.starts("h'") {
            self.i += 2;
            let start = self.i;
            while self.s[self.i] != b'\'' {
                self.i += 1;
            }
            let h = std::str::from_utf8(&self.s[start..self.i]).expect("ascii");
            self.i += 1;
            return Expect::Bytes(unhex(h));
        }
        match self.s[self.i] {
            b'"' => {
                self.i += 1;
                let mut out = String::new();
                loop {
                    let c = self.s[self.i];
                    self.i += 1;
                    match c {
                        b'"' => return Expect::Str(out),
                        b'\\' => {
                            out.push(self.s[self.i] as char);
                            self.i += 1;
                        }
                        _ => {
                            // Copy a whole UTF-8 character.
                            let start = self.i - 1;
                            let mut end = self.i;
                            while end < self.s.len() && self.s[end] & 0xc0 == 0x80 {
                                end += 1;
                            }
                            out.push_str(std::str::from_utf8(&self.s[start..end]).expect("utf8"));
                            self.i = end;
                        }
                    }
                }
            }
            b'[' => {
                self.i += 1;
                Expect::Array(self.list(b']'))
            }
            b'{' => {
                self.i += 1;
                let mut m = Vec::new();
                loop {
                    self.ws();
                    if self.s[self.i] == b'}' {
                        self.i += 1;
                        return Expect::Map(m);
                    }
                    let k = self.item();
                    self.ws();
                    assert_eq!(self.s[self.i], b':');
                    self.i += 1;
                    let v = self.item();
                    m.push((k, v));
                    self.ws();
                    if self.s[self.i] == b',' {
                        self.i += 1;
                    }
                }
            }
            b'(' => {
                // (_ a, b): an indefinite-length string of chunks.
                self.i += 1;
                self.ws();
                assert_eq!(self.s[self.i], b'_');
                self.i += 1;
                let parts = self.list(b')');
                match parts.first() {
                    Some(Expect::Str(_)) => Expect::Str(
                        parts
                            .iter()
                            .map(|p| match p {
                                Expect::Str(s) => s.as_str(),
                                _ => panic!("mixed chunks"),
                            })
                            .collect(),
                    ),
                    _ => Expect::Bytes(
                        parts
                            .iter()
                            .flat_map(|p| match p {
                                Expect::Bytes(b) => b.clone(),
                                _ => panic!("mixed chunks"),
                            })
                            .collect(),
                    ),
                }
            }
            _ => {
                let start = self.i;
                while self
                    .s
                    .get(self.i)
                    .is_some_and(|c| matches!(c, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                {
                    self.i += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.i]).expect("ascii");
                if self.s.get(self.i) == Some(&b'(') {
                    self.i += 1;
                    let inner = self.item();
                    self.ws();
                    self.i += 1; // ')'
                    return Expect::Tag(text.parse().expect("tag"), Box::new(inner));
                }
                number(text)
            }
        }
    }
    fn digits(&mut self) -> String {
        let start = self.i;
        while self.s[self.i].is_ascii_digit() {
            self.i += 1;
        }
        String::from_utf8(self.s[start..self.i].to_vec()).expect("ascii")
    }
    fn list(&mut self, close: u8) -> Vec<Expect> {
        let mut v = Vec::new();
        loop {
            self.ws();
            if self.s[self.i] == close {
                self.i += 1;
                return v;
            }
            v.push(self.item());
            self.ws();
            if self.s[self.i] == b',' {
                self.i += 1;
            }
        }
    }
}

fn parse_diag(s: &str) -> Expect {
    let mut d = Diag {
        s: s.as_bytes(),
        i: 0,
    };
    let v = d.item();
    d.ws();
    assert_eq!(d.i, s.len(), "unparsed diagnostic {s:?}");
    v
}

/// Whether `v` equals `e`: integers by value whatever their CBOR form,
/// floats by value and sign of zero whatever their width.
fn matches(v: &Value, e: &Expect) -> bool {
    match (e, v) {
        (Expect::Int(i), _) => v.as_i128() == Some(*i),
        (Expect::Huge(text), Value::Tagged(tag @ (2 | 3), inner)) => {
            let Some(digits) = inner.as_bytes() else {
                return false;
            };
            decimal(digits, *tag == 3) == *text
        }
        (Expect::Float(f), Value::F32(x)) => same_float(*x as f64, *f),
        (Expect::Float(f), Value::F64(x)) => same_float(*x, *f),
        (Expect::Str(s), Value::Str(x)) => s == x,
        (Expect::Bytes(b), Value::Bytes(x)) => b == x,
        (Expect::Bool(b), Value::Bool(x)) => b == x,
        (Expect::Null, Value::Nil) => true,
        (Expect::Undefined, Value::Simple(23)) => true,
        (Expect::Simple(n), Value::Simple(x)) => n == x,
        (Expect::Tag(t, inner), Value::Tagged(x, vi)) => t == x && matches(vi, inner),
        (Expect::Array(a), Value::Array(x)) => {
            a.len() == x.len() && a.iter().zip(x).all(|(e, v)| matches(v, e))
        }
        (Expect::Map(m), Value::Map(x)) => {
            m.len() == x.len()
                && m.iter()
                    .zip(x)
                    .all(|((ek, ev), (k, v))| matches(k, ek) && matches(v, ev))
        }
        _ => false,
    }
}

fn same_float(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || (a == b && a.is_sign_negative() == b.is_sign_negative())
}

/// The decimal text of a bignum (tag 3: -1 - n), by long division.
fn decimal(be: &[u8], negative: bool) -> String {
    let mut digits = be.to_vec();
    if negative {
        // n + 1, then prefix '-'.
        let mut carry = true;
        for b in digits.iter_mut().rev() {
            if !carry {
                break;
            }
            let (s, c) = b.overflowing_add(1);
            *b = s;
            carry = c;
        }
        if carry {
            digits.insert(0, 1);
        }
    }
    let mut out = Vec::new();
    while digits.iter().any(|&d| d != 0) {
        let mut rem = 0u32;
        for d in digits.iter_mut() {
            let cur = rem * 256 + *d as u32;
            *d = (cur / 10) as u8;
            rem = cur % 10;
        }
        out.push(b'0' + rem as u8);
    }
    if out.is_empty() {
        out.push(b'0');
    }
    if negative {
        out.push(b'-');
    }
    out.reverse();
    String::from_utf8(out).expect("ascii")
}

/// Decodes into a typed target where one fits the expected value.
fn typed_check(bytes: &[u8], e: &Expect) -> Result<(), String> {
    let h = CborHandle::default();
    let bad = |what: &str| format!("typed {what} mismatch");
    match e {
        Expect::Int(i) => {
            let got: i128 = from_slice(bytes, &h).map_err(|e| e.to_string())?;
            if got != *i {
                return Err(bad("i128"));
            }
            if let Ok(u) = u64::try_from(*i) {
                let got: u64 = from_slice(bytes, &h).map_err(|e| e.to_string())?;
                if got != u {
                    return Err(bad("u64"));
                }
            }
            if let Ok(s) = i64::try_from(*i) {
                let got: i64 = from_slice(bytes, &h).map_err(|e| e.to_string())?;
                if got != s {
                    return Err(bad("i64"));
                }
            }
        }
        Expect::Float(f) => {
            let got: f64 = from_slice(bytes, &h).map_err(|e| e.to_string())?;
            if !same_float(got, *f) {
                return Err(bad("f64"));
            }
        }
        Expect::Str(s) => {
            let got: String = from_slice(bytes, &h).map_err(|e| e.to_string())?;
            if got != *s {
                return Err(bad("String"));
            }
        }
        Expect::Bytes(b) => {
            let got: Vec<u8> = from_slice(bytes, &h).map_err(|e| e.to_string())?;
            if got != *b {
                return Err(bad("Vec<u8>"));
            }
        }
        Expect::Bool(b) => {
            let got: bool = from_slice(bytes, &h).map_err(|e| e.to_string())?;
            if got != *b {
                return Err(bad("bool"));
            }
        }
        Expect::Null | Expect::Undefined => {
            let got: Option<u8> = from_slice(bytes, &h).map_err(|e| e.to_string())?;
            if got.is_some() {
                return Err(bad("Option"));
            }
        }
        Expect::Tag(1, inner) => {
            let got: Time = from_slice(bytes, &h).map_err(|e| e.to_string())?;
            let secs = match **inner {
                Expect::Int(i) => i as f64,
                Expect::Float(f) => f,
                _ => return Err("tag 1 content".into()),
            };
            let want = Time::from_unix_nanos((secs * 1e9).round() as i128).ok_or("range")?;
            if got != want.round_to(1000) {
                return Err(bad("Time"));
            }
        }
        Expect::Tag(0, inner) => {
            let got: Time = from_slice(bytes, &h).map_err(|e| e.to_string())?;
            let Expect::Str(s) = &**inner else {
                return Err("tag 0 content".into());
            };
            let want = Time::parse_rfc3339(s).map_err(|e| e.to_string())?;
            if got != want.to_utc().round_to(1000) {
                return Err(bad("Time"));
            }
        }
        Expect::Array(items) if items.iter().all(|i| matches!(i, Expect::Int(_))) => {
            let got: Vec<i64> = from_slice(bytes, &h).map_err(|e| e.to_string())?;
            let want: Vec<i64> = items
                .iter()
                .map(|i| match i {
                    Expect::Int(v) => *v as i64,
                    _ => 0,
                })
                .collect();
            if got != want {
                return Err(bad("Vec<i64>"));
            }
        }
        _ => {}
    }
    Ok(())
}

#[test]
fn cbor_appendix_a() {
    let path = data_path("CODEC_CBOR_APPENDIX_A", "appendix_a.json");
    let text = std::fs::read_to_string(&path).expect("read appendix_a.json");
    let Json::Arr(cases) = parse_json(&text) else {
        panic!("appendix_a.json is not an array");
    };
    // Tags stay tags (0 and 1 included), encoded with the RFC's preferred serialization.
    let generic = CborHandle::default()
        .preferred_serialization(true)
        .decode_time_tags(false);
    let (mut passed, mut failed) = (0, Vec::new());
    for case in &cases {
        let h = case.get("hex").and_then(Json::str).expect("hex");
        let bytes = unhex(h);
        let expect = match (case.get("decoded"), case.get("diagnostic")) {
            (Some(d), _) => from_json(d),
            (None, Some(Json::Str(d))) => parse_diag(d),
            _ => panic!("case {h} has no expected value"),
        };
        let roundtrip = case.get("roundtrip") == Some(&Json::Bool(true));
        let result = (|| -> Result<(), String> {
            let v: Value = from_slice(&bytes, &generic).map_err(|e| format!("decode: {e}"))?;
            if !matches(&v, &expect) {
                return Err(format!("decoded {v}, expected {expect:?}"));
            }
            // The default handle (times as Time) must decode it too.
            let _: Value =
                from_slice(&bytes, &CborHandle::default()).map_err(|e| format!("default: {e}"))?;
            typed_check(&bytes, &expect)?;
            if roundtrip {
                let out = to_vec(&v, &generic).map_err(|e| format!("encode: {e}"))?;
                if out != bytes {
                    return Err(format!("re-encoded as {}", hex(&out)));
                }
            }
            Ok(())
        })();
        match result {
            Ok(()) => passed += 1,
            Err(e) => failed.push(format!("{h}: {e}")),
        }
    }
    println!("cbor_appendix_a: {passed} passed, {} failed", failed.len());
    for f in &failed {
        println!("  FAIL {f}");
    }
    assert!(
        failed.is_empty(),
        "{} appendix A vectors failed",
        failed.len()
    );
}
