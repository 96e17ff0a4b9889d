//! Derived target types of every shape the derive produces: a map struct, a
//! `toarray` struct, an enum, borrowed `&'de str` / `&'de [u8]` fields, and
//! nesting through `Option`, `Box`, `Vec` and `BTreeMap`.
//!
//! The fields avoid `HashMap` so that re-encoding is deterministic.
//!
//! [`Partial`] is hand-written instead: a decoder that stops early and
//! leaves the rest of each container to `array_end` / `map_end`.

use codec::{Codec, Decode, DecodeFormat, Decoder, Kind, Read, Result, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// A struct written as a map, with renamed, optional, omit-empty and byte fields.
#[derive(Codec, Debug, Clone, PartialEq)]
pub struct Record {
    /// An unsigned id.
    pub id: u64,
    /// A renamed text field.
    #[codec(rename = "n")]
    pub name: String,
    /// A signed number.
    pub score: i32,
    /// A flag.
    pub ok: bool,
    /// Text items.
    pub tags: Vec<String>,
    /// Written only when present.
    #[codec(omitempty)]
    pub note: Option<String>,
    /// A byte string.
    pub blob: Vec<u8>,
    /// A float (compared through its encoding: NaN must survive).
    pub ratio: f64,
    /// A fixed float array (read in one step where a driver can).
    pub point: [f64; 2],
    /// Rows of floats (written in one driver call where a driver can).
    pub ring: Vec<[f64; 2]>,
    /// Signed and unsigned integer arrays (each written in one driver call).
    pub deltas: Vec<i64>,
    /// See `deltas`.
    pub sizes: [u32; 3],
}

/// A struct written as an array of its fields (`#[codec(toarray)]`).
#[derive(Codec, Debug, Clone, PartialEq)]
#[codec(toarray)]
pub struct Row {
    /// A small unsigned number.
    pub a: u8,
    /// A signed 64-bit number.
    pub b: i64,
    /// Text.
    pub c: String,
    /// An optional list.
    pub d: Option<Vec<u16>>,
    /// A fixed-size array.
    pub e: [i8; 3],
    /// A fixed `f32` array.
    pub f: [f32; 3],
}

/// An externally tagged enum with unit, newtype, tuple and struct variants.
#[derive(Codec, Debug, Clone, PartialEq)]
pub enum Shape {
    /// A unit variant.
    Empty,
    /// A newtype variant.
    Circle(u32),
    /// A tuple variant.
    Segment(i16, i16),
    /// A struct variant, renamed.
    #[codec(rename = "rect")]
    Rect {
        /// Width.
        w: u32,
        /// Height.
        h: u32,
    },
    /// A variant holding a nested struct.
    Labeled(Row),
}

/// Fields that borrow from the input when decoding from a slice.
#[derive(Codec, Debug, Clone, PartialEq)]
pub struct Borrowed<'a> {
    /// Borrowed text.
    pub name: &'a str,
    /// Borrowed text items.
    pub parts: Vec<&'a str>,
    /// Borrowed bytes.
    pub raw: &'a [u8],
    /// Borrowed when possible, owned when the format had to unescape.
    pub cow: Cow<'a, str>,
    /// Optional borrowed text.
    pub maybe: Option<&'a str>,
}

/// Deep nesting through every container the derive supports.
#[derive(Codec, Debug, Clone, PartialEq)]
pub struct Tree {
    /// A recursive child: nesting is bounded only by `max_depth`.
    pub child: Option<Box<Tree>>,
    /// A list of map structs.
    pub records: Vec<Record>,
    /// Text keys to lists of optional numbers.
    pub index: BTreeMap<String, Vec<Option<i64>>>,
    /// Integer keys to enums.
    pub shapes: BTreeMap<u32, Shape>,
    /// A toarray struct inside a map struct.
    pub row: Option<Row>,
    /// A tuple.
    pub pair: (u16, String),
}

/// What a hand-written decoder that reads only the start of each container
/// gets: an array's first item, a map's first entry (its key as a
/// [`Value`]), each as a `Partial` again, the items and entries after it
/// left for [`Decoder::array_end`] and [`Decoder::map_end`] to skip;
/// anything else whole, as a `Value`.
#[derive(Debug, Clone, PartialEq)]
pub enum Partial {
    /// An array and its first item, if it has one.
    Array(Option<Box<Partial>>),
    /// A map and its first entry, if it has one.
    Map(Option<(Value, Box<Partial>)>),
    /// Any other item.
    Other(Value),
}

impl Partial {
    /// What a `Partial` decode of `v`'s encoding gives.
    pub fn of(v: &Value) -> Partial {
        match v {
            Value::Array(items) => Partial::Array(items.first().map(|x| Box::new(Partial::of(x)))),
            Value::Map(entries) => Partial::Map(
                entries
                    .first()
                    .map(|(k, x)| (k.clone(), Box::new(Partial::of(x)))),
            ),
            other => Partial::Other(other.clone()),
        }
    }
}

impl<'de> Decode<'de> for Partial {
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        match d.peek_kind()? {
            Kind::Array => {
                let mut seq = d.array_begin()?;
                let mut first = None;
                if d.array_next(&mut seq)? {
                    first = Some(Box::new(Partial::decode(d).map_err(|e| e.in_index(0))?));
                }
                d.array_end(seq)?;
                Ok(Partial::Array(first))
            }
            Kind::Map => {
                let mut seq = d.map_begin()?;
                let mut first = None;
                if d.map_next(&mut seq)? {
                    let k = Value::decode(d).map_err(|e| e.in_entry_key(0))?;
                    d.map_value(&mut seq)?;
                    let v = Partial::decode(d)?;
                    first = Some((k, Box::new(v)));
                }
                d.map_end(seq)?;
                Ok(Partial::Map(first))
            }
            _ => Value::decode(d).map(Partial::Other),
        }
    }
}

/// A [`codec::Raw`] captured after [`Decoder::peek_kind`], which makes JSON
/// read a number whole before the capture starts: it must hold what a
/// capture without the peek holds.
#[derive(Debug, Clone, PartialEq)]
pub struct PeekedRaw(pub codec::Raw);

impl<'de> Decode<'de> for PeekedRaw {
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        d.peek_kind()?;
        d.decode().map(PeekedRaw)
    }
}
