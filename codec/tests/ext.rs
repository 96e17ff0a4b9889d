//! Extensions in every format: bytes-style, interface-style and the derive
//! attribute round trip; each format writes them its native way; unknown
//! extensions pass through `Value` byte for byte and fail typed targets with
//! an error naming the tag.

use codec::{
    AnyHandle, BincHandle, BytesExt, CborHandle, Codec, Handle, InterfaceExt, JsonHandle,
    MsgpackHandle, Result, SimpleHandle, Value, from_slice, from_value, from_value_in,
    impl_bytes_ext, impl_interface_ext, to_value, to_vec,
};
use std::borrow::Cow;

/// Runs `$body` with `$h` bound to each of the five handles.
macro_rules! each_handle {
    ($h:ident => $body:block) => {{
        {
            let $h = MsgpackHandle::default();
            $body
        }
        {
            let $h = CborHandle::default();
            $body
        }
        {
            let $h = BincHandle::default();
            $body
        }
        {
            let $h = SimpleHandle::default();
            $body
        }
        {
            let $h = JsonHandle::default();
            $body
        }
    }};
}

/// An RGB colour as a 3-byte extension (bytes style).
#[derive(Debug, Clone, PartialEq)]
struct Rgb(u8, u8, u8);

impl BytesExt for Rgb {
    const TAG: u64 = 7;
    fn to_ext_bytes(&self) -> Result<Cow<'_, [u8]>> {
        Ok(Cow::Owned(vec![self.0, self.1, self.2]))
    }
    fn from_ext_bytes(data: &[u8]) -> Result<Self> {
        match *data {
            [r, g, b] => Ok(Rgb(r, g, b)),
            _ => Err(codec::Error::custom("an Rgb extension holds 3 bytes")),
        }
    }
}
impl_bytes_ext!(Rgb);

/// A point that stands for itself as a `[x, y]` array (interface style).
#[derive(Debug, Clone, PartialEq)]
struct Point {
    x: i32,
    y: i32,
}

impl InterfaceExt for Point {
    const TAG: u64 = 9;
    type Repr = (i32, i32);
    fn to_repr(&self) -> (i32, i32) {
        (self.x, self.y)
    }
    fn from_repr((x, y): (i32, i32)) -> Result<Self> {
        Ok(Point { x, y })
    }
}
impl_interface_ext!(Point);

/// A type marked as an extension by the derive: its derived map is the content.
#[derive(Codec, Debug, Clone, PartialEq)]
#[codec(ext = 12)]
struct Money {
    currency: String,
    cents: i64,
}

/// A container mixing all three, plus a field using `with`.
#[derive(Codec, Debug, Clone, PartialEq)]
struct Shape {
    name: String,
    color: Rgb,
    at: Point,
    price: Money,
    #[codec(with = "codec::ext::bytes")]
    tint: Rgb,
    more: Vec<Point>,
}

fn shape() -> Shape {
    Shape {
        name: "square".into(),
        color: Rgb(1, 2, 3),
        at: Point { x: -4, y: 5 },
        price: Money {
            currency: "EUR".into(),
            cents: 1999,
        },
        tint: Rgb(250, 251, 252),
        more: vec![Point { x: 1, y: 1 }, Point { x: 2, y: 3 }],
    }
}

#[test]
fn round_trip_in_every_format() {
    each_handle!(h => {
        let s = shape();
        let bytes = to_vec(&s, &h).unwrap();
        let back: Shape = from_slice(&bytes, &h).unwrap_or_else(|e| panic!("{}: {e}", h.name()));
        assert_eq!(back, s, "{}", h.name());
        // From a reader too (the extension content is copied, not borrowed).
        let back: Shape = codec::from_reader(&bytes[..], &h).unwrap();
        assert_eq!(back, s, "{} (reader)", h.name());
        // Through Value and back to the same bytes.
        let v: Value = from_slice(&bytes, &h).unwrap();
        assert_eq!(to_vec(&v, &h).unwrap(), bytes, "{} value pass-through", h.name());
    });
}

#[test]
fn native_forms() {
    // msgpack: fixext4? no: 3 bytes -> ext8 (c7 03 07 01 02 03).
    let m = to_vec(&Rgb(1, 2, 3), &MsgpackHandle::default()).unwrap();
    assert_eq!(m, [0xc7, 0x03, 0x07, 1, 2, 3]);
    // msgpack interface ext: fixext? the content [-4, 5] is 3 bytes: 92 fc 05.
    let m = to_vec(&Point { x: -4, y: 5 }, &MsgpackHandle::default()).unwrap();
    assert_eq!(m, [0xc7, 0x03, 0x09, 0x92, 0xfc, 0x05]);
    // CBOR bytes ext: tag 7 + byte string.
    let c = to_vec(&Rgb(1, 2, 3), &CborHandle::default()).unwrap();
    assert_eq!(c, [0xc7, 0x43, 1, 2, 3]);
    // CBOR interface ext: tag 9 + the array itself.
    let c = to_vec(&Point { x: -4, y: 5 }, &CborHandle::default()).unwrap();
    assert_eq!(c, [0xc9, 0x82, 0x23, 0x05]);
    // JSON: the converted value alone; bytes as base64.
    let j = to_vec(&Point { x: -4, y: 5 }, &JsonHandle::default()).unwrap();
    assert_eq!(j, b"[-4,5]");
    let j = to_vec(&Rgb(1, 2, 3), &JsonHandle::default()).unwrap();
    assert_eq!(j, b"\"AQID\"");
    let j = to_vec(
        &Money {
            currency: "X".into(),
            cents: 1,
        },
        &JsonHandle::default(),
    )
    .unwrap();
    assert_eq!(j, br#"{"currency":"X","cents":1}"#);
    // binc and simple: an extension item whose data is the content encoded alone.
    for (name, bytes, inner) in [
        (
            "binc",
            to_vec(&Point { x: -4, y: 5 }, &BincHandle::default()).unwrap(),
            to_vec(&(-4i32, 5i32), &BincHandle::default()).unwrap(),
        ),
        (
            "simple",
            to_vec(&Point { x: -4, y: 5 }, &SimpleHandle::default()).unwrap(),
            to_vec(&(-4i32, 5i32), &SimpleHandle::default()).unwrap(),
        ),
    ] {
        assert!(
            bytes.ends_with(&inner),
            "{name}: {bytes:x?} holds {inner:x?}"
        );
        assert!(bytes.len() > inner.len(), "{name}");
    }
    let v: Value = from_slice(
        &to_vec(&Point { x: -4, y: 5 }, &BincHandle::default()).unwrap(),
        &BincHandle::default(),
    )
    .unwrap();
    assert!(matches!(v, Value::Ext(9, _)), "binc: {v:?}");
}

#[test]
fn unknown_extensions_pass_through_value_byte_for_byte() {
    // msgpack fixext1..16, ext8/16, each in its shortest form (a longer
    // form than needed is read, and written back in the shortest form).
    let cases: Vec<Vec<u8>> = vec![
        vec![0xd4, 0x05, 0xaa],
        vec![0xd5, 0x7f, 1, 2],
        vec![0xd6, 0x01, 1, 2, 3, 4],
        vec![
            0xd8, 0x02, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
        ],
        vec![0xc7, 0x00, 0x03],
        vec![0xc7, 0x03, 0x04, 9, 9, 9],
        [vec![0xc8, 0x01, 0x00, 0x10], vec![7; 256]].concat(),
    ];
    let h = MsgpackHandle::default();
    for c in &cases {
        let v: Value = from_slice(c, &h).unwrap();
        assert!(matches!(v, Value::Ext(..)), "{v:?}");
        assert_eq!(&to_vec(&v, &h).unwrap(), c);
    }
    // CBOR: an unknown tag is kept as Tagged and re-encodes identically.
    let h = CborHandle::default();
    let c = [0xd8, 0x63, 0x82, 0x01, 0x61, b'a'];
    let v: Value = from_slice(&c, &h).unwrap();
    assert!(matches!(v, Value::Tagged(99, _)), "{v:?}");
    assert_eq!(to_vec(&v, &h).unwrap(), c);
    // binc / simple: written by our encoder from a Value::Ext.
    each_handle!(h => {
        if h.name() != "json" && h.name() != "cbor" {
            let v = Value::Ext(42, vec![1, 2, 3, 4, 5].into());
            let bytes = to_vec(&v, &h).unwrap();
            let back: Value = from_slice(&bytes, &h).unwrap();
            assert_eq!(back, v, "{}", h.name());
            assert_eq!(to_vec(&back, &h).unwrap(), bytes, "{}", h.name());
        }
    });
}

#[test]
fn typed_targets_name_the_tag() {
    each_handle!(h => {
        if h.name() != "json" && h.name() != "cbor" {
            let bytes = to_vec(&Value::Ext(42, vec![1, 2, 3].into()), &h).unwrap();
            for msg in [
                from_slice::<u32, _>(&bytes, &h).unwrap_err().to_string(),
                from_slice::<Money, _>(&bytes, &h).unwrap_err().to_string(),
                from_slice::<Shape, _>(&bytes, &h).unwrap_err().to_string(),
                from_slice::<Vec<u8>, _>(&bytes, &h).map(|_| ()).unwrap_err().to_string(),
                from_slice::<Rgb, _>(&bytes, &h).unwrap_err().to_string(),
                from_slice::<Point, _>(&bytes, &h).unwrap_err().to_string(),
            ] {
                assert!(msg.contains("tag 42"), "{}: {msg}", h.name());
            }
        }
    });
    // CBOR: an extension (tag) other than the one expected names both tags.
    let h = CborHandle::default();
    let bytes = to_vec(&Rgb(1, 2, 3), &h).unwrap();
    let msg = from_slice::<Point, _>(&bytes, &h).unwrap_err().to_string();
    assert!(msg.contains("tag 7") && msg.contains("tag 9"), "{msg}");
}

#[test]
fn wrong_content_is_an_error_not_a_panic() {
    let h = MsgpackHandle::default();
    // Tag 7 with 2 bytes instead of 3.
    let err = from_slice::<Rgb, _>(&[0xd5, 0x07, 1, 2], &h).unwrap_err();
    assert!(err.to_string().contains("3 bytes"), "{err}");
    // Tag 9 whose content is not a 2-array, or has trailing bytes.
    assert!(from_slice::<Point, _>(&[0xd4, 0x09, 0x01], &h).is_err());
    assert!(from_slice::<Point, _>(&[0xd6, 0x09, 0x92, 0x01, 0x02, 0x03], &h).is_err());
}

/// A shape's extensions through `Value`, both ways, in every format: the
/// `Value` that `to_value` builds encodes to the bytes the shape encodes to,
/// and `from_value_in` reads a `Value` decoded from those bytes back into
/// the shape, extensions included.
#[test]
fn values_convert_with_the_handle() {
    each_handle!(h => {
        let s = shape();
        let name = h.name();
        let bytes = to_vec(&s, &h).unwrap();
        let built = to_value(&s).unwrap();
        assert_eq!(to_vec(&built, &h).unwrap(), bytes, "{name}: to_value then to_vec");
        let read: Value = from_slice(&bytes, &h).unwrap();
        for v in [&built, &read] {
            let back: Shape = from_value_in(v, &h).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(back, s, "{name}");
            let any: AnyHandle = name.parse().unwrap();
            assert_eq!(any.from_value::<Shape>(v).unwrap(), s, "{name} (AnyHandle)");
        }
        // Without the handle a Value::Tagged reads anywhere...
        assert_eq!(from_value::<Shape>(&built).unwrap(), s, "{name}");
        // ...and an extension holding bytes in msgpack, binc or simple is an
        // error that says what to do, not a wrong value.
        if !matches!(name, "cbor" | "json") {
            let err = from_value::<Shape>(&read).unwrap_err();
            assert_eq!(err.path_string(), ".at", "{name}: {err}");
            assert!(err.to_string().contains("from_value_in"), "{name}: {err}");
            assert_eq!(err.offset(), None, "{name}: {err}");
        }
    });
}

/// `from_value_in` reads JSON's base64 strings into bytes as the JSON
/// decoder does (`from_value` takes a string's UTF-8 as the bytes).
#[test]
fn json_bytes_through_value_need_the_handle() {
    let h = JsonHandle::default();
    let bytes = to_vec(&vec![b"\x00\xffhi".to_vec()], &h).unwrap();
    assert_eq!(bytes, br#"["AP9oaQ=="]"#);
    let v: Value = from_slice(&bytes, &h).unwrap();
    let back: Vec<Vec<u8>> = from_value_in(&v, &h).unwrap();
    assert_eq!(back, [b"\x00\xffhi".to_vec()]);
    let plain: Vec<Vec<u8>> = from_value(&v).unwrap();
    assert_eq!(plain, [b"AP9oaQ==".to_vec()]);
}

/// An error of `from_value_in` keeps its kind and path; its offset would be
/// into bytes the caller never saw, so it has none.
#[test]
fn from_value_in_errors_have_a_path_and_no_offset() {
    each_handle!(h => {
        let mut v = to_value(&shape()).unwrap();
        let Value::Map(entries) = &mut v else { panic!("a map") };
        let at = entries.iter_mut().find(|(k, _)| *k == Value::from("name")).unwrap();
        at.1 = Value::Uint(5);
        let err = from_value_in::<Shape, _>(&v, &h).unwrap_err();
        assert_eq!(err.offset(), None, "{}: {err}", h.name());
        assert_eq!(err.path_string(), ".name", "{}: {err}", h.name());
    });
}

/// A `Value::Tagged` in a format without tags is written as an
/// interface-style extension, and a tag that does not fit the format's
/// extension type is an error naming it.
#[test]
fn tagged_values_in_formats_without_tags() {
    let v = Value::Tagged(
        9,
        Box::new(Value::Array(vec![Value::Int(-4), Value::Uint(5)])),
    );
    let m = to_vec(&v, &MsgpackHandle::default()).unwrap();
    assert_eq!(m, [0xc7, 0x03, 0x09, 0x92, 0xfc, 0x05]);
    assert_eq!(to_vec(&v, &JsonHandle::default()).unwrap(), b"[-4,5]");
    assert_eq!(
        to_vec(&v, &CborHandle::default()).unwrap(),
        [0xc9, 0x82, 0x23, 0x05]
    );
    let wide = Value::Tagged(1000, Box::new(Value::Nil));
    for msg in [
        to_vec(&wide, &MsgpackHandle::default())
            .unwrap_err()
            .to_string(),
        to_vec(&wide, &BincHandle::default())
            .unwrap_err()
            .to_string(),
        to_vec(&wide, &SimpleHandle::default())
            .unwrap_err()
            .to_string(),
    ] {
        assert!(msg.contains("1000"), "{msg}");
    }
}
