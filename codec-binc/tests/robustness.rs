//! Hostile input: random and mutated bytes never panic, huge declared
//! lengths fail without big allocations, deep nesting fails, and the slice
//! and one-byte-at-a-time readers agree.

mod common;

use codec_binc::BincHandle;
use codec_core::{
    Decoder, ErrorKind, Handle, Options, SliceReader, Time, Value, from_reader, from_slice, to_vec,
};
use common::*;
use std::collections::BTreeMap;

fn h() -> BincHandle {
    BincHandle::default()
}

/// Valid documents to mutate: every kind of item, symbols included.
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
        out.push(to_vec(v, &h().as_symbols(true)).unwrap());
    }
    out.push(to_vec(&values, &h().as_symbols(true)).unwrap());
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
fn exercise(hd: &BincHandle, input: &[u8], with_io: bool) -> bool {
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
        "43 ffffffffffffffff 61",       // string of 2^64-1 bytes
        "42 ffffffff 61",               // string of 4 GiB
        "53 7fffffffffffffff 00",       // bytes
        "63 0fffffffffffffff 90",       // array
        "72 ffffffff 90 90",            // map
        "f3 ffffffffffffffff 05 00",    // extension
        "b7 01 ffffffffffffffff 61",    // symbol definition
        "bf 01 00 7fffffffffffffff 61", // wide symbol definition
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
    let mut arrays = vec![0x65u8; 1000];
    arrays.push(0x90);
    let mut maps = Vec::new();
    for _ in 0..1000 {
        maps.extend_from_slice(&[0x75, 0x90]);
    }
    maps.push(0x90);
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
    let hd = BincHandle::default().with_options(opts);
    let mut ok = vec![0x65u8; 10];
    ok.push(0x90);
    assert!(from_slice::<Value, _>(&ok, &hd).is_ok());
    let mut d = Decoder::new(
        SliceReader::new(&ok),
        hd.dec_format(),
        hd.options.decode.clone(),
    );
    d.skip().unwrap();
    let mut deep = vec![0x65u8; 11];
    deep.push(0x90);
    assert!(depth_error(from_slice::<Value, _>(&deep, &hd)));
}

#[test]
fn invalid_descriptors_are_errors() {
    for hx in [
        "09",
        "0f",
        "18 0000000000000000 00",
        "28 00",
        "30 3c00",
        "32 0000000000",
        "3c 00",
        "a4 00",
        "c0",
        "d0",
        "e0",
        "80",
        "39 05 00000000 00",
    ] {
        let b = unhex(hx);
        assert!(from_slice::<Value, _>(&b, &h()).is_err(), "{hx}");
        assert!(h().decoder(&b).skip().is_err(), "{hx}");
    }
    // Pruned float32 (`39`) is accepted, as in ugorji.
    assert_eq!(
        from_slice::<f32, _>(&unhex("39 02 3fc0"), &h()).unwrap(),
        1.5
    );
    // Non-minimal widths and lengths are accepted.
    assert_eq!(
        from_slice::<u64, _>(&unhex("13 00000001"), &h()).unwrap(),
        1
    );
    assert_eq!(from_slice::<u64, _>(&unhex("10 00"), &h()).unwrap(), 0);
    assert_eq!(
        from_slice::<String, _>(&unhex("41 0002 6162"), &h()).unwrap(),
        "ab"
    );
}
