//! Hostile input: prefixes, random and mutated bytes, huge declared lengths,
//! deep nesting, and reader equivalence (slice vs one-byte-at-a-time io::Read).

mod common;

use codec_cbor::CborHandle;
use codec_core::{ErrorKind, Handle, Time, Value, from_reader, from_slice, to_vec};
use common::{Json, data_path, parse_json, unhex};
use std::collections::BTreeMap;

fn valid_vectors() -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(data_path("CODEC_CBOR_APPENDIX_A", "appendix_a.json"))
        .expect("appendix_a.json");
    let Json::Arr(cases) = parse_json(&text) else {
        panic!("not an array")
    };
    let mut out: Vec<Vec<u8>> = cases
        .iter()
        .map(|c| unhex(c.get("hex").and_then(Json::str).expect("hex")))
        .collect();
    // A few more shapes: bignums, tags, times, nested indefinite items.
    for h in [
        "c249010000000000000000",
        "c349010000000000000000",
        "c074323031332d30332d32315432303a30343a30305a",
        "c1fb41d452d9ec200000",
        "5f42010243030405ff",
        "bf61610161629f0203ffff",
        "d9d9f7820102",
        "f7",
        "a3000102f6f4bf6161f5ff",
    ] {
        out.push(unhex(h));
    }
    out
}

use codec_test_support::OneByte as Trickle;

#[test]
fn every_strict_prefix_is_an_error() {
    let h = CborHandle::default();
    for v in valid_vectors() {
        assert!(
            from_slice::<Value, _>(&v, &h).is_ok(),
            "{v:02x?} must decode"
        );
        for n in 0..v.len() {
            let e = from_slice::<Value, _>(&v[..n], &h).expect_err("prefix accepted");
            assert!(
                matches!(e.kind(), ErrorKind::UnexpectedEof),
                "prefix {:02x?}: {e}",
                &v[..n]
            );
            let mut d = h.decoder(&v[..n]);
            assert!(d.skip().is_err(), "skip accepted prefix {:02x?}", &v[..n]);
        }
    }
}

#[test]
fn io_reader_matches_slice_reader() {
    let h = CborHandle::default();
    for v in valid_vectors() {
        let a: Value = from_slice(&v, &h).expect("slice");
        let b: Value = from_reader(&v[..], &h).expect("reader");
        let c: Value = from_reader(Trickle(&v), &h).expect("trickle");
        assert_eq!(a, b);
        assert_eq!(a, c, "{v:02x?}");
    }
    // Lookahead across reads: -2^64 and a bignum delivered one byte at a time.
    for hx in ["3bffffffffffffffff", "c249010000000000000000", "d9d9f7f6"] {
        let v = unhex(hx);
        let a: Value = from_slice(&v, &h).expect("slice");
        let c: Value = from_reader(Trickle(&v), &h).expect("trickle");
        assert_eq!(a, c);
    }
}

/// splitmix64
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn decode_all(input: &[u8], handles: &[CborHandle]) {
    for h in handles {
        let v = from_slice::<Value, _>(input, h).map_err(|e| e.to_string());
        let w = from_reader::<Value, _, _>(Trickle(input), h).map_err(|e| e.to_string());
        // The same value, or the same error (kind, place, path), however
        // the input arrives.
        assert_eq!(v, w, "{input:02x?}");
        let _ = from_slice::<Vec<u64>, _>(input, h);
        let _ = from_slice::<BTreeMap<String, Value>, _>(input, h);
        let _ = from_slice::<(i128, Time, Vec<u8>), _>(input, h);
        let _ = from_slice::<Option<String>, _>(input, h);
        let mut d = h.decoder(input);
        let _ = d.skip();
    }
}

#[test]
fn random_and_mutated_inputs_never_panic() {
    let handles = [
        CborHandle::default(),
        CborHandle::default()
            .skip_unexpected_tags(true)
            .reject_duplicate_keys(true),
    ];
    let seeds = valid_vectors();
    let mut rng = Rng(0x5eed);
    let mut buf = Vec::new();
    for i in 0..100_000 {
        buf.clear();
        if i % 2 == 0 {
            let n = rng.below(24);
            buf.extend((0..n).map(|_| rng.next() as u8));
        } else {
            buf.extend_from_slice(&seeds[rng.below(seeds.len())]);
            for _ in 0..1 + rng.below(3) {
                if buf.is_empty() {
                    break;
                }
                let at = rng.below(buf.len());
                match rng.below(4) {
                    0 => buf[at] = rng.next() as u8,
                    1 => buf[at] ^= 1 << rng.below(8),
                    2 => buf.insert(at, rng.next() as u8),
                    _ => {
                        buf.remove(at);
                    }
                }
            }
        }
        decode_all(&buf, &handles[..1 + (i % 2)]);
    }
}

#[test]
fn huge_declared_lengths_fail_without_allocating() {
    let h = CborHandle::default();
    for hx in [
        "5b8000000000000000",     // bytes of 2^63
        "7b8000000000000000",     // text of 2^63
        "9b8000000000000000",     // array of 2^63
        "bb8000000000000000",     // map of 2^63
        "5f5b800000000000000000", // chunk of 2^63
        "9bffffffffffffffff00",   // array of 2^64-1
    ] {
        let v = unhex(hx);
        assert!(from_slice::<Value, _>(&v, &h).is_err(), "{hx}");
        assert!(from_slice::<Vec<u8>, _>(&v, &h).is_err(), "{hx}");
        assert!(from_slice::<Vec<u64>, _>(&v, &h).is_err(), "{hx}");
        assert!(from_reader::<Value, _, _>(&v[..], &h).is_err(), "{hx}");
        let mut d = h.decoder(&v);
        assert!(d.skip().is_err(), "{hx}");
    }
}

#[test]
fn nesting_past_max_depth_is_an_error() {
    let h = CborHandle::default();
    let depth = h.options.decode.max_depth as usize;
    for (open, close) in [
        (0x81u8, None),
        (0x9f, Some(0xffu8)),
        (0xa1, None),
        (0xc6, None),
        // Tag 32 (a URI), with a one-byte argument.
        (0xd8, None),
    ] {
        for n in [depth, depth + 1, 100_000] {
            let mut v = Vec::new();
            for _ in 0..n {
                v.push(open);
                if open == 0xa1 {
                    v.push(0x00);
                }
                if open == 0xd8 {
                    v.push(0x20);
                }
            }
            v.push(0x00);
            if let Some(c) = close {
                v.extend(std::iter::repeat_n(c, n));
            }
            let r = from_slice::<Value, _>(&v, &h);
            // A `Document` too, in this thread's stack (2 MiB for a test).
            let doc = from_slice::<codec_core::Document, _>(&v, &h);
            assert_eq!(doc.is_ok(), r.is_ok(), "{open:02x} x {n}: {doc:?}");
            let mut d = h.decoder(&v);
            let s = d.skip();
            if n <= depth {
                assert!(r.is_ok(), "{open:02x} x {n}: {r:?}");
                assert!(s.is_ok(), "skip {open:02x} x {n}: {s:?}");
            } else {
                let e = r.expect_err("too deep");
                assert!(
                    matches!(e.kind(), ErrorKind::DepthLimitExceeded { .. }),
                    "{e}"
                );
                let e = s.expect_err("skip too deep");
                assert!(
                    matches!(e.kind(), ErrorKind::DepthLimitExceeded { .. }),
                    "{e}"
                );
            }
        }
    }
    // Tags 0/1 nested in themselves are rejected without recursion.
    let v: Vec<u8> = std::iter::repeat_n(0xc1, 100_000).collect();
    assert!(from_slice::<Value, _>(&v, &h).is_err());
    assert!(from_slice::<Time, _>(&v, &h).is_err());
    // Unknown tags skipped iteratively for typed targets.
    let mut v: Vec<u8> = std::iter::repeat_n(0xc6, 100_000).collect();
    v.push(0x07);
    let st = CborHandle::default().skip_unexpected_tags(true);
    assert_eq!(from_slice::<u8, _>(&v, &st).expect("skipped"), 7);
    assert!(from_slice::<u8, _>(&v, &h).is_err());
}

#[test]
fn value_round_trips_through_every_encoding_mode() {
    let v = Value::Map(vec![
        (
            Value::from("aa"),
            Value::Array(vec![Value::F64(1.5), Value::F32(f32::NAN)]),
        ),
        (Value::from("b"), Value::BigInt(-(1i128 << 100))),
        (
            Value::Uint(1),
            Value::Tagged(99, Box::new(Value::Bytes(vec![1, 2]))),
        ),
        (Value::Int(-1), Value::Simple(255)),
        (Value::Nil, Value::Str("é✓🚀".repeat(40).into())),
    ]);
    for h in [
        CborHandle::default(),
        CborHandle::default().indefinite_length(true),
        CborHandle::default().optimum_size(true),
        CborHandle::default().preferred_serialization(true),
        CborHandle::default().deterministic(true),
    ] {
        let bytes = to_vec(&v, &h).expect("encode");
        let back: Value = from_slice(&bytes, &h).expect("decode");
        let again = to_vec(&back, &h).expect("encode");
        assert_eq!(bytes, again, "{h:?}");
    }
}

#[test]
fn duplicate_keys_and_unknown_tags_follow_the_options() {
    let dup = unhex("a2616101616102");
    assert!(from_slice::<Value, _>(&dup, &CborHandle::default()).is_ok());
    let strict = CborHandle::default().reject_duplicate_keys(true);
    assert!(from_slice::<Value, _>(&dup, &strict).is_err());
    assert!(from_slice::<Value, _>(&unhex("a2616101616202"), &strict).is_ok());
    // Tag 6 around 7: a tagged value in Value; an error or skipped for u8.
    let tagged = unhex("c607");
    let v: Value = from_slice(&tagged, &CborHandle::default()).expect("value");
    assert_eq!(v, Value::Tagged(6, Box::new(Value::Uint(7))));
    let e = from_slice::<u8, _>(&tagged, &CborHandle::default()).expect_err("tag");
    assert!(e.to_string().contains("tag 6"), "{e}");
    let st = CborHandle::default().skip_unexpected_tags(true);
    assert_eq!(from_slice::<u8, _>(&tagged, &st).expect("skipped"), 7);
    // Self-described CBOR is transparent everywhere.
    assert_eq!(
        from_slice::<u8, _>(&unhex("d9d9f707"), &CborHandle::default()).expect("55799"),
        7
    );
}

/// Every integer head (major types 0 and 1, additional information 0 to 27,
/// shortest or not) read into each integer width: the value when it is in
/// range, an out-of-range error otherwise; the same from a slice, where the
/// typed reads take the head from the buffer without a call, and from a
/// one-byte-at-a-time reader, where they cannot and take the general path.
/// Every cut of a head is an end-of-input error in both.
#[test]
fn integer_heads_read_the_same_from_the_buffer_and_the_general_path() {
    fn check<T>(bytes: &[u8], want: i128)
    where
        T: for<'de> codec_core::Decode<'de> + TryFrom<i128> + Into<i128> + std::fmt::Debug,
    {
        let h = CborHandle::default();
        let from_buffer = from_slice::<T, _>(bytes, &h);
        let general = from_reader::<T, _, _>(Trickle(bytes), &h);
        match T::try_from(want) {
            Ok(_) => {
                let got: i128 = from_buffer.expect("in range").into();
                assert_eq!(got, want, "{bytes:02x?}");
                let got: i128 = general.expect("in range").into();
                assert_eq!(got, want, "{bytes:02x?} one byte at a time");
            }
            Err(_) => {
                let (a, b) = (
                    from_buffer.expect_err("out of range"),
                    general.expect_err("too"),
                );
                assert!(
                    matches!(a.kind(), ErrorKind::OutOfRange { .. }),
                    "{bytes:02x?}: {a}"
                );
                assert_eq!(a.to_string(), b.to_string(), "{bytes:02x?}");
                assert_eq!(a.offset(), b.offset(), "{bytes:02x?}");
            }
        }
    }
    let args = [
        0u64,
        1,
        23,
        24,
        255,
        256,
        65_535,
        65_536,
        u32::MAX as u64,
        u32::MAX as u64 + 1,
        i64::MAX as u64 - 1,
        i64::MAX as u64,
        i64::MAX as u64 + 1,
        u64::MAX,
    ];
    let mut heads = 0;
    for major in [0u8, 1] {
        for arg in args {
            for (ai, width) in [(0u8, 0usize), (24, 1), (25, 2), (26, 4), (27, 8)] {
                let fits = match width {
                    0 => arg < 24,
                    8 => true,
                    w => arg < 1 << (8 * w),
                };
                if !fits {
                    continue;
                }
                let mut bytes = vec![major << 5 | if width == 0 { arg as u8 } else { ai }];
                bytes.extend_from_slice(&arg.to_be_bytes()[8 - width..]);
                let want = if major == 0 {
                    arg as i128
                } else {
                    -1 - arg as i128
                };
                check::<i8>(&bytes, want);
                check::<u8>(&bytes, want);
                check::<i16>(&bytes, want);
                check::<u16>(&bytes, want);
                check::<i32>(&bytes, want);
                check::<u32>(&bytes, want);
                check::<i64>(&bytes, want);
                check::<u64>(&bytes, want);
                check::<i128>(&bytes, want);
                for n in 0..bytes.len() {
                    let h = CborHandle::default();
                    let a = from_slice::<i64, _>(&bytes[..n], &h).expect_err("cut");
                    let b = from_reader::<u64, _, _>(Trickle(&bytes[..n]), &h).expect_err("cut");
                    assert!(
                        matches!(a.kind(), ErrorKind::UnexpectedEof),
                        "{:02x?}: {a}",
                        &bytes[..n]
                    );
                    assert!(
                        matches!(b.kind(), ErrorKind::UnexpectedEof),
                        "{:02x?}: {b}",
                        &bytes[..n]
                    );
                }
                heads += 1;
            }
        }
    }
    assert_eq!(heads, 2 * 38, "heads tried");
}

/// Reserved additional information (28..=30), a misplaced indefinite
/// length and a two-byte simple value below 32 are errors at the item's
/// first byte, from a slice and from a one-byte reader, into typed targets
/// and into `Value`.
#[test]
fn malformed_heads_point_at_their_first_byte() {
    let h = CborHandle::default();
    let cases: &[(&str, u64)] = &[
        ("1c", 0),
        ("1f", 0),
        ("3d", 0),
        ("9c", 0),
        ("bc", 0),
        ("82011d", 2),
        ("f810", 0),
        ("81f810", 1),
    ];
    for &(hex, at) in cases {
        let bytes = unhex(hex);
        let mut errors = vec![
            from_slice::<Value, _>(&bytes, &h).unwrap_err(),
            from_reader::<Value, _, _>(Trickle(&bytes), &h).unwrap_err(),
        ];
        match bytes[0] >> 5 {
            0 | 1 => errors.push(from_slice::<i64, _>(&bytes, &h).unwrap_err()),
            4 => errors.push(from_slice::<Vec<u8>, _>(&bytes, &h).unwrap_err()),
            _ => {}
        }
        for e in errors {
            assert_eq!(e.offset(), Some(at), "{hex}: {e}");
        }
    }
}
