//! `codec inspect`: one line per item with its offset, header bytes, type,
//! length and value, indented by depth; or the same as JSON Lines.
//!
//! It is generic over the format: it walks the document with the
//! [`Decoder`] on a slice and takes the offset before and after each header,
//! so the header bytes are whatever the format's driver consumed for them.

use crate::args::{self, Opt};
use crate::fail::{Failure, Place, decode_failure};
use crate::formats::{self, FormatArg, with_handle};
use crate::io::{Input, OutputTarget};
use codec::{DecodeFormat, Decoder, Handle, JsonHandle, Kind, Raw, Read, Text, Value};
use std::ffi::OsString;
use std::fmt::Write as _;

const CMD: &str = "inspect";

/// Header bytes shown in the human view before eliding with `…`.
const HEX_SHOWN: usize = 8;
/// Header bytes kept in the JSON view.
const HEX_JSON: usize = 64;
/// Characters of a text value shown before eliding.
const TEXT_SHOWN: usize = 60;
/// Bytes of a byte string shown before eliding.
const BYTES_SHOWN: usize = 32;

/// The help text.
pub fn help() -> String {
    format!(
        "\
codec inspect: show the items of a document, one per line

Usage: codec inspect [--format F] [--json] [--stream] [OPTIONS] [INPUT]

Prints one line per item: its byte offset, its header bytes in hex, its type
and length, and its value, indented by nesting depth (in the spirit of CBOR
diagnostic notation, for every format). Map keys are marked `key`. The end
marker of a container without a declared length (cbor indefinite length,
json) gets its own line. A json integer beyond 64 bits is shown as written,
at any length (type bigint). INPUT defaults to standard input.

Options:
  -f, --format F          msgpack, cbor, binc, simple, json or auto (default auto)
      --json              One JSON object per item and line (JSON Lines), for tools:
                          {{\"offset\",\"depth\",\"header\",\"type\",\"length\",\"value\",\"role\"}}
      --stream            The input is a sequence of documents; each starts with a
                          `# document N` line (a \"document\" field with --json)
  -h, --help              This help

{}

On invalid input the items read so far are printed, then the error goes to
standard error (one line, with the byte offset) and the exit status is 1.

Exit status: 0 success, 1 invalid input or I/O error, 2 usage error.

Examples:
  codec inspect data.msgpack
  codec inspect --format cbor --json < data.cbor | jq -c 'select(.type == \"map\")'
  codec transcode --from json --to cbor in.json | codec inspect --format cbor
",
        formats::DECODE_HELP
    )
}

fn spec() -> Vec<Opt> {
    let mut s = vec![
        Opt::value("format").short('f'),
        Opt::flag("json"),
        Opt::flag("stream"),
        Opt::value("output").short('o'),
    ];
    s.extend_from_slice(formats::DECODE_OPTS);
    s
}

/// Runs `codec inspect` with the arguments after the subcommand.
pub fn run(argv: &[OsString]) -> Result<(), Failure> {
    let p = args::parse(CMD, &spec(), argv)?;
    if p.help {
        print!("{}", help());
        return Ok(());
    }
    let format = match p.text(CMD, "format")? {
        Some(s) => formats::parse_input_format(CMD, "format", &s)?,
        None => FormatArg::Auto,
    };
    let stream = p.has("stream");
    let mut input = Input::open(p.single_input(CMD)?.as_ref(), false)?;
    let target = OutputTarget::new(p.os("output"));
    target.check_not_input(CMD, &input)?;
    let bytes = input.read_all()?;
    let name = match format {
        FormatArg::Named(n) => n,
        FormatArg::Auto => formats::detect(CMD, &input.name, &bytes, stream, true, &p)?,
    };
    formats::check_flags(CMD, &p, name, None)?;
    let mut h = formats::input_handle(CMD, name, &p)?;
    // A JSON integer is shown as written, however long: the item is a
    // number in the document, not the float a `Value` would round it to.
    if let codec::AnyHandle::Json(j) = &mut h {
        j.exact_integers = true;
    }
    let place = Place {
        source: &input.name,
        format: name,
        document: None,
    };
    let mut w = Walker {
        input: &bytes,
        json: p.has("json"),
        text_format: !formats::is_binary(name),
        document: None,
        out: String::new(),
        err: None,
    };
    let res: Result<(), Failure> = with_handle!(&h, h => {
        w.document(h, stream, &place);
        Ok(())
    });
    res?;
    let mut out = target.open()?;
    out.write(w.out.as_bytes())?;
    out.finish()?;
    match w.err {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Where an item sits.
#[derive(Clone, Copy)]
enum Role {
    /// A whole document.
    Document,
    /// An array item.
    Item,
    /// A map key.
    Key,
    /// A map value.
    Value,
    /// The item a tag applies to.
    Tagged,
    /// The end marker of a delimited container.
    End,
}

impl Role {
    fn name(self) -> &'static str {
        match self {
            Role::Document => "document",
            Role::Item => "item",
            Role::Key => "key",
            Role::Value => "value",
            Role::Tagged => "tagged",
            Role::End => "end",
        }
    }
}

/// One item's description.
struct Item {
    start: u64,
    header_end: u64,
    depth: u32,
    role: Role,
    ty: &'static str,
    /// Bytes of a string, items of an array, entries of a map; `None` when
    /// not applicable; containers without a declared length say so in `ty`.
    len: Option<u64>,
    /// The value, for scalars and tags.
    value: Option<Value>,
    /// Instead of `value`, the digits of an integer that does not fit in
    /// 128 bits (a JSON number, shown as written).
    digits: Option<String>,
}

struct Walker<'a> {
    input: &'a [u8],
    json: bool,
    text_format: bool,
    document: Option<u64>,
    out: String,
    err: Option<Failure>,
}

impl Walker<'_> {
    /// Walks one document, or every document of a stream; records the first error.
    fn document<H: Handle>(&mut self, h: &H, stream: bool, place: &Place<'_>) {
        let mut d = h.decoder(self.input);
        if !stream {
            let res = self
                .item(&mut d, 0, Role::Document)
                .and_then(|()| d.finish());
            if let Err(e) = res {
                self.err = Some(decode_failure(&d.locate(e), place));
            }
            return;
        }
        let mut n = 0u64;
        let mut end = d.at_end();
        while let Ok(false) = end {
            n += 1;
            self.document = Some(n);
            if !self.json {
                let _ = writeln!(self.out, "# document {n} at byte {}", d.offset());
            }
            // What follows belongs to this document's end (json: a number
            // or a literal needs whitespace or a delimiter after it).
            end = self
                .item(&mut d, 0, Role::Document)
                .and_then(|()| d.at_end());
            d.reset_for_next();
        }
        if let Err(e) = end {
            let at = Place {
                document: Some(n.max(1)),
                ..*place
            };
            self.err = Some(decode_failure(&d.locate(e), &at));
        }
    }

    fn item<'de, R: Read<'de>, F: DecodeFormat>(
        &mut self,
        d: &mut Decoder<'de, R, F>,
        depth: u32,
        role: Role,
    ) -> codec::Result<()> {
        let start = d.offset();
        let kind = d.peek_kind()?;
        let mut it = Item {
            start,
            header_end: start,
            depth,
            role,
            ty: "",
            len: None,
            value: None,
            digits: None,
        };
        match kind {
            Kind::Array => {
                let mut seq = d.array_begin()?;
                let delimited = seq.len.is_none();
                it.header_end = d.offset();
                it.ty = if seq.len.is_some() {
                    "array"
                } else {
                    "array(_)"
                };
                it.len = seq.len.map(|n| n as u64);
                self.emit(&it);
                loop {
                    let before = d.offset();
                    if !d.array_next(&mut seq)? {
                        self.end_marker(
                            "end of array",
                            delimited,
                            seq.index,
                            before,
                            d.offset(),
                            depth,
                        );
                        break;
                    }
                    self.item(d, depth + 1, Role::Item)?;
                }
                d.array_end(seq)?;
            }
            Kind::Map => {
                let mut seq = d.map_begin()?;
                let delimited = seq.len.is_none();
                it.header_end = d.offset();
                it.ty = if seq.len.is_some() { "map" } else { "map(_)" };
                it.len = seq.len.map(|n| n as u64);
                self.emit(&it);
                loop {
                    let before = d.offset();
                    if !d.map_next(&mut seq)? {
                        self.end_marker(
                            "end of map",
                            delimited,
                            seq.index,
                            before,
                            d.offset(),
                            depth,
                        );
                        break;
                    }
                    self.item(d, depth + 1, Role::Key)?;
                    d.map_value(&mut seq)?;
                    self.item(d, depth + 1, Role::Value)?;
                }
                d.map_end(seq)?;
            }
            Kind::Tag => {
                // Entered before the tag is read: a depth error points at it.
                d.enter_nested()?;
                let t = d.decode_tag()?;
                it.header_end = d.offset();
                it.ty = "tag";
                it.value = Some(Value::Uint(t));
                self.emit(&it);
                self.item(d, depth + 1, Role::Tagged)?;
                d.leave();
            }
            Kind::Str => {
                let s = d.decode_str()?;
                let len = s.len() as u64;
                let v = Value::Str(Text::from(&*s));
                self.scalar(d.offset(), it, "text", Some(len), v);
            }
            Kind::Bytes => {
                let b = d.decode_bytes()?;
                let len = b.len() as u64;
                let v = Value::Bytes(b.to_vec());
                self.scalar(d.offset(), it, "bytes", Some(len), v);
            }
            Kind::Ext => {
                let (t, b) = d.decode_ext()?;
                let len = b.len() as u64;
                let v = Value::Ext(t, Box::from(&*b));
                self.scalar(d.offset(), it, "ext", Some(len), v);
            }
            Kind::BigInt if self.text_format => {
                // A JSON integer beyond 64 bits: its token, exact at any
                // length (a key read as a number: the text inside its quotes).
                let raw: Raw = d.decode()?;
                let token = String::from_utf8_lossy(raw.as_bytes());
                let token = token.trim_matches('"');
                match token.parse::<i128>() {
                    Ok(i) => self.scalar(d.offset(), it, "bigint", None, Value::BigInt(i)),
                    Err(_) => {
                        it.header_end = d.offset();
                        it.ty = "bigint";
                        it.digits = Some(token.to_owned());
                        self.emit(&it);
                    }
                }
            }
            _ => {
                // Every other kind is one self-contained item: Value reads it.
                let v: Value = d.decode()?;
                let ty = match kind {
                    Kind::Nil => "nil",
                    Kind::Bool => "bool",
                    Kind::Int => "int",
                    Kind::Uint => "uint",
                    Kind::BigInt => "bigint",
                    Kind::Float32 => "float32",
                    Kind::Float64 => "float64",
                    Kind::Time => "time",
                    Kind::Simple => "simple",
                    _ => kind.name(),
                };
                self.scalar(d.offset(), it, ty, None, v);
            }
        }
        Ok(())
    }

    /// A scalar that ended at `end`; strings, bytes and extensions carry a
    /// payload of `len` bytes after their header, when the input ends with
    /// it (not a binc symbol reference, whose text is elsewhere, nor a cbor
    /// string in chunks: their bytes are all header).
    fn scalar(&mut self, end: u64, mut it: Item, ty: &'static str, len: Option<u64>, v: Value) {
        let data: &[u8] = match &v {
            Value::Str(s) => s.as_bytes(),
            Value::Bytes(b) => b,
            Value::Ext(_, b) => b,
            _ => &[],
        };
        let payload = len.unwrap_or(0);
        let tail = usize::try_from(end).ok().and_then(|e| {
            let from = e.checked_sub(data.len())?;
            self.input.get(from..e)
        });
        it.header_end = if !self.text_format
            && len.is_some()
            && end.saturating_sub(it.start) >= payload
            && tail == Some(data)
        {
            end - payload
        } else {
            end
        };
        it.ty = ty;
        it.len = len;
        it.value = Some(v);
        self.emit(&it);
    }

    /// The end marker of a delimited container (cbor `ff`, json `]` / `}`).
    fn end_marker(
        &mut self,
        ty: &'static str,
        delimited: bool,
        count: usize,
        before: u64,
        after: u64,
        depth: u32,
    ) {
        if !delimited || after <= before {
            return;
        }
        let it = Item {
            start: before,
            header_end: after,
            depth,
            role: Role::End,
            ty,
            len: Some(count as u64),
            value: None,
            digits: None,
        };
        self.emit(&it);
    }

    /// The header bytes of an item; json skips the separators before it.
    fn header(&self, it: &Item) -> (u64, &[u8]) {
        let from = usize::try_from(it.start)
            .unwrap_or(usize::MAX)
            .min(self.input.len());
        let to = usize::try_from(it.header_end)
            .unwrap_or(usize::MAX)
            .clamp(from, self.input.len());
        let mut bytes = self.input.get(from..to).unwrap_or(&[]);
        let mut start = it.start;
        if self.text_format {
            while let [b' ' | b'\t' | b'\n' | b'\r' | b',' | b':', rest @ ..] = bytes {
                bytes = rest;
                start += 1;
            }
            // A scalar's "header" in a text format is its token; keep it short.
            bytes = &bytes[..bytes.len().min(HEX_SHOWN * 2)];
        }
        (start, bytes)
    }

    fn emit(&mut self, it: &Item) {
        if self.json {
            self.emit_json(it);
        } else {
            self.emit_human(it);
        }
    }

    fn emit_human(&mut self, it: &Item) {
        let (start, bytes) = self.header(it);
        let mut hex = String::new();
        for (i, b) in bytes.iter().take(HEX_SHOWN).enumerate() {
            if i > 0 {
                hex.push(' ');
            }
            let _ = write!(hex, "{b:02x}");
        }
        if bytes.len() > HEX_SHOWN {
            hex.push_str(" …");
        }
        let indent = "  ".repeat(it.depth as usize);
        let mut desc = String::new();
        if matches!(it.role, Role::Key) {
            desc.push_str("key ");
        }
        desc.push_str(it.ty);
        match (it.role, it.len) {
            (Role::End, Some(n)) => {
                let _ = write!(desc, " after {n}");
            }
            (_, Some(n)) => {
                let _ = write!(desc, "({n})");
            }
            _ => {}
        }
        if let Some(v) = &it.value {
            desc.push(' ');
            desc.push_str(&preview(v));
        }
        if let Some(digits) = &it.digits {
            desc.push(' ');
            desc.push_str(digits);
        }
        let _ = writeln!(self.out, "{start:>8}  {hex:<26}{indent}{desc}");
    }

    fn emit_json(&mut self, it: &Item) {
        let (start, bytes) = self.header(it);
        let mut hex = String::new();
        for b in bytes.iter().take(HEX_JSON) {
            let _ = write!(hex, "{b:02x}");
        }
        let mut m: Vec<(Value, Value)> = Vec::with_capacity(8);
        let mut put = |k: &str, v: Value| m.push((Value::from(k), v));
        if let Some(n) = self.document {
            put("document", Value::Uint(n));
        }
        put("offset", Value::Uint(start));
        put("depth", Value::Uint(u64::from(it.depth)));
        put("role", Value::from(it.role.name()));
        put("header", Value::from(hex));
        put("type", Value::from(it.ty));
        if let Some(n) = it.len {
            put("length", Value::Uint(n));
        }
        if let Some(v) = &it.value {
            put("value", json_value(v));
        }
        if let Some(digits) = &it.digits {
            put("value", Value::from(digits.as_str()));
        }
        match codec::to_vec(&Value::Map(m), &JsonHandle::default()) {
            Ok(line) => {
                self.out.push_str(&String::from_utf8_lossy(&line));
                self.out.push('\n');
            }
            Err(e) => {
                let _ = writeln!(self.out, "{{\"error\":{:?}}}", e.to_string());
            }
        }
    }
}

/// A short, one-line rendering of a scalar value.
fn preview(v: &Value) -> String {
    match v {
        Value::Str(s) => {
            let cut: String = s.chars().take(TEXT_SHOWN).collect();
            if cut.len() < s.len() {
                format!("{cut:?}…")
            } else {
                format!("{s:?}")
            }
        }
        Value::Bytes(b) => hex_preview(b),
        Value::Ext(t, b) => format!("type {t}: {}", hex_preview(b)),
        Value::Time(t) => t.to_string(),
        other => other.to_string(),
    }
}

fn hex_preview(b: &[u8]) -> String {
    let mut s = String::from("h'");
    for x in b.iter().take(BYTES_SHOWN) {
        let _ = write!(s, "{x:02x}");
    }
    s.push('\'');
    if b.len() > BYTES_SHOWN {
        s.push('…');
    }
    s
}

/// A scalar as plain JSON: numbers, text and bools as themselves; bytes as
/// lowercase hex; big integers as decimal text; times as RFC 3339 text;
/// extensions as `{"type": t, "data": hex}`; non-finite floats as text.
fn json_value(v: &Value) -> Value {
    let hex = |b: &[u8]| {
        let mut s = String::with_capacity(b.len() * 2);
        for x in b {
            let _ = write!(s, "{x:02x}");
        }
        Value::Str(s.into())
    };
    match v {
        Value::Bytes(b) => hex(b),
        Value::BigInt(i) => Value::Str(i.to_string().into()),
        Value::Time(t) => Value::Str(t.to_string().into()),
        Value::Ext(t, b) => Value::Map(vec![
            (Value::from("type"), Value::Uint(*t)),
            (Value::from("data"), hex(b)),
        ]),
        Value::F32(f) if !f.is_finite() => Value::Str(format!("{f:?}").into()),
        Value::F64(f) if !f.is_finite() => Value::Str(format!("{f:?}").into()),
        Value::Simple(s) => Value::Uint(u64::from(*s)),
        other => other.clone(),
    }
}
