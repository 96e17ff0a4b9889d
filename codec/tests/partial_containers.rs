//! `array_end` and `map_end` called before a container's end: the items
//! and entries not read are skipped, what follows decodes as written, and
//! the nesting level is given back, with every handle (declared lengths,
//! JSON's end markers, CBOR's indefinite lengths).

use codec::{AnyHandle, Decode, DecodeFormat, Decoder, Read, Result, Value};

fn handles() -> Vec<AnyHandle> {
    AnyHandle::NAMES
        .iter()
        .map(|n| AnyHandle::from_name(n).unwrap())
        .collect()
}

/// The first `N` items of an array (as `u64`), the rest left to `array_end`.
#[derive(Debug, PartialEq)]
struct Head<const N: usize>(Vec<u64>);

impl<'de, const N: usize> Decode<'de> for Head<N> {
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let mut seq = d.array_begin()?;
        let mut out = Vec::new();
        while out.len() < N && d.array_next(&mut seq)? {
            out.push(d.decode_u64()?);
        }
        d.array_end(seq)?;
        Ok(Head(out))
    }
}

/// The first `N` entries of a map (text key, `u64` value), the rest left to `map_end`.
#[derive(Debug, PartialEq)]
struct FirstEntries<const N: usize>(Vec<(String, u64)>);

impl<'de, const N: usize> Decode<'de> for FirstEntries<N> {
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let mut seq = d.map_begin()?;
        let mut out = Vec::new();
        while out.len() < N && d.map_next(&mut seq)? {
            let k = String::decode(d)?;
            d.map_value(&mut seq)?;
            out.push((k, d.decode_u64()?));
        }
        d.map_end(seq)?;
        Ok(FirstEntries(out))
    }
}

fn s(x: &str) -> Value {
    Value::Str(x.into())
}

/// `[first, [2, 3], {"x": 4}, "tail"]`: what follows the first item has
/// nested containers for skipping to get through.
fn array_of(first: u64) -> Value {
    Value::Array(vec![
        Value::Uint(first),
        Value::Array(vec![Value::Uint(2), Value::Uint(3)]),
        Value::Map(vec![(s("x"), Value::Uint(4))]),
        s("tail"),
    ])
}

fn map_of(first: u64) -> Value {
    Value::Map(vec![
        (s("a"), Value::Uint(first)),
        (s("b"), Value::Array(vec![Value::Uint(2), Value::Nil])),
        (s("c"), Value::Map(vec![(s("d"), Value::Bool(true))])),
    ])
}

type Partial = (Head<1>, FirstEntries<1>, Head<0>, FirstEntries<0>, u64);

#[test]
fn unread_items_and_entries_are_skipped() {
    for h in handles() {
        let doc = Value::Array(vec![
            array_of(1),
            map_of(5),
            array_of(9),
            map_of(6),
            Value::Uint(7),
        ]);
        let bytes = h.to_vec(&doc).unwrap();
        let got: Partial = h.from_slice(&bytes).unwrap();
        assert_eq!(
            got,
            (
                Head(vec![1]),
                FirstEntries(vec![("a".into(), 5)]),
                Head(vec![]),
                FirstEntries(vec![]),
                7
            ),
            "{}",
            h.name()
        );
        // Read whole (the end already seen), the same calls end cleanly.
        let whole = Value::Array(vec![
            Value::Array(vec![Value::Uint(1), Value::Uint(2)]),
            Value::Map(vec![(s("a"), Value::Uint(3))]),
            Value::Uint(4),
        ]);
        let got: (Head<2>, FirstEntries<1>, u64) =
            h.from_slice(&h.to_vec(&whole).unwrap()).unwrap();
        assert_eq!(
            got,
            (Head(vec![1, 2]), FirstEntries(vec![("a".into(), 3)]), 4),
            "{}",
            h.name()
        );
    }
}

#[test]
fn cbor_indefinite_lengths_are_skipped_to_their_break() {
    let h = AnyHandle::from_name("cbor").unwrap();
    // [_ [_ 1, [_ 2], 3], {_ "a": 5, "b": [_ 6]}, 7]
    let bytes = [
        0x9f, 0x9f, 0x01, 0x9f, 0x02, 0xff, 0x03, 0xff, 0xbf, 0x61, b'a', 0x05, 0x61, b'b', 0x9f,
        0x06, 0xff, 0xff, 0x07, 0xff,
    ];
    let got: (Head<1>, FirstEntries<1>, u64) = h.from_slice(&bytes).unwrap();
    assert_eq!(got, (Head(vec![1]), FirstEntries(vec![("a".into(), 5)]), 7));
}

/// Each container ended, early or after its last item, gives its nesting
/// level back: a thousand of them side by side stay within the default
/// depth limit.
#[test]
fn ending_gives_the_level_back() {
    for h in handles() {
        let doc = Value::Array((0..1000).map(|i| array_of(i % 3)).collect());
        let bytes = h.to_vec(&doc).unwrap();
        let got: Vec<Head<1>> = h.from_slice(&bytes).unwrap();
        assert_eq!(got.len(), 1000, "{}", h.name());
        assert!(got.iter().enumerate().all(|(i, x)| x.0 == [i as u64 % 3]));
        let doc = Value::Array((0..1000).map(|i| map_of(i % 5)).collect());
        let got: Vec<FirstEntries<1>> = h.from_slice(&h.to_vec(&doc).unwrap()).unwrap();
        assert!(
            got.iter()
                .enumerate()
                .all(|(i, x)| x.0 == [("a".into(), i as u64 % 5)])
        );
        // Read to the end before `array_end` / `map_end`.
        let doc = Value::Array(
            (0..1000)
                .map(|i| Value::Array(vec![Value::Uint(i)]))
                .collect(),
        );
        let got: Vec<Head<9>> = h.from_slice(&h.to_vec(&doc).unwrap()).unwrap();
        assert!(got.iter().enumerate().all(|(i, x)| x.0 == [i as u64]));
        let doc = Value::Array(
            (0..1000)
                .map(|i| Value::Map(vec![(s("k"), Value::Uint(i))]))
                .collect(),
        );
        let got: Vec<FirstEntries<9>> = h.from_slice(&h.to_vec(&doc).unwrap()).unwrap();
        assert!(
            got.iter()
                .enumerate()
                .all(|(i, x)| x.0 == [("k".into(), i as u64)])
        );
    }
}

/// The bytes of `doc` in `h`, cut in the middle of the run of 40 `z`s
/// that one of its strings holds.
fn cut_in_zs(h: &AnyHandle, doc: &Value) -> Vec<u8> {
    let mut bytes = h.to_vec(doc).unwrap();
    let at = bytes
        .windows(40)
        .position(|w| w.iter().all(|&b| b == b'z'))
        .unwrap_or_else(|| panic!("{}: no run of z", h.name()));
    bytes.truncate(at + 20);
    bytes
}

/// An error in what `array_end` and `map_end` skip names the item by its
/// index and the entry by its key (by its position when the key itself
/// is cut), as the error of a decoder that read them would.
#[test]
fn errors_in_skipped_items_and_entries_name_them() {
    let zs = || s(&"z".repeat(40));
    for h in handles() {
        let items = Value::Array(vec![Value::Uint(1), Value::Uint(2), zs()]);
        let err = h.from_slice::<Head<1>>(&cut_in_zs(&h, &items)).unwrap_err();
        assert!(err.is_eof(), "{}: {err}", h.name());
        assert_eq!(err.path_string(), "[2]", "{}: {err}", h.name());

        let entries = Value::Map(vec![
            (s("a"), Value::Uint(1)),
            (s("b"), Value::Array(vec![Value::Nil, zs()])),
        ]);
        let err = h
            .from_slice::<FirstEntries<1>>(&cut_in_zs(&h, &entries))
            .unwrap_err();
        assert!(err.is_eof(), "{}: {err}", h.name());
        // (A skip reads no path inside what it skips.)
        assert_eq!(err.path_string(), "[\"b\"]", "{}: {err}", h.name());

        let int_keys = Value::Array(vec![Value::Map(vec![
            (s("a"), Value::Uint(1)),
            (Value::Uint(7), zs()),
        ])]);
        let err = h
            .from_slice::<(FirstEntries<1>,)>(&cut_in_zs(&h, &int_keys))
            .unwrap_err();
        assert!(err.is_eof(), "{}: {err}", h.name());
        // JSON writes the key as a string, and reads it back as one.
        let key = if h.name() == "json" { "[\"7\"]" } else { "[7]" };
        assert_eq!(
            err.path_string(),
            format!("[0]{key}"),
            "{}: {err}",
            h.name()
        );

        let cut_key = Value::Map(vec![(s("a"), Value::Uint(1)), (zs(), Value::Nil)]);
        let err = h
            .from_slice::<FirstEntries<1>>(&cut_in_zs(&h, &cut_key))
            .unwrap_err();
        assert!(err.is_eof(), "{}: {err}", h.name());
        assert_eq!(err.path_string(), "[key of entry 1]", "{}: {err}", h.name());
    }
}
