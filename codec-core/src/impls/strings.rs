//! Text and byte strings: `String`, `str`, `&str`, `Cow<str>`, `Box<str>`,
//! `&[u8]`, `Cow<[u8]>`.

use crate::encode::CanonicalKey;
use crate::read::Reference;
use crate::{
    Decode, DecodeFormat, Decoder, Encode, EncodeFormat, Encoder, Error, PathSegment, Read, Result,
    Write,
};
use std::borrow::Cow;

impl Encode for str {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_str(self)
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
    #[inline]
    fn canonical_key(&self) -> CanonicalKey<'_> {
        CanonicalKey::Bytes(self.as_bytes())
    }
    const CANONICAL_ORD: bool = true;
}

impl Encode for String {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        e.encode_str(self)
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
    #[inline]
    fn canonical_key(&self) -> CanonicalKey<'_> {
        CanonicalKey::Bytes(self.as_bytes())
    }
    const CANONICAL_ORD: bool = true;
}

impl<'de> Decode<'de> for String {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(String::new())
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        d.decode_string()
    }
    #[cold]
    fn path_segment(&self) -> Option<PathSegment> {
        Some(PathSegment::Key(self.to_string()))
    }
    /// Reuses the string's buffer.
    #[inline]
    fn decode_into<R: Read<'de>, F: DecodeFormat>(
        &mut self,
        d: &mut Decoder<'de, R, F>,
    ) -> Result<()> {
        let s = d.decode_str()?;
        self.clear();
        self.push_str(&s);
        Ok(())
    }
}

impl<'de> Decode<'de> for Box<str> {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(Box::default())
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        Ok(Box::from(&*d.decode_str()?))
    }
    #[cold]
    fn path_segment(&self) -> Option<PathSegment> {
        Some(PathSegment::Key(self.to_string()))
    }
}

/// Borrows from the input: works from a slice when the string needs no
/// unescaping or joining; use `Cow<str>` or `String` otherwise.
impl<'de> Decode<'de> for &'de str {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some("")
    }
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let off = d.offset();
        match d.decode_str()? {
            Reference::Borrowed(s) => Ok(s),
            Reference::Copied(_) => Err(cannot_borrow("&str", "Cow<str> or String").at(off)),
        }
    }
    #[cold]
    fn path_segment(&self) -> Option<PathSegment> {
        Some(PathSegment::Key(self.to_string()))
    }
}

impl<'de> Decode<'de> for Cow<'de, str> {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(Cow::Borrowed(""))
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        Ok(match d.decode_str()? {
            Reference::Borrowed(s) => Cow::Borrowed(s),
            Reference::Copied(s) => Cow::Owned(s.to_owned()),
        })
    }
    #[cold]
    fn path_segment(&self) -> Option<PathSegment> {
        Some(PathSegment::Key(self.to_string()))
    }
}

/// Borrows from the input (a byte string read from a slice).
impl<'de> Decode<'de> for &'de [u8] {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(&[])
    }
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        let off = d.offset();
        match d.decode_bytes()? {
            Reference::Borrowed(s) => Ok(s),
            Reference::Copied(_) => Err(cannot_borrow("&[u8]", "Cow<[u8]> or Vec<u8>").at(off)),
        }
    }
}

impl<'de> Decode<'de> for Cow<'de, [u8]> {
    #[inline]
    fn empty_value() -> Option<Self> {
        Some(Cow::Borrowed(&[]))
    }
    #[inline]
    fn decode<R: Read<'de>, F: DecodeFormat>(d: &mut Decoder<'de, R, F>) -> Result<Self> {
        Ok(match d.decode_bytes()? {
            Reference::Borrowed(s) => Cow::Borrowed(s),
            Reference::Copied(s) => Cow::Owned(s.to_owned()),
        })
    }
}

/// `Cow<'_, B>` writes what `B` writes (`Cow<str>` a text string, `Cow<[u8]>` a byte string).
impl<B: Encode + ToOwned + ?Sized> Encode for Cow<'_, B> {
    #[inline]
    fn encode<W: Write, F: EncodeFormat>(&self, e: &mut Encoder<W, F>) -> Result<()> {
        (**self).encode(e)
    }
    #[inline]
    fn is_empty_value(&self) -> bool {
        (**self).is_empty_value()
    }
    #[inline]
    fn canonical_key(&self) -> CanonicalKey<'_> {
        (**self).canonical_key()
    }
    const CANONICAL_ORD: bool = B::CANONICAL_ORD;
}

#[cold]
fn cannot_borrow(target: &str, alternative: &str) -> Error {
    Error::custom(format!(
        "cannot borrow {target} from this input (escaped, chunked or read from a stream); decode into {alternative}"
    ))
}
