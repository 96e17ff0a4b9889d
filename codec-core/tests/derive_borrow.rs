//! Borrowed fields (`&'de str`, `&'de [u8]`, `Cow<'de, str>`) decoded without
//! copying, through a minimal tag-length-value format written for this test
//! (the real format crates test the same through their own bytes).
extern crate codec_core as codec;

use codec::{
    Codec, DecodeFormat, DecodeOptions, Decoder, EncodeFormat, EncodeOptions, Encoder, Error, Kind,
    Read, Reference, Result, Seq, SliceReader, Time, Write,
};
use std::borrow::Cow;

struct Tlv;

impl EncodeFormat for Tlv {
    const NAME: &'static str = "tlv";
    fn write_nil<W: Write>(&mut self, w: &mut W) -> Result<()> {
        w.write_all(&[0])
    }
    fn write_bool<W: Write>(&mut self, w: &mut W, v: bool) -> Result<()> {
        w.write_all(&[1 + v as u8])
    }
    fn write_i64<W: Write>(&mut self, w: &mut W, v: i64) -> Result<()> {
        w.write_all(&[3])?;
        w.write_all(&v.to_be_bytes())
    }
    fn write_u64<W: Write>(&mut self, w: &mut W, v: u64) -> Result<()> {
        w.write_all(&[4])?;
        w.write_all(&v.to_be_bytes())
    }
    fn write_f32<W: Write>(&mut self, w: &mut W, v: f32) -> Result<()> {
        self.write_f64(w, v as f64)
    }
    fn write_f64<W: Write>(&mut self, w: &mut W, v: f64) -> Result<()> {
        w.write_all(&[5])?;
        w.write_all(&v.to_be_bytes())
    }
    fn write_str<W: Write>(&mut self, w: &mut W, v: &str) -> Result<()> {
        w.write_all(&[6])?;
        w.write_all(&(v.len() as u32).to_be_bytes())?;
        w.write_all(v.as_bytes())
    }
    fn write_bytes<W: Write>(&mut self, w: &mut W, v: &[u8]) -> Result<()> {
        w.write_all(&[7])?;
        w.write_all(&(v.len() as u32).to_be_bytes())?;
        w.write_all(v)
    }
    fn write_array_start<W: Write>(&mut self, w: &mut W, len: usize) -> Result<()> {
        w.write_all(&[8])?;
        w.write_all(&(len as u32).to_be_bytes())
    }
    fn write_map_start<W: Write>(&mut self, w: &mut W, len: usize) -> Result<()> {
        w.write_all(&[9])?;
        w.write_all(&(len as u32).to_be_bytes())
    }
    fn write_time<W: Write>(&mut self, _: &mut W, _: &Time) -> Result<()> {
        Err(Error::unsupported("time"))
    }
    fn write_ext<W: Write>(&mut self, _: &mut W, _: u64, _: &[u8]) -> Result<()> {
        Err(Error::unsupported("ext"))
    }
    fn side(&self) -> Self {
        Tlv
    }
}

fn head<'de, R: Read<'de>>(r: &mut R, tag: u8, what: &'static str) -> Result<()> {
    let t = r.read_u8()?;
    if t == tag {
        Ok(())
    } else {
        Err(Error::type_mismatch(what, format!("tag {t}")))
    }
}

fn len<'de, R: Read<'de>>(r: &mut R) -> Result<usize> {
    Ok(u32::from_be_bytes(r.read_array()?) as usize)
}

impl DecodeFormat for Tlv {
    const NAME: &'static str = "tlv";
    fn peek_kind<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Kind> {
        Ok(match r.peek()?.ok_or_else(Error::eof)? {
            0 => Kind::Nil,
            1 | 2 => Kind::Bool,
            3 => Kind::Int,
            4 => Kind::Uint,
            5 => Kind::Float64,
            6 => Kind::Str,
            7 => Kind::Bytes,
            8 => Kind::Array,
            9 => Kind::Map,
            t => return Err(Error::syntax(format!("bad tag {t}"))),
        })
    }
    fn try_nil<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        if r.peek()? == Some(0) {
            r.read_u8()?;
            return Ok(true);
        }
        Ok(false)
    }
    fn read_bool<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<bool> {
        match r.read_u8()? {
            1 => Ok(false),
            2 => Ok(true),
            t => Err(Error::type_mismatch("bool", t)),
        }
    }
    fn read_i64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<i64> {
        match r.read_u8()? {
            3 => Ok(i64::from_be_bytes(r.read_array()?)),
            4 => {
                let v = u64::from_be_bytes(r.read_array()?);
                i64::try_from(v).map_err(|_| Error::out_of_range("i64", v))
            }
            t => Err(Error::type_mismatch("integer", t)),
        }
    }
    fn read_u64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<u64> {
        match r.read_u8()? {
            4 => Ok(u64::from_be_bytes(r.read_array()?)),
            3 => {
                let v = i64::from_be_bytes(r.read_array()?);
                u64::try_from(v).map_err(|_| Error::out_of_range("u64", v))
            }
            t => Err(Error::type_mismatch("integer", t)),
        }
    }
    fn read_f64<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<f64> {
        head(r, 5, "float")?;
        Ok(f64::from_be_bytes(r.read_array()?))
    }
    fn read_str<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, str>> {
        head(r, 6, "text string")?;
        let n = len(r)?;
        r.read_slice(n, scratch)?.into_str()
    }
    fn read_bytes<'de, 's, R: Read<'de>>(
        &mut self,
        r: &'s mut R,
        scratch: &'s mut Vec<u8>,
    ) -> Result<Reference<'de, 's, [u8]>> {
        head(r, 7, "byte string")?;
        let n = len(r)?;
        r.read_slice(n, scratch)
    }
    fn array_begin<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Seq> {
        head(r, 8, "array")?;
        Ok(Seq::definite(len(r)?))
    }
    fn array_next<'de, R: Read<'de>>(&mut self, _: &mut R, seq: &mut Seq) -> Result<bool> {
        Ok(seq.next_definite(seq.len.unwrap_or(0)))
    }
    fn map_begin<'de, R: Read<'de>>(&mut self, r: &mut R) -> Result<Seq> {
        head(r, 9, "map")?;
        Ok(Seq::definite(len(r)?))
    }
    fn map_next<'de, R: Read<'de>>(&mut self, _: &mut R, seq: &mut Seq) -> Result<bool> {
        Ok(seq.next_definite(seq.len.unwrap_or(0)))
    }
    fn read_time<'de, R: Read<'de>>(&mut self, _: &mut R, _: &mut Vec<u8>) -> Result<Time> {
        Err(Error::unsupported("time"))
    }
    fn read_ext<'de, 's, R: Read<'de>>(
        &mut self,
        _: &'s mut R,
        _: &'s mut Vec<u8>,
    ) -> Result<(u64, Reference<'de, 's, [u8]>)> {
        Err(Error::unsupported("ext"))
    }
}

fn encode<T: codec::Encode>(v: &T) -> Vec<u8> {
    let mut e = Encoder::new(Vec::new(), Tlv, EncodeOptions::default());
    v.encode(&mut e).unwrap();
    e.into_writer()
}

fn decode<'de, T: codec::Decode<'de>>(b: &'de [u8]) -> Result<T> {
    Decoder::new(SliceReader::new(b), Tlv, DecodeOptions::default()).decode_exact()
}

#[derive(Codec, Debug, PartialEq)]
struct Borrowed<'a> {
    name: &'a str,
    raw: &'a [u8],
    cow: Cow<'a, str>,
    list: Vec<&'a str>,
    opt: Option<&'a str>,
}

#[derive(Codec, Debug, PartialEq)]
struct TwoLifetimes<'a, 'b, T> {
    a: &'a str,
    b: Cow<'b, [u8]>,
    t: T,
    #[codec(flatten)]
    inner: Borrowed<'a>,
}

#[derive(Codec, Debug, PartialEq)]
enum BorrowedEnum<'a> {
    Name(&'a str),
    Both { a: &'a str, b: &'a [u8] },
}

fn ptr_in(s: &[u8], buf: &[u8]) -> bool {
    let r = buf.as_ptr_range();
    r.contains(&s.as_ptr())
}

#[test]
fn borrows_from_the_input() {
    let b = Borrowed {
        name: "ünï",
        raw: &[1, 2, 3],
        cow: Cow::Borrowed("cow"),
        list: vec!["x", "y"],
        opt: Some("o"),
    };
    let bytes = encode(&b);
    let back: Borrowed<'_> = decode(&bytes).unwrap();
    assert_eq!(back, b);
    assert!(ptr_in(back.name.as_bytes(), &bytes));
    assert!(ptr_in(back.raw, &bytes));
    assert!(ptr_in(back.list[1].as_bytes(), &bytes));
}

#[test]
fn several_lifetimes_and_generics() {
    let t = TwoLifetimes {
        a: "a",
        b: Cow::Borrowed(&[9u8][..]),
        t: 5u16,
        inner: Borrowed {
            name: "n",
            raw: &[],
            cow: Cow::Owned("c".into()),
            list: vec![],
            opt: None,
        },
    };
    let bytes = encode(&t);
    let back: TwoLifetimes<'_, '_, u16> = decode(&bytes).unwrap();
    assert_eq!(back, t);
    assert!(ptr_in(back.a.as_bytes(), &bytes));
    assert!(ptr_in(back.inner.name.as_bytes(), &bytes));
}

#[test]
fn borrowed_enum() {
    for v in [
        BorrowedEnum::Name("n"),
        BorrowedEnum::Both { a: "a", b: b"bb" },
    ] {
        let bytes = encode(&v);
        assert_eq!(decode::<BorrowedEnum<'_>>(&bytes).unwrap(), v);
    }
}

#[test]
fn truncated_inputs_are_errors() {
    let b = Borrowed {
        name: "n",
        raw: &[1],
        cow: Cow::Borrowed("c"),
        list: vec!["l"],
        opt: None,
    };
    let bytes = encode(&b);
    for i in 0..bytes.len() {
        assert!(decode::<Borrowed<'_>>(&bytes[..i]).is_err(), "prefix {i}");
    }
}
