//! What a derived decoder does with the fields it has read when it stops
//! early: on an error, every field read so far is dropped, once; on a
//! panic inside a field's decode, the fields read before it are leaked
//! (the derive keeps its slots out of unwinding, see `codec-derive`'s
//! docs), never dropped twice, and the next decode works.

use codec::{
    Codec, Decode, DecodeFormat, Decoder, Encode, Handle, JsonHandle, MsgpackHandle, Options, Read,
    Result, from_slice, to_vec,
};
use std::cell::Cell;

thread_local! {
    /// Values of [`Counted`] made by decoding, and dropped.
    static MADE: Cell<usize> = const { Cell::new(0) };
    static DROPPED: Cell<usize> = const { Cell::new(0) };
}

fn counts() -> (usize, usize) {
    (MADE.with(Cell::get), DROPPED.with(Cell::get))
}

fn reset() {
    MADE.with(|c| c.set(0));
    DROPPED.with(|c| c.set(0));
}

/// A string that counts its decodes and drops, and panics when decoded from
/// the text "panic".
#[derive(Debug, PartialEq)]
struct Counted(String);

impl Drop for Counted {
    fn drop(&mut self) {
        DROPPED.with(|c| c.set(c.get() + 1));
    }
}

impl Encode for Counted {
    fn encode<W: codec::Write, F: codec::EncodeFormat>(
        &self,
        e: &mut codec::Encoder<W, F>,
    ) -> Result<()> {
        self.0.encode(e)
    }
}

impl<'de> Decode<'de> for Counted {
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let s = d.decode_string()?;
        assert_ne!(s, "panic", "a Decode impl that panics");
        MADE.with(|c| c.set(c.get() + 1));
        Ok(Counted(s))
    }
}

#[derive(Codec, Debug, PartialEq)]
struct Named {
    a: Counted,
    b: Counted,
    n: u32,
    c: Option<Counted>,
    d: Vec<Counted>,
}

#[derive(Codec, Debug, PartialEq)]
struct Pair(Counted, u32, Counted);

#[derive(Codec, Debug, PartialEq)]
enum Shape {
    Two { a: Counted, n: u32, b: Counted },
}

#[derive(Codec, Debug, PartialEq)]
struct Outer {
    first: Counted,
    inner: Named,
    last: Counted,
}

/// Decodes `input` as `T`, expecting an error, and checks that every
/// `Counted` made was dropped. Returns how many were made.
fn fails_dropping_all<T: for<'a> Decode<'a> + std::fmt::Debug>(
    input: &[u8],
    h: &impl Handle,
) -> usize {
    reset();
    let r = from_slice::<T, _>(input, h);
    assert!(
        r.is_err(),
        "{} decoded: {r:?}",
        String::from_utf8_lossy(input)
    );
    let (made, dropped) = counts();
    assert_eq!(
        made,
        dropped,
        "{}: {made} made, {dropped} dropped",
        String::from_utf8_lossy(input)
    );
    made
}

#[test]
fn an_error_drops_every_field_read() {
    let json = JsonHandle::default();
    let cases: &[(&[u8], usize)] = &[
        // A type error in a later field.
        (br#"{"a":"x","b":"y","n":"seven","c":"z","d":[]}"#, 2),
        // In an item of the last field.
        (br#"{"a":"x","b":"y","n":7,"c":"z","d":["p","q",5]}"#, 5),
        // A syntax error after the last field.
        (br#"{"a":"x","b":"y","n":7,"c":"z","d":["p"]]"#, 4),
        // Out of order, then a duplicate.
        (br#"{"c":"z","a":"x","b":"y","a":"again"}"#, 3),
        // A field missing at the end.
        (br#"{"a":"x","n":7,"c":"z","d":["p"]}"#, 3),
        // The array form, too short.
        (br#"["x","y",7]"#, 2),
        // The end of the input inside the struct.
        (br#"{"a":"x","b":"y","n":7,"c":"#, 2),
    ];
    for (input, made) in cases {
        let n = fails_dropping_all::<Named>(input, &json);
        assert_eq!(n, *made, "{}", String::from_utf8_lossy(input));
    }
    let strict =
        JsonHandle::default().with_options(Options::default().error_on_unknown_field(true));
    assert_eq!(
        fails_dropping_all::<Named>(br#"{"a":"x","b":"y","what":1}"#, &strict),
        2
    );
    assert_eq!(fails_dropping_all::<Pair>(br#"["x",7,5]"#, &json), 1);
    assert_eq!(
        fails_dropping_all::<Shape>(br#"{"Two":{"a":"x","n":7,"b":false}}"#, &json),
        1
    );
    // Nested: the inner struct's fields and the outer's.
    assert_eq!(
        fails_dropping_all::<Outer>(
            br#"{"first":"f","inner":{"a":"x","b":"y","n":7,"c":null,"d":["p"]},"last":1}"#,
            &json
        ),
        4
    );
    assert_eq!(
        fails_dropping_all::<Outer>(br#"{"first":"f","inner":{"a":"x","b":2}}"#, &json),
        2
    );
    // A binary format, from a message cut short at every length.
    let whole = Named {
        a: Counted("x".into()),
        b: Counted("y".into()),
        n: 7,
        c: Some(Counted("z".into())),
        d: vec![Counted("p".into()), Counted("q".into())],
    };
    let msgpack = MsgpackHandle::default();
    let bytes = to_vec(&whole, &msgpack).unwrap();
    drop(whole);
    let mut most = 0;
    for end in 0..bytes.len() {
        most = most.max(fails_dropping_all::<Named>(&bytes[..end], &msgpack));
    }
    assert_eq!(most, 4);
}

#[test]
fn a_decoded_value_drops_its_fields_once() {
    let json = JsonHandle::default();
    reset();
    let v: Named = from_slice(br#"{"a":"x","b":"y","n":7,"c":"z","d":["p","q"]}"#, &json).unwrap();
    assert_eq!(counts(), (5, 0));
    assert_eq!(v.d[1].0, "q");
    drop(v);
    assert_eq!(counts(), (5, 5));
    let v: Pair = from_slice(br#"["x",7,"y"]"#, &json).unwrap();
    drop(v);
    assert_eq!(counts(), (7, 7));
}

#[test]
fn a_panic_leaks_the_fields_read_before_it_and_drops_none_twice() {
    let json = JsonHandle::default();
    reset();
    let panicked = std::panic::catch_unwind(|| {
        from_slice::<Named, _>(br#"{"a":"x","b":"y","n":7,"c":"panic"}"#, &json)
    });
    assert!(panicked.is_err());
    // "x" and "y" were read; leaked, not dropped (and not dropped twice).
    let (made, dropped) = counts();
    assert_eq!(made, 2);
    assert!(dropped <= made, "{dropped} drops of {made} values");
    // Decoding goes on as before.
    reset();
    let v: Named = from_slice(br#"{"a":"x","b":"y","n":7,"d":[]}"#, &json).unwrap();
    assert_eq!((v.n, v.c.is_none()), (7, true));
    drop(v);
    assert_eq!(counts(), (2, 2));
}
