//! Derived enums with integer tags (`#[codec(index)]`) under
//! `enc_zero_values_as_nil`: a tag is never written as nil (tag 0 is a
//! variant, not a zero value), so every variant comes back, bare or in
//! map form, on its own or inside a struct. Nil, as ugorji writes a zero
//! Go integer "enum", reads as tag 0.

mod common;

extern crate codec_core as codec;

use codec::{Codec, Value, from_slice, to_vec};
use codec_simple::SimpleHandle;
use common::unhex as hex;

#[derive(Codec, Debug, Clone, PartialEq)]
#[codec(index)]
enum Idx {
    A,
    B(u8),
    C {
        x: i32,
    },
    #[codec(index = -5)]
    D,
    #[codec(index = 300)]
    F(String, u8),
}

#[derive(Codec, Debug, Clone, PartialEq)]
#[codec(index)]
enum Zero {
    #[codec(index = 1)]
    One,
    #[codec(index = 0)]
    Nought(bool),
}

#[derive(Codec, Debug, Clone, PartialEq)]
struct Holder {
    n: u32,
    e: Idx,
    list: Vec<Idx>,
    z: Zero,
}

fn zero_nil() -> SimpleHandle {
    SimpleHandle::default().enc_zero_values_as_nil(true)
}

#[test]
fn unit_variant_tags_are_integers_even_zero() {
    let h = zero_nil();
    for (v, want) in [(Idx::A, "08 00"), (Idx::D, "0c 05")] {
        let bytes = to_vec(&v, &h).unwrap();
        assert_eq!(bytes, hex(want), "{v:?}");
    }
    assert_eq!(to_vec(&Zero::One, &h).unwrap(), hex("08 01"));
    // The payload's zero values still become nil; the tag does not.
    assert_eq!(to_vec(&Idx::B(0), &h).unwrap(), hex("f1 01 08 01 01"));
    assert_eq!(
        to_vec(&Zero::Nought(false), &h).unwrap(),
        hex("f1 01 08 00 01")
    );
}

#[test]
fn every_variant_round_trips() {
    for h in [zero_nil(), SimpleHandle::default()] {
        let all = [
            Idx::A,
            Idx::B(0),
            Idx::B(7),
            Idx::C { x: 0 },
            Idx::C { x: -1 },
            Idx::D,
            Idx::F(String::new(), 0),
            Idx::F("f".into(), 1),
        ];
        for v in &all {
            let bytes = to_vec(v, &h).unwrap();
            assert_eq!(&from_slice::<Idx, _>(&bytes, &h).unwrap(), v, "{v:?}");
        }
        for z in [Zero::One, Zero::Nought(false), Zero::Nought(true)] {
            let bytes = to_vec(&z, &h).unwrap();
            assert_eq!(from_slice::<Zero, _>(&bytes, &h).unwrap(), z);
        }
        let holder = Holder {
            n: 0,
            e: Idx::A,
            list: all.to_vec(),
            z: Zero::Nought(false),
        };
        let bytes = to_vec(&holder, &h).unwrap();
        assert_eq!(from_slice::<Holder, _>(&bytes, &h).unwrap(), holder);
        // The tag reads back as an integer into `Value` too.
        let v: Value = from_slice(&to_vec(&Idx::A, &h).unwrap(), &h).unwrap();
        assert_eq!(v, Value::Uint(0));
    }
}

/// ugorji writes a Go integer "enum" that is zero as nil under
/// `EncZeroValuesAsNil` (`01`): read as tag 0, bare or in a struct, as a
/// zero integer is; where no variant has tag 0, it is an unknown variant.
#[test]
fn nil_reads_as_tag_zero() {
    #[derive(Codec, Debug, PartialEq)]
    #[codec(index)]
    enum NoZero {
        #[codec(index = 1)]
        One,
    }
    #[derive(Codec, Debug, PartialEq)]
    struct Go {
        n: u32,
        e: Idx,
    }
    let h = zero_nil();
    assert_eq!(from_slice::<Idx, _>(&hex("01"), &h).unwrap(), Idx::A);
    // {"n": nil, "e": nil}, as ugorji writes `Go{}`.
    let go = hex("f1 02 d9 01 6e 01 d9 01 65 01");
    let back: Go = from_slice(&go, &h).unwrap();
    assert_eq!(back, Go { n: 0, e: Idx::A });
    // Tag 0 with a payload is a bare tag that needs one.
    let e = from_slice::<Zero, _>(&hex("01"), &h).unwrap_err();
    assert!(e.to_string().contains("Nought"), "{e}");
    let e = from_slice::<NoZero, _>(&hex("01"), &h).unwrap_err();
    assert!(e.to_string().contains("unknown variant 0"), "{e}");
    assert_eq!(e.offset(), Some(0));
}
