//! Arrays of integers (`Vec<i32>`, `[u64; N]`, `&[i16]`, ...) are written
//! in one driver call (`write_i64_array` / `write_u64_array`); JSON lays
//! them out in blocks. The bytes must be those of the item-by-item path,
//! which a `Value::Array` of integers still takes, in every handle, JSON
//! layout and `IntegerAsString` mode, into a `Vec` and through `to_writer`.

mod common;

use codec::formats::json::IntegerAsString;
use codec::{AnyHandle, Codec, Encode, JsonHandle, Value};
use common::xorshift;
use std::collections::BTreeMap;

fn handles() -> Vec<AnyHandle> {
    let mut hs: Vec<AnyHandle> = AnyHandle::NAMES
        .iter()
        .map(|n| AnyHandle::from_name(n).unwrap())
        .collect();
    // JSON options that change an item's bytes or the array's layout.
    hs.push(JsonHandle::new().indent(2).into());
    hs.push(JsonHandle::new().indent(-1).into());
    hs.push(JsonHandle::new().trailing_newline(true).into());
    hs.push(
        JsonHandle::new()
            .integer_as_string(IntegerAsString::Large)
            .into(),
    );
    hs.push(
        JsonHandle::new()
            .integer_as_string(IntegerAsString::Always)
            .into(),
    );
    hs
}

/// Every length of text (1 to 20 digits, with and without a sign), the
/// edges of the digit writers' cases (below 100, below 10^15 with a sign in
/// the word, below 10^16, the 17- to 20-digit split) and of 2^53, then
/// random values of random lengths.
fn i64s() -> Vec<i64> {
    let mut v = vec![0, 1, -1, 9, 10, -10, 99, 100, -99, -100, i64::MIN, i64::MAX];
    let mut p: i64 = 1;
    for _ in 0..18 {
        p *= 10;
        v.extend([p - 1, p, p + 1, -(p - 1), -p, -(p + 1)]);
    }
    let e53 = 1i64 << 53;
    v.extend([e53 - 1, e53, e53 + 1, -e53 + 1, -e53, -e53 - 1]);
    let mut next = xorshift(0x1e64_0a11);
    v.extend((0..400).map(|_| (next() as i64) >> (next() % 64)));
    v
}

fn u64s() -> Vec<u64> {
    let mut v = vec![0, 1, 9, 10, 99, 100, u64::MAX, u64::MAX - 1];
    let mut p: u64 = 1;
    for _ in 0..19 {
        p *= 10;
        v.extend([p - 1, p, p + 1]);
    }
    let e53 = 1u64 << 53;
    v.extend([e53 - 1, e53, e53 + 1]);
    let mut next = xorshift(0x0e64_0a11);
    v.extend((0..400).map(|_| next() >> (next() % 64)));
    v
}

/// `items`, as a `Vec`, a slice, and inside a struct and an array of
/// arrays, give the bytes of the same values as `Value`s, through both
/// sinks.
fn same_bytes<T: Encode + Copy>(h: &AnyHandle, what: &str, items: &[T], value: fn(T) -> Value) {
    let values = || Value::Array(items.iter().map(|&v| value(v)).collect());
    let want = h.to_vec(&values()).unwrap();
    assert_eq!(h.to_vec(items).unwrap(), want, "{h:?} {what}");
    assert_eq!(h.to_vec(&items.to_vec()).unwrap(), want, "{h:?} {what} Vec");
    let mut out = Vec::new();
    h.to_writer(items, &mut out).unwrap();
    assert_eq!(out, want, "{h:?} {what} to_writer");

    // Nested: the array is not the top-level value (no trailer after it).
    let nested = [items, items];
    let want = h.to_vec(&Value::Array(vec![values(), values()])).unwrap();
    assert_eq!(h.to_vec(&nested[..]).unwrap(), want, "{h:?} {what} nested");
}

fn widen_i<T: Into<i64>>(v: T) -> Value {
    Value::Int(v.into())
}

fn widen_u<T: Into<u64>>(v: T) -> Value {
    Value::Uint(v.into())
}

#[test]
fn int_arrays_write_the_item_by_item_bytes() {
    let (xs, us) = (i64s(), u64s());
    // A run long enough to cross many blocks, with items of every length at
    // every offset of a block.
    let long_i: Vec<i64> = (0..5000).map(|i| xs[(i * 7) % xs.len()]).collect();
    let long_u: Vec<u64> = (0..5000).map(|i| us[(i * 5) % us.len()]).collect();
    for h in handles() {
        for n in [0, 1, 2, 3, 26, xs.len()] {
            same_bytes(&h, "i64", &xs[..n], Value::Int);
            let i32s: Vec<i32> = xs[..n].iter().map(|&v| v as i32).collect();
            same_bytes(&h, "i32", &i32s, widen_i);
            let i16s: Vec<i16> = xs[..n].iter().map(|&v| v as i16).collect();
            same_bytes(&h, "i16", &i16s, widen_i);
            let i8s: Vec<i8> = xs[..n].iter().map(|&v| v as i8).collect();
            same_bytes(&h, "i8", &i8s, widen_i);
            let isizes: Vec<isize> = xs[..n].iter().map(|&v| v as isize).collect();
            same_bytes(&h, "isize", &isizes, |v| Value::Int(v as i64));
        }
        for n in [0, 1, 2, 3, 26, us.len()] {
            same_bytes(&h, "u64", &us[..n], Value::Uint);
            let u32s: Vec<u32> = us[..n].iter().map(|&v| v as u32).collect();
            same_bytes(&h, "u32", &u32s, widen_u);
            let u16s: Vec<u16> = us[..n].iter().map(|&v| v as u16).collect();
            same_bytes(&h, "u16", &u16s, widen_u);
            let usizes: Vec<usize> = us[..n].iter().map(|&v| v as usize).collect();
            same_bytes(&h, "usize", &usizes, |v| Value::Uint(v as u64));
        }
        same_bytes(&h, "long i64", &long_i, Value::Int);
        same_bytes(&h, "long u64", &long_u, Value::Uint);
        // A fixed-size array goes the same way.
        let fixed: [u32; 4] = [0, 7, 65_536, u32::MAX];
        same_bytes(&h, "[u32; 4]", &fixed, widen_u);
        assert_eq!(
            h.to_vec(&fixed).unwrap(),
            h.to_vec(&fixed[..]).unwrap(),
            "{h:?} [u32; 4]"
        );
    }
}

/// The longest texts (20-digit `u64`s, 19-digit negative `i64`s) at every
/// offset of a block's end: each run is led by a different number of
/// one-digit items, and JSON's blocks must leave room for the last text
/// that fits.
#[test]
fn the_longest_texts_fit_at_every_offset() {
    let h: AnyHandle = JsonHandle::new().into();
    for lead in 0..64 {
        let mut us = vec![7u64; lead];
        us.extend([u64::MAX; 200]);
        same_bytes(&h, &format!("u64 lead {lead}"), &us, Value::Uint);
        let mut xs = vec![7i64; lead];
        xs.extend([i64::MIN; 200]);
        same_bytes(&h, &format!("i64 lead {lead}"), &xs, Value::Int);
    }
}

#[derive(Codec, Debug, PartialEq)]
struct Ids {
    name: String,
    ids: Vec<u64>,
    offsets: [i32; 3],
    deltas: Vec<i16>,
}

#[test]
fn int_array_fields_round_trip_and_match_their_values() {
    let ids = Ids {
        name: "ids".into(),
        ids: u64s(),
        offsets: [-1, 0, i32::MAX],
        deltas: i64s().iter().map(|&v| v as i16).collect(),
    };
    let ints = |items: &[i64]| Value::Array(items.iter().map(|&v| Value::Int(v)).collect());
    let offsets: Vec<i64> = ids.offsets.iter().map(|&v| v.into()).collect();
    let deltas: Vec<i64> = ids.deltas.iter().map(|&v| v.into()).collect();
    let as_value = Value::Map(vec![
        (Value::from("name"), Value::from("ids")),
        (
            Value::from("ids"),
            Value::Array(ids.ids.iter().map(|&v| Value::Uint(v)).collect()),
        ),
        (Value::from("offsets"), ints(&offsets)),
        (Value::from("deltas"), ints(&deltas)),
    ]);
    for h in handles() {
        let bytes = h.to_vec(&ids).unwrap();
        assert_eq!(bytes, h.to_vec(&as_value).unwrap(), "{h:?}");
        let back: Ids = h.from_slice(&bytes).unwrap();
        assert_eq!(back, ids, "{h:?}");
    }
}

/// An array of integers as a JSON map key is refused as the item-by-item
/// path refuses it.
#[test]
fn an_int_array_key_is_refused_as_before() {
    let h: AnyHandle = JsonHandle::new().into();
    let mut m = BTreeMap::new();
    m.insert(vec![1i32, 2], 0u8);
    let mut v = BTreeMap::new();
    v.insert(Value::Array(vec![Value::Int(1), Value::Int(2)]), 0u8);
    let fast = h.to_vec(&m).unwrap_err().to_string();
    let slow = h.to_vec(&v).unwrap_err().to_string();
    assert_eq!(fast, slow);
}
