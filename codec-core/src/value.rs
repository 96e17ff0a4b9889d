//! [`Value`]: the dynamic document a decoder builds when no Rust type is given
//! (ugorji decodes into `interface{}`).

use crate::encode::CanonicalKey;
use crate::options::ValueMaps;
use crate::{
    Decode, DecodeFormat, Decoder, Encode, EncodeFormat, Encoder, KeyStep, Kind, Read, Result,
    Text, Time, Write,
};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

/// Any value of any of the five formats.
///
/// Integers keep the format's signed/unsigned choice (ugorji's `int64` vs
/// `uint64`), floats keep their width, maps keep their order and allow any
/// key. Equality and ordering compare floats by their bits, so `Value` is
/// `Eq`, `Ord` and `Hash` and can itself be a map key (NaN equals NaN;
/// `0.0` and `-0.0` differ).
#[derive(Clone, Debug, Default)]
pub enum Value {
    /// nil / null.
    #[default]
    Nil,
    /// A bool.
    Bool(bool),
    /// A signed integer.
    Int(i64),
    /// An unsigned integer.
    Uint(u64),
    /// An integer beyond the 64-bit ranges (CBOR -2^64, bignums up to 128 bits).
    BigInt(i128),
    /// A 32-bit float (also CBOR half floats, widened exactly).
    F32(f32),
    /// A 64-bit float.
    F64(f64),
    /// A text string (short ones kept inline: see [`Text`]).
    Str(Text),
    /// A byte string.
    Bytes(Vec<u8>),
    /// An array.
    Array(Vec<Value>),
    /// A map, in document order, with keys of any kind.
    Map(Vec<(Value, Value)>),
    /// An extension: tag number and data (msgpack ext, binc/simple custom).
    /// The data is a boxed slice rather than a `Vec` so that, with the
    /// tag number, it takes 24 bytes: a `Value` is 32 bytes and keeps text
    /// of up to 30 bytes inline ([`Text`]).
    Ext(u64, Box<[u8]>),
    /// A timestamp.
    Time(Time),
    /// A tagged value (CBOR tags), as [`to_value`](crate::to_value) also
    /// gives for an [`InterfaceExt`](crate::InterfaceExt) type. JSON writes
    /// the value alone; msgpack, binc and simple write an extension whose
    /// data is the value's own encoding in that format, as they write an
    /// `InterfaceExt` type (reading such bytes back into a `Value` gives
    /// [`Value::Ext`]; [`from_value_in`](crate::from_value_in) reads either).
    Tagged(u64, Box<Value>),
    /// A simple value other than false/true/null (CBOR; 23 is `undefined`).
    Simple(u8),
}

impl Value {
    /// The kind of item this value encodes as.
    pub fn kind(&self) -> Kind {
        match self {
            Value::Nil => Kind::Nil,
            Value::Bool(_) => Kind::Bool,
            Value::Int(_) => Kind::Int,
            Value::Uint(_) => Kind::Uint,
            Value::BigInt(_) => Kind::BigInt,
            Value::F32(_) => Kind::Float32,
            Value::F64(_) => Kind::Float64,
            Value::Str(_) => Kind::Str,
            Value::Bytes(_) => Kind::Bytes,
            Value::Array(_) => Kind::Array,
            Value::Map(_) => Kind::Map,
            Value::Ext(..) => Kind::Ext,
            Value::Time(_) => Kind::Time,
            Value::Tagged(..) => Kind::Tag,
            Value::Simple(_) => Kind::Simple,
        }
    }

    /// Whether this is `Nil`.
    pub fn is_nil(&self) -> bool {
        matches!(self, Value::Nil)
    }

    /// The text, if this is a text string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The bytes, if this is a byte string.
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Value::Bytes(b) => Some(b),
            _ => None,
        }
    }

    /// The bool, if this is a bool.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The integer as `i64`, if this is an integer that fits.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::Int(v) => Some(v),
            Value::Uint(v) => i64::try_from(v).ok(),
            Value::BigInt(v) => i64::try_from(v).ok(),
            _ => None,
        }
    }

    /// The integer as `u64`, if this is an integer that fits.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::Int(v) => u64::try_from(v).ok(),
            Value::Uint(v) => Some(v),
            Value::BigInt(v) => u64::try_from(v).ok(),
            _ => None,
        }
    }

    /// The integer as `i128`, if this is an integer.
    pub fn as_i128(&self) -> Option<i128> {
        match *self {
            Value::Int(v) => Some(v as i128),
            Value::Uint(v) => Some(v as i128),
            Value::BigInt(v) => Some(v),
            _ => None,
        }
    }

    /// The number as `f64`, if this is a float (or an integer, converted).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::F32(v) => Some(v as f64),
            Value::F64(v) => Some(v),
            Value::Int(v) => Some(v as f64),
            Value::Uint(v) => Some(v as f64),
            Value::BigInt(v) => Some(v as f64),
            _ => None,
        }
    }

    /// The items, if this is an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The entries, if this is a map.
    pub fn as_map(&self) -> Option<&[(Value, Value)]> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The value under the text key `key`, if this is a map that has it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_map()?
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }

    fn rank(&self) -> u8 {
        match self {
            Value::Nil => 0,
            Value::Bool(_) => 1,
            Value::Int(_) => 2,
            Value::Uint(_) => 3,
            Value::BigInt(_) => 4,
            Value::F32(_) => 5,
            Value::F64(_) => 6,
            Value::Str(_) => 7,
            Value::Bytes(_) => 8,
            Value::Array(_) => 9,
            Value::Map(_) => 10,
            Value::Ext(..) => 11,
            Value::Time(_) => 12,
            Value::Tagged(..) => 13,
            Value::Simple(_) => 14,
        }
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        use Value::*;
        match (self, other) {
            (Nil, Nil) => Ordering::Equal,
            (Bool(a), Bool(b)) => a.cmp(b),
            (Int(a), Int(b)) => a.cmp(b),
            (Uint(a), Uint(b)) => a.cmp(b),
            (BigInt(a), BigInt(b)) => a.cmp(b),
            (F32(a), F32(b)) => a.to_bits().cmp(&b.to_bits()),
            (F64(a), F64(b)) => a.to_bits().cmp(&b.to_bits()),
            (Str(a), Str(b)) => a.cmp(b),
            (Bytes(a), Bytes(b)) => a.cmp(b),
            (Array(a), Array(b)) => a.cmp(b),
            (Map(a), Map(b)) => a.cmp(b),
            (Ext(t, a), Ext(u, b)) => (t, a).cmp(&(u, b)),
            (Time(a), Time(b)) => a.cmp(b),
            (Tagged(t, a), Tagged(u, b)) => (t, a).cmp(&(u, b)),
            (Simple(a), Simple(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Value {}

impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.rank().hash(state);
        match self {
            Value::Nil => {}
            Value::Bool(b) => b.hash(state),
            Value::Int(v) => v.hash(state),
            Value::Uint(v) => v.hash(state),
            Value::BigInt(v) => v.hash(state),
            Value::F32(v) => v.to_bits().hash(state),
            Value::F64(v) => v.to_bits().hash(state),
            Value::Str(s) => s.hash(state),
            Value::Bytes(b) => b.hash(state),
            Value::Array(a) => a.hash(state),
            Value::Map(m) => m.hash(state),
            Value::Ext(t, b) => (t, b).hash(state),
            Value::Time(t) => t.hash(state),
            Value::Tagged(t, v) => (t, v).hash(state),
            Value::Simple(v) => v.hash(state),
        }
    }
}

impl fmt::Display for Value {
    /// A compact diagnostic form, close to CBOR diagnostic notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Nil => f.write_str("nil"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(v) => write!(f, "{v}"),
            Value::Uint(v) => write!(f, "{v}"),
            Value::BigInt(v) => write!(f, "{v}"),
            Value::F32(v) => write!(f, "{v:?}"),
            Value::F64(v) => write!(f, "{v:?}"),
            Value::Str(s) => write!(f, "{s:?}"),
            Value::Bytes(b) => {
                f.write_str("h'")?;
                for x in b {
                    write!(f, "{x:02x}")?;
                }
                f.write_str("'")
            }
            Value::Array(a) => {
                f.write_str("[")?;
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Value::Map(m) => {
                f.write_str("{")?;
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                f.write_str("}")
            }
            Value::Ext(t, b) => write!(f, "ext({t}, {})", Value::Bytes(b.to_vec())),
            Value::Time(t) => write!(f, "time({t})"),
            Value::Tagged(t, v) => write!(f, "{t}({v})"),
            Value::Simple(v) => write!(f, "simple({v})"),
        }
    }
}

impl Encode for Value {
    // Containers go to `encode_items` and `encode_entries`, which call
    // back here for each item; the other kinds are written inline, so an
    // item that is not a container costs no call of its own.
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        match self {
            Value::Nil => e.encode_nil(),
            Value::Bool(b) => e.encode_bool(*b),
            Value::Int(v) => e.encode_i64(*v),
            Value::Uint(v) => e.encode_u64(*v),
            Value::BigInt(v) => e.encode_i128(*v),
            Value::F32(v) => e.encode_f32(*v),
            Value::F64(v) => e.encode_f64(*v),
            Value::Str(s) => e.encode_str(s),
            Value::Bytes(b) => e.encode_bytes(b),
            Value::Array(a) => encode_items(e, a),
            Value::Map(m) => encode_entries(e, m),
            Value::Ext(t, b) => e.encode_ext(*t, b),
            Value::Time(t) => e.encode_time(t),
            Value::Tagged(t, v) => encode_tagged(e, *t, v),
            Value::Simple(v) => e.encode_simple(*v),
        }
    }

    fn is_empty_value(&self) -> bool {
        match self {
            Value::Nil => true,
            Value::Bool(b) => !b,
            Value::Int(v) => *v == 0,
            Value::Uint(v) => *v == 0,
            Value::BigInt(v) => *v == 0,
            Value::F32(v) => v.to_bits() == 0,
            Value::F64(v) => v.to_bits() == 0,
            Value::Str(s) => s.is_empty(),
            Value::Bytes(b) => b.is_empty(),
            Value::Array(a) => a.is_empty(),
            Value::Map(m) => m.is_empty(),
            _ => false,
        }
    }

    /// Dynamic keys sort by their encoded bytes (ugorji's rule for `interface{}` keys).
    fn canonical_key(&self) -> CanonicalKey<'_> {
        CanonicalKey::Encoded
    }
}

/// An array of values (see [`Value::encode`]).
#[inline(never)]
fn encode_items<W: Write, F: EncodeFormat>(e: &mut Encoder<W, F>, items: &[Value]) -> Result<()> {
    e.encode_array_items(items)
}

/// A map of values in document order (see [`Value::encode`]); sorted as
/// [`Encoder::encode_map_iter`] sorts when the format or `canonical` asks.
#[inline(never)]
fn encode_entries<W: Write, F: EncodeFormat>(
    e: &mut Encoder<W, F>,
    m: &[(Value, Value)],
) -> Result<()> {
    e.encode_map_iter(m.len(), m.iter().map(|(k, v)| (k, v)), false)
}

#[inline(never)]
fn encode_tagged<W: Write, F: EncodeFormat>(
    e: &mut Encoder<W, F>,
    tag: u64,
    v: &Value,
) -> Result<()> {
    // The format's way of writing a value under a tag: a CBOR tag, the value
    // alone in JSON, an extension holding the value's own encoding in
    // msgpack, binc and simple (as an `InterfaceExt` type is written, so
    // that `to_value` then `to_vec` gives the bytes the type gives).
    e.encode_ext_value(tag, v)
}

impl<'de> Decode<'de> for Value {
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        if let Some(v) = d.decode_scalar_value()? {
            return Ok(v);
        }
        decode_other(d)
    }

    #[inline]
    fn missing() -> Option<Self> {
        Some(Value::Nil)
    }

    /// Text keys as `["key"]`, integer and bool keys as `[5]`; others by position.
    #[cold]
    fn path_segment(&self) -> Option<crate::PathSegment> {
        use crate::PathSegment::{Key, KeyLiteral};
        match self {
            Value::Str(s) => Some(Key(s.to_string())),
            Value::Int(n) => Some(KeyLiteral(n.to_string())),
            Value::Uint(n) => Some(KeyLiteral(n.to_string())),
            Value::BigInt(n) => Some(KeyLiteral(n.to_string())),
            Value::Bool(b) => Some(KeyLiteral(b.to_string())),
            _ => None,
        }
    }

    /// Merges into the existing value when the input has the same kind (ugorji's
    /// default; `interface_reset` always replaces): a map's entries are
    /// decoded into the entries with equal keys (or replace them with
    /// `map_value_reset`, or are removed by nil with `delete_on_nil_map_value`)
    /// and other keys are appended; an array's items are decoded into in
    /// place; bytes reuse their buffer. Other kinds replace the value.
    fn decode_into<R: Read<'de>, F: DecodeFormat>(
        &mut self,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()> {
        if d.options().interface_reset {
            *self = Value::decode(d)?;
            return Ok(());
        }
        match (&mut *self, d.peek_kind()?) {
            (Value::Map(m), Kind::Map) => d.decode_map_into(
                m,
                |m, k| m.iter_mut().find(|(ek, _)| ek == k).map(|(_, v)| v),
                |m, k, v| m.push((k, v)),
                |m, k| m.retain(|(ek, _)| ek != k),
            ),
            (Value::Array(a), Kind::Array) => d.decode_array_into_vec(a),
            (Value::Str(s), Kind::Str) => s.decode_into(d),
            (Value::Bytes(b), Kind::Bytes) => {
                let data = d.decode_bytes()?;
                b.clear();
                b.extend_from_slice(&data);
                Ok(())
            }
            _ => {
                *self = Value::decode(d)?;
                Ok(())
            }
        }
    }
}

/// Everything but the scalars the format reads in one step
/// ([`Decoder::decode_scalar_value`]), which the caller has tried first.
#[inline]
fn decode_other<'de, R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Value> {
    let mut out = Value::Nil;
    decode_other_with(d, |_, v| out = v)?;
    Ok(out)
}

/// [`decode_other`], handing the value to `put` (with the decoder) in the
/// branch that made it, so that it is built straight where `put` stores
/// it: an item or entry slot of a container being read.
///
/// Returned instead, the value comes back through a copy on the stack,
/// written in pieces (a tag byte, then the fields) and read back whole
/// at once to be stored in its slot. Such a read cannot take its bytes
/// from the pending stores and waits until they, and every store before
/// them, have reached the cache: behind a container's items just moved
/// into fresh memory, or a long string just copied, that was 8 % of the
/// time of decoding `twitter.json` into a `Value`.
#[inline]
fn decode_other_with<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    put: impl FnOnce(&mut Decoder<'de, R, F>, Value),
) -> Result<()> {
    match d.peek_kind()? {
        Kind::Array => {
            let a = decode_items(d)?;
            put(d, Value::Array(a));
        }
        Kind::Map => {
            let m = if d.options().value_maps == ValueMaps::Ordered
                && !d.format_mut().reject_duplicate_keys()
            {
                decode_entries(d)?
            } else {
                decode_settled_entries(d)?
            };
            put(d, Value::Map(m));
        }
        rare @ (Kind::Ext | Kind::Time | Kind::Tag | Kind::Simple) => {
            let v = decode_rare(d, rare)?;
            put(d, v);
        }
        scalar => decode_scalar_with(d, scalar, put)?,
    }
    Ok(())
}

/// The scalar arms of [`decode_other_with`], which recurses for every
/// container. Apart, so that an unoptimised build (which gives every
/// temporary of a function's inlined callees its own stack slot) keeps
/// that recursion's frame small: 256 nested arrays took 2.4 MB of stack
/// with these arms inside, more than a test thread has. Optimised, this
/// is inlined back. For the same reason the `put` closures along the
/// recursion (and the decoder's container steps) are forced inline only
/// where `debug_assertions` are off, as in optimised builds: 256 nested
/// arrays or maps now take 0.4 to 0.6 MB unoptimised
/// (`codec/tests/deep_nesting.rs`).
#[inline]
fn decode_scalar_with<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    kind: Kind,
    put: impl FnOnce(&mut Decoder<'de, R, F>, Value),
) -> Result<()> {
    match kind {
        Kind::Nil => {
            d.decode_nil()?;
            put(d, Value::Nil);
        }
        Kind::Bool => {
            let b = d.decode_bool()?;
            put(d, Value::Bool(b));
        }
        Kind::Int | Kind::Uint if d.prefer_float() => {
            let f = d.decode_f64()?;
            put(d, Value::F64(f));
        }
        Kind::Int => {
            let i = d.decode_i64()?;
            put(d, Value::Int(i));
        }
        Kind::Uint => {
            let v = d.decode_u64()?;
            match i64::try_from(v) {
                Ok(i) if d.options().signed_integer => put(d, Value::Int(i)),
                _ => put(d, Value::Uint(v)),
            }
        }
        Kind::BigInt => {
            let i = d.decode_i128()?;
            put(d, Value::BigInt(i));
        }
        Kind::Float32 => {
            let f = d.decode_f32()?;
            put(d, Value::F32(f));
        }
        Kind::Float64 => {
            let f = d.decode_f64()?;
            put(d, Value::F64(f));
        }
        Kind::Str => {
            let t = Text::from(&*d.decode_str()?);
            put(d, Value::Str(t));
        }
        // Kind::Bytes (the only other kind passed here).
        _ => {
            let b = d.decode_bytes()?.to_vec();
            put(d, Value::Bytes(b));
        }
    }
    Ok(())
}

/// A map's entries under [`ValueMaps`] other than the default `Ordered`,
/// or the format's duplicate-key rule. Kept out of [`decode_other_with`],
/// which recurses for every container, so that its stack frame stays
/// small.
#[cold]
#[inline(never)]
fn decode_settled_entries<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
) -> Result<Vec<(Value, Value)>> {
    let mode = d.options().value_maps;
    let mut m = if mode == ValueMaps::RejectDuplicates || d.format_mut().reject_duplicate_keys() {
        decode_unique_entries(d)?
    } else {
        decode_entries(d)?
    };
    match mode {
        ValueMaps::LastWins => dedup_last_wins(&mut m),
        ValueMaps::Sorted => {
            dedup_last_wins(&mut m);
            m.sort_by(|a, b| a.0.cmp(&b.0));
        }
        _ => {}
    }
    Ok(m)
}

/// A map's entries, a key that repeats an earlier one an error at the
/// repeated key, as soon as it is read: `duplicate map key "b"` at
/// `[key of entry 2]`. Keys are found by hash, each compared with the
/// earlier keys of its hash only (chained by index, so none is cloned),
/// so a large map costs no more than a hash set.
fn decode_unique_entries<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
) -> Result<Vec<(Value, Value)>> {
    use std::hash::BuildHasher;
    let mut seq = d.map_begin()?;
    let size = std::mem::size_of::<(Value, Value)>();
    let reserved = d.prealloc(seq.len, size);
    let mut out = Vec::with_capacity(reserved);
    let hasher = std::collections::hash_map::RandomState::new();
    // The last entry with each hash; before each entry, the one before it.
    let mut last = std::collections::HashMap::<u64, usize>::new();
    let mut before: Vec<Option<usize>> = Vec::new();
    while d.map_next(&mut seq)? {
        let i = seq.index - 1;
        let at = d.next_item_offset();
        entry_key(d, i, &mut out)?;
        let key = &out[i].0;
        let hash = hasher.hash_one(key);
        let mut same = last.get(&hash).copied();
        while let Some(j) = same {
            if out[j].0 == *key {
                return Err(crate::Error::syntax(format!("duplicate map key {key}"))
                    .at(at)
                    .in_entry_key(i));
            }
            same = before[j];
        }
        before.push(last.insert(hash, i));
        d.map_value(&mut seq)?;
        entry_value(d, i, &mut out)?;
    }
    d.release(reserved, size);
    d.map_end(seq)?;
    Ok(out)
}

/// The kinds no text format produces (extensions, times, tags, simple
/// values), out of line for the same reason as [`decode_settled_entries`]:
/// a tag, whose content [`Value::decode`] recurses into, here; the others in
/// [`decode_leaf`].
#[inline(never)]
fn decode_rare<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    kind: Kind,
) -> Result<Value> {
    if kind != Kind::Tag {
        return decode_leaf(d, kind);
    }
    // Entered before the tag is read: a depth error points at it.
    d.enter_nested()?;
    let t = d.decode_tag()?;
    let v = Value::decode(d)?;
    d.leave();
    Ok(Value::Tagged(t, Box::new(v)))
}

/// An extension, a time or a simple value, apart from [`decode_rare`]
/// for the reason [`decode_scalar_with`] gives.
#[inline(never)]
fn decode_leaf<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    kind: Kind,
) -> Result<Value> {
    Ok(match kind {
        Kind::Ext => {
            let (t, b) = d.decode_ext()?;
            Value::Ext(t, Box::from(&*b))
        }
        Kind::Time => Value::Time(d.decode_time()?),
        // Kind::Simple (the only other kind passed here).
        _ => Value::Simple(d.decode_simple()?),
    })
}

/// The items of an array (its header next). With a declared length the
/// `Vec` is sized up front (within `max_prealloc`); without one (JSON,
/// indefinite CBOR) the items gather on the decoder's stack and move into a
/// `Vec` of exactly their number, instead of growing it by doubling.
fn decode_items<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
) -> Result<Vec<Value>> {
    let seq = d.array_begin()?;
    if seq.len.is_some() {
        return decode_counted_items(d, seq);
    }
    let start = d.value_stack.len();
    match gather_items(d, seq) {
        Ok(()) => Ok(take_tail(&mut d.value_stack, start)),
        Err(e) => {
            d.value_stack.truncate(start);
            Err(e)
        }
    }
}

/// The items of an array of declared length, into a `Vec` sized up front.
#[inline]
fn decode_counted_items<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    mut seq: crate::Seq,
) -> Result<Vec<Value>> {
    let reserved = d.prealloc(seq.len, std::mem::size_of::<Value>());
    let mut out = Vec::with_capacity(reserved);
    while d.array_next(&mut seq)? {
        let i = seq.index - 1;
        // Built in its slot, as on the stack below.
        make_room(&mut out);
        let placed = d.scalar_value(
            #[cfg_attr(not(debug_assertions), inline(always))]
            |_, _, v| push_into_room(&mut out, v),
        );
        if placed.map_err(|e| e.in_index(i))?.is_none() {
            decode_other_with(
                d,
                #[cfg_attr(not(debug_assertions), inline(always))]
                |_, v| push_into_room(&mut out, v),
            )
            .map_err(|e| e.in_index(i))?;
        }
    }
    d.release(reserved, std::mem::size_of::<Value>());
    d.array_end(seq)?;
    Ok(out)
}

/// The items of a delimited array, pushed onto the decoder's item stack.
/// `seq` is this function's own (not a captured one a closure reaches
/// through a pointer), so that it lives in registers: the copy that
/// `array_end` takes of it in memory was read back whole right after
/// its fields were written, and waited for the stores before it.
fn gather_items<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    mut seq: crate::Seq,
) -> Result<()> {
    while d.array_next(&mut seq)? {
        let i = seq.index - 1;
        push_item(d).map_err(|e| e.in_index(i))?;
    }
    d.array_end(seq)
}

/// The entries of a map (its header next), collected as [`decode_items`]
/// collects an array's items.
fn decode_entries<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
) -> Result<Vec<(Value, Value)>> {
    let mut seq = d.map_begin()?;
    if seq.len.is_some() {
        let size = std::mem::size_of::<(Value, Value)>();
        let reserved = d.prealloc(seq.len, size);
        let mut out = Vec::with_capacity(reserved);
        while d.map_next(&mut seq)? {
            decode_entry(d, &mut seq, &mut out)?;
        }
        d.release(reserved, size);
        d.map_end(seq)?;
        return Ok(out);
    }
    let start = d.entry_stack.len();
    match gather_entries(d, seq) {
        Ok(()) => Ok(take_tail(&mut d.entry_stack, start)),
        Err(e) => {
            d.entry_stack.truncate(start);
            Err(e)
        }
    }
}

/// The entries of a delimited map, pushed onto the decoder's entry stack
/// (`seq` its own, as in [`gather_items`]).
fn gather_entries<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    mut seq: crate::Seq,
) -> Result<()> {
    let text_keys = d.format_mut().value_keys_are_text();
    loop {
        let i = seq.index;
        let step = if text_keys {
            // Separator, key and `:` in one step where the format can.
            d.push_text_entry_key(&mut seq)?
        } else if d.map_next(&mut seq)? {
            KeyStep::Next
        } else {
            KeyStep::End
        };
        match step {
            KeyStep::Key(()) => {}
            KeyStep::End => break,
            KeyStep::Next => {
                // The key goes on the stack with a `Nil` value, which the
                // value then replaces: both built in place.
                // (`push_scalar_entry_key` makes the room.)
                if !d.push_scalar_entry_key().map_err(|e| e.in_entry_key(i))? {
                    decode_other_with(
                        d,
                        #[cfg_attr(not(debug_assertions), inline(always))]
                        |d, k| push_into_room(&mut d.entry_stack, (k, Value::Nil)),
                    )
                    .map_err(|e| e.in_entry_key(i))?;
                }
                d.map_value(&mut seq)?;
            }
        }
        let at = d.entry_stack.len() - 1;
        let put = match d.put_scalar_entry_value() {
            Ok(false) => decode_other_with(
                d,
                #[cfg_attr(not(debug_assertions), inline(always))]
                |d, v| fill_entry(&mut d.entry_stack, at, v),
            ),
            done => done.map(drop),
        };
        if let Err(e) = put {
            let key = d.entry_stack.get(at).and_then(|e| e.0.path_segment());
            return Err(e.within(key.unwrap_or(crate::PathSegment::Index(i))));
        }
    }
    d.map_end(seq)
}

/// Decodes the next item onto the decoder's `Value` item stack: a scalar
/// the format reads in one step is built there in place
/// ([`DecodeFormat::read_scalar_value`]), anything else as
/// [`decode_other_with`] makes it.
#[inline]
fn push_item<'de, R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<()> {
    // (`push_scalar_item` makes the room.)
    if !d.push_scalar_item()? {
        decode_other_with(
            d,
            #[cfg_attr(not(debug_assertions), inline(always))]
            |d, v| push_into_room(&mut d.value_stack, v),
        )?;
    }
    Ok(())
}

/// Puts `v` in the value half of `entries[at]`, which holds the `Nil`
/// its key was pushed with: nothing to drop in replacing it.
#[inline(always)]
pub(crate) fn fill_entry(entries: &mut [(Value, Value)], at: usize, v: Value) {
    match entries.get_mut(at) {
        Some(e) => std::mem::forget(std::mem::replace(&mut e.1, v)),
        // Not reached: the callers' key is at `at`, and a nested decode
        // leaves the stack as it found it. Forgotten rather than dropped,
        // so that `v` need not be in memory for a drop call here: built in
        // registers, it is stored once, in its slot (see
        // `decode_other_with`).
        None => std::mem::forget(v),
    }
}

/// Pushes `make()` onto one of a decoder's `Value` stacks
/// ([`make_stack_room`]), built in its slot. `Vec::push` left out of line
/// takes the value by reference to a copy on the caller's stack, written
/// in pieces (a `Text`'s bytes start at an odd offset) and read back whole
/// right away: each such read waits for the pieces to retire, which cost
/// more than the rest of a short key's decoding.
#[inline(always)]
pub(crate) fn push_on_stack<T>(stack: &mut Vec<T>, make: impl FnOnce() -> T) {
    make_stack_room(stack);
    push_into_room(stack, make());
}

/// Room for one more item in `items`, growing it as `Vec::push` would.
///
/// A value built before its push is stored as it is built, in its slot,
/// only if nothing it must survive lies between: a possible call to grow
/// the `Vec` made it go through a temporary on the stack, written in
/// pieces and copied whole with loads that waited for those pieces (45 %
/// of the array loop's samples on a small document into `Value`; with the
/// room made first, MessagePack's twitter.json into `Value` took 11 % less
/// time). So the room is made first, then the value is built, then
/// [`push_into_room`] stores it.
#[inline(always)]
pub(crate) fn make_room<T>(items: &mut Vec<T>) {
    if items.len() == items.capacity() {
        items.reserve(1);
    }
}

/// [`make_room`] on one of a decoder's `Value` stacks, which start empty
/// with each decoder: one made for a small document grew 4, 8, 16, 32
/// items, a reallocation and a copy each time (7 % of decoding a 350-byte
/// map of eight fields into `Value`). The first push takes 1 KB at once,
/// the most glibc serves from its per-thread cache (32 items, or 16
/// entries); then the stack doubles as before. Not for a `Vec` that is
/// handed out: it would keep that capacity.
#[inline(always)]
pub(crate) fn make_stack_room<T>(stack: &mut Vec<T>) {
    if stack.len() == stack.capacity() {
        grow_stack(stack);
    }
}

/// Bytes a decoder's `Value` stack takes at its first push.
const FIRST_STACK_BYTES: usize = 1024;

#[cold]
#[inline(never)]
fn grow_stack<T>(stack: &mut Vec<T>) {
    let first = FIRST_STACK_BYTES / std::mem::size_of::<T>().max(1);
    stack.reserve(if stack.capacity() == 0 { first } else { 1 });
}

/// Pushes `x` into the room [`make_room`] or [`make_stack_room`] made
/// before it was built. A nested decode in between may push onto the same
/// stack, but it takes off what it pushed and a `Vec` never gives back
/// capacity, so the room is still there. Were it not, `x` would be
/// forgotten rather than pushed through a call (which would put it in
/// memory on every path); that cannot happen.
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) fn push_into_room<T>(items: &mut Vec<T>, x: T) {
    let len = items.len();
    match items.spare_capacity_mut().first_mut() {
        Some(slot) => {
            slot.write(x);
            // SAFETY: the slot at `len` (inside the capacity) was just
            // initialised, and the ones before it already were. Exercised
            // by every test that decodes a document into a `Value`, and at
            // every growth boundary, from empty and from a stack's first
            // 1 KB, by `pushes_grow_and_keep_every_item` below.
            unsafe { items.set_len(len + 1) };
        }
        None => {
            debug_assert!(false, "no room made for a push");
            std::mem::forget(x);
        }
    }
}

/// The items of `stack` from `start` on, moved into a `Vec` of their
/// number with one copy (`collect` from a `Drain` moves them one at a
/// time); `stack` keeps its buffer for the next container.
#[inline]
fn take_tail<T>(stack: &mut Vec<T>, start: usize) -> Vec<T> {
    if start == 0 {
        // `split_off(0)` would hand over the stack's own buffer, capacity
        // and all, and leave the stack a new one.
        let mut out = Vec::with_capacity(stack.len());
        out.append(stack);
        out
    } else {
        stack.split_off(start)
    }
}

/// One map entry, its key already announced by `map_next`, pushed onto
/// `out`: key and value built in their slot where the format reads them in
/// one step. An error in the value names the entry by key (`["alice"]`,
/// `[5]`), else by position.
#[inline]
fn decode_entry<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    seq: &mut crate::Seq,
    out: &mut Vec<(Value, Value)>,
) -> Result<()> {
    let i = seq.index - 1;
    entry_key(d, i, out)?;
    d.map_value(seq)?;
    entry_value(d, i, out)
}

/// The key of entry `i`, pushed onto `out` with a `Nil` value, which
/// [`entry_value`] then replaces.
#[inline(always)]
fn entry_key<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    i: usize,
    out: &mut Vec<(Value, Value)>,
) -> Result<()> {
    make_room(out);
    let placed = d.scalar_value(
        #[cfg_attr(not(debug_assertions), inline(always))]
        |_, _, k| push_into_room(out, (k, Value::Nil)),
    );
    if placed.map_err(|e| e.in_entry_key(i))?.is_none() {
        decode_other_with(
            d,
            #[cfg_attr(not(debug_assertions), inline(always))]
            |_, k| push_into_room(out, (k, Value::Nil)),
        )
        .map_err(|e| e.in_entry_key(i))?;
    }
    Ok(())
}

/// The value of entry `i`, the last of `out`, its key pushed by
/// [`entry_key`]. An error in it names the entry by key (`["alice"]`,
/// `[5]`), else by position.
#[inline(always)]
fn entry_value<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    i: usize,
    out: &mut [(Value, Value)],
) -> Result<()> {
    #[inline(always)]
    fn fill(out: &mut [(Value, Value)], v: Value) {
        fill_entry(out, out.len().wrapping_sub(1), v);
    }
    let put = match d.scalar_value(
        #[cfg_attr(not(debug_assertions), inline(always))]
        |_, _, v| fill(out, v),
    ) {
        Ok(None) => decode_other_with(
            d,
            #[cfg_attr(not(debug_assertions), inline(always))]
            |_, v| fill(out, v),
        ),
        done => done.map(drop),
    };
    put.map_err(|e| {
        let key = out.last().and_then(|e| e.0.path_segment());
        e.within(key.unwrap_or(crate::PathSegment::Index(i)))
    })
}

/// Keeps the first position of each key with the last value given for it.
fn dedup_last_wins(m: &mut Vec<(Value, Value)>) {
    use std::collections::hash_map::{Entry, HashMap};
    if m.len() < 2 {
        return;
    }
    // (later entry, first entry of its key), found without cloning a key:
    // a key that is itself a large map is hashed, not copied, at each level.
    let dups: Vec<(usize, usize)> = {
        let mut first: HashMap<&Value, usize> = HashMap::with_capacity(m.len());
        m.iter()
            .enumerate()
            .filter_map(|(j, (k, _))| match first.entry(k) {
                Entry::Occupied(e) => Some((j, *e.get())),
                Entry::Vacant(e) => {
                    e.insert(j);
                    None
                }
            })
            .collect()
    };
    if dups.is_empty() {
        return;
    }
    let mut dropped = vec![false; m.len()];
    for (j, i) in dups {
        m[i].1 = std::mem::replace(&mut m[j].1, Value::Nil);
        dropped[j] = true;
    }
    let mut j = 0;
    m.retain(|_| {
        j += 1;
        !dropped[j - 1]
    });
}

macro_rules! from_int {
    ($($t:ty => $v:ident),*) => {$(
        impl From<$t> for Value {
            fn from(v: $t) -> Self {
                Value::$v(v.into())
            }
        }
    )*};
}

from_int!(i8 => Int, i16 => Int, i32 => Int, i64 => Int, u8 => Uint, u16 => Uint, u32 => Uint, u64 => Uint);

impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}
impl From<f32> for Value {
    fn from(v: f32) -> Self {
        Value::F32(v)
    }
}
impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Value::F64(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::Str(v.into())
    }
}
impl From<String> for Value {
    fn from(v: String) -> Self {
        Value::Str(v.into())
    }
}
impl From<Text> for Value {
    fn from(v: Text) -> Self {
        Value::Str(v)
    }
}
impl From<Vec<u8>> for Value {
    fn from(v: Vec<u8>) -> Self {
        Value::Bytes(v)
    }
}
impl From<Vec<Value>> for Value {
    fn from(v: Vec<Value>) -> Self {
        Value::Array(v)
    }
}
impl From<Time> for Value {
    fn from(v: Time) -> Self {
        Value::Time(v)
    }
}
impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Self {
        v.map_or(Value::Nil, Into::into)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushes_grow_and_keep_every_item() {
        for on_stack in [false, true] {
            let mut stack: Vec<Value> = Vec::new();
            for i in 0..1000u64 {
                let at_boundary = stack.len() == stack.capacity();
                let make = || Value::from(format!("item {i} of a long list"));
                if on_stack {
                    push_on_stack(&mut stack, make);
                } else {
                    make_room(&mut stack);
                    push_into_room(&mut stack, make());
                }
                assert_eq!(stack.len() as u64, i + 1, "boundary {at_boundary}");
                if on_stack && i == 0 {
                    // A stack's first push takes 1 KB; a plain push, room for a few.
                    assert_eq!(stack.capacity(), 32);
                }
            }
            for (i, v) in stack.iter().enumerate() {
                assert_eq!(
                    v.as_str(),
                    Some(format!("item {i} of a long list").as_str())
                );
            }
        }
        let mut entries: Vec<(Value, Value)> = Vec::new();
        push_on_stack(&mut entries, || (Value::Nil, Value::Nil));
        assert_eq!(entries.capacity(), 16);
        let mut out: Vec<Value> = Vec::new();
        make_room(&mut out);
        push_into_room(&mut out, Value::Nil);
        assert!(out.capacity() < 32, "{}", out.capacity());
    }

    #[test]
    fn take_tail_moves_the_tail_and_keeps_the_stack() {
        for start in [0, 1, 3, 5] {
            let mut stack: Vec<Value> = (0..5u64).map(Value::Uint).collect();
            stack.reserve(100);
            let cap = stack.capacity();
            let tail = take_tail(&mut stack, start);
            let want: Vec<Value> = (start as u64..5).map(Value::Uint).collect();
            assert_eq!(tail, want, "start {start}");
            assert_eq!(tail.capacity(), tail.len(), "start {start}");
            let kept: Vec<Value> = (0..start as u64).map(Value::Uint).collect();
            assert_eq!(stack, kept, "start {start}");
            assert_eq!(stack.capacity(), cap, "start {start}");
        }
    }
}
