//! Decoding into `Value` reads each scalar in one step where the format
//! can (`DecodeFormat::read_scalar_value`) and builds it where it will stay
//! in its array or map. These tests hold that path to the generic one it
//! replaces: `peek_kind`, then the matching `decode_*`, written here with
//! the decoder's public calls. Both must give the same value, bit for bit,
//! or the same error (kind and byte offset; the `Value` path also names the
//! item's place, which the generic reader here does not track). Decoding
//! into a `Document` (`DecodeFormat::read_scalar`, text keys through
//! `map_next_key`) is held to the same: its `to_value()` or its error.
//!
//! Inputs: every lead byte of each binary format with random bytes after
//! it, alone, as an array item, as a map key and as a map value; and random
//! documents of every kind of value, whole and damaged. Each runs under the
//! options that change a scalar's `Value` (`prefer_float`,
//! `signed_integer`, a small `max_str_len`, MessagePack's string modes),
//! from a slice (the one-step path wherever an item is whole in the
//! buffer) and from a reader handing out one byte at a time (the one-step
//! path only for one-byte items).

mod common;

use codec::{
    BincHandle, CborHandle, DecodeFormat, Decoder, Document, Handle, JsonHandle, Kind,
    MsgpackHandle, Read, SimpleHandle, Text, Value, to_vec,
};
use common::{ByteByByte, damage, random_text, xorshift};

/// The generic path: the `Value` that `peek_kind` and the matching
/// `decode_*` give, item by item.
fn generic<'de, R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> codec::Result<Value> {
    let prefer_float = d.options().prefer_float;
    let signed_integer = d.options().signed_integer;
    Ok(match d.peek_kind()? {
        Kind::Nil => {
            d.decode_nil()?;
            Value::Nil
        }
        Kind::Bool => Value::Bool(d.decode_bool()?),
        Kind::Int | Kind::Uint if prefer_float => Value::F64(d.decode_f64()?),
        Kind::Int => Value::Int(d.decode_i64()?),
        Kind::Uint => {
            let v = d.decode_u64()?;
            match i64::try_from(v) {
                Ok(i) if signed_integer => Value::Int(i),
                _ => Value::Uint(v),
            }
        }
        Kind::BigInt => Value::BigInt(d.decode_i128()?),
        Kind::Float32 => Value::F32(d.decode_f32()?),
        Kind::Float64 => Value::F64(d.decode_f64()?),
        Kind::Str => Value::Str(Text::from(&*d.decode_str()?)),
        Kind::Bytes => Value::Bytes(d.decode_bytes()?.to_vec()),
        Kind::Array => {
            let mut seq = d.array_begin()?;
            let mut items = Vec::new();
            while d.array_next(&mut seq)? {
                items.push(generic(d)?);
            }
            d.array_end(seq)?;
            Value::Array(items)
        }
        Kind::Map => {
            let mut seq = d.map_begin()?;
            let mut entries = Vec::new();
            while d.map_next(&mut seq)? {
                let k = generic(d)?;
                d.map_value(&mut seq)?;
                entries.push((k, generic(d)?));
            }
            d.map_end(seq)?;
            Value::Map(entries)
        }
        Kind::Ext => {
            let (tag, data) = d.decode_ext()?;
            Value::Ext(tag, Box::from(&*data))
        }
        Kind::Time => Value::Time(d.decode_time()?),
        Kind::Tag => {
            let tag = d.decode_tag()?;
            Value::Tagged(tag, Box::new(generic(d)?))
        }
        Kind::Simple => Value::Simple(d.decode_simple()?),
        other => panic!("a kind this test does not know: {other:?}"),
    })
}

/// A decode's outcome, with an error reduced to what both paths give.
type Outcome = Result<Value, (String, Option<u64>)>;

fn outcome(res: codec::Result<Value>) -> Outcome {
    res.map_err(|e| (format!("{:?}", e.kind()), e.offset()))
}

/// Which way a document is decoded.
#[derive(Clone, Copy, Debug)]
enum Path {
    /// `Value`'s decoder (one-step scalars where the format has them).
    Value,
    /// [`generic`].
    Generic,
    /// A `Document` (one-step scalars, text kept in its buffer), as a `Value`.
    Document,
}

/// The first item of a document through `path`, and then (`to_end`) the
/// end of the input.
fn first<'de, R: Read<'de>, F: DecodeFormat>(
    d: &mut Decoder<'de, R, F>,
    path: Path,
    to_end: bool,
) -> Outcome {
    let v = match path {
        Path::Value => d.decode::<Value>(),
        Path::Generic => generic(d),
        Path::Document => d.decode::<Document>().map(|doc| doc.to_value()),
    };
    let end = v.and_then(|v| {
        if to_end {
            d.finish().map(|()| v)
        } else {
            Ok(v)
        }
    });
    // Where each left the input, too.
    outcome(end.map(|v| Value::Array(vec![v, Value::Uint(d.offset())])))
}

/// The document decoded every way, from a slice and from a one-byte
/// reader; 1 if it decoded.
fn check<H: Handle>(h: &H, label: &str, doc: &[u8], to_end: bool) -> usize {
    let fast = first(&mut h.decoder(doc), Path::Value, to_end);
    let reader = |path| {
        let mut d = Decoder::new(
            codec::IoReader::new(ByteByByte(doc)),
            h.dec_format(),
            h.options().decode.clone(),
        );
        first(&mut d, path, to_end)
    };
    for path in [Path::Generic, Path::Document] {
        let other = first(&mut h.decoder(doc), path, to_end);
        assert_eq!(fast, other, "{label}, {path:?}, from a slice: {doc:02x?}");
        assert_eq!(
            reader(Path::Value),
            reader(path),
            "{label}, {path:?}, byte by byte: {doc:02x?}"
        );
    }
    usize::from(fast.is_ok())
}

/// The head of a one-item array and of a one-entry map in `h`'s format:
/// their encodings with the (one-byte) nils taken off.
fn heads<H: Handle>(h: &H) -> (Vec<u8>, Vec<u8>) {
    let mut array = to_vec(&Value::Array(vec![Value::Nil]), h).unwrap();
    array.pop();
    let mut map = to_vec(&Value::Map(vec![(Value::Nil, Value::Nil)]), h).unwrap();
    map.truncate(map.len() - 2);
    (array, map)
}

/// Every lead byte with 0 to 11 random bytes after it: alone, as an array
/// item, as a map key (before a valid item) and as a map value (after a
/// valid text key). Only the first item is decoded: the random bytes
/// after it are left.
fn every_lead_byte<H: Handle>(h: &H, label: &str, seed: u64) -> (usize, usize) {
    let mut next = xorshift(seed);
    let (array, map) = heads(h);
    let key = to_vec(&Value::from("k"), h).unwrap();
    let nil = to_vec(&Value::Nil, h).unwrap();
    let (mut docs, mut ok) = (0, 0);
    for lead in 0..=255u8 {
        for _ in 0..24 {
            let mut item = vec![lead];
            item.extend((0..next() % 12).map(|_| next() as u8));
            let placed = [
                item.clone(),
                [&array[..], &item].concat(),
                [&map[..], &item, &nil].concat(),
                [&map[..], &key, &item].concat(),
            ];
            for doc in placed {
                ok += check(h, label, &doc, false);
                docs += 1;
            }
        }
    }
    (docs, ok)
}

/// A random value of every kind the formats share, up to `depth` levels.
fn random_value(next: &mut impl FnMut() -> u64, depth: u32) -> Value {
    let pick = next() % if depth == 0 { 9 } else { 11 };
    let width = |next: &mut dyn FnMut() -> u64| {
        let bits = [4, 7, 8, 15, 16, 31, 32, 53, 63, 64][next() as usize % 10];
        if bits == 64 {
            next()
        } else {
            next() & ((1u64 << bits) - 1)
        }
    };
    match pick {
        0 => Value::Nil,
        1 => Value::Bool(next().is_multiple_of(2)),
        2 => Value::Uint(width(next)),
        3 => Value::Int(-((width(next) >> 1) as i64) - 1),
        4 => Value::F32(f32::from_bits(next() as u32)),
        5 => Value::F64(f64::from_bits(next())),
        6 => Value::from(random_text(next).as_str()),
        7 => Value::Bytes((0..next() % 40).map(|_| next() as u8).collect()),
        8 => Value::F64((next() % 2000) as f64 / 8.0 - 100.0),
        9 => Value::Array(
            (0..next() % 5)
                .map(|_| random_value(next, depth - 1))
                .collect(),
        ),
        _ => Value::Map(
            (0..next() % 5)
                .map(|i| {
                    let key = if next().is_multiple_of(4) {
                        Value::Uint(i)
                    } else {
                        Value::from(format!("k{}", next() % 6).as_str())
                    };
                    (key, random_value(next, depth - 1))
                })
                .collect(),
        ),
    }
}

/// Random documents, each whole and damaged.
fn random_documents<H: Handle>(h: &H, label: &str, seed: u64, n: usize) -> (usize, usize) {
    let mut next = xorshift(seed);
    let (mut docs, mut ok) = (0, 0);
    for _ in 0..n {
        let v = random_value(&mut next, 3);
        let Ok(doc) = to_vec(&v, h) else {
            continue;
        };
        ok += check(h, label, &doc, true);
        let mut bad = doc.clone();
        damage(&mut bad, &mut next);
        ok += check(h, label, &bad, true);
        docs += 2;
    }
    (docs, ok)
}

/// Sets one option on a handle's options.
type SetOption<'a> = &'a dyn Fn(&mut codec::Options);

/// Runs `each` with every option that changes a scalar's `Value`.
fn each_variant(mut each: impl FnMut(SetOption<'_>, &str)) {
    let variants: [(&str, SetOption<'_>); 4] = [
        ("default", &|_| {}),
        ("prefer_float", &|o| o.decode.prefer_float = true),
        ("signed_integer", &|o| o.decode.signed_integer = true),
        ("max_str_len 3", &|o| o.decode.max_str_len = 3),
    ];
    for (label, set) in variants {
        each(set, label);
    }
}

macro_rules! with_handles {
    ($set:expr, $label:expr, $run:ident($($arg:expr),*)) => {{
        let (mut docs, mut ok) = (0, 0);
        let mut tally = |(d, o): (usize, usize)| {
            docs += d;
            ok += o;
        };
        let mut h = MsgpackHandle::default();
        $set(&mut h.options);
        tally($run(&h, &format!("msgpack {}", $label), $($arg),*));
        // The old spec: str items are bytes, but text as map keys.
        h.write_ext = false;
        tally($run(&h, &format!("msgpack write_ext false {}", $label), $($arg),*));
        h.raw_to_string = true;
        tally($run(&h, &format!("msgpack raw_to_string {}", $label), $($arg),*));
        let mut h = CborHandle::default();
        $set(&mut h.options);
        tally($run(&h, &format!("cbor {}", $label), $($arg),*));
        let mut h = BincHandle::default();
        $set(&mut h.options);
        tally($run(&h, &format!("binc {}", $label), $($arg),*));
        let mut h = SimpleHandle::default();
        $set(&mut h.options);
        tally($run(&h, &format!("simple {}", $label), $($arg),*));
        (docs, ok)
    }};
}

#[test]
fn every_lead_byte_agrees_with_the_generic_path() {
    each_variant(|set, label| {
        let (docs, ok) = with_handles!(set, label, every_lead_byte(0x5ca1a4));
        // A fair share of the inputs must decode, or the test would only
        // compare errors.
        assert!(ok * 20 > docs, "{label}: {ok} of {docs} decoded");
    });
}

#[test]
fn random_documents_agree_with_the_generic_path() {
    each_variant(|set, label| {
        let (docs, ok) = with_handles!(set, label, random_documents(0xd0c5, 400));
        assert!(ok * 4 > docs, "{label}: {ok} of {docs} decoded");
    });
    // JSON has its own one-step path (numbers read once, keys in place).
    each_variant(|set, label| {
        let mut h = JsonHandle::default();
        set(&mut h.options);
        let (docs, ok) = random_documents(&h, &format!("json {label}"), 0x150e, 400);
        assert!(ok * 4 > docs, "json {label}: {ok} of {docs} decoded");
    });
}
