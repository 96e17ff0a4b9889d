//! Tag 55799 (self-described CBOR, `d9 d9f7`) before an item: typed reads
//! and `Value` look through it; a peek leaves it unread, so that the item
//! begins at its first tag (a `Raw` captured after the peek holds it, an
//! error about the item points at it); `Option` reads it with a nil.

mod common;

use codec_cbor::CborHandle;
use codec_core::{Handle, Kind, Raw, Value, from_reader, from_slice};
use codec_test_support::OneByte;
use common::unhex;

const TAG: &str = "d9d9f7";

/// `n` tags 55799 before `item` (hex).
fn tagged(n: usize, item: &str) -> Vec<u8> {
    unhex(&format!("{}{item}", TAG.repeat(n)))
}

/// Items of every kind a peek tells, bignums and negatives past 64 bits included.
const ITEMS: &[&str] = &[
    "01",
    "20",
    "3bffffffffffffffff",
    "3b7fffffffffffffff",
    "c249010000000000000000",
    "c34b0100000000000000000000",
    "c074323031332d30332d32315432303a30343a30305a",
    "c607",
    "4401020304",
    "6161",
    "820102",
    "a10102",
    "f5",
    "f6",
    "f7",
    "f93c00",
    "fb3ff8000000000000",
];

#[test]
fn a_peek_leaves_the_tags_unread_and_tells_the_kind_behind_them() {
    let h = CborHandle::default();
    for item in ITEMS {
        let bare = h.decoder(&unhex(item)).peek_kind().expect(item);
        for n in [1, 2, 16] {
            let bytes = tagged(n, item);
            let mut d = h.decoder(&bytes);
            assert_eq!(d.peek_kind().expect(item), bare, "{n} x {item}");
            assert_eq!(d.next_item_offset(), 0, "{n} x {item}");
            assert_eq!(&*d.capture_raw().expect(item), &bytes[..], "{n} x {item}");

            let mut d = h.io_decoder(OneByte(&bytes));
            assert_eq!(d.peek_kind().expect(item), bare, "{n} x {item}");
            assert_eq!(&*d.capture_raw().expect(item), &bytes[..], "{n} x {item}");
        }
    }
}

#[test]
fn an_optional_raw_keeps_the_tags_and_reads_them_with_a_nil() {
    let h = CborHandle::default();
    for n in [1, 3] {
        let some = tagged(n, "820102");
        let want = Some(Raw(some.clone()));
        assert_eq!(from_slice::<Option<Raw>, _>(&some, &h).unwrap(), want);
        assert_eq!(
            from_reader::<Option<Raw>, _, _>(OneByte(&some), &h).unwrap(),
            want
        );
        for nil in ["f6", "f7"] {
            let none = tagged(n, nil);
            assert_eq!(from_slice::<Option<Raw>, _>(&none, &h).unwrap(), None);
            assert_eq!(
                from_reader::<Option<Raw>, _, _>(OneByte(&none), &h).unwrap(),
                None
            );
        }
    }
}

/// Past the tags a peek looks ahead over (sixteen), it consumes them: every
/// read still sees the item.
#[test]
fn long_chains_of_tags_are_transparent_to_every_read() {
    let h = CborHandle::default();
    for n in [1, 16, 17, 40, 1000] {
        let array = tagged(n, "820102");
        let want = Value::Array(vec![Value::Uint(1), Value::Uint(2)]);
        assert_eq!(from_slice::<Value, _>(&array, &h).unwrap(), want, "{n}");
        assert_eq!(
            from_reader::<Value, _, _>(OneByte(&array), &h).unwrap(),
            want,
            "{n}"
        );
        assert_eq!(
            from_slice::<Vec<u32>, _>(&array, &h).unwrap(),
            [1, 2],
            "{n}"
        );
        let nil = tagged(n, "f6");
        assert_eq!(from_slice::<Value, _>(&nil, &h).unwrap(), Value::Nil, "{n}");
        assert_eq!(from_slice::<Option<u32>, _>(&nil, &h).unwrap(), None, "{n}");
        let nil_in = from_reader::<Option<u32>, _, _>(OneByte(&nil), &h).unwrap();
        assert_eq!(nil_in, None, "{n}");
        let seven = tagged(n, "07");
        assert_eq!(
            from_slice::<Option<u32>, _>(&seven, &h).unwrap(),
            Some(7),
            "{n}"
        );
        let big = tagged(n, "c249010000000000000000");
        assert_eq!(
            from_slice::<Value, _>(&big, &h).unwrap(),
            Value::BigInt(1 << 64),
            "{n}"
        );
    }
    // Tag 55799 written with a longer head than it needs: the same.
    for head in ["da0000d9f7", "db000000000000d9f7", "d9d9f7da0000d9f7"] {
        let nil = unhex(&format!("{head}f6"));
        assert_eq!(
            from_slice::<Value, _>(&nil, &h).unwrap(),
            Value::Nil,
            "{head}"
        );
        assert_eq!(
            from_slice::<Option<u32>, _>(&nil, &h).unwrap(),
            None,
            "{head}"
        );
        let raw = from_reader::<Option<Raw>, _, _>(OneByte(&nil), &h).unwrap();
        assert_eq!(raw, None, "{head}");
        let array = unhex(&format!("{head}8201{head}f6"));
        let want = Value::Array(vec![Value::Uint(1), Value::Nil]);
        assert_eq!(from_slice::<Value, _>(&array, &h).unwrap(), want, "{head}");
        let want = Some(Raw(array.clone()));
        assert_eq!(
            from_slice::<Option<Raw>, _>(&array, &h).unwrap(),
            want,
            "{head}"
        );
    }
    // A Raw with up to sixteen tags, peeked or not, holds them all.
    let bytes = tagged(16, "01");
    assert_eq!(
        from_slice::<Option<Raw>, _>(&bytes, &h).unwrap(),
        Some(Raw(bytes.clone()))
    );
    assert_eq!(
        from_slice::<Raw, _>(&bytes, &h).unwrap(),
        Raw(bytes.clone())
    );
}

/// A malformed item behind the tags is named where it starts, as without them.
#[test]
fn an_error_behind_the_tags_points_at_the_item() {
    let h = CborHandle::default();
    for (item, at) in [
        ("1c", 0),
        ("ff", 0),
        ("82011d", 2),
        ("f810", 0),
        ("3b01", 2),
    ] {
        for n in [1, 2] {
            let bytes = tagged(n, item);
            let shift = 3 * n as u64;
            let errors = [
                from_slice::<Value, _>(&bytes, &h).unwrap_err(),
                from_reader::<Value, _, _>(OneByte(&bytes), &h).unwrap_err(),
            ];
            for e in errors {
                assert_eq!(e.offset(), Some(at + shift), "{n} x {item}: {e}");
            }
        }
    }
    // A tag cut short after the first.
    let e = from_slice::<Value, _>(&unhex("d9d9f7d9d9"), &h).unwrap_err();
    assert!(e.is_eof(), "{e}");
    // A type error found by a peek: at the first tag, quoting the item.
    let bytes = tagged(2, "6161");
    let mut d = h.decoder(&bytes);
    let kind = d.peek_kind().unwrap();
    assert_eq!(kind, Kind::Str);
    let e = d.mismatch(kind, "integer");
    assert_eq!(e.offset(), Some(0), "{e}");
    assert!(e.to_string().contains(r#"text string "a""#), "{e}");
}
