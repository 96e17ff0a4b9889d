//! Documented divergences: where ugorji's bytes break the format's own
//! specification, the project writes valid bytes instead (DESIGN.md, "Decisions on
//! ugorji's quirks"). Each divergence is a *rule* that turns ugorji's bytes into the
//! valid bytes we must write; it is detected from the bytes themselves, never from a
//! case name or id.

use super::typed::{Case, Typed, parse_hex};

/// A documented divergence from ugorji's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Rule {
    /// CBOR `IndefiniteLength`: ugorji cuts text chunks every `len/4` bytes (64 when
    /// `len < 4`, at most 1024), even inside a UTF-8 sequence, which RFC 8949 §3.2.3
    /// forbids (every chunk of a text string must be valid UTF-8). We keep the chunk
    /// size and move each of ugorji's cut points back to the start of the character
    /// it falls in; empty chunks are not written.
    CborTextChunkSplitsUtf8,
    /// JSON: ugorji writes non-string map keys unquoted (`{-1:"neg"}`), which is not
    /// JSON (RFC 8259 §4). We quote them (`{"-1":"neg"}`), as ugorji's
    /// `MapKeyAsString` does, and keep the entry order. Decoding our bytes into a
    /// dynamic value then gives string keys.
    JsonUnquotedMapKeys,
}

impl Rule {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Rule::CborTextChunkSplitsUtf8 => {
                "cbor IndefiniteLength: ugorji splits text chunks inside UTF-8 characters (RFC 8949 §3.2.3); \
                 we cut each chunk at the preceding character boundary"
            }
            Rule::JsonUnquotedMapKeys => {
                "json: ugorji writes non-string map keys unquoted (not JSON, RFC 8259 §4); we quote them \
                 and decode them back as strings"
            }
        }
    }
}

/// What one case must give under our implementation.
#[derive(Clone, Debug)]
pub(crate) struct Expect {
    /// The bytes our encoder must write.
    pub(crate) hex: Vec<u8>,
    /// The bytes the decode checks read (ours when they differ from ugorji's).
    pub(crate) input: Vec<u8>,
    /// Expected result of decoding `input` into `Value`.
    pub(crate) dynamic: Typed,
    /// Expected result of decoding `input` into the case's Rust type.
    pub(crate) roundtrip: Typed,
    /// The divergence applied, if any.
    pub(crate) rule: Option<Rule>,
}

/// The expectation of a case, after applying any divergence rule.
pub(crate) fn expect(case: &Case) -> Result<Expect, String> {
    let mut e = Expect {
        hex: case.hex.clone(),
        input: case.hex.clone(),
        dynamic: case.decoded_dynamic.clone(),
        roundtrip: case.roundtrip.clone(),
        rule: None,
    };
    match case.handle.as_str() {
        "cbor" => {
            if let Some(ours) = cbor_fix_text_chunks(&case.hex)? {
                e.hex = ours.clone();
                e.input = ours;
                e.rule = Some(Rule::CborTextChunkSplitsUtf8);
            }
        }
        "json" => {
            let valid = |b: &[u8]| serde_json::from_slice::<serde_json::Value>(b).is_ok();
            if let Some(ours) =
                json_quote_keys(&case.hex).filter(|ours| !valid(&case.hex) && valid(ours))
            {
                e.hex = ours.clone();
                e.input = ours;
                e.dynamic = stringify_keys(&e.dynamic)?;
                if case.go_type.contains("interface") {
                    e.roundtrip = stringify_keys(&e.roundtrip)?;
                }
                e.rule = Some(Rule::JsonUnquotedMapKeys);
            }
        }
        _ => {}
    }
    Ok(e)
}

/// Map keys as JSON object keys decode: integers and bools as their text.
fn stringify_keys(t: &Typed) -> Result<Typed, String> {
    Ok(match t {
        Typed::Map(m) => Typed::Map(
            m.iter()
                .map(|(k, v)| {
                    let k = match k {
                        Typed::Str(_) => k.clone(),
                        Typed::Int(i) => Typed::Str(i.to_string()),
                        Typed::Uint(u) => Typed::Str(u.to_string()),
                        Typed::Bool(b) => Typed::Str(b.to_string()),
                        other => {
                            return Err(format!(
                                "json key {} has no rule for quoting",
                                other.short()
                            ));
                        }
                    };
                    Ok((k, stringify_keys(v)?))
                })
                .collect::<Result<_, String>>()?,
        ),
        Typed::Array(a) => Typed::Array(a.iter().map(stringify_keys).collect::<Result<_, _>>()?),
        other => other.clone(),
    })
}

/// Quotes every object key that is not a string. `None` when nothing changed.
fn json_quote_keys(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() + 8);
    let mut stack: Vec<u8> = Vec::new();
    let mut expect_key = false;
    let mut changed = false;
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        match c {
            b'"' => {
                expect_key = false;
                let start = i;
                i += 1;
                while i < s.len() && s[i] != b'"' {
                    i += if s[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(s.len());
                out.extend_from_slice(&s[start..i]);
                continue;
            }
            b'{' => {
                stack.push(c);
                expect_key = true;
            }
            b'[' => {
                stack.push(c);
                expect_key = false;
            }
            b'}' | b']' => {
                stack.pop();
                expect_key = false;
            }
            b',' => expect_key = stack.last() == Some(&b'{'),
            b':' | b' ' | b'\t' | b'\n' | b'\r' => {}
            _ if expect_key => {
                let start = i;
                while i < s.len() && !matches!(s[i], b':' | b' ' | b'\t' | b'\n' | b'\r') {
                    i += 1;
                }
                out.push(b'"');
                out.extend_from_slice(&s[start..i]);
                out.push(b'"');
                changed = true;
                expect_key = false;
                continue;
            }
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    changed.then_some(out)
}

/// ugorji v1.2.14's chunk size for an indefinite string of `len` bytes.
fn chunk_size(len: usize) -> usize {
    if len < 4 { 64 } else { (len / 4).min(1024) }
}

fn write_head(out: &mut Vec<u8>, major: u8, n: u64) {
    let m = major << 5;
    match n {
        0..=23 => out.push(m | n as u8),
        24..=0xff => out.extend_from_slice(&[m | 24, n as u8]),
        0x100..=0xffff => {
            out.push(m | 25);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        0x1_0000..=0xffff_ffff => {
            out.push(m | 26);
            out.extend_from_slice(&(n as u32).to_be_bytes());
        }
        _ => {
            out.push(m | 27);
            out.extend_from_slice(&n.to_be_bytes());
        }
    }
}

/// Our chunking of a text: ugorji cuts every `chunk_size` bytes; each cut point is
/// moved back to the start of the character it falls in, and empty chunks are not
/// written. Where every cut falls on a character boundary this is ugorji's chunking.
pub(crate) fn chunk_text(text: &str) -> Vec<&str> {
    let size = chunk_size(text.len());
    let mut chunks = Vec::new();
    let mut pos = 0;
    let mut grid = 0;
    while pos < text.len() {
        grid += size;
        let mut end = grid.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        if end > pos {
            chunks.push(&text[pos..end]);
            pos = end;
        }
    }
    chunks
}

struct Walker<'a> {
    b: &'a [u8],
    pos: usize,
    out: Vec<u8>,
    changed: bool,
}

impl<'a> Walker<'a> {
    fn byte(&mut self) -> Result<u8, String> {
        let x = *self
            .b
            .get(self.pos)
            .ok_or_else(|| format!("cbor walk: unexpected end at {}", self.pos))?;
        self.pos += 1;
        Ok(x)
    }

    fn take(&mut self, n: u64) -> Result<&'a [u8], String> {
        let n = usize::try_from(n).map_err(|_| "cbor walk: length overflow".to_string())?;
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.b.len())
            .ok_or_else(|| format!("cbor walk: {n} bytes past the end at {}", self.pos))?;
        let b: &'a [u8] = self.b;
        let s = &b[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    /// Reads a head; `None` argument means indefinite length.
    fn head(&mut self) -> Result<(u8, u8, Option<u64>, usize), String> {
        let start = self.pos;
        let ib = self.byte()?;
        let (major, ai) = (ib >> 5, ib & 31);
        let arg = match ai {
            0..=23 => Some(u64::from(ai)),
            24..=27 => {
                let n = 1u64 << (ai - 24);
                let bytes = self.take(n)?;
                Some(bytes.iter().fold(0u64, |a, &x| (a << 8) | u64::from(x)))
            }
            31 => None,
            _ => {
                return Err(format!(
                    "cbor walk: reserved additional info {ai} at {start}"
                ));
            }
        };
        Ok((major, ai, arg, start))
    }

    fn item(&mut self, depth: usize) -> Result<(), String> {
        if depth > 512 {
            return Err("cbor walk: nesting too deep".into());
        }
        let (major, _ai, arg, start) = self.head()?;
        match (major, arg) {
            (0 | 1 | 7, Some(_)) => self.copy_from(start),
            (2 | 3, Some(n)) => {
                self.take(n)?;
                self.copy_from(start);
            }
            (2, None) => {
                while self.b.get(self.pos) != Some(&0xff) {
                    match self.head()? {
                        (2, _, Some(n), _) => {
                            self.take(n)?;
                        }
                        _ => return Err(format!("cbor walk: bad byte-string chunk at {start}")),
                    }
                }
                self.pos += 1;
                self.copy_from(start);
            }
            (3, None) => {
                let mut chunks: Vec<&[u8]> = Vec::new();
                while self.b.get(self.pos) != Some(&0xff) {
                    match self.head()? {
                        (3, _, Some(n), _) => chunks.push(self.take(n)?),
                        _ => return Err(format!("cbor walk: bad text chunk at {start}")),
                    }
                }
                self.pos += 1;
                if chunks.iter().all(|c| std::str::from_utf8(c).is_ok()) {
                    self.copy_from(start);
                } else {
                    let all: Vec<u8> = chunks.concat();
                    let text = String::from_utf8(all).map_err(|_| {
                        format!("cbor walk: text at {start} is not UTF-8 even when joined")
                    })?;
                    self.changed = true;
                    self.out.push(0x7f);
                    for c in chunk_text(&text) {
                        write_head(&mut self.out, 3, c.len() as u64);
                        self.out.extend_from_slice(c.as_bytes());
                    }
                    self.out.push(0xff);
                }
            }
            (4 | 5, n) => {
                let per = if major == 5 { 2 } else { 1 };
                self.out.extend_from_slice(&self.b[start..self.pos]);
                match n {
                    Some(n) => {
                        for _ in 0..n.saturating_mul(per) {
                            self.item(depth + 1)?;
                        }
                    }
                    None => {
                        while self.b.get(self.pos) != Some(&0xff) {
                            self.item(depth + 1)?;
                        }
                        self.pos += 1;
                        self.out.push(0xff);
                    }
                }
            }
            (6, Some(_)) => {
                self.out.extend_from_slice(&self.b[start..self.pos]);
                self.item(depth + 1)?;
            }
            _ => return Err(format!("cbor walk: unexpected head at {start}")),
        }
        Ok(())
    }

    fn copy_from(&mut self, start: usize) {
        self.out.extend_from_slice(&self.b[start..self.pos]);
    }
}

/// ugorji's CBOR bytes with text chunks re-cut at character boundaries; `None` when
/// no chunk splits a character.
pub(crate) fn cbor_fix_text_chunks(b: &[u8]) -> Result<Option<Vec<u8>>, String> {
    let mut w = Walker {
        b,
        pos: 0,
        out: Vec::with_capacity(b.len() + 8),
        changed: false,
    };
    w.item(0)?;
    if w.pos != b.len() {
        return Err(format!("cbor walk: {} trailing bytes", b.len() - w.pos));
    }
    Ok(w.changed.then_some(w.out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_keys_are_quoted() {
        let q = json_quote_keys(br#"{"a":2,"b":{-1:[1,{}]},-3:"x",10:"y"}"#).unwrap();
        assert_eq!(q, br#"{"a":2,"b":{"-1":[1,{}]},"-3":"x","10":"y"}"#);
        let q = json_quote_keys(b"{\n\t1: \"x\",\n\t2: \"y:\\\"\"\n}").unwrap();
        assert_eq!(q, b"{\n\t\"1\": \"x\",\n\t\"2\": \"y:\\\"\"\n}");
        assert!(json_quote_keys(br#"{"a":[1,2],"b":"{1:2}"}"#).is_none());
    }

    #[test]
    fn cbor_text_rechunked_at_char_boundaries() {
        // "aé" split as "a\xc3" + "\xa9": invalid chunks.
        let bad = parse_hex("7f62 61c3 61a9 ff".replace(' ', "").as_str()).unwrap();
        let fixed = cbor_fix_text_chunks(&bad).unwrap().unwrap();
        // len 3 < 4: one chunk of up to 64 bytes.
        assert_eq!(fixed, parse_hex("7f6361c3a9ff").unwrap());
        let ok = parse_hex("9f7f6161ff5f4101ffff").unwrap();
        assert_eq!(cbor_fix_text_chunks(&ok).unwrap(), None);
        // 11 bytes: ugorji cuts at 2, 4, 6, 8, 10; 6 falls inside U+2028 (bytes 4..7)
        // and moves back to 4, leaving an empty chunk that is not written.
        assert_eq!(
            chunk_text("abcd\u{2028}efgh"),
            vec!["ab", "cd", "\u{2028}e", "fg", "h"]
        );
        assert_eq!(chunk_text("\u{2028}"), vec!["\u{2028}"]);
    }
}
