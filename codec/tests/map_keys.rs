//! Struct keys are read in one step where the format can
//! (`DecodeFormat::map_next_key`: each of the five drivers hands a plain
//! key over from its buffer). The one-step path must give what the general
//! one gives (`map_next`, `decode_key`, `map_value`): the same value or the
//! same error, with its offset and path, for every handle, from a slice and
//! from a reader that delivers one byte at a time, under the limits, with
//! unknown, duplicate, escaped, long and non-text keys, and on damaged input.
//! Derived decoders also pass the name of the field they expect next
//! (`Decoder::map_next_field`), which JSON compares in place of scanning:
//! keys equal to it, near it, escaped or out of order agree too. A JSON
//! map decoded into `Value` takes the one-step path as well
//! (`DecodeFormat::value_keys_are_text`, which `General` leaves at its
//! default), and must agree in the same way.
//!
//! The general path is reached by decoding through [`General`], a driver
//! that forwards every method to the handle's own driver except
//! `map_next_key`, which it leaves to the trait's default.

mod common;

use codec::{
    Codec, Decode, DecodeFormat, DecodeOptions, Decoder, ExtStyle, Handle, IoReader, Kind, Options,
    Read, Reference, Result, Seq, SliceReader, Time, Value, to_vec,
};
use common::{ByteByByte, damage, xorshift};
use std::collections::BTreeMap;

#[derive(Codec, Debug, PartialEq, Clone)]
struct Base {
    id: u64,
    #[codec(rename = "baseName")]
    base_name: Option<String>,
}

#[derive(Codec, Debug, PartialEq, Clone)]
struct Item {
    #[codec(flatten)]
    base: Base,
    /// A name longer than a one-byte-head CBOR key and a msgpack fixstr.
    a_field_name_longer_than_thirty_one_bytes: Vec<u32>,
    inner: Vec<Inner>,
    flag: bool,
}

#[derive(Codec, Debug, PartialEq, Clone)]
struct Inner {
    x: i32,
    #[codec(rename = "ÿ")]
    y: Option<f64>,
    /// A name of 17 to 32 bytes: a derived decoder's expected-key compare
    /// takes two 16-byte words for it.
    #[codec(rename = "twenty_two_byte_name_z")]
    z: Option<bool>,
    /// A name JSON escapes: never taken as it stands from the input.
    #[codec(rename = "w\\")]
    w: Option<u8>,
}

#[derive(Codec, Debug, PartialEq, Clone)]
struct Open {
    a: u8,
    #[codec(rest)]
    rest: BTreeMap<String, Value>,
}

fn item() -> Item {
    Item {
        base: Base {
            id: 7,
            base_name: Some("b\"q".into()),
        },
        a_field_name_longer_than_thirty_one_bytes: vec![1, 2, 300],
        inner: vec![
            Inner {
                x: -1,
                y: None,
                z: Some(true),
                w: Some(7),
            },
            Inner {
                x: 2,
                y: Some(0.5),
                z: None,
                w: None,
            },
        ],
        flag: true,
    }
}

/// Forwards everything to `F` but `map_next_key`, so that keys are read
/// the general way.
struct General<F>(F);

impl<F: DecodeFormat> DecodeFormat for General<F> {
    const TEXT: bool = F::TEXT;
    const NAME: &'static str = F::NAME;
    const EXT_STYLE: ExtStyle = F::EXT_STYLE;

    fn side(&self) -> Option<Self> {
        self.0.side().map(General)
    }
    fn limit_str_len(&mut self, max: usize) {
        self.0.limit_str_len(max)
    }
    fn peek_kind<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Kind> {
        self.0.peek_kind(r)
    }
    fn prefer_float(&self) -> bool {
        self.0.prefer_float()
    }
    fn read_scalar_value<'de, R: Read<'de>, T>(
        &mut self,
        r: &mut R,
        scratch: &mut Vec<u8>,
        opts: &DecodeOptions,
        put: impl FnOnce(Value) -> T,
    ) -> Result<Option<T>> {
        self.0.read_scalar_value(r, scratch, opts, put)
    }
    fn read_f64_array<'de, R: Read<'de>>(&mut self, r: &mut R, out: &mut [f64]) -> Result<bool> {
        self.0.read_f64_array(r, out)
    }
    fn read_f32_array<'de, R: Read<'de>>(&mut self, r: &mut R, out: &mut [f32]) -> Result<bool> {
        self.0.read_f32_array(r, out)
    }
    fn try_nil<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        self.0.try_nil(r)
    }
    fn read_bool<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        self.0.read_bool(r)
    }
    fn read_i64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<i64> {
        self.0.read_i64(r)
    }
    fn read_u64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u64> {
        self.0.read_u64(r)
    }
    fn read_i128<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<i128> {
        self.0.read_i128(r)
    }
    fn read_u128<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u128> {
        self.0.read_u128(r)
    }
    fn read_f64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<f64> {
        self.0.read_f64(r)
    }
    fn read_f32<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<f32> {
        self.0.read_f32(r)
    }
    fn read_str<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, str>> {
        self.0.read_str(r, scratch)
    }
    fn read_str_bytes<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        self.0.read_str_bytes(r, scratch)
    }
    fn read_bytes<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        self.0.read_bytes(r, scratch)
    }
    fn array_begin<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Seq> {
        self.0.array_begin(r)
    }
    fn array_next<'de, R: Read<'de>>(&mut self, r: &mut R, seq: &mut Seq) -> Result<bool> {
        self.0.array_next(r, seq)
    }
    fn map_begin<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Seq> {
        self.0.map_begin(r)
    }
    fn map_next<'de, R: Read<'de>>(&mut self, r: &mut R, seq: &mut Seq) -> Result<bool> {
        self.0.map_next(r, seq)
    }
    fn map_value<'de, R: Read<'de>>(&mut self, r: &mut R, seq: &mut Seq) -> Result<()> {
        self.0.map_value(r, seq)
    }
    fn read_time<'de, R: Read<'de>>(&mut self, r: &mut R, scratch: &mut Vec<u8>) -> Result<Time> {
        self.0.read_time(r, scratch)
    }
    fn read_ext<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<(u64, Reference<'de, 's, [u8]>)> {
        self.0.read_ext(r, scratch)
    }
    fn read_tag<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u64> {
        self.0.read_tag(r)
    }
    fn read_simple<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u8> {
        self.0.read_simple(r)
    }
    fn skip<'de, R: Read<'de>>(
        &mut self,
        r: &mut R,
        scratch: &mut Vec<u8>,
        depth: u32,
    ) -> Result<()> {
        self.0.skip(r, scratch, depth)
    }
    fn end_of_value<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<()> {
        self.0.end_of_value(r)
    }
    fn capture_prefix_len(&self, captured: &[u8]) -> usize {
        self.0.capture_prefix_len(captured)
    }
    fn next_item_offset(&self, offset: u64) -> u64 {
        self.0.next_item_offset(offset)
    }
    fn reset(&mut self) {
        self.0.reset()
    }
    fn reject_duplicate_keys(&self) -> bool {
        self.0.reject_duplicate_keys()
    }
}

fn show<T: std::fmt::Debug>(r: &Result<T>) -> String {
    match r {
        Ok(v) => format!("{v:?}"),
        Err(e) => format!("error: {e} / {:?}", e.kind()),
    }
}

/// `T` through the handle's driver and through [`General`] agree, from a
/// slice and from a byte-at-a-time reader.
fn same_as_general<T, H>(h: &H, opts: &DecodeOptions, input: &[u8])
where
    T: for<'de> Decode<'de> + std::fmt::Debug,
    H: Handle,
{
    let text = String::from_utf8_lossy(input);
    let one_step =
        Decoder::new(SliceReader::new(input), h.dec_format(), opts.clone()).decode_exact::<T>();
    let general = Decoder::new(
        SliceReader::new(input),
        General(h.dec_format()),
        opts.clone(),
    )
    .decode_exact::<T>();
    assert_eq!(
        show(&one_step),
        show(&general),
        "{} slice {text:?}",
        h.name()
    );
    let one_step = Decoder::new(
        IoReader::new(ByteByByte(input)),
        h.dec_format(),
        opts.clone(),
    )
    .decode_exact::<T>();
    let general = Decoder::new(
        IoReader::new(ByteByByte(input)),
        General(h.dec_format()),
        opts.clone(),
    )
    .decode_exact::<T>();
    assert_eq!(
        show(&one_step),
        show(&general),
        "{} reader {text:?}",
        h.name()
    );
}

/// The option sets each input is decoded under: defaults, unknown fields
/// rejected, and `max_len` / `max_str_len` just at and just under what the
/// samples need.
fn option_sets() -> Vec<DecodeOptions> {
    let o = Options::default;
    vec![
        o(),
        o().error_on_unknown_field(true),
        o().max_len(4),
        o().max_len(3),
        o().max_str_len(41),
        o().max_str_len(40),
        o().max_str_len(3),
    ]
    .into_iter()
    .map(|o| o.decode)
    .collect()
}

/// A map read with [`Decoder::map_next_key`], its keys as offset and
/// text, the key `bad` rejected by the key closure.
#[derive(Debug)]
struct Stepped(Vec<(u64, String, Value)>);

/// The same map read with `map_next`, `decode_key` and `map_value`.
#[derive(Debug)]
struct Sequenced(Vec<(u64, String, Value)>);

fn key_of(k: &[u8], off: u64) -> Result<(u64, String)> {
    if k == b"bad" {
        // No offset: the decoder gives it the key's.
        return Err(codec::Error::custom("bad key"));
    }
    Ok((off, String::from_utf8_lossy(k).into_owned()))
}

impl<'de> Decode<'de> for Stepped {
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let mut out = Vec::new();
        let mut seq = d.map_begin()?;
        while let Some((off, k)) = d.map_next_key(&mut seq, key_of)? {
            let v = Value::decode(d).map_err(|e| e.in_index(out.len()))?;
            out.push((off, k, v));
        }
        d.map_end(seq)?;
        Ok(Stepped(out))
    }
}

impl<'de> Decode<'de> for Sequenced {
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let mut out = Vec::new();
        let mut seq = d.map_begin()?;
        while d.map_next(&mut seq)? {
            let off = d.offset();
            let (off, k) = key_of(&d.decode_key()?, off).map_err(|e| e.at(off))?;
            d.map_value(&mut seq)?;
            let v = Value::decode(d).map_err(|e| e.in_index(out.len()))?;
            out.push((off, k, v));
        }
        d.map_end(seq)?;
        Ok(Sequenced(out))
    }
}

/// [`Stepped`] and [`Sequenced`] agree (the decoder's own checks around the
/// one-step path: `max_len`, `max_str_len`, the end of a map).
fn stepped_as_sequenced<H: Handle>(h: &H, opts: &DecodeOptions, input: &[u8]) {
    let show_map = |r: Result<Vec<(u64, String, Value)>>| show(&r);
    let text = String::from_utf8_lossy(input);
    let a = Decoder::new(SliceReader::new(input), h.dec_format(), opts.clone())
        .decode_exact::<Stepped>()
        .map(|m| m.0);
    let b = Decoder::new(SliceReader::new(input), h.dec_format(), opts.clone())
        .decode_exact::<Sequenced>()
        .map(|m| m.0);
    assert_eq!(show_map(a), show_map(b), "{} slice {text:?}", h.name());
    let a = Decoder::new(
        IoReader::new(ByteByByte(input)),
        h.dec_format(),
        opts.clone(),
    )
    .decode_exact::<Stepped>()
    .map(|m| m.0);
    let b = Decoder::new(
        IoReader::new(ByteByByte(input)),
        h.dec_format(),
        opts.clone(),
    )
    .decode_exact::<Sequenced>()
    .map(|m| m.0);
    assert_eq!(show_map(a), show_map(b), "{} reader {text:?}", h.name());
}

fn all_types<H: Handle>(h: &H, input: &[u8]) {
    for opts in option_sets() {
        stepped_as_sequenced(h, &opts, input);
        same_as_general::<Item, H>(h, &opts, input);
        same_as_general::<Open, H>(h, &opts, input);
        same_as_general::<Vec<Inner>, H>(h, &opts, input);
        same_as_general::<Base, H>(h, &opts, input);
        same_as_general::<Value, H>(h, &opts, input);
    }
}

/// Maps as `Value`s: keys the one-step path must decline (long, escaped in
/// JSON, not text, not UTF-8) or pass on to the general path's errors
/// (unknown, duplicate).
fn odd_maps() -> Vec<Value> {
    let s = |t: &str| Value::Str(t.into());
    vec![
        Value::Map(vec![(s("a"), Value::Uint(1)), (s("zz"), Value::Nil)]),
        Value::Map(vec![(s("a"), Value::Uint(1)), (s("a"), Value::Uint(2))]),
        Value::Map(vec![(s("id"), Value::Uint(1)), (s("id"), Value::Uint(2))]),
        Value::Map(vec![(Value::Uint(1), Value::Uint(1))]),
        Value::Map(vec![(Value::Bytes(vec![b'x']), Value::Int(-3))]),
        Value::Map(vec![(Value::Bytes(vec![0xff, 0xfe]), Value::Uint(0))]),
        Value::Map(vec![(s("x"), Value::Int(-3)), (s("ÿ"), Value::F64(1.5))]),
        Value::Map(vec![
            (s(&"k".repeat(40)), Value::Uint(1)),
            (s("a"), Value::Uint(9)),
        ]),
        Value::Map(vec![(s("x"), Value::Str("not a number".into()))]),
        Value::Map(vec![(s("x"), Value::Uint(1)), (s("bad"), Value::Uint(2))]),
        Value::Map(vec![]),
        Value::Array(vec![Value::Map(vec![(s("x"), Value::Int(5))])]),
        Value::Nil,
    ]
}

fn encodings<H: Handle>(h: &H) -> Vec<Vec<u8>> {
    let mut inputs = vec![
        to_vec(&item(), h).unwrap(),
        to_vec(&item().inner, h).unwrap(),
        to_vec(&item().base, h).unwrap(),
        to_vec(
            &Open {
                a: 3,
                rest: BTreeMap::from([("more".into(), Value::Bool(true))]),
            },
            h,
        )
        .unwrap(),
    ];
    inputs.extend(odd_maps().iter().map(|v| to_vec(v, h).unwrap()));
    inputs
}

fn check_handle<H: Handle>(h: &H) {
    let mut inputs = encodings(h);
    let truncated: Vec<Vec<u8>> = inputs
        .iter()
        .flat_map(|i| (0..i.len()).map(|n| i[..n].to_vec()))
        .collect();
    inputs.extend(truncated);
    for input in &inputs {
        all_types(h, input);
    }
}

#[test]
fn struct_keys_decode_as_the_general_path() {
    each_handle!(h => {
        check_handle(&h);
        // The samples decode (the comparison above is not only of errors).
        let back: Item = codec::from_slice(&to_vec(&item(), &h).unwrap(), &h).unwrap();
        assert_eq!(back, item(), "{}", h.name());
    });
}

#[test]
fn json_keys_with_escapes_whitespace_and_errors() {
    let h = codec::JsonHandle::default();
    let texts = [
        r#"{"x":1}"#,
        r#" { "x" : 1 , "ÿ" : 2 } "#,
        "{\n\t\"x\"\r\n:\n1}",
        r#"{"\u0078":1}"#,
        r#"{"x\"":1}"#,
        r#"{"\u00ff":2,"x":1}"#,
        r#"{"x" 1}"#,
        r#"{"x":1,}"#,
        r#"{"x":1 "y":2}"#,
        r#"{"x"::1}"#,
        r#"{x:1}"#,
        r#"{"x":1,"x":2}"#,
        r#"{"y":1}"#,
        "{\"x\u{1}\":1}",
        r#"{"x":1"#,
        r#"{"x""#,
        r#"{"x"#,
        r#"{""#,
        r#"{"#,
        r#"{"id":1,"baseName":null,"zzz":[1,{"a":2}]}"#,
        r#"{"id":1,"a":1,"more":true}"#,
        r#"{"a":1,"a":2}"#,
        r#"{"a":1,"":2}"#,
        r#"[{"x":1},{"x":2,"ÿ":null}]"#,
        r#"{"a":1,"b":2,"c":3,"d":4,"e":5}"#,
        r#"{"a":1,"bad":2}"#,
        r#"{"a":1,"b\u0061d":2}"#,
        // Derived decoders expect the field after the last one read (here
        // `id`, then `baseName`; `x`, then `twenty_two_byte_name_z` after
        // `ÿ`): the same results when the key is that name, a name it
        // begins, a longer or shorter one, escaped, spaced, or out of order.
        r#"{"id":1,"baseName":"q"}"#,
        r#"{"idx":1,"id":2}"#,
        r#"{"idd:1}"#,
        r#"{"id :1}"#,
        r#"{"i":1,"id":2}"#,
        r#"{"i\u0064":1,"baseName":"q"}"#,
        r#"{"id" :1,"baseName"  :null}"#,
        r#"{"id":1,"baseNam":null}"#,
        r#"{"id":1,"baseNameX":null}"#,
        r#"{"id":1,"baseName"}"#,
        r#"{"id":1,"baseName":null,"baseName":null}"#,
        r#"{"baseName":null,"id":1}"#,
        r#"[{"x":1,"ÿ":2,"twenty_two_byte_name_z":true}]"#,
        r#"[{"x":1,"ÿ":2,"twenty_two_byte_name_z":false,"x":2}]"#,
        r#"[{"x":1,"ÿ":2,"twenty_two_byte_name_Z":false}]"#,
        r#"[{"x":1,"ÿ":2,"twenty_two_byte_name_":false}]"#,
        r#"[{"x":1,"ÿ":2,"twenty_two_byte_name_zz":false}]"#,
        r#"[{"x":1,"ÿ":2,"twenty_two_byte_name_z"#,
        r#"[{"ÿ":2,"x":1}]"#,
        r#"[{"x":1,"ÿ":null,"twenty_two_byte_name_z":null,"w\\":2}]"#,
        r#"[{"x":1,"ÿ":null,"twenty_two_byte_name_z":null,"w\":2}]"#,
        r#"{"id":1,"a_field_name_longer_than_thirty_one_bytes":[],"inner":[],"flag":true}"#,
        r#"{"a_field_name_longer_than_thirty_one_bytes":[],"inner":[],"flag":true,"id":1}"#,
        r#"{"a_field_name_longer_than_thirty_one_bytes":[],"inner":[],"inner":[]}"#,
    ];
    for t in texts {
        all_types(&h, t.as_bytes());
    }
}

/// Random damage (a byte changed, dropped or doubled) to encoded structs:
/// both paths still agree. `MAP_KEY_FUZZ_CASES` sets the number per handle.
#[test]
fn damaged_struct_keys_decode_as_the_general_path() {
    let cases: usize = std::env::var("MAP_KEY_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(600);
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15u64);
    each_handle!(h => {
        let seeds = encodings(&h);
        for k in 0..cases {
            let mut input = seeds[k % seeds.len()].clone();
            damage(&mut input, &mut next);
            let strict = Options::default().error_on_unknown_field(true).decode;
            same_as_general::<Item, _>(&h, &DecodeOptions::default(), &input);
            same_as_general::<Open, _>(&h, &strict, &input);
        }
    });
}
