//! A derived struct of up to 25 fields first tries its fields in
//! declaration order, each key checked in place by the format, and leaves the first entry that is not the expected
//! field to the general loop. These tests check that the two paths give the same values and the
//! same errors: a document from a slice takes the ordered steps wherever it
//! can, and one from a reader handing out one byte at a time never can (no
//! key is ever whole in its buffer).

mod common;

use codec::{
    BincHandle, CborHandle, Codec, Handle, JsonHandle, MsgpackHandle, Options, SimpleHandle, Value,
    from_reader, from_slice, to_vec,
};
use common::{ByteByByte, xorshift};
use std::collections::BTreeMap;

/// Names that are prefixes of one another (`id`, `id_str`; `a`, `ab`), so
/// that a key that only starts with the expected name is caught.
#[derive(Codec, Debug, PartialEq)]
struct Small {
    id: u64,
    id_str: String,
    a: Option<u32>,
    ab: bool,
    #[codec(default)]
    list: Vec<u8>,
}

#[derive(Codec, Debug, PartialEq)]
struct Outer {
    small: Small,
    #[codec(default)]
    more: Vec<Small>,
    #[codec(rest)]
    rest: BTreeMap<String, Value>,
}

/// Two structs of `Option<u8>` fields (a missing field is `None`), named
/// once: `AtLimit` has the ordered steps' limit of 25, so the steps come
/// first; `Wide` has one more, past the limit: the general loop alone.
macro_rules! wide_structs {
    ($($f:ident),* ; $last:ident) => {
        #[derive(Codec, Debug, PartialEq)]
        struct AtLimit {
            $($f: Option<u8>,)*
        }

        #[derive(Codec, Debug, PartialEq)]
        struct Wide {
            $($f: Option<u8>,)*
            $last: Option<u8>,
        }
    };
}

wide_structs!(
    f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20,
    f21, f22, f23, f24; f25
);

/// Keys: `Small`'s in order, near misses, unknown keys, an escaped name.
const KEYS: [&str; 10] = [
    "id", "id_str", "a", "ab", "list", "i", "id_s", "abc", "\\u0069d", "zz",
];

/// Values for each of `KEYS` (valid for the field), or of any kind.
fn value(key: &str, next: &mut impl FnMut() -> u64) -> String {
    let any = [
        "1",
        "\"x\"",
        "null",
        "true",
        "[1,2]",
        "{\"q\":1}",
        "-1",
        "1.5",
    ];
    if next().is_multiple_of(16) {
        return any[next() as usize % any.len()].to_owned();
    }
    match key {
        "id" | "\\u0069d" => (next() % 1000).to_string(),
        "id_str" => format!("\"s{}\"", next() % 10),
        "a" => ["null", "7", "4294967295"][next() as usize % 3].to_owned(),
        "ab" => ["true", "false"][next() as usize % 2].to_owned(),
        "list" => ["[]", "[1,2,3]", "[255]"][next() as usize % 3].to_owned(),
        _ => any[next() as usize % any.len()].to_owned(),
    }
}

/// Whitespace, usually none.
fn ws(next: &mut impl FnMut() -> u64) -> &'static str {
    ["", "", "", "", " ", "\n\t"][next() as usize % 6]
}

/// A `Small` object: the declaration order, whole or cut short, most of
/// the time; else keys in random order (repeats and unknown keys included).
fn small(next: &mut impl FnMut() -> u64) -> String {
    let keys: Vec<&str> = match next() % 8 {
        0..=4 => KEYS[..5].to_vec(),
        5 => KEYS[..1 + next() as usize % 5].to_vec(),
        _ => (0..next() % 7)
            .map(|_| KEYS[next() as usize % KEYS.len()])
            .collect(),
    };
    let entries: Vec<String> = keys
        .iter()
        .map(|k| {
            let (a, b, c) = (ws(next), ws(next), ws(next));
            format!("{a}\"{k}\"{b}:{c}{}", value(k, next))
        })
        .collect();
    format!("{{{}{}}}", entries.join(","), ws(next))
}

/// Decodes `input` as `T` from a slice and byte by byte: the same value,
/// or errors with the same message (kind, offset and path).
fn agree<T: for<'de> codec::Decode<'de> + PartialEq + std::fmt::Debug>(
    h: &impl Handle,
    input: &[u8],
) -> bool {
    agree_on::<T>(h, input, true)
}

/// [`agree`]; errors need not have the same message unless `messages`.
fn agree_on<T: for<'de> codec::Decode<'de> + PartialEq + std::fmt::Debug>(
    h: &impl Handle,
    input: &[u8],
    messages: bool,
) -> bool {
    let slice = from_slice::<T, _>(input, h);
    let reader = from_reader::<T, _, _>(ByteByByte(input), h);
    match (&slice, &reader) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{}", String::from_utf8_lossy(input)),
        (Err(a), Err(b)) if messages => assert_eq!(
            a.to_string(),
            b.to_string(),
            "{}",
            String::from_utf8_lossy(input)
        ),
        (Err(_), Err(_)) => {}
        _ => panic!(
            "slice {slice:?} vs reader {reader:?} on {}",
            String::from_utf8_lossy(input)
        ),
    }
    slice.is_ok()
}

/// 6,000 random documents of `Small`, alone, inside `Outer` and in an
/// array, as `format` writes their JSON text (`None`: skipped), a quarter
/// of them damaged, decode alike from a slice and byte by byte with
/// unknown fields skipped and rejected. Returns how many decoded per shape.
///
/// Errors have the same message both ways, except in a damaged document
/// when `damaged_messages` is false (Binc and Simple, whose errors differ
/// there without the ordered steps too: a slice knows how much input is
/// left and reports a length that runs past it at once, where a reader
/// reads on into another error, or names a deeper path for the same end).
fn random_documents_agree<H: Handle>(
    seed: u64,
    damaged_messages: bool,
    options: impl Fn(Options) -> H,
    format: impl Fn(&[u8]) -> Option<Vec<u8>>,
) -> [usize; 3] {
    let mut next = xorshift(seed);
    let skip = options(Options::default());
    let strict = options(Options::default().error_on_unknown_field(true));
    let mut ok = [0usize; 3];
    for round in 0..6_000 {
        let text = match round % 3 {
            0 => small(&mut next),
            1 => format!(
                "{{\"small\":{},\"more\":[{},{}],\"x\":{}}}",
                small(&mut next),
                small(&mut next),
                small(&mut next),
                small(&mut next)
            ),
            _ => format!("[{},{}]", small(&mut next), small(&mut next)),
        };
        let Some(mut doc) = format(text.as_bytes()) else {
            continue;
        };
        let damaged = next().is_multiple_of(4);
        if damaged {
            common::damage(&mut doc, &mut next);
        }
        let m = damaged_messages || !damaged;
        match round % 3 {
            0 => {
                ok[0] += agree_on::<Small>(&skip, &doc, m) as usize;
                agree_on::<Small>(&strict, &doc, m);
            }
            1 => {
                ok[1] += agree_on::<Outer>(&skip, &doc, m) as usize;
                agree_on::<Outer>(&strict, &doc, m);
            }
            _ => ok[2] += agree_on::<Vec<Small>>(&skip, &doc, m) as usize,
        }
    }
    ok
}

/// The JSON text, read back through `Value` and written by `h`.
fn via_value(h: &impl Handle, json: &[u8]) -> Option<Vec<u8>> {
    let v: Value = from_slice(json, &JsonHandle::default()).ok()?;
    Some(to_vec(&v, h).unwrap())
}

#[test]
fn json_ordered_steps_agree_with_the_general_loop() {
    let ok = random_documents_agree(
        0x0DE5_F1E1,
        true,
        |options| JsonHandle {
            options,
            ..JsonHandle::default()
        },
        |text| Some(text.to_vec()),
    );
    // Both outcomes are well represented for each target.
    assert!(ok.iter().all(|&n| n > 100 && n < 1_900), "{ok:?}");
}

/// MessagePack: fixstr keys compared in the buffer.
#[test]
fn msgpack_ordered_steps_agree_with_the_general_loop() {
    let h = MsgpackHandle::default();
    let ok = random_documents_agree(
        0x3E55_A6E5,
        true,
        |options| MsgpackHandle {
            options,
            ..MsgpackHandle::default()
        },
        |text| via_value(&h, text),
    );
    assert!(ok.iter().all(|&n| n > 100 && n < 1_900), "{ok:?}");
}

/// CBOR: text keys of a one-byte head compared in the buffer.
#[test]
fn cbor_ordered_steps_agree_with_the_general_loop() {
    let h = CborHandle::default();
    let ok = random_documents_agree(
        0xC0B0_12E5,
        true,
        |options| CborHandle {
            options,
            ..CborHandle::default()
        },
        |text| via_value(&h, text),
    );
    assert!(ok.iter().all(|&n| n > 100 && n < 1_900), "{ok:?}");
}

/// The declaration order decodes with each field in its place; a repeated
/// field is still an error after the ordered steps stored it; a missing
/// one still gets its default or its error.
#[test]
fn ordered_documents_decode_and_repeats_are_errors() {
    let h = JsonHandle::default();
    let doc = br#"{"id":1,"id_str":"one","a":null,"ab":true,"list":[2]}"#;
    let want = Small {
        id: 1,
        id_str: "one".into(),
        a: None,
        ab: true,
        list: vec![2],
    };
    assert_eq!(from_slice::<Small, _>(doc, &h).unwrap(), want);
    let spaced = b"{ \"id\" : 1 ,\n\"id_str\":\"one\", \"a\":null,\"ab\" :true,\"list\":[2] }";
    assert_eq!(from_slice::<Small, _>(spaced, &h).unwrap(), want);
    let repeat = br#"{"id":1,"id_str":"one","id":2,"a":null,"ab":true}"#;
    let err = from_slice::<Small, _>(repeat, &h).unwrap_err();
    assert_eq!(
        err.to_string(),
        "duplicate field \"id\" (line 1, column 24, byte 23)"
    );
    let missing = br#"{"id":1,"id_str":"one","a":3}"#;
    let err = from_slice::<Small, _>(missing, &h).unwrap_err();
    assert_eq!(
        err.to_string(),
        "missing field \"ab\" (line 1, column 30, byte 29)"
    );
    let prefix = br#"{"id":1,"id_str":"one","a":3,"abc":0,"ab":false}"#;
    let s = from_slice::<Small, _>(prefix, &h).unwrap();
    assert_eq!((s.a, s.ab), (Some(3), false));
}

/// Past the limit, the general loop, and at it, the steps first: the same
/// results both ways.
#[test]
fn wide_structs_agree_both_ways() {
    let h = JsonHandle::default();
    let mut next = xorshift(0x31DE_5EED);
    for _ in 0..2_000 {
        let n = next() % 29;
        let entries: Vec<String> = (0..n)
            .map(|i| {
                let f = if next().is_multiple_of(5) {
                    next() % 27
                } else {
                    i
                };
                format!("\"f{f}\":{}", next() % 300)
            })
            .collect();
        let doc = format!("{{{}}}", entries.join(","));
        agree::<Wide>(&h, doc.as_bytes());
        agree::<AtLimit>(&h, doc.as_bytes());
    }
    let all: Vec<String> = (0..26).map(|i| format!("\"f{i}\":{i}")).collect();
    let w: Wide = from_slice(format!("{{{}}}", all.join(",")).as_bytes(), &h).unwrap();
    assert_eq!((w.f0, w.f16, w.f25), (Some(0), Some(16), Some(25)));
    let a: AtLimit = from_slice(format!("{{{}}}", all[..25].join(",")).as_bytes(), &h).unwrap();
    assert_eq!((a.f0, a.f16, a.f24), (Some(0), Some(16), Some(24)));
}

#[derive(Codec, Debug, PartialEq)]
struct Inner {
    a: u32,
    b: Option<u32>,
}

#[derive(Codec, Debug, PartialEq)]
struct Parent {
    inner: Inner,
    b: u32,
}

/// Binc: string keys with a short length (symbols go the general way).
#[test]
fn binc_ordered_steps_agree_with_the_general_loop() {
    let h = BincHandle::default();
    let ok = random_documents_agree(
        0xB14C_0DE5,
        false,
        |options| BincHandle {
            options,
            ..BincHandle::default()
        },
        |text| via_value(&h, text),
    );
    assert!(ok.iter().all(|&n| n > 100 && n < 1_900), "{ok:?}");
}

/// Simple: string keys with a one-byte length.
#[test]
fn simple_ordered_steps_agree_with_the_general_loop() {
    let h = SimpleHandle::default();
    let ok = random_documents_agree(
        0x5140_1E55,
        false,
        |options| SimpleHandle {
            options,
            ..SimpleHandle::default()
        },
        |text| via_value(&h, text),
    );
    assert!(ok.iter().all(|&n| n > 100 && n < 1_900), "{ok:?}");
}

/// An inner map that ends before its second field, followed by its
/// parent's key of that same name: the key is the parent's (a step that
/// looked past the inner map's end would take it).
#[test]
fn a_map_that_ends_early_leaves_the_next_key_to_its_parent() {
    let json = br#"{"inner":{"a":1},"b":2}"#;
    let want = Parent {
        inner: Inner { a: 1, b: None },
        b: 2,
    };
    each_handle!(h => {
        let doc = via_value(&h, json).unwrap();
        assert_eq!(from_slice::<Parent, _>(&doc, &h).unwrap(), want, "{}", h.name());
        agree::<Parent>(&h, &doc);
    });
}
