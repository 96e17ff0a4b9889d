//! Dataset 2: the value of fxamacker/cbor's benchmarks,
//! `{T: true, Ui: u64::MAX, I: -1000, F: -4.1, B: 1..=26, S: "The quick brown fox
//! jumps over the lazy dog", Slci: 1..=26, Mss: {"a":"A", ..., "n":"N"}}`,
//! as a struct with string keys ([`FxStruct`]), with integer keys
//! ([`FxIntKeys`]), as an array ([`FxToArray`]), as a dynamic map (built by the
//! peers from [`FxStruct`] into their own `Value` type), and its builtin-type
//! cases ([`BUILTINS`]).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The text of the `S` field.
pub const TEXT: &str = "The quick brown fox jumps over the lazy dog";

/// The bytes of the `B` field, `1..=26`.
#[must_use]
pub fn bytes() -> Vec<u8> {
    (1..=26).collect()
}

/// The list of the `Slci` field, `1..=26`.
#[must_use]
pub fn slice() -> Vec<i64> {
    (1..=26).collect()
}

/// The map of the `Mss` field: `"a" => "A"` through `"n" => "N"` (14 entries).
#[must_use]
pub fn mss() -> BTreeMap<String, String> {
    (b'a'..=b'n')
        .map(|c| {
            (
                (c as char).to_string(),
                (c.to_ascii_uppercase() as char).to_string(),
            )
        })
        .collect()
}

/// The map of the builtin-map case: `"a" => "A"` through `"m" => "M"` (13 entries),
/// as in fxamacker/cbor's `map[string]string` benchmark.
#[must_use]
pub fn mss13() -> BTreeMap<String, String> {
    let mut m = mss();
    m.remove("n");
    m
}

/// The benchmark value as a struct with string keys.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    msgpacker::MsgPacker,
    minicbor::Encode,
    minicbor::Decode,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[cbor(map)]
#[derive(codec::Codec)]
pub struct FxStruct {
    /// `true`.
    #[serde(rename = "T")]
    #[n(0)]
    #[codec(rename = "T")]
    pub t: bool,
    /// `u64::MAX`.
    #[serde(rename = "Ui")]
    #[n(1)]
    #[codec(rename = "Ui")]
    pub ui: u64,
    /// `-1000`.
    #[serde(rename = "I")]
    #[n(2)]
    #[codec(rename = "I")]
    pub i: i64,
    /// `-4.1`.
    #[serde(rename = "F")]
    #[n(3)]
    #[codec(rename = "F")]
    pub f: f64,
    /// `1..=26` as a byte string.
    #[serde(rename = "B", with = "serde_bytes")]
    #[cbor(n(4), with = "minicbor::bytes")]
    #[msgpacker(binary)]
    #[codec(rename = "B")]
    pub b: Vec<u8>,
    /// The quick brown fox.
    #[serde(rename = "S")]
    #[n(5)]
    #[codec(rename = "S")]
    pub s: String,
    /// `1..=26` as a list.
    #[serde(rename = "Slci")]
    #[n(6)]
    #[codec(rename = "Slci")]
    pub slci: Vec<i64>,
    /// `a..=n` to upper case.
    #[serde(rename = "Mss")]
    #[n(7)]
    #[codec(rename = "Mss")]
    pub mss: BTreeMap<String, String>,
}

/// The benchmark value as a struct with integer keys (fxamacker's `keyasint`).
///
/// serde derives only have string field names, so only minicbor (and our
/// codec) can express it.
#[derive(Clone, Debug, PartialEq, minicbor::Encode, minicbor::Decode)]
#[cbor(map)]
#[derive(codec::Codec)]
pub struct FxIntKeys {
    /// `true`.
    #[n(1)]
    #[codec(key = 1)]
    pub t: bool,
    /// `u64::MAX`.
    #[n(2)]
    #[codec(key = 2)]
    pub ui: u64,
    /// `-1000`.
    #[n(3)]
    #[codec(key = 3)]
    pub i: i64,
    /// `-4.1`.
    #[n(4)]
    #[codec(key = 4)]
    pub f: f64,
    /// `1..=26` as a byte string.
    #[cbor(n(5), with = "minicbor::bytes")]
    #[codec(key = 5)]
    pub b: Vec<u8>,
    /// The quick brown fox.
    #[n(6)]
    #[codec(key = 6)]
    pub s: String,
    /// `1..=26` as a list.
    #[n(7)]
    #[codec(key = 7)]
    pub slci: Vec<i64>,
    /// `a..=n` to upper case.
    #[n(8)]
    #[codec(key = 8)]
    pub mss: BTreeMap<String, String>,
}

/// The benchmark value as an array (fxamacker's `toarray`).
///
/// Written as a tuple struct so that every serde format encodes it as an
/// array, ours included (a tuple struct is an array in our codec;
/// `#[codec(toarray)]` is for structs with named fields).
#[derive(
    Clone,
    Debug,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    msgpacker::MsgPacker,
    minicbor::Encode,
    minicbor::Decode,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(array)]
#[cbor(array)]
#[derive(codec::Codec)]
pub struct FxToArray(
    /// `true`.
    #[n(0)]
    pub bool,
    /// `u64::MAX`.
    #[n(1)]
    pub u64,
    /// `-1000`.
    #[n(2)]
    pub i64,
    /// `-4.1`.
    #[n(3)]
    pub f64,
    /// `1..=26` as a byte string.
    #[serde(with = "serde_bytes")]
    #[cbor(n(4), with = "minicbor::bytes")]
    pub Vec<u8>,
    /// The quick brown fox.
    #[n(5)]
    pub String,
    /// `1..=26` as a list.
    #[n(6)]
    pub Vec<i64>,
    /// `a..=n` to upper case.
    #[n(7)]
    pub BTreeMap<String, String>,
);

/// The struct value.
#[must_use]
pub fn fx_struct() -> FxStruct {
    FxStruct {
        t: true,
        ui: u64::MAX,
        i: -1000,
        f: -4.1,
        b: bytes(),
        s: TEXT.to_string(),
        slci: slice(),
        mss: mss(),
    }
}

/// The integer-keyed value.
#[must_use]
pub fn fx_int_keys() -> FxIntKeys {
    let s = fx_struct();
    FxIntKeys {
        t: s.t,
        ui: s.ui,
        i: s.i,
        f: s.f,
        b: s.b,
        s: s.s,
        slci: s.slci,
        mss: s.mss,
    }
}

/// The array value.
#[must_use]
pub fn fx_to_array() -> FxToArray {
    let s = fx_struct();
    FxToArray(s.t, s.ui, s.i, s.f, s.b, s.s, s.slci, s.mss)
}

/// The builtin-type cases, as dataset name suffixes; the peers build each value
/// in their own native representation (see `peers`).
pub const BUILTINS: [&str; 8] = ["bool", "u64", "i64", "f64", "bytes", "text", "array", "map"];
