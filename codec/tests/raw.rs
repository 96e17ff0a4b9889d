//! `Raw` / `RawRef` pass-through in every format: captured without parsing,
//! written back verbatim, decodable later.

mod common;

use codec::{Codec, Handle, Raw, RawRef, Value, from_reader, from_slice, to_vec};

#[derive(Codec, Debug, Clone, PartialEq)]
struct Payload {
    id: u32,
    tags: Vec<String>,
    score: f64,
}

#[derive(Codec, Debug)]
struct Envelope<'a> {
    kind: String,
    body: RawRef<'a>,
    after: i32,
}

#[derive(Codec, Debug, PartialEq)]
struct OwnedEnvelope {
    kind: String,
    body: Raw,
    after: i32,
}

#[derive(Codec, Debug, PartialEq)]
struct Full {
    kind: String,
    body: Payload,
    after: i32,
}

fn full() -> Full {
    Full {
        kind: "p".into(),
        body: Payload {
            id: 7,
            tags: vec!["a".into(), "bc".into()],
            score: 1.5,
        },
        after: -3,
    }
}

#[test]
fn raw_pass_through_in_every_format() {
    each_handle!(h => {
        let name = h.name();
        let f = full();
        let bytes = to_vec(&f, &h).unwrap();
        let inner = to_vec(&f.body, &h).unwrap();

        // Borrowed: the exact bytes of the field, then the fields after it still decode.
        let env: Envelope<'_> = from_slice(&bytes, &h).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(env.body.as_bytes(), &inner[..], "{name}");
        assert!(std::ptr::eq(env.body.as_bytes().as_ptr(), bytes[..].as_ptr().wrapping_add(
            bytes.windows(inner.len()).position(|w| w == &inner[..]).unwrap()
        )), "{name}: RawRef borrows from the input");
        assert_eq!(env.after, -3, "{name}");
        // Deferred decoding.
        let p: Payload = env.body.decode(&h).unwrap();
        assert_eq!(p, f.body, "{name}");
        // Written back verbatim: the same document.
        assert_eq!(to_vec(&env, &h).unwrap(), bytes, "{name}: RawRef re-encodes verbatim");

        // Owned, from a slice and from a reader.
        let own: OwnedEnvelope = from_slice(&bytes, &h).unwrap();
        assert_eq!(own.body.as_bytes(), &inner[..], "{name}");
        let own2: OwnedEnvelope = from_reader(&bytes[..], &h).unwrap();
        assert_eq!(own2, own, "{name}");
        assert_eq!(to_vec(&own, &h).unwrap(), bytes, "{name}: Raw re-encodes verbatim");
        assert_eq!(own.body.decode::<Payload, _>(&h).unwrap(), f.body, "{name}");

        // A RawRef cannot borrow from a reader.
        assert!(from_reader::<OwnedEnvelope, _, _>(&bytes[..], &h).is_ok());
        let err = from_reader::<Value, _, _>(&b""[..], &h).map(|_| ());
        assert!(err.is_err(), "{name}");

        // Raw built with Raw::encode is the value's encoding.
        let r = Raw::encode(&f.body, &h).unwrap();
        assert_eq!(r.as_bytes(), &inner[..], "{name}");

        // An empty Raw writes nil, keeping the output well-formed.
        let v: Value = from_slice(&to_vec(&Raw::default(), &h).unwrap(), &h).unwrap();
        assert!(v.is_nil(), "{name}");
    });
}

#[test]
fn raw_of_every_item_kind() {
    each_handle!(h => {
        let items: Vec<Value> = vec![
            Value::Nil,
            Value::Bool(true),
            Value::Int(-5),
            Value::Uint(300),
            Value::F64(2.25),
            Value::Str("hé".into()),
            Value::Array(vec![Value::Uint(1), Value::Array(vec![]), Value::Str("x".into())]),
            Value::Map(vec![(Value::Str("k".into()), Value::Map(vec![]))]),
        ];
        let doc = Value::Array(items.clone());
        let bytes = to_vec(&doc, &h).unwrap();
        let raws: Vec<RawRef<'_>> = from_slice(&bytes, &h).unwrap_or_else(|e| panic!("{}: {e}", h.name()));
        assert_eq!(raws.len(), items.len());
        for (r, item) in raws.iter().zip(&items) {
            assert_eq!(r.as_bytes(), &to_vec(item, &h).unwrap()[..], "{}: {item}", h.name());
        }
        assert_eq!(to_vec(&raws, &h).unwrap(), bytes, "{}", h.name());
    });
}

/// Each item of a top-level array, its kind peeked first, then captured.
fn peek_then_capture<'de, R: codec::Read<'de>, F: codec::DecodeFormat>(
    d: &mut codec::Decoder<'de, R, F>,
) -> codec::Result<Vec<Raw>> {
    let mut seq = d.array_begin()?;
    let mut out = Vec::new();
    while d.array_next(&mut seq)? {
        d.peek_kind()?;
        out.push(d.decode::<Raw>()?);
    }
    d.array_end(seq)?;
    d.finish()?;
    Ok(out)
}

/// JSON's `peek_kind` reads a number whole (its kind depends on all of
/// it): a capture after the peek still gives the number's bytes, from a
/// slice, from a reader and from a reader whose every read crosses the
/// number; a number that had been captured as nothing wrote `null`.
#[test]
fn raw_after_peek_kind_keeps_the_item() {
    let long = format!(
        "-{}.{}e-{}",
        "1".repeat(300),
        "9".repeat(400),
        "7".repeat(2)
    );
    each_handle!(h => {
        let name = h.name();
        let mut items = vec![
            Value::Uint(42),
            Value::Int(-7),
            Value::F64(-4.5e300),
            Value::Str("s".into()),
            Value::Array(vec![Value::Uint(1)]),
            Value::Nil,
        ];
        // Numbers across the reader's 512-byte first buffer and beyond.
        items.extend((0..400u64).map(|i| Value::Uint(i.wrapping_mul(0x9e37_79b9_7f4a_7c15))));
        let doc = Value::Array(items.clone());
        let bytes = to_vec(&doc, &h).unwrap();
        let want: Vec<Raw> = items.iter().map(|v| Raw(to_vec(v, &h).unwrap())).collect();
        let same = |got: codec::Result<Vec<Raw>>, how: &str| {
            let got = got.unwrap_or_else(|e| panic!("{name}, {how}: {e}"));
            assert_eq!(got.len(), want.len(), "{name}, {how}");
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(g, w, "{name}, {how}: item {i}");
            }
        };
        same(peek_then_capture(&mut h.decoder(&bytes)), "slice");
        same(peek_then_capture(&mut h.io_decoder(&bytes[..])), "reader");
        same(
            peek_then_capture(&mut h.io_decoder(codec_test_support::OneByte(&bytes))),
            "one byte at a time",
        );
    });
    // JSON as written: whitespace around numbers, exponents, a long number.
    let h = codec::JsonHandle::default();
    let text = format!("[ 1E2 ,\n-0.0\t, 12345678901234567890123 , {long} ]");
    let want = ["1E2", "-0.0", "12345678901234567890123", long.as_str()];
    for got in [
        peek_then_capture(&mut h.decoder(text.as_bytes())).unwrap(),
        peek_then_capture(&mut h.io_decoder(text.as_bytes())).unwrap(),
        peek_then_capture(&mut h.io_decoder(codec_test_support::OneByte(text.as_bytes()))).unwrap(),
    ] {
        let got: Vec<&[u8]> = got.iter().map(Raw::as_bytes).collect();
        let want: Vec<&[u8]> = want.iter().map(|s| s.as_bytes()).collect();
        assert_eq!(got, want);
    }
    // Borrowed from a slice after the peek.
    let mut d = h.decoder(b" [ 17 ]");
    let mut seq = d.array_begin().unwrap();
    assert!(d.array_next(&mut seq).unwrap());
    assert_eq!(d.peek_kind().unwrap(), codec::Kind::Uint);
    let r: RawRef<'_> = d.decode().unwrap();
    assert_eq!(r.as_bytes(), b"17");
}

#[test]
fn raw_decode_does_not_parse_inside_but_checks_the_frame() {
    // A truncated item is an error, not a short capture.
    each_handle!(h => {
        let bytes = to_vec(&full(), &h).unwrap();
        for cut in 1..bytes.len() {
            assert!(from_slice::<Raw, _>(&bytes[..cut], &h).is_err(), "{} cut {cut}", h.name());
        }
    });
}
