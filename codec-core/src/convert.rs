//! Conversions between typed values and [`Value`]: [`to_value`] and [`from_value`].
//!
//! Both run the ordinary [`Encode`]/[`Decode`] code against a format driver
//! that builds (or walks) a `Value` tree instead of bytes, so a conversion
//! gives exactly what encoding and decoding through a self-describing
//! format would give, with nothing lost: integer signedness, float width,
//! tags, extensions and times are kept.
//!
//! ```
//! use codec_core::{Value, from_value, to_value};
//! let v = to_value(&vec![(1u8, "one".to_string())]).unwrap();
//! assert_eq!(v, Value::Array(vec![Value::Array(vec![Value::Uint(1), Value::from("one")])]));
//! let back: Vec<(u8, String)> = from_value(&v).unwrap();
//! assert_eq!(back, vec![(1, "one".to_string())]);
//! ```

use crate::{
    Decode, DecodeFormat, DecodeOptions, Decoder, Encode, EncodeFormat, EncodeOptions, Encoder,
    Error, Found, Handle, Kind, Read, Reference, Result, Seq, SliceReader, Time, Value, Write,
    from_slice,
};

/// Converts a typed value into a [`Value`].
pub fn to_value<T: Encode + ?Sized>(v: &T) -> Result<Value> {
    let mut e = Encoder::new(
        Vec::new(),
        ValueBuilder::default(),
        EncodeOptions::default(),
    );
    v.encode(&mut e)?;
    let (_, mut b) = e.into_parts();
    b.done
        .take()
        .ok_or_else(|| Error::custom("the value wrote no complete item"))
}

/// Converts a [`Value`] into a typed value.
///
/// The value is read as it stands, whatever format it came from. Two kinds
/// of item hold bytes in the encoding of the format that was read, which
/// this function does not know: the [`Value::Ext`] of an interface-style
/// extension read from msgpack, binc or simple (its data is the
/// extension's content encoded in that format), and a JSON string that
/// stands for bytes (base64). For a value read with a handle, convert with
/// [`from_value_in`] and that handle.
pub fn from_value<T: for<'de> Decode<'de>>(v: &Value) -> Result<T> {
    from_value_with(v, DecodeOptions::default())
}

/// Converts a [`Value`] into a typed value as decoding it with the handle
/// `h` would: the value read from bytes in `h`'s format gives what the bytes
/// give. Unlike [`from_value`] it reads the content of an interface-style
/// extension ([`InterfaceExt`](crate::InterfaceExt), `#[codec(ext = N)]`)
/// that msgpack, binc or simple left in a [`Value::Ext`], and JSON's base64
/// strings into byte targets; [`Value::Tagged`], which [`to_value`] gives
/// for such a type, reads in every format.
///
/// The value is encoded with `h` (its options, except `canonical`, which
/// would reorder maps) and decoded with `h`'s options. An error keeps its
/// kind and path, not its offset in that intermediate encoding.
///
/// `codec::AnyHandle::from_value` is the same for a handle chosen at run
/// time; its documentation has an example.
pub fn from_value_in<T: for<'de> Decode<'de>, H: Handle>(v: &Value, h: &H) -> Result<T> {
    let mut opts = h.options().encode.clone();
    opts.canonical = false;
    let mut e = Encoder::new(Vec::with_capacity(128), h.enc_format(), opts);
    v.encode(&mut e).map_err(Error::without_offset)?;
    let (bytes, _) = e.into_parts();
    from_slice(&bytes, h).map_err(Error::without_offset)
}

/// Converts a [`Value`] into a typed value under decoding options (for
/// example `error_on_unknown_field`). An error has a kind and a path, and
/// no byte offset.
pub fn from_value_with<T: for<'de> Decode<'de>>(v: &Value, opts: DecodeOptions) -> Result<T> {
    let mut events = Vec::new();
    flatten(v, &mut events);
    let walker = ValueWalker { events, pos: 0 };
    let mut d = Decoder::new(SliceReader::new(&[]), walker, opts);
    // There are no bytes: an error has a kind and a path, no offset.
    let out = T::decode(&mut d).map_err(Error::without_offset)?;
    if d.format_mut().pos != d.format_mut().events.len() {
        return Err(Error::new(crate::ErrorKind::TrailingData));
    }
    Ok(out)
}

enum Frame {
    Array(Vec<Value>),
    Map(Vec<(Value, Value)>, Option<Value>),
    Tag(u64),
}

/// An [`EncodeFormat`] that builds a [`Value`] tree instead of writing bytes.
#[derive(Default)]
pub struct ValueBuilder {
    stack: Vec<Frame>,
    done: Option<Value>,
}

impl ValueBuilder {
    /// The value built, once exactly one complete item has been written
    /// (use with an [`Encoder`] built with options of your choice).
    pub fn into_value(self) -> Option<Value> {
        self.done
    }

    fn push(&mut self, mut v: Value) -> Result<()> {
        loop {
            match self.stack.last_mut() {
                None => {
                    if self.done.is_some() {
                        return Err(Error::custom("more than one top-level value"));
                    }
                    self.done = Some(v);
                    return Ok(());
                }
                Some(Frame::Array(items)) => {
                    items.push(v);
                    return Ok(());
                }
                Some(Frame::Map(entries, key)) => {
                    match key.take() {
                        None => *key = Some(v),
                        Some(k) => entries.push((k, v)),
                    }
                    return Ok(());
                }
                Some(Frame::Tag(t)) => {
                    let t = *t;
                    self.stack.pop();
                    v = Value::Tagged(t, Box::new(v));
                }
            }
        }
    }
}

impl EncodeFormat for ValueBuilder {
    const NAME: &'static str = "value";
    /// A value-carrying extension becomes `Value::Tagged(tag, value)`.
    const EXT_STYLE: crate::ExtStyle = crate::ExtStyle::Tagged;

    fn write_nil<W: Write>(&mut self, _: &mut W) -> Result<()> {
        self.push(Value::Nil)
    }
    fn write_bool<W: Write>(&mut self, _: &mut W, v: bool) -> Result<()> {
        self.push(Value::Bool(v))
    }
    fn write_i64<W: Write>(&mut self, _: &mut W, v: i64) -> Result<()> {
        self.push(Value::Int(v))
    }
    fn write_u64<W: Write>(&mut self, _: &mut W, v: u64) -> Result<()> {
        self.push(Value::Uint(v))
    }
    fn write_i128<W: Write>(&mut self, _: &mut W, v: i128) -> Result<()> {
        self.push(match (i64::try_from(v), u64::try_from(v)) {
            (Ok(i), _) => Value::Int(i),
            (_, Ok(u)) => Value::Uint(u),
            _ => Value::BigInt(v),
        })
    }
    fn write_u128<W: Write>(&mut self, _: &mut W, v: u128) -> Result<()> {
        match (u64::try_from(v), i128::try_from(v)) {
            (Ok(u), _) => self.push(Value::Uint(u)),
            (_, Ok(i)) => self.push(Value::BigInt(i)),
            _ => self.push(Value::Tagged(
                2,
                Box::new(Value::Bytes(v.to_be_bytes().to_vec())),
            )),
        }
    }
    fn write_f32<W: Write>(&mut self, _: &mut W, v: f32) -> Result<()> {
        self.push(Value::F32(v))
    }
    fn write_f64<W: Write>(&mut self, _: &mut W, v: f64) -> Result<()> {
        self.push(Value::F64(v))
    }
    fn write_str<W: Write>(&mut self, _: &mut W, v: &str) -> Result<()> {
        self.push(Value::Str(v.into()))
    }
    fn write_bytes<W: Write>(&mut self, _: &mut W, v: &[u8]) -> Result<()> {
        self.push(Value::Bytes(v.to_vec()))
    }
    fn write_array_start<W: Write>(&mut self, _: &mut W, len: usize) -> Result<()> {
        self.stack
            .push(Frame::Array(Vec::with_capacity(len.min(1024))));
        Ok(())
    }
    fn write_array_end<W: Write>(&mut self, _: &mut W, _: usize) -> Result<()> {
        match self.stack.pop() {
            Some(Frame::Array(items)) => self.push(Value::Array(items)),
            _ => Err(Error::custom("array end without array start")),
        }
    }
    fn write_map_start<W: Write>(&mut self, _: &mut W, len: usize) -> Result<()> {
        self.stack
            .push(Frame::Map(Vec::with_capacity(len.min(1024)), None));
        Ok(())
    }
    fn write_map_end<W: Write>(&mut self, _: &mut W, _: usize) -> Result<()> {
        match self.stack.pop() {
            Some(Frame::Map(entries, None)) => self.push(Value::Map(entries)),
            _ => Err(Error::custom(
                "map end without map start, or a key without a value",
            )),
        }
    }
    fn write_time<W: Write>(&mut self, _: &mut W, t: &Time) -> Result<()> {
        self.push(Value::Time(*t))
    }
    fn write_ext<W: Write>(&mut self, _: &mut W, tag: u64, data: &[u8]) -> Result<()> {
        self.push(Value::Ext(tag, Box::from(data)))
    }
    fn write_tag<W: Write>(&mut self, _: &mut W, tag: u64) -> Result<()> {
        self.stack.push(Frame::Tag(tag));
        Ok(())
    }
    fn write_simple<W: Write>(&mut self, _: &mut W, v: u8) -> Result<()> {
        self.push(Value::Simple(v))
    }
    fn write_raw<W: Write>(&mut self, _: &mut W, _: &[u8]) -> Result<()> {
        Err(Error::unsupported(
            "raw encoded bytes cannot become a Value without a format",
        ))
    }
    fn side(&self) -> Self {
        ValueBuilder::default()
    }
}

enum Ev<'v> {
    Leaf(&'v Value),
    Array(usize),
    Map(usize),
    Tag(u64),
}

fn flatten<'v>(v: &'v Value, out: &mut Vec<Ev<'v>>) {
    match v {
        Value::Array(items) => {
            out.push(Ev::Array(items.len()));
            for i in items {
                flatten(i, out);
            }
        }
        Value::Map(entries) => {
            out.push(Ev::Map(entries.len()));
            for (k, v) in entries {
                flatten(k, out);
                flatten(v, out);
            }
        }
        Value::Tagged(t, inner) => {
            out.push(Ev::Tag(*t));
            flatten(inner, out);
        }
        leaf => out.push(Ev::Leaf(leaf)),
    }
}

/// A [`DecodeFormat`] that walks a [`Value`] tree instead of reading bytes.
pub struct ValueWalker<'v> {
    events: Vec<Ev<'v>>,
    pos: usize,
}

impl<'v> ValueWalker<'v> {
    fn peek(&self) -> Result<&Ev<'v>> {
        self.events.get(self.pos).ok_or_else(Error::eof)
    }

    fn kind(&self) -> Result<Kind> {
        Ok(match self.peek()? {
            Ev::Leaf(v) => v.kind(),
            Ev::Array(_) => Kind::Array,
            Ev::Map(_) => Kind::Map,
            Ev::Tag(_) => Kind::Tag,
        })
    }

    fn leaf(&mut self, expected: &'static str) -> Result<&'v Value> {
        match self.peek()? {
            Ev::Leaf(v) => {
                let v = *v;
                self.pos += 1;
                Ok(v)
            }
            _ => Err(self.kind()?.mismatch_unread(expected)),
        }
    }

    fn int(&mut self, expected: &'static str) -> Result<i128> {
        let v = self.leaf(expected)?;
        match v {
            Value::F32(_) | Value::F64(_) => {
                let f = v.as_f64().unwrap_or(f64::NAN);
                if f.fract() == 0.0 && f.abs() < 1.7e38 {
                    Ok(f as i128)
                } else {
                    Err(Error::out_of_range(expected, f))
                }
            }
            _ => v.as_i128().ok_or_else(|| value_mismatch(v, expected)),
        }
    }
}

/// A type mismatch for a leaf the walker has consumed, quoting its value.
#[cold]
fn value_mismatch(v: &Value, expected: &'static str) -> Error {
    let found = match v {
        Value::Nil => Found::Nil,
        Value::Bool(b) => Found::Bool(*b),
        Value::Int(n) => Found::Int(i128::from(*n)),
        Value::Uint(n) => Found::Uint(u128::from(*n)),
        Value::BigInt(n) => Found::Int(*n),
        Value::F32(x) => Found::Float(f64::from(*x)),
        Value::F64(x) => Found::Float(*x),
        Value::Str(s) => Found::Text {
            head: s.as_bytes(),
            len: s.len(),
        },
        Value::Bytes(b) => Found::Bytes(b.len()),
        Value::Array(a) => Found::Array(Some(a.len())),
        Value::Map(m) => Found::Map(Some(m.len())),
        Value::Ext(tag, data) => Found::Ext {
            tag: *tag,
            len: data.len(),
        },
        Value::Time(t) => Found::Time(*t),
        Value::Tagged(tag, _) => Found::Tag(*tag),
        Value::Simple(n) => Found::Simple(*n),
    };
    Error::type_mismatch(expected, found)
}

impl DecodeFormat for ValueWalker<'_> {
    const NAME: &'static str = "value";
    const EXT_STYLE: crate::ExtStyle = crate::ExtStyle::Tagged;

    fn peek_kind<'de, R: Read<'de>>(&mut self, _: &mut R) -> Result<Kind> {
        self.kind()
    }
    fn try_nil<'de, R: Read<'de>>(&mut self, _: &mut R) -> Result<bool> {
        if matches!(self.peek()?, Ev::Leaf(Value::Nil)) {
            self.pos += 1;
            return Ok(true);
        }
        Ok(false)
    }
    fn read_bool<'de, R: Read<'de>>(&mut self, _: &mut R) -> Result<bool> {
        let v = self.leaf("bool")?;
        v.as_bool().ok_or_else(|| value_mismatch(v, "bool"))
    }
    fn read_i64<'de, R: Read<'de>>(&mut self, _: &mut R) -> Result<i64> {
        let v = self.int("i64")?;
        i64::try_from(v).map_err(|_| Error::out_of_range("i64", v))
    }
    fn read_u64<'de, R: Read<'de>>(&mut self, _: &mut R) -> Result<u64> {
        let v = self.int("u64")?;
        u64::try_from(v).map_err(|_| Error::out_of_range("u64", v))
    }
    fn read_i128<'de, R: Read<'de>>(&mut self, _: &mut R) -> Result<i128> {
        self.int("i128")
    }
    fn read_u128<'de, R: Read<'de>>(&mut self, _: &mut R) -> Result<u128> {
        if let Ev::Tag(2) = self.peek()?
            && let Some(Ev::Leaf(Value::Bytes(b))) = self.events.get(self.pos + 1)
            && b.len() <= 16
        {
            self.pos += 2;
            return Ok(b.iter().fold(0u128, |acc, &x| (acc << 8) | x as u128));
        }
        let v = self.int("u128")?;
        u128::try_from(v).map_err(|_| Error::out_of_range("u128", v))
    }
    fn read_f64<'de, R: Read<'de>>(&mut self, _: &mut R) -> Result<f64> {
        let v = self.leaf("f64")?;
        v.as_f64().ok_or_else(|| value_mismatch(v, "f64"))
    }
    fn read_f32<'de, R: Read<'de>>(&mut self, _: &mut R) -> Result<f32> {
        let v = self.leaf("f32")?;
        match v {
            Value::F32(f) => Ok(*f),
            _ => match v.as_f64() {
                // As the formats do: a finite value beyond `f32`'s range
                // is an error, not an infinity.
                Some(f) if f.is_finite() && f.abs() > f64::from(f32::MAX) => {
                    Err(Error::out_of_range("f32", format_args!("{f:?}")))
                }
                Some(f) => Ok(f as f32),
                None => Err(value_mismatch(v, "f32")),
            },
        }
    }
    fn read_str<'de, 's, R: Read<'de>>(
        &mut self,
        _: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, str>> {
        let v = self.leaf("text string")?;
        scratch.clear();
        match v {
            Value::Str(s) => scratch.extend_from_slice(s.as_bytes()),
            Value::Bytes(b) => scratch.extend_from_slice(b),
            other => return Err(value_mismatch(other, "text string")),
        }
        crate::str_from_utf8(scratch).map(Reference::Copied)
    }
    fn read_bytes<'de, 's, R: Read<'de>>(
        &mut self,
        _: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        let v = self.leaf("byte string")?;
        scratch.clear();
        match v {
            Value::Str(s) => scratch.extend_from_slice(s.as_bytes()),
            Value::Bytes(b) => scratch.extend_from_slice(b),
            other => return Err(value_mismatch(other, "byte string")),
        }
        Ok(Reference::Copied(&scratch[..]))
    }
    fn array_begin<'de, R: Read<'de>>(&mut self, _: &mut R) -> Result<Seq> {
        match self.peek()? {
            Ev::Array(n) => {
                let n = *n;
                self.pos += 1;
                Ok(Seq::definite(n))
            }
            _ => Err(self.kind()?.mismatch_unread("array")),
        }
    }
    fn array_next<'de, R: Read<'de>>(&mut self, _: &mut R, seq: &mut Seq) -> Result<bool> {
        Ok(seq.next_definite(seq.len.unwrap_or(0)))
    }
    fn map_begin<'de, R: Read<'de>>(&mut self, _: &mut R) -> Result<Seq> {
        match self.peek()? {
            Ev::Map(n) => {
                let n = *n;
                self.pos += 1;
                Ok(Seq::definite(n))
            }
            _ => Err(self.kind()?.mismatch_unread("map")),
        }
    }
    fn map_next<'de, R: Read<'de>>(&mut self, _: &mut R, seq: &mut Seq) -> Result<bool> {
        Ok(seq.next_definite(seq.len.unwrap_or(0)))
    }
    fn read_time<'de, R: Read<'de>>(&mut self, _: &mut R, _: &mut Vec<u8>) -> Result<Time> {
        match self.leaf("timestamp")? {
            Value::Time(t) => Ok(*t),
            Value::Str(s) => Time::parse_rfc3339(s),
            other => Err(value_mismatch(other, "timestamp")),
        }
    }
    fn read_ext<'de, 's, R: Read<'de>>(
        &mut self,
        _: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<(u64, Reference<'de, 's, [u8]>)> {
        match self.leaf("extension")? {
            Value::Ext(t, b) => {
                scratch.clear();
                scratch.extend_from_slice(b);
                Ok((*t, Reference::Copied(&scratch[..])))
            }
            other => Err(value_mismatch(other, "extension")),
        }
    }
    fn read_tag<'de, R: Read<'de>>(&mut self, _: &mut R) -> Result<u64> {
        match self.peek()? {
            Ev::Tag(t) => {
                let t = *t;
                self.pos += 1;
                Ok(t)
            }
            Ev::Leaf(Value::Ext(t, _)) => Err(Error::unsupported(format!(
                "the extension with tag {t} holds its content encoded in the format it was \
                 read from; convert with from_value_in and that format's handle"
            ))),
            _ => Err(self.kind()?.mismatch_unread("tag")),
        }
    }
    fn read_simple<'de, R: Read<'de>>(&mut self, _: &mut R) -> Result<u8> {
        match self.leaf("simple value")? {
            Value::Simple(v) => Ok(*v),
            other => Err(value_mismatch(other, "simple value")),
        }
    }
}
