//! Hostile and broken input: never a panic, never a big allocation, never a
//! stack overflow; every failure is an ordinary `Err`.

mod common;

use codec_core::{ErrorKind, Handle, Value, from_reader, from_slice};
use codec_msgpack::MsgpackHandle;
use common::{OneByte, SplitMix, load_suite};
use std::collections::BTreeMap;

fn handles() -> [MsgpackHandle; 2] {
    [MsgpackHandle::default(), MsgpackHandle::ugorji_default()]
}

/// Decodes `input` into `Value` and a few typed targets; only checks that
/// nothing panics. Returns the `Value` result.
fn decode_all(input: &[u8], h: &MsgpackHandle) -> codec_core::Result<Value> {
    let _ = from_slice::<Vec<String>, _>(input, h);
    let _ = from_slice::<BTreeMap<String, i64>, _>(input, h);
    let _ = from_slice::<(u8, f64, Vec<u8>), _>(input, h);
    let _ = from_slice::<Vec<Option<codec_core::Time>>, _>(input, h);
    let _ = from_slice::<(bool, &str, &[u8]), _>(input, h);
    from_slice::<Value, _>(input, h)
}

#[test]
fn every_strict_prefix_of_every_suite_encoding_is_an_error() {
    let mut checked = 0;
    for case in load_suite() {
        for enc in &case.encodings {
            for h in &handles() {
                assert!(
                    from_slice::<Value, _>(enc, h).is_ok(),
                    "{}: full input",
                    case.id
                );
                for cut in 0..enc.len() {
                    let prefix = &enc[..cut];
                    let r = decode_all(prefix, h);
                    assert!(
                        r.is_err(),
                        "{}: prefix {prefix:02x?} decoded to {r:?}",
                        case.id
                    );
                    let io = from_reader::<Value, _, _>(OneByte(prefix), h);
                    assert!(io.is_err(), "{}: io prefix {prefix:02x?}", case.id);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} prefixes");
    println!("strict prefixes checked: {checked}");
}

#[test]
fn huge_declared_lengths_on_short_input_fail_fast() {
    let h = MsgpackHandle::default();
    let heads: &[&[u8]] = &[
        &[0xdb, 0xff, 0xff, 0xff, 0xff],
        &[0xc6, 0xff, 0xff, 0xff, 0xff],
        &[0xdd, 0xff, 0xff, 0xff, 0xff],
        &[0xdf, 0xff, 0xff, 0xff, 0xff],
        &[0xc9, 0xff, 0xff, 0xff, 0xff, 0x01],
        &[0xc9, 0xff, 0xff, 0xff, 0xff, 0xff],
        &[0xda, 0xff, 0xff],
        &[0xdc, 0xff, 0xff],
        &[0xde, 0xff, 0xff],
    ];
    let start = std::time::Instant::now();
    for head in heads {
        for tail in [&[][..], &[0x01, 0x02, 0x03][..], &[0xa1, b'x', 0x01][..]] {
            let input = [*head, tail].concat();
            assert!(decode_all(&input, &h).is_err(), "{input:02x?}");
            assert!(from_slice::<Vec<u64>, _>(&input, &h).is_err());
            assert!(from_slice::<Vec<Value>, _>(&input, &h).is_err());
            assert!(from_slice::<BTreeMap<u8, u8>, _>(&input, &h).is_err());
            assert!(from_slice::<String, _>(&input, &h).is_err());
            assert!(from_reader::<Value, _, _>(OneByte(&input), &h).is_err());
            assert!(from_reader::<Vec<u8>, _, _>(&input[..], &h).is_err());
            assert!(from_reader::<String, _, _>(&input[..], &h).is_err());
        }
    }
    // A claimed 4 GiB array of nils: items arrive one byte each, so it ends early.
    let mut input = vec![0xdd, 0xff, 0xff, 0xff, 0xff];
    input.extend(std::iter::repeat_n(0xc0, 10_000));
    let err = from_slice::<Vec<()>, _>(&input, &h).unwrap_err();
    assert!(err.is_eof(), "{err}");
    assert!(
        start.elapsed() < std::time::Duration::from_secs(5),
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn deep_nesting_is_a_depth_error_not_a_stack_overflow() {
    for h in handles() {
        for lead in [0x91u8, 0x81] {
            // 0x81 needs a key: use [0x81, 0x00] pairs (map {0: map {0: ...}}).
            let unit: &[u8] = if lead == 0x91 { &[0x91] } else { &[0x81, 0x00] };
            let input: Vec<u8> = unit.repeat(100_000);
            let err = from_slice::<Value, _>(&input, &h).unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::DepthLimitExceeded { .. }),
                "{err}"
            );
            // Skipping (an unknown struct field, an ignored item) is bounded too.
            let mut d = h.decoder(&input);
            let err = d.skip().unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::DepthLimitExceeded { .. }),
                "{err}"
            );
            let err = from_reader::<Value, _, _>(&input[..], &h).unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::DepthLimitExceeded { .. }),
                "{err}"
            );
        }
    }
    // Exactly at the limit is fine; one more is not.
    let h = MsgpackHandle::default();
    let max = h.options.decode.max_depth as usize;
    let mut ok = vec![0x91; max - 1];
    ok.push(0x90);
    assert!(from_slice::<Value, _>(&ok, &h).is_ok());
    let mut d = h.decoder(&ok);
    d.skip().unwrap();
    let mut deep = vec![0x91; max];
    deep.push(0x90);
    assert!(from_slice::<Value, _>(&deep, &h).is_err());
    let mut d = h.decoder(&deep);
    assert!(d.skip().is_err());
}

/// Builds a random but mostly well-formed msgpack item (so mutations reach deep code).
fn gen_item(rng: &mut SplitMix, out: &mut Vec<u8>, depth: u32) {
    let pick = if depth > 4 {
        rng.below(12)
    } else {
        rng.below(16)
    };
    match pick {
        0 => out.push(rng.byte() & 0x7f),
        1 => out.push(0xe0 | (rng.byte() & 0x1f)),
        2 => {
            let b = [0xcc, 0xcd, 0xce, 0xcf, 0xd0, 0xd1, 0xd2, 0xd3][rng.below(8)];
            out.push(b);
            let n = [1, 2, 4, 8][(b & 3) as usize];
            out.extend((0..n).map(|_| rng.byte()));
        }
        3 => {
            out.push(0xca);
            out.extend(rng.next_u64().to_be_bytes()[..4].iter());
        }
        4 => {
            out.push(0xcb);
            out.extend(rng.next_u64().to_be_bytes());
        }
        5 => out.push([0xc0, 0xc2, 0xc3][rng.below(3)]),
        6 | 7 => {
            let n = rng.below(40);
            match rng.below(3) {
                0 if n < 32 => out.push(0xa0 | n as u8),
                1 => out.extend([0xd9, n as u8]),
                _ => out.extend([0xc4, n as u8]),
            }
            let text = rng.below(2) == 0;
            out.extend((0..n).map(|_| {
                if text {
                    b'a' + rng.byte() % 26
                } else {
                    rng.byte()
                }
            }));
        }
        8 => {
            let n = [1usize, 2, 4, 8, 16][rng.below(5)];
            out.push(match n {
                1 => 0xd4,
                2 => 0xd5,
                4 => 0xd6,
                8 => 0xd7,
                _ => 0xd8,
            });
            out.push(if rng.below(3) == 0 { 0xff } else { rng.byte() });
            out.extend((0..n).map(|_| rng.byte()));
        }
        9 => {
            let n = [4usize, 8, 12, 3][rng.below(4)];
            out.extend([0xc7, n as u8, 0xff]);
            out.extend((0..n).map(|_| rng.byte()));
        }
        10 | 11 => {
            let n = rng.below(5);
            out.push(0xa0 | n as u8);
            out.extend((0..n).map(|_| b'k' + rng.byte() % 4));
        }
        12 | 13 => {
            let n = rng.below(5);
            out.push(0x90 | n as u8);
            for _ in 0..n {
                gen_item(rng, out, depth + 1);
            }
        }
        _ => {
            let n = rng.below(4);
            out.push(0x80 | n as u8);
            for _ in 0..n {
                gen_item(rng, out, depth + 1);
                gen_item(rng, out, depth + 1);
            }
        }
    }
}

fn mutate(rng: &mut SplitMix, input: &mut Vec<u8>) {
    for _ in 0..=rng.below(3) {
        if input.is_empty() {
            input.push(rng.byte());
            continue;
        }
        let i = rng.below(input.len());
        match rng.below(6) {
            0 => input[i] = rng.byte(),
            1 => input[i] ^= 1 << rng.below(8),
            2 => {
                input.remove(i);
            }
            3 => input.insert(i, rng.byte()),
            4 => input.truncate(i),
            _ => {
                // A header byte that claims a lot.
                let b = [0xdb, 0xc6, 0xdd, 0xdf, 0xc9, 0xda, 0xdc, 0xde][rng.below(8)];
                input.insert(i, b);
            }
        }
    }
}

#[test]
fn random_and_mutated_inputs_never_panic() {
    let mut rng = SplitMix(0x5eed_1234_abcd_0001);
    let hs = handles();
    let mut ok = 0usize;
    let mut total = 0usize;
    let mut buf = Vec::new();
    for i in 0..120_000 {
        buf.clear();
        if i % 3 == 0 {
            let n = rng.below(24);
            buf.extend((0..n).map(|_| rng.byte()));
        } else {
            gen_item(&mut rng, &mut buf, 0);
            if i % 3 == 2 {
                mutate(&mut rng, &mut buf);
            }
        }
        let h = &hs[i % 2];
        if decode_all(&buf, h).is_ok() {
            ok += 1;
        }
        let mut d = h.decoder(&buf);
        let _ = d.skip();
        total += 1;
    }
    assert!(total >= 100_000);
    // The generator must reach valid documents too, or the test proves little.
    assert!(ok > total / 4, "only {ok} of {total} inputs were valid");
    println!("random/mutated inputs: {total}, valid: {ok}");
}

#[test]
fn io_reader_agrees_with_slices() {
    let mut rng = SplitMix(0x10_0000_beef);
    let h = MsgpackHandle::default();
    let old = MsgpackHandle::ugorji_default();
    let mut buf = Vec::new();
    for i in 0..3_000 {
        buf.clear();
        gen_item(&mut rng, &mut buf, 0);
        if i % 2 == 1 {
            mutate(&mut rng, &mut buf);
        }
        for h in [&h, &old] {
            let slice = from_slice::<Value, _>(&buf, h).map_err(|e| e.to_string());
            let io = from_reader::<Value, _, _>(&buf[..], h).map_err(|e| e.to_string());
            let one = from_reader::<Value, _, _>(OneByte(&buf), h).map_err(|e| e.to_string());
            // The same value, or the same error (kind, place, path),
            // however the input arrives.
            assert_eq!(slice, io, "{buf:02x?}");
            assert_eq!(slice, one, "{buf:02x?}");
            let ts = from_slice::<(u8, f64, Vec<u8>), _>(&buf, h).ok();
            let ti = from_reader::<(u8, f64, Vec<u8>), _, _>(OneByte(&buf), h).ok();
            assert_eq!(ts, ti);
            let ms = from_slice::<BTreeMap<String, i64>, _>(&buf, h).ok();
            let mi = from_reader::<BTreeMap<String, i64>, _, _>(OneByte(&buf), h).ok();
            assert_eq!(ms, mi);
        }
    }
}

#[test]
fn reserved_byte_and_trailing_data_are_errors() {
    let h = MsgpackHandle::default();
    for input in [
        &[0xc1][..],
        &[0x91, 0xc1],
        &[0x81, 0xc1, 0x00],
        &[0x00, 0x00],
        &[0xc0, 0xc0],
    ] {
        assert!(decode_all(input, &h).is_err(), "{input:02x?}");
        let mut d = h.decoder(input);
        assert!(d.skip().is_err() || !d.at_end().unwrap(), "{input:02x?}");
    }
}
