//! Dataset 1: `TestStruc`, a large nested struct in the spirit of
//! go-codec-bench's `TestStruc`: every scalar type, strings, byte slices,
//! slices and maps of scalars, nested structs, `Option<Box<_>>` pointers and a
//! recursive child list. [`generate`] builds one of about 10 KB (MessagePack).
//!
//! msgpacker is absent: it implements its traits for no `Box<T>`, so it cannot
//! express the recursive fields. bitcode's derive cannot express recursive
//! types (its encoder types would be infinitely sized), so bitcode runs through
//! its serde API here.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::rng::Rng;
use crate::serde_helpers;

/// A small struct of simple fields (go-codec-bench's `testSimpleFields`).
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    minicbor::Encode,
    minicbor::Decode,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[cbor(map)]
#[derive(codec::Codec)]
pub struct SimpleFields {
    /// A string.
    #[n(0)]
    pub s: String,
    /// A float.
    #[n(1)]
    pub f64: f64,
    /// An unsigned integer.
    #[n(2)]
    pub ui64: u64,
    /// A boolean.
    #[n(3)]
    pub b: bool,
    /// A list of strings.
    #[n(4)]
    pub sslice: Vec<String>,
    /// A map of strings to booleans.
    #[n(5)]
    pub msbool: BTreeMap<String, bool>,
}

/// A string with a number (go-codec-bench's `stringUint64T`).
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    minicbor::Encode,
    minicbor::Decode,
    bitcode::Encode,
    bitcode::Decode,
)]
#[msgpack(map)]
#[cbor(map)]
#[derive(codec::Codec)]
pub struct StringU64 {
    /// The string.
    #[n(0)]
    pub s: String,
    /// The number.
    #[n(1)]
    pub u: u64,
}

/// The large recursive test value.
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    Serialize,
    Deserialize,
    zerompk::ToMessagePack,
    zerompk::FromMessagePack,
    minicbor::Encode,
    minicbor::Decode,
)]
#[msgpack(map)]
#[cbor(map)]
// go-codec-bench sets omitempty on every field; here every field is written,
// as the peers do.
#[derive(codec::Codec)]
pub struct TestStruc {
    /// A string.
    #[n(0)]
    pub s: String,
    /// 64-bit signed.
    #[n(1)]
    pub i64: i64,
    /// 32-bit signed.
    #[n(2)]
    pub i32: i32,
    /// 16-bit signed.
    #[n(3)]
    pub i16: i16,
    /// 8-bit signed.
    #[n(4)]
    pub i8: i8,
    /// A negative 64-bit signed.
    #[n(5)]
    pub i64n: i64,
    /// A negative 32-bit signed.
    #[n(6)]
    pub i32n: i32,
    /// 64-bit unsigned.
    #[n(7)]
    pub ui64: u64,
    /// 32-bit unsigned.
    #[n(8)]
    pub ui32: u32,
    /// 16-bit unsigned.
    #[n(9)]
    pub ui16: u16,
    /// 8-bit unsigned.
    #[n(10)]
    pub ui8: u8,
    /// Double.
    #[n(11)]
    pub f64: f64,
    /// Single.
    #[n(12)]
    pub f32: f32,
    /// Boolean.
    #[n(13)]
    pub b: bool,
    /// Character.
    #[n(14)]
    pub c: char,
    /// List of strings.
    #[n(15)]
    pub sslice: Vec<String>,
    /// List of i64.
    #[n(16)]
    pub i64slice: Vec<i64>,
    /// List of i16.
    #[n(17)]
    pub i16slice: Vec<i16>,
    /// List of u64.
    #[n(18)]
    pub ui64slice: Vec<u64>,
    /// List of bools.
    #[n(19)]
    pub bslice: Vec<bool>,
    /// A byte string.
    #[n(20)]
    #[serde(with = "serde_bytes")]
    #[cbor(with = "minicbor::bytes")]
    pub byslice: Vec<u8>,
    /// A fixed-size byte string.
    #[n(21)]
    #[serde(with = "serde_bytes")]
    #[cbor(with = "minicbor::bytes")]
    pub byarray: [u8; 16],
    /// A list of byte strings.
    #[n(22)]
    #[serde(with = "serde_helpers::vec_bytes")]
    pub bytes_slice: Vec<Vec<u8>>,
    /// A list of optional integers (Go's `[]*int64`).
    #[n(23)]
    pub iptrslice: Vec<Option<i64>>,
    /// Map of strings to i64.
    #[n(24)]
    pub msi64: BTreeMap<String, i64>,
    /// Map of strings to byte strings.
    #[n(25)]
    #[serde(with = "serde_helpers::map_bytes")]
    pub msbytes: BTreeMap<String, Vec<u8>>,
    /// Map with integer keys.
    #[n(26)]
    pub mu64s: BTreeMap<u64, String>,
    /// A nested struct.
    #[n(27)]
    pub simplef: SimpleFields,
    /// A list of nested structs.
    #[n(28)]
    pub sstr_ui64: Vec<StringU64>,
    /// A map of nested structs.
    #[n(29)]
    pub mstr_ui64: BTreeMap<String, StringU64>,
    /// An absent pointer.
    #[n(30)]
    pub nint64: Option<i64>,
    /// A present pointer.
    #[n(31)]
    pub pint64: Option<i64>,
    /// An empty map.
    #[n(32)]
    pub nmap: BTreeMap<String, bool>,
    /// An empty list.
    #[n(33)]
    pub nslice: Vec<u8>,
    /// Map of child values (Go's `Mts`).
    #[n(34)]
    pub mts: BTreeMap<String, TestStruc>,
    /// Recursive child list (Go's `Its`).
    #[n(35)]
    pub its: Vec<TestStruc>,
    /// Optional boxed child (Go's `Nteststruc`).
    #[n(36)]
    pub nteststruc: Option<Box<TestStruc>>,
}

fn leaf(rng: &mut Rng, depth: u32) -> TestStruc {
    let n = 6;
    let mut t = TestStruc {
        s: format!("some string {}", rng.string(12)),
        i64: rng.next_u64() as i64 >> 1,
        i32: rng.next_u32() as i32 >> 1,
        i16: 12_345,
        i8: 123,
        i64n: -(rng.range(1, 1 << 40) as i64),
        i32n: -1_234_567,
        ui64: rng.next_u64(),
        ui32: rng.next_u32(),
        ui16: 54_321,
        ui8: 213,
        f64: -0.000_123_456 * rng.f64(),
        f32: 3.402_823e38 * rng.f32(),
        b: rng.bool(),
        c: 'λ',
        sslice: (0..n)
            .map(|i| format!("one {i} {}", rng.ascii(6)))
            .collect(),
        i64slice: (0..n).map(|_| rng.next_u64() as i64 >> 20).collect(),
        i16slice: (0..n).map(|_| rng.next_u32() as i16).collect(),
        ui64slice: (0..n).map(|_| rng.next_u64() >> 10).collect(),
        bslice: (0..n).map(|_| rng.bool()).collect(),
        byslice: (0..64).map(|_| rng.next_u32() as u8).collect(),
        byarray: std::array::from_fn(|i| i as u8),
        bytes_slice: (0..3)
            .map(|_| (0..16).map(|_| rng.next_u32() as u8).collect())
            .collect(),
        iptrslice: (0..n)
            .map(|i| (i % 3 != 0).then(|| rng.next_u32() as i64))
            .collect(),
        msi64: (0..n)
            .map(|i| (format!("key{i}"), rng.next_u64() as i64))
            .collect(),
        msbytes: (0..3)
            .map(|i| (format!("bytes{i}"), vec![i as u8; 8]))
            .collect(),
        mu64s: (0..4u64).map(|i| (i * 1000, rng.ascii(5))).collect(),
        simplef: SimpleFields {
            s: "simple fields".into(),
            f64: 1.5e-300,
            ui64: 1 << 60,
            b: true,
            sslice: vec!["a".into(), "bb".into(), "ccc".into()],
            msbool: [("t".to_string(), true), ("f".to_string(), false)].into(),
        },
        sstr_ui64: (0..3)
            .map(|i| StringU64 {
                s: format!("s{i}"),
                u: i * 77,
            })
            .collect(),
        mstr_ui64: (0..2)
            .map(|i| {
                (
                    format!("m{i}"),
                    StringU64 {
                        s: rng.ascii(4),
                        u: rng.next_u64(),
                    },
                )
            })
            .collect(),
        nint64: None,
        pint64: Some(-42),
        nmap: BTreeMap::new(),
        nslice: Vec::new(),
        mts: BTreeMap::new(),
        its: Vec::new(),
        nteststruc: None,
    };
    if depth > 0 {
        t.its = (0..2).map(|_| leaf(rng, depth - 1)).collect();
        t.mts.insert("child".into(), leaf(rng, depth - 1));
        t.nteststruc = Some(Box::new(leaf(rng, depth - 1)));
    }
    t
}

/// Generates the deterministic `TestStruc` value (root with one level of children).
#[must_use]
pub fn generate() -> TestStruc {
    leaf(&mut Rng::new(0x7E57_57AC), 1)
}
