//! Hostile input: random and mutated bytes never panic, huge declared
//! lengths fail without big allocations, deep nesting fails, and the slice
//! and one-byte-at-a-time readers agree.

mod common;

use codec_core::{
    Decoder, ErrorKind, Handle, Options, SliceReader, Time, Value, from_reader, from_slice, to_vec,
};
use codec_simple::SimpleHandle;
use common::*;
use std::collections::BTreeMap;

fn h() -> SimpleHandle {
    SimpleHandle::default()
}

/// Valid documents to mutate: every kind of item.
fn seeds() -> Vec<Vec<u8>> {
    let t = Time::parse_rfc3339("2021-03-04T10:36:07.5+05:30").unwrap();
    let values = vec![
        Value::Nil,
        Value::Bool(true),
        Value::Int(-70_000),
        Value::Uint(u64::MAX),
        Value::F64(1.5),
        Value::F64(0.1),
        Value::F32(-4.1),
        Value::from("hello, world"),
        Value::Bytes(vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]),
        Value::Time(t),
        Value::Ext(5, vec![1, 2].into()),
        Value::Array(vec![
            Value::Uint(1),
            Value::from("two"),
            Value::Nil,
            Value::F64(3.0),
        ]),
        Value::Map(vec![
            (Value::from("name"), Value::from("x")),
            (
                Value::from("list"),
                Value::Array(vec![Value::Int(-2), Value::Time(t)]),
            ),
            (
                Value::from("name"),
                Value::Map(vec![(Value::from("name"), Value::Uint(300))]),
            ),
        ]),
    ];
    let mut out = Vec::new();
    for v in &values {
        out.push(to_vec(v, &h()).unwrap());
        out.push(to_vec(v, &h().enc_zero_values_as_nil(true)).unwrap());
    }
    out.push(to_vec(&values, &h()).unwrap());
    out
}

fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut b = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = b.len();
        match rng.below(7) {
            0 if len > 0 => {
                let i = rng.below(len);
                b[i] = rng.byte();
            }
            1 if len > 0 => {
                let i = rng.below(len);
                b[i] ^= 1 << rng.below(8);
            }
            2 => {
                let i = rng.below(len + 1);
                b.insert(i, rng.byte());
            }
            3 if len > 0 => {
                b.remove(rng.below(len));
            }
            4 => b.truncate(rng.below(len + 1)),
            5 if len > 0 => {
                // Make a length or width field huge.
                let i = rng.below(len);
                let end = (i + 1 + rng.below(8)).min(len);
                b[i..end].iter_mut().for_each(|x| *x = 0xFF);
            }
            _ => {
                let i = rng.below(len + 1);
                let extra: Vec<u8> = (0..rng.below(6)).map(|_| rng.byte()).collect();
                b.splice(i..i, extra);
            }
        }
    }
    b
}

/// Decodes `input` into several targets; only checks that nothing panics, and
/// that the one-byte reader agrees with the slice reader on `Value`
/// and on its error.
fn exercise(hd: &SimpleHandle, input: &[u8], with_io: bool) -> bool {
    let v = from_slice::<Value, _>(input, hd);
    let _ = from_slice::<Vec<String>, _>(input, hd);
    let _ = from_slice::<BTreeMap<String, i64>, _>(input, hd);
    let _ = from_slice::<(u8, String, Vec<u8>, Option<f64>), _>(input, hd);
    let _ = from_slice::<Time, _>(input, hd);
    let _ = from_slice::<Vec<Vec<u8>>, _>(input, hd);
    let _ = hd.decoder(input).skip();
    if with_io {
        let w = from_reader::<Value, _, _>(Trickle::new(input), hd);
        match (&v, &w) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{}", tohex(input)),
            // The same error (kind, place, path), however the input arrives.
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{}", tohex(input)),
            _ => panic!("slice {v:?} vs reader {w:?} on {}", tohex(input)),
        }
    }
    v.is_ok()
}

#[test]
fn random_and_mutated_inputs_never_panic() {
    let seeds = seeds();
    let hd = h();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut n, mut ok) = (0, 0);
    for i in 0..50_000 {
        let len = rng.below(48);
        let input: Vec<u8> = (0..len).map(|_| rng.byte()).collect();
        ok += exercise(&hd, &input, i % 8 == 0) as u32;
        n += 1;
    }
    for i in 0..50_000 {
        let seed = &seeds[rng.below(seeds.len())];
        let input = mutate(&mut rng, seed);
        ok += exercise(&hd, &input, i % 8 == 0) as u32;
        n += 1;
    }
    assert_eq!(n, 100_000);
    eprintln!("{n} inputs, {ok} decoded as a Value");
    // The mutations must reach the decoder's accepting paths, not only its first check.
    assert!(ok > 2_000, "only {ok} inputs decoded");
}

#[test]
fn huge_declared_lengths_fail_fast() {
    let inputs = [
        "dc ffffffffffffffff 61",    // string of 2^64-1 bytes
        "db ffffffff 61",            // string of 4 GiB
        "e4 7fffffffffffffff 00",    // bytes
        "ec 0fffffffffffffff 0801",  // array
        "f3 ffffffff 0801 0801",     // map
        "fc ffffffffffffffff 05 00", // extension
        "18 ff 01 00",               // time with a 255-byte payload
    ];
    for hx in inputs {
        let b = unhex(hx);
        let start = std::time::Instant::now();
        let e = from_slice::<Value, _>(&b, &h()).unwrap_err();
        assert!(e.is_eof(), "{hx}: {e}");
        assert!(
            from_reader::<Value, _, _>(Trickle::new(&b), &h()).is_err(),
            "{hx}"
        );
        assert!(from_slice::<Vec<u8>, _>(&b, &h()).is_err(), "{hx}");
        assert!(from_slice::<Vec<u64>, _>(&b, &h()).is_err(), "{hx}");
        assert!(h().decoder(&b).skip().is_err(), "{hx}");
        assert!(start.elapsed().as_secs() < 2, "{hx} took too long");
    }
}

fn depth_error(r: codec_core::Result<Value>) -> bool {
    matches!(
        r.map_err(|e| matches!(e.kind(), ErrorKind::DepthLimitExceeded { .. })),
        Err(true)
    )
}

#[test]
fn nesting_past_max_depth_is_an_error() {
    // 1000 nested one-element arrays, then 1000 nested one-entry maps.
    let mut arrays = Vec::new();
    for _ in 0..1000 {
        arrays.extend_from_slice(&[0xE9, 0x01]);
    }
    arrays.extend_from_slice(&[0x08, 0x01]);
    let mut maps = Vec::new();
    for _ in 0..1000 {
        maps.extend_from_slice(&[0xF1, 0x01, 0x08, 0x01]);
    }
    maps.extend_from_slice(&[0x08, 0x01]);
    for b in [&arrays, &maps] {
        assert!(depth_error(from_slice::<Value, _>(b, &h())));
        assert!(depth_error(from_reader::<Value, _, _>(
            Trickle::new(b),
            &h()
        )));
        let e = h().decoder(b).skip().unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::DepthLimitExceeded { .. }),
            "{e}"
        );
    }
    // Exactly at the limit works.
    let opts = Options::default().max_depth(10);
    let hd = SimpleHandle::default().with_options(opts);
    let mut ok = Vec::new();
    for _ in 0..10 {
        ok.extend_from_slice(&[0xE9, 0x01]);
    }
    ok.extend_from_slice(&[0x08, 0x01]);
    assert!(from_slice::<Value, _>(&ok, &hd).is_ok());
    let mut d = Decoder::new(
        SliceReader::new(&ok),
        hd.dec_format(),
        hd.options.decode.clone(),
    );
    d.skip().unwrap();
    let mut deep = vec![0xE9, 0x01];
    deep.extend_from_slice(&ok);
    assert!(depth_error(from_slice::<Value, _>(&deep, &hd)));
}

#[test]
fn invalid_descriptors_are_errors() {
    for hx in [
        "00",
        "06",
        "07",
        "10",
        "17",
        "19",
        "d7",
        "dd",
        "df",
        "e5 00",
        "e7",
        "ed",
        "ef",
        "f5",
        "f7",
        "fd",
        "ff",
        "18 0e 01 0000000e7791f700 00000000 ff", // version 1 needs 15 bytes
        "18 0f 03 0000000e7791f700 00000000 ffff", // unknown version
        "18 0f 01 0000000e7791f700 3b9aca00 ffff", // 10^9 nanoseconds
    ] {
        let b = unhex(hx);
        assert!(from_slice::<Value, _>(&b, &h()).is_err(), "{hx}");
    }
    for hx in ["00", "06", "10", "d7", "dd", "ff"] {
        assert!(h().decoder(&unhex(hx)).skip().is_err(), "{hx}");
    }
    // The groups are checked: a map header is not a string, an integer is not bytes.
    assert!(from_slice::<String, _>(&unhex("f1 01 61"), &h()).is_err());
    assert!(from_slice::<Vec<u8>, _>(&unhex("08 05"), &h()).is_err());
    // Non-minimal widths and `0c 00` are accepted.
    assert_eq!(
        from_slice::<u64, _>(&unhex("0b 0000000000000001"), &h()).unwrap(),
        1
    );
    assert_eq!(from_slice::<i64, _>(&unhex("0c 00"), &h()).unwrap(), 0);
    assert_eq!(from_slice::<u64, _>(&unhex("0c 00"), &h()).unwrap(), 0);
    assert_eq!(
        from_slice::<String, _>(&unhex("db 00000002 6162"), &h()).unwrap(),
        "ab"
    );
    // Strings and byte arrays stand in for each other; arrays of small ints are bytes.
    assert_eq!(
        from_slice::<String, _>(&unhex("e1 02 6162"), &h()).unwrap(),
        "ab"
    );
    assert_eq!(
        from_slice::<Vec<u8>, _>(&unhex("d9 02 6162"), &h()).unwrap(),
        b"ab"
    );
    assert_eq!(
        from_slice::<Vec<u8>, _>(&unhex("e9 02 0801 0802"), &h()).unwrap(),
        [1, 2]
    );
    // Integral floats read as integers; others do not.
    assert_eq!(
        from_slice::<i32, _>(&unhex("05 3ff0000000000000"), &h()).unwrap(),
        1
    );
    assert!(from_slice::<i32, _>(&unhex("05 3ff8000000000000"), &h()).is_err());
}
