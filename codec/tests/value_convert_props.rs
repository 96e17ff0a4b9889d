//! Property tests: `Value` is a faithful intermediate for typed values in
//! every format, extensions included. For random records and each handle:
//! the `Value` that `to_value` builds encodes to the bytes the record
//! encodes to, and a `Value` decoded from those bytes (or built by
//! `to_value`) converts back to the record with `from_value_in`.

use codec::{
    BincHandle, BytesExt, CborHandle, Codec, Handle, InterfaceExt, JsonHandle, MsgpackHandle,
    Result, SimpleHandle, Value, from_slice, from_value, from_value_in, impl_bytes_ext,
    impl_interface_ext, to_value, to_vec,
};
use proptest::prelude::*;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// A bytes-style extension: the length-prefixed UTF-8 of a label.
#[derive(Debug, Clone, PartialEq)]
struct Label(String);

impl BytesExt for Label {
    // Not 0..=3 or 55799: CBOR decoders read those tags as times and
    // bignums (a `Value` too), so a type should not take them.
    const TAG: u64 = 7;
    fn to_ext_bytes(&self) -> Result<Cow<'_, [u8]>> {
        Ok(Cow::Borrowed(self.0.as_bytes()))
    }
    fn from_ext_bytes(data: &[u8]) -> Result<Self> {
        std::str::from_utf8(data)
            .map(|s| Label(s.to_owned()))
            .map_err(|_| codec::Error::custom("a label is UTF-8"))
    }
}
impl_bytes_ext!(Label);

/// An interface-style extension whose content is an array of mixed items.
#[derive(Debug, Clone, PartialEq)]
struct Span {
    start: i64,
    len: u32,
    unit: String,
}

impl InterfaceExt for Span {
    const TAG: u64 = 17;
    type Repr = (i64, u32, String);
    fn to_repr(&self) -> Self::Repr {
        (self.start, self.len, self.unit.clone())
    }
    fn from_repr((start, len, unit): Self::Repr) -> Result<Self> {
        Ok(Span { start, len, unit })
    }
}
impl_interface_ext!(Span);

/// A derived extension whose content is its own map, holding another
/// extension (an extension inside an extension).
#[derive(Codec, Debug, Clone, PartialEq)]
#[codec(ext = 40)]
struct Tagged {
    name: String,
    span: Span,
    bytes: Vec<u8>,
}

#[derive(Codec, Debug, Clone, PartialEq)]
enum Mode {
    Off,
    Level(i16),
    Named { label: Label, weight: f32 },
}

#[derive(Codec, Debug, Clone, PartialEq)]
struct Record {
    id: u64,
    delta: i32,
    ratio: f64,
    name: String,
    blob: Vec<u8>,
    label: Label,
    span: Span,
    tagged: Option<Tagged>,
    spans: Vec<Span>,
    counts: BTreeMap<u16, String>,
    mode: Mode,
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![Just('a'), Just('é'), Just('中'), Just('"'), any::<char>()],
        0..8,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

fn span() -> impl Strategy<Value = Span> {
    (any::<i64>(), any::<u32>(), text()).prop_map(|(start, len, unit)| Span { start, len, unit })
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..12)
}

fn mode() -> impl Strategy<Value = Mode> {
    prop_oneof![
        Just(Mode::Off),
        any::<i16>().prop_map(Mode::Level),
        (text(), -1e30f32..1e30).prop_map(|(l, weight)| Mode::Named {
            label: Label(l),
            weight
        }),
    ]
}

fn record() -> impl Strategy<Value = Record> {
    (
        (
            any::<u64>(),
            any::<i32>(),
            -1e300f64..1e300,
            text(),
            bytes(),
        ),
        (text(), span()),
        prop::option::of((text(), span(), bytes())),
        prop::collection::vec(span(), 0..3),
        prop::collection::btree_map(any::<u16>(), text(), 0..4),
        mode(),
    )
        .prop_map(
            |((id, delta, ratio, name, blob), (label, span), tagged, spans, counts, mode)| Record {
                id,
                delta,
                ratio,
                name,
                blob,
                label: Label(label),
                span,
                tagged: tagged.map(|(name, span, bytes)| Tagged { name, span, bytes }),
                spans,
                counts,
                mode,
            },
        )
}

/// The three conversions for one handle.
fn check<H: Handle>(r: &Record, h: &H) -> std::result::Result<(), TestCaseError> {
    let name = h.name();
    let fail = |what: &str, e: codec::Error| TestCaseError::fail(format!("{name}: {what}: {e}"));
    let bytes = to_vec(r, h).map_err(|e| fail("encode", e))?;
    let built = to_value(r).map_err(|e| fail("to_value", e))?;
    let again = to_vec(&built, h).map_err(|e| fail("encode the Value", e))?;
    prop_assert_eq!(&again, &bytes, "{}: to_value then to_vec", name);
    let read: Value = from_slice(&bytes, h).map_err(|e| fail("decode into Value", e))?;
    for (what, v) in [("decoded", &read), ("built", &built)] {
        let back: Record = from_value_in(v, h).map_err(|e| fail(what, e))?;
        prop_assert_eq!(&back, r, "{}: from_value_in of the {} Value", name, what);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn records_convert_through_value_in_every_format(r in record()) {
        check(&r, &MsgpackHandle::default())?;
        check(&r, &CborHandle::default())?;
        check(&r, &BincHandle::default())?;
        check(&r, &SimpleHandle::default())?;
        check(&r, &JsonHandle::default())?;
        // Without a handle, the Value that to_value built converts back too.
        let back: Record = from_value(&to_value(&r).unwrap()).unwrap();
        prop_assert_eq!(&back, &r);
    }
}
